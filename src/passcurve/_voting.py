r"""Majority voting (maj@k, cons@k) computed exactly from per-problem answer tallies.

A problem has n samples; their final answers fall into groups: the gold (reference)
answer with g samples, wrong answers with b_1, ..., b_m samples, and b_0 samples that
gave no answer (abstentions, which take a seat in the subset but cast no vote). maj@k is
the expected score of a majority vote over a uniformly random k-subset of the n samples:
with X the gold count and Y_j the count of wrong answer j in the subset,

.. math:: \text{maj@}k = \mathbb{E}\bigl[\,[X \ge 1,\ X \ge \max_j Y_j]\; s(T)\bigr],
          \qquad T = \#\{j : Y_j = X\}

with the tie score s(T) = 1/(T+1) (``ties="random"``), s(T) = [T = 0] (``"strict"``) or,
for ``"first"``, 1 when every tied answer appears after the gold answer in the sample order
(first appearances among all n samples) and 0 otherwise.

Algorithm (no subset enumeration)
---------------------------------
(X, Y_0, Y_1, ..., Y_m) is multivariate hypergeometric. It equals independent binomials
Y_j ~ Bin(b_j, θ) conditioned on their total being k, for any θ; with θ = k/n every
factor is a probability (no huge binomial coefficients) and the normaliser
Bin(n, θ)(k) ≈ 1/sqrt(2πkθ(1-θ)) is well scaled:

.. math:: \text{maj@}k = \frac{1}{\text{Bin}(n,\theta)(k)} \sum_{x \ge 1} \text{Bin}(g,\theta)(x)
          \int_0^1 [z^{k-x}] \prod_j \Bigl(\sum_{y<x} \text{Bin}(b_j,\theta)(y) z^y
          + t_j\,\text{Bin}(b_j,\theta)(x) z^x\Bigr)\,du

where t_j = u for a random tie break (∫_0^1 u^T du = 1/(T+1)), 0 for a tie the gold loses
and 1 for a tie it wins; abstentions contribute their whole generating function
((1-θ) + θz)^{b_0}. For each gold count x the coefficient [z^{k-x}] is read off the
values of the product at L roots of unity (a discrete Fourier sum; the product of
hundreds of groups is a sum of complex logarithms, groups with equal counts share one
factor raised to their multiplicity). L is either large enough that no aliasing occurs
(L > max(N, degree - N), exact) or large enough that the aliased mass, bounded by a
binomial tail, is below 1e-16. The u-integral is a polynomial of degree T_max =
min(#groups that can tie, (k-x)/x) and is done exactly by Gauss-Legendre quadrature with
T_max//2 + 1 nodes. Gold counts x with P(X = x) < 1e-16 are skipped (absolute error at
most k·1e-16), and x > k - x wins outright.

The independent-voter prediction uses the same machinery with independent Poisson
counts (the multinomial of k voters, each right with the benchmark-average accuracy p̄).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from scipy import special, stats

from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._estimators import pass_at_k
from ._results import ReadOnlyResult, brief_repr, frame_html, long_frame
from ._validation import (
    MAX_GRID,
    as_bool_array,
    as_id_array,
    as_int_array,
    check_choice,
    check_flag,
    check_positive_int,
    check_rng,
    check_scalar,
    check_text,
    fmt,
    is_missing,
    show_value,
)

__all__ = [
    "maj_at_k",
    "maj_at_k_tallies",
    "AnswerTallies",
    "VoteResult",
    "vote",
    "simulate_answers",
    "TIES",
]

Ties = Literal["random", "strict", "first"]
TIES: tuple[Ties, ...] = ("random", "strict", "first")

_TOL = 1e-16
_X1_MIN = 8  # from this N on, the x = 1 term uses the FFT path instead of quadrature

try:  # Boost's binomial pmf (what scipy.stats.binom.pmf calls), without the stats overhead
    from scipy.special._ufuncs import _binom_pmf as _boost_binom_pmf
except ImportError:  # pragma: no cover - older/newer scipy layouts
    _boost_binom_pmf = None


def _binom_pmf(y: Any, n: Any, p: float) -> np.ndarray:
    y, n = np.broadcast_arrays(np.asarray(y, dtype=np.float64), np.asarray(n, dtype=np.float64))
    ok = (y >= 0) & (y <= n)
    if _boost_binom_pmf is not None:
        out = _boost_binom_pmf(np.where(ok, y, 0.0), n, p)
    else:  # pragma: no cover
        out = stats.binom.pmf(y, n, p)
    return np.where(ok, out, 0.0)


def _binom_sf(M: Any, n: float, p: float) -> np.ndarray:
    """P(Bin(n, p) >= M)."""
    M = np.asarray(M, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        v = special.bdtrc(np.clip(M - 1, 0, n), n, p)
    return np.where(M <= 0, 1.0, np.where(M > n, 0.0, v))


def _binom_cdf(M: Any, n: float, p: float) -> np.ndarray:
    """P(Bin(n, p) <= M)."""
    M = np.asarray(M, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        v = special.bdtr(np.clip(M, 0, n), n, p)
    return np.where(M < 0, 0.0, np.where(M >= n, 1.0, v))


def _pois_pmf(y: Any, mu: Any) -> np.ndarray:
    y = np.asarray(y, dtype=np.float64)
    mu = np.asarray(mu, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.exp(special.xlogy(y, mu) - mu - special.gammaln(y + 1.0))
    return np.where(y >= 0, out, 0.0)


def _pois_sf(M: Any, mu: float) -> np.ndarray:
    M = np.asarray(M, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        v = special.pdtrc(np.maximum(M - 1, 0), mu)
    return np.where(M <= 0, 1.0, v)


def _pois_cdf(M: Any, mu: float) -> np.ndarray:
    M = np.asarray(M, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        v = special.pdtr(np.maximum(M, 0), mu)
    return np.where(M < 0, 0.0, v)
_LOSE, _WIN, _SHARE = 0, 1, 2


# ----------------------------------------------------------------------------------------
# the exact core
# ----------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=512)
def _gauss01(q: int) -> tuple[np.ndarray, np.ndarray]:
    nodes, weights = np.polynomial.legendre.leggauss(q)
    return (nodes + 1.0) / 2.0, weights / 2.0


@dataclass
class _Model:
    """One problem's vote as independent per-group counts conditioned on their total k."""

    k: int
    gold_w: np.ndarray  # scaled weight of x gold votes, x = 0..k
    pm: np.ndarray  # (D, k+1) scaled pmf of each distinct wrong group
    sup: np.ndarray  # (D,) largest possible count of the group
    mult: np.ndarray  # (D,) how many wrong answers share the row
    cls: np.ndarray  # (D,) _LOSE / _WIN / _SHARE: what a tie with this answer scores
    norm: float  # scaled probability that the total is k
    rest_pmf: Any  # N -> scaled probability that the non-gold total is N (unconstrained)
    rest_sf: Any  # M -> scaled probability that the non-gold total is >= M
    rest_cdf: Any  # M -> scaled probability that the non-gold total is <= M
    rest_var: float  # variance of the non-gold total
    full_log: Any  # (omega, b) -> log of a group's whole generating function, shape (len(b), L)
    free_log: Any  # (omega, x, t) -> log of the unconstrained part (abstentions, distinct answers)
    free_ties: Any  # (x, N) -> how many extra ties the unconstrained part can create
    free_deg: float  # degree of the unconstrained part (inf for Poisson)
    share: np.ndarray = field(default_factory=lambda: np.zeros(0))  # (D,) per-vote share given not gold
    free_cls: int = _SHARE
    free_loses: Any = field(default=lambda x: False)  # x -> can the unconstrained part beat x gold votes?


def _rlog(Z: np.ndarray, r: np.ndarray | float) -> np.ndarray:
    """r * log(Z) for complex Z and real r >= 0 without the NaN that complex -inf * real gives."""
    return r * np.log(np.abs(Z)) + 1j * (r * np.angle(Z))


def _choose_L(m: _Model, xs: np.ndarray) -> int:
    """Smallest L (growing from ~18 standard deviations of the non-gold total) such that for
    every gold count x either no aliasing is possible (L > max(N, degree - N)) or the mass
    the DFT folds onto z^N (the two tails of the unconstrained total beyond N ± L) is below
    the tolerance once weighted by P(gold = x)."""
    k = m.k
    xs = np.asarray(xs, dtype=np.int64)
    N = k - xs
    deg = (m.mult[None, :] * np.minimum(m.sup[None, :], xs[:, None])).sum(axis=1) + m.free_deg
    w = m.gold_w[xs] / m.norm
    L = max(16, int(18 * math.sqrt(m.rest_var) + 8))
    for _ in range(200):
        exact = (L > N) & (L > deg - N)
        folded = m.rest_sf(N + L) + np.where(N - L >= 0, m.rest_cdf(N - L), 0.0)
        if np.all(exact | (w * folded <= _TOL)):
            return L
        L = int(L * 1.25) + 1
    return L  # pragma: no cover - the tails vanish long before


def _maj_core(m: _Model) -> float:
    k = m.k
    xmax = int(np.flatnonzero(m.gold_w > 0)[-1]) if (m.gold_w > 0).any() else 0
    xs = np.arange(1, min(xmax, k) + 1)
    if xs.size == 0:
        return 0.0
    N_all = k - xs
    # the other answers can hold at most this many of the k - x other seats with none above x: where that is
    # fewer than k - x, gold cannot lead with x votes and the term is exactly 0 (the Fourier sum would leave
    # ~1e-30 of rounding there: maj@51 with gold 5 of 144, wrong answers 18, 68 and 53 read 8.3e-32, not 0)
    cap = xs[:, None] - (m.cls == _LOSE)[None, :]  # an answer that wins its ties with gold must stay below x
    room = (m.mult[None, :] * np.minimum(m.sup[None, :], cap)).sum(axis=1) + m.free_deg
    px = m.gold_w[xs] * m.rest_pmf(N_all) / m.norm  # P(X = x)
    # gold wins every subset when no x it can lose with has probability (x = 0 included): then maj@k is exactly 1,
    # which the sum of the winning P(X = x) missed by rounding (27 gold votes and one abstention, k = 8: 1 - 6e-16)
    sure = bool((px[room < N_all] == 0).all()) and float(m.gold_w[0] * m.rest_pmf(np.array([k]))[0]) == 0.0
    px = np.where(room >= N_all, px, 0.0)
    # upper bound: P(X = x and the largest wrong answer has at most x votes)
    bound = px * _na_bound(xs, N_all, m.share, m.mult)
    total = 0.0
    todo = []
    # and P(X = x and some wrong answer reaches x votes), by Chernoff and the union bound
    risk = px * _chernoff_union(xs, N_all, m.share, m.mult)
    for x, N, p_x, b_x, r_x in zip(xs.tolist(), N_all.tolist(), px.tolist(), bound.tolist(), risk.tolist(),
                                   strict=True):
        if not b_x > _TOL:
            sure = sure and p_x == 0.0
            continue
        free = m.free_ties(x, N) > 0 or m.free_loses(x)
        if x > N or (not free and (not (m.sup >= x).any() or r_x < _TOL)):
            total += p_x  # no wrong answer can reach x votes (or only with probability < tol)
            sure = sure and (x > N or not (m.sup >= x).any())  # a win by the tolerance is no certain one
            continue
        todo.append(x)
    if not todo:
        return 1.0 if sure else float(min(max(total, 0.0), 1.0))
    L = _choose_L(m, np.asarray(todo))
    Lh = L // 2 + 1
    ell = np.arange(Lh)
    root = np.exp(2j * np.pi * np.arange(L) / L)
    omega = root[ell]
    # real part of the inverse DFT over half the circle (coefficients are real)
    cw = np.full(Lh, 2.0)
    cw[0] = 1.0
    if L % 2 == 0:
        cw[-1] = 1.0
    # rows that can reach the smallest x need the running partial sums A_j = sum_{y<x} pm[j,y] w^y
    live = np.flatnonzero(m.sup >= todo[0])
    dead = np.flatnonzero(m.sup < todo[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        log_dead = m.full_log(omega, m.mult[dead] * m.sup[dead]).sum(axis=0)
        pm, sup, mult, cls = m.pm[live], m.sup[live], m.mult[live], m.cls[live]
        A = np.zeros((live.size, Lh), dtype=np.complex128)
        y_done = 0
        for x in todo:
            N = k - x
            if x == 1 and N > _X1_MIN and ((cls == _SHARE).any() or m.free_ties(1, N) > 0):
                total += m.gold_w[1] * _x1_random(m, N) / m.norm
                continue
            while y_done < x:
                A += pm[:, y_done, None] * root[(ell * y_done) % L][None, :]
                y_done += 1
            Bx = pm[:, x, None] * root[(ell * x) % L][None, :]
            reach = sup >= x
            logF = log_dead + _rlog(A[~reach], mult[~reach, None]).sum(axis=0)
            lose = reach & (cls == _LOSE)
            win = reach & (cls == _WIN)
            share = reach & (cls == _SHARE)
            if lose.any():
                logF = logF + _rlog(A[lose], mult[lose, None]).sum(axis=0)
            if win.any():
                logF = logF + _rlog(A[win] + Bx[win], mult[win, None]).sum(axis=0)
            n_share = int(mult[share].sum()) + m.free_ties(x, N)
            t_max = min(n_share, N // x)
            if t_max > 0:
                u, wq = _gauss01(t_max // 2 + 1)
            else:
                u, wq = np.array([1.0]), np.array([1.0])
            logQ = np.broadcast_to(logF, (u.size, Lh)).copy()
            if share.any() and t_max > 0:
                As, Bs = A[share], Bx[share]
                rs = mult[share].astype(np.int64)
                step = max(1, int(2_000_000 // max(1, As.size)))
                for s in range(0, u.size, step):
                    uu = u[s : s + step, None, None]
                    V = As[None] + uu * Bs[None]  # (q, D, L)
                    # |V(w)| <= V(1) (positive coefficients): normalise by V(1) so the plain
                    # product over rows cannot overflow; its underflow only drops values
                    # ~1e-308 below the one at w = 1, which the coefficient cannot see
                    v1 = V[:, :, :1].real
                    dead_node = (v1[:, :, 0] <= 0).any(axis=1)  # a factor is the zero polynomial
                    v1 = np.where(v1 > 0, v1, 1.0)
                    logQ[s : s + step] += (rs[None, :] * np.log(v1[:, :, 0])).sum(axis=1)[:, None]
                    logQ[s : s + step][dead_node] = -np.inf
                    V /= v1
                    multi = rs > 1
                    if multi.any():  # integer powers by repeated multiplication (numpy's cpow)
                        V[:, multi] = V[:, multi] ** rs[multi][None, :, None]
                    logQ[s : s + step] += _rlog(np.prod(V, axis=1), 1.0)
            elif share.any():
                logQ += _rlog(A[share], mult[share, None]).sum(axis=0)
            logQ += m.free_log(omega, x, u)
            F = np.exp(logQ) * root[(-ell * N) % L][None, :]
            coef = (F.real @ cw) / L  # one value per node
            total += m.gold_w[x] * float(wq @ coef) / m.norm
    return float(min(max(total, 0.0), 1.0))


def _x1_random(m: _Model, N: int) -> float:
    """[z^N] of the x = 1 term with random tie breaks, without quadrature.

    With one gold vote every voting answer has at most one vote, so the number of ties
    equals the z-degree of the tie-able part S(z) = prod_share (p0 + p1 z)^r (times the
    Poisson part of never-coinciding wrong votes): ∫_0^1 S(uz) du has coefficients
    s_t/(t+1). S is read off by an inverse FFT on L points, divided, transformed back and
    multiplied by the rest. L is exact (no aliasing) or certified by the binomial tail.
    """
    share = m.cls == _SHARE
    lose = m.cls == _LOSE
    win = m.cls == _WIN
    w1 = m.gold_w[1] / m.norm
    deg_s = float(m.mult[share].sum()) + (math.inf if m.free_ties(1, N) > 0 else 0.0)
    deg_all = float(m.mult.sum()) + m.free_deg
    L = max(N + 1, 16)
    for _ in range(200):
        exact = L > deg_s and L > deg_all - N
        if exact or w1 * float(m.rest_sf(L)) <= _TOL:
            break
        L = int(L * 1.25) + 1
    omega = np.exp(2j * np.pi * np.arange(L) / L)
    p0, p1 = m.pm[:, 0], m.pm[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        one = np.ones(1)
        zero = np.zeros(1)
        tie_free = (m.free_log(omega, 1, one) - m.free_log(omega, 1, zero))[0]
        logS = _rlog(p0[share, None] + p1[share, None] * omega[None, :], m.mult[share, None]).sum(axis=0) + tie_free
        # values at omega_l = exp(+2 pi i l / L): coefficients by numpy's forward transform / L
        coef_s = np.fft.fft(np.exp(logS)).real / L / (np.arange(L) + 1.0)
        S_int = np.fft.ifft(coef_s) * L
        logR = m.free_log(omega, 1, zero)[0] + _rlog(np.broadcast_to(p0[lose, None], (int(lose.sum()), L)),
                                                      m.mult[lose, None]).sum(axis=0)
        if win.any():
            logR = logR + _rlog(p0[win, None] + p1[win, None] * omega[None, :], m.mult[win, None]).sum(axis=0)
        F = np.exp(logR) * S_int
        back = omega[(-np.arange(L) * N) % L]  # omega^(-lN)
        return float((F * back).real.sum() / L)


def _chernoff_union(xs: np.ndarray, N: np.ndarray, share: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """Upper bound on P(some wrong answer has >= x votes | gold has x votes).

    Given X = x, a wrong answer's count is hypergeometric (N = k - x draws, success share
    ``share``) or binomial; Hoeffding (1963) shows the binomial Chernoff bound
    exp(-N KL(x/N || share)) holds for both. Summed over answers (union bound).
    """
    out = np.zeros(xs.size)
    if share.size == 0:
        return out
    Nf = np.maximum(N.astype(np.float64), 1.0)[:, None]
    q = np.clip(xs[:, None] / Nf, 0.0, 1.0)
    p = np.clip(share[None, :], 1e-300, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = np.where(q > 0, q * np.log(q / p), 0.0) + np.where(q < 1, (1 - q) * np.log((1 - q) / np.where(p < 1, 1 - p, 1e-300)), 0.0)
    b = np.where(q > p, np.exp(-Nf * kl), 1.0)
    b = np.where(xs[:, None] > N[:, None], 0.0, b)
    return np.minimum(1.0, (b * mult[None, :]).sum(axis=1))


def _na_bound(xs: np.ndarray, N: np.ndarray, share: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """Upper bound on P(every wrong answer has <= x votes | gold has x votes).

    Given X = x the other counts are multivariate hypergeometric (or multinomial), which
    is negatively associated (Joag-Dev and Proschan 1983), so the probability that all stay
    <= x is at most the product of the marginals; each marginal P(Y_j <= x) is bounded by
    the Chernoff bound exp(-N KL(x/N || share_j)) (valid for the hypergeometric too,
    Hoeffding 1963).
    """
    if share.size == 0:
        return np.ones(xs.size)
    Nf = np.maximum(N.astype(np.float64), 1.0)[:, None]
    q = np.clip(xs[:, None] / Nf, 0.0, 1.0)
    p = np.clip(share[None, :], 1e-300, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        kl = special.xlogy(q, q / p) + special.xlogy(1 - q, (1 - q) / np.where(p < 1, 1 - p, 1e-300))
    logb = np.where(q < p, -Nf * kl, 0.0)
    return np.exp((logb * mult[None, :]).sum(axis=1))


def _group_rows(counts: np.ndarray, cls: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (count, class) rows with multiplicities."""
    if counts.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    key = np.stack([counts, cls], axis=1)
    uk, mult = np.unique(key, axis=0, return_counts=True)
    return uk[:, 0], uk[:, 1], mult.astype(np.float64)


def _hypergeometric_model(g: int, wrong: np.ndarray, cls: np.ndarray, abstain: int, k: int) -> _Model:
    n = g + int(wrong.sum()) + abstain
    theta = k / n
    b, c, r = _group_rows(wrong, cls)
    y = np.arange(k + 1)
    pm = _binom_pmf(y[None, :], b[:, None], theta) if b.size else np.zeros((0, k + 1))
    rest = n - g
    if abstain > 0:

        def free_log(omega: np.ndarray, x: int, t: np.ndarray) -> np.ndarray:
            return _rlog((1.0 - theta) + theta * omega, float(abstain))[None, :]

    else:

        def free_log(omega: np.ndarray, x: int, t: np.ndarray) -> np.ndarray:
            return np.zeros((1, omega.size))

    return _Model(
        k=k,
        gold_w=_binom_pmf(y, g, theta),
        pm=pm,
        sup=b.astype(np.float64),
        mult=r,
        cls=c,
        norm=float(_binom_pmf(k, n, theta)),
        rest_pmf=lambda N: _binom_pmf(N, rest, theta),
        rest_sf=lambda M: _binom_sf(M, rest, theta),
        rest_cdf=lambda M: _binom_cdf(M, rest, theta),
        rest_var=rest * theta * (1.0 - theta),
        full_log=lambda omega, bb: _rlog(((1.0 - theta) + theta * omega)[None, :], bb[:, None]),
        free_log=free_log,
        free_ties=lambda x, N: 0,
        free_deg=float(abstain),
        share=b / max(rest, 1),
    )


def _poisson_model(
    p_gold: float, wrong_share: np.ndarray, cls: np.ndarray, abstain_share: float, distinct_share: float, k: int,
    distinct_cls: int,
) -> _Model:
    """k independent voters: gold with prob p_gold, wrong answer j with prob wrong_share[j], ..."""
    b, c, r = _group_rows(np.asarray(wrong_share, dtype=np.float64), cls)
    y = np.arange(k + 1)
    pm = _pois_pmf(y[None, :], k * b[:, None]) if b.size else np.zeros((0, k + 1))
    mu_rest = k * (1.0 - p_gold)
    mu0, mud = k * abstain_share, k * distinct_share

    def free_log(omega: np.ndarray, x: int, t: np.ndarray) -> np.ndarray:
        out = np.zeros((t.size, omega.size), dtype=np.complex128)
        if mu0 > 0:
            out += mu0 * (omega - 1.0)[None, :]
        if mud > 0:
            tie = {_SHARE: t, _WIN: np.ones_like(t), _LOSE: np.zeros_like(t)}[distinct_cls]
            if x == 1:
                out += mud * (tie[:, None] * omega[None, :] - 1.0)
            else:
                out += mud * (omega - 1.0)[None, :]
        return out

    def free_ties(x: int, N: int) -> int:
        return N if (x == 1 and mud > 0 and distinct_cls == _SHARE) else 0

    return _Model(
        k=k,
        gold_w=_pois_pmf(y, k * p_gold),
        pm=pm,
        sup=np.full(b.size, float(k)),
        mult=r,
        cls=c,
        norm=float(_pois_pmf(k, k)),
        rest_pmf=lambda N: _pois_pmf(N, mu_rest),
        rest_sf=lambda M: _pois_sf(M, mu_rest),
        rest_cdf=lambda M: _pois_cdf(M, mu_rest),
        rest_var=mu_rest,
        full_log=lambda omega, bb: np.zeros((len(bb), omega.size), dtype=np.complex128),
        free_log=free_log,
        free_ties=free_ties,
        free_deg=math.inf if (mu0 > 0 or mud > 0 or b.size) else 0.0,
        share=b / max(1.0 - p_gold, 1e-300),
        # a lone gold vote loses its tie with any distinct wrong answer under "strict" (and "first")
        free_loses=lambda x: x == 1 and mud > 0 and distinct_cls == _LOSE,
    )


def _classes(n_wrong: int, gold_pos: int, ties: str) -> np.ndarray:
    """Tie class of each wrong answer (given in first-appearance order; gold at ``gold_pos``)."""
    if ties == "random":
        return np.full(n_wrong, _SHARE, np.int64)
    if ties == "strict":
        return np.full(n_wrong, _LOSE, np.int64)
    cls = np.full(n_wrong, _WIN, np.int64)
    cls[: max(gold_pos, 0)] = _LOSE
    return cls


def _one_problem(tallies: np.ndarray, gold_index: int, abstain: int, ks: np.ndarray, ties: str) -> np.ndarray:
    out = np.zeros(ks.size)
    if gold_index < 0:
        return out
    g = int(tallies[gold_index])
    wrong = np.delete(tallies, gold_index)
    cls = _classes(wrong.size, gold_index, ties)
    for i, k in enumerate(ks):
        # one voter: its vote is its sample, right with probability g/n, exactly (the general path is a float
        # approximation, an ulp off g/n, which printed maj@1 0.4788 beside pass@1 0.4787 for 0.47875)
        out[i] = g / (int(tallies.sum()) + abstain) if k == 1 else _maj_core(
            _hypergeometric_model(g, wrong, cls, abstain, int(k)))
    return out


# ----------------------------------------------------------------------------------------
# argument checks
# ----------------------------------------------------------------------------------------
def _ties_iv(ties: Any) -> Ties:
    check_choice(ties, "ties", TIES)
    return TIES[TIES.index(ties)]


def _k_iv(k: Any, n_min: int) -> tuple[np.ndarray, bool]:
    k_a = as_int_array(k, "k", minimum=1, max_ndim=1)  # before np.ndim: a ragged k is numpy's ValueError there
    scalar = k_a.ndim == 0
    ks = k_a.ravel()
    if (ks > n_min).any():
        raise PasscurveError(
            f"`k` must be an integer in [1, n] (got k={fmt(ks.max())}, n={n_min}); "
            "maj@k over k-subsets needs at least k samples per problem"
        )
    return ks, scalar


def _maj_at_k_tallies_iv(tallies: Any, gold_index: Any, abstain: Any) -> tuple[np.ndarray, int, int]:
    empty = isinstance(tallies, list | tuple) and len(tallies) == 0
    t = np.zeros(0, np.int64) if empty else as_int_array(tallies, "tallies", minimum=1, max_ndim=1).ravel()
    if gold_index is None:
        gi = -1
    else:
        gi = check_positive_int(gold_index, "gold_index", minimum=-1)
        if gi >= t.size:
            raise PasscurveError(f"`gold_index` must be < len(tallies) = {t.size} or None (got {gi})")
    ab = check_positive_int(abstain, "abstain", minimum=0)
    if t.sum() + ab < 1:
        raise PasscurveError("`tallies` and `abstain` hold no sample; a problem needs at least one sample")
    return t, gi, ab


def maj_at_k_tallies(
    tallies: Any,
    gold_index: int | None,
    k: Any,
    *,
    ties: Ties = "random",
    abstain: int = 0,
) -> Any:
    r"""Exact maj@k of one problem from its answer tallies.

    Parameters
    ----------
    tallies : sequence of int
        Samples per distinct answer, in order of first appearance in the sample order
        (the order only matters for ``ties="first"``).
    gold_index : int or None
        Position of the reference answer in ``tallies``; None (or -1) when no sample gave it
        (then maj@k = 0).
    k : int or sequence of int
        Subset sizes, 1 <= k <= n where n = sum(tallies) + abstain.
    ties : {"random", "strict", "first"}
        Score of a tie between the gold answer and t others at the top: 1/(t+1) (uniform
        random tie break, the default), 0 ("strict"), or 1 exactly when every tied answer
        first appears after the gold answer in the sample order ("first").
    abstain : int
        Samples with no answer: they occupy a place in the subset but cast no vote.

    Returns
    -------
    float or ndarray
        maj@k for each k (a float when ``k`` is a scalar).

    Notes
    -----
    Exact up to floating point (see the module docstring: hypergeometric counts as
    conditioned binomials, a discrete Fourier sum per gold count, Gauss-Legendre for the
    random tie break). Cost per k: O(G · (D · L + q · D_tie · L)) for G plausible gold
    counts, D distinct tally values and L ≈ 2k evaluation points.

    Examples
    --------
    >>> round(maj_at_k_tallies([2, 1], 0, 2), 12)  # pairs of {a, a, b}: aa wins, ab ties (1/2)
    0.666666666667
    """
    ties = _ties_iv(ties)
    t, gi, ab = _maj_at_k_tallies_iv(tallies, gold_index, abstain)
    ks, scalar = _k_iv(k, int(t.sum()) + ab)
    out = _one_problem(t, gi, ab, ks, ties)
    return float(out[0]) if scalar else out


# ----------------------------------------------------------------------------------------
# answer tallies for many problems
# ----------------------------------------------------------------------------------------
def _type_family(v: Any) -> str:
    if isinstance(v, bool | np.bool_):
        return "bool"
    if isinstance(v, int | np.integer | float | np.floating):
        return "number"
    if isinstance(v, str | np.str_):
        return "str"
    return type(v).__name__


@dataclass(frozen=True, eq=False)
class AnswerTallies(ReadOnlyResult):
    """Per problem, how many samples gave each distinct answer (ragged, CSR layout).

    Attributes
    ----------
    model, problem : ndarray of str, shape (P,)
    offsets : ndarray of int, shape (P+1,)
        Rows ``offsets[i]:offsets[i+1]`` of ``count``/``is_gold``/``answer`` belong to problem i,
        in order of first appearance in the sample order.
    count : ndarray of int
        Samples per distinct answer.
    is_gold : ndarray of bool
        Whether that answer is the problem's reference answer.
    abstain : ndarray of int, shape (P,)
        Samples without an answer (cast no vote).
    answer : ndarray of object or None
        The answers themselves (for display), aligned with ``count``.
    source : str
        Where the tallies came from (a file name, "arrays").
    meta : dict
        The reader's provenance (as ``Counts.meta``).
    """

    __repr__ = brief_repr

    model: np.ndarray
    problem: np.ndarray
    offsets: np.ndarray
    count: np.ndarray
    is_gold: np.ndarray
    abstain: np.ndarray
    answer: np.ndarray | None = None
    source: str = "arrays"
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.problem.size)

    @property
    def n(self) -> np.ndarray:
        """Samples per problem."""
        csum = np.concatenate([[0], np.cumsum(self.count)])
        return csum[self.offsets[1:]] - csum[self.offsets[:-1]] + self.abstain

    @property
    def c(self) -> np.ndarray:
        """Samples giving the gold answer per problem."""
        gold = np.where(self.is_gold, self.count, 0)
        csum = np.concatenate([[0], np.cumsum(gold)])
        return csum[self.offsets[1:]] - csum[self.offsets[:-1]]

    @property
    def models(self) -> list[str]:
        _, idx = np.unique(self.model.astype(str), return_index=True)
        return [str(self.model[i]) for i in np.sort(idx)]

    def problem_tallies(self, i: int) -> tuple[np.ndarray, int, int]:
        """The tallies of problem ``i``.

        Parameters
        ----------
        i : int
            A problem index (negative counts from the end).

        Returns
        -------
        (tallies, gold, abstentions) : tuple of (ndarray of int, int, int)
            The answers' counts in first-appearance order, the gold answer's index among them (or -1 when the
            gold answer was never sampled) and the number of abstentions.
        """
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not -len(self) <= i < len(self):
            # negative indices count from the end, so the range says so ('in [0, 2)' had refused -3 while taking -1)
            raise PasscurveError(f"`i` must be a problem index in [-{len(self)}, {len(self)}) (got {show_value(i)})")
        i = int(i) % len(self)
        s, e = int(self.offsets[i]), int(self.offsets[i + 1])
        gold = np.flatnonzero(self.is_gold[s:e])
        return self.count[s:e], int(gold[0]) if gold.size else -1, int(self.abstain[i])

    def select_models(self, models: Sequence[str]) -> AnswerTallies:
        """The problems of these models, in the order named; raises for an unknown name (listing those present),
        as :meth:`passcurve.Counts.select_models` does.

        Parameters
        ----------
        models : sequence of str

        Returns
        -------
        AnswerTallies
        """
        from ._counts import models_rows

        keep = models_rows(self.model, models)  # problem indices, model by model as named
        sizes = np.diff(self.offsets)
        # the answer rows of those problems, in that order: each problem's block offsets[i] .. offsets[i+1]
        rows = np.repeat(self.offsets[keep] - np.concatenate([[0], np.cumsum(sizes[keep])[:-1]]), sizes[keep]) + \
            np.arange(int(sizes[keep].sum()))
        return AnswerTallies(
            model=self.model[keep],
            problem=self.problem[keep],
            offsets=np.concatenate([[0], np.cumsum(sizes[keep])]).astype(np.int64),
            count=self.count[rows],
            is_gold=self.is_gold[rows],
            abstain=self.abstain[keep],
            answer=None if self.answer is None else self.answer[rows],
            source=self.source,
            meta=dict(self.meta),
        )

    def to_counts(self) -> Any:
        """:class:`passcurve.Counts` with c = samples giving the gold answer.

        Returns
        -------
        Counts
        """
        from ._counts import Counts

        return Counts.from_arrays(self.n, self.c, problem=self.problem, model=self.model, source=self.source)

    @classmethod
    def from_long(
        cls,
        problem: Any,
        count: Any,
        is_gold: Any,
        *,
        model: Any = None,
        answer: Any = None,
        abstain: Any = None,
        source: str = "arrays",
    ) -> AnswerTallies:
        """Build from one row per (model, problem, distinct answer), already in first-appearance order
        within each problem and contiguous per problem (as the DuckDB aggregation returns them).

        Parameters
        ----------
        problem : sequence of ids
            The problem of each row.
        count : array_like of int
            How many samples gave the row's answer (>= 1).
        is_gold : array_like of bool
            Whether the row's answer is the reference (at most one per problem).
        model : sequence of ids, optional
            The model of each row (default one model, "model").
        answer : sequence, optional
            The answers themselves (kept for display).
        abstain : mapping, optional
            A problem (a (model, problem) pair when ``model`` is given) to its number of abstentions (samples
            without an answer); every problem it names needs an answer row.
        source : str, default "arrays"

        Returns
        -------
        AnswerTallies
        """
        check_text(source, "source")
        prob = as_id_array(problem, "problem")
        if not prob.size and (_rows(count) or _rows(is_gold)):  # rows without a problem had been dropped unseen
            raise PasscurveError("`problem`, `count`, `is_gold` and `model` must have the same length "
                                 f"(got 0 problems for {_rows(count)} counts)")
        cnt = as_int_array(count, "count", minimum=1).ravel() if prob.size else np.zeros(0, np.int64)
        gold = as_bool_array(is_gold, "is_gold") if prob.size else np.zeros(0, bool)
        mod = np.full(prob.size, "model", dtype=object) if model is None else as_id_array(model, "model")
        if not (cnt.size == prob.size == gold.size == mod.size):
            raise PasscurveError("`problem`, `count`, `is_gold` and `model` must have the same length")
        ans = None if answer is None else np.asarray(answer, dtype=object).ravel()
        if ans is not None and (np.ndim(answer) != 1 or ans.size != prob.size):
            raise PasscurveError(f"`answer` must hold one answer per row ({prob.size}) (got {show_value(answer)})")
        key = np.array([f"{m}\x1f{p}" for m, p in zip(mod, prob, strict=True)], dtype=object)
        change = np.ones(prob.size, dtype=bool)
        change[1:] = key[1:] != key[:-1]
        starts = np.flatnonzero(change)
        ukeys = key[starts]
        if np.unique(ukeys.astype(str)).size != ukeys.size:
            raise PasscurveError("answer rows of one problem must be contiguous")
        offsets = np.concatenate([starts, [prob.size]]).astype(np.int64)
        ab = np.zeros(starts.size, dtype=np.int64)
        if abstain is not None:
            if not isinstance(abstain, Mapping):
                raise PasscurveError("`abstain` must be a mapping from problem (or (model, problem)) to its number of "
                                     f"abstentions (got {type(abstain).__name__})")
            pos = {k: i for i, k in enumerate(ukeys)}
            for k, v in abstain.items():
                if isinstance(k, tuple) and len(k) == 2:
                    key_k = f"{k[0]}\x1f{k[1]}"
                elif model is None:
                    key_k = f"model\x1f{k}"
                else:
                    raise PasscurveError(f"`abstain` keys must be (model, problem) pairs when `model` is given (got {k!r})")
                if key_k not in pos:
                    raise PasscurveError(f"`abstain` names {k!r}, which has no answer row; a problem needs at least one "
                                         "answer row")
                ab[pos[key_k]] = check_positive_int(v, "abstain", minimum=0)
        golds_per = np.add.reduceat(gold.astype(np.int64), starts) if prob.size else np.zeros(0, np.int64)
        if (golds_per > 1).any():
            i = int(np.flatnonzero(golds_per > 1)[0])
            raise PasscurveError(f"problem {prob[starts[i]]!r} has more than one answer marked as gold")
        return cls(
            model=np.array([str(v) for v in mod[starts]], dtype=object),
            problem=np.array([str(v) for v in prob[starts]], dtype=object),
            offsets=offsets,
            count=cnt,
            is_gold=gold,
            abstain=ab,
            answer=ans,
            source=source,
        )

    @classmethod
    def from_answers(
        cls,
        answers: Any,
        gold: Any,
        *,
        problem: Any = None,
        model: Any = None,
        source: str = "arrays",
        _name: str = "answers",
    ) -> AnswerTallies:
        """Tally Python sequences: ``answers[i]`` are the sampled answers of problem i, ``gold[i]`` its
        reference. None/NaN answers abstain; a missing gold or mixed answer types is an error.

        Parameters
        ----------
        answers : sequence of sequences
            One sequence of sampled answers per problem.
        gold : sequence
            One reference answer per problem.
        problem : sequence of ids, optional
            One id per problem (default "0", "1", ...).
        model : str or sequence of ids, optional
            One name for all problems or one per problem (default "model").
        source : str, default "arrays"

        Returns
        -------
        AnswerTallies
        """
        answers, gold, problem, model = _answers_iv(answers, gold, problem, model, _name)
        offsets = [0]
        count: list[int] = []
        is_gold: list[bool] = []
        values: list[Any] = []
        abstain = np.zeros(len(answers), dtype=np.int64)
        for i, (ans, ref) in enumerate(zip(answers, gold, strict=True)):
            seen: dict[Any, int] = {}
            order: list[Any] = []
            miss = 0
            for a in ans:
                if is_missing(a):
                    miss += 1
                    continue
                j = seen.get(a)
                if j is None:
                    seen[a] = len(order)
                    order.append(a)
                    count.append(1)
                else:
                    count[offsets[-1] + j] += 1
            abstain[i] = miss
            is_gold.extend(a == ref for a in order)
            values.extend(order)
            offsets.append(len(count))
        return cls(
            model=model,
            problem=problem,
            offsets=np.asarray(offsets, dtype=np.int64),
            count=np.asarray(count, dtype=np.int64),
            is_gold=np.asarray(is_gold, dtype=bool),
            abstain=abstain,
            answer=np.asarray(values, dtype=object),
            source=source,
        )


def _is_sequence(x: Any) -> bool:
    """A sequence of values: not a string, and not a 0-d numpy array (iterating one is a TypeError). A 1-d array-like
    that is not a registered Sequence counts: a pandas Series, Index or extension array (``gold=df["gold"]`` was
    refused as "got Series"); it is read by position, as a list of its values. A data frame (2-d: iterating one
    gives its column names) does not."""
    if isinstance(x, np.ndarray):
        return x.ndim > 0
    if isinstance(x, Sequence):
        return not isinstance(x, str | bytes)
    return getattr(x, "ndim", None) == 1 and hasattr(x, "__len__") and hasattr(x, "__iter__")


def _what(x: Any) -> str:
    """What a non-sequence is, for the message: a 0-d array shows its value, anything else its type."""
    return f"a 0-d array holding {x.item()!r}" if isinstance(x, np.ndarray) else type(x).__name__


def _answers_iv(answers: Any, gold: Any, problem: Any, model: Any,
                name: str = "answers") -> tuple[list, list, np.ndarray, np.ndarray]:
    """The answer lists and their gold answers, checked; ``name`` is the caller's argument (vote's is
    ``data``)."""
    if not _is_sequence(answers):
        raise PasscurveError(f"`{name}` must be a sequence (one per problem) of sequences of answers "
                             f"(got {_what(answers)})")
    answers = list(answers)
    if not answers:
        raise PasscurveError(f"`{name}` is empty")
    if not _is_sequence(gold):
        raise PasscurveError(f"`gold` must be a sequence with one reference answer per problem (got {_what(gold)})")
    gold = list(gold)
    if len(gold) != len(answers):
        raise PasscurveError(f"`gold` has {len(gold)} entries but `{name}` has {len(answers)} problems")
    families: dict[str, tuple[Any, str]] = {}  # type family -> its first value and the argument that held it
    for i, (ans, ref) in enumerate(zip(answers, gold, strict=True)):
        if not _is_sequence(ans):
            raise PasscurveError(f"`{name}[{i}]` must be a sequence of answers (got {_what(ans)})")
        if len(ans) == 0:
            raise PasscurveError(f"`{name}[{i}]` is empty; a problem needs at least one sample")
        if is_missing(ref):
            raise PasscurveError(f"`gold` is missing for problem {i}; every problem needs a reference answer")
        for j, v in enumerate((ref, *ans)):
            if is_missing(v):
                continue
            # the argument that holds v: a gold answer of another type or an unhashable one was said to be one
            # of the answers ("answers must be hashable scalars" for gold=[[1, 2], [3, 4]])
            arg = "gold" if j == 0 else name
            fam = _type_family(v)
            families.setdefault(fam, (v, arg))
            if len(families) > 1:
                (fa, (va, sa)), (fb, (vb, sb)) = list(families.items())[:2]
                who = f"`{sa}`" if sa == sb else f"`{sa}` and `{sb}`"
                raise PasscurveError(
                    f"{who} mix types: {fa} ({va!r}{'' if sa == sb else f', in `{sa}`'}) and {fb} "
                    f"({vb!r}{'' if sa == sb else f', in `{sb}`'}) in problem {i}; normalise answers to one type first"
                )
            try:
                hash(v)
            except TypeError:
                raise PasscurveError(f"`{arg}` must hold hashable scalars (got {type(v).__name__} in problem {i})") from None
    size = len(answers)
    prob = (
        np.array([str(i) for i in range(size)], dtype=object)
        if problem is None
        else np.array([str(v) for v in np.asarray(problem, dtype=object).ravel()], dtype=object)
    )
    if prob.size != size:
        raise PasscurveError(f"`problem` has {prob.size} entries but `{name}` has {size}")
    if model is None or isinstance(model, str):
        mod = np.full(size, model or "model", dtype=object)
    else:
        mod = np.array([str(v) for v in np.asarray(model, dtype=object).ravel()], dtype=object)
        if mod.size != size:
            raise PasscurveError(f"`model` has {mod.size} entries but `{name}` has {size}")
    return answers, gold, prob, mod


def _all_problems(t: AnswerTallies, ks: np.ndarray, ties: str) -> np.ndarray:
    """maj@k for every problem; problems with the same tally signature are computed once."""
    out = np.zeros((len(t), ks.size))
    cache: dict[tuple, np.ndarray] = {}
    for i in range(len(t)):
        tal, gi, ab = t.problem_tallies(i)
        if gi < 0:
            continue
        wrong = np.delete(tal, gi)
        cls = _classes(wrong.size, gi, ties)
        key = (int(tal[gi]), ab, tuple(sorted(zip(wrong.tolist(), cls.tolist(), strict=True))))
        if key not in cache:
            cache[key] = _one_problem(tal, gi, ab, ks, ties)
        out[i] = cache[key]
    return out


def maj_at_k(answers: Any, gold: Any, k: Any, *, ties: Ties = "random") -> np.ndarray:
    r"""Exact maj@k (cons@k) per problem from the sampled answers.

    The expected correctness of a majority vote over a uniformly random k-subset of each
    problem's n samples (the unbiased estimator of majority voting over k fresh samples,
    as Chen et al.'s pass@k is for "any of k"), computed from the answer tallies without
    enumerating subsets.

    Parameters
    ----------
    answers : sequence of sequences
        ``answers[i]`` are the final answers of problem i's samples, in sample order, all
        of one type (str or numbers). None/NaN means "no answer": the sample occupies a
        place in the subset but casts no vote.
    gold : sequence
        The reference answer of each problem (never missing).
    k : int or sequence of int
        Subset sizes, 1 <= k <= n_i for every problem.
    ties : {"random", "strict", "first"}
        A tie between the gold answer and t other answers at the top scores 1/(t+1)
        ("random", a uniformly random tie break), 0 ("strict"), or under "first" 1 when all
        tied answers first appear after the gold answer in the problem's sample order (the
        order of ``answers[i]``), else 0.

    Returns
    -------
    ndarray
        Shape (P,) for a scalar ``k``, (P, K) otherwise.

    References
    ----------
    X. Wang et al., "Self-Consistency Improves Chain of Thought Reasoning", arXiv:2203.11171;
    B. Brown et al., "Large Language Monkeys", arXiv:2407.21787 (majority voting plateaus
    while coverage grows).

    Examples
    --------
    >>> maj_at_k([["a", "a", "b"]], ["a"], 2)
    array([0.66666667])
    """
    ties = _ties_iv(ties)
    t = AnswerTallies.from_answers(answers, gold)
    ks, scalar = _k_iv(k, int(t.n.min()))
    out = _all_problems(t, ks, ties)
    return out[:, 0] if scalar else out


# ----------------------------------------------------------------------------------------
# independent voters at the same accuracy
# ----------------------------------------------------------------------------------------
def _independent_one(
    tal: np.ndarray, gi: int, ab: int, p_bar: float, ks: np.ndarray, ties: str
) -> np.ndarray:
    """maj@k if k independent voters were each right with prob p_bar, wrong ones spread as observed."""
    n = int(tal.sum()) + ab
    wrong = np.delete(tal, gi) if gi >= 0 else tal
    cls = _classes(wrong.size, gi if gi >= 0 else wrong.size, ties)
    not_gold = n - (int(tal[gi]) if gi >= 0 else 0)
    out = np.zeros(ks.size)
    if p_bar <= 0:
        return out
    if not_gold == 0:
        shares, ab_share, distinct = np.zeros(0), 0.0, 1.0 - p_bar
    else:
        shares = (1.0 - p_bar) * wrong / not_gold
        ab_share = (1.0 - p_bar) * ab / not_gold
        distinct = 0.0
    dcls = _LOSE if ties == "strict" else _SHARE
    for i, k in enumerate(ks):  # one independent voter is right with probability p_bar, exactly
        out[i] = p_bar if k == 1 else _maj_core(_poisson_model(p_bar, shares, cls, ab_share, distinct, int(k), dcls))
    return out


# ----------------------------------------------------------------------------------------
# the result object and the high-level entry point
# ----------------------------------------------------------------------------------------
def _jf(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


@dataclass(frozen=True, eq=False)
class VoteResult(ReadOnlyResult):
    r"""maj@k beside pass@k, per model.

    Attributes
    ----------
    models : tuple of str
    k : ndarray of int, shape (K,)
    ties : str
    values : dict of str to ndarray, shape (M, K)
        "maj_at_k" (mean over problems), "pass_at_k" (Chen et al.'s unbiased estimator on
        the same samples), "selection_loss" = pass@k - maj@k (what voting cannot pick out
        of the coverage), "independent_maj_at_k" (the prediction for independent voters at
        the model's average accuracy, see :func:`vote`) and "correlation_cost" =
        independent_maj_at_k - maj_at_k.
    per_problem : dict of str to ndarray, shape (P, K)
        "maj_at_k" and "pass_at_k" per problem, aligned with ``problem``/``model``.
    problem, model : ndarray of str, shape (P,)
    accuracy : ndarray, shape (M,)
        Mean over problems of the gold share g/n (= maj@1 = pass@1), the p̄ of the prediction.
    se : dict of str to ndarray, shape (M, K)
        Standard errors over problems (Miller 2024, arXiv:2411.00640: count problems, not
        samples) of "maj_at_k" and of the paired difference "selection_loss"; they treat the
        problems as a sample from a larger population and ignore the within-problem sampling
        noise of n finite samples.
    summary : tuple of dict
        Per model: problems, samples per problem (``n_min``, ``n_median``, ``n_max``), distinct answers per
        problem (median, max),
        problems whose gold answer never appears.
    warnings : tuple of str
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    k: np.ndarray
    ties: str
    values: dict[str, np.ndarray]
    per_problem: dict[str, np.ndarray]
    problem: np.ndarray
    model: np.ndarray
    accuracy: np.ndarray
    summary: tuple[dict[str, Any], ...]
    se: dict[str, np.ndarray] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"ties", "models": [{"model", "accuracy", ..., "curve": [{"k", "maj_at_k",
        ...}]}]}``."""
        models = []
        for i, m in enumerate(self.models):
            pts = []
            for j, k in enumerate(self.k):
                pt: dict[str, Any] = {"k": int(k)}
                for name, arr in self.values.items():
                    pt[name] = _jf(arr[i, j])
                for name, arr in self.se.items():
                    pt[f"{name}_se"] = _jf(arr[i, j])
                pts.append(pt)
            models.append({"model": m, "accuracy": _jf(self.accuracy[i]), **self.summary[i], "curve": pts})
        out: dict[str, Any] = {"ties": self.ties, "models": models}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_frame(self) -> Any:
        """Long pandas DataFrame, one row per (model, k): ``model``, ``k``, ``maj_at_k``, ``pass_at_k``,
        ``selection_loss``, ``independent_maj_at_k``, ``correlation_cost``, ``maj_at_k_se``,
        ``selection_loss_se``."""
        return long_frame(self.to_dict())

    def plot(self, *, log_k: bool = True) -> Any:
        """pass@k (coverage), maj@k and the independent-voter prediction against k, per model.

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
        dash = {"pass_at_k": "dot", "maj_at_k": "solid", "independent_maj_at_k": "dash"}
        for i, m in enumerate(self.models):
            for name, d in dash.items():
                fig.add_trace(
                    go.Scatter(x=self.k, y=self.values[name][i], mode="lines+markers", line={"dash": d},
                               name=f"{m}: {name.replace('_at_k', '@k').replace('_', ' ')}")
                )
        fig.update_layout(xaxis_title="k", yaxis_title="score", template="plotly_white")
        if log_k:
            fig.update_xaxes(type="log")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _rows(x: Any) -> int:
    """How many values ``x`` holds (a ragged sequence: its length), for a length check before its own."""
    try:
        return int(np.size(x))
    except ValueError:
        return len(x)


def _vote_iv(data: Any, gold: Any, k: Any, ties: Any, k_default: Any) -> tuple[AnswerTallies, np.ndarray, Ties]:
    ties = _ties_iv(ties)
    if isinstance(data, AnswerTallies):
        if gold is not None:
            raise PasscurveError("`gold` must be None when `data` is already an AnswerTallies")
        t = data
    elif hasattr(data, "columns") and hasattr(data, "shape"):  # a pandas/polars frame is not a list of answer lists
        raise PasscurveError(
            f"`data` is a data frame ({type(data).__name__}); vote takes answer tallies: write the frame to a file "
            "and read it with passcurve.data.read_answers(path), or build AnswerTallies.from_long(problem, count, "
            "is_gold, model=...) from one row per (problem, distinct answer), or pass per-problem answer lists with "
            "`gold`"
        )
    else:
        if not _is_sequence(data):  # a Counts, a number, None: no answer lists (the error had asked for `gold`)
            counts = type(data).__name__ == "Counts"
            raise PasscurveError(
                "`data` must be an AnswerTallies or a sequence (one per problem) of sequences of answers "
                f"(got {_what(data)})" + ("; a Counts holds how many samples were correct, not the answers: read "
                                          "them with passcurve.data.read_answers(path)" if counts else ""))
        if gold is None:
            raise PasscurveError("`gold` is required with per-problem answer lists")
        t = AnswerTallies.from_answers(data, gold, _name="data")
    if len(t) == 0:
        raise PasscurveError("no problem to vote on")
    n_min = int(t.n.min())
    ks = k_default(n_min) if k is None else _k_iv(k, n_min)[0]
    return t, np.unique(ks), ties


DEFAULT_K_MAX = 1024
"""Largest k of :func:`vote`'s default grid (larger k on request)."""


def vote(data: Any, gold: Any = None, k: Any = None, *, ties: Ties = "random") -> VoteResult:
    r"""maj@k, pass@k, the selection loss and the independent-voter prediction, per model.

    Parameters
    ----------
    data : AnswerTallies or sequence of sequences
        Answer tallies (from :func:`passcurve.data.read_answers` or
        :meth:`AnswerTallies.from_answers`) or per-problem answer lists as in :func:`maj_at_k`.
    gold : sequence, optional
        Reference answers when ``data`` are answer lists.
    k : int or sequence of int, optional
        Default: 1, 2, 4, ... up to the smallest n, at most :data:`DEFAULT_K_MAX` (1,024). Larger k
        are computed when asked for; their cost grows with k and with the number of wrong answers
        that are close in count (about 5 s per problem for k = 2,048 ... 8,192 at n = 10^4 with
        200 near-tied wrong answers, against 0.6 s for the whole default grid).
    ties : {"random", "strict", "first"}

    Returns
    -------
    VoteResult

    Notes
    -----
    *Selection loss* = pass@k - maj@k: coverage that a verifier-free majority vote does not
    convert into accuracy (Brown et al. 2024, arXiv:2407.21787).

    *Independent voters*: for a model with average accuracy p̄ (mean over problems of the
    gold share g_i/n_i), the prediction for each problem is maj@k when k voters answer
    independently, each right with probability p̄, and a wrong voter picks wrong answer j
    (or abstains) with the problem's observed shares b_ij/(n_i - g_i); a problem without a
    wrong sample gets wrong votes that never coincide. Voters are drawn with replacement
    (multinomial, computed exactly by the same algorithm with Poisson counts). The gap
    independent - actual is what difficulty heterogeneity costs: the same mistake repeated
    on hard problems and wasted votes on easy ones (seed 000: mistakes on a question are
    correlated). With ``ties="first"`` the prediction keeps the observed order of wrong
    answers; votes that never coincide are tied at random.
    """

    def default_k(n_min: int) -> np.ndarray:
        return np.array([v for v in (2 ** np.arange(0, 31)) if v <= min(n_min, DEFAULT_K_MAX)], dtype=np.int64)

    t, ks, ties = _vote_iv(data, gold, k, ties, default_k)
    maj = _all_problems(t, ks, ties)
    n, c = t.n, t.c
    pk = pass_at_k(n[:, None], c[:, None], ks[None, :])
    models = t.models
    vals: dict[str, list] = {m: [] for m in ("maj_at_k", "pass_at_k", "selection_loss", "independent_maj_at_k",
                                             "correlation_cost")}
    acc, summary = [], []
    warns: list[str] = []
    se: dict[str, list] = {"maj_at_k": [], "selection_loss": []}
    for m in models:
        rows = np.flatnonzero(t.model == m)
        p_bar = float(np.mean(c[rows] / n[rows]))
        acc.append(p_bar)
        ind = np.zeros((rows.size, ks.size))
        cache: dict[tuple, np.ndarray] = {}
        for r_i, i in enumerate(rows.tolist()):
            tal, gi, ab = t.problem_tallies(i)
            # the prediction depends on the wrong tallies and abstentions only (not on g);
            # their order matters only for "first"
            wrong_t = (np.delete(tal, gi) if gi >= 0 else tal).tolist()
            key = (ab, tuple(wrong_t), gi) if ties == "first" else (ab, tuple(sorted(wrong_t)))
            if key not in cache:
                cache[key] = _independent_one(tal, gi, ab, p_bar, ks, ties)
            ind[r_i] = cache[key]
        mj = maj[rows].mean(axis=0)
        ps = pk[rows].mean(axis=0)
        im = ind.mean(axis=0)
        # k = 1: maj@1, pass@1 and the independent voter are each the accuracy; one number, not three float
        # paths an ulp apart (a mean of 0.47875 printed 0.4788 as maj@1 and 0.4787 as independent maj@1)
        mj[ks == 1] = ps[ks == 1] = im[ks == 1] = p_bar
        vals["maj_at_k"].append(mj)
        vals["pass_at_k"].append(ps)
        vals["selection_loss"].append(ps - mj)
        vals["independent_maj_at_k"].append(im)
        vals["correlation_cost"].append(im - mj)
        P = rows.size
        for name, per in (("maj_at_k", maj[rows]), ("selection_loss", pk[rows] - maj[rows])):
            se[name].append(per.std(axis=0, ddof=1) / np.sqrt(P) if P > 1 else np.full(ks.size, np.nan))
        distinct = np.diff(t.offsets)[rows]
        no_gold = int((c[rows] == 0).sum())
        summary.append({
            "problems": int(rows.size),
            "n_min": int(n[rows].min()),
            "n_median": float(np.median(n[rows])),
            "n_max": int(n[rows].max()),
            "distinct_answers_median": float(np.median(distinct)),
            "distinct_answers_max": int(distinct.max()),
            "gold_never_sampled": no_gold,
            "abstentions": int(t.abstain[rows].sum()),
        })
        if no_gold == rows.size:
            msg = f"model {m!r}: no sample ever gives the gold answer; maj@k and pass@k are 0"
            record_warning(warns, msg, DegenerateDataWarning)
    return VoteResult(
        models=tuple(models),
        k=ks,
        ties=ties,
        values={name: np.vstack(v) for name, v in vals.items()},
        per_problem={"maj_at_k": maj, "pass_at_k": pk},
        problem=t.problem,
        model=t.model,
        accuracy=np.asarray(acc),
        summary=tuple(summary),
        se={name: np.vstack(v) for name, v in se.items()},
        warnings=tuple(warns),
    )


# ----------------------------------------------------------------------------------------
# simulated answers (demo data and tests)
# ----------------------------------------------------------------------------------------
_MAX_ANSWER_ROWS = 10**8  # as simulate's 1e8 problems


def _simulate_answers_iv(problems: Any, n: Any, wrong_answers: Any, alpha: Any, beta: Any, concentration: Any,
                         abstain: Any, model: Any = "sim") -> tuple[int, int, int, float, float, float, float]:
    check_text(model, "model", "one model name, a string")  # a list was numpy's "could not broadcast input array"
    problems = check_positive_int(problems, "problems", maximum=_MAX_ANSWER_ROWS)
    n = check_positive_int(n, "n", maximum=_MAX_ANSWER_ROWS)
    if problems * n > _MAX_ANSWER_ROWS:
        raise PasscurveError(f"`problems` x `n` is too large: one row per answer (got problems={problems}, n={n}: "
                             f"{problems * n:.3g} rows, max {_MAX_ANSWER_ROWS:.3g})")
    wrong_answers = check_positive_int(wrong_answers, "wrong_answers", maximum=MAX_GRID)
    # finite: nan passed the old "<= 0" test and every wrong answer became "A0"; the checked floats are used (a
    # Fraction concentration was numpy's "Cannot cast array data from dtype('O')" in the Dirichlet draw)
    a, b, conc = (check_scalar(v, name, low=0, low_open=True)
                  for name, v in (("alpha", alpha), ("beta", beta), ("concentration", concentration)))
    return problems, n, wrong_answers, check_scalar(abstain, "abstain", low=0, high=1, high_open=True), a, b, conc


def simulate_answers(
    problems: int = 200,
    n: int = 64,
    *,
    alpha: float = 0.6,
    beta: float = 0.8,
    wrong_answers: int = 20,
    concentration: float = 0.5,
    abstain: float = 0.0,
    model: str = "sim",
    rng: Any = None,
) -> dict[str, np.ndarray]:
    r"""Per-sample rows with answers: problem_id, attempt, answer, gold, correct (and model).

    Each problem has a success rate p ~ Beta(alpha, beta); a wrong sample picks one of
    ``wrong_answers`` wrong answers with probabilities from a symmetric
    Dirichlet(``concentration``) (small = mistakes concentrate on one wrong answer, the
    correlated-mistake case); a fraction ``abstain`` of samples gives no answer (None).
    Answers are strings ("A<i>"); the gold answer of every problem is "42".

    Parameters
    ----------
    problems : int, default 200
    n : int, default 64
        Samples per problem.
    alpha, beta : float > 0
        The Beta distribution of the per-problem success rates.
    wrong_answers : int, default 20
        Distinct wrong answers per problem.
    concentration : float > 0
        The symmetric Dirichlet's parameter for the wrong answers' shares.
    abstain : float in [0, 1)
        Share of samples without an answer.
    model : str
        Model name of every row.
    rng : None, int, SeedSequence or numpy Generator
        Source of randomness; the same seed gives the same rows.

    Returns
    -------
    dict of ndarray
        Columns ``model``, ``problem_id``, ``attempt`` (1..n), ``answer`` (None for an
        abstention), ``gold`` and ``correct``, one row per sample (problems x n rows).
    """
    problems, n, wrong_answers, abstain, alpha, beta, concentration = _simulate_answers_iv(
        problems, n, wrong_answers, alpha, beta, concentration, abstain, model)
    gen = check_rng(rng)
    p = gen.beta(alpha, beta, size=problems)
    shares = gen.dirichlet(np.full(wrong_answers, concentration), size=problems)
    u = gen.random((problems, n))
    right = u < p[:, None]
    # wrong answer index by inverse CDF of the problem's shares
    cum = np.cumsum(shares, axis=1)
    v = gen.random((problems, n))
    idx = (v[:, :, None] > cum[:, None, :]).sum(axis=2).clip(max=wrong_answers - 1)
    labels = np.array([f"A{i}" for i in range(wrong_answers)], dtype=object)
    ans = np.where(right, "42", labels[idx]).astype(object)
    if abstain > 0:
        ans[gen.random((problems, n)) < abstain] = None
    width = len(str(problems - 1))
    pid = np.array([f"problem-{i:0{width}d}" for i in range(problems)], dtype=object)
    return {
        "model": np.full(problems * n, model, dtype=object),
        "problem_id": np.repeat(pid, n),
        "attempt": np.tile(np.arange(1, n + 1), problems),
        "answer": ans.ravel(),
        "gold": np.full(problems * n, "42", dtype=object),
        "correct": (ans == "42").ravel(),
    }
