"""Speed of the empirical-Bayes posterior at the benchmark's pairs × K: the conjugate update once per pair.

Design (as ``bench_count_histograms.py``): P problems, n uniform integers in [100, 1000], c ~ beta-binomial(n, 0.3, 3)
(numpy, seed 12345); 10^5 problems have 51,189 distinct (n, c) pairs. ``forecast`` asks each difficulty model's
posterior pass@k and variance at the pairs × K (and at every parameter draw). The posterior's component weights
(for the Beta mixture a log moment per pair and component, for the zero-inflated Beta one per unsolved pair) do not
depend on K, but were computed at every (pair, K) after broadcasting; ``DifficultyModel._posterior`` now computes
them over the broadcast of n and c alone and broadcasts them, the same values bit for bit. Baseline in the same
process: ``_posterior`` replaced by the previous code (broadcast n, c and k, then update).

Printed: CPU ms per call (best of seven) at K = 10^3, 10^4 for the fitted zero-inflated Beta and Beta mixture, and
``forecast(counts, [1000, 10000], rng=0)`` (best of two, CPU s), with whether the results are identical.
Run with OPENBLAS_NUM_THREADS=1 on a shared machine. Figures (thirtieth session): docs/forecasting.md, "Fit timing".

Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_posterior_shared.py [P ...]
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
from _unequal_n import best, design

import passcurve as pc
import passcurve._difficulty as dif

_NEW = dif.DifficultyModel._posterior


def _old(self: Any, n_i: np.ndarray, c_i: np.ndarray, k_i: np.ndarray) -> tuple[Any, ...]:
    n_a, c_a, k_a = np.broadcast_arrays(n_i, c_i, k_i)
    return n_a, c_a, k_a, self._conjugate(n_a, c_a)


def main(sizes: list[int]) -> None:
    warnings.simplefilter("ignore")
    K = np.array([1000.0, 10000.0])
    for P in sizes:
        n, c = design(P)
        counts = pc.Counts.from_arrays(n, c)
        pn, pcs, _ = dif._pairs(n, c)[:3]
        print(f"{P:,} problems, {pn.size:,} distinct pairs, K = 10^3, 10^4")
        for cls in (dif.ZeroInflatedBetaBinomial, dif.BetaMixtureBinomial):
            m = cls().fit(n=n, c=c)
            out = {}
            for name, f in (("old", _old), ("new", _NEW)):
                dif.DifficultyModel._posterior = f  # type: ignore[method-assign]
                args = (pn[:, None], pcs[:, None], K[None, :])
                t1, _, q = best(lambda m=m, args=args: m.posterior_pass_at_k(*args), 7)
                t2, _, v = best(lambda m=m, args=args: m._posterior_fail_var(*args), 7)
                out[name] = (t1, t2, q, v)
            dif.DifficultyModel._posterior = _NEW  # type: ignore[method-assign]
            o, w = out["old"], out["new"]
            same = np.array_equal(o[2], w[2]) and np.array_equal(o[3], w[3])
            print(f"  {cls.name:13s} posterior_pass_at_k {o[0] * 1e3:6.1f} -> {w[0] * 1e3:6.1f} ms, "
                  f"_posterior_fail_var {o[1] * 1e3:6.1f} -> {w[1] * 1e3:6.1f} ms, identical: {same}")
        res = {}
        for name, f in (("new", _NEW), ("old", _old)):
            dif.DifficultyModel._posterior = f  # type: ignore[method-assign]
            res[name] = best(lambda cs=counts: pc.forecast(cs, [1000, 10000], rng=0).to_frame()[
                ["pass_at_k", "low", "high"]].to_numpy(), 2)
        dif.DifficultyModel._posterior = _NEW  # type: ignore[method-assign]
        print(f"  forecast {res['old'][0]:.2f} -> {res['new'][0]:.2f} s CPU, identical: "
              f"{np.array_equal(res['old'][2], res['new'][2])}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [20_000, 100_000])
