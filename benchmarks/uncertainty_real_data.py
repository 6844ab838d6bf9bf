"""Error bars, a paired comparison and hidden-difficulty diagnostics on real data, plus bootstrap speed.

Reads ../shared/data/pythia_math_counts.csv (Brown et al. 2024, Large Language Monkeys; never copied into
the repo). Run by hand:  PYTHONPATH=src python benchmarks/uncertainty_real_data.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from passcurve import Counts, compare, curve_intervals, hidden_difficulty, power_analysis
from passcurve._uncertainty import _boot_means, _scores

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "pythia_math_counts.csv"


def main() -> None:
    df = pd.read_csv(DATA)
    cnt = Counts.from_arrays(df.n, df.c, problem=df.problem_id, model=df.model)
    ks = [1, 10, 100, 1000, 10000]
    print("## pass@k with 95% intervals (Pythia on MATH, 128 problems, n = 10,000)")
    for method in ("analytic", "bca"):
        res = curve_intervals(cnt, ks, metric="pass_at_k", method=method, n_resamples=2000, rng=0)
        print(f"\n### {method}\n| model | " + " | ".join(f"k={k}" for k in ks) + " |")
        print("|---|" + "---|" * len(ks))
        for i, m in enumerate(res.models):
            lo, hi = res.intervals["pass_at_k"]
            cells = " | ".join(f"{res.values['pass_at_k'][i, j]:.3f} [{lo[i, j]:.3f}, {hi[i, j]:.3f}]" for j in range(len(ks)))
            print(f"| {m} | {cells} |")

    a, b = "Pythia 12B", "Pythia 6.9B"
    print(f"\n## paired comparison {a} - {b}")
    r = compare(cnt, a, b, ks, n_resamples=5000, rng=0)
    print(r.to_frame().to_string(index=False))

    print("\n## hidden difficulty")
    d = hidden_difficulty(cnt, [1, 8, 64, 1024])
    print(d.to_frame().to_string(index=False))
    print(d.curve_frame().query("k in (8, 1024)").to_string(index=False))

    print("\n## power: problems needed to detect delta=0.05 at k=10 (pilot: these two models)")
    print(power_analysis(0.05, 10, counts=cnt, a=a, b=b, n=[10, 20, 50, 100, 1000]).to_frame().to_string(index=False))

    print("\n## bootstrap speed: vectorised multinomial weights vs a Python loop per replicate")
    rng = np.random.default_rng(0)
    N, B = 1000, 2000
    n = np.full(N, 200)
    c = rng.binomial(200, rng.beta(0.3, 3, N))
    ks_arr = np.unique(np.geomspace(1, 200, 20).astype(int))
    S = _scores(n, c, ks_arr, "pass_at_k", None)
    t0 = time.perf_counter()
    loop = np.empty((B, ks_arr.size))
    for bb in range(B):
        idx = rng.integers(0, N, N)
        loop[bb] = S[idx].mean(axis=0)
    t_loop = time.perf_counter() - t0
    t0 = time.perf_counter()
    vec = _boot_means(S, np.ones(N), np.arange(N), N, B, rng)
    t_vec = time.perf_counter() - t0
    print(f"N={N} problems, B={B} replicates, K={ks_arr.size}: loop {t_loop:.2f} s, vectorised {t_vec:.2f} s, "
          f"ratio {t_loop / t_vec:.1f}x; SEs agree: {np.allclose(loop.std(0), vec.std(0), rtol=0.1)}")


if __name__ == "__main__":
    main()
