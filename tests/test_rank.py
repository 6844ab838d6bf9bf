"""rank_models: simultaneous rank intervals (coverage by simulation with known truth), edge cases, the CLI."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from conftest import run_cli
from scipy import special

from passcurve import (
    Counts,
    DegenerateDataWarning,
    PasscurveError,
    RankResult,
    UnpairedComparisonWarning,
    rank_models,
    simulate,
)
from passcurve.data import write_counts


def _bench(theta, N, n, rng):
    """Models on shared problems: logit p = u_i + theta_m with u_i ~ N(0, 1.5^2) (hidden difficulty)."""
    u = rng.normal(0.0, 1.5, N)
    model, problem, nn, cc = [], [], [], []
    for m, t in enumerate(theta):
        p = special.expit(u + t)
        model += [f"m{m}"] * N
        problem += [f"p{i}" for i in range(N)]
        nn.append(np.full(N, n))
        cc.append(rng.binomial(n, p))
    return Counts.from_arrays(np.concatenate(nn), np.concatenate(cc), problem=problem, model=model)


def test_rank_intervals_cover_the_true_ranks_jointly():
    # known truth: population pass@1 of model m is E[expit(u + theta_m)] (Gauss-Hermite, 80 nodes), so the
    # true competition rank orders theta; two models tie. Over 150 benchmarks the intervals of all four
    # models must contain their true ranks at once in at least 93% (nominal 95%, the method is conservative)
    theta = np.array([-1.0, -0.6, -0.6, 0.2])
    x, wq = np.polynomial.hermite_e.hermegauss(80)
    truth = np.array([(wq * special.expit(1.5 * x + t)).sum() / wq.sum() for t in theta])
    true_rank = 1 + (truth[None, :] > truth[:, None] + 1e-12).sum(axis=1)
    assert true_rank.tolist() == [4, 2, 2, 1]
    rng = np.random.default_rng(11)
    hits, separated = 0, 0
    reps = 150
    for _ in range(reps):
        res = rank_models(_bench(theta, 150, 10, rng), k=1, n_resamples=400, rng=rng)
        order = [res.models.index(f"m{m}") for m in range(4)]
        lo, hi = res.rank_low[order, 0], res.rank_high[order, 0]
        hits += bool(np.all((lo <= true_rank) & (true_rank <= hi)))
        separated += bool(res.better[order[3], order[0], 0])
    assert hits / reps >= 0.93
    assert separated / reps >= 0.9  # and they are not trivially wide: the best is told from the worst


def test_identical_models_share_the_top_and_are_never_separated():
    c = np.array([3, 0, 7, 10, 1, 5])
    counts = Counts.from_arrays(np.tile(np.full(6, 10), 3), np.concatenate([c, c, np.zeros(6, int)]),
                                problem=[f"p{i}" for i in range(6)] * 3, model=["a"] * 6 + ["b"] * 6 + ["z"] * 6)
    res = rank_models(counts, k=[1, 5], rng=0, n_resamples=200)
    a, b, z = (res.models.index(m) for m in "abz")
    assert res.rank[[a, b, z], 0].tolist() == [1, 1, 3]
    assert not res.better[a, b].any() and not res.better[b, a].any()
    # z solves nothing: every problem's difference to a is >= 0, and the paired difference is significant
    assert res.better[a, z].all() and res.rank_low[z].tolist() == [3, 3] and res.rank_high[a].tolist() == [2, 2]
    assert (res.rank_low <= res.rank).all() and (res.rank <= res.rank_high).all()


def test_estimates_are_the_unbiased_means_and_the_json_is_a_leaderboard():
    bench = simulate(problems=120, n=16, rng=3)
    res = rank_models(bench.counts, k=[1, 8], rng=1, n_resamples=300)
    from passcurve import curve

    cur = curve(bench.counts, [1, 8])
    for i, m in enumerate(res.models):
        np.testing.assert_allclose(res.estimate[i], cur.values["pass_at_k"][cur.models.index(m)], rtol=1e-12)
    d = res.to_dict()
    assert [e["k"] for e in d["ranks"]] == [1, 8]
    board = d["ranks"][0]["models"]
    assert [e["rank"] for e in board] == sorted(e["rank"] for e in board)
    assert all(e["low"] <= e["estimate"] <= e["high"] and e["rank_low"] <= e["rank"] <= e["rank_high"] for e in board)
    assert len(res.to_frame()) == 2 * len(res.models)
    assert isinstance(res, RankResult) and res.plot(k=8).data


def test_plot_takes_one_of_the_results_k():
    # plot(k=[1, 99]) drew k = 1 (the first k the list shared with the result), k=True drew k = 1, and k=[1, 5, 8] was
    # numpy's "operands could not be broadcast together"; each is now the error listing the result's k
    res = rank_models(simulate(problems=30, n=16, rng=3).counts, k=[1, 8], rng=1, n_resamples=100)
    assert res.plot(k=8.0).layout.title.text == res.plot(k=8).layout.title.text
    for bad, shown in (([1, 99], r"\[1, 99\]"), (True, "True"), ([1, 5, 8], r"\[1, 5, 8\]"), ("8", "'8'"), (4, "4"), ([[1], [8, 8]], "list")):
        with pytest.raises(PasscurveError, match=rf"^`k` must be one of 1, 8 \(got {shown}\)$"):
            res.plot(k=bad)


def test_problems_not_shared_by_every_model_are_left_out_with_a_warning():
    counts = Counts.from_arrays([10] * 5, [1, 2, 3, 4, 5], problem=["p1", "p2", "p3", "p1", "p2"],
                                model=["a", "a", "a", "b", "b"])
    with pytest.warns(UnpairedComparisonWarning, match="2 problems every model has; 1 problem rows"):
        res = rank_models(counts, rng=0, n_resamples=100)
    assert res.problems == 2 and res.dropped == 1


@pytest.mark.parametrize(
    "counts, kwargs, msg",
    [
        (Counts.from_arrays([10, 10], [1, 2], problem=["a", "b"], model=["x", "x"]), {},
         r"^ranking needs at least 2 models \(got 1: x\)$"),
        (Counts.from_arrays([10, 10], [1, 2], problem=["a", "b"], model=["x", "y"]), {}, "share 0 problem"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"k": 11}, "`k` must be"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"metric": "maj"}, "`metric` must be one of"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"n_resamples": 5}, "n_resamples"),
        # the documented minimum of 100 resamples, one shared problem, ids that are one number written two ways
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"n_resamples": 99}, r"^`n_resamples` must be an integer >= 100 \(got n_resamples=99\)$"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b", "a", "c"], model=["x", "x", "y", "y"]),
         {}, r"^the models share 1 problem\(s\); ranking needs at least 2 shared problems$"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["1", "2", "1.0", "2.0"], model=["x", "x", "y", "y"]),
         {}, r"^the models share 0 problem\(s\); ranking needs at least 2 shared problems; 2 of the ids not shared are "
             r"one number written two ways, e.g. '1' and '1.0' \(ids are text"),
    ],
)
def test_bad_input(counts, kwargs, msg):
    with pytest.raises(PasscurveError, match=msg):
        rank_models(counts, **kwargs)


def test_cli_rank_table_json_and_bad_input(icli, tmp_path):
    path = tmp_path / "sim.csv"
    write_counts(simulate(problems=100, n=20, rng=5).counts, path)
    r = icli("rank", str(path), "--k", "1,10", "--n-resamples", "300")
    assert r.returncode == 0, r.stderr
    assert "pass@k at k=10: 100 shared problems, 95% simultaneous rank intervals" in r.stdout
    # the score's interval is marginal (RankResult.low/high), not simultaneous like the ranks': the table says so
    wide = icli("rank", str(path), "--k", "1", "--n-resamples", "300", env={"COLUMNS": "200"})
    assert "95% interval: the score's percentile bootstrap, each model on its own; rank interval: all models at once" \
        in wide.stdout  # the method said: the report's model table gives the analytic interval of the same score
    r = icli("rank", str(path), "--k", "1", "--json", "--n-resamples", "300")
    d = json.loads(r.stdout)
    assert d["problems"] == 100 and d["ranks"][0]["models"][0]["rank"] == 1
    bad = run_cli("rank", str(path), "--k", "21")  # a subprocess: the interpreter's exit code, no traceback
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_a_pair_equal_on_every_problem_is_judged_by_the_exact_sign_flip_test():
    # A solves every problem once, B none: the bootstrap difference has no variance. With 4 problems the exact
    # sign-flip p-value is 2^(1-4) = 0.125: not significant, so both ranks run 1..2 (it claimed A first for sure);
    # with 20 problems p = 2^-19 and A is first
    four = Counts.from_arrays([1] * 8, [1] * 4 + [0] * 4, problem=list("abcd") * 2, model=["A"] * 4 + ["B"] * 4)
    res = rank_models(four, 1, rng=0)
    assert res.rank_low.ravel().tolist() == [1, 1] and res.rank_high.ravel().tolist() == [2, 2]
    ids = [str(i) for i in range(20)]
    twenty = Counts.from_arrays([1] * 40, [1] * 20 + [0] * 20, problem=ids * 2, model=["A"] * 20 + ["B"] * 20)
    res = rank_models(twenty, 1, rng=0)
    assert res.rank_low.ravel().tolist() == [1, 2] and res.rank_high.ravel().tolist() == [1, 2]


def test_a_score_resting_on_few_problems_gets_the_rare_event_bound_as_in_curve_intervals():
    # model 'rare' solves 2 of 128 problems (pass@1 = 3/1280): the percentile bootstrap gave a narrow interval with no
    # warning, where curve_intervals gives the distribution-free Wilson bound on the number of problems and warns
    import warnings

    from passcurve import DegenerateDataWarning, curve_intervals

    N = 128
    c_rare = np.zeros(N, dtype=int)
    c_rare[:2] = [2, 1]
    c_common = np.arange(N) % 7
    counts = Counts.from_arrays(np.full(2 * N, 10), np.concatenate([c_rare, c_common]),
                                problem=np.tile(np.arange(N).astype(str), 2), model=np.repeat(["rare", "common"], N))
    # the message is curve_intervals' (one builder, _uncertainty.rare_message), with what it means for the ranks
    with pytest.warns(DegenerateDataWarning, match=r"^model 'rare', pass@k: the mean rests on fewer than 10 problems "
                      r"\(nearly every other problem scores 0 there, or 1: the effective number of problems is "
                      r"small\) at k=1; the interval there is the distribution-free Wilson bound on the number of problems "
                      r"\(wide\), and the rank interval rests on those few problems$"):
        res = rank_models(counts, k=[1], rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        ci = curve_intervals(counts.select("rare"), k=[1], metric="pass_at_k", method="bootstrap", rng=0)
    i = res.models.index("rare")
    low, high = ci.intervals["pass_at_k"]
    # the Wilson bound holds both ends here, so the two intervals agree
    assert res.high[i, 0] == pytest.approx(high[0, 0], rel=1e-12, abs=0)
    assert res.low[i, 0] == pytest.approx(low[0, 0], rel=1e-12, abs=0)
    assert res.high[i, 0] > 0.02  # 0.0341; the percentile bootstrap alone gave [0, 0.00625] (estimate 3/1280)
    j = res.models.index("common")
    assert len(res.warnings) == 1 and "common" not in res.warnings[0]
    assert res.low[j, 0] < res.estimate[j, 0] < res.high[j, 0] < 1


def test_few_problems_warning_is_curve_intervals_own_message():
    # rank wrote its own list ("pass_at_k: the score rests on fewer than 10 problems ('a' at k=1, 2, 5, 10, ...)")
    # beside curve_intervals' ("... for 2 models ('a' at 5 of 5 k from k=1; ...)"): one builder now, rank adding
    # what it means for the ranks; every k up to four, then how many of the k asked
    import warnings

    from passcurve import DegenerateDataWarning, curve_intervals

    N = 64
    c = np.zeros(3 * N, dtype=int)
    c[[0, 1, N]] = 1  # 'a' solves 2 problems, 'b' one, 'c' a seventh of them
    c[2 * N:] = np.arange(N) % 7 > 0
    counts = Counts.from_arrays(np.full(3 * N, 10), c, problem=np.tile(np.arange(N).astype(str), 3),
                                model=np.repeat(["a", "b", "c"], N))
    ks = [1, 2, 3, 4, 5]
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always", DegenerateDataWarning)
        rank_models(counts, ks, n_resamples=200, rng=0)
        curve_intervals(counts, ks, metric="pass_at_k", method="bootstrap", n_resamples=200, rng=0)
    ranked, curved = (str(w.message) for w in got if issubclass(w.category, DegenerateDataWarning))
    assert curved == ("pass@k: the mean rests on fewer than 10 problems (nearly every other problem scores 0 there, "
                      "or 1: the effective number of problems is small), for 2 models ('a' at k=1, 2, 3, 4, ... "
                      "(5 of 5 k); 'b' at k=1, 2, 3, 4, ... (5 of 5 k)); the interval there is the distribution-free "
                      "Wilson bound on the number of problems (wide)")
    assert ranked == curved + ", and the rank interval rests on those few problems"


def test_pythia_rank_intervals_and_power_rows_are_the_docs():
    # docs/uncertainty.md: at k = 10^4 it named 2.8B's and 410M's wider rank intervals only (1B's and 160M's widen
    # too), and its power table lacked the default n = 200 and 500 rows (documentation drift review)
    import warnings

    from conftest import shared_file

    from passcurve import power_analysis, read_counts

    cnt = read_counts(shared_file("pythia_math_counts.csv"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = rank_models(cnt, k=[1, 10_000], rng=0)
        power = power_analysis(0.05, 10, counts=cnt, a="Pythia 12B", b="Pythia 6.9B")
    got = {m: [(int(lo), int(hi)) for lo, hi in zip(res.rank_low[i], res.rank_high[i], strict=True)]
           for i, m in enumerate(res.models)}
    assert got == {"Pythia 12B": [(1, 3), (1, 3)], "Pythia 6.9B": [(1, 3), (1, 3)], "Pythia 2.8B": [(1, 3), (1, 4)],
                   "Pythia 1B": [(4, 5), (3, 5)], "Pythia 410M": [(4, 5), (4, 6)], "Pythia 160M": [(6, 6), (5, 6)],
                   "Pythia 70M": [(7, 7), (7, 7)]}
    assert power.to_frame()["samples_per_problem"].tolist() == [10, 20, 50, 100, 200, 500, 1000]
    assert power.problems.tolist() == [517, 246, 110, 67, 46, 34, 30]


def test_models_with_one_score_share_a_rank_whatever_the_rounding():
    # A: c = 8, 0, 1, 2, 1 (x4) of 10, B: 2, 8, 1, 0, 1 (x4): pass@1 48/200 = 0.24 for both and pass@3 equal too
    # (exact arithmetic: the same multiset of c). Summed in another order the float means were 0.24000000000000005
    # and 0.24, so A ranked 1 and B 2 at k = 1 while they tied at k = 3
    ca, cb = [8, 0, 1, 2, 1] * 4, [2, 8, 1, 0, 1] * 4
    cnt = Counts.from_arrays([10] * 40, ca + cb, problem=[f"p{i}" for i in range(20)] * 2, model=["A"] * 20 + ["B"] * 20)
    res = rank_models(cnt, [1, 3], n_resamples=200, rng=0)
    assert res.estimate[0, 0] != res.estimate[1, 0]  # the float noise this is about
    assert res.rank.tolist() == [[1, 1], [1, 1]]
    assert (res.rank_low <= res.rank).all() and (res.rank <= res.rank_high).all()


def test_rank_intervals_are_the_single_step_max_t_over_the_same_replicates():
    # Romano & Wolf (2005) single-step max-t as the module docs state it, written out with loops over the pairs of 4
    # models at k = 1 and 4: the replicate means of every model from one resample of the 40 shared problems (the
    # seed's stream: rank_models draws them first), se_ij the sd (ddof 1) of d*_ij, c the level-quantile (the next
    # order statistic up) of max_{i<j} |d*_ij - d_ij|/se_ij; i is above j when d_ij > c se_ij; the rank interval is
    # [1 + #models above i, M - #models below i]
    from fractions import Fraction

    from passcurve._uncertainty import _boot_means

    rng = np.random.default_rng(4)
    N, theta = 40, [-1.2, -0.5, -0.4, 0.6]
    u = rng.normal(0.0, 1.2, N)
    c = [rng.binomial(8, special.expit(u + t)) for t in theta]
    ids = [f"p{i:02d}" for i in range(N)]  # sorted as the rows: the shared problems keep this order
    counts = Counts.from_arrays([8] * (4 * N), np.concatenate(c), problem=ids * 4,
                                model=np.repeat(["m0", "m1", "m2", "m3"], N))
    ks = [1, 4]
    S = np.column_stack([[float(1 - Fraction(math.comb(8 - int(x), k), math.comb(8, k))) for x in c[m]]
                         for m in range(4) for k in ks])  # Chen's pass@k in exact rationals, column m*K + j
    B = 1000
    reps = _boot_means(S, np.ones(N), np.arange(N), N, B, np.random.default_rng(9))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)  # m3's pass@4 is near 1 on most problems: said
        res = rank_models(counts, ks, n_resamples=B, rng=9)
    assert list(res.models) == ["m0", "m1", "m2", "m3"]
    for j in range(2):
        est = S[:, j::2].mean(axis=0)
        rep = reps[:, j::2]
        pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
        se = {p: np.std(rep[:, p[0]] - rep[:, p[1]], ddof=1) for p in pairs}
        tmax = [max(abs(rep[r, a] - rep[r, b] - (est[a] - est[b])) / se[(a, b)] for a, b in pairs) for r in range(B)]
        crit = sorted(tmax)[math.ceil(0.95 * (B - 1))]
        above = {(a, b): est[a] - est[b] > crit * se[(a, b)] for a, b in pairs}
        above.update({(b, a): est[b] - est[a] > crit * se[(a, b)] for a, b in pairs})
        low = [1 + sum(above.get((o, i), False) for o in range(4)) for i in range(4)]
        high = [4 - sum(above.get((i, o), False) for o in range(4)) for i in range(4)]
        assert res.critical[j] == pytest.approx(crit, rel=1e-12)
        np.testing.assert_allclose(res.estimate[:, j], est, rtol=1e-14)
        assert res.rank_low[:, j].tolist() == low and res.rank_high[:, j].tolist() == high
        assert res.rank[:, j].tolist() == [1 + int((est > e).sum()) for e in est]
    assert res.rank_low[3].tolist() == [1, 1] and res.rank_high[0].tolist() == [4, 4]  # some pairs are told apart
    assert (res.rank_high - res.rank_low).max() >= 1  # and some are not


def _ranks_quietly(counts, *args, **kwargs):
    """rank_models where a model's scores are all 0 or all 1 (a rare column, its warning expected and not checked)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return rank_models(counts, *args, **kwargs)


def _constant_gaps(problems, models):
    """Models whose per-problem pass@1 is one constant each (c of n = 2): every pair differs by the same amount on
    every problem, so no pair has bootstrap variance and the exact sign-flip test decides it."""
    names = list(models)
    return Counts.from_arrays([2] * (problems * len(names)), np.repeat([models[m] for m in names], problems),
                              problem=[f"p{i:02d}" for i in range(problems)] * len(names), model=np.repeat(names, problems))


def test_the_sign_flip_test_is_bonferroni_over_the_pairs_at_its_exact_boundary():
    # Three models at pass@1 = 0, 1/2, 1 on every problem (the worst listed first): each pair's exact sign-flip
    # p-value is 2^(1-G) (2 of the 2^G sign vectors reach the observed |sum|), judged against alpha/3 (3 pairs).
    # G = 6: 2^-5 = 0.03125 > 0.05/3, no pair is told apart; G = 7: 2^-6 = 0.015625 <= 0.05/3, every pair is
    gaps = {"worst": 0, "middle": 1, "best": 2}
    six = _ranks_quietly(_constant_gaps(6, gaps), 1, n_resamples=100, rng=0)
    assert list(six.models) == ["worst", "middle", "best"]
    assert six.rank[:, 0].tolist() == [3, 2, 1] and not six.better.any()
    assert six.rank_low[:, 0].tolist() == [1, 1, 1] and six.rank_high[:, 0].tolist() == [3, 3, 3]
    # no pair has a bootstrap distribution, so the max-|t| is taken over none of them: c = 0
    assert six.critical.tolist() == [0.0]
    seven = _ranks_quietly(_constant_gaps(7, gaps), 1, n_resamples=100, rng=0)
    assert seven.rank_low[:, 0].tolist() == [3, 2, 1] and seven.rank_high[:, 0].tolist() == [3, 2, 1]
    # p <= alpha rejects (the exact test's level): two models on G = 5 problems at level 1 - 2^-4 are told apart
    # (p = 2^-4 = alpha exactly, in binary floating point too), at level 0.95 they are not
    two = _constant_gaps(5, {"worst": 0, "best": 2})
    at_p = _ranks_quietly(two, 1, n_resamples=100, rng=0, confidence_level=0.9375)
    assert at_p.rank_low[:, 0].tolist() == [2, 1] and at_p.rank_high[:, 0].tolist() == [2, 1]
    usual = _ranks_quietly(two, 1, n_resamples=100, rng=0)
    assert usual.rank_low[:, 0].tolist() == [1, 1] and usual.rank_high[:, 0].tolist() == [2, 2]


def test_models_equal_on_every_problem_are_never_told_apart_however_many_problems():
    # a and b have the same score on each of 20 problems: their difference is 0 on every problem, the sign-flip
    # p-value is 1 (every sign vector gives the sum 0), and neither is above the other although 2^-19 is tiny
    c = np.arange(20) % 3
    counts = Counts.from_arrays([2] * 60, np.concatenate([c, c, np.zeros(20, int)]),
                                problem=[f"p{i:02d}" for i in range(20)] * 3, model=np.repeat(["a", "b", "z"], 20))
    res = _ranks_quietly(counts, 1, n_resamples=200, rng=0)
    assert not res.better[0, 1].any() and not res.better[1, 0].any()
    assert res.rank_low[:, 0].tolist() == [1, 1, 3] and res.rank_high[:, 0].tolist() == [2, 2, 3]


def test_tiny_scores_that_differ_are_ranked_apart():
    # the rounding tolerance is relative (1e-12 of the larger score): pass^2 of c = 3 and c = 2 of n = 10^6 are
    # 6/(10^6 (10^6 - 1)) and 2/(10^6 (10^6 - 1)) (Chen's estimator, exact rationals), 3 times apart, so a ranks
    # first and b second
    from fractions import Fraction

    counts = Counts.from_arrays([10**6] * 4, [3, 3, 2, 2], problem=["p", "q"] * 2, model=["a", "a", "b", "b"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = rank_models(counts, 2, metric="pass_pow_k", n_resamples=100, rng=0)
    want = [Fraction(3 * 2, 10**6 * (10**6 - 1)), Fraction(2 * 1, 10**6 * (10**6 - 1))]
    np.testing.assert_allclose(res.estimate[:, 0], [float(x) for x in want], rtol=1e-14)
    assert res.rank[:, 0].tolist() == [1, 2]
    # and so is the slack at the edge of a pair's interval: on 30 problems a's c alternates 3, 4 and b's 1, 2, so the
    # per-problem pass^2 differences are 6 and 10 (units 1/(10^6 (10^6 - 1))): d = 8 units, se about 2/sqrt(30) units,
    # d/se about 22, far beyond any critical value
    thirty = Counts.from_arrays([10**6] * 60, [3, 4] * 15 + [1, 2] * 15, problem=[f"p{i:02d}" for i in range(30)] * 2,
                                model=["a"] * 30 + ["b"] * 30)
    far = _ranks_quietly(thirty, 2, metric="pass_pow_k", n_resamples=200, rng=0)
    assert far.better[0, 1, 0] and far.rank_low[:, 0].tolist() == [1, 2] and far.rank_high[:, 0].tolist() == [1, 2]


def test_the_few_problems_warning_names_the_k_where_a_model_rests_on_few():
    # 'x' solves 1 of 10 on 8 problems and 10 of 10 on 3 (of 40): at k = 1 the scores are 0.1 (x8) and 1 (x3), whose
    # effective number (sum s)^2 / sum s^2 = 3.8^2 / 3.08 = 4.7 is below 10; at k = 10 they are 1 on 11 problems
    # (11, not rare). 'y' (c = i mod 4) rests on many at both k. The warning names 'x' at k=1 only
    cx = np.zeros(40, int)
    cx[:8], cx[8:11] = 1, 10
    counts = Counts.from_arrays([10] * 80, np.concatenate([cx, np.arange(40) % 4]),
                                problem=[f"p{i:02d}" for i in range(40)] * 2, model=np.repeat(["x", "y"], 40))
    with pytest.warns(DegenerateDataWarning) as got:
        res = rank_models(counts, [1, 10], n_resamples=200, rng=0)
    assert [str(w.message) for w in got] == [res.warnings[0].removeprefix("DegenerateDataWarning: ")]
    assert len(res.warnings) == 1 and res.warnings[0].startswith("DegenerateDataWarning: model 'x', pass@k: ")
    assert " at k=1; " in res.warnings[0]


def test_clusters_are_resampled_whole_and_counted_by_the_sign_flip_test():
    # 40 problems in 10 clusters of 4, each model's rows in its own order: the intervals are the single-step max-t
    # over resamples of whole clusters (the replicate means of _boot_means with the cluster index, the seed's
    # stream), the clusters read from the first model's rows
    from fractions import Fraction

    from passcurve._uncertainty import _boot_means

    rng = np.random.default_rng(5)
    N, theta = 40, [-0.8, -0.2, 0.5]
    ids = np.array([f"p{i:02d}" for i in range(N)])
    u = np.repeat(rng.normal(0.0, 1.0, N // 4), 4) + rng.normal(0.0, 0.5, N)
    cl = np.array([f"doc{i // 4}" for i in range(N)])
    c = [rng.binomial(6, special.expit(u + t)) for t in theta]
    orders = [np.arange(N), rng.permutation(N), rng.permutation(N)]
    counts = Counts.from_arrays([6] * (3 * N), np.concatenate([c[m][o] for m, o in enumerate(orders)]),
                                problem=np.concatenate([ids[o] for o in orders]), model=np.repeat(["m0", "m1", "m2"], N),
                                cluster=np.concatenate([cl[o] for o in orders]))
    S = np.column_stack([[float(Fraction(int(x), 6)) for x in c[m]] for m in range(3)])  # pass@1 = c/n
    groups = np.unique(cl, return_inverse=True)[1]
    B = 1000
    reps = _boot_means(S, np.ones(N), groups, 10, B, np.random.default_rng(2))
    res = rank_models(counts, 1, n_resamples=B, rng=2)
    est = S.mean(axis=0)
    pairs = [(0, 1), (0, 2), (1, 2)]
    se = {p: np.std(reps[:, p[0]] - reps[:, p[1]], ddof=1) for p in pairs}
    tmax = [max(abs(reps[r, a] - reps[r, b] - (est[a] - est[b])) / se[(a, b)] for a, b in pairs) for r in range(B)]
    assert res.critical[0] == pytest.approx(sorted(tmax)[math.ceil(0.95 * (B - 1))], rel=1e-12)
    np.testing.assert_allclose(res.low[:, 0], np.quantile(reps, 0.025, axis=0), rtol=1e-12)
    # constant gaps on 20 problems in 4 clusters: the sign-flip p-value is 2^(1-4) = 1/8 over the clusters, not 2^-19
    twenty = _constant_gaps(20, {"worst": 0, "best": 2})
    four = Counts.from_arrays(twenty.n, twenty.c, problem=twenty.problem, model=twenty.model,
                              cluster=[f"c{i % 4}" for i in range(20)] * 2)
    assert _ranks_quietly(twenty, 1, n_resamples=100, rng=0).rank_low[:, 0].tolist() == [2, 1]
    assert _ranks_quietly(four, 1, n_resamples=100, rng=0).rank_low[:, 0].tolist() == [1, 1]
    one = Counts.from_arrays(twenty.n, twenty.c, problem=twenty.problem, model=twenty.model, cluster=["c"] * 40)
    with pytest.raises(PasscurveError, match=r"^the shared problems fall in fewer than 2 clusters; ranks have no interval$"):
        rank_models(one, 1)


def test_the_score_interval_is_the_percentile_bootstrap_down_to_small_scores():
    # a model solving 12 of 24,000 problems once (n = 1; 12 problems carry the mean, not a rare column): its interval is
    # the 2.5% and 97.5% quantiles of the replicate means (Efron & Tibshirani 1993, ch. 13), both ends below 0.001
    from passcurve._uncertainty import _boot_means

    N = 24_000
    ca, cb = np.zeros(N, int), (np.arange(N) % 2)
    ca[::N // 12] = 1
    counts = Counts.from_arrays([1] * (2 * N), np.concatenate([ca, cb]), problem=[f"p{i:05d}" for i in range(N)] * 2,
                                model=np.repeat(["a", "b"], N))
    res = rank_models(counts, 1, n_resamples=200, rng=3)
    reps = _boot_means(np.column_stack([ca, cb]).astype(float), np.ones(N), np.arange(N), N, 200, np.random.default_rng(3))
    np.testing.assert_allclose(res.low[:, 0], np.quantile(reps, 0.025, axis=0), rtol=1e-12)
    np.testing.assert_allclose(res.high[:, 0], np.quantile(reps, 0.975, axis=0), rtol=1e-12)
    assert 0 < res.low[0, 0] < res.estimate[0, 0] == 0.0005 < res.high[0, 0] < 0.001 and res.warnings == ()


def test_a_rare_score_on_clusters_gets_curve_intervals_bound_on_the_clusters():
    # as test_a_score_resting_on_few_problems_gets_the_rare_event_bound_as_in_curve_intervals, with the 128 problems
    # in 32 clusters of 4: the Wilson bound counts clusters and takes the clustered standard error, as curve_intervals
    # does with the same clusters (with the problems counted one by one the upper end is another number)
    from passcurve import curve_intervals

    N = 128
    c_rare = np.zeros(N, dtype=int)
    c_rare[[0, 1, 5]] = [2, 1, 3]
    cl = np.tile([f"c{i // 4:02d}" for i in range(N)], 2)
    counts = Counts.from_arrays(np.full(2 * N, 10), np.concatenate([c_rare, np.arange(N) % 7]),
                                problem=np.tile(np.arange(N).astype(str), 2), model=np.repeat(["rare", "common"], N),
                                cluster=cl)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        res = rank_models(counts, k=[1], rng=0)
        ci = curve_intervals(counts.select("rare"), k=[1], metric="pass_at_k", method="bootstrap", rng=0)
        flat = curve_intervals(counts.select("rare"), k=[1], metric="pass_at_k", method="bootstrap", rng=0,
                               cluster=False)
    high = ci.intervals["pass_at_k"][1][0, 0]
    assert res.high[0, 0] == pytest.approx(high, rel=1e-12, abs=0)
    assert abs(high - flat.intervals["pass_at_k"][1][0, 0]) > 1e-3  # the clusters matter here


def test_defaults_and_the_leaderboard_views():
    # the documented defaults (k = 1, n_resamples = 2000), table() is the first k's leaderboard, the frame holds
    # every column of the table but better_than, to_dict carries tau and the design when set, and the plot draws
    # the table best on top with error bars from each estimate to its low and high
    from passcurve import StopAtSuccess

    bench = simulate(problems=40, n=8, rng=2)
    res = rank_models(bench.counts, rng=0)
    assert res.k.tolist() == [1] and res.n_resamples == 2000
    two = rank_models(bench.counts, [1, 4], n_resamples=100, rng=0)
    assert two.table() == two.table(0) != two.table(1)
    frame = two.to_frame()
    assert list(frame.columns) == ["k", "model", "estimate", "low", "high", "rank", "rank_low", "rank_high"]
    assert "tau" not in two.to_dict() and "design" not in two.to_dict()
    g = rank_models(bench.counts, [2], metric="g_pass_at_k", tau=0.5, n_resamples=100, rng=0).to_dict()
    assert g["tau"] == 0.5
    stop = Counts.from_arrays([5, 10, 40, 5, 5, 40], [2, 1, 0, 1, 3, 0], problem=["p", "q", "r"] * 2,
                              model=["a"] * 3 + ["b"] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        d = rank_models(stop, [1, 5], design=StopAtSuccess(batch=5, cap=40), n_resamples=100, rng=0).to_dict()
    assert d["design"] == "stop at success (batch 5, cap 40)"
    fig = two.plot()
    rows = two.table(0)[::-1]
    assert fig.layout.xaxis.title.text.endswith("at k=1")
    assert [y.split("  ")[0] for y in fig.data[0].y] == [r["model"] for r in rows]
    assert [y.split("  ")[1] for y in fig.data[0].y] == [
        f"(rank {r['rank_low']}–{r['rank_high']})" if r["rank_low"] != r["rank_high"] else f"(rank {r['rank']})"
        for r in rows]
    ex = fig.data[0].error_x
    assert ex.symmetric is False
    np.testing.assert_allclose(ex.array, [r["high"] - r["estimate"] for r in rows], rtol=1e-12)
    np.testing.assert_allclose(ex.arrayminus, [r["estimate"] - r["low"] for r in rows], rtol=1e-12)


def test_a_difference_on_the_edge_of_its_interval_is_not_significant():
    # a solves 8 of 10 problems (n = 1), b 4 of them. With 200 resamples from rng=68 the critical max-|t| is reached by
    # resamples where a and b solve equally many (d* = 0), so c = |d|/se exactly and 0 lies on the edge of the
    # simultaneous interval d ± c·se, not beyond it (the rule d > c·se). In floats c·se was 0.39999999999999997 < 0.4
    # and a was called better than b for sure (rank intervals [1, 1] and [2, 2])
    from passcurve._uncertainty import _boot_means

    a, b = [0, 1, 1, 0, 1, 1, 1, 1, 1, 1], [1, 0, 0, 0, 1, 1, 1, 0, 0, 0]
    ids = [f"p{i:02d}" for i in range(10)]
    counts = Counts.from_arrays([1] * 20, a + b, problem=ids * 2, model=["a"] * 10 + ["b"] * 10)
    res = _ranks_quietly(counts, 1, n_resamples=200, rng=68)
    reps = _boot_means(np.column_stack([a, b]).astype(float), np.ones(10), np.arange(10), 10, 200,
                       np.random.default_rng(68))
    dr = reps[:, 0] - reps[:, 1]
    se = np.std(dr, ddof=1)
    assert (dr == 0).any() and res.critical[0] == pytest.approx(0.4 / se, rel=1e-12)  # the tie: c = d/se
    assert not res.better.any()
    assert res.rank_low.ravel().tolist() == [1, 1] and res.rank_high.ravel().tolist() == [2, 2]
