"""Paired comparisons, p-values and power analysis."""

from __future__ import annotations

import inspect
import itertools
import json
import math
import statistics
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import special, stats

from passcurve import (
    CompareResult,
    Counts,
    DegenerateDataWarning,
    PasscurveError,
    UnpairedComparisonWarning,
    compare,
    g_pass_at_k,
    pass_at_k,
    pass_pow_k,
    power_analysis,
    simulate,
)
from passcurve._compare import _sign_flip_p, _within_var_exact
from passcurve._uncertainty import _boot_means, _scores


def _two_models(seed=0, N=120, n=10, shift=0.0, rho=0.9):
    """Two models on the same problems, per-problem rates linked through a shared latent."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(N)
    za = z
    zb = rho * z + np.sqrt(1 - rho**2) * rng.standard_normal(N)
    pa = stats.norm.cdf(za - 0.5 + shift)
    pb = stats.norm.cdf(zb - 0.5)
    n_arr = np.full(N, n)
    c = np.concatenate([rng.binomial(n, pa), rng.binomial(n, pb)])
    model = np.repeat(["A", "B"], N)
    problem = np.tile(np.arange(N), 2)
    return Counts.from_arrays(np.concatenate([n_arr, n_arr]), c, model=model, problem=problem)


def test_paired_se_matches_miller_formula():
    # REFERENCE.md (Miller 2024): SE_{A-B}^2 = (Var_A + Var_B - 2 Cov)/N
    cnt = _two_models(1)
    res = compare(cnt, "A", "B", [1, 5], method="analytic")
    ks = np.array([1, 5])
    sa = _scores(cnt.n[:120], cnt.c[:120], ks, "pass_at_k", None)
    sb = _scores(cnt.n[120:], cnt.c[120:], ks, "pass_at_k", None)
    for j in range(2):
        cov = np.cov(sa[:, j], sb[:, j], ddof=1)
        se = np.sqrt((cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) / 120)
        assert res.se[j] == pytest.approx(se, rel=1e-10)
        assert res.difference[j] == pytest.approx(sa[:, j].mean() - sb[:, j].mean())
        # paired t-test p-value, independently from scipy
        assert res.p_value[j] == pytest.approx(stats.ttest_rel(sa[:, j], sb[:, j]).pvalue, rel=1e-8)
    assert res.paired and res.test == "paired t-test"
    # pairing helps: the paired SE is well below the unpaired sqrt(Var_A/N + Var_B/N)
    unpaired = np.sqrt(sa[:, 0].var(ddof=1) / 120 + sb[:, 0].var(ddof=1) / 120)
    assert res.se[0] < 0.8 * unpaired


def test_sign_flip_p_matches_exact_enumeration():
    # exact permutation p-value by enumerating all 2^10 sign vectors
    rng = np.random.default_rng(2)
    d = rng.normal(0.3, 1.0, 10)
    obs = abs(d.sum())
    allsigns = np.array(list(itertools.product([-1, 1], repeat=10)))
    exact = (np.abs(allsigns @ d) >= obs - 1e-12).mean()
    p, inverted = _sign_flip_p(d[:, None], np.arange(10), 10, 40000, np.random.default_rng(3))
    assert inverted is None  # only asked for with the weights
    assert p[0] == exact  # 2^10 <= B: every sign vector is enumerated, so the p-value is the exact one
    # fewer resamples than sign vectors: B random ones, (1 + #exceed) / (B + 1), within its Monte Carlo error
    p_mc, _ = _sign_flip_p(d[:, None], np.arange(10), 10, 1000, np.random.default_rng(3))
    assert p_mc[0] != exact and p_mc[0] == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / 1000))


def test_sign_flip_p_is_exact_over_the_clusters_whose_difference_is_not_zero():
    # 20 problems in G = 14 clusters, B = 100 < 2^14: the p-value was drawn from 100 random sign vectors even where
    # only 5 or 6 cluster sums are non-zero (flipping a 0 changes nothing, so each pattern of the non-zero signs
    # recurs 2^(G - G') times among the 2^G vectors). Reference: exact enumeration of all 2^14 sign vectors over the
    # cluster sums in exact rationals, per column (the zero clusters differ by column, as they do by k)
    groups = np.array([0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12, 12, 13, 13])
    quarters = np.array([
        [1, -1, 3, 0, 2, 1, 0, -2, 0, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0, 0],   # 5 non-zero sums (cluster 0 cancels)
        [0, 0, 2, 1, -3, 0, 0, 1, 2, -2, 0, 0, 1, 1, 0, 0, 0, 0, 2, 0],   # 6 non-zero sums (cluster 6 cancels)
        [1, 0, 2, 1, -3, 0, 1, 1, 2, -1, 3, 0, 1, 1, 0, 2, 0, 0, 2, 0],   # 11 non-zero: 2^11 > B, random
    ]).T
    D = quarters / 4.0
    B = 100

    def brute(col: int) -> Fraction:
        sums = [sum((Fraction(int(q), 4) for q, g in zip(quarters[:, col], groups, strict=True) if g == c), Fraction(0))
                for c in range(14)]
        obs = abs(sum(sums))
        hits = sum(abs(sum(s * x for s, x in zip(sg, sums, strict=True))) >= obs
                   for sg in itertools.product([1, -1], repeat=14))
        return Fraction(hits, 2**14)

    p, _ = _sign_flip_p(D, groups, 14, B, np.random.default_rng(3))
    exact = [brute(0), brute(1)]
    assert exact == [Fraction(3, 16), Fraction(7, 16)]
    assert p[0] == exact[0] and p[1] == exact[1]
    # the column with too many non-zero sums keeps its random value: the same draws as on its own, (1 + #)/(B + 1)
    alone, _ = _sign_flip_p(D[:, 2:], groups, 14, B, np.random.default_rng(3))
    assert p[2] == alone[0] and round(p[2] * (B + 1), 9) == int(round(p[2] * (B + 1)))


def test_sign_flip_interval_takes_in_zero_where_the_exact_p_value_keeps_it():
    # 50 problems, 5 differing by 1: the exact p-value is 2/2^5 = 0.0625 (exact enumeration), above alpha = 0.06.
    # With B = 40 random sign vectors (2^50 > B) it read 0.0488 at this seed, and the inverted interval [0.033, 0.2]
    # excluded 0; the p-value is now exact, and the interval (whose shifted differences are non-zero in all 50
    # problems, so it keeps the random vectors) takes in 0, which the exact test does not reject
    d = np.zeros(50)
    d[:5] = 1.0
    p, (lo, hi) = _sign_flip_p(d[:, None], np.arange(50), 50, 40, np.random.default_rng(1), w=np.ones(50), alpha=0.06)
    assert p[0] == 0.0625
    assert lo[0] <= 0.0 < d.mean() < hi[0]


def test_default_resamples_enumerate_the_sign_vectors_up_to_ten_problems():
    # docs/uncertainty.md said the default B was 9,999, "so G <= 13 is exact"; compare's default n_resamples is 2,000,
    # so the p-value is exact (a multiple of 2^-G) up to G = 10 (2^10 = 1,024 <= 2,000) and Monte Carlo from G = 11
    assert inspect.signature(compare).parameters["n_resamples"].default == 2000
    for g, exact in ((10, True), (11, False)):
        rng = np.random.default_rng(1)
        cnt = Counts.from_arrays(np.full(2 * g, 10), rng.integers(0, 11, 2 * g), problem=[f"p{i}" for i in range(g)] * 2,
                                 model=["A"] * g + ["B"] * g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scaled = compare(cnt, "A", "B", [1], rng=0).p_value[0] * 2**g
        assert (abs(scaled - round(scaled)) < 1e-9) == exact, (g, scaled)


def test_inverted_sign_flip_interval_matches_exact_enumeration():
    # the interval of shifts delta the sign-flip test of d_i - delta does not reject at level alpha, against the
    # exact test (all 2^10 sign vectors) on a grid of delta: the same set, up to the Monte Carlo error of p
    rng = np.random.default_rng(5)
    d = np.round(rng.normal(0.15, 0.3, 10), 2)
    alpha = 0.2
    signs = np.array(list(itertools.product([-1, 1], repeat=10)))

    def exact_p(delta: float) -> float:
        x = d - delta
        return float((np.abs(signs @ x) >= abs(x.sum()) - 1e-12).mean())

    grid = np.linspace(-1, 1, 4001)
    kept = [x for x in grid if exact_p(x) > alpha]
    _, (lo, hi) = _sign_flip_p(d[:, None], np.arange(10), 10, 40000, np.random.default_rng(3), w=np.ones(10),
                               alpha=alpha)
    # exact (2^10 <= B sign vectors enumerated): the ends agree with the grid's to its step (0.0005)
    assert lo[0] == pytest.approx(min(kept), abs=6e-4) and hi[0] == pytest.approx(max(kept), abs=6e-4)
    assert lo[0] < d.mean() < hi[0]


def test_few_differing_problems_interval_agrees_with_the_test():
    # 50 problems, model A solves 3 that B never does (20 of 20 against 0 of 20), the rest identical: three
    # signs allow no p-value below 2/8 = 0.25, yet BCa gave [0.02, 0.16], excluding 0 (report audit). The interval
    # now also covers every shift the sign-flip test keeps, so it contains 0 as p > 0.05 says; a warning says why
    n = np.full(50, 20)
    cb = np.array([20] * 20 + [0] * 30)
    ca = cb.copy()
    ca[20:23] = 20
    cnt = Counts.from_arrays(np.r_[n, n], np.r_[ca, cb], model=["A"] * 50 + ["B"] * 50,
                             problem=[f"p{i}" for i in range(50)] * 2)
    for method in ("bootstrap", "bca"):
        with pytest.warns(DegenerateDataWarning, match="rests on few problems"):
            res = compare(cnt, "A", "B", [1, 20], method=method, rng=0)
        assert res.difference == pytest.approx([0.06, 0.06])
        # exact enumeration over the 3 differing problems (the 47 zero differences flip to themselves): 2/2^3. It read
        # 0.2489 from 2,000 random sign vectors over all 50 (2^50 > B) before the zeros were left out
        assert (res.p_value == 0.25).all()
        assert (res.low <= 0).all() and (res.high >= 0.06).all(), (method, res.low, res.high)


def test_type_one_error_of_permutation_test():
    # identical models (same per-problem rate): p < 0.05 about 5% of the time
    rng = np.random.default_rng(4)
    R, N, n = 300, 60, 5
    rejections = 0
    for r in range(R):
        p = rng.beta(0.7, 1.5, N)
        c = np.concatenate([rng.binomial(n, p), rng.binomial(n, p)])
        cnt = Counts.from_arrays(np.full(2 * N, n), c, model=np.repeat(["A", "B"], N), problem=np.tile(np.arange(N), 2))
        res = compare(cnt, "A", "B", [1], n_resamples=200, rng=r)
        rejections += res.p_value[0] < 0.05
    assert 0.025 <= rejections / R <= 0.08


def test_interval_coverage_of_paired_difference():
    # population difference of pass@1 under the simulator: E[Phi(z - 0.5 + shift)] - E[Phi(z' - 0.5)]
    shift = 0.3
    truth = stats.norm.cdf((-0.5 + shift) / np.sqrt(2)) - stats.norm.cdf(-0.5 / np.sqrt(2))  # E Phi(Z + m) = Phi(m / sqrt 2)
    hits = {"bootstrap": 0, "analytic": 0}
    R = 200
    for r in range(R):
        cnt = _two_models(100 + r, N=80, n=6, shift=shift)
        for m in hits:
            res = compare(cnt, "A", "B", [1], method=m, n_resamples=300, rng=r)
            hits[m] += res.low[0] <= truth <= res.high[0]
    for m, h in hits.items():
        assert 0.91 <= h / R <= 0.985, (m, h / R)


def test_detects_real_difference_and_result_object():
    bench = simulate(300, 50, rng=1)
    res = compare(bench.counts, "large-70b", "tiny-1b", [1, 10, 50], rng=0)
    assert isinstance(res, CompareResult)
    assert (res.difference > 0).all() and (res.low > 0).all()
    assert (res.p_value < 0.01).all()
    d = res.to_dict()
    json.dumps(d)
    assert d["paired"] and [p["k"] for p in d["points"]] == [1, 10, 50]
    assert {"difference", "low", "high", "p_value", "se"} <= set(d["points"][0])
    frame = res.to_frame()
    assert list(frame["k"]) == [1, 10, 50]
    # every other result's frame names its model(s); this one had only the values 'a' and 'b', so frames of
    # several comparisons concatenated into rows nobody could attribute
    assert list(frame.columns[:3]) == ["model_a", "model_b", "k"]
    assert set(frame["model_a"]) == {"large-70b"} and set(frame["model_b"]) == {"tiny-1b"}
    fig = res.plot()
    assert len(fig.data) == 2


def test_bca_and_cluster_sign_flips():
    cnt = _two_models(5, N=100)
    cl = np.tile(np.arange(100) // 5, 2)
    cnt = Counts.from_arrays(cnt.n, cnt.c, model=cnt.model, problem=cnt.problem, cluster=cl)
    res = compare(cnt, "A", "B", [1, 3], method="bca", n_resamples=500, rng=1)
    assert (res.low <= res.difference).all() and (res.difference <= res.high).all()
    assert res.problems.tolist() == [100, 100]


def test_cluster_sign_flip_p_value_matches_exact_enumeration():
    # 15 problems in G = 5 clusters of 3, pass@1 of n = 4: under H0 the signs of whole clusters flip, so the exact
    # p-value is #{s in {-1, 1}^5 : |sum_g s_g D_g| >= |sum_g D_g|} / 2^5 over the cluster sums D_g (exact
    # rationals, enumerated): 8/32 = 1/4. Flipping problems one by one would give 1888/32768 = 0.0576 instead
    cA = [4, 3, 4, 2, 1, 0, 3, 2, 2, 4, 1, 3, 0, 1, 2]
    cB = [1, 2, 2, 2, 1, 1, 0, 1, 2, 1, 2, 1, 1, 0, 2]
    cl = [g for g in range(5) for _ in range(3)]
    cnt = Counts.from_arrays([4] * 30, cA + cB, model=["A"] * 15 + ["B"] * 15, problem=list(range(15)) * 2,
                             cluster=cl + cl)
    d = [Fraction(a - b, 4) for a, b in zip(cA, cB, strict=True)]
    D = [sum((d[i] for i in range(15) if cl[i] == g), Fraction(0)) for g in range(5)]
    obs = abs(sum(D))
    exact = Fraction(sum(abs(sum(s * x for s, x in zip(sg, D, strict=True))) >= obs
                         for sg in itertools.product([1, -1], repeat=5)), 2**5)
    by_problem = Fraction(sum(abs(sum(s * x for s, x in zip(sg, d, strict=True))) >= obs
                              for sg in itertools.product([1, -1], repeat=15)), 2**15)
    assert exact == Fraction(1, 4) and float(by_problem) == pytest.approx(0.0576, abs=1e-4)
    for method in ("bootstrap", "bca"):
        # 2^5 sign vectors <= B: all enumerated, the p-value is the exact 1/4
        res = compare(cnt, "A", "B", [1], method=method, n_resamples=1000, rng=0)
        assert res.test == "sign-flip permutation"
        assert res.p_value[0] == 0.25, method


def test_few_problems_analytic_interval_stays_in_minus_one_one_and_warns():
    # 4 problems, pass@5 of unequal n (user review): the paired t interval with 3 degrees of freedom,
    # d +- t_{0.975,3} * se, reached [-1.0013, 1.1433], beyond the range [-1, 1] of a difference of two pass@k values,
    # and, unlike the bootstrap method, said nothing about resting on few problems
    cnt = Counts.from_arrays([10, 20, 15, 8, 10, 20, 15, 8], [3, 0, 15, 2, 1, 1, 14, 0], model=["A"] * 4 + ["B"] * 4,
                             problem=["p1", "p2", "p3", "p4"] * 2)
    with pytest.warns(DegenerateDataWarning, match="t-test's normal approximation does not hold"):
        res = compare(cnt, "A", "B", [1, 5], method="analytic")
    d = res.difference
    tq = stats.t.ppf(0.975, 3)
    raw_lo, raw_hi = d - tq * res.se, d + tq * res.se  # the paired t interval before clipping
    assert (raw_lo < -1).any() or (raw_hi > 1).any()  # the case the clipping is about
    assert np.array_equal(res.low, np.clip(raw_lo, -1, 1)) and np.array_equal(res.high, np.clip(raw_hi, -1, 1))


def test_unpaired_fallback_warns():
    cnt = _two_models(6)
    keep = np.ones(len(cnt), dtype=bool)
    keep[-10:] = False  # B misses 10 problems
    sub = cnt.take(keep)
    with pytest.warns(UnpairedComparisonWarning, match="different problems"):
        res = compare(sub, "A", "B", [1], rng=0)
    assert not res.paired and res.test == "Welch t-test"
    sa = _scores(sub.n[:120], sub.c[:120], np.array([1]), "pass_at_k", None)[:, 0]
    sb = _scores(sub.n[120:], sub.c[120:], np.array([1]), "pass_at_k", None)[:, 0]
    # Welch's t-test from scipy, an independent computation
    assert res.p_value[0] == pytest.approx(stats.ttest_ind(sa, sb, equal_var=False).pvalue, rel=1e-6)
    assert res.warnings
    # each model's own number of problems (120 and 110), not the smaller of the two
    assert res.problems.tolist() == [120] and res.problems_b.tolist() == [110]
    pt = res.to_dict()["points"][0]
    assert (pt["problems"], pt["problems_b"]) == (120, 110)
    assert compare(cnt, "A", "B", [1], rng=0).problems_b is None  # paired: one count, the shared problems


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (("A", "A", [1]), {}, "must be different models"),
        (("A", "Z", [1]), {}, r"^`b` must name a model present \(got 'Z'\); models present: A, B$"),
        (("A", "B", [11]), {}, r"`k` must be an integer in \[1, n\]"),
        (("A", "B", [1]), {"metric": "x"}, "`metric` must be one of"),
        (("A", "B", [1]), {"method": "x"}, "`method` must be one of"),
        (("A", "B", [1]), {"metric": "g_pass_at_k"}, "`tau` is required"),
        (("A", "B", [1]), {"n_resamples": 5}, "`n_resamples`"),
        (("A", "B", [1]), {"confidence_level": 0}, "`confidence_level`"),
    ],
)
def test_compare_bad_input(args, kwargs, match):
    cnt = _two_models(7)
    with pytest.raises(PasscurveError, match=match):
        compare(cnt, *args, **kwargs)


# ----------------------------------------------------------------------------------------
# power
# ----------------------------------------------------------------------------------------
def test_power_reference_example():
    # REFERENCE.md (Miller 2024): p~0.5, correlation 0.5, K=1, delta=0.03 -> N ~ 2180
    res = power_analysis(0.03, 1, p=0.5, correlation=0.5, n=1)
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert res.problems[0] == int(np.ceil((z / 0.03) ** 2 * 0.25))
    assert abs(int(res.problems[0]) - 2180) <= 1


def test_power_more_samples_fewer_problems_and_spread_split():
    res = power_analysis(0.03, 1, p=0.5, correlation=0.5, spread=0.4, n=[1, 2, 4, 16])
    assert np.all(np.diff(res.problems) < 0)
    # n = 1 does not depend on the split of variance
    assert abs(int(res.problems[0]) - 2180) <= 1
    # the floor as n grows is omega^2 = 2 spread^2 - 2 rho p(1-p)
    assert res.omega2 == pytest.approx(2 * 0.16 - 2 * 0.5 * 0.25)
    d = res.to_dict()
    assert d["plan"][0]["samples_per_problem"] == 1
    assert res.to_frame().shape[0] == 4


def test_within_variance_exact_matches_reference():
    # REFERENCE.md: n=200, k=10, p=0.05: exact variance of the pass@k estimator 0.00953547
    v = _within_var_exact(np.array([0.05]), 200, 10, "pass_at_k", None)
    assert v[0] == pytest.approx(0.00953547, abs=5e-8)


def test_power_from_pilot():
    bench = simulate(200, 100, rng=2)
    res = power_analysis(0.05, 10, counts=bench.counts, a="chat-7b", b="base-7b", n=[10, 20, 100])
    assert res.source == "pilot"
    assert np.all(np.diff(res.problems) <= 0)
    assert res.omega2 > 0
    # sanity: with the pilot's own n, N from the formula is in the range of the pilot's paired SE
    cmp = compare(bench.counts, "chat-7b", "base-7b", [10], method="analytic")
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    implied = (z / 0.05) ** 2 * cmp.se[0] ** 2 * 200
    assert res.problems[-1] == pytest.approx(implied, rel=0.35)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"delta": 0}, "`delta` must be in"),
        ({"delta": 0.03, "k": 2}, "supports pass@1 only"),
        ({"delta": 0.03, "n": [1, 4]}, "`spread`"),
        ({"delta": 0.03, "spread": 0.9, "n": [4]}, "`spread` must satisfy"),
        ({"delta": 0.03, "power": 1.0}, "`power` must be in"),
        ({"delta": 0.03, "k": 5, "n": [2]}, r"`k` must be an integer in \[1, n\]"),
    ],
)
def test_power_bad_input(kwargs, match):
    with pytest.raises(PasscurveError, match=match), warnings.catch_warnings():
        power_analysis(**kwargs)


def _within_var_by_enumeration(p: float, n: int, k: int, metric: str, tau: float | None) -> float:
    """The definition: Σ_c Bin(c; n, p)·est(c)² − (Σ_c Bin(c; n, p)·est(c))², term by term."""
    fn = {"pass_at_k": lambda c: pass_at_k(n, c, k), "pass_pow_k": lambda c: pass_pow_k(n, c, k),
          "g_pass_at_k": lambda c: g_pass_at_k(n, c, k, tau)}[metric]
    w = stats.binom.pmf(np.arange(n + 1), n, p)
    est = np.array([fn(c) for c in range(n + 1)])
    return float(w @ est**2 - (w @ est) ** 2)


@pytest.mark.parametrize(("n", "k"), [(1, 1), (6, 3), (12, 12), (40, 5), (100, 10), (30, 7)])
@pytest.mark.parametrize(("metric", "tau"), [("pass_at_k", None), ("pass_pow_k", None), ("g_pass_at_k", 0.5),
                                             ("g_pass_at_k", 0.2)])
def test_within_variance_by_subset_overlap_equals_the_enumeration(n, k, metric, tau):
    # reference: the definition summed over every c (independent of the overlap formula)
    for p in (0.0, 1e-3, 0.05, 0.3, 0.5, 0.97, 1.0):
        got = float(_within_var_exact(np.array([p]), n, k, metric, tau)[0])
        assert got == pytest.approx(_within_var_by_enumeration(p, n, k, metric, tau), rel=1e-9, abs=1e-15)


def test_within_variance_exact_rational():
    # reference: exact rational arithmetic, p = 1/20, n = 30, k = 5
    p, n, k = Fraction(1, 20), 30, 5
    est = [1 - Fraction(math.comb(n - c, k), math.comb(n, k)) for c in range(n + 1)]
    w = [math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    var = sum(wi * e * e for wi, e in zip(w, est, strict=True)) - sum(wi * e for wi, e in zip(w, est, strict=True)) ** 2
    got = float(_within_var_exact(np.array([0.05]), n, k, "pass_at_k", None)[0])
    assert got == pytest.approx(float(var), rel=1e-12)


def _exact_within_var(p: Fraction, n: int, k: int, metric: str) -> Fraction:
    tot = math.comb(n, k)
    est = [Fraction(tot - math.comb(n - c, k), tot) if metric == "pass_at_k" else Fraction(math.comb(c, k), tot)
           for c in range(n + 1)]
    w = [math.comb(n, c) * p**c * (1 - p) ** (n - c) for c in range(n + 1)]
    return sum(wi * e * e for wi, e in zip(w, est, strict=True)) - sum(wi * e for wi, e in zip(w, est, strict=True)) ** 2


@pytest.mark.parametrize(("n", "k", "p", "metric"), [
    (200, 150, Fraction(1, 4), "pass_at_k"),  # was 2.4e-13 off (the overlap law's lgamma start, 2k > n)
    (200, 150, Fraction(3, 4), "pass_pow_k"),
    (1000, 700, Fraction(1, 2), "pass_at_k"),  # 6.3e-270: was 0 ((1-p)^{2k} underflowed apart from its factor)
    (1000, 700, Fraction(1, 2), "pass_pow_k"),
    (200, 10, Fraction(1, 4), "pass_at_k"),
])
def test_within_variance_to_full_precision_when_2k_exceeds_n(n, k, p, metric):
    # reference: exact rational arithmetic over every c (the definition)
    var = _exact_within_var(p, n, k, metric)
    got = float(_within_var_exact(np.array([float(p)]), n, k, metric, None)[0])
    assert abs(Fraction(got) - var) <= var * Fraction(1e-13)


@pytest.mark.parametrize(("n", "k", "tau", "p"), [
    (50, 10, 0.5, Fraction(1023, 1024)),  # 2.9e-21: was 0 (E[est²] - E[est]², both near 1)
    (200, 10, 0.9, Fraction(1023, 1024)),  # 1.31e-7: was 2.5e-9 off relative
    (100, 30, 0.3, Fraction(1, 2)),  # 3.2e-4: was 1.3e-12 off
    (60, 20, 0.75, Fraction(1023, 1024)),
    (200, 10, 0.5, Fraction(1, 20)),
])
def test_g_pass_within_variance_without_cancellation(n, k, tau, p):
    # reference: exact rational arithmetic over every c (the definition), G-pass@k as an exact hypergeometric tail
    m = max(math.ceil(Fraction(tau).limit_denominator(1000) * k), 1)
    tot = math.comb(n, k)
    s1 = s2 = Fraction(0)
    for c in range(n + 1):
        w = math.comb(n, c) * p**c * (1 - p) ** (n - c)
        est = Fraction(sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(m, min(c, k) + 1)), tot)
        s1 += w * est
        s2 += w * est * est
    var = s2 - s1 * s1
    got = float(_within_var_exact(np.array([float(p)]), n, k, "g_pass_at_k", tau)[0])
    assert abs(Fraction(got) - var) <= var * Fraction(1e-13)


def test_within_variance_at_huge_n_follows_the_delta_method():
    # closed form: for n → ∞, Var ≈ k² p (1-p)^(2k-1) / n (delta method on 1 - (1-p)^k).
    # The exact variance used to need a p × (n+1) matrix (23 GB at n = 3·10^6)
    p, k = np.array([0.01, 0.05, 0.2]), 10
    for n in (10**7, 10**9):
        got = _within_var_exact(p, n, k, "pass_at_k", None)
        np.testing.assert_allclose(got, k**2 * p * (1 - p) ** (2 * k - 1) / n, rtol=1e-4)


def test_power_from_pilot_with_millions_of_samples_per_problem():
    bench = simulate(100, 50, rng=3)
    res = power_analysis(0.05, 10, counts=bench.counts, a="chat-7b", b="base-7b", n=[100, 10**6, 10**8])
    assert np.all(np.isfinite(res.within_a)) and np.all(np.diff(res.within_a) < 0)
    assert res.problems[-1] >= np.ceil(((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) / 0.05) ** 2 * res.omega2)


def test_equal_paired_differences_get_the_exact_sign_flip_p_value():
    # one sample per problem, A solves all 4, B none: every paired difference is 1, SE 0. The t-test gave p = 0 and
    # a zero-width interval as if certain (uncertainty audit); the exact sign-flip p-value is 2/2^4 (enumeration)
    counts = Counts.from_arrays([1] * 8, [1, 1, 1, 1, 0, 0, 0, 0], problem=list("abcd") * 2, model=["A"] * 4 + ["B"] * 4)
    with pytest.warns(Warning, match=r"every paired difference is 1, so the t-test is undefined"):
        res = compare(counts, "A", "B", 1, method="analytic")
    exact = sum(abs(sum(s)) >= 4 for s in itertools.product((-1, 1), repeat=4)) / 2**4
    assert res.p_value[0] == pytest.approx(exact) == pytest.approx(0.125)
    # the resampling methods said nothing and gave the sign-flip test's Monte Carlo value (at 30 problems its floor
    # 1/(B+1) = 0.0005 where the exact value is 2^-29 = 1.86e-09); they now warn and take the exact value too
    big = Counts.from_arrays([1] * 60, [1] * 30 + [0] * 30, problem=[f"p{i}" for i in range(30)] * 2,
                             model=["A"] * 30 + ["B"] * 30)
    for method in ("bootstrap", "bca"):
        with pytest.warns(Warning, match=r"every paired difference is 1, so no resample varies; its p-value is the "
                                         r"exact sign-flip value 2\^\(1-30\)"):
            res = compare(big, "A", "B", 1, method=method, rng=0)
        assert res.p_value[0] == 2.0**-29 and res.low[0] == res.high[0] == 1.0


def test_power_analysis_refuses_a_delta_no_benchmark_can_detect_and_its_json_is_strict():
    # delta = 1e-10 needs ~1.96e20 problems: the int64 wrapped and the floor of 2 answered "2 problems"
    with pytest.raises(PasscurveError, match=r"`delta` = 1e-10 needs about 1.96e\+20 problems"):
        power_analysis(1e-10, 1, p=0.5, correlation=0.5, n=1)
    res = power_analysis(0.03, 1, p=0.5, correlation=0.5, n=1)  # Miller's example: omega2 is not identified
    assert json.loads(json.dumps(res.to_dict(), allow_nan=False))["omega2"] is None
    assert int(res.problems[0]) == 2181


@pytest.mark.parametrize("method", ["analytic", "bootstrap"])
def test_weights_weight_the_comparison_and_the_ranks(method):
    # API audit: compare (and rank_models) ignored Counts.weight: value_a 0.5375 beside curve's 0.4192. Reference:
    # the weighted mean of the per-problem unbiased pass@1 = c/n, computed here with Fractions
    from fractions import Fraction

    from passcurve import curve, rank_models

    n = [20] * 8
    ca, cb = [1, 5, 9, 20, 0, 3, 7, 12], [2, 4, 9, 18, 1, 1, 6, 10]
    wt = [2.0, 1.0, 0.5, 3.0, 1.0, 1.0, 2.0, 0.5]
    cnt = Counts.from_arrays(n * 2, ca + cb, problem=[f"p{i}" for i in range(8)] * 2, model=["a"] * 8 + ["b"] * 8,
                             weight=wt * 2)

    def wmean(c):
        return float(sum(Fraction(w) * Fraction(x, 20) for w, x in zip(wt, c, strict=True)) / sum(Fraction(w) for w in wt))

    res = compare(cnt, "a", "b", 1, method=method, rng=0, n_resamples=500)
    assert res.value_a[0] == pytest.approx(wmean(ca), abs=1e-15)
    assert res.value_b[0] == pytest.approx(wmean(cb), abs=1e-15)
    assert res.value_a[0] == pytest.approx(curve(cnt.select("a"), [1]).values["pass_at_k"][0, 0], abs=1e-15)
    assert res.difference[0] == pytest.approx(wmean(ca) - wmean(cb), abs=1e-15)
    rk = rank_models(cnt, 1, rng=0, n_resamples=200)
    np.testing.assert_allclose(rk.estimate[:, 0], [wmean(ca), wmean(cb)], atol=1e-15)
    # one weight per problem: the same problem weighted differently for the two models is an error
    bad = Counts.from_arrays(n * 2, ca + cb, problem=[f"p{i}" for i in range(8)] * 2, model=["a"] * 8 + ["b"] * 8,
                             weight=wt + [1.0] * 8)
    with pytest.raises(PasscurveError, match=r"^problem 'p0' has weight 2 for model 'a' and 1 for 'b'; a paired"):
        compare(bad, "a", "b", 1)
    with pytest.raises(PasscurveError, match=r"^problem 'p0' has weight 2 for model 'a' and 1 for 'b'; ranks need"):
        rank_models(bad, 1)


def test_power_analysis_huge_spread_is_the_range_error():
    # float(spread) ** 2 of 1e300 raised Python's OverflowError (34, 'Numerical result out of range'); spread^2 is now
    # inf, outside [correlation*p(1-p), p(1-p)] like any spread above sqrt(p(1-p)) (API sweep)
    with pytest.raises(PasscurveError, match=r"^`spread` must satisfy correlation\*p\(1-p\) <= spread\^2 <= p\(1-p\) "
                                             r"\(got spread=1e\+300\)$"):
        power_analysis(0.05, 1, p=0.4, correlation=0.5, spread=1e300, n=[1, 2])


@pytest.mark.parametrize("paired", [True, False])
def test_equal_means_differ_by_exactly_zero(paired):
    # two models with one mean: paired, c = (8, 0, 1, 2, 1) and (2, 8, 1, 0, 1) of 10 (both 12/50 = 0.24 at k = 1,
    # and both 32/75 at k = 3, exact arithmetic); unpaired, 13/30 each on 2 shared problems of 3. The float mean
    # of the paired differences was 1.11e-17 at k = 1, and the difference of the unpaired means 5.55e-17: compare's
    # difference column (and the report's) turned scientific for a difference that is 0
    if paired:
        ca, cb, pb = [8, 0, 1, 2, 1], [2, 8, 1, 0, 1], ["p0", "p1", "p2", "p3", "p4"]
    else:
        ca, cb, pb = [3, 0, 10], [5, 1, 7], ["p1", "p2", "q4"]
    pa = ["p0", "p1", "p2", "p3", "p4"][: len(ca)]
    counts = Counts.from_arrays([10] * (len(ca) + len(cb)), ca + cb, problem=pa + pb,
                                model=["A"] * len(ca) + ["B"] * len(cb))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare(counts, "A", "B", k=[1, 3], n_resamples=200, rng=0)
    assert res.paired is paired
    want_a = [Fraction(sum(ca), 10 * len(ca)),
              sum(1 - Fraction(math.comb(10 - c, 3), math.comb(10, 3)) for c in ca) / len(ca)]
    want_b = [Fraction(sum(cb), 10 * len(cb)),
              sum(1 - Fraction(math.comb(10 - c, 3), math.comb(10, 3)) for c in cb) / len(cb)]
    assert want_a[0] == want_b[0] and (want_a[1] == want_b[1]) is paired
    assert res.difference[0] == 0.0 and res.p_value[0] == 1.0
    assert res.difference[1] == pytest.approx(float(want_a[1] - want_b[1]), abs=1e-15)


def test_power_pilot_with_one_sample_per_problem_answers_only_n_1():
    # a pilot with n = 1 shows every rate as 0 or 1: the plug-in within-problem variance c/n (1 - c/n) / n was 0, so
    # the whole variance passed for between-problem and 1, 2, ..., 100 samples per problem all needed 379 problems
    # (delta 0.1). At n = 1 the total is identified: Var(x_A - x_B) with ddof 1 (hand count below), as Miller's
    # formula N = (z/delta)^2 Var
    xa = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1])
    xb = np.array([1, 1, 0, 1, 0, 0, 0, 0, 1, 0])
    counts = Counts.from_arrays(np.ones(20, dtype=int), np.r_[xa, xb], problem=[f"p{i}" for i in range(10)] * 2,
                                model=["A"] * 10 + ["B"] * 10)
    with pytest.raises(PasscurveError, match="one sample per problem for 'A' and 'B'"):
        power_analysis(0.1, 1, counts=counts, a="A", b="B")
    res = power_analysis(0.1, 1, counts=counts, a="A", b="B", n=[1])
    # differences 0, -1, 1, 0, 0, 0, 1, 0, 0, 1: mean 0.2, sum of squares 4 - 10 * 0.04 = 3.6, / 9 = 0.4
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert res.problems.tolist() == [math.ceil((z / 0.1) ** 2 * 0.4)]
    # one model with n = 1 is enough to leave the split unidentified
    counts_b = Counts.from_arrays(np.r_[np.ones(10, dtype=int), np.full(10, 20)], np.r_[xa, 10 * xb + 3],
                                  problem=[f"p{i}" for i in range(10)] * 2, model=["A"] * 10 + ["B"] * 10)
    with pytest.raises(PasscurveError, match=r"for 'A', which .* n=\[1\] \(--n 1\)"):
        power_analysis(0.1, 1, counts=counts_b, a="A", b="B", n=[1, 10])


def test_unpaired_bca_says_it_is_the_percentile_bootstrap():
    # method="bca" on models run on different problems gave the percentile bootstrap (BCa needs a joint jackknife)
    # with only the result's method ('bootstrap') to say so; the unpaired warning now says it
    counts = Counts.from_arrays([10] * 6, [3, 0, 10, 5, 1, 7], problem=["p1", "p2", "p3", "p2", "p3", "p4"],
                                model=["A"] * 3 + ["B"] * 3)
    with pytest.warns(UnpairedComparisonWarning, match=r"percentile bootstrap \(BCa needs paired problems\)"):
        res = compare(counts, "A", "B", k=[1], method="bca", n_resamples=200, rng=0)
    assert res.method == "bootstrap" and not res.paired
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        compare(counts, "A", "B", k=[1], method="bootstrap", n_resamples=200, rng=0)
    assert not any("BCa" in str(w.message) for w in got)


def test_unpaired_comparison_on_few_problems_says_so():
    # the paired path warned where the difference rests on few problems; the unpaired one (different problem sets)
    # gave Welch's p and interval on 3 problems a model without a word (helper-105's review). Hand-made: 3 problems
    # each, so each mean rests on 3 (< 10) problems
    cnt = Counts.from_arrays([10] * 6, [3, 5, 7, 2, 4, 9], problem=list("abcdef"), model=["A"] * 3 + ["B"] * 3)
    with pytest.warns(Warning, match=r"models 'A' and 'B': a model's mean rests on few problems \(fewer than 10 carry it "
                                     r"from k = 1\), where Welch's t-test's normal approximation does not hold"):
        compare(cnt, "A", "B", [1], rng=0)
    # 300 problems a model (the demo's, renamed apart): no such warning
    b = simulate(rng=0).counts
    apart = Counts.from_arrays(b.n, b.c, model=b.model,
                               problem=[f"t{p}" if m == "tiny-1b" else str(p) for m, p in zip(b.model, b.problem, strict=True)])
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        compare(apart, "tiny-1b", "base-7b", [1, 10], rng=0)
    assert not [w for w in got if "rests on few problems" in str(w.message)]


def test_two_problems_or_two_clusters_are_enough_and_k_defaults_to_one():
    # the smallest comparison allowed (2 problems per model; 2 clusters): A solves 3/4 and 1/4, B 1/4 and 0/4, so
    # pass@1 differs by d = [1/2, 1/4], mean 3/8; paired t (hand count): se^2 = var(d, ddof=1)/2 = (1/32)/2, se = 1/8,
    # t = 3 on 1 df; the 2^2 sign vectors give |+-1/2 +- 1/4| = 3/4, 1/4, 1/4, 3/4, so the exact sign-flip p is 2/4
    cnt = Counts.from_arrays([4] * 4, [3, 1, 1, 0], model=["A", "A", "B", "B"], problem=["p", "q", "p", "q"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # 2 problems are few: said, and not the point here
        res = compare(cnt, "A", "B", method="analytic")
        assert res.k.tolist() == [1]  # k defaults to 1 (documented default)
        assert (res.difference[0], res.se[0]) == pytest.approx((0.375, 0.125), rel=1e-14)
        assert res.p_value[0] == pytest.approx(2 * stats.t.sf(3.0, 1), rel=1e-12)
        assert compare(cnt, "A", "B", [1], n_resamples=100, rng=0).p_value[0] == 0.5
        # 4 problems in 2 clusters of 2: the cluster sums of d = [1/2, 1/4, 0, 1/4] are 3/4 and 1/4, again p = 2/4
        cnt4 = Counts.from_arrays([4] * 8, [3, 1, 2, 1, 1, 0, 2, 0], model=["A"] * 4 + ["B"] * 4,
                                  problem=list("pqrs") * 2, cluster=[0, 0, 1, 1] * 2)
        assert compare(cnt4, "A", "B", [1], n_resamples=100, rng=0).p_value[0] == 0.5


def test_correlation_is_pearsons_per_k_and_nan_where_a_model_does_not_vary():
    # the result's correlation of the two models' per-problem estimates: Pearson's r from scipy.stats.pearsonr at
    # each k (an independent computation); at k = n every problem B solves at all scores 1, so B's column is
    # constant and r is undefined (NaN)
    cnt = _two_models(3, N=60, n=5)
    sa = _scores(cnt.n[:60], cnt.c[:60], np.array([1, 2, 5]), "pass_at_k", None)
    sb = _scores(cnt.n[60:], cnt.c[60:], np.array([1, 2, 5]), "pass_at_k", None)
    cB = cnt.c[60:].copy()
    cB[cB == 0] = 1  # B solves every problem at least once: pass@5 of n = 5 is 1 everywhere
    cnt2 = Counts.from_arrays(cnt.n, np.concatenate([cnt.c[:60], cB]), model=cnt.model, problem=cnt.problem)
    sb2 = _scores(cnt2.n[60:], cB, np.array([1, 2, 5]), "pass_at_k", None)
    for c, s_b in ((cnt, sb), (cnt2, sb2)):
        res = compare(c, "A", "B", [1, 2, 5], method="analytic")
        for j in range(3):
            if s_b[:, j].std() > 0:
                assert res.correlation[j] == pytest.approx(stats.pearsonr(sa[:, j], s_b[:, j])[0], rel=1e-12)
            else:
                assert np.isnan(res.correlation[j])
    assert 0.3 < res.correlation[0] < 1 and np.isnan(res.correlation[2])


def test_a_k_where_every_paired_difference_is_equal_gets_the_exact_p_beside_ks_that_vary():
    # A solves each of 12 problems 1 to 4 times in 4, B never: at k = 4 every pass@4 difference is 1 (SE 0) and the
    # exact sign-flip p-value is 2/2^12 = 2^(1-12) (only the two sign vectors of equal signs reach |sum| = 12); at
    # k = 1 the differences c/4 vary, and the test there is the ordinary one (scipy's paired t for "analytic")
    cA = [1, 2, 3, 4] * 3
    cnt = Counts.from_arrays([4] * 24, cA + [0] * 12, model=["A"] * 12 + ["B"] * 12, problem=list(range(12)) * 2)
    d1 = np.array(cA) / 4
    for method in ("analytic", "bootstrap"):
        with pytest.warns(DegenerateDataWarning, match=r"at k = 4 every paired difference is 1, so .*; its p-value "
                                                       r"is the exact sign-flip value 2\^\(1-12\) = 0\.000488 "):
            res = compare(cnt, "A", "B", [1, 4], method=method, n_resamples=1000, rng=0)
        assert res.p_value[1] == 2.0**-11
        assert res.low[1] == res.high[1] == 1.0
        if method == "analytic":
            assert res.p_value[0] == pytest.approx(stats.ttest_1samp(d1, 0.0).pvalue, rel=1e-10)
        else:  # 2^12 sign vectors > B: drawn, p = (1 + #{|T*| >= |T|})/(B + 1) >= 1/(B + 1), not 2^-11
            assert 1 / 1001 <= res.p_value[0] <= 3 / 1001


def test_weighted_sign_flip_p_value_matches_the_enumeration_of_weighted_differences():
    # with problem weights the signs flip the weighted differences w_i d_i (documented): 6 problems, 2^6 <= B so the
    # p-value is exact, #{s : |sum s_i w_i d_i| >= |sum w_i d_i|}/2^6 over all 64 sign vectors in Fractions: 24/64 here,
    # where flipping the unweighted d_i would give 12/64, and d_i / w_i 8/64 (the weights matter)
    cA, cB = [4, 3, 4, 1, 3, 2], [1, 2, 0, 2, 1, 2]
    wt = [3, 1, 1, 4, 1, 2]
    cnt = Counts.from_arrays([4] * 12, cA + cB, model=["A"] * 6 + ["B"] * 6, problem=list(range(6)) * 2,
                             weight=wt * 2)
    d = [Fraction(a - b, 4) for a, b in zip(cA, cB, strict=True)]

    def exact(x):
        obs = abs(sum(x))
        return Fraction(sum(abs(sum(s * v for s, v in zip(sg, x, strict=True))) >= obs
                            for sg in itertools.product([1, -1], repeat=6)), 64)

    assert exact([w * x for w, x in zip(wt, d, strict=True)]) == Fraction(24, 64) and exact(d) == Fraction(12, 64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # 6 problems are few: said, not the point here
        res = compare(cnt, "A", "B", [1], n_resamples=100, rng=0)
    assert res.p_value[0] == 24 / 64


def test_unpaired_comparison_with_clusters_uses_each_models_clustered_se():
    # different problem sets (unpaired) with clusters: Welch's t on each model's clustered SE (Miller 2024: SE_cl^2 =
    # SE^2 + (1/N^2) sum over clusters of sum_{i != j} (s_i - m)(s_j - m), written out in Fractions), se =
    # sqrt(SE_cl,A^2 + SE_cl,B^2), Welch-Satterthwaite df with G - 1 per model
    rng = np.random.default_rng(8)
    NA, NB = 24, 20
    clA, clB = np.arange(NA) // 4, np.arange(NB) // 4
    cA = rng.binomial(6, special.expit(rng.normal(size=6)[clA]))
    cB = rng.binomial(6, special.expit(rng.normal(size=5)[clB] - 0.5))
    cnt = Counts.from_arrays([6] * (NA + NB), np.concatenate([cA, cB]), model=["A"] * NA + ["B"] * NB,
                             problem=[f"a{i}" for i in range(NA)] + [f"b{i}" for i in range(NB)],
                             cluster=np.concatenate([clA, 10 + clB]))

    def se2_cl(c, cl):
        s = [Fraction(int(x), 6) for x in c]
        N = len(s)
        m = sum(s, Fraction(0)) / N
        cross = sum((s[i] - m) * (s[j] - m) for i in range(N) for j in range(N) if i != j and cl[i] == cl[j])
        return sum((x - m) ** 2 for x in s) / (N * (N - 1)) + cross / N**2

    va, vb = se2_cl(cA, clA), se2_cl(cB, clB)
    se = math.sqrt(va + vb)
    df = float((va + vb) ** 2 / (va**2 / 5 + vb**2 / 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # 6 and 5 clusters are few: said, not the point here
        with pytest.warns(UnpairedComparisonWarning):
            res = compare(cnt, "A", "B", [1], method="analytic")
    diff = cA.mean() / 6 - cB.mean() / 6
    assert res.se[0] == pytest.approx(se, rel=1e-12)
    assert res.p_value[0] == pytest.approx(2 * stats.t.sf(abs(diff) / se, df), rel=1e-10)
    tq = stats.t.ppf(0.975, df)
    assert (res.low[0], res.high[0]) == pytest.approx((diff - tq * se, diff + tq * se), rel=1e-10)
    assert abs(va - se2_cl(cA, np.arange(NA))) > va / 10  # the clusters matter here
    # the bootstrap resamples each model's clusters on its own: its SE (the sd of the replicate differences, one per
    # k) is the clustered one up to Monte Carlo error (2000 replicates: ~2% on an SE) and the bootstrap's (G-1)/G
    # shrinkage of each variance at 6 and 5 clusters (~9% on the SE); it is 0.98 of it here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        boot = compare(cnt, "A", "B", [1, 2], method="bootstrap", n_resamples=2000, rng=3)
    assert boot.se.shape == (2,) and boot.se[0] == pytest.approx(se, rel=0.15)


def test_bootstrap_is_the_percentile_interval_and_bca_efron_tibshiranis_of_the_paired_replicates():
    # the same paired replicate means (problems resampled with _boot_means from the seed's stream, which compare
    # draws first); "bootstrap": their 2.5% and 97.5% quantiles; "bca": Efron & Tibshirani (1993) eqs. 14.9-14.15
    # written out, z0 from the share of replicates below the difference, the acceleration from the leave-one-out
    # mean differences (explicit loop). The differences are skewed (a few large ones), so the two intervals differ
    rng = np.random.default_rng(13)
    N = 25
    cA = rng.binomial(10, 0.2, N)
    cA[:3] = 10
    cB = rng.binomial(10, 0.2, N)
    cnt = Counts.from_arrays([10] * (2 * N), np.concatenate([cA, cB]), model=["A"] * N + ["B"] * N,
                             problem=[f"p{i:02d}" for i in range(N)] * 2)  # ids sort as the rows: same order
    d = (cA - cB) / 10
    reps = _boot_means(d[:, None], np.ones(N), np.arange(N), N, 2000, np.random.default_rng(5))[:, 0]
    pct = np.quantile(reps, [0.025, 0.975])
    nd = statistics.NormalDist()
    jack = np.array([np.delete(d, i).mean() for i in range(N)])
    dev = jack.mean() - jack
    acc = (dev**3).sum() / (6 * (dev**2).sum() ** 1.5)
    z0 = nd.inv_cdf(float((reps < d.mean()).mean() + 0.5 * (reps == d.mean()).mean()))
    q = [nd.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z))) for z in (nd.inv_cdf(0.025), nd.inv_cdf(0.975))]
    bca = np.quantile(reps, q)
    assert acc > 0.04 and (bca - pct).min() > 0.01  # the two intervals are told apart (pct [-0.02, 0.232])
    res = {m: compare(cnt, "A", "B", [1], method=m, n_resamples=2000, rng=5) for m in ("bootstrap", "bca")}
    assert (res["bootstrap"].low[0], res["bootstrap"].high[0]) == pytest.approx(tuple(pct), rel=1e-12)
    assert (res["bca"].low[0], res["bca"].high[0]) == pytest.approx(tuple(bca), rel=1e-12)


def test_the_t_tests_few_problems_warning_names_the_first_k_where_few_carry_the_difference():
    # pass^k of 40 problems of n = 10: A solves 6 of 10 on 37 problems and 10 of 10 on 3, B 5 of 10 everywhere. At k = 1
    # the difference is 0.1 on 37 problems and 0.5 on 3 (effective number (sum |d|)^2 / sum d^2 = 5.2^2/1.12 = 24); at
    # k = 10 it is 1 on the 3 problems A always solves and 0 elsewhere (effective number 3 < 10): the analytic
    # comparison says so from k = 10 on, and not at k = 1
    cA = [6] * 37 + [10] * 3
    cnt = Counts.from_arrays([10] * 80, cA + [5] * 40, model=["A"] * 40 + ["B"] * 40, problem=list(range(40)) * 2)
    with pytest.warns(DegenerateDataWarning, match=r"the difference rests on few problems \(fewer than 10 carry it "
                                                   r"from k = 10\), where the t-test's normal approximation"):
        res = compare(cnt, "A", "B", [1, 10], metric="pass_pow_k", method="analytic")
    assert res.difference.tolist() == pytest.approx([(37 * 0.1 + 3 * 0.5) / 40, 3 / 40], rel=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compare(cnt, "A", "B", [1], metric="pass_pow_k", method="analytic")  # k = 1 alone: nothing to say


@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("method", ["analytic", "bootstrap"])
def test_two_models_that_solve_everything_do_not_differ(paired, method):
    # every problem solved every time by both models: each per-problem difference (and each model's spread) is 0, so
    # the difference is 0 with SE 0 and nothing speaks against "no difference": p = 1 exactly (t = 0 by the
    # convention 0/0 -> 0; the sign-flip test: every sign vector reaches |0|), and the interval is [0, 0]
    pb = ["p0", "p1", "p2", "p3"] if paired else ["q0", "q1", "q2"]
    cnt = Counts.from_arrays([5] * (4 + len(pb)), [5] * (4 + len(pb)), problem=["p0", "p1", "p2", "p3"] + pb,
                             model=["A"] * 4 + ["B"] * len(pb))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unpaired, and 4 problems are few: said, not the point here
        res = compare(cnt, "A", "B", [1, 5], method=method, n_resamples=200, rng=0)
    assert res.paired is paired
    assert res.difference.tolist() == [0.0, 0.0] and res.p_value.tolist() == [1.0, 1.0]
    assert res.low.tolist() == res.high.tolist() == [0.0, 0.0]


@pytest.mark.parametrize("differ", [9, 10])
def test_a_difference_carried_by_nine_problems_is_few_and_by_ten_is_not(differ):
    # A solves `differ` of 40 problems every time where B never does, and they agree elsewhere: the effective number
    # of problems carrying the difference, (sum |d|)^2 / sum d^2, is exactly `differ`; "fewer than 10" is 9
    cA = [3] * differ + [1] * (40 - differ)
    cB = [0] * differ + [1] * (40 - differ)
    cnt = Counts.from_arrays([3] * 80, cA + cB, model=["A"] * 40 + ["B"] * 40, problem=list(range(40)) * 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare(cnt, "A", "B", [1, 3], method="analytic")
    few = [str(w.message) for w in caught if "rests on few problems" in str(w.message)]
    assert len(few) == (differ == 9)


def test_many_small_differences_are_not_few():
    # A solves 1 of 10 more than B on 32 of 40 problems: d = 0.1 there, 0 elsewhere (sum d^2 = 0.32 < 1); the
    # effective number (sum |d|)^2 / sum d^2 = 3.2^2 / 0.32 = 32 problems: nothing about few problems to say, however
    # small d is
    cA = [2] * 32 + [1] * 8
    cB = [1] * 32 + [1] * 8
    cnt = Counts.from_arrays([10] * 80, cA + cB, model=["A"] * 40 + ["B"] * 40, problem=list(range(40)) * 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = compare(cnt, "A", "B", [1], method="analytic")
    assert res.difference[0] == pytest.approx(0.08, rel=1e-14)


def test_sign_flip_p_value_is_scale_free_down_to_tiny_differences():
    # the sign-flip statistic |sum s_i d_i| is homogeneous in d, so scaling every difference by 2^-40 (exact in
    # floating point; the size of pass^k differences at large k) leaves the p-value as it is: exactly, over all 2^10
    # sign vectors (enumerated, np.abs(signs @ d) >= |sum d|), and over the same 500 random vectors; the tolerance
    # for ties is relative to the differences, not absolute
    d = np.array([0.31, -0.12, 0.5, 0.07, 0.22, -0.4, 0.18, 0.09, 0.33, -0.05])
    allsigns = np.array(list(itertools.product([-1, 1], repeat=10)))
    exact = (np.abs(allsigns @ d) >= abs(d.sum())).mean()
    for s in (1.0, 2.0**-40):
        p, _ = _sign_flip_p(d[:, None] * s, np.arange(10), 10, 2000, np.random.default_rng(0))
        assert p[0] == exact
        p_mc, _ = _sign_flip_p(d[:, None] * s, np.arange(10), 10, 500, np.random.default_rng(0))
        if s == 1.0:
            ref = p_mc[0]
        assert p_mc[0] == ref and 0 < ref < 1


def test_exactly_two_to_the_g_resamples_enumerate_the_sign_vectors():
    # "when 2^G <= B" (compare's docstring): with B = 2^10 = 1024 resamples and 10 problems, or 12 problems of which
    # 2 differ by 0 (10 non-zero sums), the p-value is the exact share over the 2^10 sign patterns (enumerated here
    # with itertools in exact rationals), not a Monte Carlo one; with 11 non-zero sums it is the Monte Carlo one
    q = [3, -1, 2, 2, 1, -2, 4, 1, 1, -3]
    obs = abs(sum(q))
    exact = Fraction(sum(abs(sum(s * x for s, x in zip(sg, q, strict=True))) >= obs
                         for sg in itertools.product([1, -1], repeat=10)), 2**10)
    for D in (np.array(q, dtype=float) / 4, np.array(q + [0, 0], dtype=float) / 4):
        p, _ = _sign_flip_p(D[:, None], np.arange(D.size), D.size, 1024, np.random.default_rng(0))
        assert p[0] == exact
    assert 0 < exact < 1
    # one more non-zero sum (2^11 > 1024): the Monte Carlo p-value, (1 + #{|T*| >= |T|})/(B + 1)
    D = np.array(q + [1, 0], dtype=float) / 4
    p, _ = _sign_flip_p(D[:, None], np.arange(12), 12, 1024, np.random.default_rng(0))
    assert p[0] * 1025 == pytest.approx(round(p[0] * 1025), abs=1e-9) and p[0] * 2**11 % 1 != 0


def test_sign_flip_p_value_over_many_problems_follows_the_normal_limit():
    # 3000 problems and 1000 random sign vectors (more than one block of them): under sign flips T = sum s_i d_i has
    # mean 0 and variance sum d_i^2, and by the central limit theorem (Lindeberg: bounded d_i) p = 2(1 - Phi(|sum d|
    # / sqrt(sum d^2))); the differences are drawn so that this is about 0.3. Monte Carlo sd of p at B = 1000: 0.015.
    # More than 1023 non-zero differences: numpy warned 'overflow encountered in power' (2.0 ** 3000, in the rule that
    # enumerates the sign vectors when 2^G <= B), through compare too; nothing is said now
    rng = np.random.default_rng(5)
    d = rng.uniform(-1, 1, 3000)
    d += (1.04 * np.sqrt((d**2).sum()) - d.sum()) / d.size  # |sum d| / sqrt(sum d^2) ~ 1.04: p ~ 0.3
    z = abs(d.sum()) / np.sqrt((d**2).sum())
    ref = 2 * stats.norm.sf(z)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p, _ = _sign_flip_p(d[:, None], np.arange(d.size), d.size, 1000, np.random.default_rng(6))
    assert 0.25 < ref < 0.35 and p[0] == pytest.approx(ref, abs=4 * 0.015)


def test_inverted_interval_with_weights_and_clusters_matches_exact_enumeration():
    # the interval of shifts delta the test does not reject, with problem weights and clusters: the shifted weighted
    # differences w_i (d_i - delta) summed per cluster are D_g - delta W_g (W_g the cluster's weight), and the exact
    # test flips their signs (all 2^8 vectors). Reference: that exact p-value on a grid of delta (step 0.0005)
    rng = np.random.default_rng(7)
    groups = np.repeat(np.arange(8), [1, 2, 3, 1, 2, 4, 1, 2])
    d = np.round(rng.normal(0.2, 0.3, groups.size), 2)
    w = np.round(rng.uniform(0.3, 3.0, groups.size), 1)
    alpha = 0.1
    signs = np.array(list(itertools.product([-1, 1], repeat=8)))
    Dg = np.bincount(groups, w * d)
    Wg = np.bincount(groups, w)

    def exact_p(delta: float) -> float:
        x = Dg - delta * Wg
        return float((np.abs(signs @ x) >= abs(x.sum()) - 1e-12).mean())

    grid = np.linspace(-1, 1, 4001)
    kept = [x for x in grid if exact_p(x) > alpha]
    _, (lo, hi) = _sign_flip_p((w * d)[:, None], groups, 8, 1000, np.random.default_rng(3), w=w, alpha=alpha)
    assert lo[0] == pytest.approx(min(kept), abs=6e-4) and hi[0] == pytest.approx(max(kept), abs=6e-4)
    centre = (w * d).sum() / w.sum()
    assert lo[0] < centre < hi[0] and hi[0] - lo[0] > 0.1
    # the test is homogeneous in d: differences 2^-20 as large (pass^k-size) give the interval 2^-20 as wide (the
    # tolerance for ties is relative to the shifted differences)
    s = 2.0**-20
    _, (lo_s, hi_s) = _sign_flip_p((w * d * s)[:, None], groups, 8, 1000, np.random.default_rng(3), w=w, alpha=alpha)
    assert (lo_s[0], hi_s[0]) == pytest.approx((lo[0] * s, hi[0] * s), rel=1e-9)


def test_unpaired_few_problems_counts_the_weighted_scores():
    # unpaired, weighted: A solves all 12 of its problems, two of them weighted 100 and ten weighted 1, so the
    # weighted mean rests on 2 problems (effective number (sum w s)^2 / sum (w s)^2 = 210^2 / 20010 = 2.2); B's 12
    # problems (weight 1, pass@1 0.3 to 0.8) carry its mean evenly (6.6^2 / 3.98 = 10.9). The comparison says a
    # model's mean rests on few problems
    cB = [3, 4, 5, 6, 7, 8] * 2
    cnt = Counts.from_arrays([4] * 12 + [10] * 12, [4] * 12 + cB, model=["A"] * 12 + ["B"] * 12,
                             problem=[f"a{i}" for i in range(12)] + [f"b{i}" for i in range(12)],
                             weight=[100, 100] + [1] * 10 + [1] * 12)
    for a, b in (("A", "B"), ("B", "A")):  # either side
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compare(cnt, a, b, [1], method="analytic")
        assert any("a model's mean rests on few problems" in str(w.message) for w in caught)
