"""Every example in the library's docstrings runs and prints what it shows (doctest)."""

from __future__ import annotations

import doctest
import importlib
import inspect
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


def _public_functions():
    import passcurve.data
    import passcurve.rl

    for mod in (passcurve, passcurve.rl, passcurve.data):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                yield f"{mod.__name__}.{name}", obj


@pytest.mark.parametrize(("name", "func"), list(_public_functions()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_functions_have_numpydoc_parameters_and_returns(name, func):
    # the conventions: numpydoc docstrings; 24 public functions (naive_pass_at_k, thin_counts, k_for, the stopping-time
    # estimators, the data readers and writers, ...) had a summary only, or Parameters without Returns
    doc = inspect.getdoc(func) or ""
    params = [p for p in inspect.signature(func).parameters if not p.startswith("_")]
    missing = [sec for sec, need in (("Parameters", bool(params)), ("Returns", True))
               if need and f"\n{sec}\n{'-' * len(sec)}\n" not in doc]
    assert not missing, f"{name}: no {' or '.join(missing)} section"
