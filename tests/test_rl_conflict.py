"""pass@k weights, interference kernel, gradient conflict and k*; the softmax-bandit toy."""

from __future__ import annotations

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passcurve import DegenerateDataWarning, PasscurveError
from passcurve.rl import conflict_toy, gradient_conflict, pass_at_k_weights, prompt_kernel

P_TOY = [0.9, 0.1]
G_TOY = [[2.0, 0.0], [-1.0, 0.5]]


def test_reference_toy():
    # ../shared/REFERENCE.md "Training signals" (Barakat et al. 2026, arXiv:2602.21189):
    # a = (1.0, -0.375); <grad J_k, grad J_1> = 0.3125, -0.2375, -0.54475, -0.71744 at k = 1, 2, 4, 8
    r = gradient_conflict(P_TOY, G_TOY, k=[1, 2, 4, 8])
    np.testing.assert_allclose(r.agreement, [1.0, -0.375])
    np.testing.assert_allclose(r.inner, [0.3125, -0.2375, -0.54475, -0.71744], atol=5e-6)
    # k* ≈ 1.446; closed form for two prompts: 0.5*1*0.1^(k-1) = 0.5*0.375*0.9^(k-1)
    assert r.k_star == pytest.approx(1 + math.log(0.375) / math.log(1 / 9), rel=1e-10)
    assert round(r.k_star, 3) == 1.446
    assert r.negative_fraction == 0.5
    np.testing.assert_allclose(r.grad_j1, [0.5, 0.25])


def test_weights():
    # w_k = k (1-p)^(k-1): derivative of 1 - (1-p)^k
    np.testing.assert_allclose(pass_at_k_weights([0.9, 0.1], 2), [0.2, 1.8])
    assert pass_at_k_weights(1.0, 1) == 1.0
    assert pass_at_k_weights(1.0, 3) == 0.0
    p, k, h = 0.3, 5.5, 1e-7
    fd = ((1 - (1 - p - h) ** k) - (1 - (1 - p + h) ** k)) / (2 * h)
    assert pass_at_k_weights(p, k) == pytest.approx(fd, rel=1e-6)
    assert pass_at_k_weights(np.array([[0.1], [0.5]]), np.array([1, 2, 4])).shape == (2, 3)


def test_kernel():
    K = prompt_kernel(G_TOY)
    np.testing.assert_allclose(K, [[4.0, -2.0], [-2.0, 1.25]])
    C = prompt_kernel(G_TOY, cosine=True)
    np.testing.assert_allclose(np.diag(C), 1.0)
    assert C[0, 1] == pytest.approx(-2.0 / (2.0 * math.sqrt(1.25)))
    r = gradient_conflict(P_TOY, G_TOY, with_kernel=True)
    np.testing.assert_allclose(r.kernel, K)
    np.testing.assert_allclose(r.agreement, K.mean(axis=1))  # a(x) = E_x'[kappa(x, x')]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6),
    st.integers(1, 4),
    st.integers(0, 10_000),
)
def test_inner_product_identity(P, D, seed):
    # <grad J_k, grad J_1> computed directly from the two gradient vectors vs E[w_k a]
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.01, 0.99, P)
    g = rng.normal(size=(P, D))
    pw = rng.uniform(0.1, 1, P)
    ks = np.array([1, 1.5, 3, 10])
    r = gradient_conflict(p, g, k=ks, prompt_weight=pw)
    w = pw / pw.sum()
    j1 = w @ g
    for i, k in enumerate(ks):
        jk = (w * k * (1 - p) ** (k - 1)) @ g
        assert r.inner[i] == pytest.approx(jk @ j1, rel=1e-10, abs=1e-13)
        assert r.norm[i] == pytest.approx(np.linalg.norm(jk), rel=1e-10, abs=1e-13)
    # k*: the inner product is >= 0 just below it and < 0 just above
    if np.isfinite(r.k_star) and r.k_star > 1:
        lo = gradient_conflict(p, g, k=[r.k_star * (1 - 1e-6)], prompt_weight=pw).inner[0]
        hi = gradient_conflict(p, g, k=[r.k_star * (1 + 1e-6)], prompt_weight=pw).inner[0]
        assert lo >= -1e-12 and hi < 1e-12


def test_no_conflict_and_degenerate():
    # aligned gradients never conflict
    r = gradient_conflict([0.2, 0.7], [[1.0, 0.0], [2.0, 0.0]])
    assert r.k_star == float("inf") and (r.inner > 0).all()
    with pytest.warns(DegenerateDataWarning, match="pass@1 gradient is zero"):
        r = gradient_conflict([0.2, 0.7], [[1.0, 0.0], [-1.0, 0.0]])
    assert np.isnan(r.k_star)
    # a solved prompt (p = 1) leaves every k > 1: here the remaining prompt is negative at once
    r = gradient_conflict([1.0, 0.5], [[3.0, 0.0], [-1.0, 0.0]])
    assert r.k_star == 1.0
    d = r.to_dict()
    assert d["k_star"] == 1.0 and len(d["prompts"]) == 2
    assert list(gradient_conflict(P_TOY, G_TOY).to_frame().columns) == ["k", "inner", "cosine", "norm"]


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: gradient_conflict([0.5, 1.5], G_TOY), "`p` must be in"),
        (lambda: gradient_conflict([0.5], G_TOY), "`grads` has 2 rows"),
        (lambda: gradient_conflict(P_TOY, np.zeros((2, 2, 2))), "`grads` must have shape"),
        (lambda: gradient_conflict(P_TOY, G_TOY, k=[0.5]), "`k` must be >= 1"),
        (lambda: gradient_conflict(P_TOY, G_TOY, prompt_weight=[1.0]), "`prompt_weight` has 1"),
        (lambda: gradient_conflict(P_TOY, G_TOY, prompt_weight=[-1.0, 1.0]), "`prompt_weight` must be >= 0"),
        (lambda: pass_at_k_weights(0.5, 0), "`k` must be >= 1"),
        (lambda: conflict_toy(k=1), "`k` must be an integer >= 2"),
        (lambda: conflict_toy(anneal_at=1.0), "`anneal_at` must be in"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(PasscurveError, match=match):
        call()


def test_toy_int_seed_is_default_rng_and_is_recorded():
    """rng=7 and rng=default_rng(7) give the same curves; params records the seed for any integer (numpy's
    np.int64(7) was recorded as None: the check was isinstance(rng, int))."""
    small = {"pretrain_steps": 5, "steps": 10}
    by_int = conflict_toy(rng=np.int64(7), **small)
    by_gen = conflict_toy(rng=np.random.default_rng(7), **small)
    for run in ("pass@1", "pass@k", "annealed"):
        np.testing.assert_array_equal(by_int.pass_at_k[run], by_gen.pass_at_k[run])
        np.testing.assert_array_equal(by_int.pass_at_1[run], by_gen.pass_at_1[run])
    assert by_int.params["seed"] == 7 and type(by_int.params["seed"]) is int
    assert by_gen.params["seed"] is None


def test_toy_shows_the_conflict_and_annealing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = conflict_toy(rng=0)
    s = {row["run"]: row for row in r.summary}
    # pass@k ascent: pass@k up, pass@1 down (by a lot)
    assert s["pass@k"]["pass_at_k_after"] > s["pass@k"]["pass_at_k_before"] + 0.05
    assert s["pass@k"]["pass_at_1_after"] < s["pass@k"]["pass_at_1_before"] - 0.1
    # annealing k to 1: pass@1 back to (at least within 0.005 of) its start, pass@k above its start
    assert s["annealed"]["pass_at_1_after"] > s["annealed"]["pass_at_1_before"] - 0.005
    assert s["annealed"]["pass_at_k_after"] > s["annealed"]["pass_at_k_before"]
    # pass@1 ascent raises pass@1
    assert s["pass@1"]["pass_at_1_after"] > s["pass@1"]["pass_at_1_before"]
    # the start already has a conflict: k* between 1 and k
    assert 1 < r.conflict.k_star < r.k
    # seeded: reproducible
    r2 = conflict_toy(rng=0)
    np.testing.assert_array_equal(r.pass_at_1["annealed"], r2.pass_at_1["annealed"])
    d = r.to_dict()
    assert set(d["curves"]) == {"pass@1", "pass@k", "annealed"}
    assert len(r.to_frame()) == 3 * (r.params["steps"] + 1)
    assert len(r.plot().data) == 6


def test_toy_overflow_names_separation_and_lr():
    # separation=1e300 made the features (and so the logits) overflow: numpy's overflow warnings, then
    # "`p` contains NaN or an infinite value", about an argument the caller never gave (API sweep)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy RuntimeWarning on the way
        with pytest.raises(PasscurveError, match=r"^the toy's policy overflowed in pretraining \(success rates NaN or "
                                                 r"infinite\): `separation`=1e\+300 and `lr`=2 put the logits beyond "
                                                 r"floating point; use a smaller `separation` or `lr`$"):
            conflict_toy(easy=10, hard=5, pretrain_steps=5, steps=10, separation=1e300)


def test_toy_saturated_policy_is_said_once_naming_the_argument():
    # lr=1e300 saturated the policy in one step: numpy's "divide by zero encountered in log1p" warnings (p = 1 exactly,
    # whose limits (1 - p)^k = 0 are exact) and gradient_conflict's "the pass@1 gradient is zero", naming no argument.
    # Now one DegenerateDataWarning naming `lr` (a prompt failed surely: the step's doing) or `separation` (every
    # prompt solved: no overlap), and nothing else; the runs stay flat (the gradient is exactly 0)
    small = {"easy": 12, "hard": 4, "pretrain_steps": 5, "steps": 10}
    for kwargs, want in (({"lr": 1e300}, r"^the toy's pretraining left \d+ prompts? failed surely and \d+ solved surely "
                                         r".*`lr`=1e\+300 took steps beyond the softmax's floating-point range"),
                         ({"separation": 100.0}, r"^the toy's pretraining solved every prompt surely \(success rate "
                                                 r"exactly 1\): at `separation`=100 the easy and hard prompts do not")):
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            r = conflict_toy(rng=0, **small, **kwargs)
        assert [w.category for w in got] == [DegenerateDataWarning], [str(w.message) for w in got]
        assert re.search(want, str(got[0].message))
        for run in ("pass@1", "pass@k", "annealed"):
            assert np.all(r.pass_at_1[run] == r.pass_at_1[run][0]) and np.all(r.pass_at_k[run] == r.pass_at_k[run][0])
    # the default toy warns nothing (test_toy_shows_the_conflict_and_annealing runs it under "error")


# ---------------------------------------------------------------------------- edges (mutation testing)
def test_weights_return_kinds_and_k_checked_everywhere():
    # documented: a float when both inputs are scalars, else an array of their broadcast shape
    assert type(pass_at_k_weights(0.5, 2)) is float and pass_at_k_weights(0.5, 2) == 1.0  # 2 (1 - 0.5)
    assert pass_at_k_weights([0.5, 0.75], 3).tolist() == [0.75, 0.1875]  # 3 (1-p)^2, exact in binary
    assert pass_at_k_weights(0.5, [1, 2, 3]).tolist() == [1.0, 1.0, 0.75]
    assert pass_at_k_weights(np.array([0.5]), 2).shape == (1,)
    # every k is checked, and the message names the first one below 1
    with pytest.raises(PasscurveError, match=r"^`k` must be >= 1 \(got k=0.5\)$"):
        pass_at_k_weights(0.5, [1, 2, 0.5])


def test_cosine_kernel_of_small_and_zero_gradients():
    # cosines by definition <g_x, g_x'> / (|g_x| |g_x'|), also for gradients shorter than 1; a zero gradient has
    # cosine 0 with every prompt (documented), itself included
    g = [[0.3, 0.0], [0.0, 0.4], [0.3, 0.4], [0.0, 0.0]]
    C = prompt_kernel(g, cosine=True)
    want = [[1, 0, 0.6, 0], [0, 1, 0.8, 0], [0.6, 0.8, 1, 0], [0, 0, 0, 0]]
    np.testing.assert_allclose(C, want, rtol=1e-14, atol=1e-15)
    assert (C[3] == 0).all() and (C[:, 3] == 0).all()


def test_k_star_one_prompt_and_a_prompt_that_does_not_move():
    # one prompt never interferes with itself: <grad J_k, grad J_1> = k (1-p)^(k-1) |g|^2 > 0 at every k
    r = gradient_conflict([0.5], [[1.0]], k=[1, 4])
    assert r.k_star == float("inf")
    np.testing.assert_allclose(r.inner, [1.0, 0.5], rtol=1e-14)  # 4 (1/2)^3
    # a third prompt with a zero gradient (agreement 0) leaves the toy's k* where it was: the closed form
    # 1 + log(0.375)/log(1/9) (../shared/REFERENCE.md, Barakat et al. 2026)
    r = gradient_conflict([0.9, 0.1, 0.5], [[2.0, 0.0], [-1.0, 0.5], [0.0, 0.0]])
    assert r.agreement[2] == 0.0
    assert r.negative_fraction == pytest.approx(1 / 3, rel=1e-15)  # the prompt at a < 0, not the one at a = 0
    assert r.k_star == pytest.approx(1 + math.log(0.375) / math.log(1 / 9), rel=1e-10)


def test_grads_rows_message_counts_rows():
    with pytest.raises(PasscurveError, match=r"^`grads` has 2 rows but `p` has 1 prompts$"):
        gradient_conflict([0.5], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


def test_k_star_far_out_and_solved_prompts_drop_out():
    # two prompts, w a = (0.5, -0.1875) (the toy's gradients): <grad J_k, grad J_1> ∝ 0.5 q1^(k-1) - 0.1875 q2^(k-1)
    # turns negative at k* = 1 + log(8/3) / log(q2/q1) (closed form). With p = (0.5, 0.4995) that is k* = 982.3, where
    # (1 - p)^(k-1) is ~1e-296: scaled by the largest q the sum keeps its sign
    p = [0.5, 0.4995]
    r = gradient_conflict(p, G_TOY, k=[1])
    want = 1 + math.log(8 / 3) / (math.log1p(-p[1]) - math.log1p(-p[0]))
    assert r.k_star == pytest.approx(want, rel=1e-9) and 982 < want < 983
    # a solved prompt (p = 1) counts at k = 1 only: w a = (1/6, 2/9, -1/36) for p = (1, 0.9, 0.1), so for k > 1 the
    # sum is 2/9 0.1^(k-1) - 1/36 0.9^(k-1), negative from k* = 1 + log 8 / log 9 (closed form)
    r = gradient_conflict([1.0, 0.9, 0.1], [[0.0, 1.0], [2.0, 0.0], [-1.0, 0.5]], k=[1])
    np.testing.assert_allclose(r.agreement * r.prompt_weight, [1 / 6, 2 / 9, -1 / 36], rtol=1e-14)
    assert r.k_star == pytest.approx(1 + math.log(8) / math.log(9), rel=1e-10)
    assert gradient_conflict(P_TOY, G_TOY).kernel is None  # the P x P kernel only when asked for


def test_cosine_and_an_exact_tie_that_never_turns_negative():
    # cosine by definition: the angle between the gradient vectors grad J_k = E[w_k grad p] and grad J_1
    r = gradient_conflict(P_TOY, G_TOY, k=[1, 2, 8])
    g, p = np.array(G_TOY), np.array(P_TOY)
    j1 = g.mean(axis=0)
    for i, k in enumerate([1, 2, 8]):
        jk = (k * (1 - p) ** (k - 1) / 2) @ g
        assert r.cosine[i] == pytest.approx(jk @ j1 / (np.linalg.norm(jk) * np.linalg.norm(j1)), rel=1e-12)
    assert r.cosine[0] == pytest.approx(1.0, rel=1e-14)
    # two prompts at the same p with opposite agreement (w a = 1/3 and -1/3) beside a solved one (w a = 1): for
    # k > 1 the inner product is exactly 0, never < 0, so no k* (inf)
    r = gradient_conflict([1.0, 0.5, 0.5], [[3.0, 0.0], [1.0, 1.0], [-1.0, -1.0]], k=[1, 2, 5])
    assert r.agreement.tolist() == [3.0, 1.0, -1.0]
    assert r.inner[1:].tolist() == [0.0, 0.0] and r.k_star == float("inf")
    assert r.negative_fraction == pytest.approx(1 / 3, rel=1e-15)


def test_k_star_beyond_k_max_when_the_hardest_prompts_disagree():
    # D = 1, gradients (1, -0.1), equal weight: grad J_1 = 0.45, w a = (0.225, -0.0225). With p = (1e-6, 1e-7) the
    # inner product is ∝ 0.225 q1^(k-1) - 0.0225 q2^(k-1), positive up to k_max = 1e6 and negative from the closed form
    # k* = 1 + log(0.1) / (log q1 - log q2) = 2.56e6: the hardest prompt (smallest p) disagrees, so the limit as
    # k -> inf is negative and k* lies past the grid (it was inf, "never turns negative")
    p = [1e-6, 1e-7]
    want = 1 + math.log(0.1) / (math.log1p(-p[0]) - math.log1p(-p[1]))
    assert 2.5e6 < want < 2.6e6
    r = gradient_conflict(p, [[1.0], [-0.1]], k=[1e6, want * 0.999, want * 1.001])
    assert r.inner[0] > 0 and r.inner[1] > 0 and r.inner[2] < 0
    assert r.k_star == pytest.approx(want, rel=1e-9)
    assert gradient_conflict(p, [[1.0], [-0.1]], k_max=1e7).k_star == pytest.approx(want, rel=1e-9)  # on the grid
    # the hardest prompt agrees: the sum stays positive for every k (inf), whatever k_max
    assert gradient_conflict([1e-7, 1e-6], [[1.0], [-0.1]]).k_star == float("inf")
