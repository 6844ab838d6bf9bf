"""Difficulty models: moments against closed forms and quadrature, ML fits, uncertainty, GOF, bad input."""

from __future__ import annotations

import functools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from conftest import shared_file
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats

import passcurve
from passcurve import (
    BetaBinomial,
    BetaMixtureBinomial,
    Counts,
    GridMixture,
    PasscurveError,
    ScaledBetaBinomial,
    ZeroInflatedBetaBinomial,
    fit_difficulty,
    pass_at_k,
)
from passcurve._difficulty import (
    _CHUNK,
    _beta_fail_dispersion,
    _beta_log_moment,
    _beta_log_moment_grad,
    _beta_sums,
    _digamma_diff,
    _inverse_information,
    _log_binom,
    _log_rising,
    _num_hessian,
    _pairs,
    _qr_reduced,
    _rising_step,
    _row_blocks,
    _scaled_fail_rows,
    _scaled_log_moment,
    _scaled_log_moment_quad,
    _scaled_log_moment_rows,
    _scaled_row,
    _scaled_rows_loglik,
    _scaled_var_series,
    _scaled_window,
    _stirling_step,
    _whole_number_table,
)

MODELS = [BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial, BetaMixtureBinomial, GridMixture]


def _quad_scaled(c: int, d: int, a: float, b: float, s: float) -> float:
    """E[(su)^c (1-su)^d], u ~ Beta(a, b), by adaptive quadrature in t = log u (independent of the series)."""

    def f(t: float) -> float:
        u = math.exp(t)
        return math.exp(c * math.log(s * u) + d * math.log1p(-s * u) + a * t + (b - 1) * math.log1p(-u)
                        - special.betaln(a, b))

    peak = math.log(min(0.4, (c + a) / (s * (c + d + a + b))))
    lo = integrate.quad(f, -80, peak, limit=500, epsrel=1e-11, epsabs=0)[0]
    lo += integrate.quad(f, peak, math.log(0.5), limit=500, epsrel=1e-11, epsabs=0)[0]

    def g(u: float) -> float:  # the upper part in u itself (quad copes with the endpoint singularity)
        return math.exp(c * math.log(s * u) + d * math.log1p(-s * u)) * stats.beta.pdf(u, a, b)

    hi = integrate.quad(g, 0.5, 1.0, limit=500, epsrel=1e-11, epsabs=0)[0]
    return lo + hi


@pytest.mark.parametrize(
    "c,d,a,b,s",
    [(0, 10, 0.3, 3.0, 0.5), (3, 100, 0.3, 3.0, 0.9), (50, 9950, 0.25, 8.0, 0.7), (0, 10**6, 0.3, 2.0, 0.99),
     (10, 10, 2.0, 0.5, 0.3), (1, 5000, 0.2, 40.0, 0.05)],
)
def test_scaled_beta_moment_matches_quadrature(c, d, a, b, s):
    # reference: numerical quadrature of the defining integral (REFERENCE.md "Power laws", scaled Beta)
    got = float(np.exp(_scaled_log_moment(np.array(c), np.array(d), a, b, s)))
    assert got == pytest.approx(_quad_scaled(c, d, a, b, s), rel=1e-6)


def _exact_scaled_log_moment(c: int, n: int, a: Fraction, b: Fraction, s: Fraction) -> float:
    """log E[p^c (1-p)^(n-c)], p = s·u, u ~ Beta(a, b), in exact rational arithmetic: the Pfaff sum
    s^c (a)_c/(a+b)_c (1-s)^d Σ_j C(d, j) (b)_j/(a+b+c)_j (s/(1-s))^j has rational terms."""
    d = n - c
    z = s / (1 - s)
    value = s**c * (1 - s) ** d
    for i in range(c):
        value *= (a + i) / (a + b + i)
    term = total = Fraction(1)
    for j in range(d):
        term *= Fraction(d - j) * (b + j) / ((j + 1) * (a + b + c + j)) * z
        total += term
    value *= total
    return math.log(value.numerator) - math.log(value.denominator)


@pytest.mark.parametrize(
    "a,b,s", [(Fraction(7, 20), Fraction(23, 10), Fraction(3, 5)), (Fraction(3, 2), Fraction(9, 10), Fraction(99, 100)),
              (Fraction(1, 10), Fraction(50), Fraction(1, 20))],
)
def test_scaled_beta_rows_match_exact_rationals(a, b, s):
    # reference: exact rational arithmetic (the Pfaff sum above); the rows come from the backward
    # three-term recurrence, a method independent of the series the likelihood uses
    ns = [0, 1, 2, 37, 120]
    rows = _scaled_log_moment_rows(ns, float(a), float(b), float(s))
    for n, row in zip(ns, rows, strict=True):
        assert row.shape == (n + 1,)
        exact = [_exact_scaled_log_moment(c, n, a, b, s) for c in range(n + 1)]
        np.testing.assert_allclose(row, exact, rtol=0, atol=1e-12)


def test_scaled_beta_series_window_when_the_peak_is_at_j_0():
    # reference: exact rational arithmetic. With b just above 1 the Pfaff terms peak at j = 0 and
    # then decay geometrically, far slower than the curvature at the peak suggests; the window
    # sized by that curvature stopped at j = 61 of ~200 and log M was off by 2.4e-7 (regression)
    a, b, s = Fraction(1023, 100), Fraction(117, 100), Fraction(21, 125)
    got = float(_scaled_log_moment(np.array([452.0]), np.array([1954.0]), float(a), float(b), float(s))[0])
    assert got == pytest.approx(_exact_scaled_log_moment(452, 2406, a, b, s), abs=1e-11)


@pytest.mark.parametrize("seed", range(4))
def test_scaled_beta_series_and_recurrence_agree(seed):
    # two independent computations of the same moments: the windowed Pfaff series (likelihood)
    # and the backward recurrence (whole pmf rows), over random parameters and n up to 3000
    rng = np.random.default_rng(seed)
    for _ in range(10):
        a = float(np.exp(rng.uniform(np.log(0.05), np.log(20))))
        b = float(np.exp(rng.uniform(np.log(0.2), np.log(500))))
        s = float(rng.uniform(0.05, 0.999))
        ns = rng.integers(1, 3000, 3)
        for n, row in zip(ns, _scaled_log_moment_rows(ns, a, b, s), strict=True):
            cs = np.arange(n + 1.0)
            np.testing.assert_allclose(row, _scaled_log_moment(cs, n - cs, a, b, s), rtol=0, atol=1e-10)


def test_scaled_beta_pmf_matches_2f1_small_n():
    # reference: the pmf with 2F1 from REFERENCE.md, evaluated directly by scipy.special.hyp2f1 at small n
    a, b, s, n = 0.4, 2.5, 0.6, 12
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(s), np.log(a), np.log(b)])
    for x in range(n + 1):
        ref = math.comb(n, x) * s**x * math.exp(special.betaln(x + a, b) - special.betaln(a, b)) * special.hyp2f1(
            -(n - x), x + a, x + a + b, s
        )
        assert float(m.pmf(n, x)) == pytest.approx(ref, rel=1e-9)


def test_beta_moment_reference_value():
    # REFERENCE.md: Beta(0.3, 3), exact E[(1-p)^10^4] = 0.0846500
    m = BetaBinomial()
    m._theta = np.log([0.3, 3.0])
    assert float(np.exp(m.log_moment(0, 10**4))) == pytest.approx(0.0846500, abs=5e-8)


def test_beta_failure_rate_approaches_its_power_law_asymptote():
    # ../shared/REFERENCE.md (Schaeffer et al. 2025, arXiv 2502.17578): under Beta(a, b), E[(1-p)^k] ~
    # Gamma(a+b)/Gamma(b) k^-a, so b = a is the power law's exponent; for Beta(0.3, 3) exact/asymptote =
    # 0.9318 (k = 10), 0.99218 (10^2), 0.99992 (10^4): the exact moment and its approach to the tail law, at once
    m = BetaBinomial()
    m._theta = np.log([0.3, 3.0])
    k = np.array([10, 100, 10**4])
    ratio = np.exp(m.log_moment(0, k) - (special.gammaln(3.3) - special.gammaln(3.0)) + 0.3 * np.log(k))
    assert np.all(np.abs(ratio - [0.9318, 0.99218, 0.99992]) <= [5e-5, 5e-6, 5e-6])  # the digits given
    # the fitted curve's local exponent -dlog(-log pass_D@k)/dlog k tends to the same a only slowly (pass_D@k -> 1
    # makes -log pass_D@k ~ E[(1-p)^k]): from above, 0.329 at k = 10^3 and within 0.3% of 0.3 by k = 10^8
    m.params_ = m._unpack(m._theta)
    local = m.local_exponent(10.0 ** np.arange(3, 9))
    assert np.all(np.diff(local) < 0) and np.all(local > 0.3) and local[-1] == pytest.approx(0.3, rel=3e-3)


@pytest.mark.parametrize("cls", [BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial, BetaMixtureBinomial])
def test_pmf_sums_to_one_and_matches_quadrature(cls):
    rng = np.random.default_rng(0)
    m = cls()
    k = {"beta": 2, "zi_beta": 3, "scaled_beta": 3, "beta_mixture": 6}[m.name]
    m._theta = rng.normal(0, 0.5, k)
    m.params_ = m._unpack(m._theta)
    n = 15
    cs = np.arange(n + 1)
    pmf = m.pmf(np.full(n + 1, n), cs)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-10)
    # brute force: integrate the binomial pmf against the density (+ point mass at 0)
    top = m.params_.get("scale", 1.0)
    for x in (0, 3, 15):
        ref = integrate.quad(lambda p, x=x: stats.binom.pmf(x, n, p) * m.density(p), 0, top, limit=200,
                             points=[1e-6 * top, 1e-3 * top, 0.1 * top])[0]
        if x == 0:
            ref += m.impossible_mass_
        assert float(pmf[x]) == pytest.approx(ref, rel=1e-5, abs=1e-12)


def test_beta_fit_recovers_truth_and_gradient():
    rng = np.random.default_rng(1)
    p = rng.beta(0.4, 6.0, 20000)
    n = rng.integers(50, 500, p.size)  # unequal n
    c = rng.binomial(n, p)
    f = BetaBinomial().fit(n=n, c=c)
    assert f.success_
    assert abs(f.params_["alpha"] - 0.4) < 4 * f.se_["alpha"]
    assert abs(f.params_["beta"] - 6.0) < 4 * f.se_["beta"]
    # analytic gradient against central differences of the log-likelihood, with a step of 1e-4: the value is ~7e4,
    # whose rounding (~1e-9 summed over 20,000 problems) a step of 1e-6 turns into a relative gradient error of up to
    # ~4e-5, above the tolerance; at 1e-4 rounding and the difference's own O(h²) error both stay below 1e-6
    pn, pc, pw = f.pairs_
    lb = special.gammaln(pn + 1) - special.gammaln(pc + 1) - special.gammaln(pn - pc + 1)
    th = f._theta + 0.1
    _, g = f._nll_grad(th, pn, pc, pw, lb)
    num = [(f._negloglik(th + e, pn, pc, pw, lb) - f._negloglik(th - e, pn, pc, pw, lb)) / 2e-4
           for e in np.eye(2) * 1e-4]
    np.testing.assert_allclose(g, num, rtol=1e-5)


def test_multiplicities_equal_duplicated_rows():
    # fitting over distinct (n, c) pairs with counts = fitting every row (two computations of one likelihood)
    rng = np.random.default_rng(2)
    n = np.full(300, 40)
    c = rng.binomial(n, rng.beta(0.5, 3, 300))
    f = BetaBinomial().fit(n=n, c=c)
    ll_rows = np.sum(special.gammaln(41) - special.gammaln(c + 1) - special.gammaln(41 - c)
                     + special.betaln(c + f.params_["alpha"], 40 - c + f.params_["beta"])
                     - special.betaln(f.params_["alpha"], f.params_["beta"]))
    assert f.loglik_ == pytest.approx(ll_rows, rel=1e-12)
    assert f.aic_ == pytest.approx(4 - 2 * ll_rows)


def test_zero_inflated_recovers_impossible_mass():
    bench = passcurve.simulate(problems=3000, n=200, models=[passcurve.ModelSpec("m", 0.6, 4.0, impossible=0.2)],
                               rng=3)
    f = ZeroInflatedBetaBinomial().fit(bench.counts)
    assert abs(f.impossible_mass_ - 0.2) < 4 * f.se_["impossible"] + 0.01
    # the ceiling of the forecast is 1 - impossible mass
    assert float(f.pass_at_k(1e12)) == pytest.approx(1 - f.impossible_mass_, abs=1e-3)
    # a Beta without the point mass fits worse
    assert f.loglik_ > BetaBinomial().fit(bench.counts).loglik_


def test_empirical_bayes_averages_to_population():
    # E_c[ posterior pass@K | n, c ] = population pass@K (law of total expectation), summed over all c exactly
    m = ZeroInflatedBetaBinomial()
    m._theta = np.array([special.logit(0.1), np.log(0.3), np.log(5.0)])
    m.params_ = m._unpack(m._theta)
    n, K = 50, 1000
    cs = np.arange(n + 1)
    avg = float(np.sum(m.pmf(np.full(n + 1, n), cs) * m.posterior_pass_at_k(n, cs, K)))
    assert avg == pytest.approx(float(m.pass_at_k(K)), rel=1e-10)


def test_goodness_of_fit_and_npmle():
    rng = np.random.default_rng(4)
    n = np.full(500, 100)
    c = rng.binomial(n, rng.beta(0.3, 3.0, 500))
    b = BetaBinomial().fit(n=n, c=c)
    g = b.goodness_of_fit()
    assert sum(g["observed"]) == pytest.approx(500)
    assert sum(g["expected"]) == pytest.approx(500, rel=1e-8)
    assert g["p_value"] > 0.001  # the right model is not rejected
    npm = GridMixture().fit(n=n, c=c)
    assert npm.loglik_ >= b.loglik_ - 1.0  # the NPMLE maximises over (a grid of) all mixing laws
    assert npm.weights_.sum() == pytest.approx(1.0)
    # its parameters: J - 1 weights and J locations, less the fixed location of an atom at p = 0 (it counted J, the
    # weights alone, so its AIC read as a better fit than the Beta's by leaving out where the atoms are)
    J = int((npm.weights_ > 1e-6).sum())
    assert npm.params_["support_points"] == J
    assert npm.n_params_ == 2 * J - 1 - int(npm.weights_[0] > 1e-6)
    assert npm.aic_ == pytest.approx(2 * npm.n_params_ - 2 * npm.loglik_, rel=1e-12)
    z = GridMixture().fit(n=np.full(40, 50), c=np.r_[np.zeros(20, int), np.full(20, 25)])  # an atom at 0 and at 1/2
    assert z.weights_[0] > 0.3 and z.params_["support_points"] == 2 and z.n_params_ == 2  # one weight, one location


def _exact_scaled_log_moment_grad(c: int, n: int, a: Fraction, b: Fraction, s: Fraction) -> list[float]:
    """d/d(a, b, s) of log E[p^c (1-p)^(n-c)] in exact rational arithmetic: the Pfaff sum of
    _exact_scaled_log_moment is rational in (a, b, s), so each factor's and each term's log-derivative
    is a rational sum (a term's: -sum 1/(a+b+c+i) in a, sum 1/(b+i) - 1/(a+b+c+i) in b, j(1/s + 1/(1-s)) in s)."""
    d = n - c
    z = s / (1 - s)
    ga, gb, gs = Fraction(0), Fraction(0), Fraction(c) / s - Fraction(d) / (1 - s)
    for i in range(c):
        ga += 1 / (a + i) - 1 / (a + b + i)
        gb -= 1 / (a + b + i)
    term = total = Fraction(1)
    ta = tb = ts = la = lbb = Fraction(0)
    for j in range(d):
        term *= Fraction(d - j) * (b + j) / ((j + 1) * (a + b + c + j)) * z
        la -= 1 / (a + b + c + j)
        lbb += 1 / (b + j) - 1 / (a + b + c + j)
        total += term
        ta += term * la
        tb += term * lbb
        ts += term * (j + 1) * (1 / s + 1 / (1 - s))
    return [float(ga + ta / total), float(gb + tb / total), float(gs + ts / total)]


@pytest.mark.parametrize(
    "a,b,s", [(Fraction(3, 10), Fraction(3), Fraction(3, 5)), (Fraction(2), Fraction(1), Fraction(3, 10)),
              (Fraction(7, 20), Fraction(1, 5), Fraction(99, 100)), (Fraction(1, 20), Fraction(40), Fraction(1, 20))],
)
def test_scaled_beta_series_gradient_matches_exact_rationals(a, b, s):
    # reference: exact rational arithmetic (the Pfaff sum's term-by-term log-derivatives). The series'
    # gradient pair by pair (its digamma sums as tail-weighted sums of 1/(x + i)), b = 1 included (there
    # x + lo - 1 = 0 at a window starting at j = 0); in s near 1 its c/s - d/(1-s) + mean_j/(s(1-s)) cancels
    n = 300
    cs = np.arange(n + 1.0)
    _, g = _scaled_log_moment(cs, n - cs, float(a), float(b), float(s), grad=True)
    exact = np.array([_exact_scaled_log_moment_grad(int(c), n, a, b, s) for c in cs])
    err = np.abs(g - exact) / np.maximum(np.abs(exact), 1.0)
    assert err[:, :2].max() < 1e-13
    assert err[:, 2].max() < (1e-10 if s > Fraction(9, 10) else 1e-12)


def _rows_of(n: np.ndarray, c: np.ndarray, w: np.ndarray) -> list:
    return [_scaled_row(int(N), c[n == N].astype(np.int64), w[n == N]) for N in np.unique(n)]


@pytest.mark.parametrize(
    "a,b", [(Fraction(3, 10), Fraction(3)), (Fraction(2), Fraction(1, 2)), (Fraction(7, 20), Fraction(1, 5)),
              (Fraction(1, 20), Fraction(40))],
)
@pytest.mark.parametrize("s", [Fraction(3, 5), Fraction(99, 100), Fraction(999_999_999, 10**9), Fraction(1, 20)])
def test_scaled_beta_rows_loglik_matches_exact_rationals(a, b, s):
    # reference: exact rational arithmetic (the Pfaff sum and its term-by-term log-derivatives). The fit's
    # whole rows (backward recurrence, adjoint gradient in a and b, the identity d/ds log M = (c - d r_c)/s)
    # against it on every c of unequal n, c = 0 and c = n included, b < 1 and s near 1 included
    ns = [1, 2, 37, 120]
    n = np.concatenate([np.full(N + 1, N) for N in ns])
    c = np.concatenate([np.arange(N + 1) for N in ns])
    w = 1.0 + (np.arange(n.size) % 5)  # unequal weights, so a wrong weight on any c shows
    rows = _rows_of(n, c, w)
    value, grad = _scaled_rows_loglik(rows, float(a), float(b), float(s), grad=True)
    exact = [_exact_scaled_log_moment(int(ci), int(N), a, b, s) for N, ci in zip(n, c, strict=True)]
    exact_g = np.array([_exact_scaled_log_moment_grad(int(ci), int(N), a, b, s) for N, ci in zip(n, c, strict=True)])
    assert value == pytest.approx(float(w @ exact), rel=1e-13)
    scale = np.abs(w[:, None] * exact_g).sum(axis=0)  # the gradient's own size before cancellation
    np.testing.assert_allclose(grad, w @ exact_g, rtol=0, atol=1e-12 * scale.max())
    np.testing.assert_allclose(_scaled_rows_loglik(rows, float(a), float(b), float(s)), value, rtol=1e-15)


@pytest.mark.parametrize(
    "a,b,s", [(0.3, 3.0, 0.6), (0.4, 0.7, 0.9), (2.0, 0.5, 1 - 1e-9), (0.05, 40.0, 0.05), (0.25, 12.0, 0.2),
              (5.0, 0.3, 0.3), (0.3, 2.0, 0.999)],
)
def test_scaled_beta_rows_loglik_matches_the_series(a, b, s):
    # reference: the Pfaff series pair by pair (_scaled_log_moment, an independent method), on simulated
    # counts at n = 10^4 (one row of thousands of distinct c, as in the fit of 10^4 problems) and on
    # unequal n with c = 0 and c = n present. The gradient is compared on the scale of its terms
    # (sum |w grad log M|: the sum itself cancels near an optimum); in s near 1 the series' own
    # c/s - d/(1-s) + mean_j/(s(1-s)) cancels terms of ~1e13, so there the tolerance is the series'
    rng = np.random.default_rng(7)
    for n in (np.full(10_000, 10_000), rng.choice([1, 2, 50, 51, 500, 3000], 5000)):
        c = rng.binomial(n, s * rng.beta(a, b, n.size))
        c[:3], c[3:6] = 0, n[3:6]
        pn, pc, pw = _pairs(n, c)
        lm, g = _scaled_log_moment(pc, pn - pc, a, b, s, grad=True)
        value, grad = _scaled_rows_loglik(_rows_of(pn, pc, pw), a, b, s, grad=True)
        assert value == pytest.approx(float(pw @ lm), rel=1e-12)
        scale = np.abs(pw[:, None] * g).sum(axis=0)
        tol = np.array([1e-11, 1e-11, 1e-11 if s < 0.999 else 1e-7])
        np.testing.assert_array_less(np.abs(grad - pw @ g), tol * scale)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 400), st.floats(0.05, 20.0),
       st.floats(0.05, 50.0), st.floats(0.02, 1 - 1e-9), st.sampled_from([None, 64, 1000]))
def test_scaled_beta_lockstep_rows_equal_the_rows_one_by_one(seed, distinct, top, a, b, s, budget):
    # reference: the same rows each by its own scalar recurrence and adjoint (_scaled_rows_loglik without blocks,
    # itself checked against exact rationals above). Advanced in lockstep (_row_blocks, _block_loglik) the ratios
    # are the same floating-point operations, so only the order of the sums differs: value to 1e-13 relative,
    # gradient to 1e-12 of the scale of its terms; random unequal n (1 to 400, c = 0 and c = n included), unequal
    # weights, blocks split by a small cell budget (64: one or a few rows each) or not
    rng = np.random.default_rng(seed)
    ns = rng.choice(np.arange(1, top + 1), size=min(distinct, top), replace=False)
    n = rng.choice(ns, 300)
    c = rng.binomial(n, s * rng.beta(a, b, n.size))
    c[0], c[1] = 0, n[1]
    pn, pc, pw = _pairs(n, c, rng.uniform(0.5, 3.0, n.size))
    rows = _rows_of(pn, pc, pw)
    value, grad = _scaled_rows_loglik(rows, a, b, s, grad=True)
    for row in rows:
        row.lockstep = True
    blocks = _row_blocks(rows, budget)
    assert sorted(int(N) for blk in blocks for N in blk.N) == sorted(int(N) for N in ns)
    lock_value, lock_grad = _scaled_rows_loglik(rows, a, b, s, grad=True, blocks=blocks)
    assert lock_value == pytest.approx(value, rel=1e-13, abs=1e-13)
    assert _scaled_rows_loglik(rows, a, b, s, blocks=blocks) == pytest.approx(value, rel=1e-13, abs=1e-13)
    lm, g = _scaled_log_moment(pc, pn - pc, a, b, s, grad=True)
    scale = np.abs(pw[:, None] * g).sum(axis=0)  # the gradient's terms' size (the sum cancels near an optimum)
    np.testing.assert_array_less(np.abs(lock_grad - grad), 1e-12 * scale + 1e-300)


def test_scaled_beta_fit_in_lockstep_equals_the_fit_by_the_series():
    # reference: the same fit with every pair by the Pfaff series (the likelihood as it was). 20,000 problems with
    # n uniform in [100, 1000] and c ~ beta-binomial(n, 0.3, 3) (the design of bench_lockstep_rows.py): 901 n
    # with about 16 distinct c each, where the series beat rows one by one and the plan now takes one block
    rng = np.random.default_rng(12345)
    n = rng.integers(100, 1001, 20_000)
    c = rng.binomial(n, rng.beta(0.3, 3.0, n.size))

    class Series(ScaledBetaBinomial):
        _row_rule = "series"

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auto, series = ScaledBetaBinomial().fit(n=n, c=c), Series().fit(n=n, c=c)
    rows, ser, in_rows = auto._plan_cache[3]
    # n with the fewest pairs stay with the series (17 of the 901 n, 174 of the 14,538 pairs, all n >= 745)
    assert all(r.lockstep for r in rows) and len(rows.blocks) == 1 and in_rows.size > 50 * ser.size
    for k, v in series.params_.items():
        # both stop on BFGS's precision loss within their Newton-decrement tolerance, where a flat likelihood
        # (the scale near 1) leaves the parameters free to about 1e-5 relative
        assert auto.params_[k] == pytest.approx(v, rel=1e-4)
    assert auto.loglik_ == pytest.approx(series.loglik_, abs=1e-5)


def test_scaled_beta_fit_by_rows_equals_the_fit_by_the_series():
    # reference: the same fit with every pair by the Pfaff series (the likelihood as it was); 2,000
    # problems at n = 3,000 (about 900 distinct pairs at one n, where the cost rule takes the row)
    rng = np.random.default_rng(31)
    n = np.full(2000, 3000)
    c = rng.binomial(n, 0.5 * rng.beta(0.3, 2.0, n.size))

    class Series(ScaledBetaBinomial):
        _row_rule = "series"

    auto, series = ScaledBetaBinomial().fit(n=n, c=c), Series().fit(n=n, c=c)
    rows, ser, _ = auto._plan_cache[3]
    assert [r.N for r in rows] == [3000] and ser.size == 0
    for k, v in series.params_.items():
        assert auto.params_[k] == pytest.approx(v, rel=1e-6)
        # the standard errors come from central differences of the analytic gradient (the likelihood's own
        # second differences carried its rounding over 1e-8, 3e-4 relative here); what is left is the two fits'
        # optima differing by up to 1e-6
        assert auto.se_[k] == pytest.approx(series.se_[k], rel=1e-4)
    assert auto.loglik_ == pytest.approx(series.loglik_, abs=1e-6)


def test_scaled_beta_plan_takes_rows_only_where_they_are_cheaper():
    # the cost rule: one n with thousands of distinct c goes to a row (O(n) once instead of O(sqrt(n)) per
    # pair); 300 problems with 300 distinct n (one pair each) stay with the series; a mix splits by n
    rng = np.random.default_rng(3)
    m = ScaledBetaBinomial()
    theta = np.array([special.logit(0.6), np.log(0.3), np.log(3.0)])
    n1 = np.full(5000, 10_000)
    c1 = rng.binomial(n1, 0.6 * rng.beta(0.3, 3.0, n1.size))
    n2 = rng.choice(np.arange(100, 10_000), 300, replace=False)
    c2 = rng.binomial(n2, 0.6 * rng.beta(0.3, 3.0, n2.size))
    for n, c, want in ((n1, c1, [10_000]), (n2, c2, []), (np.r_[n1, n2], np.r_[c1, c2], [10_000])):
        pn, pc, pw = _pairs(n, c)
        rows, ser, in_rows = m._plan(theta, pn, pc, pw)
        assert [r.N for r in rows] == want
        assert np.array_equal(np.sort(np.r_[ser, in_rows]), np.arange(pn.size))
        assert np.all(pn[in_rows] == 10_000) and not np.any(pn[ser] == 10_000)


def test_scaled_beta_fit_on_pythia_equals_the_series_fit():
    # reference: the same fits with every pair by the Pfaff series (the likelihood as it was), on the
    # Pythia MATH counts (Brown et al. 2024; ../shared/data/README.md): the same maximum (log-likelihood to 1e-6)
    # and parameters to 1e-6 relative or 1e-4 of their standard error. The likelihood is flat in b on 160M
    # (SE 3.85 at b = 3.94): with scipy 1.11 the series' fit stopped on "precision loss" and was accepted by its
    # Newton decrement 4.6e-12 (distance ~sqrt(4.6e-12) = 2e-6 SE from the optimum), 1.5e-6 relative from the
    # rows' fit in b and 8e-10 in log-likelihood; with scipy 1.17 the two agree to 3e-9
    rows = np.genfromtxt(shared_file("pythia_math_counts.csv"), delimiter=",", names=True, dtype=None,
                         encoding="utf-8")

    class Rows(ScaledBetaBinomial):
        _row_rule = "rows"

    class Series(ScaledBetaBinomial):
        _row_rule = "series"

    for model in ("Pythia 160M", "Pythia 12B"):
        sel = rows["model"] == model
        n, c = rows["n"][sel].astype(int), rows["c"][sel].astype(int)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            by_rows, by_series = Rows().fit(n=n, c=c), Series().fit(n=n, c=c)
        for k, v in by_series.params_.items():
            se = by_series.se_[k]
            tol = max(1e-6 * abs(v), 1e-4 * se if np.isfinite(se) else 0.0)
            assert by_rows.params_[k] == pytest.approx(v, rel=0, abs=tol)
        assert by_rows.loglik_ == pytest.approx(by_series.loglik_, abs=1e-6)


@pytest.mark.parametrize("theta", [[-2.54, -1.48, 4.42], [0.5, np.log(0.3), np.log(12.0)], [9.0, np.log(0.07), np.log(100.0)],
                                   [-6.0, np.log(2.0), np.log(3.0)]])
def test_scaled_beta_analytic_gradient_matches_central_differences(theta):
    # the gradient the optimiser uses (series-weighted digamma terms) against central differences of the
    # likelihood itself, on unequal n up to 10^4 and counts up to a few hundred
    rng = np.random.default_rng(11)
    n = rng.integers(50, 10_000, 150)
    c = rng.binomial(n, 0.3 * rng.beta(0.3, 5.0, 150))
    m = ScaledBetaBinomial()
    pn, pc, pw = _pairs(n, c, None)
    lb = _log_binom(pn, pc)
    theta = np.array(theta)
    v, g = m._negloglik_grad(theta, pn, pc, pw, lb)
    assert v == pytest.approx(m._negloglik(theta, pn, pc, pw, lb), rel=1e-12)
    h = 1e-5
    fd = np.array([(m._negloglik(theta + h * e, pn, pc, pw, lb) - m._negloglik(theta - h * e, pn, pc, pw, lb)) / (2 * h)
                   for e in np.eye(3)])
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(fd).max()))


def test_scaled_beta_fit_reaches_the_derivative_free_optimum():
    # the gradient-based fit is at least as good as Nelder-Mead on the likelihood alone
    from scipy import optimize

    rng = np.random.default_rng(12)
    n = np.full(200, 2000)
    c = rng.binomial(n, 0.1 * rng.beta(0.4, 3.0, 200))
    fit = ScaledBetaBinomial().fit(n=n, c=c)
    pn, pc, pw = fit.pairs_
    lb = _log_binom(pn, pc)
    # tolerances Nelder-Mead can meet here: it converges in ~220 evaluations at xatol 1e-7, while at 1e-8 or 1e-9 the
    # simplex never satisfies both tests and ran out its 20,000 iterations (~10^5 evaluations, 112-180 s) at the same
    # log-likelihood to 1e-11
    nm = optimize.minimize(fit._negloglik, fit._start(pn, pc, pw)[0], args=(pn, pc, pw, lb), method="Nelder-Mead",
                           options={"maxiter": 20000, "xatol": 1e-7, "fatol": 1e-10})
    assert fit.success_ and nm.success, nm.message
    assert fit.loglik_ >= -nm.fun - 1e-6
    assert fit.params_["scale"] == pytest.approx(0.1, rel=0.5)  # the true scale is 0.1


@pytest.mark.parametrize(("x", "m"), [(2.5, 10), (99_999.0, 50), (100_001.0, 3), (1e6, 1000), (1e30, 7), (3e41, 12)])
def test_log_rising_is_accurate_for_huge_arguments(x, m):
    # log Γ(x+m)/Γ(x) = Σ_{j<m} log(x+j) for integer m (the definition, summed exactly with fsum)
    exact = math.fsum(math.log(x + j) for j in range(m))
    assert float(_log_rising(x, m)) == pytest.approx(exact, rel=1e-13)
    # its x-derivative ψ(x+m) − ψ(x) = Σ_{j<m} 1/(x+j)
    assert float(_digamma_diff(x, m)) == pytest.approx(math.fsum(1 / (x + j) for j in range(m)), rel=1e-9)


@pytest.mark.parametrize("x", [30.0, 31.5, 45.25, 1000.5, 2718.25, 1e4])
@pytest.mark.parametrize("m", [1, 3, 1000, 10**6])
def test_log_rising_on_the_stirling_branch_just_above_its_threshold(x, m):
    # x from 30 is where the Stirling branch starts (its truncation error is largest there), with m up to
    # 10^6 (n + beta for large benchmarks). Oracle: the definition log Gamma(x+m)/Gamma(x) = sum_{j<m} log(x+j),
    # summed exactly (math.fsum) over correctly rounded logs; and psi(x+m) - psi(x) = sum_{j<m} 1/(x+j)
    exact = math.fsum(math.log(x + j) for j in range(m))
    assert float(_log_rising(x, m)) == pytest.approx(exact, rel=1e-14)
    assert float(_digamma_diff(x, m)) == pytest.approx(math.fsum(1 / (x + j) for j in range(m)), rel=1e-13)


def _exact_beta_log_moment(c: int, d: int, a: float, b: float) -> float:
    """log E[p^c (1-p)^d], p ~ Beta(a, b), for integers c, d: the finite product
    prod_{j<c} (a+j)/(a+b+j) * prod_{j<d} (b+j)/(a+b+c+j), each factor's log taken without cancellation
    (log1p(-gap/den) where the factor num/den = 1 - gap/den is >= 1/2, with the gap b or a+c given exactly; log of
    the ratio otherwise) and summed exactly with math.fsum."""
    def logs(num: np.ndarray, gap: float, den: np.ndarray) -> np.ndarray:  # log(num/den), den = num + gap
        r = num / den
        return np.where(r >= 0.5, np.log1p(-gap / den), np.log(r))

    j = np.arange(c, dtype=np.float64)
    first = logs(a + j, b, a + b + j)
    j = np.arange(d, dtype=np.float64)
    second = logs(b + j, a + c, a + b + c + j)
    return math.fsum(first) + math.fsum(second)


@pytest.mark.parametrize(
    ("c", "d", "a", "b"),
    [(0, 10**6, 0.06, 1993.0), (0, 6 * 10**6, 0.06, 1993.0),  # pass@K of a concentrated heavy tail
     (0, 1, 0.01, 1000.0), (0, 1, 5.0, 1e5), (0, 9, 582.7, 0.01424),  # pass@1 = a/(a+b) and near it
     (0, 10**4, 0.2955, 12.36), (0, 10**7, 0.3, 12.0),  # Pythia-12B's Beta (docs/forecasting.md)
     (3, 10**6, 0.3, 12.0), (15, 73, 0.001028, 7.869e4), (5, 1, 0.001595, 3.916e4), (500, 500, 0.3, 12.0),
     (10, 10**6, 1e-3, 0.5), (0, 10**6, 50.0, 2000.0), (0, 1000, 2.0, 1e4), (7, 0, 0.3, 12.0)],
)
def test_beta_log_moment_to_the_last_digits_against_the_exact_product(c, d, a, b):
    # log M and pass = 1 - M against the exact finite product. The former betaln / log-gamma differences had
    # relative errors of 3.8e-9 at (0, 1e6, 0.06, 1993) and 1e-7 at (0, 1, 0.01, 1000) (pass@1 = a/(a+b))
    exact = _exact_beta_log_moment(c, d, a, b)
    got = float(_beta_log_moment(np.array([c]), np.array([d]), a, b)[0])
    assert got == pytest.approx(exact, rel=2e-14, abs=1e-300)
    assert -math.expm1(got) == pytest.approx(-math.expm1(exact), rel=2e-14)


def test_fitted_beta_pass_at_1_is_alpha_over_alpha_plus_beta():
    # closed form: E[p] = a/(a+b); the fitted model's public pass_at_k goes through the same moments
    model = BetaBinomial()
    model._theta = np.log([0.01, 1000.0])
    assert float(model.pass_at_k(1)) == pytest.approx(0.01 / 1000.01, rel=1e-15)
    assert float(model.pass_at_k(10**6)) == pytest.approx(-math.expm1(_exact_beta_log_moment(0, 10**6, 0.01, 1000.0)),
                                                           rel=1e-14)


def _beta_and_zero_inflated(a: float, b: float, pi0: float) -> tuple[BetaBinomial, ZeroInflatedBetaBinomial]:
    """A Beta(a, b) and a zero-inflated Beta with impossible mass pi0, set as if fitted."""
    beta = BetaBinomial()
    beta._theta = np.log([a, b])
    zi = ZeroInflatedBetaBinomial()
    zi._theta = np.array([special.logit(pi0), np.log(a), np.log(b)])
    return beta, zi


def test_posterior_pass_at_1_is_the_posterior_mean_to_the_last_digits():
    # closed forms: under Beta(a, b), E[p | n, c] = (a + c)/(a + b + n); under the zero-inflated Beta a problem with
    # c = 0 keeps the point mass with posterior weight r0 = pi0 / (pi0 + (1 - pi0) M(0, n)), M(0, n) the exact product,
    # so E[p | n, 0] = (1 - r0) a/(a + b + n). The former 1 - exp(log M(c, d+1) - log M(c, d)) was off by 1.7e-4
    # relative at n = 10^6, c = 2
    a, b, pi0 = 0.3, 12.0, 0.2
    beta, zi = _beta_and_zero_inflated(a, b, pi0)
    for n, c in [(10**6, 0), (10**6, 2), (10**4, 0), (50, 49)]:
        mean = (a + c) / (a + b + n)
        assert float(beta.posterior_pass_at_k(n, c, 1)) == pytest.approx(mean, rel=4e-15)
        r0 = 0.0 if c else pi0 / (pi0 + (1 - pi0) * math.exp(_exact_beta_log_moment(0, n, a, b)))
        assert float(zi.posterior_pass_at_k(n, c, 1)) == pytest.approx((1 - r0) * mean, rel=4e-15)


def test_posterior_pass_at_k_of_a_runaway_fit_raises_no_numpy_warnings():
    # three under-dispersed problems (1, 2, 3 of 20) send the zero-inflated Beta's concentration to ~1e57, where
    # exp(theta) overflows: the conjugate posterior evaluated its parts outside numpy's errstate and warned once
    # per call, and the report (which records warnings) grew to 24 GB on the forecast's repeated calls
    f = ZeroInflatedBetaBinomial().fit(n=[20, 20, 20], c=[1, 2, 3])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = f.posterior_pass_at_k([20, 20], [1, 0], [1, 1000])
        f._theta = np.array([f._theta[0], 720.0, 722.0])  # a Laplace draw far out: exp overflows to inf
        f.posterior_pass_at_k([20], [1], [1000])
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert np.all((out >= 0) & (out <= 1))


def _exact_fail_dispersion(k: int, a: float, b: float) -> float:
    """log E[(1-p)^(2k)] - 2 log E[(1-p)^k] under Beta(a, b) for integer k: the finite product's
    sum_{j<k} log(1 + a k/((a+b+k+j)(b+j))) (each factor of E[(1-p)^(2k)]/E[(1-p)^k]^2 = prod (b+k+j)(a+b+j) /
    ((a+b+k+j)(b+j)) exceeds 1 by exactly that), every term positive, summed with math.fsum."""
    j = np.arange(k, dtype=np.float64)
    return math.fsum(np.log1p(a * k / ((a + b + k + j) * (b + j))))


@pytest.mark.parametrize(("a", "k", "b"), [(0.3, 1, 12.0), (2.3, 1, 1e6 + 12), (0.01, 7, 0.5), (5e6, 3, 20.0),
                                           (0.06, 10**5, 1993.0), (1e4, 10**4, 29.9), (0.3, 1, 1e7), (40.0, 500, 30.0),
                                           (1e-3, 2 * 10**5, 0.02), (3.0, 64, 5e6)])
def test_beta_fail_dispersion_against_the_exact_sum(a, k, b):
    # reference: the exact finite product above (regimes: b below and above 30, a >> b, k >> b, b ~ 10^7)
    assert float(_beta_fail_dispersion(a, b, float(k))) == pytest.approx(_exact_fail_dispersion(k, a, b), rel=4e-15, abs=0)


def test_posterior_variance_of_pass_at_1_against_the_closed_form():
    # closed form: under Beta(A, B), A = a + c, B = b + n - c, Var[p | n, c] = AB/((A+B)^2 (A+B+1)); with the point mass
    # (weight r0 = pi0/(pi0 + (1 - pi0) M(0, n)) when c = 0) the law of total variance adds r0 (1 - r0) (A/(A+B))^2 to
    # (1 - r0) AB/((A+B)^2 (A+B+1)). The former m2 - m1^2 was off by 2.6e-3 relative at n = 10^6, c = 2 and by 0.20 at
    # n = 10^7, c = 5*10^6, where m1 itself was off by 2.5e-8 (log-moment differences)
    a, b, pi0 = 0.3, 12.0, 0.2
    beta, zi = _beta_and_zero_inflated(a, b, pi0)
    for n, c in [(10**6, 2), (10**6, 0), (10**7, 5 * 10**6), (10**4, 0), (50, 49)]:
        A, B = a + c, b + n - c
        var = A * B / ((A + B) ** 2 * (A + B + 1))
        assert float(beta._posterior_fail_var(n, c, 1)) == pytest.approx(var, rel=4e-15, abs=0)
        m1, m2 = beta.posterior_fail_moments(n, c, 1)
        fa, fb = Fraction(A), Fraction(B)  # exact rationals at the same float shapes
        assert float(m1) == pytest.approx(float(fb / (fa + fb)), rel=4e-16, abs=0)
        # (exp of an exact log moment: a few units in the last place, 2e-15 measured at n = 50)
        assert float(m2) == pytest.approx(float(fb * (fb + 1) / ((fa + fb) * (fa + fb + 1))), rel=4e-15, abs=0)
        r0 = 0.0 if c else pi0 / (pi0 + (1 - pi0) * math.exp(_exact_beta_log_moment(0, n, a, b)))
        mu = A / (A + B)
        assert float(zi._posterior_fail_var(n, c, 1)) == pytest.approx((1 - r0) * var + r0 * (1 - r0) * mu**2,
                                                                        rel=4e-15, abs=0)


def test_posterior_fail_moments_and_variance_of_a_mixture_against_exact_rationals():
    # reference: exact rational arithmetic at the model's own float parameters (Fraction(float) is exact): the
    # posterior of each Beta component is Beta(alpha_j + c, beta_j + n - c) with weight prop. to w_j B(.)/B(.), the
    # point mass keeps weight prop. to w_0 [c = 0]; every moment is a finite product of rationals
    m = BetaMixtureBinomial(components=2)
    m._theta = np.array([np.log(0.1), np.log(0.5), np.log(0.4), np.log(30.0), np.log(3.0), np.log(2.0)])
    w = [Fraction(float(v)) for v in m._weights(m._theta)]
    ab = [(Fraction(float(np.exp(m._theta[2 + 2 * j]))), Fraction(float(np.exp(m._theta[3 + 2 * j]))))
          for j in range(2)]

    def moment(a, b, c, d):  # E[p^c (1-p)^d] under Beta(a, b), exactly
        out = Fraction(1)
        for i in range(c):
            out *= (a + i) / (a + b + i)
        for i in range(d):
            out *= (b + i) / (a + b + c + i)
        return out

    for n, c, k in [(200, 0, 1), (200, 3, 2), (150, 150, 5), (300, 1, 40)]:
        d = n - c
        marg = [w[0] * (c == 0)] + [w[1 + j] * moment(*ab[j], c, d) for j in range(2)]
        tot = sum(marg)
        post = [x / tot for x in marg]
        upd = [(ab[j][0] + c, ab[j][1] + d) for j in range(2)]
        e1 = post[0] + sum(post[1 + j] * moment(*upd[j], 0, k) for j in range(2))
        e2 = post[0] + sum(post[1 + j] * moment(*upd[j], 0, 2 * k) for j in range(2))
        var = e2 - e1 * e1
        m1, m2 = m.posterior_fail_moments(n, c, k)
        assert float(m1) == pytest.approx(float(e1), rel=1e-14, abs=0)  # 4e-15 measured
        assert float(m2) == pytest.approx(float(e2), rel=1e-14, abs=0)  # 4.5e-15 measured
        assert float(m.posterior_pass_at_k(n, c, k)) == pytest.approx(float(1 - e1), rel=2e-15, abs=0)
        assert float(m._posterior_fail_var(n, c, k)) == pytest.approx(float(var), rel=2e-14, abs=0)  # 7.8e-15 seen


def _exact_scaled_moment(c: int, d: int, a: Fraction, b: Fraction, s: Fraction) -> Fraction:
    """E[p^c (1-p)^d] for p = s u, u ~ Beta(a, b), in exact rational arithmetic: the binomial expansion of (1 - su)^d,
    sum_m C(d, m) (-1)^m s^(c+m) E[u^(c+m)] with E[u^t] = (a)_t/(a+b)_t (an alternating sum, exact in Fractions)."""
    rise = Fraction(1)
    for t in range(c):
        rise *= (a + t) / (a + b + t)
    total, sp = Fraction(0), s**c
    for m in range(d + 1):
        total += math.comb(d, m) * (-1) ** m * sp * rise
        sp *= s
        rise *= (a + c + m) / (a + b + c + m)
    return total


@pytest.mark.parametrize(("a", "b", "s", "n", "c", "k"), [
    (0.3, 3.0, 1 - 1e-6, 120, 2, 1), (0.3, 3.0, 1 - 1e-6, 120, 2, 3), (0.7, 12.0, 0.95, 150, 0, 1),
    (2.5, 0.8, 0.6, 80, 30, 2), (0.05, 1.5, 1 - 1e-4, 200, 1, 1), (0.3, 3.0, 1 - 1e-6, 100, 0, 20),
    (1.2, 4.0, 0.5, 40, 10, 30), (0.4, 0.6, 0.2, 60, 59, 7)])
def test_scaled_beta_posterior_quantities_against_exact_rationals(a, b, s, n, c, k):
    # reference: exact rational arithmetic at the model's own float parameters (Fraction(float) is exact; abs=0, as
    # pytest.approx's default absolute tolerance of 1e-12 would pass the old errors on these small values), the
    # posterior failure moments as M(c, d + k)/M(c, d) and M(c, d + 2k)/M(c, d) (_exact_scaled_moment). The former
    # differences of the Pfaff series' log moments were off by up to 4.7e-11 (pass@k), 2.4e-8 (variance, m2 - m1^2)
    # and 2.4e-13 (m1) here, worst at k = 1 with the scale near 1
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(s), np.log(a), np.log(b)])
    aF, bF = Fraction(float(np.exp(m._theta[1]))), Fraction(float(np.exp(m._theta[2])))
    sF = Fraction(min(float(special.expit(m._theta[0])), 1 - 1e-12))
    base = _exact_scaled_moment(c, n - c, aF, bF, sF)
    m1 = _exact_scaled_moment(c, n - c + k, aF, bF, sF) / base
    m2 = _exact_scaled_moment(c, n - c + 2 * k, aF, bF, sF) / base
    assert float(m.posterior_pass_at_k(n, c, k)) == pytest.approx(float(1 - m1), rel=2e-15, abs=0)
    assert float(m._posterior_fail_var(n, c, k)) == pytest.approx(float(m2 - m1 * m1), rel=4e-15, abs=0)
    got1, got2 = m.posterior_fail_moments(n, c, k)
    assert float(got1) == pytest.approx(float(m1), rel=2e-15, abs=0)
    assert float(got2) == pytest.approx(float(m2), rel=2e-15, abs=0)
    assert float(m.pass_at_k(k)) == pytest.approx(float(1 - _exact_scaled_moment(0, k, aF, bF, sF)), rel=2e-15, abs=0)



@pytest.mark.parametrize(("a", "b", "s", "K"), [(0.3, 1e8, 0.9, 100), (0.3, 1e6, 0.9, 300), (0.5, 1e7, 0.999, 50),
                                                (1e-6, 0.01, 0.3, 200), (0.3, 3.0, 1 - 1e-8, 1)])
def test_scaled_beta_population_pass_at_k_against_exact_rationals(a, b, s, K):
    # reference: 1 - E[(1 - su)^K] in exact rationals (_exact_scaled_moment at c = 0). The Pfaff series' log moment
    # K log(1 - s) + log(sum) lost its digits where b is large: 1 - exp of it was off by 0.61, 2.7e-5, 3.7e-3 and
    # 5.4e-10 relative on the first four
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(s), np.log(a), np.log(b)])
    aF, bF = Fraction(float(np.exp(m._theta[1]))), Fraction(float(np.exp(m._theta[2])))
    sF = Fraction(min(float(special.expit(m._theta[0])), 1 - 1e-12))
    want = 1 - _exact_scaled_moment(0, K, aF, bF, sF)
    assert float(m.pass_at_k(K)) == pytest.approx(float(want), rel=2e-15, abs=0)
    assert float(m.posterior_pass_at_k(0, 0, K)) == pytest.approx(float(want), rel=2e-15, abs=0)

@pytest.mark.parametrize(("A", "B", "s", "k"), [(2.3, 500.0, 0.6, 1), (0.3, 3e4, 1 - 1e-8, 5), (40.0, 7.0, 0.3, 12),
                                                (0.1, 0.9, 0.47, 60)])
def test_scaled_var_series_against_exact_rationals(A, B, s, k):
    # reference: Var[(1 - su)^k] = E[(1 - su)^(2k)] - E[(1 - su)^k]^2 under u ~ Beta(A, B) in exact rationals (each moment
    # the finite binomial sum of E[(1 - u)^i] = (B)_i/(A+B)_i); the Jacobi series sums positive terms instead
    AF, BF, sF = Fraction(A), Fraction(B), Fraction(s)

    def fail(kk):
        out, r = Fraction(0), Fraction(1)
        for i in range(kk + 1):
            out += math.comb(kk, i) * sF**i * (1 - sF) ** (kk - i) * r
            r *= (BF + i) / (AF + BF + i)
        return out

    var, done = _scaled_var_series(np.array([A]), np.array([B]), np.array([float(k)]), s)
    assert bool(done[0])
    assert float(var[0]) == pytest.approx(float(fail(2 * k) - fail(k) ** 2), rel=4e-15, abs=0)

@pytest.mark.parametrize(("x", "w", "m"), [(0.001, 5, 10.0), (0.3, 1, 0.3), (12.36, 1, 0.2955), (25.0, 3, 0.001),
                                           (29.9, 1, 1e-6), (30.0, 1, 0.01), (1000.0, 1, 0.01), (1e6, 40, 3.5),
                                           (0.5, 10**5, 1e-3)])
def test_rising_step_is_the_sum_of_its_steps(x, w, m):
    # R(x+w, m) - R(x, m) = sum_{j<w} log(1 + m/(x+j)) for integer w (log Gamma's recurrence), summed with fsum
    exact = math.fsum(np.log1p(m / (x + np.arange(w, dtype=np.float64))))
    assert float(_rising_step(x, w, m)) == pytest.approx(exact, rel=1e-14)


def test_log_rising_with_a_small_increment_against_a_closed_form():
    # log Gamma(n + 1/2) - log Gamma(n) = log((2n)! / (4^n n! (n-1)!)) + log(pi)/2 (Legendre duplication), exact
    # rationals; m = 1/2 < x = n is where the difference of two gammaln values cancels
    for n in (3, 12, 25, 29):
        r = Fraction(math.factorial(2 * n), 4**n * math.factorial(n) * math.factorial(n - 1))
        exact = math.log(r) + 0.5 * math.log(math.pi)
        assert float(_log_rising(float(n), 0.5)) == pytest.approx(exact, rel=4e-16)


@pytest.mark.parametrize("seed", range(3))
def test_beta_log_moment_against_the_exact_product_at_random_parameters(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        a, b = 10 ** rng.uniform(-3, 3), 10 ** rng.uniform(-2, 5)
        n = int(10 ** rng.uniform(0, 4))
        c = int(rng.integers(0, n + 1)) if rng.random() < 0.5 else 0
        exact = _exact_beta_log_moment(c, n - c, a, b)
        got = float(_beta_log_moment(np.array([c]), np.array([n - c]), a, b)[0])
        assert got == pytest.approx(exact, rel=5e-13, abs=1e-300), (c, n - c, a, b)
        # the likelihood's form keeps a small absolute error (5e-11 at n = 10^4 in the docstring's measurement)
        fast = float(_beta_log_moment(np.array([c]), np.array([n - c]), a, b, exact=False)[0])
        assert abs(fast - exact) <= 1e-10


@pytest.mark.parametrize("seed", range(2))
def test_likelihood_terms_tabulated_by_count_match_the_exact_product(seed):
    # many problems with unequal n share few counts: the likelihood's log M(c, d) (exact=False) and its gradient are
    # then computed once per count 0..max n and gathered (_whole_number_table). Against the exact product (fsum of
    # logs) for a sample of the pairs, and the gradient against the per-pair digamma differences it replaces
    rng = np.random.default_rng(seed)
    n = rng.integers(50, 600, 8000)
    c = rng.binomial(n, rng.beta(0.3, 3.0, n.size))
    pn, pc, _ = _pairs(n, c)
    assert _whole_number_table(pc, pn - pc, 0.3, 3.0) is not None  # the tabulated path is the one under test
    for a, b in [(0.3, 3.0), (0.02, 40.0), (4.0, 0.5), (0.7, 5000.0), (60.0, 2000.0)]:
        fast = _beta_log_moment(pc, pn - pc, a, b, exact=False)
        for i in rng.choice(pn.size, 40, replace=False):
            exact = _exact_beta_log_moment(int(pc[i]), int(pn[i] - pc[i]), a, b)
            assert abs(fast[i] - exact) <= 2e-11, (a, b, pc[i], pn[i])  # 2.4e-12 at worst over every 7th pair
        ga, gb = _beta_log_moment_grad(pc, pn - pc, a, b)
        common = (_digamma_diff(a + b, pn) if a + b > 1000
                  else special.digamma(a + b + pn) - special.digamma(a + b))
        want_a = (_digamma_diff(a, pc) if a + b > 1000 else special.digamma(a + pc) - special.digamma(a)) - common
        want_b = (_digamma_diff(b, pn - pc) if a + b > 1000
                  else special.digamma(b + pn - pc) - special.digamma(b)) - common
        np.testing.assert_allclose(ga, want_a, rtol=1e-13, atol=1e-13)
        np.testing.assert_allclose(gb, want_b, rtol=1e-13, atol=1e-13)
    # counts that are not whole numbers, array-valued shapes or few pairs per count fall back to per-pair terms
    assert _whole_number_table(pc + 0.5, pn - pc, 0.3, 3.0) is None
    assert _whole_number_table(pc, pn - pc, np.array([0.3]), 3.0) is None
    assert _whole_number_table(pc[:100], (pn - pc)[:100], 0.3, 3.0) is None


def _per_pair_sums(c, d, w, a, b):
    """The weighted sums of log M(c, d) (exact=False), its gradient and its Hessian in (a, b), pair by pair as the fits
    wrote them before the count histograms: betaln / digamma / trigamma differences where a + b <= 1000, the exact
    rising-factorial forms above; with the scale of the terms each sum adds (its rounding is relative to that)."""
    n, W = c + d, float(w.sum())
    lg, psi = special.gammaln, special.digamma
    tri = functools.partial(special.polygamma, 1)
    if a + b <= 1000:
        v = w @ (special.betaln(a + c, b + d) - special.betaln(a, b))
        common = psi(a + b + n) - psi(a + b)
        ga, gb = w @ (psi(a + c) - psi(a) - common), w @ (psi(b + d) - psi(b) - common)
    else:
        v = w @ (_log_rising(a, c) + _log_rising(b, d) - _log_rising(a + b, n))
        common = _digamma_diff(a + b, n)
        ga, gb = w @ (_digamma_diff(a, c) - common), w @ (_digamma_diff(b, d) - common)
    t_ab = w @ tri(a + b + n) - W * tri(a + b)
    hess = [w @ tri(a + c) - W * tri(a) - t_ab, w @ tri(b + d) - W * tri(b) - t_ab, -t_ab]
    scale = [w @ (1 + sum(abs(lg(x)) for x in (a + c, a, b + d, b, a + b + n, a + b))),
             w @ (1 + sum(abs(psi(x)) for x in (a + c, a, b + d, b, a + b + n, a + b))),
             w @ sum(tri(x) for x in (a + c, a, b + d, b, a + b + n, a + b))]
    return [v, ga, gb, *hess], scale


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.integers(0, 200),
       st.floats(-3.0, 4.0), st.floats(-3.0, 4.0))
def test_likelihood_sums_by_count_histograms_equal_the_per_pair_formula(seed, top, extra, log_a, log_b):
    # Σ w log M(c, d) = H_c·R(a, ·) + H_d·R(b, ·) − H_n·R(a + b, ·) (count histograms, O(max n)) and its ψ / ψ1
    # sums, against the per-pair formulas the fits summed before, on random unequal-n data (duplicated pairs and
    # weights included); equal to the rounding of the terms they add (a wrong term would be off by O(1) of them)
    rng = np.random.default_rng(seed)
    size = max(64, 4 * (top + 1)) + extra  # enough pairs per count for the tabulated path
    n = rng.integers(1, top + 1, size)
    c = rng.binomial(n, rng.beta(0.5, 2.0, size)).astype(np.float64)
    d = n - c
    w = rng.integers(1, 6, size).astype(np.float64)
    a, b = 10.0**log_a, 10.0**log_b
    got = _beta_sums(c, d, w, a, b, order=2)
    assert got is not None  # the histogram path is the one under test
    want, scale = _per_pair_sums(c, d, w, a, b)
    for g, v, sc in zip(got, want, [scale[0], scale[1], scale[1], *scale[2:] * 3], strict=True):
        assert abs(g - v) <= 1e-14 * sc, (g, v, sc)  # 6e-16 of the scale at worst over 300 draws


def test_likelihood_sum_by_count_histograms_is_as_accurate_as_the_exact_product():
    # Σ w log M by the histograms' tails (one logarithm per count, the three large sums added exactly) against the
    # exact products summed with math.fsum: 0 to 2e-16 relative on 2,246 pairs where the per-pair betaln sum the fits
    # used is off by 2e-16 to 1.7e-14 (a + b = 900.7)
    rng = np.random.default_rng(11)
    n = rng.integers(20, 401, 3000)
    c = rng.binomial(n, rng.beta(0.3, 3.0, n.size))
    pn, pc, pw = _pairs(n, c)
    d = pn - pc
    for a, b in [(0.3, 3.0), (0.02, 40.0), (4.0, 0.5), (0.7, 900.0)]:
        exact = math.fsum(w * _exact_beta_log_moment(int(ci), int(di), a, b) for ci, di, w in zip(pc, d, pw,
                                                                                                   strict=True))
        got = _beta_sums(pc, d, pw, a, b)[0]
        per_pair = float(pw @ (special.betaln(a + pc, b + d) - special.betaln(a, b)))
        assert abs(got - exact) <= 1e-15 * abs(exact), (a, b)
        assert abs(got - exact) <= abs(per_pair - exact) + 1e-16 * abs(exact), (a, b)


def test_beta_fits_by_count_histograms_equal_the_per_pair_path(monkeypatch):
    # the Beta's and the zero-inflated Beta's likelihood, gradient and Hessian by count histograms against the same
    # code with the histograms turned off (the per-pair path), at points off the optimum (a point mass of 0.3, so the
    # unsolved problems' correction matters; a + b > 1000), and their fits' estimates on unequal n in [20, 200]
    import passcurve._difficulty as dif

    rng = np.random.default_rng(5)
    n = rng.integers(20, 201, 4000)
    c = rng.binomial(n, rng.beta(0.4, 3.0, n.size) * (rng.random(n.size) > 0.2))
    pn, pc, pw = _pairs(n, c)
    lb = _log_binom(pn, pc)
    assert _whole_number_table(pc, pn - pc, 0.4, 3.0) is not None
    cases = [(BetaBinomial(), t) for t in (np.log([0.4, 3.0]), np.log([0.03, 80.0]), np.log([20.0, 3000.0]))]
    cases += [(ZeroInflatedBetaBinomial(), np.r_[special.logit(p0), t]) for p0, t in
              ((0.3, np.log([0.4, 3.0])), (1e-6, np.log([2.0, 0.5])), (0.6, np.log([30.0, 2000.0])))]
    for m, theta in cases:
        grad = m._nll_grad_hess if isinstance(m, BetaBinomial) else m._negloglik_grad
        new = m._negloglik(theta, pn, pc, pw, lb), grad(theta, pn, pc, pw, lb)
        with monkeypatch.context() as mp:
            mp.setattr(dif, "_beta_sums", lambda *args, **kw: None)
            old = m._negloglik(theta, pn, pc, pw, lb), grad(theta, pn, pc, pw, lb)
        assert new[0] == pytest.approx(old[0], rel=1e-13)
        for x, y in zip(new[1], old[1], strict=True):
            np.testing.assert_allclose(x, y, rtol=1e-10, atol=1e-10 * np.abs(y).max())
    for cls in (BetaBinomial, ZeroInflatedBetaBinomial):
        new_fit = cls().fit(n=n, c=c)
        with monkeypatch.context() as mp:
            mp.setattr(dif, "_beta_sums", lambda *args, **kw: None)
            old_fit = cls().fit(n=n, c=c)
        assert new_fit.loglik_ == pytest.approx(old_fit.loglik_, rel=1e-12)
        for k, v in old_fit.params_.items():
            assert new_fit.params_[k] == pytest.approx(v, rel=1e-8), k


def test_rising_step_in_blocks_equals_the_form_on_selected_elements():
    # where most x >= 30, _rising_step evaluates Stirling's form over every element in blocks of _CHUNK and overwrites
    # the others; bit for bit the values of the form it replaced: Stirling's on the selected large x with the larger
    # of (w, m) as the step, the general path on the rest (all x < 30 there); also with (x, m) broadcast against K
    rng = np.random.default_rng(3)
    size = 3 * _CHUNK + 17
    x = np.where(rng.random(size) < 0.9, 30.0 + 1e4 * rng.random(size), 30.0 * rng.random(size))
    w, m = 10.0 ** rng.uniform(-2, 5, size), 10.0 ** rng.uniform(-2, 3, size)
    m[::50] = 0.0
    big = x >= 30
    want = np.empty(size)
    want[big] = _stirling_step(x[big], np.maximum(w, m)[big], np.minimum(w, m)[big])
    want[~big] = _rising_step(x[~big], w[~big], m[~big])
    assert np.array_equal(_rising_step(x, w, m), want)
    K = np.array([[1.0, 1e3, 1e6]])
    xb, kb, mb = np.broadcast_arrays(x[:, None], K, m[:, None])
    want = _rising_step(xb.ravel().copy(), kb.ravel().copy(), mb.ravel().copy()).reshape(xb.shape)
    assert np.array_equal(_rising_step(x[:, None], K, m[:, None]), want)


def test_likelihoods_by_count_histograms_at_a_runaway_point_warn_nothing():
    # a fit running to the edge (one problem, or a Nelder-Mead polish) evaluates exp(theta) past overflow; the per-pair
    # likelihood does so under np.errstate, and so must the histogram path: its "overflow encountered in exp" warnings,
    # re-emitted by build_report's steps, took a one-problem report after a 60-problem one past 5 GB of memory
    rng = np.random.default_rng(5)
    n = rng.integers(20, 201, 2000)
    c = rng.binomial(n, rng.beta(0.4, 3.0, n.size))
    pn, pc, pw = _pairs(n, c)
    lb = _log_binom(pn, pc)
    assert _whole_number_table(pc, pn - pc, 1.0, 1.0) is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for m, theta in ((BetaBinomial(), np.array([800.0, 800.0])),
                         (ZeroInflatedBetaBinomial(), np.array([0.0, 800.0, 800.0]))):
            assert m._negloglik(theta, pn, pc, pw, lb) == 1e300
            grad = m._nll_grad if isinstance(m, BetaBinomial) else m._negloglik_grad
            assert grad(np.array([0.0, -1.0, 2.0])[-theta.size:], pn, pc, pw, lb)[0] > 0


def test_posterior_of_many_problems_splits_only_the_unsolved_ones():
    # one Beta (with or without the point mass): a solved problem's posterior is Beta(a + c, b + d) with weight 1; an
    # unsolved one keeps the point mass with r0 = pi0 / (pi0 + (1 - pi0) M(0, n)) (closed forms, as in the scalar test
    # above), here over arrays mixing both, so the split is computed on the unsolved problems only
    a, b, pi0 = 0.3, 12.0, 0.2
    beta, zi = _beta_and_zero_inflated(a, b, pi0)
    n = np.array([10**4, 50, 50, 300, 7, 10**4])
    c = np.array([0, 49, 0, 3, 0, 2])
    mean = (a + c) / (a + b + n)
    r0 = np.array([0.0 if cc else pi0 / (pi0 + (1 - pi0) * math.exp(_exact_beta_log_moment(0, int(nn), a, b)))
                   for nn, cc in zip(n, c, strict=True)])
    np.testing.assert_allclose(beta.posterior_pass_at_k(n, c, 1), mean, rtol=4e-15)
    np.testing.assert_allclose(zi.posterior_pass_at_k(n, c, 1), (1 - r0) * mean, rtol=4e-15)
    np.testing.assert_allclose(zi.posterior_pass_at_k(n[:, None], c[:, None], [[1, 1]])[:, 1], (1 - r0) * mean,
                               rtol=4e-15)


def test_beta_newton_hessian_matches_differences_of_the_gradient():
    # the damped Newton fit's analytic Hessian in (log a, log b) (trigamma terms) against (i) central differences
    # of the analytic gradient and (ii) second differences of an independent log-likelihood
    # (scipy.stats.betabinom.logpmf, weighted); its value and gradient against the same likelihood
    rng = np.random.default_rng(13)
    n = rng.integers(5, 300, 400)
    c = rng.binomial(n, rng.beta(0.5, 3.0, 400))
    w = rng.integers(1, 4, 400).astype(float)
    pn, pc, pw = _pairs(n, c, w)
    lb = _log_binom(pn, pc)
    m = BetaBinomial()

    def nll(t):
        return -float(w @ stats.betabinom.logpmf(c, n, np.exp(t[0]), np.exp(t[1])))

    for theta in (np.log([0.5, 3.0]), np.log([2.0, 0.7]), np.log([0.08, 40.0])):
        v, g, H = m._nll_grad_hess(theta, pn, pc, pw, lb)
        assert v == pytest.approx(nll(theta), rel=1e-12)
        h = 1e-6
        fd_g = np.array([(nll(theta + e) - nll(theta - e)) / (2 * h) for e in np.eye(2) * h])
        np.testing.assert_allclose(g, fd_g, rtol=1e-5, atol=1e-6 * np.abs(fd_g).max())
        h = 1e-5
        fd_H = np.array([(m._nll_grad(theta + e, pn, pc, pw, lb)[1] - m._nll_grad(theta - e, pn, pc, pw, lb)[1]) / (2 * h)
                         for e in np.eye(2) * h])
        np.testing.assert_allclose(H, fd_H, rtol=1e-6, atol=1e-8 * np.abs(H).max())
        h = 1e-3
        E = np.eye(2) * h
        H2 = np.array([[(nll(theta + E[i] + E[j]) - nll(theta + E[i] - E[j]) - nll(theta - E[i] + E[j])
                         + nll(theta - E[i] - E[j])) / (4 * h * h) for j in range(2)] for i in range(2)])
        np.testing.assert_allclose(H, H2, rtol=1e-4, atol=1e-6 * np.abs(H).max())


@pytest.mark.parametrize("cls", [BetaBinomial, ZeroInflatedBetaBinomial])
def test_information_criteria_count_problems(cls):
    # aic = 2k - 2 loglik and bic = k log N - 2 loglik with N the number of problems (DifficultyModel docs), and
    # the log-likelihood itself from scipy.stats.betabinom at the fitted parameters (zero-inflated:
    # pi0 [c = 0] + (1 - pi0) betabinom), a computation independent of the fit's
    rng = np.random.default_rng(14)
    n = rng.integers(20, 200, 300)
    c = rng.binomial(n, np.where(rng.random(300) < 0.2, 0.0, rng.beta(0.6, 4.0, 300)))
    f = cls().fit(n=n, c=c)
    pr = f.params_
    pmf = stats.betabinom.pmf(c, n, pr["alpha"], pr["beta"])
    k = 2
    if cls is ZeroInflatedBetaBinomial:
        pmf = pr["impossible"] * (c == 0) + (1 - pr["impossible"]) * pmf
        k = 3
    ll = float(np.sum(np.log(pmf)))
    assert f.n_params_ == k and f.n_problems_ == 300
    assert f.loglik_ == pytest.approx(ll, rel=1e-10)
    assert f.aic_ == pytest.approx(2 * k - 2 * ll, rel=1e-10)
    assert f.bic_ == pytest.approx(k * math.log(300) - 2 * ll, rel=1e-10)


def test_beta_log_moment_stable_when_the_concentration_runs_away():
    # a, b ~ 1e40 (a fit on under-dispersed data heads there): B(a+c, b+d)/B(a, b) -> mu^c (1-mu)^d
    a, b = 1e40, 3e41
    mu = a / (a + b)
    got = _beta_log_moment(np.array([2.0, 0.0]), np.array([8.0, 10.0]), a, b)
    np.testing.assert_allclose(got, [2 * math.log(mu) + 8 * math.log1p(-mu), 10 * math.log1p(-mu)], rtol=1e-12)


def test_sparse_counts_never_give_a_positive_log_likelihood():
    # 128 problems, 10 samples each, 8 single successes (a thinning the self-backtest makes at m = 100):
    # the zero-inflated Beta and the mixture used to report log-likelihoods of +18 and +1e5 here
    n = np.full(128, 10)
    c = np.r_[np.zeros(120, int), np.ones(8, int)]
    lls = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for M in (BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial, BetaMixtureBinomial):
            lls[M.name] = M().fit(n=n, c=c).loglik_
    assert max(lls.values()) <= 0.0
    # the nested models fit at least as well as the Beta (up to the optimisers' stopping tolerance: the
    # maximum here is the limit of infinite concentration, approached along a flat ridge)
    assert min(lls["zi_beta"], lls["scaled_beta"], lls["beta_mixture"]) >= lls["beta"] - 1e-4


@pytest.mark.parametrize(("components", "zero_inflated"), [(2, True), (2, False), (3, True), (1, True)])
def test_beta_mixture_gradient_matches_central_differences(components, zero_inflated):
    rng = np.random.default_rng(14)
    n = rng.integers(20, 3000, 300)
    c = rng.binomial(n, np.where(rng.random(300) < 0.2, 0.0, rng.beta(0.3, 4.0, 300)))
    m = BetaMixtureBinomial(components, zero_inflated)
    pn, pc, pw = _pairs(n, c, None)
    lb = _log_binom(pn, pc)
    for start in m._start(pn, pc, pw):
        theta = start + rng.normal(0.0, 0.3, start.size)
        v, g = m._negloglik_grad(theta, pn, pc, pw, lb)
        assert v == pytest.approx(m._negloglik(theta, pn, pc, pw, lb), rel=1e-12)
        h = 1e-4
        fd = [(m._negloglik(theta + h * e, pn, pc, pw, lb) - m._negloglik(theta - h * e, pn, pc, pw, lb)) / (2 * h)
              for e in np.eye(theta.size)]
        np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6 * max(1.0, np.abs(fd).max()))


def test_zero_inflated_beta_gradient_matches_central_differences():
    rng = np.random.default_rng(13)
    n = rng.integers(20, 3000, 300)
    c = rng.binomial(n, np.where(rng.random(300) < 0.2, 0.0, rng.beta(0.3, 4.0, 300)))
    m = ZeroInflatedBetaBinomial()
    pn, pc, pw = _pairs(n, c, None)
    lb = _log_binom(pn, pc)
    for theta in ([-1.0, np.log(0.3), np.log(4.0)], [-8.0, np.log(0.1), np.log(50.0)], [2.0, np.log(2.0), 0.0]):
        theta = np.array(theta)
        v, g = m._negloglik_grad(theta, pn, pc, pw, lb)
        assert v == pytest.approx(m._negloglik(theta, pn, pc, pw, lb), rel=1e-12)
        fd = [(m._negloglik(theta + 1e-6 * e, pn, pc, pw, lb) - m._negloglik(theta - 1e-6 * e, pn, pc, pw, lb)) / 2e-6
              for e in np.eye(3)]
        np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-5 * max(1.0, np.abs(fd).max()))


def _npmle_gradient(fit: GridMixture, n: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, float]:
    """D_j = (1/N) sum_i L_ij / f_i and the log-likelihood, from scipy's binomial pmf (not the fit's matrix)."""
    L = stats.binom.pmf(c[:, None], n[:, None], fit.grid_[None, :])
    f = L @ fit.weights_
    return (L / f[:, None]).mean(axis=0), float(np.log(f).sum())


def _em(n: np.ndarray, c: np.ndarray, grid: np.ndarray, iters: int) -> float:
    """Plain EM for the same grid mixture (the textbook fixed point), returning its log-likelihood."""
    L = stats.binom.pmf(c[:, None], n[:, None], grid[None, :])
    w = np.full(grid.size, 1.0 / grid.size)
    for _ in range(iters):
        w = w * (L / (L @ w)[:, None]).mean(axis=0)
    return float(np.log(L @ w).sum())


def test_npmle_is_certified_and_beats_long_em():
    # optimality of a mixing law (Lindsay 1983): D_j <= 1 on the whole grid, = 1 on the support;
    # the log-likelihood is within N (max D - 1) of the maximum, so EM can never exceed it
    rng = np.random.default_rng(8)
    n = rng.integers(50, 400, 300)
    p = np.where(rng.random(300) < 0.1, 0.0, rng.beta(0.3, 4.0, 300))
    c = rng.binomial(n, p)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConvergenceWarning
        fit = GridMixture().fit(n=n, c=c)
    # certified within tol = 1e-8 of |loglik|, or within 1e-6 where double precision allows no further ascent
    from passcurve._difficulty import _CNM_FLOOR

    assert fit.success_ and fit.duality_gap_ <= _CNM_FLOOR * abs(fit.loglik_)
    D, ll = _npmle_gradient(fit, n, c)
    assert ll == pytest.approx(fit.loglik_, abs=1e-8)
    assert D.max() <= 1 + 1e-7
    assert np.abs(D[fit.weights_ > 1e-6] - 1).max() < 1e-5
    assert fit.weights_.sum() == pytest.approx(1.0) and (fit.weights_ >= 0).all()
    em = _em(n, c, fit.grid_, 5000)
    assert em <= fit.loglik_ + 1e-9
    assert em >= fit.loglik_ - 0.5  # EM creeps toward the same maximum
    assert fit.params_["support_points"] < 40  # a sparse support, as NPMLE theory says (few atoms)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.integers(5, 40))
def test_qr_reduced_least_squares_has_the_same_nnls_solution(seed, k, ratio):
    # reference: scipy's nnls on the whole m x k problem. ||Ax - b||^2 = ||R11 x - r||^2 + const (QR of [A | b]), so
    # the non-negative solution is the same; random A (m = ratio * k rows, a non-negative solution with some zeros)
    rng = np.random.default_rng(seed)
    m = ratio * k + 1
    A = rng.standard_normal((m, k)) + rng.random(k)
    x0 = np.where(rng.random(k) < 0.3, 0.0, rng.random(k))
    b = A @ x0 + rng.standard_normal(m)
    from scipy.optimize import nnls

    want, _ = nnls(A, b)
    R, r = _qr_reduced(A, b)
    assert R.shape == (k, k) and r.shape == (k,)
    got, _ = nnls(R, r)
    scale = max(1.0, np.abs(want).max())
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9 * scale)
    assert float(np.sum((A @ got - b) ** 2)) == pytest.approx(float(np.sum((A @ want - b) ** 2)), rel=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_npmle_with_its_least_squares_reduced_equals_the_fit_without(seed):
    # reference: the same fit with nnls on the whole (distinct pairs x support) matrix (_NNLS_QR_FROM = inf, the
    # fit as it was). Both are certified within their duality gaps of the same maximum, so their log-likelihoods
    # differ by at most the larger gap; random unequal n with about 10% impossible problems
    import passcurve._difficulty as dif

    rng = np.random.default_rng(seed)
    P = int(rng.integers(200, 1500))
    n = rng.integers(20, 500, P)
    c = rng.binomial(n, np.where(rng.random(P) < 0.1, 0.0, rng.beta(0.4, 3.0, P)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        new = GridMixture().fit(n=n, c=c)
        saved = dif._NNLS_QR_FROM
        dif._NNLS_QR_FROM = np.inf
        try:
            old = GridMixture().fit(n=n, c=c)
        finally:
            dif._NNLS_QR_FROM = saved
    assert new.success_ == old.success_
    bound = max(new.duality_gap_, old.duality_gap_) + 1e-9 * abs(old.loglik_)
    assert abs(new.loglik_ - old.loglik_) <= bound


@functools.lru_cache(maxsize=1)
def _posterior_fits() -> tuple:
    rng = np.random.default_rng(17)
    n = rng.integers(50, 400, 600)
    c = rng.binomial(n, np.where(rng.random(n.size) < 0.1, 0.0, rng.beta(0.3, 3.0, n.size)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BetaMixtureBinomial().fit(n=n, c=c), ZeroInflatedBetaBinomial().fit(n=n, c=c), BetaBinomial().fit(n=n, c=c)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 300), st.lists(st.floats(0.5, 1e7), min_size=1, max_size=4))
def test_posterior_over_pairs_times_k_equals_it_elementwise(seed, pairs, ks):
    # reference: the same posterior quantities with n, c and k broadcast to one shape first (the conjugate update
    # per element, as before). The posterior does not depend on k, so it is computed once per (n, c) and broadcast
    # (_posterior); the values are the same bit for bit. Random unequal n (1 to 2,000, c = 0 and c = n included)
    rng = np.random.default_rng(seed)
    n = rng.integers(1, 2001, pairs).astype(np.float64)
    c = np.floor(rng.random(pairs) ** 3 * (n + 1)).clip(0, n)
    c[0] = 0.0
    k = np.array(ks)
    full = [np.ascontiguousarray(x) for x in np.broadcast_arrays(n[:, None], c[:, None], k[None, :])]
    for fit in _posterior_fits():
        got = fit.posterior_pass_at_k(n[:, None], c[:, None], k[None, :])
        assert np.array_equal(got, fit.posterior_pass_at_k(*full))
        assert np.array_equal(fit._posterior_fail_var(n[:, None], c[:, None], k[None, :]), fit._posterior_fail_var(*full))
        for a, b in zip(fit.posterior_fail_moments(n[:, None], c[:, None], k[None, :]),
                        fit.posterior_fail_moments(*full), strict=True):
            assert np.array_equal(a, b)


def test_npmle_degenerate_data_converges():
    for c in (np.zeros(20, int), np.full(20, 30)):
        fit = GridMixture().fit(n=np.full(20, 30), c=c)
        assert fit.success_
        at = 0 if c[0] == 0 else -1
        assert fit.weights_[at] == pytest.approx(1.0)


def test_npmle_keeps_an_atom_that_a_few_problems_rely_on():
    # 2,000 problems with n = 1,000 (10% impossible, the rest Beta(0.3, 3)): the old global pruning
    # (w < 1e-14 max w) dropped an atom that a few problems needed alone, their likelihood fell to ~1e-30 and
    # the method stalled with a duality-gap bound of 4e18 (success_ False, a ConvergenceWarning)
    rng = np.random.default_rng(0)
    p = rng.beta(0.3, 3.0, 2000)
    p[:200] = 0.0
    n = np.full(2000, 1000)
    c = rng.binomial(n, p)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConvergenceWarning
        fit = GridMixture().fit(n=n, c=c)
    assert fit.success_, fit.message_
    assert fit.duality_gap_ <= 1e-8 * abs(fit.loglik_)
    # the optimality certificate, recomputed from scipy's pmf: D_j <= 1 on the grid (Lindsay 1983)
    D, ll = _npmle_gradient(fit, n, c)
    assert ll == pytest.approx(fit.loglik_, rel=1e-12)
    assert D.max() <= 1 + 1e-7


@pytest.mark.shared_data
def test_npmle_converges_on_pythia():
    rows = np.genfromtxt(shared_file("pythia_math_counts.csv"), delimiter=",", names=True, dtype=None,
                         encoding=None)
    for model in np.unique(rows["model"]):
        sel = rows["model"] == model
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fit = GridMixture().fit(n=rows["n"][sel], c=rows["c"][sel])
        assert fit.success_, (model, fit.message_)
        assert fit.loglik_ >= BetaBinomial().fit(n=rows["n"][sel], c=rows["c"][sel]).loglik_


@pytest.mark.shared_data
def test_npmle_mass_at_zero_is_not_an_upper_bound_on_pythia():
    # user review: the docstring and docs/forecasting.md called the NPMLE's mass at p = 0 an upper bound on the truly
    # impossible share ("the likelihood prefers p = 0 for never-solved problems"). On Pythia 1B (n = 10^4) it is 0 while
    # a quarter of the problems are never solved (hand count of the file: 33 of 128): their mass sits on atoms below
    # 1/n, shared with the problems solved once, where (1 - p)^n is nearly 1 as at p = 0
    rows = np.genfromtxt(shared_file("pythia_math_counts.csv"), delimiter=",", names=True, dtype=None,
                         encoding=None)
    sel = rows["model"] == "Pythia 1B"
    n, c = rows["n"][sel], rows["c"][sel]
    assert int((c == 0).sum()) == 33
    fit = GridMixture().fit(n=n, c=c)
    assert fit.success_ and fit.impossible_mass_ < 1e-6
    small = (fit.grid_ > 0) & (fit.grid_ < 1 / n.max())
    assert fit.weights_[small].sum() > (c == 0).mean()  # 0.30 against 33/128 = 0.258


def test_fit_difficulty_many_models_and_outputs():
    bench = passcurve.simulate(problems=150, n=100, rng=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = fit_difficulty(bench.counts, model=["beta", "zi_beta"])
    assert fits.models == tuple(bench.counts.models)
    d = fits.to_dict()
    assert {"model", "difficulty_model", "params", "se", "loglik", "aic", "success", "message",
            "goodness_of_fit"} <= set(d["fits"][0])
    # `model` is the benchmark model in to_dict() as in to_frame() (it was the law's name, beside "benchmark_model")
    assert [(r["model"], r["difficulty_model"]) for r in d["fits"]] == list(
        zip(fits.to_frame()["model"], fits.to_frame()["difficulty_model"], strict=True))
    assert len(fits.to_frame()) == 2 * len(fits.models)
    assert fits.best(fits.models[0]).name in ("beta", "zi_beta")
    assert fits.plot().data
    assert fits.plot(model=fits.models[1]).layout.title.text.startswith(fits.models[1])
    # `model` is the benchmark model: a difficulty model's name or an unknown name is an error, as in best()
    with pytest.raises(passcurve.PasscurveError, match=r"^`model` must name a model present \(got 'beta'\); .*`model` names the benchmark model"):
        fits.plot(model="beta")
    for call in (lambda: fits.plot(model="bogus"), lambda: fits.best("bogus"), lambda: fits.plot(model=["a"])):
        with pytest.raises(passcurve.PasscurveError, match=r"^`model` must name a model present \(got .*\); models present: "):
            call()


@pytest.mark.shared_data
def test_pythia_12b_matches_reference_fit():
    # REFERENCE.md (Kazdan et al. 2025): alpha ~ 0.2869, beta ~ 11.452; pass@1/100/1e4 = 0.02444/0.48364/0.85807
    rows = np.genfromtxt(shared_file("pythia_math_counts.csv"), delimiter=",", names=True, dtype=None,
                         encoding=None)
    sel = rows["model"] == "Pythia 12B"
    f = BetaBinomial().fit(n=rows["n"][sel], c=rows["c"][sel])
    assert abs(f.params_["alpha"] - 0.2869) < f.se_["alpha"]
    assert abs(f.params_["beta"] - 11.452) < f.se_["beta"]
    ref = Counts.from_arrays(rows["n"][sel], rows["c"][sel])
    ll_ref = BetaBinomial()._negloglik(np.log([0.2869, 11.452]), *_pairs_lb(ref))
    assert f.loglik_ >= -ll_ref  # our optimum is at least as likely as the published one
    np.testing.assert_allclose(f.pass_at_k([1, 100, 10**4]), [0.02444, 0.48364, 0.85807], atol=0.006)
    # and the data the fit is compared with there: unbiased pass@1/100/1e4 observed 0.02319/0.48343/0.875 (the same
    # REFERENCE.md line, to the digits it gives)
    observed = pass_at_k(ref.n[:, None], ref.c[:, None], [1, 100, 10**4]).mean(axis=0)
    assert np.all(np.abs(observed - [0.02319, 0.48343, 0.875]) <= 5e-6)


def _pairs_lb(counts):
    from passcurve._difficulty import _log_binom, _pairs

    pn, pc, pw = _pairs(counts.n, counts.c)
    return pn, pc, pw, _log_binom(pn, pc)


def test_bad_input():
    with pytest.raises(PasscurveError, match=r"^`counts` must be a passcurve\.Counts \(got list\); or pass `n=` and "
                                             r"`c=` arrays$"):
        BetaBinomial().fit([1, 2])
    with pytest.raises(PasscurveError, match="`c` must be <= n"):
        BetaBinomial().fit(n=[5, 5], c=[6, 1])
    with pytest.raises(PasscurveError, match="`n` has 3 entries"):
        BetaBinomial().fit(n=[5, 5, 5], c=[1, 1])
    with pytest.raises(PasscurveError, match="not fitted"):
        BetaBinomial().pass_at_k(10)
    with pytest.raises(PasscurveError, match="`model` must be one of"):
        fit_difficulty(Counts.from_arrays([5], [1]), model="gamma")
    with pytest.raises(PasscurveError, match="holds 2 models"):
        BetaBinomial().fit(Counts.from_arrays([5, 5], [1, 2], model=["a", "b"]))
    with pytest.raises(PasscurveError, match="`components`"):
        BetaMixtureBinomial(components=0)


def test_local_exponent_tends_to_alpha():
    # REFERENCE.md: for Beta(a, b), E[(1-p)^k] ~ Gamma(a+b)/Gamma(b) k^-a, so -log pass_D@k ~ C k^-a
    m = BetaBinomial()
    m._theta = np.log([0.3, 3.0])
    m.params_ = m._unpack(m._theta)
    assert float(m.local_exponent(1e9)) == pytest.approx(0.3, abs=1e-3)
    z = ZeroInflatedBetaBinomial()
    z._theta = np.array([special.logit(0.2), np.log(0.3), np.log(3.0)])
    assert abs(float(z.local_exponent(1e12))) < 0.01  # plateau: the exponent falls to 0


def test_local_exponent_at_huge_k_is_the_closed_forms_limit():
    # Beta(a, b): F(k) = E[(1-p)^k] = Gamma(a+b) Gamma(b+k) / (Gamma(b) Gamma(a+b+k)), d log F / d log k =
    # -k (psi(a+b+k) - psi(b+k)), and -d log(-log(1 - F)) / d log k = k (psi(a+b+k) - psi(b+k)) F / ((1-F) (-log1p(-F))),
    # which tends to a as k -> infinity (the remainder is O(1/k) + O(F)). local_exponent(1e300) was NaN: pass_D@k
    # rounds to 1 there (F ~ 1e-90) and log(-log 1) is log 0
    a, b = 0.3, 3.0
    m = BetaBinomial()
    m._theta = np.log([a, b])
    m.params_ = m._unpack(m._theta)
    k = np.array([10.0, 1e3, 1e6])
    F = np.exp(special.gammaln(a + b) + special.gammaln(b + k) - special.gammaln(b) - special.gammaln(a + b + k))
    closed = k * (special.digamma(a + b + k) - special.digamma(b + k)) * F / ((1 - F) * -np.log1p(-F))
    np.testing.assert_allclose(m.local_exponent(k), closed, rtol=1e-6)
    # k·e^1e-4 overflows only above 1.79751e308 (1.7e308 · e^1e-4 = 1.70017e308 does not): the last two take the
    # one-sided difference, beside two that do not in the same array
    huge = m.local_exponent([1e100, 1e300, 1.7e308, 1.7976e308, np.finfo(np.float64).max])
    np.testing.assert_allclose(huge, a, rtol=1e-7)
    z = ZeroInflatedBetaBinomial()  # a plateau: exactly 0 there, not -0.0
    z._theta = np.array([special.logit(0.2), np.log(0.3), np.log(3.0)])
    z.params_ = z._unpack(z._theta)
    assert not np.signbit(z.local_exponent([1e100, 1e300])).any()


def test_goodness_of_fit_pools_down_to_one_bin():
    # one problem: every bin has expected < 1, pooling must stop at a single bin (regression)
    f = BetaBinomial()
    f._theta = np.log([0.5, 2.0])
    f.params_ = f._unpack(f._theta)
    f.n_params_ = 2
    f.pairs_ = (np.array([3.0]), np.array([0.0]), np.array([1.0]))
    g = f.goodness_of_fit()
    assert sum(g["expected"]) == pytest.approx(1.0) and sum(g["observed"]) == 1


# ---------------------------------------------------------------------------------------
# large n: binned pmf without enumerating every c, and the scaled Beta's series window
# ---------------------------------------------------------------------------------------
def _fitted(cls: type, n: int, seed: int) -> object:
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.beta(0.3, 3.0, 50), np.zeros(5)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cls().fit(n=np.full(p.size, n), c=rng.binomial(n, p))


def _dyadic_bounds(n: int) -> np.ndarray:
    edges = [0, 1]
    while edges[-1] <= n:
        edges.append(edges[-1] * 2)
    return np.unique(np.minimum(edges, n + 1))


@pytest.mark.parametrize("cls", MODELS)
def test_pmf_bins_is_the_exact_sum_up_to_2_14(cls):
    # reference: the pmf summed over every c (same model): pmf_bins enumerates below 2^14
    # (GridMixture: binomial CDFs at any n)
    m = _fitted(cls, 3000, 1)
    b = np.array([0, 1, 2, 17, 400, 2999, 3001])
    cs = np.arange(3001, dtype=np.float64)
    exact = np.add.reduceat(m.pmf(np.full_like(cs, 3000), cs), b[:-1])
    # GridMixture differences binomial CDFs (a few digits lost to the subtraction); the scaled
    # Beta's rows come from its recurrence, not from the series behind pmf (they agree to ~1e-12)
    tol = 1e-10 if cls in (GridMixture, ScaledBetaBinomial) else 1e-12
    np.testing.assert_allclose(m.pmf_bins(3000, b), exact, rtol=tol, atol=1e-300)


@pytest.mark.parametrize("cls", MODELS)
def test_pmf_bins_many_equals_pmf_bins_one_n_at_a_time(cls):
    # the batched form (goodness of fit, the report), n on both sides of 2^14, against the pmf summed over
    # every c of each n (np.add.reduceat) and, for the Beta, scipy.stats.betabinom's pmf
    m = _fitted(cls, 3000, 1)
    ns = [0, 1, 7, 3000, 250, 20_000]
    bounds = [_dyadic_bounds(n) for n in ns]
    many = m.pmf_bins_many(ns, bounds)
    for n, b, got in zip(ns, bounds, many, strict=True):
        cs = np.arange(n + 1, dtype=np.float64)
        exact = np.add.reduceat(m.pmf(np.full_like(cs, n), cs), b[:-1])
        if n <= 2**14:
            tol = 1e-10 if cls in (GridMixture, ScaledBetaBinomial) else 1e-12
            np.testing.assert_allclose(got, exact, rtol=tol, atol=1e-300)
        else:  # above 2^14 the trapezoid (a closed-form pmf, up to 2^22) or the integrals over p (the scaled Beta;
            # test_pmf_bins_for_large_n_matches_the_exact_sum)
            keep = exact > 1e-12
            tol = 1e-10 if cls is GridMixture else 1e-8 if cls is ScaledBetaBinomial else 1e-5
            np.testing.assert_allclose(got[keep], exact[keep], rtol=tol)
        if cls is BetaBinomial:
            ref = np.add.reduceat(stats.betabinom.pmf(cs, n, m.params_["alpha"], m.params_["beta"]), b[:-1])
            keep = ref > 1e-12
            np.testing.assert_allclose(got[keep], ref[keep], rtol=1e-9 if n <= 2**14 else 1e-5)
        np.testing.assert_allclose(got, m.pmf_bins(n, b), rtol=1e-13, atol=1e-300)  # batched = one n at a time
        assert got.sum() == pytest.approx(1.0, abs=1e-5)


def test_goodness_of_fit_with_thousands_of_distinct_n():
    # regression: 2,000 problems with 1,820 distinct n up to 10^4 took 300 s in the scaled Beta's
    # goodness of fit (every c of every n by the O(sqrt(n)) series); the rows now come from the
    # recurrence. Reference: the expected counts sum to the number of problems, and each bin equals
    # the value-by-value sum of the pmf (the series) over the same problems
    rng = np.random.default_rng(5)
    n = rng.integers(1, 10_001, 2000)
    c = rng.binomial(n, 0.8 * rng.beta(0.3, 5.0, n.size))
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(0.8), np.log(0.3), np.log(5.0)])
    m.params_ = m._unpack(m._theta)
    m.pairs_ = _pairs(n, c, None)
    m.n_params_ = 3
    g = m.goodness_of_fit()
    assert sum(g["expected"]) == pytest.approx(2000, rel=1e-10)
    sub = np.unique(n)[::200]  # a value-by-value check on a subset of the n
    edges = np.array([0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384])
    for nv in sub:
        cs = np.arange(nv + 1.0)
        bounds = np.unique(np.minimum(edges, nv + 1))
        ref = np.add.reduceat(m.pmf(np.full_like(cs, nv), cs), bounds[:-1])
        np.testing.assert_allclose(m.pmf_bins(int(nv), bounds), ref, rtol=1e-10, atol=1e-300)


@pytest.mark.parametrize(("cls", "n"), [(cls, n) for cls in MODELS for n in (2**14 + 1, 20_000, 200_000)
                                         # (the grid mixture's own binomial CDFs, unchanged; 8 s of its pmf at 2·10^5)
                                         if not (cls is GridMixture and n > 20_000)])
def test_pmf_bins_for_large_n_matches_the_exact_sum(cls, n):
    # reference: the pmf summed over all n + 1 values of c. Above 2^14 pmf_bins was a trapezoid on ~16·sqrt(2n) pmf
    # values (relative error up to 2e-6, tested to 1e-5); the Beta laws' bins are now integrals over p (_BetaBins), to
    # 1e-9 here, in dyadic bins and in 40 equal bins of c/n (the report's histogram), from the first n past the
    # exact rows (2^14 + 1) on
    m = _fitted(cls, n, 2)
    cs = np.arange(n + 1, dtype=np.float64)
    # (the scaled Beta's row by its recurrence: its series value by value takes 28 s at 2·10^5; they agree to 2e-9)
    pmf = m._pmf_rows([n])[0] if cls is ScaledBetaBinomial else m.pmf(np.full_like(cs, n), cs)
    for b in (_dyadic_bounds(n), np.unique(np.concatenate([[0, n + 1], np.linspace(0, n, 41).astype(np.int64)]))):
        exact = np.add.reduceat(pmf, b[:-1])
        keep = exact > 1e-12
        got = m.pmf_bins(n, b)
        if cls in (BetaBinomial, ZeroInflatedBetaBinomial, BetaMixtureBinomial):  # a closed-form pmf: the trapezoid
            # up to _trapezoid_max_n (2^22; cheaper there than the integrals), within 2e-6 in dyadic bins and 1.2e-5 in
            # equal bins' tails of mass ~1e-6 (a mixture at 2^14 + 1); then the integrals, forced
            np.testing.assert_allclose(got[keep], exact[keep], rtol=2e-5)
            assert got.sum() == pytest.approx(1.0, abs=1e-5)
            m._trapezoid_max_n = 0
            got = m.pmf_bins(n, b)
            del m._trapezoid_max_n
        # (GridMixture: its binomial CDFs against its pmf's logsumexp, 4e-10 apart at 2·10^5)
        np.testing.assert_allclose(got[keep], exact[keep], rtol=1e-9 if cls is GridMixture else 1e-8)
        assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_goodness_of_fit_at_n_1e9_is_finite_and_sums_to_the_problems():
    # regression: goodness_of_fit enumerated all n + 1 values of c (10^9 here: out of memory)
    f = _fitted(BetaBinomial, 10**9, 3)
    g = f.goodness_of_fit()
    assert sum(g["expected"]) == pytest.approx(55, rel=1e-5)
    assert sum(g["observed"]) == 55 and np.isfinite(g["chi2"])


def test_pmf_bins_rejects_bounds_that_do_not_cover_0_to_n():
    f = _fitted(BetaBinomial, 100, 4)
    with pytest.raises(PasscurveError, match="`bounds` must increase from 0 to n \\+ 1"):
        f.pmf_bins(100, [0, 50, 100])


def test_scaled_beta_moment_with_b_below_one_near_the_scale_edge():
    # reference: quadrature of the defining integral. With b < 1 the Pfaff series decays like
    # j^(b-1) after a peak at j = 0, and a window sized by the peak's curvature alone lost up
    # to half of P(c) for c near s·n (regression: the pmf summed to 0.9995 at n = 2·10^5)
    a, b, s = 0.185, 0.886, 0.723
    n = 200_000
    for c in (140_000, 144_560, 144_700, 145_000):
        got = float(np.exp(_scaled_log_moment(np.array(c), np.array(n - c), a, b, s)))
        assert got == pytest.approx(_quad_scaled(c, n - c, a, b, s), rel=1e-6)
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(s), np.log(a), np.log(b)])
    m.params_ = m._unpack(m._theta)
    assert m.pmf_bins(n, [0, n + 1])[0] == pytest.approx(1.0, abs=1e-6)


_QUAD_LAWS = [(0.3452, 2.179, 0.683), (0.3, 3.0, 0.5), (0.2, 12.0, 0.9), (2.0, 0.5, 0.3), (0.5, 200.0, 0.99),
              (0.1, 0.8, 0.05), (5.0, 50.0, 0.2), (0.05, 0.3, 0.999)]


def _binomial_log_weights(d: int, s: float) -> tuple[np.ndarray, np.ndarray]:
    """i = 0..d and log P(I = i), I ~ Binomial(d, s), up to a constant: running sums of the log ratios from the mode."""
    i = np.arange(d + 1, dtype=np.float64)
    mode = min(int((d + 1) * s), d)
    step = np.log((d - i[:-1]) * s / ((i[:-1] + 1.0) * (1.0 - s)))
    lw = np.zeros(d + 1)
    lw[mode + 1:] = np.cumsum(step[mode:])
    lw[:mode] = -np.cumsum(step[:mode][::-1])[::-1]
    return i, lw


def _binomial_mixture_log_moment(c: int, d: int, a: float, b: float, s: float) -> float:
    """log E[(su)^c (1-su)^d] as s^c Σ_i P(I = i) E[u^c (1-u)^i], I ~ Binomial(d, s) (as 1 - su = (1 - s) + s(1 - u)),
    over every i = 0..d: positive terms, the Binomial weights as running products of their ratios from the mode
    normalized by their sum, each Beta moment exact (:func:`_beta_log_moment`). Independent of the Pfaff series and of
    the quadrature."""
    i, lw = _binomial_log_weights(d, s)
    lw -= np.log(np.sum(np.exp(lw - lw.max()))) + lw.max()
    x = lw + _beta_log_moment(np.full(d + 1, float(c)), i, a, b)
    return float(c * np.log(s) + x.max() + np.log(np.sum(np.exp(x - x.max()))))


@pytest.mark.parametrize("a,b,s", _QUAD_LAWS)
def test_scaled_beta_moment_by_quadrature_for_large_d(a, b, s):
    # The Pfaff series sums O(sqrt(d)) terms (7e6 at d = 1e12, more than 1e9 at the K = 1e15 k_for evaluates, where it
    # refused: "would sum 3.51e+09 terms") and its log Γ terms carry ~1e-16 of their size (log M off by up to 2e-9 at
    # d = 1e6, 6e-6 at 1e9). The Gauss-Laguerre quadrature is within 6e-16 of |log M| here against two independent
    # references: the library's binomial mixture of exact Beta pass@i for c = 0 (_scaled_fail_rows) and the full
    # binomial mixture above for c > 0
    for d in (3e4, 1e6, 1e8, 1e10):
        got, ok = _scaled_log_moment_quad(np.array([0.0]), np.array([d]), a, b, s)
        ref = float(_scaled_fail_rows(np.array([a]), np.array([b]), np.array([d]), s)[0][0])
        assert ok[0]
        assert got[0] == pytest.approx(ref, rel=2e-15 * max(1.0, 1.0 / abs(ref)), abs=0)
    for d in (30_000, 200_000):
        for c in (1, 5, 50, 500, 3000):
            got, ok = _scaled_log_moment_quad(np.array([float(c)]), np.array([float(d)]), a, b, s)
            ref = _binomial_mixture_log_moment(c, d, a, b, s)
            if (a, b, s, c, d) == (0.1, 0.8, 0.05, 3000, 30_000):
                # the Gamma(a + c) law's mass reaches u = 1 (t = -d log(1 - s) = 1,539 against a + c = 3,000): refused,
                # and the series answers
                assert not ok[0]
                assert float(_scaled_log_moment(np.array([3000.0]), np.array([30_000.0]), a, b, s)[0]) == pytest.approx(
                    ref, rel=1e-12, abs=0)
                continue
            assert ok[0]
            assert got[0] == pytest.approx(ref, rel=2e-15, abs=0)


def test_scaled_beta_moment_by_quadrature_with_c_comparable_to_d():
    # with the Gamma law's rate the slope of -log h at t = 0, the 16- and 24-node rules disagreed wherever (a + c)/d is
    # not small (h keeps a slope ~(a+c)^2/(12 d^2) at the law's mode): 5 of these 48 cases held, and the series summed
    # 7.7e8 terms for the goodness of fit at n = 1e7. With the rate matched at the mode 26 hold, within 3e-15 of |log M|
    # (up to 4e5 here) of the full binomial mixture of exact Beta moments; the 22 refused have s <= 0.5, where u = 1
    # (t = -d log(1 - s) <= 0.69 d) lies inside the law's mass at these c. Bound: 64 ulp of |log M|, the agreement the
    # quadrature demands of its two rules; measured 2.7e-15 relative with numpy 2.4 and 5.3e-15 with numpy 1.26 (the
    # oldest supported: its eigh moves the nodes by a few ulp, log M at c = 4e5, d = 2e5 by 1e-9 of 3.8e5)
    held = 0
    for a, b, s in _QUAD_LAWS:
        for d in (30_000, 200_000):
            for f in (0.5, 1.0, 2.0):
                c = int(f * d)
                got, ok = _scaled_log_moment_quad(np.array([float(c)]), np.array([float(d)]), a, b, s)
                if not ok[0]:
                    continue
                held += 1
                assert got[0] == pytest.approx(_binomial_mixture_log_moment(c, d, a, b, s),
                                           rel=64 * np.finfo(float).eps, abs=0)
    assert held == 26


def test_scaled_beta_moment_takes_the_quadrature_only_for_long_windows():
    # the series' values are unchanged where its window is short (quad=False keeps the series everywhere), the
    # quadrature's where it is long (the fits' likelihoods too, with their gradients); at d = 1e15 the value exists (the series refused it) and follows
    # the large-d closed form M(0, d) ~ Γ(a+b)/Γ(b)·(sd)^(-a), whose next term is O(a(a + 2b/s)/d) ~ 1e-13 here
    a, b, s = 0.3452, 2.179, 0.683
    c = np.array([0.0, 5.0, 0.0, 5.0, 0.0])
    d = np.array([300.0, 2000.0, 1e6, 1e8, 1e15])
    lo, hi = _scaled_window(c[:4], d[:4], a, b, s)
    long = hi - lo + 1 > 4096
    assert list(long) == [False, False, True, True]
    got = _scaled_log_moment(c, d, a, b, s)
    series = _scaled_log_moment(c[:4], d[:4], a, b, s, quad=False)
    assert np.array_equal(got[:2], series[:2])
    assert np.array_equal(got[2:4], _scaled_log_moment_quad(c[2:4], d[2:4], a, b, s)[0])
    assert got[2:4] == pytest.approx(series[2:4], rel=5e-9, abs=0)  # the series is 2.1e-9 off at d = 1e8
    with pytest.raises(PasscurveError, match="would sum"):
        _scaled_log_moment(c[4:], d[4:], a, b, s, quad=False)
    closed = _log_rising(b, a) - a * np.log(s * 1e15)
    assert got[4] == pytest.approx(closed, rel=1e-12, abs=0)


def _binomial_mixture_grad_ab(c: int, d: int, a: float, b: float, s: float) -> np.ndarray:
    """∂ log M/∂(a, b) from the binomial mixture M = s^c Σ_i P(I = i) E[u^c (1-u)^i], I ~ Binomial(d, s): averages of
    each Beta moment's exact digamma derivatives over the (positive) mixture weights. Independent of the quadrature
    (its ∂/∂s, a difference of means of I ~ d·s, is ~1e-9 off at d = 2e5 even in extended precision, so not used)."""
    i, lw = _binomial_log_weights(d, s)
    x = lw + _beta_log_moment(np.full(d + 1, float(c)), i, a, b)
    wt = np.exp(x - x.max())
    wt /= wt.sum()
    psi = special.digamma
    return np.array([wt @ (psi(a + c) - psi(a + b + c + i)) - psi(a) + psi(a + b),
                     wt @ (psi(b + i) - psi(a + b + c + i)) - psi(b) + psi(a + b)])


@pytest.mark.parametrize("a,b,s", _QUAD_LAWS)
def test_scaled_beta_moment_gradient_by_quadrature_against_the_binomial_mixture(a, b, s):
    # ∂/∂a and ∂/∂b of log M by the quadrature's posterior means (E[log u], E[log(1-u)]) against the binomial mixture's
    # exact digamma averages (above): within 4.6e-13 of max(1, |∂|) measured (the worst a = 0.1, c = 1, where ψ(a) = -10.4
    # cancels); the Gauss rule's own E[log X] would be 0.86 off at a + c = 0.3, so this checks that E[log X] is exact
    for d in (30_000, 200_000):
        for c in (0, 1, 5, 50, 500, 3000):
            _, g, ok = _scaled_log_moment_quad(np.array([float(c)]), np.array([float(d)]), a, b, s, grad=True)
            if not ok[0]:
                assert (a, b, s, c, d) == (0.1, 0.8, 0.05, 3000, 30_000)  # refused for the value too (above)
                continue
            ref = _binomial_mixture_grad_ab(c, d, a, b, s)
            assert np.all(np.abs(g[0, :2] - ref) <= 2e-12 * np.maximum(np.abs(ref), 1.0)), (c, d, g[0, :2], ref)


def test_scaled_beta_moment_gradient_by_quadrature_exact_for_b_one():
    # b = 1: M = a s^-a ∫_0^s v^(a+c-1) (1-v)^d dv, and with (1-s)^d below 1e-600 the posterior of v = su is
    # Beta(a + c, d + 1): ∂_a log M = ψ(a+c) - ψ(a+c+d+1) - log s + 1/a and ∂_s log M = -a/s exactly. Measured: ∂a within
    # 2.4e-15 of max(1, |∂a|), ∂s within 4.3e-12 at c = 3,000, s = 0.05 (c/s and the posterior mean of t/s cancel to
    # -a/s: ~eps·c/s), and within 1.4e-15·(10 + c)/s = 6e-12 at c = 3,000, d = 3e4, s = 0.683, where λ is matched at
    # the mode (c/d = 0.1)
    for a in (0.05, 0.3452, 2.0):
        for s in (0.05, 0.683, 0.999):
            for d in (30_000, 200_000, 1e8):
                for c in (0, 1, 50, 3000):
                    _, g, ok = _scaled_log_moment_quad(np.array([float(c)]), np.array([float(d)]), a, 1.0, s, grad=True)
                    if (s, d, c) == (0.05, 30_000, 3000):
                        assert not ok[0]  # T = -d log(1 - s) = 1,539 against a + c > 3,000: refused
                        continue
                    assert ok[0]
                    d_a = special.digamma(a + c) - special.digamma(a + c + d + 1) - np.log(s) + 1 / a
                    assert g[0, 0] == pytest.approx(d_a, rel=0, abs=1e-14 * max(1.0, abs(d_a)))
                    assert g[0, 2] == pytest.approx(-a / s, rel=0, abs=2e-15 * (10.0 + c) / s)


@pytest.mark.parametrize("a,b,s", _QUAD_LAWS)
def test_scaled_beta_moment_gradient_by_quadrature_against_differences_and_large_d(a, b, s):
    # where the series is too slow (d = 1e8) or refuses (1e10): the gradient against the quadrature value's 5-point
    # central differences in (logit s, log a, log b), step 1e-3 (measured within 1.5e-10 of max(1, |∂|)); at d = 1e15
    # against the large-d closed form log M(0, d) ~ log Γ(a+b)/Γ(b) - a log(sd): ∂a = ψ(a+b) - log(sd),
    # ∂b = ψ(a+b) - ψ(b), ∂s = -a/s, next terms O(a(a + 2b/s)/d) (measured within 3.5e-13)
    theta = np.array([np.log(s / (1 - s)), np.log(a), np.log(b)])

    def value(th: np.ndarray, c: float, d: float) -> float:
        v, ok = _scaled_log_moment_quad(np.array([c]), np.array([d]), float(np.exp(th[1])), float(np.exp(th[2])),
                                        float(special.expit(th[0])))
        assert ok[0]
        return float(v[0])

    for d in (1e8, 1e10):
        for c in (0.0, 5.0, 50.0):
            _, g, ok = _scaled_log_moment_quad(np.array([c]), np.array([d]), a, b, s, grad=True)
            assert ok[0]
            got = g[0, [2, 0, 1]] * np.array([s * (1 - s), a, b])
            h = 1e-3
            for k in range(3):
                e = np.zeros(3)
                e[k] = h
                fd = (8 * (value(theta + e, c, d) - value(theta - e, c, d))
                      - (value(theta + 2 * e, c, d) - value(theta - 2 * e, c, d))) / (12 * h)
                assert got[k] == pytest.approx(fd, rel=0, abs=1e-9 * max(1.0, abs(fd)))
    _, g, ok = _scaled_log_moment_quad(np.array([0.0]), np.array([1e15]), a, b, s, grad=True)
    assert ok[0]
    closed = [special.digamma(a + b) - np.log(s * 1e15), special.digamma(a + b) - special.digamma(b), -a / s]
    assert g[0] == pytest.approx(closed, rel=1e-12, abs=0)


def test_scaled_beta_moment_gradient_takes_the_same_rule_as_the_value():
    # with grad the quadrature serves the same (c, d) as without (long windows, where it holds), so the fit's value and
    # gradient agree: values bit-identical with and without grad; the long windows' derivatives the quadrature's, the
    # short ones' the series' (bit-identical). Against the series' own gradient at d = 1e6 (windows of 5,000-12,000
    # terms): ∂a, ∂b within 3.6e-15 of max(1, |∂|) measured, ∂s within 2.3·eps·d/(1-s), the size of the terms the
    # series' c/s - d/(1-s) + E[j]/(s(1-s)) cancels
    for a, b, s in _QUAD_LAWS:
        c = np.array([0.0, 5.0, 50.0, 500.0, 0.0, 5.0, 3.0])
        d = np.array([1e6, 1e6, 1e6, 1e6, 1e8, 1e8, 300.0])
        lo, hi = _scaled_window(c[:4], d[:4], a, b, s)
        long = np.flatnonzero(hi - lo + 1 > 4096)
        v, g = _scaled_log_moment(c, d, a, b, s, grad=True)
        assert np.array_equal(v, _scaled_log_moment(c, d, a, b, s))
        vq, gq, okq = _scaled_log_moment_quad(c[4:6], d[4:6], a, b, s, grad=True)
        assert okq.all()
        assert np.array_equal(g[4:6], gq) and np.array_equal(v[4:6], vq)
        vs, gs = _scaled_log_moment(c[:4], d[:4], a, b, s, grad=True, quad=False)
        short = np.setdiff1d(np.arange(4), long)
        assert np.array_equal(g[short], gs[short]) and np.array_equal(v[short], vs[short])
        assert np.array_equal(g[6], _scaled_log_moment(c[6:], d[6:], a, b, s, grad=True, quad=False)[1][0])
        tol = np.array([1e-14, 1e-14]) * np.maximum(np.abs(gs[long, :2]), 1.0)
        assert np.all(np.abs(g[long, :2] - gs[long, :2]) <= tol)
        assert np.all(np.abs(g[long, 2] - gs[long, 2]) <= 8 * np.finfo(float).eps * 1e6 / (1 - s))
    assert long.size == 0  # the last law (s = 0.999): its windows are short (822 terms), the series answers


def test_scaled_beta_fit_by_quadrature_reaches_the_series_optimum(monkeypatch):
    # 30 problems at n = 5e5, p = 0.7·Beta(0.3, 3) (seed 1): the fit's value and gradient now come from the quadrature
    # where the series' window is long (every pair here: 5,600-7,600 terms at the optimum). Reference: the same fit with
    # the series everywhere (_QUAD_FROM_TERMS beyond any window). Measured: log-likelihoods 3.1e-9 apart, parameters
    # within 3.2e-5 of their standard errors, 2.5 -> 0.7 s
    import passcurve._difficulty as difficulty

    rng = np.random.default_rng(1)
    n = 500_000
    p = 0.7 * rng.beta(0.3, 3.0, 30)
    counts = Counts.from_arrays(np.full(30, n), rng.binomial(n, p))
    quad = ScaledBetaBinomial().fit(counts)
    theta = quad._check_fitted()
    cs = counts.c.astype(np.float64)
    lo, hi = _scaled_window(cs, n - cs, float(np.exp(theta[1])), float(np.exp(theta[2])), float(special.expit(theta[0])))
    assert np.all(hi - lo + 1 > 4096)
    monkeypatch.setattr(difficulty, "_QUAD_FROM_TERMS", 1 << 62)
    series = ScaledBetaBinomial().fit(counts)
    assert quad.success_ and series.success_
    assert quad.loglik_ == pytest.approx(series.loglik_, rel=0, abs=1e-6)
    for name, value in quad.params_.items():
        assert abs(value - series.params_[name]) < series.se_[name] / 100
        assert quad.se_[name] == pytest.approx(series.se_[name], rel=1e-3)


def test_standard_errors_with_a_parameter_on_its_boundary():
    # On Beta data the scaled Beta's scale goes to 1 and the zero-inflated Beta's impossible mass
    # to 0: both reduce to the Beta. A Wald SE at a boundary means nothing (the fit showed
    # "scale=1±3.7e-07", and the zero-inflated model lost every SE to the singular information),
    # so the boundary parameter has none and the others are conditional on it. Reference: with
    # the boundary parameter held there the model *is* the Beta, so alpha's and beta's SEs must
    # equal the Beta fit's (same likelihood, same information). Seed 17: a sample on which both
    # fits reach the boundary (about half of Beta samples do, for each model)
    rng = np.random.default_rng(17)
    n = np.full(128, 10_000)
    c = rng.binomial(n, rng.beta(0.3, 12.0, n.size))
    beta = BetaBinomial().fit(n=n, c=c)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = [ScaledBetaBinomial().fit(n=n, c=c), ZeroInflatedBetaBinomial().fit(n=n, c=c)]
    for f, name in zip(fits, ("scale", "impossible"), strict=True):
        assert f.boundary_ == (name,)
        assert np.isnan(f.se_[name]) and f.to_dict()["se"][name] is None
        assert f.to_dict()["boundary"] == [name]
        for k in ("alpha", "beta"):
            assert f.params_[k] == pytest.approx(beta.params_[k], rel=1e-3)
            assert f.se_[k] == pytest.approx(beta.se_[k], rel=0.02)


def test_standard_errors_in_the_interior_are_all_reported():
    # the scaled Beta with a true scale of 0.6: no parameter on a boundary, every SE finite and
    # positive, and the truth within 4 SEs of the estimate (reference: the simulation's parameters)
    rng = np.random.default_rng(12)
    n = np.full(2000, 500)
    c = rng.binomial(n, 0.6 * rng.beta(0.5, 2.0, n.size))
    f = ScaledBetaBinomial().fit(n=n, c=c)
    assert f.boundary_ == ()
    for k, truth in (("scale", 0.6), ("alpha", 0.5), ("beta", 2.0)):
        assert np.isfinite(f.se_[k]) and f.se_[k] > 0
        assert abs(f.params_[k] - truth) < 4 * f.se_[k]


def test_a_runaway_fit_reports_its_parameters_as_not_identified():
    # three under-dispersed problems (1, 2, 3 of 20) send the Beta mixture's concentrations to ~1e61: the
    # likelihood is flat in them, the information's smallest eigenvalues are ~1e-16-1e-8 of its largest, and its
    # inverse gave 'standard errors' of 1e69 and a covariance the forecast drew from. Reference for "not
    # identified": the likelihood itself, which moves by < 1e-6 when alpha1 and beta1 are both multiplied by e^5
    # (an SE of ~1 in log scale would move it by ~12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = BetaMixtureBinomial().fit(n=[20, 20, 20], c=[1, 2, 3])
    pn, pc, pw = f.pairs_
    lb = _log_binom(pn, pc)
    shifted = f._theta.copy()
    shifted[f._nw():f._nw() + 2] += 5.0  # (log alpha1, log beta1) follow the weights' logits
    assert abs(f._negloglik(shifted, pn, pc, pw, lb) - f._negloglik(f._theta, pn, pc, pw, lb)) < 1e-6
    assert all(np.isnan(v) for v in f.se_.values())
    assert all(v is None for v in f.to_dict()["se"].values())
    assert f.cov_theta_ is None
    assert set(f.unidentified_) == set(f.params_) - set(f.boundary_) and f.boundary_ == ("impossible",)
    assert f.to_dict()["unidentified"] == list(f.unidentified_)
    assert "alpha1=" in f.summary and f.summary.count("(not identified)") == 6
    # summary, the CLI and the report show an unidentified parameter as "—", not its runaway value (alpha1 printed
    # as 2.421e+61); params_ and to_dict() keep that value, and a boundary parameter says so as the CLI does
    assert "alpha1=— (not identified)" in f.summary and "e+" not in f.summary, f.summary
    assert "impossible=" in f.summary and "(at its bound)" in f.summary
    assert f.to_dict()["params"]["alpha1"] == f.params_["alpha1"] > 1e10
    from passcurve.report._adapters import _fit_label

    assert "alpha1 = — (not identified)" in _fit_label(f) and "e+" not in _fit_label(f)
    # the frame (a notebook's table of fit_difficulty) keeps the raw values and says which are not identified
    fr = fit_difficulty(Counts.from_arrays([20, 20, 20], [1, 2, 3]), model=["beta"]).to_frame()
    assert fr.loc[0, "unidentified"] == "alpha, beta" and fr.loc[0, "alpha"] > 1e5 and np.isnan(fr.loc[0, "alpha_se"])
    # an identified fit of the same model keeps finite SEs and its covariance (reference: simulation truth within
    # 5 SEs)
    rng = np.random.default_rng(3)
    n = np.full(600, 300)
    hard = rng.random(n.size) < 0.5
    c = rng.binomial(n, np.where(hard, rng.beta(0.3, 30.0, n.size), rng.beta(5.0, 5.0, n.size)))
    g = BetaMixtureBinomial().fit(n=n, c=c)
    assert g.cov_theta_ is not None and g.unidentified_ == ()
    assert all(np.isfinite(v) and v > 0 for k, v in g.se_.items() if k not in g.boundary_)


def test_beta_standard_errors_from_the_observed_information_in_closed_form():
    # reference: the observed information of the beta-binomial in (a, b), written here from trigamma sums over
    # the problems (psi1(a+c) - psi1(a) - psi1(a+b+n) + psi1(a+b), ...), inverted; the fit's SEs come from its
    # Hessian in (log a, log b) and the delta method. The second differences of the likelihood the fit used
    # before were 0.1-0.3% off on Pythia and moved by 7-25% with the difference step
    rng = np.random.default_rng(5)
    n = rng.integers(20, 400, 300)
    c = rng.binomial(n, rng.beta(0.4, 3.0, n.size))
    f = BetaBinomial().fit(n=n, c=c)
    a, b = f.params_["alpha"], f.params_["beta"]
    t1 = lambda x: special.polygamma(1, x)  # noqa: E731
    common = t1(a + b + n) - t1(a + b)
    info = -np.array([[np.sum(t1(a + c) - t1(a) - common), -np.sum(common)],
                      [-np.sum(common), np.sum(t1(b + n - c) - t1(b) - common)]])
    cov = np.linalg.inv(info)
    assert f.se_["alpha"] == pytest.approx(math.sqrt(cov[0, 0]), rel=1e-6)
    assert f.se_["beta"] == pytest.approx(math.sqrt(cov[1, 1]), rel=1e-6)


@pytest.mark.parametrize("model", [ZeroInflatedBetaBinomial, ScaledBetaBinomial, BetaMixtureBinomial])
def test_standard_errors_do_not_depend_on_the_difference_step(model):
    # models with an analytic gradient take their Hessian from its central differences: the SEs at steps of
    # 1e-5 and 3e-4 agree with the fit's (1e-4) to 1e-4 relative. Second differences of the likelihood moved
    # them by 3-29% over the same steps on Pythia (docs/forecasting.md)
    from passcurve._difficulty import _grad_hessian

    rng = np.random.default_rng(9)
    n = np.full(400, 200)
    p = rng.beta(0.5, 4.0, n.size) * (rng.random(n.size) > 0.1)
    c = rng.binomial(n, 0.7 * p if model is ScaledBetaBinomial else p)
    f = model().fit(n=n, c=c)
    pn, pc, pw = f.pairs_
    lb = _log_binom(pn, pc)
    keep = np.ones(f._theta.size, dtype=bool)
    keep[list(f._boundary(f._theta))] = False
    sub = np.ix_(keep, keep)

    def ses(eps: float) -> np.ndarray:
        H = _grad_hessian(lambda t: f._negloglik_grad(t, pn, pc, pw, lb)[1], f._theta, eps)
        return np.sqrt(np.diag(np.linalg.inv(H[sub])))

    base = ses(1e-4)
    assert np.all(np.isfinite(base))
    for eps in (1e-5, 3e-4):
        np.testing.assert_allclose(ses(eps), base, rtol=1e-4)


def test_a_newton_optimum_is_not_polished_by_nelder_mead(monkeypatch):
    # BFGS stops on "precision loss" at the optimum of a flat likelihood (a scaled Beta whose scale
    # is barely identified); when the Newton decrement there is ~0 the fit is accepted instead of
    # running a Nelder-Mead polish (156 evaluations to gain 3e-10). Reference: a Nelder-Mead run
    # from the returned point, done here, gains less than 1e-6 in log-likelihood
    import passcurve._difficulty as difficulty

    gen = np.random.default_rng(2)
    for s_true, a, b in ((1.0, 0.3, 12.0), (0.1, 0.2, 4.0)):  # the second draw, as in bench_fit.py
        n = np.full(128, 10_000)
        c = gen.binomial(n, s_true * gen.beta(a, b, 128))
    methods = []
    real = difficulty.optimize.minimize

    def spy(*args, **kwargs):
        methods.append(kwargs.get("method"))
        return real(*args, **kwargs)

    monkeypatch.setattr(difficulty.optimize, "minimize", spy)
    f = ScaledBetaBinomial().fit(n=n, c=c)
    assert "Nelder-Mead" not in methods and f.success_
    pn, pc, pw = f.pairs_
    lb = _log_binom(pn, pc)
    at = f._negloglik(f._theta, pn, pc, pw, lb)
    polish = real(f._negloglik, f._theta, args=(pn, pc, pw, lb), method="Nelder-Mead",
                  options={"maxiter": 4000, "xatol": 1e-7, "fatol": 1e-9})
    assert polish.fun >= at - 1e-6


def test_beta_fit_on_under_dispersed_counts_is_the_binomial_limit_not_a_failure():
    # 99 problems at 99/100 and one at 100/100 vary less than one shared p would make them: no Beta maximises the
    # likelihood, which rises toward alpha + beta -> infinity (the binomial). The fit stopped on that ridge with
    # "beta fit did not converge: Desired error not necessarily achieved due to precision loss"; it is now the
    # limit, said so. Reference: the binomial at p = sum c / sum n = 0.9901 (closed form)
    import warnings

    n, c = np.full(100, 100), np.r_[np.full(99, 99), 100]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ConvergenceWarning
        f = BetaBinomial().fit(n=n, c=c)
    assert f.success_ and f.message_.startswith("at its limit alpha + beta -> infinity") and "p = 0.9901" in f.message_
    p = 0.9901
    binomial = float(np.sum(np.log([math.comb(100, int(x)) for x in c]) + c * np.log(p) + (100 - c) * np.log1p(-p)))
    assert f.loglik_ == pytest.approx(binomial, abs=1e-4)
    np.testing.assert_allclose(f.pass_at_k([1, 2]), [p, 1 - (1 - p) ** 2], atol=1e-5)
    # alpha and beta are a point on a flat ridge: not identified (they had SEs of 5.6e10 and 5.6e8), no tail shown
    assert f.unidentified_ == ("alpha", "beta") and np.isnan(f.se_["alpha"]) and "not identified" in f.summary
    # the scaled Beta reaches the same limit (its iteration limit, 'did not converge' before); so fit_difficulty
    # on these counts raises no warning at all (the zero-inflated Beta and the mixture converge there)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = fit_difficulty(Counts.from_arrays(n, c))["arrays"]["scaled_beta"]
    assert s.success_ and s.message_.startswith("at its limit alpha + beta -> infinity") and s.loglik_ >= binomial - 1e-4
    # over-dispersed counts keep their finite Beta (the limit is only a reading of a fit the optimizer left)
    g = np.random.default_rng(0)
    m = np.full(300, 50)
    fin = BetaBinomial().fit(n=m, c=g.binomial(m, g.beta(0.5, 2.0, 300)))
    assert fin.success_ and not fin.message_.startswith("at its limit")
    assert fin._at_limit(fin._theta, fin.loglik_, *fin.pairs_, _log_binom(fin.pairs_[0], fin.pairs_[1])) is None


@pytest.mark.parametrize("case", ["near_saturated", "large_n"])
def test_npmle_is_at_least_every_parametric_fit(case):
    # the NPMLE maximises over all mixing laws, a Beta among them (up to its grid): with the problems' own rates
    # on the grid it must not fall below the Beta fits (it did: -596 vs -99.5 for c = 99 of 100; -3454 vs -1147
    # at n = 10^6, where a fixed 201-point grid is far coarser than one problem's likelihood)
    from passcurve import BetaBinomial, GridMixture

    rng = np.random.default_rng(555)
    if case == "near_saturated":
        n, c = np.full(100, 100), np.r_[np.full(99, 99), 100]
    else:
        n = np.full(100, 10**6)
        c = rng.binomial(n, rng.beta(0.3, 3.0, 100))
    g = GridMixture().fit(n=n, c=c)
    b = BetaBinomial().fit(n=n, c=c)
    assert g.success_ and g.loglik_ >= b.loglik_ - 1e-3  # up to the grid's resolution (a Beta of concentration 3e8 here)


def test_goodness_of_fit_pools_small_bins_on_both_sides_and_says_when_nothing_is_tested():
    # an easy benchmark drawn from a Beta: the lower bins expect ~1e-8..0.02 problems. Pooled from the right only,
    # one problem in a bin expecting 0.024 added 40 to chi2 and gave p = 8e-8 (difficulty-fits audit)
    rng = np.random.default_rng(61)
    c = rng.binomial(64, rng.beta(8, 1.5, 300))
    g = BetaBinomial().fit(n=np.full(300, 64), c=c).goodness_of_fit()
    assert g["chi2"] < 5 and g["dof"] <= 0 and np.isnan(g["p_value"])  # 3 pooled bins, 2 parameters: no test
    # pooled groups reproduce the statistic: every group expects >= 1 problem
    e, o = np.array(g["expected"]), np.array(g["observed"])
    assert e.sum() == pytest.approx(300, rel=1e-9) and o.sum() == 300
    # a hard benchmark keeps a real test, and its p-value is scipy's chi-square tail
    c2 = rng.binomial(64, rng.beta(0.5, 3, 300))
    g2 = BetaBinomial().fit(n=np.full(300, 64), c=c2).goodness_of_fit()
    assert g2["dof"] >= 1 and g2["p_value"] == pytest.approx(stats.chi2.sf(g2["chi2"], g2["dof"]))


def test_scaled_beta_between_whole_k_is_interpolated_not_a_truncated_series():
    # the Pfaff series terminates only at whole d: at d = 2.5 it gave pass@2.5 = 0.141 above pass@3 = 0.117
    # (alpha = 0.3, beta = 3, s = 0.5), and 0.99984 at s = 1 - 1e-8, so k_for with method="scaled_beta" answered
    # K = 7.2 on Pythia 12B where the data reach 0.8 at k = 2,854. Now log M is linear in d between whole d: exact at
    # whole d, monotone, and within 1.2e-3 of E[(1 - s u)^K] by quadrature (reference: scipy.integrate.quad of
    # (1 - s u)^K against the Beta(alpha, beta) density)
    for a, b, s in [(0.3, 3.0, 0.5), (0.3, 3.0, 1 - 1e-8), (0.29, 11.4, 0.999)]:
        m = ScaledBetaBinomial()
        m._theta = np.array([special.logit(s), np.log(a), np.log(b)])
        ks = np.array([2.0, 2.25, 2.5, 2.75, 3.0, 999.0, 999.5, 1000.0])
        got = m.pass_at_k(ks)
        assert np.all(np.diff(got) > 0)
        for K, v in zip(ks, got, strict=True):
            ref = 1 - integrate.quad(lambda u, K=K, a=a, b=b, s=s: (1 - s * u) ** K * stats.beta.pdf(u, a, b), 0, 1,
                                     limit=200, points=[1e-8, 1e-4, 1e-2])[0]
            assert v == pytest.approx(ref, abs=1e-9 if K == round(K) else 1.2e-3)
            assert v <= ref + 1e-9  # the chord of the convex log M lies above it: pass@K from below


def test_difficulty_fits_are_indexed_by_benchmark_model():
    # fits["M"] raised "TypeError: 'DifficultyFits' object is not subscriptable" (second user review); it is
    # fits.fits["M"], and an unknown name is the one-line error listing the models
    cnt = Counts.from_arrays([20] * 6, [1, 4, 9, 2, 0, 7], model=["A"] * 3 + ["B"] * 3, problem=["p", "q", "r"] * 2)
    fits = fit_difficulty(cnt, "beta")
    assert fits["B"] is fits.fits["B"] and fits["B"]["beta"].params_ == fits.fits["B"]["beta"].params_
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'C'\); models present: A, B"):
        fits["C"]


@pytest.mark.parametrize(("value", "shown"), [("no", "'no'"), (0, "0"), (None, "None"), (np.array([[1, 2], [3, 4]]),
                                                                                       r"\[\[1, 2\], \[3, 4\]\]")])
def test_beta_mixture_zero_inflated_is_a_switch(value, shown):
    # bool(zero_inflated): "no" was True (a point mass at 0 the caller had turned off), None False, and a 2-d array
    # numpy's "truth value of an array ... is ambiguous" ValueError (API sweep)
    with pytest.raises(passcurve.PasscurveError, match=rf"^`zero_inflated` must be True or False \(got {shown}\)$"):
        passcurve.BetaMixtureBinomial(zero_inflated=value)
    assert passcurve.BetaMixtureBinomial(zero_inflated=np.bool_(False)).zero_inflated is False


def test_parameter_line_goes_scientific_as_a_whole():
    # the one rule for a line of fitted parameters (summary, fit's parameter lines, the report's fit label)
    from passcurve._difficulty import _param_line_fmt

    params, se = {"a": 2.5e5, "b": 0.5, "c": 0.0}, {"a": 1.25e4, "b": 0.1, "c": np.nan}
    num, sef = _param_line_fmt(params, se)  # a value reaches 10^5: every number scientific, 3 significant digits
    assert [num(2.5e5), num(0.5), num(0.0), sef(1.25e4), sef(0.1)] == ["2.50e+05", "5.00e-01", "0", "1.25e+04",
                                                                         "1.00e-01"]
    params["a"], se["a"] = 21120.4, 70500.0  # below 10^5: fixed point, significant digits as .4g / .3g
    num, sef = _param_line_fmt(params, se)
    assert [num(21120.4), num(0.5), sef(70500.0), sef(0.1)] == ["21120", "0.5", "70500", "0.1"]


def test_summary_and_report_label_write_one_notation_per_line():
    # summary and the report's fit label took each value's own .4g: Pythia 160M's beta_mixture read
    # 'alpha1=0.2727 (±0.1184)' beside 'beta2=2.112e+04 (±7.054e+04)'. They now share fit's rule: fixed point,
    # 4 significant digits for a value and 3 for a standard error (2.112e+04 -> 21120, 7.054e+04 -> 70500)
    from passcurve.report._adapters import _fit_label

    counts = passcurve.read_counts(shared_file("pythia_math_counts.csv")).select_models(["Pythia 160M"])
    f = fit_difficulty(counts, model=["beta_mixture"]).fits["Pythia 160M"]["beta_mixture"]
    assert "alpha1=0.2727 (±0.118)" in f.summary and "alpha2=196.4 (±667), beta2=21120 (±70500)" in f.summary, f.summary
    assert "e+" not in f.summary and "e-" not in f.summary
    label = _fit_label(f)
    assert "alpha1 = 0.2727 ± 0.118" in label and "alpha2 = 196.4 ± 667, beta2 = 21120 ± 70500" in label, label
    assert "e+" not in label and "e−" not in label


def test_report_label_scientific_line_keeps_true_minus():
    # a value needing more than 8 decimals makes the whole line scientific; the report writes its minus signs '−'
    from passcurve.report._adapters import _fit_label

    f = BetaBinomial().fit(n=[20] * 6, c=[0, 1, 2, 3, 5, 8])
    f.params_["alpha"] = 3e-9  # by hand: only the printing is under test (the fitted beta is about 4 to 10)
    beta = f"{f.params_['beta']:.2e}"  # number_format's scientific form, 3 significant digits
    assert f.summary.startswith("beta: alpha=3.00e-09 (±"), f.summary
    assert f"beta={beta} (±" in f.summary, f.summary
    assert _fit_label(f).startswith("beta: alpha = 3.00e−09 ± "), _fit_label(f)
    assert f"beta = {beta} ± " in _fit_label(f)


class _OwnLaw(BetaBinomial):
    """A subclass's law that is not (declared) a mixture of Betas: pmf_bins keeps the trapezoid and its limit."""

    def _law_parts(self):
        return None


def test_goodness_of_fit_at_the_largest_n_the_readers_accept():
    # at n = 2^53 - 1 pmf_bins' trapezoid grid was an 8 GiB array; the goodness of fit was then left out above 2^34
    # (a DegenerateDataWarning). The Beta laws' bins are integrals over p whose cost does not grow with n: computed
    # there, for every problem; only a law that is not a mixture of Betas keeps the trapezoid and the limit
    from passcurve._errors import DegenerateDataWarning

    n, c = np.array([10, 10, 2**53 - 1, 10]), np.array([2, 4, 7, 9])
    f = BetaBinomial().fit(n=n, c=c)
    assert f.pmf_bins_max_n == math.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateDataWarning)
        g = f.goodness_of_fit()
    assert len(g["bins"]) == 54 and sum(g["expected"]) == pytest.approx(4, abs=1e-12) and sum(g["observed"]) == 4
    mass = f.pmf_bins(2**53 - 1, [0, 1, 2**40, 2**52, 2**53])
    assert mass.sum() == pytest.approx(1.0, abs=1e-12) and (mass > 0).all()
    own = _OwnLaw().fit(n=n, c=c)
    assert own.pmf_bins_max_n == 2**34
    with pytest.warns(DegenerateDataWarning, match=r"beta: the goodness of fit is not computed for n above 2\^34"):
        g = own.goodness_of_fit()
    assert math.isnan(g["p_value"]) and math.isnan(g["chi2"]) and g["bins"] == [] and g["expected"] == []
    with pytest.raises(PasscurveError, match=r"^beta: pmf_bins takes n up to 2\^34 = 17,179,869,184 \(its cost grows "
                                             r"as sqrt\(n\); got n=9007199254740991\)$"):
        own.pmf_bins(2**53 - 1, [0, 1, 2**53])
    # the grid mixture's pmf_bins (binomial CDFs) is exact at any n: its goodness of fit is computed
    g = GridMixture().fit(n=n, c=c).goodness_of_fit()
    assert len(g["bins"]) == 54 and sum(g["expected"]) == pytest.approx(4)
    small = _OwnLaw().fit(n=np.array([10, 10, 2**34, 10]), c=c).goodness_of_fit()
    assert len(small["bins"]) == 36 and sum(small["observed"]) == 4  # dyadic bins {0}, {1}, ..., up to 2^34


_BETA_LAWS = [BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial, BetaMixtureBinomial]


@pytest.mark.parametrize("cls", _BETA_LAWS)
def test_pmf_bins_at_n_1e12_tends_to_the_laws_own_cdf_at_the_scaled_edges(cls):
    # reference: as n -> infinity c/n -> p (the law of large numbers), so P(b_j <= c < b_{j+1}) tends to
    # G(b_{j+1}/n) - G(b_j/n), G the law's CDF of p: π0 + Σ_k w_k I(b/(n s_k); α_k, β_k) (scipy's betainc). The gap
    # is the spread of c/n about p, O(1/b) relative, below 1e-9 where both edges are at least 2^30. Before, pmf_bins
    # refused n above 2^34
    m = _fitted(cls, 10_000, 2)
    w, A, B, S, _, pi0 = m._law_parts()
    n = 10**12
    for b in (_dyadic_bounds(n), np.unique(np.concatenate([[0, n + 1], np.linspace(0, n, 41).astype(np.int64)]))):
        got = m.pmf_bins(n, b)
        assert got.sum() == pytest.approx(1.0, abs=1e-12) and (got >= 0).all()
        edge = b[1:-1] / n
        G = np.concatenate([[0.0], pi0 + special.betainc(A, B, np.minimum(edge[:, None] / S, 1.0)) @ w, [1.0]])
        lim = np.diff(G)
        far = (b[:-1] >= 2**30) & (b[1:] >= 2**30) & (lim > 1e-12)
        assert far.sum() >= 8
        np.testing.assert_allclose(got[far], lim[far], rtol=1e-8)
        if pi0 > 0:  # the point mass is all in the bin of c = 0
            assert got[0] >= pi0


def test_scaled_beta_goodness_of_fit_at_n_1e9_evaluates_no_pmf_value():
    # regression: above n = 2^14 the goodness of fit evaluated the pmf at ~16·sqrt(2n) values c (7·10^5 at 10^9), each
    # a Pfaff series of O(sqrt(n)) terms for the scaled Beta: `passcurve fit` on 10 problems at n = 10^8 took 208 s
    # (227 s with every law), at 10^9 more than 300 s. The bins are now integrals over p: no pmf value is needed
    # (pmf raises here). Reference: the expected counts sum to the 10 problems
    rng = np.random.default_rng(0)
    n = np.full(10, 10**9)
    c = rng.binomial(n, 0.3 * rng.beta(0.3, 3.0, 10))
    m = ScaledBetaBinomial()
    m._theta = np.array([special.logit(0.3), np.log(0.3), np.log(3.0)])
    m.params_ = m._unpack(m._theta)
    m.pairs_ = _pairs(n, c, None)
    m.n_params_ = 3

    def no_pmf(*args, **kwargs):
        raise AssertionError("a pmf value was evaluated")

    m.pmf = no_pmf
    g = m.goodness_of_fit()
    assert sum(g["expected"]) == pytest.approx(10, rel=1e-12) and sum(g["observed"]) == 10
    assert np.isfinite(g["chi2"])


def test_likelihoods_where_both_shapes_underflow_to_zero_are_the_wall_not_a_value_error():
    # theta = (log a, log b) below -745 makes a = b = 0 (exp underflows): the histogram sum's logarithms are then -inf
    # and +inf together, and math.fsum raised "ValueError: -inf + inf in fsum" out of _negloglik and the gradients
    # (a fit's line search or a forecast's parameter draw may step there) where the likelihood's contract is the wall
    # 1e300 (and a zero gradient: _guarded), as for a theta that overflows
    rng = np.random.default_rng(0)
    n = rng.integers(5, 30, 400)
    c = rng.binomial(n, 0.3)
    c[:50] = 0
    pn, pc, pw = _pairs(n, c)
    lb = _log_binom(pn, pc)
    assert _whole_number_table(pc, pn - pc, 1.0, 1.0) is not None  # the histogram path is the one under test
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for m, theta in ((BetaBinomial(), np.array([-1000.0, -1000.0])),
                         (ZeroInflatedBetaBinomial(), np.array([0.0, -1000.0, -1000.0]))):
            assert m._negloglik(theta, pn, pc, pw, lb) == 1e300
            v, g = m._nll_grad(theta, pn, pc, pw, lb) if isinstance(m, BetaBinomial) else m._negloglik_grad(
                theta, pn, pc, pw, lb)
            assert v == 1e300 and not g.any()


def test_beta_log_moment_fast_form_takes_the_exact_terms_for_every_large_concentration_in_an_array():
    # exact=False takes betaln differences only where *every* a + b <= 1000 (docstring): with array-valued shapes, one
    # of them at a + b = 10^12 (a runaway fit's), the difference of two betaln of order 10^12 would lose ~4e-3 there.
    # Reference: the exact finite product (_exact_beta_log_moment, math.fsum of logs) at each element
    a, b = np.array([0.3, 2.5e11, 40.0]), np.array([3.0, 7.5e11, 900.0])
    c, d = np.array([2.0, 2.0, 5.0]), np.array([8.0, 8.0, 50.0])
    got = _beta_log_moment(c, d, a, b, exact=False)
    want = [_exact_beta_log_moment(int(ci), int(di), ai, bi) for ci, di, ai, bi in zip(c, d, a, b, strict=True)]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_likelihood_gradient_by_count_histograms_at_a_runaway_concentration_against_exact_rationals():
    # above a + b = 1000 (a Beta run toward the binomial limit on under-dispersed counts) the histogram sums take
    # ψ differences from _digamma_diff, not digamma(x + m) - digamma(x): at a + b = 10^12 the latter's rounding
    # (~4e-15 of ψ ~ 27.6) is ~1e-3 of each term m/10^12. Reference: for whole c, d the exact rational sums
    # ∂/∂a Σ w log M = Σ w [Σ_{j<c} 1/(a+j) − Σ_{j<c+d} 1/(a+b+j)], likewise b with d (Fractions)
    rng = np.random.default_rng(7)
    n = rng.integers(1, 11, 120)
    c = rng.binomial(n, 0.25).astype(np.float64)
    d = (n - c).astype(np.float64)
    w = rng.integers(1, 4, n.size).astype(np.float64)
    for a, b in [(2.5e11, 7.5e11), (9e11, 1e11)]:
        got = _beta_sums(c, d, w, a, b, order=1)
        assert got is not None  # the histogram path is the one under test
        fa, fb = Fraction(a), Fraction(b)
        ga = gb = Fraction(0)
        scale = 0.0
        for ci, di, wi in zip(c.astype(int), d.astype(int), w, strict=True):
            common = sum(Fraction(1) / (fa + fb + j) for j in range(ci + di))
            ga += Fraction(wi) * (sum(Fraction(1) / (fa + j) for j in range(ci)) - common)
            gb += Fraction(wi) * (sum(Fraction(1) / (fb + j) for j in range(di)) - common)
            scale += wi * (ci / a + di / b + 2 * (ci + di) / (a + b))
        for g, want in zip(got[1:], (ga, gb), strict=True):
            assert abs(g - float(want)) <= 1e-12 * scale, (a, b, g, float(want))


def test_numerical_hessian_against_the_closed_form():
    # the central-difference Hessian (_num_hessian: the base class's observed information for a law without an
    # analytic gradient, and _judge's Newton decrement) of f(x, y, z) = exp(x) sin(y) + x² y³ + z⁴ − x z, against its
    # second derivatives written out; the steps are 1e-4·max(1, |x_i|), so the O(h²) error stays below 1e-6 relative
    def f(t):
        x, y, z = t
        return math.exp(x) * math.sin(y) + x * x * y**3 + z**4 - x * z

    for x, y, z in [(0.3, 1.1, -0.7), (2.0, -3.0, 5.0)]:
        want = np.array([[math.exp(x) * math.sin(y) + 2 * y**3, math.exp(x) * math.cos(y) + 6 * x * y * y, -1.0],
                         [math.exp(x) * math.cos(y) + 6 * x * y * y, -math.exp(x) * math.sin(y) + 6 * x * x * y, 0.0],
                         [-1.0, 0.0, 12 * z * z]])
        got = _num_hessian(f, np.array([x, y, z]))
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())


def test_inverse_information_requires_every_eigenvalue_above_rtol_times_the_largest():
    # _inverse_information(H, rtol): H⁻¹ when every eigenvalue of H exceeds rtol times the largest (and that is > 0),
    # else None; references written out for diagonal matrices (their eigenvalues are the diagonal)
    np.testing.assert_allclose(_inverse_information(np.diag([0.5, 0.25]), 1e-8), np.diag([2.0, 4.0]), rtol=1e-15)
    np.testing.assert_allclose(_inverse_information(np.diag([4e4, 2e-3]), 1e-8), np.diag([2.5e-5, 500.0]), rtol=1e-15)
    assert _inverse_information(np.diag([1e4, 1e-6]), 1e-8) is None  # 1e-6 <= 1e-8 · 1e4: not identified
    assert _inverse_information(np.diag([1e-3, 1e-12]), 1e-8) is None  # 1e-12 <= 1e-8 · 1e-3
    assert _inverse_information(-np.eye(2), 1e-8) is None  # no positive eigenvalue
    assert _inverse_information(np.diag([1.0, -2.0])) is None  # rtol 0: a negative variance is no covariance
    np.testing.assert_allclose(_inverse_information(np.diag([1e4, 1e-6])), np.diag([1e-4, 1e6]), rtol=1e-15)  # rtol 0


def test_npmle_posterior_moments_against_exact_rational_sums_over_its_atoms():
    # the nonparametric law (not a mixture of Betas) takes the posterior from ratios of its log moments: against the
    # sums over its atoms p_j with weights w_j in exact rationals, E[(1-p)^k | n, c] = Σ w_j p_j^c (1-p_j)^(n-c+k) /
    # Σ w_j p_j^c (1-p_j)^(n-c), likewise 2k, pass@k = 1 − the first and the variance the second less its square
    rng = np.random.default_rng(3)
    n = np.full(60, 8)
    c = rng.binomial(n, rng.beta(0.5, 2.0, 60))
    fit = GridMixture().fit(n=n, c=c)
    atoms = [(Fraction(float(p)), Fraction(float(wj))) for p, wj in zip(fit.grid_, fit.weights_, strict=True) if wj > 0]

    def moment(ci, di):
        return sum(wj * p**ci * (1 - p) ** di for p, wj in atoms)

    nn, cc, kk = np.array([8, 8, 8, 20, 40]), np.array([0, 3, 8, 5, 40]), np.array([1, 4, 2, 3, 1])
    m1, m2 = fit.posterior_fail_moments(nn, cc, kk)
    var = fit._posterior_fail_var(nn, cc, kk)
    pk = fit.posterior_pass_at_k(nn, cc, kk)
    for i, (ni, ci, ki) in enumerate(zip(nn.tolist(), cc.tolist(), kk.tolist(), strict=True)):
        base = moment(ci, ni - ci)
        e1, e2 = moment(ci, ni - ci + ki) / base, moment(ci, ni - ci + 2 * ki) / base
        assert m1[i] == pytest.approx(float(e1), rel=1e-12)
        assert m2[i] == pytest.approx(float(e2), rel=1e-12)
        assert pk[i] == pytest.approx(float(1 - e1), rel=1e-10)
        assert var[i] == pytest.approx(float(e2 - e1 * e1), rel=1e-8, abs=1e-15)
    assert var[-1] < 1e-3  # a posterior near p = 1: a small variance, not floored
    # the population pass@k = Σ w_j (1 − (1 − p_j)^k) over the atoms, for a scalar k and a 2-d array of k alike
    ks = np.array([[1, 3, 10], [2, 5, 40]])
    want = [[float(1 - moment(0, int(k))) for k in row] for row in ks.tolist()]
    np.testing.assert_allclose(fit.pass_at_k(ks), want, rtol=1e-12)
    assert float(fit.pass_at_k(3)) == pytest.approx(want[0][1], rel=1e-12)


def test_goodness_of_fit_against_betabinom_sums_over_the_dyadic_bins():
    # every field of goodness_of_fit by brute force: bins {0}, {1}, {2, 3}, {4..7}, {8..15}, {16..20} (the last cut
    # at the largest n), observed and expected weighted problems per bin (expected: scipy.stats.betabinom.pmf summed
    # over each problem's c in the bin, two n), adjacent bins pooled from the left until each group expects >= 1 with
    # the remainder (here {16..20}: 0.2 expected, one problem observed) joined to the last group, Pearson's chi2 over
    # the groups, dof = groups − 1 − 2 parameters, p from scipy's chi-square tail
    a, b = 0.5, 3.0
    n = np.r_[np.full(30, 20), np.full(10, 5)]
    c = np.array([0] * 9 + [1] * 6 + [2, 3, 3, 2, 2] + [4, 5, 6, 7, 5, 4] + [8, 9, 12] + [17]
                 + [0, 0, 0, 1, 1, 2, 3, 4, 5, 5])
    w = np.where(np.arange(n.size) % 3 == 0, 2.0, 1.0)
    m = BetaBinomial()
    m._theta = np.log([a, b])
    m.params_ = m._unpack(m._theta)
    m.pairs_ = _pairs(n, c, w)
    m.n_params_ = 2
    g = m.goodness_of_fit()
    bins = [(0, 0), (1, 1), (2, 3), (4, 7), (8, 15), (16, 20)]
    assert g["bins"] == bins
    obs = [float(w[(c >= lo) & (c <= hi)].sum()) for lo, hi in bins]
    exp_ = [sum(wi * stats.betabinom.pmf(np.arange(lo, min(hi, ni) + 1), ni, a, b).sum() for ni, wi in zip(n, w, strict=True))
            for lo, hi in bins]
    assert g["observed"] == obs
    np.testing.assert_allclose(g["expected"], exp_, rtol=1e-12)
    assert exp_[-1] < 1 <= exp_[-2] and obs[-1] > 0  # the remainder case
    o = np.array(obs[:4] + [obs[4] + obs[5]])
    e = np.array(exp_[:4] + [exp_[4] + exp_[5]])
    assert np.all(np.array(exp_[:5]) >= 1)  # so every bin before the last is its own group
    chi2 = float(np.sum((o - e) ** 2 / e))
    assert g["chi2"] == pytest.approx(chi2, rel=1e-12)
    assert g["dof"] == 5 - 1 - 2
    assert g["p_value"] == pytest.approx(stats.chi2.sf(chi2, 2), rel=1e-10)


def test_beta_mixture_gradient_is_never_nan_where_a_component_degenerates():
    # a component whose β underflows (exp(-1000) = 0: Beta(1, 0)) has log M = -inf on every pair with a failure, so the
    # likelihood is finite (the other component carries it) but that component's ∂/∂log β is 0·inf = NaN. The
    # optimiser must get a finite pair: the value with a finite gradient, or the wall (1e300, 0) of _guarded; a NaN
    # gradient made BFGS's line search step to NaN. Reference: the likelihood from scipy.stats.betabinom alone
    rng = np.random.default_rng(0)
    n = rng.integers(5, 50, 40)
    c = rng.binomial(n, 0.3)
    c[:5] = 0
    pn, pc, pw = _pairs(n, c)
    lb = _log_binom(pn, pc)
    m = BetaMixtureBinomial(2, zero_inflated=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for theta in ([0.0, 0.0, 0.0, 0.0, -1000.0], [3.0, 0.0, -1000.0, 0.0, 0.0]):
            theta = np.array(theta)
            v, g = m._negloglik_grad(theta, pn, pc, pw, lb)
            assert np.isfinite(v) and np.isfinite(g).all()
            # the likelihood itself is finite there: only the healthy component's share of it
            # (the healthy one is Beta(1, 1), weight softmax([theta[0], 0]) of the first or the second component)
            share = special.expit(theta[0]) if theta[4] < -100 else special.expit(-theta[0])
            ll = float(pw @ (np.log(share) + stats.betabinom.logpmf(pc, pn, 1.0, 1.0)))
            assert m._negloglik(theta, pn, pc, pw, lb) == pytest.approx(-ll, rel=1e-12)


def test_scaled_beta_likelihood_where_the_scale_rounds_to_one_is_the_betas():
    # logit s = 40: expit rounds to 1.0, where s/(1 - s) is a division by zero; the likelihood and its gradient take
    # s = 1 - 1e-12 (the clamp the moments use) and are the Beta's, s·Beta(a, b) -> Beta(a, b). Reference:
    # scipy.stats.betabinom.logpmf summed; the gradient against the Beta's in (log a, log b) and ~0 in logit s
    rng = np.random.default_rng(1)
    n = rng.integers(5, 60, 50)
    c = rng.binomial(n, rng.beta(0.5, 3.0, 50))
    pn, pc, pw = _pairs(n, c)
    lb = _log_binom(pn, pc)
    m = ScaledBetaBinomial()
    theta = np.array([40.0, np.log(0.5), np.log(3.0)])
    ref = -float(pw @ stats.betabinom.logpmf(pc, pn, 0.5, 3.0))
    assert m._negloglik(theta, pn, pc, pw, lb) == pytest.approx(ref, rel=1e-10)
    v, g = m._negloglik_grad(theta, pn, pc, pw, lb)
    assert v == pytest.approx(ref, rel=1e-10)
    _, gb = BetaBinomial()._nll_grad(theta[1:], pn, pc, pw, lb)
    np.testing.assert_allclose(g[1:], gb, rtol=1e-6)
    assert abs(g[0]) < 1e-6


def test_beta_mixture_parameters_with_and_without_the_point_mass():
    # the mixture's params_ name its point mass only when zero_inflated, and its weights sum to 1; a point mass well
    # inside (0, 1) is not on its boundary and has a standard error. Reference: the simulation's 20% of impossible
    # problems (p = 0) among Beta(0.6, 4) ones, recovered within 4 SEs
    rng = np.random.default_rng(21)
    n = np.full(600, 100)
    c = rng.binomial(n, np.where(rng.random(n.size) < 0.2, 0.0, rng.beta(0.6, 4.0, n.size)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        zi = BetaMixtureBinomial(2, zero_inflated=True).fit(n=n, c=c)
        plain = BetaMixtureBinomial(2, zero_inflated=False).fit(n=n, c=c)
    assert set(zi.params_) == {"impossible", "weight1", "alpha1", "beta1", "weight2", "alpha2", "beta2"}
    assert set(plain.params_) == {"weight1", "alpha1", "beta1", "weight2", "alpha2", "beta2"}
    assert plain.params_["weight1"] + plain.params_["weight2"] == pytest.approx(1.0, rel=1e-12)
    assert zi.params_["impossible"] + zi.params_["weight1"] + zi.params_["weight2"] == pytest.approx(1.0, rel=1e-12)
    assert zi.boundary_ == () and plain.boundary_ == ()
    assert np.isfinite(zi.se_["impossible"]) and zi.se_["impossible"] > 0
    assert abs(zi.impossible_mass_ - 0.2) < 4 * zi.se_["impossible"]
    # every problem solved at least once: the point mass runs to 0, its boundary, and has no standard error
    solved = np.maximum(c, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        edge = BetaMixtureBinomial(2, zero_inflated=True).fit(n=n, c=solved)
    assert edge.params_["impossible"] < 1e-6 and edge.boundary_ == ("impossible",) and np.isnan(edge.se_["impossible"])


def test_npmle_stopped_early_certifies_its_distance_to_the_optimum():
    # max_iter = k allows k constrained-Newton iterations, and a fit stopped there still reports the certificate
    # N(max_j D_j − 1) >= ℓ(w*) − ℓ(w) of its last iterate (Wang 2007, by concavity and log x <= x − 1): finite, and
    # at least the distance to the converged fit's log-likelihood
    rng = np.random.default_rng(9)
    n = np.full(300, 40)
    c = rng.binomial(n, rng.beta(0.4, 3.0, n.size))
    best = GridMixture().fit(n=n, c=c)
    assert best.success_
    for iters in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            early = GridMixture(max_iter=iters).fit(n=n, c=c)
        assert not early.success_ and f"after {iters} iterations" in early.message_
        assert np.isfinite(early.duality_gap_)
        assert early.loglik_ < best.loglik_ <= early.loglik_ + early.duality_gap_ + 1e-9 * abs(best.loglik_)
