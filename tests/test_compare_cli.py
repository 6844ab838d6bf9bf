"""CLI: `passcurve compare` and `passcurve curve --ci`."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from passcurve import Counts, PasscurveError, compare, curve_intervals, power_analysis, simulate
from passcurve.data import read_counts, write_counts


@pytest.fixture(scope="module")
def counts_file(tmp_path_factory):
    bench = simulate(60, 20, rng=3)
    doc = np.array([f"doc{int(p.split('-')[1]) // 4}" for p in bench.counts.problem], dtype=object)
    cnt = Counts.from_arrays(bench.counts.n, bench.counts.c, problem=bench.counts.problem, model=bench.counts.model, cluster=doc)
    path = tmp_path_factory.mktemp("cli") / "counts.csv"
    write_counts(cnt, path)
    back = read_counts(path)  # the file round-trips (the reader has no cluster column to read)
    assert back.n.tolist() == cnt.n.tolist() and back.c.tolist() == cnt.c.tolist()
    return path, cnt


def test_curve_ci_json_has_low_high(icli, counts_file):
    path, cnt = counts_file
    r = icli("curve", str(path), "--k", "1,5,20", "--ci", "analytic", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    pt = d["models"][0]["curve"][1]
    assert pt["low"] <= pt["pass_at_k"] <= pt["high"]
    assert "pass_pow_k_low" in pt
    assert d["interval_method"] == "analytic" and d["confidence_level"] == 0.95
    # the same numbers as the library (the file carries no cluster column for the reader)
    lib = curve_intervals(cnt, [1, 5, 20], method="analytic", cluster=False)
    assert pt["low"] == pytest.approx(float(lib.intervals["pass_at_k"][0][0, 1]))


def test_curve_ci_cluster_col(icli, counts_file):
    path, _ = counts_file
    r = icli("curve", str(path), "--k", "1", "--ci", "bootstrap", "--n-resamples", "200", "--cluster-col", "cluster", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["interval_method"] == "bootstrap (clustered)"


def test_compare_json_matches_library(icli, counts_file):
    path, cnt = counts_file
    r = icli("compare", str(path), "--a", "large-70b", "--b", "tiny-1b", "--k", "1,10", "--method", "analytic", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    lib = compare(cnt, "large-70b", "tiny-1b", [1, 10], method="analytic", cluster=False)  # no --cluster-col
    assert d["points"][1]["difference"] == pytest.approx(lib.difference[1])
    assert d["points"][1]["p_value"] == pytest.approx(lib.p_value[1])
    table = icli("compare", str(path), "--a", "large-70b", "--b", "tiny-1b", "--k", "1,10")
    assert table.returncode == 0 and "difference" in table.stdout


def test_option_aliases_match_the_other_commands(icli, counts_file, tmp_path):
    # compare takes --ci as curve does, fit takes --difficulty as rl-signal does; the older names still work
    path, _ = counts_file
    base = ["compare", str(path), "--a", "large-70b", "--b", "tiny-1b", "--k", "1,10", "--json"]
    by_method, by_ci = icli(*base, "--method", "analytic"), icli(*base, "--ci", "analytic")
    assert by_method.returncode == by_ci.returncode == 0, by_ci.stderr
    assert json.loads(by_ci.stdout) == json.loads(by_method.stdout)
    fits = [icli("fit", str(path), flag, "beta", "--json") for flag in ("--difficulty", "--model")]
    assert fits[0].returncode == fits[1].returncode == 0, fits[0].stderr
    assert json.loads(fits[0].stdout) == json.loads(fits[1].stdout)
    bad = icli("fit", str(path), "--model", "nope")
    assert bad.returncode == 2 and "`--difficulty` must be one of beta" in bad.stderr


@pytest.mark.parametrize(
    "args, match",
    [
        (["compare", "{f}", "--a", "large-70b", "--b", "nope"], "`--b` must name a model present (got 'nope')"),
        (["curve", "{f}", "--k", "1", "--ci", "cluster", "--cluster-col", "nope"], "nope"),
        # --tau with a metric other than G-pass@k was silently ignored: the table showed pass@k
        (["compare", "{f}", "--a", "large-70b", "--b", "tiny-1b", "--tau", "0.5"],
         "`--tau` goes with `--metric g_pass_at_k` (got --metric pass_at_k)"),
        (["rank", "{f}", "--metric", "pass_pow_k", "--tau", "0.5"],
         "`--tau` goes with `--metric g_pass_at_k` (got --metric pass_pow_k)"),
    ],
)
def test_cli_bad_input(icli, counts_file, args, match):
    path, _ = counts_file
    r = icli(*[a.format(f=path) for a in args])
    assert r.returncode == 2
    assert match in r.stderr and "Traceback" not in r.stderr


def test_power_cli_needs_no_file(icli):
    # REFERENCE.md (Miller 2024): p~0.5, correlation 0.5, K=1, delta=0.03 -> N ~ 2180
    r = icli("power", "--delta", "0.03", "--n", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert abs(json.loads(r.stdout)["plan"][0]["problems"] - 2180) <= 1
    bad = icli("power", "--delta", "0.03", "--n", "1,4")
    assert bad.returncode == 2 and "`--spread`" in bad.stderr
    # no --n: the default grid (1, 2, 5, ... samples per problem) is what needs --spread, and the message says so
    bare = icli("power", "--delta", "0.03")
    assert bare.returncode == 2 and bare.stderr.count("\n") == 1, bare.stderr
    assert "default `--n`" in bare.stderr and "`--spread`" in bare.stderr and "`--n 1`" in bare.stderr
    # that note comes after every value is checked: a bad --delta or --power is the error, as with --spread given
    for args, said in ((("--delta", "2"), "`--delta` must be in (0, 1]"), (("--delta", "0.03", "--power", "1.5"),
                                                                        "`--power` must be in (0, 1)")):
        first = icli("power", *args)
        assert first.returncode == 2 and said in first.stderr and "--spread" not in first.stderr, first.stderr
    grid = icli("power", "--delta", "0.03", "--spread", "0.4", "--json")
    assert grid.returncode == 0, grid.stderr
    assert [r["samples_per_problem"] for r in json.loads(grid.stdout)["plan"]] == [1, 2, 5, 10, 20, 50, 100]
    # the table's title shows ω², and the caption says what it is (PowerResult.omega2)
    table = icli("power", "--delta", "0.03", "--spread", "0.4", "--n", "1,10", env={"COLUMNS": "200"})
    assert table.returncode == 0 and "ω²=" in table.stdout
    assert "ω²: the between-problem variance of the true per-problem difference at k" in table.stdout


def test_power_cli_refuses_flags_that_would_be_ignored(icli, cli, counts_file):
    """--p/--correlation/--spread are the assumptions without a pilot and --a/--b name the pilot's models: each was
    ignored in the other mode."""
    path, _ = counts_file
    with_pilot = cli("power",  # a subprocess: the interpreter's exit code, no traceback
                      "--delta", "0.05", "--pilot", str(path), "--a", "m1", "--b", "m2", "--p", "0.3")
    assert with_pilot.returncode == 2 and "Traceback" not in with_pilot.stderr
    assert with_pilot.stderr.strip().endswith("`--p` applies only without `--pilot` (the pilot's own variances are used)")
    no_pilot = icli("power", "--delta", "0.05", "--n", "1", "--a", "m1")
    assert no_pilot.returncode == 2
    assert no_pilot.stderr.strip().endswith("`--a` applies only with `--pilot` (they name its two models)")
    # the user's first bad value is the error, before a flag that would be ignored: '--delta 2 --a x' had been told
    # of the --a; and the grid says its flag, which the renaming of a file-reading command leaves as the column `n`
    first = icli("power", "--delta", "2", "--a", "x")
    assert first.returncode == 2 and first.stderr == "passcurve: error: `--delta` must be in (0, 1] in absolute value " \
                                                     "(got --delta=2)\n", first.stderr
    for args in (("--n", "0"), ("--n", "0,5", "--spread", "0.2"), ("--n", "0", "--pilot", str(path), "--a", "m1")):
        zero = icli("power", "--delta", "0.1", *args)
        assert zero.returncode == 2 and zero.stderr == "passcurve: error: `--n` must be >= 1 (got --n=0)\n", zero.stderr
    # a --k beyond the grid names the grid's flag: it read "`--k` must be an integer in [1, n] (got --k=5, n=2)", the n
    # of a pilot's column to a reader, where it is --n
    for args in (("--n", "2", "--pilot", str(path), "--a", "m1", "--b", "m2"), ("--n", "2,10", "--spread", "0.2")):
        over = icli("power", "--delta", "0.1", "--k", "5", *args)
        assert over.returncode == 2 and over.stderr == ("passcurve: error: `--k` must be an integer in [1, --n] (got "
                                                        "--k=5, --n=2); no unbiased estimator exists for k > n\n"), over.stderr
    # the library's own argument is n
    with pytest.raises(PasscurveError, match=r"^`k` must be an integer in \[1, n\] \(got k=5, n=2\);"):
        power_analysis(0.1, 5, n=[2, 10], spread=0.2)


def test_hidden_difficulty_cli(icli, counts_file):
    path, cnt = counts_file
    r = icli("hidden-difficulty", str(path), "--k", "1,8", "--json")
    assert r.returncode == 0, r.stderr
    from passcurve import hidden_difficulty

    lib = hidden_difficulty(cnt, [1, 8]).to_dict()
    assert json.loads(r.stdout)["models"][0]["p_both_right"] == pytest.approx(lib["models"][0]["p_both_right"])


def test_hidden_difficulty_pair_columns_leave_out_one_sample_problems(tmp_path, icli):
    # review repro (g4.csv): P(2nd | 1st) = 1.25 and ICC 1.4167 printed without a word; over the two problems
    # with n >= 2 they are 5/6 and 7/12 (closed form in test_diagnostics), and the table and stderr say why
    path = tmp_path / "g4.csv"
    path.write_text("problem_id,n,c\na,1,0\nb,5,1\nc,5,5\n")
    r = icli("hidden-difficulty", str(path))
    assert r.returncode == 0, r.stderr
    assert "DroppedProblemsWarning: model 'g4': 1 of 3 problems have one sample" in r.stderr
    rows = [[c.strip() for c in re.split("[│┃]", line)[1:-1]] for line in r.stdout.splitlines()]
    assert ["g4", "0.4000", "0.3600", "0.5000", "0.8333", "0.5833"] in rows
    assert ("g4: μ², P(both right), P(2nd | 1st) and ICC over its 2 problems with n >= 2 (μ there 0.6000); 1 with "
            "n = 1 left out") in r.stdout
    e = json.loads(icli("hidden-difficulty", str(path), "--json").stdout)["models"][0]
    assert e["p_second_given_first"] == pytest.approx(5 / 6) and e["icc"] == pytest.approx(7 / 12)
    assert e["problems"] == 2 and e["problems_one_sample"] == 1


def test_hidden_difficulty_says_why_an_icc_is_undefined(tmp_path, icli):
    # every answer wrong (or every one right): ICC 0/0 printed '-' with no word why (API fuzz, session 32). The
    # library's DegenerateDataWarning now says it, once on stderr and in --json's warnings
    path = tmp_path / "flat.csv"
    path.write_text("model,problem_id,n,c\n" + "".join(f"{m},{p},10,{c}\n" for m, c in (("none", 0), ("all", 10))
                                                       for p in "abc"))
    r = icli("hidden-difficulty", str(path))
    assert r.returncode == 0, r.stderr
    for m, said in (("none", "every answer is wrong (c = 0"), ("all", "every answer is right (c = n")):
        line = f"passcurve: warning: DegenerateDataWarning: model '{m}': {said} on each of its 3 problems), so the " \
               "outcomes do not vary and the intra-class correlation is undefined (0/0)"
        assert r.stderr.count(line) == 1, r.stderr
    rows = [[c.strip() for c in re.split("[│┃]", line)[1:-1]] for line in r.stdout.splitlines()]
    assert ["none", "0.0000", "0.0000", "0.0000", "-", "-"] in rows and ["all", "1.0000", "1.0000", "1.0000",
                                                                        "1.0000", "-"] in rows, r.stdout
    said = json.loads(icli("hidden-difficulty", str(path), "--json").stdout)["warnings"]
    assert sum("intra-class correlation is undefined" in w for w in said) == 2, said


def test_hidden_difficulty_names_where_samples_end_once_per_k(icli, counts_file):
    # every model's samples end at the same k: one footnote naming them all (it was one line per model)
    path, cnt = counts_file
    n = int(cnt.n.max())
    r = icli("hidden-difficulty", str(path), "--k", f"1,{n + 1}")
    assert r.returncode == 0, r.stderr
    notes = [line for line in r.stdout.splitlines() if "beyond the samples of" in line]
    assert len(notes) == 1 and all(m in notes[0] for m in cnt.models), notes


def test_long_names_are_wrapped_not_cut_in_80_columns(icli, tmp_path):
    # CLI audit: piped to a file (80 columns), rank showed four rows of "meta-llama/Meta-Llama-3.…" and plan cut
    # problem ids, so the rows could not be told apart

    from passcurve import Counts
    from passcurve.data import write_counts

    names = [f"meta-llama/Meta-Llama-3.1-70B-Instruct-temperature-{t}" for t in ("0.2", "0.7")]
    probs = [f"https://github.com/some-org/some-repo/issues/{i}" for i in range(12)]
    cnt = Counts.from_arrays([20] * 24, [(3 * i) % 21 for i in range(24)], problem=probs * 2,
                             model=[names[0]] * 12 + [names[1]] * 12)
    path = write_counts(cnt, tmp_path / "long.csv")
    for args in (["rank", "--k", "1"], ["compare", "--a", names[0], "--b", names[1], "--k", "1"],
                 ["hidden-difficulty"], ["plan", "--budget", "200", "--k", "100"]):
        res = icli(*args, str(path), env={"COLUMNS": "80"})
        assert res.returncode == 0, res.stderr
        # each column's text top to bottom: a wrapped cell's pieces are consecutive there
        columns: dict[int, str] = {}
        for line in res.stdout.splitlines():
            cells = re.split("[│┃]", line)[1:-1]
            for j, cell in enumerate(cells):
                columns[j] = columns.get(j, "") + cell.strip()
        if args[0] == "plan":  # the problems the plan gives samples to, each id whole
            assert any(p in col for p in probs for col in columns.values()), (args, res.stdout)
        else:
            assert all(any(w in col for col in columns.values()) for w in names), (args, res.stdout)
        assert "…" not in res.stdout, (args, res.stdout)


def test_g_pass_tables_and_json_name_tau(icli, counts_file):
    # G-pass@k's number depends on its threshold, which compare's and rank's titles and JSON left out
    path, cnt = counts_file
    base = {"compare": ["--a", "large-70b", "--b", "tiny-1b"], "rank": []}
    for cmd, extra in base.items():
        args = [cmd, str(path), *extra, "--k", "1,4", "--metric", "g_pass_at_k", "--tau", "0.5",
                "--n-resamples", "200"]
        table, js = icli(*args), icli(*args, "--json")
        assert table.returncode == js.returncode == 0, table.stderr + js.stderr
        assert "G-pass@k (τ = 0.5)" in table.stdout
        assert json.loads(js.stdout)["tau"] == 0.5
    plain = json.loads(icli("compare", str(path), "--a", "large-70b", "--b", "tiny-1b", "--json").stdout)
    assert "tau" not in plain and compare(cnt, "large-70b", "tiny-1b", [1], cluster=False).tau is None
    assert compare(cnt, "large-70b", "tiny-1b", [1], metric="g_pass_at_k", tau=0.25, cluster=False).tau == 0.25


def test_hidden_difficulty_prints_four_decimals_as_the_other_tables(tmp_path, capfd):
    # CLI audit: hidden-difficulty printed 4 significant figures, so 1 - 1e-8 showed as "1" and 0.81 as "0.81"
    # where curve prints "1.0000" and "0.8100"; its cells are now fmt_cell's (4 decimals, scientific below 1e-4)
    from passcurve.cli._app import fmt_cell, run

    path = tmp_path / "c.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},10,9\n" for i in range(5)))  # mu = 0.9 everywhere
    assert run(["hidden-difficulty", str(path), "--k", "1,8"]) == 0
    rows = {}
    for line in capfd.readouterr().out.splitlines():
        cells = [c.strip() for c in re.split("[│┃]", line)[1:-1]]
        if len(cells) > 2 and cells[1] in ("1", "8"):
            rows[cells[1]] = cells
    # k = 8: pass@8 = 1 exactly, 1 - (1 - 0.9)^8 = 1 - 1e-8, pass^8 = C(9,8)/C(10,8) = 0.2, 0.9^8 = 0.43046721
    assert rows["8"][2:] == ["1.0000", "1.0000", "0.2000", "0.4305"]
    assert rows["8"][2:] == [fmt_cell(v) for v in (1.0, 1 - 1e-8, 0.2, 0.9**8)]


def test_ids_that_are_one_number_written_two_ways_are_named(tmp_path, icli):
    # a pandas float id column (0.0, 1.0, ...) beside a JSONL log's integers (0, 1, ...): ids are text, so no problem
    # is shared; the unpaired warning (compare) and the error (rank) said only "0 shared"

    import duckdb

    floats = tmp_path / "floats.parquet"
    duckdb.sql(f"COPY (SELECT (i // 3)::DOUBLE AS problem_id, i % 3 AS attempt, i % 2 = 0 AS correct "
               f"FROM range(36) t(i)) TO '{floats}' (FORMAT parquet)")
    ints = tmp_path / "ints.jsonl"
    ints.write_text("".join(json.dumps({"problem_id": i // 3, "attempt": i % 3, "correct": i % 5 == 0}) + "\n"
                            for i in range(36)))
    note = ("12 of the ids not shared are one number written two ways, e.g. '0.0' and '0' (ids are text: write them "
            "one way in both files, e.g. as integers, to pair them)")
    out = icli("compare", str(floats), str(ints), "--a", "floats", "--b", "ints", "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout)["warnings"][0].endswith("(12 and 12, 0 shared): the comparison is unpaired and much "
                                                          "less precise; compare on the shared problems for a paired "
                                                          "test; " + note)
    out = icli("rank", str(floats), str(ints))
    assert out.returncode == 2 and out.stderr == ("passcurve: error: the models share 0 problem(s); ranking needs at "
                                                  "least 2 shared problems; " + note + "\n")
    # ids that differ otherwise get no note
    other = tmp_path / "other.jsonl"
    other.write_text(ints.read_text().replace('"problem_id": ', '"problem_id": 100'))
    out = icli("rank", str(floats), str(other))
    assert out.stderr == "passcurve: error: the models share 0 problem(s); ranking needs at least 2 shared problems\n"


def test_compare_table_writes_a_and_b_in_one_notation(icli):
    # the two models' columns are the same quantity side by side: one notation for both (as the report's table), each
    # with the difference and its interval in one too. BoN jailbreaking, pass^k: GPT4o's column alone spans 3.95
    # decades (fixed, 7 decimals: "0.0000059"), Claude 3.5 Opus's 4.0 (scientific); together scientific
    from conftest import shared_file

    path = shared_file("bon_jailbreaking_counts.csv")
    r = icli("compare", str(path), "--a", "GPT4o", "--b", "Claude 3.5 Opus", "--k", "1,10,60", "--metric", "pass_pow_k",
             env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    rows = {cells[0]: cells[1:] for line in r.stdout.splitlines()
            if len(cells := [c.strip() for c in re.split("[│┃]", line)[1:-1]]) == 7 and cells[0].isdigit()}
    assert rows["10"][:3] == ["5.94e-06", "7.08e-06", "-1.14e-06"] and rows["60"][:3] == ["0", "0", "0"], rows
    assert rows["1"][:2] == ["5.31e-02", "7.21e-02"]


@pytest.mark.shared_data
def test_compare_p_values_have_one_notation(icli):
    # the p-value column was each cell's .3g: Pythia 12B against 6.9B (analytic) read 0.00998, 0.00197, 0.000174,
    # 0.000519, 0.0957, decimal points apart, and a p below 10^-4 would have read '3e-05'. One notation per column
    # now (column_fmt), the decimals the smallest needs for two significant digits
    from conftest import shared_file

    path = shared_file("pythia_math_counts.csv")
    args = ("compare", str(path), "--a", "Pythia 12B", "--b", "Pythia 6.9B", "--k", "1,10,100,1000,10000",
            "--method", "analytic")
    r = icli(*args, env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    want = [pt["p_value"] for pt in json.loads(icli(*args, "--json").stdout)["points"]]
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in r.stdout.splitlines() if line.startswith("│")]
    got = [row[5] for row in rows if row and row[0].isdigit()]
    assert len(got) == 5 and len({len(cell) for cell in got}) == 1 and not any("e" in c for c in got), got
    assert got[2] == "0.00017"  # 1.736e-4 to two significant digits; every cell at its 5 decimals
    for cell, p in zip(got, want, strict=True):
        assert float(cell) == pytest.approx(p, abs=5e-6)


def test_compare_writes_a_zero_difference_as_zero(icli, tmp_path):
    # A and B both score 0.24 at k = 1 (12 of 50 samples each, c = 8, 0, 1, 2, 1 and 2, 8, 1, 0, 1); the float mean
    # of the paired differences was 1.11e-17, and the column read '1.11e-17' and '0' in scientific notation
    path = tmp_path / "eq.csv"
    rows = [f"A,p{i},10,{c}" for i, c in enumerate([8, 0, 1, 2, 1])] + [f"B,p{i},10,{c}" for i, c in enumerate([2, 8, 1, 0, 1])]
    path.write_text("model,problem_id,n,c\n" + "\n".join(rows) + "\n")
    r = icli("compare", str(path), "--a", "A", "--b", "B", "--k", "1,3", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    rows_out = [[c.strip() for c in line.split("│")[1:-1]] for line in r.stdout.splitlines() if line.startswith("│")]
    assert [row[3] for row in rows_out if row and row[0].isdigit()] == ["0.0000", "0.0000"], r.stdout


def test_power_title_says_how_many_problems_the_pilot_shares(icli, tmp_path):
    # the pilot's variances come from the problems both models have: A on p1-p3, B on p2-p4 share 2 (hand count),
    # and the title read only 'pilot', as for a pilot of 300 paired problems
    path = tmp_path / "two_sets.csv"
    path.write_text("model,problem_id,n,c\nA,p1,10,3\nA,p2,10,0\nA,p3,10,10\nB,p2,10,5\nB,p3,10,1\nB,p4,10,7\n")
    r = icli("power", "--delta", "0.05", "--pilot", str(path), "--a", "A", "--b", "B", "--n", "1,10",
             env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    assert "5%; pilot of 2 shared problems, ω²=" in r.stdout, r.stdout
