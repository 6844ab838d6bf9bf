"""The data layer: any input (files, harness logs, data frames) -> :class:`passcurve.Counts`.

Aggregation runs inside DuckDB (or the frame's own engine); no Python loop over rows.
"""

from ._read import read_counts
from ._write import write_counts, write_table

__all__ = ["read_counts", "write_counts", "write_table"]
