"""The HTML report (assembled from result objects only), the explorer page and static figures.

build_report(counts) -> Report          the offline HTML report (``Report.write(path)``)
compute_report_data(counts)             the result objects the report shows
explorer_html(), write_explorer(path)   the hidden-difficulty explorer page
explorer_readouts(mean, sd)             the explorer's numbers, computed in Python
"""

from ._build import STEPS, Report, ReportData, build_report, compute_report_data, report_k_grid
from ._explorer import (
    explorer_bin_shares,
    explorer_html,
    explorer_params,
    explorer_readouts,
    format_percent,
    write_explorer,
)
from ._page import Section

__all__ = [
    "STEPS",
    "Report",
    "ReportData",
    "Section",
    "build_report",
    "compute_report_data",
    "report_k_grid",
    "explorer_bin_shares",
    "explorer_html",
    "explorer_params",
    "explorer_readouts",
    "format_percent",
    "write_explorer",
]
