"""`passcurve curve`, `simulate` and `demo` end to end: in-process through the entry point's own `run` (icli, the
exit code it returns), and an unknown option through `python -m passcurve` (the real interpreter's exit code)."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest
from conftest import run_cli

import passcurve as pc
from passcurve.data import write_table


def exact_pass(n: int, c: int, k: int) -> Fraction:
    # Chen et al. 2021 in exact rationals
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


@pytest.fixture
def samples_file(tmp_path):
    # a hand-made per-sample log without a model column: 3 problems x 4 samples
    rows = {
        "problem_id": np.repeat(["p1", "p2", "p3"], 4).astype(object),
        "attempt": np.tile([1, 2, 3, 4], 3),
        "passed": np.array([1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0], dtype=bool),
    }
    path = tmp_path / "mylog.jsonl"
    write_table(rows, path)
    return path


def test_curve_json_shape_and_values(icli, samples_file):
    res = icli("curve", str(samples_file), "--k", "1,2,4", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert [m["model"] for m in data["models"]] == ["mylog"]  # no model column: named after the file
    m = data["models"][0]
    assert m["problems"] == 3
    pts = {p["k"]: p for p in m["curve"]}
    assert set(pts) == {1, 2, 4}
    for k in (1, 2, 4):
        ref = (exact_pass(4, 2, k) + exact_pass(4, 0, k) + exact_pass(4, 3, k)) / 3
        assert pts[k]["pass_at_k"] == pytest.approx(float(ref), rel=1e-14)
        ref_pow = (Fraction(math.comb(2, k), math.comb(4, k)) + Fraction(math.comb(3, k), math.comb(4, k))) / 3
        assert pts[k]["pass_pow_k"] == pytest.approx(float(ref_pow), rel=1e-14, abs=1e-300)
        ref_naive = (1 - (1 - 0.5) ** k + 0 + 1 - (1 - 0.75) ** k) / 3
        assert pts[k]["naive_pass_at_k"] == pytest.approx(ref_naive, rel=1e-14)


def test_curve_all_k_and_table(icli, samples_file):
    res = icli("curve", str(samples_file), "--all-k", "--json")
    assert res.returncode == 0, res.stderr
    assert [p["k"] for p in json.loads(res.stdout)["models"][0]["curve"]] == [1, 2, 3, 4]
    table = icli("curve", str(samples_file), "--k", "1,4")
    assert table.returncode == 0
    assert "mylog: 3 problems" in table.stdout
    assert "4 / 4 / 4" in table.stdout  # samples per problem min / median / max


def test_curve_drop_k_gt_n_reports(icli, tmp_path):
    path = tmp_path / "counts.csv"
    write_table({"problem_id": np.array(["a", "b"], dtype=object), "n": np.array([3, 10]), "c": np.array([1, 2])}, path)
    bad = icli("curve", str(path), "--k", "5")
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "got --k=5, n=3" in bad.stderr
    ok = icli("curve", str(path), "--k", "5", "--drop-k-gt-n", "--json")
    assert ok.returncode == 0, ok.stderr
    pt = json.loads(ok.stdout)["models"][0]["curve"][0]
    assert pt["dropped"] == 1 and pt["problems"] == 1
    assert pt["pass_at_k"] == pytest.approx(float(exact_pass(10, 2, 5)), rel=1e-14)
    assert "DroppedProblemsWarning" in ok.stderr


def _two_models_on_a_and_b(icli, path, names, n, c):
    """A counts file of two models on problems a and b: ``n``/``c`` the first model's two rows, then the second's.
    Returns the path and ``curve --json``'s curves by model."""
    write_table({"model": np.array([names[0]] * 2 + [names[1]] * 2, dtype=object),
                 "problem": np.array(["a", "b"] * 2, dtype=object), "n": np.array(n), "c": np.array(c)}, path)
    res = icli("curve", str(path), "--json")
    assert res.returncode == 0, res.stderr
    return path, {m["model"]: m["curve"] for m in json.loads(res.stdout)["models"]}


def test_curve_default_grid_runs_each_model_to_its_own_n(icli, tmp_path):
    path, models = _two_models_on_a_and_b(icli, tmp_path / "two.csv", ("deep", "shallow"), [1000, 1000, 10, 10],
                                          [3, 0, 1, 0])
    assert [p["k"] for p in models["deep"]][-1] == 1000
    # exact: 1 - C(997, k)/C(1000, k) for the solved problem, 0 for the other (rational arithmetic)
    assert models["deep"][-1]["pass_at_k"] == pytest.approx(0.5, rel=1e-14)
    assert models["deep"][3]["pass_at_k"] == pytest.approx(float(exact_pass(1000, 3, 10)) / 2, rel=1e-14)
    assert [p["pass_at_k"] is None for p in models["shallow"]] == [p["k"] > 10 for p in models["shallow"]]
    table = icli("curve", str(path))
    assert "'-' from k = 20: beyond the samples of shallow (n from 10 to 10)" in table.stdout
    assert "DroppedProblemsWarning" not in table.stderr
    # a k asked for by name must be estimable for every model
    bad = icli("curve", str(path), "--k", "100")
    assert bad.returncode == 2 and "got --k=100, n=10" in bad.stderr
    # ... and the error names a problem and model whose n is too small (user review: it named neither)
    assert "problem 'a' of model 'shallow' has 10 samples" in bad.stderr
    for cmd in (["compare", "--a", "deep", "--b", "shallow"], ["curve", "--ci", "analytic"]):
        other = icli(cmd[0], str(path), *cmd[1:], "--k", "100")
        assert other.returncode == 2 and "problem 'a' of model 'shallow' has 10 samples" in other.stderr, cmd


def test_curve_default_grid_ends_at_n(icli, tmp_path):
    # n = 3 is not on the 1, 2, 5, ... grid: the table listed k = 1, 2 and stopped short of pass@n (user review);
    # each model's grid now ends at its own n, and the other model's n is on the shared grid too
    _, models = _two_models_on_a_and_b(icli, tmp_path / "ends.csv", ("A", "B"), [3, 3, 64, 64], [1, 2, 1, 5])
    assert [p["k"] for p in models["B"]] == [1, 2, 3, 5, 10, 20, 50, 64]
    a_end = [p for p in models["A"] if p["k"] == 3][0]
    # pass@3 of n = 3 is the share of problems solved at all: (1 + 1) / 2 (closed form)
    assert a_end["pass_at_k"] == 1.0
    b_end = models["B"][-1]
    assert b_end["pass_at_k"] == 1.0 and b_end["naive_pass_at_k"] == pytest.approx(
        float((1 - (1 - Fraction(1, 64)) ** 64 + 1 - (1 - Fraction(5, 64)) ** 64) / 2), rel=1e-14)


def test_curve_usage_errors(icli, samples_file):
    both = icli("curve", str(samples_file), "--k", "1", "--all-k")
    assert both.returncode == 2 and "not both" in both.stderr
    badk = icli("curve", str(samples_file), "--k", "1,x")
    assert badk.returncode == 2 and "`--k`" in badk.stderr
    unknown = run_cli("curve", str(samples_file), "--nope")  # a subprocess: the interpreter's exit code, no traceback
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr


@pytest.mark.parametrize("ext", [".csv", ".parquet"])
def test_simulate_then_curve_matches_library(icli, tmp_path, ext):
    path = tmp_path / f"demo{ext}"
    res = icli("simulate", "-o", str(path), "--problems", "40", "--n", "50", "--seed", "3")
    assert res.returncode == 0, res.stderr
    got = json.loads(icli("curve", str(path), "--k", "1,10,50", "--json").stdout)
    bench = pc.simulate(problems=40, n=50, rng=3)  # same seed, same benchmark
    want = pc.curve(bench.counts, k=[1, 10, 50]).to_dict()
    assert got["models"] == want["models"]


def test_simulate_samples_round_trip(icli, tmp_path):
    path = tmp_path / "samples.parquet"
    res = icli("simulate", "-o", str(path), "--problems", "10", "--n", "20", "--samples", "--seed", "1")
    assert res.returncode == 0, res.stderr
    counts = pc.read_counts(path)
    bench = pc.simulate(problems=10, n=20, rng=1)
    order = np.lexsort((counts.problem.astype(str), counts.model.astype(str)))
    ref = np.lexsort((bench.counts.problem.astype(str), bench.counts.model.astype(str)))
    assert (counts.c[order] == bench.counts.c[ref]).all()
    assert (counts.n[order] == 20).all()


def test_models_option_keeps_the_named_models_on_every_command(icli, tmp_path):
    # --models A,B is a reading option: the data layer keeps those models (a model of n = 10^4 beside one of
    # n = 10 then gets its own all-k range), and an unknown name is a one-line error listing the models present
    from passcurve.data import read_counts, write_counts

    cnt = pc.Counts.from_arrays([10_000] * 3 + [10] * 3, [3, 40, 900, 1, 2, 5], problem=["p1", "p2", "p3"] * 2,
                                model=["big"] * 3 + ["small"] * 3)
    path = tmp_path / "mixed.csv"
    write_counts(cnt, path)
    assert read_counts(path, models=["small"]).models == ["small"]
    r = icli("curve", str(path), "--all-k", "--json", "--models", "big")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert [m["model"] for m in d["models"]] == ["big"] and d["models"][0]["curve"][-1]["k"] == 10_000
    for args in (["curve"], ["rank"], ["forecast", "--k", "100000"]):
        bad = icli(*args, str(path), "--models", "big,nope")
        assert bad.returncode == 2 and bad.stderr.strip() == (
            "passcurve: error: `--models` must name a model present (got 'nope'); models present: big, small")


def test_models_option_names_a_model_with_a_comma(icli, tmp_path):
    # "\," is a comma inside a name: the one way to keep a model such as "llama, 8B" on the command line
    from passcurve.cli._app import split_names
    from passcurve.data import write_counts

    assert split_names(r"a\,b, c ,,d") == ["a,b", " c ", "d"]  # kept as written: matched so, else stripped
    cnt = pc.Counts.from_arrays([10, 10, 10, 10], [1, 2, 3, 4], problem=["p1", "p2"] * 2,
                                model=["llama, 8B"] * 2 + ["other"] * 2)
    path = tmp_path / "comma.csv"
    write_counts(cnt, path)
    r = icli("curve", str(path), "--json", "--models", r"llama\, 8B")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    # pass@1 = mean c/n over the two problems of that model: (1/10 + 2/10) / 2
    assert [m["model"] for m in d["models"]] == ["llama, 8B"]
    assert d["models"][0]["curve"][0]["pass_at_k"] == pytest.approx(0.15, abs=1e-15)
    bad = icli("curve", str(path), "--models", "llama, 8B")
    assert bad.returncode == 2 and "`--models` must name a model present (got 'llama')" in bad.stderr


def test_curve_table_never_cuts_an_interval_bound(icli, tmp_path):
    # a weak model (5 of 128 problems solved once in 10,000 samples): its interval's lower bound is printed
    # in scientific notation, which at 80 columns used to be cut to "[1.313e-0…"
    from passcurve.cli._app import column_fmt

    path = tmp_path / "weak.csv"
    write_table({"problem_id": np.array([f"p{i}" for i in range(128)], dtype=object),
                 "n": np.full(128, 10_000), "c": np.array([1] * 5 + [0] * 123)}, path)
    args = ("curve", str(path), "--k", "1,10,100", "--ci", "analytic")
    res = icli(*args, env={"COLUMNS": "80"})
    assert res.returncode == 0, res.stderr
    assert "…" not in res.stdout
    columns: dict[int, str] = {}  # each column's text top to bottom: a wrapped cell's pieces are consecutive
    for line in res.stdout.splitlines():
        for j, cell in enumerate(re.split("[│┃]", line)[1:-1]):
            columns[j] = columns.get(j, "") + cell.strip()
    curve = json.loads(icli(*args, "--json").stdout)["models"][0]["curve"]
    f = column_fmt([pt[key] for pt in curve for key in ("pass_at_k", "low", "high")])  # pass@k's one notation
    for pt in curve:
        assert any(f"[{f(pt['low'])},{f(pt['high'])}]" in col for col in columns.values()), res.stdout


def test_curve_table_says_which_intervals(icli, samples_file):
    # the table's "95% interval" columns did not say how they were made: a simultaneous band over the k shown
    # read like per-k intervals; the JSON had interval_method, the table nothing
    wide = {"COLUMNS": "300"}
    band = icli("curve", str(samples_file), "--k", "1,2", "--ci", "band", "--n-resamples", "200", env=wide)
    assert band.returncode == 0, band.stderr
    assert "; intervals: simultaneous band, all k shown at once, counting problems" in band.stdout
    per_k = icli("curve", str(samples_file), "--k", "1,2", "--ci", "analytic", env=wide)
    assert "; intervals: analytic, each k on its own, counting problems" in per_k.stdout
    assert "intervals:" not in icli("curve", str(samples_file), "--k", "1,2", env=wide).stdout


def test_curve_refuses_interval_options_without_ci(icli, samples_file):
    # --confidence-level / --n-resamples / --seed shape intervals only. Without --ci the table had none and nothing
    # said the options were ignored (exit 0, plain values); then a warning line that the JSON's `warnings` missed.
    # Now they are the error the library gives for an argument with no effect (check_unused), before the file is read
    idle = icli("curve", str(samples_file), "--k", "1,2", "--json", "--confidence-level", "0.5",
                "--n-resamples", "100")
    assert idle.returncode == 2 and idle.stdout == ""
    assert idle.stderr.strip() == ("passcurve: error: `--confidence-level`, `--n-resamples` apply only with "
                                   "`--ci METHOD` (intervals); without it none are computed")
    one = icli("curve", str(samples_file), "--k", "1,2", "--seed", "3")
    assert one.returncode == 2 and one.stderr.strip().endswith("`--seed` applies only with `--ci METHOD` (intervals); "
                                                               "without it none are computed")
    assert icli("curve", str(samples_file), "--k", "1,2", "--json").stderr == ""
    used = icli("curve", str(samples_file), "--k", "1,2", "--json", "--ci", "analytic", "--confidence-level", "0.5")
    assert used.returncode == 0 and "apply only" not in used.stderr


def test_curve_metric_and_tau_give_g_pass_and_mg_pass_columns(icli, tmp_path):
    # README lists G-pass@k and mG-pass@k among the whole curves, but `curve` had no way to show them (user review)
    path = tmp_path / "c.csv"
    path.write_text("problem,n,c\na,12,5\nb,12,9\nc,12,0\n")
    res = icli("curve", str(path), "--metric", "g_pass_at_k,mg_pass_at_k", "--tau", "0.75", "--k", "1,4,12",
               "--json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["tau"] == 0.75
    pts = d["models"][0]["curve"]
    assert set(pts[0]) == {"k", "g_pass_at_k", "mg_pass_at_k", "problems"}
    lib = pc.curve(pc.Counts.from_arrays([12] * 3, [5, 9, 0]), [1, 4, 12], metrics=["g_pass_at_k", "mg_pass_at_k"],
                   tau=0.75)
    assert [p["g_pass_at_k"] for p in pts] == lib.values["g_pass_at_k"][0].tolist()
    assert [p["mg_pass_at_k"] for p in pts] == lib.values["mg_pass_at_k"][0].tolist()
    table = icli("curve", str(path), "--metric", "pass_at_k,g_pass_at_k", "--tau", "0.75", "--k", "1,4", "--ci",
                 "analytic")
    assert table.returncode == 0, table.stderr
    # the header may wrap at 80 columns: "G-pass@k (τ =" / "0.75)"
    assert "G-pass@k (τ =" in table.stdout and "0.75)" in table.stdout and table.stdout.count("95% interval") == 2
    # a metric shown without an interval beside ones with: the title says which (mG-pass@k has no interval method;
    # its column sat beside G-pass@k's interval without a word, helper-105's review)
    both = icli("curve", str(path), "--metric", "g_pass_at_k,mg_pass_at_k", "--tau", "0.75", "--k", "1,4", "--ci",
                "analytic", env={"COLUMNS": "300"})
    assert both.returncode == 0 and "counting problems (none for mG-pass@k)" in both.stdout, both.stdout
    assert "none for" not in table.stdout  # every metric shown has its interval
    for args, msg in [(["--metric", "g_pass_at_k"], "needs `--tau`"),
                      (["--tau", "0.5"], "`--tau` goes with `--metric g_pass_at_k`"),
                      (["--metric", "pass_at_k", "--tau", "0.5"], "`--tau` goes with `--metric g_pass_at_k`"),
                      (["--metric", "pass@k"], "`--metric` must be comma-separated names among"),
                      (["--metric", "mg_pass_at_k", "--ci", "analytic"], "`--metric` names none of them")]:
        bad = icli("curve", str(path), *args)
        assert bad.returncode == 2 and msg in bad.stderr and bad.stderr.count("\n") == 1, (args, bad.stderr)


def test_curve_marks_intervals_that_are_the_wilson_bound(tmp_path, capfd):
    # three of 30 problems ever solved: every mean rests on fewer than 10 problems; the table's interval cells carry
    # '*' and a line under the table says what it means (only the warning did), the JSON says few_problems

    from passcurve.cli._app import run

    p = tmp_path / "few.csv"
    p.write_text("problem_id,n,c\n" + "".join(f"p{i},20,{c}\n" for i, c in enumerate([0] * 27 + [5, 9, 20])))
    assert run(["curve", str(p), "--k", "1,10", "--ci", "analytic"]) == 0
    out = capfd.readouterr().out
    assert "]*" in out and "*: the mean rests on fewer than 10 problems there" in out
    assert run(["curve", str(p), "--k", "1,10", "--ci", "analytic", "--json"]) == 0
    pts = json.loads(capfd.readouterr().out)["models"][0]["curve"]
    assert [pt.get("few_problems") for pt in pts] == [True, True]


def _table_columns(text: str) -> dict[tuple[int, int], list[str]]:
    """The numbers of each column of each table printed: {(table, column): [numbers top to bottom]}."""
    columns: dict[tuple[int, int], list[str]] = {}
    table = 0
    for line in text.splitlines():
        if line.startswith("┏"):
            table += 1
        for j, cell in enumerate(re.split("[│┃]", line)[1:-1]):
            columns.setdefault((table, j), []).extend(
                re.findall(r"(?<![\w.])\d+\.\d+(?:e[-+]\d\d)?(?![\w.])|(?<![\w.e-])0(?![\w.])", cell))
    return columns


def test_curve_table_column_has_one_notation(icli):
    # BoN jailbreaking's pass^k column read "0.0007" beside "7.083e-06", and "0.0000" beside "1.469e-10": each cell
    # chose for itself. A column (with its interval's ends) now takes the report's number_format: one notation
    from conftest import shared_file

    from passcurve.cli._app import column_fmt

    # the rule by hand: 7.083e-06 needs 7 decimals for two significant digits (1 - (-6)); 2 decades: fixed point
    f = column_fmt([0.0007, 7.083e-6, None])
    assert [f(x) for x in (0.0007, 7.083e-6, None, 0.0)] == ["0.0007000", "0.0000071", "-", "0.0000000"]
    # 0.0721 to 1.469e-10 spans 8.7 decades: scientific, and an exact zero is '0'
    f = column_fmt([0.0721, 1.469e-10, 0.0])
    assert [f(x) for x in (0.0721, 1.469e-10, 0.0)] == ["7.21e-02", "1.47e-10", "0"]
    path = shared_file("bon_jailbreaking_counts.csv")
    for args in (("curve", str(path)), ("curve", str(path), "--ci", "analytic", "--k", "1,5,20")):
        res = icli(*args, env={"COLUMNS": "200"})
        assert res.returncode == 0, res.stderr
        sci, fixed = re.compile(r"\d\.\d+e[-+]\d\d"), re.compile(r"\d+\.(\d+)")
        checked = 0
        for where, nums in _table_columns(res.stdout).items():
            if not nums:
                continue
            checked += 1
            kinds = {bool(sci.fullmatch(x)) for x in nums if x != "0"}
            assert len(kinds) <= 1, (where, nums)
            if kinds == {False}:
                assert len({len(fixed.fullmatch(x).group(1)) for x in nums if x != "0"}) == 1, (where, nums)
                assert "0" not in nums, (where, nums)  # a bare 0 only in a scientific column
        assert checked >= 20
        if len(args) == 2:  # Claude 3.5 Opus's pass^10 (7.083e-06 before) beside its pass^5 (0.0007 before)
            assert "│ 10 │ 0.3507 │ 7.08e-06 │" in res.stdout and "6.70e-04" in res.stdout


def test_curve_columns_write_no_rate_below_one_as_one(tmp_path, icli):
    # three problems at n = 100,000, one failure among them: pass@1 = 1 - 1/300,000 = 0.9999967 and pass^10 =
    # (1/3)(2 + C(99999, 10)/C(100000, 10)) = 0.9999667 (exact rationals) had read 1.0000 (column_fmt's 4 decimals);
    # each column now keeps the decimals that tell them from 1 (below_one, as forecast's), and pass@10 = 1 exactly
    # (n - c = 1 < 10) stays 1
    p = tmp_path / "near1.csv"
    p.write_text("problem_id,n,c\np0,100000,99999\np1,100000,100000\np2,100000,100000\n")
    res = icli("curve", str(p), "--k", "1,10")
    assert res.returncode == 0, res.stderr
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:5]] for line in res.stdout.splitlines()
            if line.startswith("│")}
    assert rows["1"] == ["0.9999967", "0.9999967", "0.9999967"]
    assert rows["10"][0] == "1.0000000" and rows["10"][1] == "0.9999667"
