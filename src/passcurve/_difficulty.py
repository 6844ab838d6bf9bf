r"""Difficulty distributions: maximum-likelihood fits of the law of per-problem success rates.

Each problem i has an unknown success rate p_i drawn from a mixing distribution G (the
*difficulty distribution*); given p_i, c_i of n_i independent samples are correct. Every
model here is described by one function, the mixed moment

.. math:: M(c, d) = E_G\bigl[p^{c}\,(1-p)^{d}\bigr],

from which everything follows exactly:

* likelihood of one problem: :math:`P(c \mid n) = \binom{n}{c} M(c, n-c)` (unequal n allowed);
* population forecast: :math:`\text{pass}_D@K = 1 - M(0, K)`;
* posterior (empirical-Bayes) failure moment of an observed problem:
  :math:`E[(1-p)^K \mid n, c] = M(c, n-c+K) / M(c, n-c)`.

Models (``model=`` name in :func:`fit_difficulty`):

``"beta"``
    Beta(α, β): :math:`M = B(α+c, β+d)/B(α, β)` (beta-binomial; Kazdan et al. 2025,
    arXiv 2510.05197). Left tail :math:`\propto p^{α-1}`, so pass_D@k follows a power law
    with exponent b = α (Schaeffer et al. 2025, arXiv 2502.17578).
``"zi_beta"``
    Zero-inflated Beta: a point mass π0 at p = 0 (impossible problems) plus (1-π0)·Beta(α, β).
``"scaled_beta"``
    Beta on [0, s] (Schaeffer et al. 2025):
    :math:`M = s^c B(α+c, β)/B(α, β)\,{}_2F_1(-d, α+c; α+β+c; s)`, evaluated through
    Pfaff's transformation as a sum of positive terms (see :func:`_scaled_log_moment`).
``"beta_mixture"``
    A point mass at 0 plus a mixture of two Betas: the hard-problem component carries the
    left tail separately from the bulk of easy problems.
``"npmle"``
    Nonparametric maximum likelihood (Kiefer–Wolfowitz) on a fixed grid of p including 0,
    fitted by Wang's constrained Newton method with a duality-gap certificate; a diagnostic
    of the shape (its mass below 1/n is not identified).

Counts enter only through their distinct (n, c) pairs and multiplicities, so a fit costs
O(distinct pairs) per likelihood evaluation, never a per-problem Python loop.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from ._counts import Counts, check_counts_object
from ._errors import ConvergenceWarning, DegenerateDataWarning, PasscurveError, record_warning
from ._estimators import _STIRLING_SERIES
from ._pairs import distinct_pairs
from ._results import ReadOnlyResult, brief_repr, frame_html, json_safe, pandas_module
from ._validation import (
    MAX_DECIMALS,
    as_float_array,
    as_int_array,
    check_broadcast,
    check_choice,
    check_counts,
    check_flag,
    check_positive_int,
    check_positive_k,
    check_scalar,
    check_weights,
    fmt,
    notation,
    number_format,
    pick_model,
    show_value,
    unknown_model,
)

__all__ = [
    "DifficultyModel",
    "BetaBinomial",
    "ZeroInflatedBetaBinomial",
    "ScaledBetaBinomial",
    "BetaMixtureBinomial",
    "GridMixture",
    "DifficultyFits",
    "fit_difficulty",
    "DIFFICULTY_MODELS",
]

_LOG0 = -np.inf


# ----------------------------------------------------------------------------------------
# data reduction
# ----------------------------------------------------------------------------------------
def _pairs(n: np.ndarray, c: np.ndarray, weight: np.ndarray | None = None, *,
           return_inverse: bool = False) -> Any:
    """Distinct (n, c) pairs and their multiplicities (or summed weights).

    With ``return_inverse`` also the index of each problem's pair.
    """
    n = np.asarray(n, dtype=np.int64).ravel()
    c = np.asarray(c, dtype=np.int64).ravel()
    first, inv = distinct_pairs(n, c)
    w = np.bincount(inv, weights=weight, minlength=first.size).astype(np.float64)
    out = n[first].astype(np.float64), c[first].astype(np.float64), w
    return (*out, inv) if return_inverse else out


def _log_binom(n: np.ndarray, c: np.ndarray) -> np.ndarray:
    return special.gammaln(n + 1) - special.gammaln(c + 1) - special.gammaln(n - c + 1)


# ----------------------------------------------------------------------------------------
# mixed moments M(c, d) = E[p^c (1-p)^d]
# ----------------------------------------------------------------------------------------
_BETALN_UPTO = 1e3  # likelihood terms (exact=False) use betaln differences up to this a + b
_STIRLING_FROM = 30.0  # from here up, log Γ(x+m) − log Γ(x) and ψ(x+m) − ψ(x) come from the asymptotic series


_SHIFT_BLOCK = 1 << 20  # (value, shift) pairs formed at once by the recurrences' upward sums (_upward_sum)


def _upward_sum(x: np.ndarray, up: np.ndarray, term: Any, *params: np.ndarray) -> np.ndarray:
    """Σ_{j < up_i} term(x_i + j, *params_i) for each element i (flat arrays): the steps of a recurrence that
    raises x by up_i, as one (element, j) block of at most _SHIFT_BLOCK values, else a loop over j."""
    top = int(up.max(initial=0.0))
    if x.size * top <= _SHIFT_BLOCK:
        j = np.arange(top, dtype=np.float64)
        vals = term(x[:, None] + j, *(p[:, None] for p in params))
        return np.where(j < up[:, None], vals, 0.0).sum(axis=1)
    total = np.zeros(x.shape)
    for jj in range(top):
        total += np.where(jj < up, term(x + jj, *params), 0.0)
    return total


def _shifted(f: Any, asymptotic: Any, step: Any, x: Any, m: Any) -> np.ndarray:
    r"""f(x, m) for x > 0, m >= 0, where f(z, m) = f(z+1, m) − step(z, m) and ``asymptotic`` is exact for z >= 30.

    Three regimes: z >= 30 by the asymptotic series; z < 30 with m >= z by ``f`` itself (the
    difference of two special-function values, which then loses at most a few digits); z < 30
    with m < z, where that difference cancels (log Γ(25.001) − log Γ(25) = 0.0032 from two values
    of 54.8), by the recurrence: :math:`f(z, m) = f(z+N, m) - \sum_{j<N} \mathrm{step}(z+j, m)`
    with z+N >= 30, every step computed without cancellation.
    """
    x = np.asarray(x, dtype=np.float64)
    m = np.asarray(m, dtype=np.float64)
    with np.errstate(all="ignore"):
        if x.ndim == 0 and float(x) >= _STIRLING_FROM:
            return np.asarray(asymptotic(x, m), dtype=np.float64)
        x, m = np.broadcast_arrays(x, m)
        big = x >= _STIRLING_FROM
        if big.all():
            return np.asarray(asymptotic(x, m), dtype=np.float64)
        out = np.asarray(f(x, m), dtype=np.float64)  # exactly 0 where m = 0
        if big.any():
            out[big] = asymptotic(x[big], m[big])
        shift = ~big & (m < x) & (m > 0)
        if shift.any():
            xs, ms = x[shift], m[shift]
            steps = np.ceil(_STIRLING_FROM - xs)
            out[shift] = asymptotic(xs + steps, ms) - _upward_sum(xs, steps, step, ms)
    return out


def _stirling_tail(z: Any) -> Any:
    """Stirling's series for log Γ beyond its first term: −1/(360z³) + 1/(1260z⁵) − 1/(1680z⁷) + 1/(1188z⁹)
    (the coefficients B_2j/(2j(2j−1)) of ``_estimators._STIRLING_SERIES``, j = 2..5)."""
    w = 1.0 / (z * z)
    acc = _STIRLING_SERIES[4]
    for coef in _STIRLING_SERIES[3:0:-1]:
        acc = coef + w * acc
    return acc * w / z


def _stirling_rising(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    r"""log Γ(x+m) − log Γ(x) for x >= 30 from Stirling's series with terms to y^-9.

    :math:`(x-\tfrac12)\log(1+m/x) + m\log y - m + S(y) - S(x)`, y = x+m,
    :math:`S(y) = \tfrac{1}{12y} + T(y)` (:func:`_stirling_tail`); the next term, 691/(360360 y^11),
    is below 1.1e-19 from y = 30 up. The
    leading difference 1/(12y) − 1/(12x) is formed as −m/(12xy) so that it keeps its digits when m ≪ x.
    """
    y = x + m
    series = -m / (12.0 * x * y) + (_stirling_tail(y) - _stirling_tail(x))
    return (x - 0.5) * np.log1p(m / x) + (m * np.log(y) - m) + series


def _stirling_digamma(x: np.ndarray, m: np.ndarray) -> np.ndarray:
    r"""ψ(x+m) − ψ(x) for x >= 30: ψ(y) = log y − 1/(2y) − 1/(12y²) + 1/(120y⁴) − 1/(252y⁶)
    + 1/(240y⁸) − 1/(132y¹⁰) − O(y⁻¹²) (the next term is below 4e-20 from y = 30 up); the two leading
    differences are formed as m/(2xy) and −m(x+y)/(12x²y²)."""
    y = x + m

    def tail(z: np.ndarray) -> np.ndarray:
        w = 1.0 / (z * z)
        return (1.0 / 120.0 + w * (-1.0 / 252.0 + w * (1.0 / 240.0 - w / 132.0))) * w * w

    lead = m / (2.0 * x * y) + m * (x + y) / (12.0 * x * x * y * y)
    return np.log1p(m / x) + lead + (tail(y) - tail(x))


def _log_rising(x: Any, m: Any) -> np.ndarray:
    r"""log Γ(x+m) − log Γ(x) for x > 0, m >= 0, to about 1e-14 relative for any x and m (1.5e-13 at worst
    over 5,000 random draws with m < x < 30 against 40-digit arithmetic, away from ψ's zero at x ≈ 1.46 where
    the value itself vanishes with m).

    The difference of two ``gammaln`` values loses digits in two places: once x is huge (x = 1e30:
    each is ~7e31, their difference ~70·m), which happens when a fit drives a Beta's concentration
    to infinity on under-dispersed data, and when m ≪ x (x = 1000, m = 0.01: 0.069 from two values
    of 5905, 11 digits lost). See :func:`_shifted` for how both are avoided; from x = 30 up the
    value is Stirling's form (:func:`_stirling_rising`), below it the recurrence
    log Γ(z+m) − log Γ(z) = [log Γ(z+1+m) − log Γ(z+1)] − log(1 + m/z).
    """
    return _shifted(lambda z, k: special.gammaln(z + k) - special.gammaln(z), _stirling_rising,
                    lambda z, k: np.log1p(k / z), x, m)


def _digamma_diff(x: Any, m: Any) -> np.ndarray:
    """ψ(x+m) − ψ(x), the derivative of :func:`_log_rising` in x, with the same treatment
    (the recurrence step is ψ(z+m) − ψ(z) = [ψ(z+1+m) − ψ(z+1)] + m/(z(z+m)))."""
    return _shifted(lambda z, k: special.digamma(z + k) - special.digamma(z), _stirling_digamma,
                    lambda z, k: -k / (z * (z + k)), x, m)


_CHUNK = 1 << 13  # elements per block of an elementwise formula (_chunked): its temporaries (64 KB each) stay in cache


def _chunked(f: Callable[..., np.ndarray], *args: np.ndarray) -> np.ndarray:
    """f(*args) for an elementwise f of 1-d arrays of one size, in blocks of _CHUNK elements: the same values (each
    element's operations are unchanged), without a formula's dozen temporaries of the arrays' full size falling out
    of the processor's cache (the posterior forecast's Stirling step over 10⁵ values: 9.9 → 2.8 ms)."""
    size = args[0].size
    if size <= _CHUNK:
        return f(*args)
    out = np.empty(size)
    for i in range(0, size, _CHUNK):
        out[i:i + _CHUNK] = f(*(v[i:i + _CHUNK] for v in args))
    return out


def _stirling_step(x: np.ndarray, w: np.ndarray, m: np.ndarray) -> np.ndarray:
    """:func:`_rising_step` for x >= 30 by Stirling's form (the first formula there)."""
    y = x + w
    xm = x + m
    out = w * np.log1p(m / y) + (x - 0.5) * np.log1p(-m * w / (y * xm)) + m * np.log1p(w / xm)
    T = _stirling_tail(np.stack([y + m, y, xm, x]))
    return out + (m / (12.0 * x * xm) - m / (12.0 * y * (y + m)) + ((T[0] - T[1]) - (T[2] - T[3])))


def _larger_first_step(x: np.ndarray, w: np.ndarray, m: np.ndarray) -> np.ndarray:
    """:func:`_stirling_step` with the larger of (w, m) as the step, as :func:`_rising_step` takes it where x is mixed."""
    return _stirling_step(x, np.maximum(w, m), np.minimum(w, m))


def _rising_step_mostly_large(x: np.ndarray, w: np.ndarray, m: np.ndarray, big: np.ndarray) -> np.ndarray:
    """:func:`_rising_step` where at least half of x (``big``) is >= 30, with the same values: Stirling's form over
    every element in cache-sized blocks (:func:`_chunked`), then the others overwritten as there. Selecting the
    large elements and taking max / min of the broadcast (w, m) first cost more than the formula itself (the posterior
    forecast over 51,000 problems at two K: 8.9 ms of which 2.7 the formula)."""
    xf, wf, mf = (np.ravel(v) for v in (x, w, m))
    out = _chunked(_larger_first_step, xf, wf, mf)
    rest = np.flatnonzero(~big.ravel())
    xr = xf[rest]
    wr, mr = np.maximum(wf[rest], mf[rest]), np.minimum(wf[rest], mf[rest])
    near = (wr < xr) & (mr * wr > 0)
    far = ~near
    if far.any():
        xs, ms = xr[far], mr[far]
        out[rest[far]] = _log_rising(xs + wr[far], ms) - _log_rising(xs, ms)
    if near.any():
        xs, ws, ms = xr[near], wr[near], mr[near]
        up = np.ceil(_STIRLING_FROM - xs)
        out[rest[near]] = _stirling_step(xs + up, ws, ms) - _upward_sum(
            xs, up, lambda z, ww, mm: np.log1p(-(mm * ww) / ((z + ww) * (z + mm))), ws, ms)
    return out.reshape(x.shape)


def _rising_step(x: Any, w: Any, m: Any) -> np.ndarray:
    r"""R(x+w, m) − R(x, m) with R(x, m) = log Γ(x+m) − log Γ(x), for x > 0 and w, m >= 0.

    A second difference of log Γ, which the difference of two R values (or four ``gammaln``
    values) computes with cancellation when w is small against x: x = 1000, w = 1, m = 0.01 gives
    1e-5 from two values of 0.069. For x >= 30 it is written from Stirling's form of R without that
    subtraction,

    .. math:: w\log\Bigl(1+\frac{m}{y}\Bigr) + (x-\tfrac12)\log\Bigl(1-\frac{mw}{y(x+m)}\Bigr)
              + m\log\Bigl(1+\frac{w}{x+m}\Bigr) + \frac{m}{12x(x+m)} - \frac{m}{12y(y+m)}
              + T(y+m) - T(y) - T(x+m) + T(x),

    y = x + w, T Stirling's series beyond its first term (:func:`_stirling_tail`; the next term,
    691/(360360 z^11), is below 1.1e-19 from z = 30 up); the three logarithms are each at most a
    few times the result. The second difference is symmetric in w and m; below 30 the larger is taken
    as the step w and the smaller as the increment m. Then with w >= x the two R values
    (:func:`_log_rising`, each exact) differ by at least a tenth of the smaller and are subtracted
    (the increment's mean ψ against the growth of ψ over the step). Below 30 with w < x, x is first
    raised by N = ⌈30 − x⌉ with the recurrence R(z, m) = R(z+1, m) − log(1 + m/z), whose steps for
    the two R values combine into one logarithm without cancellation:

    .. math:: \Delta(x) = \Delta(x+N) - \sum_{j<N} \log\Bigl(1 - \frac{mw}{(x+w+j)(x+j+m)}\Bigr).
    """
    x, w, m = np.broadcast_arrays(np.asarray(x, dtype=np.float64), np.asarray(w, dtype=np.float64),
                                  np.asarray(m, dtype=np.float64))
    with np.errstate(all="ignore"):
        big = x >= _STIRLING_FROM
        if big.all():
            return _chunked(_stirling_step, x.ravel(), w.ravel(), m.ravel()).reshape(x.shape)
        if 2 * int(big.sum()) >= big.size:
            return _rising_step_mostly_large(x, w, m, big)
        # symmetric in (w, m): the step is the larger, the increment the smaller (R(x+w, m) and R(x, m) with
        # m >> x + w would both be ~ m log m, 4e5, for a difference of 56)
        w, m = np.maximum(w, m), np.minimum(w, m)
        near = ~big & (w < x) & (m * w > 0)
        far = ~(big | near)
        if far.all():
            return _log_rising(x + w, m) - _log_rising(x, m)
        out = np.zeros(x.shape)
        if big.any():
            out[big] = _chunked(_stirling_step, x[big], w[big], m[big])
        if far.any():
            xf, mf = x[far], m[far]
            out[far] = _log_rising(xf + w[far], mf) - _log_rising(xf, mf)
        if near.any():
            xs, ws, ms = x[near], w[near], m[near]
            up = np.ceil(_STIRLING_FROM - xs)
            out[near] = _stirling_step(xs + up, ws, ms) - _upward_sum(
                xs, up, lambda z, ww, mm: np.log1p(-(mm * ww) / ((z + ww) * (z + mm))), ws, ms)
    return out


_TABLE_RATIO = 4  # per-count tables (_whole_number_table) when the pairs outnumber the counts 0..max(c + d) this much


def _whole_number_table(c: np.ndarray, d: np.ndarray, a: Any, b: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(c, d) as integer indices and the counts 0, 1, …, max(c + d) as floats, or None.

    A likelihood term such as log Γ(a+c) − log Γ(a) depends on a pair only through the whole number c: with
    one (a, b) and many more pairs than whole numbers up to max(c + d) (many problems with unequal n: 20,000
    problems with n in [100, 1000] have ~20,000 distinct pairs but only 1,001 counts), each term is computed
    once per count and gathered, the same values at a fraction of the cost. None (compute per pair) for
    array-valued a or b, fewer pairs than _TABLE_RATIO × (max(c + d) + 1), or counts that are not whole numbers.
    """
    if np.ndim(a) or np.ndim(b) or c.ndim != 1 or c.shape != d.shape or c.size < 64:
        return None
    top = float(np.max(c + d))
    if not np.isfinite(top) or c.size < _TABLE_RATIO * (top + 1):
        return None
    ci, di = c.astype(np.int64), d.astype(np.int64)
    if not (np.array_equal(ci, c) and np.array_equal(di, d)) or min(ci.min(), di.min()) < 0:
        return None
    return ci, di, np.arange(int(top) + 1, dtype=np.float64)


_TABLE_UNSET: Any = object()  # the `tab` argument's default: build the table from the pairs (:func:`_whole_number_table`)


def _terms(f: Callable[[Any, Any], np.ndarray], c: np.ndarray, d: np.ndarray, a: Any, b: Any,
           tab: tuple[np.ndarray, np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """f(a, c), f(b, d) and f(a + b, c + d) for a difference f(x, m) of a function at x + m and at x (log Γ, ψ):
    once per count 0..max(c + d) and gathered with the table ``tab`` (:func:`_whole_number_table`), else (None) per
    pair."""
    if tab is None:
        return f(a, c), f(b, d), f(a + b, c + d)
    ci, di, m = tab
    return f(a, m)[ci], f(b, m)[di], f(a + b, m)[ci + di]


def _beta_log_moment(c: Any, d: Any, a: Any, b: Any, exact: bool = True, tab: Any = _TABLE_UNSET) -> np.ndarray:
    r"""log E[p^c (1-p)^d] = log B(a+c, b+d) − log B(a, b) under p ~ Beta(a, b), for any a, b > 0.

    With u = min(c, d) on the shape p beside it and v, q the other pair (the moment is symmetric
    under (a, c) ↔ (b, d)),

    .. math:: \log M = -\bigl[R(p+q+v, u) - R(p, u)\bigr] - \bigl[R(q+v, p) - R(q, p)\bigr],
              \qquad R(x, m) = \log\Gamma(x+m) - \log\Gamma(x),

    each bracket a second difference of log Γ computed without cancellation
    (:func:`_rising_step`). The usual form R(a, c) + R(b, d) − R(a+b, c+d), or a difference of two
    ``betaln`` values, subtracts numbers of order K log K to get pass@K's log failure rate of order
    α log K, and numbers of order log β to get pass@1 = α/(α+β): relative errors of 3.8e-9 at
    α = 0.06, β = 1993, K = 10⁶ and 1e-7 at α = 0.01, β = 1000, K = 1 (now 0 and 1.7e-16, against
    exact products summed with ``math.fsum`` in the tests).

    ``exact=False`` is for log-likelihoods and pmfs, which need log M only to a small *absolute* error
    (a probability's relative error): where a + b <= 1000 it returns the difference of two ``betaln``
    values (above, the sum of three :func:`_log_rising`, which stays exact however large a + b grows
    on under-dispersed data), at a small fraction of the cost on the few distinct pairs a fit
    evaluates hundreds of times (``benchmarks/bench_moments.py``). Its absolute error, measured against
    the exact form over 300 random (a, b, c) per n (a + b <= 1000): 2e-12 at n = c + d = 100, 5e-11 at
    10⁴, 4e-9 at 10⁶, 6e-8 at 10⁷. A caller evaluating several (a, b) on the same pairs may pass their ``tab``
    (:func:`_whole_number_table`, which depends on a and b only through their being scalars).
    """
    if not exact:
        c, d = np.asarray(c, dtype=np.float64), np.asarray(d, dtype=np.float64)
        small = bool(np.all(np.asarray(a) + np.asarray(b) <= _BETALN_UPTO))
        if tab is _TABLE_UNSET:
            tab = _whole_number_table(c, d, a, b)
        if small and tab is None:
            return np.asarray(special.betaln(a + c, b + d) - special.betaln(a, b), dtype=np.float64)
        # R(a, c) + R(b, d) - R(a + b, c + d): once per count and gathered where the pairs are many and the counts
        # few, else per pair; where a + b <= 1000 as differences of gammaln, as accurate as the betaln difference
        lg = special.gammaln
        ra, rb, rn = _terms((lambda x, m: lg(x + m) - lg(x)) if small else _log_rising, c, d, a, b, tab)
        return ra + rb - rn
    c, d, a, b = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (c, d, a, b)))
    if not c.any():  # E[(1-p)^d] (pass@K's failure rate): the first bracket is 0
        return -_rising_step(b, d, a)
    swap = c > d
    u, v = np.where(swap, d, c), np.where(swap, c, d)
    p, q = np.where(swap, b, a), np.where(swap, a, b)
    return -_rising_step(p, q + v, u) - _rising_step(q, v, p)


def _log_ratio(num: np.ndarray, gap: np.ndarray, den: np.ndarray) -> np.ndarray:
    """log(num/den) for den = num + gap > num > 0 with the gap given: log1p(−gap/den) where the ratio is near 1
    (where log of the rounded ratio would lose the digits of a small gap), else log of the ratio."""
    r = num / den
    return np.where(r >= 0.5, np.log1p(-gap / den), np.log(r))


def _stirling_dispersion(x: np.ndarray, a: np.ndarray, k: np.ndarray) -> np.ndarray:
    r""":func:`_beta_fail_dispersion` for b = x >= 30 by Stirling's form: F(x) − F(y), y = x + a, with
    F(z) = log Γ(z+2k) − 2 log Γ(z+k) + log Γ(z) (a third difference of log Γ, steps k, k, a).

    Stirling's leading part (z − ½) log z − z of log Γ contributes, without a subtraction of large terms,

    .. math:: 2k\log\Bigl(1 + \frac{ak}{(x+k)(y+2k)}\Bigr)
              + (x-\tfrac12)\log\Bigl(1 - \frac{k^2 a (x+y+2k)}{(x+k)^2 y (y+2k)}\Bigr)
              - a\log\Bigl(1 - \frac{k^2}{(y+k)^2}\Bigr),

    (the second logarithm is that of x(x+2k)(y+k)²/((x+k)² y (y+2k)), taken as a sum of logarithms of ratios
    where its argument is below ½; the third likewise), 1/(12z) contributes
    :math:`\frac{k^2}{6P(x)}\cdot\frac{P(y) - P(x)}{P(y)}` with P(z) = z(z+k)(z+2k) and
    P(y) − P(x) = a(3x² + 3xa + a² + 6kx + 3ka + 2k²), and the rest of the series (:func:`_stirling_tail`,
    at most 1e-7 from 30 up) its six values.
    """
    y = x + a
    t1 = 2.0 * k * np.log1p(a * k / ((x + k) * (y + 2.0 * k)))
    z = (k / (x + k)) ** 2 * (a / y) * ((x + y + 2.0 * k) / (y + 2.0 * k))
    whole = (np.log(x / (x + k)) + np.log((x + 2.0 * k) / (x + k)) + 2.0 * np.log((y + k) / (y + 2.0 * k))
             + np.log((y + 2.0 * k) / y))
    t2 = (x - 0.5) * np.where(z < 0.5, np.log1p(-z), whole)
    q = (k / (y + k)) ** 2
    t3 = -a * np.where(q < 0.5, np.log1p(-q), _log_ratio(y, k, y + k) + np.log1p(k / (y + k)))
    u, v = 1.0 / (y + k), 1.0 / (y + 2.0 * k)  # (P(y) − P(x))/P(y) as a sum of ratios (no overflow at 1e200)
    rel = (a / y) * (3.0 * (x * u) * (x * v) + 3.0 * (x * u) * (a * v) + (a * u) * (a * v) + 6.0 * (k * u) * (x * v)
                     + 3.0 * (k * u) * (a * v) + 2.0 * (k * u) * (k * v))
    t4 = (k / x) * (k / (x + k)) / (x + 2.0 * k) / 6.0 * rel
    T = _stirling_tail(np.stack([x + 2.0 * k, x + k, x, y + 2.0 * k, y + k, y]))
    return t1 + t2 + t3 + t4 + ((T[0] - 2.0 * T[1] + T[2]) - (T[3] - 2.0 * T[4] + T[5]))


def _beta_fail_dispersion(a: Any, b: Any, k: Any) -> np.ndarray:
    r"""Δ = log E[(1-p)^{2k}] − 2 log E[(1-p)^k] >= 0 under p ~ Beta(a, b), to ~1e-15 relative (broadcasting).

    Var[(1-p)^k] = E[(1-p)^k]²·expm1(Δ): the variance of a Beta's failure rate, hence of pass@k, with no
    subtraction of the two moments (which are near 1 where pass@k is small, or differ in their last digits
    when the law is concentrated: at n = 10⁶, the posterior variance of pass@1 is ~10⁻¹² of its terms). Δ is
    a *third* difference of log Γ, F(b) − F(a+b) with F(z) = log Γ(z+2k) − 2 log Γ(z+k) + log Γ(z), which
    the difference of two exact log moments would still compute with cancellation (relative error ~1e-16·b/k).
    As for :func:`_rising_step`: from b = 30 up by Stirling's form (:func:`_stirling_dispersion`), below it
    raised by N = ⌈30 − b⌉ with the recurrence in b, whose steps are logarithms of ratios near 1 written
    without cancellation,

    .. math:: Δ(b) = Δ(b+N) + \sum_{j<N} \log\Bigl(1 + \frac{k^2 a\,(a + 2b_j + 2k)}{(a+b_j+k)^2\, b_j (b_j+2k)}\Bigr),
              \quad b_j = b + j.

    For integer k, Δ = Σ_{j<k} log(1 + ak/((a+b+k+j)(b+j))) (the tests' exact reference).
    """
    a, b, k = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64) for v in (a, b, k)))
    with np.errstate(all="ignore"):
        up = np.maximum(np.ceil(_STIRLING_FROM - b), 0.0)

        def step(z: np.ndarray, aa: np.ndarray, kk: np.ndarray) -> np.ndarray:
            r = kk / (aa + z + kk)
            return np.log1p(r * r * aa * ((aa + 2.0 * z + 2.0 * kk) / (z * (z + 2.0 * kk))))

        out = _stirling_dispersion(b + up, a, k)
        if up.any():
            out = out + _upward_sum(b.ravel(), up.ravel(), step, a.ravel(), k.ravel()).reshape(b.shape)
    return np.asarray(out, dtype=np.float64)


def _beta_fail_var(a: Any, b: Any, k: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""log E[(1-p)^k] and Var[(1-p)^k] under p ~ Beta(a, b), both to ~1e-15 relative (broadcasting).

    The variance is E[(1-p)^k]²·expm1(Δ) with Δ from :func:`_beta_fail_dispersion`, taken as
    exp(2 log M + log expm1(Δ)) so that neither factor over- or underflows; E[(1-p)^{2k}] − E[(1-p)^k]², the
    difference of two numbers near 1 (or near each other), lost up to all its digits (0.20 relative at
    n = 10⁷, c = 5·10⁶, k = 1 for a posterior Beta(a + c, b + n − c)).
    """
    lm = _beta_log_moment(0.0, k, a, b)
    with np.errstate(all="ignore"):
        disp = _beta_fail_dispersion(a, b, k)
        log_em1 = np.where(disp > 1.0, disp + np.log(-np.expm1(-disp)), np.log(np.expm1(disp)))
        return lm, np.exp(2.0 * lm + log_em1)


def _beta_log_moment_grad(c: np.ndarray, d: np.ndarray, a: float, b: float,
                          tab: Any = _TABLE_UNSET) -> tuple[np.ndarray, np.ndarray]:
    """∂/∂a and ∂/∂b of :func:`_beta_log_moment`:
    (ψ(a+c) − ψ(a)) − (ψ(a+b+c+d) − ψ(a+b)) and the same for b with d.

    For the likelihood's gradient, which needs a small absolute error: differences of ``digamma``
    values where a + b <= 1000 (as the likelihood's ``exact=False``), :func:`_digamma_diff` above; ``tab`` as
    :func:`_beta_log_moment`'s.
    """
    psi = special.digamma
    small = a + b <= _BETALN_UPTO
    if tab is _TABLE_UNSET:
        tab = _whole_number_table(c, d, a, b)
    if small and tab is None:  # per pair, ψ(a+b+c+d) as the fits have always summed it
        common = psi(a + b + c + d) - psi(a + b)
        return psi(a + c) - psi(a) - common, psi(b + d) - psi(b) - common
    da, db, common = _terms((lambda x, m: psi(x + m) - psi(x)) if small else _digamma_diff, c, d, a, b, tab)
    return da - common, db - common


_VELTKAMP = 2.0**27 + 1.0  # splits a double into two halves of 26 bits whose products are exact (_two_product)


def _two_product(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x·y = p + e exactly, p the rounded product (Dekker's algorithm with Veltkamp's split; finite values below
    ~1e300)."""
    p = x * y
    xs, ys = _VELTKAMP * x, _VELTKAMP * y
    xh, yh = xs - (xs - x), ys - (ys - y)
    xl, yl = x - xh, y - yh
    return p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl


def _dot_fsum(*pairs: tuple[np.ndarray, np.ndarray]) -> float:
    """Σ_k h_k·v_k over several vector pairs, to about one rounding of the result: the products exact
    (:func:`_two_product`), their rounded parts summed by ``math.fsum`` and their error parts (each below 1.1e-16 of
    its product) by a plain sum. For sums of large terms that cancel (:func:`_beta_sums`'s three histogram sums, each
    ~10⁸ for a log-likelihood of ~4·10⁵ at 10⁵ problems), where a dot product would lose their rounding."""
    parts = [_two_product(h, v) for h, v in pairs]
    rounded = np.concatenate([p for p, _ in parts])
    if not np.isfinite(rounded).all():  # math.fsum raises ValueError on -inf + inf: the plain sum (nan or ±inf)
        return float(rounded.sum())
    return math.fsum(rounded.tolist()) + float(sum(e.sum() for _, e in parts))


def _count_histograms(c: np.ndarray, d: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """The weighted histograms H_c, H_d, H_n of c, d and c + d over the counts 0..max(c + d), those counts as
    floats, and the histograms' tails T[j] = Σ_{m > j} H[m] for j < max(c + d) (T_c, T_d, T_n); None where the
    pairs are not tabulated by count (:func:`_whole_number_table`)."""
    tab = _whole_number_table(c, d, 0.0, 0.0)
    if tab is None:
        return None
    ci, di, m = tab
    hists = [np.bincount(i, weights=w, minlength=m.size) for i in (ci, di, ci + di)]
    return (*hists, m, *(np.cumsum(h[::-1])[::-1][1:] for h in hists))


def _beta_sums(c: np.ndarray, d: np.ndarray, w: np.ndarray, a: float, b: float, order: int = 0,
               hist: Any = _TABLE_UNSET) -> list[float] | None:
    r"""Σ_i w_i log M(c_i, d_i) under p ~ Beta(a, b) (M as :func:`_beta_log_moment` with ``exact=False``) by count
    histograms, or None where the terms are not tabulated by count (:func:`_whole_number_table`).

    log M(c, d) = R(a, c) + R(b, d) − R(a + b, c + d) with R(x, m) = log Γ(x+m) − log Γ(x) is a sum of three
    terms, each depending on the pair only through one whole number, so the weighted sum over the pairs is
    H_c·R(a, ·) + H_d·R(b, ·) − H_n·R(a + b, ·) with H_c, H_d, H_n the weighted histograms of c, d and c + d over
    0..max(c + d): the same per-count values as the gathered table, with no work per pair but three ``bincount``.
    Where a + b <= 1000 (where the per-pair form took ``betaln`` / ``gammaln`` differences) the value is
    Σ_j T_c[j] log(a + j) + T_d[j] log(b + j) − T_n[j] log(a + b + j) with the histograms' tails T: each
    logarithm to half an ulp instead of a difference of two log Γ of order n log n, and the three sums, each far
    larger than their difference, added exactly (:func:`_dot_fsum`). Against 40-digit sums at 10⁵ problems (n in
    [100, 1000], three parameter points) the zero-inflated Beta's log-likelihood is off by 3e-16 to 7e-15
    relative, where the per-pair ``betaln`` path was off by 8e-15 to 7e-14. Above 1000 (a Beta run to the
    binomial limit, where log(a + j) and log(a + b + j) nearly cancel) the table of :func:`_log_rising` values. Many problems with unequal n (10⁵ problems, n in [100, 1000]: 51,000 distinct
    pairs, 1,001 counts) then cost O(max n) per likelihood evaluation instead of a gather and a sum per pair.

    ``order`` 1 appends Σ w ∂log M/∂a and Σ w ∂log M/∂b (the ψ differences of :func:`_beta_log_moment_grad`),
    ``order`` 2 also Σ w ∂²log M/∂a², ∂²/∂b² and ∂²/∂a∂b (trigamma differences, as the Beta's Newton fit).
    ``hist``: the pairs' :func:`_count_histograms` where the caller has them (a fit evaluates the same pairs
    hundreds of times: :meth:`DifficultyModel._fit_histograms`).
    """
    if hist is _TABLE_UNSET:
        hist = _count_histograms(c, d, w) if np.ndim(a) == 0 and np.ndim(b) == 0 else None
    if hist is None:
        return None
    hc, hd, hn, m, tc, td, tn = hist
    with np.errstate(all="ignore"):
        if a + b <= _BETALN_UPTO:  # Σ_m H[m] R(x, m) = Σ_j T[j] log(x + j): one logarithm per count, no log Γ
            j = m[:-1]
            out = [_dot_fsum((tc, np.log(a + j)), (td, np.log(b + j)), (tn, -np.log(a + b + j)))]
        else:
            out = [_dot_fsum((hc, _log_rising(a, m)), (hd, _log_rising(b, m)), (hn, -_log_rising(a + b, m)))]
        if order >= 1:
            if a + b <= _BETALN_UPTO:
                psi = special.digamma
                common = float(hn @ (psi(a + b + m) - psi(a + b)))
                out += [float(hc @ (psi(a + m) - psi(a))) - common, float(hd @ (psi(b + m) - psi(b))) - common]
            else:
                common = float(hn @ _digamma_diff(a + b, m))
                out += [float(hc @ _digamma_diff(a, m)) - common, float(hd @ _digamma_diff(b, m)) - common]
        if order >= 2:
            tri = special.polygamma
            W = float(w.sum())
            t_ab = float(hn @ tri(1, a + b + m)) - W * float(tri(1, a + b))
            out += [float(hc @ tri(1, a + m)) - W * float(tri(1, a)) - t_ab,
                    float(hd @ tri(1, b + m)) - W * float(tri(1, b)) - t_ab, -t_ab]
    return out


def _guarded(v: float, grad: np.ndarray) -> tuple[float, np.ndarray]:
    """(v, grad), or a wall (1e300, 0) where either is not finite (as :meth:`DifficultyModel._negloglik`)."""
    if not (np.isfinite(v) and np.isfinite(grad).all()):
        return 1e300, np.zeros(grad.size)
    return v, grad


def _zero_log_moment(c: np.ndarray) -> np.ndarray:
    """log E[p^c (1-p)^d] under a point mass at p = 0: 0 when c = 0, else -inf."""
    return np.where(np.asarray(c) == 0, 0.0, _LOG0)


def _segment_cumsum(x: np.ndarray, offs: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Running sums of ``x`` restarting at every offset, for ``x`` that is 0 at the offsets.

    One cumulative sum over the whole array, with each segment's total subtracted at the next
    segment's start, so the running value returns to ~0 there instead of growing over all
    segments (its rounding stays that of one segment); the remainder is removed exactly.
    """
    y = x.copy()
    totals = np.add.reduceat(x, offs)
    y[offs[1:]] -= totals[:-1]
    g = np.cumsum(y)
    return g - g[offs][seg]


_WINDOW_DROP = 70.0  # the Pfaff series' window ends where the terms are below e^-70 of the peak


_SCALED_TERMS_MAX = 1 << 24  # terms of one scaled-Beta moment (see _scaled_log_moment)


def _scaled_window_check(d: np.ndarray, cc: np.ndarray, b: float, z: float, peak: np.ndarray,
                         lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Widen the Pfaff series' window [lo, hi] until the dropped terms are provably negligible.

    The window around the peak is sized by the curvature there, which is wrong when the peak
    sits at j = 0 and the curvature comes from :math:`(b)_j/j!` alone: with b slightly above 1
    it vanishes within a few terms and the terms then decay geometrically, far slower than the
    Gaussian guess (a = 10.2, b = 1.17, s = 0.17, c = 452, d = 1954: the mass up to e^-16 reaches
    j = 97, the window stopped at 61, log M was off by 2.6e-7). At each edge the term's log-ratio
    to the peak Δ and the next ratio ρ are computed; when Δ > -70 the window is extended by the
    m steps after which a geometric tail from the edge, t·ρ^m/(1-ρ), is below e^-70 (the term
    ratio (d-j)(b+j)z/((j+1)(cc+j)) decreases in j for b >= 1, so the geometric series bounds the
    tail; for b < 1 the extension is a heuristic on top of the wider scale used above). A ratio
    that does not decrease enough (ρ > 1 - 1e-9) takes the whole range.
    """

    def log_term(j: np.ndarray, dd: np.ndarray, ccs: np.ndarray) -> np.ndarray:
        return (special.gammaln(b + j) - special.gammaln(j + 1) - special.gammaln(dd - j + 1)
                - special.gammaln(ccs + j) + j * np.log(z))

    with np.errstate(all="ignore"):
        top = log_term(peak, d, cc)
        for side in (1, -1):
            edge = hi if side == 1 else lo
            inner = edge < d if side == 1 else edge > 0
            if not inner.any():
                continue
            e, dd, ccs, tp = edge[inner], d[inner], cc[inner], top[inner]
            drop = log_term(e, dd, ccs) - tp
            if side == 1:  # t_{j+1}/t_j
                rho = (dd - e) * (b + e) * z / ((e + 1.0) * (ccs + e))
            else:  # t_{j-1}/t_j
                rho = e * (ccs + e - 1.0) / ((dd - e + 1.0) * (b + e - 1.0) * z)
            need = drop > -_WINDOW_DROP
            steps = np.where(rho < 1.0 - 1e-9,
                             np.ceil((_WINDOW_DROP + drop - np.log1p(-np.minimum(rho, 1.0 - 1e-9)))
                                     / -np.log(np.minimum(rho, 1.0 - 1e-9))),
                             np.inf)
            steps = np.where(need & np.isfinite(drop), steps, 0.0)
            steps = np.where(np.isnan(steps), np.inf, steps)
            if side == 1:
                hi = hi.copy()
                hi[inner] = np.minimum(e + steps, dd)
            else:
                lo = lo.copy()
                lo[inner] = np.maximum(e - steps, 0.0)
    return lo, hi


_ROWS_BUDGET = 1 << 22  # values held at once by the row recurrences and pmf_bins_many

# cost of the fit's whole rows in units of one series term with gradient (ScaledBetaBinomial._plan):
# a row of N costs about _ROW_STEP_TERMS * N + _ROW_FIXED_TERMS (measured on the shared 2-core machine: a
# row step 0.43-0.6 µs, a series term 53-67 ns, about 0.1 ms of numpy calls per row)
_ROW_STEP_TERMS = 8.0
_ROW_FIXED_TERMS = 2000.0
_ROW_MAX = 1 << 20  # longest row the fit takes (its Python lists hold ~100 MB there)
# rows advanced in lockstep (_RowBlock, _block_loglik), same units: a block of R rows up to N costs about
# _LOCK_CELL_TERMS per cell of its N x R rectangle and _LOCK_STEP_TERMS per step t (one numpy call per operation and
# step whatever the rows). Measured with gradient on the shared 2-core machine: ~15 ns a cell, ~4-8 µs a step (1,000
# steps of 100 rows 9.3 ms, of 901 rows 21 ms); a block of 7 x 10^4 steps (100 n in [10^4, 10^5]) took 2.2 s
_LOCK_CELL_TERMS = 0.5
_LOCK_STEP_TERMS = 120.0
_LOCKSTEP_BUDGET = 1 << 20  # cells (t, row) of one lockstep block (_RowBlock: its κ, ratios and mask, 17 MB)


def _lockstep_rows(ns: np.ndarray, series_cost: np.ndarray, alone: np.ndarray) -> np.ndarray:
    """Which distinct n (ascending ``ns``) the fit advances in lockstep, given each one's cost by the series and
    which would be cheaper as a row of its own (``alone``, :meth:`ScaledBetaBinomial._plan`).

    One block at most: the n up to some N whose next best way (its own row or the series) costs more than its
    own N cells, where that saves the most over the block's cost (its N x rows cells and N steps); none where no N
    saves anything or the block would exceed ``_LOCKSTEP_BUDGET`` cells. Several blocks would each pay their steps
    (the rule that counted one block's took 100 n in [10^4, 10^5] in 7 blocks, 2.2 s against the series' 0.7 s)."""
    nf = np.asarray(ns, dtype=np.float64)
    none = np.zeros(nf.size, dtype=bool)
    best_other = np.where(alone, _ROW_STEP_TERMS * nf + _ROW_FIXED_TERMS, series_cost)
    take = (nf >= 1) & (nf <= _ROW_MAX) & (best_other > _LOCK_CELL_TERMS * nf)
    if not take.any():
        return none
    cells = nf * np.cumsum(take)
    saving = np.cumsum(np.where(take, best_other, 0.0)) - _LOCK_CELL_TERMS * cells - _LOCK_STEP_TERMS * nf
    saving = np.where(cells <= _LOCKSTEP_BUDGET, saving, -np.inf)
    last = int(np.argmax(saving))
    if not saving[last] > 0:
        return none
    return (np.arange(nf.size) <= last) & take


def _scaled_log_moment_rows(ns: Any, a: float, b: float, s: float) -> list[np.ndarray]:
    r"""log M(c) = log E[p^c (1-p)^(N-c)] for c = 0..N, for each N in ``ns`` (p = s·u, u ~ Beta(a, b)).

    Integrating :math:`\frac{d}{du}[u^{a}(1-u)^{b}(su)^{c}(1-su)^{N-1-c}] = 0` over (0, 1) gives
    the three-term recurrence, for c = 0..N-2,

    .. math:: (a+c)s\,M(c) - [(a+c)(1-s) + b + (N-1-c)s]\,M(c+1) + (N-1-c)(1-s)\,M(c+2) = 0

    (s = 1 gives the Beta ratio M(c+1)/M(c) = (a+c)/(b+N-1-c)). Forward it is unstable (relative
    errors of 10^2 within 60 steps); run *backward* for the ratio r_c = M(c+1)/M(c),

    .. math:: r_c = \frac{(a+c)s}{(a+c)(1-s) + b + (N-1-c)s - (N-1-c)(1-s)\,r_{c+1}},

    it is the continued fraction of the minimal solution and loses nothing (relative error of
    r_c below 5e-15 against 40-digit arithmetic in every case tried, including b < 1 and s near 1).
    It starts itself: at c = N-1 the last term vanishes. log M is then accumulated from the
    closed form at c = N, :math:`N\log s + \log B(a+N, b) - \log B(a, b)`, for the upper half
    and from the Pfaff series at c = 0 for the lower half, so no sum runs over more than N/2
    ratios. O(1) per value instead of the series' O(sqrt(N)): the goodness of fit of 2,000
    problems with distinct n up to 10^4 needs 10^7 values.

    All N advance in lockstep (one vector step per c from the top), in groups of about
    ``_ROWS_BUDGET`` values.
    """
    ns = np.asarray(ns, dtype=np.int64).ravel()
    out: list[np.ndarray] = [np.empty(0)] * ns.size
    order = np.argsort(-ns, kind="stable")
    start = 0
    while start < order.size:
        top = int(ns[order[start]])
        size = max(1, min(order.size - start, _ROWS_BUDGET // max(top, 1)))
        idx = order[start:start + size]
        Nd = ns[idx]  # descending
        active = np.searchsorted(-Nd, -np.arange(top), side="left")  # how many N exceed t
        ratios = np.ones((top, Nd.size))  # cells past an N stay at log 1 = 0
        r = np.zeros(Nd.size)
        a_top = a + Nd.astype(np.float64) - 1.0  # a + c at t = 0
        for t in range(top):
            k = int(active[t])
            ac = a_top[:k] - t
            r[:k] = ac * s / (ac * (1.0 - s) + (b + t * s) - (t * (1.0 - s)) * r[:k])
            ratios[t, :k] = r[:k]
        with np.errstate(divide="ignore"):
            log_ratios = np.log(ratios)
        lm_top = Nd * np.log(s) + _beta_log_moment(Nd.astype(np.float64), np.zeros(Nd.size), a, b)
        lm_zero = _scaled_log_moment(np.zeros(Nd.size), Nd.astype(np.float64), a, b, s)
        for i, N in enumerate(Nd.tolist()):
            lr = log_ratios[:N, i][::-1]  # log r_c, c = 0..N-1
            half = N // 2
            row = np.empty(N + 1)
            row[0] = lm_zero[i]
            row[1:half + 1] = lm_zero[i] + np.cumsum(lr[:half])
            row[N] = lm_top[i]
            row[half + 1:N] = lm_top[i] - np.cumsum(lr[half + 1:][::-1])[::-1]
            out[int(idx[i])] = row
        start += size
    return out


def _scaled_window(c: np.ndarray, d: np.ndarray, a: float, b: float, s: float,
                   strict: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The window [lo, hi] of the Pfaff series' indices j summed for each (c, d) (see :func:`_scaled_log_moment`);
    ``strict`` refuses windows of ``_SCALED_TERMS_MAX`` terms or more (:func:`_check_window_terms`)."""
    z = s / (1.0 - s)
    cc = a + b + c
    # peak: ratio t_{j+1}/t_j = (d-j)(b+j) z / ((j+1)(cc+j)) = 1, i.e.
    # z(d b + d j - b j - j^2) - (j cc + j^2 + cc + j) = 0
    #  -> -(z+1) j^2 + (z d - z b - cc - 1) j + (z d b - cc) = 0
    A = -(z + 1.0)
    B = z * d - z * b - cc - 1.0
    C = z * d * b - cc
    disc = np.maximum(B * B - 4 * A * C, 0.0)
    jstar = (-B - np.sqrt(disc)) / (2 * A)
    jstar = np.clip(np.nan_to_num(jstar, nan=0.0), 0.0, d)
    # curvature of log t at the peak: d/dj log ratio
    with np.errstate(divide="ignore"):
        curv = 1.0 / np.maximum(d - jstar, 1.0) + 1.0 / (jstar + 1.0) - 1.0 / (b + jstar) + 1.0 / (cc + jstar)
    sd = 1.0 / np.sqrt(np.maximum(np.abs(curv), 1e-12))
    if b < 1.0:
        # the factor (b)_j/j! makes log t convex for small j, so the peak's curvature says
        # nothing about the slow j^(b-1) decay after it; the factors (d-j)/d and cc/(cc+j)
        # cut it off on the scale sqrt(d·cc/(d+cc)), which the window must cover as well
        sd = np.maximum(sd, 1.0 / np.sqrt(1.0 / (d + 1.0) + 1.0 / cc))
    half = np.ceil(12.0 * sd + 30.0)
    lo = np.maximum(np.floor(jstar - half), 0.0)
    hi = np.minimum(np.ceil(jstar + half), d)
    lo, hi = _scaled_window_check(d, cc, b, z, np.round(jstar), lo, hi)
    if strict:
        _check_window_terms(c, d, lo, hi, a, b, s)
    return lo, hi


def _check_window_terms(c: np.ndarray, d: np.ndarray, lo: np.ndarray, hi: np.ndarray, a: float, b: float,
                        s: float) -> None:
    """Refuse windows of ``_SCALED_TERMS_MAX`` terms or more (see :func:`_scaled_window`)."""
    if d.size and float((hi - lo).max()) >= _SCALED_TERMS_MAX:
        # well-posed values need O(sqrt(d)) terms (about 10^6 at d = 10^12); a window this long comes from
        # parameters at the edge of the space (e.g. a fit to data where every problem is always solved),
        # where the window's own test loses its precision
        i = int(np.argmax(hi - lo))
        raise PasscurveError(
            f"the scaled Beta's moment E[p^c (1-p)^d] at c={c[i]:g}, d={d[i]:g} would sum "
            f"{float(hi[i] - lo[i]) + 1:.3g} terms: its parameters are degenerate (a={a:.4g}, b={b:.4g}, s={s:.10g})"
        )


_QUAD_FROM_TERMS = 1 << 12  # the scaled Beta's log moment by quadrature where the series would sum more terms
_QUAD_NODES = (16, 24)  # two Gauss rules; the value is the second, accepted where both agree
_QUAD_CHUNK = 1024  # Jacobi matrices diagonalised at once (1024 × 24 × 24 doubles: 4.7 MB)


def _gamma_gauss(alpha: np.ndarray, nodes: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Gauss rules for the Gamma(α, 1) law, one per α: nodes x and probability weights w, each (α.size, nodes).

    Golub–Welsch: the nodes are the eigenvalues of the Jacobi matrix of the generalized Laguerre polynomials
    :math:`L_j^{(α-1)}` (diagonal 2j + α, off-diagonal :math:`\sqrt{j(j + α - 1)}`), the weights the squared
    first components of the eigenvectors, which sum to 1 (so no Γ(α) to overflow at large α).
    ``sum w f(x)`` is E[f(X)], X ~ Gamma(α), exact for polynomials of degree < 2·nodes.
    """
    alpha = np.asarray(alpha, dtype=np.float64).ravel()
    j = np.arange(nodes, dtype=np.float64)
    x = np.empty((alpha.size, nodes))
    w = np.empty((alpha.size, nodes))
    diag, off = np.arange(nodes), np.arange(1, nodes)
    for start in range(0, alpha.size, _QUAD_CHUNK):
        al = alpha[start:start + _QUAD_CHUNK, None]
        jac = np.zeros((al.shape[0], nodes, nodes))
        jac[:, diag, diag] = 2.0 * j + al
        sub = np.sqrt(j[1:] * (j[1:] + al - 1.0))
        jac[:, off, off - 1] = sub
        jac[:, off - 1, off] = sub
        vals, vecs = np.linalg.eigh(jac)
        x[start:start + al.shape[0]] = vals
        w[start:start + al.shape[0]] = vecs[:, 0, :] ** 2
    return x, w


def _expm1_minus_x(y: np.ndarray) -> np.ndarray:
    """e^y - 1 - y for y >= 0 without the cancellation of ``expm1(y) - y`` at small y (Taylor series below 1/4, to
    below 1e-21 relative there)."""
    small = y < 0.25
    ys = np.where(small, y, 0.0)
    acc = np.zeros_like(ys)
    for k in range(16, 2, -1):  # sum_{k>=2} y^k/k! = y^2/2·(1 + y/3·(1 + y/4·(...)))
        acc = 1.0 + ys / k * acc
    with np.errstate(over="ignore"):
        return np.where(small, 0.5 * ys * ys * acc, np.expm1(np.where(small, 0.0, y)) - y)


def _log_h0(x: np.ndarray, al: Any, b: float, s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""log h₀ at t = x·d for :func:`_scaled_log_moment_quad`, :math:`(a+c-1)\log g(x) + (b-1)\log(1-u) - x` with
    :math:`g(x) = (1 - e^{-x})/x` and :math:`u = (1 - e^{-x})/s`; and its parts log g(x) and log(1 − u) (the gradient's
    posterior means)."""
    em1 = -np.expm1(-x)
    log_g, log_1mu = np.log(em1 / x), np.log1p(-em1 / s)
    return (al - 1.0) * log_g + (b - 1.0) * log_1mu - x, log_g, log_1mu


def _log_h_slope(t: np.ndarray, al: np.ndarray, d: np.ndarray, b: float, s: float) -> np.ndarray:
    r"""−(d/dt) log h₀(t) for :func:`_scaled_log_moment_quad`'s :math:`h_0(t) = g(t/d)^{a+c-1} (1-u(t))^{b-1} e^{-t/d}`:

    .. math:: -\frac{a+c-1}{d}\Bigl(\frac{1}{e^{x}-1} - \frac1x\Bigr) + \frac{(b-1)\,e^{-x}}{sd\,(1-u)} + \frac1d,
              \qquad x = t/d,

    whose value at t = 0 is (a+c−1)/(2d) + (b−1)/(sd) + 1/d (the bracket's series −1/2 + x/12 − x³/720 below x = 1e-3).
    """
    x = t / d
    q = np.where(x < 1e-3, -0.5 + x / 12.0 - x**3 / 720.0, 1.0 / np.expm1(np.maximum(x, 1e-3)) - 1.0 / np.maximum(x, 1e-3))
    u = -np.expm1(-x) / s
    return -(al - 1.0) / d * q + (b - 1.0) * np.exp(-x) / (s * d * (1.0 - u)) + 1.0 / d


def _quad_rate(al: np.ndarray, d: np.ndarray, b: float, s: float, top: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """λ of :func:`_scaled_log_moment_quad`: the slope of −log h₀ at the mode (a+c−1)/(1+λ) of the Gamma law it is
    taken into (three fixed-point steps from the slope at 0), so h is flat to first order where the law's mass is;
    and the point t* where it is matched (the mode; 0 where the slope at 0 is kept).
    The slope at 0 alone leaves h a slope of ~(a+c)²/(12d²) at the mode when (a+c)/d is not small, and the Gauss
    rules disagree there (the goodness of fit at n = 10⁷, c/n from 0.16 to 0.69). The slope at 0 stays where the two
    differ by less than 1e-2 over one standard deviation of the law, √(a+c)/(1+λ) (there h − 1 = O(t²) near 0, which
    the gradient's E[log X] needs at small a + c), and where a step leaves u < 1 or yields a rate at or below −1/2."""
    lam0 = _log_h_slope(np.zeros_like(d), al, d, b, s)
    lam = lam0
    for _ in range(3):
        mode = np.maximum(al - 1.0, 0.0) / (1.0 + lam)
        nxt = _log_h_slope(mode, al, d, b, s)
        good = np.isfinite(nxt) & (nxt > -0.5) & (mode < top)
        lam = np.where(good, nxt, lam0)
    at_mode = np.abs(lam - lam0) * np.sqrt(al) / (1.0 + lam0) > 1e-2
    return np.where(at_mode, lam, lam0), np.where(at_mode, np.maximum(al - 1.0, 0.0) / (1.0 + lam), 0.0)


def _scaled_log_moment_quad(c: np.ndarray, d: np.ndarray, a: float, b: float, s: float,
                            grad: bool = False) -> Any:
    r"""log E[p^c (1-p)^d] for p = s·u, u ~ Beta(a, b), by Gauss quadrature for large d; and where it holds.

    Substituting :math:`t = -d\log(1 - su)` turns :math:`(1-su)^d` into :math:`e^{-t}`, and with
    :math:`u(t) = (1 - e^{-t/d})/s = \frac{t}{sd}\,g(t/d)`, :math:`g(x) = (1 - e^{-x})/x`,

    .. math:: M(c, d) = \frac{s^{-a}\,Γ(a + c)}{B(a, b)\,d^{a+c}}\,(1 + λ)^{-(a+c)}\;
              E\Bigl[h\bigl(\tfrac{X}{1+λ}\bigr)\Bigr], \qquad X \sim \text{Gamma}(a + c),

    :math:`h(t) = g(t/d)^{a+c-1}\,(1 - u(t))^{b-1}\,e^{-t/d}\,e^{λt}` for t below
    :math:`T = -d\log(1-s)` (u = 1) and 0 beyond, with λ the slope of −log h₀ (h without its last factor) at the
    Gamma law's mode, or at 0, :math:`\frac{a+c-1}{2d} + \frac{b-1}{sd} + \frac1d`, where the two hardly differ
    (:func:`_quad_rate`; taken into the Gamma law, so h is flat to first order where the law's mass is). For d large against a + c
    (and against b/s), h is smooth on the scale of the Gamma law and the expectation is a Gauss rule's
    (:func:`_gamma_gauss`). Nothing is summed or differenced: the error stays ~1e-16 relative in M, where the Pfaff
    series' log Γ terms carry ~1e-16 of their size (log M off by 2e-9 at d = 10⁶ and 1e-6 at 10⁹).

    A value holds (second array) where every node lies below T·(1 − 1e-3) (the Gamma law's mass beyond the 24-node
    rule's largest node is 2e-38 at a + c = 0.05, 7e-19 at 3,000, 6e-18 at 10⁵) and the 16- and 24-node rules agree
    within 64 ulp of log M; elsewhere (d not large against a + c, or b < 1 with u = 1 near the law's mass) the
    caller keeps the series. Against the binomial mixture of exact Beta moments (independent of both) log M is within
    ~1e-16 of its size for d from 3·10⁴ to 10¹⁰ and c up to 3,000 (tests); 8 nodes would already do there.

    With ``grad`` returns (value, derivatives of log M in (a, b, s) of shape (c.size, 3), holds): with the
    posterior :math:`π(u) ∝ u^{a+c-1}(1-u)^{b-1}(1-su)^d`, whose expectations are the 24-node rule's with weights
    :math:`w_i h_i` normalized,

    .. math:: ∂_a \log M = E_π[\log u] - ψ(a) + ψ(a+b), \quad ∂_b \log M = E_π[\log(1-u)] - ψ(b) + ψ(a+b),
              \quad ∂_s \log M = c/s - d\,E_π[u/(1-su)] = c/s - d\,E_π[e^{t/d} - 1]/s.

    :math:`\log u = \log X - \log(1+λ) - \log(sd) + \log g(t/d)`; log X is singular at 0, where the Gauss rule
    of E[log X] = ψ(a + c) is off by 0.86 at a + c = 0.3 and 2.6e-2 at 1 (24 nodes), so E_π[log X] is taken as
    :math:`ψ(a+c) + E[(h-1)(\log X - ψ(a+c))]/E[h]`: h(0) = 1 and h'(0) = 0 (λ), so the rule meets log X only
    through :math:`(h-1)\log X = O(X^2 \log X / d^2)`. Likewise
    :math:`d\,E_π[e^{t/d} - 1] = E_π[X]/(1+λ) + d\,E_π[e^{t/d} - 1 - t/d]` with
    :math:`E_π[X] = a + c + E[(h-1)(X - a - c)]/E[h]`, so c/s and the mean of t cancel in closed form
    (:math:`(cλ - a)/(s(1+λ))`), not in rounding. The gradient is accepted where the value is (same nodes; and
    finite). Measured (tests): against the closed forms at b = 1 (posterior Beta(a + c, d + 1)) ∂a within 2.4e-15 and
    ∂s within 4.3e-12 (c = 3,000, s = 0.05: ~eps·c/s); ∂a, ∂b against the binomial mixture's digamma averages within
    4.6e-13; against the series' gradient at d = 10⁶ within 3.6e-15 (∂a, ∂b) and 2.3·eps·d/(1-s) (∂s, the series'
    own cancellation); against 5-point differences of the value at d = 10⁸, 10¹⁰ within 1.5e-10.
    """
    c = np.asarray(c, dtype=np.float64).ravel()
    d = np.asarray(d, dtype=np.float64).ravel()
    al = a + c
    ual, inv = np.unique(al, return_inverse=True)
    with np.errstate(all="ignore"):
        top = -d * np.log1p(-s) * (1.0 - 1e-3)
        lam, t_star = _quad_rate(al, d, b, s, top)
        logs = []
        ok = (d > 0) & (lam > -0.5)
        for nodes in _QUAD_NODES:
            ux, uw = _gamma_gauss(ual, nodes)
            t = ux[inv] / (1.0 + lam[:, None])
            xd = t / d[:, None]
            log_h0, log_g, log_1mu = _log_h0(xd, al[:, None], b, s)
            log_h = log_h0 + lam[:, None] * t
            ok &= t[:, -1] < top
            mx = np.max(log_h, axis=1)
            logs.append(mx + np.log(np.sum(uw[inv] * np.exp(log_h - mx[:, None]), axis=1)))
        # the posterior's expectations from the last (24-node) rule's nodes
        if grad:
            x, wx = ux[inv], uw[inv]
            # h relative to its value at t*, where λ is matched (the law's mode; 0, where h = 1 and h - 1 = O(t²), when
            # the slope at 0 is kept): close to 1 where the law's mass is, however far h(t*) is from 1
            log_c = np.where(t_star > 0, _log_h0(np.maximum(t_star / d, 1e-300), al, b, s)[0] + lam * t_star, 0.0)
            h = np.exp(log_h - log_c[:, None])
            hm1 = np.expm1(log_h - log_c[:, None])
            big_h = np.sum(wx * h, axis=1)
            post = wx * h / big_h[:, None]
            psi_al = special.digamma(al)
            e_logx = psi_al + np.sum(wx * hm1 * (np.log(x) - psi_al[:, None]), axis=1) / big_h
            e_x_excess = np.sum(wx * hm1 * (x - al[:, None]), axis=1) / big_h  # E_π[X] - (a + c)
            e_logg = np.sum(post * log_g, axis=1)
            e_log1mu = np.sum(post * log_1mu, axis=1)
            e_curv = np.sum(post * _expm1_minus_x(xd), axis=1)
            psi_ab = special.digamma(a + b)
            d_a = e_logx - np.log1p(lam) - np.log(s * d) + e_logg - special.digamma(a) + psi_ab
            d_b = e_log1mu - special.digamma(b) + psi_ab
            d_s = (c * lam - a - e_x_excess) / (s * (1.0 + lam)) - d * e_curv / s
            gr = np.stack([d_a, d_b, d_s], axis=-1)
        # Γ(a + c)/B(a, b) = [Γ(a + c)/Γ(a)]·[Γ(a + b)/Γ(b)]: two log rising factorials without cancellation (scipy's
        # betaln(0.5, 200) alone is 5.7e-14 off)
        res = (c * np.log(s) + _log_rising(a, c) + _log_rising(b, np.full(c.size, a)) - al * np.log(s * d)
               - al * np.log1p(lam) + logs[1])
        ok &= np.isfinite(res) & (np.abs(logs[1] - logs[0]) <= 64.0 * np.finfo(float).eps * np.maximum(np.abs(res), 1.0))
    if grad:
        return res, gr, ok & np.all(np.isfinite(gr), axis=1)
    return res, ok


def _scaled_log_moment(c: np.ndarray, d: np.ndarray, a: float, b: float, s: float, grad: bool = False,
                       quad: bool = True) -> Any:
    r"""log E[p^c (1-p)^d] for p = s·u, u ~ Beta(a, b), 0 < s < 1.

    .. math:: M = s^c \frac{B(a+c, b)}{B(a, b)} (1-s)^d
              \sum_{j=0}^{d} \binom{d}{j} \frac{(b)_j}{(a+b+c)_j} \Bigl(\frac{s}{1-s}\Bigr)^j

    (Pfaff's transformation of :math:`{}_2F_1(-d, a+c; a+b+c; s)`), a sum of *positive*
    terms, so there is no cancellation. The terms form a unimodal sequence; only a window
    of ±(12 standard deviations + 30) around the largest term is summed, which keeps the
    cost O(sqrt(d)) per pair for d up to 10^7 (the dropped terms are below e^-70 relative).
    For b < 1 the standard deviation is at least sqrt(d·cc/(d + cc)), the scale of the
    tail after a peak at the boundary (the sequence is not log-concave there).

    Where the window would hold more than ``_QUAD_FROM_TERMS`` terms (large d: O(sqrt(d)) terms, 10⁸ and more at
    K = 10¹⁵) and ``quad`` is true, the value comes from :func:`_scaled_log_moment_quad` where that holds, and with
    ``grad`` its derivatives too: the same rule, per (c, d), with or without ``grad`` (the fit's value and gradient
    agree).

    With ``grad=True`` also returns the derivatives of log M with respect to (a, b, s), shape
    ``c.shape + (3,)``: the prefactor's in closed form (digamma) plus the term-weighted means
    of each term's log-derivative, :math:`\partial \log\sum_j t_j = \sum_j (t_j/\sum t)\,\partial \log t_j`.
    """
    c = np.asarray(c, dtype=np.float64)
    d = np.asarray(d, dtype=np.float64)
    c, d = np.broadcast_arrays(c, d)
    shape = c.shape
    flat_c, flat_d = c.ravel(), d.ravel()
    lo, hi = _scaled_window(flat_c, flat_d, a, b, s, strict=False)
    by_quad = np.zeros(0, dtype=np.int64)
    quad_vals = np.zeros(0)
    quad_grads = np.zeros((0, 3))
    if quad:
        long = np.flatnonzero(hi - lo + 1.0 > _QUAD_FROM_TERMS)
        if long.size:
            if grad:
                vals, grads, ok = _scaled_log_moment_quad(flat_c[long], flat_d[long], a, b, s, grad=True)
                quad_grads = grads[ok]
            else:
                vals, ok = _scaled_log_moment_quad(flat_c[long], flat_d[long], a, b, s)
            by_quad, quad_vals = long[ok], vals[ok]
            if by_quad.size:
                keep = np.ones(flat_c.size, dtype=bool)
                keep[by_quad] = False
                flat_c, flat_d, lo, hi = flat_c[keep], flat_d[keep], lo[keep], hi[keep]
    _check_window_terms(flat_c, flat_d, lo, hi, a, b, s)
    z = s / (1.0 - s)
    cc = a + b + flat_c
    lens = (hi - lo + 1).astype(np.int64)
    out = np.empty(flat_c.size)
    mean_j = np.empty(flat_c.size) if grad else out
    mean_pb = np.empty(flat_c.size) if grad else out  # E_w[psi(b + j)]
    mean_pc = np.empty(flat_c.size) if grad else out  # E_w[psi(cc + j)]
    # ragged evaluation in chunks of about 2^16 terms: each pass over a chunk's arrays (0.5 MB each) stays in
    # the processor's cache; with 2^21 (16 MB arrays) the same 8.5 million terms took 1.6 times as long
    # (0.27 against 0.16 s without gradient, 0.54 against 0.35 s with, shared 2-core machine)
    bounds = np.cumsum(lens)
    start = 0
    limit = 1 << 16
    while start < flat_c.size:
        base = bounds[start - 1] if start else 0
        stop = max(int(np.searchsorted(bounds, base + limit, side="right")), start + 1)
        idx = np.arange(start, stop)
        ln = lens[idx]
        seg = np.repeat(np.arange(idx.size), ln)
        offs = np.cumsum(ln) - ln
        local = np.arange(seg.size) - np.repeat(offs, ln)
        j = lo[idx][seg] + local
        dd = flat_d[idx][seg]
        ccs = cc[idx][seg]
        # log t_j - log t_lo as a running sum of log(t_j / t_{j-1}) (one log per term instead of
        # eight lgamma, whose large values also cancel to ~1e-12 here); t_lo itself exactly once
        jm = j - 1.0
        start_of = local == 0
        step = _pfaff_log_steps(j, dd, ccs, b, z, start_of)
        logt = _segment_cumsum(step, offs, seg)
        l0, d0, c0 = lo[idx], flat_d[idx], cc[idx]
        log_lo = (special.gammaln(d0 + 1) - special.gammaln(l0 + 1) - special.gammaln(d0 - l0 + 1)
                  + special.gammaln(b + l0) - special.gammaln(b) - special.gammaln(c0 + l0)
                  + special.gammaln(c0) + l0 * np.log(z))
        mx = np.maximum.reduceat(logt, offs)
        wt = np.exp(logt - mx[seg])
        ssum = np.add.reduceat(wt, offs)
        out[idx] = log_lo + mx + np.log(ssum)
        if grad:
            # ψ(x + j) = ψ(x + lo) + Σ_{lo<i<=j} 1/(x + i - 1), so with the tail weights T_i = Σ_{j>=i} w_j,
            # Σ_j w_j ψ(x + j) = ψ(x + lo)·Σ w + Σ_{i>lo} T_i/(x + i - 1): one running sum (of the weights,
            # T_i = Σ w - Σ_{lo<=j<i} w_j) serves both x = b and x = cc
            prev_w = np.empty_like(wt)
            prev_w[1:] = wt[:-1]
            prev_w[start_of] = 0.0
            tail = ssum[seg] - _segment_cumsum(prev_w, offs, seg)
            mean_j[idx] = np.add.reduceat(wt * j, offs) / ssum
            with np.errstate(divide="ignore", invalid="ignore"):
                for mean, x, x0 in ((mean_pb, b, b + l0), (mean_pc, ccs, c0 + l0)):
                    q = tail / (x + jm)
                    q[start_of] = 0.0  # no step into a window's first term (x + lo - 1 may be 0 there)
                    mean[idx] = special.digamma(x0) + np.add.reduceat(q, offs) / ssum
        start = stop
    res = (
        flat_c * np.log(s)
        + special.betaln(a + flat_c, b)
        - special.betaln(a, b)
        + flat_d * np.log1p(-s)
        + out
    )
    res = _interleaved(by_quad, quad_vals, res)
    if not grad:
        return res.reshape(shape)
    psi = special.digamma
    common = psi(a + b) - psi(cc)  # from B(a+c, b)/B(a, b); the terms' lgamma(cc) adds +psi(cc) below
    d_a = psi(a + flat_c) - psi(a) + common + psi(cc) - mean_pc
    d_b = common + mean_pb - psi(b) + psi(cc) - mean_pc
    d_s = flat_c / s - flat_d / (1.0 - s) + mean_j / (s * (1.0 - s))
    gr = _interleaved(by_quad, quad_grads, np.stack([d_a, d_b, d_s], axis=-1))
    return res.reshape(shape), gr.reshape(shape + (3,))


def _interleaved(at: np.ndarray, there: np.ndarray, elsewhere: np.ndarray) -> np.ndarray:
    """The rows ``there`` at positions ``at`` and ``elsewhere`` in the other positions, in order (the quadrature's
    values and the series' put back together in :func:`_scaled_log_moment`)."""
    if not at.size:
        return elsewhere
    out = np.empty((at.size + len(elsewhere),) + elsewhere.shape[1:])
    rest = np.ones(len(out), dtype=bool)
    rest[at] = False
    out[at], out[rest] = there, elsewhere
    return out


# ----------------------------------------------------------------------------------------
# the scaled Beta's posterior quantities as sums of positive terms (no differences of log moments)
# ----------------------------------------------------------------------------------------
# an exact evaluation below sums at most this many terms per value (Pfaff window × binomial window), above it the
# value keeps the difference of log moments (see ScaledBetaBinomial.posterior_pass_at_k)
_SCALED_EXACT_TERMS = 1 << 16
_SCALED_VAR_SERIES_BELOW = 1.0  # the within-component variance by its Jacobi series where Δ is below this
_SCALED_VAR_SERIES_MAX = 40  # terms of that series (it converges like Δ^r / r!)


def _ragged(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flat indices of the integer windows [lo, hi]: each term's window (seg), the windows' offsets, each term's
    index (lo + its place) and whether it is its window's first term."""
    lens = (hi - lo + 1).astype(np.int64)
    offs = np.cumsum(lens) - lens
    seg = np.repeat(np.arange(lens.size), lens)
    local = np.arange(seg.size) - offs[seg]
    return seg, offs, lo[seg] + local, local == 0


def _normalized(logt: np.ndarray, offs: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """exp(logt) divided by its sum over each window (logt known up to a constant per window)."""
    wt = np.exp(logt - np.maximum.reduceat(logt, offs)[seg])
    return wt / np.add.reduceat(wt, offs)[seg]


def _binomial_window(k: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The indices i of Binomial(k, s) kept: ks ± (16σ + 55), σ² = ks(1−s), within [0, k]. By Bernstein's
    inequality, P(|I − ks| > t) <= 2 exp(−t²/(2(σ² + t/3))), and t²/(2(σ² + t/3)) >= 82 at t = 16σ + 55 for
    every σ (82.5 at σ = 0, 128 as σ grows): the mass left out is below 2e^-82 = 4e-36."""
    mean = k * s
    half = 16.0 * np.sqrt(mean * (1.0 - s)) + 55.0
    return np.maximum(np.floor(mean - half), 0.0), np.minimum(np.ceil(mean + half), k)


def _binomial_weights(k: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Binomial(k, s)'s probabilities for each k of a 1-d array of distinct integers: the window [lo, hi] of
    :func:`_binomial_window` trimmed to the terms within e^-70 of the largest (``_WINDOW_DROP``; the pmf is
    log-concave, so the trimmed part is contiguous and what lies beyond an edge is at most its term times
    ρ/(1−ρ), ρ < 1 the ratio of the next term to it), the weights as running products of their ratios
    (k−i+1)s/(i(1−s)) normalized by their sum, and each k's offset into them."""
    lo, hi = _binomial_window(k, s)
    seg, offs, i, first = _ragged(lo, hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log((k[seg] - i + 1.0) * s / (i * (1.0 - s)))
    step[first] = 0.0
    logw = _segment_cumsum(step, offs, seg)
    keep = logw >= np.maximum.reduceat(logw, offs)[seg] - _WINDOW_DROP
    seg, i, logw = seg[keep], i[keep], logw[keep]
    offs = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    return i[offs], i[np.r_[offs[1:], seg.size] - 1], _normalized(logw, offs, seg), offs


def _scaled_fail_rows(A: np.ndarray, B: np.ndarray, k: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    r"""log E[(1−su)^k] and 1 − E[(1−su)^k] for u ~ Beta(A, B), row by row (integer k >= 0), as sums of positive terms.

    With I ~ Binomial(k, s), :math:`(1-su)^k = \sum_i \binom{k}{i} s^i (1-s)^{k-i} (1-u)^i`, so

    .. math:: E[(1-su)^k] = \sum_i P(I=i)\,R(i), \qquad 1 - E[(1-su)^k] = \sum_i P(I = i)\,(1 - R(i)),
              \qquad R(i) = E[(1-u)^i] = \frac{(B)_i}{(A+B)_i},

    over the binomial weights of :func:`_binomial_weights` (once per distinct k). log R at the window's first i is
    the Beta's exact log moment (:func:`_beta_log_moment`) and then a running sum of log1p(−A/(A+B+i−1)), terms of
    one sign. So 1 − R(i) = −expm1(log R(i)) keeps its digits however small it is (pass@1 = sA/(A+B) at A ≪ B),
    where 1 − exp of the Pfaff series' log moment loses those of the series' large prefactors.
    """
    uk, inv = np.unique(k, return_inverse=True)
    ulo, uhi, uw, uoff = _binomial_weights(uk, s)
    lo, hi, woff = ulo[inv], uhi[inv], uoff[inv]
    out_log, out_pass = np.empty(A.size), np.empty(A.size)
    bounds = np.cumsum(hi - lo + 1.0)
    start = 0
    while start < A.size:  # chunks of about 2^18 terms
        base = bounds[start - 1] if start else 0.0
        stop = max(int(np.searchsorted(bounds, base + (1 << 18), side="right")), start + 1)
        sl = slice(start, stop)
        seg, offs, i, first = _ragged(lo[sl], hi[sl])
        aa = A[sl][seg]
        wb = uw[woff[sl][seg] + (i - lo[sl][seg]).astype(np.int64)]
        with np.errstate(divide="ignore", invalid="ignore"):
            step = np.log1p(-aa / (aa + B[sl][seg] + (i - 1.0)))
            step[first] = 0.0
            L = _beta_log_moment(0.0, lo[sl], A[sl], B[sl])[seg] + _segment_cumsum(step, offs, seg)
            out_pass[sl] = np.add.reduceat(wb * -np.expm1(L), offs)
            top = np.maximum.reduceat(L, offs)
            out_log[sl] = top + np.log(np.add.reduceat(wb * np.exp(L - top[seg]), offs))
        start = stop
    return out_log, out_pass


def _pfaff_log_steps(j: np.ndarray, d: np.ndarray, cc: np.ndarray, b: float, z: float,
                     first: np.ndarray) -> np.ndarray:
    """log(t_j / t_{j−1}) of the Pfaff series of :func:`_scaled_log_moment` (0 at each window's first term)."""
    jm = j - 1.0
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log((d - jm) * (b + jm) * z / (j * (cc + jm)))
    step[first] = 0.0
    return step


def _scaled_var_series(A: np.ndarray, B: np.ndarray, k: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Var[(1−su)^k] for u ~ Beta(A, B) (rows, integer k >= 1) as a series of positive terms.

    For f smooth and u ~ Beta(A, B), expanding f in the Jacobi polynomials orthogonal under Beta(A, B) (Rodrigues'
    formula, integrated by parts r times) gives

    .. math:: \mathrm{Var}\,f(u) = \sum_{r\ge1} \frac{B(A+r, B+r)}{B(A, B)\; r!\,(A+B+r-1)_r}
              \Bigl(E_{\mathrm{Beta}(A+r, B+r)}\bigl[f^{(r)}(u)\bigr]\Bigr)^2

    (r = 1: Var u·(E f')²), and for f(u) = (1−su)^k, :math:`f^{(r)} = (-s)^r (k-r+1)_r (1-su)^{k-r}`: each term is
    a square of a failure moment of the shifted Beta (:func:`_scaled_fail_rows`), the series ends at r = k. Its
    terms fall about like Δ^r/r! (Δ = log E[f²] − 2 log E[f]), so where Δ < ``_SCALED_VAR_SERIES_BELOW`` it is
    summed until a term adds less than 2^-60 of the sum (at most ``_SCALED_VAR_SERIES_MAX`` terms), where
    E[f²] − E[f]² would lose the digits of 1/Δ. Returns the sums and whether each converged (the terms fall
    more slowly where u's left tail is heavy: a = 0.1, k = 1165, Δ = 0.62 needs more than 40).
    """
    total = np.zeros(A.size)
    active = np.ones(A.size, dtype=bool)
    for r in range(1, _SCALED_VAR_SERIES_MAX + 1):
        act = np.flatnonzero(active & (k >= r))
        if not act.size:
            break
        a_r, b_r, k_r = A[act], B[act], k[act]
        lm, _ = _scaled_fail_rows(a_r + r, b_r + r, k_r - r, s)
        log_t = (_beta_log_moment(float(r), float(r), a_r, b_r) - special.gammaln(r + 1.0)
                 - _log_rising(a_r + b_r + (r - 1.0), float(r)) + 2.0 * r * np.log(s)
                 + 2.0 * _log_rising(k_r - (r - 1.0), float(r)) + 2.0 * lm)
        t = np.exp(log_t)
        total[act] += t
        active[act[(t <= 2.0**-60 * total[act]) | (k_r == r)]] = False
    return total, ~active


def _scaled_posterior(c: np.ndarray, d: np.ndarray, k: np.ndarray, a: float, b: float, s: float,
                      window: tuple[np.ndarray, np.ndarray], var: bool = False) -> Any:
    r"""Posterior pass@k (and, with ``var``, Var[(1−p)^k], E[(1−p)^k], E[(1−p)^{2k}]) of observed problems under the
    scaled Beta, for flat arrays c, d = n − c and integer k, as sums of positive terms.

    Given (c, d), u = p/s has density ∝ u^{a+c−1}(1−u)^{b−1}(1−su)^d, and the binomial expansion of
    (1−su)^d = ((1−s) + s(1−u))^d makes it the mixture over j = 0..d of Beta(a + c, b + j) with weights ∝ the
    Pfaff series' terms :math:`t_j` (:func:`_scaled_log_moment`; summed over ``window``, its window for (c, d)),
    normalized by their sum, so that the series' large common factors (log Γ of n, (1−s)^d) never enter. Each
    component's pass@k and failure moments are those of a scaled Beta (:func:`_scaled_fail_rows`), and

    .. math:: \mathrm{pass@}k = \sum_j w_j \pi_j, \qquad
              \mathrm{Var} = \sum_j w_j V_j + \sum_j w_j (\pi_j - \overline{\pi})^2,

    V_j = M_j(0, k)²·expm1(Δ_j), Δ_j = log M_j(0, 2k) − 2 log M_j(0, k), or where Δ_j < 1 the series of
    :func:`_scaled_var_series`. Cost: (Pfaff window) × (binomial window) terms per value, two and up to
    ~ten times that with ``var``.
    """
    z = s / (1.0 - s)
    lo, hi = window
    seg, offs, j, first = _ragged(lo, hi)
    with np.errstate(all="ignore"):
        logt = _segment_cumsum(_pfaff_log_steps(j, d[seg], a + b + c[seg], b, z, first), offs, seg)
        # components below e^-70 of the largest are left out (together below the window's length times that)
        keep = logt >= np.maximum.reduceat(logt, offs)[seg] - _WINDOW_DROP
        seg, j, logt = seg[keep], j[keep], logt[keep]
        offs = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
        w = _normalized(logt, offs, seg)
        A, B, kr = a + c[seg], b + j, k[seg]
        lm1, pi = _scaled_fail_rows(A, B, kr, s)
        mean = np.add.reduceat(w * pi, offs)
        if not var:
            return mean
        lm2, _ = _scaled_fail_rows(A, B, 2.0 * kr, s)
        disp = np.maximum(lm2 - 2.0 * lm1, 0.0)
        within = np.exp(2.0 * lm1) * np.expm1(disp)
        small = np.flatnonzero(disp < _SCALED_VAR_SERIES_BELOW)
        if small.size:
            series, done = _scaled_var_series(A[small], B[small], kr[small], s)
            within[small[done]] = series[done]
        fail = np.exp(lm1)
        m1 = np.add.reduceat(w * fail, offs)
        # the components' spread as differences of whichever of pass@k and its complement is smaller (each is
        # exact to ~1e-16 of itself, so their differences are exact to ~1e-16 of the smaller)
        spread = np.where((mean <= m1)[seg], pi - mean[seg], fail - m1[seg])
        total = np.add.reduceat(w * within, offs) + np.add.reduceat(w * spread**2, offs)
        return mean, total, m1, np.add.reduceat(w * np.exp(lm2), offs)

# ----------------------------------------------------------------------------------------
# the scaled Beta's likelihood by whole rows (the fit's fast path)
# ----------------------------------------------------------------------------------------
def _scaled_row_ratios(N: int, a: float, b: float, s: float) -> np.ndarray:
    r"""The ratios :math:`r_c = M(c+1)/M(c)` of one row, :math:`M(c) = E[p^c (1-p)^{N-c}]`, at c = N-1-t for t = 0..N-1.

    The backward recurrence of :func:`_scaled_log_moment_rows`,
    :math:`r_c = (a+c)s / D_t`, :math:`D_t = (a+c)(1-s) + b + ts - t(1-s)\,r_{c+1}` with t = N-1-c,
    the same floating-point operations in the same order, in scalar floats: for one N a Python loop
    (about 0.2 µs a step) is about 25 times faster than the same step on numpy arrays of length 1.
    """
    oms = 1.0 - s
    out = [0.0] * N
    r = 0.0
    top = a + N - 1.0  # a + c at t = 0
    for t in range(N):
        ac = top - t
        r = ac * s / (ac * oms + (b + t * s) - (t * oms) * r)
        out[t] = r
    return np.array(out)


@dataclass
class _ScaledRow:
    """The distinct pairs of one n that the fit evaluates as a whole row (see :func:`_scaled_rows_loglik`)."""

    N: int
    c: np.ndarray  # the pairs' counts, int64
    w: np.ndarray  # their weights
    kappa: np.ndarray  # weight of log r at t = N-1-c' (t order), see _scaled_row
    w_lo: float  # weight of the anchor at c = 0 (every pair with c <= N // 2)
    w_hi: float  # weight of the anchor at c = N (every pair with c > N // 2)
    lockstep: bool = False  # evaluated with other rows in lockstep (_RowBlock) where the caller passes the blocks


class _Rows(list):  # type: ignore[type-arg]
    """The rows of a fit's plan (:meth:`ScaledBetaBinomial._plan`) and the lockstep blocks of those marked so."""

    blocks: list[_RowBlock] | None = None


def _scaled_row(N: int, c: np.ndarray, w: np.ndarray) -> _ScaledRow:
    r"""The weights of one row's log-ratios in :math:`\sum_c w_c \log M(c)`.

    As in :func:`_scaled_log_moment_rows`, :math:`\log M(c) = \log M(0) + \sum_{c'<c} \log r_{c'}` for
    c <= h = N // 2 and :math:`\log M(N) - \sum_{c' \ge c} \log r_{c'}` above, so

    .. math:: \sum_c w_c \log M(c) = W_{lo} \log M(0) + W_{hi} \log M(N) + \sum_{c'} \kappa_{c'} \log r_{c'},

    :math:`\kappa_{c'} = \sum_{c'<c\le h} w_c` for c' < h, :math:`-\sum_{h<c\le c'} w_c` for c' > h, 0 at h.
    """
    h = N // 2
    wf = np.bincount(c, weights=w, minlength=N + 1)
    cum = np.cumsum(wf[:h + 1])
    kappa = np.zeros(N)
    kappa[:h] = cum[h] - cum[:h]
    kappa[h + 1:] = -np.cumsum(wf[h + 1:N])
    return _ScaledRow(N, c, w, kappa[::-1].copy(), float(cum[h]), float(wf[h + 1:].sum()))


@dataclass
class _RowBlock:
    """Rows of :func:`_scaled_rows_loglik` advanced in lockstep: columns by N descending, t down the array.

    ``kappa`` (top × rows) holds each row's log-ratio weights (t order), 0 past its N; ``valid`` marks t < N;
    ``active[t]`` is the number of columns with N > t (a prefix, as the columns are sorted). ``at``, ``c``, ``d``
    and ``w`` are the block's pairs: the flat index of each one's r_c in the ratios (t = N − 1 − c), or of the
    appended 0 where c = N, and its counts and weight (for the derivative in s)."""

    N: np.ndarray
    active: list[int]
    kappa: np.ndarray
    valid: np.ndarray
    at: np.ndarray
    c: np.ndarray
    d: np.ndarray
    w: np.ndarray


def _row_blocks(rows: list[_ScaledRow], budget: int | None = None) -> list[_RowBlock]:
    """:class:`_RowBlock` s of the ``rows`` marked ``lockstep``, each of at most about ``budget`` cells (by default
    ``_LOCKSTEP_BUDGET``; longest rows first)."""
    budget = _LOCKSTEP_BUDGET if budget is None else budget
    order = sorted((r for r in rows if r.lockstep), key=lambda r: -r.N)
    blocks = []
    start = 0
    while start < len(order):
        top = order[start].N
        size = max(1, min(len(order) - start, budget // top))
        part = order[start:start + size]
        N = np.array([r.N for r in part], dtype=np.int64)
        kappa = np.zeros((top, size))
        for j, r in enumerate(part):
            kappa[:r.N, j] = r.kappa
        valid = np.arange(top)[:, None] < N[None, :]
        active = np.searchsorted(-N, -np.arange(top), side="left").tolist()
        col = np.concatenate([np.full(r.c.size, j) for j, r in enumerate(part)])
        c = np.concatenate([r.c for r in part])
        Nc = N[col]
        at = np.where(c < Nc, (Nc - 1 - c) * size + col, top * size)
        blocks.append(_RowBlock(N.astype(np.float64), active, kappa, valid, at, c.astype(np.float64),
                                (Nc - c).astype(np.float64), np.concatenate([r.w for r in part])))
        start += size
    return blocks


_LOCKSTEP_CHUNK = 1 << 15  # cells of the steps t taken together in a block's elementwise work (256 KB a temporary)


def _block_loglik(blk: _RowBlock, a: float, b: float, s: float, grad: bool) -> tuple[float, np.ndarray]:
    """Σ κ log r over one :class:`_RowBlock` and, with ``grad``, its derivatives in (a, b, s) (the pairs' s-identity
    included), as :func:`_scaled_rows_loglik` takes them row by row: the same operations on each cell in the same
    order (the ratios are equal to the bit), only the sums' order differs.

    One numpy call per operation and step t for every row still running (``active``); the elementwise work around
    the recurrences (their coefficients, the logarithms, the adjoint's coefficients and the gradient's sums) is done
    for ``_LOCKSTEP_CHUNK`` cells of consecutive t at a time, whose temporaries stay in the processor's cache: over
    the whole block (a dozen arrays of 10^6 cells at 10^5 problems) it cost more than the recurrences."""
    top, R = blk.kappa.shape
    oms = 1.0 - s
    first = a + blk.N - 1.0  # a + c at t = 0, per row
    step = max(1, _LOCKSTEP_CHUNK // R)
    ratios = np.empty((top + 1, R))  # r at t = N - 1 - c; 1 past a row's N (log 1 = 0); a last row of 0 (r_N)
    ratios[top] = 0.0
    tmp = np.empty(R)
    value = 0.0
    for i0 in range(0, top, step):
        i1 = min(top, i0 + step)
        t = np.arange(i0, i1, dtype=np.float64)[:, None]
        ac = first - t
        num = ac * s
        base = ac * oms + (b + t * s)
        for i in range(i0, i1):
            k = blk.active[i]
            if i == 0:  # no r_{c+1} term
                np.divide(num[0, :k], base[0, :k], out=ratios[0, :k])
            else:
                u = tmp[:k]
                np.multiply(ratios[i - 1, :k], i * oms, out=u)
                np.subtract(base[i - i0, :k], u, out=u)
                np.divide(num[i - i0, :k], u, out=ratios[i, :k])
            ratios[i, k:] = 1.0
        value += float(blk.kappa[i0:i1].ravel() @ np.log(ratios[i0:i1]).ravel())
    g = np.zeros(3)
    if not grad:
        return value, g
    # the adjoint λ_t = κ_t + β_{t+1} λ_{t+1}, backward over the chunks; β and λ of the step above a chunk carried
    beta_up, lam_up = np.zeros(R), np.zeros(R)
    for i0 in reversed(range(0, top, step)):
        i1 = min(top, i0 + step)
        t = np.arange(i0, i1, dtype=np.float64)[:, None]
        ac = first - t
        prev = ratios[i0 - 1:i1 - 1] if i0 else np.vstack([np.zeros((1, R)), ratios[:i1 - 1]])  # r_{t-1}
        den = ac * oms + (b + t * s) - (t * oms) * prev
        valid = blk.valid[i0:i1]
        beta = np.where(valid, (t * oms) * prev / den, 0.0)
        lam = np.empty((i1 - i0, R))
        for i in range(i1 - 1, i0 - 1, -1):
            k = blk.active[i]
            above = i + 1 - i0
            u = tmp[:k]
            if above < i1 - i0:
                np.multiply(beta[above, :k], lam[above, :k], out=u)
            else:
                np.multiply(beta_up[:k], lam_up[:k], out=u)
            np.add(blk.kappa[i, :k], u, out=lam[i - i0, :k])
            lam[i - i0, k:] = 0.0
        beta_up, lam_up = beta[0], lam[0]
        lam_v = lam.ravel()
        g[0] += float(lam_v @ np.where(valid, 1.0 / ac - oms / den, 0.0).ravel())
        g[1] -= float(lam_v @ np.where(valid, 1.0 / den, 0.0).ravel())
    rc = ratios.ravel()[blk.at]
    g[2] = float(blk.w @ ((blk.c - blk.d * rc) / s))
    return value, g


def _scaled_rows_loglik(rows: list[_ScaledRow], a: float, b: float, s: float, grad: bool = False,
                        blocks: list[_RowBlock] | None = None) -> Any:
    r""":math:`\sum w \log M(c, N-c)` over the pairs of ``rows``, each n as one whole row (O(N) per distinct n).

    The value is :func:`_scaled_row`'s sum: the anchors :math:`\log M(0) = \log M(0, N)` by the Pfaff series
    (:func:`_scaled_log_moment`, one pair per n) and :math:`\log M(N) = N\log s + \log B(a+N, b) - \log B(a, b)`,
    and the log-ratios from :func:`_scaled_row_ratios`. It equals the series pair by pair to about 1e-15
    relative, at O(N) per distinct n instead of O(sqrt(N)) per distinct pair.

    With ``grad=True`` also the derivatives in (a, b, s). In s, by differentiating under the integral,
    :math:`\partial_s M(c, d) = (c M(c, d) - d M(c+1, d-1))/s`, so
    :math:`\partial_s \log M(c) = (c - (N-c)\,r_c)/s` exactly, from the ratios alone (unlike the series'
    :math:`c/s - d/(1-s) + \bar\jmath/(s(1-s))`, no cancellation as s -> 1). In a and b, the recurrence
    :math:`r_t = (a+c)s/D_t` differentiated gives, for :math:`g_t = \partial\log r_t`,

    .. math:: g_t = \alpha_t + \beta_t g_{t-1}, \quad \beta_t = t(1-s)\,r_{t-1}/D_t, \quad
              \alpha^a_t = \frac{1}{a+c} - \frac{1-s}{D_t}, \quad \alpha^b_t = -\frac{1}{D_t}

    (:math:`g_{-1} = 0`), and the weighted sum :math:`\sum_t \kappa_t g_t = \sum_t \lambda_t \alpha_t` with the
    adjoint :math:`\lambda_t = \kappa_t + \beta_{t+1}\lambda_{t+1}` (backward in t): one scalar recurrence for
    both parameters. The anchors' derivatives are the series' (c = 0) and digamma differences (c = N).
    """
    if not rows:
        return (0.0, np.zeros(3)) if grad else 0.0
    Ns = np.array([row.N for row in rows], dtype=np.float64)
    w_lo = np.array([row.w_lo for row in rows])
    w_hi = np.array([row.w_hi for row in rows])
    zero = np.zeros(Ns.size)
    lm_top = Ns * np.log(s) + _beta_log_moment(Ns, zero, a, b)
    if grad:
        lm_zero, g_zero = _scaled_log_moment(zero, Ns, a, b, s, grad=True)
    else:
        lm_zero = _scaled_log_moment(zero, Ns, a, b, s)
    value = float(w_lo @ lm_zero + w_hi @ lm_top)
    g = np.zeros(3)
    oms = 1.0 - s
    for blk in blocks or ():
        v, gb = _block_loglik(blk, a, b, s, grad)
        value += v
        g += gb
    for row in rows:
        if blocks is not None and row.lockstep:
            continue
        N = row.N
        r = _scaled_row_ratios(N, a, b, s)
        value += float(row.kappa @ np.log(r))
        if not grad:
            continue
        t = np.arange(N, dtype=np.float64)
        ac = (a + N - 1.0) - t
        prev = np.empty(N)  # r_{t-1}, 0 before the start
        prev[0] = 0.0
        prev[1:] = r[:-1]
        den = ac * oms + (b + t * s) - (t * oms) * prev
        beta_next = np.zeros(N)  # beta_{t+1}
        beta_next[:-1] = (t[1:] * oms) * prev[1:] / den[1:]
        kap, bn = row.kappa.tolist(), beta_next.tolist()
        lam = [0.0] * N
        acc = 0.0
        for i in range(N - 1, -1, -1):
            acc = kap[i] + bn[i] * acc
            lam[i] = acc
        lam_a = np.array(lam)
        g[0] += float(lam_a @ (1.0 / ac - oms / den))
        g[1] -= float(lam_a @ (1.0 / den))
        rc = np.append(r[::-1], 0.0)[row.c]  # r_c at each pair's c (r_N = 0: no d there)
        g[2] += float(row.w @ ((row.c - (N - row.c) * rc) / s))
    if not grad:
        return value
    g_top_b = -_digamma_diff(a + b, Ns)
    g[0] += float(w_lo @ g_zero[:, 0] + w_hi @ (_digamma_diff(a, Ns) + g_top_b))
    g[1] += float(w_lo @ g_zero[:, 1] + w_hi @ g_top_b)
    # s: the identity above covers every pair, anchors included (at c = 0 and c = N it is exact too)
    return value, g


# ----------------------------------------------------------------------------------------
# numerical helpers
# ----------------------------------------------------------------------------------------
# Relative precision of the observed information: differences of an analytic gradient carry ~1e-8 relative noise
# (:func:`_grad_hessian`), so a curvature below this fraction of the largest cannot be told from zero.
_INFORMATION_RTOL = 1e-8


def _inverse_information(H: np.ndarray, rtol: float = 0.0) -> np.ndarray | None:
    """H⁻¹ when it is a usable covariance (finite, non-negative diagonal), else None.

    With ``rtol > 0``, H must also be positive definite to that relative precision: every eigenvalue above
    ``rtol`` times the largest. A flatter direction is not identified by the data, and H⁻¹ along it is rounding
    noise (three problems at 1, 2, 3 of 20 send a Beta mixture's concentrations to ~1e61, whose 'standard errors'
    came out as 1e69)."""
    if rtol > 0:
        if not np.all(np.isfinite(H)):
            return None
        ev = np.linalg.eigvalsh(0.5 * (H + H.T))
        if ev[-1] <= 0 or ev[0] <= rtol * ev[-1]:
            return None
    try:
        cov = np.linalg.inv(H)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) < 0):
        return None
    return cov


def _num_hessian(f: Any, x: np.ndarray, eps: float = 1e-4) -> np.ndarray:
    """Central-difference Hessian of a scalar function."""
    k = x.size
    h = np.empty((k, k))
    step = eps * np.maximum(1.0, np.abs(x))
    f0 = f(x)
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = step[i]
        h[i, i] = (f(x + ei) - 2 * f0 + f(x - ei)) / step[i] ** 2
        for j in range(i + 1, k):
            ej = np.zeros(k)
            ej[j] = step[j]
            v = (f(x + ei + ej) - f(x + ei - ej) - f(x - ei + ej) + f(x - ei - ej)) / (4 * step[i] * step[j])
            h[i, j] = h[j, i] = v
    return h


def _grad_hessian(g: Any, x: np.ndarray, eps: float = 1e-4) -> np.ndarray:
    """Hessian as central differences of an analytic gradient ``g``, symmetrised.

    The differences of a gradient computed to ~1e-12 carry ~1e-8 relative noise at steps of 1e-4, where second
    differences of the function itself divide its rounding by the step squared (1e-3 relative noise on Pythia's
    likelihoods, which moved standard errors in their third digit between two evaluations of the same law)."""
    k = x.size
    step = eps * np.maximum(1.0, np.abs(x))
    h = np.empty((k, k))
    for i in range(k):
        ei = np.zeros(k)
        ei[i] = step[i]
        h[:, i] = (np.asarray(g(x + ei), dtype=np.float64) - np.asarray(g(x - ei), dtype=np.float64)) / (2 * step[i])
    return 0.5 * (h + h.T)


def _num_jacobian(g: Any, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    y0 = np.asarray(g(x))
    J = np.empty((y0.size, x.size))
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = eps * max(1.0, abs(x[i]))
        J[:, i] = (np.asarray(g(x + e)) - np.asarray(g(x - e))) / (2 * e[i])
    return J


def _shown_value(name: str, params: Mapping[str, float], boundary: Collection[str]) -> float:
    """Parameter ``name``'s value as printed: a parameter at its bound (``boundary_``: a probability within 1e-6 of
    0 or 1) as that bound, as fit's table shows its P(p=0) ('impossible=1.561e-09 (at its bound)' sat beside a
    table reading 0 for it; ``params_`` keep the optimiser's value)."""
    v = float(params[name])
    return float(round(v)) if name in boundary else v


def _param_line_fmt(params: Mapping[str, float], se: Mapping[str, float], boundary: Collection[str] = (),
                    unidentified: Collection[str] = ()) -> tuple[Callable[[float], str], Callable[[float], str]]:
    """How one line of fitted parameters (``params`` with standard errors ``se``) writes its values and their
    standard errors (:func:`_params_line`): one notation for the line. Fixed point with 4 significant
    digits (3 for a standard error), as .4g wrote most of them; scientific for all of them
    (:func:`~passcurve._validation.number_format`'s, three significant digits) when fixed point would not do for
    some number, as for a table column (:func:`~passcurve._validation.notation`): one reaches 10⁵ or needs more
    than MAX_DECIMALS decimals. A span of decades alone does not switch (each value keeps its significant digits,
    unlike a column's shared decimals). Each value's own .4g had mixed 'beta2=2.112e+04±7.05e+04' with
    'alpha1=0.2727' in one line (pythia_math_counts.csv, Pythia 160M). The values judged are those shown
    (:func:`_shown_value`; none that is not identified) and the finite standard errors."""
    shown = [_shown_value(k, params, boundary) for k in params if k not in unidentified]
    vals = np.asarray(shown + [v for v in se.values() if np.isfinite(v)], dtype=float)
    big = bool(np.any(np.abs(vals[np.isfinite(vals)]) >= 1e5))
    if big or notation(vals)[0] > MAX_DECIMALS:
        sci = number_format(vals)
        return sci, sci

    def fixed(digits: int) -> Callable[[float], str]:
        return lambda v: np.format_float_positional(v, precision=digits, unique=False, fractional=False, trim="-")

    return fixed(4), fixed(3)


def _params_line(params: Mapping[str, float], se: Mapping[str, float], boundary: Collection[str] = (),
                 unidentified: Collection[str] = (), *, eq: str = "=", pm: str = " (±{})", minus: str = "-") -> str:
    """Fitted parameters as every text prints them (``summary``, ``passcurve fit``, ``passcurve rl-signal``, the
    report): ``name{eq}value`` and ``pm`` holding the standard error where there is one, else why not
    (" (at its bound)", " (not identified)", nothing for a parameter with none by design, as npmle's or where
    ``se`` is empty), comma-separated; the numbers in one notation for the line (:func:`_param_line_fmt`), with
    ``minus`` for their minus signs (the report's true '−').

    A parameter the data do not identify (``unidentified``) is shown "—": its fitted value is wherever the
    optimiser stopped on a flat likelihood (three under-dispersed problems put a mixture's alpha1 at 2.4e+61, a
    Beta's at 1.1e+07), not an estimate; ``params_`` and ``to_dict()["params"]`` keep it. A parameter at its bound
    is shown as that bound (:func:`_shown_value`)."""
    line_num, line_se = _param_line_fmt(params, se, boundary, unidentified)
    parts = []
    for k in params:
        value = "—" if k in unidentified else line_num(_shown_value(k, params, boundary)).replace("-", minus)
        s = se.get(k, np.nan)
        why = (pm.format(line_se(s).replace("-", minus)) if np.isfinite(s) else " (at its bound)" if k in boundary
               else " (not identified)" if k in unidentified else "")
        parts.append(f"{k}{eq}{value}{why}")
    return ", ".join(parts)


# ----------------------------------------------------------------------------------------
# bin masses of a mixture of (scaled) Betas at large n, by quadrature in p
# ----------------------------------------------------------------------------------------
_CC_M = 16  # Clenshaw–Curtis panels: 17 nodes, the 9 even ones an embedded rule for the error estimate
_BINS_RTOL = 1e-12  # a panel is split while its error estimate exceeds this share of a bin's mass
_BINS_TAIL = 745.0  # n·KL beyond which a binomial tail is below the smallest double (e^-745), taken as 0
_BINS_LINEAR_N = 1 << 30  # below it 1 - m's rounding is put back to first order, above the complement is computed
_BINS_MAX_SPLIT = 1 << 13  # more panels than this to split at once: the estimates are the kernels' rounding
_EDGE_STEPS = np.array([0.0, 1.5, 3.0, 5.0, 8.0, 13.0, 21.0, 38.0])  # breakpoints about an edge, in t units
_LAW_STEPS = np.array([0.0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16, 32, -32])  # and about the law's mean, in its sd
_END_NODES = 24  # Gauss–Jacobi nodes of an end panel


def _clenshaw_curtis(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Nodes cos(kπ/m), k = 0..m, on [-1, 1] and the Clenshaw–Curtis weights (Trefethen, "Is Gauss quadrature
    better than Clenshaw–Curtis?", SIAM Review 50 (2008), the weights' cosine sum), m even."""
    k = np.arange(m + 1)
    x = np.cos(np.pi * k / m)
    j = np.arange(1, m // 2 + 1)
    bj = np.where(j == m // 2, 1.0, 2.0)
    w = (1.0 - (bj / (4.0 * j * j - 1.0)) @ np.cos(2.0 * np.outer(j, k) * np.pi / m)) / m
    w *= np.where((k == 0) | (k == m), 1.0, 2.0)
    return x, w


_CC_X, _CC_W = _clenshaw_curtis(_CC_M)
_CC_W_HALF = np.zeros(_CC_M + 1)
_CC_W_HALF[::2] = _clenshaw_curtis(_CC_M // 2)[1]  # the embedded rule on the even nodes


@functools.lru_cache(maxsize=64)
def _jacobi_end_rule(exponent: float) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Jacobi nodes t in (-1, 1) and weights for the weight (1 + t)^exponent (the law's power at its end)."""
    t, w = special.roots_jacobi(_END_NODES, 0.0, exponent)
    return t, w


def _binomial_tails(e: np.ndarray, n: int, m: np.ndarray, at_p: np.ndarray,
                    cuts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """P(X < e) and P(X >= e), X ~ Binomial(n, p), for edges 1 <= e <= n (E,) at nodes (N,) given by m = min(p, 1 - p)
    (``at_p``: m is p), as (E, N) arrays, each tail to its last digits. ``cuts``: :func:`_edge_cuts` of e and n.

    The smaller tail (about: the side of e away from np) is the regularized incomplete beta function I_m(A, B) where
    that is its form; else 1 - I_m(A, B) = I_M(B, A) at M = 1 - m rounded, with the rounding r = (1 - m) - M put back
    to first order (r times the Beta(B, A) density at M; ~1e-8 relative error at n = 10^12 without it), so that only
    scipy's ``betainc`` is called (``betaincc``, boost's ibetac, costs four to five times as much at these A, B). From
    n = 2^30 on r·n is no longer small and that form is ``betaincc(A, B, m)``. The other tail is 1 minus the smaller,
    unless the guess was wrong (the smaller above 1/2, near the median), where both are computed. Exactly 0 and 1 where
    the Chernoff bound exp(-n KL) of the smaller tail is below the smallest double (e^-745).
    """
    E = e[:, None].astype(np.float64)
    below = np.ones((e.size, m.size))  # P(X < e)
    above = np.zeros((e.size, m.size))  # P(X >= e)
    p = np.where(at_p, m, 1.0 - m)
    q = np.where(at_p, 1.0 - m, m)
    cut_p, cut_q, lbeta = cuts
    gone_dn = q < cut_q[:, None]  # P(X < e) < e^-745
    below[gone_dn] = 0.0
    above[gone_dn] = 1.0
    ev = ~((p < cut_p[:, None]) | gone_dn)
    if not ev.any():
        return below, above
    ei, ni = np.nonzero(ev)
    ee, mm, ap = E[ei, 0], m[ni], at_p[ni]
    lm, lM = np.log(mm), np.log1p(-mm)
    # I_m(A, B) is P(X >= e) = I_p(e, n - e + 1) where m = p, P(X < e) = I_q(n - e + 1, e) where m = q
    A, B = np.where(ap, ee, n - ee + 1.0), np.where(ap, n - ee + 1.0, ee)
    pp = np.where(ap, mm, 1.0 - mm)
    at_m = (ee > n * pp) == ap  # the smaller tail is I_m(A, B) (else 1 - I_m(A, B) = I_M(B, A))
    M = 1.0 - mm
    r = (1.0 - M) - mm  # exact (Sterbenz)

    def tail_m(k: np.ndarray) -> np.ndarray:
        v = special.betainc(A[k], B[k], mm[k])
        lost = np.isnan(v)  # (as tail_M's)
        v[lost] = 1.0 - special.betaincc(A[k][lost], B[k][lost], mm[k][lost])
        return v

    def tail_M(k: np.ndarray) -> np.ndarray:
        if n >= _BINS_LINEAR_N:  # r·(its slope, up to 2n) is not small: 1 - I_m(A, B) by betaincc
            v = special.betaincc(A[k], B[k], mm[k])
            lost = np.isnan(v)  # boost's ibetac near the median at A, B ~ 2^51 (scipy 1.17): 1 - I there (~1/2)
            v[lost] = 1.0 - special.betainc(A[k][lost], B[k][lost], mm[k][lost])
            return v
        # d/dx I_x(B, A) is the Beta(B, A) density (its log loses n·1e-16 to cancellation, and betaln as much: a
        # relative 1e-6 of a correction below 1.2e-7 relative); the next term, (r·2n)²/2 relative, is below 1e-14
        with np.errstate(over="ignore", under="ignore"):
            dens = np.exp((B[k] - 1.0) * lM[k] + (A[k] - 1.0) * lm[k] - lbeta[ei[k]])
        return special.betainc(B[k], A[k], M[k]) + r[k] * dens

    small = np.empty(ei.size)  # the smaller tail: I_m(A, B) where at_m, else I_M(B, A)
    small[at_m] = tail_m(at_m)
    small[~at_m] = tail_M(~at_m)
    other = 1.0 - small
    wrong = small > 0.5
    other[wrong & at_m] = tail_M(wrong & at_m)
    other[wrong & ~at_m] = tail_m(wrong & ~at_m)
    im = np.where(at_m, small, other)  # I_m(A, B)
    iM = np.where(at_m, other, small)
    above[ei, ni] = np.where(ap, im, iM)
    below[ei, ni] = np.where(ap, iM, im)
    return below, above


def _edge_cuts(e: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For :func:`_binomial_tails`: the p below which P(X >= e) and the q = 1 - p below which P(X < e) are below the
    smallest double (P(X >= e) <= exp(-n KL(e/n || p)) for p < e/n, P(X < e) <= exp(-n KL((n-e+1)/n || q)) for
    q < (n-e+1)/n), and log B(e, n - e + 1)."""
    E = e.astype(np.float64)
    return _chernoff_cut(E / n, n), _chernoff_cut((n - E + 1.0) / n, n), special.betaln(E, n - E + 1.0)


def _chernoff_cut(x: np.ndarray, n: int) -> np.ndarray:
    """The c < x with n·KL(x || c) = 745 (KL of Bernoulli laws; 0 where none): below c, a binomial tail bounded by
    exp(-n KL) is below the smallest double. Bisection in log c, elementwise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        lx, x1l1x = np.log(x), special.xlog1py(1.0 - x, -x)  # (1 - x) log(1 - x), 0 at x = 1
        lo, hi = np.full(x.shape, -800.0), lx.copy()

        def nkl(lc: np.ndarray) -> np.ndarray:
            return n * (x * (lx - lc) + x1l1x - special.xlog1py(1.0 - x, -np.exp(lc)))

        for _ in range(32):  # to 800/2^32 in log c, from below (the cut errs toward computing a tail)
            mid = (lo + hi) / 2.0
            big = nkl(mid) > _BINS_TAIL
            lo, hi = np.where(big, mid, lo), np.where(big, hi, mid)
        return np.where(nkl(lo) > _BINS_TAIL, np.exp(lo), 0.0)


class _BetaBins:
    """P(b_j <= c < b_{j+1}), j = 0..J-1, at one n for a mixture of scaled Betas s·Beta(α, β) and a point mass at
    p = 0, as one integral per bin and component: ∫ f(u) K_j(s·u) du with f the Beta density and
    K_j(p) = P(b_j <= X < b_{j+1}), X ~ Binomial(n, p), the difference of two binomial tails (:func:`_binomial_tails`).
    Nothing is a sum over c, so the cost does not grow with n (a few thousand nodes; the tails' betainc is what grows,
    slowly).

    The integral is cut at u = 1/2 into two sides, each in its distance x from its end (u = x, or 1 − u = x), so that
    the law's ends keep their digits. At each end a Gauss–Jacobi panel takes the law's power there (x^(α−1), x^(β−1))
    as its weight, over a width where the kernels are smooth (p within 1/(4n) of 0 or 1, a quarter of the binomial
    spread of p = s < 1); between, Clenshaw–Curtis panels on breakpoints that double away from the ends, that step
    0, 1.5, 3, 5, 8, 13, 21, 38 binomial spreads (units of t = 2·sqrt(n)·asin(sqrt(p)), in which every kernel's step is
    one unit wide) either side of each edge, and at ±1, 2, 4, 8, 16, 32 standard deviations of the law about its mean;
    a panel is halved while its 9- and 17-point rules differ by more than 10^-12 of some bin's mass. Each component's
    masses are divided by their sum (the kernels sum to 1 at every p, so that sum is the density's integral): that
    removes the rounding of its normalizing constant, n·10^-16 in log for a Beta with α + β ≈ n.
    """

    def __init__(self, n: int, b: np.ndarray) -> None:
        self.n, self.b = n, b
        self.inner = b[1:-1]  # the edges where the kernels step (c >= 0 and c < n + 1 always hold)
        self.sn = math.sqrt(n)
        self.cuts = _edge_cuts(self.inner, n)

    def _kernels(self, m: np.ndarray, at_p: np.ndarray) -> np.ndarray:
        """K_j(p), (J, N), at m = min(p, 1 - p) (``at_p``: m is p), each the difference of its two tails below 1/2."""
        below, above = _binomial_tails(self.inner, self.n, m, at_p, self.cuts)
        ones, zeros = np.ones((1, m.size)), np.zeros((1, m.size))
        below = np.concatenate([zeros, below, ones])  # P(X < 0) = 0, P(X < n + 1) = 1
        above = np.concatenate([ones, above, zeros])
        lo_b, hi_b, lo_a, hi_a = below[:-1], below[1:], above[:-1], above[1:]
        return np.maximum(np.where(lo_b < 0.5, hi_b - lo_b, lo_a - hi_a), 0.0)

    def _breakpoints(self, a: float, bb: float, s: float, x_end: list[float]) -> tuple[np.ndarray, ...]:
        """The Clenshaw–Curtis panels' ends x0, x1 and sides (0: u = x, 1: 1 - u = x), between the end panels."""
        n = self.n
        te = 2.0 * self.sn * np.arcsin(np.sqrt((self.inner - 0.5) / n))  # each kernel's step, in t
        t = (te[:, None] + np.concatenate([-_EDGE_STEPS[:0:-1], _EDGE_STEPS])[None, :]).ravel()
        t = t[(t > 0) & (t < math.pi * self.sn)]
        mu = a / (a + bb)
        sd = math.sqrt(mu * (1.0 - mu) / (a + bb + 1.0))
        u = np.concatenate([np.sin(t / (2.0 * self.sn)) ** 2 / s, mu + sd * _LAW_STEPS])
        u = u[(u > 0) & (u < 1)]
        ends: tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]] = ([], [], [])
        for side, x in ((0, u[u <= 0.5]), (1, 1.0 - u[u > 0.5])):
            doubling = x_end[side] * 2.0 ** np.arange(math.ceil(math.log2(0.5 / x_end[side])) + 1)
            x = np.unique(np.concatenate([x, doubling, [0.5]]))
            x = x[(x >= x_end[side]) & (x <= 0.5)]
            ends[0].append(x[:-1])
            ends[1].append(x[1:])
            ends[2].append(np.full(x.size - 1, side))
        return tuple(np.concatenate(e) for e in ends)

    def _component(self, a: float, bb: float, s: float, s1: float) -> np.ndarray:
        """∫ f(u) K_j(s u) du for every bin j, f the Beta(a, bb) density, s the scale and s1 = 1 - s; summing to 1."""
        n = self.n
        # the end panels' widths in x: the kernels smooth across them (p within 1/(4n) of 0, and of s; near p = s < 1
        # the kernels' log-slopes are at most about n/min(s, 1 - s))
        x_end = [min(0.25, 1.0 / (4.0 * n * s)), min(0.25, max(min(s, s1), 1.0 / n) / (4.0 * n * s))]
        mu = a / (a + bb)
        lmu, lmu1 = math.log(mu), math.log1p(-mu)

        def nodes(xs: np.ndarray, side: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            """min(p, 1 - p), whether that is p, and log f up to a constant at x. log f = (a−1) log(u/μ) +
            (bb−1) log((1−u)/(1−μ)), each log by log1p of u − μ where u is near the mean μ (for a + bb ≈ n each term
            is ~n and their sum ~log n: n·1e-16 lost to cancellation otherwise), else from x."""
            d = np.where(side == 0, xs - mu, (1.0 - mu) - xs)  # u - μ
            lx, l1x = np.log(xs), np.log1p(-xs)
            near = np.abs(d) < 0.5 * min(mu, 1.0 - mu)
            with np.errstate(invalid="ignore", divide="ignore"):
                lu = np.where(near, np.log1p(d / mu), np.where(side == 0, lx, l1x) - lmu)
                lv = np.where(near, np.log1p(-d / (1.0 - mu)), np.where(side == 0, l1x, lx) - lmu1)
            p = np.where(side == 0, s * xs, s * (1.0 - xs))
            q = np.where(side == 0, 1.0 - s * xs, s1 + s * xs)
            at_p = p <= q
            return np.where(at_p, p, q), at_p, (a - 1.0) * lu + (bb - 1.0) * lv

        # the end panels: Gauss–Jacobi with the law's power there as its weight (Gauss–Legendre where that power is
        # 30 or more: the density vanishes there)
        total = np.zeros(self.b.size - 1)
        for side, ex, lend in ((0, a - 1.0, lmu), (1, bb - 1.0, lmu1)):
            xe = x_end[side]
            jacobi = ex < 30.0
            tj, wj = _jacobi_end_rule(float(ex)) if jacobi else special.roots_legendre(_END_NODES)
            xs = xe * (1.0 + tj) / 2.0
            m, at_p, lf = nodes(xs, np.full(xs.size, side))
            # under the Jacobi weight (1 + t)^ex, f/x^ex on the nodes: log x^ex = ex·(log x − log μ) in nodes' terms
            lw = np.log(wj) + np.log(xe / 2.0)
            if jacobi:
                lw += ex * (math.log(xe / 2.0) - lend) - ex * (np.log(xs) - lend)
            total += self._kernels(m, at_p) @ np.exp(lf + lw)
        # the panels between: Clenshaw–Curtis, halved while the embedded rule disagrees
        x0, x1, sides = self._breakpoints(a, bb, s, x_end)
        done = np.zeros(self.b.size - 1)
        for _ in range(64):
            half = (x1 - x0) / 2.0
            xs = ((x0 + x1) / 2.0)[:, None] + half[:, None] * _CC_X[None, :]
            m, at_p, lf = nodes(xs.ravel(), np.repeat(sides, _CC_X.size))
            g = (self._kernels(m, at_p) * np.exp(lf)).reshape(-1, x0.size, _CC_X.size)
            full = (g @ _CC_W) * half  # (J, panels)
            err = np.abs(full - (g @ _CC_W_HALF) * half)
            mass = total + done + full.sum(axis=1)
            bad = (err > _BINS_RTOL * mass[:, None]).any(axis=0)
            done += full[:, ~bad].sum(axis=1)
            if not bad.any() or bad.sum() > _BINS_MAX_SPLIT:  # converged, or at the kernels' rounding
                break
            x0, x1, sides = x0[bad], x1[bad], sides[bad]
            mid = (x0 + x1) / 2.0
            x0, x1, sides = np.concatenate([x0, mid]), np.concatenate([mid, x1]), np.concatenate([sides, sides])
        if bad.any():
            done += full[:, bad].sum(axis=1)
        out = total + done
        return out / out.sum()

    def masses(self, weights: np.ndarray, A: np.ndarray, B: np.ndarray, S: np.ndarray, S1: np.ndarray,
               point: float) -> np.ndarray:
        """The bins' masses under Σ_k weights_k·(S_k·Beta(A_k, B_k)) + point·δ_0 (as :meth:`DifficultyModel._law_parts`)."""
        out = np.zeros(self.b.size - 1)
        out[0] += point  # c = 0 is in the first bin
        for w, a, bb, s, s1 in zip(weights, A, B, S, S1, strict=True):
            if w > 0:
                out += w * self._component(float(a), float(bb), float(s), float(s1))
        return out

# ----------------------------------------------------------------------------------------
# the base class
# ----------------------------------------------------------------------------------------
_PMF_EXACT_N = 1 << 14  # pmf_bins sums every c up to this n
# pmf_bins' largest n for a law that is not a mixture of Betas (DifficultyModel.pmf_bins_max_n; a subclass's own law;
# the library's laws have none): its trapezoid takes 16·sqrt(n/2) nodes, so its time and memory grow as sqrt(n) (a
# Beta's goodness of fit by it, shared 2-core machine: 4 s and 350 MB at 2^34, 63 s and 2 GB at
# 2^40); at n = 2^53 - 1, which the readers accept, it asked for an 8 GiB array and `passcurve fit` was killed for
# lack of memory
_PMF_BINS_MAX_N = 1 << 34
_BOUNDARY = 1e-6  # a probability (impossible mass, 1 - scale) this close to its bound is on the boundary
_PMF_EXACT_EDGE = 1 << 10  # above it, c < 2^10 and c > n - 2^10 are still summed exactly


def _log_moment_iv(c: Any, d: Any) -> list[np.ndarray]:
    """Exponents of E[p^c (1-p)^d]: finite reals >= 0 (a negative c gave a finite number where E[1/p] is
    infinite), broadcast together."""
    return check_broadcast("`c` and `d`", as_float_array(c, "c", minimum=0), as_float_array(d, "d", minimum=0))


def _pmf_iv(n: Any, c: Any) -> tuple[np.ndarray, np.ndarray]:
    """Integers 0 <= c <= n (as floats for the moments), broadcast together."""
    n_a, c_a = check_broadcast("`n` and `c`", as_int_array(n, "n"), as_int_array(c, "c"))
    over = c_a > n_a
    if over.any():
        i = np.flatnonzero(over.ravel())[0]
        raise PasscurveError(f"`c` must be <= n (got c={fmt(c_a.ravel()[i])}, n={fmt(n_a.ravel()[i])})")
    return n_a.astype(np.float64), c_a.astype(np.float64)


def _pmf_bins_iv(n: Any, bounds: Any, name: str = "bounds") -> tuple[int, np.ndarray]:
    n = check_positive_int(n, "n", minimum=0)
    b = as_int_array(bounds, name, minimum=0, max_ndim=1)
    if b.ndim != 1 or b.size < 2 or b[0] != 0 or b[-1] != n + 1 or (np.diff(b) <= 0).any():
        raise PasscurveError(f"`{name}` must increase from 0 to n + 1")
    return n, b


def _pmf_bins_many_iv(ns: Any, bounds: Any) -> list[tuple[int, np.ndarray]]:
    """``ns``, a 1-d sequence of integers >= 0, and ``bounds``, one sequence of bin bounds per n (``bounds[i]``
    checked as :func:`_pmf_bins_iv` checks one n's)."""
    def size(x: Any) -> int | None:
        try:
            return None if isinstance(x, str | bytes) else len(x)
        except TypeError:  # a number, None, a 0-d array
            return None

    k = size(ns)
    n_a = None if k is None else as_int_array(ns, "ns", minimum=0) if k else np.zeros(0, dtype=np.int64)
    if n_a is None or n_a.ndim != 1:
        raise PasscurveError(f"`ns` must be a 1-d sequence of integers (got {show_value(ns)})")
    m = size(bounds)
    if m != n_a.size:
        got = show_value(bounds) if m is None else f"{m} {'entry' if m == 1 else 'entries'} for {n_a.size} values of n"
        raise PasscurveError(f"`bounds` must be a list with one sequence of bin bounds per n in `ns` (got {got})")
    return [_pmf_bins_iv(int(n), b, f"bounds[{i}]") for i, (n, b) in enumerate(zip(n_a, bounds, strict=True))]


def _binomial_limit(loglik: float, concentration: float, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                    lb: np.ndarray) -> str | None:
    """Why a Beta-family fit the optimizer left unfinished is at the supremum of its likelihood, or None.

    Counts that vary no more than one shared p makes them (under-dispersed: 99 problems at 99/100 and one at
    100/100) have no maximum-likelihood Beta: the likelihood rises toward the binomial limit α + β → ∞ at the mean
    rate p̂ = Σc/Σn, and the optimizer stops on that ridge ("precision loss", or its iteration limit). The fit is
    that limit when its Beta's α + β (``concentration``) is far beyond n (1e4 max n) and its log-likelihood is at
    least the binomial one at p̂, to 1e-6 relative.
    """
    p = float(w @ c) / float(w @ n)
    if not (0.0 < p < 1.0 and concentration >= 1e4 * float(n.max())):
        return None
    binomial = float(w @ (lb + c * np.log(p) + (n - c) * np.log1p(-p)))
    if loglik < binomial - 1e-6 * max(1.0, abs(binomial)):
        return None
    return (f"at its limit alpha + beta -> infinity: the counts vary no more than if every problem had the same "
            f"p = {p:.4g} (the binomial), so the likelihood has no maximum at a finite Beta and alpha, beta are a "
            "point on the way there")


class DifficultyModel:
    """Base class of the difficulty models (sklearn-style: ``fit`` returns self).

    Fitted attributes (all end in ``_``)
    -----------------------------------
    params_ : dict of str to float
        Maximum-likelihood estimates in natural units.
    se_ : dict of str to float
        Standard errors from the observed information (inverse numerical Hessian of the
        negative log-likelihood in the unconstrained parametrisation, delta method back).
        NaN when the Hessian is singular, or not positive definite to its own precision (an
        eigenvalue below 1e-8 of the largest, among the coordinates off their boundary: a direction
        the data do not identify, e.g. a mixture's concentration running away). A parameter on its boundary (impossible mass or
        1 − scale below 1e-6) has NaN, and the others' come from the information with it held
        there (a Wald interval at a boundary means nothing).
    boundary_ : tuple of str
        The parameters on their boundary (e.g. ``("scale",)`` when the scaled Beta reduces to
        the Beta).
    unidentified_ : tuple of str
        The parameters off their boundary without a standard error: the information about them is
        singular to its precision (the data do not identify them, e.g. a concentration running away
        on under-dispersed counts). Empty for the nonparametric ``npmle``, which has no SEs at all.
    loglik_ : float
        Maximised log-likelihood, including the binomial coefficients.
    aic_, bic_ : float
        2k − 2ℓ and k·log N − 2ℓ (N problems).
    n_params_, n_problems_ : int
    success_ : bool
    message_ : str
        The optimizer's report (``success_=False`` is also raised as ConvergenceWarning).
    impossible_mass_ : float
        Fitted probability mass at p = 0 (0 for models without a point mass).
    tail_exponent_ : float
        Exponent b of the left tail density ∝ p^(b-1) (the power-law exponent of
        -log pass_D@k); NaN when undefined.
    """

    name = "base"
    n_params_: int = 0
    # inverse observed information in the unconstrained parametrisation; None when the
    # Hessian is unusable (set by ``fit``; annotation only, no class-level value)
    cov_theta_: np.ndarray | None
    boundary_: tuple[str, ...] = ()
    unidentified_: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._theta: np.ndarray | None = None

    # -- to implement ------------------------------------------------------------------
    def _start(self, n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
        raise NotImplementedError

    def _unpack(self, theta: np.ndarray) -> dict[str, float]:
        raise NotImplementedError

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        """log E[p^c (1-p)^d] at parameters ``theta``; ``exact=False`` (log-likelihoods) may trade relative
        accuracy where log M is near 0 for speed, keeping a small absolute error (see :func:`_beta_log_moment`)."""
        raise NotImplementedError

    # -- shared machinery ----------------------------------------------------------------
    def _negloglik(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> float:
        with np.errstate(all="ignore"):
            lm = self._log_moment_theta(theta, c, n - c, exact=False)
        v = -float(w @ (lb + lm))
        return v if np.isfinite(v) else 1e300

    # a model with an analytic gradient overrides this: (negative log-likelihood, its gradient in theta)
    _negloglik_grad: Any = None

    def _beta_parts(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float] | None:
        """For a mixture of Betas (and possibly a point mass at p = 0): the components' log weights,
        α's and β's, and the point mass's log weight (-inf without one); None for any other law."""
        return None

    def _law_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float] | None:
        """The fitted law as a mixture of scaled Betas s·Beta(α, β) and a point mass at p = 0: the components'
        weights, α's, β's, scales s and 1 − s, and the point mass; None for any other law, and where an α or β is not
        finite (a runaway fit's exp(θ)). From :meth:`_beta_parts` (every scale 1); the scaled Beta overrides it."""
        parts = self._beta_parts(self._check_fitted())
        if parts is None or not (np.isfinite(parts[1]).all() and np.isfinite(parts[2]).all()):
            return None
        lw, A, B, lz = parts
        return np.exp(lw), A, B, np.ones(A.size), np.zeros(A.size), float(np.exp(lz))

    def _objective(self) -> tuple[Any, bool | None]:
        """(fun, jac) for scipy.optimize.minimize: the analytic gradient when the model has one."""
        return (self._negloglik, None) if self._negloglik_grad is None else (self._negloglik_grad, True)

    def _fit_histograms(self, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                        lb: np.ndarray) -> tuple[Any, np.ndarray, float]:
        """The pairs' :func:`_count_histograms` (None where not tabulated), the indices of the unsolved pairs and
        Σ w log C(n, c) (``lb``; :func:`_dot_fsum`: the likelihood's other large sum), for the likelihoods summed
        by count (:func:`_beta_sums`); cached on the arrays' identity, as
        :meth:`ScaledBetaBinomial._plan` (a fit, its standard errors and the forecast's parameter draws pass the same
        arrays to every evaluation), so each evaluation is O(max n) instead of three ``bincount`` over the pairs."""
        cached = getattr(self, "_hist_cache", None)
        if cached is not None and cached[0] is n and cached[1] is c and cached[2] is w and cached[3] is lb:
            return cached[4]
        hist = _count_histograms(c, n - c, w)
        out = hist, np.flatnonzero(c == 0), _dot_fsum((w, lb)) if hist is not None else np.nan
        self._hist_cache = (n, c, w, lb, out)
        return out

    def _optimize(self, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> Any:
        best = None
        runs = []
        fun, jac = self._objective()
        for x0 in self._start(n, c, w):
            res = optimize.minimize(
                fun, x0, args=(n, c, w, lb), method="BFGS", jac=jac, options={"maxiter": 2000, "gtol": 1e-6}
            )
            runs.append(res)
            if best is None or res.fun < best.fun:
                best = res
        if best is None:
            raise RuntimeError(f"{type(self).__name__}._start returned no starting point")
        if best.success:
            return best
        # a start that converged to the same value (to 1e-9 relative) is as good as the best one
        agree = [r for r in runs if r.success and r.fun <= best.fun + 1e-9 * max(1.0, abs(best.fun))]
        if agree:
            return agree[0]
        # BFGS often stops on "precision loss" at the optimum of a flat likelihood: when the Newton
        # decrement there is ~0 (see _judge) no polish can gain anything (Nelder-Mead took 156
        # evaluations to gain 3e-10 on a poorly identified scaled Beta)
        ok, msg = _judge(best, lambda t: self._negloglik(t, n, c, w, lb))
        if ok:
            best.success, best.message = True, msg
            return best
        # nor where the likelihood rises toward a limit at the edge of the parameter space (the Nelder-Mead polish
        # took 4,000 iterations, 6 s, to move 2e-5 along the scaled Beta's ridge to the binomial)
        if self._at_limit(np.asarray(best.x, dtype=np.float64), -float(best.fun), n, c, w, lb) is not None:
            best.success, best.message = True, msg  # fit() says which limit
            return best
        # polish with Nelder-Mead (robust where finite-difference gradients are rough)
        res2 = optimize.minimize(
            self._negloglik,
            best.x,
            args=(n, c, w, lb),
            method="Nelder-Mead",
            options={"maxiter": 4000, "xatol": 1e-7, "fatol": 1e-9},
        )
        if res2.fun <= best.fun:
            res2.success = bool(res2.success or best.success)
            best = res2
        return best

    def fit(self, counts: Any = None, *, n: Any = None, c: Any = None, weight: Any = None) -> DifficultyModel:
        """Fit by maximum likelihood to a :class:`Counts` (one model) or to arrays ``n``, ``c``.

        Parameters
        ----------
        counts : Counts, optional
            One model's counts; or give ``n`` and ``c`` instead (not both).
        n, c : array_like of int, shape (P,), optional
            Samples drawn and samples correct per problem (0 <= c <= n, n >= 1).
        weight : array_like of float, shape (P,), optional
            Each problem's weight in the likelihood (default: ``counts.weight``, else 1).

        Returns
        -------
        self
            The fitted model (``params_``, ``se_``, ``loglik_``, ``aic_``, ``bic_``, ``success_`` set); a
            :class:`ConvergenceWarning` when the optimizer did not converge.
        """
        n_a, c_a, w_a = _fit_iv(counts, n, c, weight)
        pn, pc, pw = _pairs(n_a, c_a, w_a)
        self.pairs_ = (pn, pc, pw)
        lb = _log_binom(pn, pc)
        res = self._optimize(pn, pc, pw, lb)
        self._theta = np.asarray(res.x, dtype=np.float64)
        self.loglik_ = -float(res.fun)
        self.success_, self.message_ = _judge(res, lambda t: self._negloglik(t, pn, pc, pw, lb))
        limit = self._at_limit(self._theta, self.loglik_, pn, pc, pw, lb) if np.isfinite(self.loglik_) else None
        if limit is not None:  # converged or not, the fit stands for its limit: say so
            self.success_, self.message_ = True, f"{limit} (optimizer: {self.message_})"
        self.success_ = bool(self.success_ and np.isfinite(self.loglik_))
        self.n_problems_ = int(n_a.size)
        self.n_samples_ = int(n_a.sum())
        self.n_params_ = int(self._theta.size)
        self._finish(pn, pc, pw, lb, at_limit=limit is not None)
        if not self.success_:
            warnings.warn(
                f"{self.name} fit did not converge: {self.message_}", ConvergenceWarning, stacklevel=2
            )
        return self

    def _finish(self, pn: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray, at_limit: bool = False) -> None:
        """AIC, BIC, ``params_``, ``boundary_`` and standard errors; a fit ``at_limit`` (:meth:`_at_limit`) has no
        standard errors: the likelihood is flat along the ridge to its limit, so its parameters are not
        identified (only what the limit fixes is, e.g. the Beta's mean)."""
        k = self.n_params_
        self.aic_ = 2 * k - 2 * self.loglik_
        self.bic_ = float(k * np.log(max(self.n_problems_, 1)) - 2 * self.loglik_)
        theta = self._check_fitted()
        self.params_ = self._unpack(theta)
        names = list(self.params_)
        at_bound = self._boundary(theta)  # coordinate -> the parameter it alone determines
        self.boundary_ = tuple(at_bound.values())
        edge = np.zeros(theta.size, dtype=bool)
        edge[list(at_bound)] = True
        se = np.full(len(names), np.nan)
        self.cov_theta_ = None
        try:
            H = self._hessian(theta, pn, c, w, lb)
            J = _num_jacobian(lambda t: np.array(list(self._unpack(t).values())), theta)
        except (np.linalg.LinAlgError, ValueError):
            H = None
        if H is not None:
            keep = ~edge
            # standard errors: a coordinate on its boundary has none (the likelihood is flat
            # there, and its Wald interval means nothing); the others are conditional on it, and
            # exist only when the information about them is positive definite to its precision
            sub = _inverse_information(H[np.ix_(keep, keep)], _INFORMATION_RTOL) if keep.any() else None
            if sub is not None:
                # the forecast's Laplace draws (corrected toward the likelihood), a boundary coordinate's
                # huge variance included; a fit with an unidentified direction has none (its forecast
                # resamples problems and refits instead)
                self.cov_theta_ = sub if not edge.any() else _inverse_information(H)
                Jk = J[:, keep]
                se = np.sqrt(np.maximum(np.diag(Jk @ sub @ Jk.T), 0.0))
                se[[names.index(name) for name in self.boundary_]] = np.nan
        if at_limit:
            se[:] = np.nan
        self.se_ = dict(zip(names, (float(v) for v in se), strict=True))
        self.unidentified_ = tuple(k for k, v in self.se_.items() if np.isnan(v) and k not in self.boundary_)

    def _boundary(self, theta: np.ndarray) -> dict[int, str]:
        """The unconstrained coordinates on their boundary, each mapped to the named parameter it
        alone determines (none by default)."""
        return {}

    def _at_limit(self, theta: np.ndarray, loglik: float, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                  lb: np.ndarray) -> str | None:
        """Why a fit (``theta``, ``loglik``) the optimizer did not finish is nevertheless at the supremum of the
        likelihood, which lies at the edge of the parameter space and is not attained (a message), or None (by
        default)."""
        return None

    def _hessian(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> np.ndarray:
        """The negative log-likelihood's Hessian in theta (the observed information, for standard errors and
        the forecast's Laplace draws): differences of the analytic gradient where the model has one, else
        second differences of the likelihood."""
        if self._negloglik_grad is None:
            return _num_hessian(lambda t: self._negloglik(t, n, c, w, lb), theta)
        return _grad_hessian(lambda t: self._negloglik_grad(t, n, c, w, lb)[1], theta)

    def _check_fitted(self) -> np.ndarray:
        if self._theta is None:
            raise PasscurveError(f"this {type(self).__name__} is not fitted yet: call fit() first")
        return self._theta

    # -- public evaluation -----------------------------------------------------------------
    def log_moment(self, c: Any, d: Any, *, exact: bool = True) -> np.ndarray:
        """log E[p^c (1-p)^d] under the fitted distribution (broadcasting); real c, d >= 0.

        Exact to the last digits for the Beta-type laws, also where log M is near 0 (pass@K's failure
        rate at small K). ``exact=False`` keeps a small absolute error only (5e-11 at c + d = 10⁴), which
        is what likelihoods, pmfs and ratios of moments need, at a fraction of the cost on large arrays.

        Parameters
        ----------
        c, d : array_like of float
            The exponents (real, >= 0); they broadcast against each other.
        exact : bool, default True
            False for the faster form with a small absolute error (above).

        Returns
        -------
        ndarray of float
            log E[p^c (1-p)^d], the broadcast shape of ``c`` and ``d`` (0-d for scalars); -inf where the
            moment is 0 (e.g. c > 0 on a law all at p = 0).
        """
        theta = self._check_fitted()
        c_a, d_a = _log_moment_iv(c, d)
        with np.errstate(all="ignore"):
            return self._log_moment_theta(theta, c_a, d_a, exact=check_flag(exact, "exact"))

    def pmf(self, n: Any, c: Any) -> np.ndarray:
        """P(c correct of n) for a new problem: C(n, c)·E[p^c (1-p)^(n-c)].

        Parameters
        ----------
        n, c : array_like of int
            Samples and successes, integers 0 <= c <= n; they broadcast.

        Returns
        -------
        ndarray of float
            The probabilities, the broadcast shape of ``n`` and ``c`` (0-d for scalars).
        """
        theta = self._check_fitted()
        n_a, c_a = _pmf_iv(n, c)
        with np.errstate(all="ignore"):  # a probability's relative error is log M's absolute one
            lm = self._log_moment_theta(theta, c_a, n_a - c_a, exact=False)
        return np.exp(_log_binom(n_a, c_a) + lm)

    @property
    def pmf_bins_max_n(self) -> float:
        """The largest n :meth:`pmf_bins` takes: unbounded (inf) for the library's laws (the Beta laws' integrals and
        the grid mixture's binomial CDFs cost the same at any n); 2^34 for a subclass's law that is not a mixture of
        Betas (:meth:`_law_parts` None), whose trapezoid's cost grows as sqrt(n) (a PasscurveError above it)."""
        return float("inf") if self._law_parts() is not None else float(_PMF_BINS_MAX_N)

    def _pmf_bins_limit(self) -> str:
        """The largest n of :attr:`pmf_bins_max_n` as the messages that name it write it ("2^34 = 17,179,869,184")."""
        top = int(self.pmf_bins_max_n)
        return f"2^{top.bit_length() - 1} = {top:,}"

    _trapezoid_max_n: float = 1 << 22
    """Up to this n (above 2^14) :meth:`pmf_bins` of a Beta law takes the trapezoid on ~16·sqrt(2n) pmf values while
    they cost less than its integrals over p (:class:`_BetaBins`, 12–20 ms a component at any n): a Beta's pmf is a
    closed form, 1.6 against 12 ms at n = 2·10^4 and 31 against 19 ms at 2^24 (300 problems, 16–25 dyadic bins; the
    trapezoid within 2e-6 of the exact sums). The scaled Beta, whose pmf values are O(sqrt(n))-term series, sets 0."""

    def pmf_bins(self, n: int, bounds: Any) -> np.ndarray:
        """P(bounds[j] <= c < bounds[j+1]) for a new problem with n samples, j = 0..J-1.

        ``bounds`` are increasing integers from 0 to n + 1. Up to n = 2^14 every c is summed
        exactly. Above, the trapezoid rule on about 16·sqrt(2n) pmf values (c < 2^10 and
        c > n − 2^10 exactly, the rest on nodes c = u², u spaced 1/16; within 2e-6 of the exact sum at
        n = 2·10^4 … 2·10^5) up to ``_trapezoid_max_n`` (2^22 for a law whose pmf is a closed form; 0 for
        the scaled Beta), and beyond it, for the Beta laws (mixtures of scaled Betas and a point mass at
        0), each bin's mass as one integral over p of the law's density times
        P(bounds[j] <= X < bounds[j+1]), X ~ Binomial(n, p) (differences of binomial tails, scipy's
        betainc), by quadrature whose cost does not grow with n (:class:`_BetaBins`; 12–300 ms a
        component for 16–41 bins, any n up to 2^53): within 1e-9 of the exact sum at n = 2^14 + 1 …
        2·10^5 (tests compare the two), and at n = 10^12 the masses agree with the law's own CDF at the
        scaled edges, G(b_{j+1}/n) − G(b_j/n), their n → ∞ limit. :class:`GridMixture` sums binomial
        CDFs instead, exactly. A subclass's law that is not a mixture of Betas keeps the trapezoid at
        every n, up to :attr:`pmf_bins_max_n`. Several n at once: :meth:`pmf_bins_many`.

        Parameters
        ----------
        n : int
            Samples of the new problem (>= 1).
        bounds : sequence of int, shape (J + 1,)
            Increasing bin edges, from 0 to n + 1.

        Returns
        -------
        ndarray of float, shape (J,)
            Each bin's probability (they sum to 1 up to rounding; the trapezoid's to its error).
        """
        n_c, b = _pmf_bins_iv(n, bounds)  # the errors name `n` and `bounds`, not pmf_bins_many's arguments
        return self.pmf_bins_many([n_c], [b])[0]

    def pmf_bins_many(self, ns: Any, bounds: Any) -> list[np.ndarray]:
        """:meth:`pmf_bins` for each n in ``ns`` with its own ``bounds`` (a list, one per n).

        The exact rows (n <= 2^14) are computed together, in groups of about 4·10^6 values, so a
        model whose whole pmf row has a cheaper form than value-by-value moments (the scaled
        Beta's recurrence) serves a benchmark with thousands of distinct n in one pass.

        Parameters
        ----------
        ns : sequence of int
            The n of each row (>= 1).
        bounds : sequence of sequences of int
            One increasing sequence of bin edges per n, from 0 to that n + 1.

        Returns
        -------
        list of ndarray of float
            One array per n, of that row's bins' probabilities (as :meth:`pmf_bins`).
        """
        checked = _pmf_bins_many_iv(ns, bounds)
        top = max((n for n, _ in checked), default=0)
        if top > self.pmf_bins_max_n:
            raise PasscurveError(f"{self.name}: pmf_bins takes n up to {self._pmf_bins_limit()} (its cost grows as "
                                 f"sqrt(n); got n={top})")
        out: list[np.ndarray] = [np.empty(0)] * len(checked)
        small = [i for i, (n, _) in enumerate(checked) if n <= _PMF_EXACT_N]
        group: list[int] = []
        held = 0
        for pos, i in enumerate(small):
            group.append(i)
            held += checked[i][0] + 1
            if held >= _ROWS_BUDGET or pos == len(small) - 1:
                rows = self._pmf_rows([checked[j][0] for j in group])
                for j, row in zip(group, rows, strict=True):
                    out[j] = np.add.reduceat(row, checked[j][1][:-1])
                group, held = [], 0
        parts = self._law_parts() if any(n > _PMF_EXACT_N for n, _ in checked) else None
        for i, (n, b) in enumerate(checked):
            if n > _PMF_EXACT_N:
                if parts is not None and n > self._trapezoid_max_n:
                    out[i] = _BetaBins(n, b).masses(*parts)
                else:
                    out[i] = self._pmf_bins_nodes(n, b)
        return out

    def _pmf_rows(self, ns: list[int]) -> list[np.ndarray]:
        """P(c | n) for c = 0..n, for each n (value by value here; the scaled Beta overrides it)."""
        rows = []
        for n in ns:
            cs = np.arange(n + 1, dtype=np.float64)
            rows.append(self.pmf(np.full_like(cs, n), cs))
        return rows

    def _pmf_bins_nodes(self, n: int, b: np.ndarray) -> np.ndarray:
        """The trapezoid sum of :meth:`pmf_bins` for n above 2^14."""
        # c = u² on a grid of u spaced 1/16 (steps ≈ sqrt(c)/8), mirrored in the upper half
        u = np.arange(np.sqrt(_PMF_EXACT_EDGE), np.sqrt(n / 2.0) + 0.0625, 0.0625)
        low = np.round(u * u).astype(np.int64)
        x = [np.arange(_PMF_EXACT_EDGE, dtype=np.int64), low, n - low,
             np.arange(n - _PMF_EXACT_EDGE, n + 1, dtype=np.int64)]
        x.append(b[1:-1])  # every bin starts on a node and the previous bin ends on one
        x.append(b[1:-1] - 1)
        nodes = np.unique(np.concatenate(x))
        f = np.empty(nodes.size)
        for s0 in range(0, nodes.size, 1 << 13):  # bounded work arrays for grid mixtures
            cs = nodes[s0:s0 + (1 << 13)].astype(np.float64)
            f[s0:s0 + cs.size] = self.pmf(np.full_like(cs, n), cs)
        # Σ_{c=x_0}^{x_L} f(c) ≈ Σ_i (x_{i+1} - x_i)(f_i + f_{i+1})/2 + (f_0 + f_L)/2, exact for unit steps
        which = np.searchsorted(b, nodes, side="right") - 1
        same = which[1:] == which[:-1]
        first = np.concatenate([[True], ~same])
        last = np.concatenate([~same, [True]])
        out = np.zeros(b.size - 1)
        np.add.at(out, which, 0.5 * f * (first.astype(np.float64) + last))
        np.add.at(out, which[1:][same], np.diff(nodes)[same] * 0.5 * (f[1:][same] + f[:-1][same]))
        return out

    def pass_at_k(self, k: Any) -> np.ndarray:
        """Population pass_D@k = 1 - E[(1-p)^k] for a new problem drawn from the fit.

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0 (real k allowed: the curve is smooth in k).

        Returns
        -------
        ndarray of float
            pass_D@k, the shape of ``k`` (0-d for a scalar).
        """
        k_a = check_positive_k(k)
        return -np.expm1(self.log_moment(np.zeros_like(k_a), k_a))

    def _conjugate(self, n_a: np.ndarray, c_a: np.ndarray) -> tuple[list[np.ndarray], np.ndarray, np.ndarray,
                                                                     np.ndarray] | None:
        """A mixture of Betas' posterior given (n, c), by conjugacy: the mixture of Beta(α_j + c, β_j + n − c) with
        weights ∝ w_j M_j(c, n − c), and the point mass at p = 0 with weight ∝ w_0 [c = 0]. Returns the updated
        components' weights (arrays shaped like n), their shapes α_j + c and β_j + n − c (shape (J,) + n's), and the
        point mass's weight; None for a law that is not a mixture of Betas. Call under ``np.errstate(all="ignore")``
        (a runaway fit's exp(theta) overflows to inf)."""
        parts = self._beta_parts(self._check_fitted())
        if parts is None:
            return None
        lw, A, B, lz = parts
        d_a = (n_a - c_a).astype(np.float64)
        shapes = A[:, None] + c_a.ravel(), B[:, None] + d_a.ravel()
        if A.size == 1:
            # one Beta: a problem with a success (or every problem, without a point mass) is the Beta's with weight
            # exactly 1, so only the unsolved problems' M(0, n) is needed, for the split with the point mass
            zero = np.zeros(c_a.shape, dtype=bool) if lz == -np.inf else c_a == 0
            w1, w0 = np.ones(c_a.shape), np.zeros(c_a.shape)
            if zero.any():
                split = np.stack([lw[0] + _beta_log_moment(c_a[zero], d_a[zero], A[0], B[0], exact=True),
                                  np.full(int(zero.sum()), lz)])
                total = special.logsumexp(split, axis=0)
                w1[zero], w0[zero] = np.exp(split[0] - total), np.exp(split[1] - total)
            return [w1], *shapes, w0
        logs = [lw[j] + _beta_log_moment(c_a, d_a, A[j], B[j], exact=True) for j in range(A.size)]
        logs.append(lz + _zero_log_moment(c_a))
        total = special.logsumexp(np.stack(logs), axis=0)
        wts = [np.exp(v - total) for v in logs]
        return wts[:-1], *shapes, wts[-1]

    def _posterior(self, n_i: np.ndarray, c_i: np.ndarray, k_i: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                                     np.ndarray, Any]:
        """(n, c, k) (checked by :func:`_posterior_iv`) broadcast, and :meth:`_conjugate` at them: computed over the
        broadcast of n and c alone (the posterior does not depend on k) and broadcast to the shape with k, the same
        values. The forecast asks at the benchmark's distinct pairs × K: with two K the mixture's component weights
        (a log moment per pair and component) were computed twice. Call under ``np.errstate(all="ignore")``."""
        n_a, c_a, k_a = np.broadcast_arrays(n_i, c_i, k_i)
        n_u, c_u = np.broadcast_arrays(n_i, c_i)
        if n_u.shape == n_a.shape:
            return n_a, c_a, k_a, self._conjugate(n_a, c_a)
        post = self._conjugate(n_u, c_u)
        if post is None:
            return n_a, c_a, k_a, None
        wts, A, B, w0 = post
        shape = n_a.shape

        def wide(x: np.ndarray) -> np.ndarray:
            return np.broadcast_to(x.reshape((x.shape[0],) + n_u.shape), (x.shape[0],) + shape).reshape(x.shape[0], -1)

        return n_a, c_a, k_a, ([np.broadcast_to(w, shape) for w in wts], wide(A), wide(B), np.broadcast_to(w0, shape))

    def posterior_pass_at_k(self, n: Any, c: Any, k: Any) -> np.ndarray:
        """Empirical-Bayes pass@k of observed problems: 1 - E[(1-p)^k | n, c].

        Parameters
        ----------
        n, c : array_like of int
            Each problem's samples and successes (0 <= c <= n, n >= 1).
        k : array_like of float
            Budgets k > 0; ``n``, ``c`` and ``k`` broadcast.

        Returns
        -------
        ndarray of float
            The posterior pass@k, the broadcast shape (0-d for scalars).
        """
        n_i, c_i, k_i = _posterior_iv(n, c, k)
        self._check_fitted()
        with np.errstate(all="ignore"):  # a runaway fit's exp(theta) overflows to inf, as in log_moment
            n_a, c_a, k_a, post = self._posterior(n_i, c_i, k_i)
            if post is None:
                lf = self.log_moment(c_a, n_a - c_a + k_a) - self.log_moment(c_a, n_a - c_a)
                return -np.expm1(np.minimum(lf, 0.0))
            # pass@k is the posterior-weighted mean of each updated Beta's pass@k, each to the last digits instead
            # of 1 - exp of a difference of two log moments (pass@1 at n = 10^6, c = 2 was off by 1.7e-4 relative)
            wts, A, B, _ = post
            out = np.zeros(n_a.shape)
            for j, w in enumerate(wts):
                out = out + w * -np.expm1(_beta_log_moment(0.0, k_a, A[j].reshape(n_a.shape), B[j].reshape(n_a.shape)))
        return out

    def posterior_fail_moments(self, n: Any, c: Any, k: Any) -> tuple[np.ndarray, np.ndarray]:
        """E[(1-p)^k | n, c] and E[(1-p)^(2k) | n, c] (for predictive variances).

        For the Beta-type laws each to the last digits (by conjugacy, as :meth:`posterior_pass_at_k`); their
        difference m2 - m1² is not the way to the variance where it is small against them (the forecast uses
        :meth:`_posterior_fail_var`).

        Parameters
        ----------
        n, c : array_like of int
            Each problem's samples and successes (0 <= c <= n, n >= 1).
        k : array_like of float
            Budgets k > 0; ``n``, ``c`` and ``k`` broadcast.

        Returns
        -------
        (m1, m2) : tuple of two ndarrays of float
            E[(1-p)^k | n, c] and E[(1-p)^(2k) | n, c], each the broadcast shape.
        """
        n_i, c_i, k_i = _posterior_iv(n, c, k)
        self._check_fitted()
        with np.errstate(all="ignore"):
            n_a, c_a, k_a, post = self._posterior(n_i, c_i, k_i)
            if post is None:
                base = self.log_moment(c_a, n_a - c_a)
                m1 = np.exp(np.minimum(self.log_moment(c_a, n_a - c_a + k_a) - base, 0.0))
                m2 = np.exp(np.minimum(self.log_moment(c_a, n_a - c_a + 2 * k_a) - base, 0.0))
                return m1, m2
            wts, A, B, w0 = post
            m1, m2 = w0 + 0.0, w0 + 0.0
            for j, w in enumerate(wts):
                a_j, b_j = A[j].reshape(n_a.shape), B[j].reshape(n_a.shape)
                m1 = m1 + w * np.exp(_beta_log_moment(0.0, k_a, a_j, b_j))
                m2 = m2 + w * np.exp(_beta_log_moment(0.0, 2 * k_a, a_j, b_j))
        return m1, m2

    def _posterior_fail_var(self, n: Any, c: Any, k: Any) -> np.ndarray:
        r"""Var[(1-p)^k | n, c] = Var[pass@k | n, c] (the forecast's posterior variance), broadcasting.

        For a mixture of Betas, with each updated component's pass@k π_j, the mixture's π̄ = Σ w_j π_j (the point
        mass has π = 0 and no variance) and its own variance V_j (:func:`_beta_fail_var`),

        .. math:: \mathrm{Var} = \sum_j w_j V_j + \sum_j w_j (\pi_j - \bar\pi)^2 + w_0 \bar\pi^2,

        every term without cancellation: ~1e-15 relative. Other laws: m2 - m1² from
        :meth:`posterior_fail_moments`, floored at 0.
        """
        n_i, c_i, k_i = _posterior_iv(n, c, k)
        self._check_fitted()
        with np.errstate(all="ignore"):
            n_a, c_a, k_a, post = self._posterior(n_i, c_i, k_i)
            if post is None:
                m1, m2 = self.posterior_fail_moments(n_a, c_a, k_a)
                return np.maximum(m2 - m1**2, 0.0)
            wts, A, B, w0 = post
            within = np.zeros(n_a.shape)
            pis = []
            for j, w in enumerate(wts):
                a_j, b_j = A[j].reshape(n_a.shape), B[j].reshape(n_a.shape)
                lm, var = _beta_fail_var(a_j, b_j, k_a)
                within = within + w * var
                pis.append(-np.expm1(lm))
            mean = sum((w * pi for w, pi in zip(wts, pis, strict=True)), np.zeros(n_a.shape))
            between = w0 * mean**2 + sum((w * (pi - mean) ** 2 for w, pi in zip(wts, pis, strict=True)),
                                         np.zeros(n_a.shape))
        return np.asarray(within + between, dtype=np.float64)

    def local_exponent(self, k: Any) -> np.ndarray:
        r"""Local power-law exponent of the fitted curve, :math:`-d\log(-\log \text{pass}_D@k)/d\log k`.

        Tends to the tail exponent α for a Beta-type left tail (Schaeffer et al. 2025) and to
        0 at a plateau (impossible mass). Central differences in log k (relative step 1e-4; one-sided where
        k·e^1e-4 would overflow) of log(−log pass_D@k), taken from the log failure rate
        log E[(1-p)^k] (:meth:`log_moment`), so that it holds where pass_D@k rounds to 1 (k = 10^300).

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0.

        Returns
        -------
        ndarray of float
            The exponent at each k, the shape of ``k`` (0-d for a scalar).
        """
        k_a = check_positive_k(k)
        h = 1e-4

        def g(x: np.ndarray) -> np.ndarray:
            # log(-log pass_D@x) = log(-log1p(-F)) with F = E[(1-p)^x]: it was log(-log(pass_at_k(x))), NaN once
            # pass_D@x rounds to 1 (F < 1.1e-16: k = 10^100 under a Beta with alpha = 0.17); where F underflows,
            # -log1p(-F) = F to the last bit, so log F itself
            lf = self.log_moment(np.zeros_like(x), x)
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.where(lf > -700.0, np.log(-np.log1p(-np.exp(lf))), lf)

        with np.errstate(over="ignore"):
            up = k_a * np.exp(h)
        top = ~np.isfinite(up)  # k within 1e-4 of the largest double: the backward second-order difference
        if top.any():
            up = np.where(top, k_a * np.exp(-h), up)
            down = np.where(top, k_a * np.exp(-2 * h), k_a * np.exp(-h))
            gk, gu, gd = g(k_a), g(up), g(down)
            slope = np.where(top, (3 * gk - 4 * gu + gd) / (2 * h), (gu - gd) / (2 * h))
        else:
            slope = (g(up) - g(k_a * np.exp(-h))) / (2 * h)
        return np.asarray(-slope + 0.0, dtype=np.float64)

    @property
    def impossible_mass_(self) -> float:
        return float(self.params_.get("impossible", 0.0))

    @property
    def tail_exponent_(self) -> float:
        return float(self.params_.get("alpha", np.nan))

    def goodness_of_fit(self) -> dict[str, Any]:
        """Expected vs observed distribution of c, in dyadic bins {0}, {1}, {2,3}, {4..7}, ...

        Expected counts sum the fitted pmf over every problem (unequal n allowed; see
        :meth:`pmf_bins` for n above 2^14), at any n for the library's laws. Above ``pmf_bins_max_n`` samples per
        problem (a subclass's law that is not a mixture of Betas: 2^34) nothing is computed: a DegenerateDataWarning,
        no bins, ``chi2`` and ``p_value`` NaN. Returns
        bins (low, high), observed, expected, the Pearson statistic over adjacent bins pooled
        until each holds an expected count >= 1 (from the left; a remainder joins the last group),
        its degrees of freedom (pooled bins − 1 − parameters) and an approximate p-value, NaN when
        no degree of freedom is left (then nothing is tested).

        Returns
        -------
        dict
            ``bins`` (list of (low, high)), ``observed`` and ``expected`` (problems per bin), ``chi2``, ``dof``,
            ``p_value``.
        """
        self._check_fitted()
        pn, pc, pw = self.pairs_
        top = int(pn.max())
        if top > self.pmf_bins_max_n:
            warnings.warn(f"{self.name}: the goodness of fit is not computed for n above {self._pmf_bins_limit()} "
                          f"samples per problem (the largest n here is {top:,})", DegenerateDataWarning, stacklevel=2)
            return {"bins": [], "observed": [], "expected": [], "chi2": float("nan"), "dof": 0,
                    "p_value": float("nan")}
        edge_list = [0, 1]
        while edge_list[-1] <= top:
            edge_list.append(edge_list[-1] * 2)
        edges = np.array(edge_list)  # bins [edges[i], edges[i+1])
        nb = edges.size - 1
        obs = np.zeros(nb)
        np.add.at(obs, np.searchsorted(edges, pc, side="right") - 1, pw)
        exp_ = np.zeros(nb)
        un, inv = np.unique(pn, return_inverse=True)
        wn = np.bincount(inv.ravel(), weights=pw)
        bounds = [np.unique(np.minimum(edges, int(nval) + 1)) for nval in un]  # bins above n are empty
        for wt, mass in zip(wn, self.pmf_bins_many(un.astype(np.int64), bounds), strict=True):
            exp_[: mass.size] += wt * mass
        # pool adjacent bins until each group expects >= 1 problem (bins of expected 1e-8 on either side
        # would dominate the statistic: the chi-square approximation needs expected counts near 1 or more)
        o: list[float] = []
        e: list[float] = []
        acc_o = acc_e = 0.0
        for ob, ex in zip(obs, exp_, strict=True):
            acc_o, acc_e = acc_o + ob, acc_e + ex
            if acc_e >= 1:
                o.append(acc_o)
                e.append(acc_e)
                acc_o = acc_e = 0.0
        if e:
            o[-1] += acc_o
            e[-1] += acc_e
        else:
            o, e = [acc_o], [acc_e]
        o_a, e_a = np.array(o), np.array(e)
        ok = e_a > 0
        stat = float(np.sum((o_a[ok] - e_a[ok]) ** 2 / e_a[ok]))
        dof = int(ok.sum()) - 1 - self.n_params_
        return {
            "bins": [(int(edges[i]), int(min(edges[i + 1] - 1, top))) for i in range(nb)],
            "observed": obs.tolist(),
            "expected": exp_.tolist(),
            "chi2": stat,
            "dof": dof,
            "p_value": float(stats.chi2.sf(stat, dof)) if dof > 0 else float("nan"),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``difficulty_model`` (the fitted law's name; ``model`` names a benchmark model everywhere),
        ``params``, ``se`` (None where not identified), ``loglik``, ``aic``, ``bic``, ``n_params``, ``problems``,
        ``impossible_mass``, ``tail_exponent``, ``success``, ``message``, ``boundary``, ``unidentified``; the grid
        mixture adds ``support`` (``p`` and ``weight`` of its atoms). Python numbers only, None for NaN or inf
        (:func:`passcurve._results.json_safe`, as every result's ``to_dict()``)."""
        self._check_fitted()
        return json_safe({
            "difficulty_model": self.name,
            "params": {k: float(v) for k, v in self.params_.items()},
            "se": {k: (None if not np.isfinite(v) else float(v)) for k, v in self.se_.items()},
            "loglik": self.loglik_,
            "aic": self.aic_,
            "bic": self.bic_,
            "n_params": self.n_params_,
            "problems": self.n_problems_,
            "impossible_mass": self.impossible_mass_,
            "tail_exponent": None if not np.isfinite(self.tail_exponent_) else self.tail_exponent_,
            "success": bool(self.success_),
            "message": self.message_,
            "boundary": list(self.boundary_),
            "unidentified": list(self.unidentified_),
        })

    def _params_text(self, eq: str = "=", pm: str = " (±{})", minus: str = "-") -> str:
        """The parameters as summary, ``passcurve fit`` and the report print them (:func:`_params_line`)."""
        self._check_fitted()
        return _params_line(self.params_, self.se_, self.boundary_, self.unidentified_, eq=eq, pm=pm, minus=minus)

    def _tail_shown(self) -> bool:
        """Whether ``tail_exponent_`` is an estimate worth printing: not when a shape parameter it is read from
        (an ``alpha``) is unidentified (a runaway Beta's tail exponent is its runaway alpha)."""
        return not any(k.startswith("alpha") for k in self.unidentified_)

    @property
    def summary(self) -> str:
        """One line: each parameter with its standard error or why it has none ("—" for a parameter the data do
        not identify: its raw value is in ``params_`` and ``to_dict()``), log-likelihood, AIC, convergence."""
        return (f"{self.name}: {self._params_text()}; loglik={self.loglik_:.2f}, AIC={self.aic_:.2f}, "
                f"success={self.success_}")

    def __repr__(self) -> str:
        if self._theta is None:
            return f"{type(self).__name__}()"
        return f"{type(self).__name__}({self.summary})"

    def density(self, p: Any) -> np.ndarray:
        """Density of the continuous part at p in [0, 1] (without the point mass), broadcasting over ``p``.

        Parameters
        ----------
        p : array_like of float
            Success rates in [0, 1].

        Returns
        -------
        ndarray of float
            The density, the shape of ``p`` (0-d for a scalar); the grid mixture (discrete) raises.
        """
        self._check_fitted()
        p = as_float_array(p, "p")
        if ((p < 0) | (p > 1)).any():
            raise PasscurveError(f"`p` must be in [0, 1] (got p={fmt(float(p[(p < 0) | (p > 1)].ravel()[0]))})")
        return self._density(p)

    def _density(self, p: np.ndarray) -> np.ndarray:
        raise PasscurveError(f"the {self.name} difficulty model has no density (its law is discrete)")


def _judge(res: Any, f: Any) -> tuple[bool, str]:
    """Converged when the optimizer says so, or when the Newton decrement at its stop is ~0.

    BFGS often ends with "precision loss" at the optimum of a large log-likelihood; the
    Newton decrement g'H^{-1}g (numerical gradient and Hessian) is twice the log-likelihood
    still to gain, so below 1e-6 the point is the optimum for every statistical purpose.
    """
    msg = str(getattr(res, "message", ""))
    if res.success:
        return True, msg
    x = np.asarray(res.x, dtype=np.float64)
    g = np.array([(f(x + e) - f(x - e)) / 2e-5 for e in np.eye(x.size) * 1e-5])
    try:
        H = _num_hessian(f, x)
        dec = float(g @ np.linalg.solve(H, g))
    except np.linalg.LinAlgError:
        dec = np.inf
    if np.isfinite(dec) and 0 <= dec <= 1e-6:
        return True, f"converged: Newton decrement {dec:.1e} (optimizer: {msg})"
    return False, f"{msg} (Newton decrement {dec:.1e})"


def _posterior_iv(n: Any, c: Any, k: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A problem's (n, c) with 0 <= c <= n (n = 0 is the prior), and budgets k > 0, as float arrays."""
    n_a, c_a = as_float_array(n, "n"), as_float_array(c, "c")
    nb, cb = check_broadcast("`n` and `c`", n_a, c_a)
    if (cb < 0).any() or (cb > nb).any() or (nb != np.floor(nb)).any() or (cb != np.floor(cb)).any():
        raise PasscurveError("`n` and `c` must be whole numbers with 0 <= c <= n")
    return n_a, c_a, check_positive_k(k)


def _fit_iv(counts: Any, n: Any, c: Any, weight: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    if counts is not None:
        check_counts_object(counts, "or pass `n=` and `c=` arrays")
        if len(counts.models) > 1:
            raise PasscurveError(
                f"`counts` holds {len(counts.models)} models; fit one at a time (counts.select(model)) "
                "or use passcurve.fit_difficulty"
            )
        return counts.n.astype(np.int64), counts.c.astype(np.int64), counts.weight
    if n is None or c is None:
        raise PasscurveError("pass `counts` or both `n` and `c`")
    n_a = as_int_array(n, "n", minimum=None, max_ndim=1).ravel()
    c_a = as_int_array(c, "c", minimum=0, max_ndim=1).ravel()
    if n_a.size != c_a.size:
        n_a, c_a = (x.ravel() for x in np.broadcast_arrays(n_a, c_a)) if n_a.size == 1 else (n_a, c_a)
        if n_a.size != c_a.size:
            raise PasscurveError(f"`n` has {n_a.size} entries but `c` has {c_a.size}")
    n_a, c_a = check_counts(n_a, c_a)
    w = None if weight is None else check_weights(weight, n_a.size)
    return n_a, c_a, w


def _moment_start(n: np.ndarray, c: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Method-of-moments Beta start from per-pair rates (clipped to sane values)."""
    r = (c + 0.5) / (n + 1.0)
    m = float(np.average(r, weights=w))
    v = float(np.average((r - m) ** 2, weights=w))
    v = min(max(v, 1e-8), m * (1 - m) * 0.99)
    t = m * (1 - m) / v - 1
    return max(m * t, 0.05), max((1 - m) * t, 0.05)


# ----------------------------------------------------------------------------------------
# Beta (beta-binomial)
# ----------------------------------------------------------------------------------------
class BetaBinomial(DifficultyModel):
    r"""p ~ Beta(α, β); beta-binomial likelihood :math:`\binom{n}{c} B(c+α, n-c+β)/B(α, β)`.

    Fitted with analytic gradients (digamma) over the distinct (n, c) pairs. Forecast
    :math:`\text{pass}_D@K = 1 - B(α, β+K)/B(α, β)` (Kazdan et al. 2025, arXiv 2510.05197).

    References
    ----------
    Kazdan et al. 2025, arXiv 2510.05197 (likelihood and forecast).
    """

    name = "beta"

    def _start(self, n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
        a, b = _moment_start(n, c, w)
        return [np.log([a, b]), np.log([0.3, 10.0])]

    def _unpack(self, theta: np.ndarray) -> dict[str, float]:
        return {"alpha": float(np.exp(theta[0])), "beta": float(np.exp(theta[1]))}

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        return _beta_log_moment(c, d, np.exp(theta[0]), np.exp(theta[1]), exact)

    def _beta_parts(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        return np.zeros(1), np.exp(theta[:1]), np.exp(theta[1:2]), -np.inf

    def _negloglik(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> float:
        """As the base class's, by count histograms where the pairs far outnumber the counts (:func:`_beta_sums`)."""
        with np.errstate(all="ignore"):  # a runaway fit's exp(theta) overflows, as in the base class
            a, b = np.exp(theta)
        hist, _, wlb = self._fit_histograms(n, c, w, lb)
        s = _beta_sums(c, n - c, w, a, b, hist=hist)
        v = -(wlb + s[0]) if s is not None else np.nan
        return v if np.isfinite(v) else super()._negloglik(theta, n, c, w, lb)

    def _nll_grad(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> Any:
        a, b = np.exp(theta)
        hist, _, wlb = self._fit_histograms(n, c, w, lb)
        s = _beta_sums(c, n - c, w, a, b, order=1, hist=hist)
        if s is not None and np.isfinite(s).all():  # by count histograms (_beta_sums)
            return -(wlb + s[0]), -np.array([s[1] * a, s[2] * b])
        d = n - c
        with np.errstate(all="ignore"):  # shapes under- or overflowed (a runaway theta): the wall of _guarded
            ll = w @ (lb + special.betaln(a + c, b + d)) - w.sum() * special.betaln(a, b)
            dab = special.digamma(a + b + n)
            ga = w @ (special.digamma(a + c) - dab) - w.sum() * (special.digamma(a) - special.digamma(a + b))
            gb = w @ (special.digamma(b + d) - dab) - w.sum() * (special.digamma(b) - special.digamma(a + b))
            return _guarded(-float(ll), -np.array([ga * a, gb * b]))

    def _hessian(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> np.ndarray:
        """The analytic Hessian (trigamma terms) of :meth:`_nll_grad_hess`."""
        return self._nll_grad_hess(theta, n, c, w, lb)[2]

    def _nll_grad_hess(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                       lb: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """Negative log-likelihood, gradient and Hessian in (log α, log β), analytically (ψ, ψ1); by count
        histograms where the pairs far outnumber the counts (:func:`_beta_sums`), else per pair."""
        a, b = np.exp(theta)
        hist, _, wlb = self._fit_histograms(n, c, w, lb)
        s = _beta_sums(c, n - c, w, a, b, order=2, hist=hist)
        if s is not None and np.isfinite(s).all():
            ll, ga, gb, haa, hbb, hab = wlb + s[0], *s[1:]
        else:
            d = n - c
            W = w.sum()
            ll = w @ (lb + special.betaln(a + c, b + d)) - W * special.betaln(a, b)
            dab = special.digamma(a + b + n)
            ga = w @ (special.digamma(a + c) - dab) - W * (special.digamma(a) - special.digamma(a + b))
            gb = w @ (special.digamma(b + d) - dab) - W * (special.digamma(b) - special.digamma(a + b))
            t_ab = special.polygamma(1, a + b + n)
            t0 = special.polygamma(1, a + b)
            haa = w @ (special.polygamma(1, a + c) - t_ab) - W * (special.polygamma(1, a) - t0)
            hbb = w @ (special.polygamma(1, b + d) - t_ab) - W * (special.polygamma(1, b) - t0)
            hab = -(w @ t_ab) + W * t0
        g = np.array([a * ga, b * gb])
        H = np.array([[a * a * haa + a * ga, a * b * hab], [a * b * hab, b * b * hbb + b * gb]])
        return -float(ll), -g, -H

    def _optimize(self, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> Any:
        """Damped Newton with the analytic Hessian; BFGS from several starts if Newton stalls."""
        for x0 in self._start(n, c, w):
            x = np.asarray(x0, dtype=np.float64)
            f, g, H = self._nll_grad_hess(x, n, c, w, lb)
            ok = False
            it = 0
            for it in range(200):  # noqa: B007
                try:
                    step = -np.linalg.solve(H, g)
                    if not np.all(np.isfinite(step)) or g @ step >= 0:  # not a descent direction
                        raise np.linalg.LinAlgError
                except np.linalg.LinAlgError:
                    step = -g / max(np.abs(g).max(), 1.0)
                dec = float(-(g @ step))
                if dec < 1e-10:
                    ok = True
                    break
                step = np.clip(step, -2.0, 2.0)
                t = 1.0
                while t > 1e-8:
                    fn, gn, Hn = self._nll_grad_hess(x + t * step, n, c, w, lb)
                    if np.isfinite(fn) and fn <= f + 1e-4 * t * float(g @ step):
                        break
                    t *= 0.5
                else:
                    break
                x, f, g, H = x + t * step, fn, gn, Hn
            if ok:
                return optimize.OptimizeResult(x=x, fun=f, jac=-g, success=True, nit=it,
                                               message=f"Newton converged (decrement {dec:.1e}, {it} iterations)")
        best = None
        for x0 in self._start(n, c, w):
            res = optimize.minimize(self._nll_grad, x0, args=(n, c, w, lb), jac=True, method="BFGS",
                                    options={"maxiter": 1000, "gtol": 1e-8})
            if best is None or res.fun < best.fun:
                best = res
        return best

    def _at_limit(self, theta: np.ndarray, loglik: float, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                  lb: np.ndarray) -> str | None:
        return _binomial_limit(loglik, float(np.exp(theta).sum()), n, c, w, lb)

    def _density(self, p: np.ndarray) -> np.ndarray:
        return stats.beta.pdf(p, self.params_["alpha"], self.params_["beta"])


class ZeroInflatedBetaBinomial(DifficultyModel):
    r"""A point mass π0 at p = 0 plus (1-π0)·Beta(α, β).

    :math:`M(c, d) = π_0 [c = 0] + (1-π_0) B(α+c, β+d)/B(α, β)`. The forecast
    :math:`(1-π_0)(1 - B(α, β+K)/B(α, β))` plateaus at 1-π0: impossible problems stay
    unsolved for every K.
    """

    name = "zi_beta"

    def _start(self, n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
        a, b = _moment_start(n, c, w)
        z = float(w[c == 0].sum() / w.sum())
        starts = []
        for pi0 in (0.5 * z, 0.9 * z, 0.01):
            pi0 = min(max(pi0, 1e-3), 0.95)
            starts.append(np.array([special.logit(pi0), np.log(a), np.log(b)]))
        return starts

    def _unpack(self, theta: np.ndarray) -> dict[str, float]:
        return {
            "impossible": float(special.expit(theta[0])),
            "alpha": float(np.exp(theta[1])),
            "beta": float(np.exp(theta[2])),
        }

    def _boundary(self, theta: np.ndarray) -> dict[int, str]:
        return {0: "impossible"} if special.expit(theta[0]) < _BOUNDARY else {}

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        lp0 = -np.logaddexp(0.0, -theta[0])  # log expit
        lp1 = -np.logaddexp(0.0, theta[0])
        return np.logaddexp(lp0 + _zero_log_moment(c), lp1 + _beta_log_moment(c, d, np.exp(theta[1]), np.exp(theta[2]), exact))

    def _beta_parts(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        lp0 = -float(np.logaddexp(0.0, -theta[0]))
        return np.array([-float(np.logaddexp(0.0, theta[0]))]), np.exp(theta[1:2]), np.exp(theta[2:3]), lp0

    def _summed(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray,
                grad: bool = False) -> Any:
        r"""The negative log-likelihood (and with ``grad`` its gradient, as :meth:`_negloglik_grad`) by count
        histograms (:func:`_beta_sums`), or None where the pairs are not tabulated or a value is not finite.

        A solved problem's log M is log(1 − π0) + log M_β; an unsolved one's exceeds it by
        log(1 + π0/((1 − π0) M_β(0, n))) ≥ 0. So the sum is W log(1 − π0) + Σ w log M_β over every pair (histograms,
        O(max n)) plus that excess over the unsolved pairs (at most one per distinct n), and likewise the gradient:
        the Beta's Σ w ∂log M_β less the unsolved pairs' r ∂log M_β, r = π0 [c = 0]/M their point-mass weight.
        """
        with np.errstate(all="ignore"):  # a runaway fit's exp(theta) overflows, as in the base class's _negloglik
            a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
        hist, z, wlb = self._fit_histograms(n, c, w, lb)
        s = _beta_sums(c, n - c, w, a, b, order=int(grad), hist=hist)
        if s is None:
            return None
        lp0 = -float(np.logaddexp(0.0, -theta[0]))  # log π0
        lp1 = -float(np.logaddexp(0.0, theta[0]))  # log(1 − π0)
        cz, dz, wz = c[z], n[z] - c[z], w[z]
        W = float(w.sum())
        with np.errstate(all="ignore"):
            lbz = lp1 + _beta_log_moment(cz, dz, a, b, exact=False)
            lmz = np.logaddexp(lp0, lbz)  # the unsolved pairs' log M, as _log_moment_theta
            v = -(wlb + W * lp1 + s[0] + float(wz @ (lmz - lbz)))
            if not grad:
                return v if np.isfinite(v) else None
            r = np.exp(lp0 - lmz)
            daz, dbz = _beta_log_moment_grad(cz, dz, a, b)
            g = -np.array([float(wz @ r) - W * float(special.expit(theta[0])), a * (s[1] - float(wz @ (r * daz))),
                           b * (s[2] - float(wz @ (r * dbz)))])
        return (v, g) if np.isfinite(v) and np.isfinite(g).all() else None

    def _negloglik(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> float:
        """As the base class's, by count histograms where the pairs far outnumber the counts (:meth:`_summed`)."""
        v = self._summed(theta, n, c, w, lb)
        return v if v is not None else super()._negloglik(theta, n, c, w, lb)

    def _negloglik_grad(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                        lb: np.ndarray) -> tuple[float, np.ndarray]:
        """Negative log-likelihood and its analytic gradient in (logit π0, log α, log β).

        With r_i = π0 [c_i = 0] / M_i the posterior weight of the point mass:
        ∂ log M/∂ logit π0 = r − π0, ∂ log M/∂ log α = (1 − r) α ((ψ(α+c) − ψ(α)) − (ψ(α+β+n) − ψ(α+β))),
        and the same for β with (β, n − c).
        """
        a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
        pi0 = float(special.expit(theta[0]))
        summed = self._summed(theta, n, c, w, lb, grad=True)
        if summed is not None:
            return summed
        with np.errstate(all="ignore"):
            lm = self._log_moment_theta(theta, c, n - c, exact=False)
            r = np.where(c == 0, np.exp(-np.logaddexp(0.0, -theta[0]) - lm), 0.0)
            da, db = _beta_log_moment_grad(c, n - c, a, b)
            ga, gb = (1 - r) * a * da, (1 - r) * b * db  # in log α, log β
        return _guarded(-float(w @ (lb + lm)), -np.array([w @ (r - pi0), w @ ga, w @ gb]))

    def _density(self, p: np.ndarray) -> np.ndarray:
        return (1 - self.params_["impossible"]) * stats.beta.pdf(p, self.params_["alpha"], self.params_["beta"])


class ScaledBetaBinomial(DifficultyModel):
    r"""p = s·u with u ~ Beta(α, β) (Schaeffer et al. 2025, arXiv 2502.17578): no problem has p > s.

    pmf :math:`\binom{n}{x} s^x \frac{B(x+α, β)}{B(α, β)} {}_2F_1(-(n-x), x+α; x+α+β; s)`,
    evaluated as a sum of positive terms after Pfaff's transformation (no cancellation).
    Left tail :math:`\propto p^{α-1}`: the power-law exponent is α.

    References
    ----------
    R. Schaeffer et al., "How Do Large Language Monkeys Get Their Power (Laws)?", arXiv:2502.17578
    (the scaled Beta and its beta-binomial pmf).
    """

    name = "scaled_beta"
    _trapezoid_max_n = 0.0  # pmf_bins above 2^14: always the integrals over p (each pmf value is a series)

    def _start(self, n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
        a, b = _moment_start(n, c, w)
        top = float(np.max((c + 1.0) / (n + 2.0)))
        s0 = min(max(2 * top, 0.05), 0.99)
        return [np.array([special.logit(s0), np.log(a), np.log(b)]), np.array([special.logit(0.9), np.log(a), np.log(b)])]

    def _unpack(self, theta: np.ndarray) -> dict[str, float]:
        return {
            "scale": float(special.expit(theta[0])),
            "alpha": float(np.exp(theta[1])),
            "beta": float(np.exp(theta[2])),
        }

    def _boundary(self, theta: np.ndarray) -> dict[int, str]:
        return {0: "scale"} if special.expit(-theta[0]) < _BOUNDARY else {}  # 1 - s: the scale at 1

    def _at_limit(self, theta: np.ndarray, loglik: float, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                  lb: np.ndarray) -> str | None:
        return _binomial_limit(loglik, float(np.exp(theta[1:]).sum()), n, c, w, lb)

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        """The Pfaff series (:func:`_scaled_log_moment`) at whole d. It terminates only there (for d = 2.5 it gave
        pass@2.5 = 0.141 where pass@2 and pass@3 are 0.084 and 0.117 at α = 0.3, β = 3, s = 0.5), so between whole d
        log M is interpolated linearly in d: exact at every whole d, decreasing in d, and above the convex log M in
        between (pass@2.5 there 0.10079 against 0.10124 by quadrature, pass@999.5 8e-9 low), so a K solved for on it
        (``k_for``) rounds up to the exact smallest whole K."""
        s = min(float(special.expit(theta[0])), 1 - 1e-12)
        a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
        c, d = np.broadcast_arrays(np.asarray(c, dtype=np.float64), np.asarray(d, dtype=np.float64))
        below = np.floor(d)
        frac = d - below
        if not frac.any():
            return _scaled_log_moment(c, d, a, b, s)
        lo = _scaled_log_moment(c, below, a, b, s)
        return lo + frac * (_scaled_log_moment(c, below + 1.0, a, b, s) - lo)

    # how the fit evaluates the likelihood: "auto" chooses per distinct n between whole rows (each alone or
    # several in lockstep) and the series by their cost (see _plan); "rows", "lockstep" and "series" force one
    # (tests and benchmarks)
    _row_rule = "auto"

    def _plan(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray,
              w: np.ndarray) -> tuple[_Rows, np.ndarray, np.ndarray]:
        r"""Which distinct n the likelihood takes as whole rows, the indices of the pairs left to the series and
        of those in the rows.

        Chosen once per fit data (cached on the arrays' identity; the fit passes the same arrays to every
        evaluation), at the first parameters it is called with. A row costs about
        ``_ROW_STEP_TERMS``·N + ``_ROW_FIXED_TERMS`` series terms (:func:`_scaled_rows_loglik`), the n's pairs
        by the series the sum of their windows' lengths there (:func:`_scaled_window`): a row wins when the
        n has many distinct c (10^4 problems at n = 10^4: about 2,000 pairs of about 1,000 terms each
        against one row of 10^4 steps), the series when each n has one or two. No row is longer than
        ``_ROW_MAX`` (2^20; the loop keeps the row's ratios and adjoint in Python lists). Rows of many n advance
        in lockstep (:func:`_block_loglik`; chosen by :func:`_lockstep_rows`, one block at most), one numpy step
        for all of them: 10^5 problems with n uniform in [100, 1000] (901 n, 51,189 pairs of about 70 terms each)
        take one block of 901 rows instead of the series and single rows, 22 ms against 166 ms for an evaluation
        with gradient (``benchmarks/bench_lockstep_rows.py``).
        """
        cached = getattr(self, "_plan_cache", None)
        if cached is not None and cached[0] is n and cached[1] is c and cached[2] is w:
            return cached[3]
        ns, inv = np.unique(n, return_inverse=True)
        lock = np.zeros(ns.size, dtype=bool)
        if self._row_rule == "series" or ns.size == 0:
            use = np.zeros(ns.size, dtype=bool)
        elif self._row_rule in ("rows", "lockstep"):
            use = ns >= 1
            lock = use & (self._row_rule == "lockstep")
        else:
            s = min(float(special.expit(theta[0])), 1 - 1e-12)
            a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
            try:
                with np.errstate(all="ignore"):
                    lo, hi = _scaled_window(c, n - c, a, b, s)
                series_cost = np.bincount(inv, weights=hi - lo + 1.0, minlength=ns.size)
            except PasscurveError:  # degenerate starting parameters: the series would fail there anyway
                series_cost = np.full(ns.size, np.inf)
            use = (ns >= 1) & (ns <= _ROW_MAX) & (_ROW_STEP_TERMS * ns + _ROW_FIXED_TERMS < series_cost)
            lock = _lockstep_rows(ns, series_cost, use)
            use |= lock
        rows = _Rows()
        for k in np.flatnonzero(use).tolist():
            sel = inv == k
            rows.append(_scaled_row(int(ns[k]), c[sel].astype(np.int64), w[sel]))
            rows[-1].lockstep = bool(lock[k])
        rows.blocks = _row_blocks(rows)
        plan = rows, np.flatnonzero(~use[inv]), np.flatnonzero(use[inv])
        self._plan_cache = (n, c, w, plan)
        return plan

    def _negloglik(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray, lb: np.ndarray) -> float:
        """Negative log-likelihood (with the whole-row path of :meth:`_plan`)."""
        rows, ser, in_rows = self._plan(theta, n, c, w)
        s = min(float(special.expit(theta[0])), 1 - 1e-12)
        a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
        with np.errstate(all="ignore"):
            # the quadrature where the series' window is long, by the same rule as the gradient's (_negloglik_grad)
            ll = -float(w[ser] @ (lb[ser] + _scaled_log_moment(c[ser], n[ser] - c[ser], a, b, s)))
            if rows:
                ll -= float(w[in_rows] @ lb[in_rows]) + _scaled_rows_loglik(rows, a, b, s, blocks=rows.blocks)
        return ll if np.isfinite(ll) else 1e300

    def _negloglik_grad(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                        lb: np.ndarray) -> tuple[float, np.ndarray]:
        """Negative log-likelihood and its analytic gradient in (logit s, log α, log β)."""
        rows, ser, in_rows = self._plan(theta, n, c, w)
        s = min(float(special.expit(theta[0])), 1 - 1e-12)
        a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
        with np.errstate(all="ignore"):
            lm, gs = _scaled_log_moment(c[ser], n[ser] - c[ser], a, b, s, grad=True)
            nll, g = -float(w[ser] @ (lb[ser] + lm)), -(w[ser] @ gs)
            if rows:
                ll_rows, g_rows = _scaled_rows_loglik(rows, a, b, s, grad=True, blocks=rows.blocks)
                nll -= float(w[in_rows] @ lb[in_rows]) + ll_rows
                g = g - g_rows
        # g is in (a, b, s) order
        return _guarded(nll, g[[2, 0, 1]] * np.array([s * (1.0 - s), a, b]))

    def _pmf_rows(self, ns: list[int]) -> list[np.ndarray]:
        """Whole pmf rows by the backward three-term recurrence (:func:`_scaled_log_moment_rows`)."""
        theta = self._check_fitted()
        s = min(float(special.expit(theta[0])), 1 - 1e-12)
        with np.errstate(all="ignore"):
            rows = _scaled_log_moment_rows(ns, float(np.exp(theta[1])), float(np.exp(theta[2])), s)
        out = []
        for n, row in zip(ns, rows, strict=True):
            cs = np.arange(n + 1, dtype=np.float64)
            out.append(np.exp(_log_binom(np.full_like(cs, n), cs) + row))
        return out

    # -- posterior quantities as sums of positive terms (see _scaled_posterior) ----------------------------------
    def _exact_params(self) -> tuple[float, float, float] | None:
        """(a, b, s) as the moments use them, or None where they are not finite (a runaway fit)."""
        theta = self._check_fitted()
        with np.errstate(all="ignore"):
            a, b = float(np.exp(theta[1])), float(np.exp(theta[2]))
            s = min(float(special.expit(theta[0])), 1 - 1e-12)
        ok = np.isfinite(a) and np.isfinite(b) and a > 0 and b > 0 and 0 < s < 1
        return (a, b, s) if ok else None

    def _exact_plan(self, n_a: np.ndarray, c_a: np.ndarray, k_a: np.ndarray,
                    var: bool) -> tuple[tuple[float, float, float], np.ndarray, tuple[np.ndarray, np.ndarray],
                                        np.ndarray] | None:
        """Which values (flat indices) the positive sums take, their Pfaff windows and the sums of the two windows'
        lengths: those with integer k whose (Pfaff window) × (binomial window of k, or 2k with ``var``) is at most
        ``_SCALED_EXACT_TERMS`` terms."""
        params = self._exact_params()
        if params is None:
            return None
        a, b, s = params
        c, d, k = c_a.ravel(), (n_a - c_a).ravel(), k_a.ravel()
        with np.errstate(all="ignore"):
            lo, hi = _scaled_window(c, d, a, b, s)
            blo, bhi = _binomial_window(2.0 * k if var else k, s)
            cost = (hi - lo + 1.0) * (bhi - blo + 1.0)
        use = np.flatnonzero((k == np.floor(k)) & (cost <= _SCALED_EXACT_TERMS))
        return params, use, (lo[use], hi[use]), (hi - lo + bhi - blo + 2.0)[use]

    def pass_at_k(self, k: Any) -> np.ndarray:
        """Population pass_D@k = 1 - E[(1-p)^k] for a new problem drawn from the fit (k > 0).

        For integer k whose binomial window (:func:`_binomial_window`) has at most ``_SCALED_EXACT_TERMS`` terms, the
        binomial mixture of the Beta's exact pass@i (:func:`_scaled_fail_rows`), to ~1e-15 relative; elsewhere
        1 − exp of the Pfaff series' log moment, whose log carries an absolute error of ~1e-16 of the series'
        log Γ terms.

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0.

        Returns
        -------
        ndarray of float
            pass_D@k, the shape of ``k`` (0-d for a scalar).
        """
        out = np.array(super().pass_at_k(k), dtype=np.float64)
        params = self._exact_params()
        if params is None:
            return out
        a, b, s = params
        kf = out * 0.0 + check_positive_k(k)
        flat, res = kf.ravel(), out.ravel()
        lo, hi = _binomial_window(flat, s)
        use = np.flatnonzero((flat == np.floor(flat)) & (hi - lo + 1.0 <= _SCALED_EXACT_TERMS))
        if use.size:
            with np.errstate(all="ignore"):
                res[use] = _scaled_fail_rows(np.full(use.size, a), np.full(use.size, b), flat[use], s)[1]
        return res.reshape(out.shape)

    def posterior_pass_at_k(self, n: Any, c: Any, k: Any) -> np.ndarray:
        """Empirical-Bayes pass@k of observed problems: 1 - E[(1-p)^k | n, c] (0 <= c <= n, k > 0).

        By :func:`_scaled_posterior` (the posterior as a mixture of Betas over the Pfaff index, each component's
        pass@k a binomial mixture of exact Beta pass@i: ~1e-15 relative) where that sums at most
        ``_SCALED_EXACT_TERMS`` terms per value; elsewhere (non-integer k, or both windows wide) 1 − exp of a
        difference of the series' log moments.

        Parameters
        ----------
        n, c : array_like of int
            Each problem's samples and successes (0 <= c <= n, n >= 1).
        k : array_like of float
            Budgets k > 0; ``n``, ``c`` and ``k`` broadcast.

        Returns
        -------
        ndarray of float
            The posterior pass@k, the broadcast shape (0-d for scalars).
        """
        n_a, c_a, k_a = np.broadcast_arrays(*_posterior_iv(n, c, k))
        plan = self._exact_plan(n_a, c_a, k_a, var=False)
        if plan is None:
            return super().posterior_pass_at_k(n_a, c_a, k_a)
        (a, b, s), use, window, _ = plan
        out = np.empty(n_a.size)
        rest = np.setdiff1d(np.arange(n_a.size), use)
        if rest.size:
            out[rest] = super().posterior_pass_at_k(n_a.ravel()[rest], c_a.ravel()[rest], k_a.ravel()[rest])
        if use.size:
            c, d, kk = c_a.ravel()[use], (n_a - c_a).ravel()[use], k_a.ravel()[use]
            out[use] = _scaled_posterior(c, d, kk, a, b, s, window)
        return out.reshape(n_a.shape)

    def _posterior_exact(self, n: Any, c: Any, k: Any) -> tuple[np.ndarray, ...]:
        """Var[(1-p)^k | n, c], E[(1-p)^k | n, c], E[(1-p)^(2k) | n, c] by :func:`_scaled_posterior` where its cost
        rule allows (:meth:`_exact_plan`), else from differences of log moments (the base class's)."""
        n_a, c_a, k_a = np.broadcast_arrays(*_posterior_iv(n, c, k))
        plan = self._exact_plan(n_a, c_a, k_a, var=True)
        var, m1, m2 = np.empty(n_a.size), np.empty(n_a.size), np.empty(n_a.size)
        use = np.zeros(0, dtype=np.int64)
        if plan is not None and plan[1].size:
            (a, b, s), use, window, lens = plan
            c, d, kk = c_a.ravel()[use], (n_a - c_a).ravel()[use], k_a.ravel()[use]
            _, var[use], m1[use], m2[use] = _scaled_posterior(c, d, kk, a, b, s, window, var=True)
            # the windows leave out terms below e^-70 of their largest (all together below their number times
            # that, of a total weight 1, each term's moment at most 1): a failure moment must exceed that by 2^53
            use = use[m2[use] >= 2.0**53 * np.exp(-_WINDOW_DROP) * lens]
        rest = np.setdiff1d(np.arange(n_a.size), use)
        if rest.size:
            args = (n_a.ravel()[rest], c_a.ravel()[rest], k_a.ravel()[rest])
            m1[rest], m2[rest] = super().posterior_fail_moments(*args)
            var[rest] = np.maximum(m2[rest] - m1[rest] ** 2, 0.0)
        return var.reshape(n_a.shape), m1.reshape(n_a.shape), m2.reshape(n_a.shape)

    def posterior_fail_moments(self, n: Any, c: Any, k: Any) -> tuple[np.ndarray, np.ndarray]:
        """E[(1-p)^k | n, c] and E[(1-p)^(2k) | n, c] (for predictive variances), each a posterior-weighted sum of
        positive terms where :meth:`_exact_plan` allows (see :meth:`_posterior_fail_var` for their difference).

        Parameters
        ----------
        n, c : array_like of int
            Each problem's samples and successes (0 <= c <= n, n >= 1).
        k : array_like of float
            Budgets k > 0; ``n``, ``c`` and ``k`` broadcast.

        Returns
        -------
        (m1, m2) : tuple of two ndarrays of float
            E[(1-p)^k | n, c] and E[(1-p)^(2k) | n, c], each the broadcast shape.
        """
        _, m1, m2 = self._posterior_exact(n, c, k)
        return m1, m2

    def _posterior_fail_var(self, n: Any, c: Any, k: Any) -> np.ndarray:
        """Var[(1-p)^k | n, c] = Var[pass@k | n, c] (the forecast's posterior variance), broadcasting: within and
        between the posterior's Beta components (:func:`_scaled_posterior`) where :meth:`_exact_plan` allows,
        else m2 - m1² from differences of log moments, floored at 0."""
        return self._posterior_exact(n, c, k)[0]

    def _law_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float] | None:
        theta = self._check_fitted()
        with np.errstate(over="ignore"):
            A, B = np.exp(theta[1:2]), np.exp(theta[2:3])
        if not (np.isfinite(A).all() and np.isfinite(B).all()):
            return None
        return np.ones(1), A, B, special.expit(theta[:1]), special.expit(-theta[:1]), 0.0  # 1 - s to its last digits

    def _density(self, p: np.ndarray) -> np.ndarray:
        s = self.params_["scale"]
        return stats.beta.pdf(p / s, self.params_["alpha"], self.params_["beta"]) / s


class BetaMixtureBinomial(DifficultyModel):
    r"""A point mass π0 at p = 0 plus a mixture of ``components`` Betas.

    .. math:: M(c, d) = π_0 [c=0] + \sum_j π_j B(α_j+c, β_j+d)/B(α_j, β_j)

    With two components the hard-problem component describes the left tail (which drives
    the forecast) without being pulled by the bulk of easy problems. The reported
    ``alpha`` (the tail exponent) is the smallest α_j among components with weight > 1%.
    """

    name = "beta_mixture"

    def __init__(self, components: int = 2, zero_inflated: bool = True) -> None:
        super().__init__()
        self.components = check_positive_int(components, "components", maximum=20)
        self.zero_inflated = check_flag(zero_inflated, "zero_inflated")  # bool("no") was True

    def _nw(self) -> int:
        return self.components - 1 + int(self.zero_inflated)

    def _start(self, n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list[np.ndarray]:
        a, b = _moment_start(n, c, w)
        r = (c + 0.5) / (n + 1.0)
        starts = []
        for spread in (1.0, 3.0):
            logits = []
            if self.zero_inflated:
                z = float(w[c == 0].sum() / w.sum())
                logits.append(np.log(max(z * 0.5, 1e-3)))
            comp = []
            qs = np.linspace(0.2, 0.8, self.components)
            for q in qs:
                mq = float(np.quantile(r, q))
                conc = max(a + b, 1.0) * spread
                comp += [np.log(max(mq * conc, 0.05)), np.log(max((1 - mq) * conc, 0.05))]
            wl = np.array(logits + [0.0] * (self.components - 1))
            starts.append(np.concatenate([wl, np.array(comp)]))
        return starts

    def _weights(self, theta: np.ndarray) -> np.ndarray:
        nw = self._nw()
        logits = np.concatenate([theta[:nw], [0.0]])
        return special.softmax(logits)

    def _unpack(self, theta: np.ndarray) -> dict[str, float]:
        wts = self._weights(theta)
        nw = self._nw()
        out: dict[str, float] = {}
        off = 0
        if self.zero_inflated:
            out["impossible"] = float(wts[0])
            off = 1
        ab = np.exp(theta[nw:]).reshape(self.components, 2)
        for j in range(self.components):
            out[f"weight{j + 1}"] = float(wts[off + j])
            out[f"alpha{j + 1}"] = float(ab[j, 0])
            out[f"beta{j + 1}"] = float(ab[j, 1])
        return out

    def _boundary(self, theta: np.ndarray) -> dict[int, str]:
        return {0: "impossible"} if self.zero_inflated and self._weights(theta)[0] < _BOUNDARY else {}

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        wts = self._weights(theta)
        nw = self._nw()
        ab = np.exp(theta[nw:]).reshape(self.components, 2)
        with np.errstate(divide="ignore"):
            lw = np.log(wts)
        terms = []
        off = 0
        if self.zero_inflated:
            terms.append(lw[0] + _zero_log_moment(c))
            off = 1
        tab = _TABLE_UNSET
        if not exact:  # the likelihood's per-count table, built once for every component
            c, d = np.asarray(c, dtype=np.float64), np.asarray(d, dtype=np.float64)
            tab = _whole_number_table(c, d, 1.0, 1.0)
        for j in range(self.components):
            terms.append(lw[off + j] + _beta_log_moment(c, d, ab[j, 0], ab[j, 1], exact, tab=tab))
        return special.logsumexp(np.stack(terms), axis=0)

    def _beta_parts(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        ab = np.exp(theta[self._nw():]).reshape(self.components, 2)
        with np.errstate(divide="ignore"):
            lw = np.log(self._weights(theta))
        off = 1 if self.zero_inflated else 0
        return lw[off:], ab[:, 0], ab[:, 1], float(lw[0]) if self.zero_inflated else -np.inf

    def _negloglik_grad(self, theta: np.ndarray, n: np.ndarray, c: np.ndarray, w: np.ndarray,
                        lb: np.ndarray) -> tuple[float, np.ndarray]:
        """Negative log-likelihood and its analytic gradient.

        With r_k the posterior responsibility of mixture part k (the point mass first):
        ∂ log M/∂ logit_j = r_j − π_j for the free logits, and for Beta component j
        ∂ log M/∂ log α_j = r_j α_j ((ψ(α_j+c) − ψ(α_j)) − (ψ(α_j+β_j+n) − ψ(α_j+β_j))), likewise β_j with n − c.
        """
        nw = self._nw()
        wts = self._weights(theta)
        ab = np.exp(theta[nw:]).reshape(self.components, 2)
        d = n - c
        tab = _whole_number_table(c, d, 1.0, 1.0)  # built once for every component's terms and gradient
        with np.errstate(all="ignore"):
            lw = np.log(wts)
            parts = ([lw[0] + _zero_log_moment(c)] if self.zero_inflated else []) + [
                lw[len(lw) - self.components + j] + _beta_log_moment(c, d, ab[j, 0], ab[j, 1], exact=False, tab=tab)
                for j in range(self.components)
            ]
            T = np.stack(parts)
            lm = special.logsumexp(T, axis=0)
            r = np.exp(T - lm)  # parts x pairs
            grad = np.empty(theta.size)
            grad[:nw] = (r[:nw] - wts[:nw, None]) @ w
            off = int(self.zero_inflated)
            for j in range(self.components):
                a, b = ab[j]
                da, db = _beta_log_moment_grad(c, d, a, b, tab)
                grad[nw + 2 * j] = (r[off + j] * a * da) @ w
                grad[nw + 2 * j + 1] = (r[off + j] * b * db) @ w
        return _guarded(-float(w @ (lb + lm)), -grad)

    @property
    def tail_exponent_(self) -> float:
        al = [
            self.params_[f"alpha{j + 1}"]
            for j in range(self.components)
            if self.params_[f"weight{j + 1}"] > 0.01
        ]
        return float(min(al)) if al else np.nan

    def _density(self, p: np.ndarray) -> np.ndarray:
        out = np.zeros_like(p)
        for j in range(self.components):
            out += self.params_[f"weight{j + 1}"] * stats.beta.pdf(p, self.params_[f"alpha{j + 1}"], self.params_[f"beta{j + 1}"])
        return out


_CNM_FLOOR = 1e-6  # relative duality gap accepted when double precision allows no further ascent
_NNLS_QR_FROM = 4.0  # _npmle_cnm's least squares reduced by QR where its rows outnumber its columns this many times


def _qr_reduced(A: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""A k-row least-squares problem with the same minimisers as :math:`\min_x \|Ax - b\|` (A m × k, m > k).

    The QR factorisation of [A | b] (Householder, R only) gives :math:`\|Ax - b\|^2 = \|R_{11}x - r\|^2 + \rho^2`
    with ρ independent of x, so any constraint set (nnls' x >= 0) has the same solution on (R₁₁, r) up to rounding,
    at O(m k²) once instead of the solver's passes over m rows (``nnls`` on 51,190 × 401: 2.8 s, the
    reduction 1.5 s and 0.01 s)."""
    k = A.shape[1]
    R = np.asarray(np.linalg.qr(np.column_stack([A, b]), mode="r"))
    return R[:k, :k], R[:k, k]


def _npmle_cnm(L: np.ndarray, pw: np.ndarray, max_iter: int, tol: float) -> tuple[np.ndarray, int, float, bool]:
    """Wang's (2007) constrained Newton method for max_w sum_i pw_i log (L w)_i on the simplex.

    Returns (weights, iterations, duality-gap bound N (max_j D_j - 1), converged).
    """
    N = float(pw.sum())
    m = L.shape[1]
    sq = np.sqrt(pw)
    w = np.full(m, 1.0 / m)  # every row of L has maximum 1, so f_i >= 1/m > 0
    f = L @ w
    ll = float(pw @ np.log(f))
    gap = np.inf
    for it in range(1, max_iter + 1):
        g = (pw / f) @ L  # the log-likelihood's gradient in w, computed once per iteration
        D = g / N  # the gradient function
        gap = N * (float(D.max()) - 1.0)
        if gap <= tol * max(1.0, abs(ll)):
            return w, it, max(gap, 0.0), True
        # the support so far plus the local maxima of the gradient function above 1
        peaks = (D > 1.0) & (D >= np.r_[-np.inf, D[:-1]]) & (D >= np.r_[D[1:], -np.inf])
        S = np.flatnonzero((w > 0) | peaks)
        # quadratic approximation of the log-likelihood in the ratios r_i = (L w)_i / f_i:
        # log r ~ -(r - 2)^2 / 2 + 1/2, i.e. non-negative least squares; a heavy row enforces sum(w) = 1
        heavy = 1e3 * np.sqrt(N)
        A1, b1 = (L[:, S] / f[:, None]) * sq[:, None], 2.0 * sq
        if A1.shape[0] > _NNLS_QR_FROM * (S.size + 1):  # the data rows by QR (_qr_reduced), the heavy row kept apart
            A1, b1 = _qr_reduced(A1, b1)
        A = np.vstack([A1, np.full(S.size, heavy)])
        b = np.r_[b1, heavy]
        try:
            ws, _ = optimize.nnls(A, b, maxiter=100 * S.size)
        except RuntimeError:  # NNLS iteration limit: fall back to one EM step
            ws = (w * g / N)[S]
        if not ws.sum() > 0:
            return w, it, max(gap, 0.0), False
        target = np.zeros(m)
        target[S] = ws / ws.sum()
        d = target - w
        slope = float(g @ d)
        step, new_ll, new_f = 1.0, -np.inf, f
        while step > 1e-10:  # Armijo backtracking along the segment (stays on the simplex)
            new_f = L @ (w + step * d)
            new_ll = float(pw @ np.log(new_f)) if (new_f > 0).all() else -np.inf
            if new_ll >= ll + step * slope / 3.0:
                break
            step /= 2.0
        if not new_ll > ll:  # no step improves in double precision: converged if the certificate is tight
            return w, it, max(gap, 0.0), gap <= _CNM_FLOOR * max(1.0, abs(ll))
        w = w + step * d
        # drop an atom only where it is negligible in every problem's likelihood; a global threshold
        # (w < 1e-14 max w) dropped atoms that a few problems rely on alone, whose f then collapsed
        f = L @ w
        w[(w[None, :] * L / f[:, None]).max(axis=0) < 1e-14] = 0.0
        w /= w.sum()
        f = L @ w
        # one EM step w_j <- w_j D_j: it never lowers the likelihood and restores, in one step, an atom that
        # the quadratic model (which can about double a ratio per iteration) would need ~log2(1/f) steps for
        w = w * ((pw / f) @ L) / N
        w /= w.sum()
        f = L @ w
        ll = float(pw @ np.log(f))
    return w, max_iter, max(gap, 0.0), False


class GridMixture(DifficultyModel):
    r"""Nonparametric MLE (Kiefer–Wolfowitz) of the difficulty distribution on a grid.

    The grid holds p = 0, ``grid_size`` log-spaced points from ``p_min`` to 1, and the problems' own
    rates c/n (up to 200 of them); the
    weights w maximise the concave :math:`\ell(w) = \sum_i \log \sum_j w_j L_{ij}` with
    :math:`L_{ij} = \binom{n_i}{c_i} p_j^{c_i}(1-p_j)^{n_i-c_i}`, w on the simplex.

    Solved by the constrained Newton method of Wang (2007, JRSS-B 69:185–198): add the
    local maxima of the gradient function :math:`D_j = \frac{1}{N}\sum_i L_{ij}/f_i` above 1
    to the support, solve the quadratic approximation of ℓ on the support by non-negative
    least squares, take an Armijo step, then one EM step (w_j ← w_j D_j, which never lowers ℓ and restores
    at once an atom that a few problems rely on). It stops on a certificate, not on a small change:
    by concavity and log x ≤ x − 1, :math:`\ell(w^*) - \ell(w) \le N(\max_j D_j - 1)`, so
    ``success_`` means the log-likelihood is within ``tol``·max(1, |ℓ|) of the maximum over all
    mixing laws on the grid (``duality_gap_`` holds the bound). It takes about ten iterations
    and gives a sparse support, where EM needs thousands of iterations and smears the mass.

    Standard errors are not reported (infinite-dimensional parameter). The data barely tell
    p = 0 from p << 1/n: a never-solved problem's likelihood (1 - p)^n is nearly 1 at any such p,
    so the fit may place it at p = 0 or on a small atom shared with the problems solved once, and
    the mass at p = 0 (``impossible``) bounds the truly impossible share neither way (on the
    Pythia/MATH counts, n = 10^4: 0 for Pythia 1B with 26% of problems never solved and 30% of
    the mass below p = 10^-4; 0.084 for 12B with 12.5% never solved). A diagnostic of shape, not
    the default forecaster.

    ``n_params_`` (for AIC, BIC and the goodness of fit's degrees of freedom) counts a J-atom law's J − 1 free
    weights and its J locations, less the location of an atom at p = 0, which is fixed: 2J − 1 − [w_0 > 0]. Its AIC
    is still not a model choice: the grid's atoms are picked by the data, and :meth:`DifficultyFit.best` leaves
    ``npmle`` out.
    """

    name = "npmle"
    @property
    def pmf_bins_max_n(self) -> float:
        return float("inf")  # binomial CDFs: exact and O(atoms x bins) at any n
    _ATOM = 1e-6  # a grid point with more weight than this is an atom of the fitted law (its support)

    def pmf_bins_many(self, ns: Any, bounds: Any) -> list[np.ndarray]:
        """P(bounds[j] <= c < bounds[j+1]) exactly: Σ_atoms w · (binomial CDF differences).

        O(atoms × bins) for any n (scipy's binomial CDF and survival function; the survival
        function where the CDF is above 1/2, so a bin far in the upper tail keeps its digits).

        Parameters
        ----------
        ns : sequence of int
            The n of each row (>= 1).
        bounds : sequence of sequences of int
            One increasing sequence of bin edges per n, from 0 to that n + 1.

        Returns
        -------
        list of ndarray of float
            One array per n, of that row's bins' probabilities.
        """
        self._check_fitted()
        return [self._cdf_bins(n, b) for n, b in _pmf_bins_many_iv(ns, bounds)]

    def _cdf_bins(self, n: int, b: np.ndarray) -> np.ndarray:
        g = self.grid_[:, None]
        x = (b - 1)[None, :]
        cdf = stats.binom.cdf(x, n, g)
        sf = stats.binom.sf(x, n, g)
        mass = np.where(cdf[:, :-1] < 0.5, cdf[:, 1:] - cdf[:, :-1], sf[:, :-1] - sf[:, 1:])
        return np.asarray(self.weights_ @ np.maximum(mass, 0.0))

    def __init__(self, grid_size: int = 200, p_min: float = 1e-7, max_iter: int = 200, tol: float = 1e-8) -> None:
        super().__init__()
        self.grid_size = check_positive_int(grid_size, "grid_size", minimum=2, maximum=100_000)
        self.p_min = check_scalar(p_min, "p_min")
        if not 0.0 < self.p_min < 1.0:
            raise PasscurveError(f"`p_min` must be in (0, 1) (got p_min={fmt(self.p_min)})")
        self.max_iter = check_positive_int(max_iter, "max_iter")
        self.tol = check_scalar(tol, "tol")
        if not self.tol > 0:
            raise PasscurveError(f"`tol` must be > 0 (got tol={fmt(self.tol)})")

    def fit(self, counts: Any = None, *, n: Any = None, c: Any = None, weight: Any = None) -> GridMixture:
        n_a, c_a, w_a = _fit_iv(counts, n, c, weight)
        pn, pc, pw = _pairs(n_a, c_a, w_a)
        keep = pw > 0
        pn, pc, pw = pn[keep], pc[keep], pw[keep]
        self.pairs_ = (pn, pc, pw)
        grid = self._grid(pn, pc, pw)
        with np.errstate(divide="ignore", invalid="ignore"):
            logL = (
                _log_binom(pn, pc)[:, None]
                + special.xlogy(pc[:, None], grid[None, :])
                + special.xlog1py((pn - pc)[:, None], -grid[None, :])
            )
        mx = logL.max(axis=1, keepdims=True)
        L = np.exp(logL - mx)  # every row has maximum 1
        wts, it, gap, ok = _npmle_cnm(L, pw, self.max_iter, self.tol)
        self.grid_ = grid
        self.weights_ = wts
        self._theta = np.log(np.maximum(wts, 1e-300))
        self.loglik_ = float(pw @ (np.log(L @ wts) + mx[:, 0]))
        self.duality_gap_ = float(gap)
        self.success_ = bool(ok)
        self.message_ = (f"constrained Newton method: {'converged' if ok else 'stopped'} after {it} iterations "
                         f"(log-likelihood within {gap:.2g} of the maximum over mixing laws on its grid)")
        self.n_problems_ = int(n_a.size)
        self.n_samples_ = int(n_a.sum())
        support = wts > self._ATOM  # the effective support
        atoms = int(support.sum())
        # a J-atom mixing law has J - 1 free weights and J locations, less the atom at p = 0 whose location is fixed
        # (as a zero-inflated law's is): 2J - 1 - [0 in the support]. It counted J, so its AIC (Pythia 6.9B: 1393.4
        # with 30 atoms against the Beta's 1408.4) read as a better fit than the parametric laws' by a count that
        # left out where the atoms are (now 1451.4 with 59 parameters)
        self.n_params_ = 2 * atoms - 1 - int(bool(support[0]))
        self.aic_ = 2 * self.n_params_ - 2 * self.loglik_
        self.bic_ = float(self.n_params_ * np.log(max(self.n_problems_, 1)) - 2 * self.loglik_)
        self.params_ = {"impossible": float(wts[0]), "support_points": float(atoms)}
        self.se_ = {k: np.nan for k in self.params_}
        if not self.success_:
            warnings.warn(f"npmle fit did not converge: {self.message_}", ConvergenceWarning, stacklevel=2)
        return self

    _DATA_POINTS = 200  # most per-problem rates c/n added to the grid (quantiles of them beyond that)

    def _grid(self, pn: np.ndarray, pc: np.ndarray, pw: np.ndarray) -> np.ndarray:
        """0, ``grid_size`` points log-spaced from p_min to 1, the pooled rate (the best single atom), and the
        problems' own rates c/n (all of them up to 200 distinct values, else 200 quantiles): the fixed points alone jumped from 0.922 to 1 and are
        far coarser than the likelihood of a problem with large n (on 100 problems with c = 99 of 100 the
        NPMLE's log-likelihood was -596 against -99.5 for a Beta fit; with n = 10^6, -3454 against -1147).
        (Points log-spaced toward 1 as well, in log-odds, stalled the constrained Newton method.)"""
        inner = np.logspace(np.log10(self.p_min), 0, self.grid_size)
        rates = np.unique(pc / pn)
        if rates.size > self._DATA_POINTS:
            rates = np.unique(np.quantile(rates, np.linspace(0.0, 1.0, self._DATA_POINTS), method="nearest"))
        pooled = float(pc @ pw) / float(pn @ pw)  # the best single atom
        return np.unique(np.concatenate([[0.0, 1.0, pooled], inner, rates]))

    def _log_moment_theta(self, theta: np.ndarray, c: np.ndarray, d: np.ndarray, exact: bool = True) -> np.ndarray:
        g = self.grid_
        with np.errstate(divide="ignore", invalid="ignore"):
            lt = special.xlogy(c[..., None], g) + special.xlog1py(d[..., None], -g) + np.log(np.maximum(self.weights_, 1e-300))
        return special.logsumexp(lt, axis=-1)

    @property
    def tail_exponent_(self) -> float:
        return np.nan

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        keep = self.weights_ > self._ATOM  # the support n_params_ counts
        d["support"] = {"p": self.grid_[keep].tolist(), "weight": self.weights_[keep].tolist()}
        return d


DIFFICULTY_MODELS: dict[str, Any] = {
    "beta": BetaBinomial,
    "zi_beta": ZeroInflatedBetaBinomial,
    "scaled_beta": ScaledBetaBinomial,
    "beta_mixture": BetaMixtureBinomial,
    "npmle": GridMixture,
}


# ----------------------------------------------------------------------------------------
# convenience over Counts with several models
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class DifficultyFits(ReadOnlyResult):
    """Fitted difficulty models per (benchmark model, difficulty model).

    Attributes
    ----------
    fits : dict of str to dict of str to DifficultyModel
        ``fits[model][difficulty_model]``.
    warnings : tuple of str
    """

    # the generated repr printed every fit's summary: 5,702 characters on one line for the Pythia file's 7 models
    __repr__ = brief_repr

    fits: dict[str, dict[str, DifficultyModel]]
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(self.fits)

    def __getitem__(self, model: str) -> dict[str, DifficultyModel]:
        """``fits[model]``: one benchmark model's fitted laws, by difficulty model (``fits["M"]["beta"]``); an unknown
        name is the error listing the models present."""
        return self.fits[self.models[pick_model(self.models, self._benchmark_model(model))]]

    def _benchmark_model(self, model: Any) -> Any:
        """``model`` (a benchmark model's name), or the error for a difficulty model's name passed in its
        place."""
        if isinstance(model, str) and model in DIFFICULTY_MODELS and model not in self.fits:
            raise PasscurveError(f"{unknown_model(model, list(self.fits))} (`model` names the benchmark model; every "
                                 f"fitted difficulty model is drawn)")
        return model

    def best(self, model: str, criterion: str = "aic") -> DifficultyModel:
        """The fit with the smallest AIC (or BIC) for one benchmark model (npmle excluded; among the converged fits
        when any converged).

        Parameters
        ----------
        model : str
            A benchmark model's name (not a difficulty model's).
        criterion : {"aic", "bic"}, default "aic"

        Returns
        -------
        DifficultyModel
            The chosen fitted law.
        """
        model = self.models[pick_model(self.models, self._benchmark_model(model))]
        check_choice(criterion, "criterion", ("aic", "bic"), quoted=True)
        cands = {k: v for k, v in self.fits[model].items() if k != "npmle" and v.success_}
        if not cands:
            cands = self.fits[model]
        return min(cands.values(), key=lambda f: getattr(f, f"{criterion}_"))

    def to_dict(self) -> dict[str, Any]:
        """One record per fit: ``model`` (the benchmark model, as in every result and in ``to_frame()``),
        ``difficulty_model`` (the law), its parameters and goodness of fit."""
        out = []
        for m, per in self.fits.items():
            for f in per.values():
                d = f.to_dict()
                g = f.goodness_of_fit()
                d["goodness_of_fit"] = {**g, "p_value": g["p_value"] if np.isfinite(g["p_value"]) else None}
                out.append({"model": m, **d})
        res: dict[str, Any] = {"fits": out}
        if self.warnings:
            res["warnings"] = list(self.warnings)
        return res

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per (model, difficulty_model): ``loglik``, ``aic``, ``bic``, ``success``,
        ``impossible_mass``, ``tail_exponent``, ``unidentified`` (the parameters the data do not identify, comma
        separated, "" for none: their values below are wherever the optimiser stopped, e.g. alpha = 1.1e+07, and
        their ``_se`` is NaN) and each parameter with its ``<name>_se``."""
        pd = pandas_module()

        rows = []
        for m, per in self.fits.items():
            for name, f in per.items():
                row = {"model": m, "difficulty_model": name, "loglik": f.loglik_, "aic": f.aic_, "bic": f.bic_,
                       "success": f.success_, "impossible_mass": f.impossible_mass_, "tail_exponent": f.tail_exponent_,
                       "unidentified": ", ".join(f.unidentified_)}
                for k, v in f.params_.items():
                    row[k] = v
                    row[f"{k}_se"] = f.se_.get(k, np.nan)
                rows.append(row)
        return pd.DataFrame(rows)

    def plot(self, model: str | None = None) -> Any:
        """Observed vs expected counts of c per dyadic bin (log scale), one line per fit.

        Parameters
        ----------
        model : str, optional
            The benchmark model shown (default the first).

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        model = self.models[0 if model is None else pick_model(self.models, self._benchmark_model(model))]
        fig = go.Figure()
        first = True
        for name, f in self.fits[model].items():
            g = f.goodness_of_fit()
            labels = [f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in g["bins"]]
            if first:
                fig.add_trace(go.Bar(x=labels, y=g["observed"], name="observed", opacity=0.5))
                first = False
            fig.add_trace(go.Scatter(x=labels, y=g["expected"], mode="lines+markers", name=name))
        fig.update_layout(xaxis_title="c (correct samples)", yaxis_title="problems", template="plotly_white",
                          title=f"{model}: observed vs fitted distribution of c")
        return fig


def _fit_difficulty_iv(counts: Any, model: Any) -> tuple[Counts, list[str]]:
    check_counts_object(counts)
    if model is None or (isinstance(model, str) and model == "all"):
        names = ["beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"]
    elif isinstance(model, str):
        names = [model]
    elif isinstance(model, list | tuple) and all(isinstance(nm, str) for nm in model):
        names = list(model)
    else:
        names = [model]  # reported below as not a model name
    if not names:
        raise PasscurveError(f"`model` must name at least one of {', '.join(DIFFICULTY_MODELS)}, or be 'all' (got none)")
    for nm in names:
        if not isinstance(nm, str) or nm not in DIFFICULTY_MODELS:
            raise PasscurveError(f"`model` must be one of {', '.join(DIFFICULTY_MODELS)} or 'all' (got {show_value(nm)})")
    return counts, names


def fit_difficulty(counts: Counts, model: Any = "all") -> DifficultyFits:
    """Fit difficulty distributions by maximum likelihood, per benchmark model.

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts; unequal n allowed.
    model : str or list of str, default "all"
        Any of "beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle", or "all".

    Returns
    -------
    DifficultyFits
        ``fits[benchmark_model][difficulty_model]`` → fitted :class:`DifficultyModel`.

    References
    ----------
    Kazdan et al. 2025, arXiv 2510.05197 (beta-binomial MLE); Schaeffer et al. 2025, arXiv 2502.17578
    (scaled Beta); Y. Wang, JRSS-B 69 (2007) 185–198 (the NPMLE's constrained Newton method).

    Examples
    --------
    >>> import passcurve
    >>> bench = passcurve.simulate(problems=200, n=100, rng=0)
    >>> fits = passcurve.fit_difficulty(bench.counts, model="beta")
    >>> fits.fits["tiny-1b"]["beta"].params_["alpha"] > 0
    True
    """
    counts, names = _fit_difficulty_iv(counts, model)
    out: dict[str, dict[str, DifficultyModel]] = {}
    caught: list[str] = []
    for m, sub in counts.groups():
        out[m] = {}
        if int(sub.n.max()) == 1:
            msg = (f"model {m!r}: every problem has one sample, which identifies only the mean success rate; every "
                   "difficulty law with that mean fits equally well (the log-likelihoods are equal), so the fitted "
                   "shapes, their standard errors and anything extrapolated from them rest on the law alone")
            record_warning(caught, msg, DegenerateDataWarning)
        for nm in names:
            with warnings.catch_warnings(record=True) as rec:
                warnings.simplefilter("always")
                out[m][nm] = DIFFICULTY_MODELS[nm]().fit(sub)
            for w in rec:
                record_warning(caught, f"model {m!r}: {w.message}", w.category)
    return DifficultyFits(out, tuple(dict.fromkeys(caught)))
