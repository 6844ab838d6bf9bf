"""Speed of ``forecast`` and ``fit_difficulty`` on many problems with unequal n: sums by count histograms, blocks.

Design: P problems, n uniform integers in [100, 1000], c ~ beta-binomial(n, 0.3, 3) (numpy, seed 12345); 10^5
problems have 51,189 distinct (n, c) pairs but only 1,001 counts 0..max n.

Two changes, both exact reformulations (values equal to rounding), both switched off in the same process for the
baseline:

* The one-Beta likelihoods (``beta``, ``zi_beta``): log M(c, d) = R(a, c) + R(b, d) − R(a + b, c + d) is a sum of
  three terms each depending on one whole number, so Σ w log M, its ψ and its ψ1 sums are histograms of c, d and
  c + d against per-count tables (``_difficulty._beta_sums``), O(max n) per evaluation after three ``bincount``.
  Baseline: ``_beta_sums`` returning None, which is the per-pair path the fits took before.
* The posterior forecasts' Stirling step (``_difficulty._rising_step``) in blocks of 2^13 elements
  (``_chunked``) and, where most arguments are large, over every element instead of selecting them first
  (``_rising_step_mostly_large``). Baseline: ``_CHUNK`` set past any size and the selection re-done as before
  (``_old_mostly_large`` below, the previous code of that branch).

Times are the best of two runs, CPU seconds (the figure to read on a shared machine) and wall. Run with
OPENBLAS_NUM_THREADS=1 on a shared machine: the likelihoods' weighted sums are BLAS dot products, which with
OpenBLAS's threads on 2 cores under other agents' load took 5–15 ms each instead of 0.01 ms (both paths).

Figures (twenty-eighth session, shared 2-core machine at load ~5): docs/forecasting.md, "Fit timing". The
forecasts differ by at most 2.2e-8 relative at 10^5 problems: the zero-inflated Beta's BFGS refits on the
self-backtest's thinned data stop elsewhere within their tolerance (their pass@K by 2.4e-8), as they do when only
OpenBLAS's thread count changes (2.8e-10 in the forecast at 20,000 problems).

Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_count_histograms.py [P ...]
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
from _unequal_n import best, design

import passcurve as pc
import passcurve._difficulty as dif

_NEW = {"_beta_sums": dif._beta_sums, "_CHUNK": dif._CHUNK, "_rising_step_mostly_large": dif._rising_step_mostly_large}


def _old_mostly_large(x: np.ndarray, w: np.ndarray, m: np.ndarray, big: np.ndarray) -> np.ndarray:
    """The previous code of _rising_step's mixed branch: select the large x, take max / min of all (w, m)."""
    w, m = np.maximum(w, m), np.minimum(w, m)
    near = ~big & (w < x) & (m * w > 0)
    far = ~(big | near)
    out = np.zeros(x.shape)
    out[big] = dif._chunked(dif._stirling_step, x[big], w[big], m[big])
    if far.any():
        xf, mf = x[far], m[far]
        out[far] = dif._log_rising(xf + w[far], mf) - dif._log_rising(xf, mf)
    if near.any():
        xs, ws, ms = x[near], w[near], m[near]
        up = np.ceil(dif._STIRLING_FROM - xs)
        out[near] = dif._stirling_step(xs + up, ws, ms) - dif._upward_sum(
            xs, up, lambda z, ww, mm: np.log1p(-(mm * ww) / ((z + ww) * (z + mm))), ws, ms)
    return out


_OLD = {"_beta_sums": lambda *args, **kw: None, "_CHUNK": 1 << 62, "_rising_step_mostly_large": _old_mostly_large}


def _use(paths: dict[str, Any]) -> None:
    for k, v in paths.items():
        setattr(dif, k, v)


def main(sizes: list[int]) -> None:
    warnings.simplefilter("ignore")
    for P in sizes:
        counts = pc.Counts.from_arrays(*design(P))
        print(f"{P:,} problems, {dif._pairs(counts.n, counts.c)[0].size:,} distinct pairs")
        runs: dict[str, dict[str, Any]] = {}
        for name, paths in (("new", _NEW), ("old", _OLD), ("new again", _NEW)):
            _use(paths)
            res: dict[str, Any] = {}
            res["forecast"] = best(lambda cs=counts: pc.forecast(cs, [1000, 10000], rng=0).to_frame()[
                ["pass_at_k", "low", "high"]].to_numpy())
            for model in ("beta", "zi_beta", "beta_mixture"):
                res[model] = best(lambda m=model, cs=counts: pc.fit_difficulty(cs, model=m).fits["arrays"][m])
            runs[name] = res
        _use(_NEW)
        new, old = runs["new"], runs["old"]
        f_new, f_old = new["forecast"][2], old["forecast"][2]
        print(f"  {'':28s} {'old cpu (wall) s':>17s} {'new cpu (wall) s':>17s} {'ratio cpu':>9s}  largest difference")
        print(f"  {'forecast, K = 10^3, 10^4':28s} {old['forecast'][0]:7.2f} ({old['forecast'][1]:6.2f}) "
              f"{new['forecast'][0]:7.2f} ({new['forecast'][1]:6.2f}) {old['forecast'][0] / new['forecast'][0]:9.1f}  "
              f"{np.abs(f_new - f_old).max():.1e} absolute in point, low, high "
              f"({np.max(np.abs(f_new - f_old) / np.abs(f_old)):.1e} relative)")
        for model in ("beta", "zi_beta", "beta_mixture"):
            a, b = old[model][2], new[model][2]
            rel = {k: abs(b.params_[k] - v) / abs(v) for k, v in a.params_.items() if v != 0}
            worst = max(rel, key=lambda k: rel[k])
            print(f"  {'fit_difficulty ' + model:28s} {old[model][0]:7.2f} ({old[model][1]:6.2f}) "
                  f"{new[model][0]:7.2f} ({new[model][1]:6.2f}) {old[model][0] / new[model][0]:9.1f}  "
                  f"loglik {abs(b.loglik_ - a.loglik_) / abs(a.loglik_):.1e} relative, parameters "
                  f"{rel[worst]:.1e} ({worst}: {a.params_[worst]:.6g} -> {b.params_[worst]:.6g})")
        again = runs["new again"]
        print(f"  new path run twice: forecast cpu {new['forecast'][0]:.2f} / {again['forecast'][0]:.2f} s "
              f"(machine noise), identical: {np.array_equal(again['forecast'][2], f_new)}", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [20_000, 100_000])
