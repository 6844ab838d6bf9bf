"""Intervals for pass@k-family curves: oracles, independent computations, coverage by simulation."""

from __future__ import annotations

import itertools
import math
import statistics
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from passcurve import (
    Counts,
    DegenerateDataWarning,
    PasscurveError,
    curve,
    curve_intervals,
    simulate,
    standard_error,
)
from passcurve._uncertainty import (
    _bca,
    _boot_means,
    _interval_from_scores,
    _jackknife_means,
    _rare,
    _replicate_means,
    _scores,
    _two_level_means,
)

# ----------------------------------------------------------------------------------------
# REFERENCE.md oracles (Miller 2024, arXiv 2411.00640)
# ----------------------------------------------------------------------------------------
TOY = [1, 1, 0, 1, 0, 0, 0, 1, 1]
TOY_CLUSTERS = [0, 0, 0, 1, 1, 2, 2, 2, 2]


def test_miller_toy_standard_errors():
    # REFERENCE.md "Error bars" (Miller 2024): s = [1,1,0 | 1,0 | 0,0,1,1] -> mean 0.5556, SE 0.17568, SE_cl 0.07459
    m, se = standard_error(TOY)
    assert m == pytest.approx(5 / 9)
    assert se == pytest.approx(0.17568, abs=5e-6)
    m, se_cl = standard_error(TOY, cluster=TOY_CLUSTERS)
    assert se_cl == pytest.approx(0.07459, abs=5e-6)


def test_miller_toy_exact_rational():
    # exact arithmetic of Miller's formulas: SE^2 = (20/9)/(9*8); cross terms sum to -166/81
    se2 = (20 / 9) / 72
    se2_cl = se2 - (166 / 81) / 81
    assert standard_error(TOY)[1] ** 2 == pytest.approx(se2, rel=1e-12)
    assert standard_error(TOY, cluster=TOY_CLUSTERS)[1] ** 2 == pytest.approx(se2_cl, rel=1e-12)


def test_standard_error_nan_and_masked_entries():
    # NaN entries are left out (documented; per-problem scores are NaN where k > n), but standard_error([0.5, nan])
    # returned (0.5, nan) without a word, and a masked array's masked entries were used as data: [0.1, 0.9, --(100)]
    # gave (33.67, 33.17) (API review). Reference: the two scores left, hand count: mean 0.5, SE^2 = (0.4^2 + 0.4^2)
    # / (2 * 1) = 0.16, SE 0.4.
    masked = np.ma.masked_array([0.1, 0.9, 100.0], mask=[False, False, True])
    assert standard_error(masked) == pytest.approx((0.5, 0.4), abs=1e-15)
    assert standard_error([0.1, 0.9, np.nan]) == pytest.approx((0.5, 0.4), abs=1e-15)
    assert standard_error(np.ma.masked_array([0.1, 0.9])) == pytest.approx((0.5, 0.4), abs=1e-15)  # nothing masked
    for one in ([0.5, np.nan], np.ma.masked_array([0.5, 0.7], mask=[False, True])):
        with pytest.raises(PasscurveError, match=r"^`s` needs at least 2 problems with a score for a standard error "
                                                 r"\(got 1 of 2; NaN and masked entries are left out\)$"):
            standard_error(one)
    # 2-d: a column without 2 scores gets a NaN SE, the others are unchanged (column 0: hand count as above)
    m, se = standard_error(np.ma.masked_array([[0.1, 1.0], [0.9, 0.0], [7.0, 0.0]], mask=[[0, 0], [0, 1], [1, 1]]))
    assert m[0] == pytest.approx(0.5) and se[0] == pytest.approx(0.4) and m[1] == 1.0 and np.isnan(se[1])
    # weights and clusters are not scores: a masked entry there is refused, not used
    with pytest.raises(PasscurveError, match=r"^`weight` is a masked array with 1 masked entry"):
        standard_error([0.1, 0.2, 0.3], weight=np.ma.masked_array([1.0, 1.0, 5.0], mask=[0, 0, 1]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=30))
def test_se_matches_textbook_formula(s):
    # independent computation: sample sd / sqrt(N); singleton clusters change nothing
    arr = np.asarray(s)
    m, se = standard_error(arr)
    assert m == pytest.approx(arr.mean(), abs=1e-12)
    assert se == pytest.approx(arr.std(ddof=1) / np.sqrt(arr.size), abs=1e-12)
    assert standard_error(arr, cluster=np.arange(arr.size))[1] == pytest.approx(se, abs=1e-12)


def test_weighted_se_reduces_to_unweighted_with_equal_weights():
    s = np.random.default_rng(0).random(20)
    assert standard_error(s, weight=np.full(20, 3.0))[1] == pytest.approx(standard_error(s)[1], rel=1e-12)


def test_clustered_se_one_cluster_per_pair_brute_force():
    # brute force of Miller's clustered formula by explicit double loop
    rng = np.random.default_rng(1)
    s = rng.random(12)
    cl = np.repeat(np.arange(4), 3)
    m = s.mean()
    se2 = ((s - m) ** 2).sum() / (12 * 11)
    cross = sum((s[i] - m) * (s[j] - m) for i in range(12) for j in range(12) if i != j and cl[i] == cl[j])
    assert standard_error(s, cluster=cl)[1] == pytest.approx(np.sqrt(se2 + cross / 144), rel=1e-12)


def _wilson_t(m, neff, df, level=0.95):
    """Korn & Graubard (1998): the Wilson score interval on an effective sample size neff with a Student-t
    quantile on df degrees of freedom (closed form, written out here from the paper's formula)."""
    t = stats.t.ppf(0.5 + level / 2, df)
    t2n = t * t / neff
    center = (m + t2n / 2) / (1 + t2n)
    half = t / (1 + t2n) * math.sqrt(m * (1 - m) / neff + t * t / (4 * neff * neff))
    return center - half, center + half


def _pass_frac(n, c, k):
    """Chen's pass@k as an exact rational: 1 - C(n-c, k)/C(n, k)."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def test_cluster_interval_on_miller_toy_uses_clusters_minus_one_df():
    # REFERENCE.md toy (Miller 2024): 9 problems in G = 3 clusters. Five problems carry the mean, so the
    # rare-event rule caps the effective size at the 9 problems, and the interval is the Korn-Graubard
    # Wilson-t interval on 9 with t_{0.975, G-1 = 2} = 4.303 (with df = problems - 1 = 8, t = 2.306)
    cnt = Counts.from_arrays([1] * 9, TOY, cluster=TOY_CLUSTERS)
    with pytest.warns(DegenerateDataWarning, match="rests on fewer than 10 problems"):
        res = curve_intervals(cnt, [1], metric="pass_at_k", method="cluster")
    lo, hi = res.intervals["pass_at_k"]
    ref = _wilson_t(5 / 9, 9, 2)
    assert (lo[0, 0], hi[0, 0]) == pytest.approx(ref, rel=1e-12)


def test_cluster_interval_is_the_korn_graubard_interval_on_the_clustered_se():
    # 36 problems in G = 5 clusters of sizes 3, 5, 7, 9, 12, pass@3 of n = 10 samples, mean away from 0 and 1.
    # Reference, in exact rationals: per-problem pass@3 (Fractions), Miller's clustered SE^2 = SE^2 + (1/N^2)
    # sum over clusters of sum_{i != j}(s_i - m)(s_j - m) by explicit double loop; then the Wilson-t interval
    # (Korn & Graubard 1998) on N_eff = m(1 - m)/SE_cl^2 with t_{0.975, G - 1}
    rng = np.random.default_rng(31)
    cl = np.repeat(np.arange(5), [3, 5, 7, 9, 12])
    lat = rng.normal(size=5)[cl] + 0.7 * rng.normal(size=36)  # a shared cluster effect
    c = rng.binomial(10, special.expit(lat - 1.5))
    s = [_pass_frac(10, int(ci), 3) for ci in c]
    N = len(s)
    m = sum(s, Fraction(0)) / N
    se2 = sum((x - m) ** 2 for x in s) / (N * (N - 1))
    cross = sum((s[i] - m) * (s[j] - m) for i in range(N) for j in range(N) if i != j and cl[i] == cl[j])
    se2_cl = se2 + cross / N**2
    assert 0.2 < m < 0.8 and se2_cl > 2 * se2  # the clusters matter here
    cnt = Counts.from_arrays(np.full(N, 10), c, cluster=cl)
    res = curve_intervals(cnt, [3], metric="pass_at_k", method="cluster")
    assert not _rare(np.array([[float(x)] for x in s]))[0]
    assert res.values["pass_at_k"][0, 0] == pytest.approx(float(m), rel=1e-13)
    lo, hi = res.intervals["pass_at_k"]
    ref = _wilson_t(float(m), float(m * (1 - m) / se2_cl), 4)
    assert (lo[0, 0], hi[0, 0]) == pytest.approx(ref, rel=1e-10)


# ----------------------------------------------------------------------------------------
# estimates and engines against independent computations
# ----------------------------------------------------------------------------------------
def _bench(seed=0, N=80, n=12, a=0.6, b=1.8):
    rng = np.random.default_rng(seed)
    p = rng.beta(a, b, N)
    return Counts.from_arrays(np.full(N, n), rng.binomial(n, p))


@pytest.mark.parametrize("method", ["analytic", "bootstrap", "bca", "two-level", "band"])
def test_estimates_equal_curve(method):
    cnt = _bench()
    ks = [1, 3, 12]
    res = curve_intervals(cnt, ks, method=method, n_resamples=300, rng=0)
    base = curve(cnt, ks)
    for m in ("pass_at_k", "pass_pow_k"):
        np.testing.assert_allclose(res.values[m], base.values[m], atol=1e-12)
        lo, hi = res.intervals[m]
        assert (lo <= res.values[m] + 1e-15).all() and (res.values[m] <= hi + 1e-15).all()
        assert (lo >= 0).all() and (hi <= 1).all()
    d = res.to_dict()["models"][0]["curve"][0]
    assert {"low", "high", "pass_pow_k_low", "pass_pow_k_high"} <= set(d)
    assert res.interval_method == method


def test_scores_matrix_matches_estimator():
    # reference: Chen's pass@k = 1 - C(n-c, k)/C(n, k) in exact rationals, and pass^k = C(c, k)/C(n, k)
    cnt = _bench(3)
    S = _scores(cnt.n, cnt.c, np.array([1, 4]), "pass_at_k", None)
    ref = [[float(_pass_frac(int(n), int(c), k)) for k in (1, 4)] for n, c in zip(cnt.n, cnt.c, strict=True)]
    np.testing.assert_allclose(S, ref, rtol=1e-13, atol=1e-15)
    P = _scores(cnt.n, cnt.c, np.array([2, 5]), "pass_pow_k", None)
    ref_pow = [[float(Fraction(math.comb(int(c), k), math.comb(int(n), k))) for k in (2, 5)]
               for n, c in zip(cnt.n, cnt.c, strict=True)]
    np.testing.assert_allclose(P, ref_pow, rtol=1e-13, atol=1e-15)


def test_jackknife_closed_form_matches_loop():
    rng = np.random.default_rng(2)
    S = rng.random((15, 2))
    w = rng.random(15) + 0.5
    groups = np.arange(15)
    jack = _jackknife_means(S, w[:, None] * np.ones_like(S), groups, 15)
    for i in range(15):
        keep = np.arange(15) != i
        np.testing.assert_allclose(jack[i], (w[keep] @ S[keep]) / w[keep].sum())


def test_bca_agrees_with_scipy_bootstrap():
    # independent implementation: scipy.stats.bootstrap(method="BCa") on the mean
    rng = np.random.default_rng(3)
    x = rng.beta(0.4, 2.0, 60)
    S = x[:, None]
    w = np.ones(60)
    reps = _boot_means(S, w, np.arange(60), 60, 20000, np.random.default_rng(4))
    jack = _jackknife_means(S, np.ones_like(S), np.arange(60), 60)
    lo, hi = _bca(reps, S.mean(axis=0), jack, 0.05)
    ref = stats.bootstrap((x,), np.mean, method="BCa", n_resamples=20000, random_state=5).confidence_interval
    assert lo[0] == pytest.approx(ref.low, abs=0.004)
    assert hi[0] == pytest.approx(ref.high, abs=0.004)


def test_bca_counts_replicates_equal_to_the_estimate_as_half():
    # replicates symmetric about theta with a lump of 200 exactly at theta, and a symmetric jackknife
    # (acceleration 0): the proportion below theta is (400 + 200/2)/1000 = 1/2 only when a tie counts half, so
    # z0 = Phi^-1(1/2) = 0 and BCa is the plain percentile interval (Efron 1987), symmetric about theta
    theta = 0.5
    x = np.linspace(0.01, 0.3, 400)
    reps = (theta + np.concatenate([-x, np.zeros(200), x]))[:, None]
    jack = np.array([[theta - 0.01], [theta + 0.01]])
    lo, hi = _bca(reps, np.array([theta]), jack, 0.1)
    ref = np.quantile(reps[:, 0], [0.05, 0.95])  # numpy's linear interpolation between order statistics
    assert (lo[0], hi[0]) == pytest.approx(tuple(ref), abs=1e-15)
    assert theta - lo[0] == pytest.approx(hi[0] - theta, abs=1e-15)


def test_band_at_one_k_is_the_symmetric_bootstrap_interval():
    # for a single k the max statistic is |theta* - theta|/se itself, so the band theta +- q_{1-alpha}(T) se is
    # the symmetric bootstrap interval theta +- the (1 - alpha) quantile of |theta* - theta| (se cancels);
    # the same replicates (same seed) drawn by _boot_means
    rng = np.random.default_rng(9)
    S = rng.beta(0.5, 1.5, (70, 1))
    w = np.ones(70)
    est, lo, hi, _ = _interval_from_scores(S, w, None, 70, "band", 0.05, 2000, np.random.default_rng(4),
                                           bounded=False)
    reps = _boot_means(S, w, np.arange(70), 70, 2000, np.random.default_rng(4))[:, 0]
    half = np.quantile(np.abs(reps - S.mean()), 0.95)
    assert est[0] == pytest.approx(S.mean(), rel=1e-13)
    assert lo[0] == pytest.approx(S.mean() - half, rel=1e-12)
    assert hi[0] == pytest.approx(S.mean() + half, rel=1e-12)


@pytest.mark.parametrize(("N", "n", "seed"), [(200, 3, 0), (200, 2, 1)])
def test_two_level_replicates_reproduce_the_variance_of_the_mean(N, n, seed):
    # the shrunk two-level bootstrap is built so that a replicate mean of pass@1 = c/n has the sampling
    # variance of the observed mean, var(c_i/n, ddof=1)/N (Davison & Hinkley 1997 §3.8; with equal n the
    # shrinkage lambda^2 = sigma_b^2/Var(p_hat), sigma_b^2 = Var(p_hat) - mean(p_hat(1-p_hat))/(n-1), makes
    # Var(p~) (1 - 1/n) + mu(1-mu)/n equal Var(p_hat) up to O(1/N)). 20,000 replicates: ~1% Monte Carlo error in
    # the variance. Within-problem variance over n instead of n - 1 gives +9% (n = 3) / +13% (n = 2); no
    # shrinkage (resampling from p_hat itself) counts the within-problem noise twice: +28%
    rng = np.random.default_rng(seed)
    c = rng.binomial(n, rng.beta(0.6, 1.2, N))
    reps = _two_level_means(np.full(N, n), c, np.ones(N), np.array([1]), "pass_at_k", None, 20000,
                            np.random.default_rng(1))
    ratio = np.var(reps[:, 0], ddof=1) / (np.var(c / n, ddof=1) / N)
    assert abs(ratio - 1) < 0.05, ratio


def test_bootstrap_se_matches_analytic_on_large_benchmark():
    cnt = _bench(5, N=2000)
    a = curve_intervals(cnt, [1, 5], method="analytic")
    b = curve_intervals(cnt, [1, 5], method="bootstrap", n_resamples=2000, rng=1)
    for m in ("pass_at_k",):
        wa = a.intervals[m][1] - a.intervals[m][0]
        wb = b.intervals[m][1] - b.intervals[m][0]
        np.testing.assert_allclose(wb, wa, rtol=0.08)


def test_seed_reproducible_and_different_seeds_differ():
    cnt = _bench()
    r1 = curve_intervals(cnt, [1, 5], method="bca", n_resamples=200, rng=7)
    r2 = curve_intervals(cnt, [1, 5], method="bca", n_resamples=200, rng=7)
    r3 = curve_intervals(cnt, [1, 5], method="bca", n_resamples=200, rng=8)
    np.testing.assert_array_equal(r1.intervals["pass_at_k"][0], r2.intervals["pass_at_k"][0])
    assert not np.array_equal(r1.intervals["pass_at_k"][0], r3.intervals["pass_at_k"][0])


def test_rare_event_warning_is_one_line_per_measure_across_models():
    # three models whose pass@1 rests on a handful of problems: one warning naming all three
    n = np.full(120, 10)
    c = np.zeros(360, dtype=int)
    c[[0, 1, 120, 240, 241, 242]] = 1
    cnt = Counts.from_arrays(np.tile(n, 3), c, model=np.repeat(["a", "b", "c"], 120))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = curve_intervals(cnt, [1, 2], metric="pass_at_k", method="analytic")
    rare = [str(w.message) for w in caught if issubclass(w.category, DegenerateDataWarning)]
    assert [f"DegenerateDataWarning: {m}" for m in rare] == list(res.warnings)  # a result names each warning's kind
    assert len(rare) == 1
    assert rare[0].startswith("pass@k: the mean rests on fewer than 10 problems (nearly every other problem scores 0 "
                              "there, or 1: the effective number of problems is small), for 3 models (")
    assert "('a' at k=1, 2; 'b' at k=1, 2; 'c' at k=1, 2)" in rare[0]  # each k named (at most four, then a count)


@pytest.mark.parametrize("method", ["analytic", "bootstrap", "bca", "two-level"])
def test_all_zero_benchmark_has_a_nonzero_upper_bound(method):
    # 40 problems never solved: the estimate is 0 but the truth may not be; the rare-event bound is the
    # Korn & Graubard (1998) t-variant of the Wilson interval on the 40 problems, whose upper end at an
    # estimate of 0 is t^2/(N + t^2) with t = t_{0.975, 39} = 2.0227: 0.0928 (a normal-quantile Wilson bound
    # would be z^2/(N + z^2) = 0.0876)
    cnt = Counts.from_arrays(np.full(40, 10), np.zeros(40, dtype=int))
    with pytest.warns(DegenerateDataWarning, match=r"rests on fewer than 10 problems \(.*\) at k=1"):
        res = curve_intervals(cnt, [1], metric="pass_at_k", method=method, n_resamples=200, rng=0)
    lo, hi = res.intervals["pass_at_k"]
    assert lo[0, 0] == 0.0
    t = stats.t.ppf(0.975, 39)
    assert hi[0, 0] == pytest.approx(t**2 / (40 + t**2), rel=1e-9)


def test_rare_event_bound_survives_subnormal_scores():
    # pass^k at large k is ~1e-319 on one problem and 0 elsewhere (Pythia 160M at k = 200): squaring
    # such scores underflows, but the mean still rests on one problem and gets the same Wilson bound
    # as the exactly-zero columns beside it
    S = np.zeros((128, 3))
    S[0, 0] = 3e-317
    S[0, 1] = 1e-100
    assert _rare(S).tolist() == [True, True, True]
    assert not _rare(np.full((128, 1), 1e-200))[0]
    n = np.full(128, 10000)
    c = np.zeros(128, dtype=int)
    c[0] = 3000  # pass^250 = C(3000, 250) / C(10000, 250) ~ 1e-134; pass^574 ~ 5e-319
    cnt = Counts.from_arrays(n, c)
    with pytest.warns(DegenerateDataWarning):
        res = curve_intervals(cnt, [250, 574, 2000], metric="pass_pow_k", method="bootstrap", n_resamples=200, rng=0)
    hi = res.intervals["pass_pow_k"][1][0]
    assert hi[1] == pytest.approx(hi[0]) and hi[1] == pytest.approx(hi[2]) and hi[1] > 1e-3


def test_band_is_wider_than_pointwise_and_covers_it():
    cnt = _bench(6, N=150, n=20)
    ks = list(range(1, 21))
    pt = curve_intervals(cnt, ks, metric="pass_at_k", method="bootstrap", n_resamples=1000, rng=0)
    band = curve_intervals(cnt, ks, metric="pass_at_k", method="band", n_resamples=1000, rng=0)
    wp = pt.intervals["pass_at_k"][1] - pt.intervals["pass_at_k"][0]
    wb = band.intervals["pass_at_k"][1] - band.intervals["pass_at_k"][0]
    assert (wb >= wp * 0.98).all()
    assert wb.mean() > wp.mean() * 1.05


def test_g_pass_at_k_intervals():
    # reference: per-problem G-pass@k_tau = sum_{j >= ceil(tau k)} C(c, j) C(n-c, k-j)/C(n, k) (Liu et al. 2024,
    # REFERENCE.md) in exact rationals, SE^2 = sum (s_i - m)^2/(N(N-1)) (Miller), and the Korn-Graubard Wilson-t
    # interval on N_eff = m(1 - m)/SE^2 with t_{0.975, N-1}
    cnt = _bench(7)
    res = curve_intervals(cnt, [4, 8], metric="g_pass_at_k", tau=0.5, method="analytic")
    lo, hi = res.intervals["g_pass_at_k"]
    for j, k in enumerate([4, 8]):
        lowest = max(math.ceil(0.5 * k), 1)
        s = [sum(Fraction(math.comb(c, i) * math.comb(n - c, k - i), math.comb(n, k)) for i in range(lowest, min(c, k) + 1))
             for n, c in zip(cnt.n.tolist(), cnt.c.tolist(), strict=True)]
        N = len(s)
        m = sum(s, Fraction(0)) / N
        se2 = sum((x - m) ** 2 for x in s) / (N * (N - 1))
        assert res.values["g_pass_at_k"][0, j] == pytest.approx(float(m), rel=1e-13)
        ref = _wilson_t(float(m), float(m * (1 - m) / se2), N - 1)
        assert (lo[0, j], hi[0, j]) == pytest.approx(ref, rel=1e-10)
    assert "g_pass_at_k_low" in res.to_dict()["models"][0]["curve"][0]


def test_k_gt_n_drop_and_raise():
    cnt = Counts.from_arrays([5, 10, 10, 10], [1, 2, 3, 4])
    with pytest.raises(PasscurveError, match=r"`k` must be an integer in \[1, n\] \(got k=8, n=5\)"):
        curve_intervals(cnt, [8])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        res = curve_intervals(cnt, [1, 8], k_gt_n="drop")
    assert res.problems[0].tolist() == [4, 3]
    assert any("left out" in str(x.message) for x in w)


def test_k_gt_n_nan_gives_each_model_its_own_range():
    cnt = Counts.from_arrays([5, 5, 5, 40, 40, 40], [1, 2, 0, 3, 9, 30], model=["x"] * 3 + ["y"] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = curve_intervals(cnt, [1, 5, 8, 40], k_gt_n="nan")
        alone_x = curve_intervals(cnt.select_models(["x"]), [1, 5])
        alone_y = curve_intervals(cnt.select_models(["y"]), [1, 5, 8, 40])
    x, y = res.models.index("x"), res.models.index("y")
    lo, hi = res.intervals["pass_at_k"]
    # the analytic interval of each model is the one it has alone, up to its own n; NaN beyond
    np.testing.assert_allclose(lo[x, :2], alone_x.intervals["pass_at_k"][0][0], rtol=1e-12)
    np.testing.assert_allclose(hi[y], alone_y.intervals["pass_at_k"][1][0], rtol=1e-12)
    assert np.isnan(lo[x, 2:]).all() and np.isnan(res.values["pass_at_k"][x, 2:]).all()
    assert res.problems[x].tolist() == [3, 3, 0, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        grid = curve_intervals(cnt, k_gt_n="nan", metric="pass_at_k").k
    assert grid[-1] == 40 and 5 in grid  # the default grid holds each model's own smallest n


def test_weights_are_used():
    n = np.full(4, 10)
    c = np.array([0, 0, 10, 10])
    cnt = Counts.from_arrays(n, c, weight=[1, 1, 3, 3])
    res = curve_intervals(cnt, [1], metric="pass_at_k")
    assert res.values["pass_at_k"][0, 0] == pytest.approx(0.75)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"method": "nope"}, "`method` must be one of"),
        ({"metric": "maj_at_k"}, "`metric` must be drawn from"),
        ({"metric": "g_pass_at_k"}, "`tau` is required"),
        ({"confidence_level": 1.5}, "`confidence_level` must be in"),
        ({"n_resamples": 10}, "`n_resamples` must be an integer >= 100"),
        ({"rng": "seed"}, "`rng` must be None"),
        ({"method": "cluster"}, 'method "cluster" needs cluster ids'),
        ({"k": [0]}, "`k` must be >= 1"),
        ({"cluster": [1, 2]}, "`cluster` has 2 entries"),
        ({"k_gt_n": "x"}, "`k_gt_n` must be"),
    ],
)
def test_bad_input(kwargs, match):
    cnt = _bench()
    kw = {"k": [1]} | kwargs
    with pytest.raises(PasscurveError, match=match):
        curve_intervals(cnt, **kw)


def test_bad_counts_and_two_level_with_clusters():
    with pytest.raises(PasscurveError, match="`counts` must be a passcurve.Counts"):
        curve_intervals([1, 2], [1])
    cnt = Counts.from_arrays([5] * 4, [1, 2, 3, 4], cluster=["a", "a", "b", "b"])
    with pytest.raises(PasscurveError, match="two-level"):
        curve_intervals(cnt, [1], method="two-level")
    with pytest.raises(PasscurveError, match="`s` needs at least 2 problems"):
        standard_error([0.5])


# ----------------------------------------------------------------------------------------
# coverage by simulation (seeded). Estimand: the population pass_D@k of the difficulty
# distribution the problems are drawn from, closed form for a zero-inflated Beta:
# (1 - pi0)(1 - B(a, b + k)/B(a, b)) (REFERENCE.md "Hidden difficulty"); every replication
# draws fresh problems. Many replications run as "models" of one Counts.
# ----------------------------------------------------------------------------------------
def _truth(a, b, k, pi0=0.0):
    k = np.asarray(k, float)
    return (1 - pi0) * (1 - np.exp(special.betaln(a, b + k) - special.betaln(a, b)))


def _replicates(R, N, n, a, b, seed, pi0=0.0, cluster_size=1, rho=0.0):
    rng = np.random.default_rng(seed)
    if cluster_size > 1:
        G = N // cluster_size
        g = np.repeat(np.arange(G), cluster_size)
        z = np.sqrt(rho) * rng.standard_normal((R, G))[:, g] + np.sqrt(1 - rho) * rng.standard_normal((R, N))
        u = stats.norm.cdf(z)
    else:
        g = None
        u = rng.random((R, N))
    p = np.where(u >= pi0, stats.beta.ppf(np.clip((u - pi0) / (1 - pi0), 0, 1), a, b), 0.0)
    c = rng.binomial(n, p)
    model = np.repeat([f"r{i:04d}" for i in range(R)], N)
    problem = np.tile(np.arange(N), R)
    cl = None if g is None else np.tile(g, R)
    return Counts.from_arrays(np.full(R * N, n), c.ravel(), model=model, problem=problem, cluster=cl)


def _coverage(cnt, truth, metric="pass_at_k", **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # rare-event notes, one per replication
        res = curve_intervals(cnt, metric=metric, **kw)
    lo, hi = res.intervals[metric]
    return ((lo <= truth) & (truth <= hi)).mean(axis=0)


SETTINGS = {
    # name: (N, n, a, b, pi0, ks)
    "small n": (50, 3, 0.5, 1.5, 0.0, [1, 3]),
    "heavy tail + impossible": (200, 50, 0.2, 3.0, 0.2, [1, 10, 50]),
    "moderate": (100, 10, 1.0, 3.0, 0.0, [1, 5, 10]),
}


@pytest.mark.parametrize("name", list(SETTINGS))
def test_coverage_analytic(name):
    N, n, a, b, pi0, ks = SETTINGS[name]
    cnt = _replicates(600, N, n, a, b, seed=100, pi0=pi0)
    cov = _coverage(cnt, _truth(a, b, ks, pi0), k=ks, method="analytic")
    assert ((cov >= 0.93) & (cov <= 0.97)).all(), cov


@pytest.mark.parametrize(
    "method, setting", [("bootstrap", "heavy tail + impossible"), ("bca", "heavy tail + impossible"), ("two-level", "small n")]
)
def test_coverage_bootstrap_methods(method, setting):
    N, n, a, b, pi0, ks = SETTINGS[setting]
    cnt = _replicates(300, N, n, a, b, seed=200, pi0=pi0)
    cov = _coverage(cnt, _truth(a, b, ks, pi0), k=ks, method=method, n_resamples=400, rng=1)
    # 300 replications: Monte Carlo sd 1.3 points around 95%
    assert ((cov >= 0.92) & (cov <= 0.98)).all(), cov
    assert 0.93 <= cov.mean() <= 0.97


def test_coverage_clustered_and_naive_undercoverage():
    # 40 clusters of 5 problems sharing a latent difficulty (Gaussian copula, rho=0.8):
    # the marginal difficulty, hence the estimand, is the plain Beta(0.5, 1.5)
    a, b, ks = 0.5, 1.5, [1, 10]
    cnt = _replicates(600, 200, 10, a, b, seed=300, cluster_size=5, rho=0.8)
    truth = _truth(a, b, ks)
    cov = _coverage(cnt, truth, k=ks, method="cluster")
    assert ((cov >= 0.93) & (cov <= 0.97)).all(), cov
    naive = _coverage(cnt, truth, k=ks, method="analytic", cluster=False)
    assert (naive < 0.80).all(), naive  # counting problems as independent: far too narrow
    boot = _coverage(cnt.take(np.arange(200 * 200)), truth, k=ks, method="bootstrap", n_resamples=400, rng=2)
    assert ((boot >= 0.90) & (boot <= 0.985)).all(), boot


def test_band_simultaneous_coverage():
    a, b = 0.6, 2.0
    ks = np.arange(1, 11)
    cnt = _replicates(250, 120, 10, a, b, seed=400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = curve_intervals(cnt, ks, metric="pass_at_k", method="band", n_resamples=500, rng=3)
    lo, hi = res.intervals["pass_at_k"]
    truth = _truth(a, b, ks)
    joint = ((lo <= truth) & (truth <= hi)).all(axis=1).mean()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        pointwise = curve_intervals(cnt, ks, metric="pass_at_k", method="bootstrap", n_resamples=500, rng=3)
    plo, phi = pointwise.intervals["pass_at_k"]
    joint_pw = ((plo <= truth) & (truth <= phi)).all(axis=1).mean()
    assert 0.92 <= joint <= 0.985, joint
    assert joint_pw < joint


def test_one_problem_gives_nan_interval_and_warning():
    cnt = Counts.from_arrays([10], [3])
    with pytest.warns(DegenerateDataWarning, match="fewer than 2 problems"):
        res = curve_intervals(cnt, [1], method="bca", n_resamples=100, rng=0)
    assert res.values["pass_at_k"][0, 0] == pytest.approx(0.3)
    assert np.isnan(res.intervals["pass_at_k"][0]).all()


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        (([0.1, 0.2],), {"weight": [1.0]}, "`weight` has 1 entries"),
        (([0.1, 0.2],), {"weight": [1.0, -1.0]}, "`weight` must be >= 0"),
        (([0.1, 0.2],), {"cluster": [1]}, "`cluster` has 1 entries"),
        ((np.zeros((2, 2, 2)),), {}, "`s` must be 1-d or 2-d"),
        (([0.1, np.inf],), {}, "`s` contains an infinite value"),
        ((["a", "b"],), {}, "`s` must contain numbers"),
    ],
)
def test_standard_error_bad_input(args, kwargs, match):
    with pytest.raises(PasscurveError, match=match):
        standard_error(*args, **kwargs)


def test_coverage_pass_pow_k_and_g_pass_at_k_small_n():
    # closed forms under Beta(a, b): E[p^k] = B(a + k, b)/B(a, b); G-pass@k_tau =
    # P(Binomial(k, p) >= m) averaged over p = sum_{j>=m} C(k, j) B(a + j, b + k - j)/B(a, b)
    N, n, a, b = 100, 4, 0.8, 1.2
    cnt = _replicates(600, N, n, a, b, seed=500)
    ks = [1, 2, 4]
    pow_truth = np.exp(special.betaln(a + np.array(ks, float), b) - special.betaln(a, b))
    cov = _coverage(cnt, pow_truth, metric="pass_pow_k", k=ks, method="analytic")
    assert ((cov >= 0.93) & (cov <= 0.97)).all(), cov
    k, m = 4, 2  # tau = 0.5 -> m = ceil(0.5 * 4) = 2
    g_truth = sum(special.comb(k, j) * np.exp(special.betaln(a + j, b + k - j) - special.betaln(a, b)) for j in range(m, k + 1))
    cov_g = _coverage(cnt, np.array([g_truth]), metric="g_pass_at_k", k=[4], tau=0.5, method="bca", n_resamples=300, rng=5)
    assert 0.93 <= cov_g[0] <= 0.97, cov_g


@pytest.mark.parametrize("method", ["analytic", "bootstrap", "bca", "two-level"])
def test_intervals_in_chunks_of_k_equal_one_pass(method, monkeypatch):
    # beyond the memory budget the k grid is split into chunks and every chunk replays the same
    # replicates; the result must equal one pass over all k (here the budget is
    # shrunk so that 60 values of k go in chunks of 7), and so must the next draw of the stream
    bench = simulate(problems=40, n=300, rng=2)
    ks = np.unique(np.round(np.geomspace(1, 300, 60)).astype(np.int64))
    kw = {"metric": ("pass_at_k", "pass_pow_k"), "method": method, "n_resamples": 200}
    g1, g2 = np.random.default_rng(5), np.random.default_rng(5)
    whole = curve_intervals(bench.counts, ks, rng=g1, **kw)
    width = 40 + (200 if method != "analytic" else 0)
    monkeypatch.setattr("passcurve._uncertainty._CHUNK_BUDGET", 8.0 * width * 7)
    chunked = curve_intervals(bench.counts, ks, rng=g2, **kw)
    for m in kw["metric"]:
        # equal up to rounding: a chunk's scores may take the other exact path (1 ulp), which
        # BCa's bias and acceleration terms can carry to about 1e-12 in a bound
        np.testing.assert_allclose(chunked.values[m], whole.values[m], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(chunked.intervals[m][0], whole.intervals[m][0], rtol=0, atol=1e-10)
        np.testing.assert_allclose(chunked.intervals[m][1], whole.intervals[m][1], rtol=0, atol=1e-10)
    assert g1.random() == g2.random()


def test_a_band_beyond_the_memory_budget_fails_with_a_message():
    # the simultaneous band needs every k at once: 10^6 values of k x 2000 replicates is 16 GB
    # of replicate means; the process used to be killed for memory, now the check names the size
    counts = Counts.from_arrays(np.full(30, 10**6), np.arange(30) * 1000)
    with pytest.raises(PasscurveError, match=r"band over 1,000,000 values of k for 30 problems x 2000 replicates"):
        curve_intervals(counts, k=np.arange(1, 10**6 + 1), metric="pass_at_k", method="band")


def test_bca_with_drop_leaves_a_k_above_every_n_empty():
    # model A has n = 5, model B n = 10: under k_gt_n="drop" A has no problem at k = 8, and BCa indexed its
    # replicates at INT_MIN there (IndexError; `passcurve curve --ci bca --drop-k-gt-n` died with a traceback)
    rng = np.random.default_rng(0)
    n = np.r_[np.full(20, 5), np.full(20, 10)]
    c = rng.binomial(n, 0.4)
    counts = Counts.from_arrays(n, c, model=["A"] * 20 + ["B"] * 20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bca = curve_intervals(counts, [1, 8], method="bca", k_gt_n="drop", rng=0)
        boot = curve_intervals(counts, [1, 8], method="bootstrap", k_gt_n="drop", rng=0)
    lo, hi = bca.intervals["pass_at_k"]
    assert np.isnan(lo[0, 1]) and np.isnan(hi[0, 1]) and np.isfinite(lo[1]).all() and np.isfinite(lo[0, 0])
    assert np.isnan(boot.intervals["pass_at_k"][0][0, 1])


def test_multinomial_counts_row_by_row_same_draws_less_memory():
    # the bootstrap's resample counts: for many problems counted row by row into the float64 result (audit at scale:
    # one bincount over the whole chunk held four (b, size) arrays and was 3x slower). Same numbers as the one-call
    # count, which short rows still use
    import tracemalloc

    from passcurve._uncertainty import _ROW_BINCOUNT, _multinomial_counts

    for b, size in ((7, 5), (3, _ROW_BINCOUNT - 1), (5, _ROW_BINCOUNT), (4, 3000)):
        got = _multinomial_counts(np.random.default_rng(11), b, size)
        idx = np.random.default_rng(11).integers(0, size, size=(b, size))
        want = np.stack([np.bincount(row, minlength=size) for row in idx]).astype(np.float64)
        assert got.dtype == np.float64 and np.array_equal(got, want)
        assert np.all(got.sum(axis=1) == size)
    b, size = 50, 20_000
    tracemalloc.start()
    _multinomial_counts(np.random.default_rng(0), b, size)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 2.5 * b * size * 8  # the draws and the result; the old way held 4 such arrays


def test_resample_over_distinct_rows_has_the_binomial_law_of_the_problem_resample():
    # 4 problems scoring 0, 0, 1, 1 (two distinct rows): a resample of 4 problems holds j ones with probability
    # C(4, j)/16 (each draw is a one with probability 1/2), so the replicate mean j/4 follows Binomial(4, 1/2)/4;
    # both the draw over distinct rows and the draw problem by problem must give it
    from passcurve._uncertainty import _Distinct, _distinct_problems

    S, w = np.array([[0.0], [0.0], [1.0], [1.0]]), np.ones(4)
    d = _distinct_problems(np.full(4, 1), np.array([0, 0, 1, 1]), w)
    assert isinstance(d, _Distinct) and d.u.tolist() == [2, 2]
    pmf = np.array([math.comb(4, j) for j in range(5)]) / 16
    B = 40_000
    for reps in (_boot_means(S, w, np.arange(4), 4, B, np.random.default_rng(1), d),
                 _boot_means(S, w, np.arange(4), 4, B, np.random.default_rng(1))):
        freq = np.bincount(np.rint(reps[:, 0] * 4).astype(int), minlength=5) / B
        assert np.all(np.abs(freq - pmf) <= 4 * np.sqrt(pmf * (1 - pmf) / B)), freq


def test_distinct_rows_only_when_they_halve_the_work():
    from passcurve._uncertainty import _distinct_problems

    assert _distinct_problems(np.arange(1, 11), np.zeros(10, int), np.ones(10)) is None  # every n differs
    d = _distinct_problems(np.full(10, 5), np.array([0, 1] * 5), np.ones(10))
    assert d is not None and d.u.tolist() == [5, 5]
    # a weight splits a row: (5, 1, w=2) is not (5, 1, w=1)
    d = _distinct_problems(np.full(10, 5), np.array([0, 1] * 5), np.r_[np.ones(9), 2.0])
    assert d is not None and sorted(d.u.tolist()) == [1, 4, 5]


def test_models_on_one_stream_are_not_resampled_alike_by_the_rank_of_their_rows():
    # every model restarts the same stream (model_streams); drawn over its sorted distinct rows with that stream's
    # own numbers, two unrelated models had replicate means correlated by about 0.9, so a coverage study that puts
    # its replications in one input as models counted the same luck hundreds of times (0.98 in a 95% test). The
    # draws are seeded by the rows as well: the correlation is sampling noise (|r| < 4/sqrt(B) for B = 4000)
    from passcurve._uncertainty import _distinct_problems

    gen = np.random.default_rng(7)
    c1 = gen.binomial(4, gen.beta(0.8, 1.2, 300))
    c2 = gen.binomial(4, gen.beta(0.8, 1.2, 300))
    B = 4000
    reps = []
    for c in (c1, c2):
        S, w = (c / 4.0)[:, None], np.ones(300)
        reps.append(_boot_means(S, w, np.arange(300), 300, B, np.random.default_rng(5),
                                _distinct_problems(np.full(300, 4), c, w))[:, 0])
    assert abs(np.corrcoef(*reps)[0, 1]) < 4 / np.sqrt(B)


@pytest.mark.parametrize("method", ["bootstrap", "band"])
def test_intervals_over_distinct_rows_equal_one_pass_in_chunks_of_k(method, monkeypatch):
    # 400 problems at n = 20 share at most 21 rows: the partition is by (n, c, weight), the same for every chunk of
    # k (a chunk's scores alone would merge problems equal at those k only, e.g. pass@k = 1 for k > n - c)
    bench = simulate(problems=400, n=20, rng=3)
    ks = np.arange(1, 21)
    kw = {"metric": "pass_at_k", "method": method, "n_resamples": 300}
    whole = curve_intervals(bench.counts, ks, rng=np.random.default_rng(2), **kw)
    if method == "bootstrap":
        monkeypatch.setattr("passcurve._uncertainty._CHUNK_BUDGET", 8.0 * (400 + 300) * 3)
    chunked = curve_intervals(bench.counts, ks, rng=np.random.default_rng(2), **kw)
    monkeypatch.setattr("passcurve._uncertainty._DISTINCT_ROWS", False)
    by_problem = curve_intervals(bench.counts, ks, rng=np.random.default_rng(2), **kw)
    for side in (0, 1):
        np.testing.assert_allclose(chunked.intervals["pass_at_k"][side], whole.intervals["pass_at_k"][side],
                                   rtol=0, atol=1e-12)
        # another draw of the same law: the ends agree within bootstrap noise (300 replicates)
        np.testing.assert_allclose(by_problem.intervals["pass_at_k"][side], whole.intervals["pass_at_k"][side],
                                   atol=0.02)


def test_cells_whose_interval_is_the_wilson_bound_are_marked():
    # 30 problems at n = 20, three ever solved (c = 5, 9, 20): every mean rests on fewer than 10 problems, so every
    # interval is the Wilson bound on the number of problems; the warning said so, the result's cells did not.
    # 300 problems of which 100 solved: none is marked
    few = Counts.from_arrays(np.full(30, 20), np.r_[np.zeros(27, int), 5, 9, 20])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = curve_intervals(few, [1, 10, 20], metric=["pass_at_k", "pass_pow_k"])
    assert res.few_problems["pass_at_k"].tolist() == [[True, True, True]]
    pts = res.to_dict()["models"][0]["curve"]
    assert all(p["few_problems"] and p["pass_pow_k_few_problems"] for p in pts)
    many = Counts.from_arrays(np.full(300, 20), np.r_[np.zeros(200, int), np.full(100, 10)])
    res = curve_intervals(many, [1, 10], metric="pass_at_k")
    assert not res.few_problems["pass_at_k"].any()
    assert not any("few_problems" in p for p in res.to_dict()["models"][0]["curve"])


def test_docs_pythia_interval_tables_are_what_the_code_gives():
    # docs/uncertainty.md shows benchmarks/uncertainty_real_data.py's pass@k tables (Pythia/MATH, counts in the CSV's
    # row order, 2000 resamples, rng=0). Its BCa rows for 160M, 1B, 410M and 70M were the problem-by-problem draw's;
    # resampling over distinct (n, c) rows (6a3135b) draws other numbers of the same law and moved them in the
    # third digit (docs audit). The reference is the script's own computation, repeated here.
    import re

    import pandas as pd
    from conftest import ROOT, shared_file

    df = pd.read_csv(shared_file("pythia_math_counts.csv"))
    cnt = Counts.from_arrays(df.n, df.c, problem=df.problem_id, model=df.model)
    ks = [1, 10, 100, 1000, 10000]
    text = (ROOT / "docs" / "uncertainty.md").read_text(encoding="utf-8")
    for method in ("analytic", "bca"):
        table = text.split(f"#### {method}\n", 1)[1].split("\n\n", 1)[0]
        shown = {row.split(" | ")[0].strip("| "): row for row in table.splitlines()[2:]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 70M: the few-problems warning
            res = curve_intervals(cnt, ks, metric="pass_at_k", method=method, n_resamples=2000, rng=0)
        lo, hi = res.intervals["pass_at_k"]
        assert sorted(shown) == sorted(res.models)
        for i, m in enumerate(res.models):
            got = " | ".join(f"{res.values['pass_at_k'][i, j]:.3f} [{lo[i, j]:.3f}, {hi[i, j]:.3f}]" for j in range(5))
            assert re.sub(r"^\| [^|]+ \| | \|$", "", shown[m]) == got, (method, m)


def test_wilson_bound_keeps_its_digits_at_tiny_and_near_one_means():
    # the Korn-Graubard Wilson ends center -/+ half were differences of numbers near t^2/2n: at pass^27 of a model
    # whose mean was 1.1e-11 (300 problems) the lower end read 8.7e-19 (the ulp of t^2/2n), its neighbours 0 and
    # 8.7e-19 in turn. Reference: the same closed form (as the test's _wilson_t) in 60-digit decimal arithmetic
    from decimal import Decimal, getcontext

    from passcurve._uncertainty import _wilson_t as wilson

    getcontext().prec = 60
    t = stats.t.ppf(0.975, 299)
    means = np.array([1.1e-11, 2.5e-7, 0.3, 1 - 3e-9])
    se = np.sqrt(means * (1 - means) / 150)  # an effective number of problems near 150, below the cap of 300
    lo, hi = wilson(means, se, np.full(4, 300.0), np.full(4, 299.0), 0.05, True)
    for j, m in enumerate(means):
        M, T, SE = Decimal(float(m)), Decimal(float(t)), Decimal(float(se[j]))
        neff = min(M * (1 - M) / (SE * SE), Decimal(300))
        t2n = T * T / neff
        center = (M + t2n / 2) / (1 + t2n)
        half = T / (1 + t2n) * (M * (1 - M) / neff + T * T / (4 * neff * neff)).sqrt()
        assert lo[j] == pytest.approx(float(center - half), rel=1e-12, abs=0), (m, lo[j], center - half)
        assert hi[j] == pytest.approx(float(center + half), rel=3e-16, abs=0), (m, hi[j], center + half)  # an ulp


@pytest.mark.parametrize("method", ["bootstrap", "bca", "two-level"])
def test_every_metric_of_one_call_resamples_the_same_problems(method):
    # pass@1 and pass^1 are one number per problem (c/n; 1 - (n - c)/n to an ulp), so one bootstrap over the problems
    # gives them one interval. The metrics drew on one stream in turn: 'passcurve curve demo.csv --ci bootstrap' gave
    # large-70b pass@1 [0.2593, 0.3245] and pass^1 [0.2600, 0.3247]
    bench = simulate(200, 50, rng=5)
    cnt = bench.counts.select("chat-7b")  # pass@1 0.15 on 200 problems: no Wilson bound in the way
    res = curve_intervals(cnt, [1, 2, 5], metric=["pass_at_k", "pass_pow_k"], method=method, n_resamples=300, rng=0)
    (lo_a, hi_a), (lo_p, hi_p) = res.intervals["pass_at_k"], res.intervals["pass_pow_k"]
    assert lo_a[0, 0] == pytest.approx(lo_p[0, 0], rel=1e-12) and hi_a[0, 0] == pytest.approx(hi_p[0, 0], rel=1e-12)
    # the first metric's intervals are those of a call with it alone (the same replicates as before)
    alone = curve_intervals(cnt, [1, 2, 5], metric="pass_at_k", method=method, n_resamples=300, rng=0)
    assert np.array_equal(alone.intervals["pass_at_k"][0], lo_a) and np.array_equal(alone.intervals["pass_at_k"][1], hi_a)


# ----------------------------------------------------------------------------------------
# mutation-testing gaps (session 33): closed forms written out independently of the code
# ----------------------------------------------------------------------------------------
def _order_stat_quantile(xs, q):
    """The q-quantile of the values xs by linear interpolation between order statistics at position q(B - 1)
    (Hyndman & Fan 1996, definition 7), in plain Python."""
    ys = sorted(xs)
    pos = q * (len(ys) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ys) - 1)
    return ys[lo] + (ys[hi] - ys[lo]) * (pos - lo)


def test_bca_is_efron_tibshiranis_formula_with_bias_and_acceleration():
    # Efron & Tibshirani (1993), An Introduction to the Bootstrap, eqs. 14.9-14.15: with z0 = Phi^-1(#{theta* <
    # theta}/B) and the jackknife acceleration a = sum (mean - theta_(i))^3 / (6 [sum (mean - theta_(i))^2]^(3/2)),
    # the interval is the alpha1 and alpha2 percentiles of the replicates, alpha_j = Phi(z0 + (z0 + z_j)/(1 - a(z0 +
    # z_j))). Replicates: a skewed, tie-free set with 613 of 1000 below the estimate (z0 = 0.2871); jackknife values
    # skewed to the left of their mean (a = (7371/1280000)/(6 (843/16000)^(3/2)) = +0.0794), and the mirror image (a < 0) as a second column
    nd = statistics.NormalDist()
    B = 1000
    reps = [0.3 + 0.4 * ((b + 0.5) / B) ** 2 for b in range(B)]
    theta = reps[612] + 1e-9  # 613 replicates below it
    jack1 = [0.30, 0.31, 0.32, 0.33, 0.20, 0.34, 0.35, 0.10]
    jack2 = [2 * 0.3 - x for x in jack1]
    ends = []
    for jack in (jack1, jack2):
        jm = sum(jack) / len(jack)
        acc = sum((jm - x) ** 3 for x in jack) / (6 * sum((jm - x) ** 2 for x in jack) ** 1.5)
        z0 = nd.inv_cdf(613 / B)
        qs = [nd.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z))) for z in (nd.inv_cdf(0.05), nd.inv_cdf(0.95))]
        ends.append((acc, [_order_stat_quantile(reps, q) for q in qs]))
    assert ends[0][0] == pytest.approx(0.07936, abs=5e-6) and ends[1][0] == pytest.approx(-0.07936, abs=5e-6)
    R = np.column_stack([reps, reps])
    J = np.column_stack([jack1, jack2])
    lo, hi = _bca(R, np.array([theta, theta]), J, 0.1)
    for j in range(2):
        assert (lo[j], hi[j]) == pytest.approx(tuple(ends[j][1]), rel=1e-13)
    assert hi[0] > hi[1] and lo[0] > lo[1]  # the acceleration's sign moves both ends: it is not a symmetric term


@pytest.mark.parametrize(("theta", "below", "jack"), [(0.4, 0, [0.39, 0.41]), (2.0, 1000, [1.99, 2.01]),
                                                   (2.0, 1000, [1.8, 2.1, 2.1, 2.1])])
def test_bca_with_every_replicate_on_one_side_is_finite(theta, below, jack):
    # every replicate above the estimate (or every one below): the share below, 0 (or 1), is clipped to 1/(B + 1)
    # (or B/(B + 1)), so z0 = Phi^-1 of it is finite as Efron & Tibshirani's formula needs (14.10, a from the
    # jackknife); the lower end of the first case sits at the Phi(2 z0 - 1.96) = 2e-16 quantile, and with a skewed
    # jackknife (a = 0.096) the upper end's level rounds to exactly 1: the largest replicate
    nd = statistics.NormalDist()
    reps = [0.5 + 0.001 * b for b in range(1000)]
    z0 = nd.inv_cdf(min(max(below / 1000, 1 / 1001), 1000 / 1001))
    jm = sum(jack) / len(jack)
    acc = sum((jm - x) ** 3 for x in jack) / (6 * sum((jm - x) ** 2 for x in jack) ** 1.5)
    qs = [nd.cdf(z0 + (z0 + z) / (1 - acc * (z0 + z))) for z in (nd.inv_cdf(0.025), nd.inv_cdf(0.975))]
    ref = [_order_stat_quantile(reps, q) for q in qs]
    lo, hi = _bca(np.array(reps)[:, None], np.array([theta]), np.array(jack)[:, None], 0.05)
    assert (lo[0], hi[0]) == pytest.approx(tuple(ref), rel=1e-13)
    if len(jack) == 4:
        assert acc == pytest.approx(0.0962, abs=1e-4) and qs[1] == 1.0 and hi[0] == reps[-1]


def test_weighted_standard_error_is_the_ratio_estimators_variance():
    # the weighted mean sum w s / sum w is a ratio estimator; its linearised variance (Cochran 1977, Sampling
    # Techniques, eq. 6.13 with y_i = w_i s_i, x_i = w_i) is N/(N-1) sum w_i^2 (s_i - R)^2 / (sum w)^2, and
    # Miller's cluster cross terms over the same linearised values w_i (s_i - R). Exact rationals
    s = [Fraction(1), Fraction(1, 3), Fraction(0), Fraction(3, 4), Fraction(1, 2), Fraction(1)]
    w = [Fraction(1), Fraction(2), Fraction(1, 2), Fraction(3), Fraction(1), Fraction(5, 2)]
    cl = [0, 0, 1, 1, 1, 2]
    N, W = len(s), sum(w)
    R = sum(wi * si for wi, si in zip(w, s, strict=True)) / W
    d = [wi * (si - R) for wi, si in zip(w, s, strict=True)]
    se2 = Fraction(N, N - 1) * sum(x * x for x in d) / W**2
    cross = sum(d[i] * d[j] for i in range(N) for j in range(N) if i != j and cl[i] == cl[j])
    fs, fw = [float(x) for x in s], [float(x) for x in w]
    m, se = standard_error(fs, weight=fw)
    assert m == pytest.approx(float(R), rel=1e-14)
    assert se**2 == pytest.approx(float(se2), rel=1e-13)
    m, se_cl = standard_error(fs, weight=fw, cluster=cl)
    assert se_cl**2 == pytest.approx(float(se2 + cross / W**2), rel=1e-13)
    assert float(cross) < 0 < float(se2 + cross / W**2)  # the cross terms matter here


def test_bca_is_scale_free_down_to_tiny_means():
    # BCa respects monotone transformations of the statistic (Efron 1987): scaling replicates, estimate and jackknife
    # by 2^-40 (exact in floating point, the size of pass^k at large k) scales both ends by 2^-40 exactly; the
    # tie tolerance is relative to the estimate, so it does not turn every replicate into a tie at tiny means
    rng = np.random.default_rng(11)
    reps = rng.gamma(2.0, 0.1, (4000, 1))
    theta = np.array([0.18])
    jack = rng.gamma(2.0, 0.1, (30, 1))
    s = 2.0**-40
    lo, hi = _bca(reps, theta, jack, 0.1)
    lo_s, hi_s = _bca(reps * s, theta * s, jack * s, 0.1)
    assert (lo_s[0], hi_s[0]) == (lo[0] * s, hi[0] * s)
    assert lo[0] < theta[0] < hi[0]


def test_replicate_means_over_every_resample_of_three_problems():
    # brute force over all 3^3 = 27 ordered resamples of 3 problems (each a multiplicity vector): a replicate is the
    # weighted mean sum m_i w_i s_i / sum m_i w_i over the drawn problems with a score; problem 2 has none at the
    # second k (n < k: NaN, left out), so a resample of problem 2 alone has no mean there (NaN). Exact rationals
    s = [[Fraction(1, 5), Fraction(1, 2)], [Fraction(3, 5), Fraction(1)], [Fraction(1), None]]
    w = [Fraction(1), Fraction(3), Fraction(2)]
    draws = [np.bincount(t, minlength=3) for t in itertools.product(range(3), repeat=3)]
    ref = []
    for m in draws:
        row = []
        for j in range(2):
            num = sum((int(m[i]) * w[i] * s[i][j] for i in range(3) if s[i][j] is not None), Fraction(0))
            den = sum((int(m[i]) * w[i] for i in range(3) if s[i][j] is not None), Fraction(0))
            row.append(float(num / den) if den else np.nan)
        ref.append(row)
    S = np.array([[float(x) if x is not None else np.nan for x in r] for r in s])
    M = np.array(draws, dtype=float)
    out = _replicate_means(S, np.array([1.0, 3.0, 2.0]), 27, 3, lambda b: M[:b])
    np.testing.assert_allclose(out, ref, rtol=1e-14)
    assert np.isnan(out[-1, 1]) and out[-1, 0] == 1.0  # the resample (2, 2, 2)


def test_clustered_bootstrap_over_many_problems_and_a_k_some_problems_miss():
    # 2500 problems, each its own cluster (so no shortcut over distinct rows), 1000 replicates: more problems x
    # replicates than one block of draws holds. Every problem with n = 4 (a fifth of them) has no pass@8 and is left
    # out there; the bootstrap interval of each k must be finite and, on this many problems, as wide as the
    # analytic t interval on the same problems (Miller's SE; 8% ~ the Monte Carlo error of 1000 replicates)
    rng = np.random.default_rng(21)
    N = 2500
    n = np.where(np.arange(N) % 5 == 0, 4, 10)
    c = rng.binomial(n, rng.beta(0.7, 1.5, N))
    cnt = Counts.from_arrays(n, c, cluster=np.arange(N))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # problems with n < k left out at k = 8: said, not the point here
        a = curve_intervals(cnt, [1, 8], metric="pass_at_k", method="analytic", k_gt_n="drop")
        b = curve_intervals(cnt, [1, 8], metric="pass_at_k", method="bootstrap", n_resamples=1000, rng=2,
                            k_gt_n="drop")
    assert b.problems[0].tolist() == [N, N - N // 5]
    wa = a.intervals["pass_at_k"][1] - a.intervals["pass_at_k"][0]
    wb = b.intervals["pass_at_k"][1] - b.intervals["pass_at_k"][0]
    assert np.isfinite(wb).all()
    np.testing.assert_allclose(wb, wa, rtol=0.08)


@pytest.mark.parametrize(("metric", "c20"), [("pass_at_k", [5] * 3 + [20] * 17), ("pass_pow_k", [12] * 3 + [3] * 17)])
def test_few_problems_counts_only_the_problems_that_reach_k(metric, c20):
    # 180 problems of n = 5 (2 correct) and 20 of n = 20: at k = 10 only the 20 enter the mean (k_gt_n="drop"), and 3
    # of them carry it: pass@10 = 1 - C(15, 10)/C(20, 10) = 0.9837 on 3 beside 1 on 17 (the shortfall from 1 rests on
    # 3 problems: effective number (sum (1 - s))^2 / sum (1 - s)^2 = 3), or pass^10 = C(12, 10)/C(20, 10) = 3.6e-4 on
    # 3 beside 0 on 17 (the same, of s). The problems without a pass@10 are not in the mean, so they are not in that
    # count either; at k = 1 all 200 problems carry it
    n = [5] * 180 + [20] * 20
    cnt = Counts.from_arrays(n, [2] * 180 + c20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # problems left out at k = 10, and the few-problem warning: said
        res = curve_intervals(cnt, [1, 10], metric=metric, method="analytic", k_gt_n="drop")
    assert res.problems[0].tolist() == [200, 20]
    assert res.few_problems[metric][0].tolist() == [False, True]


@pytest.mark.parametrize("solved", [9, 10])
def test_fewer_than_ten_problems_means_nine_not_ten(solved, recwarn):
    # "fewer than 10 problems": 9 or 10 of 100 problems solved every time, the rest never. The effective number of
    # problems carrying the mean, (sum s)^2 / sum s^2, is exactly the number solved, so 9 is the rare-event regime
    # (the Wilson bound, and the warning) and 10 is not; the same for the shortfall from 1 with the roles swapped
    for c_hit, c_miss in ((5, 0), (0, 5)):
        c = [c_hit] * solved + [c_miss] * (100 - solved)
        res = curve_intervals(Counts.from_arrays([5] * 100, c), [1], metric="pass_at_k", method="analytic")
        assert res.few_problems["pass_at_k"][0, 0] == (solved == 9)
        assert any("rests on fewer than 10 problems" in w for w in res.warnings) == (solved == 9)


def test_analytic_interval_on_two_problems_uses_one_degree_of_freedom():
    # the smallest benchmark with an interval: pass@1 of 3/10 and 6/10, mean 0.45, SE^2 = (0.15^2 * 2)/(2 * 1) =
    # 0.0225 (Miller), so N_eff = 0.45 * 0.55 / 0.0225 = 11 > 2: capped at the 2 problems (few problems carry it), and
    # the Korn & Graubard Wilson-t interval on 2 with t_{0.975, 1} = 12.706
    with pytest.warns(DegenerateDataWarning):
        res = curve_intervals(Counts.from_arrays([10, 10], [3, 6]), [1], metric="pass_at_k", method="analytic")
    lo, hi = res.intervals["pass_at_k"]
    assert (lo[0, 0], hi[0, 0]) == pytest.approx(_wilson_t(0.45, 2, 1), rel=1e-12)


def test_two_level_interval_is_the_replicates_percentiles_recentred_at_the_estimate():
    # "the interval is the bootstrap distribution re-centred at the estimate" (module docs): the 2.5% and 97.5%
    # quantiles of the two-level replicate means, each moved by (estimate - mean of the replicates). Reference: the
    # same replicates (_two_level_means from the same seed), numpy's quantiles, the shift written out
    rng = np.random.default_rng(13)
    N, n = 200, 4
    c = rng.binomial(n, rng.beta(0.8, 1.5, N))
    nn, ks = np.full(N, n), np.array([1, 3])
    S = _scores(nn, c, ks, "pass_at_k", None)
    est, lo, hi, _ = _interval_from_scores(S, np.ones(N), None, N, "two-level", 0.05, 3000, np.random.default_rng(2),
                                           two_level=(nn, c, ks, "pass_at_k", None))
    reps = _two_level_means(nn, c, np.ones(N), ks, "pass_at_k", None, 3000, np.random.default_rng(2))
    shift = S.mean(axis=0) - reps.mean(axis=0)
    assert np.abs(shift).max() > 1e-3  # the shrunk replicates are not centred at the estimate
    np.testing.assert_allclose(lo, np.quantile(reps, 0.025, axis=0) + shift, rtol=1e-12)
    np.testing.assert_allclose(hi, np.quantile(reps, 0.975, axis=0) + shift, rtol=1e-12)
    assert not _rare(S).any()


def test_bca_jackknife_leaves_out_only_the_problems_with_a_score():
    # BCa where some problems have no score at the larger k (n < k, NaN): the acceleration comes from the
    # leave-one-out means of the problems that have one; leaving out a problem without a score leaves the mean as it
    # is. Reference: those leave-one-out means by explicit loop, the same replicates (_boot_means, same seed), and
    # _bca (itself checked against Efron & Tibshirani's formula above)
    rng = np.random.default_rng(17)
    N = 150
    n = np.where(np.arange(N) % 3 == 0, 3, 12)
    c = rng.binomial(n, rng.beta(0.5, 1.5, N))
    ks = np.array([1, 6])
    S = _scores(n, c, ks, "pass_at_k", None)
    w = np.ones(N)
    _, lo, hi, _ = _interval_from_scores(S, w, None, N, "bca", 0.05, 2000, np.random.default_rng(4))
    reps = _boot_means(S, w, np.arange(N), N, 2000, np.random.default_rng(4))
    jack = np.empty((N, 2))
    for j in range(2):
        col = S[:, j]
        for i in range(N):
            keep = np.isfinite(col) & (np.arange(N) != i)
            jack[i, j] = col[keep].mean()
    ref_lo, ref_hi = _bca(reps, np.nanmean(S, axis=0), jack, 0.05)
    assert np.isnan(S[:, 1]).sum() == 50 and not _rare(S).any()
    np.testing.assert_allclose(lo, ref_lo, rtol=1e-12)
    np.testing.assert_allclose(hi, ref_hi, rtol=1e-12)


def test_analytic_interval_when_every_problem_has_the_same_score_or_two_opposite_ones():
    # 20 problems all at 5/10: the mean is 0.5 with SE 0, yet the population mean is not known exactly: the
    # interval is the Korn & Graubard Wilson-t on the 20 problems (N_eff = N when the SE is 0), df 19. Two problems
    # at 0/10 and 10/10: mean 0.5 and Miller's SE^2 = (0.5^2 + 0.5^2)/(2 * 1) = 0.25, so N_eff = 0.25/0.25 = 1, df 1
    res = curve_intervals(Counts.from_arrays([10] * 20, [5] * 20), [1], metric="pass_at_k", method="analytic")
    lo, hi = res.intervals["pass_at_k"]
    assert (lo[0, 0], hi[0, 0]) == pytest.approx(_wilson_t(0.5, 20, 19), rel=1e-12)
    with pytest.warns(DegenerateDataWarning):
        res = curve_intervals(Counts.from_arrays([10, 10], [0, 10]), [1], metric="pass_at_k", method="analytic")
    lo, hi = res.intervals["pass_at_k"]
    assert (lo[0, 0], hi[0, 0]) == pytest.approx(_wilson_t(0.5, 1, 1), rel=1e-12)


def test_band_reaching_below_zero_ends_at_zero():
    # 3 of 100 problems solved every time: pass@1 = 0.03, and the band's lower end 0.03 - q * se (se ~ 0.017, q ~ 2)
    # is below 0, so the interval starts at 0, the least a mean of scores in [0, 1] can be (the rare-event Wilson
    # bound, used as 3 problems carry the mean, only widens an interval: its lower end here is above 0)
    cnt = Counts.from_arrays([4] * 100, [4] * 3 + [0] * 97)
    with pytest.warns(DegenerateDataWarning):
        res = curve_intervals(cnt, [1, 2], metric="pass_at_k", method="band", n_resamples=500, rng=0)
    lo, hi = res.intervals["pass_at_k"]
    assert _wilson_t(0.03, 100, 99)[0] > 0.005  # Korn & Graubard's closed form (the file's helper)
    assert lo[0].tolist() == [0.0, 0.0] and (hi[0] > 0.03).all()


def test_default_grid_adds_each_models_own_end_only_under_nan() -> None:
    # curve_intervals' default k: about 20 log-spaced budgets from 1 to the top n of the policy (its docstring); under
    # "nan" each model's smallest n is added, so every model's curve ends on the grid at its own range's end
    # (passcurve.curve's k_gt_n="nan"); under "raise" and "drop" nothing is added (under "raise" a model's smallest
    # n above the smallest n overall is beyond the grid)
    cnt = Counts.from_arrays([7, 9, 50, 60], [3, 4, 20, 30], model=["a", "a", "b", "b"])

    def log_grid(top: int) -> list[int]:
        return np.unique(np.round(np.geomspace(1, top, 20)).astype(np.int64)).tolist()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for policy, top, extra in (("raise", 7, []), ("drop", 60, []), ("nan", 50, [7, 50])):
            res = curve_intervals(cnt, k_gt_n=policy, method="analytic")
            assert res.k.tolist() == sorted(set(log_grid(top)) | set(extra)), policy
    assert 7 not in log_grid(50) and 50 not in log_grid(60)  # the ends are not on the plain grids
