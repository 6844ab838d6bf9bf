"""Reading one log per model: read_counts([file, ...]) vs read_counts(one file holding the same rows).

Usage::

    PYTHONPATH=src python benchmarks/bench_several_files.py [--rows 8000000] [--models 8] [--dir /tmp] [--repeat 3]

Writes (once, kept for later runs) per-sample Parquet logs: ``--models`` files of rows/models rows each (problem_id,
attempt, correct; no model column, so each file is the model named after it) and one file with the same rows and a
model column. Then times, alternately in this process (median of ``--repeat`` runs each), reading the several files
(each by its own DuckDB query, then concatenated) and the one file, checks that the two give the same counts, and
prints the ratio. The same for ``pool=True`` over the per-model files split into two runs each.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import duckdb
import numpy as np

from passcurve import read_counts


def make_files(folder: Path, rows: int, models: int, problems: int = 1000) -> tuple[list[Path], Path, list[Path]]:
    folder.mkdir(parents=True, exist_ok=True)
    per = rows // (models * problems)
    one = folder / "all.parquet"
    several = [folder / f"model-{j}.parquet" for j in range(models)]
    runs = [folder / f"runs{r}" / f"model-{j}.parquet" for j in range(models) for r in (0, 1)]
    select = (f"SELECT 'model-' || (i // {problems * per})::VARCHAR AS model, ((i // {per}) % {problems})::BIGINT "
              f"AS problem_id, (i % {per})::BIGINT AS attempt, hash(i) % 1000 < (((i // {per}) % {problems}) * 7 "
              f"% 1000) AS correct FROM range({models * problems * per}) t(i)")
    if not one.exists():
        duckdb.sql(f"COPY ({select}) TO '{one}' (FORMAT parquet)")
    for j, path in enumerate(several):
        if not path.exists():
            duckdb.sql(f"COPY (SELECT problem_id, attempt, correct FROM read_parquet('{one}') "
                       f"WHERE model = 'model-{j}') TO '{path}' (FORMAT parquet)")
    for r in (0, 1):  # two runs of each model, each numbering its attempts from 0 (a model column names the model)
        (folder / f"runs{r}").mkdir(exist_ok=True)
        for j in range(models):
            path = folder / f"runs{r}" / f"model-{j}.parquet"
            if not path.exists():
                cmp = "<" if r == 0 else ">="
                duckdb.sql(f"COPY (SELECT model, problem_id, attempt - {0 if r == 0 else per // 2} AS attempt, "
                           f"correct FROM read_parquet('{one}') WHERE model = 'model-{j}' AND attempt {cmp} "
                           f"{per // 2}) TO '{path}' (FORMAT parquet)")
    return several, one, runs


def timed(fn, repeat: int) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def same(a, b) -> bool:  # type: ignore[no-untyped-def]
    key = lambda c: sorted(zip(c.model.tolist(), c.problem.tolist(), c.n.tolist(), c.c.tolist(), strict=True))  # noqa: E731
    return key(a) == key(b)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=8_000_000)
    ap.add_argument("--models", type=int, default=8)
    ap.add_argument("--dir", default="/tmp/passcurve_bench_several")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    several, one, runs = make_files(Path(args.dir) / f"rows{args.rows}-models{args.models}", args.rows, args.models)
    t_one, c_one = timed(lambda: read_counts(one), args.repeat)
    t_sev, c_sev = timed(lambda: read_counts(several), args.repeat)
    t_pool, c_pool = timed(lambda: read_counts(runs, pool=True), args.repeat)
    print(f"{args.rows:,} rows, {args.models} models x 1,000 problems (median of {args.repeat})")
    print(f"  one file with a model column   {t_one:7.3f} s")
    print(f"  {args.models} files, one per model      {t_sev:7.3f} s  ({t_sev / t_one:.2f}x)  same counts: "
          f"{same(c_one, c_sev)}")
    print(f"  {2 * args.models} files, two runs each, pool {t_pool:7.3f} s  ({t_pool / t_one:.2f}x)  same counts: "
          f"{same(c_one, c_pool)}")
    print(f"  counts rows {len(c_one):,}; n per problem {int(np.median(c_one.n))}")


if __name__ == "__main__":
    main()
