"""The typer app and the shared plumbing every command uses (errors, k lists, JSON, warnings)."""

from __future__ import annotations

import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any

import typer
from rich.console import Console

from .._errors import PasscurveError, PasscurveWarning, fold_warnings


def _click_exception_modules() -> list[Any]:
    """Click's exception modules: recent typer vendors click as ``typer._click``; older uses click."""
    mods = []
    try:
        from typer._click import exceptions as vendored  # type: ignore[import-not-found]

        mods.append(vendored)
    except ImportError:
        pass
    try:
        from click import exceptions as plain

        mods.append(plain)
    except ImportError:
        pass
    return mods


_CLICK = _click_exception_modules()
_EXIT = (typer.Exit, *(m.Exit for m in _CLICK if hasattr(m, "Exit")))
_ABORT = (typer.Abort, *(m.Abort for m in _CLICK if hasattr(m, "Abort")))
_USAGE = tuple(m.ClickException for m in _CLICK)

app = typer.Typer(
    name="passcurve",
    help="Exact pass@k-family curves, error bars, difficulty fits and forecasts from repeated-sampling logs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _show_version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"passcurve {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", help="Print passcurve's version and exit.",
                                 callback=_show_version, is_eager=True),
) -> None:
    """Exact pass@k-family curves, error bars, difficulty fits and forecasts from repeated-sampling logs."""


# markup off: model names, file names and messages come from the user's data, and rich would read "m [strict-match]"
# as a style (dropping it) and "m [/x]" as a closing tag (MarkupError). Styled text is built with rich.text.Text.
class _Console(Console):
    """rich's Console, except that a reader who stops reading (``passcurve curve FILE | head``) ends the command
    like any other broken pipe: rich points stdout at /dev/null and raises SystemExit(1); :func:`run` maps a
    BrokenPipeError to exit 0 (with ``set -o pipefail`` the exit 1 failed scripts whose output was cut short)."""

    def on_broken_pipe(self) -> None:
        try:
            super().on_broken_pipe()
        except SystemExit:
            raise BrokenPipeError from None


out = _Console(soft_wrap=True, markup=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)


class _Output:
    """``sys.stdout`` while a command runs: the same stream, except that an OSError raised writing or flushing it
    is remembered (``failed``). Such an error carries no file name; :func:`run` thus knows the output failed
    (a full disk under ``> file``) rather than a file the command opened."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> Any:
        try:
            return self._stream.write(text)  # what the stream returns (a count, or None for some writers)
        except OSError as exc:
            self.failed = exc
            raise

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self.failed = exc
            raise

    def __getattr__(self, name: str) -> Any:  # encoding, isatty, fileno, buffer, ...: the stream's own
        return getattr(self._stream, name)


_NOTES: list[str] = []
"""What :func:`note` was told during the running command, printed when it ends without an error."""


def note(message: str) -> None:
    """Tell the user how the command read what was given (one line on stderr, ``passcurve: note: ...``).

    Printed once the command has finished, and only if it finished without an error: bad input then gives its one
    error line alone."""
    if message not in _NOTES:
        _NOTES.append(message)


_WARNINGS: list[tuple[str, str]] = []
"""Every passcurve warning the running command raised (category name, message), each once, in order: what
:func:`collect_warnings` caught, kept for the ``warnings`` of the JSON (:func:`print_json`)."""
_FILE_LEVEL: list[tuple[str, str]] = []
"""Those raised while reading the input (the readers' statements about the file, :func:`load_counts`,
:func:`read_data`): a per-model warning of the same category is the same check again (:func:`fold_warnings`)."""
_SHOWN: list[tuple[str, str]] = []
"""The warnings printed on stderr so far (folded), each printed once."""


def _stdout_to_devnull(output: _Output) -> None:
    """After a broken pipe: point stdout's file descriptor at /dev/null (Python's recipe, the signal module's note
    on SIGPIPE). What is still buffered is written at exit, when the interpreter flushes stdout; into the closed
    pipe that flush failed again and printed "Exception ignored in: <_io.TextIOWrapper name='<stdout>'...>
    BrokenPipeError" and made the exit status 120 (`passcurve curve FILE --json | head -c 10`: the JSON sat in
    the buffer until run's final flush). Into /dev/null it succeeds in silence."""
    try:
        fd = output._stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's StringIO): nothing will flush it
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _print_notes() -> None:
    for msg in _NOTES:
        err.print(f"passcurve: note: {msg}", markup=False)


def run(argv: list[str] | None = None) -> int:
    """Run the app; map bad input to exit 2 with one line on stderr."""
    args = sys.argv[1:] if argv is None else list(argv)
    output = _Output(sys.stdout)
    sys.stdout = output  # type: ignore[assignment]
    _NOTES.clear()
    for kept in (_WARNINGS, _FILE_LEVEL, _SHOWN):
        kept.clear()
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_one_line
            app(args=args, standalone_mode=False, prog_name="passcurve")
        sys.stdout.flush()  # an error writing buffered output is the command's, not a note after exit
        _print_notes()
    except PasscurveError as exc:
        print(f"passcurve: error: {as_flags(str(exc), args)}", file=sys.stderr)
        return 2
    except _EXIT as exc:
        # no command at all printed the help: a usage error (exit 2), as click >= 8.2 says; older click exits 0
        return int(getattr(exc, "exit_code", 0) or 0) or (2 if not args else 0)
    except _ABORT:
        print("passcurve: aborted", file=sys.stderr)
        return 1
    except _USAGE as exc:
        # usage errors (unknown option, missing argument): one line, exit 2; no command at all has already
        # printed the help, and has nothing to add
        msg = exc.format_message().replace("\n", " ")
        if msg.strip():
            print(f"passcurve: error: {msg}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        _stdout_to_devnull(output)
        _print_notes()
        return 0
    except SystemExit as exc:
        # click turns a broken pipe inside a command (`passcurve plan ... --csv | head`) into exit 1 after
        # pacifying stdout, and rich's consoles (typer's help: `passcurve --help | head -1`) into SystemExit(1)
        # raised while handling the BrokenPipeError; the reader stopped reading, which is not an error (as when
        # it happens later) (the wrapper is click's PacifyFlushWrapper; newer click (8.5) names it
        # _PacifyFlushWrapper)
        if exc.code == 1 and (isinstance(exc.__context__, BrokenPipeError)
                              or type(sys.stdout).__name__.lstrip("_") == "PacifyFlushWrapper"):
            _stdout_to_devnull(output)
            _print_notes()
            return 0
        raise
    except OSError as exc:  # the file system refused (a missing directory, no permission, a full disk)
        if exc.filename is None and exc is output.failed:
            print(f"passcurve: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            return 2
        where = f" `{exc.filename}`" if exc.filename else ""
        print(f"passcurve: error: cannot access{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    finally:
        if sys.stdout is output:  # click may have wrapped it (a broken pipe): that wrapper stays
            sys.stdout = output._stream
        for kept in (_WARNINGS, _FILE_LEVEL, _SHOWN):  # one command's warnings are not the next caller's
            kept.clear()
    return 0


LIBRARY_NAMES = {"rng": "seed", "batch": "stop_batch", "base_col": "base", "strict_col": "strict"}
"""Library argument names whose command-line option has another name (``rng`` is ``--seed``, ``base_col`` of
:func:`passcurve.data.read_verdicts` is ``verifiers --base``)."""

DATA_ROLES = frozenset({"n", "c"})
"""Names the data layer's messages give to columns (`n`, `c`), never to an option, though `vote --n` exists."""


def as_flags(message: str, args: Sequence[str]) -> str:
    """A library error as the command line says it: a backticked argument of the library (`confidence_level`)
    becomes the running command's option (`--confidence-level`) when the command has one by that name.

    Only the running command's options are used: `n` is ``simulate --n`` (no data read) but a column of the data in a
    command that reads a file (FILE, ``power --pilot``)."""
    name = next((a for a in args if not a.startswith("-")), None)
    try:
        group = typer.main.get_command(app)
        cmd = group.commands.get(name) if name is not None else None  # type: ignore[attr-defined]
    except Exception:  # pragma: no cover - the message stands as the library wrote it
        cmd = None
    if cmd is None:
        return message
    flags = {p.name: next((o for o in p.opts if o.startswith("--")), None) for p in cmd.params}
    reads_data = any(p.name in ("file", "pilot") for p in cmd.params)  # power --pilot FILE has columns n, c too

    def flag(name: str) -> str | None:
        if name in DATA_ROLES and reads_data:  # `n`, `c` are the data's columns there, options only elsewhere
            return None
        return flags.get(name) or flags.get(LIBRARY_NAMES.get(name, ""))

    def rename(text: str) -> str:
        # `name` anywhere, and name= in "(got name=1.5)"
        text = re.sub(r"`([a-z_][a-z0-9_]*)`", lambda m: f"`{flag(m.group(1))}`" if flag(m.group(1)) else m.group(0),
                      text)
        return re.sub(r"\b([a-z_][a-z0-9_]*)=", lambda m: f"{flag(m.group(1))}=" if flag(m.group(1)) else m.group(0),
                      text)

    # a quoted row of the user's file ("e.g. row {problem_id='p1', base=True}") shows the file's own column names:
    # verifiers' columns `base` and `strict` had read "--base=True", a column `k` "--k=3"
    parts = re.split(r"(\{[^{}]*=[^{}]*\})", message)
    message = "".join(p if i % 2 else rename(p) for i, p in enumerate(parts))
    # a library message that names the option for CLI users ("`threshold` (--threshold)") says it once, and so does
    # one that names the option and the reader's keyword (data._columns.column_hint: "`--problem-col`, `problem_col=`
    # in Python" had read "`--problem-col`, `--problem-col=` in Python")
    message = re.sub(r"`(--[a-z0-9-]+)( [^`]*)?`, `\1=[^`]*` in Python", r"`\1\2`", message)
    return re.sub(r"`(--[a-z0-9-]+)` \(\1\)", r"`\1`", message)


def parse_int_list(text: str | None, name: str) -> list[int] | None:
    """'1,10,100' -> [1, 10, 100]; names the option in the error.

    The values come back sorted, each once: every command uses such a list (budgets k, sizes m, n, G) as a set and
    lists its results in increasing order, as the library does. A list given otherwise (``--k 10,1,1``) is used as
    that set, and a :func:`note` says so rather than leave the user to find out from the output."""
    if text is None:
        return None
    vals = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            v = float(part)
        except ValueError:
            raise PasscurveError(f"`{name}` must be a comma-separated list of integers (got {part!r})") from None
        if not v.is_integer():
            raise PasscurveError(f"`{name}` must contain integers (got {part})")
        vals.append(int(v))
    if not vals:
        raise PasscurveError(f"`{name}` is empty")
    used = sorted(set(vals))
    if used != vals:
        note(f"`{name}` {','.join(map(str, vals))} is used as {','.join(map(str, used))} (in increasing order, "
             "each value once)")
    return used


def parse_float_list(text: str | None, name: str) -> list[float] | None:
    if text is None:
        return None
    try:
        vals = [float(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise PasscurveError(f"`{name}` must be a comma-separated list of numbers (got {text!r})") from None
    if not vals:
        raise PasscurveError(f"`{name}` is empty")
    return vals


def column_fmt(*values: Any, percent: bool = False, digits: int | None = None, below_one: bool = False,
               figures: int = 2) -> Callable[[Any], str]:
    """How one CLI table column writes its numbers: :func:`passcurve._validation.number_format` of all of them (the
    column's values and, beside an estimate, its interval's ends), as the report's tables do. One notation per
    column: fixed point with as many decimals as the smallest nonzero value needs (at least 4), or scientific
    for all of it when its values span more than 4 decades (a pass^k column read '0.0007' beside '7.083e-06', and
    '0.0000' beside '1.469e-10', each cell choosing for itself). None and NaN are '-'. ``percent``: shares as
    percentages with at least 2 decimals, never scientific ('<0.001%' below 10⁻⁵). ``digits``: the fewest decimals
    instead (2 for numbers in points of pass@k, as backtest's). ``below_one``: a column read against 1 (forecasts):
    no value below 1 reads 1 (number_format's ``below_one``). ``figures``: the significant digits of the column's
    smallest nonzero value (2; number_format's)."""
    import numpy as np

    from .._validation import number_format

    flat = [np.asarray([np.nan if x is None else x for x in np.ravel(np.asarray(v, dtype=object))], dtype=float)
            for v in values]
    fewest = digits if digits is not None else 2 if percent else 4
    return number_format(np.concatenate(flat) if flat else np.empty(0), fewest, percent=percent, below_one=below_one,
                         figures=figures)


def fmt_cell(x: float | None) -> str:
    """One number alone in a CLI table or line, as :func:`column_fmt` writes a column of it alone ('-' when missing)."""
    return column_fmt([x])(x)


def samples_per_problem(summary: Mapping[str, Any]) -> str:
    """How a table title says the samples per problem: "samples per problem 64 / 64 / 64 (min / median / max)"
    from a result's summary (``n_min``, ``n_median``, ``n_max``)."""
    s = summary
    return f"samples per problem {s['n_min']} / {s['n_median']:g} / {s['n_max']} (min / median / max)"


def print_json(obj: Any) -> None:
    """Plain JSON on stdout (NaN/inf become null, numpy numbers Python ones); never a NaN or Infinity token.

    A result (a dict) gets ``warnings``: every passcurve warning the command raised, reading and analysis, as
    stderr says them (folded by :func:`passcurve._errors.fold_warnings`), then any the result records that were
    not raised; a list of "Category: message" strings, empty when there were none."""
    from .._results import json_safe

    if isinstance(obj, dict):
        raised = {f"{cat}: {msg}" for cat, msg in _WARNINGS}
        own = [w for w in obj.get("warnings", []) if w not in raised]  # recorded by the result but not raised
        items = list(_WARNINGS) + [(w.partition(": ")[0], w.partition(": ")[2]) for w in own]
        obj = {**obj, "warnings": [f"{cat}: {msg}" for cat, msg in fold_warnings(items, _FILE_LEVEL)]}
    sys.stdout.write(json.dumps(json_safe(obj), indent=2, allow_nan=False) + "\n")


@contextmanager
def caught_warnings(acted_on: tuple[type, ...] = ()) -> Iterator[list[tuple[str, str]]]:
    """The passcurve warnings raised in the block, each once, as (category name, message), filled when it ends.

    ``acted_on``: categories the command has already dealt with (e.g. the StoppingTimeWarning
    under ``--stop-batch``), dropped instead of repeated.
    """
    got: list[tuple[str, str]] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PasscurveWarning)
        yield got
    for w in caught:
        if acted_on and issubclass(w.category, acted_on):
            continue
        item = _item(w)
        if item not in got:
            got.append(item)


def _item(w: warnings.WarningMessage) -> tuple[str, str]:
    """A warning as (category name, message), as stderr and the JSON say it. One that is not passcurve's (numpy's
    "overflow encountered in exp", a library's FutureWarning) ends with where it was raised: said on one line like
    passcurve's own, never dropped (it may be about a number) nor printed in Python's two-line form. Those a fresh
    interpreter's filters ignore (DeprecationWarning outside __main__) never get here."""
    if issubclass(w.category, PasscurveWarning):
        return w.category.__name__, str(w.message)
    path = Path(w.filename)
    parts = path.parts
    where = "/".join(parts[len(parts) - 1 - parts[::-1].index("passcurve"):]) if "passcurve" in parts else path.name
    return w.category.__name__, f"{w.message} (raised at {where}:{w.lineno})"


def _show_one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int, file: Any = None,
                   line: str | None = None) -> None:
    """``warnings.showwarning`` while a command runs: a warning raised outside :func:`collect_warnings` (a
    command's own code, the report's rendering) is said as those inside are, "passcurve: warning: Category: message"
    on one line, once, and kept for the JSON."""
    item = _item(warnings.WarningMessage(message, category, filename, lineno))
    if item not in _WARNINGS:
        _WARNINGS.append(item)
    if item not in _SHOWN:
        _SHOWN.append(item)
        err.print(f"passcurve: warning: {item[0]}: {item[1]}", markup=False)


@contextmanager
def collect_warnings(show: bool = True, acted_on: tuple[type, ...] = (), *,
                     reading: bool = False) -> Iterator[list[str]]:
    """Collect passcurve warnings (:func:`caught_warnings`); print each once on stderr when the block ends.

    Every warning is also kept for the command's JSON (:func:`print_json`). Per-model statements in the same words
    are said once, naming the models (:func:`passcurve._errors.fold_warnings`); a per-model warning of a category
    the reader already stated for the file (``reading=True`` blocks) is not said again. The list yielded holds,
    when the block ends, its warnings as printed ("Category: message")."""
    seen: list[str] = []
    with caught_warnings(acted_on) as got:
        yield seen
    for item in got:
        if item not in _WARNINGS:
            _WARNINGS.append(item)
        if reading and item not in _FILE_LEVEL:
            _FILE_LEVEL.append(item)
    for item in fold_warnings(got, _FILE_LEVEL):
        seen.append(f"{item[0]}: {item[1]}")
        if show and item not in _SHOWN:
            _SHOWN.append(item)
            err.print(f"passcurve: warning: {item[0]}: {item[1]}", markup=False)


def command(*args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a command on the shared app."""
    return app.command(*args, **kwargs)


# ---------------------------------------------------------------------------------------
# options shared by every command that reads a sample log or a counts file
# ---------------------------------------------------------------------------------------
from pathlib import Path  # noqa: E402
from typing import Annotated  # noqa: E402

FileArg = Annotated[list[Path], typer.Argument(
    help="Per-sample logs or per-problem counts (JSONL, CSV, Parquet, harness logs): one file, or several side by "
         "side (one model per file, e.g. gpt.jsonl llama.jsonl: a model is its model column, else the file name). "
         "NAME=FILE names the file's model (e.g. codegen=he/codegen/samples.jsonl_results.jsonl), for files of one "
         "name in several directories.",
    show_default=False, metavar="[NAME=]FILE")]


def file_arg(arg: Path | str) -> tuple[str | None, Path]:
    """A FILE argument as (model name given, path): an argument that exists is a path (even with an '=' in it);
    else NAME=PATH splits at the first '=' when PATH exists. Neither: the error says which files were looked for."""
    text = str(arg)
    if os.path.exists(text) or "=" not in text:
        return None, Path(text)
    name, path = text.split("=", 1)
    if not os.path.exists(path):
        raise PasscurveError(f"no such file: {text!r} (nor {path!r}, as NAME=FILE)")
    if not name.strip():
        raise PasscurveError(f"{text!r}: NAME=FILE needs a model name before the '=' (no file {text!r} either)")
    return name, Path(path)


def _file_args(files: Path | list[Path]) -> list[tuple[str | None, Path]]:
    """Each argument of a FILE... argument as :func:`file_arg`'s (name, path)."""
    return [file_arg(f) for f in (files if isinstance(files, list) else [files])]


def file_paths(files: Path | list[Path]) -> list[Path]:
    """The files of a FILE... argument, without the model names given to them (NAME=FILE)."""
    return [p for _, p in _file_args(files)]


def one_or_several(files: Path | list[Path]) -> Any:
    """What the data layer reads for a FILE... argument: the path itself when there is one file and no name, else
    the list of paths and (name, path) pairs (NAME=FILE; data/_several.named_paths)."""
    items = _file_args(files)
    if all(name is None for name, _ in items):
        return items[0][1] if len(items) == 1 else [p for _, p in items]
    return [p if name is None else (name, p) for name, p in items]


ProblemCol = Annotated[str | None, typer.Option("--problem-col", help="Column with the problem id (default: detected).")]
CorrectCol = Annotated[
    str | None,
    typer.Option("--correct-col", help="Column with correctness: bool, 0/1, or a score (see --threshold); in an "
                 "lm_eval or lighteval log the metric (acc_norm), in an inspect log the scorer, or one score of a "
                 "scorer that gives several (correct, or answer_quality/correct)."),
]
ModelCol = Annotated[str | None, typer.Option("--model-col", help="Column with the model name (default: detected).")]
NCol = Annotated[str | None, typer.Option("--n-col", help="Counts layout: column with samples per problem.")]
CCol = Annotated[str | None, typer.Option("--c-col", help="Counts layout: column with correct samples per problem.")]
AttemptCol = Annotated[str | None, typer.Option("--attempt-col", help="Column with the attempt (sample) index.")]
Threshold = Annotated[
    float | None, typer.Option("--threshold", help="A score column counts as correct when score >= threshold.")
]
Format = Annotated[
    str | None, typer.Option("--format", help="Force the input format (jsonl, csv, parquet, or a harness name).")
]
Models = Annotated[str | None, typer.Option(
    "--models", help="Keep these models only (comma-separated names; a comma inside a name is written \\,; a name "
    "is matched as written, else without the spaces at its ends, as --a and --b are).")]
Pool = Annotated[bool | None, typer.Option(
    "--pool", help="Several files are runs over the same problems: a model in several files has its samples pooled "
                   "(n and c added per problem) instead of being an error.", show_default=False)]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed for every random step (reproducible output).")]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print the result object's to_dict() as JSON.")]


def load_counts(
    file: Path | list[Path],
    *,
    problem_col: str | None = None,
    correct_col: str | None = None,
    model_col: str | None = None,
    n_col: str | None = None,
    c_col: str | None = None,
    attempt_col: str | None = None,
    threshold: float | None = None,
    format: str | None = None,
    models: list[str] | None = None,
    pool: bool = False,
    acted_on: tuple[type, ...] = (),
) -> Any:
    """Read any supported input into Counts through the data layer.

    Warnings raised while reading (e.g. StoppingTimeWarning) are printed as one line each,
    except the categories in ``acted_on`` (see :func:`collect_warnings`); long reads show a
    progress bar on stderr when it is a terminal.
    """
    from ..data import read_counts
    from ..data._progress import cli_progress

    with collect_warnings(show=True, acted_on=acted_on, reading=True), cli_progress(err, file_paths(file)) as progress:
        return read_counts(
            one_or_several(file),
            problem_col=problem_col,
            correct_col=correct_col,
            model_col=model_col,
            n_col=n_col,
            c_col=c_col,
            attempt_col=attempt_col,
            threshold=threshold,
            format=format,
            progress=progress,
            models=models,
            pool=pool,
        )


def read_data(reader: Callable[..., Any], file: Path | list[Path], *, acted_on: tuple[type, ...] = (),
              **kwargs: Any) -> Any:
    """``reader(file, **kwargs)`` for the data layer's other readers (``read_answers``, ``read_attempts``,
    ``read_verdicts``): their warnings (several answers judged correct, ...) are printed as :func:`load_counts`
    prints the reading warnings, one line each through :func:`collect_warnings`, not as Python's own
    two-line warnings naming a source line."""
    with collect_warnings(show=True, acted_on=acted_on, reading=True):
        return reader(one_or_several(file), **kwargs)


# ---------------------------------------------------------------------------------------
# one place for the reading options: commands that load Counts take them through this
# ---------------------------------------------------------------------------------------
import functools  # noqa: E402
import inspect  # noqa: E402
import typing  # noqa: E402

READ_OPTIONS: dict[str, Any] = {
    "problem_col": ProblemCol,
    "correct_col": CorrectCol,
    "model_col": ModelCol,
    "n_col": NCol,
    "c_col": CCol,
    "attempt_col": AttemptCol,
    "threshold": Threshold,
    "format": Format,
    "models": Models,
    "pool": Pool,
}


def split_names(text: str) -> list[str]:
    """Names from a comma-separated list, where ``\\,`` is a comma inside a name (``"A\\,B,C"`` -> A,B and C).
    Each is kept as written, spaces at its ends too: the selection matches it as written, else stripped
    (:func:`passcurve._validation.model_named`), so ``'a, b'`` names a and b and ``' gpt-4 '`` a model so named
    (it had been stripped here, and that model could not be selected while ``--a ' gpt-4 '`` could)."""
    parts = re.split(r"(?<!\\),", text)
    return [p.replace("\\,", ",") for p in parts if p.strip()]


def read_options(
    fn: Callable[..., Any] | None = None, *, only: Sequence[str] | None = None
) -> Any:
    """Give a command the data layer's reading options (``--problem-col`` ... ``--format``, ``--models``).

    The command declares a parameter ``read: dict`` instead of the options; it receives them as a
    dict to pass on, e.g. ``load_counts(file, **read)``. Every command thus offers the same options
    with the same help, defined once (``READ_OPTIONS``).

    ``@read_options(only=(...))``: a command whose reader takes fewer of them (``vote`` reads answers,
    with no counts layout) gets only those named, in ``READ_OPTIONS``'s order; ``--models`` always.
    """
    if fn is None:
        return functools.partial(read_options, only=only)
    if only is not None:
        unknown = sorted(set(only) - set(READ_OPTIONS))
        if unknown:
            raise TypeError(f"{fn.__name__}: @read_options(only=...) names no reading option {unknown}")
    names = [n for n in READ_OPTIONS if only is None or n in only or n == "models"]
    hints = typing.get_type_hints(fn, include_extras=True)
    sig = inspect.signature(fn)
    if "read" not in sig.parameters:
        raise TypeError(f"{fn.__name__} must take a `read` parameter to use @read_options")
    params = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values() if p.name != "read"]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=READ_OPTIONS[name])
        for name in names
    ]

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        read = {name: kwargs.pop(name, None) for name in names}
        if read["models"] is not None:  # comma-separated on the command line, a list for the data layer
            read["models"] = split_names(read["models"])
        if "pool" in read:  # a flag: absent is False
            read["pool"] = bool(read["pool"])
        return fn(*args, read=read, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    if "return" in hints:
        wrapper.__annotations__["return"] = hints["return"]
    return wrapper


NO_READ: Mapping[str, Any] = MappingProxyType({})  # the `read` default; @read_options always passes one
