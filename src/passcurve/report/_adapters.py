"""Adapters from the report to analyses that may or may not be in this build of passcurve.

Each adapter calls the library's public functions and returns result objects (or plain
dicts read off them) in the shape a section builder takes. :func:`available` lists only the
adapters whose library functions exist, so the report omits a section (with a note) rather
than faking it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["available"]


def available() -> dict[str, Callable[..., Any]]:
    """Name -> adapter, for the analyses this build provides."""
    return {}
