"""GRPO dead groups: REFERENCE.md oracles, quadrature, exact hypergeometric counts, simulation."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, stats

from passcurve import (
    ConvergenceWarning,
    Counts,
    DegenerateDataWarning,
    DroppedProblemsWarning,
    PasscurveError,
)
from passcurve.rl import (
    dead_group_fraction,
    dead_group_fraction_beta,
    dead_groups,
    group_size_for_live,
)


def test_reference_oracles():
    # ../shared/REFERENCE.md "Training signals": G=16, p = 0.5 / 0.9 / 0.95
    assert dead_group_fraction(0.5, 16) == pytest.approx(3.05e-5, rel=2e-3)
    assert dead_group_fraction(0.5, 16) == 2 * 0.5**16  # closed form
    assert dead_group_fraction(0.9, 16) == pytest.approx(0.185302, abs=5e-7)
    assert dead_group_fraction(0.95, 16) == pytest.approx(0.440127, abs=5e-7)
    # Beta(.5,.5): 0.39276 (G=8), 0.27990 (G=16)
    assert dead_group_fraction_beta(0.5, 0.5, 8) == pytest.approx(0.39276, abs=5e-6)
    assert dead_group_fraction_beta(0.5, 0.5, 16) == pytest.approx(0.27990, abs=5e-6)


@pytest.mark.parametrize("a,b,G", [(0.5, 0.5, 8), (2.0, 7.0, 16), (0.3, 3.0, 64), (5.0, 1.2, 3)])
def test_beta_closed_form_vs_quadrature(a, b, G):
    # independent: integrate (p^G + (1-p)^G) against the Beta density
    val, _ = integrate.quad(lambda p: (p**G + (1 - p) ** G) * stats.beta.pdf(p, a, b), 0, 1, limit=200)
    assert dead_group_fraction_beta(a, b, G) == pytest.approx(val, rel=1e-7)


def test_beta_exact_rational_products():
    # B(a+G, b)/B(a, b) = prod_{j<G} (a+j)/(a+b+j) with a, b rational
    a, b, G = Fraction(3, 2), Fraction(5, 2), 10
    want = math.prod((a + j) / (a + b + j) for j in range(G)) + math.prod((b + j) / (a + b + j) for j in range(G))
    assert dead_group_fraction_beta(1.5, 2.5, G) == pytest.approx(float(want), rel=1e-12)


def test_broadcasting_and_huge_g():
    out = dead_group_fraction(np.array([[0.5], [0.9]]), np.array([2, 4, 8]))
    assert out.shape == (2, 3)
    assert out[0, 0] == 0.5
    assert dead_group_fraction_beta(0.5, 0.5, 10**9) > 0  # no overflow, tends to 0 like G^-1/2
    assert dead_group_fraction(0.0, 7) == 1.0 and dead_group_fraction(1.0, 7) == 1.0


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_observed_is_exact_hypergeometric():
    # one problem n=6, c=2: groups of G=3 drawn from its samples; exact [C(2,3)+C(4,3)]/C(6,3) = 4/20
    res = dead_groups(Counts.from_arrays([6, 10], [2, 7], model="m"), [3], target_live=0.5)
    want = (Fraction(math.comb(2, 3) + math.comb(4, 3), math.comb(6, 3)) + Fraction(math.comb(7, 3) + math.comb(3, 3), math.comb(10, 3))) / 2
    assert res.observed[0, 0] == pytest.approx(float(want), rel=1e-13)
    assert res.mean_rate[0] == pytest.approx((2 / 6 + 7 / 10) / 2)
    assert res.independent[0, 0] == pytest.approx(dead_group_fraction(res.mean_rate[0], 3))


def test_simulated_log_beta_fit_and_gap():
    # p ~ Beta(0.5, 2) across 3000 problems, n = 64: the observed dead fraction follows the Beta
    # formula, and far exceeds independent coins at the mean rate (seed 000's point)
    rng = np.random.default_rng(7)
    p = rng.beta(0.5, 2.0, 3000)
    n = np.full(3000, 64)
    c = rng.binomial(n, p)
    with warnings.catch_warnings():
        # the difficulty module's optimiser report is its own business (tested there)
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = dead_groups(Counts.from_arrays(n, c, model="sim"), [8, 16, 64], target_live=0.9)
    a, b = res.params_[0]["alpha"], res.params_[0]["beta"]
    assert a == pytest.approx(0.5, rel=0.1) and b == pytest.approx(2.0, rel=0.15)
    truth = dead_group_fraction_beta(0.5, 2.0, res.group_size)
    np.testing.assert_allclose(res.observed[0], truth, atol=0.02)
    np.testing.assert_allclose(res.fitted[0], truth, atol=0.02)
    np.testing.assert_allclose(res.fitted[0], dead_group_fraction_beta(a, b, res.group_size), rtol=1e-10)
    assert (res.observed[0] > 2 * res.independent[0]).all()
    # the group size needed under the Beta fit satisfies its definition
    g = res.group_size_needed["fitted"][0]
    assert dead_group_fraction_beta(a, b, int(g)) <= 0.1 < dead_group_fraction_beta(a, b, int(g) - 1)
    assert np.isnan(res.group_size_needed["observed"][0])  # needs G > 64 = n
    d = res.to_dict()
    assert d["models"][0]["groups"][0]["group_size"] == 8
    assert len(res.to_frame()) == 3
    assert len(res.plot().data) == 3


def test_group_size_for_live_definition():
    for kw in ({"p": 0.5}, {"p": 0.97}, {"alpha": 0.5, "beta": 0.5}, {"alpha": 2.0, "beta": 30.0}):
        g = group_size_for_live(0.8, **kw)
        if "p" in kw:
            at, below = dead_group_fraction(kw["p"], int(g)), dead_group_fraction(kw["p"], int(g) - 1)
        else:
            at = dead_group_fraction_beta(kw["alpha"], kw["beta"], int(g))
            below = dead_group_fraction_beta(kw["alpha"], kw["beta"], int(g) - 1)
        assert at <= 0.2 < below
    assert group_size_for_live(0.9, p=0.5) == 5.0  # 2 * 0.5^G <= 0.1 first at G = 5
    assert group_size_for_live(0.9, p=1.0) == float("inf")
    assert group_size_for_live(0.999, alpha=0.05, beta=1.0, max_group_size=10**6) == float("inf")


def test_zero_inflated_difficulty_keeps_impossible_problems_dead():
    # 30% impossible problems: the zero-inflated fit predicts a dead floor near 0.3 at large G,
    # so a 90% live target is never reached; the plain Beta cannot see the floor
    rng = np.random.default_rng(11)
    p = np.where(rng.random(2000) < 0.3, 0.0, rng.beta(2.0, 3.0, 2000))
    n = np.full(2000, 50)
    c = rng.binomial(n, p)
    cnt = Counts.from_arrays(n, c, model="zi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        zi = dead_groups(cnt, [8, 32, 1024], difficulty="zi_beta")
        be = dead_groups(cnt, [8, 32, 1024], difficulty="beta")
    assert zi.params_[0]["impossible"] == pytest.approx(0.3, abs=0.04)
    assert zi.fitted[0, -1] == pytest.approx(0.3, abs=0.04)
    np.testing.assert_allclose(zi.fitted[0, :2], zi.observed[0, :2], atol=0.02)
    assert zi.group_size_needed["fitted"][0] == float("inf")
    assert be.fitted[0, -1] < zi.fitted[0, -1]


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_warnings():
    n = np.array([4, 100, 100])
    c = np.array([1, 30, 60])
    with pytest.warns(DroppedProblemsWarning, match="n < 8"):
        res = dead_groups(Counts.from_arrays(n, c, model="m"), [8])
    assert res.problems[0, 0] == 2
    # several G: the warning named the first G only, so G = 200 (no problem left, observed NaN) went unsaid
    with pytest.warns(DroppedProblemsWarning, match=r"1 of 3 problems have n < 8 .* at G=8 \(and 3 of 3 at G=200: "
                                                    r"none left, so no observed fraction there\)"):
        res = dead_groups(Counts.from_arrays(n, c, model="m"), [8, 200])
    assert res.problems[0].tolist() == [2, 0] and np.isnan(res.observed[0, 1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.warns(DegenerateDataWarning, match="never solved"):
            dead_groups(Counts.from_arrays([10, 10], [0, 0], model="z"), [4])


@pytest.mark.filterwarnings("ignore::passcurve.DroppedProblemsWarning")  # n = 1 < G: no observed fraction (own test)
def test_one_sample_per_problem_identifies_no_difficulty_law():
    # review: with n = 1 everywhere dead_groups fitted a Beta anyway and reported its dead fraction (8.40% at G=8
    # for 6 of 20 solved; 42% under zi_beta, 100% under npmle), though n = 1 counts identify only the mean:
    # P(c = 1) = E[p] under every law. Beta(0.3, 0.7) and Beta(3, 7) have the same mean 0.3, so the same likelihood
    # on these counts, and dead fractions 0.4844 and 0.1254 at G = 8 (exact rational products
    # prod_{j<8} (a+j)/(a+b+j) + prod_{j<8} (b+j)/(a+b+j))
    def exact(a, b, g):
        x = y = Fraction(1)
        for j in range(g):
            x, y = x * (a + j) / (a + b + j), y * (b + j) / (a + b + j)
        return float(x + y)

    cnt = Counts.from_arrays([1] * 20, [1 if i % 3 == 2 else 0 for i in range(20)], model="one")  # 6 of 20 right
    assert dead_group_fraction_beta(0.3, 0.7, 8) == pytest.approx(exact(Fraction(3, 10), Fraction(7, 10), 8), rel=1e-12)
    assert dead_group_fraction_beta(3.0, 7.0, 8) == pytest.approx(exact(Fraction(3), Fraction(7), 8), rel=1e-12)
    assert exact(Fraction(3, 10), Fraction(7, 10), 8) > 0.48 > 0.13 > exact(Fraction(3), Fraction(7), 8)
    with pytest.warns(DegenerateDataWarning, match=r"model 'one': every problem has one sample, which identifies only the "
                                                   r"mean success rate \(0.3\).* anything from .*0.05771 at G=8\) to 1"):
        res = dead_groups(cnt, [8, 16], difficulty="beta")
    assert res.identified.tolist() == [False] and np.isnan(res.fitted).all()
    assert res.params_ == ({},) and not res.success[0] and res.message[0].startswith("not fitted")
    # the independent coins rest on the mean alone: 0.3^G + 0.7^G exactly
    np.testing.assert_allclose(res.independent[0], [0.3**8 + 0.7**8, 0.3**16 + 0.7**16], rtol=1e-13)
    assert res.group_size_needed["independent"][0] == 7  # 0.3^7 + 0.7^7 = 0.0826 <= 0.1 < 0.1184 at G = 6
    assert np.isnan(res.group_size_needed["fitted"][0]) and np.isnan(res.group_size_needed["observed"][0])
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))["models"][0]
    assert d["fit"]["identified"] is False and d["fit"]["params"] == {}
    assert d["group_size_not_found"] == {"observed": "not searched: a problem has one sample",
                                         "fitted": "not identified: every problem has one sample"}
    assert all(g["fitted_dead"] is None and g["observed_dead"] is None for g in d["groups"])
    for law in ("zi_beta", "npmle"):  # no law reports a number either
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert np.isnan(dead_groups(cnt, [8], difficulty=law).fitted).all()
    # one problem with two samples identifies a law (and the always-failed n = 1 log, mean 0, has only one law)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mixed = dead_groups(Counts.from_arrays([1, 1, 10, 10], [0, 1, 3, 9]), [8])
        zero = dead_groups(Counts.from_arrays([1, 1, 1], [0, 0, 0]), [8])
    assert mixed.identified.tolist() == [True] and np.isfinite(mixed.fitted).all()
    assert zero.identified.tolist() == [True] and zero.fitted[0, 0] == pytest.approx(1.0, abs=1e-6)


def test_observed_says_how_many_problems_it_leaves_out():
    # (n, c) = (1, 0), (10, 3), (10, 7), (10, 10): observed rests on the three with n >= G. By hand (exact
    # hypergeometric): G=2: (24/45 + 24/45 + 1)/3 = 31/45, the n = 1 problem left out; G=8: (0 + 0 + 1)/3;
    # G=16: none left. The counts left out are in the result and its JSON, not only in the warning
    cnt = Counts.from_arrays([1, 10, 10, 10], [0, 3, 7, 10], model="m")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.warns(DroppedProblemsWarning, match=r"model 'm': 1 of 4 problems have n < 2 samples .* at G=2 \(and 4 of 4 "
                                                        r"at G=16: none left"):
            res = dead_groups(cnt, [2, 8, 16])
    np.testing.assert_allclose(res.observed[0, :2], [31 / 45, 1 / 3], rtol=1e-13)
    assert np.isnan(res.observed[0, 2])
    assert res.total_problems.tolist() == [4] and res.problems[0].tolist() == [3, 3, 0]
    d = res.to_dict()["models"][0]
    assert d["problems"] == 4 and [g["problems_left_out"] for g in d["groups"]] == [1, 1, 4]
    assert res.to_frame()["problems_left_out"].tolist() == [1, 1, 4]
    # every problem left out at the first G already: the warning said "20 of 20 ... at G=8" and no more
    with pytest.warns(DroppedProblemsWarning, match=r"2 of 2 problems have n < 8 samples and are left out of the "
                                                    r"observed dead fraction at G=8 and every larger G: none left, "
                                                    r"so no observed fraction there$"):
        warnings.simplefilter("ignore", ConvergenceWarning)
        dead_groups(Counts.from_arrays([4, 4], [1, 2], model="m"), [8, 16])


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_weights_honoured():
    cnt = Counts.from_arrays([10, 10], [0, 5], model="m", weight=[3.0, 1.0])
    res = dead_groups(cnt, [2])
    per = np.array([1.0, (math.comb(5, 2) * 2) / math.comb(10, 2)])
    assert res.observed[0, 0] == pytest.approx((3 * per[0] + per[1]) / 4)


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: dead_group_fraction(1.2, 8), "`p` must be in"),
        (lambda: dead_group_fraction(0.5, 0), "`group_size` must be >= 1"),
        (lambda: dead_group_fraction_beta(-1, 1, 8), "`alpha` must be > 0"),
        (lambda: dead_group_fraction_beta(1, 0, 8), "`beta` must be > 0"),
        (lambda: dead_groups([1, 2], [8]), "`counts` must be a passcurve.Counts"),
        (lambda: dead_groups(Counts.from_arrays([9], [3]), [1]), "`group_size` must be >= 2"),
        (lambda: dead_groups(Counts.from_arrays([9], [3]), [4], target_live=1.0), "`target_live` must be in"),
        (lambda: group_size_for_live(0.9), "give either `p`"),
        (lambda: dead_groups(Counts.from_arrays([9], [3]), [4], difficulty="gauss"), "`difficulty` must be one of"),
        (lambda: group_size_for_live(0.9, alpha=1.0), "give both"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(PasscurveError, match=match):
        call()


@pytest.mark.shared_data
def test_pythia_math_dead_groups_far_above_independent_coins():
    # Large Language Monkeys (Brown et al. 2024, arXiv 2407.21787), ../shared/data/README.md:
    # hidden difficulty makes dead groups far more common than coins at the mean rate (seed 000),
    # and the fitted Beta tracks the unbiased observed fraction
    from conftest import shared_file

    from passcurve import read_counts

    cnt = read_counts(shared_file("pythia_math_counts.csv"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = dead_groups(cnt, [16, 256])
    assert len(res.models) == 7
    assert (res.observed[:, 1] > res.independent[:, 1] + 0.08).all()
    np.testing.assert_allclose(res.fitted, res.observed, atol=0.03)
    # never-solved problems stay dead: 90% live is not reached within n = 10,000
    assert np.isnan(res.group_size_needed["observed"]).all()


def test_group_size_needed_json_is_int_or_null():
    # a group size is a count: to_dict() gave 18.0 (a float) for a finite G, and must give null for NaN and inf
    rng = np.random.default_rng(4)
    n = np.full(200, 40)
    c = rng.binomial(40, rng.beta(0.5, 2.0, 200))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = dead_groups(Counts.from_arrays(n, c, model="m"), [8], target_live=0.9)
        never = dead_groups(Counts.from_arrays(np.full(50, 40), np.full(50, 40), model="s"), [8])
    need = res.to_dict()["models"][0]["group_size_needed"]
    assert need["independent"] == int(res.group_size_needed["independent"][0])
    assert all(v is None or type(v) is int for v in need.values())
    assert type(need["independent"]) is int and type(need["fitted"]) is int
    assert all(v is None for v in never.to_dict()["models"][0]["group_size_needed"].values())
    json.dumps(never.to_dict(), allow_nan=False)


def test_json_says_why_a_group_size_is_null():
    # null meant both "not reached within the samples" (observed, NaN) and "never" (a zero-inflated fit whose
    # impossible mass alone keeps the live fraction below the target, inf); the text output told them apart, the
    # JSON did not (second user review)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cnt = Counts.from_arrays([20] * 40, [0] * 20 + [1] * 10 + [5] * 10, model="m")
        res = dead_groups(cnt, [4, 16], difficulty="zi_beta", target_live=0.99)
    need = res.group_size_needed
    d = res.to_dict()["models"][0]
    assert json.loads(json.dumps(d)) == d
    why = {"never" if np.isinf(v[0]) else "not reached within the samples" for v in need.values() if not np.isfinite(v[0])}
    assert set(d["group_size_not_found"].values()) == why == {"never", "not reached within the samples"}
    assert all(d["group_size_needed"][k] is None for k in d["group_size_not_found"])
    assert all(d["group_size_needed"][k] is not None for k in set(need) - set(d["group_size_not_found"]))


# ---------------------------------------------------------------------------- edges (mutation testing)
def test_return_kinds():
    # documented: a float when every input is a scalar, else an array of the broadcast shape
    assert type(dead_group_fraction(0.5, 2)) is float and type(dead_group_fraction_beta(1.0, 1.0, 2)) is float
    out = dead_group_fraction([0.5, 0.25], 2)  # p^2 + (1-p)^2, exact in binary
    assert isinstance(out, np.ndarray) and out.tolist() == [0.5, 0.625]
    assert dead_group_fraction(np.array([0.5]), 2).shape == (1,)
    assert dead_group_fraction(0.5, [1, 2, 3]).tolist() == [1.0, 0.5, 0.25]
    # Beta(1, 1) (uniform p): E[p^G + (1-p)^G] = 2/(G+1)
    np.testing.assert_allclose(dead_group_fraction_beta([1.0, 1.0], 1.0, 3), [0.5, 0.5], rtol=1e-14)
    np.testing.assert_allclose(dead_group_fraction_beta(1.0, 1.0, [1, 3]), [1.0, 0.5], rtol=1e-14)
    assert dead_group_fraction_beta(np.array([1.0]), 1.0, 3).shape == (1,)


def test_group_size_for_live_at_exact_ties_and_the_search_limit():
    # p = 1/2: D(G) = 2^(1-G) exactly in binary floating point, so the live fraction 1 - D reaches a target of
    # 1 - 2^(1-G) exactly at G (definition: the smallest G whose live fraction reaches the target)
    assert group_size_for_live(0.5, p=0.5) == 2.0  # D(2) = 1/2
    assert group_size_for_live(0.75, p=0.5) == 3.0  # D(3) = 1/4
    assert group_size_for_live(1 - 1 / 32, p=0.5) == 6.0  # D(6) = 1/32
    # the search limit is inclusive, and a limit that is no power of 2 still gives an integer G
    assert group_size_for_live(0.75, p=0.5, max_group_size=3) == 3.0
    assert group_size_for_live(0.75, p=0.5, max_group_size=2) == float("inf")
    assert group_size_for_live(1 - 1 / 32, p=0.5, max_group_size=7) == 6.0
    # Beta(1, 1): D(G) = 2/(G+1); live >= 0.8 first at G = 9 (D = 0.2), with a limit of 11 (no power of 2)
    g = group_size_for_live(0.8, alpha=1.0, beta=1.0, max_group_size=11)
    assert g == 9.0


def test_one_sample_is_never_a_live_group():
    # D(1) = p + (1 - p) = 1 for every law: no target > 0 is reached at G = 1, however small. A target below
    # 1.1e-16 made 1 - target round to 1, and G = 1 was returned (p = 1/2: live 0 at G = 1, 1/2 at G = 2; p = 1:
    # never live)
    for t in (1e-17, 1e-300, 1e-4):
        assert group_size_for_live(t, p=0.5) == 2.0
        assert group_size_for_live(t, alpha=1.0, beta=1.0) == 2.0
        assert group_size_for_live(t, p=1.0) == float("inf")


@pytest.mark.parametrize("kwargs,match", [
    ({"target_live": 0.0, "p": 0.5}, "`target_live` must be in"),
    ({"target_live": 1.0, "p": 0.5}, "`target_live` must be in"),
    ({"target_live": 1.2, "p": 0.5}, "`target_live` must be in"),
    ({"target_live": 0.9, "p": 1.5}, "`p` must be in"),
    ({"target_live": 0.9, "p": -0.1}, "`p` must be in"),
])
def test_group_size_for_live_bad_input(kwargs, match):
    with pytest.raises(PasscurveError, match=match):
        group_size_for_live(**kwargs)


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_defaults_json_fields_and_smallest_n_two():
    # smallest n = 2: the observed search runs (to G = 2) and the target is not reached there, so the reason is
    # "not reached within the samples", not "a problem has one sample"; observed_live is 1 - observed_dead
    cnt = Counts.from_arrays([2, 10, 10], [1, 3, 7], model="m")
    with pytest.warns(DroppedProblemsWarning) as got:
        res = dead_groups(cnt)
    assert all(w.filename == __file__ for w in got)  # said at the caller's line
    assert res.group_size.tolist() == [8, 16, 64]  # the documented default
    assert res.smallest_n.tolist() == [2] and np.isnan(res.group_size_needed["observed"][0])
    d = res.to_dict()["models"][0]
    assert d["group_size_not_found"]["observed"] == "not reached within the samples"
    # by hand: G = 8 keeps the two n = 10 problems, [C(3,8) + C(7,8)]/C(10,8) = 0 for both
    assert d["groups"][0]["observed_dead"] == 0.0 and d["groups"][0]["observed_live"] == 1.0
    for row, obs in zip(d["groups"], res.observed[0], strict=True):
        assert row["observed_live"] == (None if np.isnan(obs) else 1.0 - obs)
    assert d["fit"]["params_not_identified"] == list(res.params_not_identified[0])
    assert d["fit"]["params_at_bound"] == list(res.params_at_bound[0])


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_observed_group_size_needed_within_n_two():
    # (n, c) = (2, 1), (2, 1), (10, 5): at G = 2 the dead fractions are exactly 0, 0 and [C(5,2) + C(5,2)]/C(10,2)
    # = 4/9 (hypergeometric), mean 4/27 <= 1/2: a 50% live target is observed reached at G = 2, the smallest n
    cnt = Counts.from_arrays([2, 2, 10], [1, 1, 5], model="m")
    with pytest.warns(DroppedProblemsWarning):
        res = dead_groups(cnt, [2, 4], target_live=0.5)
    want = (Fraction(0) + 0 + Fraction(2 * math.comb(5, 2), math.comb(10, 2))) / 3
    assert want == Fraction(4, 27) and res.observed[0, 0] == pytest.approx(float(want), rel=1e-14, abs=0)
    assert res.group_size_needed["observed"][0] == 2.0
    d = res.to_dict()["models"][0]
    assert "observed" not in d["group_size_not_found"]
    assert d["groups"][0]["observed_live"] == pytest.approx(float(1 - want), rel=1e-14, abs=0)  # 23/27


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning", "ignore::passcurve.DroppedProblemsWarning")
def test_weights_below_one_and_a_weighted_fit():
    # weights summing to less than 1 are weights all the same: mean rate (0.25·0 + 0.25·0.5)/0.5 = 0.25, and the
    # observed fraction is the weighted mean over the problems with n >= G, whatever their total weight
    cnt = Counts.from_arrays([10, 10], [0, 5], model="m", weight=[0.25, 0.25])
    res = dead_groups(cnt, [2])
    assert res.mean_rate[0] == 0.25
    per = [Fraction(1), Fraction(2 * math.comb(5, 2), math.comb(10, 2))]  # hypergeometric, exact
    assert res.observed[0, 0] == pytest.approx(float(sum(per) / 2), rel=1e-14, abs=0)
    # one problem with n >= G, of weight 0.5
    one = dead_groups(Counts.from_arrays([2, 10], [1, 5], model="m", weight=[0.5, 0.5]), [4])
    assert one.observed[0, 0] == pytest.approx(float(Fraction(2 * math.comb(5, 4), math.comb(10, 4))), rel=1e-14)
    # integer weights are repeated rows (the weighted log-likelihood is the sum over the copies): the same fit
    n, c, w = [20, 20, 20, 20, 20], [3, 10, 15, 1, 0], [3, 1, 2, 1, 2]
    weighted = dead_groups(Counts.from_arrays(n, c, model="m", weight=[float(x) for x in w]), [8, 64])
    copies = dead_groups(Counts.from_arrays(np.repeat(n, w), np.repeat(c, w), model="m"), [8, 64])
    for key in ("alpha", "beta"):
        assert weighted.params_[0][key] == pytest.approx(copies.params_[0][key], rel=1e-4)
    np.testing.assert_allclose(weighted.fitted, copies.fitted, rtol=1e-4)
    np.testing.assert_allclose(weighted.observed, copies.observed, rtol=1e-13)
    assert weighted.mean_rate[0] == pytest.approx(copies.mean_rate[0], rel=1e-14)


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_left_out_warning_when_the_first_group_size_keeps_every_problem():
    # G = 2 keeps every problem, G = 8 leaves one out: still said; and every problem gone first at the last G has
    # no "every larger G" (there is none)
    n = np.array([4, 100, 100])
    with pytest.warns(DroppedProblemsWarning, match=r"^model 'm': 1 of 3 problems have n < 8 samples and are left out "
                                                    r"of the observed dead fraction at G=8$"):
        dead_groups(Counts.from_arrays(n, [1, 30, 60], model="m"), [2, 8])
    with pytest.warns(DroppedProblemsWarning, match=r"^model 'm': 2 of 2 problems have n < 8 samples and are left out "
                                                    r"of the observed dead fraction at G=8: none left, so no observed "
                                                    r"fraction there$"):
        dead_groups(Counts.from_arrays([4, 4], [1, 2], model="m"), [2, 8])


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_degenerate_warning_only_when_every_problem_is_alike():
    # a problem never solved beside one always solved is no degenerate log; every problem always solved is
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        dead_groups(Counts.from_arrays([10, 10, 10], [0, 10, 4], model="m"), [4])
    assert not [w for w in got if "every problem is" in str(w.message)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.warns(DegenerateDataWarning, match=r"^model 'm': every problem is always solved$"):
            dead_groups(Counts.from_arrays([10, 10], [10, 10], model="m"), [4])


@pytest.mark.filterwarnings("ignore::passcurve.DroppedProblemsWarning", "ignore::passcurve.ConvergenceWarning")
def test_one_sample_per_problem_identified_only_at_mean_zero_or_one():
    # n = 1 everywhere: a mean strictly between 0 and 1 (however close: 1 of 2000) identifies no law; a mean of 1
    # (every problem solved) has one law, p = 1, whose groups are all dead
    with pytest.warns(DegenerateDataWarning, match="identifies only the mean"):
        rare = dead_groups(Counts.from_arrays([1] * 2000, [1] + [0] * 1999, model="m"), [8])
    assert rare.identified.tolist() == [False] and np.isnan(rare.fitted).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ones = dead_groups(Counts.from_arrays([1] * 5, [1] * 5, model="m"), [8])
    assert ones.identified.tolist() == [True] and ones.fitted[0, 0] == pytest.approx(1.0, abs=1e-6)
