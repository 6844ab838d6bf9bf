"""The HTML report (assembled from result objects only), the explorer page and static figures."""

from ._explorer import explorer_bin_shares, explorer_html, explorer_params, explorer_readouts, format_percent, write_explorer

__all__ = ["explorer_bin_shares", "explorer_html", "explorer_params", "explorer_readouts", "format_percent", "write_explorer"]
