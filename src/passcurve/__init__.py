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

# error bars, model comparisons, hidden-difficulty diagnostics (issue 4)
# training signals: a submodule (passcurve.rl), not flattened into the top-level namespace
from . import rl  # noqa: E402

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

__all__ = [s for s in dir() if not s.startswith("_")]
