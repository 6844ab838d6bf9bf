"""Is the m = 100 loss the Beta *law* or the noise of its fitted *parameters*?  (Issue 3, fifth session.)

Same thinnings for every forecaster; each forecasts pass_D@K of the thinned problems by empirical Bayes
(1/N) sum_i 1 - E[(1-p)^K | n_i, c_i] under a Beta prior, differing only in where (alpha, beta) come from:

* ``mle``      - the beta-binomial maximum likelihood on the thinned counts (passcurve's ``beta_eb``);
* ``firth``    - the same likelihood penalised by 1/2 log det I(alpha, beta), I the expected information
                 (Firth 1993; the Jeffreys-prior posterior mode), the textbook cure for small-sample
                 bias of a maximum-likelihood estimate;
* ``curve``    - the (alpha, beta) whose population curve 1 - B(alpha, beta+k)/B(alpha, beta) is closest to the
                 data's unbiased pass_D@k on the paper's own scale and grid: least squares of
                 log(-log pass_D@k) over the default k grid, i.e. the paper's regression with the Beta law in
                 place of the power law;
* ``hier``     - not a plug-in: passcurve's hierarchical-Bayes forecast (``hierarchical_pass_at_k``), which
                 integrates (alpha, beta) over their posterior under the (alpha+beta)^(-5/2) hyperprior;
* ``oracle``   - the parameters fitted to the *full* data (real Pythia: n = 10^4 samples per problem) or
                 the true ones (simulations: p_i drawn from each Pythia model's full-data Beta).

plus the paper's least squares on the thinned curve.  If ``oracle`` is far better than ``mle``, the Beta
family is adequate and the error is the estimation noise of (alpha, beta) at m samples per problem.

``--alpha-scan`` then asks how precisely the tail exponent alone must be known: alpha fixed at the full-data
value times 0.7 ... 1.3, beta re-fitted to the thinned counts given alpha (profile likelihood), same thinnings.

Run:  PYTHONPATH=src python benchmarks/backtest_param_noise.py [--seeds 15] [--sim-reps 20]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from backtest_pythia import DATA, load, thinned
from backtest_simulated import exact_pass_at_k
from scipy import optimize, special

from passcurve import BetaBinomial, hierarchical_pass_at_k
from passcurve._adaptive import beta_binomial_loglik
from passcurve._curves import mean_curve
from passcurve._forecast import _ls_fit, _ls_predict
from passcurve._scaling import default_k_grid

METHODS = ("least_squares", "mle", "firth", "curve", "hier", "oracle")


def expected_information(a: float, b: float, n: np.ndarray) -> np.ndarray:
    """Expected Fisher information of the beta-binomial in (alpha, beta), summed over problems."""
    info = np.zeros((2, 2))
    for nn, count in zip(*np.unique(n, return_counts=True), strict=True):
        c = np.arange(nn + 1, dtype=np.float64)
        logp = (special.gammaln(nn + 1) - special.gammaln(c + 1) - special.gammaln(nn - c + 1)
                + special.betaln(c + a, nn - c + b) - special.betaln(a, b))
        pmf = np.exp(logp)
        common = special.digamma(a + b) - special.digamma(nn + a + b)
        s = np.stack([special.digamma(c + a) - special.digamma(a) + common,
                      special.digamma(nn - c + b) - special.digamma(b) + common])
        info += count * (s * pmf) @ s.T
    return info


def firth_fit(n: np.ndarray, c: np.ndarray, start: np.ndarray) -> np.ndarray:
    """log(alpha, beta) maximising loglik + 1/2 log det I (Nelder-Mead from the MLE)."""
    def objective(theta: np.ndarray) -> float:
        a, b = np.exp(theta)
        sign, logdet = np.linalg.slogdet(expected_information(a, b, n))
        if sign <= 0:
            return np.inf
        return -float(np.sum(beta_binomial_loglik(n, c, a, b)) + 0.5 * logdet)

    res = optimize.minimize(objective, start, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-9})
    return np.asarray(res.x)


def curve_fit(n: np.ndarray, c: np.ndarray, start: np.ndarray) -> np.ndarray:
    """log(alpha, beta) minimising the squared distance of log(-log pass_D@k), model vs data, on the default grid."""
    ks = default_k_grid(int(n.min())).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(-np.log(mean_curve(n, c, ks)[0]))
    ok = np.isfinite(y)
    ks, y = ks[ok], y[ok]

    def objective(theta: np.ndarray) -> float:
        a, b = np.exp(theta)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.log(-np.log(-np.expm1(special.betaln(a, b + ks) - special.betaln(a, b)))) - y
        return float(r @ r) if np.isfinite(r).all() else np.inf

    res = optimize.minimize(objective, start, method="Nelder-Mead", options={"xatol": 1e-7, "fatol": 1e-12})
    return np.asarray(res.x)


def forecasts(n: np.ndarray, c: np.ndarray, K: int, oracle_theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each method's forecast of pass_D@K (order of METHODS; NaN where least squares is undefined), and the MLE."""
    a, b = _ls_fit(n, c)
    out = [float(_ls_predict(a, b, np.array([float(K)]))[0])]
    fit = BetaBinomial().fit(n=n, c=c)
    mle = fit._theta.copy()
    for theta in (mle, firth_fit(n, c, mle), curve_fit(n, c, mle), None, oracle_theta):
        if theta is None:
            out.append(float(hierarchical_pass_at_k(n, c, K)["posterior"]))
            continue
        fit._theta = theta
        out.append(float(np.mean(fit.posterior_pass_at_k(n, c, K))))
    return np.array(out), mle


def beta_given_alpha(n: np.ndarray, c: np.ndarray, a: float) -> float:
    """The beta-binomial MLE of beta with alpha held fixed (profile likelihood)."""
    def nll(log_b: float) -> float:
        return -float(np.sum(beta_binomial_loglik(n, c, a, np.exp(log_b))))

    return float(np.exp(optimize.minimize_scalar(nll, bounds=(-5.0, 15.0), method="bounded").x))


def alpha_scan(counts, full: dict[str, np.ndarray], m: int, K: int, seeds: int, gen: np.random.Generator) -> None:  # type: ignore[no-untyped-def]
    factors = (0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3)
    rows = []
    for name, nt, ct, truth in thinned(counts, m, K, seeds, gen):
        fit = BetaBinomial().fit(n=nt, c=ct)
        row = []
        for f in factors:
            a = float(np.exp(full[name][0])) * f
            fit._theta = np.log([a, beta_given_alpha(nt, ct, a)])
            row.append(float(np.mean(fit.posterior_pass_at_k(nt, ct, K))) - truth)
        rows.append(row)
    E = 100 * np.array(rows)
    print(f"\nPythia m = {m} -> K = {K}, alpha = full-data alpha x factor, beta profiled on the thinned counts "
          f"({len(E)} runs): median |error| (mean error)")
    print("  " + "  ".join(f"x{f}: {np.median(np.abs(E[:, j])):.2f} ({np.mean(E[:, j]):+.1f})"
                           for j, f in enumerate(factors)))


def summary(title: str, errs: dict[str, list[np.ndarray]]) -> None:
    allv = np.concatenate([np.array(v) for v in errs.values()])
    print(f"\n{title}: median |error| (mean error), points of pass@K")
    print(f"  {'model':<18}" + "".join(f"{m:>16}" for m in METHODS))
    for name, v in list(errs.items()) + [("all", allv)]:
        E = 100 * np.array(v)
        cells = "".join(f"{np.nanmedian(np.abs(E[:, j])):>8.2f} ({np.nanmean(E[:, j]):+5.1f})" for j in range(len(METHODS)))
        print(f"  {name + f' [{len(E)}]':<18}{cells}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=15, help="thinnings per Pythia model")
    ap.add_argument("--sim-reps", type=int, default=20, help="simulated benchmarks per Pythia-fitted Beta")
    ap.add_argument("--designs", default="100:1000,1000:10000", help="m:K pairs")
    ap.add_argument("--rng", type=int, default=0)
    ap.add_argument("--alpha-scan", action="store_true", help="also: how precisely must alpha alone be known?")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(args.rng)
    counts = load(DATA)
    full = {name: BetaBinomial().fit(n=sub.n, c=sub.c)._theta.copy() for name, sub in counts.groups()}
    t0 = time.time()
    for design in args.designs.split(","):
        m, K = (int(x) for x in design.split(":"))
        real: dict[str, list[np.ndarray]] = {}
        mles: dict[str, list[np.ndarray]] = {}
        for name, nt, ct, truth in thinned(counts, m, K, args.seeds, gen):
            f, mle = forecasts(nt, ct, K, full[name])
            real.setdefault(name, []).append(f - truth)
            mles.setdefault(name, []).append(mle)
        summary(f"Pythia thinned to m = {m} -> K = {K} (oracle = full-data Beta)", real)
        print("  the MLE's spread over the thinnings: log alpha (full data, mean, SD), corr(log alpha, log beta)")
        for name, th in mles.items():
            T = np.array(th)
            print(f"    {name:<14} {full[name][0]:+.2f}  {T[:, 0].mean():+.2f}  {T[:, 0].std(ddof=1):.2f}"
                  f"  {np.corrcoef(T.T)[0, 1]:+.2f}")
        sim: dict[str, list[np.ndarray]] = {}
        for name, theta in full.items():
            a, b = np.exp(theta)
            for _ in range(args.sim_reps):
                p = gen.beta(a, b, 128)
                n = np.full(128, m)
                c = gen.binomial(n, p)
                sim.setdefault(name, []).append(forecasts(n, c, K, theta)[0] - exact_pass_at_k(p, K))
        summary(f"128 problems from each Pythia model's Beta, m = {m} -> K = {K} (oracle = true Beta)", sim)
    if args.alpha_scan:
        for design in args.designs.split(","):
            m, K = (int(x) for x in design.split(":"))
            alpha_scan(counts, full, m, K, args.seeds, gen)
    print(f"\n{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
