"""Helpers shared by the result dataclasses (no statistics here)."""

from __future__ import annotations

from typing import Any

__all__ = ["long_frame"]


def long_frame(d: dict[str, Any], key: str = "curve") -> Any:
    """Flatten ``{"models": [{"model": M, ..., key: [{...}, ...]}]}`` into a long pandas DataFrame.

    One row per (model, point), with the model name first; the result objects whose
    ``to_dict()`` has this shape (curves, votes, retries, verifiers) share it for ``to_frame()``.
    """
    import pandas as pd

    rows = [{"model": entry["model"], **pt} for entry in d["models"] for pt in entry[key]]
    return pd.DataFrame(rows)
