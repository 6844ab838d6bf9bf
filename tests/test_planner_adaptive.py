"""Estimation under adaptive sampling: exact unbiasedness proofs by enumeration, seeded simulations of the bias."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from conftest import shared_file
from scipy import integrate, optimize, stats

from passcurve import (
    DegenerateDataWarning,
    PasscurveError,
    _adaptive,
    hierarchical_pass_at_k,
    inverse_binomial_p,
    pass_at_k,
    stopping_loglik,
    stopping_pass_at_k,
)
from passcurve._adaptive import (
    BetaPrior,
    beta_binomial_loglik,
    fit_beta_binomial,
    fit_zi_beta_binomial,
    posterior_pass_at_k,
)
from passcurve._planner import Planner


# ------------------------------------------------------------------ the stop-at-first-successful-batch design
def _design_outcomes(s: int, cap: int):
    """Every (n, c) the design can produce, with its probability as a function of p (exact)."""
    out = []
    tmax = cap // s
    for t in range(1, tmax + 1):
        for c in range(1, s + 1):
            out.append(
                (
                    s * t,
                    c,
                    lambda p, t=t, c=c: (
                        (1 - p) ** (s * (t - 1)) * math.comb(s, c) * p**c * (1 - p) ** (s - c)
                    ),
                )
            )
    out.append((cap, 0, lambda p: (1 - p) ** cap))
    return out


@pytest.mark.parametrize("p", [Fraction(1, 20), Fraction(1, 3), Fraction(4, 5)])
@pytest.mark.parametrize("k", [1, 2, 3, 5, 7, 9])
def test_stopping_estimator_is_exactly_unbiased(p, k):
    # Exact expectation over every outcome of the design (batch 3, cap 9) in rational arithmetic:
    # the Rao-Blackwellised estimator has expectation 1 - (1-p)^k for every k <= cap (closed form).
    s, cap = 3, 9
    outs = _design_outcomes(s, cap)
    probs = [f(p) for _, _, f in outs]
    assert sum(probs) == 1
    n = np.array([o[0] for o in outs])
    c = np.array([o[1] for o in outs])
    est = stopping_pass_at_k(n, c, k, batch=s, cap=cap)
    # the estimator's values are rationals with small denominators (Chen on the last batch)
    expect = sum(pr * Fraction(float(e)).limit_denominator(1000) for pr, e in zip(probs, est, strict=True))
    assert expect == 1 - (1 - p) ** k


def test_plain_chen_is_biased_on_the_stopping_design():
    # Same exact enumeration: Chen's estimator treats n as fixed and is biased upward (k <= every n).
    s, cap, k, p = 3, 9, 3, Fraction(1, 10)
    outs = _design_outcomes(s, cap)
    probs = [f(p) for _, _, f in outs]
    chen = sum(
        pr * Fraction(float(pass_at_k(n, c, k))).limit_denominator(10_000)
        for pr, (n, c, _) in zip(probs, outs, strict=True)
    )
    truth = 1 - (1 - p) ** k
    assert chen - truth > Fraction(3, 20)  # exact bias +0.1568 here (truth 0.271, Chen 0.4278)


def test_stopping_estimator_seeded_simulation_bon_like():
    # Seeded simulation of the BoN design (batch 60, cap 600) on 4000 problems with p = 0.004:
    # the stopping-time estimator is within Monte Carlo error of 1-(1-p)^k; plain Chen is not.
    rng = np.random.default_rng(7)
    s, cap, p, k = 60, 600, 0.004, 30
    m = 4000
    first = np.full(m, -1)
    draws = rng.random((m, cap)) < p
    hit = draws.reshape(m, cap // s, s).any(axis=2)
    t = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, cap // s)
    n = s * t
    c = np.array([draws[i, n[i] - s : n[i]].sum() for i in range(m)])
    del first
    truth = 1 - (1 - p) ** k
    est = stopping_pass_at_k(n, c, k, batch=s, cap=cap)
    se = est.std(ddof=1) / np.sqrt(m)
    assert abs(est.mean() - truth) < 4 * se
    chen = pass_at_k(n, c, k)
    assert chen.mean() - truth > 8 * chen.std(ddof=1) / np.sqrt(m)


def test_stopping_estimator_special_cases():
    # batch = 1 gives 1{N <= k} for the geometric waiting time N (closed form)
    assert stopping_pass_at_k(5, 1, 4, batch=1) == 0.0
    assert stopping_pass_at_k(5, 1, 5, batch=1) == 1.0
    # stopped at the cap without success: k > n is not estimable
    assert np.isnan(stopping_pass_at_k(120, 0, 200, batch=60, cap=120))
    assert stopping_pass_at_k(120, 0, 100, batch=60, cap=120) == 0.0
    # one batch, c successes: Chen's estimator of that batch (REFERENCE.md (10,3,5) = 0.9166667)
    assert stopping_pass_at_k(10, 3, 5, batch=10) == pytest.approx(0.9166667, abs=1e-7)
    # a cap that is not a multiple of the batch leaves a short last batch of 5 (cap 65, batch 60)
    assert stopping_pass_at_k(65, 1, 63, batch=60, cap=65) == pytest.approx(3 / 5)


def test_stopping_bad_inputs():
    with pytest.raises(PasscurveError, match="last batch"):
        stopping_pass_at_k(120, 61, 5, batch=60)
    with pytest.raises(PasscurveError, match="before the cap"):
        stopping_pass_at_k(120, 0, 5, batch=60, cap=600)
    with pytest.raises(PasscurveError, match="`batch`"):
        stopping_pass_at_k(120, 1, 5, batch=0)
    with pytest.raises(PasscurveError, match="`k`"):
        stopping_pass_at_k(120, 1, 0, batch=60)


def test_stopping_n_off_the_batch_grid_is_refused():
    # only the cap cuts a batch short: stopping_pass_at_k(70, 1, [1, 60, 61, 70], batch=60, cap=100) read n = 70 as a
    # failed batch of 60 and a last batch of 10 and returned [0, 0, 0.1, 1], though under this design n < cap is a
    # multiple of 60; batch=60 on data in batches of 50 (n = 50, 100, 150) went through the same way (API review)
    from passcurve import Counts, StopAtSuccess, curve

    with pytest.raises(PasscurveError, match=r"^`n` must be a multiple of `batch` under a stop-at-success design, or "
                                             r"the cap where it cut the last batch short \(got n=70, batch=60, "
                                             r"cap=100\); 1 value of n off the grid: is `batch` the design's batch size\?$"):
        stopping_pass_at_k(70, 1, [1, 60, 61, 70], batch=60, cap=100)
    with pytest.raises(PasscurveError, match=r"\(got n=50, batch=60\); 3 values of n off the grid"):
        stopping_pass_at_k([50, 100, 150], [1, 1, 1], 1, batch=60)
    # without a cap, one off-grid value that is the largest n may be the cap: the message says how to pass it
    with pytest.raises(PasscurveError, match=r"\(got n=70, batch=60\); if sampling stopped at a cap of 70 samples, "
                                             r"pass cap=70$"):
        stopping_pass_at_k([60, 70], [1, 1], 61, batch=60)
    # ... and with it the short last batch is derived: f = 60 failures, then s = 10 samples holding c = 1, so at
    # k = 61 Chen's estimator of that batch with k' = 1 is 1 - C(9,1)/C(10,1) = 0.1 (closed form)
    np.testing.assert_allclose(stopping_pass_at_k([60, 70], [1, 1], 61, batch=60, cap=70), [1.0, 0.1], rtol=1e-15)
    # the design objects share the check (curve(design=...))
    with pytest.raises(PasscurveError, match=r"`n` must be a multiple of `batch`.*\(got n=70, batch=60, cap=100\)"):
        curve(Counts.from_arrays([60, 70], [1, 1]), [1], design=StopAtSuccess(batch=60, cap=100))


def test_stopping_n_off_the_batch_grid_cli(tmp_path, capfd):
    # the command line: one line, exit 2, the library's words in its options (--stop-batch, --cap)
    from passcurve.cli._app import run

    p = tmp_path / "counts.csv"
    p.write_text("problem_id,n,c\na,60,1\nb,70,1\nc,120,2\n")
    assert run(["curve", str(p), "--stop-batch", "60", "--k", "1"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert ("`n` must be a multiple of `--stop-batch` under a stop-at-success design, or the cap where it cut the last "
            "batch short (got n=70, --stop-batch=60); 1 value of n off the grid") in err, err


def test_stopping_loglik_is_binomial_kernel_plus_constant():
    # log L(p1) - log L(p2) equals the binomial log-likelihood difference (likelihood principle)
    n, c, s = np.array([180, 60, 600]), np.array([2, 1, 0]), 60
    p1, p2 = 0.01, 0.003
    d_stop = stopping_loglik(n, c, p1, s) - stopping_loglik(n, c, p2, s)
    d_bin = stats.binom.logpmf(c, n, p1) - stats.binom.logpmf(c, n, p2)
    np.testing.assert_allclose(d_stop, d_bin, rtol=1e-12)
    # and it is a proper log-probability: exp sums to 1 over the design's outcomes (batch 3, cap 9)
    outs = _design_outcomes(3, 9)
    tot = sum(np.exp(stopping_loglik(n_, c_, 0.2, 3)) for n_, c_, _ in outs)
    assert tot == pytest.approx(1.0, abs=1e-12)
    # a cap off the batch grid (batch 3, cap 8: batches of 3, 3, then 2) needs cap= (n = 8 was refused as off the
    # grid once the design check came in, and stopping_loglik had no way to say it is the cap); its outcomes, listed
    # by hand, are (3, 1..3), (6, 1..3), (8, 1..2) and (8, 0), and their probabilities sum to 1
    outs8 = [(3, c) for c in (1, 2, 3)] + [(6, c) for c in (1, 2, 3)] + [(8, 1), (8, 2), (8, 0)]
    tot8 = sum(np.exp(stopping_loglik(n_, c_, 0.2, 3, cap=8)) for n_, c_ in outs8)
    assert tot8 == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(PasscurveError, match=r"\(got n=8, batch=3\); if sampling stopped at a cap of 8 samples, pass cap=8"):
        stopping_loglik(8, 1, 0.2, 3)


def test_inverse_binomial_unbiased_exact_series():
    # E[(r-1)/(N-1)] = p for N ~ negative binomial (trials to the r-th success); series sum to 1e-15
    p, r = 0.15, 3
    n = np.arange(r, 2000)
    pmf = stats.nbinom.pmf(n - r, r, p)
    assert np.sum(pmf * inverse_binomial_p(n, r)) == pytest.approx(p, rel=1e-10)
    with pytest.raises(PasscurveError, match="`r`"):
        inverse_binomial_p(5, 1)
    with pytest.raises(PasscurveError, match="`n`"):
        inverse_binomial_p(2, 3)
    with pytest.raises(PasscurveError, match=r"`n` must be >= r"):  # one n below r in an array is enough
        inverse_binomial_p([5, 2], 3)


# ------------------------------------------------------------------ likelihood-based estimators
def test_fit_beta_binomial_is_the_mle():
    # independent maximisation (Nelder-Mead on betaln directly) reaches the same optimum
    rng = np.random.default_rng(3)
    p = rng.beta(0.6, 4.0, 300)
    n = rng.integers(5, 80, 300)
    c = rng.binomial(n, p)
    fit = fit_beta_binomial(n, c)

    def nll(t):
        return -beta_binomial_loglik(n, c, *np.exp(t)).sum()

    ref = optimize.minimize(
        nll, np.log([1.0, 1.0]), method="Nelder-Mead", options={"xatol": 1e-9, "fatol": 1e-10}
    )
    np.testing.assert_allclose([fit.alpha, fit.beta], np.exp(ref.x), rtol=1e-4)
    assert fit.loglik == pytest.approx(-ref.fun, abs=1e-6)
    assert fit.success


def test_fit_beta_binomial_pythia_12b():
    # REFERENCE.md (Kazdan et al. 2025): alpha ~ 0.2869, beta ~ 11.452, pass@10^4 ~ 0.85807. Our exact MLE
    # has a slightly higher likelihood than those values (0.2955, 12.36); the forecasts agree within 0.005.
    import pandas as pd

    d = pd.read_csv(shared_file("pythia_math_counts.csv"))
    g = d[d.model == "Pythia 12B"]
    fit = fit_beta_binomial(g.n, g.c)
    ref_ll = beta_binomial_loglik(g.n, g.c, 0.2869, 11.452).sum()
    assert fit.loglik >= ref_ll
    assert fit.alpha == pytest.approx(0.2869, rel=0.05)
    np.testing.assert_allclose(fit.pass_at_k([1, 100, 10_000]), [0.02444, 0.48364, 0.85807], atol=0.006)


def test_posterior_and_population_pass_at_1_are_the_posterior_means_to_the_last_digits():
    # closed form: pass@1 = E[p | n, c] = (a + c)/(a + b + n) under the Beta(a, b) prior. The difference of two
    # betaln values had relative errors of 2.5e-7 at n = 10^4, c = 0 and 1.7e-4 at n = 10^6, c = 2 (a = 0.3,
    # b = 12), and 2.1e-7 for the population's pass@1 at a = 0.01, b = 1000
    a, b = 0.3, 12.0
    for n, c in [(10**4, 0), (10**6, 2), (100, 99)]:
        assert posterior_pass_at_k(n, c, 1, a, b) == pytest.approx((a + c) / (a + b + n), rel=2e-15)
    assert BetaPrior(alpha=0.01, beta=1000.0, loglik=0.0).pass_at_k(1) == pytest.approx(0.01 / 1000.01, rel=2e-15)


def test_hierarchical_pass_at_1_and_its_sd_against_the_closed_form(monkeypatch):
    # closed form: given the grid's (alpha, beta), a problem's pass@1 is (alpha + c)/(alpha + beta + n) and its
    # variance AB/((A+B)^2 (A+B+1)), A = alpha + c, B = beta + n - c. The reference runs the same grid with these
    # closed forms in place of the Beta moments. The former 1 - h1 and h2 - h1^2 from betaln differences were off by
    # 3.7e-4 (per-problem pass@1), 1.8e-2 (the SD) and 2.4e-9 (the forecast) here
    n = np.array([10**7, 10**7, 10**7, 10**6, 10**6, 10**4])
    c = np.array([0, 2, 40, 3, 5 * 10**5, 17])
    got = hierarchical_pass_at_k(n, c, 1)

    def closed(a, b, k):
        assert k == 1
        return np.log1p(-a / (a + b)), a * b / ((a + b) ** 2 * (a + b + 1.0))

    monkeypatch.setattr(_adaptive, "_beta_fail_var", closed)
    ref = hierarchical_pass_at_k(n, c, 1)
    np.testing.assert_allclose(got["per_problem"], ref["per_problem"], rtol=2e-15)
    assert got["posterior"] == pytest.approx(ref["posterior"], rel=2e-15, abs=0)
    assert got["posterior_sd"] == pytest.approx(ref["posterior_sd"], rel=1e-14, abs=0)


def test_fit_degenerate_warns():
    with pytest.warns(DegenerateDataWarning):
        fit_beta_binomial([10, 10, 10], [0, 0, 0])


def test_posterior_pass_at_k_matches_quadrature():
    # E[1-(1-p)^k | n, c] by numerical integration of the Beta posterior (independent computation)
    a, b = 0.4, 6.0
    for n, c, k in [(10, 0, 1), (10, 0, 100), (25, 3, 7), (5, 5, 1000)]:
        post = stats.beta(a + c, b + n - c)
        ref = integrate.quad(
            lambda p, k=k, post=post: (1 - (1 - p) ** k) * post.pdf(p), 0, 1, limit=200, points=[1e-6, 1e-3]
        )[0]
        assert posterior_pass_at_k(n, c, k, a, b) == pytest.approx(ref, rel=1e-6)


def test_mle_from_adaptive_data_recovers_parameters():
    # Likelihood principle: fitting (n, c) collected by the fewest-successes planner (n depends on outcomes)
    # recovers the Beta(0.5, 3) that generated p (3 seeded replicates x 400 problems; mean within 12%).
    est = []
    for r in range(3):
        rng = np.random.default_rng(100 + r)
        p = rng.beta(0.5, 3.0, 400)
        n0 = np.full(400, 5)
        pl = Planner(n=n0, c=rng.binomial(n0, p), k=50, method="fewest-successes", rng=rng)
        for _ in range(3):
            a = pl.allocate(1500)
            pl.update_counts(np.arange(400), a, rng.binomial(a, p))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = fit_beta_binomial(pl.n_, pl.c_)
        est.append([f.alpha, f.beta])
    np.testing.assert_allclose(np.mean(est, axis=0), [0.5, 3.0], rtol=0.12)


def test_adaptive_design_biases_chen_but_not_the_prefix_estimator():
    # Seeded simulation: 200 problems, p ~ Beta(0.5, 3); 10 fixed samples each, then the fewest-successes
    # planner spends 2000 more. Chen's estimator on all counts (n chosen from outcomes) is biased; Chen
    # on the fixed prefix is unbiased (within 4 Monte Carlo SE over 30 replicates).
    k, reps = 5, 30
    naive, prefix, truth = [], [], []
    for r in range(reps):
        rng = np.random.default_rng(500 + r)
        p = rng.beta(0.5, 3.0, 200)
        n0 = np.full(200, 10)
        pl = Planner(n=n0, c=rng.binomial(n0, p), k=k, method="fewest-successes", prior=(0.5, 3.0), rng=rng)
        for _ in range(2):
            a = pl.allocate(1000)
            pl.update_counts(np.arange(200), a, rng.binomial(a, p))
        f = pl.forecast()
        naive.append(f["naive"])
        prefix.append(f["prefix"])
        truth.append(np.mean(1 - (1 - p) ** k))
    d_naive = np.array(naive) - truth
    d_prefix = np.array(prefix) - truth
    se_p = d_prefix.std(ddof=1) / np.sqrt(reps)
    se_n = d_naive.std(ddof=1) / np.sqrt(reps)
    assert abs(d_prefix.mean()) < 4 * se_p
    assert abs(d_naive.mean()) > 6 * se_n


def test_stopping_estimator_on_bon_data_reproduces_hughes():
    # BoN jailbreaking counts (batches of 60, stop at the first successful batch, cap 10,020;
    # ../shared/data/README.md). REFERENCE.md (Hughes et al. 2024, arXiv 2412.03556): Llama 3 8B IT attack
    # success 0.7421 at 100 attempts and 0.9748 at 1000. The stopping-time estimator matches them (0.7474, 0.9748); the
    # plain estimator, which treats n as fixed, overstates both.
    import pandas as pd

    d = pd.read_csv(shared_file("bon_jailbreaking_counts.csv"))
    g = d[d.model == "Llama 3 8B IT"]
    n, c = g.n.to_numpy(), g.c.to_numpy()
    est = stopping_pass_at_k(n[:, None], c[:, None], np.array([[100, 1000]]), batch=60, cap=10_020).mean(
        axis=0
    )
    np.testing.assert_allclose(est, [0.7421, 0.9748], atol=0.006)
    naive = np.where(
        n[:, None] < [100, 1000], 1.0, pass_at_k(n[:, None], c[:, None], [[100, 1000]], k_gt_n="nan")
    )
    assert np.all(naive.mean(axis=0) > est + 0.01)


def test_planner_fits_agree_with_fit_difficulty_models():
    # two independent implementations of the same MLEs: passcurve._adaptive (the planner's) and the
    # difficulty-fit module (BetaBinomial, ZeroInflatedBetaBinomial)
    from passcurve import BetaBinomial, ZeroInflatedBetaBinomial

    rng = np.random.default_rng(8)
    p = rng.beta(0.4, 5.0, 400) * (rng.random(400) > 0.25)
    n = rng.integers(20, 200, 400)
    c = rng.binomial(n, p)
    mine = fit_beta_binomial(n, c)
    theirs = BetaBinomial().fit(n=n, c=c)
    np.testing.assert_allclose([mine.alpha, mine.beta], [theirs.params_["alpha"], theirs.params_["beta"]], rtol=1e-3)
    mine = fit_zi_beta_binomial(n, c)
    theirs = ZeroInflatedBetaBinomial().fit(n=n, c=c)
    got = [mine.alpha, mine.beta, mine.impossible]
    ref = [theirs.params_["alpha"], theirs.params_["beta"], theirs.params_["impossible"]]
    np.testing.assert_allclose(got, ref, rtol=2e-2)


# ---------------------------------------------------------------------- the design in curves
def _stop_design_data(seed: int, problems: int = 300, batch: int = 5, cap: int = 40):
    """Counts from a stop-at-first-successful-batch design (the BoN design, scaled down)."""
    rng = np.random.default_rng(seed)
    p = rng.beta(0.4, 6.0, problems)
    n, c = np.empty(problems, np.int64), np.empty(problems, np.int64)
    for i in range(problems):
        drawn = 0
        while True:
            size = min(batch, cap - drawn)
            hits = int(rng.binomial(size, p[i]))
            drawn += size
            if hits or drawn >= cap:
                n[i], c[i] = drawn, hits
                break
    return n, c


def test_curve_under_a_stop_design_is_the_mean_of_the_stopping_estimates():
    # reference: the per-problem stopping-time estimator (exact: the rational enumeration above),
    # averaged over problems by hand, with and without weights; k beyond a problem's n counts a
    # solved problem as solved (1), and with a cap every problem is estimable up to it
    from passcurve import Counts, StopAtSuccess, curve

    n, c = _stop_design_data(0)
    ks = np.array([1, 3, 5, 12, 40])
    design = StopAtSuccess(batch=5, cap=40)
    per = stopping_pass_at_k(n[:, None], c[:, None], ks[None, :], batch=5, cap=40)
    res = curve(Counts.from_arrays(n, c), ks, design=design)
    assert tuple(res.values) == ("pass_at_k",) and res.design == "stop at success (batch 5, cap 40)"
    np.testing.assert_allclose(res.values["pass_at_k"][0], per.mean(axis=0), rtol=1e-13)
    assert (res.problems == n.size).all() and (res.dropped == 0).all()
    w = np.random.default_rng(1).uniform(0.5, 2.0, n.size)
    res_w = curve(Counts.from_arrays(n, c, weight=w), ks, design=design)
    np.testing.assert_allclose(res_w.values["pass_at_k"][0], w @ per / w.sum(), rtol=1e-13)
    # the plain estimator on the same counts is biased upward (n is a stopping time)
    plain = curve(Counts.from_arrays(n, c), [3], k_gt_n="drop", metrics=["pass_at_k"]).values["pass_at_k"][0, 0]
    assert plain > res.values["pass_at_k"][0, 1] + 0.02


def test_curve_under_a_stop_design_without_a_cap_drops_unsolved_problems_beyond_their_n():
    # without a cap a problem that stopped unsolved at n says nothing about k > n: it is left out
    # of the mean there, counted in `dropped`, and warned about; solved ones count as 1
    from passcurve import Counts, DroppedProblemsWarning, StopAtSuccess, curve

    cnt = Counts.from_arrays([5, 10, 10, 20], [2, 1, 0, 0])
    with pytest.warns(DroppedProblemsWarning, match="stopped unsolved before k"):
        res = curve(cnt, [5, 10, 15], design=StopAtSuccess(batch=5))
    assert res.dropped[0].tolist() == [0, 0, 1]
    # k = 15: problems (5, 2) -> 1, (10, 1) -> 1, (20, 0) -> 0; (10, 0) left out
    assert res.values["pass_at_k"][0, 2] == pytest.approx(2 / 3, rel=1e-15)
    # the rule that counts the problems used (StopAtSuccess.estimable) is where the estimates are not NaN
    ks = np.arange(1, 31)
    for design, n, c in ((StopAtSuccess(batch=5), cnt.n, cnt.c),
                         (StopAtSuccess(batch=5, cap=20), np.array([5, 10, 20, 20]), np.array([2, 1, 0, 0]))):
        np.testing.assert_array_equal(design.estimable(n, c, ks[ks <= (design.cap or 30)]),
                                      ~np.isnan(design.scores(n, c, ks[ks <= (design.cap or 30)])))


def test_curve_intervals_under_a_stop_design():
    # the intervals resample problems, whose scores are the stopping-time estimates: the analytic
    # interval is about estimate ± t·SE with SE the standard error of those scores (reference: the
    # public standard_error on the per-problem estimates computed here; the interval itself is the
    # Wilson-t form, slightly asymmetric, hence the 5% tolerance on its width)
    from scipy import stats

    from passcurve import Counts, StopAtSuccess, curve_intervals, standard_error

    n, c = _stop_design_data(2)
    design = StopAtSuccess(batch=5, cap=40)
    res = curve_intervals(Counts.from_arrays(n, c), [1, 10, 40], design=design)
    per = stopping_pass_at_k(n[:, None], c[:, None], np.array([[1, 10, 40]]), batch=5, cap=40)
    se = np.array([standard_error(per[:, j])[1] for j in range(3)])
    lo, hi = res.intervals["pass_at_k"]
    np.testing.assert_allclose(res.values["pass_at_k"][0], per.mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(hi[0] - lo[0], 2 * stats.t.ppf(0.975, n.size - 1) * se, rtol=0.05)
    boot = curve_intervals(Counts.from_arrays(n, c), [1, 10, 40], design=design, method="bca", rng=0)
    blo, bhi = boot.intervals["pass_at_k"]
    assert ((blo[0] <= per.mean(axis=0)) & (per.mean(axis=0) <= bhi[0])).all()


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"metric": "pass_pow_k"}, "only pass_at_k is estimable under a stop-at-success design"),
        ({"method": "two-level"}, 'method "two-level" resamples the samples of a problem'),
        ({"k": [50]}, r"`k` must be <= the design's cap \(got k=50, cap=40\)"),
    ],
)
def test_curve_intervals_under_a_stop_design_rejects_what_it_cannot_estimate(kwargs, msg):
    from passcurve import Counts, PasscurveError, StopAtSuccess, curve_intervals

    n, c = _stop_design_data(3, problems=20)
    kwargs = {"k": [1, 5], **kwargs}
    with pytest.raises(PasscurveError, match=msg):
        curve_intervals(Counts.from_arrays(n, c), design=StopAtSuccess(batch=5, cap=40), **kwargs)


def test_a_stop_design_checks_the_counts_and_its_own_arguments():
    from passcurve import Counts, PasscurveError, StopAtSuccess, curve

    with pytest.raises(PasscurveError, match=r"`c` must be <= the size of the last batch .*batch=5"):
        curve(Counts.from_arrays([10], [7]), [1], design=StopAtSuccess(batch=5))
    with pytest.raises(PasscurveError, match=r"`batch` must be an integer >= 1"):
        StopAtSuccess(batch=0)
    with pytest.raises(PasscurveError, match="`design` must be None or a StopAtSuccess"):
        curve(Counts.from_arrays([10], [7]), [1], design="stop")
    # the value on one line (a pandas Series' repr ran over several lines) and the class itself named as such
    pd = pytest.importorskip("pandas")
    for bad, shown in ((pd.Series([1, 2]), r"\[1, 2\]"), (StopAtSuccess, "the class StopAtSuccess itself")):
        with pytest.raises(PasscurveError, match=rf"^`design` must be None or a StopAtSuccess\(batch=\.\.\., cap=\.\.\.\) "
                                                 rf"\(got {shown}\)$"):
            curve(Counts.from_arrays([10], [7]), [1], design=bad)
    with pytest.raises(PasscurveError, match="only pass_at_k is estimable"):
        curve(Counts.from_arrays([10], [2]), [1], design=StopAtSuccess(batch=10), metrics=["pass_pow_k"])


def test_curve_cli_with_stop_batch_reproduces_hughes_on_bon_data(icli):
    # BoN jailbreaking counts (batch 60, cap 10,020): `passcurve curve --stop-batch 60 --cap 10020`
    # gives the stopping-time estimates; reference REFERENCE.md (Hughes et al. 2024): Llama 3 8B IT
    # 0.7421 at 100 attempts, 0.9748 at 1000 (the same tolerance as the estimator's own test above)
    import json

    res = icli("curve", str(shared_file("bon_jailbreaking_counts.csv")), "--stop-batch", "60", "--cap", "10020",
               "--k", "100,1000", "--ci", "analytic", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["design"] == "stop at success (batch 60, cap 10020)"
    llama = next(m for m in data["models"] if m["model"] == "Llama 3 8B IT")
    got = [pt["pass_at_k"] for pt in llama["curve"]]
    np.testing.assert_allclose(got, [0.7421, 0.9748], atol=0.006)
    assert all(pt["low"] <= pt["pass_at_k"] <= pt["high"] for pt in llama["curve"])
    bad = icli("curve", str(shared_file("bon_jailbreaking_counts.csv")), "--cap", "100")
    assert bad.returncode == 2 and "`--cap` goes with `--stop-batch`" in bad.stderr


def test_compare_under_a_stop_design_pairs_the_stopping_estimates():
    # reference: the paired difference is the mean over problems of the per-problem stopping-time
    # estimates' differences (computed here); the BCa interval holds it; asking for pass^k or for k
    # beyond an unsolved problem's n without a cap says why it cannot be estimated
    from passcurve import Counts, PasscurveError, StopAtSuccess, compare

    na, ca = _stop_design_data(4, problems=200)
    nb, cb = _stop_design_data(5, problems=200)
    prob = [f"p{i}" for i in range(200)]
    cnt = Counts.from_arrays(np.concatenate([na, nb]), np.concatenate([ca, cb]), problem=prob + prob,
                             model=["A"] * 200 + ["B"] * 200)
    design = StopAtSuccess(batch=5, cap=40)
    res = compare(cnt, "A", "B", k=[1, 10, 40], design=design, method="bca", rng=0)
    ks = np.array([[1, 10, 40]])
    d = (stopping_pass_at_k(na[:, None], ca[:, None], ks, batch=5, cap=40)
         - stopping_pass_at_k(nb[:, None], cb[:, None], ks, batch=5, cap=40))
    assert res.paired and res.to_dict()["design"] == "stop at success (batch 5, cap 40)"
    np.testing.assert_allclose(res.difference, d.mean(axis=0), rtol=1e-12, atol=1e-15)
    assert ((res.low <= res.difference) & (res.difference <= res.high)).all()
    with pytest.raises(PasscurveError, match="only pass_at_k is estimable"):
        compare(cnt, "A", "B", k=[1], design=design, metric="pass_pow_k")
    with pytest.raises(PasscurveError, match="without a cap"):
        compare(cnt, "A", "B", k=[41], design=StopAtSuccess(batch=5))


def test_report_cli_with_stop_batch_on_bon_data(icli, tmp_path):
    # `passcurve report --stop-batch 60 --cap 10020` on the BoN counts: the page states the design, the
    # sections that assume fixed n are omitted with a note, and the reader's stopping-time warning is no
    # longer in the "read with care" banner nor on stderr (it has been acted on) but still in the flags
    out = tmp_path / "bon.html"
    res = icli("report", str(shared_file("bon_jailbreaking_counts.csv")), "-o", str(out), "--stop-batch", "60",
               "--cap", "10020")
    assert res.returncode == 0, res.stderr
    page = out.read_text(encoding="utf-8")
    assert "stopping-time estimator for a <strong>stop at success (batch 60, cap 10020)</strong> design" in page
    assert "omitted pass-pow-k" in res.stdout and "omitted hidden-difficulty" in res.stdout
    banner = page[page.index('id="banner"'):page.index("</div>", page.index('id="banner"'))] if 'id="banner"' in page else ""
    assert "StoppingTimeWarning" not in banner and "StoppingTimeWarning" in page
    assert "StoppingTimeWarning" not in res.stderr
    plain = icli("curve", str(shared_file("bon_jailbreaking_counts.csv")), "--k", "1")
    assert "StoppingTimeWarning" in plain.stderr and "--stop-batch 60" in plain.stderr


def test_truncating_a_stop_design_record_is_the_design_with_a_smaller_cap():
    # reference: the design itself. Problems with a known p sampled with cap 30 and then truncated to a
    # cap of 9 must be distributed as the same problems sampled with cap 9 directly (the frequency of
    # every (n, c) agrees within 4 standard errors), and the deterministic cases are exact
    from passcurve import StopAtSuccess

    d = StopAtSuccess(batch=3, cap=30)
    gen = np.random.default_rng(0)
    assert [v.tolist() for v in d.truncate(np.array([6, 6, 6]), np.array([2, 2, 2]), 3, gen)] == [[3, 3, 3], [0, 0, 0]]
    assert [v.tolist() for v in d.truncate(np.array([6]), np.array([2]), 6, gen)] == [[6], [2]]

    def sample(cap: int, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        n, c = np.zeros(size, np.int64), np.zeros(size, np.int64)
        for i in range(size):
            drawn = 0
            while True:
                b = min(3, cap - drawn)
                hits = int(rng.binomial(b, 0.08))
                drawn += b
                if hits or drawn >= cap:
                    n[i], c[i] = drawn, hits
                    break
        return n, c

    size = 20_000
    n30, c30 = sample(30, size, np.random.default_rng(1))
    # a cap of 9 (a multiple of the batch) never cuts a batch; one of 8 cuts the third batch to 2 samples, whose
    # successes are drawn (hypergeometric): (9, 2) becomes (8, 1) or (8, 2), (9, 1) becomes (8, 0) or (8, 1)
    assert d.cuts(n30, 9).sum() == 0 and d.cuts(n30, 8).sum() > 1000
    for m, seed in ((9, 3), (8, 4)):
        nt, ct = d.truncate(n30, c30, m, np.random.default_rng(2))
        nm, cm = sample(m, size, np.random.default_rng(seed))
        for key in set(zip(nt.tolist(), ct.tolist(), strict=True)) | set(zip(nm.tolist(), cm.tolist(), strict=True)):
            f1 = np.mean((nt == key[0]) & (ct == key[1]))
            f2 = np.mean((nm == key[0]) & (cm == key[1]))
            se = np.sqrt((f1 * (1 - f1) + f2 * (1 - f2)) / size) + 1e-12
            assert abs(f1 - f2) < 4 * se + 1e-4, (m, key, f1, f2)


def test_forecast_under_a_stop_design():
    # least squares fits the stopping-time curve (reference: fit_power_law with the same design and
    # its own prediction); the difficulty fits' likelihood is unchanged by the design, so their
    # forecasts are identical with and without it; the stopping-time flag is not raised under the design
    import warnings as w

    from passcurve import Counts, StopAtSuccess, StoppingTimeWarning, curve, fit_power_law, forecast

    n, c = _stop_design_data(6, problems=300, batch=5, cap=200)
    cnt = Counts.from_arrays(n, c)
    d = StopAtSuccess(batch=5, cap=200)
    K = np.array([1000, 10_000])
    ls = forecast(cnt, K, method="least_squares", design=d, n_resamples=0)
    pl = fit_power_law(cnt, design=d)
    np.testing.assert_allclose(ls.pass_at_k[0], pl.predict(K)[0], rtol=1e-12)
    ref = curve(cnt, pl.k[0], design=d).values["pass_at_k"][0]
    np.testing.assert_allclose(pl.pass_at_k[0], ref, rtol=1e-13)
    assert pl.convention == "stop at success (batch 5, cap 200)"
    with w.catch_warnings():
        w.simplefilter("ignore")
        zi_d = forecast(cnt, K, method="zi_beta", design=d, n_resamples=0)
        zi = forecast(cnt, K, method="zi_beta", n_resamples=0)
    np.testing.assert_allclose(zi_d.pass_at_k, zi.pass_at_k, rtol=1e-12)
    with w.catch_warnings(record=True) as caught:
        w.simplefilter("always")
        auto = forecast(cnt, K, design=d, n_resamples=10, rng=0)
    assert not any(issubclass(x.category, StoppingTimeWarning) for x in caught)
    with pytest.warns(StoppingTimeWarning):  # the same counts without the design are flagged
        forecast(cnt, K, method="beta_eb", n_resamples=0)
    assert sum(auto.weights[0].values()) == pytest.approx(1.0)
    assert ((auto.low <= auto.pass_at_k) & (auto.pass_at_k <= auto.high)).all()


def test_backtest_under_a_stop_design_truncates_instead_of_thinning():
    # reference: the same steps by hand. The truth is the full data's stopping-time estimate at k; the
    # data are truncated to a cap of m with the backtest's own data stream (its first draw from rng
    # seeds it), and least squares forecasts under the design with cap m
    from passcurve import Counts, StopAtSuccess, backtest, forecast

    n, c = _stop_design_data(7, problems=200, batch=5, cap=200)
    cnt = Counts.from_arrays(n, c, model=["m"] * n.size)
    d = StopAtSuccess(batch=5, cap=200)
    res = backtest(cnt, m=20, k=200, seeds=1, methods=("least_squares",), rng=0, design=d, n_resamples=0)
    (row,) = res.rows
    assert row["truth"] == pytest.approx(float(d.mean_curve(n, c, np.array([200]))[0][0]), rel=1e-15)
    gen = np.random.default_rng(0)
    data_gen = np.random.default_rng(gen.integers(2**63))
    nt, ct = d.truncate(n, c, 20, data_gen)
    ref = forecast(Counts.from_arrays(nt, ct), [200], method="least_squares", design=StopAtSuccess(5, 20),
                   n_resamples=0, flags=False)
    assert row["forecast"] == pytest.approx(float(ref.pass_at_k[0, 0]), rel=1e-12)
    from passcurve import PasscurveError

    with pytest.raises(PasscurveError, match=r"no \(m, k\) pair with m < k <= 200"):
        backtest(cnt, m=20, k=500, design=d)
    # truncation draws nothing: three seeds would be three copies of one run (forecasting review)
    from passcurve import DegenerateDataWarning

    with pytest.warns(DegenerateDataWarning, match=r"seeds=3 repeat the same run under the stop-at-success design"):
        three = backtest(cnt, m=20, k=200, seeds=3, methods=("least_squares",), rng=0, design=d, n_resamples=0)
    assert len(three.rows) == 1 and three.rows[0]["forecast"] == pytest.approx(row["forecast"], rel=1e-12)
    with pytest.warns(DegenerateDataWarning, match=r"seeds=2 repeat the same run"):
        assert len(backtest(cnt, m=20, k=200, seeds=2, methods=("least_squares",), rng=0, design=d,
                            n_resamples=0).rows) == 1
    with warnings.catch_warnings():  # one seed is one run: nothing repeats
        warnings.simplefilter("error", DegenerateDataWarning)
        backtest(cnt, m=20, k=200, seeds=1, methods=("least_squares",), rng=0, design=d, n_resamples=0)
    # a cap of 22 cuts the last batch (20, 25] of the problems stopped there: a hypergeometric draw per seed
    assert ((n > 20) & (n <= 25)).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        two = backtest(cnt, m=22, k=200, seeds=2, methods=("least_squares",), rng=0, design=d, n_resamples=0)
    assert len(two.rows) == 2
    # a cap that cuts (22) beside one that does not (20): the seeds draw different runs at 22, so none is dropped
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        both = backtest(cnt, m=[20, 22], k=200, seeds=2, methods=("least_squares",), rng=0, design=d, n_resamples=0)
    assert [r["m"] for r in both.rows] == [20, 22, 20, 22]


def test_docs_bon_bootstrap_interval_is_what_curve_gives(icli):
    # README and docs/planning.md quote `passcurve curve bon_jailbreaking_counts.csv --stop-batch 60 --cap 10020
    # --ci bootstrap`: "Llama 3 8B IT 0.7474 [0.6843, 0.8089] at k = 100", the problem-by-problem draw's interval;
    # since bootstrap resamples run over distinct (n, c) rows (6a3135b, other draws of the same law) the command
    # gives [0.6810, 0.8137] (docs audit). The reference is the command the docs name, run as they name it.
    import json
    import re

    from conftest import ROOT

    res = icli("curve", str(shared_file("bon_jailbreaking_counts.csv")), "--stop-batch", "60", "--cap", "10020",
               "--k", "100", "--ci", "bootstrap", "--models", "Llama 3 8B IT", "--json")
    assert res.returncode == 0, res.stderr
    pt = json.loads(res.stdout)["models"][0]["curve"][0]
    got = f"{pt['pass_at_k']:.4f} [{pt['low']:.4f}, {pt['high']:.4f}]"
    for doc in ("README.md", "docs/planning.md"):
        shown = re.findall(r"0\.7474 \[0\.\d{4}, 0\.\d{4}\]", (ROOT / doc).read_text(encoding="utf-8"))
        assert shown == [got], f"{doc} shows {shown}, the command gives {got}"


def test_beta_priors_moments_and_pass_at_k_in_closed_form():
    # Beta(2, 3): B(2, 3 + d)/B(2, 3) = 12/((3 + d)(4 + d)), so M(0, 2) = 2/5 and pass@k = 1 - 12/((3 + k)(4 + k));
    # M(1, 1) = B(3, 4)/B(2, 3) = (1/60)/(1/12) = 1/5. With a point mass pi0 = 1/4 at p = 0:
    # M(c, d) = (3/4) B(2 + c, 3 + d)/B(2, 3) + (1/4) 1{c = 0} and pass@k = (3/4) (1 - 12/((3 + k)(4 + k)))
    from passcurve._adaptive import ZeroInflatedBetaPrior

    beta = BetaPrior(2.0, 3.0, 0.0)
    zi = ZeroInflatedBetaPrior(2.0, 3.0, 0.0, impossible=0.25)
    np.testing.assert_allclose(np.exp(beta.log_moment([0, 1], [2, 1])), [2 / 5, 1 / 5], rtol=1e-14)
    np.testing.assert_allclose(np.exp(zi.log_moment([0, 1], [2, 1])), [0.75 * 2 / 5 + 0.25, 0.75 / 5], rtol=1e-14)
    ks = np.array([1, 2, 6])
    ref = 1 - 12 / ((3 + ks) * (4 + ks))  # 2/5, 3/5, 13/15
    np.testing.assert_allclose(beta.pass_at_k(ks), ref, rtol=1e-14)
    np.testing.assert_allclose(zi.pass_at_k(ks), 0.75 * ref, rtol=1e-14)
    assert isinstance(zi.pass_at_k(6), float) and zi.pass_at_k(6) == pytest.approx(0.65, rel=1e-14)
    assert isinstance(zi.pass_at_k(ks), np.ndarray)


def test_posterior_pass_at_k_at_k_zero_and_its_bad_inputs():
    # pass@0 = 1 - E[(1-p)^0] = 0 (no attempt); k = 0 is allowed, k < 0 and alpha, beta <= 0 are not
    assert posterior_pass_at_k(5, 2, 0, 1.0, 1.0) == 0.0
    assert isinstance(posterior_pass_at_k(5, 2, 1, 1.0, 1.0), float)
    assert posterior_pass_at_k(5, 2, 1, 1.0, 1.0) == pytest.approx(3 / 7, rel=1e-14)  # (1 + 2)/(2 + 5)
    np.testing.assert_allclose(posterior_pass_at_k([5, 5], [2, 0], 1, 1.0, 1.0), [3 / 7, 1 / 7], rtol=1e-14)
    with pytest.raises(PasscurveError, match=r"^`k` must be >= 0 \(got k=-2\)$"):
        posterior_pass_at_k(5, 2, [3, -2], 1.0, 1.0)
    for alpha, beta in ((0.0, 1.0), (1.0, 0.0), (-1.0, 1.0), (1.0, -1.0)):
        with pytest.raises(PasscurveError, match="`alpha` and `beta` must be > 0"):
            posterior_pass_at_k(5, 2, 1, alpha, beta)


def test_stopping_loglik_at_p_zero_and_one():
    # p = 0: a problem that reached the cap unsolved has probability 1 (log 0); p = 1: a first batch of 3 all
    # successes has probability 1. p outside [0, 1] is refused, anywhere in an array
    assert stopping_loglik(6, 0, 0.0, 3, cap=6) == 0.0
    assert stopping_loglik(3, 3, 1.0, 3) == 0.0
    for p in (1.5, -0.1, [0.5, 1.01], [-0.5, 0.5]):
        with pytest.raises(PasscurveError, match=r"`p` must be in \[0, 1\]"):
            stopping_loglik(3, 1, p, 3)


def test_stop_design_k_max_and_the_problems_behind_each_k():
    # by hand: without a cap the largest k at which every problem is estimable is the smallest n at which one stopped
    # unsolved (20 here), else the largest n; with a cap, the cap
    from passcurve import StopAtSuccess

    d = StopAtSuccess(batch=10)
    assert d.k_max(np.array([10, 30, 20, 40]), np.array([1, 0, 0, 2])) == 20
    assert d.k_max(np.array([10, 40, 20]), np.array([1, 2, 3])) == 40
    assert StopAtSuccess(batch=10, cap=50).k_max(np.array([10, 50]), np.array([1, 0])) == 50
    # mean over the estimable problems, with their number: k = 5: Chen on the first batch of (10, 1) is
    # 1 - C(9,5)/C(10,5) = 1/2, the others stopped after 10 and 20 failures (0): 1/6 over 3 problems; k = 25:
    # (10, 1) is solved (1), (20, 0) is not estimable, (30, 2) is Chen on its last batch with k' = 5,
    # 1 - C(8,5)/C(10,5) = 7/9: 8/9 over 2 problems
    curve_, used = d.mean_curve(np.array([10, 20, 30]), np.array([1, 0, 2]), np.array([5, 25]))
    np.testing.assert_allclose(curve_, [1 / 6, 8 / 9], rtol=1e-14)
    assert used.tolist() == [3, 2]
