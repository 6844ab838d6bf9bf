"""Candidate 22: a cross-model link learned where the models overlap, falling back to the single-model Beta.

Pre-registered design (written before anything was scored; nothing below was changed after seeing a number).

**What is missing at m = 100.** One model's unsolved problems all look alike, and the share of them that K = 10^3
solves rests on the tail exponent of that model's Beta, which 100 samples per problem fix only to 9-31% (docs,
"The Beta law is adequate on Pythia"). A stronger model run on the same problems tells them apart. The candidate
must (1) let that evidence move the *total* (re-ranking the unsolved problems with the same total changes nothing:
with per-model marginals the Gaussian copula kept the single-model Beta's total), (2) not hand the problems that
no model solved the posterior of a typical unsolved problem (they are the hardest; that over-forecasts), and (3)
be exactly the single-model forecast where the other model carries no usable information.

**Model, for a target model j** (every target separately; nothing is shared between targets):

* Reference r: the other model that solves the most problems in the data at hand (ties: more successes). It
  leaves the fewest problems unsolved by both, and it is chosen from the forecast's own data, not from the truth.
* j's own law stays j's: p_ij ~ Beta(alpha_j, beta_j). r enters as *evidence about p_ij*, through a link
  logit p_ir = a + b logit p_ij + s z, z ~ N(0, 1): P(c_ir | p_ij) = E_z Binomial(c_ir | n_ir, expit(a + b u + s z)),
  u = logit p_ij. The residual spread s is the link's scatter (Pythia's neighbours scatter by 0.3-0.5 decades), so a
  loose link is weak evidence. Computed on a grid of u (cells of 0.2 in logit from -24 to 8, each cell's Beta mass
  exact from the regularised incomplete Beta; the lowest and highest cells take the tails) and the same grid for
  logit p_ir, the Gaussian kernel normalised on that grid.
* Direction and where the link is learned. The link is fitted by marginal likelihood of r's counts given j's
  counts, sum_i log sum_u post_j(u | c_ij) P(c_ir | u), with post_j the single-model Beta posterior of p_ij, on the
  problems j solved (c_ij >= 1), where j's counts locate p_ij: "learned where the models overlap". Conditioning on
  j's counts (the link's covariate) is ignorable for this likelihood whatever r did; the other direction (p_ij
  given r) fitted on the problems *both* solved would condition on the response and be biased by truncation. The
  unsolved problems of j are deliberately not used to fit the link: there the discrepancy between how many of
  them r solved and how many j's Beta and the link predict is the information about j's tail, and it must go
  into j's law (below), not into the link's intercept.
* Forecast ("link", the primary candidate): with the link fixed, (alpha_j, beta_j) are re-fitted by maximum
  likelihood of j's *and* r's counts on every problem, sum_i log sum_u Beta cell mass(u) Binomial(c_ij | u)
  P(c_ir | u); then pass@K = mean_i sum_u post_ij(u) (1 - (1 - p(u))^K), the posterior now conditioning on both
  models' counts. This is what makes the total change: r's solved problems among j's zeros are extra data on
  j's tail exponent. A problem that neither model solved gets evidence c_ir = 0, which pushes p_ij *down* from
  the typical unsolved posterior (point 2); a problem r solved is pushed up.
* Secondary ("link_fixed", scored beside it, not the one the adoption rule judges): the same, but j's Beta stays
  the single-model beta_eb fit; r's counts only reshape each problem's posterior (the total moves only by the
  evidence, not by a new law).
* Fallback to the single-model forecast (the library's beta_eb, exactly) when the link is not reliable: fewer than
  10 problems solved by j, or no positive relation (b <= 0, or the likelihood-ratio test of b = 0 against the
  fitted link, chi-square with 1 degree of freedom, gives p >= 0.05). With b = 0 the evidence is flat in u and
  both variants reduce to the single-model fit anyway; the test keeps a noise-fitted link out.
* Bounds (fixed): a in [-15, 15], b in [-1, 3], s in [0.2, 5]; L-BFGS-B from a = median logit difference of
  the overlap's empirical log-odds (+1/2 smoothing), b = 1, s = 1; alpha_j, beta_j re-fitted from beta_eb's values
  with log alpha in [log 1e-3, log 50], log beta in [log 1e-2, log 1e5].

**Scoring.** Against least squares, beta_eb, zi_beta and passcurve's default rule (``auto3``: paired inverse-MSE
weights from a self-backtest of 10 thinnings to a tenth) on the same data; the candidates enter the same rule as a
fourth candidate (``auto4`` with "link", ``auto4f`` with "link_fixed"), the self-backtest thinning *every* model at
once (the link candidates see the thinned reference). (a) First, simulated multi-model benchmarks with known truth
(``passcurve.simulate``, a Gaussian copula of Beta / zero-inflated Beta marginals, not the candidate's model): the
four demo models and the ladder of five hard Betas with and without 10% impossible problems
(``backtest_irt_candidate.SETS``), correlation 0.6 and 0.9, 128 problems, m = 100 -> 10^3 and m = 1000 -> 10^4.
(b) Then Pythia (every model thinned with the same draws; truth: the full data's unbiased pass@K), m = 100 ->
10^3, 100 -> 10^4, 1000 -> 10^4. Reported per row: median and mean absolute error, mean error (points), and a
bootstrap 90% interval (2,000 resamples of the runs) of the difference in median absolute error.

**Adoption rule (fixed before scoring).** Propose ``auto4`` (with "link") only if it improves ``auto3`` on the
simulated benchmarks at both m, does not worsen ``auto3`` on Pythia m = 1000 -> 10^4, and beats least squares on
Pythia m = 100 -> 10^3 (medians of absolute error).

Run:  PYTHONPATH=src python benchmarks/backtest_link_candidate.py [--seeds 10] [--sim-seeds 2] [--rng 0]
      [--part sim|pythia|all] [--save FILE]

Result (added after scoring; the design above is unchanged): not adopted. docs/forecasting.md, "Candidate 22".
"""

from __future__ import annotations

import argparse
import pickle
import time
import warnings

import numpy as np
from backtest_combination import combine_paired, predict_candidates
from backtest_irt_candidate import simulated_runs
from backtest_pythia import DATA, as_matrix, load, pass_at_columns, thin_columns
from scipy import optimize, special, stats

_EDGES = np.arange(-23.9, 8.0, 0.2)  # inner cell edges in logit p; cells: (-inf, e0], ..., (e_last, inf)
_U = np.r_[_EDGES[0] - 0.1, (_EDGES[:-1] + _EDGES[1:]) / 2, _EDGES[-1] + 0.1]  # cell midpoints
_LP, _L1P = -np.logaddexp(0, -_U), -np.logaddexp(0, _U)  # log p, log(1 - p) at the midpoints
_PE = special.expit(_EDGES)
MIN_OVERLAP = 10
LEVEL = 0.05


def _log_cells(alpha: float, beta: float) -> np.ndarray:
    """log Beta(alpha, beta) mass of each logit cell (exact CDF differences; the end cells take the tails)."""
    cdf = special.betainc(alpha, beta, _PE)
    mass = np.diff(np.r_[0.0, cdf, 1.0])
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(mass, 1e-300))


def _log_binom_grid(n: np.ndarray, c: np.ndarray) -> np.ndarray:
    """log Binomial(c | n, p(u)) on the grid without C(n, c): problems x grid."""
    return c[:, None] * _LP[None, :] + (n - c)[:, None] * _L1P[None, :]


def _kernel(a: float, b: float, s: float, u: np.ndarray, w: np.ndarray) -> np.ndarray:
    """N(w; a + b u, s^2) normalised over the whole w grid (rows: u, columns: the w values kept)."""
    lk = -0.5 * ((_U[None, :] - a - b * u[:, None]) / s) ** 2
    lk -= special.logsumexp(lk, axis=1, keepdims=True)
    return np.exp(lk[:, w])


def _log_evidence(lr: np.ndarray, a: float, b: float, s: float, u: np.ndarray = _U,
                  w: np.ndarray | slice = slice(None)) -> np.ndarray:
    """log P(c_ir | u) up to a per-problem constant: problems x u (lr: r's log binomial on the w grid, restricted
    to the columns w; a numerical shortcut for the fit, which drops w where every problem's likelihood is
    below e^-40 of its maximum)."""
    mx = lr.max(axis=1, keepdims=True)
    return np.log(np.maximum(np.exp(lr[:, w] - mx) @ _kernel(a, b, s, u, w).T, 1e-300)) + mx


def _fit_link(lpost: np.ndarray, lr: np.ndarray, x0: np.ndarray, free_b: bool) -> tuple[np.ndarray, float]:
    """(a, b, s) maximising sum_i log sum_u post_i(u) P(c_ir | u); b = 0 when not free_b. Returns (params, loglik)."""

    ucol = (lpost > -40).any(axis=0)  # u cells where some problem's posterior is not negligible
    wcol = np.flatnonzero((lr - lr.max(axis=1, keepdims=True) > -40).any(axis=0))
    lp, uu = lpost[:, ucol], _U[ucol]

    def nll(t: np.ndarray) -> float:
        a, b, s = (t[0], t[1], t[2]) if free_b else (t[0], 0.0, t[1])
        return float(-special.logsumexp(lp + _log_evidence(lr, a, b, s, uu, wcol), axis=1).sum())

    if free_b:
        starts, bounds = [x0], [(-15, 15), (-1, 3), (0.2, 5)]
    else:
        starts, bounds = [np.array([x0[0], x0[2]])], [(-15, 15), (0.2, 5)]
    best = None
    for st in starts:
        r = optimize.minimize(nll, st, method="L-BFGS-B", bounds=bounds)
        if best is None or r.fun < best.fun:
            best = r
    assert best is not None
    t = best.x
    return (np.array([t[0], t[1], t[2]]) if free_b else np.array([t[0], 0.0, t[1]])), -float(best.fun)


def _grid_forecast(lprior: np.ndarray, lj: np.ndarray, lev: np.ndarray, K: int) -> float:
    lpost = lprior[None, :] + lj + lev
    lpost -= special.logsumexp(lpost, axis=1, keepdims=True)
    fK = -np.expm1(K * _L1P)
    return float((np.exp(lpost) @ fK).mean())


def link_forecast(N: np.ndarray, C: np.ndarray, j: int, K: int) -> tuple[float, float, bool]:
    """("link", "link_fixed", link used?) for target model j (N, C: problems x models)."""
    n, c = N[:, j], C[:, j]
    from passcurve._forecast import _Candidate

    eb = _Candidate("beta_eb", n, c, None)
    fallback = float(eb.predict(np.array([float(K)]))[0])
    others = [k for k in range(N.shape[1]) if k != j]
    r = max(others, key=lambda k: ((C[:, k] > 0).sum(), C[:, k].sum()))
    ov = c > 0
    if ov.sum() < MIN_OVERLAP:
        return fallback, fallback, False
    al, be = float(eb.fit_.params_["alpha"]), float(eb.fit_.params_["beta"])
    lprior = _log_cells(al, be)
    lj = _log_binom_grid(n, c)
    lr = _log_binom_grid(N[:, r], C[:, r])
    lpost = lprior[None, :] + lj[ov]
    lpost -= special.logsumexp(lpost, axis=1, keepdims=True)
    emp = lambda nn, cc: np.log((cc + 0.5) / (nn - cc + 0.5))  # noqa: E731
    x0 = np.array([float(np.median(emp(N[ov, r], C[ov, r]) - emp(n[ov], c[ov]))), 1.0, 1.0])
    x0[0] = np.clip(x0[0], -14.9, 14.9)
    th1, l1 = _fit_link(lpost, lr[ov], x0, True)
    _, l0 = _fit_link(lpost, lr[ov], x0, False)
    if th1[1] <= 0 or stats.chi2.sf(max(2 * (l1 - l0), 0.0), 1) >= LEVEL:
        return fallback, fallback, False
    lev = _log_evidence(lr, *th1)
    fixed = _grid_forecast(lprior, lj, lev, K)

    def nll(t: np.ndarray) -> float:
        return float(-special.logsumexp(_log_cells(*np.exp(t))[None, :] + lj + lev, axis=1).sum())

    res = optimize.minimize(nll, np.log([al, be]), method="L-BFGS-B",
                            bounds=[(np.log(1e-3), np.log(50.0)), (np.log(1e-2), np.log(1e5))])
    refit = _grid_forecast(_log_cells(*np.exp(res.x)), lj, lev, K)
    return refit, fixed, True


def joint_predict(N: np.ndarray, C: np.ndarray, K: int) -> tuple[np.ndarray, np.ndarray]:
    """models x [least_squares, beta_eb, zi_beta, link, link_fixed], and whether each model's link was used."""
    rows, used = [], []
    for j in range(N.shape[1]):
        lk, lf, u = link_forecast(N, C, j, K)
        rows.append(np.r_[predict_candidates(N[:, j], C[:, j], K), lk, lf])
        used.append(u)
    return np.array(rows), np.array(used)


def joint_cv(N: np.ndarray, C: np.ndarray, gen: np.random.Generator, R: int = 10, factor: int = 10) -> np.ndarray:
    """The self-backtest with every model thinned at once: R x models x 5 errors in forecasting pass@m."""
    m = int(N.min())
    truth = pass_at_columns(N, C, m)
    return np.array([joint_predict(*thin_columns(N, C, max(m // factor, 1), gen), m)[0] - truth[:, None]
                     for _ in range(R)])


COLS = ("least squares", "beta_eb", "zi_beta", "link", "link_fixed", "auto3 (default)", "auto4 (+ link)",
        "auto4f (+ link_fixed)")


def score(pred: np.ndarray, cv: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """models x COLS signed errors in points."""
    rows = []
    for j in range(pred.shape[0]):
        p, E = pred[j], cv[:, j, :]
        combos = []
        for idx in ([0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 4]):
            Ej = E[:, idx]
            combos.append(combine_paired(p[idx], Ej[np.isfinite(Ej).all(1)], False))
        rows.append((np.r_[p, combos] - truth[j]) * 100)
    return np.array(rows)


def _ci(a: np.ndarray, b: np.ndarray, gen: np.random.Generator) -> str:
    idx = gen.integers(0, len(a), (2000, len(a)))
    d = np.median(np.abs(a[idx]), 1) - np.median(np.abs(b[idx]), 1)
    lo, hi = np.percentile(d, [5, 95])
    return f"{np.median(np.abs(a)) - np.median(np.abs(b)):+.2f} [{lo:+.2f}, {hi:+.2f}]"


def report(rows: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    gen = np.random.default_rng(12345)
    print("\nmedian absolute error, points (mean absolute error; mean error)")
    print("| data, m → K | runs | link used | " + " | ".join(COLS) + " |")
    print("|---" * (len(COLS) + 3) + "|")
    for title, (A, used) in rows.items():
        cells = " | ".join(f"{np.nanmedian(np.abs(A[:, i])):.2f} ({np.nanmean(np.abs(A[:, i])):.2f}; "
                           f"{np.nanmean(A[:, i]):+.2f})" for i in range(len(COLS)))
        print(f"| {title} | {len(A)} | {used.mean():.0%} | {cells} |")
    print("\ndifferences of median absolute error, points [bootstrap 90% interval]")
    print("| data, m → K | auto4 − least squares | auto4 − auto3 | link − least squares | link − auto3 "
          "| auto4f − least squares | auto4f − auto3 |")
    print("|---" * 7 + "|")
    for title, (A, _) in rows.items():
        A = np.where(np.isfinite(A), A, A[:, [1]])  # an undefined least squares counts as the Beta's forecast
        pairs = ((6, 0), (6, 5), (3, 0), (3, 5), (7, 0), (7, 5))
        print(f"| {title} | " + " | ".join(_ci(A[:, i], A[:, k], gen) for i, k in pairs) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=10, help="Pythia thinnings per design")
    ap.add_argument("--sim-seeds", type=int, default=2, help="simulated benchmarks per set and correlation")
    ap.add_argument("--rng", type=int, default=0)
    ap.add_argument("--part", choices=("sim", "pythia", "all"), default="all")
    ap.add_argument("--save", default=None, help="pickle the per-run errors here")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    gen = np.random.default_rng(args.rng)
    t0 = time.time()
    rows: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if args.part in ("sim", "all"):
        for m, K in ((100, 1000), (1000, 10000)):
            A, U = [], []
            for N, C, truth in simulated_runs(m, K, args.sim_seeds, gen):
                pred, used = joint_predict(N, C, K)
                A.extend(score(pred, joint_cv(N, C, gen), truth))
                U.extend(used)
            rows[f"simulated, m = {m} → {K}"] = (np.array(A), np.array(U))
            print(f"simulated m = {m} done ({time.time() - t0:.0f} s)", flush=True)
    if args.part in ("pythia", "all"):
        _, Nf, Cf = as_matrix(load(DATA))
        for m, K in ((100, 1000), (100, 10000), (1000, 10000)):
            truth = pass_at_columns(Nf, Cf, K)
            A, U = [], []
            for _ in range(args.seeds):
                N, C = thin_columns(Nf, Cf, m, gen)
                pred, used = joint_predict(N, C, K)
                A.extend(score(pred, joint_cv(N, C, gen), truth))
                U.extend(used)
            rows[f"Pythia, m = {m} → {K}"] = (np.array(A), np.array(U))
            print(f"Pythia m = {m} → {K} done ({time.time() - t0:.0f} s)", flush=True)
    report(rows)
    print(f"({time.time() - t0:.0f} s)")
    if args.save:
        with open(args.save, "wb") as fh:
            pickle.dump(rows, fh)


if __name__ == "__main__":
    main()
