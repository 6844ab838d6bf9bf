"""`passcurve compare` and the `--ci` plumbing of `passcurve curve` (intervals, clusters)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from .._errors import PasscurveError, StoppingTimeWarning
from ._app import (
    NO_READ,
    FileArg,
    JsonFlag,
    Seed,
    collect_warnings,
    column_fmt,
    command,
    file_paths,
    fmt_cell,
    load_counts,
    out,
    parse_int_list,
    print_json,
    read_options,
)

if TYPE_CHECKING:
    from .._adaptive import StopAtSuccess
    from .._counts import Counts

CI_METHODS = ("analytic", "bootstrap", "bca", "two-level", "cluster", "band")

# options shared by `curve --ci` and `compare`
ConfidenceLevel = Annotated[float, typer.Option("--confidence-level", help="Confidence level of the intervals.")]
NResamples = Annotated[int, typer.Option("--n-resamples", help="Bootstrap replicates / random sign flips.")]
ClusterCol = Annotated[
    str | None,
    typer.Option("--cluster-col", help="Column with a cluster id per problem (e.g. the source document): clustered errors."),
]
StopBatch = Annotated[
    int | None,
    typer.Option("--stop-batch", help="n is a stopping time: sampling stopped at the first batch of this many "
                 "samples with a success (1: at the first success). pass@k by the stopping-time estimator."),
]
Cap = Annotated[int | None, typer.Option("--cap", help="With --stop-batch: the most samples a problem could get.")]
# options shared by `compare` and `rank`
KList = Annotated[str, typer.Option("--k", help="Comma-separated budgets, e.g. 1,10,100.")]
MetricOpt = Annotated[str, typer.Option("--metric", help="pass_at_k, pass_pow_k or g_pass_at_k.")]
TauOpt = Annotated[float | None, typer.Option("--tau", help="Threshold of G-pass@k.")]
_PROBLEM_GUESSES = ("problem_id", "problem", "task_id", "question_id", "prompt_id", "id")


def acted_on(design: StopAtSuccess | None) -> tuple[type, ...]:
    """Warnings a command under ``design`` has dealt with: the reader's StoppingTimeWarning."""
    return () if design is None else (StoppingTimeWarning,)


def design_from(stop_batch: int | None, cap: int | None) -> StopAtSuccess | None:
    """The sampling design of `--stop-batch B [--cap C]` (None: n fixed in advance)."""
    if cap is not None and stop_batch is None:
        raise PasscurveError("`--cap` goes with `--stop-batch` (the stop-at-success design)")
    if stop_batch is None:
        return None
    from .._adaptive import StopAtSuccess  # (it imports scipy: only under --stop-batch)

    return StopAtSuccess(batch=stop_batch, cap=cap)


def attach_clusters(counts: Counts, files: Path | list[Path], cluster_col: str | None,
                    problem_col: str | None) -> Counts:
    """Counts with a cluster id per problem read from ``cluster_col`` of the file (of every file, when several:
    a problem must have one cluster across them).

    Used when the data layer does not carry the column itself; one cluster per problem.
    """
    if cluster_col is None:
        return counts
    import duckdb
    import numpy as np

    mapping: dict[str, str] = {}
    for file in file_paths(files):
        con = duckdb.connect()
        try:
            rel = con.sql(f"SELECT * FROM '{str(file).replace(chr(39), chr(39) * 2)}'")
        except duckdb.Error as exc:
            raise PasscurveError(f"cannot read {file} for `--cluster-col` ({str(exc).splitlines()[0]})") from None
        cols = list(rel.columns)
        if cluster_col not in cols:
            raise PasscurveError(
                f"`--cluster-col` {cluster_col!r} is not a column of {file} (columns: {', '.join(cols)})")
        pcol = problem_col or next((c for c in _PROBLEM_GUESSES if c in cols), None)
        if pcol is None or pcol not in cols:
            raise PasscurveError("`--cluster-col` needs the problem column: pass `--problem-col`")
        pairs = con.sql(
            f'SELECT DISTINCT CAST("{pcol}" AS VARCHAR) AS p, CAST("{cluster_col}" AS VARCHAR) AS g FROM rel'
        ).fetchall()
        for p, g in pairs:
            if p in mapping and mapping[p] != g:
                raise PasscurveError(
                    f"problem {p!r} has several values in `--cluster-col` {cluster_col!r} ({mapping[p]!r}, {g!r})")
            mapping[p] = g
    missing = [p for p in counts.problem if str(p) not in mapping]
    if missing:
        raise PasscurveError(f"no `--cluster-col` value for problem {missing[0]!r}")
    cl = np.array([mapping[str(p)] for p in counts.problem], dtype=object)
    return dataclasses.replace(counts, cluster=cl)


def load_with_clusters(file: Path | list[Path], cluster_col: str | None, acted_on: tuple[type, ...] = (), **kwargs: Any) -> Counts:
    """load_counts (its warnings, its progress bar), plus the cluster column read beside it."""
    counts = load_counts(file, acted_on=acted_on, **kwargs)
    if cluster_col is not None and counts.cluster is None:
        counts = attach_clusters(counts, file, cluster_col, kwargs.get("problem_col"))
    return counts


def add_intervals(
    res: Any,
    counts: Counts,
    *,
    method: str,
    confidence_level: float,
    n_resamples: int,
    seed: int,
    k_gt_n: str,
    design: Any = None,
) -> Any:
    """The CurveResult ``res`` with intervals at the same k for the metrics it holds that have them (pass@k, pass^k,
    G-pass@k; pass@k alone under a design)."""
    from .._uncertainty import INTERVAL_METRICS, curve_intervals

    if method not in CI_METHODS:
        raise PasscurveError(f"`--ci` must be one of {', '.join(CI_METHODS)} (got {method!r})")
    if method == "cluster" and counts.cluster is None:
        raise PasscurveError("`--ci cluster` needs cluster ids: pass `--cluster-col COLUMN`")
    metrics = [m for m in res.values if m in INTERVAL_METRICS]
    if not metrics:
        raise PasscurveError(f"`--ci` gives intervals for {', '.join(INTERVAL_METRICS)}; `--metric` names none of "
                             f"them (got {', '.join(res.values)})")
    ci = curve_intervals(
        counts,
        res.k,
        metric=metrics,
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        rng=seed,
        tau=res.tau,
        k_gt_n=k_gt_n,
        design=design,
    )
    return dataclasses.replace(
        res,
        intervals=ci.intervals,
        few_problems=ci.few_problems,
        confidence_level=ci.confidence_level,
        interval_method=ci.interval_method,
        warnings=tuple(dict.fromkeys(res.warnings + ci.warnings)),
    )


def render_compare(res: Any) -> None:
    from .._results import level_label, metric_label

    d = res.to_dict()
    title = (
        f"{res.model_a} - {res.model_b}: {metric_label(res.metric, res.tau)}, "
        f"{'paired' if res.paired else 'UNPAIRED'}, interval {res.method}, test {res.test}"
        + ("" if res.design is None else f"; {res.design} design")
    )
    t = Table(title=title, title_justify="left")
    for col in ("k", res.model_a, res.model_b, "difference", f"{level_label(res.confidence_level)} interval", "p-value", "problems"):
        t.add_column(col, justify="right", overflow="fold")  # a long model name wraps; it is never cut
    pts = d["points"]
    # one notation per column, the difference's and its interval's alike (column_fmt); A's and B's together, the
    # same quantity side by side (as the report's comparison table)
    fa = fb = column_fmt([pt[key] for pt in pts for key in ("a", "b")])
    fd = column_fmt([pt[key] for pt in pts for key in ("difference", "low", "high")])
    # the p-values too: each cell's .3g had written 0.00998 above 0.000174 and, below 10^-4, '3e-05'
    fp = column_fmt([pt["p_value"] for pt in pts])
    for pt in pts:
        t.add_row(
            str(pt["k"]),
            fa(pt["a"]),
            fb(pt["b"]),
            fd(pt["difference"]),
            f"[{fd(pt['low'])}, {fd(pt['high'])}]",
            fp(pt["p_value"]),
            str(pt["problems"]) if "problems_b" not in pt else f"{pt['problems']} / {pt['problems_b']}",
        )
    out.print(t)




def check_tau_option(tau: float | None, metric: str | None) -> None:
    """`--tau` is G-pass@k's threshold; with another metric it would be ignored, and the table would not say so.
    ``metric``: the `--metric` given (comma-separated names where a command takes several; None when not given)."""
    if tau is not None and (metric is None or "g_pass_at_k" not in [m.strip() for m in metric.split(",")]):
        raise PasscurveError("`--tau` goes with `--metric g_pass_at_k`"
                             + (f" (got --metric {metric})" if metric is not None else " (G-pass@k's threshold)"))


@command("compare")
@read_options
def compare_cmd(
    file: FileArg,
    a: Annotated[str, typer.Option("--a", help="Model A (the difference is A - B).")],
    b: Annotated[str, typer.Option("--b", help="Model B.")],
    k: KList = "1",
    metric: MetricOpt = "pass_at_k",
    tau: TauOpt = None,
    method: Annotated[str, typer.Option("--method", "--ci", help="Interval: bootstrap, bca or analytic (--ci as in curve).")] = "bootstrap",
    confidence_level: ConfidenceLevel = 0.95,
    n_resamples: NResamples = 2000,
    seed: Seed = 0,
    cluster_col: ClusterCol = None,
    json_out: JsonFlag = False,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Paired comparison of two models at each k: difference, interval, p-value (counting problems)."""
    from .._compare import COMPARE_METHODS
    from .._compare import compare as run_compare
    from .._uncertainty import INTERVAL_METRICS

    design = design_from(stop_batch, cap)
    if metric not in INTERVAL_METRICS:
        raise PasscurveError(f"`--metric` must be one of {', '.join(INTERVAL_METRICS)} (got {metric!r})")
    if method not in COMPARE_METHODS:
        raise PasscurveError(f"`--method` must be one of {', '.join(COMPARE_METHODS)} (got {method!r})")
    check_tau_option(tau, metric)
    ks = parse_int_list(k, "--k")
    counts = load_with_clusters(file, cluster_col, acted_on(design), **read)
    with collect_warnings(show=True, acted_on=acted_on(design)):
        res = run_compare(
            counts,
            a,
            b,
            ks,
            metric=metric,
            method=method,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            rng=seed,
            tau=tau,
            design=design,
        )
    if json_out:
        print_json(res.to_dict())
    else:
        render_compare(res)


@command("rank")
@read_options
def rank_cmd(
    file: FileArg,
    k: KList = "1",
    metric: MetricOpt = "pass_at_k",
    tau: TauOpt = None,
    confidence_level: ConfidenceLevel = 0.95,
    n_resamples: NResamples = 2000,
    seed: Seed = 0,
    cluster_col: ClusterCol = None,
    json_out: JsonFlag = False,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Leaderboard at each k: every model's score and a simultaneous confidence interval for its rank."""
    from .._rank import rank_models
    from .._results import level_label, metric_label
    from .._uncertainty import INTERVAL_METRICS

    design = design_from(stop_batch, cap)
    if metric not in INTERVAL_METRICS:
        raise PasscurveError(f"`--metric` must be one of {', '.join(INTERVAL_METRICS)} (got {metric!r})")
    check_tau_option(tau, metric)
    ks = parse_int_list(k, "--k")
    counts = load_with_clusters(file, cluster_col, acted_on(design), **read)
    with collect_warnings(show=True, acted_on=acted_on(design)):
        res = rank_models(counts, ks, metric=metric, confidence_level=confidence_level, n_resamples=n_resamples,
                          rng=seed, tau=tau, design=design)
    if json_out:
        print_json(res.to_dict())
        return
    lvl = level_label(res.confidence_level)
    for j, kk in enumerate(res.k):
        label = metric_label(res.metric, res.tau)
        t = Table(title=f"{label} at k={int(kk)}: {res.problems} shared problems, "
                        f"{lvl} simultaneous rank intervals", title_justify="left")
        for col, just in (("rank", "right"), ("model", "left"), ("score", "right"), (f"{lvl} interval", "right"),
                          ("rank interval", "right")):
            t.add_column(col, justify=just, overflow="fold")  # type: ignore[arg-type]
        rows = res.table(j)
        score = column_fmt([r[key] for r in rows for key in ("estimate", "low", "high")])  # one notation, as the report's
        for r in rows:
            span = str(r["rank"]) if r["rank_low"] == r["rank_high"] else f"{r['rank_low']}–{r['rank_high']}"
            t.add_row(str(r["rank"]), r["model"], score(r["estimate"]), f"[{score(r['low'])}, {score(r['high'])}]", span)
        # the title's "simultaneous" is the rank intervals'; the score's interval is each model's own
        t.caption = (f"{lvl} interval: the score's percentile bootstrap, each model on its own; rank interval: all models "
                     "at once")
        out.print(t)


@command("hidden-difficulty")
@read_options
def hidden_difficulty_cmd(
    file: FileArg,
    k: Annotated[str | None, typer.Option("--k", help="Comma-separated budgets (default: powers of two up to n).")] = None,
    json_out: JsonFlag = False,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """P(both right) vs mu^2, P(2nd | 1st), intra-class correlation, pass@k vs the independent-coin curve."""
    from .._diagnostics import hidden_difficulty

    counts = load_counts(
        file,
        **read,
    )
    with collect_warnings(show=True):
        # a --k beyond some model's samples shows "-" with a footnote naming where its samples end (below)
        res = hidden_difficulty(counts, parse_int_list(k, "--k"), k_gt_n="nan")
    if json_out:
        print_json(res.to_dict())
        return
    t = Table(title="hidden difficulty: answers are independent given the problem, not across problems", title_justify="left")
    for col in ("model", "P(right) μ", "μ²", "P(both right)", "P(2nd | 1st)", "ICC"):
        t.add_column(col, justify="right", overflow="fold")
    models = res.to_dict()["models"]
    keys = ("p_right", "p_right_squared", "p_both_right", "p_second_given_first", "icc")
    fmts = [column_fmt([e[key] for e in models]) for key in keys]  # one notation per column
    for e in models:
        t.add_row(e["model"], *(f(e[key]) for f, key in zip(fmts, keys, strict=True)))
    out.print(t)
    for e in res.to_dict()["models"]:  # the pair columns rest on the problems with n >= 2 only: say so under the table
        if e.get("problems_one_sample") and e["problems"]:
            out.print(f"  {e['model']}: μ², P(both right), P(2nd | 1st) and ICC over its {e['problems']} problems with "
                      f"n >= 2 (μ there {fmt_cell(e['p_right_pairs'])}); {e['problems_one_sample']} with n = 1 left out",
                      markup=False, highlight=False)
    c = Table(title="pass@k actually vs if independent, 1-(1-μ)^k", title_justify="left")
    for col in ("model", "k", "pass@k", "if independent", "pass^k", "μ^k"):
        c.add_column(col, justify="right", overflow="fold")
    pair_keys = ("pass_at_k", "independent_pass_at_k", "pass_pow_k", "independent_pass_pow_k")
    fmts = [column_fmt([pt[key] for e in models for pt in e["curve"]]) for key in pair_keys]
    for e in models:
        for pt in e["curve"]:
            c.add_row(e["model"], str(pt["k"]), *(f(pt[key]) for f, key in zip(fmts, pair_keys, strict=True)))
    out.print(c)
    ends: dict[int, list[str]] = {}  # where the models' samples end: one line per k, naming every model that ends there
    for e in res.to_dict()["models"]:
        beyond = [pt["k"] for pt in e["curve"] if pt.get("problems") == 0]
        if beyond:
            ends.setdefault(int(beyond[0]), []).append(str(e["model"]))
    for k_end, names in ends.items():
        out.print(f"  '-' from k = {k_end}: beyond the samples of {', '.join(names)} (not every problem has n >= k)",
                  markup=False, highlight=False)


@command("power")
def power_cmd(
    delta: Annotated[float, typer.Option("--delta", help="Difference to detect (absolute).")],
    k: Annotated[int, typer.Option("--k", help="Budget k.")] = 1,
    n: Annotated[
        str | None,
        typer.Option("--n", help="Candidate samples per problem, e.g. 1,10,100 (default: k, 2k, 5k, 10k, 20k, 50k, 100k)."),
    ] = None,
    p: Annotated[
        float | None, typer.Option("--p", help="Assumed mean success rate (no pilot file; default 0.5).")
    ] = None,
    correlation: Annotated[
        float | None,
        typer.Option("--correlation", help="Assumed correlation of the two models' outcomes (no pilot file; default 0.5)."),
    ] = None,
    spread: Annotated[float | None, typer.Option("--spread", help="Assumed sd of per-problem success rates.")] = None,
    pilot: Annotated[Path | None, typer.Option("--pilot", help="Pilot counts/log with both models.")] = None,
    a: Annotated[str | None, typer.Option("--a", help="Model A in the pilot.")] = None,
    b: Annotated[str | None, typer.Option("--b", help="Model B in the pilot.")] = None,
    confidence_level: Annotated[
        float,
        typer.Option("--confidence-level", help="1 - the two-sided significance level of the test (0.95: a 5% test)."),
    ] = 0.95,
    power: Annotated[float, typer.Option("--power", help="Probability of detecting delta.")] = 0.8,
    json_out: JsonFlag = False,
) -> None:
    """How many problems (and samples per problem) detect a difference delta at k."""
    from .._compare import _power_iv, _power_values_iv, power_analysis
    from .._validation import check_unused

    # the values first, in the library's order (`--delta 2 --a x` had been told of the unused --a, not of its delta),
    # the grid named by its flag: `n` is the pilot's column to the CLI's renaming, so '--n 0' had read "`n` must be >= 1"
    ns = parse_int_list(n, "--n")
    _power_values_iv(delta, k, ns, confidence_level, power, n_name="--n")
    # then the library's own check of what applies, with the flags' names
    if pilot is None:
        check_unused("with `--pilot` (they name its two models)", **{"--a": a, "--b": b})
    else:
        check_unused("without `--pilot` (the pilot's own variances are used)",
                     **{"--p": p, "--correlation": correlation, "--spread": spread})
    if pilot is None and spread is None and n is None:
        # the default grid asks for more than one sample per problem, which the assumed variances cannot split
        # without --spread; say so rather than answer a question the user did not ask. Every value is checked
        # first, in the library's order (`--delta 2` had been told of --spread, not of its delta)
        _power_iv(delta, k, None, confidence_level, power, "pass_at_k", None, None, a, b, p, correlation, spread)
        raise PasscurveError("without `--pilot`, the default `--n` (1, 2, 5, 10, 20, 50, 100 samples per problem) "
                             "needs `--spread` (sd of per-problem success rates); `--n 1` needs only `--p` and "
                             "`--correlation`")
    counts = load_counts(pilot) if pilot is not None else None
    with collect_warnings(show=True):
        res = power_analysis(
            delta,
            k,
            counts=counts,
            a=a,
            b=b,
            p=p,
            correlation=correlation,
            spread=spread,
            n=ns,
            confidence_level=confidence_level,
            power=power,
        )
    if json_out:
        print_json(res.to_dict())
        return
    t = Table(
        title=f"problems needed to detect δ={res.delta:g} at k={res.k} ({int(round(100 * res.power))}% power, "
        f"two-sided {100 * (1 - res.confidence_level):g}%; {res.source}"
        # the pilot's variances come from the problems both models share: say how many (a file of two problem sets
        # read as well as a paired one)
        + (f" of {res.meta['pilot_problems']:,} shared problems" if res.source == "pilot" else "")
        + (f", ω²={res.omega2:.4g})" if res.omega2 == res.omega2 else ")"),
        title_justify="left",
    )
    for col in ("samples per problem", "problems"):
        t.add_column(col, justify="right")
    for n_, p_ in zip(res.samples_per_problem, res.problems, strict=True):
        t.add_row(str(int(n_)), str(int(p_)))
    if res.omega2 == res.omega2:
        t.caption = "ω²: the between-problem variance of the true per-problem difference at k"
    out.print(t)
