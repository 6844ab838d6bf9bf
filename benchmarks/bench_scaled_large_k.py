"""The scaled Beta's moment at large d: the Pfaff series against the Gauss-Laguerre quadrature (seventeenth session).

log M(c, d) = log E[p^c (1-p)^d], p = s*u, u ~ Beta(a, b). The series (``_scaled_log_moment(..., quad=False)``) sums
O(sqrt(d)) positive terms; from ``_QUAD_FROM_TERMS`` terms on, ``_scaled_log_moment`` takes the quadrature
(``_scaled_log_moment_quad``: 16- and 24-node Gauss rules for the Gamma(a + c) law after t = -d log(1 - s u)).

Accuracy: |log M - reference| / max(1, |log M|), reference the binomial mixture of exact Beta moments
(``_scaled_fail_rows``: sum_i P(I = i) E[(1-u)^i], I ~ Binomial(d, s), positive terms), c = 0, eight laws.
Cost: time per value of each on 200 values of c (0..199) at one d, best of 3, same process; and ``forecast(...,
method="scaled_beta")`` / ``k_for`` on a simulated benchmark whose fitted scale is below 1 (the series cannot
reach the K = 1e15 ceiling ``k_for`` evaluates there).
Fit: ``ScaledBetaBinomial().fit`` on 60 problems at n = 1e5, 1e6, 1e7 (p = 0.7 Beta(0.3, 3), seed 1), value and
gradient by the quadrature where the window is long (default) against the series everywhere (``_QUAD_FROM_TERMS``
beyond any window), same process.

Run:  PYTHONPATH=src python benchmarks/bench_scaled_large_k.py
"""

from __future__ import annotations

import time

import numpy as np

import passcurve
import passcurve._difficulty as difficulty
from passcurve._difficulty import _scaled_fail_rows, _scaled_log_moment, _scaled_log_moment_quad

LAWS = [(0.3452, 2.179, 0.683), (0.3, 3.0, 0.5), (0.2, 12.0, 0.9), (2.0, 0.5, 0.3), (0.5, 200.0, 0.99),
        (0.1, 0.8, 0.05), (5.0, 50.0, 0.2), (0.05, 0.3, 0.999)]


def accuracy() -> None:
    print("log M(0, d): max relative error over 8 laws (reference: binomial mixture of exact Beta moments)")
    print(f"{'d':>8} {'series':>10} {'quadrature':>11}")
    for d in (3e4, 1e6, 1e8, 1e9):
        worst_series = worst_quad = 0.0
        for a, b, s in LAWS:
            ref = float(_scaled_fail_rows(np.array([a]), np.array([b]), np.array([d]), s)[0][0])
            ser = float(_scaled_log_moment(np.array([0.0]), np.array([d]), a, b, s, quad=False)[0])
            q, ok = _scaled_log_moment_quad(np.array([0.0]), np.array([d]), a, b, s)
            assert ok[0]
            worst_series = max(worst_series, abs(ser - ref) / max(1.0, abs(ref)))
            worst_quad = max(worst_quad, abs(float(q[0]) - ref) / max(1.0, abs(ref)))
        print(f"{d:>8.0e} {worst_series:>10.1e} {worst_quad:>11.1e}")


def best(f, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def cost() -> None:
    a, b, s = 0.3452, 2.179, 0.683
    c = np.arange(200.0)
    print("\ncost per value, 200 values of c at one d (a = 0.3452, b = 2.179, s = 0.683), best of 3")
    for d in (1e6, 1e8, 1e9):
        dd = np.full(c.size, d)
        ts = best(lambda dd=dd: _scaled_log_moment(c, dd, a, b, s, quad=False))
        tq = best(lambda dd=dd: _scaled_log_moment_quad(c, dd, a, b, s))
        print(f"d = {d:.0e}: series {ts / c.size * 1e6:9.1f} us, quadrature {tq / c.size * 1e6:6.1f} us "
              f"({ts / tq:.0f}x)")


def workflow() -> None:
    rng = np.random.default_rng(3)
    counts = passcurve.Counts.from_arrays(np.full(200, 300), rng.binomial(300, 0.89 * rng.beta(0.4, 3.0, 200)))
    t = time.perf_counter()
    f = passcurve.forecast(counts, [10**3, 10**4, 10**6, 10**7], method="scaled_beta", rng=0)
    tf = time.perf_counter() - t
    t = time.perf_counter()
    r = f.k_for(0.8)
    tk = time.perf_counter() - t
    print("\nsimulated 200 problems x n = 300, p = 0.89 Beta(0.4, 3) (seed 3), method='scaled_beta':")
    print(f"forecast at 1e3, 1e4, 1e6, 1e7: {tf:.2f} s; pass@1e7 = {f.pass_at_k[0][-1]:.4f}")
    print(f"k_for(0.8): {tk:.2f} s; K = {r.k:.1f} [{r.low:.1f}, {r.high:.1f}], ceiling {r.ceiling:.6f}")


def fit() -> None:
    print("\nScaledBetaBinomial().fit, 60 problems, p = 0.7 Beta(0.3, 3) (seed 1): series everywhere / quadrature where"
          " the window is long")
    default = difficulty._QUAD_FROM_TERMS
    for n in (10**5, 10**6, 10**7):
        rng = np.random.default_rng(1)
        p = 0.7 * rng.beta(0.3, 3.0, 60)
        counts = passcurve.Counts.from_arrays(np.full(60, n), rng.binomial(n, p))
        fits, times = [], []
        for terms in (1 << 62, default):
            difficulty._QUAD_FROM_TERMS = terms
            t = time.perf_counter()
            fits.append(passcurve.ScaledBetaBinomial().fit(counts))
            times.append(time.perf_counter() - t)
        difficulty._QUAD_FROM_TERMS = default
        ser, quad = fits
        moved = max(abs(quad.params_[k] - ser.params_[k]) / ser.se_[k] for k in ser.params_)
        print(f"n = {n:.0e}: {times[0]:6.2f} / {times[1]:5.2f} s ({times[0] / times[1]:.1f}x); log-lik {ser.loglik_:.4f}, "
              f"moved {quad.loglik_ - ser.loglik_:.1e}; parameters moved <= {moved:.1e} SE")


if __name__ == "__main__":
    accuracy()
    cost()
    workflow()
    fit()
