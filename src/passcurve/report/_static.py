"""Static figures for papers (PNG, SVG, PDF) with matplotlib: offline, no browser needed.

Drawn from the same result objects as the HTML report (:class:`ReportData`); no statistics here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from .._errors import PasscurveError
from .._files import write_atomic
from .._results import level_label
from ._sections import POW_FLOOR, colour, line_mode

__all__ = ["PANELS", "PANEL_METRICS", "panel_metrics", "static_figure", "save_figure"]

PANELS = ("pass_at_k", "failure", "pass_pow_k", "naive")
"""Panels `passcurve plot` can draw (``--panel``); the default draws the first three."""

PANEL_METRICS = {"pass_at_k": ("pass_at_k",), "failure": ("pass_at_k",), "pass_pow_k": ("pass_at_k", "pass_pow_k"),
                 "naive": ("pass_at_k", "naive_pass_at_k")}
"""The curve metrics each panel draws (``compute_report_data(metrics=)``: only those are computed)."""


def panel_metrics(panels: Any) -> tuple[str, ...]:
    """The curve metrics the panels draw, in :data:`PANEL_METRICS`' order."""
    return tuple(dict.fromkeys(m for p in _static_iv(panels) for m in PANEL_METRICS[p]))

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}



def _marker(y: Any) -> str | None:
    """A marker where a curve has a single point (one sample per problem), which a line alone would not draw."""
    return "o" if line_mode(y) != "lines" else None

def _static_iv(panels: Any) -> tuple[str, ...]:
    if isinstance(panels, str):
        panels = [p.strip() for p in panels.split(",") if p.strip()]
    panels = tuple(panels)
    if not panels:
        raise PasscurveError("`panels` is empty")
    for p in panels:
        if p not in PANELS:
            raise PasscurveError(f"`panels` must be drawn from {', '.join(PANELS)} (got {p!r})")
    return panels


def static_figure(data: Any, panels: Any = PANELS[:3]) -> Any:
    """A matplotlib Figure with one axis per panel, one line per model (bands/fits where available)."""
    panels = _static_iv(panels)
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    def k_label(v: float, _: Any) -> str:
        return f"{v:g}" if v < 1e5 else f"$10^{{{round(np.log10(v))}}}$"

    cur = data.curve
    ks = np.asarray(cur.k, dtype=float)
    fig = Figure(figsize=(4.2 * len(panels), 3.6), layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, panel in zip(axes, panels, strict=True):
        for i, m in enumerate(cur.models):
            col = colour(i)
            if panel == "pass_at_k":
                if "pass_at_k" in cur.intervals:
                    lo, hi = cur.intervals["pass_at_k"]
                    ax.fill_between(ks, lo[i], hi[i], color=col, alpha=0.18, linewidth=0)
                ax.plot(ks, cur.values["pass_at_k"][i], color=col, lw=1.8, label=m, marker=_marker(cur.values["pass_at_k"][i]))
            elif panel == "failure":
                fail = 1 - cur.values["pass_at_k"][i]
                ok = fail > 0
                ax.plot(ks[ok], fail[ok], color=col, lw=1.8, label=m, marker=_marker(fail[ok]))
                f = data.fits.get(m) if data.fits else None
                if f and "power_law" in f:
                    pk, pv = f["power_law"]
                    ax.plot(pk, pv, color=col, lw=1.0, ls="--")
                if f and "forecast" in f:
                    fk, fv, flo, fhi = (np.asarray(a, dtype=float) for a in f["forecast"])
                    if np.isfinite(flo).any():
                        ax.fill_between(fk, flo, fhi, color=col, alpha=0.15, linewidth=0)
                    ax.plot(fk, fv, color=col, lw=1.2, ls=":")
            elif panel == "pass_pow_k":
                v = cur.values["pass_pow_k"][i]
                ok = v >= POW_FLOOR
                ax.plot(ks[ok], v[ok], color=col, lw=1.8, label=m, marker=_marker(v[ok]))
            elif panel == "naive":
                ax.plot(ks, cur.values["pass_at_k"][i], color=col, lw=1.8, label=f"{m}", marker=_marker(cur.values["pass_at_k"][i]))
                ax.plot(ks, cur.values["naive_pass_at_k"][i], color=col, lw=1.0, ls="--")
        ax.set_xscale("log")
        lo_x, hi_x = ax.get_xlim()
        if hi_x / max(lo_x, 1e-9) < 100:  # short range: 1-2-5 ticks
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(k_label))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("k")
        ax.grid(True, which="major", alpha=0.3)
        level = level_label(cur.confidence_level or 0.95)  # every band of the figure is at the data's level
        if panel == "pass_at_k":
            ax.set_ylabel("pass@k")
            ax.set_ylim(0, 1)
            if "pass_at_k" in cur.intervals:
                ax.set_title(f"bands: {level} intervals (counting problems)", fontsize=8)
        elif panel == "failure":
            _log_y(ax)
            _lines_set_bottom(ax)
            ax.set_ylabel("1 − pass@k")
            if data.fits:
                banded = any(f and "forecast" in f and np.isfinite(np.asarray(f["forecast"][2], dtype=float)).any()
                             for f in data.fits.values())
                # two lines: on one, the title is wider than its panel and runs off a figure's right edge
                ax.set_title("solid: observed, dashed: power law,\ndotted: forecast"
                             + (f" ({level} prediction band)" if banded else ""), fontsize=8)
        elif panel == "pass_pow_k":
            _log_y(ax)
            ax.set_ylabel("pass^k")
        elif panel == "naive":
            ax.set_ylabel("pass@k")
            ax.set_title("solid: unbiased, dashed: naive plug-in", fontsize=8)
            ax.set_ylim(0, 1)
    axes[0].legend(fontsize=8, frameon=False)
    return fig


def _log_y(ax: Any) -> None:
    """Log y axis when some plotted value is positive; otherwise say so (a log axis of nothing fails)."""
    if any(np.any(np.asarray(line.get_ydata(), dtype=np.float64) > 0) for line in ax.get_lines()):
        ax.set_yscale("log")
    else:
        ax.text(0.5, 0.5, "no positive values to show", transform=ax.transAxes, ha="center", va="center",
                fontsize=8)


def _lines_set_bottom(ax: Any) -> None:
    """On a log y axis, the bottom at a fifth of the smallest positive value a *line* shows: a prediction band whose
    lower end reaches 1 − pass@K = 0 (n = 10: every law the data allow) otherwise stretched the axis to 1e-5 and left
    the curves in its top fifth."""
    if ax.get_yscale() != "log":
        return
    ys = np.concatenate([np.asarray(line.get_ydata(), dtype=np.float64) for line in ax.get_lines()])
    pos = ys[np.isfinite(ys) & (ys > 0)]
    if pos.size:
        ax.set_ylim(bottom=max(ax.get_ylim()[0], float(pos.min()) / 5))


def save_figure(fig: Any, path: str | Path) -> Path:
    """Save ``fig`` as PNG, SVG or PDF (by extension), with no network-pointing metadata."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise PasscurveError(f"`output` must end in .png, .svg or .pdf (got {path.name!r})")
    meta = {"png": {"Software": "passcurve"}, "svg": {"Creator": "passcurve"}, "pdf": {"Creator": "passcurve"}}[fmt]
    return write_atomic(path, lambda p: fig.savefig(p, format=fmt, dpi=200, metadata=meta))
