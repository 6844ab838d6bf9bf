"""The data layer: any input (files, harness logs, data frames) -> :class:`passcurve.Counts`.

Aggregation runs inside DuckDB (or the frame's own engine); no Python loop over rows.
"""

from ._frames import counts_from_frame
from ._read import open_samples, read_counts
from ._samples import Samples
from ._write import write_counts, write_table

__all__ = ["read_counts", "counts_from_frame", "open_samples", "Samples", "write_counts", "write_table"]
