"""Convergence of the nonparametric MLE (GridMixture) over benchmark sizes.

40 simulated benchmarks: 1,000 to 20,000 problems, n = 10^3 or 10^4 samples each, four seeds; 10% of
the problems impossible, the rest Beta(0.3, 3). For each: whether the constrained Newton method
certified its maximum (``success_``), the duality-gap bound, the iterations and the time.

Run:  PYTHONPATH=src python benchmarks/bench_npmle_sweep.py
"""

from __future__ import annotations

import re
import time
import warnings

import numpy as np

from passcurve import GridMixture


def main() -> None:
    ok = total = 0
    worst, iters, seconds = 0.0, [], 0.0
    for problems in (1000, 2000, 5000, 10_000, 20_000):
        for n in (1000, 10_000):
            for seed in range(4):
                rng = np.random.default_rng(seed)
                p = rng.beta(0.3, 3.0, problems)
                p[: problems // 10] = 0.0
                c = rng.binomial(n, p)
                t = time.perf_counter()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fit = GridMixture().fit(n=np.full(problems, n), c=c)
                dt = time.perf_counter() - t
                seconds += dt
                total += 1
                ok += fit.success_
                worst = max(worst, fit.duality_gap_)
                it = int(re.search(r"after (\d+) iterations", fit.message_).group(1))  # type: ignore[union-attr]
                iters.append(it)
                if not fit.success_:
                    print(f"  not certified: {problems} problems, n={n}, seed {seed}: gap {fit.duality_gap_:.3g}, "
                          f"{it} iterations, {dt:.1f} s")
    print(f"certified {ok} of {total}; largest duality-gap bound {worst:.3g}; iterations median "
          f"{np.median(iters):.0f}, max {max(iters)}; total time {seconds:.1f} s")


if __name__ == "__main__":
    main()
