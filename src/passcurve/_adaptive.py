r"""Estimation that stays valid when the number of samples depends on earlier outcomes.

Chen's pass@k estimator ``1 - C(n-c, k)/C(n, k)`` is unbiased when n is fixed in advance.
When n is a *stopping time* -- sampling stopped at the first successful batch (Best-of-N
jailbreaking), or an adaptive planner gave more samples to the problems with fewer
successes -- the successes are no longer exchangeable with the n samples, and the plain
estimator is biased (upward for stop-at-success designs: a problem solved early keeps a
small n and a large c/n).

Two kinds of estimators stay valid:

* **Likelihood-based estimators** (the likelihood principle). Whatever the stopping rule,
  as long as the decision to draw another sample depends only on outcomes already seen,
  the probability of one problem's whole history is
  :math:`\prod_t P(\text{decision}_t \mid \text{past}) \cdot p^{c}(1-p)^{n-c}`, and the
  decision factors do not involve p. So the likelihood of p is the binomial kernel
  :math:`p^c (1-p)^{n-c}` and the beta-binomial marginal likelihood
  :math:`B(c+\alpha, n-c+\beta)/B(\alpha, \beta)` is unchanged up to a constant: the
  beta-binomial MLE (Kazdan et al. 2025, arXiv 2510.05197) and the per-problem posterior
  mean :func:`posterior_pass_at_k` can be computed from (n, c) exactly as for fixed-n data.
  They are consistent, not exactly unbiased (as they are for fixed n).
* **Design-unbiased estimators** where they exist: :func:`stopping_pass_at_k` (the
  Rao-Blackwellised estimator for stop-at-first-successful-batch designs), the Chen
  estimator of a non-adaptive prefix (the first n0 samples of every problem), and
  Haldane's inverse-binomial estimator :func:`inverse_binomial_p` for
  "sample until r successes". No unbiased estimator of pass@k exists when a problem can
  stop without a success before k attempts.

The beta-binomial fit here (:func:`fit_beta_binomial`) is the minimal one the planner
needs; the difficulty-fit module (``fit_difficulty``) is the place for the full family.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special

from ._difficulty import _beta_fail_var, _beta_log_moment
from ._errors import ConvergenceWarning, DegenerateDataWarning, PasscurveError
from ._estimators import pass_at_k
from ._pairs import distinct_pairs
from ._validation import (
    as_float_array,
    as_int_array,
    check_broadcast,
    check_counts,
    check_positive_int,
    check_scalar,
    check_weights,
    fmt,
    show_value,
)

__all__ = [
    "BetaPrior",
    "ZeroInflatedBetaPrior",
    "fit_zi_beta_binomial",
    "fit_beta_binomial",
    "beta_binomial_loglik",
    "posterior_pass_at_k",
    "hierarchical_pass_at_k",
    "stopping_pass_at_k",
    "stopping_loglik",
    "inverse_binomial_p",
]

_LOG_BOUNDS = (np.log(1e-3), np.log(1e6))


# ----------------------------------------------------------------------------------------
# beta-binomial fit (likelihood-based: valid under any outcome-dependent stopping rule)
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BetaPrior:
    """A fitted Beta(alpha, beta) difficulty distribution and how the fit went."""

    alpha: float
    beta: float
    loglik: float
    success: bool = True
    message: str = ""

    def pass_at_k(self, k: Any) -> Any:
        r"""Population pass_D@k = 1 - B(α, β+k)/B(α, β) (to the last digits; see ``_beta_log_moment``)."""
        k = np.asarray(k, dtype=np.float64)
        out = -np.expm1(_log_fail_posterior(self.alpha, self.beta, k))
        return float(out) if out.ndim == 0 else out

    impossible: float = 0.0

    def log_moment(self, c: Any, d: Any) -> np.ndarray:
        r"""log M(c, d) = log E[p^c (1-p)^d] = log B(α+c, β+d) - log B(α, β) (gammaln form)."""
        c = np.asarray(c, dtype=np.float64)
        d = np.asarray(d, dtype=np.float64)
        a, b = self.alpha, self.beta
        gl = special.gammaln
        return gl(a + c) + gl(b + d) - gl(a + b + c + d) - (gl(a) + gl(b) - gl(a + b))

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": "beta",
            "alpha": float(self.alpha),
            "beta": float(self.beta),
            "impossible": float(self.impossible),
            "loglik": float(self.loglik),
            "success": bool(self.success),
            "message": self.message,
        }


@dataclass(frozen=True)
class ZeroInflatedBetaPrior(BetaPrior):
    r"""A point mass ``impossible`` = π0 at p = 0 plus (1 - π0)·Beta(α, β).

    M(c, d) = (1 - π0)·B(α+c, β+d)/B(α, β) + π0·1{c = 0}: problems never solved in many
    samples become "impossible" in the posterior instead of being forced onto the Beta's
    left tail (the Beta has no mass at 0, which biases pass_D@k forecasts upward).
    """

    def log_moment(self, c: Any, d: Any) -> np.ndarray:
        c = np.asarray(c, dtype=np.float64)
        lm = BetaPrior.log_moment(self, c, d)
        if self.impossible <= 0:
            return lm
        with np.errstate(divide="ignore"):
            cont = np.log1p(-self.impossible) + lm
            return np.where(c == 0, np.logaddexp(cont, np.log(self.impossible)), cont)

    def pass_at_k(self, k: Any) -> Any:
        out = (1.0 - self.impossible) * np.asarray(BetaPrior.pass_at_k(self, k))
        return float(out) if out.ndim == 0 else out

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["model"] = "zi_beta"
        return d


def _unique_pairs(n: np.ndarray, c: np.ndarray, weight: np.ndarray | None) -> tuple[np.ndarray, ...]:
    key = np.stack([n, c], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    w = np.bincount(inv.ravel(), weights=weight, minlength=len(uniq)).astype(np.float64)
    return uniq[:, 0].astype(np.float64), uniq[:, 1].astype(np.float64), w


def beta_binomial_loglik(n: Any, c: Any, alpha: Any, beta: Any) -> Any:
    r"""Beta-binomial log-likelihood of each problem, without the C(n, c) constant.

    .. math:: \log B(c + \alpha, n - c + \beta) - \log B(\alpha, \beta)

    The constant C(n, c) depends on the sampling design (it is C(s, c) for a
    stop-at-first-successful-batch design with batch s) but never on (α, β), so the
    maximiser is the same under any outcome-dependent stopping rule.
    """
    n = np.asarray(n, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    return special.betaln(c + alpha, n - c + beta) - special.betaln(alpha, beta)


def _fit_beta_binomial_iv(n: Any, c: Any, weight: Any, *,
                          unsampled: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """1-d counts of one size and optional weights. With ``unsampled``, problems with n = 0 (not sampled yet, as in
    an online Planner's ``n_``; their c must be 0) are allowed beside at least one sampled problem."""
    n_a = as_int_array(n, "n", max_ndim=1).ravel()
    c_a = as_int_array(c, "c", max_ndim=1).ravel()
    if n_a.size != c_a.size:
        raise PasscurveError(f"`n` has {n_a.size} entries but `c` has {c_a.size}")
    if unsampled:
        sampled = n_a > 0
        if not sampled.any():
            raise PasscurveError("`n` must be >= 1 for at least one problem (got n=0 everywhere: nothing sampled yet)")
        check_counts(n_a[sampled], c_a[sampled])
        if (c_a[~sampled] > 0).any():
            raise PasscurveError("`c` must be <= n (got c > 0 with n=0)")
    else:
        n_a, c_a = check_counts(n_a, c_a)
    w = None
    if weight is not None:
        w = check_weights(weight, n_a.size)
    return n_a, c_a, w


def _fit_beta_binomial(
    n: np.ndarray, c: np.ndarray, w: np.ndarray | None, hyper: float = 0.0
) -> tuple[BetaPrior, list[tuple[type, str]]]:
    """The fit without warnings: returns the prior and the (category, message) pairs to report.

    ``hyper`` > 0 maximises the posterior under the hyperprior p(α, β) ∝ (α+β)^(-hyper)
    instead of the likelihood (hyper = 2.5: Gelman et al., Bayesian Data Analysis, 3rd ed.,
    §5.3). It keeps the concentration α+β finite when sparse data cannot identify the
    spread of difficulties (e.g. a handful of successes in 10 samples per problem, where
    the MLE jumps to a point mass and forecasts at large k explode).
    """
    un, uc, uw = _unique_pairs(n, c, w)
    keep = uw > 0
    un, uc, uw = un[keep], uc[keep], uw[keep]
    if uw.size == 0:
        raise PasscurveError("`weight` is zero for every problem")

    def nll(theta: np.ndarray) -> tuple[float, np.ndarray]:
        a, b = np.exp(theta)
        ll = uw * (special.betaln(uc + a, un - uc + b) - special.betaln(a, b))
        dab = special.digamma(un + a + b)
        d0 = special.digamma(a + b)
        ga = np.sum(uw * (special.digamma(uc + a) - dab - special.digamma(a) + d0))
        gb = np.sum(uw * (special.digamma(un - uc + b) - dab - special.digamma(b) + d0))
        pen = hyper * np.log(a + b)
        gpen = hyper / (a + b)
        return -float(ll.sum()) + pen, -np.array([ga * a, gb * b]) + np.array([gpen * a, gpen * b])

    # start: method of moments on the per-problem rates, clipped to something sane
    r = uc / un
    m = float(np.clip(np.average(r, weights=uw), 1e-4, 1 - 1e-4))
    v = float(np.average((r - m) ** 2, weights=uw))
    s = float(np.clip(m * (1 - m) / max(v, 1e-12) - 1, 0.05, 1e4))
    x0 = np.log(np.clip([m * s, (1 - m) * s], 1e-3, 1e6))
    res = optimize.minimize(nll, x0, jac=True, method="L-BFGS-B", bounds=[_LOG_BOUNDS, _LOG_BOUNDS])
    a, b = np.exp(res.x)
    msgs: list[tuple[type, str]] = []
    if not res.success:
        msgs.append(
            (
                ConvergenceWarning,
                f"beta-binomial fit did not converge ({res.message}); using the last iterate",
            )
        )
    if (uc == 0).all() or (uc == un).all():
        msgs.append(
            (
                DegenerateDataWarning,
                "every problem has c = 0 (or c = n): the beta-binomial MLE does not exist; "
                f"the fit stopped at alpha={a:.3g}, beta={b:.3g}",
            )
        )
    elif np.any(np.isclose(res.x, _LOG_BOUNDS, rtol=0, atol=1e-6)):
        msgs.append(
            (
                DegenerateDataWarning,
                f"beta-binomial fit reached a parameter bound (alpha={a:.3g}, beta={b:.3g}): "
                "the data barely constrain the difficulty distribution",
            )
        )
    ll = -float(res.fun) + hyper * float(np.log(a + b))
    return BetaPrior(float(a), float(b), ll, bool(res.success), str(res.message)), msgs


def fit_beta_binomial(n: Any, c: Any, *, weight: Any = None) -> BetaPrior:
    r"""Maximum-likelihood Beta(α, β) difficulty distribution from per-problem (n, c).

    Maximises :math:`\sum_i w_i [\log B(c_i+\alpha, n_i-c_i+\beta) - \log B(\alpha,\beta)]`
    over (log α, log β) with an analytic gradient (Kazdan et al. 2025, arXiv 2510.05197).
    The work is done once per distinct (n, c) pair.

    Valid for adaptively collected data: the likelihood of the full history factorises
    into the design's decision probabilities (free of p) times the binomial kernel.
    Parameters are kept in [1e-3, 1e6]; a fit at a bound (e.g. every c = 0) warns with
    :class:`DegenerateDataWarning`; optimizer failure sets ``success=False`` and warns
    with :class:`ConvergenceWarning`.
    """
    n_a, c_a, w = _fit_beta_binomial_iv(n, c, weight)
    prior, msgs = _fit_beta_binomial(n_a, c_a, w)
    for cat, msg in msgs:
        warnings.warn(msg, cat, stacklevel=2)
    return prior


def _fit_zi_beta_binomial(
    n: np.ndarray, c: np.ndarray, w: np.ndarray | None, hyper: float = 0.0
) -> tuple[ZeroInflatedBetaPrior, list[tuple[type, str]]]:
    """Zero-inflated beta-binomial MLE (no warnings; see :func:`fit_zi_beta_binomial`)."""
    base, msgs = _fit_beta_binomial(n, c, w, hyper)
    un, uc, uw = _unique_pairs(n, c, w)
    keep = uw > 0
    un, uc, uw = un[keep], uc[keep], uw[keep]
    zero = uc == 0
    if not zero.any():
        return ZeroInflatedBetaPrior(
            base.alpha, base.beta, base.loglik, base.success, base.message, 0.0
        ), msgs
    gl = special.gammaln

    def nll(theta: np.ndarray) -> float:
        a, b = np.exp(theta[:2])
        pi0 = special.expit(theta[2])
        lm = gl(a + uc) + gl(b + un - uc) - gl(a + b + un) - (gl(a) + gl(b) - gl(a + b)) + np.log1p(-pi0)
        lm = np.where(zero, np.logaddexp(lm, np.log(pi0)), lm)
        v = -float(uw @ lm) + hyper * np.log(a + b)
        return v if np.isfinite(v) else 1e300

    best = None
    frac0 = float(uw[zero].sum() / uw.sum())
    for pi_start in (0.5 * frac0, 0.9 * frac0):
        x0 = np.array([np.log(base.alpha), np.log(base.beta), special.logit(np.clip(pi_start, 1e-3, 0.99))])
        res = optimize.minimize(nll, x0, method="L-BFGS-B", bounds=[_LOG_BOUNDS, _LOG_BOUNDS, (-12.0, 8.0)])
        if best is None or res.fun < best.fun:
            best = res
    if best is None:  # the loop above always runs; this keeps the optimizer result non-optional
        raise RuntimeError("zero-inflated beta fit: no optimizer start was run")
    a, b = np.exp(best.x[:2])
    pi0 = float(special.expit(best.x[2]))
    if not best.success:
        msgs.append(
            (ConvergenceWarning, f"zero-inflated beta-binomial fit did not converge ({best.message})")
        )
    # the Beta-only fit is the pi0 -> 0 boundary: keep whichever likelihood is higher
    if best.fun > -base.loglik + hyper * np.log(base.alpha + base.beta):
        return ZeroInflatedBetaPrior(
            base.alpha, base.beta, base.loglik, base.success, base.message, 0.0
        ), msgs
    ll = -float(best.fun) + hyper * float(np.log(a + b))
    return ZeroInflatedBetaPrior(float(a), float(b), ll, bool(best.success), str(best.message), pi0), msgs


def fit_zi_beta_binomial(n: Any, c: Any, *, weight: Any = None) -> ZeroInflatedBetaPrior:
    r"""Maximum-likelihood zero-inflated Beta(α, β) with impossible mass π0 from per-problem (n, c).

    Likelihood per problem (without C(n, c)):
    :math:`(1-\pi_0) B(c+\alpha, n-c+\beta)/B(\alpha,\beta) + \pi_0 1\{c=0\}`. Like the
    beta-binomial fit it depends on the data only through the likelihood, so it stays valid
    under outcome-dependent (adaptive, stopping-time) sampling. Minimal version for the
    planner; ``fit_difficulty(model="zi_beta")`` is the full one (standard errors, AIC).
    """
    n_a, c_a, w = _fit_beta_binomial_iv(n, c, weight)
    prior, msgs = _fit_zi_beta_binomial(n_a, c_a, w)
    for cat, msg in msgs:
        warnings.warn(msg, cat, stacklevel=2)
    return prior


# ----------------------------------------------------------------------------------------
# hierarchical Bayes: integrate over the prior's parameters instead of plugging in a mode
# ----------------------------------------------------------------------------------------
_HB_COARSE = (-16.0, 10.0, -5.0, 16.0, 0.25)  # logit mean lo, hi; log concentration lo, hi; step
_HB_FINE = 61
_HB_DROP = 25.0  # keep the coarse cells within this many log units of the best one


def _hb_logpost(
    lm: np.ndarray, ls: np.ndarray, un: np.ndarray, uc: np.ndarray, uw: np.ndarray, hyper: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Log posterior density of (logit μ, log s) and the (α, β) of each grid point."""
    gl = special.gammaln
    mu = special.expit(lm)
    s = np.exp(ls)
    a, b = mu * s, (1.0 - mu) * s
    ll = (
        gl(a[:, None] + uc)
        + gl(b[:, None] + un - uc)
        - gl((a + b)[:, None] + un)
        - (gl(a) + gl(b) - gl(a + b))[:, None]
    ) @ uw
    # p(α, β) ∝ (α+β)^(-hyper); the Jacobian of (α, β) -> (logit μ, log s) is α β = μ(1-μ) s²
    lp = ll + np.log(mu) + np.log1p(-mu) + (2.0 - hyper) * ls
    return lp, a, b


def _hierarchical_forecast(
    n: np.ndarray, c: np.ndarray, k: float, w: np.ndarray | None = None, hyper: float = 2.5
) -> dict[str, Any]:
    """Posterior mean and SD of mean_i w_i (1-(1-p_i)^k), integrating over (α, β) on a grid.

    Two-stage grid in (logit μ, log s), μ = α/(α+β), s = α+β: a coarse grid over
    logit μ ∈ [-16, 10], log s ∈ [-5, 16] (step 0.25) locates the posterior mass, then a
    61 × 61 grid over its bounding box integrates. Returns the posterior mean and SD of the
    weighted forecast, the per-problem posterior means, and the posterior means of α, β.
    """
    n = np.asarray(n, dtype=np.float64).ravel()
    c = np.asarray(c, dtype=np.float64).ravel()
    wt = np.ones(n.size) if w is None else np.asarray(w, dtype=np.float64).ravel()
    key = np.stack([n, c], axis=1)
    uniq, inv = np.unique(key, axis=0, return_inverse=True)
    inv = inv.ravel()
    un, uc = uniq[:, 0], uniq[:, 1]
    uw = np.bincount(inv, weights=wt, minlength=un.size)
    lo_m, hi_m, lo_s, hi_s, step = _HB_COARSE
    gm, gs = np.meshgrid(
        np.arange(lo_m, hi_m + step / 2, step), np.arange(lo_s, hi_s + step / 2, step), indexing="ij"
    )
    lp, _, _ = _hb_logpost(gm.ravel(), gs.ravel(), un, uc, uw, hyper)
    keep = lp > lp.max() - _HB_DROP
    fm = np.linspace(gm.ravel()[keep].min() - step, gm.ravel()[keep].max() + step, _HB_FINE)
    fs = np.linspace(gs.ravel()[keep].min() - step, gs.ravel()[keep].max() + step, _HB_FINE)
    gm, gs = np.meshgrid(fm, fs, indexing="ij")
    lp, a, b = _hb_logpost(gm.ravel(), gs.ravel(), un, uc, uw, hyper)
    post = np.exp(lp - lp.max())
    sel = post > 1e-12 * post.max()
    post, a, b = post[sel] / post[sel].sum(), a[sel], b[sel]
    ap, bp = a[:, None] + uc, b[:, None] + un - uc
    # (grid, pairs): E[pass@k | data, θ] and Var[pass@k | data, θ], each to ~1e-15 relative. As 1 - h1 and h2 - h1² from
    # betaln differences, the per-problem pass@1 and the SD were off by up to 3.5e-3 and 1.7 relative on 100 problems
    # at n = 10^7 (docs/forecasting.md, "Precision of the Beta laws' moments")
    lf, v = _beta_fail_var(ap, bp, k)
    g = -np.expm1(lf)
    wn = wt / wt.sum()
    wpair = np.bincount(inv, weights=wn, minlength=un.size)
    w2pair = np.bincount(inv, weights=wn**2, minlength=un.size)
    f_theta = g @ wpair  # forecast given θ
    v_theta = v @ w2pair  # its variance given θ (problems independent given θ)
    mean = float(post @ f_theta)
    var = float(post @ v_theta + post @ (f_theta - mean) ** 2)
    return {
        "posterior": mean,
        "posterior_sd": float(np.sqrt(max(var, 0.0))),
        "per_problem": (post @ g)[inv],
        "alpha": float(post @ a),
        "beta": float(post @ b),
        "prior_sd": float(np.sqrt(max(float(post @ (f_theta - mean) ** 2), 0.0))),
    }


def hierarchical_pass_at_k(n: Any, c: Any, k: Any, *, weight: Any = None) -> dict[str, Any]:
    r"""Hierarchical-Bayes forecast of pass_D@k from per-problem (n, c): the prior integrated out.

    Model: p_i ~ Beta(α, β) independently, c_i | p_i ~ Binomial(n_i, p_i), and the
    hyperprior p(α, β) ∝ (α+β)^(-5/2) (Gelman et al., *Bayesian Data Analysis*, 3rd ed.,
    §5.3). Returns the posterior mean of :math:`F = \sum_i w_i (1-(1-p_i)^k)` (weights
    normalised in F). In the likelihood of (α, β) a weight counts as a frequency (weight 2 = the
    problem listed twice), so scaling every weight by a constant changes the fitted prior:
    weights summing to 1 would make the benchmark look like one problem. Use weights near 1.

    .. math:: E[F \mid data] = \int \sum_i w_i \Bigl(1 - \frac{B(α+c_i, β+n_i-c_i+k)}{B(α+c_i, β+n_i-c_i)}\Bigr)
              \, p(α, β \mid data)\, dα\, dβ

    and its posterior SD (law of total variance: the per-problem variances given (α, β)
    plus the spread of the forecast over the posterior of (α, β)). The integral is a grid
    sum over (logit α/(α+β), log(α+β)).

    Unlike the plug-in (empirical-Bayes) posterior at a fitted (α, β), it does not depend on
    which mode the fit lands in, and its SD includes the uncertainty of the difficulty
    distribution. Like every likelihood-based estimator it stays valid when n was chosen
    adaptively (the likelihood principle; module docstring). A problem with n = 0 (not
    sampled yet, as in a :class:`Planner`'s ``n_``) adds nothing to the likelihood and gets
    the population's pass@k; at least one problem needs n >= 1.

    Parameters
    ----------
    n, c : array_like of int, shape (P,)
        Samples drawn (n >= 0; at least one problem with n >= 1) and samples correct per problem.
    k : float
        One budget, k >= 1 (real values allowed; it may exceed every n).
    weight : array_like of float, shape (P,), optional
        Per-problem weights (frequencies in the likelihood, normalised in F).

    Returns
    -------
    dict
        ``posterior`` (mean), ``posterior_sd``, ``prior_sd`` (the part of the SD due to
        (α, β)), ``per_problem`` (posterior mean of each problem's pass@k), ``alpha`` and
        ``beta`` (posterior means).

    References
    ----------
    A. Gelman et al., *Bayesian Data Analysis*, 3rd ed., §5.3 (the hyperprior); Kazdan et al. 2025,
    arXiv 2510.05197 (the beta-binomial forecast 1 − B(α, β+k)/B(α, β)).
    """
    # n = 0 is a problem not sampled yet (an online Planner's n_): it adds nothing to the likelihood of
    # (α, β) and its pass@k is the population's under their posterior; at least one problem must be sampled
    n_a, c_a, w = _fit_beta_binomial_iv(n, c, weight, unsampled=True)
    k_f = check_scalar(k, "k")
    if not k_f >= 1:
        raise PasscurveError(f"`k` must be >= 1 (got k={fmt(k_f)})")
    return _hierarchical_forecast(n_a, c_a, k_f, w)


def _log_fail_posterior(a: Any, b: Any, k: Any) -> np.ndarray:
    """log E[(1-p)^k] under p ~ Beta(a, b), broadcasting, to the last digits (see ``_beta_log_moment``)."""
    return _beta_log_moment(0.0, k, a, b)


def posterior_pass_at_k(n: Any, c: Any, k: Any, alpha: float, beta: float) -> Any:
    r"""Per-problem posterior mean of pass@k = 1 - (1-p)^k under a Beta(α, β) prior.

    .. math:: E[1-(1-p)^k \mid n, c] = 1 - \frac{B(\alpha + c, \beta + n - c + k)}{B(\alpha + c, \beta + n - c)}

    (empirical Bayes when (α, β) come from :func:`fit_beta_binomial`). Defined for every
    k (also k > n), shrinks small-n problems toward the fitted difficulty distribution,
    and depends on the data only through the likelihood, so it stays valid when n was
    chosen adaptively. With a flat prior (α = β → 0 is not allowed; use α = β = 1) and
    large n it approaches the plug-in 1-(1-c/n)^k.
    """
    n_a = as_int_array(n, "n")
    c_a = as_int_array(c, "c")
    n_a, c_a = check_counts(n_a, c_a)
    k_a = as_float_array(k, "k")
    if (k_a < 0).any():
        raise PasscurveError(f"`k` must be >= 0 (got k={fmt(k_a.min())})")
    if not (alpha > 0 and beta > 0):
        raise PasscurveError(f"`alpha` and `beta` must be > 0 (got alpha={fmt(alpha)}, beta={fmt(beta)})")
    out = -np.expm1(_log_fail_posterior(alpha + c_a, beta + n_a - c_a, k_a))
    return float(out) if out.ndim == 0 else out


# ----------------------------------------------------------------------------------------
# stop-at-first-successful-batch designs (Best-of-N jailbreaking)
# ----------------------------------------------------------------------------------------
def _last_batch(n: np.ndarray, batch: int) -> np.ndarray:
    """Size of each problem's last batch under a stop-at-success design (a cap that is not a multiple of
    ``batch`` leaves a short one)."""
    return n - batch * ((n - 1) // batch)


def _stopping_iv(
    n: Any, c: Any, batch: Any, cap: Any
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, int | None]:
    n_a = as_int_array(n, "n")
    c_a = as_int_array(c, "c")
    n_a, c_a = check_counts(n_a, c_a)
    batch = check_positive_int(batch, "batch")
    cap_i = None if cap is None else check_positive_int(cap, "cap")
    # only the cap cuts a batch short: any other n off the batch grid does not come from this design (a wrong batch,
    # or an unknown cap), and its last batch cannot be told; n=70 with batch=60 had been read as a failed batch of 60
    # and a last batch of 10 whatever the cap
    off = (n_a % batch != 0) & (True if cap_i is None else n_a != cap_i)
    if off.any():
        vals = np.unique(n_a[off])
        nb = fmt(n_a.ravel()[np.flatnonzero(off.ravel())[0]])
        got = f"got n={nb}, batch={batch}" + ("" if cap_i is None else f", cap={cap_i}")
        # one value off the grid, the largest n, may be a cap not passed; otherwise the batch size looks wrong
        hint = (f"if sampling stopped at a cap of {nb} samples, pass cap={nb}"
                if cap_i is None and vals.size == 1 and vals[0] == n_a.max()
                else f"{vals.size} value{'s' if vals.size > 1 else ''} of n off the grid: is `batch` the design's batch size?")
        raise PasscurveError(
            f"`n` must be a multiple of `batch` under a stop-at-success design, or the cap where it cut the last batch "
            f"short ({got}); {hint}"
        )
    last = _last_batch(n_a, batch)
    bad = c_a > last
    if bad.any():
        i = np.flatnonzero(bad.ravel())[0]
        raise PasscurveError(
            f"`c` must be <= the size of the last batch under a stop-at-success design "
            f"(got c={fmt(c_a.ravel()[i])}, n={fmt(n_a.ravel()[i])}, batch={batch})"
        )
    if cap_i is not None:
        if (n_a > cap_i).any():
            raise PasscurveError(f"`n` must be <= cap (got n={fmt(n_a.max())}, cap={cap_i})")
        early = (c_a == 0) & (n_a < cap_i)
        if early.any():
            i = np.flatnonzero(early.ravel())[0]
            raise PasscurveError(
                f"a problem stopped without a success before the cap (n={fmt(n_a.ravel()[i])}, cap={cap_i}); "
                "this is not a stop-at-first-success design"
            )
    return n_a, c_a, batch, last, cap_i


def _stopping_pass_at_k_iv(n: Any, c: Any, k: Any, batch: Any, cap: Any) -> list[np.ndarray]:
    """n, c, k and the last batch's size, checked and broadcast together."""
    n_a, c_a, batch, last, _ = _stopping_iv(n, c, batch, cap)
    k_a = as_int_array(k, "k", minimum=1)
    check_broadcast("`n`/`c` and `k`", n_a, k_a)
    return list(np.broadcast_arrays(n_a, c_a, k_a, last))


def stopping_pass_at_k(n: Any, c: Any, k: Any, batch: int, *, cap: int | None = None) -> Any:
    r"""Unbiased pass@k for data that stopped at the first batch with a success.

    Design: draw batches of ``batch`` samples until a batch contains a success (or ``n``
    reaches ``cap``); record n (a stopping time) and c (the successes, all in the last
    batch). With s the size of the last batch and f = n - s the failures before it, the
    indicator "the first k samples all fail" is observable for every k <= cap, and its
    conditional expectation given (n, c) (the c successes sit uniformly at random in the
    last batch) is Chen's estimator applied to the last batch with k' = k - f samples:

    .. math:: \widehat{\text{pass@}k} = \begin{cases}
        0 & k \le f \\
        1 - \binom{s-c}{k-f} \big/ \binom{s}{k-f} & f < k \le n \\
        1 & k > n,\ c \ge 1 \\
        \text{NaN (not estimable)} & k > n,\ c = 0 \text{ (cap reached)} \end{cases}

    Unbiased for 1-(1-p)^k for every k <= cap (Rao-Blackwell: the conditional expectation
    of an unbiased indicator), and the unique such function of the sufficient statistic.
    With ``batch=1`` it is 1{N <= k} for the geometric waiting time N. The plain
    estimator ``pass_at_k(n, c, k)`` is biased upward on such data
    (``../shared/data/README.md``: the BoN jailbreaking counts).

    Parameters
    ----------
    n, c : array_like of int
        Samples drawn (a multiple of ``batch``, or ``cap`` when the cap cut the last batch short:
        any other n is refused, and without ``cap`` every n must be a multiple) and successes
        (<= the size of the last batch; 0 only when the cap was reached).
    k : array_like of int
        Budgets (broadcast with n and c).
    batch : int
        Batch size of the design (60 for the BoN data).
    cap : int, optional
        Maximum number of samples; when given, ``c = 0`` with ``n < cap`` is rejected.

    Returns
    -------
    float or ndarray
        The estimate, a float when every input is a scalar, else an array of the broadcast
        shape; NaN where k > n and c = 0 (not estimable).

    References
    ----------
    M. Chen et al., arXiv:2107.03374 (the estimator applied to the last batch); J. Hughes et al.,
    "Best-of-N Jailbreaking", arXiv:2412.03556 (the batch-until-success design and the figures it reproduces).
    """
    n_b, c_b, k_b, s_b = _stopping_pass_at_k_iv(n, c, k, batch, cap)
    f = n_b - s_b
    kp = k_b - f
    out = np.zeros(n_b.shape, dtype=np.float64)
    mid = (kp >= 1) & (kp <= s_b)
    if mid.any():
        out[mid] = pass_at_k(s_b[mid], c_b[mid], kp[mid])
    beyond = kp > s_b
    out[beyond & (c_b >= 1)] = 1.0
    out[beyond & (c_b == 0)] = np.nan
    return float(out) if out.ndim == 0 else out


@dataclass(frozen=True)
class StopAtSuccess:
    r"""Sampling design: batches of ``batch`` samples until a batch holds a success, at most ``cap`` samples.

    Pass it as ``design=`` to :func:`passcurve.curve`, :func:`passcurve.curve_intervals`,
    :func:`passcurve.compare`, :func:`passcurve.rank_models`, :func:`passcurve.fit_power_law`,
    :func:`passcurve.forecast`, :func:`passcurve.extrapolation_bounds`, :func:`passcurve.check_deviations`,
    :func:`passcurve.backtest` and the report (``--stop-batch B [--cap C]`` on
    ``passcurve curve|compare|rank|fit|forecast|backtest|report``): pass@k of each problem is then the
    stopping-time estimator :func:`stopping_pass_at_k`, exactly unbiased for every k up to
    the cap, where plain pass@k on such counts (n is a stopping time) is biased upward
    (by up to 2.3x on the BoN jailbreaking counts). ``batch=1`` is "sample until the
    first success". Only pass@k is defined this way: "the first k samples all succeed"
    (pass^k) is not observable once sampling stops.

    Parameters
    ----------
    batch : int >= 1
        Samples per batch.
    cap : int, optional
        The most samples a problem could get (every n is a multiple of ``batch``, or ``cap`` where the cap cut
        the last batch short).

    Examples
    --------
    >>> import passcurve as pc
    >>> cnt = pc.Counts.from_arrays([60, 120, 120], [2, 1, 0])
    >>> r = pc.curve(cnt, [1, 60, 120], design=pc.StopAtSuccess(batch=60, cap=120), metrics=["pass_at_k"])
    >>> [round(float(v), 4) for v in r.values["pass_at_k"][0]]
    [0.0111, 0.3333, 0.6667]
    """

    batch: int
    cap: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "batch", check_positive_int(self.batch, "batch"))
        if self.cap is not None:
            object.__setattr__(self, "cap", check_positive_int(self.cap, "cap"))

    def check(self, n: Any, c: Any, metrics: Any = ("pass_at_k",), ks: Any = None, name: str = "metric") -> None:
        """Validate a call under this design before any work: only pass@k is estimable, no k above the
        cap, and every problem's counts fit the design (c within the last batch; no early stop unsolved).

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.
        metrics : sequence of str, default ("pass_at_k",)
            The metrics asked for.
        ks : array_like of int, optional
            The k asked for.
        name : str, default "metric"
            The caller's name for ``metrics`` (the error names it).

        Returns
        -------
        None
            Raises :class:`PasscurveError` naming the first problem found.
        """
        other = [m for m in metrics if m != "pass_at_k"]
        if other:
            raise PasscurveError(
                f"`{name}`: only pass_at_k is estimable under a stop-at-success design (got {other[0]!r})"
            )
        _stopping_iv(n, c, self.batch, self.cap)  # the data against the design first, then the request
        if ks is not None and self.cap is not None and int(np.max(ks)) > self.cap:
            raise PasscurveError(f"`k` must be <= the design's cap (got k={fmt(np.max(ks))}, cap={self.cap})")

    def scores(self, n: np.ndarray, c: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """Per-problem estimates: :func:`stopping_pass_at_k` once per distinct (n, c).

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.
        ks : array_like of int, shape (K,)

        Returns
        -------
        ndarray of float, shape (N, K)
            NaN where k > n for a problem that reached the cap unsolved (not estimable).
        """
        n = np.asarray(n, dtype=np.int64).ravel()
        c = np.asarray(c, dtype=np.int64).ravel()
        _stopping_iv(n, c, self.batch, self.cap)
        first, inv = distinct_pairs(n, c)
        table = stopping_pass_at_k(n[first][:, None], c[first][:, None], np.asarray(ks)[None, :], self.batch,
                                   cap=self.cap)
        return np.asarray(table, dtype=np.float64).reshape(first.size, -1)[inv.ravel()]

    @staticmethod
    def estimable(n: np.ndarray, c: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """Where a problem's pass@k is estimable under the design (where :meth:`scores` is not NaN): a solved
        problem at every k, an unsolved one up to the n at which it stopped.

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.
        ks : array_like of int, shape (K,)

        Returns
        -------
        ndarray of bool, shape (N, K)
        """
        n, c, ks = (np.asarray(v).ravel() for v in (n, c, ks))
        return (n[:, None] >= ks[None, :]) | (c[:, None] > 0)

    def mean_curve(self, n: np.ndarray, c: np.ndarray, ks: np.ndarray,
                   weight: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The weighted mean of :meth:`scores` over the problems estimable at each k (a problem that stopped
        unsolved before k, without a cap, is not).

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.
        ks : array_like of int, shape (K,)
        weight : array_like of float, shape (N,), optional
            Per-problem weights (default equal).

        Returns
        -------
        (curve, problems) : tuple of ndarray, shape (K,)
            pass_D@k per k (NaN where no problem is estimable) and the number of problems used.
        """
        S = self.scores(n, c, ks)
        ok = ~np.isnan(S)
        w = np.ones(S.shape[0]) if weight is None else np.asarray(weight, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (w @ np.where(ok, S, 0.0)) / (w @ ok), ok.sum(axis=0)

    def k_max(self, n: np.ndarray, c: np.ndarray) -> int:
        """The largest k at which every problem is estimable: the cap, else the smallest n at which a
        problem stopped unsolved (else the largest n).

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.

        Returns
        -------
        int
        """
        if self.cap is not None:
            return int(self.cap)
        unsolved = np.asarray(n)[np.asarray(c) == 0]
        return int(unsolved.min()) if unsolved.size else int(np.max(n))

    def truncate(self, n: np.ndarray, c: np.ndarray, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """The counts the same design would have recorded with a cap of ``m`` samples (exact).

        A problem's f = n - s failures come before its last batch of s samples, whose c successes
        are placed uniformly at random. Capped at m: m <= f leaves (m, 0); f < m < n cuts the last
        batch to m - f samples holding Hypergeometric(c, s - c, m - f) successes (a batch the cap
        cut short, which the design allows); m >= n keeps (n, c). The self-backtest of
        :func:`passcurve.forecast` thins stopping-time data this way (a random subset of the
        samples would not be a sample from the design).

        Parameters
        ----------
        n, c : array_like of int, shape (N,)
            Each problem's samples and successes.
        m : int
            The cap (>= 1).
        rng : numpy.random.Generator
            Draws the hypergeometric successes of a cut batch.

        Returns
        -------
        (n, c) : tuple of ndarray of int
            The truncated counts, shaped like ``n``.
        """
        n = np.asarray(n, dtype=np.int64)
        c = np.asarray(c, dtype=np.int64)
        last = _last_batch(n, self.batch)
        f = n - last
        nt = np.minimum(n, m)
        ct = np.where(m >= n, c, 0)
        cut = self.cuts(n, m)
        if cut.any():
            ct[cut] = rng.hypergeometric(c[cut], last[cut] - c[cut], m - f[cut])
        return nt, ct

    def cuts(self, n: Any, m: int) -> np.ndarray:
        """Where a cap of ``m`` cuts a problem's last batch short (f < m < n, f its failures before that batch):
        there :meth:`truncate` draws its successes; elsewhere truncation is exact without a draw.

        Parameters
        ----------
        n : array_like of int
        m : int

        Returns
        -------
        ndarray of bool, shaped like ``n``
        """
        n = np.asarray(n, dtype=np.int64)
        return (m > n - _last_batch(n, self.batch)) & (m < n)

    def label(self) -> str:
        """The design in words, as results record it.

        Returns
        -------
        str
            E.g. "stop at success (batch 4, cap 64)".
        """
        return f"stop at success (batch {self.batch}{'' if self.cap is None else f', cap {self.cap}'})"


def check_design(design: Any) -> StopAtSuccess | None:
    """``design`` is None (n fixed in advance) or a :class:`StopAtSuccess`."""
    if design is None or isinstance(design, StopAtSuccess):
        return design
    # the value on one line (a pandas Series' repr had run over several), and the class itself named as such
    got = "the class StopAtSuccess itself" if design is StopAtSuccess else show_value(design)
    raise PasscurveError(f"`design` must be None or a StopAtSuccess(batch=..., cap=...) (got {got})")


def stopping_loglik(n: Any, c: Any, p: Any, batch: int, *, cap: int | None = None) -> Any:
    r"""Log-likelihood of p for one problem under the stop-at-first-successful-batch design.

    .. math:: \log L(p) = (n - s)\log(1-p) + \log\binom{s}{c} + c\log p + (s - c)\log(1-p)
              = \log\binom{s}{c} + c\log p + (n-c)\log(1-p)

    for a problem stopped by a success (s = size of the last batch), and
    :math:`n\log(1-p)` for one that reached the cap with c = 0. Up to the design constant
    log C(s, c) this is the binomial kernel, which is why likelihood-based fits of (n, c)
    stay valid on such data.

    Parameters
    ----------
    n, c : array_like of int
        Samples drawn and successes of each problem (as in :func:`stopping_pass_at_k`).
    p : array_like of float in [0, 1]
        Success rates at which to evaluate the log-likelihood (broadcast with n and c).
    batch : int
        Batch size of the design.
    cap : int, optional
        Maximum number of samples, as in :func:`stopping_pass_at_k`: an n off the batch grid is
        refused unless it is the cap (whose short last batch sets the design constant).

    Returns
    -------
    float or ndarray
        log L(p), a float when every input is a scalar, else an array of the broadcast shape.

    References
    ----------
    Haldane (1945), "On a method of estimating frequencies", Biometrika 33; the likelihood
    principle for adaptive designs: Berger & Wolpert, *The Likelihood Principle* (1988).
    """
    n_a, c_a, batch, last, _ = _stopping_iv(n, c, batch, cap)
    p_a = as_float_array(p, "p")
    if ((p_a < 0) | (p_a > 1)).any():
        raise PasscurveError("`p` must be in [0, 1]")
    const = np.where(
        c_a > 0, special.gammaln(last + 1) - special.gammaln(c_a + 1) - special.gammaln(last - c_a + 1), 0
    )
    with np.errstate(divide="ignore"):
        out = const + special.xlogy(c_a, p_a) + special.xlog1py(n_a - c_a, -p_a)
    return float(out) if np.ndim(out) == 0 else out


def inverse_binomial_p(n: Any, r: Any) -> Any:
    r"""Haldane's unbiased estimator of p under inverse binomial sampling.

    Design: sample until the r-th success; n (the number of samples) is the random
    quantity. :math:`\hat p = (r-1)/(n-1)` is unbiased for r >= 2 (Haldane 1945); no
    unbiased estimator exists for r = 1 (the geometric case), where the natural 1/n is
    biased upward (E[1/N] = -p log p/(1-p) > p). For pass@k under r = 1 use
    :func:`stopping_pass_at_k` with ``batch=1`` instead (1{N <= k}, unbiased).

    Parameters
    ----------
    n : array_like of int
        Samples drawn until the r-th success (n >= r).
    r : array_like of int
        Successes the design waited for (r >= 2).

    Returns
    -------
    float or ndarray
        (r - 1)/(n - 1), a float when both inputs are scalars, else an array of their broadcast shape.

    References
    ----------
    J. B. S. Haldane, "On a method of estimating frequencies", Biometrika 33 (1945), 222-225.
    """
    n_a = as_int_array(n, "n", minimum=1)
    r_a = as_int_array(r, "r", minimum=2)
    n_b, r_b = check_broadcast("`n` and `r`", n_a, r_a)
    if (n_b < r_b).any():
        raise PasscurveError("`n` must be >= r (the r-th success is the last sample)")
    out = (r_b - 1) / (n_b - 1).astype(np.float64)
    return float(out) if out.ndim == 0 else out
