"""Time `passcurve report` on the shared Pythia data (7 models x 128 problems x n = 10^4).

Run by hand: PYTHONPATH=src python benchmarks/bench_report.py [--repeat 3]
Prints the wall time of each step (the report's own timings), the whole build, writing the
file, and the ratio to a baseline run in the same process: `passcurve.curve` on the same k grid
(the cheapest thing a report must do). Figures go into docs/report.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
import warnings
from pathlib import Path

from passcurve import curve, read_counts
from passcurve.report import build_report, report_k_grid

DATA = Path(os.environ.get("PASSCURVE_SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    path = DATA / "pythia_math_counts.csv"
    t0 = time.perf_counter()
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


if __name__ == "__main__":
    main()
