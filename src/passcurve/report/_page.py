"""The report page: one self-contained HTML file (plotly's bundled JS inlined once, no network).

Pure presentation: takes already-rendered sections and writes the page around them.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["Section", "render_page", "figure_html", "PLOTLY_CONFIG", "esc"]

PLOTLY_CONFIG: dict[str, Any] = {
    "displaylogo": False,
    "responsive": True,
    "toImageButtonOptions": {"format": "svg", "filename": "passcurve"},
    # an offline report never uploads: no "Share chart" button (plotly.js shows it by default and posts the
    # chart's data to its cloud service), and no server URL to post to
    "showSendToCloud": False,
    "plotlyServerURL": "",
    "modeBarButtonsToRemove": ["sendDataToCloud"],
}


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


@dataclass(frozen=True)
class Section:
    """One report section: an anchor id, a title, its HTML body, or a one-line note when omitted.

    ``omitted`` sections render as their title and the note only (the data or the analysis
    they need is not available); nothing is faked.
    """

    id: str
    title: str
    body: str = ""
    note: str | None = None
    omitted: bool = False

    def to_html(self) -> str:
        note = f'<p class="note">{esc(self.note)}</p>' if self.note else ""
        cls = "section omitted" if self.omitted else "section"
        return f'<section id="{esc(self.id)}" class="{cls}"><h2>{esc(self.title)}</h2>{note}{self.body}</section>'


def figure_html(fig: Any, div_id: str) -> str:
    """A plotly figure as a div + script, without plotly.js (inlined once in the page head)."""
    return fig.to_html(full_html=False, include_plotlyjs=False, config=PLOTLY_CONFIG, div_id=div_id)


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def render_page(title: str, header: str, sections: list[Section], *, footer: str = "") -> str:
    """The whole page: head (CSS, plotly.js inline), table of contents, sections, table-sorting JS."""
    css = resources.files("passcurve.report").joinpath("report.css").read_text(encoding="utf-8")
    js = resources.files("passcurve.report").joinpath("report.js").read_text(encoding="utf-8")
    toc = "".join(
        f'<li class="{"omitted" if s.omitted else ""}"><a href="#{esc(s.id)}">{esc(s.title)}</a></li>'
        for s in sections
    )
    body = "\n".join(s.to_html() for s in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>\n{css}\n</style>\n"
        f'<script id="plotly-js" type="text/javascript">{_plotly_js()}</script>\n'
        "</head>\n<body>\n<main>\n"
        f"{header}\n<nav class=\"toc\"><ol>{toc}</ol></nav>\n{body}\n"
        f'<footer class="muted">{footer}</footer>\n</main>\n'
        f'<script id="passcurve-report-js" type="text/javascript">\n{js}\n</script>\n'
        "</body>\n</html>\n"
    )
