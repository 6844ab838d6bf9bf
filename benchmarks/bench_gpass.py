"""Speed and accuracy of G-pass@k and mG-pass@k on dense grids and at large n, against baselines in this process.

Baselines, each run in the same process on the same data:

* ``scipy``: G-pass@k through scipy's ``hypergeom.sf`` cell by cell (what ``g_pass_at_k`` called between the two
  ends before commit 9ba88e7; swapped in for the private ``_hyper_sf``, with the sharing of repeated problems
  switched off, so validation and the tau -> 0 / tau = 1 ends are the same code), and mG-pass@k as the sum of
  scipy's ``hypergeom.pmf`` times (x - ceil(k/2)) over the support above ceil(k/2), cell by cell;
* ``saddle``: passcurve itself with every directly computed probability from Loader's saddle-point form
  (``_LF_TOP = 0``: no log-factorial table), i.e. the same sums with only the anchors changed (what n > 2^16 uses).

Accuracy: the largest relative error against exact rational arithmetic (``math.comb`` and ``fractions.Fraction``:
G-pass@k = P(X >= ceil(tau k)) for X ~ Hypergeom(n, c, k), ../shared/REFERENCE.md) over up to ``--cells`` cells
per case drawn at random, below 1e-300 left out (subnormal steps).

The timings are the best of three; the machine may be shared, so read the ratios, not the seconds. To time an older
tree, run this file with its ``src`` on PYTHONPATH (the ``saddle`` column is then skipped).

Run:  PYTHONPATH=src python benchmarks/bench_gpass.py [--cells 200]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import stats

import passcurve as pc
from passcurve import _estimators as est


def scipy_sf(n: np.ndarray, c: np.ndarray, k: np.ndarray, m: np.ndarray) -> np.ndarray:
    return np.asarray(stats.hypergeom.sf(m - 1, n, c, k), dtype=np.float64)


def scipy_mg(n: np.ndarray, c: np.ndarray, k: np.ndarray) -> np.ndarray:
    """(2/k) sum_{x > ceil(k/2)} (x - ceil(k/2)) P(X = x) with scipy's pmf, one call over all support points."""
    n, c, k = (np.asarray(v, dtype=np.int64).ravel() for v in np.broadcast_arrays(n, c, k))
    half = -(-k // 2)
    span = np.maximum(np.minimum(c, k) - half, 0)
    out = np.zeros(n.size)
    has = np.flatnonzero(span > 0)
    if has.size:
        reps = span[has]
        seg = np.repeat(np.arange(has.size), reps)
        offs = np.cumsum(reps) - reps
        x = half[has][seg] + 1 + (np.arange(seg.size) - np.repeat(offs, reps))
        pmf = stats.hypergeom.pmf(x, n[has][seg], c[has][seg], k[has][seg])
        out[has] = np.add.reduceat(pmf * (x - half[has][seg]), offs)
    return 2.0 * out / k


def every_cell(f: Callable[..., Any], *arrays: np.ndarray) -> Any:
    """The baseline evaluates every cell (the code before this benchmark did not share repeated problems)."""
    return f(*arrays)


class Swap:
    """Run a block with a module attribute replaced (restored afterwards)."""

    def __init__(self, name: str, value: Any) -> None:
        self.name, self.value, self.old = name, value, None

    def __enter__(self) -> None:
        self.old = getattr(est, self.name, None)
        if self.old is not None:  # an older tree may not have it
            setattr(est, self.name, self.value)

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            setattr(est, self.name, self.old)


def best(f: Callable[[], Any], reps: int = 3) -> tuple[float, Any]:
    t, out = float("inf"), None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        t = min(t, time.perf_counter() - t0)
    return t, out


def exact_g(n: int, c: int, k: int, m: int) -> Fraction:
    num = sum(math.comb(c, j) * math.comb(n - c, k - j) for j in range(max(m, 0), min(c, k) + 1))
    return Fraction(num, math.comb(n, k))


def exact_mg(n: int, c: int, k: int) -> Fraction:
    half = -(-k // 2)
    num = sum((j - half) * math.comb(c, j) * math.comb(n - c, k - j) for j in range(half + 1, min(c, k) + 1))
    return Fraction(2 * num, k * math.comb(n, k))


def rel(x: float, ref: Fraction) -> float:
    if ref == 0:
        return 0.0 if x == 0 else math.inf
    return float(abs(Fraction(float(x)) - ref) / ref)


def max_rel(vals: np.ndarray, cells: list[tuple[int, ...]], exact: Callable[..., Fraction],
            idx: list[tuple[int, ...]]) -> float:
    if not cells:
        return float("nan")
    worst = 0.0
    for cell, at in zip(cells, idx, strict=True):
        ref = exact(*cell)
        if ref == 0 or ref < Fraction(1, 10**300):
            continue
        worst = max(worst, rel(float(vals[at]), ref))
    return worst


def case_grid(label: str, n: int, c: np.ndarray, ks: np.ndarray, tau: Any, cells: int, rng: np.random.Generator,
              mg: bool = False, scipy: bool = True) -> dict[str, Any]:
    """One problems x k (x tau) grid: times and worst relative errors of passcurve and the baselines (scipy's
    skipped with ``scipy=False`` where it would take minutes)."""
    nn, cc = np.full((c.size, 1), n), c[:, None]
    kk = ks[None, :]
    tt = np.asarray(tau)
    if tt.ndim:
        nn, cc, kk, tt = nn[:, :, None], cc[:, :, None], kk[:, :, None], tt[None, None, :]
    if mg:
        def ours() -> Any:
            return pc.mg_pass_at_k(nn, cc, kk)

        def base() -> Any:
            return scipy_mg(nn, cc, kk).reshape(np.broadcast_shapes(nn.shape, cc.shape, kk.shape))
    else:
        def ours() -> Any:
            return pc.g_pass_at_k(nn, cc, kk, tt)

        def base() -> Any:
            with Swap("_hyper_sf", scipy_sf), Swap("_by_distinct_problems", every_cell):
                return pc.g_pass_at_k(nn, cc, kk, tt)
    ours()  # first call builds the log-factorial table (timed separately below)
    t_new, v_new = best(ours)
    t_base, v_base = best(base) if scipy else (float("nan"), None)
    t_sad, v_sad = float("nan"), None
    if hasattr(est, "_LF_TOP"):
        with Swap("_LF_TOP", 0):
            t_sad, v_sad = best(ours)
    shape = v_new.shape
    flat = rng.choice(v_new.size, size=min(cells, v_new.size), replace=False)
    at = [np.unravel_index(int(f), shape) for f in flat]
    taus = np.broadcast_to(np.asarray(tau, dtype=np.float64), shape[-1:] if np.ndim(tau) else ())
    cl: list[tuple[int, ...]] = []
    for a in at:
        ci, ki = int(c[a[0]]), int(ks[a[1]])
        if mg:
            cl.append((n, ci, ki))
        else:
            t = float(taus[a[2]]) if np.ndim(tau) else float(tau)
            cl.append((n, ci, ki, int(est._tau_to_m(np.array(t), np.array(ki)))))
    exact = exact_mg if mg else exact_g
    return {"case": label, "cells": v_new.size, "new_s": t_new, "scipy_s": t_base, "saddle_s": t_sad,
            "err_new": max_rel(v_new, cl, exact, at),
            "err_scipy": max_rel(v_base, cl, exact, at) if v_base is not None else float("nan"),
            "err_saddle": max_rel(v_sad, cl, exact, at) if v_sad is not None else float("nan")}


def table_build_seconds() -> float:
    if not hasattr(est, "_log_factorials"):
        return float("nan")
    saved = list(est._lf_table)
    est._lf_table.clear()
    t0 = time.perf_counter()
    est._log_factorials(est._LF_TOP)
    t = time.perf_counter() - t0
    est._lf_table[:] = saved
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=200, help="cells per case checked against exact rationals")
    args = ap.parse_args()
    rng = np.random.default_rng(0)

    def probs(size: int, n: int) -> np.ndarray:
        return rng.binomial(n, rng.beta(0.4, 0.8, size=size))

    cases = [
        case_grid("500 problems x 24 k, n = 100, tau 0.5", 100, probs(500, 100),
                  np.unique(np.linspace(1, 100, 24).astype(np.int64)), 0.5, args.cells, rng),
        case_grid("50 x 1000 k, n = 1000, tau 0.5", 1000, probs(50, 1000), np.arange(1, 1001), 0.5, args.cells, rng),
        case_grid("50 x 1000 k, n = 10^4, tau 0.75", 10_000, probs(50, 10_000),
                  np.unique(np.linspace(1, 10_000, 1000).astype(np.int64)), 0.75, args.cells // 4, rng),
        case_grid("200 x 10 k x 19 tau, n = 1000", 1000, probs(200, 1000),
                  np.unique(np.geomspace(2, 1000, 10).astype(np.int64)), np.linspace(0.05, 0.95, 19), args.cells, rng),
        case_grid("mG: 500 x 24 k, n = 100", 100, probs(500, 100),
                  np.unique(np.linspace(2, 100, 24).astype(np.int64)), None, args.cells, rng, mg=True),
        case_grid("mG: 50 x 1000 k, n = 1000", 1000, probs(50, 1000), np.arange(2, 1001), None, args.cells // 2,
                  rng, mg=True),
        case_grid("200 x 1 k, n = 10^6, k = 10^5, tau 0.5", 10**6, probs(200, 10**6), np.array([10**5]), 0.5, 0, rng),
        case_grid("mG: 200 x 1 k, n = 10^6, k = 10^5", 10**6, probs(200, 10**6), np.array([10**5]), None, 0, rng,
                  mg=True),
        *(case_grid(f"{w}128 x 100 log-spaced k, n = 10^{e}{', tau 0.5' if not w else ''}", 10**e,
                    rng.binomial(10**e, rng.beta(0.3, 3.0, size=128)),
                    np.unique(np.round(np.logspace(0, e, 100)).astype(np.int64)), 0.5, 0, rng, mg=bool(w), scipy=False)
          for e in (5, 7) for w in ("", "mG: ")),
    ]
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")
    print(f"log-factorial table built in {table_build_seconds():.3f} s (once per process, on first use)")
    print("| case | cells | passcurve | scipy | ratio | saddle anchors | ratio | max rel. err: passcurve / scipy / saddle |")
    print("|---|---|---|---|---|---|---|---|")
    def fmt(x: float, spec: str, unit: str = "") -> str:
        return "-" if math.isnan(x) else f"{x:{spec}}{unit}"

    for r in cases:
        print(f"| {r['case']} | {r['cells']:,} | {r['new_s']:.4f} s | {fmt(r['scipy_s'], '.4f', ' s')} "
              f"| {fmt(r['scipy_s'] / r['new_s'], '.1f', 'x')} | {fmt(r['saddle_s'], '.4f', ' s')} "
              f"| {fmt(r['saddle_s'] / r['new_s'], '.1f', 'x')} "
              f"| {fmt(r['err_new'], '.1e')} / {fmt(r['err_scipy'], '.1e')} / {fmt(r['err_saddle'], '.1e')} |")


if __name__ == "__main__":
    main()
