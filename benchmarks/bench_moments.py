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

Run:  PYTHONPATH=src python benchmarks/bench_moments.py
"""

from __future__ import annotations

import math
import time

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


def main() -> None:
    accuracy(np.random.default_rng(0), 2000)
    cost()
    posterior_accuracy(np.random.default_rng(0), 300)
    posterior_cost()


if __name__ == "__main__":
    main()
