"""Speed of the beta-binomial ML fit: 10^5 problems with n = 10^4 (goal: under 0.5 s).

Baseline in the same process: the same optimiser on the per-row likelihood
(scipy.stats.betabinom.logpmf over all 10^5 rows, numerical gradients), i.e. without the
reduction to distinct (n, c) pairs and the analytic digamma gradient.

Also the scaled Beta (Schaeffer et al.'s law; a 3-parameter likelihood evaluated by a series) with its
analytic gradient against the same class with finite-difference gradients, in the same process; its goodness
of fit on 300 problems with distinct n (whole pmf rows by the backward recurrence against the series value by
value, same process); its goodness of fit and the Beta's at n = 10^6 ... 2^53 - 1 (bins as integrals over p
against the trapezoid on pmf values, same process, where that finishes); and the
nonparametric MLE (GridMixture, Wang's constrained Newton method) on the same data,
against plain EM on the same grid and likelihood matrix in the same process: time, and how far
each is from the maximum (the duality-gap bound N (max_j D_j - 1)).

Run:  PYTHONPATH=src python benchmarks/bench_fit.py
"""

from __future__ import annotations

import time

import numpy as np
from scipy import optimize, special, stats

from passcurve import BetaBinomial, GridMixture, ScaledBetaBinomial, ZeroInflatedBetaBinomial
from passcurve._difficulty import DifficultyModel, _pairs


class _FiniteDifferenceScaledBeta(ScaledBetaBinomial):
    """The baseline: the same model and optimiser with BFGS's finite-difference gradients."""

    _negloglik_grad = None


def _em(L: np.ndarray, pw: np.ndarray, iters: int) -> np.ndarray:
    """Plain EM for the grid mixture weights (the fixed point w <- w * mean_i L_ij / f_i)."""
    w = np.full(L.shape[1], 1.0 / L.shape[1])
    for _ in range(iters):
        w = w * ((pw / (L @ w)) @ L) / pw.sum()
    return w


def _gap(L: np.ndarray, pw: np.ndarray, w: np.ndarray) -> float:
    return float(pw.sum() * (((pw / (L @ w)) @ L / pw.sum()).max() - 1.0))


def scaled_beta() -> None:
    gen = np.random.default_rng(2)
    rows = []
    for s_true, a, b in ((1.0, 0.3, 12.0), (0.1, 0.2, 4.0), (1.0, 0.07, 100.0)):
        n = np.full(128, 10_000)
        c = gen.binomial(n, s_true * gen.beta(a, b, 128))
        t = time.perf_counter()
        f = ScaledBetaBinomial().fit(n=n, c=c)
        t_an = time.perf_counter() - t
        t = time.perf_counter()
        g = _FiniteDifferenceScaledBeta().fit(n=n, c=c)
        t_fd = time.perf_counter() - t
        rows.append((s_true, a, b, t_an, t_fd, f.loglik_ - g.loglik_))
    print("\nscaled Beta fit, 128 problems, n=10^4 (a Pythia-sized benchmark)")
    for s_true, a, b, t_an, t_fd, dll in rows:
        print(f"  truth s={s_true}, Beta({a}, {b}): analytic gradient {t_an:.2f} s, finite differences {t_fd:.2f} s "
              f"({t_fd / t_an:.1f}x); log-likelihood difference {dll:+.2g}")


class _SeriesRowsScaledBeta(ScaledBetaBinomial):
    """The baseline: every pmf value of a row from the Pfaff series (the base class's value-by-value rows)."""

    def _pmf_rows(self, ns: list[int]) -> list[np.ndarray]:
        return DifficultyModel._pmf_rows(self, ns)


def scaled_beta_gof() -> None:
    """Goodness of fit of the scaled Beta on problems with many distinct n (the expected counts need
    P(c | n) for every c of every distinct n): backward recurrence rows against the series, same process."""
    gen = np.random.default_rng(5)
    n = gen.integers(1, 10_001, 300)
    c = gen.binomial(n, 0.8 * gen.beta(0.3, 5.0, n.size))
    theta = np.array([special.logit(0.8), np.log(0.3), np.log(5.0)])
    times, expected = [], []
    for cls in (ScaledBetaBinomial, _SeriesRowsScaledBeta):
        m = cls()
        m._theta = theta
        m.params_ = m._unpack(theta)
        m.pairs_ = _pairs(n, c, None)
        m.n_params_ = 3
        t = time.perf_counter()
        expected.append(np.array(m.goodness_of_fit()["expected"]))
        times.append(time.perf_counter() - t)
    diff = float(np.max(np.abs(expected[0] - expected[1]) / np.maximum(expected[1], 1e-300)))
    print(f"\nscaled Beta goodness of fit, 300 problems with {np.unique(n).size} distinct n up to 10^4")
    print(f"  recurrence rows {times[0]:.2f} s, series value by value {times[1]:.2f} s "
          f"({times[1] / times[0]:.0f}x); expected counts agree to {diff:.1e} (relative)")


class _TrapezoidBins:
    """The baseline: pmf_bins above 2^14 by the trapezoid on ~16·sqrt(2n) pmf values (before the integrals over p)."""

    def _law_parts(self) -> None:
        return None


def large_n_gof() -> None:
    """Goodness of fit at very large n (10 problems, p = 0.3·Beta(0.3, 3)): the Beta laws' bins as integrals over p
    (_BetaBins) against the trapezoid on ~16·sqrt(2n) pmf values, same process, where the trapezoid finishes
    (the scaled Beta's pmf values are O(sqrt(n))-term series: 20 s at 10^7); the integrals alone beyond."""
    gen = np.random.default_rng(0)
    p = 0.3 * gen.beta(0.3, 3.0, 10)
    theta = np.array([special.logit(0.3), np.log(0.3), np.log(3.0)])
    print("\ngoodness of fit at large n, 10 problems (integrals over p vs the trapezoid on pmf values)")
    for n, laws in ((10**6, "both"), (10**7, "both"), (10**9, "new"), (10**12, "new"), (2**53 - 1, "new")):
        nn = np.full(10, n)
        c = gen.binomial(nn, p) if n < 2**40 else np.round(p * n).astype(np.int64)
        row = []
        for base, label in ((BetaBinomial, "beta"), (ScaledBetaBinomial, "scaled_beta")):
            got = []
            for cls in ((base, type("T", (_TrapezoidBins, base), {})) if laws == "both" else (base,)):
                m = cls()
                if base is ScaledBetaBinomial:
                    m._theta = theta
                else:
                    m._theta = theta[1:]
                m.params_ = m._unpack(m._theta)
                m.pairs_ = _pairs(nn, c, None)
                m.n_params_ = m._theta.size
                t = time.perf_counter()
                e = np.array(m.goodness_of_fit()["expected"])
                got.append((time.perf_counter() - t, e))
            text = f"{label} {got[0][0]:.2f} s"
            if len(got) == 2:
                ok = got[1][1] > 1e-9
                diff = float(np.max(np.abs(got[0][1][ok] / got[1][1][ok] - 1)))
                text += f" (trapezoid {got[1][0]:.2f} s, {got[1][0] / got[0][0]:.2g}x; expected counts {diff:.1e} apart)"
            row.append(text)
        print(f"  n = {n:.3g}: " + "; ".join(row))


def npmle() -> None:
    gen = np.random.default_rng(1)
    N, n = 100_000, 10_000
    c = gen.binomial(n, np.where(gen.random(N) < 0.05, 0.0, gen.beta(0.3, 8.0, N)))
    nn = np.full(N, n)
    reps = 3
    t = time.perf_counter()
    for _ in range(reps):
        g = GridMixture().fit(n=nn, c=c)
    t_cnm = (time.perf_counter() - t) / reps
    pn, pc, pw = g.pairs_
    logL = stats.binom.logpmf(pc[:, None], pn[:, None], g.grid_[None, :])
    L = np.exp(logL - logL.max(axis=1, keepdims=True))
    print(f"\nnonparametric MLE on a {g.grid_.size}-point grid, {N} problems, n={n} ({pn.size} distinct pairs)")
    print(f"  passcurve GridMixture.fit (constrained Newton):   {t_cnm:.3f} s  {g.message_}; "
          f"support {int(g.params_['support_points'])} points")
    for iters in (3000, 30000):
        t = time.perf_counter()
        w = _em(L, pw, iters)
        t_em = time.perf_counter() - t
        print(f"  EM, {iters} iterations, same matrix:              {t_em:.3f} s  within {_gap(L, pw, w):.2g} "
              f"of the maximum; support {(w > 1e-6).sum()} points ({t_em / t_cnm:.0f}x the time)")


def main() -> None:
    gen = np.random.default_rng(0)
    N, n = 100_000, 10_000
    p = gen.beta(0.3, 8.0, N)
    c = gen.binomial(n, p)
    nn = np.full(N, n)
    BetaBinomial().fit(n=nn[:1000], c=c[:1000])  # warm up imports

    reps = 5
    t = time.perf_counter()
    for _ in range(reps):
        f = BetaBinomial().fit(n=nn, c=c)
    t_fit = (time.perf_counter() - t) / reps
    distinct = f.pairs_[0].size

    t = time.perf_counter()
    z = ZeroInflatedBetaBinomial().fit(n=nn, c=c)
    t_zi = time.perf_counter() - t

    def nll(th: np.ndarray) -> float:
        a, b = np.exp(th)
        return -float(stats.betabinom.logpmf(c, nn, a, b).sum())

    t = time.perf_counter()
    res = optimize.minimize(nll, np.log([0.5, 5.0]), method="BFGS")
    t_base = time.perf_counter() - t

    print(f"beta-binomial fit, {N} problems, n={n} ({distinct} distinct (n, c) pairs)")
    print(f"  passcurve BetaBinomial.fit (incl. Hessian s.e.):  {t_fit:.3f} s  "
          f"alpha={f.params_['alpha']:.4f}±{f.se_['alpha']:.4f} beta={f.params_['beta']:.3f}±{f.se_['beta']:.3f}")
    print(f"  per-row baseline (betabinom.logpmf + BFGS):        {t_base:.3f} s  alpha={np.exp(res.x[0]):.4f}")
    print(f"  speed-up: {t_base / t_fit:.1f}x")
    print(f"  zero-inflated Beta fit (3 parameters):            {t_zi:.3f} s  impossible={z.impossible_mass_:.4f}")
    scaled_beta()
    scaled_beta_gof()
    large_n_gof()
    npmle()


if __name__ == "__main__":
    main()
