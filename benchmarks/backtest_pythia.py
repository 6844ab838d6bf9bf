"""Backtest passcurve's forecast against the two baselines on Pythia/MATH (../shared/data).

Run:  PYTHONPATH=src python benchmarks/backtest_pythia.py [--seeds 5] [--seed 0] [--m 100,1000] [--k 1000,10000]
Prints per (m, K, method): median / mean absolute error (points of pass@K), bias, coverage of the intervals (80%,
or ``--level``: the report shows 95% intervals) and their mean width.
``--flat`` runs auto under the interval rule before the twenty-seventh session (the self-backtest's bias not carried
to K; backtest_simulated.law_error_not_carried): the same thinnings and forecasts, only the intervals differ.

Pre-registered experiment (twenty-ninth session; written and committed before any run): is the offline small-n
weights prototype ``auto_wf2`` (backtest_simulated.weights_thinned_by(2): below n = 20 auto's candidates weighted by
the inverse MSE of a self-backtest thinned to n // 2 forecasting pass@n, instead of equally; interval unchanged)
better than ``auto`` on real data?

* Design: Pythia/MATH (../shared/data/pythia_math_counts.csv, 7 models x 128 problems, n = 10^4) thinned to
  m = 5 and m = 10 samples per problem, K = 100 and 1000, 20 seeds (7 x 20 = 140 runs per (m, K) cell), seed 0;
  both methods forecast the same thinned counts (paired); the truth is the full data's unbiased pass@K. If one
  seed's timing shows that 20 seeds cannot finish by 08:40 UTC, 10 seeds (70 runs per cell) with the same rule.
  Run:  OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/backtest_pythia.py --m 5,10 --k 100,1000 \
        --seeds 20 --methods auto,auto_wf2 --dump FILE
* Per run d = |error of auto_wf2| - |error of auto| (points of pass@K). Per cell: mean d +/- its SE
  (sd / sqrt(runs)), two-sided Wilcoxon signed-rank p (scipy's default: zero differences dropped), the share of
  runs with d < 0.
* Adoption rule (all three): (1) mean d < 0 in every one of the 4 (m, K) cells; (2) Wilcoxon p < 0.05 in at least
  2 of the 4; (3) no sign of harm on any model: for each of the 7 models, its mean d over its 80 runs (both m, both
  K; 40 with 10 seeds) is not above +1 SE of that mean (the real-data analogue of the simulated scenarios in which
  the prototype was worse). If met, the prototype becomes auto's rule for n < 20 (interval rule unchanged);
  otherwise no passcurve code changes and the docs record the figures.
* Result (thirtieth session, run as written: 20 seeds, 662 s): the rule is met. Mean d per cell -0.57 +/- 0.16
  (m = 5, K = 100), -2.77 +/- 0.37 (5, 1000), -0.22 +/- 0.08 (10, 100), -1.60 +/- 0.26 (10, 1000); Wilcoxon p
  2.5e-07, 3.5e-14, 0.0099, 8.1e-10; every model's mean d negative (-0.40 to -2.84). The weights from halves are
  passcurve's rule for n < 20 since (``_forecast._SMALL_N_FACTOR`` = 2), so ``auto`` is now what ``auto_wf2`` was;
  the same comparison today:  ... --methods auto_wf0,auto_wf2 (auto_wf0: equal weights, the rule before).
* Other real small-n data: none. ../shared/data holds only one other data set, BoN jailbreaking, whose n is a
  stopping time in batches of 60 (smallest n = 60), so it has no problem with n < 20 and is not fixed-n data.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from passcurve import Counts
from passcurve._backtest import backtest

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "pythia_math_counts.csv"


def load(path: Path) -> Counts:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return Counts.from_arrays(
        np.array([int(r["n"]) for r in rows]), np.array([int(r["c"]) for r in rows]),
        problem=[r["problem_id"] for r in rows], model=[r["model"] for r in rows], source=path.name,
    )


def thinned(counts: Counts, m: int, K: int, seeds: int, gen: np.random.Generator):  # type: ignore[no-untyped-def]
    """Per seed and model: (model, thinned n, thinned c, the full data's unbiased pass@K).

    Lazy, so a caller that draws from ``gen`` between yields keeps one random stream.
    """
    from passcurve._curves import mean_curve
    from passcurve._forecast import thin_counts

    for _ in range(seeds):
        for name, sub in counts.groups():
            truth = float(mean_curve(sub.n, sub.c, np.array([K]))[0][0])
            nt, ct = thin_counts(sub.n, sub.c, m, gen)
            yield name, nt, ct, truth


def as_matrix(counts: Counts, key=None) -> tuple[list[str], np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """Models run on the same problems as (names, N, C): problems x models; columns sorted by model name, or by
    ``key(the model's Counts)``."""
    subs = dict(counts.groups())
    names = sorted(subs, key=key if key is None else (lambda s: key(subs[s])))
    if any(list(subs[s].problem) != list(subs[names[0]].problem) for s in names):
        raise SystemExit("the models do not list the same problems in the same order")
    return names, np.stack([subs[s].n for s in names], 1), np.stack([subs[s].c for s in names], 1)


def thin_columns(N: np.ndarray, C: np.ndarray, m: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every model (column) thinned to m samples per problem, one column after another from one random stream."""
    from passcurve._forecast import thin_counts

    th = [thin_counts(N[:, j], C[:, j], m, gen) for j in range(N.shape[1])]
    return np.stack([t[0] for t in th], 1), np.stack([t[1] for t in th], 1)


def pass_at_columns(N: np.ndarray, C: np.ndarray, K: int) -> np.ndarray:
    """Each model's (column's) unbiased pass_D@K."""
    from passcurve._curves import mean_curve

    return np.array([float(mean_curve(N[:, j], C[:, j], np.array([K]))[0][0]) for j in range(N.shape[1])])


def show(res) -> None:  # type: ignore[no-untyped-def]
    print(f"{'m':>6} {'K':>7} {'method':>14} {'runs':>5} {'medAE':>7} {'meanAE':>7} {'bias':>7} {'cover':>6} {'width':>6}")
    for r in res.summary:
        print(f"{r['m']:>6} {r['k']:>7} {r['method']:>14} {r['runs']:>5} {100 * r['median_abs_error']:7.2f} "
              f"{100 * r['mean_abs_error']:7.2f} {100 * r['mean_error']:+7.2f} {r['coverage']:6.2f} {100 * r['mean_width']:6.2f}")


def paired_runs(counts: Counts, methods: list[str], **kw):  # type: ignore[no-untyped-def]
    """``backtest(counts, methods=...)`` where a method ``auto_wf<f>`` is auto with its small-n weights thinned by f
    (backtest_simulated.weights_thinned_by(f)): a second backtest of "auto" alone with the same ``rng``, whose
    thinnings are the same (the backtest draws them from a stream of their own; checked here, run by run).
    Returns (rows, summary) in the format of BacktestResult's."""
    from backtest_simulated import weights_thinned_by

    from passcurve import _backtest as _bt

    def recorded(sink: list[bytes]):  # type: ignore[no-untyped-def]
        orig = _bt._reduce

        def reduce(*a, **k):  # type: ignore[no-untyped-def]
            out = orig(*a, **k)
            sink.append(out[0].tobytes() + b"|" + out[1].tobytes())
            return out
        return orig, reduce

    base = [x for x in methods if not x.startswith("auto_wf")]
    runs: list[tuple[str, list[bytes], list[dict]]] = []  # type: ignore[type-arg]
    for meth in ([",".join(base)] if base else []) + [x for x in methods if x.startswith("auto_wf")]:
        sink: list[bytes] = []
        orig, _bt._reduce = recorded(sink)
        ctx = weights_thinned_by(int(meth[7:])) if meth.startswith("auto_wf") else contextlib.nullcontext()
        try:
            with ctx:
                res = backtest(counts, methods=["auto"] if meth.startswith("auto_wf") else base, **kw)
        finally:
            _bt._reduce = orig
        rows = [dict(r, method=meth) if meth.startswith("auto_wf") else r for r in res.rows]
        runs.append((meth, sink, rows))
    if any(sink != runs[0][1] for _, sink, _ in runs):
        raise SystemExit("the paired backtests did not thin the same counts")
    rows = [r for _, _, rs in runs for r in rs]
    return rows, _bt._summarise(rows)


def paired_summary(rows: list[dict], a: str, b: str, dump: str | None = None) -> None:  # type: ignore[type-arg]
    """Paired comparison of b against a on the same runs: per (m, K) the mean of d = |error b| - |error a| (points)
    with its SE, the two-sided Wilcoxon signed-rank p (zero differences dropped), the share of runs where b is
    better (d < 0); then per model over all its runs; then the pre-registered adoption rule (module docs)."""
    from scipy import stats

    key = ("model", "seed", "m", "k")
    ra = {tuple(r[x] for x in key): r for r in rows if r["method"] == a}
    pairs = [(ra[kk], r) for r in rows if r["method"] == b and (kk := tuple(r[x] for x in key)) in ra
             and np.isfinite([ra[kk]["error"], r["error"]]).all()]
    if dump:
        with open(dump, "w", encoding="utf-8") as fh:
            fh.write(f"model\tseed\tm\tk\ttruth\tforecast_{a}\terror_{a}\tforecast_{b}\terror_{b}\td_abs\n")
            for x, y in pairs:
                fh.write("\t".join(str(v) for v in (x["model"], x["seed"], x["m"], x["k"], x["truth"], x["forecast"],
                                                     x["error"], y["forecast"], y["error"],
                                                     abs(y["error"]) - abs(x["error"]))) + "\n")

    def line(label: str, ps: list) -> tuple[float, float, float]:  # type: ignore[type-arg]
        d = 100 * np.array([abs(y["error"]) - abs(x["error"]) for x, y in ps])
        se = float(d.std(ddof=1) / np.sqrt(d.size)) if d.size > 1 else np.nan
        p = float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0
        ma = 100 * np.mean([abs(x["error"]) for x, _ in ps])
        mb = 100 * np.mean([abs(y["error"]) for _, y in ps])
        print(f"| {label} | {d.size} | {ma:.2f} | {mb:.2f} | {d.mean():+.2f} ± {se:.2f} | {p:.2g} | "
              f"{np.mean(d < 0):.2f} | {np.mean(d == 0):.2f} |")
        return float(d.mean()), se, p

    print(f"\nPaired: d = |error {b}| - |error {a}| on the same thinned counts, points of pass@K")
    print(f"| cell | runs | {a} meanAE | {b} meanAE | mean d ± SE | Wilcoxon p | share d < 0 | share d = 0 |")
    print("|---|---|---|---|---|---|---|---|")
    cells = list(dict.fromkeys((x["m"], x["k"]) for x, _ in pairs))
    per_cell = [line(f"m = {m} → K = {k}", [(x, y) for x, y in pairs if (x["m"], x["k"]) == (m, k)])
                for m, k in cells]
    per_model = [line(f"model {name}", [(x, y) for x, y in pairs if x["model"] == name])
                 for name in dict.fromkeys(x["model"] for x, _ in pairs)]
    r1 = all(mu < 0 for mu, _, _ in per_cell)
    r2 = sum(p < 0.05 for _, _, p in per_cell) >= len(per_cell) / 2
    r3 = all(mu <= se for mu, se, _ in per_model)
    print(f"Adoption rule (module docs): (1) mean d < 0 in every cell: {r1}; (2) p < 0.05 in at least half the cells: "
          f"{r2}; (3) no model's mean d above +1 SE: {r3}; met: {r1 and r2 and r3}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--methods", default="least_squares,beta,auto",
                    help="forecast methods; auto_wf<f> is auto with its small-n weights from a self-backtest thinned "
                         "by f (0: equal weights, the rule before the 30th session; 2: passcurve's; module docs)")
    ap.add_argument("--seed", type=int, default=0, help="the backtest's rng (0 reproduces the tables in the docs)")
    ap.add_argument("--m", default="100,1000", help="samples per problem after thinning")
    ap.add_argument("--k", default="1000,10000", help="the K forecast (at most 10000, the data's n)")
    ap.add_argument("--flat", action="store_true", help="auto's interval under the rule before the 27th session")
    ap.add_argument("--level", type=float, default=0.8, help="the intervals' confidence level (the report's is 0.95)")
    ap.add_argument("--dump", default=None, help="with auto and auto_wf<f>: write every paired run's errors (TSV)")
    args = ap.parse_args()
    methods = args.methods.split(",")
    wf = [x for x in methods if x.startswith("auto_wf")]
    if wf and (args.flat or ("auto" not in methods and len(wf) < 2)
               or any(not x[7:].isdigit() or int(x[7:]) == 1 for x in wf)):
        ap.error("auto_wf<f> (f = 0 or f >= 2, a whole number) is compared with auto, or with the first auto_wf<f> "
                 "listed when auto is not: list two, without --flat")
    if args.dump and not wf:
        ap.error("--dump writes the paired runs of auto (or the first auto_wf<f>) and auto_wf<f>: list both")
    counts = load(DATA)
    t = time.time()
    ctx = contextlib.nullcontext()
    if args.flat:
        from backtest_simulated import law_error_not_carried

        ctx = law_error_not_carried()
    kw = dict(m=[int(x) for x in args.m.split(",")], k=[int(x) for x in args.k.split(",")], seeds=args.seeds,
              rng=args.seed, confidence_level=args.level)
    with ctx:
        if wf:
            rows, summary = paired_runs(counts, methods, **kw)
            res = SimpleNamespace(rows=rows, summary=summary)
        else:
            res = backtest(counts, methods=methods, **kw)
    print(f"Pythia/MATH, 7 models x {args.seeds} seeds, seed {args.seed}{' (--flat)' if args.flat else ''} "
          f"({time.time() - t:.0f} s); errors in points of pass@K; coverage of the {args.level:.0%} intervals")
    show(res)
    first = "auto" if "auto" in methods else wf[0]
    others = [x for x in wf if x != first]
    for meth in others:
        paired_summary(list(res.rows), first, meth, args.dump if meth == others[0] else None)


if __name__ == "__main__":
    main()
