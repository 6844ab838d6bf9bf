"""The command-line reference (docs/cli.md), generated from the app itself so it cannot drift.

``python -m passcurve.cli._reference > docs/cli.md`` rewrites it; a test checks the file is current.
"""

from __future__ import annotations

from typing import Any

import typer

from ._app import app


def _default(p: Any) -> str:
    if getattr(p, "is_flag", False) or p.default is None or p.required:
        return ""
    d = p.default
    return f"`{d}`" if not isinstance(d, str) or d else "`''`"


def cli_reference() -> str:
    """Every command with its purpose, arguments and options (help text and default), as Markdown."""
    import passcurve.cli  # noqa: F401  (registers the commands)

    group = typer.main.get_command(app)
    out = [
        "# Command-line reference",
        "",
        "Generated from the app by `python -m passcurve.cli._reference > docs/cli.md` (a test checks it is current).",
        "Every command prints one line on stderr and exits 2 on bad input; `--json` prints the result object's",
        "`to_dict()`. Errors name these options (`--confidence-level`), not the library's arguments. A list of",
        "integers (`--k`, `--m`, `--n`, `--group-size`, `--budgets`) is used in increasing order, each value once;",
        "given otherwise (`--k 10,1,1`), a note on stderr says how it was read.",
        "",
        "Warnings go to stderr, one line each (`passcurve: warning: Category: message`), and every `--json` output",
        "carries the same lines under `warnings`: a list of `\"Category: message\"` strings (`[]` when none), the",
        "reader's (a StoppingTimeWarning) and the analysis' alike. A statement repeated per model in the same words",
        "is said once naming the models, and one the reader already made for the file is not repeated per model.",
        "A warning from another library (numpy's `overflow encountered in exp`, a FutureWarning) is said the same",
        "way, ending with where it was raised (`(raised at passcurve/_difficulty.py:123)`), and carried in the JSON.",
        "`fit` lists its deviation checks per model under `flags` (and under each model's table), not as warnings.",
        "`--models B,A` lists the models in that order; without it, in the order the reader gives them.",
        "",
    ]
    for name in sorted(group.commands):  # type: ignore[attr-defined]
        cmd = group.commands[name]  # type: ignore[attr-defined]
        out += [f"## `passcurve {name}`", "", (cmd.help or "").strip().split("\n\n")[0].replace("\n", " "), ""]
        rows = []
        for p in cmd.params:
            if p.name == "help":
                continue
            many = "..." if getattr(p, "nargs", 1) == -1 else ""  # FILE...: one or more
            opts = (", ".join(f"`{o}`" for o in p.opts) if p.param_type_name == "option"
                    else f"`{p.name.upper()}{many}`")
            helptext = (getattr(p, "help", None) or "").replace("|", "\\|").replace("\n", " ")
            rows.append(f"| {opts} | {helptext} | {_default(p)} |")
        if rows:
            out += ["| argument or option | meaning | default |", "|---|---|---|", *rows, ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(cli_reference(), end="")
