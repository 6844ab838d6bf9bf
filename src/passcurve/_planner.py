r"""Plan where to spend the next samples: adaptive allocation for the best forecast of pass_D@K.

The target is the benchmark-level pass_D@K = mean_i 1 - (1 - p_i)^K at a budget K that may
lie far beyond the samples drawn so far. Allocation rules (plus ``uniform``, the baseline):

``fewest-successes``
    Kazdan et al. (2025, arXiv 2510.05197): the next sample goes to the problem with the
    fewest successes; ties go to the problem with the fewest attempts (then at random).
    Planning a batch repeats the rule without seeing the outcomes.
``variance-optimal``
    Kazdan et al. (2025): total samples n_i proportional to
    :math:`\sqrt{p_i (1-p_i)^{2K-1}}`, the allocation that minimises the variance of the mean of
    per-problem pass@K estimates (whose variance is about K^2 p(1-p)^{2K-1}/n). p_i is the
    posterior mean (α + c_i)/(α + β + n_i) under the fitted Beta(α, β) prior, so problems with
    c_i = 0 still get samples. Samples already drawn cannot be taken back: the new samples
    water-fill toward the target.
``passcurve``
    Bayesian experimental design on the forecast with the prior held fixed. Under the
    fitted prior each problem's p_i has posterior Beta(a_i, b_i), a_i = α + c_i,
    b_i = β + n_i - c_i, and the forecast is the posterior mean
    :math:`\hat F = \frac1N \sum_i 1 - B(a_i, b_i + K)/B(a_i, b_i)` with posterior variance
    :math:`\frac1{N^2}\sum_i V_i`. Drawing m more samples of problem i is expected to remove

    .. math:: R_i(m) = \sum_{x=0}^{m} \mathrm{BetaBin}(x; m, a_i, b_i)
              \Bigl(\frac{B(a_i+x, b_i+m-x+K)}{B(a_i+x, b_i+m-x)} - \frac{B(a_i, b_i+K)}{B(a_i, b_i)}\Bigr)^2

    of V_i (the law of total variance; exact, no asymptotics, valid for K > n). Samples are
    given greedily by the knowledge-gradient(*) index max_s [R_i(m_i + s) - R_i(m_i)] / s
    (Frazier & Powell 2010), which looks several steps ahead because a single sample of a
    very hard problem is nearly uninformative while a hundred are not.
``hierarchical`` (default)
    The same greedy look-ahead on the *total* variance of the forecast, including the
    uncertainty of the fitted prior θ = (log α, log β) by the delta method:
    :math:`\sum_i w_i^2 V_i + S^\top J^{-1} S`, S = Σ_i w_i ∂E[g_i | data]/∂θ, J the observed
    information about θ (see :func:`_alloc_hierarchical`). Sampling a problem both pins down
    its own pass@K and teaches the prior's tail, on which the forecast of every sparsely
    sampled problem rests. Falls back to ``passcurve`` when the prior is fixed or a difficulty model
    (``Planner.rule_`` and a plan's summary ``rule`` say so).

Every rule takes a defensive share ``hedge`` in [0, 1] (default 0): that fraction of each
allocation is spread evenly first and the rule places the rest on top of it.

All use only (n_i, c_i) and the fitted prior; estimates after adaptive sampling should
use likelihood-based estimators (see :mod:`passcurve._adaptive`): the plug-in posterior
(``Planner.forecast()["posterior"]``) or the hierarchical-Bayes forecast with the prior
integrated out (``["bayes"]``, :func:`passcurve.hierarchical_pass_at_k`).
"""

from __future__ import annotations

import dataclasses
import heapq
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from ._adaptive import BetaPrior, _fit_beta_binomial, _fit_zi_beta_binomial, _hierarchical_forecast
from ._choices import DEFAULT_HEDGE, PLAN_METHODS, PLAN_MODEL_PRIORS
from ._counts import Counts, check_counts_object
from ._difficulty import BetaBinomial, DifficultyModel, ZeroInflatedBetaBinomial, _rising_step
from ._errors import PasscurveError
from ._results import ReadOnlyResult, brief_repr, frame_html, pandas_module
from ._validation import (
    MAX_RESAMPLES,
    as_float_array,
    as_int_array,
    check_choice,
    check_positive_int,
    check_probability,
    check_rng,
    check_unused,
    check_weights,
    fmt,
    model_streams,
)

__all__ = ["METHODS", "Planner", "PlanResult", "plan", "preposterior_reduction"]

METHODS = PLAN_METHODS  # and DEFAULT_HEDGE: in _choices, which the CLI's help reads without importing this module
_MAX_ROUNDS = 600
# the planner's prior is a posterior mode under p(α, β) ∝ (α+β)^(-5/2) (see _fit_beta_binomial)
_HYPER = 2.5


# ----------------------------------------------------------------------------------------
# numerical kernels
# ----------------------------------------------------------------------------------------
# From this K on, a Beta prior's h = E[(1-p)^K | c, d] is taken as the second difference of log Γ (_rising_step)
# instead of a difference of log moments, which subtracts numbers of order K log K: the hierarchical rule's sensitivity
# of the forecast to log β (differences of h between priors 0.1% apart) was off by 6e-5 relative on Pythia 160M at
# K = 10^5, 1.5% at 10^7, 39% at 10^8, and had the wrong sign on the demo's tiny-1b at 10^10; at 10^15 the expected SD
# after 10 samples read 5.7e-10 against 0.018 now. Below it the difference is kept, 1.5-1.8x faster (a plan of 5,000
# samples over 300 problems: 0.77 s against 1.38 s), its error in that sensitivity at most ~1e-5 relative (Pythia 160M
# at K = 100 to 10^4, from n = 10^4 rather than K), and the plans as they were.
_EXACT_H_FROM = 1e5


def _log_h(prior: Any, c: Any, d: Any, k: float, base: Any = None) -> np.ndarray:
    """log h = log E[(1-p)^k | c successes, d failures] = log M(c, d+k) - log M(c, d) (``base`` = log M(c, d) when
    known). For a Beta prior from :data:`_EXACT_H_FROM` on -[R(β+d+α+c, k) - R(β+d, k)], R(x, k) = log Γ(x+k) - log Γ(x),
    without cancellation (:func:`passcurve._difficulty._rising_step`); with a point mass π0 at p = 0 the same where
    c > 0 (the mass has no weight there), and where c = 0 the two log moments, each a logaddexp of log π0 and the
    Beta's exact log E[(1-p)^D] = -[R(β+D, α) - R(β, α)]."""
    if k >= _EXACT_H_FROM and isinstance(prior, BetaPrior):
        c, d = (np.asarray(v, dtype=np.float64) for v in np.broadcast_arrays(c, d))
        a, b, pi0 = prior.alpha, prior.beta, float(getattr(prior, "impossible", 0.0))
        out = -_rising_step(b + d, a + c, k)
        if pi0 > 0 and (c == 0).any():
            z = c == 0
            dz = d[z]
            lq, lp = np.log1p(-pi0), np.log(pi0)
            out = np.array(out, dtype=np.float64)
            out[z] = (np.logaddexp(lq - _rising_step(b, dz + k, a), lp)
                      - np.logaddexp(lq - _rising_step(b, dz, a), lp))
        return out
    return prior.log_moment(c, d + k) - (prior.log_moment(c, d) if base is None else base)


def _posterior_var(prior: Any, c: np.ndarray, d: np.ndarray, k: float) -> np.ndarray:
    """Var[(1-p)^k | c, d] = E[(1-p)^{2k}] - E[(1-p)^k]^2 (>= 0)."""
    base = prior.log_moment(c, d)
    h1 = _log_h(prior, c, d, k, base)
    h2 = _log_h(prior, c, d, 2 * k, base)
    return np.maximum(np.exp(h2) - np.exp(2 * h1), 0.0)


def preposterior_reduction(prior: Any, n: Any, c: Any, k: float, m: Any) -> np.ndarray:
    r"""Expected reduction of Var[(1-p)^k | n, c] from m more samples, per problem (exact sum over outcomes).

    With M(c, d) = E[p^c (1-p)^d] under the prior (``prior.log_moment``), the predictive
    probability of x successes in m more samples is C(m, x) M(c+x, d+m-x)/M(c, d) and

    .. math:: R(m) = \sum_{x=0}^{m} P(x \mid n, c)\,\bigl(h(c+x, d+m-x) - h(c, d)\bigr)^2,
              \quad h(c, d) = M(c, d+k)/M(c, d),\ d = n - c,

    which is Var[(1-p)^k | n, c] - E[Var[(1-p)^k | n+m, c+x]] by the law of total
    variance; R(0) = 0 and R(m) -> Var[(1-p)^k | n, c] as m -> infinity. Outcomes x beyond
    the 1 - 1e-12 quantile of the Beta(α + c, β + d) part are skipped (their weight is
    negligible). Vectorised over problems with ragged m.
    """
    n = np.atleast_1d(np.asarray(n, dtype=np.float64))
    c = np.atleast_1d(np.asarray(c, dtype=np.float64))
    m = np.atleast_1d(np.asarray(m, dtype=np.int64))
    n, c, m = (v.ravel() for v in np.broadcast_arrays(n, c, m))
    return _by_outcome_chunks(prior, n, c, m, lambda nn, cc, mm, rg: _preposterior_rows(prior, nn, cc, k, mm, rg))


def _preposterior_rows(
    prior: Any, n: np.ndarray, c: np.ndarray, k: float, m: np.ndarray, ranges: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    d = n - c
    idx, x = _ragged_outcomes(ranges)
    gl = special.gammaln
    ci, di, mi = c[idx], d[idx], m[idx].astype(np.float64)
    base = prior.log_moment(c, d)
    cx, dx = ci + x, di + mi - x
    lm_x = prior.log_moment(cx, dx)
    logpmf = gl(mi + 1) - gl(x + 1) - gl(mi - x + 1) + lm_x - base[idx]
    hx = np.exp(_log_h(prior, cx, dx, k, lm_x))
    h0 = np.exp(_log_h(prior, c, d, k, base))
    out = np.bincount(idx, weights=np.exp(logpmf) * (hx - h0[idx]) ** 2, minlength=n.size)
    return out


def _alloc_uniform(n: np.ndarray, units: int, room: np.ndarray, tiebreak: np.ndarray) -> np.ndarray:
    """Spread units evenly over problems with room (equal extra samples, not equal totals); the units left over
    when fewer remain than open problems go to those with the fewest samples so far (n plus planned), ties at
    random (``tiebreak``). At random alone, an online loop of next(25) over 30 problems from nothing (uniform, or
    a hedge's share each round) ended 125 samples with totals from 1 to 5 per problem; now 4 or 5."""
    out = np.zeros(n.size, dtype=np.int64)
    left = units
    while left > 0:
        open_ = np.flatnonzero(out < room)
        if open_.size == 0:
            break
        each = left // open_.size
        if each == 0:
            pick = open_[np.lexsort((tiebreak[open_], (n + out)[open_]))[:left]]
            out[pick] += 1
            break
        add = np.minimum(each, room[open_] - out[open_])
        out[open_] += add
        left -= int(add.sum())
    return out


def _alloc_fewest(
    c: np.ndarray, n: np.ndarray, step: int, units: int, room: np.ndarray, tiebreak: np.ndarray
) -> np.ndarray:
    """Kazdan et al.'s rule repeated ``units`` times: min (c, n + planned, random tie-break)."""
    out = np.zeros(n.size, dtype=np.int64)
    heap = [(int(c[i]), int(n[i]), float(tiebreak[i]), int(i)) for i in np.flatnonzero(room > 0)]
    heapq.heapify(heap)
    for _ in range(units):
        if not heap:
            break
        ci, ni, t, i = heapq.heappop(heap)
        out[i] += 1
        if out[i] < room[i]:
            heapq.heappush(heap, (ci, ni + step, t, i))
    return out


def _alloc_variance_optimal(
    n: np.ndarray, p: np.ndarray, k: float, step: int, units: int, room: np.ndarray
) -> np.ndarray:
    """Water-fill toward totals proportional to sqrt(p (1-p)^(2K-1)) (in units of ``step``).

    The weights span hundreds of orders of magnitude at large K (exp(-7000) between c = 0 and c = 5
    at K = 10^4), so they are scaled to the largest among the problems with room; when those are all
    filled to their cap and budget is left, the next tier is filled the same way (it used to get
    nothing: its weights had underflowed to 0).
    """
    out = np.zeros(n.size, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        logw = 0.5 * (np.log(p) + (2 * k - 1) * np.log1p(-p))
    room = room.astype(np.int64).copy()
    while units > 0 and (room > 0).any():
        lw = np.where((room > 0) & ~np.isnan(logw), logw, -np.inf)
        top = lw.max()
        w = np.exp(lw - top) if np.isfinite(top) else (room > 0).astype(np.float64)
        total_room = int(room[w > 0].sum())
        if total_room <= units:  # this tier fits: fill it to its caps, then the next
            give = np.where(w > 0, room, 0)
            out += give
            room -= give
            units -= total_room
            continue
        out += _water_fill(n, w, step, units, room)
        break
    return out


def _water_fill(n: np.ndarray, w: np.ndarray, step: int, units: int, room: np.ndarray) -> np.ndarray:
    """``units`` (< the room of the problems with w > 0) toward totals proportional to w, capped by ``room``."""
    cap = room.astype(np.float64)
    cur = n / step

    def extra(lam: float) -> np.ndarray:
        return np.clip(lam * w - cur, 0.0, cap)

    lo, hi = 0.0, 1.0
    while extra(hi).sum() < units:
        hi *= 2.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if extra(mid).sum() < units:
            lo = mid
        else:
            hi = mid
    e = extra(hi)
    base = np.minimum(np.floor(e).astype(np.int64), room)
    rest = units - int(base.sum())
    if rest > 0:
        frac = np.where(base < room, e - base, -1.0)
        order = np.argsort(-frac, kind="stable")[:rest]
        base[order] += 1
    return base


def _kg_index(
    prior: Any,
    n: np.ndarray,
    c: np.ndarray,
    k: float,
    m: np.ndarray,
    step: int,
    room: np.ndarray,
    horizon: int,
    w2: np.ndarray,
) -> np.ndarray:
    """Knowledge-gradient(*) index: max over look-ahead s of [R(m+s) - R(m)] / s, per sample.

    Look-aheads s = 1, 4, 16, ... up to ``horizon`` units (capped by the room left); one
    vectorised call evaluates every (problem, look-ahead) pair.
    """
    sizes = 4 ** np.arange(int(np.log(max(horizon, 1)) / np.log(4)) + 1)
    s_all = np.concatenate([[0], sizes])  # 0 = the current plan
    mm = m[:, None] + s_all[None, :]
    ok = mm <= np.maximum(room, m)[:, None]
    ok[:, 0] = True
    rows, cols = np.nonzero(ok)
    r = np.full(mm.shape, np.nan)
    r[rows, cols] = preposterior_reduction(prior, n[rows], c[rows], k, mm[rows, cols] * step)
    gain = (r[:, 1:] - r[:, :1]) / (sizes[None, :] * step)
    best = w2 * np.nanmax(np.where(np.isnan(gain), -np.inf, gain), axis=1)
    best[m >= room] = -np.inf
    return best


def _alloc_passcurve(
    prior: Any,
    n: np.ndarray,
    c: np.ndarray,
    k: float,
    step: int,
    units: int,
    room: np.ndarray,
    w2: np.ndarray,
    horizon: int,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """Greedy knowledge-gradient(*) allocation of ``units`` blocks of ``step`` samples.

    ``start``: units already planned (not yet drawn) per problem; the returned blocks come
    on top of them.
    """
    start = np.zeros(n.size, dtype=np.int64) if start is None else start.astype(np.int64)
    out = start.copy()
    if units <= 0:
        return out - start
    # coarsen to at most _MAX_ROUNDS greedy rounds
    chunk = max(1, -(-units // _MAX_ROUNDS))
    horizon_units = max(1, horizon // step)
    idx = _kg_index(prior, n, c, k, out, step, room, horizon_units, w2)
    left = units
    while left > 0:
        i = int(np.argmax(idx))
        if not np.isfinite(idx[i]):
            break
        take = int(min(chunk, left, room[i] - out[i]))
        out[i] += take
        left -= take
        sel = np.array([i])
        idx[i] = _kg_index(prior, n[sel], c[sel], k, out[sel], step, room[sel], horizon_units, w2[sel])[0]
    return out - start


def _perturbed(prior: Any, da: float, db: float) -> Any:
    """The prior with log α and log β shifted by (da, db) (π0 and other parameters kept)."""
    return dataclasses.replace(prior, alpha=prior.alpha * np.exp(da), beta=prior.beta * np.exp(db))


def _outcome_range(prior: Any, n: np.ndarray, c: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the outcomes xmin..xmax of m more samples that carry weight."""
    d = n - c
    a_post, b_post = prior.alpha + c, prior.beta + d
    # With both shapes huge the Beta is normal to high accuracy, and scipy's betaincinv is slow (70 ms a
    # call) and NaN there: a difficulty model's unregularised fit ran to alpha ~ 1e135, beta ~ 6e137 on
    # 42 sparse problems, and NaN cast to int64 had failed next() with "`c` must be >= 0 (c=-9.2e18)".
    # Such rows take mean -/+ 8 SD (the 1e-12 tails are 7.03 SD); any other NaN sums every outcome 0..m.
    huge = np.minimum(a_post, b_post) > 1e6
    with np.errstate(invalid="ignore"):
        q_hi = special.betaincinv(np.where(huge, 1.0, a_post), np.where(huge, 1.0, b_post), 1.0 - 1e-12)
        q_lo = special.betaincinv(np.where(huge, 1.0, a_post), np.where(huge, 1.0, b_post), 1e-12)
    if huge.any():
        mean = a_post / (a_post + b_post)
        sd = np.sqrt(mean * (1.0 - mean) / (a_post + b_post + 1.0))
        q_hi = np.where(huge, np.minimum(mean + 8.0 * sd, 1.0), q_hi)
        q_lo = np.where(huge, np.maximum(mean - 8.0 * sd, 0.0), q_lo)
    q_hi = np.where(np.isfinite(q_hi), q_hi, 1.0)
    q_lo = np.where(np.isfinite(q_lo), q_lo, 0.0)
    mu_hi, mu_lo = m * q_hi, m * q_lo
    xmax = np.minimum(m, np.ceil(mu_hi + 8.0 * np.sqrt(mu_hi + 1.0) + 8.0).astype(np.int64))
    xmin = np.clip(np.floor(mu_lo - 8.0 * np.sqrt(mu_hi + 1.0) - 8.0), 0, None).astype(np.int64)
    if getattr(prior, "impossible", 0.0) > 0:
        xmin = np.zeros_like(xmin)  # the point mass at p = 0 puts weight on x = 0
    return np.minimum(xmin, xmax), xmax


_OUTCOMES_MAX = 1 << 20  # (row, outcome) pairs evaluated at once by the exact outcome sums


def _by_outcome_chunks(
    prior: Any, n: np.ndarray, c: np.ndarray, m: np.ndarray, fn: Any, wide: Any = None
) -> np.ndarray:
    """fn(n, c, m, (xmin, xmax)) over groups of rows holding at most _OUTCOMES_MAX outcomes, in row order.

    The exact sums over outcomes build a dozen arrays of one entry per (row, outcome) pair;
    20,000 problems at look-aheads up to 512 samples made them 3 GB at once. The sums depend
    on a row only through (n, c, m), so they are computed once per distinct triple: a
    benchmark with one n has at most n + 1 distinct (n, c) per look-ahead, however many problems.

    ``wide(n, c, m, (xmin, xmax)) -> (values, ok)``, if given, takes the rows with more than
    _QUAD_MIN_OUTCOMES outcomes (:func:`_hier_stats_quad`); the rows it does not accept (ok False)
    go to fn with the others. Below that size nothing changes.
    """
    if n.size > 1:
        key = np.column_stack([n, c, m.astype(np.float64)])
        uniq, first, inv = np.unique(key, axis=0, return_index=True, return_inverse=True)
        if uniq.shape[0] < n.size:
            # the distinct rows in their order of first appearance (fn keeps seeing rows in order)
            order = np.sort(first)
            vals = _outcome_chunks(prior, n[order], c[order], m[order], fn, wide)
            return vals[np.asarray(np.searchsorted(order, first))[np.ravel(inv)]]
    return _outcome_chunks(prior, n, c, m, fn, wide)


def _outcome_chunks(
    prior: Any, n: np.ndarray, c: np.ndarray, m: np.ndarray, fn: Any, wide: Any = None
) -> np.ndarray:
    """:func:`_by_outcome_chunks` on rows taken as they are."""
    xmin, xmax = _outcome_range(prior, n, c, m)
    if wide is not None:
        big = np.flatnonzero(xmax - xmin + 1 > _QUAD_MIN_OUTCOMES)
        if big.size:
            vals, ok = wide(n[big], c[big], m[big], (xmin[big], xmax[big]))
            if ok.any():
                exact = np.ones(n.size, dtype=bool)
                exact[big[ok]] = False
                out = np.empty((n.size,) + vals.shape[1:])
                out[big[ok]] = vals[ok]
                r = np.flatnonzero(exact)
                if r.size:
                    out[r] = _exact_chunks(n[r], c[r], m[r], xmin[r], xmax[r], fn)
                return out
    return _exact_chunks(n, c, m, xmin, xmax, fn)


def _exact_chunks(
    n: np.ndarray, c: np.ndarray, m: np.ndarray, xmin: np.ndarray, xmax: np.ndarray, fn: Any
) -> np.ndarray:
    """fn over groups of rows holding at most _OUTCOMES_MAX outcomes (xmin..xmax per row), in row order."""
    total = np.cumsum(xmax - xmin + 1)
    if total.size == 0 or total[-1] <= _OUTCOMES_MAX:
        return np.asarray(fn(n, c, m, (xmin, xmax)))
    cuts = _row_cuts(total)
    return np.concatenate([np.asarray(fn(n[a:b], c[a:b], m[a:b], (xmin[a:b], xmax[a:b])))
                           for a, b in zip(cuts[:-1], cuts[1:], strict=True)])


def _row_cuts(total: np.ndarray) -> list[int]:
    """Boundaries 0 = r_0 < r_1 < ... < r_J = rows of consecutive groups of rows, each holding at most
    _OUTCOMES_MAX items (or one row), from ``total``, the cumulative number of items per row."""
    cuts = [0]
    while cuts[-1] < total.size:
        base = total[cuts[-1] - 1] if cuts[-1] else 0
        cuts.append(max(cuts[-1] + 1, int(np.searchsorted(total, base + _OUTCOMES_MAX, side="right"))))
    return cuts


def _ragged_outcomes(ranges: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, ...]:
    """Flattened (row index, x) pairs over each row's outcomes xmin..xmax (:func:`_outcome_range`)."""
    xmin, xmax = ranges
    reps = xmax - xmin + 1
    idx = np.repeat(np.arange(reps.size), reps)
    offs = np.cumsum(reps) - reps
    x = (np.arange(int(reps.sum())) - np.repeat(offs - xmin, reps)).astype(np.float64)
    return idx, x


_EPS = 1e-3


def _hier_stats(prior: Any, n: np.ndarray, c: np.ndarray, k: float, m: np.ndarray) -> np.ndarray:
    """Per row, expected over the outcomes of m more samples: [R, s_a, s_b, J_aa, J_bb, J_ab].

    R is the preposterior reduction of Var[(1-p)^k] (as :func:`preposterior_reduction`);
    s = d E[(1-p)^k | data] / d(log α, log β) and J = -d² log M(c, d) / d(log α, log β)²
    (the problem's observed information about the prior's parameters), both averaged over
    the predictive distribution of the new outcomes. Derivatives by central differences.
    """
    n, c, m = (np.asarray(v, dtype=np.float64).ravel() for v in np.broadcast_arrays(n, c, m))
    return _by_outcome_chunks(
        prior,
        n,
        c,
        m.astype(np.int64),
        lambda nn, cc, mm, rg: _hier_stats_rows(prior, nn, cc, k, mm, rg),
        lambda nn, cc, mm, rg: _hier_stats_quad(prior, nn, cc, k, mm, rg),
    )


def _plain_beta(prior: Any) -> bool:
    """A Beta prior without mass at p = 0 (a zero-inflated one whose mass is 0 counts): the priors whose look-ahead
    sums share their log-gamma terms (:func:`_hier_stats_beta`) and take the quadrature (:func:`_hier_stats_quad`)."""
    return type(prior) is BetaPrior or isinstance(prior, BetaPrior) and getattr(prior, "impossible", 1.0) == 0.0


def _hier_stats_rows(
    prior: Any, n: np.ndarray, c: np.ndarray, k: float, m_int: np.ndarray, ranges: tuple[np.ndarray, np.ndarray]
) -> np.ndarray:
    """:func:`_hier_stats`'s exact sums over every outcome xmin..xmax of each row."""
    m = m_int.astype(np.float64)
    idx, x = _ragged_outcomes(ranges)
    d = n - c
    gl = special.gammaln
    ci, di, mi = c[idx], d[idx], m[idx]
    cx, dx = ci + x, di + mi - x
    e = _EPS
    if _plain_beta(prior):
        return _hier_stats_beta(prior, n, c, d, k, idx, x, cx, dx, mi)
    p0, pa, pma, pb, pmb, pab = (
        prior,
        _perturbed(prior, e, 0),
        _perturbed(prior, -e, 0),
        _perturbed(prior, 0, e),
        _perturbed(prior, 0, -e),
        _perturbed(prior, e, e),
    )
    A0, Aa, Ama, Ab, Amb, Aab = (q.log_moment(cx, dx) for q in (p0, pa, pma, pb, pmb, pab))
    base = prior.log_moment(c, d)
    logpmf = gl(mi + 1) - gl(x + 1) - gl(mi - x + 1) + A0 - base[idx]
    pmf = np.exp(logpmf)
    h = {}
    for key, q, A in (("0", p0, A0), ("a", pa, Aa), ("ma", pma, Ama), ("b", pb, Ab), ("mb", pmb, Amb)):
        h[key] = np.exp(np.minimum(_log_h(q, cx, dx, k, A), 0.0))
    h0 = np.exp(np.minimum(_log_h(prior, c, d, k, base), 0.0))
    sa = (h["a"] - h["ma"]) / (2 * e)
    sb = (h["b"] - h["mb"]) / (2 * e)
    jaa = -(Aa - 2 * A0 + Ama) / e**2
    jbb = -(Ab - 2 * A0 + Amb) / e**2
    jab = -(Aab - Aa - Ab + A0) / e**2
    cols = [(h["0"] - h0[idx]) ** 2, sa, sb, jaa, jbb, jab]
    out = np.stack([np.bincount(idx, weights=pmf * v, minlength=n.size) for v in cols], axis=1)
    return out


def _hier_stats_beta(
    prior: Any,
    n: np.ndarray,
    c: np.ndarray,
    d: np.ndarray,
    k: float,
    idx: np.ndarray,
    x: np.ndarray,
    cx: np.ndarray,
    dx: np.ndarray,
    mi: np.ndarray,
) -> np.ndarray:
    """:func:`_hier_stats` for a plain Beta prior, sharing the log-gamma terms across perturbations."""
    gl = special.gammaln
    e = _EPS
    a, b = prior.alpha, prior.beta
    al = {0: a, 1: a * np.exp(e), -1: a * np.exp(-e)}
    be = {0: b, 1: b * np.exp(e), -1: b * np.exp(-e)}
    ga = {j: gl(al[j] + cx) for j in al}
    gb = {j: gl(be[j] + dx) for j in be}
    gbk = {j: gl(be[j] + dx + k) for j in be} if k < _EXACT_H_FROM else {}
    tot = cx + dx

    def k0(ia: int, ib: int) -> float:
        return float(gl(al[ia]) + gl(be[ib]) - gl(al[ia] + be[ib]))

    combos = [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)]
    A = {}
    for ia, ib in combos:
        A[(ia, ib)] = ga[ia] + gb[ib] - gl(al[ia] + be[ib] + tot) - k0(ia, ib)
    h = {}
    exact = k >= _EXACT_H_FROM  # the perturbed h differ by ~1e-3 of h: their difference must keep its digits
    for ia, ib in combos[:5]:
        if exact:
            lh = -_rising_step(be[ib] + dx, al[ia] + cx, k)
        else:
            lh = ga[ia] + gbk[ib] - gl(al[ia] + be[ib] + tot + k) - k0(ia, ib) - A[(ia, ib)]
        h[(ia, ib)] = np.exp(np.minimum(lh, 0.0))
    base = prior.log_moment(c, d)
    logpmf = gl(mi + 1) - gl(x + 1) - gl(mi - x + 1) + A[(0, 0)] - base[idx]
    pmf = np.exp(logpmf)
    h0 = np.exp(np.minimum(_log_h(prior, c, d, k, base), 0.0))
    A0 = A[(0, 0)]
    cols = [
        (h[(0, 0)] - h0[idx]) ** 2,
        (h[(1, 0)] - h[(-1, 0)]) / (2 * e),
        (h[(0, 1)] - h[(0, -1)]) / (2 * e),
        -(A[(1, 0)] - 2 * A0 + A[(-1, 0)]) / e**2,
        -(A[(0, 1)] - 2 * A0 + A[(0, -1)]) / e**2,
        -(A[(1, 1)] - A[(1, 0)] - A[(0, 1)] + A0) / e**2,
    ]
    return np.stack([np.bincount(idx, weights=pmf * v, minlength=n.size) for v in cols], axis=1)


def _lgamma_step(psi: list[np.ndarray], dz: float) -> np.ndarray:
    """gammaln(z + dz) - gammaln(z) from ψ..ψ⁽⁴⁾(z) (Taylor; |dz/z| <= ~1e-3 here, error ~1e-16 of it)."""
    return dz * (psi[0] + dz / 2 * (psi[1] + dz / 3 * (psi[2] + dz / 4 * (psi[3] + dz / 5 * psi[4]))))


def _hier_stats_smooth(
    prior: Any,
    n: np.ndarray,
    c: np.ndarray,
    k: float,
    m: np.ndarray,
    idx: np.ndarray,
    x: np.ndarray,
    wt: np.ndarray,
) -> np.ndarray:
    """:func:`_hier_stats_beta` over weighted points (idx, x, wt), the differences between perturbations taken exactly.

    The same central differences (steps _EPS in log α, log β), but each perturbed log-gamma term
    enters as gammaln(z + δ) - gammaln(z) from its Taylor series instead of as the difference of two
    numbers of size m log m: at m ~ 10⁶ that difference loses ~8 digits, which the exact sums average
    away over 10⁵ outcomes and a quadrature over a few thousand points would not.
    """
    gl = special.gammaln
    e = _EPS
    a, b = prior.alpha, prior.beta
    da = {0: 0.0, 1: a * np.exp(e) - a, -1: a * np.exp(-e) - a}
    db = {0: 0.0, 1: b * np.exp(e) - b, -1: b * np.exp(-e) - b}
    d = n - c
    ci, di, mi = c[idx], d[idx], m[idx]
    cx, dx = ci + x, di + mi - x
    tot = cx + dx
    z1, z2, z3 = a + cx, b + dx, a + b + tot

    def psis(z: np.ndarray | float) -> list[np.ndarray]:
        return [np.asarray(special.polygamma(j, z)) for j in range(5)]

    p1, p2, p2k, p3, p3k = (psis(z) for z in (z1, z2, z2 + k, z3, z3 + k))
    q1, q2, q3 = psis(a), psis(b), psis(a + b)
    combos = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1)]
    dA, dH = {}, {}
    for ia, ib in combos:
        s_a, s_b = da[ia], db[ib]
        dk0 = _lgamma_step(q1, s_a) + _lgamma_step(q2, s_b) - _lgamma_step(q3, s_a + s_b)
        dA[(ia, ib)] = _lgamma_step(p1, s_a) + _lgamma_step(p2, s_b) - _lgamma_step(p3, s_a + s_b) - dk0
        dH[(ia, ib)] = (_lgamma_step(p2k, s_b) - _lgamma_step(p2, s_b)) - (
            _lgamma_step(p3k, s_a + s_b) - _lgamma_step(p3, s_a + s_b)
        )
    A0 = gl(z1) + gl(z2) - gl(z3) - (gl(a) + gl(b) - gl(a + b))
    lh = np.minimum(-_rising_step(z2, z1, k) if k >= _EXACT_H_FROM else gl(z2 + k) - gl(z2) - gl(z3 + k) + gl(z3), 0.0)
    hx = np.exp(lh)
    base = prior.log_moment(c, d)
    pmf = np.exp(gl(mi + 1) - gl(x + 1) - gl(mi - x + 1) + A0 - base[idx]) * wt
    h0 = np.exp(np.minimum(_log_h(prior, c, d, k, base), 0.0))
    cols = [
        (hx - h0[idx]) ** 2,
        hx * (np.expm1(dH[(1, 0)]) - np.expm1(dH[(-1, 0)])) / (2 * e),
        hx * (np.expm1(dH[(0, 1)]) - np.expm1(dH[(0, -1)])) / (2 * e),
        -(dA[(1, 0)] + dA[(-1, 0)]) / e**2,
        -(dA[(0, 1)] + dA[(0, -1)]) / e**2,
        -(dA[(1, 1)] - dA[(1, 0)] - dA[(0, 1)]) / e**2,
    ]
    return np.stack([np.bincount(idx, weights=pmf * v, minlength=n.size) for v in cols], axis=1)


# The look-ahead sums at large look-aheads: a quadrature over the outcomes (see _hier_stats_quad).
# rows with more outcomes take the quadrature: 1.48x the largest row of the documented study (33,279, measured
# over 12 replicates at 2,000 samples per problem); at B = 10^6 on 100 problems 27M of 67M outcomes are in rows
# of 49,152..65,536
_QUAD_MIN_OUTCOMES = 3 << 14
_QUAD_SCALE = 16.0  # the quadrature starts where every summand is smooth on this many outcomes
_QUAD_STEP = 2.0  # panel width: this many local scales (see _quad_phi)
_QUAD_ORDER = 8  # Gauss-Legendre nodes per panel
_QUAD_H_DROP = 92.0  # h = E[(1-p)^k | ...] below e^-92 of its value at xmin is not resolved
_GL_X, _GL_W = np.polynomial.legendre.leggauss(_QUAD_ORDER)
# Euler-Maclaurin (midpoint form) at the junctions between exact sums and the integral, with g' and
# g''' from differences of the exact summands at 4 outcomes: weights on g(L-2..L+1), g(U-1..U+2)
_EM_LO = np.array([17 / 5760, -1 / 24 - 51 / 5760, 1 / 24 + 51 / 5760, -17 / 5760])
_EM_HI = -_EM_LO[::-1]


def _quad_phi(x: np.ndarray, geo: tuple[np.ndarray, ...], with_k: np.ndarray) -> np.ndarray:
    """Cumulative local inverse scale of the summands (increasing in x; one unit = one panel).

    With a = α + c, b = β + d the beta-binomial pmf's log has slope f = (a-1)/(x+a) - (b-1)/(m-x+b)
    and curvature ~ (|a-1|+1)/(x+a)² + (|b-1|+1)/(m-x+b)²; h(x) = E[(1-p)^k | c+x, d+m-x] has log-slope
    down to -k/(m-x+b). The density |f| + √(|a-1|+1)/(x+a) + √(|b-1|+1)/(m-x+b) [+ k/(m-x+b) where h
    matters] bounds the inverse scale of every summand (the perturbed log-gamma terms vary on the
    scales x+a and m-x+b); its antiderivative is closed-form (|f|'s by its sign change at x*).
    """
    a, b, m, a1, b1, sa, sb, xs, sg = geo
    F = a1 * np.log(x + a) + b1 * np.log(m - x + b)
    Fs = a1 * np.log(np.minimum(x, xs) + a) + b1 * np.log(m - np.minimum(x, xs) + b)
    lb = np.log(m - x + b)
    return (sg * (2 * Fs - F) + sa * np.log(x + a) - (sb + with_k) * lb) / _QUAD_STEP


def _hier_stats_quad(
    prior: Any, n: np.ndarray, c: np.ndarray, k: float, m_int: np.ndarray, ranges: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    r""":func:`_hier_stats` on rows with very many outcomes: exact sums at both ends, a quadrature between.

    The summands g(x) (pmf times each of the six statistics' terms) extend to real x (gammaln), are
    analytic, and away from x = 0 and x = m vary on scales that grow with the look-ahead m (x + a,
    m - x + b, (m - x + b)/k; :func:`_quad_phi`). Each row is split at L and U where that scale is
    at least _QUAD_SCALE outcomes: the outcomes xmin..L-1 and U+1..xmax are summed exactly, and
    Σ_{x=L}^{U} g(x) = ∫_{L-½}^{U+½} g dx + Euler-Maclaurin terms at the two ends (from differences
    of g at 4 outcomes; the interior terms telescope), the integral by Gauss-Legendre on panels a
    couple of local scales wide (_QUAD_STEP) and split where h becomes negligible. 250-1,000
    evaluations per row whatever m, against m times the posterior's width. Returns (values, ok);
    rows for which it would not save much (ok False) are left to the exact sums.
    """
    m = m_int.astype(np.float64)
    lo, hi = (np.asarray(v, dtype=np.float64) for v in ranges)
    if not _plain_beta(prior):
        return np.zeros((n.size, 6)), np.zeros(n.size, dtype=bool)  # other priors: the exact sums
    a, b = prior.alpha + c, prior.beta + (n - c)
    a1, b1 = a - 1.0, b - 1.0
    sa, sb = np.sqrt(np.abs(a1) + 1.0), np.sqrt(np.abs(b1) + 1.0)
    gl = special.gammaln
    kf = float(k)

    def log_h(x: np.ndarray) -> np.ndarray:
        return gl(b + m - x + kf) - gl(b + m - x)

    # x_h: where log h has dropped _QUAD_H_DROP below its value at xmin (h decreases in x)
    target = log_h(lo) - _QUAD_H_DROP
    reach = log_h(hi) <= target
    x0, x1 = lo.copy(), hi.copy()
    for _ in range(64):
        mid = 0.5 * (x0 + x1)
        below = log_h(mid) <= target
        x1 = np.where(below, mid, x1)
        x0 = np.where(below, x0, mid)
    xh = np.where(reach, x1, np.inf)
    L = np.maximum(np.ceil(2 * _QUAD_SCALE * (np.abs(a1) + sa) - a), lo + 4)
    room_b = 2 * _QUAD_SCALE * (np.abs(b1) + sb)
    u_k = np.floor(m + b - room_b - 2 * _QUAD_SCALE * kf)
    U = np.where(xh > u_k, u_k, np.floor(m + b - room_b))
    U = np.minimum(U, hi - 4)
    s0, s1 = L - 0.5, U + 0.5
    feasible = U - L >= 8 * _QUAD_SCALE
    # |f|'s sign change x* and its sign before it
    with np.errstate(divide="ignore", invalid="ignore"):
        xs = (a1 * (m + b) - b1 * a) / (a1 + b1)
    xs = np.where(np.isfinite(xs) & (xs > s0) & (xs < s1), xs, np.inf)
    sg = np.sign(a1 / (s0 + a) - b1 / (m - s0 + b))
    geo = (a, b, m, a1, b1, sa, sb, xs, sg)
    # segments: [s0, min(xh, s1)] with the k term, [max(xh, s0), s1] without
    cut = np.clip(xh, s0, s1)
    seg_lo = np.concatenate([s0, cut])
    seg_hi = np.concatenate([cut, s1])
    seg_k = np.concatenate([np.full(a.size, kf), np.zeros(a.size)])
    seg_row = np.concatenate([np.arange(a.size), np.arange(a.size)])
    gseg = tuple(v[seg_row] for v in geo)
    with np.errstate(invalid="ignore", divide="ignore"):
        span = _quad_phi(seg_hi, gseg, seg_k) - _quad_phi(seg_lo, gseg, seg_k)
    live = (seg_hi > seg_lo) & feasible[seg_row]
    panels = np.where(live, np.ceil(np.where(np.isfinite(span), span, 0.0)).astype(np.int64), 0)
    panels = np.where(live, np.maximum(panels, 1), 0)
    n_exact = np.where(feasible, (L - lo) + (hi - U) + 8, 0).astype(np.int64)
    n_nodes = np.bincount(seg_row, weights=panels, minlength=a.size).astype(np.int64) * _QUAD_ORDER
    ok = feasible & (4 * (n_exact + n_nodes) < hi - lo + 1)
    out = np.zeros((a.size, 6))
    if not ok.any():
        return out, ok
    # panel edges by bisection on the closed-form cumulative scale (monotone)
    keep = live & ok[seg_row]
    ps, sk = np.repeat(np.flatnonzero(keep), panels[keep]), panels[keep]
    j = (np.arange(ps.size) - np.repeat(np.cumsum(sk) - sk, sk)).astype(np.float64)
    gp = tuple(v[ps] for v in gseg)
    t_lo = _quad_phi(seg_lo[ps], gp, seg_k[ps])
    tgt = t_lo + (j + 1) / panels[ps] * (span[ps])
    e0, e1 = seg_lo[ps].copy(), seg_hi[ps].copy()
    last = j + 1 == panels[ps]
    for _ in range(60):
        mid = 0.5 * (e0 + e1)
        up = _quad_phi(mid, gp, seg_k[ps]) >= tgt
        e1 = np.where(up, mid, e1)
        e0 = np.where(up, e0, mid)
    right = np.where(last, seg_hi[ps], e1)
    left = np.concatenate([[0.0], right[:-1]])
    first = j == 0
    left = np.where(first, seg_lo[ps], left)
    half = 0.5 * (right - left)
    node_x = ((left + right)[:, None] * 0.5 + half[:, None] * _GL_X[None, :]).ravel()
    node_w = (half[:, None] * _GL_W[None, :]).ravel()
    node_row = np.repeat(seg_row[ps], _QUAD_ORDER)
    # exact ends and the Euler-Maclaurin stencils
    rows = np.flatnonzero(ok)
    i_lo, x_lo = _ragged_outcomes((lo[rows].astype(np.int64), (L[rows] - 1).astype(np.int64)))
    i_hi, x_hi = _ragged_outcomes(((U[rows] + 1).astype(np.int64), hi[rows].astype(np.int64)))
    st = np.arange(4, dtype=np.float64)
    em_x = np.concatenate([(L[rows, None] - 2 + st).ravel(), (U[rows, None] - 1 + st).ravel()])
    em_w = np.concatenate([np.tile(_EM_LO, rows.size), np.tile(_EM_HI, rows.size)])
    em_row = np.concatenate([np.repeat(rows, 4), np.repeat(rows, 4)])
    idx = np.concatenate([rows[i_lo], rows[i_hi], em_row, node_row])
    x = np.concatenate([x_lo, x_hi, em_x, node_x])
    wt = np.concatenate([np.ones(x_lo.size + x_hi.size), em_w, node_w])
    order = np.argsort(idx, kind="stable")
    idx, x, wt = idx[order], x[order], wt[order]
    # in groups of rows of at most _OUTCOMES_MAX points
    cnt = np.bincount(idx, minlength=a.size)
    total = np.cumsum(cnt)
    cuts = _row_cuts(total)
    for start, stop in zip(cuts[:-1], cuts[1:], strict=True):
        p0, p1 = (total[start - 1] if start else 0), total[stop - 1]
        sel = slice(int(p0), int(p1))
        if p1 > p0:
            out[start:stop] = _hier_stats_smooth(
                prior, n[start:stop], c[start:stop], k, m[start:stop], idx[sel] - start, x[sel], wt[sel]
            )
    return out, ok


def _quad(sa: np.ndarray, sb: np.ndarray, jaa: np.ndarray, jbb: np.ndarray, jab: np.ndarray) -> np.ndarray:
    """sᵀ J⁻¹ s for 2x2 J (vectorised); J is floored to stay positive definite."""
    det = jaa * jbb - jab**2
    bad = (det <= 1e-12 * np.maximum(jaa * jbb, 1e-300)) | (jaa <= 0) | (jbb <= 0)
    det = np.where(bad, np.nan, det)
    q = (jbb * sa**2 - 2 * jab * sa * sb + jaa * sb**2) / det
    return np.where(np.isfinite(q) & (q >= 0), q, np.inf)


def _alloc_hierarchical(
    prior: Any,
    n: np.ndarray,
    c: np.ndarray,
    k: float,
    step: int,
    units: int,
    room: np.ndarray,
    w: np.ndarray,
    horizon: int,
    hyper: float,
    start: np.ndarray | None = None,
) -> np.ndarray:
    r"""Greedy knowledge-gradient(*) on the forecast's variance including the prior's uncertainty.

    Total variance of F = Σ w_i E[g_i | data, θ] (θ = log α, log β fitted):
    :math:`\sum_i w_i^2 V_i + S^\top J^{-1} S` with S = Σ w_i ∂E[g_i]/∂θ and J the observed
    information about θ (plus the hyperprior's curvature). Drawing m more samples of
    problem i replaces V_i by V_i - R_i(m) and its contributions to S and J by their
    predictive expectations; the index is the best drop in total variance per sample over
    look-aheads s = 1, 8, 64, ... units.
    """
    N = n.size
    start = np.zeros(N, dtype=np.int64) if start is None else start.astype(np.int64)
    out = start.copy()
    if units <= 0:
        return out - start
    chunk = max(1, -(-units // _MAX_ROUNDS))
    h_units = max(1, horizon // step)
    sizes = 8 ** np.arange(int(np.log(max(h_units, 1)) / np.log(8)) + 1)
    s_all = np.concatenate([[0], sizes])
    L = s_all.size
    w2 = w**2

    def stats_for(rows: np.ndarray) -> np.ndarray:
        mm = (out[rows][:, None] + s_all[None, :]) * step
        flat = _hier_stats(prior, np.repeat(n[rows], L), np.repeat(c[rows], L), k, mm.ravel())
        st = flat.reshape(rows.size, L, 6)
        ok = (out[rows][:, None] + s_all[None, :]) <= np.maximum(room[rows], out[rows])[:, None]
        st[~ok] = np.nan
        return st

    cache = stats_for(np.arange(N))  # (N, L, 6): column 0 of axis 1 is the current plan
    # hyperprior p(α, β) ∝ (α+β)^(-hyper): curvature in (log α, log β)
    ab = prior.alpha * prior.beta / (prior.alpha + prior.beta) ** 2
    hyp = hyper * ab
    ridge = 1e-9
    # Problems with the same (n, c, room, weight, start) have the same gains until one of them
    # is given samples, and argmax takes the first: only the first untouched problem of each such
    # group and the problems given samples so far are candidates (the same choices as scanning
    # all N, at a cost per round that does not grow with N).
    group = np.unique(np.column_stack([n, c, room, w, start]), axis=0, return_inverse=True)[1].ravel()
    members = np.argsort(group, kind="stable")
    bounds = np.searchsorted(group[members], np.arange(int(np.max(group)) + 2))
    nxt = bounds[:-1].copy()  # per group: position in `members` of its first untouched problem
    touched = np.zeros(N, dtype=bool)
    now = np.ascontiguousarray(cache[:, 0, :].T)  # (6, N): every problem's current row, for the sums
    left = units
    while left > 0:
        S = np.array([np.dot(w, now[1]), np.dot(w, now[2])])
        J = now[3:].sum(axis=1) + np.array([hyp + ridge, hyp + ridge, -hyp])
        reps = members[nxt[nxt < bounds[1:]]]
        cand = np.sort(np.concatenate([reps, np.flatnonzero(touched)]))
        # candidates: problem i with look-ahead j replaces its row of contributions
        cur = cache[cand, 0, :]
        new = cache[cand, 1:, :]
        wc = w[cand]
        Sa = S[0] + wc[:, None] * (new[:, :, 1] - cur[:, None, 1])
        Sb = S[1] + wc[:, None] * (new[:, :, 2] - cur[:, None, 2])
        Jaa = J[0] + new[:, :, 3] - cur[:, None, 3]
        Jbb = J[1] + new[:, :, 4] - cur[:, None, 4]
        Jab = J[2] + new[:, :, 5] - cur[:, None, 5]
        q_now = _quad(
            np.array([S[0]]), np.array([S[1]]), np.array([J[0]]), np.array([J[1]]), np.array([J[2]])
        )[0]
        q_new = _quad(Sa, Sb, Jaa, Jbb, Jab)
        if not np.isfinite(q_now):
            q_now = (
                np.nanmax(np.where(np.isfinite(q_new), q_new, np.nan)) if np.isfinite(q_new).any() else 0.0
            )
        gain = (w2[cand, None] * (new[:, :, 0] - cur[:, None, 0]) + (q_now - q_new)) / (sizes[None, :] * step)
        gain = np.where(np.isnan(gain), -np.inf, gain)
        best = gain.max(axis=1)
        best[out[cand] >= room[cand]] = -np.inf
        j = int(np.argmax(best))
        if not np.isfinite(best[j]):
            break
        i = int(cand[j])
        take = int(min(chunk, left, room[i] - out[i]))
        out[i] += take
        left -= take
        if not touched[i]:
            touched[i] = True
            nxt[group[i]] += 1  # i was its group's first untouched problem
        cache[i] = stats_for(np.array([i]))[0]
        now[:, i] = cache[i, 0]
    return out - start


# ----------------------------------------------------------------------------------------
# results
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class PlanResult(ReadOnlyResult):
    """How many more samples each problem should get.

    Attributes
    ----------
    method : str
    k : int
        The target budget K of the forecast pass_D@K.
    budget : int
        New samples per model (a multiple of ``batch``).
    batch : int
        Granularity: every problem gets a multiple of ``batch`` new samples.
    model, problem : ndarray of str
    n, c : ndarray of int
        Samples and successes so far.
    p_hat : ndarray
        Posterior mean success rate E[p | n, c] under the prior used (the model's ``prior`` in ``summary``;
        (α + c)/(α + β + n) under a Beta).
    additional : ndarray of int
        New samples to draw per problem.
    summary : list of dict
        Per model: ``model``, ``problems``, ``samples_so_far``, ``new_samples`` (placed: the budget, or less
        where ``max_n`` leaves no room) and ``problems_sampled`` (problems given any); ``rule``, the rule that placed
        them (``Planner.rule_``: the method, but "passcurve" for "hierarchical" with a fixed prior or a difficulty
        model, which have no fitted (α, β) to be uncertain about); the prior used
        (``prior``, as ``Planner.prior_label_``: "beta" or "zi_beta" (fitted), "fixed" (given, nothing fitted),
        a difficulty model's ``name`` (its fit: "beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"; "model"
        for one without a name), or the fallback used instead of a fit, "jeffreys" (no success or no failure
        yet) or "uniform" (fewer than two problems sampled); ``alpha``, ``beta`` (None for a difficulty model without
        them, e.g. npmle), ``impossible`` mass, ``prior_params`` (a difficulty model's fitted ``params_``, else
        None), and
        ``fit_success``: whether the fit converged, False for a fallback, None (JSON null) for a fixed prior,
        where nothing was fitted); the
        forecasts of pass_D@K now, ``forecast`` and ``forecast_sd`` (given the prior used, ``prior``),
        ``forecast_bayes`` and ``forecast_bayes_sd`` (hierarchical Bayes) and ``population_forecast`` (the
        prior's pass_D@K of a new problem), as :meth:`Planner.forecast`'s posterior, bayes and population; the
        ``hedge``; and ``expected_sd_after`` and ``expected_sd_after_uniform``, the expected SD given the prior
        after this plan and after a uniform plan of the same budget.
    warnings : tuple of str
    """

    __repr__ = brief_repr

    method: str
    k: int
    budget: int
    batch: int
    model: np.ndarray
    problem: np.ndarray
    n: np.ndarray
    c: np.ndarray
    p_hat: np.ndarray
    additional: np.ndarray
    summary: list[dict[str, Any]]
    warnings: tuple[str, ...] = ()

    @property
    def models(self) -> list[str]:
        return [s["model"] for s in self.summary]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``method``, ``k``, ``budget``, ``batch``, ``summary`` (one record per model: problems,
        samples so far and new, the prior and the forecasts with their SDs), ``allocation`` (``model``,
        ``problem``, ``n``, ``c``, ``p_hat``, ``additional`` lists) and ``warnings``."""
        return {
            "method": self.method,
            "k": int(self.k),
            "budget": int(self.budget),
            "batch": int(self.batch),
            "summary": [dict(s) for s in self.summary],
            "allocation": {
                "model": [str(v) for v in self.model],
                "problem": [str(v) for v in self.problem],
                "n": self.n.tolist(),
                "c": self.c.tolist(),
                "p_hat": [float(v) for v in self.p_hat],
                "additional": self.additional.tolist(),
            },
            "warnings": list(self.warnings),
        }

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per (model, problem): columns ``model``, ``problem``, ``n``, ``c``,
        ``p_hat``, ``additional`` and ``prior``, the prior p_hat is under (the model's ``prior`` in ``summary``:
        a saved frame or ``plan --csv`` had no word of it, fitted, fixed or a fallback)."""
        pd = pandas_module()
        frame = pd.DataFrame(self.to_dict()["allocation"])
        label = {str(s["model"]): str(s["prior"]) for s in self.summary}
        frame["prior"] = [label[m] for m in frame["model"]]
        return frame

    def plot(self) -> Any:
        """Scatter of new samples against the estimated success rate (log x), one trace per model.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for m in self.models:
            sel = self.model == m
            fig.add_trace(
                go.Scatter(
                    x=self.p_hat[sel],
                    y=self.additional[sel],
                    mode="markers",
                    name=m,
                    text=[str(p) for p in self.problem[sel]],
                )
            )
        fig.update_layout(
            title=f"{self.method} plan for pass@{self.k}: {self.budget} new samples per model",
            xaxis={"title": "estimated success rate p̂ (posterior mean)", "type": "log"},
            yaxis={"title": "new samples"},
        )
        return fig


# ----------------------------------------------------------------------------------------
# the online planner
# ----------------------------------------------------------------------------------------
def _check_hedge(hedge: Any) -> float:
    h = check_probability(hedge, "hedge")
    if h.size != 1:
        raise PasscurveError(f"`hedge` must be one number in [0, 1] (got {h.size} values)")
    return float(h.ravel()[0])


def _check_method(method: Any) -> str:
    return check_choice(method, "method", METHODS)


def _check_hedge_applies(method: str, hedge: float | None) -> None:
    """A defensive share is an error under the uniform rule, where it would have no effect (check_unused): --method
    uniform --hedge 0.3 planned the uniform design without a word. 0 (the default, no share) is no setting."""
    if method == "uniform" and hedge:
        check_unused('with a `method` other than "uniform" (a uniform plan spreads every sample evenly already)',
                     hedge=hedge)


def _planner_counts_iv(n: Any, c: Any) -> tuple[np.ndarray, np.ndarray]:
    """A planner's counts so far given as arrays: n = 0 is allowed (nothing drawn yet), unlike a Counts object's."""
    n_a = as_int_array(n, "n", minimum=0, max_ndim=1).ravel()
    c_a = as_int_array(c, "c", minimum=0, max_ndim=1).ravel()
    if n_a.size != c_a.size:
        raise PasscurveError(f"`n` has {n_a.size} entries but `c` has {c_a.size}")
    if (c_a > n_a).any():
        i = int(np.flatnonzero(c_a > n_a)[0])
        raise PasscurveError(f"`c` must be <= n (got c={c_a[i]}, n={n_a[i]})")
    return n_a, c_a


def _id_list(problem: Any) -> list[Any]:
    """Problem ids given as a sequence, in order: they pair with outcomes, counts or ``n`` by position. A set (no
    order) or a mapping is an error; an iterator (a generator of ids) is read once. A set had read as one id,
    "`problem` {'a', 'b'} is not one of the planner's problems", and in the constructor "`problem` has 1 entries"."""
    if isinstance(problem, set | frozenset | dict):
        raise PasscurveError(f"`problem` must be one id or a sequence of ids in order (got a {type(problem).__name__}, "
                             "which does not pair its ids with values by position)")
    if isinstance(problem, Iterator):
        problem = list(problem)
    return list(np.asarray(problem, dtype=object).ravel())


class Planner:
    r"""Online sample allocation for one model: ``update`` with outcomes, ask ``next`` for more.

    Parameters
    ----------
    counts : Counts, optional
        Current counts of ONE model (use ``counts.select(model)``). Or give ``n`` and ``c``.
    n, c : array_like of int, optional
        Samples and successes so far per problem (n = 0 is allowed: nothing drawn yet).
    problem : sequence of str, optional
        Problem ids (default "0", "1", ... or the ids in ``counts``).
    k : int
        Target budget K of the forecast pass_D@K (may exceed every n).
    method : {"hierarchical", "passcurve", "fewest-successes", "variance-optimal", "uniform"}
    max_n : int, optional
        At most this many samples per problem in total (e.g. the size of a finite pool).
    weight : array_like, optional
        Problem weights of the benchmark mean (default equal). They also weight the prior's
        likelihood as frequencies (weight 2 = the problem listed twice), so their scale matters:
        use weights near 1, not weights summing to 1.
    prior : "beta" (default), "zi_beta", a difficulty model's name, BetaPrior, (alpha, beta) or a difficulty model
        The difficulty distribution behind the posterior: refit at every call by maximum
        likelihood ("beta": beta-binomial; "zi_beta": with a point mass of impossible
        problems; an unfitted model object with ``fit(n=, c=, weight=)`` and
        ``log_moment(c, d)``, e.g. from ``fit_difficulty``, or one named: "scaled_beta",
        "beta_mixture" or "npmle", a new model of ``DIFFICULTY_MODELS``), or fixed (a BetaPrior or a pair).
    hedge : float in [0, 1]
        Defensive share of every allocation: ``floor(hedge * budget)`` samples are spread
        evenly first (as ``uniform`` would), and the rule places the rest on top of them. A
        defensive mixture with the uniform design (Hesterberg 1995, defensive importance
        sampling): every problem keeps a share of uniform's samples, which limits the damage
        when the difficulty model is wrong about the tail in a way its fit cannot detect.
    rng : None, int or Generator
        Breaks ties between equally good problems (every rule) at random, reproducibly.

    Attributes
    ----------
    problems : list of str
    n_, c_ : ndarray of int
        Current counts (initial counts plus every update).
    prior_ : BetaPrior or ZeroInflatedBetaPrior
        The prior used by the last call (refitted on the current counts).
    prior_label_ : str
        What that prior is: "beta" or "zi_beta" (fitted), "model" (a difficulty model's fit), "fixed" (given), or
        a fallback that is no fit (``prior_.success`` False): "uniform" (Beta(1, 1), fewer than two problems
        sampled) or "jeffreys" (Beta(0.5, 0.5), no success or no failure yet).
    rule_ : str or None
        The rule the last :meth:`allocate` (or :meth:`next`) used: its method, except that ``hierarchical`` is
        ``passcurve`` where the prior is fixed or not a Beta (a difficulty model): it has no (α, β) to be uncertain
        about. None before the first call.
    warnings_ : list of str
        The warnings of that fit ("Category: message"), e.g. that the prior is a fallback
        (nothing solved yet) whose forecast is not an estimate; replaced at every refit.

    Examples
    --------
    >>> pl = Planner(n=[0] * 50, c=[0] * 50, k=1000, rng=0)
    >>> ids = pl.next(100)          # which problems to sample next (with repeats)
    >>> # ... draw one sample per id, then:
    >>> # pl.update(ids, outcomes)  # outcomes: 0/1 per id, in the same order
    """

    def __init__(
        self,
        counts: Counts | None = None,
        *,
        n: Any = None,
        c: Any = None,
        problem: Any = None,
        k: int,
        method: str = "hierarchical",
        max_n: int | None = None,
        weight: Any = None,
        prior: Any = None,
        hedge: float = DEFAULT_HEDGE,
        rng: Any = None,
    ) -> None:
        if counts is not None:
            if n is not None or c is not None:
                raise PasscurveError("give either `counts` or `n` and `c`, not both")
            check_counts_object(counts)
            if len(counts.models) != 1:
                raise PasscurveError(
                    f"`counts` holds {len(counts.models)} models; a Planner plans one: use counts.select(model)"
                )
            n, c = counts.n, counts.c
            problem = counts.problem if problem is None else problem
            weight = counts.weight if weight is None else weight
            self.model = counts.models[0]
        else:
            if n is None or c is None:
                raise PasscurveError("give `counts` or both `n` and `c`")
            self.model = "model"
        n_a, c_a = _planner_counts_iv(n, c)
        size = n_a.size
        if problem is None:
            ids = [str(i) for i in range(size)]
        else:
            ids = [str(p) for p in _id_list(problem)]
            if len(ids) != size:
                raise PasscurveError(f"`problem` has {len(ids)} entries but `n` has {size}")
            if len(set(ids)) != size:  # name the id: the message gave none, and 1 and "1" are one id, "1"
                seen: dict[str, int] = {}
                j = next(j for j, p in enumerate(ids) if seen.setdefault(p, j) != j)
                raise PasscurveError(f"`problem` ids must be unique (got {ids[j]!r} at positions {seen[ids[j]]} and {j}"
                                     "; an id is the str of what is given)")
        self.problems = ids
        self._index = {p: i for i, p in enumerate(ids)}
        # an integer names a problem by position only when no id reads as an integer (ids "10", "0", "1":
        # update(1, ...) must mean id "1", and update(2, ...) is an error, not position 2)
        self._positions = not any(p.lstrip("-").isdigit() for p in ids) or ids == [str(i) for i in range(size)]
        self.k = check_positive_int(k, "k")
        self.method = _check_method(method)
        self.hedge = _check_hedge(hedge)
        # the planner's own rule: a call that overrides it (allocate(method="passcurve")) may give its own hedge
        _check_hedge_applies(self.method, self.hedge)
        self.max_n = None if max_n is None else check_positive_int(max_n, "max_n")
        if self.max_n is not None and (n_a > self.max_n).any():
            raise PasscurveError(f"`max_n` must be >= every n (got max_n={self.max_n}, n={int(n_a.max())})")
        if weight is None:
            self.weight = np.ones(size)
        else:
            self.weight = check_weights(weight, size)
        self._fixed_prior, self._prior_kind = _as_prior(prior)
        self.rng = check_rng(rng)
        self.n_ = n_a.copy()
        self.c_ = c_a.copy()
        self.n0_ = n_a.copy()
        self.c0_ = c_a.copy()
        self.prior_: BetaPrior | None = None
        self.prior_label_: str | None = None
        self.warnings_: list[str] = []
        self.rule_: str | None = None

    # ------------------------------------------------------------------ data
    def _resolve(self, problem: Any) -> np.ndarray:
        items = [problem] if isinstance(problem, str | int | np.integer) else _id_list(problem)
        out = np.empty(len(items), dtype=np.int64)
        for j, p in enumerate(items):
            if isinstance(p, str) and p in self._index:
                out[j] = self._index[p]
            elif isinstance(p, int | np.integer) and not isinstance(p, bool) and str(p) in self._index:
                out[j] = self._index[str(p)]
            elif (
                self._positions
                and isinstance(p, int | np.integer)
                and not isinstance(p, bool)
                and 0 <= int(p) < len(self.problems)
            ):
                out[j] = int(p)
            else:
                raise PasscurveError(f"`problem` {p!r} is not one of the planner's problems")
        return out

    def _check_max_n(self, n_new: np.ndarray) -> None:
        """Refuse an update that takes a problem past max_n, naming the first such problem."""
        if self.max_n is not None and (n_new > self.max_n).any():
            i = int(np.flatnonzero(n_new > self.max_n)[0])
            raise PasscurveError(
                f"an update takes problem {self.problems[i]!r} past `max_n`={self.max_n} "
                f"(n={int(self.n_[i])} + {int(n_new[i] - self.n_[i])} new samples)"
            )

    def __repr__(self) -> str:
        """One line: the design and the counts so far (the default was ``<passcurve._planner.Planner object at
        ...>``)."""
        return (f"Planner(method={self.method!r}, k={self.k}, problems={len(self.problems)}, "
                f"samples={int(self.n_.sum())}, successes={int(self.c_.sum())})")

    def update(self, problem: Any, outcomes: Any) -> Planner:
        """Record outcomes (0/1 or bool) of new samples.

        ``problem`` is one id (then ``outcomes`` holds that problem's new samples) or a
        sequence of ids with one outcome each (as returned by :meth:`next`); either may be an iterator (a
        generator), read once. No outcomes (an
        empty ``outcomes``, with an empty id list: :meth:`next` returns ``[]`` once every
        problem is at ``max_n``) records nothing.

        Parameters
        ----------
        problem : id or sequence of ids
            One problem id, or one id per outcome.
        outcomes : array_like of bool or 0/1
            The new samples' verdicts.

        Returns
        -------
        Planner
            ``self``, updated (so calls chain).
        """
        if isinstance(outcomes, Iterator):  # read once, as an iterator of ids is: a generator of verdicts had read
            outcomes = list(outcomes)  # "`outcomes` must contain integers (got <generator object ...>)"
        try:
            out = np.asarray(outcomes)
        except ValueError:  # a ragged sequence (numpy's "inhomogeneous shape"): as_int_array says so in one line
            out = as_int_array(outcomes, "outcomes", max_ndim=1)
        if out.dtype == bool:
            out = out.astype(np.int64)
        if out.size == 0 and out.dtype.kind in "biuf":  # [] / np.array([]): no new samples
            idx = self._resolve(problem)  # unknown ids are still errors
            if not isinstance(problem, str | int | np.integer) and idx.size:
                raise PasscurveError(f"`problem` has {idx.size} ids but `outcomes` has 0 values")
            return self
        out = as_int_array(np.atleast_1d(out), "outcomes", minimum=0, max_ndim=1).ravel()  # one per sample, not 2-d
        if (out > 1).any():  # the value, as every other check names it (it read "must be 0/1 or booleans" alone)
            raise PasscurveError(f"`outcomes` must be 0/1 or booleans (got {int(out[out > 1][0])})")
        single = isinstance(problem, str | int | np.integer)
        idx = self._resolve(problem)
        if single:
            idx = np.full(out.size, idx[0])
        elif idx.size != out.size:
            raise PasscurveError(f"`problem` has {idx.size} ids but `outcomes` has {out.size} values")
        dn = np.bincount(idx, minlength=len(self.problems))
        dc = np.bincount(idx, weights=out, minlength=len(self.problems)).astype(np.int64)
        self._check_max_n(self.n_ + dn)
        self.n_ += dn
        self.c_ += dc
        return self

    def update_counts(self, problem: Any, n: Any, c: Any) -> Planner:
        """Record aggregated new samples: ``n`` more draws with ``c`` successes per problem id.

        An empty id list with empty ``n`` and ``c`` records nothing (as :meth:`update` does).

        Parameters
        ----------
        problem : sequence of ids
            The problems sampled, each once.
        n, c : array_like of int, shape (len(problem),)
            New samples and new successes per problem (0 <= c <= n).

        Returns
        -------
        Planner
            ``self``, updated.
        """
        idx = self._resolve(problem)
        n, c = (list(v) if isinstance(v, Iterator) else v for v in (n, c))  # read once, as the ids are
        if idx.size == 0 and np.size(n) == 0 and np.size(c) == 0:
            return self
        dn_a = as_int_array(n, "n", minimum=0, max_ndim=1).ravel()
        dc_a = as_int_array(c, "c", minimum=0, max_ndim=1).ravel()
        for name, arr in (("n", dn_a), ("c", dc_a)):
            if arr.size not in (1, idx.size):
                raise PasscurveError(f"`problem` has {idx.size} ids but `{name}` has {arr.size} values")
        dn, dc = np.broadcast_to(dn_a, idx.shape), np.broadcast_to(dc_a, idx.shape)
        if (dc > dn).any():  # which problem, as the constructor's check says it (it read "`c` must be <= n" alone)
            j = int(np.flatnonzero(dc > dn)[0])
            raise PasscurveError(f"`c` must be <= n (got c={int(dc[j])}, n={int(dn[j])} for problem "
                                 f"{self.problems[int(idx[j])]!r})")
        n_new = self.n_.copy()
        np.add.at(n_new, idx, dn)
        self._check_max_n(n_new)
        self.n_ = n_new
        np.add.at(self.c_, idx, dc)
        return self

    # ------------------------------------------------------------------ model
    def fit_prior(self) -> Any:
        """Refit the difficulty prior on the current counts (or return the fixed prior).

        Returns
        -------
        BetaPrior or the fixed prior
            The prior now in use (also stored as ``prior_``): its ``alpha``, ``beta``, ``impossible`` mass and
            the fit's ``success`` and ``message``; the uniform Beta(1, 1) while fewer than two problems are sampled.
        """
        if self._fixed_prior is not None:
            self.prior_ = self._fixed_prior
            self.prior_label_ = "fixed"
            self.warnings_ = []
            return self.prior_
        # the warnings of this fit only: in an online loop the fallback of the first rounds (nothing
        # sampled yet) must not outlive it, or warnings_ says a fitted forecast is not an estimate
        found: list[str] = []
        seen = self.n_ > 0
        fallback = None
        # a fallback is no fit: its success is False (plan's summary had said fit_success true and prior "zi_beta"
        # for a Jeffreys' prior used on three problems with no success), and prior_label_ names it
        if seen.sum() < 2:
            fallback = "the uniform prior Beta(1, 1): fewer than two problems sampled"
            prior: Any = BetaPrior(1.0, 1.0, float("nan"), False, fallback)
            self.prior_label_ = "uniform"
        elif self.c_[seen].sum() == 0 or (self.c_[seen] == self.n_[seen]).all():
            fallback = (f"Jeffreys' prior Beta(0.5, 0.5): no {'successes' if self.c_[seen].sum() == 0 else 'failures'} "
                        "yet")
            prior = BetaPrior(0.5, 0.5, float("nan"), False, fallback)
            self.prior_label_ = "jeffreys"
        if fallback is not None:
            # a starting point for the allocation, not a fit: its forecast is the prior's, not an estimate
            text = (f"DegenerateDataWarning: the planner's difficulty prior is {fallback}; it places the samples, "
                    "but its forecast of pass@K is that prior's, not an estimate from the data")
            found.append(text)
        else:
            n_s, c_s, w_s = self.n_[seen], self.c_[seen], self.weight[seen]
            self.prior_label_ = self._prior_kind if isinstance(self._prior_kind, str) else "model"
            if self._prior_kind == "beta":
                prior, msgs = _fit_beta_binomial(n_s, c_s, w_s, _HYPER)
            elif self._prior_kind == "zi_beta":
                prior, msgs = _fit_zi_beta_binomial(n_s, c_s, w_s, _HYPER)
            else:  # a difficulty model with fit(n=, c=, weight=) and log_moment(c, d)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    prior = _ModelPrior(self._prior_kind.fit(n=n_s, c=c_s, weight=w_s))
                msgs = [(w.category, str(w.message)) for w in caught]
            for cat, msg in msgs:
                text = f"{cat.__name__}: {msg}"
                if text not in found:
                    found.append(text)
        self.prior_ = prior
        self.warnings_ = found
        return prior

    def forecast(self, k: int | None = None) -> dict[str, Any]:
        """Current estimates of pass_D@K (all valid under adaptive sampling except ``naive``).

        Parameters
        ----------
        k : int, optional
            The K of the forecast (default the planner's ``k``), so that the loop's counts give pass_D@K at
            any other K too (the plan itself stays aimed at the planner's ``k``).

        Returns
        -------
        dict
            ``k``; ``posterior`` (weighted mean of per-problem posterior means of 1-(1-p_i)^K: empirical Bayes
            under the refitted prior) and ``posterior_sd`` (its posterior SD given the prior); ``bayes`` and
            ``bayes_sd`` (hierarchical Bayes: the Beta prior's parameters integrated out under the planner's
            hyperprior, see :func:`hierarchical_pass_at_k`; the SD includes the prior's uncertainty);
            ``population`` (the fitted prior's pass_D@K for a new problem); ``prefix`` (Chen's unbiased
            estimator on the initial, non-adaptive counts, when K <= every initial n, else None) and ``naive``
            (Chen's estimator on all counts: biased once n depends on outcomes; None when K > some n).
        """
        from ._estimators import pass_at_k

        kk = self.k if k is None else check_positive_int(k, "k")
        prior = self.fit_prior()
        c, d = self.c_.astype(np.float64), (self.n_ - self.c_).astype(np.float64)
        w = self.weight / self.weight.sum()
        model = _posterior_model(prior)
        if model is not None:  # a mixture of Betas: conjugate posteriors, to the last digits
            g = model.posterior_pass_at_k(self.n_, self.c_, kk)
            var = model._posterior_fail_var(self.n_, self.c_, kk)
            population = float(np.asarray(model.pass_at_k(kk)).ravel()[0])
        else:
            g = -np.expm1(np.minimum(_log_h(prior, c, d, kk), 0.0))
            var = _posterior_var(prior, c, d, kk)
            population = float(-np.expm1(prior.log_moment(0.0, float(kk))))
        out: dict[str, Any] = {
            "k": kk,
            "posterior": float(np.dot(w, g)),
            "posterior_sd": float(np.sqrt(np.dot(w**2, var))),
            "population": population,
            "prefix": None,
            "naive": None,
        }
        hb = _hierarchical_forecast(self.n_, self.c_, float(kk), self.weight, _HYPER)
        out["bayes"] = hb["posterior"]
        out["bayes_sd"] = hb["posterior_sd"]
        if (self.n0_ >= kk).all():
            out["prefix"] = float(np.dot(w, pass_at_k(self.n0_, self.c0_, kk)))
        if (self.n_ >= kk).all():
            out["naive"] = float(np.dot(w, pass_at_k(self.n_, self.c_, kk)))
        return out

    def p_hat(self) -> np.ndarray:
        """Posterior mean success rate of each problem, E[p | n, c] = M(c+1, d)/M(c, d) under the current prior.

        Returns
        -------
        ndarray of float, shape (problems,)
            In the order of ``problems``.
        """
        prior = self.fit_prior()
        c, d = self.c_.astype(np.float64), (self.n_ - self.c_).astype(np.float64)
        return np.exp(prior.log_moment(c + 1, d) - prior.log_moment(c, d))

    # ------------------------------------------------------------------ planning
    def allocate(
        self,
        budget: int,
        *,
        batch: int = 1,
        horizon: int | None = None,
        method: str | None = None,
        hedge: float | None = None,
    ) -> np.ndarray:
        """New samples per problem for a budget, by the planner's rule.

        Parameters
        ----------
        budget : int
            Samples to place (>= 1).
        batch : int, default 1
            Each problem gets a multiple of ``batch``.
        horizon : int, optional
            The largest look-ahead of the passcurve rule (default ``budget``; at least ``budget``, which it
            covers): in an online loop pass the whole remaining budget so that very hard problems, which need
            many samples before they inform the forecast, are not starved.
        method : str, optional
            One of "hierarchical", "passcurve", "fewest-successes", "variance-optimal", "uniform": overrides the
            planner's rule for this call.
        hedge : float in [0, 1], optional
            Overrides the planner's defensive share (spread uniformly) for this call.

        Returns
        -------
        ndarray of int, shape (problems,)
            New samples per problem (multiples of ``batch``, summing to <= budget; 0 where ``max_n`` is reached
            or the weight is 0).
        """
        budget, batch, horizon, method, hedge = _allocate_iv(budget, batch, horizon, method, hedge)
        method = self.method if method is None else method
        _check_hedge_applies(method, hedge)  # this call's own hedge; the planner's is checked against its own rule
        units = budget // batch
        if self.max_n is None:
            room = np.full(len(self.problems), units, dtype=np.int64)
        else:
            room = (self.max_n - self.n_) // batch
        room = np.where(self.weight > 0, room, 0)
        hedge = self.hedge if hedge is None else hedge
        tiebreak = self.rng.random(len(self.problems))
        if method == "uniform":
            self.rule_ = method
            return _alloc_uniform(self.n_, units, room, tiebreak) * batch
        # defensive share: spread first, the rule places the rest on top of it
        u0 = _alloc_uniform(self.n_, int(np.floor(hedge * units)), room, tiebreak)
        units -= int(u0.sum())
        n_planned = self.n_ + batch * u0  # samples drawn + already planned (outcomes unknown)
        if method == "fewest-successes":
            u = _alloc_fewest(self.c_, n_planned, batch, units, room - u0, tiebreak)
        elif method == "variance-optimal":
            u = _alloc_variance_optimal(n_planned, self.p_hat(), self.k, batch, units, room - u0)
        else:
            prior = self.fit_prior()
            w = self.weight / self.weight.sum()
            h = budget if horizon is None else horizon  # >= budget (_allocate_iv)
            # The greedy rules give a tie between identical problems to the first in their input: in the
            # order of `tiebreak` that is a random one (reproducible with rng). In file order, a loop from
            # nothing worked down the file and never reached its tail (500 problems, 20 x 200 samples: the
            # 120 unsampled were the last 120), a subset that a file sorted by topic or difficulty makes
            # anything but exchangeable with the rest.
            o = np.argsort(tiebreak, kind="stable")
            c, n = self.c_[o].astype(np.float64), self.n_[o].astype(np.float64)
            u = np.empty_like(u0)
            if method == "hierarchical" and isinstance(prior, BetaPrior) and self._fixed_prior is None:
                u[o] = _alloc_hierarchical(prior, n, c, self.k, batch, units, room[o], w[o], h, _HYPER, start=u0[o])
            else:  # "passcurve", or a prior that is fixed / not perturbable: prior uncertainty ignored
                u[o] = _alloc_passcurve(prior, n, c, self.k, batch, units, room[o], w[o] ** 2, h, start=u0[o])
                method = "passcurve"
        self.rule_ = method
        return (u0 + u) * batch

    def next(self, batch: int = 1, *, horizon: int | None = None) -> list[str]:
        """Ids of the next ``batch`` samples to draw (a problem may repeat), in problem order.

        Nothing is reserved: until :meth:`update` records their outcomes, another ``next()`` plans from the same
        counts and proposes much the same ids again. Ask once for every sample to draw before the next update.

        Parameters
        ----------
        batch : int, default 1
            How many samples to ask for.
        horizon : int, optional
            The samples still to come in the whole loop, these ``batch`` included (look-ahead of the
            ``passcurve``/``hierarchical`` rules; default ``batch``; a smaller one is an error).

        Returns
        -------
        list of str
            One problem id per sample (``[]`` once every problem is at ``max_n``); pass them, with the
            verdicts, to :meth:`update`.
        """
        # here the size of the request is `batch` (allocate calls it budget; its errors would name that)
        # and its cap too: next(10**8) had said "`budget` is too large", a name next() has not
        batch = check_positive_int(batch, "batch", maximum=MAX_RESAMPLES)
        if horizon is not None:
            _check_horizon_covers(check_positive_int(horizon, "horizon", maximum=MAX_RESAMPLES), batch, "batch")
        alloc = self.allocate(batch, horizon=horizon)
        return [self.problems[i] for i in np.repeat(np.arange(alloc.size), alloc)]

    def expected_sd(self, additional: Any) -> float:
        """Expected posterior SD of the forecast after drawing ``additional`` samples per problem.

        Parameters
        ----------
        additional : array_like of int, shape (problems,)
            New samples per problem (>= 0), e.g. :meth:`allocate`'s answer.

        Returns
        -------
        float
            The expected posterior SD of pass_D@k (the planner's k) under the current prior.
        """
        # capped as a plan's budget is (_budget_batch_iv): the sum over outcomes held 10 GB at 10^8 more samples
        add = as_int_array(additional, "additional", minimum=0, maximum=MAX_RESAMPLES).ravel()
        if add.size != len(self.problems):
            raise PasscurveError(
                f"`additional` has {add.size} entries, the planner {len(self.problems)} problems"
            )
        prior = self.fit_prior()
        c, d = self.c_.astype(np.float64), (self.n_ - self.c_).astype(np.float64)
        w2 = (self.weight / self.weight.sum()) ** 2
        v = _posterior_var(prior, c, d, self.k) - preposterior_reduction(prior, self.n_, self.c_, self.k, add)
        return float(np.sqrt(max(np.dot(w2, np.maximum(v, 0.0)), 0.0)))


class _ModelPrior:
    """Adapter: a fitted difficulty model (``log_moment``, ``params_``) used as the planner's prior."""

    def __init__(self, model: Any) -> None:
        self.model = model
        params = getattr(model, "params_", {})
        self.alpha = float(params.get("alpha", 1.0))
        self.beta = float(params.get("beta", 1.0))
        self.impossible = float(params.get("impossible", 1.0 if "alpha" not in params else 0.0))
        self.success = bool(getattr(model, "success_", True))

    def log_moment(self, c: Any, d: Any) -> np.ndarray:
        # the planner uses ratios of moments, which need log M to a small absolute error only
        if isinstance(self.model, DifficultyModel):
            return self.model.log_moment(c, d, exact=False)
        return self.model.log_moment(c, d)

    def to_dict(self) -> dict[str, Any]:
        return self.model.to_dict()


def _prior_parameters(prior: Any) -> dict[str, Any]:
    """A plan summary's ``alpha``, ``beta``, ``impossible`` and ``prior_params`` of the prior used. A difficulty
    model's are its fit's ``params_`` (``prior_params``), and its alpha and beta only if it has them: an npmle or a
    Beta-mixture prior had read alpha = beta = 1, the adapter's defaults, of laws that have no such parameters, and a
    scaled Beta's alpha and beta said nothing of its scale."""
    if not isinstance(prior, _ModelPrior):
        return {"alpha": float(prior.alpha), "beta": float(prior.beta),
                "impossible": float(getattr(prior, "impossible", 0.0)), "prior_params": None}
    params = {str(k): float(v) for k, v in dict(getattr(prior.model, "params_", {})).items()}
    return {"alpha": params.get("alpha"), "beta": params.get("beta"), "impossible": params.get("impossible", 0.0),
            "prior_params": params}


def _posterior_model(prior: Any) -> DifficultyModel | None:
    """The planner's prior as a fitted difficulty model whose posterior forms are exact (a Beta, zero-inflated Beta or
    any fitted :class:`DifficultyModel`), for :meth:`Planner.forecast`; None for a duck-typed prior.

    The allocation loop keeps its ratios of ``log_moment`` values (a small absolute error is all a design needs); the
    forecast's per-problem pass@K and variance as such differences were off by 2.3e-8 and 3.7e-3 relative at
    n = 10^6, k = 1 (docs/planning.md).
    """
    if isinstance(prior, _ModelPrior):
        return prior.model if isinstance(prior.model, DifficultyModel) else None
    if not isinstance(prior, BetaPrior):
        return None
    model: DifficultyModel
    if prior.impossible > 0:
        model = ZeroInflatedBetaBinomial()
        model._theta = np.array([special.logit(prior.impossible), np.log(prior.alpha), np.log(prior.beta)])
    else:
        model = BetaBinomial()
        model._theta = np.log([prior.alpha, prior.beta])
    return model


_PRIOR_KINDS = ", ".join(f'"{m}"' for m in ("beta", "zi_beta", *PLAN_MODEL_PRIORS))


def _as_prior(prior: Any) -> tuple[Any, Any]:
    """(fixed prior or None, kind to refit: "beta", "zi_beta" or a model object)."""
    if prior is None or (isinstance(prior, str) and prior == "beta"):
        return None, "beta"
    if isinstance(prior, str):
        if prior == "zi_beta":
            return None, "zi_beta"
        if prior in PLAN_MODEL_PRIORS:  # by name, as the command line's --prior gives it: a fresh, unfitted model
            from ._difficulty import DIFFICULTY_MODELS

            return None, DIFFICULTY_MODELS[prior]()
        raise PasscurveError(
            f"`prior` must be {_PRIOR_KINDS}, a BetaPrior, (alpha, beta) or a difficulty model (got {prior!r})"
        )
    if isinstance(prior, BetaPrior):
        return prior, "fixed"
    if hasattr(prior, "fit") and hasattr(prior, "log_moment"):
        return None, prior
    # (alpha, beta): two finite numbers in order. A set {a, b} had been read in hash order, ("1", 2) as (1, 2), and
    # (inf, 1) planned nothing ("0 of the budget's 20 samples could be placed") after numpy's invalid-value warnings
    if isinstance(prior, set | frozenset | dict):
        raise PasscurveError(f"`prior` must be {_PRIOR_KINDS}, a BetaPrior, (alpha, beta) or a difficulty model "
                             f"(got a {type(prior).__name__}, which has no order)")
    ab = as_float_array(prior, "prior", max_ndim=1).ravel()
    if ab.size != 2:
        raise PasscurveError(
            f"`prior` must be {_PRIOR_KINDS}, a BetaPrior, (alpha, beta) or a difficulty model "
            f"(got {ab.size} number{'' if ab.size == 1 else 's'})"
        )
    a, b = float(ab[0]), float(ab[1])
    if not (a > 0 and b > 0):
        raise PasscurveError(f"`prior` needs alpha > 0 and beta > 0 (got {fmt(a)}, {fmt(b)})")
    return BetaPrior(a, b, float("nan"), True, "fixed"), "fixed"


# ----------------------------------------------------------------------------------------
# one-shot planning
# ----------------------------------------------------------------------------------------
def _budget_batch_iv(budget: Any, batch: Any) -> tuple[int, int]:
    """A budget of at least one batch, both positive integers; the budget (and a look-ahead ``horizon``) at most
    MAX_RESAMPLES, 10^7 samples. The look-ahead of the passcurve and hierarchical rules sums over the outcomes of up
    to that many more samples of one problem, about 70 bytes a sample: n = (2, 4), c = (1, 2) planned 10^7 in 20 s
    and 0.76 GB, 10^8 in 90 s and 6.8 GB, and 10^9 was killed for memory (19.6 GB on 3 problems) after minutes
    without a word."""
    budget = check_positive_int(budget, "budget", maximum=MAX_RESAMPLES)
    batch = check_positive_int(batch, "batch")
    if budget < batch:
        raise PasscurveError(f"`budget` must be >= `batch` (got budget={budget}, batch={batch})")
    return budget, batch


def _allocate_iv(budget: Any, batch: Any, horizon: Any, method: Any,
                 hedge: Any) -> tuple[int, int, int | None, str | None, float | None]:
    """Planner.allocate's arguments: budget >= batch >= 1, a horizon (None or an integer >= 1: "x" was a
    ValueError from int() and -5 was taken), and the optional method and hedge overrides."""
    budget, batch = _budget_batch_iv(budget, batch)
    h = None if horizon is None else check_positive_int(horizon, "horizon", maximum=MAX_RESAMPLES)
    _check_horizon_covers(h, budget, "budget")
    return (budget, batch, h, None if method is None else _check_method(method),
            None if hedge is None else _check_hedge(hedge))


def _check_horizon_covers(horizon: int | None, asked: int, name: str) -> None:
    """The look-ahead covers at least the samples placed now (they are part of what is to come): a smaller horizon
    had been raised to the request without a word, so next(5, horizon=1), read as a myopic one-step rule, looked 5
    ahead."""
    if horizon is not None and horizon < asked:
        raise PasscurveError(f"`horizon` must be >= `{name}`, the samples placed now, which the look-ahead covers "
                             f"(got horizon={horizon}, {name}={asked})")


def _plan_iv(
    counts: Any, n: Any, c: Any, budget: Any, k: Any, batch: Any, method: Any
) -> tuple[Counts | tuple[np.ndarray, np.ndarray], int, int, int, str]:
    """The counts (a Counts object, or one model's ``n`` and ``c`` arrays as a Planner takes them: n = 0 allowed, the
    first samples of a problem planned; a Counts object, and so a counts file, needs n >= 1), budget, k, batch and
    method."""
    data: Counts | tuple[np.ndarray, np.ndarray]
    if counts is None:
        if n is None or c is None:
            raise PasscurveError("give `counts` or both `n` and `c`")
        data = _planner_counts_iv(n, c)
    else:
        check_counts_object(counts)
        if n is not None or c is not None:
            raise PasscurveError("give either `counts` or `n` and `c`, not both")
        data = counts
    budget = check_positive_int(budget, "budget", maximum=MAX_RESAMPLES)  # first, as before; the cap: _budget_batch_iv
    k = check_positive_int(k, "k")
    budget, batch = _budget_batch_iv(budget, batch)
    return data, budget, k, batch, _check_method(method)


def plan(
    counts: Counts | None = None,
    *,
    n: Any = None,
    c: Any = None,
    budget: int,
    k: int,
    batch: int = 1,
    method: str = "hierarchical",
    max_n: int | None = None,
    prior: Any = "beta",
    hedge: float = DEFAULT_HEDGE,
    rng: Any = None,
) -> PlanResult:
    r"""How many more samples each problem should get to forecast pass_D@K best.

    Parameters
    ----------
    counts : Counts, optional
        Current counts (several models are planned independently, ``budget`` each); or
        give ``n`` and ``c`` arrays for one model.
    n, c : array_like of int, optional
        Instead of ``counts``: one model's samples drawn and samples correct per problem (n = 0 is allowed, as in
        :class:`Planner`: the plan then places a problem's first samples).
    budget : int
        New samples to spend per model, rounded down to a multiple of ``batch`` (a warning says so when it is
        not one: the result's ``budget`` is the rounded value). At most 10^7: the look-ahead's memory grows by
        about 70 bytes a sample (10^8: 6.8 GB); plan a larger budget in stages, drawing between them.
    k : int
        Target budget K of pass_D@K (may lie far beyond n).
    batch : int
        Granularity: each problem gets a multiple of ``batch`` new samples (e.g. the ``n``
        of one generation request).
    method : {"hierarchical", "passcurve", "fewest-successes", "variance-optimal", "uniform"}
        See the module docstring; "uniform" is the baseline (equal new samples).
    max_n : int, optional
        Cap on total samples per problem.
    prior : {"beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"} or a prior accepted by :class:`Planner`
        Difficulty distribution refit on the counts (zero-inflated: with impossible problems; a difficulty model's
        name: that model, fitted by maximum likelihood), or fixed, as :class:`Planner` takes it.
    hedge : float in [0, 1]
        Defensive share: this fraction of the budget is spread evenly before the rule
        places the rest (see :class:`Planner`).
    rng : None, int or Generator
        Tie-breaking (reproducible with a seed).

    Returns
    -------
    PlanResult
        ``additional`` per problem, the posterior mean p̂, and per model the forecast now,
        its posterior SD, and the expected SD after this plan and after a uniform plan.

    References
    ----------
    Kazdan et al. 2025, arXiv 2510.05197 (fewest-successes rule, variance-optimal
    allocation, beta-binomial forecast); Frazier & Powell 2010 (knowledge-gradient(*)).
    """
    data, budget, k, batch, method = _plan_iv(counts, n, c, budget, k, batch, method)
    gen = check_rng(rng)
    rows_p: list[np.ndarray] = []
    rows_add: list[np.ndarray] = []
    summary: list[dict[str, Any]] = []
    warns: list[str] = []
    if budget % batch:  # whole batches only: the rest was dropped without a word (budget=105, batch=10 planned 100)
        warns.append(f"PasscurveWarning: the budget of {budget:,} samples is not a multiple of the batch of {batch:,}: "
                     f"{budget - budget % batch:,} samples per model are planned (whole batches), the other "
                     f"{budget % batch:,} are not spent")
    restart = model_streams(gen)
    # one model's arrays go to the Planner as they are, n = 0 included (plan(n=[0, 0], ...) had said "`n` must be
    # >= 1" where Planner(n=[0, 0]) plans the first samples); a Counts object's rows never have n = 0
    given: list[tuple[str, dict[str, Any]]] = ([(m, {"counts": sub}) for m, sub in data.groups()]
                                               if isinstance(data, Counts) else [("model", {"n": data[0], "c": data[1]})])
    planners: list[Planner] = []
    for model, source in given:
        restart()  # a model's plan does not depend on the other models in the input
        with warnings.catch_warnings():
            pl = Planner(**source, k=k, method=method, max_n=max_n, prior=prior, hedge=hedge, rng=gen)
            planners.append(pl)
            before = gen.bit_generator.state
            add = pl.allocate(budget, batch=batch)
            rule = pl.rule_
            fc = pl.forecast()
            # the uniform comparison breaks its ties with the plan's random numbers: a uniform plan (or --hedge 1) is
            # then its own comparison. With the next draw, the demo-like 7 problems x 60 samples of --method uniform
            # read 'expected SD 0.0744 after this plan (uniform: 0.0749)', a design compared with itself
            gen.bit_generator.state = before
            uni = pl.allocate(budget, batch=batch, method="uniform")
        fitted = pl.prior_
        if fitted is None:  # allocate() always fits the prior first
            raise RuntimeError(f"model {model!r}: the planner's difficulty prior was not fitted")
        rows_p.append(pl.p_hat())
        rows_add.append(add)
        # the prior used, as the planner names it: a fixed prior (1, 2) had read "beta" with fit_success true, though
        # nothing was fitted; a difficulty model is named by its `name` (a ScaledBetaBinomial had read "beta", a
        # BetaMixtureBinomial "zi_beta", from its impossible mass)
        label = str(pl.prior_label_)
        if label == "model":
            label = str(getattr(getattr(fitted, "model", None), "name", "model"))
        summary.append(
            {
                "model": model,
                "problems": len(pl.problems),
                "samples_so_far": int(pl.n0_.sum()),
                "new_samples": int(add.sum()),
                "rule": rule,
                "prior": label,
                **_prior_parameters(fitted),
                "fit_success": None if label == "fixed" else bool(fitted.success),
                "forecast": fc["posterior"],
                "forecast_sd": fc["posterior_sd"],
                "forecast_bayes": fc["bayes"],
                "forecast_bayes_sd": fc["bayes_sd"],
                "hedge": float(pl.hedge),
                "expected_sd_after": pl.expected_sd(add),
                "expected_sd_after_uniform": pl.expected_sd(uni),
                "population_forecast": fc["population"],
                "problems_sampled": int((add > 0).sum()),
            }
        )
        # the fit's warnings name the model, as the others here do: with several models they were said once, for
        # none of them ('no failures yet' and 'no successes yet' for two models of one file, neither named)
        for w in pl.warnings_:
            cat, _, msg = w.partition(": ")
            if (said := f"{cat}: model {model!r}: {msg}") not in warns:
                warns.append(said)
        placed, asked = int(add.sum()), (budget // batch) * batch
        if placed < asked:  # max_n (or zero weights) left no room for the rest: say so, not only in the summary
            # with batch > 1 a problem below max_n is full once a batch would pass it: --max-n 12 --batch 5 at n = 10
            # had said "every problem is at max_n=12" of problems at 10
            at = f"is at max_n={max_n}" if batch == 1 else f"is within a batch ({batch}) of max_n={max_n}"
            why = "has weight 0" if max_n is None else f"{at} or has weight 0"
            warns.append(f"PasscurveWarning: model {model!r}: {placed:,} of the budget's {asked:,} samples could be "
                         f"placed; every {'' if placed == 0 else 'other '}problem {why} (the rest of the budget is unspent)")
    for w in warns:
        cat_name, _, msg = w.partition(": ")
        from . import _errors

        warnings.warn(msg, getattr(_errors, cat_name, _errors.PasscurveWarning), stacklevel=2)
    return PlanResult(
        method=method,
        k=k,
        budget=(budget // batch) * batch,
        batch=batch,
        model=np.concatenate([np.full(len(pl.problems), pl.model, dtype=object) for pl in planners]),
        problem=np.concatenate([np.array(pl.problems, dtype=object) for pl in planners]),
        n=np.concatenate([pl.n0_ for pl in planners]),
        c=np.concatenate([pl.c0_ for pl in planners]),
        p_hat=np.concatenate(rows_p),
        additional=np.concatenate(rows_add),
        summary=summary,
        warnings=tuple(warns),
    )
