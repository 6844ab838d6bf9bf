"""Counts: selecting models (``select_models``, the readers' ``models=``, the CLI's ``--models``)."""

from __future__ import annotations

import numpy as np
import pytest

from passcurve import Counts, PasscurveError
from passcurve._counts import models_rows


def _three():
    # rows interleaved on purpose: a, b, c, a, b, c
    return Counts.from_arrays(np.full(6, 10), np.arange(6), problem=np.array(["p1", "p1", "p1", "p2", "p2", "p2"]),
                              model=np.array(["a", "b", "c", "a", "b", "c"]))


def test_select_models_keeps_the_order_named():
    # `--models c,a` printed a before c: the selection kept the file's order
    cnt = _three()
    sel = cnt.select_models(["c", "a"])
    assert sel.models == ["c", "a"]
    assert [g for g, _ in sel.groups()] == ["c", "a"]
    # each model's rows stay in their own order, with their own values
    np.testing.assert_array_equal(sel.c, [2, 5, 0, 3])
    np.testing.assert_array_equal(sel.problem, ["p1", "p2", "p1", "p2"])
    assert cnt.select_models(["a", "c"]).models == ["a", "c"]


def test_models_rows_checks_as_models_mask():
    labels = np.array(["x", "y", "x"], dtype=object)
    np.testing.assert_array_equal(models_rows(labels, ["y", "x"]), [1, 0, 2])
    np.testing.assert_array_equal(models_rows(labels, "x"), [0, 2])  # one name, not its characters
    np.testing.assert_array_equal(models_rows(labels, ["x", "x"]), [0, 2])  # a name given twice: its rows once
    with pytest.raises(PasscurveError, match="unknown model 'z'; models present: x, y"):
        models_rows(labels, ["z"])
