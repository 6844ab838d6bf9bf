"""`passcurve report`, `passcurve explore` and `passcurve plot`: render result objects, compute nothing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from .._errors import PasscurveError
from ._app import (
    NO_READ,
    FileArg,
    Seed,
    caught_warnings,
    command,
    err,
    file_paths,
    one_or_several,
    out,
    read_options,
)
from ._compare import Cap, StopBatch, acted_on, design_from

Output = Annotated[Path, typer.Option("-o", "--output", help="Where to write the HTML report.")]
Level = Annotated[float, typer.Option("--confidence-level", help="Level of the intervals and bands.")]
DropK = Annotated[
    bool,
    typer.Option("--drop-k-gt-n", help="Run curves to the largest n, leaving problems with n < k out at that k."),
]
NResamples = Annotated[int, typer.Option("--n-resamples", help="Resamples of the paired model comparisons.")]
ForecastResamples = Annotated[
    int, typer.Option("--forecast-resamples", help="Bootstrap refits per model behind the forecast intervals.")
]
ForecastK = Annotated[int | None, typer.Option("--forecast-k", help="Forecast pass@k up to this k (default 100x the largest observed k, at least 10^4).")]


@contextmanager
def progress_bar(steps: tuple[str, ...], enabled: bool = True) -> Iterator[Callable[[str], None]]:
    """A rich progress bar on stderr advanced by a callback(step name); silent when not a terminal."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    if not enabled or not err.is_terminal:
        yield lambda name: None
        return
    with Progress(
        TextColumn("[bold]passcurve[/bold] {task.description:<32}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        task = bar.add_task(steps[0], total=len(steps))
        seen: list[str] = []

        def advance(name: str) -> None:
            if seen:
                bar.advance(task)
            seen.append(name)
            bar.update(task, description=name)

        yield advance
        bar.update(task, completed=len(steps))


def _read_with_warnings(file: Path | list[Path], **opts: Any) -> tuple[Any, list[tuple[str, str]]]:
    """Read through the data layer (with its own progress display) and keep its warnings for the report.

    Like :func:`load_counts`, but the warnings are returned (the report shows them and the
    command prints them once at the end) instead of printed here.
    """
    from ..data import read_counts
    from ..data._progress import cli_progress

    with caught_warnings() as got, cli_progress(err, file_paths(file)) as progress:
        counts = read_counts(one_or_several(file), progress=progress, **opts)
    return counts, got


def _retry_result(file: Path | list[Path], seed: int, **opts: Any) -> tuple[Any, list[tuple[str, str]]]:
    """passcurve.retries on the per-attempt log (its warnings returned for the report)."""
    from .._retries import retries as run_retries
    from ..data import read_attempts

    with caught_warnings() as got:
        d = read_attempts(one_or_several(file), **opts)
        res = run_retries(d["problem"], d["attempt"], d["correct"], model=d["model"], n_resamples=199, rng=seed)
    return res, got


EXPLORER = "explorer.html"
"""The explorer page the report writes next to itself (``build_report``'s ``explorer_href``)."""


def check_html_output(output: Path, *, beside: str | None = None) -> None:
    """Before any work: the output must be an .html file that :func:`check_output` accepts; ``beside``: the name of
    a page written next to it (the report's explorer), which it must not be."""
    if output.suffix.lower() not in (".html", ".htm"):
        raise PasscurveError(f"`--output` must end in .html (got {output.name!r})")
    if beside is not None and output.name == beside:
        raise PasscurveError(f"`--output` cannot be named {beside!r}: the explorer page is written next to the "
                             "report under that name")
    check_output(output)


def check_output(output: Path) -> None:
    """Before any work: the output is not a directory, and its directory exists and is writable."""
    if output.is_dir():
        raise PasscurveError(f"cannot write `{output}`: it is a directory")
    parent = output.parent if str(output.parent) else Path(".")
    if not parent.is_dir():
        raise PasscurveError(f"cannot write `{output}`: directory `{parent}` does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise PasscurveError(f"cannot write `{output}`: directory `{parent}` is not writable")


def write_report(counts: Any, output: Path, *, input_warnings: list[tuple[str, str]] | None = None,
                 advance: Callable[[str], None] | None = None, **kwargs: Any) -> Any:
    """Build the report of ``counts``, write it and the explorer next to it, echo the warnings on stderr."""
    from ..report import build_report

    check_html_output(output, beside=EXPLORER)
    rep = build_report(counts, input_warnings=input_warnings or (), progress=advance, **kwargs)
    rep.write(output)
    skip = {c.__name__ for c in acted_on(kwargs.get("design"))}  # dealt with (it stays in the page's flags)
    for cat, msg in rep.warnings:
        if cat not in skip:
            err.print(f"passcurve: warning: {cat}: {msg}", markup=False)
    return rep


@command("report")
@read_options
def report_cmd(
    file: FileArg,
    output: Output = Path("report.html"),
    confidence_level: Level = 0.95,
    drop_k_gt_n: DropK = False,
    forecast_k: ForecastK = None,
    title: Annotated[str | None, typer.Option("--title", help="Title of the report.")] = None,
    retries: Annotated[
        bool,
        typer.Option("--retries", help="The attempts are retries with feedback: read the attempt order of the "
                     "per-sample log and report completion within the retry budget (passcurve.retries)."),
    ] = False,
    n_resamples: NResamples = 1000,
    forecast_resamples: ForecastResamples = 30,
    seed: Seed = 0,
    stop_batch: StopBatch = None,
    cap: Cap = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """One offline HTML report: curves with bands, forecast, difficulty, comparisons, per-problem table, flags.

    Writes explorer.html next to it (linked from the report). Example: passcurve report runs.jsonl -o report.html
    """
    from ..report import STEPS

    check_html_output(output, beside=EXPLORER)
    design = design_from(stop_batch, cap)
    if retries and read["pool"]:  # before any reading
        raise PasscurveError("`--retries` reads each run's attempt order, which pooled runs do not have; "
                             "leave out `--pool` or `--retries`")
    counts, read_warnings = _read_with_warnings(file, **read)
    retry_result = None
    if retries:
        attempt_opts = ("problem_col", "attempt_col", "correct_col", "model_col", "threshold", "format", "models")
        retry_result, more = _retry_result(file, seed, **{o: read[o] for o in attempt_opts})
        read_warnings += [w for w in more if w not in read_warnings]
    with progress_bar(STEPS) as advance:
        rep = write_report(
            counts, output, input_warnings=read_warnings, advance=advance, title=title, retry_result=retry_result,
            confidence_level=confidence_level, k_gt_n="drop" if drop_k_gt_n else "nan",
            forecast_k=forecast_k, rng=seed, n_resamples=n_resamples, forecast_resamples=forecast_resamples,
            design=design,
        )
    _summary(rep, output)


def _summary(rep: Any, output: Path) -> None:
    size = output.stat().st_size / 1e6
    omitted = rep.omitted()
    out.print(
        f"wrote {output} ({size:.1f} MB, {len(rep.sections) - len(omitted)} sections) and "
        f"{output.parent / rep.explorer_href}; open {output} in a browser (works offline)",
        markup=False, highlight=False,
    )
    for sid, note in omitted.items():
        out.print(f"  omitted {sid}: {note}", markup=False, highlight=False)


@command("explore")
def explore_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the explorer page.")] = Path(
        "explorer.html"
    ),
) -> None:
    """The hidden-difficulty explorer: two sliders, exact Beta curves, one offline HTML file."""
    from ..report import write_explorer

    check_html_output(output)
    write_explorer(output)
    out.print(f"wrote {output}; open it in a browser (works offline)", markup=False, highlight=False)


@command("plot")
@read_options
def plot_cmd(
    file: FileArg,
    output: Annotated[Path, typer.Option("-o", "--output", help="fig.png, fig.svg or fig.pdf.")],
    panels: Annotated[
        str, typer.Option("--panels", help="Comma-separated: pass_at_k, failure, pass_pow_k, naive.")
    ] = "pass_at_k,failure,pass_pow_k",
    confidence_level: Level = 0.95,
    drop_k_gt_n: DropK = False,
    forecast_k: ForecastK = None,
    forecast_resamples: ForecastResamples = 30,
    seed: Seed = 0,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Static figures of the main curves for papers (PNG, SVG or PDF; matplotlib, offline)."""
    from ..report import compute_report_data
    from ..report._static import FORMATS, _static_iv, panel_metrics, save_figure, static_figure

    if output.suffix.lower() not in FORMATS:
        raise PasscurveError(f"`--output` must end in .png, .svg or .pdf (got {output.name!r})")
    check_output(output)
    chosen = _static_iv(panels)
    counts, read_warnings = _read_with_warnings(file, **read)
    parts = {"intervals"} | ({"fits"} if "failure" in chosen else set())
    data = compute_report_data(
        counts, confidence_level=confidence_level, k_gt_n="drop" if drop_k_gt_n else "nan",
        forecast_k=forecast_k, rng=seed, parts=parts, input_warnings=read_warnings,
        forecast_resamples=forecast_resamples, metrics=panel_metrics(chosen),  # only what the panels draw
    )
    save_figure(static_figure(data, chosen), output)
    for cat, msg in data.warnings:
        err.print(f"passcurve: warning: {cat}: {msg}", markup=False)
    out.print(f"wrote {output}", markup=False, highlight=False)
