"""Adapters from the report to analyses that may or may not be in this build of passcurve.

Each adapter calls the library's public functions and returns their result objects (or
arrays read straight off them) in the shape a section builder takes. :func:`available` lists
only the adapters whose library functions exist, so the report omits a section (with a
note) rather than faking it. No statistics are computed here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

import passcurve as pc

__all__ = ["available"]


def _has(*names: str) -> bool:
    return all(hasattr(pc, n) for n in names)


# ------------------------------------------------------------------------------------- intervals
def intervals(cur: Any, counts: Any, confidence_level: float, rng: Any, k_gt_n: str = "raise") -> Any:
    """``cur`` with the intervals of :func:`passcurve.curve_intervals` (analytic, counting problems)."""
    metrics = [m for m in ("pass_at_k", "pass_pow_k") if m in cur.values]
    ci = pc.curve_intervals(
        counts, cur.k, metric=metrics, method="analytic", confidence_level=confidence_level, rng=rng, k_gt_n=k_gt_n
    )
    # the estimates come with their intervals; the naive metric stays from ``cur``
    return dataclasses.replace(
        cur,
        values={**cur.values, **{m: ci.values[m] for m in metrics}},
        intervals={m: ci.intervals[m] for m in metrics if m in ci.intervals},
        confidence_level=ci.confidence_level,
        interval_method=ci.interval_method,
    )


# ------------------------------------------------------------------------------------- comparisons
def comparisons(counts: Any, table_curve: Any, confidence_level: float, rng: Any) -> list[Any]:
    """:func:`passcurve.compare` of every model against the one with the highest pass@1, at the table's k."""
    models = list(table_curve.models)
    j1 = int(np.argmax(np.nan_to_num(table_curve.values["pass_at_k"][:, 0], nan=-1)))
    best = models[j1]
    n_min = int(counts.n.min())
    ks = [int(k) for k in table_curve.k if int(k) <= n_min and (int(k) == 1 or np.log10(int(k)).is_integer()
                                                                  or int(k) == n_min)]
    out = []
    for m in models:
        if m == best:
            continue
        out.append(pc.compare(counts, best, m, ks, confidence_level=confidence_level, n_resamples=1000, rng=rng))
    return out


# ------------------------------------------------------------------------------------- diagnostics
def diagnostics(counts: Any) -> Any:
    """:func:`passcurve.hidden_difficulty` on the powers of two up to the smallest n."""
    n_min = int(counts.n.min())
    ks = [2**e for e in range(0, 31) if 2**e <= n_min]
    return pc.hidden_difficulty(counts, ks)


def available() -> dict[str, Callable[..., Any]]:
    """Name -> adapter, for the analyses this build provides."""
    out: dict[str, Callable[..., Any]] = {}
    if _has("curve_intervals"):
        out["intervals"] = intervals
    if _has("compare"):
        out["compare"] = comparisons
    if _has("hidden_difficulty"):
        out["diagnostics"] = diagnostics
    return out
