"""Does debiasing the candidates by their self-backtest bias help?  ``combination="debiased"`` vs
``"inverse_mse"`` (the default) of ``passcurve.forecast(method="auto")``, on identical data.

For each run both combinations are called with the same ``rng`` seed, so their self-backtests use
the same thinnings (paired); point forecasts only (``n_resamples=0``). Simulated scenarios are those
of ``backtest_simulated.py`` (300 problems, known truth); Pythia/MATH is thinned as in
``backtest_pythia.py`` (truth = the full data's unbiased pass@K).

Run:  PYTHONPATH=src python benchmarks/backtest_debias.py [--seeds 12] [--pythia-seeds 5] [--skip-sim]
Prints the median absolute error (points of pass@K) per cell and overall.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_pythia import DATA, load, thinned
from backtest_simulated import SCENARIOS, draw

from passcurve import Counts
from passcurve._forecast import forecast

# (label, method, combination): a combination applies to "auto" only (another method refuses one)
METHODS = (("least_squares", "least_squares", None), ("beta", "beta", None),
           ("auto", "auto", "inverse_mse"), ("auto debiased", "auto", "debiased"))


def one(counts: Counts, K: int, truth: float, seed: int) -> dict[str, float]:
    out = {}
    for label, meth, comb in METHODS:
        res = forecast(counts, [K], method=meth, combination=comb, n_resamples=0, flags=False, rng=seed)
        out[label] = float(res.pass_at_k[0, 0]) - truth
    return out


def show(title: str, errs: list[dict[str, float]]) -> None:
    cells = "  ".join(f"{lab}={100 * np.median(np.abs([e[lab] for e in errs])):.2f}" for lab, _, _ in METHODS)
    print(f"{title:<48} ({len(errs):3d} runs)  {cells}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--pythia-seeds", type=int, default=5)
    ap.add_argument("--skip-sim", action="store_true")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(11)
    t0 = time.time()
    if not args.skip_sim:
        every: dict[int, list[dict[str, float]]] = {100: [], 1000: []}
        for scen in SCENARIOS:
            for m, K in ((100, 1000), (1000, 10000)):
                errs = []
                for _ in range(args.seeds):
                    n, c, truth = draw(scen, 300, K, gen, m)
                    errs.append(one(Counts.from_arrays(n, c, model="sim"), K, truth, int(gen.integers(2**31))))
                every[m] += errs
                show(f"{scen} m={m}", errs)
        show("ALL simulated m=100", every[100])
        show("ALL simulated m=1000", every[1000])
        show("ALL simulated", every[100] + every[1000])
    counts = load(DATA)
    allp = []
    for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
        errs = [one(Counts.from_arrays(nt, ct, model=name), K, truth, int(gen.integers(2**31)))
                for name, nt, ct, truth in thinned(counts, m, K, args.pythia_seeds, gen)]
        allp += errs
        show(f"Pythia m={m} -> K={K}", errs)
    show("ALL Pythia", allp)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
