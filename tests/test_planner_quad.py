"""The hierarchical rule's look-ahead sums at large look-aheads: quadrature over the outcomes vs the exact sums."""

from __future__ import annotations

import numpy as np
import pytest

from passcurve import Planner, _planner
from passcurve._adaptive import BetaPrior, ZeroInflatedBetaPrior

PRIORS = [BetaPrior(0.4, 2.0, 0.0), BetaPrior(0.176, 65.57, 0.0), BetaPrior(3.0, 1.5, 0.0)]


def _reference(prior, n, c, k, m):
    """Every outcome summed, with the quadrature's summands (differences between perturbations taken exactly)."""
    rg = _planner._outcome_range(prior, n, c, m)
    idx, x = _planner._ragged_outcomes(rg)
    return _planner._hier_stats_smooth(prior, n, c, k, m.astype(np.float64), idx, x, np.ones(x.size)), rg


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize(("k", "n", "c", "m"), [(1000, 100, 0, 100_000), (1000, 100, 3, 150_000),
                                                (3000, 10, 1, 150_000), (100, 100, 50, 40_000)])
def test_quadrature_equals_the_sum_over_every_outcome(prior, k, n, c, m):
    # the same summands summed over every outcome and by the quadrature agree to ~1e-9 (the worst of
    # 73 rows, m = 10^5..4*10^5, K = 100..10^4, three priors: 9.2e-10); the test allows 1e-8
    n_, c_, m_ = np.array([n], float), np.array([c], float), np.array([m])
    ref, rg = _reference(prior, n_, c_, float(k), m_)
    got, ok = _planner._hier_stats_quad(prior, n_, c_, float(k), m_, rg)
    assert ok.all()
    big = np.abs(ref[0]) > 1e-200  # columns that underflow in both are not compared
    np.testing.assert_allclose(got[0][big], ref[0][big], rtol=1e-8, atol=0)
    # and the variance-reduction column (no finite difference) equals the exact path's to the same digits
    exact = _planner._hier_stats_rows(prior, n_, c_, float(k), m_, rg)
    np.testing.assert_allclose(got[0, 0], exact[0, 0], rtol=1e-8)


def test_exact_sums_carry_rounding_noise_that_the_quadrature_does_not():
    # the exact path differences gammaln values of size m log m between perturbations: at m = 1.5e5 the
    # prior-sensitivity columns lose digits (measured up to 15% on s_b over 73 rows); the
    # quadrature's Taylor differences do not. Both estimate the same finite differences.
    prior = PRIORS[0]
    n_, c_, m_ = np.array([100.0]), np.array([0.0]), np.array([150_000])
    ref, rg = _reference(prior, n_, c_, 1000.0, m_)
    exact = _planner._hier_stats_rows(prior, n_, c_, 1000.0, m_, rg)[0]
    got = _planner._hier_stats_quad(prior, n_, c_, 1000.0, m_, rg)[0][0]
    err_exact = np.abs(exact - ref[0]) / np.abs(ref[0])
    err_quad = np.abs(got - ref[0]) / np.abs(ref[0])
    assert err_quad.max() < 1e-8
    assert err_exact[1:].max() > 1e-6  # the noise is real (not an artefact of the reference)
    np.testing.assert_allclose(exact[3:], ref[0, 3:], rtol=0.1)  # ...and limited


def test_rows_below_the_threshold_are_the_exact_sums_bit_for_bit(monkeypatch):
    # wide rows take the quadrature; every other row of the same call keeps its exact value, also
    # when the rows are cut into groups of at most _OUTCOMES_MAX outcomes
    prior = PRIORS[0]
    rng = np.random.default_rng(5)
    n = rng.integers(10, 200, 60).astype(np.float64)
    c = rng.binomial(n.astype(np.int64), rng.beta(0.4, 2.0, 60)).astype(np.float64)
    m = rng.choice([1, 64, 512, 30_000, 60_000], 60)
    rg = _planner._outcome_range(prior, n, c, m)
    alone = np.stack([_planner._hier_stats_rows(prior, n[i:i + 1], c[i:i + 1], 1000.0, m[i:i + 1],
                                                (rg[0][i:i + 1], rg[1][i:i + 1]))[0] for i in range(60)])
    monkeypatch.setattr(_planner, "_QUAD_MIN_OUTCOMES", 8192)
    got = _planner._hier_stats(prior, n, c, 1000.0, m)
    wide = rg[1] - rg[0] + 1 > 8192
    assert 5 < wide.sum() < 55
    np.testing.assert_array_equal(got[~wide], alone[~wide])
    assert not np.array_equal(got[wide], alone[wide])  # the wide rows did take the quadrature
    np.testing.assert_allclose(got[wide][:, 0], alone[wide][:, 0], rtol=1e-8)
    monkeypatch.setattr(_planner, "_OUTCOMES_MAX", 3000)
    np.testing.assert_array_equal(_planner._hier_stats(prior, n, c, 1000.0, m), got)


def test_rows_the_quadrature_declines_keep_the_exact_sums(monkeypatch):
    # at K = 10^4 a look-ahead of 1.5e5 samples moves h on a scale of 15 outcomes: no quadrature
    prior = PRIORS[1]
    n, c, m = np.array([10.0]), np.array([1.0]), np.array([150_000])
    want = _planner._hier_stats(prior, n, c, 10_000.0, m)
    monkeypatch.setattr(_planner, "_QUAD_MIN_OUTCOMES", 1024)
    assert not _planner._hier_stats_quad(prior, n, c, 10_000.0, m, _planner._outcome_range(prior, n, c, m))[1][0]
    np.testing.assert_array_equal(_planner._hier_stats(prior, n, c, 10_000.0, m), want)


def test_zero_inflated_priors_keep_the_exact_sums(monkeypatch):
    # the quadrature is for a plain Beta prior; a point mass at p = 0 keeps every row exact
    prior = ZeroInflatedBetaPrior(0.4, 2.0, 0.0, impossible=0.1)
    n, c, m = np.array([100.0, 50.0]), np.array([0.0, 5.0]), np.array([30_000, 64])
    want = _planner._hier_stats(prior, n, c, 1000.0, m)
    monkeypatch.setattr(_planner, "_QUAD_MIN_OUTCOMES", 1024)
    np.testing.assert_array_equal(_planner._hier_stats(prior, n, c, 1000.0, m), want)


def test_study_sized_plan_never_reaches_the_quadrature(monkeypatch):
    # the documented study (128 problems, up to 2,000 samples per problem, K up to 10^4) must keep
    # its allocations bit for bit: its largest row had 33,279 outcomes (12 replicates, navg 2,000),
    # below _QUAD_MIN_OUTCOMES. Its first planning call at the largest budget:
    def refuse(*args, **kwargs):
        raise AssertionError("the quadrature was used")

    monkeypatch.setattr(_planner, "_hier_stats_quad", refuse)
    monkeypatch.setattr(_planner, "_MAX_ROUNDS", 100)  # as the study (--greedy-rounds 100)
    rng = np.random.default_rng(0)
    n = np.full(128, 10)
    c = rng.binomial(n, rng.beta(0.3, 12.0, 128))
    left = 128 * 2000 - n.sum()
    pl = Planner(n=n, c=c, k=10_000, rng=0)
    a = pl.allocate(-(-left // 5), horizon=int(left))
    assert a.sum() == -(-left // 5)


def test_large_budget_plan_close_to_the_exact_sums(monkeypatch):
    # at a budget where the look-aheads are wide the plan moves few samples against the exact sums
    rng = np.random.default_rng(2)
    n = np.full(8, 100)
    c = rng.binomial(n, rng.beta(0.4, 2.0, 8))
    monkeypatch.setattr(_planner, "_MAX_ROUNDS", 20)
    monkeypatch.setattr(_planner, "_QUAD_MIN_OUTCOMES", 8192)
    fast = Planner(n=n, c=c, k=1000, rng=0).allocate(100_000)
    monkeypatch.setattr(_planner, "_QUAD_MIN_OUTCOMES", 1 << 62)
    exact = Planner(n=n, c=c, k=1000, rng=0).allocate(100_000)
    assert fast.sum() == exact.sum() == 100_000
    assert np.abs(fast - exact).sum() // 2 <= 100_000 // 20  # at most one greedy chunk moves
