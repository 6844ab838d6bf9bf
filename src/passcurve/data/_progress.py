"""A rich progress bar for long reads (used by the CLI only; the library never prints)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["cli_progress"]

# Show a bar only for files at least this large (small reads finish before a bar helps).
MIN_BYTES = 64 * 2**20


@contextmanager
def cli_progress(console: Any, file: Path | str, *, min_bytes: int = MIN_BYTES) -> Iterator[Callable[[float], None] | None]:
    """Yield a ``progress(percent)`` callback drawing on ``console`` (stderr), or None.

    The bar appears only when ``console`` is a terminal and the input is large; it is
    transient (erased when the read ends), so scripted output stays clean.
    """
    try:
        size = Path(file).stat().st_size
    except OSError:
        size = 0
    if not getattr(console, "is_terminal", False) or size < min_bytes:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    start = time.monotonic()
    with Progress(
        TextColumn("reading {task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(Path(file).name, total=100.0)

        def update(pct: float) -> None:
            if time.monotonic() - start > 0.5:
                bar.update(task, completed=pct)

        yield update
