"""Writing output files whole or not at all (the report, the explorer, static figures, the toy's page)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ._errors import PasscurveError

__all__ = ["write_atomic", "write_text_atomic"]


def write_atomic(path: str | Path, write: Callable[[Path], object]) -> Path:
    """Write ``path`` by ``write(tmp)`` into a temporary file beside it, then rename that file over ``path``.

    A write that fails (disk full, a file-size limit, an error inside the writer) leaves an existing file as it
    was and no partial file behind, and is one :class:`PasscurveError` naming the file.
    """
    path = Path(path)
    if path.is_dir():
        raise PasscurveError(f"cannot write `{path}`: it is a directory")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        raise PasscurveError(f"cannot write `{path}`: {exc.strerror or exc}") from None
    except Exception as exc:  # a writer's own error after a failed write (e.g. zlib.error from a PDF backend)
        raise PasscurveError(f"cannot write `{path}`: {type(exc).__name__}: {exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    """:func:`write_atomic` of UTF-8 text."""
    return write_atomic(path, lambda p: p.write_text(text, encoding="utf-8"))
