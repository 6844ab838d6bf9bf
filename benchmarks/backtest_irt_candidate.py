"""A joint item-response candidate for files with several models on the same problems (prototype).

After m = 100 samples one model's unsolved problems all look alike; other models run on the same problems tell
them apart (backtest_joint_models.py). This prototype turns that into a fourth forecasting candidate:

* **Model** (Rasch with a smooth problem law): logit p_ij = theta_j + u_i, theta_1 = 0, and the problems'
  u_i drawn from a density on a grid whose log is a natural cubic spline in u (Efron's g-modeling, 2016), linear
  beyond the end knots, so each model's difficulty law has a power-law tail near p = 0. Penalised marginal
  likelihood (ridge 1 on the spline coefficients), L-BFGS. All choices fixed before any scoring.
* **Forecast** of model j: mean_i 1 - E[(1 - p_ij)^K | every model's counts on problem i] (empirical Bayes).
* **Combination**: passcurve's rule (paired inverse-MSE self-backtest, 10 thinnings to a tenth) over the three
  default candidates plus this one. The self-backtest thins *every* model to a tenth at once, so the joint
  candidate is judged on what it would see.

Scored against least squares, beta_eb, zi_beta and the default three-candidate rule (``auto3``) on Pythia (every
model thinned to m with the same draws; truth: the full data's unbiased pass@K) and on simulated multi-model
benchmarks with known truth (``passcurve.simulate``: Beta or zero-inflated Beta marginals linked by a Gaussian
copula, i.e. *not* the candidate's own model): the four demo models, and a ladder of five hard Betas
(alpha 0.1-0.3, beta 100-10) with and without 10% impossible problems, each at correlation 0.6 and 0.9;
128 problems.

Run:  PYTHONPATH=src python benchmarks/backtest_irt_candidate.py [--seeds 12] [--sim-seeds 2] [--rng 0]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_combination import combine_paired, predict_candidates
from backtest_pythia import DATA, as_matrix, load, pass_at_columns, thin_columns
from backtest_simulated import exact_pass_at_k
from scipy import optimize, special

from passcurve import ModelSpec, simulate
from passcurve._simulate import DEMO_MODELS

_U = np.linspace(-22.0, 8.0, 241)  # the problems' log-odds grid


def _spline_basis(df: int = 7) -> np.ndarray:
    """Natural cubic spline basis on _U (truncated-power form, Hastie et al. ESL 5.2.1), standardised."""
    knots = np.quantile(_U, np.linspace(0, 1, df))

    def d(k: int) -> np.ndarray:
        return (np.maximum(_U - knots[k], 0) ** 3 - np.maximum(_U - knots[-1], 0) ** 3) / (knots[-1] - knots[k])

    q = np.stack([_U] + [d(k) - d(df - 2) for k in range(df - 2)], 1)
    return (q - q.mean(0)) / q.std(0)


_Q = _spline_basis()


def _unpack(t: np.ndarray, J: int) -> tuple[np.ndarray, np.ndarray]:
    theta = np.r_[0.0, t[:J - 1]]
    lg = _Q @ t[J - 1:]
    return theta, lg - special.logsumexp(lg)


def _loglik_grid(N: np.ndarray, C: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """sum_j log Binomial(c_ij | n_ij, expit(theta_j + u)) on the grid: problems x grid (no constant)."""
    z = theta[None, :, None] + _U[None, None, :]
    return (C[:, :, None] * -np.logaddexp(0, -z) + (N - C)[:, :, None] * -np.logaddexp(0, z)).sum(1)


def irt_fit(N: np.ndarray, C: np.ndarray, ridge: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(theta, log problem density on the grid) by penalised marginal likelihood (N, C: problems x models)."""
    J = N.shape[1]

    def objective(t: np.ndarray) -> float:
        theta, lg = _unpack(t, J)
        return float(-special.logsumexp(_loglik_grid(N, C, theta) + lg, axis=1).sum() + ridge * np.sum(t[J - 1:] ** 2))

    rate = np.log((C.sum(0) + 0.5) / (N.sum(0) - C.sum(0) + 0.5))
    res = optimize.minimize(objective, np.r_[rate[1:] - rate[0], np.zeros(_Q.shape[1])], method="L-BFGS-B")
    return _unpack(res.x, J)


def irt_forecast(N: np.ndarray, C: np.ndarray, K: int, ridge: float = 1.0,
                 fit: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Each model's empirical-Bayes pass@K under the fitted joint model (N, C: problems x models)."""
    theta, lg = irt_fit(N, C, ridge) if fit is None else fit
    L = _loglik_grid(N, C, theta) + lg
    post = np.exp(L - special.logsumexp(L, axis=1, keepdims=True))
    return np.array([1 - (post @ np.exp(-K * np.logaddexp(0, theta[j] + _U))).mean() for j in range(N.shape[1])])


def irt_conditional_loglik(N: np.ndarray, C: np.ndarray, fit: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """log p(model j's counts | the other models' counts) under the fitted joint model, per model (no C(n, c))."""
    theta, lg = fit
    full = _loglik_grid(N, C, theta) + lg
    total = special.logsumexp(full, axis=1).sum()
    out = []
    for j in range(N.shape[1]):
        others = np.delete(np.arange(N.shape[1]), j)
        out.append(total - special.logsumexp(_loglik_grid(N[:, others], C[:, others], theta[others]) + lg, axis=1).sum())
    return np.array(out)


def joint_predict(N: np.ndarray, C: np.ndarray, K: int) -> np.ndarray:
    """models x [least_squares, beta_eb, zi_beta, irt]."""
    irt = irt_forecast(N, C, K)
    return np.array([np.r_[predict_candidates(N[:, j], C[:, j], K), irt[j]] for j in range(N.shape[1])])


def joint_cv(N: np.ndarray, C: np.ndarray, gen: np.random.Generator, R: int = 10, factor: int = 10) -> np.ndarray:
    """The self-backtest with every model thinned at once: R x models x 4 errors in forecasting pass@m."""
    m = int(N.min())
    truth = pass_at_columns(N, C, m)
    return np.array([joint_predict(*thin_columns(N, C, max(m // factor, 1), gen), m) - truth[:, None] for _ in range(R)])


def score(pred: np.ndarray, cv: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """models x [least_squares, beta_eb, zi_beta, irt, auto3, auto4] absolute errors in points."""
    rows = []
    for j in range(pred.shape[0]):
        p, E = pred[j], cv[:, j, :]
        a3 = combine_paired(p[:3], E[np.isfinite(E[:, :3]).all(1), :3], False)
        a4 = combine_paired(p, E[np.isfinite(E).all(1)], False)
        rows.append(np.abs(np.r_[p, a3, a4] - truth[j]) * 100)
    return np.array(rows)


LADDER = [(0.1, 100.0), (0.15, 60.0), (0.2, 30.0), (0.25, 20.0), (0.3, 10.0)]
SETS = {
    "demo models": DEMO_MODELS,
    "hard ladder": tuple(ModelSpec(f"h{i}", a, b) for i, (a, b) in enumerate(LADDER)),
    "hard ladder, 10% impossible": tuple(ModelSpec(f"h{i}", a, b, impossible=0.1) for i, (a, b) in enumerate(LADDER)),
}
COLS = ("least_squares", "beta_eb", "zi_beta", "irt", "auto3 (default)", "auto4 (with irt)")


def simulated_runs(m: int, K: int, sim_seeds: int, gen: np.random.Generator):  # type: ignore[no-untyped-def]
    """The simulated multi-model benchmarks, one at a time: (N, C, truth) for every model set, correlation 0.6 and
    0.9 and ``sim_seeds`` draws, m samples per problem, truth the exact pass@K of the drawn p. Each benchmark's seed
    is drawn from ``gen`` when it is needed, so a caller that uses ``gen`` between benchmarks (the self-backtest)
    sees the same benchmarks as before this was a function (backtest_link_candidate.py uses it too)."""
    for specs in SETS.values():
        for rho in (0.6, 0.9):
            for _ in range(sim_seeds):
                b = simulate(problems=128, n=m, models=specs, correlation=rho, rng=int(gen.integers(2**31)))
                J = len(specs)
                N, C, P = (x.reshape(J, -1).T for x in (b.counts.n, b.counts.c, b.p))
                yield N, C, np.array([exact_pass_at_k(P[:, j], K) for j in range(J)])


def _row(title: str, A: np.ndarray, gen: np.random.Generator) -> None:
    med = np.median(A, 0)
    boot = [np.median(A[i, 5]) - np.median(A[i, 0]) for i in gen.integers(0, len(A), (2000, len(A)))]
    lo, hi = np.percentile(boot, [5, 95])
    print(f"| {title} | {len(A)} | " + " | ".join(f"{v:.2f}" for v in med) + f" | {med[5] - med[0]:+.2f} [{lo:+.2f}, {hi:+.2f}] |",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=12, help="Pythia thinnings per design")
    ap.add_argument("--sim-seeds", type=int, default=2, help="simulated benchmarks per set and correlation")
    ap.add_argument("--rng", type=int, default=0)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(args.rng)
    boot = np.random.default_rng(12345)
    t0 = time.time()
    print("| data, m → K | runs | " + " | ".join(COLS) + " | auto4 − least squares [90% CI] |")
    print("|---" * (len(COLS) + 3) + "|")
    for m, K in ((100, 1000), (1000, 10000)):
        A = []
        for N, C, truth in simulated_runs(m, K, args.sim_seeds, gen):
            A.extend(score(joint_predict(N, C, K), joint_cv(N, C, gen), truth))
        _row(f"simulated, 3 model sets × 2 correlations, m = {m} → {K}", np.array(A), boot)
    _, Nf, Cf = as_matrix(load(DATA))
    for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
        truth = pass_at_columns(Nf, Cf, K)
        A = []
        for _ in range(args.seeds):
            N, C = thin_columns(Nf, Cf, m, gen)
            A.extend(score(joint_predict(N, C, K), joint_cv(N, C, gen), truth))
        _row(f"Pythia, m = {m} → {K}", np.array(A), boot)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
