"""Speed of the scaled Beta's fit on many problems with unequal n: its likelihood's rows advanced in lockstep.

Design (as ``bench_count_histograms.py``): P problems, n uniform integers in [100, 1000], c ~ beta-binomial(n, 0.3, 3)
(numpy, seed 12345); 10^5 problems have 51,189 distinct (n, c) pairs over 901 distinct n, about 57 pairs per n.

The fit's likelihood takes each n either as one whole row (the backward recurrence of the ratios M(c+1)/M(c), O(n)
per distinct n, a scalar Python loop of ~0.5 µs a step) or pair by pair by the Pfaff series (O(sqrt(n)) terms per
pair); at ~57 pairs of ~70 terms against a row of 8n term-equivalents plus a fixed cost, the cost rule gave every n
here to the series at the fit's starting point (at the point timed below, s = 0.88, it gave 872 of the 901 n single
rows). Now the rows of many n are advanced in lockstep, one numpy operation per step t for every n
still running (``_difficulty._block_loglik``): the same floating-point operations on each ratio as the scalar loop,
so only the order of the final sums differs. ``_difficulty._lockstep_rows`` chooses the n (none where it does not
pay). Baseline in the same process: ``_lockstep_rows`` returning no n, which is the plan the fit made before.

Printed: one evaluation of the negative log-likelihood and of it with its gradient at a fixed point (best of five),
the scaled Beta's fit and ``fit_difficulty`` with every model (best of two), CPU seconds (the figure to read on a
shared machine) and wall, and the largest differences. Run with OPENBLAS_NUM_THREADS=1 on a shared machine (see
``bench_count_histograms.py``).

Figures (thirtieth session, shared 2-core machine): docs/forecasting.md, "Fit timing" ("The scaled Beta's rows in
lockstep") and "What is weak" ("Many problems with unequal n", "The scaled Beta's fit with many distinct n").

Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/bench_lockstep_rows.py [P ...]
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
from _unequal_n import best, design

import passcurve as pc
import passcurve._difficulty as dif

_NEW = dif._lockstep_rows


def _none(ns: np.ndarray, series_cost: np.ndarray, alone: np.ndarray) -> np.ndarray:
    return np.zeros(ns.size, dtype=bool)


class _Series(dif.ScaledBetaBinomial):
    _row_rule = "series"


class _Lockstep(dif.ScaledBetaBinomial):
    _row_rule = "lockstep"


def cost_rule() -> None:
    """One evaluation with gradient (CPU ms, best of three) on 10^4 problems (10^5 in one case) whose n take 1 to
    3,000 distinct values in a range: every pair by the series, every n in lockstep (in as many blocks as the cell
    budget needs), and the plan before (rows one by one or the series, per n) and now. The rule should follow the
    faster, and never lose to the plan before."""
    gen = np.random.default_rng(29)
    theta = np.array([np.log(0.6 / 0.4), np.log(0.3), np.log(3.0)])
    print("cost rule: one evaluation with gradient, truth s = 0.6, Beta(0.3, 3), CPU ms")
    for lo, hi, problems in ((100, 1000, 10_000), (100, 1000, 100_000), (1000, 10_000, 10_000),
                             (10_000, 100_000, 10_000)):
        for distinct in (1, 10, 100, 1000, 3000):
            if distinct > hi - lo + 1:
                continue
            values = gen.choice(np.arange(lo, hi + 1), distinct, replace=False)
            n = gen.choice(values, problems)
            c = gen.binomial(n, 0.6 * gen.beta(0.3, 3.0, problems))
            pn, pcs, pw = dif._pairs(n, c)[:3]
            args = (theta, pn, pcs, pw, dif._log_binom(pn, pcs))
            out, rows = {}, []
            for label, cls, rule in (("series", _Series, _NEW), ("lockstep", _Lockstep, _NEW),
                                     ("before", dif.ScaledBetaBinomial, _none), ("now", dif.ScaledBetaBinomial, _NEW)):
                if label == "lockstep" and lo >= 10_000 and distinct >= 1000:
                    out[label] = np.nan  # 18-50 s
                    continue
                dif._lockstep_rows = rule
                m = cls()
                m._negloglik_grad(*args)  # the plan
                out[label] = best(lambda m=m, args=args: m._negloglik_grad(*args), 3)[0]
                rows = m._plan_cache[3][0]
            dif._lockstep_rows = _NEW
            print(f"  n in [{lo}, {hi}], {problems:,} problems, {distinct:4d} n ({pn.size:5d} pairs): "
                  + ", ".join(f"{k} {v * 1e3:6.1f}" for k, v in out.items())
                  + f"; now {len(rows)} n as rows, {sum(r.lockstep for r in rows)} in lockstep", flush=True)


def main(sizes: list[int]) -> None:
    warnings.simplefilter("ignore")
    cost_rule()
    for P in sizes:
        counts = pc.Counts.from_arrays(*design(P))
        pn, pcs, pw = dif._pairs(counts.n, counts.c)[:3]
        lb = dif._log_binom(pn, pcs)
        theta = np.array([2.0, np.log(0.3), np.log(3.0)])
        print(f"{P:,} problems, {pn.size:,} distinct pairs, {np.unique(pn).size} distinct n")
        runs: dict[str, dict[str, Any]] = {}
        for name, rule in (("new", _NEW), ("old", _none), ("new again", _NEW)):
            dif._lockstep_rows = rule
            m = dif.ScaledBetaBinomial()
            rows, ser, _ = m._plan(theta, pn, pcs, pw)
            res: dict[str, Any] = {"plan": (sum(r.lockstep for r in rows), len(rows), ser.size)}
            args = (theta, pn, pcs, pw, lb)
            res["value"] = best(lambda m=m, args=args: m._negloglik(*args), 5)
            res["gradient"] = best(lambda m=m, args=args: m._negloglik_grad(*args), 5)
            res["scaled_beta fit"] = best(lambda cs=counts: dif.ScaledBetaBinomial().fit(cs))
            res["fit_difficulty"] = best(lambda cs=counts: pc.fit_difficulty(cs), 1)
            runs[name] = res
        dif._lockstep_rows = _NEW
        new, old = runs["new"], runs["old"]
        for name in ("new", "old"):
            lock, nrows, nser = runs[name]["plan"]
            print(f"  {name} plan: {nrows} n as rows ({lock} of them in lockstep), {nser:,} pairs by the series")
        print(f"  {'':34s} {'old cpu (wall) s':>17s} {'new cpu (wall) s':>17s} {'ratio cpu':>9s}  largest difference")
        for key in ("value", "gradient", "scaled_beta fit", "fit_difficulty"):
            a, b = old[key], new[key]
            if key == "value":
                diff = f"{abs(b[2] - a[2]) / abs(a[2]):.1e} relative"
            elif key == "gradient":
                diff = (f"value {abs(b[2][0] - a[2][0]) / abs(a[2][0]):.1e} relative, gradient "
                        f"{np.abs(b[2][1] - a[2][1]).max() / np.abs(a[2][1]).max():.1e} of its largest")
            else:
                fa = a[2] if key == "scaled_beta fit" else a[2].fits["arrays"]["scaled_beta"]
                fb = b[2] if key == "scaled_beta fit" else b[2].fits["arrays"]["scaled_beta"]
                rel = {k: abs(fb.params_[k] - v) / abs(v) for k, v in fa.params_.items()}
                worst = max(rel, key=lambda k: rel[k])
                diff = (f"loglik {abs(fb.loglik_ - fa.loglik_) / abs(fa.loglik_):.1e} relative "
                        f"({fb.loglik_ - fa.loglik_:+.1e}), {worst} {rel[worst]:.1e}")
                if key == "fit_difficulty":
                    same = [m for m in a[2].fits["arrays"] if m != "scaled_beta"
                            and a[2].fits["arrays"][m].loglik_ == b[2].fits["arrays"][m].loglik_]
                    diff += f"; other models' loglik identical: {', '.join(same)}"
            label = f"{key} ({'one evaluation' if key in ('value', 'gradient') else 'CPU best of runs'})"
            print(f"  {label:34s} {a[0]:7.3f} ({a[1]:6.3f}) {b[0]:7.3f} ({b[1]:6.3f}) {a[0] / b[0]:9.1f}  {diff}")
        again = runs["new again"]
        print(f"  new path run twice: scaled_beta fit cpu {new['scaled_beta fit'][0]:.2f} / "
              f"{again['scaled_beta fit'][0]:.2f} s (machine noise)", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [20_000, 100_000])
