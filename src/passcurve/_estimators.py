r"""Exact estimators of the pass@k family (pure numerics: numpy and scipy only, no I/O).

All estimators here are functions of one problem's (n, c): n samples drawn, c of them
correct, and a budget k. They broadcast like numpy ufuncs over any shapes of ``n``, ``c``
and ``k`` (and ``tau``), so ``pass_at_k(n[:, None], c[:, None], ks[None, :])`` gives a
problems-by-k matrix.

The workhorse is the hypergeometric "all fail" probability

.. math:: F(n, c, k) = \binom{n-c}{k} \Big/ \binom{n}{k}
          = \prod_{j=0}^{k-1} \Bigl(1 - \frac{c}{n-j}\Bigr),

the chance that k samples drawn without replacement from the n contain none of the c
correct ones. It obeys F(k+1) = F(k)(n-c-k)/(n-k), so one cumulative sum of
``log1p(-c/(n-j))`` gives the whole curve k = 1..n in O(n) for each distinct (n, c)
(``../shared/REFERENCE.md``; Chen et al. 2021). F is symmetric in c and k, so the cheaper
of the two cumulative sums is used. Sums run in blocks (at most a few thousand rounding
steps each), which keeps the relative error of ``1 - F`` (computed as ``-expm1(log F)``)
near 1e-13 for n up to 10^7.

A single F whose product has more than ``_DIRECT_MAX`` factors (both c and k large) is not
summed at all: :func:`_log_fail_em` evaluates the sum in closed form by the Euler–Maclaurin
formula (exact integral, six Bernoulli corrections, the last 16 factors summed directly), in
O(1) per value, to about 2e-16 relative error of 1 - F and a few 1e-15 plus ~3.6e-16·|ln F| of F
(checked against exact rational arithmetic; F itself from a log carries at least |ln F|·2^-53). Where F
is the answer and has at most 32 factors (:func:`_fail_prob`), it is their plain product. Whole curves (every k up to n) still use the cumulative sum, whose cost
is the size of the output; a few k of a problem with a large n use the closed form, so a
curve over a log-spaced grid costs O(grid) per problem, not O(n).
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from ._errors import PasscurveError
from ._pairs import distinct_pairs
from ._validation import (
    as_int_array,
    check_broadcast,
    check_choice,
    check_counts,
    check_k_le_n,
    check_probability,
    fmt,
)

__all__ = [
    "pass_at_k",
    "pass_pow_k",
    "g_pass_at_k",
    "mg_pass_at_k",
    "naive_pass_at_k",
]

_BLOCK = 512
_MAX_ELEMS = 1 << 22  # work arrays stay around 32 MB
_DIRECT_MAX = 256  # a product with more factors is evaluated in closed form (_log_fail_em)
_EM_COST = 64  # rough cost of one closed-form value, in summed factors
_EM_GAP = 16  # the Euler–Maclaurin part keeps its smallest argument n - c - j >= _EM_GAP
# (B_2p, p): Bernoulli numbers of the Euler–Maclaurin corrections
_BERNOULLI = ((1 / 6, 1), (-1 / 30, 2), (1 / 42, 3), (-1 / 30, 4), (5 / 66, 5), (-691 / 2730, 6))


# ----------------------------------------------------------------------------------------
# numerical kernels
# ----------------------------------------------------------------------------------------
_SPLIT = 2.0**16  # the grid of _split_terms' high parts: sums of them are exact up to 2^37 in magnitude
_ROUNDER = 1.5 * 2.0**36  # x + _ROUNDER lies in [2^36, 2^37) for |x| < 2^35, where the doubles are 2^-16 apart


def _split_terms(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a = hi + lo exactly, hi on the grid 2^-16 (sums of hi are exact while below 2^37), |lo| <= 2^-17;
    non-finite entries stay in hi.

    hi is (a + 1.5·2^36) − 1.5·2^36: the addition rounds a to the nearest multiple of 2^-16 (ties to even, as
    np.round(a·2^16)/2^16, which took three passes over the array), the subtraction is exact. That holds for
    |a| < 2^35; a log-factor is above log(2^-1074) = -745, and larger or non-finite entries are split as before.
    """
    with np.errstate(invalid="ignore"):  # -inf + 1.5·2^36 - 1.5·2^36 is -inf (set again below)
        hi = np.add(a, _ROUNDER)
        hi -= _ROUNDER
        lo = np.subtract(a, hi)  # exact: a and hi agree in every bit above 2^-17
    if not (-2.0**35 < a.min(initial=0.0) and a.max(initial=0.0) < 2.0**35):  # NaN, -inf or a term beyond 2^35
        big = ~(np.abs(a) < 2.0**35)
        hi[big] = a[big]  # a non-finite entry stays in hi (its sums are what they would be)
        lo[big] = 0.0
        wide = big & np.isfinite(a)  # a finite term beyond 2^35: split by the scaling (exact there too)
        if wide.any():
            hi[wide] = np.round(a[wide] * _SPLIT) / _SPLIT
            lo[wide] = a[wide] - hi[wide]
    return hi, lo


def _blocked_cumsum(a: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
    """Cumulative sum along the last axis, to about one rounding of the result.

    Summing log-factors one after another rounded every partial sum: a sum near -300 (pass^k ~ 1e-131)
    carried ~1e-13 of error, i.e. 1e-13 relative in pass^k (exact rational arithmetic, n = 2,422,819, c = 69,
    k = 28). The terms are split into a high part on a coarse binary grid, whose running sums are exact, and a
    small low part (|lo| <= 2^-17), whose running sums' rounding is that much smaller; the two are added once.
    The low part is summed in blocks, so its error grows like (B + L/B)·eps·2^-17. Each pass writes into an array
    it owns: a whole curve's table is large, and every fresh array of its size was as dear as the sums (1.6x the
    time of the plain blocked sum on a 1,000 x 1,000 curve). ``overwrite``: ``a`` is the caller's scratch, and
    holds the low part afterwards (one array of the table's size less).
    """
    rows, length = a.shape
    if not (overwrite and -2.0**35 < a.min(initial=0.0) and a.max(initial=0.0) < 2.0**35):
        # a copy of the terms, or a non-finite term or one beyond 2^35 (kept as _split_terms keeps it)
        hi, lo = _split_terms(a)
    else:
        hi = np.add(a, _ROUNDER)
        hi -= _ROUNDER
        lo = np.subtract(a, hi, out=a)  # exact: a and hi agree in every bit above 2^-17
    full = length // _BLOCK if length > _BLOCK else 0
    if full:  # whole blocks of _BLOCK (a view: splitting the last axis needs no copy), then the rest
        blocks = lo[:, :full * _BLOCK].reshape(rows, full, _BLOCK)
        np.cumsum(blocks, axis=2, out=blocks)
        offsets = np.cumsum(blocks[:, :, -1], axis=1)  # the sum of the blocks before each next one
        blocks[:, 1:] += offsets[:, :-1, None]
        rest = lo[:, full * _BLOCK:]
        if rest.shape[1]:
            np.cumsum(rest, axis=1, out=rest)
            rest += offsets[:, -1:]
    else:  # one block: no padding to _BLOCK (the same sums)
        np.cumsum(lo, axis=1, out=lo)
    np.cumsum(hi, axis=1, out=hi)
    hi += lo
    return hi


def _log_factor(den: np.ndarray, c: np.ndarray) -> np.ndarray:
    """log(1 - c/den) for integer-valued floats, to full relative accuracy of the factor.

    ``log1p(-r)`` is exact for small r = c/den, but once r is near 1 the factor 1 - r keeps
    only the absolute accuracy of r's rounding (pass^k = C(c,k)/C(n,k) with c << n: each factor
    (c-j)/(n-j) ~ 1e-7 lost 9 digits). There the factor is formed as (den - c)/den, exact
    integer arithmetic in float64 below 2^53 and one rounding.
    """
    r = c / den
    out = np.log1p(-r)
    near = r > 0.5
    if near.any():
        np.log((den - c) / den, out=out, where=near)
    return out


def _one_minus_v_log(v: np.ndarray) -> np.ndarray:
    """h(v) = (1 - v)·log(1 - v) + v for 0 <= v < 1, to full relative accuracy.

    Below 1/2 the series Σ_{r>=2} v^r / (r(r-1)) (60 terms, Horner) avoids the cancellation
    of the two terms; above it the direct formula has none.
    """
    out = np.empty_like(v)
    small = v < 0.5
    vs = v[small]
    acc = np.zeros_like(vs)
    for r in range(61, 1, -1):
        acc = acc * vs + 1.0 / (r * (r - 1))
    out[small] = acc * vs * vs
    vb = v[~small]
    out[~small] = (1.0 - vb) * np.log1p(-vb) + vb
    return out


def _log_fail_em(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    r"""log F(n, c, k) in closed form, for flat arrays with 1 <= min(c, k) and c + k <= n.

    With m = min(c, k), M = max(c, k) (F is symmetric in c and k), B = n and A = n - M,

    .. math:: \log F = \sum_{j=0}^{m-1} f(j), \qquad f(x) = \log(A - x) - \log(B - x).

    The sum over j < m' = m - t is Euler–Maclaurin's: the integral, which with
    h(v) = (1-v)\log(1-v) + v is exactly

    .. math:: M\,\mathrm{log1p}(-m'/B) + m'(\mathrm{log1p}(-M/B) + M/B)
              - \frac{(B-m')A}{B}\, h\Bigl(\frac{M m'}{(B-m')A}\Bigr)

    (three terms of one sign: no cancellation), plus (f(0) - f(m'))/2 and the corrections
    Σ_p B_2p/(2p)! (f^(2p-1)(m') - f^(2p-1)(0)), p = 1..6, with
    f^(r)(x) = -(r-1)!·(A-x)^-r·(1 - ((A-x)/(B-x))^r). The last t = max(0, 16 - (A - m))
    factors, whose arguments are small, are summed directly, so the expansion only ever
    sees arguments A - x >= 16, where its remainder is below 1e-16 (Abramowitz & Stegun
    23.1.30; Olver, *Asymptotics and Special Functions*, ch. 8).
    """
    B = n.astype(np.float64)
    m = np.minimum(c, k).astype(np.float64)
    M = np.maximum(c, k).astype(np.float64)
    A = B - M
    t = np.minimum(np.clip(_EM_GAP - (A - m), 0.0, None), m)
    mp = m - t
    out = (M * np.log1p(-mp / B) + mp * (np.log1p(-M / B) + M / B)
           - ((B - mp) * A / B) * _one_minus_v_log(M * mp / ((B - mp) * A)))
    out += 0.5 * (np.log1p(-M / B) - np.log1p(-M / (B - mp)))
    for b2p, p in _BERNOULLI:
        r = 2 * p - 1
        g_end = (A - mp) ** (-r) * -np.expm1(r * np.log1p(-M / (B - mp)))
        g_start = A ** (-r) * -np.expm1(r * np.log1p(-M / B))
        out -= b2p / ((2 * p) * (2 * p - 1)) * (g_end - g_start)
    near = np.flatnonzero(t > 0)  # only values with n - c - k < 16 have factors left to sum
    if near.size:
        j = mp[near, None] + np.arange(_EM_GAP, dtype=np.float64)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            tail = np.where(j < m[near, None], np.log1p(-M[near, None] / (B[near, None] - j)), 0.0)
        out[near] += tail.sum(axis=1)
    return out


def _log_fail_table(
    pn: np.ndarray,
    pc: np.ndarray,
    uk: np.ndarray,
    *,
    transform: Any = None,
    weights: np.ndarray | None = None,
    exact: bool = False,
) -> np.ndarray:
    """log F(n_p, c_p, k_u) for every pair p and every k in sorted ``uk`` (all >= 1).

    ``exact``: every factor to full relative accuracy (:func:`_log_factor`; needed when F itself is
    the answer and c > n/2, as for pass^k; costs ~10% more). pass@k = 1 - F does not need it: its
    factors lose accuracy only where F is tiny, which 1 - F cannot see.

    -inf where k > n - c (F = 0), NaN where k > n. With ``transform`` the block is mapped
    (e.g. to pass@k; it must map -inf to a finite value); with ``weights`` (one per pair)
    the function returns the weighted sum over pairs, shape (U,), where entries with k > n
    contribute 0, without ever holding the P x U table.
    """
    P, U = pn.size, uk.size
    out = np.empty((P, U)) if weights is None else np.zeros(U)
    kmax = int(uk[-1])
    # length of the cumulative sum each pair needs: beyond n - c every F is 0
    need = np.minimum(kmax, pn - pc).astype(np.int64)

    def emit(rows: np.ndarray, block: np.ndarray) -> None:
        nm = (pn[rows] - pc[rows])[:, None]
        if (uk[-1] > nm).any():
            block[uk[None, :] > nm] = -np.inf
        if transform is not None:
            block = transform(block)
        over_n = uk[None, :] > pn[rows][:, None]
        has_over = bool(over_n.any())
        if weights is None:
            if has_over:
                block[over_n] = np.nan
            out[rows] = block
        else:
            if has_over:
                block[over_n] = 0.0
            out[...] += weights[rows] @ block

    # a pair whose cumulative sum would be far longer than evaluating its U values one by
    # one (a large n, a sparse k grid) gets the values one by one (closed form when long)
    cellwise = need > 4 * U * (np.minimum(pc, _DIRECT_MAX) + _EM_COST)
    if cellwise.any():
        far = np.flatnonzero(cellwise)
        step = max(1, _MAX_ELEMS // (U * _EM_GAP))
        for s0 in range(0, far.size, step):
            rows = far[s0:s0 + step]
            shape = (rows.size, U)
            nb = np.broadcast_to(pn[rows][:, None], shape).ravel()
            cb = np.broadcast_to(pc[rows][:, None], shape).ravel()
            kb = np.broadcast_to(uk[None, :], shape).ravel()
            emit(rows, _log_fail_elementwise(nb, cb, kb, exact).reshape(shape))
    order = np.flatnonzero(~cellwise)
    order = order[np.argsort(need[order], kind="stable")]
    P = order.size
    need_sorted = np.maximum(need[order], 1)
    start = 0
    while start < P:
        # rows in a chunk have similar needs (sorted); keep rows * longest need bounded
        cost = (np.arange(1, P - start + 1)) * need_sorted[start:]
        stop = start + max(1, int(np.searchsorted(cost, _MAX_ELEMS, side="right")))
        rows = order[start:stop]
        L = int(need_sorted[stop - 1])
        n_r = pn[rows].astype(np.float64)[:, None]
        c_r = pc[rows].astype(np.float64)[:, None]
        j = np.arange(L, dtype=np.float64)[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = _log_factor(n_r - j, c_r) if exact else np.log1p(-c_r / (n_r - j))
        if need[rows].min() < L:  # rows that reach F = 0 before L: zero their tails
            terms[j >= (n_r - c_r)] = 0.0
        cums = _blocked_cumsum(terms, overwrite=True)
        kk = np.minimum(uk, L) - 1
        emit(rows, cums[:, kk])
        start = stop
    return out


def _log_fail_elementwise(n: np.ndarray, c: np.ndarray, k: np.ndarray, exact: bool = False) -> np.ndarray:
    """log F for flat, equal-length arrays, summing min(c, k) terms per element."""
    m = np.minimum(c, k)
    a = np.maximum(c, k)
    out = np.zeros(n.shape, dtype=np.float64)
    zero = (c + k) > n
    out[zero] = -np.inf
    todo = np.flatnonzero(~zero & (m > 0))
    long_ = m[todo] > _DIRECT_MAX
    if long_.any():
        far = todo[long_]
        out[far] = _log_fail_em(n[far], c[far], k[far])
        todo = todo[~long_]
    if todo.size:
        cost = m[todo]
        bounds = np.cumsum(cost)
        start = 0
        while start < todo.size:
            base = bounds[start - 1] if start else 0
            stop = int(np.searchsorted(bounds, base + _MAX_ELEMS, side="right"))
            stop = max(stop, start + 1)
            idx = todo[start:stop]
            lens = m[idx]
            seg = np.repeat(np.arange(idx.size), lens)
            offs = np.cumsum(lens) - lens
            j = np.arange(seg.size) - np.repeat(offs, lens)
            den = (n[idx][seg] - j).astype(np.float64)
            terms = _log_factor(den, a[idx][seg].astype(np.float64)) if exact else np.log1p(-a[idx][seg] / den)
            hi, lo = _split_terms(terms)  # the sum to about one rounding (see _blocked_cumsum)
            out[idx] = np.add.reduceat(hi, offs) + np.add.reduceat(lo, offs)
            start = stop
    out[k > n] = np.nan
    return out


def _log_fail(n: np.ndarray, c: np.ndarray, k: np.ndarray, transform: Any = None, exact: bool = False) -> np.ndarray:
    """log C(n-c, k)/C(n, k), broadcasting; -inf where k > n - c, NaN where k > n.

    ``transform`` (elementwise, e.g. log F -> pass@k) is applied before the final gather, on
    the (distinct pairs x distinct k) table, which is usually far smaller than the output.
    """
    tr = transform if transform is not None else (lambda x: x)
    nc_n, nc_c = np.broadcast_arrays(n, c)
    shape = np.broadcast_shapes(nc_n.shape, k.shape)
    size = int(np.prod(shape)) if shape else 1
    first, inv = distinct_pairs(nc_n, nc_c)
    pn, pcc = nc_n.ravel()[first], nc_c.ravel()[first]
    uk, kinv = np.unique(k.ravel(), return_inverse=True)
    P, U = pn.size, uk.size
    use_table = P * U <= max(8 * size, 1 << 20)
    if use_table and size <= (1 << 22):
        # the table sums up to min(max k, n - c) terms per pair; the elementwise path
        # sums min(c, k) terms per element (F is symmetric in c and k): take the cheaper
        table_cost = int(np.minimum(uk[-1], pn - pcc).sum())
        per = np.asarray(np.minimum(*np.broadcast_arrays(c, k)))  # one array the size of the output, capped in place
        elem_cost = int(np.minimum(per, _DIRECT_MAX + _EM_COST, out=per).sum())
        use_table = table_cost <= elem_cost
    if use_table:
        table = tr(_log_fail_table(pn, pcc, np.maximum(uk, 1), exact=exact))
        if k.ndim >= 1 and nc_n.ndim >= k.ndim and nc_n.shape[-1] == 1 and all(d == 1 for d in k.shape[:-1]):
            # outer-product layout (problems x k): gather whole rows, far faster than 2-D fancy indexing
            kin = kinv.ravel()
            if not (kin.size == U and (kin == np.arange(U)).all()):
                table = table[:, kin]
            res = table[inv.reshape(nc_n.shape[:-1])]
        else:
            res = table[inv.reshape(nc_n.shape), kinv.reshape(k.shape)]
        return np.broadcast_to(res, shape).copy() if res.shape != shape else res
    nb, cb, kb = (np.ascontiguousarray(x).ravel() for x in np.broadcast_arrays(n, c, k))
    return tr(_log_fail_elementwise(nb, cb, kb, exact)).reshape(shape)


def _log_fail_to_pass(logf: np.ndarray) -> np.ndarray:
    """pass@k = 1 - F = -expm1(log F), with +0.0 (never -0.0) where F = 1."""
    out = np.expm1(logf)
    np.negative(out, out=out)
    out += 0.0  # -0.0 + 0.0 is +0.0
    return out


def _log_fail_to_prob(logf: np.ndarray) -> np.ndarray:
    out = np.exp(logf)
    out += 0.0
    return out


_SHORT = 32  # products of at most this many factors are multiplied out where F itself is the answer


def _fail_prob(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """F = C(n-c, k)/C(n, k) itself (pass^k = F(n, n-c, k)), broadcasting; NaN where k > n.

    exp(log F) carries the rounding of log F, about |ln F|·2^-53 relative: pass^1 = 1/10 came out as
    0.10000000000000002 and 1/10^4 four units in the last place off. Where F has at most _SHORT factors it is
    their plain product instead (each factor one rounding, so at most 2·_SHORT roundings, and correctly
    rounded for a single factor); longer products keep the log-sum, whose own rounding then dominates.
    """
    out = _log_fail(n, c, k, _log_fail_to_prob, exact=True)
    nb, cb, kb = np.broadcast_arrays(n, c, k)
    m = np.minimum(cb, kb)
    short = (m <= _SHORT) & (cb + kb <= nb)
    if short.any():
        ns, ms, Ms = nb[short], m[short], np.maximum(cb, kb)[short]
        prod = np.ones(ns.shape)
        for j in range(int(ms.max())):
            live = ms > j
            prod[live] *= (ns[live] - Ms[live] - j).astype(np.float64) / (ns[live] - j).astype(np.float64)
        out = np.array(out, dtype=np.float64, copy=True)
        out[short] = prod + 0.0
    return out


# ----------------------------------------------------------------------------------------
# hypergeometric probabilities to full relative precision (G-pass@k, mG-pass@k)
# ----------------------------------------------------------------------------------------
# stirlerr(x) = log(x!) - (x + 1/2) log x + x - log(2 pi)/2 for x = 0..15 (40-digit values, rounded)
_STIRLERR = np.array([
    0.0, 0.08106146679532726, 0.0413406959554093, 0.02767792568499834, 0.020790672103765093,
    0.016644691189821193, 0.013876128823070748, 0.01189670994589177, 0.010411265261972096,
    0.009255462182712733, 0.00833056343336287, 0.007573675487951841, 0.00694284010720953,
    0.006408994188004207, 0.0059513701127588475, 0.005554733551962801,
])
# its asymptotic series above 15: sum_j B_2j / (2j (2j-1) x^(2j-1)); the 7th term is < 2e-18 at x = 16
_STIRLING_SERIES = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)
_BD0_TERMS = 40  # series terms of bd0 for |v| < 0.6: 0.36^40 < 2e-18
_HYPER_ANCHOR = 16  # a directly computed log P(X = x) every this many x


def _stirlerr(x: np.ndarray) -> np.ndarray:
    """log(x!) - log(sqrt(2 pi x) (x/e)^x) for integer-valued x >= 0 (0 at x = 0), to full precision."""
    out = np.empty(x.shape)
    small = x <= 15
    out[small] = _STIRLERR[x[small].astype(np.int64)]
    big = ~small
    if big.any():
        xb = x[big]
        w = 1.0 / (xb * xb)
        acc = np.full(xb.shape, _STIRLING_SERIES[-1])
        for coef in _STIRLING_SERIES[-2::-1]:
            acc = acc * w + coef
        out[big] = acc / xb
    return out


def _bd0(x: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Loader's deviance term x log(x/M) + M - x >= 0 with M = b/n, for x > 0, where a = x·n and b = M·n are
    exact (integers below 2^63), so x - M = (a - b)/n has one rounding and there is no cancellation.

    With v = (a - b)/(a + b) it is ((a + b)/n)·((1 + v) atanh(v) - v), whose series
    sum_j v^2j (1/(2j-1) + v/(2j+1)) has positive terms for |v| < 1 (used below |v| = 0.6); beyond, the
    direct form x log(a/b) - (a - b)/n loses at most a factor ~3 to cancellation.
    """
    d = a - b
    s = a.astype(np.float64) + b.astype(np.float64)  # a + b may pass 2^63
    v = d / s
    out = np.empty(v.shape)
    small = np.abs(v) < 0.6
    vs = v[small]
    w = vs * vs
    acc = np.zeros(vs.shape)
    for j in range(_BD0_TERMS, 0, -1):
        acc = acc * w + (1.0 / (2 * j - 1) + vs / (2 * j + 1))
    df = d[small].astype(np.float64)
    out[small] = (df * df) / (n[small] * s[small]) * acc  # ((a + b)/n)·v² with d exact: fewer roundings
    big = ~small
    if big.any():
        out[big] = x[big] * np.log(a[big] / b[big]) - d[big] / n[big]
    return out


def _log_binom_pk(x: np.ndarray, r: np.ndarray, k: np.ndarray, n: np.ndarray, exact: bool) -> np.ndarray:
    """log Bin(x; r, k/n), 0 <= x <= r, without rounding k/n (Loader 2000: stirlerr and bd0 terms).

    ``exact``: int64 products x·n are exact (n < 3·10^9); otherwise they are rounded floats.
    """
    xf, rf, kf, nf = (v.astype(np.float64) for v in (x, r, k, n))
    out = np.zeros(xf.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = _log_factor(nf, kf)  # log(1 - k/n)
        log_p = _log_factor(nf, nf - kf)  # log(k/n)
    lo_end = (x == 0) & (r > 0)
    out[lo_end] = rf[lo_end] * log_q[lo_end]
    hi_end = (x == r) & (r > 0)
    out[hi_end] = rf[hi_end] * log_p[hi_end]
    mid = (x > 0) & (x < r)
    if mid.any():
        xm, rm, km, nm = x[mid], r[mid], k[mid], n[mid]
        if exact:
            a1, b1 = xm * nm, rm * km
            a2, b2 = (rm - xm) * nm, rm * (nm - km)
        else:
            xx, rr, kk, nn = xf[mid], rf[mid], kf[mid], nf[mid]
            a1, b1 = xx * nn, rr * kk
            a2, b2 = (rr - xx) * nn, rr * (nn - kk)
        xf_m, rf_m, nf_m = xf[mid], rf[mid], nf[mid]
        yf_m = rf_m - xf_m
        out[mid] = (_stirlerr(rf_m) - _stirlerr(xf_m) - _stirlerr(yf_m)
                    - _bd0(xf_m, a1, b1, nf_m) - _bd0(yf_m, a2, b2, nf_m)
                    + 0.5 * (np.log(1.0 / xf_m + 1.0 / yf_m) - np.log(2 * np.pi)))  # r/(x y) = 1/x + 1/y
    return out


def _hyper_log_pmf(x: np.ndarray, n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log P(X = x), X ~ Hypergeometric(population n, c marked, k drawn), x in the support, flat int64 arrays.

    As Bin(x; c, p)·Bin(k - x; n - c, p)/Bin(k; n, p) with p = k/n (the identity holds for any p; this p makes the
    denominator's deviance terms vanish), each binomial by Loader's saddle-point form, so the absolute error of
    the log is a few units of 1e-16 plus a few ε times the deviance, i.e. full relative precision near the mode
    and ε·|log P| in the far tails.
    """
    exact = bool(n.size == 0 or int(n.max()) < 3_000_000_000)
    return (_log_binom_pk(x, c, k, n, exact) + _log_binom_pk(k - x, n - c, k, n, exact)
            - _log_binom_pk(k, n, k, n, exact))


_LF_TOP = 1 << 16  # n up to this: probabilities from a table of log(x!) (built on first use, grown by doubling)
_LF_MIN = 1 << 10  # the table's smallest size
_LF_SCALE = 128  # the table is built in fixed point, as integers times 2^-128
_lf_table: list[tuple[np.ndarray, np.ndarray]] = []  # [(head, tail)] once built (one item: read and replaced whole)


def _log_factorials(top: int) -> tuple[np.ndarray, np.ndarray]:
    """log(x!) = head[x] + tail[x] for x = 0..size-1 (size > top: a power of two >= _LF_MIN, or _LF_TOP + 1), to
    ~3e-26 absolute (the tail's rounding).

    head[x] lies on the binary grid 2^-e where nine entries sum below 2^(52-e) (e = 31 up to size 2^14), so any
    signed sum of nine heads is exact in float64; |tail| <= 2^-(e+1) carries the rest, correctly rounded. Built
    with Python integers in fixed point (2^-128): log p of a prime p as log(p - 1) + 2·atanh(1/(2p - 1)) by its
    series, log j of a composite as log q + log(j/q) for its smallest prime factor q, and the running sums. 2^14
    entries take about 30 ms, 2^16 about 0.15 s.
    """
    built = _lf_table[0] if _lf_table else None
    if built is not None and built[0].size > top:
        return built
    size = min(max(_LF_MIN, 1 << int(top).bit_length()), _LF_TOP + 1)
    spf = list(range(size))  # smallest prime factor of each j (j itself for primes)
    for p in range(2, math.isqrt(size - 1) + 1):
        if spf[p] == p:
            for q in range(p * p, size, p):
                if spf[q] == q:
                    spf[q] = p
    one = 1 << _LF_SCALE
    logs = [0] * size
    cum = [0] * size
    acc = 0
    for j in range(2, size):
        p = spf[j]
        if p == j:  # log j = log(j - 1) + 2 atanh(1/(2j - 1)); each truncated term errs by < 2^-128
            d = 2 * j - 1
            term, odd, series = one // d, 1, 0
            while term:
                series += term // odd
                term //= d * d
                odd += 2
            logs[j] = logs[j - 1] + 2 * series
        else:
            logs[j] = logs[p] + logs[j // p]
        acc += logs[j]
        cum[j] = acc
    e = 52 - math.ceil(math.log2(9.0 * (acc >> _LF_SCALE) + 9.0))  # nine heads sum exactly on the grid 2^-e
    shift = _LF_SCALE - e
    head = np.empty(size)
    tail = np.empty(size)
    half = 1 << (shift - 1)
    for j in range(size):
        h = (cum[j] + half) >> shift
        head[j] = math.ldexp(h, -e)
        tail[j] = math.ldexp(cum[j] - (h << shift), -_LF_SCALE)
    _lf_table[:] = [(head, tail)]
    return head, tail


def _hyper_pmf_table(x: np.ndarray, n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """P(X = x) for n within the table of :func:`_log_factorials`, flat int64 arrays, to a few ε at any size.

    log P = log c! + log (n-c)! + log k! + log (n-k)! - log n! - log x! - log (c-x)! - log (k-x)! - log (n-c-k+x)!.
    The nine heads sum exactly and the nine tails (each below 2^-32) to ~1e-24, so P = exp(heads)·exp(tails)
    carries the roundings of the two exp and of one product only, whatever |log P| (a single log P in double
    precision would carry |log P|·2^-53, ~1.5e-13 near 1e-300).
    """
    head, tail = _log_factorials(int(n.max()) if n.size else 0)
    plus = (c, n - c, k, n - k)
    minus = (n, x, c - x, k - x, n - c - k + x)
    out = []
    for t in (head, tail):
        acc = t[plus[0]] + t[plus[1]] + t[plus[2]] + t[plus[3]]
        for j in minus:
            acc -= t[j]
        out.append(acc)
    with np.errstate(under="ignore"):
        return np.exp(out[0]) * np.exp(out[1])


def _hyper_pmf(x: np.ndarray, n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """P(X = x), X ~ Hypergeometric(n, c, k), x in the support, flat int64 arrays: from the log-factorial table
    (:func:`_hyper_pmf_table`, a few ε) where n <= _LF_TOP, else exp of Loader's saddle-point form
    (:func:`_hyper_log_pmf`, a few ε plus ε·|log P|)."""
    small = n <= _LF_TOP
    if small.all():
        return _hyper_pmf_table(x, n, c, k)
    out = np.empty(x.shape)
    if small.any():
        out[small] = _hyper_pmf_table(x[small], n[small], c[small], k[small])
    big = ~small
    with np.errstate(under="ignore"):
        out[big] = np.exp(_hyper_log_pmf(x[big], n[big], c[big], k[big]))
    return out


def _segment_sums(v: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Sums of consecutive segments of ``v`` (``counts`` values each, all >= 1) by a tree of fan-in
    _HYPER_ANCHOR: each level pads every segment to a multiple of it with zeros and sums the runs, so the rounding
    of a sum of positive values grows like _HYPER_ANCHOR·log_16(count)·ε, not count·ε."""
    B = _HYPER_ANCHOR
    while counts.size and int(counts.max()) > 1:
        padded = -(-counts // B) * B
        offs = np.cumsum(padded) - padded
        within = np.arange(v.size) - np.repeat(np.cumsum(counts) - counts, counts)
        grid = np.zeros(int(padded.sum()))
        grid[np.repeat(offs, counts) + within] = v
        v = grid.reshape(-1, B).sum(axis=1)
        counts = padded // B
    return v


_HYPER_GROUPS = 1 << 13  # groups of _HYPER_ANCHOR terms per pass of _hyper_window_sum (arrays of ~1 MB)
_HYPER_CUT = 42.0  # a run of terms stops where the rest is provably below e^-42 (6e-19) of its first term


def _hyper_window_sum(n: np.ndarray, c: np.ndarray, k: np.ndarray, start: np.ndarray, stop: np.ndarray,
                      mode: np.ndarray, offset: np.ndarray | None) -> np.ndarray:
    """Sum over x = start..stop (inclusive; empty when stop < start) of P(X = x), or of (x - offset)·P(X = x).

    The window is split at the mode into a run upwards from max(start, mode) and a run downwards from
    min(stop, mode - 1), along each of which the terms fall (the law is log-concave), and each run into groups of
    _HYPER_ANCHOR consecutive x. The group's first term (the one nearest the mode) is computed directly
    (:func:`_hyper_pmf`), the others by multiplying the ratios P(x+1)/P(x) = (c-x)(k-x)/((x+1)(n-c-k+x+1)) (or their
    inverses, going down) outwards from it: numerator and denominator are exact integer products below 2^53, so a
    step costs one division and one product, fewer than 2·_HYPER_ANCHOR roundings in all and no log or exp per
    term. A run stops early where its first ratio q bounds the rest (ratios only fall away from the mode):
    after L terms what is left is below q^L/(1 - q) of the first term, and L is taken to make that < e^-42 (times
    the largest weight x - offset relative to the first, at most min(c, k) + 1).
    Group sums are added per run by :func:`_segment_sums` (rounding grows like log(length)·ε).
    """
    out = np.zeros(n.shape)
    B = _HYPER_ANCHOR
    up_first = np.maximum(start, mode)
    dn_first = np.minimum(stop, mode - 1)
    up = np.flatnonzero(stop >= up_first)
    dn = np.flatnonzero(dn_first >= start)
    if up.size + dn.size == 0:
        return out
    # the runs, upward ones first: owner element, first x, length
    own = np.concatenate([up, dn])
    first = np.concatenate([up_first[up], dn_first[dn]])
    lens = np.concatenate([stop[up] - up_first[up], dn_first[dn] - start[dn]]) + 1
    nu = up.size
    nck = n - c - k
    cf, kf, nckf = (v[own].astype(np.float64) for v in (c, k, nck))
    # the step from x to x + d is the ratio r(y) = a(y)/b(y) at y = x (up) or its inverse at y = x - 1 (down)
    y0 = first.astype(np.float64)
    y0[nu:] -= 1.0
    a0 = (cf - y0) * (kf - y0)
    b0 = (y0 + 1.0) * (nckf + y0 + 1.0)
    margin = np.full(own.size, _HYPER_CUT)
    if offset is not None:  # weights x - offset grow at most to the support's width (from >= 1)
        margin += np.log(np.minimum(cf, kf) + 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        q0 = np.concatenate([a0[:nu] / b0[:nu], b0[nu:] / a0[nu:]])
        cut = np.ceil((margin - np.log1p(-q0)) / -np.log(q0))  # q^L/(1-q) <= e^-margin
    short = np.isfinite(cut) & (cut < lens)
    lens[short] = np.maximum(cut[short], 1.0)
    ng = -(-lens // B)
    run = np.repeat(np.arange(own.size), ng)  # one entry per group
    gi = np.arange(run.size) - np.repeat(np.cumsum(ng) - ng, ng)
    gu = int(ng[:nu].sum())  # groups of upward runs come first
    step = np.where(np.arange(run.size) < gu, B, -B)
    gfirst = first[run] + step * gi
    glen = np.minimum(B, lens[run] - B * gi)
    gsum = np.empty(run.size)
    j = np.arange(B, dtype=np.float64)[:, None]
    for g0 in range(0, run.size, _HYPER_GROUPS):
        g1 = min(g0 + _HYPER_GROUPS, run.size)
        e = own[run[g0:g1]]
        f = gfirst[g0:g1]
        terms = np.empty((B, g1 - g0))
        terms[0] = _hyper_pmf(f, n[e], c[e], k[e])
        b = min(max(gu - g0, 0), g1 - g0)  # columns [0, b) go up, [b, end) go down
        y = f.astype(np.float64) + j[:-1] * np.sign(step[g0:g1])
        y[:, b:] -= 1.0
        ce, ke = c[e].astype(np.float64), k[e].astype(np.float64)
        num = (ce - y) * (ke - y)
        den = (y + 1.0) * (nck[e] + y + 1.0)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            np.divide(num[:, :b], den[:, :b], out=terms[1:, :b])
            np.divide(den[:, b:], num[:, b:], out=terms[1:, b:])
            part = np.flatnonzero(glen[g0:g1] < B)  # a run's last group: zero from its end on (ratios are finite)
            terms[glen[g0:g1][part], part] = 0.0
            for r in range(1, B):  # row by row: numpy's accumulate along axis 0 strides through memory
                terms[r] *= terms[r - 1]
        if offset is not None:
            terms *= f + j * np.sign(step[g0:g1]) - offset[e]
        gsum[g0:g1] = terms.sum(axis=0)
    sums = _segment_sums(gsum, ng)
    out[up] = sums[:nu]  # each element has at most one run each way
    out[dn] += sums[nu:]
    return out


def _hyper_log_pmf_run(n: int, c: int, k: int) -> tuple[int, np.ndarray]:
    """(lo, log P(X = x) for x = lo..hi) over the whole support of one Hypergeometric(n, c, k): one x in every
    _HYPER_ANCHOR by :func:`_hyper_log_pmf` (the one nearest the mode), the others by summing the logs of the ratio
    steps outwards from it (the precision of the direct form at a sixteenth of its cost)."""
    lo, hi = max(0, c + k - n), min(c, k)
    B = _HYPER_ANCHOR
    L = -(-(hi - lo + 1) // B) * B
    x = lo + np.arange(L, dtype=np.float64)
    mode = min(max(int(np.floor((k + 1.0) * (c + 1.0) / (n + 2.0))), lo), hi)
    first = x[::B]
    xa = np.minimum(np.clip(mode, first, np.minimum(first + (B - 1), hi)), hi).astype(np.int64)
    full = np.full(xa.size, 1, dtype=np.int64)
    la = _hyper_log_pmf(xa, n * full, c * full, k * full)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log(((c - x) / (x + 1.0)) * ((k - x) / (n - c - k + x + 1.0))).reshape(-1, B)
    xg = x.reshape(-1, B)
    up = np.where(xg >= xa[:, None], step, 0.0)
    fwd = np.zeros(up.shape)
    fwd[:, 1:] = np.cumsum(up[:, :-1], axis=1)
    down = np.where(xg < xa[:, None], step, 0.0)
    bwd = np.cumsum(down[:, ::-1], axis=1)[:, ::-1]
    return lo, (la[:, None] + fwd - bwd).ravel()[: hi - lo + 1]


def _hyper_window(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Support ends, mode and a half-width W beyond which the terms are below e^-70 of the largest (the law is
    log-concave and sub-Gaussian: Bernstein with the binomial variance k·(c/n)·(1 - c/n) >= the hypergeometric)."""
    lo = np.maximum(0, c + k - n)
    hi = np.minimum(c, k)
    nf = n.astype(np.float64)
    mode = np.clip(np.floor((k + 1.0) * (c + 1.0) / (nf + 2.0)), lo, hi).astype(np.int64)
    sd = np.sqrt(k * (c / nf) * (1.0 - c / nf))
    width = np.ceil(12.0 * sd + 60.0).astype(np.int64)
    return lo, hi, mode, width


def _distinct_rows(*cols: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(first, inverse)`` of the distinct rows of equal-length non-negative int64 columns, or None when every
    row is distinct. One mixed-radix int64 key where it fits (a problems x k grid of G-pass@k repeats each (n, c)
    problem's row once per problem that shares it), else the rows themselves."""
    if cols[0].size < 2:
        return None
    tops = [int(v.max()) + 1 for v in cols]
    if math.prod(tops) < 2**63:
        key = cols[0].astype(np.int64)
        for v, t in zip(cols[1:], tops[1:], strict=True):
            key = key * t + v
        _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    else:
        _, first, inv = np.unique(np.stack(cols, axis=1), axis=0, return_index=True, return_inverse=True)
    if first.size == cols[0].size:
        return None
    return first, inv.ravel()


def _hyper_sf(n: np.ndarray, c: np.ndarray, k: np.ndarray, m: np.ndarray) -> np.ndarray:
    """P(X >= m), X ~ Hypergeometric(n, c, k), flat int64 arrays with k <= n, to a few ε relative.

    Below the mean it is 1 - P(X <= m - 1) (that sum is at most about 1 - 1/e, so the difference keeps its
    relative precision); above it the upper sum. Either runs over at most W + 1 terms next to m (the rest are
    below e^-70 of the largest), fewer where the terms provably fall faster (:func:`_hyper_window_sum`)."""
    return _hyper_tails(n, c, k, m)[1]


def _hyper_tails(n: np.ndarray, c: np.ndarray, k: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(P(X < m), P(X >= m)), each to the relative precision of :func:`_hyper_sf` (the one summed directly
    and 1 minus a sum of at most about 1 - 1/e), for variances that must not subtract numbers near 1.
    Repeated (n, c, k, m) are computed once."""
    rows = _distinct_rows(n, c, k, m)
    if rows is not None:
        below, above = _hyper_tails(n[rows[0]], c[rows[0]], k[rows[0]], m[rows[0]])
        return below[rows[1]], above[rows[1]]
    lo, hi, mode, width = _hyper_window(n, c, k)
    upper = m > k * c / n.astype(np.float64)
    start = np.where(upper, m, np.maximum(lo, np.minimum(m - 1, mode) - width))
    stop = np.where(upper, np.minimum(hi, np.maximum(m, mode) + width), m - 1)
    s = _hyper_window_sum(n, c, k, start, stop, mode, None)
    above, below = np.where(upper, s, 1.0 - s), np.where(upper, 1.0 - s, s)
    above[m <= lo], below[m <= lo] = 1.0, 0.0
    above[m > hi], below[m > hi] = 0.0, 1.0
    return below, above


def _hyper_excess(n: np.ndarray, c: np.ndarray, k: np.ndarray, a: np.ndarray) -> np.ndarray:
    """E[(X - a)^+], X ~ Hypergeometric(n, c, k), flat int64 arrays with k <= n (positive terms only); repeated
    (n, c, k, a) computed once."""
    rows = _distinct_rows(n, c, k, a)
    if rows is not None:
        return _hyper_excess(n[rows[0]], c[rows[0]], k[rows[0]], a[rows[0]])[rows[1]]
    lo, hi, mode, width = _hyper_window(n, c, k)
    start = np.maximum(np.maximum(a + 1, lo), mode - width)
    stop = np.minimum(hi, np.maximum(a + 1, mode) + width)
    return _hyper_window_sum(n, c, k, start, stop, mode, a)


# ----------------------------------------------------------------------------------------
# validation helpers (one per public function, run first)
# ----------------------------------------------------------------------------------------
KGtN = Literal["raise", "nan"]


def _nck_iv(n: Any, c: Any, k: Any, k_gt_n: str = "raise") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_a = as_int_array(n, "n", minimum=None)
    c_a = as_int_array(c, "c", minimum=None)
    k_a = as_int_array(k, "k", minimum=None)
    neg = c_a < 0
    if neg.any():
        raise PasscurveError(f"`c` must be >= 0 (got c={fmt(c_a[neg].ravel()[0])})")
    n_a, c_a = check_counts(n_a, c_a)
    small = k_a < 1
    if small.any():
        raise PasscurveError(f"`k` must be an integer >= 1 (got k={fmt(k_a[small].ravel()[0])})")
    check_broadcast("`n`/`c` and `k`", n_a, k_a)  # the one shape message, naive_pass_at_k's and the readers'
    if check_choice(k_gt_n, "k_gt_n", ("raise", "nan"), quoted=True) == "raise":
        check_k_le_n(n_a, k_a)
    return n_a, c_a, k_a


def _g_pass_at_k_iv(n: Any, c: Any, k: Any, tau: Any, k_gt_n: str) -> tuple[np.ndarray, ...]:
    """n, c, k and tau checked and broadcast together."""
    n_a, c_a, k_a = _nck_iv(n, c, k, k_gt_n)
    t = check_probability(tau, "tau")
    nck = np.broadcast_arrays(n_a, c_a, k_a)
    check_broadcast("`n`/`c`/`k` and `tau`", nck[0], t)
    return tuple(np.broadcast_arrays(*nck, t))  # a list under numpy < 2


def _at_k_one(out: np.ndarray, n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``out`` with c/n where k = 1: pass@1, pass^1 and the plug-in are each the share of samples correct, one
    correctly rounded division. -expm1(log1p(-c/n)) rounds twice and came out an ulp away from it, so equal
    quantities printed differently (31/800 = 0.03875: pass@1 0.0387 beside pass^1 0.0388)."""
    is_one = k == 1
    if not is_one.any():
        return out
    if not (isinstance(out, np.ndarray) and out.dtype == np.float64 and out.flags.writeable and out.flags.owndata):
        out = np.array(out, dtype=np.float64)  # else the callers' own fresh array, set in place (no copy of a table)
    nb, cb = np.broadcast_arrays(n, c)
    one = np.broadcast_to(is_one, out.shape)  # k's own mask, not one the size of the output
    nb, cb = np.broadcast_to(nb, out.shape), np.broadcast_to(cb, out.shape)
    out[one] = cb[one] / nb[one]
    return out


def _scalar_out(x: np.ndarray, *inputs: Any) -> Any:
    if all(np.ndim(v) == 0 for v in inputs):
        return float(x)
    return x


# ----------------------------------------------------------------------------------------
# public estimators
# ----------------------------------------------------------------------------------------
def pass_at_k(n: Any, c: Any, k: Any, *, k_gt_n: KGtN = "raise") -> Any:
    r"""Unbiased pass@k of one or many problems (Chen et al. 2021).

    .. math:: \widehat{\text{pass@}k} = 1 - \binom{n-c}{k} \Big/ \binom{n}{k}

    the probability that a uniformly random k-subset of the n samples contains at least
    one of the c correct ones. It is unbiased for :math:`1-(1-p)^k` when n is fixed in
    advance and k <= n; no unbiased estimator exists for k > n.

    Parameters
    ----------
    n, c, k : array_like of int
        Samples drawn, samples correct (0 <= c <= n, n >= 1) and the budget k >= 1.
        They broadcast against each other; numpy integer types and integral floats are
        accepted.
    k_gt_n : {"raise", "nan"}, default "raise"
        What to do where k > n: raise :class:`PasscurveError` (a ``ValueError``) naming
        k and n, or return NaN there. Never 1.0.

    Returns
    -------
    float or ndarray
        A float when every input is a scalar, else an array of the broadcast shape.

    References
    ----------
    M. Chen et al., "Evaluating Large Language Models Trained on Code", arXiv:2107.03374.

    Examples
    --------
    >>> pass_at_k(10, 3, 5)  # 1 - C(7,5)/C(10,5)
    0.9166666666666666
    """
    n_a, c_a, k_a = _nck_iv(n, c, k, k_gt_n)
    return _scalar_out(_at_k_one(_log_fail(n_a, c_a, k_a, _log_fail_to_pass), n_a, c_a, k_a), n, c, k)


def pass_pow_k(n: Any, c: Any, k: Any, *, k_gt_n: KGtN = "raise") -> Any:
    r"""Unbiased pass^k: the chance that all of k samples are correct (Yao et al. 2024).

    .. math:: \widehat{\text{pass}^k} = \binom{c}{k} \Big/ \binom{n}{k}

    unbiased for :math:`p^k` (k <= n). It equals F(n, n - c, k), so it shares the
    whole-curve machinery of :func:`pass_at_k`.

    Parameters
    ----------
    n, c, k : array_like of int
        As in :func:`pass_at_k`.
    k_gt_n : {"raise", "nan"}, default "raise"

    Returns
    -------
    float or ndarray
        A float when every input is a scalar, else an array of the broadcast shape (NaN where
        k > n with ``k_gt_n="nan"``).

    References
    ----------
    S. Yao et al., "τ-bench", arXiv:2406.12045.

    Examples
    --------
    >>> round(pass_pow_k(10, 7, 2), 6)  # C(7,2)/C(10,2)
    0.466667
    """
    n_a, c_a, k_a = _nck_iv(n, c, k, k_gt_n)
    out = _fail_prob(n_a, n_a - c_a, k_a)
    return _scalar_out(out, n, c, k)


_TAU_SNAP = 8 * np.finfo(np.float64).eps  # relative: tau's own rounding and the product's are 2^-53 each


def _tau_to_m(tau: np.ndarray, k: np.ndarray) -> np.ndarray:
    """m = max(ceil(tau * k), 1), robust to tau * k landing a rounding step above an integer.

    tau (a decimal, or i/k, rounded to binary) and the product tau * k each round once, so tau * k is within about
    2^-52·|tau·k| of the intended value: an integer within _TAU_SNAP·|tau·k| is taken for it, and nothing farther. A
    snap of 1e-9·|tau·k| also took tau = 0.55, k = 100000011 (tau·k = 55000006.05 exactly) for m = 55000006, not
    55000007."""
    x = tau * k
    r = np.round(x)
    m = np.where(np.abs(x - r) <= _TAU_SNAP * np.maximum(1.0, np.abs(x)), r, np.ceil(x))
    return np.maximum(m, 1).astype(np.int64)


def _by_distinct_problems(f: Any, n_b: np.ndarray, c_b: np.ndarray, *rest: np.ndarray) -> np.ndarray:
    """``f(n_b, c_b, *rest)`` on broadcast arrays, once per distinct (n, c) problem where the layout is a
    problems x grid product (n and c vary along the first axis only, the rest not along it): a benchmark's
    problems repeat few (n, c) pairs (at most n + 1 at one n), and the rows of the repeats are copies."""
    if n_b.ndim < 2 or n_b.shape[0] < 2 or n_b.size == 0:
        return np.asarray(f(n_b, c_b, *rest))
    outer = (all(st == 0 for v in (n_b, c_b) for st in v.strides[1:])
             and all(v.strides[0] == 0 for v in rest))
    if not outer:
        return np.asarray(f(n_b, c_b, *rest))
    first, inv = distinct_pairs(n_b[(slice(None),) + (0,) * (n_b.ndim - 1)],
                                c_b[(slice(None),) + (0,) * (c_b.ndim - 1)])
    if first.size == n_b.shape[0]:
        return np.asarray(f(n_b, c_b, *rest))
    shape = (first.size,) + n_b.shape[1:]
    sub = [np.broadcast_to(v[first], shape) for v in (n_b, c_b)]
    sub += [np.broadcast_to(v[:1], shape) for v in rest]
    return np.asarray(f(*sub))[inv]


def _g_pass_cells(n_b: np.ndarray, c_b: np.ndarray, k_b: np.ndarray, t_b: np.ndarray) -> np.ndarray:
    """G-pass@k on broadcast arrays (checked): the ends by pass@k and pass^k, the rest by :func:`_hyper_sf`."""
    m = _tau_to_m(t_b, k_b)
    out = np.empty(n_b.shape)
    first = m == 1
    last = (m == k_b) & ~first
    mid = ~first & ~last
    if first.any():
        out[first] = _log_fail(n_b[first], c_b[first], k_b[first], _log_fail_to_pass)
    if last.any():
        out[last] = _fail_prob(n_b[last], n_b[last] - c_b[last], k_b[last])
    mid &= k_b <= n_b
    if mid.any():
        out[mid] = _hyper_sf(n_b[mid], c_b[mid], k_b[mid], m[mid])
    out[k_b > n_b] = np.nan
    out = np.clip(out, 0.0, 1.0) + 0.0
    return out


def g_pass_at_k(n: Any, c: Any, k: Any, tau: Any, *, k_gt_n: KGtN = "raise") -> Any:
    r"""G-pass@k_τ: the chance that at least m = max(⌈τk⌉, 1) of k samples are correct.

    .. math:: \text{G-pass@}k_\tau = \sum_{j=m}^{\min(c,k)}
              \binom{c}{j}\binom{n-c}{k-j} \Big/ \binom{n}{k}

    a hypergeometric tail (draws without replacement from the n samples), unbiased for
    P(Binomial(k, p) >= m). τ → 0 gives pass@k and τ = 1 gives pass^k; those two ends use
    the exact products of :func:`pass_at_k` and :func:`pass_pow_k`, the rest a sum of the
    hypergeometric probabilities next to m (at most 12 standard deviations + 60 terms, fewer where
    the terms provably fall faster; below the mean, 1 minus the other tail): one in 16 directly, the
    others by exact ratio steps from it. The direct ones come from a table of log(x!) where
    n <= 2^16 (relative error against exact rationals below 1e-15 however small G is; built once per
    process, ~0.1 s for the full table) and from Loader's saddle-point form above (a few 1e-15 plus
    5e-16·|ln G|, at most ~3.5e-13 down to 1e-308); scipy's survival function, used before, was off by
    1e-11 at n = 10^6 and 2e-6 at 10^10. Problems sharing (n, c) in a problems x grid layout
    (``n[:, None]``, ``c[:, None]`` against a grid of k and τ) are computed once.

    Parameters
    ----------
    n, c, k : array_like of int
    tau : array_like of float in [0, 1]
    k_gt_n : {"raise", "nan"}, default "raise"

    Returns
    -------
    float or ndarray
        A float when every input is a scalar, else an array of the broadcast shape of n, c, k and
        tau (NaN where k > n with ``k_gt_n="nan"``).

    References
    ----------
    J. Liu et al., "Are Your LLMs Capable of Stable Reasoning?", arXiv:2412.13147.

    Examples
    --------
    >>> round(g_pass_at_k(48, 24, 16, 0.5), 6)
    0.619945
    """
    n_b, c_b, k_b, t_b = _g_pass_at_k_iv(n, c, k, tau, k_gt_n)
    out = _by_distinct_problems(_g_pass_cells, n_b, c_b, k_b, t_b)
    return _scalar_out(out, n, c, k, tau)


def mg_pass_at_k(n: Any, c: Any, k: Any, *, k_gt_n: KGtN = "raise") -> Any:
    r"""mG-pass@k: G-pass@k averaged over τ in (0.5, 1] (Liu et al. 2024).

    .. math:: \text{mG-pass@}k = \frac{2}{k} \sum_{i=\lceil k/2\rceil+1}^{k}
              \text{G-pass@}k_{i/k}

    Computed as one hypergeometric expectation, :math:`(2/k)\,E[(X - \lceil k/2\rceil)^+]`
    with X ~ Hypergeom(n, c, k), because :math:`\sum_{i=a+1}^{k} P(X \ge i) = E[(X-a)^+]`.
    The hypergeometric probabilities are those of :func:`g_pass_at_k` (relative error against exact
    rationals below 1e-15 for n <= 2^16, a few 1e-15 plus 5e-16·|ln mG| above; scipy's pmf, used
    before, 7e-11 at n = 6.6·10^5), summed over at most 24 standard deviations + 120 terms around the
    mode, so the cost grows like sqrt(k), not k.

    At k = 1 the sum is empty (⌈1/2⌉ + 1 = 2 > 1) and mG-pass@1 = 0 for every model, as in the
    definition and the authors' code: mG-pass@k is meant for k ≥ 2 (G-pass@1 at any τ is pass@1).
    The same discretisation caps odd k below 1: a perfect model (c = n, so X = k) scores
    :math:`(2/k)\lfloor k/2\rfloor`, which is 1 at even k and (k - 1)/k at odd k, e.g.
    ``mg_pass_at_k(10, 10, [1, 2, 3, 4])`` is ``[0, 1, 0.667, 1]``; compare odd and even k with care.

    Parameters
    ----------
    n, c, k : array_like of int
    k_gt_n : {"raise", "nan"}, default "raise"

    Returns
    -------
    float or ndarray
        A float when every input is a scalar, else an array of the broadcast shape (NaN where
        k > n with ``k_gt_n="nan"``).

    References
    ----------
    J. Liu et al., "Are Your LLMs Capable of Stable Reasoning?", arXiv:2412.13147.

    Examples
    --------
    >>> round(mg_pass_at_k(10, 5, 4), 6)
    0.142857
    """
    n_a, c_a, k_a = _nck_iv(n, c, k, k_gt_n)
    out = _by_distinct_problems(_mg_pass_cells, *np.broadcast_arrays(n_a, c_a, k_a))
    return _scalar_out(out + 0.0, n, c, k)


def _mg_pass_cells(n_b: np.ndarray, c_b: np.ndarray, k_b: np.ndarray) -> np.ndarray:
    """mG-pass@k on broadcast arrays (checked), NaN where k > n."""
    out = np.full(n_b.shape, np.nan)
    ok = k_b <= n_b
    if ok.any():
        nn, cc, kk = n_b[ok], c_b[ok], k_b[ok]
        half = -(-kk // 2)  # ceil(k/2)
        res = _hyper_excess(nn.ravel(), cc.ravel(), kk.ravel(), half.ravel())
        out[ok] = np.clip(2.0 * res / kk, 0.0, 1.0)
    return out


def naive_pass_at_k(n: Any, c: Any, k: Any) -> Any:
    r"""The plug-in estimate :math:`1 - (1 - c/n)^k` (biased; for comparison only).

    Jensen's inequality makes it *underestimate* :math:`1-(1-p)^k` on average: at
    (n, c, k) = (200, 10, 100) it gives 0.99408 where the unbiased estimate is 0.99923.
    It is defined for k > n, which is exactly why it is tempting and wrong: it is not
    a forecast either, since it ignores how difficulty varies across problems.

    Parameters
    ----------
    n, c, k : array_like of int
        Samples drawn (n >= 1), samples correct (0 <= c <= n) and the budget (k >= 1, any size: the
        plug-in is defined for k > n). They broadcast against each other.

    Returns
    -------
    float or ndarray
        A float when every input is a scalar, else an array of the broadcast shape.

    References
    ----------
    M. Chen et al., "Evaluating Large Language Models Trained on Code", arXiv:2107.03374 (Sec. 2.1: the
    plug-in's bias, and the unbiased :func:`pass_at_k`).

    Examples
    --------
    >>> round(naive_pass_at_k(200, 10, 100), 8)
    0.99407947
    """
    n_a = as_int_array(n, "n", minimum=None)
    c_a = as_int_array(c, "c", minimum=0)
    k_a = as_int_array(k, "k", minimum=1)
    n_a, c_a = check_counts(n_a, c_a)
    check_broadcast("`n`/`c` and `k`", n_a, k_a)
    p = c_a / n_a
    with np.errstate(divide="ignore"):
        out = -np.expm1(k_a * np.log1p(-p)) + 0.0
    return _scalar_out(_at_k_one(out, n_a, c_a, k_a), n, c, k)
