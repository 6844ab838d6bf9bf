"""Speed of ``extrapolation_bounds`` against its own first step, the simultaneous band, in the same process.

``extrapolation_bounds`` = ``curve_intervals(method="band")`` on the constraint grid + two linear programmes per
K. The baseline is the band alone on the same grid and data, so the ratio is the cost of the linear programmes.
Data: the shared Pythia counts (7 models x 128 problems, n = 10^4) when present, and a simulated benchmark
(4 demo models x 2,000 problems, n = 200).

Second table: the linear programmes as _Laws solves them (one HiGHS model per feasible set, re-solved from its last
basis as the costs change) against the old path (scipy's linprog from scratch for every programme, what _Laws falls
back to without scipy's HiGHS model object), in the same process, on extrapolation_bounds and its k_for, forecast and
its k_for (whose any-law band is these programmes), with the largest difference between the two paths' numbers.

Run:  PYTHONPATH=src python benchmarks/bench_bounds.py
"""

from __future__ import annotations

import time
import warnings
from unittest.mock import patch

import numpy as np
from backtest_pythia import DATA, load

import passcurve as pc
from passcurve import _bounds
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
    hot_vs_cold(sets)


def both(fn):  # type: ignore[no-untyped-def]
    """(seconds, result) on the hot-started path and on linprog from scratch (best of 2 each)."""
    t_hot, out_hot = timed(fn, 2), fn()
    with patch.object(_bounds, "_highs", None):
        t_cold, out_cold = timed(fn, 2), fn()
    return t_hot, t_cold, out_hot, out_cold


def hot_vs_cold(sets: list) -> None:  # type: ignore[type-arg]
    from pathlib import Path

    bon = Path(DATA).with_name("bon_jailbreaking_counts.csv")
    sets = [("demo (simulate(rng=0)), 4 x 300", pc.simulate(rng=0).counts, None), *[(a, b, None) for a, b in sets]]
    if bon.exists():
        sets.append(("BoN, --stop-batch 60 --cap 10020", load(bon), pc.StopAtSuccess(60, cap=10020)))
    K = [10**4, 10**5, 10**6]
    print(f"\nhot-started programmes vs linprog from scratch (K = {K}; bounds: 500 band replicates; k_for: target "
          "0.5, first model)")
    print(f"{'data':34s} {'call':22s} {'hot s':>7s} {'cold s':>7s} {'ratio':>6s} {'max |diff|':>10s}")
    for label, counts, design in sets:
        m0 = counts.models[0]
        calls = {
            "extrapolation_bounds": lambda c=counts, d=design: pc.extrapolation_bounds(c, K, rng=0, n_resamples=500,
                                                                                      design=d),
            "forecast": lambda c=counts, d=design: pc.forecast(c, K, rng=0, design=d),
        }
        for name, fn in calls.items():
            t_hot, t_cold, a, b = both(fn)
            diff = max(float(np.nanmax(np.abs(a.low - b.low))), float(np.nanmax(np.abs(a.high - b.high))))
            print(f"{label:34s} {name:22s} {t_hot:7.2f} {t_cold:7.2f} {t_cold / t_hot:6.2f} {diff:10.2g}", flush=True)
            res = fn()

            def kf(r=res, m=m0):  # type: ignore[no-untyped-def]
                return r.k_for(0.5, model=m)

            t_hot, t_cold, a, b = both(kf)
            pick = ("earliest", "certain") if name == "extrapolation_bounds" else ("low", "k", "high")
            va = np.array([getattr(a, f) for f in pick], float)
            vb = np.array([getattr(b, f) for f in pick], float)
            same = bool(np.array_equal(va, vb, equal_nan=True))
            print(f"{label:34s} {name + '.k_for':22s} {t_hot:7.2f} {t_cold:7.2f} {t_cold / t_hot:6.2f} "
                  f"{'identical' if same else 'DIFFER':>10s}", flush=True)


if __name__ == "__main__":
    main()
