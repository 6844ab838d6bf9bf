"""The most any allocation can save when the success rates are known: the Neyman ceiling (eleventh session).

Estimating pass_D@K = mean_i q_i, q_i = 1 - (1 - p_i)^K, from n_i >= K samples of problem i, the per-problem
estimator's variance is sigma_i^2 / n_i with sigma_i^2 = K^2 p_i (1 - p_i)^(2K - 1) (delta method on p_hat; the
square root is the allocation b_i ~ sqrt(p_i (1 - p_i)^(2K - 1)) of Kazdan et al. 2025). With a total budget B:

* uniform n_i = B / N gives Var = sum_i sigma_i^2 / (N B);
* the variance-optimal n_i ~ sigma_i (Neyman) gives Var = (sum_i sigma_i)^2 / (N^2 B);

so the ratio R = N sum_i sigma_i^2 / (sum_i sigma_i)^2 >= 1 (Cauchy-Schwarz) is how many times fewer samples the
best allocation needs for uniform's error, *if the p_i were known* and every problem could be given n_i >= K.
A planner that must estimate p_i as it goes gets less; issue 8's goal (3x fewer samples) is only possible where
R >= 3. R is large when few problems carry the variance (most are ~certainly solved or ~certainly not at K).

Sources: every Pythia model (p_i = c_i / 10^4 of ../shared/data, the full-data rates) and passcurve's demo models
(128 problems drawn from each difficulty law, median over 20 draws).

Run:  PYTHONPATH=src python benchmarks/planner_ceiling.py   (about 1 s)
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from passcurve import DEMO_MODELS, simulate

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "pythia_math_counts.csv"
KS = (100, 300, 1000, 10_000)


def ceiling(p: np.ndarray, k: int) -> float:
    """R = N sum sigma^2 / (sum sigma)^2 with sigma_i ~ sqrt(p_i (1 - p_i)^(2k - 1)) (module docstring)."""
    s = np.sqrt(p * np.exp((2 * k - 1) * np.log1p(-np.minimum(p, 1 - 1e-16))))
    return float(p.size * np.sum(s**2) / np.sum(s) ** 2) if s.sum() > 0 else float("nan")


def main() -> None:
    print("| source | " + " | ".join(f"K = {k}" for k in KS) + " |")
    print("|---" * (len(KS) + 1) + "|")
    if DATA.exists():
        rows = list(csv.DictReader(open(DATA, newline="")))
        for model in sorted({r["model"] for r in rows}, key=lambda m: float(m.split()[-1][:-1]) *
                            (1000 if m.endswith("B") else 1)):
            c = np.array([int(r["c"]) for r in rows if r["model"] == model])
            n = np.array([int(r["n"]) for r in rows if r["model"] == model])
            print(f"| {model} (Pythia/MATH) | " + " | ".join(f"{ceiling(c / n, k):.2f}" for k in KS) + " |")
    for spec in DEMO_MODELS:
        draws = [simulate(problems=128, n=1, models=[spec], rng=10_000 + i).p for i in range(20)]
        print(f"| {spec.name} (demo) | " + " | ".join(f"{np.median([ceiling(p, k) for p in draws]):.2f}"
                                                       for k in KS) + " |")


if __name__ == "__main__":
    main()
