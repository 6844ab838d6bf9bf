"""docs/cli.md is the app's own reference: regenerated, it must equal the file (a new option is documented)."""

from __future__ import annotations

from pathlib import Path

from passcurve.cli._reference import cli_reference

ROOT = Path(__file__).resolve().parents[1]


def test_docs_cli_md_is_current():
    text = cli_reference()
    assert (ROOT / "docs" / "cli.md").read_text(encoding="utf-8") == text, (
        "docs/cli.md is stale: run `python -m passcurve.cli._reference > docs/cli.md`")
    # every command and every option of one command appear (the audit found 40 options documented nowhere)
    for needle in ("## `passcurve forecast`", "`--scope`", "`--method`", "## `passcurve plan`", "`--top`",
                   "## `passcurve simulate-answers`", "`--concentration`"):
        assert needle in text


def _doc_command_lines() -> list[tuple[str, str]]:
    """The `passcurve ...` lines of the fenced bash, console and plain blocks in README.md and docs/*.md. Usage lines
    are read as the command they show: optional parts ([--json]) included, the first of alternatives
    (random|strict|first, (--p ... | --pilot ...)), a continuation line joined to its command."""
    import re

    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for lang, block in re.findall(r"^```(\w*)\n(.*?)^```", text, flags=re.S | re.M):  # every fence, in pairs
            if lang not in ("bash", "console", ""):
                continue
            lines: list[str] = []
            for line in block.splitlines():
                code = line.split("  #")[0].split(" # ")[0].strip().removeprefix("$ ")
                if lang != "bash" and lines and line.startswith("      ") and not code.startswith(("#", "passcurve")):
                    lines[-1] += " " + code  # a usage line continued
                elif code.startswith("passcurve "):
                    lines.append(code)
            for code in lines:
                if lang != "bash":
                    code = re.sub(r"\s*\|\s*--[^\])]*(?=[\])])", "", code)  # (--a X | --b Y): the first
                    code = re.sub(r"[\[\]()…]", "", code)
                    code = re.sub(r"(\S+)\|\S+", lambda m: m.group(0).split("|")[0], code)  # a|b|c: a
                out.append((path.name, code))
    return out


def test_docs_command_lines_parse():
    # README's `passcurve compare a=... b=...` (NAME=FILE) lacked --a/--b, which compare requires: run as shown it
    # stopped with "Missing option '--a'" (found by the documentation drift review). Every line is parsed by the
    # app's own command (options, required options, values), without running it.
    import shlex

    import typer

    from passcurve.cli._app import app

    group = typer.main.get_command(app)
    lines = _doc_command_lines()
    assert len(lines) >= 45, lines  # README's command list alone has 23; the usage lines of docs/ 17
    bad = []
    for where, line in lines:
        name, *args = shlex.split(line)[1:]
        cmd = group.commands.get(name)  # type: ignore[attr-defined]
        if cmd is None:
            bad.append(f"{where}: {line}: no command {name!r}")
            continue
        try:
            cmd.make_context(name, list(args))
        except Exception as exc:  # click's usage errors (missing or unknown option, bad value)
            bad.append(f"{where}: {line}: {exc}")
    assert not bad, bad


def test_docs_report_md_names_every_report_option():
    # docs/report.md lists report's options and "every reading option of the data layer"; --pool was missing from it
    # (documentation drift review). -o/--output is shown in its command lines.
    import re

    import typer

    from passcurve.cli._app import app

    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    cmd = typer.main.get_command(app).commands["report"]  # type: ignore[attr-defined]
    opts = [o for p in cmd.params for o in p.opts if o.startswith("--") and o not in ("--output", "--help")]
    assert len(opts) >= 20, opts
    assert not [o for o in opts if not re.search(rf"{o}(?![a-z-])", text)]
