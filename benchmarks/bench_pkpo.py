"""Speed and accuracy of passcurve.rl.pkpo_rewards (run by hand, not by pytest).

    PYTHONPATH=src python benchmarks/bench_pkpo.py

Speed: the gap-form O(n log n) transform against a dense O(n^2) baseline (the paper's
m_ij matrix, binomials from gammaln) run in the same process; the binary fast path; torch
round trip when torch is installed. Accuracy: relative error against exact rational
arithmetic (fractions + math.comb) at n in the thousands.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import numpy as np
from scipy import special

from passcurve.rl import pkpo_rewards


def dense_baseline(g: np.ndarray, k: int) -> np.ndarray:
    """s_i = sum_j m_ij g_(j) / C(n,k) with the full n x n matrix (O(n^2) per group)."""
    G, n = g.shape
    order = np.argsort(g, axis=1)
    gs = np.take_along_axis(g, order, axis=1)
    i = np.arange(1, n + 1)
    lc = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)

    def lbin(a, b):
        with np.errstate(invalid="ignore"):
            return np.where(
                (a >= b) & (b >= 0), special.gammaln(a + 1) - special.gammaln(b + 1) - special.gammaln(a - b + 1), -np.inf
            )

    diag = np.exp(lbin(i - 1, k - 1) - lc)
    off = np.exp(lbin(i - 2, k - 2) - lc)  # column j weight for j > i
    m = np.triu(np.broadcast_to(off[None, :], (n, n)), 1) + np.diag(diag)
    s_sorted = gs @ m.T
    out = np.empty_like(g)
    np.put_along_axis(out, order, s_sorted, axis=1)
    return out


def timeit(f, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def speed() -> list[str]:
    rng = np.random.default_rng(0)
    lines = ["| groups x n | k | gap form (s) | dense O(n^2) baseline (s) | ratio | binary path (s) | max abs diff |",
             "|---|---|---|---|---|---|---|"]
    for G, n, k in [(1024, 16, 4), (256, 256, 16), (16, 2048, 64), (4, 4096, 512)]:
        g = rng.random((G, n))
        b = (rng.random((G, n)) < 0.3).astype(float)
        t_fast = timeit(lambda g=g, k=k: pkpo_rewards(g, k, "none"))
        t_dense = timeit(lambda g=g, k=k: dense_baseline(g, k), repeat=3)  # best of 3, as the gap form
        t_bin = timeit(lambda b=b, k=k: pkpo_rewards(b, k, "none"))
        diff = float(np.abs(pkpo_rewards(g, k, "none") - dense_baseline(g, k)).max())
        lines.append(
            f"| {G} x {n} | {k} | {t_fast:.4f} | {t_dense:.4f} | {t_dense / t_fast:.2g}x | {t_bin:.4f} | {diff:.1e} |"
        )
    g = rng.random((1, 1_000_000))
    t = timeit(lambda: pkpo_rewards(g, 1000), repeat=1)
    lines.append(f"| 1 x 1,000,000 | 1000 | {t:.3f} | (n^2 infeasible) | | | |")
    try:
        import torch

        gt = torch.tensor(rng.random((256, 256)), dtype=torch.float32)
        t_t = timeit(lambda: pkpo_rewards(gt, 16))
        t_n = timeit(lambda: pkpo_rewards(gt.numpy(), 16))
        lines.append(f"\ntorch float32 256 x 256, loo-1: {t_t:.4f} s (numpy on the same data {t_n:.4f} s)")
    except ImportError:
        lines.append("\n(torch not installed: no round-trip timing)")
    return lines


def accuracy() -> list[str]:
    lines = ["| n | k | worst relative error vs exact rationals (s, 5 positions) |", "|---|---|---|"]
    rng = np.random.default_rng(1)
    for n, k in [(1000, 500), (3000, 1500), (5000, 50)]:
        g_int = rng.integers(0, 100, n)
        out = pkpo_rewards(g_int.astype(float), k, "none")
        order = np.argsort(g_int, kind="stable")
        gs = sorted(int(v) for v in g_int)
        N = math.comb(n, k)
        worst = 0.0
        for pos in np.linspace(k, n, 5).astype(int):
            num = math.comb(pos - 1, k - 1) * gs[pos - 1] + sum(
                math.comb(j - 2, k - 2) * gs[j - 1] for j in range(pos + 1, n + 1)
            )
            exact = Fraction(num, N)
            worst = max(worst, abs(out[order[pos - 1]] - float(exact)) / float(exact))
        lines.append(f"| {n} | {k} | {worst:.1e} |")
    return lines


if __name__ == "__main__":
    print("\n".join(speed()))
    print()
    print("\n".join(accuracy()))
