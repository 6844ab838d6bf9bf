"""Argument checks shared by every public function.

Each public function has its own ``_<name>_iv`` helper that calls these primitives
first and returns standardised arrays; each primitive raises :class:`PasscurveError`
with a one-line message naming the argument in backticks, e.g.
"`k` must be an integer in [1, n] (got k=12, n=10)".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._errors import PasscurveError

__all__ = [
    "as_int_array",
    "as_bool_array",
    "as_float_array",
    "as_id_array",
    "check_choice",
    "check_choices",
    "check_tau",
    "check_unused",
    "check_flag",
    "check_text",
    "check_callable",
    "check_counts",
    "check_k_le_n",
    "check_k_le_min_n",
    "check_probability",
    "check_rng",
    "seed_of",
    "check_confidence_level",
    "check_positive_int",
    "fmt",
    "notation",
    "number_format",
]


def fmt(x: Any) -> str:
    """Short, stable text for a value in an error message."""
    if isinstance(x, float | np.floating):
        v = float(x)
        return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)
    if isinstance(x, np.integer):
        return str(int(x))
    return repr(x) if isinstance(x, str) else str(x)


def _show(x: Any) -> str:
    """A bad element as the user typed it: 'x' for a (numpy) string, None, 1.5."""
    return repr(str(x)) if isinstance(x, str | np.str_) else fmt(x)


def is_bool(x: Any) -> bool:
    """``x`` is a boolean or an array of booleans (a ragged sequence is not: its own check reports it)."""
    try:
        return bool(np.asarray(x).dtype == bool)
    except (TypeError, ValueError):
        return False


_BOOLS = (bool, np.bool_)


def bool_in(x: Any) -> Any:
    """The first boolean (numpy's too) in the list or tuple ``x`` or in one nested in it, else None. numpy reads
    ``[True, 2]`` as the integers ``[1, 2]`` and ``(True, 2.0)`` as floats, so the array's dtype cannot tell (a
    sequence of booleans alone is a bool array, refused by its dtype): ``prior=(True, 2)`` was the prior (1, 2).
    The element types are collected as a set first (a list of 10^6 numbers: 0.03 s, as long as ``np.asarray``).
    An array in the list (numpy's, pandas') is looked at too: ``[np.array([True, False]), np.array([1, 2])]`` is the
    integer array ``[[1, 0], [1, 2]]``, and ``c=`` so given had been the counts 1 and 0."""
    if not isinstance(x, list | tuple):
        return None
    kinds = {type(v) for v in x}
    if any(issubclass(t, _BOOLS) for t in kinds):
        return next(v for v in x if isinstance(v, _BOOLS))
    if any(not issubclass(t, _SCALARS) for t in kinds):
        for v in x:
            found = bool_in(v) if isinstance(v, list | tuple) else _first_of_bool_array(v)
            if found is not None:
                return found
    return None


_SCALARS = (int, float, complex, str, bytes, np.generic)
"""Element types with nothing inside to look at for :func:`bool_in`."""


def _first_of_bool_array(v: Any) -> Any:
    """The first element of ``v`` if it is an array of booleans (numpy's, pandas'), else None."""
    try:
        arr = np.asarray(v)
    except Exception:  # what numpy cannot shape is refused by the caller's own conversion
        return None
    return arr.flat[0] if arr.dtype == bool and arr.size else None


def _first_bad(arr: np.ndarray, mask: np.ndarray) -> Any:
    idx = np.flatnonzero(np.ravel(mask))[0]
    return np.ravel(arr)[idx]


def unmasked(x: Any, name: str) -> Any:
    """``x`` itself, or the data of a numpy masked array with nothing masked; a masked array with masked entries is
    the error naming ``name``: ``np.asarray`` drops the mask, so the masked-out values were used as data (a masked
    c = 20 beside n = 10 read as c > n)."""
    if not isinstance(x, np.ma.MaskedArray):
        return x
    hidden = int(np.ma.getmaskarray(x).sum())
    if hidden:
        raise PasscurveError(
            f"`{name}` is a masked array with {hidden} masked entr{'y' if hidden == 1 else 'ies'}, which would be "
            "used as data; drop those entries (of every argument alike) or fill them (`.filled(value)`)"
        )
    return np.ma.getdata(x)


def _check_ndim(arr: np.ndarray, name: str, max_ndim: int | None) -> None:
    if max_ndim is not None and arr.ndim > max_ndim:
        what = "one number or a 1-d sequence" if max_ndim == 1 else f"at most {max_ndim}-d"
        raise PasscurveError(f"`{name}` must be {what} (got shape {arr.shape})")


INT_CAP = 2**62
"""The magnitude from which an integer argument is refused as beyond int64 (2^62, a margin below its 2^63 - 1; a
float beyond int64 wrapped around in the conversion): written 'max 4.61e+18'."""


def _beyond_int(name: str, v: Any, minimum: int | None, maximum: int | None) -> PasscurveError:
    """The error for the value ``v`` of ``name`` at least :data:`INT_CAP` in size (a float, a numpy unsigned integer
    or a Python int beyond a float, written as :func:`big_int_text` writes it), shown with its sign: below
    ``minimum`` or above ``maximum`` as any value out of range is, else too small or too large for int64. k = -1e20
    read "`k` is too large (got k=1e+20, ...)", its sign dropped, where k = -1e10 read "`k` must be >= 1"."""
    shown = big_int_text(v) if isinstance(v, int) else fmt(v)
    if v < 0:
        if minimum is not None:
            return PasscurveError(f"`{name}` must be >= {minimum} (got {name}={shown})")
        return PasscurveError(f"`{name}` is too small (got {name}={shown}, min {-INT_CAP:.3g})")
    if maximum is not None:
        return PasscurveError(f"`{name}` must be <= {maximum:.3g} (got {name}={shown})")
    return PasscurveError(f"`{name}` is too large (got {name}={shown}, max {INT_CAP:.3g})")


def as_int_array(x: Any, name: str, *, minimum: int | None = 0, maximum: int | None = None,
                 max_ndim: int | None = None) -> np.ndarray:
    """Return ``x`` as an int64 array; reject NaN, non-integers, bools, strings and values outside
    [``minimum``, ``maximum``], and more than ``max_ndim`` dimensions (where a function documents 1-d
    input, ``max_ndim=1`` stops a 2-d array from being flattened silently).

    Integral floats (``3.0``, as CSV readers produce) are accepted. ``maximum`` is checked before
    the int64 conversion, so a value beyond int64 gets the same message as one just above it.
    """
    x = unmasked(x, name)
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged sequences and the like
        why = "got a ragged sequence" if "inhomogeneous" in str(exc) else str(exc)
        raise PasscurveError(f"`{name}` must be an array of integers ({why})") from None
    _check_ndim(arr, name, max_ndim)
    if arr.dtype.kind in "mM":  # numpy ranks timedelta64 among the signed integers: 10 s had been the count 10
        raise PasscurveError(f"`{name}` must contain integers (got values of type {arr.dtype})")
    if arr.dtype == object:
        bad = [v for v in arr.ravel() if not isinstance(v, int | float | np.number)][:1]  # None would become NaN
        if bad:
            raise PasscurveError(f"`{name}` must contain integers (got {_show(bad[0])})")
        flag = next((v for v in arr.ravel() if isinstance(v, _BOOLS)), None)  # bool is an int
        if flag is not None:
            raise PasscurveError(f"`{name}` must contain integers, not booleans (got {show_value(flag)})")
        try:
            arr = arr.astype(np.float64)
        except OverflowError:  # an int beyond a float (10^400): the conversion's traceback, as in expected_sd([10**400])
            v = next(v for v in arr.ravel() if isinstance(v, int) and abs(v) >= INT_CAP)
            raise _beyond_int(name, v, minimum, maximum) from None
    if arr.dtype == bool:
        raise PasscurveError(f"`{name}` must contain integers, not booleans")
    if (flag := bool_in(x)) is not None:  # [True, 2] is an int array
        raise PasscurveError(f"`{name}` must contain integers, not booleans (got {show_value(flag)})")
    if arr.size == 0:
        raise PasscurveError(f"`{name}` is empty")
    if np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind == "u" and arr.max() >= INT_CAP:  # as for floats (beyond int64 it would wrap negative)
            raise _beyond_int(name, arr.max(), minimum, maximum)
        out = arr.astype(np.int64)
    elif np.issubdtype(arr.dtype, np.floating):
        if arr.dtype.itemsize < 8:  # float16/32 exactly in float64: comparing float16 with 2**62 overflowed (a warning)
            arr = arr.astype(np.float64)
        if np.isnan(arr).any():
            raise PasscurveError(f"`{name}` contains NaN")
        if not np.isfinite(arr).all():
            raise PasscurveError(f"`{name}` contains an infinite value")
        frac = arr != np.floor(arr)
        if frac.any():
            raise PasscurveError(f"`{name}` must contain integers (got {fmt(_first_bad(arr, frac))})")
        if maximum is not None and arr.max() > maximum:
            raise PasscurveError(f"`{name}` must be <= {maximum:.3g} (got {name}={fmt(arr.max())})")
        big = np.abs(arr) >= INT_CAP
        if big.any():
            raise _beyond_int(name, _first_bad(arr, big), minimum, maximum)
        out = arr.astype(np.int64)
    else:
        raise PasscurveError(f"`{name}` must contain integers (got values of type {arr.dtype})")
    if minimum is not None:
        low = out < minimum
        if low.any():
            raise PasscurveError(f"`{name}` must be >= {minimum} (got {name}={fmt(_first_bad(out, low))})")
    if maximum is not None and np.max(out) > maximum:
        raise PasscurveError(f"`{name}` must be <= {maximum:.3g} (got {name}={fmt(np.max(out))})")
    return out


def as_float_array(x: Any, name: str, *, allow_nan: bool = False, max_ndim: int | None = None,
                   minimum: float | None = None, allow_bool: bool = False, mask_as_nan: bool = False) -> np.ndarray:
    """Return ``x`` as a float64 array; reject strings and None, complex numbers (numpy would keep the real
    part with a ComplexWarning), booleans unless ``allow_bool`` (``alpha=True`` is a mistake, not 1.0; per-problem
    scores may be booleans), NaN/inf unless allowed, more than ``max_ndim`` dimensions, and values below
    ``minimum``. A masked array's masked entries are refused (:func:`unmasked`), or with ``mask_as_nan`` (where NaN
    means "left out", so ``allow_nan`` too) become NaN."""
    mask = None
    if mask_as_nan and isinstance(x, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(x)
        x = np.ma.getdata(x)
    x = unmasked(x, name)
    try:
        raw = np.asarray(x)
        if raw.dtype.kind in "USO":  # strings ("0.5" would convert) and None (would become NaN)
            bad = [v for v in raw.ravel() if isinstance(v, str | bytes) or v is None
                   or isinstance(v, complex | np.complexfloating) or (not allow_bool and isinstance(v, bool | np.bool_))][:1]
            if bad:
                what = ("real numbers" if isinstance(bad[0], complex | np.complexfloating)
                        else "numbers, not booleans" if isinstance(bad[0], bool | np.bool_) else "numbers")
                raise PasscurveError(f"`{name}` must contain {what} (got {_show(bad[0])})")
        if raw.dtype.kind == "c":
            raise PasscurveError(f"`{name}` must contain real numbers (got {_show(raw.ravel()[0]) if raw.size else raw.dtype})")
        if raw.dtype.kind in "mM":  # dates and durations converted to numbers of their unit (days since 1970)
            raise PasscurveError(f"`{name}` must contain numbers (got values of type {raw.dtype})")
        if raw.dtype == bool and not allow_bool:
            raise PasscurveError(f"`{name}` must contain numbers, not booleans (got {show_value(x)})")
        if not allow_bool and raw.dtype.kind in "iuf" and (flag := bool_in(x)) is not None:  # (True, 2.0): floats
            raise PasscurveError(f"`{name}` must contain numbers, not booleans (got {show_value(flag)})")
        arr = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, PasscurveError):
            raise
        raise PasscurveError(f"`{name}` must contain numbers") from None
    if mask is not None and mask.any():
        arr = np.where(mask, np.nan, arr)
    _check_ndim(arr, name, max_ndim)
    if arr.size == 0:
        raise PasscurveError(f"`{name}` is empty")
    if not allow_nan and not np.isfinite(arr).all():
        raise PasscurveError(f"`{name}` contains NaN or an infinite value")
    if minimum is not None:
        low = arr < minimum
        if low.any():
            raise PasscurveError(f"`{name}` must be >= {fmt(minimum)} (got {name}={fmt(_first_bad(arr, low))})")
    return arr


def is_missing(v: Any) -> bool:
    """``v`` is a missing value: None, a float NaN, numpy's NaT, or pandas' NA and NaT (known by their type's name, so
    pandas is not imported for it). A pandas string or nullable-integer column holds pd.NA where a value is missing,
    and ``str()`` made it the id '<NA>' (a datetime column's NaT the id 'NaT')."""
    if v is None or (isinstance(v, float | np.floating) and np.isnan(v)):
        return True
    if isinstance(v, np.datetime64 | np.timedelta64):
        return bool(np.isnat(v))
    return type(v).__name__ in ("NAType", "NaTType")


def as_id_array(x: Any, name: str, size: int | None = None, *, of: str = "`n`", per: str = "row") -> np.ndarray:
    """Labels (problem, model or cluster ids) as a 1-d object array, one per row, values as given (the caller
    decides whether ids become text). Refused, with the error naming ``name``: a 2-d array (flattened silently
    before), a ragged sequence or any element that is itself a sequence (its text, '[1, 2]', became an id), a
    missing id (None or NaN, which became the id 'None' or 'nan'), and a length other than ``size`` (``of`` names
    the argument that sets it)."""
    arr = np.asarray(unmasked(x, name), dtype=object)
    if arr.ndim > 1:
        raise PasscurveError(f"`{name}` must be a 1-d sequence, one id per {per} (got shape {arr.shape})")
    arr = arr.reshape(-1)  # one id alone is one row
    # ids that are all text or integers need no look at each one (set(map(type, ...)) runs in C: 0.05 s per 10^6
    # ids, where the loop below takes 0.5 s); anything else (a float that may be NaN, None, a sequence) is looked
    # at row by row, so the error names the first bad row
    if all(issubclass(t, str | int | np.integer) for t in set(map(type, arr))):
        return _sized(arr, name, size, of)
    for i, v in enumerate(arr):
        if isinstance(v, list | tuple | dict | set | np.ndarray):
            raise PasscurveError(f"`{name}` must hold one id per {per}, not a sequence (got {show_value(v)} in row {i + 1})")
        if is_missing(v):
            raise PasscurveError(f"`{name}` has a missing id (None/NaN) in row {i + 1}")
    return _sized(arr, name, size, of)


def _sized(arr: np.ndarray, name: str, size: int | None, of: str) -> np.ndarray:
    if size is not None and arr.size != size:
        raise PasscurveError(f"`{name}` has {arr.size} entries but {of} has {size}")
    return arr


_NONE = object()
"""No value found (where None is itself a value to find)."""


def as_bool_array(x: Any, name: str) -> np.ndarray:
    """A flat sequence of booleans, one per row: True/False, or the numbers 0 and 1; anything else (NaN, 2, a
    string, a ragged or 2-d sequence) is the error naming ``name``."""
    try:
        arr = np.asarray(unmasked(x, name))
    except ValueError as exc:  # ragged sequences
        why = "got a ragged sequence" if "inhomogeneous" in str(exc) else str(exc)
        raise PasscurveError(f"`{name}` must be a flat sequence of booleans ({why})") from None
    if arr.ndim > 1:  # one verdict per row: a 2-d array was flattened silently
        raise PasscurveError(f"`{name}` must be a flat sequence of booleans, one per row (got shape {arr.shape})")
    if arr.dtype == bool:
        return arr.ravel()
    if arr.dtype.kind in "mM":  # durations and dates (numpy ranks timedelta64 among the integers): Python's TypeError
        raise PasscurveError(f"`{name}` must be boolean (true/false or 0/1) (got values of type {arr.dtype})")
    if arr.dtype == object:  # a pandas object column: booleans, or the numbers 0 and 1 (those were refused as "must
        # be boolean (true/false or 0/1) (got 1)"); NaN, None and text are not verdicts
        # (a sentinel marks "none bad": with None as the default, a None verdict had passed as False)
        bad = next((v for v in arr.ravel() if not (isinstance(v, bool | np.bool_)
                                                    or (isinstance(v, int | float | np.number) and v in (0, 1)))), _NONE)
        if bad is _NONE:
            return arr.astype(bool).ravel()
        raise PasscurveError(f"`{name}` must be boolean (true/false or 0/1) (got {show_value(bad)})")
    if np.issubdtype(arr.dtype, np.number):
        ok = (arr == 0) | (arr == 1)
        if not ok.all():
            raise PasscurveError(f"`{name}` must be boolean (true/false or 0/1) (got {fmt(arr.ravel()[~ok.ravel()][0])})")
        return (arr == 1).ravel()
    raise PasscurveError(f"`{name}` must be boolean (true/false or 0/1) (got values of type {arr.dtype})")


def check_weights(weight: Any, size: int, name: str = "weight", of: str = "`n`") -> np.ndarray:
    """Per-problem weights: finite numbers, one per problem, >= 0, with a positive sum (an all-zero weight vector
    would make every weighted mean 0/0)."""
    w = as_float_array(weight, name, max_ndim=1).ravel()
    if w.size != size:
        raise PasscurveError(f"`{name}` has {w.size} entries but {of} has {size}")
    if (w < 0).any():
        raise PasscurveError(f"`{name}` must be >= 0 (got {name}={fmt(float(w.min()))})")
    if not w.sum() > 0:
        raise PasscurveError(f"`{name}` must have a positive sum (got all zeros)")
    # a copy of the caller's own float array (as_float_array and ravel pass it through): Counts and the Planner keep
    # these weights, and an edit of the caller's array afterwards changed their weighted means without a word
    return w.copy() if isinstance(weight, np.ndarray) and np.may_share_memory(w, weight) else w


def budget_grid(x: Any, name: str = "k", *, maximum: int | None = None) -> np.ndarray:
    """A grid of whole budgets (k, m or n, each >= 1, at most ``maximum``) as its sorted distinct values; one
    dimension, as the functions that take one document it (``curve(counts, k=[[1, 2], [3, 4]])`` had run at
    k = 1, 2, 3, 4 without a word)."""
    return np.unique(as_int_array(x, name, minimum=1, maximum=maximum, max_ndim=1).ravel())


def check_positive_k(k: Any, name: str = "k", *, max_ndim: int | None = None) -> np.ndarray:
    """A budget for a closed form (real values allowed, as in forecasts between integers): finite and > 0; at most
    ``max_ndim`` dimensions, as :func:`as_float_array`."""
    k_a = as_float_array(k, name, max_ndim=max_ndim)
    if (k_a <= 0).any():
        raise PasscurveError(f"`{name}` must be > 0 (got {name}={fmt(float(k_a.min()))})")
    return k_a


def check_broadcast(names: str, *arrays: Any) -> list[np.ndarray]:
    """``np.broadcast_arrays(*arrays)``, or the one-line error naming the arguments (``names``, e.g.
    ``"`n` and `c`"``) and their shapes."""
    try:
        return list(np.broadcast_arrays(*arrays))
    except ValueError:
        each = [str(np.shape(a)) for a in arrays]
        shapes = ", ".join(each[:-1]) + " and " + each[-1]
        raise PasscurveError(f"{names} have incompatible shapes {shapes}") from None


def check_scalar(x: Any, name: str, *, low: float | None = None, high: float | None = None,
                 low_open: bool = False, high_open: bool = False, allow_inf: bool = False) -> float:
    """One number (a float) within the optional bounds, or the error naming ``name`` and showing the value.

    Booleans, strings, None and NaN are rejected, and infinities unless ``allow_inf``; ``low_open`` /
    ``high_open`` exclude the bound itself ("`alpha` must be in (0, 1) (got alpha=1.5)").
    """
    if is_bool(x):
        raise PasscurveError(f"`{name}` must be a number, not a boolean (got {show_value(x)})")
    if x is None or isinstance(x, str | bytes):
        raise PasscurveError(f"`{name}` must be a number (got {_show(x)})")
    arr = as_float_array(x, name, allow_nan=True)
    if arr.size != 1:
        raise PasscurveError(f"`{name}` must be one number (got {arr.size} values)")
    v = float(arr.ravel()[0])
    if np.isnan(v):
        raise PasscurveError(f"`{name}` must be a number (got {name}=nan)")
    if np.isinf(v) and not allow_inf:
        raise PasscurveError(f"`{name}` must be finite (got {name}={fmt(v)})")
    too_low = low is not None and (v <= low if low_open else v < low)
    too_high = high is not None and (v >= high if high_open else v > high)
    if too_low or too_high:
        if low is not None and high is not None:
            rng = f"in {'(' if low_open else '['}{fmt(low)}, {fmt(high)}{')' if high_open else ']'}"
        elif low is not None:
            rng = f"{'>' if low_open else '>='} {fmt(low)}"
        else:
            rng = f"{'<' if high_open else '<='} {fmt(high)}"
        raise PasscurveError(f"`{name}` must be {rng} (got {name}={fmt(v)})")
    return v


def show_value(x: Any) -> str:
    """A bad value on one line: 'x' for a string, 1.5 for a number, [1, 2] for an array or a list."""
    if isinstance(x, str):
        return repr(x)
    try:
        return fmt(x) if np.ndim(x) == 0 else repr(np.asarray(x, dtype=object).tolist())
    except Exception:  # ragged sequences and objects numpy cannot shape
        return type(x).__name__


def _exponent(v: float) -> int:
    """The decimal exponent of a positive ``v`` (0.00697 -> -3)."""
    return int(math.floor(math.log10(v) + 1e-9))


def _finite(x: Any) -> float | None:
    """``x`` as a float, or None when it is missing (None, NaN, ±inf): the cells that show '-'."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


SCI_DECADES = 4
"""A column whose nonzero values span more than this many decades is written in scientific notation."""

MAX_DECIMALS = 8
"""Most decimals a fixed-point column takes (beyond, scientific)."""

PCT_DECIMALS = 3
"""Most decimals of a percentage column; a share below 0.001% is written '<0.001%'."""

_PCT_TINY = 10.0 ** -(PCT_DECIMALS + 2)
"""The share below which a percentage column writes '<0.001%' (compared with a relative slack of 1e-9)."""


def notation(values: Any, digits: int = 4, *, percent: bool = False, figures: int = 2,
             below_one: bool = False) -> tuple[int, bool]:
    """:func:`number_format`'s choice for a column of ``values``: (decimals, scientific), with its ``percent``,
    ``figures`` and ``below_one``. A chart's hover labels take the same choice in plotly's own format language
    (report/_sections.hover_format)."""
    raw = np.asarray(values, dtype=float).ravel()
    v = np.abs(raw)
    v = v[np.isfinite(v) & (v > (_PCT_TINY * (1 - 1e-9) if percent else 0))]
    if not v.size:
        return digits, False
    lo, hi = float(v.min()), float(v.max())
    if percent:
        return min(max(digits, 1 - _exponent(100 * lo)), PCT_DECIMALS), False
    decimals = max(digits, figures - 1 - _exponent(lo))
    sci = hi / lo > 10.0**SCI_DECADES or hi >= 1e5 or decimals > MAX_DECIMALS
    if below_one and not sci:  # the decimals that keep the value nearest 1 from reading 1
        near = raw[np.isfinite(raw) & (raw >= 0) & (raw < 1)]
        if near.size:
            decimals = max(decimals, min(_short_of_one(float(near.max())), MAX_DECIMALS))
    return decimals, sci


RANK_DECIMALS = 3
"""Most decimals :func:`decimals_apart` gives a column read for its order (fit's log-lik, AIC, ΔAIC): values
closer than that are a tie for every purpose they serve."""


def decimals_apart(values: Any, fewest: int = 1, most: int = RANK_DECIMALS) -> int:
    """Fixed decimals for a column whose values are compared to rank them (fit's log-likelihood, AIC and ΔAIC):
    the fewest, from ``fewest`` up to ``most``, at which every two finite values that differ when written with
    ``most`` decimals differ as written. At 1 decimal two AICs could read alike while one ranked above the other
    (bon_jailbreaking_counts.csv, Llama 3 8B IT: beta 816.782 and npmle 816.812 both '816.8'); values equal at
    ``most`` decimals (zi_beta and scaled_beta both at their bounds, as the Beta) ask for no more."""
    v = [float(x) for x in np.asarray(values, dtype=float).ravel() if math.isfinite(x)]
    pairs = [(x, y) for i, x in enumerate(v) for y in v[i + 1:] if f"{x:.{most}f}" != f"{y:.{most}f}"]
    for d in range(fewest, most):
        if all(f"{x:.{d}f}" != f"{y:.{d}f}" for x, y in pairs):
            return d
    return max(fewest, most)


def _short_of_one(x: float) -> int:
    """The decimals that keep ``x`` in [0, 1) from reading 1: two significant digits of 1 - x (0.99996 -> 6)."""
    return 1 - _exponent(1 - x)


def number_format(values: Any, digits: int = 4, *, percent: bool = False, below_one: bool = False,
                  figures: int = 2) -> Callable[[Any], str]:
    """How to write the numbers of one table column (its values, and its intervals' ends): one notation for all.

    Fixed point with ``digits`` decimals, more where the column's smallest nonzero value needs them for two
    significant digits (6.97·10⁻⁴ -> 0.00070, and every value of the column with 5 decimals); scientific with three
    significant digits ('6.97e-04', 0 as '0') for the whole column when its nonzero values span more than
    :data:`SCI_DECADES` decades, reach 10⁵, or would need more than :data:`MAX_DECIMALS` decimals. Missing values
    (None, NaN, ±inf) are '-'. A column mixed '6.97e-04' with '0.0069', each cell choosing for itself.

    ``percent``: shares written as percentages, the same way but never scientific: at most :data:`PCT_DECIMALS`
    decimals, and a share below 0.001% (10⁻⁵) as '<0.001%' (a pass^8 column read 0.0019% beside 0.3%).

    ``below_one``: a column read against 1 (forecasts of pass@K): in fixed point, also the decimals that keep its
    values below 1 from reading 1, two significant digits of 1 - x for the one nearest 1 (0.99997783 beside 0.9988
    reads 0.999978 and 0.998823, not '1.0000'), at most :data:`MAX_DECIMALS`; a value still closer to 1 is written
    as its gap ('1 − 1.0e-09'). :func:`fmt_below_one` is one such value alone.

    ``figures``: the significant digits the column's smallest nonzero value keeps in fixed point (2; fit's tail and
    P(p=0) columns take the parameter lines' 4, so Pythia 70M's tail reads 0.06504 as its alpha=0.06504 does, not
    0.0650)."""
    decimals, sci = notation(values, digits, percent=percent, figures=figures, below_one=below_one)

    def fmt(x: Any) -> str:
        x = _finite(x)
        if x is None:
            return "-"
        if percent:
            return (f"<{_PCT_TINY * 100:.{PCT_DECIMALS}f}%" if 0 < abs(x) < _PCT_TINY * (1 - 1e-9)
                    else f"{100 * x:.{decimals}f}%")
        if sci:
            return "0" if x == 0 else f"{x:.2e}"
        if below_one and 0 <= x < 1 and _short_of_one(x) > MAX_DECIMALS:
            return f"1 − {1 - x:.1e}"
        return f"{x:.{decimals}f}"

    return fmt


def fmt_below_one(x: Any, digits: int = 4) -> str:
    """A number that is read against 1, a forecast's plateau (1 - the impossible mass) or its value short of a target
    near 1, as every line writes it: :func:`number_format` of it alone (0.987 -> '0.9870'), with the decimals that keep
    a value below 1 from reading 1, two significant digits of 1 - x (0.99996 -> '0.999960', not '1.0000' or the '1'
    of :.4g); past :data:`MAX_DECIMALS` decimals the gap itself ('1 − 1.0e-09'). The forecast's caveat wrote
    'plateaus at 0.987' (:.4g) beside the CLI's 'plateaus at 0.9617' in one output. A column of them:
    ``number_format(values, below_one=True)``."""
    v = _finite(x)
    return number_format([] if v is None else [v], digits, below_one=True)(x)


def shares_text(shares: Any, decimals: int = 2) -> dict[Any, str]:
    """Shares (a mapping of name to weight, e.g. a forecast's method weights) written with ``decimals`` decimals
    that add up as the shares do: each rounded down, then the units still missing from the rounded total go to the
    largest remainders (largest-remainder rounding; ties to the first listed). Rounding each alone wrote Pythia
    160M's weights 0.2567, 0.4179, 0.3253 as 0.26 + 0.42 + 0.33 = 1.01; they now read 0.26, 0.42, 0.32.

    Equal shares of a whole that the decimals cannot write alike are written as the fraction they are: three
    candidates averaged equally read "1/3" each, not "0.34, 0.33, 0.33" (which gave the first a weight the
    average does not give it)."""
    names = list(shares)
    raw = np.asarray([float(shares[n]) for n in names], dtype=float)
    if (raw.size > 1 and np.all(raw == raw[0]) and abs(float(raw.sum()) - 1.0) <= 1e-12
            and (10**decimals) % raw.size):
        return {n: f"1/{raw.size}" for n in names}
    v = raw * 10.0**decimals
    units = np.floor(v)
    left = int(round(float(v.sum()) - float(units.sum())))
    for j in np.argsort(-(v - units), kind="stable")[:max(left, 0)]:
        units[j] += 1
    return {n: f"{u / 10.0**decimals:.{decimals}f}" for n, u in zip(names, units, strict=True)}


DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
"""A number as text ("2", "0.0", "-1.5e3"): an id that is one (``fullmatch``) is compared by its value where two
spellings of one number meet (compare's unpaired-ids note, the report's natural order)."""

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: Any) -> tuple[Any, ...]:
    """Sort key of a name as a reader orders it: a number by its value ("2" before "10"), else by its runs of digits
    and of other characters in turn ("p2" before "p10", "q1b" before "q1c"), numbers before names; ties (as "p01"
    and "p1") by the text. For what a reader scans: the report's per-problem table (it sorted as text: "p10" before
    "p2", "10" before "2") and the ties of ``passcurve plan``'s table."""
    text = str(name)
    if DECIMAL.fullmatch(text.strip()):
        return (0, float(text), (), text)
    parts = _DIGITS.split(text)  # text, digits, text, ...: like types meet at each place
    return (1, 0.0, tuple(int(p) if i % 2 else p.casefold() for i, p in enumerate(parts)), text)


def names_listed(names: Sequence[str]) -> str:
    """Model names for a message, comma-separated: a name is shown quoted when it would not read back as written
    (spaces at its ends, a comma, empty), so ' gpt-4 ' is not shown as gpt-4 and 'llama, 8B' not as two names."""
    return ", ".join(n if n and n == n.strip() and "," not in n else repr(n) for n in map(str, names))


def model_named(name: Any, names: Sequence[str]) -> Any:
    """The model that ``name`` selects among ``names``, for every selection (``--models``, ``--a``/``--b``,
    ``model=``): ``name`` itself when a model is so named, else ``name`` without the whitespace at its ends when a
    model is so named (``--models 'a, b'`` names a and b; a model written ' gpt-4 ' in the file is selected by
    ' gpt-4 ' and, when no model is named 'gpt-4 ', by 'gpt-4 '); otherwise ``name`` as given, for the caller's
    unknown-model error."""
    if not isinstance(name, str) or name in names:
        return name
    stripped = name.strip()
    return stripped if stripped != name and stripped in names else name


def unknown_model(model: Any, names: Sequence[str], name: str = "model") -> str:
    """The message for an unknown model name given as the argument ``name`` (`model`, `models`, `a`): the names
    present (:func:`names_listed`), and the one it matches but for case, spaces and punctuation ('pythia-1b' for
    'Pythia 1B'), if there is exactly one. It had read "unknown model 'Z'; models present: A, B", naming no argument
    (--a or --b of compare, --models)."""
    def bare(s: str) -> str:
        return re.sub(r"[\W_]+", "", s.casefold())

    near = [n for n in map(str, names) if isinstance(model, str) and bare(model) and bare(n) == bare(model)]
    hint = f"; did you mean {near[0]!r}?" if len(near) == 1 else ""
    return f"`{name}` must name a model present (got {show_value(model)}{hint}); models present: {names_listed(names)}"


def check_model(model: Any, names: Sequence[str], name: str = "model") -> str:
    """The model that ``model`` selects among ``names`` (:func:`model_named`: as written, else without the spaces at
    its ends), else the unknown-model error naming the argument ``name``."""
    names = list(names)
    got = model_named(model, names)
    if isinstance(got, str) and got in names:
        return got
    raise PasscurveError(unknown_model(got, names, name))


def _listed(choices: Sequence[str], quoted: bool) -> str:
    if not quoted:
        return ", ".join(map(str, choices))
    q = [f'"{c}"' for c in choices]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " or " + q[-1]


def check_choice(x: Any, name: str, choices: Sequence[str], *, what: str = "one of", quoted: bool = False) -> str:
    """``x`` if it is one of the strings ``choices``, else the error naming ``name`` and listing them (arrays,
    lists and other unhashable values get the same message, not numpy's ambiguous-truth error). ``quoted`` lists
    them as '"a", "b" or "c"' rather than 'a, b, c'."""
    if isinstance(x, str) and x in choices:
        return x
    lead = "" if quoted else f"{what} "  # '"a", "b" or "c"' reads as the choice already
    raise PasscurveError(f"`{name}` must be {lead}{_listed(choices, quoted)} (got {show_value(x)})")


def check_flag(x: Any, name: str) -> bool:
    """A switch: True or False (numpy's bool too); an array, a string, None or a number is the error naming
    ``name`` (``weighted="no"`` would be true, and an array has no truth value)."""
    if isinstance(x, bool | np.bool_):
        return bool(x)
    raise PasscurveError(f"`{name}` must be True or False (got {show_value(x)})")


def check_text(x: Any, name: str, what: str = "a string") -> str:
    """``x`` if it is a string (a name, a source, a model), else the error naming ``name`` and showing the value: a
    number, None or a list had reached string methods or numpy (AttributeError, broadcast errors)."""
    if isinstance(x, str):
        return x
    raise PasscurveError(f"`{name}` must be {what} (got {show_value(x)})")


def check_callable(x: Any, name: str) -> Any:
    """``x`` if it is None or callable (a hook such as ``progress``), else the error naming ``name``: a number had
    been called later, deep in a scan ("'int' object is not callable")."""
    if x is None or callable(x):
        return x
    raise PasscurveError(f"`{name}` must be a function or None (got {show_value(x)})")


def check_unused(where: str, **args: Any) -> None:
    """Arguments that have no effect in the mode the call chose are an error naming them, not silently ignored:
    each of ``args`` must be None (its default); ``where`` says when they do apply ("with pilot `counts`")."""
    given = [f"`{name}`" for name, value in args.items() if value is not None]
    if given:
        raise PasscurveError(f"{', '.join(given)} appl{'ies' if len(given) == 1 else 'y'} only {where}")


def check_tau(tau: Any, metrics: Sequence[str]) -> float | None:
    """G-pass@k's threshold: required (one number in [0, 1]) when ``metrics`` hold g_pass_at_k, and an error
    naming it when they do not (it would have no effect)."""
    if "g_pass_at_k" not in metrics:
        check_unused(f"to metric g_pass_at_k (got metric {', '.join(metrics)})", tau=tau)
        return None
    if tau is None:
        raise PasscurveError("`tau` is required for metric g_pass_at_k (e.g. tau=0.5)")
    return check_scalar(tau, "tau", low=0.0, high=1.0)


def check_choices(x: Any, name: str, choices: Sequence[str]) -> tuple[str, ...]:
    """One of ``choices`` or a sequence of them (a single string is one choice, not its characters), as a tuple;
    a number, None or another non-sequence is the error naming ``name``, as is each element not in ``choices``."""
    bad = PasscurveError(f"`{name}` must be one of {_listed(choices, False)} or a sequence of them "
                         f"(got {show_value(x)})")
    if isinstance(x, str):
        items: tuple[Any, ...] = (x,)
    elif isinstance(x, np.ndarray):
        if x.ndim == 0:
            raise bad
        items = tuple(x.ravel().tolist())
    else:
        try:
            items = tuple(x)
        except TypeError:
            raise bad from None
    if not items:
        raise PasscurveError(f"`{name}` is empty")
    for item in items:
        check_choice(item, name, choices, what="drawn from")
    return tuple(str(i) for i in items)


def pick_model(models: Sequence[str], model: str | None) -> int:
    """Index of ``model`` in a result's ``models``; ``model`` may be None only when there is one."""
    if model is None and len(models) > 1:
        raise PasscurveError(
            f"`model` is required: the result holds {len(models)} models ({', '.join(models)}); pass model=NAME"
        )
    return 0 if model is None else list(models).index(check_model(model, models))


def check_counts(n: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Check ``n >= 1`` and ``0 <= c <= n`` elementwise (after broadcasting)."""
    n, c = check_broadcast("`n` and `c`", n, c)
    zero = n < 1
    if zero.any():
        raise PasscurveError(f"`n` must be >= 1 (got n={fmt(_first_bad(n, zero))}); a problem needs at least one sample")
    over = c > n
    if over.any():
        i = np.flatnonzero(over.ravel())[0]
        raise PasscurveError(f"`c` must be <= n (got c={fmt(c.ravel()[i])}, n={fmt(n.ravel()[i])})")
    return n, c


def check_k_gt_n(k_gt_n: Any) -> str:
    """``k_gt_n`` of the curve functions: what to do with k > n."""
    return check_choice(k_gt_n, "k_gt_n", ("raise", "drop", "nan"), quoted=True)


def own_range_ends(n: np.ndarray, model: np.ndarray) -> np.ndarray:
    """Each model's smallest n (models in sorted order): where its own range of k ends."""
    _, code = np.unique(model.astype(str), return_inverse=True)
    lows = np.full(int(np.max(code)) + 1, np.iinfo(np.int64).max)
    np.minimum.at(lows, code.ravel(), n)
    return lows


def own_range_top(n: np.ndarray, model: np.ndarray) -> int:
    """The largest k some model estimates over all its problems: the largest of the models' smallest n."""
    return int(own_range_ends(n, model).max())


def check_k_le_n(n: np.ndarray, k: np.ndarray, *, where: str = "", n_name: str = "n") -> None:
    """Raise the canonical k > n error; ``where`` is said after the numbers (which problem has that n); ``n_name``
    is what the n is called where it is an argument rather than the data's column (``power --n``: the command line's
    renaming leaves a bare `n` alone in a command that reads a file, and 'in [1, n] (got --k=5, n=2)' read as the
    pilot's n)."""
    over = k > n
    if over.any():
        nb, kb = np.broadcast_arrays(n, k)
        i = np.flatnonzero(over.ravel())[0]
        raise PasscurveError(
            f"`k` must be an integer in [1, {n_name}] (got k={fmt(kb.ravel()[i])}, {n_name}={fmt(nb.ravel()[i])}){where}; "
            "no unbiased estimator exists for k > n"
        )


def check_k_le_min_n(n: np.ndarray, ks: np.ndarray, problem: np.ndarray, model: np.ndarray) -> None:
    """Every k in ``ks`` at most every problem's n (``problem``/``model``: the ids aligned with ``n``); else the
    canonical k > n error for the smallest such k, naming the problem (and its model) with the smallest n."""
    bad = ks > n.min()
    if bad.any():
        i = int(np.argmin(n))
        check_k_le_n(n[i : i + 1], ks[bad][:1], where=f"; problem {str(problem[i])!r} of model {str(model[i])!r} has "
                                                      f"{fmt(n[i])} sample{'' if n[i] == 1 else 's'}")


def check_probability(x: Any, name: str, *, low: float = 0.0, high: float = 1.0,
                      allow_nan: bool = False, max_ndim: int | None = None) -> np.ndarray:
    """Numbers in [``low``, ``high``]; NaN passes only with ``allow_nan`` (infinities never do). Booleans are
    refused, as integer counts refuse them: ``tau=True`` is a mistake, not 1.0. At most ``max_ndim`` dimensions, as
    :func:`as_float_array`."""
    if is_bool(x):
        raise PasscurveError(f"`{name}` must contain numbers, not booleans (got {show_value(x)})")
    arr = as_float_array(x, name, allow_nan=allow_nan, max_ndim=max_ndim)
    if np.isinf(arr).any():
        raise PasscurveError(f"`{name}` contains an infinite value")
    bad = (arr < low) | (arr > high)
    if bad.any():
        raise PasscurveError(f"`{name}` must be in [{fmt(low)}, {fmt(high)}] (got {name}={fmt(_first_bad(arr, bad))})")
    return arr


def check_confidence_level(x: Any) -> float:
    """A level in (0, 1): one number (True, "0.95" and NaN are refused, as :func:`check_scalar` refuses them)."""
    if is_bool(x) or x is None or isinstance(x, str | bytes):
        raise PasscurveError(f"`confidence_level` must be a number in (0, 1) (got {_show(x)})")
    return check_scalar(x, "confidence_level", low=0.0, high=1.0, low_open=True, high_open=True)


MAX_RESAMPLES = 10**7
"""The most resamples (bootstrap, parameter draws, permutations) a function accepts: more is a typo (each is an
array row, and 2**40 of them asked numpy for terabytes: a MemoryError rather than an error naming the argument)."""

MAX_SEEDS = 10**4
"""The most repetitions of a Monte Carlo study (``backtest``'s ``seeds``): given the data, the seeds' runs are
independent draws, so a proportion over them (the interval coverage) is within 0.5 / sqrt(seeds) of its value over
infinitely many seeds (one SD): 0.005 at 10^4, half a unit of the two decimals the summary prints. More seeds cannot
change what is shown, and each costs a forecast per (m, k) pair and method (about a second): 10^9 ran for decades
without a word."""

MAX_GRID = 10**6
"""The most points of a grid or entries of a simulated answer set a function builds from one integer argument."""


def big_int_text(v: int) -> str:
    """An integer as :.3g writes it ('1e+07', '1.8e+19'), also beyond a float, whose conversion :.3g makes: 10^400 is
    '1.00e+400' (its leading digits, cut), where :.3g was an OverflowError."""
    try:
        return f"{v:.3g}"
    except OverflowError:
        digits = str(abs(v))
        return f"{'-' if v < 0 else ''}{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"


def check_positive_int(x: Any, name: str, *, minimum: int = 1, maximum: int = 2**53) -> int:
    if isinstance(x, np.ndarray) and x.ndim == 0:  # np.array(7) is the number 7 (it read "must be an integer (got 7)")
        x = x[()]
    if isinstance(x, bool) or not isinstance(x, int | np.integer):
        if isinstance(x, float | np.floating) and float(x).is_integer():
            x = int(x)
        else:
            raise PasscurveError(f"`{name}` must be an integer >= {minimum} (got {show_value(x)})")
    if int(x) < minimum:
        raise PasscurveError(f"`{name}` must be an integer >= {minimum} (got {name}={int(x)})")
    if int(x) > maximum:
        shown = big_int_text(int(x))  # :.3g converts to float: plan --k 1000...0 (10^400) was a traceback
        if shown == f"{maximum:.3g}":  # just above the cap: 10^7 + 1 read "got budget=1e+07, max 1e+07"
            shown = str(int(x))
        raise PasscurveError(f"`{name}` is too large (got {name}={shown}, max {maximum:.3g})")
    return int(x)


def model_streams(gen: np.random.Generator) -> Callable[[], None]:
    """A reset to call at the start of each model's work: it puts ``gen`` back to its state at this call.

    Every model then draws the same random stream (common random numbers), so a model's intervals,
    forecasts, thinnings and plans do not depend on which other models the input holds: they equal the
    results of that model alone with the same seed. After the last model the generator is where that
    model's work left it.
    """
    state = gen.bit_generator.state

    def reset() -> None:
        gen.bit_generator.state = state

    return reset


def seed_of(rng: Any) -> int | None:
    """The integer seed ``rng`` names (a Python or numpy integer), which a result records so the run can be
    repeated; None for a Generator or fresh entropy, whose seed cannot be read back. The numbers drawn are the
    same either way: an int seed is ``np.random.default_rng(seed)`` (:func:`check_rng`)."""
    return int(rng) if isinstance(rng, int | np.integer) and not is_bool(rng) else None


def check_rng(rng: Any) -> np.random.Generator:
    """``None`` → fresh Generator, int/SeedSequence → seeded Generator, Generator passes through."""
    if isinstance(rng, np.random.Generator):
        return rng
    if is_bool(rng):  # True would be the seed 1
        raise PasscurveError(f"`rng` must be None, a non-negative integer seed or a numpy Generator (got {show_value(rng)})")
    if rng is None or isinstance(rng, int | np.integer | np.random.SeedSequence | Sequence):
        try:
            return np.random.default_rng(rng)
        except (TypeError, ValueError):
            pass
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool):
        raise PasscurveError(f"`rng` must be None, a non-negative integer seed or a numpy Generator (got {rng})")
    raise PasscurveError(f"`rng` must be None, a non-negative integer seed or a numpy Generator "
                         f"(got {type(rng).__name__})")
