"""Speed of the planner on large benchmarks (one planning call: `Planner.allocate`).

The hierarchical rule's cost is the exact sums over the outcomes of every look-ahead
(1, 8, 64, ... samples per problem, up to the budget), once per problem before the greedy
rounds, then once per round for the problem that got samples. Two measures make it scale:
the sums are computed once per distinct (n, c, look-ahead), and the greedy rounds score only
the first untouched problem of each group of identical problems plus those already given
samples. Both give exactly the same plan (tests/test_planner.py).

Baselines in the same process: the same call with the outcome sums evaluated row by row
(every problem on its own, as before the change; timed up to 20,000 problems), and the
fewest-successes rule (a heap, no model) on the same data.

Run: PYTHONPATH=src python benchmarks/bench_planner.py [--quick]
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Any

import numpy as np

from passcurve import Planner, _planner


@contextmanager
def rows_one_by_one() -> Any:
    """The outcome sums without the distinct-row step (the earlier behaviour)."""
    saved = _planner._by_outcome_chunks
    _planner._by_outcome_chunks = _planner._outcome_chunks  # type: ignore[assignment]
    try:
        yield
    finally:
        _planner._by_outcome_chunks = saved  # type: ignore[assignment]


def timed(n: np.ndarray, c: np.ndarray, budget: int, method: str) -> tuple[float, np.ndarray]:
    t0 = time.perf_counter()
    got = Planner(n=n, c=c, k=1000, method=method, rng=0).allocate(budget)
    return time.perf_counter() - t0, got


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = [2_000, 20_000] if quick else [2_000, 20_000, 200_000]
    rng = np.random.default_rng(0)
    print("budget = N/2 samples, K = 1000, difficulty Beta(0.3, 3)")
    print(f"{'problems':>9s} {'n':>10s} {'distinct (n,c)':>14s} {'hierarchical s':>14s} "
          f"{'row by row s':>12s} {'ratio':>7s} {'fewest s':>9s} {'hier/fewest':>11s}")
    for N in sizes:
        for label, n in (("20", np.full(N, 20)), ("50..149", rng.integers(50, 150, N))):
            c = rng.binomial(n, rng.beta(0.3, 3.0, N))
            distinct = len(set(zip(n.tolist(), c.tolist(), strict=True)))
            t_new, got = timed(n, c, N // 2, "hierarchical")
            if N <= 20_000 and not (quick and label != "20"):
                with rows_one_by_one():
                    t_old, got_old = timed(n, c, N // 2, "hierarchical")
                assert np.array_equal(got, got_old)
                old, ratio = f"{t_old:12.2f}", f"{t_old / t_new:7.1f}"
            else:
                old, ratio = f"{'-':>12s}", f"{'-':>7s}"
            t_few, _ = timed(n, c, N // 2, "fewest-successes")
            print(f"{N:9d} {label:>10s} {distinct:14d} {t_new:14.2f} {old} {ratio} {t_few:9.2f} {t_new / t_few:11.1f}")


if __name__ == "__main__":
    main()
