r"""Ranking many models with simultaneous confidence intervals for their ranks.

A leaderboard of M models on the same problems invites "A is 3rd": the rank is a function of
all M estimates, and one model's interval of pass@k does not say which ranks it could hold. The
intervals here come from simultaneous tests of every pairwise difference (Klein, Wright &
Wieczorek 2020; Al Mohamad, Goeman & van Zwet 2022): with :math:`d_{ij}(k)` the paired mean
difference of models i and j over the shared problems,

.. math:: \text{rank}_i \in \Bigl[\,1 + \#\{j: d_{ji} > c\,\mathrm{se}_{ji}\},\;
          M - \#\{j: d_{ij} > c\,\mathrm{se}_{ij}\}\,\Bigr],

where c is the :math:`1-\alpha` quantile of the bootstrap max-|t| statistic
:math:`\max_{i<j} |d^*_{ij} - d_{ij}| / \mathrm{se}_{ij}` over all pairs (problems, or clusters,
resampled together for every model: Romano & Wolf 2005's single-step max-t). When every pairwise
interval covers its true difference (probability at least :math:`1-\alpha`), every model's true rank
lies in its interval at once, so the coverage is joint over the M models (per k; not over several
k at once). The point rank is the competition rank ("1 + number of models with a higher
estimate").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._adaptive import check_design
from ._compare import _check_k_estimable, _f, _metric_tau_iv, _number_spellings, _one_weight_per_problem
from ._counts import Counts, check_counts_object
from ._errors import DegenerateDataWarning, PasscurveError, UnpairedComparisonWarning, record_warning
from ._results import ReadOnlyResult, brief_repr, frame_html, level_label, metric_name, records_frame
from ._uncertainty import (
    _boot_means,
    _cluster_ids,
    _group_index,
    _mean_se,
    _percentile,
    _rare,
    _scores,
    _widen_rare,
    rare_message,
)
from ._validation import (
    MAX_RESAMPLES,
    budget_grid,
    check_confidence_level,
    check_positive_int,
    check_rng,
    check_scalar,
    show_value,
)

__all__ = ["rank_models", "RankResult"]

_PAIR_CHUNK_ELEMS = 1 << 24  # bootstrap replicates x pairs held at once


@dataclass(frozen=True, eq=False)
class RankResult(ReadOnlyResult):
    """Ranks of M models at several k, with simultaneous confidence intervals.

    Attributes
    ----------
    models : tuple of str
        In the order of the input.
    k : ndarray of int, shape (K,)
    metric : str
    estimate, low, high : ndarray, shape (M, K)
        Each model's score on the shared problems and its (marginal) percentile bootstrap interval; where the
        score rests on fewer than 10 problems, the rare-event Wilson bound (as in ``curve_intervals``, with a
        ``DegenerateDataWarning``).
    rank, rank_low, rank_high : ndarray of int, shape (M, K)
        Competition rank (1 = best) and the simultaneous confidence interval of the rank.
    better : ndarray of bool, shape (M, M, K)
        ``better[i, j, k]``: model i is significantly better than model j (simultaneously over pairs).
    critical : ndarray, shape (K,)
        The max-|t| critical value c.
    problems : int
        Problems shared by every model (the ranking uses these only).
    dropped : int
        Problem rows left out because not every model has them.
    confidence_level : float
    n_resamples : int
    warnings : tuple of str
    design : str or None
    tau : float or None
        G-pass@k's threshold (``metric="g_pass_at_k"`` only).
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    k: np.ndarray
    metric: str
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    better: np.ndarray
    critical: np.ndarray
    problems: int
    dropped: int
    confidence_level: float
    n_resamples: int
    warnings: tuple[str, ...] = ()
    design: str | None = None
    tau: float | None = None

    def table(self, j: int = 0) -> list[dict[str, Any]]:
        """The leaderboard at the j-th k, best first.

        Parameters
        ----------
        j : int, default 0
            Index into ``k`` (0 <= j < len(k)).

        Returns
        -------
        list of dict
            One per model: ``model``, ``estimate``, ``low``, ``high``, ``rank``, ``rank_low``, ``rank_high``,
            ``better_than``.
        """
        j = check_positive_int(j, "j", minimum=0, maximum=self.estimate.shape[1] - 1)
        order = np.lexsort((np.arange(len(self.models)), -self.estimate[:, j]))
        rows = []
        for i in order:
            rows.append({
                "model": self.models[i],
                "estimate": _f(self.estimate[i, j]),
                "low": _f(self.low[i, j]),
                "high": _f(self.high[i, j]),
                "rank": int(self.rank[i, j]),
                "rank_low": int(self.rank_low[i, j]),
                "rank_high": int(self.rank_high[i, j]),
                "better_than": [self.models[o] for o in order if self.better[i, o, j]],
            })
        return rows

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``metric``, ``confidence_level``, ``n_resamples``, ``problems``, ``dropped``, ``ranks``
        (per k: ``k``, ``critical`` and ``models``, the :meth:`table`) and ``warnings``; ``tau`` and
        ``design`` when set."""
        out: dict[str, Any] = {
            "metric": self.metric,
            **({} if self.tau is None else {"tau": self.tau}),
            "confidence_level": self.confidence_level,
            "n_resamples": self.n_resamples,
            "problems": self.problems,
            "dropped": self.dropped,
            "ranks": [{"k": int(k), "critical": _f(self.critical[j]), "models": self.table(j)}
                      for j, k in enumerate(self.k)],
        }
        if self.design is not None:
            out["design"] = self.design
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per (k, model), best first within each k: ``k``, ``model``, ``estimate``,
        ``low``, ``high``, ``rank``, ``rank_low``, ``rank_high``."""
        rows = [{"k": int(k), **{c: v for c, v in r.items() if c != "better_than"}}
                for j, k in enumerate(self.k) for r in self.table(j)]
        return records_frame(rows)

    def plot(self, k: int | None = None) -> Any:
        """Estimates with intervals at one k, best on top, and each model's rank interval.

        Parameters
        ----------
        k : int, optional
            One of the result's k (default the first).

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        j = 0
        if k is not None:  # one number: a list or an array had been compared with self.k (numpy's broadcast error,
            # or the first k it shared: k=[1, 99]), True had matched k = 1
            bad = PasscurveError(f"`k` must be one of {', '.join(str(int(x)) for x in self.k)} (got {show_value(k)})")
            try:
                hit = np.flatnonzero(self.k == check_scalar(k, "k")) if np.ndim(k) == 0 else np.zeros(0, int)
            except ValueError:  # the PasscurveError of a bad number, or numpy's of a ragged list (np.ndim)
                raise bad from None
            if not hit.size:
                raise bad
            j = int(hit[0])
        rows = self.table(j)[::-1]
        labels = [f"{r['model']}  (rank {r['rank_low']}–{r['rank_high']})" if r["rank_low"] != r["rank_high"]
                  else f"{r['model']}  (rank {r['rank']})" for r in rows]
        est = np.array([r["estimate"] for r in rows], dtype=float)
        lo = np.array([r["low"] for r in rows], dtype=float)
        hi = np.array([r["high"] for r in rows], dtype=float)
        fig = go.Figure(go.Scatter(x=est, y=labels, mode="markers",
                                   error_x={"type": "data", "symmetric": False, "array": hi - est,
                                            "arrayminus": est - lo}))
        lvl = level_label(self.confidence_level)
        fig.update_layout(template="plotly_white", xaxis_title=f"{metric_name(self.metric)} at k={int(self.k[j])}",
                          title=f"ranks with {lvl} simultaneous intervals ({self.problems} shared problems)")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _rows_of(ids: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions in ``ids`` (distinct) of each of ``wanted`` (all present)."""
    order = np.argsort(ids)
    return order[np.searchsorted(ids[order], wanted)]


def _rank_iv(counts: Any, k: Any, metric: Any, confidence_level: Any, n_resamples: Any, rng: Any, tau: Any,
             design: Any) -> tuple[list[str], list[Counts], np.ndarray, float, int, np.random.Generator, float | None, Any]:
    check_counts_object(counts)
    design = check_design(design)
    t = _metric_tau_iv(metric, tau)
    models = counts.models
    if len(models) < 2:
        raise PasscurveError(f"ranking needs at least 2 models (got {len(models)}: {', '.join(models) or 'none'})")
    ks = budget_grid(k, "k")
    subs = [counts.select(m) for m in models]
    for sub in subs:
        _check_k_estimable(sub, ks, metric, design)
    level = check_confidence_level(confidence_level)
    B = check_positive_int(n_resamples, "n_resamples", minimum=100, maximum=MAX_RESAMPLES)
    return models, subs, ks, level, B, check_rng(rng), t, design


def rank_models(
    counts: Counts,
    k: Any = 1,
    *,
    metric: str = "pass_at_k",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
    tau: float | None = None,
    cluster: Any = None,
    design: Any = None,
) -> RankResult:
    r"""Rank every model at each k, with simultaneous confidence intervals for the ranks.

    Models are compared on the problems they all share (paired: one bootstrap resample of
    problems, or of clusters, serves every model). For every pair the difference of the
    per-problem unbiased estimates is tested simultaneously by the bootstrap max-|t|; a model's
    rank interval runs from 1 + (models significantly better) to M - (models significantly
    worse). See the module docs for the formula.

    Parameters
    ----------
    counts : Counts
        Two or more models, on the same problems (problems missing from any model are left out,
        with an :class:`UnpairedComparisonWarning`).
    k : int or sequence of int
        Sorted ascending, repeats removed: the result's ``k`` is the order of its values, not the order given.
    metric : {"pass_at_k", "pass_pow_k", "g_pass_at_k"}
    confidence_level : float, default 0.95
        Joint level of the rank intervals (all models at once, at each k).
    n_resamples : int, default 2000
    rng : None, int or numpy Generator
    tau : float, optional
        For G-pass@k.
    cluster : array_like, optional
        Cluster id per row of ``counts`` (default ``counts.cluster``; ``False`` ignores it);
        clusters are resampled whole, taken from the first model's rows.
    design : StopAtSuccess, optional
        n is a stopping time: each problem's score is the stopping-time estimate (pass@k only).

    Returns
    -------
    RankResult

    Notes
    -----
    Problem weights (``Counts.weight``) weight the means over the shared problems, as in :func:`curve` and
    :func:`compare` (one weight per problem, the same for every model). A pair whose difference is the same on every problem
    (zero bootstrap variance) is judged by the exact sign-flip test, p = 2^(1−G) for G clusters,
    Bonferroni over the pairs.

    References
    ----------
    J. Klein, T. Wright and J. Wieczorek, "A joint confidence region for an overall ranking of
    populations", JRSS C 69 (2020) 589-606. D. Al Mohamad, J. Goeman and E. van Zwet, "Simultaneous
    confidence intervals for ranks with application to ranking institutions", Biometrics 78 (2022).
    J. Romano and M. Wolf, "Exact and approximate stepdown methods for multiple hypothesis
    testing", JASA 100 (2005) (the max-t bootstrap).

    Examples
    --------
    >>> import passcurve
    >>> bench = passcurve.simulate(problems=150, n=20, rng=0)
    >>> res = passcurve.rank_models(bench.counts, k=[1, 10], rng=0)
    >>> bool((res.rank_low <= res.rank).all() and (res.rank <= res.rank_high).all())
    True
    """
    models, subs, ks, level, B, gen, tau_v, design = _rank_iv(counts, k, metric, confidence_level, n_resamples, rng,
                                                               tau, design)
    M, K = len(models), ks.size
    cl_all = _cluster_ids(counts, cluster)
    ids = [s.problem.astype(str) for s in subs]
    shared = ids[0]
    for p in ids[1:]:
        shared = np.intersect1d(shared, p, assume_unique=True)
    warns: list[str] = []
    dropped = int(sum(p.size for p in ids) - M * shared.size)
    if shared.size < 2:
        note = next((s for other in ids[1:] if (s := _number_spellings(ids[0], other, shared))), "")
        raise PasscurveError(f"the models share {shared.size} problem(s); ranking needs at least 2 shared problems{note}")
    if dropped:
        msg = (f"ranked on the {shared.size} problems every model has; {dropped} problem rows of models that have "
               "more were left out")
        record_warning(warns, msg, UnpairedComparisonWarning)
    N = shared.size
    S = np.empty((N, M * K))
    w = np.ones(N)
    for mi, (sub, p) in enumerate(zip(subs, ids, strict=True)):
        rows = _rows_of(p, shared)
        n, c = sub.n[rows], sub.c[rows]
        S[:, mi * K:(mi + 1) * K] = _scores(n, c, ks, metric, tau_v) if design is None else design.scores(n, c, ks)
        wm = np.ones(N) if sub.weight is None else np.asarray(sub.weight, dtype=np.float64)[rows]
        if mi == 0:
            w = wm
        else:
            _one_weight_per_problem(w, wm, shared, models[0], models[mi], "ranks need")
    groups, G = _group_index(None if cl_all is None else cl_all[counts.model == models[0]][_rows_of(ids[0], shared)], N)
    if G < 2:
        raise PasscurveError("the shared problems fall in fewer than 2 clusters; ranks have no interval")
    est = (w @ S / w.sum()).reshape(M, K)
    reps = _boot_means(S, w, groups, G, B, gen)  # (B, M*K), one resample of problems for every model
    lo, hi = _percentile(reps, 1.0 - level)
    # a score resting on fewer than _RARE problems: its interval is the rare-event Wilson bound, as in curve_intervals
    with np.errstate(invalid="ignore", divide="ignore"):
        _, se_a, _, g_k = _mean_se(S, w, groups if cl_all is not None else None, G)
    rare = _rare(S)
    lo, hi = _widen_rare(est.ravel(), se_a, g_k, np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0), rare, 1.0 - level)
    if rare.any():
        at = rare.reshape(M, K)
        items = [(models[i], ks[at[i]]) for i in np.flatnonzero(at.any(axis=1))]
        msg = rare_message(metric, items, K, also=", and the rank interval rests on those few problems")
        record_warning(warns, msg, DegenerateDataWarning)
    reps3 = reps.reshape(B, M, K)
    ii, jj = np.triu_indices(M, 1)
    d = est[ii] - est[jj]  # (P, K)
    se = np.empty_like(d)
    tmax = np.zeros((B, K))
    step = max(1, _PAIR_CHUNK_ELEMS // max(B * K, 1))
    for s0 in range(0, ii.size, step):
        a, b = ii[s0:s0 + step], jj[s0:s0 + step]
        dr = reps3[:, a, :] - reps3[:, b, :]  # (B, p, K)
        sd = dr.std(axis=0, ddof=1)
        se[s0:s0 + step] = sd
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(sd > 0, np.abs(dr - d[None, s0:s0 + step]) / sd, 0.0)
        tmax = np.maximum(tmax, t.max(axis=1))
    crit = np.quantile(tmax, level, axis=0, method="higher")
    # a pair whose difference is the same in every resample (every problem differs by the same amount): the
    # bootstrap cannot measure it; the exact sign-flip test can (p = 2^(1-G) when all G clusters agree), taken
    # at the joint level by Bonferroni over the pairs
    exact = 2.0 ** (1 - G) <= (1.0 - level) / ii.size
    # a difference at the edge of its interval d ± c·se up to rounding is not beyond it (1e-12 of the larger, as for the
    # point ranks below): where the critical resample is one with d* = 0, c = |d|/se exactly, and c·se computed in
    # floats had fallen an ulp short of |d| (8 of 10 solved against 4, 200 resamples, rng=68: called significant)
    with np.errstate(invalid="ignore", divide="ignore"):
        edge = crit[None, :] * se
        slack = 1e-12 * np.maximum(np.abs(d), edge)
        sig_pos = np.where(se > 0, d - edge > slack, (d > 0) & exact)  # i better than j
        sig_neg = np.where(se > 0, -d - edge > slack, (d < 0) & exact)  # j better than i
    better = np.zeros((M, M, K), dtype=bool)
    better[ii, jj] = sig_pos
    better[jj, ii] = sig_neg
    # a model above another by rounding only is not above it (1e-12 of the larger score, compare's tolerance): two
    # models at 48/200 each (pass@1 0.24000000000000005 and 0.24 as float sums of other per-problem values) were
    # ranked 1 and 2, and tied at k = 3
    with np.errstate(invalid="ignore"):
        tol = 1e-12 * np.maximum(np.abs(est[None, :, :]), np.abs(est[:, None, :]))
        rank = 1 + (est[None, :, :] - est[:, None, :] > tol).sum(axis=1)
    rank_low = 1 + better.sum(axis=0)
    rank_high = M - better.sum(axis=1)
    return RankResult(
        models=tuple(models), k=ks, metric=metric, estimate=est,
        low=np.minimum(lo.reshape(M, K), est), high=np.maximum(hi.reshape(M, K), est),
        rank=rank, rank_low=rank_low, rank_high=rank_high, better=better, critical=np.asarray(crit, dtype=float),
        problems=int(N), dropped=dropped, confidence_level=level, n_resamples=B, warnings=tuple(warns),
        design=None if design is None else design.label(), tau=tau_v,
    )
