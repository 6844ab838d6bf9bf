"""Every example in the library's docstrings runs and prints what it shows (doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import warnings

import pytest

import passcurve

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(passcurve.__path__, "passcurve.")
    # the CLI's docstrings are its --help texts, not examples; __main__ runs the CLI when imported
    if not m.name.startswith("passcurve.cli") and m.name != "passcurve.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # examples on tiny inputs raise the library's data warnings
        res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)
    assert res.failed == 0, f"{name}: {res.failed} of {res.attempted} docstring examples failed"


def test_the_examples_exist():
    total = 0
    for name in MODULES:
        finder = doctest.DocTestFinder()
        total += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert total >= 40  # 49 example lines at the ninth session; a drop means examples were lost
