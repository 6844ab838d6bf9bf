"""Whole curves over problems (passcurve._curves) and the Counts contract (passcurve._counts)."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import passcurve as pc
from passcurve import Counts, DroppedProblemsWarning, PasscurveError
from passcurve._curves import mean_curve


def exact_mean_pass(ns, cs, k, ws=None):
    """Weighted mean over problems of 1 - C(n-c,k)/C(n,k), exactly (Chen et al. 2021)."""
    ws = ws or [1] * len(ns)
    num = sum(Fraction(w) * (1 - Fraction(math.comb(n - c, k), math.comb(n, k))) for n, c, w in zip(ns, cs, ws, strict=True))
    return num / sum(Fraction(w) for w in ws)


def exact_mean_naive(ns, cs, k, ws=None):
    """Weighted mean over problems of the plug-in 1 - (1 - c/n)^k, exactly (REFERENCE.md: it underestimates)."""
    ws = ws or [1] * len(ns)
    num = sum(Fraction(w) * (1 - Fraction(n - c, n) ** k) for n, c, w in zip(ns, cs, ws, strict=True))
    return num / sum(Fraction(w) for w in ws)


def exact_mean_pow(ns, cs, k):
    """Mean over problems of pass^k = C(c,k)/C(n,k), exactly (Yao et al. 2024)."""
    return sum(Fraction(math.comb(c, k), math.comb(n, k)) for n, c in zip(ns, cs, strict=True)) / len(ns)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.floats(0, 1)), min_size=1, max_size=25))
def test_mean_curve_equals_mean_of_per_problem_estimates(rows):
    # two independent computations: the grouped O(n)-per-distinct-(n,c) curve vs exact per-problem sums
    ns = [n for n, _ in rows]
    cs = [int(round(f * n)) for n, f in rows]
    counts = Counts.from_arrays(ns, cs)
    kmax = min(ns)
    res = pc.curve(counts, metrics=["pass_at_k", "pass_pow_k", "naive_pass_at_k"])
    assert list(res.k) == list(range(1, kmax + 1))
    for j, k in enumerate(res.k):
        ref = exact_mean_pass(ns, cs, int(k))
        assert abs(res.values["pass_at_k"][0, j] - float(ref)) <= 1e-13
        ref_pow = sum(Fraction(math.comb(c, int(k)), math.comb(n, int(k))) for n, c in zip(ns, cs, strict=True)) / len(ns)
        assert abs(res.values["pass_pow_k"][0, j] - float(ref_pow)) <= 1e-13
        # k runs up to min n, so the last k equals n for the shortest problem
        assert abs(res.values["naive_pass_at_k"][0, j] - float(exact_mean_naive(ns, cs, int(k)))) <= 1e-13


def test_naive_pass_at_k_is_the_weighted_mean_of_the_plug_in():
    # weights 1, 2, 3, 5 on n = 10, 10, 7, 12; k = 7 is n for the third problem, k = 1 the weighted mean of c/n
    ns, cs, ws = [10, 10, 7, 12], [3, 0, 5, 12], [1, 2, 3, 5]
    res = pc.curve(Counts.from_arrays(ns, cs, weight=ws), k=[1, 3, 7], metrics=["naive_pass_at_k"])
    for j, k in enumerate([1, 3, 7]):
        assert res.values["naive_pass_at_k"][0, j] == pytest.approx(float(exact_mean_naive(ns, cs, k, ws)), rel=1e-14)
    assert res.values["naive_pass_at_k"][0, 0] == pytest.approx((0.3 + 0 + 3 * 5 / 7 + 5) / 11, rel=1e-14)


def test_weights_and_models():
    counts = Counts.from_arrays(
        [10, 10, 10, 20],
        [3, 0, 10, 5],
        problem=["a", "b", "c", "a"],
        model=["m1", "m1", "m1", "m2"],
        weight=[1, 2, 3, 1],
    )
    res = pc.curve(counts, k=[1, 5])
    assert res.models == ("m1", "m2")
    # weighted mean, exact: (1*0.3 + 2*0 + 3*1) / 6 at k=1
    assert res.values["pass_at_k"][0, 0] == pytest.approx(float(exact_mean_pass([10, 10, 10], [3, 0, 10], 1, [1, 2, 3])), rel=1e-14)
    assert res.values["pass_at_k"][1, 1] == pytest.approx(float(exact_mean_pass([20], [5], 5)), rel=1e-14)
    unweighted = pc.curve(counts, k=[1], weighted=False)
    assert unweighted.values["pass_at_k"][0, 0] == pytest.approx((0.3 + 0 + 1) / 3, rel=1e-14)


def test_k_gt_n_raises_by_default_and_drop_reports():
    counts = Counts.from_arrays([5, 50, 50], [1, 10, 0])
    with pytest.raises(ValueError, match=r"got k=10, n=5"):
        pc.curve(counts, k=[1, 10])
    with pytest.warns(DroppedProblemsWarning, match=r"left out of the mean \(from k=10; up to 1 of 3 problems at k=10\)"):
        res = pc.curve(counts, k=[1, 10], k_gt_n="drop")
    assert res.dropped[0].tolist() == [0, 1]
    assert res.problems[0].tolist() == [3, 2]
    # at k=10 the mean is over the two problems with n >= 10 only; never counts n<k as solved
    assert res.values["pass_at_k"][0, 1] == pytest.approx(float(exact_mean_pass([50, 50], [10, 0], 10)), rel=1e-14)
    assert res.to_dict()["models"][0]["curve"][1]["dropped"] == 1


def test_k_gt_n_nan_runs_each_model_to_its_own_smallest_n():
    # model x: n = 5 and 50 (smallest 5); model y: n = 40 everywhere
    counts = Counts.from_arrays([5, 50, 40, 40], [1, 10, 3, 0], model=["x", "x", "y", "y"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DroppedProblemsWarning: no mean over a subset of a model's problems
        res = pc.curve(counts, k_gt_n="nan")
    assert res.k.tolist() == list(range(1, 41))  # the largest of the models' smallest n
    x, y = res.models.index("x"), res.models.index("y")
    # x is estimated where both its problems reach k, exactly (rational arithmetic), and NaN beyond its n = 5
    for k in (1, 5):
        assert res.values["pass_at_k"][x, k - 1] == pytest.approx(float(exact_mean_pass([5, 50], [1, 10], k)), rel=1e-14)
    assert np.isnan(res.values["pass_at_k"][x, 5:]).all() and np.isnan(res.values["pass_pow_k"][x, 5:]).all()
    assert res.problems[x, :5].tolist() == [2] * 5 and (res.problems[x, 5:] == 0).all()
    assert (res.dropped[x, 5:] == 2).all()
    # y is exactly what it is alone
    alone = pc.curve(counts.select_models(["y"]))
    for m in pc.METRICS:
        np.testing.assert_array_equal(res.values[m][y], alone.values[m][0])
    # explicit k: the same rule, no error
    at = pc.curve(counts, k=[5, 6, 40], k_gt_n="nan")
    assert np.isnan(at.values["pass_at_k"][x, 1:]).all() and np.isfinite(at.values["pass_at_k"][y]).all()
    with pytest.raises(PasscurveError, match=r'`k_gt_n` must be "raise", "drop" or "nan"'):
        pc.curve(counts, k_gt_n="skip")


def test_k_gt_n_nan_with_every_asked_k_beyond_a_model_gives_it_nan():
    # model x (n = 5 and 50) reaches none of k = 6, 40: it is NaN throughout (curve raised "`ks` is empty",
    # naming an internal argument, where curve_intervals gave NaN)
    counts = Counts.from_arrays([5, 50, 40, 40], [1, 10, 3, 0], model=["x", "x", "y", "y"])
    res = pc.curve(counts, k=[6, 40], k_gt_n="nan")
    x, y = res.models.index("x"), res.models.index("y")
    for m in pc.METRICS:
        assert np.isnan(res.values[m][x]).all()
        np.testing.assert_array_equal(res.values[m][y], pc.curve(counts.select_models(["y"]), k=[6, 40]).values[m][0])
    assert res.problems[x].tolist() == [0, 0] and res.dropped[x].tolist() == [2, 2]
    ci = pc.curve_intervals(counts, k=[6, 40], k_gt_n="nan", method="analytic")
    np.testing.assert_array_equal(np.isnan(ci.values["pass_at_k"]), np.isnan(res.values["pass_at_k"]))
    # under a stop-at-success design as well
    # (no cap: y's unsolved problem stopped at 6 and says nothing about k = 8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        st = pc.curve(Counts.from_arrays([2, 4, 6, 6, 8, 8], [1, 1, 1, 0, 1, 0], model=["x", "x", "y", "y", "z", "z"]),
                      k=[7, 8], k_gt_n="nan", design=pc.StopAtSuccess(2))
    assert st.values["pass_at_k"][0].tolist() == [1.0, 1.0] and np.isnan(st.values["pass_at_k"][1]).all()
    assert st.values["pass_at_k"][2].tolist() == pytest.approx([0.25, 0.5])


def test_all_k_range():
    counts = Counts.from_arrays([5, 8], [1, 2])
    assert pc.curve(counts).k.tolist() == [1, 2, 3, 4, 5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DroppedProblemsWarning)
        assert pc.curve(counts, k_gt_n="drop").k.tolist() == list(range(1, 9))


def test_to_dict_is_json_and_shaped_as_documented():
    counts = pc.simulate(problems=20, n=30, rng=3).counts
    d = pc.curve(counts, k=[1, 10]).to_dict()
    text = json.dumps(d)
    back = json.loads(text)
    m = back["models"][0]
    assert set(m) >= {"model", "problems", "curve", "n_min", "n_median", "n_max"}
    assert set(m["curve"][0]) >= {"k", "pass_at_k", "pass_pow_k", "naive_pass_at_k"}
    assert len(back["models"]) == len(pc.DEMO_MODELS)
    # values: every model's points are its exact means over its 20 problems (rational arithmetic)
    for mod in back["models"]:
        sub = counts.select(mod["model"])
        ns, cs = sub.n.tolist(), sub.c.tolist()
        assert mod["problems"] == 20
        for pt in mod["curve"]:
            k = pt["k"]
            assert pt["pass_at_k"] == pytest.approx(float(exact_mean_pass(ns, cs, k)), rel=1e-13, abs=1e-15)
            assert pt["pass_pow_k"] == pytest.approx(float(exact_mean_pow(ns, cs, k)), rel=1e-13, abs=1e-15)
            assert pt["naive_pass_at_k"] == pytest.approx(float(exact_mean_naive(ns, cs, k)), rel=1e-13, abs=1e-15)


def test_to_frame_and_plot():
    counts = pc.simulate(problems=10, n=20, rng=1).counts
    res = pc.curve(counts, k=[1, 2, 20])
    df = res.to_frame()
    assert len(df) == 3 * len(res.models)
    # one row per (model, k), holding that model's exact means (k = 20 = n: pass@n is the share of problems solved)
    for row in df.itertuples():
        sub = counts.select(row.model)
        ns, cs = sub.n.tolist(), sub.c.tolist()
        assert row.pass_at_k == pytest.approx(float(exact_mean_pass(ns, cs, row.k)), rel=1e-13, abs=1e-15)
        assert row.naive_pass_at_k == pytest.approx(float(exact_mean_naive(ns, cs, row.k)), rel=1e-13, abs=1e-15)
        assert row.pass_pow_k == pytest.approx(float(exact_mean_pow(ns, cs, row.k)), rel=1e-13, abs=1e-15)
        if row.k == 20:
            assert row.pass_at_k == pytest.approx(np.mean(sub.c > 0), abs=1e-15)
    fig = res.plot()
    assert len(fig.data) == len(res.models)
    for tr, m in zip(fig.data, res.models, strict=True):  # each trace is its model's pass@k curve
        np.testing.assert_allclose(np.asarray(tr.y, dtype=float), res.values["pass_at_k"][res.models.index(m)])


def test_plot_draws_the_metric_the_result_holds():
    counts = Counts.from_arrays([10, 10, 10], [1, 5, 0])
    pow_only = pc.curve(counts, [1, 2], metrics=["pass_pow_k"])
    np.testing.assert_allclose(np.asarray(pow_only.plot().data[0].y, dtype=float), pow_only.values["pass_pow_k"][0])
    with pytest.warns(pc.DegenerateDataWarning, match="fewer than 10 problems"):
        g = pc.curve_intervals(counts, [1, 2], metric="g_pass_at_k", tau=0.5, n_resamples=100, rng=0)
    np.testing.assert_allclose(np.asarray(g.plot().data[-1].y, dtype=float), g.values["g_pass_at_k"][0])
    with pytest.raises(PasscurveError, match=r"`metric` must be a metric the result holds: pass_pow_k \(got 'pass_at_k'\)"):
        pow_only.plot("pass_at_k")
    with pytest.raises(PasscurveError, match=r"`metric` must be .* \(got 'bogus'\)"):
        pc.curve(counts, [1]).plot("bogus")


def test_curve_rejects_non_counts():
    with pytest.raises(PasscurveError, match="`counts` must be a passcurve.Counts"):
        pc.curve([1, 2, 3])


def test_counts_validation():
    with pytest.raises(PasscurveError, match="duplicate problem 'a'"):
        Counts.from_arrays([3, 3], [1, 1], problem=["a", "a"])
    with pytest.raises(PasscurveError, match=r"`c` must be <= n \(got c=4, n=3\)"):
        Counts.from_arrays([3], [4])
    with pytest.raises(PasscurveError, match="`n` has 2 entries but `c` has 1"):
        Counts.from_arrays([3, 4], [1])
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'zz'\); models present: a$"):
        Counts.from_arrays([3], [1], model="a").select("zz")


def test_simulated_truth_close_to_estimate():
    # the unbiased estimate over 2000 simulated problems lands near the drawn problems' true pass_D@k
    b = pc.simulate(problems=2000, n=200, rng=11)
    res = pc.curve(b.counts, k=[1, 10, 100])
    truth = b.true_pass_at_k([1, 10, 100])
    for i, m in enumerate(res.models):
        np.testing.assert_allclose(res.values["pass_at_k"][i], truth[m], atol=0.01)


def test_simulator_samples_aggregate_back_to_counts():
    b = pc.simulate(problems=15, n=12, rng=5)
    s = b.samples(rng=5)
    key = np.char.add(s["model"].astype(str), s["problem_id"].astype(str))
    for i in range(len(b.counts)):
        mask = key == b.counts.model[i] + b.counts.problem[i]
        assert mask.sum() == b.counts.n[i]
        assert s["correct"][mask].sum() == b.counts.c[i]
        assert sorted(s["attempt"][mask]) == list(range(1, b.counts.n[i] + 1))


def test_simulator_int_seed_is_default_rng_and_is_recorded():
    """The convention (check_rng): an int seed is np.random.default_rng(seed); the seed is recorded when it is
    an integer, numpy's too. samples(rng=None) reuses the benchmark's seed (its documented exception)."""
    by_int = pc.simulate(problems=8, n=6, rng=np.int64(7))
    by_gen = pc.simulate(problems=8, n=6, rng=np.random.default_rng(7))
    np.testing.assert_array_equal(by_int.counts.c, by_gen.counts.c)
    assert by_int.seed == 7 and by_gen.seed is None and by_int.counts.meta["seed"] == 7
    one, two = by_int.samples(rng=3), by_int.samples(rng=np.random.default_rng(3))
    again = by_int.samples()
    for key in ("model", "problem_id", "attempt", "correct"):
        np.testing.assert_array_equal(one[key], two[key])
        np.testing.assert_array_equal(again[key], by_int.samples(rng=7)[key])


def test_simulator_reproducible_and_model_truth():
    a = pc.simulate(problems=50, n=10, rng=7)
    b = pc.simulate(problems=50, n=10, rng=7)
    assert (a.counts.c == b.counts.c).all()
    spec = pc.ModelSpec("x", alpha=0.3, beta=3.0)
    # ../shared/REFERENCE.md: Beta(0.3, 3) exact E[(1-p)^1e4] = 0.0846500
    assert 1 - spec.true_pass_at_k(10**4) == pytest.approx(0.0846500, abs=5e-7)


def test_pass_pow_k_curve_short_products_to_the_last_digit():
    # exp of the log-sum kept the log's rounding (~|ln F|·2^-53): curve()'s pass^1 of a problem with c/n = 1/10
    # was 0.10000000000000002, of 1/10^4 1.0000000000000009e-04, and pass^27 of (309323, 25984) 6.4e-15 off
    # relative; for k <= 32 it is now the plain product pass_pow_k gives, against exact rationals
    for n, c, k, exact in [(10, 1, 1, Fraction(1, 10)), (10**4, 1, 1, Fraction(1, 10**4)),
                           (10**6, 3, 2, Fraction(6, 10**6 * (10**6 - 1))),
                           (309_323, 25_984, 27, Fraction(math.comb(25_984, 27), math.comb(309_323, 27)))]:
        got = mean_curve(np.array([n]), np.array([c]), np.array([k]), "pass_pow_k")[0][0]
        assert got == pc.pass_pow_k(n, c, k)
        assert abs(Fraction(got) - exact) <= exact * 2 * k * Fraction(2.0**-53)
    res = pc.curve(pc.Counts.from_arrays([10, 10**4], [1, 1], model=["a", "b"]), k=[1], k_gt_n="nan")
    assert res.values["pass_pow_k"][:, 0].tolist() == [0.1, 1e-4]


def test_mean_curve_at_k_one_is_one_number_for_every_metric():
    # pass@1, pass^1 and the plug-in at k = 1 are each the mean share of samples correct, (1/P) sum c_i/n_i; the
    # three paths rounded and summed their own way, an ulp apart in 168 of 300 random benchmarks. This one (found by
    # search) gave 0.26032608695652176 / 0.2603260869565217 / 0.26032608695652176; exact mean 479/1840 by Fraction
    from passcurve._curves import mean_curve

    n, c = np.array([40, 2, 40, 23]), np.array([11, 0, 15, 9])
    exact = sum((Fraction(int(a), int(b)) for a, b in zip(c, n, strict=True)), Fraction(0)) / 4
    for ks in (np.array([1]), np.array([10, 1, 2])):
        at1 = [mean_curve(n, c, ks, m)[0][list(ks).index(1)] for m in ("pass_at_k", "pass_pow_k", "naive_pass_at_k")]
        assert at1[0] == at1[1] == at1[2]
        assert abs(Fraction(at1[0]) - exact) <= exact * Fraction(1, 2**51)
    res = pc.curve(pc.Counts.from_arrays(n, c), k=[1, 2])
    d = res.to_dict()["models"][0]["curve"][0]
    assert d["k"] == 1 and d["pass_at_k"] == d["pass_pow_k"] == d["naive_pass_at_k"] == at1[0]


def _g_pass_exact(n: int, c: int, k: int, tau: float) -> Fraction:
    # G-pass@k_tau = P(at least m = max(ceil(tau k), 1) of k draws without replacement are correct): the
    # hypergeometric tail in exact rationals (Liu et al. 2024, arXiv:2412.13147, eq. 3)
    m = max(math.ceil(Fraction(tau).limit_denominator(10**6) * k), 1)
    return sum((Fraction(math.comb(c, j) * math.comb(n - c, k - j), math.comb(n, k)) for j in range(m, min(c, k) + 1)),
               Fraction(0))


def test_curve_g_pass_and_mg_pass_are_weighted_means_of_the_exact_per_problem_values():
    # three problems of unequal n and weights: each point is sum_i w_i g_i / sum_i w_i, the g_i in exact rationals;
    # mG-pass@k = (2/k) * sum_{i = ceil(k/2)+1}^{k} G-pass@k_{i/k} (Liu et al. 2024, eq. 4), 0 at k = 1
    n, c, w = [12, 12, 20], [5, 9, 3], [1.0, 2.0, 0.5]
    cnt = Counts.from_arrays(n, c, problem=["a", "b", "c"], weight=w)
    ks = [1, 2, 5, 12]
    res = pc.curve(cnt, ks, metrics=["g_pass_at_k", "mg_pass_at_k", "pass_at_k"], tau=0.5)
    assert res.tau == 0.5 and res.to_dict()["tau"] == 0.5
    wf = [Fraction(x) for x in w]
    for j, k in enumerate(ks):
        g = sum(wi * _g_pass_exact(ni, ci, k, 0.5) for wi, ni, ci in zip(wf, n, c, strict=True)) / sum(wf)
        assert res.values["g_pass_at_k"][0, j] == pytest.approx(float(g), rel=1e-14, abs=1e-16)

        def mg(ni: int, ci: int, k: int = k) -> Fraction:
            top = range(math.ceil(Fraction(k, 2)) + 1, k + 1)
            return Fraction(2, k) * sum((_g_pass_exact(ni, ci, k, i / k) for i in top), Fraction(0))

        m = sum(wi * mg(ni, ci) for wi, ni, ci in zip(wf, n, c, strict=True)) / sum(wf)
        assert res.values["mg_pass_at_k"][0, j] == pytest.approx(float(m), rel=1e-13, abs=1e-16)
    assert res.values["mg_pass_at_k"][0, 0] == 0.0  # an empty sum at k = 1
    # tau = 1 is pass^k, and G-pass@1 is pass@1 (c/n) whatever tau
    one = pc.curve(cnt, ks, metrics=["g_pass_at_k", "pass_pow_k"], tau=1.0)
    np.testing.assert_allclose(one.values["g_pass_at_k"], one.values["pass_pow_k"], rtol=1e-14)
    assert res.values["g_pass_at_k"][0, 0] == res.values["pass_at_k"][0, 0]


def test_curve_tau_goes_with_g_pass_only():
    cnt = Counts.from_arrays([10, 10], [3, 7])
    with pytest.raises(PasscurveError, match=r"`tau` is required for metric g_pass_at_k"):
        pc.curve(cnt, [1, 2], metrics=["g_pass_at_k"])
    with pytest.raises(PasscurveError, match=r"tau"):
        pc.curve(cnt, [1, 2], tau=0.5)  # the default metrics have no threshold
    with pytest.raises(PasscurveError, match=r"`tau`"):
        pc.curve(cnt, [1, 2], metrics=["g_pass_at_k"], tau=1.5)
    with pytest.raises(PasscurveError, match=r"`tau` is required"):
        mean_curve([10], [3], [1], "g_pass_at_k")


def test_k_is_sorted_and_deduplicated_and_values_follow_result_k():
    # documented (API review: a user zipping their own k list with the values would pair them wrongly): the result's
    # k is sorted with repeats removed, and each value is the estimator's at that k (closed form: the mean of the
    # per-problem unbiased pass@k)
    import passcurve as pc

    cnt = pc.Counts.from_arrays([30, 30, 30], [5, 0, 30])
    res = pc.curve(cnt, k=[20, 5, 1, 5])
    assert res.k.tolist() == [1, 5, 20]
    want = [float(np.mean(pc.pass_at_k(cnt.n, cnt.c, kk))) for kk in (1, 5, 20)]
    np.testing.assert_allclose(res.values["pass_at_k"][0], want, rtol=1e-15)


def test_last_index_unknown_metric_names_the_metrics() -> None:
    import pytest

    import passcurve as pc
    r = pc.curve(pc.Counts.from_arrays([10, 20], [1, 2]), k=[1, 5])
    for bad in ("nope", ["pass_at_k"]):
        with pytest.raises(pc.PasscurveError, match=r"`metric` must be one of .*'pass_at_k'"):
            r.last_index(metric=bad)
    assert list(r.last_index()) == [1]


def test_interval_columns_are_the_documented_ones():
    # CurveResult.to_frame's docstring names every column: pass@k's interval is low/high (as forecast, bounds and
    # backtest records name their pass@k interval), another metric's is <metric>_low/_high (as RankResult's
    # rank_low/rank_high); a single non-pass@k metric keeps its prefix, so a column's name never depends on
    # which other metrics were asked for
    cnt = pc.Counts.from_arrays([10, 10, 4], [3, 7, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = pc.curve_intervals(cnt, [1, 8], k_gt_n="drop")
        pow_only = pc.curve_intervals(cnt, [1], metric="pass_pow_k")
    assert list(both.to_frame().columns) == [
        "model", "k", "pass_at_k", "low", "high", "few_problems", "pass_pow_k", "pass_pow_k_low", "pass_pow_k_high",
        "pass_pow_k_few_problems", "problems", "dropped"]
    assert list(pow_only.to_frame().columns) == ["model", "k", "pass_pow_k", "pass_pow_k_low", "pass_pow_k_high",
                                                 "pass_pow_k_few_problems", "problems"]
    row = both.to_frame().iloc[1]  # k = 8: the problem with n = 4 is dropped, two remain
    assert (row["problems"], row["dropped"]) == (2, 1)
    lo, hi = both.intervals["pass_at_k"]
    assert (row["low"], row["high"]) == (lo[0, 1], hi[0, 1])


def test_the_default_k_of_a_huge_n_asks_for_k():
    # curve(counts) runs every k from 1 to n: at n = 10^9 numpy was asked for 7.5 GB per array and the process was
    # killed for memory (helper-118's fuzzing; at 10^12 numpy's MemoryError). Beyond MAX_GRID = 10^6 budgets the
    # default is the one-line error, and a given k still runs (pass@1 = c/n = 0.1 exactly)
    c = Counts.from_arrays([10**12, 10**12], [10**11, 10**11])
    for policy in ("raise", "drop", "nan"):
        with pytest.raises(PasscurveError, match=r"^`k` is needed for n this large: the default, every k from 1 to "
                                                 r"1000000000000, is 1e\+12 budgets \(max 1e\+06\); give `k`"):
            pc.curve(c, k_gt_n=policy)
    assert pc.curve(c, k=[1]).values["pass_at_k"][0, 0] == pytest.approx(0.1, rel=1e-12)


def test_last_index_is_where_each_models_own_range_ends() -> None:
    # k_gt_n="nan" runs each model to its own smallest n (x: 5, y: 40, z: 2); last_index is the index into k of the
    # last finite value, and the last index for a model with no value at all (documented in CurveResult.last_index)
    counts = Counts.from_arrays([5, 50, 40, 40, 2], [1, 10, 3, 0, 1], model=["x", "x", "y", "y", "z"])
    res = pc.curve(counts, k=[1, 3, 5, 6, 40], k_gt_n="nan")
    want = {"x": 2, "y": 4, "z": 0}  # k = 5, 40, 1
    assert dict(zip(res.models, res.last_index().tolist(), strict=True)) == want
    assert dict(zip(res.models, res.last_index("pass_pow_k").tolist(), strict=True)) == want
    none = pc.curve(counts, k=[6, 40], k_gt_n="nan")  # x and z reach neither k: no value at all
    assert dict(zip(none.models, none.last_index().tolist(), strict=True)) == {"x": 1, "y": 1, "z": 1}
    assert np.isnan(none.values["pass_at_k"][none.models.index("z")]).all()


def test_every_metric_leaves_out_problems_with_n_below_k_on_a_grid_without_k_one():
    # k_gt_n="drop": at each k the weighted mean over the problems with n >= k only, each value in exact rationals
    # (pass@k: Chen et al. 2021; pass^k = C(c,k)/C(n,k): Yao et al. 2024; the plug-in 1 - (1 - c/n)^k; G-pass@k and
    # mG-pass@k: Liu et al. 2024, eqs. 3-4). No k = 1 in the grid: nothing there is overwritten by the shared c/n
    n, c, w = [12, 12, 20], [5, 9, 3], [1.0, 2.0, 0.5]
    cnt = Counts.from_arrays(n, c, problem=["a", "b", "c"], weight=w)
    ks = [2, 5, 12, 20]
    with pytest.warns(DroppedProblemsWarning, match=r"^model 'arrays': problems with n < k were left out of the mean "
                                                   r"\(from k=20; up to 2 of 3 problems at k=20\)$"):
        res = pc.curve(cnt, ks, k_gt_n="drop", metrics=pc.CURVE_METRICS, tau=0.5)
    assert res.problems[0].tolist() == [3, 3, 3, 1] and res.dropped[0].tolist() == [0, 0, 0, 2]

    def mg(ni: int, ci: int, k: int) -> Fraction:
        return Fraction(2, k) * sum((_g_pass_exact(ni, ci, k, i / k) for i in range(math.ceil(Fraction(k, 2)) + 1, k + 1)),
                                    Fraction(0))

    per_problem = {
        "pass_at_k": lambda ni, ci, k: 1 - Fraction(math.comb(ni - ci, k), math.comb(ni, k)),
        "pass_pow_k": lambda ni, ci, k: Fraction(math.comb(ci, k), math.comb(ni, k)),
        "naive_pass_at_k": lambda ni, ci, k: 1 - Fraction(ni - ci, ni) ** k,
        "g_pass_at_k": lambda ni, ci, k: _g_pass_exact(ni, ci, k, 0.5),
        "mg_pass_at_k": mg,
    }
    for metric, f in per_problem.items():
        for j, k in enumerate(ks):
            kept = [(Fraction(wi), ni, ci) for wi, ni, ci in zip(w, n, c, strict=True) if ni >= k]
            ref = sum((wi * f(ni, ci, k) for wi, ni, ci in kept), Fraction(0)) / sum(wi for wi, _, _ in kept)
            assert res.values[metric][0, j] == pytest.approx(float(ref), rel=1e-13, abs=1e-16), (metric, k)


def test_mean_over_every_c_of_one_n_is_the_hockey_stick_closed_form():
    # One problem for each c = 0..n at n = 2100 (2101 distinct pairs, every k up to n: more than one block of the
    # cumulative sums). By the hockey-stick identity sum_{c=0}^{n} C(n-c, k) = sum_{c=0}^{n} C(c, k) = C(n+1, k+1),
    # the mean of C(n-c,k)/C(n,k) over c is C(n+1,k+1)/((n+1) C(n,k)) = 1/(k+1): pass_D@k = k/(k+1), pass^k = 1/(k+1)
    n = 2100
    ns, cs = np.full(n + 1, n), np.arange(n + 1)
    ks = np.arange(1, n + 1)
    for metric, want in (("pass_at_k", ks / (ks + 1.0)), ("pass_pow_k", 1.0 / (ks + 1.0))):
        got, wsum = mean_curve(ns, cs, ks, metric)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=metric)
        assert (wsum == n + 1).all()


def test_mean_curve_mixes_a_huge_n_on_a_sparse_grid_with_a_small_n():
    # a problem with n = 10^6 on k = 1, 1000, 10^5 (its values one by one) beside one with n = 1000 (a cumulative
    # sum); the small one is left out at k = 10^5 > n. Exact: 1 - prod_{j<3} (n-k-j)/(n-j) for c = 3 and 1 for the
    # small one at k = 1000 (k > n - c), C(n-c,k)/C(n,k) by exact rational products (Chen et al. 2021)
    ns, cs, ks = np.array([10**6, 1000]), np.array([3, 500]), np.array([1, 1000, 10**5])
    big = [1 - math.prod((Fraction(10**6 - k - j, 10**6 - j) for j in range(3)), start=Fraction(1)) for k in ks.tolist()]
    got, wsum = mean_curve(ns, cs, ks, "pass_at_k", weights=np.array([1.0, 3.0]))
    assert wsum.tolist() == [4.0, 4.0, 1.0]
    want = [(big[0] + 3 * Fraction(1, 2)) / 4, (big[1] + 3) / 4, big[2]]
    np.testing.assert_allclose(got, [float(x) for x in want], rtol=1e-13)
    pow_got = mean_curve(ns, cs, ks, "pass_pow_k")[0]
    pow_want = [Fraction(math.comb(c, k), math.comb(n, k)) for n, c in zip(ns.tolist(), cs.tolist(), strict=True)
                for k in (1000,)]
    assert pow_got[1] == pytest.approx(float(sum(pow_want) / 2), rel=1e-13, abs=1e-300)


def test_pass_pow_k_curve_on_a_grid_across_the_short_products_keeps_its_digits():
    # one grid over k <= 32 (plain products, as pass_pow_k gives them: equal to the last bit, up to k = 32 itself)
    # and beyond (log-sums of factors formed to full relative accuracy: c << n made each factor (c-j)/(n-j) ~ 3e-5
    # lose 5 digits through log1p(-(n-c)/(n-j))). Exact: C(c,k)/C(n,k) in rationals (Yao et al. 2024); beyond k = 32
    # the bound is the log-sum's own rounding, |ln F|·2^-53 (|ln F| < 600 here)
    ks = np.array([1, 2, 27, 32, 33, 40, 60])
    for n, c in [(2_422_819, 69), (309_323, 25_984)]:
        got = mean_curve(np.array([n]), np.array([c]), ks, "pass_pow_k")[0]
        for k, g in zip(ks.tolist(), got.tolist(), strict=True):
            exact = Fraction(math.comb(c, k), math.comb(n, k))
            if k <= 32:
                assert g == pc.pass_pow_k(n, c, k), (n, c, k)
                assert abs(Fraction(g) - exact) <= exact * 2 * k * Fraction(2.0**-53)
            else:
                assert abs(Fraction(g) - exact) <= exact * Fraction(1, 10**13), (n, c, k)


def test_weights_below_one_in_total_and_a_perfect_benchmark_give_the_weighted_mean_and_one():
    # weights only matter relative to each other: 0.1 and 0.2 (total 0.3 < 1) give the same mean as 1 and 2, the
    # weighted mean of the exact per-problem pass@k (Chen et al. 2021)
    n, c = np.array([10, 10]), np.array([3, 7])
    for ws in ([0.1, 0.2], [1.0, 2.0]):
        got, wsum = mean_curve(n, c, np.array([2, 5]), weights=np.array(ws))
        assert wsum == pytest.approx([sum(ws)] * 2, rel=1e-15)
        for j, k in enumerate([2, 5]):
            assert got[j] == pytest.approx(float(exact_mean_pass([10, 10], [3, 7], k, [1, 2])), rel=1e-14)
    # every problem solved (c = n): every metric is 1 at every k, exactly, whatever the weights and the n left out
    # (the weighted sums and their totals round apart: 1.0000000000000002 unclipped); mG-pass@k is floor(k/2)/(k/2)
    # by its definition (Liu et al. 2024; mg_pass_at_k's docstring)
    n = np.array([8, 6, 3, 4, 1, 1, 1])
    w = np.array([0.8132702392002724, 0.9127555772777217, 0.6066357757671799, 0.7294965609839984, 0.5436249914654229,
                  0.9350724237877682, 0.8158535541215322])
    ks = np.arange(1, 9)
    for metric in pc.CURVE_METRICS:
        got = mean_curve(n, n, ks, metric, weights=w, tau=0.5 if metric == "g_pass_at_k" else None)[0]
        if metric == "mg_pass_at_k":
            np.testing.assert_allclose(got, [(k // 2) / (k / 2) for k in ks], rtol=1e-15, atol=0)
        else:
            assert got.tolist() == [1.0] * ks.size, metric


def test_curve_under_a_stop_design_checks_k_against_the_cap():
    # StopAtSuccess(batch=5, cap=40): k = 1 is a budget like any other, k = 50 beyond the cap cannot be estimated.
    # At k = 40 >= every n the two solved problems count as solved and the one unsolved to the cap as not: 2/3
    cnt = Counts.from_arrays([5, 10, 40], [2, 1, 0])
    design = pc.StopAtSuccess(batch=5, cap=40)
    res = pc.curve(cnt, [1, 5, 40], design=design)
    assert res.design == "stop at success (batch 5, cap 40)" and np.isfinite(res.values["pass_at_k"]).all()
    assert res.values["pass_at_k"][0, 2] == pytest.approx(2 / 3, rel=1e-15)
    with pytest.raises(PasscurveError, match=r"^`k` must be <= the design's cap \(got k=50, cap=40\)$"):
        pc.curve(cnt, [1, 50], design=design)


def test_the_default_k_runs_to_an_n_of_exactly_max_grid():
    # the documented limit of the default grid: every k from 1 to n for n up to 10^6 (MAX_GRID), the error one above.
    # With c = 1, C(n-1, k)/C(n, k) = (n-k)/n, so pass@k = k/n exactly (Chen et al. 2021)
    from passcurve._validation import MAX_GRID

    assert MAX_GRID == 10**6
    res = pc.curve(Counts.from_arrays([MAX_GRID], [1]), metrics=["pass_at_k"])
    assert res.k[0] == 1 and res.k[-1] == MAX_GRID and res.k.size == MAX_GRID
    at = np.array([1, 2, 999, 123_457, MAX_GRID - 1, MAX_GRID])
    np.testing.assert_allclose(res.values["pass_at_k"][0, at - 1], at / MAX_GRID, rtol=1e-12)
    with pytest.raises(PasscurveError, match=r"^`k` is needed for n this large: the default, every k from 1 to 1000001"):
        pc.curve(Counts.from_arrays([MAX_GRID + 1], [1]), metrics=["pass_at_k"])


def test_mean_curve_is_nan_where_no_weight_enters():
    # documented: NaN where no problem has n >= k, and likewise where those that do all weigh 0 (0/0, not 0)
    for metric in pc.CURVE_METRICS:
        got, wsum = mean_curve([5, 10], [1, 2], [3, 8, 20], metric, weights=[1.0, 0.0],
                               tau=0.5 if metric == "g_pass_at_k" else None)
        assert wsum.tolist() == [1.0, 0.0, 0.0] and np.isfinite(got[0]) and np.isnan(got[1:]).all(), metric
