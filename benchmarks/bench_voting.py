"""Speed and accuracy of exact maj@k at n = 10^4 with hundreds of distinct answers.

Baseline (same process): a Monte Carlo estimate from uniformly random k-subsets, vectorised
in numpy (the usual way to approximate maj@k); the ratio is exact time / Monte Carlo time,
and the Monte Carlo standard error shows what that time buys.

Run: PYTHONPATH=src python benchmarks/bench_voting.py [--quick]
"""

from __future__ import annotations

import sys
import time

import numpy as np

from passcurve import maj_at_k_tallies


def tallies(rng: np.random.Generator, n: int, gold_share: float, m: int, conc: float) -> np.ndarray:
    g = int(round(gold_share * n))
    wrong = rng.multinomial(n - g, rng.dirichlet(np.full(m, conc)))
    return np.concatenate([[g], wrong[wrong > 0]])


def monte_carlo(tal: np.ndarray, k: int, draws: int, rng: np.random.Generator) -> tuple[float, float]:
    """maj@k (random ties) from `draws` random k-subsets: per-subset counts via bincount."""
    labels = np.repeat(np.arange(tal.size), tal)
    n = labels.size
    scores = np.empty(draws)
    step = max(1, 2_000_000 // max(k, 1))
    for s in range(0, draws, step):
        b = min(step, draws - s)
        # k distinct indices per draw: argpartition of random keys
        idx = np.argpartition(rng.random((b, n)), k - 1, axis=1)[:, :k] if k < n else np.tile(np.arange(n), (b, 1))
        lab = labels[idx]
        cnt = np.zeros((b, tal.size), dtype=np.int64)
        np.add.at(cnt, (np.repeat(np.arange(b), k), lab.ravel()), 1)
        top = cnt.max(axis=1)
        win = cnt[:, 0] == top
        ties = (cnt == top[:, None]).sum(axis=1)
        scores[s : s + b] = np.where(win & (top > 0), 1.0 / ties, 0.0)
    return float(scores.mean()), float(scores.std(ddof=1) / np.sqrt(draws))


def main() -> None:
    quick = "--quick" in sys.argv
    rng = np.random.default_rng(0)
    n = 10_000
    cases = [
        ("clear plurality", 0.20, 300, 0.3),
        ("close race", 0.03, 300, 0.3),
        ("rare gold", 0.005, 500, 0.3),
    ]
    ks = [1, 8, 64, 256] if quick else [1, 8, 64, 256, 1000]
    mc_draws = 2_000 if quick else 20_000
    print(f"n = {n}; Monte Carlo baseline with {mc_draws} subsets per point")
    print(f"{'case':16s} {'answers':>7s} {'k':>5s} {'maj@k exact':>12s} {'ms':>8s} {'MC est':>8s} {'MC SE':>8s} "
          f"{'MC ms':>8s} {'exact/MC':>8s}")
    for name, share, m, conc in cases:
        tal = tallies(rng, n, share, m, conc)
        for k in ks:
            t0 = time.perf_counter()
            v = maj_at_k_tallies(tal, 0, k)
            t1 = time.perf_counter()
            draws = mc_draws if k <= 256 else mc_draws // 10
            est, se = monte_carlo(tal, k, draws, rng)
            t2 = time.perf_counter()
            print(f"{name:16s} {tal.size:7d} {k:5d} {v:12.6f} {1e3 * (t1 - t0):8.1f} {est:8.4f} {se:8.4f} "
                  f"{1e3 * (t2 - t1):8.1f} {(t1 - t0) / (t2 - t1):8.2f}")


if __name__ == "__main__":
    main()
