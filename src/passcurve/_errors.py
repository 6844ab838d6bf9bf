"""Errors and warnings raised by passcurve (the only module that defines them).

Every error caused by the user's input is a :class:`PasscurveError`, a subclass of
:class:`ValueError`, carrying a one-line message that names the offending argument,
column or file. The CLI turns it into that one line on stderr and exit code 2.

Every warning is a subclass of :class:`PasscurveWarning`; the CLI and the report show
them verbatim.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

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


# a model's name as its repr() quotes it: single quotes, or double quotes when the name has a single quote and no
# double one (it's -> "it's"), escapes included, so a name holding "': " is not cut there
_QUOTED = r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")"""
_PER_MODEL = re.compile(rf"^model {_QUOTED}: (.*)$", re.S)
_PER_PAIR = re.compile(rf"^models {_QUOTED} and {_QUOTED}: (.*)$", re.S)  # compare's statements about one pair
_PAREN = re.compile(r"\(([^()]*)\)")


def fold_warnings(items: Sequence[tuple[str, str]],
                  file_level: Sequence[tuple[str, str]] = ()) -> tuple[tuple[str, str], ...]:
    """Warnings ``items`` (category name, message) with one per-model statement repeated for several models said
    once: how the report and the command line show them.

    Library calls that work per model warn once per model in the same words ("model 'A': n looks like a
    stopping time (151 problems ...): ..."): those of one category and one wording outside the first
    parenthesis become one warning naming each model with its own parenthesis, or naming the models once when
    the parenthesis is the same for all. A per-model warning whose
    category the reader already stated for the file (``file_level``: the same check on the same evidence)
    is left out.
    """
    stated = {cat for cat, _ in file_level}
    given = set(file_level)
    out: list[tuple[str, str]] = []
    # (category, is a pair, wording with the first parenthesis cut out) -> [(who, that parenthesis)]
    groups: dict[tuple[str, bool, str], list[tuple[str, str | None]]] = {}
    slot: dict[tuple[str, bool, str], int] = {}
    for cat, msg in items:
        m = _PER_MODEL.match(msg)
        pair = None if m is not None else _PER_PAIR.match(msg)  # compare's statements fold among pairs
        if m is not None:
            if cat in stated and (cat, msg) not in given:
                continue
            # the name as the message quoted it (its repr, already escaped): repr() again doubled every backslash
            # (the report read 'q"uote\\\'s' for a model named q"uote's)
            who, rest = m.group(1), m.group(2)
        elif pair is not None:
            who, rest = f"{pair.group(1)} vs {pair.group(2)}", pair.group(3)
        else:
            out.append((cat, msg))
            continue
        paren = _PAREN.search(rest)
        key = (cat, pair is not None, rest if paren is None else rest[: paren.start()] + "\0" + rest[paren.end():])
        if key not in groups:
            groups[key], slot[key] = [], len(out)
            out.append((cat, msg))
        groups[key].append((who, None if paren is None else paren.group(1)))
    for (cat, pairs, template), members in groups.items():
        if len(members) > 1:
            what = "pairs of models" if pairs else "models"
            inners = {inner for _, inner in members}
            if "\0" in template and len(inners) > 1:
                said = "; ".join(f"{who}: {inner}" for who, inner in members)
                text = f"{len(members)} {what}: " + template.replace("\0", f"({said})")
            elif "\0" in template:  # the same parenthesis for every model: said once
                text = f"{what} {', '.join(who for who, _ in members)}: " + template.replace(
                    "\0", f"({inners.pop()})")
            else:
                text = f"{what} {', '.join(who for who, _ in members)}: {template}"
            out[slot[(cat, pairs, template)]] = (cat, text)
    return tuple(out)
