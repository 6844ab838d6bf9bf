r"""Backtests of pass@K forecasts: thin the data, forecast, compare with the full data.

Thinning keeps a uniformly random subset of m of each problem's n samples, which for counts
is exactly :math:`c' \sim \text{Hypergeometric}(n, c, m)` (``rng.hypergeometric(c, n-c, m)``).
Each method forecasts pass_D@K from the thinned counts; the truth is the unbiased pass_D@K
of the full counts (K <= n). Optionally only a random subset of problems is kept.
This is the evaluation of Schaeffer et al. 2025 (arXiv 2502.17578) and Kazdan et al. 2025
(arXiv 2510.05197).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._adaptive import StopAtSuccess, check_design
from ._counts import Counts, check_counts_object, stopping_design
from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._forecast import FORECAST_METHODS, _observed_limit, _pass_mean, _reduce, forecast
from ._results import ReadOnlyResult, brief_repr, frame_html, json_safe, records_frame
from ._validation import (
    MAX_SEEDS,
    budget_grid,
    check_choice,
    check_choices,
    check_confidence_level,
    check_positive_int,
    check_rng,
    is_bool,
    model_streams,
)

__all__ = ["backtest", "BacktestResult"]


@dataclass(frozen=True, eq=False)
class BacktestResult(ReadOnlyResult):
    """Per-run forecasts and errors, and their summary.

    Attributes
    ----------
    rows : tuple of dict
        One per (model, seed, m, k, method): forecast, low, high, truth, error, covered.
    summary : tuple of dict
        Per (m, k, method): runs, median and mean absolute error, mean error (bias),
        interval coverage, mean interval width.
    confidence_level : float
    warnings : tuple of str
    """

    __repr__ = brief_repr

    rows: tuple[dict[str, Any], ...]
    summary: tuple[dict[str, Any], ...]
    confidence_level: float
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``summary`` (per (m, k, method): ``runs``, ``median_abs_error``, ``mean_abs_error``,
        ``mean_error``, ``coverage``, ``mean_width``), ``runs`` (one record per run: ``model``, ``seed``,
        ``forecast``, ``low``, ``high``, ``truth``, ``error``, ``covered``, ...) and ``confidence_level``;
        strict JSON (a NaN forecast or error, as on all-zero or one-problem data, becomes None)."""
        return json_safe({"summary": list(self.summary), "runs": list(self.rows),
                          "confidence_level": self.confidence_level})

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self, which: str = "summary") -> Any:
        """pandas DataFrame of ``to_dict()``'s ``summary`` records (``which="summary"``) or of its ``runs``
        (``which="runs"``, the attribute :attr:`rows`).

        Parameters
        ----------
        which : {"summary", "runs"}, default "summary"

        Returns
        -------
        pandas.DataFrame
        """
        # any other value had been the runs: which="summry" gave the runs without a word, an array numpy's
        # ambiguous-truth error
        which = check_choice(which, "which", ("summary", "runs"), quoted=True)
        return records_frame(self.summary if which == "summary" else self.rows)

    def plot(self) -> Any:
        """Median absolute error per method and (m, k), grouped bars.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        methods = list(dict.fromkeys(r["method"] for r in self.summary))
        for meth in methods:
            rs = [r for r in self.summary if r["method"] == meth]
            fig.add_trace(go.Bar(x=[f"m={r['m']}→K={r['k']}" for r in rs], y=[r["median_abs_error"] for r in rs],
                                 name=meth))
        fig.update_layout(barmode="group", xaxis_title="m samples per problem → pass@K forecast",
                          yaxis_title="median |forecast − truth|", template="plotly_white")
        return fig


def _summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    keys = list(dict.fromkeys((r["m"], r["k"], r["method"]) for r in rows))
    for m, k, meth in keys:
        rs = [r for r in rows if (r["m"], r["k"], r["method"]) == (m, k, meth)]
        err = np.array([r["error"] for r in rs], dtype=np.float64)
        cov = np.array([r["covered"] for r in rs if r["covered"] is not None], dtype=np.float64)
        wid = np.array([r["high"] - r["low"] for r in rs if r["covered"] is not None])  # runs with an interval
        ok = np.isfinite(err)
        out.append({
            "m": m, "k": k, "method": meth, "runs": int(ok.sum()),
            "median_abs_error": float(np.median(np.abs(err[ok]))) if ok.any() else None,
            "mean_abs_error": float(np.mean(np.abs(err[ok]))) if ok.any() else None,
            "mean_error": float(np.mean(err[ok])) if ok.any() else None,
            "coverage": float(cov.mean()) if cov.size else None,
            "mean_width": float(wid.mean()) if wid.size else None,
        })
    return out


def _stopping_advice(counts: Counts) -> str:
    """What the no-pair error adds when the counts look like a stopping time (the data layer's evidence): the
    design the StoppingTimeWarning names, under which the truth runs to the cap. The error pointed to `k` <= 60 on
    the BoN jailbreaking counts (n = 60 for problems solved in the first batch) and not to the design."""
    suggested = stopping_design(counts.meta.get("stopping_time"), counts.models)
    if suggested is None:
        return ""
    batch, cap = suggested
    b = "B" if batch is None else str(batch)
    reach = ""
    if batch is not None:
        try:
            design = StopAtSuccess(batch, cap)
            design.check(counts.n, counts.c)
            reach = f" (k to {max(_observed_limit(sub.n, sub.c, design) for _, sub in counts.groups())})"
        except PasscurveError:  # the design does not fit after all: named without a reach
            reach = ""
    return (f", or, as n looks like a stopping time here (the StoppingTimeWarning), run under the stop-at-success "
            f"design{reach}: `--stop-batch {b} --cap {cap}` (design=StopAtSuccess({b}, {cap}) "
            "in Python)")


def _backtest_iv(counts: Any, m: Any, k: Any, seeds: Any, methods: Any, problems: Any, confidence_level: Any,
                 design: Any = None):
    check_counts_object(counts)
    design = check_design(design)
    ms = budget_grid(m, "m")
    ks = budget_grid(k, "k")
    seeds = check_positive_int(seeds, "seeds", maximum=MAX_SEEDS)
    methods = check_choices(methods, "methods", FORECAST_METHODS)
    if problems is not None:
        try:
            if is_bool(problems) or isinstance(problems, str | bytes):  # float() reads True as 1.0 and "3" as 3.0
                raise TypeError
            problems = float(problems)
        except (TypeError, ValueError):
            raise PasscurveError(f"`problems` must be a fraction in (0, 1] or a whole count > 1 (got {problems!r})") from None
        if not (0 < problems < np.inf) or (problems > 1 and not problems.is_integer()):
            raise PasscurveError(f"`problems` must be a fraction in (0, 1] or a whole count > 1 (got {problems:g})")
    cl = check_confidence_level(confidence_level)
    # each model's truth exists up to its own top: its smallest n, or under a design the largest k at
    # which all its problems are estimable (truncation to a cap of m)
    if design is not None:
        design.check(counts.n, counts.c)
    tops = {name: _observed_limit(sub.n, sub.c, design) for name, sub in counts.groups()}
    top = max(tops.values())
    pairs = [(int(a), int(b)) for a in ms for b in ks if a < b <= top]
    if not pairs:
        where = ("the largest k every problem of a model is estimable at under the design" if design is not None
                 else "the largest of the models' smallest n" if len(tops) > 1 else "the smallest n")
        raise PasscurveError(f"no (m, k) pair with m < k <= {top} ({where}); choose `m` below `k` and `k` <= {top}"
                             + ("" if design is not None else _stopping_advice(counts)))
    return counts, pairs, seeds, methods, problems, cl, design, [int(b) for b in ks if b > top], tops

def backtest(
    counts: Counts,
    m: Any = (100, 1000),
    k: Any = (1000, 10000),
    *,
    seeds: int = 5,
    methods: Any = ("least_squares", "beta", "auto"),
    problems: float | None = None,
    confidence_level: float = 0.8,
    n_resamples: int = 100,
    rng: Any = None,
    design: Any = None,
) -> BacktestResult:
    """Thin to m samples per problem, forecast pass_D@k with each method, compare with the full data.

    Parameters
    ----------
    counts : Counts
        The full counts (n fixed in advance; every (m, k) pair needs m < k <= n).
    m, k : int or sequence of int, default (100, 1000) and (1000, 10000)
        Samples kept per problem and budgets to forecast; every pair with m < k runs for each model
        whose smallest n is at least k (models sampled to different n each run as far as their own
        data give a truth; the pairs a model cannot run are named in a warning).
    seeds : int, default 5
        Thinning repetitions (seeded from ``rng``), at most 10^4: the coverage over that many is within 0.005
        (one SD) of its value over infinitely many.
    methods : sequence of str
        Forecast methods (see :func:`passcurve.forecast`); default the two baselines and
        passcurve's choice.
    problems : float, optional
        Keep a random subset of problems: a fraction in (0, 1] or a count (> 1).
    confidence_level : float
        Level of the prediction intervals whose coverage is reported.
    n_resamples : int, default 100
        Parameter draws / bootstrap resamples behind each method's interval (``forecast``'s
        ``n_resamples``; 0: the intervals leave out parameter uncertainty).
    rng : None, int or Generator
        Seeds the problem subsets and thinnings (a stream of their own, so every method sees the same
        thinned counts) and the forecasts; each model starts from the same state.
    design : StopAtSuccess, optional
        The counts come from a stop-at-success design (n is a stopping time). A random subset of
        such samples is not a sample from the design, so each problem is *truncated* to a cap of m
        instead (:meth:`StopAtSuccess.truncate`, exact), the methods forecast under the design with
        cap m, and the truth is the full data's stopping-time estimate (every k up to the cap).
        When no cap m cuts a problem's last batch, truncation draws nothing, so without ``problems``
        there is one run per (m, k) whatever ``seeds`` (with a warning).

    Returns
    -------
    BacktestResult
    """
    counts, pairs, seeds, methods, frac, cl, design, too_big, tops = _backtest_iv(
        counts, m, k, seeds, methods, problems, confidence_level, design)
    warns: list[str] = []
    what = "the smallest n" if design is None else "the largest k the design estimates"
    if too_big:
        whose = f"{what} of the model sampled furthest" if len(tops) > 1 else what
        msg = (f"k = {', '.join(map(str, too_big))} left out: the full data's own pass@k, the backtest's truth, exists "
               f"only up to k = {max(tops.values())} ({whose})")
        record_warning(warns, msg, DegenerateDataWarning)
    for name, t in tops.items():
        ks_out = sorted({b for _, b in pairs if b > t})
        if not ks_out:
            continue
        why = f"its truth exists only up to k = {t}, {what} of its problems"
        if len(ks_out) == len({b for _, b in pairs}):
            record_warning(warns, f"model {name!r}: no run (every k asked for is beyond it: {why})", DegenerateDataWarning)
        else:
            record_warning(warns, f"model {name!r}: k = {', '.join(map(str, ks_out))} left out ({why})",
                           DegenerateDataWarning)
    if frac is not None and frac > 1:  # a count of problems at least a model's own keeps them all, every seed alike
        for name, sub in counts.groups():
            if sub.n.size <= frac:
                # named for both readers: the CLI has --problems, not problems=
                record_warning(warns, f"model {name!r}: problems={int(frac)} (--problems) is not fewer than "
                                      f"the {sub.n.size} problems there: all are kept, the same in every seed", DegenerateDataWarning)
    if (design is not None and frac is None and seeds > 1
            and not any(design.cuts(counts.n, mm).any() for mm in {mm for mm, _ in pairs})):
        # truncation to a cap m that cuts no problem's last batch draws nothing: every seed would forecast the same
        # counts (only the interval's bootstrap moved), and the summary counted the copies as runs (forecasting
        # review: BoN GPT-4o, m = 600, read 'runs 2' with two identical forecasts)
        msg = (f"seeds={seeds} repeat the same run under the stop-at-success design (truncating each problem to the "
               "cap m cuts no batch, so it draws nothing), so there is one run per (m, k); pass problems= to vary "
               "the problem set across seeds")
        record_warning(warns, msg, DegenerateDataWarning)
        seeds = 1
    gen = check_rng(rng)
    # the data (problem subsets, thinnings) come from their own stream, so every method sees the
    # same thinned counts and the comparison does not depend on how many draws a method uses
    data_gen = np.random.default_rng(gen.integers(2**63))
    rows: list[dict[str, Any]] = []
    restarts = (model_streams(data_gen), model_streams(gen))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, sub in counts.groups():
            for restart in restarts:  # a model's thinnings and forecasts do not depend on the other models
                restart()
            n, c = sub.n.astype(np.int64), sub.c.astype(np.int64)
            w = sub.weight
            for seed in range(seeds):
                idx = np.arange(n.size)
                if frac is not None:
                    size = int(round(frac * n.size)) if frac <= 1 else int(frac)
                    idx = np.sort(data_gen.choice(n.size, size=max(1, min(size, n.size)), replace=False))
                for mm, kk in pairs:
                    if kk > tops[name]:
                        continue
                    wi = None if w is None else w[idx]
                    truth = _pass_mean(n[idx], c[idx], kk, design, wi)
                    nt, ct, small = _reduce(n[idx], c[idx], mm, data_gen, design)
                    thin = Counts.from_arrays(nt, ct, model=name, weight=wi)
                    for meth in methods:
                        res = forecast(thin, [kk], method=meth, confidence_level=cl, n_resamples=n_resamples,
                                       flags=False, rng=gen, design=small)
                        p, lo, hi = float(res.pass_at_k[0, 0]), float(res.low[0, 0]), float(res.high[0, 0])
                        rows.append({
                            "model": name, "seed": seed, "m": mm, "k": kk, "method": meth,
                            "problems": int(idx.size), "forecast": p, "low": lo, "high": hi, "truth": truth,
                            "error": p - truth,
                            # no forecast (e.g. least squares undefined) is no run, not a miss
                            "covered": bool(lo <= truth <= hi) if np.isfinite([p, lo, hi]).all() else None,
                        })
    for meth in methods:  # runs without a forecast are left out of a method's summary: say how many and why
        mine = [r for r in rows if r["method"] == meth]
        none = sum(1 for r in mine if not np.isfinite(r["forecast"]))
        if none:
            msg = (f"{meth}: no forecast in {none} of {len(mine)} runs (the thinned counts do not identify it, e.g. "
                   "pass_D@k is 0 or 1 at every k of the least-squares grid); its summary counts the other runs")
            record_warning(warns, msg, DegenerateDataWarning)
    return BacktestResult(tuple(rows), tuple(_summarise(rows)), cl, warnings=tuple(warns))
