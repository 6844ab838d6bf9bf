r"""Hidden-difficulty diagnostics: how far a benchmark is from "every answer is a coin flip".

Samples are independent given the problem but not across problems: difficulty is a common
cause. With per-problem success rates p of mean μ and variance σ² across problems
(``../shared/REFERENCE.md``, seed 000 "Independence"):

.. math:: P(\text{two answers right}) = E[p^2] = \mu^2 + \sigma^2, \qquad
          P(\text{2nd right} \mid \text{1st right}) = (\mu^2 + \sigma^2)/\mu,

the intra-class correlation of two answers to one problem is
:math:`\rho = \sigma^2/(\mu(1-\mu))`, and by Jensen pass_D@k = 1 - E[(1-p)^k] <= 1-(1-μ)^k
while pass^k_D = E[p^k] >= μ^k. Everything is estimated without bias from the counts:
:math:`\hat\mu = \overline{c/n}` and :math:`\widehat{E[p^2]} = \overline{c(c-1)/(n(n-1))}`
(the chance that two distinct samples of a problem are both right). A problem with one sample says
nothing about two answers, so every pair statistic (μ², P(both right), P(2nd | 1st), ρ, σ) is taken
over the problems with n >= 2, its μ included: over one problem set c(c-1)/(n(n-1)) <= c/n term by
term, so P(2nd | 1st) <= 1 and ρ <= 1 always.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._counts import Counts, check_counts_object
from ._curves import mean_curve, own_range
from ._errors import DegenerateDataWarning, DroppedProblemsWarning, PasscurveError, record_warning
from ._results import ReadOnlyResult, brief_repr, frame_html, records_frame
from ._validation import budget_grid, check_choice, check_flag, check_k_le_min_n, own_range_top

__all__ = ["hidden_difficulty", "DiagnosticsResult"]


def _f(x: Any) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


@dataclass(frozen=True, eq=False)
class DiagnosticsResult(ReadOnlyResult):
    """Hidden-difficulty diagnostics per model.

    Attributes
    ----------
    models : tuple of str
    mean : ndarray, shape (M,)
        μ: P(one answer right), the mean over every problem of c/n (it drives the independent-coin curves).
    pair_mean : ndarray, shape (M,)
        μ over the problems with n >= 2, the ones every pair statistic below rests on (equal to ``mean``
        when no problem has n = 1).
    mean_squared : ndarray
        pair_mean², what P(both right) would be if answers were independent coin flips.
    both_right : ndarray
        P(two answers to one problem both right) = mean of c(c-1)/(n(n-1)) over the problems with n >= 2.
    second_given_first : ndarray
        P(2nd right | 1st right) = both_right / pair_mean, in [0, 1].
    icc : ndarray
        Intra-class correlation (both_right - pair_mean²)/(pair_mean(1-pair_mean)) = σ²/(μ(1-μ)), at most 1.
    difficulty_sd : ndarray
        σ, the standard deviation of per-problem success rates (unbiased variance, clipped at 0), over the
        problems with n >= 2.
    k : ndarray of int, shape (K,)
    pass_at_k, independent_pass_at_k : ndarray, shape (M, K)
        Actual pass_D@k beside the independent-coin curve 1-(1-μ)^k.
    pass_pow_k, independent_pass_pow_k : ndarray, shape (M, K)
        Actual pass^k beside μ^k.
    problems : ndarray of int, shape (M,)
        Problems with n >= 2 (the ones that enter every pair statistic).
    one_sample : ndarray of int, shape (M,)
        Problems with n = 1, left out of the pair statistics (a DroppedProblemsWarning says so); they
        enter ``mean`` and the curves.
    problems_at_k : ndarray of int, shape (M, K)
        The problems that enter pass_D@k and pass^k at that k: all of the model's, or 0 where some
        have n < k (``k_gt_n="nan"``); those with n >= k (``k_gt_n="drop"``).
    warnings : tuple of str
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    mean: np.ndarray
    mean_squared: np.ndarray
    both_right: np.ndarray
    second_given_first: np.ndarray
    icc: np.ndarray
    difficulty_sd: np.ndarray
    k: np.ndarray
    pass_at_k: np.ndarray
    independent_pass_at_k: np.ndarray
    pass_pow_k: np.ndarray
    independent_pass_pow_k: np.ndarray
    problems: np.ndarray
    problems_at_k: np.ndarray | None = None
    warnings: tuple[str, ...] = ()
    pair_mean: np.ndarray | None = None
    one_sample: np.ndarray | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``models``, one record per model (``model``, ``problems`` (those with n >= 2),
        ``problems_one_sample`` (n = 1, left out of the pair statistics), ``p_right``, ``p_right_pairs``
        (μ over the problems with n >= 2), ``p_right_squared``, ``p_both_right``, ``p_second_given_first``,
        ``icc``, ``difficulty_sd`` and ``curve``, per k the actual and independent-coin pass@k and pass^k)."""
        out = []
        for i, m in enumerate(self.models):
            out.append(
                {
                    "model": m,
                    "problems": int(self.problems[i]),
                    **({} if self.one_sample is None else {"problems_one_sample": int(self.one_sample[i])}),
                    "p_right": _f(self.mean[i]),
                    **({} if self.pair_mean is None else {"p_right_pairs": _f(self.pair_mean[i])}),
                    "p_right_squared": _f(self.mean_squared[i]),
                    "p_both_right": _f(self.both_right[i]),
                    "p_second_given_first": _f(self.second_given_first[i]),
                    "icc": _f(self.icc[i]),
                    "difficulty_sd": _f(self.difficulty_sd[i]),
                    "curve": [
                        {
                            "k": int(k),
                            "pass_at_k": _f(self.pass_at_k[i, j]),
                            "independent_pass_at_k": _f(self.independent_pass_at_k[i, j]),
                            "pass_pow_k": _f(self.pass_pow_k[i, j]),
                            "independent_pass_pow_k": _f(self.independent_pass_pow_k[i, j]),
                            **({} if self.problems_at_k is None else {"problems": int(self.problems_at_k[i, j])}),
                        }
                        for j, k in enumerate(self.k)
                    ],
                }
            )
        d: dict[str, Any] = {"models": out}
        if self.warnings:
            d["warnings"] = list(self.warnings)
        return d

    def to_frame(self) -> Any:
        """pandas DataFrame of the scalar diagnostics, one row per model: ``model``, ``problems``,
        ``problems_one_sample``, ``p_right``, ``p_right_pairs``, ``p_right_squared``, ``p_both_right``,
        ``p_second_given_first``, ``icc``, ``difficulty_sd``."""
        return records_frame([{kk: v for kk, v in e.items() if kk != "curve"} for e in self.to_dict()["models"]])

    def curve_frame(self) -> Any:
        """pandas DataFrame of the curves, one row per (model, k).

        Returns
        -------
        pandas.DataFrame
            ``model``, ``k``, ``pass_at_k``, ``independent_pass_at_k``, ``pass_pow_k``,
            ``independent_pass_pow_k``, ``problems``.
        """
        return records_frame([{"model": e["model"], **pt} for e in self.to_dict()["models"] for pt in e["curve"]])

    def plot(self, *, log_k: bool = True) -> Any:
        """Actual pass_D@k (solid) beside the independent-coin curve (dashed), per model.

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
        for i, m in enumerate(self.models):
            fig.add_trace(go.Scatter(x=self.k, y=self.pass_at_k[i], mode="lines", name=f"{m}: actual pass@k"))
            fig.add_trace(
                go.Scatter(
                    x=self.k,
                    y=self.independent_pass_at_k[i],
                    mode="lines",
                    line={"dash": "dash"},
                    name=f"{m}: if independent, 1-(1-μ)^k",
                )
            )
        fig.update_layout(xaxis_title="k", yaxis_title="pass@k", template="plotly_white")
        if log_k:
            fig.update_xaxes(type="log", dtick=np.log10(2) if self.k.max() <= 1024 else None)
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _hidden_difficulty_iv(counts: Any, k: Any, k_gt_n: Any) -> tuple[Counts, np.ndarray | None]:
    check_counts_object(counts)
    check_choice(k_gt_n, "k_gt_n", ("raise", "nan", "drop"), quoted=True)
    if (counts.n < 2).all():
        raise PasscurveError("every problem has one sample: P(both right) needs two answers per problem (n >= 2 on "
                             "some problems)")
    ks = None if k is None else budget_grid(k, "k")
    if ks is not None and k_gt_n == "raise":
        check_k_le_min_n(counts.n, ks, counts.problem, counts.model)
    return counts, ks


def hidden_difficulty(counts: Counts, k: Any = None, *, k_gt_n: str = "raise") -> DiagnosticsResult:
    r"""P(both right) vs μ², P(2nd | 1st), intra-class correlation, and the independent-coin curves.

    .. math:: \hat\mu = \frac1N\sum_i \frac{c_i}{n_i}, \qquad
              \widehat{P}(\text{both}) = \frac1N\sum_i \frac{c_i(c_i-1)}{n_i(n_i-1)}, \qquad
              \hat\rho = \frac{\widehat{P}(\text{both}) - \hat\mu^2}{\hat\mu(1-\hat\mu)}

    A problem with n = 1 cannot show two answers: it enters μ and the curves, and every pair
    statistic (μ², P(both right), P(2nd | 1st), ρ, σ) is taken over the problems with n >= 2, μ
    included (``pair_mean``), with a DroppedProblemsWarning counting those left out. Mixing the two
    sets (μ over all, P(both) over n >= 2) could give P(2nd | 1st) above 1. pass_D@k is the mean of
    the unbiased per-problem estimates over a model's problems; the independent-coin curves are
    1-(1-μ)^k and μ^k, from every problem's rate. With per-problem weights (``Counts.weight``) every mean
    above is the weighted one, as in :func:`passcurve.curve`.

    Parameters
    ----------
    counts : Counts
    k : int or sequence of int, optional
        Default: powers of two up to the largest of the models' smallest n ("raise", "nan"; each
        model's curves NaN beyond its own smallest n) or up to the largest n ("drop").
    k_gt_n : {"raise", "nan", "drop"}, default "raise"
        At a k given in ``k`` above some problem's n: "raise" refuses it (as :func:`passcurve.curve`
        does), naming the problem and its model; "nan" leaves the model's pass@k and pass^k NaN there
        (``problems_at_k`` 0), so the actual curve and the independent-coin curve always rest on
        the same problems, and each model runs to its own smallest n; "drop" averages over the
        problems with n >= k (counted in ``problems_at_k``, with a DroppedProblemsWarning),
        while the independent-coin curves still use every problem.

    Returns
    -------
    DiagnosticsResult

    References
    ----------
    Seed 000 ("Independence") and ``REFERENCE.md`` §Hidden difficulty; B. Brown et al.,
    "Large Language Monkeys", arXiv:2407.21787.
    """
    counts, ks = _hidden_difficulty_iv(counts, k, k_gt_n)
    if ks is None:  # powers of two up to each model's own range ("nan") or the largest n ("drop": counted, warned)
        top = int(counts.n.max()) if k_gt_n == "drop" else own_range_top(counts.n, counts.model)
        ks = 2 ** np.arange(int(np.floor(np.log2(top))) + 1)
    models = counts.models
    M, K = len(models), ks.size
    mean = np.empty(M)
    pmean = np.empty(M)  # μ over the problems with n >= 2: the pair statistics' own μ
    both = np.empty(M)
    probs = np.empty(M, dtype=np.int64)
    single = np.empty(M, dtype=np.int64)
    pk = np.empty((M, K))
    pp = np.empty((M, K))
    used = np.empty((M, K), dtype=np.int64)
    warns: list[str] = []
    for i, m in enumerate(models):
        sub = counts.select(m)
        n, c = sub.n.astype(float), sub.c.astype(float)
        w = np.ones(n.size) if sub.weight is None else sub.weight.astype(float)
        mean[i] = float(np.average(c / n, weights=w))
        two = (sub.n >= 2) & (w > 0)
        probs[i] = int(two.sum())
        single[i] = int(((sub.n < 2) & (w > 0)).sum())
        # one problem set for every pair statistic: term by term c(c-1)/(n(n-1)) <= c/n, so P(2nd | 1st) <= 1
        pmean[i] = float(np.average(c[two] / n[two], weights=w[two])) if two.any() else np.nan
        both[i] = (float(np.average(c[two] * (c[two] - 1) / (n[two] * (n[two] - 1)), weights=w[two]))
                   if two.any() else np.nan)
        if not two.any():  # the whole input is refused only when no model has two samples of a problem
            msg = (f"model {m!r}: every problem has one sample; P(both right), P(2nd | 1st) and the intra-class "
                   "correlation need two and are left undefined")
            record_warning(warns, msg, DegenerateDataWarning)
        elif single[i]:
            msg = (f"model {m!r}: {single[i]} of {single[i] + probs[i]} problems have one sample (n = 1) and are "
                   f"left out of μ², P(both right), P(2nd | 1st), the ICC and σ, which need two answers to a "
                   f"problem; those rest on the {probs[i]} problems with n >= 2 (μ there {pmean[i]:.4g}), while "
                   f"P(right) μ = {mean[i]:.4g} and the independent-coin curves use every problem")
            record_warning(warns, msg, DroppedProblemsWarning)
        if two.any() and ((c[two] == 0).all() or (c[two] == n[two]).all()):
            # μ = 0 or 1: σ² = 0 and μ(1 - μ) = 0, so ρ is 0/0 (NaN), which had come back without a word
            wrong = bool((c[two] == 0).all())
            where = (f"on each of its {probs[i]} problems" if not single[i] else
                     f"on each of its {probs[i]} problems with n >= 2")
            msg = (f"model {m!r}: every answer is {'wrong' if wrong else 'right'} (c = {'0' if wrong else 'n'} {where}), "
                   "so the outcomes do not vary and the intra-class correlation is undefined (0/0)"
                   + (", as is P(2nd | 1st) with no first answer right" if wrong else ""))
            record_warning(warns, msg, DegenerateDataWarning)
        pk[i] = mean_curve(sub.n, sub.c, ks, "pass_at_k", weights=sub.weight)[0]
        pp[i] = mean_curve(sub.n, sub.c, ks, "pass_pow_k", weights=sub.weight)[0]
        used[i] = (sub.n[:, None] >= ks[None, :]).sum(axis=0)
        # "nan" (and "raise", whose k reach beyond a model's n only on the default grid): no mean over a subset
        ok = own_range(used[i], sub.n.size, "drop" if k_gt_n == "drop" else "nan")
        pk[i, ~ok] = pp[i, ~ok] = np.nan
        used[i, ~ok] = 0
        short = used[i] < sub.n.size
        if k_gt_n == "drop" and short.any():
            j = int(np.flatnonzero(short)[0])
            msg = (f"model {m!r}: from k = {int(ks[j])} on, pass@k and pass^k rest on the problems with n >= k only "
                   f"({int(used[i, j])} of {sub.n.size} there, {int(used[i, -1])} at k = {int(ks[-1])}), while the "
                   "independent-coin curves use every problem's rate")
            record_warning(warns, msg, DroppedProblemsWarning)
    msq = pmean**2
    with np.errstate(invalid="ignore", divide="ignore"):
        second = both / pmean
        var = both - msq
        # = var/(μ(1-μ)), written so that ICC <= 1 holds in floating point too (both <= μ term by term)
        icc = 1.0 - (pmean - both) / (pmean * (1 - pmean))
    kf = ks.astype(float)[None, :]
    with np.errstate(divide="ignore"):
        ind = -np.expm1(kf * np.log1p(-mean)[:, None]) + 0.0
    indp = mean[:, None] ** kf
    return DiagnosticsResult(
        models=tuple(models),
        mean=mean,
        mean_squared=msq,
        both_right=both,
        second_given_first=second,
        icc=icc,
        difficulty_sd=np.sqrt(np.clip(var, 0.0, None)),
        k=ks,
        pass_at_k=pk,
        independent_pass_at_k=ind,
        pass_pow_k=pp,
        independent_pass_pow_k=indp,
        problems=probs,
        problems_at_k=used,
        warnings=tuple(warns),
        pair_mean=pmean,
        one_sample=single,
    )
