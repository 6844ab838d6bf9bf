"""The command line starts without the numerics: ``import passcurve`` and ``import passcurve.cli`` import no
scipy, DuckDB, pandas, plotly (nor numpy), which only the commands that compute import (benchmarks/bench_cli_startup.py:
``passcurve --version`` took 1.4 s of CPU when the package imported every module up front)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import passcurve
from passcurve import _choices

SRC = Path(passcurve.__file__).resolve().parents[1]
HEAVY = ("scipy", "scipy.stats", "duckdb", "pandas", "plotly", "pyarrow", "numpy")


def _loaded_after(code: str) -> list[str]:
    """The heavy modules in sys.modules after running ``code`` in a fresh interpreter (its last line of output)."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    res = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    return res.stdout.splitlines()[-1].split()


def _cli(*args: str) -> str:
    return f"from passcurve.cli import main\ntry:\n    main({list(args)!r})\nexcept SystemExit as e:\n    assert not e.code"


def test_importing_the_cli_imports_no_numerics():
    # before: scipy.stats (via passcurve/__init__ -> rl -> _rl_conflict ...), duckdb and numpy
    assert _loaded_after("import passcurve.cli") == []


def test_version_and_help_import_no_numerics(tmp_path):
    for args in (["--version"], ["--help"], ["curve", "--help"], ["forecast", "--help"], ["plan", "--help"]):
        assert _loaded_after(_cli(*args)) == [], args
    # a plain curve reads (DuckDB) and counts (numpy) without scipy, which only intervals, fits and the
    # stopping-time design need (it had imported scipy.stats through _curves -> _adaptive -> _difficulty)
    csv = tmp_path / "c.csv"
    csv.write_text("problem_id,n,c\n" + "".join(f"p{i},20,{i % 21}\n" for i in range(30)))
    assert _loaded_after(_cli("curve", str(csv))) == ["duckdb", "numpy"]
    assert "scipy.stats" in _loaded_after(_cli("curve", str(csv), "--ci", "analytic"))
    # a command that computes imports what it needs
    assert "scipy.stats" in _loaded_after(_cli("simulate", "-o", str(tmp_path / "s.csv"), "--problems", "2", "--n", "2"))


def test_the_public_names_import_on_first_use():
    # `import passcurve` alone is cheap; a name brings its module (and scipy with it) when first used
    assert _loaded_after("import passcurve") == []
    assert "scipy.stats" in _loaded_after("import passcurve\npasscurve.fit_difficulty")
    # 1 - C(3, 2) / C(5, 2) = 0.7 (closed form), with numpy only
    assert _loaded_after("from passcurve import pass_at_k\nassert abs(pass_at_k(5, 2, 2) - 0.7) < 1e-15") == ["numpy"]


def test_lazy_names_match_the_type_checking_imports():
    # passcurve/__init__.py names each export twice: in the TYPE_CHECKING imports (for mypy and editors) and in
    # _EXPORTS (what __getattr__ imports); the two lists must agree, and every name must resolve
    tree = ast.parse(Path(passcurve.__file__).read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {("." * i.level + (i.module or ""), a.name) for i in block.body if isinstance(i, ast.ImportFrom)
             for a in i.names}
    lazy = {(mod, name) for mod, names in passcurve._EXPORTS.items() for name in names}
    assert typed == lazy | {(".", "rl")}
    assert sorted(passcurve.__all__) == passcurve.__all__ and len(passcurve.__all__) == 90
    for name in passcurve.__all__:
        assert getattr(passcurve, name) is not None, name
    assert {"pass_at_k", "rl", "data", "Counts"} <= set(dir(passcurve))
    try:
        passcurve.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_the_help_names_are_the_library_s():
    # the CLI's help lists these without importing the modules that use them
    from passcurve import _difficulty, _forecast, _planner

    assert tuple(_difficulty.DIFFICULTY_MODELS) == _choices.DIFFICULTY_MODEL_NAMES
    assert _forecast.FORECAST_METHODS is _choices.FORECAST_METHODS
    assert _planner.METHODS is _choices.PLAN_METHODS and _planner.DEFAULT_HEDGE == _choices.DEFAULT_HEDGE
