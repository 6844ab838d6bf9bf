"""passcurve: exact pass@k-family curves, honest error bars, difficulty fits and forecasts.

Estimators (broadcast over problems and k)
    pass_at_k, pass_pow_k, g_pass_at_k, mg_pass_at_k, naive_pass_at_k
Curves and data
    Counts, curve, CurveResult, read_counts, counts_from_frame
Error bars, comparisons, diagnostics
    curve_intervals, standard_error, compare, CompareResult, power_analysis, PowerResult,
    rank_models, RankResult,
    hidden_difficulty, DiagnosticsResult
Majority voting, retries, weak verifiers
    maj_at_k, maj_at_k_tallies, vote, VoteResult, AnswerTallies, simulate_answers,
    retries, RetryResult, verifier_inflation, VerifierResult
Difficulty, power laws, forecasts
    fit_difficulty, BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial,
    BetaMixtureBinomial, GridMixture, fit_power_law, forecast, k_for, backtest,
    extrapolation_bounds, BoundsResult, BoundsKFor,
    check_deviations, thin_counts
Simulation
    simulate, ModelSpec, SimulatedBenchmark
Training signals (submodule ``passcurve.rl``)
    rl.pkpo_rewards, rl.dead_groups, rl.gradient_conflict, rl.conflict_toy, ...
Planning and adaptive sampling
    plan, Planner, PlanResult, stopping_pass_at_k, stopping_loglik, inverse_binomial_p,
    StopAtSuccess (the ``design=`` of curve and curve_intervals)
Errors and warnings
    PasscurveError and the warnings in passcurve._errors
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names for type checkers and editors; at run time they are imported on first use
    # error bars, model comparisons, hidden-difficulty diagnostics (issue 4)
    # training signals: a submodule (passcurve.rl), not flattened into the top-level namespace
    from . import rl

    # planning where to spend samples, and estimation under adaptive sampling (issue 8)
    # (the planner's own minimal beta / zero-inflated beta fits stay private in _adaptive: the public
    # difficulty fits are fit_difficulty and its models, which Planner(prior=...) also accepts)
    from ._adaptive import (
        StopAtSuccess,
        hierarchical_pass_at_k,
        inverse_binomial_p,
        stopping_loglik,
        stopping_pass_at_k,
    )
    from ._backtest import BacktestResult, backtest
    from ._bounds import BoundsKFor, BoundsResult, extrapolation_bounds
    from ._compare import CompareResult, PowerResult, compare, power_analysis
    from ._counts import Counts
    from ._curves import CURVE_METRICS, METRICS, CurveResult, curve, mean_curve
    from ._deviation import DeviationReport, check_deviations
    from ._diagnostics import DiagnosticsResult, hidden_difficulty
    from ._difficulty import (
        DIFFICULTY_MODELS,
        BetaBinomial,
        BetaMixtureBinomial,
        DifficultyFits,
        DifficultyModel,
        GridMixture,
        ScaledBetaBinomial,
        ZeroInflatedBetaBinomial,
        fit_difficulty,
    )
    from ._errors import (
        ConvergenceWarning,
        DegenerateDataWarning,
        DependenceWarning,
        DroppedProblemsWarning,
        ImpossibleMassWarning,
        InputFormatError,
        MergedAnswersWarning,
        NoHeavyTailWarning,
        PasscurveError,
        PasscurveWarning,
        StoppingTimeWarning,
        UnpairedComparisonWarning,
    )
    from ._estimators import g_pass_at_k, mg_pass_at_k, naive_pass_at_k, pass_at_k, pass_pow_k
    from ._forecast import FORECAST_METHODS, ForecastResult, KForResult, forecast, k_for, thin_counts
    from ._planner import Planner, PlanResult, plan
    from ._rank import RankResult, rank_models

    # majority voting, retries, weak verifiers (issue 6)
    from ._retries import RetryResult, retries
    from ._scaling import PAPER_K_GRID, PowerLawResult, default_k_grid, fit_power_law, local_slope
    from ._simulate import DEMO_MODELS, ModelSpec, SimulatedBenchmark, simulate
    from ._uncertainty import INTERVAL_METHODS, INTERVAL_METRICS, curve_intervals, standard_error
    from ._verifiers import VerifierResult, verifier_inflation
    from ._voting import AnswerTallies, VoteResult, maj_at_k, maj_at_k_tallies, simulate_answers, vote

    # data layer (files, harness logs, frames -> Counts)
    from .data import Samples, counts_from_frame, open_samples, read_counts

__version__ = "0.1.0"

# where each public name lives: ``passcurve.<name>`` imports its module on first use (PEP 562), so that
# ``import passcurve`` (and thus the CLI's --version and --help) does not import scipy, DuckDB and every submodule.
# The TYPE_CHECKING imports above list the same names (tests/test_startup.py checks the two agree).
_EXPORTS: dict[str, tuple[str, ...]] = {
    "._adaptive": (
        "StopAtSuccess", "hierarchical_pass_at_k", "inverse_binomial_p", "stopping_loglik",
        "stopping_pass_at_k",
    ),
    "._backtest": ("BacktestResult", "backtest"),
    "._bounds": ("BoundsKFor", "BoundsResult", "extrapolation_bounds"),
    "._compare": ("CompareResult", "PowerResult", "compare", "power_analysis"),
    "._counts": ("Counts",),
    "._curves": ("CURVE_METRICS", "METRICS", "CurveResult", "curve", "mean_curve"),
    "._deviation": ("DeviationReport", "check_deviations"),
    "._diagnostics": ("DiagnosticsResult", "hidden_difficulty"),
    "._difficulty": (
        "DIFFICULTY_MODELS", "BetaBinomial", "BetaMixtureBinomial", "DifficultyFits", "DifficultyModel",
        "GridMixture", "ScaledBetaBinomial", "ZeroInflatedBetaBinomial", "fit_difficulty",
    ),
    "._errors": (
        "ConvergenceWarning", "DegenerateDataWarning", "DependenceWarning", "DroppedProblemsWarning",
        "ImpossibleMassWarning", "InputFormatError", "MergedAnswersWarning", "NoHeavyTailWarning",
        "PasscurveError", "PasscurveWarning", "StoppingTimeWarning", "UnpairedComparisonWarning",
    ),
    "._estimators": ("g_pass_at_k", "mg_pass_at_k", "naive_pass_at_k", "pass_at_k", "pass_pow_k"),
    "._forecast": ("FORECAST_METHODS", "ForecastResult", "KForResult", "forecast", "k_for", "thin_counts"),
    "._planner": ("Planner", "PlanResult", "plan"),
    "._rank": ("RankResult", "rank_models"),
    "._retries": ("RetryResult", "retries"),
    "._scaling": ("PAPER_K_GRID", "PowerLawResult", "default_k_grid", "fit_power_law", "local_slope"),
    "._simulate": ("DEMO_MODELS", "ModelSpec", "SimulatedBenchmark", "simulate"),
    "._uncertainty": ("INTERVAL_METHODS", "INTERVAL_METRICS", "curve_intervals", "standard_error"),
    "._verifiers": ("VerifierResult", "verifier_inflation"),
    "._voting": ("AnswerTallies", "VoteResult", "maj_at_k", "maj_at_k_tallies", "simulate_answers", "vote"),
    ".data": ("Samples", "counts_from_frame", "open_samples", "read_counts"),
}
_SUBMODULES = ("rl", "data")
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = sorted([*_WHERE, *_SUBMODULES])


def __getattr__(name: str) -> Any:
    """A public name's value, imported from its module on first use and then kept in the package's namespace."""
    if name in _SUBMODULES:
        value: Any = importlib.import_module(f".{name}", __name__)
    elif name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
