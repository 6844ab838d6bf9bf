"""Coverage of passcurve's confidence intervals by simulation (run by hand; figures go to docs/uncertainty.md).

Estimand: the *population* pass_D@k (and pass^k) of the difficulty distribution the problems are
drawn from, in closed form for a zero-inflated Beta: (1 - pi0)(1 - B(a, b + k)/B(a, b)) and
(1 - pi0) B(a + k, b)/B(a, b). Each replication draws N fresh problems (p_i from that
distribution; clustered settings share a latent difficulty within a cluster through a Gaussian
copula, which leaves the marginal distribution, hence the estimand, unchanged), n samples per
problem, computes the intervals and records whether they contain the truth.

    PYTHONPATH=src python benchmarks/coverage_study.py [--reps 1000] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from passcurve import Counts, compare, curve_intervals


@dataclass
class Setting:
    name: str
    alpha: float
    beta: float
    problems: int
    n: int
    ks: tuple[int, ...]
    impossible: float = 0.0
    cluster_size: int = 1
    cluster_corr: float = 0.0


SETTINGS = [
    Setting("moderate: Beta(1,3), N=100, n=10", 1.0, 3.0, 100, 10, (1, 5, 10)),
    Setting("small n: Beta(0.5,1.5), N=50, n=3", 0.5, 1.5, 50, 3, (1, 3)),
    Setting("heavy tail: 20% impossible + Beta(0.2,3), N=200, n=50", 0.2, 3.0, 200, 50, (1, 10, 50), impossible=0.2),
    Setting("clustered: 40 clusters x 5, rho=0.8, Beta(0.5,1.5), n=10", 0.5, 1.5, 200, 10, (1, 10), cluster_size=5, cluster_corr=0.8),
    Setting("very small N: Beta(1,3), N=15, n=10", 1.0, 3.0, 15, 10, (1, 5, 10)),
]


def truth(s: Setting, metric: str) -> np.ndarray:
    k = np.asarray(s.ks, dtype=float)
    if metric == "pass_at_k":
        return (1 - s.impossible) * (1 - np.exp(special.betaln(s.alpha, s.beta + k) - special.betaln(s.alpha, s.beta)))
    return (1 - s.impossible) * np.exp(special.betaln(s.alpha + k, s.beta) - special.betaln(s.alpha, s.beta))


def draw(s: Setting, rng: np.random.Generator) -> Counts:
    N = s.problems
    if s.cluster_size > 1:
        g = np.repeat(np.arange(N // s.cluster_size), s.cluster_size)
        z = np.sqrt(s.cluster_corr) * rng.standard_normal(N // s.cluster_size)[g] + np.sqrt(
            1 - s.cluster_corr
        ) * rng.standard_normal(N)
        u = stats.norm.cdf(z)
        cluster = g
    else:
        u = rng.random(N)
        cluster = None
    p = np.zeros(N)
    ok = u >= s.impossible
    p[ok] = stats.beta.ppf((u[ok] - s.impossible) / (1 - s.impossible), s.alpha, s.beta)
    c = rng.binomial(s.n, p)
    return Counts.from_arrays(np.full(N, s.n), c, cluster=cluster)


def study(s: Setting, methods: list[str], reps: int, resamples: int, seed: int) -> dict[str, dict[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    metrics = ("pass_at_k", "pass_pow_k")
    tr = {m: truth(s, m) for m in metrics}
    hits = {meth: {m: np.zeros(len(s.ks)) for m in metrics} for meth in methods}
    width = {meth: {m: np.zeros(len(s.ks)) for m in metrics} for meth in methods}
    for _ in range(reps):
        cnt = draw(s, rng)
        for meth in methods:
            if meth == "two-level" and cnt.cluster is not None:
                continue
            real = "analytic" if meth == "analytic (clusters ignored)" else meth
            res = curve_intervals(
                cnt, list(s.ks), metric=metrics, method=real, n_resamples=resamples, rng=rng,
                cluster=False if meth == "analytic (clusters ignored)" else None,
            )
            for m in metrics:
                lo, hi = res.intervals[m]
                inside = (lo[0] <= tr[m]) & (tr[m] <= hi[0])
                if meth == "band":
                    inside = np.full(inside.shape, inside.all())  # simultaneous: every k at once
                hits[meth][m] += inside
                width[meth][m] += hi[0] - lo[0]
    return {meth: {m: hits[meth][m] / reps for m in metrics} | {f"{m}_width": width[meth][m] / reps for m in metrics} for meth in methods}


def compare_study(reps: int, resamples: int, seed: int) -> None:
    """Paired comparison: coverage of the difference and type I error of the p-values.

    Two models share a latent difficulty z (correlation 0.9); p_A = Phi(z - 0.5 + shift),
    p_B = Phi(z' - 0.5), so the population difference of pass@1 is
    Phi((shift - 0.5)/sqrt 2) - Phi(-0.5/sqrt 2); pass@5 by numerical integration.
    """
    rng = np.random.default_rng(seed)
    N, n, ks = 100, 5, np.array([1, 5])
    zz = np.linspace(-8, 8, 4001)
    wz = stats.norm.pdf(zz) * (zz[1] - zz[0])
    for shift in (0.0, 0.3):
        truth = np.array(
            [wz @ (1 - (1 - stats.norm.cdf(zz - 0.5 + shift)) ** k) - wz @ (1 - (1 - stats.norm.cdf(zz - 0.5)) ** k) for k in ks]
        )
        hits = {m: np.zeros(ks.size) for m in ("bootstrap", "bca", "analytic")}
        rej = {m: np.zeros(ks.size) for m in hits}
        for _ in range(reps):
            z = rng.standard_normal(N)
            zb = 0.9 * z + np.sqrt(1 - 0.81) * rng.standard_normal(N)
            c = np.concatenate([rng.binomial(n, stats.norm.cdf(z - 0.5 + shift)), rng.binomial(n, stats.norm.cdf(zb - 0.5))])
            cnt = Counts.from_arrays(np.full(2 * N, n), c, model=np.repeat(["A", "B"], N), problem=np.tile(np.arange(N), 2))
            for m in hits:
                r = compare(cnt, "A", "B", ks, method=m, n_resamples=resamples, rng=rng)
                hits[m] += (r.low <= truth) & (truth <= r.high)
                rej[m] += r.p_value < 0.05
        print(f"\n## paired comparison, N={N}, n={n}, shift={shift} (true difference {', '.join(f'{t:.4f}' for t in truth)}), {reps} replications")
        print("| method (test) | coverage k=1 | coverage k=5 | P(p < 0.05) k=1 | P(p < 0.05) k=5 |")
        print("|---|---|---|---|---|")
        for m in hits:
            test = "t-test" if m == "analytic" else "sign flips"
            cov = " | ".join(f"{100 * v / reps:.1f}%" for v in hits[m])
            rr = " | ".join(f"{100 * v / reps:.1f}%" for v in rej[m])
            print(f"| {m} ({test}) | {cov} | {rr} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--methods", default="analytic,bootstrap,bca,two-level,cluster,band")
    ap.add_argument("--compare", action="store_true", help="Run the paired-comparison study instead.")
    args = ap.parse_args()
    if args.compare:
        compare_study(args.reps, args.resamples, args.seed)
        return
    methods = args.methods.split(",")
    for i, s in enumerate(SETTINGS):
        ms = [m for m in methods if (m != "cluster" or s.cluster_size > 1) and (m != "two-level" or s.cluster_size == 1)]
        if s.cluster_size > 1:
            ms.append("analytic (clusters ignored)")
        t0 = time.time()
        out = study(s, ms, args.reps, args.resamples, args.seed + i)
        print(f"\n## {s.name}  ({args.reps} replications, {time.time() - t0:.0f} s)")
        print("| method | metric | " + " | ".join(f"k={k}" for k in s.ks) + " | mean width (k=" + ",".join(map(str, s.ks)) + ") |")
        print("|---|---|" + "---|" * (len(s.ks) + 1))
        for meth in ms:
            for m in ("pass_at_k", "pass_pow_k"):
                if meth == "band":
                    cells = f"all k at once: {100 * out[meth][m][0]:.1f}%" + " |" * (len(s.ks) - 1)
                else:
                    cells = " | ".join(f"{100 * v:.1f}%" for v in out[meth][m])
                wid = " / ".join(f"{v:.3g}" for v in out[meth][f"{m}_width"])
                print(f"| {meth} | {m} | {cells} | {wid} |", flush=True)


if __name__ == "__main__":
    main()
