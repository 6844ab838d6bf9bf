"""Report sections: each builder takes result objects and returns a :class:`Section`.

No statistics here: every number comes from a result object (CurveResult, the difficulty fits,
forecasts, comparisons, diagnostics) computed by the library. What is done here is layout:
choosing colours and axes, binning the per-problem c/n for the histogram, formatting numbers.
A builder whose inputs are missing returns an *omitted* section with a one-line note.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._results import level_label, metric_name
from .._uncertainty import FEW_PROBLEMS, WILSON_BOUND
from .._validation import _exponent, _finite, natural_key, notation, number_format
from ._page import Section, esc, figure_html

__all__ = [
    "passk_section",
    "failure_section",
    "naive_section",
    "passpow_section",
    "histogram_section",
    "comparison_section",
    "diagnostics_section",
    "loop_numbers_section",
    "per_problem_section",
    "flags_section",
    "explorer_section",
    "fmt_num",
    "number_format",
    "fmt_pct",
]

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#aec7e8", "#ff9896", "#98df8a", "#c5b0d5", "#ffbb78", "#9edae5", "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d",
)
"""Model colours: ten strong ones, then their light partners (colours repeat from the 21st model on)."""


def line_mode(y: Any) -> str:
    """Plotly mode for a model's curve: a line, with a marker when it has a single point (n = 1), which a line
    alone would not draw."""
    return "lines+markers" if int(np.isfinite(np.asarray(y, dtype=float)).sum()) <= 1 else "lines"


POW_FLOOR = 1e-6
"""pass^k is drawn on a log axis down to this value."""


def colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def fmt_num(x: Any, digits: int = 4) -> str:
    """One number for a table cell, as :func:`number_format` writes a column of it alone."""
    return number_format([x] if _finite(x) is not None else [], digits)(x)


def fmt_median(x: Any, *, thousands: bool = False) -> str:
    """A median of integer counts as it is: whole, or with its half ('6.5', not rounded to even; '2000001', never
    ':g''s '2e+06'); ``thousands`` adds separators ('2,000,001')."""
    x = float(x)
    sep = "," if thousands else ""
    return f"{x:{sep}.0f}" if x.is_integer() else f"{x:{sep}.1f}"


def signed_format(values: Any) -> Callable[[Any], str]:
    """:func:`number_format` of a column of differences (and their intervals' ends), with a typographic minus
    ('−0.0123', '−1.14e-06'; '0.0000', never '-0.0000'). The comparison table wrote them at 4 fixed decimals, so a
    pass^k difference of −1.1·10⁻⁶ read 0.0000 where ``passcurve compare`` printed −1.14e-06."""
    fmt = number_format(values)

    def signed(x: Any) -> str:
        text = fmt(x)
        if not text.startswith("-") or text == "-":
            return text
        return text[1:] if float(text) == 0 else "−" + text[1:]

    return signed


def fmt_fixed(x: Any, digits: int = 4) -> str:
    """A correlation (the diagnostics' ICC) in fixed point with a typographic minus ('−0.0123'; '0.0000', never
    '-0.0000' or '3.33e-08'); a column of differences is :func:`signed_format`'s."""
    x = _finite(x)
    if x is None:
        return "-"
    text = f"{x:.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", "−")


def fmt_pct3(x: Any) -> str:
    """A probability as a percentage with 3 significant digits (2.32%, 0.0539%)."""
    x = _finite(x)
    if x is None:
        return "-"
    if x == 0:
        return "0%"
    if abs(x) < 1e-5:  # below 0.001%: three digits of a share this small say nothing (was "3.43e-07%")
        return "<0.001%"
    return f"{100 * x:#.3g}".rstrip(".") + "%"


def fmt_pct(x: Any, digits: int = 1) -> str:
    """One probability as a percentage, as :func:`number_format` writes a column of it alone ('-' when missing;
    more decimals for a small one, up to '0.054%'; '<0.001%')."""
    return number_format([x] if _finite(x) is not None else [], digits, percent=True)(x)


LABEL_CHARS = 40
"""Longest model name a legend or panel title shows (the tables show the whole name)."""


def _label(name: Any) -> str:
    """A model name as plotly text: HTML-escaped, since plotly renders trace names and titles as markup
    (a name "<b>x</b>" would be bold and an <a> a live link), and cut to :data:`LABEL_CHARS` characters so a
    long name cannot squeeze the plot area. The cut is in the middle: names of runs tend to differ at the end
    ("...-temperature-0.7" and "...-temperature-1.0")."""
    text = str(name)
    if len(text) > LABEL_CHARS:
        tail = LABEL_CHARS // 3
        text = text[: LABEL_CHARS - 1 - tail] + "…" + text[-tail:]
    return html.escape(text, quote=False)  # plotly decodes &lt; &gt; &amp; but shows &quot; as typed


MANY_MODELS = 12
"""Above this many models a chart hovers one line at a time and lists its line-style key first (see :func:`_layout`)."""


def _chart_models(fig: Any) -> int:
    """Models drawn in a chart: its traces' legend groups (one per model; the style key has none)."""
    return len({t.legendgroup for t in fig.data if getattr(t, "legendgroup", None)})


def many_models_caption(models: int) -> str:
    """How to read a chart of many models (empty for a few)."""
    if models <= MANY_MODELS:
        return ""
    repeat = f" Colours repeat after {len(PALETTE)} models." if models > len(PALETTE) else ""
    return (f'<p class="caption">{models} models.{repeat} Hover a line for its model and value; click a legend entry '
            "to hide that model, double-click it to show that model alone (double-click again for all).</p>")


HOVER_Y = ("%{y:.4f}", "%{y:.4g}")
"""The y of a chart's hover label before :func:`_layout` gives it the chart's one notation (:func:`hover_format`)."""


def hover_format(values: Any) -> str:
    """:func:`number_format`'s notation of a chart's y values as a plotly format: '.5f' (fixed, its decimals) or
    '.2e' for all of them, so the hover labels of one chart read as its table's column does (each label chose for
    itself with '.4g': '6.97e-05' beside '0.0123'); no value below 1 reads 1 (``below_one``: an observed pass@k of
    0.9999967 had read 1.0000)."""
    decimals, sci = notation(values, below_one=True)
    return ".2e" if sci else f".{decimals}f"


def _layout(fig: Any, *, xtitle: str, ytitle: str, logx: bool = True, logy: bool = False, height: int = 460) -> Any:
    # "x unified" lists every trace at the cursor's k: with 60 models a box of 60+ lines taller than the chart,
    # cut off at the top (audit at scale). Beyond MANY_MODELS the hover names the one line under the cursor,
    # and the line-style key ("power law", "forecast") comes first in the legend instead of below 60 models
    many = _chart_models(fig) > MANY_MODELS
    shown = [t for t in fig.data if any(h in (t.hovertemplate or "") for h in HOVER_Y)]
    if shown:  # one notation for the chart's hover labels, as number_format gives a table column
        y = f"%{{y:{hover_format(np.concatenate([np.asarray(t.y, dtype=float).ravel() for t in shown]))}}}"
        for t in shown:
            for h in HOVER_Y:
                t.hovertemplate = t.hovertemplate.replace(h, y)
    fig.update_layout(
        template="plotly_white",
        height=height,
        margin={"l": 70, "r": 20, "t": 30, "b": 60},
        legend={"orientation": "v", "x": 1.01, "y": 1, "font": {"size": 12}},
        hovermode="closest" if many else "x unified",
        font={"family": "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"},
    )
    if many:
        for t in fig.data:
            if str(getattr(t, "meta", "") or "").startswith("style-key:"):
                t.legendrank = 1
            elif t.hovertemplate:
                t.hovertemplate = "k = %{x:,}: " + t.hovertemplate
    # hoverformat: the hover header showed k = 18738 as "18.738k", whose SI suffix k reads as the variable k;
    # a whole number with thousands separators instead
    fig.update_xaxes(title=log_title(xtitle) if logx else xtitle, type="log" if logx else "linear", showline=True,
                     linecolor="#8c959f", **({"hoverformat": ",.0f"} if logx else {}))
    fig.update_yaxes(title=log_title(ytitle) if logy else ytitle, type="log" if logy else "linear", showline=True,
                     linecolor="#8c959f")
    if logx:
        _log_ticks(fig, [t.x for t in fig.data if t.x is not None and getattr(t, "fill", None) != "toself"], "x")
    if logy:
        _log_ticks(fig, [t.y for t in fig.data if t.y is not None and getattr(t, "fill", None) != "toself"], "y")
    return fig


def log_title(title: str) -> str:
    """An axis title that says its axis is logarithmic: "k (samples per problem)" -> "k (samples per problem, log
    scale)", "pass@k" -> "pass@k (log scale)" (the ticks 1, 10, 100 alone left a reader to infer it)."""
    if title.endswith(")"):
        return f"{title[:-1]}, log scale)"
    return f"{title} (log scale)"


_SUP = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _tick_text(v: float, power: bool = False) -> str:
    """1, 20, 500, 1000; 0.5, 0.02, 0.0001; with ``power`` 10⁰, 2·10¹, 10⁻⁶, 5·10⁴."""
    e = _exponent(v)
    m = round(v / 10.0**e)
    if not power:
        return f"{v:.{max(0, -e)}f}"
    p = f"10{str(e).translate(_SUP)}"
    return p if m == 1 else f"{m}·{p}"


def tick_texts(ticks: Sequence[float]) -> list[str]:
    """An axis's tick labels in one notation: plain numbers, or powers of ten for every tick once one of them lies
    beyond 10⁻⁴ ... 10³ (the pass^k axis read 0.01, 0.001, 0.0001, 10⁻⁵ and the failure chart's k axis 1000, 10⁴)."""
    power = any(not -4 <= _exponent(t) <= 3 for t in ticks)
    return [_tick_text(t, power) for t in ticks]


def log_ticks(lo: float, hi: float) -> list[float]:
    """Readable ticks for a log axis from lo to hi: 1-2-5 within about three decades, else powers of ten."""
    lo, hi = max(lo, 1e-300), max(hi, lo)
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    mult = (1, 2, 5) if e1 - e0 <= 3 else (1,)
    step = max(1, (e1 - e0) // 8)
    ticks = [m * 10.0**e for e in range(e0, e1 + 1, step) for m in mult]
    return [t for t in ticks if lo / 1.0001 <= t <= hi * 1.0001]


LOG_PAD = 0.02
"""Decades a log value axis reaches past its end ticks (a line at the end is not cut in half)."""


def decade_range(lo: float, hi: float) -> tuple[int, int]:
    """The exponents of the powers of ten at or below ``lo`` and at or above ``hi``: a log value axis whose ticks are
    powers of ten runs between two of them, so that both of its ends are labelled. The failure chart's axis reached
    3·10⁻⁴ with its lowest label at 0.001, the pass^k chart's 2·10⁻⁶ with its lowest at 10⁻⁵: where the axis
    ended, and what the lines below the last label reached, was left to guess."""
    return _exponent(lo), math.ceil(math.log10(hi) - 1e-9)


CORNER_GAP = 8
"""px between the x axis and its tick labels under a y axis labelled at its bottom end."""


def _clear_corner(fig: Any) -> None:
    """The x tick labels a little lower where the y axis has a label at its bottom end: at 390 px the failure chart's
    "0.0001" ran into the "10⁰" of the k axis at the corner."""
    fig.update_xaxes(ticklabelstandoff=CORNER_GAP)


def _log_ticks(fig: Any, values: list[Any], axis: str = "y") -> None:
    """Explicit log-axis ticks (plotly's own 1-2-5 labels drop the decade: '5', '2'). A y axis whose ticks are powers
    of ten alone (more than about three decades) runs from one power of ten to another (:func:`decade_range`)."""
    v = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in values]) if values else np.array([])
    v = v[np.isfinite(v) & (v > 0)]
    if not v.size:
        return
    lo, hi = float(v.min()), float(v.max())
    ticks = log_ticks(lo, hi)
    e0, e1 = decade_range(lo, hi)
    if axis == "y" and e1 - e0 > 3:
        ticks = log_ticks(10.0**e0, 10.0**e1)
        fig.update_yaxes(range=[e0 - LOG_PAD, e1 + LOG_PAD])
        _clear_corner(fig)
    upd = fig.update_yaxes if axis == "y" else fig.update_xaxes
    text = tick_texts(ticks)
    upd(tickmode="array", tickvals=ticks, ticktext=text)
    if axis == "x":  # on a phone the powers of ten alone
        phone_x_ticks(fig, ticks, text, [t for t in ticks if abs(t / 10.0 ** _exponent(t) - 1) < 1e-9])


PHONE_TICKS = 6
"""Most x tick labels a chart keeps on a phone (report.js applies ``layout.meta.narrow`` below 600 px)."""


def phone_x_ticks(fig: Any, ticks: Sequence[float], text: Sequence[str], phone: Sequence[float]) -> None:
    """Fewer x ticks on a phone: ``phone`` (a subset of ``ticks``) where ``ticks`` are more than :data:`PHONE_TICKS`,
    as ``layout.meta`` for report.js (``narrow`` applies it, ``wide`` undoes it). At 390 px the 1-2-5 ticks of a
    k axis to 1,000 were turned 30° by plotly, "100" ran into "200" and the "1" at the origin into the y axis's "0"."""
    if len(ticks) <= PHONE_TICKS or len(phone) < 2 or len(phone) >= len(ticks):
        fig.update_layout(meta=None)
        return
    label = dict(zip(ticks, text, strict=True))
    fig.update_layout(meta={"narrow": {"xaxis.tickvals": list(phone), "xaxis.ticktext": [label[t] for t in phone]},
                            "wide": {"xaxis.tickvals": list(ticks), "xaxis.ticktext": list(text)}})


def _style_key(go: Any, fig: Any, entries: Sequence[tuple[str, str]]) -> None:
    """Legend entries that explain line styles once (the per-model dashed lines stay out of the legend).

    Clicking one shows or hides every line of that style (report.js reads ``meta``); a legend entry
    that changed nothing would look broken."""
    for name, dash in entries:
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=name, line={"color": "#57606a", "dash": dash},
                                 hoverinfo="skip", meta=f"style-key:{dash}"))


def _go() -> Any:
    import plotly.graph_objects as go

    return go


def _band(go: Any, x: np.ndarray, lo: np.ndarray, hi: np.ndarray, col: str, name: str, group: str) -> Any:
    ok = np.isfinite(lo) & np.isfinite(hi)
    x, lo, hi = x[ok], lo[ok], hi[ok]
    return go.Scatter(
        mode="lines",
        x=np.concatenate([x, x[::-1]]),
        y=np.concatenate([hi, lo[::-1]]),
        fill="toself",
        fillcolor=_rgba(col, 0.18),
        line={"width": 0},
        name=name,
        legendgroup=group,
        showlegend=False,
        hoverinfo="skip",
    )


def _level(curve: Any) -> str:
    return level_label(curve.confidence_level or 0.95)


# ---------------------------------------------------------------------------------------------- curves
def passk_section(curve: Any) -> Section:
    """pass@k against k (log k), one line per model, with its interval band when the curve carries one."""
    go = _go()
    fig = go.Figure()
    ks = np.asarray(curve.k, dtype=float)
    has_band = "pass_at_k" in curve.intervals
    for i, m in enumerate(curve.models):
        col = colour(i)
        if has_band:
            lo, hi = curve.intervals["pass_at_k"]
            fig.add_trace(_band(go, ks, lo[i], hi[i], col, f"{_label(m)} interval", m))
        fig.add_trace(
            go.Scatter(x=ks, y=curve.values["pass_at_k"][i], mode=line_mode(curve.values["pass_at_k"][i]), name=_label(m),
                       legendgroup=m, line={"color": col, "width": 2.5}, hovertemplate="%{y:.4f}")
        )
    _layout(fig, xtitle="k (samples per problem)", ytitle="pass@k (unbiased, mean over problems)")
    fig.update_yaxes(rangemode="tozero")
    how = ("Chen et al.'s unbiased estimate 1 − C(n−c, k)/C(n, k) from its c correct of n" if curve.design is None
           else f"the stopping-time estimate for a {esc(curve.design)} design")
    cap = (f"The share of problems solved by at least one of k samples: for each problem {how}, averaged over the "
           "problems."
           + (f" Shaded: {_level(curve)} interval ({esc(curve.interval_method or 'interval')}), counting problems, not "
              "samples." if has_band else ""))
    note = None if has_band else "No interval band: interval estimates are not available in this build of passcurve."
    body = (figure_html(fig, "fig-passk") + f'<p class="caption">{cap}</p>'
            + many_models_caption(len(curve.models)))
    return Section("pass-at-k", "pass@k against k", body, note=note)


# the failure chart plots 1 - pass@k under trace names like "tiny-1b forecast": a bare "tiny-1b forecast: 0.2411"
# read as pass@K (user review; the table said pass@100,000 = 0.818)
FAIL_HOVER = "1 − pass@k = %{y:.4g}"


def failure_section(curve: Any, fits: dict[str, Any] | None = None, note: str | None = None) -> Section:
    """1 - pass@k on log-log axes; the power-law fit and the forecast beyond n when available.

    ``fits`` maps a model to a dict with any of: ``"power_law"`` (k, failure) of the fitted
    power law, ``"forecast"`` (k, failure, low, high) beyond the data, ``"labels"`` (column -> text
    for the table under the chart: "power law", "forecast", "difficulty").
    """
    go = _go()
    fig = go.Figure()
    ks = np.asarray(curve.k, dtype=float)
    obs = [np.ravel(1.0 - curve.values["pass_at_k"])]
    obs += [np.asarray(f["forecast"][1], dtype=float) for f in (fits or {}).values() if "forecast" in f]
    pos = np.concatenate(obs)
    pos = pos[np.isfinite(pos) & (pos > 0)]
    # the log axis stops two decades below the lowest observed or forecast failure rate (a band reaching
    # failure 0, i.e. pass@k = 1, is drawn down to there)
    floor = max(1e-6, float(pos.min()) * 1e-2) if pos.size else 1e-6
    floor = 10.0 ** decade_range(floor, 1.0)[0]  # down to a power of ten, the axis's lowest label
    for i, m in enumerate(curve.models):
        col = colour(i)
        fail = 1.0 - curve.values["pass_at_k"][i]
        ok = fail > 0
        fig.add_trace(
            go.Scatter(x=ks[ok], y=fail[ok], mode=line_mode(fail[ok]), name=_label(m), legendgroup=m,
                       line={"color": col, "width": 2.5}, hovertemplate=FAIL_HOVER)
        )
        f = (fits or {}).get(m)
        if not f:
            continue
        if "forecast" in f:
            fk, fv, flo, fhi = (np.asarray(a, dtype=float) for a in f["forecast"])
            if np.isfinite(flo).any():
                fig.add_trace(_band(go, fk, np.clip(flo, floor, None), np.clip(fhi, floor, None), col,
                                    f"{_label(m)} forecast interval", m))
            keep = fv >= floor
            fig.add_trace(
                go.Scatter(x=fk[keep], y=fv[keep], mode="lines", name=f"{_label(m)} forecast", legendgroup=m, showlegend=False,
                           line={"color": col, "width": 2, "dash": "dot"}, hovertemplate=FAIL_HOVER)
            )
        if "power_law" in f:
            pk, pv = (np.asarray(a, dtype=float) for a in f["power_law"])
            keep = pv >= floor
            fig.add_trace(
                go.Scatter(x=pk[keep], y=pv[keep], mode="lines", name=f"{_label(m)} power law", legendgroup=m, showlegend=False,
                           line={"color": col, "width": 1.5, "dash": "dash"}, hovertemplate=FAIL_HOVER)
            )
    drawn = {what for f in (fits or {}).values() for what in ("power_law", "forecast") if what in f}
    if drawn:
        _style_key(go, fig, [("observed", "solid")] + [(label, dash) for what, label, dash in
                                                        (("power_law", "power law", "dash"), ("forecast", "forecast", "dot"))
                                                        if what in drawn])
    _layout(fig, xtitle="k (samples per problem)", ytitle="failure rate 1 − pass@k", logy=True)
    fig.update_yaxes(range=[math.log10(floor) - LOG_PAD, LOG_PAD])
    _clear_corner(fig)
    ticks = log_ticks(floor, 1.0)
    fig.update_yaxes(tickmode="array", tickvals=ticks, ticktext=tick_texts(ticks))
    body = figure_html(fig, "fig-failure") + many_models_caption(len(curve.models))
    if not pos.size:
        body += ('<p class="caption">Nothing to draw on a log scale: the failure rate is 0 at every k (every problem '
                 "solved by every sample).</p>")
    if drawn:
        body += ('<p class="caption">Solid: observed.'
                 + (" Dashed: least-squares power law −log pass@k = a·k<sup>−b</sup> (Schaeffer et al. 2025)."
                    if "power_law" in drawn else "")
                 # the band is the forecast's prediction interval, whose method the table's forecast column names
                 # (the caption said "its 95% interval", the table "95% prediction interval; auto: ...")
                 + (f" Dotted with band: forecast beyond the largest observed k and its {_level(curve)} prediction "
                    "interval (method and weights in the table's forecast column)."
                    if "forecast" in drawn else "") + "</p>")
    if fits:
        if any("Any difficulty law" in v.get("labels", {}).get("forecast", "") for v in fits.values()):
            body += (
                '<p class="caption">"Any difficulty law the data allow": the smallest and largest pass@K of every '
                "law of per-problem success rates whose curve lies in the data's simultaneous band at k ≤ n "
                "(<code>passcurve.extrapolation_bounds</code>, linear programming; no Beta, no power law; on the band the "
                "forecast's interval is held to). Whatever the "
                f"true law, pass@K is in that range at the band's confidence ({_level(curve)}). A forecast is "
                "narrower only because "
                "it assumes a law.</p>"
            )
        cols = [c for c in ("power law", "forecast", "difficulty") if any(c in v.get("labels", {}) for v in fits.values())]
        rows = [[m, *[v.get("labels", {}).get(c, "-") for c in cols]] for m, v in fits.items()]
        if cols:
            # one row of long text per model: in a scrolled box beyond a few models (60 rows were 6,500 px)
            box = "wide fits scroll" if len(rows) > MANY_MODELS else "wide fits"
            body += f'<div class="{box}">' + _table(["model", *cols], rows, text_cols=1 + len(cols)) + "</div>"
    return Section("failure", "Failure rate 1 − pass@k (log-log), power law and forecast", body, note=note)


def naive_section(curve: Any) -> Section:
    """The unbiased estimator beside the naive plug-in 1 - (1 - c/n)**k (biased, shown for comparison)."""
    if "naive_pass_at_k" not in curve.values:
        note = ("The curve was computed without the naive metric." if curve.design is None else
                # no formula in a note: it is plain text (escaped, and in Report.omitted()), where an exponent had to be
                # written "^k" beside the <sup> of the captions
                f"Not shown for a {curve.design} design: the naive plug-in, which puts each problem's c/n in for its "
                "pass rate, has no meaning when n is a stopping time.")
        return Section("naive", "Naive vs unbiased pass@k", note=note, omitted=True)
    go = _go()
    fig = go.Figure()
    ks = np.asarray(curve.k, dtype=float)
    for i, m in enumerate(curve.models):
        col = colour(i)
        fig.add_trace(go.Scatter(x=ks, y=curve.values["pass_at_k"][i], mode=line_mode(curve.values["pass_at_k"][i]),
                                 name=_label(m), legendgroup=m, line={"color": col, "width": 2.5}, hovertemplate="%{y:.4f}"))
        fig.add_trace(go.Scatter(x=ks, y=curve.values["naive_pass_at_k"][i],
                                 mode=line_mode(curve.values["naive_pass_at_k"][i]), name=f"{_label(m)} naive",
                                 legendgroup=m, line={"color": col, "width": 1.5, "dash": "dash"},
                                 hovertemplate="%{y:.4f}", showlegend=False))
    _style_key(go, fig, [("unbiased", "solid"), ("naive plug-in", "dash")])
    _layout(fig, xtitle="k (samples per problem)", ytitle="pass@k")
    fig.update_yaxes(rangemode="tozero")
    cap = (
        "Solid: the unbiased estimator 1 − C(n−c, k)/C(n, k) (Chen et al. 2021). Dashed: the naive plug-in "
        "1 − (1 − c/n)<sup>k</sup>, which underestimates pass@k for k &gt; 1 (by Jensen, E[(1 − c/n)<sup>k</sup>] "
        "≥ (1 − p)<sup>k</sup>) and is shown only for comparison."
    )
    return Section("naive", "Naive vs unbiased pass@k", figure_html(fig, "fig-naive") + f'<p class="caption">{cap}</p>'
                   + many_models_caption(len(curve.models)))


def passpow_section(curve: Any, in_table: bool = True) -> Section:
    """pass^k (all k samples right) against k; ``in_table``: the comparison table shows pass^k with intervals."""
    if "pass_pow_k" not in curve.values:
        note = ("The curve was computed without pass^k." if curve.design is None else
                f"Not shown for a {curve.design} design: once sampling stops at a success, whether the first k "
                "samples would all have succeeded is not observed.")
        return Section("pass-pow-k", "pass^k", note=note, omitted=True)
    if int(curve.k[-1]) < 2:
        return Section("pass-pow-k", "pass^k", omitted=True,
                       note="Not shown: pass^k needs at least 2 samples per problem (pass^1 is pass@1).")
    vals = np.asarray(curve.values["pass_pow_k"], dtype=float)
    if not np.any(vals >= POW_FLOOR):
        return Section("pass-pow-k", "pass^k", omitted=True,
                       note=f"Not drawn: pass^k is below {POW_FLOOR:g} for every model at every k ≥ 1 (no problem "
                            "was solved by enough of its samples).")
    go = _go()
    fig = go.Figure()
    ks = np.asarray(curve.k, dtype=float)
    has_band = "pass_pow_k" in curve.intervals
    for i, m in enumerate(curve.models):
        col = colour(i)
        v = curve.values["pass_pow_k"][i]
        ok = v >= POW_FLOOR
        fig.add_trace(go.Scatter(x=ks[ok], y=v[ok], mode=line_mode(v[ok]), name=_label(m), legendgroup=m,
                                 line={"color": col, "width": 2.5}, hovertemplate="%{y:.4g}"))
    # short titles: at 390 px "k (attempts that must all succeed, log scale)" ran 15 px past the figure's right edge
    # and "pass^k (unbiased, mean over problems, log scale)" above its top (the caption says what pass^k is)
    _layout(fig, xtitle="k (all k must succeed)", ytitle="pass^k (unbiased mean)", logy=True)
    cap = ("pass^k = C(c, k)/C(n, k): the chance that k independent attempts all succeed (reliability, τ-bench). "
           f"Log scale, drawn down to {POW_FLOOR:g}."
           + (" Its intervals are in the pass^k table under Model comparison (on a log axis their lower ends, often 0, "
              "would swamp the chart)." if has_band and in_table else ""))
    return Section("pass-pow-k", "pass^k: all k attempts right", figure_html(fig, "fig-passpow") + f'<p class="caption">{cap}</p>'
                   + many_models_caption(len(curve.models)))


# ---------------------------------------------------------------------------------------------- histogram
def _bins(p: np.ndarray, n_max: int) -> tuple[np.ndarray, bool]:
    """Bin edges for c/n: log-spaced when most solved problems have small c/n, else 20 linear bins, or with
    at most 20 samples one bin per value j/n_max (centred on it)."""
    pos = p[p > 0]
    if pos.size and np.median(pos) < 0.05:
        lo = math.floor(math.log10(0.5 / n_max) * 4) / 4
        return np.logspace(lo, 0, int(round(-lo * 4)) + 1), True
    if n_max <= 20:  # 20 bins of 0.05 are finer than the 1/n grid: every other bar was empty (n = 10: 0.1, 0.2, ...)
        return (np.arange(n_max + 1) + 0.5) / n_max, False  # the last bin, [1 - 1/2n, 1 + 1/2n], centred on 1
    # k/20 by one division each, the float every c/n equal to k/20 rounds to (linspace's 3 * 0.05 is
    # 0.15000000000000002, which sent c/n = 3/20 into the bin below and left another bin empty)
    return np.arange(21) / 20, False


def histogram_section(counts: Any, fitted: dict[str, Any] | None = None, note: str | None = None) -> Section:
    """Histogram of per-problem c/n per model (share of problems), with the fitted difficulty distribution.

    ``fitted`` maps a model to ``{"shares": expected share per bin (same edges), "zero": expected
    share with c = 0, "label": str}``, computed by the library from its fitted model; pass a
    callable ``fitted[model](edges, n) -> dict`` to let the fit evaluate on this section's bins.
    """
    go = _go()
    from plotly.subplots import make_subplots

    models = counts.models
    m_count = len(models)
    cols = 1 if m_count == 1 else 2 if m_count <= 4 else 3
    rows = -(-m_count // cols)
    p_all = counts.c / counts.n
    edges, logx = _bins(p_all, int(counts.n.max()))
    draw = edges.copy()
    if not logx:
        # never-solved problems apart, as with log bins: the first bin starts above 0 (below every 1/n), so c = 0
        # falls in no bin, for the bars and for the fit alike (demo tiny-1b: 120 of 300 problems with c = 0 were
        # merged into a [0, 0.05) bar reading 79.3%)
        edges = edges.copy()
        edges[0] = min(0.5 / int(counts.n.max()), 0.025)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[_label(m) for m in models], horizontal_spacing=0.07,
                        vertical_spacing=min(0.12, 0.5 / max(rows, 1)))
    # where the "never solved" bar sits, and how wide: with one bar per value of c/n (n <= 20) at 0 as wide as the
    # others (it was 0.03 wide beside bars of 0.9/n: at n = 4 a 3 px sliver beside 60 px bars, lost in the axis
    # line on a phone); else left of the first bin
    per_value = not logx and int(counts.n.max()) <= 20
    zero_x = float(edges[0]) / 2 if logx else 0.0 if per_value else -0.04
    zero_w = zero_x * 0.8 if logx else 0.9 / int(counts.n.max()) if per_value else 0.03
    for i, m in enumerate(models):
        r, cc = i // cols + 1, i % cols + 1
        sel = counts.model == m
        p = p_all[sel]
        total = p.size
        pos = p[p > 0]
        share, _ = np.histogram(pos, bins=edges)
        share = share / total
        mids = np.sqrt(edges[:-1] * edges[1:]) if logx else (draw[:-1] + draw[1:]) / 2
        if logx:
            # plotly draws a bar over [x - w/2, x + w/2] in data units, also on a log axis: to cover the middle 80%
            # of a bin in log scale, centre the bar arithmetically on the shrunk bin's ends
            lo, hi = edges[:-1] * (edges[1:] / edges[:-1]) ** 0.1, edges[1:] * (edges[:-1] / edges[1:]) ** 0.1
            bar_x, widths = (lo + hi) / 2, hi - lo
        else:
            bar_x, widths = mids, np.diff(draw) * 0.9
        col = colour(i)
        fig.add_trace(go.Bar(x=bar_x, y=share, width=widths, marker_color=_rgba(col, 0.6),
                             name=f"{_label(m)} observed", showlegend=False, hovertemplate="c/n ≈ %{x:.3g}: %{y:.1%}"),
                      row=r, col=cc)
        # never solved apart in both modes
        zero = float(np.mean(p == 0))
        fig.add_trace(go.Bar(x=[zero_x], y=[zero], width=[zero_w], marker_color="#8c959f",
                             name="never solved", showlegend=False,
                             hovertemplate="never solved (c = 0): %{y:.1%}<extra></extra>"),
                      row=r, col=cc)
        f = (fitted or {}).get(m)
        if callable(f):
            f = f(edges, int(np.median(counts.n[sel])))
        if f:
            fig.add_trace(go.Scatter(x=mids, y=f["shares"], mode="lines+markers", line={"color": "#111", "width": 1.5},
                                     marker={"size": 4}, name="fitted", showlegend=(i == 0), legendgroup="fitted",
                                     hovertemplate="fitted: %{y:.1%}"), row=r, col=cc)
            if f.get("zero") is not None:
                fig.add_trace(go.Scatter(x=[zero_x], y=[f["zero"]], mode="markers", marker={"color": "#111", "size": 7,
                                                                                           "symbol": "diamond"},
                                         name="fitted never solved", showlegend=False, legendgroup="fitted",
                                         hovertemplate="fitted c = 0: %{y:.1%}"), row=r, col=cc)
        if logx:
            decades = [10.0**e for e in range(int(math.ceil(math.log10(edges[0]))), 1)]
            fig.update_xaxes(type="log", tickvals=[zero_x, *decades],
                             ticktext=["0", *[f"{d:g}" for d in decades]], row=r, col=cc)
        else:
            fig.update_xaxes(tickvals=[zero_x, 0.25, 0.5, 0.75, 1.0], ticktext=["0", "0.25", "0.5", "0.75", "1"],
                             row=r, col=cc)
        fig.update_yaxes(tickformat=".0%", row=r, col=cc)
    fig.update_layout(template="plotly_white", height=max(300, 260 * rows), bargap=0.05,
                      margin={"l": 70, "r": 20, "t": 40, "b": 50}, showlegend=bool(fitted))
    # short titles: two panels side by side on a phone are 150 px wide, and "c/n (share of samples correct)" ran
    # into its neighbour's; the caption says what c/n is
    fig.update_xaxes(title_text=log_title("c/n") if logx else "c/n", row=rows)
    fig.update_yaxes(title_text="share of problems", col=1)
    if m_count > 1:
        # on log bins every other decade (down from the largest) of those a decade or more above the first edge:
        # "0.001" 17 px from "0" overlapped it, and at 320 px "0.01" overlapped "0.1"
        ticks = [zero_x, 0.5, 1.0]
        if logx:
            clear = [d for d in decades if d >= 10 * edges[0]]
            ticks = [zero_x, *clear[::-1][::2][::-1]]
        fig.update_layout(meta=_phone_grid(fig, m_count, ticks))
    cap = (
        "Share of problems per bin of c/n, the share of a problem's n samples that were correct. "
        + ("Log-spaced bins (most solved problems have small c/n). " if logx else "")
        + "The grey bar at 0 is the share never solved (c = 0), apart from the bins. "
        + ("Black: the fitted difficulty distribution's expected share per bin." if fitted else "")
        # the diamond was explained only in docs/report.md (user review)
        + (" Black diamond at 0: the fit's expected share never solved (c = 0)." if fitted else "")
    )
    body = figure_html(fig, "fig-hist") + f'<p class="caption">{cap}</p>'
    return Section("histogram", "Per-problem success rate c/n and the fitted difficulty distribution", body, note=note)


PHONE_PANEL = 190
"""Height in px of each histogram panel on a phone (report.js applies the layout below 600 px)."""


def _phone_grid(fig: Any, panels: int, ticks: list[float]) -> dict[str, Any]:
    """The histogram's phone layout for report.js (``layout.meta``: ``narrow``, the relayout that applies it, and
    ``wide``, the one that undoes it): two panels to a row with room between them for the right-hand panel's
    percentages, three x ticks (0, 0.5, 1; on log bins 0 and every other decade clear of it) and no tick angle.
    At 390 px three panels to a row were 72 px wide: plotly turned the five x labels on end, into the next row's
    panel titles, and the percentages of the middle and right panels ran into the panel on their left; two to a row
    at 320 px still turned them on end."""
    rows = -(-panels // 2)
    gap_x, gap_y = 0.2, 75  # a fraction of the plot width; px between rows (tick labels, the next panel's title)
    total = rows * PHONE_PANEL + (rows - 1) * gap_y
    height = total + 40 + 50  # the margins of histogram_section
    text = [str(t) for t in ("0", *(f"{v:g}" for v in ticks[1:]))]
    narrow: dict[str, Any] = {"height": height}
    wide: dict[str, Any] = {"height": fig.layout.height}
    # the x axes in panel order: plotly's layout keys come in an order that varies from run to run (the same counts
    # gave a report whose phone layout listed xaxis2 before or after xaxis3)
    axes = sorted((k for k in fig.layout if k.startswith("xaxis")), key=lambda k: int(k[5:] or 1))
    x_title = next(str(a.title.text) for a in (fig.layout[k] for k in axes) if a.title.text)
    for k in axes:
        a = int(k[5:] or 1)
        slot = min(a, panels) - 1
        r, c = divmod(slot, 2)
        top = 1 - r * (PHONE_PANEL + gap_y) / total
        y = "yaxis" + k[5:]
        xa, ya = fig.layout[k], fig.layout[y]
        narrow.update({f"{k}.domain": [0.0, (1 - gap_x) / 2] if c == 0 else [(1 + gap_x) / 2, 1.0],
                       f"{y}.domain": [max(0.0, top - PHONE_PANEL / total), top],
                       f"{k}.tickvals": ticks, f"{k}.ticktext": text, f"{k}.tickangle": 0,
                       f"{k}.title.text": x_title if slot >= panels - (2 if panels % 2 == 0 else 1) else "",
                       f"{y}.title.text": "share of problems" if c == 0 else ""})
        wide.update({f"{k}.domain": list(xa.domain), f"{y}.domain": list(ya.domain),
                     f"{k}.tickvals": list(xa.tickvals or ()), f"{k}.ticktext": list(xa.ticktext or ()),
                     f"{k}.tickangle": "auto", f"{k}.title.text": xa.title.text or "",
                     f"{y}.title.text": ya.title.text or ""})
        if a <= panels:  # the panel's title, one annotation per model in order
            note = fig.layout.annotations[a - 1]
            narrow.update({f"annotations[{a - 1}].x": sum(narrow[f"{k}.domain"]) / 2,
                           f"annotations[{a - 1}].y": top})
            wide.update({f"annotations[{a - 1}].x": note.x, f"annotations[{a - 1}].y": note.y})
    return {"narrow": narrow, "wide": wide}


# ---------------------------------------------------------------------------------------------- tables
class Raw(str):
    """A table cell that is already HTML (built here from escaped parts)."""


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]], *, table_id: str | None = None,
           sortable: bool = False, text_cols: int = 1) -> str:
    idattr = f' id="{esc(table_id)}"' if table_id else ""
    cls = ' class="sortable"' if sortable else ""
    th = "".join(f'<th class="text">{esc(h)}</th>' if j < text_cols else f"<th>{esc(h)}</th>"
                 for j, h in enumerate(headers))
    body = []
    for row in rows:
        cells = []
        for j, v in enumerate(row):
            if isinstance(v, Raw):
                cells.append(f'<td class="text">{v}</td>' if j < text_cols else f"<td>{v}</td>")
            elif isinstance(v, tuple):  # (display, sort key)
                disp, key = v
                text = ' class="text"' if j < text_cols else ""
                cells.append(f'<td{text} data-sort="{esc(key)}">{esc(disp)}</td>')
            else:
                cells.append(f'<td class="text">{esc(v)}</td>' if j < text_cols else f"<td>{esc(v)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table{idattr}{cls}><thead><tr>{th}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _column_values(curve: Any, metric: str, j: int | Sequence[int]) -> np.ndarray:
    """Every model's value and interval ends at k index ``j`` (or at its own, ``j[i]`` for model i)."""
    rows = np.arange(len(curve.models))
    cols = np.broadcast_to(np.asarray(j, dtype=np.int64), rows.shape)
    parts = [np.asarray(curve.values[metric], dtype=float)[rows, cols]]
    if metric in curve.intervals:
        parts += [np.asarray(end, dtype=float)[rows, cols] for end in curve.intervals[metric]]
    return np.concatenate(parts)


def curve_column(curve: Any, metric: str, j: int | Sequence[int], *, percent: bool = False,
                 also: Sequence[float] = ()) -> Callable[[Any], str]:
    """:func:`number_format` of a column of a curve table (:func:`_column_values`, and ``also`` shown in it)."""
    values = np.concatenate([_column_values(curve, metric, j), np.asarray(also, dtype=float)])
    return number_format(values, 1 if percent else 4, percent=percent)


# what the mark beside such an interval means, under every table that shows one (the loop table showed the marks
# with a hover title only, which a printed page or a phone does not show)
_FEW_NOTE = (f"*: {FEW_PROBLEMS} (nearly every other problem scores 0 there, or 1); the interval is "
             f"{WILSON_BOUND}")
_FEW_MARK = f'<span title="{FEW_PROBLEMS}: the Wilson bound on the number of problems">*</span>'


def _with_interval(curve: Any, metric: str, i: int, j: int, fmt: Any = None) -> Raw:
    """The value, and its interval on a second, smaller line; ``fmt`` (default: :func:`curve_column`) writes both."""
    fmt = fmt or curve_column(curve, metric, j)
    v = curve.values[metric][i, j]
    if metric in curve.intervals:
        lo, hi = curve.intervals[metric]
        if np.isfinite(lo[i, j]) or np.isfinite(hi[i, j]):  # no "[-, -]" where the interval is undefined
            few = metric in curve.few_problems and curve.few_problems[metric][i, j]
            mark = _FEW_MARK if few else ""
            return Raw(f'{esc(fmt(v))}<br><span class="ci">[{esc(fmt(lo[i, j]))}, {esc(fmt(hi[i, j]))}]{mark}</span>')
    return Raw(esc(fmt(v)))


def comparison_section(table_curve: Any, counts: Any, comparisons: Sequence[Any] | None = None,
                       note: str | None = None, pass_k: Sequence[int] = (), pow_k: Sequence[int] = (),
                       ranks: Any = None, ranks_note: str | None = None) -> Section:
    """One row per model at round k; below it the ranks (:class:`passcurve.RankResult`) and the comparisons
    (:class:`passcurve.CompareResult`) if given.

    ``pass_k`` / ``pow_k``: which of ``table_curve.k`` to show as pass@k and pass^k columns (default:
    all as pass@k, none as pass^k).
    """
    ks = [int(k) for k in table_curve.k]
    pass_k = [k for k in (pass_k or ks) if k in ks]
    pow_k = [k for k in pow_k if k in ks and "pass_pow_k" in table_curve.values]
    headers = ["model", "problems", "n (median)", "never solved", "always solved"]
    headers += [f"pass@{k}" for k in pass_k]
    rows, pow_rows = [], []
    # one notation per column: the pass^4 column mixed "6.97e-04" with "0.0110" and "0.0195"
    at_fmt = {k: curve_column(table_curve, "pass_at_k", ks.index(k)) for k in pass_k}
    pow_fmt = {k: curve_column(table_curve, "pass_pow_k", ks.index(k)) for k in pow_k}
    for i, m in enumerate(table_curve.models):
        sel = counts.model == m
        s = table_curve.summary[i]
        row: list[Any] = [m, s["problems"], fmt_median(s["n_median"]),
                          int(np.sum(counts.c[sel] == 0)),
                          int(np.sum(counts.c[sel] == counts.n[sel]))]
        row += [_with_interval(table_curve, "pass_at_k", i, ks.index(k), at_fmt[k]) for k in pass_k]
        rows.append(row)
        pow_rows.append([m, *[_with_interval(table_curve, "pass_pow_k", i, ks.index(k), pow_fmt[k]) for k in pow_k]])
    # under each table that has brackets: said once below the pass^k table, it read as that table's alone and the
    # pass@k table above it had no caption; with the Wilson-bound mark explained where that table has one
    def cap(metric: str, shown: Sequence[int]) -> str:
        if not table_curve.intervals:
            return ""
        few = metric in table_curve.few_problems and bool(
            table_curve.few_problems[metric][:, [ks.index(k) for k in shown]].any())
        return (f'<p class="caption">Brackets: {_level(table_curve)} intervals ({esc(table_curve.interval_method)}).'
                + (f" {_FEW_NOTE}." if few else "")
                + "</p>")

    body = '<div class="wide">' + _table(headers, rows) + "</div>" + cap("pass_at_k", pass_k)
    if pow_k:  # a table of its own: beside the pass@k columns it ran 1,317 px wide, behind a scroll bar at 1,400 px
        body += ('<h3>pass^k: all k attempts right</h3><div class="wide">'
                 + _table(["model", *[f"pass^{k}" for k in pow_k]], pow_rows) + "</div>" + cap("pass_pow_k", pow_k))
    if ranks is not None:
        lvl = level_label(ranks.confidence_level)
        body += f"<h3>Ranks with {lvl} simultaneous intervals</h3>"
        order = [r["model"] for r in ranks.table(0)]
        cells = {}
        for j in range(ranks.k.size):
            table = ranks.table(j)
            score = number_format([r["estimate"] for r in table])
            for r in table:
                span = str(r["rank"]) if r["rank_low"] == r["rank_high"] else f"{r['rank_low']}–{r['rank_high']}"
                cells[(r["model"], j)] = f"{span} ({score(r['estimate'])})"
        rrows = [[m, *[cells[(m, j)] for j in range(ranks.k.size)]] for m in order]
        body += '<div class="wide">' + _table(["model", *[f"pass@{int(k)}" for k in ranks.k]], rrows,
                                               text_cols=1 + ranks.k.size) + "</div>"
        body += (f'<p class="caption">Rank (1 = best) and its {lvl} confidence interval, holding for every model at '
                 f"once at each k, on the {ranks.problems} problems all models share: the range runs from 1 + the "
                 "number of models significantly better to M − the number significantly worse, all pairs tested "
                 "together by a paired bootstrap max-|t| (passcurve.rank_models). In brackets: the score"
                 + (" on those problems, not the table's above, which averages each model's own problems"
                    if any(int(np.sum(counts.model == m)) > int(ranks.problems) for m in table_curve.models) else "")
                 + ".</p>")
    elif ranks_note:
        body += f'<p class="caption">{esc(ranks_note)}</p>'
    if comparisons:
        ref = comparisons[0].model_a
        lvl = level_label(comparisons[0].confidence_level)
        body += f"<h3>Each model against {esc(ref)} (highest pass@1)</h3>"
        ch = ["model A", "model B", "k", "A", "B", "A − B", f"{lvl} interval", "p-value", "problems", "paired",
              "method"]
        crow = []
        # A and B side by side in one notation; the difference and its interval's ends in another (as `compare`)
        ab = number_format(np.concatenate([np.r_[c.value_a, c.value_b] for c in comparisons]))
        dd = signed_format(np.concatenate([np.r_[c.difference, c.low, c.high] for c in comparisons]))
        # the p-values as `compare` writes its column (number_format of all of them): '< 0.001' here stood for the
        # CLI's '0.00017' and '3.00e-06' alike
        fp = number_format(np.concatenate([np.asarray(c.p_value, dtype=float) for c in comparisons]))
        for c in comparisons:
            for j, k in enumerate(c.k):
                crow.append([c.model_a, c.model_b, int(k), ab(c.value_a[j]), ab(c.value_b[j]),
                             dd(c.difference[j]), f"[{dd(c.low[j])}, {dd(c.high[j])}]",
                             fp(c.p_value[j]),
                             int(c.problems[j]) if c.problems_b is None else f"{c.problems[j]} / {c.problems_b[j]}",
                             "yes" if c.paired else "no",
                             f"{c.method}; {c.test}"])
        body += '<div class="wide scroll">' + _table(ch, crow, text_cols=2) + "</div>"
        # paired only where both models ran on the same problems (else passcurve.compare falls back to an unpaired
        # comparison of each model's mean over its own problems, and the table says "no")
        paired = {bool(c.paired) for c in comparisons}
        how = ("paired on shared problems" if paired == {True} else
               "unpaired: the models ran on different problems, so each mean is over that model's own problems, "
               "counted under problems as A / B" if paired == {False} else
               "paired on shared problems where both models ran on the same problems, else unpaired over each "
               "model's own problems (see the column paired)")
        # a resampled p-value cannot go below 1/(B + 1): the report draws 1,000, `compare` 2,000 by default, so the
        # same comparison's smallest p read 0.00100 here and 0.00050 there without a word (helper-105's review)
        B = min((c.n_resamples for c in comparisons if c.n_resamples and c.test == "sign-flip permutation"),
                default=None)
        floor = ("" if B is None else f" Sign-flip p-values come from {B:,} resamples and cannot fall below "
                 f"1/{B + 1:,} ≈ {1 / (B + 1):.2g}; at that floor the true p-value may be far smaller.")
        body += (f'<p class="caption">{esc(metric_name(comparisons[0].metric))}: difference A − B with its '
                 f"{lvl} interval and a two-sided p-value of no difference; {how} (passcurve.compare).{floor}</p>")
    return Section("models", "Model comparison", body, note=note)


def diagnostics_section(diag: Any, note: str | None = None) -> Section:
    """Hidden-difficulty diagnostics per model (:class:`passcurve.DiagnosticsResult`): the seed's widget measured.

    A table of P(right), μ², P(both right), P(2nd | 1st), intra-class correlation, and a chart of
    the actual pass@k beside the independent-coin curve 1 − (1 − μ)**k.
    """
    title = "Hidden difficulty: measured on this benchmark"
    if diag is None:
        return Section("hidden-difficulty", title, note=note or "Not available.", omitted=True)
    ks = [int(k) for k in diag.k]
    j8 = ks.index(8) if 8 in ks else None
    # problems with one sample enter μ but no pair statistic: then the pairs' own μ is a column, and μ² is its square
    one = np.zeros(len(diag.models), dtype=np.int64) if diag.one_sample is None else np.asarray(diag.one_sample)
    split = bool(one.any()) and diag.pair_mean is not None
    headers = ["model", "μ = P(right)", *(["μ, problems with n ≥ 2"] if split else []),
               "μ² (if indep.)", "P(both right)", "P(2nd | 1st right)", "ICC", "σ of p"]
    if j8 is not None:
        headers += ["pass@8 if indep.", "pass@8 actually"]
    rows = []
    for i, m in enumerate(diag.models):
        row = [m, fmt_pct3(diag.mean[i]), *([fmt_pct3(diag.pair_mean[i])] if split else []),
               fmt_pct3(diag.mean_squared[i]), fmt_pct3(diag.both_right[i]),
               fmt_pct3(diag.second_given_first[i]), fmt_fixed(diag.icc[i], 3), fmt_pct3(diag.difficulty_sd[i])]
        if j8 is not None:
            row += [fmt_pct3(diag.independent_pass_at_k[i, j8]), fmt_pct3(diag.pass_at_k[i, j8])]
        rows.append(row)
    body = '<div class="wide">' + _table(headers, rows) + "</div>"
    pairs_note = ""
    if split:
        left = ", ".join(f"{esc(str(m))}: {int(o):,} of {int(diag.problems[i]) + int(o):,} problems left out"
                         for i, (m, o) in enumerate(zip(diag.models, one, strict=True)) if o)
        pairs_note = (" A problem with one sample has no pair of answers: μ², P(both right), P(2nd | 1st right), ICC "
                      f"and σ are over the problems with n ≥ 2, with their own μ ({left}).")
    # a model whose answers are all wrong (or all right) has ICC 0/0: its '-' said nothing of why
    mu = diag.mean if diag.pair_mean is None else diag.pair_mean
    flat = [esc(str(m)) + (" (every answer wrong; P(2nd | 1st right) too, with no first answer right)" if mu[i] == 0
                           else " (every answer right)")
            for i, m in enumerate(diag.models) if diag.problems[i] > 0 and mu[i] in (0.0, 1.0)]
    flat_note = (f" ICC '-' for {', '.join(flat)}: the outcomes do not vary, so σ²/(μ(1 − μ)) is 0/0 and the ICC "
                 "is undefined." if flat else "")
    body += ('<p class="caption">μ: mean c/n; P(both right): two answers to one problem both right; ICC: the '
             "intra-class correlation σ²/(μ(1 − μ)); σ: the standard deviation of per-problem pass rates."
             f"{pairs_note}{flat_note}</p>")
    go = _go()
    fig = go.Figure()
    kx = np.asarray(ks, dtype=float)
    for i, m in enumerate(diag.models):
        col = colour(i)
        fig.add_trace(go.Scatter(x=kx, y=diag.pass_at_k[i], mode="lines+markers", name=_label(m),
                                 legendgroup=m, line={"color": col, "width": 2.5}, marker={"size": 5},
                                 hovertemplate="%{y:.4f}"))
        fig.add_trace(go.Scatter(x=kx, y=diag.independent_pass_at_k[i], mode="lines", name=f"{_label(m)} if independent",
                                 legendgroup=m, line={"color": col, "width": 1.5, "dash": "dash"},
                                 hovertemplate="%{y:.4f}", showlegend=False))
    _style_key(go, fig, [("actually", "solid"), ("if independent: 1 − (1 − μ)<sup>k</sup>", "dash")])
    _layout(fig, xtitle="k (doubling)", ytitle="pass@k", height=420)
    if 1 < kx.size <= 14:  # the points' own k (1, 2, 4, 8, ...): the 1-2-5 ticks fell between them (report review)
        text = [f"{int(k):,}" for k in kx]
        fig.update_xaxes(tickvals=kx.tolist(), ticktext=text)
        # on a phone every other one, ending at the last ("128 256 512" touched at 390 px)
        phone_x_ticks(fig, kx.tolist(), text, kx.tolist()[::-2][::-1])
    fig.update_yaxes(rangemode="tozero")
    body += figure_html(fig, "fig-hidden") + many_models_caption(len(diag.models))
    # what the chart shows, model by model: the estimates can sit on the other side of the theory's inequality. Each
    # model is read at its own largest k: under k_gt_n="nan" a model sampled less stops early (NaN beyond its n)
    both = np.isfinite(diag.pass_at_k) & np.isfinite(diag.independent_pass_at_k)
    last = [int(np.flatnonzero(row)[-1]) if row.any() else None for row in both]
    gap = [float(diag.independent_pass_at_k[i, j] - diag.pass_at_k[i, j]) if j is not None else math.nan
           for i, j in enumerate(last)]
    below = [str(m) for m, g in zip(diag.models, gap, strict=True) if g > 0]
    others = [(str(m), j) for m, g, j in zip(diag.models, gap, last, strict=True) if not g > 0]
    if not others:
        seen = "Here the actual pass@k (solid) falls below independent coin flips at the average rate (dashed)" + (
            " for every model." if len(below) > 1 else ".")
    else:
        ends = {j for _, j in others}
        one_end = len(ends) == 1 and None not in ends
        names = ", ".join(esc(m) + ("" if one_end or j is None else f" (k = {ks[j]:,})") for m, j in others[:4]) + (
            f" and {len(others) - 4} more" if len(others) > 4 else "")
        where = f"at k = {ks[min(j for _, j in others if j is not None)]:,} the estimate is" if one_end else (
            "at the k given, the estimate is")
        seen = ((f"Here the actual pass@k (solid) falls below independent coin flips at the average rate (dashed) for "
                 f"{len(below)} of {len(gap)} models, not for " if below else
                 "Here the actual pass@k (solid) does not fall below independent coin flips (dashed) for ")
                + f"{names}: {where} at or above the independent curve, as when the "
                "problems are alike in difficulty (ICC near 0) or too few to tell.")
    body += (
        '<p class="caption">Two answers to the same problem are both right with probability μ² + σ², not μ²: '
        "problems differ in difficulty (σ), so a right first answer is evidence the problem is easy, and pass@k "
        f"grows more slowly than for independent coin flips. {seen} "
        'Move the sliders in the <a href="#explorer">explorer</a> to see the same effect.</p>'
    )
    return Section("hidden-difficulty", title, body, note=note)


def subset_means(curve: Any) -> bool:
    """True when some mean is over only the problems sampled that far (``k_gt_n="drop"``): problems were left out
    at a k where others remain. Under "nan" a model's curve instead stops (NaN) at its smallest n; under a
    stop-at-success design the design decides what is left out (and says so), not the drop policy."""
    return curve.design is None and bool(np.any((np.asarray(curve.dropped) > 0) & (np.asarray(curve.problems) > 0)))


def _coverage_k(curve: Any, own: bool, kmax: int) -> str:
    """Where the coverage column is read: one k, each model's smallest n, or (problems with fewer samples left out
    of the mean, ``k_gt_n="drop"``) each model's largest n over the problems that reach it."""
    if subset_means(curve):
        return ("k (each model at its own largest n, over only the problems sampled that far: those with fewer "
                "samples are left out of the mean)" if own else
                f"{kmax:,} (over only the problems sampled that far: those with fewer samples are left out of the mean)")
    return "k (each model at its own smallest n)" if own else f"{kmax:,}"


def _first_try_source(curve: Any, retries: dict[str, Any]) -> str:
    """Where the first-try column comes from when some models have a retry reading: attempt 1 only for those (the
    others, whose attempts look independent, keep the mean over all samples, though their order is known too)."""
    first = [m for m in curve.models if (retries.get(m) or {}).get("first_try") is not None]
    if len(first) == len(curve.models):
        return "(the success rate of each problem's first attempt, read from the attempt order)"
    rest = "the mean of c/n" if curve.design is None else f"the stopping-time estimate for a {esc(curve.design)} design"
    return ("(the success rate of each problem's first attempt for the models whose attempts are dependent or stop at "
            f"the first success, as the cell says; else {rest})")


def loop_numbers_section(curve: Any, pow_k: int | None, retries: dict[str, Any] | None = None,
                         retry_note: str | None = None, flags: Sequence[str] = ()) -> Section:
    """The four numbers a self-improving loop needs, per model, each only where the data support it.

    first-try pass@1; coverage pass@k at the largest k; pass^k (k = ``pow_k``, only when every
    problem has at least that many samples); completion within the retry budget (only with
    ``retries``: per model ``{"budget", "completion"}`` from per-attempt data with dependent attempts).
    """
    ks = [int(k) for k in curve.k]
    kmax = ks[-1]
    # coverage at each model's own largest k (its smallest n when the models' ranges differ)
    j_last = [int(j) for j in curve.last_index()]
    own = len(set(j_last)) > 1
    j_pow = ks.index(pow_k) if pow_k in ks and "pass_pow_k" in curve.values else None
    has_ci = "pass_at_k" in curve.intervals
    headers = ["model", "first-try pass@1", "coverage pass@n" if own else f"coverage pass@{kmax:,}"]
    if j_pow is not None:
        headers.append(f"pass^{pow_k} (all {pow_k} right)")
    if retries:
        headers.append("completion within the retry budget")
    # one format per column, over its values and brackets (pass^8 read 0.0019% beside 0.3%)
    first_fmt = curve_column(curve, "pass_at_k", 0, percent=True,
                             also=[r["first_try"] for r in (retries or {}).values() if r.get("first_try") is not None])
    done_fmt = number_format([r["completion"] for r in (retries or {}).values()], 1, percent=True)
    cov_fmt = curve_column(curve, "pass_at_k", j_last, percent=True)
    pow_fmt = curve_column(curve, "pass_pow_k", j_pow, percent=True) if j_pow is not None else fmt_pct
    rows = []
    for i, m in enumerate(curve.models):
        first = _with_interval(curve, "pass_at_k", i, 0, first_fmt)
        r = (retries or {}).get(m)
        if r and r.get("first_try") is not None:  # the attempt order is known: the first attempt itself
            first = Raw(f"{esc(first_fmt(r['first_try']))}<br><span class='ci'>success rate of attempt 1 "
                        f"(mean c/n {esc(first_fmt(curve.values['pass_at_k'][i, 0]))})</span>")
        cov = _with_interval(curve, "pass_at_k", i, j_last[i], cov_fmt)
        if own:
            cov = Raw(f"{cov}<br><span class='ci'>at k = {ks[j_last[i]]:,}</span>")
        row = [m, first, cov]
        if j_pow is not None:
            row.append(_with_interval(curve, "pass_pow_k", i, j_pow, pow_fmt))
        if retries:
            r = retries.get(m)
            row.append(Raw(f"{esc(done_fmt(r['completion']))} within {r['budget']:,}<br>"
                           f"<span class='ci'>{esc(r['sub'])}</span>") if r else "-")
        rows.append(row)
    body = '<div class="wide">' + _table(headers, rows) + "</div>"
    expl = [
        "<b>first-try pass@1</b>: the share of problems a single sample solves "
        + (_first_try_source(curve, retries) if retries else "(mean of c/n)" if curve.design is None else
           f"(the stopping-time estimate for a {esc(curve.design)} design, not c/n)"),
        f"<b>coverage</b>: the share solved at least once in {_coverage_k(curve, own, kmax)} "
        f"sample{'' if kmax == 1 and not own else 's'}, which a loop only collects with a verifier that recognises the right sample",
    ]
    if j_pow is not None:
        expl.append(f"<b>pass^{pow_k}</b>: the chance that {pow_k} independent attempts are all right (reliability)")
    elif curve.design is not None:
        expl.append("<b>pass^k</b> is not shown: it is not observable once sampling stops at a success")
    else:
        expl.append("<b>pass^k</b> is not shown: it needs at least 2 samples of every problem")
    if retries:
        expl.append("<b>completion within the retry budget</b>: the share of problems whose first success comes "
                    "within that many attempts, read from the attempt order (passcurve.retries), where attempts "
                    "are dependent and pass@k's formula does not apply")
    if retry_note:
        expl.append(esc(retry_note))
    # only where a bracket is drawn: one problem's intervals are undefined and the cells show none (user review:
    # the one-problem report said "brackets: 95% intervals" with no brackets on the page)
    if has_ci and '<span class="ci">[' in body:
        # the level and the method, as the pass@k chart's caption says them (it said the level alone)
        expl.append(f"brackets: {_level(curve)} intervals ({esc(curve.interval_method or 'interval')}), counting "
                    "problems, not samples" + (f"; {_FEW_NOTE}" if _FEW_MARK in body else ""))
    body += '<ul class="caption">' + "".join(f"<li>{e}</li>" for e in expl) + "</ul>"
    if flags:  # the warnings themselves are in the banner at the top and under flags: named here, not repeated
        named = ", ".join(f"<strong>{esc(f)}</strong>" for f in dict.fromkeys(flags))
        body += (f"<p class='caption'>Read these numbers with the warning{'s' if len(flags) > 1 else ''} at the "
                 f"top of the page ({named}; all warnings are under <a href='#flags'>flags</a>).</p>")
    # the title counts the columns shown: "Four numbers" over a table of three (no retries) read as a missing one
    shown = len(headers) - 1
    words = {1: "One number", 2: "Two numbers", 3: "Three numbers", 4: "Four numbers"}
    return Section("loop", f"{words.get(shown, 'Numbers')} for a self-improving loop", body)


def _natural_ranks(names: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``names``' place in :func:`natural_key` order among the distinct names (a name sorts once, not once
    per row), and the distinct names in that order."""
    distinct, inverse = np.unique(names.astype(str), return_inverse=True)
    by = np.array(sorted(range(distinct.size), key=lambda i: natural_key(distinct[i])), dtype=np.int64)
    rank = np.empty(distinct.size, dtype=np.int64)
    rank[by] = np.arange(distinct.size)
    return rank[np.ravel(inverse)], distinct[by]


def _table_rows(counts: Any, max_rows: int, rank: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Rows of the per-problem table and how many problems they cover (0: not whole problems). The rows stand
    with each model's rows together, models as the file lists them, problems in :func:`natural_key` order (``rank``:
    each row's problem's place in it, from :func:`_natural_ranks`).

    Up to ``max_rows`` rows: all of them when they fit; else whole problems, each with every model's row of it, as
    many as fit, taken in the order the models list them (a problem's place is its earliest place in any model's
    rows; ties by first appearance): on a shared benchmark the first problems of the file, on models run on
    different problems the first of each model in turn. The first ``max_rows`` rows of a file sorted by model
    would show the first model or two alone, and filtering by any other model's name would find nothing.
    """
    total = len(counts)
    if rank is None:
        rank, _ = _natural_ranks(counts.problem)
    _, first_row, model = np.unique(counts.model.astype(str), return_index=True, return_inverse=True)
    by_model = first_row[np.ravel(model)]
    order = np.lexsort((np.arange(total), rank, by_model))
    if total <= max_rows:
        return order, 0
    # the problems and models as integer codes (np.unique of 300,000 strings took 0.2 s a time)
    names, first, inverse, per = np.unique(rank[order], return_index=True, return_inverse=True, return_counts=True)
    inverse = np.ravel(inverse)
    mcode = np.ravel(np.unique(by_model[order], return_inverse=True)[1])
    sizes = np.bincount(mcode)
    pos = np.empty(total, dtype=np.int64)  # each row's place among its model's rows
    pos[np.argsort(mcode, kind="stable")] = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    place = np.full(names.size, total, dtype=np.int64)
    np.minimum.at(place, inverse, pos)
    placed = np.lexsort((first, place))
    fit = int(np.searchsorted(np.cumsum(per[placed]), max_rows, side="right"))
    if fit == 0:  # one problem has more rows than the table holds
        return order[:max_rows], 0
    keep = np.zeros(names.size, dtype=bool)
    keep[placed[:fit]] = True
    return order[np.flatnonzero(keep[inverse])], fit


def per_problem_section(counts: Any, columns: dict[str, np.ndarray], max_rows: int = 5000) -> Section:
    """Sortable table: one row per (model, problem) with n, c, c/n and per-problem estimates.

    ``columns`` maps a header (e.g. "pass@10") to per-row values computed by the library.
    """
    total = len(counts)
    # a problem sorts by its place in natural_key order (click to sort, in report.js, as the rows first stand)
    rank, _ = _natural_ranks(counts.problem)
    take, shown_problems = _table_rows(counts, max_rows, rank)
    # one notation per column, over the rows shown (a pass^8 column mixed "2.45e-08" with "0.1234")
    ratio = number_format(counts.c[take] / counts.n[take])
    col_fmt = [number_format(np.asarray(vals, dtype=float)[take]) for vals in columns.values()]
    rows = []
    for r in take:
        n, c = int(counts.n[r]), int(counts.c[r])
        p = c / n
        row = [str(counts.model[r]), (str(counts.problem[r]), int(rank[r])), (str(n), n), (str(c), c),
               (ratio(p), repr(p))]
        for vals, fmt in zip(columns.values(), col_fmt, strict=True):
            v = float(vals[r])
            row.append((fmt(v), repr(v)))
        row.append("never solved" if c == 0 else ("always solved" if c == n else ""))
        rows.append(row)
    headers = ["model", "problem", "n", "c", "c/n", *columns, "flag"]
    table = _table(headers, rows, table_id="problem-table", sortable=True, text_cols=2)
    note = None
    if take.size < total:
        problems = len(np.unique(counts.problem.astype(str)))
        note = (f"Showing {take.size:,} of {total:,} rows: "
                + (f"{shown_problems:,} of {problems:,} problems, the first each model lists, each with the rows of "
                   "every model that ran it, so the models can be compared on the same problems."
                   if shown_problems else "the first rows of the file.")
                # `passcurve curve --json` was named here: it has the curves per model, no row per problem
                + " Every row: Counts.to_frame(); each problem's pass@k: passcurve.pass_at_k(n, c, k).")
    # what the columns are (pass^4 beside c/n had no word on the page)
    said = [f"<b>{esc(h)}</b>: " + (f"the chance that at least one of {esc(h[5:])} samples of the problem is right"
                                    if h[4] == "@" else f"the chance that {esc(h[5:])} samples of it are all right")
            for h in columns if h.startswith(("pass@", "pass^"))]
    cap = ("<b>c/n</b>: the problem's pass@1. " + "; ".join(said) + (" (estimated from its c of n; '-' where it "
                                                                      "has fewer samples)." if said else "")
           + " pass@n is 1 for every problem solved at least once and 0 for those never solved.")
    body = ('<p class="filter"><label>Filter rows: <input type="search" data-filter="problem-table" '
            'placeholder="model, problem or flag"></label> <span class="muted">Click a column header to sort.</span></p>'
            # "wide": the grey edge that says more columns lie to the right (at 390 px the table showed up to c/n)
            f'<div class="scroll wide">{table}</div><p class="caption">{cap}</p>')
    return Section("problems", "Per-problem table", body, note=note)


def flags_section(warnings: Sequence[tuple[str, str]], notes: Sequence[str] = ()) -> Section:
    """Every warning raised while computing (verbatim, with its category) and every omitted-section note."""
    items = [f'<li class="warning"><strong>{esc(cat)}</strong>: {esc(msg)}</li>' for cat, msg in warnings]
    if not items:
        items = ['<li class="muted">No warnings were raised.</li>']
    body = f'<h3>Warnings raised while computing</h3><ul class="flags">{"".join(items)}</ul>'
    if notes:
        body += "<h3>Not shown</h3><ul class='flags'>" + "".join(f'<li class="muted">{esc(n)}</li>' for n in notes)
        body += "</ul>"
    return Section("flags", "Flags and warnings", body)


def explorer_section(href: str) -> Section:
    body = (
        f'<p class="explorer-link"><a id="explorer-link" href="{esc(href)}">Open the explorer</a>: '
        "two sliders (average pass rate, how much problems differ) show why pass@k grows more slowly than "
        "independent coin flips promise: problems differ in difficulty, and hard ones stay hard. "
        "It is a separate offline page written next to this report.</p>"
    )
    return Section("explorer", "Explorer: hidden difficulty", body)
