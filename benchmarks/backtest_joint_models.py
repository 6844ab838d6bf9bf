"""Borrowing strength across models that were run on the same problems (Pythia: 7 models x 128 problems).

After m = 100 samples one model's unsolved problems all look alike (c = 0), so how many of them will be
solved by K = 10^3 is not in that model's data; every single-model method extrapolates it by its functional
form. Other models run on the *same* problems break the tie: a problem that a stronger model solved is much
more likely to be within reach. This script measures that signal, then scores two simple joint
empirical-Bayes candidates against the single-model ones, every model thinned to m with the same draws.

* ``signal`` — per model: of the problems it leaves unsolved at m = 100, the share with full-data
  c/n >= 10^-3 (mostly solved by K = 10^3), among those some stronger model solved at m = 100 vs the rest.
* ``joint_reg`` — beta-binomial regression: p_i ~ Beta with mean expit(a + b x_i) and precision phi,
  x_i = log((C_i + 1/2) / (N_i - C_i + 1/2)) from the *other* models' thinned counts on problem i
  (empirical Bayes with a covariate); forecast mean_i 1 - E[(1-p_i)^K | n_i, c_i].
* ``joint_strat`` — the plain beta_eb forecast fitted separately to the problems that some other model
  solved and to the rest, averaged by stratum size.

Run:  PYTHONPATH=src python benchmarks/backtest_joint_models.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_combination import predict_candidates
from backtest_pythia import DATA, load
from scipy import optimize, special

from passcurve._curves import mean_curve
from passcurve._forecast import _Candidate, thin_counts


def joint_reg(n: np.ndarray, c: np.ndarray, x: np.ndarray, K: int) -> float:
    d = n - c

    def nll(t: np.ndarray) -> float:
        mu = special.expit(t[0] + t[1] * x)
        al, be = mu * np.exp(t[2]), (1 - mu) * np.exp(t[2])
        return float(-np.sum(special.betaln(al + c, be + d) - special.betaln(al, be)))

    best = None
    with np.errstate(all="ignore"):
        for x0 in ([-4.0, 0.5, 1.0], [-3.0, 1.0, 0.0], [-5.0, 0.2, 2.0]):
            r = optimize.minimize(nll, x0, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-8, "maxiter": 4000})
            if best is None or r.fun < best.fun:
                best = r
    assert best is not None
    mu = special.expit(best.x[0] + best.x[1] * x)
    al, be = mu * np.exp(best.x[2]), (1 - mu) * np.exp(best.x[2])
    return float(1 - np.exp(special.betaln(al + c, be + d + K) - special.betaln(al + c, be + d)).mean())


def joint_strat(n: np.ndarray, c: np.ndarray, solved_elsewhere: np.ndarray, K: int) -> float:
    total = 0.0
    for s in (solved_elsewhere, ~solved_elsewhere):
        if s.any():
            total += s.sum() * float(_Candidate("beta_eb", n[s], c[s], None).predict(np.array([float(K)]))[0])
    return total / n.size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    t0 = time.time()
    subs = dict(load(DATA).groups())
    names = sorted(subs, key=lambda s: int(subs[s].c.sum()))
    order = list(subs[names[0]].problem)
    if any(list(subs[s].problem) != order for s in names):
        raise SystemExit("the models do not list the same problems in the same order")
    gen = np.random.default_rng(0)

    print("signal at m = 100 (mean over seeds): unsolved problems, share with full-data c/n >= 1e-3")
    print("| model | unsolved at m = 100 | solved by a stronger model | ... share >= 1e-3 | the rest: share >= 1e-3 |")
    print("|---|---|---|---|---|")
    for j, tgt in enumerate(names[:-1]):
        rows = []
        for _ in range(args.seeds):
            th = {s: thin_counts(subs[s].n, subs[s].c, 100, gen)[1] for s in names}
            z = th[tgt] == 0
            grow = subs[tgt].c / subs[tgt].n >= 1e-3
            other = np.sum([th[s] for s in names[j + 1:]], axis=0) > 0
            rows.append((z.sum(), (z & other).sum(), (z & other & grow).sum(), (z & ~other).sum(), (z & ~other & grow).sum()))
        r = np.mean(rows, 0)
        print(f"| {tgt} | {r[0]:.1f} | {r[1]:.1f} | {r[2] / max(r[1], 1e-9):.2f} | {r[4] / max(r[3], 1e-9):.2f} |")

    cols = ("least_squares", "beta_eb", "zi_beta", "joint_reg", "joint_strat")
    print("\nmedian absolute error, points (mean error in brackets)")
    print("| m → K | runs | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
        E = []
        for _ in range(args.seeds):
            th = {s: thin_counts(subs[s].n, subs[s].c, m, gen) for s in names}
            for s in names:
                truth = float(mean_curve(subs[s].n, subs[s].c, np.array([K]))[0][0])
                C = sum(th[o][1] for o in names if o != s)
                N = sum(th[o][0] for o in names if o != s)
                nt, ct = th[s]
                x = np.log((C + 0.5) / (N - C + 0.5))
                E.append(np.r_[predict_candidates(nt, ct, K), joint_reg(nt, ct, x, K), joint_strat(nt, ct, C > 0, K)] - truth)
        A = np.array(E) * 100
        cells = " | ".join(f"{np.nanmedian(np.abs(A[:, i])):.2f} ({np.nanmean(A[:, i]):+.2f})" for i in range(len(cols)))
        print(f"| {m} → {K} | {len(A)} | {cells} |", flush=True)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
