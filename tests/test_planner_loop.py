"""The Planner in an online loop: next(batch) -> draw -> update(ids, outcomes), round after round."""

from __future__ import annotations

import pytest

from passcurve import PasscurveError, Planner


@pytest.mark.parametrize("bad", [0, -1, 1.5, "3", True])
def test_next_names_its_batch_argument(bad):
    # next()'s argument is `batch`; its errors named allocate's `budget`
    pl = Planner(n=[1, 1, 1], c=[0, 1, 0], k=10, rng=0)
    with pytest.raises(PasscurveError, match="`batch` must be an integer >= 1"):
        pl.next(bad)
