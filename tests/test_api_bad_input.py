"""Public functions reject bad arguments with a one-line PasscurveError naming the argument.

Cases found by feeding every public entry point None, strings, NaN, negatives, floats, ragged
lists, booleans and 1e30: these few raised numpy/Python errors (or a misleading message) before.
"""

from __future__ import annotations

import pytest

import passcurve as pc

C = pc.Counts.from_arrays([10, 10, 10], [1, 5, 0])


@pytest.mark.parametrize(
    ("call", "msg"),
    [
        (lambda: pc.simulate(problems=5, n=[[1, 2], [3]]), r"`n` must be an array of integers"),
        (lambda: pc.simulate(problems=2, n=[[1, 2], [3, 4]]), r"`n` must be an integer >= 1 or one per problem"),
        (lambda: pc.simulate(problems=1e30, n=10), r"`problems` is too large"),
        (lambda: pc.simulate(problems=5, n=1e30), r"`n` is too large"),
        (lambda: pc.plan(C, budget=1e30, k=100), r"`budget` is too large"),
        (lambda: pc.fit_difficulty(C, model=1.5), r"`model` must be one of .* \(got 1.5\)"),
        (lambda: pc.fit_difficulty(C, model=[["beta"]]), r"`model` must be one of"),
    ],
)
def test_bad_arguments_raise_one_line_errors(call, msg):
    with pytest.raises(pc.PasscurveError, match=msg) as info:
        call()
    assert "\n" not in str(info.value)
