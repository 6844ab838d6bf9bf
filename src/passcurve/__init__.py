"""passcurve: exact pass@k-family curves, honest error bars, difficulty fits and forecasts.

Estimators (broadcast over problems and k)
    pass_at_k, pass_pow_k, g_pass_at_k, mg_pass_at_k, naive_pass_at_k
Curves and data
    Counts, curve, CurveResult, read_counts, counts_from_frame
Difficulty, power laws, forecasts
    fit_difficulty, BetaBinomial, ZeroInflatedBetaBinomial, ScaledBetaBinomial,
    BetaMixtureBinomial, GridMixture, fit_power_law, forecast, k_for, backtest,
    check_deviations, thin_counts
Simulation
    simulate, ModelSpec, SimulatedBenchmark
Planning and adaptive sampling
    plan, Planner, PlanResult, stopping_pass_at_k, stopping_loglik, inverse_binomial_p
Errors and warnings
    PasscurveError and the warnings in passcurve._errors
"""

from ._counts import Counts
from ._curves import METRICS, CurveResult, curve, mean_curve
from ._errors import (
    ConvergenceWarning,
    DegenerateDataWarning,
    DependenceWarning,
    DroppedProblemsWarning,
    ImpossibleMassWarning,
    InputFormatError,
    NoHeavyTailWarning,
    PasscurveError,
    PasscurveWarning,
    StoppingTimeWarning,
    UnpairedComparisonWarning,
)
from ._estimators import g_pass_at_k, mg_pass_at_k, naive_pass_at_k, pass_at_k, pass_pow_k
from ._backtest import BacktestResult, backtest
from ._deviation import DeviationReport, check_deviations
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
from ._forecast import FORECAST_METHODS, ForecastResult, KForResult, forecast, k_for, thin_counts
from ._scaling import PAPER_K_GRID, PowerLawResult, default_k_grid, fit_power_law, local_slope
from ._simulate import DEMO_MODELS, ModelSpec, SimulatedBenchmark, simulate

# planning where to spend samples, and estimation under adaptive sampling (issue 8)
# (the planner's own minimal beta / zero-inflated beta fits stay private in _adaptive: the public
# difficulty fits are fit_difficulty and its models, which Planner(prior=...) also accepts)
from ._adaptive import inverse_binomial_p, stopping_loglik, stopping_pass_at_k
from ._planner import PlanResult, Planner, plan

# data layer (files, harness logs, frames -> Counts)
from .data import Samples, counts_from_frame, open_samples, read_counts

__version__ = "0.1.0"

__all__ = [s for s in dir() if not s.startswith("_")]
