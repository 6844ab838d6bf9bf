"""Speed of the problem resample drawn over distinct rows against the draw problem by problem, same process.

``curve_intervals`` with a resampling method (bootstrap, BCa, the simultaneous band) resamples problems. A problem's
scores are a function of its (n, c) (and its weight), so a benchmark with equal n has at most n + 1 distinct rows,
and a resample's multiplicities summed over each row are Multinomial(P, u/P) (``_uncertainty._boot_means``). The
baseline is the same call with ``_DISTINCT_ROWS = False`` (P x B uniform draws, counted, then a (B x P) @ (P x K)
product). Unequal n with many distinct (n, c) falls back to the problem-by-problem draw (no speed-up expected).

Run:  PYTHONPATH=src python benchmarks/bench_bootstrap_rows.py
"""

from __future__ import annotations

import warnings

import numpy as np
from bench_bounds import timed  # best of a few runs

import passcurve as pc
import passcurve._uncertainty as unc
from passcurve._bounds import constraint_grid


def counts(P: int, equal_n: bool, seed: int = 0) -> pc.Counts:
    g = np.random.default_rng(seed)
    n = np.full(P, 200) if equal_n else g.integers(100, 1001, P)
    return pc.Counts.from_arrays(n, g.binomial(n, g.beta(0.3, 3.0, P)))


def main() -> None:
    warnings.simplefilter("ignore")
    print(f"{'data':34s} {'method':9s} {'B':>5s} {'distinct s':>10s} {'by problem s':>12s} {'ratio':>6s}")
    for P, equal_n in ((2_000, True), (20_000, True), (100_000, True), (20_000, False)):
        cnt = counts(P, equal_n)
        label = f"{P:,} problems, " + ("n = 200" if equal_n else "n in [100, 1000]")
        for method, B, ks in (("band", 1000, constraint_grid(100)), ("bootstrap", 2000, np.array([1, 10, 100]))):
            def run(cnt: pc.Counts = cnt, method: str = method, B: int = B, ks: np.ndarray = ks) -> None:
                pc.curve_intervals(cnt, k=ks, metric="pass_at_k", method=method, n_resamples=B, rng=0)

            unc._DISTINCT_ROWS = True
            t_d = timed(run, 2)
            unc._DISTINCT_ROWS = False
            t_p = timed(run, 2)
            unc._DISTINCT_ROWS = True
            print(f"{label:34s} {method:9s} {B:5d} {t_d:10.2f} {t_p:12.2f} {t_p / t_d:6.1f}", flush=True)


if __name__ == "__main__":
    main()
