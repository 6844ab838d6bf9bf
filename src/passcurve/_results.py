"""Helpers shared by the result dataclasses (no statistics here)."""

from __future__ import annotations

import dataclasses
from typing import Any, NoReturn

import numpy as np

__all__ = ["ReadOnlyResult", "ReadOnlyDict", "ReadOnlyList", "read_only", "brief_repr", "long_frame", "records_frame", "frame_html", "pandas_module", "json_safe", "level_label", "metric_name", "METRIC_NAMES",
           "how_many", "metric_label"]


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"'{type(self).__name__}' object does not support item assignment: a result is read-only "
                    "(copy it, e.g. dict(...) or list(...), to edit)")


class ReadOnlyDict(dict):  # type: ignore[type-arg]
    """A dict that refuses every change (``d[k] = v``, ``del``, ``update``, ``pop``, ...: TypeError).

    A dict subclass rather than ``types.MappingProxyType``, so ``json.dumps``, ``isinstance(x, dict)``, pandas,
    ``pickle`` and ``copy.deepcopy`` take it as the dict it was; ``.copy()`` and ``dict(d)`` give an editable
    plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def copy(self) -> dict[Any, Any]:  # type: ignore[override]
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # dict's own reduce refills the new object item by item through __setitem__, which refuses
        return type(self), (dict(self),)


class ReadOnlyList(list):  # type: ignore[type-arg]
    """A list that refuses every change (``l[i] = v``, ``append``, ``sort``, ``+=``, ...: TypeError), and is
    otherwise the list it was (equal to it, ``json.dumps``-able, picklable); ``list(l)`` gives an editable copy."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = sort = \
        reverse = _refuse

    def copy(self) -> list[Any]:  # type: ignore[override]
        return list(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (list(self),)


def read_only(x: Any) -> Any:
    """``x`` made read-only all the way down: an ndarray as a read-only view (the array itself keeps its flags, so
    an array the caller passed in stays writeable in the caller's hands), a dict as a :class:`ReadOnlyDict`, a list
    as a :class:`ReadOnlyList`, a tuple (named tuples too) with its items read-only; anything else as it is (a
    nested result freezes itself)."""
    if isinstance(x, np.ndarray):
        if not x.flags.writeable:
            return x
        view = x.view()
        view.flags.writeable = False
        return view
    if isinstance(x, dict):
        return ReadOnlyDict({k: read_only(v) for k, v in x.items()})
    if isinstance(x, list):
        return ReadOnlyList(read_only(v) for v in x)
    if isinstance(x, tuple):
        items = [read_only(v) for v in x]
        if all(a is b for a, b in zip(items, x, strict=True)):
            return x
        make = getattr(type(x), "_make", None)  # a named tuple's constructor takes the fields one by one
        return make(items) if make is not None else type(x)(items)
    return x


class ReadOnlyResult:
    """Base of the result dataclasses: every field read-only all the way down (see :func:`read_only`).

    The dataclasses are frozen, but their arrays and dicts were not: ``r.values["pass_at_k"][0, 0] = 0.99`` changed
    what ``to_dict()``, ``to_frame()`` and ``plot()`` then reported, without a word. Now numpy refuses the write
    (ValueError: assignment destination is read-only) and a dict or list field refuses item assignment
    (TypeError). Build a result complete, then construct it; ``dataclasses.replace`` builds a new, frozen one.
    A subclass with its own ``__post_init__`` calls ``super().__post_init__()`` at its end."""

    __slots__ = ()

    def __post_init__(self) -> None:
        _freeze_fields(self)

    def __setstate__(self, state: dict[str, Any]) -> None:
        # pickle and copy.deepcopy restore the fields without __init__ (numpy unpickles arrays writeable): frozen
        # again, as built
        self.__dict__.update(state)
        _freeze_fields(self)


def _freeze_fields(obj: Any) -> None:
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        frozen = read_only(value)
        if frozen is not value:
            object.__setattr__(obj, f.name, frozen)


def json_safe(x: Any) -> Any:
    """``x`` with every NaN or infinite float replaced by None, through dicts, lists, tuples and numpy arrays, and
    numpy scalars as Python numbers (np.int64 -> int, np.float32 -> float, np.bool_ -> bool): what ``to_dict()``
    must return for ``json.dumps(..., allow_nan=False)``."""
    if isinstance(x, dict):
        return {k: json_safe(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [json_safe(v) for v in x]
    if isinstance(x, np.ndarray):
        return json_safe(x.tolist())
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return None
    return x


METRIC_NAMES = {"pass_at_k": "pass@k", "pass_pow_k": "pass^k", "naive_pass_at_k": "naive pass@k",
                "g_pass_at_k": "G-pass@k", "mg_pass_at_k": "mG-pass@k", "maj_at_k": "maj@k"}
"""How a metric reads in a title, a column or a caption."""


def metric_name(metric: str) -> str:
    """'pass_pow_k' -> 'pass^k' (a name not listed keeps its spelling)."""
    return METRIC_NAMES.get(metric, metric)


def metric_label(metric: str, tau: float | None = None) -> str:
    """The metric as a title or column names it, with G-pass@k's threshold when it is one (without it the number is
    ambiguous): 'G-pass@k (τ = 0.5)'."""
    return metric_name(metric) + (f" (τ = {tau:g})" if metric == "g_pass_at_k" and tau is not None else "")


def how_many(count: Any, noun: str) -> str:
    """``"1 problem"``, ``"3 problems"``: a count with its noun, plural unless the count is 1."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def level_label(confidence_level: float) -> str:
    """A confidence level as a column or caption label: 0.95 -> '95%', 0.975 -> '97.5%', 0.57 -> '57%' (not
    truncated to 56% or rounded to 98%)."""
    return f"{100 * confidence_level:.10g}%"


def long_frame(d: dict[str, Any], key: str = "curve") -> Any:
    """Flatten ``{"models": [{"model": M, ..., key: [{...}, ...]}]}`` into a long pandas DataFrame.

    One row per (model, point), with the model name first; the result objects whose
    ``to_dict()`` has this shape (curves, votes, retries, verifiers) share it for ``to_frame()``.
    """

    rows = [{"model": entry["model"], **pt} for entry in d["models"] for pt in entry[key]]
    return records_frame(rows)


def pandas_module() -> Any:
    """pandas, which every ``to_frame()`` needs and passcurve does not install (optional interop), or a
    one-line error that says how to get it."""
    try:
        import pandas as pd
    except ImportError:
        from ._errors import PasscurveError

        raise PasscurveError("`to_frame()` needs pandas, an optional dependency: pip install 'passcurve[frames]' "
                             "(or pandas)") from None
    return pd


def _brief(v: Any, depth: int = 0) -> str:
    """One short token for a field value: numbers to 4 significant digits, an array as its values when it has
    at most 4 (else its shape), a long sequence or a nested mapping as its length."""
    if isinstance(v, np.generic):
        v = v.item()
    if v is None or isinstance(v, bool | int):
        return repr(v)
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, str):
        return repr(v if len(v) <= 40 else v[:37] + "...")
    if isinstance(v, np.ndarray):
        if v.ndim <= 1 and v.size <= 4:
            return "[" + ", ".join(_brief(x, depth + 1) for x in v.tolist()) + "]"
        return f"<array {'x'.join(map(str, v.shape))} {v.dtype}>"
    if isinstance(v, list | tuple):
        if len(v) <= 4 and depth == 0 and all(isinstance(x, str | int | float | np.generic) for x in v):
            inner = ", ".join(_brief(x, depth + 1) for x in v)
            return f"({inner}{',' if len(v) == 1 else ''})" if isinstance(v, tuple) else f"[{inner}]"
        return f"<{len(v)} item{'' if len(v) == 1 else 's'}>"
    if isinstance(v, dict):
        if depth == 0 and len(v) <= 4 and all(isinstance(k, str) for k in v):
            return "{" + ", ".join(f"{k}: {_brief(x, depth + 1)}" for k, x in v.items()) + "}"
        return f"<dict of {len(v)}>"
    text = repr(v)
    return text if len(text) <= 80 else f"<{type(v).__name__}>"


def brief_repr(self: Any) -> str:
    """A result dataclass's repr on one short line: ``Name(field=value, ...)`` with each value summarised by
    :func:`_brief` (private fields left out). The dataclasses' generated repr printed every array and record in
    full: ConflictToyResult's ran to 12,573 characters on 162 lines, a PlanResult's to 3,905 on 45."""
    import dataclasses

    parts = [f"{f.name}={_brief(getattr(self, f.name))}" for f in dataclasses.fields(self)
             if f.repr and not f.name.startswith("_")]
    return f"{type(self).__name__}({', '.join(parts)})"


def frame_html(make_frame: Any) -> str | None:
    """A result's ``_repr_html_``: the HTML table of ``make_frame()`` (its ``to_frame``), or None without pandas.

    None tells a notebook that the HTML form is not available, and it shows the plain repr; an exception here
    (``to_frame``'s one-line PasscurveError) was printed as a formatter traceback above every result displayed.
    Long tables are cut as pandas cuts its own notebook tables (``display.max_rows``, first and last rows, with the
    frame's dimensions below): the default curve of a file with n = 10,000 is 70,000 rows, and its whole table
    (11 MB of HTML) went into the notebook."""
    try:
        import pandas
    except ImportError:
        return None
    return str(make_frame().to_html(index=False, max_rows=pandas.get_option("display.max_rows"),
                                    show_dimensions="truncate"))


def records_frame(rows: Any, columns: Any = None) -> Any:
    """A pandas DataFrame of ``to_dict()`` records, where a column whose every value is None (JSON's null for an
    undefined number, e.g. ``observed`` beyond the samples drawn) is float NaN, as a column with some None is,
    not an object column of None."""
    pd = pandas_module()

    df = pd.DataFrame(rows, columns=columns)
    for col in df.columns:
        if len(df) and df[col].dtype == object and df[col].isna().all():
            df[col] = df[col].astype("float64")
    return df
