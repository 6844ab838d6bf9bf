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


def test_float16_and_float32_counts_convert_without_a_warning():
    # whole numbers stored as float16 (Parquet, pandas) are counts: comparing float16 with the 2**62 bound
    # overflowed the cast of 2**62 to float16 and printed "RuntimeWarning: overflow encountered in cast"
    import warnings

    for dtype in (np.float16, np.float32):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c = Counts.from_arrays(np.array([10, 2048], dtype=dtype), np.array([1, 7], dtype=dtype))
        assert c.n.tolist() == [10, 2048] and c.c.tolist() == [1, 7] and c.n.dtype == np.int64
    with pytest.raises(PasscurveError, match=r"`n` must contain integers \(got 10.5\)"):
        Counts.from_arrays(np.array([10.5], dtype=np.float16), [1])
