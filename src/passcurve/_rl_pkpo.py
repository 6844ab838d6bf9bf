r"""PKPO reward transforms (Walder & Karkhanis 2025, arXiv:2505.15201): numpy core + array interop.

For one group of n rewards g (sorted ascending, g_(1) <= ... <= g_(n)) and a budget k <= n,
PKPO replaces every reward by a transformed reward s_i whose policy-gradient estimate
:math:`\sum_i s_i \nabla \log \pi(x_i)` is unbiased for the gradient of max@k = E[max of k
rewards] (pass@k for binary rewards):

.. math:: s_i = \binom{n}{k}^{-1} \sum_{K \ni i,\,|K| = k} \max_{j \in K} g_j
              = \binom{n}{k}^{-1}\Bigl[\tbinom{i-1}{k-1} g_{(i)}
                + \sum_{j>i} \tbinom{j-2}{k-2} g_{(j)}\Bigr].

How it is computed here (O(n log n) per group: one sort, then cumulative sums). Write
the sorted rewards through their gaps :math:`d_l = g_{(l+1)} - g_{(l)} \ge 0`. The number
of k-subsets containing i whose maximum lies above :math:`g_{(l)}` gives

.. math:: s_i = \tfrac{k}{n}\, g_{(n)} - \sum_{l \ge i} d_l \binom{l-1}{k-1}\Big/\binom{n}{k},
          \qquad
          \hat\rho = g_{(n)} - \sum_{l} d_l \binom{l}{k}\Big/\binom{n}{k},

and the recommended "loo-1" reward (baseline: the max of the other k-1 members of each
subset) becomes a sum of non-negative terms,

.. math:: s_i^{\text{loo}-1} = \sum_{l<i} d_l \binom{l}{k-1}\Big/\binom{n}{k} \;\ge 0 .

Gap form has three virtues: tied rewards get bit-identical outputs (a zero gap adds
nothing), "loo-1" never goes negative through rounding, and its sum has no terms of
opposite sign. The "none" and "loo" rewards subtract a sum from (k/n)·g_(n), which costs
relative (not absolute) precision when a reward is tiny beside the group's top one:
rewards (0.5, 0, ..., 0) with n = 10^6, k = 2 give the zeros' reward 1e-12 to 5e-11
relative (1e-22 absolute); binary rewards take the exact path below (2e-16). Every
binomial enters only as a ratio :math:`\binom{l}{K}/\binom{m}{K}`, built as a reverse
cumulative sum of ``log1p(-K/j)`` (never C(n, k) itself), so n in the thousands or
millions neither overflows nor loses digits.

Binary rewards (every value exactly 0 or 1) take a sort-free O(n) path through the
closed forms (correct: k/n; incorrect: (k/n)·ρ(n-1, c, k-1)); the general path gives
the same numbers on such input (tested).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ._errors import PasscurveError
from ._estimators import _log_fail
from ._validation import as_float_array, check_choice, fmt

__all__ = ["pkpo_rewards", "max_at_k", "BASELINES"]

BASELINES = ("none", "loo", "loo-1")


# ----------------------------------------------------------------------------------------
# array interop: numpy in, the caller's array type out (torch without importing torch)
# ----------------------------------------------------------------------------------------
def _is_torch(x: Any) -> bool:
    return (
        type(x).__module__.split(".")[0] == "torch"
        and hasattr(x, "detach")
        and hasattr(x, "is_floating_point")
        and hasattr(x, "new_tensor")
    )


def _to_numpy(x: Any, name: str) -> tuple[np.ndarray, Callable[[np.ndarray], Any]]:
    """``x`` as float64 numpy plus a function turning a float64 result back into x's kind.

    * numpy arrays, lists, scalars → numpy float64 out;
    * torch tensors (duck-typed; torch is never imported here) → a tensor on x's device,
      with x's dtype when x is floating, else torch's default float dtype; no autograd graph
      (PKPO rewards are constants in the policy-gradient estimate);
    * other array-API arrays (``__array_namespace__``: JAX, CuPy, array-api-strict, ...) →
      ``xp.asarray`` on x's device with x's floating dtype (else the namespace's float64).
    """
    if isinstance(x, np.ndarray) or np.isscalar(x) or isinstance(x, list | tuple):
        # the shared reader: np.asarray(x, dtype=float64) had read the strings "1" and "0" as rewards, used the masked
        # entries of a masked array and a date's days since 1970 (NaN and emptiness are _pkpo_iv's to say)
        return _numbers(x, name), lambda out: out
    if _is_torch(x):
        t = x.detach()
        arr = t.to("cpu").double().numpy()
        torch = sys.modules[type(x).__module__.split(".")[0]]
        dtype = x.dtype if x.is_floating_point() else torch.get_default_dtype()

        def back_torch(out: np.ndarray) -> Any:
            return x.new_tensor(out, dtype=dtype)

        return arr, back_torch
    if hasattr(x, "__array_namespace__"):
        xp = x.__array_namespace__()
        try:
            arr = np.asarray(x, dtype=np.float64)
        except Exception:
            arr = np.from_dlpack(x).astype(np.float64)
        floating = False
        try:
            floating = bool(xp.isdtype(x.dtype, "real floating"))
        except Exception:
            floating = np.issubdtype(np.dtype(str(x.dtype)), np.floating) if hasattr(x, "dtype") else False
        dtype = x.dtype if floating else getattr(xp, "float64", None)
        device = getattr(x, "device", None)

        def back_xp(out: np.ndarray) -> Any:
            kw: dict[str, Any] = {"dtype": dtype}
            if device is not None:
                kw["device"] = device
            try:
                return xp.asarray(out, **kw)
            except TypeError:
                return xp.asarray(out, dtype=dtype)

        return arr, back_xp
    try:
        np.asarray(x)
    except (TypeError, ValueError):
        raise PasscurveError(f"`{name}` must be an array of numbers (got {type(x).__name__})") from None
    if np.ndim(x) == 0 and np.asarray(x).dtype == object:  # a dict, a set, an object: no array of numbers
        raise PasscurveError(f"`{name}` must be an array of numbers (got {type(x).__name__})")
    return _numbers(x, name), lambda out: out


def _numbers(x: Any, name: str) -> np.ndarray:
    """``x`` as float64 through :func:`as_float_array` (booleans are rewards 0/1); an empty ``x`` stays empty and
    NaN stays NaN, for :func:`_pkpo_iv`'s own messages."""
    try:
        if np.size(x) == 0 and not isinstance(x, np.ma.MaskedArray):
            return np.asarray(x, dtype=np.float64)
    except ValueError:  # a ragged sequence: as_float_array says so
        pass
    return as_float_array(x, name, allow_nan=True, allow_bool=True)


# ----------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------
def _pkpo_iv(rewards: Any, k: Any, baseline: str) -> tuple[np.ndarray, int, Callable[[np.ndarray], Any], bool]:
    g, back = _to_numpy(rewards, "rewards")
    if g.ndim not in (1, 2):
        raise PasscurveError(f"`rewards` must have shape (n,) or (groups, n) (got {g.ndim} dimensions)")
    if g.size == 0:
        raise PasscurveError("`rewards` is empty")
    if not np.isfinite(g).all():
        raise PasscurveError("`rewards` contains NaN or an infinite value")
    one = g.ndim == 1
    g2 = g[None, :] if one else g
    n = g2.shape[1]
    if isinstance(k, bool) or not isinstance(k, int | np.integer | float | np.floating):
        raise PasscurveError(f"`k` must be an integer in [1, n] (got {k!r})")
    if not float(k).is_integer() or not 1 <= int(k) <= n:
        raise PasscurveError(f"`k` must be an integer in [1, n] (got k={fmt(k)}, n={n})")
    check_choice(baseline, "baseline", BASELINES)
    k = int(k)
    if baseline == "loo" and k > n - 1:
        raise PasscurveError(
            f'`baseline="loo"` needs k <= n - 1 (got k={k}, n={n}): the baseline is max@k of the other n - 1 samples'
        )
    return g2, k, back, one


# ----------------------------------------------------------------------------------------
# numerical kernels (float64 numpy, shape (groups, n))
# ----------------------------------------------------------------------------------------
def _binom_ratio(m: int, K: int) -> np.ndarray:
    """C(l, K) / C(m, K) for l = 0..m (0 where l < K), from a reverse cumsum of log1p(-K/j)."""
    out = np.zeros(m + 1)
    if K == 0:
        out[:] = 1.0
        return out
    if K > m:
        return out
    j = np.arange(K + 1, m + 1, dtype=np.float64)  # log C(l,K)/C(m,K) = sum_{j=l+1}^{m} log1p(-K/j)
    terms = np.log1p(-K / j)
    logs = np.concatenate([np.cumsum(terms[::-1])[::-1], [0.0]])  # l = K..m
    out[K:] = np.exp(logs)
    return out


def _suffix_sum(a: np.ndarray) -> np.ndarray:
    """Inclusive suffix sums along axis 1."""
    return np.cumsum(a[:, ::-1], axis=1)[:, ::-1]


def _general(g: np.ndarray, k: int, baseline: str) -> np.ndarray:
    """PKPO rewards for any real rewards, via one sort and the gap formulas."""
    G, n = g.shape
    order = np.argsort(g, axis=1, kind="stable")
    gs = np.take_along_axis(g, order, axis=1)
    top = gs[:, -1:]
    out_sorted = np.empty_like(gs)
    if n == 1:
        # k = 1: s = g; loo-1 with k = 1 falls back to loo, which needs n >= 2 (checked)
        out_sorted[:] = gs
    else:
        d = np.diff(gs, axis=1)  # (G, n-1): d[:, l-1] = g_(l+1) - g_(l), l = 1..n-1
        l_idx = np.arange(1, n)  # 1-based gap index l
        # s_i = (k/n) g_(n) - sum_{l>=i} d_l C(l-1,k-1)/C(n,k);  C(l-1,k-1)/C(n,k) = (k/n) C(l-1,k-1)/C(n-1,k-1)
        r_km1 = _binom_ratio(n - 1, k - 1)  # C(l, k-1)/C(n-1, k-1), l = 0..n-1
        a = (k / n) * r_km1[l_idx - 1]
        tail = np.zeros((G, n))
        tail[:, :-1] = _suffix_sum(d * a)  # position i (0-based) holds sum over l >= i+1
        s = (k / n) * top - tail
        if baseline == "none":
            out_sorted[:] = s
        elif baseline == "loo-1" and k >= 2:
            # sum_{l<i} d_l C(l,k-1)/C(n,k) = (k/n) sum_{l<i} d_l C(l,k-1)/C(n-1,k-1)
            b = (k / n) * r_km1[l_idx]
            out_sorted[:, 0] = 0.0
            out_sorted[:, 1:] = np.cumsum(d * b, axis=1)
        else:
            # loo (and loo-1 at k = 1): s_i - k/(n-1) * rho_{-i}(k), rho on the other n-1 samples:
            # rho_{-i} = g_(n) - [sum_{l<i} d_l C(l,k) + d_i C(i-1,k) + sum_{l>i} d_l C(l-1,k)] / C(n-1,k)
            r_k = _binom_ratio(n - 1, k)  # C(l, k)/C(n-1, k), l = 0..n-1
            dp = np.zeros((G, n + 1))  # dp[:, l] = d_l for l = 1..n-1; d_0 = d_n = 0
            dp[:, 1:n] = d
            pre = np.zeros((G, n))  # sum_{l<i} d_l C(l,k), i = 1..n
            pre[:, 1:] = np.cumsum(d * r_k[l_idx], axis=1)
            mid = dp[:, 1 : n + 1] * r_k[np.arange(0, n)]  # d_i C(i-1,k)
            post = np.zeros((G, n))  # sum_{l>i} d_l C(l-1,k): suffix sums shifted by one
            post[:, : n - 2] = _suffix_sum(d * r_k[l_idx - 1])[:, 1:]
            rho_minus = top - (pre + mid + post)
            out_sorted[:] = s - (k / (n - 1)) * rho_minus
    out = np.empty_like(g)
    np.put_along_axis(out, order, out_sorted, axis=1)
    return out


def _log_ratio(m: int, c: np.ndarray, kk: int) -> np.ndarray:
    """log C(m - c, kk) / C(m, kk) per group (-inf where kk > m - c), the estimators' exact log-product.

    Groups share m, so only distinct c are computed (at most n + 1 of them).
    """
    uc, inv = np.unique(np.asarray(c, dtype=np.int64), return_inverse=True)
    logf = _log_fail(np.full(uc.shape, m, dtype=np.int64), uc, np.full(uc.shape, kk, dtype=np.int64))
    return logf[inv.ravel()]


def _pass_ratio(m: int, c: np.ndarray, kk: int) -> np.ndarray:
    """C(m - c, kk) / C(m, kk)."""
    return np.exp(_log_ratio(m, c, kk))


def _one_minus_ratio(m: int, c: np.ndarray, kk: int) -> np.ndarray:
    """1 - C(m - c, kk) / C(m, kk) = Chen's pass@kk, without cancellation when it is tiny."""
    return -np.expm1(_log_ratio(m, c, kk))


def _binary(f: np.ndarray, k: int, baseline: str) -> np.ndarray:
    """Closed forms for 0/1 rewards (Walder & Karkhanis 2025, binary case); no sort."""
    G, n = f.shape
    c = f.sum(axis=1).astype(np.int64)  # correct per group
    correct = f == 1.0
    # s: correct k/n, incorrect (k/n) rho(n-1, c, k-1) = (k/n) (1 - C(n-1-c, k-1)/C(n-1, k-1))
    if k == 1:
        s_inc = np.zeros(G)
    else:
        s_inc = (k / n) * _one_minus_ratio(n - 1, c, k - 1)
    s = np.where(correct, k / n, s_inc[:, None])
    if baseline == "none":
        return s
    if baseline == "loo-1" and k >= 2:
        # correct: (k/n) C(n-c, k-1)/C(n-1, k-1) = (k/n) F(n-1, c-1, k-1); incorrect: 0
        cor = (k / n) * _pass_ratio(n - 1, np.maximum(c - 1, 0), k - 1)
        return np.where(correct, cor[:, None], 0.0)
    # loo: s_i - k/(n-1) rho(n-1, c - f_i, k)
    rho_c = _one_minus_ratio(n - 1, np.maximum(c - 1, 0), k)  # sample i correct: others have c-1
    rho_i = _one_minus_ratio(n - 1, np.minimum(c, n - 1), k)  # sample i incorrect: others have c
    base = np.where(correct, rho_c[:, None], rho_i[:, None])
    return s - (k / (n - 1)) * base


def _is_binary(g: np.ndarray) -> bool:
    return bool(((g == 0.0) | (g == 1.0)).all())


# ----------------------------------------------------------------------------------------
# public
# ----------------------------------------------------------------------------------------
def pkpo_rewards(rewards: Any, k: int, baseline: str = "loo-1", *, _path: str = "auto") -> Any:
    r"""PKPO transformed rewards: optimise pass@k (max@k) with a plain policy gradient.

    Replace the rewards of each group of n samples (one prompt) by these before the usual
    policy-gradient / GRPO update; :math:`\sum_i s_i \nabla\log\pi(x_i)` is then an unbiased
    estimate of the gradient of max@k (pass@k for binary rewards), for any k <= n.

    .. math:: s_i = \binom{n}{k}^{-1} \sum_{K \ni i,\,|K|=k} \max_{j\in K} g_j

    (binary: correct k/n, incorrect (k/n)·ρ(n-1, c, k-1), ρ = Chen's pass@k). Baselines,
    each independent of sample i so the estimate stays unbiased:

    * ``"none"``: :math:`s_i`.
    * ``"loo"``: :math:`s_i - \frac{k}{n-1}\hat\rho_{-i}(k)`, the mean transformed reward of the
      other n-1 samples (needs k <= n-1).
    * ``"loo-1"`` (default, recommended by the paper): :math:`s_i - \frac{k}{n}\hat\rho_{-i}(k-1)`,
      i.e. in every k-subset the sample is credited only with how much it raises the max
      of the other k-1; always >= 0, and 0 for every incorrect sample with binary rewards.
      At k = 1 (the max of zero others is undefined) it falls back to ``"loo"``, so a
      schedule that anneals k to 1 keeps working.

    Parameters
    ----------
    rewards : array_like, shape (n,) or (groups, n)
        Real rewards, one row per group (prompt). numpy arrays, torch tensors (CPU or GPU;
        torch is not imported by passcurve, the tensor is recognised by duck typing) and
        array-API arrays are accepted.
    k : int
        The budget, 1 <= k <= n.
    baseline : {"loo-1", "loo", "none"}

    Returns
    -------
    array of the same shape and kind as ``rewards``
        numpy in, numpy (float64) out; torch in, torch out on the same device (same
        floating dtype, or torch's default float for bool/int input; detached); array-API
        in, the same namespace out.

    Notes
    -----
    Binary detection: when every value of the batch is exactly 0 or 1 (bool, int or float
    input), the closed forms above are used without sorting. Anything else (a 0.5, or
    0/2 rewards) takes the general path, which is exact for binary input too: binary is
    the special case of the continuous formulas (the two paths agree to 1e-12, tested).

    O(n log n) per group (one sort and cumulative sums over the gaps between sorted
    rewards); binary 0/1 input skips the sort. Binomial coefficients enter only as ratios
    built in log space, so n in the thousands (or millions) is exact to rounding.

    References
    ----------
    C. Walder and D. Karkhanis, "Pass@K Policy Optimization: Solving Harder Reinforcement
    Learning Problems", arXiv:2505.15201 (2025).

    Examples
    --------
    >>> import numpy as np
    >>> g = np.array([1, 0, 0, 1, 0, 0, 1, 0])
    >>> pkpo_rewards(g, 4, baseline="none").round(6)
    array([0.5     , 0.442857, 0.442857, 0.5     , 0.442857, 0.442857,
           0.5     , 0.442857])
    >>> pkpo_rewards(g, 4).round(6)  # loo-1
    array([0.142857, 0.      , 0.      , 0.142857, 0.      , 0.      ,
           0.142857, 0.      ])
    """
    g, k, back, one = _pkpo_iv(rewards, k, baseline)
    if baseline == "loo-1" and k == 1:
        if g.shape[1] < 2:
            raise PasscurveError('`baseline="loo-1"` at k=1 falls back to "loo", which needs n >= 2 (got n=1)')
        baseline = "loo"
    use_binary = _path == "binary" or (_path == "auto" and _is_binary(g))
    out = _binary(g, k, baseline) if use_binary else _general(g, k, baseline)
    out = out + 0.0
    return back(out[0] if one else out)


def max_at_k(rewards: Any, k: int) -> Any:
    r"""Unbiased estimate of max@k (pass@k for 0/1 rewards) from each group of n rewards.

    .. math:: \hat\rho^{(g)} = \binom{n}{k}^{-1} \sum_{i \ge k} \binom{i-1}{k-1} g_{(i)}

    (g sorted ascending), the mean of the max over all k-subsets of the group; for binary
    rewards it is Chen's :math:`1 - \binom{n-c}{k}/\binom{n}{k}`.

    Parameters
    ----------
    rewards : array_like, shape (n,) or (groups, n)
    k : int, 1 <= k <= n

    Returns
    -------
    float for one group, else an array of shape (groups,) of the input's kind.

    References
    ----------
    Walder & Karkhanis 2025, arXiv:2505.15201.

    Examples
    --------
    >>> round(max_at_k([0, .5, .2, 1, .3, 0, .8, .6], 4), 6)
    0.847143
    """
    g, k, back, one = _pkpo_iv(rewards, k, "none")
    n = g.shape[1]
    gs = np.sort(g, axis=1)
    d = np.diff(gs, axis=1)
    r = _binom_ratio(n, k)  # C(l, k)/C(n, k)
    rho = gs[:, -1] - (d * r[np.arange(1, n)]).sum(axis=1)
    if one:
        res = back(rho[0:1])
        return float(rho[0]) if isinstance(rewards, np.ndarray | list | tuple) or np.isscalar(rewards) else res[0]
    return back(rho)
