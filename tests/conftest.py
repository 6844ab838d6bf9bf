"""Shared test fixtures: the location of ../shared/data (tests skip cleanly without it), CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

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
    """Run `python -m passcurve ARGS` in a subprocess (the real entry point, real exit codes)."""
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


@pytest.fixture
def icli(capsys):
    """The CLI in-process (the entry point's own `run`; no interpreter start-up per call)."""
    from passcurve.cli._app import run

    def call(*args: str) -> _InProcessResult:
        capsys.readouterr()
        code = run(list(args))
        cap = capsys.readouterr()
        return _InProcessResult(code, cap.out, cap.err)

    return call
