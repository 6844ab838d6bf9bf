"""Harness adapters (filled in below)."""
from __future__ import annotations

from pathlib import Path

import duckdb

from ._source import Source, _generic

ADAPTERS: dict = {}


def adapt(src: Source, p: Path) -> Source:
    return src


def open_json(con: duckdb.DuckDBPyConnection, p: Path, stem: str, *, forced: bool) -> Source:
    return Source(_generic(con, p, "jsonl"), con, p.name, stem, "json")


def open_harness(con, p, fmt, stem, forced=True):  # type: ignore[no-untyped-def]
    raise NotImplementedError
