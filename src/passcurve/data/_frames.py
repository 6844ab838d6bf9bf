"""``counts_from_frame``: data frames from Python -> Counts, aggregated on the frame's own engine.

* pandas, polars (eager), pyarrow tables and DuckDB relations: scanned in place by DuckDB
  and handed to the same mechanism as files (column mapping, validation queries, GROUP BY).
* Anything narwhals understands lazily (Dask, PySpark, polars LazyFrame, ...): the GROUP BY
  and the validation counts run on that engine through narwhals; only the grouped result
  (one row per (model, problem)) comes back to this process, where the same checks apply.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import numpy as np

from .._counts import Counts
from .._errors import PasscurveError
from .._validation import check_text
from ._columns import FRAME_OPTION, NUMBER, WHITESPACE, resolve_columns
from ._samples import (
    FALSE_WORDS,
    TRUE_WORDS,
    build_samples,
    check_ids,
    check_threshold,
    correctness_type_error,
    duplicate_attempt_error,
    missing_value_error,
    nested_id_error,
    not_boolean_error,
    stopping_time_evidence,
    threshold_on_counts_error,
    warn_if_ids_number_rows,
)
from ._source import no_columns_error, no_rows_error, open_frame

__all__ = ["counts_from_frame"]


def counts_from_frame(
    df: Any,
    *,
    problem: str | None = None,
    correct: str | None = None,
    model: str | None = None,
    attempt: str | None = None,
    n: str | None = None,
    c: str | None = None,
    threshold: float | None = None,
    name: str = "frame",
) -> Counts:
    """Per-sample rows or per-problem counts in a data frame -> :class:`passcurve.Counts`.

    Parameters
    ----------
    df : pandas/polars DataFrame, pyarrow Table, DuckDB relation, Dask or PySpark DataFrame
        (or any lazy frame narwhals supports).
    problem, correct, model, attempt, n, c : str, optional
        Column names; by default detected from the names exactly as :func:`read_counts` does.
    threshold : float, optional
        A numeric score counts as correct when ``score >= threshold``.
    name : str
        Model name when the frame has no model column, and the ``source`` of the result.

    Returns
    -------
    Counts
        One row per (model, problem).

    Notes
    -----
    In-memory frames are aggregated by DuckDB in this process (zero-copy scan). Dask,
    PySpark and other lazy frames are aggregated by their own engine (``group_by(model,
    problem).agg(len, sum(correct))`` through narwhals), so the rows never leave the
    cluster; the result has one row per (model, problem).
    """
    overrides = {"problem": problem, "correct": correct, "model": model, "attempt": attempt, "n": n, "c": c}
    name = check_text(name, "name", "a model name, a string")  # name=None reached str.replace (AttributeError)
    src = open_frame(df, name)
    if src is not None:
        return build_samples(src, overrides, threshold, FRAME_OPTION).counts()
    return _counts_narwhals(df, overrides, threshold, name)


def _counts_narwhals(df: Any, overrides: dict[str, str | None], threshold: float | None, name: str) -> Counts:
    """Aggregate a lazy frame on its own engine, with the rules and messages of the DuckDB path (data._samples):
    NULL, NaN and blank ids are missing, a NaN score is missing (not above every threshold), the correctness words
    and numbers are read alike, a repeated header row is named, and so are missing and duplicate attempt ids.
    Only the grouped result and, on an error, one offending row come back to this process."""
    try:
        import narwhals as nw
    except ImportError:  # pragma: no cover - optional dependency
        raise PasscurveError(
            "`counts_from_frame` needs narwhals for this frame type: pip install narwhals"
        ) from None
    try:
        with warnings.catch_warnings():
            # narwhals announces that Dask support moves to a plugin; irrelevant to users here
            warnings.filterwarnings("ignore", message=".*narwhals-dask.*", category=FutureWarning)
            frame = nw.from_native(df)
    except TypeError:
        raise PasscurveError(
            f"`df` must be a pandas, polars, pyarrow, DuckDB, Dask or PySpark frame (got {type(df).__name__})"
        ) from None
    threshold = check_threshold(threshold)
    lf = frame.lazy() if isinstance(frame, nw.DataFrame) else frame
    schema = dict(lf.collect_schema())
    columns = list(schema)
    if not columns:
        raise no_columns_error(f"{type(df).__module__.split('.')[0]} {type(df).__name__}")
    cmap = resolve_columns(columns, overrides, source=name, options=FRAME_OPTION)
    r = cmap.roles
    engine = type(df).__module__.split(".")[0]
    for role in ("problem", "model"):  # a list or struct id: the readers' check (nested_value); the engine's own
        id_col = r.get(role)             # cast error (polars: 'cannot cast List type') had escaped
        if id_col is not None and schema[id_col].is_nested():
            what = "a struct" if schema[id_col] == nw.Struct else "a list"
            rows = lf.filter(~nw.col(id_col).is_null()).head(1).collect().rows(named=True)
            if rows:
                raise nested_id_error(name, role, id_col, what, dict(rows[0]))
    if cmap.layout == "counts":
        if threshold is not None:  # as build_samples refuses it on an in-memory frame
            raise threshold_on_counts_error(name, threshold, r["n"], r["c"])
        sel = [nw.col(r["problem"]).alias("problem_id"), nw.col(r["n"]).alias("n"), nw.col(r["c"]).alias("c")]
        if "model" in r:
            sel.append(nw.col(r["model"]).alias("model"))
        small = lf.select(sel).collect().to_arrow()
        return _finish_small(small, name, engine, cmap.to_dict(), threshold=None)

    problem = _nw_identifier(nw, r["problem"], schema[r["problem"]])
    model = _nw_identifier(nw, r["model"], schema[r["model"]]) if "model" in r else nw.lit(name, nw.String)
    correct = _nw_correct(nw, r["correct"], schema[r["correct"]], threshold, r["problem"], problem, name)
    att = r.get("attempt")
    # per-row values first: Dask's group_by takes elementary aggregations of columns only
    keyed = lf.with_columns(
        model.alias("__pc_model"),
        problem.alias("__pc_problem"),
        correct.fill_null(False).cast(nw.Int64).alias("__pc_c"),
        correct.is_null().cast(nw.Int64).alias("__pc_bad"),
        *([] if att is None else [nw.col(att).is_null().cast(nw.Int64).alias("__pc_att_null")]),
    )
    aggs = [nw.len().alias("n"), nw.col("__pc_c").sum().alias("c"), nw.col("__pc_bad").sum().alias("n_bad")]
    if att is not None:
        aggs.append(nw.col("__pc_att_null").sum().alias("n_att_null"))
    grouped = keyed.group_by("__pc_model", "__pc_problem").agg(*aggs).collect()
    g = {k: np.asarray(v) for k, v in grouped.to_dict(as_series=False).items()}
    if g["n"].size == 0:
        raise no_rows_error(name)

    def first_row(where: Any) -> dict[str, Any]:
        rows = lf.filter(where).head(1).collect().rows(named=True)
        return dict(rows[0]) if rows else {}

    # the checks of Samples._check_nulls and _check_duplicates, in their order
    if (g["__pc_problem"] == None).any():  # noqa: E711 - object array
        raise missing_value_error(name, "problem", r["problem"], first_row(problem.is_null()))
    if (g["__pc_model"] == None).any():  # noqa: E711
        raise missing_value_error(name, "model", r["model"], first_row(model.is_null()))
    if (g["n_bad"] > 0).any():
        col = nw.col(r["correct"])
        missing = col.is_null() | col.is_nan() if schema[r["correct"]].is_float() else col.is_null()
        row = first_row(missing)
        if row:
            raise missing_value_error(name, "correct", r["correct"], row)
        raise not_boolean_error(name, r["correct"], r["problem"], first_row(correct.is_null()), threshold)
    if att is not None:
        if (g["n_att_null"] > 0).any():
            raise missing_value_error(name, "attempt", att, first_row(nw.col(att).is_null()))
        # exact, in one more pass over the rows: a distinct count of attempts per (model, problem) missed, on a
        # Dask frame of several partitions, an attempt repeated in two partitions
        dup = (
            keyed.group_by("__pc_model", "__pc_problem", att).agg(nw.len().alias("__pc_k"))
            .filter(nw.col("__pc_k") > 1).head(1).collect().rows(named=True)
        )
        if dup:
            hit = dup[0]
            model_id = hit["__pc_model"] if "model" in r else None
            raise duplicate_attempt_error(name, hit["__pc_problem"], model_id, hit[att], int(hit["__pc_k"]))
    m_a = np.asarray(g["__pc_model"], dtype=object)
    p_a = np.asarray(g["__pc_problem"], dtype=object)
    check_ids(name, r, m_a, p_a)
    n_a = g["n"].astype(np.int64)
    c_a = np.asarray(g["c"], dtype=np.int64)
    meta = {"reader": f"narwhals/{engine}", "layout": "samples", **cmap.to_dict(), "threshold": threshold}
    meta["stopping_time"] = stopping_time_evidence(m_a, n_a, c_a, None, name)
    warn_if_ids_number_rows(name, cmap, n_a, stacklevel=4)
    order = np.lexsort((p_a.astype(str), m_a.astype(str)))
    return Counts.from_arrays(n_a[order], c_a[order], problem=p_a[order], model=m_a[order], source=name, meta=meta)




def _nw_identifier(nw: Any, col: str, dtype: Any) -> Any:
    """An id column as text, missing (null) where it is null, a float NaN or blank (:data:`WHITESPACE` only), as
    data._columns.identifier makes it in SQL."""
    e = nw.col(col)
    if dtype.is_float():
        return nw.when(~e.is_nan()).then(e).cast(nw.String)
    text = e.cast(nw.String)
    return nw.when(text.str.strip_chars(WHITESPACE) != "").then(text)


def _nw_correct(nw: Any, col: str, dtype: Any, threshold: float | None, problem_col: str, problem: Any,
                name: str) -> Any:
    """The correctness of a sample as a boolean expression, null where the value is missing or not boolean: the
    rules of Samples._correctness_expr (the same words, numbers and header-row test)."""
    e = nw.col(col)
    if dtype == nw.Boolean:
        return e
    if dtype.is_numeric():
        if threshold is not None:
            return nw.when(~e.is_nan()).then(e >= threshold) if dtype.is_float() else e >= threshold
        return nw.when((e == 1) | (e == 0)).then(e == 1)
    if dtype != nw.String:
        raise correctness_type_error(name, col, str(dtype))
    s = e.str.strip_chars(' "').str.to_lowercase()
    word = nw.when(s.is_in(list(TRUE_WORDS))).then(nw.lit(True)).otherwise(
        nw.when(s.is_in(list(FALSE_WORDS)) | s.str.starts_with("failed")).then(nw.lit(False))
    )
    number = s.str.contains(NUMBER)
    value = nw.when(number).then(s).otherwise(nw.lit("nan")).cast(nw.Float64)
    if threshold is not None:
        word = nw.when(number).then(value >= threshold).otherwise(word)
    else:  # a number equal to 1 or 0 ('+1', '-0', '1e0'), as Samples._correctness_expr reads it
        word = nw.coalesce(word, nw.when(value == 1).then(nw.lit(True)).otherwise(
            nw.when(value == 0).then(nw.lit(False))))
    header = ((s == col.lower()) & (problem == problem_col)).fill_null(False)
    return nw.when(~header).then(word)


def _finish_small(
    table: Any, name: str, engine: str, cmap: dict[str, Any], threshold: float | None
) -> Counts:
    """A small collected counts table -> the DuckDB mechanism (same checks as files)."""
    src = open_frame(table, name)
    assert src is not None
    counts = build_samples(src, {}, threshold, FRAME_OPTION).counts()
    return dataclasses.replace(counts, meta={**counts.meta, "reader": f"narwhals/{engine}", "source_columns": cmap})
