"""Forecast accuracy on simulated benchmarks with known truth (light/heavy tails, impossible problems,
unequal n, a non-Beta difficulty law).

Each run draws per-problem success rates p_i from a scenario, draws c_i ~ Binomial(m_i, p_i), forecasts
pass_D@K with each method and compares with the exact truth mean_i 1 - (1 - p_i)^K of the drawn problems.

Run:  PYTHONPATH=src python benchmarks/backtest_simulated.py [--seeds 10] [--problems 300] [--level 0.8]

``--level 0.95`` scores the intervals at the report's level (the same data and point forecasts as at 0.8).

Small n (``--small``): m = 5, 10 and 20 samples per problem, K = 100 and 1000, 164 problems (the size of a
code benchmark), the six scenarios plus a code-like one (10% impossible + Beta(0.5, 0.7)); each cell reports
the median absolute error (with its bootstrap standard error over seeds), the mean error (bias), the 80%
intervals' coverage (with its binomial standard error) and their mean width, all in points of pass@K:

      OPENBLAS_NUM_THREADS=1 PYTHONPATH=src python benchmarks/backtest_simulated.py --small --seeds 20

``--methods ...,auto,auto_flat`` scores auto's interval under the rule before the twenty-seventh session (the
self-backtest's bias added at every K as measured, not carried to K: ``law_error_not_carried``) on exactly auto's forecasts
(the same data and random draws: the points are identical, only the interval differs); it needs ``auto`` in the list.

``--m 5,10`` picks the sample sizes and ``--dump FILE`` writes every run's error (a paired comparison of two methods on
the same data). ``--methods auto_wf<f>`` (with --small) scores auto with its small-n weights from a self-backtest thinned
by f (``weights_thinned_by``): ``auto_wf0`` is the rule before the thirtieth session (below n = 20 the candidates
averaged equally), ``auto_wf2`` passcurve's since then (the twenty-sixth session's offline prototype; weights only:
the interval stays the any-law range). The data are drawn from the same seeds whatever the methods, so its rows
compare with auto's of a run with the default methods.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
from scipy import special

from passcurve import Counts, ModelSpec, forecast, simulate
from passcurve import _forecast as _fc


def scenario_p(name: str, N: int, gen: np.random.Generator) -> np.ndarray:
    if name == "heavy tail Beta(0.2, 5)":
        return gen.beta(0.2, 5.0, N)
    if name == "light tail Beta(2, 30)":
        return gen.beta(2.0, 30.0, N)
    if name == "impossible 15% + Beta(0.3, 3)":
        # through passcurve.simulate / ModelSpec (zero-inflated Beta)
        bench = simulate(problems=N, n=1, models=[ModelSpec("m", 0.3, 3.0, impossible=0.15)],
                         rng=int(gen.integers(2**31)))
        return bench.p
    if name == "logit-normal(-4, 2.5)":
        return special.expit(gen.normal(-4.0, 2.5, N))
    if name == "two groups: Beta(0.5, 2) + 30% Beta(0.15, 200)":
        hard = gen.random(N) < 0.3
        return np.where(hard, gen.beta(0.15, 200.0, N), gen.beta(0.5, 2.0, N))
    if name == "code-like: 10% impossible + Beta(0.5, 0.7)":
        # a code benchmark sampled 10-20 times: many problems near 0 or 1, a few never solved
        return np.where(gen.random(N) < 0.1, 0.0, gen.beta(0.5, 0.7, N))
    if name.startswith("hard Beta("):
        # a pure Beta difficulty law of a hard benchmark, "hard Beta(a, b)"
        a, b = (float(x) for x in name[len("hard Beta("):-1].split(","))
        return gen.beta(a, b, N)
    if name == "rare successes Beta(0.15, 30)":
        # mean p = 0.005: at m = 100 most problems have c = 0 and a tenth-thinning keeps almost nothing
        return gen.beta(0.15, 30.0, N)
    raise ValueError(name)


SCENARIOS = [
    "heavy tail Beta(0.2, 5)",
    "light tail Beta(2, 30)",
    "impossible 15% + Beta(0.3, 3)",
    "logit-normal(-4, 2.5)",
    "two groups: Beta(0.5, 2) + 30% Beta(0.15, 200)",
    "rare successes Beta(0.15, 30)",
]

# the small-n design's scenarios: the six above and a code-like one
SMALL_SCENARIOS = [*SCENARIOS, "code-like: 10% impossible + Beta(0.5, 0.7)"]

# hard benchmarks whose difficulty law is exactly a Beta: tail exponent 0.1-0.3, mean p 0.001-0.03
HARD_SCENARIOS = [f"hard Beta({a}, {b})" for a in (0.1, 0.2, 0.3) for b in (10, 30, 100)]


def exact_pass_at_k(p: np.ndarray, K: int) -> float:
    """pass_D@K of the drawn problems, exactly: mean_i 1 - (1 - p_i)^K."""
    return float(np.mean(-np.expm1(K * np.log1p(-p))))


def draw(scen: str, problems: int, K: int, gen: np.random.Generator,
         m: int | None = None) -> tuple[np.ndarray, np.ndarray, float]:
    """One simulated benchmark: p from the scenario, n = m (or uniform in [100, 1000] when m is None),
    c ~ Binomial(n, p), and the truth mean_i 1 - (1 - p_i)^K of the drawn problems (exact)."""
    p = scenario_p(scen, problems, gen)
    n = gen.integers(100, 1001, p.size) if m is None else np.full(p.size, m)
    c = gen.binomial(n, p)
    return n, c, exact_pass_at_k(p, K)


def _boot_se_median(x: np.ndarray, gen: np.random.Generator, B: int = 1000) -> float:
    """Bootstrap standard error of the median of x (resampling the seeds)."""
    idx = gen.integers(0, x.size, (B, x.size))
    return float(np.std(np.median(x[idx], axis=1), ddof=1))


@contextlib.contextmanager
def weights_thinned_by(factor: int) -> Iterator[None]:
    """auto with its small-n weights from a self-backtest thinned by ``factor`` (``_forecast._SMALL_N_FACTOR``): when
    n < 20 (thinning by 10 leaves fewer than 2 samples) the candidates are weighted by that backtest's inverse MSE.
    It sets the weights only: auto still counts as unchecked, so its interval stays the any-law range. n >= 20 is
    unchanged. ``factor`` 0 is the rule before the thirtieth session (equal weights); 2 is passcurve's since then,
    the offline prototype of the twenty-sixth to twenty-ninth sessions, adopted on Pythia/MATH thinned to 5 and 10
    samples (backtest_pythia.py's pre-registered rule)."""
    orig = _fc._SMALL_N_FACTOR
    _fc._SMALL_N_FACTOR = factor
    try:
        yield
    finally:
        _fc._SMALL_N_FACTOR = orig


@contextlib.contextmanager
def law_error_not_carried() -> Iterator[None]:
    """The interval rule before the twenty-seventh session: component (iv), the self-backtest's squared bias, is
    added at every K as measured over one extrapolation of 10, not carried to K (``_LawError.steps`` = 1)."""
    orig = _fc._LawError.steps
    _fc._LawError.steps = lambda self, K: np.ones(np.shape(K))  # type: ignore[method-assign]
    try:
        yield
    finally:
        _fc._LawError.steps = orig  # type: ignore[method-assign]


def forecasts(counts: Counts, Ks: list[int], methods: list[str], fgen: np.random.Generator,
              run: Any = None, level: float = 0.8) -> dict[str, Any]:
    """Each method's forecast of ``counts`` at ``Ks`` from the one stream ``fgen``; "auto_flat" is auto's forecast
    (the same draws: a copy of the stream as auto gets it) under ``law_error_not_carried``, and "auto_wf<f>" the
    weights prototype (``weights_thinned_by``)."""
    run = run or (lambda meth, rng: forecast(counts, Ks, method=meth, n_resamples=100, flags=False, rng=rng,
                                             confidence_level=level))
    out = {}
    for meth in methods:
        if meth == "auto_flat":
            continue
        if meth == "auto" and "auto_flat" in methods:
            with law_error_not_carried():
                out["auto_flat"] = run("auto", copy.deepcopy(fgen))
        ctx = weights_thinned_by(int(meth[7:])) if meth.startswith("auto_wf") else contextlib.nullcontext()
        with ctx:
            out[meth] = run(meth[:4] if meth.startswith("auto_wf") else meth, fgen)
    return out


def small_n(seeds: int, problems: int, methods: list[str], ms: tuple[int, ...] = (5, 10, 20),
            dump: str | None = None) -> None:
    """The small-n design (module docs): m in {5, 10, 20}, K in {100, 1000}; one forecast per method and data set
    gives both K (the same data, so the two K's errors are correlated)."""
    gen = np.random.default_rng(12345)  # the simulated data
    fgen = np.random.default_rng(54321)  # the forecasts' own draws
    sgen = np.random.default_rng(0)  # the standard errors' bootstrap
    Ks = [100, 1000]
    rows = []  # (scenario, m, K, method, error, covered, width)
    t0 = time.time()
    warnings.simplefilter("ignore")
    for scen in SMALL_SCENARIOS:
        for m in ms:
            for _ in range(seeds):
                p = scenario_p(scen, problems, gen)
                n = np.full(p.size, m)
                c = gen.binomial(n, p)
                truth = [exact_pass_at_k(p, K) for K in Ks]
                counts = Counts.from_arrays(n, c, model="sim")
                fc = forecasts(counts, Ks, methods, fgen)  # "auto_wf2": the offline prototype above with factor 2
                for meth in methods:
                    r = fc[meth]
                    for j, K in enumerate(Ks):
                        f, lo, hi = float(r.pass_at_k[0, j]), float(r.low[0, j]), float(r.high[0, j])
                        rows.append((scen, m, K, meth, f - truth[j], lo <= truth[j] <= hi, hi - lo))
        print(f"# {scen}: done ({time.time() - t0:.0f} s)", flush=True)
    if dump:  # every run's error, for paired comparisons of two methods on the same data
        with open(dump, "w", encoding="utf-8") as fh:
            fh.write("scenario\tm\tK\tmethod\terror\tcovered\twidth\n")
            fh.writelines("\t".join(str(x) for x in r) + "\n" for r in rows)
    print(f"\n{problems} problems, {seeds} seeds per cell ({time.time() - t0:.0f} s); points of pass@K; "
          "medAE (± bootstrap SE over seeds) / mean error / coverage of the 80% interval (± binomial SE) / mean width")
    print("| scenario | m | K | method | medAE | bias | cover | width |")
    print("|---|---|---|---|---|---|---|---|")
    pooled: dict[tuple[int, int, str], list[tuple[float, bool, float]]] = {}
    for scen in SMALL_SCENARIOS:
        for m in ms:
            for K in Ks:
                for meth in methods:
                    rs = [r for r in rows if r[:4] == (scen, m, K, meth)]
                    e = np.array([r[4] for r in rs])
                    cv = np.mean([r[5] for r in rs])
                    w = np.mean([r[6] for r in rs])
                    pooled.setdefault((m, K, meth), []).extend((r[4], r[5], r[6]) for r in rs)
                    print(f"| {scen} | {m} | {K} | {meth} | {100 * np.median(np.abs(e)):.2f} ± "
                          f"{100 * _boot_se_median(np.abs(e), sgen):.2f} | {100 * e.mean():+.2f} | {cv:.2f} ± "
                          f"{np.sqrt(cv * (1 - cv) / e.size):.2f} | {100 * w:.1f} |")
    print(f"\nPooled over the {len(SMALL_SCENARIOS)} scenarios (medAE ± bootstrap SE over all runs)")
    print("| m | K | method | medAE | bias | cover | width |")
    print("|---|---|---|---|---|---|---|")
    for (m, K, meth), v in pooled.items():
        e = np.array([x[0] for x in v])
        cv = float(np.mean([x[1] for x in v]))
        print(f"| {m} | {K} | {meth} | {100 * np.median(np.abs(e)):.2f} ± {100 * _boot_se_median(np.abs(e), sgen):.2f} "
              f"| {100 * e.mean():+.2f} | {cv:.2f} ± {np.sqrt(cv * (1 - cv) / e.size):.2f} "
              f"| {100 * np.mean([x[2] for x in v]):.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--problems", type=int, default=None, help="default 300 (164 with --small)")
    ap.add_argument("--methods", default=None,
                    help="default least_squares,beta,auto (with --small also beta_eb,zi_beta)")
    ap.add_argument("--small", action="store_true", help="the small-n design: m = 5, 10, 20; K = 100, 1000")
    ap.add_argument("--m", default=None, help="with --small: the samples per problem (default 5,10,20)")
    ap.add_argument("--dump", default=None, help="with --small: write every run's error to this TSV file")
    ap.add_argument("--level", type=float, default=0.8, help="the intervals' confidence level (not with --small)")
    args = ap.parse_args()
    if args.methods and "auto_flat" in args.methods.split(",") and "auto" not in args.methods.split(","):
        ap.error("auto_flat is scored on auto's forecasts: list auto too")
    if args.small and args.level != 0.8:
        ap.error("--level applies without --small")
    if args.small:
        small_n(args.seeds, args.problems or 164,
                (args.methods or "least_squares,beta,beta_eb,zi_beta,auto").split(","),
                tuple(int(x) for x in (args.m or "5,10,20").split(",")), args.dump)
        return
    if args.m is not None or args.dump is not None:  # they were ignored without a word
        ap.error("--m and --dump apply only with --small")
    if args.methods and "auto_wf" in args.methods:
        ap.error("auto_wf<factor> (the offline prototype) is scored only with --small")
    args.problems = args.problems or 300
    args.methods = args.methods or "least_squares,beta,auto"
    methods = args.methods.split(",")
    gen = np.random.default_rng(12345)  # the simulated data
    fgen = np.random.default_rng(54321)  # the forecasts' own draws (separate, so methods see the same data)
    t0 = time.time()
    designs = [("m=100", 100, 1000, False), ("m=1000", 1000, 10000, False),
               ("unequal m in [100, 1000]", None, 10000, True)]
    allrows = []
    warnings.simplefilter("ignore")
    for scen in SCENARIOS:
        for label, m, K, unequal in designs:
            for _ in range(args.seeds):
                n, c, truth = draw(scen, args.problems, K, gen, None if unequal else m)
                counts = Counts.from_arrays(n, c, model="sim")
                fc = forecasts(counts, [K], methods, fgen, level=args.level)
                for meth in methods:
                    r = fc[meth]
                    f, lo, hi = float(r.pass_at_k[0, 0]), float(r.low[0, 0]), float(r.high[0, 0])
                    allrows.append((scen, label, K, meth, f - truth, lo <= truth <= hi, hi - lo))
    print(f"{args.problems} problems, {args.seeds} seeds per cell ({time.time() - t0:.0f} s); "
          f"errors in points of pass@K; coverage of {args.level:.0%} intervals")
    print("| scenario | design | K | " + " | ".join(f"{m} medAE" for m in methods) + " | "
          + " | ".join(f"{m} cover" for m in methods) + " |")
    print("|" + "---|" * (3 + 2 * len(methods)))
    keys = list(dict.fromkeys((r[0], r[1], r[2]) for r in allrows))
    tot = {m: [] for m in methods}
    cov = {m: [] for m in methods}
    for key in keys:
        cells, covs = [], []
        for meth in methods:
            rs = [r for r in allrows if (r[0], r[1], r[2]) == key and r[3] == meth]
            e = np.abs([r[4] for r in rs])
            cells.append(f"{100 * np.median(e):.2f}")
            covs.append(f"{np.mean([r[5] for r in rs]):.2f}")
            tot[meth] += list(e)
            cov[meth] += [r[5] for r in rs]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cells) + " | " + " | ".join(covs) + " |")
    print("| **all** | | | " + " | ".join(f"**{100 * np.median(tot[m]):.2f}**" for m in methods) + " | "
          + " | ".join(f"**{np.mean(cov[m]):.2f}**" for m in methods) + " |")


if __name__ == "__main__":
    main()
