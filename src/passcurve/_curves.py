r"""Whole curves: pass@k, pass^k and naive pass@k over problems, per model, for many k at once.

The benchmark-level pass_D@k is the (optionally weighted) mean over problems of the
per-problem unbiased estimates. Problems sharing (n, c) share a curve, so the cost is
O(max k) per *distinct* (n, c), not per problem; the per-problem matrix is never built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ._counts import Counts, check_counts_object
from ._errors import DroppedProblemsWarning, PasscurveError, record_warning
from ._estimators import _SHORT, _fail_prob, _log_fail_table, g_pass_at_k, mg_pass_at_k
from ._pairs import distinct_pairs
from ._results import ReadOnlyResult, brief_repr, frame_html, level_label, long_frame, metric_label
from ._validation import (
    MAX_GRID,
    as_int_array,
    budget_grid,
    check_choice,
    check_choices,
    check_counts,
    check_flag,
    check_k_gt_n,
    check_k_le_min_n,
    check_tau,
    check_weights,
    fmt,
    own_range_ends,
    own_range_top,
)

__all__ = ["curve", "CurveResult", "mean_curve", "METRICS", "CURVE_METRICS"]

METRICS = ("pass_at_k", "pass_pow_k", "naive_pass_at_k")
"""The metrics a curve holds by default."""
CURVE_METRICS = METRICS + ("g_pass_at_k", "mg_pass_at_k")
"""Every metric :func:`curve` and :func:`mean_curve` average over problems (G-pass@k needs its threshold ``tau``)."""


def _json_float(x: float) -> float | None:
    return None if not np.isfinite(x) else float(x)


@dataclass(frozen=True, eq=False)
class CurveResult(ReadOnlyResult):
    """pass@k-family curves per model.

    Attributes
    ----------
    models : tuple of str
    k : ndarray of int, shape (K,)
        The budgets, shared by every model.
    values : dict of str to ndarray, shape (M, K)
        Per metric ("pass_at_k", "pass_pow_k", "naive_pass_at_k", "g_pass_at_k", "mg_pass_at_k"), the mean over
        problems; NaN where no problem of that model has n >= k.
    problems : ndarray of int, shape (M, K)
        How many problems entered the mean at each k.
    dropped : ndarray of int, shape (M, K)
        How many problems were left out at each k because n < k (``k_gt_n="drop"``).
    summary : tuple of dict
        Per model: problems, samples per problem (min / median / max), samples, successes.
    intervals : dict of str to (low, high)
        Optional confidence intervals per metric, each an (M, K) array.
    confidence_level : float or None
    interval_method : str or None
        The method of ``intervals`` (:func:`passcurve.curve_intervals`' ``method``); None without intervals.
    few_problems : dict of str to ndarray of bool, shape (M, K)
        Per metric with intervals, True where the mean rests on fewer than 10 problems (nearly every other
        problem scores 0 there, or 1): the interval there is the distribution-free Wilson bound on the number
        of problems, not the method's own (:func:`passcurve.curve_intervals`; its warning names the k).
    warnings : tuple of str
        Every warning raised while computing, verbatim.
    design : str or None
        The sampling design the estimates assume when it is not "n fixed in advance"
        (e.g. "stop at success (batch 60, cap 10020)").
    tau : float or None
        G-pass@k's threshold when the result holds "g_pass_at_k".
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    k: np.ndarray
    values: dict[str, np.ndarray]
    problems: np.ndarray
    dropped: np.ndarray
    summary: tuple[dict[str, Any], ...]
    intervals: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    confidence_level: float | None = None
    interval_method: str | None = None
    warnings: tuple[str, ...] = ()
    design: str | None = None
    tau: float | None = None
    few_problems: dict[str, np.ndarray] = field(default_factory=dict)

    def last_index(self, metric: str = "pass_at_k") -> np.ndarray:
        """Per model, the index into ``k`` of its last estimated value: where its own range ends
        (``k_gt_n="nan"``); the last index for a model with no value at all.

        Parameters
        ----------
        metric : str, default "pass_at_k"
            A metric the result holds.

        Returns
        -------
        ndarray of int, shape (models,)
        """
        if not isinstance(metric, str) or metric not in self.values:
            raise PasscurveError(
                f"`metric` must be one of {', '.join(map(repr, self.values))} (got metric={metric!r})"
            )
        has = np.isfinite(self.values[metric])
        return np.where(has.any(axis=1), has.shape[1] - 1 - np.argmax(has[:, ::-1], axis=1), has.shape[1] - 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"models": [{"model", "problems", ..., "curve": [{"k", metric...,
        "low"/"high"}]}]}``; a point whose interval is the Wilson bound (``few_problems``) has
        ``"few_problems": true`` (``"<metric>_few_problems"`` for the other metrics)."""
        out = []
        for i, m in enumerate(self.models):
            pts = []
            for j, k in enumerate(self.k):
                pt: dict[str, Any] = {"k": int(k)}
                for name, arr in self.values.items():
                    pt[name] = _json_float(arr[i, j])
                    if name in self.intervals:
                        lo, hi = self.intervals[name]
                        if name == "pass_at_k":
                            pt["low"], pt["high"] = _json_float(lo[i, j]), _json_float(hi[i, j])
                        else:
                            pt[f"{name}_low"], pt[f"{name}_high"] = _json_float(lo[i, j]), _json_float(hi[i, j])
                        if name in self.few_problems and self.few_problems[name][i, j]:
                            pt["few_problems" if name == "pass_at_k" else f"{name}_few_problems"] = True
                pt["problems"] = int(self.problems[i, j])
                if self.dropped[i, j]:
                    pt["dropped"] = int(self.dropped[i, j])
                pts.append(pt)
            entry = {"model": m, **self.summary[i], "curve": pts}
            out.append(entry)
        res: dict[str, Any] = {"models": out}
        if self.design is not None:
            res["design"] = self.design
        if self.tau is not None:
            res["tau"] = self.tau
        if self.confidence_level is not None:
            res["confidence_level"] = self.confidence_level
            res["interval_method"] = self.interval_method
        if self.warnings:
            res["warnings"] = list(self.warnings)
        return res

    def to_frame(self) -> Any:
        """Long pandas DataFrame, one row per (model, k), the records of :meth:`to_dict`.

        Columns: ``model``; ``k``; one column per metric held (``pass_at_k``, ``pass_pow_k``, ``naive_pass_at_k``,
        ``g_pass_at_k``, ...: the mean over problems); with intervals (``curve_intervals``), ``low`` and ``high``,
        the ends of pass@k's interval at ``confidence_level``, and ``<metric>_low``/``<metric>_high`` for each
        other metric's (``pass_pow_k_low``, ...), and ``few_problems`` / ``<metric>_few_problems`` (True where
        that interval is the Wilson bound on the number of problems, NaN elsewhere; a column only when some point
        has it); ``problems``, the number of problems averaged at that k; ``dropped`` (a column only when problems
        were dropped: ``k_gt_n="drop"``), the number with n < k.

        The unprefixed ``low``/``high`` are pass@k's, as in every other result's records (``forecast``,
        ``extrapolation_bounds``, ``backtest``: the estimate's interval is ``low``/``high``), and an interval
        of another column is named after it, as ``rank_low``/``rank_high`` in :meth:`RankResult.to_frame`."""
        return long_frame(self.to_dict())

    def plot(self, metric: str | None = None, *, log_k: bool = True) -> Any:
        """A plotly Figure of ``metric`` against k, one line per model (bands if intervals exist).

        Parameters
        ----------
        metric : str, optional
            A metric the result holds; default pass@k, or the first metric held when there is no pass@k.
        log_k : bool, default True
            A logarithmic k axis.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        log_k = check_flag(log_k, "log_k")  # "no" was true, an array numpy's ambiguous-truth error
        import plotly.graph_objects as go

        if metric is None:
            metric = "pass_at_k" if "pass_at_k" in self.values else next(iter(self.values))
        metric = check_choice(metric, "metric", tuple(self.values), what="a metric the result holds:")

        fig = go.Figure()
        for i, m in enumerate(self.models):
            if metric in self.intervals:
                lo, hi = self.intervals[metric]
                fig.add_trace(
                    go.Scatter(
                        x=np.concatenate([self.k, self.k[::-1]]),
                        y=np.concatenate([hi[i], lo[i][::-1]]),
                        fill="toself",
                        line={"width": 0},
                        opacity=0.2,
                        name=f"{m} {level_label(self.confidence_level)} interval" if self.confidence_level
                        else f"{m} interval",
                        showlegend=False,
                        hoverinfo="skip",
                    )
                )
            fig.add_trace(go.Scatter(x=self.k, y=self.values[metric][i], mode="lines", name=m))
        fig.update_layout(xaxis_title="k", yaxis_title=metric_label(metric, self.tau), template="plotly_white")
        if metric in self.intervals and self.confidence_level is not None:
            # the bands' level and method, as the forecast's and the ranking's titles say theirs (the bands were
            # drawn unlabelled: a reader could not tell a 95% band from an 80% one)
            fig.update_layout(title=f"{metric_label(metric, self.tau)} with {level_label(self.confidence_level)} "
                                    f"intervals ({self.interval_method})")
        if log_k:
            fig.update_xaxes(type="log")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def mean_curve(
    n: np.ndarray,
    c: np.ndarray,
    ks: np.ndarray,
    metric: str = "pass_at_k",
    weights: np.ndarray | None = None,
    tau: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    r"""(Weighted) mean over problems of one metric at each k, and the weight that entered.

    Problems with n < k are left out at that k (the caller decides whether that is an
    error). Returns ``(mean, wsum)``.

    .. math:: \bar m(k) = \sum_{i: n_i \ge k} w_i\, m(n_i, c_i, k) \Big/ \sum_{i: n_i \ge k} w_i

    Parameters
    ----------
    n, c : array_like of int, shape (P,)
        Samples drawn and samples correct per problem.
    ks : array_like of int, shape (K,)
        The k (>= 1).
    metric : {"pass_at_k", "pass_pow_k", "naive_pass_at_k", "g_pass_at_k", "mg_pass_at_k"}
    weights : array_like of float, shape (P,), optional
        Per-problem weights (>= 0, positive sum); equal weights by default.
    tau : float, optional
        G-pass@k's threshold in [0, 1]: required with "g_pass_at_k", an error with the others.

    Returns
    -------
    (mean, wsum) : tuple of ndarray, shape (K,)
        The mean at each k (NaN where no problem has n >= k) and the weight of the problems
        that entered it.

    References
    ----------
    M. Chen et al., "Evaluating Large Language Models Trained on Code", arXiv:2107.03374 (the per-problem
    estimator whose mean over problems is pass_D@k).
    """
    n, c = check_counts(as_int_array(n, "n", minimum=1, max_ndim=1).ravel(), as_int_array(c, "c", max_ndim=1).ravel())
    ks = as_int_array(ks, "ks", minimum=1, max_ndim=1).ravel()
    check_choice(metric, "metric", CURVE_METRICS)
    tau = check_tau(tau, (metric,))
    w = np.ones(n.size) if weights is None else check_weights(weights, n.size, "weights")
    order = np.argsort(ks)
    uk = ks[order]
    # denominators: total weight of problems with n >= k
    srt = np.argsort(n)
    wcum = np.concatenate([[0.0], np.cumsum(w[srt])])
    below = np.searchsorted(n[srt], uk, side="left")  # problems with n < k
    wsum = wcum[-1] - wcum[below]
    if metric == "naive_pass_at_k":
        # per distinct (n, c) pair with its summed weight, in blocks of k: the problems x k matrix took 1.8 GB at
        # 10^4 x 10^4 and would not fit at 10^5 problems
        first, inv = distinct_pairs(n, c)
        pn, pw = n[first], np.bincount(inv, weights=w, minlength=first.size)
        with np.errstate(divide="ignore"):
            lq = np.log1p(-(c[first] / pn))  # -inf where c = n: every k solves it
        total = np.empty(uk.size)
        step = max(1, (1 << 22) // max(first.size, 1))
        for j in range(0, uk.size, step):
            kb = uk[j:j + step]
            vals = -np.expm1(kb[None, :] * lq[:, None])
            total[j:j + step] = pw @ np.where(pn[:, None] >= kb[None, :], vals, 0.0)
    elif metric in ("g_pass_at_k", "mg_pass_at_k"):
        # the estimators' own exact sums per distinct (n, c) pair with its summed weight, in blocks of k (NaN, where
        # n < k, enters as 0: those problems are not in wsum either)
        first, inv = distinct_pairs(n, c)
        pn, pc, pw = n[first], c[first], np.bincount(inv, weights=w, minlength=first.size)
        total = np.empty(uk.size)
        step = max(1, (1 << 20) // max(first.size, 1))
        for j in range(0, uk.size, step):
            kb = uk[j:j + step][None, :]
            tab = (g_pass_at_k(pn[:, None], pc[:, None], kb, tau, k_gt_n="nan") if metric == "g_pass_at_k"
                   else mg_pass_at_k(pn[:, None], pc[:, None], kb, k_gt_n="nan"))
            total[j:j + step] = pw @ np.nan_to_num(np.asarray(tab, dtype=np.float64), nan=0.0)
    else:
        cc = c if metric == "pass_at_k" else n - c
        first, inv = distinct_pairs(n, cc)
        pw = np.bincount(inv, weights=w, minlength=first.size)
        up = np.stack([n[first], cc[first]], axis=1)
        if metric == "pass_at_k":
            def tr(x: np.ndarray) -> np.ndarray:
                return -np.expm1(x)
        else:  # pass_pow_k (check_choice above admits METRICS only)
            def tr(x: np.ndarray) -> np.ndarray:
                return np.exp(x)
        total = _log_fail_table(up[:, 0], up[:, 1], uk, transform=tr, weights=pw, exact=metric == "pass_pow_k")
        short = uk <= _SHORT
        if metric == "pass_pow_k" and short.any():
            # the first k as plain products, as pass_pow_k gives them (exp of the log-sum kept its rounding)
            tab = _fail_prob(up[:, 0, None], up[:, 1, None], uk[short][None, :])
            total[short] = pw @ np.where(np.isnan(tab), 0.0, tab)
    one = (uk == 1) & (metric != "mg_pass_at_k")  # mG-pass@1 is 0 by its definition (an empty sum)
    if one.any():
        # at k = 1 every other metric is the mean share of samples correct: one sum, the same for all (each path
        # above rounds its own way and sums its distinct pairs in its own order; pass@1 printed 0.0387 beside
        # pass^1 0.0388 for 0.03875)
        total[one] = w @ (c / n)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(wsum > 0, total / np.where(wsum > 0, wsum, 1.0), np.nan)
    out = np.empty_like(mean)
    out[order] = np.clip(mean, 0.0, 1.0) + 0.0
    ws = np.empty_like(wsum)
    ws[order] = wsum
    return out, ws


def _pad(values: np.ndarray, size: int) -> np.ndarray:
    """``values`` at the first k of a grid of ``size``, NaN at the rest."""
    return np.concatenate([values, np.full(size - values.size, np.nan)])


def default_top(counts: Counts, k_gt_n: str, design: Any = None) -> int:
    """The largest k of a default grid: the smallest n ("raise"), the largest n ("drop", or under a design),
    or the largest of the models' smallest n ("nan": every model to its own range)."""
    if design is not None or k_gt_n == "drop":
        return int(counts.n.max())
    return own_range_top(counts.n, counts.model) if k_gt_n == "nan" else int(counts.n.min())


def with_own_ends(ks: np.ndarray, counts: Counts, k_gt_n: str, design: Any = None) -> np.ndarray:
    """A default grid ``ks`` with each model's smallest n added under "nan" (no design), so that every
    model's curve ends on the grid at its own range's end."""
    if k_gt_n != "nan" or design is not None:
        return ks
    return np.union1d(ks, own_range_ends(counts.n, counts.model)).astype(np.int64)


def own_range(used: np.ndarray, size: int, k_gt_n: str) -> np.ndarray:
    """Where a model's mean is reported: every k under "raise"/"drop", under "nan" only where all of its
    ``size`` problems enter (``used`` per k, non-increasing), so no mean rests on a subset of the problems."""
    return used == size if k_gt_n == "nan" else np.ones(used.shape, dtype=bool)


def _curve_iv(counts: Any, k: Any, k_gt_n: str, metrics: Any, design: Any = None,
              tau: Any = None) -> tuple[Counts, np.ndarray, tuple[str, ...], Any, float | None]:
    check_counts_object(counts)
    check_k_gt_n(k_gt_n)
    if design is not None:  # the stopping-time design's module imports scipy: a plain curve does not need it
        from ._adaptive import check_design

        design = check_design(design)
    metrics = (METRICS if design is None else ("pass_at_k",)) if metrics is None else check_choices(metrics, "metrics",
                                                                                                      CURVE_METRICS)
    tau = check_tau(tau, metrics)
    if design is not None:
        design.check(counts.n, counts.c, metrics, None if k is None else as_int_array(k, "k", minimum=1), "metrics")
    if k is None:
        top = default_top(counts, k_gt_n, design)
        if top > MAX_GRID:  # every k up to n = 10^9 asked numpy for 7.5 GB per array: the process was killed for memory
            raise PasscurveError(f"`k` is needed for n this large: the default, every k from 1 to {top}, is {top:.3g} "
                                 f"budgets (max {MAX_GRID:.0e}); give `k`, e.g. a log-spaced grid "
                                 f"(passcurve.default_k_grid(n) in Python)")
        ks = np.arange(1, top + 1, dtype=np.int64)
    else:
        ks = budget_grid(k)
        if k_gt_n == "raise" and design is None:
            check_k_le_min_n(counts.n, ks, counts.problem, counts.model)
    return counts, ks, metrics, design, tau


def curve(
    counts: Counts,
    k: Any = None,
    *,
    k_gt_n: Literal["raise", "drop", "nan"] = "raise",
    metrics: Any = None,
    weighted: bool = True,
    design: Any = None,
    tau: float | None = None,
) -> CurveResult:
    r"""pass@k, pass^k and naive pass@k (or G-pass@k, mG-pass@k) averaged over problems, per model, at many k.

    .. math:: \text{pass}_D@k = \frac{\sum_i w_i\,\widehat{\text{pass@}k}(n_i, c_i)}{\sum_i w_i}

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts (``passcurve.read_counts`` or ``Counts.from_arrays``).
    k : int or sequence of int, optional
        The budgets. Default: every k from 1 to the smallest n (``k_gt_n="raise"``), to
        the largest n (``k_gt_n="drop"``), or to the largest of the models' smallest n
        (``k_gt_n="nan"``); that n may be at most 10^6 (beyond it, give ``k``: every k up to n = 10^9 had the
        process killed for memory). Sorted ascending, repeats removed: the result's ``k`` is the order of its values,
        not the order given.
    k_gt_n : {"raise", "drop", "nan"}, default "raise"
        Where a problem has n < k: raise a ``ValueError`` naming k and n; or leave that
        problem out of the mean at that k, report how many were left out per point
        (``dropped``) and warn with :class:`DroppedProblemsWarning`; or ("nan") give that
        model NaN at that k (``problems`` 0), so each model's curve runs to its own smallest
        n and no mean rests on a subset of its problems (models sampled to different n in
        one file). Never counts it as 1.
    metrics : sequence of str, optional
        Any of "pass_at_k", "pass_pow_k", "naive_pass_at_k" (default: these three; only
        "pass_at_k" under a stop-at-success ``design``), "g_pass_at_k" (needs ``tau``) and "mg_pass_at_k"
        (Liu et al. 2024, arXiv:2412.13147; :func:`passcurve.g_pass_at_k`, :func:`passcurve.mg_pass_at_k`).
    weighted : bool, default True
        Use ``counts.weight`` when present.
    design : StopAtSuccess, optional
        How n came about. None (default): fixed in advance. :class:`passcurve.StopAtSuccess`:
        sampling stopped at the first batch with a success, so n is a stopping time and each
        problem's pass@k is the stopping-time estimator (exactly unbiased up to the cap;
        k > n counts a solved problem as solved, and leaves out, with a warning, a problem
        that stopped unsolved before k). Only ``"pass_at_k"`` is defined then.
    tau : float, optional
        G-pass@k's threshold in [0, 1], with "g_pass_at_k" among ``metrics`` (an error otherwise).

    Returns
    -------
    CurveResult

    References
    ----------
    M. Chen et al., "Evaluating Large Language Models Trained on Code", arXiv:2107.03374 (pass@k); S. Yao et al.,
    "τ-bench", arXiv:2406.12045 (pass^k); J. Liu et al., "Are Your LLMs Capable of Stable Reasoning?",
    arXiv:2412.13147 (G-pass@k, mG-pass@k).
    """
    counts, ks, metrics, design, tau = _curve_iv(counts, k, k_gt_n, metrics, design, tau)
    weighted = check_flag(weighted, "weighted")
    models = []
    vals: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    problems, dropped, summary = [], [], []
    warns: list[str] = []
    for name, sub in counts.groups():
        w = sub.weight if (weighted and sub.weight is not None) else None
        models.append(name)
        summary.append(sub.samples_summary())
        if design is not None:
            used = design.estimable(sub.n, sub.c, ks).sum(axis=0)
        else:
            used = sub.n.size - np.searchsorted(np.sort(sub.n), ks, side="left")
        ok = own_range(used, sub.n.size, k_gt_n)
        kk = ks[ok]  # a prefix: ``used`` does not grow with k
        if kk.size == 0:  # no asked k within this model's samples (k_gt_n="nan"): NaN throughout
            for m in metrics:
                vals[m].append(np.full(ks.size, np.nan))
        elif design is not None:
            vals["pass_at_k"].append(_pad(design.mean_curve(sub.n, sub.c, kk, w)[0], ks.size))
        else:
            for m in metrics:
                vals[m].append(_pad(mean_curve(sub.n, sub.c, kk, m, w, tau if m == "g_pass_at_k" else None)[0],
                                    ks.size))
        used = np.where(ok, used, 0)
        problems.append(used)
        dropped.append(sub.n.size - used)
        nd = int((sub.n.size - used)[ok].max(initial=0))
        if nd:
            first_k = int(ks[np.argmax(sub.n.size - used > 0)])
            why = ("problems that stopped unsolved before k (no cap given)" if design is not None
                   else "problems with n < k")
            msg = (
                f"model {name!r}: {why} were left out of the mean "
                f"(from k={first_k}; up to {nd} of {sub.n.size} problems at k={fmt(ks[-1])})"
            )
            record_warning(warns, msg, DroppedProblemsWarning)
    return CurveResult(
        models=tuple(models),
        k=ks,
        values={m: np.vstack(v) for m, v in vals.items()},
        problems=np.vstack(problems),
        dropped=np.vstack(dropped),
        summary=tuple(summary),
        warnings=tuple(warns),
        design=None if design is None else design.label(),
        tau=tau,
    )
