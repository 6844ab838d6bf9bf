"""Per-sample logs with answers, attempt indices or several verdict columns, aggregated in DuckDB.

Built on the shared reader (:func:`passcurve.data._source.open_file`: format detection and
harness adapters; :data:`passcurve.data._columns.ALIASES`: column aliases). Answer tallies
are one ``GROUP BY model, problem, answer`` query; verdict counts one ``GROUP BY model,
problem``; Python never loops over rows. Retry analyses need the per-sample sequence, so
``read_attempts`` fetches the four canonical columns as numpy arrays (sorted in SQL).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, cast, overload

import duckdb
import numpy as np

from .._counts import models_rows
from .._errors import PasscurveError
from .._validation import INT_CAP
from ._columns import ALIASES, identifier, is_missing, is_nan, json_text, json_unwrapped, number_text, quote
from ._harness import check_forced
from ._samples import FALSE_WORDS, TRUE_WORDS, _fmt_row, check_ids, inexact_attempt_error, runs_of_ids
from ._several import (
    PathInput,
    check_pool,
    concat_columns,
    is_one_path,
    pool_columns,
    read_several,
    select_columns,
)
from ._source import Source, as_text, duck_error, first_row, first_two_located, no_rows_error, open_file

__all__ = ["read_answers", "read_attempts", "read_verdicts", "GOLD_ALIASES"]

GOLD_ALIASES = ("gold", "gold_answer", "reference", "reference_answer", "target", "ground_truth", "expected", "label")
_NUM = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
        "FLOAT", "DOUBLE", "REAL")
_FLOAT = ("FLOAT", "DOUBLE", "REAL")


def _family(t: str) -> str:
    u = t.upper()
    if u in _NUM or u.startswith("DECIMAL"):
        return "number"
    if u.startswith("VARCHAR") and not u.endswith("]"):  # VARCHAR[] (a JSON list of strings) is a list, not text
        return "str"
    if u == "JSON":
        return "json"
    return u.lower()


@overload
def _pick(src: Source, role: str, given: str | None, aliases: tuple[str, ...], option: str, *,
          required: Literal[True] = ..., exclude: tuple[str | None, ...] = ()) -> str: ...


@overload
def _pick(src: Source, role: str, given: str | None, aliases: tuple[str, ...], option: str, *,
          required: bool, exclude: tuple[str | None, ...] = ()) -> str | None: ...


def _pick(src: Source, role: str, given: str | None, aliases: tuple[str, ...], option: str, *,
          required: bool = True, exclude: tuple[str | None, ...] = ()) -> str | None:
    """The column playing ``role``: ``given`` (case-insensitive), a harness hint, or the first alias
    found; ``None`` only when ``required=False`` (otherwise a missing column raises)."""
    cols = src.columns
    if given is not None:
        lower = {c.lower(): c for c in cols}
        if given in cols:
            return given
        if given.lower() in lower:
            return lower[given.lower()]
        raise PasscurveError(f"{src.name}: no column {given!r} (given as `{option}`); columns found: {', '.join(cols)}")
    if role in src.hints and src.hints[role] in cols:
        return src.hints[role]
    lower = {c.lower(): c for c in reversed(cols)}
    for a in aliases:
        c = lower.get(a)
        if c is not None and c not in exclude:
            return c
    if required:
        raise PasscurveError(
            f"{src.name}: no {role} column (looked for {', '.join(aliases)}; pass `{option}`); "
            f"columns found: {', '.join(cols)}"
        )
    return None


def _quiet(con: Any) -> None:
    """No DuckDB progress bar on stdout (it would corrupt ``--json`` output on long scans)."""
    if con is not None:
        try:
            con.execute("SET enable_progress_bar = false")
        except duckdb.Error:  # pragma: no cover
            pass


def _open(path: str | Path, format: str | None, correct_col: str | None = None) -> Source:
    src = open_file(path, format, correct_col)
    _quiet(src.con)
    return src


def _run(src: Source, sql: str) -> dict[str, np.ndarray]:
    try:
        return src.query(sql).fetchnumpy()
    except duckdb.Error as exc:
        raise duck_error(exc, src.name, src.reader) from None


def _first_row(src: Source, where: str) -> str:
    """The first raw row where ``where`` holds, quoted, with where it is in the input (" at line 5": ``located``)."""
    try:
        row, at = first_row(src, where)
    except duckdb.Error:
        return "{}"
    return _fmt_row(row) + at if row else "{}"


def _as_written(src: Source, cols: Sequence[str | None]) -> None:
    """Read a CSV's answer and gold columns as text (:func:`passcurve.data._source.as_text`). A CSV has no types:
    DuckDB's sniffer made ``1`` a DOUBLE 1.0 in an answer column of numbers and ``1`` a string in a gold column
    holding a word, so the answer '1.0' never matched the gold '1'; and it read ``1`` and ``1.0`` (or ``01``) in one
    column as one number. Their text as written is what the user wrote, and is compared."""
    if src.reader == "csv":
        as_text(src, [c for c in cols if c is not None])


def _answer_value(src: Source, col: str) -> str:
    """An answer or gold column as SQL, every missing value NULL (a missing answer abstains, a missing gold answer is
    an error): NULL, a JSON ``null``, a float NaN (a JSON ``NaN`` too), and in a CSV, whose fields are text
    (:func:`_as_written`), an empty field or the text ``nan`` in any case (as a count column reads it: docs/data.md).
    A JSON column's values are their text (a string without its quotes), a CSV field is taken without its
    surrounding spaces, any other column as it is. A string ``"nan"`` in a typed file (JSON, Parquet) is an answer,
    as it is in Python."""
    q = quote(col)
    t = src.types[col].upper()
    if t == "JSON":
        return json_text(q)
    if t in _FLOAT:
        return f"CASE WHEN {is_nan(q)} THEN NULL ELSE {q} END"
    if src.reader == "csv" and t.startswith("VARCHAR"):
        v = f"trim({q})"
        return f"CASE WHEN {v} = '' OR lower({v}) = 'nan' THEN NULL ELSE {v} END"
    return q


def _number_key(v: str) -> str:
    """SQL: the text ``v`` of a number (a JSON number's, or a typed number's cast to text) written one way per value,
    so that comparing texts compares values: an integer as written (without a sign of zero: any size), a whole number
    with a point or an exponent (1.0, 1e2) as that integer up to 2^53 (a DOUBLE is exact that far), any other as its
    DOUBLE. A JSON column of numbers (a Parquet file's) had its answer 1.0 apart from 1, and not the gold answer 1."""
    d = f"TRY_CAST({v} AS DOUBLE)"
    return (f"CASE WHEN regexp_matches({v}, '^-?[0-9]+$') THEN coalesce(CAST(TRY_CAST({v} AS HUGEINT) AS VARCHAR), {v}) "
            f"WHEN {d} = floor({d}) AND abs({d}) < 9007199254740992 THEN CAST(CAST({d} AS BIGINT) AS VARCHAR) "
            f"ELSE CAST({d} AS VARCHAR) END")


_JSON_NUMBER = "('BIGINT', 'UBIGINT', 'DOUBLE')"  # json_type() of a JSON number (an integer past 2^64: DOUBLE)


def _json_answer_key(src: Source, col: str) -> str:
    """SQL: the answer of the JSON column ``col`` (:func:`_answer_value`) with each number written by
    :func:`_number_key` and each string as written, so that 1.0 and 1 are one answer as in a typed column. The
    verdict path (answers judged per sample) grouped a Parquet JSON column's 1.0 and 1 as two answers, where the
    gold path compares them by value."""
    v = _answer_value(src, col)
    return f"CASE WHEN json_type({quote(col)}) IN {_JSON_NUMBER} THEN {_number_key(v)} ELSE {v} END"


def _id_expr(src: Source, col: str) -> str:
    """An identifier column as text (a JSON column of mixed ids without the quotes of its strings)."""
    return f"CAST({identifier(col, src.types[col])} AS VARCHAR)"


def _model_expr(src: Source, model: str | None) -> str:
    return _id_expr(src, model) if model else "'" + src.default_model.replace("'", "''") + "'"


# ---------------------------------------------------------------------------------------
# answers -> AnswerTallies
# ---------------------------------------------------------------------------------------
def read_answers(
    path: PathInput,
    *,
    problem_col: str | None = None,
    answer_col: str | None = None,
    gold_col: str | None = None,
    model_col: str | None = None,
    attempt_col: str | None = None,
    format: str | None = None,
    correct_col: str | None = None,
    models: Sequence[str] | None = None,
    pool: bool = False,
) -> Any:
    """Tally the answers of a per-sample log: one row per (model, problem, distinct answer).

    Columns (detected by alias unless given): problem id, final answer (answer,
    extracted_answer, pred, prediction, parsed_answer, final_answer), gold answer (gold,
    gold_answer, reference, target, ground_truth, expected, label), optional model and
    attempt. First appearance follows the attempt index when present, else the file order.
    A missing answer abstains (no vote): NULL, a JSON null or NaN, a float NaN, and in a CSV an empty
    field or the text nan. Answers are not normalised: a typed file (JSON, Parquet)
    compares values (``1`` and ``1.0`` are one answer), a CSV the text written without a field's
    surrounding spaces (``1``, ``1.0`` and ``01`` are three). Errors: a missing gold value, a problem
    with two different gold answers, answers and gold of mixed types, duplicate attempts.

    Without a gold column (or with ``correct_col`` given), the harness's per-sample verdict
    decides instead (lm-evaluation-harness logs: the filtered response is the answer and the
    task metric the verdict): an answer is the gold answer when its samples are judged
    correct. An answer judged both ways is an error; several answers judged correct in one
    problem (spellings such as "72" and "72.") count as one answer, with a warning.

    ``models`` keeps those models only, after the checks (an unknown name is an error listing the models
    present), as in :func:`passcurve.read_counts`; the warning about several correct answers counts their
    problems alone.

    Parameters
    ----------
    path : str or Path, a sequence of them, or a mapping {model name: path} (several files: the models side by
        side; named files: their models so named; as in :func:`passcurve.read_counts`)
    problem_col, answer_col, gold_col, model_col, attempt_col, correct_col : str, optional
        Column names (detected by alias when not given).
    format : str, optional
        The file format when the extension does not say it.
    models : sequence of str, optional
        Keep these models only.
    pool : bool, default False
        Several files that are runs over the same problems: a model's answers are tallied over all of them (the
        gold answer must agree), as :func:`passcurve.read_counts` pools counts.

    Returns
    -------
    passcurve.AnswerTallies
    """
    pool = check_pool(pool, path)
    if not is_one_path(path):  # several files: each read alone, the models side by side (data/_several.py)
        tallies = read_several(path, lambda f, _i, _n: read_answers(
            f, problem_col=problem_col, answer_col=answer_col, gold_col=gold_col, model_col=model_col,
            attempt_col=attempt_col, format=format, correct_col=correct_col), models_of=lambda t: t.model,
            problems_of=lambda t: t.problem,
            combine=_pool_tallies if pool else _concat_tallies, pool=pool)
        return _kept(tallies, models)
    src = _open(cast("str | Path", path), format, correct_col)
    correct_col = src.verdict_column(correct_col)
    prob = _pick(src, "problem", problem_col, ALIASES["problem"], "problem_col")
    ans = _pick(src, "answer", answer_col, ALIASES["answer"], "answer_col", exclude=(prob,))
    if correct_col is not None and gold_col is not None:
        raise PasscurveError("give either a gold-answer column (`gold_col`) or a verdict column (`correct_col`), "
                             "not both")
    gold = None if correct_col is not None else _pick(src, "gold", gold_col, GOLD_ALIASES, "gold_col",
                                                      required=False, exclude=(prob, ans))
    if gold is None:
        verdict = _pick(src, "correct", correct_col, ALIASES["correct"], "correct_col", required=False,
                        exclude=(prob, ans))
        if verdict is None:
            raise PasscurveError(
                f"{src.name}: no gold column (looked for {', '.join(GOLD_ALIASES)}; pass `gold_col`) and no "
                f"verdict column (looked for {', '.join(ALIASES['correct'])}; pass `correct_col`); "
                f"columns found: {', '.join(src.columns)}"
            )
        return _kept(_tallies_from_verdicts(src, prob, ans, verdict, model_col, attempt_col, models), models)
    model = _pick(src, "model", model_col, ALIASES["model"], "model_col", required=False, exclude=(prob, ans, gold))
    check_forced(src, model)
    att = _pick(src, "attempt", attempt_col, ALIASES["attempt"], "attempt_col", required=False,
                exclude=(prob, ans, gold, model))
    _as_written(src, (ans, gold))
    types = src.types
    fa, fg = _family(types[ans]), _family(types[gold])
    if "json" in (fa, fg):
        # JSON columns can hold strings and numbers side by side: one family only
        fams: dict[str, str] = {}
        for col, fam in ((ans, fa), (gold, fg)):
            if fam != "json":
                fams.setdefault(fam, col)
                continue
            q = quote(col)
            got = _run(src, (  # a missing value (null, NaN) abstains, whatever its JSON type
                f"SELECT DISTINCT CASE WHEN json_type({q}) = 'VARCHAR' THEN 'str' "
                f"WHEN json_type({q}) IN {_JSON_NUMBER} THEN 'number' ELSE json_type({q}) END AS t "
                f"FROM src WHERE ({_answer_value(src, col)}) IS NOT NULL"
            ))["t"]
            for t in got:
                fams.setdefault(str(t).lower(), col)
        if len(fams) > 1:
            raise PasscurveError(
                f"{src.name}: answers of mixed types in {ans!r}/{gold!r} ({' and '.join(sorted(fams))}); "
                "normalise answers to one type first"
            )
        ea = _answer_value(src, ans) if fa == "json" else f"CAST({_answer_value(src, ans)} AS VARCHAR)"
        eg = _answer_value(src, gold) if fg == "json" else f"CAST({_answer_value(src, gold)} AS VARCHAR)"
        if set(fams) == {"number"}:  # numbers compared by value, as in a typed column: 1 and 1.0 are one answer
            ea, eg = _number_key(ea), _number_key(eg)
    elif fa != fg:  # typed columns (a CSV's are text, read as written: _as_written)
        empty = next((c for c in (ans, gold) if types[c].strip('"').upper() == "NULL"), None)
        if empty is not None:  # DuckDB types a JSON column of nulls only as NULL: "'answer' is "NULL" but ..."
            raise PasscurveError(f"{src.name}: column {empty!r} holds no value (it is null in every row)")
        raise PasscurveError(
            f"{src.name}: answers of mixed types: {ans!r} is {types[ans]} but {gold!r} is {types[gold]}; "
            "normalise answers to one type first"
        )
    else:
        ea, eg = _answer_value(src, ans), _answer_value(src, gold)
    me = _model_expr(src, model)
    order = json_unwrapped(att, src.types[att]) if att else "row_number() OVER ()"
    base = (
        f"WITH s AS (SELECT {me} AS model, {_id_expr(src, prob)} AS problem, {ea} AS answer, "
        f"{eg} AS gold, {order} AS ord FROM src)"
    )
    # validation in SQL: missing gold, several gold answers, duplicate attempts
    chk = _run(src, base + (
        " SELECT count(*) FILTER (WHERE gold IS NULL) AS no_gold, count(*) FILTER (WHERE problem IS NULL) AS no_prob, "
        "(SELECT count(*) FROM (SELECT model, problem FROM s GROUP BY ALL HAVING count(DISTINCT gold) > 1)) AS multi, "
        + "count(*) AS rows FROM s"
    ))
    _check_rows(src, chk, prob)
    if int(chk["no_gold"][0]):
        _missing_gold(src, prob, gold)
    if int(chk["multi"][0]):
        bad = _run(src, base + " SELECT problem FROM s GROUP BY model, problem HAVING count(DISTINCT gold) > 1 LIMIT 1")
        raise PasscurveError(f"{src.name}: problem {bad['problem'][0]!r} has more than one gold answer in {gold!r}")
    _check_duplicates(src, base, att)
    per = _run(src, base + (
        ", p AS (SELECT model, problem, count(*) FILTER (WHERE answer IS NULL) AS abstain, "
        "row_number() OVER (ORDER BY model, problem) - 1 AS pid FROM s GROUP BY model, problem) "
        "SELECT model, problem, abstain FROM p ORDER BY pid"
    ))
    rows = _run(src, base + (
        ", p AS (SELECT model, problem, row_number() OVER (ORDER BY model, problem) - 1 AS pid "
        "FROM s GROUP BY model, problem) "
        "SELECT p.pid, a.answer, a.cnt, a.is_gold FROM (SELECT model, problem, answer, count(*) AS cnt, "
        "min(ord) AS first, bool_or(answer = gold) AS is_gold FROM s WHERE answer IS NOT NULL "
        "GROUP BY model, problem, answer) a JOIN p USING (model, problem) ORDER BY p.pid, a.first"
    ))
    return _kept(_tallies(src, per, rows, {"columns": {"problem": prob, "answer": ans, "gold": gold, "model": model,
                                                       "attempt": att}, "reader": src.reader}), models)


def _concat_tallies(parts: list[Any]) -> Any:
    """AnswerTallies of disjoint models, in order (each part's answer offsets shifted past the previous parts')."""
    from .._voting import AnswerTallies

    starts = np.cumsum([0] + [int(t.offsets[-1]) for t in parts[:-1]])
    answers = [t.answer for t in parts]
    return AnswerTallies(
        model=np.concatenate([t.model for t in parts]),
        problem=np.concatenate([t.problem for t in parts]),
        offsets=np.concatenate([[0]] + [t.offsets[1:] + s for t, s in zip(parts, starts, strict=True)]).astype(
            np.int64),
        count=np.concatenate([t.count for t in parts]),
        is_gold=np.concatenate([t.is_gold for t in parts]),
        abstain=np.concatenate([t.abstain for t in parts]),
        answer=None if any(a is None for a in answers) else np.concatenate(answers),
        source=", ".join(t.source for t in parts),
        meta={"reader": "several files", "files": [{"source": t.source, **t.meta} for t in parts]},
    )


def _pool_tallies(parts: list[Any]) -> Any:
    """Runs over the same problems: per (model, problem) the answers' counts added, in order of first appearance
    over the runs (file order, then each file's order), abstentions added. An answer is gold if it is gold in a
    run that sampled it; two runs naming different gold answers for a problem are an error."""
    from .._voting import AnswerTallies

    joined = _concat_tallies(parts)
    if joined.answer is None:  # pragma: no cover - the readers always keep the answers
        raise PasscurveError("pooling answer tallies needs the answers themselves")
    order: dict[tuple[str, str], int] = {}
    answers: list[dict[Any, list]] = []  # per pooled problem: answer -> [count, gold, not gold]
    abstain: list[int] = []
    for i in range(len(joined)):
        key = (str(joined.model[i]), str(joined.problem[i]))
        if key not in order:
            order[key] = len(answers)
            answers.append({})
            abstain.append(0)
        j = order[key]
        abstain[j] += int(joined.abstain[i])
        s, e = int(joined.offsets[i]), int(joined.offsets[i + 1])
        for a, cnt, gold in zip(joined.answer[s:e].tolist(), joined.count[s:e].tolist(),
                                joined.is_gold[s:e].tolist(), strict=True):
            slot = answers[j].setdefault(a, [0, False, False])  # count, gold in some run, not gold in some run
            slot[0] += cnt
            slot[1 if gold else 2] = True
        golds = [a for a, (_c, g, _n) in answers[j].items() if g]
        both = [a for a, (_c, g, n) in answers[j].items() if g and n]
        if len(golds) > 1 or both:
            what = f"({golds[0]!r}, {golds[1]!r})" if len(golds) > 1 else f"({both[0]!r} in some runs, not others)"
            raise PasscurveError(f"model {key[0]!r}, problem {key[1]!r}: the runs give different gold answers "
                                 f"{what}; pooled runs must be over the same problems")
    # a model's problems sorted by id as text, models in order of first appearance (as pooled counts)
    rank = {m: r for r, m in enumerate(dict.fromkeys(m for m, _p in order))}
    keys = sorted(order, key=lambda mp: (rank[mp[0]], mp[1]))
    sizes = [len(answers[order[k]]) for k in keys]
    flat = [(a, c, g) for k in keys for a, (c, g, _n) in answers[order[k]].items()]
    return AnswerTallies(
        model=np.array([m for m, _p in keys], dtype=object),
        problem=np.array([p for _m, p in keys], dtype=object),
        offsets=np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        count=np.array([c for _a, c, _g in flat], dtype=np.int64),
        is_gold=np.array([g for _a, _c, g in flat], dtype=bool),
        abstain=np.array([abstain[order[k]] for k in keys], dtype=np.int64),
        answer=np.array([a for a, _c, _g in flat] + [None], dtype=object)[:-1],
        source=joined.source,
        meta=dict(joined.meta, pooled=True),
    )


def _kept(tallies: Any, models: Sequence[str] | None) -> Any:
    """The tallies of ``models`` only (all when None)."""
    return tallies if models is None else tallies.select_models(models)


def _check_rows(src: Source, chk: dict[str, np.ndarray], prob: str) -> None:
    """The checks both answer readers make first (``chk`` from their validation query): some rows, no missing
    problem id."""
    if int(chk["rows"][0]) == 0:
        raise no_rows_error(src.name)
    if int(chk["no_prob"][0]):
        raise PasscurveError(f"{src.name}: problem-id column {prob!r} has a missing value, e.g. row "
                             f"{_first_row(src, f'({_id_expr(src, prob)}) IS NULL')}")


def _missing_gold(src: Source, prob: str, gold: str) -> None:
    """Refuse a missing gold answer (NULL, null, NaN, a CSV's empty field or nan: :func:`_answer_value`), naming its
    problem and row, as :meth:`AnswerTallies.from_answers` names the problem. A NaN gold had made NaN answers
    correct, and the text nan a gold answer; a problem cannot be scored without one."""
    where = f"({_answer_value(src, gold)}) IS NULL"
    problem: Any = None
    row = "{}"
    try:
        rel = src.query(f"SELECT {_id_expr(src, prob)} AS __pc_problem, * FROM src WHERE {where} LIMIT 1")
        got = rel.fetchall()
    except duckdb.Error:  # pragma: no cover - the validation query read the same rows
        got = []
    if got:
        problem = got[0][0]
        row = _fmt_row(dict(zip(rel.columns[1:], got[0][1:], strict=True)))
    raise PasscurveError(f"{src.name}: gold answer missing (null/NaN) in column {gold!r} for problem {problem!r}, "
                         f"e.g. row {row}; every problem needs a reference answer")


def _check_duplicates(src: Source, base: str, att: str | None) -> None:
    """No (model, problem, attempt) twice; ``base`` defines the canonical rows ``s`` with their ``ord``.

    First the XOR fingerprint of each problem's attempt ids (one GROUP BY over problems, as the samples reader
    does): ids that are the run 0..n-1 or 1..n have no duplicate. Only otherwise the exact GROUP BY over
    (model, problem, attempt), which held 10^7 groups and 1 GB on a 10^7-sample log."""
    if not att:
        return
    # a missing attempt (NULL, a float NaN: is_missing on the column, here on its value ``ord``) is counted in the
    # same scan as the fingerprints, and refused as the samples reader refuses it (a null attempt had read
    # 'duplicate attempt -- in problem ...')
    gone = "ord IS NULL" + (f" OR {is_nan('ord')}" if src.types[att].upper() in _FLOAT else "")
    g = _run(src, base + " SELECT count(*) AS n, bit_xor(hash(TRY_CAST(ord AS BIGINT))) AS fp, "
                         f"count(*) FILTER (WHERE {gone}) AS gone FROM s GROUP BY model, problem")
    if g["gone"].sum():
        raise PasscurveError(f"{src.name}: attempt column {att!r} has a missing value, e.g. row "
                             f"{_first_row(src, is_missing(att, src.types[att]))}")
    if runs_of_ids(src, g["n"], g["fp"]):
        return
    bad = _run(src, base + " SELECT model, problem, CAST(ord AS VARCHAR) AS ord FROM s GROUP BY model, problem, ord "
                           "HAVING count(*) > 1 LIMIT 1")
    if len(bad["ord"]):
        # where its first two rows are, on this error path only (as the samples reader says)
        at = first_two_located(src, lambda sql: _run(src, f"{base} {sql}"), "s", (
            ("model", bad["model"][0]), ("problem", bad["problem"][0]), ("CAST(ord AS VARCHAR)", bad["ord"][0])))
        if (inexact := inexact_attempt_error(src.name, att, src.types[att], bad["ord"][0], at)) is not None:
            raise inexact
        raise PasscurveError(
            f"{src.name}: duplicate attempt {bad['ord'][0]} in problem {bad['problem'][0]!r} (column {att!r}){at}"
        )


def _tallies(src: Source, per: dict[str, np.ndarray], rows: dict[str, np.ndarray], meta: dict[str, Any]) -> Any:
    """AnswerTallies from the per-problem rows (model, problem, abstain; in problem order) and the per-answer
    rows (pid, answer, cnt, is_gold; sorted by problem, then first appearance)."""
    from .._voting import AnswerTallies

    check_ids(src.name, meta["columns"], per["model"], per["problem"], src)
    pid = np.asarray(rows["pid"], dtype=np.int64)
    offsets = np.searchsorted(pid, np.arange(len(per["problem"]) + 1), side="left").astype(np.int64)
    return AnswerTallies(
        model=np.asarray(per["model"], dtype=object),
        problem=np.asarray(per["problem"], dtype=object),
        offsets=offsets,
        count=np.asarray(rows["cnt"], dtype=np.int64),
        is_gold=np.asarray(rows["is_gold"], dtype=bool),
        abstain=np.asarray(per["abstain"], dtype=np.int64),
        answer=np.asarray(rows["answer"], dtype=object),
        source=src.name,
        meta=meta,
    )


def _tallies_from_verdicts(
    src: Source, prob: str, ans: str, verdict: str, model_col: str | None, attempt_col: str | None,
    models: Sequence[str] | None = None,
) -> Any:
    """Answer tallies whose gold answer is the one the per-sample verdicts mark correct.

    ``models``: the models the caller keeps; the warning about several answers judged correct counts (and
    shows) their problems only, so that it says nothing of a model the user left out."""
    import warnings

    from .._errors import MergedAnswersWarning

    model = _pick(src, "model", model_col, ALIASES["model"], "model_col", required=False, exclude=(prob, ans, verdict))
    check_forced(src, model)
    att = _pick(src, "attempt", attempt_col, ALIASES["attempt"], "attempt_col", required=False,
                exclude=(prob, ans, verdict, model))
    _as_written(src, (ans,))
    ok = _bool_expr(src, verdict, "correct_col")
    _check_bool(src, verdict, ok, "correct_col")
    order = json_unwrapped(att, src.types[att]) if att else "row_number() OVER ()"
    answer = _json_answer_key(src, ans) if src.types[ans].upper() == "JSON" else _answer_value(src, ans)
    base = (
        f"WITH s AS (SELECT {_model_expr(src, model)} AS model, {_id_expr(src, prob)} AS problem, "
        f"{answer} AS answer, {ok} AS ok, {order} AS ord FROM src), "
        "a AS (SELECT model, problem, answer, count(*) AS cnt, min(ord) AS first, bool_or(ok) AS good, "
        "bool_and(ok) AS all_good FROM s WHERE answer IS NOT NULL GROUP BY model, problem, answer), "
        "p AS (SELECT model, problem, count(*) FILTER (WHERE answer IS NULL) AS abstain, "
        "row_number() OVER (ORDER BY model, problem) - 1 AS pid FROM s GROUP BY model, problem)"
    )
    chk = _run(src, base + (
        " SELECT (SELECT count(*) FROM s) AS rows, (SELECT count(*) FROM s WHERE problem IS NULL) AS no_prob, "
        "(SELECT count(*) FROM a WHERE good AND NOT all_good) AS mixed, "
        "(SELECT count(*) FROM (SELECT model, problem FROM a WHERE good GROUP BY ALL HAVING count(*) > 1)) AS multi"
    ))
    _check_rows(src, chk, prob)
    _check_duplicates(src, base, att)
    if int(chk["mixed"][0]):
        bad = _run(src, base + " SELECT problem, answer FROM a WHERE good AND NOT all_good LIMIT 1")
        raise PasscurveError(
            f"{src.name}: answer {bad['answer'][0]!r} of problem {bad['problem'][0]!r} is judged correct in some "
            f"samples and incorrect in others (column {verdict!r}); voting needs one verdict per answer"
        )
    multi = int(chk["multi"][0])
    if multi:
        ex = _run(src, base + " SELECT model, problem, list(answer ORDER BY first) AS spellings FROM a WHERE good "
                  "GROUP BY model, problem HAVING count(*) > 1 ORDER BY min(first), model, problem")
        wanted = None if models is None else {str(m) for m in models}
        hits = [i for i, m in enumerate(ex["model"]) if wanted is None or str(m) in wanted]
        multi = len(hits)
    if multi:
        i = hits[0]
        warnings.warn(
            f"{src.name}: {multi} problem(s) have several answers judged correct (e.g. problem "
            f"{ex['problem'][i]!r}: {', '.join(repr(v) for v in list(ex['spellings'][i])[:3])}); each problem's "
            "correct answers count as one answer in the vote",
            MergedAnswersWarning,
            stacklevel=3,
        )
    per = _run(src, base + " SELECT model, problem, abstain FROM p ORDER BY pid")
    # all the answers judged correct form one class (key NULL); the others stay as they are
    rows = _run(src, base + (
        " SELECT p.pid, arg_min(a.answer, a.first) AS answer, sum(a.cnt)::BIGINT AS cnt, min(a.first) AS first, "
        "bool_or(a.good) AS is_gold FROM a JOIN p USING (model, problem) "
        "GROUP BY p.pid, CASE WHEN a.good THEN NULL ELSE a.answer END ORDER BY p.pid, first"
    ))
    return _tallies(src, per, rows, {
        "columns": {"problem": prob, "answer": ans, "gold": None, "verdict": verdict, "model": model, "attempt": att},
        "reader": src.reader, "gold_from": "verdicts", "problems_with_several_correct_answers": multi})


# ---------------------------------------------------------------------------------------
# verdict columns
# ---------------------------------------------------------------------------------------
def _words(ws: tuple[str, ...]) -> str:
    return ", ".join("'" + w.replace("'", "''") + "'" for w in ws)


def _bool_expr(src: Source, col: str, option: str) -> str:
    """SQL for a strictly boolean verdict column (bool, 0/1 or true/false words); NULL otherwise."""
    q = quote(col)
    t = src.types[col].upper()
    if t == "BOOLEAN":
        return q
    if _family(t) == "number":
        return f"CASE WHEN {q} = 1 THEN TRUE WHEN {q} = 0 THEN FALSE ELSE NULL END"
    if t.startswith("VARCHAR") or t == "JSON":
        s = f"lower(trim(CAST({q} AS VARCHAR), ' \"'))"
        return f"CASE WHEN {s} IN ({_words(TRUE_WORDS)}) THEN TRUE WHEN {s} IN ({_words(FALSE_WORDS)}) THEN FALSE ELSE NULL END"
    raise PasscurveError(f"{src.name}: verdict column {col!r} (`{option}`) has type {src.types[col]}; expected boolean")


def _check_bool(src: Source, col: str, expr: str, option: str) -> None:
    got = _run(src, f"SELECT count(*) AS bad FROM src WHERE ({expr}) IS NULL")
    if int(got["bad"][0]):
        # a missing verdict (NULL, a JSON null, a float NaN) is named as such, as the samples reader names a missing
        # correctness value; anything else is not boolean
        missing = is_missing(col, src.types[col])
        if int(_run(src, f"SELECT count(*) AS bad FROM src WHERE {missing}")["bad"][0]):
            row = _first_row(src, missing)
            raise PasscurveError(
                f"{src.name}: verdict column {col!r} (`{option}`) has a missing value (null/NaN), e.g. row {row}"
            )
        row = _first_row(src, f"({expr}) IS NULL")
        raise PasscurveError(
            f"{src.name}: verdict column {col!r} (`{option}`) is not boolean (true/false, 0/1), e.g. row {row}"
        )


def read_verdicts(
    path: PathInput,
    *,
    base_col: str,
    strict_col: str,
    problem_col: str | None = None,
    model_col: str | None = None,
    attempt_col: str | None = None,
    format: str | None = None,
    models: Sequence[str] | None = None,
    pool: bool = False,
) -> dict[str, np.ndarray]:
    """Per (model, problem): n, passes under the base and the strict verdicts, and samples that
    pass strict but fail base (``c_strict_only``), in one DuckDB ``GROUP BY``; ``models`` keeps those
    models only (an unknown name is an error listing the models present). With an attempt column
    (detected by alias unless given), a (model, problem, attempt) that appears twice is an error, as
    in :func:`read_answers` and :func:`passcurve.read_counts`.

    Parameters
    ----------
    path : str or Path, a sequence of them, or a mapping {model name: path} (several files: the models side by
        side; named files: their models so named; as in :func:`passcurve.read_counts`)
    base_col, strict_col : str
        The columns of the base and the strict per-sample verdicts.
    problem_col, model_col, attempt_col : str, optional
        Column names (detected by alias when not given).
    format : str, optional
    models : sequence of str, optional
        Keep these models only.
    pool : bool, default False
        Several files that are runs over the same problems: the counts added per (model, problem).

    Returns
    -------
    dict of ndarray
        ``model``, ``problem``, ``n``, ``c_base``, ``c_strict``, ``c_strict_only``, one entry per
        (model, problem), sorted; the arguments of :func:`passcurve.verifier_inflation`. From several files,
        each file's rows in turn, in the order of the files.
    """
    pool = check_pool(pool, path)
    if not is_one_path(path):  # several files: each read alone, the models side by side (data/_several.py)
        sums = ("n", "c_base", "c_strict", "c_strict_only")
        return select_columns(read_several(path, lambda f, _i, _n: read_verdicts(
            f, base_col=base_col, strict_col=strict_col, problem_col=problem_col, model_col=model_col,
            attempt_col=attempt_col, format=format), models_of=lambda g: g["model"], problems_of=lambda g: g["problem"],
            combine=(lambda parts: pool_columns(parts, sums)) if pool else concat_columns, pool=pool), models)
    src = _open(cast("str | Path", path), format)
    prob = _pick(src, "problem", problem_col, ALIASES["problem"], "problem_col")
    base = _pick(src, "base verdict", base_col, (), "base_col")
    strict = _pick(src, "strict verdict", strict_col, (), "strict_col")
    if base == strict:
        raise PasscurveError("`base_col` and `strict_col` name the same column")
    model = _pick(src, "model", model_col, ALIASES["model"], "model_col", required=False,
                  exclude=(prob, base, strict))
    check_forced(src, model)
    att = _pick(src, "attempt", attempt_col, ALIASES["attempt"], "attempt_col", required=False,
                exclude=(prob, base, strict, model))
    for again in (True, False):
        eb, es = _bool_expr(src, base, "base_col"), _bool_expr(src, strict, "strict_col")
        try:
            _check_bool(src, base, eb, "base_col")
            _check_bool(src, strict, es, "strict_col")
            break
        except PasscurveError as exc:
            # a CSV verdict column sniffed BOOLEAN from its first rows, with a later word DuckDB's BOOLEAN refuses
            # ('passed', 'fail'): read it again as text, once, on this error only (as Samples.counts does)
            late = [c for c in (base, strict) if src.reader == "csv" and src.types.get(c) == "BOOLEAN"
                    and f'Error when converting column "{c}"' in str(exc)]
            if not (again and late):
                raise
            as_text(src, late)
    if _run(src, f"SELECT count(*) AS m FROM src WHERE {quote(prob)} IS NULL")["m"][0]:
        raise PasscurveError(f"{src.name}: problem-id column {prob!r} has a missing value")
    # one row per sample: a repeated attempt (a log concatenated twice, a retried job) counted twice in n and c
    _check_duplicates(src, f"WITH s AS (SELECT {_model_expr(src, model)} AS model, {_id_expr(src, prob)} AS problem, "
                           f"{json_unwrapped(att, src.types[att])} AS ord FROM src)" if att else "", att)
    g = _run(src, (
        f"SELECT {_model_expr(src, model)} AS model, {_id_expr(src, prob)} AS problem, count(*) AS n, "
        f"count(*) FILTER (WHERE {eb}) AS c_base, count(*) FILTER (WHERE {es}) AS c_strict, "
        f"count(*) FILTER (WHERE {es} AND NOT {eb}) AS c_strict_only "
        "FROM src GROUP BY ALL ORDER BY model, problem"
    ))
    if len(g["n"]) == 0:
        raise no_rows_error(src.name)
    out = {k: np.asarray(v) for k, v in g.items()}
    out["model"] = out["model"].astype(object)
    out["problem"] = out["problem"].astype(object)
    check_ids(src.name, {"problem": prob, "model": model}, out["model"], out["problem"], src)
    if models is not None:  # in the order named
        keep = models_rows(out["model"], models)
        out = {k: v[keep] for k, v in out.items()}
    return out


# ---------------------------------------------------------------------------------------
# attempts
# ---------------------------------------------------------------------------------------
_ATTEMPT_MAX = INT_CAP  # as_int_array's bound, which the retries analysis applies to the attempts read here


def _check_attempt_numbers(src: Source, col: str, att: np.ndarray) -> None:
    """Refuse an attempt (of ``read_attempts``'s numeric column ``col``, fetched as ``att``) that is NaN, has a
    fraction, or is at least 2^62 in size, naming its row and where it is: the retries analysis said "`attempt` must contain
    integers (got 1.5)" or "`attempt` is too large (got attempt=1.8446744073709552e+19, max 4.61e+18)", in the
    words of an API argument, of a file's column."""
    if att.size == 0 or att.dtype.kind not in "fiu":
        return
    q = quote(col)
    if att.dtype.kind == "f" and np.isnan(att).any():
        row, at = first_row(src, f"isnan({q})")
        raise PasscurveError(f"{src.name}: attempt column {col!r} has a missing value (NaN), e.g. row {_fmt_row(row)}{at}")
    if att.dtype.kind == "f" and (np.isinf(att) | (att != np.floor(att))).any():
        row, at = first_row(src, f"isinf({q}) OR {q} <> floor({q})")
        raise PasscurveError(f"{src.name}: attempt column {col!r} must hold whole numbers, e.g. row {_fmt_row(row)}{at}")
    if np.max(np.abs(att.astype(np.float64))) >= _ATTEMPT_MAX:
        row, at = first_row(src, f"abs({q}::DOUBLE) >= {float(_ATTEMPT_MAX)!r}")
        raise PasscurveError(f"{src.name}: attempt column {col!r} holds an attempt too large to number a retry (the "
                             f"largest is 2^62 - 1 = {_ATTEMPT_MAX - 1}), e.g. row {_fmt_row(row)}{at}")


def _check_attempt_runs(s: Any, labels: dict[str, np.ndarray], code: np.ndarray, att: np.ndarray) -> None:
    """Refuse attempts that break :func:`passcurve.retries`' rule (:func:`passcurve._retries.attempt_fault`: in every
    (model, problem) they run base, base + 1, ..., base 0 or 1, the model's smallest attempt), naming the file, the
    problem and where its samples are: retries said "attempt indices of problem 'p1' have a gap: 2 follows 0",
    without the file or its lines. ``code`` and ``att`` are sorted by (model, problem) code, then attempt."""
    from .._retries import attempt_fault

    if att.size == 0:
        return
    _, per_label = np.unique(np.asarray(labels["model"], dtype=object).astype(str), return_inverse=True)
    base, fault = attempt_fault(code, att, per_label[code])  # model codes over the labels, then per sample
    if fault is None:
        return
    kind, i = fault
    if kind == "duplicate":  # refused before with its lines; said so again should the models kept be checked alone
        s._check_duplicates({}, False, pooled=False)
    several = len(set(labels["model"])) > 1  # problem ids repeat across models: name the model too
    num = [int(base[i]), int(att[i])]  # whole and below 2^62 (_check_attempt_numbers): as ints

    def where(i: int) -> tuple[str, str]:
        m, p = labels["model"][code[i]], labels["problem"][code[i]]
        who = f"problem {p!r}" + (f" of model {m!r}" if several else "")
        return who, s._rows_of(m, p, att[i].item())

    who, at = where(i)
    if kind == "base":
        raise PasscurveError(f"{s.source}: attempt column {s.columns.roles['attempt']!r} must number each problem's "
                             f"attempts from 0 or 1; the smallest is {num[0]} ({who}{at})")
    run = f"attempts must run {num[0]}, {num[0] + 1}, ... without a gap (an attempt lost from the log?)"
    if kind == "late":
        raise PasscurveError(f"{s.source}: the attempts of {who} start at {num[1]}{at}, not {num[0]} as elsewhere in "
                             f"the {'model' if several else 'file'}: {run}")
    _, before = where(i - 1)
    raise PasscurveError(f"{s.source}: the attempts of {who} have a gap: {num[1]}{at} follows "
                         f"{int(att[i - 1])}{before}; {run}")


def read_attempts(
    path: PathInput,
    *,
    problem_col: str | None = None,
    attempt_col: str | None = None,
    correct_col: str | None = None,
    model_col: str | None = None,
    threshold: float | None = None,
    format: str | None = None,
    models: Sequence[str] | None = None,
) -> dict[str, np.ndarray]:
    """Per-sample (model, problem, attempt, correct), sorted by (model, problem, attempt) in SQL.

    Uses :func:`passcurve.data.open_samples` (column detection and correctness parsing of
    the shared reader); an attempt column is required. ``models`` keeps those models only (an
    unknown name is an error listing the models present).

    Parameters
    ----------
    path : str or Path, a sequence of them, or a mapping {model name: path} (several files: the models side by
        side; named files: their models so named; as in :func:`passcurve.read_counts`)
    problem_col, attempt_col, correct_col, model_col : str, optional
        Column names (detected by alias when not given).
    threshold : float, optional
        A numeric score counts as correct when ``score >= threshold``.
    format : str, optional
    models : sequence of str, optional
        Keep these models only.

    Returns
    -------
    dict of ndarray
        ``model``, ``problem``, ``attempt`` and ``correct``, one entry per sample: the arguments of
        :func:`passcurve.retries`. From several files, each file's rows in turn, in the order of the files.
    """
    from ._read import _open

    if not is_one_path(path):  # several files: each read alone, the models side by side (data/_several.py)
        return select_columns(read_several(path, lambda f, _i, _n: read_attempts(
            f, problem_col=problem_col, attempt_col=attempt_col, correct_col=correct_col, model_col=model_col,
            threshold=threshold, format=format), models_of=lambda d: d["model"],
            problems_of=lambda d: d["problem"], combine=concat_columns), models)

    # a counts file is refused for its layout below, the cause, before `threshold` could be (threshold_anywhere)
    s = _open(cast("str | Path", path), format, {"problem": problem_col, "correct": correct_col, "model": model_col,
                                                 "n": None, "c": None, "attempt": attempt_col, "answer": None},
              threshold, threshold_anywhere=True)
    _quiet(getattr(s._src, "con", None))
    if s.layout != "samples":
        raise PasscurveError(f"{s.source}: retries need a per-sample log with an attempt column, not per-problem counts")
    col = s.columns.get("attempt")
    if col is None:
        raise PasscurveError(
            f"{s.source}: no attempt column (looked for {', '.join(ALIASES['attempt'])}; pass `attempt_col`)"
        )
    t = s.raw.types[s.raw.columns.index(col)]
    if _family(str(t)) != "number":
        # the first value that is no number, where it is (a fuzzed CSV with one '}' said only "(type VARCHAR)")
        q = f"lower(trim(CAST({quote(col)} AS VARCHAR)))"
        row, at = first_row(s._src, f"{q} IS NOT NULL AND {number_text(q)} IS NULL")
        if not row and not s._src.query("SELECT 1 FROM src LIMIT 1").fetchall():
            # a CSV header alone types every column VARCHAR: no rows, not attempts that are no integers
            raise no_rows_error(s.source)
        example = f", e.g. row {_fmt_row(row)}{at}" if row else ""
        raise PasscurveError(f"{s.source}: attempt column {col!r} must hold integers (type {t}){example}")
    # the labels once each, and per sample only their codes: a Python string per sample took ~250 bytes a row
    # (2.5 GB at 10^7 samples); the per-sample arrays below point at the shared label objects (8 bytes a row)
    for again in (True, False):
        try:
            labels = s._query("SELECT DISTINCT model, CAST(problem AS VARCHAR) AS problem FROM samples "
                             "ORDER BY model, problem").fetchnumpy()
            g = s._query(
                "SELECT (dense_rank() OVER (ORDER BY model, CAST(problem AS VARCHAR)) - 1)::BIGINT AS code, attempt, "
                "correct FROM samples ORDER BY code, attempt"
            ).fetchnumpy()
            break
        except duckdb.Error as exc:
            # a CSV column sniffed BOOLEAN with a later 'passed': read as text, once (as Samples.counts does)
            if not (again and s._correct_as_text(exc)):
                raise duck_error(exc, s.source, s.reader) from None
    if len(g["attempt"]) == 0:
        raise no_rows_error(s.source)
    correct = g["correct"]
    if np.ma.isMaskedArray(correct) and np.ma.getmaskarray(correct).any():
        s._refuse_correctness()  # the value missing or not boolean, its row and line
    att = g["attempt"]
    code = np.asarray(g["code"], dtype=np.int64)
    missing = np.ma.isMaskedArray(att) and np.ma.getmaskarray(att).any()
    if missing or ((code[1:] == code[:-1]) & (np.asarray(att)[1:] == np.asarray(att)[:-1])).any():
        # a missing or repeated attempt with its row and lines, as every per-sample reader says it (retries' own check
        # said "duplicate attempt 0 in problem 'p2'", without the file or where); the query only on this path
        s._check_duplicates({}, False, pooled=False)
    if missing:
        raise PasscurveError(f"{s.source}: attempt column {col!r} has a missing value")
    _check_attempt_numbers(s._src, col, np.asarray(att))
    check_ids(s.source, s.columns.roles, labels["model"], labels["problem"], s._src)
    att, correct = np.asarray(att), np.asarray(correct, dtype=bool)
    if models is not None:  # checked on the (model, problem) labels, then their samples kept, in the order named
        sel = models_rows(np.asarray(labels["model"], dtype=object), models)
        rank = np.full(len(labels["model"]), -1, dtype=np.int64)
        rank[sel] = np.arange(sel.size)
        keep = np.flatnonzero(rank[code] >= 0)
        keep = keep[np.argsort(rank[code][keep], kind="stable")]
        code, att, correct = code[keep], att[keep], correct[keep]
    _check_attempt_runs(s, labels, code, att)  # on the models kept, as retries sees them
    return {
        "model": np.asarray(labels["model"], dtype=object)[code],
        "problem": np.asarray(labels["problem"], dtype=object)[code],
        "attempt": att,
        "correct": correct,
    }
