"""The CLI's shared plumbing (cli/_app.py): every warning a command raises reaches its stderr once and its
``--json`` under ``warnings``, in one format; ``--models`` sets the order of the output."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from passcurve.data import write_table

STOP = "StoppingTimeWarning: "


def _stopped_counts(path, models=("zeta", "alpha"), problems=40, batch=10, cap=100, seed=0):
    """Counts of a stop-at-success design (batches of 10, at most 100 samples), as the BoN logs were sampled:
    the reader says n looks like a stopping time."""
    rng = np.random.default_rng(seed)
    lines = ["model,problem_id,cluster,n,c"]
    for m in models:
        p = rng.beta(0.3, 3.0, problems)
        for i in range(problems):
            draws = rng.random(cap) < p[i]
            hit = np.flatnonzero(draws)
            n = cap if hit.size == 0 else min(cap, batch * (hit[0] // batch + 1))
            lines.append(f"{m},q{i},g{i % 8},{n},{int(draws[:n].sum())}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _warning_lines(stderr: str) -> list[str]:
    return [ln[len("passcurve: warning: "):] for ln in stderr.splitlines() if ln.startswith("passcurve: warning: ")]


@pytest.mark.parametrize("args", [
    ("curve", "--k", "1,5"),
    ("compare", "--a", "zeta", "--b", "alpha", "--n-resamples", "200"),
    ("rank", "--n-resamples", "200"),
    ("hidden-difficulty", "--k", "1,2"),
    ("rl-signal",),
    ("plan", "--k", "50", "--budget", "500"),
    ("fit", "--difficulty", "beta"),
    ("forecast", "--k", "1000", "--method", "beta", "--n-resamples", "0"),
    ("backtest", "--m", "5", "--k", "10", "--seeds", "1", "--methods", "beta", "--n-resamples", "0"),
    ("curve", "--k", "1,5", "--cluster-col", "cluster", "--ci", "cluster", "--n-resamples", "200"),
])
def test_json_carries_every_warning_stderr_printed(tmp_path, icli, args):
    # the reader's StoppingTimeWarning went to stderr only for curve, compare, rank and hidden-difficulty:
    # their JSON had no `warnings`; fit and forecast had them, each in its own way
    path = _stopped_counts(tmp_path / "stopped.csv")
    r = icli(args[0], str(path), *args[1:], "--json")
    assert r.returncode == 0, r.stderr
    said = _warning_lines(r.stderr)
    d = json.loads(r.stdout)
    assert d["warnings"] == said  # the same lines, in the same order, "Category: message"
    assert sum(w.startswith(STOP) for w in said) == 1, said  # the stopping time is said once
    assert "for 2 model(s) (alpha, zeta)" in next(w for w in said if w.startswith(STOP))
    if args[0] == "plan":  # plan needs no design: it says so instead of pointing to a --stop-batch it has not got
        stop = next(w for w in said if w.startswith(STOP))
        assert "--stop-batch" not in stop and "The plan needs no design for it: its fits and forecasts are " \
            "likelihood-based" in stop, stop
    # never Python's own two-line form ("...py:123: StoppingTimeWarning: ..." and the source line)
    assert not re.search(r"\.py:\d+: \w+Warning", r.stderr), r.stderr


def test_a_warning_from_outside_passcurve_is_said_not_dropped(tmp_path, icli, monkeypatch):
    # inside a command's collect_warnings block only passcurve's own warnings were kept: numpy's "overflow
    # encountered in exp" (a warning about a number) vanished without a word. It is said on one line, naming where it
    # was raised, and kept in the JSON's warnings; outside the block it is said the same way
    import warnings

    # the CLI imports the library when `curve` runs (lazily, benchmarks/bench_cli_startup.py): patch it there
    from passcurve import _curves

    path = tmp_path / "c.csv"
    path.write_text("problem,n,c\na,4,1\nb,4,3\n")
    real = _curves.curve

    def overflowing(*args, **kwargs):
        np.exp(np.array([1000.0]))  # numpy's RuntimeWarning, raised here
        warnings.warn("a library's advice", FutureWarning, stacklevel=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_curves, "curve", overflowing)
    r = icli("curve", str(path), "--k", "1", "--json")
    assert r.returncode == 0, r.stderr
    said = _warning_lines(r.stderr)
    assert [w.split(" (raised at ")[0] for w in said] == ["RuntimeWarning: overflow encountered in exp",
                                                         "FutureWarning: a library's advice"], said
    assert all(re.search(r"\(raised at test_cli_app\.py:\d+\)$", w) for w in said), said
    assert json.loads(r.stdout)["warnings"] == said
    assert json.loads(r.stdout)["models"]  # the result itself is unchanged


@pytest.mark.parametrize("command", ["curve", "vote", "verifiers"])
def test_json_warnings_is_always_a_list(tmp_path, icli, command):
    # a script reads d["warnings"] without a fallback: [] when nothing was said
    rows = {"model": np.repeat(["m"], 24).astype(object), "problem_id": np.repeat([f"p{i}" for i in range(6)], 4),
            "attempt": np.tile([1, 2, 3, 4], 6), "answer": np.tile(["x", "y", "x", "x"], 6).astype(object),
            "gold": np.repeat(["x"], 24).astype(object), "correct": np.tile([True, False, True, True], 6)}
    rows["strict"] = rows["correct"].copy()
    path = tmp_path / "log.jsonl"
    write_table(rows, path)
    more = ["--base", "correct", "--strict", "strict"] if command == "verifiers" else []
    r = icli(command, str(path), *more, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["warnings"] == _warning_lines(r.stderr) == []


def test_fit_says_a_stopping_time_once(tmp_path, icli):
    # `passcurve fit` on the BoN counts printed the reader's warning, then one StoppingTimeWarning per model from
    # the deviation checks (8 lines), then each again as a flag under its table beside "GOF p not shown: n looks
    # like a stopping time"
    path = _stopped_counts(tmp_path / "stopped.csv")
    r = icli("fit", str(path), "--difficulty", "beta")
    assert r.returncode == 0, r.stderr
    said = _warning_lines(r.stderr)
    assert [w for w in said if w.startswith(STOP)] == [next(w for w in said if w.startswith(STOP))]
    assert len([w for w in said if w.startswith(STOP)]) == 1
    flags = [ln for ln in r.stdout.splitlines() if "flag StoppingTimeWarning" in ln]
    assert len(flags) == 2 and all("GOF p is not shown" in ln for ln in flags), r.stdout  # one line per model
    assert "GOF p not shown" not in r.stdout
    # nothing is lost in the JSON: each model's flag with its evidence
    d = json.loads(icli("fit", str(path), "--difficulty", "beta", "--json").stdout)
    assert sorted(f["model"] for f in d["flags"] if f["flag"] == "StoppingTimeWarning") == ["alpha", "zeta"]
    assert all("problems stopped below the largest n" in f["message"] for f in d["flags"]
               if f["flag"] == "StoppingTimeWarning")
    assert sum(w.startswith(STOP) for w in d["warnings"]) == 1


def test_per_model_warnings_in_the_same_words_are_said_once(tmp_path, icli):
    # forecast --n-resamples 0 said "model 'X': the interval is the point forecast: ..." once per model
    path = _stopped_counts(tmp_path / "stopped.csv")
    r = icli("forecast", str(path), "--k", "1000", "--method", "beta", "--n-resamples", "0", "--json")
    assert r.returncode == 0, r.stderr
    point = [w for w in json.loads(r.stdout)["warnings"] if "the interval is the point forecast" in w]
    # the models in the file's order (zeta first), as the tables list them
    assert len(point) == 1 and point[0].startswith("DegenerateDataWarning: models 'zeta', 'alpha': "), point
    # and it names the option the command line has, not only the library's argument (it said 'use n_resamples >= 2')
    assert "n_resamples=0 (--n-resamples 0)" in point[0] and "(--n-resamples 2 or more)" in point[0], point


def _answers(path, models=("zeta", "alpha")):
    rows = {k: [] for k in ("model", "problem_id", "attempt", "answer", "gold", "correct", "strict")}
    for m in models:
        for i in range(6):
            for a in range(4):
                ok = (i + a) % 3 != 0
                for k, v in zip(rows, (m, f"p{i}", a + 1, "x" if ok else "y", "x", ok, ok and a != 1), strict=True):
                    rows[k].append(v)
    write_table({k: np.asarray(v, dtype=object if isinstance(v[0], str) else None) for k, v in rows.items()}, path)
    return path


@pytest.mark.parametrize("args", [
    ("curve", "--k", "1,2"), ("hidden-difficulty", "--k", "1,2"), ("fit", "--difficulty", "beta"),
    ("vote", "--k", "1,2"), ("retries",), ("verifiers", "--base", "correct", "--strict", "strict", "--k", "1,2"),
    ("rl-signal",),
])
def test_models_follow_the_order_given(tmp_path, icli, args):
    # `--models zeta,alpha` printed alpha first (the file's sorted order) in every command
    path = _answers(tmp_path / "answers.jsonl")

    def order(*more):
        r = icli(args[0], str(path), *args[1:], *more, "--json")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)
        entries = d["fits"] if "fits" in d else d["models"]
        return list(dict.fromkeys(e["model"] for e in entries))

    assert order("--models", "zeta,alpha") == ["zeta", "alpha"]
    assert order("--models", "alpha,zeta") == ["alpha", "zeta"]
    assert order() == ["alpha", "zeta"]  # no --models: sorted, as before


def test_table_titles_count_one_problem_in_the_singular(tmp_path, icli):
    # "1 problems solved only under the base verdict" (user review): titles say "1 problem", "2 problems"
    rows = {"model": np.repeat(["m"], 8).astype(object), "problem_id": np.repeat(["p0", "p1"], 4),
            "attempt": np.tile([1, 2, 3, 4], 2), "answer": np.tile(["x", "y", "x", "x"], 2).astype(object),
            "gold": np.repeat(["x"], 8).astype(object),
            "correct": np.array([True, False, True, True, False, False, True, False])}
    rows["strict"] = np.array([True, False, True, True, False, False, False, False])  # p1 passes only the base tests
    path = tmp_path / "log.jsonl"
    write_table(rows, path)
    r = icli("verifiers", str(path), "--base", "correct", "--strict", "strict", "--k", "1,2")
    assert r.returncode == 0, r.stderr
    assert "m: 2 problems, false-pass rate" in r.stdout and "1 problem solved only under the base" in r.stdout
    one = tmp_path / "one.csv"
    one.write_text("problem,n,c\na,3,1\n")
    r = icli("curve", str(one))
    assert r.returncode == 0 and "one: 1 problem, samples per problem" in r.stdout


def test_in_process_runner_shows_what_a_fresh_process_would(tmp_path, icli, monkeypatch, cli):
    # the `icli` fixture stands in for `python -m passcurve` in most CLI tests. Under pytest a Python warning that
    # escaped a command was recorded by pytest, not printed: "no Python warning on stderr" passed without looking
    # (the assertion above, in test_json_carries_every_warning_stderr_printed). And the consoles' width was
    # fixed when passcurve.cli was imported: a test's COLUMNS=80 changed nothing.
    import warnings

    from passcurve.cli import _curve

    path = tmp_path / "c.csv"
    path.write_text("problem,n,c\na,4,1\nb,4,3\n")
    real = _curve.render_curve_table

    def leaky(*args, **kwargs):  # outside the command's collect_warnings block
        warnings.warn("escaped", RuntimeWarning, stacklevel=1)
        warnings.warn("ignored by a fresh interpreter", DeprecationWarning, stacklevel=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_curve, "render_curve_table", leaky)
    r = icli("curve", str(path), "--k", "1")
    assert r.returncode == 0
    # said on one line like passcurve's own (it had been Python's two-line form, naming the source line)
    assert re.search(r"^passcurve: warning: RuntimeWarning: escaped \(raised at test_cli_app\.py:\d+\)$", r.stderr,
                     re.M), r.stderr
    assert not re.search(r"\.py:\d+: \w+Warning", r.stderr), r.stderr
    assert "DeprecationWarning" not in r.stderr  # the default filters of a fresh interpreter ignore it
    # width: the table's lines are as wide as COLUMNS allows (the title line is not cut), in-process as in a subprocess
    args = ("curve", str(path), "--all-k", "--ci", "analytic")
    monkeypatch.undo()
    for columns in ("80", "200"):
        got = icli(*args, env={"COLUMNS": columns}).stdout
        assert got == cli(*args, env_extra={"COLUMNS": columns}).stdout
        assert max(len(line) for line in got.splitlines() if "│" in line) <= int(columns)  # the title is not cut
    assert icli(*args, env={"COLUMNS": "80"}).stdout != icli(*args, env={"COLUMNS": "200"}).stdout
