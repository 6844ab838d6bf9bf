"""Public readers: ``read_counts`` and ``open_samples`` (files) on the shared DuckDB mechanism.

detect format -> DuckDB relation (harness adapters feed the same relation) -> column
mapping -> validation queries -> GROUP BY -> :class:`passcurve.Counts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .._counts import Counts
from ._samples import Samples, build_samples
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
        The file (CSV, TSV, JSONL, JSON, Parquet, a harness log or a directory of them).
    problem_col, correct_col, model_col, n_col, c_col, attempt_col, threshold, format
        As in :func:`read_counts`.
    answer_col : str, optional
        The extracted final answer's column.

    Returns
    -------
    Samples
    """
    src = open_file(path, format)
    overrides = {
        "problem": problem_col,
        "correct": correct_col,
        "model": model_col,
        "n": n_col,
        "c": c_col,
        "attempt": attempt_col,
        "answer": answer_col,
    }
    return build_samples(src, overrides, threshold)


def read_counts(
    path: str | Path,
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
) -> Counts:
    """Read per-sample logs or per-problem counts into :class:`passcurve.Counts`.

    The file is scanned and aggregated by DuckDB (``GROUP BY model, problem``); Python
    never loops over rows and never holds more than one row per (model, problem).

    Parameters
    ----------
    path : str or Path
        CSV, JSONL, Parquet (optionally .gz/.zst compressed CSV/JSONL), a JSON array, or a
        harness log (human-eval/evalplus, lm-evaluation-harness samples, lighteval details,
        inspect_ai ``.eval``/``.json``, tau-bench results); the format is detected from the
        extension and the content.
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

    Returns
    -------
    Counts
        One row per (model, problem). A file without a model column is one model named
        after the file stem. ``Counts.meta`` records the reader, detected layout, column
        mapping and evidence on whether n looks like a stopping time
        (``meta["stopping_time"]``; a :class:`passcurve.StoppingTimeWarning` is issued when
        it does).

    Raises
    ------
    PasscurveError
        One-line message naming the problem: missing file, directory, empty or header-only
        file, truncated or corrupt file, unknown format, missing columns (listing those
        found), non-boolean correctness (showing one row), NaN, c > n, n = 0, negative or
        non-integer counts, duplicate (problem, attempt) or (model, problem) rows.
    """
    samples = open_samples(
        path,
        problem_col=problem_col,
        correct_col=correct_col,
        model_col=model_col,
        n_col=n_col,
        c_col=c_col,
        attempt_col=attempt_col,
        threshold=threshold,
        format=format,
    )
    return samples.counts(progress=progress, check_duplicates=check_duplicates, models=models)
