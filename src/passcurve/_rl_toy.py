r"""A toy that shows the pass@k vs pass@1 conflict end to end: a softmax contextual bandit.

Prompts x carry features φ(x) = (1, z) with z ~ N(±s/2, I): "easy" prompts (the majority,
correct action 0) and "hard" prompts (correct action 1) whose features overlap, so one
shared weight matrix θ (actions × features) serves both and they interfere. The policy is
π(a | x) = softmax(θ φ(x)); the success probability of prompt x is p(x) = π(a*(x) | x),
with the exact gradient ∂p/∂θ_a = p (1[a = a*] − π(a|x)) φ(x), so training is
deterministic, exact gradient ascent (no sampling noise) on

.. math:: J_k(\theta) = \frac1P \sum_x 1 - (1-p(x))^k, \qquad
          \nabla J_k = \frac1P\sum_x k(1-p(x))^{k-1}\nabla p(x).

A policy is first trained for pass@1 (the "pretrained model"); from there three runs go
on for the same number of steps: pass@1, pass@k, and pass@k with k annealed to 1 halfway
(Walder & Karkhanis 2025's recommendation). pass@k ascent raises pass@k while pass@1
falls (the reweighting pushes the shared weights toward the hard prompts' action);
annealing recovers pass@1 and keeps part of the pass@k gain.

References: Barakat et al. 2026, arXiv:2602.21189 (conflict); Walder & Karkhanis 2025,
arXiv:2505.15201 (k annealing). Pure numerics, no I/O.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._errors import DegenerateDataWarning, PasscurveError
from ._results import ReadOnlyResult, brief_repr, frame_html, pandas_module
from ._rl_conflict import ConflictResult, gradient_conflict
from ._validation import MAX_GRID, MAX_RESAMPLES, check_positive_int, check_rng, check_scalar, fmt, seed_of

__all__ = ["conflict_toy", "ConflictToyResult"]

RUNS = ("pass@1", "pass@k", "annealed")


def _policy(theta: np.ndarray, X: np.ndarray) -> np.ndarray:
    logits = X @ theta.T
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    return e / e.sum(axis=1, keepdims=True)


def _p_and_grad(theta: np.ndarray, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Success probabilities (P,) and their gradients (P, A*D) under the softmax policy."""
    pi = _policy(theta, X)
    P = X.shape[0]
    rows = np.arange(P)
    p = pi[rows, y]
    coef = -p[:, None] * pi
    coef[rows, y] += p
    grads = coef[:, :, None] * X[:, None, :]
    return p, grads.reshape(P, -1)


def _ascend(
    theta: np.ndarray, X: np.ndarray, y: np.ndarray, ks: np.ndarray, lr: float, k_eval: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact gradient ascent on J_{ks[t]}; returns final θ and pass@1, pass@k_eval per step (T+1)."""
    th = theta.copy()
    T = ks.size
    p1 = np.empty(T + 1)
    pk = np.empty(T + 1)
    for t in range(T + 1):
        p, g = _p_and_grad(th, X, y)
        p1[t] = p.mean()
        # a prompt the policy solves surely (p = 1 in floating point) has log1p(-p) = -inf, and its exact limits follow
        # from it: (1 - p)^k = 0, pass@k 1 and weight 0, without numpy's divide-by-zero warning
        with np.errstate(divide="ignore"):
            q = np.log1p(-p)
        pk[t] = (-np.expm1(k_eval * q)).mean()
        if t == T:
            break
        k = ks[t]
        w = k * np.exp((k - 1) * q) if k != 1 else np.ones_like(p)
        th = th + lr * (w @ g / p.size).reshape(th.shape)
    return th, p1, pk


@dataclass(frozen=True, eq=False)
class ConflictToyResult(ReadOnlyResult):
    """Training curves of the toy bandit under pass@1, pass@k and annealed-k ascent.

    Attributes
    ----------
    k : int
        The pass@k objective (and the evaluation budget for ``pass_at_k``).
    steps : ndarray of int, shape (T+1,)
    k_schedule : dict of str to ndarray (T,)
    pass_at_1, pass_at_k : dict of str to ndarray (T+1,)
        Per run ("pass@1", "pass@k", "annealed"), pass@1 and pass@k after each step.
    conflict : ConflictResult
        The gradient-conflict analysis at the start (the pass@1-trained policy).
    easy, hard : int
        Prompt counts.
    params : dict
        Everything needed to rerun (seed included).
    """

    __repr__ = brief_repr

    k: int
    steps: np.ndarray
    k_schedule: dict[str, np.ndarray]
    pass_at_1: dict[str, np.ndarray]
    pass_at_k: dict[str, np.ndarray]
    conflict: ConflictResult
    easy: int
    hard: int
    params: dict[str, Any]

    @property
    def summary(self) -> list[dict[str, Any]]:
        """pass@1 and pass@k before and after, per run."""
        return [
            {
                "run": r,
                "pass_at_1_before": float(self.pass_at_1[r][0]),
                "pass_at_1_after": float(self.pass_at_1[r][-1]),
                "pass_at_k_before": float(self.pass_at_k[r][0]),
                "pass_at_k_after": float(self.pass_at_k[r][-1]),
                "pass_at_1_min": float(self.pass_at_1[r].min()),
            }
            for r in RUNS
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``k``, ``easy``, ``hard``, ``params`` (the call's settings, ``seed`` included),
        ``summary`` (per run: pass@1 and pass@k before and after, the lowest pass@1), ``k_star_at_start`` and
        ``curves`` (per run: ``pass_at_1``, ``pass_at_k``, ``k_schedule`` per step)."""
        return {
            "k": self.k,
            "easy": self.easy,
            "hard": self.hard,
            "params": dict(self.params),
            "summary": self.summary,
            "k_star_at_start": None if not np.isfinite(self.conflict.k_star) else float(self.conflict.k_star),
            "curves": {
                r: {
                    "pass_at_1": self.pass_at_1[r].tolist(),
                    "pass_at_k": self.pass_at_k[r].tolist(),
                    "k_schedule": self.k_schedule[r].tolist(),
                }
                for r in RUNS
            },
        }

    def to_frame(self) -> Any:
        """Long pandas DataFrame, one row per (run, step): ``run``, ``step``, ``pass_at_1``, ``pass_at_<k>``."""
        pd = pandas_module()

        frames = []
        for r in RUNS:
            frames.append(
                pd.DataFrame(
                    {
                        "run": r,
                        "step": self.steps,
                        "pass_at_1": self.pass_at_1[r],
                        f"pass_at_{self.k}": self.pass_at_k[r],
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)

    def plot(self) -> Any:
        """pass@1 (left) and pass@k (right) against step, one line per run.

        Returns
        -------
        plotly.graph_objects.Figure
        """
        import plotly.graph_objects as go
        from plotly.subplots import make_subplots

        fig = make_subplots(rows=1, cols=2, subplot_titles=("pass@1", f"pass@{self.k}"))
        colors = {"pass@1": "#1f77b4", "pass@k": "#d62728", "annealed": "#2ca02c"}
        dash = {"pass@1": "solid", "pass@k": "dash", "annealed": "solid"}  # pass@k shares the annealed path at first
        label = {"pass@1": "optimise pass@1", "pass@k": f"optimise pass@{self.k}", "annealed": f"anneal k: {self.k} → 1"}
        for r in ("pass@1", "annealed", "pass@k"):
            fig.add_trace(
                go.Scatter(
                    x=self.steps, y=self.pass_at_1[r], name=label[r], line={"color": colors[r], "dash": dash[r]}, legendgroup=r
                ),
                row=1,
                col=1,
            )
            fig.add_trace(
                go.Scatter(
                    x=self.steps,
                    y=self.pass_at_k[r],
                    name=label[r],
                    line={"color": colors[r], "dash": dash[r]},
                    legendgroup=r,
                    showlegend=False,
                ),
                row=1,
                col=2,
            )
        fig.update_xaxes(title_text="gradient step")
        fig.update_layout(template="plotly_white", height=420)
        return fig

    def _repr_html_(self) -> str | None:
        return frame_html(lambda: pandas_module().DataFrame(self.summary))


def _conflict_toy_iv(k: Any, easy: Any, hard: Any, actions: Any, features: Any, pretrain_steps: Any, steps: Any,
                     separation: Any, anneal_at: Any, lr: Any) -> tuple[int, int, int, int, int, int, int, float, float,
                                                                         float]:
    """The sizes as integers and the reals as finite numbers in range (None was a TypeError, separation=inf
    came back as an error about `p`). Sizes are capped at MAX_GRID (10^6; the steps at MAX_RESAMPLES, 10^7): the toy
    holds a problems x features matrix and a curve per step, and steps=1e11 was a MemoryError (argument fuzzing)."""
    easy_i = check_positive_int(easy, "easy", maximum=MAX_GRID)
    hard_i = check_positive_int(hard, "hard", maximum=MAX_GRID)
    features_i = check_positive_int(features, "features", maximum=MAX_GRID)
    actions_i = check_positive_int(actions, "actions", minimum=2, maximum=MAX_GRID)
    if (easy_i + hard_i + actions_i) * (features_i + 1) > 100 * MAX_GRID:
        raise PasscurveError(f"`easy` + `hard` + `actions` times `features` + 1 must be at most {100 * MAX_GRID:.0e} "
                             f"(got ({easy_i} + {hard_i} + {actions_i}) x {features_i + 1})")
    return (
        check_positive_int(k, "k", minimum=2, maximum=MAX_GRID),
        easy_i,
        hard_i,
        actions_i,
        features_i,
        check_positive_int(pretrain_steps, "pretrain_steps", minimum=0, maximum=MAX_RESAMPLES),
        check_positive_int(steps, "steps", maximum=MAX_RESAMPLES),
        check_scalar(separation, "separation", low=0),
        check_scalar(anneal_at, "anneal_at", low=0, high=1, low_open=True, high_open=True),
        check_scalar(lr, "lr", low=0, low_open=True),
    )


def conflict_toy(
    *,
    k: int = 8,
    easy: int = 120,
    hard: int = 40,
    actions: int = 4,
    features: int = 2,
    separation: float = 1.0,
    pretrain_steps: int = 300,
    steps: int = 600,
    anneal_at: float = 0.5,
    lr: float = 2.0,
    rng: Any = 0,
) -> ConflictToyResult:
    r"""Run the softmax-bandit toy: pass@k ascent raises pass@k and lowers pass@1; annealing k avoids it.

    Parameters
    ----------
    k : int >= 2
        The pass@k objective.
    easy, hard : int
        Number of easy (correct action 0) and hard (correct action 1) prompts.
    actions, features : int
        Actions of the bandit (>= 2) and feature dimensions besides the bias.
    separation : float
        Distance between the easy and hard feature means (smaller = more overlap, more
        interference).
    pretrain_steps : int
        Steps of pass@1 ascent from a policy that favours action 0 (the starting model).
    steps : int
        Steps of each of the three runs.
    anneal_at : float in (0, 1)
        Fraction of ``steps`` after which the annealed run switches k to 1.
    lr : float > 0
        The step of the exact gradient ascent. A policy saturated by pretraining (every prompt's success rate
        exactly 0 or 1 in floating point: ``lr=1e30``, or a ``separation`` at which the prompts do not overlap)
        has no gradient left, so the three runs stay flat: one ``DegenerateDataWarning`` says which argument.
    rng : None, int or numpy Generator
        Draws the prompt features only (training itself is exact and deterministic). An int seed is
        ``np.random.default_rng(seed)``, as everywhere: ``rng=7`` and ``rng=np.random.default_rng(7)`` give
        the same curves; only ``params["seed"]`` differs (7, or None for a Generator, whose seed cannot be
        read back).

    Returns
    -------
    ConflictToyResult

    References
    ----------
    Barakat et al. 2026, arXiv:2602.21189; Walder & Karkhanis 2025, arXiv:2505.15201.
    """
    k, easy, hard, actions, features, pretrain_steps, steps, separation, anneal_at, lr = _conflict_toy_iv(
        k, easy, hard, actions, features, pretrain_steps, steps, separation, anneal_at, lr)
    gen = check_rng(rng)
    z_easy = gen.normal(separation / 2, 1.0, (easy, features))
    z_hard = gen.normal(-separation / 2, 1.0, (hard, features))
    X = np.concatenate([np.c_[np.ones(easy), z_easy], np.c_[np.ones(hard), z_hard]])
    y = np.r_[np.zeros(easy, dtype=np.int64), np.ones(hard, dtype=np.int64)]
    theta0 = np.zeros((actions, features + 1))
    theta0[0, 0] = 1.0  # the untrained model already prefers action 0
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is said below, once, naming the arguments
        theta, _, _ = _ascend(theta0, X, y, np.ones(pretrain_steps), lr, k)
        p0, g0 = _p_and_grad(theta, X, y)
    if not (np.isfinite(p0).all() and np.isfinite(g0).all()):
        # separation=1e300: features beyond floating point made the policy NaN, reported as an error about `p`, an
        # argument of gradient_conflict the caller never gave (argument sweep)
        raise PasscurveError(
            f"the toy's policy overflowed in pretraining (success rates NaN or infinite): `separation`={fmt(separation)} "
            f"and `lr`={fmt(lr)} put the logits beyond floating point; use a smaller `separation` or `lr`"
        )
    if ((p0 == 0) | (p0 == 1)).all():
        # every prompt solved or failed surely: the policy is deterministic, no gradient is left and the three runs
        # stay where they start. lr=1e300 did that in one step (numpy's divide-by-zero warnings, then gradient_conflict's
        # "the pass@1 gradient is zero"): said once, naming the argument, as the overflow above. A prompt failed surely
        # is the step's doing (from a start at 0 < p < 1); every prompt solved, prompts that do not overlap
        failed = int((p0 == 0).sum())
        why = (f"pretraining left {failed} prompt{'s' if failed != 1 else ''} failed surely and {p0.size - failed} solved "
               f"surely (success rates exactly 0 or 1): `lr`={fmt(lr)} took steps beyond the softmax's floating-point "
               "range, so no gradient is left and the three runs stay flat; use a smaller `lr` (the default is 2)"
               if failed else
               f"pretraining solved every prompt surely (success rate exactly 1): at `separation`={fmt(separation)} "
               "the easy and hard prompts do not overlap, so there is no conflict to show and the three runs stay "
               "flat; use a smaller `separation`")
        warnings.warn(f"the toy's {why}", DegenerateDataWarning, stacklevel=2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateDataWarning)  # the same zero gradient, said above
            conflict = gradient_conflict(p0, g0, k=[1, 2, 4, 8, 16, 32, 64])
    else:
        conflict = gradient_conflict(p0, g0, k=[1, 2, 4, 8, 16, 32, 64])
    switch = int(round(anneal_at * steps))
    sched = {
        "pass@1": np.ones(steps),
        "pass@k": np.full(steps, float(k)),
        "annealed": np.where(np.arange(steps) < switch, float(k), 1.0),
    }
    p1: dict[str, np.ndarray] = {}
    pk: dict[str, np.ndarray] = {}
    for r in RUNS:
        _, p1[r], pk[r] = _ascend(theta, X, y, sched[r], lr, k)
    return ConflictToyResult(
        k=k,
        steps=np.arange(steps + 1),
        k_schedule=sched,
        pass_at_1=p1,
        pass_at_k=pk,
        conflict=conflict,
        easy=easy,
        hard=hard,
        params={
            "actions": actions,
            "features": features,
            "separation": float(separation),
            "pretrain_steps": pretrain_steps,
            "steps": steps,
            "anneal_at": float(anneal_at),
            "lr": float(lr),
            "seed": seed_of(rng),
        },
    )
