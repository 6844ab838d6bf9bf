"""Write column dictionaries (numpy arrays) to CSV, JSONL or Parquet through DuckDB."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from .._counts import Counts
from .._errors import PasscurveError

__all__ = ["write_table", "write_counts"]

_FORMATS = {
    ".csv": "csv",
    ".jsonl": "json",
    ".ndjson": "json",
    ".json": "json",
    ".parquet": "parquet",
    ".pq": "parquet",
}


def write_table(columns: dict[str, Any], path: str | Path) -> Path:
    """Write equal-length columns to ``path``; the format follows the extension.

    Parameters
    ----------
    columns : dict of str to array_like
        Column name -> values, all of one length.
    path : str or Path
        Target file; ``.csv``, ``.jsonl`` or ``.parquet``.

    Returns
    -------
    Path
        ``path``.
    """
    path = Path(path)
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PasscurveError(
            f"cannot write {path.name!r}: unknown extension {path.suffix!r} (use .csv, .jsonl or .parquet)"
        )
    cols = {k: np.asarray(v) for k, v in columns.items()}
    con = duckdb.connect()
    try:
        con.register("passcurve_out", cols)
        opts = {"csv": "FORMAT csv, HEADER true", "json": "FORMAT json", "parquet": "FORMAT parquet"}[fmt]
        target = str(path).replace("'", "''")
        con.execute(f"COPY (SELECT * FROM passcurve_out) TO '{target}' ({opts})")
    except duckdb.IOException as exc:  # a missing directory, no permission, a full disk: one line, no traceback
        reason = str(exc).splitlines()[0].removeprefix("IO Error: ")
        raise PasscurveError(f"cannot write `{path}`: {reason}") from None
    finally:
        con.close()
    return path


def write_counts(counts: Counts, path: str | Path) -> Path:
    """Write Counts as a counts file (model, problem_id, n, c[, weight, cluster]).

    Parameters
    ----------
    counts : Counts
    path : str or Path
        Target file; ``.csv``, ``.jsonl`` or ``.parquet``.

    Returns
    -------
    Path
        ``path``; :func:`read_counts` reads it back.
    """
    d = counts.to_dict()
    cols: dict[str, Any] = {
        "model": np.asarray(d["model"], dtype=object),
        "problem_id": np.asarray(d["problem"], dtype=object),
        "n": counts.n,
        "c": counts.c,
    }
    if counts.weight is not None:
        cols["weight"] = counts.weight
    if counts.cluster is not None:
        cols["cluster"] = counts.cluster
    return write_table(cols, path)
