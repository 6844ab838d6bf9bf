"""``counts_from_frame``: data frames from Python -> Counts, aggregated on the frame's own engine.

* pandas, polars (eager), pyarrow tables and DuckDB relations: scanned in place by DuckDB
  and handed to the same mechanism as files (column mapping, validation queries, GROUP BY).
* Anything narwhals understands lazily (Dask, PySpark, polars LazyFrame, ...): the GROUP BY
  and the validation counts run on that engine through narwhals; only the grouped result
  (one row per (model, problem)) comes back to this process, where the same checks apply.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._counts import Counts
from .._errors import PasscurveError
from ._columns import resolve_columns
from ._samples import FALSE_WORDS, TRUE_WORDS, build_samples, stopping_time_evidence
from ._source import open_frame

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

    Notes
    -----
    In-memory frames are aggregated by DuckDB in this process (zero-copy scan). Dask,
    PySpark and other lazy frames are aggregated by their own engine (``group_by(model,
    problem).agg(len, sum(correct))`` through narwhals), so the rows never leave the
    cluster; the result has one row per (model, problem).
    """
    overrides = {"problem": problem, "correct": correct, "model": model, "attempt": attempt, "n": n, "c": c}
    src = open_frame(df, name)
    if src is not None:
        return build_samples(src, overrides, threshold).counts()
    return _counts_narwhals(df, overrides, threshold, name)


def _counts_narwhals(df: Any, overrides: dict[str, str | None], threshold: float | None, name: str) -> Counts:
    try:
        import narwhals as nw
    except ImportError:  # pragma: no cover - optional dependency
        raise PasscurveError("`counts_from_frame` needs narwhals for this frame type: pip install narwhals") from None
    try:
        with warnings.catch_warnings():
            # narwhals announces that Dask support moves to a plugin; irrelevant to users here
            warnings.filterwarnings("ignore", message=".*narwhals-dask.*", category=FutureWarning)
            frame = nw.from_native(df)
    except TypeError:
        raise PasscurveError(
            f"`df` must be a pandas, polars, pyarrow, DuckDB, Dask or PySpark frame (got {type(df).__name__})"
        ) from None
    lf = frame.lazy() if isinstance(frame, nw.DataFrame) else frame
    schema = dict(lf.collect_schema())
    columns = list(schema)
    cmap = resolve_columns(columns, overrides, source=name)
    r = cmap.roles
    engine = type(df).__module__.split(".")[0]
    if cmap.layout == "counts":
        sel = [nw.col(r["problem"]).alias("problem_id"), nw.col(r["n"]).alias("n"), nw.col(r["c"]).alias("c")]
        if "model" in r:
            sel.append(nw.col(r["model"]).alias("model"))
        small = lf.select(sel).collect().to_arrow()
        return _finish_small(small, name, engine, cmap.to_dict(), threshold=None)

    ctype = schema[r["correct"]]
    col = nw.col(r["correct"])
    if ctype == nw.Boolean:
        corr = col
    elif ctype.is_numeric():
        corr = col >= threshold if threshold is not None else col.is_in([0, 1]) & (col == 1)
        ok = ~col.is_null() & (col >= threshold if threshold is not None else col.is_in([0, 1]))
    elif ctype == nw.String:
        s = col.str.strip_chars().str.to_lowercase()
        corr = s.is_in(list(TRUE_WORDS))
        ok = s.is_in(list(TRUE_WORDS)) | s.is_in(list(FALSE_WORDS)) | s.str.starts_with("failed")
    else:
        raise PasscurveError(f"{name}: correctness column {r['correct']!r} has type {ctype}; expected bool, 0/1 or a score")
    if ctype == nw.Boolean:
        ok = ~col.is_null()
    elif ctype.is_numeric() and threshold is not None:
        ok = ~col.is_null() & ~col.is_nan() if ctype.is_float() else ~col.is_null()
    model_expr = nw.col(r["model"]) if "model" in r else nw.lit(name)
    keyed = lf.with_columns(
        model_expr.cast(nw.String).alias("__pc_model"),
        nw.col(r["problem"]).cast(nw.String).alias("__pc_problem"),
        corr.fill_null(False).cast(nw.Int64).alias("__pc_c"),
        (~ok.fill_null(False)).cast(nw.Int64).alias("__pc_bad"),
    )
    aggs = [
        nw.len().alias("n"),
        nw.col("__pc_c").sum().alias("c"),
        nw.col("__pc_bad").sum().alias("n_bad"),
    ]
    if "attempt" in r:
        aggs.append(nw.col(r["attempt"]).n_unique().alias("n_att_distinct"))
    grouped = keyed.group_by("__pc_model", "__pc_problem").agg(*aggs).collect()
    g = {k: np.asarray(v) for k, v in grouped.to_dict(as_series=False).items()}
    if g["n"].size == 0:
        raise PasscurveError(f"{name} has no rows")
    bad = np.flatnonzero(g["n_bad"] > 0)
    if bad.size:
        i = bad[0]
        raise PasscurveError(
            f"{name}: correctness column {r['correct']!r} holds a missing or non-boolean value for problem "
            f"{g['__pc_problem'][i]!r} (expected true/false or 0/1{'' if threshold is not None else '; pass `threshold` for scores'})"
        )
    if (g["__pc_problem"] == None).any():  # noqa: E711
        raise PasscurveError(f"{name}: problem-id column {r['problem']!r} has a missing value")
    if "n_att_distinct" in g:
        dup = np.flatnonzero(g["n_att_distinct"] < g["n"])
        if dup.size:
            i = dup[0]
            raise PasscurveError(
                f"{name}: duplicate (problem, attempt) rows for problem {g['__pc_problem'][i]!r}: "
                f"{int(g['n'][i])} rows but {int(g['n_att_distinct'][i])} distinct attempts"
            )
    m = np.asarray(g["__pc_model"], dtype=object)
    n_a = g["n"].astype(np.int64)
    c_a = g["c"].astype(np.int64)
    meta = {"reader": f"narwhals/{engine}", "layout": "samples", **cmap.to_dict(), "threshold": threshold}
    meta["stopping_time"] = stopping_time_evidence(m, n_a, c_a, None, name)
    order = np.lexsort((np.asarray(g["__pc_problem"], dtype=str), m.astype(str)))
    return Counts.from_arrays(
        n_a[order], c_a[order], problem=np.asarray(g["__pc_problem"], dtype=object)[order], model=m[order],
        source=name, meta=meta,
    )


def _finish_small(table: Any, name: str, engine: str, cmap: dict[str, Any], threshold: float | None) -> Counts:
    """A small collected counts table -> the DuckDB mechanism (same checks as files)."""
    src = open_frame(table, name)
    assert src is not None
    counts = build_samples(src, {}, threshold).counts()
    counts.meta["reader"] = f"narwhals/{engine}"
    counts.meta["source_columns"] = cmap
    return counts
