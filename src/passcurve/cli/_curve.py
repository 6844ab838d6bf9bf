"""`passcurve curve`, `passcurve simulate` and `passcurve demo`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.table import Table

from .._errors import PasscurveError
from ._app import (
    NO_READ,
    FileArg,
    JsonFlag,
    Seed,
    collect_warnings,
    column_fmt,
    command,
    out,
    parse_int_list,
    print_json,
    read_options,
    samples_per_problem,
)
from ._compare import (  # noqa: E402
    Cap,
    ClusterCol,
    ConfidenceLevel,
    NResamples,
    StopBatch,
    acted_on,
    add_intervals,
    check_tau_option,
    design_from,
    load_with_clusters,
)

DEFAULT_K = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 100000]


def _interval_words(method: str | None) -> str:
    """The interval method as the table says it: a band holds for every k shown at once, the others per k."""
    if method is not None and method.startswith("band"):
        return "simultaneous band" + method[len("band"):] + ", all k shown at once"
    return f"{method}, each k on its own"


def render_curve_table(res) -> None:  # type: ignore[no-untyped-def]
    """Rich tables of a CurveResult, one per model."""
    from .._results import how_many, level_label, metric_label

    for i, m in enumerate(res.models):
        s = res.summary[i]
        title = (
            f"{m}: {how_many(s['problems'], 'problem')}, {samples_per_problem(s)}"
            + ("" if res.design is None else f"; pass@k for a {res.design} design")
            + ("" if not res.intervals else f"; intervals: {_interval_words(res.interval_method)}, counting problems")
            + ("" if not res.intervals or not (no_ci := [metric_label(v, res.tau) for v in res.values
                                                         if v not in res.intervals])
               else f" (none for {' and '.join(no_ci)})")
        )
        t = Table(title=title, title_justify="left")
        t.add_column("k", justify="right")
        for name in res.values:
            t.add_column(metric_label(name, res.tau), justify="right")
            if name in res.intervals:
                # a bound such as 0.00000012 never loses digits to an ellipsis: the cell wraps at its comma
                t.add_column(f"{level_label(res.confidence_level or 0.95)} interval", justify="right",
                             overflow="fold", min_width=len("[0.00000012,"))
        t.add_column("problems", justify="right")
        # one notation per metric: its column and its interval's ends alike (column_fmt), in which no rate below 1 reads
        # 1 (as forecast's columns: an interval's upper end of 0.99996 had read 1.0000)
        fmts = {name: column_fmt(arr[i], *(res.intervals[name][e][i] for e in (0, 1) if name in res.intervals),
                                 below_one=True)
                for name, arr in res.values.items()}
        for j, k in enumerate(res.k):
            row = [str(int(k))]
            for name, arr in res.values.items():
                f = fmts[name]
                row.append(f(arr[i, j]))
                if name in res.intervals:
                    lo, hi = res.intervals[name]
                    mark = "*" if name in res.few_problems and res.few_problems[name][i, j] else ""
                    row.append(f"[{f(lo[i, j])}, {f(hi[i, j])}]{mark}")
            row.append(str(int(res.problems[i, j])))
            t.add_row(*row)
        out.print(t)
        if any(v[i].any() for v in res.few_problems.values()):
            from .._uncertainty import FEW_PROBLEMS, WILSON_BOUND

            out.print(f"  *: {FEW_PROBLEMS} there; the interval is {WILSON_BOUND}", markup=False)
        beyond = res.k[res.problems[i] == 0]
        if beyond.size:
            out.print(f"  '-' from k = {int(beyond[0])}: beyond the samples of {m} (n from {s['n_min']} to {s['n_max']}); "
                      "no unbiased estimate there", markup=False)


@command("curve")
@read_options
def curve_cmd(
    ctx: typer.Context,
    file: FileArg,
    k: Annotated[str | None, typer.Option("--k", help="Comma-separated budgets, e.g. 1,10,100.")] = None,
    all_k: Annotated[bool, typer.Option("--all-k", help="Every k from 1 to n.")] = False,
    drop_k_gt_n: Annotated[
        bool,
        typer.Option("--drop-k-gt-n", help="Leave problems with n < k out of the mean at that k (and say how many)."),
    ] = False,
    json_out: JsonFlag = False,
    ci: Annotated[
        str | None,
        typer.Option("--ci", help="Add intervals (counting problems): analytic, bootstrap, bca, two-level, cluster, band."),
    ] = None,
    confidence_level: ConfidenceLevel = 0.95,
    n_resamples: NResamples = 2000,
    seed: Seed = 0,
    cluster_col: ClusterCol = None,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    metric: Annotated[
        str | None,
        typer.Option("--metric", help="Comma-separated columns: pass_at_k, pass_pow_k, naive_pass_at_k, g_pass_at_k "
                     "(needs --tau), mg_pass_at_k (default: the first three)."),
    ] = None,
    tau: Annotated[float | None, typer.Option("--tau", help="Threshold of G-pass@k (with --metric g_pass_at_k).")] = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """pass@k, pass^k and naive pass@k per model at the chosen k (default: 1, 2, 5, 10, 20, 50, ... and n)."""
    import numpy as np

    from .._curves import curve as compute_curve
    from .._curves import default_top, with_own_ends

    if k is not None and all_k:
        raise PasscurveError("give either `--k` or `--all-k`, not both")
    check_tau_option(tau, metric)
    metrics = None if metric is None else _metrics(metric, tau)
    if ci is None:  # options that only shape intervals, given without asking for any: an error, as in the library
        idle = [f"`--{name.replace('_', '-')}`" for name in ("confidence_level", "n_resamples", "seed")
                if getattr(ctx.get_parameter_source(name), "name", "") == "COMMANDLINE"]
        if idle:
            raise PasscurveError(f"{', '.join(idle)} appl{'ies' if len(idle) == 1 else 'y'} only with `--ci METHOD` "
                                 "(intervals); without it none are computed")
    design = design_from(stop_batch, cap)
    counts = load_with_clusters(file, cluster_col, acted_on(design), **read)
    # a k asked for by name must be estimable for every model; the default grids run each model to its own
    # smallest n ("-" beyond it), so one model sampled 10 times does not cut another's curve at k = 10
    policy: Literal["raise", "drop", "nan"] = (
        "drop" if drop_k_gt_n else "raise" if (k is not None or design is not None) else "nan"
    )
    if all_k:
        ks = None
    elif k is not None:
        ks = parse_int_list(k, "--k")
    else:
        limit = default_top(counts, policy, design)
        if design is not None and design.cap is not None:
            limit = min(limit, design.cap)
        # ending at the top itself (n = 3 listed k = 1, 2), and under "nan" at each model's own n
        ks = with_own_ends(np.array([v for v in DEFAULT_K if v < limit] + [limit], dtype=np.int64), counts, policy,
                           design).tolist()
    with collect_warnings(show=True, acted_on=acted_on(design)):
        res = compute_curve(counts, ks, k_gt_n=policy, design=design, metrics=metrics, tau=tau)
        if ci is not None:
            res = add_intervals(
                res, counts, method=ci, confidence_level=confidence_level, n_resamples=n_resamples, seed=seed, k_gt_n=policy,
                design=design,
            )
    if json_out:
        print_json(res.to_dict())
    else:
        render_curve_table(res)


def _metrics(metric: str, tau: float | None) -> list[str]:
    """``--metric``'s comma-separated names, each one of CURVE_METRICS, with ``--tau`` when G-pass@k is one (a
    ``--tau`` without it is :func:`check_tau_option`'s error)."""
    from .._curves import CURVE_METRICS

    names = [m.strip() for m in metric.split(",") if m.strip()]
    bad = [m for m in names if m not in CURVE_METRICS]
    if bad or not names:
        raise PasscurveError(f"`--metric` must be comma-separated names among {', '.join(CURVE_METRICS)} "
                             f"(got {metric!r})")
    if "g_pass_at_k" in names and tau is None:
        raise PasscurveError("`--metric g_pass_at_k` needs `--tau` (G-pass@k's threshold in [0, 1], e.g. --tau 0.5)")
    return list(dict.fromkeys(names))


@command("simulate")
def simulate_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write (.csv, .jsonl or .parquet).")],
    problems: Annotated[int, typer.Option("--problems", help="Problems per model.")] = 300,
    n: Annotated[int, typer.Option("--n", help="Samples per problem.")] = 1000,
    samples: Annotated[
        bool, typer.Option("--samples", help="Write one row per sample instead of per-problem counts.")
    ] = False,
    seed: Seed = 0,
) -> None:
    """Write a demo benchmark: four models, heavy-tailed Beta difficulty, some impossible problems."""
    from .._simulate import simulate as run_simulation
    from ..data import write_counts, write_table

    if problems < 1 or n < 1:
        raise PasscurveError("`--problems` and `--n` must be >= 1")
    bench = run_simulation(problems=problems, n=n, rng=seed)
    if samples:
        write_table(bench.samples(rng=seed), output)
        rows = int(bench.counts.n.sum())
    else:
        write_counts(bench.counts, output)
        rows = len(bench.counts)
    typer.echo(f"wrote {rows} rows ({len(bench.counts.models)} models x {problems} problems, n={n}) to {output}")


@command("demo")
def demo_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the HTML report.")] = Path(
        "passcurve-demo.html"
    ),
    problems: Annotated[int, typer.Option("--problems", help="Problems per model.")] = 300,
    n: Annotated[int, typer.Option("--n", help="Samples per problem.")] = 1000,
    forecast_resamples: Annotated[
        int, typer.Option("--forecast-resamples", help="Bootstrap refits per model behind the forecast intervals.")
    ] = 30,
    seed: Seed = 0,
) -> None:
    """The main job on a built-in simulated benchmark (no input needed): the offline HTML report.

    Writes the report and explorer.html next to it. Example: passcurve demo -o report.html
    """
    from .._simulate import simulate as run_simulation
    from ..report import STEPS
    from ._report import EXPLORER, _summary, check_html_output, progress_bar, write_report

    if problems < 1 or n < 1:
        raise PasscurveError("`--problems` and `--n` must be >= 1")
    check_html_output(output, beside=EXPLORER)
    with progress_bar(("simulating", *STEPS)) as advance:
        advance("simulating")
        bench = run_simulation(problems=problems, n=n, rng=seed)
        rep = write_report(bench.counts, output, advance=advance, rng=seed, forecast_resamples=forecast_resamples,
                           title="passcurve demo: a simulated benchmark (4 models)")
    _summary(rep, output)
