"""Open an input (file or in-memory frame) as a DuckDB relation: the first step of every reader.

A :class:`Source` is a lazy DuckDB relation over the raw rows plus what the reader knows
about it (format, default model name, column hints from a harness adapter). Nothing is
materialised here: DuckDB scans the file when the aggregation query runs.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from .._errors import InputFormatError, PasscurveError
from ._columns import json_nan, quote

__all__ = ["Source", "open_file", "open_frame", "duck_error", "FORMATS"]

# generic formats and the harness formats of passcurve.data._harness
GENERIC = ("csv", "jsonl", "json", "parquet")
FORMATS = GENERIC + ("humaneval", "evalplus", "lm_eval", "lighteval", "inspect", "tau_bench")
FORMAT_ALIASES = {
    "ndjson": "jsonl",
    "tsv": "csv",
    "pq": "parquet",
    "human_eval": "humaneval",
    "human-eval": "humaneval",
    "lm-eval": "lm_eval",
    "lm_eval_harness": "lm_eval",
    "lm-evaluation-harness": "lm_eval",
    "inspect_ai": "inspect",
    "eval": "inspect",
    "tau-bench": "tau_bench",
    "taubench": "tau_bench",
    "tau2": "tau_bench",
}
EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".eval": "inspect",
}
COMPRESSION = {".gz", ".zst"}
# the name lm-evaluation-harness gives a samples log: samples_<task>_<date>.jsonl (its doc_ids number that task's
# documents, so pooled runs must be of one task: data/_several.py)
LM_EVAL_NAME = re.compile(r"samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}(?:T[\d.\-]+)?)\.jsonl(?:\.gz|\.zst)?")
# compressions DuckDB cannot open: the name of each, and the command that decompresses it keeping the file
OTHER_COMPRESSION = {".bz2": ("bzip2", "bunzip2 -k"), ".xz": ("xz", "unxz -k"), ".lz4": ("lz4", "unlz4"),
                     ".lzma": ("lzma", "unlzma -k"), ".7z": ("7-Zip", "7z x")}


@dataclass
class Source:
    """A lazy relation over raw input rows, with reader provenance."""

    relation: duckdb.DuckDBPyRelation
    con: duckdb.DuckDBPyConnection | None
    name: str
    default_model: str
    reader: str
    hints: dict[str, str] = field(default_factory=dict)
    threshold: float | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    keepalive: list[Any] = field(default_factory=list)  # temp dirs, frames: live as long as the source
    text_path: Path | None = None  # a generic CSV's or JSONL's file, to re-read columns as text (:func:`as_text`)
    # the format text_path was read in ("csv" or "jsonl"), kept when a harness adapter (lm_eval, humaneval, tau_bench)
    # reads the rows as its own: :func:`bare_nan` reads a JSONL file's ids again; "json_array" (no text_path) for a JSON
    # array of records, whose rows are its records (:func:`located`)
    text_format: str | None = None
    # columns whose name the file's header repeats (DuckDB renames the second 'n' to 'n_1'): DuckDB name -> the name
    # as written (:func:`repeated_names`)
    repeated: dict[str, str] = field(default_factory=dict)
    # an adapter whose rows are the elements of a JSON document (evalplus's samples, tau2's simulations, an inspect
    # log's samples): the JSON path of each raw row, from their 1-based numbers (:func:`numbered`), for a message
    # (:func:`located`: " at simulations[2]"); None where a row has no element to name
    element_paths: Callable[[list[int]], list[str | None]] | None = None

    @property
    def columns(self) -> list[str]:
        return list(self.relation.columns)

    @property
    def types(self) -> dict[str, str]:
        return {c: str(t) for c, t in zip(self.relation.columns, self.relation.types, strict=True)}

    def verdict_column(self, correct_col: str | None) -> str | None:
        """The column that holds the verdict ``correct_col`` names: the one a harness adapter made when it read
        ``correct_col`` as the log's metric or score (an inspect scorer's key ``correct`` is the column
        ``answer_quality/correct``), else ``correct_col`` itself."""
        if correct_col is not None and self.notes.get("metric") is not None:
            return self.hints["correct"]
        return correct_col

    def query(self, sql: str) -> duckdb.DuckDBPyRelation:
        """Run ``sql`` in which the raw rows are the table ``src``."""
        rel = self.relation.query("src", sql)
        assert rel is not None  # a SELECT always yields a relation
        return rel


NOT_UTF8 = "the file is not UTF-8 text (invalid byte sequence); save it as UTF-8"


def duck_error(exc: BaseException, name: str, reader: str) -> PasscurveError:
    """A DuckDB exception as a one-line PasscurveError naming the file and reader."""
    lines = str(exc).strip().splitlines()
    msg = lines[0] if lines else type(exc).__name__
    # a CSV conversion error's first line only says where; the line that says what failed comes later
    # (and a row with too many or too few fields: 'Expected Number of Columns: 2 Found: 3')
    what = next((ln.strip() for ln in lines[1:]
                 if ln.startswith(("Error when converting column", "Expected Number of Columns"))), None)
    # a file that is not UTF-8 (Latin-1, UTF-16, compressed bytes): the first line only said "CSV Error on Line: 2";
    # JSON readers said "Malformed JSON in file ..., at byte 33 in line 42: invalid UTF-8 encoding in string" and
    # "read_text: could not read content of file '/full/path' as valid UTF-8 encoded text. You may want to use
    # read_blob instead."
    if what is None and any(ln.startswith("Invalid unicode") for ln in lines[1:]):
        what = NOT_UTF8
    elif "invalid UTF-8 encoding" in msg or "as valid UTF-8 encoded text" in msg:
        return InputFormatError(f"cannot read {name} as {reader}: {NOT_UTF8}")
    if what:
        msg = f"{msg}: {what}"
    for prefix in (
        "Invalid Input Error: ",
        "IO Error: ",
        "Conversion Error: ",
        "Binder Error: ",
        "Parser Error: ",
    ):
        msg = msg.replace(prefix, "")
    if reader in _LINE_READERS and (bad := _MALFORMED_JSON.search(msg)):
        msg = _malformed_line(Path(bad["file"]), int(bad["line"])) or msg
    return InputFormatError(f"cannot read {name} as {reader}: {msg}")


# readers of newline-delimited JSON, where a line is a record (not the .json readers: a JSON document's lines are not)
_LINE_READERS = ("jsonl", "lm_eval", "humaneval")
_MALFORMED_JSON = re.compile(r'Malformed JSON in file "(?P<file>.+)", at byte \d+ in line (?P<line>\d+)')


def _malformed_line(p: Path, line: int) -> str | None:
    """The line of the JSONL file ``p`` that is not valid JSON, near DuckDB's ``line``, said with its text.

    DuckDB's line number is one past the broken line (DuckDB 2.0.1: a bad line 51 is "line 52", a file cut short
    inside its last line, 101, is "line 102" of a 101-line file), so the lines just before it are parsed again
    here (on the error path only; the lines before them are only counted). None when no line there fails to
    parse (the message then stays DuckDB's), or when the file cannot be opened here (zstd)."""
    import gzip
    import json

    ext, suffix = _suffix(p)
    if suffix not in ("", ".gz") or ext == ".json":  # a .json document is read as JSONL last: its lines are no records
        return None
    first = max(1, line - 2)
    try:
        with (gzip.open(p, "rb") if suffix == ".gz" else open(p, "rb")) as fh:
            for i, raw in enumerate(fh, start=1):
                if i > line:
                    break
                if i < first or not raw.strip():
                    continue
                try:
                    json.loads(raw)
                except ValueError as exc:
                    why = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
                    cut = "" if raw.endswith(b"\n") or fh.read(1) else (
                        ": the file ends inside this line (cut short while it was written?); remove it")
                    text = raw.decode("utf-8", "replace").rstrip("\r\n")
                    shown = text if len(text) <= 80 else text[:77] + "..."
                    return f"line {i} is not valid JSON ({why}){cut}: {shown!r}"
    except (OSError, EOFError, gzip.BadGzipFile):
        return None
    return None


# the row number the error-path queries give each raw row (``row_number() OVER ()`` over the scan, in file order)
ROW = "__pc_row"


def numbered(src: Source) -> str:
    """SQL: the raw rows of ``src`` with their 1-based number in the input, the column :data:`ROW` (on the error
    path only: a streaming window over the scan, in input order, so a query's ``LIMIT 1`` stops at the first row
    it wants; an ``ORDER BY`` of the number took 4.9 s against 0.45 s for a row near the start of 10^7)."""
    return f'SELECT *, row_number() OVER () AS "{ROW}" FROM src'


def first_row(src: Source, where: str) -> tuple[dict[str, Any], str]:
    """The first raw row of ``src`` where the SQL condition ``where`` holds ({} if none; :data:`ROW` is its number)
    and where it is in the input (:func:`located`): the row an error about one sample quotes. On the error path
    only; a DuckDB error is the caller's to say."""
    rel = src.query(f"SELECT * FROM ({numbered(src)}) WHERE {where} LIMIT 1")
    rows = rel.fetchall()
    if not rows:
        return {}, ""
    row = dict(zip(rel.columns, rows[0], strict=True))
    return row, located(src, [int(row.pop(ROW))])


def first_two_located(src: Source, run: Callable[[str], Any], table: str, equal: Sequence[tuple[str, Any]]) -> str:
    """Where the first two rows of ``table`` (``src``'s rows in input order, each once, as ``run`` queries them) whose
    SQL expressions equal the values given (compared as text) are in the input (:func:`located`): the two rows of a
    duplicate attempt. "" for an input without lines or rows to name; on the error path only."""
    if _line_format(src) is None:
        return ""
    pick = " AND ".join(f"{e} = {_sql_str(str(v))}" for e, v in equal)
    hit = run(f"SELECT i FROM (SELECT *, row_number() OVER () AS i FROM {table}) WHERE {pick} LIMIT 2")
    return located(src, sorted(int(i) for i in hit["i"]))


_LOCATABLE = ("csv", "jsonl", "parquet")  # the inputs whose rows are the file's (lines, or a Parquet file's rows)


def _line_format(src: Source) -> str | None:
    """The format in which ``src``'s raw rows are the file's lines or rows ("csv", "jsonl", "parquet"), else None.

    A harness log read from JSONL (lm_eval's samples_*.jsonl, human-eval's *_results.jsonl, tau-bench's rows) keeps
    its file in ``text_path`` (:func:`bare_nan`), and its adapter projects each line to one row, in file order: its
    rows are the lines as a generic JSONL file's are. A JSON array of records (``text_format`` "json_array": a
    generic one, tau-bench's results, human-eval's records) is read one row per record, in order: "json_array", its
    rows the records. An adapter whose rows are the elements of a JSON document (evalplus's per-task lists, tau2's
    simulations, an inspect log's samples) names each by its JSON path (``element_paths``): "element"."""
    if src.reader in _LOCATABLE:
        return src.reader
    if src.text_format == "jsonl" and src.text_path is not None:
        return "jsonl"
    if src.text_format == "json_array":
        return "json_array"
    if src.element_paths is not None:
        return "element"
    return None


def located(src: Source, rows: list[int]) -> str:
    """Where the raw rows ``rows`` (1-based numbers of :func:`numbered`) are in the input, for a message: " at line
    5" in a CSV or JSONL file (its header line and the blank lines DuckDB skips counted, a quoted field over several
    lines taken at its first line; a harness log read from JSONL too: :func:`_line_format`), " at row 4" in a Parquet
    file, " at record 3" in a JSON array of records (counted from 1), " at simulations[2]" in a harness log whose
    rows are a JSON document's elements (their JSON path, indexes from 0: ``Source.element_paths``; in an inspect
    .eval log the zip's member, " at samples/2_epoch_1.json"), nothing for other inputs (a frame's positions are not
    its index). On the error path only: the file is read again in Python up to the last of the rows."""
    fmt = _line_format(src)
    if not rows or fmt is None:
        return ""
    if fmt == "element":
        assert src.element_paths is not None
        try:
            paths = src.element_paths(list(rows))
        except duckdb.Error:  # the message quotes the row, which says enough without this
            return ""
        named = [p for p in paths if p is not None]
        return f" at {' and '.join(named)}" if named and len(named) == len(paths) else ""
    kind = {"parquet": "row", "json_array": "record"}.get(fmt, "line")
    where = _file_lines(src, rows, fmt) if kind == "line" else list(rows)
    if where is None:  # a .zst file, or a CSV whose records Python's csv module counts otherwise: its data row
        kind, where = "data row", list(rows)
    return f" at {kind}{'s' if len(where) > 1 else ''} {' and '.join(map(str, where))}"


def _jsonl_row(src: Source, col: str, where: str) -> tuple[int, str] | None:
    """The number (as :func:`numbered` gives it) of the first row of ``src``'s JSONL file whose field ``col``, read
    again as JSON (the value ``v``), meets the SQL condition ``where``, and that value's JSON type, else None: a generic JSONL file, or one a
    harness adapter reads (lm_eval's doc_id, human-eval's and tau-bench's task_id are its lines' fields). An
    identifier column is read as text (:func:`_generic`), where a value's JSON type is gone. A column the file does
    not have (an adapter's model, from the file's name) is NULL there."""
    if src.text_format != "jsonl" or src.text_path is None or src.con is None:
        return None
    try:
        hit = src.con.sql(
            f"SELECT i, json_type(v) FROM (SELECT row_number() OVER () AS i, {quote(col)} AS v FROM read_json("
            f"{_sql_str(str(src.text_path))}, format = 'newline_delimited', columns = {{{_sql_str(col)}: 'JSON'}})) "
            f"WHERE {where} LIMIT 1"
        ).fetchall()
    except duckdb.Error:
        return None
    return (int(hit[0][0]), str(hit[0][1])) if hit else None


def bare_nan(src: Source, col: str) -> int | None:
    """The number (as :func:`numbered` gives it) of the first row of a JSONL file whose ``col`` is a bare ``NaN`` (a
    float, not the string "NaN"), else None (:func:`_jsonl_row`): read as text, the two are one 'NaN'; on the path
    where some id is 'NaN' only."""
    hit = _jsonl_row(src, col, json_nan("v"))
    return None if hit is None else hit[0]


_NESTED = {"ARRAY": "a list", "OBJECT": "an object"}
"""A JSON value that is no id, by its ``json_type``, as a message says it."""


def nested_value(src: Source, col: str) -> tuple[int, str] | None:
    """The first raw row of ``src`` (its number as :func:`numbered` gives it) whose identifier column ``col`` holds
    a list or an object rather than one value, with what it holds ("a list", "an object"), else None. Such a value
    became its JSON text ('[1, 2]', '{"x":1}') and counted as one more problem or model, where the Python API
    refuses an id that is a sequence (:func:`passcurve._validation.as_id_array`). Every reader's column is one of:

    - a nested column (a Parquet or frame LIST, ARRAY, STRUCT or MAP): its first value;
    - a JSON column (mixed JSON types: a JSON array of records, tau-bench's results and tau2's simulations): the
      first value of JSON type ARRAY or OBJECT;
    - a JSONL file's field read as text (a generic file's ids, lm_eval's doc_id, human-eval's task_id): the field
      read again as JSON (:func:`_jsonl_row`), where the string "[1, 2]" stays an id;
    - a pandas object column that mixes ids with lists, tuples, dicts, sets or arrays, which DuckDB reads as the
      text of each ("['b']"): the frame's column looked at in Python (:func:`_pandas_nested`).

    On the error path only (some id's text begins with '[' or '{': :func:`passcurve.data._samples.check_ids`)."""
    kind = src.types.get(col, "").upper()
    try:
        if kind.endswith("]") or kind.startswith(("STRUCT", "MAP")):
            hit = src.query(f'SELECT "{ROW}" FROM ({numbered(src)}) WHERE {quote(col)} IS NOT NULL LIMIT 1').fetchall()
            return (int(hit[0][0]), "a struct" if kind.startswith("STRUCT") else "a map" if kind.startswith("MAP")
                    else "a list") if hit else None
        if kind == "JSON":
            hit = src.query(f'SELECT "{ROW}", json_type({quote(col)}) FROM ({numbered(src)}) '
                            f"WHERE json_type({quote(col)}) IN ('ARRAY', 'OBJECT') LIMIT 1").fetchall()
            return (int(hit[0][0]), _NESTED[str(hit[0][1])]) if hit else None
    except duckdb.Error:
        return None
    if src.reader == "pandas":
        return _pandas_nested(src, col)
    found = _jsonl_row(src, col, "json_type(v) IN ('ARRAY', 'OBJECT')")
    return None if found is None else (found[0], _NESTED[found[1]])


# a Python value that is no id, by its type, as a message says it (checked in this order: a bool is no sequence)
_PY_NESTED = ((list, "a list"), (tuple, "a tuple"), (dict, "a dict"), (set | frozenset, "a set"))


def _pandas_nested(src: Source, col: str) -> tuple[int, str] | None:
    """The first row (1-based, as :func:`numbered` numbers a frame's rows: its order) of the pandas frame ``src`` was
    opened from whose column ``col`` holds a list, a tuple, a dict, a set or a numpy array, with what it holds, else
    None. DuckDB reads an object column that mixes such values with ids as text, each value's ``str()`` ("['b']",
    "('x',)"); polars and pyarrow columns cannot mix them (a list column is :func:`nested_value`'s first case)."""
    import numpy as np

    frame = src.keepalive[0] if src.keepalive else None
    if frame is None or col not in src.columns or frame.shape[1] != len(src.columns):
        return None
    series = frame.iloc[:, src.columns.index(col)]  # DuckDB's columns are the frame's, in order (renamed if repeated)
    if series.dtype != object:
        return None
    for i, v in enumerate(series.array):
        if isinstance(v, np.ndarray):
            return i + 1, "an array"
        for kind, what in _PY_NESTED:
            if isinstance(v, kind):
                return i + 1, what
    return None


def _file_lines(src: Source, rows: list[int], fmt: str) -> list[int] | None:
    """The line of each data row ``rows`` of ``src``'s CSV or JSONL file (``fmt``), or None when it cannot be
    told."""
    import csv
    import gzip
    import io

    p = src.text_path
    if p is None:
        return None
    _ext, comp = _suffix(p)
    if comp not in ("", ".gz"):
        return None
    wanted = set(rows)
    found: dict[int, int] = {}
    try:
        with (gzip.open(p, "rb") if comp == ".gz" else open(p, "rb")) as raw:
            fh = io.TextIOWrapper(raw, encoding="utf-8", errors="replace", newline="")
            if fmt == "jsonl":  # DuckDB skips blank lines
                row = 0
                for line_no, line in enumerate(fh, start=1):
                    if line.strip():
                        row += 1
                        if row in wanted:
                            found[row] = line_no
                            if len(found) == len(wanted):
                                break
            else:
                assert src.con is not None
                dialect = src.con.sql(f"SELECT Delimiter, Quote FROM sniff_csv({_sql_str(str(p))})").fetchall()[0]
                delim, quote = str(dialect[0]), str(dialect[1])
                reader = csv.reader(fh, delimiter=delim, quotechar=quote if len(quote) == 1 else '"')
                row, end, header = 0, 0, False
                for record in reader:
                    start, end = end + 1, reader.line_num
                    if not record:  # a blank line
                        continue
                    if not header:
                        header = True
                        continue
                    row += 1
                    if row in wanted:
                        found[row] = start
                        if len(found) == len(wanted):
                            break
    except (OSError, EOFError, ValueError, csv.Error, duckdb.Error, gzip.BadGzipFile):
        return None
    return [found[r] for r in rows] if len(found) == len(wanted) else None


def no_rows_error(name: str) -> PasscurveError:
    """The one error for an input that yields no data rows."""
    return PasscurveError(f"{name} has no data rows (header only or empty)")


def _sql_str(s: str) -> str:
    return "'" + str(s).replace("'", "''") + "'"


def normalize_format(fmt: str | None) -> str | None:
    if fmt is None:
        return None
    f = str(fmt).strip().lower().lstrip(".")
    f = FORMAT_ALIASES.get(f, f)
    if f not in FORMATS:
        raise PasscurveError(f"unknown `format` {fmt!r}; known formats: {', '.join(FORMATS)}")
    return f


def _suffix(path: Path) -> tuple[str, str]:
    """(format-bearing suffix, compression suffix) of a file name."""
    suffixes = [s.lower() for s in path.suffixes]
    comp = ""
    if suffixes and suffixes[-1] in COMPRESSION:
        comp = suffixes.pop()
    return (suffixes[-1] if suffixes else ""), comp


def _stem(path: Path) -> str:
    name = path.name
    for _ in range(2):
        s = Path(name).suffix
        if s.lower() in EXTENSIONS or s.lower() in COMPRESSION:
            name = name[: -len(s)]
    return name or path.name


# a UTF-8 byte order mark (Windows tools write one before JSON); DuckDB's JSON reader skips it
UTF8_BOM = b"\xef\xbb\xbf"


def _sniff(path: Path) -> str | None:
    """Guess a format from the first bytes (for unknown extensions). A JSON array or JSON lines after a UTF-8 byte
    order mark are JSON too: "unknown format (extension '.txt'; ...)" was said of them."""
    with open(path, "rb") as fh:
        head = fh.read(4096)
    if head.startswith(b"PAR1"):
        return "parquet"
    if head.startswith(b"PK\x03\x04"):
        return "inspect"
    text = head.removeprefix(UTF8_BOM).lstrip()
    if text.startswith((b"{", b"[")):
        return "json"
    return None


# the first bytes of the compressions DuckDB reads (by the file's extension): (name, extension)
_MAGIC = {b"\x1f\x8b": ("gzip", ".gz"), b"\x28\xb5\x2f\xfd": ("zstd", ".zst")}


def _compressed_content(path: Path) -> tuple[str, str] | None:
    """(compression, its extension) when the file's bytes are gzip or zstd, else None."""
    with open(path, "rb") as fh:
        head = fh.read(4)
    return next((kind for magic, kind in _MAGIC.items() if head.startswith(magic)), None)


_GLOB = re.compile(r"[*?]|\[.*\]")  # a shell or glob pattern's wildcards


def check_path(path: str | Path) -> Path:
    try:
        p = Path(path)
    except TypeError:
        raise PasscurveError(f"`path` must be a file path (got {type(path).__name__})") from None
    if not p.exists():
        pattern = " (a file pattern that matched no file, passed on as written?)" if _GLOB.search(str(p)) else ""
        raise PasscurveError(f"no such file: {str(p)!r}{pattern}")
    if p.is_dir():
        raise PasscurveError(
            f"{str(p)!r} is a directory, not a file; give a CSV, JSONL, Parquet or harness log file"
        )
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):
            # a pipe's size is 0: `passcurve curve /dev/stdin < x.csv` said "stdin is empty (0 bytes)", and a named pipe
            # with no writer yet blocked the open below for ever; the readers read a file more than once
            raise PasscurveError(f"{p.name} is not a regular file (a pipe, socket or device); passcurve reads its input "
                                 "more than once: save the data to a file and give that")
        size = st.st_size
        with open(p, "rb"):
            pass
    except OSError as exc:
        raise PasscurveError(f"cannot open {str(p)!r}: {exc.strerror or exc}") from None
    if size == 0:
        raise PasscurveError(f"{p.name} is empty (0 bytes)")
    if size <= _BLANK_MAX:  # blank lines only: each reader said otherwise ("not JSON (first character '')", "found no
        with open(p, "rb") as fh:  # columns", "not valid JSON at line 1 (byte 0): input data is empty")
            if not fh.read().strip():
                raise PasscurveError(f"{p.name} is empty (whitespace only, {size} bytes)")
    return p


_BLANK_MAX = 1 << 16  # the largest file read whole to tell whether it is blank (a larger one is no mistyped empty file)


def connect() -> duckdb.DuckDBPyConnection:
    """A private in-memory DuckDB connection; DuckDB's own terminal progress bar is off
    (progress is still tracked for ``query_progress`` and drawn by the CLI instead)."""
    con = duckdb.connect()
    for setting in ("SET enable_progress_bar = true", "SET enable_progress_bar_print = false"):
        try:
            con.execute(setting)
        except duckdb.Error:  # pragma: no cover - older DuckDB without the setting
            pass
    return con


def open_file(path: str | Path, format: str | None = None, correct_col: str | None = None) -> Source:
    """Open ``path`` as a :class:`Source`: detect the format, hand it to a harness adapter if one fits.

    ``correct_col`` (the user's ``--correct-col``) also tells a harness adapter which of the log's metrics (lm_eval,
    lighteval) or scorers (inspect) holds the verdict; the adapter names that column as the log does."""
    from . import _harness

    p = check_path(path)
    fmt = normalize_format(format)
    ext, _comp = _suffix(p)
    if ext in OTHER_COMPRESSION:  # DuckDB reads gzip and zstd only
        kind, tool = OTHER_COMPRESSION[ext]
        raise InputFormatError(
            f"{p.name} is compressed with {kind} ({ext}), which passcurve does not read: decompress it "
            f"(`{tool} {p.name}`), or compress it with gzip or zstd (.gz, .zst) instead"
        )
    if not _comp and (packed := _compressed_content(p)):
        # DuckDB tells compression by the name alone: gzip bytes in x.csv read as "CSV Error on Line: 4", in x.jsonl
        # as a line "cut short while it was written"
        kind, suffix = packed
        raise InputFormatError(
            f"{p.name} is compressed with {kind}, but its name does not end in {suffix}: rename it {p.name}{suffix} "
            f"(compression is told by the extension), or decompress it"
        )
    if fmt is None:
        fmt = EXTENSIONS.get(ext)
        if fmt is None:
            fmt = _sniff(p)
            if fmt is None:
                what = f"unknown format (extension {ext or '(none)'!r}; "
                fix = ""
                if _comp and not ext:  # the content was not looked at: it is compressed
                    what = f"a {_comp} file whose name does not say what it holds ("
                    fix = f" name it {p.name[:-len(_comp)]}.jsonl{_comp} or {p.name[:-len(_comp)]}.csv{_comp}, or"
                raise InputFormatError(
                    f"{p.name}: {what}tried csv, jsonl, json, parquet, inspect by content);{fix} pass `format` "
                    f"(one of {', '.join(FORMATS)})"
                )
        forced = False
    else:
        forced = True
    con = connect()
    name = p.name
    stem = _stem(p)
    if fmt in _harness.ADAPTERS:
        return _harness.open_harness(con, p, fmt, stem, forced=True, correct_col=correct_col)
    if fmt == "json":
        return _harness.open_json(con, p, stem, forced=forced, correct_col=correct_col)
    try:
        rel = _generic(con, p, fmt)
    except InputFormatError as exc:
        # the extension lied (e.g. Parquet or JSON saved as .csv): follow the content once
        sniffed = None if forced else _sniff(p)
        if sniffed is None or sniffed == fmt or str(exc).endswith(NOT_UTF8):  # the content's bytes are the matter
            raise
        if sniffed == "inspect":
            return _harness.open_harness(con, p, "inspect", stem, correct_col=correct_col)
        if sniffed == "json":
            return _harness.open_json(con, p, stem, forced=False, correct_col=correct_col)
        try:
            rel = _generic(con, p, sniffed)
        except InputFormatError:
            raise InputFormatError(f"{exc} (also tried {sniffed}, which the content suggests)") from None
        fmt = sniffed
    src = Source(rel, con, name, stem, fmt)
    src.repeated = repeated_names(con, p, fmt, src.columns)
    if fmt in _REBINDABLE:
        src.text_path, src.text_format = p, fmt
    if not forced:
        src = _harness.adapt(src, p, correct_col)
    else:
        _harness.note_forced(src)
    return src


def repeated_names(con: duckdb.DuckDBPyConnection, p: Path, fmt: str, columns: list[str]) -> dict[str, str]:
    """The columns of a CSV, Parquet or JSONL file whose name its header (a JSONL file's keys) repeats, as {DuckDB's
    name: the name written}.

    DuckDB renames a repeated name (compared case-insensitively) by a suffix: ``problem_id,n,c,n`` reads as columns
    problem_id, n, c, n_1, and the alias ``n`` then picked the first of two count columns without a word. Only when
    some column looks renamed (``X_<digits>`` beside an ``X``) is the header read as written: a CSV's first row
    without a header, a Parquet file's top-level schema names, a JSONL file's keys."""
    lower = {c.lower() for c in columns}
    renamed = [c for c in columns if (m := re.fullmatch(r"(.+)_[0-9]+", c)) and m.group(1).lower() in lower]
    if not renamed or fmt not in ("csv", "parquet", "jsonl"):
        return {}
    target = _sql_str(str(p))
    try:
        if fmt == "jsonl":
            # the keys as written, over every record (keys 'Correct' and 'correct' read as columns Correct and
            # correct_1, and the alias took 'Correct' without a word): a column is its key, or a renamed copy of one
            keys = {str(k) for (k,) in con.sql(f"SELECT DISTINCT unnest(json_keys(json)) FROM read_json_objects("
                                                f"{target}, format = 'newline_delimited')").fetchall()}
            names = []
            for c in columns:
                m = re.fullmatch(r"(.+)_[0-9]+", c)
                written = c if c in keys else m.group(1) if m and m.group(1) in keys else None
                if written is None:
                    return {}
                names.append(written)
        elif fmt == "csv":
            rows = con.sql(f"SELECT * FROM read_csv({target}, header = false, all_varchar = true) LIMIT 1").fetchall()
            names = ["" if v is None else str(v) for v in rows[0]] if rows else []
        else:
            names = _parquet_top_names(con.sql(f"SELECT name, num_children FROM parquet_schema({target})").fetchall())
    except duckdb.Error:  # the read proper reports a damaged file
        return {}
    return _repeated(names, columns)


def _repeated(names: list[str], columns: list[str]) -> dict[str, str]:
    """{DuckDB's column name: the name as written} for the ``names`` written more than once (case-insensitively,
    as DuckDB compares them); nothing when the two lists do not pair up."""
    if len(names) != len(columns):
        return {}
    times: dict[str, int] = {}
    for n in names:
        times[n.lower()] = times.get(n.lower(), 0) + 1
    return {c: n for c, n in zip(columns, names, strict=True) if times[n.lower()] > 1}


def _parquet_top_names(schema: list[tuple[Any, Any]]) -> list[str]:
    """The top-level column names of ``parquet_schema`` rows (name, num_children), listed depth first from the
    root."""
    names: list[str] = []
    pending = [int(schema[0][1] or 0)] if schema else []
    for name, children in schema[1:]:
        if len(pending) == 1:
            names.append(str(name))
        pending[-1] -= 1
        if children:
            pending.append(int(children))
        while pending and pending[-1] == 0 and len(pending) > 1:
            pending.pop()
    return names


def as_text(src: Source, columns: list[str]) -> None:
    """Re-read a generic CSV or JSONL source with ``columns`` as text (identifier columns named by the user); the
    columns an earlier call read as text stay text."""
    path = src.text_path
    if path is None or src.reader not in _REBINDABLE or src.con is None:
        return
    kinds = src.types
    need = tuple(c for c in columns if c in kinds and kinds[c] != "VARCHAR")
    if need:
        text = need + tuple(c for c, k in kinds.items() if k == "VARCHAR")
        src.relation = _generic(src.con, path, src.reader, text_columns=text)


def _id_columns() -> set[str]:
    from ._columns import ALIASES

    return {a.lower() for role in ("problem", "model") for a in ALIASES[role]}


def _generic(
    con: duckdb.DuckDBPyConnection, p: Path, fmt: str, text_columns: tuple[str, ...] = ()
) -> duckdb.DuckDBPyRelation:
    """The rows of a generic file. A CSV's or JSONL's identifier columns (problem and model names by their
    aliases, and ``text_columns``) are read as text: DuckDB's type sniffing would otherwise turn ids such as
    1.1 and 1.10 into one number, or 001 and 1 into one integer, silently merging problems, and a JSONL id
    that is a number in the sniffed rows and a string later would stop the read."""
    target = _sql_str(str(p))
    if fmt == "csv":
        sql = f"SELECT * FROM read_csv({target}, header = true)"
    elif fmt == "jsonl":
        sql = f"SELECT * FROM read_json({target}, format = 'newline_delimited')"
    elif fmt == "parquet":
        sql = f"SELECT * FROM read_parquet({target})"
    else:  # pragma: no cover - guarded by callers
        raise PasscurveError(f"unknown format {fmt!r}")
    try:
        rel = con.sql(sql)
        cols = rel.columns  # binds the schema now, so header errors surface here
        if fmt in _REBINDABLE:  # bound again, only when some identifier column was sniffed as a non-text type
            ids = _id_columns()
            types = list(map(str, rel.types))
            text = {c for c, t in zip(cols, types, strict=True)
                    if (c.lower() in ids or c in text_columns) and t != "VARCHAR"}
            if text:
                if fmt == "csv":  # read_csv overrides some columns' types
                    spec = ", ".join(f"{_sql_str(c)}: 'VARCHAR'" for c in cols if c in text)
                    sql = f"SELECT * FROM read_csv({target}, header = true, types = {{{spec}}})"
                else:  # read_json takes every column's type, so the sniffed ones are given back for the rest
                    spec = ", ".join(f"{_sql_str(c)}: {_sql_str('VARCHAR' if c in text else t)}"
                                     for c, t in zip(cols, types, strict=True))
                    sql = f"SELECT * FROM read_json({target}, format = 'newline_delimited', columns = {{{spec}}})"
                rel = con.sql(sql)
                cols = rel.columns
    except duckdb.Error as exc:
        if fmt == "csv" and "Error when sniffing file" in str(exc):
            # a ragged row among the rows the sniffer reads defeats every dialect: name it, if that is the cause
            _raise_ragged_csv(p)
        raise duck_error(exc, p.name, fmt) from None
    if fmt == "csv" and len(cols) == 1 and any(d in cols[0] for d in _DELIMITERS):
        _raise_ragged_csv(p)
    return rel


_REBINDABLE = ("csv", "jsonl")
_DELIMITERS = ",;\t|"


def _raise_ragged_csv(p: Path) -> None:
    """Name the first row whose field count differs from the header's, if there is one.

    DuckDB's dialect sniffer gives up on a delimiter when a row is ragged (typically a
    truncated last line) and reads the whole line as one column named like the header, e.g.
    'model,problem,n,c'; every later message would then be about missing columns. Only called
    on that symptom; stops at the first ragged row.
    """
    import csv

    with open(p, newline="", encoding="utf-8", errors="replace") as fh:
        header = fh.readline()
        counts = {d: header.count(d) for d in _DELIMITERS}
        delim = max(counts, key=lambda d: counts[d])
        fh.seek(0)
        reader = csv.reader(fh, delimiter=delim, strict=True)
        width, row_no, end = None, 0, 1
        try:
            width = len(next(reader))
            end = reader.line_num
            for row_no, row in enumerate(reader, start=1):
                if row and len(row) != width:
                    raise InputFormatError(
                        f"{p.name}: data row {row_no} (line {reader.line_num}) has {len(row)} field"
                        f"{'s' if len(row) != 1 else ''} where the header has {width}: the file is truncated "
                        "or malformed"
                    )
                end = reader.line_num
        except csv.Error as exc:
            # a quote that opens a field and is never closed: the rest of the file reads as one field, so no row
            # is ragged (and DuckDB's sniffer, finding no dialect, read each line as one column)
            where = "the header (line 1)" if width is None else f"data row {row_no + 1} (line {end + 1})"
            what = ("a field that opens a quote and does not close it" if "end of data" in str(exc)
                    else "a malformed quoted field")
            raise InputFormatError(f"{p.name}: {where} has {what} ({exc}): the file is truncated or malformed") from None
    _raise_mixed_line_endings(p)


def _raise_mixed_line_endings(p: Path) -> None:
    """Name the first line whose ending (CR LF or LF) differs from the first line's: DuckDB's dialect sniffer gives up
    on a file that mixes them ('Error when sniffing file'), which Python's csv module reads without a word."""
    with open(p, "rb") as fh:
        first = None
        for line_no, line in enumerate(fh, start=1):
            if not line.endswith(b"\n"):
                return
            ending = "CR LF" if line.endswith(b"\r\n") else "LF"
            first = first or ending
            if ending != first:
                raise InputFormatError(
                    f"{p.name}: line {line_no} ends in {ending} where line 1 ends in {first}: the file mixes line "
                    "endings (joined from several files?); convert it to one (e.g. dos2unix)"
                )


def no_columns_error(kind: str) -> PasscurveError:
    """The one error for a frame (``counts_from_frame``'s ``df``, a ``kind`` such as "pandas DataFrame") without
    columns."""
    return PasscurveError(
        f"`df` has no columns (an empty {kind}): give one row per sample (a problem-id and a correctness column) "
        "or one row per problem (problem_id, n, c)"
    )


def open_frame(frame: Any, name: str = "frame") -> Source | None:
    """An in-memory frame DuckDB can scan (pandas, polars, pyarrow, DuckDB relation), else None."""
    if isinstance(frame, duckdb.DuckDBPyRelation):
        return Source(frame, None, name, name, "duckdb", keepalive=[frame])
    mod = type(frame).__module__.split(".")[0]
    kind = type(frame).__name__
    if (mod == "pandas" and kind == "DataFrame") or (mod == "polars" and kind == "DataFrame") or (
            mod == "pyarrow" and kind in ("Table", "RecordBatch")):
        if frame.shape[1] == 0:  # DuckDB's refusal named neither the argument nor the frame's emptiness
            raise no_columns_error(f"{mod} {kind}")
    con = connect()
    try:
        if mod == "pandas" and kind == "DataFrame":  # a Series or an Index is no frame (DuckDB's TypeError before)
            rel = con.from_df(frame)
        elif mod == "polars" and kind == "DataFrame":
            rel = con.from_arrow(frame.to_arrow())
        elif mod == "pyarrow" and kind in ("Table", "RecordBatch"):
            rel = con.from_arrow(frame)
        else:
            con.close()
            return None
    except duckdb.Error as exc:
        raise duck_error(exc, name, f"{mod} frame") from None
    src = Source(rel, con, name, name, f"{mod}", keepalive=[frame])
    # a pandas frame or an Arrow table may repeat a column name, which DuckDB renames ('n', 'n_1'; repeated_names)
    written = frame.column_names if mod == "pyarrow" else list(frame.columns)
    src.repeated = _repeated([str(c) for c in written], src.columns)
    return src


ProgressFn = Callable[[float], None]
