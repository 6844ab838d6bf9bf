"""Speed of ``extrapolation_bounds`` against its own first step, the simultaneous band, in the same process.

``extrapolation_bounds`` = ``curve_intervals(method="band")`` on the constraint grid + two linear programmes per
K. The baseline is the band alone on the same grid and data, so the ratio is the cost of the linear programmes.
Data: the shared Pythia counts (7 models x 128 problems, n = 10^4) when present, and a simulated benchmark
(4 demo models x 2,000 problems, n = 200).

Run:  PYTHONPATH=src python benchmarks/bench_bounds.py
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from backtest_pythia import DATA, load

import passcurve as pc
from passcurve._bounds import constraint_grid


def timed(fn, reps: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = np.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return float(best)


def main() -> None:
    warnings.simplefilter("ignore")
    sets = []
    if DATA.exists():
        sets.append(("Pythia, 7 x 128, n = 10^4", load(DATA)))
    sets.append(("simulated, 4 x 2000, n = 200", pc.simulate(problems=2000, n=200, rng=0).counts))
    K = [10**3, 10**4, 10**5, 10**6, 10**7]
    print(f"{'data':32s} {'bounds s':>9s} {'band alone s':>12s} {'ratio':>6s}  (K = {K}, 2000 band replicates)")
    for label, counts in sets:
        def band(counts: pc.Counts = counts) -> None:
            for m in counts.models:
                sub = counts.select(m)
                pc.curve_intervals(sub, k=constraint_grid(int(sub.n.min())), metric="pass_at_k", method="band",
                                   rng=0)

        t_b = timed(lambda counts=counts: pc.extrapolation_bounds(counts, K, rng=0))
        t_0 = timed(band)
        print(f"{label:32s} {t_b:9.2f} {t_0:12.2f} {t_b / t_0:6.2f}", flush=True)


if __name__ == "__main__":
    main()
