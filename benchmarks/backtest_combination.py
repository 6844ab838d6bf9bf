"""How should the self-backtest errors weight the candidates?  Compare combination rules.

For each run, caches every candidate's forecast, the truth, and the per-thinning self-backtest errors
(R = 10 thinnings to a tenth of the samples), then scores rules offline:
  inverse-MSE (R=5 and R=10), select-best, equal weights, inverse-MSE shrunk toward equal weights
  by the noise of the estimated MSEs, the paired rule passcurve uses (only thinnings on which every
  candidate forecasts; equal weights below two), with and without empirical-Bayes shrinkage of the
  log weights, and covariance-aware minimum-variance weights (Bates & Granger 1969 with the full
  matrix of the thinnings' errors, weights >= 0). --save/--load cache the records so that further rules
  can be scored without refitting. --oracle adds the best *fixed* weights in hindsight (a bound on what
  any weighting of these candidates can achieve) and a paired bootstrap of equal vs passcurve's weights.
The rule is chosen on the simulated scenarios (known truth) only; Pythia is reported, not used to choose.

Run:  PYTHONPATH=src python benchmarks/backtest_combination.py [--seeds 4] [--problems 128,300] [--hard] [--pythia]
"""

from __future__ import annotations

import argparse
import itertools
import warnings

import numpy as np
from backtest_pythia import DATA, load, thinned
from backtest_simulated import HARD_SCENARIOS, SCENARIOS, draw  # noqa: E402

from passcurve import BetaBinomial, Counts
from passcurve._curves import mean_curve
from passcurve._forecast import AUTO_CANDIDATES, _Candidate, thin_counts

CANDS = AUTO_CANDIDATES


def predict_candidates(n, c, K, methods=CANDS):
    """Each method's forecast of pass@K from (n, c) (default: auto's candidates); NaN where one cannot forecast."""
    out = np.full(len(methods), np.nan)
    for j, cnd in enumerate(methods):
        try:
            out[j] = float(_Candidate(cnd, n, c, None).predict(np.array([float(K)]))[0])
        except Exception:  # noqa: BLE001 - an undefined forecast is recorded as NaN
            pass
    return out


def cv_errors(n, c, R, gen, predict=predict_candidates, factor=10):
    """The self-backtest: R thinnings to 1/factor, each candidate's error in forecasting pass@min(n)."""
    K = int(n.min())
    m = np.maximum(n // factor, 1)
    truth = float(mean_curve(n, c, np.array([K]))[0][0])
    return np.array([predict(*thin_counts(n, c, m, gen), K) for _ in range(R)]) - truth


def run(n, c, K, truth, gen, R=10, predict=predict_candidates):
    return {"pred": predict(n, c, K), "truth": truth, "cv": cv_errors(n, c, R, gen, predict)}


def combine_paired(p, E, shrink):
    """Inverse-MSE on paired thinnings; equal weights below 2; optional EB shrinkage of log weights."""
    if E.shape[0] < 2:
        return float(np.mean(p))
    e2 = np.maximum(E**2, 1e-8)
    mse = e2.mean(axis=0)
    lw = -np.log(mse)
    if shrink:
        v = e2.var(axis=0, ddof=1) / (E.shape[0] * mse**2)  # delta-method var of log MSE
        between = lw.var(ddof=1)
        lam = max(0.0, 1.0 - float(v.mean()) / between) if between > 0 else 0.0
        lw = lw.mean() + lam * (lw - lw.mean())
    w = np.exp(lw - lw.max())
    return float(w @ p / w.sum())


def min_variance(p, E):
    """Weights w >= 0, sum 1, minimising w' S w with S the second-moment matrix of the paired errors."""
    if E.shape[0] < 2:
        return float(np.mean(p))
    S = E.T @ E / E.shape[0] + 1e-12 * np.eye(E.shape[1])
    best = None
    for size in range(1, S.shape[0] + 1):
        for sub in itertools.combinations(range(S.shape[0]), size):
            x = np.linalg.solve(S[np.ix_(sub, sub)], np.ones(size))
            if np.all(x > 0):
                w = np.zeros(S.shape[0])
                w[list(sub)] = x / x.sum()
                if best is None or w @ S @ w < best[0]:
                    best = (w @ S @ w, w)
    return float(best[1] @ p)


def ls_unless_rejected(p, E, alpha=0.05):
    """Least squares (the paper's law as the null) unless a paired one-sided t-test over the thinnings says
    another candidate's squared error is smaller at level alpha; then the paired inverse-MSE rule."""
    from scipy import stats

    if not np.isfinite(p[0]):
        return combine_paired(p, E, False) if E.shape[0] >= 2 else float(np.nanmean(p))
    if E.shape[0] < 2:
        return float(p[0])
    d = E[:, 1:] ** 2 - E[:, [0]] ** 2
    t = d.mean(0) / np.maximum(d.std(0, ddof=1) / np.sqrt(d.shape[0]), 1e-12)
    return combine_paired(p, E, False) if np.any(t < stats.t.ppf(alpha, d.shape[0] - 1)) else float(p[0])


def rules(rec):
    p, cv = rec["pred"], rec["cv"]
    out = {}
    for name, E in (("invmse5", cv[:5]), ("invmse10", cv)):
        mse = np.nanmean(E**2, axis=0)
        w = 1 / np.maximum(mse, 1e-6)
        out[name] = float(w @ p / w.sum())
    mse = np.nanmean(cv**2, axis=0)
    out["select"] = float(p[np.nanargmin(mse)])
    out["equal"] = float(np.mean(p))
    # shrink: add the sampling variance of each MSE estimate (var of e^2 / R) before inverting
    R = np.sum(np.isfinite(cv), axis=0)
    vmse = np.nanvar(cv**2, axis=0, ddof=1) / np.maximum(R, 1)
    w = 1 / np.maximum(mse + np.sqrt(vmse), 1e-6)
    out["invmse_shrunk"] = float(w @ p / w.sum())
    # paired: only thinnings on which every candidate produced a forecast (identical data for all)
    ok = np.isfinite(cv).all(axis=1)
    out["paired"] = combine_paired(p, cv[ok], shrink=False)
    out["paired_shrunk"] = combine_paired(p, cv[ok], shrink=True)
    out["paired_shrunk5"] = combine_paired(p, cv[:5][ok[:5]], shrink=True)
    fin = np.isfinite(p)
    out["min_variance"] = min_variance(p[fin], cv[ok][:, fin]) if fin.any() else float("nan")
    out["ls_unless_rejected"] = ls_unless_rejected(p, cv[ok])
    for j, cnd in enumerate(CANDS):
        out[cnd] = float(p[j])
    return {k: v - rec["truth"] for k, v in out.items()}


def report(title, recs):
    errs = [rules(r) for r in recs]
    names = list(errs[0])
    print(title, f"({len(recs)} runs): median |error| in points")
    print("  " + "  ".join(f"{nm}={100 * np.median(np.abs([e[nm] for e in errs])):.2f}" for nm in names))


def oracle(title, recs, gen):
    """Best fixed weights in hindsight, and a paired bootstrap of equal weights vs the paired rule."""
    P = np.array([r["pred"] for r in recs])
    P = np.where(np.isfinite(P), P, P[:, [1]])  # an undefined least squares counts as the Beta's forecast
    T = np.array([r["truth"] for r in recs])
    grid = [(w, v) for w in np.linspace(0, 1, 11) for v in np.linspace(0, 1, 11) if w + v <= 1 + 1e-9]
    errs = [(100 * np.median(np.abs(P @ np.array([w, v, 1 - w - v]) - T)), w, v) for w, v in grid]
    best = min(errs)
    ls = 100 * np.nanmedian(np.abs(np.array([r["pred"][0] for r in recs]) - T))
    a = np.abs([rules(r)["paired"] for r in recs]) * 100
    b = np.abs([rules(r)["equal"] for r in recs]) * 100
    idx = gen.integers(0, len(recs), (2000, len(recs)))
    d = np.median(b[idx], axis=1) - np.median(a[idx], axis=1)
    print(f"{title} ({len(recs)} runs): best fixed weights LS {best[1]:.1f} / beta {best[2]:.1f} / zi_beta "
          f"{max(0.0, 1 - best[1] - best[2]):.1f} -> {best[0]:.2f} (least squares alone {ls:.2f}); equal - paired median "
          f"{np.median(b) - np.median(a):+.2f}, 90% CI [{np.quantile(d, 0.05):+.2f}, {np.quantile(d, 0.95):+.2f}], "
          f"equal better in {np.mean(b < a):.0%} of runs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--pythia", action="store_true")
    ap.add_argument("--problems", default="300", help="benchmark sizes, comma-separated")
    ap.add_argument("--hard", action="store_true", help="add the pure-Beta hard-benchmark scenarios")
    ap.add_argument("--oracle", action="store_true", help="best fixed weights and the equal-weights bootstrap")
    ap.add_argument("--pythia-beta", action="store_true",
                    help="simulate from each Pythia model's fitted Beta (a true Beta in Pythia's parameter region)")
    ap.add_argument("--save", default=None, help="pickle the cached records here")
    ap.add_argument("--load", default=None, help="score cached records from this pickle")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(2024)
    if args.load:
        import pickle

        allrecs = pickle.load(open(args.load, "rb"))
        for key, recs in allrecs.items():
            report(str(key), recs)
        summarise(allrecs, args.oracle)
        return
    allrecs = {}
    scenarios = SCENARIOS + (HARD_SCENARIOS if args.hard else [])
    if args.pythia_beta:  # the beta-binomial MLE of each model's full counts, as a pure-Beta scenario
        fits = [BetaBinomial().fit(n=sub.n, c=sub.c).params_ for _, sub in load(DATA).groups()]
        scenarios = [f"hard Beta({f['alpha']:.4f}, {f['beta']:.3f})" for f in fits]
    if not args.pythia:
        for N in (int(x) for x in args.problems.split(",")):
            for scen in scenarios:
                for m, K in ((100, 1000), (1000, 10000)):
                    recs = []
                    for _ in range(args.seeds):
                        n, c, truth = draw(scen, N, K, gen, m)
                        recs.append(run(n, c, K, truth, gen))
                    allrecs[(f"{scen}, {N} problems", m)] = recs
                    report(f"{scen} {N} problems m={m}", recs)
    else:
        counts = load(DATA)
        for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
            recs = [run(nt, ct, K, truth, gen) for _, nt, ct, truth in thinned(counts, m, K, args.seeds, gen)]
            allrecs[(f"Pythia K={K}", m)] = recs
            report(f"Pythia m={m} K={K}", recs)
    summarise(allrecs, args.oracle)
    if args.save:
        import pickle

        pickle.dump(allrecs, open(args.save, "wb"))


def summarise(allrecs, with_oracle):
    gen = np.random.default_rng(0)
    groups = {"ALL": list(allrecs)}
    for key in allrecs:
        groups.setdefault(f"ALL m={key[1]}", []).append(key)
        if "Pythia" in key[0]:
            groups.setdefault(f"{key[0]} m={key[1]}", []).append(key)
    for title, keys in groups.items():
        recs = [r for key in keys for r in allrecs[key]]
        report(title, recs)
        if with_oracle:
            oracle(title, recs, gen)


if __name__ == "__main__":
    Counts  # noqa: B018
    main()
