"""Speed of the nonparametric MLE (``npmle``) on many problems with unequal n: its least squares reduced by QR.

Design (as ``bench_count_histograms.py``): P problems, n uniform integers in [100, 1000], c ~ beta-binomial(n, 0.3, 3)
(numpy, seed 12345); 10^5 problems have 51,189 distinct (n, c) pairs and a grid of 401 points.

Each iteration of the constrained Newton method (``_difficulty._npmle_cnm``) solves a non-negative least squares
problem over (distinct pairs + 1) x (support) — the rows are already one per distinct pair, so there are no
identical rows to collapse. The first two iterations take the whole grid as support (the weights start uniform),
and ``nnls`` on 51,190 x 401 took 2.8 s each. Now the data rows are first reduced by a QR factorisation of
[A | b] (``_qr_reduced``: the same minimisers, ||Ax − b||² = ||R₁₁x − r||² + const), 1.5 s, and ``nnls`` runs on
402 rows (0.01 s); the heavy row that holds the weights' sum to 1 is kept apart. Baseline in the same process:
``_NNLS_QR_FROM`` set to infinity (never reduce), the fit as it was.

Times are the best of two runs, CPU seconds and wall; run with OPENBLAS_NUM_THREADS=1 on a shared machine.
Figures (thirtieth session): docs/forecasting.md, "Fit timing".

Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_npmle_qr.py [P ...]
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
from _unequal_n import best, design

import passcurve as pc
import passcurve._difficulty as dif

_NEW = dif._NNLS_QR_FROM


def main(sizes: list[int]) -> None:
    warnings.simplefilter("ignore")
    for P in sizes:
        counts = pc.Counts.from_arrays(*design(P))
        runs = {}
        for name, value in (("new", _NEW), ("old", np.inf), ("new again", _NEW)):
            dif._NNLS_QR_FROM = value
            runs[name] = best(lambda cs=counts: dif.GridMixture().fit(cs))
        dif._NNLS_QR_FROM = _NEW
        (to, wo, a), (tn, wn, b) = runs["old"], runs["new"]
        print(f"{P:,} problems, {a.pairs_[0].size:,} distinct pairs, grid {a.grid_.size}: npmle fit "
              f"{to:.2f} ({wo:.2f}) -> {tn:.2f} ({wn:.2f}) s CPU (wall), {to / tn:.1f}x; again {runs['new again'][0]:.2f} s")
        print(f"  loglik {a.loglik_:.10f} -> {b.loglik_:.10f} ({abs(b.loglik_ - a.loglik_) / abs(a.loglik_):.1e} "
              f"relative; duality gaps {a.duality_gap_:.2g}, {b.duality_gap_:.2g}), weights within "
              f"{np.abs(a.weights_ - b.weights_).max():.1e}, impossible {a.params_['impossible']:.12g} -> "
              f"{b.params_['impossible']:.12g}, support {a.params_['support_points']:g} -> "
              f"{b.params_['support_points']:g}, {a.message_.split(':')[1].split('(')[0].strip()} / "
              f"{b.message_.split(':')[1].split('(')[0].strip()}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [20_000, 100_000])
