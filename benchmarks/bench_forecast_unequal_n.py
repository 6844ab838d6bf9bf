"""Speed of ``forecast`` on many problems with unequal n: likelihood terms tabulated by count, against per pair.

With n spread over [100, 1000], 20,000 problems have ~15,000 distinct (n, c) pairs, so the fits' likelihood (the
self-backtest's refits, the parameter draws' likelihood weights, the deviation checks) evaluates one log Γ / ψ
difference per pair, hundreds of times. Each such term depends on a pair only through one whole number (c, n − c or
n), so ``_difficulty._whole_number_table`` computes it once per count 0..max n and gathers. The posterior of one
Beta (with or without a point mass at 0) is split only for the unsolved problems (``DifficultyModel._conjugate``).

Baseline in the same process: ``_TABLE_RATIO`` set so that no table is built, and ``_conjugate`` replaced by the
general mixture form (every problem's marginal under every part, then normalised), which is what both paths
replaced. The forecasts must agree (to 1e-6; the fits' optimum moves by rounding only). Times are the best of two
runs, wall and CPU (the CPU time is the figure to read on a shared machine).

Run:  PYTHONPATH=src python benchmarks/bench_forecast_unequal_n.py
"""

from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np
from scipy import special

import passcurve as pc
import passcurve._difficulty as dif


def _general_conjugate(self: dif.DifficultyModel, n_a: np.ndarray, c_a: np.ndarray) -> Any:
    """The baseline: every problem's marginal under every part of the mixture, normalised."""
    parts = self._beta_parts(self._check_fitted())
    if parts is None:
        return None
    lw, A, B, lz = parts
    d_a = (n_a - c_a).astype(np.float64)
    logs = [lw[j] + dif._beta_log_moment(c_a, d_a, A[j], B[j], exact=True) for j in range(A.size)]
    logs.append(lz + dif._zero_log_moment(c_a))
    total = special.logsumexp(np.stack(logs), axis=0)
    wts = [np.exp(v - total) for v in logs]
    return wts[:-1], A[:, None] + c_a.ravel(), B[:, None] + d_a.ravel(), wts[-1]


def run(P: int) -> tuple[float, float, np.ndarray]:
    g = np.random.default_rng(0)
    n = g.integers(100, 1001, P)
    counts = pc.Counts.from_arrays(n, g.binomial(n, g.beta(0.3, 2.0, P)))
    best = (np.inf, np.inf)
    out = np.empty(0)
    for _ in range(2):
        w0, c0 = time.perf_counter(), time.process_time()
        res = pc.forecast(counts, k=[1000, 10000], rng=0)
        best = min(best, (time.perf_counter() - w0, time.process_time() - c0))
        out = res.to_frame()[["pass_at_k", "low", "high"]].to_numpy()
    return best[0], best[1], out


def main() -> None:
    warnings.simplefilter("ignore")
    tabled, conj = dif._TABLE_RATIO, dif.DifficultyModel._conjugate
    print(f"{'problems, n in [100, 1000]':28s} {'pairs':>7s} {'tabled s (cpu)':>15s} {'per pair s (cpu)':>17s} "
          f"{'ratio (cpu)':>12s} {'max diff':>9s}")
    for P in (2_000, 20_000, 100_000):
        g = np.random.default_rng(0)
        n = g.integers(100, 1001, P)
        pairs = dif._pairs(n, g.binomial(n, g.beta(0.3, 2.0, P)))[0].size
        dif._TABLE_RATIO, dif.DifficultyModel._conjugate = tabled, conj  # type: ignore[method-assign]
        w_t, c_t, f_t = run(P)
        dif._TABLE_RATIO, dif.DifficultyModel._conjugate = 10**18, _general_conjugate  # type: ignore[method-assign]
        w_p, c_p, f_p = run(P)
        dif._TABLE_RATIO, dif.DifficultyModel._conjugate = tabled, conj  # type: ignore[method-assign]
        print(f"{P:<28,d} {pairs:7,d} {w_t:7.2f} ({c_t:5.2f}) {w_p:8.2f} ({c_p:6.2f}) {w_p / w_t:5.1f} ({c_p / c_t:4.1f}) "
              f"{np.abs(f_t - f_p).max():9.1e}", flush=True)


if __name__ == "__main__":
    main()
