"""Distinct (n, c) pairs: the estimators' unit of work (problems sharing a pair share every estimate)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["distinct_pairs"]

_INT64_MAX = np.iinfo(np.int64).max


def distinct_pairs(n: Any, c: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)`` of the distinct pairs of two non-negative integer arrays of one shape, ordered by
    (n, c): ``n[first]``, ``c[first]`` are the pairs and ``inverse`` maps each element to its pair.

    One int64 key per pair, ``n * (max c + 1) + c``, whose 1-d unique is about 20 times faster than
    ``np.unique(axis=0)``; rows of (n, c) when that key would overflow (n * c beyond about 9.2e18, e.g.
    n = 2^33 - 1 with c = 10^8 read as another problem's pair before).
    """
    n = np.asarray(n, dtype=np.int64).ravel()
    c = np.asarray(c, dtype=np.int64).ravel()
    if n.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    base = int(c.max()) + 1
    if int(n.max()) <= (_INT64_MAX - base) // base:
        _, first, inv = np.unique(n * base + c, return_index=True, return_inverse=True)
    else:
        _, first, inv = np.unique(np.stack([n, c], axis=1), axis=0, return_index=True, return_inverse=True)
    return first, inv.ravel()
