"""Deviation flags (passcurve._deviation): the stopping-time thresholds and the local-exponent windows, against the
rules the module docstring states."""

from __future__ import annotations

import numpy as np
import pytest

from passcurve import Counts, check_deviations
from passcurve._scaling import _curve_values, default_k_grid, local_slope


def _stopping(n: list[int], c: list[int]) -> tuple[bool, dict]:
    rep = check_deviations(Counts.from_arrays(n, c, model="m"), emit=False)
    flagged = "StoppingTimeWarning" in [f for f, _ in rep.flags["m"]]
    return flagged, rep.evidence["m"]["stopping_time"]


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
def test_stopping_time_thresholds():
    # the rule (module docstring): at least 5 problems, and 10%, stopped below the largest n; >= 95% of those solved;
    # their median c <= 2. Ten problems drawn to n = 100 (a few unsolved), the rest stopped early
    full_n, full_c = [100] * 10, [0, 0, 3, 10, 40, 55, 70, 90, 5, 1]
    flagged, ev = _stopping(full_n + [3, 5, 7, 2, 4], full_c + [1, 2, 2, 1, 2])  # 5 stopped, median c = 2
    assert flagged and ev["rows_below_max_n"] == 5 and ev["median_c_below_max_n"] == 2.0
    flagged, ev = _stopping(full_n + [3, 5, 7, 2], full_c + [1, 2, 2, 1])  # 4 stopped: too few to judge
    assert not flagged and ev["rows_below_max_n"] == 4 and "frac_below_max_n_solved" not in ev
    flagged, ev = _stopping(full_n + [3, 5, 7, 2, 4], full_c + [1, 3, 3, 1, 3])  # median c = 3
    assert not flagged and ev["median_c_below_max_n"] == 3.0
    # 10% of the problems: 5 stopped of 65 (7.7%) is not judged, 7 of 70 is
    flagged, ev = _stopping([100] * 60 + [3] * 5, [0, 5] * 30 + [1] * 5)
    assert not flagged and "frac_below_max_n_solved" not in ev
    flagged, ev = _stopping([100] * 63 + [3] * 7, [0, 5, 7] * 21 + [1] * 7)
    assert flagged
    # solved: 19 of 20 stopped problems (95%) is a stopping time, 18 of 20 (90%) is not
    flagged, ev = _stopping(full_n + [4] * 20, full_c + [1] * 19 + [0])
    assert flagged and ev["frac_below_max_n_solved"] == 0.95
    flagged, ev = _stopping(full_n + [4] * 20, full_c + [1] * 18 + [0] * 2)
    assert not flagged and ev["frac_below_max_n_solved"] == 0.9


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
def test_local_exponent_windows_and_varying_n():
    # the evidence's exponents are medians of the local slopes over the windows the docstring names: k in [1, 10],
    # the top decade (k >= n/10) and the top fifth of log k (log k >= 0.8 log n), on the Chen curve when n varies.
    # n varies here without being a stopping time (the short problems are mostly unsolved): the curve is Chen's
    # convention (an 'unbiased' curve stops at the smallest n and raised beyond it)
    rng = np.random.default_rng(5)
    p = rng.beta(0.4, 3.0, 300)
    n = np.where(np.arange(300) < 60, 40, 400)
    c = rng.binomial(n, p)
    c[:60] = np.where(np.arange(60) % 3 == 0, c[:60], 0)
    rep = check_deviations(Counts.from_arrays(n, c, model="m"), emit=False)
    ev = rep.evidence["m"]
    assert not ev["stopping_time"]["looks_like_stopping_time"]
    ks = default_k_grid(400)
    kk, sl = local_slope(ks, _curve_values(n, c, ks, "chen"))
    assert ev["local_slope_k1_10"] == np.median(sl[(kk >= 1) & (kk <= 10)])
    assert ev["local_slope_top_decade"] == np.median(sl[kk >= 40])
    assert ev["local_slope_top_fifth"] == np.median(sl[np.log(kk) >= 0.8 * np.log(400)])
    # fixed n: the unbiased curve
    rep = check_deviations(Counts.from_arrays(n[60:], c[60:], model="m"), emit=False)
    kk, sl = local_slope(ks, _curve_values(n[60:], c[60:], ks, "unbiased"))
    assert rep.evidence["m"]["local_slope_top_decade"] == np.median(sl[kk >= 40])


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
def test_no_heavy_tail_flag_at_its_threshold():
    # every problem solved (p >= 0.01): the top-decade exponent is 2.1 times the one over k <= 10, above the rule's
    # 1.5 (module docstring), so the flag is raised
    rng = np.random.default_rng(4)
    p = 0.01 + 0.99 * rng.beta(0.5, 3.0, 200)
    n = np.full(200, 200)
    c = rng.binomial(n, p)
    rep = check_deviations(Counts.from_arrays(n, c, model="m"), emit=False)
    ev = rep.evidence["m"]
    assert ev["all_solved"] and 2.0 < ev["local_slope_top_decade"] / ev["local_slope_k1_10"] < 2.2
    assert [f for f, _ in rep.flags["m"]] == ["NoHeavyTailWarning"]


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
@pytest.mark.parametrize("seed", [0, 2])
def test_zero_inflation_p_value_is_the_boundary_corrected_chi2(seed):
    # p = 1/2 P(chi2_1 > LR), LR = 2 (loglik of the zero-inflated Beta - loglik of the Beta) (module docstring;
    # 1/2 because the point mass sits on its boundary under the null): a large LR (seed 0) and one below 1 (seed 2)
    from scipy import stats

    from passcurve._difficulty import BetaBinomial, ZeroInflatedBetaBinomial

    rng = np.random.default_rng(seed)
    n = np.full(120, 30)
    c = rng.binomial(n, rng.beta(0.6, 4.0, 120))
    cnt = Counts.from_arrays(n, c, model="m")
    ev = check_deviations(cnt, emit=False).evidence["m"]
    lr = 2 * (ZeroInflatedBetaBinomial().fit(cnt).loglik_ - BetaBinomial().fit(cnt).loglik_)
    assert (lr > 1) if seed == 0 else (0 < lr < 1)
    assert ev["zi_lr_p_value"] == pytest.approx(0.5 * stats.chi2.sf(lr, 1), rel=1e-9)


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
@pytest.mark.parametrize("seed,flagged", [(0, False), (36, True)])
def test_impossible_mass_flag_at_the_p_value_threshold(seed, flagged):
    # 6% impossible problems among Beta(0.6, 4) ones, 120 problems of n = 30: the likelihood-ratio p-value lands
    # just above 0.01 (seed 0: 0.0102) and just below it (seed 36: 0.0091), with a point mass of over 20% both times;
    # the rule is p < 0.01 and mass >= 1% (module docstring), and neither curve has a plateau
    rng = np.random.default_rng(seed)
    p = np.where(rng.random(120) < 0.06, 0.0, rng.beta(0.6, 4.0, 120))
    n = np.full(120, 30)
    c = rng.binomial(n, p)
    rep = check_deviations(Counts.from_arrays(n, c, model="m"), emit=False)
    ev = rep.evidence["m"]
    assert (ev["zi_lr_p_value"] < 0.01) == flagged and 0.009 < ev["zi_lr_p_value"] < 0.011
    assert ev["zi_impossible_mass"] > 0.2
    assert not ev["local_slope_top_fifth"] < 0.25 * ev["local_slope_k1_10"]  # no plateau
    assert ("ImpossibleMassWarning" in [f for f, _ in rep.flags["m"]]) == flagged


@pytest.mark.filterwarnings("ignore::passcurve.PasscurveWarning")
def test_the_readers_stopping_evidence_is_used_and_the_warning_is_said_at_the_caller():
    # fixed n = 20 looks like no stopping time from the counts alone; the reader's evidence in meta says it is one
    # (module docstring: that evidence is used when present), and the flag is warned at the caller's line
    import warnings

    from passcurve import StoppingTimeWarning

    n, c = [20] * 12, [0, 1, 2, 3, 5, 8, 13, 1, 0, 2, 4, 6]
    said = {"looks_like_stopping_time": True, "rows_below_max_n": 9}
    cnt = Counts.from_arrays(n, c, model="m", meta={"stopping_time": {"models": {"m": said}}})
    assert not check_deviations(Counts.from_arrays(n, c, model="m"), emit=False).flags["m"]
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        rep = check_deviations(cnt)
    assert [f for f, _ in rep.flags["m"]] == ["StoppingTimeWarning"] and rep.evidence["m"]["stopping_time"] == said
    stop = [w for w in got if issubclass(w.category, StoppingTimeWarning)]
    assert len(stop) == 1 and stop[0].filename == __file__
