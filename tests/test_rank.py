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
        (Counts.from_arrays([10, 10], [1, 2], problem=["a", "b"]), {}, "at least 2 models"),
        (Counts.from_arrays([10, 10], [1, 2], problem=["a", "b"], model=["x", "y"]), {}, "share 0 problem"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"k": 11}, "`k` must be"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"metric": "maj"}, "`metric` must be one of"),
        (Counts.from_arrays([10] * 4, [1, 2, 3, 4], problem=["a", "b"] * 2, model=["x", "x", "y", "y"]),
         {"n_resamples": 5}, "n_resamples"),
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
