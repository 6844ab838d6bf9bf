"""Candidate 20 for the m = 100 regime, and why it cannot be scored: the paper's power law is not a difficulty law.

The idea (tenth session). Least squares wins at Pythia m = 100 by its rigid two-parameter shape
pass_D@k = exp(-a k^-b); the Beta by using every problem's counts. Keep the shape, replace the regression by the
likelihood of the counts: if a difficulty law G on [0, 1] had E_G[(1-p)^k] = F(k) = 1 - exp(-a k^-b) for every
k >= 0 (F(0) = 1), its count law and posterior moments would be finite differences of F,

    P(c | n) = C(n, c) D_c(n - c),   D_c(j) = sum_i (-1)^i C(c, i) F(j + i) = E_G[p^c (1-p)^j],
    E[(1-p)^K | n, c] = D_c(n - c + K) / D_c(n - c),

and the fit and the empirical-Bayes forecast would be exact (the alternating sums need high precision: Python's
``decimal``, at a precision raised until 25 digits survive the cancellation).

The check. Such a G exists iff every D_c(j) >= 0 (Hausdorff's moment problem). Already the second differences fail:
pass@(k+1) - pass@k = E[p (1-p)^k] must decrease in k (pass@k is concave for every benchmark), but
exp(-a k^-b) is convex for k < (a b / (b + 1))^(1/b), which is above 1 whenever a b > b + 1. For each Pythia model's
full-data least-squares (a, b) this script prints that threshold and the implied "count law" P(c | n) at n = 10
and 100: about half of the c get negative probability. So there is no likelihood to maximise; restricted to the
parameters where the observed counts happen to get positive probability, a prototype fit was pushed to steeper
b (0.33-0.49 against least squares' 0.20-0.40) and over-forecast Pythia m = 100 -> 10^3 by +5.8 points on average
(7 runs; least squares 2.51, median absolute error 4.64). The law describes the curve's hard tail, not the counts.

Run:  PYTHONPATH=src python benchmarks/check_powerlaw_law.py   (a few seconds)
"""

from __future__ import annotations

import math
from decimal import Decimal, getcontext, localcontext

import numpy as np
from backtest_pythia import DATA, load

from passcurve import fit_power_law


def _digits(nmax: int) -> int:
    """Starting precision: the binomial coefficients (~0.3 n digits) and the smallest D (~0.3 n digits more);
    ``_Law.D`` raises it when the cancellation is worse."""
    return 40 + int(0.62 * nmax)


class _Law:
    """F(k) and its finite differences at one (a, b), cached per k."""

    def __init__(self, a: float, b: float) -> None:
        self.a, self.b = Decimal(a), Decimal(b)
        self.cache: dict[int, Decimal] = {0: Decimal(1)}

    def F(self, k: int) -> Decimal:
        f = self.cache.get(k)
        if f is None:
            f = self.cache[k] = 1 - (-self.a * (-self.b * Decimal(k).ln()).exp()).exp()
        return f

    def D(self, c: int, j0: int) -> Decimal:
        """sum_i (-1)^i C(c, i) F(j0 + i), recomputed at higher precision until at least 25 digits survive the
        cancellation (the largest term over the result), so a tiny E[p^c (1-p)^j] is never lost to rounding."""
        while True:
            s, big = Decimal(0), Decimal(0)
            for i in range(c + 1):
                term = math.comb(c, i) * self.F(j0 + i)
                big = max(big, term)
                s = s - term if i % 2 else s + term
            ctx = getcontext()
            lost = (big.log10() - abs(s).log10()) if s != 0 else Decimal(ctx.prec)
            if ctx.prec - lost >= 25:
                return s
            ctx.prec = int(lost) + 60
            self.cache = {0: Decimal(1)}  # F again at the new precision


def count_law(a: float, b: float, n: int) -> np.ndarray:
    """P(c | n), c = 0..n, of the law (exact up to rounding to float)."""
    with localcontext() as ctx:
        ctx.prec = _digits(n)
        law = _Law(a, b)
        return np.array([float(math.comb(n, c) * law.D(c, n - c)) for c in range(n + 1)])


def main() -> None:
    p = count_law(2.0, 0.3, 50)
    print(f"arithmetic check, a = 2, b = 0.3, n = 50 (a law exists there): sum P(c) = {p.sum():.15f}, "
          f"E[c/n] = {(np.arange(51) * p).sum() / 50:.15f} vs exp(-a) = {math.exp(-2.0):.15f}, "
          f"1 - P(0) = {1 - p[0]:.15f} vs exp(-a n^-b) = {math.exp(-2.0 * 50 ** -0.3):.15f}, min P(c) = {p.min():.3g}")
    if not DATA.exists():
        print(f"{DATA} not found: nothing more to check")
        return
    for name, sub in load(DATA).groups():
        pl = fit_power_law(sub)
        a, b = float(pl.a[0]), float(pl.b[0])
        cells = []
        for n in (10, 100):
            q = count_law(a, b, n)
            neg = np.flatnonzero(q < 0)
            cells.append(f"n = {n}: P(c | n) < 0 for {neg.size} of {n + 1} c (from c = {neg[0] if neg.size else '-'}), "
                         f"negative mass {-q[q < 0].sum():.1e}")
        print(f"{name:12s} a = {a:.3f}, b = {b:.3f}: convex below k = {(a * b / (b + 1)) ** (1 / b):.2f};  "
              + ";  ".join(cells))


if __name__ == "__main__":
    main()
