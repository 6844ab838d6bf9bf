"""`passcurve fit`, `passcurve forecast` and `passcurve backtest`."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Annotated, Any, Literal

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from .._choices import DIFFICULTY_MODEL_NAMES, FORECAST_METHODS
from .._errors import DegenerateDataWarning, PasscurveError
from ._app import (
    NO_READ,
    FileArg,
    JsonFlag,
    Seed,
    collect_warnings,
    column_fmt,
    command,
    load_counts,
    out,
    parse_float_list,
    parse_int_list,
    print_json,
    read_options,
)
from ._compare import Cap, StopBatch, acted_on, design_from

Level = Annotated[float, typer.Option("--confidence-level", help="Level of the prediction intervals.")]
Resamples = Annotated[int, typer.Option("--n-resamples", help="Parameter draws / bootstrap resamples per method (0: the intervals leave out parameter uncertainty).")]


SAMPLES_WHOLE = 1e6
"""Below this, a number of samples the forecast solves for is written whole (⌈K⌉, '2,360,875'); from it up, the
line's numbers are in the tables' scientific form (three significant digits, '3.27e+13')."""


def _samples(x: float, *line: float) -> str:
    """A number of samples K solved for on the continuous curve, as the whole number it takes: ⌈K⌉ (an interval
    [L, H] for the root is [⌈L⌉, ⌈H⌉] for the samples needed). ``line``: every number printed with it (K, its
    interval's ends, the k at which the data reach the target, and the any-law line's K for that target); when one
    of them (finite) reaches :data:`SAMPLES_WHOLE` all are written as a column of them would be (column_fmt:
    scientific, three significant digits), else all whole. 'K ≈ 3.273e+13 (80% interval 1.14e+06 .. never)' mixed two mantissas, and
    '51,584,800 (80% interval 2,360,874 .. 1.517e+09)' two notations."""
    import numpy as np

    big = max([v for v in (x, *line) if np.isfinite(v)], default=0.0) >= SAMPLES_WHOLE
    if big:
        return column_fmt([math.ceil(v) for v in (x, *line) if np.isfinite(v)])(math.ceil(x))
    return f"{math.ceil(x):,}"


def _load(file, **kw):  # type: ignore[no-untyped-def]
    return load_counts(file, **kw)


@command("fit")
@read_options
def fit_cmd(
    file: FileArg,
    model: Annotated[
        str, typer.Option("--difficulty", "--model",
                          help=f"Difficulty models: all, or a comma list of {', '.join(DIFFICULTY_MODEL_NAMES)} "
                               "(--difficulty as in rl-signal; --model is the older name).")
    ] = "all",
    json_out: JsonFlag = False,
    paper_grid: Annotated[
        bool, typer.Option("--paper-grid", help="Least squares on the paper's 101-point k grid up to 10^4 (its "
                                                 "Tables 1-2) instead of the default grid up to the smallest n.")
    ] = False,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Fit difficulty distributions (ML) and the least-squares power law; show flags."""
    import numpy as np

    from .._deviation import check_deviations
    from .._difficulty import _BOUNDARY, fit_difficulty
    from .._scaling import fit_power_law
    from .._validation import decimals_apart

    names = "all" if model == "all" else [m.strip() for m in model.split(",") if m.strip()]
    design = design_from(stop_batch, cap)
    with collect_warnings(show=True, acted_on=acted_on(design)):
        counts = _load(file, acted_on=acted_on(design), **read)
        if design is not None:  # the counts must fit the design before anything is fitted
            design.check(counts.n, counts.c)
        fits = fit_difficulty(counts, model=names)
        stopping = any(
            v.get("looks_like_stopping_time") for v in (counts.meta.get("stopping_time", {}) or {}).get("models", {}).values()
        ) if isinstance(counts.meta.get("stopping_time"), dict) else False
        convention: Literal["unbiased", "chen"] = (
            "chen" if (stopping or np.unique(counts.n).size > 1) else "unbiased")
        if paper_grid and convention == "unbiased" and design is None and int(counts.n.min()) < 10_000:
            # the library's message named its own arguments (`k`, convention='chen'), which no option sets
            raise PasscurveError(f"`--paper-grid` runs k to 10^4, beyond these samples (every problem has "
                                 f"n = {int(counts.n.min())}); leave it out to fit the default grid up to n")
        # the law's notes (why it is not fitted, or rests on part of the grid) are said under each model's table and
        # kept for the JSON's warnings, not again on stderr
        with collect_warnings(show=False):
            pl = fit_power_law(counts, "paper" if paper_grid else None, convention=convention, design=design)
        # the checks are fit's flags, said once: under each model's table (`flags` in the JSON), not again as
        # warnings (a stopping time flagged for every model repeated the reader's warning seven times on stderr)
        report = check_deviations(counts, emit=False, design=design)
    # the fits hold when n is a stopping time (named or flagged); their goodness of fit assumes n fixed
    stopped = {m for m, fl in report.flags.items() if any(name == "StoppingTimeWarning" for name, _ in fl)}
    if json_out:
        d = fits.to_dict()
        if design is not None:
            d["design"] = design.label()
        for entry in d.get("fits", []):
            if design is not None or entry["model"] in stopped:
                entry["goodness_of_fit"] = None
        d["power_law"] = pl.to_dict()
        d["flags"] = report.to_dict()["flags"]
        print_json(d)
        return
    # the title's a, b and R² were named nowhere (the legend explained every column)
    out.print("least squares a, b: the power law -log pass@k ≈ a·k^(-b) fitted to the data's pass@k (R²: of that fit, "
              "on log(-log pass@k) against log k); "
              "tail: the power-law exponent of each difficulty law near p = 0; P(p=0): its share of impossible "
              "problems; GOF p: chi-square test of the distribution of c; ΔAIC against the best parametric fit; "
              "ok: the fit converged",
              markup=False, highlight=False)
    if design is not None:
        out.print(f"{design.label()} design: the fits' likelihood holds (the binomial kernel under any stopping rule "
                  "that depends on observed outcomes); the least-squares law is fitted to the stopping-time curve; "
                  "GOF p is not shown (it assumes n fixed in advance)", markup=False, highlight=False)
    for i, m in enumerate(fits.models):
        per = fits.fits[m]
        # the baseline is the best converged parametric fit (as DifficultyFits.best)
        best = min((f.aic_ for k, f in per.items() if k != "npmle" and f.success_), default=np.nan)
        # a, b and R² in one notation, as a parameter line and as the report's label (PowerLawResult._law_numbers):
        # each .4g wrote 'a=0.6932, b=6.679e-05'
        a, b, r2 = pl._law_numbers(i)
        t = Table(title=f"{m}: {per[next(iter(per))].n_problems_} problems; least squares a={a}, b={b} (R²={r2})",
                  title_justify="left", box=box.SIMPLE_HEAD)
        # the statistics fit in 80 columns; the parameters follow, one line per model (wrapped, never cut)
        t.add_column("model", overflow="fold")
        for col in ("log-lik", "AIC", "ΔAIC", "tail", "P(p=0)", "GOF p", "ok"):
            t.add_column(col, justify="right", no_wrap=True)
        params, failed, unidentified = [], [], False
        # GOF p in one notation for the column (column_fmt): each cell's own 4 significant digits had written
        # '0.0001886' above '6.123e-05'
        gofs = {name: None if design is not None or m in stopped else f.goodness_of_fit()["p_value"]
                for name, f in per.items()}
        fgof = column_fmt(list(gofs.values()))
        # tail and P(p=0) likewise, at the parameter lines' precision (alpha=0.1701 and tail 0.1701, not 0.17 above
        # 0.212; the smallest with the lines' 4 significant digits: Pythia 70M's tail read 0.0650 beside its
        # alpha=0.06504); a mass at its boundary is 0
        tails = [f.tail_exponent_ if f._tail_shown() else None for f in per.values()]
        # a mass below the fits' own boundary rule (_BOUNDARY) is 0, as the parameter lines write a parameter at its bound
        masses = [0.0 if abs(f.impossible_mass_) < _BOUNDARY else f.impossible_mass_ for f in per.values()]
        ftail, fmass = column_fmt(tails, figures=4), column_fmt(masses, figures=4)
        # log-lik, AIC and ΔAIC with the decimals that tell their rows apart (decimals_apart): at 1 decimal
        # Llama 3 8B IT's beta and npmle both read AIC 816.8 (816.78 and 816.81; npmle has no ΔAIC)
        deltas = {name: f.aic_ - best for name, f in per.items() if name != "npmle"}
        dl, da, dd = (decimals_apart(v, fewest) for v, fewest in
                      (([f.loglik_ for f in per.values()], 1), ([f.aic_ for f in per.values()], 1),
                       (list(deltas.values()), 2)))
        for (name, f), tail, mass in zip(per.items(), tails, masses, strict=True):
            params.append(f"  {name}: " + f._params_text(pm="±{}"))
            unidentified |= bool(f.unidentified_)
            t.add_row(name, f"{f.loglik_:.{dl}f}", f"{f.aic_:.{da}f}",
                      "-" if name == "npmle" else f"{deltas[name]:.{dd}f}", ftail(tail),
                      "0" if mass == 0 else fmass(mass), fgof(gofs[name]), "yes" if f.success_ else "no")
            if not f.success_:
                failed.append(f"  {name} did not converge: {f.message_}")
        out.print(t)
        out.print("  parameters (± standard error):")
        for line in params + failed:
            out.print(line, markup=False, highlight=False)
        if unidentified:
            out.print("  —: not identified: the likelihood is flat along it, so its fitted value (kept in --json) is "
                      "arbitrary; tail is not shown when an alpha is not identified", markup=False, highlight=False)
        # why the title's least-squares law reads '-' (not fitted; R² of a line through 2 points) or rests on part of
        # the grid: fit_power_law's notes, which the report's label shows and this text had left out ('a=-, b=-
        # (R²=-)' for a model with nothing solved, and no word why)
        for why in pl._notes(m):
            out.print(f"  least squares: {why}", markup=False, highlight=False)
        for name, msg in report.flags.get(m, []):  # a stopping time also says why GOF p is not shown
            gof = "; GOF p is not shown (the test assumes n fixed in advance)" if name == "StoppingTimeWarning" else ""
            out.print(Text.assemble("  ", ("flag", "bold"), f" {name}: {msg}{gof}"))


@command("forecast")
@read_options
def forecast_cmd(
    file: FileArg,
    k: Annotated[str, typer.Option("--k", help="Comma-separated budgets K to forecast, e.g. 1000,10000,1e6.")] = (
        "1000,10000,100000,1000000"
    ),
    method: Annotated[str, typer.Option("--method", help=f"One of {', '.join(FORECAST_METHODS)}.")] = "auto",
    target: Annotated[
        str | None, typer.Option("--target", help="Also report the K needed for these pass@K targets, e.g. 0.9,0.95.")
    ] = None,
    confidence_level: Level = 0.8,
    n_resamples: Resamples = 100,
    scope: Annotated[
        str, typer.Option("--scope", help="benchmark (these problems, empirical Bayes) or population.")
    ] = "benchmark",
    bounds: Annotated[
        bool, typer.Option("--bounds", help="Also the range of pass@K over every difficulty law the data allow "
                                            "(distribution-free, at the same confidence level).")
    ] = False,
    json_out: JsonFlag = False,
    seed: Seed = 0,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Forecast pass@K far beyond n with prediction intervals (and the K needed for a target)."""
    import numpy as np

    from .._forecast import forecast as run_forecast
    from .._forecast import unforecastable
    from .._results import level_label
    from .._validation import fmt_below_one, shares_text

    ks = parse_int_list(k, "--k")
    targets = parse_float_list(target, "--target")
    design = design_from(stop_batch, cap)
    with collect_warnings(show=True, acted_on=acted_on(design)):
        counts = _load(file, acted_on=acted_on(design), **read)
        refused = unforecastable(counts, ks)
        if refused and len(refused) < len(counts.models):  # forecast the others; say why these are left out
            for why in refused.values():
                warnings.warn(f"left out: {why}", DegenerateDataWarning, stacklevel=1)
            counts = counts.select_models([m for m in counts.models if m not in refused])
        res = run_forecast(counts, ks, method=method, confidence_level=confidence_level, n_resamples=n_resamples,
                           scope=scope, rng=seed, design=design)
        reach = [res.k_for(t, m) for m in res.models for t in (targets or [])]
        # on the band the forecast's intervals and K for a target were tempered with (bounds drawn anew, on a
        # band of their own, put 'no law reaches 0.9 before K ≈ 4,070' under a forecast interval from 4,154)
        allowed = res.bounds() if bounds else None
        floors = [] if allowed is None else [allowed.k_for(r.target, r.model) for r in reach]
    if json_out:
        d = res.to_dict()
        if design is not None:  # as curve, compare, rank and fit say which estimator the numbers rest on
            d["design"] = design.label()
        if reach:
            d["k_for"] = [r.to_dict() for r in reach]
        if allowed is not None:
            d["bounds"] = allowed.to_dict()["bounds"]
            if floors:
                d["bounds_k_for"] = [f.to_dict() for f in floors]
        print_json(d)
        return
    lvl = level_label(res.confidence_level)
    # the numbers of samples said of one target of one model, on its forecast's line and on its any-law line: one
    # notation for both (_samples). GPT-4o (BoN, --stop-batch 60 --cap 10020, 0.999): the forecast's interval
    # from '2.84e+04' (its K is 6.60e+11), then 'no law the data allow before K ≈ 28,389', the same number
    together = [[r.k, r.low, r.high, *(() if r.observed_k is None else (r.observed_k,))] for r in reach]
    for nums, f in zip(together, floors, strict=False):  # floors: one per target reached for, or none
        nums += [f.earliest, f.certain]
    # a legend, as fit's: the candidates' columns ('beta eb', 'zi beta') and the title's weights were named nowhere
    # population: the law's mean pass@K, whose interval holds the parameters' (and laws') uncertainty only; it had
    # said 'on a new problem set drawn from the fitted law', whose own sampling spread it leaves out
    where = ("these problems" if scope == "benchmark" else "the population the fitted law describes (--scope "
             "population: its mean over problems drawn from it; a new set of finitely many adds a spread not included)")
    # the columns read 'least squares' where the title and --method read least_squares: say they are those names
    out.print(f"pass@K: the forecast, the forecasts of the columns after the interval (one per candidate method, "
              f"named as --method's values with spaces for '_') "
              f"weighted as the title says (auto: by each one's error in a self-backtest on thinned data); {lvl} "
              f"interval: the prediction interval of pass@K on {where}"
              + ("; auto's columns under it: 'beta eb' and 'zi beta' are those laws' population forecasts (no empirical "
                 "Bayes), 'least squares' this benchmark's own curve, weighted as in the benchmark scope"
                 if scope == "population" and method == "auto" else ""), markup=False, highlight=False)
    for i, m in enumerate(res.models):
        # rounded so that they add up to 1 as the weights do (each alone read 0.26 + 0.42 + 0.33); JSON has them in full
        w = ", ".join(f"{kk} {v}" for kk, v in shares_text(res.weights[i]).items())
        # the design its numbers rest on, as curve's title says it (the text said nothing of --stop-batch)
        t = Table(title=f"{m}: forecast ({res.method}; weights {w})"
                        + ("" if design is None else f"; pass@K for a {design.label()} design"), title_justify="left")
        # a narrow terminal folds a number, never cuts it to '0.99999…' (the digits that say it is not 1)
        t.add_column("K", justify="right", overflow="fold")
        t.add_column("pass@K", justify="right", overflow="fold")
        t.add_column(f"{lvl} interval", justify="right", overflow="fold")
        for cand in res.candidates[i]:
            t.add_column(cand.replace("_", " "), justify="right", overflow="fold")
        if allowed is not None:
            t.add_column(f"any law ({lvl})", justify="right", overflow="fold")
        b = None if allowed is None else allowed.models.index(m)
        # one notation per column, pass@K's and its interval's alike (column_fmt), in which no forecast below 1 reads
        # 1: Llama 3 8B IT (BoN, --stop-batch 60) at K = 1,002,000 read 1.0000 for 0.99997783
        fp = column_fmt(res.pass_at_k[i], res.low[i], res.high[i], below_one=True)
        fcs = [column_fmt(v, below_one=True) for v in res.candidates[i].values()]
        fany = column_fmt(*(() if b is None else (allowed.low[b], allowed.high[b])),  # type: ignore[union-attr]
                          below_one=True)
        for j, kk in enumerate(res.k):
            extra = []
            if allowed is not None:
                lo_, hi_ = allowed.low[b, j], allowed.high[b, j]
                extra = [f"[{fany(lo_)}, {fany(hi_)}]" if np.isfinite(lo_ + hi_) else "-"]
            t.add_row(str(int(kk)), fp(res.pass_at_k[i, j]), f"[{fp(res.low[i, j])}, {fp(res.high[i, j])}]",
                      *[f(v[j]) for f, v in zip(fcs, res.candidates[i].values(), strict=True)], *extra)
        out.print(t)
        if allowed is not None and i == 0:
            out.print(f"  any law: the range of pass@K over every difficulty law whose curve fits the data's {lvl} "
                      "band at k <= n (no model assumed)", highlight=False)
        obs = res.observed[i] if res.observed is not None else np.full(res.k.size, np.nan)
        fobs = column_fmt(obs, below_one=True)  # one notation for the line, as for a column
        seen = [f"pass@{int(kk)} = {fobs(obs[j])}" for j, kk in enumerate(res.k) if np.isfinite(obs[j])]
        if seen:
            out.print(f"  within the samples drawn, the data's own estimate (no model): {', '.join(seen)}",
                      highlight=False)
        for r, nums in zip(reach, together, strict=True):
            if r.model != m:
                continue
            if r.note is not None:
                out.print(f"  pass@K = {r.target:g}: {r.note}", highlight=False)
            elif r.reachable:
                # the interval's upper end is where the lower band reaches the target: "never" when it does not
                # ("unreachable" there contradicted the "at K ≈" before it)
                hi = "never" if not np.isfinite(r.high) else _samples(r.high, *nums)
                seen_at = ("" if r.observed_k is None else
                           f"; observed in the data at k = {_samples(r.observed_k, *nums)}")
                if np.isfinite(r.high) and r.high <= 1:  # met at the first sample: "at K ≈ 1 (interval 1 .. 1)"
                    out.print(f"  pass@K = {r.target:g} is already reached at K = 1, across the {lvl} interval"
                              f"{seen_at.replace('; ', ' (', 1) + ')' if seen_at else ''}", highlight=False)
                else:
                    out.print(f"  pass@K = {r.target:g} at K ≈ {_samples(r.k, *nums)} ({lvl} interval "
                              f"{_samples(r.low, *nums)} .. {hi}{seen_at})")
                if r.caveat is not None:
                    out.print(f"    but {r.caveat}", highlight=False)
            else:
                # the point forecast never gets there; its interval may (an upper band that does): say both, as
                # a flat "unreachable" beside an interval reaching 1 read as a contradiction (forecasting review)
                within = ("" if not np.isfinite(r.low) else
                          f"; {lvl} interval from K = {_samples(r.low, *nums)} to never")
                out.print(f"  pass@K = {r.target:g} is unreachable by the forecast: it plateaus at {fmt_below_one(r.ceiling)} "
                          f"(impossible problems){within}")
        for f, nums in zip(floors, together[:len(floors)], strict=True):
            if f.model != m or not np.isfinite(f.earliest):
                continue
            sure = ("no K makes it certain" if not np.isfinite(f.certain) else
                    f"every one by K ≈ {_samples(f.certain, *nums)}")
            if f.certain <= 1:  # met at the first sample: "no law ... before K ≈ 1" said nothing
                out.print(f"  any law: pass@K = {f.target:g} is already reached at K = 1 by every law the data allow",
                          highlight=False)
            elif f.earliest <= 1:
                out.print(f"  any law: pass@K = {f.target:g} is already reached at K = 1 by some law the data allow; "
                          f"{sure}", highlight=False)
            else:
                out.print(f"  any law: pass@K = {f.target:g} is reached by no law the data allow before K ≈ "
                          f"{_samples(f.earliest, *nums)}; {sure}", highlight=False)


@command("backtest")
@read_options
def backtest_cmd(
    file: FileArg,
    m: Annotated[str, typer.Option("--m", help="Samples kept per problem, e.g. 100,1000.")] = "100,1000",
    k: Annotated[str, typer.Option("--k", help="Budgets to forecast (<= n), e.g. 1000,10000.")] = "1000,10000",
    seeds: Annotated[int, typer.Option("--seeds", help="Thinning repetitions (at most 10^4).")] = 5,
    methods: Annotated[str, typer.Option("--methods", help="Comma list of forecast methods.")] = (
        "least_squares,beta,auto"
    ),
    problems: Annotated[
        float | None, typer.Option("--problems", help="Keep a random subset of problems (fraction or count).")
    ] = None,
    confidence_level: Level = 0.8,
    n_resamples: Resamples = 100,
    json_out: JsonFlag = False,
    seed: Seed = 0,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Thin to m samples per problem, forecast pass@k, compare with the full data (error per method)."""
    import numpy as np

    from .._backtest import backtest as run_backtest
    from .._results import level_label

    ms = parse_int_list(m, "--m")
    ks = parse_int_list(k, "--k")
    meths = [x.strip() for x in methods.split(",") if x.strip()]
    if not meths:
        raise PasscurveError("`--methods` is empty")
    design = design_from(stop_batch, cap)
    with collect_warnings(show=True, acted_on=acted_on(design)):
        counts = _load(file, acted_on=acted_on(design), **read)
        from ._report import progress_bar

        # a forecast per model, seed, (m, k) and method (about a second each): the bar's clock says it runs
        with progress_bar(("backtesting",)) as advance:
            advance("backtesting")
            res = run_backtest(counts, ms, ks, seeds=seeds, methods=meths, problems=problems,
                               confidence_level=confidence_level, n_resamples=n_resamples, rng=seed, design=design)
    if json_out:
        d = res.to_dict()
        if design is not None:
            d["design"] = design.label()
        print_json(d)
        return
    lvl = level_label(res.confidence_level)
    # one notation per column (column_fmt, at least 2 decimals): at 2 fixed decimals an error of 0.003 points read
    # "0.00" and a bias "-0.00" beside a width of 1.55
    keys = ("median_abs_error", "mean_abs_error", "mean_error", "coverage", "mean_width")
    scale = {key: 1.0 if key == "coverage" else 100.0 for key in keys}
    shown = {key: [None if r[key] is None or not np.isfinite(r[key]) else scale[key] * r[key] for r in res.summary]
             for key in keys}
    fmts = {key: column_fmt(vals, digits=2) for key, vals in shown.items()}

    def pts(key: str, j: int) -> str:
        v = shown[key][j]
        text = "—" if v is None else fmts[key](v)
        return "+" + text if key == "mean_error" and v is not None and v > 0 else text

    rows = [(str(r["m"]), str(r["k"]), r["method"], str(r["runs"]), *(pts(key, j) for key in keys))
            for j, r in enumerate(res.summary)]
    cols = ("m", "k", "method", "runs", "median |err|", "mean |err|", "bias", "cover", "width")
    # every number is printed whole (a bias of -13.64 points was cut to "-13.…" at 80 columns): each column is
    # at least as wide as its widest cell, and the outer padding goes when the table would not fit otherwise
    widths = [max([len("least_squares") if c == "method" else 0, *(len(row[i]) for row in rows)])
              for i, c in enumerate(cols)]
    need = sum(max(w, *(len(word) for word in c.split())) for w, c in zip(widths, cols, strict=True)) + 3 * len(cols) + 1
    # 'runs' is a count of forecasts, one per model and seed: "2 seed(s)" above 'runs 14' (Pythia's 7 models) said
    # neither
    nm = len(counts.models)
    t = Table(title=f"backtest: {seeds} seed(s) × {nm} model{'s' if nm != 1 else ''} (runs: the forecasts each row "
                    f"summarises); errors and {lvl} interval widths in points of pass@k, coverage of the {lvl} "
                    "intervals" + ("" if design is None else f"; a {design.label()} design"),
              title_justify="left", pad_edge=need <= out.width)
    for col, w in zip(cols, widths, strict=True):
        if col == "method":  # never truncated ("least_squares" is the widest)
            t.add_column(col, justify="left", no_wrap=True, min_width=w)
        else:
            t.add_column(col, justify="right", min_width=w)
    for row in rows:
        t.add_row(*row)
    out.print(t)
