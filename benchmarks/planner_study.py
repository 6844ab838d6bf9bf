"""Simulation study: forecast error of pass_D@K at equal total budget, planned vs uniform sampling.

Two sources of per-problem outcomes:

* ``pythia``: ../shared/data/pythia_math_counts.csv (Brown et al. 2024). Each problem's c of
  n = 10,000 recorded outcomes is an urn; a design draws from it WITHOUT replacement, so an
  adaptive design replays real outcomes. The truth is the full-data value
  mean_i pass_at_k(10000, c_i, K) (Chen's estimator on all 10,000 samples; a subsample's
  Chen estimate is unbiased for it).
* ``synthetic``: passcurve.simulate's demo models (zero-inflated Beta difficulty, 128
  problems); outcomes are fresh Bernoulli(p_i) draws; the truth is mean_i 1-(1-p_i)^K.
* ``pythia-beta`` (``--pythia-beta``): for each Pythia model, 128 problems with p_i drawn from the
  Beta fitted to that model's counts (maximum likelihood), fresh Bernoulli draws. The Beta prior
  is then exactly right, in Pythia's parameter region: it separates "the model is wrong about the
  tail" from "this regime (hard problems, K far beyond the budget) is hard to plan for".

Every design starts with ``n0`` samples per problem, then spends the rest of the budget in
``rounds`` equal rounds, each allocated by the method from all outcomes so far (the
planner is refitted every round). Every design ends with the same two estimators: the
empirical-Bayes posterior mean of pass_D@K under a refitted beta-binomial prior
("posterior") and the hierarchical-Bayes posterior mean with the prior integrated out
("bayes"); both likelihood-based, so valid under adaptive sampling. A method written
``rule@share`` (e.g. ``hierarchical@0.5``) runs the rule with the defensive share
``hedge=share``. Uniform sampling is also run at
1x, 2x, 4x and 8x the budget; the "samples ratio" is the budget uniform needs to reach a method's
error (first crossing of uniform's measured error curve, log-log interpolation; "> 8" when uniform
does not get there within 8x), divided by the method's budget.

Reproduce (about an hour on one core; the pythia and synthetic halves can run in parallel
with ``--synthetic ''`` and ``--models ''``):

    PYTHONPATH=src python benchmarks/planner_study.py

and a quick look (about 2 minutes):

    PYTHONPATH=src python benchmarks/planner_study.py --quick
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from backtest_simulated import exact_pass_at_k

import passcurve._planner as _planner
from passcurve import DEMO_MODELS, simulate
from passcurve._estimators import pass_at_k
from passcurve._planner import Planner

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "pythia_math_counts.csv"
UNIFORM_MULTS = (1, 2, 4, 8)
# final estimators, applied to every design: the plug-in empirical-Bayes posterior at the fitted
# prior ("posterior") and the hierarchical-Bayes posterior with the prior integrated out ("bayes")
ESTIMATORS = ("posterior", "bayes")


def run_design(method, total, k, rng, *, urn=None, p=None, n0=10, rounds=5, max_n=None, prior="beta"):
    """Spend ``total`` samples (per model) with ``method``; return the planner's forecast dict."""
    if urn is not None:
        rn, rc = urn[0].copy(), urn[1].copy()
        size = rn.size

        def draw(m):
            nonlocal rn, rc
            x = rng.hypergeometric(rc, rn - rc, m)
            rn = rn - m
            rc = rc - x
            return x
    else:
        size = p.size

        def draw(m):
            return rng.binomial(m, p)

    first = np.full(size, n0)
    method, _, hedge = method.partition("@")  # "rule@share": the planner's defensive share
    pl = Planner(
        n=first, c=draw(first), k=k, method=method, max_n=max_n, prior=prior, hedge=float(hedge or 0), rng=rng
    )
    left = total - size * n0
    per_round = int(np.ceil(left / rounds)) if left > 0 else 0
    while left > 0:
        b = min(per_round, left)
        a = pl.allocate(b, horizon=left)
        if a.sum() == 0:
            break
        pl.update_counts(np.arange(size), a, draw(a))
        left -= int(a.sum())
    return pl.forecast()


def rmse(err):
    err = np.asarray(err)
    return float(np.sqrt(np.mean(err**2)))


def samples_ratio(target, budgets, errors):
    """Budget uniform needs to reach ``target`` RMSE, divided by budgets[0] (measured, not extrapolated).

    Walks uniform's measured error curve (1x, 2x, 4x, 8x) to its first point at or below
    ``target`` and interpolates log-log with the point before. Returns 1.0 when the method
    is no better than uniform at 1x, and inf when uniform never reaches ``target`` within
    the measured range (reported as "> 8").
    """
    lb, le = np.log(budgets), np.log(errors)
    lt = np.log(target)
    if lt >= le[0]:
        return 1.0
    for j in range(1, len(budgets)):
        if le[j] <= lt:
            t = (lt - le[j - 1]) / (le[j] - le[j - 1])
            return float(np.exp(lb[j - 1] + t * (lb[j] - lb[j - 1]) - lb[0]))
    return float("inf")


def study(
    name,
    k,
    navg,
    reps,
    methods,
    *,
    urn=None,
    p_fn=None,
    truth_fn=None,
    max_n=None,
    seed=0,
    prior="beta",
    rounds=5,
):
    size = urn[0].size if urn is not None else p_fn(0).size
    base = size * navg
    res = {}
    mults = [m for m in UNIFORM_MULTS if max_n is None or m * navg <= max_n]
    t0 = time.time()
    for method in ["uniform", *methods]:
        for mult in mults if method == "uniform" else [1]:
            errs: dict[str, list[float]] = {e: [] for e in ESTIMATORS}
            chen: list[float] = []  # uniform only: Chen's unbiased estimator (None when K > n)
            for r in range(reps):
                rng = np.random.default_rng([seed, r, int(mult * 10)])  # common random numbers across methods
                p = None if p_fn is None else p_fn(r)
                truth = truth_fn(p)
                f = run_design(
                    method, int(base * mult), k, rng, urn=urn, p=p, max_n=max_n, prior=prior, rounds=rounds
                )
                for e in ESTIMATORS:
                    errs[e].append(f[e] - truth)
                if method == "uniform" and f["naive"] is not None:
                    chen.append(f["naive"] - truth)
            res[(method, mult)] = {e: (rmse(v), float(np.mean(v))) for e, v in errs.items()}
            if chen:
                res[(method, mult)]["chen"] = (rmse(chen), float(np.mean(chen)))
    print(
        f"\n## {name}  K={k}  budget {navg}/problem x {size} problems  reps={reps}  ({time.time() - t0:.0f}s)"
    )
    ub = np.array([base * m for m in mults], dtype=float)
    rows = []
    # where K <= uniform's n, uniform can also use Chen's unbiased estimator (no model at all); a plan has
    # to beat that too, so it is printed and kept in each row (None where K > n)
    chen_1x = res[("uniform", 1)].get("chen", (None, None))[0]
    if chen_1x is not None:
        print("[chen, uniform only] uniform RMSE by budget: "
              + "  ".join(f"{m}x {res[('uniform', m)]['chen'][0]:.4f}" for m in mults if "chen" in res[("uniform", m)])
              + f"  (bias at 1x {res[('uniform', 1)]['chen'][1]:+.4f})")
    for est in ESTIMATORS:
        ue = np.array([res[("uniform", m)][est][0] for m in mults])
        slope = np.polyfit(np.log(ub), np.log(ue), 1)[0]
        print(
            f"[{est}] uniform RMSE by budget: "
            + "  ".join(f"{m}x {res[('uniform', m)][est][0]:.4f}" for m in mults)
            + f"  (log-log slope {slope:.2f}; bias at 1x {res[('uniform', 1)][est][1]:+.4f})"
        )
        print(
            f"{'method':22s} {'RMSE':>8s} {'bias':>8s} {'uniform':>8s} {'err ratio':>9s} {'samples ratio':>13s}"
        )
        for method in methods:
            e, bias = res[(method, 1)][est]
            row = {
                "source": name,
                "k": k,
                "navg": navg,
                "estimator": est,
                "method": method,
                "rmse": e,
                "bias": bias,
                "uniform_rmse": [float(v) for v in ue],
                "error_ratio": ue[0] / e,
                "samples_ratio": samples_ratio(e, ub, ue),
                "uniform_chen_rmse": chen_1x,
            }
            rows.append(row)
            sr = row["samples_ratio"]
            srs = f">{mults[-1]}" if sr == float("inf") else f"{sr:.2f}"
            print(f"{method:22s} {e:8.4f} {bias:+8.4f} {ue[0]:8.4f} {row['error_ratio']:9.2f} {srs:>13s}")
    sys.stdout.flush()
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="few reps, few settings")
    ap.add_argument("--methods", default="fewest-successes,variance-optimal,passcurve,hierarchical")
    ap.add_argument("--models", default="Pythia 12B,Pythia 160M")
    ap.add_argument("--k", default="1000,10000")
    ap.add_argument("--navg", default="100,400")
    ap.add_argument("--synthetic", default="tiny-1b,chat-7b", help="demo models to simulate ('' for none)")
    ap.add_argument("--prior", default="beta", help="planner prior and final estimator: beta or zi_beta")
    ap.add_argument("--seed", type=int, default=0, help="first entry of every replicate's seed")
    ap.add_argument("--rounds", type=int, default=5, help="planning rounds after the first 10 per problem")
    ap.add_argument("--json", default="", help="also write every result row to this JSON file")
    ap.add_argument("--greedy-rounds", type=int, default=100, help="passcurve rule: greedy rounds per call")
    ap.add_argument("--pythia-beta", action="store_true",
                    help="simulate from each --models model's fitted Beta instead of replaying its outcomes")
    ap.add_argument("--oracle-prior", action="store_true",
                    help="with --pythia-beta: plan and estimate with the true Beta held fixed (no prior fit)")
    args = ap.parse_args(argv)
    _planner._MAX_ROUNDS = args.greedy_rounds
    methods = [m for m in args.methods.split(",") if m]
    ks = [int(v) for v in args.k.split(",")]
    navgs = [int(v) for v in args.navg.split(",")]
    models = [m for m in args.models.split(",") if m]
    synth = [m for m in args.synthetic.split(",") if m]
    reps = args.reps
    if args.quick:
        reps, ks, navgs, models, synth = 6, [1000], [100], models[:1], synth[:1]
    print(f"planner study: methods {methods}, reps {reps}, prior {args.prior}")
    allrows: list[dict] = []
    if DATA.exists() and models and args.pythia_beta:
        import pandas as pd

        from passcurve import BetaBinomial

        d = pd.read_csv(DATA)
        for model in models:
            g = d[d.model == model]
            fit = BetaBinomial().fit(n=g.n.to_numpy(), c=g.c.to_numpy()).params_
            a, b = fit["alpha"], fit["beta"]

            def beta_p(r, a=a, b=b):
                return np.random.default_rng(20_000 + r).beta(a, b, 128)

            for k in ks:
                for navg in navgs:
                    allrows += study(
                        f"pythia-beta/{model} (alpha={a:.3f}, beta={b:.2f})"
                        + (", true prior held fixed" if args.oracle_prior else ""),
                        k,
                        navg,
                        reps,
                        methods,
                        p_fn=beta_p,
                        truth_fn=lambda p, k=k: exact_pass_at_k(p, k),
                        prior=(a, b) if args.oracle_prior else args.prior,
                        rounds=args.rounds,
                        seed=args.seed,
                    )
    elif DATA.exists() and models:
        import pandas as pd

        d = pd.read_csv(DATA)
        for model in models:
            g = d[d.model == model]
            un, uc = g.n.to_numpy(), g.c.to_numpy()
            for k in ks:
                truth = float(pass_at_k(un, uc, k).mean())
                for navg in navgs:
                    allrows += study(
                        f"pythia/{model}",
                        k,
                        navg,
                        reps,
                        methods,
                        urn=(un, uc),
                        truth_fn=lambda _p, t=truth: t,
                        max_n=int(un.min()),
                        prior=args.prior,
                        rounds=args.rounds,
                        seed=args.seed,
                    )
    specs = {s.name: s for s in DEMO_MODELS}
    for name in synth:
        spec = specs[name]

        def p_fn(r, spec=spec):
            return simulate(problems=128, n=1, models=[spec], rng=10_000 + r).p

        for k in ks:
            for navg in navgs:
                allrows += study(
                    f"synthetic/{name} (alpha={spec.alpha}, beta={spec.beta}, impossible={spec.impossible})",
                    k,
                    navg,
                    reps,
                    methods,
                    p_fn=p_fn,
                    truth_fn=lambda p, k=k: exact_pass_at_k(p, k),
                    prior=args.prior,
                    rounds=args.rounds,
                    seed=args.seed,
                )

    if args.json:
        import json

        Path(args.json).write_text(json.dumps(allrows, indent=1, default=float))


if __name__ == "__main__":
    main()
