"""A tail-only difficulty fit as a forecasting candidate (extreme-value-style), scored against passcurve's.

The forecast of pass_D@K at K = 10 m rests almost entirely on the problems that are still unsolved (or
barely solved) after m samples, i.e. on the difficulty density over p < a few / m. A Beta fitted by
maximum likelihood to *all* problems lets the easy bulk set the tail exponent. Extreme-value practice
(Hill 1975) estimates a tail from the tail only. The candidate here:

* threshold t = max(1, median c) (the harder half of the problems; fixed before any data were scored);
* Beta(alpha, beta) fitted to the problems with c_i <= t by the *truncated* beta-binomial likelihood
  prod_i P(c_i | n_i) / P(C <= t | n_i) (a conditional likelihood: valid whatever the law above t);
* empirical-Bayes forecast 1 - E[(1-p_i)^K | n_i, c_i] under that Beta for c_i <= t, under the full-data
  Beta (beta_eb) for the easier problems (at K = 10 m their forecast is ~1 under any model).

Every run caches the forecasts of least squares, beta_eb, zi_beta and the tail fit, plus the same paired
self-backtest (10 thinnings to a tenth) for all four, and scores: each candidate alone, passcurve's
combination of its three candidates (``auto3``, the default), and the same rule with the tail fit as a
fourth candidate (``auto4``). Simulated scenarios decide; Pythia is the held-out real check.

Run:  PYTHONPATH=src python benchmarks/backtest_tail_candidate.py [--seeds 8] [--pythia-seeds 5] [--problems 300]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_combination import combine_paired, predict_candidates, run
from backtest_pythia import DATA, load, thinned
from backtest_simulated import SCENARIOS, draw
from scipy import optimize, special

from passcurve._forecast import _Candidate


def truncated_beta_fit(n: np.ndarray, c: np.ndarray, t: int) -> tuple[float, float]:
    """MLE of Beta(alpha, beta) from the problems with c <= t, likelihood conditional on C <= t."""
    sel = c <= t
    (pn, pc), mult = np.unique(np.stack([n[sel], c[sel]]), axis=1, return_counts=True)
    js = np.arange(t + 1)
    lbin = special.gammaln(pn + 1) - special.gammaln(pc + 1) - special.gammaln(pn - pc + 1)
    lbj = special.gammaln(pn[:, None] + 1) - special.gammaln(js + 1) - special.gammaln(pn[:, None] - js + 1)

    def nll(th: np.ndarray) -> float:
        a, b = np.exp(th)
        lp = lbin + special.betaln(a + pc, b + pn - pc) - special.betaln(a, b)
        lj = np.where(js <= pn[:, None], lbj + special.betaln(a + js, b + pn[:, None] - js) - special.betaln(a, b),
                      -np.inf)
        return -float(np.sum(mult * (lp - special.logsumexp(lj, axis=1))))

    best = min((optimize.minimize(nll, np.log(x0), method="Nelder-Mead",
                                  options={"xatol": 1e-6, "fatol": 1e-8, "maxiter": 2000})
                for x0 in ((0.3, 5.0), (1.0, 50.0), (0.1, 1.0))), key=lambda r: r.fun)
    return float(np.exp(best.x[0])), float(np.exp(best.x[1]))


def tail_forecast(n: np.ndarray, c: np.ndarray, K: int) -> float:
    full = _Candidate("beta_eb", n, c, None).fit_
    fa, fb = full.params_["alpha"], full.params_["beta"]
    t = max(1, int(np.median(c)))
    a, b = truncated_beta_fit(n, c, t)
    fail_tail = np.exp(special.betaln(a + c, b + n - c + K) - special.betaln(a + c, b + n - c))
    fail_full = np.exp(special.betaln(fa + c, fb + n - c + K) - special.betaln(fa + c, fb + n - c))
    return float(np.mean(1 - np.where(c <= t, fail_tail, fail_full)))


def predict_all(n: np.ndarray, c: np.ndarray, K: int) -> np.ndarray:
    """passcurve's three candidates, then the tail fit (NaN where a forecast is undefined)."""
    try:
        tail = tail_forecast(n, c, K)
    except Exception:  # noqa: BLE001
        tail = np.nan
    return np.append(predict_candidates(n, c, K), tail)


def record(n: np.ndarray, c: np.ndarray, K: int, truth: float, gen: np.random.Generator) -> dict:
    return run(n, c, K, truth, gen, predict=predict_all)


def paired_inverse_mse(rec: dict, idx: list[int]) -> float:
    """passcurve's rule (``combine_paired``) on the candidates ``idx`` that forecast the full data."""
    p, E = rec["pred"][idx], rec["cv"][:, idx]
    ok = np.isfinite(p)
    p, E = p[ok], E[:, ok]
    return combine_paired(p, E[np.all(np.isfinite(E), axis=1)], shrink=False)


RULES = {
    "least_squares": lambda r: r["pred"][0],
    "beta_eb": lambda r: r["pred"][1],
    "tail": lambda r: r["pred"][3],
    "auto3": lambda r: paired_inverse_mse(r, [0, 1, 2]),
    "auto4": lambda r: paired_inverse_mse(r, [0, 1, 2, 3]),
}


def report(title: str, recs: list[dict]) -> None:
    errs = {k: [100 * abs(f(r) - r["truth"]) for r in recs] for k, f in RULES.items()}
    print(f"{title:48s} {len(recs):4d} " + " ".join(f"{np.nanmedian(v):8.2f}" for v in errs.values()), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--pythia-seeds", type=int, default=5)
    ap.add_argument("--problems", type=int, default=300)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    t0 = time.time()
    print(f"{'median |error| (points)':48s} runs " + " ".join(f"{k[:8]:>8s}" for k in RULES))
    gen = np.random.default_rng(21)
    sim: dict[int, list[dict]] = {100: [], 1000: []}
    for scen in SCENARIOS:
        for m, K in ((100, 1000), (1000, 10000)):
            recs = []
            for _ in range(args.seeds):
                n, c, truth = draw(scen, args.problems, K, gen, m)
                recs.append(record(n, c, K, truth, gen))
            report(f"{scen[:36]} m={m}", recs)
            sim[m] += recs
    for m in (100, 1000):
        report(f"ALL simulated m={m}", sim[m])
    report("ALL simulated", sim[100] + sim[1000])
    if args.pythia_seeds and DATA.exists():
        counts = load(DATA)
        gen = np.random.default_rng(22)
        for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
            recs = [record(nt, ct, K, truth, gen) for _, nt, ct, truth in thinned(counts, m, K, args.pythia_seeds, gen)]
            report(f"Pythia m={m} -> K={K}", recs)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
