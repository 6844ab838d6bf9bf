"""What the counts alone say about pass_D@K beyond n: the range over every difficulty law (tenth session).

For K <= n the unbiased pass@k needs no model. Beyond n, pass_D@K = E_G[1 - (1-p)^K] depends on the difficulty
law G, and the counts constrain G only through its curve at k <= n. This script computes, with the linear
programme of ``passcurve.extrapolation_bounds`` (``passcurve._bounds.law_range``: laws on p = 0 and 100 points per
decade, scipy's HiGHS), the smallest and the largest pass_D@K of any law whose curve E_G[1 - (1-p)^k] stays within z standard errors (SE over
problems of the unbiased per-problem pass@k) of the data's unbiased pass_D@k at 25 values of k <= n (1..10 and
15 log-spaced up to n). The Hausdorff moment problem behind it is classical; the same limit is known for the
number of unseen species, which no estimator can predict beyond a logarithmic factor of the sample without
assumptions (Orlitsky, Suresh & Wu 2016, PNAS).

* z = 0.05: the data's curve matched almost exactly: the range that remains with no sampling noise on the curve,
  i.e. what the law must supply.
* z = Bonferroni 95% over the 25 k: a distribution-free confidence range (it contains the range of the true
  law's curve whenever the band covers it).

Each Pythia model is thinned once to m = 100 and once to m = 1000 (hypergeometric, seed 5), K = 10 m; beside the
ranges: the full data's unbiased pass_D@K (the truth of the backtest) and the forecasts of least squares, the
Beta (empirical Bayes) and passcurve's default on the same thinning.

Run:  PYTHONPATH=src python benchmarks/identified_range.py   (about 5 s)
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from backtest_pythia import DATA, load
from scipy import stats

from passcurve import Counts, forecast, pass_at_k
from passcurve._bounds import constraint_grid, law_range
from passcurve._curves import mean_curve
from passcurve._forecast import thin_counts


def identified_range(n: np.ndarray, c: np.ndarray, K: int, z: float) -> tuple[float, float]:
    """min and max of E_G[1 - (1-p)^K] over laws G whose curve is within z SE of the data's at the library's
    constraint grid (passcurve._bounds: the same linear programme as ``extrapolation_bounds``, with this
    script's z-SE band in place of the bootstrap band)."""
    ks = constraint_grid(int(n.min()))
    per = pass_at_k(n[:, None], c[:, None], ks[None, :])  # problems x k, unbiased
    f, se = per.mean(0), per.std(0, ddof=1) / np.sqrt(n.size)
    tol = z * np.maximum(se, 1e-12)
    lo, hi = law_range(ks, f - tol, f + tol, np.array([K]))
    return float(lo[0]), float(hi[0])


def main() -> None:
    warnings.simplefilter("ignore")
    if not DATA.exists():
        print(f"{DATA} not found: nothing to do")
        return
    t0 = time.time()
    counts = load(DATA)
    gen = np.random.default_rng(5)
    z95 = float(stats.norm.ppf(1 - 0.05 / 2 / 25))
    print(f"ranges of pass_D@K over all difficulty laws; z = 0.05 and z = {z95:.2f} (Bonferroni 95% over 25 k)")
    for m in (100, 1000):
        K = 10 * m
        print(f"\nm = {m} -> K = {K}")
        print(f"{'model':12s} {'pass@m':>7s} {'truth':>6s} {'LS':>6s} {'beta':>6s} {'auto':>6s}  "
              f"{'range, z=0.05':>16s} {'width':>6s}  {'95% range':>16s}")
        widths = []
        for name, sub in counts.groups():
            truth = float(mean_curve(sub.n, sub.c, np.array([K]))[0][0])
            nt, ct = thin_counts(sub.n, sub.c, m, gen)
            obs = float(mean_curve(nt, ct, np.array([m]))[0][0])
            fc = []
            for meth in ("least_squares", "beta_eb", "auto"):
                res = forecast(Counts.from_arrays(nt, ct), [K], method=meth, n_resamples=0, flags=False, rng=0)
                fc.append(float(res.pass_at_k[0, 0]))
            lo0, hi0 = identified_range(nt, ct, K, 0.05)
            lo, hi = identified_range(nt, ct, K, z95)
            widths.append(hi0 - lo0)
            print(f"{name:12s} {obs:7.3f} {truth:6.3f} {fc[0]:6.3f} {fc[1]:6.3f} {fc[2]:6.3f}  "
                  f"[{lo0:.3f}, {hi0:.3f}] {hi0 - lo0:6.3f}  [{lo:.3f}, {hi:.3f}]", flush=True)
        print(f"median width at z = 0.05: {np.median(widths):.3f}")
    print(f"({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
