"""The ``passcurve`` command line: thin wrappers that parse, call the library and render.

Each command lives in its own module under ``passcurve.cli`` and registers itself on
``app``; no statistics are computed here. Bad input (:class:`passcurve.PasscurveError`)
becomes one line on stderr and exit code 2; anything else is a bug (exit 1, traceback).
"""

from __future__ import annotations

import sys

# Command modules register themselves on `app` when imported (one module per capability).
from . import (
    _compare,  # noqa: F401,E402
    _curve,  # noqa: F401,E402
    _forecast,  # noqa: F401,E402
    _plan,  # noqa: F401,E402
    _report,  # noqa: F401,E402
    _rl,  # noqa: F401,E402
    _vote,  # noqa: F401,E402
)
from ._app import app

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``passcurve`` script."""
    from ._app import run

    sys.exit(run(argv))
