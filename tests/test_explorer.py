"""The explorer's Python closed forms and its page (the browser checks are in test_browser.py)."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, stats

from passcurve import PasscurveError
from passcurve.report import (
    explorer_bin_shares,
    explorer_html,
    explorer_params,
    explorer_readouts,
    format_percent,
    write_explorer,
)
from passcurve.report._explorer import NU_MIN, READOUT_DIGITS


def test_seed_values():
    # REFERENCE.md "Hidden difficulty" (seed 000): at 50% / 25% the widget reads
    # 50%, 25%, 31%, 63%, 99.6%, 92.6%, 99.6%; sigma = 0.25 is Beta(1.5, 1.5).
    r = explorer_readouts(0.5, 0.25)
    assert r["alpha"] == pytest.approx(1.5) and r["beta"] == pytest.approx(1.5)
    shown = [format_percent(r[k], d) for k, d in READOUT_DIGITS.items()]
    assert shown == ["50%", "25%", "31%", "63%", "99.6%", "92.6%", "99.6%"]
    # exact: P(both) = mu^2 + sigma^2 = 5/16; conditional = 5/8; 1 - 2^-8
    assert r["p_both"] == pytest.approx(0.3125, rel=1e-14)
    assert r["p_second_given_first"] == pytest.approx(0.625, rel=1e-14)
    assert r["pass8_independent"] == pytest.approx(1 - 0.5**8, rel=1e-14)


def _exact_pass(alpha: Fraction, beta: Fraction, k: int) -> Fraction:
    # REFERENCE.md: pass_D@k = 1 - prod_{j<k} (beta + j)/(alpha + beta + j), in exact rationals
    prod = Fraction(1)
    for j in range(k):
        prod *= (beta + j) / (alpha + beta + j)
    return 1 - prod


@pytest.mark.parametrize("mean,sd", [(0.5, 0.25), (0.3, 0.1), (0.05, 0.12), (0.9, 0.2), (0.2, 0.25)])
def test_pass_at_k_matches_exact_product_and_integral(mean, sd):
    r = explorer_readouts(mean, sd)
    a, b = Fraction(r["alpha"]), Fraction(r["beta"])  # the floats, exactly
    for key, k in (("pass8", 8), ("pass64", 64)):
        assert r[key] == pytest.approx(float(_exact_pass(a, b, k)), rel=1e-11)
        # and by quadrature of E[1 - (1-p)^k] under the Beta density (an independent route)
        val, _ = integrate.quad(lambda p, k=k: -math.expm1(k * math.log1p(-p)) * stats.beta.pdf(p, r["alpha"], r["beta"]),
                                0, 1, limit=200, points=[mean])
        assert r[key] == pytest.approx(val, rel=1e-6)
    # E[p^2] by quadrature = mu^2 + sigma^2
    m2, _ = integrate.quad(lambda p: p * p * stats.beta.pdf(p, r["alpha"], r["beta"]), 0, 1, limit=200)
    assert r["p_both"] == pytest.approx(m2, rel=1e-7)
    # Jensen: the actual curve never exceeds independent coin flips
    assert r["pass8"] <= r["pass8_independent"] + 1e-15


def test_coin_limit_and_cap():
    r = explorer_readouts(0.2, 0.0)  # sigma = 0: every question at 20%
    assert r["coin"] and r["p_both"] == pytest.approx(0.04) and r["pass8"] == pytest.approx(1 - 0.8**8, rel=1e-14)
    assert r["p_second_given_first"] == pytest.approx(0.2)
    # sigma^2 >= mu(1-mu) is infeasible: clamped to alpha + beta = NU_MIN (near the two-point law)
    r = explorer_readouts(0.1, 0.45)
    assert r["capped"] and r["alpha"] + r["beta"] == pytest.approx(NU_MIN)
    assert r["sd_effective"] < math.sqrt(0.1 * 0.9)
    assert r["p_second_given_first"] == pytest.approx(1.0, abs=2e-3)  # two-point law: always right again
    assert r["pass64"] == pytest.approx(0.1, abs=2e-3)
    assert not explorer_params(0.5, 0.49)["capped"]
    assert explorer_params(0.5, 0.5)["capped"]


def test_bin_shares_sum_to_one():
    for mean, sd in [(0.5, 0.25), (0.1, 0.45), (0.3, 0.0), (0.95, 0.03)]:
        s = explorer_bin_shares(mean, sd)
        assert len(s) == 20 and sum(s) == pytest.approx(1.0) and min(s) >= 0


def test_format_percent_rounds_half_up_and_never_claims_certainty():
    assert format_percent(0.625) == "63%"  # Python's round() would give 62
    assert format_percent(0.3125) == "31%"
    assert format_percent(0.99609375, 1) == "99.6%"
    assert format_percent(0.99999, 1) == ">99.9%"
    assert format_percent(1.0, 1) == "100.0%"
    assert format_percent(0.00001, 1) == "<0.1%"
    # at 0 decimals the bound is at that precision: 0.16% is not "<0.1%" (HTML audit), it is "<1%"
    assert format_percent(0.0016) == "<1%" and format_percent(0.00001) == "<1%"
    assert format_percent(0.9956) == ">99%"
    assert format_percent(0.0) == "0%"


@pytest.mark.parametrize(
    "mean,sd,match",
    [(0.0, 0.1, "`mean`"), (1.0, 0.1, "`mean`"), ("x", 0.1, "`mean` and `sd`"), (0.5, -0.1, "`sd`"),
     (float("nan"), 0.1, "`mean`")],
)
def test_bad_input(mean, sd, match):
    with pytest.raises(PasscurveError, match=match):
        explorer_readouts(mean, sd)


def test_page_is_one_offline_file(tmp_path):
    page = explorer_html()
    assert "/*__EXPLORER_JS__*/" not in page and "function passActual" in page
    # nothing to fetch: no src/href to a URL, no CSS url(), no @import
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert not re.search(r"url\(|@import", page, re.I)
    assert "<script src" not in page and "<link" not in page
    # the only URL-like string is the SVG namespace name
    assert set(re.findall(r"https?://[^\s\"']+", page)) == {"http://www.w3.org/2000/svg"}
    p = write_explorer(tmp_path / "e.html", report_href="report.html")
    text = p.read_text(encoding="utf-8")
    assert 'href="report.html"' in text
    for label in ["average pass rate", "how much questions differ", "P(answer right)", "P(both right), actually",
                  "P(2nd right | 1st right)", "pass@8 if independent", "pass@8, actually", "pass@64, actually"]:
        assert label in text


def test_cli_explore(icli, tmp_path, capsys):
    out = tmp_path / "explorer.html"
    res = icli("explore", "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert out.read_text(encoding="utf-8") == explorer_html()
    from passcurve.cli._app import run

    assert run(["explore", "-o", str(tmp_path / "explorer.txt")]) == 2  # in-process: same app, same exit code
    assert "`--output` must end in .html" in capsys.readouterr().err


def test_js_and_python_share_the_clamp():
    js = explorer_html()
    assert float(re.search(r"var NU_MIN = ([0-9.e-]+);", js).group(1)) == NU_MIN
    assert np.isclose(explorer_params(0.5, 0.25)["sd_effective"], 0.25)
