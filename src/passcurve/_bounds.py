r"""What the data alone say about pass_D@K beyond the samples drawn: bounds over every difficulty law.

Beyond n, pass_D@K = E_G[1 − (1−p)^K] depends on the difficulty law G, and the counts constrain G
only through its curve at k ≤ n. :func:`extrapolation_bounds` finds the smallest and the largest
pass_D@K of any law whose curve E_G[1 − (1−p)^k] lies inside the data's simultaneous confidence band
at k ≤ n (:func:`passcurve.curve_intervals` with ``method="band"``), by linear programming over the
laws on a fine grid of success rates. Whenever the band holds the true curve, the true law is one of
those laws, so [low, high] is a *distribution-free* confidence range for pass_D@K at the band's level:
no Beta, no power law, no assumption about the shape of the hard tail. It is what every forecast must
stay inside, and its width shows how much of a forecast comes from the law it assumes (at K = 10 n on
the Pythia data it spans most of [pass@n, 1]; docs/forecasting.md, "What the counts identify").

The support is p = 0 and 100 points per decade from min(1e-8, 1e-3/max K) to 1. A law with an atom
between two support points is matched by mixing its two neighbours with weights linear in log p; the
curve of that mixture differs from the atom's by at most h²/8 · max|d²f/d(log p)²| ≤ 7e-5 at every k
(h = ln 10 / 100), so the constraints and the reported bounds are widened by ``_SLACK`` = 1e-4. The
linear programs are solved by HiGHS without its presolve, which takes three quarters of the time on these
small dense programmes and moves no bound by more than 1e-8 (Pythia data); one feasible set is one HiGHS model,
re-solved from its last basis as the objective changes (:class:`_Laws`; scipy.optimize.linprog from scratch
where scipy's bindings lack the model object).

Reference: the Hausdorff moment problem behind this is classical; for the analogous extrapolation of
the number of unseen species, see A. Orlitsky, A. T. Suresh and Y. Wu, "Optimal prediction of the
number of unseen species", PNAS 113 (2016) 13283–13288.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize

try:  # HiGHS' own model object in scipy's bindings (private; there in scipy 1.17): re-solved from its last basis
    from scipy.optimize._highspy import _core as _highs
except ImportError:  # older scipy: every programme through linprog, from scratch
    _highs = None

from ._adaptive import check_design
from ._counts import Counts, check_counts_object, models_rows
from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._forecast import _f, _observed, _observed_limit, _target_model_iv
from ._results import (
    ReadOnlyResult,
    brief_repr,
    frame_html,
    json_safe,
    level_label,
    pandas_module,
    records_frame,
)
from ._uncertainty import curve_intervals
from ._validation import (
    MAX_RESAMPLES,
    budget_grid,
    check_confidence_level,
    check_flag,
    check_positive_int,
    check_rng,
    model_streams,
)

__all__ = ["BoundsKFor", "BoundsResult", "extrapolation_bounds"]

_SLACK = 1e-4  # grid interpolation error bound (module docstring), with room for the LP tolerances
_PER_DECADE = 100


def _support(k_max: int) -> np.ndarray:
    lo = min(1e-8, 1e-3 / float(k_max))
    decades = -np.log10(lo)
    return np.r_[0.0, np.logspace(-decades, 0.0, int(np.ceil(decades * _PER_DECADE)) + 1)]


def constraint_grid(top: int) -> np.ndarray:
    """The k at which the band constrains the law: 1..10 and 15 log-spaced values up to ``top`` (inclusive)."""
    head = np.arange(1, min(10, top) + 1)
    tail = np.round(np.logspace(1.0, np.log10(top), 15)).astype(np.int64) if top > 10 else np.array([], np.int64)
    return np.unique(np.r_[head, tail, top]).astype(np.int64)


class _Laws:
    """The laws on the grid whose curve lies in [low, high] (widened by the slack) at ``ks``: one feasible set,
    queried with different objectives. A k where the band is undefined (NaN) constrains nothing.

    Only the objective changes between queries, so the set is loaded into one HiGHS model once, each k's two
    inequalities as one ranged row (low − slack ≤ E_G[1 − (1−p)^k] ≤ high + slack), and each query changes the
    costs and re-solves from the previous optimal basis, which stays feasible (the constraints are the same) and
    is a few pivots from the next optimum (a nearby K, or the other end at the same K). That is the same
    programme as the from-scratch ``linprog`` (kept where scipy does not ship the model object, and as the
    reference in tests and benchmarks/bench_bounds.py), to the solver's tolerance: within 1e-9 on the demo,
    Pythia and BoN data, about 8x less time per programme (docs/forecasting.md)."""

    def __init__(self, ks: np.ndarray, low: np.ndarray, high: np.ndarray, k_max: int) -> None:
        keep = np.isfinite(low) & np.isfinite(high)
        self.defined = bool(keep.any())
        self.P = _support(int(max(k_max, ks.max())))
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, and 1 - (1-p)^k = 1 exactly
            self.log_q = np.log1p(-self.P)
        A = -np.expm1(ks[keep, None] * self.log_q[None, :])
        self.a_ub = np.r_[A, -A]
        self.b_ub = np.r_[high[keep] + _SLACK, _SLACK - low[keep]]
        self._model: Any = None  # the HiGHS model, built on the first query (False: infeasible, or not available)

    def _hot(self) -> Any:
        if self._model is None:
            self._model = False
            if _highs is not None and self.defined:
                try:
                    self._model = _hot_model(self.a_ub[: self.a_ub.shape[0] // 2], self.b_ub)
                except (AttributeError, TypeError):  # a scipy whose private HiGHS interface differs: linprog
                    self._model = False
        return self._model

    def _minimum(self, cost: np.ndarray) -> float:
        """min cost · x over the set (x on the grid, summing to 1); NaN when the set is empty."""
        model = self._hot()
        if model is not False:
            try:
                model.changeColsCost(cost.size, np.arange(cost.size, dtype=np.int32), cost)
                if model.run() == _highs.HighsStatus.kError or model.getModelStatus() != _highs.HighsModelStatus.kOptimal:
                    return np.nan
                return float(model.getInfo().objective_function_value)
            except (AttributeError, TypeError, ValueError, RuntimeError):  # a private interface that changed: linprog
                self._model = False
        r = optimize.linprog(cost, A_ub=self.a_ub, b_ub=self.b_ub, A_eq=np.ones((1, self.P.size)), b_eq=[1.0],
                             bounds=(0, None), method="highs", options={"presolve": False})
        return float(r.fun) if r.status == 0 else np.nan

    def extreme(self, K: float, sign: float) -> float:
        """min (sign 1) or max (sign -1) of E_G[1 - (1-p)^K] over the set, widened by the slack and clipped to
        [0, 1]; NaN when the set is empty or undefined."""
        if not self.defined:
            return np.nan
        obj = -np.expm1(float(K) * self.log_q)
        fun = self._minimum(sign * obj)
        if np.isnan(fun):
            return np.nan
        return float(np.clip(sign * fun - sign * _SLACK, 0.0, 1.0))


def _hot_model(A: np.ndarray, b_ub: np.ndarray) -> Any:
    """A HiGHS model of {x >= 0 on the grid: sum x = 1, -b_ub[m:] <= A x <= b_ub[:m]} (m = rows of A), costs 0,
    presolve off (as the linprog path: it took three quarters of the time and moved no bound); False when HiGHS
    refuses it (the caller then uses linprog)."""
    m, ncol = A.shape
    full = np.r_[A, np.ones((1, ncol))]
    nz = full != 0.0
    lp = _highs.HighsLp()
    lp.num_col_, lp.num_row_ = ncol, m + 1
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = ncol, m + 1
    lp.a_matrix_.format_ = _highs.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.r_[0, np.cumsum(nz.sum(axis=0))].astype(np.int32)
    lp.a_matrix_.index_ = np.nonzero(nz.T)[1].astype(np.int32)
    lp.a_matrix_.value_ = full.T[nz.T].astype(float)
    lp.col_cost_ = np.zeros(ncol)
    lp.col_lower_, lp.col_upper_ = np.zeros(ncol), np.full(ncol, np.inf)
    lp.row_lower_, lp.row_upper_ = np.r_[-b_ub[m:], 1.0], np.r_[b_ub[:m], 1.0]
    model = _highs._Highs()
    opts = _highs.HighsOptions()
    opts.presolve, opts.output_flag, opts.log_to_console = "off", False, False
    if model.passOptions(opts) == _highs.HighsStatus.kError or model.passModel(lp) == _highs.HighsStatus.kError:
        return False
    return model


def law_range(ks: np.ndarray, low: np.ndarray, high: np.ndarray, K: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """min and max of E_G[1 − (1−p)^K] over laws G (on the grid) with low ≤ E_G[1 − (1−p)^k] ≤ high at ``ks``.

    NaN where the programme is infeasible (a band that no law's curve fits inside) and where the band is
    undefined at every k (fewer than two problems). Both ends are nondecreasing in K, as the exact extremes are
    (every law's pass@K rises with K): a running maximum over the sorted K removes the solver's tolerance-level
    wobble (about 1e-7), and keeps each end a valid bound.
    """
    laws = _Laws(ks, low, high, int(K.max()))
    lo = np.array([laws.extreme(kk, 1.0) for kk in K])
    hi = np.array([laws.extreme(kk, -1.0) for kk in K])
    order = np.argsort(K, kind="stable")
    for v in (lo, hi):
        nan = np.isnan(v)
        v[order] = np.fmax.accumulate(v[order])
        v[nan] = np.nan
    return lo, hi


_K_TOP = 10**12  # how far BoundsResult.k_for searches


def law_free_band(sub: Counts, name: str, level: float, B: int, gen: np.random.Generator, weighted: bool,
                  design: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One model's simultaneous band on pass_D@k at the constraint grid: (ks, low, high), what every law's curve
    must lie in (:func:`extrapolation_bounds`; also the forecast's range when its law cannot be checked)."""
    top = _observed_limit(sub.n, sub.c, design)
    if top < 1:
        raise PasscurveError(f"model {name!r}: no k is estimable from the data under the design")
    ks = constraint_grid(top)
    band = curve_intervals(sub, k=ks, metric="pass_at_k", method="band", confidence_level=level,
                           n_resamples=B, rng=gen, weighted=weighted, design=design)
    lo_b, hi_b = (np.asarray(x, dtype=float)[0] for x in band.intervals["pass_at_k"])
    return ks, lo_b, hi_b


def k_span(band: tuple[np.ndarray, np.ndarray, np.ndarray], target: float) -> tuple[float, float]:
    """(earliest, certain): the smallest K at which some law in ``band`` (:func:`law_free_band`) reaches ``target``,
    and at which every one does (inf: not by K = 10^12); NaN, NaN where the band is undefined."""
    laws = _Laws(*band, _K_TOP)
    if not laws.defined:
        return np.nan, np.nan
    return _first_k(lambda K: laws.extreme(K, -1.0) >= target), _first_k(lambda K: laws.extreme(K, 1.0) >= target)


@dataclass(frozen=True)
class BoundsKFor(ReadOnlyResult):
    """When a target pass_D@K becomes possible, and when it is certain, over every law the data allow.

    ``earliest``: the smallest K at which some law consistent with the data reaches the target (no law reaches
    it at a smaller K: a distribution-free floor on the samples needed). ``certain``: the smallest K at which
    every such law does (inf when none is certain, e.g. beyond n, where the unsolved problems may be impossible).
    Both NaN when the data define no band (one problem). Both found by bisection in log K to a relative precision of 1% (rounded up), up to K = 10^12.

    Attributes
    ----------
    model : str
    target : float
    earliest, certain : float
        As above.
    confidence_level : float
        The level of the band the laws must fit.
    """

    __repr__ = brief_repr

    model: str
    target: float
    earliest: float
    certain: float
    confidence_level: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``earliest`` and ``certain`` are numbers or null. A null ``certain`` beside a number in
        ``earliest`` is "never certain" (inf); both null: the data define no band (NaN)."""
        return json_safe(self._record())

    def to_frame(self) -> Any:
        """One row of the ``to_dict()`` fields (``model``, ``target``, ``earliest``, ``certain``,
        ``confidence_level``) as floats: inf where no law is certain, NaN where no band is defined."""
        pd = pandas_module()

        return pd.DataFrame([self._record()])

    def _record(self) -> dict[str, Any]:
        return {"model": self.model, "target": float(self.target), "earliest": float(self.earliest),
                "certain": float(self.certain), "confidence_level": float(self.confidence_level)}

    def plot(self) -> Any:
        """The span of K from ``earliest`` to ``certain`` at the target (an arrow to the right when never certain).

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        if np.isfinite(self.earliest):
            end = self.certain if np.isfinite(self.certain) else self.earliest * 100.0
            fig.add_trace(go.Scatter(x=[self.earliest, end], y=[self.target, self.target], mode="lines+markers",
                                     name=f"{self.model}: any law the data allow",
                                     line={"dash": "solid" if np.isfinite(self.certain) else "dot"}))
        fig.update_xaxes(type="log", title="K")
        # the y title is k_for's and the title says the band's level (neither plot said it; BoundsResult's does)
        fig.update_yaxes(title="target pass_D@K")
        span = ("the data define no band" if not np.isfinite(self.earliest) else
                f"possible from K = {self.earliest:.4g}, "
                + (f"certain from K = {self.certain:.4g}" if np.isfinite(self.certain) else "never certain"))
        fig.update_layout(title=f"{self.model}: pass_D@K = {self.target:g} {span} (every law consistent with the "
                                f"data, {level_label(self.confidence_level)} band)", template="plotly_white")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _first_k(reaches: Any) -> float:
    """The smallest K in [1, 10^12] with reaches(K) (monotone in K), to 1% in log K, rounded up; inf if none."""
    if reaches(1.0):
        return 1.0
    lo, hi = 1.0, float(_K_TOP)
    if not reaches(hi):
        return np.inf
    while hi / lo > 1.01 and hi - lo > 1.0:
        mid = float(np.ceil(np.sqrt(lo * hi)))
        if mid >= hi:
            break
        lo, hi = (lo, mid) if reaches(mid) else (mid, hi)
    return hi


@dataclass(frozen=True, eq=False)
class BoundsResult(ReadOnlyResult):
    """Distribution-free bounds on pass_D@K per model.

    Attributes
    ----------
    models : tuple of str
    k : ndarray of int
    low, high : ndarray, shape (M, K)
        The smallest and largest pass_D@K of any difficulty law whose curve lies in the data's
        simultaneous band at k ≤ n (NaN where no law fits the band).
    observed : ndarray, shape (M, K)
        The data's own estimate where K is within the samples drawn, NaN beyond.
    constraints : tuple of ndarray
        Per model, the k at which the band constrains the law.
    confidence_level : float
        The level of the simultaneous band, hence of [low, high] as a confidence range.
    warnings : tuple of str
        What the bounds' caller was warned of, each as ``"Category: message"`` (as every result keeps them).
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    k: np.ndarray
    low: np.ndarray
    high: np.ndarray
    observed: np.ndarray
    confidence_level: float
    warnings: tuple[str, ...] = field(default_factory=tuple)
    _bands: tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...] = field(default=(), repr=False)

    @property
    def constraints(self) -> tuple[np.ndarray, ...]:
        """Per model, the k at which the band constrains the law."""
        return tuple(ks for ks, _, _ in self._bands)

    def k_for(self, target: float, model: str | None = None) -> BoundsKFor:
        """The K from which some law consistent with the data reaches ``target``, and from which every one does.

        Parameters
        ----------
        target : float in (0, 1)
            The pass_D@K to reach.
        model : str, optional
            May be omitted only when the result holds one model.

        Returns
        -------
        BoundsKFor
            ``earliest`` and ``certain`` (inf where no law is certain to reach it; NaN where no band is defined).
        """
        t, i = _target_model_iv(target, model, self.models)
        earliest, certain = k_span(self._bands[i], t)
        return BoundsKFor(self.models[i], t, earliest, certain, self.confidence_level)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``bounds`` (one record per (model, k): ``low``, ``high``, ``observed``),
        ``confidence_level``, ``constraints`` (per model, the k at which the band constrains the law) and
        ``warnings`` when any."""
        rows = [{"model": m, "k": int(kk), "low": _f(self.low[i, j]), "high": _f(self.high[i, j]),
                 "observed": _f(self.observed[i, j])}
                for i, m in enumerate(self.models) for j, kk in enumerate(self.k)]
        out: dict[str, Any] = {"bounds": rows, "confidence_level": self.confidence_level,
                               "constraints": {m: [int(x) for x in c] for m, c in zip(self.models, self.constraints,
                                                                                       strict=True)}}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per (model, k): columns ``model``, ``k``, ``low``, ``high``,
        ``observed``, and ``confidence_level`` (the band's level: 0.95 by default here, 0.8 in
        :func:`passcurve.forecast`, so a frame carries its own)."""
        frame = records_frame(self.to_dict()["bounds"])
        frame["confidence_level"] = float(self.confidence_level)
        return frame

    def plot(self) -> Any:
        """The range of pass_D@K against K (log axis), one band per model.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for i, m in enumerate(self.models):
            fig.add_trace(go.Scatter(x=np.concatenate([self.k, self.k[::-1]]),
                                     y=np.concatenate([self.high[i], self.low[i][::-1]]), fill="toself",
                                     opacity=0.3, name=m, mode="lines", line={"width": 1}))
        fig.update_xaxes(type="log", title="K")
        fig.update_layout(yaxis_title="pass_D@K, every law consistent with the data", template="plotly_white",
                          title=f"distribution-free range ({level_label(self.confidence_level)} band at k ≤ n)")
        return fig


def _bounds_iv(counts: Any, k: Any, confidence_level: Any, n_resamples: Any) -> tuple[np.ndarray, float, int]:
    check_counts_object(counts)
    ks = budget_grid(k, "k", maximum=10**12)
    return ks, check_confidence_level(confidence_level), check_positive_int(n_resamples, "n_resamples", minimum=100, maximum=MAX_RESAMPLES)


def extrapolation_bounds(
    counts: Counts,
    k: Any,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
    weighted: bool = True,
    design: Any = None,
) -> BoundsResult:
    r"""Distribution-free bounds on pass_D@K, within and far beyond the samples drawn.

    [low, high] is the range of pass_D@K = E_G[1 − (1−p)^K] over every difficulty law G whose curve
    E_G[1 − (1−p)^k] lies inside the data's simultaneous ``confidence_level`` band at k ≤ n (a
    max-statistic bootstrap over problems, :func:`passcurve.curve_intervals` with ``method="band"``,
    at 1..10 and 15 log-spaced k up to each model's smallest n). Whenever the band holds the true
    curve the true law is among them, so [low, high] covers pass_D@K with at least the band's
    confidence, whatever the law. Both ends are non-decreasing in K.

    Parameters
    ----------
    counts : Counts
    k : int or sequence of int
        Budgets K (any size; within n the range is the band's, beyond it the laws' spread). Sorted
        ascending, repeats removed: the result's ``k`` is the order of its values, not the order given.
    confidence_level : float, default 0.95
    n_resamples : int, default 2000
        Bootstrap replicates of the band (>= 100).
    rng : None, int or numpy Generator
        For the band's bootstrap; each model restarts the stream (its result does not depend on the
        other models in ``counts``).
    weighted : bool, default True
        Use ``counts.weight`` when present.
    design : StopAtSuccess, optional
        Stop-at-success sampling: the band is of the stopping-time estimates, up to the design's largest
        estimable k.

    Returns
    -------
    BoundsResult

    Notes
    -----
    The laws live on p = 0 and 100 points per decade down to min(1e-8, 1e-3 / max K); the grid's
    interpolation error (≤ 7e-5) is absorbed by widening the constraints and the bounds by 1e-4.
    The range is wide beyond n by nature: it is the part of a forecast that the counts do not
    decide (a forecast's narrower interval comes from its assumed law).

    References
    ----------
    A. Orlitsky, A. T. Suresh and Y. Wu, "Optimal prediction of the number of unseen species",
    PNAS 113 (2016). The Hausdorff moment problem.

    Examples
    --------
    >>> import numpy as np, passcurve as pc
    >>> counts = pc.Counts.from_arrays(np.full(200, 20), np.random.default_rng(0).binomial(20, 0.05, 200))
    >>> res = pc.extrapolation_bounds(counts, [20, 200], rng=0)
    >>> bool(res.low[0, 0] <= res.observed[0, 0] <= res.high[0, 0]), bool(res.high[0, 1] > res.high[0, 0])
    (True, True)
    """
    K, level, B = _bounds_iv(counts, k, confidence_level, n_resamples)
    weighted = check_flag(weighted, "weighted")
    design = check_design(design)
    gen = check_rng(rng)
    reset = model_streams(gen)

    def band_of(m: str, sub: Counts) -> SaidBand:
        reset()
        said = said_band(sub, m, level, B, gen, weighted, design)
        for w in said.other:  # warnings not the bounds' own, at their call site
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return said

    return _bounds_from([(m, counts.select(m)) for m in counts.models], K, level, weighted, design, band_of)


@dataclass(frozen=True)
class SaidBand:
    """:func:`law_free_band`'s band for one model and the warnings its computation raised: ``degenerate`` (each
    category and message; the bounds say them as their own), ``other`` (the rest, as caught)."""

    band: tuple[np.ndarray, np.ndarray, np.ndarray]
    degenerate: tuple[tuple[type[Warning], str], ...]
    other: tuple[Any, ...]


def said_band(sub: Counts, name: str, level: float, B: int, gen: np.random.Generator, weighted: bool,
              design: Any) -> SaidBand:
    """:func:`law_free_band` with its warnings caught (:class:`SaidBand`): the bounds' and the forecast's band."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateDataWarning)
        band = law_free_band(sub, name, level, B, gen, weighted, design)
    deg = tuple((w.category, str(w.message)) for w in caught if issubclass(w.category, DegenerateDataWarning))
    return SaidBand(band, deg, tuple(w for w in caught if not issubclass(w.category, DegenerateDataWarning)))


def _bounds_from(subs: list[tuple[str, Counts]], K: np.ndarray, level: float, weighted: bool, design: Any,
                 band_of: Any) -> BoundsResult:
    """The bounds of each (model, its counts) in ``subs`` at ``K``, on the band ``band_of(model, counts)`` gives
    (a :class:`SaidBand`)."""
    models = tuple(m for m, _ in subs)
    low = np.full((len(models), K.size), np.nan)
    high = np.full_like(low, np.nan)
    observed = np.full_like(low, np.nan)
    bands: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    seen: list[str] = []
    for i, (m, sub) in enumerate(subs):
        said = band_of(m, sub)
        for category, message in said.degenerate:  # the band's own warnings, said as the bounds'
            record_warning(seen, f"model {m!r}: the band the bounds rest on: {message.removeprefix(f'model {m!r}, ')}",
                           category, stacklevel=3)
        ks, lo_b, hi_b = said.band
        low[i], high[i] = law_range(ks, lo_b, hi_b, K)
        observed[i] = _observed(sub.n, sub.c, K, sub.weight if weighted else None, design)
        bands.append((ks, lo_b, hi_b))
        if not np.isfinite(low[i]).all():
            record_warning(seen, f"model {m!r}: no bounds (NaN): the band is undefined or no difficulty law's curve "
                           "fits inside it", DegenerateDataWarning, stacklevel=3)
    return BoundsResult(models, K, low, high, observed, level, tuple(seen), tuple(bands))


def forecast_bounds(res: Any, k: Any = None, models: Any = None) -> BoundsResult:
    """:func:`extrapolation_bounds` of a forecast's models (``models``: those of them, default all) at its level, on
    the very band its intervals and its k_for were tempered with (the forecast's ``_LawBand``), at ``k`` (default:
    the forecast's K).

    Shown beside the forecast, its range and its k_for are those the forecast stays inside: bounds drawn anew (their
    own band, another random stream) had put "no law reaches pass@K = 0.9 before K ≈ 4,070" under a forecast
    interval starting at 4,154 (GPT-4o, BoN, stop-at-success)."""
    K = res.k if k is None else budget_grid(k, "k", maximum=10**12)
    # the models named, in that order, each one of the forecast's (a name it does not hold had been dropped without a
    # word, and bounds(models="M1") read the string's letters), by the check of every model selection (models_rows:
    # models=[] had returned bounds of no model, models=5 raised "'int' object is not iterable")
    rows = range(len(res.models)) if models is None else models_rows(np.asarray(res.models, dtype=object), models)
    lawbands = [res._state[int(i)][7] for i in rows]
    by_model = {lb.name: lb for lb in lawbands}

    def band_of(m: str, sub: Counts) -> SaidBand:
        said = by_model[m].said
        if said is None:
            raise PasscurveError(by_model[m].refused)
        return said

    first = lawbands[0] if lawbands else None
    design = None if first is None else first.design
    return _bounds_from([(lb.name, lb.sub) for lb in lawbands], np.asarray(K), float(res.confidence_level), True,
                        design, band_of)
