"""Public functions reject bad arguments with a one-line PasscurveError naming the argument.

Cases found by feeding every public entry point None, strings, NaN, negatives, floats, ragged
lists, booleans and 1e30: these few raised numpy/Python errors (or a misleading message) before.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

import passcurve as pc
import passcurve.rl as rl

C = pc.Counts.from_arrays([10, 10, 10], [1, 5, 0])
C2 = pc.Counts.from_arrays([10] * 6, [1, 2, 3, 4, 5, 6], problem=["a", "b", "c"] * 2, model=["m1"] * 3 + ["m2"] * 3)


@pytest.mark.parametrize(
    ("call", "msg"),
    [
        (lambda: pc.simulate(problems=5, n=[[1, 2], [3]]), r"`n` must be an array of integers"),
        (lambda: pc.simulate(problems=2, n=[[1, 2], [3, 4]]), r"`n` must be an integer >= 1 or one per problem"),
        (lambda: pc.simulate(problems=4, n=[[1, 2], [3, 4]]),  # as many n as problems, but a table of them
         r"^`n` must be an integer >= 1 or one per problem \(4 values\)$"),
        (lambda: pc.simulate(problems=1e30, n=10), r"`problems` is too large"),
        (lambda: pc.pass_at_k(10, 3, 1e20), r"`k` is too large \(got k=1e\+20, max 4.61e\+18\)"),
        (lambda: pc.simulate(problems=5, n=1e30), r"`n` is too large"),
        # forecast's own limit, whether k is just above it or beyond int64 (one message, not two)
        (lambda: pc.forecast(C, k=1e16), r"`k` must be <= 1e\+15 \(got k=1e\+16\)"),
        (lambda: pc.forecast(C, k=[100, 1e20]), r"`k` must be <= 1e\+15 \(got k=1e\+20\)"),
        (lambda: pc.plan(C, budget=1e30, k=100), r"`budget` is too large"),
        # the planner's look-ahead holds about 70 bytes per sample of budget: 10^9 was killed for memory (19.6 GB)
        # after minutes; the cap is _validation.MAX_RESAMPLES, 10^7
        (lambda: pc.plan(C, budget=10**9, k=20), r"^`budget` is too large \(got budget=1e\+09, max 1e\+07\)$"),
        # its sum over the outcomes of 10^8 more samples of one problem held 10 GB (38 s)
        (lambda: pc.Planner(C, k=20).expected_sd([10**8, 0, 0]), r"^`additional` must be <= 1e\+07 \(got "
                                                                   r"additional=100000000\)$"),
        (lambda: pc.Planner(C, k=20).allocate(10, horizon=10**9), r"^`horizon` is too large \(got horizon=1e\+09, "
                                                                    r"max 1e\+07\)$"),
        # each seed is a forecast per (m, k) and method (about a second): 10^9 ran for decades without a word; the
        # cap 10^4 is _validation.MAX_SEEDS (coverage within 0.5 / sqrt(10^4) = 0.005 of its limit)
        # just above a cap, the value is written out: '1e+07, max 1e+07' said nothing
        (lambda: pc.plan(C, budget=10**7 + 1, k=20), r"^`budget` is too large \(got budget=10000001, max 1e\+07\)$"),
        (lambda: pc.backtest(C, m=[2], k=[5], seeds=10**9), r"^`seeds` is too large \(got seeds=1e\+09, max 1e\+04\)$"),
        (lambda: pc.fit_difficulty(C, model=1.5), r"`model` must be one of .* \(got 1.5\)"),
        (lambda: pc.fit_difficulty(C, model=[["beta"]]), r"`model` must be one of"),
        (lambda: pc.default_k_grid("x"), r"`n` must be an integer >= 1"),
        (lambda: pc.local_slope("x", [0.5]), r"`k`"),
        (lambda: pc.local_slope([1, 2], [0.5]), r"`k` and `pass_at_k` must have the same length"),
        (lambda: pc.local_slope([1, 2, 3], [0.5, 0.9, 1.5]), r"`pass_at_k` must be in \[0, 1\] \(got pass_at_k=1.5\)"),
        (lambda: pc.local_slope([1, 2, 3], [0.5, 0.9, np.inf]), r"`pass_at_k` contains an infinite value"),
        (lambda: pc.local_slope([1, -2, 3], [0.5, 0.9, 0.95]), r"`k` must be > 0 \(got k=-2\)"),
        (lambda: pc.mean_curve([10, 10], [3, 11], [1]), r"`c` must be <= n \(got c=11, n=10\)"),
        (lambda: pc.mean_curve(-1, 0, [1]), r"`n` must be >= 1"),
        (lambda: pc.mean_curve([10], [3], [1], weights=[-1.0]), r"`weights` must be >= 0"),
        (lambda: pc.thin_counts([10, 5], [3, 6], 2), r"`c` must be <= n"),
        (lambda: pc.thin_counts([10, 5], [3, 1], [1, 2, 3]), r"`m` must be one number or one per problem"),
        (lambda: pc.maj_at_k_tallies([[1, 2], [3]], 0, 1), r"`tallies` must be an array of integers"),
        (lambda: pc.retries(["a", "a"], [[1, 2], [3]], [1, 0]), r"`attempt` must be an array of integers"),
        (lambda: pc.retries(["a", "a"], [0, 1], [[1, 0], [1]]), r"`correct` must be a flat sequence of booleans"),
        # eleventh session's API audit: each of these returned a number (or p = 0) instead of an error
        (lambda: pc.compare(pc.Counts.from_arrays([10, 10], [3, 4], problem=["a", "a"], model=["m1", "m2"]),
                            "m1", "m2", 1, method="analytic"), r"model 'm1' has 1 problem\(s\); a comparison needs"),
        (lambda: pc.compare(C2, "m1", "m2", 1, cluster=["x"] * 6), r"fall in 1 cluster; a clustered comparison"),
        (lambda: pc.power_analysis(0.03, 1, counts=C2, a="m1", b="m1"), r"`a` and `b` must be two different models"),
        (lambda: pc.Counts.from_arrays([10, 10], [3, 4], weight=[0, 0]), r"`weight` must have a positive sum"),
        (lambda: pc.Counts.from_arrays([10] * 4, [1, 2, 3, 4], model=["a", "a", "b", "b"], weight=[1, 1, 0, 0]),
         r"positive sum for each model \(model 'b': all zeros\)"),
        (lambda: pc.mean_curve([10, 10], [3, 4], [1], weights=[0, 0]), r"`weights` must have a positive sum"),
        (lambda: pc.standard_error([1, 0, 1], weight=[0, 0, 0]), r"`weight` must have a positive sum"),
        (lambda: pc.BetaBinomial().fit(n=[10, 10, 10], c=[1, 2, 3], weight=[-1, 3, 1]), r"`weight` must be >= 0"),
        (lambda: pc.k_for(C, [0.5, 0.6], n_resamples=0), r"`target` must be one number \(got 2\)"),
        (lambda: pc.BetaBinomial().fit(n=[10, 10, 10], c=[1, 2, 3]).pass_at_k(-1), r"`k` must be > 0"),
        (lambda: pc.BetaBinomial().fit(n=[10, 10, 10], c=[1, 2, 3]).posterior_pass_at_k(10, 11, 5),
         r"0 <= c <= n"),
        (lambda: pc.ModelSpec("a", -0.3, 2), r"`alpha` must be a finite number > 0"),
        (lambda: pc.ModelSpec("a", 0.3, 2, impossible=2), r"`impossible` must be in \[0, 1\)"),
        # the documented ends: alpha, beta > 0 and impossible < 1 (all problems impossible is no Beta law), and the
        # cap of 10^8 problems just above it
        (lambda: pc.ModelSpec("a", 0, 2), r"^`alpha` must be a finite number > 0 \(got alpha=0\)$"),
        (lambda: pc.ModelSpec("a", 0.3, 0.0), r"^`beta` must be a finite number > 0 \(got beta=0.0\)$"),
        (lambda: pc.ModelSpec("a", 0.3, 2, impossible=1), r"^`impossible` must be in \[0, 1\) \(got impossible=1\)$"),
        (lambda: pc.simulate(problems=10**8 + 1, n=10), r"^`problems` is too large \(got problems=100000001, max 1e\+08\)$"),
        (lambda: pc.ModelSpec("a", 0.3, 2).true_pass_at_k(-1), r"`k` must be > 0"),
        # helper-118's fuzzing: numpy's TypeError ("ufunc 'isfinite' not supported") for an int beyond uint64, and
        # numpy's "operands could not be broadcast together" for a 2-d k (documented: one k per column of the result)
        (lambda: pc.ModelSpec("a", 10**20, -2), r"^`beta` must be a finite number > 0 \(got beta=-2\)$"),
        (lambda: pc.ModelSpec("a", -(10**20), 2),
         r"^`alpha` must be a finite number > 0 \(got alpha=-100000000000000000000\)$"),
        (lambda: pc.simulate(5, 10, rng=0).true_pass_at_k([[1, 2], [3, 4]]),
         r"^`k` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$"),
        (lambda: pc.fit_power_law(C).predict(0), r"`k` must be > 0"),
        (lambda: pc.fit_power_law(C).predict(10, model="zzz"), r"`model` must name a model present \(got 'zzz'\)"),
        (lambda: pc.naive_pass_at_k([10, 10], [3, 4], [1, 2, 3]), r"`n`/`c` and `k` have incompatible shapes"),
        (lambda: C.take([5]), r"`index` must be row numbers in \[0, 3\)"),
        (lambda: C.take([False, False, False]), r"`index` selects no rows"),
        (lambda: C.take("a"), r"`index` must be a boolean mask or integer row indices"),
        # durations and dates are not counts or numbers: numpy ranks timedelta64 among the signed integers (10 s was
        # the count 10) and converts datetime64 to floats (days since 1970 as scores or budgets)
        (lambda: pc.pass_at_k(np.array([10, 20], dtype="timedelta64[s]"), 3, 2),
         r"^`n` must contain integers \(got values of type timedelta64\[s\]\)$"),
        (lambda: pc.standard_error(np.array(["2026-01-01", "2026-01-02"], dtype="datetime64[D]")),
         r"^`s` must contain numbers \(got values of type datetime64\[D\]\)$"),
        (lambda: pc.retries(["a", "a"], [0, 1], np.array([1, 0], dtype="timedelta64[s]")),
         r"^`correct` must be boolean \(true/false or 0/1\) \(got values of type timedelta64\[s\]\)$"),
        (lambda: C.take(np.array([0, 1], dtype="timedelta64[s]")), r"^`index` must be a boolean mask or integer row indices"),
        # numpy and pandas values are shown as the user wrote them, not as their reprs ('np.float64(2.5)', 'np.True_',
        # "<BooleanArray> [True, False] Length: 2, dtype: boolean")
        (lambda: pc.plan(C, budget=np.float64(2.5), k=5), r"^`budget` must be an integer >= 1 \(got 2.5\)$"),
        (lambda: pc.power_analysis(np.True_, 1), r"^`delta` must be a number, not a boolean \(got True\)$"),
        (lambda: pc.simulate(5, 10, rng=np.True_), r"^`rng` must be None, .* \(got True\)$"),
        (lambda: pc.pass_at_k([np.True_, 2], 1, 1), r"^`n` must contain integers, not booleans \(got True\)$"),
        (lambda: C.take([[0, 1], [2]]), r"^`index` must be a 1-d boolean mask or integer row indices \(got a ragged sequence\)$"),
        (lambda: pc.fit_difficulty(C, model="beta").best("zzz"), r"`model` must name a model present \(got 'zzz'\)"),
        (lambda: pc.fit_difficulty(C, model="beta").best(C.models[0], criterion="bogus"), r"`criterion` must be"),
        # twelfth session: the rest of the eleventh session's audit list (numpy/Python exceptions before)
        (lambda: pc.inverse_binomial_p([10, 10], [3, 4, 5]), r"`n` and `r` have incompatible shapes \(2,\) and \(3,\)"),
        (lambda: rl.dead_group_fraction([0.5, 0.4], [1, 2, 3]), r"`p` and `group_size` have incompatible shapes"),
        (lambda: rl.dead_group_fraction_beta([1, 2], [1, 2, 3], 8),
         r"`alpha`, `beta` and `group_size` have incompatible shapes \(2,\), \(3,\) and \(\)"),
        (lambda: rl.pass_at_k_weights([0.9, 0.1], [1, 2, 3]), r"`p` and `k` have incompatible shapes"),
        (lambda: rl.group_size_for_live(0.9, p=[0.5, 0.4]), r"`p` must be one number \(got 2 values\)"),
        (lambda: rl.group_size_for_live(0.9, alpha=[1, 2], beta=1), r"`alpha` must be one number"),
        (lambda: pc.hierarchical_pass_at_k([10, 10, 10], [1, 2, 3], [1, 100]), r"`k` must be one number"),
        (lambda: pc.GridMixture(p_min=0), r"`p_min` must be in \(0, 1\) \(got p_min=0\)"),
        (lambda: pc.GridMixture(grid_size=-1), r"`grid_size` must be an integer >= 2"),
        (lambda: pc.GridMixture(tol=0), r"`tol` must be > 0"),
        (lambda: pc.BetaMixtureBinomial(components="a"), r"`components` must be an integer >= 1"),
        (lambda: pc.BetaMixtureBinomial(components=100), r"`components` is too large"),
        (lambda: pc.BetaBinomial().goodness_of_fit(), r"not fitted yet: call fit\(\) first"),
        (lambda: pc.fit_power_law(C2).local_slope(), r"`model` is required: the result holds 2 models"),
        (lambda: pc.fit_power_law(C2).local_slope(model="zzz"), r"`model` must name a model present \(got 'zzz'\)"),
        (lambda: pc.AnswerTallies.from_answers([["a", "a", "b"], ["b", "b", "a"]], ["a", "b"]).problem_tallies(5),
         r"`i` must be a problem index in \[-2, 2\) \(got 5\)"),
        (lambda: pc.AnswerTallies.from_answers([["a", "a", "b"], ["b", "b", "a"]], ["a", "b"]).problem_tallies(np.int64(-3)),
         r"^`i` must be a problem index in \[-2, 2\) \(got -3\)$"),
        (lambda: pc.simulate(problems=5, n=10, models=None), r"`models` must name at least one ModelSpec"),
        # thirteenth session's API audit
        (lambda: pc.pass_at_k(np.uint64(2**63 + 5), 3, 2), r"`n` is too large \(got n=9223372036854775813"),
        (lambda: pc.pass_at_k(None, 3, 2), r"`n` must contain integers \(got None\)"),
        (lambda: pc.pass_at_k([10, None], 3, 2), r"`n` must contain integers \(got None\)"),
        (lambda: pc.standard_error([1, None, 0]), r"`s` must contain numbers \(got None\)"),
        (lambda: pc.standard_error(["0.5", "1"]), r"`s` must contain numbers \(got '0.5'\)"),
        (lambda: rl.gradient_conflict([0.1, 0.9], [[1.0], [-1.0]], [1, 4], k_max=np.inf),
         r"`k_max` must be finite \(got k_max=inf\)"),
        (lambda: rl.gradient_conflict([0.1, 0.9], [[1.0], [-1.0]], [1, 4], k_max=1), r"`k_max` must be > 1 \(got k_max=1\)"),
        (lambda: pc.g_pass_at_k([10, 5], [3, 2], 2, [0.1, 0.2, 0.3]),
         r"`n`/`c`/`k` and `tau` have incompatible shapes \(2,\) and \(3,\)"),
        (lambda: pc.stopping_pass_at_k([5, 10], [1, 0], [1, 2, 3], 5),
         r"`n`/`c` and `k` have incompatible shapes \(2,\) and \(3,\)"),
        (lambda: pc.g_pass_at_k(10, 3, 4, True), r"`tau` must contain numbers, not booleans \(got True\)"),
        # scalar arguments without a check (TypeError / ValueError before, or a silent answer)
        (lambda: pc.retries(["a", "b"], [1, 1], [1, 0], alpha=None), r"`alpha` must be a number \(got None\)"),
        (lambda: pc.retries(["a", "b"], [1, 1], [1, 0], alpha=1.5), r"`alpha` must be in \(0, 1\) \(got alpha=1.5\)"),
        (lambda: pc.simulate(5, 10, correlation=None), r"`correlation` must be a number \(got None\)"),
        (lambda: pc.simulate(5, 10, correlation=1), r"`correlation` must be in \(-1, 1\) \(got correlation=1\)"),
        (lambda: pc.simulate(5, 10, models=3), r"`models` must be a ModelSpec or a sequence of ModelSpec \(got 3\)"),
        (lambda: pc.simulate(3, 5, [pc.DEMO_MODELS[0]] * 2, rng=0),
         r"`models` holds two ModelSpec named 'tiny-1b'; each model needs its own name"),
        (lambda: pc.simulate_answers(3, 4, abstain=None), r"`abstain` must be a number \(got None\)"),
        (lambda: pc.simulate_answers(3, 4, abstain=1), r"`abstain` must be in \[0, 1\) \(got abstain=1\)"),
        (lambda: pc.simulate_answers(problems=10**9), r"`problems` is too large \(got problems=1e\+09, max 1e\+08\)"),
        (lambda: pc.simulate_answers(problems=10**6, n=1000),
         r"`problems` x `n` is too large: one row per answer \(got problems=1000000, n=1000: 1e\+09 rows, max 1e\+08\)"),
        (lambda: pc.power_analysis(0.05, 1, spread="x"), r"`spread` must be a number \(got 'x'\)"),
        (lambda: pc.power_analysis(0.05, 1, spread=-0.1, n=[2]), r"`spread` must be >= 0 \(got spread=-0.1\)"),
        (lambda: pc.power_analysis(0.05, 1, spread=0.2, metric="bogus"),
         r"`metric` must be one of pass_at_k, pass_pow_k, g_pass_at_k \(got 'bogus'\)"),
        (lambda: rl.group_size_for_live(0.9, p=0.1, max_group_size=None), r"`max_group_size` must be an integer >= 1 \(got None\)"),
        (lambda: rl.group_size_for_live(0.9, p=0.1, max_group_size=np.nan), r"`max_group_size` must be an integer >= 1 \(got nan\)"),
        (lambda: rl.group_size_for_live(0.9, p=0.1, max_group_size=-5),
         r"`max_group_size` must be an integer >= 1 \(got max_group_size=-5\)"),
        (lambda: rl.conflict_toy(lr=None), r"`lr` must be a number \(got None\)"),
        (lambda: rl.conflict_toy(separation=None), r"`separation` must be a number \(got None\)"),
        (lambda: rl.conflict_toy(anneal_at=None), r"`anneal_at` must be a number \(got None\)"),
        (lambda: rl.conflict_toy(separation=np.inf, pretrain_steps=5, steps=10),
         r"`separation` must be finite \(got separation=inf\)"),
        (lambda: pc.mean_curve([10], [3], [1], metric=np.array(["a", "b"])),
         r"`metric` must be one of pass_at_k, pass_pow_k, naive_pass_at_k, g_pass_at_k, mg_pass_at_k \(got \['a', 'b'\]\)"),
        (lambda: rl.pkpo_rewards([1.0, 0.0, 1.0], 2, baseline=np.array([True, False])),
         r"`baseline` must be one of none, loo, loo-1 \(got \[True, False\]\)"),
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], k=10).allocate(4, horizon="x"), r"`horizon` must be an integer >= 1 \(got 'x'\)"),
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], k=10).next(horizon=-5), r"`horizon` must be an integer >= 1 \(got horizon=-5\)"),
        # a look-ahead below the request had been raised to it without a word: next(5, horizon=1), a myopic rule to its
        # reader, looked 5 ahead
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], k=10).next(5, horizon=1),
         r"^`horizon` must be >= `batch`, the samples placed now, which the look-ahead covers \(got horizon=1, batch=5\)$"),
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], k=10).allocate(6, horizon=4),
         r"^`horizon` must be >= `budget`, the samples placed now, .* \(got horizon=4, budget=6\)$"),
        # next(B)'s request is its `batch`: its cap had been reported as "`budget` is too large", a name next() has not
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], k=10).next(10**8), r"^`batch` is too large \(got batch=1e\+08, max 1e\+07\)$"),
        # a set of ids has no order to pair with the outcomes: it had read as one id ("`problem` {'a', 'b'} is not one
        # of the planner's problems"), and the constructor said "`problem` has 1 entries but `n` has 2"
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], problem=["a", "b"], k=10).update({"a", "b"}, [1, 0]),
         r"^`problem` must be one id or a sequence of ids in order \(got a set, "),
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], problem=["a", "b"], k=10).update_counts({"a": 1}, [1], [0]),
         r"^`problem` must be one id or a sequence of ids in order \(got a dict, "),
        # a repeated id is named (the message had named none), and the int 1 and the str "1" are the one id "1"
        (lambda: pc.Planner(n=[5, 5, 5], c=[1, 0, 0], problem=["a", 1, "1"], k=10),
         r"^`problem` ids must be unique \(got '1' at positions 1 and 2; an id is the str of what is given\)$"),
        (lambda: pc.Planner(n=[5, 5], c=[1, 0], problem={"a", "b"}, k=10),
         r"^`problem` must be one id or a sequence of ids in order \(got a set, "),
        # a ragged or 0-d argument to the vote functions (numpy's ValueError / iteration TypeError before)
        (lambda: pc.maj_at_k([["a", "b"]], ["a"], [[1, 2], [1]]), r"`k` must be an array of integers \(got a ragged sequence\)"),
        (lambda: pc.vote([["a", "b"]], ["a"], [[1, 2], [1]]), r"`k` must be an array of integers \(got a ragged sequence\)"),
        (lambda: pc.maj_at_k_tallies([2, 1], 0, [[1, 2], [1]]), r"`k` must be an array of integers \(got a ragged sequence\)"),
        (lambda: pc.maj_at_k(np.array("a"), ["a"], 1), r"`answers` must be a sequence .* \(got a 0-d array holding 'a'\)"),
        (lambda: pc.maj_at_k([np.array("a")], ["a"], 1), r"`answers\[0\]` must be a sequence of answers \(got a 0-d array"),
        (lambda: pc.maj_at_k([["a"]], np.array("a"), 1), r"`gold` must be a sequence .* \(got a 0-d array holding 'a'\)"),
        # k_for checks counts before selecting a model from it (AttributeError before)
        (lambda: pc.k_for([[10, 3]], 0.5, model="a"), r"`counts` must be a passcurve.Counts \(got list\)"),
        # accepted silently before: m = 0 thinned to n = 0, 2-d input documented as 1-d was flattened
        (lambda: pc.thin_counts([10, 20], [3, 5], 0), r"`m` must be >= 1 \(got m=0\)"),
        (lambda: pc.maj_at_k_tallies([[1, 2], [3, 4]], 0, 2), r"`tallies` must be one number or a 1-d sequence \(got shape \(2, 2\)\)"),
        (lambda: pc.maj_at_k([["a", "a", "b"]], ["a"], [[1, 2]]), r"`k` must be one number or a 1-d sequence \(got shape \(1, 2\)\)"),
        (lambda: pc.standard_error([0.1, 0.5, 0.3, 0.9], cluster=[[0, 0], [1, 1]]),
         r"`cluster` must be a 1-d sequence, one id per problem \(got shape \(2, 2\)\)"),
        (lambda: pc.standard_error([0.1, 0.5, 0.3, 0.9], weight=[[1, 1], [2, 1]]),
         r"`weight` must be one number or a 1-d sequence \(got shape \(2, 2\)\)"),
        (lambda: pc.hierarchical_pass_at_k([10] * 4, [[1, 0], [5, 2]], 5), r"`c` must be one number or a 1-d sequence"),
        # the moments and pmf of a fitted difficulty model: exponents >= 0, integer 0 <= c <= n
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).log_moment(-1, 0), r"`c` must be >= 0 \(got c=-1\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).log_moment(0, [1, -2]), r"`d` must be >= 0 \(got d=-2\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).log_moment([1, 2], [1, 2, 3]),
         r"`c` and `d` have incompatible shapes \(2,\) and \(3,\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf(10, 2.5), r"`c` must contain integers \(got 2.5\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf(10, 11), r"`c` must be <= n \(got c=11, n=10\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf(-1, 0), r"`n` must be >= 0 \(got n=-1\)"),
        (lambda: pc.BetaBinomial().pmf(3, 1), r"not fitted yet"),
        # seventeenth session's argument fuzzing: a choice given as an array (numpy's "truth value of an array is
        # ambiguous" ValueError before), a choice list given as a number ("'int' object is not iterable")
        (lambda: pc.curve(C, k_gt_n=np.array([])), r'`k_gt_n` must be "raise", "drop" or "nan" \(got \[\]\)'),
        (lambda: pc.curve(C, metrics=3), r"`metrics` must be one of pass_at_k, .* or a sequence of them \(got 3\)"),
        (lambda: pc.curve_intervals(C, metric=1.5), r"`metric` must be one of .* or a sequence of them \(got 1.5\)"),
        (lambda: pc.curve_intervals(C, method=np.array(["a", "b"])), r"`method` must be one of .* \(got \['a', 'b'\]\)"),
        (lambda: pc.compare(C2, "m1", "m2", method=np.zeros((2, 2))), r"`method` must be one of bootstrap, bca, analytic"),
        (lambda: pc.maj_at_k([["a"]], ["a"], 1, ties=np.array([])), r"`ties` must be one of random, strict, first"),
        (lambda: pc.vote([["a"]], ["a"], 1, ties=np.zeros(2)), r"`ties` must be one of random, strict, first"),
        (lambda: pc.fit_power_law(C, convention=np.array([1, 2], dtype=object)),
         r'`convention` must be "unbiased" or "chen" \(got \[1, 2\]\)'),
        (lambda: pc.fit_power_law(C).predict(10, model=np.array(["a", "b"])), r"`model` must name a model present \(got \['a', 'b'\]\); models present"),
        (lambda: pc.forecast(C, k=100, scope=np.zeros(2)), r'`scope` must be "benchmark" or "population"'),
        (lambda: pc.forecast(C, k=100, combination=np.zeros(2)), r"`combination` must be one of"),
        (lambda: pc.forecast(C, k=100, method=np.zeros(2)), r"`method` must be one of auto, "),
        (lambda: pc.hidden_difficulty(C, k_gt_n=np.zeros(2)), r'`k_gt_n` must be "raise", "nan" or "drop" \(got \[0.0, 0.0\]\)'),
        (lambda: pc.retries(["a", "a"], [0, 1], [1, 0], method=np.zeros(2)), r'`method` must be "auto", "permutation"'),
        (lambda: pc.plan(C, budget=10, k=4, method=np.zeros(2)), r"`method` must be one of hierarchical"),
        (lambda: pc.fit_difficulty(C, model="beta").best(C.models[0], criterion=np.zeros(2)), r'`criterion` must be "aic" or "bic"'),
        (lambda: pc.backtest(C, methods=5), r"`methods` must be one of .* or a sequence of them \(got 5\)"),
        (lambda: pc.power_analysis(0.05, 1, counts=C2, a=np.array([]), b="m2"), r"`a` must name a model present \(got \[\]\); models present"),
        (lambda: pc.power_analysis(0.05, 1, counts=C2, a=["m1", "m2"], b="m2"), r"`a` must name a model present \(got \['m1', 'm2'\]\)"),
        (lambda: C2.select(np.zeros((2, 2))), r"`model` must name a model present \(got \[\[0.0, 0.0\], \[0.0, 0.0\]\]\); models present: m1, m2"),
        (lambda: C2.select_models(3), r"`models` must be a model name or a sequence of names \(got 3\)"),
        (lambda: C.take(np.array([[0, 1]])), r"`index` must be a 1-d boolean mask or integer row indices \(got shape"),
        # a switch given as an array (ambiguous truth value) or a string (silently true)
        (lambda: pc.curve(C, weighted=np.array([1, 2])), r"`weighted` must be True or False \(got \[1, 2\]\)"),
        (lambda: pc.curve_intervals(C, weighted="no"), r"`weighted` must be True or False \(got 'no'\)"),
        (lambda: pc.forecast(C, k=100, flags=np.array([])), r"`flags` must be True or False \(got \[\]\)"),
        # a resample count or grid size of 2**40 (numpy's MemoryError for terabytes before)
        (lambda: pc.compare(C2, "m1", "m2", n_resamples=2**40), r"`n_resamples` is too large \(got n_resamples=1.1e\+12, max 1e\+07\)"),
        (lambda: pc.rank_models(C2, n_resamples=2**40), r"`n_resamples` is too large"),
        (lambda: pc.curve_intervals(C, method="bootstrap", n_resamples=2**40), r"`n_resamples` is too large"),
        (lambda: pc.forecast(C, k=100, n_resamples=2**40), r"`n_resamples` is too large"),
        (lambda: pc.k_for(C, 0.5, n_resamples=2**40), r"`n_resamples` is too large"),
        (lambda: pc.default_k_grid(100, 2**40), r"`points` is too large \(got points=1.1e\+12, max 1e\+06\)"),
        (lambda: pc.simulate_answers(wrong_answers=2**40), r"`wrong_answers` is too large"),
        # pmf_bins: an infinite n or a bound beyond int64 (OverflowError before)
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins(np.inf, [0, 3, 11]),
         r"`n` must be an integer >= 0 \(got inf\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins(10, [0, 2**63]), r"`bounds` is too large"),
        # pmf_bins_many: a number, None or a list of the wrong length was Python's TypeError or zip()'s ValueError
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins_many(5, [[0, 6]]),
         r"`ns` must be a 1-d sequence of integers \(got 5\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins_many([5], None),
         r"`bounds` must be a list with one sequence of bin bounds per n in `ns` \(got None\)"),
        (lambda: pc.GridMixture().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins_many([5, 6], [[0, 6]]),
         r"`bounds` must be a list .* \(got 1 entry for 2 values of n\)"),
        (lambda: pc.GridMixture().fit(n=[10] * 4, c=[1, 2, 3, 0]).pmf_bins_many([5, 6], [[0, 6], [0, 3, 6]]),
         r"`bounds\[1\]` must increase from 0 to n \+ 1"),
        # left by the argument fuzzing and fixed after it: abstain=5 was an AttributeError ('int' object has no
        # attribute 'items'), an unknown problem was dropped in silence, -1 abstentions taken; RankResult.table(j) past
        # the last k an IndexError, 1e30 an OverflowError; conflict_toy(steps=1e11) a MemoryError
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], abstain=5),
         r"`abstain` must be a mapping from problem"),
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], abstain={"q": 1}),
         r"`abstain` names 'q', which has no answer row"),
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], abstain={"p": -1}),
         r"`abstain` must be an integer >= 0"),
        (lambda: pc.AnswerTallies.from_long(["p"], [3], [True], model=["A"], abstain={"p": 1}),
         r"`abstain` keys must be \(model, problem\) pairs"),
        (lambda: pc.rank_models(C2, k=[1, 5], n_resamples=200, rng=0).table(2), r"`j` is too large \(got j=2, max 1\)"),
        (lambda: pc.rank_models(C2, k=[1, 5], n_resamples=200, rng=0).table(10**30), r"`j` is too large"),
        (lambda: rl.conflict_toy(steps=10**11), r"`steps` is too large \(got steps=1e\+11, max 1e\+07\)"),
        (lambda: rl.conflict_toy(easy=10**5, features=10**5), r"`easy` \+ `hard` \+ `actions` times `features` \+ 1"),
        # density('abc') was numpy's UFuncTypeError, p = 1.5 a silent 0 or nan, an unfitted model a KeyError, the npmle
        # a bare NotImplementedError; simulate_answers(model=[...]) numpy's "could not broadcast input array"
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).density("abc"), r"`p` must contain numbers"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).density([0.5, 1.5]),
         r"`p` must be in \[0, 1\] \(got p=1.5\)"),
        (lambda: pc.BetaBinomial().density(0.5), r"not fitted yet"),
        (lambda: pc.GridMixture().fit(n=[10] * 4, c=[1, 2, 3, 0]).density(0.5), r"npmle .* has no density"),
        (lambda: pc.simulate_answers(model=["a", "b"]), r"`model` must be one model name, a string"),
        # nineteenth session's notebook review: a choice or a switch given as an array was numpy's "truth value of an
        # array is ambiguous" ValueError; a string switch (emit="no") was true
        (lambda: pc.pass_at_k(10, 3, 5, k_gt_n=np.array(["raise", "nan"])),
         r'`k_gt_n` must be "raise" or "nan" \(got \[\'raise\', \'nan\'\]\)'),
        (lambda: pc.g_pass_at_k(10, 3, 5, 0.5, k_gt_n=np.zeros(2)), r'`k_gt_n` must be "raise" or "nan" \(got \[0.0, 0.0\]\)'),
        (lambda: pc.mg_pass_at_k(10, 3, 5, k_gt_n="drop"), r'`k_gt_n` must be "raise" or "nan" \(got \'drop\'\)'),
        (lambda: pc.fit_difficulty(C, model=np.array(["beta", "npmle"])),
         r"`model` must be one of .* or 'all' \(got \['beta', 'npmle'\]\)"),
        (lambda: pc.check_deviations(C, emit=np.array([1, 2])), r"`emit` must be True or False \(got \[1, 2\]\)"),
        (lambda: pc.check_deviations(C, emit="no"), r"`emit` must be True or False \(got 'no'\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).log_moment(1, 2, exact=np.ones(2)),
         r"`exact` must be True or False \(got \[1.0, 1.0\]\)"),
        (lambda: rl.prompt_kernel(np.eye(3), cosine=np.ones(3)), r"`cosine` must be True or False"),
        (lambda: rl.gradient_conflict([0.1, 0.5, 0.9], np.eye(3), [1, 4], with_kernel=np.ones(3)),
         r"`with_kernel` must be True or False"),
        # a complex number lost its imaginary part (numpy's ComplexWarning, then a number); a boolean was 1.0 or 0.0
        # (rng=True the seed 1, alpha=True a Beta(1, b), confidence_level="0.9" read as 0.9)
        (lambda: pc.g_pass_at_k(10, 3, 5, 0.5 + 1j), r"`tau` must contain real numbers \(got \(0.5\+1j\)\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).pass_at_k([2, 3 + 1j]), r"`k` must contain real numbers"),
        (lambda: rl.dead_group_fraction_beta(True, 2.0, 8), r"`alpha` must contain numbers, not booleans \(got True\)"),
        (lambda: rl.pass_at_k_weights([0.1, 0.5], True), r"`k` must contain numbers, not booleans"),
        (lambda: rl.gradient_conflict([0.1, 0.5, 0.9], np.eye(3), k=[True, False]), r"`k` must contain numbers, not booleans"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).posterior_pass_at_k(10, True, 5),
         r"`c` must contain numbers, not booleans"),
        (lambda: pc.stopping_loglik([10, 5], [1, 1], True, 1), r"`p` must contain numbers, not booleans"),
        (lambda: pc.thin_counts([10, 10], [3, 4], 5, rng=True), r"`rng` must be None, a non-negative integer seed .* \(got True\)"),
        (lambda: pc.simulate(5, 10, rng=False), r"`rng` must be None, a non-negative integer seed"),
        (lambda: pc.ModelSpec("a", True, 2.0), r"`alpha` must be a finite number > 0 \(got alpha=True\)"),
        # a boolean beside numbers in a list or tuple: numpy reads (True, 2) as the numbers (1, 2), so the array's
        # dtype could not tell: plan's prior (True, 2) was Beta(1, 2), curve's k [True, 2] the budgets 1 and 2
        (lambda: pc.plan(C, budget=20, k=5, prior=(True, 2)), r"`prior` must contain numbers, not booleans \(got True\)"),
        (lambda: pc.plan(C, budget=20, k=5, prior=[1.0, False]), r"`prior` must contain numbers, not booleans \(got False\)"),
        (lambda: pc.curve(C, k=[True, 2]), r"`k` must contain integers, not booleans \(got True\)"),
        (lambda: pc.pass_at_k([[10, 10], [10, True]], 3, 2), r"`n` must contain integers, not booleans \(got True\)"),
        (lambda: pc.thin_counts([10, 10], [3, 4], [5, True]), r"`m` must contain integers, not booleans \(got True\)"),
        (lambda: pc.maj_at_k([["a", "b", "a"]], ["a"], k=(True, 2)), r"`k` must contain integers, not booleans"),
        (lambda: rl.dead_group_fraction([True, 0.3], 8), r"`p` must contain numbers, not booleans \(got True\)"),
        (lambda: rl.gradient_conflict([0.2, 0.5], np.eye(2), k=(True, 4)), r"`k` must contain numbers, not booleans"),
        (lambda: rl.gradient_conflict([0.2, 0.5], np.eye(2), prompt_weight=[True, 1.0]),
         r"`prompt_weight` must contain numbers, not booleans"),
        # an object array (a pandas column of mixed values) passed its booleans as the ints they subclass
        (lambda: pc.pass_at_k(np.array([10, True], dtype=object), 3, 2), r"`n` must contain integers, not booleans"),
        (lambda: pc.ModelSpec("a", 0.3, 2.0, impossible=False), r"`impossible` must be in \[0, 1\)"),
        (lambda: pc.ModelSpec(None, 0.3, 2.0), r"`name` must be a string \(got None\)"),
        (lambda: pc.backtest(C, problems=True), r"`problems` must be a fraction in \(0, 1\] or a whole count > 1 \(got True\)"),
        (lambda: pc.backtest(C, problems="3"), r"`problems` must be a fraction .* \(got '3'\)"),
        # neither a fraction in (0, 1] nor a whole count > 1 (session 34: the range test's mutants survived)
        *((lambda v=v: pc.backtest(C, problems=v), rf"`problems` must be a fraction in \(0, 1\] or a whole count > 1 \(got {g}\)")
          for v, g in ((0, "0"), (-0.5, "-0.5"), (1.5, "1.5"), (2.5, "2.5"), (np.inf, "inf"), (np.nan, "nan"))),
        (lambda: pc.curve_intervals(C, confidence_level=True), r"`confidence_level` must be a number in \(0, 1\) \(got True\)"),
        (lambda: pc.compare(C2, "m1", "m2", confidence_level="0.9"), r"`confidence_level` must be a number in \(0, 1\) \(got '0.9'\)"),
        # local_exponent converted k itself: numpy's "could not convert string to float" ValueError
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).local_exponent("x"), r"`k` must contain numbers \(got 'x'\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=[1, 2, 3, 0]).local_exponent(-2), r"`k` must be > 0 \(got k=-2\)"),
        # ids (problem, model, cluster): a ragged list's rows became the ids '[1, 2]' and '[3]' (retries: numpy's
        # inhomogeneous-shape ValueError), None or NaN the ids 'None' and 'nan', a 2-d array was flattened;
        # verifier_inflation(model=[[1, 2], [3]]) said "`n` is empty"
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], problem=[[1, 2], [3]]),
         r"`problem` must hold one id per row, not a sequence \(got \[1, 2\] in row 1\)"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], model=np.array([1.0, np.nan])), r"`model` has a missing id \(None/NaN\) in row 2"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], cluster=[None, "a"]), r"`cluster` has a missing id \(None/NaN\) in row 1"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], problem=np.array([["a", "b"]])),
         r"`problem` must be a 1-d sequence, one id per row \(got shape \(1, 2\)\)"),
        (lambda: pc.retries([["a", "b"], ["c"]], [0, 1], [1, 0]), r"`problem` must hold one id per row, not a sequence"),
        (lambda: pc.retries(["a", "b"], [0, 1], [1, 0], model=["m", None]), r"`model` has a missing id \(None/NaN\) in row 2"),
        (lambda: pc.verifier_inflation([10, 10], [5, 4], [3, 4], model=[[1, 2], [3]]),
         r"`model` must hold one id per row, not a sequence \(got \[1, 2\] in row 1\)"),
        (lambda: pc.standard_error([0.1, 0.5, 0.3, 0.9], cluster=[0, 0, [1], 1]), r"`cluster` must hold one id per problem, not a sequence"),
        # Counts' source and meta: meta="x" was dict()'s "dictionary update sequence element" ValueError, meta=5 a TypeError
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], meta="x"), r"`meta` must be a dict or None \(got 'x'\)"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], meta=np.zeros(2)), r"`meta` must be a dict or None"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], source=[1, 2]), r"`source` must be a string \(got \[1, 2\]\)"),
        # one number expected, several given: tau and power kept the first silently (compare's G-pass@k at tau=0.3
        # for tau=[0.3, 0.9], power_analysis at power 0.8 for [0.8, 0.99]); target_live was float()'s TypeError
        (lambda: pc.compare(C2, "m1", "m2", 2, metric="g_pass_at_k", tau=[0.3, 0.9], method="analytic"),
         r"`tau` must be one number \(got 2 values\)"),
        (lambda: pc.curve_intervals(C, [2], metric="g_pass_at_k", tau=[0.3, 0.9]), r"`tau` must be one number \(got 2 values\)"),
        (lambda: pc.rank_models(C2, 2, metric="g_pass_at_k", tau=np.array([0.5, 0.5])), r"`tau` must be one number"),
        (lambda: pc.power_analysis(0.05, 1, power=[0.8, 0.99], spread=0.4), r"`power` must be one number \(got 2 values\)"),
        (lambda: pc.power_analysis(0.05, 1, power=1.0, spread=0.4), r"`power` must be in \(0, 1\) \(got power=1\)"),
        (lambda: rl.group_size_for_live([0.5, 0.9], p=0.1), r"`target_live` must be one number \(got 2 values\)"),
        (lambda: rl.dead_groups(C, target_live=np.ones((2, 2))), r"`target_live` must be one number \(got 4 values\)"),
        # per-problem arrays given as 2-d were flattened silently (thin_counts then returned 1-d arrays for a 2-d
        # input; a (2, 2) verdict array in retries was read row by row)
        (lambda: pc.Counts.from_arrays(np.full((2, 2), 10), np.ones((2, 2), dtype=int)),
         r"`n` must be one number or a 1-d sequence \(got shape \(2, 2\)\)"),
        (lambda: pc.BetaBinomial().fit(n=[10] * 4, c=np.array([[1, 2], [3, 0]])), r"`c` must be one number or a 1-d sequence"),
        (lambda: pc.thin_counts(np.full((2, 2), 10), np.ones((2, 2), dtype=int), 5, rng=0), r"`n` must be one number or a 1-d sequence"),
        (lambda: pc.thin_counts([10] * 4, np.ones((2, 2), dtype=int), 5, rng=0), r"`c` must be one number or a 1-d sequence"),
        (lambda: pc.thin_counts([10] * 4, [1] * 4, np.full((2, 2), 5), rng=0), r"`m` must be one number or a 1-d sequence"),
        (lambda: pc.mean_curve([10, 10], [3, 4], np.array([[1, 2]])), r"`ks` must be one number or a 1-d sequence"),
        (lambda: pc.mean_curve(np.array([[10, 10]]), [3, 4], [1]), r"`n` must be one number or a 1-d sequence"),
        (lambda: pc.mean_curve([10, 10], np.array([[3, 4]]), [1]), r"`c` must be one number or a 1-d sequence"),
        (lambda: pc.Planner(n=np.full((2, 2), 10), c=np.ones((2, 2), dtype=int), k=5), r"`n` must be one number or a 1-d sequence"),
        (lambda: pc.verifier_inflation([10, 10], [5, 4], np.array([[3, 4]])), r"`c_strict` must be one number or a 1-d sequence"),
        (lambda: pc.retries(["a", "a", "b", "b"], [0, 1, 0, 1], np.array([[1, 0], [0, 1]])),
         r"`correct` must be a flat sequence of booleans, one per row \(got shape \(2, 2\)\)"),
        # AnswerTallies.from_long read is_gold with np.asarray(dtype=bool) (NaN was True, a ragged list numpy's
        # ValueError) and its ids without checks; curve_intervals' cluster was flattened; power_analysis read delta
        # through float() (True was 1.0)
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [np.nan, 1]), r"`is_gold` must be boolean \(true/false or 0/1\) \(got nan\)"),
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [[1, 0], [1]]),
         r"`is_gold` must be a flat sequence of booleans \(got a ragged sequence\)"),
        (lambda: pc.AnswerTallies.from_long([["p"], "p"], [3, 1], [True, False]), r"`problem` must hold one id per row"),
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], source=5), r"`source` must be a string \(got 5\)"),
        (lambda: pc.curve_intervals(C, cluster=np.ones((2, 2))), r"`cluster` must be a 1-d sequence, one id per row \(got shape \(2, 2\)\)"),
        (lambda: pc.curve_intervals(C, cluster=[1, 1, None, 2]), r"`cluster` has a missing id \(None/NaN\) in row 3"),
        (lambda: pc.power_analysis(True, 1, spread=0.4), r"`delta` must be a number, not a boolean \(got True\)"),
        # an argument that has no effect in the mode chosen was ignored without a word (tau="x" too)
        (lambda: pc.compare(C2, "m1", "m2", k=1, tau="x"), r"^`tau` applies only to metric g_pass_at_k \(got metric pass_at_k\)$"),
        (lambda: pc.rank_models(C2, k=1, metric="pass_pow_k", tau=0.5), r"^`tau` applies only to metric g_pass_at_k \(got metric pass_pow_k\)$"),
        (lambda: pc.curve_intervals(C, k=[1, 2], tau=0.5),
         r"^`tau` applies only to metric g_pass_at_k \(got metric pass_at_k, pass_pow_k\)$"),
        (lambda: pc.power_analysis(0.05, 1, counts=C2, a="m1", b="m2", tau=0.5), r"^`tau` applies only to metric g_pass_at_k"),
        (lambda: pc.power_analysis(0.05, 1, spread=0.4, n=[1, 5], a="m1", b="m2"),
         r"^`a`, `b` apply only with pilot `counts` \(they name its two models\)$"),
        (lambda: pc.power_analysis(0.05, 1, spread=0.4, b="x"), r"^`b` applies only with pilot `counts`"),
        (lambda: pc.power_analysis(0.05, 1, counts=C2, a="m1", b="m2", p=0.3),
         r"^`p` applies only without pilot `counts` \(the pilot's own variances are used\)$"),
        (lambda: pc.power_analysis(0.05, 1, counts=C2, a="m1", b="m2", correlation=0.5, spread=0.1),
         r"^`correlation`, `spread` apply only without pilot `counts`"),
        # from_long kept `answer` (display only) without checking its length: a string was one answer for all rows
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], answer="x"),
         r"^`answer` must hold one answer per row \(2\) \(got 'x'\)$"),
        (lambda: pc.AnswerTallies.from_long(["p", "p"], [3, 1], [True, False], answer=["a"]),
         r"^`answer` must hold one answer per row \(2\)"),
        (lambda: pc.forecast(C, k=100, method="beta", cv_resamples=50),
         r"""^`cv_resamples` applies only to method "auto" \(got method 'beta'\)$"""),
        (lambda: pc.forecast(C, k=100, method="least_squares", combination="debiased"),
         r"""^`combination` applies only to method "auto" \(got method 'least_squares'\)$"""),
        # a grid of budgets is one-dimensional, as documented: a 2-d k ran as its flattened values without a word
        # (helper-87's sweep); every grid goes through _validation.budget_grid
        *[(call, rf"^`{name}` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$") for call, name in [
            (lambda: pc.curve(C2, k=[[1, 2], [3, 4]]), "k"),
            (lambda: pc.curve_intervals(C2, [[1, 2], [3, 4]]), "k"),
            (lambda: pc.compare(C2, "m1", "m2", [[1, 2], [3, 4]]), "k"),
            (lambda: pc.rank_models(C2, [[1, 2], [3, 4]]), "k"),
            (lambda: pc.forecast(C, k=[[100, 200], [300, 400]]), "k"),
            (lambda: pc.extrapolation_bounds(C, [[100, 200], [300, 400]]), "k"),
            (lambda: pc.hidden_difficulty(C2, [[1, 2], [3, 4]]), "k"),
            (lambda: pc.fit_power_law(C2, k=[[1, 2], [3, 4]]), "k"),
            (lambda: pc.backtest(C, m=[[2, 3], [4, 5]], k=[10]), "m"),
            (lambda: pc.backtest(C, m=[2], k=[[10, 20], [30, 40]]), "k"),
            (lambda: pc.power_analysis(0.05, 1, p=0.5, correlation=0.5, spread=0.3, n=[[1, 2], [3, 4]]), "n"),
        ]],
    ],
)
def test_bad_arguments_raise_one_line_errors(call, msg):
    with pytest.raises(pc.PasscurveError, match=msg) as info:
        call()
    assert "\n" not in str(info.value)


def test_answer_tallies_abstentions_by_problem_or_pair():
    # the mapping's keys: problems (one model) or (model, problem) pairs (before: an internal "model\x1fproblem" key,
    # anything else ignored in silence)
    t = pc.AnswerTallies.from_long(["p", "p", "q"], [3, 1, 2], [True, False, True], abstain={"p": 2})
    assert t.abstain.tolist() == [2, 0] and t.n.tolist() == [6, 2]
    t = pc.AnswerTallies.from_long(["p", "q"], [3, 2], [True, True], model=["A", "B"], abstain={("B", "q"): 4})
    assert t.abstain.tolist() == [0, 4] and t.n.tolist() == [3, 6]


def test_take_one_row_number():
    # a scalar row number is that row (AttributeError 'str' object has no attribute 'astype' before)
    one = C.take(1)
    assert len(one) == 1 and one.c[0] == 5


def test_simulate_takes_one_model_spec():
    spec = pc.ModelSpec("a", 0.3, 2.0)
    one = pc.simulate(problems=5, n=10, models=spec, rng=3).counts
    listed = pc.simulate(problems=5, n=10, models=[spec], rng=3).counts
    assert one.models == ["a"] and (one.c == listed.c).all()


@pytest.mark.parametrize(
    ("kwargs", "msg"),
    [
        ({"n_col": "n", "c_col": "n"}, r"`n_col` and `c_col` name the same column 'n'"),
        ({"problem_col": 5}, r"`problem_col` must be a column name \(got 5\)"),
    ],
)
def test_read_counts_column_arguments(tmp_path, kwargs, msg):
    path = tmp_path / "c.csv"
    path.write_text("problem_id,n,c\na,10,3\nb,10,4\n")
    with pytest.raises(pc.PasscurveError, match=msg) as info:
        pc.read_counts(path, **kwargs)
    assert "\n" not in str(info.value)


def test_a_count_column_given_another_role_is_named(tmp_path, icli):
    # `--problem-col n` on a counts file (columns id, n, c) said "no count columns (n, c); columns found: id, n, c":
    # the n is there, taken as the problem id, and the message now says so
    path = tmp_path / "ids.csv"
    path.write_text("id,n,c\na,10,2\nb,10,0\n")
    r = icli("plan", str(path), "--problem-col", "n", "--budget", "10", "--k", "5")
    assert r.returncode == 2
    assert ("and no count columns (n, c): column 'n' is the problem-id column, given as `--problem-col`; columns "
            "found: id, n, c") in r.stderr, r.stderr
    assert "in Python" not in r.stderr  # the CLI names its own option once
    # in Python the reader's keyword is named too (it had named `--problem-col` and `--correct-col` alone)
    with pytest.raises(pc.PasscurveError, match=r"pass `--correct-col`, `correct_col=` in Python\), and no count "
                       r"columns \(n, c\): column 'c' is the problem-id column, given as `--problem-col`, "
                       r"`problem_col=` in Python"):
        pc.read_counts(path, problem_col="c")


def test_a_column_given_one_role_is_not_found_for_another(tmp_path, icli):
    # `--model-col n` on a counts file (id, n, c) read n as the model AND as the sample counts: curve printed a model
    # '10' of 3 problems. A given column is now no other role's: no count columns, and the message says where n went
    path = tmp_path / "ids.csv"
    path.write_text("id,n,c\na,10,2\nb,10,0\nc,10,5\n")
    r = icli("curve", str(path), "--k", "1", "--model-col", "n")
    assert r.returncode == 2 and r.stdout == ""
    assert "no count columns (n, c): column 'n' is the model column, given as `--model-col`" in r.stderr, r.stderr
    # the same for the problem id: model given as problem_id said 'duplicate (model, problem) rows: problem
    # 'problem-000' of model 'problem-000''
    demo = tmp_path / "demo.csv"
    demo.write_text("model,problem_id,n,c\nm,p1,10,2\nm,p2,10,3\n")
    with pytest.raises(pc.PasscurveError, match=r"no problem-id column \(.*\): column 'problem_id' is the model column, "
                                                r"given as `--model-col`, `model_col=` in Python; columns found: "
                                                r"model, problem_id, n, c"):
        pc.read_counts(demo, model_col="problem_id")
    # `--n-col n --problem-col c`: c is taken, said in the counts layout's message
    with pytest.raises(pc.PasscurveError, match=r"counts layout needs a `c` column \(.*\): column 'c' is the "
                                                r"problem-id column"):
        pc.read_counts(path, n_col="n", problem_col="c")


def test_plan_takes_a_prior_given_as_an_array():
    # (alpha, beta) as a numpy array is a documented prior; its summary's "prior" label compared the array with
    # "zi_beta" (numpy's ambiguous truth-value error). The same plan as the tuple (1, 2); both are fixed priors,
    # labelled "fixed" (this had asserted "beta", the mislabel of a prior that is given, not fitted)
    as_array = pc.plan(C, budget=20, k=5, prior=np.array([1.0, 2.0]), rng=0)
    as_tuple = pc.plan(C, budget=20, k=5, prior=(1.0, 2.0), rng=0)
    assert as_array.summary[0]["prior"] == "fixed"
    assert as_array.to_dict() == as_tuple.to_dict()


def test_boolean_scores_still_count_as_zero_and_one():
    # per-problem scores may be booleans (correct or not): the mean of [True, False, True] is 2/3 (closed form), and
    # of [True, 0.5, 0.0] 1.5 / 3 = 0.5 (scores where booleans are allowed keep them beside numbers)
    m, _ = pc.standard_error([True, False, True])
    assert m == pytest.approx(2 / 3, rel=1e-15)
    assert pc.standard_error([True, 0.5, 0.0])[0] == pytest.approx(0.5, rel=1e-15)


def test_power_analysis_defaults_are_the_documented_assumptions():
    """p and correlation default to None, read as 0.5 without pilot counts (Miller's example: 2181 problems)."""
    implicit = pc.power_analysis(0.03, 1, n=1)
    explicit = pc.power_analysis(0.03, 1, p=0.5, correlation=0.5, n=1)
    assert int(implicit.problems[0]) == int(explicit.problems[0]) == 2181
    assert implicit.meta == explicit.meta


def test_missing_ids_from_pandas_columns():
    """A missing id from a pandas column: a string or nullable-integer column holds pd.NA, a datetime one NaT, and
    str() made them the ids '<NA>' and 'NaT' (a problem, model or cluster so named, without a word); numpy's NaT
    too. Each is refused as None and NaN are (_validation.is_missing)."""
    pd = pytest.importorskip("pandas")
    cases = [
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], problem=pd.array(["a", None], dtype="string")),
         r"^`problem` has a missing id \(None/NaN\) in row 2$"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], problem=pd.array([None, 2], dtype="Int64")),
         r"^`problem` has a missing id \(None/NaN\) in row 1$"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], model=pd.Series([pd.Timestamp("2026-01-01"), pd.NaT])),
         r"^`model` has a missing id \(None/NaN\) in row 2$"),
        (lambda: pc.Counts.from_arrays([10, 10], [1, 2], cluster=np.array(["NaT", "2026-01-01"], dtype="datetime64[D]")),
         r"^`cluster` has a missing id \(None/NaN\) in row 1$"),
        (lambda: pc.retries(pd.array(["a", pd.NA], dtype="string"), [0, 0], [1, 0]), r"^`problem` has a missing id"),
        (lambda: pc.vote([["a", "b"], ["c", "c"]], ["a", pd.NA], 1),
         r"^`gold` is missing for problem 1; every problem needs a reference answer$"),
    ]
    for call, msg in cases:
        with pytest.raises(pc.PasscurveError, match=msg):
            call()


def test_an_unknown_model_names_the_argument_that_gave_it():
    # "unknown model 'Z'; models present: A, B" named the value and the choices but no argument: compare's `a` or `b`
    # (--a or --b), a selection's `models` (--models) or a result's `model`. Now "`arg` must ... (got ...)", as every
    # other error says it, through the one helper (_validation.check_model)
    C = pc.Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["p", "q"] * 2, model=["A", "A", "B", "B"])
    cases = [
        (lambda: C.select("Z"), "model"),
        (lambda: C.select_models(["A", "Z"]), "models"),
        (lambda: pc.compare(C, "Z", "B", k=[1]), "a"),
        (lambda: pc.compare(C, "A", "Z", k=[1]), "b"),
        (lambda: pc.power_analysis(0.05, 1, counts=C, a="A", b="Z"), "b"),
    ]
    for call, arg in cases:
        with pytest.raises(pc.PasscurveError) as info:
            call()
        assert str(info.value) == f"`{arg}` must name a model present (got 'Z'); models present: A, B"


def test_a_boolean_array_inside_a_list_is_refused_as_counts():
    # numpy reads a list of arrays as one array: [np.array([True, False]), np.array([1, 2])] is the int64 array
    # [[1, 0], [1, 2]], so bool_in (which looked into nested lists and tuples only) let the booleans through as the
    # counts 1 and 0: pass_at_k(10, that, 1) returned [[0.1, 0], [0.1, 0.2]] without a word
    flags = np.array([True, False])
    cases = [
        (lambda: pc.pass_at_k(10, [flags, np.array([1, 2])], 1), "c"),
        (lambda: pc.pass_at_k([flags, np.array([10, 10])], 1, 1), "n"),
        (lambda: pc.pass_at_k(10, 3, [np.array([True]), np.array([2])]), "k"),
        # a tuple beside an array is looked into as a tuple beside a tuple is
        (lambda: pc.pass_at_k(10, [np.array([1, 2]), (True, 2)], 1), "c"),
        (lambda: pc.local_slope([1, 2], [np.array([True]), np.array([0.5])]), "pass_at_k"),
        # a 0-d boolean array beside a number: numpy makes [np.array(True), 2] the integers [1, 2]
        (lambda: pc.pass_at_k(10, [np.array(True), 2], 1), "c"),
    ]
    for call, arg in cases:
        with pytest.raises(pc.PasscurveError) as info:
            call()
        assert str(info.value).startswith(f"`{arg}` must contain "), str(info.value)
        assert str(info.value).endswith(", not booleans (got True)"), str(info.value)
    pd = pytest.importorskip("pandas")  # pandas' boolean Series in a list alike
    with pytest.raises(pc.PasscurveError, match=r"^`c` must contain integers, not booleans \(got True\)$"):
        pc.pass_at_k(10, [pd.Series([True, False]), pd.Series([1, 2])], 1)
    # arrays of integers in a list are still counts (closed form: pass@1 = c/n)
    np.testing.assert_allclose(pc.pass_at_k(10, [np.array([1, 2]), np.array([3, 4])], 1), [[0.1, 0.2], [0.3, 0.4]],
                               rtol=1e-15)


def test_a_value_beyond_int64_is_shown_with_its_sign():
    # as_int_array refused |value| >= 2^62 as "too large" showing |value|: k = -1e20 read "`k` is too large (got
    # k=1e+20, max 4.61e+18)" where k = -1e10 read "`k` must be >= 1 (got k=-10000000000)"; with no lower bound the
    # negative value was "too large" too. Every value beyond int64 (a float, an int beyond a float, a uint64) now
    # gets the message of its own side, showing the value as given
    C = pc.Counts.from_arrays([10, 10, 10], [1, 5, 0])
    cases = [
        (lambda: pc.curve(C, k=[1, -1e20]), "`k` must be >= 1 (got k=-1e+20)"),
        (lambda: pc.curve(C, k=[1, -(10**400)]), "`k` must be >= 1 (got k=-1.00e+400)"),
        (lambda: pc.forecast(C, k=[5, -1e20]), "`k` must be >= 1 (got k=-1e+20)"),
        (lambda: pc.pass_at_k(-1e20, 1, 1), "`n` is too small (got n=-1e+20, min -4.61e+18)"),
        (lambda: pc.pass_at_k([3, -(10**400)], 1, 1), "`n` is too small (got n=-1.00e+400, min -4.61e+18)"),
        # the positive side as before; the value shown is the one beyond int64, not an ordinary one before it
        (lambda: pc.curve(C, k=[1, 1e20]), "`k` is too large (got k=1e+20, max 4.61e+18)"),
        (lambda: pc.pass_at_k([3000, 10**400], 1, 1), "`n` is too large (got n=1.00e+400, max 4.61e+18)"),
        (lambda: pc.pass_at_k(np.array([10, 2**63], dtype=np.uint64), 1, 1),
         "`n` is too large (got n=9223372036854775808, max 4.61e+18)"),
        (lambda: pc.forecast(C, k=np.array([5, 2**63], dtype=np.uint64)), "`k` must be <= 1e+15 (got k=9223372036854775808)"),
    ]
    for call, msg in cases:
        with pytest.raises(pc.PasscurveError) as info:
            call()
        assert str(info.value) == msg


def test_every_element_of_an_integer_argument_is_checked():
    # mutation testing of _validation (helper-133): no test here had a bad value after a good one, so checking the
    # first element only (or every element being bad at once) went unnoticed; 2.5 after 1 would be truncated to 2
    C = pc.Counts.from_arrays([10, 10, 10], [1, 5, 0])
    cases = [
        (lambda: pc.curve(C, k=[1, 0]), "`k` must be >= 1 (got k=0)"),
        (lambda: pc.curve(C, k=[1, 2.5]), "`k` must contain integers (got 2.5)"),
        (lambda: pc.curve(C, k=[1, np.inf]), "`k` contains an infinite value"),
        (lambda: pc.curve(C, k=[1, np.nan]), "`k` contains NaN"),
    ]
    for call, msg in cases:
        with pytest.raises(pc.PasscurveError) as info:
            call()
        assert str(info.value) == msg


def test_the_int64_cap_is_two_to_the_62_exclusive():
    # as_int_array refuses |value| >= 2^62 (INT_CAP; the retries reader says "the largest is 2^62 - 1"): 2^62 - 1 as
    # a uint64 and the largest float below 2^62 (2^62 - 512, floats there are 512 apart) are counts; pass@1 of one
    # success is 1/n (closed form)
    assert pc.pass_at_k(np.array([2**62 - 1], dtype=np.uint64), 1, 1)[0] == 1 / (2**62 - 1)
    assert pc.pass_at_k(2.0**62 - 512, 1, 1) == 1 / (2.0**62 - 512)
    with pytest.raises(pc.PasscurveError, match=r"^`n` is too large \(got n=4611686018427387904, max 4\.61e\+18\)$"):
        pc.pass_at_k(np.array([2**62], dtype=np.uint64), 1, 1)
    with pytest.raises(pc.PasscurveError, match=r"^`n` is too large \(got n=4\.611686018427388e\+18, max 4\.61e\+18\)$"):
        pc.pass_at_k(2.0**62, 1, 1)


def test_an_integer_argument_may_equal_its_cap():
    # forecast's k is at most 10^15 (budget_grid's maximum), the cap itself included, given as an int or a float
    C = pc.Counts.from_arrays([10, 10, 10], [1, 5, 0])
    for k in (10**15, 1e15):
        assert pc.forecast(C, k=[k], method="beta", n_resamples=0).k.tolist() == [10**15]
    # above it, the value as given: an int as an int, a float as a float is written (checked before the conversion)
    with pytest.raises(pc.PasscurveError, match=r"^`k` must be <= 1e\+15 \(got k=1000000000000001\)$"):
        pc.forecast(C, k=[5, 10**15 + 1])
    with pytest.raises(pc.PasscurveError, match=r"^`k` must be <= 1e\+15 \(got k=1e\+16\)$"):
        pc.forecast(C, k=[5, 1e16])


def test_number_arguments_refuse_nan_inf_masks_and_booleans_among_objects():
    # as_float_array's defaults: NaN and inf refused anywhere (not only when every value is bad), a masked array's
    # masked entries refused even where NaN is allowed (local_slope's pass_at_k), a boolean in an object array
    # refused as in a list; an object array of plain numbers is the numbers
    cases = [
        (lambda: pc.mean_curve([10, 10], [3, 4], [1], weights=[1, np.nan]), "`weights` contains NaN or an infinite value"),
        (lambda: pc.mean_curve([10, 10], [3, 4], [1], weights=[1, np.inf]), "`weights` contains NaN or an infinite value"),
        (lambda: pc.local_slope([1, 2, 3], np.ma.masked_array([0.5, 0.9, 0.95], mask=[0, 1, 0])),
         "`pass_at_k` is a masked array with 1 masked entry, which would be used as data; drop those entries (of every "
         "argument alike) or fill them (`.filled(value)`)"),
        (lambda: pc.local_slope([1, 2, 3], np.array([True, 0.9, 0.95], dtype=object)),
         "`pass_at_k` must contain numbers, not booleans (got True)"),
        # a ragged sequence is not a boolean (is_bool is False for what numpy cannot shape)
        (lambda: pc.local_slope([1, 2, 3], [[0.5], [0.9, 0.95], 0.99]), "`pass_at_k` must contain numbers"),
        # a verdict column of objects: booleans and the numbers 0 and 1 only
        (lambda: pc.retries(["a", "a", "b"], [0, 1, 0], np.array([True, 2, 0], dtype=object)),
         "`correct` must be boolean (true/false or 0/1) (got 2)"),
    ]
    for call, msg in cases:
        with pytest.raises(pc.PasscurveError) as info:
            call()
        assert str(info.value) == msg
    k, slope = pc.local_slope([1, 2, 3], np.array([0.5, 0.9, 0.95], dtype=object))
    k2, slope2 = pc.local_slope([1, 2, 3], [0.5, 0.9, 0.95])
    assert k.tolist() == k2.tolist() and slope.tolist() == slope2.tolist()


def test_verdicts_as_numbers_and_weights_below_zero():
    # correct given as the numbers 0 and 1 is the booleans (hand count: problem a solved at its second attempt,
    # b at its first, so pass@1 = 1/2 and pass@2 = 1)
    for correct in ([0, 1, 1, 0], np.array([0.0, 1.0, 1.0, 0.0]), np.array([0, True, 1, False], dtype=object)):
        r = pc.retries(["a", "a", "b", "b"], [0, 1, 0, 1], correct, rng=0)
        assert r.first_success.tolist() == [2, 1] and r.pass_at_k.tolist() == [[0.5, 1.0]]
    # a negative weight is shown: the smallest (not the largest)
    with pytest.raises(pc.PasscurveError, match=r"^`weights` must be >= 0 \(got weights=-1\)$"):
        pc.mean_curve([10, 10], [3, 4], [1], weights=[2, -1])


def test_closed_bounds_accept_their_ends():
    # check_scalar's closed bounds take their ends: power_analysis' correlation is in [-1, 1]. Two pass@1 scores of
    # p = 1/2 with correlation rho differ with variance 2 p (1 - p) (1 - rho): 1 at rho = -1, 0 at rho = 1; the
    # problems needed are ceil((z_0.975 + z_0.8)^2 var / delta^2) (the normal approximation's closed form)
    z = NormalDist().inv_cdf
    low = pc.power_analysis(0.05, 1, p=0.5, correlation=-1, n=1)
    assert low.meta["variance_of_difference"] == 1
    assert int(low.problems[0]) == math.ceil((z(0.975) + z(0.8)) ** 2 * 1 / 0.05**2) == 3140
    assert pc.power_analysis(0.05, 1, p=0.5, correlation=1, n=1).meta["variance_of_difference"] == 0
    for bad in (-1.5, 1.5):
        with pytest.raises(pc.PasscurveError, match=rf"^`correlation` must be in \[-1, 1\] \(got correlation={bad}\)$"):
            pc.power_analysis(0.05, 1, p=0.5, correlation=bad, n=1)


def test_k_up_to_n_is_accepted_and_k_above_n_is_named():
    # k = n is the largest k with an unbiased estimator: accepted; k = n + 1 is the canonical error, found among
    # good values too (not only when every k or every n is bad), naming the problem with the smallest n
    assert pc.pass_at_k(10, 3, [1, 10]).tolist() == [0.3, 1.0]  # c/n, and 1 at k = n with c >= 1
    with pytest.raises(pc.PasscurveError, match=r"^`k` must be an integer in \[1, n\] \(got k=11, n=10\); no unbiased"):
        pc.pass_at_k(10, 3, [1, 11])
    with pytest.raises(pc.PasscurveError, match=r"^`n` must be >= 1 \(got n=0\); a problem needs at least one sample$"):
        pc.pass_at_k([10, 0], [1, 0], 1)
    C = pc.Counts.from_arrays([10, 5, 10, 8], [3, 2, 4, 1], problem=["p", "q", "p", "q"], model=["m", "m", "x", "x"])
    # model m at k = 5 = its smallest n: p (n = 10, c = 3) has 1 - C(7,5)/C(10,5) = 11/12, q (n = 5, c = 2) 1
    got = pc.curve(C, k=[5], metrics="pass_at_k").values["pass_at_k"][0, 0]
    assert got == pytest.approx(float((Fraction(11, 12) + 1) / 2), rel=1e-15)
    with pytest.raises(pc.PasscurveError) as info:
        pc.curve(C, k=[1, 5, 6, 8])  # 5 = n is good: the first k above n is named
    assert str(info.value) == ("`k` must be an integer in [1, n] (got k=6, n=5); problem 'q' of model 'm' has 5 samples; "
                               "no unbiased estimator exists for k > n")
    one = pc.Counts.from_arrays([10, 1], [3, 1], problem=["p", "q"])
    with pytest.raises(pc.PasscurveError, match=r"\(got k=2, n=1\); problem 'q' of model '.*' has 1 sample; no unbiased"):
        pc.curve(one, k=[2])


def test_probabilities_and_levels_keep_their_ranges():
    # check_probability refuses NaN unless the caller allows it (g_pass_at_k's tau does not); a confidence level is in
    # the open (0, 1): its ends are refused, a level just inside them taken
    for tau in (np.nan, [0.5, np.nan]):
        with pytest.raises(pc.PasscurveError, match=r"^`tau` contains NaN or an infinite value$"):
            pc.g_pass_at_k(10, 3, 2, tau)
    for level in (0, 1, 1.2):
        with pytest.raises(pc.PasscurveError, match=rf"^`confidence_level` must be in \(0, 1\) \(got confidence_level={level}\)$"):
            pc.power_analysis(0.05, 1, confidence_level=level, n=1)
    # the two-sided normal interval at level L needs ceil((z_((1+L)/2) + z_0.8)^2 * 2p(1-p)(1-rho) / delta^2) problems
    z = NormalDist().inv_cdf
    for level in (0.0005, 0.9995):
        want = math.ceil((z((1 + level) / 2) + z(0.8)) ** 2 * (2 * 0.25 * 0.5) / 0.05**2)  # p = rho = 1/2
        assert int(pc.power_analysis(0.05, 1, p=0.5, correlation=0.5, confidence_level=level, n=1).problems[0]) == want


def test_an_integer_argument_up_to_two_to_the_53():
    # check_positive_int's default cap is 2^53 (the last integer a float holds exactly), the cap itself included:
    # default_k_grid(n) runs from 1 to n; just above it the value is written out, not as the cap's 9.01e+15
    assert int(pc.default_k_grid(2**53)[-1]) == 2**53
    with pytest.raises(pc.PasscurveError, match=r"^`n` is too large \(got n=9007199254740993, max 9\.01e\+15\)$"):
        pc.default_k_grid(2**53 + 1)
