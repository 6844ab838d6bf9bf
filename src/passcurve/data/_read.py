"""Readers for per-sample logs and per-problem counts (JSONL, CSV, Parquet) on DuckDB.

PLACEHOLDER to be replaced by the data-layer implementation: only the signature is fixed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .._counts import Counts


def read_counts(
    path: str | Path,
    *,
    problem_col: str | None = None,
    correct_col: str | None = None,
    model_col: str | None = None,
    n_col: str | None = None,
    c_col: str | None = None,
    attempt_col: str | None = None,
    threshold: float | None = None,
    format: str | None = None,
) -> Counts:
    raise NotImplementedError
