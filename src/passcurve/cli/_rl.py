"""`passcurve rl-signal` (GRPO dead groups in a log) and `passcurve demo-conflict` (the toy page)."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from .._files import write_text_atomic
from ._app import (
    NO_READ,
    FileArg,
    JsonFlag,
    Seed,
    collect_warnings,
    column_fmt,
    command,
    fmt_cell,
    load_counts,
    out,
    parse_int_list,
    print_json,
    read_options,
)


def _g(x: float) -> str:
    if x != x:
        return "-"
    if x == float("inf"):
        return "never"
    return f"{int(x)}"


@command("rl-signal")
@read_options
def rl_signal_cmd(
    file: FileArg,
    group_size: Annotated[
        str, typer.Option("--group-size", "-G", help="Comma-separated GRPO group sizes, e.g. 8,16,64.")
    ] = "8,16,64",
    target_live: Annotated[
        float, typer.Option("--target-live", help="Target fraction of live (not all-equal) groups.")
    ] = 0.9,
    difficulty: Annotated[
        str,
        typer.Option("--difficulty", help="Difficulty model: beta, zi_beta, scaled_beta, beta_mixture, npmle."),
    ] = "beta",
    json_out: JsonFlag = False,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """GRPO dead groups: observed vs independent coins vs the fitted difficulty, and the G needed."""
    from .._difficulty import _params_line
    from .._rl_groups import dead_groups

    sizes = parse_int_list(group_size, "--group-size")
    counts = load_counts(
        file,
        **read,
    )
    with collect_warnings(show=True):
        res = dead_groups(counts, sizes, target_live=target_live, difficulty=difficulty)
    if json_out:
        print_json(res.to_dict())
        return
    for i, m in enumerate(res.models):
        # as `passcurve fit` prints them (--json keeps the values): "—" for a parameter the data do not identify (a
        # Beta's alpha = 1.1e+07 on under-dispersed counts), the bound for one at it, one notation for the line
        unid = () if res.params_not_identified is None else res.params_not_identified[i]
        bound = () if res.params_at_bound is None else res.params_at_bound[i]
        pars = _params_line(res.params_[i], {}, bound, unid)
        unfit = res.identified is not None and not res.identified[i]
        title = (
            f"{m}: mean rate {fmt_cell(res.mean_rate[i])}; "
            + (f"no {res.difficulty} fit (one sample per problem identifies only the mean)" if unfit else
               f"{res.difficulty} fit {pars}" + ("" if res.success[i] else " (fit did not converge)"))
        )
        t = Table(title=title, title_justify="left")
        for col in ("G", "dead (observed)", f"dead ({res.difficulty} fit)", "dead (independent coins)", "problems"):
            t.add_column(col, justify="right")
        # one notation per column (column_fmt): '0.00%' beside '1.23e-03%' was each cell choosing for itself
        fo, ff, fi = (column_fmt(a[i], percent=True) for a in (res.observed, res.fitted, res.independent))
        for j, g in enumerate(res.group_size):
            t.add_row(
                str(int(g)),
                fo(res.observed[i, j]),
                ff(res.fitted[i, j]),
                fi(res.independent[i, j]),
                str(int(res.problems[i, j])),
            )
        out.print(t)
        total = res.total_problems[i] if res.total_problems is not None else max(res.problems[i])
        left = [(int(g), int(total - res.problems[i, j])) for j, g in enumerate(res.group_size)
                if res.problems[i, j] < total]
        if left:  # the observed column rests on the problems with n >= G only: say how many it left out
            out.print("observed dead: problems with n < G left out ("
                      + "; ".join(f"G={g}: {k} of {total}" + (", none left" if k == total else "") for g, k in left)
                      + ")", markup=False, highlight=False)
        need = res.group_size_needed
        why = res._not_found(i)  # the JSON's group_size_not_found, without building the whole dict per model
        seen = (_g(need["observed"][i]) + " (searched up to the smallest n)" if need["observed"][i] == need["observed"][i]
                else "not searched (a problem has one sample)" if why["observed"].startswith("not searched")
                else "not reached (searched up to the smallest n)")
        out.print(
            f"group size for {100 * res.target_live:g}% live groups: observed {seen}, "
            f"{res.difficulty} fit {'not identified' if unfit else _g(need['fitted'][i])}, "
            f"independent coins {_g(need['independent'][i])}"
        )


def _run_label(run: str, k: int) -> str:
    """A run as the toy's plot names it ("pass@k" beside a "pass@8" column read as an unset k)."""
    return {"pass@1": "optimise pass@1", "pass@k": f"optimise pass@{k}", "annealed": f"anneal k: {k} → 1"}.get(run, run)


def _page(res) -> str:  # type: ignore[no-untyped-def]
    """A self-contained HTML page: the training curves and the conflict curve (plotly JS inlined)."""
    fig = res.plot()
    conf = res.conflict
    cfig = conf.plot()
    rows = "".join(
        f"<tr><td>{html.escape(_run_label(s['run'], res.k))}</td><td>{s['pass_at_1_before']:.4f}</td><td>{s['pass_at_1_after']:.4f}</td>"
        f"<td>{s['pass_at_k_before']:.4f}</td><td>{s['pass_at_k_after']:.4f}</td></tr>"
        for s in res.summary
    )
    kstar = "never" if conf.k_star == float("inf") else f"{conf.k_star:.3f}"
    head = (
        "<!doctype html><html><head><meta charset='utf-8'><title>passcurve: pass@k vs pass@1</title>"
        "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}"
        "td:first-child{text-align:left}</style></head><body>"
    )
    intro = (
        f"<h1>Optimising pass@{res.k} can lower pass@1</h1>"
        f"<p>A softmax contextual bandit with {res.easy} easy and {res.hard} hard prompts whose features overlap, "
        f"first trained for pass@1, then trained {res.params['steps']} more exact gradient steps three ways. "
        f"pass@{res.k} weights each prompt by k(1&minus;p)<sup>k&minus;1</sup>, so the hard prompts dominate; "
        f"they interfere negatively with the easy ones ({100 * conf.negative_fraction:.0f}% of prompts have a "
        f"negative agreement score), and at the start a pass@k step lowers pass@1 once k passes "
        f"k* = {kstar}. Annealing k to 1 after {int(100 * res.params['anneal_at'])}% of the steps "
        "recovers pass@1.</p>"
        "<table><tr><th>run</th><th>pass@1 before</th><th>pass@1 after</th>"
        f"<th>pass@{res.k} before</th><th>pass@{res.k} after</th></tr>{rows}</table>"
    )
    body = fig.to_html(full_html=False, include_plotlyjs=True)
    body2 = cfig.to_html(full_html=False, include_plotlyjs=False)
    foot = (
        "<h2>Gradient alignment at the start</h2><p>⟨∇pass@k, ∇pass@1⟩ as a function of k (negative: a pass@k "
        "step lowers pass@1 to first order). References: Barakat et al. 2026, arXiv:2602.21189; "
        "Walder &amp; Karkhanis 2025, arXiv:2505.15201.</p>"
    )
    return head + intro + body + foot + body2 + "</body></html>"


@command("demo-conflict")
def demo_conflict_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the HTML page.")] = Path(
        "conflict.html"
    ),
    k: Annotated[int, typer.Option("--k", help="The pass@k objective.")] = 8,
    steps: Annotated[int, typer.Option("--steps", help="Gradient steps of each run.")] = 600,
    anneal_at: Annotated[float, typer.Option("--anneal-at", help="Fraction of steps before k drops to 1.")] = 0.5,
    json_out: JsonFlag = False,
    seed: Seed = 0,
) -> None:
    """Toy: pass@k ascent raises pass@k while pass@1 falls; annealing k to 1 avoids it (writes a page)."""
    from .._rl_toy import conflict_toy
    from ._report import check_html_output

    check_html_output(output)
    with collect_warnings(show=True):
        res = conflict_toy(k=k, steps=steps, anneal_at=anneal_at, rng=seed)
    write_text_atomic(output, _page(res))
    if json_out:
        print_json(res.to_dict())
        return
    t = Table(title=f"pass@1 and pass@{res.k} before -> after ({res.params['steps']} steps)", title_justify="left")
    t.add_column("run", no_wrap=True)  # the numbers' headers wrap instead at 80 columns
    for col in ("pass@1 before", "pass@1 after", f"pass@{res.k} before", f"pass@{res.k} after"):
        t.add_column(col, justify="right")
    keys = ("pass_at_1_before", "pass_at_1_after", "pass_at_k_before", "pass_at_k_after")
    fmts = [column_fmt([s[key] for s in res.summary]) for key in keys]  # one notation per column
    for s in res.summary:
        t.add_row(_run_label(s["run"], res.k), *(f(s[key]) for f, key in zip(fmts, keys, strict=True)))
    out.print(t)
    out.print(f"k* at the start: {res.conflict.k_star:.3f}; wrote {output}")
