"""Accuracy and cost of the Beta laws' moments: the exact form against the difference of two ``betaln`` values.

``_beta_log_moment(c, d, a, b)`` (exact) writes log E[p^c (1-p)^d] = log B(a+c, b+d) - log B(a, b) as two second
differences of log Gamma without cancellation; ``exact=False`` (log-likelihoods and pmfs) is the difference of two
``betaln`` values where a + b <= 1000, which is also what the code computed before the fifteenth session for every
use, and the baseline here (same process).

Accuracy: the relative error of pass@K = 1 - M(0, K) and of log M(c, d) against the finite product
prod_{j<c} (a+j)/(a+b+j) prod_{j<d} (b+j)/(a+b+c+j), each factor's log taken without cancellation and summed with
``math.fsum``, over random parameters (a in [1e-3, 1e3], b in [1e-2, 1e3], log-uniform, a + b <= 1000). Cost: time per call on the
array sizes the library uses (a fit's few distinct pairs, evaluated hundreds of times; a pmf row; a large
posterior array).

Posterior rows (sixteenth session): the relative error of a Beta posterior's failure moment m1 = E[(1-p)^k | n, c],
of pass@k = 1 - m1 and of its variance m2 - m1^2, over random (a, b, n, c, k) with n up to 10^7 and k up to 10^6,
against the exact products (the variance's through the third difference
Delta = log m2 - 2 log m1 = sum_{j<k} log(1 + Ak/((A+B+k+j)(B+j))), A = a + c, B = b + n - c); "before" is what
``posterior_fail_moments`` computed until then, exp of differences of exact log moments. Cost: the variance on the
hierarchical posterior's grid (3,721 (a, b) points x 83 problems) against the two betaln differences it used.

Scaled-Beta rows (sixteenth session, later): ``ScaledBetaBinomial``'s posterior pass@k, posterior variance and
population pass@K against 60-digit ``decimal`` sums of the whole Pfaff series (M(c, d + k)/M(c, d)), over random
(a in [0.05, 5], b in [0.3, 50], s in [0.05, 0.999], n and k up to 2,000); "before" is the base class's route, differences
of the series' log moments (``DifficultyModel`` methods called on the same model). Cost: 128 problems at n = 10^4 with
Pythia-12B's fit (s = 1 - 1.6e-8), 24 K from 1 to 10^9.

Run:  PYTHONPATH=src python benchmarks/bench_moments.py
"""

from __future__ import annotations

import math
import time
from decimal import Decimal, getcontext

import numpy as np

from passcurve._difficulty import _beta_fail_var, _beta_log_moment


def exact_log_moment(c: int, d: int, a: float, b: float) -> float:
    def logs(num: np.ndarray, gap: float, den: np.ndarray) -> np.ndarray:  # log(num/den), den = num + gap
        r = num / den
        return np.where(r >= 0.5, np.log1p(-gap / den), np.log(r))

    j = np.arange(c, dtype=np.float64)
    first = logs(a + j, b, a + b + j)
    j = np.arange(d, dtype=np.float64)
    return math.fsum(first) + math.fsum(logs(b + j, a + c, a + b + c + j))


def betaln_form(c: np.ndarray, d: np.ndarray, a: float, b: float) -> np.ndarray:
    from scipy import special

    return special.betaln(a + c, b + d) - special.betaln(a, b)


def accuracy(rng: np.random.Generator, draws: int) -> None:
    print("relative error against the exact product (max / median over the draws); the betaln difference only where")
    print("a + b <= 1000 (where the code used it before; above, it used Stirling-series differences)")
    print(f"{'quantity':38s} {'draws':>6s} {'exact form':>22s} {'betaln difference':>22s}")
    for label, kind in (("pass@K, K = 10^0..10^7", "pass"), ("log M(c, n-c), n = 1..10^4", "row")):
        errs: dict[str, list[float]] = {"exact": [], "betaln": []}
        kept = 0
        while kept < draws:
            a, b = 10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-2, 3)
            if a + b > 1000:
                continue
            kept += 1
            if kind == "pass":
                c, d = 0, int(10 ** rng.uniform(0, 7))
            else:
                n = int(10 ** rng.uniform(0, 4))
                c = int(rng.integers(0, n + 1))
                d = n - c
            ref = exact_log_moment(c, d, a, b)
            for name, got in (("exact", float(_beta_log_moment(c, d, a, b))),
                              ("betaln", float(betaln_form(np.float64(c), np.float64(d), a, b)))):
                if kind == "pass":
                    errs[name].append(abs(math.expm1(got) - math.expm1(ref)) / abs(math.expm1(ref)))
                else:
                    errs[name].append(abs(got - ref) / max(abs(ref), 1e-300))
        cells = [f"{max(e):.1e} / {float(np.median(e)):.1e}" for e in (errs["exact"], errs["betaln"])]
        print(f"{label:38s} {draws:6d} {cells[0]:>22s} {cells[1]:>22s}")


def timed(fn, reps: int) -> float:  # type: ignore[no-untyped-def]
    best = np.inf
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return float(best)


def cost() -> None:
    print("\ntime per call, a = 0.3, b = 12 (best of 3)")
    print(f"{'arrays':44s} {'exact':>10s} {'betaln':>10s} {'ratio':>6s}")
    cases = [
        ("21 pairs (n = 20, c = 0..20)", np.arange(21.0), 20 - np.arange(21.0), 2000),
        ("10,001 pairs (n = 10^4, c = 0..10^4)", np.arange(10001.0), 10000 - np.arange(10001.0), 50),
        ("10^6 values (c = 0, d = 1..10^6, pass@K)", np.zeros(10**6), np.arange(1, 10**6 + 1.0), 3),
    ]
    for label, c, d, reps in cases:
        te = timed(lambda c=c, d=d: _beta_log_moment(c, d, 0.3, 12.0), reps)
        tb = timed(lambda c=c, d=d: betaln_form(c, d, 0.3, 12.0), reps)
        print(f"{label:44s} {te * 1e3:8.3f}ms {tb * 1e3:8.3f}ms {te / tb:5.1f}x")


def posterior_accuracy(rng: np.random.Generator, draws: int) -> None:
    print("\nposterior (a in [0.01, 10], b in [0.1, 100], n up to 10^7, c 0..5 or uniform, k up to 10^6): max relative")
    print("error; rows marked * only where |log m1| < 30 (beyond, exp's conditioning |log m1| 2^-52 is the floor)")
    rows: dict[str, dict[str, list[float]]] = {q: {"now": [], "before": []} for q in ("m1*", "pass@k", "variance*")}
    for _ in range(draws):
        a, b = 10 ** rng.uniform(-2, 1), 10 ** rng.uniform(-1, 2)
        n = int(10 ** rng.uniform(0, 7))
        c = min(int(rng.integers(0, 6)), n) if rng.random() < 0.5 else int(rng.integers(0, n + 1))
        k = int(10 ** rng.uniform(0, 6))
        A, B = a + c, b + n - c
        log_m1 = exact_log_moment(0, k, A, B)
        j = np.arange(k, dtype=np.float64)
        delta = math.fsum(np.log1p(A * k / ((A + B + k + j) * (B + j))))
        ref_pass = -math.expm1(log_m1)
        ref_var = math.exp(2 * log_m1 + delta + math.log(-math.expm1(-delta)))
        lm, var = (float(v) for v in _beta_fail_var(A, B, float(k)))
        base = float(_beta_log_moment(c, n - c, a, b))
        old1 = math.exp(float(_beta_log_moment(c, n - c + k, a, b)) - base)
        old2 = math.exp(float(_beta_log_moment(c, n - c + 2 * k, a, b)) - base)
        got = {"now": (math.exp(lm), -math.expm1(lm), var), "before": (old1, 1 - old1, max(old2 - old1 * old1, 0.0))}
        for name, (m1, p, v) in got.items():
            rows["pass@k"][name].append(abs(p - ref_pass) / ref_pass)
            if log_m1 > -30:
                rows["m1*"][name].append(abs(m1 - math.exp(log_m1)) / math.exp(log_m1))
                rows["variance*"][name].append(abs(v - ref_var) / ref_var)
    print(f"{'quantity':38s} {'draws':>6s} {'now':>22s} {'before':>22s}")
    for q, errs in rows.items():
        cells = [f"{max(e):.1e} / {float(np.median(e)):.1e}" for e in (errs["now"], errs["before"])]
        print(f"{q:38s} {len(errs['now']):6d} {cells[0]:>22s} {cells[1]:>22s}")


def posterior_cost() -> None:
    from scipy import special

    rng = np.random.default_rng(0)
    a = 10 ** rng.uniform(-1, 1, (3721, 1))
    b = 10 ** rng.uniform(0, 3, (3721, 1))
    c = rng.integers(0, 100, 83).astype(np.float64)
    A, B = a + c, b + 1e4 - c
    te = timed(lambda: _beta_fail_var(A, B, 1e4), 3)
    tb = timed(lambda: (special.betaln(A, B + 1e4) - special.betaln(A, B), special.betaln(A, B + 2e4) - special.betaln(A, B)), 3)
    print(f"\nposterior variance on a 3,721 x 83 grid (k = 10^4): exact {te * 1e3:.1f} ms, two betaln differences "
          f"{tb * 1e3:.1f} ms ({te / tb:.1f}x)")


def _decimal_pfaff(c: int, d: int, a: float, b: float, s: float) -> Decimal:
    """sum_j C(d, j) (b)_j/(a+b+c)_j z^j, z = s/(1-s), in 60-digit decimal arithmetic (terms by their ratios)."""
    A, B, S = Decimal(a), Decimal(b), Decimal(s)
    z, cc = S / (1 - S), A + B + c
    term, total = Decimal(1), Decimal(1)
    for j in range(d):
        term = term * (d - j) * (B + j) * z / ((j + 1) * (cc + j))
        total += term
    return total


def scaled_accuracy(rng: np.random.Generator, draws: int) -> None:
    from scipy import special

    from passcurve import ScaledBetaBinomial
    from passcurve._difficulty import DifficultyModel

    getcontext().prec = 60
    print("\nscaled Beta (a in [0.05, 5], b in [0.3, 50], s in [0.05, 0.999], n, k up to 2,000): max / median relative "
          "error against 60-digit sums")
    rows: dict[str, dict[str, list[float]]] = {q: {"now": [], "before": []} for q in ("posterior pass@k", "posterior "
                                                                                    "variance", "population pass@K")}
    for _ in range(draws):
        m = ScaledBetaBinomial()
        m._theta = np.array([special.logit(rng.uniform(0.05, 0.999)), rng.uniform(math.log(0.05), math.log(5)),
                             rng.uniform(math.log(0.3), math.log(50))])
        a, b = float(np.exp(m._theta[1])), float(np.exp(m._theta[2]))
        s = min(float(special.expit(m._theta[0])), 1 - 1e-12)
        n, k = int(10 ** rng.uniform(0, math.log10(2000))), int(10 ** rng.uniform(0, math.log10(2000)))
        c = min(int(rng.integers(0, 6)), n) if rng.random() < 0.5 else int(rng.integers(0, n + 1))
        base = _decimal_pfaff(c, n - c, a, b, s)
        r1 = (1 - Decimal(s)) ** k * _decimal_pfaff(c, n - c + k, a, b, s) / base
        r2 = (1 - Decimal(s)) ** (2 * k) * _decimal_pfaff(c, n - c + 2 * k, a, b, s) / base
        ref = (float(1 - r1), float(r2 - r1 * r1), float(1 - (1 - Decimal(s)) ** k * _decimal_pfaff(0, k, a, b, s)))
        if min(float(r2), ref[1]) < 1e-280:  # the reference underflows a double
            continue
        o1, o2 = DifficultyModel.posterior_fail_moments(m, n, c, k)
        got = {"now": (m.posterior_pass_at_k(n, c, k), m._posterior_fail_var(n, c, k), m.pass_at_k(k)),
               "before": (DifficultyModel.posterior_pass_at_k(m, n, c, k), max(float(o2 - o1 * o1), 0.0),
                          DifficultyModel.pass_at_k(m, k))}
        for name, vals in got.items():
            for q, v, r in zip(rows, vals, ref, strict=True):
                rows[q][name].append(abs(float(v) / r - 1))
    print(f"{'quantity':38s} {'draws':>6s} {'now':>22s} {'before':>22s}")
    for q, errs in rows.items():
        cells = [f"{max(e):.1e} / {float(np.median(e)):.1e}" for e in (errs["now"], errs["before"])]
        print(f"{q:38s} {len(errs['now']):6d} {cells[0]:>22s} {cells[1]:>22s}")


def scaled_cost() -> None:
    from passcurve import ScaledBetaBinomial
    from passcurve._difficulty import DifficultyModel

    m = ScaledBetaBinomial()
    m._theta = np.array([17.94, math.log(0.2955), math.log(12.365)])  # Pythia-12B's fit: s = 1 - 1.6e-8
    rng = np.random.default_rng(0)
    n = np.full(128, 1e4)
    c = rng.binomial(10**4, (1 - 1.6e-8) * rng.beta(0.2955, 12.365, 128)).astype(np.float64)
    K = np.array([1, 2, 5, 10, 20, 50, 1e2, 2e2, 5e2, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7,
                  1e8, 1e9])[None, :]
    nn, cc = n[:, None], c[:, None]
    for label, new, old in (
            ("posterior pass@k", lambda: m.posterior_pass_at_k(nn, cc, K),
             lambda: DifficultyModel.posterior_pass_at_k(m, nn, cc, K)),
            ("posterior variance", lambda: m._posterior_fail_var(nn, cc, K),
             lambda: DifficultyModel.posterior_fail_moments(m, nn, cc, K))):
        te, tb = timed(new, 3), timed(old, 3)
        print(f"scaled Beta {label}, 128 problems x 24 K: now {te * 1e3:.1f} ms, before {tb * 1e3:.1f} ms "
              f"({te / tb:.1f}x)")


def main() -> None:
    accuracy(np.random.default_rng(0), 2000)
    cost()
    posterior_accuracy(np.random.default_rng(0), 300)
    posterior_cost()
    scaled_accuracy(np.random.default_rng(0), 100)
    scaled_cost()


if __name__ == "__main__":
    main()
