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

import argparse
import contextlib
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from backtest_simulated import SMALL_SCENARIOS, exact_pass_at_k, scenario_p
from scipy import stats

from passcurve import Counts, forecast
from passcurve import _forecast as _fc

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "pythia_math_counts.csv"
KS = [100, 1000]
ARMS = ("auto", "auto_mt5")


@contextlib.contextmanager
def min_thinned(s: int) -> Iterator[None]:
    """auto whose self-backtest at n >= 20 thins by min(10, n // s) (at least 2) instead of 10, with its law error
    carried to K in steps of that factor (module docs); s = 0 is passcurve's rule. A patch of
    ``_forecast._self_backtest`` here, not in passcurve: the rule was not adopted. n < 20 (the small-n rule's halves
    are asked for with their own factor) and stop-at-success designs are left alone."""
    orig = _fc._self_backtest

    def patched(n, c, cands, R, gen, factor=10, design=None, w=None):  # type: ignore[no-untyped-def]
        top = int(np.min(n))
        if s and factor == 10 and design is None and top >= 20:
            factor = max(2, min(10, top // s))
        return orig(n, c, cands, R, gen, factor=factor, design=design, w=w)

    _fc._self_backtest = patched
    try:
        yield
    finally:
        _fc._self_backtest = orig


def both_arms(n: np.ndarray, c: np.ndarray, truth: list[float], seed: int) -> list[tuple[str, int, float, bool, float]]:
    """(arm, K, error, covered, width) of each arm's forecast of these counts, the same rng seed for both."""
    counts = Counts.from_arrays(n, c, model="m")
    out = []
    for arm in ARMS:
        with min_thinned(int(arm[7:]) if arm != "auto" else 0):
            r = forecast(counts, KS, method="auto", n_resamples=100, flags=False, rng=seed, confidence_level=0.8)
        for j, K in enumerate(KS):
            f, lo, hi = float(r.pass_at_k[0, j]), float(r.low[0, j]), float(r.high[0, j])
            out.append((arm, K, f - truth[j], lo <= truth[j] <= hi, hi - lo))
    return out


def simulated(seeds: int, ms: list[int]) -> list[tuple]:  # type: ignore[type-arg]
    gen, sgen = np.random.default_rng(31), np.random.default_rng(131)
    rows = []
    t0 = time.time()
    for scen in SMALL_SCENARIOS:
        for m in ms:
            for s in range(seeds):
                p = scenario_p(scen, 164, gen)
                n = np.full(p.size, m)
                c = gen.binomial(n, p)
                truth = [exact_pass_at_k(p, K) for K in KS]
                for arm, K, e, cov, w in both_arms(n, c, truth, int(sgen.integers(2**31))):
                    rows.append(("sim", m, K, scen, s, arm, e, cov, w))
        print(f"# sim {scen}: done ({time.time() - t0:.0f} s)", flush=True)
    return rows


def pythia(seeds: int, ms: list[int]) -> list[tuple]:  # type: ignore[type-arg]
    from backtest_pythia import load

    from passcurve._curves import mean_curve
    from passcurve._forecast import thin_counts

    if not DATA.exists():
        raise SystemExit(f"{DATA} not found: the real-data half needs ../shared/data")
    counts = load(DATA)
    gen, sgen = np.random.default_rng(231), np.random.default_rng(331)
    rows = []
    t0 = time.time()
    for m in ms:
        for s in range(seeds):
            for name, sub in counts.groups():
                truth = [float(mean_curve(sub.n, sub.c, np.array([K]))[0][0]) for K in KS]
                nt, ct = thin_counts(sub.n, sub.c, m, gen)
                for arm, K, e, cov, w in both_arms(nt, ct, truth, int(sgen.integers(2**31))):
                    rows.append(("pythia", m, K, name, s, arm, e, cov, w))
        print(f"# pythia m = {m}: done ({time.time() - t0:.0f} s)", flush=True)
    return rows


def judge(rows: list[tuple]) -> None:  # type: ignore[type-arg]
    """Per cell the two arms' coverage and width and the paired d; then the pre-registered rule (module docs)."""
    cells = list(dict.fromkeys(r[:3] for r in rows))
    print("| data | m | K | runs | coverage auto / auto_mt5 | width auto / auto_mt5 | meanAE auto / auto_mt5 "
          "| mean d ± SE | Wilcoxon p | closer to 0.80 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    closer, harm, pooled = 0, 0, []
    for cell in cells:
        by = {arm: {r[3:5]: r for r in rows if r[:3] == cell and r[5] == arm} for arm in ARMS}
        keys = [k for k in by["auto"] if k in by["auto_mt5"]]
        a = np.array([[by["auto"][k][6], by["auto"][k][7], by["auto"][k][8]] for k in keys], dtype=float)
        b = np.array([[by["auto_mt5"][k][6], by["auto_mt5"][k][7], by["auto_mt5"][k][8]] for k in keys], dtype=float)
        d = 100 * (np.abs(b[:, 0]) - np.abs(a[:, 0]))
        se = float(d.std(ddof=1) / np.sqrt(d.size))
        p = float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0
        ca, cb = float(a[:, 1].mean()), float(b[:, 1].mean())
        near = abs(cb - 0.8) < abs(ca - 0.8)
        closer += near
        harm += d.mean() > 2 * se
        pooled.extend(b[:, 1])
        print(f"| {cell[0]} | {cell[1]} | {cell[2]} | {d.size} | {ca:.2f} / {cb:.2f} | {100 * a[:, 2].mean():.1f} / "
              f"{100 * b[:, 2].mean():.1f} | {100 * np.abs(a[:, 0]).mean():.2f} / {100 * np.abs(b[:, 0]).mean():.2f} "
              f"| {d.mean():+.2f} ± {se:.2f} | {p:.2g} | {'yes' if near else 'no'} |")
    cov = float(np.mean(pooled))
    r1, r2, r3 = closer >= 6, 0.70 <= cov <= 0.90, harm == 0
    print(f"\nAdoption rule: (1) closer to 0.80 in {closer} of {len(cells)} cells (>= 6): {r1}; (2) auto_mt5's pooled "
          f"coverage {cov:.3f} in [0.70, 0.90]: {r2}; (3) cells with mean d > 2 SE: {harm} (0): {r3}; "
          f"met: {r1 and r2 and r3 and len(cells) == 8}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--m", default="20,30")
    ap.add_argument("--part", choices=["both", "sim", "pythia"], default="both")
    ap.add_argument("--dump", default=None, help="write every run (TSV)")
    ap.add_argument("--load", default=None, help="judge runs dumped before (one TSV per part, comma-separated)")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    ms = [int(x) for x in args.m.split(",")]
    if args.load:
        rows = []
        for path in args.load.split(","):
            with open(path, encoding="utf-8") as fh:
                next(fh)
                for line in fh:
                    f = line.rstrip("\n").split("\t")
                    rows.append((f[0], int(f[1]), int(f[2]), f[3], int(f[4]), f[5], float(f[6]), f[7] == "True",
                                 float(f[8])))
    else:
        t0 = time.time()
        rows = (simulated(args.seeds, ms) if args.part in ("both", "sim") else []) + (
            pythia(args.seeds, ms) if args.part in ("both", "pythia") else [])
        print(f"# {len(rows)} rows in {time.time() - t0:.0f} s")
        if args.dump:
            with open(args.dump, "w", encoding="utf-8") as fh:
                fh.write("data\tm\tK\tgroup\tseed\tarm\terror\tcovered\twidth\n")
                fh.writelines("\t".join(str(x) for x in r) + "\n" for r in rows)
    judge(rows)


if __name__ == "__main__":
    main()
