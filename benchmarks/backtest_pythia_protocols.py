"""Do the two baselines' errors on Pythia depend on the backtest protocol?

Issue 3 quotes, for Pythia/MATH at m = 1000 -> K = 10^4, about 1.4 points of error for least squares and 2.8 for
the beta-binomial. passcurve's backtest (random subsets of m samples, many seeds) measures the opposite order.
This script checks the two protocol choices that could explain it:

* ``first m``: each problem's *first* m attempts from the per-sample parquet (deterministic; one run per model)
  instead of a random subset of m;
* the least-squares grid: the default (unique integers of logspace(0, log10 m, 100)) vs the paper's 101-point
  grid restricted to k <= m, on random subsets (``--seeds`` per model).

Least squares, the population beta-binomial forecast ("beta", Kazdan et al.'s) and its empirical-Bayes version
(beta_eb); errors against the full data's unbiased pass@K, in points.

Run:  PYTHONPATH=src python benchmarks/backtest_pythia_protocols.py [--seeds 10]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import duckdb
import numpy as np
from backtest_pythia import DATA, load, thinned

from passcurve._curves import mean_curve
from passcurve._forecast import _Candidate, _ls_fit, _ls_predict
from passcurve._scaling import PAPER_K_GRID, default_k_grid

SAMPLES = Path(DATA).with_name("pythia_math_samples.parquet")
METHODS = ("least_squares", "beta", "beta_eb")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    counts = load(DATA)
    con = duckdb.connect()
    print("| m → K | protocol | runs | least squares | beta (population) | beta_eb |")
    print("|---|---|---|---|---|---|")
    for m, K in ((1000, 10000), (100, 1000)):
        rows = con.execute(
            f"SELECT model, CAST(problem_id AS VARCHAR), count(*), sum(correct::INT) FROM read_parquet('{SAMPLES}') "
            f"WHERE attempt <= {m} GROUP BY 1, 2").fetchall()
        first = {(mod, pid): (n, c) for mod, pid, n, c in rows}
        err = []
        for name, sub in counts.groups():
            truth = float(mean_curve(sub.n, sub.c, np.array([K]))[0][0])
            nt = np.array([first[name, str(p)][0] for p in sub.problem])
            ct = np.array([first[name, str(p)][1] for p in sub.problem])
            err.append([float(_Candidate(meth, nt, ct, None).predict(np.array([float(K)]))[0]) - truth for meth in METHODS])
        a = np.abs(np.array(err)) * 100
        print(f"| {m} → {K} | first m attempts | {len(a)} | " + " | ".join(f"{v:.2f}" for v in np.median(a, 0)) + " |")
    gen = np.random.default_rng(0)
    print("\n| m → K | runs | least squares, default grid | least squares, paper grid k <= m |")
    print("|---|---|---|---|")
    for m, K in ((1000, 10000), (100, 1000)):
        err = [[float(_ls_predict(*_ls_fit(nt, ct, ks), np.array([float(K)]))[0]) - truth
                for ks in (default_k_grid(m), PAPER_K_GRID[PAPER_K_GRID <= m])]
               for _name, nt, ct, truth in thinned(counts, m, K, args.seeds, gen)]
        a = np.abs(np.array(err)) * 100
        print(f"| {m} → {K} | {len(a)} | " + " | ".join(f"{v:.2f}" for v in np.median(a, 0)) + " |")


if __name__ == "__main__":
    main()
