r"""pass@k policy gradients vs pass@1: prompt weights, interference kernel, conflict (seed 002).

With per-prompt success probability p(x) under the policy and a prompt distribution π,

.. math:: J_k = E_x[1 - (1-p(x))^k], \qquad
          \nabla J_k = E_x[w_k(x)\,\nabla p(x)], \qquad w_k(p) = k(1-p)^{k-1},

so a pass@k gradient is the pass@1 gradient with prompts reweighted toward the hard ones
(w_1 = 1). With the interference kernel :math:`\kappa(x,x') = \langle\nabla p(x), \nabla
p(x')\rangle` and agreement score :math:`a(x) = \langle\nabla p(x), \nabla J_1\rangle =
E_{x'}[\kappa(x,x')]`,

.. math:: \langle\nabla J_k, \nabla J_1\rangle = E_x[w_k(x)\,a(x)],

and a small pass@k step lowers pass@1 (to first order) exactly when this is negative. It
equals :math:`\|\nabla J_1\|^2 \ge 0` at k = 1; as k grows the weight moves to low-p prompts,
and if those have negative agreement (they interfere with the easy ones) the sign flips.

Reference: Barakat et al. 2026, "Why pass@k optimization can degrade pass@1",
arXiv:2602.21189 (seed 002). Pure numerics, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize

from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._results import ReadOnlyResult, brief_repr, frame_html, pandas_module
from ._validation import (
    as_float_array,
    check_broadcast,
    check_flag,
    check_probability,
    check_scalar,
    check_weights,
    fmt,
)

__all__ = ["pass_at_k_weights", "prompt_kernel", "gradient_conflict", "ConflictResult", "DEFAULT_CONFLICT_K"]

DEFAULT_CONFLICT_K = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)


def _json(x: Any) -> Any:
    x = float(x)
    return x if np.isfinite(x) else None


def _k_real_iv(k: Any) -> np.ndarray:
    k_a = as_float_array(k, "k")
    if (k_a < 1).any():
        raise PasscurveError(f"`k` must be >= 1 (got k={fmt(k_a[k_a < 1].ravel()[0])})")
    return k_a


def pass_at_k_weights(p: Any, k: Any) -> Any:
    r"""Per-prompt weight of the pass@k gradient relative to the pass@1 gradient.

    .. math:: w_k(p) = \frac{\partial}{\partial p}\bigl[1-(1-p)^k\bigr] = k(1-p)^{k-1}

    k may be real (>= 1), which makes the conflict threshold k* continuous. w_1 = 1 for
    every p (including p = 1).

    Parameters
    ----------
    p : array_like of float in [0, 1]
    k : array_like of float >= 1 (broadcasts with ``p``)

    Returns
    -------
    float or ndarray
        w_k(p), a float when both inputs are scalars, else an array of their broadcast shape.

    References
    ----------
    Barakat et al. 2026, arXiv:2602.21189, Eq. (2).

    Examples
    --------
    >>> pass_at_k_weights([0.9, 0.1], 2)
    array([0.2, 1.8])
    """
    p_a = check_probability(p, "p")
    k_a = _k_real_iv(k)
    p_a, k_a = check_broadcast("`p` and `k`", p_a, k_a)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = k_a * np.where(k_a == 1, 1.0, np.exp((k_a - 1) * np.log1p(-p_a)))
    out = out + 0.0
    if np.ndim(p) == 0 and np.ndim(k) == 0:
        return float(out)
    return out


def _grads_iv(p: Any, grads: Any, prompt_weight: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    p_a = check_probability(p, "p").ravel()
    g = as_float_array(grads, "grads")
    if g.ndim == 1:
        g = g[:, None]
    if g.ndim != 2:
        raise PasscurveError(f"`grads` must have shape (prompts, parameters) (got {g.ndim} dimensions)")
    if g.shape[0] != p_a.size:
        raise PasscurveError(f"`grads` has {g.shape[0]} rows but `p` has {p_a.size} prompts")
    if prompt_weight is None:
        w = np.full(p_a.size, 1.0 / p_a.size)
    else:
        w = check_weights(prompt_weight, p_a.size, "prompt_weight", of="`p`")
        w = w / w.sum()
    return p_a, g, w


def prompt_kernel(grads: Any, *, cosine: bool = False) -> np.ndarray:
    r"""Prompt interference kernel :math:`\kappa(x, x') = \langle\nabla p(x), \nabla p(x')\rangle`.

    Negative entries are negatively interfering prompt pairs: a step that helps one hurts
    the other. With ``cosine=True`` the entries are normalised to cosines (0 where a
    gradient is zero).

    Parameters
    ----------
    grads : array_like, shape (P, D)
        Per-prompt gradients of the success probability with respect to the D parameters.
    cosine : bool, default False
        Normalise each entry by the two gradients' norms (cosines; 0 where a gradient is zero).

    Returns
    -------
    ndarray, shape (P, P)

    References
    ----------
    Barakat et al. 2026, arXiv:2602.21189, Section 3 (Fig. 5 shows the cosine kernel).
    """
    cosine = check_flag(cosine, "cosine")
    g = as_float_array(grads, "grads")
    if g.ndim != 2:
        raise PasscurveError(f"`grads` must have shape (prompts, parameters) (got {g.ndim} dimensions)")
    K = g @ g.T
    if cosine:
        norm = np.sqrt(np.clip(np.diag(K), 0, None))
        with np.errstate(divide="ignore", invalid="ignore"):
            K = np.where(np.outer(norm, norm) > 0, K / np.outer(norm, norm), 0.0)
    return K


@dataclass(frozen=True, eq=False)
class ConflictResult(ReadOnlyResult):
    """How pass@k gradients align with the pass@1 gradient as k grows.

    Attributes
    ----------
    k : ndarray, shape (K,)
    inner : ndarray, shape (K,)
        ⟨∇J_k, ∇J_1⟩ = E_x[w_k a]; negative means a pass@k step lowers pass@1.
    cosine : ndarray, shape (K,)
        cos of the angle between ∇J_k and ∇J_1.
    norm : ndarray, shape (K,)
        ‖∇J_k‖.
    k_star : float
        Smallest k >= 1 (k real) with ⟨∇J_k, ∇J_1⟩ < 0; ``inf`` if it never turns
        negative (searched on a grid up to ``k_max``, and beyond it when its sign as k → ∞,
        that of the hardest prompts' summed agreement, is negative); NaN if ∇J_1 = 0.
    p, agreement, prompt_weight : ndarray, shape (P,)
        Success rates, agreement scores a(x) = ⟨∇p(x), ∇J_1⟩, prompt distribution.
    grad_j1 : ndarray, shape (D,)
    negative_fraction : float
        Weighted fraction of prompts with a(x) < 0 (the interfering ones).
    kernel : ndarray (P, P) or None
        κ = G Gᵀ when asked for (``with_kernel=True``).
    warnings : tuple of str
    """

    __repr__ = brief_repr

    k: np.ndarray
    inner: np.ndarray
    cosine: np.ndarray
    norm: np.ndarray
    k_star: float
    p: np.ndarray
    agreement: np.ndarray
    prompt_weight: np.ndarray
    grad_j1: np.ndarray
    negative_fraction: float
    kernel: np.ndarray | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``k_star``, ``negative_fraction``, ``grad_j1_norm``, ``curve`` (per k: ``k``,
        ``inner``, ``cosine``, ``norm``) and ``prompts`` (per prompt: ``p``, ``agreement``, ``weight``)."""
        out: dict[str, Any] = {
            "k_star": _json(self.k_star),
            "negative_fraction": float(self.negative_fraction),
            "grad_j1_norm": float(np.linalg.norm(self.grad_j1)),
            "curve": [
                {"k": float(k), "inner": float(i), "cosine": _json(c), "norm": float(nm)}
                for k, i, c, nm in zip(self.k, self.inner, self.cosine, self.norm, strict=True)
            ],
            "prompts": [
                {"p": float(p), "agreement": float(a), "weight": float(w)}
                for p, a, w in zip(self.p, self.agreement, self.prompt_weight, strict=True)
            ],
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per k: columns ``k``, ``inner``, ``cosine``, ``norm``."""
        pd = pandas_module()

        return pd.DataFrame({"k": self.k, "inner": self.inner, "cosine": self.cosine, "norm": self.norm})

    def plot(self) -> Any:
        """⟨∇J_k, ∇J_1⟩ against k (log axis), with k* marked.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        fig.add_trace(go.Scatter(x=self.k, y=self.inner, mode="lines+markers", name="⟨∇J_k, ∇J_1⟩"))
        fig.add_hline(y=0, line={"color": "gray", "width": 1})
        if np.isfinite(self.k_star):
            fig.add_vline(
                x=self.k_star,
                line={"dash": "dash", "color": "firebrick"},
                annotation_text=f"k* ≈ {self.k_star:.3g}",
            )
        fig.update_layout(
            xaxis_title="k (pass@k objective)",
            yaxis_title="⟨∇pass@k, ∇pass@1⟩",
            template="plotly_white",
        )
        fig.update_xaxes(type="log")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _k_star(p: np.ndarray, aw: np.ndarray, k_max: float) -> float:
    """First k >= 1 with sum_x aw (1-p)^(k-1) < 0 (aw = prompt weight * agreement)."""
    live = aw != 0
    if not live.any():
        return float("nan")
    p, aw = p[live], aw[live]
    with np.errstate(divide="ignore"):
        lq = np.log1p(-np.minimum(p, 1.0))  # -inf where p == 1
    top = lq.max()
    if top == -np.inf:  # every live prompt has p = 1: h(k) = 0 for k > 1
        return float("inf")

    def h(k: float | np.ndarray) -> Any:
        # scaled by (1-p_min)^-(k-1) so nothing underflows; same sign as <grad J_k, grad J_1>
        kk = np.asarray(k, dtype=np.float64)[..., None] - 1.0
        with np.errstate(invalid="ignore"):
            e = np.where(np.isneginf(lq), np.where(kk == 0, 1.0, 0.0), np.exp(kk * (lq - top)))
        return (e * aw).sum(axis=-1)

    if h(1.0) <= 0:
        return 1.0
    grid = np.concatenate([[1.0], np.geomspace(1.0 + 1e-9, k_max, 4000)])
    vals = h(grid)
    neg = np.flatnonzero(vals < 0)
    if neg.size == 0:
        # Beyond k_max h(k) tends to the summed agreement of the prompts with the smallest p (the slowest decay):
        # when that is negative the inner product turns negative past k_max, found by doubling k (within floats)
        if not aw[lq == top].sum() < 0:
            return float("inf")
        lo = hi = float(grid[-1])
        while not h(hi) < 0:
            if hi > np.finfo(np.float64).max / 2:
                return float("inf")  # the turn lies beyond the largest float
            lo, hi = hi, 2.0 * hi
    else:
        j = int(neg[0])
        lo, hi = grid[j - 1], grid[j]
        if j == 1:
            return 1.0  # jump at k = 1 (prompts with p = 1 drop out for any k > 1)
    return float(optimize.brentq(lambda x: float(h(x)), lo, hi, xtol=1e-12, rtol=1e-12))


def _gradient_conflict_iv(p: Any, grads: Any, k: Any, prompt_weight: Any, k_max: Any,
                          with_kernel: Any = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    p_a, g, w = _grads_iv(p, grads, prompt_weight)
    k_a = _k_real_iv(k).ravel()
    check_flag(with_kernel, "with_kernel")
    # the result keeps p and k: copies, so that the caller's buffers (a training loop refills p in place) are theirs;
    # k_max finite: the k* search runs on a log grid up to k_max (inf made it NaN with a numpy RuntimeWarning)
    return p_a.copy(), g, w, k_a.copy(), check_scalar(k_max, "k_max", low=1, low_open=True)


def gradient_conflict(
    p: Any,
    grads: Any,
    k: Any = DEFAULT_CONFLICT_K,
    *,
    prompt_weight: Any = None,
    with_kernel: bool = False,
    k_max: float = 1e6,
) -> ConflictResult:
    r"""Does a pass@k gradient step lower pass@1? Agreement scores, ⟨∇J_k, ∇J_1⟩ over k, and k*.

    .. math:: \langle\nabla J_k, \nabla J_1\rangle = E_x[w_k(x)\,a(x)], \quad
              a(x) = \langle\nabla p(x), \nabla J_1\rangle, \quad w_k = k(1-p)^{k-1}

    computed in O(P·D) without forming the P×P kernel (ask for it with ``with_kernel``).
    k* is the smallest real k >= 1 where the inner product turns negative (a first sign
    change of an exponential sum in k, bracketed on a fine log grid up to ``k_max`` and
    solved with Brent's method).

    Parameters
    ----------
    p : array_like, shape (P,)
        Per-prompt success probability under the current policy.
    grads : array_like, shape (P, D)
        Per-prompt gradient of p(x) with respect to the (flattened) parameters, e.g. from
        your model's autograd; a (P,) vector is read as D = 1.
    k : array_like of float >= 1
        Budgets at which to report the curve.
    prompt_weight : array_like, shape (P,), optional
        The prompt distribution (normalised); uniform by default.
    with_kernel : bool
        Also return κ = G Gᵀ (P×P memory).
    k_max : float
        Upper end of the k* search's grid. Where the inner product is still positive at ``k_max`` but
        negative in the limit k → ∞ (the hardest prompts' agreement sums to less than 0), k* is found
        beyond it by doubling k; else k* is ``inf``.

    Returns
    -------
    ConflictResult

    References
    ----------
    Barakat et al. 2026, arXiv:2602.21189; toy in ../shared/REFERENCE.md (k* ≈ 1.446).

    Examples
    --------
    >>> r = gradient_conflict([0.9, 0.1], [[2, 0], [-1, 0.5]], k=[1, 2, 4, 8])
    >>> r.inner.round(5).tolist(), round(r.k_star, 3)
    ([0.3125, -0.2375, -0.54475, -0.71744], 1.446)
    """
    p_a, g, w, k_a, k_max = _gradient_conflict_iv(p, grads, k, prompt_weight, k_max, with_kernel)
    warns: list[str] = []
    grad_j1 = w @ g  # (D,)
    a = g @ grad_j1  # (P,)
    W = pass_at_k_weights(p_a[None, :], k_a[:, None])  # (K, P)
    inner = (W * (w * a)[None, :]).sum(axis=1)
    gk = (W * w[None, :]) @ g  # (K, D)
    norm = np.linalg.norm(gk, axis=1)
    n1 = float(np.linalg.norm(grad_j1))
    with np.errstate(divide="ignore", invalid="ignore"):
        cos = np.where(norm * n1 > 0, inner / (norm * n1), np.nan)
    if n1 == 0:
        msg = "the pass@1 gradient is zero (every prompt at p = 0 or 1, or gradients cancel): no conflict to measure"
        record_warning(warns, msg, DegenerateDataWarning)
        ks = float("nan")
    else:
        ks = _k_star(p_a, w * a, float(k_max))
    return ConflictResult(
        k=k_a,
        inner=inner,
        cosine=cos,
        norm=norm,
        k_star=ks,
        p=p_a,
        agreement=a,
        prompt_weight=w,
        grad_j1=grad_j1,
        negative_fraction=float(w[a < 0].sum()),
        kernel=(g @ g.T) if with_kernel else None,
        warnings=tuple(warns),
    )
