r"""Retries with feedback: completion within a retry budget, and a test of independence across attempts.

When a harness retries after showing the model its previous error, attempt t+1 depends on
attempt t and the samples are no longer exchangeable, so Chen et al.'s pass@k (an average
over random k-subsets) estimates nothing the harness does. What it does deliver is
*completion within a budget of b attempts*: the share of problems whose first success
comes at attempt <= b. Its unbiased estimator is the empirical first-success curve

.. math:: \widehat{C}(b) = \frac{1}{|K_b|}\sum_{i \in K_b} [\,T_i \le b\,], \qquad
          K_b = \{i : T_i \le b \text{ or } n_i \ge b\}

(T_i the index of the first success of problem i, n_i its attempts; problems that stopped
before b without a success are censored at b and left out, and counted).

Independence test (fixed-budget logs, where attempts continue after a success): under
exchangeable attempts within a problem, the success count at attempt index a,
S_a = Σ_i y_{i,a}, has permutation mean E_a = Σ_i c_i/n_i and variance
V_a = Σ_i p_i(1-p_i) (p_i = c_i/n_i, over problems with an attempt a). The statistic
T = Σ_a (S_a - E_a)²/V_a is referred to its distribution under random permutations of
each problem's outcomes across its attempts (exact Monte Carlo p-value (1 + #{T* >= T})/(1 + B)).
A small p-value means the success rate depends on the attempt index: attempts are not
independent draws, pass@k's formula does not apply, and :class:`DependenceWarning` says so.
Under exchangeability E[Ĉ(b)] = pass@b, so the gap between the two curves shows what the
order of attempts (feedback) changes.

When every solved problem stops at its first success (a "retry until solved" harness), a
problem's sequence is F...FS whatever the dependence, so no within-problem test exists;
the result says so (``testable=False``, :class:`StoppingTimeWarning`) and reports only the
completion curve.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from ._errors import DependenceWarning, PasscurveError, StoppingTimeWarning, record_warning
from ._estimators import pass_at_k
from ._results import ReadOnlyResult, brief_repr, frame_html, long_frame
from ._validation import (
    MAX_RESAMPLES,
    as_bool_array,
    as_id_array,
    as_int_array,
    check_choice,
    check_positive_int,
    check_rng,
    check_scalar,
    model_streams,
    number_format,
)

__all__ = ["retries", "RetryResult"]


def _jf(x: Any) -> float | None:
    return float(x) if np.isfinite(x) else None


@dataclass(frozen=True, eq=False)
class RetryResult(ReadOnlyResult):
    """Completion within a retry budget and the attempt-independence test, per model.

    Attributes
    ----------
    models : tuple of str
    budget : ndarray of int, shape (B,)
        Budgets b = 1..max attempts.
    completion : ndarray, shape (M, B)
        Share of problems solved within b attempts (empirical first-success curve).
    known : ndarray of int, shape (M, B)
        Problems that entered ``completion`` at b (the others stopped before b unsolved).
    pass_at_k : ndarray, shape (M, B)
        Chen et al.'s pass@b from each problem's (n, c), over problems with n >= b (what
        exchangeable attempts would give; NaN where no problem has b attempts).
    pass_at_k_known : ndarray of int, shape (M, B)
        Problems that entered ``pass_at_k`` at b (n >= b). A problem solved at its first attempt and
        stopped there enters ``completion`` at every b but ``pass_at_k`` only at b = 1, so the two
        can rest on different problems.
    attempt_rate, expected_rate : ndarray, shape (M, B)
        Success rate at attempt index a, and its value expected under exchangeability.
    attempts_at : ndarray of int, shape (M, B)
        Problems with an attempt a.
    statistic, p_value : ndarray, shape (M,)
        Test of exchangeability (NaN when not testable).
    trend_z : ndarray, shape (M,)
        z-score of a linear trend of the excess successes S_a - E_a in the attempt index
        (positive: later attempts succeed more, as with feedback); roughly N(0, 1) under the
        null. A significant test with a small trend points at co-movement across problems at
        the same attempt index (batches, shared seeds) rather than at learning from feedback.
    testable : ndarray of bool, shape (M,)
    dependent : ndarray of bool, shape (M,)
        p_value < alpha.
    stops_at_success : ndarray of bool, shape (M,)
    alpha : float
    n_resamples : int
    method : tuple of str
        Per model, how the p-value was computed: "permutation" or "asymptotic".
    first_success : ndarray, shape (P,)
        Attempt (1-based) of each problem's first success; inf when never solved.
    problem, model : ndarray of str, shape (P,)
    warnings : tuple of str
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    budget: np.ndarray
    completion: np.ndarray
    known: np.ndarray
    pass_at_k: np.ndarray
    pass_at_k_known: np.ndarray
    attempt_rate: np.ndarray
    expected_rate: np.ndarray
    attempts_at: np.ndarray
    statistic: np.ndarray
    p_value: np.ndarray
    trend_z: np.ndarray
    testable: np.ndarray
    dependent: np.ndarray
    stops_at_success: np.ndarray
    alpha: float
    n_resamples: int
    method: tuple[str, ...]
    first_success: np.ndarray
    problem: np.ndarray
    model: np.ndarray
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: per model the test and ``curve`` rows {budget, completion, pass_at_k, attempt_rate,
        ...}."""
        out = []
        for i, m in enumerate(self.models):
            rows = []
            for j, b in enumerate(self.budget):
                if self.attempts_at[i, j] == 0 and self.known[i, j] == 0:
                    continue
                rows.append({
                    "budget": int(b),
                    "completion": _jf(self.completion[i, j]),
                    "known": int(self.known[i, j]),
                    "pass_at_k": _jf(self.pass_at_k[i, j]),
                    "pass_at_k_known": int(self.pass_at_k_known[i, j]),
                    "attempt_rate": _jf(self.attempt_rate[i, j]),
                    "expected_rate": _jf(self.expected_rate[i, j]),
                    "attempts_at": int(self.attempts_at[i, j]),
                })
            sel = self.model == m
            fs = self.first_success[sel]
            out.append({
                "model": m,
                "problems": int(sel.sum()),
                "solved": int(np.isfinite(fs).sum()),
                "stops_at_success": bool(self.stops_at_success[i]),
                "testable": bool(self.testable[i]),
                "statistic": _jf(self.statistic[i]),
                "p_value": _jf(self.p_value[i]),
                "trend_z": _jf(self.trend_z[i]),
                "dependent": bool(self.dependent[i]),
                "method": self.method[i],
                "curve": rows,
            })
        res: dict[str, Any] = {"alpha": self.alpha, "n_resamples": self.n_resamples, "models": out}
        if self.warnings:
            res["warnings"] = list(self.warnings)
        return res

    def to_frame(self) -> Any:
        """Long pandas DataFrame, one row per (model, budget b): ``model``, ``budget``, ``completion``,
        ``known``, ``pass_at_k``, ``pass_at_k_known``, ``attempt_rate``, ``expected_rate``, ``attempts_at``."""
        return long_frame(self.to_dict())

    def plot(self) -> Any:
        """Completion within b attempts against pass@b (exchangeable attempts), per model.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for i, m in enumerate(self.models):
            fig.add_trace(go.Scatter(x=self.budget, y=self.completion[i], mode="lines+markers",
                                     name=f"{m}: completion within b"))
            fig.add_trace(go.Scatter(x=self.budget, y=self.pass_at_k[i], mode="lines", line={"dash": "dot"},
                                     name=f"{m}: pass@b"))
        fig.update_layout(xaxis_title="attempt budget b", yaxis_title="share of problems", template="plotly_white")
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)


def _retries_iv(problem: Any, attempt: Any, correct: Any, model: Any, alpha: Any, n_resamples: Any) -> tuple:
    as_id_array(problem, "problem")
    prob = np.asarray(problem)
    prob = (prob if prob.dtype.kind in "iu" else prob.astype(object)).ravel()  # integer ids stay integers
    if prob.size == 0:
        raise PasscurveError("`problem` is empty")
    att = as_int_array(attempt, "attempt", minimum=None, max_ndim=1).ravel()  # one per row: 2-d was flattened
    corr = as_bool_array(correct, "correct")
    if not (att.size == prob.size == corr.size):
        raise PasscurveError(
            f"`problem`, `attempt` and `correct` must have the same length (got {prob.size}, {att.size}, {corr.size})"
        )
    mod = np.full(prob.size, "model", dtype=object) if model is None or isinstance(model, str) else (
        as_id_array(model, "model", prob.size, of="`problem`"))
    if isinstance(model, str):
        mod[:] = model
    alpha = check_scalar(alpha, "alpha", low=0, high=1, low_open=True, high_open=True)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=0, maximum=MAX_RESAMPLES)
    return prob, att, corr, mod, alpha, n_resamples


def _text_codes(x: np.ndarray) -> np.ndarray:
    """Codes of the labels in ``x`` ordered by their text (labels with the same text share a code).

    One dict lookup per row, then a sort of the distinct labels only: ``np.unique(x.astype(str))`` built a
    fixed-width string per row (4 bytes per character) and sorted all of them, 30 s and gigabytes at 10^7
    samples; numeric labels go straight to ``np.unique``."""
    if x.dtype.kind in "iub":
        return np.unique(x, return_inverse=True)[1].ravel()
    seen: dict[Any, int] = {}
    try:
        raw = np.fromiter((seen.setdefault(v, len(seen)) for v in x.ravel()), dtype=np.int64, count=x.size)
    except TypeError:  # unhashable labels: by their text, row by row
        return np.unique(np.array([str(v) for v in x.ravel()], dtype=str), return_inverse=True)[1].ravel()
    _, by_text = np.unique(np.array([str(v) for v in seen], dtype=str), return_inverse=True)
    return by_text.ravel()[raw]


def attempt_fault(gid_s: np.ndarray, att_s: np.ndarray, mcode_s: np.ndarray) -> tuple[np.ndarray, tuple[str, int] | None]:
    """The rule for attempt indices, on samples sorted by (group, attempt), a group being one (model, problem) and
    ``mcode_s`` its model's integer code per sample: in every group the attempts run base, base + 1, ... where base is
    the model's smallest attempt, 0 or 1 (models are analysed separately: two harnesses' logs side by side, one
    numbering from 0 and one from 1, had been refused as a gap).

    Returns ``(base, fault)``: each sample's base, and the first fault as (kind, sorted position) or None. Kinds, in
    the order they are looked for: "base" (the smallest attempt of the first model whose smallest is not 0 or 1),
    "duplicate" (the sample repeats the one before), "late" (its group starts above the base), "gap" (it follows the
    one before by more than 1). :func:`retries` says them of its arrays, ``read_attempts`` of a file's lines."""
    start = np.ones(gid_s.size, dtype=bool)
    start[1:] = gid_s[1:] != gid_s[:-1]
    # each group starts at its smallest attempt, so a model's smallest is the least of its groups' first
    first = np.full(int(mcode_s.max()) + 1, att_s.max(), dtype=att_s.dtype)
    np.minimum.at(first, mcode_s[start], att_s[start])
    base = first[mcode_s]
    d = np.zeros(att_s.size, dtype=att_s.dtype)
    d[1:] = att_s[1:] - att_s[:-1]
    for kind, bad in (("base", (base != 0) & (base != 1) & (att_s == base)), ("duplicate", ~start & (d == 0)),
                      ("late", start & (att_s != base)), ("gap", ~start & (d > 1))):
        if bad.any():
            return base, (kind, int(np.flatnonzero(bad)[0]))
    return base, None


def _group_and_check(prob: np.ndarray, att: np.ndarray, mod: np.ndarray) -> tuple[np.ndarray, ...]:
    """Sort by (model, problem, attempt); check the attempts by :func:`attempt_fault`."""
    mcode, pcode = _text_codes(mod), _text_codes(prob)
    ukey, gid = np.unique(mcode.astype(np.int64) * (int(pcode.max()) + 1) + pcode, return_inverse=True)
    order = np.lexsort((att, gid))
    gid_s, att_s = gid[order], att[order]
    starts = np.flatnonzero(np.r_[True, gid_s[1:] != gid_s[:-1]])
    several = ukey.size > 0 and int(mcode.max()) > 0
    base, fault = attempt_fault(gid_s, att_s, mcode[order])

    def where(i: int) -> str:  # the problem, and its model when there are several (problem ids repeat across models)
        j = order[i]
        return f"problem {prob[j]!r}" + (f" of model {mod[j]!r}" if several else "")

    if fault is not None:
        kind, i = fault
        if kind == "base":
            of = f" of model {mod[order[i]]!r}" if several else ""
            raise PasscurveError(f"`attempt` indices must start at 0 or 1 (smallest{of} is {int(att_s[i])})")
        if kind == "duplicate":
            raise PasscurveError(f"duplicate attempt {int(att_s[i])} in {where(i)}; each attempt index must appear once")
        if kind == "late":
            raise PasscurveError(
                f"attempt indices of {where(i)} have a gap: they start at {int(att_s[i])}, not {int(base[i])}"
            )
        raise PasscurveError(f"attempt indices of {where(i)} have a gap: {int(att_s[i])} follows {int(att_s[i - 1])}")
    pos = att_s - base  # 0-based attempt position
    return order, gid_s, starts, pos, ukey


_PERMUTATION_BUDGET = 2e8  # samples x resamples above which "auto" uses the chi-square approximation


def _permutation_p(sp: np.ndarray, sy: np.ndarray, sg: np.ndarray, B: int, E: np.ndarray, V: np.ndarray,
                   t_obs: float, n_resamples: int, gen: np.random.Generator) -> float:
    """Monte Carlo permutation p-value: outcomes shuffled within each (contiguous) problem."""
    exceed = 0
    chunk = max(1, int(2_000_000 // max(1, sp.size)))
    done = 0
    while done < n_resamples:
        b = min(chunk, n_resamples - done)
        keys = sg[None, :] + gen.random((b, sp.size))
        perm = np.argsort(keys, axis=1, kind="stable")
        yp = sy[perm]  # outcomes shuffled within each problem, positions unchanged
        idx = (np.arange(b)[:, None] * B + sp[None, :]).ravel()
        Sp = np.bincount(idx, weights=yp.ravel(), minlength=b * B).reshape(b, B)
        exceed += int((_stat(Sp, E, V) >= t_obs - 1e-9 * max(1.0, t_obs)).sum())
        done += b
    return (1 + exceed) / (1 + n_resamples)


def _stat(S: np.ndarray, E: np.ndarray, V: np.ndarray) -> np.ndarray:
    ok = V > 0
    return (((S - E) ** 2)[..., ok] / V[ok]).sum(axis=-1)


def retries(
    problem: Any,
    attempt: Any,
    correct: Any,
    *,
    model: Any = None,
    alpha: float = 0.05,
    n_resamples: int = 999,
    method: str = "auto",
    rng: Any = None,
) -> RetryResult:
    r"""Completion within a retry budget and a permutation test of independence across attempts.

    Parameters
    ----------
    problem, attempt, correct : array_like, one entry per sample
        Problem id, attempt index (consecutive integers from 0 or 1 within each problem, from the
        same base within a model: no gaps, no duplicates) and success (bool or 0/1).
    model : str or array_like, optional
        Model of each sample; each model is analysed separately.
    alpha : float
        Level of the independence test; below it :class:`DependenceWarning` is raised.
    n_resamples : int
        Permutations for the test (0 skips it unless ``method="asymptotic"``).
    method : {"auto", "permutation", "asymptotic"}
        "permutation": Monte Carlo permutation p-value (exact level). "asymptotic": with the
        same n attempts in every problem, (n-1)/n · T is asymptotically χ² with n - 1 degrees
        of freedom under the null. "auto": permutation unless samples × n_resamples > 2e8
        and the problems share one n (large logs), then asymptotic.
    rng : None, int or numpy Generator

    Returns
    -------
    RetryResult

    Notes
    -----
    See the module docstring for the estimator and the test. The permutation test is
    exact under the null that outcomes are exchangeable within each problem (independent
    and identically distributed attempts given the problem, as pass@k assumes; Chen et al.
    2021, arXiv:2107.03374); seed 003 explains why retries that read the previous error
    break it.
    """
    prob, att, corr, mod, alpha, n_resamples = _retries_iv(problem, attempt, correct, model, alpha, n_resamples)
    check_choice(method, "method", ("auto", "permutation", "asymptotic"), quoted=True)
    gen = check_rng(rng)
    order, gid_s, starts, pos, ukey = _group_and_check(prob, att, mod)
    y = corr[order].astype(np.float64)
    n_i = np.diff(np.append(starts, gid_s.size))
    c_i = np.add.reduceat(y, starts).astype(np.int64)
    big = np.iinfo(np.int64).max
    first = np.minimum.reduceat(np.where(y > 0, pos, big), starts)
    first_success = np.where(first == big, np.inf, first + 1.0)
    g_model = mod[order][starts]
    g_problem = prob[order][starts]
    B = int(n_i.max())
    budget = np.arange(1, B + 1)
    models = []  # in order of first appearance in the input, as Counts lists them (`--models B,A`: B first)
    for gi in np.argsort(np.minimum.reduceat(order, starts), kind="stable"):
        if g_model[gi] not in models:
            models.append(g_model[gi])
    M = len(models)
    completion = np.full((M, B), np.nan)
    known = np.zeros((M, B), dtype=np.int64)
    pk = np.full((M, B), np.nan)
    pk_known = np.zeros((M, B), dtype=np.int64)
    rate = np.full((M, B), np.nan)
    expected = np.full((M, B), np.nan)
    at = np.zeros((M, B), dtype=np.int64)
    stat = np.full(M, np.nan)
    trend = np.full(M, np.nan)
    pval = np.full(M, np.nan)
    testable = np.zeros(M, dtype=bool)
    stops = np.zeros(M, dtype=bool)
    warns: list[str] = []
    used: list[str] = []
    restart = model_streams(gen)
    for mi, m in enumerate(models):
        restart()  # a model's permutations do not depend on the other models in the input
        gsel = np.flatnonzero(g_model == m)
        fs, nn, cc = first_success[gsel], n_i[gsel], c_i[gsel]
        solved_by = fs[None, :] <= budget[:, None]
        kn = solved_by | (nn[None, :] >= budget[:, None])
        known[mi] = kn.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            completion[mi] = np.where(known[mi] > 0, (solved_by & kn).sum(axis=1) / np.maximum(known[mi], 1), np.nan)
            have = nn[None, :] >= budget[:, None]
            pkm = pass_at_k(nn[None, :], cc[None, :], budget[:, None], k_gt_n="nan")
            cnt = have.sum(axis=1)
            pk_known[mi] = cnt
            pk[mi] = np.where(cnt > 0, np.nansum(np.where(have, pkm, 0.0), axis=1) / np.maximum(cnt, 1), np.nan)
        # samples of this model (contiguous after the sort? not necessarily: select by group)
        smask = np.isin(gid_s, gsel)  # group ids are 0..G-1 in the order of `starts`
        sp, sy, sg = pos[smask], y[smask], gid_s[smask]
        p_g = (c_i / n_i)[sg]
        S = np.bincount(sp, weights=sy, minlength=B)[:B]
        Na = np.bincount(sp, minlength=B)[:B]
        E = np.bincount(sp, weights=p_g, minlength=B)[:B]
        V = np.bincount(sp, weights=p_g * (1 - p_g), minlength=B)[:B]
        at[mi] = Na
        with np.errstate(invalid="ignore", divide="ignore"):
            rate[mi] = np.where(Na > 0, S / np.maximum(Na, 1), np.nan)
            expected[mi] = np.where(Na > 0, E / np.maximum(Na, 1), np.nan)
        solved = np.isfinite(fs)
        stops[mi] = bool(solved.any() and np.all(fs[solved] == nn[solved]) and (nn > 1).any())
        equal_n = bool(np.all(nn == nn[0]))
        use = method
        if method == "auto":
            use = "asymptotic" if (equal_n and sp.size * n_resamples > _PERMUTATION_BUDGET) else "permutation"
        if use == "asymptotic" and not equal_n:
            raise PasscurveError(
                "`method='asymptotic'` needs the same number of attempts in every problem; use 'permutation'"
            )
        used.append(use)
        testable[mi] = (not stops[mi]) and bool((V > 0).sum() >= 2) and (n_resamples > 0 or use == "asymptotic")
        if not testable[mi]:
            if stops[mi]:
                msg = (f"model {m!r}: every solved problem stops at its first success (n is a stopping time), so "
                       "independence across attempts cannot be tested; report completion within the budget, not pass@k")
                record_warning(warns, msg, StoppingTimeWarning)
            continue
        t_obs = float(_stat(S, E, V))
        stat[mi] = t_obs
        # linear trend of the excess successes in the attempt index (approx. N(0, 1) under the null)
        okv = V > 0
        aa = np.arange(B, dtype=np.float64)[okv]
        wbar = float((aa * V[okv]).sum() / V[okv].sum())
        den = float(np.sqrt(((aa - wbar) ** 2 * V[okv]).sum()))
        trend[mi] = float(((aa - wbar) * (S - E)[okv]).sum() / den) if den > 0 else np.nan
        if use == "asymptotic":
            # equal n attempts: Cov(S) = sigma^2 n/(n-1) (I - J/n) under the permutation null, so
            # (n-1)/n * T is asymptotically chi-square with n - 1 degrees of freedom (CLT over problems)
            n0 = int(nn[0])
            pval[mi] = float(stats.chi2.sf((n0 - 1) / n0 * t_obs, n0 - 1))
        else:
            pval[mi] = _permutation_p(sp, sy, sg, B, E, V, t_obs, n_resamples, gen)
        if pval[mi] < alpha:
            first_rate, later = rate[mi, 0], np.nanmean(rate[mi, 1:]) if B > 1 else np.nan
            head = (f"model {m!r}: the success rate depends on the attempt index ({use} p = {number_format([pval[mi]])(pval[mi])}, "
                    f"trend z = {trend[mi]:.2f}; {first_rate:.3f} at attempt 1 vs {later:.3f} later)")
            if abs(trend[mi]) < 2.0:
                # no trend: the excess successes sit at particular attempt indices in many problems at once
                # (batches, shared seeds), which does not bias a problem's pass@k, unlike learning from feedback
                a_top = int(np.nanargmax(np.where(V > 0, (S - E) / np.sqrt(np.where(V > 0, V, 1.0)), -np.inf)))
                msg = (f"{head}: without a trend, successes co-move across problems at the same attempt index (most "
                       f"at attempt {a_top + 1}, counting from 1: {int(S[a_top])} successes where {E[a_top]:.1f} were "
                       "expected), as when a batch or seed is shared by the same attempt of every problem; that does "
                       "not bias each problem's pass@k, but completion in file order differs from pass@b")
            elif trend[mi] > 0:
                msg = (f"{head}: attempts are not independent draws; if the harness retried with feedback, pass@k's "
                       "formula does not apply: report completion within the retry budget")
            else:  # later attempts succeed less: a drift over the run, not what feedback does
                msg = (f"{head}: later attempts succeed less often than earlier ones, a drift over the run (as when "
                       "the sampler, the server or the prompt changed while the log was written), so attempts are not "
                       "exchangeable draws; pass@k assumes they are: check how the samples were generated")
            record_warning(warns, msg, DependenceWarning)
    return RetryResult(
        models=tuple(str(m) for m in models),
        budget=budget,
        completion=completion,
        known=known,
        pass_at_k_known=pk_known,
        pass_at_k=pk,
        attempt_rate=rate,
        expected_rate=expected,
        attempts_at=at,
        statistic=stat,
        p_value=pval,
        trend_z=trend,
        testable=testable,
        dependent=np.where(np.isfinite(pval), pval < alpha, False),
        stops_at_success=stops,
        alpha=float(alpha),
        n_resamples=int(n_resamples),
        method=tuple(used),
        first_success=first_success,
        problem=np.asarray(g_problem, dtype=object),
        model=np.asarray(g_model, dtype=object),
        warnings=tuple(warns),
    )
