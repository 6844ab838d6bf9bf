"""Hand-made bad inputs shared by the Python and CLI error tests.

Each case: name -> (builder(tmp_path) -> (path, extra CLI args, read_counts kwargs), message regex).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

Case = tuple[Callable[[Path], tuple[Path, list[str], dict[str, Any]]], str]


def _bytes(name: str, data: bytes) -> Callable[[Path], tuple[Path, list[str], dict[str, Any]]]:
    def build(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
        p = tmp / name
        p.write_bytes(data)
        return p, [], {}

    return build


def _text(name: str, text: str) -> Callable[[Path], tuple[Path, list[str], dict[str, Any]]]:
    return _bytes(name, text.encode("utf-8"))


def _parquet(sql: str, name: str = "x.parquet", cut: bool = False):  # type: ignore[no-untyped-def]
    def build(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
        p = tmp / name
        duckdb.sql(f"COPY ({sql}) TO '{p}' (FORMAT parquet)")
        if cut:
            data = p.read_bytes()
            p.write_bytes(data[: len(data) // 2])
        return p, [], {}

    return build


def _arrow_parquet(columns: dict[str, list[Any]], name: str = "x.parquet"):  # type: ignore[no-untyped-def]
    """A Parquet file written by pyarrow, whose column statistics leave NaN out (DuckDB's own writer counts it)."""

    def build(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        p = tmp / name
        pq.write_table(pa.table(columns), p)
        return p, [], {}

    return build


def _dup_parquet(names: list[str], columns: list[list[Any]], name: str = "x.parquet"):  # type: ignore[no-untyped-def]
    """A Parquet file (pyarrow) whose schema repeats a column name."""

    def build(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        p = tmp / name
        pq.write_table(pa.Table.from_arrays([pa.array(c) for c in columns], names=names), p)
        return p, [], {}

    return build


def _eval_bad_crc(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
    """An inspect .eval zip whose summaries.json has one damaged byte (its CRC no longer matches)."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("header.json", json.dumps({"eval": {"model": "m"}}))
        z.writestr("summaries.json", json.dumps([{"id": "a", "epoch": 1, "scores": {"s": {"value": "C"}}}]))
    data = buf.getvalue()
    i = data.index(b'"value": "C"') + len(b'"value": "')
    p = tmp / "log.eval"
    p.write_bytes(data[:i] + b"I" + data[i + 1 :])
    return p, [], {}


def _cut_eval(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
    """An inspect .eval zip cut short (its first half): the zip's directory, at its end, is gone."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("header.json", json.dumps({"eval": {"model": "m"}, "status": "success"}))
        z.writestr("summaries.json", json.dumps([{"id": "a", "epoch": 1, "scores": {"s": {"value": "C"}}}]))
    p = tmp / "log.eval"
    p.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 2])
    return p, [], {}


# a tau2-bench results document, indented as tau2 writes it (cut short by the cases below)
_TAU2 = json.dumps({"info": {"agent_info": {"llm": "m"}}, "simulations": [
    {"task_id": "t1", "trial": 0, "reward_info": {"reward": 1.0}}]}, indent=2)


def _with(build, args: list[str], kwargs: dict[str, Any]):  # type: ignore[no-untyped-def]
    def wrapped(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
        p, _, _ = build(tmp)
        return p, args, kwargs

    return wrapped


def _missing(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
    return tmp / "nope.csv", [], {}


def _directory(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
    d = tmp / "logs.csv"
    d.mkdir()
    return d, [], {}


def _named_pipe(tmp: Path) -> tuple[Path, list[str], dict[str, Any]]:
    """A named pipe (FIFO) with no writer: opening it to read waits for one."""
    import os

    p = tmp / "pipe.csv"
    os.mkfifo(p)
    return p, [], {}


def _jsonl(rows: list[Any], name: str = "x.jsonl", tail: str = ""):  # type: ignore[no-untyped-def]
    return _text(name, "".join(json.dumps(r) + "\n" for r in rows) + tail)


GOOD_COUNTS = "model,problem_id,n,c\nm,a,10,2\nm,b,10,0\n"

CASES: dict[str, Case] = {
    "c_gt_n": (
        _text("c.csv", "problem_id,n,c\na,10,2\nb,5,7\n"),
        r"`c` must be <= n; row 2 \(problem 'b'\) has c=7 > n=5",
    ),
    "negative_count": (_text("c.csv", "problem_id,n,c\na,10,-1\n"), r"`c` must be >= 0; row 1"),
    "non_integer_count": (
        _text("c.csv", "problem_id,n,c\na,10.5,2\n"),
        r"must hold whole numbers; row 1 .* n=10.5",
    ),
    "n_zero": (_text("c.csv", "problem_id,n,c\na,0,0\n"), r"`n` must be >= 1"),
    # 1e23 used to wrap to int64's minimum and be reported as n=-9223372036854775808
    "n_too_large": (
        _text("c.csv", "problem_id,n,c\na,99999999999999999999999,1\n"),
        r"`n` is too large \(max 2\*\*53 - 1\); row 1 \(problem 'a'\) has n=99999999999999999999999",
    ),
    "nan_count": (_text("c.csv", "problem_id,n,c\na,10,\nb,10,3\n"), r"missing value \(NaN/empty\) in row 1"),
    "nan_correct": (
        _parquet(
            "SELECT 'p' AS problem_id, i AS attempt, CASE WHEN i = 2 THEN 'nan'::DOUBLE ELSE 1.0 END AS score FROM range(4) t(i)"
        ),
        r"correctness column 'score' has a missing value \(null/NaN\), e.g. row \{problem_id='p', attempt=2",
    ),
    "duplicate_attempt": (
        _jsonl([{"problem_id": "p", "attempt": a, "correct": True} for a in (0, 1, 1, 3)]),
        r"duplicate \(problem, attempt\) rows: problem 'p' attempt 1 appears 2 times",
    ),
    "duplicate_model_problem": (
        _text("c.csv", "model,problem_id,n,c\nm,a,10,2\nm,a,10,3\n"),
        r"duplicate \(model, problem\) rows: problem 'a' of model 'm' appears in rows 1 and 2",
    ),
    "missing_columns": (
        _jsonl([{"question": "q", "verdict": True}]),
        r"no problem-id column .* columns found: question, verdict",
    ),
    "misnamed_column": (
        _with(_text("c.csv", GOOD_COUNTS), ["--problem-col", "pid"], {"problem_col": "pid"}),
        r"no column 'pid' \(given as `(--problem-col|problem_col)`\); columns found: model, problem_id, n, c",
    ),
    "non_boolean_correct": (
        _jsonl([{"problem_id": "p", "correct": "yes"}, {"problem_id": "p", "correct": "maybe"}]),
        r"holds a value that is not boolean .* e.g. row \{problem_id='p', correct='maybe'\}",
    ),
    "score_without_threshold": (
        _jsonl([{"problem_id": "p", "score": 0.7}]),
        r"not boolean .*score=0.7.*--threshold",
    ),
    "empty_file": (_text("e.csv", ""), r"e.csv is empty \(0 bytes\)"),
    # blank lines only: "found no columns (is the file empty or not a table?)" (CSV, JSONL), "not JSON (first
    # character '')" (.json), "not valid JSON at line 1 (byte 0): input data is empty" (a .json forced to a harness)
    "blank_lines_only_jsonl": (_text("e.jsonl", "\n  \n"), r"e.jsonl is empty \(whitespace only, 4 bytes\)"),
    "blank_lines_only_json_forced": (_with(_text("e.json", " \n"), ["--format", "inspect"], {"format": "inspect"}),
                                     r"e.json is empty \(whitespace only, 2 bytes\)"),
    "header_only": (_text("h.csv", "problem_id,correct\n"), r"h.csv has no data rows"),
    "truncated_parquet": (
        _parquet(
            "SELECT i % 7 AS problem_id, i AS attempt, i % 3 = 0 AS correct FROM range(5000) t(i)", cut=True
        ),
        r"cannot read x.parquet as parquet: .*(magic|corrupt|end of file)",
    ),
    # the broken line by its own number (DuckDB 2.0.1 says "line 3" of this 2-line file, one past it) and text
    "broken_jsonl_last_line": (
        _jsonl([{"problem_id": "p", "correct": True}], tail='{"problem_id": "q", "corr'),
        r"cannot read x.jsonl as jsonl: line 2 is not valid JSON \(Unterminated string starting at\): the file "
        r"ends inside this line \(cut short while it was written\?\); remove it: '\{\"problem_id\": \"q\", \"corr'$",
    ),
    "broken_jsonl_middle_line": (
        _text("x.jsonl", '{"problem_id": "p", "correct": 1}\n{"problem_id": "p", "correct": tru}\n'
                         '{"problem_id": "q", "correct": 0}\n'),
        r"cannot read x.jsonl as jsonl: line 2 is not valid JSON \(Expecting value\): "
        r"'\{\"problem_id\": \"p\", \"correct\": tru\}'$",
    ),
    "truncated_csv_last_row": (
        _text("t.csv", "problem_id,n,c\na,10,2\nb,10"),
        r"t.csv: data row 2 \(line 3\) has 2 fields where the header has 3: the file is truncated or malformed",
    ),
    "ragged_tsv_row": (
        _text("t.tsv", "problem_id\tn\tc\na\t10\t2\nb\t10\t3\t9\nc\t10\t1\n"),
        r"t.tsv: data row 2 \(line 3\) has 4 fields where the header has 3",
    ),
    # a quote that opens a field and never closes (a stray quote; a file cut inside a quoted field): DuckDB's sniffer
    # found no dialect and read each line as one column, so the error was "no problem-id column (...); columns
    # found: model,problem_id,attempt,correct,answer", the header it had just named as one column
    "unterminated_quote_in_csv": (
        _text("q.csv", 'model,problem_id,attempt,correct,answer\nm,p1,0,1,"a,b"\nm,p1,1,0,"c,d"\nm,p2,0,1,x\n'
                       'm,p2,1,0,"y\nm,p3,0,1,z\nm,p3,1,1,w\n'),
        r"q.csv: data row 4 \(line 5\) has a field that opens a quote and does not close it \(unexpected end of "
        r"data\): the file is truncated or malformed$",
    ),
    "malformed_quoted_field_in_csv": (
        _text("q.csv", 'model,problem_id,attempt,correct,answer\nm,p1,0,1,"a"b\nm,p1,1,0,"c,d"\nm,p2,0,1,"x\n'),
        r"q.csv: data row 1 \(line 2\) has a malformed quoted field \(',' expected after '\"'\): the file is "
        r"truncated or malformed$",
    ),
    # a file that mixes CR LF and LF line endings (two files joined): DuckDB's sniffer gives up, and the error was
    # 'cannot read m.csv as csv: Error when sniffing file "/full/path/m.csv".'; also beyond the rows it sniffs
    "mixed_line_endings_in_csv": (
        _bytes("m.csv", b"model,problem_id,n,c\nalpha,q0,20,0\nalpha,q1,20,3\r\nalpha,q2,20,6\n"),
        r"m.csv: line 3 ends in CR LF where line 1 ends in LF: the file mixes line endings \(joined from several "
        r"files\?\); convert it to one \(e.g. dos2unix\)$",
    ),
    "mixed_line_endings_after_the_sniffed_rows": (
        _bytes("m.csv", ("problem_id,correct\n" + "".join(f"p{i % 7},{i % 2}\n" for i in range(5000))
                         + "p1,1\r\np2,0\n").encode()),
        r"m.csv: line 5002 ends in CR LF where line 1 ends in LF: the file mixes line endings",
    ),
    "corrupt_csv": (_text("g.csv", "\x00\x01\x02garbage\x00,\n\x07\x08"), r"g.csv"),
    "unknown_extension": (
        _text("data.xyz", "a b c\n1 2 3\n"),
        r"data.xyz: unknown format \(extension '.xyz'.*tried",
    ),
    "unknown_format_option": (
        _with(_text("c.csv", GOOD_COUNTS), ["--format", "excel"], {"format": "excel"}),
        r"unknown `(--format|format)` 'excel'",
    ),
    "missing_file": (_missing, r"no such file: '.*nope.csv'"),
    "directory": (_directory, r"is a directory, not a file"),
    # check_path opened a named pipe to see that it can be read: with no writer that waited for ever (and a pipe with
    # data, `curve /dev/stdin < x.csv`, read 'stdin is empty (0 bytes)', a pipe's size being 0)
    "named_pipe": (_named_pipe, r"pipe.csv is not a regular file \(a pipe, socket or device\); passcurve reads its "
                                r"input more than once: save the data to a file and give that$"),
    "string_in_n": (
        _text("c.csv", "problem_id,n,c\na,10,2\nb,ten,3\n"),
        r"column 'n' \(`n`\) must hold integers; row 2 \(problem 'b'\) has n='ten'",
    ),
    # a JSONL count column of mixed types (true beside numbers) used to read true as 1: c=true became c=1
    "boolean_in_json_count": (
        _jsonl([{"problem_id": "a", "n": 10, "c": True}, {"problem_id": "b", "n": 10, "c": 1}]),
        r"column 'c' \(`c`\) must hold integers; row 1 \(problem 'a'\) has c='true'",
    ),
    # a JSON column written by DuckDB keeps null as a JSON value (text 'null'): a missing count, not 'must hold integers'
    "json_null_in_mixed_count_parquet": (
        _parquet("SELECT p AS problem_id, 10 AS n, CAST(c AS JSON) AS c FROM (VALUES ('a', '1'), ('b', 'null'), "
                 "('d', '\"2\"')) t(p, c)"),
        r"column 'c' \(`c`\) has a missing value \(NaN/empty\) in row 2 \(problem 'b'\)",
    ),
    "json_null_correct_parquet": (
        _parquet("SELECT 'a' AS problem_id, CAST(v AS JSON) AS correct FROM (VALUES ('true'), ('null'), ('\"no\"')) t(v)"),
        r"correctness column 'correct' has a missing value \(null/NaN\), e.g. row \{problem_id='a', correct='null'\}",
    ),
    # pyarrow's Parquet statistics leave NaN out, and DuckDB folded isnan() to false from them: a NaN score was
    # above every threshold (counted correct) and a NaN problem id was the problem 'nan'
    "nan_score_arrow_parquet_threshold": (
        _with(_arrow_parquet({"problem_id": ["a"] * 4, "attempt": [0, 1, 2, 3], "score": [1.0, float("nan"), 0.0, 1.0]}),
              ["--threshold", "0.5"], {"threshold": 0.5}),
        r"correctness column 'score' has a missing value \(null/NaN\), e.g. row \{problem_id='a', attempt=1",
    ),
    "nan_problem_id_arrow_parquet": (
        _arrow_parquet({"problem_id": [1.0, 2.0, float("nan"), float("nan")], "correct": [True, False, True, True]}),
        r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id=nan",
    ),
    # a blank id is missing, as it is in a CSV (where it reads as NULL); in JSON it was a problem named ''
    # (a JSONL boolean correctness column is read as text, so the row quotes it as written: 'true')
    "blank_problem_id_jsonl": (
        _jsonl([{"problem_id": "a", "correct": True}, {"problem_id": "", "correct": True}]),
        r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id='', correct='true'\}",
    ),
    # any whitespace-only id is blank (Python's str.isspace()); DuckDB's trim() removes spaces only, so a tab or a
    # line break was a problem (or model) of that name
    "tab_problem_id_jsonl": (
        _jsonl([{"problem_id": "a", "correct": True}, {"problem_id": "\t", "correct": True}]),
        r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id='\\t', correct='true'\}",
    ),
    "line_break_model_id_counts_jsonl": (
        _jsonl([{"model": "m", "problem_id": "a", "n": 4, "c": 1}, {"model": "\r\n", "problem_id": "a", "n": 4, "c": 2}]),
        r"model column 'model' is empty in row 2",
    ),
    # CSV files joined with their headers: the repeated header row was a correct sample of the problem 'problem_id'
    "repeated_header_row": (
        _text("j.csv", "problem_id,attempt,correct\na,0,1\na,1,0\nproblem_id,attempt,correct\nb,0,0\n"),
        r"j.csv: a data row repeats the header \(files joined with their headers\?\), e.g. row "
        r"\{problem_id='problem_id', attempt='attempt', correct='correct'\}",
    ),
    # the same in a counts file said "column 'n' (`n`) must hold integers; row 2 (problem 'problem_id') has n='n'"
    "repeated_header_row_in_counts": (
        _text("j.csv", "model,problem_id,n,c\nm,a,10,2\nmodel,problem_id,n,c\nm,b,10,3\n"),
        r"j.csv: data row 2 repeats the header \(files joined with their headers\?\): problem 'problem_id', n='n'; "
        r"remove the repeated header lines$",
    ),
    # a damaged member of a .eval zip raised zipfile.BadZipFile (a traceback) when extracted
    "eval_zip_bad_crc": (_eval_bad_crc, r"cannot read log.eval as inspect .eval \(zip\): Bad CRC-32 for file 'summaries.json'"),
    # attempt ids 1 and "1" in one JSONL column were compared as JSON values ('1' vs '"1"'): two samples, no error
    "mixed_type_duplicate_attempt": (
        _jsonl([{"problem_id": "a", "attempt": 0, "correct": True}, {"problem_id": "a", "attempt": 1, "correct": False},
                {"problem_id": "a", "attempt": "1", "correct": True}]),
        r"duplicate \(problem, attempt\) rows: problem 'a' attempt 1 appears 2 times",
    ),
    "null_problem": (
        _jsonl([{"problem_id": None, "correct": True}, {"problem_id": "a", "correct": False}]),
        r"problem-id column 'problem_id' has a missing value",
    ),
    # Twentieth session (audit of accepted-but-misread input). DuckDB's TRY_CAST(... AS DOUBLE) reads digit
    # grouping ('1_0' -> 10, '1_000' -> 1000) and its CSV sniffer types a column of '0x10' as BIGINT 16: counts that
    # are no decimal number were read as numbers. Text counts must now be spelled as data._columns.NUMBER.
    "underscore_count_csv": (
        _text("c.csv", "problem_id,n,c\na,1_0,3\nb,20,4\n"),
        r"column 'n' \(`n`\) must hold integers; row 1 \(problem 'a'\) has n='1_0'",
    ),
    "hex_count_csv": (
        _text("c.csv", "problem_id,n,c\na,0x10,1\nb,0x20,2\n"),
        r"column 'n' \(`n`\) must hold integers; row 1 \(problem 'a'\) has n='0x10'",
    ),
    "underscore_count_parquet_string": (
        _arrow_parquet({"problem_id": ["a", "b"], "n": ["20", "20"], "c": ["1_0", "4"]}),
        r"column 'c' \(`c`\) must hold integers; row 1 \(problem 'a'\) has c='1_0'",
    ),
    # 2**53 + 1 has no float64 and was read as 2**53 (the check was n > 2**53, after the rounding)
    "n_two_to_53_plus_1_jsonl": (
        _jsonl([{"problem_id": "a", "n": 2**53 + 1, "c": 1}]),
        r"`n` is too large \(max 2\*\*53 - 1\); row 1 \(problem 'a'\) has n=9007199254740993",
    ),
    "n_two_to_53_plus_1_parquet": (
        _arrow_parquet({"problem_id": ["a"], "n": [2**53 + 1], "c": [1]}),
        r"`n` is too large \(max 2\*\*53 - 1\); row 1 \(problem 'a'\) has n=9007199254740993",
    ),
    # a fraction below float64's resolution rounded to a whole DOUBLE: 10.0000000000000001 was n = 10
    "fraction_below_float_resolution": (
        _text("c.csv", "problem_id,n,c\na,10.0000000000000001,1\n"),
        r"column 'n' \(`n`\) must hold whole numbers; row 1 \(problem 'a'\) has n=10.0000000000000001",
    ),
    # a text score '1_0' with a threshold was 10 (correct); the lazy-frame path already refused it
    "underscore_score_with_threshold": (
        _with(_jsonl([{"problem_id": "a", "score": "1_0"}, {"problem_id": "a", "score": 0.2}]),
              ["--threshold", "0.5"], {"threshold": 0.5}),
        r"holds a value that is not boolean \(expected true/false, 0/1, or a number\), e.g. row "
        r"\{problem_id='a', score='\"1_0\"'\}",
    ),
    # a header that repeats a column name: DuckDB renames the second 'n' to 'n_1' and the alias took the first,
    # n = 10 rather than 20, without a word
    "repeated_count_column_csv": (
        _text("c.csv", "problem_id,n,c,n\na,10,1,20\n"),
        r"c.csv: the column name 'n' appears 2 times \(read as 'n', 'n_1'\), so which one holds the sample counts "
        r"\(`n`\) is ambiguous; rename or drop the others",
    ),
    "repeated_correct_column_parquet": (
        _dup_parquet(["problem_id", "correct", "correct"], [["a", "a"], [True, True], [False, False]]),
        r"x.parquet: the column name 'correct' appears 2 times \(read as 'correct', 'correct_1'\), so which one "
        r"holds the correctness is ambiguous",
    ),
    # ids that differ only in edge whitespace or Unicode normalisation were two problems (or models), splitting one
    # problem's samples: 'a' and 'a ' gave n = 2 and n = 1 for what was n = 3
    "problem_id_with_a_trailing_space": (
        _text("s.csv", "problem_id,correct\na,1\na,0\na ,1\n"),
        r"s.csv: problem-id column 'problem_id' writes one id two ways, 'a' and 'a ' \(they differ only in spaces "
        r"at the ends or in Unicode normalisation\), which would split it into two problems",
    ),
    "problem_id_nfc_and_nfd": (
        _jsonl([{"problem_id": "caf\u00e9", "correct": True}, {"problem_id": "cafe\u0301", "correct": False}]),
        r"writes one id two ways, 'cafe\\u0301' and 'caf\\xe9'",
    ),
    "model_name_with_a_tab_counts": (
        _text("c.csv", "model,problem_id,n,c\nm,a,10,2\nm\t,b,10,3\n"),
        r"c.csv: model column 'model' writes one name two ways, 'm' and 'm\\t'",
    ),
    # DuckDB's CSV and JSON readers type a column from its first rows (20,480 in a CSV) and then convert every later
    # value to that type, rounding: a '0.4' after 30,000 rows of 0/1 was 0 (a wrong sample), a 0.7 was 1 (correct
    # under a threshold of 0.8), and a count '10.5' after 30,000 whole ones was n = 11
    "late_fraction_in_a_0_1_column_csv": (
        _text("s.csv", "problem_id,correct\n" + "".join(f"p{i % 7},{i % 2}\n" for i in range(30000)) + "q,0.4\n"),
        r"s.csv: correctness column 'correct' holds a value that is not boolean \(expected true/false, 0/1\), e.g. "
        r"row \{problem_id='q', correct='0.4'\}",
    ),
    "late_fraction_in_a_0_1_column_jsonl": (
        _jsonl([{"problem_id": f"p{i % 7}", "correct": i % 2} for i in range(30000)]
               + [{"problem_id": "q", "correct": 0.4}]),
        r"x.jsonl: correctness column 'correct' holds a value that is not boolean .* e.g. row "
        r"\{problem_id='q', correct='0.4'\}",
    ),
    "late_fractional_count_csv": (
        _text("c.csv", "problem_id,n,c\n" + "".join(f"p{i},10,1\n" for i in range(30000)) + "q,10.5,1\n"),
        r"c.csv: column 'n' \(`n`\) must hold whole numbers; row 30001 \(problem 'q'\) has n=10.5",
    ),
    # a JSONL line that is an array or a number turned the whole file into one column 'json': "found no columns
    # (is the file empty or not a table?)", naming no line
    "array_line_in_jsonl": (
        _text("x.jsonl", '{"problem_id": "a", "correct": true}\n[1, 2]\n{"problem_id": "b", "correct": false}\n'),
        r"x.jsonl: line 2 is an array \(\[1, ?2\]\), not a record; each line must be one JSON object",
    ),
    # every line an array (rows written without their keys): DuckDB reads one column 'json' typed JSON[], and the
    # error was "found no columns (is the file empty or not a table?)"
    "every_line_an_array_jsonl": (
        _text("x.jsonl", '["a", 0, true]\n["a", 1, false]\n'),
        r"x.jsonl: line 1 is an array \(\[\"a\", 0, true\]\), not a record; each line must be one JSON object$",
    ),
    # it said "row 3", its number among the rows DuckDB reads: here line 4, after a blank line (hand count)
    "number_line_in_jsonl": (
        _text("x.jsonl", '{"problem_id": "a", "correct": true}\n\n{"problem_id": "b", "correct": false}\n7\n'),
        r"x.jsonl: line 4 is a number \(7\), not a record; each line must be one JSON object",
    ),
    # in a JSON array: "row 3 is a string ("x"), not a record; each row (line) must be one JSON object"
    "string_record_in_json_array": (
        _text("x.json", '[{"problem_id": "a", "correct": true}, {"problem_id": "b", "correct": false}, "x"]'),
        r"x.json: element 3 of the array is a string \(\"x\"\), not a record; each element must be one JSON object",
    ),
    # a ragged row among the rows DuckDB's sniffer reads gave 'Error when sniffing file "...".', one after them
    # 'CSV Error on Line: 30002': neither said what was wrong with the row
    "ragged_row_inside_the_sniffed_rows": (
        _text("r.csv", "problem_id,correct\n" + "".join(f"p{i % 7},{i % 2}\n" for i in range(5000)) + "p1,1,9\n"),
        r"r.csv: data row 5001 \(line 5002\) has 3 fields where the header has 2: the file is truncated or malformed",
    ),
    # a JSON harness log cut short (a run killed while writing it): "is not a tau_bench log" (the format forced), or
    # "cannot read t.json as jsonl: Malformed JSON in file "/full/path/t.json", at byte 78 in line 2" (detected);
    # a .eval zip cut short: "is not an inspect_ai log (expected a .eval zip, ...)"
    "tau2_document_cut_short": (
        _text("t.json", "\n".join(_TAU2.splitlines()[:3])),
        r"cannot read t.json as json: not valid JSON at line 3 \(byte \d+\): unexpected end of data: the file ends "
        r"there \(cut short while it was written\?\)$",
    ),
    "tau2_document_cut_short_forced": (
        _with(_text("t.json", _TAU2[: len(_TAU2) // 2]), ["--format", "tau_bench"], {"format": "tau_bench"}),
        r"cannot read t.json as tau_bench: not valid JSON at line \d+ \(byte \d+\): unexpected end of data: ",
    ),
    "json_array_cut_short": (
        _text("a.json", '[{"problem_id": "a", "correct": true},\n {"problem_id": "b", "corr'),
        r"cannot read a.json as json: not valid JSON at line 2 \(byte \d+\): unexpected end of data: the file ends",
    ),
    "eval_zip_cut_short": (
        _cut_eval,
        r"cannot read log.eval as inspect .eval \(zip\): it begins as a zip but has no zip directory at its end \(cut "
        r"short while it was written\?\)$",
    ),
    # Thirty-first session (fuzzing the CLI). A CSV in Latin-1 (or UTF-16) said only "CSV Error on Line: 2", DuckDB's
    # "Invalid unicode ... not utf-8 encoded" left out
    "latin1_csv": (
        _bytes("l.csv", "problem_id,n,c\ncaf\u00e9,10,2\n".encode("latin-1")),
        r"cannot read l.csv as csv: CSV Error on Line: 2: the file is not UTF-8 text \(invalid byte sequence\); "
        r"save it as UTF-8$",
    ),
    # and a JSONL file: 'cannot read l.jsonl as json: read_text: could not read content of file '/full/path/l.jsonl'
    # as valid UTF-8 encoded text. You may want to use read_blob instead.' (its jsonl error dropped for the json one)
    "latin1_jsonl": (
        _bytes("l.jsonl", '{"problem_id": "a", "correct": true}\n{"problem_id": "caf\u00e9", "correct": true}\n'
               .encode("latin-1")),
        r"cannot read l.jsonl as jsonl: the file is not UTF-8 text \(invalid byte sequence\); save it as UTF-8$",
    ),
    # DuckDB tells compression by the name alone: gzip bytes named x.csv read as "CSV Error on Line: 3", and named
    # x.jsonl as "line 1 is not valid JSON (UnicodeDecodeError): the file ends inside this line (cut short ...)"
    "gzip_bytes_named_csv": (
        _bytes("g.csv", gzip.compress(GOOD_COUNTS.encode())),
        r"g.csv is compressed with gzip, but its name does not end in .gz: rename it g.csv.gz",
    ),
    "gzip_bytes_named_jsonl": (
        _bytes("g.jsonl", gzip.compress(b'{"problem_id": "a", "correct": true}\n')),
        r"g.jsonl is compressed with gzip, but its name does not end in .gz: rename it g.jsonl.gz",
    ),
    "ragged_row_after_the_sniffed_rows": (
        _text("r.csv", "problem_id,correct\n" + "".join(f"p{i % 7},{i % 2}\n" for i in range(30000)) + "p1,1,9\n"),
        r"cannot read r.csv as csv: CSV Error on Line: 30002: Expected Number of Columns: 2 Found: 3$",
    ),
}
