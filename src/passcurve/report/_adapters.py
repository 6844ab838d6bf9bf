"""Adapters from the report to analyses that may or may not be in this build of passcurve.

Each adapter calls the library's public functions and returns their result objects (or
arrays read straight off them) in the shape a section builder takes. :func:`available` lists
only the adapters whose library functions exist, so the report omits a section (with a
note) rather than faking it. No statistics are computed here.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import passcurve as pc
from passcurve import DegenerateDataWarning, PasscurveError
from passcurve._results import level_label
from passcurve._validation import fmt_below_one, shares_text

from ._page import esc
from ._sections import Raw

__all__ = ["available"]


def _has(*names: str) -> bool:
    return all(hasattr(pc, n) for n in names)


# ------------------------------------------------------------------------------------- intervals
def intervals(cur: Any, counts: Any, confidence_level: float, rng: Any, k_gt_n: str = "raise",
              design: Any = None) -> Any:
    """``cur`` with the intervals of :func:`passcurve.curve_intervals` (analytic, counting problems)."""
    metrics = [m for m in ("pass_at_k", "pass_pow_k") if m in cur.values]
    ci = pc.curve_intervals(
        counts, cur.k, metric=metrics, method="analytic", confidence_level=confidence_level, rng=rng, k_gt_n=k_gt_n,
        design=design,
    )
    # the estimates come with their intervals; the naive metric stays from ``cur``
    return dataclasses.replace(
        cur,
        values={**cur.values, **{m: ci.values[m] for m in metrics}},
        intervals={m: ci.intervals[m] for m in metrics if m in ci.intervals},
        confidence_level=ci.confidence_level,
        interval_method=ci.interval_method,
        few_problems={m: ci.few_problems[m] for m in metrics if m in ci.few_problems},
    )


# ------------------------------------------------------------------------------------- comparisons
def _comparison_k(counts: Any, table_curve: Any, design: Any = None) -> list[int]:
    """The table's round k (1, 10, 100, ... and the largest) that every problem supports: its n, or under a
    stop design the design's k_max."""
    n_min = int(counts.n.min()) if design is None else design.k_max(counts.n, counts.c)
    return [int(k) for k in table_curve.k if int(k) <= n_min and (int(k) == 1 or np.log10(int(k)).is_integer()
                                                                   or int(k) == n_min)]


def ranks(counts: Any, table_curve: Any, confidence_level: float, rng: Any, n_resamples: int = 1000,
          design: Any = None) -> Any:
    """:func:`passcurve.rank_models` at the comparisons' k: each model's rank with a simultaneous interval."""
    return pc.rank_models(counts, _comparison_k(counts, table_curve, design), confidence_level=confidence_level,
                          n_resamples=n_resamples, rng=rng, design=design)


def comparisons(counts: Any, table_curve: Any, confidence_level: float, rng: Any, n_resamples: int = 1000,
                design: Any = None) -> list[Any]:
    """:func:`passcurve.compare` of every model against the one with the highest pass@1, at the table's k."""
    models = list(table_curve.models)
    j1 = int(np.argmax(np.nan_to_num(table_curve.values["pass_at_k"][:, 0], nan=-1)))
    best = models[j1]
    ks = _comparison_k(counts, table_curve, design)
    out = []
    for m in models:
        if m == best:
            continue
        out.append(pc.compare(counts, best, m, ks, confidence_level=confidence_level, n_resamples=n_resamples, rng=rng,
                              design=design))
    return out


# ------------------------------------------------------------------------------------- diagnostics
def diagnostics(counts: Any, k_gt_n: str = "raise") -> Any:
    """:func:`passcurve.hidden_difficulty` on the powers of two up to each model's own smallest n (``"nan"``),
    else up to the smallest n of the file."""
    if k_gt_n == "nan":
        return pc.hidden_difficulty(counts)
    n_min = int(counts.n.min())
    ks = [2**e for e in range(0, 31) if 2**e <= n_min]
    return pc.hidden_difficulty(counts, ks)


# ------------------------------------------------------------------------------------- fits and forecasts
def _lib(name: str, module: str) -> Any:
    """A library function: the public name when exported, else from its module (same object)."""
    if hasattr(pc, name):
        return getattr(pc, name)
    import importlib

    try:
        return getattr(importlib.import_module(f"passcurve.{module}"), name)
    except (ImportError, AttributeError):
        return None


FORECAST_RESAMPLES = 30
"""Bootstrap refits per model behind the forecast intervals in the report (``forecast(n_resamples=)``)."""

DIFFICULTY_MODELS = ("beta", "zi_beta")
"""Difficulty models fitted for the histogram overlay (the best by AIC is drawn)."""


def forecast_grid(k_max: int, forecast_k: int) -> np.ndarray:
    """Budgets beyond the data: about 12 log-spaced K from the largest observed k to ``forecast_k``."""
    lo, hi = np.log10(max(k_max, 1)), np.log10(max(forecast_k, k_max + 1))
    return np.unique(np.round(np.logspace(lo, hi, 12)).astype(np.int64))


def fits(counts: Any, cur: Any, forecast_k: int | None, confidence_level: float, rng: Any = 0,
         n_resamples: int = FORECAST_RESAMPLES, design: Any = None) -> tuple[dict, dict]:
    """Power law (:func:`fit_power_law`), forecast (:func:`forecast`) and difficulty fits (:func:`fit_difficulty`).

    Returns ``(failure, histogram)``: per model, what :func:`failure_section` draws (power-law
    curve over the observed k, forecast beyond with its interval, a label) and a callable giving
    the fitted model's expected share of problems per c/n bin for :func:`histogram_section`.
    Under a stop-at-success ``design`` the power law and the forecast take the design, and no
    expected histogram is given (the binomial share of c given n assumes n fixed in advance).
    """
    fit_power_law = _lib("fit_power_law", "_scaling")
    forecast = _lib("forecast", "_forecast")
    fit_difficulty = _lib("fit_difficulty", "_difficulty")
    k_obs = np.asarray(cur.k, dtype=np.float64)
    k_max = int(cur.k[-1])
    fk = int(forecast_k or max(100 * k_max, 10_000))
    # each model's observed range ends at its last estimated k (its own smallest n under k_gt_n="nan")
    own = {m: int(cur.k[j]) for m, j in zip(cur.models, cur.last_index(), strict=True)}
    failure: dict[str, dict[str, Any]] = {m: {} for m in cur.models}
    labels: dict[str, dict[str, str]] = {m: {} for m in cur.models}
    if fit_power_law is not None:
        # the law's notes are said in its label (below), not again in the report's warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)
            pl = fit_power_law(counts, design=design)
        for i, m in enumerate(pl.models):
            said = pl._notes(m)
            if np.isfinite(pl.a[i]) and np.isfinite(pl.b[i]):
                kk = np.concatenate([k_obs[k_obs <= own[m]], forecast_grid(own[m], fk)[1:]])
                failure[m]["power_law"] = (kk, 1.0 - pl.predict(kk)[i])
                # a, b and R² in one notation, as fit's title writes them (PowerLawResult._law_numbers): b =
                # 6.68e-05 read "k<sup>−0.000</sup>", and R² took .3f where the title took 4 significant digits
                ea, eb, er2 = (v.replace("-", "−") for v in pl._law_numbers(i))
                r2 = (f"R² {er2}" if np.isfinite(pl.r2[i]) else
                      "through 2 points: exact, unchecked" if any("line through 2 points" in w for w in said) else
                      "a flat curve: R² undefined")
                # under k_gt_n="drop" the curve runs past the smallest n on fewer problems, the fit does not: say
                # where it was fitted, since its dashed line is drawn over the whole observed range
                j = list(cur.models).index(m)
                top = int(pl.k[i][-1]) if len(pl.k[i]) else 0
                subset = (np.asarray(cur.dropped)[j] > 0) & np.isfinite(cur.values["pass_at_k"][j])
                if cur.design is None and bool(subset.any()) and top < own[m]:
                    r2 += f"; fitted on k ≤ {top:,}, where every problem enters the mean"
                # HTML, its exponent raised as the caption above the table writes it (it was "k^−0.269" under
                # "a·k<sup>−b</sup>")
                labels[m]["power law"] = Raw(f"−log pass@k = {ea}·k<sup>−{eb}</sup> ({esc(r2)})")
            else:  # say why, instead of a column that is silently absent
                labels[m]["power law"] = "not fitted: " + ("; ".join(said) if said else "no finite fit")
    if forecast is not None:
        tops: dict[int, list[str]] = {}
        for m in cur.models:
            tops.setdefault(own[m], []).append(m)

        def run(names: list[str], top: int, whole: bool) -> None:
            fc = forecast(counts if whole else counts.select_models(names), forecast_grid(top, fk),
                          confidence_level=confidence_level, n_resamples=n_resamples, rng=rng,
                          design=design)
            _forecast_rows(fc, failure, labels)
            _any_law(fc, top, fk, labels)

        for top, names in tops.items():  # one call when every model has the same range
            try:
                run(names, top, len(tops) == 1)
            except PasscurveError as exc:
                if len(names) == 1 and len(tops) == 1:
                    raise  # the section's note says why
                if len(names) == 1:
                    labels[names[0]]["forecast"] = f"not shown: {exc}"
                    continue
                for m in names:  # the models that can be forecast still are; the others say why
                    try:
                        run([m], top, False)
                    except PasscurveError as exc:
                        labels[m]["forecast"] = f"not shown: {exc}"
    shares: dict[str, Any] = {}
    if fit_difficulty is not None and design is None:
        fd = fit_difficulty(counts, model=list(DIFFICULTY_MODELS))
        for m in fd.models:
            best = fd.best(m)
            ns = counts.n[counts.model == m]
            shares[m] = _expected_shares(best, ns)
            labels[m]["difficulty"] = f"best by AIC of {', '.join(DIFFICULTY_MODELS)}: {_fit_label(best)}"
    for m in failure:
        if labels[m]:
            failure[m]["labels"] = labels[m]
    return {m: v for m, v in failure.items() if v}, shares


def _any_law(fc: Any, own: int, fk: int, labels: dict[str, dict[str, str]]) -> None:
    """Beside each forecast of ``fc`` (its models' observed range ends at ``own``), the range every difficulty law the
    data allow at twice that range and at the forecast's farthest K: how much of the forecast the counts decide. On
    the band the forecast's interval was clipped to (``ForecastResult.bounds``): bounds drawn anew, on a band of their own,
    had ends a little apart from the interval's where the two are one (GPT-4o under its design, K = 10^4: interval
    [0.8512, 0.9474], any law [0.8487, 0.9498] in forecast --bounds)."""
    K = np.unique([2 * own, int(forecast_grid(own, fk)[-1])])
    for m in fc.models:
        # the band inside warns of thin means per model: about an interval the report does not show, and said
        # already of the curves' own intervals
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateDataWarning)
                b = fc.bounds(K, [m])
        except PasscurveError:  # nothing the data constrain: the forecast's label stands alone
            continue
        parts = [f"pass@{int(k):,} in [{fmt_below_one(b.low[0, j], 3)}, {fmt_below_one(b.high[0, j], 3)}]"
                 for j, k in enumerate(b.k)
                 if np.isfinite(b.low[0, j] + b.high[0, j])]
        if parts:
            labels[m]["forecast"] = f"{labels[m]['forecast']}. Any difficulty law the data allow: {'; '.join(parts)}"


def _forecast_rows(fc: Any, failure: dict[str, dict[str, Any]], labels: dict[str, dict[str, str]]) -> None:
    """What the failure section draws and says of each model's forecast in ``fc``."""
    for i, m in enumerate(fc.models):
        failure[m]["forecast"] = (fc.k, 1.0 - fc.pass_at_k[i], 1.0 - fc.high[i], 1.0 - fc.low[i])
        # rounded so that the weights shown add up to 1 (largest remainder), those that round to 0 left out
        w = ", ".join(f"{k} {v}" for k, v in shares_text(fc.weights[i]).items() if v != "0.00")
        lvl = level_label(fc.confidence_level)
        # no forecast below 1 reads 1: Llama 3 8B IT (BoN, stop at success) read "pass@1,002,000 = 1.000" for 0.99998
        v, lo, hi = (fmt_below_one(x, 3) for x in (fc.pass_at_k[i, -1], fc.low[i, -1], fc.high[i, -1]))
        labels[m]["forecast"] = f"pass@{int(fc.k[-1]):,} = {v} [{lo}, {hi}] ({lvl} prediction interval; {fc.method}: {w})"


def _fit_label(fit: Any) -> str:
    """A fitted difficulty model for a reader: parameters (± standard error), log-likelihood and AIC, with true
    minus signs (``summary`` is the developer's text, with ``success=True``)."""
    ps = fit._params_text(eq=" = ", pm=" ± {}", minus="−")
    ll, aic = (f"{v:.1f}".replace("-", "−") for v in (fit.loglik_, fit.aic_))
    return f"{fit.name}: {ps}; log-likelihood {ll}, AIC {aic}"


def _expected_shares(fit: Any, ns: np.ndarray) -> Callable[[np.ndarray, int], dict[str, Any] | None]:
    """Expected share of problems per c/n bin under ``fit``: its pmf summed over the problems' n, as a callable of the
    histogram's bin edges. A partial of a module-level function, not a closure: a Report holds it (in
    ``data.fitted_shares``), and ``pickle.dumps(report)`` failed on the local function."""
    return functools.partial(_shares_in_bins, fit, ns)


def _shares_in_bins(fit: Any, ns: np.ndarray, edges: np.ndarray, _n: int) -> dict[str, Any] | None:
    """:func:`_expected_shares`, evaluated on ``edges``; None (no fitted overlay, and a warning) above the n the fit's
    pmf_bins takes."""
    un, cnt = np.unique(ns, return_counts=True)
    if un.size and un[-1] > fit.pmf_bins_max_n:
        warnings.warn(f"{fit.name}: the histogram of c/n leaves out the fitted law above n = {fit._pmf_bins_limit()} "
                      f"samples per problem (the largest n here is {int(un[-1]):,})",
                      DegenerateDataWarning, stacklevel=2)
        return None
    tot = np.zeros(edges.size - 1)
    limits = []
    for nval in un:
        nv = int(nval)
        # bin i holds the c with edges[i] <= c/n < edges[i+1] (the last bin closed, as in
        # np.histogram): integer limits, nudged to agree with the floating-point comparison
        lo = np.clip(np.ceil(edges * nv), 0, nv + 1).astype(np.int64)
        lo = np.where((lo >= 1) & ((lo - 1) / nv >= edges), lo - 1, lo)
        lo = np.where((lo <= nv) & (lo / nv < edges), lo + 1, lo)
        top = int(np.floor(edges[-1] * nv))
        top = top - 1 if top / nv > edges[-1] else top + 1 if (top + 1) / nv <= edges[-1] else top
        lo[-1] = min(max(top + 1, 0), nv + 1)
        limits.append((lo, np.unique(np.concatenate([[0, nv + 1], lo]))))
    masses = fit.pmf_bins_many(un.astype(np.int64), [bounds for _, bounds in limits])
    for (lo, bounds), mass, w in zip(limits, masses, cnt, strict=True):
        cum = np.concatenate([[0.0], np.cumsum(mass)])
        at = np.searchsorted(bounds, lo)
        tot += w * np.maximum(cum[at[1:]] - cum[at[:-1]], 0.0)
    zero = float(cnt @ fit.pmf(un.astype(np.float64), 0.0))
    n_total = float(cnt.sum())
    return {"shares": tot / n_total, "zero": zero / n_total, "label": fit.name}


def available() -> dict[str, Callable[..., Any]]:
    """Name -> adapter, for the analyses this build provides."""
    out: dict[str, Callable[..., Any]] = {}
    if any(_lib(n, mod) is not None for n, mod in
           (("fit_power_law", "_scaling"), ("forecast", "_forecast"), ("fit_difficulty", "_difficulty"))):
        out["fits"] = fits
    if _has("curve_intervals"):
        out["intervals"] = intervals
    if _has("compare"):
        out["compare"] = comparisons
    if _has("rank_models"):
        out["rank"] = ranks
    if _has("hidden_difficulty"):
        out["diagnostics"] = diagnostics
    return out
