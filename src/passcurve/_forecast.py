r"""Forecasting pass_D@K far beyond n, with prediction intervals, and the K needed for a target.

Methods (``method=``):

``"least_squares"``
    The power-law baseline of Schaeffer et al. 2025 (arXiv 2502.17578):
    :math:`\text{pass}_D@K = \exp(-a K^{-b})` with (a, b) from OLS of
    :math:`\log(-\log \text{pass}_D@k)` on :math:`\log k` (default grid, see
    :func:`passcurve.fit_power_law`).
``"beta"``
    The plain beta-binomial baseline (Kazdan et al. 2025, arXiv 2510.05197): the population
    forecast :math:`1 - B(α, β+K)/B(α, β)`.
``"beta_eb"``, ``"zi_beta"``, ``"scaled_beta"``, ``"beta_mixture"``
    Empirical Bayes forecasts of *this benchmark's* problems under the fitted difficulty
    model: :math:`\frac{1}{N}\sum_i 1 - E[(1-p_i)^K \mid n_i, c_i]`, with
    :math:`E[(1-p)^K \mid n, c] = M(c, n-c+K)/M(c, n-c)` (see :mod:`passcurve._difficulty`).
    A problem already solved cannot be impossible, and a problem's own data inform its
    forecast; averaged over the data this equals the population forecast.
``"auto"`` (passcurve's choice)
    A forecast combination of least squares, beta (EB) and zero-inflated beta (EB),
    weighted by each candidate's error in a *self-backtest*: the counts are thinned
    hypergeometrically to a tenth of their samples (exact: a random subset of each
    problem's samples), every candidate forecasts the unbiased pass@n of the full counts
    from the thinned ones, and weights are proportional to 1 / mean squared error over
    ``cv_resamples`` thinnings (inverse-MSE combination, Bates & Granger 1969). This is
    cross-validation across k: each method is judged on the extrapolation it is asked to
    make, on the user's own data, with no tuning to any dataset. The comparison is
    *paired*: only thinnings on which every candidate produces a forecast are scored (a
    thinning that leaves least squares undefined says nothing about how the methods compare,
    and scoring the others on it alone would bias the weights against it); with fewer than
    two such thinnings the self-backtest is uninformative and the candidates are averaged
    with equal weights (the simple average, the standard prior of forecast combination).
    Below 20 samples per problem a tenth is too few to forecast from, so the weights come from a
    self-backtest on halves instead (n // 2 samples forecasting pass@n, ``_SMALL_N_FACTOR``; thirtieth
    session, adopted by a rule written before the run: Pythia/MATH thinned to 5 and 10 samples, 140 paired
    runs per cell, mean absolute error lower in all four cells, docs/forecasting.md "Small n"); it sets
    the weights only: the candidates are still unchecked over the extrapolation the forecast makes, so
    the interval is still widened to the any-law range. Equal weights below 4 samples (halves of 1).
    ``combination="debiased"`` (experimental, not the default) instead removes each
    candidate's James-Stein-shrunk self-backtest bias on the log(1 - pass) scale and averages
    the corrected candidates with equal weights; it helped on simulated benchmarks and not on
    Pythia/MATH (docs/forecasting.md).

Prediction intervals combine (i) parameter uncertainty, by a bootstrap over problems with
refits (the EB forecast of the original problems is re-evaluated under each refit);
(ii) the posterior spread of the realised :math:`1-(1-p_i)^K` given each problem's counts,
:math:`\sum_i \mathrm{Var}[q_i \mid c_i]/N^2`; (iii) for ``"auto"``, the between-method
spread :math:`\sum_j w_j (f_j - \bar f)^2` (Buckland et al. 1997's model-averaging variance);
and (iv) for ``"auto"`` (inverse-MSE), the squared bias of the combination in its own self-backtest,
estimated without bias, :math:`(\bar e^2 - s^2/R)_+`: a systematic error that every candidate
shares (a misspecified law) widens the interval instead of leaving it to cover nothing.
The interval is normal with that total variance, clipped to [0, 1]; at K at or beyond the largest k the data
estimate without a model (min n, or the design's), its lower end is raised to the data's own lower confidence limit
of pass_D@k there when it falls below it (pass_D@K cannot fall as K grows), but never above the point forecast.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, stats

from ._adaptive import StopAtSuccess, check_design
from ._choices import FORECAST_METHODS
from ._counts import Counts, check_counts_object
from ._curves import mean_curve
from ._difficulty import (
    BetaBinomial,
    BetaMixtureBinomial,
    DifficultyModel,
    ScaledBetaBinomial,
    ZeroInflatedBetaBinomial,
    _log_binom,
    _pairs,
)
from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._estimators import _log_fail as _log_fail_product
from ._results import (
    ReadOnlyResult,
    brief_repr,
    frame_html,
    json_safe,
    level_label,
    pandas_module,
    records_frame,
)
from ._scaling import _curve_fail, default_k_grid
from ._uncertainty import curve_intervals
from ._validation import (
    MAX_RESAMPLES,
    as_float_array,
    as_int_array,
    budget_grid,
    check_choice,
    check_confidence_level,
    check_counts,
    check_flag,
    check_positive_int,
    check_rng,
    check_unused,
    fmt,
    fmt_below_one,
    model_streams,
    pick_model,
    shares_text,
)

__all__ = ["forecast", "ForecastResult", "k_for", "KForResult", "FORECAST_METHODS", "thin_counts"]

AUTO_CANDIDATES = ("least_squares", "beta_eb", "zi_beta")
_SMALL_N_FACTOR = 2
"""Below 20 samples per problem (no self-backtest by a tenth), auto's weights come from a self-backtest thinned by
this factor (n // 2 forecasting pass@n); 0: equal weights, the rule before the thirtieth session (benchmarks)."""
_SMALL_N_INTERVAL = False
"""Experimental (thirty-first session; benchmarks/backtest_small_n_interval.py): below n = 20, where the halves'
self-backtest weights the candidates, take the interval's law error (component (iv)) from it too, carried to K in
steps of that factor, instead of widening the interval to the any-law range. False: the rule (widened). Not adopted:
its pre-registered rule failed on one condition (a simulated logit-normal benchmark covered 0.40; docs/forecasting.md
"Small n")."""
COMBINATIONS = ("inverse_mse", "debiased")
_MODEL_OF = {
    "beta": BetaBinomial,
    "beta_eb": BetaBinomial,
    "zi_beta": ZeroInflatedBetaBinomial,
    "scaled_beta": ScaledBetaBinomial,
    "beta_mixture": BetaMixtureBinomial,
}


_HYPERGEOM_MAX = 10**9  # numpy's Generator.hypergeometric needs ngood, nbad < 10^9


def thin_counts(n: Any, c: Any, m: Any, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """Keep a uniformly random subset of m of each problem's n samples: c' ~ Hypergeom(n, c, m).

    Exact for counts (the kept samples are a random subset); ``m`` is clipped to n. Needs
    c < 10^9 and n - c < 10^9 (the limit of numpy's exact hypergeometric sampler).

    Parameters
    ----------
    n, c : array_like of int, shape (P,)
        Samples drawn and samples correct per problem.
    m : int or array_like of int, shape (P,)
        Samples to keep (>= 1), one number or one per problem.
    rng : None, int, SeedSequence or numpy Generator
        Source of randomness; the same seed gives the same thinning.

    Returns
    -------
    (n', c') : tuple of ndarray of int64
        n' = min(m, n) and c' ~ Hypergeom(n, c, n').
    """
    gen = check_rng(rng)
    n, c = check_counts(as_int_array(n, "n", minimum=1, max_ndim=1).ravel(), as_int_array(c, "c", max_ndim=1).ravel())
    big = (c >= _HYPERGEOM_MAX) | (n - c >= _HYPERGEOM_MAX)
    if big.any():
        i = int(np.flatnonzero(big)[0])
        raise PasscurveError(
            f"cannot thin n={int(n[i])} samples (c={int(c[i])}): the exact hypergeometric sampler takes fewer "
            f"than 10^9 correct and 10^9 incorrect samples per problem"
        )
    m_arr = as_int_array(m, "m", minimum=1, max_ndim=1).ravel()  # m = 0 kept no sample: rows with n = 0
    if m_arr.size not in (1, n.size):
        raise PasscurveError(f"`m` must be one number or one per problem ({n.size})")
    mm = np.minimum(np.broadcast_to(m_arr, n.shape), n)
    return mm.copy(), gen.hypergeometric(c, n - c, mm)


# ----------------------------------------------------------------------------------------
# one candidate's point forecast from (n, c)
# ----------------------------------------------------------------------------------------
def _data_curve(n: np.ndarray, c: np.ndarray, ks: np.ndarray, w: np.ndarray | None = None,
                design: Any = None) -> np.ndarray:
    """The data's own (weighted) estimate of pass_D@k at each k: the mean of unbiased pass@k, or of the
    design's stopping-time estimates (problems that cannot estimate a k are left out there)."""
    return (mean_curve(n, c, ks, weights=w) if design is None else design.mean_curve(n, c, ks, weight=w))[0]


def _pass_mean(n: np.ndarray, c: np.ndarray, K: int, design: Any = None, w: np.ndarray | None = None) -> float:
    """The data's own (weighted) estimate of pass_D@K: unbiased pass@K, or the design's stopping-time
    estimate."""
    return float(_data_curve(n, c, np.array([K]), w, design=design)[0])


def _observed_limit(n: np.ndarray, c: np.ndarray, design: Any = None) -> int:
    """The largest K at which the data estimate pass_D@K for every problem without a model: min n (n
    fixed in advance), or the design's largest estimable k."""
    return int(n.min()) if design is None else design.k_max(n, c)


def _observed(n: np.ndarray, c: np.ndarray, K: np.ndarray, w: np.ndarray | None = None,
              design: Any = None) -> np.ndarray:
    """The data's own (weighted) estimate of pass_D@K at each K up to :func:`_observed_limit`, NaN beyond:
    unbiased pass@K, or the design's stopping-time estimate."""
    K = np.asarray(K, dtype=np.int64)
    out = np.full(K.shape, np.nan)
    inside = K <= _observed_limit(n, c, design)
    if inside.any():
        out[inside] = _data_curve(n, c, K[inside], w, design)
    return out


def _observed_floor(sub: Counts, design: Any, confidence_level: float) -> tuple[int, float]:
    """(k_obs, L): the largest k the data estimate without a model and the lower end of the data's own interval
    for pass_D@k_obs there (analytic, counting problems, at the forecast's level). pass_D@K cannot fall as K grows,
    so no forecast interval at K >= k_obs needs a lower end below L."""
    k_obs = _observed_limit(sub.n.astype(np.int64), sub.c.astype(np.int64), design)
    with warnings.catch_warnings():  # its own small-sample notes are about the curve, not the forecast
        warnings.simplefilter("ignore")
        ci = curve_intervals(sub, [k_obs], method="analytic", confidence_level=confidence_level, design=design)
    return k_obs, float(ci.intervals["pass_at_k"][0][0, 0])


def _reduce(n: np.ndarray, c: np.ndarray, m: Any, gen: np.random.Generator,
            design: Any = None) -> tuple[np.ndarray, np.ndarray, Any]:
    """Less data of the same kind, for backtests: m samples per problem by thinning (n fixed), or a
    cap of m by truncation (a stop-at-success design, returned with its smaller cap)."""
    if design is None:
        return (*thin_counts(n, c, m, gen), None)
    return (*design.truncate(n, c, int(m), gen), StopAtSuccess(design.batch, int(m)))


def _ls_fit(n: np.ndarray, c: np.ndarray, ks: np.ndarray | None = None, design: Any = None,
            w: np.ndarray | None = None) -> tuple[float, float]:
    """The paper's least squares of log(-log pass_D@k) on log k (default grid: ``default_k_grid(min n)``;
    under a stop-at-success ``design`` the stopping-time curve up to the design's largest estimable k), with
    the problems weighted by ``w``."""
    if design is None:
        ks = default_k_grid(int(n.min())) if ks is None else ks
        return _ls_from_fail(ks, _curve_fail(n, c, ks, "unbiased", w))
    ks = default_k_grid(design.k_max(n, c)) if ks is None else ks
    return _ls_from_fail(ks, 1.0 - design.mean_curve(n, c, ks, weight=w)[0])


def _ls_from_fail(ks: np.ndarray, fail: np.ndarray) -> tuple[float, float]:
    """(a, b) of the least-squares line of log(-log pass_D@k) on log k through the finite points, from the mean
    failure probability 1 - pass_D@k (``fit_power_law``'s y: a curve that has reached 1 stays out)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(-np.log1p(-fail))
    ok = np.isfinite(y)
    if ok.sum() < 2:
        return np.nan, np.nan
    slope, icpt = np.polyfit(np.log(ks[ok].astype(np.float64)), y[ok], 1)
    return float(np.exp(icpt)), float(-slope)


def _ls_predict(a: float, b: float, K: np.ndarray) -> np.ndarray:
    if not np.isfinite(a):
        return np.full(K.shape, np.nan)
    return np.exp(-a * K ** (-b))


class _Candidate:
    """A fitted forecasting method on one model's counts (point forecast + bootstrap)."""

    def __init__(self, method: str, n: np.ndarray, c: np.ndarray, w: np.ndarray | None, eb: bool = True,
                 design: Any = None) -> None:
        self.method = method
        self._eb = eb
        self.n, self.c, self.w = n, c, w
        self.design = design  # the difficulty fits' likelihood is the same under a stopping design
        self.fit_: DifficultyModel | None = None
        if method == "least_squares":
            self.ls_ = _ls_fit(n, c, design=design, w=w)
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self.fit_ = _MODEL_OF[method]().fit(n=n, c=c, weight=w)
        # distinct pairs of the benchmark's problems for EB evaluation
        self.pn, self.pc, self.pw = _pairs(n, c, w)

    def _model(self) -> DifficultyModel:
        """The fitted difficulty model (every method except least squares has one)."""
        if self.fit_ is None:
            raise RuntimeError(f"forecast method {self.method!r} has no fitted difficulty model")
        return self.fit_

    @property
    def eb(self) -> bool:
        return self._eb and self.method not in ("least_squares", "beta")

    def predict(self, K: np.ndarray, theta: np.ndarray | None = None, ls: tuple[float, float] | None = None) -> np.ndarray:
        if self.method == "least_squares":
            a, b = ls if ls is not None else self.ls_
            return _ls_predict(a, b, K)
        f = self._model()
        saved = f._theta
        if theta is not None:
            f._theta = theta
        try:
            if not self.eb:
                return f.pass_at_k(K)
            q = f.posterior_pass_at_k(self.pn[:, None], self.pc[:, None], K[None, :])
            return (self.pw @ q) / self.pw.sum()
        finally:
            f._theta = saved

    def posterior_var(self, K: np.ndarray) -> np.ndarray:
        """sum_i Var[q_i | c_i] / N^2 (0 for non-EB methods)."""
        if not self.eb:
            return np.zeros(K.shape)
        v = self._model()._posterior_fail_var(self.pn[:, None], self.pc[:, None], K[None, :])
        return (self.pw @ v) / self.pw.sum() ** 2

    def refit(self, n: np.ndarray, c: np.ndarray, w: np.ndarray | None = None) -> Any:
        """Quick refit on resampled data, warm-started at the full-data estimate."""
        if self.method == "least_squares":
            return _ls_fit(n, c, design=self.design, w=w)
        f = self._model()
        pn, pc, pw = _pairs(n, c, w)
        lb = _log_binom(pn, pc)
        fun, jac = f._objective()
        res = optimize.minimize(fun, f._check_fitted(), args=(pn, pc, pw, lb), method="BFGS", jac=jac,
                                options={"maxiter": 200, "gtol": 1e-4})
        return np.asarray(res.x)

    def bootstrap(self, K: np.ndarray, B: int, gen: np.random.Generator) -> np.ndarray:
        """B draws of the forecast under parameter uncertainty: :meth:`draws`, then :meth:`predict_draws` at K."""
        return self.predict_draws(K, self.draws(B, gen))

    def draws(self, B: int, gen: np.random.Generator) -> tuple[str, list[Any]]:
        """B draws of the parameters, which do not depend on K (k_for re-uses them at every K it solves at).

        Difficulty models: θ ~ N(θ̂, I(θ̂)^-1) in the unconstrained parametrisation (the
        observed information), corrected by sampling-importance-resampling toward the
        likelihood (an approximate posterior under a flat prior in those coordinates); no refits.
        Least squares (and fits without a usable Hessian): bootstrap over problems.
        Returns ("theta", thetas) or ("ls", [(a, b), ...]).
        """
        N = self.n.size
        f = self.fit_
        cov = None if f is None else getattr(f, "cov_theta_", None)
        if f is not None and cov is not None:
            theta_hat = f._check_fitted()
            pn, pc, pw = f.pairs_
            lb = _log_binom(pn, pc)
            cov = (cov + cov.T) / 2
            ev, vec = np.linalg.eigh(cov)
            ev = np.clip(ev, 1e-12, None)
            root = vec * np.sqrt(ev)
            # sampling-importance-resampling: propose from the Laplace approximation
            # N(θ̂, I(θ̂)^-1), weight by likelihood / proposal density, resample. Where the
            # normal approximation is good the weights are flat; where a parameter sits on a
            # boundary (flat likelihood, huge variance) implausible draws are weeded out.
            P = 4 * B
            zs = gen.standard_normal((P, cov.shape[0]))
            props = theta_hat + zs @ root.T
            logq = -0.5 * np.sum(zs**2, axis=1)
            nll0 = f._negloglik(theta_hat, pn, pc, pw, lb)
            logl = np.array([-(f._negloglik(t, pn, pc, pw, lb) - nll0) for t in props])
            logw = logl - logq
            logw = np.where(np.isfinite(logw), logw, -np.inf)
            wts = np.exp(logw - np.max(logw))
            return "theta", list(props[gen.choice(P, size=B, replace=True, p=wts / wts.sum())])
        idxs = [gen.integers(0, N, N) for _ in range(B)]
        if self.method == "least_squares":
            # a resample of problems is a reweighting of the distinct (n, c) pairs: their failure probabilities
            # on the grid are computed once per grid (the grid depends on the resample's smallest n)
            pn, pc, _, inv = _pairs(self.n, self.c, return_inverse=True)
            grids: dict[int, tuple[np.ndarray, np.ndarray]] = {}
            fits = []
            for idx in idxs:
                m = int(self.n[idx].min())
                if m not in grids:
                    ks = default_k_grid(m)
                    grids[m] = (ks, np.exp(_log_fail_product(pn.astype(np.int64)[:, None], pc.astype(np.int64)[:, None],
                                                              ks[None, :])))
                ks, S = grids[m]
                cnt = np.bincount(inv[idx], weights=None if self.w is None else self.w[idx], minlength=pn.size)
                used = cnt > 0
                fits.append(_ls_from_fail(ks, cnt[used] @ S[used] / cnt.sum()))
            return "ls", fits
        return "theta", [self.refit(self.n[idx], self.c[idx], None if self.w is None else self.w[idx])
                         for idx in idxs]

    def predict_draws(self, K: np.ndarray, draws: tuple[str, list[Any]]) -> np.ndarray:
        """The forecast at K under each of :meth:`draws`' draws, shape (B, K.size)."""
        kind, params = draws
        if kind == "ls":
            out = np.empty((len(params), K.size))
            for b, ls in enumerate(params):
                out[b] = self.predict(K, ls=ls)
            return out
        return np.vstack([self.predict(K, theta=t) for t in params])

    def sup(self) -> float:
        """lim_{K->inf} of the forecast: 1 less the mass the law puts on impossible problems (p = 0). For the
        population, 1 - pi0; for the empirical-Bayes mean over this benchmark's problems, 1 less the mean posterior
        probability of p = 0, which is pi0 / E[(1-p)^n_i] for an unsolved problem (mass at 0 keeps (1-p)^K = 1 for
        every K) and 0 for a solved one. It was the forecast at K = 1e15, which a heavy tail is still far from (a Beta
        with alpha = 0.08 reads 0.94 there against its limit 1), so k_for called targets "unreachable (impossible
        problems)" that the law reaches beyond 1e15."""
        if self.method == "least_squares":
            return 1.0
        f = self._model()
        pi0 = f.impossible_mass_
        if pi0 <= 0.0:
            return 1.0
        if not self.eb:
            return 1.0 - pi0
        unsolved = self.pc == 0
        if not unsolved.any():  # a solved problem is not impossible
            return 1.0
        fail = 1.0 - f.pass_at_k(self.pn[unsolved].astype(np.float64))  # E[(1-p)^n] under the fitted law
        return float(1.0 - (self.pw[unsolved] @ np.minimum(pi0 / fail, 1.0)) / self.pw.sum())


# ----------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class ForecastResult(ReadOnlyResult):
    """Forecasts of pass_D@K per model, with prediction intervals.

    Attributes
    ----------
    models : tuple of str
    k : ndarray of int
    method : str
    pass_at_k, low, high : ndarray, shape (M, K)
    weights : tuple of dict
        Per model, the weight of each candidate method (``"auto"``; else {method: 1}).
    candidates : tuple of dict
        Per model, each candidate's point forecast at every k.
    cv_error : tuple of dict
        Per model, each candidate's root-mean-square error in the self-backtest.
    fits : tuple of dict
        Per model, the fitted difficulty models (``to_dict()``) and least-squares (a, b).
    confidence_level : float
    warnings : tuple of str
    observed : ndarray, shape (M, K)
        The data's own estimate of pass_D@K where no model is needed (K <= min n; under a
        stop-at-success design, K up to its largest estimable k), NaN beyond. The forecast there
        is still the model's: the difference is its in-sample misfit.
    scope : str
        "benchmark" (these problems) or "population" (the fitted law's mean pass@K over the problems it describes),
        as :func:`passcurve.forecast`'s.
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    k: np.ndarray
    method: str
    pass_at_k: np.ndarray
    low: np.ndarray
    high: np.ndarray
    weights: tuple[dict[str, float], ...]
    candidates: tuple[dict[str, np.ndarray], ...]
    cv_error: tuple[dict[str, float], ...]
    fits: tuple[dict[str, Any], ...]
    confidence_level: float = 0.8
    scope: str = "benchmark"
    warnings: tuple[str, ...] = field(default_factory=tuple)
    observed: np.ndarray | None = None
    _state: Any = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``forecasts`` (one record per (model, k): ``pass_at_k``, ``low``, ``high``, ``method``,
        ``observed``), ``fits`` (per model: ``weights``, ``cv_rmse``, ``candidates``, ``fits``),
        ``confidence_level`` and ``scope``."""
        rows = []
        obs = np.full(self.pass_at_k.shape, np.nan) if self.observed is None else self.observed
        for i, m in enumerate(self.models):
            for j, k in enumerate(self.k):
                rows.append({
                    "model": m, "k": int(k), "pass_at_k": _f(self.pass_at_k[i, j]),
                    "low": _f(self.low[i, j]), "high": _f(self.high[i, j]), "method": self.method,
                    "observed": _f(obs[i, j]),
                })
        fits = []
        for i, m in enumerate(self.models):
            fits.append({
                "model": m,
                "weights": {k: float(v) for k, v in self.weights[i].items()},
                "cv_rmse": {k: _f(v) for k, v in self.cv_error[i].items()},
                "candidates": {k: [_f(x) for x in v] for k, v in self.candidates[i].items()},
                **self.fits[i],
            })
        out: dict[str, Any] = {
            "forecasts": rows,
            "fits": fits,
            "confidence_level": self.confidence_level,
            "scope": self.scope,
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame of ``forecasts``: columns ``model``, ``k``, ``pass_at_k``, ``low``, ``high``,
        ``method``, ``observed``, and ``confidence_level`` (the interval's level: 0.8 by default here, 0.95 in
        :func:`passcurve.extrapolation_bounds`, so a frame carries its own)."""
        frame = records_frame(self.to_dict()["forecasts"])
        frame["confidence_level"] = float(self.confidence_level)
        return frame

    def plot(self) -> Any:
        """Forecast with its interval band against K (log axis), one line per model.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for i, m in enumerate(self.models):
            fig.add_trace(go.Scatter(x=np.concatenate([self.k, self.k[::-1]]),
                                     y=np.concatenate([self.high[i], self.low[i][::-1]]), fill="toself",
                                     line={"width": 0}, opacity=0.2, showlegend=False, hoverinfo="skip"))
            fig.add_trace(go.Scatter(x=self.k, y=self.pass_at_k[i], mode="lines+markers", name=m))
        fig.update_xaxes(type="log", title="K")
        fig.update_layout(yaxis_title="forecast pass_D@K", template="plotly_white",
                          title=f"forecast ({self.method}, {level_label(self.confidence_level)} intervals)")
        return fig

    def k_for(self, target: float, model: str | None = None) -> KForResult:
        """The K at which the forecast reaches ``target`` (see :func:`k_for`).

        Parameters
        ----------
        target : float in (0, 1)
            The pass_D@K to reach.
        model : str, optional
            May be omitted only when the result holds one model.

        Returns
        -------
        KForResult
            ``k`` with its interval ``low``/``high`` (inf where the target is not reached), ``reachable``,
            ``ceiling``.
        """
        return _k_for_state(self, target, model)

    def bounds(self, k: Any = None, models: Any = None) -> Any:
        """The range of pass@K over every difficulty law the data allow (:func:`passcurve.extrapolation_bounds`), on
        the band this forecast's intervals and :meth:`k_for` were held to, at its confidence level: shown beside the
        forecast, the two say one thing (bounds drawn anew rest on a band of their own, from another random stream).

        Parameters
        ----------
        k : int or array-like of int, optional
            The K (default: the forecast's).
        models : str or list of str, optional
            Those of the forecast's models, in that order (default: all); a name it does not hold is an error.

        Returns
        -------
        BoundsResult
        """
        from ._bounds import forecast_bounds

        return forecast_bounds(self, k, models)


@dataclass(frozen=True)
class KForResult(ReadOnlyResult):
    """K needed for a target pass_D@K (``k`` is inf and ``reachable`` False when the forecast does not reach it by
    K = 10^15, the largest K solved for; null in ``to_dict()``). ``ceiling`` is the forecast's limit as K grows: a
    target at or above it is never reached (impossible problems), one below it only beyond 10^15 (``note`` says so).

    ``observed_k``: the smallest k at which the data's own estimate of pass_D@k reaches the
    target, when it does so within the data (k <= min n, or a stop design's largest estimable
    k); None otherwise. ``k`` is always the forecast's.

    ``caveat``: when the target is reached, the candidates of the average (auto) whose own curve
    plateaus below it (a zero-inflated fit's impossible problems), with their weights and plateaus:
    under them the target is never reached. None otherwise.

    Attributes
    ----------
    model : str
    target : float
    k, low, high : float
        The K solving forecast(K) = target, and the K solving it on the prediction interval's upper and lower
        ends (inf where that end does not reach it).
    reachable : bool
    ceiling : float
    method : str
        The forecast method solved.
    confidence_level : float
    observed_k : int or None
    note, caveat : str or None
        As above.
    """

    __repr__ = brief_repr

    model: str
    target: float
    k: float
    low: float
    high: float
    reachable: bool
    ceiling: float
    method: str
    confidence_level: float
    observed_k: int | None = None
    note: str | None = None  # why the answer is not an estimate (e.g. no problem solved)
    caveat: str | None = None  # a candidate of the average under which the target is never reached

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``k``, ``low`` and ``high`` are numbers, or null where infinite (the target is not reached:
        ``k`` is null exactly when ``reachable`` is false; a null ``high`` is an interval open to the right)."""
        return json_safe(self._record())

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """One row of the ``to_dict()`` fields (``model``, ``target``, ``k``, ``low``, ``high``,
        ``reachable``, ``ceiling``, ``method``, ``confidence_level``, ``observed_k``, ``note``, ``caveat``), with inf (not
        null) where the target is not reached: float columns."""
        pd = pandas_module()

        return pd.DataFrame([self._record()])

    def _record(self) -> dict[str, Any]:
        return {
            "model": self.model, "target": float(self.target), "k": float(self.k), "low": float(self.low),
            "high": float(self.high), "reachable": bool(self.reachable), "ceiling": float(self.ceiling),
            "method": self.method, "confidence_level": float(self.confidence_level), "observed_k": self.observed_k,
            "note": self.note, "caveat": self.caveat,
        }

    def plot(self) -> Any:
        """The K found, with its interval, at the target (log K axis).

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure(go.Scatter(x=[self.k], y=[self.target], mode="markers",
                                   error_x={"type": "data", "symmetric": False,
                                            "array": [self.high - self.k], "arrayminus": [self.k - self.low]}))
        # the axes and the interval's level were unlabelled, and an unreached target (k = inf) drew an empty plot
        lvl = level_label(self.confidence_level)
        found = (f"K for pass_D@K = {self.target:g} is {self.k:.4g} ({lvl} interval {self.low:.4g} to "
                 f"{self.high:.4g}; {self.method})" if self.reachable else
                 f"pass_D@K = {self.target:g} is not reached (the forecast's ceiling is {fmt_below_one(self.ceiling)}; "
                 f"{self.method})")
        fig.update_xaxes(type="log", title="K")
        fig.update_layout(yaxis_title="target pass_D@K", template="plotly_white", title=f"{self.model}: {found}")
        return fig


def _f(x: float) -> float | None:
    return None if not np.isfinite(x) else float(x)


# ----------------------------------------------------------------------------------------
# the driver
# ----------------------------------------------------------------------------------------
def _forecast_iv(counts: Any, k: Any, method: str, confidence_level: Any, n_resamples: Any, cv_resamples: Any,
                 scope: str, combination: Any = None) -> tuple[Counts, np.ndarray, float, int, int, str]:
    """The arguments checked, with auto's defaults filled in (cv_resamples 10, combination "inverse_mse"), which
    another method refuses to be given (:func:`check_unused`)."""
    check_counts_object(counts)
    ks = budget_grid(k, "k", maximum=10**15)
    check_choice(method, "method", FORECAST_METHODS)
    check_choice(scope, "scope", ("benchmark", "population"), quoted=True)
    if method == "least_squares" and scope != "benchmark":  # it would have no effect, as a mislabelled result
        raise PasscurveError('`scope` "population" applies to the difficulty-model methods only; least squares '
                             'fits this benchmark\'s own curve (got method "least_squares")')
    if method != "auto":
        check_unused(f'to method "auto" (got method {method!r})', cv_resamples=cv_resamples, combination=combination)
    comb = check_choice("inverse_mse" if combination is None else combination, "combination", COMBINATIONS)
    cl = check_confidence_level(confidence_level)
    B = check_positive_int(n_resamples, "n_resamples", minimum=0, maximum=MAX_RESAMPLES)
    if B == 1:  # one draw has no spread: the interval would silently lose its parameter uncertainty
        raise PasscurveError("`n_resamples` must be 0 (no parameter uncertainty) or at least 2 (got 1)")
    R = check_positive_int(10 if cv_resamples is None else cv_resamples, "cv_resamples", minimum=1,
                           maximum=MAX_RESAMPLES)
    return counts, ks, cl, B, R, comb


@dataclass(frozen=True)
class _SelfBacktest:
    """Paired self-backtest of the candidates: forecasts of pass@anchor from thinned counts.

    ``preds`` holds one row per thinning on which *every* candidate forecast (paired), one
    column per candidate; ``truth`` is the full counts' unbiased pass@anchor.
    """

    cands: tuple[str, ...]
    preds: np.ndarray
    truth: float
    anchor: int
    factor: int

    @property
    def informative(self) -> bool:
        return self.preds.shape[0] >= 2

    def bias_sq(self, weights: dict[str, float]) -> float:
        """The squared bias of the weighted combination in the self-backtest, estimated without bias:
        (ē² − s²/R)₊ with ē the mean error over the R paired thinnings and s² their variance
        (E[ē²] = bias² + Var/R), so an error the thinnings do not pin down adds nothing. 0 when the
        self-backtest is uninformative."""
        if not self.informative:
            return 0.0
        wv = np.array([weights.get(cnd, 0.0) for cnd in self.cands])
        err = self.preds @ wv - self.truth
        return max(float(np.mean(err)) ** 2 - float(np.var(err, ddof=1)) / err.size, 0.0)

    def law_error(self, weights: dict[str, float]) -> _LawError:
        """The combination's law error as the interval sees it: :meth:`bias_sq`, measured over one extrapolation
        of ``factor`` up to ``anchor``, scaled to other K by :class:`_LawError`."""
        return _LawError(self.bias_sq(weights), self.anchor, self.factor)

    def rmse(self) -> dict[str, float]:
        if not self.informative:
            return {cnd: np.nan for cnd in self.cands}
        r = np.sqrt(np.mean((self.preds - self.truth) ** 2, axis=0))
        return {cnd: float(r[j]) for j, cnd in enumerate(self.cands)}

    def adjustments(self) -> dict[str, _Adjust]:
        """Per candidate: the debiasing by its James-Stein-shrunk bias of log(1 - forecast) over one
        extrapolation of ``factor`` (with the variance of that estimate).

        d_r = log(1 - f_r) - log(1 - truth) per thinning; b = mean d_r, se^2 = var d_r / R;
        the shift is (1 - se^2/b^2)_+ b (positive-part James-Stein toward no correction), so a
        bias that the thinnings do not pin down is not corrected.
        """
        if not self.informative:
            return {cnd: _Adjust(0.0, 0.0, self.anchor, self.factor) for cnd in self.cands}
        R = self.preds.shape[0]
        d = _log_fail(self.preds) - _log_fail(np.array(self.truth))
        b = d.mean(axis=0)
        se2 = d.var(axis=0, ddof=1) / R
        with np.errstate(divide="ignore", invalid="ignore"):
            shrink = np.where(b != 0, np.clip(1.0 - se2 / b**2, 0.0, 1.0), 0.0)
        return {
            cnd: _Adjust(float(shrink[j] * b[j]), float(shrink[j] ** 2 * se2[j]), self.anchor, self.factor)
            for j, cnd in enumerate(self.cands)
        }


_FAIL_FLOOR = 1e-12


def _log_fail(p: np.ndarray) -> np.ndarray:
    """log(1 - p), floored so that forecasts of exactly 1 stay finite."""
    return np.log(np.clip(1.0 - np.asarray(p, dtype=np.float64), _FAIL_FLOOR, 1.0))


def _decades(K: np.ndarray, anchor: int, factor: int) -> np.ndarray:
    """How much of one extrapolation of ``factor`` separates K from ``anchor``: log(K/anchor)/log(factor)
    clipped to [0, 1] (no correction inside the data; beyond one factor the correction measured for
    one factor is not extrapolated further)."""
    return np.clip(np.log(np.asarray(K, dtype=np.float64) / anchor) / np.log(factor), 0.0, 1.0)


@dataclass(frozen=True)
class _Adjust:
    """A candidate's debiasing (identity when ``shift`` is 0): q = 1 - (1 - p) * gain(K);
    ``shift_var`` is the estimation variance of ``shift``."""

    shift: float
    shift_var: float
    anchor: int
    factor: int

    def decades(self, K: np.ndarray) -> np.ndarray:
        return _decades(K, self.anchor, self.factor)

    def gain(self, K: np.ndarray) -> np.ndarray:
        return np.exp(-self.shift * self.decades(K))

    def __call__(self, p: np.ndarray, K: np.ndarray) -> np.ndarray:
        if self.shift == 0.0:
            return p
        return np.clip(1.0 - (1.0 - p) * self.gain(K), 0.0, 1.0)


_NO_ADJUST = _Adjust(0.0, 0.0, 1, 10)  # identity (method other than "auto", or no debiasing)


@dataclass(frozen=True)
class _LawError:
    """Component (iv) of the prediction variance: the combination's squared bias ``bias_sq`` measured by the
    self-backtest over one extrapolation of ``factor`` (from anchor/factor samples to pass@anchor), carried to K.

    A law's error compounds with the distance it extrapolates: an error δb in the tail exponent of
    −log pass@k = a·k^(−b), with the curve pinned by the data near k = anchor, moves log(−log pass@K) by
    δb·log(K/anchor), linearly in log K. The self-backtest measured the error over log(factor); at K it is taken
    as that error times the number of such extrapolations, ``steps(K)`` = log(K/anchor)/log(factor), at least 1
    (closer in, the error measured over a whole factor is kept, not scaled down). Variance: bias_sq·steps(K)².
    """

    bias_sq: float
    anchor: float
    factor: float

    def steps(self, K: np.ndarray) -> np.ndarray:
        return np.maximum(1.0, np.log(np.asarray(K, dtype=np.float64) / self.anchor) / np.log(self.factor))

    def var(self, K: np.ndarray) -> np.ndarray:
        if self.bias_sq == 0.0:
            return np.zeros(np.shape(K))
        return self.bias_sq * self.steps(K) ** 2


_NO_LAW_ERROR = _LawError(0.0, 1.0, 10.0)  # method other than "auto", or the "debiased" combination


def _self_backtest(n: np.ndarray, c: np.ndarray, cands: tuple[str, ...], R: int, gen: np.random.Generator,
                   factor: int = 10, design: Any = None, w: np.ndarray | None = None) -> _SelfBacktest:
    """Every candidate forecasts the full data's pass@min(n) from data thinned by ``factor``.

    A paired comparison: only thinnings on which *every* candidate produced a forecast are
    kept (all candidates judged on identical data); fewer than two such thinnings leave the
    self-backtest uninformative. Under a stop-at-success ``design`` the target is pass@K at the
    design's largest estimable K (its cap) and the data are *truncated* to a cap of K/factor
    (:meth:`StopAtSuccess.truncate`, exact for the design), not thinned.
    """
    if design is not None:
        K = design.k_max(n, c)
        m: Any = max(K // factor, 1)  # the smaller cap
        if m < 2:
            return _SelfBacktest(cands, np.empty((0, len(cands))), np.nan, K, factor)
    else:
        K = int(n.min())
        m = np.maximum(n // factor, 1)
        if int(m.min()) < 2 or K < 2 * int(m.min()):
            return _SelfBacktest(cands, np.empty((0, len(cands))), np.nan, K, factor)
    truth = _pass_mean(n, c, K, design, w)
    preds = np.full((R, len(cands)), np.nan)
    for r in range(R):
        nt, ct, small = _reduce(n, c, m, gen, design)
        for j, cnd in enumerate(cands):
            try:
                cand = _Candidate(cnd, nt, ct, w, design=small)
                preds[r, j] = float(cand.predict(np.array([float(K)]))[0])
            except (ValueError, FloatingPointError, np.linalg.LinAlgError):
                pass
    return _SelfBacktest(cands, preds[np.isfinite(preds).all(axis=1)], truth, K, factor)


def _forecast_sd(fitted: dict[str, _Candidate], wts: dict[str, float], adj: dict[str, _Adjust], K: np.ndarray, B: int,
                 gen: np.random.Generator, law: _LawError, preds: dict[str, np.ndarray] | None = None,
                 draws: dict[str, tuple[str, list[Any]]] | None = None) -> np.ndarray:
    """The prediction SD of the combined forecast at each K: (i) parameter draws, (ii) the posterior spread of
    the realised pass rates, the debiasing shift's error, (iii) the between-method spread and (iv) the
    self-backtest's squared bias, carried to K (:class:`_LawError`; module docs).

    ``draws``: each candidate's parameter draws (:meth:`_Candidate.draws`), drawn from ``gen`` into it when it is
    empty (in the candidates' order, as without it), and taken from it otherwise (k_for's SD at other K is from the
    forecast's own draws, which do not depend on K)."""
    if preds is None:
        preds = {cnd: adj[cnd](cand.predict(K), K) for cnd, cand in fitted.items()}
    point = sum(wts[cnd] * preds[cnd] for cnd in wts)
    var = np.zeros(K.size)
    if B > 0:
        if draws is None:
            draws = {}
        if not draws:
            draws.update((cnd, cand.draws(B, gen)) for cnd, cand in fitted.items())
        boots = {cnd: adj[cnd](cand.predict_draws(K, draws[cnd]), K) for cnd, cand in fitted.items()}
        # a failed draw (NaN, e.g. least squares undefined on a resample) counts as the
        # candidate's point forecast at that k; draws are probabilities, never infinite
        comb = sum(wts[cnd] * np.where(np.isnan(boots[cnd]), preds[cnd], boots[cnd]) for cnd in wts)
        var += np.var(comb, axis=0, ddof=1) if B > 1 else 0.0
    # debiasing scales a candidate's failure probability by g = exp(-shift * decades), so the
    # posterior variance of its realised pass rate scales by g^2; the shift's own estimation
    # error adds (1 - q)^2 decades^2 Var(shift) (delta method; candidates' shifts come from
    # the same thinnings, so their errors are added as perfectly correlated)
    var += sum(wts[cnd] * adj[cnd].gain(K) ** 2 * fitted[cnd].posterior_var(K) for cnd in wts)
    var += sum(wts[cnd] * (1.0 - preds[cnd]) * adj[cnd].decades(K) * np.sqrt(adj[cnd].shift_var)
               for cnd in wts) ** 2
    var += sum(wts[cnd] * (preds[cnd] - point) ** 2 for cnd in wts)
    return np.sqrt(var + law.var(K))


# K at which the lower end of an interval is also computed, so that it can be made to rise with K (_rise): two per
# decade up to 10^15, forecast's largest K; fixed, so a forecast at K does not depend on the other K asked for
_RISE_GRID = 10.0 ** (np.arange(0, 31) / 2)


def _rise(lo: np.ndarray, K: np.ndarray, grid: np.ndarray, grid_lo: np.ndarray) -> np.ndarray:
    """The lower ends ``lo`` at K raised to the largest lower end at a grid point below K: pass_D@K never falls as K
    grows, so a lower bound for pass_D@K' with K' < K is one for pass_D@K, at the same level. The law error carried
    to K (:class:`_LawError`) grows faster than the forecast near 1, which made the lower end fall (the demo's
    large-70b: 0.962 at 10^5, 0.955 at 10^6, 0.935 at 10^8)."""
    if grid.size == 0:
        return lo
    order = np.argsort(grid)
    g, best = grid[order], np.maximum.accumulate(np.clip(grid_lo[order], 0.0, 1.0))
    i = np.searchsorted(g, K, side="left")  # grid points strictly below K
    return np.where(i > 0, np.maximum(lo, best[np.maximum(i - 1, 0)]), lo)


def _weights_from_cv(cv: dict[str, float], method: str, combination: str = "inverse_mse") -> dict[str, float]:
    """Combination weights: equal (``"debiased"``), or inverse-MSE from the self-backtest
    (``"inverse_mse"``; equal when it is uninformative)."""
    if method != "auto":
        return {method: 1.0}
    vals = {k: v for k, v in cv.items() if np.isfinite(v)}
    if combination == "debiased" or not vals:
        cands = tuple(cv) or AUTO_CANDIDATES
        return {k: 1.0 / len(cands) for k in cands}
    floor = 1e-3  # errors below 0.1 point are indistinguishable from noise
    inv = {k: 1.0 / max(v, floor) ** 2 for k, v in vals.items()}
    tot = sum(inv.values())
    return {k: v / tot for k, v in inv.items()}


def unforecastable(counts: Counts, k: Any) -> dict[str, str]:
    """The models whose data identify no forecast of pass@K, with the reason (one sample per problem identifies
    only the mean success rate). The CLI forecasts the other models; :func:`forecast` refuses."""
    top = float(np.max(np.asarray(k, dtype=np.float64)))
    out = {}
    for name, sub in counts.groups():
        if int(sub.n.max()) == 1:
            mu = float(np.average(sub.c, weights=sub.weight))
            hi = float(-np.expm1(top * np.log1p(-mu))) if mu < 1 else 1.0
            if 0 < mu < 1:
                out[name] = (
                    f"model {name!r}: every problem has one sample, which identifies only the mean success rate "
                    f"({mu:.4g}); pass@{fmt(top)} could be anything from {mu:.4g} (each problem always or never "
                    f"solved) to {hi:.4g} (all equally hard); draw at least 2 samples per problem to forecast"
                )
            else:  # both ends of that range would read mu: "anything from 0 to 0" says nothing
                out[name] = (
                    f"model {name!r}: every problem has one sample and every sample "
                    f"{'failed' if mu == 0 else 'succeeded'}, which identifies no difficulty law; draw at least 2 "
                    "samples per problem to forecast"
                )
    return out


def forecast(
    counts: Counts,
    k: Any,
    *,
    method: str = "auto",
    confidence_level: float = 0.8,
    n_resamples: int = 100,
    cv_resamples: int | None = None,
    scope: str = "benchmark",
    combination: str | None = None,
    flags: bool = True,
    rng: Any = None,
    design: Any = None,
) -> ForecastResult:
    r"""Forecast pass_D@K for K far beyond n (up to 10^15), with prediction intervals.

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts; unequal n allowed (n fixed in advance, or a stopping
        time of the ``design``).
    k : int or sequence of int
        Budgets K to forecast. Sorted ascending, repeats removed: the result's ``k`` is the order of its values, not the order given.
    method : str, default "auto"
        "auto" (passcurve's self-backtest-weighted combination), "least_squares", "beta"
        (plain beta-binomial, population), "beta_eb", "zi_beta", "scaled_beta",
        "beta_mixture" (empirical Bayes on the observed problems). See the module docs.
    confidence_level : float, default 0.8
        Level of the prediction intervals.
    n_resamples : int, default 100
        Bootstrap resamples of problems (0: no parameter uncertainty).
    cv_resamples : int, optional
        Thinnings in the self-backtest of ``"auto"`` (default 10; paired: only thinnings on which every
        candidate forecasts are scored; fewer than two such thinnings give equal weights, or below 20 samples
        per problem weights from the same number of thinnings to halves (module docs), and then
        the interval, which cannot include the error of an unchecked law, is widened to
        :func:`passcurve.extrapolation_bounds`' range at ``confidence_level``; a checked law's
        interval is clipped to that range, which no law consistent with the data leaves). With another method it is an error (it would have no effect).
    scope : {"benchmark", "population"}
        Forecast this benchmark's problems (empirical Bayes, default) or the population of problems
        the fitted distribution describes (difficulty-model methods only): its mean pass@K, with an
        interval from the parameters' (and, for ``"auto"``, the laws') uncertainty; the sampling spread
        of a new set of finitely many problems is not included.
    combination : {"inverse_mse", "debiased"}, optional
        How ``"auto"`` combines its candidates (default "inverse_mse"; with another method an error,
        as ``cv_resamples``). ``"inverse_mse"``: weights ∝ 1/MSE in the
        self-backtest. ``"debiased"`` (experimental): each candidate's forecast is corrected by
        its James–Stein-shrunk self-backtest bias on the log(1 − pass) scale (for the part of
        one extrapolation factor that K lies beyond min n), then the candidates are averaged with
        equal weights. It lowered the median error by 20–30% on simulated benchmarks but raised it
        on Pythia/MATH (docs/forecasting.md), so it is not the default.
    flags : bool, default True
        Run :func:`passcurve.check_deviations` first (stopping time, no heavy tail,
        impossible mass) and carry its warnings in the result.
    rng : None, int or Generator
    design : StopAtSuccess, optional
        Sampling stopped at the first batch with a success (n is a stopping time). The
        difficulty fits are unchanged (their likelihood is the binomial kernel under any
        stopping rule that depends on observed outcomes); least squares fits the stopping-time
        curve; ``"auto"``'s self-backtest truncates the data to a tenth of the cap instead of
        thinning them; the stopping-time flag is not raised.

    Returns
    -------
    ForecastResult

    References
    ----------
    Schaeffer et al. 2025, arXiv 2502.17578; Kazdan et al. 2025, arXiv 2510.05197;
    Bates & Granger 1969 (forecast combination); Buckland, Burnham & Augustine 1997
    (model-averaging variance).

    Examples
    --------
    >>> import passcurve
    >>> bench = passcurve.simulate(problems=200, n=200, rng=0, models=[passcurve.ModelSpec("m", 0.3, 3.0)])
    >>> res = passcurve.forecast(bench.counts, [1000, 10000], n_resamples=20, rng=0)
    >>> bool((res.low <= res.pass_at_k).all() and (res.pass_at_k <= res.high).all())
    True
    """
    flags = check_flag(flags, "flags")
    counts, ks, cl, B, R, combination = _forecast_iv(counts, k, method, confidence_level, n_resamples, cv_resamples,
                                                     scope, combination)
    design = check_design(design)
    if design is not None:  # validate the counts against the design before any work
        design.check(counts.n, counts.c)
    gen = check_rng(rng)
    warns: list[str] = []
    if flags:
        from ._deviation import check_deviations

        report = check_deviations(counts, emit=True, design=design)
        warns = [f"{name}: {msg}" for fl in report.flags.values() for name, msg in fl]
    K = ks.astype(np.float64)
    refused = unforecastable(counts, K)
    if refused:  # before any work: a refusal names the first model that cannot be forecast
        raise PasscurveError(next(iter(refused.values())))
    z = float(stats.norm.ppf(0.5 + cl / 2))
    models, P, LO, HI, W, CANDS, CVE, FITS, STATE, OBS = [], [], [], [], [], [], [], [], [], []
    restart = model_streams(gen)
    for name, sub in counts.groups():
        restart()  # a model's draws do not depend on the other models in the input
        n, c = sub.n.astype(np.int64), sub.c.astype(np.int64)
        if n.size == 1:
            msg = (f"model {name!r}: one problem; a difficulty distribution cannot be fitted from one problem, so the "
                   "forecast is a degenerate limit, not an estimate, and its interval does not measure its error")
            record_warning(warns, msg, DegenerateDataWarning)
        elif (c == 0).all() or (c == n).all():
            msg = (f"model {name!r}: every problem has c = {'0' if (c == 0).all() else 'n'}; the difficulty "
                   "distribution is not identified and the forecast is a degenerate limit, not an estimate"
                   + ("; its interval beyond the samples drawn is the range every difficulty law consistent with "
                      "the data allows (extrapolation_bounds)" if (c == 0).all() else ""))
            record_warning(warns, msg, DegenerateDataWarning)
        adj: dict[str, _Adjust] = {}
        unchecked = False
        if method == "auto":
            sb = _self_backtest(n, c, AUTO_CANDIDATES, R, gen, design=design, w=sub.weight)
            cv = sb.rmse()
            unchecked = not any(np.isfinite(v) for v in cv.values())
            weighed = ""  # how the unchecked candidates are weighted
            if unchecked:
                # the reason that applies: too few samples to thin, or thinnings that some candidate cannot forecast
                # (it said "needs at least 20 samples per problem ...; smallest n = 100" on all-solved data)
                top = int(np.min(n)) if design is None else int(design.k_max(n, c))
                if top < 20 and design is None and combination == "inverse_mse" and _SMALL_N_FACTOR:
                    # the weights from halves (n // 2 forecasting pass@n): their error over one doubling, not over
                    # the tenfold extrapolation checked at n >= 20, so the interval stays the any-law range
                    hsb = _self_backtest(n, c, AUTO_CANDIDATES, R, gen, factor=_SMALL_N_FACTOR, w=sub.weight)
                    halves = hsb.rmse()
                    if any(np.isfinite(v) for v in halves.values()):
                        cv = halves
                        if _SMALL_N_INTERVAL:
                            sb, unchecked = hsb, False
                        part = "half" if _SMALL_N_FACTOR == 2 else f"1/{_SMALL_N_FACTOR} of"
                        weighed = (f"weights them by their error in a self-backtest on {part} the samples (a check "
                                   "over that short a reach, not the forecast's)")
                if top >= 20:
                    why = ("fewer than two of its self-backtest's thinnings could be forecast by every candidate; "
                           "least squares needs a curve strictly between 0 and 1 at two k")
                elif design is None:
                    why = f"its self-backtest needs at least 20 samples per problem; smallest n = {top}"
                else:
                    why = f"its self-backtest needs a cap of at least 20; it is {top}"
                interval = ("the interval is widened to the range every difficulty law consistent with the data "
                            "allows (extrapolation_bounds at the forecast's confidence level)" if unchecked else
                            "the interval's law error is that check's, carried to K (_SMALL_N_INTERVAL, experimental)")
                msg = (f"model {name!r}: auto could not check its candidates on these data ({why}), so it "
                       f"{weighed or 'averages them with equal weights'}, and {interval}")
                record_warning(warns, msg, DegenerateDataWarning)
            if combination == "debiased":
                adj = sb.adjustments()
        else:
            cv = {}
        if 1 < n.size < 10 and not unchecked and not ((c == 0).all() or (c == n).all()):
            # a difficulty law on a handful of problems is an assumption more than an estimate (forecasting review:
            # 4 problems forecast 0.8965 [0.7788, 1.0000] at K = 1000 without a word, any law [0.2495, 1.0000])
            msg = (f"model {name!r}: {n.size} problems; the difficulty law rests on fewer than 10, too few to tell "
                   "its shape, so beyond the data the interval assumes it: extrapolation_bounds (forecast --bounds) "
                   "gives the range every law consistent with the data allows")
            record_warning(warns, msg, DegenerateDataWarning)
        wts = _weights_from_cv(cv, method, combination)
        fitted = {cnd: _Candidate(cnd, n, c, sub.weight, eb=scope == "benchmark", design=design) for cnd in wts}
        adj = {cnd: adj.get(cnd, _NO_ADJUST) for cnd in wts}
        preds = {cnd: adj[cnd](cand.predict(K), K) for cnd, cand in fitted.items()}
        if len(wts) > 1 and not all(np.isfinite(v).all() for v in preds.values()):
            # a candidate that cannot forecast the full data (e.g. least squares with fewer
            # than two finite points) drops out and the others are renormalised
            keep = [cnd for cnd in wts if np.isfinite(preds[cnd]).all()] or list(wts)
            left = [cnd.replace("_", " ") for cnd in wts if cnd not in keep]
            if left:  # said, not only missing from the weights (forecasting review)
                need = " (it needs a curve strictly between 0 and 1 at two k)" if left == ["least squares"] else ""
                msg = (f"model {name!r}: {', '.join(left)} cannot forecast these data{need} and "
                       f"{'is' if len(left) == 1 else 'are'} left out of the average")
                record_warning(warns, msg, DegenerateDataWarning)
            tot = sum(wts[cnd] for cnd in keep)
            wts = {cnd: wts[cnd] / tot for cnd in keep}
            fitted = {cnd: fitted[cnd] for cnd in keep}
            preds = {cnd: preds[cnd] for cnd in keep}
        point = sum(wts[cnd] * preds[cnd] for cnd in wts)
        # (iv) the systematic error the self-backtest measured out of sample ("debiased" has removed it from
        # its candidates)
        law = sb.law_error(wts) if (method == "auto" and combination == "inverse_mse") else _NO_LAW_ERROR
        boot_from = (type(gen.bit_generator), gen.bit_generator.state)  # k_for re-draws these draws at other K
        # the SD at K and, from the same draws, on the fixed grid the lower end's rise is taken over (_RISE_GRID)
        grid = _RISE_GRID[_RISE_GRID < K.max()]  # all of it below K, also where a K asked for is on it
        Kall = np.concatenate([K, grid])
        # (empty when K = 1 alone: nothing lies below it, and a candidate's predict refused the empty grid)
        gpreds = {cnd: adj[cnd](cand.predict(grid), grid) if grid.size else np.empty(0)
                  for cnd, cand in fitted.items()}
        draws: dict[str, tuple[str, list[Any]]] = {}  # the parameter draws, kept: k_for's SD at other K uses them
        sd_all = _forecast_sd(fitted, wts, adj, Kall, B, gen, law,
                              {cnd: np.concatenate([preds[cnd], gpreds[cnd]]) for cnd in wts}, draws)
        sd = sd_all[:K.size]
        if B == 0 and not np.any(sd > 0):
            # named for both readers, as "extrapolation_bounds (forecast --bounds)": the CLI has no n_resamples
            msg = (f"model {name!r}: the interval is the point forecast: n_resamples=0 (--n-resamples 0) leaves out "
                   f"the parameters' uncertainty, and method {method!r} has no other part here; use n_resamples >= 2 "
                   "(--n-resamples 2 or more)")
            record_warning(warns, msg, DegenerateDataWarning)
        models.append(name)
        P.append(point)
        lo, hi = np.clip(point - z * sd, 0.0, 1.0), np.clip(point + z * sd, 0.0, 1.0)
        lo = _rise(lo, K, grid, sum(wts[cnd] * gpreds[cnd] for cnd in wts) - z * sd_all[K.size:])
        # pass_D@K >= pass_D@k_obs: the data's own lower limit there bounds the lower end (a normal interval with a
        # large law-error component ran below it: BoN's Llama 3 8B IT read [0.36, 1] at K = 100 with pass@60 >= 0.77)
        k_obs, floor = _observed_floor(sub, design, cl)
        if np.isfinite(floor):  # one problem has no analytic interval (NaN), which made the lower end NaN too
            lo = np.where(K >= k_obs, np.maximum(lo, np.minimum(floor, point)), lo)
        lawband = _LawBand(sub, name, cl, int(gen.integers(2**63)), design, unchecked)
        if (c == 0).all():
            from ._bounds import law_range

            # nothing solved: no law is fitted, so beyond the samples drawn the upper end is the range every law
            # consistent with the data allows, which is far from 1 near n (pass_D@K is concave in K, so it is at most
            # (K/n)·pass_D@n): it was 1 at every K beyond n (50 problems x 100 samples, K = 1000: [0, 1] where every
            # law gives at most 0.283 at 80%); 1 where there is no band
            lo = np.zeros(K.size)
            band_hi = 1.0 if lawband.band is None else law_range(*lawband.band, K)[1]
            hi = np.where(K > float(np.min(n)), band_hi, hi)
        lo, hi = lawband.temper(K, np.asarray(point, dtype=float), lo, hi)
        LO.append(lo)
        HI.append(hi)
        W.append(wts)
        CANDS.append(preds)
        CVE.append(cv)
        fd: dict[str, Any] = {}
        for cnd, cand in fitted.items():
            if cand.fit_ is not None:
                fd[cnd] = cand.fit_.to_dict()
            else:
                fd[cnd] = {"difficulty_model": "least_squares", "params": {"a": _f(cand.ls_[0]), "b": _f(cand.ls_[1])}}
        FITS.append({"fits": fd})
        STATE.append((fitted, wts, sd, adj, (n, c, sub.weight, design), (boot_from, B, law), (k_obs, floor),
                      lawband, _KForMemo(draws)))
        OBS.append(_observed(n, c, ks, sub.weight, design))
    return ForecastResult(
        models=tuple(models), k=ks, method=method, pass_at_k=np.vstack(P), low=np.vstack(LO), high=np.vstack(HI),
        weights=tuple(W), candidates=tuple(CANDS), cv_error=tuple(CVE), fits=tuple(FITS), confidence_level=cl,
        scope=scope, warnings=tuple(warns), observed=np.vstack(OBS), _state=tuple(STATE),
    )


_LAW_BAND_RESAMPLES = 1000  # replicates of the data's simultaneous band behind _LawBand


class _LawBand:
    """What every difficulty law consistent with one model's data allows (:func:`passcurve.extrapolation_bounds`'
    band at the forecast's level, computed on first use on a stream of its own, so the forecast's draws are
    unchanged), and how it tempers the forecast's intervals:

    * the law was checked (auto's self-backtest ran, or another method): at every K the interval is clipped to
      the any-law range, and k_for's to [earliest, certain]; the point forecast stays inside. A law-based
      interval had run below what the data show (BoN Llama 3 8B IT at K = 10: [0.000, 0.726] with pass@10
      observed 0.306, any law [0.27, 0.34]; at K = 1000, beyond its n = 60: [0.750, 1.000] where every law
      gives 0.779 or more; GPT-4o's k_for(0.9) lower end 2,671 where no law reaches 0.9 before 4,043);
    * the law was not checked: the interval, at every K, and k_for's are widened to the any-law range, since
      they cannot include the error of the assumed law.
    """

    def __init__(self, sub: Counts, name: str, level: float, seed: int, design: Any, unchecked: bool) -> None:
        self.sub, self.name, self.level, self.seed, self.design = sub, name, level, seed, design
        self.unchecked = unchecked
        self.refused = ""  # why there is no band, when there is none

    @functools.cached_property
    def said(self) -> Any:
        """The band with its warnings (``_bounds.SaidBand``; None where the design leaves no k estimable): the
        bounds shown beside the forecast rest on it too (``_bounds.forecast_bounds``)."""
        from ._bounds import said_band

        try:
            said = said_band(self.sub, self.name, self.level, _LAW_BAND_RESAMPLES, np.random.default_rng(self.seed),
                             True, self.design)
        except PasscurveError as exc:  # no k estimable under the design: no band
            self.refused = str(exc)
            return None
        # its few-problems warning is the forecast's own already; the others are said where they arose
        for w in said.other:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return said

    @property
    def band(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        return None if self.said is None else self.said.band

    def temper(self, K: np.ndarray, point: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        from ._bounds import law_range

        b = self.band
        if b is None:
            return lo, hi
        blo, bhi = law_range(*b, K)
        if self.unchecked:
            return np.fmin(lo, blo), np.fmax(hi, bhi)
        return np.fmax(lo, np.fmin(blo, point)), np.fmin(hi, np.fmax(bhi, point))

    def k_span(self, t: float, kk: float, k_low: float, k_high: float) -> tuple[float, float]:
        from ._bounds import k_span

        b = self.band
        if b is None:
            return k_low, k_high
        earliest, certain = k_span(b, t)
        if self.unchecked:
            return float(np.fmin(k_low, earliest)), float(np.fmax(k_high, certain))
        return float(np.fmax(k_low, np.fmin(earliest, kk))), float(np.fmin(k_high, np.fmax(certain, kk)))


class _KForMemo:
    """What k_for computes alike on every call for one model of a forecast, kept on the result: the forecast's
    parameter draws (each SD k_for computes at other K is from them; they were re-drawn from the forecast's stream
    at every such K), the SD and the lower band on the rise grid (``rise``: the SD at every K known by then, the
    grid, the risen lower band), and the point forecast at each K it was evaluated at. Each is what the call would
    compute again, the same numbers: k_for's answers do not change (benchmarks/bench_k_for.py)."""

    def __init__(self, draws: dict[str, tuple[str, list[Any]]]) -> None:
        self.draws = draws
        self.rise: tuple[dict[float, float], np.ndarray, np.ndarray] | None = None
        self.curve: dict[float, float] = {}


def _target_model_iv(target: Any, model: str | None, models: tuple[str, ...]) -> tuple[float, int]:
    """A k_for's target in (0, 1) and the index of its model (which may be omitted only when there is one);
    shared by the forecast's and the bounds' k_for."""
    t_a = as_float_array(target, "target").ravel()
    if t_a.size != 1:
        raise PasscurveError(f"`target` must be one number (got {t_a.size}); call k_for once per target")
    t = float(t_a[0])
    if not 0 < t < 1:
        raise PasscurveError(f"`target` must be in (0, 1) (got target={t})")
    return t, pick_model(models, model)


def _k_for_state(res: ForecastResult, target: float, model: str | None) -> KForResult:
    t, i = _target_model_iv(target, model, res.models)
    fitted, wts, _, adj, data, (boot_from, B, law), (k_obs, floor), lawband, memo = res._state[i]

    def curve(Kv: float) -> float:
        if Kv not in memo.curve:
            Ka = np.array([Kv])
            memo.curve[Kv] = float(sum(wts[cnd] * adj[cnd](fitted[cnd].predict(Ka), Ka)[0] for cnd in wts))
        return memo.curve[Kv]

    if not np.isfinite(curve(1.0)):
        raise PasscurveError(
            f"model {res.models[i]!r}: the {res.method} forecast is undefined on these data (least squares needs a "
            "curve strictly between 0 and 1 at two k), so no K can be solved for"
        )
    top = np.array([1e15])
    plateau = {cnd: adj[cnd](np.array([fitted[cnd].sup()]), top)[0] for cnd in wts}  # each candidate's limit
    ceiling = float(sum(wts[cnd] * plateau[cnd] for cnd in wts))

    def solve(fun: Any, top: float) -> float:
        if top <= t:
            return np.inf
        if fun(1.0) >= t:
            return 1.0
        hi = 1e15
        if fun(hi) < t:
            return np.inf
        return float(np.exp(optimize.brentq(lambda lk: fun(np.exp(lk)) - t, 0.0, np.log(hi), xtol=1e-6)))

    kk = solve(curve, ceiling)
    # below the ceiling (the laws' limit as K -> inf) but not reached by the search's end: reached only beyond
    # K = 10^15 (a Beta's target 0.999999 near 2.6e21; a least-squares exponent near 0 far beyond), which is not
    # "never": said in the note, as the ceiling alone read as a contradiction (ceiling 0.667, target 0.55 unreachable)
    beyond = (None if np.isfinite(kk) or ceiling <= t else
              f"not reached by K = 1e15, the largest K solved for: the forecast there is {fmt_below_one(curve(1e15))}, "
              f"below the target, though its limit as K grows is {fmt_below_one(ceiling)} (the target would be "
              "reached beyond)")

    # a candidate of the average whose own curve plateaus below the target: the average reaches it, that law never
    # does (forecasting review: the demo's tiny-1b, 12% impossible problems, was told 0.9 at K ≈ 4e6 while its
    # zi_beta candidate, weight 0.09, plateaued at 0.8675 and the truth at 0.873)
    below = [cnd for cnd in wts if plateau[cnd] < t] if len(wts) > 1 and np.isfinite(kk) else []
    # the weight as the forecast's title writes it (shares_text: Pythia 160M's zi_beta, 0.3253, read 0.32 in the
    # title and 0.33 here)
    share = shares_text(wts)
    caveat = "; ".join(f"{cnd} (weight {share[cnd]}) plateaus at {fmt_below_one(plateau[cnd])} (impossible problems)"
                       for cnd in below) + ": under it the target is never reached" if below else None

    def result(low: float, high: float, note: str | None = None) -> KForResult:
        return KForResult(
            model=res.models[i], target=t, k=kk, low=low, high=high, reachable=bool(np.isfinite(kk)),
            ceiling=ceiling, method=res.method, confidence_level=res.confidence_level,
            observed_k=_observed_k(t, *data), note=note if note is not None else beyond, caveat=caveat,
        )

    n_, c_ = data[0], data[1]
    if (c_ == 0).all():  # as forecast's interval: beyond the samples drawn, what every law consistent with the data allows
        from ._bounds import k_span

        any_law = lawband.band
        earliest = k_span(any_law, t)[0] if any_law is not None else np.nan
        if np.isnan(earliest):  # no band: nothing but the samples drawn
            low, where = float(n_.min()) + 1.0, "just beyond the samples drawn"
        elif np.isfinite(earliest):  # (bisected to 1%, rounded up, by k_span; within the data too, as the band allows)
            low, where = float(earliest), "the earliest any difficulty law consistent with the data reaches it"
        else:
            low, where = np.inf, "no difficulty law consistent with the data reaches it by K = 10^12"
        return result(low, np.inf,
                      "no problem solved: the data cannot say at which K pass@K reaches the target (the interval "
                      f"runs from K = {low:.6g} ({where}) to never)")
    # interval: solve on the upper / lower prediction band, its SD interpolated in log K between points where it
    # was computed with the forecast's own parameter draws: the forecast's K, then around each solution
    z = float(stats.norm.ppf(0.5 + res.confidence_level / 2))
    known = dict(zip(res.k.astype(np.float64).tolist(), res._state[i][2].tolist(), strict=True))

    def add_sd_at(points: np.ndarray) -> None:
        local = np.array([x for x in np.unique(np.clip(np.round(points, 6), 1.0, 1e15)) if x not in known])
        if local.size:  # from the forecast's own parameter draws (memo.draws; its stream, should they be missing)
            g = np.random.Generator(boot_from[0]())
            g.bit_generator.state = boot_from[1]
            known.update(zip(local.tolist(), _forecast_sd(fitted, wts, adj, local, B, g, law, draws=memo.draws).tolist(),
                             strict=True))

    def add_sd_around(k0: float) -> None:
        if np.isfinite(k0):
            add_sd_at(k0 * 2.0 ** np.arange(-3, 4))

    # the lower band rises with K as forecast's lower end does (_rise): over the same grid, from the same draws;
    # the same on every call, so computed on the first (about a third of a call's time: 0.25 s on the demo)
    if memo.rise is None:
        add_sd_at(_RISE_GRID)
        rise_k = np.unique(np.clip(np.round(_RISE_GRID, 6), 1.0, 1e15))
        memo.rise = (dict(known), rise_k,
                     np.maximum.accumulate(np.array([curve(g) - z * known[g] for g in rise_k.tolist()])))
    known.update(memo.rise[0])
    rise_k, rise_low = memo.rise[1], memo.rise[2]

    def band(sign: float) -> Any:
        ks_known = np.array(sorted(known))
        sd_known = np.array([known[x] for x in ks_known])

        def f(Kv: float) -> float:
            v = curve(Kv) + sign * z * float(np.interp(np.log(Kv), np.log(ks_known), sd_known))
            i = int(np.searchsorted(rise_k, Kv, side="left"))  # grid points strictly below Kv
            return max(v, float(rise_low[i - 1])) if sign < 0 and i > 0 else v

        return f

    add_sd_around(kk)
    k_low, k_high = solve(band(+1.0), 1.0), solve(band(-1.0), ceiling)
    for _ in range(2):  # a band solution far from where its SD was computed: compute it around there too
        before = len(known)
        for edge in (k_low, k_high):
            if np.isfinite(edge) and not any(edge / 2 <= x <= edge * 2 for x in known):
                add_sd_around(edge)
        if len(known) == before:
            break
        k_low, k_high = solve(band(+1.0), 1.0), solve(band(-1.0), ceiling)
    for _ in range(4):  # then at the solutions themselves, until each rests on an SD computed within 1% of it
        edges = [e for e in (k_low, k_high) if np.isfinite(e) and not any(abs(np.log(e / x)) < 0.01 for x in known)]
        if not edges:
            break
        add_sd_at(np.array(edges))
        k_low, k_high = solve(band(+1.0), 1.0), solve(band(-1.0), ceiling)
    if t <= floor:  # the forecast's lower end is floored at the data's own limit from k_obs on: it reaches the
        # target by the time both the data's end and the point forecast do (a floored band never exceeds the point)
        k_high = min(k_high, max(float(k_obs), kk))
    # what every law the data allow says (as forecast's interval): a floor and a ceiling on a checked law's K, the
    # whole range for an unchecked one
    k_low, k_high = lawband.k_span(t, kk, k_low, k_high)
    return result(k_low, k_high)


def _observed_k(target: float, n: np.ndarray, c: np.ndarray, w: np.ndarray | None, design: Any) -> int | None:
    """The smallest k whose observed pass_D@k reaches ``target``, by bisection (the curve is
    non-decreasing in k), or None when the data's estimable range does not reach it."""
    def obs(k: int) -> float:
        return float(_observed(n, c, np.array([k]), w, design)[0])

    lo, hi = 1, _observed_limit(n, c, design)
    if not obs(hi) >= target:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if obs(mid) >= target:
            hi = mid
        else:
            lo = mid + 1
    return lo


def k_for(
    counts: Counts,
    target: float,
    *,
    model: str | None = None,
    method: str = "auto",
    confidence_level: float = 0.8,
    n_resamples: int = 100,
    rng: Any = None,
) -> KForResult:
    """The number of samples K at which the forecast pass_D@K reaches ``target``.

    Solves forecast(K) = target by bracketing in log K (K up to 10^15). When the fitted
    model puts mass on impossible problems the forecast plateaus at 1 − (impossible mass);
    a target above that ceiling is reported as unreachable (``reachable=False``, k = inf).
    The interval solves the same equation on the upper and lower prediction bands.

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts.
    target : float in (0, 1)
        The pass_D@K to reach.
    model : str, optional
        The model (required when ``counts`` holds several).
    method, confidence_level, n_resamples, rng
        As in :func:`forecast` (the forecast whose curve is solved).

    Returns
    -------
    KForResult
        ``k`` (inf when unreachable), ``low``, ``high``, ``reachable``, the ceiling and the method.
    """
    # counts, target and model checked before the forecast (counts.select of a list was an AttributeError)
    _target_model_iv(target, model, tuple(check_counts_object(counts).models))
    counts_sel = counts if model is None else counts.select(model)
    grid = np.unique(np.logspace(0, 12, 25).astype(np.int64))
    res = forecast(counts_sel, grid, method=method, confidence_level=confidence_level, n_resamples=n_resamples,
                   rng=rng)
    return res.k_for(target, None)
