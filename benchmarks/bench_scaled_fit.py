"""Speed of the scaled Beta's maximum-likelihood fit on 10^4 problems × n = 10^4, and where the time goes.

The counts are drawn here with a seeded numpy Generator: p = s·u, u ~ Beta(a, b), c ~ Binomial(10^4, p),
for a few truths (a Pythia-like heavy left tail, a small scale, b < 1). For each the script fits
:class:`passcurve.ScaledBetaBinomial` and reports

* the number of distinct (n, c) pairs, the likelihood evaluations with and without gradient, and the
  time in the optimiser (``_optimize``) and in the standard errors (``_finish``: numerical Hessian);
* the cost of one evaluation of the negative log-likelihood with and without gradient at the optimum;
* the same for the old path in the same process (every pair by the Pfaff series) against the default,
  which takes each distinct n as one whole row by the backward recurrence when that is cheaper
  (``ScaledBetaBinomial._plan``), with the ratio of the times and how far apart the two fits' parameters
  and log-likelihoods are.

Run:  PYTHONPATH=src python benchmarks/bench_scaled_fit.py
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from passcurve import ScaledBetaBinomial
from passcurve._difficulty import _log_binom, _pairs

TRUTHS = ((0.6, 0.3, 3.0), (0.2, 0.25, 12.0), (0.9, 0.4, 0.7))


class _Counted:
    """Counts the likelihood evaluations and times fit's two stages on one model class."""

    def __init__(self, cls: type) -> None:
        self.calls = {"grad": 0, "value": 0}
        self.times = {"optimize": 0.0, "finish": 0.0}
        calls, times = self.calls, self.times

        class Counted(cls):  # type: ignore[misc, valid-type]
            def _negloglik_grad(self, *args: Any) -> Any:
                calls["grad"] += 1
                return super()._negloglik_grad(*args)

            def _negloglik(self, *args: Any) -> Any:
                calls["value"] += 1
                return super()._negloglik(*args)

            def _optimize(self, *args: Any) -> Any:
                t = time.perf_counter()
                try:
                    return super()._optimize(*args)
                finally:
                    times["optimize"] += time.perf_counter() - t

            def _finish(self, *args: Any) -> None:
                t = time.perf_counter()
                try:
                    super()._finish(*args)
                finally:
                    times["finish"] += time.perf_counter() - t

        self.cls = Counted


def _per_eval(m: Any, theta: np.ndarray, pn: np.ndarray, pc: np.ndarray, pw: np.ndarray, reps: int = 3) -> tuple[float, float]:
    lb = _log_binom(pn, pc)
    out = []
    for f in (m._negloglik_grad, m._negloglik):
        f(theta, pn, pc, pw, lb)  # a plan or cache built on the first call is not timed
        t = time.perf_counter()
        for _ in range(reps):
            f(theta, pn, pc, pw, lb)
        out.append((time.perf_counter() - t) / reps)
    return out[0], out[1]


def run(classes: dict[str, type], problems: int = 10_000, n: int = 10_000, seed: int = 23) -> None:
    gen = np.random.default_rng(seed)
    print(f"scaled Beta fit, {problems} problems × n = {n} (shared 2-core machine)")
    for s, a, b in TRUTHS:
        c = gen.binomial(n, s * gen.beta(a, b, problems))
        nn = np.full(problems, n)
        pn, pc, pw = _pairs(nn, c)
        print(f"\ntruth s={s}, Beta({a}, {b}): {pn.size} distinct (n, c) pairs")
        fits = {}
        for label, cls in classes.items():
            counted = _Counted(cls)
            t = time.perf_counter()
            f = counted.cls().fit(n=nn, c=c)
            total = time.perf_counter() - t
            t_grad, t_val = _per_eval(f, f._theta, pn, pc, pw)
            fits[label] = (f, total)
            print(f"  {label:>7}: fit {total:6.2f} s (optimiser {counted.times['optimize']:.2f} s, standard errors "
                  f"{counted.times['finish']:.2f} s); {counted.calls['grad']} evaluations with gradient, "
                  f"{counted.calls['value']} without; one evaluation {t_grad * 1e3:.1f} ms with gradient, "
                  f"{t_val * 1e3:.1f} ms without; {f.message_}")
        labels = list(fits)
        if len(labels) == 2:
            (f0, t0), (f1, t1) = fits[labels[0]], fits[labels[1]]
            rel = max(abs(f0.params_[k] / f1.params_[k] - 1.0) for k in f0.params_)
            print(f"  {labels[0]} / {labels[1]}: {t0 / t1:.1f}x the time; parameters agree to {rel:.1e} (relative), "
                  f"log-likelihoods differ by {f0.loglik_ - f1.loglik_:+.1e}; "
                  + ", ".join(f"{k} {v:.6g}" for k, v in f0.params_.items()))


class _SeriesScaledBeta(ScaledBetaBinomial):
    """The old path: every distinct (n, c) pair by the Pfaff series (no whole rows)."""

    _row_rule = "series"


class _RowsScaledBeta(ScaledBetaBinomial):
    """Every distinct n as a whole row, whatever it costs."""

    _row_rule = "rows"


def cost_rule(problems: int = 10_000, seed: int = 29) -> None:
    """One evaluation with gradient by rows only, by the series only and by the cost rule ("auto"), on
    10^4 problems whose n take 1 to 3,000 distinct values in [1000, 10^4]: the rule should follow the faster."""
    gen = np.random.default_rng(seed)
    theta = np.array([np.log(0.6 / 0.4), np.log(0.3), np.log(3.0)])
    print(f"\ncost rule: one evaluation with gradient, {problems} problems, truth s=0.6, Beta(0.3, 3), n in [1000, 10^4]")
    for distinct in (1, 10, 100, 1000, 3000):
        values = gen.choice(np.arange(1000, 10_001), distinct, replace=False)
        n = gen.choice(values, problems)
        c = gen.binomial(n, 0.6 * gen.beta(0.3, 3.0, problems))
        pn, pc, pw = _pairs(n, c)
        lb = _log_binom(pn, pc)
        out = {}
        for label, cls in (("rows", _RowsScaledBeta), ("series", _SeriesScaledBeta), ("auto", ScaledBetaBinomial)):
            m = cls()
            m._negloglik_grad(theta, pn, pc, pw, lb)  # the plan
            t = time.perf_counter()
            m._negloglik_grad(theta, pn, pc, pw, lb)
            out[label] = time.perf_counter() - t
        chosen = len(m._plan_cache[3][0])
        print(f"  {distinct:5d} distinct n, {pn.size:5d} distinct pairs: rows {out['rows'] * 1e3:7.1f} ms, series "
              f"{out['series'] * 1e3:7.1f} ms, auto {out['auto'] * 1e3:7.1f} ms ({chosen} of {distinct} n as rows)")


def main() -> None:
    cost_rule()
    run({"series": _SeriesScaledBeta, "rows": ScaledBetaBinomial})


if __name__ == "__main__":
    main()
