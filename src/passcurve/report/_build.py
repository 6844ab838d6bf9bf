"""Assemble the report: call the library for result objects, then hand them to the section builders.

Two stages, kept apart:

1. :func:`compute_report_data` calls passcurve's public functions (curve, and the difficulty fits,
   forecasts, intervals, comparisons and diagnostics when this build has them) and collects their
   result objects and every warning they raise into :class:`ReportData`. It does no statistics itself.
2. :func:`build_report` renders each section from those objects (``_sections``) and writes the page
   (``_page``). A section whose analysis is unavailable is omitted with a one-line note.
"""

from __future__ import annotations

import dataclasses
import re
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._adaptive import check_design
from .._counts import Counts, check_counts_object
from .._curves import METRICS, CurveResult, curve, default_top, with_own_ends
from .._errors import PasscurveError, PasscurveWarning, fold_warnings
from .._estimators import pass_at_k, pass_pow_k
from .._files import write_text_atomic
from .._results import ReadOnlyResult
from .._validation import check_confidence_level, check_k_gt_n, check_positive_int, check_rng
from . import _sections as S
from ._page import Section, esc, render_page

__all__ = ["PARTS", "ReportData", "Report", "compute_report_data", "build_report", "report_k_grid", "STEPS"]

Progress = Callable[[str], None]

PARTS = ("intervals", "fits", "compare", "diagnostics")
"""Optional analyses :func:`compute_report_data` can run (``parts``)."""

_PART_OF = {"rank": "compare"}  # adapters that run as part of another part

LOOP_FLAGS = ("StoppingTimeWarning", "DroppedProblemsWarning", "DependenceWarning")
"""Warning categories repeated beside the four numbers (they change what those numbers mean)."""

STEPS = (
    "curves",
    "intervals",
    "difficulty fits and forecasts",
    "model comparison",
    "hidden-difficulty diagnostics",
    "retries",
    "per-problem table",
    "rendering",
)
"""The steps :func:`build_report` reports to its ``progress`` callback, in order."""


def report_k_grid(k_max: int, points: int = 60) -> np.ndarray:
    """k values for the curves: every integer up to 10, then about ``points`` log-spaced up to k_max."""
    k_max = int(k_max)
    grid = np.unique(np.round(np.logspace(0, np.log10(max(k_max, 1)), points)).astype(np.int64))
    small = np.arange(1, min(k_max, 10) + 1)
    decades = 10 ** np.arange(0, int(np.log10(max(k_max, 1))) + 1)
    return np.unique(np.concatenate([grid, small, decades, [k_max]])).astype(np.int64)


def _comparison_n(counts: Any, design: Any, k_max: int) -> set[int]:
    """The largest k every problem supports (its smallest n, or a stop design's k_max), where comparisons and ranks
    end: a column of the model table too. With n = 4/6/10 the table showed pass@1 and pass@6 while ranks and
    comparisons were at pass@4, shown nowhere with its interval (user review)."""
    k = int(counts.n.min()) if design is None else int(design.k_max(counts.n, counts.c))
    return {k} if 1 <= k <= k_max else set()


def table_k(k_max: int) -> list[int]:
    """Round k for tables: 1, 10, 100, ... up to k_max, plus k_max."""
    ks = [10**e for e in range(0, 12) if 10**e <= k_max]
    if ks[-1] != k_max:
        ks.append(int(k_max))
    return ks


def _problem_ks(k_max: int, k_per: int) -> list[int]:
    """k of the per-problem table's pass@k columns: up to three round k (10, 100, ...) below ``k_per``; with n <= 10,
    where there is none, the doubling k 2, 4, 8 below it, those of the pass^k columns. pass@1 is the c/n column and
    pass@n is 1 for any problem solved at least once. With n = 5 the table had c/n and pass^4 alone, no pass@k."""
    ks = [k for k in table_k(k_max) if 1 < k < k_per][:3]
    return ks or [k for k in (2, 4, 8) if k < k_per]


@dataclass(frozen=True, eq=False)
class ReportData(ReadOnlyResult):
    """Every result object the report shows (computed by the library), and every warning raised (read-only, as
    every result is: :class:`~passcurve._results.ReadOnlyResult`)."""

    counts: Counts
    curve: CurveResult
    table_curve: CurveResult
    problem_columns: dict[str, np.ndarray]
    pow_k: int | None
    warnings: tuple[tuple[str, str], ...]
    pow_ks: tuple[int, ...] = ()  # the pass^k of the comparison table (pow_k is the largest)
    comparison_k: tuple[int, ...] = ()  # the largest k every problem supports: a column of the model table
    notes: dict[str, str] = field(default_factory=dict)
    fits: dict[str, Any] = field(default_factory=dict)
    fitted_shares: dict[str, Any] = field(default_factory=dict)
    comparisons: tuple[Any, ...] = ()
    ranks: Any = None
    diagnostics: Any = None
    retries: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Report(ReadOnlyResult):
    """A rendered report: the HTML, its sections, and the data they came from."""

    html: str
    sections: tuple[Section, ...]
    data: ReportData
    explorer_href: str

    @property
    def warnings(self) -> tuple[tuple[str, str], ...]:
        return self.data.warnings

    def omitted(self) -> dict[str, str]:
        """Section id -> the note saying why it was omitted."""
        return {s.id: s.note or "" for s in self.sections if s.omitted}

    def to_dict(self) -> dict[str, Any]:
        return {
            "sections": [{"id": s.id, "title": s.title, "omitted": s.omitted, "note": s.note} for s in self.sections],
            "warnings": [{"category": c, "message": m} for c, m in self.data.warnings],
            "curve": self.data.curve.to_dict(),
            "timings": dict(self.data.timings),
        }

    def write(self, path: str | Path, *, explorer: bool = True) -> Path:
        """Write the HTML to ``path``; with ``explorer``, the explorer page next to it (the link target)."""
        from ._explorer import write_explorer

        path = Path(path)
        if explorer and path.name == self.explorer_href:
            raise PasscurveError(f"cannot write the report to `{path}`: the explorer page is written next to it under "
                                 "that name; choose another file name")
        write_text_atomic(path, self.html)
        if explorer:
            write_explorer(path.parent / self.explorer_href, report_href=path.name)
        return path


class _Omitted(Exception):
    def __init__(self, note: str) -> None:
        self.note = note


def _note_key(msg: str) -> str:
    """A warning's text without where it holds: cut at its k list (" at k=") or its list of models (", for 3 models
    (") and every number outside quotes as '#' (a quoted model name keeps its digits: 'model0' is not 'model1'; see
    :meth:`_Collector._repeat`)."""
    text = re.split(r" at k=|, for \d+ models \(", msg, maxsplit=1)[0]
    return re.sub(r"('[^']*'|\"[^\"]*\")|\d+", lambda g: g.group(1) or "#", text)


class _Collector:
    """Runs library calls, records their PasscurveWarnings (verbatim, once) and their wall time."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self.warnings: list[tuple[str, str]] = []
        self.timings: dict[str, float] = {}

    def folded(self, file_level: Sequence[tuple[str, str]] = ()) -> tuple[tuple[str, str], ...]:
        """The warnings with one per-model statement repeated for several models said once
        (:func:`passcurve._errors.fold_warnings`)."""
        return fold_warnings(self.warnings, file_level)

    def _repeat(self, item: tuple[str, str]) -> bool:
        """The same per-model note repeated by a later computation on another k grid (k > n drops, thin means): the
        same text up to where it holds (its k lists, " at k=...", or its models', ", for 2 models (...") with every
        number alike. It had been any later note of the category with the same text before the first ':', i.e. about
        the same model, so a model whose problems are all unsolved lost its forecast's, least squares' and the
        hidden-difficulty ICC's notes to the first one ('every problem has c = 0')."""
        cat, msg = item
        if cat not in ("DroppedProblemsWarning", "DegenerateDataWarning"):
            return False
        key = _note_key(msg)
        return any(c == cat and _note_key(m) == key for c, m in self.warnings)

    def optional(self, name: str, fn: Callable[[], Any], notes: dict[str, str], key: str, what: str) -> Any:
        """Run an optional analysis; when the library rejects this input, omit it with the library's reason."""
        try:
            return self.step(name, fn)
        except PasscurveError as exc:
            notes[key] = f"{what} not shown: {exc}"
            return None

    def step(self, name: str, fn: Callable[[], Any]) -> Any:
        if self.progress is not None:
            self.progress(name)
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", PasscurveWarning)
                return fn()
        finally:
            self.timings[name] = self.timings.get(name, 0.0) + time.perf_counter() - t0
            passed: set[tuple[Any, ...]] = set()
            for w in caught:
                if issubclass(w.category, PasscurveWarning):
                    item = (w.category.__name__, str(w.message))
                    if item not in self.warnings and not self._repeat(item):
                        self.warnings.append(item)
                elif (key := (w.category, str(w.message), w.filename, w.lineno)) not in passed:
                    # not ours: passed on unchanged, once each, and after the recording ends: re-emitted inside it,
                    # each copy was recorded again into the list being read and re-emitted in turn (a fit's
                    # overflow warning grew a one-problem report past 5 GB; helper-103)
                    passed.add(key)
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def _compute_iv(counts: Any, confidence_level: Any, k_gt_n: str, n_resamples: Any = 1000,
                forecast_resamples: Any = 30, rng: Any = 0, forecast_k: Any = None) -> float:
    check_counts_object(counts, "read one with passcurve.read_counts")
    if forecast_k is not None:  # 0 fell back to the default and a negative K was taken
        check_positive_int(forecast_k, "forecast_k", minimum=2)
    check_rng(rng)  # here, or each analysis that draws would be omitted with this error as its note
    check_k_gt_n(k_gt_n)
    level = check_confidence_level(confidence_level)
    # the comparisons' and ranks' minimum (passcurve.compare): checked here, or the section would be omitted
    check_positive_int(n_resamples, "n_resamples", minimum=100)
    check_positive_int(forecast_resamples, "forecast_resamples", minimum=0)
    return level


def compute_report_data(
    counts: Counts,
    *,
    confidence_level: float = 0.95,
    k_gt_n: str = "nan",
    forecast_k: int | None = None,
    rng: Any = 0,
    n_resamples: int = 1000,
    forecast_resamples: int = 30,
    progress: Progress | None = None,
    parts: Any = None,
    input_warnings: Any = (),
    retry_result: Any = None,
    design: Any = None,
    metrics: Any = None,
) -> ReportData:
    """Call the library for every result object the report shows.

    Parameters
    ----------
    counts : Counts
    confidence_level : float
        Level of the interval bands and comparison intervals (where available).
    k_gt_n : {"nan", "raise", "drop"}
        "nan" (default): each model's curves run to its own smallest n (the file's models may
        have been sampled to different n); the comparisons use the k every model reaches.
        "raise": every model's curves run to the smallest n of the file. "drop": to the largest
        n, leaving problems with n < k out of the mean at that k (a DroppedProblemsWarning says
        how many). Under a ``design`` "nan" is "raise": the curves run to the cap.
    forecast_k : int, optional
        How far to forecast (default 100 × the largest observed k, at least 10^4).
    rng : seed for the resampling-based analyses.
    n_resamples : int
        Resamples of the paired comparisons (sign-flip test and bootstrap interval).
    forecast_resamples : int
        Bootstrap refits per model behind the forecast's prediction intervals.
    progress : callable(step name), optional
    parts : set of str, optional
        Which optional analyses to run (default all of :data:`PARTS`); the curves always run.
    input_warnings : sequence of (category, message)
        Warnings raised before this call (e.g. while reading the input), shown first.
    retry_result : passcurve.RetryResult, optional
        From :func:`passcurve.retries` on the per-attempt log, when the attempts are retries with
        feedback. Completion within the retry budget is shown for the models whose attempts are
        dependent (or cannot be tested because sampling stopped at the first success).
    design : StopAtSuccess, optional
        Sampling stopped at the first batch with a success: pass@k by the stopping-time estimator
        (curves, bands, comparisons, per-problem table, power law, forecast), run to the cap (or
        the largest n). The parts that assume n fixed in advance (pass^k, naive pass@k, the fitted
        difficulty histogram, hidden-difficulty diagnostics) are omitted with a note saying why.
    metrics : sequence of str, optional
        The curves' metrics, from those of :func:`passcurve.curve` (default: all of them; pass@k alone under a
        ``design``). pass@k is always computed (comparisons, fits and forecasts read it); the others, their
        intervals and their warnings only when named (``passcurve plot`` names its panels' metrics). Without
        pass^k the tables have no pass^k column.
    """
    _compute_iv(counts, confidence_level, k_gt_n, n_resamples, forecast_resamples, rng, forecast_k)
    design = check_design(design)
    parts = set(PARTS if parts is None else parts)
    unknown = parts - set(PARTS)
    if unknown:
        raise PasscurveError(f"`parts` must be drawn from {', '.join(PARTS)} (got {sorted(unknown)[0]!r})")
    if metrics is not None:
        metrics = (metrics,) if isinstance(metrics, str) else tuple(metrics)
        for m in metrics:
            if m not in METRICS:
                raise PasscurveError(f"`metrics` must be drawn from {', '.join(METRICS)} (got {m!r})")
        metrics = tuple(dict.fromkeys(("pass_at_k", *metrics)))
    col = _Collector(progress)
    col.warnings.extend((str(c), str(m)) for c, m in input_warnings)
    if design is None:
        k_max = default_top(counts, k_gt_n)
    else:  # every problem is estimable up to the cap; without one, up to the largest n (with drops)
        k_max = int(design.cap if design.cap is not None else counts.n.max())
        k_gt_n = "raise" if k_gt_n == "nan" else k_gt_n
    grid = with_own_ends(report_k_grid(k_max), counts, k_gt_n, design)
    # per-problem pass@k and pass^k below each problem's n: under "nan" up to the longest model's range
    # ("-" where a problem has fewer samples), otherwise below the smallest n of the file
    k_per = k_max if k_gt_n == "nan" else int(counts.n.min())
    per_policy: Any = "nan" if k_gt_n == "nan" else "raise"
    pow_ks = [k for k in (2, 4, 8) if k <= k_per] if design is None and "pass_pow_k" in (metrics or METRICS) else []
    comp_k = _comparison_n(counts, design, k_max)
    tab_ks = sorted(set(table_k(k_max)) | set(pow_ks) | comp_k)
    policy: Any = k_gt_n  # validated above: "nan", "raise" or "drop"
    cur, tab = col.step(
        "curves", lambda: (curve(counts, grid, k_gt_n=policy, metrics=metrics, design=design),
                           curve(counts, tab_ks, k_gt_n=policy, metrics=metrics, design=design))
    )
    notes: dict[str, str] = {}
    if design is not None:
        fixed_n = f"it assumes n fixed in advance, and here n is a stopping time ({design.label()} design)"
        notes["histogram"] = (
            f"The fitted model's expected share of problems per c/n bin is not drawn: {fixed_n}. The fit itself "
            "holds (under any stopping rule the likelihood is the binomial kernel), and the forecast uses it. The bars "
            "are c/n, which stopping at the first success pushes up for the problems that stop early.")
        notes["hidden-difficulty"] = f"Hidden-difficulty diagnostics not shown: {fixed_n}."

    ext = {k: v for k, v in _extensions().items() if _PART_OF.get(k, k) in parts}
    # ---- intervals (branch `uncertainty`)
    band = ext.get("intervals")
    if band is not None:
        got = col.optional(
            "intervals",
            lambda: (band(cur, counts, confidence_level, rng, k_gt_n, design),
                     band(tab, counts, confidence_level, rng, k_gt_n, design)),
            notes, "intervals", "Intervals",
        )
        if got is not None:
            cur, tab = got
    else:
        col.step("intervals", lambda: None)
        notes["intervals"] = "Interval bands omitted: this build of passcurve has no interval functions."
    # ---- difficulty fits, power law, forecasts (branch `forecast`)
    fits: dict[str, Any] = {}
    shares: dict[str, Any] = {}
    fitter = ext.get("fits")
    if fitter is not None:
        fits, shares = col.optional(
            "difficulty fits and forecasts",
            lambda: fitter(counts, cur, forecast_k, confidence_level, rng, forecast_resamples, design),
            notes, "failure", "Power-law fit and forecast",
        ) or ({}, {})
    else:
        col.step("difficulty fits and forecasts", lambda: None)
        notes["failure"] = "Power-law fit and forecast omitted: this build of passcurve has no forecasting functions."
        notes["histogram"] = "Fitted difficulty distribution omitted: this build of passcurve has no difficulty fits."
    # ---- comparison (branch `uncertainty`)
    comps: tuple[Any, ...] = ()
    rank_res: Any = None
    cmp = ext.get("compare")
    if len(counts.models) < 2:
        col.step("model comparison", lambda: None)
        notes["models"] = "Paired comparisons need at least two models."
    elif cmp is not None:
        rk = ext.get("rank")

        def compare_all() -> tuple[tuple[Any, ...], Any]:
            found = tuple(cmp(counts, tab, confidence_level, rng, n_resamples, design) or ())
            ranked = None
            if rk is not None:
                try:
                    ranked = rk(counts, tab, confidence_level, rng, n_resamples, design)
                except PasscurveError as exc:  # the comparisons still show; the ranks say why they do not
                    notes["ranks"] = f"Ranks not shown: {exc}"
            return found, ranked

        comps, rank_res = col.optional("model comparison", compare_all, notes, "models",
                                       "Paired comparisons") or ((), None)
    else:
        col.step("model comparison", lambda: None)
        notes["models"] = "Paired comparisons omitted: this build of passcurve has no comparison function."
    # ---- diagnostics (branch `uncertainty`)
    diag: Any = None
    dg = ext.get("diagnostics")
    if design is not None:
        col.step("hidden-difficulty diagnostics", lambda: None)
    elif dg is not None:
        diag = col.optional("hidden-difficulty diagnostics", lambda: dg(counts, k_gt_n), notes, "hidden-difficulty",
                            "Hidden-difficulty diagnostics")
    else:
        col.step("hidden-difficulty diagnostics", lambda: None)
        notes["hidden-difficulty"] = (
            "Hidden-difficulty diagnostics omitted: this build of passcurve has no diagnostics function."
        )
    # ---- retries: a RetryResult computed by the caller from per-attempt data (Counts have no order)
    retries: dict[str, Any] = col.step(
        "retries", lambda: _retry_numbers(retry_result, int(cur.k[-1]), notes) if retry_result is not None else {}
    )
    if not retries and "retries" not in notes:
        notes["retries"] = (
            "Completion under the retry budget not shown: the input has no per-attempt order with dependent "
            "retries (with independent samples, completion within k tries is pass@k)."
        )
    # ---- per-problem table: pass@k below every problem's n (pass@n is just "c > 0"), pass^k
    def per_problem() -> dict[str, np.ndarray]:
        out = {}
        if design is not None:  # stopping-time estimates at round k up to the cap
            for k in [k for k in table_k(k_max) if 1 < k <= k_max][:3]:
                out[f"pass@{k}"] = design.scores(counts.n, counts.c, np.array([k]))[:, 0]
            return out
        for k in _problem_ks(k_max, k_per):
            out[f"pass@{k}"] = np.atleast_1d(pass_at_k(counts.n, counts.c, k, k_gt_n=per_policy))
        if pow_ks:
            out[f"pass^{pow_ks[-1]}"] = np.atleast_1d(pass_pow_k(counts.n, counts.c, pow_ks[-1], k_gt_n=per_policy))
        return out

    cols = col.step("per-problem table", per_problem)
    pow_k = pow_ks[-1] if pow_ks else None
    return ReportData(
        counts=counts,
        curve=cur,
        table_curve=tab,
        problem_columns=cols,
        pow_k=pow_k,
        pow_ks=tuple(pow_ks) if "pass_pow_k" in tab.values else (),
        comparison_k=tuple(comp_k),
        warnings=col.folded(file_level=tuple((str(c), str(m)) for c, m in input_warnings)),
        notes=notes,
        fits=fits,
        fitted_shares=shares,
        comparisons=comps,
        ranks=rank_res,
        diagnostics=diag,
        retries=retries,
        timings=col.timings,
    )


def _retry_numbers(res: Any, budget: int, notes: dict[str, str]) -> dict[str, Any]:
    """Read completion within ``budget`` attempts off a RetryResult, for models where it is the right number."""
    out: dict[str, Any] = {}
    budgets = [int(b) for b in res.budget]
    b = max(x for x in budgets if x <= budget) if any(x <= budget for x in budgets) else budgets[0]
    j = budgets.index(b)
    indep = []
    for i, m in enumerate(res.models):
        if bool(res.dependent[i]) or bool(res.stops_at_success[i]):
            test = res.method[i] if i < len(res.method) else "permutation"  # the test retries() actually ran
            # p as retries' title writes it (one number as a column of it alone), not .3g beside its .4g
            why = (f"attempts dependent ({test} p = {S.fmt_num(res.p_value[i])})" if res.dependent[i]
                   else "sampling stops at the first success (independence not testable)")
            out[m] = {"budget": b, "completion": float(res.completion[i, j]), "sub": why,
                      "first_try": float(res.attempt_rate[i, 0])}
        else:
            indep.append(f"{m} (p = {S.fmt_num(res.p_value[i])})")
    if indep:
        notes["retries"] = (
            "Completion under the retry budget not shown for " + ", ".join(indep)
            + ": the attempts look independent, so completion within k tries is pass@k."
        )
    return out


def _extensions() -> dict[str, Callable[..., Any]]:
    """Adapters to analyses that live on other branches, present only when this build has them."""
    from . import _adapters

    return _adapters.available()


def _ranges(c: Counts, cur: CurveResult) -> str:
    """Where the curves end: one k for all models, or each model's own (its smallest n; its largest under
    ``k_gt_n="drop"``, over the problems sampled that far), and a note when some models were sampled further than
    the curves run (``k_gt_n="raise"``)."""
    ends = {m: int(cur.k[j]) for m, j in zip(cur.models, cur.last_index(), strict=True)}
    drop = S.subset_means(cur)  # k_gt_n="drop": to each model's largest n, over fewer problems
    if len(set(ends.values())) > 1:
        by = sorted(ends.items(), key=lambda x: x[1])
        names = ", ".join(f"{k:,} for {esc(m)}" for m, k in by[:4]) + (f" and {len(by) - 4} more" if len(by) > 4 else "")
        common = int(c.n.min())
        if drop:
            return (f"Curves run to each model's largest n: k = {names}; at each k the problems with fewer samples "
                    f"are left out of the mean (<code>--drop-k-gt-n</code>). Comparisons use k ≤ {common:,}, "
                    "which every problem reaches.")
        return (f"Curves run to each model's smallest n: k = {names}. Comparisons use k ≤ {common:,}, "
                "which every model reaches.")
    if drop:
        return (f"Curves run to k = {int(cur.k[-1]):,}; at each k the problems with fewer samples are left out of "
                "the mean (<code>--drop-k-gt-n</code>).")
    k_last = int(cur.k[-1])
    text = f"Curves run to k = {k_last:,}."
    further = [(m, int(sub.n.min())) for m, sub in c.groups() if int(sub.n.min()) > k_last]
    median_n = float(np.median(c.n))
    med_txt = S.fmt_median(median_n, thousands=True)
    if not further and median_n >= 2 * k_last:  # a few problems with few samples stop every curve early
        few = int(np.sum(c.n < median_n / 2))
        # counted per row: with several models a row is one model's run of one problem, not a problem (BoN read
        # "159 problems" and then "422 of 1,113 have fewer")
        unit = "problems" if len(c.models) == 1 else "(model, problem) pairs"
        text += (f" <strong>Most {unit} have far more samples</strong> (median n = {med_txt}, largest "
                 f"{int(c.n.max()):,}), but pass@k is undefined for a problem with fewer than k samples, and "
                 f"{few:,} of {c.n.size:,}{'' if len(c.models) == 1 else ' pairs'} have fewer than half the median. "
                 "<code>--drop-k-gt-n</code> runs the curves "
                 "to the largest n, each k averaging the problems sampled that far (a mean over a subset).")
    if not further:
        return text
    names = ", ".join(f"{esc(m)} (n ≥ {n:,})" for m, n in further[:3]) + (", …" if len(further) > 3 else "")
    return (f"{text} Some models were sampled further: {names}; a report of one model alone "
            "(<code>--models</code>) runs its curves to its own smallest n.")


def _acted_on(cat: str, data: ReportData) -> bool:
    """Under a stop-at-success design the stopping-time warning has been acted on."""
    return cat == "StoppingTimeWarning" and data.curve.design is not None


def _loop_flags(data: ReportData) -> list[tuple[str, str]]:
    """The warnings the banner and the four numbers' caption point at: not one already acted on (it stays in
    the flags section)."""
    return [(cat, msg) for cat, msg in data.warnings if cat in LOOP_FLAGS and not _acted_on(cat, data)]


def _flag_list(data: ReportData) -> list[tuple[str, str]]:
    """Every warning verbatim; one already acted on says so (its advice to name the design would read as not
    followed)."""
    done = f" Acted on: this report estimates under the {data.curve.design} design."
    return [(cat, msg + done if _acted_on(cat, data) else msg) for cat, msg in data.warnings]


def _source_label(counts: Counts, shown: int = 4) -> str:
    """Where the counts came from, for the page: the source, or with many files the first ``shown`` and how many
    more (all of them are in ``Counts.meta["files"]``)."""
    files = counts.meta.get("files") if isinstance(counts.meta, dict) else None
    if not isinstance(files, list) or len(files) <= shown + 1:
        return counts.source
    names = [str(f.get("source", "")) for f in files]
    return f"{', '.join(names[:shown])} and {len(names) - shown} more files"


def _header(data: ReportData, title: str) -> str:
    c = data.counts
    s = [f"<h1>{esc(title)}</h1>"]
    n_min, n_max = int(c.n.min()), int(c.n.max())
    n_txt = f"n = {n_min:,}" if n_min == n_max else f"n from {n_min:,} to {n_max:,}"
    problems = len(np.unique(c.problem.astype(str)))
    s.append(
        f'<p class="muted">Source: <strong>{esc(_source_label(c))}</strong> · {len(c.models)} model(s) · '
        f"{problems:,} problem{'' if problems == 1 else 's'} · {n_txt} sample{'' if n_max == 1 else 's'} per problem · "
        f"{int(c.n.sum()):,} sample{'' if int(c.n.sum()) == 1 else 's'} in all. "
        + _ranges(c, data.curve)
        + ("" if data.curve.design is None else
           f" pass@k by the stopping-time estimator for a <strong>{esc(data.curve.design)}</strong> design.")
        + "</p>"
    )
    crit = _loop_flags(data)
    if crit:
        items = "".join(f"<li><strong>{esc(cat)}</strong>: {esc(msg)}</li>" for cat, msg in crit)
        s.append(f'<div class="banner" id="banner"><strong>Read this report with care.</strong><ul>{items}</ul></div>')
    return "\n".join(s)


def build_report(
    counts: Counts,
    *,
    title: str | None = None,
    confidence_level: float = 0.95,
    k_gt_n: str = "nan",
    forecast_k: int | None = None,
    rng: Any = 0,
    n_resamples: int = 1000,
    forecast_resamples: int = 30,
    explorer_href: str = "explorer.html",
    max_table_rows: int = 5000,
    progress: Progress | None = None,
    input_warnings: Any = (),
    parts: Any = None,
    retry_result: Any = None,
    design: Any = None,
) -> Report:
    """The offline HTML report of ``counts``: curves, forecast, difficulty, comparisons, flags.

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts, e.g. from :func:`passcurve.read_counts`.
    title : str, optional
    confidence_level, k_gt_n, forecast_k, rng, n_resamples, forecast_resamples, input_warnings, parts, retry_result, design
        Passed to :func:`compute_report_data`.
    explorer_href : str
        Relative link to the explorer page (``Report.write`` writes it next to the report).
    max_table_rows : int
        Rows of the per-problem table (the rest are counted in a note).
    progress : callable(step name), optional
        Called at the start of each step of :data:`STEPS`.

    Returns
    -------
    Report
        ``.html`` (one self-contained page), ``.sections``, ``.data``, ``.write(path)``.
    """
    data = compute_report_data(
        counts, confidence_level=confidence_level, k_gt_n=k_gt_n, forecast_k=forecast_k, rng=rng, progress=progress,
        n_resamples=n_resamples, forecast_resamples=forecast_resamples,
        input_warnings=input_warnings, parts=parts, retry_result=retry_result, design=design,
    )
    if progress is not None:
        progress("rendering")
    t0 = time.perf_counter()
    n = data.notes
    sections = [
        S.loop_numbers_section(data.curve, data.pow_k, data.retries, n.get("retries"),
                               flags=[cat for cat, _ in _loop_flags(data)]),
        S.passk_section(data.curve),
        S.failure_section(data.curve, data.fits or None, note=n.get("failure")),
        S.naive_section(data.curve),
        S.passpow_section(data.curve, in_table=bool(data.pow_ks)),
        S.histogram_section(data.counts, data.fitted_shares or None, note=n.get("histogram")),
        S.comparison_section(data.table_curve, data.counts, data.comparisons, note=n.get("models"), ranks=data.ranks,
                             ranks_note=n.get("ranks"),
                             pass_k=sorted(set(table_k(int(data.curve.k[-1])))
                                           | set(data.comparison_k)),
                             pow_k=list(data.pow_ks)),
        S.diagnostics_section(data.diagnostics, note=n.get("hidden-difficulty")),
        S.per_problem_section(data.counts, data.problem_columns, max_rows=max_table_rows),
        S.flags_section(_flag_list(data), notes=list(n.values())),
        S.explorer_section(explorer_href),
    ]
    from .. import __version__

    html = render_page(
        title or f"passcurve report: {_source_label(counts)}",
        _header(data, title or "passcurve report"),
        sections,
        footer=f"Made by passcurve {esc(__version__)}. One offline file: no network requests.",
    )
    data = dataclasses.replace(data, timings={**data.timings, "rendering": time.perf_counter() - t0})
    return Report(html=html, sections=tuple(sections), data=data, explorer_href=explorer_href)
