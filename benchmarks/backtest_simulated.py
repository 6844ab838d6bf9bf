"""Forecast accuracy on simulated benchmarks with known truth (light/heavy tails, impossible problems,
unequal n, a non-Beta difficulty law).

Each run draws per-problem success rates p_i from a scenario, draws c_i ~ Binomial(m_i, p_i), forecasts
pass_D@K with each method and compares with the exact truth mean_i 1 - (1 - p_i)^K of the drawn problems.

Run:  PYTHONPATH=src python benchmarks/backtest_simulated.py [--seeds 10] [--problems 300]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import special

from passcurve import Counts, ModelSpec, forecast, simulate


def scenario_p(name: str, N: int, gen: np.random.Generator) -> np.ndarray:
    if name == "heavy tail Beta(0.2, 5)":
        return gen.beta(0.2, 5.0, N)
    if name == "light tail Beta(2, 30)":
        return gen.beta(2.0, 30.0, N)
    if name == "impossible 15% + Beta(0.3, 3)":
        # through passcurve.simulate / ModelSpec (zero-inflated Beta)
        bench = simulate(problems=N, n=1, models=[ModelSpec("m", 0.3, 3.0, impossible=0.15)],
                         rng=int(gen.integers(2**31)))
        return bench.p
    if name == "logit-normal(-4, 2.5)":
        return special.expit(gen.normal(-4.0, 2.5, N))
    if name == "two groups: Beta(0.5, 2) + 30% Beta(0.15, 200)":
        hard = gen.random(N) < 0.3
        return np.where(hard, gen.beta(0.15, 200.0, N), gen.beta(0.5, 2.0, N))
    if name.startswith("hard Beta("):
        # a pure Beta difficulty law of a hard benchmark, "hard Beta(a, b)"
        a, b = (float(x) for x in name[len("hard Beta("):-1].split(","))
        return gen.beta(a, b, N)
    if name == "rare successes Beta(0.15, 30)":
        # mean p = 0.005: at m = 100 most problems have c = 0 and a tenth-thinning keeps almost nothing
        return gen.beta(0.15, 30.0, N)
    raise ValueError(name)


SCENARIOS = [
    "heavy tail Beta(0.2, 5)",
    "light tail Beta(2, 30)",
    "impossible 15% + Beta(0.3, 3)",
    "logit-normal(-4, 2.5)",
    "two groups: Beta(0.5, 2) + 30% Beta(0.15, 200)",
    "rare successes Beta(0.15, 30)",
]

# hard benchmarks whose difficulty law is exactly a Beta: tail exponent 0.1-0.3, mean p 0.001-0.03
HARD_SCENARIOS = [f"hard Beta({a}, {b})" for a in (0.1, 0.2, 0.3) for b in (10, 30, 100)]


def exact_pass_at_k(p: np.ndarray, K: int) -> float:
    """pass_D@K of the drawn problems, exactly: mean_i 1 - (1 - p_i)^K."""
    return float(np.mean(-np.expm1(K * np.log1p(-p))))


def draw(scen: str, problems: int, K: int, gen: np.random.Generator,
         m: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """One simulated benchmark: p from the scenario, n = m (or uniform in [100, 1000] when m is None),
    c ~ Binomial(n, p), and the truth mean_i 1 - (1 - p_i)^K of the drawn problems (exact)."""
    p = scenario_p(scen, problems, gen)
    n = gen.integers(100, 1001, p.size) if m is None else np.full(p.size, m)
    c = gen.binomial(n, p)
    return n, c, exact_pass_at_k(p, K)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--problems", type=int, default=300)
    ap.add_argument("--methods", default="least_squares,beta,auto")
    args = ap.parse_args()
    methods = args.methods.split(",")
    gen = np.random.default_rng(12345)  # the simulated data
    fgen = np.random.default_rng(54321)  # the forecasts' own draws (separate, so methods see the same data)
    t0 = time.time()
    designs = [("m=100", 100, 1000, False), ("m=1000", 1000, 10000, False),
               ("unequal m in [100, 1000]", None, 10000, True)]
    allrows = []
    warnings.simplefilter("ignore")
    for scen in SCENARIOS:
        for label, m, K, unequal in designs:
            for _ in range(args.seeds):
                n, c, truth = draw(scen, args.problems, K, gen, None if unequal else m)
                counts = Counts.from_arrays(n, c, model="sim")
                for meth in methods:
                    r = forecast(counts, [K], method=meth, n_resamples=100, flags=False, rng=fgen)
                    f, lo, hi = float(r.pass_at_k[0, 0]), float(r.low[0, 0]), float(r.high[0, 0])
                    allrows.append((scen, label, K, meth, f - truth, lo <= truth <= hi, hi - lo))
    print(f"{args.problems} problems, {args.seeds} seeds per cell ({time.time() - t0:.0f} s); "
          "errors in points of pass@K; coverage of 80% intervals")
    print("| scenario | design | K | " + " | ".join(f"{m} medAE" for m in methods) + " | "
          + " | ".join(f"{m} cover" for m in methods) + " |")
    print("|" + "---|" * (3 + 2 * len(methods)))
    keys = list(dict.fromkeys((r[0], r[1], r[2]) for r in allrows))
    tot = {m: [] for m in methods}
    cov = {m: [] for m in methods}
    for key in keys:
        cells, covs = [], []
        for meth in methods:
            rs = [r for r in allrows if (r[0], r[1], r[2]) == key and r[3] == meth]
            e = np.abs([r[4] for r in rs])
            cells.append(f"{100 * np.median(e):.2f}")
            covs.append(f"{np.mean([r[5] for r in rs]):.2f}")
            tot[meth] += list(e)
            cov[meth] += [r[5] for r in rs]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cells) + " | " + " | ".join(covs) + " |")
    print("| **all** | | | " + " | ".join(f"**{100 * np.median(tot[m]):.2f}**" for m in methods) + " | "
          + " | ".join(f"**{np.mean(cov[m]):.2f}**" for m in methods) + " |")


if __name__ == "__main__":
    main()
