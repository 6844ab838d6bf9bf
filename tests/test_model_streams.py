"""A model's random results do not depend on the other models in the input (``_validation.model_streams``).

Every function that loops over models with one generator restarts it for each model, so the result for a
model equals the result of that model alone with the same seed. Two independent ways of computing the same
quantity: the model inside a two-model input, and the model selected alone.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import passcurve as pc
from passcurve._validation import model_streams


@pytest.fixture(scope="module")
def two():
    bench = pc.simulate(problems=60, n=60, models=pc.DEMO_MODELS[:2], rng=11)
    return bench.counts


def _second(counts):
    return counts.select_models([counts.models[1]])


def test_the_reset_replays_the_stream():
    g = np.random.default_rng(3)
    restart = model_streams(g)
    a = g.random(5)
    restart()
    np.testing.assert_array_equal(g.random(5), a)


def test_bootstrap_intervals(two):
    both = pc.curve_intervals(two, [1, 10, 60], method="bootstrap", n_resamples=200, rng=5)
    alone = pc.curve_intervals(_second(two), [1, 10, 60], method="bootstrap", n_resamples=200, rng=5)
    for side in (0, 1):
        np.testing.assert_array_equal(both.intervals["pass_at_k"][side][1], alone.intervals["pass_at_k"][side][0])


def test_forecast(two):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = pc.forecast(two, [1000, 10000], n_resamples=20, rng=2)
        alone = pc.forecast(_second(two), [1000, 10000], n_resamples=20, rng=2)
    for a, b in ((both.pass_at_k, alone.pass_at_k), (both.low, alone.low), (both.high, alone.high)):
        np.testing.assert_array_equal(a[1], b[0])
    # k_for re-draws from each model's own stored stream
    assert both.k_for(0.8, both.models[1]).to_dict() == alone.k_for(0.8).to_dict()


def test_backtest(two):
    kw = {"m": [10], "k": [30], "seeds": 2, "methods": ["beta", "auto"], "n_resamples": 10, "rng": 4}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = pc.backtest(two, **kw)
        alone = pc.backtest(_second(two), **kw)
    name = two.models[1]
    assert [r for r in both.rows if r["model"] == name] == list(alone.rows)


def test_plan(two):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = pc.plan(two, budget=120, k=1000, batch=4, rng=8)
        alone = pc.plan(_second(two), budget=120, k=1000, batch=4, rng=8)
    sel = both.model == two.models[1]
    np.testing.assert_array_equal(both.additional[sel], alone.additional)
    assert both.summary[1] == alone.summary[0]


def test_retries_permutation_p_values():
    g = np.random.default_rng(0)
    rows = []
    for m in ("a", "b"):
        for p in range(30):
            rate = g.beta(1, 3)
            rows += [(m, p, t, bool(g.random() < rate * (1.5 if t == 0 else 1.0))) for t in range(8)]
    mod, prob, att, cor = (np.array(x, dtype=object) for x in zip(*rows, strict=True))
    both = pc.retries(prob, att.astype(int), cor.astype(bool), model=mod, method="permutation", n_resamples=199, rng=1)
    keep = mod == "b"
    alone = pc.retries(prob[keep], att[keep].astype(int), cor[keep].astype(bool), model=mod[keep],
                       method="permutation", n_resamples=199, rng=1)
    assert both.p_value[1] == alone.p_value[0]
