"""Harness adapters: each turns one harness's log into the same DuckDB relation of raw rows.

An adapter only *recognises* a layout (from column names or top-level JSON keys) and
writes a SQL projection to the columns of each role (problem, model, attempt, verdict, answer), handed on as
hints; the verdict column keeps the log's own name for it (an lm_eval or lighteval metric, an inspect scorer),
which the user's ``correct_col`` chooses when the log has several. The shared mechanism in ``_samples`` then
maps, validates and aggregates exactly as for any CSV/JSONL/Parquet file. Schemas follow each harness's public documentation:

* human-eval ``*_results.jsonl``: one line per sample, ``task_id``, ``completion``,
  ``result`` ("passed" / "failed: ..." / "timed out"), ``passed`` (bool).
* evalplus ``eval_results.json``: ``{"eval": {task_id: [{"base_status", "plus_status", ...}, ...]}}``,
  one list entry per sample; correct = base_status == plus_status == "pass" (evalplus's rule for base + extra
  tests), or base_status == "pass" in a base-only run (no plus_status).
* lm-evaluation-harness ``samples_<task>_<date>.jsonl`` (``--log_samples``): one line per
  document and filter: ``doc_id``, ``doc``, ``target``, ``resps``, ``filtered_resps``,
  ``filter``, ``metrics`` (names) and one top-level value per metric (e.g. ``exact_match``).
* lighteval details parquet (``details_<task>_<date>.parquet``): newer versions have
  struct columns ``doc`` (query, id, ...), ``model_response`` and ``metric`` (name -> value);
  older ones ``example``, ``predictions``, ``metrics`` (name -> value), ``hashes``.
* inspect_ai logs: ``.json`` (``{"eval": {"model": ...}, "samples": [{"id", "epoch",
  "scores": {scorer: {"value", "answer"}}}]}``) and ``.eval`` (a zip with ``header.json``,
  ``summaries.json`` and ``samples/<id>_epoch_<n>.json``). Epochs are samples. Score
  values "C"/"I"/"P"/"N" map to 1/0/0.5/0; numbers and booleans pass through. A sample that errored has
  an ``error`` and no scores: refused, naming it (:func:`_check_scored`).
* tau-bench results: a JSON array of ``{"task_id", "reward", "trial", "info", "traj"}``;
  tau2-bench: ``{"simulations": [{"task_id", "trial", "reward_info": {"reward"}}]}``.
  A trial succeeds when reward >= 1 - 1e-6 (tau-bench's own pass^k criterion).
"""

from __future__ import annotations

import json
import re
import tempfile
import warnings
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb

from .._errors import DroppedProblemsWarning, InputFormatError, PasscurveError
from ._columns import is_nan, json_nan, json_text, number_text
from ._source import (
    LM_EVAL_NAME,
    ROW,
    UTF8_BOM,
    Source,
    _generic,
    _sql_str,
    duck_error,
    first_row,
    located,
    nested_value,
    numbered,
)

__all__ = ["ADAPTERS", "adapt", "open_harness", "open_json"]

TAU_THRESHOLD = 1 - 1e-6
ADAPTERS = ("humaneval", "evalplus", "lm_eval", "lighteval", "inspect", "tau_bench")
# lm-eval metric columns worth reading as correctness, in preference order
LM_EVAL_METRICS = ("exact_match", "acc", "pass@1", "pass_at_1", "correct", "em", "f1", "acc_norm")


def _inspect_value(v: str) -> str:
    """SQL turning an inspect score value (JSON) into a DOUBLE (C/I/P/N, bool, number)."""
    s = f"({v}->>'$')"
    return (
        f"CASE json_type({v}) "
        f"WHEN 'VARCHAR' THEN CASE upper({s}) WHEN 'C' THEN 1.0 WHEN 'I' THEN 0.0 WHEN 'P' THEN 0.5 "
        f"WHEN 'N' THEN 0.0 ELSE {number_text(f'lower(trim({s}))')} END "
        f"WHEN 'BOOLEAN' THEN CASE WHEN {s} = 'true' THEN 1.0 ELSE 0.0 END "
        f"WHEN 'BIGINT' THEN {s}::DOUBLE WHEN 'UBIGINT' THEN {s}::DOUBLE WHEN 'DOUBLE' THEN {s}::DOUBLE "
        # a multi-metric scorer's value is a dict such as {"acc": 1, "f1": 0.5}: no single verdict to read
        f"WHEN 'OBJECT' THEN error('a score value is a dict of metrics (' || {s} || '), not one verdict per "
        f"sample; export the metric to use as a column of a CSV/JSONL log')::DOUBLE "
        f"ELSE NULL END"
    )


def _cols(rel: duckdb.DuckDBPyRelation) -> set[str]:
    return {c.lower() for c in rel.columns}


# ---------------------------------------------------------------------- detection on generic relations
def _looks_lm_eval(cols: set[str]) -> bool:
    return "doc_id" in cols and ("resps" in cols or "filtered_resps" in cols) and "metrics" in cols


def _looks_humaneval(cols: set[str]) -> bool:
    return "task_id" in cols and "completion" in cols and ("passed" in cols or "result" in cols)


def _looks_lighteval(cols: set[str]) -> bool:
    return ("doc" in cols and "metric" in cols and "model_response" in cols) or (
        "metrics" in cols and ("example" in cols or "full_prompt" in cols) and "predictions" in cols
    )


def _looks_tau(cols: set[str]) -> bool:
    """Enough for ``--format tau_bench``: the task, the reward and a trial or trajectory."""
    return "task_id" in cols and "reward" in cols and ("trial" in cols or "traj" in cols)


def _looks_tau_auto(cols: set[str]) -> bool:
    """Enough to apply tau-bench's success threshold unasked: its own ``traj`` or ``info`` field too.

    ``task_id``, ``reward`` and ``trial`` alone are common in generic RL rollout logs, whose partial
    rewards must not silently become failures (they get the usual "pass `threshold`" error instead).
    """
    return _looks_tau(cols) and ("traj" in cols or "info" in cols)


def adapt(src: Source, p: Path, correct_col: str | None = None) -> Source:
    """Hand a generic relation to the harness adapter its columns match (or return it unchanged).

    ``correct_col`` (the user's ``--correct-col``) names the metric (lm_eval, lighteval) to read as the verdict."""
    cols = _cols(src.relation)
    tried = [src.reader, "humaneval", "lm_eval", "lighteval", "tau_bench"]
    if _looks_lm_eval(cols):
        return _lm_eval(src, p, correct_col)
    if _looks_lighteval(cols):
        return _lighteval(src, p, correct_col)
    if _looks_humaneval(cols):
        return _humaneval(src)
    if _looks_tau_auto(cols):
        return _tau_from_relation(src)
    src.notes["formats_tried"] = tried
    return src


def note_forced(src: Source) -> None:
    """A harness log forced to a generic format (``--format jsonl``): note what its adapter would have handled.

    An lm_eval samples log has one row per document *and filter* (strict-match, flexible-extract): read as plain
    rows, the filters' rows would count as more samples of one problem. :func:`check_forced` refuses that."""
    cols = {c.lower(): c for c in src.columns}
    if not (_looks_lm_eval(set(cols)) and "filter" in cols):
        return
    try:
        filters = [str(r[0]) for r in src.query(
            f"SELECT DISTINCT CAST({_q(cols['filter'])} AS VARCHAR) AS f FROM src ORDER BY f").fetchall()]
    except duckdb.Error:  # the read proper reports a damaged file
        return
    if len(filters) > 1:
        src.notes["lm_eval_filters"] = (cols["filter"], filters)


def check_forced(src: Source, model_col: str | None) -> None:
    """Refuse an lm_eval log with several filters read as generic rows, unless the filter is the model column."""
    noted = src.notes.get("lm_eval_filters")
    if noted is None or model_col == noted[0]:
        return
    col, filters = noted
    raise InputFormatError(
        f"{src.name} is an lm_eval samples log with {len(filters)} filters ({', '.join(filters)}) read as "
        f"{src.reader}: each document's row per filter would count as one more sample of the same problem; read it "
        f"with format=lm_eval (one model per filter), or give the filter as the model: model_col={col}"
    )


def open_harness(
    con: duckdb.DuckDBPyConnection, p: Path, fmt: str, stem: str, *, forced: bool = True,
    correct_col: str | None = None,
) -> Source:
    """Open ``p`` with the adapter ``fmt`` (given by the user or by the extension); ``correct_col`` as in
    :func:`adapt` (and the inspect scorer)."""
    if fmt == "inspect":
        if zipfile.is_zipfile(p) or _first_bytes(p).startswith(_ZIP_MAGIC):  # a zip cut short is no JSON log
            return _inspect_eval(con, p, stem, correct_col)
        return _inspect_json(con, p, stem, correct_col)
    if fmt == "evalplus":
        return _evalplus(con, p, stem)
    not_tau2 = None
    if fmt == "tau_bench" and _first_char(p) == "{":
        try:
            return _tau2(con, p, stem)
        except InputFormatError as exc:  # JSONL rows start with "{" too: tau-bench's rows (task_id, reward, trial)
            not_tau2 = exc
    base_fmt = (
        "parquet" if _first_bytes(p).startswith(b"PAR1") else ("json" if _first_char(p) == "[" else "jsonl")
    )
    try:
        rel = _json_array(con, p, fmt) if base_fmt == "json" else _generic(con, p, base_fmt)
    except InputFormatError:
        if not_tau2 is not None:
            raise not_tau2 from None
        raise
    src = Source(rel, con, p.name, stem, base_fmt)
    if base_fmt == "jsonl":
        src.text_path, src.text_format = p, base_fmt
    elif base_fmt == "json":  # its rows are the array's records, in order (data._source.located)
        src.text_format = "json_array"
    cols = _cols(rel)
    checks = {
        "humaneval": (_looks_humaneval, _humaneval, "task_id, completion and passed/result"),
        "lm_eval": (_looks_lm_eval, lambda s: _lm_eval(s, p, correct_col), "doc_id, resps/filtered_resps and metrics"),
        "lighteval": (_looks_lighteval, lambda s: _lighteval(s, p, correct_col), "doc, model_response and metric"),
        "tau_bench": (_looks_tau, _tau_from_relation, "task_id, reward and trial"),
    }
    looks, build, expected = checks[fmt]
    if not looks(cols) and not_tau2 is not None:  # neither tau2's document nor tau-bench's rows: tau2's message
        raise not_tau2
    if not looks(cols):
        raise InputFormatError(
            f"{p.name} is not a {fmt} log (read as {base_fmt}; expected columns {expected}); "
            f"columns found: {', '.join(rel.columns)}"
        )
    return build(src)


_ZIP_MAGIC = b"PK\x03\x04"  # a zip's first member header


def _first_bytes(p: Path, k: int = 4096) -> bytes:
    with open(p, "rb") as fh:
        return fh.read(k)


def _first_char(p: Path) -> str:
    """The first character of ``p`` that is not whitespace, after a UTF-8 byte order mark (which Windows tools write
    and DuckDB's JSON reader skips): "not JSON (first character 'ï')" was said of a JSON array beginning with one."""
    head = _first_bytes(p).removeprefix(UTF8_BOM).lstrip()
    return chr(head[0]) if head else ""


def _json_array(con: duckdb.DuckDBPyConnection, p: Path, reader: str) -> duckdb.DuckDBPyRelation:
    try:
        rel = con.sql(
            f"SELECT * FROM read_json({_sql_str(str(p))}, format = 'array', maximum_object_size = 1073741824)"
        )
        rel.columns  # noqa: B018 - bind now
    except duckdb.Error as exc:
        raise _bad_document(con, p, reader) or duck_error(exc, p.name, reader) from None
    return rel


def open_json(
    con: duckdb.DuckDBPyConnection, p: Path, stem: str, *, forced: bool, correct_col: str | None = None
) -> Source:
    """A ``.json`` file: array of records, inspect log, evalplus results, tau2 results, or JSONL."""
    head = _first_char(p)
    if head == "[":
        src = Source(_json_array(con, p, "json"), con, p.name, stem, "json", text_format="json_array")
        return src if forced else adapt(src, p, correct_col)
    if head != "{":
        raise InputFormatError(f"{p.name}: not JSON (first character {head!r}); tried json, jsonl")
    try:
        keys_rows = con.sql(
            f"SELECT json_keys(content) FROM read_text({_sql_str(str(p))}) WHERE json_valid(content)"
        ).fetchall()
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, "json") from None
    if keys_rows:
        keys = set(keys_rows[0][0] or [])
        if not forced:
            if "eval" in keys and "samples" in keys:
                return _inspect_json(con, p, stem, correct_col)
            if "eval" in keys and ("hash" in keys or "date" in keys):
                return _evalplus(con, p, stem)
            if "simulations" in keys:
                return _tau2(con, p, stem)
            if "results" in keys and ("versions" in keys or "configs" in keys):
                raise InputFormatError(
                    f"{p.name} is lm-evaluation-harness's aggregated results (keys results, versions, configs), not "
                    "per-sample verdicts: run lm_eval with --log_samples and read the samples_<task>_<date>.jsonl "
                    "files it writes beside it"
                )
        # a single JSON object that is none of those: one record (on one line; spread over lines, it is no table)
        try:
            rel = _generic(con, p, "jsonl")
        except InputFormatError:
            shown = ", ".join(sorted(keys)[:8]) + (", ..." if len(keys) > 8 else "")
            raise InputFormatError(
                f"{p.name} is one JSON object (keys {shown}) that fits no layout: expected an inspect log (\"eval\" "
                "and \"samples\"), evalplus results (\"eval\" with \"date\" or \"hash\"), tau2-bench results "
                "(\"simulations\"), or a table of samples (a JSON array of records, or one record per line)"
            ) from None
        if len(keys) and rel.columns:
            return Source(rel, con, p.name, stem, "json")
    # not one valid JSON document: newline-delimited JSON in a .json file
    try:
        rel = _generic(con, p, "jsonl")
    except InputFormatError:
        if not _first_line_is_json(p):  # no JSONL either (a document cut short): the document's own fault
            raise _bad_document(con, p, "json") or InputFormatError(f"{p.name}: not valid JSON") from None
        raise
    src = Source(rel, con, p.name, stem, "jsonl", text_path=p, text_format="jsonl")
    src.notes["formats_tried"] = ["json", "jsonl"]
    if forced:
        note_forced(src)
        return src
    return adapt(src, p, correct_col)


# ---------------------------------------------------------------------- adapters
def _humaneval(src: Source) -> Source:
    cols = {c.lower(): c for c in src.relation.columns}
    src.reader = "humaneval"
    # human-eval names its output "<samples file>_results.jsonl": the model is the samples file
    stem = src.default_model
    for suffix in ("_results", ".jsonl", ".json"):
        if stem.endswith(suffix) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
    src.default_model = stem
    src.hints = {"problem": cols["task_id"], "correct": cols.get("passed", cols.get("result", ""))}
    if "completion" in cols:
        src.hints["answer"] = cols["completion"]
    return src


def _chosen(given: str | None, present: list[str], kind: str, name: str) -> str | None:
    """The ``kind`` (an lm_eval metric, an inspect scorer) the user named with ``correct_col``, spelled as in the
    log (case-insensitively); None when none was named. An unknown name lists the ones the log has."""
    if given is None:
        return None
    if given in present:
        return given
    lower = {m.lower(): m for m in present}
    if given.lower() in lower:
        return lower[given.lower()]
    raise InputFormatError(
        f"{name}: no {kind} {given!r} (given as `correct_col`); {kind}s in this log: {', '.join(present) or '(none)'}"
    )


def _free(names: dict[str, str], taken: str) -> dict[str, str]:
    """The adapter's own column names (role -> name), none equal to ``taken`` (the verdict column, named as in the
    log), case-insensitively: DuckDB column names are."""
    return {r: (f"{n} (passcurve)" if n.lower() == taken.lower() else n) for r, n in names.items()}


def _not_a_list(kind: str) -> bool:
    """Whether a DuckDB column type holds one value per row (not a list, struct or map)."""
    return not (kind.endswith("]") or kind.startswith(("STRUCT", "MAP", "UNION")))


def _lm_eval(src: Source, p: Path, correct_col: str | None = None) -> Source:
    rel = src.relation
    cols = {c.lower(): c for c in rel.columns}
    try:
        first = src.query(f"SELECT {_q(cols['metrics'])} FROM src LIMIT 1").fetchall()
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, "lm_eval") from None
    # the metrics the log names (its rows' ``metrics`` list), then known metric fields it has: by their field names
    named = [cols[str(m).lower()] for m in (first[0][0] if first and first[0][0] else []) if str(m).lower() in cols]
    present = list(dict.fromkeys(named + [cols[m] for m in LM_EVAL_METRICS if m in cols]))
    kinds = src.types
    metric = _chosen(correct_col, present, "lm_eval metric", p.name)
    if metric is None:
        metric = next((m for m in present if _not_a_list(kinds[m])), None)
    if metric is None or not _not_a_list(kinds[metric]):
        if not present:
            raise InputFormatError(
                f"{p.name}: lm_eval samples log without a per-sample metric column (looked for the fields its "
                f"`metrics` lists and {', '.join(LM_EVAL_METRICS)}); columns found: {', '.join(rel.columns)}"
            )
        lists = [m for m in present if not _not_a_list(kinds[m])] if metric is None else [metric]
        shown = ", ".join(lists)
        try:
            example = src.query(f"SELECT CAST({_q(lists[0])} AS VARCHAR) FROM src LIMIT 1").fetchall()[0][0]
        except (duckdb.Error, IndexError):
            example = None
        per_sample = [m for m in present if _not_a_list(kinds[m])]
        several = len(lists) > 1
        raise InputFormatError(
            f"{p.name}: lm_eval metric{'s' if several else ''} {shown} {'are' if several else 'is'} not "
            f"{'per-sample verdicts' if several else 'a per-sample verdict'}: each value is a list"
            f"{f' (e.g. {example})' if example else ''} that lm-eval aggregates over the whole corpus (a perplexity, "
            "a corpus BLEU), so no sample passes or fails on it"
            + (f"; per-sample metrics in this log: {', '.join(per_sample)}" if per_sample else "")
        )
    base = p.parent.name if p.name.startswith("samples_") and p.parent.name else src.default_model
    model = _sql_str(base)
    if "filter" in cols:
        try:
            nf = src.query(f"SELECT count(DISTINCT {_q(cols['filter'])}) FROM src").fetchall()[0][0]
        except duckdb.Error as exc:
            raise duck_error(exc, p.name, "lm_eval") from None
        if nf > 1:  # one "model" per filter (e.g. strict-match vs flexible-extract)
            model = f"{model} || ' [' || {_filter_name(src, cols['filter'], cols['doc_id'], p)} || ']'"
    # the verdict keeps its field name (acc_norm, exact_match): messages and meta name the user's field
    own = _free({"model": "model", "problem": "doc_id", "answer": "answer"}, metric)
    answer = ""
    if "filtered_resps" in cols:
        answer = f", TRY_CAST({_q(cols['filtered_resps'])}[1] AS VARCHAR) AS {_q(own['answer'])}"
    sql = (
        f"SELECT {model} AS {_q(own['model'])}, {_q(cols['doc_id'])} AS {_q(own['problem'])}, "
        f"{_q(metric)}{answer} FROM src"
    )
    new = src.query(sql)
    out = Source(
        new,
        src.con,
        src.name,
        base,
        "lm_eval",
        hints={"problem": own["problem"], "correct": metric, "model": own["model"], "answer": own["answer"]},
    )
    out.notes["metric"] = metric
    out.text_path, out.text_format = src.text_path, src.text_format  # doc_id is the lines' own field (bare_nan)
    # the task, from the name lm-eval gives the log (samples_<task>_<date>.jsonl): its doc_ids number that task's
    # documents, so runs pool only within one task (read_counts' pool)
    task_name = LM_EVAL_NAME.fullmatch(p.name)
    if task_name:
        out.notes["task"] = task_name["task"]
    return out


def _filter_name(src: Source, col: str, doc: str, p: Path) -> str:
    """SQL: the name of an lm_eval row's filter (column ``col``), which names its model beside the others; a JSON
    column's strings without their quotes (filters of mixed types: a string beside a number or a list). A filter that
    is a list or an object is refused, naming its line and document (``doc``): it was one more model, and a list among
    strings had every model named with quotes ('m ["strict-match"]', 'm [["strict-match"]]'); so is a missing one
    (null), which was "model column 'model' has a missing value" of a log without that column."""
    kind = src.types[col].upper()
    q = _q(col)
    hit = nested_value(src, col) if kind == "JSON" or not _not_a_list(kind) else None
    where = f'"{ROW}" = {hit[0]}' if hit else f"{q} IS NULL" + (f" OR json_type({q}) = 'NULL'" if kind == "JSON" else "")
    try:
        row, at = first_row(src, where)
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, "lm_eval") from None
    if row:
        shown = _clipped(str(row.get(col)))
        what = f"holds {hit[1]}, not a filter name (a string), e.g. {shown}" if hit else "has a missing value"
        raise InputFormatError(f"{p.name}: lm_eval filter column {col!r} {what}{at} (document {row.get(doc)}); each "
                               "row's filter names its model")
    return json_text(q) if kind == "JSON" else f"CAST({q} AS VARCHAR)"


def lighteval_model(p: Path, default: str) -> str:
    """The model a lighteval details file names: lighteval writes ``<out>/details/<model>/<timestamp>/details_*.parquet``
    where ``<model>`` is the model's name as given, so a hub name ``org/model`` is two directories. The model is
    the path between a ``details`` directory and the timestamp's (``meta-llama/Llama-3.1-8B``: the org was dropped,
    so one model name under two orgs was one model); without a ``details`` directory two levels up, the timestamp's
    parent alone, as before; ``default`` (the file stem) for a file not named ``details_*``."""
    if not p.name.startswith("details_") or not p.parent.parent.name:
        return default
    model = p.parent.parent
    if model.parent.name != "details" and model.parent.parent.name == "details" and model.parent.name:
        return f"{model.parent.name}/{model.name}"
    return model.name


def _lighteval(src: Source, p: Path, correct_col: str | None = None) -> Source:
    rel = src.relation
    cols = {c.lower(): c for c in rel.columns}
    new_style = "metric" in cols and "doc" in cols
    mcol = cols["metric"] if new_style else cols["metrics"]
    try:
        fields = src.query(f"SELECT unnest({_q(mcol)}) FROM src LIMIT 0").columns
    except duckdb.Error:
        fields = []
    if not fields:
        raise InputFormatError(f"{p.name}: lighteval details without metric values in column {mcol!r}")
    metric = _chosen(correct_col, list(fields), "lighteval metric", p.name) or fields[0]
    if new_style:
        doc = _q(cols["doc"])
        try:
            id_type = str(src.query(f"SELECT {doc}.id FROM src LIMIT 0").types[0])
        except duckdb.Error:
            id_type = None
        # ids of mixed types in a JSONL log (1 and "two", or a bare NaN) are JSON: an id's text without its quotes,
        # and a bare NaN missing as an empty id is (the doc is then named by its query)
        doc_id = json_text(f"{doc}.id") if id_type == "JSON" else f"CAST({doc}.id AS VARCHAR)"
        if id_type in ("FLOAT", "DOUBLE"):  # numeric ids and a bare NaN
            doc_id = f"CASE WHEN {is_nan(f'{doc}.id')} THEN NULL ELSE {doc_id} END"
        problem = f"coalesce(nullif({doc_id}, ''), md5(CAST({doc}.query AS VARCHAR)))"
        if id_type == "JSON" and _any_nested(src.query, f"{doc}.id", "src"):
            # a list or an object among them is handed on as written, for the shared checks to refuse (as text it
            # was the problem '[1]'); the others as JSON too (one column), read as their text there
            written = _json_id(f"{doc}.id")
            problem = (f"coalesce(CASE WHEN nullif(json_extract_string({written}, '$'), '') IS NOT NULL THEN {written} "
                       f"END, to_json(md5(CAST({doc}.query AS VARCHAR))))")
        elif id_type is not None and (id_type.endswith("]") or id_type.startswith(("STRUCT", "MAP"))):
            problem = f"{doc}.id"  # every id a list or an object: the nested column, refused by the shared checks
        if id_type is None:
            problem = f"md5(CAST({doc}.query AS VARCHAR))"
    else:
        ex = _q(cols["example"]) if "example" in cols else _q(cols["full_prompt"])
        problem = f"md5(CAST({ex} AS VARCHAR))"
    base = lighteval_model(p, src.default_model)
    own = _free({"model": "model", "problem": "problem_id"}, metric)
    sql = (f"SELECT {_sql_str(base)} AS {_q(own['model'])}, {problem} AS {_q(own['problem'])}, "
           f"{_q(mcol)}.{_q(metric)} AS {_q(metric)} FROM src")
    out = Source(
        src.query(sql),
        src.con,
        src.name,
        base,
        "lighteval",
        hints={"problem": own["problem"], "correct": metric, "model": own["model"]},
    )
    out.notes["metric"] = metric
    # a JSONL log's rows are its lines, in order: a message names the line (located)
    out.text_path, out.text_format = src.text_path, src.text_format
    return out


def _tau_from_relation(src: Source) -> Source:
    cols = {c.lower(): c for c in src.relation.columns}
    src.reader = "tau_bench"
    src.hints = {"problem": cols["task_id"], "correct": cols["reward"]}
    if "trial" in cols:
        src.hints["attempt"] = cols["trial"]
        _check_trials(src, cols["trial"])
    src.threshold = TAU_THRESHOLD
    return src


def _not_whole(col: str, kind: str) -> str | None:
    """SQL, true where tau-bench's trial ``col`` (of DuckDB type ``kind``) is written but is no whole number: not a
    number, nor text spelled as one (:func:`number_text`), or a number with a fraction; None for an integer column.
    A missing trial (null, NaN) is the shared checks' to name."""
    q = _q(col)
    k = kind.upper()

    def whole(x: str) -> str:
        return f"coalesce(NOT isinf({x}) AND {x} = floor({x}), FALSE)"

    text = number_text(f"lower(trim({q}->>'$'))" if k == "JSON" else f"lower(trim({q}))")
    if k == "JSON":
        d = f"TRY_CAST({q}->>'$' AS DOUBLE)"
        return (f"CASE json_type({q}) WHEN 'BIGINT' THEN FALSE WHEN 'UBIGINT' THEN FALSE WHEN 'NULL' THEN FALSE "
                f"WHEN 'DOUBLE' THEN NOT (isnan({d}) OR {whole(d)}) WHEN 'VARCHAR' THEN NOT {whole(text)} ELSE TRUE END")
    if k == "VARCHAR":
        return f"{q} IS NOT NULL AND NOT {whole(text)}"
    if k in ("FLOAT", "DOUBLE", "REAL") or k.startswith("DECIMAL"):
        return f"{q} IS NOT NULL AND NOT (isnan({q}::DOUBLE) OR {whole(f'{q}::DOUBLE')})"
    if k.endswith("INT") or k in ("BIGINT", "HUGEINT", "UHUGEINT"):
        return None
    return f"{q} IS NOT NULL"  # a boolean, a list or a struct column


def _check_trials(src: Source, col: str) -> None:
    """Refuse a tau-bench results file whose trial ``col`` is written but is no whole number (``"x"``, true, [1],
    1.5), naming the first such row as written and where it is: read as an attempt label, "x" was one more trial of
    its task, where tau2's and inspect's readers refuse such a trial or epoch (:func:`_whole`). A number spelled as
    text ("1") stays a trial, as before."""
    cond = _not_whole(col, src.types[col])
    if cond is None:
        return
    try:
        hit = src.query(f'SELECT "{ROW}", CAST(to_json({_q(col)}) AS VARCHAR) FROM ({numbered(src)}) WHERE {cond} '
                        "LIMIT 1").fetchall()
    except duckdb.Error as exc:
        raise duck_error(exc, src.name, "tau_bench") from None
    if hit:
        row, shown = hit[0]
        raise InputFormatError(
            f"cannot read {src.name} as tau_bench: {col} {shown}{located(src, [int(row)])} is not a whole number")


TAU2_TASK = "s.value->'$.task_id'"  # a simulation's task (a bare NaN is a missing id)
TAU2_MODEL = "content->'$.info.agent_info.llm'"
INSPECT_MODEL = "content->'$.eval.model'"


def _any_nested(run: Callable[[str], duckdb.DuckDBPyRelation], expr: str, table: str) -> bool:
    """Whether some value of the JSON expression ``expr`` over ``table`` (queried with ``run``) is a list or an
    object (no id): only then does an adapter hand that identifier on as JSON (:func:`_json_id`) rather than as its
    text, so that messages quote the others as before ('t1', not '"t1"')."""
    try:
        return bool(run(f"SELECT 1 FROM {table} WHERE json_type({expr}) IN ('ARRAY', 'OBJECT') LIMIT 1").fetchall())
    except duckdb.Error:
        return False


def _json_id(expr: str) -> str:
    """SQL: an identifier read out of a JSON document as written (JSON), NULL for a JSON ``null`` or a bare ``NaN``
    (:func:`json_nan`), as :func:`json_text` has them. The shared checks read its text (``identifier``) and refuse a
    list or an object (``nested_value``); read as text here, the id [1] had been the problem '[1]'."""
    return f"CASE WHEN {json_nan(expr)} OR json_type({expr}) = 'NULL' THEN NULL ELSE {expr} END"


def _tau2(con: duckdb.DuckDBPyConnection, p: Path, stem: str) -> Source:
    _require_json_path(con, p, "$.simulations", "tau_bench",
                       'a JSON object with a "simulations" array, or rows with task_id, reward and trial')
    f = _sql_str(str(p))
    # the reward as written (JSON; a bare NaN is missing, as null is): a number, or a value the shared checks name as
    # it is ("1_0", "high": 'holds a value that is not boolean ... reward='"high"''), as in a JSONL log; read here as
    # a number, each was a missing reward
    written = "s.value->'$.reward_info.reward'"
    # a simulation, or its reward_info, that is no object (a bare number, a list) stops the read naming it: it read
    # as a missing task id or reward
    info = "(s.value->'$.reward_info')"
    kinds = " ".join(f"WHEN '{k}' THEN '{w}'" for k, w in _JSON_KIND.items())
    not_info = (f"error('reward_info ' || CAST({info} AS VARCHAR) || ' at ' || s.element || ' is ' || CASE json_type({info}) "
                f"{kinds} END || ', not an object with the reward')")
    reward = (f"CASE WHEN json_type({info}) NOT IN ('OBJECT', 'NULL') THEN {not_info}::JSON "
              f"WHEN {json_nan(written)} THEN NULL ELSE {written} END")
    # the agent's model as written (JSON) when it is a list or an object, for the shared checks to refuse, naming the
    # row (as text, ["gpt-4.1"] was the model '["gpt-4.1"]'); else its text, as messages quote it
    nested = _any_nested(con.sql, TAU2_MODEL, f"read_text({f})")
    sims = _elements(f, "$.simulations", f"{_json_id(TAU2_MODEL) if nested else json_text(TAU2_MODEL)} AS m")
    default = f"to_json({_sql_str(stem)})" if nested else _sql_str(stem)  # no model, or a bare NaN: the file's stem
    trial = _whole("s.value->'$.trial'", "trial", "s.element")
    sql = (
        # the task id as written (JSON; a bare NaN is missing, as null is): the shared checks read its text
        # (identifier) and refuse a list or an object (nested_value); as text, [1] had been the problem '[1]'
        f"SELECT CASE WHEN json_type(s.value) <> 'OBJECT' THEN error(s.element || ' is ' || CASE json_type(s.value) "
        f"{kinds} END || ', not a simulation (an object with its task_id, trial and reward_info)')::JSON "
        f"WHEN {json_nan(TAU2_TASK)} THEN NULL ELSE {TAU2_TASK} END AS task_id, {trial} AS trial, "
        f"{reward} AS reward, coalesce(s.m, {default}) AS model FROM ({sims}) s ORDER BY s.i"
    )
    rel = _bind(con, sql, p, "tau_bench")
    return Source(
        rel,
        con,
        p.name,
        stem,
        "tau_bench",
        hints={"problem": "task_id", "correct": "reward", "attempt": "trial", "model": "model"},
        threshold=TAU_THRESHOLD,
        element_paths=_in_order("simulations"),
    )


def evalplus_model(p: Path, stem: str) -> str:
    """The model an evalplus result file names. evalplus's codegen writes a model's samples to
    ``<root>/<dataset>/<model>_<backend>_temp_<t>`` (a directory, or that name + ``.jsonl``), and its evaluate writes
    the results beside them: ``<that directory>/eval_results.json``, or ``<that name>.eval_results.json`` (older
    versions ``<that name>_eval_results.json``). So the model is the directory of a fixed ``eval_results.json`` (as
    lm-evaluation-harness's output directory is its model) and the rest of the name otherwise; a bare
    ``eval_results.json`` (no directory in the path given) stays ``eval_results``."""
    if stem == "eval_results":
        return p.parent.name or stem
    for suffix in (".eval_results", "_eval_results"):
        if stem.endswith(suffix) and len(stem) > len(suffix):
            return stem[: -len(suffix)]
    return stem


# how a message names the JSON type DuckDB's json_type gives
_JSON_KIND = {"OBJECT": "an object", "ARRAY": "a list", "VARCHAR": "a string", "BOOLEAN": "a boolean",
              "NULL": "null", "BIGINT": "a number", "UBIGINT": "a number", "DOUBLE": "a number"}


def _evalplus_layout(con: duckdb.DuckDBPyConnection, p: Path) -> None:
    """Refuse an evalplus results file whose ``eval`` is not an object of lists (task id -> its samples), naming the
    first task that is not a list: its samples were dropped without a word (a task whose value was an object or a
    string was no problem at all, and the mean was over the others)."""
    f = _sql_str(str(p))
    try:
        kind = con.sql(f"SELECT json_type(content, '$.eval') FROM read_text({f})").fetchall()[0][0]
        if kind != "OBJECT":
            raise InputFormatError(
                f"{p.name} is not an evalplus results file: its \"eval\" is "
                f"{_JSON_KIND.get(kind, 'missing') if kind else 'missing'}, not an object of task ids to lists of "
                "samples (evalplus's eval_results.json)")
        bad = con.sql(
            f"SELECT task_id, json_type(v) FROM (SELECT unnest(json_keys(content, '$.eval')) AS task_id, "
            f"unnest(json_extract(content, '$.eval.*')) AS v FROM read_text({f})) WHERE json_type(v) <> 'ARRAY' "
            "LIMIT 1").fetchall()
    except duckdb.Error as exc:
        raise _bad_document(con, p, "evalplus") or duck_error(exc, p.name, "evalplus") from None
    if bad:
        task, kind = bad[0]
        raise InputFormatError(
            f"{p.name}: evalplus task {task!r} is {_JSON_KIND.get(kind, kind)}, not a list of samples, at "
            f"eval[{json.dumps(task)}]; each task of \"eval\" lists its samples' results")


def _evalplus_paths(src: Source, rows: list[int]) -> list[str | None]:
    """The JSON paths of the evalplus rows ``rows`` (1-based, :func:`data._source.numbered`), from each row's task and
    index: 'eval["HumanEval/1"][2]'."""
    at = {int(r): (t, k) for r, t, k in src.query(
        f'SELECT "{ROW}", task_id, sample_idx FROM ({numbered(src)}) WHERE "{ROW}" IN '
        f"({', '.join(map(str, map(int, rows)))})").fetchall()}
    return [None if at.get(r) is None else f"eval[{json.dumps(at[r][0])}][{at[r][1]}]" for r in rows]


def _evalplus_status(field: str) -> str:
    """SQL: the sample's (``s.value``) status ``field`` as text, NULL when absent or null. A status written otherwise
    than as a string (evalplus writes "pass", "fail" or "timeout", and null for a base-only run's plus_status) stops
    the read naming the sample, where it is and the value: read as text, true and 1 were the words 'true' and '1', a
    passing sample, and a list was "not boolean" of the column 'status', which the file does not have."""
    v = f"(s.value->'$.{field}')"  # s.value->'$.x' IS NULL would be s.value->('$.x' IS NULL)
    kinds = " ".join(f"WHEN '{k}' THEN '{w}'" for k, w in _JSON_KIND.items())
    return (f"CASE WHEN json_type({v}) IN ('VARCHAR', 'NULL') OR {v} IS NULL THEN s.value->>'$.{field}' ELSE error("
            f"'sample eval[' || to_json(s.task_id) || '][' || s.k || '] has {field} ' || CAST({v} AS VARCHAR) "
            f"|| ' (' || CASE json_type({v}) {kinds} END || '), not a status: evalplus writes \"pass\", \"fail\" "
            "or \"timeout\"') END")


def _evalplus(con: duckdb.DuckDBPyConnection, p: Path, stem: str) -> Source:
    stem = evalplus_model(p, stem)
    _evalplus_layout(con, p)
    f = _sql_str(str(p))
    # the samples of each task, (task_id, index from 0, value), without a lateral json_each (see _elements)
    each = (
        "SELECT task_id, unnest(json_extract(v, '$[*]')) AS value, generate_subscripts(json_extract(v, '$[*]'), 1) - 1 "
        "AS k FROM (SELECT unnest(json_keys(content, '$.eval')) AS task_id, unnest(json_extract(content, '$.eval.*')) "
        f"AS v FROM read_text({f}))"
    )
    base, plus = _evalplus_status("base_status"), _evalplus_status("plus_status")
    sql = (
        "SELECT task_id, sample_idx, "
        # evalplus's own rule for base + extra tests: base_status == plus_status == "pass" (evaluate.py);
        # a base-only run has no plus_status and is judged on base_status alone
        "CASE WHEN base_status IS NULL THEN NULL WHEN plus_status IS NULL THEN base_status "
        "WHEN base_status = 'pass' THEN plus_status ELSE base_status END AS status, base_status, plus_status, solution "
        f"FROM (SELECT s.task_id AS task_id, s.k::BIGINT AS sample_idx, {base} AS base_status, {plus} AS plus_status, "
        f"s.value->>'$.solution' AS solution FROM ({each}) s)"
    )
    rel = _bind(con, sql, p, "evalplus")
    out = Source(
        rel,
        con,
        p.name,
        stem,
        "evalplus",
        hints={"problem": "task_id", "correct": "status", "attempt": "sample_idx", "answer": "solution"},
    )
    out.element_paths = lambda rows: _evalplus_paths(out, rows)
    return out


def _elements(files: str, path: str, doc_cols: str = "", root: str | None = None) -> str:
    """SQL of the rows ``(value JSON, element, i[, doc_cols])`` of the JSON array at ``path`` in each file that
    ``read_text(files)`` reads; ``i`` numbers them in file and then array order, from 1 (the first sample, the
    first scorer and the first errored sample are the log's first); ``element`` is its JSON path, for a message
    ("samples[3]", indexes from 0; in an array that is a whole file, the file's name below the directory ``root``
    first: "summaries.json[3]"). ``doc_cols``: more columns, taken once per file.

    Not a lateral ``json_each(content, path)``: DuckDB copies the whole document into each row of that join, so an
    inspect log of 17 MB with 20,000 samples ran out of memory (18.8 GiB); it also yields the array in reverse."""
    more = f", {doc_cols}" if doc_cols else ""
    inner = f"SELECT filename AS f, json_extract(content, {_sql_str(path + '[*]')}) AS l{more} FROM read_text({files})"
    array = _sql_str(path.removeprefix("$.")) if path != "$" else _member("f", root)
    return (
        f"SELECT * EXCLUDE (f, k, l), {array} || '[' || (k - 1) || ']' AS element, row_number() OVER (ORDER BY f, k) "
        f"AS i FROM (SELECT *, unnest(l) AS value, generate_subscripts(l, 1) AS k FROM ({inner}))"
    )


def _member(filename: str, root: str | None) -> str:
    """SQL: the name of the file ``filename`` (an SQL expression) below the directory ``root`` (an inspect .eval
    log's member, extracted there), as the log names it: "samples/2_epoch_1.json"."""
    if root is None:
        return filename
    prefix = str(Path(root)).rstrip("/\\") + "/"
    return f"replace(replace({filename}, '\\', '/'), {_sql_str(prefix.replace(chr(92), '/'))}, '')"


def _whole(value: str, what: str, at: str) -> str:
    """SQL: the JSON value ``value`` (an attempt: tau2's trial, an inspect epoch) as a BIGINT, NULL where it is absent,
    null or NaN (a missing attempt, as the shared checks name it). A value that is no whole number (a string "one",
    1.5, a list) stops the read naming ``what``, the value and where it is (``at``, SQL of its JSON path): read with
    TRY_CAST, "one" was a missing attempt ("has a missing value, e.g. row {..., trial=None}") and 1.5 the attempt 2.
    A whole number beyond a BIGINT (2^63 - 1), or beyond 2^53 - 1 written with a point or an exponent (a DOUBLE, exact
    only that far: 9007199254740993.0 reads as ...992), is named as too large, with the limit: it was "not a whole
    number" (18446744073709551616)."""
    value = f"({value})"  # s.value->'$.trial' IS NULL would be s.value->('$.trial' IS NULL)
    text = f"({value}->>'$')"
    number = f"TRY_CAST({text} AS DOUBLE)"
    named = f"'{what} ' || CAST({value} AS VARCHAR) || ' at ' || {at} || ' '"
    bad = f"error({named} || 'is not a whole number')::BIGINT"
    integer = f"regexp_matches({text}, '^-?[0-9]+$')"  # written as an integer (beyond a BIGINT: a DOUBLE)
    big = (f"error({named} || CASE WHEN {integer} AND {number} < 0 THEN 'is too small (the smallest {what} is -2^63 = "
           f"-9223372036854775808)' WHEN {integer} THEN 'is too large (the largest {what} is 2^63 - 1 = "
           f"9223372036854775807)' ELSE 'is too large to be exact (a {what} written with a point or an exponent is "
           f"exact up to ±(2^53 - 1) = ±9007199254740991; write a larger one as an integer, up to 2^63 - 1)' END)::BIGINT")
    return (
        f"CASE json_type({value}) WHEN 'BIGINT' THEN CAST({text} AS BIGINT) WHEN 'NULL' THEN NULL "
        f"WHEN 'UBIGINT' THEN coalesce(TRY_CAST({text} AS BIGINT), {big}) "
        f"WHEN 'DOUBLE' THEN CASE WHEN isnan({number}) THEN NULL WHEN NOT isinf({number}) AND {number} <> floor({number}) "
        f"THEN {bad} WHEN abs({number}) < 9007199254740992 AND NOT {integer} "
        f"THEN CAST({number} AS BIGINT) ELSE {big} END "
        f"ELSE CASE WHEN {value} IS NULL THEN NULL ELSE {bad} END END"
    )


def _in_order(array: str) -> Callable[[list[int]], list[str | None]]:
    """The JSON paths of an adapter's rows that are the elements of the array ``array``, one row each in its order
    (the adapter's SQL ends ``ORDER BY`` their number): row n is ``array[n - 1]`` (``Source.element_paths``)."""
    return lambda rows: [f"{array}[{r - 1}]" for r in rows]


def _inspect_samples(samples_sql: str, model_sql: str) -> str:
    """One row per inspect sample (from a relation ``S(value JSON, element, i)`` of samples or summaries in the log's
    order ``i``, each with its JSON path ``element``): model, id, epoch, its scores (JSON) and its error message (a sample's
    ``error.message``; a summary's ``error`` is the text)."""
    v = "S.value"
    sample_id = json_text(f"{v}->'$.id'")  # a bare NaN id is a missing id, not the id 'NaN'
    # the id as written (JSON), for the shared checks when some id is a list or an object; ``id`` is its text
    written = _json_id(f"{v}->'$.id'")
    epoch = _whole(f"{v}->'$.epoch'", "epoch", "S.element")
    return (
        f"SELECT S.i AS i, S.element AS element, {model_sql} AS model, {sample_id} AS id, "
        f"{written} AS id_written, {epoch} AS epoch, "
        f"{v}->'$.scores' AS scores, json_type({v}) AS kind, coalesce({v}->>'$.error.message', CASE WHEN json_type({v}->'$.error') = "
        f"'VARCHAR' THEN {v}->>'$.error' END) AS error FROM ({samples_sql}) S ORDER BY S.i"
    )


def _inspect_source(
    con: duckdb.DuckDBPyConnection, p: Path, stem: str, samples_sql: str, model_sql: str, correct_col: str | None
) -> Source:
    """The canonical rows of an inspect log: one per (sample, epoch), the verdict of one scorer.

    The samples are materialised first (id, epoch, scores and error only: small), to list the scorers the log has
    and to name the samples without a score before any number is computed."""
    try:
        con.execute(f"CREATE TEMP TABLE inspect_samples AS {_inspect_samples(samples_sql, model_sql)}")
        scorers = [r[0] for r in con.sql(
            "SELECT k FROM (SELECT unnest(json_keys(scores)) AS k, i FROM inspect_samples "
            "WHERE json_type(scores) = 'OBJECT') GROUP BY k ORDER BY min(i)").fetchall()]
        keys = _inspect_dict_keys(con)
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, "inspect") from None
    scorer, key = _chosen_score(correct_col, scorers, keys, p.name)
    path = _json_key_path(scorer)
    if key is not None:  # one score of a scorer that gives several per sample (a dict value)
        path = f"{path} || '.value.' || {_sql_str(_json_key_path(key, root=''))}"
    name = scorer if key is None else f"{scorer}/{key}"
    _check_shapes(con, p, scorer)
    _check_scored(con, p, name, path, scorers)
    own = _free({"model": "model", "problem": "id", "attempt": "epoch", "answer": "answer"}, name)
    value = f"json_extract(scores, {path})" if key is not None else f"json_extract(scores, {path} || '.value')"
    _check_verdicts(con, p, name, value, _json_key_path(scorer))
    _check_readable(con, p, name, value)
    answer = _json_key_path(scorer)
    # the model and the id as written (JSON) when one of them is a list or an object, for the shared checks to refuse
    # (as text, the id [1] was the problem '[1]'); else their text, as messages quote them
    problem = "id_written" if _any_nested(con.sql, "id_written", "inspect_samples") else "id"
    model = "model" if _any_nested(con.sql, "model", "inspect_samples") else "json_extract_string(model, '$')"
    sql = (
        f"SELECT {model} AS {_q(own['model'])}, {problem} AS {_q(own['problem'])}, epoch AS {_q(own['attempt'])}, "
        f"{_inspect_value(value)} AS {_q(name)}, json_extract(scores, {answer} || '.answer')->>'$' "
        f"AS {_q(own['answer'])} FROM inspect_samples ORDER BY i"
    )
    rel = _bind(con, sql, p, "inspect")
    out = Source(rel, con, p.name, stem, "inspect", hints={**own, "correct": name})
    out.notes["metric"] = name
    out.element_paths = lambda rows: _inspect_paths(con, rows)
    return out


def _inspect_paths(con: duckdb.DuckDBPyConnection, rows: list[int]) -> list[str | None]:
    """The JSON paths of the inspect rows ``rows`` (1-based, in the order of ``inspect_samples``, one row per sample:
    row n is the sample ``i = n``): "samples[3]" in a .json log, the member in an .eval log."""
    at = dict(con.sql(f"SELECT i, element FROM inspect_samples WHERE i IN ({', '.join(map(str, map(int, rows)))})")
              .fetchall())
    return [at.get(r) for r in rows]


def _json_key_path(key: str, root: str = "$") -> str:
    """SQL string literal of the JSON path to the member ``key`` (quoted: any characters); ``root=''`` gives the
    bare ``"key"`` to append to another path."""
    quoted = '"' + key.replace('"', '\\"') + '"'
    return _sql_str(f"{root}.{quoted}") if root else quoted


def _inspect_dict_keys(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The scorers of the materialised ``inspect_samples`` whose value is a dict (several scores per sample, as
    inspect's multi-score scorers write them), each with its keys in the log's order."""
    value = "json_extract(scores, '$.\"' || replace(s, '\"', '\\\"') || '\".value')"
    rows = con.sql(
        f"WITH sc AS (SELECT i, scores, unnest(json_keys(scores)) AS s FROM inspect_samples "
        f"WHERE json_type(scores) = 'OBJECT'), d AS (SELECT i, s, json_keys({value}) AS ks FROM sc "
        f"WHERE json_type({value}) = 'OBJECT') "
        "SELECT s, k FROM (SELECT i, s, unnest(ks) AS k, generate_subscripts(ks, 1) AS j FROM d) "
        "GROUP BY s, k ORDER BY min(i), min(j)"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for s, k in rows:
        out.setdefault(s, []).append(k)
    return out


def _chosen_score(given: str | None, scorers: list[str], keys: dict[str, list[str]], name: str
                  ) -> tuple[str, str | None]:
    """The scorer (and, for a scorer whose value is a dict of scores, the key) that gives each sample's verdict.

    ``given`` (``correct_col``) names a scorer, a key of a dict-valued scorer (``correct``), or both
    (``answer_quality/correct``), case-insensitively; without it the log's first scorer. A dict-valued scorer has no
    one verdict, so it needs a key: the error lists them."""
    def listed() -> str:
        shown = [f"{s} (several scores: {', '.join(f'{s}/{k}' for k in keys[s])})" if s in keys else s
                 for s in scorers]
        return ", ".join(shown) or "(none)"

    if given is None:
        scorer = scorers[0] if scorers else "score"
        if scorer in keys and len(keys[scorer]) > 0:
            raise InputFormatError(
                f"{name}: scorer {scorer!r} gives several scores per sample ({', '.join(keys[scorer])}), not one "
                f"verdict: choose one with `correct_col`, e.g. {keys[scorer][0]!r}; scorers in this "
                f"log: {listed()}")
        return scorer, None
    found = [s for s in scorers if s == given] or [s for s in scorers if s.lower() == given.lower()]
    if found:
        if found[0] in keys:
            raise InputFormatError(
                f"{name}: scorer {found[0]!r} (given as `correct_col`) gives several scores per sample "
                f"({', '.join(keys[found[0]])}): name one, e.g. {found[0] + '/' + keys[found[0]][0]!r}")
        return found[0], None
    pairs = [(s, k) for s in keys for k in keys[s]]
    for match in (lambda s, k: f"{s}/{k}" == given, lambda s, k: f"{s}/{k}".lower() == given.lower(),
                  lambda s, k: k == given, lambda s, k: k.lower() == given.lower()):
        hits = [(s, k) for s, k in pairs if match(s, k)]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise InputFormatError(
                f"{name}: {given!r} (given as `correct_col`) is a score of several scorers: name one of "
                f"{', '.join(f'{s}/{k}' for s, k in hits)}")
    raise InputFormatError(
        f"{name}: no inspect scorer {given!r} (given as `correct_col`); inspect scorers in this log: {listed()}")


def _first_sample(con: duckdb.DuckDBPyConnection, p: Path, columns: str, where: str) -> tuple[Any, ...] | None:
    """The first sample of ``inspect_samples`` (in file order) for which ``where`` holds, as (id, epoch, element,
    *``columns``, how many samples it holds for, how many samples there are); None when it holds for none. The
    inspect checks below name such a sample and count its kind."""
    try:
        rows = con.sql(
            f"SELECT id, epoch, element, {columns}, count(*) OVER () AS k, "
            f"(SELECT count(*) FROM inspect_samples) AS total FROM inspect_samples WHERE {where} ORDER BY i LIMIT 1"
        ).fetchall()
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, "inspect") from None
    return rows[0] if rows else None


def _clipped(written: str, most: int = 60) -> str:
    """A value as an error message quotes it: whole up to ``most`` characters, else its start and "..."."""
    return written if len(written) <= most else written[:most - 3] + "..."


def _check_shapes(con: duckdb.DuckDBPyConnection, p: Path, scorer: str) -> None:
    """Refuse a log in which some sample is not an object, has scores that are not an object (scorer -> score), or
    gives the scorer ``scorer`` a score that is not an object (inspect writes a Score: {"value": ..., "answer": ...}),
    naming the first. Otherwise a sample written as a string read "have no scores, e.g. sample None epoch None (an
    unscored log?)", as did scores written as a list, and a score written "C" (its value alone) "correctness column
    'match' has a missing value (null/NaN)", of a value the log has."""
    row = _first_sample(con, p, "kind", "kind <> 'OBJECT'")
    if row is not None:
        _sid, _epoch, element, kind, k, total = row
        raise InputFormatError(
            f"{p.name}: {k} of {total} samples are not objects, e.g. {element}, {_JSON_KIND.get(kind, kind)}: "
            "an inspect sample is an object with its id, epoch and scores")
    row = _first_sample(con, p, "json_type(scores), CAST(scores AS VARCHAR)",
                        "json_type(scores) NOT IN ('OBJECT', 'NULL')")
    if row is not None:
        sid, epoch, element, kind, written, k, total = row
        shown = _clipped(written)
        raise InputFormatError(
            f"{p.name}: {k} of {total} samples have scores that are {_JSON_KIND.get(kind, kind)}, not an object of "
            f"scores by scorer, e.g. sample {sid!r} epoch {epoch} at {element}: {shown}")
    entry = f"json_extract(scores, {_json_key_path(scorer)})"
    row = _first_sample(con, p, f"json_type({entry}), CAST({entry} AS VARCHAR)",
                        f"json_type(scores) = 'OBJECT' AND json_type({entry}) NOT IN ('OBJECT', 'NULL')")
    if row is not None:
        sid, epoch, element, kind, written, k, total = row
        shown = _clipped(written)
        raise InputFormatError(
            f"{p.name}: {k} of {total} samples have a score {scorer!r} that is {_JSON_KIND.get(kind, kind)}, not a "
            f"score (an object with its value), e.g. sample {sid!r} epoch {epoch} at {element}: {shown}")


def _check_scored(con: duckdb.DuckDBPyConnection, p: Path, scorer: str, path: str, scorers: list[str]) -> None:
    """Refuse a log in which some sample has no score of ``scorer``, naming the first such sample.

    A sample that raised an error has no score (inspect's scoring policy: the exception goes to ``sample.error``,
    the failing scorer gives no score, and inspect's own metrics leave the sample out). Here both ways around it
    move pass@k: dropping the sample leaves fewer samples where the run broke, counting it wrong charges the model
    for the harness. So the message names the sample and the error, and the way out inspect provides."""
    row = _first_sample(con, p, "error, json_type(scores) = 'OBJECT' AS scored, count(error) OVER () AS errors",
                        f"json_extract(scores, {path}) IS NULL")
    if row is None:
        return
    sid, epoch, element, error, scored, errors, k, total = row
    sample = f"sample {sid!r} epoch {epoch} at {element}"
    if error is not None:
        shown = " ".join(str(error).split())
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        raise InputFormatError(
            f"{p.name}: {errors} of {total} samples errored in inspect and have no score, e.g. {sample}: {shown}; "
            "dropping them or counting them as failures would both change pass@k: re-run them with "
            f"`inspect eval-retry {p.name}` and read the new log"
        )
    if not scored:
        raise InputFormatError(
            f"{p.name}: {k} of {total} samples have no scores, e.g. {sample} (an unscored log?): score it with "
            f"`inspect score {p.name}`"
        )
    raise InputFormatError(
        f"{p.name}: {k} of {total} samples have no score from scorer {scorer!r}, e.g. {sample}; scorers in this "
        f"log (choose one with `correct_col`): {', '.join(scorers)}"
    )


def _check_verdicts(con: duckdb.DuckDBPyConnection, p: Path, name: str, value: str, scorer: str) -> None:
    """Refuse a log in which the score ``name`` (JSON at ``value``) is NaN or null for some sample, naming the first.

    That is inspect's ``Score.unscored()`` (a NaN value; null where the writer cannot write NaN): the scorer could not render a verdict (a grader model that gave no
    reading), so inspect leaves the sample out of its metrics. As for an errored sample (:func:`_check_scored`),
    dropping it or counting it wrong both move pass@k, so the message names it and its explanation."""
    row = _first_sample(con, p, f"coalesce(json_extract(scores, {scorer} || '.explanation')->>'$', "
                                f"json_extract(scores, {scorer} || '.metadata')::VARCHAR) AS why",
                        f"json_type({value}) = 'NULL' OR (json_type({value}) = 'DOUBLE' AND "
                        f"isnan(TRY_CAST({value}->>'$' AS DOUBLE)))")
    if row is None:
        return
    sid, epoch, element, why, k, total = row
    shown = " ".join(str(why).split()) if why is not None else ""
    shown = f" ({shown if len(shown) <= 100 else shown[:97] + '...'})" if shown else ""
    raise InputFormatError(
        f"{p.name}: {k} of {total} samples are unscored by {name!r} (value NaN or null: inspect's Score.unscored(), "
        f"no verdict), e.g. sample {sid!r} epoch {epoch} at {element}{shown}; dropping them or counting them as failures would both "
        f"change pass@k: re-score them (`inspect score {p.name}`) or choose another scorer with `correct_col`"
    )


def _check_readable(con: duckdb.DuckDBPyConnection, p: Path, name: str, value: str) -> None:
    """Refuse a log in which the score ``name`` (JSON at ``value``) of some sample is written but reads as no verdict
    (:func:`_inspect_value`: a word other than C, I, P and N, a number spelled otherwise, '1_0', a list), naming the
    first such sample, where it is and the value as written. Read as NULL, it was "correctness column 'match' has a
    missing value (null/NaN), e.g. row {..., match=None}", of a value the log has. (A dict of metrics and NaN or null
    have their own messages.)"""
    row = _first_sample(con, p, f"CAST({value} AS VARCHAR)",
                        f"{value} IS NOT NULL AND CASE WHEN json_type({value}) IN ('NULL', 'OBJECT') THEN FALSE "
                        f"ELSE ({_inspect_value(value)}) IS NULL END")
    if row is None:
        return
    sid, epoch, element, written, k, total = row
    shown = _clipped(written)
    raise InputFormatError(
        f"{p.name}: {k} of {total} samples have a score {name!r} that is no verdict, e.g. sample {sid!r} epoch {epoch} "
        f"at {element}: {shown} (a verdict is C, I, P or N, a number, or true/false)"
    )


def _warn_unfinished(p: Path, status: str | None, src: Source) -> Source:
    """Warn when an inspect log is of a run that did not finish (status "started" or "cancelled"; "error" too,
    when no sample carries the error): it holds the samples done before the run stopped, so problems it never
    reached are left out of every mean, silently. ``src`` is returned as is."""
    if status is not None and status != "success":
        warnings.warn(
            f"{p.name}: the inspect run did not finish (status {status!r}, not 'success'): the log holds only the "
            "samples done before it stopped, so problems it did not reach are left out and others may have fewer "
            f"epochs; resume or re-run it (`inspect eval-retry {p.name}`) and read the new log",
            DroppedProblemsWarning,
            stacklevel=2,
        )
    return src


def _inspect_json(con: duckdb.DuckDBPyConnection, p: Path, stem: str, correct_col: str | None = None) -> Source:
    _require_json_path(con, p, "$.samples", "inspect_ai",
                       'a .eval zip, or a .json eval log: an object with "eval" and a "samples" array')
    f = _sql_str(str(p))
    # the model as written (JSON, a list or an object refused by the shared checks); a bare NaN model: the file's stem
    samples = _elements(f, "$.samples", f"{_json_id(INSPECT_MODEL)} AS m")
    src = _inspect_source(con, p, stem, samples, f"coalesce(S.m, to_json({_sql_str(stem)}))", correct_col)
    try:
        status = con.sql(f"SELECT content->>'$.status' FROM read_text({f})").fetchall()[0][0]
    except duckdb.Error:
        status = None
    return _warn_unfinished(p, status, src)


def _inspect_eval(con: duckdb.DuckDBPyConnection, p: Path, stem: str, correct_col: str | None = None) -> Source:
    try:
        zf = zipfile.ZipFile(p)
        names = zf.namelist()
    except (zipfile.BadZipFile, OSError) as exc:
        why = str(exc)
        if not zipfile.is_zipfile(p) and _first_bytes(p).startswith(_ZIP_MAGIC):
            # a zip's directory is its last part: a zip's first bytes without it are a file cut short
            why = "it begins as a zip but has no zip directory at its end (cut short while it was written?)"
        raise InputFormatError(f"cannot read {p.name} as inspect .eval (zip): {why}") from None
    if "header.json" not in names and "_journal/start.json" not in names:
        raise InputFormatError(
            f"{p.name} is a zip file but not an inspect .eval log (no header.json or _journal/start.json)"
        )
    model = stem
    try:
        head = json.loads(zf.read("header.json" if "header.json" in names else "_journal/start.json"))
        named = head.get("eval", {}).get("model")
        model = str(stem if named != named else named or stem)  # a bare NaN model (NaN != NaN) is none, as null is
        # as written (JSON): a list or an object is refused by the shared checks, not the model "['a']"
        model_sql = f"CAST({_sql_str(json.dumps(named if isinstance(named, (list, dict)) else model))} AS JSON)"
        # the header is written when the run ends; a log with only the journal's start is of a run still going, or
        # killed
        status = head.get("status") if "header.json" in names else "started"
    except (KeyError, ValueError, zipfile.BadZipFile, zlib.error, EOFError) as exc:
        zf.close()
        raise InputFormatError(f"cannot read {p.name} as inspect .eval: bad header ({exc})") from None
    tmp = tempfile.TemporaryDirectory(prefix="passcurve-eval-")
    extracted = False
    try:
        samples = _inspect_extract(zf, names, tmp.name, p)
        extracted = True
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        # a member whose bytes are damaged (bad CRC, broken deflate stream, cut short) only fails when extracted
        raise InputFormatError(f"cannot read {p.name} as inspect .eval (zip): {exc}") from None
    finally:
        zf.close()
        if not extracted:
            tmp.cleanup()
    # the samples are materialised (_inspect_source), so the extracted files can go right away
    try:
        return _warn_unfinished(p, status, _inspect_source(con, p, stem, samples, model_sql, correct_col))
    finally:
        tmp.cleanup()


def _inspect_extract(zf: zipfile.ZipFile, names: list[str], tmp: str, p: Path) -> str:
    """Extract an inspect .eval log's samples (or summaries) into ``tmp``; SQL of a relation ``(value JSON, element,
    i)`` (:func:`_elements`; a sample's file is its own ``element``, "samples/2_epoch_1.json")."""
    # One JSON array of sample summaries when the log is complete; otherwise one file per sample.
    if "summaries.json" in names:
        zf.extract("summaries.json", tmp)
        target = _sql_str(str(Path(tmp) / "summaries.json"))
        return _elements(target, "$", root=tmp)
    members = [n for n in names if n.startswith("samples/") and n.endswith(".json")]
    if not members:
        members = [n for n in names if n.startswith("_journal/summaries/") and n.endswith(".json")]
        if not members:
            raise InputFormatError(f"{p.name}: inspect .eval log without samples or summaries")
        zf.extractall(tmp, members)
        target = _sql_str(str(Path(tmp) / "_journal" / "summaries" / "*.json"))
        return _elements(target, "$", root=tmp)
    zf.extractall(tmp, members)
    target = _sql_str(str(Path(tmp) / "samples" / "*.json"))
    return (f"SELECT t.content::JSON AS value, {_member('t.filename', tmp)} AS element, row_number() OVER (ORDER BY "
            f"t.filename) AS i FROM read_text({target}) t")


def _bind(con: duckdb.DuckDBPyConnection, sql: str, p: Path, reader: str) -> duckdb.DuckDBPyRelation:
    try:
        rel = con.sql(sql)
        rel.columns  # noqa: B018 - bind now
    except duckdb.Error as exc:
        raise duck_error(exc, p.name, reader) from None
    return rel


def _first_line_is_json(p: Path) -> bool:
    """Whether the first non-blank line of ``p`` is a JSON value on its own (a JSONL file's is; a document spread
    over lines, or one cut short on its one line, is not). Reads that line only."""
    with open(p, "rb") as fh:
        for raw in fh:
            if raw.strip():
                try:
                    json.loads(raw)
                except ValueError:
                    return False
                return True
    return False


def _bad_document(con: duckdb.DuckDBPyConnection, p: Path, reader: str) -> PasscurveError | None:
    """The error for a JSON document ``p`` that is not valid JSON, where it breaks (line and byte, from DuckDB's
    parser) and, when it ends before the document does, that it was cut short; None when it is valid JSON. On the
    error path only: a harness reader (tau2, inspect, evalplus) said "is not a tau_bench log" of a log cut short, or
    "cannot read it as jsonl" with its full path and DuckDB's line, one past the file's last."""
    try:
        con.sql(f"SELECT json(content) FROM read_text({_sql_str(str(p))})").fetchall()
    except duckdb.Error as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        bad = re.search(r"Malformed JSON at byte (\d+) of input: ([^.]*)", msg)
        if bad is None:
            return duck_error(exc, p.name, reader)
        at, why = int(bad[1]), bad[2]
        with open(p, "rb") as fh:
            head = fh.read(at)
        line = head.count(b"\n") + 1
        cut = ": the file ends there (cut short while it was written?)" if why == "unexpected end of data" else ""
        return InputFormatError(f"cannot read {p.name} as {reader}: not valid JSON at line {line} (byte {at}): {why}{cut}")
    return None


def _require_json_path(con: duckdb.DuckDBPyConnection, p: Path, path: str, fmt: str, expected: str) -> None:
    """Raise a clear format error unless the JSON document ``p`` has an array at ``path`` (first, that ``p`` is not
    valid JSON: :func:`_bad_document`)."""
    try:
        rows = con.sql(f"SELECT json_type(content, {_sql_str(path)}) FROM read_text({_sql_str(str(p))})").fetchall()
    except duckdb.Error:
        rows = []
        # a document cut short (not JSON lines either: those are another format's rows)
        if not _first_line_is_json(p) and (bad := _bad_document(con, p, fmt)) is not None:
            raise bad from None
    if not rows or rows[0][0] != "ARRAY":
        article = "an" if fmt[0] in "aeiou" else "a"
        raise InputFormatError(f"{p.name} is not {article} {fmt} log (expected {expected})")


def _q(name: str) -> str:
    return '"' + str(name).replace('"', '""') + '"'
