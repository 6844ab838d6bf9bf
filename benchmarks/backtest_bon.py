"""Backtest forecasts on stopping-time data: Best-of-N jailbreaking (../shared/data), truncated to a smaller cap.

The BoN counts come from a stop-at-first-successful-batch design (batches of 60, cap 10,020), so n is a
stopping time. Thinning to a random subset of samples would not give a sample from the design; truncating
every problem to a cap of m does (``StopAtSuccess.truncate``, exact). Each model's 159 behaviours are
truncated to cap m, every method forecasts pass@K, and the error is measured against the full data's
stopping-time estimate of pass@K (unbiased for every K up to the cap).

Methods: passcurve's ``auto`` with the design (least squares on the stopping-time curve, EB difficulty fits,
a self-backtest that truncates to a tenth of the cap); least squares on the stopping-time curve; the paper's
least squares with its Codex convention on the same truncated counts (problems with n < k count as solved,
which is how Schaeffer et al. 2025 fit BoN); the plain beta-binomial (population) and the EB fits.

Run:  PYTHONPATH=src python benchmarks/backtest_bon.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from passcurve import Counts, StopAtSuccess, fit_power_law, forecast, read_counts

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "bon_jailbreaking_counts.csv"
BATCH, CAP = 60, 10_020


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--m", default="600,1020")
    ap.add_argument("--k", default="6000,10000")
    args = ap.parse_args()
    if not DATA.exists():
        print(f"skipped: {DATA} not found")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counts = read_counts(DATA)
    full = StopAtSuccess(BATCH, CAP)
    gen = np.random.default_rng(0)
    t0 = time.time()
    rows: dict[tuple[int, int, str], list[tuple[float, float | None]]] = {}
    for m in (int(v) for v in args.m.split(",")):
        small = StopAtSuccess(BATCH, m)
        for K in (int(v) for v in args.k.split(",")):
            for _ in range(args.seeds):
                for name, sub in counts.groups():
                    truth = float(full.mean_curve(sub.n, sub.c, np.array([K]))[0][0])
                    nt, ct = full.truncate(sub.n, sub.c, m, gen)
                    cnt = Counts.from_arrays(nt, ct, model=[name] * nt.size)
                    seed = int(gen.integers(2**31))
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        auto = forecast(cnt, [K], design=small, n_resamples=30, rng=seed, flags=False)
                        for meth in ("least_squares", "beta", "beta_eb", "zi_beta"):
                            f = forecast(cnt, [K], method=meth, design=small, n_resamples=0, flags=False)
                            rows.setdefault((m, K, meth), []).append((float(f.pass_at_k[0, 0]) - truth, None))
                        paper = fit_power_law(cnt, convention="chen")
                    inside = bool(auto.low[0, 0] <= truth <= auto.high[0, 0])
                    rows.setdefault((m, K, "auto"), []).append((float(auto.pass_at_k[0, 0]) - truth, inside))
                    rows.setdefault((m, K, "paper LS (Codex convention)"), []).append(
                        (float(paper.predict([K])[0, 0]) - truth, None))
    print(f"BoN jailbreaking, 7 models x {args.seeds} truncations ({time.time() - t0:.0f} s); errors in points of pass@K")
    print(f"{'cap m':>6} {'K':>6} {'method':>28} {'runs':>5} {'medAE':>6} {'meanAE':>7} {'bias':>6} {'cover':>6}")
    for (m, K, meth), v in rows.items():
        e = 100 * np.array([x for x, _ in v])
        cov = [c for _, c in v if c is not None]
        cv = f"{np.mean(cov):.2f}" if cov else "-"
        print(f"{m:>6} {K:>6} {meth:>28} {e.size:>5} {np.median(np.abs(e)):>6.2f} {np.mean(np.abs(e)):>7.2f} "
              f"{np.mean(e):>+6.2f} {cv:>6}")


if __name__ == "__main__":
    main()
