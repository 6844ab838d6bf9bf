"""Shared by the pre-registered paired experiments on auto's small-n rules (backtest_min_thinned.py,
backtest_small_n_interval.py): two arms of ``forecast(method="auto")`` on the same counts with the same ``rng``
seed, one under a patch; simulated small-n data (backtest_simulated.SMALL_SCENARIOS, exact truth) and Pythia/MATH
thinned (the full data's unbiased pass@K as truth); per-cell tables; rows dumped and loaded as TSV.

A row: (data, m, K, group, seed, arm, error, covered, width) with group the scenario or model.
"""

from __future__ import annotations

import argparse
import contextlib
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from backtest_simulated import SMALL_SCENARIOS, exact_pass_at_k, scenario_p
from scipy import stats

from passcurve import Counts, forecast

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "pythia_math_counts.csv"
KS = [100, 1000]
Arms = dict[str, Callable[[], Any]]  # arm name -> a context manager factory (contextlib.nullcontext for the rule)


def both_arms(n: np.ndarray, c: np.ndarray, truth: list[float], seed: int, arms: Arms) -> list[tuple]:  # type: ignore[type-arg]
    """(arm, K, error, covered, width) of each arm's 80% forecast of these counts, the same rng seed for all."""
    counts = Counts.from_arrays(n, c, model="m")
    out = []
    for arm, ctx in arms.items():
        with ctx():
            r = forecast(counts, KS, method="auto", n_resamples=100, flags=False, rng=seed, confidence_level=0.8)
        for j, K in enumerate(KS):
            f, lo, hi = float(r.pass_at_k[0, j]), float(r.low[0, j]), float(r.high[0, j])
            out.append((arm, K, f - truth[j], lo <= truth[j] <= hi, hi - lo))
    return out


def simulated(seeds: int, ms: list[int], arms: Arms, data_seed: int, fc_seed: int) -> list[tuple]:  # type: ignore[type-arg]
    gen, sgen = np.random.default_rng(data_seed), np.random.default_rng(fc_seed)
    rows = []
    t0 = time.time()
    for scen in SMALL_SCENARIOS:
        for m in ms:
            for s in range(seeds):
                p = scenario_p(scen, 164, gen)
                n = np.full(p.size, m)
                c = gen.binomial(n, p)
                truth = [exact_pass_at_k(p, K) for K in KS]
                for arm, K, e, cov, w in both_arms(n, c, truth, int(sgen.integers(2**31)), arms):
                    rows.append(("sim", m, K, scen, s, arm, e, cov, w))
        print(f"# sim {scen}: done ({time.time() - t0:.0f} s)", flush=True)
    return rows


def pythia(seeds: int, ms: list[int], arms: Arms, thin_seed: int, fc_seed: int) -> list[tuple]:  # type: ignore[type-arg]
    from backtest_pythia import load

    from passcurve._curves import mean_curve
    from passcurve._forecast import thin_counts

    if not DATA.exists():
        raise SystemExit(f"{DATA} not found: the real-data half needs ../shared/data")
    counts = load(DATA)
    gen, sgen = np.random.default_rng(thin_seed), np.random.default_rng(fc_seed)
    rows = []
    t0 = time.time()
    for m in ms:
        for s in range(seeds):
            for name, sub in counts.groups():
                truth = [float(mean_curve(sub.n, sub.c, np.array([K]))[0][0]) for K in KS]
                nt, ct = thin_counts(sub.n, sub.c, m, gen)
                for arm, K, e, cov, w in both_arms(nt, ct, truth, int(sgen.integers(2**31)), arms):
                    rows.append(("pythia", m, K, name, s, arm, e, cov, w))
        print(f"# pythia m = {m}: done ({time.time() - t0:.0f} s)", flush=True)
    return rows


def cells(rows: list[tuple], a: str, b: str) -> list[dict]:  # type: ignore[type-arg]
    """Per (data, m, K) cell, arms a and b paired by (group, seed): each arm's coverage, mean width and mean absolute
    error, and d = |error b| - |error a| (points): its mean, SE and two-sided Wilcoxon p. Printed as a table too."""
    print(f"| data | m | K | runs | coverage {a} / {b} | width {a} / {b} | meanAE {a} / {b} | mean d ± SE | Wilcoxon p |")
    print("|---|---|---|---|---|---|---|---|---|")
    out = []
    for cell in dict.fromkeys(r[:3] for r in rows):
        by = {arm: {r[3:5]: r for r in rows if r[:3] == cell and r[5] == arm} for arm in (a, b)}
        keys = [k for k in by[a] if k in by[b]]
        A = np.array([by[a][k][6:9] for k in keys], dtype=float)
        B = np.array([by[b][k][6:9] for k in keys], dtype=float)
        d = 100 * (np.abs(B[:, 0]) - np.abs(A[:, 0]))
        se = float(d.std(ddof=1) / np.sqrt(d.size))
        p = float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0
        row = dict(cell=cell, runs=d.size, cov_a=float(A[:, 1].mean()), cov_b=float(B[:, 1].mean()),
                   covered_b=B[:, 1], d=d, d_mean=float(d.mean()), d_se=se, p=p)
        print(f"| {cell[0]} | {cell[1]} | {cell[2]} | {d.size} | {row['cov_a']:.2f} / {row['cov_b']:.2f} | "
              f"{100 * A[:, 2].mean():.1f} / {100 * B[:, 2].mean():.1f} | {100 * np.abs(A[:, 0]).mean():.2f} / "
              f"{100 * np.abs(B[:, 0]).mean():.2f} | {d.mean():+.2f} ± {se:.2f} | {p:.2g} |")
        out.append(row)
    return out


def run(args: Any, arms: Arms, seeds: tuple[int, int, int, int]) -> list[tuple]:  # type: ignore[type-arg]
    """The rows of ``--part`` (both, sim or pythia) with the experiment's stream seeds, or those of ``--load``;
    written to ``--dump``."""
    ms = [int(x) for x in args.m.split(",")]
    if args.load:
        rows: list[tuple] = []  # type: ignore[type-arg]
        for path in args.load.split(","):
            with open(path, encoding="utf-8") as fh:
                next(fh)
                for line in fh:
                    f = line.rstrip("\n").split("\t")
                    rows.append((f[0], int(f[1]), int(f[2]), f[3], int(f[4]), f[5], float(f[6]), f[7] == "True",
                                 float(f[8])))
        return rows
    t0 = time.time()
    rows = (simulated(args.seeds, ms, arms, seeds[0], seeds[1]) if args.part in ("both", "sim") else []) + (
        pythia(args.seeds, ms, arms, seeds[2], seeds[3]) if args.part in ("both", "pythia") else [])
    print(f"# {len(rows)} rows in {time.time() - t0:.0f} s")
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as fh:
            fh.write("data\tm\tK\tgroup\tseed\tarm\terror\tcovered\twidth\n")
            fh.writelines("\t".join(str(x) for x in r) + "\n" for r in rows)
    return rows


def experiment(m: str, arms: Arms, seeds: tuple[int, int, int, int]) -> tuple[list[tuple], list[dict]]:  # type: ignore[type-arg]
    """An experiment's command line (``--seeds``, ``--m`` with default ``m``, ``--part``, ``--dump``, ``--load``), its
    rows (:func:`run`) and their per-cell table (:func:`cells`, the first arm against the second)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--m", default=m)
    ap.add_argument("--part", choices=["both", "sim", "pythia"], default="both")
    ap.add_argument("--dump", default=None, help="write every run (TSV)")
    ap.add_argument("--load", default=None, help="judge runs dumped before (one TSV per part, comma-separated)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rows = run(args, arms, seeds)
    return rows, cells(rows, *arms)


NULL = contextlib.nullcontext
