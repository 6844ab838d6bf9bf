"""A rich progress bar for long reads (used by the CLI only; the library never prints)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["cli_progress"]

# The bar appears only once a read has run this long (short reads stay silent).
DELAY_S = 1.0


@contextmanager
def cli_progress(
    console: Any, file: Path | str | Sequence[Path | str], *, delay: float = DELAY_S, min_bytes: int = 0
) -> Iterator[Callable[[float], None] | None]:
    """Yield a ``progress(percent)`` callback drawing on ``console`` (stderr), or None.

    Nothing is drawn unless ``console`` is a terminal and the read lasts longer than
    ``delay`` seconds; the bar is transient (erased when the read ends), so scripted output
    and pipes stay clean. ``file``: the file read, or the files read one after another (the bar is
    labelled with the first and how many more, and ``min_bytes`` applies to their total size).
    """
    files = [Path(file)] if isinstance(file, str | Path) else [Path(f) for f in file]
    size = 0
    for f in files:
        try:
            size += f.stat().st_size
        except OSError:
            pass
    label = files[0].name if len(files) == 1 else f"{files[0].name} and {len(files) - 1} more"
    if not getattr(console, "is_terminal", False) or size < min_bytes:
        yield None
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    start = time.monotonic()
    state: dict[str, Any] = {}

    def update(pct: float) -> None:
        if "bar" not in state:
            if time.monotonic() - start < delay:
                return
            bar = Progress(
                TextColumn("reading {task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>3.0f}%"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(label, total=100.0)
        state["bar"].update(state["task"], completed=pct)

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].stop()
