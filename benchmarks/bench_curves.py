"""Speed of whole pass@k curves: passcurve vs the classic per-(problem, k) product loop.

The baseline is the formula every harness peer loops over (Chen et al. 2021, "stable product"):
    pass@k = 1 - prod_{i=n-c+1}^{n} (1 - k/i)      (1.0 when n - c < k)
called once per (problem, k) in Python, written here from the formula. Both run in this process
on the same data; we report the ratio. When the baseline would take minutes, it is timed on a
random subset of (problem, k) cells and extrapolated linearly (said so in the output).

A second table times a sparse log-spaced k grid (what the power-law fit and the forecasts ask
for) on benchmarks with a huge n, where passcurve evaluates each value in closed form
(Euler–Maclaurin), against the cumulative sum of log1p(-c/(n-j)) up to the largest k (the
whole-curve method, which is O(n) per problem whatever the grid), run in this process.

Run:  PYTHONPATH=src python benchmarks/bench_curves.py
"""

from __future__ import annotations

import sys
import time

import numpy as np

import passcurve as pc


def classic(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def bench(problems: int, n: int, seed: int = 0, max_cells: int = 200_000) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    p = rng.beta(0.4, 0.8, size=problems)  # the peers.md setting
    c = rng.binomial(n, p)
    counts = pc.Counts.from_arrays(np.full(problems, n), c)
    ks = np.arange(1, n + 1)

    t_curve = float("inf")
    for _ in range(3):  # best of three (the machine is shared)
        t0 = time.perf_counter()
        res = pc.curve(counts, metrics=["pass_at_k"])
        t_curve = min(t_curve, time.perf_counter() - t0)

    t_matrix = float("nan")
    if problems * n <= 10**8:
        t0 = time.perf_counter()
        mat = pc.pass_at_k(np.full((problems, 1), n), c[:, None], ks[None, :])
        t_matrix = time.perf_counter() - t0
        assert np.allclose(mat.mean(axis=0), res.values["pass_at_k"][0], rtol=1e-12, atol=1e-15)

    cells = problems * n
    sample = min(cells, max_cells)
    idx = rng.choice(cells, size=sample, replace=False) if sample < cells else np.arange(cells)
    pi, kj = np.divmod(idx, n)
    t0 = time.perf_counter()
    vals = [classic(n, int(c[a]), int(ks[b])) for a, b in zip(pi, kj, strict=True)]
    t_sample = time.perf_counter() - t0
    t_classic = t_sample * cells / sample
    # agreement with the classic loop on the timed cells
    ref = np.array(vals)
    ours = pc.pass_at_k(n, c[pi], ks[kj])
    max_abs = float(np.max(np.abs(ours - ref)))
    return {
        "problems": problems,
        "n": n,
        "curve_s": t_curve,
        "matrix_s": t_matrix,
        "classic_s": t_classic,
        "classic_extrapolated": sample < cells,
        "speedup_curve": t_classic / t_curve,
        "max_abs_diff": max_abs,
    }


def cumsum_baseline(n: np.ndarray, c: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """pass@k on the grid from one blocked cumulative sum per problem up to max k (the curve method)."""
    from passcurve._estimators import _blocked_cumsum

    out = np.empty((n.size, ks.size))
    kmax = int(ks[-1])
    for i in range(n.size):
        L = min(kmax, int(n[i] - c[i]))
        terms = np.log1p(-c[i] / (n[i] - np.arange(L, dtype=np.float64)))
        cums = _blocked_cumsum(terms[None, :])[0]
        logf = np.where(ks <= L, cums[np.minimum(ks, max(L, 1)) - 1], -np.inf)
        out[i] = -np.expm1(logf)
    return out


def bench_sparse(problems: int, n: int, grid: int = 100, seed: int = 0) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    c = rng.binomial(n, rng.beta(0.3, 3.0, size=problems))
    nn = np.full(problems, n)
    ks = np.unique(np.round(np.logspace(0, np.log10(n), grid)).astype(np.int64))
    t_pc = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        ours = pc.pass_at_k(nn[:, None], c[:, None], ks[None, :])
        t_pc = min(t_pc, time.perf_counter() - t0)
    t0 = time.perf_counter()
    ref = cumsum_baseline(nn, c, ks)
    t_base = time.perf_counter() - t0
    return {"problems": problems, "n": n, "grid": ks.size, "passcurve_s": t_pc, "cumsum_s": t_base,
            "ratio": t_base / t_pc, "max_abs_diff": float(np.max(np.abs(ours - ref)))}


def main() -> None:
    rows = [bench(1000, 1000), bench(10_000, 10_000)]
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    print("| problems x n | passcurve all-k curve | pass_at_k(n[:,None], c[:,None], ks) | classic loop | speed-up |")
    print("|---|---|---|---|---|")
    for r in rows:
        ext = " (extrapolated from 200,000 cells)" if r["classic_extrapolated"] else ""
        mat = "-" if r["matrix_s"] != r["matrix_s"] else f"{r['matrix_s']:.3f} s"
        print(
            f"| {r['problems']:,} x {r['n']:,} | {r['curve_s']:.3f} s | {mat} | {r['classic_s']:.1f} s{ext} "
            f"| {r['speedup_curve']:.0f}x |"
        )
    print("max |passcurve - classic| on the timed cells:", max(r["max_abs_diff"] for r in rows))
    print()
    print("| problems x n, log-spaced k grid | passcurve (closed form per value) | cumulative sum to max k | ratio |")
    print("|---|---|---|---|")
    sparse = [bench_sparse(128, 10**5), bench_sparse(128, 10**6), bench_sparse(128, 10**7)]
    for r in sparse:
        print(f"| {r['problems']} x {r['n']:,}, {r['grid']} k | {r['passcurve_s']:.4f} s | {r['cumsum_s']:.2f} s "
              f"| {r['ratio']:.0f}x |")
    print("max |closed form - cumulative sum| on the grids:", max(r["max_abs_diff"] for r in sparse))


if __name__ == "__main__":
    main()
