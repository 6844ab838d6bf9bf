"""CLI: passcurve fit / forecast / backtest on a simulated counts file and the shared data."""

from __future__ import annotations

import json
import math
import re
import time

import numpy as np
import pytest
from conftest import run_cli, shared_file

import passcurve
from passcurve.data import write_counts


@pytest.fixture(scope="module")
def sim_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("fc") / "sim.csv"
    bench = passcurve.simulate(problems=120, n=200, models=passcurve.DEMO_MODELS[:2], rng=3)
    write_counts(bench.counts, path)
    return path


def test_forecast_json_shape(icli, sim_csv):
    r = icli("forecast", str(sim_csv), "--k", "1000,10000", "--json", "--n-resamples", "10", "--target", "0.8")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert len(d["forecasts"]) == 4
    for row in d["forecasts"]:
        assert set(row) == {"model", "k", "pass_at_k", "low", "high", "method", "observed"}
        assert row["low"] <= row["pass_at_k"] <= row["high"]
        assert row["observed"] is None  # K beyond the 200 samples drawn
    assert {f["model"] for f in d["fits"]} == {"tiny-1b", "base-7b"}
    assert len(d["k_for"]) == 2


def test_forecast_leaves_out_only_the_models_it_cannot_forecast(icli, tmp_path):
    # one model with one sample per problem beside one with 200: the second is forecast exactly as when read
    # alone; the first is named in a one-line warning (only the mean is identified); alone it is refused (exit 2)
    bench = passcurve.simulate(problems=60, n=200, models=passcurve.DEMO_MODELS[:1], rng=4)
    g = np.random.default_rng(0)
    one = passcurve.Counts.from_arrays(np.ones(60, int), g.binomial(1, 0.3, 60), model="single")
    path = tmp_path / "mixed.csv"
    both = passcurve.Counts.from_arrays(np.r_[bench.counts.n, one.n], np.r_[bench.counts.c, one.c],
                                        model=[bench.counts.models[0]] * 60 + ["single"] * 60)
    write_counts(both, path)
    args = ["--k", "1000", "--json", "--n-resamples", "10"]
    r = icli("forecast", str(path), *args)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert [f["model"] for f in d["forecasts"]] == [bench.counts.models[0]]
    assert any("left out: model 'single': every problem has one sample" in w for w in d["warnings"])
    alone = json.loads(icli("forecast", str(path), *args, "--models", bench.counts.models[0]).stdout)
    assert alone["forecasts"] == d["forecasts"]
    bad = icli("forecast", str(path), *args, "--models", "single")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "one sample" in bad.stderr


def test_fit_table_and_json(icli, sim_csv):
    r = icli("fit", str(sim_csv), "--model", "beta,zi_beta")
    assert r.returncode == 0, r.stderr
    assert "tiny-1b" in r.stdout and "least squares a=" in r.stdout
    r = icli("fit", str(sim_csv), "--model", "beta", "--json")
    d = json.loads(r.stdout)
    assert d["fits"][0]["difficulty_model"] == "beta" and "goodness_of_fit" in d["fits"][0]
    assert len(d["power_law"]["power_laws"]) == 2
    # "model" is the benchmark model in every record, as in flags, power_laws and every other command (fits[].model
    # was the law's name and the benchmark model was "benchmark_model"); the keys are those of to_frame()
    assert [f["model"] for f in d["fits"]] == [p["model"] for p in d["power_law"]["power_laws"]] == ["tiny-1b", "base-7b"]
    assert "benchmark_model" not in d["fits"][0]
    frame = passcurve.fit_difficulty(passcurve.read_counts(sim_csv), model="beta").to_frame()
    assert {"model", "difficulty_model"} <= set(frame.columns) and {"model", "difficulty_model"} <= set(d["fits"][0])


def test_fit_legend_explains_every_column(icli, sim_csv):
    # the legend above the fit tables named tail, P(p=0), GOF p and ΔAIC but not the "ok" column
    r = icli("fit", str(sim_csv), "--model", "beta", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    legend = r.stdout.splitlines()[0]
    for col in ("tail:", "P(p=0):", "GOF p:", "ΔAIC", "ok: the fit converged"):
        assert col in legend, legend
    # nor the title's least-squares a, b and R² (the -log pass@k ≈ a·k^(-b) of fit_power_law's docstring)
    assert "least squares a=" in r.stdout.splitlines()[1]
    assert "least squares a, b: the power law -log pass@k ≈ a·k^(-b)" in legend and "R²: " in legend, legend


def test_fit_tail_and_impossible_columns_have_one_notation(icli, tmp_path):
    # on the demo data (passcurve simulate), tiny-1b's tail column read 0.17 / 0.212 / 0.164 / 0.23 (each cell's
    # .3g) beside parameter lines saying alpha=0.1701, alpha=0.2121; each column now has one number of decimals and
    # each cell is the JSON's tail_exponent / impossible_mass rounded to it (reference: the same run's --json),
    # a mass below 1e-6 (a boundary estimate) written 0
    path = tmp_path / "demo.csv"
    assert icli("simulate", "-o", str(path)).returncode == 0
    r = icli("fit", str(path), "--models", "tiny-1b", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    fits = {f["difficulty_model"]: f for f in json.loads(icli("fit", str(path), "--models", "tiny-1b",
                                                              "--json").stdout)["fits"]}
    rows = {ln.split()[0]: ln.split() for ln in r.stdout.splitlines() if ln.split() and ln.split()[0] in fits}
    assert len(rows) == len(fits) == 5
    for col, key in ((4, "tail_exponent"), (5, "impossible_mass")):
        cells = {name: row[col] for name, row in rows.items() if row[col] not in ("-", "0")}
        assert len(cells) >= 2 and len({len(c.split(".")[1]) for c in cells.values()}) == 1, cells
        for name, row in rows.items():
            v = fits[name][key]
            if row[col] == "0":
                assert key == "impossible_mass" and abs(v) < 1e-6, (name, v)
            elif row[col] != "-":
                dec = len(row[col].split(".")[1])
                assert abs(float(row[col]) - v) <= 0.5 * 10.0**-dec + 1e-12, (name, row[col], v)


def test_fit_tail_column_writes_a_small_alpha_as_the_parameter_line_does(icli, tmp_path):
    # a column's smallest value kept 2 significant digits, 4 decimals here: Pythia 70M's tail read 0.0650 beside its
    # parameter line's alpha=0.06504 (the same number). The tail and P(p=0) columns now keep the lines' 4 significant
    # digits for their smallest value (number_format's figures=4): a Beta's tail is its alpha, written alike.
    # 200 problems, p ~ Beta(0.07, 100) drawn with seed 0, n = 1000 (the Beta fit: alpha about 0.061)
    rng = np.random.default_rng(0)
    c = rng.binomial(1000, rng.beta(0.07, 100, 200))
    path = tmp_path / "low_alpha.csv"
    path.write_text("model,problem_id,n,c\n" + "".join(f"m,p{i},1000,{x}\n" for i, x in enumerate(c)))
    r = icli("fit", str(path), "--model", "beta,zi_beta,scaled_beta", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    for name in ("beta", "zi_beta", "scaled_beta"):
        tail = next(ln.split()[4] for ln in lines if ln.split()[:1] == [name])
        alpha = re.search(r"alpha=([0-9.]+)", next(ln for ln in lines if ln.startswith(f"  {name}: "))).group(1)
        assert float(alpha) < 0.1 and tail == alpha, (name, tail, alpha)


def test_fit_says_which_parameters_are_at_a_bound_or_not_identified(icli, tmp_path):
    # three under-dispersed problems (1, 2, 3 of 20): the Beta's concentration runs away (its likelihood rises
    # toward the binomial's as alpha, beta -> inf at a fixed mean, because a beta-binomial is never less dispersed
    # than a binomial), so its parameters have no standard error, and the table says why instead of printing them
    # bare; the zero-inflated Beta's impossible mass sits at its bound
    path = tmp_path / "tiny.csv"
    path.write_text("problem,n,c\na,20,1\nb,20,2\nc,20,3\n")
    r = icli("fit", str(path), "--model", "beta,zi_beta")
    assert r.returncode == 0, r.stderr
    line = {ln.split(":")[0].strip(): ln for ln in r.stdout.splitlines() if ln.startswith("  beta:") or
            ln.startswith("  zi_beta:")}
    assert line["beta"].count("(not identified)") == 2
    assert "impossible=" in line["zi_beta"] and "(at its bound)" in line["zi_beta"]
    # the parameter line shows the bound, as the table's P(p=0) does (it read 'impossible=1.974e-07 (at its bound)'
    # beside a P(p=0) of 0); --json keeps the optimiser's value (nonzero, below the 1e-6 that makes it a boundary)
    assert "impossible=0 (at its bound)" in line["zi_beta"], line["zi_beta"]
    row = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith("zi_beta ")).split()
    assert row[5] == "0", row  # model, log-lik, AIC, ΔAIC, tail, P(p=0)
    dz = json.loads(icli("fit", str(path), "--model", "zi_beta", "--json").stdout)["fits"][0]
    assert dz["boundary"] == ["impossible"] and 0 < dz["params"]["impossible"] < 1e-6
    d = json.loads(icli("fit", str(path), "--model", "beta", "--json").stdout)
    assert d["fits"][0]["unidentified"] == ["alpha", "beta"] and d["fits"][0]["se"] == {"alpha": None, "beta": None}
    # an unidentified parameter's value is wherever the optimiser stopped on the flat likelihood (alpha = 1.1e+07
    # here, a mixture's alpha1 = 2.4e+61), printed as if estimated: the table shows "—", says why under the
    # parameters, and leaves the tail (the Beta's alpha) blank; --json keeps the raw value
    assert line["beta"].strip() == "beta: alpha=— (not identified), beta=— (not identified)"
    assert "e+" not in line["zi_beta"].split("impossible=")[1].split(",", 1)[1], line["zi_beta"]
    assert any(ln.startswith("  —: not identified") for ln in r.stdout.splitlines())
    row = next(ln.split() for ln in r.stdout.splitlines() if ln.strip().startswith("beta "))
    assert row[4] == "-", row  # model, log-lik, AIC, ΔAIC, tail
    assert d["fits"][0]["params"]["alpha"] > 1e5 and d["fits"][0]["tail_exponent"] == d["fits"][0]["params"]["alpha"]
    # an identified fit prints its estimates and no such note
    ok = tmp_path / "ok.csv"
    ok.write_text("problem,n,c\n" + "".join(f"p{i},20,{c}\n" for i, c in enumerate([0, 0, 1, 3, 7, 12, 19, 20])))
    r2 = icli("fit", str(ok), "--model", "beta")
    assert r2.returncode == 0 and "—" not in r2.stdout and "not identified" not in r2.stdout, r2.stdout


def test_fit_and_backtest_tables_fit_in_80_columns(icli, sim_csv):
    # a standard terminal: every model name and every number is printed whole (rich cuts cells with "…")
    r = icli("fit", str(sim_csv), env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout, r.stdout
    for name in ("beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle"):
        assert f"  {name} " in r.stdout and f"  {name}: " in r.stdout  # its table row and its parameters
    r = icli("backtest", str(sim_csv), "--m", "20", "--k", "200", "--seeds", "1", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout and "least_squares" in r.stdout, r.stdout


def test_backtest_table_prints_two_digit_biases_whole_in_80_columns(icli, tmp_path):
    # BoN-like errors of more than 10 points (a bias of -13.64 with m = 1000 and k = 10000) were cut to "-13.…"
    # at 80 columns; every number must be printed whole
    rng = np.random.default_rng(5)
    p = np.where(rng.random(60) < 0.5, 0.0, rng.beta(0.08, 1.0, 60))
    n = np.full(60, 10_000)
    path = tmp_path / "heavy.csv"
    write_counts(passcurve.Counts.from_arrays(n, rng.binomial(n, p), model=np.full(60, "a-model")), path)
    r = icli("backtest", str(path), "--m", "100,1000", "--k", "10000", "--seeds", "1", "--methods",
             "least_squares,beta", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout, r.stdout
    d = json.loads(icli("backtest", str(path), "--m", "100,1000", "--k", "10000", "--seeds", "1", "--methods",
                        "least_squares,beta", "--json").stdout)
    for row in d["summary"]:
        assert f"{100 * row['mean_error']:+.2f}" in r.stdout and f"{100 * row['mean_width']:.2f}" in r.stdout


def test_backtest_table_keeps_small_errors_visible(icli, tmp_path):
    # the table printed every column at 2 fixed decimals: on easy problems (pass@1000 near 1) an error of 0.0067
    # points read "0.00", a bias "-0.00", beside a width of 1.55. Each column now has one notation (column_fmt, at
    # least 2 decimals): the smallest nonzero value of a column keeps two significant digits
    rng = np.random.default_rng(1)
    n = np.full(60, 2000)
    path = tmp_path / "easy.csv"
    write_counts(passcurve.Counts.from_arrays(n, rng.integers(30, 1500, 60), model=np.full(60, "m")), path)
    args = ("backtest", str(path), "--m", "100", "--k", "1000", "--seeds", "2", "--methods", "least_squares,beta",
            "--n-resamples", "20")
    r = icli(*args, env={"COLUMNS": "120"})
    assert r.returncode == 0, r.stderr
    summary = json.loads(icli(*args, "--json").stdout)["summary"]
    keys = ("median_abs_error", "mean_abs_error", "mean_error", "coverage", "mean_width")
    cells = {row.split("│")[3].strip(): [c.strip() for c in row.split("│")[5:10]]
             for row in r.stdout.splitlines() if "│" in row and ("least_squares" in row or " beta " in row)}
    assert len(cells) == 2, r.stdout
    smallest = min(abs(100 * row["mean_error"]) for row in summary)
    assert smallest < 0.05, summary  # the case: an error that 2 decimals round to 0.00
    for row in summary:
        got = cells[row["method"]]
        for key, cell in zip(keys, got, strict=True):
            value = row[key] * (1 if key == "coverage" else 100)
            assert float(cell) == pytest.approx(value, rel=0.05), (key, cell, value)  # >= 2 significant digits
            assert float(cell) != 0
        assert got[2].startswith("+" if row["mean_error"] > 0 else "-")
        # one notation per column: as many decimals in each row
    assert len({tuple(len(c.split(".")[1]) for c in got) for got in cells.values()}) == 1, cells


def test_fit_gof_p_column_has_one_notation(icli, tmp_path):
    # GOF p was written cell by cell at 4 significant digits: '0.0001886' above '6.123e-05' in one column. Now one
    # notation per model's table (column_fmt): here fixed point with the decimals 6.1e-05 needs for two digits
    rng = np.random.default_rng(3)
    p = np.where(rng.random(150) < 0.5, rng.beta(1, 12, 150), rng.beta(8, 4, 150))  # two humps: beta fits badly
    n = np.full(150, 50)
    path = tmp_path / "bimodal.csv"
    write_counts(passcurve.Counts.from_arrays(n, rng.binomial(n, p), model=np.full(150, "m")), path)
    r = icli("fit", str(path), env={"COLUMNS": "100"})
    assert r.returncode == 0, r.stderr
    fits = {e["difficulty_model"]: e
            for e in json.loads(icli("fit", str(path), "--json").stdout)["fits"]}
    rows = {line.split()[0]: line.split() for line in r.stdout.splitlines()
            if line.split() and line.split()[0] in fits}
    gof = {name: row[6] for name, row in rows.items()}
    shown = {name: cell for name, cell in gof.items() if cell != "-"}
    assert len(shown) >= 3 and not any("e" in cell for cell in shown.values()), gof
    assert len({len(cell.split(".")[1]) for cell in shown.values()}) == 1, gof
    for name, cell in shown.items():
        assert float(cell) == pytest.approx(fits[name]["goodness_of_fit"]["p_value"], rel=0.05), (name, cell)
    assert min(float(cell) for cell in shown.values()) < 1e-4  # the case that printed e-notation


def test_backtest_cli(icli, sim_csv):
    r = icli("backtest", str(sim_csv), "--m", "20", "--k", "200", "--seeds", "1", "--methods", "beta",
             "--n-resamples", "5", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["summary"][0]["method"] == "beta" and d["summary"][0]["runs"] == 2
    # the table's title says where 'runs' comes from: 1 seed × 2 models = the 2 runs (the title said '1 seed(s)')
    t = icli("backtest", str(sim_csv), "--m", "20", "--k", "200", "--seeds", "1", "--methods", "beta",
             "--n-resamples", "5", env={"COLUMNS": "200"})
    assert t.returncode == 0, t.stderr
    assert "backtest: 1 seed(s) × 2 models (runs: the forecasts each row summarises)" in t.stdout, t.stdout
    row = next(ln for ln in t.stdout.splitlines() if " beta " in ln).replace("│", " ").split()
    assert row[:4] == ["20", "200", "beta", "2"], row


def test_backtest_says_when_problems_keeps_every_problem(icli, sim_csv):
    # --problems 500 on a file of 120 problems per model ran on all 120 in every seed and said nothing; a fraction,
    # or a count below the model's, draws a subset without a word
    args = ["--m", "20", "--k", "200", "--seeds", "2", "--methods", "beta", "--n-resamples", "5", "--json"]
    d = json.loads(icli("backtest", str(sim_csv), *args, "--problems", "500").stdout)
    said = [w for w in d["warnings"] if "(--problems)" in w]
    assert said == ["DegenerateDataWarning: models 'tiny-1b', 'base-7b': problems=500 (--problems) is not fewer than "
                    "the 120 problems there: all are kept, the same in every seed"], d["warnings"]
    assert {r["problems"] for r in d["runs"]} == {120}
    for sub in ("0.5", "60"):
        d = json.loads(icli("backtest", str(sim_csv), *args, "--problems", sub).stdout)
        assert not [w for w in d["warnings"] if "(--problems)" in w] and {r["problems"] for r in d["runs"]} == {60}


def test_bad_input_exit_2(icli, sim_csv):
    r = run_cli("forecast", str(sim_csv), "--k", "10", "--method", "magic")  # a subprocess: the interpreter's exit code
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "`--method`" in r.stderr
    r = icli("backtest", str(sim_csv), "--m", "500", "--k", "1000")
    assert r.returncode == 2 and "no (m, k) pair" in r.stderr


@pytest.mark.shared_data
def test_forecast_on_bon_warns_stopping_time(icli):
    r = icli("forecast", str(shared_file("bon_jailbreaking_counts.csv")), "--k", "20000", "--method", "beta",
             "--n-resamples", "0", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert any("StoppingTimeWarning" in w for w in d["warnings"])
    assert any("NoHeavyTailWarning" in w and "Llama" in w for w in d["warnings"])


def test_backtest_without_a_pair_names_the_stopping_design(icli, tmp_path):
    # BoN jailbreaking without a design: 'no (m, k) pair with m < k <= 60 ...; choose `--k` <= 60', the real fix
    # (the stop-at-success design, named in the StoppingTimeWarning above it) said nowhere in the error. The hand
    # file of test_stopping_time_advice_names_the_batch_and_the_cap (batches of 60, cap 250; smallest n 60): under
    # the design every problem is estimable to k = 250 (the cap; _observed_limit)
    n = [60, 120, 60, 180, 120, 60, 240, 60, 250, 250, 250]
    c = [1, 2, 1, 1, 1, 3, 1, 1, 0, 0, 0]
    path = tmp_path / "stopped.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},{a},{b}\n" for i, (a, b) in enumerate(zip(n, c, strict=True))))
    tail = ("or, as n looks like a stopping time here (the StoppingTimeWarning), run under the stop-at-success design "
            "(k to 250): `--stop-batch 60 --cap 250` (design=StopAtSuccess(60, 250) in Python)")
    r = icli("backtest", str(path))
    err = r.stderr.splitlines()[-1]
    assert r.returncode == 2 and err.startswith("passcurve: error: no (m, k) pair with m < k <= 60 (the smallest n); "
                                                "choose `--m` below `--k` and `--k` <= 60, " + tail), r.stderr
    with pytest.warns(passcurve.StoppingTimeWarning):
        counts = passcurve.read_counts(path)
    with pytest.raises(passcurve.PasscurveError) as got:
        passcurve.backtest(counts)
    assert str(got.value).endswith(tail)
    # followed, it runs; with the design given, or on counts without the evidence, the error stays as it was
    r = icli("backtest", str(path), "--m", "60", "--k", "120,250", "--seeds", "1", "--methods", "beta", "--stop-batch",
             "60", "--cap", "250")
    assert r.returncode == 0, r.stderr
    with pytest.raises(passcurve.PasscurveError) as got:
        passcurve.backtest(counts, m=300, k=400, design=passcurve.StopAtSuccess(60, 250))
    assert "stop-at-success" not in str(got.value)
    plain = passcurve.Counts.from_arrays(np.array(n), np.array(c))
    with pytest.raises(passcurve.PasscurveError) as got:
        passcurve.backtest(plain)
    assert str(got.value).endswith("choose `m` below `k` and `k` <= 60")


@pytest.mark.shared_data
def test_backtest_on_bon_without_a_design_names_it(icli):
    r = icli("backtest", str(shared_file("bon_jailbreaking_counts.csv")))
    assert r.returncode == 2
    assert r.stderr.splitlines()[-1].endswith("`--stop-batch 60 --cap 10020` (design=StopAtSuccess(60, 10020) in Python)")

def test_backtest_without_any_success_reports_no_runs_not_misses(icli, tmp_path):
    # every problem c = 0: least squares has no finite point (log(-log 0)), so it makes no forecast;
    # that is 0 runs and no coverage, not a 0% coverage (and the table must not crash on it)
    p = tmp_path / "zero.csv"
    p.write_text("problem_id,n,c\n" + "".join(f"p{i},10,0\n" for i in range(8)))
    r = icli("backtest", str(p), "--m", "2", "--k", "5", "--seeds", "1", "--json")
    assert r.returncode == 0, r.stderr
    ls = next(s for s in json.loads(r.stdout)["summary"] if s["method"] == "least_squares")
    assert ls["runs"] == 0 and ls["coverage"] is None and ls["median_abs_error"] is None
    r = icli("backtest", str(p), "--m", "2", "--k", "5", "--seeds", "1")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "least_sq" in r.stdout and "—" in r.stdout


def test_huge_n_forecasts_or_names_the_limit(icli, tmp_path):
    # n = 10^7: the curve's log-spaced grid is evaluated in closed form (it used to take 35 s);
    # n = 2·10^9 with c = 0: the self-backtest cannot thin it, and says why in one line
    big = tmp_path / "big.csv"
    big.write_text("model,problem_id,n,c\n" + "".join(f"m,p{i},10000000,{(i * 7919) % 40_000}\n" for i in range(40)))
    start = time.monotonic()
    r = icli("forecast", str(big), "--k", "100000000", "--json")
    assert time.monotonic() - start < 120  # the subprocess's timeout had been 120 s
    assert r.returncode == 0, r.stderr
    f = json.loads(r.stdout)["forecasts"][0]
    assert 0 < f["low"] <= f["pass_at_k"] <= f["high"] <= 1
    huge = tmp_path / "huge.csv"
    huge.write_text("model,problem_id,n,c\nm,a,2000000000,0\nm,b,2000000000,5\nm,c,2000000000,7\n")
    r = icli("forecast", str(huge), "--k", "1000")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "cannot thin n=2000000000 samples (c=0)" in r.stderr


def test_forecast_legend_names_the_columns_as_the_title_does(icli, sim_csv):
    # the title's weights read 'least_squares 0.33' (--method's values) and the columns 'least squares': the legend
    # said the columns were named as --method's values. It now says how: each column is a value with spaces for '_'
    from passcurve._forecast import AUTO_CANDIDATES

    r = icli("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "0")
    assert r.returncode == 0, r.stderr
    assert "named as --method's values with spaces for '_'" in r.stdout
    for cand in AUTO_CANDIDATES:
        assert f"{cand} 0." in r.stdout and cand.replace("_", " ") in r.stdout


def test_forecast_shows_the_observed_value_within_the_samples(icli, sim_csv):
    # K = 100 <= n = 200: the table is followed by the data's own unbiased estimate, computed as
    # `passcurve curve` computes it, and k_for says where the observed curve reaches the target
    r = icli("forecast", str(sim_csv), "--k", "100,10000", "--n-resamples", "0", "--target", "0.3")
    assert r.returncode == 0, r.stderr
    cur = json.loads(icli("curve", str(sim_csv), "--k", "100", "--json").stdout)
    assert len(cur["models"]) == 2
    for m in cur["models"]:
        assert f"pass@100 = {m['curve'][0]['pass_at_k']:.4f}" in r.stdout
    assert r.stdout.count("within the samples drawn, the data's own estimate (no model): pass@100 = ") == 2
    assert "observed in the data at k = " in r.stdout
    # the K needed is a number of samples: the table prints ⌈K⌉ of the JSON's continuous root and of its interval
    # ends, not '182.9 (80% interval 132 .. 266.3)' (reference: math.ceil of the same run's JSON numbers)
    d = json.loads(icli("forecast", str(sim_csv), "--k", "100,10000", "--n-resamples", "0", "--target", "0.3",
                        "--json").stdout)
    for kf in d["k_for"]:
        ends = " .. never" if kf["high"] is None else f" .. {math.ceil(kf['high']):,}"
        assert f"at K ≈ {math.ceil(kf['k']):,} (80% interval {math.ceil(kf['low']):,}{ends}" in r.stdout


def test_forecast_bounds_json_and_table(icli, sim_csv):
    # --bounds adds each model's range over every difficulty law the data allow, at the forecast's level;
    # the same numbers as the library's, on the band the forecast was tempered with (ForecastResult.bounds)
    args = ["--k", "100,1000", "--n-resamples", "10", "--bounds"]
    r = icli("forecast", str(sim_csv), *args, "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert len(d["bounds"]) == 4
    fc = passcurve.forecast(passcurve.read_counts(sim_csv), [100, 1000], n_resamples=10, rng=0)
    lib = fc.bounds()
    for row, (lo, hi) in zip(d["bounds"], zip(lib.low.ravel(), lib.high.ravel(), strict=True), strict=True):
        assert row["low"] == pytest.approx(lo, abs=0) and row["high"] == pytest.approx(hi, abs=0)
        assert row["low"] <= row["high"]
    # with --target: the K before which no law the data allow reaches it, beside the forecast's K
    r = icli("forecast", str(sim_csv), *args, "--json", "--target", "0.8")
    d = json.loads(r.stdout)
    floors = {f["model"]: f for f in d["bounds_k_for"]}
    for kf in d["k_for"]:
        if kf["reachable"]:  # the forecast reaches 0.8 where some law the data allow can
            assert floors[kf["model"]]["earliest"] <= kf["k"]
        assert floors[kf["model"]]["earliest"] == lib.k_for(0.8, kf["model"]).earliest
    t = icli("forecast", str(sim_csv), *args, "--target", "0.8")
    assert t.returncode == 0, t.stderr
    assert "is reached by no law the data allow before K" in t.stdout
    assert "any law" in t.stdout and "fits the data's 80% band at k <= n (no model assumed)" in t.stdout


def test_forecast_bounds_line_for_a_target_met_at_the_first_sample(icli, sim_csv):
    # 'is reached by no law the data allow before K ≈ 1' for a target already met at K = 1 (demo large-70b,
    # --target 0.1). base-7b's pass@1 band (80%, rng 0, the forecast's) is [low, high] from the library: a target
    # below low is reached at K = 1 by every law, one between low and high by some law only
    fc = passcurve.forecast(passcurve.read_counts(sim_csv).select_models(["base-7b"]), [1000], n_resamples=5, rng=0)
    lib = fc.bounds([1])
    low, high = lib.low[0, 0], lib.high[0, 0]
    assert lib.models[0] == "base-7b" and 0.02 < low < high - 0.02
    every, some = round(low - 0.01, 2), round((low + high) / 2, 2)
    assert lib.k_for(every, "base-7b").certain == 1 and lib.k_for(some, "base-7b").earliest == 1
    assert lib.k_for(some, "base-7b").certain > 1
    r = icli("forecast", str(sim_csv), "--models", "base-7b", "--k", "1000", "--n-resamples", "5", "--bounds",
             "--target", f"{every},{some}", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    assert f"any law: pass@K = {every:g} is already reached at K = 1 by every law the data allow\n" in r.stdout
    certain = math.ceil(lib.k_for(some, "base-7b").certain)
    assert (f"any law: pass@K = {some:g} is already reached at K = 1 by some law the data allow; every one by "
            f"K ≈ {certain:,}") in r.stdout, r.stdout
    assert "before K ≈ 1;" not in r.stdout


@pytest.mark.shared_data
def test_forecast_bounds_are_on_the_band_the_forecast_is_clipped_to(icli):
    # one command printed two "earliest K any law reaches the target" figures: GPT-4o (BoN, its stop-at-success
    # design) k_for(0.9)'s interval from 4,154, the forecast's clipping to its own any-law band (1,000 replicates),
    # and "no law the data allow before K ≈ 4,070" from bounds drawn anew (2,000 replicates, another stream). The
    # bounds beside a forecast are now on that same band: the clipped ends are the bounds' ends (hand check: the
    # table's 80% interval at K = 1000, [0.6336, 0.7873], is the any-law column's)
    path = shared_file("bon_jailbreaking_counts.csv")
    r = icli("forecast", str(path), "--models", "GPT4o", "--k", "1000,10000", "--target", "0.9", "--bounds",
             "--stop-batch", "60", "--cap", "10020", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    (kf,), (floor,) = d["k_for"], d["bounds_k_for"]
    assert math.ceil(kf["low"]) == math.ceil(floor["earliest"])  # 4,154 both
    for row, any_law in zip(d["forecasts"], d["bounds"], strict=True):
        assert any_law["low"] <= row["low"] <= row["high"] <= any_law["high"]
    t = icli("forecast", str(path), "--models", "GPT4o", "--k", "1000,10000", "--target", "0.9", "--bounds",
             "--stop-batch", "60", "--cap", "10020")
    low = f"{math.ceil(kf['low']):,}"
    assert f"80% interval {low} .. never" in t.stdout and f"no law the data allow before K ≈ {low};" in t.stdout

def test_forecast_target_and_its_any_law_line_write_one_k_one_way(icli):
    # GPT-4o (BoN, its stop-at-success design), pass@K = 0.999: the forecast's line went scientific for its K of
    # 6.60e+11 and wrote its interval from '2.84e+04', and the any-law line under it 'before K ≈ 28,389', the same
    # K (the interval is held to the any-law band). A target's two lines now share one notation (_samples)
    path = shared_file("bon_jailbreaking_counts.csv")
    args = ["forecast", str(path), "--models", "GPT4o", "--k", "1000,10000", "--target", "0.999", "--bounds",
            "--stop-batch", "60", "--cap", "10020"]
    d = json.loads(icli(*args, "--json").stdout)
    (kf,), (floor,) = d["k_for"], d["bounds_k_for"]
    assert kf["k"] >= 1e6 and math.ceil(kf["low"]) == math.ceil(floor["earliest"]) < 1e6
    t = icli(*args, env={"COLUMNS": "200"})
    assert t.returncode == 0, t.stderr
    low = re.search(r"pass@K = 0\.999 at K ≈ \S+ \(80% interval (\S+) \.\.", t.stdout)
    floor_k = re.search(r"pass@K = 0\.999 is reached by no law the data allow before K ≈ (\S+);", t.stdout)
    assert low is not None and floor_k is not None, t.stdout
    assert low.group(1) == floor_k.group(1) == f"{math.ceil(floor['earliest']):.2e}", t.stdout


def test_cli_fit_paper_grid_reproduces_table_2(icli):
    # Schaeffer et al. 2025, Table 2 (BoN jailbreaking, Codex convention): Claude 3.5 Opus a = 2.630, b = 0.448.
    # Without --paper-grid the header fits k <= the smallest n (a = 3.106, b = 0.487), and no option could reach
    # the paper's grid from the command line (difficulty-fits audit)
    path = shared_file("bon_jailbreaking_counts.csv")
    r = icli("fit", str(path), "--model", "beta", "--paper-grid", "--json")
    assert r.returncode == 0, r.stderr
    pl = {row["model"]: row for row in json.loads(r.stdout)["power_law"]["power_laws"]}
    assert pl["Claude 3.5 Opus"]["a"] == pytest.approx(2.630, abs=0.01)
    assert pl["Claude 3.5 Opus"]["b"] == pytest.approx(0.448, abs=0.01)


def test_an_interval_without_any_uncertainty_is_refused_or_flagged():
    # CLI audit: `forecast --method beta --n-resamples 0` (or 1) printed [0.6715, 0.6715] under "80% interval"
    bench = passcurve.simulate(problems=40, n=100, rng=2)
    with pytest.raises(passcurve.PasscurveError, match=r"^`n_resamples` must be 0 \(no parameter uncertainty\) or "
                                                      r"at least 2 \(got 1\)$"):
        passcurve.forecast(bench.counts, [1000], method="beta", n_resamples=1, rng=0)
    one = bench.counts.select(bench.counts.models[0])
    with pytest.warns(passcurve.DegenerateDataWarning, match="the interval is the point forecast"):
        res = passcurve.forecast(one, [1000], method="beta", n_resamples=0, rng=0, flags=False)
    assert res.low[0, 0] == res.pass_at_k[0, 0] == res.high[0, 0]  # what the warning is about
    # beta_eb has the posterior spread of the realised pass rates even without resamples: no warning
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", passcurve.DegenerateDataWarning)
        eb = passcurve.forecast(one, [1000], method="beta_eb", n_resamples=0, rng=0, flags=False)
    assert eb.high[0, 0] > eb.low[0, 0]


def test_forecast_json_k_for_fields_are_numbers_or_null(icli, sim_csv):
    # an infinite K (a target above the forecast's ceiling, an interval open to the right, a target no law makes
    # certain) was the string "unreachable" or "never" in a numeric field; now null, as every undefined number
    r = icli("forecast", str(sim_csv), "--k", "1000,10000", "--json", "--n-resamples", "10",
             "--target", "0.5,0.999", "--bounds")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    for row in d["k_for"]:
        assert all(row[key] is None or type(row[key]) is float for key in ("k", "low", "high")), row
        assert (row["k"] is None) == (not row["reachable"])
    for row in d["bounds_k_for"]:
        assert all(row[key] is None or type(row[key]) is float for key in ("earliest", "certain")), row
    assert any(row["k"] is None for row in d["k_for"]) and any(row["certain"] is None for row in d["bounds_k_for"])


def test_forecast_and_backtest_json_name_the_design(icli, tmp_path):
    # under --stop-batch, curve, compare, rank and fit --json say "design"; forecast and backtest did not, so their
    # JSON could not be told from a fixed-n forecast of the same file
    rng = np.random.default_rng(0)
    p = rng.beta(0.5, 3.0, 80)
    n = np.minimum(rng.geometric(np.maximum(p, 1e-9)), 200)  # sampled until the first success, at most 200
    c = (n < 200).astype(int)  # solved at its last sample, or stopped at the cap unsolved
    path = tmp_path / "stop.csv"
    write_counts(passcurve.Counts.from_arrays(n, c, model="m"), path)
    design = ["--stop-batch", "1", "--cap", "200"]
    r = icli("forecast", str(path), *design, "--k", "1000", "--n-resamples", "5", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["design"] == "stop at success (batch 1, cap 200)"
    r = icli("backtest", str(path), *design, "--m", "20", "--k", "50", "--seeds", "1", "--n-resamples", "5", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["design"] == "stop at success (batch 1, cap 200)"
    plain = icli("forecast", str(path), "--k", "1000", "--n-resamples", "5", "--json")
    assert "design" not in json.loads(plain.stdout)
    # nor did their tables, where curve's title says 'pass@k for a stop at success (...) design'
    wide = {"COLUMNS": "300"}
    r = icli("forecast", str(path), *design, "--k", "1000", "--n-resamples", "5", env=wide)
    assert r.returncode == 0, r.stderr
    assert "m: forecast (auto; weights " in r.stdout
    assert "; pass@K for a stop at success (batch 1, cap 200) design" in r.stdout, r.stdout
    r = icli("backtest", str(path), *design, "--m", "20", "--k", "50", "--seeds", "1", "--n-resamples", "5", env=wide)
    assert r.returncode == 0, r.stderr
    assert "coverage of the 80% intervals; a stop at success (batch 1, cap 200) design" in r.stdout, r.stdout
    plain = icli("forecast", str(path), "--k", "1000", "--n-resamples", "5", env=wide)
    assert "design" not in plain.stdout


def test_paper_grid_beyond_the_samples_names_the_option(icli, sim_csv):
    # the paper's grid runs to k = 10^4; on n = 200 the error named the library's `k` and convention='chen',
    # which no option of `fit` sets
    r = icli("fit", str(sim_csv), "--paper-grid", "--difficulty", "beta")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "`--paper-grid` runs k to 10^4, beyond these samples (every problem has n = 200)" in r.stderr
    assert "convention" not in r.stderr


def test_forecast_legend_names_its_columns_and_weights(icli, sim_csv):
    # fit's tables have a legend; forecast's columns 'beta eb', 'zi beta' and its title's weights were named nowhere
    r = icli("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "5", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    legend = r.stdout.splitlines()[0]
    assert legend.startswith("pass@K: the forecast, the forecasts of the columns after the interval"), legend
    assert "weighted as the title says" in legend and "80% interval: the prediction interval of pass@K on these problems" in legend
    assert r.stdout.count("pass@K: the forecast,") == 1  # once, above the first model's table
    pop = icli("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "5", "--method", "beta", "--scope",
               "population", "--confidence-level", "0.9", env={"COLUMNS": "300"})
    assert pop.returncode == 0, pop.stderr
    # the population's interval holds the parameters' uncertainty only, not the sampling spread of a new set of N
    # problems that the legend promised ('on a new problem set drawn from the fitted law'): for method beta (a
    # population forecast in either scope) --scope population adds nothing to the interval
    head = pop.stdout.splitlines()[0]
    assert "90% interval: the prediction interval of pass@K on the population the fitted law describes" in head
    assert "a new set of finitely many adds a spread not included" in head and "on a new problem set" not in head
    bench = icli("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "5", "--method", "beta",
                 "--confidence-level", "0.9", "--json")
    popj = icli("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "5", "--method", "beta", "--scope",
                "population", "--confidence-level", "0.9", "--json")
    lo_hi = [[(f["low"], f["high"]) for f in json.loads(x.stdout)["forecasts"]] for x in (bench, popj)]
    assert lo_hi[0] == lo_hi[1]



def test_forecast_population_legend_says_what_autos_columns_are(icli, sim_csv):
    # user review: under --scope population auto's 'beta eb' column is the plain Beta's population forecast (method
    # beta's number, no empirical Bayes), least squares stays this benchmark's curve (which --method least_squares
    # refuses under this scope), and the weights are the benchmark scope's self-backtest's; the legend said none of it
    args = ("forecast", str(sim_csv), "--k", "1000", "--n-resamples", "5", "--json")
    runs = {s: json.loads(icli(*args, "--scope", s).stdout) for s in ("benchmark", "population")}
    beta = json.loads(icli(*args, "--method", "beta", "--scope", "population").stdout)
    pop, ben = runs["population"]["fits"][0], runs["benchmark"]["fits"][0]
    assert pop["weights"] == ben["weights"]
    assert pop["candidates"]["beta_eb"] == [f["pass_at_k"] for f in beta["forecasts"]][:1]
    assert pop["candidates"]["least_squares"] == ben["candidates"]["least_squares"]
    text = icli(*args[:-1], "--scope", "population", env={"COLUMNS": "300"}).stdout.splitlines()[0]
    assert ("auto's columns under it: 'beta eb' and 'zi beta' are those laws' population forecasts (no empirical "
            "Bayes), 'least squares' this benchmark's own curve, weighted as in the benchmark scope") in text
    one = icli(*args[:-1], "--scope", "population", "--method", "beta", env={"COLUMNS": "300"}).stdout
    assert "auto's columns" not in one.splitlines()[0]


def test_k_for_line_writes_its_numbers_in_one_notation():
    # forecasting review: 'K ≈ 51,584,800 (80% interval 2,360,874 .. 1.517e+09)' mixed two notations, and
    # 'K ≈ 3.273e+13 (80% interval 1.14e+06 .. never)' two mantissas (.4g drops trailing zeros); when one number of
    # the line reaches 10^6 all are in the tables' scientific form (column_fmt: three significant digits of ⌈K⌉),
    # else all whole numbers (⌈K⌉). References: the numbers rounded by hand.
    from passcurve.cli._forecast import _samples

    line = (51_584_800.0, 2_360_874.2, 1.517e9)
    assert [_samples(v, *line) for v in line] == ["5.16e+07", "2.36e+06", "1.52e+09"]
    line = (3.273e13, 1_140_000.0, np.inf)
    assert [_samples(v, *line) for v in line[:2]] == ["3.27e+13", "1.14e+06"]
    assert [_samples(v, 182.9, 132.0, np.inf) for v in (182.9, 132.0)] == ["183", "132"]
    line = (999_999.2, 600_000.0, 112)  # below 10^6 once rounded up: whole, with the observed k among them
    assert [_samples(v, *line) for v in line] == ["1,000,000", "600,000", "112"]


def test_k_for_line_on_pythia_is_in_one_notation(icli):
    # Pythia 160M at target 0.9 (forecasting review): the K line read 'K ≈ 3.273e+13 (80% interval 8.086e+05 ..
    # never)'; the observed k, when there is one, is written as the line's other numbers ('k = 3,136', not 3136)
    import re

    path = str(shared_file("pythia_math_counts.csv"))
    r = icli("forecast", path, "--models", "Pythia 160M", "--target", "0.5,0.9", "--n-resamples", "20")
    assert r.returncode == 0, r.stderr
    d = json.loads(icli("forecast", path, "--models", "Pythia 160M", "--target", "0.5,0.9", "--n-resamples", "20",
                        "--json").stdout)
    far, near = sorted(d["k_for"], key=lambda kf: -kf["target"])
    assert far["k"] > 1e6 and far["high"] is None
    assert f"K ≈ {far['k']:.2e} (80% interval {math.ceil(far['low']):.2e} .. never)" in r.stdout, r.stdout
    assert near["k"] < 1e6 and near["observed_k"] > 1000
    assert (f"K ≈ {math.ceil(near['k']):,} (80% interval {math.ceil(near['low']):,} .. {math.ceil(near['high']):,}; "
            f"observed in the data at k = {near['observed_k']:,})") in r.stdout, r.stdout
    for line in r.stdout.splitlines():
        if "K ≈" in line:  # one notation per line: all scientific or none
            nums = re.findall(r"\d[\d,.]*(?:e[+-]\d+)?", line.split("K ≈")[1].replace("80%", ""))
            assert len({"e" in x for x in nums}) == 1, line


def test_weights_are_rounded_to_add_up_to_one():
    # the forecast title rounded each weight alone: Pythia 160M's 0.25673, 0.41793, 0.32534 read 0.26 + 0.42 + 0.33
    # = 1.01. Largest remainder (hand count): floors 25 + 41 + 32 = 98 hundredths, the 2 missing go to the largest
    # remainders .79 (beta_eb) and .67 (least_squares): 0.26, 0.42, 0.32
    from passcurve._validation import shares_text

    w = {"least_squares": 0.25672990145577873, "beta_eb": 0.4179285598824257, "zi_beta": 0.32534153866179555}
    assert shares_text(w) == {"least_squares": "0.26", "beta_eb": "0.42", "zi_beta": "0.32"}
    # equal thirds are what they are, not 0.34 / 0.33 / 0.33 (the first would read heavier than the others)
    assert shares_text({"a": 1 / 3, "b": 1 / 3, "c": 1 / 3}) == {"a": "1/3", "b": "1/3", "c": "1/3"}
    assert shares_text({"a": 0.5, "b": 0.5}) == {"a": "0.50", "b": "0.50"}  # written exactly: decimals kept
    # unequal shares with a tie in their remainders: the unit left goes to the first listed
    assert shares_text({"a": 0.335, "b": 0.335, "c": 0.33}) == {"a": "0.34", "b": "0.33", "c": "0.33"}
    assert shares_text({"beta": 1.0}) == {"beta": "1.00"}
    assert shares_text({"a": 0.995, "b": 0.005}, 1) == {"a": "1.0", "b": "0.0"}  # 9 + 0 tenths, the 1 left to a


@pytest.mark.shared_data
def test_forecast_title_weights_add_up_to_one_on_pythia(icli):
    import re

    path = str(shared_file("pythia_math_counts.csv"))
    r = icli("forecast", path, "--models", "Pythia 160M", "--n-resamples", "5", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    title = next(line for line in r.stdout.splitlines() if line.startswith("Pythia 160M: forecast (auto; weights"))
    shown = [float(x) for x in re.findall(r" (\d\.\d\d)", title)]
    assert len(shown) == 3 and round(sum(shown), 2) == 1.0, title
    d = json.loads(icli("forecast", path, "--models", "Pythia 160M", "--n-resamples", "5", "--json").stdout)
    full = d["fits"][0]["weights"]
    assert d["fits"][0]["model"] == "Pythia 160M" and sum(full.values()) == pytest.approx(1.0)
    assert all(round(v, 2) != v for v in full.values())  # JSON keeps them in full


def test_forecast_target_line_for_a_target_met_at_the_first_sample(icli, sim_csv):
    # 'pass@K = 0.1 at K ≈ 1 (80% interval 1 .. 1; observed in the data at k = 1)' (demo large-70b, --target 0.1):
    # a target already met at K = 1 now says so, as the --bounds line does. base-7b's observed pass@1 (the mean
    # of c/n over its problems) is above 0.01 by a wide margin, so 0.01 is met at the first sample
    counts = passcurve.read_counts(sim_csv).select("base-7b")
    assert float((counts.c / counts.n).mean()) > 0.1
    r = icli("forecast", str(sim_csv), "--models", "base-7b", "--k", "1000", "--n-resamples", "5",
             "--target", "0.01", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    assert ("  pass@K = 0.01 is already reached at K = 1, across the 80% interval (observed in the data at k = 1)\n"
            in r.stdout), r.stdout
    assert "at K ≈ 1 (" not in r.stdout


def test_fit_parameter_lines_use_one_notation_each(icli):
    # each value's own .4g mixed notations in one line: Pythia 160M's beta_mixture read 'alpha2=196.4±667,
    # beta2=2.112e+04±7.05e+04' beside 'alpha1=0.2727'. Now fixed point throughout (4 significant digits, 3 for a
    # standard error) unless some number reaches 10^5 or needs more than 8 decimals: then all scientific
    path = shared_file("pythia_math_counts.csv")
    r = icli("fit", str(path), "--model", "beta_mixture", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("  beta_mixture: ")]
    assert len(lines) == 7  # one per Pythia model (hand count of the file's models)
    assert not any("e+" in ln or "e-" in ln for ln in lines), lines
    assert "alpha2=196.4±667, beta2=21120±70500" in r.stdout  # the same fit's .4g values, 2.112e+04 and 7.05e+04



def test_fit_title_writes_least_squares_in_one_notation(icli, tmp_path):
    # 5,000 problems always solved, 4,999 never, one once in 100: the least-squares exponent b is about 6.7e-05
    # (fit_power_law), and the title's .4g each wrote 'a=0.6932, b=6.679e-05'. a, b and R² now take the parameter
    # lines' rule: fixed point with 4 significant digits unless a number needs more than 8 decimals or reaches 10^5
    from passcurve import Counts, fit_power_law

    cnt = Counts.from_arrays([100] * 10_000, [100] * 5000 + [0] * 4999 + [1], model="m")
    b = float(fit_power_law(cnt).b[0])
    assert 1e-5 < b < 1e-4
    path = tmp_path / "flat.csv"
    write_counts(cnt, path)
    r = icli("fit", str(path), "--model", "beta", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    title = next(ln for ln in r.stdout.splitlines() if "least squares a=" in ln)
    got = re.search(r"least squares a=([0-9.]+), b=([0-9.]+) \(R²=([0-9.]+)\)", title)
    assert got is not None and "e-" not in title, title
    assert got.group(2).startswith("0.0000") and abs(float(got.group(2)) - b) <= 5e-4 * b, title


def test_fit_says_why_its_least_squares_law_reads_a_dash(icli, tmp_path):
    # the title read 'least squares a=-, b=- (R²=-)' for a model that solved nothing, and '(R²=-)' for a line through
    # the 2 points of an n = 2 grid, with no word why: fit_power_law's notes (the report's label shows them) went
    # unsaid. Each model's notes now follow its parameters
    from passcurve import Counts

    cnt = Counts.from_arrays([10, 10, 10, 2, 2, 2], [0, 0, 0, 1, 0, 2], model=["none"] * 3 + ["two"] * 3)
    path = tmp_path / "dash.csv"
    write_counts(cnt, path)
    r = icli("fit", str(path), "--model", "beta", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    none, two = r.stdout[r.stdout.index("none:"):r.stdout.index("two:")], r.stdout[r.stdout.index("two:"):]
    assert "least squares a=-, b=- (R²=-)" in none and "(R²=-)" in two
    # fit_power_law's grid: k = 1..10 for 'none' (pass@k = 0 at every k), k = 1, 2 for 'two'
    assert ("  least squares: pass_D@k is 0 or 1 at 10 of its 10 points; a power law needs 2 points with "
            "0 < pass_D@k < 1 and cannot be fitted") in none
    assert "  least squares: the power law is a line through 2 points of the grid (exact)" in two
    # fit_power_law emits them as DegenerateDataWarnings now (as every result's notes): said once, under the table,
    # not again on stderr; and --json's warnings list holds them (it held none: they sat in power_law.warnings only)
    assert "cannot be fitted" not in r.stderr and "line through 2 points" not in r.stderr
    j = icli("fit", str(path), "--model", "beta", "--json")
    assert j.returncode == 0, j.stderr
    said = [w for w in json.loads(j.stdout)["warnings"] if "least squares" in w or "power law" in w]
    assert said == ["DegenerateDataWarning: model 'none': pass_D@k is 0 or 1 at 10 of its 10 points; a power law "
                    "needs 2 points with 0 < pass_D@k < 1 and cannot be fitted",
                    "DegenerateDataWarning: model 'two': the power law is a line through 2 points of the grid (exact); "
                    "its R² and standard errors are undefined and nothing checks the law"], said


def test_fit_json_warnings_each_name_their_category_once(icli, tmp_path):
    # fit_difficulty kept its notes in `.warnings` without their category ("model 'one': every problem has one
    # sample ..."), so fit --json's warnings list read that note twice: once raised ("DegenerateDataWarning: model
    # 'one': ..."), once as a note its result recorded, with "model 'one'" taken for the category
    from passcurve import Counts, DegenerateDataWarning, fit_difficulty

    cnt = Counts.from_arrays([1] * 6, [1, 0, 0, 1, 0, 0], model="one")
    with pytest.warns(DegenerateDataWarning, match="^model 'one': every problem has one sample"):
        fits = fit_difficulty(cnt, model="beta")
    assert fits.warnings[0].startswith("DegenerateDataWarning: model 'one': every problem has one sample")
    path = tmp_path / "one.csv"
    write_counts(cnt, path)
    said = json.loads(icli("fit", str(path), "--model", "beta", "--json").stdout)["warnings"]
    assert all(re.match(r"^[A-Za-z]+Warning: ", w) for w in said), said
    assert sum("every problem has one sample" in w for w in said) == 1, said


def test_fit_table_shows_the_decimals_that_rank_its_rows(icli):
    # log-lik and AIC at 1 decimal: bon_jailbreaking_counts.csv's Llama 3 8B IT read AIC 816.8 for beta (816.782)
    # and for npmle (816.812), whose ΔAIC is not shown, so the table could not say which ranks first. Each column
    # now takes the fewest decimals (at least 1; ΔAIC at least 2; at most 3) that tell apart its rows that differ
    # (decimals_apart, below). That tie was npmle counting its weights only: with its atoms' locations (2J - 1 - [an
    # atom at 0] parameters) its AIC is 830.8, and no two rows differ only past 1 decimal there
    import warnings

    path = shared_file("bon_jailbreaking_counts.csv")
    r = icli("fit", str(path), env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    block = r.stdout[r.stdout.index("Llama 3 8B IT:"):]
    rows = {ln.split()[0]: ln.split()[1:4] for ln in block.splitlines()[:12]
            if ln.split() and ln.split()[0] in ("beta", "zi_beta", "scaled_beta", "beta_mixture", "npmle")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = passcurve.fit_difficulty(passcurve.read_counts(str(path)).select("Llama 3 8B IT")).fits["Llama 3 8B IT"]
    npm = fits["npmle"]
    J = int(npm.params_["support_points"])
    assert npm.n_params_ == 2 * J - 1 - int(npm.weights_[0] > 1e-6)
    assert rows["npmle"][1] == f"{npm.aic_:.1f}" and rows["beta"][1] == f"{fits['beta'].aic_:.1f}" == "816.8", rows
    assert rows["zi_beta"][1] == rows["scaled_beta"][1] == "818.8"  # equal fits (both at a bound) stay equal
    assert rows["beta"][2] == "0.13" and rows["beta"][0] == "-406.4"  # ΔAIC at 2 decimals; log-lik at 1
    block = r.stdout[r.stdout.index("Claude 3.5 Opus:"):]
    beta = next(ln.split() for ln in block.splitlines() if ln.split()[:1] == ["beta"])
    assert beta[1:4] == ["-492.1", "988.2", "0.00"], beta  # nothing to tell apart: 1 decimal, ΔAIC 2


def test_decimals_apart_counts_only_values_that_differ():
    from passcurve._validation import decimals_apart

    # hand count: 816.7825 and 816.8115 share '816.8' and differ at 2 decimals
    assert decimals_apart([816.7825, 818.7825, 818.7825, 816.6505, 816.8115]) == 2
    assert decimals_apart([1.04, 1.04, 2.0]) == 1  # equal values ask for no more decimals
    assert decimals_apart([1.0, 1.0000001]) == 1  # alike at 3 decimals: a tie
    assert decimals_apart([1.0004, 1.0016]) == 3 and decimals_apart([0.001, 0.004], fewest=2) == 3
    assert decimals_apart([5.0, float("nan"), float("inf")]) == 1 and decimals_apart([], fewest=2) == 2


def test_no_forecast_below_one_reads_one_in_the_table(icli, tmp_path):
    # a forecast column's 4 decimals wrote 0.99998501 as 1.0000 (Llama 3 8B IT, BoN --stop-batch 60, at K =
    # 1,002,000: 0.99997783 read 1.0000 beside an interval [0.9897, 1.0000]). The column's decimals now keep every value
    # below 1 from reading 1 (number_format's below_one, as fmt_below_one does for one value): two significant digits
    # of 1 - x for the one nearest 1, all of the column alike
    path = tmp_path / "easy.csv"  # 40 problems at n = 100, every one solved: pass@200 is just below 1
    path.write_text("model,problem_id,n,c\n" + "".join(f"m,p{i},100,{(i * 37) % 61 + 5}\n" for i in range(40)))
    d = json.loads(icli("forecast", str(path), "--k", "100,200", "--json").stdout)
    cand = d["fits"][0]["candidates"]
    truth = {f["k"]: [f["pass_at_k"], f["low"], f["high"], *(cand[c][j] for c in cand)]
             for j, f in enumerate(d["forecasts"])}
    r = icli("forecast", str(path), "--k", "100,200", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    rows = {int(row[0]): row[1:] for row in (re.findall(r"[\d.]+", line) for line in r.stdout.splitlines()
                                              if re.match(r"│\s*(100|200) │", line))}
    assert set(rows) == {100, 200}, r.stdout
    for kk, values in truth.items():  # K, pass@K, interval, least squares, beta eb, zi beta
        assert len(rows[kk]) == len(values) == 6, (rows[kk], values)
        for text, value in zip(rows[kk], values, strict=True):
            assert (float(text) == 1.0) == (value == 1.0), (kk, text, value)  # 1 only for a 1
            assert abs(float(text) - value) <= 0.5 * 10.0 ** -len(text.split(".")[1]), (kk, text, value)  # rounded
    assert rows[200][0] == "0.999985"  # the forecast 0.99998548 (JSON) that read 1.0000
    from passcurve._validation import number_format

    f = number_format([0.9988233, 0.99997783, 1.0], below_one=True)  # hand-written: 1 - 0.99997783 = 2.2e-5 -> 6
    assert [f(v) for v in (0.9988233, 0.99997783, 1.0)] == ["0.998823", "0.999978", "1.000000"]
    g = number_format([0.5, 1 - 1e-10], below_one=True)  # past MAX_DECIMALS (8) the gap itself, as fmt_below_one
    assert (g(0.5), g(1 - 1e-10)) == ("0.50000000", "1 − 1.0e-10")
    assert number_format([0.99997783])(0.99997783) == "1.0000"  # a column not read against 1 keeps its rule


def test_plateaus_share_one_notation(icli, tmp_path):
    # the demo's population forecast wrote the zi_beta caveat with :.4g and the unreachable line with fmt_cell in one
    # output: 'plateaus at 0.987' beside 'plateaus at 0.9617'. Both now use fmt_below_one: 4 decimals, more where a
    # value below 1 would read 1 (two significant digits of 1 - x: 0.99996 -> 0.999960, hand-written)
    from passcurve._validation import fmt_below_one

    assert [fmt_below_one(v) for v in (0.987, 0.9617, 0.99996, 1 - 1e-9)] == ["0.9870", "0.9617", "0.999960",
                                                                               "1 − 1.0e-09"]
    path = tmp_path / "demo.csv"
    write_counts(passcurve.simulate(rng=0).counts, path)
    r = icli("forecast", str(path), "--scope", "population", "--models", "chat-7b,large-70b", "--target", "0.9,0.99")
    assert r.returncode == 0, r.stderr
    said = re.findall(r"plateaus at (\S+)", r.stdout)
    assert len(said) >= 2 and all(re.fullmatch(r"0\.\d{4}", s) for s in said), said
