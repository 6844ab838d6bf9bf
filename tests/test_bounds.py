"""Distribution-free bounds on pass_D@K (passcurve._bounds)."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

import passcurve as pc
from passcurve import PasscurveError, _bounds
from passcurve._bounds import _SLACK, _Laws, _support, constraint_grid, law_free_band, law_range


def beta_pass(a: float, b: float, K: np.ndarray) -> np.ndarray:
    """Closed form of the population pass_D@K under Beta(a, b): 1 - B(a, b + K) / B(a, b)."""
    return 1.0 - np.exp(special.betaln(a, b + K) - special.betaln(a, b))


def atoms_curve(p: np.ndarray, w: np.ndarray, K: np.ndarray) -> np.ndarray:
    """pass@K of a law with atoms p and weights w (closed form)."""
    return (w[None, :] * -np.expm1(K[:, None] * np.log1p(-p[None, :]))).sum(1)


def test_constraint_grid() -> None:
    assert constraint_grid(1).tolist() == [1]
    assert constraint_grid(7).tolist() == list(range(1, 8))
    g = constraint_grid(1000)
    assert g[0] == 1 and g[-1] == 1000 and set(range(1, 11)) <= set(g.tolist()) and np.all(np.diff(g) > 0)


def test_law_range_pins_a_known_law() -> None:
    # a band of zero width around an exact law's curve: every K in the constraint grid is pinned to the
    # law's value (within the slack), and beyond the grid the range holds the law's value
    p = np.array([0.0, 2e-3, 0.05, 0.6])
    w = np.array([0.1, 0.3, 0.4, 0.2])
    ks = constraint_grid(100)
    f = atoms_curve(p, w, ks)
    K = np.array([1, 10, 100, 1000, 10**5])
    lo, hi = law_range(ks, f, f, K)
    truth = atoms_curve(p, w, K)
    assert np.all(lo <= truth + 1e-12) and np.all(truth <= hi + 1e-12)
    inside = K <= 100
    assert np.all(hi[inside] - lo[inside] <= 4 * _SLACK + 1e-9)
    # beyond n the data do not decide: the range is wide (mass at p = 0 vs 2e-3 vs anything unseen)
    assert hi[-1] - lo[-1] > 0.05


def test_grid_interpolation_error_is_within_the_slack() -> None:
    # an atom halfway (in log p) between two support points, matched by its neighbours: the mixture's
    # curve differs by less than the slack at every k (the bound the module docstring derives, 7e-5)
    P = _support(10**4)
    u = np.log(P[1:])
    ks = np.unique(np.r_[np.arange(1, 50), np.round(np.logspace(0, 4, 200))]).astype(float)
    worst = 0.0
    for j in range(0, u.size - 1, 37):
        um = 0.5 * (u[j] + u[j + 1])
        f = lambda x: -np.expm1(ks * np.log1p(-np.exp(x)))  # noqa: E731
        worst = max(worst, float(np.abs(f(um) - 0.5 * (f(u[j]) + f(u[j + 1]))).max()))
    assert worst < 7e-5 < _SLACK


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(1e-5, 0.9), min_size=1, max_size=4),
       st.lists(st.floats(0.05, 1.0), min_size=4, max_size=4))
def test_bounds_are_monotone_in_K_and_hold_every_law(p: list[float], w: list[float]) -> None:
    # two ways to the same quantity: the LP range computed at K grid vs the closed-form pass@K of any
    # law inside the band (here the law that made the band): the law's value must lie in the range,
    # and both ends must be non-decreasing in K (pass@K is, for every law)
    pa = np.array(p)
    wa = np.array(w[: pa.size]) / np.sum(w[: pa.size])
    ks = constraint_grid(50)
    f = atoms_curve(pa, wa, ks)
    K = np.array([1, 5, 50, 200, 1000, 10**4, 10**6])
    raw: dict[tuple[int, float], float] = {}  # each linear programme's own optimum, as law_range solved it
    solve = _Laws.extreme

    def recorded(self: _Laws, kk: float, sign: float) -> float:
        raw[int(kk), sign] = value = solve(self, kk, sign)
        return value

    with patch.object(_Laws, "extreme", recorded):
        lo, hi = law_range(ks, f - 0.01, f + 0.01, K)
    truth = atoms_curve(pa, wa, K)
    assert np.all(lo <= truth + 1e-9) and np.all(truth <= hi + 1e-9)
    assert np.all(np.diff(lo) >= 0) and np.all(np.diff(hi) >= 0)
    # the running maximum that makes them so only removes the solver's tolerance-level wobble: the raw linear
    # programmes are monotone to within 1e-6 (one failing example moved by 1.04e-7). Their optima are recorded as
    # law_range solves them (solving the 14 programmes again on a new _Laws had doubled this test's time)
    raw_lo = np.array([raw[int(kk), 1.0] for kk in K])
    raw_hi = np.array([raw[int(kk), -1.0] for kk in K])
    np.testing.assert_allclose(lo, raw_lo, rtol=0, atol=1e-6)
    np.testing.assert_allclose(hi, raw_hi, rtol=0, atol=1e-6)


def test_the_hot_started_programmes_match_linprog_from_scratch() -> None:
    # two ways to the same optimum: _Laws' one HiGHS model, re-solved from its last basis as only the costs change,
    # against scipy's linprog from scratch on the same programme (the path where scipy lacks the model object).
    # They agree to the solver's tolerance (on the BoN data each is within 1.7e-8 of a 1e-10-tolerance solve), and
    # both say NaN where no law fits the band
    sub = pc.simulate(rng=0).counts.select("chat-7b")
    band = law_free_band(sub, "chat-7b", 0.8, 300, np.random.default_rng(0), True, None)
    queries = [(float(kk), sign) for kk in (1, 30, 300, 10**3, 10**5, 10**8) for sign in (1.0, -1.0)]
    hot = _Laws(*band, 10**8)
    got = np.array([hot.extreme(kk, sign) for kk, sign in queries])
    with patch.object(_bounds, "_highs", None):
        cold = _Laws(*band, 10**8)
        want = np.array([cold.extreme(kk, sign) for kk, sign in queries])
        assert cold._hot() is False
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-8)
    assert np.all(np.isfinite(got)) and got[-1] > got[-2]  # K = 10^8: the max above the min
    if _bounds._highs is not None:  # the model is kept, and the same costs again need no pivot from its basis
        assert hot._hot() is not False
        hot.extreme(10.0**8, -1.0)
        assert hot._model.getInfo().simplex_iteration_count == 0
    ks = np.array([1, 2, 5])  # a band no curve fits (low above high): infeasible on both paths
    empty = _Laws(ks, np.full(3, 0.9), np.full(3, 0.1), 100)
    assert np.isnan(empty.extreme(100.0, 1.0)) and np.isnan(empty.extreme(100.0, -1.0))
    with patch.object(_bounds, "_highs", None):
        assert np.isnan(_Laws(ks, np.full(3, 0.9), np.full(3, 0.1), 100).extreme(100.0, -1.0))


def test_a_changed_private_highs_interface_falls_back_to_linprog() -> None:
    # the hot model uses scipy's private HiGHS bindings; a method that changed (here: changeColsCost gone) makes the
    # query fall back to linprog from scratch for good, with the same optimum, instead of raising
    class Changed:
        def changeColsCost(self, *args: object) -> None:
            raise AttributeError("changeColsCost")

    sub = pc.simulate(rng=0).counts.select("chat-7b")
    band = law_free_band(sub, "chat-7b", 0.8, 300, np.random.default_rng(0), True, None)
    laws = _Laws(*band, 10**6)
    laws._model = Changed()
    got = laws.extreme(1e6, -1.0)
    assert laws._model is False
    with patch.object(_bounds, "_highs", None):
        assert got == _Laws(*band, 10**6).extreme(1e6, -1.0)


def test_coverage_under_a_beta_and_a_non_beta_law() -> None:
    # the truth is the population pass_D@K of the law the problems were drawn from (closed forms);
    # a 95% distribution-free range must hold it in nearly every replicate, Beta or not
    K = np.array([20, 60, 200, 2000])
    gen = np.random.default_rng(11)
    missed = 0
    runs = 0
    for law in ("beta", "two groups"):
        for _ in range(10):
            if law == "beta":
                p = gen.beta(0.3, 3.0, 300)
                truth = beta_pass(0.3, 3.0, K)
            else:  # 20% impossible, 30% at p = 0.004, 50% at p = 0.3
                grp = gen.choice(3, 300, p=[0.2, 0.3, 0.5])
                p = np.array([0.0, 0.004, 0.3])[grp]
                truth = atoms_curve(np.array([0.0, 0.004, 0.3]), np.array([0.2, 0.3, 0.5]), K)
            counts = pc.Counts.from_arrays(np.full(300, 20), gen.binomial(20, p))
            res = pc.extrapolation_bounds(counts, K, n_resamples=500, rng=1)
            runs += 1
            missed += int(np.any((truth < res.low[0] - 1e-12) | (truth > res.high[0] + 1e-12)))
            assert np.all(res.low[0] <= res.high[0])
    assert missed <= 2, f"{missed} of {runs} ranges missed the truth"


def test_observed_and_shape_of_the_result() -> None:
    gen = np.random.default_rng(0)
    n = np.r_[np.full(40, 30), np.full(40, 50)]
    c = gen.binomial(n, gen.beta(0.5, 4.0, n.size))
    counts = pc.Counts.from_arrays(n, c, model=["a"] * 40 + ["b"] * 40)
    res = pc.extrapolation_bounds(counts, [10, 30, 50, 500], n_resamples=200, rng=0)
    assert res.low.shape == (2, 4) and res.models == ("a", "b")
    obs_a = pc.curve(counts.select("a"), [10, 30]).values["pass_at_k"][0]
    np.testing.assert_allclose(res.observed[0, :2], obs_a, rtol=0, atol=1e-15)
    assert np.isnan(res.observed[0, 2:]).all()  # model a ends at its own n = 30
    assert np.isfinite(res.observed[1, :3]).all() and np.isnan(res.observed[1, 3])
    assert res.constraints[0][-1] == 30 and res.constraints[1][-1] == 50
    inside = np.isfinite(res.observed)
    assert np.all((res.low[inside] <= res.observed[inside]) & (res.observed[inside] <= res.high[inside]))
    d = res.to_dict()
    assert len(d["bounds"]) == 8 and d["confidence_level"] == 0.95
    # each row says its band's level (0.95 here, 0.8 for forecast's intervals: second user review)
    assert list(res.to_frame().columns) == ["model", "k", "low", "high", "observed", "confidence_level"]
    assert (res.to_frame()["confidence_level"] == 0.95).all()
    assert len(res.plot().data) == 2


def test_each_model_alone_gives_the_same_bounds() -> None:
    gen = np.random.default_rng(3)
    n = np.full(120, 25)
    c = gen.binomial(n, gen.beta(0.4, 3.0, 120))
    both = pc.Counts.from_arrays(n, c, model=["x"] * 60 + ["y"] * 60)
    res = pc.extrapolation_bounds(both, [25, 250], n_resamples=200, rng=5)
    alone = pc.extrapolation_bounds(both.select("y"), [25, 250], n_resamples=200, rng=5)
    np.testing.assert_array_equal(res.low[1], alone.low[0])
    np.testing.assert_array_equal(res.high[1], alone.high[0])


def test_stop_at_success_design_runs_to_its_largest_estimable_k() -> None:
    gen = np.random.default_rng(4)
    p = gen.beta(0.5, 5.0, 150)
    design = pc.StopAtSuccess(batch=10, cap=200)
    n = np.zeros(150, int)
    c = np.zeros(150, int)
    for i in range(150):  # batches of 10 until a batch has a success, at most 200 samples
        while n[i] < 200 and c[i] == 0:
            c[i] += gen.binomial(10, p[i])
            n[i] += 10
    counts = pc.Counts.from_arrays(n, c)
    res = pc.extrapolation_bounds(counts, [10, 200, 2000], n_resamples=200, rng=0, design=design)
    assert res.constraints[0][-1] == design.k_max(counts.n, counts.c)
    assert np.all(res.low[0] <= res.high[0])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "`k`"),
        ({"k": [10], "confidence_level": 1.5}, "`confidence_level`"),
        ({"k": [10], "n_resamples": 5}, "`n_resamples`"),
        ({"k": [10], "design": "stop"}, "`design`"),
        ({"k": [10], "rng": "seed"}, "`rng`"),
    ],
)
def test_bad_arguments_name_themselves(kwargs: dict, message: str) -> None:
    counts = pc.Counts.from_arrays(np.full(20, 10), np.arange(20) % 11)
    with pytest.raises(PasscurveError, match=message):
        pc.extrapolation_bounds(counts, **kwargs)


def test_not_counts_is_refused() -> None:
    with pytest.raises(PasscurveError, match="Counts"):
        pc.extrapolation_bounds([[10, 3]], [10])


def test_one_problem_gives_nan_with_a_warning_not_an_error() -> None:
    # the band over problems is undefined with one problem: nothing to constrain the law with
    counts = pc.Counts.from_arrays(np.array([100]), np.array([3]))
    with pytest.warns(pc.DegenerateDataWarning, match="no bounds"):
        res = pc.extrapolation_bounds(counts, [10, 1000], n_resamples=100, rng=0)
    assert np.isnan(res.low).all() and np.isnan(res.high).all() and res.warnings


def test_k_for_is_where_the_range_crosses_the_target() -> None:
    # two ways to the same K: the bisection of BoundsResult.k_for, and the range at K and just below it
    gen = np.random.default_rng(8)
    counts = pc.Counts.from_arrays(np.full(150, 100), gen.binomial(100, gen.beta(0.3, 8.0, 150)))
    res = pc.extrapolation_bounds(counts, [100], n_resamples=300, rng=2)
    top_low = float(res.low[0, 0])
    for t in (0.5 * top_low, min(0.97, top_low + 0.2)):
        kf = res.k_for(t)
        assert np.isfinite(kf.earliest)
        below = max(1, int(kf.earliest / 1.02))
        at = pc.extrapolation_bounds(counts, [int(kf.earliest), below], n_resamples=300, rng=2)
        high = dict(zip(at.k.tolist(), at.high[0].tolist(), strict=True))
        assert high[int(kf.earliest)] >= t
        if kf.earliest > 1:
            assert high[below] < t
    # a target the data certify within n is certain by some K <= n; one above the band's lower end at n never is
    low_t = res.k_for(0.5 * top_low)
    assert low_t.certain <= 100 and low_t.earliest <= low_t.certain
    high_t = res.k_for(min(0.97, top_low + 0.2))
    # never certain: null in JSON beside a number in earliest (it was the string "never" in a numeric field)
    assert high_t.certain == np.inf and high_t.to_dict()["certain"] is None
    assert isinstance(high_t.to_dict()["earliest"], float)
    # the result contract (API audit: BoundsKFor had only to_dict): one row, and the span drawn from earliest on
    frame = low_t.to_frame()
    assert frame.shape == (1, 5) and frame.loc[0, "earliest"] == low_t.earliest and frame.loc[0, "certain"] == low_t.certain
    xs = low_t.plot().data[0].x
    assert list(xs) == [low_t.earliest, low_t.certain]
    assert high_t.to_frame().loc[0, "certain"] == np.inf and high_t.plot().data[0].line.dash == "dot"
    assert high_t.to_frame()["certain"].dtype == np.float64


def test_k_for_arguments() -> None:
    counts = pc.Counts.from_arrays(np.full(30, 20), np.arange(30) % 5, model="m")
    res = pc.extrapolation_bounds(counts, [20], n_resamples=100, rng=0)
    with pytest.raises(PasscurveError, match="`target`"):
        res.k_for(1.2)
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'other'\); models present: m$"):
        res.k_for(0.5, "other")
    one = pc.extrapolation_bounds(pc.Counts.from_arrays(np.array([50]), np.array([2])), [50], n_resamples=100, rng=0)
    assert np.isnan(one.k_for(0.5).earliest) and one.k_for(0.5).to_dict()["earliest"] is None


def test_the_bands_few_problems_warning_is_the_bounds_own() -> None:
    # review: the band's warning escaped from inside _bounds.py ("pass_at_k: ... the interval there is the Wilson
    # bound"), pointing at the library's line, and was missing from BoundsResult.warnings and to_dict(). One problem
    # of 30 solved (once in 50): every k rests on it, so every k of the band has the few-problems bound
    import warnings

    counts = pc.Counts.from_arrays([50] * 30, [0] * 29 + [1], model=["m"] * 30)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = pc.extrapolation_bounds(counts, [1000], rng=0)
    said = [w for w in caught if issubclass(w.category, pc.DegenerateDataWarning)]
    assert len(said) == 1 and said[0].filename == __file__  # said at the caller's line
    assert str(said[0].message).startswith("model 'm': the band the bounds rest on: pass@k: the mean rests on fewer "
                                           "than 10 problems")
    assert res.warnings == (f"DegenerateDataWarning: {said[0].message}",)
    assert res.to_dict()["warnings"] == list(res.warnings)
    assert 0.0 <= res.low[0, 0] < res.high[0, 0] <= 1.0  # the bounds themselves still stand


def test_a_forecasts_bounds_name_their_models() -> None:
    # ForecastResult.bounds(models=...) kept the forecast's models found in `models`: a name it does not hold was
    # dropped without a word (an empty result), and a single name given as a string was tested letter by letter.
    # Now each name must be one of the forecast's, in the order named; one name as a string is that model. The
    # values are the same as for all models at once (one band per model, from the forecast)
    bench = pc.simulate(problems=60, n=100, rng=0)
    fc = pc.forecast(bench.counts, [1000], n_resamples=5, rng=0, flags=False)
    every = fc.bounds()
    two = fc.bounds(models=["chat-7b", "tiny-1b"])
    assert two.models == ("chat-7b", "tiny-1b")
    np.testing.assert_array_equal(two.low, every.low[[2, 0]])
    assert fc.bounds(models="large-70b").models == ("large-70b",)
    with pytest.raises(PasscurveError, match=r"^`models` must name a model present \(got 'nope'\); models present: tiny-1b"):
        fc.bounds(models=["nope"])
    # an empty selection returned bounds of no model, and a number raised "'int' object is not iterable"; both go
    # through the check of every model selection (models_rows), as Counts.select_models does
    for empty in ([], {}, np.array([])):
        with pytest.raises(PasscurveError, match=r"^`models` must name at least one model$"):
            fc.bounds(models=empty)
    with pytest.raises(PasscurveError, match=r"^`models` must be a model name or a sequence of names \(got 5\)$"):
        fc.bounds(models=5)


def test_a_k_where_the_band_is_undefined_constrains_nothing() -> None:
    # _Laws: "a k where the band is undefined (NaN) constrains nothing": the range with the band NaN at k = 3 is the
    # range without k = 3 (the same programme), and it is not NaN
    p = np.array([0.0, 2e-3, 0.05, 0.6])
    w = np.array([0.1, 0.3, 0.4, 0.2])
    ks = constraint_grid(100)
    f = atoms_curve(p, w, ks)
    K = np.array([50, 1000])
    lo_b, hi_b = f - 0.01, f + 0.01
    lo_b[2] = hi_b[2] = np.nan
    keep = np.arange(ks.size) != 2
    got = law_range(ks, lo_b, hi_b, K)
    want = law_range(ks[keep], lo_b[keep], hi_b[keep], K)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
