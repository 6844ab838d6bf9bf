"""Hierarchical-Bayes forecast (prior integrated out) and the planner's defensive share (hedge)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special

from passcurve import PasscurveError, hierarchical_pass_at_k
from passcurve._adaptive import _fit_beta_binomial, posterior_pass_at_k
from passcurve._planner import Planner, _alloc_uniform, plan


def _brute_force_hb(n, c, k, hyper=2.5, m=500):
    """Oracle: the same posterior integrated on a fine grid in a DIFFERENT parametrisation.

    (log α, log β) with density α β (α+β)^(-hyper) · Π_i B(α+c_i, β+n_i-c_i)/B(α, β)
    (BDA3 §5.3 hyperprior; Jacobian of (α, β) -> (log α, log β) is α β), trapezoid-free
    Riemann sum over [-9, 9]² on an m × m grid. An error in the library's Jacobian for
    (logit μ, log s) would show up here.
    """
    la, lb = np.meshgrid(np.linspace(-9, 9, m), np.linspace(-9, 9, m), indexing="ij")
    a, b = np.exp(la.ravel()), np.exp(lb.ravel())
    ll = sum(special.betaln(a + ci, b + ni - ci) - special.betaln(a, b) for ni, ci in zip(n, c, strict=True))
    lp = ll + la.ravel() + lb.ravel() - hyper * np.log(a + b)
    w = np.exp(lp - lp.max())
    w /= w.sum()
    g = np.mean(
        [
            -np.expm1(special.betaln(a + ci, b + ni - ci + k) - special.betaln(a + ci, b + ni - ci))
            for ni, ci in zip(n, c, strict=True)
        ],
        axis=0,
    )
    return float(w @ g)


@pytest.mark.parametrize(
    ("n", "c", "k"),
    [
        ([20, 20, 20, 20, 20, 20], [0, 1, 3, 8, 15, 20], 50),
        ([10, 40, 5, 100, 30, 12, 8], [0, 2, 1, 0, 9, 12, 3], 1000),
    ],
)
def test_hierarchical_forecast_matches_brute_force_integration(n, c, k):
    got = hierarchical_pass_at_k(n, c, k)
    assert got["posterior"] == pytest.approx(_brute_force_hb(n, c, k), abs=2e-3)
    # law of total variance: the SD includes the prior's part
    assert got["posterior_sd"] >= got["prior_sd"] > 0


def test_hierarchical_forecast_approaches_plug_in_with_many_problems():
    # 4,000 problems from Beta(0.5, 3): the posterior of (α, β) concentrates, so integrating it out
    # changes nothing to first order (plug-in posterior at the MLE = the oracle here)
    rng = np.random.default_rng(3)
    p = rng.beta(0.5, 3.0, 4000)
    n = np.full(p.size, 20)
    c = rng.binomial(n, p)
    prior, _ = _fit_beta_binomial(n, c, None, 0.0)
    plug = float(np.mean(posterior_pass_at_k(n, c, 200, prior.alpha, prior.beta)))
    got = hierarchical_pass_at_k(n, c, 200)
    assert got["posterior"] == pytest.approx(plug, abs=2e-3)
    assert got["alpha"] == pytest.approx(prior.alpha, rel=0.05)
    assert got["prior_sd"] < 0.01


def test_hierarchical_forecast_weights_and_planner_key():
    n, c = np.array([30, 30, 30, 30]), np.array([0, 1, 5, 30])
    # weight 2 on a problem = that problem listed twice (likelihood and mean alike)
    w = hierarchical_pass_at_k(n, c, 100, weight=[2, 1, 1, 1])
    dup = hierarchical_pass_at_k(np.r_[n, 30], np.r_[c, 0], 100)
    assert w["posterior"] == pytest.approx(dup["posterior"], rel=1e-9)
    f = Planner(n=n, c=c, k=100).forecast()
    assert f["bayes"] == pytest.approx(hierarchical_pass_at_k(n, c, 100)["posterior"], rel=1e-12)
    assert f["bayes_sd"] > 0


def test_hierarchical_forecast_bad_inputs():
    with pytest.raises(PasscurveError, match="`k`"):
        hierarchical_pass_at_k([10, 10], [1, 2], 0)
    with pytest.raises(PasscurveError, match="`c`"):
        hierarchical_pass_at_k([10, 10], [11, 2], 5)
    with pytest.raises(PasscurveError, match="`weight`"):
        hierarchical_pass_at_k([10, 10], [1, 2], 5, weight=[0, 0])


# ------------------------------------------------------------------ defensive share
@pytest.mark.parametrize("method", ["fewest-successes", "variance-optimal", "passcurve", "hierarchical"])
def test_hedge_keeps_a_uniform_floor(method):
    rng = np.random.default_rng(2)
    p = rng.beta(0.3, 4.0, 40)
    n0 = np.full(40, 10)
    c0 = rng.binomial(n0, p)
    pl = Planner(n=n0, c=c0, k=1000, method=method, rng=0)
    plain = pl.allocate(800)
    hedged = pl.allocate(800, hedge=0.5)
    assert plain.sum() == hedged.sum() == 800
    # half the budget spread evenly first: every problem gets at least 400 // 40 = 10
    assert hedged.min() >= 10
    assert plain.min() == 0  # the rule alone starves the solved problems
    # hedge = 1 is the uniform design; hedge = 0 the rule
    full = pl.allocate(800, hedge=1.0)
    assert full.max() - full.min() <= 1
    assert Planner(n=n0, c=c0, k=1000, method=method, hedge=0.0, rng=0).allocate(800).sum() == 800


def test_a_hedge_under_the_uniform_rule_is_an_error(icli, tmp_path):
    # a share of a uniform design has no effect (check_unused): --method uniform --hedge 0.3 planned the uniform
    # design without a word. 0, the default, is no share and stays accepted
    msg = r'^`hedge` applies only with a `method` other than "uniform" \(a uniform plan spreads every sample evenly'
    for call in (lambda: Planner(n=[5, 5], c=[1, 0], k=10, method="uniform", hedge=0.3),
                 lambda: Planner(n=[5, 5], c=[1, 0], k=10).allocate(4, method="uniform", hedge=0.3),
                 lambda: Planner(n=[5, 5], c=[1, 0], k=10, method="uniform").allocate(4, hedge=1.0),
                 lambda: plan(n=[5, 5], c=[1, 0], k=10, budget=4, method="uniform", hedge=0.3)):
        with pytest.raises(PasscurveError, match=msg):
            call()
    assert plan(n=[5, 5], c=[1, 0], k=10, budget=4, method="uniform", hedge=0.0).additional.tolist() == [2, 2]
    # the planner's hedge serves the rules a call asks for; a call's uniform override is the plan's comparison
    pl = Planner(n=[5, 5], c=[1, 0], k=10, method="passcurve", hedge=1.0, rng=0)
    assert pl.allocate(4, method="uniform").tolist() == [2, 2]
    assert Planner(n=[5, 5], c=[1, 0], k=10, method="uniform").allocate(4, method="passcurve", hedge=1.0).tolist() == [2, 2]
    path = tmp_path / "ids.csv"
    path.write_text("problem_id,n,c\na,10,2\nb,10,0\n")
    r = icli("plan", str(path), "--budget", "10", "--k", "5", "--method", "uniform", "--hedge", "0.3")
    assert r.returncode == 2 and r.stderr == ('passcurve: error: `--hedge` applies only with a `--method` other than '
                                              '"uniform" (a uniform plan spreads every sample evenly already)\n'), r.stderr


def test_hedge_with_caps_and_batches():
    pl = Planner(
        n=[10, 10, 10, 10], c=[0, 0, 3, 9], k=500, max_n=40, method="fewest-successes", hedge=0.5, rng=0
    )
    got = pl.allocate(60, batch=5)
    assert got.sum() == 60 and np.all(got % 5 == 0) and np.all(10 + got <= 40)
    # the floor: 6 of 12 units spread evenly (_alloc_uniform is the oracle for that part)
    floor = _alloc_uniform(np.array([10] * 4), 6, np.array([6] * 4), np.zeros(4))
    assert np.all(got >= 5 * floor)


def test_hedge_bad_inputs_and_plan():
    with pytest.raises(PasscurveError, match="`hedge`"):
        Planner(n=[1], c=[0], k=5, hedge=1.5)
    with pytest.raises(PasscurveError, match="`hedge`"):
        Planner(n=[1], c=[0], k=5, hedge="x")
    with pytest.raises(PasscurveError, match="`hedge`"):
        Planner(n=[1, 2], c=[0, 1], k=5).allocate(4, hedge=-0.1)
    with pytest.raises(PasscurveError, match="`hedge` must be one number"):
        Planner(n=[1], c=[0], k=5, hedge=[0.1, 0.2])
    res = plan(
        n=[10, 10, 10, 10, 10], c=[0, 1, 5, 2, 3], budget=40, k=100, method="fewest-successes", hedge=0.5
    )
    assert res.additional.sum() == 40 and res.additional.min() >= 4
