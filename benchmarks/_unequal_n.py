"""What the unequal-n speed benchmarks share (bench_count_histograms, bench_lockstep_rows, bench_npmle_qr,
bench_posterior_shared): their design and their timer.

Design: P problems, n uniform integers in [100, 1000], c ~ beta-binomial(n, 0.3, 3) (numpy, seed 12345); 10^5
problems have 51,189 distinct (n, c) pairs over 901 distinct n. Timer: the best of ``runs`` calls, CPU seconds (the
figure to read on a shared machine) and wall seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def design(P: int) -> tuple[np.ndarray, np.ndarray]:
    """(n, c) of the benchmarks' P problems (seed 12345)."""
    g = np.random.default_rng(12345)
    n = g.integers(100, 1001, P)
    return n, g.binomial(n, g.beta(0.3, 3.0, P))


def best(f: Callable[[], Any], runs: int = 2) -> tuple[float, float, Any]:
    """(CPU seconds, wall seconds, the last result) of the best of ``runs`` calls of ``f``."""
    fastest, out = (np.inf, np.inf), None
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        out = f()
        fastest = min(fastest, (time.process_time() - c0, time.perf_counter() - w0))
    return fastest[0], fastest[1], out
