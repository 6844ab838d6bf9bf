"""``Counts``: the contract between the data layer and everything else.

Per model and problem: n samples drawn and c correct, plus optional per-problem weights
and cluster ids. Pure data, no I/O: the data layer (``passcurve.data``) builds it from
files and frames; every analysis consumes it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._errors import PasscurveError
from ._results import ReadOnlyResult, pandas_module
from ._validation import (
    as_id_array,
    as_int_array,
    check_counts,
    check_model,
    check_text,
    check_weights,
    show_value,
)

__all__ = ["Counts"]


def _named(model: np.ndarray, models: Sequence[str] | str) -> tuple[np.ndarray, list[str]]:
    """The rows' model names as text, and the models that ``models`` names among them (:func:`model_named`: as
    written, else without spaces at the ends); an unknown name is an error listing those present."""
    try:
        names = [models] if isinstance(models, str) else [str(m) for m in models]
    except TypeError:  # a number, None, a 0-d array: not a list of names
        raise PasscurveError(f"`models` must be a model name or a sequence of names (got {models!r})") from None
    if not names:
        raise PasscurveError("`models` must name at least one model")
    labels = np.asarray(model, dtype=object).astype(str)
    _, first = np.unique(labels, return_index=True)
    present = [str(labels[i]) for i in np.sort(first)]
    return labels, [check_model(m, present, "models") for m in names]


def models_mask(model: np.ndarray, models: Sequence[str] | str) -> np.ndarray:
    """Rows of ``model`` (one name per row) that belong to ``models``: the one check behind every model selection
    (``Counts.select_models``, ``AnswerTallies.select_models``, the readers' ``models=``).

    A single string is one name, not its characters; a name is matched as written, else without the whitespace at
    its ends (:func:`model_named`); an empty list or an unknown name is an error (the error lists the models
    present, in order of first appearance)."""
    labels, names = _named(model, models)
    return np.isin(labels, names)


def models_rows(model: np.ndarray, models: Sequence[str] | str) -> np.ndarray:
    """Indices of the rows of ``model`` that belong to ``models`` (checked by :func:`models_mask`), model by model
    in the order ``models`` names them, each model's rows in their own order: a selection lists its models as the
    user named them (``--models B,A`` prints B first), not in the file's order."""
    labels, names = _named(model, models)
    rank = {name: i for i, name in enumerate(dict.fromkeys(names))}
    idx = np.flatnonzero(np.isin(labels, names))
    key = np.fromiter((rank[str(v)] for v in labels[idx]), dtype=np.int64, count=idx.size)
    return idx[np.argsort(key, kind="stable")]


def _as_str_array(x: Any, name: str, size: int) -> np.ndarray:
    return np.array([str(v) for v in as_id_array(x, name, size)], dtype=object)


@dataclass(frozen=True, eq=False)
class Counts(ReadOnlyResult):
    """Per-(model, problem) sample counts.

    Attributes
    ----------
    model, problem : ndarray of str (object dtype)
        Model name and problem id of each row; (model, problem) pairs are unique.
    n, c : ndarray of int64
        Samples drawn and samples correct (1 <= n, 0 <= c <= n).
    weight : ndarray of float or None
        Optional per-problem weights for weighted means (e.g. benchmark subsets).
    cluster : ndarray of str or None
        Optional cluster id per problem (e.g. several questions about one document),
        used by clustered standard errors.
    source : str
        Where the counts came from (a file name, "frame", "simulated").
    meta : dict
        Free-form provenance (reader, detected layout, stopping-time evidence, ...).

    Notes
    -----
    Every array is read-only (``C.n[0] = 5`` raises numpy's ValueError, and ``C.meta`` refuses item assignment, as
    every result does: :class:`~passcurve._results.ReadOnlyResult`): build new counts with :meth:`from_arrays` (or
    :meth:`take` for a subset, ``dataclasses.replace`` for new meta) rather than edit them in place.
    """

    model: np.ndarray
    problem: np.ndarray
    n: np.ndarray
    c: np.ndarray
    weight: np.ndarray | None = None
    cluster: np.ndarray | None = None
    source: str = "arrays"
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_arrays(
        cls,
        n: Any,
        c: Any,
        *,
        problem: Any = None,
        model: Any = None,
        weight: Any = None,
        cluster: Any = None,
        source: str = "arrays",
        meta: dict[str, Any] | None = None,
    ) -> Counts:
        """Validate and build :class:`Counts` from per-problem arrays.

        Parameters
        ----------
        n, c : array_like of int, shape (P,)
            Samples drawn and samples correct per problem (0 <= c <= n, n >= 1).
        problem : sequence of ids, shape (P,), optional
            Problem ids (default "0", "1", ...).
        model : str or sequence of ids, shape (P,), optional
            One string for all rows, or one per row (default ``source``).
        weight : array_like of float, shape (P,), optional
            Per-problem weights (>= 0); default equal.
        cluster : sequence of ids, shape (P,), optional
            Cluster ids for cluster-robust intervals.
        source : str, default "arrays"
            Where the counts came from (shown in reports).
        meta : dict, optional
            Extra facts carried along (e.g. a simulation's seed).

        Returns
        -------
        Counts
        """
        check_text(source, "source")
        if meta is not None and not isinstance(meta, Mapping):
            raise PasscurveError(f"`meta` must be a dict or None (got {show_value(meta)})")
        n_a = as_int_array(n, "n", minimum=None, max_ndim=1).ravel()
        c_a = as_int_array(c, "c", minimum=0, max_ndim=1).ravel()
        if n_a.size != c_a.size:
            raise PasscurveError(f"`n` has {n_a.size} entries but `c` has {c_a.size}")
        n_a, c_a = check_counts(n_a, c_a)
        size = n_a.size
        if model is None or isinstance(model, str):
            model_a = np.full(size, model if model is not None else source, dtype=object)
        else:
            model_a = _as_str_array(model, "model", size)
        problem_a = (
            np.array([str(i) for i in range(size)], dtype=object)
            if problem is None
            else _as_str_array(problem, "problem", size)
        )
        keys = np.char.add(np.char.add(model_a.astype(str), "\x1f"), problem_a.astype(str))
        uniq, first, cnt = np.unique(keys, return_index=True, return_counts=True)
        if (cnt > 1).any():
            i = first[np.flatnonzero(cnt > 1)[0]]
            raise PasscurveError(
                f"duplicate problem {problem_a[i]!r} for model {model_a[i]!r}: each (model, problem) must appear once"
            )
        w = None
        if weight is not None:
            w = check_weights(weight, size)
            names, code = np.unique(model_a.astype(str), return_inverse=True)
            zero = np.flatnonzero(~(np.bincount(code.ravel(), weights=w, minlength=names.size) > 0))
            if zero.size:  # every model's weighted means need a positive total
                raise PasscurveError(
                    f"`weight` must have a positive sum for each model (model {str(names[zero[0]])!r}: all zeros)"
                )
        cl = None if cluster is None else _as_str_array(cluster, "cluster", size)
        return cls(model_a, problem_a, n_a, c_a, w, cl, source, dict(meta or {}))

    # ------------------------------------------------------------------ views
    def __len__(self) -> int:
        return int(self.n.size)

    @property
    def models(self) -> list[str]:
        """Model names in order of first appearance."""
        _, idx = np.unique(self.model.astype(str), return_index=True)
        return [str(self.model[i]) for i in np.sort(idx)]

    def take(self, index: Any) -> Counts:
        """Rows ``index`` as new Counts (at least one row).

        Parameters
        ----------
        index : array_like of bool or int
            A boolean mask of ``len(self)`` entries or integer row indices.

        Returns
        -------
        Counts
            The selected rows, with their weights, clusters and meta.
        """
        try:
            idx = np.asarray(index)
        except ValueError:  # a ragged sequence: numpy's "inhomogeneous shape" error had escaped
            raise PasscurveError("`index` must be a 1-d boolean mask or integer row indices (got a ragged sequence)") from None
        if idx.ndim == 0 and idx.dtype != bool:  # one row number: that row (a Counts of one row)
            idx = idx.reshape(1)
        if idx.ndim != 1:
            raise PasscurveError(f"`index` must be a 1-d boolean mask or integer row indices (got shape {idx.shape})")
        if idx.dtype == bool:
            if idx.shape != (len(self),):
                raise PasscurveError(f"`index` as a mask must have {len(self)} entries (got shape {idx.shape})")
            if not idx.any():
                raise PasscurveError("`index` selects no rows")
        elif idx.size == 0 or not np.issubdtype(idx.dtype, np.integer) or idx.dtype.kind == "m":  # timedelta64 too
            raise PasscurveError(f"`index` must be a boolean mask or integer row indices (got {index!r})")
        elif (idx.min() < -len(self)) or (idx.max() >= len(self)):
            raise PasscurveError(f"`index` must be row numbers in [0, {len(self)}) (got {idx.min()}..{idx.max()})")
        return Counts(
            self.model[idx],
            self.problem[idx],
            self.n[idx],
            self.c[idx],
            None if self.weight is None else self.weight[idx],
            None if self.cluster is None else self.cluster[idx],
            self.source,
            dict(self.meta),
        )

    def select(self, model: str) -> Counts:
        """The rows of one model; raises if the model is unknown (listing those present).

        Parameters
        ----------
        model : str

        Returns
        -------
        Counts
        """
        return self.take(self.model == check_model(model, self.models))

    def select_models(self, models: Sequence[str]) -> Counts:
        """The rows of these models, in the order named (:attr:`models` follows it); raises for an unknown name
        (listing those present).

        Parameters
        ----------
        models : sequence of str

        Returns
        -------
        Counts
        """
        return self.take(models_rows(self.model, models))

    def groups(self) -> Iterator[tuple[str, Counts]]:
        """(model, rows of that model), in order of first appearance.

        Returns
        -------
        iterator of (str, Counts)
        """
        if len(self.models) == 1:
            yield self.models[0], self
            return
        for m in self.models:
            yield m, self.take(self.model == m)

    def samples_summary(self) -> dict[str, float]:
        """Problems and samples per problem (min / median / max), total samples and successes.

        Returns
        -------
        dict
            ``problems``, ``n_min``, ``n_median``, ``n_max``, ``samples``, ``successes``.
        """
        return {
            "problems": int(self.n.size),
            "n_min": int(self.n.min()),
            "n_median": float(np.median(self.n)),
            "n_max": int(self.n.max()),
            "samples": int(self.n.sum()),
            "successes": int(self.c.sum()),
        }

    # ------------------------------------------------------------------ export
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready lists, one entry per row: ``model``, ``problem``, ``n``, ``c``, and ``weight`` and
        ``cluster`` when set."""
        out: dict[str, Any] = {
            "model": [str(v) for v in self.model],
            "problem": [str(v) for v in self.problem],
            "n": self.n.tolist(),
            "c": self.c.tolist(),
        }
        if self.weight is not None:
            out["weight"] = self.weight.tolist()
        if self.cluster is not None:
            out["cluster"] = [str(v) for v in self.cluster]
        return out

    def to_frame(self) -> Any:
        """A pandas DataFrame with columns ``model``, ``problem``, ``n``, ``c`` (and ``weight``, ``cluster``
        when set)."""
        pd = pandas_module()
        return pd.DataFrame(self.to_dict())

    def __repr__(self) -> str:
        s = self.samples_summary()
        return (
            f"Counts({len(self.models)} model(s), {s['problems']} rows, "
            f"n {s['n_min']}..{s['n_max']}, source={self.source!r})"
        )


def _counts_from(x: Any) -> str | None:
    """How to get a Counts from ``x``, when it is what one is made of: a data frame, a file's path, a simulation or
    answer tallies (each had been told to build one with Counts.from_arrays(n, c))."""
    kind, lib = type(x).__name__, type(x).__module__.split(".")[0]
    if isinstance(x, str | os.PathLike):
        return "to read a file, passcurve.read_counts(path)"
    if kind == "SimulatedBenchmark":
        return "a simulation's counts are its `.counts`"
    if kind == "AnswerTallies":
        return "answer tallies give theirs with `.to_counts()`"
    if lib in ("pandas", "polars", "pyarrow", "duckdb", "dask", "pyspark") and hasattr(x, "columns"):  # not a Series
        return "read a frame with passcurve.counts_from_frame(df)"
    return None


def check_counts_object(counts: Any, hint: str = "build one with Counts.from_arrays(n, c)") -> Counts:
    """The shared first check of every function that takes a ``Counts``; ``hint`` says how to get one (or, for a data
    frame, a path, a simulation or answer tallies, how to get one from it)."""
    if not isinstance(counts, Counts):
        raise PasscurveError(f"`counts` must be a passcurve.Counts (got {type(counts).__name__}); "
                             f"{_counts_from(counts) or hint}")
    if not len(counts):  # built by the dataclass itself (from_arrays, take and the readers refuse no rows): numpy's
        # reduction errors, a ZeroDivisionError, or a result of nothing (fit_power_law, check_deviations) before
        raise PasscurveError("`counts` holds no problems (0 rows); a Counts needs at least one")
    return counts


def stopping_design(evidence: Any, keep: Sequence[str] | None = None) -> tuple[int | None, int] | None:
    """The stop-at-success design that the data layer's stopping-time evidence (``counts.meta["stopping_time"]``)
    points to, as (batch, cap): the batch is the common step of the n below the largest (None when the flagged
    models' steps differ), the cap the largest n. Only the flagged models in ``keep`` count, when given; None when
    none is flagged (or there is no evidence). The StoppingTimeWarning's advice and the errors that repeat it
    (backtest's) name the same design."""
    if not isinstance(evidence, Mapping):
        return None
    models = evidence.get("models", {}) or {}
    flagged = [m for m in evidence.get("flagged_models", []) if (keep is None or m in keep) and m in models]
    if not flagged:
        return None
    ev = [models[m] for m in flagged]
    # the batch: the common step of the n below the largest (a cap off the batch grid would shrink the gcd of all n,
    # and that smaller batch passes the design's checks with wrong numbers); the cap: the largest n, the experiment's
    # (a model that solved all before it has a smaller n_max). Without --cap a problem that reached the cap unsolved
    # says nothing beyond it, and a cap off the batch grid is refused (stopping_pass_at_k).
    steps = sorted({int(e.get("n_step_below_max", e["n_common_step"])) for e in ev})
    return (steps[0] if len(steps) == 1 else None), max(int(e["n_max"]) for e in ev)
