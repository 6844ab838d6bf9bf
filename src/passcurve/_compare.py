r"""Paired model comparisons at any k, and power analysis for planning a comparison.

Two models evaluated on the same problems are compared problem by problem: the per-problem
difference :math:`d_i(k) = s_{A,i}(k) - s_{B,i}(k)` of unbiased estimates removes the
difficulty both models share, so

.. math:: SE_{A-B}^2 = \frac{\operatorname{Var}(s_A) + \operatorname{Var}(s_B) - 2\operatorname{Cov}(s_A, s_B)}{N}

is usually far smaller than the unpaired :math:`(\operatorname{Var}_A + \operatorname{Var}_B)/N`
(Miller 2024, arXiv:2411.00640, §4). The p-value comes from a sign-flip permutation test:
under H0 "the two models are exchangeable on every problem", each :math:`d_i` is as likely
to be :math:`-d_i` (with clusters, signs flip per cluster).

Power (Miller 2024, eq. for the minimum detectable effect):

.. math:: N = \Bigl(\frac{z_{\alpha/2} + z_\beta}{\delta}\Bigr)^2
          \bigl(\omega^2 + \sigma_A^2/K_A + \sigma_B^2/K_B\bigr)

with :math:`\omega^2` the between-problem variance of the true difference and
:math:`\sigma^2/K` the within-problem variance of one problem's estimate from K samples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from ._adaptive import check_design
from ._counts import Counts, check_counts_object
from ._errors import DegenerateDataWarning, PasscurveError, UnpairedComparisonWarning, record_warning
from ._estimators import _hyper_log_pmf_run, _hyper_tails, _tau_to_m
from ._results import ReadOnlyResult, brief_repr, frame_html, level_label, metric_name, records_frame
from ._uncertainty import (
    _RARE,
    INTERVAL_METRICS,
    _bca,
    _boot_means,
    _cluster_ids,
    _group_index,
    _jackknife_means,
    _mean_se,
    _percentile,
    _scores,
)
from ._validation import (
    DECIMAL,
    MAX_RESAMPLES,
    budget_grid,
    check_choice,
    check_confidence_level,
    check_flag,
    check_k_le_min_n,
    check_k_le_n,
    check_model,
    check_positive_int,
    check_rng,
    check_scalar,
    check_tau,
    check_unused,
    fmt,
)

__all__ = ["compare", "CompareResult", "power_analysis", "PowerResult"]

COMPARE_METHODS = ("bootstrap", "bca", "analytic")


def _f(x: Any) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


def _difference(diff: np.ndarray, va: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """The difference A - B with a value within rounding of 0 (1e-12 of the larger score, the tie tolerance of
    ``_bca``) written as 0: two models with one mean (0.24 and 0.24 as sums of other per-problem values, or
    13/30 twice as two means) differed by 1.11e-17 or 5.55e-17, which turned compare's whole difference column
    (and the report's) scientific."""
    diff = np.asarray(diff, dtype=float)
    with np.errstate(invalid="ignore"):
        tiny = np.abs(diff) <= 1e-12 * np.maximum(np.abs(va), np.abs(vb))
    return np.where(tiny, 0.0, diff)


@dataclass(frozen=True, eq=False)
class CompareResult(ReadOnlyResult):
    """A comparison of two models at several k.

    Attributes
    ----------
    model_a, model_b : str
    metric : str
    k : ndarray of int, shape (K,)
    value_a, value_b : ndarray, shape (K,)
        Each model's benchmark score (on the problems used).
    difference : ndarray, shape (K,)
        value_a - value_b.
    low, high : ndarray, shape (K,)
        Confidence interval of the difference.
    se : ndarray, shape (K,)
        Standard error of the difference.
    p_value : ndarray, shape (K,)
        Two-sided p-value of "no difference".
    problems : ndarray of int, shape (K,)
        Problems entering the comparison at each k: the shared problems when paired, model A's
        when unpaired (model B's are in ``problems_b``).
    problems_b : ndarray of int or None
        Unpaired only: model B's problems at each k.
    paired : bool
    method, test : str
        How the interval and the p-value were computed.
    confidence_level : float
    correlation : ndarray, shape (K,)
        Correlation of the two models' per-problem estimates (paired only; NaN otherwise).
    n_resamples : int or None
        Resamples behind the interval (None for the analytic interval).
    warnings : tuple of str
    design : str or None
        The sampling design behind the estimates when n was not fixed in advance.
    tau : float or None
        G-pass@k's threshold (``metric="g_pass_at_k"`` only).
    """

    __repr__ = brief_repr

    model_a: str
    model_b: str
    metric: str
    k: np.ndarray
    value_a: np.ndarray
    value_b: np.ndarray
    difference: np.ndarray
    low: np.ndarray
    high: np.ndarray
    se: np.ndarray
    p_value: np.ndarray
    problems: np.ndarray
    paired: bool
    method: str
    test: str
    confidence_level: float
    correlation: np.ndarray
    n_resamples: int | None = None
    warnings: tuple[str, ...] = ()
    design: str | None = None
    problems_b: np.ndarray | None = None
    tau: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``model_a``, ``model_b``, ``metric``, ``paired``, ``method``, ``test``,
        ``confidence_level``, ``n_resamples`` and ``points``, one record per k (``k``, ``a``, ``b``,
        ``difference``, ``low``, ``high``, ``se``, ``p_value``, ``problems``, ``correlation``); ``tau``,
        ``warnings`` and ``design`` when set."""
        pts = []
        for j, k in enumerate(self.k):
            pts.append(
                {
                    "k": int(k),
                    "a": _f(self.value_a[j]),
                    "b": _f(self.value_b[j]),
                    "difference": _f(self.difference[j]),
                    "low": _f(self.low[j]),
                    "high": _f(self.high[j]),
                    "se": _f(self.se[j]),
                    "p_value": _f(self.p_value[j]),
                    "problems": int(self.problems[j]),
                    **({} if self.problems_b is None else {"problems_b": int(self.problems_b[j])}),
                    "correlation": _f(self.correlation[j]),
                }
            )
        out: dict[str, Any] = {
            "model_a": self.model_a,
            "model_b": self.model_b,
            "metric": self.metric,
            **({} if self.tau is None else {"tau": self.tau}),
            "paired": self.paired,
            "method": self.method,
            "test": self.test,
            "confidence_level": self.confidence_level,
            "n_resamples": self.n_resamples,
            "points": pts,
        }
        if self.design is not None:
            out["design"] = self.design
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per k: ``model_a`` and ``model_b`` (the models compared, so that frames of
        several comparisons concatenate), then the ``points`` columns ``k``, ``a``, ``b``, ``difference``,
        ``low``, ``high``, ``se``, ``p_value``, ``problems``, ``correlation``."""
        return records_frame([{"model_a": self.model_a, "model_b": self.model_b, **pt}
                              for pt in self.to_dict()["points"]])

    def plot(self, *, log_k: bool = True) -> Any:
        """The difference A - B against k with its interval and a zero line.

        Parameters
        ----------
        log_k : bool, default True
            A logarithmic k axis.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        log_k = check_flag(log_k, "log_k")  # "no" was true, an array numpy's ambiguous-truth error
        import plotly.graph_objects as go

        fig = go.Figure()
        fig.add_trace(
            go.Scatter(
                x=np.concatenate([self.k, self.k[::-1]]),
                y=np.concatenate([self.high, self.low[::-1]]),
                fill="toself",
                line={"width": 0},
                opacity=0.25,
                name=f"{level_label(self.confidence_level)} interval",
                hoverinfo="skip",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=self.k,
                y=self.difference,
                mode="lines+markers",
                name=f"{self.model_a} - {self.model_b}",
                customdata=self.p_value,
                hovertemplate="k=%{x}<br>difference=%{y:.4f}<br>p=%{customdata:.3g}<extra></extra>",
            )
        )
        fig.add_hline(y=0, line_dash="dot")
        fig.update_layout(
            xaxis_title="k",
            yaxis_title=f"{metric_name(self.metric)} difference",
            template="plotly_white",
        )
        if log_k:
            fig.update_xaxes(type="log")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _one_weight_per_problem(w: np.ndarray, other: np.ndarray, problems: np.ndarray, a: str, b: str,
                            who: str) -> None:
    """A problem's weight is the benchmark's: the same for models ``a`` (``w``) and ``b`` (``other``) on the
    shared ``problems``, or the error naming the first problem where they differ."""
    same = np.isclose(w, other, rtol=1e-12, atol=0.0)
    if not same.all():
        j = int(np.flatnonzero(~same)[0])
        raise PasscurveError(f"problem {str(problems[j])!r} has weight {w[j]:g} for model {a!r} and {other[j]:g} for "
                             f"{b!r}; {who} one weight per problem")


def _metric_tau_iv(metric: Any, tau: Any) -> float | None:
    """The metric must be one intervals exist for; G-pass@k needs its threshold ``tau`` (returned), which
    another metric refuses."""
    return check_tau(tau, (check_choice(metric, "metric", INTERVAL_METRICS),))


def _check_k_estimable(sub: Counts, ks: np.ndarray, metric: str, design: Any) -> None:
    """Every problem of one model must estimate the metric at every k (sorted ``ks``): k <= n, or
    under a stop design what the design can estimate (a problem that stopped unsolved says nothing
    beyond its n unless the design has a cap)."""
    if design is not None:
        design.check(sub.n, sub.c, (metric,), ks)
        unsolved = sub.n[sub.c == 0]
        if unsolved.size and ks[-1] > unsolved.min():
            raise PasscurveError(
                f"`k` must be <= n of every unsolved problem without a cap (got k={fmt(ks[-1])}, a problem stopped "
                f"unsolved at n={fmt(unsolved.min())}); give the design's cap"
            )
        return
    check_k_le_min_n(sub.n, ks, sub.problem, sub.model)


def _compare_iv(
    counts: Any, a: Any, b: Any, k: Any, metric: str, method: str, confidence_level: Any, n_resamples: Any, rng: Any, tau: Any,
    design: Any = None,
) -> tuple[Counts, Counts, np.ndarray, float, int, np.random.Generator, float | None, Any]:
    check_counts_object(counts)
    design = check_design(design)
    if not isinstance(a, str) or not isinstance(b, str):
        raise PasscurveError("`a` and `b` must be model names (strings)")
    a, b = check_model(a, counts.models, "a"), check_model(b, counts.models, "b")  # as written, else stripped
    if a == b:
        raise PasscurveError(f"`a` and `b` must be different models (both are {a!r})")
    ca, cb = counts.select(a), counts.select(b)
    t = _metric_tau_iv(metric, tau)
    check_choice(method, "method", COMPARE_METHODS)
    ks = budget_grid(k, "k")
    for sub in (ca, cb):
        _check_k_estimable(sub, ks, metric, design)
    level = check_confidence_level(confidence_level)
    B = check_positive_int(n_resamples, "n_resamples", minimum=100, maximum=MAX_RESAMPLES)
    return ca, cb, ks, level, B, check_rng(rng), t, design


def compare(
    counts: Counts,
    a: str,
    b: str,
    k: Any = 1,
    *,
    metric: str = "pass_at_k",
    method: str = "bootstrap",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
    tau: float | None = None,
    cluster: Any = None,
    design: Any = None,
) -> CompareResult:
    r"""Compare model ``a`` with model ``b`` at each k: difference, interval, p-value.

    When both models were run on the same problems the comparison is *paired*: the
    per-problem differences :math:`d_i = s_{A,i} - s_{B,i}` are resampled together
    (problems, or clusters when given), and the p-value is a sign-flip permutation test
    (``method="bootstrap"``/``"bca"``; ``n_resamples`` random sign vectors, p = (1 + #{|T*|
    >= |T|})/(B + 1), or all 2^G of them, p = #{|T*| >= |T|}/2^G exactly, when 2^G <= B for G
    problems or clusters) or a paired t-test (``method="analytic"``). When the problem sets
    differ the comparison falls back to an *unpaired* one on all problems of each model
    (independent bootstraps, or Welch's t) and warns with :class:`UnpairedComparisonWarning`.

    Parameters
    ----------
    counts : Counts
        Holding both models.
    a, b : str
        Model names.
    k : int or sequence of int
        Sorted ascending, repeats removed: the result's ``k`` is the order of its values, not the order given.
    metric : {"pass_at_k", "pass_pow_k", "g_pass_at_k"}
    method : {"bootstrap", "bca", "analytic"}
        Interval of the difference: percentile bootstrap, BCa, or t with N - 1 (G - 1) df.
    confidence_level : float
    n_resamples : int
    rng : None, int or numpy Generator
    tau : float, optional
        For G-pass@k.
    cluster : array_like, optional
        Cluster id per row of ``counts`` (default ``counts.cluster``; ``False`` ignores it).
    design : StopAtSuccess, optional
        Sampling stopped at the first batch with a success: each problem's score is the
        stopping-time estimate of pass@k (see :func:`passcurve.curve`); only pass@k.

    Returns
    -------
    CompareResult

    Notes
    -----
    Problem weights (``Counts.weight``) weight every mean, as in :func:`curve` (one weight per problem, the
    same for both models); the sign-flip test flips the weighted differences.

    References
    ----------
    E. Miller, "Adding Error Bars to Evals", arXiv:2411.00640 (paired differences, clustered SE).
    """
    ca, cb, ks, level, B, gen, tau_v, design = _compare_iv(
        counts, a, b, k, metric, method, confidence_level, n_resamples, rng, tau, design
    )
    alpha = 1 - level
    a, b = ca.models[0], cb.models[0]  # the names selected (model_named)
    cl_all = _cluster_ids(counts, cluster)
    cla = None if cl_all is None else cl_all[counts.model == a]
    clb = None if cl_all is None else cl_all[counts.model == b]
    pa, pb = ca.problem.astype(str), cb.problem.astype(str)
    shared, ia, ib = np.intersect1d(pa, pb, assume_unique=True, return_indices=True)
    paired = shared.size == pa.size == pb.size
    # an interval and a p-value need at least two independent units on each side: with one problem (or one
    # cluster) the analytic SE is NaN and the bootstrap's is 0, and both used to come with p = 0 or 1
    units = {a: (pa.size, cla), b: (pb.size, clb)}
    for name, (size, cl) in units.items():
        if size < 2:
            raise PasscurveError(f"model {name!r} has {size} problem(s); a comparison needs at least 2 problems per model")
        if cl is not None and np.unique(cl.astype(str)).size < 2:
            raise PasscurveError(f"model {name!r}'s problems fall in 1 cluster; a clustered comparison needs at least 2")
    warns: list[str] = []
    if design is None:
        Sa_all = _scores(ca.n, ca.c, ks, metric, tau_v)
        Sb_all = _scores(cb.n, cb.c, ks, metric, tau_v)
    else:
        Sa_all, Sb_all = design.scores(ca.n, ca.c, ks), design.scores(cb.n, cb.c, ks)
    wa_all = np.ones(pa.size) if ca.weight is None else np.asarray(ca.weight, dtype=np.float64)
    wb_all = np.ones(pb.size) if cb.weight is None else np.asarray(cb.weight, dtype=np.float64)
    if paired:
        Sa, Sb = Sa_all[ia], Sb_all[ib]
        D = Sa - Sb
        N = D.shape[0]
        w = wa_all[ia]
        _one_weight_per_problem(w, wb_all[ib], shared, a, b, "a paired comparison needs")
        groups, G = (None, N) if cla is None else _group_index(cla[ia], N)
        g = np.arange(N) if groups is None else groups
        diff, se, Nk, Gk = _mean_se(D, w, groups, G)
        va, vb = _mean_se(Sa, w, groups, G)[0], _mean_se(Sb, w, groups, G)[0]
        diff = _difference(diff, va, vb)
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = np.array(
                [np.corrcoef(Sa[:, j], Sb[:, j])[0, 1] if Sa[:, j].std() > 0 and Sb[:, j].std() > 0 else np.nan for j in range(ks.size)]
            )
        # where fewer than _RARE problems (or clusters) carry the difference, each method says what it does there
        few = _few_units(D * w[:, None], g, G)

        def few_message(where: np.ndarray, why: str) -> str:
            return (f"models {a!r} and {b!r}: the difference rests on few problems (fewer than {_RARE} carry it from "
                    f"k = {int(ks[int(np.flatnonzero(where)[0])])}), where {why}")

        # every paired difference equal (and not 0): no spread for a t-test or a resample to measure; the sign-flip
        # test's exact p-value is 2^(1-G) (only the G signs all alike reach the observed mean), and the interval has
        # zero width. Both methods say so and take that p: the bootstrap's sign-flip test gave its Monte Carlo floor
        # 1/(B+1) (30 problems at c = n against c = 0: p = 0.00050 and [1, 1] without a word, 1.86e-09 analytic)
        flat = (se == 0) & (diff != 0)

        def flat_p(pval: np.ndarray, undefined: str) -> np.ndarray:
            if not flat.any():
                return pval
            j = int(np.flatnonzero(flat)[0])
            msg = (f"models {a!r} and {b!r}: at k = {int(ks[j])} every paired difference is {diff[j]:.4g}, so "
                   f"{undefined}; its p-value is the exact sign-flip value 2^(1-{int(Gk[j])}) = "
                   f"{2.0 ** (1.0 - Gk[j]):.3g} and its interval has zero width")
            record_warning(warns, msg, DegenerateDataWarning)
            return np.where(flat, 2.0 ** (1.0 - Gk), pval)

        if method == "analytic":
            tq = stats.t.ppf(1 - alpha / 2, np.maximum(Gk - 1, 1))
            lo, hi = diff - tq * se, diff + tq * se
            with np.errstate(invalid="ignore", divide="ignore"):
                tstat = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.inf))
            pval = flat_p(2 * stats.t.sf(np.abs(tstat), np.maximum(Gk - 1, 1)), "the t-test is undefined")
            if (few & ~flat).any():
                record_warning(warns, few_message(few & ~flat, "the t-test's normal approximation does not hold; the "
                                                  "bootstrap method is safer there (its sign-flip test is valid whatever "
                                                  "the distribution, and its interval agrees with it)"),
                               DegenerateDataWarning)
            test = "paired t-test"
        else:
            reps = _boot_means(D, w, g, G, B, gen)
            se = np.nanstd(reps, axis=0, ddof=1)
            if method == "bootstrap":
                lo, hi = _percentile(reps, alpha)
            else:
                jack = _jackknife_means(D, w[:, None] * np.ones_like(D), g, G)
                lo, hi = _bca(reps, diff, jack, alpha)
            # the weighted sum's signs flip; where the difference rests on few problems (or clusters) the
            # resampling interval can exclude 0 while this test cannot reject (3 differing problems: BCa [0.02, 0.16]
            # beside p = 0.25, the smallest p three signs allow), so there it also covers the inverted test
            pval, inv = _sign_flip_p(D * w[:, None], g, G, B, gen, w=w if few.any() else None, alpha=alpha)
            pval = flat_p(pval, "no resample varies")
            if inv is not None:
                lo, hi = np.where(few, np.minimum(lo, inv[0]), lo), np.where(few, np.maximum(hi, inv[1]), hi)
                record_warning(warns, few_message(few, "a resampling interval is too narrow; the interval there also "
                                                  "covers every shift the sign-flip test does not reject, so it agrees "
                                                  "with the p-value"), DegenerateDataWarning)
            test = "sign-flip permutation"
        problems, problems_b = Nk, None
    else:
        msg = (
            f"models {a!r} and {b!r} were run on different problems ({pa.size} and {pb.size}, {shared.size} shared): "
            "the comparison is unpaired and much less precise; compare on the shared problems for a paired test"
        ) + _number_spellings(pa, pb, shared)
        if method == "bca":  # asked for, and replaced below: say so where the user looks, not only in the title
            msg += "; its interval is the percentile bootstrap (BCa needs paired problems)"
        record_warning(warns, msg, UnpairedComparisonWarning)
        ga, Ga = (None, pa.size) if cla is None else _group_index(cla, pa.size)
        gb, Gb = (None, pb.size) if clb is None else _group_index(clb, pb.size)
        va, sea, _, Gka = _mean_se(Sa_all, wa_all, ga, Ga)
        vb, seb, _, Gkb = _mean_se(Sb_all, wb_all, gb, Gb)
        diff = _difference(va - vb, va, vb)
        se = np.sqrt(sea**2 + seb**2)
        corr = np.full(ks.size, np.nan)
        with np.errstate(invalid="ignore", divide="ignore"):
            df = se**4 / (sea**4 / np.maximum(Gka - 1, 1) + seb**4 / np.maximum(Gkb - 1, 1))
        df = np.where(np.isfinite(df), df, np.maximum(Gka + Gkb - 2, 1))
        with np.errstate(invalid="ignore", divide="ignore"):
            tstat = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.inf))
        pval = 2 * stats.t.sf(np.abs(tstat), df)
        test = "Welch t-test"
        # as the paired path says where the difference rests on few problems: here each model's own mean
        few = (_few_units(np.nan_to_num(Sa_all * wa_all[:, None]), np.arange(pa.size) if ga is None else ga, Ga)
               | _few_units(np.nan_to_num(Sb_all * wb_all[:, None]), np.arange(pb.size) if gb is None else gb, Gb))
        if few.any():
            record_warning(warns, f"models {a!r} and {b!r}: a model's mean rests on few problems (fewer than {_RARE} "
                                  f"carry it from k = {int(ks[int(np.flatnonzero(few)[0])])}), where Welch's t-test's "
                                  "normal approximation does not hold and the bootstrap's interval is too narrow: the "
                                  "p-value and the interval there are rough", DegenerateDataWarning)
        if method == "analytic":
            tq = stats.t.ppf(1 - alpha / 2, df)
            lo, hi = diff - tq * se, diff + tq * se
        else:
            ra = _boot_means(Sa_all, wa_all, np.arange(pa.size) if ga is None else ga, Ga, B, gen)
            rb = _boot_means(Sb_all, wb_all, np.arange(pb.size) if gb is None else gb, Gb, B, gen)
            reps = ra - rb
            se = np.nanstd(reps, axis=0, ddof=1)
            lo, hi = _percentile(reps, alpha)
            if method == "bca":
                method = "bootstrap"  # BCa needs a joint jackknife; unpaired uses percentile
        problems = np.isfinite(Sa_all).sum(axis=0)
        problems_b = np.asarray(np.isfinite(Sb_all).sum(axis=0), dtype=np.int64)
    # a difference of two means of values in [0, 1] lies in [-1, 1] (a t interval on few problems reached beyond)
    lo, hi = np.clip(lo, -1.0, 1.0), np.clip(hi, -1.0, 1.0)
    return CompareResult(
        model_a=a,
        model_b=b,
        metric=metric,
        k=ks,
        value_a=np.asarray(va, dtype=float),
        value_b=np.asarray(vb, dtype=float),
        difference=np.asarray(diff, dtype=float),
        low=np.minimum(lo, diff),
        high=np.maximum(hi, diff),
        se=np.asarray(se, dtype=float),
        p_value=np.clip(pval, 0.0, 1.0),
        problems=np.asarray(problems, dtype=np.int64),
        paired=paired,
        method=method,
        test=test,
        confidence_level=level,
        correlation=corr,
        n_resamples=None if method == "analytic" else B,
        warnings=tuple(warns),
        design=None if design is None else design.label(),
        problems_b=problems_b,
        tau=tau_v,
    )


def _number_spellings(pa: np.ndarray, pb: np.ndarray, shared: np.ndarray) -> str:
    """A note for the unpaired-comparison warning when ids of A and B that are not shared are the same numbers
    written two ways ('0.0' and '0': a float id column beside an integer one); "" otherwise. Problem ids are text
    (docs/data.md), so they stay two problems; the note says why they did not pair."""
    def numbers(ids: np.ndarray) -> dict[float, str]:
        out: dict[float, str] = {}
        for t in np.setdiff1d(ids, shared):
            if DECIMAL.fullmatch(str(t)):
                out.setdefault(float(t), str(t))
        return out

    na, nb = numbers(pa), numbers(pb)
    both = [v for v in na if v in nb]
    if not both:
        return ""
    a, b = na[both[0]], nb[both[0]]
    return (f"; {len(both)} of the ids not shared are one number written two ways, e.g. {a!r} and {b!r} (ids are text: "
            "write them one way in both files, e.g. as integers, to pair them)")


def _group_sums(D: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Per-cluster (or per-problem) sums of the finite entries of D, shape (groups, columns)."""
    gsum = np.zeros((n_groups, D.shape[1]))
    np.add.at(gsum, groups, np.where(np.isfinite(D), D, 0.0))
    return gsum


def _few_units(D: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    r"""Columns whose difference is carried by fewer than ``_RARE`` units: the effective number
    :math:`(\sum_g |d_g|)^2 / \sum_g d_g^2` of cluster sums d_g (the count of nonzero ones when they are equal),
    the measure ``curve_intervals`` uses for its rare-event regime."""
    gsum = _group_sums(D, groups, n_groups)
    l1, l2 = np.abs(gsum).sum(axis=0), (gsum**2).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ess = np.where(l2 > 0, l1**2 / l2, 0.0)
    return (ess < _RARE) & (l2 > 0)


def _sign_flip_p(D: np.ndarray, groups: np.ndarray, n_groups: int, B: int, rng: np.random.Generator,
                 w: np.ndarray | None = None, alpha: float = 0.05) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    r"""Two-sided sign-flip permutation p-value per column (signs flip per cluster) and, given the problems'
    weights ``w`` (D holds weighted differences w_i d_i), the interval that inverts the same test.

    The interval is every shift δ the test does not reject at level ``alpha`` with the same sign vectors: the
    p-value of the differences d_i − δ is (1 + #{b: |Σ_g s_bg (D_g − δ W_g)| ≥ |Σ_g (D_g − δ W_g)|}) / (B + 1),
    with D_g and W_g the cluster sums of w_i d_i and of w_i, found by bisection on each side of the weighted mean
    difference. It contains 0 exactly when the p-value is above ``alpha``. When 2^G ≤ B (G clusters or problems) the
    2^G sign vectors are enumerated instead of drawn, and the p-value is the exact #{s: |Σ_g s_g D_g| ≥ |Σ_g D_g|}/2^G
    (no random numbers are used).

    Flipping a cluster whose sum D_g is exactly 0 changes nothing, so in a column where only G' of the G sums are
    non-zero each pattern of their signs appears 2^(G−G') times among the 2^G vectors: where 2^G' ≤ B that column's
    p-value is the same exact share over the 2^G' patterns (:func:`_sign_flip_exact`), whatever G. The B random
    vectors are still drawn (the other columns and the interval use them, and the generator's later draws stay as
    they were); the interval's shifted differences D_g − δ W_g are non-zero in every cluster, so it keeps the random
    vectors there, and takes in 0 where the exact p-value is above ``alpha`` (0 is then a shift the test keeps).
    """
    gsum = _group_sums(D, groups, n_groups)
    obs = np.abs(gsum.sum(axis=0))
    exceed = np.zeros(D.shape[1])
    tol = 1e-12 * np.maximum(np.abs(gsum).sum(axis=0), 1e-300)
    U, V = [], []
    wsum = None
    if w is not None:
        wsum = np.zeros((n_groups, D.shape[1]))
        np.add.at(wsum, groups, np.where(np.isfinite(D), w[:, None], 0.0))
    # With 2^G sign vectors at most B, all of them are enumerated and the p-value is exact: the share of the 2^G
    # vectors (the identity among them) whose |sum| reaches the observed one. Otherwise B random ones, with the
    # observed one added: (1 + #exceed) / (B + 1).
    exact = n_groups < 63 and 2**n_groups <= B
    total, extra = (2**n_groups, 0.0) if exact else (B, 1.0)
    chunk = max(1, (1 << 21) // max(n_groups, 1))
    for start in range(0, total, chunk):
        b = min(chunk, total - start)
        if exact:
            signs = _sign_vectors(start, b, n_groups)
        else:
            signs = rng.integers(0, 2, size=(b, n_groups)) * 2.0 - 1.0
        u = signs @ gsum
        exceed += (np.abs(u) >= obs[None, :] - tol[None, :]).sum(axis=0)
        if wsum is not None:
            U.append(u)
            V.append(signs @ wsum)
    pval = (extra + exceed) / (total + extra)
    # columns whose non-zero cluster sums are few enough to enumerate: the exact p-value instead of the random one
    reduced = np.zeros(D.shape[1], dtype=bool)
    if not exact:
        # 2^G' <= B as G' <= floor(log2 B): 2.0 ** G' overflowed from G' = 1024 non-zero sums on, and every comparison
        # of that many differing problems (or clusters) came with numpy's 'overflow encountered in power'
        reduced = (gsum != 0).sum(axis=0) <= int(B).bit_length() - 1
        if reduced.any():
            pval[reduced] = _sign_flip_exact(gsum[:, reduced])
    if wsum is None:
        return pval, None
    u_all, v_all = np.vstack(U), np.vstack(V)
    A, Wt = gsum.sum(axis=0), wsum.sum(axis=0)
    centre = np.where(Wt > 0, A / np.where(Wt > 0, Wt, 1.0), 0.0)

    def rejected(delta: np.ndarray) -> np.ndarray:
        shifted = gsum - delta[None, :] * wsum
        t_obs = np.abs(shifted.sum(axis=0))
        t = np.abs(u_all - delta[None, :] * v_all)
        eps = 1e-12 * np.maximum(np.abs(shifted).sum(axis=0), 1e-300)
        p = (extra + (t >= t_obs[None, :] - eps[None, :]).sum(axis=0)) / (total + extra)
        return p <= alpha

    ends = []
    for side in (-1.0, 1.0):  # bisection between the centre (never rejected) and the far end of [-1, 1] or beyond
        inner = centre.copy()
        outer = centre + side * 2.0
        for _ in range(60):
            mid = (inner + outer) / 2.0
            rej = rejected(mid)
            outer = np.where(rej, mid, outer)
            inner = np.where(rej, inner, mid)
        # a difference of two means of values in [0, 1]; an end within rounding of 0 (where the test's ties break)
        # is 0
        ends.append(np.where(np.abs(inner) < 1e-12, 0.0, np.clip(inner, -1.0, 1.0)))
    # where the p-value is exact but the interval's shifts used random vectors, 0 (kept by the exact test) is in it
    keep0 = reduced & (pval > alpha)
    return pval, (np.where(keep0, np.minimum(ends[0], 0.0), ends[0]), np.where(keep0, np.maximum(ends[1], 0.0), ends[1]))


def _sign_vectors(start: int, b: int, m: int) -> np.ndarray:
    """Sign vectors number start .. start + b - 1 of the 2^m (row j: the bits of j as -1/+1), shape (b, m)."""
    return ((np.arange(start, start + b)[:, None] >> np.arange(m)[None, :]) & 1) * 2.0 - 1.0


def _sign_flip_exact(gsum: np.ndarray) -> np.ndarray:
    r"""Exact two-sided sign-flip p-value per column of the cluster sums ``gsum`` (shape (G, columns)) from the
    non-zero sums alone: #{s: |Σ_g s_g D_g| ≥ |Σ_g D_g|}/2^m over the 2^m sign vectors of m = the most non-zero sums in
    a column (at most log2 B). Each column's non-zero sums are moved to its first rows and the rest are 0, and a 0
    row only repeats every pattern of the others (2^(m−G') times), so the share is the one over all 2^G vectors."""
    nonzero = gsum != 0
    m = int(nonzero.sum(axis=0).max())
    order = np.argsort(~nonzero, axis=0, kind="stable")
    C = np.take_along_axis(gsum, order, axis=0)[:m]
    obs = np.abs(C.sum(axis=0))
    tol = 1e-12 * np.maximum(np.abs(C).sum(axis=0), 1e-300)
    exceed = np.zeros(C.shape[1])
    chunk = max(1, (1 << 21) // max(m, 1))
    for start in range(0, 2**m, chunk):
        b = min(chunk, 2**m - start)
        signs = _sign_vectors(start, b, m)
        exceed += (np.abs(signs @ C) >= obs[None, :] - tol[None, :]).sum(axis=0)
    return exceed / 2.0**m


# ----------------------------------------------------------------------------------------
# power analysis
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PowerResult(ReadOnlyResult):
    """How many problems (and samples per problem) detect a difference δ at budget k.

    Attributes
    ----------
    delta, k, confidence_level, power : the design targets
    samples_per_problem : ndarray of int, shape (R,)
        Candidate samples per problem (K_A = K_B = n).
    problems : ndarray of int, shape (R,)
        Problems needed at each candidate n.
    omega2 : float
        Between-problem variance of the true per-problem difference.
    within_a, within_b : ndarray, shape (R,)
        Within-problem variance of one problem's estimate at each n.
    source : str
        "assumed" (from p, correlation, spread) or "pilot" (estimated from counts).
    meta : dict
        The assumptions (p, correlation, spread) or the pilot (its problems, models and metric).
    """

    __repr__ = brief_repr

    delta: float
    k: int
    confidence_level: float
    power: float
    samples_per_problem: np.ndarray
    problems: np.ndarray
    omega2: float
    within_a: np.ndarray
    within_b: np.ndarray
    source: str
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``delta``, ``k``, ``confidence_level``, ``power``, ``omega2``, ``source`` ("assumed" or
        "pilot"), the assumptions (``p``, ``correlation``, ``spread``) or the pilot (``pilot_problems``,
        ``model_a``, ``model_b``, ``metric``) and ``plan``, one record per samples per problem
        (``samples_per_problem``, ``problems``, ``within_a``, ``within_b``)."""
        return {
            "delta": self.delta,
            "k": self.k,
            "confidence_level": self.confidence_level,
            "power": self.power,
            "omega2": _f(self.omega2),
            "source": self.source,
            **{key: _f(v) if isinstance(v, float) else v for key, v in self.meta.items()},
            "plan": [
                {
                    "samples_per_problem": int(n),
                    "problems": int(p),
                    "within_a": _f(wa),
                    "within_b": _f(wb),
                }
                for n, p, wa, wb in zip(self.samples_per_problem, self.problems, self.within_a, self.within_b, strict=True)
            ],
        }

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame of ``plan``: columns ``samples_per_problem``, ``problems``, ``within_a``,
        ``within_b``."""
        return records_frame(self.to_dict()["plan"])

    def plot(self) -> Any:
        """plotly Figure: problems needed against samples per problem.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure(go.Scatter(x=self.samples_per_problem, y=self.problems, mode="lines+markers"))
        fig.update_layout(
            xaxis_title="samples per problem",
            yaxis_title=f"problems to detect δ={self.delta:g} at k={self.k}",
            # the level and power the counts are for (they change them several-fold), which the figure left out
            title=f"{level_label(self.confidence_level)} confidence, {level_label(self.power)} power",
            template="plotly_white",
        )
        fig.update_xaxes(type="log")
        return fig


_ROWS_ELEMS = 1 << 22  # bound on the (p, j) work arrays of _within_var_exact


def _overlap_pmf(n: int, k: int) -> np.ndarray:
    """P(J = j), j = 0..k: the overlap of two independent uniformly random k-subsets of n.

    Hypergeometric (population n, k marked, k drawn), each probability by the saddle-point form of
    G-pass@k (``_hyper_log_pmf``: a few 1e-16 plus ~5e-16·|ln P| relative, at any n). The ratio recurrence
    P(j+1)/P(j) from lgamma used before carried ~2.4e-13 relative by n = 200 (2k > n) and grew with n.
    (scipy's hypergeom.pmf takes 3.6 s at n = 10^9.)
    """
    j0, logp = _hyper_log_pmf_run(n, k, k)
    out = np.zeros(k + 1)
    out[j0:] = np.exp(logp)
    return out


def _within_var_exact(p: np.ndarray, n: int, k: int, metric: str, tau: float | None) -> np.ndarray:
    r"""Exact variance of one problem's unbiased estimate from n samples, per p.

    The estimate is P(event | outcomes) for a uniformly random k-subset S of the n samples, so
    its second moment is P(event on S1 and on S2) for two independent such subsets, whose
    overlap J is hypergeometric (population n, k marked, k drawn) and whose union has 2k - J
    fresh Bernoulli(p) samples. Hence, with O(k) terms per p whatever n is:

    * pass@k: Var = (1-p)^{2k} E[(1-p)^{-J} - 1]  (both subsets all-fail);
    * pass^k: Var = E[p^{2k-J} (1 - p^J)]  (both all-succeed);
    * G-pass@k_τ (at least m of k): E[est²] = E_J Σ_x Bin(x; J, p) P(Bin(k-J, p) >= m - x)²,
      O(k²) per p, so for k² > n it sums Bin(c; n, p)·est(c)² over c instead.

    Every term of the first two is non-negative, so there is no cancellation. (The direct
    Σ_c Bin(c; n, p) est(c)² - (E est)² held a p × (n+1) matrix: 23 GB at n = 3·10^6.)
    NaN where k > n, like the estimates themselves.
    """
    p = np.asarray(p, dtype=np.float64).ravel()
    out = np.empty(p.size)
    if k > n:
        out[:] = np.nan
        return out
    j = np.arange(k + 1, dtype=np.float64)
    pj = _overlap_pmf(n, k)
    if metric == "g_pass_at_k" and k * k > n + 1:
        # Var(est) = Var(1 - est): the moments of whichever of G and 1 - G is the smaller mean, each tail to
        # full precision (E[est²] - E[est]² with both near 1 lost everything: 0 for 2.9e-21, 1.3e-12 off)
        cgrid = np.arange(n + 1, dtype=np.int64)
        mm = int(_tau_to_m(np.array([float(tau if tau is not None else 0.0)]), np.array([k]))[0])
        full = np.ones(n + 1, dtype=np.int64)
        below, above = _hyper_tails(n * full, cgrid, k * full, mm * full)
        step = max(1, _ROWS_ELEMS // (n + 1))
        for s0 in range(0, p.size, step):
            pmf = stats.binom.pmf(cgrid[None, :], n, p[s0:s0 + step, None])
            mean = pmf @ above
            g = np.where((mean <= 0.5)[:, None], above[None, :], below[None, :])
            out[s0:s0 + step] = np.maximum((pmf * g * g).sum(axis=1) - (pmf * g).sum(axis=1) ** 2, 0.0)
        return out
    step = max(1, _ROWS_ELEMS // (k + 1))
    for s0 in range(0, p.size, step):
        pp = p[s0:s0 + step, None]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            # every term in logs, summed from the largest: (1-p)^{2k} and (1-p)^{-J} - 1 (or p^{2k-J}) under- and
            # overflowed apart where their product is an ordinary number (pass@700 of n = 1000 at p = 1/2:
            # variance 6.3e-270, returned 0)
            if metric == "pass_at_k":
                lq = np.log1p(-pp)  # -inf at p = 1, where the variance is 0
                a = -j[None, :] * lq  # log (1-p)^{-J} >= 0
                lt = 2 * k * lq + a + np.log(-np.expm1(-a))  # log of (1-p)^{2k} ((1-p)^{-J} - 1); -inf at J = 0
            elif metric == "pass_pow_k":
                lp = np.log(pp)  # -inf at p = 0, where the variance is 0
                lt = (2 * k - j[None, :]) * lp + np.log(-np.expm1(j[None, :] * lp))
            else:  # g_pass_at_k with k² <= n + 1
                m = int(_tau_to_m(np.array([float(tau if tau is not None else 0.0)]), np.array([k]))[0])
                # the moments of G or of 1 - G, whichever has the smaller mean (see the branch above)
                mean = stats.binom.sf(m - 1, k, pp[:, 0])
                flip = (mean > 0.5)[:, None]
                terms = np.zeros((pp.shape[0], k + 1))
                for jj in range(k + 1):
                    x = np.arange(jj + 1)
                    bx = stats.binom.pmf(x[None, :], jj, pp)
                    tail = np.where(flip, stats.binom.cdf(m - x[None, :] - 1, k - jj, pp),
                                    stats.binom.sf(m - x[None, :] - 1, k - jj, pp))
                    terms[:, jj] = (bx * tail**2).sum(axis=1)
                g_mean = np.where(flip[:, 0], stats.binom.cdf(m - 1, k, pp[:, 0]), mean)
                out[s0:s0 + step] = np.maximum(terms @ pj - g_mean**2, 0.0)
                continue
            lt = lt + np.log(pj)[None, :]
            lt = np.where(np.isnan(lt), -np.inf, lt)  # p = 0 or 1 (0 * inf): no variance
            top = lt.max(axis=1, keepdims=True)
            top = np.where(np.isfinite(top), top, 0.0)
            out[s0:s0 + step] = np.exp(top[:, 0]) * np.exp(lt - top).sum(axis=1)
    return out


def _power_values_iv(delta: Any, k: Any, n: Any, confidence_level: Any, power: Any,
                     n_name: str = "n") -> tuple[float, int, np.ndarray, float, float]:
    """delta, k, the grid n (default k, 2k, ..., 100k), the level and the power, in this order: the values checked
    before any question of which arguments apply. ``n_name`` is the grid's name in the messages: the command line
    passes "--n", whose `n` its renaming leaves alone in a command that reads a file (a pilot's column n)."""
    d = check_scalar(delta, "delta")  # one finite number; True was 1.0 through float()
    if not 0 < abs(d) <= 1:
        raise PasscurveError(f"`delta` must be in (0, 1] in absolute value (got delta={fmt(d)})")
    k = check_positive_int(k, "k")
    if n is None:
        ns = np.unique(np.array([k, 2 * k, 5 * k, 10 * k, 20 * k, 50 * k, 100 * k], dtype=np.int64))
    else:
        ns = budget_grid(n, n_name)
        check_k_le_n(ns, np.full(ns.shape, k), n_name=n_name)
    level = check_confidence_level(confidence_level)
    pw = check_scalar(power, "power", low=0.0, high=1.0, low_open=True, high_open=True)
    return d, k, ns, level, pw


def _power_iv(delta: Any, k: Any, n: Any, confidence_level: Any, power: Any, metric: Any, tau: Any, counts: Any,
              a: Any, b: Any, p: Any, correlation: Any, spread: Any) -> tuple[float, int, np.ndarray, float, float, float | None, tuple]:
    """The common arguments, the metric (and tau), and without pilot counts the assumptions (p, correlation,
    spread) of the assumed variances."""
    d, k, ns, level, pw = _power_values_iv(delta, k, n, confidence_level, power)
    tau_v = _metric_tau_iv(metric, tau)
    assumed: tuple = ()
    if counts is None:
        check_unused("with pilot `counts` (they name its two models)", a=a, b=b)
        if k != 1 or metric != "pass_at_k":
            raise PasscurveError("without pilot `counts`, power_analysis supports pass@1 only (k=1); pass pilot counts")
        p = 0.5 if p is None else p
        correlation = 0.5 if correlation is None else correlation
        assumed = (check_scalar(p, "p", low=0, high=1), check_scalar(correlation, "correlation", low=-1, high=1),
                   None if spread is None else check_scalar(spread, "spread", low=0))
    else:
        check_unused("without pilot `counts` (the pilot's own variances are used)", p=p, correlation=correlation,
                     spread=spread)
    return abs(d), k, ns, level, pw, tau_v, assumed


def _problems_needed(exact: np.ndarray, delta: float) -> np.ndarray:
    """ceil of the required number of problems, or a one-line error when it is beyond int64 (it wrapped to a
    negative number, which the floor of 2 turned into 2)."""
    top = float(np.max(exact))
    if not top < 2.0**62:
        raise PasscurveError(f"`delta` = {fmt(delta)} needs about {top:.3g} problems: no benchmark can detect it")
    return np.ceil(exact).astype(np.int64)


def power_analysis(
    delta: float,
    k: int = 1,
    *,
    counts: Counts | None = None,
    a: str | None = None,
    b: str | None = None,
    p: float | None = None,
    correlation: float | None = None,
    spread: float | None = None,
    n: Any = None,
    metric: str = "pass_at_k",
    tau: float | None = None,
    confidence_level: float = 0.95,
    power: float = 0.8,
) -> PowerResult:
    r"""Problems (and samples per problem) needed to detect a difference δ at budget k.

    .. math:: N = \Bigl(\frac{z_{\alpha/2}+z_\beta}{\delta}\Bigr)^2
              \Bigl(\omega^2 + \frac{\sigma_A^2}{K_A} + \frac{\sigma_B^2}{K_B}\Bigr)

    (Miller 2024, arXiv:2411.00640). Two ways to supply the variances:

    *Assumed* (no ``counts``; pass@1 only): both models have mean success rate ``p``, the
    per-problem success rates vary across problems with standard deviation ``spread`` and
    the two models' single-sample outcomes on a problem correlate with ``correlation``
    (so Cov(p_A, p_B) = correlation·p(1-p)); then :math:`\omega^2 = 2\,\text{spread}^2 -
    2\,\text{correlation}\,p(1-p)` and :math:`\sigma^2 = p(1-p) - \text{spread}^2`. At
    one sample per problem the answer does not depend on ``spread``:
    :math:`\omega^2 + 2\sigma^2 = 2p(1-p)(1-\text{correlation})`.

    *Pilot* (``counts`` with models ``a`` and ``b`` on shared problems; any k and metric):
    :math:`\omega^2` is the variance of the per-problem differences minus their estimated
    within-problem part, and the within-problem variance at each candidate n is the exact
    variance of the unbiased estimator at the pilot's per-problem rates c/n.

    Parameters
    ----------
    delta : float
        The difference to detect (absolute, on the metric's scale).
    k : int
    counts, a, b : pilot data and the two model names
        ``a`` and ``b`` apply only with ``counts`` (an error without them).
    p, correlation, spread : assumptions when no pilot is given
        Default p = 0.5, correlation = 0.5, spread none (needed for n > 1). They apply only without
        ``counts`` (an error with them: the pilot's own variances are used).
    n : int or sequence of int, optional
        Candidate samples per problem (default k, 2k, 5k, ..., 100k; n >= k).
    metric : str
    tau : float, optional
    confidence_level : float
        1 - the two-sided significance level.
    power : float
        Probability of detecting δ.

    Returns
    -------
    PowerResult

    References
    ----------
    E. Miller, "Adding Error Bars to Evals", arXiv:2411.00640 (the sample-size formula).

    Examples
    --------
    >>> int(power_analysis(0.03, 1, p=0.5, correlation=0.5, n=1).problems[0])  # Miller's example
    2181
    """
    d, k, ns, level, pw, tau, assumed = _power_iv(delta, k, n, confidence_level, power, metric, tau, counts, a, b,
                                                  p, correlation, spread)
    z = stats.norm.ppf(1 - (1 - level) / 2) + stats.norm.ppf(pw)
    meta: dict[str, Any] = {}
    if counts is None:
        p, rho, spread = assumed
        v = p * (1 - p)
        if spread is None:
            if (ns > 1).any():
                raise PasscurveError("`spread` (sd of per-problem success rates) is needed for more than one sample per problem")
            # at one sample per problem only the total 2p(1-p)(1-correlation) is identified
            total = 2 * v * (1 - rho)
            need = _problems_needed(np.full(ns.shape, (z / d) ** 2 * total), d)
            return PowerResult(
                delta=d, k=k, confidence_level=level, power=pw, samples_per_problem=ns,
                problems=np.maximum(need, 2), omega2=float("nan"), within_a=np.full(ns.shape, np.nan),
                within_b=np.full(ns.shape, np.nan), source="assumed",
                meta={"p": p, "correlation": rho, "spread": None, "variance_of_difference": total},
            )
        else:
            s2 = float(spread) * float(spread)  # ** 2 of 1e300 was Python's OverflowError; * gives inf
            if not max(rho, 0.0) * v <= s2 <= v:
                raise PasscurveError(
                    f"`spread` must satisfy correlation*p(1-p) <= spread^2 <= p(1-p) (got spread={fmt(float(spread))})"
                )
        omega2 = 2 * s2 - 2 * rho * v
        wa = wb = (v - s2) / ns
        meta = {"p": p, "correlation": rho, "spread": None if spread is None else float(spread)}
        source = "assumed"
    else:
        check_counts_object(counts)
        if a is None or b is None:
            raise PasscurveError("a pilot needs the two models to compare: name them as `a` and `b`")
        a, b = check_model(a, counts.models, "a"), check_model(b, counts.models, "b")  # as written, else stripped
        ca, cb = counts.select(a), counts.select(b)
        if a == b:
            raise PasscurveError(f"`a` and `b` must be two different models (got {a!r} twice)")
        shared, ia, ib = np.intersect1d(ca.problem.astype(str), cb.problem.astype(str), return_indices=True)
        if shared.size < 2:
            raise PasscurveError(f"models {a!r} and {b!r} share fewer than 2 problems; no pilot estimate")
        na, nb_ = ca.n[ia], cb.n[ib]
        # one sample per problem shows each problem's rate as 0 or 1, so its within-problem variance reads 0 and
        # the whole variance passes for between-problem: every n then needed the same number of problems (379 at
        # delta = 0.1 for 1 and 100 samples per problem). Only the total at one sample per problem is identified,
        # as without a pilot
        single = [name for name, m in ((a, na), (b, nb_)) if int(m.max()) == 1]
        if single and (ns > 1).any():
            raise PasscurveError(
                f"the pilot has one sample per problem for {' and '.join(repr(s) for s in single)}, which does not "
                "split the variance into between- and within-problem parts: ask for one sample per problem, n=[1] "
                "(--n 1), the one size it identifies, or give a pilot with at least 2 samples on some problems"
            )
        if min(na.min(), nb_.min()) < k:
            check_k_le_n(np.array([min(na.min(), nb_.min())]), np.array([k]))
        kk = np.array([k])
        sa = _scores(na, ca.c[ia], kk, metric, tau)[:, 0]
        sb = _scores(nb_, cb.c[ib], kk, metric, tau)[:, 0]
        pa_hat, pb_hat = ca.c[ia] / na, cb.c[ib] / nb_
        # within-problem variance of the pilot's own estimates (plug-in at c/n, exact in n)
        wpa = _plugin_within(pa_hat, na, k, metric, tau)
        wpb = _plugin_within(pb_hat, nb_, k, metric, tau)
        omega2 = max(float(np.var(sa - sb, ddof=1) - np.mean(wpa + wpb)), 0.0)
        wa = np.array([float(np.mean(_within_var_exact(pa_hat, int(m), k, metric, tau))) for m in ns])
        wb = np.array([float(np.mean(_within_var_exact(pb_hat, int(m), k, metric, tau))) for m in ns])
        meta = {"pilot_problems": int(shared.size), "model_a": a, "model_b": b, "metric": metric}
        source = "pilot"
    need = _problems_needed((z / d) ** 2 * (omega2 + wa + wb), d)
    return PowerResult(
        delta=d,
        k=k,
        confidence_level=level,
        power=pw,
        samples_per_problem=ns,
        problems=np.maximum(need, 2),
        omega2=float(omega2),
        within_a=np.asarray(wa, dtype=float),
        within_b=np.asarray(wb, dtype=float),
        source=source,
        meta=meta,
    )


def _plugin_within(ph: np.ndarray, n: np.ndarray, k: int, metric: str, tau: float | None) -> np.ndarray:
    out = np.empty(ph.size)
    for m in np.unique(n):  # loop over distinct n only
        sel = n == m
        out[sel] = _within_var_exact(ph[sel], int(m), k, metric, tau)
    return out
