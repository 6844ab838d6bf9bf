"""PKPO reward transforms: REFERENCE.md oracles, brute-force subset enumeration, exact rationals,
an exact policy-gradient unbiasedness check, binary vs general agreement, torch interop."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passcurve import PasscurveError, pass_at_k
from passcurve.rl import max_at_k, pkpo_rewards

BIN = np.array([1, 0, 0, 1, 0, 0, 1, 0])
CONT = np.array([0, 0.5, 0.2, 1, 0.3, 0, 0.8, 0.6])


# ---------------------------------------------------------------------------- oracles
def test_reference_binary_oracles():
    # ../shared/REFERENCE.md "Training signals" (Walder & Karkhanis 2025, arXiv:2505.15201)
    assert max_at_k(BIN, 4) == pytest.approx(0.928571, abs=5e-7)
    s = pkpo_rewards(BIN, 4, baseline="none")
    np.testing.assert_allclose(s[BIN == 1], 0.5, atol=5e-7)
    np.testing.assert_allclose(s[BIN == 0], 0.442857, atol=5e-7)
    loo = pkpo_rewards(BIN, 4, baseline="loo")
    np.testing.assert_allclose(loo[BIN == 1], 0.010204, atol=5e-7)
    np.testing.assert_allclose(loo[BIN == 0], -0.112245, atol=5e-7)
    l1 = pkpo_rewards(BIN, 4)  # default loo-1
    np.testing.assert_allclose(l1[BIN == 1], 0.142857, atol=5e-7)
    np.testing.assert_array_equal(l1[BIN == 0], 0.0)


def test_reference_binary_exact_fractions():
    # closed forms with math.comb (REFERENCE.md): correct k/n, incorrect (k/n) rho(n-1, c, k-1)
    n, c, k = 8, 3, 4
    inc = Fraction(k, n) * (1 - Fraction(math.comb(n - 1 - c, k - 1), math.comb(n - 1, k - 1)))
    assert inc == Fraction(31, 70)
    s = pkpo_rewards(BIN, 4, baseline="none")
    assert abs(s[1] - float(inc)) < 1e-15
    loo1 = Fraction(k, n) * Fraction(math.comb(n - c, k - 1), math.comb(n - 1, k - 1))
    assert abs(pkpo_rewards(BIN, 4)[0] - float(loo1)) < 1e-15


def test_reference_continuous_oracles():
    # ../shared/REFERENCE.md: g=[0,.5,.2,1,.3,0,.8,.6], k=4
    assert max_at_k(CONT, 4) == pytest.approx(0.847143, abs=5e-7)
    np.testing.assert_allclose(
        pkpo_rewards(CONT, 4, baseline="none"),
        [0.405714, 0.408571, 0.405714, 0.5, 0.405714, 0.405714, 0.442857, 0.414286],
        atol=5e-7,
    )
    np.testing.assert_allclose(
        pkpo_rewards(CONT, 4, baseline="loo-1"),
        [0, 0.012857, 0, 0.184286, 0.001429, 0, 0.084286, 0.027143],
        atol=5e-7,
    )


# ---------------------------------------------------------------------------- brute force
def brute(g, k, baseline):
    """Direct definitions by enumerating every k-subset (independent of the implementation): :func:`brute_exact` on
    the floats' exact values, rounded once."""
    return np.array([float(x) for x in brute_exact([Fraction(v) for v in g], k, baseline)])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, -0.3, 2.0]) | st.floats(-3, 3), min_size=2, max_size=7),
    st.data(),
)
def test_matches_subset_enumeration(g, data):
    n = len(g)
    k = data.draw(st.integers(1, n))
    base = data.draw(st.sampled_from(["none", "loo", "loo-1"]))
    if base == "loo" and k == n:  # loo needs max@k of the other n - 1 samples
        return
    got = pkpo_rewards(np.array(g), k, base)
    want = brute(g, k, base)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # max@k against enumeration, and the identity sum_i s_i = k * rho
    rho = np.mean([max(sub) for sub in itertools.combinations(g, k)])
    assert max_at_k(np.array(g), k) == pytest.approx(rho, rel=1e-10, abs=1e-12)
    if base == "none":
        assert got.sum() == pytest.approx(k * rho, rel=1e-10, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=40), st.data())
def test_binary_fast_path_equals_general_path(f, data):
    g = np.array(f, dtype=float)
    n = g.size
    k = data.draw(st.integers(1, n - 1))
    for base in ("none", "loo", "loo-1"):
        a = pkpo_rewards(g, k, base, _path="binary")
        b = pkpo_rewards(g, k, base, _path="general")
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    # binary rewards against Chen's pass@k
    assert max_at_k(g, k) == pytest.approx(pass_at_k(n, int(g.sum()), k), rel=1e-12, abs=1e-15)


def test_batch_equals_rows_and_bool_input():
    rng = np.random.default_rng(3)
    g = rng.normal(size=(5, 9))
    for base in ("none", "loo", "loo-1"):
        batch = pkpo_rewards(g, 3, base)
        assert batch.shape == g.shape
        for r in range(5):
            np.testing.assert_array_equal(batch[r], pkpo_rewards(g[r], 3, base))
    b = rng.random((4, 10)) < 0.3
    np.testing.assert_array_equal(pkpo_rewards(b, 4), pkpo_rewards(b.astype(float), 4))
    np.testing.assert_allclose(max_at_k(b, 4), pass_at_k(10, b.sum(axis=1), 4), rtol=1e-12)


def test_ties_identical_and_loo1_nonnegative():
    rng = np.random.default_rng(0)
    g = rng.integers(0, 4, size=(50, 64)) / 3.0 + 1e6  # ties, and a large offset
    out = pkpo_rewards(g, 16)
    assert (out >= 0).all()
    s = pkpo_rewards(g, 16, "none")
    for r in range(50):
        for v in np.unique(g[r]):
            assert np.ptp(s[r][g[r] == v]) == 0.0
            assert np.ptp(out[r][g[r] == v]) == 0.0


# ---------------------------------------------------------------------------- large n, exact
def exact_s(g_int, k, i_sorted):
    """s at sorted position i (1-based) in exact rational arithmetic, from the paper's m_ij."""
    n = len(g_int)
    gs = sorted(int(v) for v in g_int)
    num = math.comb(i_sorted - 1, k - 1) * gs[i_sorted - 1]
    num += sum(math.comb(j - 2, k - 2) * gs[j - 1] for j in range(i_sorted + 1, n + 1))
    return Fraction(num, math.comb(n, k))


@pytest.mark.parametrize("n,k", [(3000, 1500), (4000, 7)])
def test_large_n_exact(n, k):
    # C(3000, 1500) ~ 10^901 overflows float64: the ratios must never form it
    rng = np.random.default_rng(n)
    g_int = rng.integers(0, 10, n)
    out = pkpo_rewards(g_int.astype(float), k, "none")
    gs = np.sort(g_int)
    order = np.argsort(g_int, kind="stable")
    for pos in (k, n // 2, n - 3):
        want = exact_s(list(g_int), k, pos)
        got = out[order[pos - 1]]
        assert got == pytest.approx(float(want), rel=1e-11)
        assert gs[pos - 1] == g_int[order[pos - 1]]
    rho = sum(Fraction(math.comb(i - 1, k - 1) * int(gs[i - 1])) for i in range(k, n + 1)) / math.comb(n, k)
    assert max_at_k(g_int.astype(float), k) == pytest.approx(float(rho), rel=1e-11)


def test_large_n_binary_exact():
    n, c, k = 5000, 37, 200
    g = np.zeros(n)
    g[:c] = 1
    inc = Fraction(k, n) * (1 - Fraction(math.comb(n - 1 - c, k - 1), math.comb(n - 1, k - 1)))
    cor_l1 = Fraction(k, n) * Fraction(math.comb(n - c, k - 1), math.comb(n - 1, k - 1))
    for path in ("binary", "general"):
        s = pkpo_rewards(g, k, "none", _path=path)
        assert s[-1] == pytest.approx(float(inc), rel=1e-11)
        assert s[0] == pytest.approx(k / n, rel=1e-13)
        assert pkpo_rewards(g, k, _path=path)[0] == pytest.approx(float(cor_l1), rel=1e-11)


# ---------------------------------------------------------------------------- unbiasedness
@pytest.mark.parametrize("baseline", ["none", "loo", "loo-1"])
def test_policy_gradient_unbiased_exact(baseline):
    # categorical policy over 3 outcomes with rewards r; E over all n-tuples of
    # sum_i s_i grad log pi(x_i) must equal grad E[max of k draws] (closed form, finite differences)
    r = np.array([0.0, 0.3, 1.0])
    logits = np.array([0.2, -0.4, 0.1])
    n, k = 4, 2

    def probs(z):
        e = np.exp(z - z.max())
        return e / e.sum()

    def maxk(z):
        p = probs(z)
        cdf = np.cumsum(p)  # r sorted ascending: P(max <= r_j) = cdf_j^k
        pm = np.diff(np.concatenate([[0.0], cdf**k]))
        return pm @ r

    p = probs(logits)
    est = np.zeros(3)
    for tup in itertools.product(range(3), repeat=n):
        prob = np.prod(p[list(tup)])
        s = pkpo_rewards(r[list(tup)], k, baseline)
        for i, x in enumerate(tup):
            glog = -p.copy()
            glog[x] += 1.0
            est += prob * s[i] * glog
    h = 1e-6
    num = np.array([(maxk(logits + h * e) - maxk(logits - h * e)) / (2 * h) for e in np.eye(3)])
    np.testing.assert_allclose(est, num, atol=1e-8)


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"rewards": BIN, "k": 0}, "`k` must be an integer in"),
        ({"rewards": BIN, "k": 9}, r"k=9, n=8"),
        ({"rewards": BIN, "k": 2.5}, "`k` must be an integer"),
        ({"rewards": BIN, "k": True}, "`k` must be an integer"),
        ({"rewards": BIN, "k": 2, "baseline": "rloo"}, "`baseline` must be one of"),
        ({"rewards": BIN, "k": 8, "baseline": "loo"}, "needs k <= n - 1"),
        ({"rewards": [1.0, np.nan], "k": 1}, "NaN"),
        ({"rewards": np.zeros((2, 2, 2)), "k": 1}, "shape"),
        ({"rewards": [], "k": 1}, "empty"),
        ({"rewards": ["a", "b"], "k": 1}, "numbers"),
        ({"rewards": [1.0], "k": 1, "baseline": "loo-1"}, "n >= 2"),
        # read by np.asarray(dtype=float64) before (helper-118's fuzzing): the strings "1" and "0" were rewards, a
        # masked array's masked entries were used, a date was its days since 1970 (a ragged list stays refused)
        ({"rewards": ["1", "0", "1"], "k": 2}, r"^`rewards` must contain numbers \(got '1'\)$"),
        ({"rewards": np.ma.array([1.0, 0.0, 1.0], mask=[0, 1, 0]), "k": 2}, r"^`rewards` is a masked array with 1 masked"),
        ({"rewards": np.array(["2026-01-01"] * 3, dtype="datetime64[D]"), "k": 2},
         r"^`rewards` must contain numbers \(got values of type datetime64\[D\]\)$"),
        ({"rewards": [[1.0, 0.0], [1.0]], "k": 1}, r"^`rewards` must contain numbers$"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(PasscurveError, match=match):
        pkpo_rewards(**kwargs)


def test_k1_loo1_falls_back_to_loo():
    g = np.array([0.2, 0.9, 0.4])
    np.testing.assert_allclose(pkpo_rewards(g, 1), pkpo_rewards(g, 1, "loo"))


# ---------------------------------------------------------------------------- torch (optional)
def test_torch_roundtrip():
    torch = pytest.importorskip("torch")
    g32 = torch.tensor(CONT, dtype=torch.float32, requires_grad=True)
    out = pkpo_rewards(g32, 4)
    assert isinstance(out, torch.Tensor)
    assert out.dtype == torch.float32 and out.device == g32.device and not out.requires_grad
    np.testing.assert_allclose(out.numpy(), pkpo_rewards(CONT, 4), atol=1e-7)
    gb = torch.tensor(BIN.reshape(2, 4) == 1)
    outb = pkpo_rewards(gb, 2, "none")
    assert outb.dtype == torch.get_default_dtype() and outb.shape == (2, 4)
    g64 = torch.tensor(CONT.reshape(2, 4), dtype=torch.float64)
    rho = max_at_k(g64, 2)
    assert isinstance(rho, torch.Tensor) and rho.dtype == torch.float64 and rho.shape == (2,)
    np.testing.assert_allclose(rho.numpy(), max_at_k(CONT.reshape(2, 4), 2))


def test_array_api_roundtrip():
    import array_api_strict as xp  # in the [test] extras: a missing install fails, it does not skip
    g = xp.asarray(CONT, dtype=xp.float32)
    out = pkpo_rewards(g, 4)
    assert type(out) is type(g) and out.dtype == xp.float32 and out.device == g.device
    np.testing.assert_allclose(np.asarray(out), pkpo_rewards(CONT, 4), atol=1e-7)
    b = xp.asarray(BIN.reshape(2, 4) == 1)
    outb = pkpo_rewards(b, 2, "none")
    assert outb.dtype == xp.float64 and outb.shape == (2, 4)
    np.testing.assert_allclose(np.asarray(max_at_k(g, 4)), 0.847143, atol=5e-7)


# ---------------------------------------------------------------------------- edges (mutation testing)
def brute_exact(g, k, baseline):
    """The definitions in exact rationals, by enumerating every k-subset (g: Fractions or ints)."""
    n = len(g)
    subsets = list(itertools.combinations(range(n), k))
    N = len(subsets)
    s = [sum(max(g[j] for j in K) for K in subsets if i in K) / Fraction(N) for i in range(n)]
    if baseline == "none":
        return s
    if baseline == "loo" or (baseline == "loo-1" and k == 1):
        out = []
        for i in range(n):
            others = [g[j] for j in range(n) if j != i]
            sub = list(itertools.combinations(others, k))
            out.append(s[i] - Fraction(k, n - 1) * sum(max(x) for x in sub) / len(sub))
        return out
    return [sum(max(g[j] for j in K) - max(g[j] for j in K if j != i) for K in subsets if i in K) / Fraction(N)
            for i in range(n)]


@pytest.mark.parametrize("lo,hi", [(0, 2), (0, Fraction(3, 2)), (Fraction(1, 1000), 1), (-1, 1), (1, 2)])
def test_two_valued_rewards_that_are_not_0_1_match_the_definition(lo, hi):
    # only rewards that are all exactly 0 or 1 may take the binary closed forms (c = number of 1s); a group of
    # 0s and 2s, or of 0.001s and 1s, has two values too and must follow the general definition (exact rationals)
    pattern = [hi, lo, lo, hi, lo, hi, lo]
    g = np.array([float(v) for v in pattern])
    n = len(pattern)
    for k in range(1, n + 1):
        for base in ("none", "loo", "loo-1"):
            if base == "loo" and k == n:
                continue
            want = [float(v) for v in brute_exact([Fraction(v) for v in pattern], k, base)]
            np.testing.assert_allclose(pkpo_rewards(g, k, base), want, rtol=1e-12, atol=1e-15)
        rho = sum(max(K) for K in itertools.combinations([Fraction(v) for v in pattern], k)) / math.comb(n, k)
        assert max_at_k(g, k) == pytest.approx(float(rho), rel=1e-12, abs=1e-15)


def test_binary_tiny_rewards_keep_their_digits():
    # one correct sample in n = 10^5, k = 2: an incorrect sample's reward is (k/n) rho(n-1, 1, k-1)
    # = (2/n) (1/(n-1)) ~ 2e-10, which a difference k/n - (k/n)(n-2)/(n-1) gets only to ~1e-11 relative;
    # the closed forms give it to full precision (exact rationals; abs=0: pytest.approx's default abs=1e-12 would
    # accept anything below 1e-12)
    n, k = 10**5, 2
    g = np.zeros(n)
    g[7] = 1.0
    s = pkpo_rewards(g, k, "none")
    want_inc = Fraction(k, n) * (1 - Fraction(math.comb(n - 2, k - 1), math.comb(n - 1, k - 1)))
    assert want_inc == Fraction(2, n * (n - 1))
    assert s[0] == pytest.approx(float(want_inc), rel=1e-14, abs=0)
    assert s[7] == pytest.approx(k / n, rel=1e-15, abs=0)
    # loo-1: the correct sample gets (k/n) C(n-1, k-1)/C(n-1, k-1) = k/n, every incorrect one exactly 0
    l1 = pkpo_rewards(g, k)
    assert l1[7] == pytest.approx(k / n, rel=1e-15, abs=0) and not l1[np.arange(n) != 7].any()


@pytest.mark.parametrize("n,k", [(2, 1), (5, 1), (5, 3), (5, 5)])
def test_all_wrong_and_all_right_groups(n, k):
    # definitions (every k-subset has the same max): all wrong -> s = 0, max@k = 0; all right -> s = k/n (each
    # sample is in C(n-1,k-1)/C(n,k) = k/n of the subsets), max@k = 1; loo-1 at k >= 2 credits nobody (the other
    # k-1 already reach the max), at k = 1 it is loo: s - k/(n-1) rho_{-i} = 1/n - 1/(n-1)
    wrong, right = np.zeros(n), np.ones(n)
    for base in ("none", "loo", "loo-1"):
        if base == "loo" and k == n:
            continue
        out = pkpo_rewards(wrong, k, base)
        np.testing.assert_array_equal(out, 0.0)
        assert not np.signbit(out).any()  # +0.0, not -0.0 (printed "-0.")
        want = [float(v) for v in brute_exact([1] * n, k, base)]
        np.testing.assert_allclose(pkpo_rewards(right, k, base), want, rtol=1e-13, atol=1e-15)
        np.testing.assert_array_equal(pkpo_rewards(right, k, base, _path="general"), pkpo_rewards(right, k, base))
    assert max_at_k(wrong, k) == 0.0 and max_at_k(right, k) == 1.0
    np.testing.assert_allclose(pkpo_rewards(right, k, "none"), k / n, rtol=1e-15)
    if k >= 2:
        np.testing.assert_array_equal(pkpo_rewards(right, k), 0.0)
    else:
        np.testing.assert_allclose(pkpo_rewards(right, k), 1 / n - 1 / (n - 1), rtol=1e-13)


def test_k_equals_n_and_one_sample():
    # k = n: the only subset is the whole group, so s_i = max(g) for every i and loo-1 credits only a strict
    # maximum, with its lead over the runner-up (definition); n = 1, k = 1: s = g and max@1 = g
    g = np.array([0.3, 0.9, -0.2, 0.5])
    np.testing.assert_array_equal(pkpo_rewards(g, 4, "none"), 0.9)
    np.testing.assert_allclose(pkpo_rewards(g, 4), [0, 0.9 - 0.5, 0, 0], atol=1e-15)
    np.testing.assert_array_equal(pkpo_rewards(np.array([0.3, 0.9, 0.9, 0.5]), 4), 0.0)  # a tied max: no lead
    assert pkpo_rewards(np.array([0.7]), 1, "none").tolist() == [0.7] and max_at_k([0.7], 1) == 0.7


def test_max_at_k_of_one_group_is_a_python_float():
    # documented: "float for one group" (numpy 2 prints np.float64(0.5) for its own scalar)
    for g in ([0, 1, 1, 0], np.array([0.2, 0.5, 0.1]), (1.0, 0.0)):
        assert type(max_at_k(g, 2)) is float
    assert max_at_k([0, 1, 1, 0], 2) == pytest.approx(5 / 6)  # Chen: 1 - C(2,2)/C(4,2)
