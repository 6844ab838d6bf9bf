"""The planner: allocation rules against brute-force versions, the preposterior formula, the API and the CLI."""

from __future__ import annotations

import json
import math
import re
import warnings

import numpy as np
import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

import passcurve
from passcurve import (
    Counts,
    PasscurveError,
    Planner,
    PlanResult,
    plan,
    simulate,
)
from passcurve._adaptive import BetaPrior, ZeroInflatedBetaPrior
from passcurve._planner import preposterior_reduction
from passcurve.data import write_counts


# ------------------------------------------------------------------ preposterior reduction
def _brute_reduction(a: float, b: float, k: int, n: int, c: int, m: int) -> float:
    """Law of total variance by explicit enumeration with betaln (no truncation, no shortcuts)."""
    A, B = a + c, b + n - c
    h0 = math.exp(special.betaln(A, B + k) - special.betaln(A, B))
    tot = 0.0
    for x in range(m + 1):
        pmf = math.comb(m, x) * math.exp(special.betaln(A + x, B + m - x) - special.betaln(A, B))
        hx = math.exp(special.betaln(A + x, B + m - x + k) - special.betaln(A + x, B + m - x))
        tot += pmf * (hx - h0) ** 2
    return tot


@settings(max_examples=40, deadline=None)
@given(
    a=st.floats(0.05, 5.0),
    b=st.floats(0.5, 50.0),
    k=st.integers(1, 2000),
    n=st.integers(0, 60),
    m=st.integers(0, 80),
    frac=st.floats(0, 1),
)
def test_preposterior_matches_enumeration(a, b, k, n, m, frac):
    c = int(round(frac * n))
    prior = BetaPrior(a, b, 0.0)
    got = preposterior_reduction(prior, n, c, k, m)[0]
    ref = _brute_reduction(a, b, k, n, c, m)
    assert got == pytest.approx(ref, rel=1e-7, abs=1e-15)


def test_preposterior_limits_and_monotone():
    # R(0) = 0, R increasing in m, R(m) -> Var[(1-p)^k | data] (law of total variance)
    prior = BetaPrior(0.3, 12.0, 0.0)
    ms = np.array([0, 1, 10, 100, 1000, 20000])
    r = preposterior_reduction(prior, np.full(ms.size, 20), np.zeros(ms.size), 500, ms)
    assert r[0] == 0.0
    assert np.all(np.diff(r) > 0)
    A, B = 0.3, 32.0
    var = math.exp(special.betaln(A, B + 1000) - special.betaln(A, B)) - math.exp(
        2 * (special.betaln(A, B + 500) - special.betaln(A, B))
    )
    assert r[-1] == pytest.approx(var, rel=0.02)
    assert r[-1] <= var


def test_preposterior_zero_inflated_by_enumeration():
    # mixture prior: M(c, d) = (1-pi) B(a+c, b+d)/B(a, b) + pi 1{c=0}; brute force with the mixture moments
    pr = ZeroInflatedBetaPrior(0.4, 8.0, 0.0, impossible=0.3)

    def M(c, d):
        return (1 - 0.3) * math.exp(special.betaln(0.4 + c, 8.0 + d) - special.betaln(0.4, 8.0)) + 0.3 * (
            c == 0
        )

    n, c, m, k = 15, 0, 30, 200
    d = n - c
    h0 = M(c, d + k) / M(c, d)
    ref = sum(
        math.comb(m, x)
        * M(c + x, d + m - x)
        / M(c, d)
        * (M(c + x, d + m - x + k) / M(c + x, d + m - x) - h0) ** 2
        for x in range(m + 1)
    )
    assert preposterior_reduction(pr, n, c, k, m)[0] == pytest.approx(ref, rel=1e-9)


def test_expected_sd_matches_monte_carlo():
    # expected posterior variance after a plan = E over predictive outcomes of the posterior variance
    rng = np.random.default_rng(11)
    n = np.array([10, 10, 40, 5])
    c = np.array([0, 2, 1, 5])
    prior = (0.5, 4.0)
    pl = Planner(n=n, c=c, k=50, prior=prior)
    add = np.array([30, 10, 0, 5])
    expected = pl.expected_sd(add) ** 2
    a0, b0 = 0.5 + c, 4.0 + n - c
    sims = []
    for _ in range(4000):
        p = rng.beta(a0, b0)
        x = rng.binomial(add, p)
        a1, b1 = a0 + x, b0 + add - x
        h1 = np.exp(special.betaln(a1, b1 + 50) - special.betaln(a1, b1))
        h2 = np.exp(special.betaln(a1, b1 + 100) - special.betaln(a1, b1))
        sims.append(np.sum(h2 - h1**2) / 16)
    sims = np.array(sims)
    assert expected == pytest.approx(sims.mean(), abs=4 * sims.std() / np.sqrt(sims.size))


# ------------------------------------------------------------------ allocation rules
def _brute_fewest(c, n, budget):
    """Kazdan et al.'s rule, one sample at a time: min successes, then min attempts, then lowest index."""
    n = list(n)
    out = [0] * len(n)
    for _ in range(budget):
        i = min(range(len(n)), key=lambda j: (c[j], n[j], j))
        out[i] += 1
        n[i] += 1
    return out


def test_fewest_successes_equals_sequential_rule():
    c = np.array([0, 1, 0, 3, 0, 1])
    n = np.array([10, 4, 13, 9, 20, 4])
    pl = Planner(n=n, c=c, k=100, method="fewest-successes", rng=0)
    got = pl.allocate(25)
    # the brute force breaks remaining ties by index; here no ties remain after (c, n)
    assert got.tolist() == _brute_fewest(c, n, 25)
    # everything goes to the c = 0 problems and levels their attempts
    assert got[[1, 3, 5]].sum() == 0
    assert (n + got)[[0, 2, 4]].max() - (n + got)[[0, 2, 4]].min() <= 1


def test_fewest_successes_batches_and_cap():
    pl = Planner(n=[10, 10, 10], c=[0, 0, 5], k=10, method="fewest-successes", max_n=40, rng=1)
    got = pl.allocate(40, batch=10)
    assert got.tolist() == [20, 20, 0]  # c = 0 problems first, in blocks of 10, levelled
    # the cap stops every problem at 40 samples, so only 90 of 100 can be placed
    got = pl.allocate(100, batch=10)
    assert got.tolist() == [30, 30, 30]


def test_variance_optimal_proportional_to_kazdan_weights():
    # with nothing drawn yet the totals are the new samples: b_i proportional to sqrt(p(1-p)^(2K-1))
    # (Kazdan et al. 2025) with p the posterior mean under the fixed prior
    n = np.zeros(5, dtype=int)
    c = np.zeros(5, dtype=int)
    pl = Planner(n=n, c=c, k=3, method="variance-optimal", prior=(1.0, 1.0))
    # all posterior means equal 1/2 -> equal split
    assert pl.allocate(50).tolist() == [10] * 5
    n = np.array([10, 10, 10, 10])
    c = np.array([0, 1, 3, 9])
    pl = Planner(n=n, c=c, k=4, method="variance-optimal", prior=(1.0, 1.0))
    budget = 100_000
    got = pl.allocate(budget)
    p = (1 + c) / (2 + n)
    w = np.sqrt(p * (1 - p) ** 7)
    target = (n.sum() + budget) * w / w.sum()
    np.testing.assert_allclose(n + got, target, atol=1.0)
    assert got.sum() == budget


def test_variance_optimal_water_fills_when_some_problem_is_oversampled():
    pl = Planner(n=[1000, 10], c=[500, 5], k=2, method="variance-optimal", prior=(1.0, 1.0))
    got = pl.allocate(100)
    assert got.tolist() == [0, 100]


def test_passcurve_rule_prefers_uninformed_hard_problems():
    # an easy, well-measured problem has nothing left to learn about pass@1000; unsampled ones do
    pl = Planner(n=[500, 5, 5], c=[400, 0, 0], k=1000, prior=(0.3, 3.0), rng=0)
    got = pl.allocate(200)
    assert got[0] == 0 and got.sum() == 200
    assert pl.expected_sd(got) < pl.expected_sd(np.array([200, 0, 0]))


def test_passcurve_rule_beats_uniform_on_its_own_objective():
    bench = simulate(problems=40, n=20, rng=3)
    sub = bench.counts.select("base-7b")
    pl = Planner(sub, k=200, method="passcurve", rng=0)
    planned = pl.allocate(800)
    uni = pl.allocate(800, method="uniform")
    assert planned.sum() == uni.sum() == 800
    assert pl.expected_sd(planned) < pl.expected_sd(uni)


def test_hierarchical_stats_match_digamma_formulas():
    # s = dE[(1-p)^K | n, c]/d(log a, log b) and J = -d^2 log M(c, n-c)/d(log a, log b)^2 at m = 0, against
    # closed forms with digamma/trigamma (the planner uses central differences)
    from scipy.special import digamma as dg
    from scipy.special import polygamma

    from passcurve._planner import _hier_stats

    a, b, K = 0.4, 9.0, 300
    n, c = np.array([12.0, 40.0, 7.0]), np.array([0.0, 3.0, 7.0])
    st = _hier_stats(BetaPrior(a, b, 0.0), n, c, K, np.zeros(3, dtype=int))
    h = np.exp(special.betaln(a + c, b + n - c + K) - special.betaln(a + c, b + n - c))
    dlogh_a = dg(a + b + n) - dg(a + b + n + K)
    dlogh_b = (dg(b + n - c + K) - dg(a + b + n + K)) - (dg(b + n - c) - dg(a + b + n))
    np.testing.assert_allclose(st[:, 1], h * a * dlogh_a, rtol=1e-5)
    np.testing.assert_allclose(st[:, 2], h * b * dlogh_b, rtol=1e-5)
    t1 = lambda z: polygamma(1, z)  # noqa: E731
    ga = dg(a + c) - dg(a + b + n) - dg(a) + dg(a + b)
    gaa = t1(a + c) - t1(a + b + n) - t1(a) + t1(a + b)
    gb = dg(b + n - c) - dg(a + b + n) - dg(b) + dg(a + b)
    gbb = t1(b + n - c) - t1(a + b + n) - t1(b) + t1(a + b)
    gab = -t1(a + b + n) + t1(a + b)
    np.testing.assert_allclose(st[:, 3], -(a * a * gaa + a * ga), rtol=1e-4)
    np.testing.assert_allclose(st[:, 4], -(b * b * gbb + b * gb), rtol=1e-4)
    np.testing.assert_allclose(
        st[:, 5], -(a * b * gab), rtol=2e-3
    )  # one-sided cross difference: O(eps) error
    assert np.all(st[:, 0] == 0)


def test_hierarchical_rule_spends_budget_within_caps():
    rng = np.random.default_rng(5)
    p = rng.beta(0.3, 5.0, 30)
    n0 = np.full(30, 10)
    pl = Planner(n=n0, c=rng.binomial(n0, p), k=1000, max_n=60, method="hierarchical", rng=0)
    got = pl.allocate(600, batch=2)
    assert got.sum() == 600 and np.all(got % 2 == 0) and np.all(n0 + got <= 60)
    # the forecast-relevant problems are the unsolved ones: they get most of the budget
    assert got[pl.c_ == 0].sum() >= got[pl.c_ > 0].sum()


def test_uniform_rule_even_spread():
    pl = Planner(n=[3, 7, 1], c=[0, 0, 0], k=5, method="uniform", rng=0)
    got = pl.allocate(10)
    assert got.sum() == 10 and got.max() - got.min() <= 1


# ------------------------------------------------------------------ online loop API
def test_online_loop_next_update():
    rng = np.random.default_rng(0)
    p = np.array([0.0, 0.01, 0.3, 0.9])
    pl = Planner(n=[0] * 4, c=[0] * 4, problem=["a", "b", "c", "d"], k=100, method="fewest-successes", rng=0)
    for _ in range(5):
        ids = pl.next(8)
        assert len(ids) == 8 and set(ids) <= {"a", "b", "c", "d"}
        idx = [pl.problems.index(i) for i in ids]
        pl.update(ids, rng.random(8) < p[idx])
    assert pl.n_.sum() == 40
    assert pl.c_[0] == 0
    f = pl.forecast()
    assert 0 <= f["posterior"] <= 1 and f["posterior_sd"] >= 0
    # single-problem update with several outcomes, by id and by index
    n0, c0 = pl.n_.copy(), pl.c_.copy()
    pl.update("a", [0, 0, 1])
    pl.update(3, [True])
    # three outcomes (one success) on "a", one success on "d" (index 3); nothing else moves
    assert (pl.n_ - n0).tolist() == [3, 0, 0, 1] and (pl.c_ - c0).tolist() == [1, 0, 0, 1]
    assert pl.c_[0] == 1  # "a" (p = 0) had no success before
    pl.update_counts(["b", "c"], [10, 5], [1, 2])
    assert (pl.n_ - n0).tolist() == [3, 10, 5, 1] and (pl.c_ - c0).tolist() == [1, 1, 2, 1]


def test_planner_with_counts_and_ids():
    bench = simulate(problems=30, n=8, rng=1)
    sub = bench.counts.select("chat-7b")
    pl = Planner(sub, k=64, method="variance-optimal")
    ids = pl.next(16)
    assert len(ids) == 16 and set(ids) <= set(sub.problem)
    pl.update(ids[0], [1, 0])


def test_prior_options():
    n, c = np.array([20, 20, 20, 20, 20]), np.array([0, 0, 1, 5, 12])
    for prior in ["beta", "zi_beta", (0.5, 2.0), BetaPrior(0.5, 2.0, 0.0)]:
        pl = Planner(n=n, c=c, k=50, prior=prior)
        assert pl.allocate(40).sum() == 40
    assert Planner(n=n, c=c, k=5, prior="zi_beta").fit_prior().impossible >= 0.0
    # any difficulty model with fit(n=, c=, weight=) and log_moment(c, d), e.g. from fit_difficulty
    from passcurve import ZeroInflatedBetaBinomial

    pl = Planner(n=n, c=c, k=50, prior=ZeroInflatedBetaBinomial(), method="hierarchical")
    assert pl.allocate(40).sum() == 40
    assert 0 <= pl.forecast()["posterior"] <= 1


def test_forecast_posterior_and_its_sd_at_k_1_against_the_closed_form():
    # closed form: under a Beta(a, b) prior a problem's posterior pass@1 is (a + c)/(a + b + n) and its variance
    # AB/((A+B)^2 (A+B+1)), A = a + c, B = b + n - c; a zero-inflated prior keeps the point mass on an unsolved problem
    # with weight r0 = pi0/(pi0 + (1 - pi0) M(0, n)), M(0, n) = prod_{j<n} (b+j)/(a+b+j) (summed in logs with fsum),
    # and the law of total variance adds r0 (1 - r0) (A/(A+B))^2. The forecast took these as differences of log
    # moments: off by 2.3e-8 (posterior) and 3.7e-3 (SD) relative at n = 10^6 and by 1.8e-7 and 1.4 at n = 10^7
    n = np.array([10**6, 10**6, 10**6, 10**7, 10**4, 0])
    c = np.array([0, 2, 40, 5 * 10**6, 17, 0])
    a, b = 0.3, 12.0
    A, B = a + c, b + n - c
    mean, var = A / (A + B), A * B / ((A + B) ** 2 * (A + B + 1))
    for pi0 in (0.0, 0.2):
        log_m = np.array([math.fsum(np.log1p(-a / (a + b + np.arange(m, dtype=np.float64)))) for m in n])
        r0 = np.where(c == 0, pi0 / (pi0 + (1 - pi0) * np.exp(log_m)), 0.0)
        prior = ZeroInflatedBetaPrior(a, b, 0.0, impossible=pi0) if pi0 else BetaPrior(a, b, 0.0)
        got = Planner(n=n, c=c, k=1, prior=prior).forecast()
        assert got["posterior"] == pytest.approx(float(np.mean((1 - r0) * mean)), rel=2e-15, abs=0)
        sd = math.sqrt(float(np.sum((1 - r0) * var + r0 * (1 - r0) * mean**2))) / n.size
        assert got["posterior_sd"] == pytest.approx(sd, rel=2e-15, abs=0)
        assert got["population"] == pytest.approx((1 - pi0) * a / (a + b), rel=2e-15, abs=0)


def test_planner_bad_inputs():
    with pytest.raises(PasscurveError, match="`method`"):
        Planner(n=[1], c=[0], k=5, method="greedy")
    with pytest.raises(PasscurveError, match=r"^`k` must be an integer >= 1 \(got k=0\)$"):
        Planner(n=[1], c=[0], k=0)
    with pytest.raises(PasscurveError, match="`c` must be <= n"):
        Planner(n=[1], c=[2], k=5)
    with pytest.raises(PasscurveError, match="`problem`"):
        Planner(n=[1, 1], c=[0, 0], problem=["a", "a"], k=5)
    pl = Planner(n=[1, 1], c=[0, 0], problem=["a", "b"], k=5, max_n=3)
    with pytest.raises(PasscurveError, match="not one of"):
        pl.update("z", [1])
    with pytest.raises(PasscurveError, match="`outcomes`"):
        pl.update("a", [2])
    with pytest.raises(PasscurveError, match="`outcomes`"):
        pl.update(["a", "b"], [1])
    with pytest.raises(PasscurveError, match="max_n"):
        pl.update("a", [0, 0, 0])
    with pytest.raises(PasscurveError, match="`budget`"):
        pl.allocate(0)
    with pytest.raises(PasscurveError, match="`budget` must be >= `batch`"):
        pl.allocate(5, batch=10)
    with pytest.raises(PasscurveError, match="`prior`"):
        Planner(n=[1], c=[0], k=5, prior="gamma")
    with pytest.raises(PasscurveError, match="plans one"):
        Planner(simulate(problems=5, n=3, rng=0).counts, k=5)
    with pytest.raises(PasscurveError, match="`additional`"):
        pl.expected_sd([1, 2, 3])


# ------------------------------------------------------------------ plan() and PlanResult
def test_plan_result_multi_model():
    bench = simulate(problems=25, n=10, rng=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = plan(bench.counts, budget=100, k=100, batch=5, method="fewest-successes", rng=0)
    assert isinstance(res, PlanResult)
    assert res.models == bench.counts.models
    for m in res.models:
        sel = res.model == m
        assert res.additional[sel].sum() == 100
    assert np.all(res.additional % 5 == 0)
    d = res.to_dict()
    json.dumps(d)
    assert d["budget"] == 100 and len(d["allocation"]["problem"]) == len(bench.counts)
    s = d["summary"][0]
    assert s["expected_sd_after"] <= s["forecast_sd"] + 1e-12
    frame = res.to_frame()
    assert list(frame.columns) == ["model", "problem", "n", "c", "p_hat", "additional", "prior"]
    fig = res.plot()
    assert len(fig.data) == len(res.models)


def test_plan_arrays_and_errors():
    res = plan(n=[10, 10, 10, 10, 10], c=[0, 1, 3, 4, 6], budget=30, k=50, method="variance-optimal")
    assert res.additional.sum() == 30
    with pytest.raises(PasscurveError, match="`budget`"):
        plan(n=[10], c=[1], budget=-1, k=5)
    with pytest.raises(PasscurveError, match=r"^give either `counts` or `n` and `c`, not both$"):
        plan(Counts.from_arrays([1], [0]), n=[1], c=[0], budget=5, k=5)
    with pytest.raises(PasscurveError, match=r"^`counts` must be a passcurve\.Counts \(got list\); build one with "
                                             r"Counts\.from_arrays\(n, c\)$"):
        plan([1, 2], budget=5, k=5)


# ------------------------------------------------------------------ CLI (end to end on a counts file)
@pytest.fixture(scope="module")
def counts_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("plan") / "counts.csv"
    bench = simulate(problems=30, n=20, rng=4)
    write_counts(bench.counts.select("base-7b"), path)
    return path


def test_cli_plan_table_breaks_ties_in_natural_order(icli, tmp_path):
    # problems given the same number of samples were listed in the counts' text order ('1003' before '201'; Pythia's
    # ids are numbers); ties now read as a person orders the ids (201 before 1003, p2 before p10). Reference: the
    # same problems, allocated by the Python API, sorted by hand on (-additional, numeric id)
    path = tmp_path / "ids.csv"
    ids = ["1003", "201", "p10", "p2", "77", "5"]
    path.write_text("problem_id,n,c\n" + "".join(f"{i},20,0\n" for i in ids), encoding="utf-8")
    r = icli("plan", str(path), "--budget", "60", "--k", "1000", "--method", "fewest-successes", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    shown = [line.split("│")[1].strip() for line in r.stdout.splitlines() if line.startswith("│")]
    from passcurve.data import read_counts

    api = plan(read_counts(path), budget=60, k=1000, method="fewest-successes", rng=0)
    by_hand = sorted((i for i in range(len(ids)) if api.additional[i] > 0),
                     key=lambda i: (-int(api.additional[i]), (0, int(api.problem[i])) if api.problem[i].isdigit()
                                    else (1, int(api.problem[i][1:]))))
    assert shown == [str(api.problem[i]) for i in by_hand]
    assert shown.index("201") < shown.index("1003") and shown.index("p2") < shown.index("p10")
    # no success here: the prior is Jeffreys' fallback, and the caption names it (a fitted prior's caption:
    # test_cli_plan_json_and_csv)
    assert "under Jeffreys' prior Beta(0.5, 0.5)" in r.stdout and "fitted prior" not in r.stdout, r.stdout


def test_cli_plan_json_and_csv(icli, counts_csv):
    r = icli("plan", str(counts_csv), "--budget", "200", "--k", "1000", "--batch", "4", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["method"] == "hierarchical" and d["k"] == 1000
    assert sum(d["allocation"]["additional"]) == 200
    assert all(v % 4 == 0 for v in d["allocation"]["additional"])
    # the same numbers as the Python API on the same counts
    from passcurve.data import read_counts

    api = plan(read_counts(counts_csv), budget=200, k=1000, batch=4, rng=0)
    assert api.additional.tolist() == d["allocation"]["additional"]
    r = icli(
     "plan", str(counts_csv), "--budget", "50", "--k", "100", "--method", "fewest-successes", "--csv"
 )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "model,problem,n,c,p_hat,additional,prior" and len(lines) == 31
    r = icli("plan", str(counts_csv), "--budget", "50", "--k", "100", env={"COLUMNS": "400"})
    assert r.returncode == 0 and "new samples" in r.stdout
    # the header names what its spreads are (it printed a bare "0.7287 ± 0.0144"): the JSON's forecast_sd and
    # expected SDs, labelled
    s = json.loads(icli("plan", str(counts_csv), "--budget", "50", "--k", "100", "--json").stdout)["summary"][0]
    # the headline's SD is the hierarchical one, which counts the prior's uncertainty (the SD given the fitted
    # prior held the truth within +-1.96 SD in 21 of 40 simulated loops, benchmarks/planner_sd_coverage.py); the
    # given-the-prior figures follow, as the plans are compared on them
    assert (f"forecast {s['forecast_bayes']:.4f} now, SD {s['forecast_bayes_sd']:.4f} (hierarchical Bayes); given the "
            f"fitted prior {s['forecast']:.4f}, SD {s['forecast_sd']:.4f} now, expected SD "
            f"{s['expected_sd_after']:.4f} after this plan (uniform: {s['expected_sd_after_uniform']:.4f})") in r.stdout
    assert "±" not in r.stdout
    # the p̂ column says what it is (the posterior mean under the fitted prior, PlanResult.p_hat), not a bare symbol
    assert "p̂: the problem's posterior mean success rate E[p | n, c] under the fitted prior" in r.stdout
    # the caption says what 'the fitted prior' is: the planner's own posterior-mode fit, not fit's maximum likelihood
    # (its forecast differs from forecast's beta eb column, and nothing had said why; helper-104's review)
    assert "fitted prior: the planner's Beta, the posterior mode under the weak hyperprior" in r.stdout, r.stdout
    # --hedge: the same allocation as the Python API with the same defensive share
    r = icli("plan", str(counts_csv), "--budget", "60", "--k", "100", "--hedge", "0.5", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    api = plan(read_counts(counts_csv), budget=60, k=100, hedge=0.5, rng=0)
    assert api.additional.tolist() == d["allocation"]["additional"]
    assert d["summary"][0]["hedge"] == 0.5 and 0 <= d["summary"][0]["forecast_bayes"] <= 1


@pytest.mark.parametrize(
    "args, msg",
    [
        (["--budget", "10", "--k", "5", "--method", "bogus"], "`--method`"),
        (["--budget", "10", "--k", "5", "--batch", "20"], "`--budget` must be >= `--batch`"),
        (["--budget", "10", "--k", "5", "--json", "--csv"], "--json"),
        (["--budget", "10", "--k", "5", "--hedge", "1.5"], "`--hedge`"),
        # worded as every other count (it read "`--top` must be >= 1 (got 0)")
        (["--budget", "10", "--k", "5", "--top", "0"], "`--top` must be an integer >= 1 (got --top=0)"),
        # the library's message offered a BetaPrior, (alpha, beta) or a difficulty model, which no option takes
        (["--budget", "10", "--k", "5", "--prior", "gamma"], "`--prior` must be beta, zi_beta, scaled_beta, "
         "beta_mixture, npmle or a fixed Beta as ALPHA,BETA (got 'gamma')"),
        # a fixed Beta as ALPHA,BETA: two numbers, finite and positive (the last two in the library's words)
        (["--budget", "10", "--k", "5", "--prior", "1,2,3"], "`--prior` ALPHA,BETA must be two numbers (got 3 in "
         "'1,2,3')"),
        (["--budget", "10", "--k", "5", "--prior", "1,x"], "`--prior` ALPHA,BETA must be two numbers (got '1,x')"),
        (["--budget", "10", "--k", "5", "--prior", "0,1"], "`--prior` needs alpha > 0 and beta > 0 (got 0, 1)"),
        (["--budget", "10", "--k", "5", "--prior", "inf,1"], "`--prior` contains NaN or an infinite value"),
    ],
)
def test_cli_plan_bad_inputs(icli, counts_csv, args, msg):
    # the first case through `python -m passcurve` (the interpreter's exit code, no traceback), the others in-process
    run = run_cli if "bogus" in args else icli
    r = run("plan", str(counts_csv), *args)
    assert r.returncode == 2
    assert msg in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_cli_plan_prior_takes_a_fixed_beta_and_model_names(icli, counts_csv):
    # --prior took beta or zi_beta only; the library also plans with a fixed (alpha, beta) and with a difficulty
    # model. ALPHA,BETA is the pair, a model's name a fresh model of DIFFICULTY_MODELS: the plan is the library's
    from passcurve import DIFFICULTY_MODELS
    from passcurve.data import read_counts

    counts = read_counts(counts_csv)
    for arg, api in (("1,2", (1.0, 2.0)), ("0.5, 0.5", (0.5, 0.5)), ("npmle", DIFFICULTY_MODELS["npmle"]())):
        r = icli("plan", str(counts_csv), "--budget", "40", "--k", "100", "--prior", arg, "--json")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        ref = plan(counts, budget=40, k=100, prior=api, rng=0)
        assert d["allocation"]["additional"] == ref.additional.tolist()
        assert d["summary"][0]["prior"] == ("fixed" if isinstance(api, tuple) else "npmle")
    # a name is the same prior in Python: plan(prior="npmle") is plan(prior=GridMixture())
    assert (plan(counts, budget=40, k=100, prior="npmle", rng=0).additional.tolist()
            == plan(counts, budget=40, k=100, prior=DIFFICULTY_MODELS["npmle"](), rng=0).additional.tolist())


def test_plan_summary_gives_a_difficulty_models_own_parameters():
    # an npmle or Beta-mixture prior has no alpha and beta: the summary had read alpha = beta = 1 (the adapter's
    # defaults), and a scaled Beta's alpha and beta said nothing of its scale. Now alpha and beta are the model's
    # own or None, and prior_params its fit's params_ (the values of fit_difficulty's fit on the same counts)
    from passcurve import fit_difficulty

    counts = simulate(problems=40, n=20, rng=3).counts.select("base-7b")
    for name in ("npmle", "scaled_beta"):
        s = plan(counts, budget=20, k=100, prior=name, rng=0).summary[0]
        ref = fit_difficulty(counts, model=[name])[counts.models[0]][name].params_
        assert s["prior_params"] == pytest.approx(dict(ref), rel=1e-6)
        assert (s["alpha"], s["beta"]) == ((None, None) if name == "npmle" else (ref["alpha"], ref["beta"]))
        assert s["impossible"] == pytest.approx(ref.get("impossible", 0.0))
        json.dumps(plan(counts, budget=20, k=100, prior=name, rng=0).to_dict())
    s = plan(counts, budget=20, k=100, prior=(1, 2), rng=0).summary[0]
    assert (s["alpha"], s["beta"], s["impossible"], s["prior_params"]) == (1.0, 2.0, 0.0, None)


def test_plan_prior_words_of_priors_only_python_gives():
    # _prior_words for summaries the command line cannot produce but a PlanResult from Python can: a fixed
    # zero-inflated Beta, and a model object of no known name ("the difficulty model model, fitted by maximum
    # likelihood" had been said of it)
    from passcurve.cli._plan import _prior_words

    given, under, note = _prior_words({"prior": "fixed", "alpha": 0.5, "beta": 2.0, "impossible": 0.1})
    assert given == "given the fixed prior Beta(0.5, 2) with P(p = 0) = 0.1 (not fitted)" and note is None
    given, under, note = _prior_words({"prior": "model", "alpha": None, "beta": None, "impossible": 0.0})
    assert note == "fitted model prior: a difficulty model given in Python, fitted by its fit()"


@pytest.mark.parametrize(("prior", "said", "unsaid"), [
    # nothing is fitted: the title and the caption had said "given the fitted prior" and "the planner's Beta, the
    # posterior mode under the weak hyperprior" of a fixed Beta(1, 2)
    ("1,2", ["given the fixed prior Beta(1, 2) (not fitted) ", "E[p | n, c] under the fixed prior Beta(1, 2)"],
     ["the fitted prior", "hyperprior"]),
    # an npmle fit is no Beta and no posterior mode
    ("npmle", ["given the fitted npmle prior ", "E[p | n, c] under the fitted npmle prior",
               "fitted npmle prior: the difficulty model npmle, fitted by maximum likelihood"],
     ["the planner's Beta", "hyperprior"]),
    ("zi_beta", ["given the fitted prior ", "fitted prior: the planner's zero-inflated Beta, the posterior mode under "
                 "the weak hyperprior", "(forecast's 'zi beta' column uses that one)"], ["the planner's Beta,"]),
])
def test_cli_plan_title_names_the_prior_used(icli, counts_csv, prior, said, unsaid):
    r = icli("plan", str(counts_csv), "--budget", "20", "--k", "100", "--prior", prior, env={"COLUMNS": "400"})
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())  # the caption may wrap
    for words in said:
        assert words in text, (words, text)
    for words in unsaid:
        assert words not in text, (words, text)


@pytest.mark.parametrize("prior", [BetaPrior(0.3, 4.0, 0.0), ZeroInflatedBetaPrior(0.3, 4.0, 0.0, impossible=0.1)])
def test_outcome_sums_in_row_chunks_equal_one_pass(prior, monkeypatch):
    # the exact sums over outcomes run in groups of rows with a bounded number of (row, outcome)
    # pairs (20,000 problems made them 3 GB at once); the rows are independent, so the groups
    # must give exactly the one-pass values
    from passcurve import _planner

    rng = np.random.default_rng(3)
    n = rng.integers(5, 200, 300).astype(np.float64)
    c = rng.binomial(n.astype(np.int64), rng.beta(0.3, 4.0, 300)).astype(np.float64)
    m = rng.choice([1, 8, 64, 512], 300)
    whole_r = preposterior_reduction(prior, n, c, 1000, m)
    whole_h = _planner._hier_stats(prior, n, c, 1000.0, m)
    monkeypatch.setattr(_planner, "_OUTCOMES_MAX", 500)
    np.testing.assert_array_equal(preposterior_reduction(prior, n, c, 1000, m), whole_r)
    np.testing.assert_array_equal(_planner._hier_stats(prior, n, c, 1000.0, m), whole_h)


@pytest.mark.parametrize("prior", [BetaPrior(0.3, 4.0, 0.0), ZeroInflatedBetaPrior(0.3, 4.0, 0.0, impossible=0.1)])
def test_outcome_sums_of_repeated_rows_equal_rows_one_by_one(prior):
    # the sums are computed once per distinct (n, c, m): a benchmark of one n has at most n + 1
    # distinct rows per look-ahead; every row must get exactly what it gets when evaluated alone
    rng = np.random.default_rng(4)
    n = np.full(400, 20.0)
    n[:50] = rng.integers(5, 40, 50)
    c = rng.binomial(n.astype(np.int64), rng.beta(0.3, 4.0, 400)).astype(np.float64)
    m = rng.choice([0, 1, 8, 64], 400)
    got_r = preposterior_reduction(prior, n, c, 1000, m)
    from passcurve import _planner

    got_h = _planner._hier_stats(prior, n, c, 1000.0, m)
    for i in range(0, 400, 7):
        one = slice(i, i + 1)
        assert got_r[i] == preposterior_reduction(prior, n[one], c[one], 1000, m[one])[0]
        np.testing.assert_array_equal(got_h[i], _planner._hier_stats(prior, n[one], c[one], 1000.0, m[one])[0])


def _greedy_hierarchical_scan_all(prior, n, c, k, step, units, room, w, horizon, hyper):
    """The hierarchical rule's greedy loop written plainly: every problem a candidate in every round."""
    from passcurve._planner import _MAX_ROUNDS, _hier_stats, _quad

    N = n.size
    out = np.zeros(N, dtype=np.int64)
    chunk = max(1, -(-units // _MAX_ROUNDS))
    h_units = max(1, horizon // step)
    sizes = 8 ** np.arange(int(np.log(max(h_units, 1)) / np.log(8)) + 1)
    s_all = np.concatenate([[0], sizes])

    def stats(i):
        mm = (out[i] + s_all) * step
        st = _hier_stats(prior, np.full(s_all.size, n[i]), np.full(s_all.size, c[i]), k, mm)
        st[(out[i] + s_all) > max(room[i], out[i])] = np.nan
        return st

    cache = np.stack([stats(i) for i in range(N)])
    ab = prior.alpha * prior.beta / (prior.alpha + prior.beta) ** 2
    left = units
    while left > 0:
        cur = cache[:, 0, :]
        S = (float(np.dot(w, cur[:, 1])), float(np.dot(w, cur[:, 2])))
        J = cur[:, 3:].sum(axis=0) + np.array([hyper * ab + 1e-9, hyper * ab + 1e-9, -hyper * ab])
        gains = np.full(N, -np.inf)
        q_now = _quad(*(np.array([v]) for v in (S[0], S[1], J[0], J[1], J[2])))[0]
        for i in range(N):
            if out[i] >= room[i]:
                continue
            new = cache[i, 1:, :]
            q_new = _quad(S[0] + w[i] * (new[:, 1] - cur[i, 1]), S[1] + w[i] * (new[:, 2] - cur[i, 2]),
                          J[0] + new[:, 3] - cur[i, 3], J[1] + new[:, 4] - cur[i, 4], J[2] + new[:, 5] - cur[i, 5])
            assert np.isfinite(q_now)
            g = (w[i] ** 2 * (new[:, 0] - cur[i, 0]) + (q_now - q_new)) / (sizes * step)
            gains[i] = np.max(np.where(np.isnan(g), -np.inf, g))
        i = int(np.argmax(gains))  # the first problem with the largest gain
        if not np.isfinite(gains[i]):
            break
        take = int(min(chunk, left, room[i] - out[i]))
        out[i] += take
        left -= take
        cache[i] = stats(i)
    return out


def test_hierarchical_rule_with_many_identical_problems_equals_scanning_all():
    # the greedy loop only scores the first untouched problem of each group of identical problems
    # and the problems already given samples; that must choose exactly what scanning every problem does
    from passcurve._planner import _alloc_hierarchical

    rng = np.random.default_rng(8)
    N = 60
    n = np.full(N, 10.0)
    c = rng.binomial(10, rng.beta(0.3, 3.0, N)).astype(np.float64)
    room = np.full(N, 400, dtype=np.int64)
    room[:5] = 3
    w = np.full(N, 1.0 / N)
    prior = BetaPrior(0.35, 3.2, 0.0)
    got = _alloc_hierarchical(prior, n, c, 500.0, 2, 150, room, w, 600, 2.5)
    ref = _greedy_hierarchical_scan_all(prior, n, c, 500.0, 2, 150, room, w, 600, 2.5)
    assert got.sum() == 150
    np.testing.assert_array_equal(got, ref)
    assert len(set(zip(n.tolist(), c.tolist(), strict=True))) < 12  # the case really has large groups of identical problems


def test_a_fallback_prior_says_its_forecast_is_not_an_estimate():
    # nothing solved yet: the planner starts from Jeffreys' prior to place samples; its "forecast" of pass@K
    # (0.70 here) is the prior's, and the result must say so (it printed 0.6981 +- 0.0357 as if estimated)
    from passcurve import DegenerateDataWarning

    counts = Counts.from_arrays(np.full(100, 100), np.zeros(100, int))
    with pytest.warns(DegenerateDataWarning, match=r"Jeffreys' prior Beta\(0\.5, 0\.5\): no successes yet; .* not an "
                                                  r"estimate from the data"):
        res = plan(counts, budget=200, k=1000)
    assert any("not an estimate" in w for w in res.warnings)


def test_a_fallback_prior_is_labelled_as_such(tmp_path, icli):
    # three problems at n = 10 with no success: the prior used is Jeffreys' Beta(0.5, 0.5), no fit; the summary had
    # said prior "zi_beta" and fit_success true (the warning alone told the truth)
    with pytest.warns(passcurve.DegenerateDataWarning):
        res = plan(n=[10] * 3, c=[0] * 3, budget=10, k=100, prior="zi_beta", rng=0)
    s = res.summary[0]
    assert (s["prior"], s["alpha"], s["beta"], s["fit_success"]) == ("jeffreys", 0.5, 0.5, False)
    pl = Planner(n=[0, 0, 4], c=[0, 0, 1], k=10)  # one problem sampled: the uniform prior Beta(1, 1)
    assert (pl.fit_prior().success, pl.prior_label_) == (False, "uniform")
    pl.update_counts(["0", "1"], [10, 10], [2, 9])  # now a fit
    assert pl.fit_prior().success and pl.prior_label_ == "beta"
    # a fitted plan keeps its labels
    s = plan(n=[10] * 4, c=[1, 2, 0, 5], budget=8, k=50, rng=0).summary[0]
    assert (s["prior"], s["fit_success"]) == ("beta", True)
    path = tmp_path / "none.csv"
    path.write_text("problem_id,n,c\na,10,0\nb,10,0\nc,10,0\n")
    r = icli("plan", str(path), "--budget", "10", "--k", "100", "--prior", "zi_beta", env={"COLUMNS": "400"})
    assert r.returncode == 0, r.stderr
    assert "given Jeffreys' prior Beta(0.5, 0.5) (a fallback, not a fit) 0.6950" in r.stdout  # the table's title
    assert "fitted prior" not in r.stdout
    d = json.loads(icli("plan", str(path), "--budget", "10", "--k", "100", "--prior", "zi_beta", "--json").stdout)
    assert (d["summary"][0]["prior"], d["summary"][0]["fit_success"]) == ("jeffreys", False)


def test_the_plan_summary_names_a_fixed_prior_and_a_model_prior():
    # a fixed prior (1, 2) is given, not fitted: the summary had said prior "beta" and fit_success true (its nested
    # conditional knew only the fallbacks, beta and zi_beta); it now reads Planner.prior_label_, "fixed", and
    # fit_success None (JSON null: nothing was fitted)
    n, c = [10] * 8, [1, 2, 0, 5, 3, 0, 4, 10]
    for fixed in ((1, 2), np.array([1.0, 2.0]), BetaPrior(1.0, 2.0, float("nan"), True, "given")):
        res = plan(n=n, c=c, budget=8, k=50, prior=fixed, rng=0)
        s = res.summary[0]
        assert (s["prior"], s["fit_success"], s["alpha"], s["beta"]) == ("fixed", None, 1.0, 2.0)
        d = json.loads(json.dumps(res.to_dict()))
        assert (d["summary"][0]["prior"], d["summary"][0]["fit_success"]) == ("fixed", None)
    # even where the data would have no fit (no success yet), a given prior is used as given
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = plan(n=[10] * 3, c=[0] * 3, budget=10, k=5, prior=(1, 2), rng=0).summary[0]
    assert (s["prior"], s["fit_success"]) == ("fixed", None)
    # a difficulty model is named by its own `name`: a ScaledBetaBinomial had read "beta", a BetaMixtureBinomial
    # "zi_beta" and a GridMixture "beta" (the label came from the impossible mass); BetaBinomial and
    # ZeroInflatedBetaBinomial keep "beta" and "zi_beta"
    models = (passcurve.BetaBinomial(), passcurve.ZeroInflatedBetaBinomial(), passcurve.ScaledBetaBinomial(),
              passcurve.BetaMixtureBinomial(), passcurve.GridMixture())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        labels = [plan(n=n, c=c, budget=8, k=50, prior=m, rng=0).summary[0]["prior"] for m in models]
    assert labels == ["beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"]


def test_plan_title_and_table_write_no_value_below_one_as_one(tmp_path, icli):
    # four problems at c/n 0.6-0.9 and one at 5000/5000, K = 50: the title read "forecast 1.0000 now" and "given the
    # fitted prior 1.0000" for forecasts of 0.99999985 and 0.99999969, and p̂ of problem e (0.99998118) read 1.0000.
    # The forecasts are fmt_below_one's, the p̂ column number_format's below_one (references: the --json values)
    from passcurve._validation import fmt_below_one

    path = tmp_path / "easy.csv"
    path.write_text("problem_id,n,c\na,10,8\nb,10,9\nc,10,7\nd,10,6\ne,5000,5000\n")
    args = ("plan", str(path), "--budget", "10", "--k", "50", "--method", "uniform")
    d = json.loads(icli(*args, "--json").stdout)
    s, p_e = d["summary"][0], d["allocation"]["p_hat"][4]
    assert s["forecast_bayes"] < 1 and s["forecast"] < 1 and p_e < 1
    r = icli(*args, env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    title = r.stdout.splitlines()[0]
    assert (f"forecast {fmt_below_one(s['forecast_bayes'])} now" in title
            and f"given the fitted prior {fmt_below_one(s['forecast'])}," in title and "1.0000" not in title), title
    row = next(line for line in r.stdout.splitlines() if re.match(r"│\s*e │", line))
    shown = re.findall(r"[\d.]+", row)[2]  # n, c, p̂
    assert float(shown) < 1 and abs(float(shown) - p_e) <= 0.5 * 10.0 ** -len(shown.split(".")[1]), row


def test_a_one_shot_plan_starts_from_nothing_as_the_planner_does(tmp_path):
    # plan(n=[0, 0], ...) said "`n` must be >= 1" where Planner(n=[0, 0]) plans the first samples; the arrays now go
    # to the Planner as they are. Reference: the Planner's own allocation from the same counts and seed
    n, c = [0, 0, 10, 10], [0, 0, 3, 7]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = plan(n=n, c=c, budget=10, k=5, rng=0)
        ref = Planner(n=n, c=c, k=5, rng=0).allocate(10)
    assert res.additional.tolist() == ref.tolist() and res.additional.sum() == 10
    assert res.n.tolist() == n and res.problem.tolist() == ["0", "1", "2", "3"] and res.summary[0]["samples_so_far"] == 20
    with pytest.warns(passcurve.DegenerateDataWarning, match="fewer than two problems sampled"):
        empty = plan(n=[0, 0], c=[0, 0], budget=10, k=5, rng=0)
    assert empty.additional.tolist() == [5, 5] and empty.summary[0]["prior"] == "uniform"
    # a Counts object, and so a counts file, still needs n >= 1: n = 0 there is a row with no samples
    path = tmp_path / "zero.csv"
    path.write_text("problem_id,n,c\na,0,0\nb,4,1\n")
    with pytest.raises(PasscurveError, match=r"`n` must be >= 1 .*row 1 \(problem 'a'\) has n=0"):
        passcurve.read_counts(path)
    with pytest.raises(PasscurveError, match=r"^`n` must be >= 0 \(got n=-1\)"):
        plan(n=[-1, 2], c=[0, 1], budget=4, k=2)


def test_variance_optimal_fills_the_next_tier_when_the_first_is_capped():
    # At K = 10^4 the weights sqrt(p (1-p)^(2K-1)) of c = 5 problems are ~e^-7000 of those of c = 0 ones and
    # underflowed to 0: with max_n = 12 the two c = 0 problems were filled and 46 of the 50 samples left unspent.
    # Water-filling: once the heavy problems are at their cap the rest go to the others, up to their caps.
    res = plan(n=[10] * 12, c=[0, 0] + [5] * 10, budget=50, k=10_000, method="variance-optimal", max_n=12, rng=0)
    assert res.additional.tolist() == [2] * 12
    # without a cap the two heavy problems take everything, as the rule says
    res = plan(n=[10] * 12, c=[0, 0] + [5] * 10, budget=50, k=10_000, method="variance-optimal", rng=0)
    assert res.additional.tolist() == [25, 25] + [0] * 10
    # a budget that fills the first tier (4 samples) and only part of the next (6 of its 20 places): the next tier's
    # weights are equal, so 6 of its problems get one sample each (the tier's room was counted into the first's,
    # which then looked too large to fill and was water-filled with more samples than it could hold)
    res = plan(n=[10] * 12, c=[0, 0] + [5] * 10, budget=10, k=10_000, method="variance-optimal", max_n=12, rng=0)
    assert res.additional[:2].tolist() == [2, 2]
    assert sorted(res.additional[2:].tolist()) == [0] * 4 + [1] * 6


def test_a_budget_max_n_cannot_hold_is_said():
    # 5 problems at n = 10 with max_n = 20 hold 50 more samples: a budget of 1,000 placed 50 without a word, the
    # shortfall visible only in summary['new_samples'] (second user review)
    with pytest.warns(passcurve.PasscurveWarning, match=r"50 of the budget's 1,000 samples could be placed; every "
                                                        r"other problem is at max_n=20 or has weight 0"):
        res = plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=1000, k=100, max_n=20, rng=0)
    assert res.additional.tolist() == [10] * 5 and any("could be placed" in w for w in res.warnings)
    with warnings.catch_warnings():  # a budget that fits: nothing said
        warnings.simplefilter("error", passcurve.PasscurveWarning)
        plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=40, k=100, max_n=20, rng=0)
    # every problem already at max_n: none placed, and 'every other problem' named problems that got none
    with pytest.warns(passcurve.PasscurveWarning, match=r"0 of the budget's 40 samples could be placed; every problem "
                                                        r"is at max_n=10 or has weight 0"):
        plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=40, k=100, max_n=10, rng=0)
    # in batches of 5 a problem at n = 10 is full under max_n = 12 (10 + 5 > 12): it had been said to be 'at max_n=12'
    with pytest.warns(passcurve.PasscurveWarning, match=r"0 of the budget's 40 samples could be placed; every problem "
                                                        r"is within a batch \(5\) of max_n=12 or has weight 0"):
        res = plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=40, k=100, max_n=12, batch=5, rng=0)
    assert res.additional.tolist() == [0] * 5


def test_a_budget_off_the_batch_grid_is_said(icli, counts_csv):
    # budget=105, batch=10 planned 100 samples and dropped the other 5 without a word (API review); the result's
    # budget was 100, so only a careful reader could tell. Hand count: 105 = 10 * 10 + 5.
    said = ("the budget of 105 samples is not a multiple of the batch of 10: 100 samples per model are planned "
            "(whole batches), the other 5 are not spent")
    with pytest.warns(passcurve.PasscurveWarning, match=re.escape(said)):
        res = plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=105, k=20, batch=10, rng=0)
    assert res.budget == 100 and int(res.additional.sum()) == 100 and res.warnings == (f"PasscurveWarning: {said}",)
    with warnings.catch_warnings():  # a whole number of batches: nothing said
        warnings.simplefilter("error", passcurve.PasscurveWarning)
        plan(n=[10] * 5, c=[1, 2, 3, 0, 5], budget=100, k=20, batch=10, rng=0)
    # the command line: exit 0, the warning on stderr, the JSON's schema as before (budget 100, the warning listed)
    r = icli("plan", str(counts_csv), "--budget", "105", "--k", "100", "--batch", "10", "--json")
    assert r.returncode == 0 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    d = json.loads(r.stdout)
    assert d["budget"] == 100 and sum(d["allocation"]["additional"]) == 100 and d["warnings"] == list(res.warnings)


def test_planner_ids_that_read_as_integers_are_not_positions():
    pl = Planner(n=[5, 5, 5], c=[0, 0, 0], problem=["10", "0", "1"], k=10)
    pl.update(1, [1])  # id "1" (position 2), not position 1
    assert pl.c_.tolist() == [0, 0, 1]
    with pytest.raises(PasscurveError, match=r"`problem` 2 is not one of the planner's problems"):
        pl.update(2, [1])
    with pytest.raises(PasscurveError, match=r"`problem` has 2 ids but `n` has 3 values"):
        pl.update_counts(["0", "1"], [1, 2, 3], [0, 0, 0])
    # ids that are not integers still accept positions
    named = Planner(n=[5, 5], c=[0, 0], problem=["a", "b"], k=10)
    named.update(1, [1])
    assert named.c_.tolist() == [0, 1]


@pytest.mark.parametrize(("prior", "msg"), [
    # a set was read in its hash order: {0.5, 2.0} could be Beta(2, 0.5)
    ({0.5, 2.0}, r'^`prior` must be "beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle", a BetaPrior, '
                 r"\(alpha, beta\) or a difficulty model \(got a set, which has no order\)$"),
    # (inf, 1) planned nothing after numpy's invalid-value warnings: "0 of the budget's 20 samples could be placed"
    ((np.inf, 1.0), r"^`prior` contains NaN or an infinite value$"),
    (("1", 2), r"^`prior` must contain numbers \(got '1'\)$"),  # the text "1" had been the number 1
    ((1, 2, 3), r'^`prior` must be .* or a difficulty model \(got 3 numbers\)$'),
])
def test_plan_prior_pair_is_two_finite_numbers_in_order(prior, msg):
    c = Counts.from_arrays([10, 10, 10, 10], [1, 5, 0, 3], problem=list("abcd"))
    with pytest.raises(PasscurveError, match=msg):
        plan(c, budget=20, k=20, rng=0, prior=prior)
    # (alpha, beta) as a tuple, a list or an array is one fixed prior: the same plan (same seed)
    same = [plan(c, budget=20, k=20, rng=0, prior=p).n.tolist() for p in ((0.5, 2.0), [0.5, 2.0], np.array([0.5, 2.0]))]
    assert same[0] == same[1] == same[2]


def test_planner_update_outcomes_ragged_or_2d_is_refused():
    # a ragged outcomes list was numpy's ValueError "setting an array element with a sequence"; a 2-d one was
    # flattened into one problem's samples (4 new samples of 'a') without a word (API sweep)
    pl = Planner(counts=Counts.from_arrays([10, 10], [1, 5], problem=["a", "b"]), k=20, rng=0)
    with pytest.raises(PasscurveError, match=r"^`outcomes` must be an array of integers \(got a ragged sequence\)$"):
        pl.update("a", [[1, 0], [1]])
    with pytest.raises(PasscurveError, match=r"^`outcomes` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$"):
        pl.update("a", [[1, 0], [1, 1]])
    assert pl.update("a", [1, 0, 1]).n_.tolist() == [13, 10] and pl.c_.tolist() == [3, 5]  # hand count: 10+3, 1+2


def test_the_largest_budget_plans_and_one_more_is_refused():
    # the cap is MAX_RESAMPLES (10^7 samples per model: the look-ahead's memory, about 70 bytes a sample); the cap
    # itself plans (uniform: the budget split evenly over the 2 problems, hand count 5 * 10^6 each)
    res = plan(n=[2, 4], c=[1, 2], budget=10**7, k=20, method="uniform", rng=0)
    assert list(res.additional) == [5 * 10**6, 5 * 10**6]
    with pytest.raises(PasscurveError, match=r"^`budget` is too large \(got budget=2e\+07, max 1e\+07\)$"):
        plan(n=[2, 4], c=[1, 2], budget=2 * 10**7, k=20, method="uniform")


def test_plan_names_the_model_of_each_fit_warning(icli, tmp_path):
    # 'all' solved every sample (8 of 8 on 6 problems), 'none' none: each planner falls back to Jeffreys' prior, and
    # plan() said 'no failures yet' and 'no successes yet' without naming either model
    rows = [f"all,p{i},8,8" for i in range(6)] + [f"none,p{i},8,0" for i in range(6)]
    path = tmp_path / "extreme.csv"
    path.write_text("model,problem_id,n,c\n" + "\n".join(rows) + "\n")
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        res = plan(passcurve.read_counts(path), budget=12, k=20, rng=0)
    said = [str(w.message) for w in got if "Jeffreys" in str(w.message)]
    assert [s.split(": the planner's")[0] for s in said] == ["model 'all'", "model 'none'"], said
    assert "no failures yet" in said[0] and "no successes yet" in said[1]
    assert sum("Jeffreys" in w for w in res.warnings) == 2
    r = icli("plan", str(path), "--budget", "12", "--k", "20")
    assert r.returncode == 0 and "model 'all': the planner's" in r.stderr and "model 'none': the planner's" in r.stderr


@pytest.mark.parametrize("prior", ["beta", "zi_beta"])
@pytest.mark.parametrize("k", [10**8, 10**15])
def test_expected_sd_keeps_its_digits_at_a_huge_k(prior, k):
    # the look-ahead took E[(1-p)^K | c, d] as a difference of log moments of order K log K: at K = 10^15 the expected
    # SD after 10 samples of the demo's tiny-1b read 5.7e-10 against an SD now of 0.018. With no new samples it is
    # the SD now; reference: forecast()'s posterior_sd, from the fitted model's conjugate posterior (another code path)
    counts = simulate(problems=50, n=20, rng=0).counts.select("tiny-1b")
    if prior == "zi_beta":  # with impossible mass: 20 problems never solved in 2,000 samples
        counts = Counts.from_arrays(np.r_[np.full(20, 2000), counts.n], np.r_[np.zeros(20, int), counts.c])
    pl = Planner(counts, k=k, prior=prior, rng=0)
    assert pl.fit_prior().impossible > 0 if prior == "zi_beta" else True
    now = pl.forecast()["posterior_sd"]
    assert pl.expected_sd(np.zeros(len(pl.problems), int)) == pytest.approx(now, rel=1e-9)
    after = pl.expected_sd(pl.allocate(10))
    assert 0.5 * now < after <= now  # 10 samples over 50+ problems remove a little of the variance, not all of it


def test_hierarchical_sensitivity_to_the_prior_keeps_its_digits_at_a_huge_k():
    # the hierarchical rule's S = d E[(1-p)^K] / d(log alpha, log beta), central differences between priors 0.1%
    # apart, lost its digits to the same subtraction: on Pythia 160M it was off by 1.5% at K = 10^7 and 39% at 10^8.
    # Reference: the same differences of h from _beta_log_moment's exact log moments (_difficulty, 1e-15 relative)
    from passcurve._adaptive import BetaPrior as _Beta
    from passcurve._difficulty import _beta_log_moment
    from passcurve._planner import _EPS, _hier_stats

    rng = np.random.default_rng(5)
    n = np.full(60, 10_000.0)
    c = rng.binomial(10_000, rng.beta(0.17, 55.0, 60)).astype(float)  # Pythia 160M's fitted Beta (its JSON summary)
    prior, k = _Beta(0.167, 55.16, float("nan")), 10**8
    st = _hier_stats(prior, n, c, k, np.zeros(60, dtype=np.int64))

    def h(a, b):
        return np.exp(_beta_log_moment(c, n - c + k, a, b) - _beta_log_moment(c, n - c, a, b))

    a, b, e = prior.alpha, prior.beta, _EPS
    sa = (h(a * np.exp(e), b) - h(a * np.exp(-e), b)) / (2 * e)
    sb = (h(a, b * np.exp(e)) - h(a, b * np.exp(-e))) / (2 * e)
    assert st[:, 1] == pytest.approx(sa, rel=1e-6, abs=1e-15)
    assert st[:, 2] == pytest.approx(sb, rel=1e-6, abs=1e-15)


def test_an_integer_beyond_a_float_is_a_one_line_error(icli, counts_csv):
    # check_positive_int wrote the value with :.3g, which converts to float: k = 10^400 was an OverflowError traceback
    # from plan() and from `passcurve plan --k 1000...0`
    with pytest.raises(PasscurveError, match=r"^`k` is too large \(got k=1\.00e\+400, max 9\.01e\+15\)$"):
        plan(n=[5, 5], c=[1, 2], budget=10, k=10**400)
    r = icli("plan", str(counts_csv), "--budget", "10", "--k", "1" + "0" * 400)
    assert r.returncode == 2 and r.stderr.strip() == ("passcurve: error: `--k` is too large (got --k=1.00e+400, max "
                                                     "9.01e+15)"), r.stderr
    # as_int_array's float conversion likewise: expected_sd, update and update_counts were OverflowError tracebacks
    pl = Planner(n=[5, 5], c=[1, 2], k=10)
    with pytest.raises(PasscurveError, match=r"^`additional` must be <= 1e\+07 \(got additional=1\.00e\+400\)$"):
        pl.expected_sd([10**400, 0])
    with pytest.raises(PasscurveError, match=r"^`outcomes` is too large \(got outcomes=1\.00e\+400, max 4\.61e\+18\)$"):
        pl.update(["0"], [10**400])
    with pytest.raises(PasscurveError, match=r"^`n` must be >= 0 \(got n=-1\.00e\+400\)$"):
        pl.update_counts(["0"], [-(10**400)], [0])


def test_planner_update_reads_a_generator_of_outcomes():
    # ids could come from a generator (read once) but outcomes could not: update(ids, (grade(x) for x in ...)) said
    # "`outcomes` must contain integers (got <generator object ...>)"; update_counts' n and c likewise
    pl = Planner(n=[10, 10], c=[1, 5], problem=["a", "b"], k=20, rng=0)
    pl.update(["a", "b", "a"], (v for v in [1, 0, 1]))
    pl.update_counts(iter(["b"]), (v for v in [4]), (v for v in [3]))
    assert pl.n_.tolist() == [12, 15] and pl.c_.tolist() == [3, 8]  # hand count: a 10+2, 1+2; b 10+1+4, 5+0+3


def test_planner_update_errors_name_the_value():
    # update's 0/1 check and update_counts' c <= n check gave no value ("`outcomes` must be 0/1 or booleans",
    # "`c` must be <= n"), where every other check names it
    pl = Planner(n=[10, 10], c=[1, 5], problem=["a", "b"], k=20, rng=0)
    with pytest.raises(PasscurveError, match=r"^`outcomes` must be 0/1 or booleans \(got 2\)$"):
        pl.update(["a", "b"], [1, 2])
    with pytest.raises(PasscurveError, match=r"^`c` must be <= n \(got c=3, n=2 for problem 'b'\)$"):
        pl.update_counts(["a", "b"], [2, 2], [1, 3])
    assert pl.n_.tolist() == [10, 10] and pl.c_.tolist() == [1, 5]  # nothing recorded


def test_cli_plan_caption_counts_one_more_problem_in_the_singular(icli, tmp_path):
    # the caption read "1 more problems get samples"; two problems get samples here and --top 1 shows one
    path = tmp_path / "two.csv"
    path.write_text("problem_id,n,c\na,10,0\nb,10,0\n", encoding="utf-8")
    r = icli("plan", str(path), "--budget", "10", "--k", "10", "--method", "uniform", "--top", "1",
             env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    assert "1 more problem gets samples" in r.stdout and "1 more problems" not in r.stdout


def test_plan_names_the_rule_that_placed_the_samples(icli, counts_csv):
    # hierarchical with a fixed prior or a difficulty model is the passcurve rule (there is no fitted (alpha, beta) to
    # be uncertain about), but the title said "(hierarchical, target pass@100)" and nothing recorded it. The summary's
    # rule and Planner.rule_ say which rule placed them; the samples are passcurve's (the same plan, same seed)
    from passcurve.data import read_counts

    counts = read_counts(counts_csv)
    for prior in ((1.0, 2.0), "npmle"):
        got = plan(counts, budget=20, k=100, prior=prior, rng=0)
        ref = plan(counts, budget=20, k=100, prior=prior, method="passcurve", rng=0)
        assert got.summary[0]["rule"] == "passcurve" and got.additional.tolist() == ref.additional.tolist()
    assert plan(counts, budget=20, k=100, rng=0).summary[0]["rule"] == "hierarchical"
    pl = Planner(counts, k=100, prior=(1.0, 2.0), rng=0)
    assert pl.rule_ is None
    pl.next(5)
    assert pl.rule_ == "passcurve"
    pl.allocate(5, method="uniform")
    assert pl.rule_ == "uniform"
    r = icli("plan", str(counts_csv), "--budget", "20", "--k", "100", "--prior", "1,2", env={"COLUMNS": "400"})
    assert "(passcurve: the hierarchical rule needs a fitted Beta prior; target pass@100)" in r.stdout, r.stdout
    r = icli("plan", str(counts_csv), "--budget", "20", "--k", "100", env={"COLUMNS": "400"})
    assert "(hierarchical, target pass@100)" in r.stdout, r.stdout


def test_cli_plan_says_why_the_hierarchical_plan_can_trail_uniform(icli, tmp_path):
    # the hierarchical rule minimises the variance that counts the prior's uncertainty; on the SD given the prior,
    # which the title compares, its plan can trail uniform's (the demo's tiny-1b at K = 10^15: 0.018489 against
    # 0.018488; BoN's Gemini 1.5 Flash and Pro at K = 10^4), and the title read as if the plan had lost to uniform
    from passcurve.data import write_counts

    path = tmp_path / "tiny.csv"
    write_counts(simulate(problems=50, n=20, rng=0).counts.select("tiny-1b"), path)
    args = ("plan", str(path), "--budget", "10", "--k", str(10**15))
    s = json.loads(icli(*args, "--json").stdout)["summary"][0]
    assert s["rule"] == "hierarchical" and s["expected_sd_after"] > s["expected_sd_after_uniform"]  # the case
    r = icli(*args, env={"COLUMNS": "600"})
    note = ("expected SD after this plan above uniform's: the hierarchical rule lowers the variance that counts the "
            "prior's uncertainty too, which this SD given the prior leaves out")
    assert note in " ".join(r.stdout.split()), r.stdout
    r = icli("plan", str(path), "--budget", "10", "--k", "100", env={"COLUMNS": "600"})  # the plan is below uniform
    assert "above uniform's" not in r.stdout


def test_cli_plan_title_tells_the_plan_from_uniform(icli, tmp_path):
    # the title compares the expected SD after this plan with a uniform plan's, and wrote both with 4 decimals: Pythia
    # 160M (--budget 1000 --k 10000) read 'expected SD 0.0134 after this plan (uniform: 0.0134)' for 0.013397 and
    # 0.013406. Here the same regime (128 problems at n = 10^4 from Pythia 160M's fitted Beta(0.17, 55)): the three
    # SDs take one notation, with the decimals (up to 2 more) that tell the two apart, each the JSON's value rounded
    import re

    rng = np.random.default_rng(1)
    c = rng.binomial(10_000, rng.beta(0.17, 55.0, 128))
    path = tmp_path / "low.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},10000,{x}\n" for i, x in enumerate(c)), encoding="utf-8")
    args = ("plan", str(path), "--budget", "1000", "--k", "10000")
    s = json.loads(icli(*args, "--json").stdout)["summary"][0]
    assert f"{s['expected_sd_after']:.4f}" == f"{s['expected_sd_after_uniform']:.4f}"  # the case: alike at 4 decimals
    r = icli(*args, env={"COLUMNS": "400"})
    assert r.returncode == 0, r.stderr
    got = re.search(r"SD (\d\.\d+) now, expected SD (\d\.\d+) after this plan \(uniform: (\d\.\d+)\)", r.stdout)
    assert got, r.stdout
    now, after, uni = got.groups()
    assert after != uni and len({len(now), len(after), len(uni)}) == 1
    for text, key in zip(got.groups(), ("forecast_sd", "expected_sd_after", "expected_sd_after_uniform"), strict=True):
        assert text == f"{s[key]:.{len(text) - 2}f}"


def test_cli_plan_csv_names_the_prior_of_each_row(icli, tmp_path):
    # the CSV had no word of the prior its p_hat is under (the JSON summary has "prior"): a saved plan could not tell
    # a fit from a fixed Beta or a fallback. Each row now names its model's prior, as the summary does; here a model
    # with no success (Jeffreys' fallback) beside one with a fit, and a fixed prior for both
    import csv
    import io

    path = tmp_path / "two.csv"
    path.write_text("model,problem_id,n,c\n" + "".join(f"fit,p{i},10,{i}\n" for i in range(5))
                    + "".join(f"none,p{i},10,0\n" for i in range(3)), encoding="utf-8")
    for extra, want in (((), {"fit": "beta", "none": "jeffreys"}), (("--prior", "1,2"), {"fit": "fixed", "none": "fixed"})):
        r = icli("plan", str(path), "--budget", "10", "--k", "100", "--csv", *extra)
        assert r.returncode == 0, r.stderr
        rows = list(csv.DictReader(io.StringIO(r.stdout)))
        assert len(rows) == 8 and {row["model"]: row["prior"] for row in rows} == want
        s = json.loads(icli("plan", str(path), "--budget", "10", "--k", "100", "--json", *extra).stdout)["summary"]
        assert {d["model"]: d["prior"] for d in s} == want  # the same words as the JSON's


def test_cli_plan_csv_keeps_problem_ids_as_read(icli, tmp_path):
    # docs/planning.md says the CSV writes ids as read: '001' is not 1, '1.0' not 1, 'a,b' is quoted, unicode stays;
    # one row per problem (those given nothing too) and the additional add up to the budget (here 2 batches of 5)
    import csv
    import io

    path = tmp_path / "ids.csv"
    path.write_text('problem_id,n,c\n001,10,1\n1.0,10,2\n"a,b",10,0\né★,10,5\n1,10,0\n', encoding="utf-8")
    r = icli("plan", str(path), "--budget", "10", "--k", "100", "--batch", "5", "--csv")
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert sorted(row["problem"] for row in rows) == sorted(["001", "1.0", "a,b", "é★", "1"])
    assert sum(int(row["additional"]) for row in rows) == 10
    assert all(int(row["additional"]) % 5 == 0 for row in rows)


def test_next_reserves_nothing_until_update():
    # documented (docs/planning.md, Planner.next): a second next() without an update plans from the same counts, so it
    # proposes the same ids; with distinct counts there are no ties for the random tie-break to reorder
    pl = Planner(n=[10, 10, 10, 10], c=[0, 1, 3, 9], k=50, rng=0)
    first = pl.next(6)
    assert pl.next(6) == first
    pl.update(first, [0] * len(first))
    assert pl.n_.sum() == 46


@pytest.mark.parametrize(("method", "hedge"), [("uniform", 0.0), ("passcurve", 1.0), ("hierarchical", 1.0)])
def test_a_uniform_plan_is_its_own_uniform_comparison(method, hedge):
    # the summary's uniform comparison broke its ties with the next random numbers, so a uniform plan (or hedge 1,
    # the uniform design) of 60 samples over 7 problems read 'expected SD 0.0744 after this plan (uniform: 0.0749)';
    # with the plan's own random numbers the two designs are one allocation and one SD
    res = plan(n=[10] * 7, c=[1, 2, 0, 5, 3, 0, 4], budget=60, k=100, method=method, hedge=hedge, rng=0)
    s = res.summary[0]
    assert sorted(res.additional.tolist()) == [8, 8, 8, 9, 9, 9, 9]  # 60 = 7*8 + 4 (hand count)
    assert s["expected_sd_after"] == s["expected_sd_after_uniform"]


def test_plan_summary_keys_are_documented():
    # PlanResult's docstring named half the summary's keys (population_forecast, problems_sampled, fit_success,
    # impossible, hedge were in the JSON with no word of what they are); every key is now in it
    res = plan(n=[10] * 4, c=[1, 2, 0, 5], budget=8, k=50, rng=0)
    doc = PlanResult.__doc__ or ""
    assert all(f"``{key}``" in doc for key in res.summary[0]), [k for k in res.summary[0] if f"``{k}``" not in doc]


def test_cli_plan_that_places_nothing_prints_one_line_per_model(icli, tmp_path):
    # every problem already at --max-n: the warning said 0 samples could be placed, and under it each model printed
    # its title ('0 new samples over 0 of 2 problems ... expected SD ... after this plan'), an empty table and the p̂
    # caption. Now one line per model: nothing placed, and the forecast now
    path = tmp_path / "two.csv"
    path.write_text("model,problem_id,n,c\nA,a,10,2\nA,b,10,5\nB,a,10,0\nB,b,10,9\n", encoding="utf-8")
    r = icli("plan", str(path), "--budget", "10", "--k", "10", "--max-n", "10", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    assert "0 of the budget's 10 samples could be placed" in r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2, r.stdout
    for line, model in zip(lines, "AB", strict=True):
        assert line.startswith(f"{model}: no new sample placed on any of its 2 problems (target pass@10); forecast ")
    assert "┏" not in r.stdout and "new samples" not in r.stdout and "p̂" not in r.stdout


def test_uniform_rule_caps_a_problem_whose_room_runs_out_in_a_later_round():
    # hand count of the uniform rule (equal extra samples, each problem capped by max_n): rooms (1, 1, 1, 1, 3, 100)
    # and 12 samples. Round 1: 2 each, capped to the rooms, (1, 1, 1, 1, 2, 2), 4 left; round 2 over the two open
    # problems: 2 each, the fifth capped at its room of 1 more, (.., 3, 4), 1 left; round 3: the last to the sixth
    pl = Planner(n=[99, 99, 99, 99, 97, 0], c=[0] * 6, k=10, max_n=100, method="uniform", rng=0)
    got = pl.allocate(12)
    assert got.tolist() == [1, 1, 1, 1, 3, 5]
    assert (pl.n_ + got).max() <= 100


def test_fewest_successes_skips_problems_at_max_n():
    # Kazdan et al.'s rule by hand with max_n = 10: problem a (c = 0) is at the cap and gets nothing, b (c = 0,
    # n = 9) has room for one and takes it first (fewest successes), the rest go to c (c = 3)
    pl = Planner(n=[10, 9, 5], c=[0, 0, 3], k=10, max_n=10, method="fewest-successes", rng=0)
    assert pl.allocate(4).tolist() == [0, 1, 3]


def test_variance_optimal_on_tiny_examples_by_hand():
    # weights sqrt(p (1-p)^(2K-1)) (Kazdan et al. 2025) with p = (1 + c)/(2 + n) under the fixed Beta(1, 1), K = 4:
    # c = 0 at n = 9 or 10 -> p = 1/11 or 1/12, weight 0.216 or 0.21; c = 9 at n = 10 -> p = 10/12, weight 6e-6;
    # c = 2 at n = 2 -> p = 3/4, weight 0.0068; c = 0 at n = 2 -> p = 1/4, weight 0.18
    def vo(**kw):
        return Planner(k=4, method="variance-optimal", prior=(1.0, 1.0), **kw)

    # a budget of one sample is placed, on the heaviest problem
    assert vo(n=[10, 10], c=[0, 9]).allocate(1).tolist() == [1, 0]
    # problems with room for exactly one more sample (max_n) still get it
    assert vo(n=[9, 9], c=[0, 1], max_n=10).allocate(2).tolist() == [1, 1]
    # the heavy problem can take one more before max_n; the other sample goes to the only problem left with room
    assert vo(n=[9, 2], c=[0, 2], max_n=10).allocate(2).tolist() == [1, 1]
    # a problem at max_n takes no part: the rest follow the weights (totals 6 and 2 against weights 27:1), not an
    # equal split
    assert vo(n=[10, 2, 2], c=[0, 0, 2], max_n=10).allocate(4).tolist() == [0, 4, 0]



@pytest.mark.parametrize("method", ["passcurve", "hierarchical"])
@pytest.mark.parametrize("budget", [1, 2, 3])
@pytest.mark.parametrize("weight", [[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 4.0, 1.0]])
def test_small_budgets_follow_the_greedy_rule_one_sample_at_a_time(method, budget, weight):
    # brute force of the greedy knowledge-gradient rule: below 4 samples the only look-ahead is one sample, so each
    # sample in turn goes to the problem whose next sample removes the most expected variance, R_i(m_i + 1) - R_i(m_i)
    # (here 1, 1 + 1 and 2 + 1 samples over the two unsolved problems, not two at once)
    # (preposterior_reduction, itself checked against enumeration above); under a fixed prior the hierarchical rule
    # is the passcurve rule
    n, c, k, prior = np.array([10, 12, 40, 3]), np.array([0, 0, 1, 2]), 100, BetaPrior(0.5, 2.0, 0.0)
    m = np.zeros(4, dtype=int)
    for _ in range(budget):
        gain = preposterior_reduction(prior, n, c, k, m + 1) - preposterior_reduction(prior, n, c, k, m)
        m[np.argmax(np.square(weight) * gain)] += 1  # a problem's variance enters the forecast's with its weight^2
    pl = Planner(n=n, c=c, k=k, prior=prior, method=method, weight=weight, rng=0)
    assert pl.allocate(budget).tolist() == m.tolist()



def test_variance_optimal_rounds_by_largest_remainder_and_counts_batches():
    # Kazdan et al.'s weights w = sqrt(p (1-p)^7) (K = 4, p = (1 + c)/(2 + n) under Beta(1, 1)) for c = 0, 1, 3 at
    # n = 10: 0.2129, 0.2157, 0.1397. Water-filling 8 samples: the third stays out (its target total is below 10),
    # the two others share lam (w0 + w1) = 8 + 20, extras lam w - 10 = 3.91 and 4.09; whole samples by largest
    # remainder: 3 + 1 and 4
    n, c = np.array([10, 10, 10]), np.array([0, 1, 3])
    p = (1 + c) / (2 + n)
    w = np.sqrt(p * (1 - p) ** 7)
    extra = (8 + 20) / (w[0] + w[1]) * w - 10
    assert extra[2] < 0 and 3.9 < extra[0] < 3.95 and 4.05 < extra[1] < 4.1
    pl = Planner(n=n, c=c, k=4, method="variance-optimal", prior=(1.0, 1.0))
    assert pl.allocate(8).tolist() == [4, 4, 0]
    # in batches of 10 the totals are counted in batches too: equal weights (p = 21/42 = 1/2 and 1/2) and totals
    # 40 and 0 take 60 more to equal totals of 50
    pl = Planner(n=[40, 0], c=[20, 0], k=3, method="variance-optimal", prior=(1.0, 1.0))
    assert pl.allocate(60, batch=10).tolist() == [10, 50]


def test_a_hedged_plan_places_the_rule_on_top_of_the_uniform_share():
    # hedge 1/3 of 3 samples: one goes to the problem with the fewest samples (n = 3), then the greedy rule places
    # two on top of it, its gains counted from that planned sample: brute force with preposterior_reduction
    # (the rule from nothing would have given the n = 3 problem all three)
    n, c, k, prior = np.array([3, 10, 12]), np.array([0, 0, 0]), 100, BetaPrior(0.5, 2.0, 0.0)
    m = np.array([1, 0, 0])
    for _ in range(2):
        gain = preposterior_reduction(prior, n, c, k, m + 1) - preposterior_reduction(prior, n, c, k, m)
        m[np.argmax(gain)] += 1
    got = Planner(n=n, c=c, k=k, prior=prior, method="passcurve", hedge=1 / 3, rng=0).allocate(3)
    assert got.tolist() == m.tolist() == [2, 1, 0]


def test_passcurve_rule_in_chunks_stops_at_max_n():
    # 800 samples are placed two at a time (at most 600 greedy rounds); a problem one sample below max_n takes one
    pl = Planner(n=[0, 5, 50], c=[0, 1, 2], k=100, prior=(0.5, 2.0), method="passcurve", max_n=301, rng=0)
    got = pl.allocate(800)
    assert got.sum() == 800 and (pl.n_ + got).max() == 301


def test_hedge_share_is_rounded_down():
    # floor(hedge * budget) = floor(1.5) = 1 sample spread evenly (to the problem with the fewest samples, n = 8),
    # then the fewest-successes rule places the other 2 on the unsolved problem
    pl = Planner(n=[10, 8, 9], c=[0, 5, 5], k=10, method="fewest-successes", hedge=0.5, rng=0)
    assert pl.allocate(3).tolist() == [2, 1, 0]


@pytest.mark.parametrize("method", ["uniform", "fewest-successes", "variance-optimal", "passcurve", "hierarchical"])
def test_a_problem_of_weight_zero_gets_no_samples(method):
    # allocate's contract: 0 where the weight is 0, whatever the rule (the unsolved problem would otherwise be first)
    pl = Planner(n=[10, 10, 10], c=[0, 2, 4], weight=[0.0, 1.0, 1.0], k=50, method=method, rng=0)
    got = pl.allocate(6)
    assert got[0] == 0 and got.sum() == 6


def test_the_rules_count_the_hedge_share_as_planned():
    # by hand, hedge 1/3 of 3 samples: the uniform sample goes to the problem with the fewest samples (n = 9), which
    # then has 10 like the other; fewest-successes gives one more to each of the two unsolved problems
    pl = Planner(n=[10, 9], c=[0, 0], k=10, method="fewest-successes", hedge=1 / 3, rng=0)
    assert pl.allocate(3).tolist() == [1, 2]
    # and the cap counts it too: with max_n = 10 the problem at n = 8 holds 2 more, one of them the uniform sample
    for method in ("fewest-successes", "variance-optimal"):
        pl = Planner(n=[8, 9], c=[0, 3], k=4, max_n=10, method=method, hedge=1 / 3, prior=(1.0, 1.0), rng=0)
        assert pl.allocate(3).tolist() == [2, 1], method


def test_next_asks_for_one_sample_by_default():
    pl = Planner(n=[10, 10, 10], c=[0, 2, 4], k=50, method="fewest-successes", rng=0)
    assert pl.next() == ["0"]  # the one unsolved problem (Kazdan et al.'s rule)
