"""Ingestion at scale: read_counts on a large per-sample Parquet file vs DuckDB's own GROUP BY.

Usage::

    PYTHONPATH=src python benchmarks/bench_ingest.py [--rows 100000000] [--dir /tmp] [--repeat 3]

Writes (once, and keeps for later runs: delete it by hand) a Parquet file of per-sample rows (model,
problem_id, attempt, correct): 8 models x 1,000 problems x rows/8,000 attempts (it refuses to start with less
than 8 GB free in ``--dir``), then

* times ``passcurve.read_counts(file)`` and the bare DuckDB query
  ``SELECT model, problem_id, count(*), sum(correct::INT) FROM read_parquet(file) GROUP BY ALL``
  alternately in this process (median of ``--repeat`` runs each), and
* measures the peak RSS of each in a fresh subprocess (``ru_maxrss``).

Goals (issue 9): peak RSS < 2 GB and time within 1.3x of the bare GROUP BY.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb

BASELINE_SQL = (
    "SELECT model, problem_id, count(*) AS n, sum(correct::INT) AS c FROM read_parquet('{f}') GROUP BY ALL"
)


def make_file(path: Path, rows: int, problems: int = 1000) -> None:
    if path.exists():
        return
    models = 8
    per = rows // (models * problems)
    free = shutil.disk_usage(path.parent).free
    if free < 8 * 2**30:
        sys.exit(f"not enough free disk in {path.parent} ({free / 2**30:.1f} GB); need ~8 GB headroom")
    t = time.perf_counter()
    tmp = path.with_suffix(".tmp")
    duckdb.sql(
        f"""COPY (
            SELECT 'model-' || (i // ({problems * per}))::VARCHAR AS model,
                   ((i // {per}) % {problems})::BIGINT AS problem_id,
                   (i % {per})::BIGINT AS attempt,
                   hash(i) % 1000 < (((i // {per}) % {problems}) * 7 % 1000) AS correct
            FROM range({models * problems * per}) t(i)
        ) TO '{tmp}' (FORMAT parquet, ROW_GROUP_SIZE 1000000)"""
    )
    tmp.rename(path)
    print(
        f"wrote {path} ({path.stat().st_size / 2**20:.0f} MB) in {time.perf_counter() - t:.1f} s", flush=True
    )


def run_baseline(f: Path) -> int:
    return len(duckdb.connect().sql(BASELINE_SQL.format(f=f)).fetchall())


def run_passcurve(f: Path) -> int:
    from passcurve.data import read_counts

    return len(read_counts(f))


def run_passcurve_nodup(f: Path) -> int:
    from passcurve.data import read_counts

    return len(read_counts(f, check_duplicates=False))


def child(mode: str, f: Path) -> None:
    fn = {"baseline": run_baseline, "passcurve": run_passcurve, "nodup": run_passcurve_nodup}[mode]
    t = time.perf_counter()
    rows = fn(f)
    dt = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    print(json.dumps({"mode": mode, "seconds": dt, "peak_rss": rss, "groups": rows}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000_000)
    ap.add_argument("--dir", default="/tmp")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--problems", type=int, default=1000, help="problems per model (groups = 8 x problems)")
    ap.add_argument("--child", choices=["baseline", "passcurve", "nodup"])
    ap.add_argument("--file")
    args = ap.parse_args()
    if args.child:
        child(args.child, Path(args.file))
        return
    suffix = "" if args.problems == 1000 else f"_{args.problems}p"
    f = Path(args.dir) / f"passcurve_bench_{args.rows}{suffix}.parquet"
    make_file(f, args.rows, args.problems)
    # timings in this process, alternating, after one warm-up of each (page cache)
    run_baseline(f)
    run_passcurve(f)
    tb, tp, tn = [], [], []
    cb, cp, cn = [], [], []  # CPU seconds (all threads): robust when other jobs share the machine
    for _ in range(args.repeat):
        for fn, acc, cacc in ((run_baseline, tb, cb), (run_passcurve, tp, cp), (run_passcurve_nodup, tn, cn)):
            t, c = time.perf_counter(), time.process_time()
            fn(f)
            acc.append(time.perf_counter() - t)
            cacc.append(time.process_time() - c)
    b, p, q = statistics.median(tb), statistics.median(tp), statistics.median(tn)
    threads = duckdb.sql("SELECT current_setting('threads')").fetchall()[0][0]
    print(f"rows={args.rows:,} file={f.stat().st_size / 2**20:.0f} MB threads={threads}")
    print(f"time  duckdb GROUP BY  median {b:.2f} s  runs {[round(x, 2) for x in tb]}")
    print(f"time  read_counts      median {p:.2f} s  runs {[round(x, 2) for x in tp]}")
    print(f"time  read_counts(check_duplicates=False) median {q:.2f} s  runs {[round(x, 2) for x in tn]}")
    print(
        f"ratio read_counts / duckdb = {p / b:.2f}x; without the duplicate check {q / b:.2f}x (goal <= 1.3x)"
    )
    print(
        f"best-of-{args.repeat} wall ratio: {min(tp) / min(tb):.2f}x; without the duplicate check {min(tn) / min(tb):.2f}x"
    )
    mb, mp, mn = statistics.median(cb), statistics.median(cp), statistics.median(cn)
    print(
        f"CPU seconds (median): duckdb {mb:.2f}, read_counts {mp:.2f} ({mp / mb:.2f}x), "
        f"without the duplicate check {mn:.2f} ({mn / mb:.2f}x)"
    )
    env = dict(os.environ)
    for mode in ("baseline", "passcurve", "nodup"):
        out = subprocess.run(
            [sys.executable, __file__, "--child", mode, "--file", str(f)],
            capture_output=True,
            text=True,
            env=env,
        )
        if out.returncode != 0:
            print(out.stderr)
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"peak RSS {mode:9s} {r['peak_rss'] / 2**30:.2f} GB  ({r['seconds']:.2f} s cold process, {r['groups']} groups)"
        )


if __name__ == "__main__":
    main()
