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
        (lambda: pc.pass_at_k(10, 3, 1e20), r"`k` is too large \(got k=1e\+20, max 4.61e\+18\)"),
        (lambda: pc.simulate(problems=5, n=1e30), r"`n` is too large"),
        # forecast's own limit, whether k is just above it or beyond int64 (one message, not two)
        (lambda: pc.forecast(C, k=1e16), r"`k` must be <= 1e\+12 \(got k=1e\+16\)"),
        (lambda: pc.forecast(C, k=[100, 1e20]), r"`k` must be <= 1e\+12 \(got k=1e\+20\)"),
        (lambda: pc.plan(C, budget=1e30, k=100), r"`budget` is too large"),
        (lambda: pc.fit_difficulty(C, model=1.5), r"`model` must be one of .* \(got 1.5\)"),
        (lambda: pc.fit_difficulty(C, model=[["beta"]]), r"`model` must be one of"),
        (lambda: pc.default_k_grid("x"), r"`n` must be an integer >= 1"),
        (lambda: pc.local_slope("x", [0.5]), r"`k`"),
        (lambda: pc.local_slope([1, 2], [0.5]), r"`k` and `pass_at_k` must have the same length"),
        (lambda: pc.mean_curve([10, 10], [3, 11], [1]), r"`c` must be <= n \(got c=11, n=10\)"),
        (lambda: pc.mean_curve(-1, 0, [1]), r"`n` must be >= 1"),
        (lambda: pc.mean_curve([10], [3], [1], weights=[-1.0]), r"`weights` must hold one non-negative weight"),
        (lambda: pc.thin_counts([10, 5], [3, 6], 2), r"`c` must be <= n"),
        (lambda: pc.thin_counts([10, 5], [3, 1], [1, 2, 3]), r"`m` must be one number or one per problem"),
        (lambda: pc.maj_at_k_tallies([[1, 2], [3]], 0, 1), r"`tallies` must be an array of integers"),
        (lambda: pc.retries(["a", "a"], [[1, 2], [3]], [1, 0]), r"`attempt` must be an array of integers"),
        (lambda: pc.retries(["a", "a"], [0, 1], [[1, 0], [1]]), r"`correct` must be a flat sequence of booleans"),
    ],
)
def test_bad_arguments_raise_one_line_errors(call, msg):
    with pytest.raises(pc.PasscurveError, match=msg) as info:
        call()
    assert "\n" not in str(info.value)
