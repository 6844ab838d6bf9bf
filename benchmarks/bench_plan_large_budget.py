"""Speed and agreement of the hierarchical planner at large budgets: quadrature vs exact outcome sums.

`Planner.allocate(B)` looks ahead up to B samples per problem; a look-ahead of m samples sums over
about m times the posterior's width of outcomes. Rows with more than `_QUAD_MIN_OUTCOMES` outcomes
take `_hier_stats_quad` (exact sums at both ends, Gauss-Legendre panels between). Baseline in the
same process: the same call with the quadrature switched off (every row summed outcome by outcome).
Reported: seconds for both, the ratio, and how many of the B samples the two plans place differently
(half the L1 distance between the allocations).

Data: 100 problems at n = 100, success counts from a Beta(0.4, 2)-binomial (seed 1), K = 1000,
as `passcurve plan FILE --budget B --k 1000`.

Run: PYTHONPATH=src python benchmarks/bench_plan_large_budget.py [--quick]   (--quick: B <= 10⁶)
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Any

import numpy as np

from passcurve import Planner, _planner


@contextmanager
def exact_sums() -> Any:
    """Every row summed over all its outcomes (the behaviour before the quadrature)."""
    saved = _planner._QUAD_MIN_OUTCOMES
    _planner._QUAD_MIN_OUTCOMES = 1 << 62
    try:
        yield
    finally:
        _planner._QUAD_MIN_OUTCOMES = saved


ROWS = {"quadrature": 0, "exact": 0}


def _count(name: str, fn: Any) -> Any:
    def wrapped(*args: Any) -> Any:
        out = fn(*args)
        ROWS[name] += int(np.sum(out[1])) if name == "quadrature" else len(out)
        return out

    return wrapped


@contextmanager
def counting_rows() -> Any:
    """Count the rows (problem, look-ahead) summed exactly and by the quadrature."""
    saved = _planner._hier_stats_quad, _planner._hier_stats_rows
    _planner._hier_stats_quad = _count("quadrature", saved[0])  # type: ignore[assignment]
    _planner._hier_stats_rows = _count("exact", saved[1])  # type: ignore[assignment]
    ROWS.update(quadrature=0, exact=0)
    try:
        yield
    finally:
        _planner._hier_stats_quad, _planner._hier_stats_rows = saved  # type: ignore[assignment]


def timed(n: np.ndarray, c: np.ndarray, budget: int) -> tuple[float, np.ndarray]:
    t0 = time.perf_counter()
    got = Planner(n=n, c=c, k=1000, rng=0).allocate(budget)
    return time.perf_counter() - t0, got


def main() -> None:
    quick = "--quick" in sys.argv
    budgets = [10**5, 10**6] if quick else [10**5, 10**6, 10**7]
    rng = np.random.default_rng(1)
    n = np.full(100, 100)
    c = rng.binomial(n, rng.beta(0.4, 2.0, 100))
    print("100 problems, n = 100, c ~ BetaBinomial(100, 0.4, 2.0), K = 1000")
    timed(n, c, 1000)  # warm-up (imports, first calls)
    print(f"{'budget':>9s} {'quadrature s':>12s} {'exact s':>9s} {'ratio':>7s} {'samples moved':>16s} "
          f"{'problems differing':>18s} {'rows by quadrature':>18s}")
    for b in budgets:
        with counting_rows():
            t_q, got_q = timed(n, c, b)
        share = f"{ROWS['quadrature']}/{ROWS['quadrature'] + ROWS['exact']}"
        with exact_sums():
            t_e, got_e = timed(n, c, b)
        moved = int(np.abs(got_q - got_e).sum()) // 2
        print(f"{b:>9d} {t_q:>12.2f} {t_e:>9.2f} {t_e / t_q:>7.1f} {moved:>8d} ({moved / b:.2%}) "
              f"{int((got_q != got_e).sum()):>18d} {share:>18s}", flush=True)


if __name__ == "__main__":
    main()
