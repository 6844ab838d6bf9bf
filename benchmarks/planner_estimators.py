"""Which final estimator? Forecast error of pass_D@K by design x estimator on the same final counts.

Companion of ``planner_study.py`` (same designs, same common random numbers, same truth):
every design's final (n, c) is handed to several estimators, so differences between
estimators are paired. Estimators:

* ``posterior``: plug-in empirical Bayes at the Beta prior's posterior mode (the planner's fit,
  hyperprior (α+β)^(-5/2)) -- ``Planner.forecast()["posterior"]``;
* ``mle``: the same at the plain maximum-likelihood Beta fit (no hyperprior);
* ``bayes``: hierarchical Bayes, (α, β) integrated out -- ``hierarchical_pass_at_k``;
* ``zi_beta``: plug-in at the zero-inflated Beta fit (point mass of impossible problems);
* ``npmle``: plug-in at the nonparametric (Kiefer-Wolfowitz) prior, ``GridMixture``;
* ``beta_mixture``: plug-in at a two-component Beta mixture with a point mass at 0
  (``BetaMixtureBinomial``; slow: add it with ``--estimators``).

    PYTHONPATH=src python benchmarks/planner_estimators.py --models "Pythia 160M" --k 1000 --reps 12
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import planner_study as ps  # noqa: E402

import passcurve._planner as _planner  # noqa: E402
from passcurve._adaptive import _fit_beta_binomial, _fit_zi_beta_binomial, _hierarchical_forecast  # noqa: E402
from passcurve._difficulty import BetaMixtureBinomial, GridMixture  # noqa: E402
from passcurve._estimators import pass_at_k  # noqa: E402
from passcurve._planner import Planner  # noqa: E402


def final_counts(method, total, k, rng, *, urn, n0=10, rounds=5, max_n=None):
    """The design of planner_study.run_design, returning the final counts instead of a forecast."""
    rn, rc = urn[0].copy(), urn[1].copy()
    size = rn.size

    def draw(m):
        nonlocal rn, rc
        x = rng.hypergeometric(rc, rn - rc, m)
        rn, rc = rn - m, rc - x
        return x

    method, _, hedge = method.partition("@")
    first = np.full(size, n0)
    pl = Planner(n=first, c=draw(first), k=k, method=method, max_n=max_n, hedge=float(hedge or 0), rng=rng)
    left = total - size * n0
    per_round = int(np.ceil(left / rounds)) if left > 0 else 0
    while left > 0:
        a = pl.allocate(min(per_round, left), horizon=left)
        if a.sum() == 0:
            break
        pl.update_counts(np.arange(size), a, draw(a))
        left -= int(a.sum())
    return pl.n_.copy(), pl.c_.copy()


def _plug_in(log_moment, n, c, k):
    c = c.astype(np.float64)
    d = n - c
    return float(np.mean(-np.expm1(np.minimum(log_moment(c, d + k) - log_moment(c, d), 0.0))))


def estimate(name, n, c, k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if name == "posterior":
            return _plug_in(_fit_beta_binomial(n, c, None, _planner._HYPER)[0].log_moment, n, c, k)
        if name == "mle":
            return _plug_in(_fit_beta_binomial(n, c, None, 0.0)[0].log_moment, n, c, k)
        if name == "bayes":
            return _hierarchical_forecast(n, c, float(k), None, _planner._HYPER)["posterior"]
        if name == "zi_beta":
            return _plug_in(_fit_zi_beta_binomial(n, c, None, _planner._HYPER)[0].log_moment, n, c, k)
        if name == "npmle":
            return _plug_in(GridMixture().fit(n=n, c=c).log_moment, n, c, k)
        if name == "beta_mixture":
            return _plug_in(BetaMixtureBinomial(2, True).fit(n=n, c=c).log_moment, n, c, k)
    raise ValueError(name)


def gof_check(args):
    """Would a model-check gate fire? Pearson p-values of the beta-binomial fit (fit_difficulty's
    goodness_of_fit) on uniform subsamples of n = 10, 100, 400 per problem, 8 draws each."""
    import pandas as pd

    from passcurve import DEMO_MODELS, simulate
    from passcurve._difficulty import BetaBinomial

    d = pd.read_csv(ps.DATA)
    specs = {s.name: s for s in DEMO_MODELS}
    for src in [*[m for m in args.models.split(",") if m], "tiny-1b", "chat-7b"]:
        for n0 in (10, 100, 400):
            pv = []
            for r in range(8):
                rng = np.random.default_rng(r)
                if src in specs:
                    c = rng.binomial(n0, simulate(problems=128, n=1, models=[specs[src]], rng=10_000 + r).p)
                else:
                    g = d[d.model == src]
                    c = rng.hypergeometric(g.c.to_numpy(), (g.n - g.c).to_numpy(), n0)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    fit = BetaBinomial().fit(n=np.full(c.size, n0), c=c)
                pv.append(fit.goodness_of_fit()["p_value"])
            print(f"{src:12s} n={n0:4d}  p-values " + " ".join(f"{v:.3f}" for v in pv))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=12)
    ap.add_argument("--methods", default="uniform,fewest-successes,variance-optimal,hierarchical")
    ap.add_argument("--estimators", default="posterior,mle,bayes,zi_beta,npmle")
    ap.add_argument("--models", default="Pythia 12B,Pythia 160M")
    ap.add_argument("--k", default="1000,10000")
    ap.add_argument("--navg", default="100,400")
    ap.add_argument("--greedy-rounds", type=int, default=100)
    ap.add_argument("--gof", action="store_true", help="only: goodness-of-fit p-values of the Beta fit")
    args = ap.parse_args(argv)
    _planner._MAX_ROUNDS = args.greedy_rounds
    if args.gof:
        return gof_check(args)
    ests = [e for e in args.estimators.split(",") if e]
    import pandas as pd

    d = pd.read_csv(ps.DATA)
    for model in [m for m in args.models.split(",") if m]:
        g = d[d.model == model]
        un, uc = g.n.to_numpy(), g.c.to_numpy()
        for k in (int(v) for v in args.k.split(",")):
            truth = float(pass_at_k(un, uc, k).mean())
            for navg in (int(v) for v in args.navg.split(",")):
                t0 = time.time()
                print(f"\n## pythia/{model}  K={k}  budget {navg}/problem  reps={args.reps}  (RMSE / bias)")
                print(f"{'design':24s}" + "".join(f"{e:>20s}" for e in ests))
                for method in args.methods.split(","):
                    for mult in ps.UNIFORM_MULTS if method == "uniform" else (1,):
                        errs = {e: [] for e in ests}
                        for r in range(args.reps):
                            rng = np.random.default_rng([0, r, int(mult * 10)])  # as planner_study
                            n, c = final_counts(
                                method, un.size * navg * mult, k, rng, urn=(un, uc), max_n=int(un.min())
                            )
                            for e in ests:
                                errs[e].append(estimate(e, n, c, k) - truth)
                        print(
                            f"{method + ' x' + str(mult):24s}"
                            + "".join(f"{ps.rmse(v):11.4f}{np.mean(v):+9.4f}" for v in errs.values())
                        )
                print(f"({time.time() - t0:.0f}s)")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
