"""Cost of ``ForecastResult.k_for``, this checkout against an older revision, and whether every answer is the same.

k_for solves forecast(K) = target and the same on the interval's bands; the upper end solves on the risen lower
band, whose SD it computed on the rise grid (31 K up to 10^15) at every call, each SD from the forecast's parameter
draws re-drawn from its stream (the sampling-importance-resampling of a difficulty model's draws: 400 likelihoods
per candidate, at every K where k_for computes an SD). Since the twenty-eighth session a result keeps those draws
and, per model, the grid's SD, the risen lower band and the point forecast at each K evaluated (_KForMemo): the
same numbers, computed once.

Cases (the task's): the demo (``simulate(rng=0)``, four models, targets 0.5, 0.8, 0.9, 0.96) and Pythia
(../shared/data/pythia_math_counts.csv through ``passcurve.read_counts``, seven models, targets 0.5 and 0.9; skipped
when absent), each ``forecast(..., [1000], rng=0)``, every model's targets in turn on one result. Every k_for field
(k, low, high, ceiling, reachable, note, caveat, observed_k) is compared bit for bit (floats by repr) between the
two revisions. The old revision's ``src`` is taken with ``git archive`` into a temporary directory (the default,
d674005, is the commit before the change) and each side runs in a child process of its own, alternately, on the
same machine; times are CPU seconds (``time.process_time``; the machine is shared), the best of ``--reps`` runs.

Run:  PYTHONPATH=src python benchmarks/bench_k_for.py [--old REV] [--reps 2]

Figures (2 cores shared with another job, load average 6.9 at the start and 7.0 at the end; CPU s per call, best
of 2; d674005 -> c72a36f; all 32 answers identical):

    demo large-70b k_for(0.96): first call on a result 0.55 -> 0.40, again on it 0.53 -> 0.20
    demo:   first call per model 0.48 -> 0.35, later calls 0.43 -> 0.19, all 16 calls 0.44 -> 0.23
    Pythia: first call per model 0.41 -> 0.30, later calls 0.37 -> 0.18, all 14 calls 0.39 -> 0.24
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHIA = ROOT.parent / "shared" / "data" / "pythia_math_counts.csv"
CASES = (("demo", (0.5, 0.8, 0.9, 0.96)), ("pythia", (0.5, 0.9)))


def child(out: str) -> None:
    """Forecast each case, time every k_for call and write the answers and times as JSON to ``out``."""
    import passcurve as pc

    warnings.simplefilter("ignore")
    rows = []
    # docs/forecasting.md's example: large-70b's k_for(0.96) on a fresh result, then once more on it
    res = pc.forecast(pc.simulate(rng=0).counts, [1000], rng=0)
    for j in range(2):
        t0, w0 = time.process_time(), time.perf_counter()
        r = res.k_for(0.96, "large-70b")
        rows.append(row("example", r, j == 0, time.process_time() - t0, time.perf_counter() - w0))
    for name, targets in CASES:
        if name == "pythia" and not PYTHIA.exists():
            continue
        counts = pc.simulate(rng=0).counts if name == "demo" else pc.read_counts(str(PYTHIA))
        res = pc.forecast(counts, [1000], rng=0)
        for m in res.models:
            for j, t in enumerate(targets):
                t0, w0 = time.process_time(), time.perf_counter()
                r = res.k_for(t, m)
                rows.append(row(name, r, j == 0, time.process_time() - t0, time.perf_counter() - w0))
    Path(out).write_text(json.dumps(rows))


def row(case: str, r: Any, first: bool, cpu: float, wall: float) -> dict:
    answer: list[Any] = [repr(float(getattr(r, x))) for x in ("k", "low", "high", "ceiling")]
    answer += [getattr(r, x) for x in ("reachable", "note", "caveat", "observed_k")]
    return {"case": case, "model": r.model, "target": r.target, "first": first, "cpu": cpu,
            "wall": wall, "answer": answer}


def run(src: Path) -> list[dict]:
    with tempfile.NamedTemporaryFile(suffix=".json") as fh:
        env = {**os.environ, "PYTHONPATH": str(src)}
        subprocess.run([sys.executable, __file__, "--child", fh.name], env=env, check=True)
        return list(json.loads(Path(fh.name).read_text()))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--old", default="d674005", help="the revision to compare with (default: before the memo)")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        tar = Path(tmp) / "old.tar"
        with open(tar, "wb") as fh:
            got = subprocess.run(["git", "-C", str(ROOT), "archive", args.old, "src"], stdout=fh,
                                 stderr=subprocess.PIPE, text=True, check=False)
        if got.returncode:  # no git checkout, or no such revision: the docstring's figures are what was measured
            sys.exit(f"bench_k_for: cannot take {args.old}'s src (git archive: {got.stderr.strip()})")
        with tarfile.open(tar) as tf:
            tf.extractall(tmp, filter="data")
        sides = {"old": Path(tmp) / "src", "new": ROOT / "src"}
        runs: dict[str, list[list[dict]]] = {"old": [], "new": []}
        for _ in range(args.reps):  # alternately, so that a change of load falls on both
            for side, src in sides.items():
                runs[side].append(run(src))
    old, new = runs["old"][0], runs["new"][0]
    diff = [(o["case"], o["model"], o["target"], o["answer"], n["answer"]) for o, n in zip(old, new, strict=True)
            if o["answer"] != n["answer"]]
    best = {side: [min(r[i]["cpu"] for r in rs) for i in range(len(old))] for side, rs in runs.items()}
    wall = {side: [min(r[i]["wall"] for r in rs) for i in range(len(old))] for side, rs in runs.items()}
    print(f"k_for, CPU s per call (best of {args.reps}), {args.old} -> this checkout; load average "
          f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs")
    ex = [i for i, o in enumerate(old) if o["case"] == "example"]
    print("demo large-70b k_for(0.96), docs/forecasting.md's example: "
          f"first call on a result {best['old'][ex[0]]:.2f} -> {best['new'][ex[0]]:.2f}, "
          f"again on it {best['old'][ex[1]]:.2f} -> {best['new'][ex[1]]:.2f}")
    for case, _ in CASES:
        idx = [i for i, o in enumerate(old) if o["case"] == case]
        if not idx:
            print(f"{case}: skipped (no data)")
            continue
        parts = []
        for label, sel in (("first call per model", [i for i in idx if old[i]["first"]]),
                           ("later calls", [i for i in idx if not old[i]["first"]]), (f"all {len(idx)} calls", idx)):
            o, n = (sum(best[s][i] for i in sel) / len(sel) for s in ("old", "new"))
            parts.append(f"{label} {o:.2f} -> {n:.2f}")
        o, n = (sum(wall[s][i] for i in idx) / len(idx) for s in ("old", "new"))
        print(f"{case}: " + ", ".join(parts) + f" (wall s: {o:.2f} -> {n:.2f})")
    print(f"answers: {len(old) - len(diff)} of {len(old)} identical")
    for d in diff:
        print("  differs:", *d)
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
