"""How should the self-backtest errors weight the candidates?  Compare combination rules.

For each run, caches every candidate's forecast, the truth, and the per-thinning self-backtest errors
(R = 10 thinnings to a tenth of the samples), then scores rules offline:
  inverse-MSE (R=5 and R=10), select-best, equal weights, inverse-MSE shrunk toward equal weights
  by the noise of the estimated MSEs, and the paired rule passcurve uses (only thinnings on which every
  candidate forecasts; equal weights below two), with and without empirical-Bayes shrinkage of the
  log weights. --save/--load cache the records so that further rules can be scored without refitting.
The rule is chosen on the simulated scenarios (known truth) only; Pythia is reported, not used to choose.

Run:  PYTHONPATH=src python benchmarks/backtest_combination.py [--seeds 4] [--pythia]
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from backtest_pythia import DATA, load, thinned
from backtest_simulated import SCENARIOS, draw  # noqa: E402

from passcurve import Counts
from passcurve._curves import mean_curve
from passcurve._forecast import AUTO_CANDIDATES, _Candidate, thin_counts

CANDS = AUTO_CANDIDATES


def cv_errors(n, c, R, gen):
    K = int(n.min())
    m = np.maximum(n // 10, 1)
    truth = float(mean_curve(n, c, np.array([K]))[0][0])
    out = np.full((R, len(CANDS)), np.nan)
    for r in range(R):
        nt, ct = thin_counts(n, c, m, gen)
        for j, cnd in enumerate(CANDS):
            try:
                out[r, j] = float(_Candidate(cnd, nt, ct, None).predict(np.array([float(K)]))[0]) - truth
            except Exception:  # noqa: BLE001
                pass
    return out


def run(n, c, K, truth, gen, R=10):
    preds = np.array([float(_Candidate(cnd, n, c, None).predict(np.array([float(K)]))[0]) for cnd in CANDS])
    return {"pred": preds, "truth": truth, "cv": cv_errors(n, c, R, gen)}


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
    for j, cnd in enumerate(CANDS):
        out[cnd] = float(p[j])
    return {k: v - rec["truth"] for k, v in out.items()}


def report(title, recs):
    errs = [rules(r) for r in recs]
    names = list(errs[0])
    print(title, f"({len(recs)} runs): median |error| in points")
    print("  " + "  ".join(f"{nm}={100 * np.median(np.abs([e[nm] for e in errs])):.2f}" for nm in names))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--pythia", action="store_true")
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
        report("ALL", [r for v in allrecs.values() for r in v])
        report("ALL m=100", [r for (s, m), v in allrecs.items() if m == 100 for r in v])
        return
    if not args.pythia:
        allrecs = {}
        for scen in SCENARIOS:
            for m, K in ((100, 1000), (1000, 10000)):
                recs = []
                for _ in range(args.seeds):
                    n, c, truth = draw(scen, 300, K, gen, m)
                    recs.append(run(n, c, K, truth, gen))
                allrecs[(scen, m)] = recs
                report(f"{scen} m={m}", recs)
        report("ALL simulated", [r for v in allrecs.values() for r in v])
        report("ALL simulated m=100", [r for (s, m), v in allrecs.items() if m == 100 for r in v])
        if args.save:
            import pickle

            pickle.dump(allrecs, open(args.save, "wb"))
    else:
        counts = load(DATA)
        for m, K in ((100, 1000), (1000, 10000)):
            recs = [run(nt, ct, K, truth, gen) for _, nt, ct, truth in thinned(counts, m, K, args.seeds, gen)]
            report(f"Pythia m={m} K={K}", recs)

if __name__ == "__main__":
    Counts  # noqa: B018
    main()
