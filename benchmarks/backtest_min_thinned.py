"""Pre-registered experiment (thirty-first session; written and committed before any run): at 20-49 samples per
problem, should auto's self-backtest keep at least 5 samples per problem in each thinning?

Why. At n >= 20 auto weights its candidates, and widens its interval by the law error (component (iv)), from a
self-backtest that thins the data by 10 and forecasts pass@n. At n = 20 a tenth keeps 2 samples per problem: a
forecast from 2 samples is unlike the one the user gets from 20, and its measured bias says little about the real
extrapolation. The intervals under-cover there: 0.64 at K = 1000 on the simulated small-n suite and 0.63-0.64 on
Pythia/MATH thinned to 20 (docs/forecasting.md, "Small n"), against a goal band of 70-90% for 80% intervals. Below
n = 20 the interval is the any-law range instead (35-99 points wide), so it also jumps between n = 19 and 20.

Rule under test, ``auto_mt5`` (``min_thinned(5)`` below; during the run a module constant of passcurve's): at n >= 20 the self-backtest thins by
min(10, n // 5) instead of 10 (n = 20: by 4, 5 samples forecasting pass@20; n = 30: by 6; n >= 50: by 10, as now),
and its law error is carried to K in steps of that factor (``_LawError``, unchanged code). Nothing else changes;
n < 20 and n >= 50 are untouched by construction.

* Design (both arms forecast the same counts with the same ``rng`` seed: paired; 80% intervals, n_resamples = 100,
  as ``backtest``):
  - simulated: the 7 scenarios of backtest_simulated.SMALL_SCENARIOS, 164 problems, m in {20, 30} samples per
    problem, 20 seeds per (scenario, m) (140 data sets per m), each forecast at K = 100 and 1000; the truth is the
    exact pass@K of the drawn p. Data stream seed 31, forecast seeds from stream 131.
  - real: Pythia/MATH (../shared/data/pythia_math_counts.csv, 7 models x 128 problems, n = 10^4) thinned to
    m in {20, 30} (exact hypergeometric thinning), 20 seeds x 7 models = 140 per m, K = 100 and 1000; the truth is
    the full data's unbiased pass@K. Thinning stream seed 231, forecast seeds from stream 331.
  - 8 cells (data x m x K), 140 paired runs each.
* Measures per cell: each arm's coverage of the truth by its 80% interval and mean width; per run
  d = |error auto_mt5| - |error auto| (points of pass@K), its mean +/- SE and two-sided Wilcoxon signed-rank p.
* Adoption rule (all three): (1) auto_mt5's coverage is strictly closer to 0.80 than auto's in at least 6 of the 8
  cells; (2) its coverage pooled over the 8 cells (1,120 runs) lies in [0.70, 0.90]; (3) in no cell is its error
  significantly worse: mean d <= 2 SE in every cell. If met, ``_MIN_THINNED = 5`` becomes auto's rule; otherwise no
  passcurve code changes and docs/forecasting.md records the figures.

* Result (thirty-first session, run as written; the two halves in parallel, 455 s and 618 s): the rule is NOT met,
  so passcurve is unchanged and the rule lives on only as ``min_thinned`` here (which reproduces the run's forecasts
  exactly). Closer to 0.80 in 2 of 8 cells (only the simulated K = 1000 cells: 0.69 -> 0.76 at m = 20, 0.69 -> 0.74
  at m = 30); pooled coverage 0.713 (auto's 0.710); on Pythia coverage unchanged or lower (0.70/0.71 -> 0.69/0.70 at
  m = 20, 0.70/0.71 -> 0.68/0.70 at m = 30) and the error significantly worse at K = 1000: mean d +1.58 +/- 0.45
  (m = 20, mean abs. error 9.54 -> 11.11, p = 6e-6) and +0.36 +/- 0.24 (m = 30, p = 0.027; not > 2 SE). The figures
  are in docs/forecasting.md ("Small n").

Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/backtest_min_thinned.py [--seeds 20] [--dump FILE]
(``--part sim`` or ``--part pythia`` runs one half; the rule needs both.)
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
from _paired_arms import NULL, experiment

from passcurve import _forecast as _fc


def min_thinned(s: int) -> Any:
    """auto whose self-backtest at n >= 20 thins by min(10, n // s) (at least 2) instead of 10, with its law error
    carried to K in steps of that factor (module docs). A patch of ``_forecast._self_backtest`` here, not in
    passcurve: the rule was not adopted. n < 20 (the small-n rule's halves are asked for with their own factor) and
    stop-at-success designs are left alone."""
    orig = _fc._self_backtest

    def patched(n, c, cands, R, gen, factor=10, design=None, w=None):  # type: ignore[no-untyped-def]
        top = int(np.min(n))
        if factor == 10 and design is None and top >= 20:
            factor = max(2, min(10, top // s))
        return orig(n, c, cands, R, gen, factor=factor, design=design, w=w)

    return mock.patch.object(_fc, "_self_backtest", patched)


def main() -> None:
    _, cs = experiment("20,30", {"auto": NULL, "auto_mt5": lambda: min_thinned(5)}, (31, 131, 231, 331))
    closer = sum(abs(x["cov_b"] - 0.8) < abs(x["cov_a"] - 0.8) for x in cs)
    harm = sum(x["d_mean"] > 2 * x["d_se"] for x in cs)
    cov = float(np.mean(np.concatenate([x["covered_b"] for x in cs])))
    r1, r2, r3 = closer >= 6, 0.70 <= cov <= 0.90, harm == 0
    print(f"\nAdoption rule: (1) closer to 0.80 in {closer} of {len(cs)} cells (>= 6): {r1}; (2) auto_mt5's pooled "
          f"coverage {cov:.3f} in [0.70, 0.90]: {r2}; (3) cells with mean d > 2 SE: {harm} (0): {r3}; "
          f"met: {r1 and r2 and r3 and len(cs) == 8}")


if __name__ == "__main__":
    main()
