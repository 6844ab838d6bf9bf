"""Shared test fixtures: the location of ../shared/data (tests skip cleanly without it), CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import settings
from rich.console import Console

# scripts/test.sh (the README's test command, and CI through .ci/run) runs the property tests derandomized: the
# same examples every run, so a landing never depends on which random examples Hypothesis happens to draw. Run
# pytest directly (the default profile) to explore new examples; HYPOTHESIS_PROFILE=ci reproduces CI.
settings.register_profile("ci", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PASSCURVE_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_file(name: str) -> Path:
    """Path of a file in ../shared/data, or skip the test when it is absent."""
    p = SHARED_DATA / name
    if not p.exists():
        pytest.skip(f"{p} is absent (../shared/data not beside the repo)")
    return p


class CLIResult:
    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.returncode = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 300, env_extra: dict[str, str] | None = None) -> CLIResult:
    """Run `python -m passcurve ARGS` in a subprocess (the real entry point, real exit codes).

    About 1.9 s of interpreter start-up and import per call: for what only a process shows (the interpreter's exit
    code and no traceback, once per command family; stdin, cwd, rlimits, pipes). Everything else: ``icli``."""
    env = dict(os.environ) | (env_extra or {})
    src = str(ROOT / "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    proc = subprocess.run(
        [sys.executable, "-m", "passcurve", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )
    return CLIResult(proc)


@pytest.fixture
def cli():
    return run_cli


class _InProcessResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.returncode, self.stdout, self.stderr = code, out, err


# What a fresh interpreter starts with (no -W, no PYTHONWARNINGS): the filters `python -m passcurve` runs under, in
# the order Python lists them (the "Default Warning Filter" of the warnings module's documentation).
_FRESH_FILTERS = [
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
]


def _to_stderr(message, category, filename, lineno, file=None, line=None) -> None:  # type: ignore[no-untyped-def]
    """Python's own display of a warning (file:line: Category: message, then the source line) on sys.stderr."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@pytest.fixture
def icli(capsys, monkeypatch):
    """The CLI in-process (the entry point's own `run`; no interpreter start-up per call), as a fresh
    `python -m passcurve` would run it:

    - a warning that escapes the command is printed on its stderr in Python's own form, under a fresh interpreter's
      filters (under pytest it was recorded by pytest's warning capture instead, and a test asserting "no Python
      warning on stderr" passed without looking);
    - ``env`` is set for the call; the rich consoles take their width from COLUMNS as a fresh process does
      (rich reads COLUMNS when a Console is made, which in-process happened once, at import), else 80 when no
      stream is a terminal.
    """
    from passcurve.cli import _app

    def call(*args: str, env: dict[str, str] | None = None) -> _InProcessResult:
        capsys.readouterr()
        with monkeypatch.context() as mp, warnings.catch_warnings():
            for name, value in (env or {}).items():
                mp.setenv(name, value)
            for console in (_app.out, _app.err):
                fresh = Console(stderr=console.stderr)._width  # None unless COLUMNS is set: then the streams decide
                mp.setattr(console, "_width", fresh)
            warnings.resetwarnings()
            for action, category, module in reversed(_FRESH_FILTERS):
                warnings.filterwarnings(action, category=category, module=module)
            warnings.showwarning = _to_stderr
            code = _app.run(list(args))
        cap = capsys.readouterr()
        return _InProcessResult(code, cap.out, cap.err)

    return call
