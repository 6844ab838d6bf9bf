"""Errors and warnings raised by passcurve (the only module that defines them).

Every error caused by the user's input is a :class:`PasscurveError`, a subclass of
:class:`ValueError`, carrying a one-line message that names the offending argument,
column or file. The CLI turns it into that one line on stderr and exit code 2.

Every warning is a subclass of :class:`PasscurveWarning`; the CLI and the report show
them verbatim.
"""

from __future__ import annotations

import warnings

__all__ = [
    "PasscurveError",
    "InputFormatError",
    "PasscurveWarning",
    "DegenerateDataWarning",
    "DroppedProblemsWarning",
    "StoppingTimeWarning",
    "NoHeavyTailWarning",
    "ImpossibleMassWarning",
    "DependenceWarning",
    "ConvergenceWarning",
    "UnpairedComparisonWarning",
    "MergedAnswersWarning",
]


class PasscurveError(ValueError):
    """Bad input: the message is one line that names the argument, column or file."""

    def __init__(self, message: str) -> None:
        # Keep the message on one line, whatever the caller passed.
        super().__init__(" ".join(str(message).split()))


class InputFormatError(PasscurveError):
    """A file or frame could not be read as any supported layout or format."""


class PasscurveWarning(UserWarning):
    """Base class of every warning passcurve emits."""


class DegenerateDataWarning(PasscurveWarning):
    """The data cannot support the requested quantity well (e.g. every problem solved)."""


class DroppedProblemsWarning(PasscurveWarning):
    """Problems were left out of an aggregate (for example n < k with ``k_gt_n="drop"``)."""


class StoppingTimeWarning(PasscurveWarning):
    """n looks like a stopping time (sampling stopped at a success), not fixed in advance."""


class NoHeavyTailWarning(PasscurveWarning):
    """Every problem is eventually solved: pass@k leaves the power law."""


class ImpossibleMassWarning(PasscurveWarning):
    """The data show evidence of problems the model never solves (a plateau)."""


class DependenceWarning(PasscurveWarning):
    """Attempts are not independent (e.g. retries with feedback): pass@k's formula does not apply."""


class ConvergenceWarning(PasscurveWarning):
    """An optimizer did not converge; the result carries ``success=False`` and its message."""


class UnpairedComparisonWarning(PasscurveWarning):
    """Two models were compared on different problem sets; the comparison is unpaired."""


class MergedAnswersWarning(PasscurveWarning):
    """Several answers of one problem are judged correct (spellings such as "72" and "72."); a vote counts them
    as one answer."""


def record_warning(record: list[str], message: str, category: type[Warning], stacklevel: int = 2) -> None:
    """Emit ``message`` as a ``category`` warning and keep it in ``record``, a result's ``warnings``.

    A result keeps each warning as ``"Category: message"``, the form the CLI prints, so that a saved
    ``to_dict()`` still says what kind of warning it was. ``stacklevel`` is counted from the caller, as
    for :func:`warnings.warn`.
    """
    record.append(f"{category.__name__}: {message}")
    warnings.warn(message, category, stacklevel=stacklevel + 1)
