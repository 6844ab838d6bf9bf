"""Can a likelihood test decide, model by model, when the joint item-response forecast is safe?  (Issue 3.)

The item-response candidate (backtest_irt_candidate.py) forecasts the mid-sized Pythia models well and the weakest
ones badly. A principled per-model choice: use it for model j only when it describes model j's own counts better
than the single-model Beta does, by AIC: log p(c_j | other models' counts) under the joint model (one parameter,
theta_j) against the beta-binomial log-likelihood of c_j (two), both without the C(n, c) constants; otherwise
passcurve's default rule (``auto3``: paired inverse-MSE self-backtest over least squares, beta_eb and zi_beta).

Run:  PYTHONPATH=src python benchmarks/backtest_irt_gate.py [--seeds 6] [--rng 0]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_combination import combine_paired, cv_errors, predict_candidates
from backtest_irt_candidate import SETS, irt_conditional_loglik, irt_fit, irt_forecast
from backtest_pythia import DATA, as_matrix, load, pass_at_columns, thin_columns
from backtest_simulated import exact_pass_at_k

from passcurve import BetaBinomial, simulate
from passcurve._adaptive import beta_binomial_loglik

COLS = ("least_squares", "auto3", "irt", "gated")


def beta_loglik(n: np.ndarray, c: np.ndarray) -> float:
    p = BetaBinomial().fit(n=n, c=c).params_
    return float(np.sum(beta_binomial_loglik(n, c, p["alpha"], p["beta"])))


def runs(N: np.ndarray, C: np.ndarray, K: int, truth: np.ndarray, gen: np.random.Generator) -> list[tuple]:
    """Per model: (index, forecasts in COLS order, truth, gate on?)."""
    fit = irt_fit(N, C)
    irt = irt_forecast(N, C, K, fit=fit)
    cond = irt_conditional_loglik(N, C, fit)
    out = []
    for j in range(N.shape[1]):
        n, c = N[:, j], C[:, j]
        p = predict_candidates(n, c, K)
        E = cv_errors(n, c, 10, gen)
        auto3 = combine_paired(p, E[np.isfinite(E).all(1)], False)
        gate = bool(2 * 1 - 2 * cond[j] < 2 * 2 - 2 * beta_loglik(n, c))  # AIC: 1 parameter vs 2
        out.append((j, np.array([p[0], auto3, irt[j], irt[j] if gate else auto3]), truth[j], gate))
    return out


def table(title: str, out: list[tuple], names: list[str] | None = None) -> None:
    E = 100 * np.abs(np.array([o[1] for o in out]) - np.array([o[2] for o in out])[:, None])
    G = np.array([o[3] for o in out])
    cells = "  ".join(f"{c} {np.nanmedian(E[:, i]):.2f}" for i, c in enumerate(COLS))
    print(f"{title} ({len(out)} runs): {cells}  (gate on in {G.mean():.0%})", flush=True)
    for j, nm in enumerate(names or []):
        s = np.array([o[0] == j for o in out])
        cells = "  ".join(f"{c} {np.nanmedian(E[s, i]):.2f}" for i, c in enumerate(COLS))
        print(f"    {nm:<12} {cells}  gate {G[s].mean():.0%}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=6, help="Pythia thinnings per design (simulations: a third)")
    ap.add_argument("--rng", type=int, default=0)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(args.rng)
    t0 = time.time()
    names, Nf, Cf = as_matrix(load(DATA))
    for m, K in ((100, 1000), (1000, 10000)):
        truth = pass_at_columns(Nf, Cf, K)
        out: list[tuple] = []
        for _ in range(args.seeds):
            out += runs(*thin_columns(Nf, Cf, m, gen), K, truth, gen)
        table(f"Pythia m = {m} -> {K}", out, names)
    for m, K in ((100, 1000), (1000, 10000)):
        out = []
        for specs in SETS.values():
            for rho in (0.6, 0.9):
                for _ in range(max(1, args.seeds // 3)):
                    b = simulate(problems=128, n=m, models=specs, correlation=rho, rng=int(gen.integers(2**31)))
                    J = len(specs)
                    N, C, P = (x.reshape(J, -1).T for x in (b.counts.n, b.counts.c, b.p))
                    out += runs(N, C, K, np.array([exact_pass_at_k(P[:, j], K) for j in range(J)]), gen)
        table(f"simulated (3 model sets x 2 correlations) m = {m} -> {K}", out)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
