"""Several files read as one input: each file on its own, the models side by side.

Harnesses usually write one log per model, and a log without a model column is the model named after its file.
Every reader (:func:`passcurve.read_counts`, :func:`passcurve.data.read_answers`, ``read_attempts``,
``read_verdicts``) takes a sequence of paths through :func:`read_several`: each file is read alone by the
one-file reader (its own format, columns and checks, the same options), and the results are concatenated in the
order of the files. A model must come from one file: the same name in two files is an error naming both, because
their problem ids and samples are not known to belong together (two tasks' ``doc_id`` 0, or the same run twice).

A file's model can be named: a mapping ``{name: path}`` (or, among paths, ``(name, path)`` pairs; the command
line's NAME=FILE) reads the file as the model ``name``, whatever its file name or its one model column says. This
is how two files of one fixed name (a harness's ``eval_results.json`` in two directories) are told apart.
"""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .._counts import models_rows
from .._errors import PasscurveError, PasscurveWarning
from .._validation import show_value
from ._samples import spelling_key
from ._source import LM_EVAL_NAME, check_path

__all__ = ["PathInput", "is_one_path", "named_paths", "read_several", "concat_columns", "pool_columns", "select_columns", "check_pool"]

T = TypeVar("T")
# what every reader's ``path`` takes: one file, several, or files with their models named
PathInput = str | Path | Sequence[str | Path | tuple[str, str | Path]] | Mapping[str, str | Path]


def is_one_path(path: Any) -> bool:
    """A single path (str or os.PathLike), not a sequence of them."""
    return isinstance(path, str | os.PathLike)


def named_paths(paths: Any) -> list[tuple[str | None, Path]]:
    """A non-empty sequence of distinct existing files (each checked as the one-file readers check it), each with
    the model name given to it (None: the file's own names).

    ``paths``: a sequence of paths and ``(name, path)`` pairs, or a mapping ``{name: path}``. A name is a non-empty
    string without spaces at its ends; a name that is itself a file is refused (a pair of two paths, not a name)."""
    if isinstance(paths, Mapping):
        if len(paths) == 0:
            raise PasscurveError("`path` is an empty mapping; give at least one {name: file}")
        items: list[Any] = [(name, item) for name, item in paths.items()]
    elif isinstance(paths, bytes) or not isinstance(paths, Sequence) or isinstance(paths, str):
        raise PasscurveError(f"`path` must be a file path or a sequence of them (got {show_value(paths)})")
    else:
        items = list(paths)
    if len(items) == 0:
        raise PasscurveError("`path` is an empty sequence; give at least one file")
    out: list[tuple[str | None, Path]] = []
    seen: dict[str, Path] = {}
    for item in items:
        name = None
        if isinstance(paths, Mapping) or (isinstance(item, tuple) and len(item) == 2):  # (name, path)
            name, item = item
            if not isinstance(name, str):
                raise PasscurveError(f"a model name given to a file must be a string (got {show_value(name)} for "
                                     f"{show_value(item)})")
        if not is_one_path(item):
            raise PasscurveError(f"`path` must hold file paths (got {show_value(item)})")
        p = check_path(item if isinstance(item, str) else Path(item))
        if name is not None:
            _check_name(name, p)
        key = os.path.realpath(p)
        if key in seen:
            also = "" if str(seen[key]) == str(p) else f" (also as {str(seen[key])!r})"
            raise PasscurveError(f"{str(p)!r} is given twice{also}; give each file once")
        seen[key] = p
        out.append((name, p))
    return out


def _check_name(name: str, path: Path) -> None:
    """A model name given to ``path``: non-empty, no spaces at its ends, not itself a file (two paths in a pair)."""
    if not name.strip():
        raise PasscurveError(f"the model name given to {str(path)!r} is empty; give a name (NAME=FILE)")
    if name != name.strip():
        raise PasscurveError(f"the model name {name!r} given to {str(path)!r} has spaces at its ends")
    if os.path.isfile(name):
        raise PasscurveError(f"the model name {name!r} given to {str(path)!r} is itself a file: to read both files "
                             "give them as a sequence of paths, not as a (name, path) pair")


def renamed(part: T, name: str, where: Path, models: list[str]) -> T:
    """A reader's result for one file (Counts, AnswerTallies or a dict of columns) with its one model called
    ``name``; a file of several models cannot be one name's (an error naming them)."""
    if len(models) != 1:
        shown = ", ".join(map(repr, models[:3])) + (", ..." if len(models) > 3 else "")
        raise PasscurveError(
            f"{where.name} holds {len(models)} models ({shown}), so it cannot be named {name!r}: a name given to a "
            "file is the name of its one model; give the file without a name (its models keep theirs)")
    if isinstance(part, dict):
        return {**part, "model": np.full(len(part["model"]), name, dtype=object)}  # type: ignore[return-value]
    meta = dict(part.meta)  # type: ignore[attr-defined]
    evidence = meta.get("stopping_time")
    if isinstance(evidence, dict) and isinstance(evidence.get("models"), dict) and evidence["models"]:
        meta["stopping_time"] = {**evidence, "models": {name: next(iter(evidence["models"].values()))}}
        if evidence.get("flagged_models"):
            meta["stopping_time"]["flagged_models"] = [name]
    if meta.get("default_model") is not None:
        meta["default_model"] = name
    meta["named"] = name
    # the source as the command line gives it (NAME=FILE): two files of one name stay apart in a report's header
    return dataclasses.replace(part, model=np.full(part.model.size, name, dtype=object),  # type: ignore
                               meta=meta, source=f"{name}={part.source}")  # type: ignore[attr-defined]


def read_several(paths: Any, read_one: Callable[[Path, int, int], T], *, models_of: Callable[[T], Any],
                 problems_of: Callable[[T], Any], combine: Callable[[list[T]], T], pool: bool = False) -> T:
    """``read_one(path, i, count)`` for each file, checked to name disjoint models, then ``combine``-d.

    ``models_of(part)`` / ``problems_of(part)``: a part's model name and problem id per row. ``pool``: the files are
    runs over the same problems, so a model may be in several (``combine`` then pools its rows). One problem id
    written two ways in two files (spaces at the ends, Unicode normalisation) is an error, as within one file: it
    would split the problem's samples (pooled) or its pairs (compared). The caller selects ``models`` afterwards (an
    unknown name is then an error listing the models of every file). ``paths`` may name files' models
    (:func:`named_paths`): such a file's part is :func:`renamed` before these checks."""
    files = named_paths(paths)
    parts: list[T] = []
    owner: dict[str, Path] = {}
    spelled: dict[str, tuple[str, Path]] = {}  # an id stripped and NFC-normalised -> (as written, where)
    tasks: dict[str, tuple[str, Path]] = {}  # pooled: a model -> the lm-eval task of its first log, and that log
    side: dict[str, dict[str, None]] = {}  # an lm-eval task -> the models read from its logs (pooled or not)
    for i, (name, f) in enumerate(files):
        part = read_one(f, i, len(files))
        models = list(dict.fromkeys(str(x) for x in models_of(part)))
        if name is not None:
            part, models = renamed(part, name, f, models), [name]
        for p in dict.fromkeys(map(str, problems_of(part))):
            key = spelling_key(p)
            other, where = spelled.setdefault(key, (p, f))
            if other != p:
                raise PasscurveError(
                    f"problem id {ascii(other)} in {where.name} and {ascii(p)} in {f.name} are one id written two "
                    "ways (they differ only in spaces at the ends or in Unicode normalisation); write each id one way")
        task = LM_EVAL_NAME.fullmatch(f.name)
        if task is not None:  # pooled too: each model's runs are of one task (below), but models stand side by side
            side.setdefault(task["task"], {}).update(dict.fromkeys(models))
        for m in models:
            if pool and task is not None:  # an lm-eval log: its doc_ids number its task's documents
                other, where = tasks.setdefault(m, (task["task"], f))
                if other != task["task"]:
                    raise PasscurveError(
                        f"model {m!r} would pool two lm-eval tasks, {other!r} ({where.name}) and {task['task']!r} "
                        f"({f.name}): their doc_ids number different documents; `pool` adds runs of one task, so "
                        f"read each task on its own (e.g. the samples_{other}_*.jsonl files)")
            if m in owner and not pool:
                a, b = (owner[m].name, f.name) if owner[m].name != f.name else (str(owner[m]), str(f))
                raise PasscurveError(
                    f"model {m!r} is in both {a} and {b}: each model must come from one file (a file without a "
                    "model column is the model named after the file). Two different models: name each file's model, "
                    "NAME=FILE on the command line, a {name: path} mapping in Python; `pool` is only for runs of "
                    "one model over the same problems")
            owner[m] = f
        parts.append(part)
    if len(side) > 1:  # models read side by side from lm-eval logs of different tasks: compare/rank pair by doc_id
        said = "; ".join(f"{t}: {', '.join(map(repr, ms))}" for t, ms in side.items())
        warnings.warn(f"these lm-eval logs are of {len(side)} different tasks ({said}): each task numbers its own "
                      "documents by doc_id, so a comparison or ranking across them pairs unrelated problems; compare "
                      "models on one task", PasscurveWarning, stacklevel=3)
    return parts[0] if len(parts) == 1 else combine(parts)


def concat_columns(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Readers' column dicts (``model``, ``problem``, ...), row-concatenated in order."""
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def select_columns(columns: dict[str, np.ndarray], models: Sequence[str] | None) -> dict[str, np.ndarray]:
    """The rows of these models, in the order named (an unknown name is an error listing those present)."""
    if models is None:
        return columns
    keep = models_rows(columns["model"], models)
    return {key: value[keep] for key, value in columns.items()}


def check_pool(pool: Any, path: Any) -> bool:
    """``pool`` as a bool: True or False, and True only with several files (with one it has no effect)."""
    if not isinstance(pool, bool | np.bool_):
        raise PasscurveError(f"`pool` must be True or False (got {show_value(pool)})")
    if pool and (is_one_path(path) or (isinstance(path, Sequence) and len(path) == 1)):
        one = path if is_one_path(path) else path[0]
        if is_one_path(one):  # a missing file first: a shell pattern that matched nothing is passed as written
            check_path(one)
        raise PasscurveError("`pool` applies only to several files (runs over the same problems); one was given")
    return bool(pool)


def pool_columns(parts: list[dict[str, np.ndarray]], sums: Sequence[str]) -> dict[str, np.ndarray]:
    """Runs over the same problems: the ``sums`` columns added per (model, problem). Models in order of first
    appearance, each model's problems sorted by id as text (the readers' order)."""
    joined = concat_columns(parts)
    names, first, model_code = np.unique(joined["model"].astype(str), return_index=True, return_inverse=True)
    rank = np.empty(names.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(names.size)  # models by first appearance
    problems, problem_code = np.unique(joined["problem"].astype(str), return_inverse=True)  # sorted as text
    keys, rows = np.unique(rank[model_code.ravel()] * problems.size + problem_code.ravel(), return_inverse=True)
    out = {"model": names[np.argsort(rank)][keys // problems.size].astype(object),
           "problem": problems[keys % problems.size].astype(object)}
    for name in sums:  # integer sums (bincount's float weights would round above 2**53)
        total = np.zeros(keys.size, dtype=np.int64)
        np.add.at(total, rows.ravel(), joined[name].astype(np.int64))
        out[name] = total
    return out
