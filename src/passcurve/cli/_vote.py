"""`passcurve vote`, `passcurve retries`, `passcurve verifiers` and `passcurve simulate-answers`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

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
    fmt_cell,
    out,
    parse_int_list,
    print_json,
    read_data,
    read_options,
    samples_per_problem,
)

AnswerCol = Annotated[str | None, typer.Option("--answer-col", help="Column with each sample's final answer.")]
GoldCol = Annotated[str | None, typer.Option("--gold-col", help="Column with the reference answer.")]


def _f(x: float | None) -> str:
    return "-" if x is None or x != x else f"{x:.4f}".replace("-0.0000", "0.0000")


@command("vote")
@read_options(only=("problem_col", "correct_col", "model_col", "attempt_col", "format", "pool"))
def vote_cmd(
    file: FileArg,
    k: Annotated[str | None, typer.Option("--k", help="Comma-separated subset sizes, e.g. 1,8,64 (default: 1, 2, 4, ... up to the smallest n, at most 1,024).")] = None,
    ties: Annotated[str, typer.Option("--ties", help="Tie rule: random (share), strict (lose) or first.")] = "random",
    json_out: JsonFlag = False,
    answer_col: AnswerCol = None,
    gold_col: GoldCol = None,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """maj@k (majority vote over k samples) beside pass@k, the selection loss and independent voters.

    The gold answer comes from a gold column, or else from per-sample verdicts (lm-eval logs): the answer
    judged correct."""
    from .._results import how_many
    from .._voting import TIES
    from .._voting import vote as run_vote
    from ..data import read_answers

    if ties not in TIES:
        raise PasscurveError(f"`--ties` must be one of {', '.join(TIES)} (got {ties!r})")
    ks = parse_int_list(k, "--k")
    tallies = read_data(read_answers, file, answer_col=answer_col, gold_col=gold_col, **read)
    with collect_warnings(show=True):
        res = run_vote(tallies, k=ks, ties=ties)  # type: ignore[arg-type]
    if json_out:
        print_json(res.to_dict())
        return
    for i, m in enumerate(res.models):
        s = res.summary[i]
        t = Table(
            title=(f"{m}: {how_many(s['problems'], 'problem')}, {samples_per_problem(s)}, accuracy {fmt_cell(res.accuracy[i])}, "
                   f"distinct answers per problem median {s['distinct_answers_median']:g}"
                   + (f", {how_many(s['abstentions'], 'abstention')} (samples without an answer: a seat, no vote)"
                      if s["abstentions"] else "") + f" (ties: {res.ties})"),
            title_justify="left",
        )
        for col in ("k", "maj@k", "SE", "pass@k", "selection loss", "independent maj@k", "correlation cost"):
            t.add_column(col, justify="right")
        v = res.values
        # one notation per column of probabilities (column_fmt); the two differences stay fixed point, a rounding
        # residue written 0.0000 (as the report's differences)
        fmaj, fse, fpass, find = (column_fmt(a[i]) for a in (v["maj_at_k"], res.se["maj_at_k"], v["pass_at_k"],
                                                             v["independent_maj_at_k"]))
        for j, kk in enumerate(res.k):
            t.add_row(str(int(kk)), fmaj(v["maj_at_k"][i, j]), fse(res.se["maj_at_k"][i, j]), fpass(v["pass_at_k"][i, j]),
                      _f(v["selection_loss"][i, j]), find(v["independent_maj_at_k"][i, j]),
                      _f(v["correlation_cost"][i, j]))
        out.print(t)


@command("retries")
@read_options(only=("problem_col", "correct_col", "model_col", "attempt_col", "threshold", "format"))
def retries_cmd(
    file: FileArg,
    alpha: Annotated[float, typer.Option("--alpha", help="Level of the independence test.")] = 0.05,
    n_resamples: Annotated[int, typer.Option("--n-resamples", help="Permutations for the test (0: no permutation test; "
                                                                  "--method asymptotic still tests).")] = 999,
    method: Annotated[
        str, typer.Option("--method", help="auto, permutation or asymptotic (chi-square, equal attempts per problem).")
    ] = "auto",
    seed: Seed = 0,
    budgets: Annotated[
        str | None,
        typer.Option("--budgets", help="Comma-separated budgets to list, or 'all' (default: 1, 2, 5, 10, 20, 50, ... "
                                       "and the largest; JSON lists every budget unless this is given)."),
    ] = None,
    json_out: JsonFlag = False,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """Completion within a retry budget (first success) and a permutation test of independence across attempts."""
    from .._results import how_many
    from .._retries import retries as run_retries
    from ..data import read_attempts

    wanted = None if budgets is None or budgets.strip() == "all" else set(parse_int_list(budgets, "--budgets") or [])
    if wanted is not None and min(wanted) < 1:
        raise PasscurveError(f"`--budgets` must be >= 1 (got {min(wanted)})")
    d = read_data(read_attempts, file, **read)
    with collect_warnings(show=True):
        res = run_retries(d["problem"], d["attempt"], d["correct"], model=d["model"], alpha=alpha,
                          n_resamples=n_resamples, method=method, rng=seed)
    d_all = res.to_dict()
    if wanted is not None:
        # every model's curve runs to the log's largest budget; one beyond it would vanish from the output
        largest = max((r["budget"] for e in d_all["models"] for r in e["curve"]), default=0)
        beyond = sorted(b for b in wanted if b > largest)
        if beyond:
            raise PasscurveError(f"`--budgets` must be <= the log's largest number of attempts per problem, {largest} "
                                 f"(got {', '.join(map(str, beyond))})")
        for entry in d_all["models"]:
            entry["curve"] = [r for r in entry["curve"] if r["budget"] in wanted]
    if json_out:
        print_json(d_all)
        return
    for entry in d_all["models"]:
        test = (f"independence test ({entry['method']}) p = {fmt_cell(entry['p_value'])}" if entry["testable"]
                else "independence not testable (stops at first success)" if entry["stops_at_success"]
                else "independence not tested")
        t = Table(title=f"{entry['model']}: {how_many(entry['problems'], 'problem')}, {entry['solved']} solved; {test}",
                  title_justify="left")
        # completion counts the problems known at b (solved by b, or tried b times); pass@b those tried b times:
        # a problem that stopped at its first success is in the one and not the other (review: the table showed
        # one problem count for both)
        for col in ("budget", "completion", "problems", "pass@b", "problems (pass@b)", "rate at attempt",
                    "expected rate"):
            t.add_column(col, justify="right")
        top = max((r["budget"] for r in entry["curve"]), default=0)
        shown = (entry["curve"] if budgets is not None  # a list (filtered above) or "all"
                 else [r for r in entry["curve"] if r["budget"] == top or _one_two_five(r["budget"])])
        fc, fp, fa, fe = (column_fmt([r[key] for r in shown])
                          for key in ("completion", "pass_at_k", "attempt_rate", "expected_rate"))  # one per column
        for r in shown:
            t.add_row(str(r["budget"]), fc(r["completion"]), str(r["known"]), fp(r["pass_at_k"]),
                      str(r["pass_at_k_known"]), fa(r["attempt_rate"]), fe(r["expected_rate"]))
        out.print(t)
        if len(shown) < len(entry["curve"]):
            out.print(f"  {len(shown)} of {len(entry['curve'])} budgets shown (--budgets all, or a list, for others)")


def _one_two_five(b: int) -> bool:
    """1, 2, 5, 10, 20, 50, ...: the budgets the table lists by default."""
    while b >= 10 and b % 10 == 0:
        b //= 10
    return b in (1, 2, 5)


@command("verifiers")
@read_options(only=("problem_col", "model_col", "attempt_col", "format", "pool"))
def verifiers_cmd(
    file: FileArg,
    base: Annotated[str, typer.Option("--base", help="Column with the base (lenient) verdict.")],
    strict: Annotated[str, typer.Option("--strict", help="Column with the strict verdict.")],
    k: Annotated[str | None, typer.Option("--k", help="Comma-separated budgets, e.g. 1,10,100.")] = None,
    json_out: JsonFlag = False,
    read: Mapping[str, Any] = NO_READ,
) -> None:
    """pass@k under a base and a strict verdict column, and the inflation 1 - strict/base by k."""
    from .._results import how_many
    from .._verifiers import verifier_inflation
    from ..data import read_verdicts

    ks = parse_int_list(k, "--k")
    g = read_data(read_verdicts, file, base_col=base, strict_col=strict, **read)
    with collect_warnings(show=True):
        res = verifier_inflation(g["n"], g["c_base"], g["c_strict"], ks, model=g["model"],
                                 c_strict_only=g["c_strict_only"])
    if json_out:
        print_json(res.to_dict())
        return
    for entry in res.to_dict()["models"]:
        t = Table(title=(f"{entry['model']}: {how_many(entry['problems'], 'problem')}, false-pass rate "
                         f"{_f(entry['false_pass_rate'])}, {how_many(entry['problems_base_only'], 'problem')} solved only "
                         "under the base verdict"), title_justify="left")
        for col in ("k", f"pass@k ({base})", f"pass@k ({strict})", "relative drop"):
            t.add_column(col, justify="right")
        fb, fs, fi = (column_fmt([pt[key] for pt in entry["curve"]]) for key in ("pass_base", "pass_strict", "inflation"))
        for pt in entry["curve"]:
            t.add_row(str(pt["k"]), fb(pt["pass_base"]), fs(pt["pass_strict"]), fi(pt["inflation"]))
        out.print(t)


@command("simulate-answers")
def simulate_answers_cmd(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write (.csv, .jsonl or .parquet).")],
    problems: Annotated[int, typer.Option("--problems", help="Problems.")] = 200,
    n: Annotated[int, typer.Option("--n", help="Samples per problem.")] = 64,
    wrong_answers: Annotated[int, typer.Option("--wrong-answers", help="Distinct wrong answers per problem.")] = 20,
    concentration: Annotated[
        float, typer.Option("--concentration", help="Dirichlet concentration of wrong answers (small = one dominant).")
    ] = 0.5,
    seed: Seed = 0,
) -> None:
    """Write a per-sample log with answers (model, problem_id, attempt, answer, gold, correct) for `vote`."""
    from .._voting import simulate_answers
    from ..data import write_table

    rows = simulate_answers(problems, n, wrong_answers=wrong_answers, concentration=concentration, rng=seed)
    write_table(rows, output)
    typer.echo(f"wrote {problems * n} rows ({problems} problems x n={n}) to {output}")
