"""Names and defaults that the command line's help lists, importable without numpy, scipy or DuckDB.

The library's modules take them from here (``passcurve.FORECAST_METHODS`` is :mod:`passcurve._forecast`'s, the
planner's ``METHODS`` and ``DEFAULT_HEDGE`` :mod:`passcurve._planner`'s), so that ``passcurve --help`` can show
them without importing the numerics behind them (benchmarks/bench_cli_startup.py).
"""

from __future__ import annotations

DIFFICULTY_MODEL_NAMES = ("beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle")
"""The keys of :data:`passcurve.DIFFICULTY_MODELS`, in its order (a test checks the two agree)."""

PLAN_MODEL_PRIORS = tuple(m for m in DIFFICULTY_MODEL_NAMES if m not in ("beta", "zi_beta"))
"""The difficulty models :func:`passcurve.plan`'s ``prior`` takes by name, besides its own fits "beta" and "zi_beta"
(the posterior mode under a weak hyperprior, not the maximum likelihood of the models of those names)."""

FORECAST_METHODS = ("auto", "least_squares", "beta", "beta_eb", "zi_beta", "scaled_beta", "beta_mixture")
"""The ``method`` values of :func:`passcurve.forecast`."""

PLAN_METHODS = ("hierarchical", "passcurve", "fewest-successes", "variance-optimal", "uniform")
"""The allocation rules of :func:`passcurve.plan` (``method``)."""

# defensive share of every allocation spread evenly (see Planner); chosen by benchmarks/planner_study.py
DEFAULT_HEDGE = 0.0
"""The default ``hedge`` of :func:`passcurve.plan`."""
