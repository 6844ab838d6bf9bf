r"""Power laws of pass_D@k in k: the least-squares baseline, local slopes and exponents.

Schaeffer et al. 2025 ("How Do Large Language Monkeys Get Their Power (Laws)?",
arXiv 2502.17578) model the benchmark-level failure as

.. math:: -\log \text{pass}_D@k \approx a\,k^{-b},

fitted by ordinary least squares of :math:`\log(-\log \text{pass}_D@k)` on
:math:`\log k` over a grid of k (their Tables 1–2). The exponent b equals the exponent
of the left tail of the difficulty density, :math:`p^{b-1}` near 0 (for a Beta(α, β),
b = α): the *distributional* exponent, available from :mod:`passcurve._difficulty`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ._adaptive import check_design
from ._counts import Counts, check_counts_object
from ._curves import mean_curve
from ._errors import DegenerateDataWarning, PasscurveError, record_warning
from ._estimators import _log_fail_table
from ._pairs import distinct_pairs
from ._results import ReadOnlyResult, brief_repr, frame_html, records_frame
from ._validation import (
    MAX_GRID,
    budget_grid,
    check_choice,
    check_positive_int,
    check_positive_k,
    check_probability,
    fmt,
    fmt_below_one,
    pick_model,
)

__all__ = ["PowerLawResult", "fit_power_law", "default_k_grid", "local_slope", "PAPER_K_GRID"]

#: The 101 k of the paper's Tables 1–2 (../shared/data/README.md).
PAPER_K_GRID = np.array(
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 64, 68, 72, 76,
     80, 84, 88, 92, 96, 100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150, 156, 162, 168, 175, 182, 189,
     193, 200, 216, 233, 267, 300, 333, 367, 400, 433, 467, 500, 550, 600, 650, 700, 750, 800, 850, 900, 950,
     1000, 1067, 1133, 1200, 1367, 1500, 1750, 2000, 2333, 2667, 3000, 3333, 3667, 4000, 4333, 4667, 5000,
     5333, 5667, 6000, 6333, 6667, 7000, 7333, 7667, 8000, 8500, 9000, 9500, 10000],
    dtype=np.int64,
)


def default_k_grid(n: int, points: int = 100) -> np.ndarray:
    """The unique integers of ``logspace(0, log10 n, points)`` (the default least-squares grid): the floors of
    n^(i/(points-1)), i = 0..points-1, so the grid always ends at n.

    The floors are taken after a relative nudge of 1e-12: a point that is an integer in exact arithmetic often
    comes out of ``logspace`` just below it (10^log10(8) = 7.999999999999998), and truncation then dropped n
    itself from the grid for 8,963 of the n up to 20,000 (8, 40 and 50 among them).

    Parameters
    ----------
    n : int
        The largest k (n >= 1).
    points : int, default 100
        Points of the log-spaced grid before duplicates are removed.

    Returns
    -------
    ndarray of int64
        The sorted distinct k, from 1 to n (at most ``points`` of them).
    """
    n = check_positive_int(n, "n")
    points = check_positive_int(points, "points", maximum=MAX_GRID)
    values = np.logspace(0, np.log10(n), points) * (1.0 + 1e-12)
    return np.unique(np.clip(np.floor(values), 1, n).astype(np.int64))


def _curve_values(
    n: np.ndarray, c: np.ndarray, ks: np.ndarray, convention: str, weight: np.ndarray | None = None
) -> np.ndarray:
    """pass_D@k under the chosen convention for problems with n < k."""
    if convention == "unbiased":
        if (ks > n.min()).any():
            raise PasscurveError(
                f"`k` must be <= the smallest n ({int(n.min())}) with convention='unbiased' "
                f"(got k={int(ks.max())}); use convention='chen' for the paper's handling of stopped problems"
            )
        return mean_curve(n, c, ks, "pass_at_k", weight)[0]
    # "chen": the Codex reference implementation returns 1.0 when n - c < k, so problems
    # whose n is below k count as solved there (how the paper's Table 2 treats BoN).
    pw, table = _pair_log_fail(n, c, ks, convention, weight)
    return (pw @ -np.expm1(table)) / pw.sum()


def _pair_log_fail(
    n: np.ndarray, c: np.ndarray, ks: np.ndarray, convention: str, weight: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The total weight of each distinct (n, c) pair and its log F at each k: NaN where k > n, -inf where
    k > n - c, and under "chen" -inf wherever k > n - c (a problem with n < k counts as solved)."""
    w = np.ones(n.size) if weight is None else weight
    first, inv = distinct_pairs(n, c)
    pn, pc = n[first], c[first]
    pw = np.bincount(inv, weights=w, minlength=first.size)
    table = _log_fail_table(pn, pc, ks)
    if convention == "chen":
        table = np.where(ks[None, :] > (pn - pc)[:, None], -np.inf, table)
    return pw, table


def _curve_fail(
    n: np.ndarray, c: np.ndarray, ks: np.ndarray, convention: str, weight: np.ndarray | None = None
) -> np.ndarray:
    """1 - pass_D@k as the (weighted) mean of the per-problem failure probabilities F, for the regression's
    y = log(-log pass_D@k) = log(-log1p(-mean F)). Formed from pass_D@k instead, a curve that has reached 1
    (every F = 0) could round to 1 - 1 ulp under non-dyadic weights and enter the fit at y = -36.7."""
    pw, table = _pair_log_fail(n, c, ks, convention, weight)
    return (pw @ np.exp(table)) / pw.sum()


def _ols(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float, float]:
    """Slope, intercept, R², and their standard errors (classical OLS)."""
    X = np.stack([np.ones_like(x), x], axis=1)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    if x.size < 3:  # a line through two points: exact, with no residual to measure its fit or its error
        return float(coef[1]), float(coef[0]), np.nan, np.nan, np.nan
    s2 = float(resid @ resid) / (x.size - 2)
    cov = s2 * np.linalg.inv(X.T @ X)
    ss_tot = float(((y - y.mean()) ** 2).sum())
    r2 = 1 - float(resid @ resid) / ss_tot if ss_tot > 0 else np.nan
    return float(coef[1]), float(coef[0]), r2, float(np.sqrt(cov[1, 1])), float(np.sqrt(cov[0, 0]))


@dataclass(frozen=True, eq=False)
class PowerLawResult(ReadOnlyResult):
    r"""Least-squares power law :math:`-\log \text{pass}_D@k = a k^{-b}` per model.

    Attributes
    ----------
    models : tuple of str
    a, b : ndarray, shape (M,)
        Fitted prefactor and exponent (NaN where the fit is impossible).
    a_se, b_se : ndarray
        OLS standard errors (of log a propagated to a; the k points are not independent,
        so these understate the uncertainty and are reported for reference only).
    r2 : ndarray
        R² of the log-log regression (NaN, like the standard errors, for a line through two points).
    k, pass_at_k : tuple of ndarray
        The grid used per model, and the observed pass_D@k there.
    convention : str
    warnings : tuple of str
    """

    __repr__ = brief_repr

    models: tuple[str, ...]
    a: np.ndarray
    b: np.ndarray
    a_se: np.ndarray
    b_se: np.ndarray
    r2: np.ndarray
    k: tuple[np.ndarray, ...]
    pass_at_k: tuple[np.ndarray, ...]
    convention: str = "unbiased"
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def _law_numbers(self, i: int) -> tuple[str, str, str]:
        """Model ``i``'s a, b and R² as every text writes them (``passcurve fit``'s title, the report's power-law
        label): one notation for the three, a line of parameters' (:func:`~passcurve._difficulty._param_line_fmt`);
        '-' where one is not finite. The label had judged a and b alone and written R² with .3f ('R² 0.998' where
        the title read 'R²=0.9983'), so the two could write one fit two ways. An R² below 1 is never written '1'
        (a fit through every point): 0.99995397 is '0.999954' (:func:`~passcurve._validation.fmt_below_one`)."""
        from ._difficulty import _param_line_fmt

        vals = (float(self.a[i]), float(self.b[i]), float(self.r2[i]))
        line = _param_line_fmt({name: v for name, v in zip(("a", "b", "R²"), vals, strict=True) if np.isfinite(v)},
                               {})[0]
        a, b, r2 = ("-" if not np.isfinite(v) else line(v) for v in vals)
        if np.isfinite(vals[2]) and vals[2] < 1.0 and float(r2) == 1.0:
            # 4 significant digits round 0.99995 up to '1', an exact fit: written as every value read against 1 is
            r2 = fmt_below_one(vals[2])
        return a, b, r2

    def _notes(self, model: str) -> list[str]:
        """What the fit's warnings say of ``model``, without their category and the model's name: why its law was
        not fitted or rests on part of the grid, as ``passcurve fit`` and the report's label write it beside the
        law (they keep the warnings themselves off stderr and the report's list: said there once)."""
        head = f"model {model!r}: "
        msgs = (w.partition(": ")[2] for w in self.warnings)  # "Category: model 'x': why" (record_warning)
        return [w[len(head):] for w in msgs if w.startswith(head)]

    def predict(self, k: Any, model: str | None = None) -> np.ndarray:
        """pass_D@k = exp(-a k^(-b)) from the fit.

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0.
        model : str, optional
            One model (default all).

        Returns
        -------
        ndarray of float
            Shape (models, K) for all models, (K,) for one (K = the number of k).
        """
        k = check_positive_k(k)
        i = None if model is None else pick_model(self.models, model)  # a name given is checked as everywhere
        vals = np.exp(-self.a[:, None] * k.ravel()[None, :] ** (-self.b[:, None]))
        return vals if i is None else vals[i]

    @property
    def concave_from(self) -> np.ndarray:
        r"""Per model, the k from which the fitted law is a possible pass@k curve (concave in k).

        A real pass_D@k curve is concave: its increments E[p (1-p)^k] shrink with k. For
        :math:`f(k) = \exp(-a k^{-b})`, :math:`f'' = f \cdot ab\,k^{-b-2}(ab\,k^{-b} - (1+b))`
        (closed form), so the fitted law is *convex* — a curve no difficulty distribution can
        produce — wherever :math:`ab\,k^{-b} > 1 + b`, i.e. wherever the fit is below
        :math:`e^{-(1+b)/b}` (0.5% for b = 0.2, 2.5% for b = 0.37). It is concave from
        :math:`k^* = (ab/(1+b))^{1/b}` on (1 when ab ≤ 1 + b). Below k* the law describes the
        points on log-log axes but is not the pass@k curve of any benchmark.
        """
        ab = self.a * self.b
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            ks = (ab / (1.0 + self.b)) ** (1.0 / self.b)
        return np.where(ab <= 1.0 + self.b, 1.0, ks)

    def local_slope(self, model: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Empirical local exponent -d log(-log pass_D@k)/d log k along the grid (central differences).

        A constant local slope means a power law; a slope that grows with k means the curve
        falls faster than the power law (no heavy tail), one that shrinks means a plateau.

        Parameters
        ----------
        model : str, optional
            May be omitted only when the result holds one model.

        Returns
        -------
        (k, b) : tuple of ndarray
            As :func:`passcurve.local_slope`: the k where 0 < pass@k < 1 and the exponent there.
        """
        i = pick_model(self.models, model)
        return local_slope(self.k[i], self.pass_at_k[i])

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``power_laws`` (one record per model: ``a``, ``b``, ``a_se``, ``b_se``, ``r2``,
        ``k_min``, ``k_max``, ``points``, ``concave_from``) and ``convention`` (the law's formula)."""
        rows = []
        for i, m in enumerate(self.models):
            rows.append(
                {
                    "model": m,
                    "a": _f(self.a[i]),
                    "b": _f(self.b[i]),
                    "a_se": _f(self.a_se[i]),
                    "b_se": _f(self.b_se[i]),
                    "r2": _f(self.r2[i]),
                    "k_min": int(self.k[i][0]),
                    "k_max": int(self.k[i][-1]),
                    "points": int(self.k[i].size),
                    "concave_from": _f(self.concave_from[i]),
                }
            )
        out: dict[str, Any] = {"power_laws": rows, "convention": self.convention}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def _repr_html_(self) -> str | None:
        return frame_html(self.to_frame)

    def to_frame(self) -> Any:
        """pandas DataFrame of ``power_laws``: columns ``model``, ``a``, ``b``, ``a_se``, ``b_se``, ``r2``,
        ``k_min``, ``k_max``, ``points``, ``concave_from``."""
        return records_frame(self.to_dict()["power_laws"])

    def plot(self) -> Any:
        """-log pass_D@k against k on log-log axes, observed points and fitted lines.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        fig = go.Figure()
        for i, m in enumerate(self.models):
            ks = self.k[i]
            p = self.pass_at_k[i]
            with np.errstate(divide="ignore", invalid="ignore"):  # pass_D@k = 0 (nothing solved) has no point
                y = np.where(p > 0, -np.log(p), np.nan)
            fig.add_trace(go.Scatter(x=ks, y=y, mode="markers", name=f"{m} observed"))
            fig.add_trace(go.Scatter(x=ks, y=self.a[i] * ks ** (-self.b[i]), mode="lines", name=f"{m} fit"))
        fig.update_xaxes(type="log", title="k")
        fig.update_yaxes(type="log", title="-log pass_D@k")
        fig.update_layout(template="plotly_white")
        return fig


def _f(x: float) -> float | None:
    return None if not np.isfinite(x) else float(x)


def local_slope(k: Any, pass_at_k: Any) -> tuple[np.ndarray, np.ndarray]:
    r"""(k, local exponent b(k) = -d log(-log pass)/d log k) by central differences on log k.

    .. math:: b(k) = -\frac{d \log(-\log \text{pass@}k)}{d \log k}

    For a power law :math:`-\log \text{pass@}k = a k^{-b}` b(k) is the constant b (Schaeffer et al.
    2025, "How Do Large Language Monkeys Get Their Power (Laws)?", arXiv:2502.17578). ``np.gradient``
    on log k: central differences inside, one-sided at the two ends.

    Parameters
    ----------
    k : array_like of float, shape (K,)
        Budgets (> 0), increasing.
    pass_at_k : array_like of float in [0, 1], shape (K,)
        The curve at those k.

    Returns
    -------
    (k, b) : tuple of ndarray
        The k where 0 < pass@k < 1 (log(-log pass@k) is finite) and b there (all NaN when fewer
        than three such k remain).

    References
    ----------
    R. Schaeffer et al., "How Do Large Language Monkeys Get Their Power (Laws)?", arXiv:2502.17578.
    """
    k = check_positive_k(k, max_ndim=1).ravel()
    y = check_probability(pass_at_k, "pass_at_k", allow_nan=True, max_ndim=1).ravel()
    if k.size != y.size:
        raise PasscurveError(f"`k` and `pass_at_k` must have the same length (got {k.size} and {y.size})")
    # central differences take each k's neighbours in the order given: k = 1, 4, 2, 8 gave b = 0.370 at k = 4 (0.406
    # in order), and a repeated k divided by zero (numpy's RuntimeWarning)
    back = np.flatnonzero(np.diff(k) <= 0)
    if back.size:
        i = int(back[0]) + 1
        raise PasscurveError(f"`k` must be strictly increasing (got k={fmt(k[i])} after k={fmt(k[i - 1])})")
    with np.errstate(divide="ignore", invalid="ignore"):
        ly = np.log(-np.log(y))
    lk = np.log(k)
    ok = np.isfinite(ly)
    k, lk, ly = k[ok], lk[ok], ly[ok]
    if k.size < 3:
        return k, np.full(k.size, np.nan)
    return k, -np.gradient(ly, lk)


def _fit_power_law_iv(counts: Any, k: Any, convention: str) -> tuple[Counts, np.ndarray | None]:
    check_counts_object(counts)
    check_choice(convention, "convention", ("unbiased", "chen"), quoted=True)
    ks = None
    if isinstance(k, str) and k != "paper":  # read as an array of characters it was "must contain integers (<U6)"
        raise PasscurveError(f'`k` must be a sequence of integers or "paper" (got {k!r})')
    if k is not None and not isinstance(k, str):
        ks = budget_grid(k, "k")
        if ks.size < 2:
            raise PasscurveError("`k` needs at least two distinct values for a least-squares fit")
    elif isinstance(k, str):
        ks = PAPER_K_GRID
    return counts, ks


def fit_power_law(
    counts: Counts,
    k: Any = None,
    *,
    convention: Literal["unbiased", "chen"] = "unbiased",
    design: Any = None,
) -> PowerLawResult:
    r"""Least-squares power law of pass_D@k, exactly as Schaeffer et al. 2025 (arXiv 2502.17578).

    OLS of :math:`y = \log(-\log \text{pass}_D@k)` on :math:`x = \log k`; then
    :math:`a = e^{\text{intercept}}` and :math:`b = -\text{slope}`, so that
    :math:`-\log \text{pass}_D@k \approx a k^{-b}`.

    Parameters
    ----------
    counts : Counts
    k : sequence of int, "paper", or None
        The grid. Default: the unique integers of ``logspace(0, log10 n, 100)`` with n the
        smallest n of the model. ``"paper"`` is the 101-point grid of the paper's Tables 1–2
        (``PAPER_K_GRID``, k = 1 … 10^4, so it needs n >= 10^4 under "unbiased").
    convention : {"unbiased", "chen"}, default "unbiased"
        "unbiased" requires k <= n for every problem. "chen" reproduces the Codex
        reference implementation used by the paper, which returns pass@k = 1 when
        n − c < k: on stopping-time data (best-of-N jailbreaking) problems stopped at
        n < k then count as solved at k. That is the paper's convention for its Table 2,
        not a valid estimator (see :class:`StoppingTimeWarning`).
    design : StopAtSuccess, optional
        Sampling stopped at the first batch with a success: the curve is the stopping-time
        estimate of pass_D@k (``convention`` is then ignored), on a default grid up to the
        design's cap (else the smallest n a problem stopped unsolved at).

    Returns
    -------
    PowerLawResult

    References
    ----------
    R. Schaeffer et al., "How Do Large Language Monkeys Get Their Power (Laws)?", arXiv:2502.17578
    (the least-squares fit and the k grid of its Tables 1–2).

    Examples
    --------
    >>> import passcurve
    >>> bench = passcurve.simulate(problems=300, n=1000, rng=1)
    >>> res = passcurve.fit_power_law(bench.counts)
    >>> bool((res.b > 0).all())
    True
    """
    counts, ks_in = _fit_power_law_iv(counts, k, convention)
    design = check_design(design)
    models, A, B, Ase, Bse, R2, KK, PP = [], [], [], [], [], [], [], []
    warns: list[str] = []
    for m, sub in counts.groups():
        top = int(sub.n.min()) if design is None else design.k_max(sub.n, sub.c)
        ks = default_k_grid(top) if ks_in is None else ks_in
        with np.errstate(divide="ignore", invalid="ignore"):
            if design is None:
                vals = _curve_values(sub.n, sub.c, ks, convention, sub.weight)
                y = np.log(-np.log1p(-_curve_fail(sub.n, sub.c, ks, convention, sub.weight)))
            else:
                vals = design.mean_curve(sub.n, sub.c, ks, sub.weight)[0]
                y = np.log(-np.log(vals))
        ok = np.isfinite(y)
        models.append(m)
        KK.append(ks)
        PP.append(vals)
        if ok.sum() < 2:
            A.append(np.nan)
            B.append(np.nan)
            Ase.append(np.nan)
            Bse.append(np.nan)
            R2.append(np.nan)
            why = (f"the grid has {ks.size} point{'' if ks.size == 1 else 's'} (k up to the smallest n, {top})"
                   if ks.size < 2 else f"pass_D@k is 0 or 1 at {ks.size - int(ok.sum())} of its {ks.size} points")
            record_warning(warns, f"model {m!r}: {why}; a power law needs 2 points with 0 < pass_D@k < 1 and cannot "
                           "be fitted", DegenerateDataWarning)
            continue
        if (~ok).any():
            out = int((~ok).sum())  # 'model 'm': 1 grid points ... were left out'
            record_warning(warns, f"model {m!r}: {out} grid point{'' if out == 1 else 's'} with pass_D@k in {{0, 1}} "
                           f"{'was' if out == 1 else 'were'} left out", DegenerateDataWarning)
        if ok.sum() == 2:
            record_warning(warns, f"model {m!r}: the power law is a line through 2 points of the grid (exact); its "
                           "R² and standard errors are undefined and nothing checks the law", DegenerateDataWarning)
        slope, icpt, r2, sse, ise = _ols(np.log(ks[ok].astype(np.float64)), y[ok])
        A.append(np.exp(icpt))
        B.append(-slope)
        Ase.append(np.exp(icpt) * ise)
        Bse.append(sse)
        R2.append(r2)
    return PowerLawResult(
        models=tuple(models),
        a=np.array(A),
        b=np.array(B),
        a_se=np.array(Ase),
        b_se=np.array(Bse),
        r2=np.array(R2),
        k=tuple(KK),
        pass_at_k=tuple(PP),
        convention=convention if design is None else design.label(),
        warnings=tuple(warns),
    )
