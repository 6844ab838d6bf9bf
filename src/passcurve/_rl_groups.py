r"""GRPO dead groups: how often a group of G sampled answers all get the same reward.

A group of G binary rewards whose values are all equal has zero advantage under GRPO
(every reward equals the group mean), so it carries no learning signal. For a prompt
with success rate p that happens with probability :math:`p^G + (1-p)^G`. Across a
benchmark the rates differ (seed 000, hidden difficulty), and averaging over the spread
gives far more dead groups than independent coins at the mean rate predict:

.. math:: D(G) = E_p[p^G + (1-p)^G]
          = \frac{B(\alpha+G,\beta) + B(\alpha,\beta+G)}{B(\alpha,\beta)}
          \quad (p \sim \text{Beta}(\alpha, \beta)).

From a log (Counts) the per-problem unbiased estimate of :math:`p^G + (1-p)^G` is
:math:`[\binom{c}{G} + \binom{n-c}{G}]/\binom{n}{G}` (pass^G of the correct and of the
incorrect answers), valid for G <= n.

One sample per problem identifies only the mean rate :math:`\mu`: every difficulty law with that
mean fits equally well, and :math:`E[p^G + (1-p)^G]` over them covers
:math:`[\mu^G + (1-\mu)^G, 1]` (Jensen below, each problem always or never solved above), so no
fitted dead fraction is reported there.

Pure numerics (numpy/scipy), no I/O.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special

from ._counts import Counts, check_counts_object
from ._difficulty import DIFFICULTY_MODELS
from ._errors import (
    DegenerateDataWarning,
    DroppedProblemsWarning,
    PasscurveError,
    PasscurveWarning,
    record_warning,
)
from ._estimators import pass_pow_k
from ._results import ReadOnlyResult, brief_repr, frame_html, records_frame
from ._validation import (
    as_float_array,
    as_int_array,
    check_broadcast,
    check_positive_int,
    check_probability,
    check_scalar,
    fmt,
)

__all__ = [
    "dead_group_fraction",
    "dead_group_fraction_beta",
    "group_size_for_live",
    "dead_groups",
    "DeadGroupsResult",
]

_MAX_G = 10**12


def _json(x: Any) -> Any:
    x = float(x)
    return x if np.isfinite(x) else None


def _json_int(x: Any) -> int | None:
    """A group size for JSON: an int, or None where there is none (NaN: not reached; inf: never)."""
    x = float(x)
    return int(x) if np.isfinite(x) else None


# ----------------------------------------------------------------------------------------
# closed forms
# ----------------------------------------------------------------------------------------
def _group_size_iv(group_size: Any, name: str = "group_size") -> np.ndarray:
    return as_int_array(group_size, name, minimum=1)


def dead_group_fraction(p: Any, group_size: Any) -> Any:
    r"""Chance that G independent binary rewards with success rate p are all equal.

    .. math:: D = p^G + (1-p)^G

    Parameters
    ----------
    p : array_like of float in [0, 1]
    group_size : array_like of int >= 1
        G; broadcasts against ``p``.

    Returns
    -------
    float or ndarray

    References
    ----------
    ../shared/REFERENCE.md, "Training signals"; Shao et al. 2024 (GRPO), arXiv:2402.03300.

    Examples
    --------
    >>> round(dead_group_fraction(0.9, 16), 6)
    0.185302
    """
    p_a = check_probability(p, "p")
    g_a = _group_size_iv(group_size)
    p_a, g_f = check_broadcast("`p` and `group_size`", p_a, g_a.astype(np.float64))
    out = np.power(p_a, g_f) + np.power(1.0 - p_a, g_f)
    if np.ndim(p) == 0 and np.ndim(group_size) == 0:
        return float(out)
    return out


def _beta_iv(alpha: Any, beta: Any) -> tuple[np.ndarray, np.ndarray]:
    a = as_float_array(alpha, "alpha")
    b = as_float_array(beta, "beta")
    if (a <= 0).any():
        raise PasscurveError(f"`alpha` must be > 0 (got alpha={fmt(a[a <= 0].ravel()[0])})")
    if (b <= 0).any():
        raise PasscurveError(f"`beta` must be > 0 (got beta={fmt(b[b <= 0].ravel()[0])})")
    return a, b


def _dead_beta(a: Any, b: Any, g: Any) -> Any:
    base = special.betaln(a, b)
    return np.exp(special.betaln(a + g, b) - base) + np.exp(special.betaln(a, b + g) - base)


def dead_group_fraction_beta(alpha: Any, beta: Any, group_size: Any) -> Any:
    r"""Expected fraction of dead groups when prompt success rates follow Beta(α, β).

    .. math:: D(G) = \frac{B(\alpha+G,\beta) + B(\alpha,\beta+G)}{B(\alpha,\beta)}

    computed with ``betaln`` (no overflow for any G).

    Parameters
    ----------
    alpha, beta : array_like of float > 0
    group_size : array_like of int >= 1

    Returns
    -------
    float or ndarray
        D(G), a float when every input is a scalar, else an array of the broadcast shape.

    References
    ----------
    ../shared/REFERENCE.md, "Training signals" (seed 000: hidden difficulty).

    Examples
    --------
    >>> round(dead_group_fraction_beta(0.5, 0.5, 8), 5)
    0.39276
    """
    a, b = _beta_iv(alpha, beta)
    g = _group_size_iv(group_size)
    a, b, g_f = check_broadcast("`alpha`, `beta` and `group_size`", a, b, g.astype(np.float64))
    out = _dead_beta(a, b, g_f)
    if all(np.ndim(v) == 0 for v in (alpha, beta, group_size)):
        return float(out)
    return out


def _smallest_g(dead_fn: Any, target: float, g_max: int) -> float:
    """Smallest integer G >= 1 whose live fraction 1 - dead_fn(G) reaches ``target`` (dead_fn non-increasing); inf if
    > g_max. The live side is compared, not dead_fn(G) <= 1 - target: a target below 1.1e-16 made 1 - target round
    to 1, which G = 1 (never live: D(1) = p + (1 - p) = 1) met."""

    def short(g: int) -> bool:
        return bool(1.0 - dead_fn(g) < target)

    if not short(1):
        return 1.0
    lo, hi = 1, 2
    while short(hi):
        lo, hi = hi, hi * 2
        if hi > g_max:
            if short(g_max):
                return float("inf")
            hi = g_max
            break
    while hi - lo > 1:  # short(lo), not short(hi)
        mid = (lo + hi) // 2
        if short(mid):
            lo = mid
        else:
            hi = mid
    return float(hi)


def group_size_for_live(
    target_live: float,
    *,
    p: float | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    max_group_size: int = _MAX_G,
) -> float:
    r"""Smallest group size G whose expected fraction of live (not all-equal) groups reaches a target.

    Live fraction :math:`L(G) = 1 - D(G)` rises with G. Give either ``p`` (independent
    coins at one rate) or ``alpha`` and ``beta`` (rates ~ Beta(α, β)).

    Parameters
    ----------
    target_live : float in (0, 1)
    p : float in [0, 1], optional
    alpha, beta : float > 0, optional
    max_group_size : int
        Search limit.

    Returns
    -------
    float
        G as a float; ``inf`` when no G <= ``max_group_size`` reaches the target (for
        example p = 0 or 1, or a Beta so concentrated near 0 that G ~ 10^12 is needed).

    References
    ----------
    ../shared/REFERENCE.md, "Training signals" (dead groups: p^G + (1−p)^G, and
    [B(α+G, β) + B(α, β+G)]/B(α, β) under a Beta); Z. Shao et al. 2024 (GRPO), arXiv:2402.03300.

    Examples
    --------
    >>> group_size_for_live(0.9, alpha=0.5, beta=0.5)
    128.0
    """
    target, pv, ab, g_max = _group_size_for_live_iv(target_live, p, alpha, beta, max_group_size)
    if pv is not None:
        return _smallest_g(lambda g: dead_group_fraction(pv, g), target, g_max)
    a, b = ab
    return _smallest_g(lambda g: float(_dead_beta(a, b, np.float64(g))), target, g_max)


def _group_size_for_live_iv(target_live: Any, p: Any, alpha: Any, beta: Any,
                            max_group_size: Any) -> tuple[float, float | None, tuple, int]:
    """target_live, then p or (alpha, beta), and the search limit (an integer >= 1: None or NaN was a
    TypeError or a silent answer, and -5 was reported as `group_size`)."""
    t = check_scalar(target_live, "target_live", low=0.0, high=1.0, low_open=True, high_open=True)
    if (p is None) == (alpha is None and beta is None):
        raise PasscurveError("give either `p` or both `alpha` and `beta`")
    g_max = check_positive_int(max_group_size, "max_group_size", maximum=_MAX_G)
    if p is not None:
        return t, check_scalar(p, "p", low=0, high=1), (), g_max
    if alpha is None or beta is None:
        raise PasscurveError("give both `alpha` and `beta`")
    return t, None, _beta_iv(check_scalar(alpha, "alpha"), check_scalar(beta, "beta")), g_max


# ----------------------------------------------------------------------------------------
# the diagnostic on a log
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class DeadGroupsResult(ReadOnlyResult):
    """Observed vs predicted fraction of GRPO groups with all-equal rewards, per model.

    Attributes
    ----------
    models : tuple of str
    group_size : ndarray of int, shape (K,)
    observed : ndarray, shape (M, K)
        Mean over problems of the unbiased [C(c,G) + C(n-c,G)]/C(n,G); NaN where no problem
        has n >= G.
    independent : ndarray, shape (M, K)
        p̄^G + (1-p̄)^G with p̄ the mean per-problem rate (every prompt the same coin).
    fitted : ndarray, shape (M, K)
        E[p^G + (1-p)^G] under the fitted difficulty distribution (for the Beta:
        [B(α+G,β) + B(α,β+G)]/B(α,β)); NaN for a model whose difficulty law is not identified
        (``identified``).
    problems : ndarray of int, shape (M, K)
        Problems with n >= G (entering ``observed``); the others (``total_problems - problems``) are
        left out of it, with a DroppedProblemsWarning.
    mean_rate : ndarray, shape (M,)
    difficulty : str
        The difficulty model fitted (``passcurve._difficulty``: "beta", "zi_beta", ...).
    params_ : tuple of dict
        Its maximum-likelihood parameters per model. Empty, with ``success`` False, where the law is not
        identified.
    success : ndarray of bool, shape (M,)
    message : tuple of str
        Per model, whether the optimiser converged and what it said.
    target_live : float
    group_size_needed : dict of str to ndarray, shape (M,)
        Smallest G whose live fraction reaches ``target_live``: "observed" (searched over
        G <= smallest n, NaN if not reached there), "independent", "fitted" (inf if never,
        e.g. a zero-inflated fit whose impossible mass alone exceeds 1 - target). ``to_dict()`` gives each
        as an int, or null where it is NaN or inf, and says which in ``group_size_not_found``.
    warnings : tuple of str
    identified : ndarray of bool, shape (M,)
        False for a model whose every problem has one sample (n = 1) and whose mean rate is strictly
        between 0 and 1: the counts identify only the mean, so no difficulty law is fitted, ``fitted``
        and ``group_size_needed["fitted"]`` are NaN, and a DegenerateDataWarning gives the range
        [independent, 1] the dead fraction could take.
    smallest_n : ndarray of int, shape (M,)
        Each model's smallest n: the observed search for the G needed runs up to it (none below 2).
    total_problems : ndarray of int, shape (M,)
        Each model's problems, all of which enter ``mean_rate``, ``independent`` and the fit.
    params_not_identified : tuple of tuple of str
        Per model, the fit's parameters the data do not identify (its ``unidentified_``: e.g. a Beta's alpha and
        beta running away together on under-dispersed counts, where ``params_`` holds wherever the optimiser
        stopped, alpha = 1.1e+07); the text output shows them as "—".
    params_at_bound : tuple of tuple of str
        Per model, the fit's parameters at their bound (its ``boundary_``: a probability within 1e-6 of 0 or 1);
        the text output shows them as that bound, as ``passcurve fit`` does ('impossible=0 (at its bound)', not
        the optimiser's 2.869e-14), ``params_`` keep the optimiser's value.
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    group_size: np.ndarray
    observed: np.ndarray
    independent: np.ndarray
    fitted: np.ndarray
    problems: np.ndarray
    mean_rate: np.ndarray
    difficulty: str
    params_: tuple[dict[str, float], ...]
    success: np.ndarray
    message: tuple[str, ...]
    target_live: float
    group_size_needed: dict[str, np.ndarray]
    warnings: tuple[str, ...] = field(default_factory=tuple)
    identified: np.ndarray | None = None
    smallest_n: np.ndarray | None = None
    total_problems: np.ndarray | None = None
    params_not_identified: tuple[tuple[str, ...], ...] | None = None
    params_at_bound: tuple[tuple[str, ...], ...] | None = None

    def _not_found(self, i: int) -> dict[str, str]:
        """Why each group size of model ``i`` that is not finite is not there."""
        out = {}
        for k, v in self.group_size_needed.items():
            if np.isfinite(v[i]):
                continue
            if np.isinf(v[i]):
                out[k] = "never"
            elif k == "fitted" and self.identified is not None and not self.identified[i]:
                out[k] = "not identified: every problem has one sample"
            elif k == "observed" and self.smallest_n is not None and self.smallest_n[i] < 2:
                out[k] = "not searched: a problem has one sample"
            else:
                out[k] = "not reached within the samples"
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``models``, one record per model (``model``, ``mean_rate``, ``fit`` (with ``identified``:
        false where one sample per problem identifies no difficulty law), ``target_live``,
        ``group_size_needed`` (null where there is none), ``group_size_not_found`` (for each null there: "never",
        "not reached within the samples" for the observed size beyond the smallest n, "not searched: a problem
        has one sample", or "not identified: every problem has one sample" for the fit), ``problems`` (all of
        the model's) and ``groups``, per G: ``group_size``, ``observed_dead``, ``independent_dead``,
        ``fitted_dead``, ``observed_live``, ``problems`` (those with n >= G, entering ``observed_dead``) and
        ``problems_left_out`` (those with n < G))."""
        out = []
        for i, m in enumerate(self.models):
            rows = []
            for j, g in enumerate(self.group_size):
                rows.append(
                    {
                        "group_size": int(g),
                        "observed_dead": _json(self.observed[i, j]),
                        "independent_dead": _json(self.independent[i, j]),
                        "fitted_dead": _json(self.fitted[i, j]),
                        "observed_live": _json(1.0 - self.observed[i, j]),
                        "problems": int(self.problems[i, j]),
                        **({} if self.total_problems is None else
                           {"problems_left_out": int(self.total_problems[i] - self.problems[i, j])}),
                    }
                )
            out.append(
                {
                    "model": m,
                    "mean_rate": float(self.mean_rate[i]),
                    **({} if self.total_problems is None else {"problems": int(self.total_problems[i])}),
                    "fit": {
                        "difficulty": self.difficulty,
                        "params": {k: float(v) for k, v in self.params_[i].items()},
                        "success": bool(self.success[i]),
                        "message": self.message[i],
                        **({} if self.identified is None else {"identified": bool(self.identified[i])}),
                        **({} if self.params_not_identified is None else
                           {"params_not_identified": list(self.params_not_identified[i])}),
                        **({} if self.params_at_bound is None else
                           {"params_at_bound": list(self.params_at_bound[i])}),
                    },
                    "target_live": self.target_live,
                    "group_size_needed": {k: _json_int(v[i]) for k, v in self.group_size_needed.items()},
                    # why a null above is null: both read null in JSON (NaN and inf), and the text output tells them
                    # apart ("not reached" / "never")
                    "group_size_not_found": self._not_found(i),
                    "groups": rows,
                }
            )
        res: dict[str, Any] = {"models": out}
        if self.warnings:
            res["warnings"] = list(self.warnings)
        return res

    def to_frame(self) -> Any:
        """Long pandas DataFrame, one row per (model, group size): ``model``, ``mean_rate``, ``group_size``,
        ``observed_dead``, ``independent_dead``, ``fitted_dead``, ``observed_live``, ``problems``,
        ``problems_left_out``."""
        rows = []
        for entry in self.to_dict()["models"]:
            for r in entry["groups"]:
                rows.append({"model": entry["model"], "mean_rate": entry["mean_rate"], **r})
        return records_frame(rows)

    def plot(self) -> Any:
        """Dead fraction against G, observed vs the two predictions, per model.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for i, m in enumerate(self.models):
            x = self.group_size
            fig.add_trace(go.Scatter(x=x, y=self.observed[i], mode="lines+markers", name=f"{m}: observed"))
            fig.add_trace(
                go.Scatter(
                    x=x, y=self.fitted[i], mode="lines", line={"dash": "dot"}, name=f"{m}: {self.difficulty} fit"
                )
            )
            fig.add_trace(
                go.Scatter(
                    x=x, y=self.independent[i], mode="lines", line={"dash": "dash"}, name=f"{m}: independent coins"
                )
            )
        fig.update_layout(
            xaxis_title="group size G",
            yaxis_title="fraction of groups with all-equal rewards",
            template="plotly_white",
        )
        fig.update_xaxes(type="log")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _dead_groups_iv(
    counts: Any, group_size: Any, target_live: Any, difficulty: Any
) -> tuple[Counts, np.ndarray, float, str]:
    check_counts_object(counts)
    g = _group_size_iv(group_size).ravel()
    if (g < 2).any():
        raise PasscurveError(f"`group_size` must be >= 2 (got group_size={fmt(g[g < 2][0])}); one sample is never a group")
    t = check_scalar(target_live, "target_live", low=0.0, high=1.0, low_open=True, high_open=True)
    if not isinstance(difficulty, str) or difficulty not in DIFFICULTY_MODELS:
        raise PasscurveError(f"`difficulty` must be one of {', '.join(DIFFICULTY_MODELS)} (got {difficulty!r})")
    return counts, np.unique(g), t, difficulty


def _model_dead(model: Any, g: Any) -> Any:
    """E[p^G + (1-p)^G] = M(G, 0) + M(0, G) under a fitted difficulty model."""
    g = np.asarray(g, dtype=np.float64)
    zero = np.zeros_like(g)
    return np.exp(model.log_moment(g, zero)) + np.exp(model.log_moment(zero, g))


def dead_groups(
    counts: Counts, group_size: Any = (8, 16, 64), *, target_live: float = 0.9, difficulty: str = "beta"
) -> DeadGroupsResult:
    r"""GRPO dead groups in a sampling log: observed vs independent coins vs the fitted difficulty.

    For each model and group size G:

    * observed: mean over problems (with n >= G) of the unbiased
      :math:`[\binom{c}{G} + \binom{n-c}{G}]/\binom{n}{G}`;
    * independent: :math:`\bar p^G + (1-\bar p)^G` at the mean per-problem rate;
    * fitted: :math:`E[p^G + (1-p)^G] = M(G,0) + M(0,G)` under the difficulty distribution
      fitted by maximum likelihood (``passcurve``'s difficulty models; for the default
      Beta, :math:`[B(\alpha+G,\beta)+B(\alpha,\beta+G)]/B(\alpha,\beta)`), which extrapolates
      beyond the largest n in the log;

    and the smallest G at which the live fraction reaches ``target_live`` under each.

    Parameters
    ----------
    counts : Counts
        Per-problem counts (``weight`` is honoured).
    group_size : int or sequence of int >= 2
    target_live : float in (0, 1), default 0.9
    difficulty : {"beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"}, default "beta"
        The difficulty model (``"zi_beta"`` adds a point mass of impossible problems, which
        stay dead at every G).

    Returns
    -------
    DeadGroupsResult

    Warns
    -----
    DroppedProblemsWarning
        Problems with n < G leave the observed mean at that G.
    DegenerateDataWarning
        Every problem of a model solved always or never; or every problem has one sample, which
        identifies only the mean rate (no fit, ``identified`` False).
    ConvergenceWarning
        The difficulty fit did not converge (``success=False``).

    References
    ----------
    ../shared/REFERENCE.md "Training signals" and seed 000; Kazdan et al. 2025 (beta-binomial
    MLE), arXiv:2510.05197; Shao et al. 2024 (GRPO), arXiv:2402.03300.
    """
    counts, gs, target, difficulty = _dead_groups_iv(counts, group_size, target_live, difficulty)
    M, K = len(counts.models), gs.size
    obs = np.full((M, K), np.nan)
    ind = np.empty((M, K))
    fit = np.empty((M, K))
    prob = np.zeros((M, K), dtype=np.int64)
    mean_rate = np.empty(M)
    params: list[dict[str, float]] = []
    unidentified: list[tuple[str, ...]] = []
    at_bound: list[tuple[str, ...]] = []
    succ = np.zeros(M, dtype=bool)
    ident = np.ones(M, dtype=bool)
    nmins = np.empty(M, dtype=np.int64)
    msgs: list[str] = []
    need: dict[str, np.ndarray] = {k: np.full(M, np.nan) for k in ("observed", "independent", "fitted")}
    warns: list[str] = []

    def warn(cat: type[Warning], msg: str) -> None:
        record_warning(warns, msg, cat, stacklevel=3)

    for i, (m, sub) in enumerate(counts.groups()):
        n, c = sub.n, sub.c
        w = np.ones(n.size) if sub.weight is None else sub.weight.astype(np.float64)
        W = w.sum()
        mean_rate[i] = (w @ (c / n)) / W if W > 0 else np.nan
        # observed, per G (problems with n < G give NaN and are left out)
        per = pass_pow_k(n[:, None], c[:, None], gs[None, :], k_gt_n="nan") + pass_pow_k(
            n[:, None], (n - c)[:, None], gs[None, :], k_gt_n="nan"
        )
        ok = np.isfinite(per)
        wsum = w @ ok
        prob[i] = ok.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            obs[i] = np.where(wsum > 0, (w @ np.where(ok, per, 0.0)) / wsum, np.nan)
        short = (~ok).sum(axis=0)
        if short.any():
            j = int(np.flatnonzero(short)[0])
            last = int(np.argmax(short))  # the most left out (problems with n < G only grow with G)
            more = ("" if last == j else f" (and {int(short[last])} of {n.size} at G={int(gs[last])}"
                    + (": none left, so no observed fraction there)" if short[last] == n.size else ")"))
            # all of them at the first G already: say so there (it went unsaid when no later G left out more)
            gone = short[j] == n.size
            warn(
                DroppedProblemsWarning,
                f"model {m!r}: {int(short[j])} of {n.size} problems have n < {int(gs[j])} samples and are left out of the "
                f"observed dead fraction at G={int(gs[j])}"
                + (" and every larger G" if gone and j < gs.size - 1 else "")
                + (": none left, so no observed fraction there" if gone else "") + more,
            )
        rate = float(mean_rate[i])
        ind[i] = dead_group_fraction(rate, gs)
        need["independent"][i] = _smallest_g(lambda g, rate=rate: dead_group_fraction(rate, g), target, _MAX_G)
        if (c == 0).all() or (c == n).all():
            warn(DegenerateDataWarning, f"model {m!r}: every problem is {'never' if (c == 0).all() else 'always'} solved")
        nmin = nmins[i] = int(n.min())
        if int(n.max()) == 1 and 0.0 < rate < 1.0:
            # one sample per problem: the likelihood depends on the mean alone, so the fit's shape is whatever its
            # optimiser stopped at; E[p^G + (1-p)^G] over the laws of that mean covers [independent coins, 1]
            ident[i] = False
            params.append({})
            unidentified.append(())
            at_bound.append(())
            msgs.append("not fitted: every problem has one sample, which identifies only the mean success rate")
            fit[i] = np.nan
            warn(DegenerateDataWarning,
                 f"model {m!r}: every problem has one sample, which identifies only the mean success rate ({rate:.4g}); "
                 f"every difficulty law with that mean fits equally well, so no {difficulty} fit is reported: "
                 "the dead fraction at each G could be anything from the independent-coin value (all problems equally "
                 f"hard; {ind[i, 0]:.4g} at G={int(gs[0])}) to 1 (each problem always or never solved); draw at "
                 "least 2 samples per problem")
            continue
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            model = DIFFICULTY_MODELS[difficulty]().fit(n=n, c=c, weight=None if sub.weight is None else w)
        for r in rec:
            if issubclass(r.category, PasscurveWarning):
                warn(r.category, f"model {m!r}: {difficulty} fit: {r.message}")
        params.append(dict(model.params_))
        unidentified.append(tuple(model.unidentified_))
        at_bound.append(tuple(model.boundary_))
        succ[i] = bool(model.success_)
        msgs.append(str(model.message_))
        # a degenerate fit may not evaluate at some G (its value is then left empty, with a warning)
        try:
            fit[i] = _model_dead(model, gs)
        except PasscurveError as exc:
            fit[i] = np.nan
            warn(DegenerateDataWarning, f"model {m!r}: the {difficulty} fit gives no dead-group fraction ({exc})")
        try:
            need["fitted"][i] = _smallest_g(lambda g, model=model: float(_model_dead(model, g)), target, _MAX_G)
        except PasscurveError as exc:
            need["fitted"][i] = np.nan
            warn(DegenerateDataWarning, f"model {m!r}: no group size for the target from the {difficulty} fit ({exc})")

        def obs_dead(g: int, n=n, c=c, w=w, W=W) -> float:
            v = pass_pow_k(n, c, g) + pass_pow_k(n, n - c, g)
            return float(w @ v / W)

        if nmin >= 2:
            gneed = _smallest_g(obs_dead, target, nmin)
            need["observed"][i] = gneed if np.isfinite(gneed) else np.nan
    return DeadGroupsResult(
        models=tuple(counts.models),
        group_size=gs,
        observed=obs,
        independent=ind,
        fitted=fit,
        problems=prob,
        mean_rate=mean_rate,
        difficulty=difficulty,
        params_=tuple(params),
        success=succ,
        message=tuple(msgs),
        target_live=target,
        group_size_needed=need,
        warnings=tuple(warns),
        identified=ident,
        smallest_n=nmins,
        total_problems=np.array([sub.n.size for _, sub in counts.groups()], dtype=np.int64),
        params_not_identified=tuple(unidentified),
        params_at_bound=tuple(at_bound),
    )
