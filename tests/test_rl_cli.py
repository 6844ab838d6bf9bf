"""CLI: `passcurve rl-signal` on a counts file written by the data layer; `passcurve demo-conflict`."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from passcurve import Counts
from passcurve.cli._app import run
from passcurve.data import write_counts
from passcurve.rl import dead_groups


@pytest.fixture
def counts_csv(tmp_path):
    rng = np.random.default_rng(5)
    n = np.full(300, 40)
    c = np.r_[rng.binomial(40, rng.beta(0.5, 2.0, 150)), rng.binomial(40, rng.beta(2.0, 2.0, 150))]
    cnt = Counts.from_arrays(n, c, model=["m1"] * 150 + ["m2"] * 150, problem=[f"q{i}" for i in range(150)] * 2)
    path = tmp_path / "counts.csv"
    write_counts(cnt, path)
    return path, cnt


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_rl_signal_json_matches_library(icli, counts_csv):
    path, cnt = counts_csv
    r = icli("rl-signal", str(path), "--group-size", "8,16", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    lib = dead_groups(cnt, [8, 16]).to_dict()
    assert [m["model"] for m in d["models"]] == ["m1", "m2"]
    for got, want in zip(d["models"], lib["models"], strict=True):
        for g1, g2 in zip(got["groups"], want["groups"], strict=True):
            assert g1["observed_dead"] == pytest.approx(g2["observed_dead"], rel=1e-12)
            assert g1["fitted_dead"] == pytest.approx(g2["fitted_dead"], rel=1e-6)
        assert got["group_size_needed"]["independent"] == want["group_size_needed"]["independent"]


def test_rl_signal_table(counts_csv, capsys):
    path, _ = counts_csv
    assert run(["rl-signal", str(path), "-G", "8,64"]) == 0
    cap = capsys.readouterr()
    assert "dead (observed)" in cap.out and "group size for 90% live groups" in cap.out
    assert "DroppedProblemsWarning" in cap.err  # G = 64 > n = 40


def test_rl_signal_reports_no_fit_with_one_sample_per_problem(tmp_path, capfd):
    # review: every problem n = 1 (6 of 20 right) printed "beta fit alpha=7.907, beta=18.45" and 8.40% dead at G=8;
    # the counts identify only the mean 0.3, so the fit's column is "-" and the line says why
    path = tmp_path / "one.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},1,{int(i % 3 == 2)}\n" for i in range(20)))
    assert run(["rl-signal", str(path), "-G", "8,16"]) == 0
    cap = capfd.readouterr()
    assert "DegenerateDataWarning: model 'one': every problem has one sample" in cap.err and "Traceback" not in cap.err
    assert "one: mean rate 0.3000; no beta fit (one sample per problem identifies only the mean)" in cap.out
    rows = [[c.strip() for c in re.split("[│┃]", line)[1:-1]] for line in cap.out.splitlines()]
    assert ["8", "-", "-", "5.77%", "0"] in rows  # 0.3^8 + 0.7^8 = 0.0577
    assert ("group size for 90% live groups: observed not searched (a problem has one sample), beta fit not "
            "identified, independent coins 7") in cap.out
    assert "observed dead: problems with n < G left out (G=8: 20 of 20, none left; G=16: 20 of 20, none left)" in cap.out
    assert run(["rl-signal", str(path), "-G", "8", "--json"]) == 0
    d = json.loads(capfd.readouterr().out)["models"][0]
    assert d["fit"]["identified"] is False and d["groups"][0]["fitted_dead"] is None
    assert d["problems"] == 20 and d["groups"][0]["problems_left_out"] == 20


@pytest.mark.filterwarnings("ignore::passcurve.ConvergenceWarning")
def test_rl_signal_says_how_many_problems_the_observed_column_leaves_out(counts_csv, capsys):
    # n = 40 everywhere: at G = 64 every problem leaves the observed column (the table showed 0 under problems and
    # only stderr said why); a line under each table counts them, and the JSON too
    path, _ = counts_csv
    assert run(["rl-signal", str(path), "-G", "8,64"]) == 0
    out = capsys.readouterr().out
    assert out.count("observed dead: problems with n < G left out (G=64: 150 of 150, none left)") == 2
    assert run(["rl-signal", str(path), "-G", "8"]) == 0
    assert "left out" not in capsys.readouterr().out  # nothing left out: nothing said
    assert run(["rl-signal", str(path), "-G", "8,64", "--json"]) == 0
    groups = json.loads(capsys.readouterr().out)["models"][0]["groups"]
    assert [g["problems_left_out"] for g in groups] == [0, 150] and [g["problems"] for g in groups] == [150, 0]


@pytest.mark.parametrize(
    "args,msg",
    [
        (["-G", "8,x"], "--group-size"),
        (["-G", "1"], "`--group-size` must be >= 2"),
        (["--target-live", "1.5"], "`--target-live`"),
        (["--difficulty", "gauss"], "`--difficulty`"),
    ],
)
def test_rl_signal_bad_input(counts_csv, capsys, args, msg):
    # in process (same entry point as the subprocess runner: run() maps errors to exit 2)
    path, _ = counts_csv
    assert run(["rl-signal", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert msg in err and len(err.strip().splitlines()) == 1


def test_rl_commands_bad_input_through_the_interpreter(counts_csv, cli, tmp_path):
    # once per command through `python -m passcurve` (the others run in-process): the interpreter's exit code, one
    # line, no traceback
    path, _ = counts_csv
    bad = cli("rl-signal", str(path), "-G", "1")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    assert "`--group-size` must be >= 2" in bad.stderr
    bad = cli("demo-conflict", "-o", str(tmp_path / "no-such-dir" / "x.html"))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_demo_conflict_page(icli, tmp_path):
    out = tmp_path / "conflict.html"
    r = icli("demo-conflict", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    s = {row["run"]: row for row in d["summary"]}
    assert s["pass@k"]["pass_at_1_after"] < s["pass@k"]["pass_at_1_before"]
    page = out.read_text(encoding="utf-8")
    assert "Optimising pass@8 can lower pass@1" in page
    # the runs are named as the plot names them, with k: a row "pass@k" beside "pass@8" columns left k unsaid
    assert "<td>optimise pass@8</td>" in page and "<td>anneal k: 8 → 1</td>" in page
    table = icli("demo-conflict", "-o", str(tmp_path / "again.html"), "--steps", "20", env={"COLUMNS": "120"})
    assert table.returncode == 0, table.stderr
    assert "optimise pass@8" in table.stdout and "anneal k: 8 → 1" in table.stdout
    assert not re.search(r"<script[^>]*\bsrc=", page)  # plotly inlined, offline
    assert "Plotly.newPlot" in page or "plotly" in page.lower()


def test_demo_conflict_bad_output(tmp_path, capsys):
    assert run(["demo-conflict", "-o", str(tmp_path / "x.png")]) == 2
    assert "`--output` must end in .html" in capsys.readouterr().err


def test_rl_signal_on_an_always_solved_benchmark_with_every_difficulty_model(tmp_path, capfd):
    # every problem always solved: the fits sit at the edge of their parameter space; the scaled Beta's
    # moments there would need ~10^10 series terms (it ran out of memory with a traceback). Each model
    # either gives its column or a one-line warning; the command exits 0, and the warning keeps its brackets
    path = tmp_path / "solved.csv"
    write_counts(Counts.from_arrays(np.full(100, 100), np.full(100, 100)), path)
    for model in ("beta", "zi_beta", "scaled_beta"):
        code = run(["rl-signal", str(path), "-G", "8", "--difficulty", model])
        err = capfd.readouterr().err
        assert code == 0, err
        assert "Traceback" not in err and "every problem is always solved" in err
    assert "E[p^c (1-p)^d]" in err and "parameters are degenerate" in err and "no group size for the target" in err


def test_rl_signal_prints_an_unidentified_fit_parameter_as_a_dash(icli, tmp_path):
    # three under-dispersed problems (1, 2, 3 of 20): the Beta's concentration runs away (its fit marks alpha and
    # beta not identified), and rl-signal's title printed 'beta fit alpha=1.093e+07, beta=9.839e+07' as estimates.
    # It prints '—' as `passcurve fit` does; the JSON keeps the values and says which ones are not identified
    path = tmp_path / "tiny.csv"
    path.write_text("problem,n,c\na,20,1\nb,20,2\nc,20,3\n")
    r = icli("rl-signal", str(path), "-G", "8")
    assert r.returncode == 0, r.stderr
    assert "beta fit alpha=— (not identified), beta=— (not identified)" in r.stdout, r.stdout
    fit = json.loads(icli("rl-signal", str(path), "-G", "8", "--json").stdout)["models"][0]["fit"]
    assert fit["params_not_identified"] == ["alpha", "beta"] and fit["params"]["alpha"] > 1e5


def test_rl_signal_title_keeps_a_tiny_mean_rate(tmp_path, capfd):
    # a title's numbers were written at 4 fixed decimals: one success in 40,000 samples (mean rate 1/40000 = 2.5e-5,
    # exact) read "mean rate 0.0000". They are written as a table column of the number alone (fmt_cell)
    path = tmp_path / "rare.csv"
    path.write_text("problem_id,n,c\n" + "".join(f"p{i},1,{int(i == 0)}\n" for i in range(40_000)))
    assert run(["rl-signal", str(path), "-G", "8"]) == 0
    assert "rare: mean rate 0.000025; " in capfd.readouterr().out


def test_rl_signal_fit_parameters_read_as_fit_prints_them(icli):
    # rl-signal's title wrote each parameter with its own .4g and the optimiser's value at a bound: Pythia 12B's
    # beta_mixture read 'impossible=2.869e-14, ..., alpha1=13.96' and 160M's 'alpha1=0.2727, ..., beta2=2.112e+04'.
    # It now prints them as `passcurve fit` does (one notation for the line, a parameter at its bound as the bound)
    from conftest import shared_file

    path = shared_file("pythia_math_counts.csv")
    r = icli("rl-signal", str(path), "-G", "8", "--difficulty", "beta_mixture", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    titles = [ln for ln in r.stdout.splitlines() if "beta_mixture fit impossible=" in ln]
    assert len(titles) == 7, r.stdout  # one per Pythia model (hand count of the file's models)
    assert not any("e+" in ln or "e-" in ln for ln in titles), titles
    assert "Pythia 12B: mean rate 0.0232; beta_mixture fit impossible=0 (at its bound), weight1=0.1322," in r.stdout
    assert "alpha2=196.4, beta2=21120" in r.stdout  # 2.112e+04 at 4 significant digits, fixed point
    fit = json.loads(icli("rl-signal", str(path), "-G", "8", "--difficulty", "beta_mixture", "--json").stdout)
    first = fit["models"][0]["fit"]
    assert first["params_at_bound"] == ["impossible"] and 0 < first["params"]["impossible"] < 1e-6
