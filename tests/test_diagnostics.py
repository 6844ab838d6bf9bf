"""Hidden-difficulty diagnostics against the seed's widget (REFERENCE.md "Hidden difficulty")."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from passcurve import (
    Counts,
    DiagnosticsResult,
    DroppedProblemsWarning,
    PasscurveError,
    curve,
    hidden_difficulty,
)

A = B = 1.5  # the widget's "average pass rate 50%, how much questions differ 25%": Beta(1.5, 1.5)


def _beta_pass_at_k(a, b, k):
    # closed form (REFERENCE.md): pass_D@k = 1 - prod_{j<k} (b + j)/(a + b + j)
    return 1 - np.prod([(b + j) / (a + b + j) for j in range(k)])


def _beta_pass_pow_k(a, b, k):
    # E[p^k] = prod_{j<k} (a + j)/(a + b + j)
    return np.prod([(a + j) / (a + b + j) for j in range(k)])


def test_widget_closed_form_values():
    # REFERENCE.md / seed 000 widget: 50%, 25%, 31%, 63%, 99.6%, 92.6%, 99.6%
    mu = A / (A + B)
    var = A * B / ((A + B) ** 2 * (A + B + 1))
    assert mu == 0.5 and np.sqrt(var) == pytest.approx(0.25)
    assert mu**2 + var == pytest.approx(0.3125)  # P(both right) 31%
    assert (mu**2 + var) / mu == pytest.approx(0.625)  # P(2nd | 1st) 63%
    assert 1 - (1 - mu) ** 8 == pytest.approx(0.99609375)  # pass@8 if independent 99.6%
    assert round(_beta_pass_at_k(A, B, 8), 3) == 0.926  # pass@8 actually 92.6%
    assert round(_beta_pass_at_k(A, B, 64), 3) == 0.996  # pass@64 actually 99.6%
    # the product equals the Beta-function ratio 1 - B(a, b + k)/B(a, b)
    assert _beta_pass_at_k(A, B, 8) == pytest.approx(1 - np.exp(special.betaln(A, B + 8) - special.betaln(A, B)))


def test_widget_pass_at_k_through_the_library():
    # the widget's "pass@8 actually 92.6%, pass@64 actually 99.6%" computed by passcurve's Beta difficulty model
    # and by its simulator's truth, against the exact rational product 1 - prod_{j<k} (3/2 + j)/(3 + j)
    # (REFERENCE.md: pass_D@k = 1 - B(a, b + k)/B(a, b); with a = b = 3/2 every factor is rational)
    from passcurve import BetaBinomial, ModelSpec

    def exact(k):
        prod = Fraction(1)
        for j in range(k):
            prod *= (Fraction(3, 2) + j) / (3 + j)
        return 1 - prod

    assert float(exact(8)) == pytest.approx(0.9258, abs=5e-5) and float(exact(64)) == pytest.approx(0.9958, abs=5e-5)
    m = BetaBinomial()
    m._theta = np.log([A, B])
    m.params_ = m._unpack(m._theta)
    np.testing.assert_allclose(m.pass_at_k([8, 64]), [float(exact(8)), float(exact(64))], rtol=1e-13)
    spec = ModelSpec("widget", alpha=A, beta=B)
    np.testing.assert_allclose(spec.true_pass_at_k(np.array([8, 64])), [float(exact(8)), float(exact(64))], rtol=1e-13)
    # and P(both right) = E[p^2] = B(a + 2, b)/B(a, b) = (3/2)(5/2)/(3 * 4) = 5/16 (31%) through the model's moment
    assert float(np.exp(m.log_moment(2, 0))) == pytest.approx(float(Fraction(5, 16)), rel=1e-13)


def test_widget_numbers_measured_on_a_simulated_benchmark():
    rng = np.random.default_rng(0)
    N, n = 40000, 64
    p = rng.beta(A, B, N)
    cnt = Counts.from_arrays(np.full(N, n), rng.binomial(n, p))
    res = hidden_difficulty(cnt, [1, 2, 8, 64])
    assert isinstance(res, DiagnosticsResult)
    # sampling sd of each mean over 40000 problems is below 0.002; tolerance 0.006
    assert res.mean[0] == pytest.approx(0.5, abs=0.006)
    assert res.mean_squared[0] == pytest.approx(0.25, abs=0.006)
    assert res.both_right[0] == pytest.approx(0.3125, abs=0.006)
    assert res.second_given_first[0] == pytest.approx(0.625, abs=0.008)
    assert res.icc[0] == pytest.approx(1 / (A + B + 1), abs=0.01)  # beta-binomial rho = 1/(a+b+1)
    assert res.difficulty_sd[0] == pytest.approx(0.25, abs=0.006)
    j8, j64 = 2, 3
    assert res.independent_pass_at_k[0, j8] == pytest.approx(0.99609375, abs=0.001)
    assert res.pass_at_k[0, j8] == pytest.approx(_beta_pass_at_k(A, B, 8), abs=0.004)
    assert res.pass_at_k[0, j64] == pytest.approx(_beta_pass_at_k(A, B, 64), abs=0.002)
    assert res.pass_pow_k[0, j8] == pytest.approx(_beta_pass_pow_k(A, B, 8), abs=0.003)
    assert res.independent_pass_pow_k[0, j8] == pytest.approx(res.mean[0] ** 8)
    # Jensen: actual pass@k below the coin curve, actual pass^k above mu^k
    assert (res.pass_at_k[0, 1:] < res.independent_pass_at_k[0, 1:]).all()
    assert (res.pass_pow_k[0, 1:] > res.independent_pass_pow_k[0, 1:]).all()


def test_both_right_estimator_is_exactly_unbiased():
    # E[c(c-1)/(n(n-1))] = p^2 under Binomial(n, p), by exact rational summation
    n, p = 7, Fraction(3, 10)
    e = sum(comb(n, c) * p**c * (1 - p) ** (n - c) * Fraction(c * (c - 1), n * (n - 1)) for c in range(n + 1))
    assert e == p**2


def test_independent_benchmark_has_zero_icc():
    # every problem has the same p: no hidden difficulty, ICC ~ 0 and the curves coincide
    rng = np.random.default_rng(1)
    cnt = Counts.from_arrays(np.full(20000, 16), rng.binomial(16, 0.3, 20000))
    res = hidden_difficulty(cnt, [1, 4, 16])
    assert abs(res.icc[0]) < 0.01
    np.testing.assert_allclose(res.pass_at_k[0], res.independent_pass_at_k[0], atol=0.006)


def test_result_object_and_defaults():
    cnt = Counts.from_arrays([10, 10, 1, 8], [3, 10, 1, 0], model=["m", "m", "m", "m"])
    with pytest.warns(DroppedProblemsWarning, match="from k = 2 on"):  # the n = 1 problem leaves the curve at k = 2
        res = hidden_difficulty(cnt, k_gt_n="drop")
    assert res.k.tolist() == [1, 2, 4, 8]
    # by default the curve stops where the model's smallest n does (here n = 1): no mean over a subset
    assert hidden_difficulty(cnt).k.tolist() == [1]
    assert np.isnan(hidden_difficulty(cnt, [1, 2], k_gt_n="nan").pass_at_k[0, 1])
    # a k asked beyond a problem's n is refused by default (API review: NaN rows came back without a word)
    with pytest.raises(PasscurveError, match=r"^`k` must be an integer in \[1, n\] \(got k=2, n=1\); problem '2' of "
                                             r"model 'm' has 1 sample"):
        hidden_difficulty(cnt, [1, 2])
    assert res.problems[0] == 3 and res.one_sample[0] == 1  # n = 1 enters mu but not the pair statistics
    assert res.mean[0] == pytest.approx((0.3 + 1 + 1 + 0) / 4)
    assert res.pair_mean[0] == pytest.approx((0.3 + 1 + 0) / 3)
    assert res.both_right[0] == pytest.approx((3 * 2 / 90 + 1 + 0) / 3)
    d = res.to_dict()
    json.dumps(d)
    assert {"p_right", "p_right_pairs", "problems_one_sample", "p_both_right", "p_second_given_first",
            "icc"} <= set(d["models"][0])
    assert res.to_frame().shape[0] == 1 and res.curve_frame().shape[0] == 4
    assert len(res.plot().data) == 2


def test_bad_input():
    with pytest.raises(PasscurveError, match="`counts` must be a passcurve.Counts"):
        hidden_difficulty([1, 2])
    with pytest.raises(PasscurveError, match="n >= 2"):
        hidden_difficulty(Counts.from_arrays([1, 1], [0, 1]))
    with pytest.raises(PasscurveError, match="`k` must be >= 1"):
        hidden_difficulty(Counts.from_arrays([4, 4], [0, 1]), [0])


def test_unequal_n_says_how_many_problems_each_k_rests_on():
    # pass@k at k beyond some problems' n rests on the others only; the result counts them per k and warns
    from passcurve import Counts, DroppedProblemsWarning, hidden_difficulty

    cnt = Counts.from_arrays([4, 8, 16, 16], [1, 2, 8, 3])
    with pytest.warns(DroppedProblemsWarning, match=r"from k = 8 on, .* \(3 of 4 there, 2 at k = 16\)"):
        res = hidden_difficulty(cnt, [2, 8, 16], k_gt_n="drop")
    assert res.problems_at_k[0].tolist() == [4, 3, 2]
    assert [p["problems"] for p in res.to_dict()["models"][0]["curve"]] == [4, 3, 2]
    assert "3 of 4 there" in res.to_dict()["warnings"][0]
    # "nan": NaN (0 problems) beyond the smallest n, the same as the curve of that model
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        own = hidden_difficulty(cnt, [2, 8, 16], k_gt_n="nan")
    assert own.problems_at_k[0].tolist() == [4, 0, 0] and np.isnan(own.pass_at_k[0, 1:]).all()
    assert own.pass_at_k[0, 0] == pytest.approx(float(curve(cnt, [2]).values["pass_at_k"][0, 0]), rel=1e-14)
    with pytest.raises(PasscurveError, match='`k_gt_n` must be "raise", "nan" or "drop"'):
        hidden_difficulty(cnt, k_gt_n="error")


def test_each_model_runs_to_its_own_smallest_n():
    # model a: n = 4; model b: n = 64. The default k runs to 64; a's values stop at 4, b's equal b alone.
    cnt = Counts.from_arrays([4, 4, 64, 64], [1, 3, 5, 40], problem=["x", "y"] * 2, model=["a", "a", "b", "b"])
    res = hidden_difficulty(cnt)
    assert res.k.tolist() == [1, 2, 4, 8, 16, 32, 64]
    assert np.isnan(res.pass_at_k[0, 3:]).all() and np.isfinite(res.pass_at_k[0, :3]).all()
    alone = hidden_difficulty(cnt.select_models(["b"]))
    np.testing.assert_array_equal(res.pass_at_k[1], alone.pass_at_k[0])


def test_a_model_with_one_sample_per_problem_says_what_is_undefined():
    from passcurve import DegenerateDataWarning

    cnt = Counts.from_arrays([1, 1, 1, 10, 10, 10], [0, 1, 0, 3, 7, 0], problem=list("abc") * 2,
                             model=["one"] * 3 + ["ten"] * 3)
    with pytest.warns(DegenerateDataWarning, match="model 'one': every problem has one sample"):
        res = hidden_difficulty(cnt)
    assert np.isnan(res.both_right[0]) and res.mean[0] == pytest.approx(1 / 3)
    with pytest.raises(PasscurveError, match="n >= 2"):  # alone nothing beyond the mean is defined
        hidden_difficulty(cnt.select_models(["one"]))


def test_a_model_whose_answers_never_vary_says_why_its_icc_is_undefined():
    # every answer wrong (or every one right): σ² = 0 and μ(1 - μ) = 0, so the ICC is 0/0 = NaN, which came back with
    # no warning at all (API fuzz, session 32); now a DegenerateDataWarning names the model and why
    from passcurve import DegenerateDataWarning

    cnt = Counts.from_arrays([10] * 9, [0, 0, 0, 10, 10, 10, 3, 7, 0], problem=list("abc") * 3,
                             model=["none"] * 3 + ["all"] * 3 + ["some"] * 3)
    with pytest.warns(DegenerateDataWarning) as rec:
        res = hidden_difficulty(cnt)
    said = [str(w.message) for w in rec]
    assert said == [
        "model 'none': every answer is wrong (c = 0 on each of its 3 problems), so the outcomes do not vary and the "
        "intra-class correlation is undefined (0/0), as is P(2nd | 1st) with no first answer right",
        "model 'all': every answer is right (c = n on each of its 3 problems), so the outcomes do not vary and the "
        "intra-class correlation is undefined (0/0)"], said
    assert res.warnings == tuple(f"DegenerateDataWarning: {m}" for m in said)
    assert np.isnan(res.icc[:2]).all() and np.isfinite(res.icc[2])
    assert np.isnan(res.second_given_first[0]) and res.second_given_first[1] == 1.0
    # the problems with n = 1 are not the pair statistics': 'x' varies only through its one-sample problem
    with pytest.warns(DegenerateDataWarning, match=r"^model 'x': every answer is wrong \(c = 0 on each of its 2 "
                                                   r"problems with n >= 2\)"):
        hidden_difficulty(Counts.from_arrays([1, 5, 5], [1, 0, 0], problem=list("abc"), model="x"))


def test_one_sample_problems_are_left_out_of_every_pair_statistic():
    # review repro (g4.csv): a n=1 c=0, b n=5 c=1, c n=5 c=5 gave P(2nd | 1st) = 1.25 and ICC 1.42, since mu
    # took all three problems and P(both right) only b and c. Closed form over b and c (exact fractions):
    # mu_pairs = (1/5 + 1)/2 = 3/5, P(both) = (0/20 + 20/20)/2 = 1/2, P(2nd | 1st) = (1/2)/(3/5) = 5/6,
    # ICC = (1/2 - 9/25)/((3/5)(2/5)) = (7/50)/(6/25) = 7/12, sigma = sqrt(7/50); P(right) mu = 6/15 = 2/5.
    cnt = Counts.from_arrays([1, 5, 5], [0, 1, 5], problem=list("abc"), model="g4")
    with pytest.warns(DroppedProblemsWarning, match=r"model 'g4': 1 of 3 problems have one sample .* rest on the 2 "
                                                    r"problems with n >= 2 \(μ there 0.6\)"):
        res = hidden_difficulty(cnt)
    assert res.mean[0] == pytest.approx(float(Fraction(2, 5)), abs=1e-15)
    assert res.pair_mean[0] == pytest.approx(float(Fraction(3, 5)), abs=1e-15)
    assert res.mean_squared[0] == pytest.approx(float(Fraction(9, 25)), abs=1e-15)
    assert res.both_right[0] == pytest.approx(0.5, abs=1e-15)
    assert res.second_given_first[0] == pytest.approx(float(Fraction(5, 6)), abs=1e-15)
    assert res.icc[0] == pytest.approx(float(Fraction(7, 12)), abs=1e-15)
    assert res.difficulty_sd[0] == pytest.approx(np.sqrt(7 / 50), abs=1e-15)
    assert res.problems[0] == 2 and res.one_sample[0] == 1
    d = res.to_dict()
    assert d["models"][0]["problems_one_sample"] == 1 and d["models"][0]["p_right_pairs"] == pytest.approx(0.6)
    assert d["warnings"][0].startswith("DroppedProblemsWarning: model 'g4': 1 of 3 problems have one sample")
    # with no n = 1 problem the pair mean is mu itself and nothing is said
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full = hidden_difficulty(Counts.from_arrays([5, 5], [1, 5]))
    assert full.pair_mean[0] == full.mean[0] and full.one_sample[0] == 0 and full.warnings == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.floats(0, 1), st.integers(0, 3)), min_size=1, max_size=12)
       .filter(lambda rows: any(n >= 2 for n, _, _ in rows)))
def test_conditional_probability_and_icc_are_in_range_for_any_counts(rows):
    # over one problem set c(c-1)/(n(n-1)) <= c/n term by term, so P(2nd | 1st) = P(both)/mu is in [0, 1] and
    # ICC = (P(both) - mu^2)/(mu(1 - mu)) <= 1, whatever the mix of n = 1 and weights
    n = [r[0] for r in rows]
    c = [round(f * ni) for (ni, f, _), ni in zip(rows, n, strict=True)]
    w = [r[2] + 1 for r in rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cnt in (Counts.from_arrays(n, c), Counts.from_arrays(n, c, weight=w)):
            res = hidden_difficulty(cnt)
            s, icc = res.second_given_first[0], res.icc[0]
            assert np.isnan(s) or 0.0 <= s <= 1.0, (n, c, s)
            assert np.isnan(icc) or icc <= 1.0, (n, c, icc)
            # a NaN ICC is always said (outcomes that never vary over the problems with n >= 2)
            assert np.isnan(icc) == any("intra-class correlation is undefined" in w for w in res.warnings), (n, c)
            assert res.both_right[0] <= res.pair_mean[0]


def test_weights_enter_every_mean_as_in_curve():
    # exact rational arithmetic: weights 1, 2, 1, 1 on (n, c) = (4, 1), (5, 5), (6, 0), (3, 2)
    n, c, w = [4, 5, 6, 3], [1, 5, 0, 2], [1, 2, 1, 1]
    res = hidden_difficulty(Counts.from_arrays(n, c, weight=w), k=[1, 2, 3])
    mu = sum(Fraction(wi * ci, ni) for ni, ci, wi in zip(n, c, w, strict=True)) / sum(w)
    both = sum(Fraction(wi * ci * (ci - 1), ni * (ni - 1)) for ni, ci, wi in zip(n, c, w, strict=True)) / sum(w)
    assert res.mean[0] == pytest.approx(float(mu), abs=1e-15)  # 7/12
    assert res.both_right[0] == pytest.approx(float(both), abs=1e-15)  # 7/15
    pk = [sum(Fraction(wi * (comb(ni, k) - comb(ni - ci, k)), comb(ni, k)) for ni, ci, wi in zip(n, c, w, strict=True))
          / sum(w) for k in (1, 2, 3)]
    assert np.allclose(res.pass_at_k[0], [float(v) for v in pk], atol=1e-15)
    assert np.allclose(res.pass_at_k[0], curve(Counts.from_arrays(n, c, weight=w), [1, 2, 3]).values["pass_at_k"][0])
    assert res.problems_at_k[0].tolist() == [4, 4, 4]


def test_deviation_report_json_is_strict():
    # evidence held NaN (the impossible-mass LR p-value with fewer than 10 problems): json.dumps(allow_nan=False)
    # raised (difficulty-fits audit)
    import passcurve

    counts = Counts.from_arrays(n=[20] * 12, c=[3, 5, 1, 7, 2, 9, 4, 6, 2, 3, 8, 1], model="m")
    d = passcurve.check_deviations(counts, emit=False).to_dict()
    assert json.loads(json.dumps(d, allow_nan=False))["evidence"]["m"]["zi_lr_p_value"] is None


def test_two_samples_are_a_pair_and_zero_weight_problems_are_not_counted():
    # hand count over all pairs of samples: n = 2, c = 1 has its one pair right-wrong (0 of 1 both right); n = 2,
    # c = 2 has 1 of 1; n = 3, c = 0 has 0 of 3. So P(both) = (0 + 1 + 0)/3 = 1/3, pair mu = (1/2 + 1 + 0)/3 = 1/2,
    # P(2nd | 1st) = 2/3, ICC = (1/3 - 1/4)/(1/2 * 1/2) = 1/3 (exact fractions below). n = 2 is enough for a pair:
    # nothing is one-sample and nothing is said.
    n, c = [2, 2, 3], [1, 2, 0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = hidden_difficulty(Counts.from_arrays(n, c), [1, 2])
    both = sum(Fraction(ci * (ci - 1), ni * (ni - 1)) for ni, ci in zip(n, c, strict=True)) / 3
    mu = sum(Fraction(ci, ni) for ni, ci in zip(n, c, strict=True)) / 3
    assert (both, mu) == (Fraction(1, 3), Fraction(1, 2))
    assert res.problems[0] == 3 and res.one_sample[0] == 0
    assert res.both_right[0] == pytest.approx(float(both), abs=1e-15)
    assert res.second_given_first[0] == pytest.approx(float(both / mu), abs=1e-15)
    assert res.icc[0] == pytest.approx(float((both - mu**2) / (mu * (1 - mu))), abs=1e-15)
    # a problem of weight 0 enters no mean (as in curve), so it is counted neither among the pair problems nor
    # among the one-sample ones: of (n, w) = (4, 1), (6, 0), (1, 1), (1, 0), one problem of each kind counts
    with pytest.warns(DroppedProblemsWarning, match=r"1 of 2 problems have one sample .* rest on the 1 problems"):
        zw = hidden_difficulty(Counts.from_arrays([4, 6, 1, 1], [1, 3, 0, 1], weight=[1, 0, 1, 0]), [1])
    assert zw.problems[0] == 1 and zw.one_sample[0] == 1
    assert zw.both_right[0] == 0.0 and zw.pair_mean[0] == 0.25 and zw.mean[0] == pytest.approx(0.125)
    # P(both) - mu^2 = 0 - 1/16 < 0: the unbiased variance is negative here, and sigma is clipped at 0 (not above)
    assert zw.difficulty_sd[0] == 0.0
