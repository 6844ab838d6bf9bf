"""Calibration of the planner's two SDs in an online loop: how often the truth lies within ±1.96 SD.

Each run: 60 problems with p ~ Beta(0.3, 3) (seed 100 + run), a `Planner` started from no samples,
six rounds of 100 planned samples (`next(100, horizon=...)`, outcomes drawn from the true p), then
`Planner.forecast()`. The truth is this benchmark's pass_D@100 = mean over problems of 1 − (1 − p)^100
(closed form). Reported for `posterior` (empirical Bayes, SD given the fitted prior) and `bayes`
(hierarchical Bayes, SD counting the prior's uncertainty): the mean and SD of z = (estimate − truth)/SD
and the share of runs with |z| < 1.96 (nominal 95%).

Run: PYTHONPATH=src python benchmarks/planner_sd_coverage.py [RUNS]   (default 40; about 1 s per run)
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

import passcurve as pc


def main(runs: int) -> None:
    K, problems = 100, 60
    z: dict[str, list[float]] = {"posterior": [], "bayes": []}
    for run in range(runs):
        rng = np.random.default_rng(100 + run)
        p = rng.beta(0.3, 3.0, size=problems)
        pl = pc.Planner(n=[0] * problems, c=[0] * problems, k=K, rng=run)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for r in range(6):
                ids = pl.next(100, horizon=100 * (6 - r))
                pl.update(ids, [int(rng.random() < p[int(i)]) for i in ids])
            f = pl.forecast()
        truth = float(np.mean(-np.expm1(K * np.log1p(-p))))
        z["posterior"].append((f["posterior"] - truth) / f["posterior_sd"])
        z["bayes"].append((f["bayes"] - truth) / f["bayes_sd"])
    for name, v in z.items():
        a = np.array(v)
        print(f"{name:9s}: mean z {a.mean():+.2f}, SD of z {a.std():.2f}, within ±1.96 SD {np.mean(np.abs(a) < 1.96):.0%}"
              f" of {runs} runs")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
