"""Public readers: ``read_counts`` and ``open_samples`` (files) on the shared DuckDB mechanism.

detect format -> DuckDB relation (harness adapters feed the same relation) -> column
mapping -> validation queries -> GROUP BY -> :class:`passcurve.Counts`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from .._counts import Counts
from .._errors import StoppingTimeWarning
from .._validation import check_callable, check_flag
from ._samples import Samples, build_samples, threshold_on_counts_error, warn_stopping_time
from ._several import PathInput, check_pool, is_one_path, pool_columns, read_several
from ._source import ProgressFn, open_file

__all__ = ["read_counts", "open_samples"]


def open_samples(
    path: str | Path,
    *,
    problem_col: str | None = None,
    correct_col: str | None = None,
    model_col: str | None = None,
    n_col: str | None = None,
    c_col: str | None = None,
    attempt_col: str | None = None,
    answer_col: str | None = None,
    threshold: float | None = None,
    format: str | None = None,
) -> Samples:
    """Open a per-sample log (or counts file) lazily as :class:`Samples` without aggregating.

    Parameters are those of :func:`read_counts`, plus ``answer_col`` (the extracted final
    answer, used by majority voting). The result holds a DuckDB relation of canonical rows
    ``model, problem, attempt, correct[, answer]`` (``Samples.relation``), the raw rows
    (``Samples.raw``), the resolved column mapping (``Samples.columns``) and
    ``Samples.counts()``; ``Samples.query(sql)`` runs SQL against the table ``samples``.

    Parameters
    ----------
    path : str or Path
        The file (CSV, TSV, JSONL, JSON, Parquet or a harness log; one file: several are read by
        :func:`read_counts` and the other readers, not opened as one relation).
    problem_col, correct_col, model_col, n_col, c_col, attempt_col, threshold, format
        As in :func:`read_counts`.
    answer_col : str, optional
        The extracted final answer's column.

    Returns
    -------
    Samples
    """
    return _open(path, format, {"problem": problem_col, "correct": correct_col, "model": model_col, "n": n_col,
                                "c": c_col, "attempt": attempt_col, "answer": answer_col}, threshold)


def _open(path: str | Path, format: str | None, overrides: dict[str, str | None], threshold: float | None,
          threshold_anywhere: bool = False) -> Samples:
    """:func:`open_samples`; ``threshold_anywhere`` as in :func:`build_samples` (one of several files)."""
    src = open_file(path, format, overrides.get("correct"))
    return build_samples(src, overrides, threshold, threshold_anywhere=threshold_anywhere)


def read_counts(
    path: PathInput,
    *,
    problem_col: str | None = None,
    correct_col: str | None = None,
    model_col: str | None = None,
    n_col: str | None = None,
    c_col: str | None = None,
    attempt_col: str | None = None,
    threshold: float | None = None,
    format: str | None = None,
    progress: ProgressFn | None = None,
    check_duplicates: bool = True,
    models: Sequence[str] | None = None,
    pool: bool = False,
) -> Counts:
    """Read per-sample logs or per-problem counts into :class:`passcurve.Counts`.

    The file is scanned and aggregated by DuckDB (``GROUP BY model, problem``); Python
    never loops over rows and never holds more than one row per (model, problem).

    Parameters
    ----------
    path : str or Path, a sequence of them, or a mapping {model name: path}
        CSV, JSONL, Parquet (optionally .gz/.zst compressed CSV/JSONL), a JSON array, or a
        harness log (human-eval/evalplus, lm-evaluation-harness samples, lighteval details,
        inspect_ai ``.eval``/``.json``, tau-bench results); the format is detected from the
        extension and the content. Several files (one per model, typically): each is read on its own,
        with the same options, and their models are put side by side, in the order of the files. A model
        must come from one file only: the same name in two files is an error (the two files' problem ids
        and samples are not known to belong together: two tasks' ``doc_id`` 0, or the same run twice).
        A mapping ``{name: path}`` (or ``(name, path)`` pairs among the paths; NAME=FILE on the command line)
        names each file's model: files of one name in two directories (a harness's fixed file name) are then two
        models. A named file's one model (its file-stem name, or the one model of its model column) becomes
        ``name``; a file of several models cannot be named.
    problem_col, correct_col, model_col, n_col, c_col, attempt_col : str, optional
        Column overrides. By default the layout is detected from the column names: a file
        with n and c columns is a counts file (problem id, n, c, optional model), anything
        else a per-sample log (problem id, correctness, optional model, attempt, answer).
        Aliases: problem_id/task_id/problem/question_id/doc_id/id; correct/passed/
        is_correct/score/reward/result; model/model_name; attempt/sample_idx/sample_id/
        trial/epoch/repeat; n/num_samples/total; c/num_correct/correct.
    threshold : float, optional
        A numeric score column counts as correct when ``score >= threshold``. Without it,
        correctness must be boolean, 0/1 or a true/false word.
    format : str, optional
        Force a format: csv, jsonl, json, parquet, humaneval, evalplus, lm_eval,
        lighteval, inspect, tau_bench.
    progress : callable, optional
        Called with the percentage done (0-100) while DuckDB scans; the CLI draws a bar.
    check_duplicates : bool
        Check that no (model, problem, attempt) appears twice (default). The check reads the
        attempt column in the same pass; turning it off saves that read on huge files.
    models : sequence of str, optional
        Keep these models only (an unknown name is an error listing the models present). The file is
        checked whole; the stopping-time evidence and its warning are about these models alone.
    pool : bool, default False
        Several files only: they are runs over the same problems (e.g. lm-evaluation-harness run once per seed,
        one samples file per run), so a model may appear in several and its samples are pooled: n and c are
        added per (model, problem). Without it the same model in two files is an error.

    Returns
    -------
    Counts
        One row per (model, problem). A file without a model column is one model named
        after the file stem. ``Counts.meta`` records the reader, detected layout, column
        mapping and evidence on whether n looks like a stopping time
        (``meta["stopping_time"]``; a :class:`passcurve.StoppingTimeWarning` is issued when
        it does). From several files, ``source`` names them all, ``meta["files"]`` holds each
        file's own ``meta`` (with its ``source``) and ``meta["stopping_time"]`` merges their
        evidence; pooled, ``meta["pooled"]`` is True.

    Raises
    ------
    PasscurveError
        One-line message naming the problem: missing file, directory, empty or header-only
        file, truncated or corrupt file, unknown format, missing columns (listing those
        found), non-boolean correctness (showing one row), NaN, c > n, n = 0, negative or
        non-integer counts, duplicate (problem, attempt) or (model, problem) rows.
    """
    pool = check_pool(pool, path)
    # before the files: each file's share of the bar wraps `progress`, and a bad one failed when first called
    progress = check_callable(progress, "progress")
    check_duplicates = check_flag(check_duplicates, "check_duplicates")
    overrides: dict[str, str | None] = {"problem": problem_col, "correct": correct_col, "model": model_col,
                                        "n": n_col, "c": c_col, "attempt": attempt_col, "answer": None}
    if not is_one_path(path):
        # one threshold for several files applies to those with scores: a counts file among them has none to compare
        # (threshold_anywhere), and the threshold is refused only when every file holds counts (below)
        def one(f: Path, i: int, count: int) -> Counts:
            step = None if progress is None else _share(progress, i, count)
            samples = _open(f, format, overrides, threshold, threshold_anywhere=True)
            return samples.counts(progress=step, check_duplicates=check_duplicates)

        # each file's StoppingTimeWarning is said once the files are combined: about the models kept (`models`)
        # and by the names given to them (a named file's model was its stem while it was read)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StoppingTimeWarning)
            counts = read_several(path, one, models_of=lambda part: part.models, problems_of=lambda part: part.problem,
                                  combine=_pooled if pool else _side_by_side, pool=pool)
        files = counts.meta.get("files") or [counts.meta]
        if threshold is not None and all(part.get("layout") == "counts" for part in files):
            roles = files[0].get("columns", {})
            raise threshold_on_counts_error(counts.source, float(threshold), roles.get("n", "n"), roles.get("c", "c"),
                                            "files")
        counts = counts if models is None else counts.select_models(models)
        for part in counts.meta.get("files") or [{"source": counts.source, **counts.meta}]:  # one file: its own meta
            evidence = part.get("stopping_time")
            if isinstance(evidence, dict):
                warn_stopping_time(part["source"], evidence, None if models is None else counts.models, stacklevel=3)
        return counts
    samples = _open(cast("str | Path", path), format, overrides, threshold)
    return samples.counts(progress=progress, check_duplicates=check_duplicates, models=models)



def _share(progress: ProgressFn, i: int, total: int) -> ProgressFn:
    """File i of ``total``'s percentage as its share of the whole read."""
    return lambda pct: progress(100.0 * (i + pct / 100.0) / total)


def _side_by_side(parts: list[Counts]) -> Counts:
    """Counts of disjoint models, concatenated in order; meta keeps each file's and merges the stopping-time
    evidence (per model, so the union; it looks like a stopping time when any file's does). A model in several
    files (pooled runs) keeps the entry of a file where it looks like a stopping time, else the last file's: a run
    that stopped at its successes makes the pooled n a stopping time too (the last file's entry used to win)."""
    evidence: dict[str, Any] = {"looks_like_stopping_time": False, "models": {}}
    for part in parts:
        st = part.meta.get("stopping_time")
        if isinstance(st, dict):
            for m, ev in st.get("models", {}).items():
                if not evidence["models"].get(m, {}).get("looks_like_stopping_time", False):
                    evidence["models"][m] = ev
            evidence["looks_like_stopping_time"] |= bool(st.get("looks_like_stopping_time", False))
    flagged = [m for m, ev in evidence["models"].items() if ev.get("looks_like_stopping_time")]
    if flagged:  # as one file's evidence has it
        evidence["flagged_models"] = flagged
    meta: dict[str, Any] = {
        "reader": "several files",
        "files": [{"source": part.source, **part.meta} for part in parts],
        "stopping_time": evidence,
    }
    return Counts(
        np.concatenate([part.model for part in parts]),
        np.concatenate([part.problem for part in parts]),
        np.concatenate([part.n for part in parts]),
        np.concatenate([part.c for part in parts]),
        None,
        None,
        ", ".join(part.source for part in parts),
        meta,
    )


def _pooled(parts: list[Counts]) -> Counts:
    """Runs over the same problems: n and c added per (model, problem) (:func:`pool_columns`); meta as
    :func:`_side_by_side`'s."""
    joined = _side_by_side(parts)
    cols = pool_columns([{"model": joined.model, "problem": joined.problem, "n": joined.n, "c": joined.c}],
                        ("n", "c"))
    return Counts(cols["model"], cols["problem"], cols["n"], cols["c"], None, None, joined.source,
                  dict(joined.meta, pooled=True))
