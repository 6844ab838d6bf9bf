"""simulate: the drawn success rates against their zero-inflated Beta law and the copula, unequal n, the defaults.

The draws are from fixed seeds (deterministic); each statistical tolerance is 4 sampling SDs of the statistic, from
its closed form, so the true law passes with room and a wrong one (named in each test) fails by many SDs.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

import passcurve as pc
from passcurve import ModelSpec, simulate


def test_drawn_rates_follow_the_zero_inflated_beta():
    # Beta(0.5, 2) with 15% impossible problems, 40,000 problems: the share of p = 0 is 0.15 (binomial SD
    # sqrt(0.15 * 0.85 / 40000) = 0.0018); the solvable p have mean a/(a + b) = 0.2 (SD of the mean
    # sqrt(ab/((a+b)^2 (a+b+1)) / 34000) = 0.0012) and their empirical CDF at the Beta's 10/50/90% quantiles is
    # 0.1/0.5/0.9 (SD sqrt(q(1-q)/34000) <= 0.0027). The marginal law is the ModelSpec's whatever the copula's
    # loading: a latent score of variance rho^2 + (1 - rho) (0.84, not 1) put F(p <= Beta 10% quantile) at 0.081
    a, b, pi0, N = 0.5, 2.0, 0.15, 40_000
    bench = simulate(problems=N, n=1, models=[ModelSpec("m", a, b, impossible=pi0)], correlation=0.8, rng=0)
    p = bench.p
    zero = np.mean(p == 0)
    assert abs(zero - pi0) < 4 * np.sqrt(pi0 * (1 - pi0) / N)
    ok = p[p > 0]
    sd = np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    assert abs(ok.mean() - a / (a + b)) < 4 * sd / np.sqrt(ok.size)
    for q in (0.1, 0.5, 0.9):
        got = np.mean(ok <= stats.beta.ppf(q, a, b))
        assert abs(got - q) < 4 * np.sqrt(q * (1 - q) / ok.size), q
    # and the counts are Binomial(n, p) given p: with n = 1 the solved share is E[p] = 0.85 * 0.2 = 0.17 (SD 0.0019)
    assert abs(bench.counts.c.mean() - (1 - pi0) * a / (a + b)) < 4 * np.sqrt(0.17 * 0.83 / N)


@pytest.mark.parametrize("rho", [0.6, -0.6])
def test_two_models_latent_scores_correlate_rho_squared(rho):
    # documented: z_m = rho s + sqrt(1 - rho^2) e_m, so two models' latent normal scores correlate rho^2 = 0.36 for
    # rho = +-0.6. The score is recovered from p as Phi^-1(F_Beta(p)) (no impossible problems: the map is one to
    # one); the SD of a sample correlation r over N = 40,000 pairs is about (1 - r^2)/sqrt(N) = 0.0044
    N = 40_000
    specs = [ModelSpec("a", 0.4, 1.5), ModelSpec("b", 0.8, 3.0)]
    bench = simulate(problems=N, n=1, models=specs, correlation=rho, rng=1)
    z = [stats.norm.ppf(stats.beta.cdf(bench.p[bench.counts.model == s.name], s.alpha, s.beta)) for s in specs]
    r = np.corrcoef(z[0], z[1])[0, 1]
    assert abs(r - rho**2) < 4 * (1 - rho**4) / np.sqrt(N)
    for zm in z:  # each standard normal (SD of the sample variance sqrt(2/N) = 0.0071)
        assert abs(zm.var() - 1) < 4 * np.sqrt(2 / N)


def test_unequal_n_is_one_count_per_problem_for_every_model_and_reproducible():
    # n given per problem: every model draws n_i samples of problem i; the same seed gives the same benchmark, and
    # the samples aggregate back to each row's (n, c) with unequal n too
    n = np.arange(1, 13)
    one = simulate(problems=12, n=n, rng=4)
    again = simulate(problems=12, n=n, rng=4)
    assert len(one.counts) == 12 * len(pc.DEMO_MODELS)
    for name in one.counts.models:
        sel = one.counts.model == name
        assert one.counts.n[sel].tolist() == n.tolist()
    assert (one.counts.c <= one.counts.n).all()
    np.testing.assert_array_equal(one.counts.c, again.counts.c)
    np.testing.assert_array_equal(one.p, again.p)
    s = one.samples(rng=2)
    row = {(m, q): i for i, (m, q) in enumerate(zip(one.counts.model, one.counts.problem, strict=True))}
    made = np.zeros(len(one.counts), int)
    solved = np.zeros(len(one.counts), int)
    for m, q, ok in zip(s["model"], s["problem_id"], s["correct"], strict=True):
        made[row[m, q]] += 1
        solved[row[m, q]] += ok
    assert made.tolist() == one.counts.n.tolist() and solved.tolist() == one.counts.c.tolist()


def test_problem_ids_are_padded_to_sort_in_order_and_the_defaults():
    # ids are zero-padded to the width of the last one, so that their text order is their number order: 10 problems
    # are problem-0 .. problem-9, 11 are problem-00 .. problem-10. The defaults: 300 problems, n = 1000, the four
    # demo models
    assert simulate(problems=10, n=2, models=pc.DEMO_MODELS[0], rng=0).counts.problem.tolist() == [
        f"problem-{i}" for i in range(10)]
    eleven = simulate(problems=11, n=2, models=pc.DEMO_MODELS[0], rng=0).counts.problem.tolist()
    assert eleven == [f"problem-{i:02d}" for i in range(11)] and eleven == sorted(eleven)
    bench = simulate(rng=0)
    assert bench.counts.models == [s.name for s in pc.DEMO_MODELS]
    assert len(bench.counts) == 4 * 300 and (bench.counts.n == 1000).all()


def test_a_0d_integer_array_is_that_number():
    # simulate(n=np.array(7)) took the branch meant for it and was refused as "`n` must be an integer >= 1 (got 7)",
    # as was every count given so (rank_models(n_resamples=np.array(200)): "must be an integer >= 100 (got 200)");
    # check_positive_int now reads a 0-d array as its one value, and a 0-d bool is still no count
    np.testing.assert_array_equal(simulate(problems=12, n=np.array(7), rng=4).counts.c,
                                  simulate(problems=12, n=7, rng=4).counts.c)
    counts = simulate(problems=40, n=np.array(20.0), rng=4).counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.DegenerateDataWarning)  # tiny-1b solves little on 40 problems: said
        assert pc.rank_models(counts, n_resamples=np.array(100), rng=0).n_resamples == 100
    with pytest.raises(pc.PasscurveError, match=r"^`n` must be an integer >= 1 \(got True\)$"):
        simulate(problems=12, n=np.array(True))
