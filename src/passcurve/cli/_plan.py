"""`passcurve plan`: how many more samples each problem should get for the best forecast of pass_D@K."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Annotated, Any

import typer
from rich.table import Table

from .._choices import DEFAULT_HEDGE, PLAN_METHODS, PLAN_MODEL_PRIORS
from .._errors import PasscurveError, StoppingTimeWarning
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
    print_json,
    read_options,
)


def _prior_words(s: Mapping[str, Any]) -> tuple[str, str, str | None]:
    """What a model's plan summary says of its prior (``prior``, as ``Planner.prior_label_``): the title's "given ...",
    the prior p̂ is under, and the caption's note of what a fit is (None for a prior that is no fit). The title had
    said "given the fitted prior", and the caption "the planner's Beta, the posterior mode", of every prior but the
    fallbacks: of a fixed Beta(1, 2), where nothing is fitted, and of an npmle fit, which is no Beta."""
    label = s["prior"]
    fallbacks = {"jeffreys": "Jeffreys' prior Beta(0.5, 0.5)", "uniform": "the uniform prior Beta(1, 1)"}
    if label in fallbacks:  # a fallback prior is no fit: the title had said "given the fitted prior" of Jeffreys'
        return f"given {fallbacks[label]} (a fallback, not a fit)", fallbacks[label], None
    if label == "fixed":
        beta = f"Beta({s['alpha']:.4g}, {s['beta']:.4g})"
        if s["impossible"] > 0:  # a fixed zero-inflated prior (Python's ZeroInflatedBetaPrior)
            beta = f"{beta} with P(p = 0) = {s['impossible']:.4g}"
        return f"given the fixed prior {beta} (not fitted)", f"the fixed prior {beta}", None
    # the planner's prior is its own fit (the posterior mode under a weak hyperprior, docs/planning.md), not
    # fit's maximum likelihood, so its forecast differs from forecast's beta eb column (demo tiny-1b at K =
    # 10,000: 0.7287 against 0.7305) and nothing said why (helper-104's review)
    own = {"beta": ("Beta", "beta eb"), "zi_beta": ("zero-inflated Beta", "zi beta")}
    if label in own:
        law, column = own[label]
        return ("given the fitted prior", "the fitted prior",
                f"fitted prior: the planner's {law}, the posterior mode under the weak hyperprior (α+β)^(−5/2), "
                f"not fit's maximum likelihood (forecast's '{column}' column uses that one)")
    if label in PLAN_MODEL_PRIORS:
        how = f"the difficulty model {label}, fitted by maximum likelihood (as fit's)"
    else:  # Python's own model object: its name (or "model"), fitted as its fit() does
        how = "a difficulty model given in Python, fitted by its fit()"
    return f"given the fitted {label} prior", f"the fitted {label} prior", f"fitted {label} prior: {how}"


def _render(res, top: int) -> None:  # type: ignore[no-untyped-def]
    from .._validation import decimals_apart, fmt_below_one, natural_key, notation

    for s in res.summary:
        m = s["model"]
        sel = res.model == m
        given, under, fitted = _prior_words(s)
        # the SD now, after this plan and after a uniform one, in one notation, with up to two more decimals where
        # the plan and uniform would read alike: Pythia 160M at --budget 1000 --k 10000 read 'expected SD 0.0134
        # after this plan (uniform: 0.0134)' for 0.013397 and 0.013406, the comparison the title is there to make
        sds = [s["forecast_sd"], s["expected_sd_after"], s["expected_sd_after_uniform"]]
        fewest = notation(sds)[0]
        fsd = column_fmt(sds, digits=decimals_apart(sds[1:], fewest=fewest, most=fewest + 2))
        # hierarchical with a fixed prior or a difficulty model is the passcurve rule: the title had named the rule
        # asked for (--prior 1,2 read "(hierarchical, target pass@100)")
        rule = (f"{res.method}," if s["rule"] == res.method else
                f"{s['rule']}: the {res.method} rule needs a fitted Beta prior;")
        idx = [i for i in range(len(res.problem)) if sel[i] and res.additional[i] > 0]
        if not idx:
            # nothing placed (every problem at --max-n or of weight 0; the warning says so): the title and an empty
            # table had followed, with an 'after this plan' SD of a plan that places nothing. One line: what is now
            out.print(f"{m}: no new sample placed on any of its {s['problems']} problems (target pass@{res.k}); forecast "
                      f"{fmt_below_one(s['forecast_bayes'])} now, SD {fmt_cell(s['forecast_bayes_sd'])} (hierarchical "
                      f"Bayes); {given} {fmt_below_one(s['forecast'])}, SD {fsd(sds[0])}", markup=False,
                      highlight=False)
            continue
        title = (
            f"{m}: {s['new_samples']} new samples over {s['problems_sampled']} of {s['problems']} problems "
            f"({rule} target pass@{res.k}); forecast {fmt_below_one(s['forecast_bayes'])} now, SD "
            f"{fmt_cell(s['forecast_bayes_sd'])} (hierarchical Bayes); {given} "
            f"{fmt_below_one(s['forecast'])}, SD {fsd(sds[0])} now, expected SD "
            f"{fsd(sds[1])} after this plan (uniform: {fsd(sds[2])})"
        )
        t = Table(title=title, title_justify="left")
        for col in ("problem", "n", "c", "p̂", "new samples"):
            t.add_column(col, justify="right", overflow="fold")  # a long problem id wraps; it is never cut
        idx.sort(key=lambda i: (-int(res.additional[i]), natural_key(res.problem[i])))  # ties: 201 before 1003
        # one notation for the column, in which no rate below 1 reads 1 (as the forecasts in the title: 4 problems
        # at c/n 0.6-0.9 and K = 50 read 'forecast 1.0000 now' for 0.99999997)
        fp = column_fmt([res.p_hat[i] for i in idx[:top]], below_one=True)
        for i in idx[:top]:
            t.add_row(
                str(res.problem[i]),
                str(int(res.n[i])),
                str(int(res.c[i])),
                fp(res.p_hat[i]),
                str(int(res.additional[i])),
            )
        notes = [f"p̂: the problem's posterior mean success rate E[p | n, c] under {under}"]
        if fitted is not None:
            notes.append(fitted)
        if s["rule"] == "hierarchical" and s["expected_sd_after"] > s["expected_sd_after_uniform"]:
            # the title then reads as if the plan lost to uniform (BoN's Gemini 1.5 Flash and Pro at --budget 1000
            # --k 10000, by 0.03%), on an SD that its rule does not minimise alone
            notes.append("expected SD after this plan above uniform's: the hierarchical rule lowers the variance "
                         "that counts the prior's uncertainty too, which this SD given the prior leaves out")
        if len(idx) > top:
            more = len(idx) - top  # "1 more problems get samples"
            notes.append(f"{more} more problem{' gets' if more == 1 else 's get'} samples (use --csv or --json for all)")
        t.caption = "; ".join(notes)
        out.print(t)


def _prior_arg(text: str) -> str | tuple[float, float]:
    """--prior as the library takes it: a name, or ALPHA,BETA as the pair of a fixed Beta (the library checks that
    both are finite and positive, in its words, which name `--prior`). Prior objects no command line can pass: the
    library's message offers them, so the names are checked here."""
    names = ("beta", "zi_beta", *PLAN_MODEL_PRIORS)
    if text in names:
        return text
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        try:
            ab = [float(p) for p in parts]
        except ValueError:
            raise PasscurveError(f"`--prior` ALPHA,BETA must be two numbers (got {text!r})") from None
        if len(ab) != 2:
            raise PasscurveError(f"`--prior` ALPHA,BETA must be two numbers (got {len(ab)} in {text!r})")
        return ab[0], ab[1]
    raise PasscurveError(f"`--prior` must be {', '.join(names)} or a fixed Beta as ALPHA,BETA (got {text!r})")


@command("plan")
@read_options
def plan_cmd(
    file: FileArg,
    budget: Annotated[int, typer.Option("--budget", help="New samples to spend (per model; at most 10^7).")],
    k: Annotated[int, typer.Option("--k", help="Target budget K of the forecast pass_D@K (may exceed n).")],
    batch: Annotated[
        int, typer.Option("--batch", help="Each problem gets a multiple of this many samples; a --budget that "
                          "is not a multiple is rounded down (a warning says so).")
    ] = 1,
    method: Annotated[
        str,
        typer.Option("--method", help=f"Allocation rule: {', '.join(PLAN_METHODS)}."),
    ] = "hierarchical",
    max_n: Annotated[int | None, typer.Option("--max-n", help="Cap on total samples per problem.")] = None,
    prior: Annotated[
        str,
        typer.Option(
            "--prior", help="Difficulty prior: refit on the counts, beta or zi_beta (the planner's own fits; zi_beta "
            f"with impossible mass) or a difficulty model, {', '.join(PLAN_MODEL_PRIORS)} (fit by maximum likelihood); "
            "or fixed, ALPHA,BETA (1,1 uniform, 0.5,0.5 Jeffreys').",
        ),
    ] = "beta",
    hedge: Annotated[
        float,
        typer.Option(
            "--hedge",
            help="Defensive share in [0, 1]: this fraction of the budget is spread evenly, the rule places the rest "
            "(not with --method uniform, which spreads it all).",
        ),
    ] = DEFAULT_HEDGE,
    top: Annotated[
        int, typer.Option("--top", help="Rows shown in the table (all rows with --csv/--json).")
    ] = 20,
    json_out: JsonFlag = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print one CSV row per problem of each model: model, problem, n, c, p_hat, additional, prior.")] = False,
    seed: Seed = 0,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """How many more samples each problem should get to forecast pass_D@K best."""
    from .._planner import plan as compute_plan
    from .._validation import check_positive_int

    if json_out and csv_out:
        raise PasscurveError("give either `--json` or `--csv`, not both")
    check_positive_int(top, "top")  # as every count is checked: it read "`--top` must be >= 1 (got 0)"
    prior_arg = _prior_arg(prior)
    # the reader's StoppingTimeWarning points to --stop-batch, which plan has no need of: its fits are likelihood-based,
    # valid when n depends on the outcomes (docs/planning.md), so plan says that instead
    counts = load_counts(file, acted_on=(StoppingTimeWarning,), **read)
    stopped = [m for m in (counts.meta.get("stopping_time") or {}).get("flagged_models", []) if m in counts.models]
    from ._report import progress_bar

    # a large --budget takes minutes (10^6 samples over 500 problems: 30 s): the bar's clock says it runs
    with collect_warnings(show=True), progress_bar(("planning",)) as advance:
        if stopped:
            import warnings

            warnings.warn(
                f"n looks like a stopping time for {len(stopped)} model(s) ({', '.join(stopped)}): sampling seems to "
                "have stopped at a success. The plan needs no design for it: its fits and forecasts are "
                "likelihood-based, valid when n depends on the outcomes (docs/planning.md)", StoppingTimeWarning,
                stacklevel=1)
        advance("planning")
        res = compute_plan(
            counts,
            budget=budget,
            k=k,
            batch=batch,
            method=method,
            max_n=max_n,
            prior=prior_arg,
            hedge=hedge,
            rng=seed,
        )
    if json_out:
        print_json(res.to_dict())
    elif csv_out:
        frame = res.to_frame()
        frame.to_csv(sys.stdout, index=False)
    else:
        _render(res, top)
