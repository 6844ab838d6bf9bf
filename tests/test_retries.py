"""Retries: the first-success completion curve (hand-computed), pass@b beside it (Chen et al. 2021
closed form), and the permutation test of independence across attempts (seeded simulations)."""

from __future__ import annotations

import warnings
from math import comb

import numpy as np
import pytest

from passcurve import DependenceWarning, PasscurveError, StoppingTimeWarning, retries


def _long(seqs):
    prob = np.concatenate([[f"p{i}"] * len(s) for i, s in enumerate(seqs)])
    att = np.concatenate([np.arange(1, len(s) + 1) for s in seqs])
    cor = np.concatenate([np.asarray(s, dtype=bool) for s in seqs])
    return prob, att, cor


def test_completion_curve_by_hand():
    # first successes at attempts 2, never, 1 -> completion 1/3, 2/3, 2/3 (count by hand)
    prob, att, cor = _long([[0, 1, 1], [0, 0, 0], [1, 0, 0]])
    res = retries(prob, att, cor, n_resamples=0)
    assert res.completion[0].tolist() == pytest.approx([1 / 3, 2 / 3, 2 / 3])
    assert res.first_success.tolist() == [2.0, np.inf, 1.0]
    # pass@b from (n, c) = (3, 2), (3, 0), (3, 1): 1 - C(n-c, b)/C(n, b) (Chen et al. 2021)
    for b in (1, 2, 3):
        exp = np.mean([1 - comb(3 - c, b) / comb(3, b) for c in (2, 0, 1)])
        assert res.pass_at_k[0, b - 1] == pytest.approx(exp, abs=1e-14)
    assert res.attempt_rate[0].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])


def test_stop_at_first_success_is_not_testable_and_censors():
    # a "retry until solved" harness: every solved problem ends with its only success;
    # p3 stopped after one failed attempt, so it is unknown (censored) at budgets >= 2
    prob, att, cor = _long([[0, 1], [1], [0, 0, 0], [0]])
    with pytest.warns(StoppingTimeWarning, match="cannot be tested"):
        res = retries(prob, att, cor)
    assert bool(res.stops_at_success[0]) and not bool(res.testable[0])
    assert np.isnan(res.p_value[0])
    assert res.known[0].tolist() == [4, 3, 3]
    assert res.completion[0].tolist() == pytest.approx([1 / 4, 2 / 3, 2 / 3])
    # pass@b rests on the problems tried b times (n = 2, 1, 3, 1: 4, 2, 1 of them), not on completion's (count by
    # hand); p1, solved at its first attempt and stopped, is in completion at every b and in pass@b at b = 1 only
    assert res.pass_at_k_known[0].tolist() == [4, 2, 1]
    assert res.to_dict()["models"][0]["curve"][1]["pass_at_k_known"] == 2


def test_cli_retries_table_counts_the_problems_of_each_curve(icli, tmp_path):
    from passcurve.data import write_table

    prob, att, cor = _long([[0, 1], [1], [0, 0, 0], [0]])
    path = write_table({"problem_id": prob, "attempt": att, "correct": cor.astype(int)}, tmp_path / "r.csv")
    r = icli("retries", str(path), "--budgets", "all", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    assert "problems (pass@b)" in r.stdout
    rows = [line.split("│")[1:-1] for line in r.stdout.splitlines() if line.startswith("│")]
    # budget, completion, its problems, pass@b, its problems (the known and pass_at_k_known counts above)
    assert [(int(c[0]), int(c[2]), int(c[4])) for c in rows] == [(1, 4, 4), (2, 3, 2), (3, 3, 1)]


def _simulate(rng, problems, n, lift):
    p = rng.beta(0.6, 1.0, problems)
    q = np.clip(p[:, None] * (1 + lift * np.arange(n))[None, :], 0, 1)
    y = rng.random((problems, n)) < q
    return np.repeat(np.arange(problems), n), np.tile(np.arange(1, n + 1), problems), y.ravel()


def test_independent_attempts_pass_and_curves_agree():
    rng = np.random.default_rng(11)
    prob, att, cor = _simulate(rng, 300, 6, lift=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DependenceWarning)
        res = retries(prob, att, cor, n_resamples=499, rng=1)
    assert res.p_value[0] > 0.05 and not res.dependent[0]
    # exchangeable attempts: E[completion(b)] = pass@b; with 300 problems they are close
    assert np.max(np.abs(res.completion[0] - res.pass_at_k[0])) < 0.05


def test_feedback_is_detected():
    rng = np.random.default_rng(12)
    prob, att, cor = _simulate(rng, 300, 6, lift=0.6)  # success rate grows with the attempt
    with pytest.warns(DependenceWarning, match="pass@k's formula does not apply"):
        res = retries(prob, att, cor, n_resamples=499, rng=1)
    assert res.p_value[0] < 0.01 and res.dependent[0]
    assert res.attempt_rate[0, -1] > res.attempt_rate[0, 0]


def test_a_falling_rate_is_named_a_drift_not_feedback():
    # Pythia 410M's log (trend z = -2.04: later attempts succeed less) got the feedback message "if the harness
    # retried with feedback, pass@k's formula does not apply", but feedback raises later attempts' rate. A rate that
    # falls with the attempt index (here halved from the first attempt to the sixth) is named a drift
    rng = np.random.default_rng(12)
    p = rng.beta(0.6, 1.0, 300)
    q = p[:, None] * np.linspace(1.0, 0.5, 6)[None, :]
    y = rng.random((300, 6)) < q
    prob, att = np.repeat(np.arange(300), 6), np.tile(np.arange(1, 7), 300)
    with pytest.warns(DependenceWarning) as got:
        res = retries(prob, att, y.ravel(), n_resamples=499, rng=1)
    assert res.dependent[0] and res.trend_z[0] < -2
    (msg,) = [str(w.message) for w in got]
    assert "later attempts succeed less often than earlier ones, a drift over the run" in msg and "feedback" not in msg
    # the warning writes p as the CLI title and the report do (number_format of it alone): 1/500, the permutation
    # floor of 499 resamples, read '0.002' in the warning (.3g) and '0.0020' in the title
    from passcurve.report._sections import fmt_num

    assert f"(permutation p = {fmt_num(res.p_value[0])}," in msg, msg


def test_permutation_test_level():
    # under the null the p-value is (super-)uniform: rejections at 5% stay rare (seeded)
    rng = np.random.default_rng(13)
    rejections = 0
    for _ in range(40):
        prob, att, cor = _simulate(rng, 40, 4, lift=0.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DependenceWarning)
            res = retries(prob, att, cor, n_resamples=99, rng=rng)
        rejections += bool(res.p_value[0] < 0.05)
    assert rejections <= 6  # binomial(40, 0.05): P(X > 6) < 0.01


def test_models_are_separate_and_to_dict():
    prob, att, cor = _long([[0, 1], [1, 1], [0, 0], [1, 0]])
    model = np.array(["a", "a", "a", "a", "b", "b", "b", "b"])
    res = retries(prob, att, cor, model=model, n_resamples=0)
    assert res.models == ("a", "b")
    assert res.completion[:, 0].tolist() == pytest.approx([0.5, 0.5])
    d = res.to_dict()
    assert d["models"][1]["solved"] == 1 and d["models"][0]["curve"][0]["budget"] == 1


@pytest.mark.parametrize(
    ("att", "cor", "match"),
    [
        ([1, 2, 2], [0, 1, 0], "duplicate attempt 2 in problem 'p'"),
        ([1, 2, 4], [0, 1, 0], "gap: 4 follows 2"),
        ([2, 3, 4], [0, 1, 0], "must start at 0 or 1"),
        ([1.5, 2, 3], [0, 1, 0], "`attempt` must contain integers"),
        ([1, 2, 3], [0, 0.5, 1], "`correct` must be boolean"),
        ([1, 2, 3], ["yes", "no", "x"], "`correct` must be boolean"),
        ([1, 2], [0, 1, 0], "same length"),
    ],
)
def test_bad_attempts(att, cor, match):
    prob = ["p"] * len(att)
    with pytest.raises(PasscurveError, match=match):
        retries(prob, att, cor)


def test_verdicts_of_an_object_column():
    # a pandas object column (a JSON log's verdicts with a missing one): None passed as False (as_bool_array took None
    # for its own "nothing bad found"), so the missing verdict was a failure (pass@1 0.5 here), and 0/1 numbers were
    # refused as "must be boolean (true/false or 0/1) (got 1)". Now None is refused and 0/1 read as in a numeric column
    pd = pytest.importorskip("pandas")
    prob, att = ["a", "a", "b", "b"], [0, 1, 0, 1]
    for missing in ([True, False, None, True], pd.Series([True, False, None, True])):
        with pytest.raises(PasscurveError, match=r"^`correct` must be boolean \(true/false or 0/1\) \(got None\)$"):
            retries(prob, att, missing)
    numbers = retries(prob, att, pd.Series([1, 0, 1, 1], dtype=object), rng=0)
    assert numbers.pass_at_k.tolist() == retries(prob, att, [1, 0, 1, 1], rng=0).pass_at_k.tolist() == [[0.75, 1.0]]


def test_gap_at_start_of_one_problem():
    with pytest.raises(PasscurveError, match="problem 'q' have a gap: they start at 2"):
        retries(["p", "p", "q"], [1, 2, 2], [0, 1, 1])


def test_each_model_numbers_its_attempts_from_its_own_base():
    # models are analysed separately, so one may number its attempts from 0 and another from 1 (two harnesses' logs
    # side by side); they were refused as "problem 'p' of model 'a' have a gap: they start at 1, not 0". Each model's
    # curve is the one it has alone (completion by hand: a solves p at its 2nd attempt, b at its 1st)
    res = retries(["p", "p", "p", "p"], [1, 2, 0, 1], [0, 1, 1, 0], model=["a", "a", "b", "b"], n_resamples=0)
    alone_a = retries(["p", "p"], [1, 2], [0, 1], model=["a", "a"], n_resamples=0)
    alone_b = retries(["p", "p"], [0, 1], [1, 0], model=["b", "b"], n_resamples=0)
    assert res.completion.tolist() == [alone_a.completion[0].tolist(), alone_b.completion[0].tolist()]
    assert res.completion.tolist() == [[0.0, 1.0], [1.0, 1.0]]


def test_attempt_errors_name_the_model_when_problem_ids_repeat_across_models():
    """Two models answer the same problems: 'duplicate attempt 0 in problem 'p'' did not say whose (a fuzzed log);
    with one model the message stays as it was."""
    prob, mod = ["p", "p", "p", "p"], ["a", "a", "b", "b"]
    with pytest.raises(PasscurveError, match=r"^duplicate attempt 0 in problem 'p' of model 'b'; each attempt index "):
        retries(prob, [0, 1, 0, 0], [0, 1, 1, 0], model=mod)
    with pytest.raises(PasscurveError, match=r"^attempt indices of problem 'p' of model 'b' have a gap: 2 follows 0$"):
        retries(prob, [0, 1, 0, 2], [0, 1, 1, 0], model=mod)
    with pytest.raises(PasscurveError, match=r"^attempt indices of problem 'q' of model 'a' have a gap: they start at 1, "
                                             r"not 0$"):
        retries(["p", "p", "q", "q", "p"], [0, 1, 1, 2, 0], [0, 1, 1, 0, 1], model=["a", "a", "a", "a", "b"])
    with pytest.raises(PasscurveError, match=r"^`attempt` indices must start at 0 or 1 \(smallest of model 'b' is 3\)$"):
        retries(prob, [0, 1, 3, 4], [0, 1, 1, 0], model=mod)
    with pytest.raises(PasscurveError, match=r"^duplicate attempt 0 in problem 'p'; each attempt index must appear once$"):
        retries(["p", "p"], [0, 0], [0, 1])


def test_cli_retries(icli, tmp_path):
    import json

    from passcurve.data import write_table

    rng = np.random.default_rng(5)
    prob, att, cor = _simulate(rng, 60, 4, lift=1.5)
    path = write_table({"problem_id": prob.astype(str), "attempt": att, "correct": cor}, tmp_path / "r.csv")
    r = icli("retries", str(path), "--json", "--n-resamples", "199")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["models"][0]["dependent"] and "DependenceWarning" in r.stderr
    res = retries(prob.astype(str), att, cor, n_resamples=0)
    assert [row["completion"] for row in d["models"][0]["curve"]] == pytest.approx(res.completion[0].tolist())


def test_cli_retries_gap_exit_2(tmp_path, capfd):
    from passcurve.cli._app import run

    path = tmp_path / "gap.csv"
    path.write_text("problem_id,attempt,correct\np,1,0\np,3,1\n")
    code = run(["retries", str(path)])
    err = capfd.readouterr().err
    assert code == 2 and "gap: 3 at line 3 follows 1 at line 2" in err and "Traceback" not in err
    assert "gap.csv" in err  # the file, as every reader error names it (it named no file before)
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        # a gap inside a problem: both attempts and their lines (the header is line 1)
        ("m,p,0,0\nm,p,2,1\n", r"the attempts of problem 'p' have a gap: 2 at line 3 follows 0 at line 2"),
        # one problem of one model starts late (model b numbers from 0 at 'p'; each model has its own base, and
        # problem ids repeat across models, so the model is named)
        ("a,p,1,0\na,p,2,1\nb,p,0,1\nb,p,1,0\nb,q,1,1\n",
         r"the attempts of problem 'q' of model 'b' start at 1 at line 6, not 0 as elsewhere in the model"),
        # a model whose attempts never start at 0 or 1, beside one that does
        ("a,p,0,0\nb,p,2,1\nb,p,3,0\n",
         r"attempt column 'attempt' must number each problem's attempts from 0 or 1; the smallest is 2 "
         r"\(problem 'p' of model 'b' at line 3\)"),
        # every attempt number beyond 1: no run starts at 0 or 1
        ("m,p,3,0\nm,p,4,1\n",
         r"attempt column 'attempt' must number each problem's attempts from 0 or 1; the smallest is 3 \(problem 'p' at line 2\)"),
        # attempts written as floats are named as the whole numbers they are
        ("m,p,0.0,0\nm,p,2.0,1\n", r"the attempts of problem 'p' have a gap: 2 at line 3 follows 0 at line 2"),
    ],
)
def test_read_attempts_names_a_gap_and_where_it_is(tmp_path, rows, message):
    from passcurve.data import read_attempts

    path = tmp_path / "runs.csv"
    path.write_text("model,problem_id,attempt,correct\n" + rows)
    with pytest.raises(PasscurveError, match=r"^runs\.csv: " + message):
        read_attempts(path)


def test_read_attempts_checks_runs_of_the_models_kept_only(tmp_path):
    # model 'b' has a gap, but only 'a' is read: retries sees 'a' alone, and so does the check
    from passcurve.data import read_attempts

    path = tmp_path / "runs.csv"
    path.write_text("model,problem_id,attempt,correct\na,p,0,0\na,p,1,1\nb,p,0,1\nb,p,5,0\n")
    d = read_attempts(path, models=["a"])
    assert d["attempt"].tolist() == [0, 1] and set(d["model"]) == {"a"}
    with pytest.raises(PasscurveError, match="problem 'p' of model 'b' have a gap: 5 at line 5 follows 0 at line 4"):
        read_attempts(path)


def test_read_attempts_needs_an_attempt_column(tmp_path):
    from passcurve.data import read_attempts

    path = tmp_path / "noatt.csv"
    path.write_text("problem_id,correct\np,0\np,1\n")
    with pytest.raises(PasscurveError, match="no attempt column"):
        read_attempts(path)


def test_read_attempts_names_an_attempt_that_is_no_whole_number(tmp_path, capfd):
    # the retries analysis checked the attempts read from a file as an API argument: "`attempt` must contain integers
    # (got 1.5)", "`attempt` is too large (got attempt=1.8446744073709552e+19, max 4.61e+18)", "`attempt` contains
    # NaN", naming neither the file, the column nor the row. Now the file's column and row (line 1: hand count)
    from passcurve.cli._app import run
    from passcurve.data import read_attempts

    path = tmp_path / "r.jsonl"
    for written, message in (("1.5", r"must hold whole numbers, e\.g\. row \{problem_id='p', attempt=1\.5, .*\}"),
                             ("18446744073709551616", r"holds an attempt too large to number a retry \(the largest is "
                                                      r"2\^62 - 1 = 4611686018427387903\), e\.g\. row \{problem_id='p', "
                                                      r"attempt=1\.8446744073709552e\+19, .*\}"),
                             ("4611686018427387904", r"holds an attempt too large to number a retry .*attempt=4611686018427387904, .*\}"),
                             ("NaN", r"has a missing value \(NaN\), e\.g\. row \{problem_id='p', attempt=nan, .*\}")):
        path.write_text(f'{{"problem_id": "p", "attempt": {written}, "correct": 0}}\n'
                        '{"problem_id": "p", "attempt": 2, "correct": 1}\n')
        with pytest.raises(PasscurveError, match=rf"^r\.jsonl: attempt column 'attempt' {message} at line 1$"):
            read_attempts(path)
    assert run(["retries", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("passcurve: error: r.jsonl: attempt column 'attempt' has a missing value (NaN)")
    assert len(err.strip().splitlines()) == 1


def test_read_attempts_names_a_repeated_or_missing_attempt_where_it_is(tmp_path, capfd):
    # a log with one line written twice reached the analysis, whose message named neither the file nor the lines
    # ("duplicate attempt 0 in problem 'p2'"), and a null attempt said only "attempt column 'attempt' has a missing
    # value"; the curve reader said where. Now both readers say it alike (lines by hand count), with advice that fits
    # retries: they cannot pool runs, an attempt's index is its place in one run
    from passcurve.cli._app import run
    from passcurve.data import read_attempts

    rows = ['{"model": "a", "problem_id": "p", "attempt": 0, "correct": 0}',
            '{"model": "a", "problem_id": "p", "attempt": 1, "correct": 1}',
            '{"model": "b", "problem_id": "p", "attempt": 0, "correct": 1}']
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*rows, rows[1]]) + "\n")
    with pytest.raises(PasscurveError, match=r"^r\.jsonl: duplicate \(problem, attempt\) rows: problem 'p' \(model 'a'\) "
                                             r"attempt 1 appears 2 times at lines 2 and 4; each attempt must appear once "
                                             r"\(.*retries follow one run's sequence of attempts: read one run at a time\)$"):
        read_attempts(path)
    assert run(["retries", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("passcurve: error: r.jsonl: duplicate (problem, attempt) rows") and "`pool`" not in err
    assert len(err.strip().splitlines()) == 1
    path.write_text("\n".join([*rows, rows[2].replace('"attempt": 0', '"attempt": null')]) + "\n")
    with pytest.raises(PasscurveError, match=r"^r\.jsonl: attempt column 'attempt' has a missing value, e\.g\. row "
                                             r"\{model='b', problem_id='p', attempt=None, correct='1'\} at line 4$"):
        read_attempts(path)


def test_read_attempts_shows_an_attempt_that_is_no_number(tmp_path):
    # "attempt column 'attempt' must hold integers (type VARCHAR)" named no row (a fuzzed CSV with one '}' in it)
    from passcurve.data import read_attempts

    path = tmp_path / "t.csv"
    path.write_text("problem_id,attempt,correct\np,0,0\np,1,1\nq,},1\n")
    with pytest.raises(PasscurveError, match=r"^t\.csv: attempt column 'attempt' must hold integers \(type VARCHAR\), "
                                             r"e\.g\. row \{problem_id='q', attempt='\}', correct='1'\} at line 4$"):
        read_attempts(path)


def test_asymptotic_p_value_agrees_with_permutation():
    # equal n: (n-1)/n * T ~ chi-square(n-1) under the null (derived in passcurve._retries)
    rng = np.random.default_rng(21)
    for lift in (0.0, 0.15):
        prob, att, cor = _simulate(rng, 400, 5, lift=lift)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DependenceWarning)
            perm = retries(prob, att, cor, n_resamples=999, rng=2, method="permutation")
            asym = retries(prob, att, cor, method="asymptotic")
        assert asym.method == ("asymptotic",) and perm.method == ("permutation",)
        assert asym.statistic[0] == pytest.approx(perm.statistic[0])
        assert abs(asym.p_value[0] - perm.p_value[0]) < 0.05


def test_auto_switches_to_asymptotic_on_large_logs(monkeypatch):
    import passcurve._retries as R

    monkeypatch.setattr(R, "_PERMUTATION_BUDGET", 10.0)
    prob, att, cor = _long([[0, 1, 1], [0, 0, 1], [1, 0, 0]])
    assert retries(prob, att, cor).method == ("asymptotic",)
    prob, att, cor = _long([[0, 1, 1], [0, 1], [1, 0, 0]])  # unequal n: permutation
    assert retries(prob, att, cor, n_resamples=99, rng=0).method == ("permutation",)
    with pytest.raises(PasscurveError, match="same number of attempts"):
        retries(prob, att, cor, method="asymptotic")
    with pytest.raises(PasscurveError, match="`method` must be"):
        retries(prob, att, cor, method="exact")


def test_trend_sign():
    rng = np.random.default_rng(31)
    prob, att, cor = _simulate(rng, 300, 6, lift=0.6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DependenceWarning)
        res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert res.trend_z[0] > 3  # later attempts succeed more (feedback)


def test_cli_retries_table_lists_a_budget_grid(icli, tmp_path, cli):
    # 30 attempts: the table lists 1, 2, 5, 10, 20 and the largest (30), says how many it left out, and
    # --budgets picks others; JSON keeps every budget unless --budgets is given
    import json

    from passcurve.data import write_table

    prob, att, cor = _simulate(np.random.default_rng(2), 40, 30, lift=0.0)
    path = write_table({"problem_id": prob.astype(str), "attempt": att, "correct": cor}, tmp_path / "r.csv")
    r = icli("retries", str(path), "--n-resamples", "0")
    assert r.returncode == 0, r.stderr
    rows = [ln.split("│")[1].strip() for ln in r.stdout.splitlines() if ln.startswith("│")]
    assert rows == ["1", "2", "5", "10", "20", "30"]
    assert "6 of 30 budgets shown" in r.stdout
    r = icli("retries", str(path), "--n-resamples", "0", "--budgets", "3,7")
    assert [ln.split("│")[1].strip() for ln in r.stdout.splitlines() if ln.startswith("│")] == ["3", "7"]
    full = json.loads(icli("retries", str(path), "--n-resamples", "0", "--json").stdout)
    assert [row["budget"] for row in full["models"][0]["curve"]] == list(range(1, 31))
    some = json.loads(icli("retries", str(path), "--n-resamples", "0", "--json", "--budgets", "3,7").stdout)
    assert [row["budget"] for row in some["models"][0]["curve"]] == [3, 7]
    bad = cli("retries", str(path), "--budgets", "0")  # a subprocess: the interpreter's exit code, one line
    assert bad.returncode == 2 and "`--budgets` must be >= 1" in bad.stderr
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


def test_labels_by_text_without_a_string_per_row():
    # _text_codes replaced np.unique(x.astype(str)) (30 s and gigabytes at 10^7 samples): the same grouping,
    # by text, for strings, mixed objects, integers and unhashable labels
    from passcurve._retries import _text_codes

    x = np.array(["b", "a", "b", 1, "1", "c"], dtype=object)
    ref = np.unique(x.astype(str), return_inverse=True)[1]
    assert _text_codes(x).tolist() == ref.tolist() == [2, 1, 2, 0, 0, 3]  # 1 and "1" are one label, as before
    assert _text_codes(np.array([7, 3, 7, 10])).tolist() == [1, 0, 1, 2]
    odd = np.empty(3, dtype=object)
    for i, v in enumerate(([1], [0], [1])):
        odd[i] = v
    assert _text_codes(odd).tolist() == [1, 0, 1]


def test_cli_retries_budgets_beyond_the_log_are_an_error(icli, tmp_path):
    # a budget beyond the log's attempts used to vanish silently: `--budgets 1000` on 30 attempts printed
    # empty tables with exit 0. Every model's curve runs to the log's largest budget (a model with fewer
    # attempts is censored there), so only a budget beyond that is refused
    import json

    from passcurve.data import write_table

    gen = np.random.default_rng(3)
    p1, a1, c1 = _simulate(gen, 20, 30, lift=0.0)
    p2, a2, c2 = _simulate(gen, 20, 10, lift=0.0)
    path = write_table({"model": np.array(["long"] * p1.size + ["short"] * p2.size, dtype=object),
                        "problem_id": np.concatenate([p1, p2]).astype(str), "attempt": np.concatenate([a1, a2]),
                        "correct": np.concatenate([c1, c2])}, tmp_path / "r.csv")
    for extra in ((), ("--json",)):
        bad = icli("retries", str(path), "--n-resamples", "0", "--budgets", "5,1000", *extra)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and bad.stdout == "", bad.stderr
        assert "largest number of attempts per problem, 30 (got 1000)" in bad.stderr
    ok = json.loads(icli("retries", str(path), "--n-resamples", "0", "--budgets", "5,30", "--json").stdout)
    assert [[r["budget"] for r in m["curve"]] for m in ok["models"]] == [[5, 30], [5, 30]]


def test_co_movement_without_a_trend_is_named_as_such():
    # a shared effect per attempt index (logit shift +0.8 / -0.8, alternating: no trend), as when every problem's
    # j-th sample shares a seed or batch: each problem's attempts stay exchangeable in distribution, so pass@k holds,
    # but the test rejects; the warning said "pass@k's formula does not apply" as for feedback, and now names the
    # co-movement (docs/voting.md: "A significant omnibus test with a small trend points at co-movement")
    rng = np.random.default_rng(21)
    problems, n = 300, 20
    logit_p = rng.normal(-0.5, 1.0, problems)
    shift = np.where(np.arange(n) % 2 == 0, 0.8, -0.8)
    q = 1.0 / (1.0 + np.exp(-(logit_p[:, None] + shift[None, :])))
    y = rng.random((problems, n)) < q
    prob, att = np.repeat(np.arange(problems), n), np.tile(np.arange(1, n + 1), problems)
    with pytest.warns(DependenceWarning, match=r"without a trend, successes co-move across problems at the same "
                                               r"attempt index \(most at attempt \d+, counting from 1: \d+ successes "
                                               r"where [\d.]+ were expected\).*does not bias each problem's pass@k"):
        res = retries(prob, att, y.ravel(), n_resamples=199, rng=1)
    assert res.dependent[0] and res.p_value[0] < 0.01 and abs(res.trend_z[0]) < 2


def test_models_in_order_of_first_appearance():
    # as Counts lists them: `passcurve retries --models zeta,alpha` printed alpha first (the labels' sorted order)
    prob = np.array(["p1", "p1", "p2", "p2", "p1", "p1", "p2", "p2"], dtype=object)
    att = np.array([1, 2, 1, 2, 1, 2, 1, 2])
    cor = np.array([0, 1, 1, 0, 1, 1, 0, 0], dtype=bool)
    mod = np.array(["zeta"] * 4 + ["alpha"] * 4, dtype=object)
    res = retries(prob, att, cor, model=mod, n_resamples=0)
    assert res.models == ("zeta", "alpha")
    # each model keeps its own numbers: zeta solves p1 at attempt 2 and p2 at attempt 1 (completion 1/2 then 1),
    # alpha solves p1 at attempt 1 and never p2 (1/2 at both budgets)
    np.testing.assert_array_equal(res.completion, [[0.5, 1.0], [0.5, 0.5]])
    again = retries(prob[::-1].copy(), att[::-1].copy(), cor[::-1].copy(), model=mod[::-1].copy(), n_resamples=0)
    assert again.models == ("alpha", "zeta")
    np.testing.assert_array_equal(again.completion, [[0.5, 0.5], [0.5, 1.0]])


def test_read_attempts_refuses_one_model_name_written_two_ways(tmp_path):
    # 'm' and 'm\t' were two models, each with a share of one model's problems
    from passcurve.data import read_attempts

    path = tmp_path / "r.csv"
    path.write_text("model,problem_id,attempt,correct\nm,p,0,0\nm,p,1,1\nm\t,q,0,1\n")
    with pytest.raises(PasscurveError, match=r"model column 'model' writes one name two ways, 'm' and 'm\\t'"):
        read_attempts(path)


def test_read_attempts_takes_a_late_true_word_and_names_a_bad_value(tmp_path):
    # the retries reader stopped on a CSV correctness column sniffed BOOLEAN with a later 'passed' ("Could not
    # convert string "passed" to 'BOOLEAN'"), and said "has a missing or non-boolean value" without the row.
    # Hand count: 30,000 rows alternate false/true over p0..p99 (p0 all false), then p0's attempt 300 'passed'.
    from passcurve.data import read_attempts

    p = tmp_path / "r.csv"
    p.write_text("problem_id,attempt,correct\n" + "".join(f"p{i % 100},{i // 100},{'true' if i % 2 else 'false'}\n"
                                                          for i in range(30000)) + "p0,300,passed\n")
    got = read_attempts(p)
    p0 = got["problem"] == "p0"
    assert got["correct"][p0].sum() == 1 and got["attempt"][p0][got["correct"][p0]].tolist() == [300]
    assert got["correct"].sum() == 15001
    bad = tmp_path / "b.csv"
    bad.write_text("problem_id,attempt,correct\np1,0,1\np1,1,maybe\n")
    with pytest.raises(PasscurveError, match=r"^b.csv: correctness column 'correct' holds a value that is not boolean "
                                             r".* e.g. row \{problem_id='p1', attempt=1, correct='maybe'\} at line 3"):
        read_attempts(bad)


def test_two_dimensional_attempt_is_refused():
    # attempt=[[1, 2], [1, 2]] was flattened to [1, 2, 1, 2] and read against problem ids it no longer matched row by
    # row: "attempt indices of problem 'b' have a gap: they start at 3, not 1" for a 2 x 2 array (API sweep)
    with pytest.raises(PasscurveError, match=r"^`attempt` must be one number or a 1-d sequence \(got shape \(2, 2\)\)$"):
        retries(["a", "a", "b", "b"], [[1, 2], [1, 2]], [0, 1, 1, 0])


def test_retries_p_value_reads_alike_in_the_cli_and_the_report(icli, tmp_path):
    # retries' title wrote the independence test's p with .4g, the report's note with .3g: one test, '0.3775' and
    # '0.378'. Both now write it as one number of a table column alone (fmt_cell in the CLI, fmt_num in the report)
    import re

    from passcurve import Counts
    from passcurve.data import write_table
    from passcurve.report import build_report
    from passcurve.report._sections import fmt_num

    prob, att, cor = _simulate(np.random.default_rng(11), 300, 6, lift=0.0)
    path = write_table({"problem_id": prob.astype(str), "attempt": att, "correct": cor.astype(int)}, tmp_path / "r.csv")
    r = icli("retries", str(path), "--n-resamples", "1999", "--seed", "0", env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    cli_p = re.search(r"independence test \(\w+\) p = ([0-9.e+-]+)", r.stdout)
    res = retries(prob.astype(str), att, cor, n_resamples=1999, rng=0)  # p = 755/2000 = 0.3775
    assert cli_p is not None and cli_p.group(1) == fmt_num(res.p_value[0]), r.stdout
    assert f"{res.p_value[0]:.4g}" != f"{res.p_value[0]:.3g}"  # the case the two formats told apart
    c = cor.reshape(300, 6).sum(axis=1)
    cnt = Counts.from_arrays(np.full(300, 6), c, problem=[str(i) for i in range(300)], model="model")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cnt, parts=set(), retry_result=res)
    assert f"model (p = {cli_p.group(1)})" in rep.html, re.findall(r"p = [^)]*\)", rep.html)


def _exact_permutation_p(seqs):
    """P(T* >= T) over every arrangement of each problem's outcomes across its attempts (under exchangeability each of
    a problem's distinct arrangements is equally likely), with T = sum_a (S_a - E_a)^2 / V_a over V_a > 0, E_a and
    V_a summed over the problems with an attempt a (the module docstring): exact rationals, by enumeration."""
    from fractions import Fraction
    from itertools import permutations, product

    top = max(len(s) for s in seqs)
    p = [Fraction(sum(s), len(s)) for s in seqs]
    E = [sum((p[i] for i, s in enumerate(seqs) if len(s) > a), Fraction(0)) for a in range(top)]
    V = [sum((p[i] * (1 - p[i]) for i, s in enumerate(seqs) if len(s) > a), Fraction(0)) for a in range(top)]

    def stat(arr):
        S = [sum(s[a] for s in arr if len(s) > a) for a in range(top)]
        return sum(((S[a] - E[a]) ** 2 / V[a] for a in range(top) if V[a] > 0), Fraction(0))

    t_obs = stat(seqs)
    every = [stat(arr) for arr in product(*(sorted(set(permutations(s))) for s in seqs))]
    return Fraction(sum(t >= t_obs for t in every), len(every)), Fraction(sum(t > t_obs for t in every), len(every)), t_obs


def test_permutation_p_value_against_exact_enumeration():
    # five problems of 2 to 4 attempts: 3 * 2 * 6 * 3 * 3 = 324 equally likely arrangements. The statistic is discrete,
    # so ties T* = T are frequent: they count as exceedances (P(T* >= T) = 101/162, P(T* > T) = 35/81)
    from fractions import Fraction

    seqs = [[1, 0, 0], [0, 1], [0, 1, 1, 0], [0, 0, 1], [0, 1, 0]]
    p_ge, p_gt, t_obs = _exact_permutation_p(seqs)
    assert (p_ge, p_gt, t_obs) == (Fraction(101, 162), Fraction(35, 81), Fraction(230, 77))
    prob, att, cor = _long(seqs)
    res = retries(prob, att, cor, n_resamples=20000, rng=0)
    assert res.statistic[0] == pytest.approx(float(t_obs), rel=1e-12)
    # (1 + #{T* >= T})/(1 + B) has standard deviation sqrt(p(1 - p)/B) = 0.0034 at B = 20,000
    assert res.p_value[0] == pytest.approx(float(p_ge), abs=0.015)
    assert not res.dependent[0] and res.testable[0]
    # expected successes per attempt: E_a = sum of c_i/n_i over problems with an attempt a = 2, 2, 3/2, 1/2 over 5, 5,
    # 4, 1 problems (count by hand)
    np.testing.assert_allclose(res.expected_rate[0], [2 / 5, 2 / 5, 3 / 8, 1 / 2], rtol=1e-14)
    assert res.attempts_at[0].tolist() == [5, 5, 4, 1]
    # trend z (RetryResult.trend_z): sum_a (a - abar)(S_a - E_a) / sqrt(sum_a (a - abar)^2 V_a), abar the V-weighted
    # mean attempt; by hand S - E = -1, 1, 1/2, -1/2 and V = 7/6, 7/6, 11/12, 1/4
    dev, var = [-1, 1, Fraction(1, 2), Fraction(-1, 2)], [Fraction(7, 6), Fraction(7, 6), Fraction(11, 12), Fraction(1, 4)]
    abar = sum(a * v for a, v in enumerate(var)) / sum(var)
    num = sum((a - abar) * d for a, d in enumerate(dev))
    den2 = sum((a - abar) ** 2 * v for a, v in enumerate(var))
    assert res.trend_z[0] == pytest.approx(float(num) / float(den2) ** 0.5, rel=1e-12)


def test_permutation_p_value_at_its_bounds():
    # S_a = E_a at every attempt (2, 2, 1 by hand): T = 0 (up to rounding), which every arrangement reaches, so
    # p = (1 + B)/(1 + B) = 1 exactly
    prob, att, cor = _long([[0, 1, 1], [1, 0], [1, 0, 0], [0, 1]])
    res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert res.statistic[0] == pytest.approx(0.0, abs=1e-12) and res.p_value[0] == 1.0 and not res.dependent[0]
    # 20 problems solved at attempt 1 only: T = ((20 - 10)^2 + (0 - 10)^2)/5 = 40, reached again only by the 2 of 2^20
    # arrangements that line the successes up, so no resample does (chance 999 * 2^-19 = 0.2% that one would):
    # p = 1/(1 + 999) with the documented default n_resamples = 999, below the default alpha = 0.05
    prob, att, cor = _long([[1, 0]] * 20)
    with pytest.warns(DependenceWarning, match="a drift over the run"):
        res = retries(prob, att, cor, rng=0)
    assert res.statistic[0] == pytest.approx(40.0, rel=1e-14)
    assert res.p_value[0] == 1 / 1000 and res.n_resamples == 999 and res.alpha == 0.05 and res.dependent[0]
    # with 19 resamples the floor is 1/20 = alpha itself: "dependent" means p < alpha, so neither it nor the warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = retries(prob, att, cor, n_resamples=19, rng=0)
    assert res.p_value[0] == 0.05 and not res.dependent[0]


def test_an_attempt_with_no_variance_is_left_out_of_the_statistic():
    # attempt 3 exists only in a problem that never succeeds (c/n = 0): V_3 = 0 and S_3 = E_3 = 0, a 0/0 that the
    # statistic leaves out. Attempts 1 and 2: S = 2, 1 against E = 1.5, 1.5 with V = 3/4 each, so T = 2/3 (by hand)
    prob, att, cor = _long([[1, 0], [1, 0], [0, 1], [0, 0, 0]])
    res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert res.statistic[0] == pytest.approx(2 / 3, rel=1e-14)
    assert res.testable[0] and 0 < res.p_value[0] <= 1
    assert res.expected_rate[0, 2] == 0.0 and res.attempts_at[0].tolist() == [4, 4, 1]
    # trend z over attempts 1, 2 (weights V = 3/4 each, mean attempt 1/2): (-1/2 * 1/2 + 1/2 * -1/2)/sqrt(3/8)
    assert res.trend_z[0] == pytest.approx(-((2 / 3) ** 0.5), rel=1e-12)


def test_three_models_over_two_problems_are_six_groups():
    # each (model, problem) pair is its own sequence of attempts; with more models than problems the pairs must not
    # collide (model c's p beside model a's q). By hand: a solves p at 1 and q at 2; b solves neither; c solves p at 2
    # and q at 1, and tries q a third time. Budget 3 exists only for c: a's problems are both solved by then (known
    # 2, completion 1), b's are unknown (no attempt 3, unsolved: NaN), and only c has an attempt 3 (rates NaN else)
    prob = np.array(["p", "p", "q", "q"] * 2 + ["p", "p", "q", "q", "q"], dtype=object)
    att = np.array([1, 2] * 4 + [1, 2, 1, 2, 3])
    cor = np.array([1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0], dtype=bool)
    mod = np.array(["a"] * 4 + ["b"] * 4 + ["c"] * 5, dtype=object)
    res = retries(prob, att, cor, model=mod, n_resamples=0)
    assert res.models == ("a", "b", "c")
    np.testing.assert_array_equal(res.completion, [[0.5, 1.0, 1.0], [0.0, 0.0, np.nan], [0.5, 1.0, 1.0]])
    assert res.known.tolist() == [[2, 2, 2], [2, 2, 0], [2, 2, 2]]
    assert res.first_success.tolist() == [1.0, 2.0, np.inf, np.inf, 2.0, 1.0]
    assert res.problem.tolist() == ["p", "q"] * 3 and res.model.tolist() == ["a", "a", "b", "b", "c", "c"]
    assert res.attempts_at.tolist() == [[2, 2, 0], [2, 2, 0], [2, 2, 1]]
    # pass@b over the problems tried b times: none for a and b at b = 3 (NaN), only c's q (c = 1 of 3: pass@3 = 1)
    assert res.pass_at_k_known.tolist() == [[2, 2, 0], [2, 2, 0], [2, 2, 1]]
    assert np.isnan(res.pass_at_k[:2, 2]).all() and res.pass_at_k[2, 2] == 1.0
    # attempt rates: a 1/2, 1/2; b 0, 0; c 1/2, 1/2, 0; expected: c/n averaged, c's q has c/n = 1/3
    np.testing.assert_array_equal(res.attempt_rate, [[0.5, 0.5, np.nan], [0.0, 0.0, np.nan], [0.5, 0.5, 0.0]])
    np.testing.assert_allclose(res.expected_rate, [[0.5, 0.5, np.nan], [0.0, 0.0, np.nan],
                                                   [5 / 12, 5 / 12, 1 / 3]], rtol=1e-14)


def test_permutation_on_a_log_larger_than_one_block_of_resamples():
    # 1,200 problems of two attempts, half solved at the first and half at the second: S = E = 600 at both attempts,
    # T = 0, so p = 1 exactly, with the 999 resamples of 2,400 samples drawn in several blocks (each resample counted
    # once: (1 + 999)/(1 + 999))
    prob, att, cor = _long([[1, 0], [0, 1]] * 600)
    res = retries(prob, att, cor, n_resamples=999, rng=0)
    assert res.statistic[0] == pytest.approx(0.0, abs=1e-9) and res.p_value[0] == 1.0
    # 600 problems x 6 attempts under the null: the permutation p-value agrees with the asymptotic chi-square one
    # (equal n, module docstring) as in test_asymptotic_p_value_agrees_with_permutation
    prob, att, cor = _simulate(np.random.default_rng(41), 600, 6, lift=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DependenceWarning)
        perm = retries(prob, att, cor, n_resamples=999, rng=3, method="permutation")
        asym = retries(prob, att, cor, method="asymptotic")
    assert abs(perm.p_value[0] - asym.p_value[0]) < 0.05


def test_stopping_at_success_with_two_attempts_at_most_and_single_attempt_logs():
    # retry until solved with a budget of 2: p0 failed then succeeded, p1 succeeded at once, p2 failed twice. Every
    # solved problem ends with its first success, so the within-problem test does not exist (module docstring)
    prob, att, cor = _long([[0, 1], [1], [0, 0]])
    with pytest.warns(StoppingTimeWarning, match="cannot be tested"):
        res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert res.stops_at_success[0] and not res.testable[0] and np.isnan(res.p_value[0])
    assert res.completion[0].tolist() == pytest.approx([1 / 3, 2 / 3])  # first successes at 2, 1, never
    # p0 solved at its third attempt, p1 stopped after one failure: only p0 is known at budgets 2 and 3, so
    # completion is 0/2, 0/1, 1/1 and pass@b rests on p0 alone from b = 2: 1 - C(2, b)/C(3, b) (Chen et al. 2021)
    prob, att, cor = _long([[0, 0, 1], [0]])
    with pytest.warns(StoppingTimeWarning):
        res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert res.known[0].tolist() == [2, 1, 1] and res.completion[0].tolist() == [0.0, 0.0, 1.0]
    assert res.pass_at_k_known[0].tolist() == [2, 1, 1]
    np.testing.assert_allclose(res.pass_at_k[0], [1 / 6, 2 / 3, 1.0], rtol=1e-14)
    assert res.attempt_rate[0].tolist() == [0.0, 0.0, 1.0]
    # one attempt per problem: nothing to stop early, nothing to test across attempts, no warning; completion within 1
    # attempt and pass@1 are both the share solved, 2/3
    prob, att, cor = _long([[1], [0], [1]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = retries(prob, att, cor, n_resamples=99, rng=0)
    assert not res.stops_at_success[0] and not res.testable[0] and np.isnan(res.p_value[0])
    assert res.completion[0].tolist() == res.pass_at_k[0].tolist() == pytest.approx([2 / 3])


def test_zero_resamples_skip_the_test_unless_asymptotic():
    # n_resamples=0 skips the permutation test (docstring): no statistic, no p-value, not testable; the asymptotic
    # method needs no resample. One resample is a test: T = 0 here (as in test_permutation_p_value_at_its_bounds), so
    # p = (1 + 1)/(1 + 1) = 1
    prob, att, cor = _long([[0, 1, 1], [1, 0], [1, 0, 0], [0, 1]] * 2)
    res = retries(prob, att, cor, n_resamples=0)
    assert not res.testable[0] and np.isnan(res.p_value[0]) and np.isnan(res.statistic[0]) and not res.dependent[0]
    prob, att, cor = _long([[0, 1, 1], [1, 0, 0]] * 2)
    res = retries(prob, att, cor, n_resamples=0, method="asymptotic")
    assert res.testable[0] and res.p_value[0] == pytest.approx(1.0, abs=1e-9)  # chi-square sf at T = 0
    res = retries(prob, att, cor, n_resamples=1, rng=0)
    assert res.testable[0] and res.p_value[0] == 1.0


def test_one_problem_and_logs_where_nothing_varies():
    # one problem [0, 1, 0]: S = (0, 1, 0), E = 1/3 each, V = 2/9 each, so T = (1/9 + 4/9 + 1/9)/(2/9) = 3, and all
    # three arrangements give T = 3: p = 1 exactly (by hand)
    res = retries(["p"] * 3, [1, 2, 3], [0, 1, 0], n_resamples=99, rng=0)
    assert res.statistic[0] == pytest.approx(3.0, rel=1e-14) and res.p_value[0] == 1.0 and res.testable[0]
    # asymptotic: (n - 1)/n * T = 2 against chi-square with 2 degrees of freedom, whose survival function is exp(-x/2)
    res = retries(["p"] * 3, [1, 2, 3], [0, 1, 0], method="asymptotic")
    assert res.p_value[0] == pytest.approx(np.exp(-1.0), rel=1e-12)
    # every problem all right or all wrong: no attempt has any variance, nothing to test
    res = retries(*_long([[1, 1], [0, 0], [1, 1]]), n_resamples=99, rng=0)
    assert not res.testable[0] and np.isnan(res.p_value[0]) and res.completion[0].tolist() == [2 / 3, 2 / 3]


def test_read_attempts_of_one_sample_and_of_none(tmp_path):
    from passcurve.data import read_attempts

    # one sample is a log (its one row as written), a header alone is none
    path = tmp_path / "one.csv"
    path.write_text("problem_id,attempt,correct\np,0,1\n")
    d = read_attempts(path)
    assert d["problem"].tolist() == ["p"] and d["attempt"].tolist() == [0] and d["correct"].tolist() == [True]
    path.write_text("problem_id,attempt,correct\n")
    with pytest.raises(PasscurveError, match=r"^one\.csv has no data rows"):
        read_attempts(path)


def test_read_attempts_finds_a_repeated_attempt_in_any_problem(tmp_path):
    from passcurve.data import read_attempts

    # the repeated attempt in the second (model, problem) of the sorted samples, not the first: lines 3 and 4 by hand
    path = tmp_path / "r.jsonl"
    path.write_text('{"model": "a", "problem_id": "p", "attempt": 0, "correct": 0}\n'
                    '{"model": "a", "problem_id": "p", "attempt": 1, "correct": 1}\n'
                    '{"model": "b", "problem_id": "p", "attempt": 0, "correct": 1}\n'
                    '{"model": "b", "problem_id": "p", "attempt": 0, "correct": 1}\n')
    with pytest.raises(PasscurveError, match=r"^r\.jsonl: duplicate \(problem, attempt\) rows: problem 'p' \(model 'b'\) "
                                             r"attempt 0 appears 2 times at lines 3 and 4"):
        read_attempts(path)
