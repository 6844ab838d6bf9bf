r"""Confidence intervals for pass@k-family curves that count problems, not samples.

A benchmark score is a mean over problems of per-problem unbiased estimates
:math:`s_i(k)` (pass@k, pass^k or G-pass@k from problem i's n_i samples, c_i correct). The
samples of one problem are independent *given the problem*, but problems differ in
difficulty, so the uncertainty of the mean is driven by how the :math:`s_i` vary across
problems (Miller 2024, "Adding Error Bars to Evals", arXiv:2411.00640). Every method here
treats the problem (or the cluster of problems) as the unit of resampling:

``analytic``
    :math:`\widehat{SE}^2 = \frac{N}{N-1}\sum_i w_i^2 (s_i-\bar s)^2 / (\sum_i w_i)^2`
    (= :math:`\sum_i (s_i-\bar s)^2/(N(N-1))` unweighted). Because each :math:`s_i` lies in
    [0, 1], the interval is a Wilson score interval on the effective number of problems
    :math:`N_\text{eff} = \bar s(1-\bar s)/\widehat{SE}^2` with a Student-t quantile
    (Korn & Graubard 1998): close to :math:`\bar s \pm t\,\widehat{SE}` in the interior,
    never outside [0, 1], and not of zero width when every problem scores 0 (or 1).
``cluster``
    Miller's clustered SE, :math:`SE_{cl}^2 = SE^2 + \frac{1}{N^2}\sum_c\sum_{i\ne j\in c}
    (s_i-\bar s)(s_j-\bar s)`, with G - 1 degrees of freedom (G clusters).
``bootstrap`` / ``bca``
    Resample problems (clusters when given) with replacement: multinomial weights over
    problems applied to the per-problem estimate matrix, chunks of replicates at a time.
    Percentile interval, or BCa (Efron 1987) with bias correction :math:`z_0` from the
    replicates and acceleration :math:`a` from the leave-one-out jackknife (closed form).
``two-level``
    Resample problems, then each drawn problem's samples: :math:`c^* \sim
    \text{Binomial}(n_i, \tilde p_i)`. Naive two-stage resampling counts the within-problem
    noise twice (it is already part of the spread of the :math:`s_i`), so the stage-one
    rates are shrunk toward the mean, :math:`\tilde p_i = \hat\mu + \lambda(\hat p_i -
    \hat\mu)` with :math:`\lambda^2 = \hat\sigma_b^2/\operatorname{Var}(\hat p_i)` and
    :math:`\hat\sigma_b^2 = \operatorname{Var}(\hat p_i) - \overline{\hat p_i(1-\hat p_i)/(n_i-1)}`
    (Davison & Hinkley 1997, *Bootstrap Methods and their Application*, §3.8). The
    shrinkage also smooths: a problem never solved has :math:`\tilde p_i > 0`, so small
    n (where many problems are 0/n or n/n) does not freeze the resamples. The interval
    is the bootstrap distribution re-centred at the estimate.
``band``
    Simultaneous band over every k: the max-statistic bootstrap,
    :math:`T_b = \max_k |\theta^*_{bk}-\hat\theta_k|/\widehat{se}_k`, band
    :math:`\hat\theta_k \pm q_{1-\alpha}(T)\,\widehat{se}_k`.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy import stats

from ._adaptive import check_design
from ._counts import Counts, check_counts_object
from ._curves import CurveResult, _pad, default_top, own_range, with_own_ends
from ._errors import DegenerateDataWarning, DroppedProblemsWarning, PasscurveError, record_warning
from ._estimators import g_pass_at_k, pass_at_k, pass_pow_k
from ._pairs import distinct_pairs
from ._results import metric_name
from ._validation import (
    MAX_RESAMPLES,
    as_float_array,
    as_id_array,
    as_int_array,
    budget_grid,
    check_choice,
    check_choices,
    check_confidence_level,
    check_flag,
    check_k_gt_n,
    check_k_le_min_n,
    check_positive_int,
    check_rng,
    check_tau,
    check_weights,
    model_streams,
)

__all__ = ["curve_intervals", "standard_error", "INTERVAL_METHODS", "INTERVAL_METRICS"]

INTERVAL_METHODS = ("analytic", "cluster", "bootstrap", "bca", "two-level", "band")
INTERVAL_METRICS = ("pass_at_k", "pass_pow_k", "g_pass_at_k")
_CHUNK_ELEMS = 1 << 21  # replicates x problems per chunk (~16 MB of float64)
_RARE = 10  # fewer problems than this with a score above 0 (or below 1): rare-event regime
FEW_PROBLEMS = f"the mean rests on fewer than {_RARE} problems"
"""What the rare-event regime is, as the warning, ``curve --ci`` and the report's tables say it."""
WILSON_BOUND = "the distribution-free Wilson bound on the number of problems"
"""The interval used there (:func:`_widen_rare`), as the same places name it."""


# ----------------------------------------------------------------------------------------
# per-problem score matrices
# ----------------------------------------------------------------------------------------
def _scores_pairs(n: np.ndarray, c: np.ndarray, ks: np.ndarray, metric: str, tau: float | None) -> np.ndarray:
    """Per-pair unbiased estimates, shape (P, K); NaN where k > n (no de-duplication)."""
    un, uc = n[:, None], c[:, None]
    kk = ks[None, :]
    if metric == "pass_at_k":
        tab = pass_at_k(un, uc, kk, k_gt_n="nan")
    elif metric == "pass_pow_k":
        tab = pass_pow_k(un, uc, kk, k_gt_n="nan")
    elif metric == "g_pass_at_k":
        tab = g_pass_at_k(un, uc, kk, tau, k_gt_n="nan")
    else:  # pragma: no cover - validated earlier
        raise PasscurveError(f"`metric` must be one of {', '.join(INTERVAL_METRICS)} (got {metric!r})")
    return np.asarray(tab, dtype=np.float64).reshape(n.size, ks.size)


def _scores(n: np.ndarray, c: np.ndarray, ks: np.ndarray, metric: str, tau: float | None) -> np.ndarray:
    """Per-problem unbiased estimates, shape (N, K); NaN where k > n.

    Problems sharing (n, c) share a row, so the cost is per distinct pair.
    """
    n = np.asarray(n, dtype=np.int64)
    c = np.asarray(c, dtype=np.int64)
    first, inv = distinct_pairs(n, c)
    return _scores_pairs(n[first], c[first], ks, metric, tau)[inv]


def _cluster_ids(counts: Counts, cluster: Any) -> np.ndarray | None:
    """The cluster id per row of ``counts``: ``cluster`` when given, else ``counts.cluster``; ``False`` ignores them."""
    if cluster is False:
        return None
    if cluster is None:
        return counts.cluster
    cl = as_id_array(cluster, "cluster")
    if cl.size != len(counts):
        raise PasscurveError(f"`cluster` has {cl.size} entries but `counts` has {len(counts)} rows")
    return cl


def _group_index(cluster: np.ndarray | None, size: int) -> tuple[np.ndarray, int]:
    if cluster is None:
        return np.arange(size), size
    _, g = np.unique(np.asarray(cluster).astype(str), return_inverse=True)
    return g.ravel(), int(np.max(g)) + 1


def _mean_se(
    S: np.ndarray, w: np.ndarray, groups: np.ndarray | None, n_groups: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Weighted mean per column, its SE (Miller; clustered when ``groups``), the problems
    and the clusters that entered each column (NaN entries are left out)."""
    mask = np.isfinite(S)
    S0 = np.where(mask, S, 0.0)
    wm = w[:, None] * mask
    W = wm.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (w @ S0) / W
        d = np.where(mask, S0 - mean[None, :], 0.0) * wm  # w_i (s_i - mean)
        N = mask.sum(axis=0)
        se2 = N / (N - 1.0) * (d**2).sum(axis=0) / W**2
        if groups is not None:
            gsum = np.zeros((n_groups, S.shape[1]))
            np.add.at(gsum, groups, d)
            cross = (gsum**2).sum(axis=0) - (d**2).sum(axis=0)  # sum over i != j in a cluster
            se2 = se2 + cross / W**2
            gpresent = np.zeros((n_groups, S.shape[1]), dtype=bool)
            np.logical_or.at(gpresent, groups, mask)
            G = gpresent.sum(axis=0)
        else:
            G = N
    se = np.sqrt(np.clip(se2, 0.0, None))
    return mean, se, N, G


def _standard_error_iv(
    s: Any, cluster: Any, weight: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int, bool]:
    S = as_float_array(s, "s", allow_nan=True, allow_bool=True, mask_as_nan=True)  # masked: left out, as NaN
    if S.ndim not in (1, 2):
        raise PasscurveError(f"`s` must be 1-d or 2-d (got {S.ndim} dimensions)")
    one = S.ndim == 1
    S2 = S[:, None] if one else S
    if np.isinf(S2).any():
        raise PasscurveError("`s` contains an infinite value")
    N = S2.shape[0]
    if N < 2:
        raise PasscurveError(f"`s` needs at least 2 problems for a standard error (got {N})")
    scored = int(np.isfinite(S2).sum())
    if one and scored < 2:  # NaN (and masked) entries are left out: [0.5, nan] gave (0.5, nan) without a word
        raise PasscurveError(f"`s` needs at least 2 problems with a score for a standard error (got {scored} of "
                             f"{N}; NaN and masked entries are left out)")
    w = np.ones(N) if weight is None else check_weights(weight, N, of="`s`")
    groups, G = (None, N)
    if cluster is not None:
        cl = as_id_array(cluster, "cluster", N, of="`s` (problems)", per="problem")
        groups, G = _group_index(cl, N)
    return S2, w, groups, G, one


def standard_error(s: Any, *, cluster: Any = None, weight: Any = None) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    r"""Mean of per-problem scores and its standard error, counting problems (Miller 2024).

    .. math:: SE^2 = \frac{1}{N(N-1)}\sum_i (s_i-\bar s)^2, \qquad
              SE_{cl}^2 = SE^2 + \frac{1}{N^2}\sum_c \sum_{i\ne j \in c}(s_i-\bar s)(s_j-\bar s)

    With weights :math:`w_i` the mean is :math:`\sum w_i s_i/\sum w_i` and every
    :math:`(s_i-\bar s)` becomes :math:`w_i(s_i-\bar s)`, :math:`N^2` becomes
    :math:`(\sum w_i)^2` (the linearised ratio estimator).

    Parameters
    ----------
    s : array_like, shape (N,) or (N, K)
        Per-problem scores (e.g. per-problem pass@k estimates); NaN entries, and the masked entries of a numpy
        masked array, are left out (1-d: at least 2 must remain; 2-d: a column with fewer gets a NaN SE).
    cluster : array_like, shape (N,), optional
        Cluster id per problem (e.g. the document several questions are about).
    weight : array_like, shape (N,), optional

    Returns
    -------
    (mean, se) : floats for 1-d input, else arrays of shape (K,)

    References
    ----------
    E. Miller, "Adding Error Bars to Evals", arXiv:2411.00640 (eqs. for SE and clustered SE).

    Examples
    --------
    >>> m, se = standard_error([1, 1, 0, 1, 0, 0, 0, 1, 1], cluster=[0, 0, 0, 1, 1, 2, 2, 2, 2])
    >>> round(m, 4), round(se, 5)
    (0.5556, 0.07459)
    """
    S2, w, groups, G, one = _standard_error_iv(s, cluster, weight)
    mean, se, _, _ = _mean_se(S2, w, groups, G)
    if one:
        return float(mean[0]), float(se[0])
    return mean, se


def _jackknife_means(S0: np.ndarray, wm: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Leave-one-cluster-out weighted means, shape (G, K), in closed form."""
    T = (wm * S0).sum(axis=0)
    W = wm.sum(axis=0)
    tg = np.zeros((n_groups, S0.shape[1]))
    wg = np.zeros((n_groups, S0.shape[1]))
    np.add.at(tg, groups, wm * S0)
    np.add.at(wg, groups, wm)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (T[None, :] - tg) / (W[None, :] - wg)


# ----------------------------------------------------------------------------------------
# bootstrap engines (vectorised over replicates, chunked)
# ----------------------------------------------------------------------------------------
_ROW_BINCOUNT = 1024
"""From this many items on, :func:`_multinomial_counts` counts row by row (same numbers)."""
_DISTINCT_ROWS = True
"""Resample problems over their distinct rows (:func:`_distinct_problems`); False: problem by problem (benchmark)."""


def _multinomial_counts(rng: np.random.Generator, b: int, size: int) -> np.ndarray:
    """(b, size) counts of ``size`` draws with replacement from ``size`` items, per row.

    For many items each row is counted on its own, straight into the float64 result: one bincount over the whole
    chunk (b x size offsets added to the draws, then an int64 count array, then its float64 copy) wrote at random
    over a 16 MB array and held four b x size arrays; the bootstrap of a 20,000-problem model spent 0.6 s of its
    1.8 s in it for 2000 replicates, row by row 0.2 s. The draws and the counts are the same.
    """
    idx = rng.integers(0, size, size=(b, size))
    if size < _ROW_BINCOUNT:  # short rows: one call, not b of them
        flat = (idx + (np.arange(b) * size)[:, None]).ravel()
        return np.bincount(flat, minlength=b * size).reshape(b, size).astype(np.float64)
    out = np.empty((b, size))
    for r in range(b):
        out[r] = np.bincount(idx[r], minlength=size)
    return out


class _Distinct(NamedTuple):
    """Problems that share a row: ``first`` indexes one problem per distinct (n, c, weight), ``u`` counts the
    problems holding it, ``tag`` names the set (seeds the draws, :func:`_boot_means`)."""

    first: np.ndarray
    u: np.ndarray
    tag: list[int]


def _distinct_problems(n: np.ndarray, c: np.ndarray, w: np.ndarray) -> _Distinct | None:
    """The distinct (n, c, weight) of one model's problems, when at most half as many as the problems (every
    score of a problem is a function of its n and c, so problems that share them share a row of scores at every
    k: the partition is the same for every chunk of k); None otherwise (the resample is drawn problem by
    problem)."""
    if not _DISTINCT_ROWS:
        return None
    key = np.ascontiguousarray(np.column_stack([n.astype(np.float64), c.astype(np.float64), w.astype(np.float64)]))
    _, first, u = np.unique(key.view(np.dtype((np.void, 24))).ravel(), return_index=True, return_counts=True)
    if 2 * u.size > n.size:
        return None
    digest = hashlib.blake2b(key[first].tobytes() + u.astype(np.int64).tobytes(), digest_size=16).digest()
    return _Distinct(first, u, np.frombuffer(digest, dtype=np.uint32).tolist())


def _boot_means(
    S: np.ndarray,
    w: np.ndarray,
    groups: np.ndarray,
    n_groups: int,
    n_resamples: int,
    rng: np.random.Generator,
    distinct: _Distinct | None = None,
) -> np.ndarray:
    """Replicate means (B, K): clusters (or problems) resampled with replacement.

    With ``distinct`` (problems resampled one by one, no clusters; :func:`_distinct_problems`) the resample is
    drawn over the distinct rows: the multiplicities of a resample of P problems, summed over the u_j problems
    that share row j, are Multinomial(P, u/P), the same law as summing per-problem draws, at a cost in distinct
    rows instead of problems. A benchmark with equal n has at most n + 1 of them: 100,000 problems at n = 200,
    1,000 replicates of the simultaneous band took 4.9 s drawn problem by problem
    (``benchmarks/bench_bootstrap_rows.py``). The draws come from a stream seeded by one draw of ``rng`` and the
    set of rows, so that two models restarted on the same stream (:func:`passcurve._validation.model_streams`)
    are not resampled alike by the rank of their rows (problem by problem, they share each problem's
    multiplicity, a pairing by problem; over sorted distinct rows that sharing would be by value, an artefact).
    """
    if distinct is not None:
        child = np.random.default_rng(np.random.SeedSequence([int(rng.integers(2**63)), *distinct.tag]))
        total, u = int(distinct.u.sum()), distinct.u
        return _replicate_means(S[distinct.first], w[distinct.first], n_resamples, u.size,
                                lambda b: child.multinomial(total, u / total, size=b).astype(np.float64))
    return _replicate_means(S, w, n_resamples, n_groups, lambda b: _multinomial_counts(rng, b, n_groups)[:, groups])


def _replicate_means(S: np.ndarray, w: np.ndarray, n_resamples: int, width: int, draw: Any) -> np.ndarray:
    """Replicate means (B, K) of the rows of ``S`` (weights ``w``, NaN scores left out) under the multiplicities
    ``draw(b)`` returns, (b, rows) for b replicates at a time; ``width`` (the resampled units) sets the chunk."""
    mask = np.isfinite(S)
    wm = w[:, None] * mask
    num_mat = wm * np.where(mask, S, 0.0)
    chunk = max(1, _CHUNK_ELEMS // max(width, 1))
    out = np.empty((n_resamples, S.shape[1]))
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        M = draw(b)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + b] = (M @ num_mat) / (M @ wm)
    return out


def _two_level_chunk(problems: int, k_size: int) -> int:
    """Replicates per draw of the two-level bootstrap: (replicates, problems, k) stays bounded."""
    return max(1, _CHUNK_ELEMS // max(problems * k_size, 1))


def _two_level_means(
    n: np.ndarray,
    c: np.ndarray,
    w: np.ndarray,
    ks: np.ndarray,
    metric: str,
    tau: float | None,
    n_resamples: int,
    rng: np.random.Generator,
    rows: int | None = None,
) -> np.ndarray:
    """Replicate means (B, K) of the shrunk two-level bootstrap (problems, then samples).

    ``rows`` replicates are drawn at a time (default :func:`_two_level_chunk` of this K); the
    draws depend on it, so evaluating chunks of k with the same ``rows`` and the same starting
    state gives the columns of one evaluation over all k.
    """
    N = n.size
    ph = c / n
    wn = w / w.sum()
    mu = float(wn @ ph)
    v_obs = float(wn @ (ph - mu) ** 2) * N / max(N - 1, 1)
    within = np.where(n > 1, ph * (1 - ph) / np.maximum(n - 1, 1), 0.0)
    v_b = max(v_obs - float(wn @ within), 0.0)
    lam = np.sqrt(v_b / v_obs) if v_obs > 0 else 0.0
    pt = np.clip(mu + lam * (ph - mu), 0.0, 1.0)
    # (n, c*) pairs are keyed by offs[n] + c*; with few distinct small n a full lookup table
    # over c = 0..n is cheapest, otherwise only the pairs drawn in a chunk are evaluated
    un = np.unique(n)
    offs = np.concatenate([[0], np.cumsum(un + 1)[:-1]])
    row_off = offs[np.searchsorted(un, n)]
    table = None
    if int((un + 1).sum()) <= 20000:
        tn = np.repeat(un, un + 1)
        tc = np.arange(tn.size) - np.repeat(offs, un + 1)
        table = _scores_pairs(tn, tc, ks, metric, tau)
    chunk = rows if rows is not None else _two_level_chunk(N, ks.size)
    out = np.empty((n_resamples, ks.size))
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        idx = rng.integers(0, N, size=(b, N))
        cb = rng.binomial(n[idx], pt[idx])
        key = (row_off[idx] + cb).ravel()
        if table is not None:
            sc = table[key].reshape(b, N, ks.size)
        else:
            ukey, inv = np.unique(key, return_inverse=True)
            pos = np.searchsorted(offs, ukey, side="right") - 1
            sc = _scores_pairs(un[pos], ukey - offs[pos], ks, metric, tau)[inv.ravel()].reshape(b, N, ks.size)
        mask = np.isfinite(sc)
        wb = w[idx][:, :, None] * mask
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + b] = (wb * np.where(mask, sc, 0.0)).sum(axis=1) / wb.sum(axis=1)
    return out


def _sorted_reps(reps: np.ndarray) -> np.ndarray:
    # NaN replicates (a resample with no problem where n >= k) go last and are ignored
    return np.sort(reps, axis=0)


def _percentile(reps: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        lo = np.nanquantile(reps, alpha / 2, axis=0)
        hi = np.nanquantile(reps, 1 - alpha / 2, axis=0)
    return lo, hi


def _bca(reps: np.ndarray, theta: np.ndarray, jack: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """BCa interval (Efron 1987) per column of the (B, K) replicates."""
    B = np.isfinite(reps).sum(axis=0)
    # a replicate within rounding of the estimate is a tie (counted half): the same mean summed in another
    # order (the exact paths of a chunk of k) differs by a few ulps, and z0 must not depend on that
    tol = 1e-12 * np.abs(theta)[None, :]
    tie = np.abs(reps - theta[None, :]) <= tol
    less = (reps < theta[None, :] - tol).sum(axis=0) + 0.5 * tie.sum(axis=0)
    prop = np.clip(less / np.maximum(B, 1), 1.0 / (B + 1), B / (B + 1.0))
    z0 = stats.norm.ppf(prop)
    with np.errstate(invalid="ignore", divide="ignore"):
        jm = np.nanmean(jack, axis=0)
        dev = jm[None, :] - jack
        num = np.nansum(dev**3, axis=0)
        den = 6.0 * np.nansum(dev**2, axis=0) ** 1.5
        a = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    za = stats.norm.ppf([alpha / 2, 1 - alpha / 2])
    qs = []
    for z in za:
        t = z0 + z
        qs.append(stats.norm.cdf(z0 + t / (1 - a * t)))
    srt = _sorted_reps(reps)
    lo_q = np.clip(qs[0], 0.0, 1.0)
    hi_q = np.clip(qs[1], 0.0, 1.0)
    # quantiles among the finite replicates of each column
    Bf = np.maximum(B, 1)
    lo = _col_quantile_n(srt, lo_q, Bf)
    hi = _col_quantile_n(srt, hi_q, Bf)
    degenerate = ~np.isfinite(z0) | (np.nanmax(reps, axis=0) == np.nanmin(reps, axis=0))
    lo = np.where(degenerate, theta, lo)
    hi = np.where(degenerate, theta, hi)
    return lo, hi


def _col_quantile_n(srt: np.ndarray, q: np.ndarray, nfin: np.ndarray) -> np.ndarray:
    """The q-quantile of each column's ``nfin`` finite (sorted-first) replicates; a column with a NaN q (no
    finite replicate, e.g. a k above every n under ``k_gt_n="drop"``) gets its first entry, for the caller to
    replace (the floor of NaN as an integer index was INT_MIN)."""
    pos = np.where(np.isfinite(q), q, 0.0) * (nfin - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, nfin - 1)
    frac = pos - lo
    cols = np.arange(srt.shape[1])
    return srt[lo, cols] * (1 - frac) + srt[hi, cols] * frac


def _rare(S: np.ndarray) -> np.ndarray:
    r"""Columns whose mean rests on fewer than ``_RARE`` problems (from either end).

    The effective number of problems carrying the mean, :math:`(\sum s_i)^2/\sum s_i^2`
    (and the same for :math:`1-s_i`), is small when a few problems hold most of the mass:
    then no resampling of the observed problems can show how much a rarely drawn problem
    would move the mean (pass^k at large k on a heavy-tailed benchmark).
    """
    def ess(x: np.ndarray) -> np.ndarray:
        # the ratio is scale-free: divide by each column's largest value first, so that tiny
        # scores (pass^k at large k, 1e-319) do not underflow to 0/0 when squared
        top = x.max(axis=0)
        x = x / np.where(top > 0, top, 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(x.any(axis=0), x.sum(axis=0) ** 2 / (x**2).sum(axis=0), 0.0)

    ess_pos = ess(np.where(np.isfinite(S), S, 0.0))
    ess_neg = ess(np.where(np.isfinite(S), 1.0 - S, 0.0))
    # a column without any problem (all NaN: n < k everywhere) has no mean and no interval to warn about
    return ((ess_pos < _RARE) | (ess_neg < _RARE)) & np.isfinite(S).any(axis=0)


def _wilson_t(
    mean: np.ndarray, se: np.ndarray, N: np.ndarray, df: np.ndarray, alpha: float, cap: np.ndarray | bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval on the effective number of problems, t quantile (Korn & Graubard).

    ``cap`` (per column): truncate the effective number at the number of problems, as
    Korn & Graubard do; used in the rare-event regime.
    """
    t = stats.t.ppf(1 - alpha / 2, np.maximum(df, 1))
    var_bern = mean * (1 - mean)
    with np.errstate(invalid="ignore", divide="ignore"):
        neff = np.where((se > 0) & (var_bern > 0), var_bern / se**2, N)
    neff = np.where(cap, np.minimum(neff, N), neff)
    neff = np.maximum(neff, 1.0)
    t2n = t**2 / neff
    root = t * np.sqrt(var_bern / neff + t**2 / (4 * neff**2))
    # the lower end center - half, with center = (p + t2n/2)/(1 + t2n) and half = root/(1 + t2n), written without
    # the cancellation: (p + t2n/2)^2 - root^2 = p^2 (1 + t2n), so it is p^2/(p + t2n/2 + root), a ratio of positive
    # terms. The difference lost every digit at small means: pass^k of a model whose mean was 1.1e-11 (300
    # problems) got the lower end 8.7e-19 (the ulp of t2n/2) instead of 9.7e-21, its neighbours 0 and 8.7e-19 in
    # turn. The upper end center + half is a sum of positive terms already
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.clip(mean**2 / (mean + t2n / 2 + root), 0.0, 1.0)
    hi = np.clip((mean + t2n / 2 + root) / (1 + t2n), 0.0, 1.0)
    # the estimate is always inside (rounding at the boundaries)
    return np.minimum(lo, mean), np.maximum(hi, mean)


# ----------------------------------------------------------------------------------------
# one score matrix -> interval (shared by curve_intervals and compare)
# ----------------------------------------------------------------------------------------
def _interval_from_scores(
    S: np.ndarray,
    w: np.ndarray,
    groups: np.ndarray | None,
    n_groups: int,
    method: str,
    alpha: float,
    n_resamples: int,
    rng: np.random.Generator,
    *,
    bounded: bool = True,
    two_level: tuple[np.ndarray, np.ndarray, np.ndarray, str, float | None] | None = None,
    two_level_rows: int | None = None,
    distinct: _Distinct | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, low, high, se) per column of S (N, K) for one method; ``distinct`` as in :func:`_boot_means`."""
    g = groups if groups is not None else np.arange(S.shape[0])
    G = n_groups if groups is not None else S.shape[0]
    mean, se, N, Gk = _mean_se(S, w, groups, G)
    rare = _rare(S) if bounded else np.zeros(S.shape[1], dtype=bool)
    if method in ("analytic", "cluster"):
        df = Gk - 1.0
        if bounded:
            lo, hi = _wilson_t(mean, se, N.astype(float), df, alpha, rare)
        else:
            t = stats.t.ppf(1 - alpha / 2, np.maximum(df, 1))
            lo, hi = mean - t * se, mean + t * se
        return mean, lo, hi, se
    if method == "two-level":
        n, c, ks, metric, tau = two_level  # type: ignore[misc]
        reps = _two_level_means(n, c, w, ks, metric, tau, n_resamples, rng, rows=two_level_rows)
        se_b = np.nanstd(reps, axis=0, ddof=1)
        lo_r, hi_r = _percentile(reps, alpha)
        shift = mean - np.nanmean(reps, axis=0)
        lo, hi = lo_r + shift, hi_r + shift
    else:
        reps = _boot_means(S, w, g, G, n_resamples, rng, distinct if groups is None else None)
        se_b = np.nanstd(reps, axis=0, ddof=1)
        if method == "bootstrap":
            lo, hi = _percentile(reps, alpha)
        elif method == "bca":
            mask = np.isfinite(S)
            jack = _jackknife_means(np.where(mask, S, 0.0), w[:, None] * mask, g, G)
            lo, hi = _bca(reps, mean, jack, alpha)
        elif method == "band":
            with np.errstate(invalid="ignore", divide="ignore"):
                z = np.abs(reps - mean[None, :]) / se_b[None, :]
            z = np.where(se_b[None, :] > 0, z, 0.0)
            tmax = np.nanmax(z, axis=1)
            q = float(np.quantile(tmax, 1 - alpha))
            lo, hi = mean - q * se_b, mean + q * se_b
        else:  # pragma: no cover
            raise PasscurveError(f"unknown method {method!r}")
    if bounded:
        lo, hi = _widen_rare(mean, se, Gk, np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0), rare, alpha)
    lo = np.minimum(lo, mean)
    hi = np.maximum(hi, mean)
    return mean, lo, hi, se_b


def rare_message(metric: str, items: Sequence[tuple[str, np.ndarray]], n_k: int, also: str = "") -> str:
    """The warning that ``metric``'s mean rests on fewer than ``_RARE`` problems (its interval is then the Wilson
    bound of :func:`_widen_rare`): ``items`` are (model, the k where it does), ``n_k`` the number of k asked,
    ``also`` a clause the caller adds (rank: what it means for the ranks). One message for curve_intervals and
    rank_models: each model with its first four such k, and how many of the ``n_k`` when there are more."""
    def where(at: np.ndarray) -> str:
        return "k=" + ", ".join(str(int(x)) for x in at[:4]) + (f", ... ({at.size} of {n_k} k)" if at.size > 4 else "")

    what = f"{FEW_PROBLEMS} (nearly every other problem scores 0 there, or 1: the effective number of problems is small)"
    tail = f"the interval there is {WILSON_BOUND} (wide)" + also
    label = metric_name(metric)
    if len(items) == 1:
        name, at = items[0]
        return f"model {name!r}, {label}: {what} at {where(at)}; {tail}"
    parts = "; ".join(f"{name!r} at {where(at)}" for name, at in items)
    return f"{label}: {what}, for {len(items)} models ({parts}); {tail}"


def _widen_rare(
    mean: np.ndarray, se: np.ndarray, Gk: np.ndarray, lo: np.ndarray, hi: np.ndarray, rare: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """A resampling interval (lo, hi) where the mean rests on few problems (``rare``, :func:`_rare`): widened to the
    rare-event Wilson bound on the number of problems (or clusters) ``Gk``, since no resampling of the observed
    problems can see beyond a handful of non-zero ones. Other columns are returned as they are."""
    if not rare.any():
        return lo, hi
    wlo, whi = _wilson_t(mean, se, Gk.astype(float), Gk - 1.0, alpha, True)
    return np.where(rare, np.minimum(lo, wlo), lo), np.where(rare, np.maximum(hi, whi), hi)


# ----------------------------------------------------------------------------------------
# public: curve_intervals
# ----------------------------------------------------------------------------------------
_MEMORY_BUDGET = 4e9  # bytes of replicate means a simultaneous band may hold (peak about 3x)
_CHUNK_BUDGET = 1e9  # bytes of scores + replicate means per chunk of k (peak about 3x)


def _curve_intervals_iv(
    counts: Any,
    k: Any,
    metric: Any,
    method: str,
    confidence_level: Any,
    n_resamples: Any,
    rng: Any,
    tau: Any,
    cluster: Any,
    k_gt_n: str,
    design: Any = None,
) -> tuple[Counts, np.ndarray, tuple[str, ...], float, int, np.random.Generator, float | None, np.ndarray | None,
           Any]:
    check_counts_object(counts)
    design = check_design(design)
    if metric is None:
        metric = ("pass_at_k", "pass_pow_k") if design is None else ("pass_at_k",)
    check_choice(method, "method", INTERVAL_METHODS)
    metrics = check_choices(metric, "metric", INTERVAL_METRICS)
    if design is not None:
        design.check(counts.n, counts.c, metrics, None if k is None else as_int_array(k, "k", minimum=1))
        if method == "two-level":
            raise PasscurveError(
                'method "two-level" resamples the samples of a problem as if n were fixed; under a stop-at-success '
                'design use "analytic", "bootstrap", "bca", "cluster" or "band"'
            )
    t = check_tau(tau, metrics)
    level = check_confidence_level(confidence_level)
    B = check_positive_int(n_resamples, "n_resamples", minimum=100, maximum=MAX_RESAMPLES)
    gen = check_rng(rng)
    check_k_gt_n(k_gt_n)
    if k is None:
        top = default_top(counts, k_gt_n, design)
        ks = with_own_ends(np.unique(np.round(np.geomspace(1, top, 20)).astype(np.int64)), counts, k_gt_n, design)
    else:
        ks = budget_grid(k, "k")
        if k_gt_n == "raise" and design is None:
            check_k_le_min_n(counts.n, ks, counts.problem, counts.model)
    cl = _cluster_ids(counts, cluster)
    if method == "cluster" and cl is None:
        raise PasscurveError('method "cluster" needs cluster ids: pass `cluster=` or build Counts with `cluster=`')
    if method == "two-level" and cl is not None:
        raise PasscurveError(
            'method "two-level" resamples problems, not clusters; use method "bootstrap" or "cluster" with cluster ids'
        )
    # the simultaneous band needs its replicate means (replicates x k) at every k at once;
    # every other method runs in chunks of k (see _k_chunks)
    rows = int(np.max(np.bincount(np.unique(counts.model.astype(str), return_inverse=True)[1].ravel())))
    need = 8.0 * ks.size * (rows + B)
    if method == "band" and need > _MEMORY_BUDGET:
        raise PasscurveError(
            f"`k`: a simultaneous band over {ks.size:,} values of k for {rows:,} problems x {B} replicates needs "
            f"about {need / 1e9:.0f} GB (budget {_MEMORY_BUDGET / 1e9:.0f} GB); ask for fewer k (a log-spaced grid "
            "such as 1,10,100,...) or fewer replicates"
        )
    return counts, ks, metrics, level, B, gen, t, cl, design


def _k_chunks(size: int, rows: int, B: int, method: str) -> list[slice]:
    """Column chunks of the k grid whose work arrays (rows + replicates) x chunk fit the budget."""
    width = rows + (B if method not in ("analytic", "cluster") else 0)
    step = max(1, int(_CHUNK_BUDGET // (8.0 * max(width, 1))))
    if method == "band" or step >= size:
        return [slice(0, size)]
    return [slice(s0, min(s0 + step, size)) for s0 in range(0, size, step)]


def curve_intervals(
    counts: Counts,
    k: Any = None,
    *,
    metric: Any = None,
    method: str = "analytic",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
    tau: float | None = None,
    cluster: Any = None,
    k_gt_n: str = "raise",
    weighted: bool = True,
    design: Any = None,
) -> CurveResult:
    r"""pass@k-family curves with confidence intervals that count problems, not samples.

    The estimate at each k is the (weighted) mean over problems of the per-problem
    unbiased estimates, exactly as :func:`passcurve.curve`; the interval describes where
    the *population* pass_D@k lies, the mean over the distribution the problems were drawn
    from (the benchmark is one sample of problems; each problem's rate is estimated from
    its n samples). See the module docstring for the formulas of each method.

    Parameters
    ----------
    counts : Counts
    k : int or sequence of int, optional
        Default: about 20 log-spaced budgets from 1 to the smallest n. Sorted ascending, repeats
        removed: the result's ``k`` is the order of its values, not the order given.
    metric : str or sequence of str, optional
        Any of "pass_at_k", "pass_pow_k", "g_pass_at_k" (needs ``tau``). Default: pass@k and
        pass^k (pass@k alone under a stop-at-success ``design``).
    method : {"analytic", "cluster", "bootstrap", "bca", "two-level", "band"}
        "band" gives a simultaneous band over all the k (max-statistic bootstrap).
    confidence_level : float, default 0.95
    n_resamples : int, default 2000
        Bootstrap replicates (>= 100).
    rng : None, int or numpy Generator
    tau : float, optional
        The threshold of G-pass@k_τ.
    cluster : array_like, optional
        Cluster id per row of ``counts`` (default ``counts.cluster``). With clusters, the
        analytic methods use Miller's clustered SE and the bootstraps resample clusters.
        ``cluster=False`` ignores ``counts.cluster`` (treats problems as independent).
    k_gt_n : {"raise", "drop", "nan"}
        As in :func:`passcurve.curve` ("nan": each model's intervals to its own smallest n).
    weighted : bool, default True
        Use ``counts.weight`` when present.
    design : StopAtSuccess, optional
        As in :func:`passcurve.curve`: per-problem stopping-time estimates of pass@k (only
        ``metric="pass_at_k"``; every method but "two-level", which resamples samples within
        a problem as if n were fixed).

    Returns
    -------
    CurveResult
        With ``intervals[metric] = (low, high)``, ``confidence_level`` and ``interval_method``.

    References
    ----------
    E. Miller, "Adding Error Bars to Evals", arXiv:2411.00640. B. Efron, "Better bootstrap
    confidence intervals", JASA 1987. A. C. Davison and D. V. Hinkley, *Bootstrap Methods and
    their Application* (1997), §3.8. E. Korn and B. Graubard, "Confidence intervals for
    proportions with small expected number of positive counts", Survey Methodology 1998.

    Examples
    --------
    >>> from passcurve import Counts
    >>> cnt = Counts.from_arrays([10] * 4, [0, 3, 7, 10])
    >>> res = curve_intervals(cnt, [1], metric="pass_at_k")
    >>> round(float(res.values["pass_at_k"][0, 0]), 2)
    0.5
    """
    weighted = check_flag(weighted, "weighted")
    counts, ks, metrics, level, B, gen, tau_v, cl, design = _curve_intervals_iv(
        counts, k, metric, method, confidence_level, n_resamples, rng, tau, cluster, k_gt_n, design
    )
    alpha = 1 - level
    models, summary, problems, dropped = [], [], [], []
    vals: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    lows: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    highs: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    warns: list[str] = []
    rare_at: dict[str, list[tuple[str, np.ndarray]]] = {m: [] for m in metrics}
    few: dict[str, list[np.ndarray]] = {m: [] for m in metrics}
    names = counts.models
    _, code = np.unique(counts.model.astype(str), return_inverse=True)
    first = {str(counts.model[i]): int(code[i]) for i in np.unique(code.ravel(), return_index=True)[1]}
    order = np.argsort(code.ravel(), kind="stable")
    bounds = np.searchsorted(code.ravel()[order], np.arange(int(np.max(code)) + 2))
    restart = model_streams(gen)
    for name in names:
        restart()  # a model's replicates do not depend on the other models in the input
        j = first[name]
        rows = order[bounds[j] : bounds[j + 1]]
        sub = counts.take(rows)
        w = sub.weight if (weighted and sub.weight is not None) else np.ones(len(sub))
        groups, G = (None, len(sub)) if cl is None else _group_index(cl[rows], len(sub))
        models.append(name)
        summary.append(sub.samples_summary())
        if design is None:
            used = (sub.n[:, None] >= ks[None, :]).sum(axis=0)
        else:  # solved problems count at every k; unsolved ones that stopped before k cannot
            used = design.estimable(sub.n, sub.c, ks).sum(axis=0)
        ok = own_range(used, len(sub), k_gt_n)
        kk = ks[ok]  # a prefix: ``used`` does not grow with k
        used = np.where(ok, used, 0)
        problems.append(used)
        dropped.append(len(sub) - used)
        nd = int((len(sub) - used)[ok].max(initial=0))
        if nd:
            why = "problems that stopped unsolved before k" if design is not None else "problems with n < k"
            msg = f"model {name!r}: {why} were left out of the mean (up to {nd} of {len(sub)})"
            record_warning(warns, msg, DroppedProblemsWarning)
        if G < 2:
            msg = f"model {name!r}: fewer than 2 {'clusters' if cl is not None else 'problems'}; intervals are undefined"
            record_warning(warns, msg, DegenerateDataWarning)
        chunks = _k_chunks(kk.size, len(sub), B, method)
        two_level_rows = _two_level_chunk(len(sub), kk.size)
        distinct = _distinct_problems(sub.n, sub.c, w) if cl is None and method in ("bootstrap", "bca", "band") else None
        # every metric replays the same replicates too: pass@1 and pass^1 are one mean (c/n), and the bootstrap
        # gave them two intervals ([0.2593, 0.3245] and [0.2600, 0.3247] for large-70b of the demo, seed 0), each
        # metric drawing on from where the last one ended
        state = gen.bit_generator.state
        for m in metrics:
            if not kk.size:  # "nan": the model reaches none of these k
                for out in (vals, lows, highs):
                    out[m].append(np.full(ks.size, np.nan))
                few[m].append(np.zeros(ks.size, dtype=bool))
                continue
            pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
            for sl in chunks:
                # every chunk of k replays the same replicates (the same resampled problems), so
                # the result equals one pass over all k and the stream ends where that pass would
                gen.bit_generator.state = state
                S = _scores(sub.n, sub.c, kk[sl], m, tau_v) if design is None else design.scores(sub.n, sub.c, kk[sl])
                if G < 2:
                    with np.errstate(invalid="ignore", divide="ignore"):
                        est = _mean_se(S, w, groups, G)[0]
                    pieces.append((est, np.full_like(est, np.nan), np.full_like(est, np.nan), np.zeros(est.size, bool)))
                    continue
                with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
                    warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns (n < k everywhere)
                    est, lo, hi, _ = _interval_from_scores(
                        S, w, groups, G, method, alpha, B, gen, two_level=(sub.n, sub.c, kk[sl], m, tau_v),
                        two_level_rows=two_level_rows, distinct=distinct,
                    )
                pieces.append((est, lo, hi, _rare(S)))
            est, lo, hi = (_pad(np.concatenate(x), ks.size) for x in list(zip(*pieces, strict=True))[:3])
            rare = np.concatenate([p[3] for p in pieces])
            if rare.any():
                rare_at[m].append((name, kk[rare]))
            few[m].append(np.concatenate([rare, np.zeros(ks.size - rare.size, dtype=bool)]))
            vals[m].append(est)
            lows[m].append(lo)
            highs[m].append(hi)
    for m, items in rare_at.items():  # one warning per measure, however many models it concerns
        if items:
            record_warning(warns, rare_message(m, items, ks.size), DegenerateDataWarning)
    label = method if cl is None or method in ("cluster", "two-level") else f"{method} (clustered)"
    return CurveResult(
        models=tuple(models),
        k=ks,
        values={m: np.vstack(v) for m, v in vals.items()},
        problems=np.vstack(problems),
        dropped=np.vstack(dropped),
        summary=tuple(summary),
        intervals={m: (np.vstack(lows[m]), np.vstack(highs[m])) for m in metrics},
        confidence_level=level,
        interval_method=label,
        warnings=tuple(warns),
        design=None if design is None else design.label(),
        tau=tau_v,
        few_problems={m: np.vstack(few[m]) for m in metrics},
    )
