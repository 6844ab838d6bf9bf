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
