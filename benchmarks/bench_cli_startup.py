"""Start-up time of the ``passcurve`` command: ``--version``, ``--help``, ``curve --help`` and a real ``curve``.

Each command runs in a fresh interpreter (``python -m passcurve ...``), interleaved round by round with the
baseline ``python -c pass`` (the interpreter alone) in the same loop, so that the machine's load moves both alike.
Reported: the median wall time and the median CPU time (user + system of the child, from ``getrusage``) of each,
and their ratios to the baseline's. ``--src DIR`` times another source tree in the same loop (e.g. a checkout from
before a change: ``--src /path/to/old/src``), so that before and after are measured side by side.

Also reported: which of the heavy dependencies ``import passcurve.cli`` loads (the CLI imports scipy, DuckDB,
pandas and plotly only in the commands that use them).

Run:  PYTHONPATH=src python benchmarks/bench_cli_startup.py [--repeat 9] [--src OTHER_SRC]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAVY = ("numpy", "scipy.stats", "scipy", "duckdb", "pandas", "pyarrow", "plotly")


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def small_csv(directory: str) -> str:
    """50 problems at n = 20 (counts layout), as a user's small results file."""
    path = os.path.join(directory, "small.csv")
    with open(path, "w") as f:
        f.write("problem_id,n,c\n")
        for i in range(50):
            f.write(f"p{i},20,{(i * 7) % 21}\n")
    return path


def loaded(env: dict[str, str]) -> list[str]:
    """The heavy dependencies in sys.modules after ``import passcurve.cli``."""
    code = ("import sys, passcurve.cli; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return res.stdout.split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=9, help="Runs of each command (interleaved); medians reported.")
    ap.add_argument("--src", action="append", default=[], help="Another source tree to time beside this one.")
    args = ap.parse_args()
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"this tree": here, **{f"--src {s}": s for s in args.src}}
    with tempfile.TemporaryDirectory() as tmp:
        csv = small_csv(tmp)
        commands = {
            "--version": ["--version"],
            "--help": ["--help"],
            "curve --help": ["curve", "--help"],
            "curve small.csv (50 problems, n = 20)": ["curve", csv],
        }
        runs: dict[tuple[str, str], list[tuple[float, float]]] = {}
        base_env = {**os.environ, "PYTHONPATH": here}
        for _ in range(args.repeat):
            runs.setdefault(("baseline", "python -c pass"), []).append(
                timed([sys.executable, "-c", "pass"], base_env))
            for tree, src in trees.items():
                env = {**os.environ, "PYTHONPATH": src}
                for label, argv in commands.items():
                    runs.setdefault((tree, label), []).append(
                        timed([sys.executable, "-m", "passcurve", *argv], env))
        base_wall = statistics.median(w for w, _ in runs[("baseline", "python -c pass")])
        base_cpu = statistics.median(c for _, c in runs[("baseline", "python -c pass")])
        print(f"median of {args.repeat} runs each; load average {os.getloadavg()[0]:.1f}; "
              f"baseline python -c pass: {base_wall:.3f} s wall, {base_cpu:.3f} s CPU")
        print(f"{'tree':24s} {'command':40s} {'wall s':>7s} {'ratio':>6s} {'CPU s':>7s} {'ratio':>6s}")
        for (tree, label), got in runs.items():
            if tree == "baseline":
                continue
            wall = statistics.median(w for w, _ in got)
            cpu = statistics.median(c for _, c in got)
            print(f"{tree[:24]:24s} {label:40s} {wall:7.3f} {wall / base_wall:5.0f}× {cpu:7.3f} "
                  f"{cpu / max(base_cpu, 1e-3):5.0f}×")
        for tree, src in trees.items():
            print(f"{tree}: import passcurve.cli loads {', '.join(loaded({**os.environ, 'PYTHONPATH': src})) or 'none'}"
                  f" of {', '.join(HEAVY)}")


if __name__ == "__main__":
    main()
