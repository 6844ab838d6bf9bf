"""Time `passcurve report` on the shared Pythia data (7 models x 128 problems x n = 10^4).

Run by hand: PYTHONPATH=src python benchmarks/bench_report.py [--repeat 3]
Prints the wall time of each step (the report's own timings), the whole build, writing the
file, and the ratio to a baseline run in the same process: `passcurve.curve` on the same k grid
(the cheapest thing a report must do). Figures go into docs/report.md.

At scale: ``--scale MODELS,PROBLEMS,N`` (e.g. ``--scale 60,5000,200``) runs the same on a simulated
leaderboard instead (passcurve.simulate, seeded), and also prints the HTML's size by section and the
rows of the per-problem table, so a change in what the report embeds shows as a ratio too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from passcurve import ModelSpec, curve, read_counts, simulate
from passcurve.report import build_report, report_k_grid

DATA = Path(os.environ.get("PASSCURVE_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale", help="MODELS,PROBLEMS,N: a simulated leaderboard instead of the Pythia file")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.scale:
        counts, path = _leaderboard(*(int(x) for x in args.scale.split(","))), Path(f"simulated {args.scale}")
    else:
        path = DATA / "pythia_math_counts.csv"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            counts = read_counts(path)
    t_read = time.perf_counter() - t0
    grid = report_k_grid(int(counts.n.min()))
    base, total, write, steps, cpu = [], [], [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        curve(counts, grid)
        base.append(time.perf_counter() - t0)
        t0, c0 = time.perf_counter(), time.process_time()
        rep = build_report(counts)
        total.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        with tempfile.TemporaryDirectory() as d:
            t0 = time.perf_counter()
            rep.write(Path(d) / "report.html")
            write.append(time.perf_counter() - t0)
        steps.append(rep.data.timings)
    med = statistics.median
    print(f"input: {path.name}: {len(counts.models)} models x {len(counts) // len(counts.models)} problems, "
          f"n = {int(counts.n.min())}; read_counts {t_read:.2f} s; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'step':<34}{'median s':>10}")
    for name in steps[0]:
        print(f"{name:<34}{med([s[name] for s in steps]):>10.2f}")
    print(f"{'build_report (all steps)':<34}{med(total):>10.2f}   (CPU time {med(cpu):.2f} s)")
    print(f"{'Report.write (+ explorer.html)':<34}{med(write):>10.2f}")
    print(f"{'baseline: curve() on the same grid':<34}{med(base):>10.3f}")
    print(f"ratio build_report / curve(): {med(total) / med(base):.0f}x; HTML {len(rep.html) / 1e6:.1f} MB")
    if args.scale:
        size = {s.id: len(s.to_html().encode()) for s in rep.sections}
        print("HTML by section (kB): " + ", ".join(f"{k} {v / 1e3:.0f}" for k, v in size.items())
              + f"; plotly.js and page {(len(rep.html.encode()) - sum(size.values())) / 1e3:.0f}")
        table = next(s for s in rep.sections if s.id == "problems")
        print(f"per-problem table: {table.body.count('<tr>') - 1} rows; {table.note or 'every row'}")


def _leaderboard(models: int, problems: int, n: int) -> Any:
    """A simulated leaderboard: ``models`` models of varied difficulty laws on the same ``problems``, ``n`` samples."""
    g = np.random.default_rng(1)
    specs = [ModelSpec(f"model-{i:02d}", alpha=float(g.uniform(0.2, 0.6)), beta=float(g.uniform(0.8, 5)),
                       impossible=float(g.uniform(0, 0.1))) for i in range(models)]
    return simulate(problems=problems, n=n, models=specs, rng=int(g.integers(10**9))).counts


if __name__ == "__main__":
    main()
