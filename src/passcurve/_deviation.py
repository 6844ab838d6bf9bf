r"""Deviation flags: when the power law and the forecasts' assumptions do not hold.

Three checks per model, each raised as a typed warning with its evidence:

* :class:`StoppingTimeWarning` — n looks like a stopping time (sampling stopped at a
  success), so the unbiased estimator's premise (n fixed in advance) fails. Uses the data
  layer's evidence in ``counts.meta["stopping_time"]`` when present; otherwise: n varies,
  at least 5 problems (and 10%) stopped below the largest n, >= 95% of those are solved,
  and their median c is <= 2 (stopping after the first successful batch).
* :class:`NoHeavyTailWarning` — every problem is solved at least once *and* the local
  exponent :math:`b(k) = -d\log(-\log \text{pass}_D@k)/d\log k` over the top decade of k
  is at least 1.5 times its value over k in [1, 10]: pass@k falls faster than any power
  law, as for Llama 3 8B IT in best-of-N jailbreaking (Schaeffer et al. 2025,
  arXiv 2502.17578; Hughes et al. 2024, arXiv 2412.03556).
* :class:`ImpossibleMassWarning` — a plateau: the zero-inflated Beta improves on the Beta
  with likelihood-ratio p < 0.01 (boundary-corrected: p = ½·P(χ²₁ > LR)) and a point mass
  π0 >= 1%, *or* the local exponent over the top fifth of the log-k range is below a
  quarter of its value over k in [1, 10].
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from ._adaptive import check_design
from ._counts import Counts, check_counts_object
from ._difficulty import BetaBinomial, ZeroInflatedBetaBinomial
from ._errors import ImpossibleMassWarning, NoHeavyTailWarning, StoppingTimeWarning
from ._results import ReadOnlyResult, brief_repr, json_safe, pandas_module
from ._scaling import _curve_values, default_k_grid, local_slope
from ._validation import check_flag

__all__ = ["check_deviations", "DeviationReport"]


@dataclass(frozen=True)
class DeviationReport(ReadOnlyResult):
    """Flags per model with their evidence (``flags[model]`` → list of (warning name, message)).

    Attributes
    ----------
    flags : dict of str to list of (str, str)
        Per model, each flag raised: the warning's name and its message.
    evidence : dict of str to dict
        Per model, the numbers behind the checks (stopping-time signs, local slopes, the zero-inflation test).
    """

    __repr__ = brief_repr

    flags: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``flags`` (one record per flag: ``model``, ``flag``, ``message``) and ``evidence`` (per
        model, the numbers behind the checks: stopping-time signs, local slopes, the zero-inflation test)."""
        return {
            "flags": [{"model": m, "flag": f, "message": msg} for m, fl in self.flags.items() for f, msg in fl],
            "evidence": json_safe(self.evidence),
        }

    def to_frame(self) -> Any:
        """pandas DataFrame, one row per flag: columns ``model``, ``flag``, ``message``."""
        pd = pandas_module()

        return pd.DataFrame(self.to_dict()["flags"], columns=["model", "flag", "message"])

    def plot(self) -> Any:
        """The flags as a table (model, flag, message).

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go

        rows = [(r["model"], r["flag"], r["message"]) for r in self.to_dict()["flags"]]
        columns: list[Sequence[str]] = list(zip(*rows, strict=False)) or [[], [], []]
        return go.Figure(go.Table(header={"values": ["model", "flag", "message"]}, cells={"values": columns}))


def _stopping_evidence(sub: Counts) -> dict[str, Any]:
    n, c = sub.n, sub.c
    top = n.max()
    below = n < top
    ev: dict[str, Any] = {"n_varies": bool(np.unique(n).size > 1), "rows_below_max_n": int(below.sum())}
    if below.sum() >= max(5, 0.1 * n.size):
        ev["frac_below_max_n_solved"] = float((c[below] > 0).mean())
        ev["median_c_below_max_n"] = float(np.median(c[below]))
        ev["looks_like_stopping_time"] = bool(ev["frac_below_max_n_solved"] >= 0.95 and ev["median_c_below_max_n"] <= 2)
    else:
        ev["looks_like_stopping_time"] = False
    return ev


def _secant_slope(k: np.ndarray, vals: np.ndarray, lo: float, default: float) -> float:
    """-(change of log(-log pass@k)) / (change of log k) between the first and the last k >= ``lo`` where
    0 < pass@k < 1; ``default`` when fewer than two such k differ."""
    ok = (k >= lo) & (vals > 0) & (vals < 1)
    if ok.sum() < 2:
        return default
    kk, y = np.asarray(k, dtype=float)[ok], np.log(-np.log(vals[ok]))
    return float(-(y[-1] - y[0]) / np.log(kk[-1] / kk[0]))


def check_deviations(counts: Counts, *, emit: bool = True, design: Any = None) -> DeviationReport:
    """Run the three deviation checks per model; warn (``emit=True``) and return the report.

    With a stop-at-success ``design`` (:class:`passcurve.StopAtSuccess`) n is known to be a
    stopping time: that is not flagged, and the local slopes come from the stopping-time curve; that curve is
    flat between the problems' last batches at large k, so there the exponents over the top decade and the top
    fifth are its secants over those ranges instead of the median of its local slopes.

    Parameters
    ----------
    counts : Counts
        Per-(model, problem) counts.
    emit : bool, default True
        Issue each flag as its warning (:class:`StoppingTimeWarning`, :class:`NoHeavyTailWarning`,
        :class:`ImpossibleMassWarning`); False only returns the report.
    design : StopAtSuccess, optional
        The sampling design, when n was a stopping time by design.

    Returns
    -------
    DeviationReport
        ``flags`` (per model: (warning name, message) pairs) and ``evidence`` (per model: the
        statistics behind each check: local slopes, the zero-inflation likelihood-ratio p-value
        and impossible mass).
    """
    check_counts_object(counts)
    emit = check_flag(emit, "emit")
    design = check_design(design)
    flags: dict[str, list[tuple[str, str]]] = {}
    evid: dict[str, dict[str, Any]] = {}
    meta_st = (counts.meta or {}).get("stopping_time", {}) if isinstance(counts.meta, dict) else {}
    for m, sub in counts.groups():
        fl: list[tuple[str, str]] = []
        ev: dict[str, Any] = {}
        # stopping time
        st = (meta_st.get("models", {}) or {}).get(m) if meta_st else None
        st = st if st is not None else _stopping_evidence(sub)
        ev["stopping_time"] = st
        stopping = bool(st.get("looks_like_stopping_time", False))
        if stopping and design is None:
            fl.append(("StoppingTimeWarning",
                       f"model {m!r}: n looks like a stopping time ({st.get('rows_below_max_n')} problems stopped "
                       f"below the largest n, nearly all solved): pass@k from these counts is biased and forecasts assume "
                       f"fixed n"))
        # local slopes (Codex convention so that stopped problems do not break the curve)
        nmax = int(sub.n.max()) if design is None else design.k_max(sub.n, sub.c)
        ks = default_k_grid(nmax)
        if design is None:
            conv = "chen" if stopping or np.unique(sub.n).size > 1 else "unbiased"
            vals = _curve_values(sub.n, sub.c, ks, conv, None)
        else:
            vals = design.mean_curve(sub.n, sub.c, ks)[0]
        kk, sl = local_slope(ks, vals)
        first = sl[(kk >= 1) & (kk <= 10)]
        b_first = float(np.median(first)) if first.size else np.nan
        top_dec = sl[kk >= nmax / 10]
        b_top = float(np.median(top_dec)) if top_dec.size else np.nan
        fifth = sl[np.log(kk) >= 0.8 * np.log(nmax)] if kk.size else np.array([])
        b_fifth = float(np.median(fifth)) if fifth.size else np.nan
        if design is not None:
            # the stopping-time curve is a sum of per-problem steps over each problem's last batch, flat between them
            # where few problems are left: most local slopes there are 0, and their median was (BoN's Llama 3 8B IT,
            # every prompt jailbroken, lost its NoHeavyTailWarning under the design the stopping-time warning names).
            # Over those ranges the exponent is the secant of log(-log pass@k) from the range's first k to its last
            b_top = _secant_slope(ks, vals, nmax / 10.0, b_top)
            b_fifth = _secant_slope(ks, vals, float(nmax) ** 0.8, b_fifth)
        all_solved = bool((sub.c > 0).all())
        ev.update({"all_solved": all_solved, "local_slope_k1_10": b_first, "local_slope_top_decade": b_top,
                   "local_slope_top_fifth": b_fifth})
        if all_solved and np.isfinite(b_top) and np.isfinite(b_first) and b_top >= 1.5 * b_first:
            fl.append(("NoHeavyTailWarning",
                       f"model {m!r}: every problem is solved and the local power-law exponent grows from "
                       f"{b_first:.2f} (k<=10) to {b_top:.2f} (top decade): no heavy left tail, pass@k leaves the "
                       f"power law and power-law forecasts will underestimate it"))
        # impossible mass
        lr_p = np.nan
        pi0 = 0.0
        if not all_solved and sub.n.size >= 10:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                bb = BetaBinomial().fit(sub)
                zi = ZeroInflatedBetaBinomial().fit(sub)
            lr = max(2 * (zi.loglik_ - bb.loglik_), 0.0)
            lr_p = float(0.5 * stats.chi2.sf(lr, 1)) if lr > 0 else 1.0
            pi0 = zi.impossible_mass_
        ev.update({"zi_lr_p_value": lr_p, "zi_impossible_mass": pi0})
        plateau = np.isfinite(b_fifth) and np.isfinite(b_first) and b_fifth < 0.25 * b_first and not all_solved
        if (np.isfinite(lr_p) and lr_p < 0.01 and pi0 >= 0.01) or plateau:
            why = []
            if np.isfinite(lr_p) and lr_p < 0.01 and pi0 >= 0.01:
                why.append(f"zero-inflated Beta puts {100 * pi0:.1f}% of problems at p=0 (LR test p={lr_p:.2g})")
            if plateau:
                why.append(f"local exponent falls from {b_first:.2f} to {b_fifth:.2f} at the largest k (a plateau)")
            fl.append(("ImpossibleMassWarning",
                       f"model {m!r}: evidence of impossible problems: " + "; ".join(why)
                       + "; pass@k may plateau below 1"))
        flags[m] = fl
        evid[m] = ev
    report = DeviationReport(flags, evid)
    if emit:
        cats = {"StoppingTimeWarning": StoppingTimeWarning, "NoHeavyTailWarning": NoHeavyTailWarning,
                "ImpossibleMassWarning": ImpossibleMassWarning}
        for fl in flags.values():
            for name, msg in fl:
                warnings.warn(msg, cats[name], stacklevel=2)
    return report
