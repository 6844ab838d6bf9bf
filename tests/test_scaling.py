"""Least-squares power law: the paper's Tables 1-2, OLS against an independent fit, grids, slopes, bad input."""

from __future__ import annotations

import csv
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from conftest import shared_file

import passcurve as pc
from passcurve import PAPER_K_GRID, Counts, PasscurveError, default_k_grid, fit_power_law, local_slope
from passcurve._curves import mean_curve


def _load(path) -> Counts:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return Counts.from_arrays([int(r["n"]) for r in rows], [int(r["c"]) for r in rows],
                              problem=[r["problem_id"] for r in rows], model=[r["model"] for r in rows])


# ../shared/data/README.md (Schaeffer et al. 2025, arXiv 2502.17578, Table 1)
TABLE1 = {"Pythia 70M": (8.026, 0.194), "Pythia 160M": (6.591, 0.280), "Pythia 410M": (5.524, 0.286),
          "Pythia 1B": (5.452, 0.315), "Pythia 2.8B": (4.104, 0.336), "Pythia 6.9B": (4.255, 0.348),
          "Pythia 12B": (4.113, 0.370)}
# Table 2 (GPT4o Mini's a as corrected in the README)
TABLE2 = {"Claude 3.5 Opus": (2.630, 0.448), "Claude 3.5 Sonnet": (3.436, 0.312), "GPT4o": (3.639, 0.395),
          "GPT4o Mini": (3.368, 0.492), "Gemini 1.5 Flash": (6.158, 0.303), "Gemini 1.5 Pro": (6.296, 0.256)}


@pytest.mark.shared_data
def test_table1_pythia():
    res = fit_power_law(_load(shared_file("pythia_math_counts.csv")), k="paper")
    for i, m in enumerate(res.models):
        a, b = TABLE1[m]
        assert abs(res.a[i] - a) < 0.01 and abs(res.b[i] - b) < 0.01, m


@pytest.mark.shared_data
def test_table2_bon_with_paper_convention():
    counts = _load(shared_file("bon_jailbreaking_counts.csv"))
    # the unbiased convention refuses k > n (BoN problems stop early)
    with pytest.raises(PasscurveError, match="convention='chen'"):
        fit_power_law(counts, k="paper")
    res = fit_power_law(counts, k="paper", convention="chen")
    for i, m in enumerate(res.models):
        if m in TABLE2:
            a, b = TABLE2[m]
            assert abs(res.a[i] - a) < 0.01 and abs(res.b[i] - b) < 0.01, m


def _exact_floor_root(n: int, i: int, m: int) -> int:
    """floor(n^(i/m)) in exact integer arithmetic: the largest j with j^m <= n^i."""
    target = n**i
    j = int(round(n ** (i / m)))
    while j**m > target:
        j -= 1
    while (j + 1) ** m <= target:
        j += 1
    return j


def test_default_grid_is_the_exact_floors_and_ends_at_n():
    # oracle: exact integer arithmetic; logspace's 10^log10(8) = 7.999999999999998 used to drop n = 8 (and 40,
    # 50, ... 8,963 of the n up to 20,000) from the grid, and some interior integers with it
    for n in [*range(1, 130), 200, 500, 999, 1000, 1024, 4096, 9999, 10_000, 10_020]:
        want = np.unique([_exact_floor_root(n, i, 99) for i in range(100)])
        np.testing.assert_array_equal(default_k_grid(n), want, err_msg=str(n))
    assert all(default_k_grid(n)[-1] == n for n in range(1, 20_001))


def test_ols_matches_independent_polyfit_and_grid():
    rng = np.random.default_rng(0)
    n = np.full(200, 500)
    c = rng.binomial(n, rng.beta(0.3, 4.0, 200))
    res = fit_power_law(Counts.from_arrays(n, c))
    ks = np.unique([_exact_floor_root(500, i, 99) for i in range(100)])  # the exact floors of 500^(i/99)
    np.testing.assert_array_equal(res.k[0], ks)
    np.testing.assert_array_equal(default_k_grid(500), ks)
    y = np.log(-np.log(mean_curve(n, c, ks)[0]))
    slope, icpt = np.polyfit(np.log(ks), y, 1)
    assert res.b[0] == pytest.approx(-slope, rel=1e-10)
    assert res.a[0] == pytest.approx(np.exp(icpt), rel=1e-10)
    np.testing.assert_allclose(res.predict([10, 100]), np.exp(-res.a[:, None] * np.array([10, 100]) ** -res.b[:, None]))
    assert 0.9 < res.r2[0] <= 1
    d = res.to_dict()["power_laws"][0]
    assert d["points"] == ks.size and d["k_max"] == ks[-1]
    assert len(res.to_frame()) == 1 and res.plot().data


def test_chen_convention_counts_stopped_problems_as_solved():
    # two problems: one stopped at n=3 after its success, one unsolved at n=10. At k=5 > 3 the Codex
    # implementation returns 1 for the first (n - c < k) and 1 - C(10,5)/C(10,5) = 0 for the second.
    counts = Counts.from_arrays([3, 10], [1, 0])
    res = fit_power_law(counts, k=[1, 5], convention="chen")
    assert res.pass_at_k[0][1] == pytest.approx(0.5)
    assert res.pass_at_k[0][0] == pytest.approx((1 / 3 + 0) / 2)


def test_local_slope_of_exact_power_law_is_constant():
    k = np.unique(np.logspace(0, 4, 60).astype(int)).astype(float)
    p = np.exp(-3.0 * k**-0.4)
    kk, s = local_slope(k, p)
    np.testing.assert_allclose(s, 0.4, rtol=1e-6)


def test_plot_of_an_unsolved_benchmark_leaks_no_runtime_warning():
    # pass_D@k = 0 everywhere: -log 0 has no point on the plot (it was a numpy divide-by-zero warning)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.PasscurveWarning)
        warnings.simplefilter("error", RuntimeWarning)
        res = fit_power_law(Counts.from_arrays([10] * 8, [0] * 8))
        fig = res.plot()
    assert np.isnan(np.asarray(fig.data[0].y, dtype=float)).all()


def test_paper_grid_is_the_readme_grid():
    assert PAPER_K_GRID.size == 101 and PAPER_K_GRID[0] == 1 and PAPER_K_GRID[-1] == 10000


def test_bad_input():
    counts = Counts.from_arrays([10, 10], [1, 2])
    with pytest.raises(PasscurveError, match="`convention`"):
        fit_power_law(counts, convention="codex")
    with pytest.raises(PasscurveError, match="at least two"):
        fit_power_law(counts, k=[3])
    with pytest.raises(PasscurveError, match="`counts`"):
        fit_power_law([1, 2])
    with pytest.raises(PasscurveError, match="`k` must be <="):
        fit_power_law(counts, k=[1, 20])


def _law(a: float, b: float):
    from passcurve._scaling import PowerLawResult

    return PowerLawResult(models=("m",), a=np.array([a]), b=np.array([b]), a_se=np.array([np.nan]),
                          b_se=np.array([np.nan]), r2=np.array([1.0]), k=(np.array([1, 10]),),
                          pass_at_k=(np.array([0.1, 0.5]),))


@pytest.mark.parametrize("a,b", [TABLE1["Pythia 12B"], TABLE1["Pythia 70M"], TABLE2["Gemini 1.5 Flash"], (12.0, 0.3), (0.5, 0.3),
                                 (3.0, 0.3)])
def test_concave_from_is_where_the_fitted_curve_stops_being_convex(a, b):
    # closed form: f'' of exp(-a k^-b) changes sign where a b k^-b = 1 + b; checked here against the sign of
    # the law's second differences (an independent, numerical route); the fitted pass@k there is e^-(1+b)/b
    law = _law(a, b)
    ks = float(law.concave_from[0])
    if a * b <= 1 + b:
        assert ks == 1.0
        k = np.arange(1.0, 200.0)
        assert np.all(np.diff(law.predict(k, "m"), 2) < 0)
        return
    assert law.predict([ks], "m")[0] == pytest.approx(np.exp(-(1 + b) / b), rel=1e-9)
    h = ks * 1e-3
    f = lambda x: law.predict(np.array([x - h, x, x + h]), "m")  # noqa: E731
    assert np.diff(f(ks * 0.8), 2)[0] > 0 and np.diff(f(ks * 1.25), 2)[0] < 0
    assert law.to_dict()["power_laws"][0]["concave_from"] == pytest.approx(ks)


def test_concave_from_of_paper_table1_fits():
    # (4.113 * 0.370 / 1.370)^(1/0.370) = 1.33 (arithmetic on the paper's Table 1 fit): the 12B law is a
    # possible curve from k = 2 on; Pythia 70M's (8.026, 0.194): (8.026 * 0.194 / 1.194)^(1/0.194) = 3.93
    assert float(_law(4.113, 0.370).concave_from[0]) == pytest.approx((4.113 * 0.370 / 1.370) ** (1 / 0.370))
    assert 1.3 < float(_law(4.113, 0.370).concave_from[0]) < 1.4
    assert 3.9 < float(_law(8.026, 0.194).concave_from[0]) < 4.0


def test_two_point_power_law_has_no_r2_or_standard_errors():
    # n = 2: the default grid is k = 1, 2, and a line through two points fits exactly; R² = 1 would say nothing
    from passcurve import Counts

    cnt = Counts.from_arrays(np.full(50, 2), np.r_[np.zeros(30, int), np.ones(15, int), np.full(5, 2)])
    with pytest.warns(pc.DegenerateDataWarning, match="line through 2 points"):
        res = fit_power_law(cnt)
    assert np.isfinite(res.a[0]) and np.isfinite(res.b[0])
    assert np.isnan(res.r2[0]) and np.isnan(res.a_se[0]) and np.isnan(res.b_se[0])
    assert any("line through 2 points" in w for w in res.warnings)
    # the line passes through both points exactly (closed form: pass@1 = 0.25, pass@2 = 1 - 30/50 = 0.4)
    np.testing.assert_allclose(res.predict(np.array([1.0, 2.0]))[0], [0.25, 0.4], rtol=1e-12)


def test_power_law_that_cannot_be_fitted_warns_as_every_result_does():
    # a model whose pass@k is 0 at every k (nothing solved), 1 at every k (everything solved at k = 1), or has one k
    # only (n = 1): the reason was kept in `.warnings` as "model 'x': ..." and never emitted, where every other
    # result emits its notes and keeps them as "Category: message" (record_warning; API fuzz, session 32)
    from passcurve import Counts, DegenerateDataWarning

    cases = {"none": ([10] * 3, [0] * 3, "pass_D@k is 0 or 1 at 10 of its 10 points"),
             "all": ([10] * 3, [10] * 3, "pass_D@k is 0 or 1 at 10 of its 10 points"),
             "one k": ([1] * 4, [0, 1, 0, 0], r"the grid has 1 point \(k up to the smallest n, 1\)")}
    for name, (n, c, why) in cases.items():
        with pytest.warns(DegenerateDataWarning, match=rf"^model '{name}': {why}; a power law needs 2 points") as rec:
            res = fit_power_law(Counts.from_arrays(n, c, model=[name] * len(n)))
        assert np.isnan(res.a[0]) and np.isnan(res.b[0])
        assert [f"DegenerateDataWarning: {w.message}" for w in rec] == list(res.warnings)
        assert res._notes(name) == [str(rec[0].message).removeprefix(f"model {name!r}: ")]
    # a fit on part of the grid says so the same way
    with pytest.warns(DegenerateDataWarning, match=r"^model 'arrays': 3 grid points with pass_D@k in \{0, 1\}"):
        res = fit_power_law(Counts.from_arrays([10] * 2, [3, 9]), [1, 2, 3, 5, 8, 9, 10])
    assert res.warnings[0].startswith("DegenerateDataWarning: model 'arrays': 3 grid points")


def test_points_where_the_curve_has_reached_one_stay_out_under_weights():
    # At k = 8, 9, 10 every problem has n - c < k: pass_D@k is exactly 1 and those points carry no information.
    # With non-dyadic weights the weighted mean of pass@k rounded to 1 - 1 ulp, log(-log) gave y = -36.7, and the
    # fit read a = 5383, b = 18 (numerics audit). Oracle: OLS on the exact rational curve at k = 1, 2, 3, 5.
    w = [1.5, 1.17, 0.7, 0.49, 1.95]
    n, c = [10] * 5, [3, 9, 9, 9, 9]
    with pytest.warns(pc.DegenerateDataWarning, match="3 grid points"):
        res = fit_power_law(Counts.from_arrays(n, c, weight=w), [1, 2, 3, 5, 8, 9, 10])
    ks = [1, 2, 3, 5]
    exact = [1 - sum(Fraction(wi) * Fraction(comb(10 - ci, k), comb(10, k)) for ci, wi in zip(c, w, strict=True))
             / sum(Fraction(wi) for wi in w) for k in ks]
    slope, icpt = np.polyfit(np.log(ks), np.log(-np.log([float(v) for v in exact])), 1)
    assert res.b[0] == pytest.approx(-slope, rel=1e-9) and res.a[0] == pytest.approx(np.exp(icpt), rel=1e-9)
    assert "3 grid points" in res.warnings[0]


def test_local_slope_needs_increasing_one_dimensional_k():
    # np.gradient takes each k's neighbours in the order given: k = 1, 4, 2, 8 returned b = 0.370 at k = 4, where the
    # same points in order give 0.406; a repeated k divided by zero (numpy's RuntimeWarning) and a 2-d k was flattened
    # (API sweep)
    y = [0.1, 0.2, 0.3, 0.4]
    with pytest.raises(PasscurveError, match=r"^`k` must be strictly increasing \(got k=2 after k=4\)$"):
        local_slope([1, 4, 2, 8], [0.1, 0.3, 0.2, 0.4])
    with pytest.raises(PasscurveError, match=r"^`k` must be strictly increasing \(got k=2 after k=2\)$"):
        local_slope([1, 2, 2, 8], y)
    with pytest.raises(PasscurveError, match=r"^`k` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$"):
        local_slope([[1, 2], [4, 8]], y)
    with pytest.raises(PasscurveError, match=r"^`pass_at_k` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$"):
        local_slope([1, 2, 4, 8], [[0.1, 0.2], [0.3, 0.4]])
    # the first point's one-sided difference, by hand: (log(-log 0.2) - log(-log 0.1)) / log 2
    kk, b = local_slope([1, 2, 4, 8], y)
    assert kk.tolist() == [1, 2, 4, 8]
    assert b[0] == pytest.approx(-(np.log(-np.log(0.2)) - np.log(-np.log(0.1))) / np.log(2), rel=1e-12)


def test_an_r2_below_one_is_never_written_one():
    # fit's title and the report's label write a, b and R² with 4 significant digits; 0.99995397 (the demo
    # simulator at n = 10, seed 3, large-70b) rounded to 'R²=1', which reads as a line through every point. Now
    # written as the forecast's plateaus are (fmt_below_one: two significant digits of 1 - R², by hand 4.6e-5 ->
    # 6 decimals); an R² that 4 digits do not round to 1 keeps them, and an exact 1 stays '1'
    import dataclasses

    pl = fit_power_law(Counts.from_arrays([200] * 6, [1, 3, 10, 30, 90, 150], model="m"))
    said = {v: dataclasses.replace(pl, r2=np.array([v]))._law_numbers(0)[2]
            for v in (0.99995397, 0.999999, 0.9996748, 1.0)}
    assert said == {0.99995397: "0.999954", 0.999999: "0.9999990", 0.9996748: "0.9997", 1.0: "1"}


def test_standard_errors_and_r2_are_the_closed_form_ols():
    # reference: the textbook closed form of simple regression on the same points (Sxx, Sxy; s² = SSR/(m-2),
    # se(slope)² = s²/Sxx, se(intercept)² = s²(1/m + x̄²/Sxx), R² = 1 - SSR/Syy), a se of a = e^intercept by the
    # delta method, and numpy.polyfit(cov=True) (its covariance is s²(XᵀX)⁻¹ with the same m - 2) as a second route
    rng = np.random.default_rng(1)
    n = np.full(150, 64)
    c = rng.binomial(n, rng.beta(0.4, 3.0, 150))
    res = fit_power_law(Counts.from_arrays(n, c))
    ks = default_k_grid(64)
    x, y = np.log(ks), np.log(-np.log(mean_curve(n, c, ks)[0]))
    assert np.isfinite(y).all() and x.size == res.k[0].size
    m, xb, yb = x.size, x.mean(), y.mean()
    sxx, sxy, syy = ((x - xb) ** 2).sum(), ((x - xb) * (y - yb)).sum(), ((y - yb) ** 2).sum()
    slope = sxy / sxx
    icpt = yb - slope * xb
    ssr = ((y - icpt - slope * x) ** 2).sum()
    s2 = ssr / (m - 2)
    assert res.b[0] == pytest.approx(-slope, rel=1e-10) and res.a[0] == pytest.approx(np.exp(icpt), rel=1e-10)
    assert res.b_se[0] == pytest.approx(np.sqrt(s2 / sxx), rel=1e-8)
    assert res.a_se[0] == pytest.approx(np.exp(icpt) * np.sqrt(s2 * (1 / m + xb**2 / sxx)), rel=1e-8)
    assert res.r2[0] == pytest.approx(1 - ssr / syy, rel=1e-10)
    _, cov = np.polyfit(x, y, 1, cov=True)
    assert res.b_se[0] == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-8)
    assert res.a_se[0] == pytest.approx(np.exp(icpt) * np.sqrt(cov[1, 1]), rel=1e-8)


def test_flat_curve_is_a_zero_exponent_with_no_r2():
    # one problem always solved, one never: pass_D@k = 1/2 at every k (closed form), so -log pass_D@k = ln 2 k^0:
    # a = ln 2, b = 0, the points lie on the line (standard errors 0) and R² = 1 - 0/0 is undefined (NaN, no error)
    res = fit_power_law(Counts.from_arrays([10, 10], [10, 0]))
    np.testing.assert_allclose(res.pass_at_k[0], 0.5, rtol=1e-15)
    assert res.a[0] == pytest.approx(np.log(2), rel=1e-12) and abs(res.b[0]) < 1e-12
    assert abs(res.a_se[0]) < 1e-12 and abs(res.b_se[0]) < 1e-12
    assert np.isnan(res.r2[0]) and res.warnings == ()


def test_unbiased_grid_is_bounded_by_the_smallest_n():
    # problems with n = 5 and n = 10: pass@k for k = 6..10 has no unbiased estimate on the first, so k=8 is refused
    # with the smallest n named; the default grid stops at the smallest n (5), not the largest
    counts = Counts.from_arrays([5, 10], [1, 2])
    with pytest.raises(PasscurveError, match=r"^`k` must be <= the smallest n \(5\) with convention='unbiased' "
                       r"\(got k=8\)"):
        fit_power_law(counts, k=[1, 8])
    res = fit_power_law(counts)
    np.testing.assert_array_equal(res.k[0], [1, 2, 3, 4, 5])
    # closed form at k = 1: (1/5 + 2/10) / 2
    assert res.pass_at_k[0][0] == pytest.approx(0.2)


def test_stop_design_fits_the_stopping_time_curve_up_to_the_unsolved_stop():
    # batch 1, no cap: each solved problem's n is its first success, two problems stopped unsolved at n = 20, so
    # pass_D@k for k <= 20 is the share of problems solved within k attempts (by hand: 2/11 at k = 1, 9/11 from
    # k = 12), the grid is default_k_grid(20) (the smallest unsolved stop), and the law is OLS of log(-log) on
    # log k (reference: numpy.polyfit on the brute-force shares)
    n = np.array([1, 1, 2, 3, 3, 5, 7, 8, 12, 20, 20])
    c = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0])
    res = fit_power_law(Counts.from_arrays(n, c), design=pc.StopAtSuccess(batch=1))
    ks = np.arange(1, 21)
    np.testing.assert_array_equal(res.k[0], ks)
    share = np.array([(n[c > 0] <= k).sum() / n.size for k in ks])
    assert share[0] == pytest.approx(2 / 11) and share[-1] == pytest.approx(9 / 11)
    np.testing.assert_allclose(res.pass_at_k[0], share, rtol=1e-13)
    slope, icpt = np.polyfit(np.log(ks), np.log(-np.log(share)), 1)
    assert res.b[0] == pytest.approx(-slope, rel=1e-10) and res.a[0] == pytest.approx(np.exp(icpt), rel=1e-10)
    assert res.convention == "stop at success (batch 1)"


def test_chen_convention_at_k_equal_to_n_minus_c_is_still_the_estimator():
    # (3, 1) at k = 2 = n - c: 1 - C(2,2)/C(3,2) = 2/3 (the Codex code returns 1.0 only when n - c < k); (10, 0): 0
    res = fit_power_law(Counts.from_arrays([3, 10], [1, 0]), k=[1, 2, 5], convention="chen")
    np.testing.assert_allclose(res.pass_at_k[0], [(1 / 3) / 2, (2 / 3) / 2, 1 / 2], rtol=1e-12)


def test_three_point_fit_has_its_r2_and_standard_errors():
    # n = 3: the grid is k = 1, 2, 3, the smallest fit with a residual (m - 2 = 1); reference: the closed form on
    # the exact curve pass@k = 1 - C(3-c, k)/C(3, k) averaged over c = 0, 1, 3
    c = [0, 1, 3]
    res = fit_power_law(Counts.from_arrays([3, 3, 3], c))
    p = np.array([np.mean([1 - comb(3 - ci, k) / comb(3, k) for ci in c]) for k in (1, 2, 3)])
    np.testing.assert_allclose(p, [4 / 9, 5 / 9, 2 / 3])  # by hand: (0 + 1/3 + 1)/3, (0 + 2/3 + 1)/3, (0 + 1 + 1)/3
    x, y = np.log([1.0, 2.0, 3.0]), np.log(-np.log(p))
    sxx = ((x - x.mean()) ** 2).sum()
    slope = ((x - x.mean()) * (y - y.mean())).sum() / sxx
    ssr = ((y - y.mean() - slope * (x - x.mean())) ** 2).sum()
    assert res.b[0] == pytest.approx(-slope, rel=1e-10)
    assert res.r2[0] == pytest.approx(1 - ssr / ((y - y.mean()) ** 2).sum(), rel=1e-10)
    assert res.b_se[0] == pytest.approx(np.sqrt(ssr / 1 / sxx), rel=1e-8)


def test_local_slope_on_three_points_and_left_out_nan():
    # three points on log k = 0, ln 2, 2 ln 2 (even spacing h = ln 2): numpy.gradient's central difference in the
    # middle is (y2 - y0)/(2h), one-sided at the ends, by hand; a NaN pass@k (a k with no estimate) is left out as
    # 0 and 1 are, and two points left give NaN slopes
    y = np.log(-np.log([0.1, 0.3, 0.6]))
    kk, b = local_slope([1, 2, 4], [0.1, 0.3, 0.6])
    h = np.log(2)
    np.testing.assert_allclose(b, [-(y[1] - y[0]) / h, -(y[2] - y[0]) / (2 * h), -(y[2] - y[1]) / h], rtol=1e-12)
    kk2, b2 = local_slope([1, 2, 3, 4, 5], [0.1, 0.3, np.nan, 0.6, 1.0])
    assert kk2.tolist() == [1, 2, 4]
    np.testing.assert_allclose(b2, b, rtol=1e-12)
    kk3, b3 = local_slope([1, 2, 3], [0.0, 0.3, 0.6])
    assert kk3.tolist() == [2, 3] and np.isnan(b3).all()


def test_unfittable_and_partial_grids_count_their_points():
    # (10, 3) and (10, 9): pass@k = 1 once k > n - c = 1 for the second and 7 for the first, so k = 8, 9 are 1; the
    # warnings count the points left out (by hand: 2 of 3, 1 of 2, and 1 left out of 1, 2, 8)
    cn = Counts.from_arrays([10, 10], [3, 9])
    with pytest.warns(pc.DegenerateDataWarning, match=r"pass_D@k is 0 or 1 at 2 of its 3 points; a power law"):
        fit_power_law(cn, k=[1, 8, 9])
    with pytest.warns(pc.DegenerateDataWarning, match=r"pass_D@k is 0 or 1 at 1 of its 2 points; a power law"):
        fit_power_law(cn, k=[1, 8])
    with pytest.warns(pc.DegenerateDataWarning):
        res = fit_power_law(cn, k=[1, 2, 8])
    assert res.warnings[0] == ("DegenerateDataWarning: model 'arrays': 1 grid point with pass_D@k in {0, 1} was "
                               "left out")


def test_k_is_a_grid_or_the_word_paper():
    # a string other than "paper" is refused (it is not the paper's grid) and a bad convention is named with its choices
    cn = Counts.from_arrays([10, 10], [3, 9])
    with pytest.raises(PasscurveError, match=r'^`k` must be a sequence of integers or "paper" \(got \'papers\'\)$'):
        fit_power_law(cn, k="papers")
    with pytest.raises(PasscurveError, match=r'^`convention` must be "unbiased" or "chen" \(got \'codex\'\)$'):
        fit_power_law(cn, convention="codex")
