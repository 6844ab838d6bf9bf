"""passcurve.data.read_counts / open_samples: layouts, aliases, formats, round trips, shared data."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import duckdb
import numpy as np
import pytest
from conftest import shared_file

import passcurve
from passcurve import Counts, StoppingTimeWarning, read_counts, simulate
from passcurve.data import open_samples, write_counts, write_table


def as_set(counts: Counts) -> set[tuple[str, str, int, int]]:
    return {
        (str(m), str(p), int(n), int(c))
        for m, p, n, c in zip(counts.model, counts.problem, counts.n, counts.c, strict=True)
    }


def write_lines(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# ------------------------------------------------------------------ shared data (issue 2 part 3)
@pytest.mark.shared_data
def test_pythia_samples_reproduce_counts_exactly():
    samples = shared_file("pythia_math_samples.parquet")
    counts_csv = shared_file("pythia_math_counts.csv")
    from_samples = read_counts(samples)
    from_counts = read_counts(counts_csv)
    # README of ../shared/data: aggregating the per-sample parquet by (model, problem_id) gives the CSV
    assert len(from_samples) == 896 == len(from_counts)
    assert as_set(from_samples) == as_set(from_counts)
    # independent check of the same set straight from DuckDB on the CSV
    rows = duckdb.sql(f"SELECT model, problem_id::VARCHAR, n, c FROM read_csv('{counts_csv}')").fetchall()
    assert as_set(from_counts) == {(m, p, int(n), int(c)) for m, p, n, c in rows}
    assert from_samples.meta["layout"] == "samples" and from_counts.meta["layout"] == "counts"
    assert from_samples.meta["columns"] == {
        "problem": "problem_id",
        "model": "model",
        "correct": "correct",
        "attempt": "attempt",
    }
    assert from_samples.meta["rows"] == 8_960_000
    assert from_samples.meta["attempts_contiguous"] is True
    assert from_samples.meta["stopping_time"]["looks_like_stopping_time"] is False
    # the same arrays in the same order, so every seeded analysis agrees between the two files
    assert list(from_samples.model) == list(from_counts.model)
    assert list(from_samples.problem) == list(from_counts.problem)
    assert np.array_equal(from_samples.c, from_counts.c)


@pytest.mark.shared_data
@pytest.mark.parametrize("name", ["pythia_math_samples.parquet", "pythia_math_counts.csv"])
def test_cli_curve_runs_on_shared_samples_and_counts(name, capfd):
    # the CLI entry point in-process (the subprocess path is covered in test_cli_input.py)
    from passcurve.cli._app import run

    code = run(["curve", str(shared_file(name)), "--k", "1,100,10000", "--json"])
    captured = capfd.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    by_model = {m["model"]: m for m in data["models"]}
    assert len(by_model) == 7
    # ../shared/data/README.md: Pythia 160M pass@1 = 0.00267, pass@10^4 = 0.570
    curve = {p["k"]: p for p in by_model["Pythia 160M"]["curve"]}
    assert curve[1]["pass_at_k"] == pytest.approx(0.00267, abs=5e-6)
    assert curve[10000]["pass_at_k"] == pytest.approx(0.570, abs=5e-4)


@pytest.mark.shared_data
def test_bon_counts_flag_stopping_time():
    # ../shared/data/README.md: BoN attempts ran in batches of 60 and stopped after a success
    with pytest.warns(StoppingTimeWarning, match="stopping time"):
        counts = read_counts(shared_file("bon_jailbreaking_counts.csv"))
    st = counts.meta["stopping_time"]
    assert st["looks_like_stopping_time"] is True
    assert st["models"]["GPT4o"]["n_common_step"] % 60 == 0
    assert st["models"]["GPT4o"]["frac_below_max_n_solved"] >= 0.9


def test_stopping_time_advice_names_the_batch_and_the_cap(tmp_path, capfd):
    # the advice was `--stop-batch B` without --cap, B the gcd of every n, and pointed CLI users at Counts.meta (API
    # review). Batches of 60, cap 250 (off the grid, so the gcd of all n is gcd(60, 250) = 10): 8 problems stopped
    # below the cap, solved, and 3 reached it unsolved. The advice is the design itself, `--stop-batch 60 --cap 250`
    # (hand count: gcd(60, 120, 180, 240) = 60; the largest n 250), for the command line and for Python.
    from passcurve.cli._app import run

    n = [60, 120, 60, 180, 120, 60, 240, 60, 250, 250, 250]
    c = [1, 2, 1, 1, 1, 3, 1, 1, 0, 0, 0]
    path = tmp_path / "stopped.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},{a},{b}\n" for i, (a, b) in enumerate(zip(n, c, strict=True))))
    with pytest.warns(StoppingTimeWarning) as got:
        counts = read_counts(path)
    text = str(got[0].message)
    assert counts.meta["stopping_time"]["models"]["stopped"]["n_common_step"] == 10
    assert counts.meta["stopping_time"]["models"]["stopped"]["n_step_below_max"] == 60
    assert ("if sampling stopped at the first batch of 60 samples with a success, at most 250 samples (the largest n), "
            "`--stop-batch 60 --cap 250` (passcurve curve, compare, rank, fit, forecast, backtest, report), or "
            "design=StopAtSuccess(60, cap=250) in Python, estimates pass@k without bias (the evidence per model: "
            "Counts.meta['stopping_time'] in Python)") in text, text
    # following it works: at k = 60 a problem solved in its first batch (n = 60: 4 of 11) scores 1 and every other
    # 0 (the first 60 samples all failed), so pass@60 = 4/11 (hand count, the estimator's closed form)
    res = passcurve.curve(counts, [60], design=passcurve.StopAtSuccess(60, cap=250), metrics=["pass_at_k"])
    assert res.values["pass_at_k"][0][0] == pytest.approx(4 / 11, rel=1e-15)
    assert run(["curve", str(path), "--k", "60", "--stop-batch", "60", "--cap", "250"]) == 0
    assert "0.3636" in capfd.readouterr().out


# ------------------------------------------------------------------ round trips (simulate -> write -> read)
@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_round_trip_samples(tmp_path, ext):
    bench = simulate(problems=25, n=40, rng=3)
    path = write_table(bench.samples(rng=4), tmp_path / f"s{ext}")
    got = read_counts(path)
    assert as_set(got) == as_set(bench.counts)
    assert got.meta["layout"] == "samples" and got.meta["reader"] == ext.lstrip(".")


@pytest.mark.parametrize("ext", [".csv", ".jsonl", ".parquet"])
def test_round_trip_counts(tmp_path, ext):
    bench = simulate(problems=30, n=17, rng=5)
    got = read_counts(write_counts(bench.counts, tmp_path / f"c{ext}"))
    assert as_set(got) == as_set(bench.counts)
    assert got.meta["layout"] == "counts"


def test_compressed_jsonl_and_csv(tmp_path):
    import gzip

    rows = [{"task_id": f"t{i % 3}", "passed": bool(i % 2), "sample_idx": i // 3} for i in range(12)]
    p = tmp_path / "x.jsonl.gz"
    with gzip.open(p, "wt") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in rows))
    got = read_counts(p)
    assert got.models == ["x"]
    assert as_set(got) == {("x", "t0", 4, 2), ("x", "t1", 4, 2), ("x", "t2", 4, 2)}


# ------------------------------------------------------------------ layout detection and aliases
@pytest.mark.parametrize(
    "problem,correct,attempt",
    [
        ("problem_id", "correct", "attempt"),
        ("task_id", "passed", "sample_idx"),
        ("question_id", "is_correct", "trial"),
        ("doc_id", "result", "epoch"),
        ("id", "score", "repeat"),
        ("Problem", "Reward", "Sample_ID"),
    ],
)
def test_sample_aliases(tmp_path, problem, correct, attempt):
    rows = [{problem: p, correct: int(a < p), attempt: a} for p in range(1, 4) for a in range(5)]
    got = read_counts(write_lines(tmp_path / "run-7.jsonl", rows))
    # hand count: problem p has 5 attempts, the first p of them correct
    assert as_set(got) == {("run-7", str(p), 5, p) for p in range(1, 4)}
    assert got.meta["columns"] == {"problem": problem, "correct": correct, "attempt": attempt}


def test_counts_aliases_and_model(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("model_name,task_id,num_samples,num_correct\nA,t1,10,3\nA,t2,10,0\nB,t1,8,8\n")
    got = read_counts(p)
    assert as_set(got) == {("A", "t1", 10, 3), ("A", "t2", 10, 0), ("B", "t1", 8, 8)}
    assert got.meta["layout"] == "counts"
    assert got.meta["columns"] == {
        "problem": "task_id",
        "n": "num_samples",
        "c": "num_correct",
        "model": "model_name",
    }


def test_counts_with_correct_as_c(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("problem,total,correct\na,4,1\nb,4,4\n")
    got = read_counts(p)
    assert got.meta["layout"] == "counts" and as_set(got) == {("c", "a", 4, 1), ("c", "b", 4, 4)}


def test_boolean_c_column_is_not_a_count(tmp_path):
    # one row per task with a boolean verdict and an attempts column: not per-problem counts
    p = tmp_path / "agent.jsonl"
    p.write_text('{"task_id": "T0", "correct": true, "attempts": 3}\n{"task_id": "T1", "correct": false, "attempts": 5}\n')
    with pytest.raises(passcurve.PasscurveError, match=r"column 'correct' \(`c`\) holds booleans"):
        read_counts(p)
    assert as_set(read_counts(p, correct_col="correct")) == {("agent", "T0", 1, 1), ("agent", "T1", 1, 0)}


def test_csv_ids_are_text_not_numbers(tmp_path):
    # DuckDB's CSV sniffing typed these ids as DOUBLE (1.1 == 1.10) or BIGINT (001 == 1) and merged problems
    p = tmp_path / "ids.csv"
    p.write_text("problem_id,correct\n1.1,1\n1.1,0\n1.10,1\n1.10,1\n1.2,0\n1.20,0\n3,1\n")
    got = read_counts(p)
    assert as_set(got) == {("ids", "1.1", 2, 1), ("ids", "1.10", 2, 2), ("ids", "1.2", 1, 0), ("ids", "1.20", 1, 0),
                           ("ids", "3", 1, 1)}
    # an id that differs only in form far beyond the sniffer's sample of rows
    late = tmp_path / "late.csv"
    late.write_text("problem_id,correct\n" + "".join(f"{2 + i // 10},1\n" for i in range(30_000)) + "001,1\n1,0\n")
    got = read_counts(late)
    assert len(got) == 3_002 and {("late", "001", 1, 1), ("late", "1", 1, 0)} <= as_set(got)
    # a user-named id column is text too, and a numeric model column
    q = tmp_path / "q.csv"
    q.write_text("q,ok,m\n1.1,1,1.0\n1.10,0,1.00\n")
    assert as_set(read_counts(q, problem_col="q", correct_col="ok", model_col="m")) == {
        ("1.0", "1.1", 1, 1), ("1.00", "1.10", 1, 0)}


def test_overrides(tmp_path):
    p = tmp_path / "weird.csv"
    p.write_text("q,ok,who,try\n1,yes,m1,0\n1,no,m1,1\n2,yes,m2,0\n")
    got = read_counts(p, problem_col="q", correct_col="ok", model_col="who", attempt_col="try")
    assert as_set(got) == {("m1", "1", 2, 1), ("m2", "2", 1, 1)}
    assert got.meta["column_detection"]["problem"] == "override"


@pytest.mark.parametrize(
    "values,expected_c",
    [
        ([True, False, True, True], 3),
        ([1, 0, 1, 1], 3),
        (["true", "False", "TRUE", "true"], 3),
        (["passed", "failed: AssertionError", "timed out", "passed"], 2),
        ([1.0, 0.0, 0.0, 1.0], 2),
    ],
)
def test_correctness_encodings(tmp_path, values, expected_c):
    rows = [{"problem_id": "p", "correct": v, "attempt": i} for i, v in enumerate(values)]
    got = read_counts(write_lines(tmp_path / "x.jsonl", rows))
    assert int(got.c[0]) == expected_c and int(got.n[0]) == 4


def test_threshold_on_scores(tmp_path):
    rows = [{"problem_id": "p", "score": s, "attempt": i} for i, s in enumerate([0.2, 0.5, 0.9, 0.49])]
    p = write_lines(tmp_path / "x.jsonl", rows)
    assert int(read_counts(p, threshold=0.5).c[0]) == 2  # 0.5 and 0.9 are >= 0.5
    assert int(read_counts(p, threshold=0.95).c[0]) == 0
    with pytest.raises(passcurve.PasscurveError, match="threshold"):
        read_counts(p)


def test_a_threshold_that_splits_no_sample_is_said(tmp_path, icli):
    # --threshold 1.5 on 0/1 verdicts read every sample as incorrect and printed pass@k = 0 at every k without a word
    # (helper-115's fuzz); -1 every sample as correct. A threshold that splits the samples says nothing
    from passcurve import DegenerateDataWarning

    p = tmp_path / "v.csv"
    p.write_text("problem_id,correct\na,1\na,0\nb,0\nb,0\n")
    with pytest.warns(DegenerateDataWarning, match=r"under `threshold` 1\.5 every sample of column 'correct' counts "
                      r"as incorrect: no score reaches it; is the threshold on the scores' scale\?"):
        assert read_counts(p, threshold=1.5).c.tolist() == [0, 0]
    with pytest.warns(DegenerateDataWarning, match="counts as correct: every score reaches it"):
        assert read_counts(p, threshold=-1).c.tolist() == [2, 2]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_counts(p, threshold=0.5).c.tolist() == [1, 0]
        assert read_counts(p).c.tolist() == [1, 0]  # no threshold given: nothing to check
    res = icli("curve", str(p), "--threshold", "1.5")
    assert res.returncode == 0 and "is the threshold on the scores' scale?" in res.stderr


def test_file_without_model_is_named_after_stem(tmp_path):
    p = tmp_path / "my_run.parquet"
    write_table({"problem_id": np.array(["a", "a", "b"]), "correct": np.array([True, False, False])}, p)
    got = read_counts(p)
    assert got.models == ["my_run"]
    assert got.meta["default_model"] == "my_run"
    assert "none" in got.meta["duplicate_check"]


def test_stopping_time_in_sample_logs(tmp_path):
    # sample until the first success: each solved problem ends with its only success
    rng = np.random.default_rng(0)
    rows = []
    for p in range(40):
        stop = int(rng.integers(1, 30))
        solved = p % 4 != 0
        n = stop if solved else 30
        for a in range(n):
            rows.append({"problem_id": p, "attempt": a, "correct": solved and a == n - 1})
    with pytest.warns(StoppingTimeWarning):
        got = read_counts(write_lines(tmp_path / "stop.jsonl", rows))
    ev = got.meta["stopping_time"]["models"]["stop"]
    assert ev["frac_solved_ending_with_success"] == 1.0
    assert got.meta["stopping_time"]["looks_like_stopping_time"] is True


def _stop_log(models: dict[str, bool]) -> list[dict]:
    """A per-sample log: models marked True sample until the first success (cap 30), the others 30 each."""
    rng = np.random.default_rng(0)
    rows = []
    for m, stops in models.items():
        for p in range(40):
            solved = p % 4 != 0
            n = int(rng.integers(1, 30)) if stops and solved else 30
            for a in range(n):
                rows.append({"model": m, "problem_id": p, "attempt": a,
                             "correct": solved and (a == n - 1 if stops else a % 7 == 0)})
    return rows


@pytest.mark.parametrize("layout", ["samples", "counts"])
def test_stopping_time_evidence_is_about_the_selected_models_only(tmp_path, layout):
    # `passcurve report FILE --models A` warned "n looks like a stopping time for 7 model(s) (Claude 3.5 Opus, ...)"
    # on the BoN file: the evidence was gathered over the whole file, before the selection
    rows = _stop_log({"stopA": True, "stopB": True, "fixed": False})
    path = write_lines(tmp_path / "log.jsonl", rows)
    if layout == "counts":
        with pytest.warns(StoppingTimeWarning):
            whole = read_counts(path)  # the same data as a counts file
        path = tmp_path / "counts.csv"
        path.write_text("model,problem_id,n,c\n" + "".join(
            f"{m},{p},{n},{k}\n" for m, p, n, k in zip(whole.model, whole.problem, whole.n, whole.c, strict=True)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", StoppingTimeWarning)
        got = read_counts(path, models=["stopB", "fixed"])
    msgs = [str(w.message) for w in caught if w.category is StoppingTimeWarning]
    assert len(msgs) == 1 and "for 1 model(s) (stopB)" in msgs[0] and "stopA" not in msgs[0], msgs
    st = got.meta["stopping_time"]
    assert sorted(st["models"]) == ["fixed", "stopB"] and st["flagged_models"] == ["stopB"]
    with warnings.catch_warnings():
        warnings.simplefilter("error", StoppingTimeWarning)  # a fixed-n model alone: nothing to warn about
        c = read_counts(path, models=["fixed"])
    assert c.models == ["fixed"] and c.meta["stopping_time"]["looks_like_stopping_time"] is False
    with pytest.raises(passcurve.PasscurveError, match=r"^`models` must name a model present \(got 'nope'\); models present: "):
        read_counts(path, models=["nope"])


def test_fixed_n_simulation_is_not_flagged(tmp_path):
    bench = simulate(problems=60, n=50, rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", StoppingTimeWarning)
        got = read_counts(write_table(bench.samples(rng=2), tmp_path / "s.parquet"))
    assert got.meta["stopping_time"]["looks_like_stopping_time"] is False


# ------------------------------------------------------------------ Samples (per-sample extras for other modules)
def test_open_samples_exposes_relation_and_answers(tmp_path):
    rows = [
        {"problem_id": "p1", "attempt": 0, "correct": True, "answer": "4"},
        {"problem_id": "p1", "attempt": 1, "correct": False, "answer": "5"},
        {"problem_id": "p1", "attempt": 2, "correct": True, "answer": "4"},
        {"problem_id": "p2", "attempt": 0, "correct": False, "answer": "x"},
    ]
    s = open_samples(write_lines(tmp_path / "a.jsonl", rows))
    assert s.layout == "samples" and s.columns.roles["answer"] == "answer"
    assert s.relation.columns == ["model", "problem", "attempt", "correct", "answer"]
    votes = s.query(
        "SELECT problem, answer, count(*) AS k FROM samples GROUP BY ALL ORDER BY problem, k DESC"
    ).fetchall()
    assert votes == [("p1", "4", 2), ("p1", "5", 1), ("p2", "x", 1)]
    assert as_set(s.counts()) == {("a", "p1", 3, 2), ("a", "p2", 1, 0)}
    # raw columns stay reachable (e.g. extra verdict columns)
    assert "answer" in s.raw.columns


def test_samples_query_errors_are_one_line_naming_sql(tmp_path):
    # a typo in the query was DuckDB's ParserException with 'LINE 7: ... DOUBLE) END = 0 THEN FALSE ELSE NULL END AS
    # correct FROM src) SELEC 1', pointing into the samples' own SQL that wraps the query, and query(5) 'syntax error
    # at or near "5"'; DuckDB's message before its LINE context is kept (the candidate columns too)
    s = open_samples(write_lines(tmp_path / "a.jsonl", [{"problem_id": "p1", "correct": True}]))
    with pytest.raises(passcurve.PasscurveError, match=r'^`sql` cannot be run: Parser Error: syntax error at or near "SELEC"$'):
        s.query("SELEC 1")
    with pytest.raises(passcurve.PasscurveError, match=r'^`sql` cannot be run: Binder Error: Referenced column "nope" not found '
                                             r'in FROM clause! Candidate bindings: .*"problem"'):
        s.query("SELECT nope FROM samples")
    with pytest.raises(passcurve.PasscurveError, match=r"^`sql` must be a SQL query, a string \(got 5\)$"):
        s.query(5)


def test_exports():
    assert passcurve.read_counts is read_counts
    assert callable(passcurve.counts_from_frame)


def test_row_order_does_not_change_seeded_results(tmp_path, capfd):
    # a per-sample log, its counts file, and the counts file with its rows shuffled: the same counts in the same
    # order, so the seeded forecast (thinnings, bootstrap) is identical to the last digit
    from passcurve.cli._app import run

    sim = simulate(problems=30, n=40, models=passcurve.DEMO_MODELS[:2], rng=3)
    rows = [{"model": str(m), "problem_id": str(p), "attempt": a, "correct": bool(a < c)}
            for m, p, n, c in zip(sim.counts.model, sim.counts.problem, sim.counts.n, sim.counts.c, strict=True)
            for a in range(int(n))]
    log = write_lines(tmp_path / "log.jsonl", rows)
    counts = read_counts(log)
    order = np.random.default_rng(0).permutation(len(counts))
    lines = [f"{counts.model[i]},{counts.problem[i]},{counts.n[i]},{counts.c[i]}\n" for i in range(len(counts))]
    (tmp_path / "counts.csv").write_text("model,problem_id,n,c\n" + "".join(lines))
    (tmp_path / "shuffled.csv").write_text("model,problem_id,n,c\n" + "".join(lines[i] for i in order))
    # models stay in the order the file first names them; within a model, problems are ordered by id
    shuffled = read_counts(tmp_path / "shuffled.csv")
    for name, sub in counts.groups():
        assert list(dict(shuffled.groups())[name].problem) == list(sub.problem) == sorted(sub.problem)
    outs = []
    for f in (log, tmp_path / "counts.csv", tmp_path / "shuffled.csv"):
        assert run(["forecast", str(f), "--k", "400", "--seed", "7", "--json"]) == 0
        d = json.loads(capfd.readouterr().out)
        outs.append(sorted(d["forecasts"], key=lambda r: r["model"]))
    assert outs[0] == outs[1] == outs[2]


def test_row_ids_taken_as_problem_ids_are_flagged(tmp_path):
    p = tmp_path / "rows.jsonl"
    p.write_text("".join(json.dumps({"id": f"s{i}", "task": f"t{i // 2}", "correct": i % 2}) + "\n" for i in range(4)))
    with pytest.warns(passcurve.DegenerateDataWarning, match=r"every problem has one sample.*column 'id'"):
        got = read_counts(p)
    assert len(got) == 4
    # naming the problem column reads it as meant, without the warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert as_set(read_counts(p, problem_col="task")) == {("rows", "t0", 2, 1), ("rows", "t1", 2, 1)}


def test_jsonl_ids_of_mixed_types_keep_their_text(tmp_path):
    # ints and strings in one JSON column: DuckDB types it JSON; "two" was reported as '"two"' (with its quotes)
    p = tmp_path / "mixed.jsonl"
    p.write_text('{"problem_id": 1, "correct": 1}\n{"problem_id": "two", "correct": 0}\n{"problem_id": 1, "correct": 0}\n')
    assert as_set(read_counts(p)) == {("mixed", "1", 2, 1), ("mixed", "two", 1, 0)}
    c = tmp_path / "mixed_counts.jsonl"
    c.write_text('{"problem_id": 1, "n": 4, "c": 1}\n{"problem_id": "two", "n": 4, "c": 3}\n')
    assert as_set(read_counts(c)) == {("mixed_counts", "1", 4, 1), ("mixed_counts", "two", 4, 3)}


def test_jsonl_ids_that_turn_to_strings_past_the_sniffed_rows(tmp_path):
    # DuckDB sniffs the first 20,480 rows: an id column of integers there was typed BIGINT and the read stopped
    # at the first string id ("Failed to cast value to numerical"); identifier columns are now read as text
    rows = "".join(f'{{"problem_id": {i % 1000}, "correct": {int(i % 3 != 0)}, "meta": {{"a": {i}}}}}\n' for i in range(30_000))
    p = tmp_path / "late.jsonl"
    p.write_text(rows + '{"problem_id": "abc", "correct": 1, "meta": {"a": 0}}\n')
    got = read_counts(p)
    assert len(got) == 1_001 and ("late", "abc", 1, 1) in as_set(got)
    # each integer id has 30 samples, i = id + 1000 j, correct when i % 3 != 0 (enumerated)
    assert ("late", "7", 30, sum(1 for j in range(30) if (7 + 1000 * j) % 3)) in as_set(got)
    # a user-named id column too
    q = tmp_path / "q.jsonl"
    q.write_text("".join(f'{{"q": {i % 7}, "ok": 1}}\n' for i in range(21_000)) + '{"q": "x", "ok": 0}\n')
    assert ("q", "x", 1, 0) in as_set(read_counts(q, problem_col="q", correct_col="ok"))


# ------------------------------------------------------------------ several files (one model per file)
def test_several_files_put_models_side_by_side(tmp_path):
    # one log per model without a model column (the common harness layout): each file is read on its own and its
    # model is named after the file; the result equals reading one file that has a model column
    rng = np.random.default_rng(1)
    rows = {}
    for name, p in (("gpt", 0.6), ("llama", 0.3)):
        ok = (rng.random(60) < p).tolist()
        rows[name] = ok
        write_lines(tmp_path / f"{name}.jsonl", [{"problem_id": f"q{i // 6}", "correct": v} for i, v in enumerate(ok)])
    write_lines(tmp_path / "both.jsonl", [{"model": m, "problem_id": f"q{i // 6}", "correct": v}
                                          for m in ("gpt", "llama") for i, v in enumerate(rows[m])])
    both = read_counts([tmp_path / "gpt.jsonl", str(tmp_path / "llama.jsonl")])
    assert both.models == ["gpt", "llama"] and both.source == "gpt.jsonl, llama.jsonl"
    assert as_set(both) == as_set(read_counts(tmp_path / "both.jsonl"))
    # c per problem is the number of True in its 6 samples (counted here directly)
    gpt = both.select("gpt")
    assert gpt.c.tolist() == [sum(rows["gpt"][6 * j:6 * j + 6]) for j in range(10)] and set(gpt.n) == {6}
    assert [f["source"] for f in both.meta["files"]] == ["gpt.jsonl", "llama.jsonl"]
    # the order of the files is the order of the models; `models` selects (and orders) after combining
    assert read_counts([tmp_path / "llama.jsonl", tmp_path / "gpt.jsonl"]).models == ["llama", "gpt"]
    assert read_counts([tmp_path / "gpt.jsonl", tmp_path / "llama.jsonl"], models=["llama"]).models == ["llama"]
    # one file in a list is that file
    assert as_set(read_counts([tmp_path / "gpt.jsonl"])) == as_set(read_counts(tmp_path / "gpt.jsonl"))


def test_several_files_mix_formats_and_refuse_ambiguity(tmp_path):
    write_lines(tmp_path / "a.jsonl", [{"problem_id": "x", "correct": True}, {"problem_id": "x", "correct": False}])
    write_table({"problem_id": ["x", "y"], "n": [10, 10], "c": [3, 4], "model": ["a", "b"]}, tmp_path / "c.csv")
    write_table({"problem_id": ["x"], "n": [5], "c": [5], "model": ["z"]}, tmp_path / "z.parquet")
    mixed = read_counts([tmp_path / "a.jsonl", tmp_path / "z.parquet"])
    assert as_set(mixed) == {("a", "x", 2, 1), ("z", "x", 5, 5)}
    cases = [
        # model 'a' from a.jsonl's name and from c.csv's model column: which samples belong together is unknown
        ([tmp_path / "a.jsonl", tmp_path / "c.csv"], "model 'a' is in both a.jsonl and c.csv: each model must come "
                                                     "from one file"),
        ([tmp_path / "a.jsonl", tmp_path / "." / "a.jsonl"], "is given twice"),
        ([], "`path` is an empty sequence"),
        ([tmp_path / "a.jsonl", 3], "`path` must hold file paths (got 3)"),
        ([tmp_path / "a.jsonl", tmp_path / "missing.csv"], "no such file"),
    ]
    for paths, message in cases:
        with pytest.raises(passcurve.PasscurveError, match=None) as info:
            read_counts(paths)
        assert message in str(info.value) and "\n" not in str(info.value), (paths, str(info.value))


def test_several_files_keep_each_files_stopping_time_evidence(tmp_path):
    # file 1: stop at the first success or at a cap of 40 (20 problems solved, c = 1 and n < 40; 10 unsolved at
    # n = 40); file 2: n fixed. The merged evidence is per model; the warning comes from file 1's own read
    write_table({"problem_id": [f"p{i}" for i in range(30)], "n": [1 + (7 * i) % 29 for i in range(20)] + [40] * 10,
                 "c": [1] * 20 + [0] * 10}, tmp_path / "bon.csv")
    write_table({"problem_id": [f"p{i}" for i in range(30)], "n": [20] * 30, "c": [i % 7 for i in range(30)]},
                tmp_path / "fixed.csv")
    with pytest.warns(StoppingTimeWarning):
        both = read_counts([tmp_path / "bon.csv", tmp_path / "fixed.csv"])
    with pytest.warns(StoppingTimeWarning):
        alone = read_counts(tmp_path / "bon.csv").meta["stopping_time"]
    st = both.meta["stopping_time"]
    assert st["looks_like_stopping_time"] and st["models"]["bon"] == alone["models"]["bon"]
    assert not st["models"]["fixed"]["looks_like_stopping_time"]


def test_pool_refuses_two_lm_eval_tasks_of_one_model(tmp_path):
    # `out/*/samples_*.jsonl --pool` over one model's gsm8k and mmlu logs added gsm8k's doc 0 and mmlu's doc 0 as
    # runs of one problem: 3 problems with n = 2 for two 3-document tasks (hand count), without a word (vote too)
    d = tmp_path / "org__m"
    d.mkdir()
    for task, metric in (("gsm8k", "exact_match"), ("mmlu_abstract_algebra", "acc")):
        write_lines(d / f"samples_{task}_2024-07-01T10-00-00.000000.jsonl",
                    [{"doc_id": i, "doc": {}, "target": "x", "resps": [["a"]], "filtered_resps": ["a"],
                      "filter": "none", "metrics": [metric], metric: 1.0} for i in range(3)])
    files = sorted(d.glob("samples_*.jsonl"))
    assert read_counts(files[0]).meta["task"] == "gsm8k"
    with pytest.raises(passcurve.PasscurveError, match=r"^model 'org__m' would pool two lm-eval tasks, 'gsm8k' "
                                                       r"\(samples_gsm8k_.*\.jsonl\) and 'mmlu_abstract_algebra' .*; "
                                                       r"`pool` adds runs of one task"):
        read_counts(files, pool=True)
    with pytest.raises(passcurve.PasscurveError, match=r"^model 'org__m' would pool two lm-eval tasks"):
        passcurve.data.read_answers(files, pool=True)  # vote's reader, through the same several-files check
    # two runs of one task still pool (n = 2 per document)
    write_lines(d / "samples_gsm8k_2024-07-02T10-00-00.000000.jsonl",
                [{"doc_id": i, "doc": {}, "target": "x", "resps": [["a"]], "filtered_resps": ["a"], "filter": "none",
                  "metrics": ["exact_match"], "exact_match": 0.0} for i in range(3)])
    pooled = read_counts(sorted(d.glob("samples_gsm8k_*.jsonl")), pool=True)
    assert pooled.n.tolist() == [2, 2, 2] and pooled.c.tolist() == [1, 1, 1]



def test_an_lm_eval_log_named_with_the_date_alone_has_its_task(tmp_path):
    # the docs name lm-eval logs samples_<task>_<date>.jsonl (docs/voting.md: samples_gsm8k_2024-05-01.jsonl), but the
    # task was read only from lm-eval's own date-and-time stamp (2024-05-01T12-00-00.000000): two such logs of one
    # model, gsm8k and mmlu, pooled into 3 problems with n = 2 (hand count), doc 0 of each as runs of one problem,
    # without a word (docs audit). The date alone now names the task too, so --pool refuses them as it does the others
    d = tmp_path / "m"
    d.mkdir()
    for task in ("gsm8k", "mmlu"):
        write_lines(d / f"samples_{task}_2024-05-01.jsonl",
                    [{"doc_id": i, "doc": {}, "target": "x", "resps": [["a"]], "filtered_resps": ["a"],
                      "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0} for i in range(3)])
    files = sorted(d.glob("samples_*.jsonl"))
    assert [read_counts(f).meta["task"] for f in files] == ["gsm8k", "mmlu"]
    with pytest.raises(passcurve.PasscurveError, match=r"^model 'm' would pool two lm-eval tasks, 'gsm8k' "):
        read_counts(files, pool=True)

def test_lm_eval_logs_of_different_tasks_read_side_by_side_are_said(tmp_path):
    # helper-81's report: model a's gsm8k log and model b's mmlu log read side by side were compared as paired by
    # doc_id (doc 0 of gsm8k against doc 0 of mmlu) without a word; now a warning names the tasks and their models
    for model, task, metric in (("a", "gsm8k", "exact_match"), ("b", "mmlu_abstract_algebra", "acc")):
        (tmp_path / model).mkdir()
        write_lines(tmp_path / model / f"samples_{task}_2024-07-01T10-00-00.000000.jsonl",
                    [{"doc_id": i, "doc": {}, "target": "x", "resps": [["a"]], "filtered_resps": ["a"],
                      "filter": "none", "metrics": [metric], metric: 1.0} for i in range(3)])
    files = sorted(tmp_path.glob("*/samples_*.jsonl"))
    with pytest.warns(passcurve.PasscurveWarning, match=r"these lm-eval logs are of 2 different tasks \(gsm8k: 'a'; "
                                                         r"mmlu_abstract_algebra: 'b'\): .* pairs unrelated problems"):
        counts = read_counts(files)
    assert counts.models == ["a", "b"]
    with warnings.catch_warnings():  # one task: nothing said
        warnings.simplefilter("error", passcurve.PasscurveWarning)
        read_counts(files[:1])


def test_pooled_runs_add_n_and_c_per_problem(tmp_path):
    # lm-evaluation-harness writes one samples file per run into the model's directory (the model is the
    # directory's name), so n > 1 comes from several runs over the same documents. Without `pool` the same model
    # in two files is refused; with it, n and c are added per (model, problem): the counts of one file holding
    # every run's lines (the harness's own "concatenate runs")
    rng = np.random.default_rng(4)
    lines: dict[str, list[dict]] = {"A": [], "B": []}
    for m, p in (("A", 0.5), ("B", 0.2)):
        (tmp_path / m).mkdir()
        for run in range(3):
            docs = range(8) if run < 2 else range(5)  # the third run stopped early: unequal n is kept as is
            rows = [{"doc_id": d, "doc": {"q": d}, "target": "4", "resps": [["x"]], "filtered_resps": ["x"],
                     "filter": "strict-match", "metrics": ["exact_match"], "exact_match": float(rng.random() < p)}
                    for d in docs]
            lines[m] += rows
            write_lines(tmp_path / m / f"samples_gsm8k_2026-01-0{run + 1}T00.jsonl", rows)
    files = sorted(tmp_path.glob("*/samples_*.jsonl"))
    with pytest.raises(passcurve.PasscurveError, match="model 'A' is in both .* `pool` is only for runs of one model"):
        read_counts(files)
    pooled = read_counts(files, pool=True)
    assert pooled.models == ["A", "B"] and pooled.meta["pooled"] is True
    expected = {(m, str(r["doc_id"])) for m in "AB" for r in lines[m]}
    assert {(m, p) for m, p in zip(pooled.model, pooled.problem, strict=True)} == expected
    for m in "AB":  # n and c per document, counted from the lines written
        got = pooled.select(m)
        for p, n, c in zip(got.problem, got.n, got.c, strict=True):
            mine = [r for r in lines[m] if str(r["doc_id"]) == p]
            assert (n, c) == (len(mine), sum(r["exact_match"] == 1.0 for r in mine)), (m, p)
        assert list(got.problem) == sorted(got.problem)  # problems sorted by id as text, as a reader gives them
    assert set(pooled.n) == {2, 3}
    # pool on one file has no effect: refused, as are other arguments with no effect
    with pytest.raises(passcurve.PasscurveError, match="`pool` applies only to several files"):
        read_counts(files[0], pool=True)
    # a missing file is said first: a shell pattern that matched no file reaches the reader as written, and it
    # had read "`pool` applies only to several files ... one was given"
    pattern = str(files[0].parent / "*" / "samples_*.jsonl")
    for one in (pattern, [pattern]):
        with pytest.raises(passcurve.PasscurveError, match=r"^no such file: '.*samples_\*\.jsonl' \(a file pattern "
                                                           r"that matched no file, passed on as written\?\)$"):
            read_counts(one, pool=True)
    with pytest.raises(passcurve.PasscurveError, match=r"^no such file: '[^*]*nope\.jsonl'$"):
        read_counts(files[0].parent / "nope.jsonl", pool=True)
    with pytest.raises(passcurve.PasscurveError, match="`pool` must be True or False"):
        read_counts(files, pool="yes")


# ------------------------------------------------------------------ spellings of counts that are accepted as written
@pytest.mark.parametrize(
    "text, value",
    [
        # each text is a decimal spelling of `value` (docs/data.md, "Bad input"): a point with zeros, an exponent,
        # surrounding spaces, a sign, leading zeros, CSV quotes, and -0 (which is 0)
        ("10.0", 10), ("10.", 10), ("1e1", 10), ("1E1", 10), (".5e1", 5), (" 10", 10), ("10 ", 10), ("+10", 10),
        ('"10"', 10), ("0010", 10), ("-0", 0), ("10.000", 10),
    ],
)
def test_count_spellings_read_as_their_decimal_value(tmp_path, text, value):
    p = tmp_path / "c.csv"
    p.write_text(f"problem_id,n,c\na,20,{text}\nb,20,4\n")
    assert as_set(read_counts(p)) == {("c", "a", 20, value), ("c", "b", 20, 4)}


def test_count_spellings_in_jsonl_strings_and_numbers_agree(tmp_path):
    # JSON numbers 10, 10.0, 1e1 and the strings "10", "+10", " 10" all spell ten; true and "1_0" do not
    rows = [{"problem_id": p, "n": v, "c": 1} for p, v in zip("abcdef", (10, 10.0, 1e1, "10", "+10", " 10"), strict=True)]
    counts = read_counts(write_lines(tmp_path / "c.jsonl", rows))
    assert as_set(counts) == {("c", p, 10, 1) for p in "abcdef"}


def test_largest_exact_count_is_accepted(tmp_path):
    # 2**53 - 1 is the largest n every integer below which float64 holds exactly (IEEE 754 binary64: 53-bit significand)
    rows = [{"problem_id": "a", "n": 2**53 - 1, "c": 2**53 - 2}]
    counts = read_counts(write_lines(tmp_path / "c.jsonl", rows))
    assert int(counts.n[0]) == 2**53 - 1 and int(counts.c[0]) == 2**53 - 2


def test_a_column_named_like_a_renamed_repeat_is_not_a_repeat(tmp_path):
    # 'score' and 'score_1' are two names as written (the header repeats none): read as usual
    p = tmp_path / "s.csv"
    p.write_text("problem_id,score,score_1\na,1,0\na,0,1\n")
    assert as_set(read_counts(p)) == {("s", "a", 2, 1)}


def test_a_repeated_column_named_by_its_read_name_is_read(tmp_path):
    # the header repeats 'n'; naming the second one as DuckDB reads it ('n_1') settles which holds n
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c,n\na,10,1,20\n")
    assert as_set(read_counts(p, n_col="n_1")) == {("c", "a", 20, 1)}


def test_ids_differing_in_case_or_inner_spaces_stay_apart(tmp_path):
    # case and inner spaces are real differences (docs/data.md: ids keep their exact spelling); only edge
    # whitespace and Unicode normalisation are refused as one id written two ways
    p = tmp_path / "s.csv"
    p.write_text("problem_id,correct\nA,1\na,0\na b,1\na  b,0\n")
    assert as_set(read_counts(p)) == {("s", "A", 1, 1), ("s", "a", 1, 0), ("s", "a b", 1, 1), ("s", "a  b", 1, 0)}


def test_a_late_score_is_compared_with_the_threshold_as_written(tmp_path):
    # 30,000 rows of 0/1 make DuckDB's sniffer type the column BIGINT; the later 0.7 was rounded to 1 and so passed
    # a threshold of 0.8. Read as written it fails it: q has one sample and no success
    p = tmp_path / "s.csv"
    p.write_text("problem_id,score\n" + "".join(f"p{i % 3},{i % 2}\n" for i in range(30000)) + "q,0.7\n")
    counts = read_counts(p, threshold=0.8)
    assert ("s", "q", 1, 0) in as_set(counts)
    # the 0/1 rows: p0 holds i = 0, 3, 6, ... (10,000 rows), half of them odd (score 1): 5,000 successes
    assert ("s", "p0", 10000, 5000) in as_set(counts)


def test_correctness_numbers_equal_to_0_or_1_read_as_in_a_numeric_column(tmp_path):
    # a 0/1 CSV column is read as text; its '-0' and '+1' are 0 and 1 as they were when DuckDB typed it BIGINT, and
    # JSON strings '1.00' and '-0' read as the numbers they spell (docs/data.md, "Bad input"); 2 and '1_0' are no 0/1
    p = tmp_path / "s.csv"
    p.write_text("problem_id,correct\na,+1\na,-0\na,1\nb,0\n")
    assert as_set(read_counts(p)) == {("s", "a", 3, 2), ("s", "b", 1, 0)}
    rows = [{"problem_id": "a", "correct": v} for v in ("1.00", "-0", " 1e0 ", True)]
    assert as_set(read_counts(write_lines(tmp_path / "s.jsonl", rows))) == {("s", "a", 4, 3)}


def test_several_files_refuse_one_problem_id_written_two_ways(tmp_path):
    # within a file 'a' and 'a ' are refused (one id written two ways); across two files they split the problem:
    # pooled, problem 'a' had n = 2 and 'a ' n = 1 instead of one problem with n = 3. Now the same error, naming both
    write_table({"model": ["m", "m"], "problem_id": ["a", "b"], "correct": [True, False]}, tmp_path / "r1.csv")
    write_table({"model": ["m"], "problem_id": ["a "], "correct": [True]}, tmp_path / "r2.csv")
    write_table({"model": ["m"], "problem_id": ["a"], "correct": [True]}, tmp_path / "r3.csv")
    for pool in (True, False):
        with pytest.raises(passcurve.PasscurveError, match=r"problem id 'a' in r1.csv and 'a ' in r2.csv are one id "
                                                           r"written two ways"):
            read_counts([tmp_path / "r1.csv", tmp_path / "r2.csv"], pool=pool)
    pooled = read_counts([tmp_path / "r1.csv", tmp_path / "r3.csv"], pool=True)
    assert as_set(pooled) == {("m", "a", 2, 2), ("m", "b", 1, 0)}


def test_threshold_on_a_counts_file_is_refused(tmp_path):
    # problem_id,n,c with threshold=0.5 read the counts and dropped the threshold without a word
    p = tmp_path / "counts.csv"
    p.write_text("problem_id,n,c\na,4,1\nb,4,3\n")
    with pytest.raises(passcurve.PasscurveError, match=(
            r"^counts\.csv: `threshold` \(0\.5\) has no scores to apply to: the input holds counts \(columns 'n' and "
            r"'c': c already says how many of the n samples were correct\); drop `threshold`, or read the per-sample "
            r"scores$")):
        read_counts(p, threshold=0.5)
    with pytest.raises(passcurve.PasscurveError, match=r"^counts\.csv: `threshold` \(0\.5\) has no scores"):
        passcurve.data.open_samples(p, threshold=0.5)
    assert read_counts(p).meta["threshold"] is None  # without it, as before


def test_read_attempts_names_a_counts_file_before_its_threshold(tmp_path):
    # a counts file is no input for retries whatever the threshold: the layout, the cause, is said (the threshold
    # refusal of read_counts came first, and dropping the threshold only led to this message)
    p = tmp_path / "counts.csv"
    p.write_text("problem_id,n,c\na,4,1\n")
    for threshold in (None, 0.5):
        with pytest.raises(passcurve.PasscurveError, match=r"^counts\.csv: retries need a per-sample log with an "
                                                            r"attempt column, not per-problem counts$"):
            passcurve.data.read_attempts(p, threshold=threshold)


def test_crlf_files_and_a_quoted_line_break_read_as_lf_files(tmp_path):
    """One line ending throughout reads, CR LF as LF, and so does a CR LF inside a quoted field of an LF file: the
    mixed-line-endings error (``_bad_inputs``: mixed_line_endings_in_csv) is only for lines that end differently.
    Reference: the counts written by hand, n and c per problem."""
    lf = "model,problem_id,correct,answer\nm,p1,1,a\nm,p1,0,b\nm,p2,0,c\n"
    (tmp_path / "lf.csv").write_bytes(lf.encode())
    (tmp_path / "crlf.csv").write_bytes(lf.replace("\n", "\r\n").encode())
    (tmp_path / "quoted.csv").write_bytes(lf.replace("m,p1,0,b", 'm,p1,0,"b\r\nb"').encode())
    want = {("m", "p1", 2, 1), ("m", "p2", 1, 0)}
    for name in ("lf.csv", "crlf.csv", "quoted.csv"):
        assert as_set(read_counts(tmp_path / name)) == want, name


def test_column_names_are_matched_whatever_their_case(tmp_path):
    # a header written in capitals is found by its aliases (Task_ID: problem, Passed: correct, MODEL: model) and a
    # given column name in another case than the header's; counted by hand: x solved t1 once in 2 samples, t2 once in 1
    p = tmp_path / "s.csv"
    p.write_text("Task_ID,Passed,MODEL\nt1,1,x\nt1,0,x\nt2,1,x\n")
    assert as_set(read_counts(p)) == {("x", "t1", 2, 1), ("x", "t2", 1, 1)}
    q = tmp_path / "q.csv"
    q.write_text("Item,Verdict\nt1,1\nt1,0\nt2,1\n")
    assert as_set(read_counts(q, problem_col="ITEM", correct_col="verdict")) == {("q", "t1", 2, 1), ("q", "t2", 1, 1)}


@pytest.mark.parametrize("given", [None, "correct", "Correct", "CORRECT", "correct_1"])
def test_jsonl_keys_that_differ_only_in_case_are_refused_for_a_role(tmp_path, given):
    # keys 'Correct' and 'correct' read as columns Correct and correct_1; the alias took 'Correct' (a 2/2, b 0/1) where
    # the key 'correct' holds a 0/2, b 1/1 (counted by hand), and correct_col='correct' too read 'Correct' without a
    # word; DuckDB's JSON reader matches keys case-insensitively, so neither copy is read as written: refused
    p = tmp_path / "s.jsonl"
    p.write_text('{"problem_id": "a", "Correct": true, "correct": false}\n'
                 '{"problem_id": "a", "Correct": true, "correct": false}\n'
                 '{"problem_id": "b", "correct": true, "Correct": false}\n')
    kw = {} if given is None else {"correct_col": given}
    with pytest.raises(passcurve.PasscurveError, match=r"^s\.jsonl: the keys 'Correct', 'correct' differ only in case, "
                                                       r"which the JSON reader cannot tell apart \(read as 'Correct', "
                                                       r"'correct_1'\), so which one holds the correctness is ambiguous"):
        read_counts(p, **kw)


def test_a_jsonl_key_that_looks_renamed_but_is_written_so_is_read(tmp_path):
    # 'score_1' is a key of its own beside 'score', not a renamed copy: each reads its own values (by hand: score holds
    # a 1, b 0; score_1 a 0, b 1), and a key repeated in case in a column no role reads is no matter
    p = tmp_path / "s.jsonl"
    p.write_text('{"problem_id": "a", "score": 1, "score_1": 0, "Note": "x", "note": "y"}\n'
                 '{"problem_id": "b", "score": 0, "score_1": 1, "Note": "x", "note": "y"}\n')
    assert as_set(read_counts(p, correct_col="score")) == {("s", "a", 1, 1), ("s", "b", 1, 0)}
    assert as_set(read_counts(p, correct_col="score_1")) == {("s", "a", 1, 0), ("s", "b", 1, 1)}


def test_a_given_column_the_header_repeats_in_another_case_is_the_one_written_so(tmp_path):
    # header 'Correct,correct' (DuckDB reads the second as 'correct_1'): correct_col='correct' had read 'Correct'
    # (a 2/2, b 0/1) without a word. Counted by hand from the rows: 'correct' holds a 0, 0 and b 1; 'Correct' a 1, 1
    # and b 0
    p = tmp_path / "s.csv"
    p.write_text("problem_id,Correct,correct\na,1,0\na,1,0\nb,0,1\n")
    assert as_set(read_counts(p, correct_col="correct")) == {("s", "a", 2, 0), ("s", "b", 1, 1)}
    assert as_set(read_counts(p, correct_col="Correct")) == {("s", "a", 2, 2), ("s", "b", 1, 0)}
    assert as_set(read_counts(p, correct_col="correct_1")) == {("s", "a", 2, 0), ("s", "b", 1, 1)}
    # a name that matches both only case-insensitively names neither
    with pytest.raises(passcurve.PasscurveError, match=r"^s\.csv: the column name 'CORRECT' appears 2 times \(read as "
                                                       r"'Correct', 'correct_1'\), so which one holds the correctness "
                                                       r"is ambiguous; rename or drop the others$"):
        read_counts(p, correct_col="CORRECT")
    q = tmp_path / "c.csv"
    q.write_text("problem_id,n,c,n\na,10,1,20\n")
    # a name written twice is the copy DuckDB reads by that name (docs/data.md): n_col='n' the first (10), 'n_1' 20
    assert as_set(read_counts(q, n_col="n")) == {("c", "a", 10, 1)}
    assert as_set(read_counts(q, n_col="n_1")) == {("c", "a", 20, 1)}
