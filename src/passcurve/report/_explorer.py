r"""The explorer page: the "Try it" widget of the hidden-difficulty seed, as one offline HTML file.

Per-question pass rates p are Beta distributed across a benchmark with mean μ ("average
pass rate") and standard deviation σ ("how much questions differ"):

.. math:: \nu = \alpha + \beta = \frac{\mu(1-\mu)}{\sigma^2} - 1, \quad \alpha = \mu\nu, \quad \beta = (1-\mu)\nu .

Two answers to one question: P(both right) = E[p²] = μ² + σ²; P(2nd right | 1st right) =
(μ² + σ²)/μ; pass_D@k = 1 − B(α, β + k)/B(α, β) = 1 − ∏_{j<k} (β + j)/(α + β + j) ≤ 1 − (1 − μ)^k
(``../shared/REFERENCE.md``, "Hidden difficulty"; Schaeffer et al. 2025, arXiv 2502.17578).

The page computes these in its own JavaScript with the exact product (no sampling). This module
holds the page and the same numbers computed in Python through an independent route (scipy's
``betaln`` via :meth:`passcurve.ModelSpec.true_pass_at_k`), which the browser tests compare with
what the page displays.

Infeasible slider combinations: a distribution on [0, 1] with mean μ has σ² ≤ μ(1 − μ), with
equality only for the two-point law "always right with probability μ, else always wrong". The
page and :func:`explorer_readouts` use the same rule: when ν = μ(1−μ)/σ² − 1 falls below
``NU_MIN`` it is clamped to ``NU_MIN`` (σ shown as "capped" at the largest feasible value), and
σ = 0 is the exact coin-flip limit (every question has pass rate μ).
"""

from __future__ import annotations

import html
import math
import urllib.parse
from importlib import resources
from pathlib import Path
from typing import Any

from .._errors import PasscurveError
from .._files import write_text_atomic
from .._simulate import ModelSpec

__all__ = ["explorer_bin_shares", "explorer_params", "explorer_readouts", "format_percent", "explorer_html", "write_explorer", "NU_MIN"]

NU_MIN = 1e-3
"""Smallest α + β the explorer uses; below it the slider combination is infeasible and clamped."""


def _explorer_iv(mean: Any, sd: Any) -> tuple[float, float]:
    try:
        mu, s = float(mean), float(sd)
    except (TypeError, ValueError):
        raise PasscurveError(f"`mean` and `sd` must be numbers (got {mean!r}, {sd!r})") from None
    if not 0.0 < mu < 1.0 or not math.isfinite(mu):
        raise PasscurveError(f"`mean` must be in (0, 1) (got {mean!r})")
    if not 0.0 <= s <= 1.0 or not math.isfinite(s):
        raise PasscurveError(f"`sd` must be in [0, 1] (got {sd!r})")
    return mu, s


def explorer_params(mean: float, sd: float) -> dict[str, Any]:
    """Beta(α, β) with the given mean and standard deviation, clamped where infeasible.

    Returns ``{"alpha", "beta", "sd_effective", "capped", "coin"}``; ``coin`` is True at σ = 0
    (α, β infinite: every question has pass rate μ).
    """
    mu, s = _explorer_iv(mean, sd)
    if s == 0.0:
        return {"alpha": math.inf, "beta": math.inf, "sd_effective": 0.0, "capped": False, "coin": True}
    nu = mu * (1.0 - mu) / (s * s) - 1.0
    capped = nu < NU_MIN
    if capped:
        nu = NU_MIN
    sd_eff = math.sqrt(mu * (1.0 - mu) / (1.0 + nu))
    return {"alpha": mu * nu, "beta": (1.0 - mu) * nu, "sd_effective": sd_eff, "capped": capped, "coin": False}


def explorer_readouts(mean: float, sd: float) -> dict[str, Any]:
    """The seven readouts of the explorer at slider values ``mean`` and ``sd`` (fractions).

    Keys: ``p_right`` (μ), ``p_right_sq`` (μ²), ``p_both`` (μ² + σ²), ``p_second_given_first``
    ((μ² + σ²)/μ), ``pass8_independent`` (1 − (1 − μ)^8), ``pass8``, ``pass64`` (pass_D@k under the
    Beta, from ``ModelSpec.true_pass_at_k``), plus ``alpha``, ``beta``, ``sd_effective``, ``capped``.

    At μ = 0.5, σ = 0.25 (Beta(1.5, 1.5)) these are 0.5, 0.25, 0.3125, 0.625, 0.99609, 0.92578,
    0.99572, displayed as 50%, 25%, 31%, 63%, 99.6%, 92.6%, 99.6% (REFERENCE.md, seed 000).
    """
    mu, _ = _explorer_iv(mean, sd)
    prm = explorer_params(mean, sd)
    s = prm["sd_effective"]
    both = mu * mu + s * s
    if prm["coin"]:
        p8 = -math.expm1(8 * math.log1p(-mu))
        p64 = -math.expm1(64 * math.log1p(-mu))
    else:
        spec = ModelSpec("explorer", prm["alpha"], prm["beta"])
        p8, p64 = (float(v) for v in spec.true_pass_at_k([8, 64]))
    return {
        "p_right": mu,
        "p_right_sq": mu * mu,
        "p_both": both,
        "p_second_given_first": both / mu,
        "pass8_independent": -math.expm1(8 * math.log1p(-mu)),
        "pass8": p8,
        "pass64": p64,
        **prm,
    }


def explorer_bin_shares(mean: float, sd: float, bins: int = 20) -> list[float]:
    """Share of questions whose pass rate falls in each of ``bins`` equal bins of [0, 1] (the top chart).

    Differences of the Beta CDF (scipy's regularized incomplete beta); at σ = 0 all questions sit in
    the bin holding μ.
    """
    from scipy import stats

    mu, _ = _explorer_iv(mean, sd)
    prm = explorer_params(mean, sd)
    if prm["coin"]:
        out = [0.0] * bins
        out[min(int(math.floor(mu * bins)), bins - 1)] = 1.0
        return out
    edges = [i / bins for i in range(bins + 1)]
    cdf = stats.beta.cdf(edges, prm["alpha"], prm["beta"])
    cdf[-1] = 1.0
    return [max(float(b - a), 0.0) for a, b in zip(cdf[:-1], cdf[1:], strict=True)]


def format_percent(x: float, digits: int = 0) -> str:
    """Percent text exactly as the page shows it: round half up; never "100%" or "0%" for 0 < x < 1.

    ``digits`` decimals; a value that would round to 100 (or 0) but is not exactly 1 (or 0)
    is shown as ">99%" / "<1%" with no decimal, ">99.9%" / "<0.1%" with one (a bound at the
    precision shown: at 0 decimals "<0.1%" would be false for 0.16%).
    """
    scale = 10**digits
    v = math.floor(x * 100 * scale + 0.5) / scale
    if v >= 100 and x < 1:
        return f">{100 - 10**-digits:.{digits}f}%"
    if v <= 0 and x > 0:
        return f"<{10**-digits:.{digits}f}%"
    return f"{v:.{digits}f}%"


READOUT_DIGITS = {
    "p_right": 0,
    "p_right_sq": 0,
    "p_both": 0,
    "p_second_given_first": 0,
    "pass8_independent": 1,
    "pass8": 1,
    "pass64": 1,
}
"""Decimals the page shows for each readout (as in the seed's widget)."""


def explorer_html(*, report_href: str | None = None) -> str:
    """The explorer as one self-contained HTML string (its CSS and JS inline; no network)."""
    pkg = resources.files("passcurve.report")
    page = (pkg / "explorer.html").read_text(encoding="utf-8")
    js = (pkg / "explorer.js").read_text(encoding="utf-8")
    # the report's file name is a relative URL inside an attribute: percent-encoded (so '#', '%' and spaces
    # name the file, not a fragment) and HTML-escaped (so a quote cannot end the attribute)
    href = html.escape(urllib.parse.quote(report_href), quote=True) if report_href else ""
    back = f'<p class="back"><a href="{href}">&larr; back to the report</a></p>' if report_href else ""
    return page.replace("/*__EXPLORER_JS__*/", js).replace("<!--__BACKLINK__-->", back)


def write_explorer(path: str | Path, *, report_href: str | None = None) -> Path:
    """Write the explorer page to ``path`` and return the path."""
    return write_text_atomic(path, explorer_html(report_href=report_href))
