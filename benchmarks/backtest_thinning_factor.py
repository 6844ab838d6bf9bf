"""Self-backtest thinning factor: a tenth (the default) vs a third, at m = 100 -> K = 1000.

The rule is chosen on simulations with known truth; ``pythia`` only reports.

Run:  cd benchmarks && PYTHONPATH=../src python backtest_thinning_factor.py sim
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
from backtest_combination import cv_errors, predict_candidates
from backtest_pythia import DATA, load, thinned
from backtest_simulated import SCENARIOS, draw


def combine(preds, cv):
    w = 1 / np.maximum(np.nanmean(cv**2, axis=0), 1e-6)
    return float(w @ preds / w.sum())


def one(n, c, truth, gen, res):
    preds = predict_candidates(n, c, 1000)
    for f in (10, 3):
        res[f].append(combine(preds, cv_errors(n, c, 5, gen, factor=f)) - truth)


def main() -> None:
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(99)
    mode = sys.argv[1] if len(sys.argv) > 1 else "sim"
    res: dict[int, list[float]] = {10: [], 3: []}
    if mode == "sim":
        for scen in SCENARIOS:
            before = {f: len(v) for f, v in res.items()}
            for _ in range(4):
                n, c, truth = draw(scen, 300, 1000, gen, 100)
                one(n, c, truth, gen, res)
            e = {f: np.abs(res[f][before[f]:]) for f in res}
            print(f"{scen}: tenth {100 * np.median(e[10]):.2f}  third {100 * np.median(e[3]):.2f}", flush=True)
    else:
        for _, n, c, truth in thinned(load(DATA), 100, 1000, 3, gen):
            one(n, c, truth, gen, res)
    print(f"ALL {mode}: tenth {100 * np.median(np.abs(res[10])):.2f}  third {100 * np.median(np.abs(res[3])):.2f}")


if __name__ == "__main__":
    main()
