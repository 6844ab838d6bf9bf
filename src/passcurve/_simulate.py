r"""Synthetic repeated-sampling benchmarks with known truth (demo data, tests, backtests).

Each model has per-problem success rates p_i drawn from a zero-inflated Beta: a fraction
``impossible`` of problems has p = 0, the rest p ~ Beta(α, β). A small α makes the left
tail heavy (many very hard problems), which is what makes pass_D@k follow a power law
with exponent b = α (Schaeffer et al. 2025). Problems are shared across models through a
Gaussian copula on a common latent difficulty, so model comparisons are paired as on a
real benchmark. Given p_i, each model draws n_i independent samples per problem.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special, stats

from ._counts import Counts
from ._errors import PasscurveError
from ._results import ReadOnlyResult, brief_repr
from ._validation import (
    as_int_array,
    check_positive_int,
    check_positive_k,
    check_rng,
    check_scalar,
    check_text,
    is_bool,
    seed_of,
)

__all__ = ["ModelSpec", "SimulatedBenchmark", "simulate", "DEMO_MODELS"]


@dataclass(frozen=True)
class ModelSpec:
    """Difficulty distribution of one simulated model: zero-inflated Beta(alpha, beta).

    Parameters
    ----------
    name : str
        The model's name in the simulated counts.
    alpha, beta : float > 0
        The Beta law of the solvable problems' success rates.
    impossible : float in [0, 1), default 0
        Share of problems with success rate 0.
    """

    name: str
    alpha: float
    beta: float
    impossible: float = 0.0

    def __post_init__(self) -> None:
        check_text(self.name, "name")
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            # float(v): np.isfinite of a Python int beyond uint64 (10**20) was numpy's "ufunc 'isfinite' not supported"
            if is_bool(v) or not (isinstance(v, (int, float, np.floating, np.integer)) and np.isfinite(float(v)) and v > 0):
                raise PasscurveError(f"`{name}` must be a finite number > 0 (got {name}={v!r})")
        v = self.impossible
        if is_bool(v) or not (isinstance(v, (int, float, np.floating, np.integer)) and 0 <= v < 1):
            raise PasscurveError(f"`impossible` must be in [0, 1) (got impossible={v!r})")

    def true_pass_at_k(self, k: Any) -> np.ndarray:
        """Population pass_D@k = (1 - π0)(1 - B(α, β + k)/B(α, β)) under the model's distribution.

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0.

        Returns
        -------
        ndarray of float
            The shape of ``k`` (0-d for a scalar).
        """
        k = check_positive_k(k)
        ratio = np.exp(special.betaln(self.alpha, self.beta + k) - special.betaln(self.alpha, self.beta))
        return (1.0 - self.impossible) * (1.0 - ratio)


DEMO_MODELS: tuple[ModelSpec, ...] = (
    ModelSpec("tiny-1b", alpha=0.22, beta=5.0, impossible=0.12),
    ModelSpec("base-7b", alpha=0.30, beta=2.5, impossible=0.06),
    ModelSpec("chat-7b", alpha=0.35, beta=1.8, impossible=0.06),
    ModelSpec("large-70b", alpha=0.45, beta=0.9, impossible=0.02),
)


@dataclass(frozen=True, eq=False)
class SimulatedBenchmark(ReadOnlyResult):
    """A simulated benchmark and its truth.

    Attributes
    ----------
    counts : Counts
        The observed (model, problem, n, c).
    p : ndarray
        True per-row success rate (aligned with ``counts``).
    specs : tuple of ModelSpec
    seed : int or None
    meta : dict
        The simulator and the seed.
    """

    __repr__ = brief_repr

    counts: Counts
    p: np.ndarray
    specs: tuple[ModelSpec, ...]
    seed: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def true_pass_at_k(self, k: Any) -> dict[str, np.ndarray]:
        """pass_D@k of the *drawn* problems, exactly: mean_i 1 - (1 - p_i)^k, per model.

        Parameters
        ----------
        k : array_like of float
            Budgets k > 0.

        Returns
        -------
        dict of str to ndarray
            Per model, pass_D@k at each k (shape (K,)).
        """
        k = np.atleast_1d(check_positive_k(k, max_ndim=1))  # one k per column: a 2-d k was numpy's broadcast error
        out = {}
        for name, _ in self.counts.groups():
            p = self.p[self.counts.model == name]
            with np.errstate(divide="ignore"):
                out[name] = np.mean(-np.expm1(k[None, :] * np.log1p(-p)[:, None]), axis=0)
        return out

    def samples(self, rng: Any = None) -> dict[str, np.ndarray]:
        """Expand the counts into per-sample rows (model, problem, attempt, correct).

        The c correct samples of each problem are placed at uniformly random attempts
        (independent samples are exchangeable), so aggregating gives back ``counts``.

        Parameters
        ----------
        rng : None, int or numpy Generator
            Places the correct samples. An int seed is ``np.random.default_rng(seed)``, as everywhere
            (``rng=7`` and ``rng=np.random.default_rng(7)`` give the same rows). The one exception to the
            library's convention is None: it reuses the benchmark's own ``seed`` (so ``simulate(rng=7).samples()``
            is reproducible), and is fresh entropy only when the benchmark was simulated from a Generator or
            None, which leaves ``seed`` None.

        Returns
        -------
        dict of str to ndarray
            ``model``, ``problem_id``, ``attempt`` (1..n within each problem) and ``correct`` (bool), one entry
            per sample, problems in the order of ``counts``.
        """
        rng = check_rng(rng if rng is not None else self.seed)
        cnt = self.counts
        reps = cnt.n
        row = np.repeat(np.arange(len(cnt)), reps)
        offs = np.cumsum(reps) - reps
        attempt = np.arange(row.size) - np.repeat(offs, reps) + 1
        # random rank of each sample within its problem; the c lowest ranks are correct
        keys = rng.random(row.size) + row  # sorts by row, random within row
        rank = np.empty(row.size, dtype=np.int64)
        rank[np.argsort(keys, kind="stable")] = np.arange(row.size) - np.repeat(offs, reps)
        correct = rank < np.repeat(cnt.c, reps)
        return {
            "model": cnt.model[row],
            "problem_id": cnt.problem[row],
            "attempt": attempt,
            "correct": correct,
        }


def _simulate_iv(problems: Any, n: Any, models: Any,
                 correlation: Any) -> tuple[int, Any, tuple[ModelSpec, ...], float]:
    problems = check_positive_int(problems, "problems", maximum=10**8)
    if np.isscalar(n) or (isinstance(n, np.ndarray) and n.ndim == 0):
        n = check_positive_int(n, "n")
    else:
        n = as_int_array(n, "n", minimum=1)
        if n.ndim != 1 or n.size != problems:
            raise PasscurveError(f"`n` must be an integer >= 1 or one per problem ({problems} values)")
    if models is None:
        raise PasscurveError("`models` must name at least one ModelSpec")
    if not isinstance(models, ModelSpec | Iterable) or isinstance(models, str):
        raise PasscurveError(f"`models` must be a ModelSpec or a sequence of ModelSpec (got {models!r})")
    specs = (models,) if isinstance(models, ModelSpec) else tuple(models)
    if not specs:
        raise PasscurveError("`models` must name at least one ModelSpec")
    for s in specs:
        if not isinstance(s, ModelSpec):
            raise PasscurveError(f"`models` must contain ModelSpec objects (got {type(s).__name__})")
        if s.alpha <= 0 or s.beta <= 0 or not 0 <= s.impossible < 1:
            raise PasscurveError(f"model {s.name!r}: need alpha > 0, beta > 0 and 0 <= impossible < 1")
    names = [s.name for s in specs]
    dup = next((nm for i, nm in enumerate(names) if nm in names[:i]), None)
    if dup is not None:
        raise PasscurveError(f"`models` holds two ModelSpec named {dup!r}; each model needs its own name")
    rho = check_scalar(correlation, "correlation", low=-1, high=1, low_open=True, high_open=True)
    return problems, n, specs, rho


def simulate(
    problems: int = 300,
    n: Any = 1000,
    models: Any = DEMO_MODELS,
    *,
    correlation: float = 0.8,
    rng: Any = None,
) -> SimulatedBenchmark:
    """Simulate a repeated-sampling benchmark with known per-problem success rates.

    Parameters
    ----------
    problems : int
        Number of problems (shared by all models).
    n : int or array of int
        Samples per problem (one value, or one per problem for unequal n).
    models : ModelSpec or sequence of ModelSpec
        Difficulty distribution per model (default: four demo models with heavy left tails
        and some impossible problems).
    correlation : float in (-1, 1)
        Loading ρ of each model's latent difficulty on one shared problem factor (Gaussian copula:
        z_m = ρ·s + √(1−ρ²)·ε_m), so two models' latent normal scores correlate ρ² (0.64 at the
        default 0.8). Each model's marginal law is its ModelSpec whatever ρ is.
    rng : None, int or numpy Generator

    Returns
    -------
    SimulatedBenchmark
    """
    problems, n, specs, correlation = _simulate_iv(problems, n, models, correlation)
    seed = seed_of(rng)
    gen = check_rng(rng)
    shared = gen.standard_normal(problems)
    n_arr = np.broadcast_to(np.asarray(n, dtype=np.int64), (problems,))
    rows_model, rows_problem, rows_n, rows_c, rows_p = [], [], [], [], []
    width = len(str(problems - 1))
    pid = np.array([f"problem-{i:0{width}d}" for i in range(problems)], dtype=object)
    for s in specs:
        z = correlation * shared + np.sqrt(1 - correlation**2) * gen.standard_normal(problems)
        u = stats.norm.cdf(z)  # uniform; small u = hard problem
        p = np.zeros(problems)
        ok = u >= s.impossible
        # rescale the possible part to a uniform on (0, 1), then invert the Beta
        p[ok] = stats.beta.ppf((u[ok] - s.impossible) / (1 - s.impossible), s.alpha, s.beta)
        c = gen.binomial(n_arr, p)
        rows_model.append(np.full(problems, s.name, dtype=object))
        rows_problem.append(pid)
        rows_n.append(n_arr)
        rows_c.append(c)
        rows_p.append(p)
    counts = Counts.from_arrays(
        np.concatenate(rows_n),
        np.concatenate(rows_c),
        problem=np.concatenate(rows_problem),
        model=np.concatenate(rows_model),
        source="simulated",
        meta={"simulator": "zero-inflated Beta, Gaussian copula", "seed": seed},
    )
    return SimulatedBenchmark(counts, np.concatenate(rows_p), specs, seed)
