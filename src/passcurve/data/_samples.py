"""The shared reader mechanism: Source -> column mapping -> validation -> GROUP BY -> Counts.

Every input (CSV/JSONL/Parquet files, harness logs, in-memory frames) ends up here as a
DuckDB relation. Aggregation and validation are SQL queries run by DuckDB; Python only
sees the grouped result (one row per (model, problem)) and, on the error path, one
offending row.
"""

from __future__ import annotations

import math
import threading
import time
import unicodedata
import warnings
from collections.abc import Sequence
from typing import Any

import duckdb
import numpy as np

from .._counts import Counts, models_mask, stopping_design
from .._errors import DegenerateDataWarning, PasscurveError, StoppingTimeWarning
from .._validation import check_callable, check_flag, check_scalar, check_text
from . import _harness
from ._columns import (
    WHITESPACE,
    ColumnMap,
    column_hint,
    identifier,
    is_missing,
    is_nan,
    json_nan,
    json_unwrapped,
    json_value,
    number_text,
    quote,
    resolve_columns,
)
from ._source import (
    ROW,
    ProgressFn,
    Source,
    as_text,
    bare_nan,
    duck_error,
    first_row,
    first_two_located,
    located,
    nested_value,
    no_rows_error,
)

__all__ = ["Samples", "build_samples"]

TRUE_WORDS = (
    "true",
    "t",
    "1",
    "1.0",
    "yes",
    "y",
    "pass",
    "passed",
    "correct",
    "c",
    "success",
    "ok",
    "solved",
)
FALSE_WORDS = (
    "false",
    "f",
    "0",
    "0.0",
    "no",
    "n",
    "fail",
    "failed",
    "incorrect",
    "i",
    "failure",
    "timeout",
    "timed out",
    "error",
    "wrong",
)
_INT_TYPES = (
    "TINYINT",
    "SMALLINT",
    "INTEGER",
    "BIGINT",
    "HUGEINT",
    "UHUGEINT",
    "UTINYINT",
    "USMALLINT",
    "UINTEGER",
    "UBIGINT",
)
_FLOAT_TYPES = ("FLOAT", "DOUBLE", "REAL")


def _is_int(t: str) -> bool:
    return t.upper() in _INT_TYPES


def _is_num(t: str) -> bool:
    u = t.upper()
    return u in _INT_TYPES or u in _FLOAT_TYPES or u.startswith("DECIMAL")


def _words(ws: tuple[str, ...]) -> str:
    return ", ".join("'" + w.replace("'", "''") + "'" for w in ws)


def _fmt_row(row: dict[str, Any], limit: int = 160) -> str:
    parts = []
    for k, v in row.items():
        s = repr(v)
        if len(s) > 40:
            s = s[:37] + "..."
        parts.append(f"{k}={s}")
    text = "{" + ", ".join(parts) + "}"
    return text if len(text) <= limit else text[: limit - 4] + "...}"


# ---------------------------------------------------------------------- messages shared with the lazy-frame path
# (data._frames aggregates Dask, PySpark and polars LazyFrames on their own engine, and reports through these)
ID_COLUMN = {"problem": "problem-id column", "model": "model column", "attempt": "attempt column"}
ROLE_NAMES = {"problem": "problem ids", "model": "model names", "attempt": "attempt ids", "correct": "correctness",
              "answer": "answers", "n": "sample counts (`n`)", "c": "correct counts (`c`)"}


def missing_value_error(source: str, role: str, col: str, row: dict[str, Any], at: str = "") -> PasscurveError:
    """A missing id (NULL, NaN or blank), attempt id or correctness value (``role`` "correct"), quoting
    ``row``, found ``at`` (" at line 5": :func:`located`)."""
    if role == "correct":
        return PasscurveError(
            f"{source}: correctness column {col!r} has a missing value (null/NaN), e.g. row {_fmt_row(row)}{at}"
        )
    return PasscurveError(f"{source}: {ID_COLUMN[role]} {col!r} has a missing value, e.g. row {_fmt_row(row)}{at}")


def nested_id_error(source: str, role: str, col: str, what: str, row: dict[str, Any], at: str = "") -> PasscurveError:
    """An id (``role`` "problem", "model" or "attempt") that is ``what`` ("a list", "an object", ...) rather than one value,
    quoting ``row``, found ``at`` (:func:`located`): it had become its JSON text and one more problem."""
    return PasscurveError(
        f"{source}: {ID_COLUMN[role]} {col!r} holds {what}, not an id (a string or a number), e.g. row "
        f"{_fmt_row(row)}{at}"
    )


def not_boolean_error(source: str, col: str, problem_col: str, row: dict[str, Any],
                      threshold: float | None, at: str = "") -> PasscurveError:
    """A correctness value that is neither true nor false (nor a number, with ``threshold``), quoting ``row``
    found ``at`` (:func:`located`); a row that repeats the header (files joined with their headers) is named as
    such."""
    if str(row.get(problem_col)) == problem_col and str(row.get(col)).strip().lower() == col.lower():
        return PasscurveError(
            f"{source}: a data row repeats the header (files joined with their headers?), e.g. row "
            f"{_fmt_row(row)}{at}; remove the repeated header lines"
        )
    hint = "; pass `threshold` (--threshold) to turn a score into correct/incorrect" if threshold is None else ""
    return PasscurveError(
        f"{source}: correctness column {col!r} holds a value that is not boolean "
        f"(expected true/false, 0/1{', or a number' if threshold is not None else ''}), "
        f"e.g. row {_fmt_row(row)}{at}{hint}"
    )


def threshold_on_counts_error(source: str, threshold: float, n_col: str, c_col: str, what: str = "input"
                              ) -> PasscurveError:
    """``threshold`` given for counts (``n_col``, ``c_col``), where no score is left to compare with it: it was
    ignored without a word. ``what``: "input", or "files" when every one of several files holds counts."""
    return PasscurveError(
        f"{source}: `threshold` ({threshold:g}) has no scores to apply to: the {what} {'hold' if what == 'files' else 'holds'} "
        f"counts (columns {n_col!r} and {c_col!r}: c already says how many of the n samples were correct); drop "
        "`threshold`, or read the per-sample scores"
    )


def correctness_type_error(source: str, col: str, kind: str) -> PasscurveError:
    return PasscurveError(
        f"{source}: correctness column {col!r} has type {kind}; "
        "expected bool, 0/1, 'true'/'false' or a numeric score with `threshold`"
    )


def duplicate_attempt_error(source: str, problem: Any, model: Any | None, attempt: Any, k: int,
                            at: str = "", pooled: bool = True) -> PasscurveError:
    """``attempt`` appears ``k`` times for ``problem`` (of ``model``, when the input has a model column), first
    ``at`` (" at lines 2 and 7": :func:`located`). ``pooled``: the reader can pool runs (``pool``); retries cannot (an
    attempt's index is its place in one run's sequence), so their advice is to read one run at a time."""
    who = f"problem {problem!r}" + ("" if model is None else f" (model {model!r})")
    advice = ("give each run as its own file and pool them with `pool`" if pooled
              else "retries follow one run's sequence of attempts: read one run at a time")
    return PasscurveError(
        f"{source}: duplicate (problem, attempt) rows: {who} attempt {attempt} appears {k} times{at}; "
        f"each attempt must appear once (several runs written one after another, their attempts restarting? {advice})"
    )


def inexact_attempt_error(source: str, col: str, kind: str, attempt: Any, at: str) -> PasscurveError | None:
    """The error for a duplicate ``attempt`` (as text) of a float column ``col`` (DuckDB type ``kind``) at or beyond
    2^53, found ``at`` (:func:`located`), else None: two attempts beyond float64's exact integers (2^64 and 2^64 + 1)
    read as one float, and "duplicate attempt 1.8446744073709552e+19" was said of two different attempts."""
    try:
        big = kind.upper() in _FLOAT_TYPES and abs(float(attempt)) >= 2.0**53
    except (TypeError, ValueError):
        return None
    if not big:
        return None
    return PasscurveError(
        f"{source}: attempt column {col!r} holds {attempt}{at}, too large to tell attempts apart: the column is read "
        "as floats (some attempt is written with a point or an exponent, or is beyond 2^63), exact only up to "
        "2^53 - 1 = 9007199254740991; number the attempts from 0 or 1")


# the printable ASCII characters but space: an id made of them alone has no whitespace and one spelling
_PLAIN = bytes(range(0x21, 0x80))


def spelling_key(t: str) -> str:
    """What one id is however it is written: stripped of whitespace at its ends and NFC-normalised (an ASCII id
    without edge whitespace is itself)."""
    return t if t.isascii() and t == t.strip() else unicodedata.normalize("NFC", t.strip(WHITESPACE))


def check_ids(source: str, roles: Any, model: Any, problem: Any, src: Source | None = None) -> None:
    """:func:`check_id_spellings` on a reader's problem ids, and on its model names when a column (``roles``'s
    ``"model"``) gave them (a file's stem names one model, written one way). With the input ``src``, an id 'NaN'
    that a JSONL file writes as a bare NaN (a float, not the string "NaN"; read as text, the two are one 'NaN')
    is refused as a missing id, naming its line (:func:`bare_nan`: read again only when some id is 'NaN'); an id
    that is a list or an object in the input (:func:`nested_value`: looked for only when some id's text begins with
    '[' or '{') is refused, naming where it is; so is an attempt (``roles``'s ``"attempt"``) that is a list or an
    object, looked for only in a column that may hold one (:func:`_holds_nested`)."""
    for role, ids in (("problem", problem), ("model", model)):
        col = roles.get(role)
        if src is not None and col is not None and (np.asarray(ids, dtype=object) == "NaN").any():
            i = bare_nan(src, col)
            if i is not None:
                raise missing_value_error(source, role, col, *first_row(src, f'"{ROW}" = {i}'))
        # a pandas object column's tuple reads as its text, "('x',)"
        if src is not None and col is not None and _maybe_nested(ids, "[{(" if src.reader == "pandas" else "[{"):
            hit = nested_value(src, col)
            if hit is not None:
                raise nested_id_error(source, role, col, hit[1], *first_row(src, f'"{ROW}" = {hit[0]}'))
    att = roles.get("attempt")
    if src is not None and att is not None and att in src.types and _holds_nested(src.types[att]):
        # an attempt that is a list or an object (a JSON column of mixed types, a list or struct column) was one more
        # attempt label, '[1]', as an id was one more problem
        hit = nested_value(src, att)
        if hit is not None:
            raise nested_id_error(source, "attempt", att, hit[1], *first_row(src, f'"{ROW}" = {hit[0]}'))
    check_id_spellings(source, "problem", roles["problem"], np.asarray(problem, dtype=object))
    if roles.get("model") is not None:
        check_id_spellings(source, "model", roles["model"], np.asarray(model, dtype=object))


def _holds_nested(kind: str) -> bool:
    """Whether a column of DuckDB type ``kind`` may hold a list or an object: a JSON column (values of mixed types) or
    a list, array, struct or map column. An attempt column of another type holds none (:func:`nested_value` is asked
    only then)."""
    k = kind.upper()
    return k == "JSON" or k.endswith("]") or k.startswith(("STRUCT", "MAP"))


def _maybe_nested(ids: Any, starts: str = "[{") -> bool:
    """Whether some id's text begins with one of the characters ``starts`` ('[' or '{', as a list's or an object's
    JSON text does; '(' too for a pandas frame, as a tuple's text does): the only ids that :func:`nested_value` looks
    at again (a join and a substring search per character: 0.08 s per 10^6 ids of 13 characters)."""
    arr = np.asarray(ids, dtype=object).ravel()
    try:
        joined = "\x00" + "\x00".join(arr)
    except TypeError:
        joined = "\x00" + "\x00".join(map(str, arr))
    return any("\x00" + c in joined for c in starts)


def check_id_spellings(source: str, role: str, col: str, ids: np.ndarray) -> None:
    """Refuse two ids (problem ids, or model names) that differ only in whitespace at their ends or in Unicode
    normalisation ('a' and 'a ', or 'é' composed and 'é' decomposed): the same problem written two ways, which
    would split its samples into two problems. Case is a real difference ('A' and 'a' stay two). Pure ASCII ids
    without whitespace, the common case, pass after one join and one byte translation over the (model, problem)
    groups; otherwise every distinct id is compared stripped and NFC-normalised (0.3 s per 10^6 groups)."""
    if ids.size == 0:
        return
    try:
        joined = "\x00".join(ids)  # the readers' ids are text already; str() on each would cost 0.4 s per 10^6
    except TypeError:
        joined = "\x00".join(map(str, ids))
    # 0.03 s per 10^6 ids (a regex search for edge whitespace took 0.2 s): what is left after deleting the plain
    # characters is the separators, unless some id holds whitespace, a control character or non-ASCII text
    if not joined.encode("utf-8", "surrogatepass").translate(None, _PLAIN).replace(b"\x00", b""):
        return
    seen: dict[str, str] = {}
    for t in dict.fromkeys(map(str, ids)):
        key = spelling_key(t)
        other = seen.setdefault(key, t)
        if other != t:
            # spelled with other code points (composed or not): shown escaped, as they print alike
            spelled = other.strip(WHITESPACE) != t.strip(WHITESPACE)
            a, b = (ascii(other), ascii(t)) if spelled else (repr(other), repr(t))
            raise PasscurveError(
                f"{source}: {ID_COLUMN[role]} {col!r} writes one {'id' if role == 'problem' else 'name'} two ways, "
                f"{a} and {b} (they differ "
                "only in spaces at the ends or in Unicode normalisation), which would split it into two "
                f"{'problems' if role == 'problem' else 'models'}; write each id one way"
            )


def check_threshold(threshold: Any) -> float | None:
    """``threshold``: None or one finite number (:func:`check_scalar`), as a float. An infinite threshold would make
    every score wrong (inf) or right (-inf); its SQL text 'inf' had been read as a column name (DuckDB's
    BinderException), and True had been the threshold 1."""
    if threshold is None:
        return None
    return check_scalar(threshold, "threshold")


def warn_if_ids_number_rows(source: str, cmap: ColumnMap, n: np.ndarray, stacklevel: int) -> None:
    """Warn when the problem ids come from the alias "id" and every problem has one sample: in many logs "id"
    numbers the rows, which makes every sample its own problem. ``stacklevel`` is counted from the caller."""
    prob_col = cmap.roles["problem"]
    if cmap.detected.get("problem") == "alias" and prob_col.lower() == "id" and n.size > 1 and n.max() == 1:
        warnings.warn(
            f"{source}: every problem has one sample, with problem ids from column {prob_col!r}; if that "
            f"column numbers the rows rather than the problems, name the problem column ({column_hint('problem', cmap.options)})",
            DegenerateDataWarning,
            stacklevel=stacklevel + 1,
        )


def runs_of_ids(src: Source, n: Any, fp: Any) -> bool:
    """True when every group's fingerprint ``fp`` (``bit_xor(hash(id::BIGINT))`` over its ``n`` rows) is that of
    the run 0..n-1 or 1..n: its ids are then that run, without duplicates (see
    ``SampleSource._check_duplicates`` for why); False when any group may not be (run the exact query)."""
    n = np.asarray(n, dtype=np.int64)
    fp = np.ma.asarray(fp)
    if n.size == 0 or np.ma.is_masked(fp):
        return n.size == 0
    top = int(n.max()) + 1
    h = src.query(f"SELECT hash(i::BIGINT) AS h FROM range(0, {top + 1}) t(i) ORDER BY i").fetchnumpy()["h"]
    pre = np.concatenate(([np.uint64(0)], np.bitwise_xor.accumulate(np.asarray(h, dtype=np.uint64))))
    got = np.asarray(fp, dtype=np.uint64)
    return bool(((got == pre[n]) | (got == (pre[n + 1] ^ pre[1]))).all())


class Samples:
    """Per-sample rows of one input, resolved to canonical columns, still inside DuckDB.

    Obtain one with :func:`passcurve.data.open_samples`. Nothing is read until a query runs.

    Attributes
    ----------
    source : str
        The input's name (file name or "frame").
    reader : str
        The reader/format used ("parquet", "csv", "jsonl", "lm_eval", "inspect", ...).
    layout : {"samples", "counts"}
        Per-sample log or per-problem counts.
    columns : ColumnMap
        Role -> source column (roles: problem, correct, model, attempt, answer; or problem, n, c, model).
    threshold : float or None
        Score threshold applied to a numeric correctness column.
    relation : duckdb.DuckDBPyRelation
        Canonical per-sample rows ``model, problem, attempt, correct[, answer]`` (samples layout only);
        ``problem`` keeps its source type, ``attempt`` is NULL when the input has none.
    raw : duckdb.DuckDBPyRelation
        The raw input rows (all original columns, e.g. extra verdict columns).
    """

    def __init__(self, src: Source, cmap: ColumnMap, threshold: float | None, threshold_given: bool = False) -> None:
        self._src = src
        self.columns = cmap
        self.layout = cmap.layout
        self.threshold = threshold
        self._threshold_given = threshold_given  # the user's (a reader's own, tau-bench's, is not checked)
        self.source = src.name
        self.reader = src.reader
        self.raw = src.relation
        self._types = src.types
        if self.layout == "samples":
            self._correct_expr = self._correctness_expr()
            self._sql = self._canonical_sql()
            self.relation = src.query(self._sql)
        else:
            self._correct_expr = ""
            self._sql = ""
            self.relation = src.relation

    # ------------------------------------------------------------------ SQL building
    def _col(self, role: str) -> str | None:
        c = self.columns.get(role)
        return None if c is None else quote(c)

    def _text(self, role: str) -> str:
        """An identifier column as SQL (:func:`identifier`: a JSON column's values without their quotes, and every
        missing value, NULL, NaN or blank, as NULL)."""
        col = self.columns.roles[role]
        return identifier(col, self._types[col])

    def _model_expr(self) -> str:
        if self._col("model") is None:
            return "'" + self._src.default_model.replace("'", "''") + "'"
        return self._text("model")

    def _correctness_expr(self) -> str:
        col = self.columns.roles["correct"]
        q = json_value(col, self._types[col])
        t = self._types[col].upper()
        thr = self.threshold
        if t == "BOOLEAN":
            return q
        if _is_num(t):
            if thr is not None:
                nan = f"{is_nan(q)} OR " if t in _FLOAT_TYPES else ""
                return f"CASE WHEN {nan}{q} IS NULL THEN NULL ELSE {q} >= {float(thr)!r} END"
            nan = f"WHEN {is_nan(q)} THEN NULL " if t in _FLOAT_TYPES else ""
            return f"CASE {nan}WHEN {q} = 1 THEN TRUE WHEN {q} = 0 THEN FALSE ELSE NULL END"
        if t in ("VARCHAR", "JSON") or t.startswith("VARCHAR"):
            s = f"lower(trim(CAST({q} AS VARCHAR), ' \"'))"
            # a score is text spelled as a NUMBER ('1_0' is not 10, '0x1' not 1); NaN is not one
            value = number_text(s)
            num = f"WHEN {value} IS NOT NULL THEN {value} >= {float(thr)!r} " if thr is not None else ""
            # a row that repeats the header (CSV files joined with their headers) would read as a correct sample
            # of the problem 'problem_id' when the column's name is a true word ('correct', 'passed', ...)
            pcol = self.columns.roles["problem"]
            header = (
                f"WHEN {s} = {_words((col.lower(),))} AND CAST({self._text('problem')} AS VARCHAR) = "
                f"{_words((pcol,))} THEN NULL "
            )
            # '1' and '0' as written first, without lower/trim/regex: a CSV's 0/1 column is read as text (a value the
            # sniffer had not seen, '0.4', was rounded to 0 in a column typed BIGINT), and this keeps its cost at that
            # of the integer column (10^7 rows: 2.1 s against 2.0 s for the bare scan; the full text test took 3.6 s)
            fast = ""
            if t != "JSON":
                one, zero = ("TRUE", "FALSE") if thr is None else (repr(1.0 >= thr).upper(), repr(0.0 >= thr).upper())
                # a JSONL boolean column read as text writes its values true and false (also correct or not
                # under a threshold, as the words are)
                fast = (f"WHEN {q} = '1' THEN {one} WHEN {q} = '0' THEN {zero} "
                        f"WHEN {q} = 'true' THEN TRUE WHEN {q} = 'false' THEN FALSE ")
            return (
                f"CASE {fast}{header}{num}WHEN {s} IN ({_words(TRUE_WORDS)}) THEN TRUE "
                f"WHEN {s} IN ({_words(FALSE_WORDS)}) OR starts_with({s}, 'failed') THEN FALSE "
                # without a threshold, a number equal to 1 or 0 as in a numeric column ('+1', '-0', '1.00', '1e0'):
                # an integer column is read as text (above), and its '-0' had been 0
                + (f"WHEN {value} = 1 THEN TRUE WHEN {value} = 0 THEN FALSE " if thr is None else "")
                + "ELSE NULL END"
            )
        raise correctness_type_error(self.source, col, self._types[col])

    def _canonical_sql(self) -> str:
        # attempt ids of mixed JSON types (1 and "1") are compared as text, so that they are one id (a duplicate)
        att_col = self.columns.get("attempt")
        att = None if att_col is None else json_unwrapped(att_col, self._types[att_col])
        ans = self._col("answer")
        cols = [
            f"{self._model_expr()} AS model",
            f"{self._text('problem')} AS problem",
            f"{att if att else 'NULL::BIGINT'} AS attempt",
            f"{self._correct_expr} AS correct",
        ]
        if ans:
            cols.append(f"{ans} AS answer")
        return f"SELECT {', '.join(cols)} FROM src"

    # ------------------------------------------------------------------ running
    def _run(
        self, sql: str, progress: ProgressFn | None = None, *, table: str = "samples"
    ) -> dict[str, np.ndarray]:
        """Run ``sql`` (``samples`` = canonical rows, ``src`` = raw rows) and fetch numpy columns."""
        full = sql if table == "src" else f"WITH samples AS ({self._sql}) {sql}"
        try:
            if progress is None or self._src.con is None:
                return self._src.query(full).fetchnumpy()
            return _with_progress(self._src, full, progress)
        except duckdb.Error as exc:
            if self._correct_as_text(exc):
                return self._run(sql, progress, table=table)
            raise duck_error(exc, self.source, self.reader) from None

    def _correct_as_text(self, exc: duckdb.Error) -> bool:
        """On a CSV whose correctness column DuckDB's sniffer typed BOOLEAN from its first rows, a later valid word
        that DuckDB's BOOLEAN does not take ('passed', 'fail', '1.0'; it takes true/false, t/f, yes/no, y/n, 1/0)
        stopped the scan with "Could not convert string 'passed' to 'BOOLEAN'". Read the column again as text,
        whose words :meth:`_correctness_expr` knows, and say whether the query should run again. On this error
        path only: reading it as text on every file cost +25% (:func:`build_samples`)."""
        col = self.columns.get("correct")
        if (self.layout != "samples" or self.reader != "csv" or col is None or self._types.get(col) != "BOOLEAN"
                or f'Error when converting column "{col}"' not in str(exc)):
            return False
        as_text(self._src, [col])
        self.raw = self._src.relation
        self._types = self._src.types
        if self._types.get(col) == "BOOLEAN":  # pragma: no cover - as_text reads a generic CSV's column as text
            return False
        self._correct_expr = self._correctness_expr()
        self._sql = self._canonical_sql()
        self.relation = self._src.query(self._sql)
        return True

    def query(self, sql: str) -> duckdb.DuckDBPyRelation:
        """A DuckDB relation for ``sql``, where ``samples`` is the canonical per-sample table and
        ``src`` the raw input (e.g. ``SELECT model, problem, answer, count(*) FROM samples GROUP BY ALL``).

        Parameters
        ----------
        sql : str
            A DuckDB SQL query over ``samples`` and ``src``.

        Returns
        -------
        duckdb.DuckDBPyRelation
        """
        sql = check_text(sql, "sql", "a SQL query, a string")  # query(5) had been DuckDB's 'syntax error at or near "5"'
        try:
            return self._query(sql)
        except duckdb.Error as exc:  # DuckDB's message up to its "LINE 7: ...", which pointed into the query wrapped
            said = str(exc).strip().split("\nLINE ")[0]  # around `sql` (the candidate columns it lists stay)
            raise PasscurveError(f"`sql` cannot be run: {said or type(exc).__name__}") from None

    def _query(self, sql: str) -> duckdb.DuckDBPyRelation:
        """:meth:`query` for the package's own SQL: DuckDB's errors as they are, for callers that read them."""
        full = f"WITH samples AS ({self._sql}) {sql}" if self.layout == "samples" else sql
        return self._src.query(full)

    def _first_row(self, where: str) -> tuple[dict[str, Any], str]:
        """The first raw row where ``where`` holds ({} if none), and where it is in the input (:func:`located`)."""
        try:
            return first_row(self._src, where)
        except duckdb.Error as exc:
            raise duck_error(exc, self.source, self.reader) from None

    # ------------------------------------------------------------------ counts
    def counts(self, progress: ProgressFn | None = None, *, check_duplicates: bool = True,
               models: Sequence[str] | None = None) -> Counts:
        """Aggregate to :class:`passcurve.Counts` inside DuckDB (validating on the way).

        Parameters
        ----------
        progress : callable, optional
            ``progress(percent)``, called as DuckDB reads a large input (``cli_progress`` draws a bar).
        check_duplicates : bool, default True
            False skips the duplicate (problem, attempt) check, which reads the attempt column (about 1.1x
            the time of a bare GROUP BY on large Parquet files; see docs/data.md).
        models : sequence of str, optional
            Keep those models only, after the checks (an unknown name is an error listing the models present);
            the stopping-time evidence (``meta["stopping_time"]``) and its warning are about them alone.

        Returns
        -------
        Counts
        """
        progress = check_callable(progress, "progress")
        check_duplicates = check_flag(check_duplicates, "check_duplicates")  # "no" was true: the check ran
        if self.layout == "counts":
            counts = self._counts_from_counts(models)
        else:
            counts = self._counts_from_samples(progress, check_duplicates, models)
        return counts if models is None else counts.select_models(models)

    def _counts_from_samples(self, progress: ProgressFn | None, check_duplicates: bool = True,
                             models: Sequence[str] | None = None) -> Counts:
        att_type = self._types.get(self.columns.roles.get("attempt", ""), "")
        has_attempt = self.columns.get("attempt") is not None
        int_attempt = has_attempt and _is_int(att_type)
        # One pass: n, c, unparseable correctness, and (integer attempts) an XOR fingerprint of
        # the attempt ids, from which duplicates are ruled out without a second GROUP BY when
        # the ids are the run 0..n-1 or 1..n (otherwise the exact duplicate query runs).
        do_dup = has_attempt and check_duplicates
        att_aggs = ""
        if do_dup and int_attempt:
            att_aggs = ", bit_xor(hash(TRY_CAST(attempt AS BIGINT))) AS a_fp"
        sql = (
            "SELECT CAST(model AS VARCHAR) AS model, CAST(problem AS VARCHAR) AS problem, n, c, n_bad, "
            "problem IS NULL AS null_problem"
            + (", a_fp" if att_aggs else "")
            + " FROM (SELECT model, problem, count(*) AS n, sum(correct::INTEGER) AS c, "
            "count(*) - count(correct) AS n_bad" + att_aggs + " FROM samples GROUP BY model, problem) "
            "ORDER BY model, problem"
        )
        g = self._run(sql, progress)
        if g["n"].size == 0:
            raise no_rows_error(self.source)
        self._check_nulls(g)
        check_ids(self.source, self.columns.roles, g["model"], g["problem"], self._src)
        if do_dup:
            self._check_duplicates(g, int_attempt)
        model = np.asarray(g["model"], dtype=object)
        problem = np.asarray(g["problem"], dtype=object)
        n = np.asarray(g["n"], dtype=np.int64)
        c = np.nan_to_num(np.ma.filled(np.ma.asarray(g["c"]).astype(np.float64), 0)).astype(np.int64)
        last_correct = None
        if has_attempt and n.min() != n.max():
            # n varies: is the last attempt of each problem its success far more often than c/n?
            lc = self._run(
                "SELECT model, CAST(problem AS VARCHAR) AS problem, arg_max(correct, attempt) AS last_correct "
                "FROM samples GROUP BY model, problem ORDER BY model, problem"
            )
            last_correct = np.asarray(lc["last_correct"], dtype=object)
        meta = self._meta()
        meta["rows"] = int(n.sum())
        meta["duplicate_check"] = (
            (
                "XOR fingerprint of attempt ids (run 0..n-1 or 1..n)"
                if getattr(self, "_contiguous", False)
                else "exact GROUP BY"
            )
            if do_dup
            else (
                "skipped (check_duplicates=False)"
                if has_attempt
                else "none (no attempt column: duplicates cannot be told apart)"
            )
        )
        meta["stopping_time"] = stopping_time_evidence(model, n, c, last_correct, self.source, models=models)
        warn_if_ids_number_rows(self.source, self.columns, n, stacklevel=3)
        if self._threshold_given and ((c == 0).all() or (c == n).all()):
            # a threshold off the scores' scale splits nothing (--threshold 1.5 on 0/1 verdicts: pass@k = 0 at every
            # k, without a word)
            every = "correct: every score reaches it" if (c == n).all() else "incorrect: no score reaches it"
            warnings.warn(
                f"{self.source}: under `threshold` {self.threshold:g} every sample of column "
                f"{self.columns.roles['correct']!r} counts as {every}; is the threshold on the scores' scale?",
                DegenerateDataWarning, stacklevel=3,
            )
        # Valid by construction (GROUP BY keys are unique, 0 <= c <= n, n >= 1, no NULL keys
        # after _check_nulls), so skip from_arrays' per-row re-validation (0.9 s per 10^6 groups).
        return Counts(model, problem, n, c, None, None, self.source, meta)

    def _check_nulls(self, g: dict[str, np.ndarray]) -> None:
        roles = self.columns.roles
        if np.asarray(g["null_problem"]).any():
            raise missing_value_error(self.source, "problem", roles["problem"],
                                      *self._first_row(f"({self._text('problem')}) IS NULL"))
        if (np.asarray(g["model"], dtype=object) == None).any():  # noqa: E711 - object array
            raise missing_value_error(self.source, "model", roles["model"],
                                      *self._first_row(f"({self._text('model')}) IS NULL"))
        if np.asarray(g["n_bad"]).sum() > 0:
            self._refuse_correctness()

    def _refuse_correctness(self) -> None:
        """Raise the error for the first correctness value that is missing, else not boolean (some is: the
        caller counted it), quoting its row and where it is."""
        roles = self.columns.roles
        col = roles["correct"]
        kind = self._types[col]
        row, at = self._first_row(is_missing(col, kind) + (f" OR {json_nan(quote(col))}" if kind == "JSON" else ""))
        if row:
            raise missing_value_error(self.source, "correct", col, row, at)
        row, at = self._first_row(f"({self._correct_expr}) IS NULL")
        raise not_boolean_error(self.source, col, roles["problem"], row, self.threshold, at)

    def _check_duplicates(self, g: dict[str, np.ndarray], int_attempt: bool, pooled: bool = True) -> None:
        col = self.columns.roles["attempt"]
        suspicious = True
        if int_attempt:
            # Fingerprint F = XOR of hash(id) over a group's rows. A multiset of n ids whose
            # per-value parities equal those of the run 0..n-1 (or 1..n) *is* that run (n odd
            # multiplicities over n values are all 1), so any other multiset differs in parity
            # on some nonempty set S of values, and matches the run's F only if XOR_{v in S}
            # hash(v) = 0: for DuckDB's 64-bit integer hash (a multiply-xorshift mixer) a chance
            # of about 2**-64 per group, not a structural blind spot like equal power sums
            # (the previous check let {0,0,3,4,4,5,5} pass as 0..6). NULL or out-of-range ids
            # drop out of F and always mismatch. Any mismatch runs the exact query below.
            suspicious = not runs_of_ids(self._src, g["n"], g["a_fp"])
            self._contiguous = not suspicious
        if not suspicious:
            return
        # missing attempt ids (they also break the range check above): NULL, and a float NaN, as read_answers and
        # tau2's trials have it (as a label, one NaN was the attempt 'nan' and two a duplicate 'attempt nan')
        kind = self._types[col]
        row, at = self._first_row(is_missing(col, kind) + (f" OR {json_nan(quote(col))}" if kind == "JSON" else ""))
        if row:
            raise missing_value_error(self.source, "attempt", col, row, at)
        dup = self._run(
            "SELECT model, CAST(problem AS VARCHAR) AS problem, CAST(attempt AS VARCHAR) AS attempt, count(*) AS k "
            "FROM samples GROUP BY model, problem, attempt HAVING count(*) > 1 LIMIT 1"
        )
        if dup["k"].size:
            model = dup["model"][0] if self.columns.get("model") is not None else None
            at = self._rows_of(dup["model"][0], dup["problem"][0], dup["attempt"][0])
            if (inexact := inexact_attempt_error(self.source, col, kind, dup["attempt"][0], at)) is not None:
                raise inexact
            raise duplicate_attempt_error(self.source, dup["problem"][0], model, dup["attempt"][0], int(dup["k"][0]),
                                          at, pooled)

    def _rows_of(self, model: str, problem: str, attempt: str) -> str:
        """Where the first two samples of (``model``, ``problem``, ``attempt``) are in the input (:func:`located`;
        the error path of a duplicate attempt)."""
        return first_two_located(self._src, self._run, "samples", (
            ("model", model), ("CAST(problem AS VARCHAR)", problem), ("CAST(attempt AS VARCHAR)", attempt)))

    def _count_value(self, role: str) -> tuple[str, str]:
        """A count column as SQL: its value as a DOUBLE, NULL where it is not a number, and whether its text has a
        nonzero fraction (a whole-number check that a DOUBLE cannot make: 9007199254740993.5 and 10.0000000000000001
        round to whole DOUBLEs). Text must be spelled as a :data:`NUMBER` ('1_0', '0x10' are not counts; a CSV's
        count columns are read as text, :func:`build_samples`, so its sniffer cannot read '0x10' as 16 first).
        A JSON column (values of mixed types) casts true/false to 1/0; those are booleans, not counts, so they are
        NULL here (and reported as not integers) like any other non-number. A JSON null is missing
        (:func:`json_value`). Columns of other types (dates, durations, lists, blobs) hold no counts."""
        col = self.columns.roles[role]
        kind = self._types[col].upper()
        q = json_value(col, kind)
        if _is_num(kind):
            return f"TRY_CAST({q} AS DOUBLE)", "FALSE"
        if kind not in ("VARCHAR", "JSON") and not kind.startswith("ENUM"):
            return "NULL::DOUBLE", "FALSE"
        text = f"lower(trim(CAST({json_unwrapped(col, kind)} AS VARCHAR), ' \t\r\n'))"
        value = number_text(text)
        if kind == "JSON":
            value = f"CASE WHEN json_type({q}) = 'BOOLEAN' THEN NULL ELSE {value} END"
        return value, f"coalesce(regexp_matches({text}, '\\.[0-9]*[1-9]') AND NOT contains({text}, 'e'), FALSE)"

    def _counts_from_counts(self, models: Sequence[str] | None = None) -> Counts:
        r = self.columns.roles
        for name in ("n", "c"):
            if self._types[r[name]].upper() == "BOOLEAN":
                raise PasscurveError(
                    f"{self.source}: read as per-problem counts, but column {r[name]!r} (`{name}`) holds booleans; "
                    f"for one sample per row name it the correctness column "
                    f"({column_hint('correct', self.columns.options, r[name])})"
                )
        n_q, c_q = json_value(r["n"], self._types[r["n"]]), json_value(r["c"], self._types[r["c"]])
        (n_v, n_frac), (c_v, c_frac) = self._count_value("n"), self._count_value("c")
        sql = (
            f"SELECT {self._model_expr()} AS model, CAST({self._text('problem')} AS VARCHAR) AS problem, "
            f"CAST({n_q} AS VARCHAR) AS n_raw, CAST({c_q} AS VARCHAR) AS c_raw, "
            f"{n_v} AS n, {c_v} AS c, {n_frac} AS n_frac, {c_frac} AS c_frac FROM src"
        )
        g = self._run(sql, table="src")
        if g["n"].size == 0:
            raise no_rows_error(self.source)
        model = np.asarray(g["model"], dtype=object)
        problem = np.asarray(g["problem"], dtype=object)
        vals = {}
        for name in ("n", "c"):
            raw = np.asarray(g[f"{name}_raw"], dtype=object)
            v = np.ma.filled(np.ma.asarray(g[name]).astype(np.float64), np.nan)
            col = r[name]
            bad_type = np.flatnonzero(np.isnan(v) & (raw != None) & (raw != "nan") & (raw != "NaN"))  # noqa: E711
            if bad_type.size:
                i = bad_type[0]
                if str(problem[i]) == r["problem"] and str(raw[i]).strip().lower() == col.lower():
                    # as a per-sample log's (not_boolean_error): "row 8 (problem 'problem_id') has n='n'" before
                    raise PasscurveError(
                        f"{self.source}: data row {i + 1} repeats the header (files joined with their headers?): "
                        f"problem {problem[i]!r}, {name}={raw[i]!r}; remove the repeated header lines"
                    )
                raise PasscurveError(
                    f"{self.source}: column {col!r} (`{name}`) must hold integers; row {i + 1} "
                    f"(problem {problem[i]!r}) has {name}={raw[i]!r}"
                )
            nan = np.flatnonzero(np.isnan(v))
            if nan.size:
                i = nan[0]
                raise PasscurveError(
                    f"{self.source}: column {col!r} (`{name}`) has a missing value (NaN/empty) in row {i + 1} "
                    f"(problem {problem[i]!r})"
                )
            frac = np.flatnonzero((v != np.floor(v)) | np.asarray(g[f"{name}_frac"], dtype=bool))
            if frac.size:
                i = frac[0]
                raise PasscurveError(
                    f"{self.source}: column {col!r} (`{name}`) must hold whole numbers; row {i + 1} "
                    f"(problem {problem[i]!r}) has {name}={raw[i]}"
                )
            neg = np.flatnonzero(v < 0)
            if neg.size:
                i = neg[0]
                raise PasscurveError(
                    f"{self.source}: `{name}` must be >= 0; row {i + 1} (problem {problem[i]!r}) has {name}={raw[i]}"
                )
            # beyond exact integers in float64 (and far beyond any log). 2**53 itself is refused: 2**53 + 1 rounds to it
            big = np.flatnonzero(v >= 2.0**53)
            if big.size:
                i = big[0]
                raise PasscurveError(
                    f"{self.source}: `{name}` is too large (max 2**53 - 1); row {i + 1} (problem {problem[i]!r}) "
                    f"has {name}={raw[i]}"
                )
            vals[name] = v
        n, c = vals["n"], vals["c"]
        zero = np.flatnonzero(n < 1)
        if zero.size:
            i = zero[0]
            raise PasscurveError(
                f"{self.source}: `n` must be >= 1 (a problem needs at least one sample); row {i + 1} "
                f"(problem {problem[i]!r}) has n={g['n_raw'][i]}"
            )
        over = np.flatnonzero(c > n)
        if over.size:
            i = over[0]
            raise PasscurveError(
                f"{self.source}: `c` must be <= n; row {i + 1} (problem {problem[i]!r}) has "
                f"c={g['c_raw'][i]} > n={g['n_raw'][i]}"
            )
        if (problem == None).any():  # noqa: E711
            i = int(np.flatnonzero(problem == None)[0])  # noqa: E711
            raise PasscurveError(f"{self.source}: problem-id column {r['problem']!r} is empty in row {i + 1}")
        if (model == None).any():  # noqa: E711
            i = int(np.flatnonzero(model == None)[0])  # noqa: E711
            raise PasscurveError(f"{self.source}: model column {r['model']!r} is empty in row {i + 1}")
        check_ids(self.source, self.columns.roles, model, problem, self._src)
        keys = np.char.add(np.char.add(model.astype(str), "\x1f"), problem.astype(str))
        _, first, cnt = np.unique(keys, return_index=True, return_counts=True)
        if (cnt > 1).any():
            i = int(first[np.flatnonzero(cnt > 1)[0]])
            dup_rows = np.flatnonzero(keys == keys[i])[:2] + 1
            raise PasscurveError(
                f"{self.source}: duplicate (model, problem) rows: problem {problem[i]!r} of model {model[i]!r} "
                f"appears in rows {dup_rows[0]} and {dup_rows[1]}; each (model, problem) must appear once"
            )
        # each model's problems in the order of the samples path (problem ids as text), so that the same counts give
        # the same seeded bootstraps, thinnings and forecasts whatever the file's row order (a counts CSV and the
        # per-sample log it was made from agree to the last digit). Models keep the order in which the file first
        # names them (only their display order: each model's random stream does not depend on the others). Rows
        # were validated above in file order, so messages name the file's row numbers.
        _, first_row, model_code = np.unique(model.astype(str), return_index=True, return_inverse=True)
        appearance = np.argsort(np.argsort(first_row))  # rank of each distinct model by its first row
        order = np.lexsort((problem.astype(str), appearance[model_code]))
        model, problem = model[order], problem[order]
        n_i, c_i = n[order].astype(np.int64), c[order].astype(np.int64)
        meta = self._meta()
        meta["stopping_time"] = stopping_time_evidence(model, n_i, c_i, None, self.source, models=models)
        return Counts.from_arrays(n_i, c_i, problem=problem, model=model, source=self.source, meta=meta)

    def _meta(self) -> dict[str, Any]:
        meta: dict[str, Any] = {
            "reader": self.reader,
            "layout": self.layout,
            "columns": dict(self.columns.roles),
            "column_detection": dict(self.columns.detected),
            "threshold": self.threshold if self.layout == "samples" else None,  # counts have no scores to compare
            "default_model": None if self.columns.get("model") else self._src.default_model,
        }
        if self.layout == "samples":
            meta["attempts_contiguous"] = getattr(self, "_contiguous", None)
        meta.update(self._src.notes)
        return meta

    def __repr__(self) -> str:
        return f"Samples({self.source!r}, reader={self.reader!r}, layout={self.layout!r}, columns={self.columns.roles})"


def _raise_non_record(src: Source) -> None:
    """A JSON(L) input of records with one value that is not a record (an array, a number, a string on a line of
    its own) reads as a single column ``json``; name that value's row, if some other row is a record. A JSONL file
    none of whose lines is a record (every line an array) named no line: its first line is named."""
    if src.columns != ["json"]:
        return
    if src.types.get("json", "").upper() != "JSON":
        _raise_first_line_not_a_record(src)
        return
    try:
        hit = src.query(
            "SELECT i, t, v FROM (SELECT row_number() OVER () AS i, json_type(json) AS t, CAST(json AS VARCHAR) AS v, "
            "count(*) FILTER (WHERE json_type(json) = 'OBJECT') OVER () AS records FROM src) "
            "WHERE records > 0 AND t <> 'OBJECT' ORDER BY i LIMIT 1"
        ).fetchall()
    except duckdb.Error:
        return
    if hit:
        i, kind, text = hit[0]
        kind = {"ARRAY": "an array", "VARCHAR": "a string", "BOOLEAN": "a boolean", "NULL": "null"}.get(
            str(kind), "a number")
        shown = text if len(text) <= 40 else text[:37] + "..."
        # where it is (:func:`located`): a JSONL file's line (blank lines counted), a JSON array's record
        at = located(src, [int(i)])
        where, each = (f"element {i} of the array", "each element") if at.startswith(" at record") else (
            (at.removeprefix(" at "), "each line") if at.startswith(" at line ") else (f"row {i}", "each row (line)"))
        raise PasscurveError(f"{src.name}: {where} is {kind} ({shown}), not a record; {each} must be one JSON object")


def _raise_first_line_not_a_record(src: Source) -> None:
    """A JSONL file whose first non-blank line is valid JSON but not an object (an array of values on every line:
    DuckDB reads a single column ``json`` typed JSON[], and the error was "found no columns"): name that line."""
    if src.text_format != "jsonl" or src.text_path is None:
        return
    import json

    with open(src.text_path, encoding="utf-8", errors="replace") as fh:
        first = next(((i, ln) for i, ln in enumerate(fh, start=1) if ln.strip()), None)
    if first is None:
        return
    no, line = first
    try:
        value = json.loads(line)
    except ValueError:
        return
    if isinstance(value, dict):
        return
    kind = ("an array" if isinstance(value, list) else "a string" if isinstance(value, str) else
            "a boolean" if isinstance(value, bool) else "null" if value is None else "a number")
    text = line.strip()
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise PasscurveError(f"{src.name}: line {no} is {kind} ({shown}), not a record; each line must be one JSON object")


def build_samples(
    src: Source,
    overrides: dict[str, str | None],
    threshold: float | None,
    options: dict[str, str] | None = None,
    *,
    threshold_anywhere: bool = False,
) -> Samples:
    """Resolve columns on ``src`` and wrap it as :class:`Samples`; ``options``: the caller's keyword per column role
    when it is not the reader's (``counts_from_frame``'s ``problem=``, ...), which the messages then name.

    A ``threshold`` given for counts (layout ``counts``) is refused (:func:`threshold_on_counts_error`), unless
    ``threshold_anywhere``: one of several files read with one threshold (``read_counts``), which applies it to the
    files that have scores and refuses it only when none has (:func:`passcurve.data._read.read_counts`)."""
    given = None if threshold is None else check_threshold(threshold)  # the user's, not the reader's (tau-bench's)
    threshold = given if given is not None else src.threshold
    cols = src.columns
    if len(cols) == 1 and cols[0] in ("column0", "json"):
        _raise_non_record(src)
        raise PasscurveError(f"{src.name}: found no columns (is the file empty or not a table?)")
    overrides = {**overrides, "correct": src.verdict_column(overrides.get("correct"))}
    # a given name the header repeats: the one column written exactly so ('correct' of a header 'Correct,correct',
    # which DuckDB reads as 'correct_1'), else ambiguous; it had read the first ('Correct') without a word
    overrides = {r: _given_repeat(src, r, v) for r, v in overrides.items()}
    try:
        cmap = resolve_columns(cols, overrides, source=src.name, hints=src.hints, options=options)
    except PasscurveError as exc:
        tried = src.notes.get("formats_tried")
        # JSON saved as .csv reads as a CSV of one column (its first line the header): say what it looks like
        first = (_harness._first_char(src.text_path) if src.text_format == "csv" and src.text_path is not None else "")
        looks_json = first in ("[", "{")
        if tried or looks_json:
            said = f"formats tried: {', '.join(tried)}; " if tried else ""
            fix = f"the file begins with {first!r}, as JSON does: force `format` json" if looks_json else \
                "force one with `format`"
            raise type(exc)(f"{exc} ({said}{fix})") from None
        raise
    _harness.check_forced(src, cmap.get("model"))
    if given is not None and cmap.layout == "counts" and not threshold_anywhere:
        raise threshold_on_counts_error(src.name, float(given), cmap.roles["n"], cmap.roles["c"])
    # identifiers as text (1.1 and 1.10 stay two problems); a counts file's n and c too, so that their spelling is
    # checked (:meth:`Samples._count_value`) before DuckDB's CSV sniffer reads '0x10' as 16. A boolean count column
    # keeps its type, for the error that says how to read the file one sample per row.
    counts = [c for c in (cmap.get("n"), cmap.get("c")) if c is not None and src.types.get(c) != "BOOLEAN"]
    # a correctness column sniffed as integers, too: the sniffer types a column from its first rows, and a later
    # '0.4' in a column typed BIGINT was rounded to 0 (0.7 to 1, correct under a threshold of 0.8) without a word.
    # (A column sniffed as DOUBLE keeps a later value as written.) And a JSONL column sniffed as BOOLEAN: a JSON 0.5
    # or 2 after the sniffed rows of true/false was cast to true without a word, and a later "passed" or "1.0"
    # stopped the read with DuckDB's "Failed to cast value to numerical" (10^6 rows: 0.53 s of CPU against 0.62 s
    # before, no dearer). A CSV's BOOLEAN column stays: reading it as text cost +25% (0.61 s against 0.49 s), and a
    # later value DuckDB's BOOLEAN refuses (a valid "passed" too) has it read as text then (Samples._correct_as_text).
    correct = cmap.get("correct")
    kind = src.types.get(correct, "") if correct is not None else ""
    if correct is not None and (_is_int(kind) or (kind == "BOOLEAN" and src.reader == "jsonl")):
        counts.append(correct)
    as_text(src, [c for c in (cmap.get("problem"), cmap.get("model")) if c is not None] + counts)
    for role, col in cmap.roles.items():
        written = src.repeated.get(col)
        if written is not None and (cmap.detected.get(role) != "override" or src.reader == "jsonl"):
            raise _repeat_error(src, role, written)  # a JSONL copy given by its read name ('correct_1') too
    return Samples(src, cmap, threshold, threshold_given=given is not None)


def _repeat_error(src: Source, role: str, written: str) -> PasscurveError:
    same = [c for c, w in src.repeated.items() if w.lower() == written.lower()]
    if src.reader == "jsonl":  # keys: DuckDB matches them case-insensitively, so no copy reads as written
        keys = sorted({src.repeated[c] for c in same})
        return PasscurveError(
            f"{src.name}: the keys {', '.join(map(repr, keys))} differ only in case, which the JSON reader cannot "
            f"tell apart (read as {', '.join(map(repr, same))}), so which one holds the {ROLE_NAMES[role]} is "
            "ambiguous; rename or drop the others"
        )
    return PasscurveError(
        f"{src.name}: the column name {written!r} appears {len(same)} times (read as "
        f"{', '.join(map(repr, same))}), so which one holds the {ROLE_NAMES[role]} is ambiguous; rename or "
        "drop the others"
    )


def _given_repeat(src: Source, role: str, name: Any) -> Any:
    """The column a given ``name`` means when the header repeats it (:attr:`Source.repeated`): the one column written
    exactly ``name``, else the copy DuckDB reads by that name ('n' and 'n_1' of a header 'n,n'); a name that matches
    the copies only in another case is ambiguous. Any other name as given."""
    if not isinstance(name, str):
        return name
    same = [c for c, w in src.repeated.items() if w.lower() == name.lower()]
    if same and src.reader == "jsonl":  # a JSONL file's keys: even the one written so is not read as written
        raise _repeat_error(src, role, name)
    exact = [c for c in same if src.repeated[c] == name]
    if len(exact) == 1:
        return exact[0]
    if not same or name in src.repeated:
        return name
    raise _repeat_error(src, role, name)


# ---------------------------------------------------------------------- stopping time
def stopping_time_evidence(
    model: np.ndarray, n: np.ndarray, c: np.ndarray, last_correct: np.ndarray | None, source: str,
    *, models: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Evidence, per model, that n was a stopping time (sampling stopped at a success).

    With n fixed in advance, n is the same for every problem (or varies for reasons
    unrelated to success), and the last attempt of a problem is correct with probability
    c/n. Under "sample until the first success" (or "until a batch with a success"),
    problems with fewer than the maximum n are nearly all solved, those at the cap are
    mostly unsolved, and the last attempt is correct far more often than c/n.

    ``models``: only these models' rows (the reader's ``models=``, the CLI's ``--models``), so that the evidence
    and the warning name no model the user left out.
    """
    if models is not None:
        keep = models_mask(model, models)
        model, n, c = model[keep], n[keep], c[keep]
        last_correct = None if last_correct is None else last_correct[keep]
    out: dict[str, Any] = {"looks_like_stopping_time": False, "models": {}}
    names = np.unique(model.astype(str))
    flagged = []
    for m in names:
        sel = model.astype(str) == m
        nm, cm = n[sel], c[sel]
        ev: dict[str, Any] = {
            "n_varies": bool(nm.min() != nm.max()),
            "n_min": int(nm.min()),
            "n_max": int(nm.max()),
        }
        short = nm < nm.max()
        ev["rows_below_max_n"] = int(short.sum())
        if short.any():
            ev["frac_below_max_n_solved"] = float((cm[short] >= 1).mean())
            ev["frac_at_max_n_solved"] = float((cm[~short] >= 1).mean())
        solved = cm >= 1
        if last_correct is not None and solved.any():
            lc = np.asarray([bool(v) if v is not None else False for v in last_correct[sel]])
            ev["frac_solved_ending_with_success"] = float(lc[solved].mean())
            ev["expected_if_fixed_n"] = float((cm[solved] / nm[solved]).mean())
        step = math.gcd(*(int(v) for v in nm))
        ev["n_common_step"] = step
        if short.any():  # the batch when the largest n is a cap that cut a batch short (then the gcd of all n is not)
            ev["n_step_below_max"] = math.gcd(*(int(v) for v in nm[short]))
        ev["n_distinct"] = int(np.unique(nm).size)
        looks = False
        if ev["n_varies"] and ev["rows_below_max_n"] >= 5:
            below, at_max = ev["frac_below_max_n_solved"], ev["frac_at_max_n_solved"]
            # stopped at a success: short runs are solved, runs at the cap mostly not ...
            looks = below >= 0.9 and below >= at_max + 0.3
            # ... or every run is solved and n moves in whole batches (n = multiples of a batch size)
            looks = looks or (below >= 0.9 and step > 1 and ev["n_distinct"] >= 3)
        if (
            ev["n_varies"]
            and "frac_solved_ending_with_success" in ev
            and int(solved.sum()) >= 5
            and ev["frac_solved_ending_with_success"] >= 0.8
            and ev["frac_solved_ending_with_success"] >= 3 * ev["expected_if_fixed_n"]
        ):
            looks = True
        ev["looks_like_stopping_time"] = looks
        out["models"][str(m)] = ev
        if looks:
            flagged.append(str(m))
    if flagged:
        out["looks_like_stopping_time"] = True
        out["flagged_models"] = flagged
        warn_stopping_time(source, out, stacklevel=5)
    return out


def warn_stopping_time(source: str, evidence: dict[str, Any], keep: Sequence[str] | None = None, *,
                       stacklevel: int = 2) -> None:
    """The :class:`StoppingTimeWarning` for ``evidence`` (:func:`stopping_time_evidence`'s result) read from
    ``source``, about its flagged models (those in ``keep`` only, when given); nothing when none is flagged."""
    flagged = [m for m in evidence.get("flagged_models", []) if keep is None or m in keep]
    design = stopping_design(evidence, keep)
    if not flagged or design is None:
        return
    b, cap = (design[0] or "B"), design[1]
    warnings.warn(
        f"{source}: n looks like a stopping time for {len(flagged)} model(s) ({', '.join(flagged)}): sampling seems to stop at a success, so n was not fixed "
        f"in advance and unbiased pass@k does not apply as is; if sampling stopped at the first batch of {b} samples "
        f"with a success, at most {cap} samples (the largest n), `--stop-batch {b} --cap {cap}` "
        f"(passcurve curve, compare, rank, fit, forecast, backtest, report), or design=StopAtSuccess({b}, cap={cap}) "
        "in Python, estimates pass@k without bias (the evidence per model: Counts.meta['stopping_time'] in Python)",
        StoppingTimeWarning,
        stacklevel=stacklevel,
    )


# ---------------------------------------------------------------------- progress
def _with_progress(src: Source, sql: str, progress: ProgressFn) -> dict[str, np.ndarray]:
    """Run ``sql`` in a worker thread while polling DuckDB's query progress (0..100)."""
    con = src.con
    assert con is not None
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["value"] = src.query(sql).fetchnumpy()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            result["error"] = exc

    t = threading.Thread(target=work, daemon=True)
    t.start()
    while t.is_alive():
        t.join(0.1)
        try:
            p = float(con.query_progress())
        except Exception:  # noqa: BLE001 - progress is best-effort
            p = -1.0
        if p >= 0:
            progress(min(p, 100.0))
    time.sleep(0)
    if "error" in result:
        raise result["error"]
    progress(100.0)
    return result["value"]
