"""Every bad input to read_counts raises a one-line PasscurveError that names the problem."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from _bad_inputs import CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from passcurve import PasscurveError, open_samples, read_counts


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_python(tmp_path, case):
    build, pattern = CASES[case]
    path, _args, kwargs = build(tmp_path)
    with pytest.raises(PasscurveError) as info:
        read_counts(path, **kwargs)
    msg = str(info.value)
    assert "\n" not in msg
    assert re.search(pattern, msg), msg


def test_bad_threshold(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,score\na,0.5\n")
    with pytest.raises(PasscurveError, match="`threshold` must be a number"):
        read_counts(p, threshold="high")
    # an infinite threshold was put into the SQL as the text inf: DuckDB's BinderException 'Referenced column "inf"
    # not found in FROM clause!', a traceback through the CLI too
    for t in (float("inf"), -float("inf")):
        with pytest.raises(PasscurveError, match=rf"^`threshold` must be finite \(got threshold={t}\)$"):
            read_counts(p, threshold=t)


def test_cli_infinite_threshold_is_one_line(tmp_path, icli):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,score\na,0.5\n")
    r = icli("curve", str(p), "--threshold", "inf")
    assert r.returncode == 2 and r.stderr == "passcurve: error: `--threshold` must be finite (got --threshold=inf)\n"


def test_progress_and_check_duplicates_are_checked(tmp_path):
    # progress=3 was a TypeError "'int' object is not callable" from inside the scan (for several files, when the
    # first file's share of the bar was drawn), and check_duplicates="no" was true: the check ran (API sweep)
    p = tmp_path / "x.csv"
    p.write_text("problem_id,attempt,correct\na,0,1\na,1,0\n")
    for paths in (p, [p, p.with_name("y.csv")]):
        with pytest.raises(PasscurveError, match=r"^`progress` must be a function or None \(got 3\)$"):
            read_counts(paths, progress=3)
    with pytest.raises(PasscurveError, match=r"^`check_duplicates` must be True or False \(got 'no'\)$"):
        read_counts(p, check_duplicates="no")
    with pytest.raises(PasscurveError, match=r"^`progress` must be a function or None \(got 'x'\)$"):
        open_samples(p).counts(progress="x")
    seen: list[float] = []
    got = read_counts(p, progress=seen.append, check_duplicates=False)
    assert (got.n.tolist(), got.c.tolist()) == ([2], [1])  # hand count: problem a, 2 attempts, 1 right


def test_sample_and_count_overrides_conflict(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,n,c,correct\na,1,1,1\n")
    with pytest.raises(PasscurveError, match="not both"):
        read_counts(p, correct_col="correct", n_col="n")


def test_duplicates_detected_when_attempts_are_strings(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,sample_id,correct\na,s1,1\na,s2,0\na,s1,1\n")
    with pytest.raises(PasscurveError, match="attempt s1 appears 2 times"):
        read_counts(p)


def test_duplicate_with_gap_detected_by_power_sums(tmp_path):
    # attempts 0,1,1,3 (a repeat and a gap, max-min+1 == n) and 0,0,2,2 (two repeats, two gaps)
    for attempts in ([0, 1, 1, 3], [0, 0, 3, 3], [5, 5, 7, 8]):
        p = tmp_path / "x.csv"
        p.write_text("problem_id,attempt,correct\n" + "".join(f"a,{a},1\n" for a in attempts))
        with pytest.raises(PasscurveError, match="duplicate"):
            read_counts(p)


def test_null_attempt(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text(
        '{"problem_id": "a", "attempt": 0, "correct": true}\n{"problem_id": "a", "attempt": null, "correct": false}\n'
    )
    with pytest.raises(PasscurveError, match="attempt column 'attempt' has a missing value"):
        read_counts(p)


def test_nan_attempt_is_missing(tmp_path):
    # a bare NaN attempt (a float column, or a JSON column beside text) was the attempt label 'nan': one was counted
    # as a sample, two were 'duplicate ... attempt nan appears 2 times'; read_answers and tau2's trials call NaN
    # missing, as null is. Now the same here, naming its line (the 2nd: hand count); the string "NaN" stays a label
    for first, second in (("0", "NaN"), ('"x"', "NaN")):
        p = tmp_path / "x.jsonl"
        p.write_text(f'{{"problem_id": "a", "attempt": {first}, "correct": true}}\n'
                     f'{{"problem_id": "a", "attempt": {second}, "correct": false}}\n')
        with pytest.raises(PasscurveError, match=r"^x\.jsonl: attempt column 'attempt' has a missing value, e\.g\. row "
                                                 r"\{problem_id='a', attempt=.*\} at line 2$"):
            read_counts(p)
    p.write_text('{"problem_id": "a", "attempt": "x", "correct": true}\n'
                 '{"problem_id": "a", "attempt": "NaN", "correct": false}\n')
    assert list(read_counts(p).n) == [2]


def test_attempts_beyond_exact_floats_are_not_called_duplicates(tmp_path):
    # attempts 2^64 and 2^64 + 1 (DuckDB reads the column as DOUBLE) are one float, 1.8446744073709552e+19: the message
    # was "duplicate (problem, attempt) rows: problem 'a' attempt 1.8446744073709552e+19 appears 2 times" of two
    # different attempts. Now it says why they cannot be told apart (float64 integers are exact up to 2^53 - 1)
    p = tmp_path / "x.jsonl"
    p.write_text('{"problem_id": "a", "attempt": 18446744073709551616, "correct": true}\n'
                 '{"problem_id": "a", "attempt": 18446744073709551617, "correct": false}\n')
    with pytest.raises(PasscurveError, match=r"^x\.jsonl: attempt column 'attempt' holds 1\.8446744073709552e\+19 at lines 1 "
                                             r"and 2, too large to tell attempts apart: the column is read as floats .*, "
                                             r"exact only up to 2\^53 - 1 = 9007199254740991; number the attempts from 0 "
                                             r"or 1$"):
        read_counts(p)
    # a float column's duplicate within the exact range is still a duplicate
    p.write_text('{"problem_id": "a", "attempt": 1.0, "correct": true}\n{"problem_id": "a", "attempt": 1, "correct": false}\n')
    with pytest.raises(PasscurveError, match=r"duplicate \(problem, attempt\) rows: problem 'a' attempt 1\.0 appears 2 times"):
        read_counts(p)
    # the answers reader (vote) said "duplicate attempt 1.8446744073709552e+19 in problem 'a' (column 'attempt')"
    from passcurve.data import read_answers

    p = _jsonl(tmp_path / "ans.jsonl", [{"problem_id": "a", "attempt": 2**64 + i, "answer": str(i), "gold": "1"}
                                        for i in range(2)])
    with pytest.raises(PasscurveError, match=r"^ans\.jsonl: attempt column 'attempt' holds 1\.8446744073709552e\+19 at "
                                             r"lines 1 and 2, too large to tell attempts apart: "):
        read_answers(p)


def test_duplicates_with_the_power_sums_of_a_run_are_caught(tmp_path):
    # {0,0,3,4,4,5,5} has the sum (21) and the sum of squares (91) of the run 0..6 (a
    # Prouhet-Tarry-Escott pair {1,2,6} -> {0,4,5}; checked here by arithmetic), so a
    # power-sum check passes it; it repeats attempts 0, 4 and 5
    ids = [0, 0, 3, 4, 4, 5, 5]
    assert (sum(ids), sum(a * a for a in ids)) == (sum(range(7)), sum(a * a for a in range(7)))
    p = tmp_path / "x.csv"
    p.write_text("problem_id,attempt,correct\n" + "".join(f"p,{a},1\n" for a in ids))
    with pytest.raises(PasscurveError, match="duplicate .problem, attempt. rows: problem 'p' attempt [045] appears 2"):
        read_counts(p)


@pytest.mark.parametrize("ids", [list(range(9)), list(range(1, 10)), [8, 3, 0, 1, 2, 7, 6, 5, 4]])
def test_runs_from_0_or_1_pass_the_fingerprint_without_the_exact_query(tmp_path, ids):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,attempt,correct\n" + "".join(f"p,{a},{a % 2}\n" for a in ids))
    got = read_counts(p)
    assert got.n.tolist() == [9] and got.meta["duplicate_check"].startswith("XOR fingerprint")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 12), min_size=1, max_size=8), min_size=1, max_size=3))
def test_duplicate_check_matches_a_set_count(groups):
    # property: read_counts rejects the file iff some problem repeats an attempt id
    # (independent oracle: Python set sizes), whichever path (power sums or exact query) decides
    has_dup = any(len(set(a)) < len(a) for a in groups)
    body = "".join(f"p{i},{a},1\n" for i, attempts in enumerate(groups) for a in attempts)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.csv"
        p.write_text("problem_id,attempt,correct\n" + body)
        if has_dup:
            with pytest.raises(PasscurveError, match="duplicate"):
                read_counts(p)
        else:
            got = read_counts(p)
            assert sorted(int(v) for v in got.n) == sorted(len(a) for a in groups)


def test_single_quoted_column_with_a_comma_is_not_called_ragged(tmp_path):
    # one column whose (quoted) name contains the delimiter: every row is consistent, so the
    # ragged-row check finds nothing and the usual missing-column message stands
    p = tmp_path / "q.csv"
    p.write_text('"a,b"\n1\n2\n')
    with pytest.raises(PasscurveError, match=r"no problem-id column .*columns found: a,b") as info:
        read_counts(p)
    assert "truncated" not in str(info.value)


def test_csv_conversion_error_says_which_column_and_value(tmp_path):
    # DuckDB types the column from its first 20,480 rows; a later bad value used to be reported as the line only.
    # (An attempt column: a 0/1 correctness column is now read as text, and its 'maybe' quoted as a row.)
    p = tmp_path / "late.csv"
    p.write_text("problem_id,attempt,correct\n" + "".join(f"{i % 50},{i // 50},1\n" for i in range(30_000))
                 + "x,first,1\n")
    with pytest.raises(PasscurveError, match=r'Line: 30002: Error when converting column "attempt"\. '
                                             r'Could not convert string "first"') as info:
        read_counts(p)
    assert "\n" not in str(info.value)
    p.write_text("problem_id,correct\n" + "".join(f"{i % 50},1\n" for i in range(30_000)) + "x,maybe\n")
    with pytest.raises(PasscurveError, match=r"not boolean .* e.g. row \{problem_id='x', correct='maybe'\}"):
        read_counts(p)


def test_read_answers_mixed_type_duplicate_attempt(tmp_path):
    # attempt 1 and "1" of one problem are one attempt id: read_answers used to tally both samples
    from passcurve.data import read_answers

    p = tmp_path / "x.jsonl"
    p.write_text(
        '{"problem_id": "a", "attempt": 0, "answer": "4", "gold": "4"}\n'
        '{"problem_id": "a", "attempt": 1, "answer": "3", "gold": "4"}\n'
        '{"problem_id": "a", "attempt": "1", "answer": "4", "gold": "4"}\n'
    )
    with pytest.raises(PasscurveError, match=r"duplicate attempt 1 in problem 'a' \(column 'attempt'\)"):
        read_answers(p)


def test_blank_ids_are_whitespace_as_python_sees_it():
    import duckdb

    from passcurve.data._columns import WHITESPACE, is_blank

    # WHITESPACE is every character str.isspace() accepts: none lies above its last one, U+3000
    assert all(not chr(i).isspace() for i in range(0x3001, 0x110000))
    values = [*WHITESPACE, WHITESPACE, "", " \t\u3000\n", "\u200b", "a\t", "\ufeff", "\u3000x", "\u00a0\u00e9",
              "\u00e9", "\u3001", *(ws + "x" for ws in WHITESPACE)]
    got = duckdb.execute(f"SELECT {is_blank('x')} FROM unnest(?) t(x)", [values]).fetchall()
    assert [b for (b,) in got] == [not v.strip() for v in values]
    assert not any(not v.strip() for v in values[-33:])
    # is_blank tests the first character before trimming: every character up to U+3001 alone, and before "x"
    singles = [chr(i) for i in range(0x3002)]
    values = singles + [ch + "x" for ch in singles] + [ch + " " for ch in singles]
    got = duckdb.execute(f"SELECT {is_blank('x')} FROM unnest(?) t(x)", [values]).fetchall()
    assert [b for (b,) in got] == [not v.strip() for v in values]


def test_broken_jsonl_line_is_named_by_its_own_number(tmp_path):
    # A run killed while writing leaves its last line cut short. DuckDB 2.0.1 numbers the error one line past the
    # broken one ("line 2002" of a 2,001-line file), in a .jsonl.gz and an lm-eval log too; the message names
    # the line that breaks (hand count: 2,000 whole lines, then the cut one) and shows it.
    import gzip
    import json

    whole = "".join(json.dumps({"problem_id": f"p{i % 10}", "attempt": i // 10, "correct": i % 2}) + "\n"
                    for i in range(2000))
    cut = '{"problem_id": "p3", "atte'
    plain = tmp_path / "run.jsonl"
    plain.write_text(whole + cut)
    packed = tmp_path / "run2.jsonl.gz"
    packed.write_bytes(gzip.compress((whole + cut).encode()))
    lm = tmp_path / "samples_gsm8k_2024-07-01T10-00-00.jsonl"
    rec = {"doc_id": 0, "doc": {}, "target": "3", "arguments": {}, "resps": [["3"]], "filtered_resps": ["3"],
           "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}
    lm.write_text(json.dumps(rec) + "\n" + json.dumps(rec | {"doc_id": 1}) + "\n" + json.dumps(rec)[:40])
    for path, line in ((plain, 2001), (packed, 2001), (lm, 3)):
        with pytest.raises(PasscurveError) as info:
            read_counts(path)
        msg = str(info.value)
        assert msg.startswith(f"cannot read {path.name} as jsonl: line {line} is not valid JSON ("), msg
        assert "the file ends inside this line" in msg and "Malformed" not in msg, msg
    # a broken line that is not the last: its number, without the cut-short note
    mid = tmp_path / "mid.jsonl"
    lines = whole.splitlines(keepends=True)
    mid.write_text("".join(lines[:1499]) + lines[1499][:-3] + "\n" + "".join(lines[1500:]))
    with pytest.raises(PasscurveError, match=r"^cannot read mid.jsonl as jsonl: line 1500 is not valid JSON "
                                             r"\(Expecting value\): '\{"):
        read_counts(mid)


def test_concatenated_runs_are_told_how_to_pool(tmp_path):
    # two runs of one model written one after another: attempts 0..2 twice per problem (hand count: each twice)
    p = tmp_path / "both.jsonl"
    p.write_text("".join(f'{{"problem_id": "p{q}", "attempt": {a}, "correct": 1}}\n'
                         for _run in range(2) for q in range(3) for a in range(3)))
    with pytest.raises(PasscurveError, match=r"^both.jsonl: duplicate \(problem, attempt\) rows: problem 'p0' attempt "
                                             r"\d appears 2 times at lines \d+ and \d+; each attempt must appear once "
                                             r"\(several runs written one after another, their attempts restarting\? give "
                                             r"each run as its own file and pool them with `pool`\)$") as err:
        read_counts(p)
    # hand count: p0's attempt a is on line a + 1 of the first run and line a + 10 of the second (9 lines a run)
    a, first, second = map(int, re.search(r"attempt (\d) appears 2 times at lines (\d+) and (\d+)", str(err.value)).groups())
    assert (first, second) == (a + 1, a + 10)


def test_compression_duckdb_cannot_open_is_named(tmp_path):
    # a .jsonl.bz2 read "unknown format (extension '.bz2' ...); pass `format`", and with format="jsonl" DuckDB's
    # "Not implemented Error: ... compression type "bzip2""; a bare x.gz read "extension '(none)'"
    import bz2
    import gzip
    import lzma

    rows = b'{"problem_id": "a", "correct": 1}\n'
    (tmp_path / "r.jsonl.bz2").write_bytes(bz2.compress(rows))
    (tmp_path / "r.jsonl.xz").write_bytes(lzma.compress(rows))
    for name, kind, tool in (("r.jsonl.bz2", "bzip2", "bunzip2 -k"), ("r.jsonl.xz", "xz", "unxz -k")):
        for fmt in (None, "jsonl"):
            with pytest.raises(PasscurveError, match=rf"^{name} is compressed with {kind} \(\.\w+\), which passcurve "
                                                     rf"does not read: decompress it \(`{tool} {name}`\)"):
                read_counts(tmp_path / name, format=fmt)
    bare = tmp_path / "r.gz"
    bare.write_bytes(gzip.compress(rows))
    with pytest.raises(PasscurveError, match=r"^r.gz: a .gz file whose name does not say what it holds \(tried .*\); "
                                             r"name it r.jsonl.gz or r.csv.gz, or pass `format`"):
        read_counts(bare)
    assert read_counts(bare, format="jsonl").n.tolist() == [1]


@pytest.mark.parametrize(("late", "want"), [(0.5, None), (2, None), ("passed", 1), ("1.0", 1), ("no", 0)])
def test_jsonl_boolean_column_checks_values_after_the_sniffed_rows(tmp_path, late, want):
    # DuckDB types a JSONL column from its first 20,480 rows: a column of true/false was BOOLEAN, a later JSON 0.5
    # or 2 was cast to true without a word (problem p1, all false, read c = 1), and a later "passed" or "1.0" (true
    # words) stopped the read with "Failed to cast value to numerical"
    import json

    p = tmp_path / "late.jsonl"
    p.write_text("".join(json.dumps({"problem_id": f"p{i % 100}", "attempt": i // 100, "correct": i % 2 == 0}) + "\n"
                         for i in range(30000)) + json.dumps({"problem_id": "p1", "attempt": 300, "correct": late}) + "\n")
    if want is None:
        with pytest.raises(PasscurveError, match=rf"^late.jsonl: correctness column 'correct' holds a value that is not "
                                                 rf"boolean .* correct='{late}'\}} at line 30001; pass `threshold`"):
            read_counts(p)
        return
    got = read_counts(p)
    # hand count: p1 is odd-numbered rows only (300 false), plus the late row; p0 is 300 true
    assert (got.n[1], got.c[1]) == (301, want) and (got.n[0], got.c[0]) == (300, 300)
    assert got.c.sum() == 15000 + want


def test_one_sample_errors_name_their_line(tmp_path):
    # an error about one sample quoted the row but not where it is; the line counts the header, the blank lines DuckDB
    # skips and a quoted field over two lines at its first line (hand count of each file below)
    import gzip

    import duckdb

    c = tmp_path / "c.csv"
    c.write_text('problem_id,correct\np1,1\n\np2,0\n"p\n3",maybe\n')
    with pytest.raises(PasscurveError, match=r"^c.csv: correctness column 'correct' holds a value that is not boolean "
                                             r".* e.g. row \{problem_id='p\\n3', correct='maybe'\} at line 5; pass"):
        read_counts(c)
    j = tmp_path / "j.jsonl"
    j.write_text('{"problem_id": "a", "correct": 1}\n\n   \n{"problem_id": null, "correct": 0}\n')
    with pytest.raises(PasscurveError, match=r"^j.jsonl: problem-id column 'problem_id' has a missing value, e.g. row "
                                             r"\{problem_id=None, correct='0'\} at line 4$"):
        read_counts(j)
    z = tmp_path / "z.jsonl.gz"
    z.write_bytes(gzip.compress(j.read_bytes()))
    with pytest.raises(PasscurveError, match=r"at line 4$"):
        read_counts(z)
    # a Parquet file has rows, not lines: the third row
    q = tmp_path / "q.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('a', 1.0), ('b', 0.0), ('c', NULL)) t(problem_id, score)) "
               f"TO '{q}' (FORMAT parquet)")
    with pytest.raises(PasscurveError, match=r"has a missing value \(null/NaN\), e.g. row \{problem_id='c', "
                                             r"score=None\} at row 3$"):
        read_counts(q, threshold=0.5)
    # a duplicate attempt names its first two lines: lines 2 and 4 (line 1 the header)
    d = tmp_path / "d.csv"
    d.write_text("problem_id,attempt,correct\na,0,1\na,1,0\na,0,0\nb,0,1\n")
    with pytest.raises(PasscurveError, match=r"problem 'a' attempt 0 appears 2 times at lines 2 and 4; each"):
        read_counts(d)


def test_jsonl_bare_nan_id_is_missing(tmp_path):
    # a bare NaN (unquoted, not JSON but Python's json.dumps writes it) had been read as the problem 'NaN': a problem of
    # every sample without an id. The string "NaN" is an id like any other (hand count: problems 'NaN' and 'p')
    p = tmp_path / "n.jsonl"
    p.write_text('{"problem": "p1", "correct": true}\n{"problem": NaN, "correct": false}\n')
    with pytest.raises(PasscurveError, match=r"^n.jsonl: problem-id column 'problem' has a missing value, e.g. row "
                                             r"\{problem='NaN', correct='false'\} at line 2$"):
        read_counts(p)
    m = tmp_path / "m.jsonl"
    m.write_text('{"model": "x", "problem": 1, "correct": 1}\n{"model": NaN, "problem": 2, "correct": 1}\n')
    with pytest.raises(PasscurveError, match=r"^m.jsonl: model column 'model' has a missing value, e.g. row .* at line 2$"):
        read_counts(m)
    s = tmp_path / "s.jsonl"
    s.write_text('{"problem": "NaN", "correct": true}\n{"problem": "p", "correct": false}\n')
    got = read_counts(s)
    assert sorted(got.problem.tolist()) == ["NaN", "p"] and got.c.sum() == 1
    # the same in a counts file and in the answers reader (vote): line 2 of each
    k = tmp_path / "k.jsonl"
    k.write_text('{"problem": "a", "n": 2, "c": 1}\n{"problem": NaN, "n": 2, "c": 1}\n')
    with pytest.raises(PasscurveError, match=r"^k.jsonl: problem-id column 'problem' has a missing value, .* at line 2$"):
        read_counts(k)
    from passcurve.data import read_answers

    v = tmp_path / "v.jsonl"
    v.write_text('{"problem": "a", "answer": "1", "gold": "1"}\n{"problem": NaN, "answer": "2", "gold": "2"}\n')
    with pytest.raises(PasscurveError, match=r"^v.jsonl: problem-id column 'problem' has a missing value, .* at line 2$"):
        read_answers(v)


def test_csv_boolean_column_takes_later_true_words(tmp_path):
    # DuckDB's sniffer typed a column of true/false BOOLEAN from its first rows, and a later 'passed' (a true word of
    # docs/data.md) stopped the read: "Could not convert string "passed" to 'BOOLEAN'" (DuckDB itself takes yes/no,
    # y/n, t/f). The column is now read again as text on that error. Hand count: 30,000 rows alternate true/false
    # over problems p0..p99 (p0 all true, p1 all false), then p1 'passed'; a problem id column named by the user
    # (q: 1.10 and 1.1 are two problems) stays text through the second read.
    rows = "".join(f"p{i % 100},{'true' if i % 2 == 0 else 'false'},1.1{'0' if i % 3 else ''}\n" for i in range(30000))
    p = tmp_path / "late.csv"
    for late, want in (("passed", 1), ("fail", 0), ("1.0", 1)):
        p.write_text("problem_id,correct,q\n" + rows + f"p1,{late},1.10\n")
        got = read_counts(p)
        assert (got.n[1], got.c[1]) == (301, want) and got.c.sum() == 15000 + want
        by_q = read_counts(p, problem_col="q")
        assert sorted(by_q.problem.tolist()) == ["1.1", "1.10"] and by_q.n.sum() == 30001
    p.write_text("problem_id,correct,q\n" + rows + "p1,maybe,1\n")
    with pytest.raises(PasscurveError, match=r"not boolean .* correct='maybe', q=1.0\} at line 30002; pass `threshold`"):
        read_counts(p)


# ------------------------------------------------------------------ an id that is a list or an object
NOT_AN_ID = "not an id (a string or a number)"


def _jsonl(path: Path, rows: list[dict]) -> Path:
    import json

    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize(("value", "what"), [([1, 2], "a list"), ({"x": 1}, "an object")])
def test_a_jsonl_id_that_is_a_list_or_an_object_is_refused(tmp_path, value, what):
    # {"problem_id":[1,2]} became the problem '[1,2]' (2 problems), where Counts.from_arrays refuses a sequence id
    p = _jsonl(tmp_path / "x.jsonl", [{"problem_id": "a", "correct": 1}, {"problem_id": value, "correct": 0}])
    with pytest.raises(PasscurveError) as got:
        read_counts(p)
    msg = str(got.value)
    assert msg.startswith(f"x.jsonl: problem-id column 'problem_id' holds {what}, {NOT_AN_ID}, e.g. row "), msg
    assert msg.endswith(" at line 2") and "\n" not in msg
    # a model name, and a counts file's problem id, alike
    p = _jsonl(tmp_path / "m.jsonl", [{"model": "m", "problem_id": "a", "correct": 1},
                                      {"model": value, "problem_id": "b", "correct": 0}])
    with pytest.raises(PasscurveError, match=rf"^m\.jsonl: model column 'model' holds {what}, .* at line 2$"):
        read_counts(p)
    p = _jsonl(tmp_path / "c.jsonl", [{"problem_id": "a", "n": 3, "c": 1}, {"problem_id": value, "n": 3, "c": 0}])
    with pytest.raises(PasscurveError, match=rf"^c\.jsonl: problem-id column 'problem_id' holds {what}, .* at line 2$"):
        read_counts(p)


def test_ids_that_are_strings_or_numbers_stay_ids(tmp_path):
    # the string "[1,2]" is an id (it is one value), as are numbers beside strings: 4 problems (hand count)
    p = _jsonl(tmp_path / "ok.jsonl", [{"problem_id": "[1,2]", "correct": 1}, {"problem_id": "{x}", "correct": 0},
                                       {"problem_id": 1, "correct": 1}, {"problem_id": 2.5, "correct": 0}])
    assert sorted(read_counts(p).problem) == ["1", "2.5", "[1,2]", "{x}"]


def test_a_nested_id_is_refused_in_every_reader(tmp_path):
    import json

    import duckdb

    from passcurve.data import read_answers

    # a JSON array of records (its JSON column), Parquet's list and struct columns
    p = tmp_path / "arr.json"
    p.write_text(json.dumps([{"problem_id": "a", "correct": 1}, {"problem_id": [1, 2], "correct": 0}]))
    with pytest.raises(PasscurveError, match=r"^arr\.json: problem-id column 'problem_id' holds a list, .* at record 2$"):
        read_counts(p)
    con = duckdb.connect()
    con.sql(f"COPY (SELECT [1, 2] AS problem_id, 1 AS correct) TO '{tmp_path / 'l.parquet'}' (FORMAT parquet)")
    con.sql(f"COPY (SELECT {{'x': 1}} AS problem_id, 1 AS correct) TO '{tmp_path / 's.parquet'}' (FORMAT parquet)")
    with pytest.raises(PasscurveError, match=r"^l\.parquet: problem-id column 'problem_id' holds a list, .* at row 1$"):
        read_counts(tmp_path / "l.parquet")
    with pytest.raises(PasscurveError, match=r"^s\.parquet: problem-id column 'problem_id' holds a struct, .* at row 1$"):
        read_counts(tmp_path / "s.parquet")
    # harness logs: lm-eval's doc_id, human-eval's and tau2's task_id
    h = Path(__file__).parent / "data" / "harness"
    (tmp_path / "lm").mkdir()
    rows = [json.loads(line) for line in (h / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl").open()]
    rows[2]["doc_id"] = {"x": 1}
    _jsonl(tmp_path / "lm" / "samples_gsm8k_2024-05-01T12-00-00.jsonl", rows)
    with pytest.raises(PasscurveError, match=r"problem-id column 'doc_id' holds an object, .* at line 3$"):
        read_counts(tmp_path / "lm" / "samples_gsm8k_2024-05-01T12-00-00.jsonl")
    rows = [json.loads(line) for line in (h / "samples.jsonl_results.jsonl").open()]
    rows[-1]["task_id"] = [1]
    _jsonl(tmp_path / "he_results.jsonl", rows)
    with pytest.raises(PasscurveError, match=rf"problem-id column 'task_id' holds a list, .* at line {len(rows)}$"):
        read_counts(tmp_path / "he_results.jsonl")
    log = json.loads((h / "tau2_results.json").read_text())
    log["simulations"][1]["task_id"] = [1]
    (tmp_path / "tau2.json").write_text(json.dumps(log))
    with pytest.raises(PasscurveError, match=r"problem-id column 'task_id' holds a list, .* at simulations\[1\]$"):
        read_counts(tmp_path / "tau2.json")
    # the answers reader shares the check
    p = _jsonl(tmp_path / "ans.jsonl", [{"problem_id": "a", "answer": "1", "gold": "1"},
                                        {"problem_id": [1], "answer": "2", "gold": "1"}])
    with pytest.raises(PasscurveError, match=r"^ans\.jsonl: problem-id column 'problem_id' holds a list, .* at line 2$"):
        read_answers(p)


def test_inspect_and_lighteval_hand_a_nested_id_to_the_shared_check(tmp_path):
    # the inspect and lighteval adapters read ids as text (json_text): the sample id [1] was the problem '[1]' (2
    # problems), a model {"a": 1} the model '{"a":1}', lighteval's doc id [1] the problem '[1]'; now refused as the
    # other readers refuse them, naming where
    import json
    import zipfile

    samples = [{"id": "a", "epoch": 1, "scores": {"s": {"value": "C"}}},
               {"id": [1], "epoch": 1, "scores": {"s": {"value": "I"}}}]
    p = tmp_path / "log.json"
    p.write_text(json.dumps({"eval": {"model": "m"}, "samples": samples}))
    with pytest.raises(PasscurveError, match=rf"^log\.json: problem-id column 'id' holds a list, {re.escape(NOT_AN_ID)}, "
                                             r"e\.g\. row \{model='m', id='\[1\]', epoch=1, .* at samples\[1\]$"):
        read_counts(p)
    p.write_text(json.dumps({"eval": {"model": {"a": 1}}, "samples": samples[:1]}))
    with pytest.raises(PasscurveError, match=r"^log\.json: model column 'model' holds an object, .* at samples\[0\]$"):
        read_counts(p)
    for model, rows, what in (("m", samples, "problem-id column 'id' holds a list"),
                              (["m"], samples[:1], "model column 'model' holds a list")):
        p = tmp_path / "log.eval"
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("header.json", json.dumps({"eval": {"model": model}, "status": "success"}))
            zf.writestr("summaries.json", json.dumps(rows))
        with pytest.raises(PasscurveError, match=rf"^log\.eval: {what}, .* at summaries\.json\[{len(rows) - 1}\]$"):
            read_counts(p)
    # lighteval JSONL details: an id beside a string id (a JSON column), and every id a list (a list column)
    def lighteval(name: str, ids: list) -> Path:
        return _jsonl(tmp_path / name, [{"doc": {"id": i, "query": f"q{j}"}, "metric": {"acc": 1},
                                         "model_response": {"text": "x"}} for j, i in enumerate(ids)])

    with pytest.raises(PasscurveError, match=r"^mixed\.jsonl: problem-id column 'problem_id' holds a list, .* at line 2$"):
        read_counts(lighteval("mixed.jsonl", ["a", [1]]))
    with pytest.raises(PasscurveError, match=r"^lists\.jsonl: problem-id column 'problem_id' holds a list, .* at line 1$"):
        read_counts(lighteval("lists.jsonl", [[1], [2]]))
    # a string id that looks like a list stays an id (2 problems, hand count), the text of each as before
    assert sorted(read_counts(lighteval("ok.jsonl", ["[1]", 2])).problem) == ["2", "[1]"]


def test_an_attempt_that_is_a_list_or_an_object_is_refused(tmp_path):
    # an attempt [1] or {"a": 1} (a JSON column beside numbers, or a Parquet list column) was the attempt label '[1]':
    # one more sample of its problem (n = 2 here), where such a problem id or model is refused. Now the same message,
    # naming where (line 2, row 1: hand count); the string "[1]" stays a label
    import json

    import duckdb

    for value, what in (([1], "a list"), ({"a": 1}, "an object")):
        p = _jsonl(tmp_path / "x.jsonl", [{"problem_id": "a", "attempt": 0, "correct": 1},
                                          {"problem_id": "a", "attempt": value, "correct": 0}])
        with pytest.raises(PasscurveError, match=rf"^x\.jsonl: attempt column 'attempt' holds {what}, "
                                                 rf"{re.escape(NOT_AN_ID)}, e\.g\. row \{{problem_id='a', attempt="
                                                 rf"'{re.escape(json.dumps(value, separators=(',', ':')))}', .*\}} at line 2$"):
            read_counts(p)
    q = tmp_path / "l.parquet"
    duckdb.sql(f"COPY (SELECT 'a' AS problem_id, [1] AS attempt, 1 AS correct) TO '{q}' (FORMAT parquet)")
    with pytest.raises(PasscurveError, match=r"^l\.parquet: attempt column 'attempt' holds a list, .* at row 1$"):
        read_counts(q)
    p = _jsonl(tmp_path / "x.jsonl", [{"problem_id": "a", "attempt": 0, "correct": 1},
                                      {"problem_id": "a", "attempt": "[1]", "correct": 0}])
    assert list(read_counts(p).n) == [2]


def test_tau2_hands_a_nested_model_to_the_shared_check(tmp_path):
    # tau2's model (info.agent_info.llm) was read as text (json_text): ["gpt-4.1"] was the model '["gpt-4.1"]' and
    # {"a": 1} the model '{"a":1}', where every other reader refuses a list or an object as an id; now the same
    # refusal, naming the first simulation
    import json

    log = json.loads((Path(__file__).parent / "data" / "harness" / "tau2_results.json").read_text())
    p = tmp_path / "tau2.json"
    for llm, what in ((["gpt-4.1"], "a list"), ({"a": 1}, "an object")):
        log["info"]["agent_info"]["llm"] = llm
        p.write_text(json.dumps(log))
        with pytest.raises(PasscurveError, match=rf"^tau2\.json: model column 'model' holds {what}, "
                                                 rf"{re.escape(NOT_AN_ID)}, e\.g\. row .* at simulations\[0\]$"):
            read_counts(p)
    # a string that looks like a list stays the model's name, as written (the fixture's 2 problems)
    log["info"]["agent_info"]["llm"] = "[gpt-4.1]"
    p.write_text(json.dumps(log))
    assert set(read_counts(p).model) == {"[gpt-4.1]"}


def test_cli_refuses_a_nested_id_in_one_line(tmp_path, icli):
    p = _jsonl(tmp_path / "x.jsonl", [{"problem_id": "a", "correct": 1}, {"problem_id": [1, 2], "correct": 0}])
    r = icli("curve", str(p))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"passcurve: error: x.jsonl: problem-id column 'problem_id' holds a list, {NOT_AN_ID}, e.g. "
                        "row {problem_id='[1,2]', correct='0'} at line 2\n"), r.stderr
