"""Candidate 19 for the m = 100 regime: the Kumaraswamy difficulty law (ninth session).

Principle, fixed before scoring: Schaeffer et al. (2025) fit two distributional laws to per-problem counts,
the Beta and the Kumaraswamy, f(p) = a b p^(a-1) (1 - p^a)^(b-1). Both have a power-law left tail p^(a-1)
(so pass_D@k follows a power law with exponent a), but they tie the tail to the bulk differently: the
Beta through (1-p)^(b-1), the Kumaraswamy through (1-p^a)^(b-1). At m = 100 the Beta's tail exponent is
estimated mostly from the bulk (docs/forecasting.md, "The Beta law is adequate on Pythia; its parameters at
m = 100 are not"), so a law with a different bulk-tail coupling may estimate it with less noise.
Maximum likelihood by grid quadrature in log p, then the empirical-Bayes forecast
mean_i 1 - E[(1-p_i)^K | n_i, c_i], exactly as the logit-normal and Weibull candidates of
``backtest_more_candidates.py``. Scored beside least squares and the Beta (empirical Bayes) on the same
thinnings: Pythia (7 models, 20 seeds) and the simulated suites (128 problems, 6 per scenario).
Median absolute error and mean error in points of pass@K.

Run:  PYTHONPATH=src python benchmarks/backtest_kumaraswamy.py [--pythia-seeds 20] [--seeds 6]
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Callable

import numpy as np
from backtest_more_candidates import _U, _grid_eb
from backtest_pythia import DATA, load, thinned
from backtest_simulated import HARD_SCENARIOS, SCENARIOS, draw

from passcurve import Counts, forecast

_LOG_1MP = np.log1p(-np.exp(_U))


def kumaraswamy(n: np.ndarray, c: np.ndarray, K: int) -> float:
    def log_w(t: np.ndarray) -> np.ndarray:  # density of u = log p: a b p^a (1 - p^a)^(b-1)
        a, b = np.exp(t[0]), np.exp(t[1])
        lw = t[0] + t[1] + a * _U + (b - 1.0) * np.log1p(-np.exp(a * _U))
        return lw - np.logaddexp.reduce(lw)

    return _grid_eb(n, c, K, _U, _LOG_1MP, log_w,
                    [[np.log(0.3), np.log(10.0)], [np.log(0.2), np.log(3.0)], [np.log(0.5), np.log(30.0)]])


def three(n: np.ndarray, c: np.ndarray, K: int) -> list[float]:
    cnt = Counts.from_arrays(n, c)
    out = []
    for meth in ("least_squares", "beta_eb"):
        res = forecast(cnt, [K], method=meth, n_resamples=0, flags=False, rng=0)
        out.append(float(res.pass_at_k[0, 0]))
    return [*out, kumaraswamy(n, c, K)]


def report(title: str, rows: list[list[float]]) -> None:
    r = np.array(rows)
    err = (r[:, :3] - r[:, 3:4]) * 100
    ok = np.isfinite(err).all(axis=1)
    a = np.abs(err[ok])
    cells = "   ".join(f"{nm} {np.median(a[:, j]):.2f} ({err[ok, j].mean():+.2f})"
                       for j, nm in enumerate(("least squares", "beta_eb", "kumaraswamy")))
    print(f"{title:40s} runs {ok.sum():4d}   {cells}", flush=True)


def score_suites(score: Callable[[np.ndarray, np.ndarray, int], list[float]],
                 report: Callable[[str, list[list[float]]], None], pythia_seeds: int, seeds: int) -> None:
    """The candidate scripts' common run: ``score(n, c, K)`` (one forecast per method) on Pythia thinned to
    m = 100 and 1000 (``pythia_seeds`` thinnings per model, seed 2026) and on the simulated suites (``seeds``
    benchmarks of 128 problems per scenario, seed 7); ``report(title, rows)`` gets rows [*forecasts, truth]."""
    warnings.simplefilter("ignore")
    t0 = time.time()
    if DATA.exists():
        gen = np.random.default_rng(2026)
        counts = load(DATA)
        for m, K in [(100, 1000), (100, 10000), (1000, 10000)]:
            report(f"Pythia m={m} -> K={K}", [[*score(nt, ct, K), truth] for _, nt, ct, truth in
                                              thinned(counts, m, K, pythia_seeds, gen)])
    sgen = np.random.default_rng(7)
    for m, K in [(100, 1000), (1000, 10000)]:
        for scen_set, label in [(SCENARIOS, "6 scenarios"), (HARD_SCENARIOS, "9 hard Betas")]:
            rows = []
            for scen in scen_set:
                for _ in range(seeds):
                    n, c, truth = draw(scen, 128, K, sgen, m)
                    rows.append([*score(n, c, K), truth])
            report(f"simulated, {label}, m={m} -> K={K}", rows)
    print(f"({time.time() - t0:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pythia-seeds", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=6)
    args = ap.parse_args()
    score_suites(three, report, args.pythia_seeds, args.seeds)


if __name__ == "__main__":
    main()
