"""Weak verifiers: pass@k under base and strict verdicts and the inflation 1 - strict/base, checked
with exact rational arithmetic (math.comb) and on simulated data with a known truth."""

from __future__ import annotations

import re
import warnings
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from passcurve import DegenerateDataWarning, PasscurveError, verifier_inflation


def exact_pass(n, c, k):
    return 1 - Fraction(comb(n - c, k), comb(n, k))  # Chen et al. 2021, exact rational


def test_exact_rational_inflation():
    n = [10, 10, 8]
    cb = [5, 2, 1]
    cs = [2, 0, 1]
    res = verifier_inflation(n, cb, cs, [1, 3, 8])
    for j, k in enumerate([1, 3, 8]):
        pb = sum(exact_pass(a, b, k) for a, b in zip(n, cb, strict=True)) / 3
        ps = sum(exact_pass(a, b, k) for a, b in zip(n, cs, strict=True)) / 3
        assert res.pass_base[0, j] == pytest.approx(float(pb), abs=1e-14)
        assert res.pass_strict[0, j] == pytest.approx(float(ps), abs=1e-14)
        assert res.inflation[0, j] == pytest.approx(float(1 - ps / pb), abs=1e-13)
    s = res.summary[0]
    assert s["base_passes"] == 8 and s["strict_passes"] == 3 and s["problems_base_only"] == 1
    assert s["false_pass_rate"] == pytest.approx(5 / 8)  # strict passes assumed to pass base too


def test_inflation_grows_with_k_on_simulated_truth():
    # truth: strict success p_i ~ Beta(0.5, 2), except a third of the problems that no sample
    # truly solves, where the weak tests still pass a wrong program with probability 0.02.
    # Population pass@k under each verdict is mean 1 - (1 - q_i)^k, so the true drop is known;
    # estimates from n = 200 samples match it
    rng = np.random.default_rng(4)
    P, n = 600, 200
    hard = rng.random(P) < 1 / 3
    p = np.where(hard, 0.0, rng.beta(0.5, 2.0, P))
    f = np.where(hard, 0.02, 0.0)
    u = rng.random((P, n))
    strict = u < p[:, None]
    base = u < (p + f)[:, None]  # every strict pass is a base pass
    ks = np.array([1, 10, 100])
    res = verifier_inflation(np.full(P, n), base.sum(1), strict.sum(1), ks)
    true_b = np.mean(1 - (1 - (p + f))[:, None] ** ks[None, :], axis=0)
    true_s = np.mean(1 - (1 - p)[:, None] ** ks[None, :], axis=0)
    true_drop = 1 - true_s / true_b
    assert np.all(np.diff(true_drop) > 0)  # the drop grows with k (seed 003's pattern)
    assert np.all(np.diff(res.inflation[0]) > 0)
    assert np.allclose(res.inflation[0], true_drop, atol=0.03)


def test_strict_only_passes_are_flagged():
    # one such sample read "1 samples pass the strict verdict"; two read "2 samples pass"
    with pytest.warns(DegenerateDataWarning, match="1 sample passes the strict verdict but fails .*not a superset"):
        res = verifier_inflation([4], [2], [2], [1], c_strict_only=[1])
    assert res.summary[0]["strict_only_passes"] == 1
    with pytest.warns(DegenerateDataWarning, match="2 samples pass the strict verdict but fail the base"):
        verifier_inflation([4], [2], [3], [1], c_strict_only=[2])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([4], [5], [1], [1]), "`c` must be <= n"),
        (([4], [2], [1], [5]), "`k` must be an integer in \\[1, n\\]"),
        (([4, 4], [2], [1], [1]), "same length"),
        (([4], [2.5], [1], [1]), "`c_base` must contain integers"),
    ],
)
def test_bad_input(args, match):
    with pytest.raises(PasscurveError, match=match):
        verifier_inflation(*args)


def test_cli_verifiers(tmp_path, capfd):
    import json

    from passcurve.cli._app import run

    path = tmp_path / "v.csv"
    rows = ["problem_id,base,plus"]
    # p0: 4 samples, base passes 3, plus passes 1; p1: base passes 1, plus 0
    rows += ["p0,1,1", "p0,1,0", "p0,1,0", "p0,0,0", "p1,1,0", "p1,0,0", "p1,0,0", "p1,0,0"]
    path.write_text("\n".join(rows) + "\n")
    code = run(["verifiers", str(path), "--base", "base", "--strict", "plus", "--k", "1,2,4", "--json"])
    cap = capfd.readouterr()
    assert code == 0, cap.err
    d = json.loads(cap.out)
    ref = verifier_inflation([4, 4], [3, 1], [1, 0], [1, 2, 4])
    assert [pt["inflation"] for pt in d["models"][0]["curve"]] == pytest.approx(ref.inflation[0].tolist())
    assert d["models"][0]["false_pass_rate"] == pytest.approx(3 / 4)


def test_cli_verifiers_not_boolean_exit_2(tmp_path, capfd):
    from passcurve.cli._app import run

    path = tmp_path / "v.csv"
    path.write_text("problem_id,base,plus\np0,1,0.5\np0,1,0\n")
    code = run(["verifiers", str(path), "--base", "base", "--strict", "plus"])
    err = capfd.readouterr().err
    assert code == 2 and "is not boolean" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name, text", [
    ("v.jsonl", '{"problem_id": "a", "base": true, "plus": true}\n{"problem_id": "a", "base": null, "plus": false}\n'),
    ("v.csv", "problem_id,base,plus\na,1.0,1\na,nan,0\n"),
    ("v.csv", "problem_id,base,plus\na,true,true\na,,false\n"),
])
def test_cli_verifiers_missing_verdict_is_named_missing(tmp_path, capfd, name, text):
    # a null, NaN or empty verdict said "is not boolean (true/false, 0/1)"; it is a missing value, as the samples
    # reader names a missing correctness value
    from passcurve.cli._app import run

    path = tmp_path / name
    path.write_text(text)
    code = run(["verifiers", str(path), "--base", "base", "--strict", "plus"])
    err = capfd.readouterr().err
    assert code == 2 and "verdict column 'base' (`--base`) has a missing value (null/NaN), e.g. row" in err
    assert len(err.strip().splitlines()) == 1


def test_read_verdicts_unknown_column(tmp_path):
    from passcurve.data import read_verdicts

    path = tmp_path / "v.csv"
    path.write_text("problem_id,base,plus\np0,1,0\n")
    with pytest.raises(PasscurveError, match="no column 'nope'"):
        read_verdicts(path, base_col="base", strict_col="nope")
    with pytest.raises(PasscurveError, match="name the same column"):
        read_verdicts(path, base_col="base", strict_col="base")


def test_read_verdicts_refuses_one_id_written_two_ways(tmp_path):
    # 'p0' and ' p0' were two problems; the counts readers' spelling check applies to the verdict reader too
    from passcurve.data import read_verdicts

    path = tmp_path / "v.csv"
    path.write_text('problem_id,base,plus\np0,1,0\n" p0",1,1\n')
    with pytest.raises(PasscurveError, match=r"writes one id two ways, ' p0' and 'p0'"):
        read_verdicts(path, base_col="base", strict_col="plus")


def test_read_verdicts_refuses_a_duplicate_attempt(tmp_path, capfd):
    # p1 attempt 1 twice (a log concatenated twice) had been two samples: n = 3, c_base = c_strict = 2, pass@1 2/3
    # where the two distinct samples give 1/2; refused now, as the answers and samples readers refuse it
    from passcurve.cli._app import run
    from passcurve.data import read_verdicts

    path = tmp_path / "v.csv"
    path.write_text("problem_id,attempt,base,plus\np1,1,1,1\np1,1,1,1\np1,2,0,0\n")
    msg = "v.csv: duplicate attempt 1 in problem 'p1' (column 'attempt')"
    with pytest.raises(PasscurveError, match=re.escape(msg)):
        read_verdicts(path, base_col="base", strict_col="plus")
    assert run(["verifiers", str(path), "--base", "base", "--strict", "plus"]) == 2
    err = capfd.readouterr().err
    # its two rows: lines 2 and 3 (line 1 the header)
    assert err.strip().splitlines() == [f"passcurve: error: {msg} at lines 2 and 3"] and "Traceback" not in err
    # an attempt column under another name, given; the model is part of the key (a's attempt 1 and b's are two)
    other = tmp_path / "w.csv"
    other.write_text("model,problem_id,try,base,plus\na,p1,1,1,1\nb,p1,1,0,0\nb,p1,1,1,0\n")
    assert run(["verifiers", str(other), "--base", "base", "--strict", "plus", "--attempt-col", "try"]) == 2
    assert "w.csv: duplicate attempt 1 in problem 'p1' (column 'try')" in capfd.readouterr().err
    other.write_text("model,problem_id,try,base,plus\na,p1,1,1,1\nb,p1,1,0,0\nb,p1,2,1,0\n")
    g = read_verdicts(other, base_col="base", strict_col="plus", attempt_col="try")
    assert g["model"].tolist() == ["a", "b"] and g["n"].tolist() == [1, 2] and g["c_base"].tolist() == [1, 1]


@pytest.mark.parametrize("reader", ["verifiers", "vote"])
def test_a_missing_attempt_is_refused_as_the_samples_reader_refuses_it(tmp_path, capfd, reader):
    # an empty attempt had read "duplicate attempt -- in problem 'a'" in vote (and passed the verifiers' fingerprint
    # check when alone); the samples reader says "attempt column ... has a missing value, e.g. row {...}"
    from passcurve.cli._app import run

    path = tmp_path / "v.csv"
    if reader == "vote":
        path.write_text("problem_id,attempt,answer,gold\na,1,1,1\na,,2,1\n")
        args = ["vote", str(path)]
    else:
        path.write_text("problem_id,attempt,base,plus\na,1,1,0\na,,1,1\n")
        args = ["verifiers", str(path), "--base", "base", "--strict", "plus"]
    assert run(args) == 2
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "v.csv: attempt column 'attempt' has a missing value, e.g. row {problem_id='a', attempt=None" in err


def test_verifier_inflation_refuses_strict_above_base() -> None:
    # hand count: problem 0 has c_strict=5 > c_base=3 with no c_strict_only, which gave false_pass_rate -0.4
    import pytest

    import passcurve as pc
    with pytest.raises(pc.PasscurveError, match=r"problem 0: c_strict must be <= c_base.*swapped"):
        pc.verifier_inflation([10, 10], [3, 2], [5, 2], k=[1, 5])
    with pytest.warns(pc.DegenerateDataWarning, match="2 samples pass the strict verdict"):
        r = pc.verifier_inflation([10, 10], [3, 2], [5, 2], k=[1, 5], c_strict_only=[2, 0])
    assert r.to_dict() is not None


def test_csv_verdict_column_takes_a_late_true_word(tmp_path):
    # a CSV verdict column sniffed BOOLEAN (true/false in its first 20,480 rows) stopped the read on a later 'passed'
    # ("Could not convert string "passed" to 'BOOLEAN'"); it is now read again as text on that error. Hand count:
    # 30,000 rows, base all true, strict true on odd rows, then p0's attempt 300 with base 'passed', strict true.
    from passcurve.data import read_verdicts

    p = tmp_path / "v.csv"
    p.write_text("problem_id,attempt,base,strict\n" + "".join(
        f"p{i % 100},{i // 100},true,{'true' if i % 2 else 'false'}\n" for i in range(30000)) + "p0,300,passed,true\n")
    got = read_verdicts(p, base_col="base", strict_col="strict")
    assert (got["n"].sum(), got["c_base"].sum(), got["c_strict"].sum(), got["c_strict_only"].sum()) == (
        30001, 30001, 15001, 0)


def test_summary_counts_with_strict_only_passes():
    # by hand, five problems of 10 samples: both = c_strict - c_strict_only pass both verdicts = 2, 0, 0, 0, 1, so
    # the false-pass rate (base passes failing strict) is (10 - 3)/10; problems solved under base but never under
    # strict: 1 (3 base passes), 3 (1 base pass); problem 4 has one strict pass, so it is not one of them
    with pytest.warns(DegenerateDataWarning, match="3 samples pass the strict verdict but fail the base one"):
        res = verifier_inflation([10] * 5, [4, 3, 0, 1, 2], [3, 0, 2, 0, 1], [1], c_strict_only=[1, 0, 2, 0, 0])
    s = res.summary[0]
    assert (s["base_passes"], s["strict_passes"], s["strict_only_passes"], s["problems_base_only"]) == (10, 6, 3, 2)
    assert s["false_pass_rate"] == pytest.approx(7 / 10, rel=1e-15)
    # c_strict_only given but all zero: nothing to flag
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = verifier_inflation([10, 10], [4, 3], [3, 1], [1], c_strict_only=[0, 0])
    assert res.summary[0]["false_pass_rate"] == pytest.approx(3 / 7, rel=1e-15) and not res.warnings


def test_default_k_grid_runs_to_the_smallest_n():
    # documented default: 1, 2, 5, 10, 20, 50, ... up to the smallest n, which closes the grid
    assert verifier_inflation([12, 30], [3, 5], [1, 2]).k.tolist() == [1, 2, 5, 10, 12]
    assert verifier_inflation([1000, 2000], [3, 5], [1, 2]).k.tolist() == [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        # k = 20 is within the larger n but above the smaller one
        (([12, 30], [3, 5], [1, 2], [1, 20]), {}, r"`k` must be an integer in \[1, n\] \(got k=20, n=12\)"),
        # strict-only passes are strict passes: at most c_strict
        (([10], [4], [1], [1]), {"c_strict_only": [2]}, "`c_strict_only` must have one entry per problem and be <="),
        # ... and fail base: at most n - c_base = 1
        (([10], [9], [3], [1]), {"c_strict_only": [2]}, "problem 0: c_strict - c_strict_only must be <= c_base"),
        (([10, 10], [4, 4], [1, 1], [1]), {"c_strict_only": [0, 2]}, "`c_strict_only` must have one entry per problem"),
        (([10], [4], [1], [1]), {"c_strict_only": [[1]]}, "`c_strict_only` must be one number or a 1-d sequence"),
        (([[10]], [4], [1], [1]), {}, "`n` must be one number or a 1-d sequence"),
        (([10], [[4]], [1], [1]), {}, "`c_base` must be one number or a 1-d sequence"),
        (([10], [4], [[1]], [1]), {}, "`c_strict` must be one number or a 1-d sequence"),
    ],
)
def test_bad_strict_only_and_k_input(args, kwargs, match):
    with pytest.raises(PasscurveError, match=match):
        verifier_inflation(*args, **kwargs)


def test_inflation_is_nan_where_nothing_passes_base_and_gap_is_base_minus_strict():
    # model "none" never passes base (nor strict): pass_base@k = 0 and the relative drop 0/0 is NaN (documented),
    # its absolute gap 0. Model "some", by hand (Chen et al. 2021): n = 4, c_base = 2, c_strict = 1 at k = 1, 2:
    # base 1/2, 5/6; strict 1/4, 1/2; gap 1/4, 1/3; drop 1/2, 2/5
    res = verifier_inflation([4, 4], [0, 2], [0, 1], [1, 2], model=["none", "some"])
    assert res.models == ("none", "some")
    assert np.isnan(res.inflation[0]).all() and res.absolute_gap[0].tolist() == [0.0, 0.0]
    assert res.summary[0]["problems_base_only"] == 0 and res.summary[0]["false_pass_rate"] is None
    np.testing.assert_allclose(res.absolute_gap[1], [1 / 4, 1 / 3], rtol=1e-14)
    np.testing.assert_allclose(res.inflation[1], [1 / 2, 2 / 5], rtol=1e-14)


def test_read_verdicts_of_one_problem_and_of_none(tmp_path):
    from passcurve.data import read_verdicts

    # one problem is one group of counts. By hand: (base, plus) = (1, 0), (1, 1), (0, 1) -> n 3, base 2, plus 2, plus
    # without base 1
    path = tmp_path / "v.csv"
    path.write_text("problem_id,base,plus\np0,1,0\np0,1,1\np0,0,1\n")
    g = read_verdicts(path, base_col="base", strict_col="plus")
    assert g["problem"].tolist() == ["p0"] and g["n"].tolist() == [3]
    assert g["c_base"].tolist() == [2] and g["c_strict"].tolist() == [2] and g["c_strict_only"].tolist() == [1]
    path.write_text("problem_id,base,plus\n")
    with pytest.raises(PasscurveError, match=r"^v\.csv has no data rows"):
        read_verdicts(path, base_col="base", strict_col="plus")
