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
* ``copula`` / ``copula_joint`` (with ``--copula``; slow, about 15 s per joint fit) — each model's difficulty
  is Beta(alpha_j, beta_j) at the quantile Phi(rho s_i + sqrt(1 - rho^2) e_ij) of a shared problem factor
  s_i ~ N(0, 1) (a Gaussian copula, the dependence ``passcurve.simulate`` uses), integrated on grids in s and z.
  ``copula``: marginals fitted per model (the library's Beta MLE), then rho by maximum likelihood;
  ``copula_joint``: then two sweeps of coordinate ascent on every model's (alpha_j, beta_j) under the joint
  likelihood, and rho again. Forecast: mean_i 1 - E[(1 - p_ij)^K | all models' counts on problem i].

Run:  PYTHONPATH=src python benchmarks/backtest_joint_models.py [--seeds 5] [--copula]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_combination import predict_candidates
from backtest_pythia import DATA, as_matrix, load, pass_at_columns, thin_columns
from scipy import optimize, special, stats

from passcurve import BetaBinomial, Counts
from passcurve._forecast import _Candidate


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


# ---------------------------------------------------------------------------------------- Gaussian copula
_S = np.linspace(-6.0, 6.0, 41)  # shared factor
_WS = stats.norm.logpdf(_S) - special.logsumexp(stats.norm.logpdf(_S))
_Z = np.linspace(-8.5, 8.5, 201)  # one model's normal score


def _log_quantile(a: float, b: float) -> tuple[np.ndarray, np.ndarray]:
    """log Q and log(1 - Q) of the Beta(a, b) quantile at Phi(z) on the z grid (small-u asymptote on underflow)."""
    with np.errstate(all="ignore"):
        lp = np.log(special.betaincinv(a, b, special.ndtr(_Z)))
        bad = ~np.isfinite(lp)
        lp[bad] = (special.log_ndtr(_Z[bad]) + np.log(a) + special.betaln(a, b)) / a
        return lp, np.log1p(-np.exp(lp))


def _kernel(rho: float) -> np.ndarray:
    lg = stats.norm.logpdf(_Z[None, :], rho * _S[:, None], np.sqrt(1 - rho**2))
    return lg - special.logsumexp(lg, axis=1, keepdims=True)  # s x z


def _log_g(N: np.ndarray, C: np.ndarray, j: int, ab: tuple[float, float], lG: np.ndarray) -> np.ndarray:
    """log P(c_ij | n_ij, s) on the s grid: problems x s."""
    lp, l1p = _log_quantile(*ab)
    lh = C[:, j:j + 1] * lp + (N[:, j:j + 1] - C[:, j:j + 1]) * l1p
    return special.logsumexp(lG[None] + lh[:, None, :], axis=2)


def _copula_nll(N: np.ndarray, C: np.ndarray, marg: list[tuple[float, float]], rho: float) -> float:
    lG = _kernel(rho)
    tot = sum(_log_g(N, C, j, marg[j], lG) for j in range(N.shape[1]))
    return float(-special.logsumexp(_WS + tot, axis=1).sum())


def _fit_rho(N: np.ndarray, C: np.ndarray, marg: list[tuple[float, float]]) -> float:
    r = optimize.minimize_scalar(lambda t: _copula_nll(N, C, marg, float(np.tanh(t))), bounds=(0.0, 3.5),
                                 method="bounded", options={"xatol": 1e-3})
    return float(np.tanh(r.x))


def copula_fit(N: np.ndarray, C: np.ndarray, joint: bool) -> tuple[list[tuple[float, float]], float]:
    marg = []
    for j in range(N.shape[1]):
        f = BetaBinomial().fit(Counts.from_arrays(N[:, j], C[:, j]))
        marg.append((float(f.params_["alpha"]), float(f.params_["beta"])))
    rho = _fit_rho(N, C, marg)
    for _ in range(2 if joint else 0):
        lG = _kernel(rho)
        lgs = [_log_g(N, C, j, marg[j], lG) for j in range(N.shape[1])]
        for j in range(N.shape[1]):
            rest = _WS + sum(lgs[k] for k in range(N.shape[1]) if k != j)

            def nll(t: np.ndarray, j: int = j, rest: np.ndarray = rest, lG: np.ndarray = lG) -> float:
                a, b = np.exp(t)
                if not (1e-3 < a < 50 and 1e-2 < b < 1e5):
                    return np.inf
                return float(-special.logsumexp(rest + _log_g(N, C, j, (a, b), lG), axis=1).sum())

            r = optimize.minimize(nll, np.log(marg[j]), method="Nelder-Mead",
                                  options={"xatol": 1e-3, "fatol": 1e-4, "maxiter": 200})
            marg[j] = (float(np.exp(r.x[0])), float(np.exp(r.x[1])))
            lgs[j] = _log_g(N, C, j, marg[j], lG)
        rho = _fit_rho(N, C, marg)
    return marg, rho


def copula_forecast(N: np.ndarray, C: np.ndarray, K: int, joint: bool) -> np.ndarray:
    marg, rho = copula_fit(N, C, joint)
    lG = _kernel(rho)
    lgs = [_log_g(N, C, j, marg[j], lG) for j in range(N.shape[1])]
    lpost = _WS + sum(lgs)
    lpost -= special.logsumexp(lpost, axis=1, keepdims=True)
    out = []
    for j in range(N.shape[1]):
        lp, l1p = _log_quantile(*marg[j])
        lh = C[:, j:j + 1] * lp + (N[:, j:j + 1] - C[:, j:j + 1]) * l1p
        num = special.logsumexp(lG[None] + (lh + K * l1p)[:, None, :], axis=2)  # E[(1-p)^K | s, c_ij] * g
        out.append(1 - np.exp(special.logsumexp(lpost + num - lgs[j], axis=1)).mean())
    return np.array(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--copula", action="store_true", help="also the Gaussian-copula candidates (slow)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    t0 = time.time()
    names, Nf, Cf = as_matrix(load(DATA), key=lambda sub: int(sub.c.sum()))
    Pf = Cf / Nf
    gen = np.random.default_rng(0)

    print("signal at m = 100 (mean over seeds): unsolved problems, share with full-data c/n >= 1e-3")
    print("| model | unsolved at m = 100 | solved by a stronger model | ... share >= 1e-3 | the rest: share >= 1e-3 |")
    print("|---|---|---|---|---|")
    for j, tgt in enumerate(names[:-1]):
        rows = []
        for _ in range(args.seeds):
            Ct = thin_columns(Nf, Cf, 100, gen)[1]
            z = Ct[:, j] == 0
            grow = Pf[:, j] >= 1e-3
            other = Ct[:, j + 1:].sum(1) > 0
            rows.append((z.sum(), (z & other).sum(), (z & other & grow).sum(), (z & ~other).sum(), (z & ~other & grow).sum()))
        r = np.mean(rows, 0)
        print(f"| {tgt} | {r[0]:.1f} | {r[1]:.1f} | {r[2] / max(r[1], 1e-9):.2f} | {r[4] / max(r[3], 1e-9):.2f} |")

    print("\nfull data, problems solved by both: log10 p of the weaker model on log10 p of the stronger (OLS)")
    print("| weaker | stronger | problems | slope | r | residual SD (decades) |")
    print("|---|---|---|---|---|---|")
    for j in range(len(names) - 1):
        pa, pb = Pf[:, j], Pf[:, j + 1]
        ok = (pa > 0) & (pb > 0)
        x, y = np.log10(pb[ok]), np.log10(pa[ok])
        slope, icpt = np.polyfit(x, y, 1)
        print(f"| {names[j]} | {names[j + 1]} | {ok.sum()} | {slope:.2f} | {np.corrcoef(x, y)[0, 1]:.2f} | "
              f"{np.std(y - icpt - slope * x):.2f} |")

    cols = ("least_squares", "beta_eb", "zi_beta", "joint_reg", "joint_strat") + (("copula", "copula_joint") if args.copula else ())
    print("\nmedian absolute error, points (mean error in brackets)")
    print("| m → K | runs | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 2) + "|")
    for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
        truth = pass_at_columns(Nf, Cf, K)
        E = []
        for _ in range(args.seeds):
            Nt, Ct = thin_columns(Nf, Cf, m, gen)
            if args.copula:
                cop = [copula_forecast(Nt, Ct, K, joint) for joint in (False, True)]
            for i in range(len(names)):
                C = Ct.sum(1) - Ct[:, i]  # the other models' successes and samples on each problem
                N = Nt.sum(1) - Nt[:, i]
                nt, ct = Nt[:, i], Ct[:, i]
                x = np.log((C + 0.5) / (N - C + 0.5))
                row = [*predict_candidates(nt, ct, K), joint_reg(nt, ct, x, K), joint_strat(nt, ct, C > 0, K)]
                if args.copula:
                    row += [cop[0][i], cop[1][i]]
                E.append(np.array(row) - truth[i])
        A = np.array(E) * 100
        cells = " | ".join(f"{np.nanmedian(np.abs(A[:, i])):.2f} ({np.nanmean(A[:, i]):+.2f})" for i in range(len(cols)))
        print(f"| {m} → {K} | {len(A)} | {cells} |", flush=True)
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
