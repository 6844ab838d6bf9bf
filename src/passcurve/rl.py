r"""Training-side signals: pass@k rewards (PKPO), GRPO dead groups, pass@k-vs-pass@1 conflict.

The statistics that evaluate repeated sampling also drive training. This module gives them
as functions to call inside a training loop and as diagnostics on a sampling log.

PKPO rewards (Walder & Karkhanis 2025, arXiv:2505.15201)
    pkpo_rewards(rewards, k, baseline="loo-1")   transformed rewards, numpy or torch in/out
    max_at_k(rewards, k)                         unbiased max@k (pass@k) of each group
GRPO dead groups (seed 000: hidden difficulty)
    dead_group_fraction(p, group_size)           p^G + (1-p)^G
    dead_group_fraction_beta(alpha, beta, group_size)
    group_size_for_live(target_live, p= | alpha=, beta=)
    dead_groups(counts, group_size, target_live) -> DeadGroupsResult
pass@k vs pass@1 (Barakat et al. 2026, arXiv:2602.21189; seed 002)
    pass_at_k_weights(p, k)                      k (1-p)^(k-1)
    prompt_kernel(grads, cosine=False)           κ = G Gᵀ
    gradient_conflict(p, grads, k) -> ConflictResult   agreement, ⟨∇J_k, ∇J_1⟩, k*
    conflict_toy(...) -> ConflictToyResult       softmax-bandit demonstration

Usage: ``import passcurve.rl as rl`` (or ``from passcurve import rl``).
"""

from __future__ import annotations

from ._rl_conflict import ConflictResult, gradient_conflict, pass_at_k_weights, prompt_kernel
from ._rl_groups import (
    DeadGroupsResult,
    dead_group_fraction,
    dead_group_fraction_beta,
    dead_groups,
    group_size_for_live,
)
from ._rl_pkpo import BASELINES, max_at_k, pkpo_rewards
from ._rl_toy import ConflictToyResult, conflict_toy

__all__ = [
    "pkpo_rewards",
    "max_at_k",
    "BASELINES",
    "dead_group_fraction",
    "dead_group_fraction_beta",
    "group_size_for_live",
    "dead_groups",
    "DeadGroupsResult",
    "pass_at_k_weights",
    "prompt_kernel",
    "gradient_conflict",
    "ConflictResult",
    "conflict_toy",
    "ConflictToyResult",
]
