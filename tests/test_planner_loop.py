"""The Planner in an online loop: next(batch) -> draw -> update(ids, outcomes), round after round."""

from __future__ import annotations

import numpy as np
import pytest

from passcurve import PasscurveError, Planner, hierarchical_pass_at_k


@pytest.mark.parametrize("bad", [0, -1, 1.5, "3", True])
def test_next_names_its_batch_argument(bad):
    # next()'s argument is `batch`; its errors named allocate's `budget`
    pl = Planner(n=[1, 1, 1], c=[0, 1, 0], k=10, rng=0)
    with pytest.raises(PasscurveError, match="`batch` must be an integer >= 1"):
        pl.next(bad)


def test_update_with_no_outcomes_records_nothing():
    # once every problem is at max_n, next() returns [] and the loop's update(ids, run(ids)) is
    # update([], []): that raised "`outcomes` is empty" and broke the loop
    pl = Planner(n=[3, 3], c=[1, 0], k=10, max_n=4, rng=0)
    ids = pl.next(10)
    assert sorted(ids) == ["0", "1"]
    pl.update(ids, [0, 1])
    ids = pl.next(5)
    assert ids == []
    pl.update(ids, [])
    pl.update(ids, np.array([], dtype=np.int64))
    pl.update("0", [])  # one problem, no new samples (e.g. every request failed)
    assert pl.n_.tolist() == [4, 4] and pl.c_.tolist() == [1, 1]
    with pytest.raises(PasscurveError, match="`problem` has 1 ids but `outcomes` has 0 values"):
        pl.update(["0"], [])
    with pytest.raises(PasscurveError, match="'zz' is not one of the planner's problems"):
        pl.update("zz", [])
    with pytest.raises(PasscurveError, match="`outcomes` must contain integers"):
        pl.update("0", "")


def test_hierarchical_forecast_from_planner_state_with_unsampled_problems():
    # the docs' estimator at another K from the Planner's counts: problems the loop never sampled
    # (n = 0) made hierarchical_pass_at_k refuse ("`n` must be >= 1")
    n, c = np.array([10, 10, 10, 0, 0]), np.array([1, 0, 3, 0, 0])
    pl = Planner(n=n, c=c, k=100, rng=0)
    got = hierarchical_pass_at_k(pl.n_, pl.c_, k=100, weight=pl.weight)
    assert got["posterior"] == pytest.approx(pl.forecast()["bayes"], rel=1e-12)
    # unsampled problems add nothing to the likelihood: the sampled ones' values are unchanged, and
    # the unsampled ones get the population's pass@k under the same posterior
    sampled = hierarchical_pass_at_k(n[:3], c[:3], k=100)
    assert np.allclose(got["per_problem"][:3], sampled["per_problem"], rtol=1e-12)
    assert got["per_problem"][3] == got["per_problem"][4]
    assert got["alpha"] == pytest.approx(sampled["alpha"], rel=1e-12)
    with pytest.raises(PasscurveError, match="`n` must be >= 1 for at least one problem"):
        hierarchical_pass_at_k([0, 0], [0, 0], k=5)
    with pytest.raises(PasscurveError, match="`c` must be <= n"):
        hierarchical_pass_at_k([3, 0], [1, 1], k=5)
    with pytest.raises(PasscurveError, match="`n` must be >= 0"):
        hierarchical_pass_at_k([3, -1], [1, 0], k=5)


def test_warnings_describe_the_current_fit_not_the_first_round():
    # from nothing the first round plans under a fallback prior and says its forecast is not an
    # estimate; that warning stayed in warnings_ after the data allowed a fit
    pl = Planner(n=[0] * 40, c=[0] * 40, k=100, method="variance-optimal", rng=0)
    ids = pl.next(40)
    assert len(pl.warnings_) == 1 and "not an estimate" in pl.warnings_[0]
    pl.update(ids, [0] * len(ids))
    for i, problem in enumerate(pl.problems):  # then 10 samples each, 0 to 9 successes
        pl.update(problem, [j < i % 10 for j in range(10)])
    pl.forecast()
    assert pl.warnings_ == []
    pl_fixed = Planner(n=[0] * 4, c=[0] * 4, k=100, prior=(1.0, 2.0), rng=0)
    pl_fixed.next(4)
    assert pl_fixed.warnings_ == []


def test_update_counts_with_no_problems_records_nothing():
    # the aggregated form of the same loop step: update_counts([], [], []) raised "`n` is empty"
    pl = Planner(n=[1, 1], c=[0, 1], k=5, rng=0)
    pl.update_counts([], [], [])
    pl.update_counts(np.array([], dtype=object), np.array([], dtype=np.int64), [])
    assert pl.n_.tolist() == [1, 1] and pl.c_.tolist() == [0, 1]
    with pytest.raises(PasscurveError, match="`n` is empty"):
        pl.update_counts("0", [], [])
    with pytest.raises(PasscurveError, match="`problem` has 0 ids but `n` has 2 values"):
        pl.update_counts([], [1, 2], [0, 0])


def test_a_pickled_planner_continues_the_same_loop():
    # the documented way to keep the state between rounds: the generator and the prefix survive
    import pickle

    rng = np.random.default_rng(5)
    p = rng.beta(0.5, 3, 30)
    pl = Planner(n=[20] * 30, c=rng.binomial(20, p), k=10, method="fewest-successes", rng=3)
    fed_n, fed_c = pl.n_.copy(), pl.c_.copy()
    for _ in range(3):
        ids = pl.next(15)
        assert 0 < len(ids) <= 15
        outcomes = rng.random(len(ids)) < p[np.array(ids, dtype=int)]
        for i, o in zip(ids, outcomes, strict=True):
            fed_n[int(i)] += 1
            fed_c[int(i)] += int(o)
        pl.update(ids, outcomes)
    assert pl.n_.tolist() == fed_n.tolist() and pl.c_.tolist() == fed_c.tolist()
    copy = pickle.loads(pickle.dumps(pl))
    assert copy.next(15) == pl.next(15)
    assert copy.n0_.tolist() == [20] * 30 and copy.n_.tolist() == pl.n_.tolist()
    assert copy.forecast()["prefix"] == pl.forecast()["prefix"]


def test_an_update_past_max_n_names_the_problem():
    # with thousands of problems "an update takes a problem past `max_n`" did not say which one
    pl = Planner(n=[3, 1, 3], c=[1, 0, 0], problem=["a", "b", "c"], k=10, max_n=4, rng=0)
    with pytest.raises(PasscurveError, match=r"takes problem 'c' past `max_n`=4 \(n=3 \+ 2 new samples\)"):
        pl.update(["a", "c", "c", "b"], [0, 1, 0, 1])
    with pytest.raises(PasscurveError, match=r"takes problem 'b' past `max_n`=4 \(n=1 \+ 5 new samples\)"):
        pl.update_counts(["b", "a"], [5, 1], [0, 0])
    assert pl.n_.tolist() == [3, 1, 3] and pl.c_.tolist() == [1, 0, 0]


def test_forecast_at_another_k_from_the_loop_counts():
    # forecast() gave the estimators valid under adaptive n only at the planner's own k
    n, c = np.array([40, 40, 25, 10, 0]), np.array([3, 0, 10, 1, 0])
    pl = Planner(n=n, c=c, k=100, rng=0)
    at_100 = pl.forecast()
    at_20 = pl.forecast(k=20)
    assert at_20["k"] == 20 and pl.k == 100 and pl.forecast(k=100) == at_100
    assert at_20["posterior"] < at_100["posterior"] and at_20["population"] < at_100["population"]
    assert at_20["bayes"] == pytest.approx(hierarchical_pass_at_k(n, c, 20)["posterior"], rel=1e-12)
    assert Planner(n=n, c=c, k=20, rng=0).forecast() == at_20
    with pytest.raises(PasscurveError, match="`k` must be an integer >= 1"):
        pl.forecast(k=0)


def test_a_runaway_difficulty_model_fit_still_plans():
    # counts a loop reached from nothing (1 success in 224 samples over 42 problems, 258 unsampled):
    # the unregularised zero-inflated fit runs to alpha ~ 1e135, beta ~ 6e137, where scipy's betaincinv
    # is NaN; the outcome range cast NaN to int64 and next() failed with "`c` must be >= 0 (got c=-9.2e18)"
    from passcurve._difficulty import ZeroInflatedBetaBinomial

    rows = [(5, 0, 13), (5, 1, 1), (7, 0, 10), (8, 0, 3), (9, 0, 14), (10, 0, 1), (0, 0, 258)]
    n = np.concatenate([[a] * m for a, _, m in rows])
    c = np.concatenate([[b] * m for _, b, m in rows])
    pl = Planner(n=n, c=c, k=1000, prior=ZeroInflatedBetaBinomial(), rng=0)
    ids = pl.next(100, horizon=300)
    assert pl.prior_.alpha > 1e100  # the runaway fit this is about
    assert len(ids) == 100
    assert 0.0 <= pl.forecast()["posterior"] <= 1.0


@pytest.mark.parametrize("method", ["hierarchical", "passcurve"])
def test_ties_between_identical_problems_go_to_random_ones(method):
    # from nothing every problem is alike; the greedy rules gave each tie to the first in the input,
    # so a loop worked down the file and the problems it never reached were the file's last ones
    def first_round(seed):
        pl = Planner(n=[0] * 200, c=[0] * 200, k=1000, method=method, rng=seed)
        return sorted({int(i) for i in pl.next(60, horizon=600)})

    got = first_round(0)
    assert got != list(range(len(got)))  # not the first problems of the file
    assert max(got) >= 20
    assert first_round(0) == got  # reproducible with the seed
    assert first_round(1) != got


def test_update_reads_ids_from_an_iterator():
    # a generator of ids (or iter(list)) had been one object: "`problem` <list_iterator ...> is not one of the planner's
    # problems"; its ids pair with the outcomes in order, as a list's do (hand count: a gets 1 of 2, b 0 of 1)
    pl = Planner(n=[0, 0], c=[0, 0], problem=["a", "b"], k=10, rng=0)
    pl.update((p for p in ["a", "b", "a"]), [1, 0, 0])
    assert pl.n_.tolist() == [2, 1] and pl.c_.tolist() == [1, 0]
    pl.update_counts(iter(["b"]), [3], [2])
    assert pl.n_.tolist() == [2, 4] and pl.c_.tolist() == [1, 2]


@pytest.mark.parametrize(("method", "hedge"), [("uniform", 0.0), ("fewest-successes", 1.0)])
def test_uniform_in_a_loop_balances_the_totals(method, hedge):
    # uniform (and a hedge's even share) gave the units left over, fewer than the open problems, to random ones: five
    # rounds of next(25) over 30 problems from nothing ended with totals from 1 to 5. They now go to the problems with
    # the fewest samples so far, so 125 samples over 30 problems are 25 fours and 5 fives (hand count: 125 = 30*4 + 5)
    pl = Planner(n=[0] * 30, c=[0] * 30, k=100, method=method, hedge=hedge, rng=3)
    for _ in range(5):
        ids = pl.next(25)
        pl.update(ids, np.zeros(len(ids), dtype=int))
    assert sorted(pl.n_.tolist()) == [4] * 25 + [5] * 5
