"""Counts: selecting models (``select_models``, the readers' ``models=``, the CLI's ``--models``)."""

from __future__ import annotations

import numpy as np
import pytest

import passcurve as pc
from passcurve import Counts, PasscurveError
from passcurve._counts import models_rows


def _three():
    # rows interleaved on purpose: a, b, c, a, b, c
    return Counts.from_arrays(np.full(6, 10), np.arange(6), problem=np.array(["p1", "p1", "p1", "p2", "p2", "p2"]),
                              model=np.array(["a", "b", "c", "a", "b", "c"]))


def test_select_models_keeps_the_order_named():
    # `--models c,a` printed a before c: the selection kept the file's order
    cnt = _three()
    sel = cnt.select_models(["c", "a"])
    assert sel.models == ["c", "a"]
    assert [g for g, _ in sel.groups()] == ["c", "a"]
    # each model's rows stay in their own order, with their own values
    np.testing.assert_array_equal(sel.c, [2, 5, 0, 3])
    np.testing.assert_array_equal(sel.problem, ["p1", "p2", "p1", "p2"])
    assert cnt.select_models(["a", "c"]).models == ["a", "c"]


def test_models_rows_checks_as_models_mask():
    labels = np.array(["x", "y", "x"], dtype=object)
    np.testing.assert_array_equal(models_rows(labels, ["y", "x"]), [1, 0, 2])
    np.testing.assert_array_equal(models_rows(labels, "x"), [0, 2])  # one name, not its characters
    np.testing.assert_array_equal(models_rows(labels, ["x", "x"]), [0, 2])  # a name given twice: its rows once
    with pytest.raises(PasscurveError, match=r"^`models` must name a model present \(got 'z'\); models present: x, y$"):
        models_rows(labels, ["z"])


def test_float16_and_float32_counts_convert_without_a_warning():
    # whole numbers stored as float16 (Parquet, pandas) are counts: comparing float16 with the 2**62 bound
    # overflowed the cast of 2**62 to float16 and printed "RuntimeWarning: overflow encountered in cast"
    import warnings

    for dtype in (np.float16, np.float32):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            c = Counts.from_arrays(np.array([10, 2048], dtype=dtype), np.array([1, 7], dtype=dtype))
        assert c.n.tolist() == [10, 2048] and c.c.tolist() == [1, 7] and c.n.dtype == np.int64
    with pytest.raises(PasscurveError, match=r"`n` must contain integers \(got 10.5\)"):
        Counts.from_arrays(np.array([10.5], dtype=np.float16), [1])


def test_arrays_are_read_only():
    # Counts is frozen, but its arrays were writable: C.n[0] = 1 left n = [1, 10] with c = [3, 4], c > n without a
    # check (API review). Every array of a built Counts, and of its views (take, select, groups), now refuses.
    n_in, c_in = np.array([10, 10]), np.array([3, 4])
    C = Counts.from_arrays(n_in, c_in, problem=["a", "b"], model="m", weight=[1.0, 2.0], cluster=["x", "y"])
    own_n = np.array([5])
    direct = Counts(np.array(["m"], dtype=object), np.array(["a"], dtype=object), own_n, np.array([2]))
    import copy
    import pickle

    # pickle and deepcopy restore without __init__: read-only too, with the same rows
    restored = (copy.deepcopy(C), pickle.loads(pickle.dumps(C)), copy.copy(C))
    assert all(r.n.tolist() == [10, 10] and r.problem.tolist() == ["a", "b"] for r in restored)
    for counts in (C, C.take([1, 0]), C.select("m"), next(C.groups())[1], direct, *restored):
        for name in ("model", "problem", "n", "c", "weight", "cluster"):
            arr = getattr(counts, name)
            if arr is None:
                continue
            with pytest.raises(ValueError, match="read-only"):
                arr[0] = arr[-1]
    assert C.n.tolist() == [10, 10] and C.c.tolist() == [3, 4]
    # the caller's own arrays stay writable (Counts keeps read-only views, not the caller's flags)
    own_n[0] = 4
    assert own_n.flags.writeable and not direct.n.flags.writeable


def test_unknown_model_lists_names_as_they_read_back():
    # a CSV's model column ' gpt-4 ' (spaces kept: ids are text as written) was listed as "models present: gpt-4 ,
    # llama", so the name looked like the one asked for; a name with a comma read as two names
    c = Counts.from_arrays(n=[2, 2, 2], c=[1, 1, 0], problem=["p", "p", "p"], model=[" gpt-4 ", "llama, 8B", "B"])
    with pytest.raises(PasscurveError) as info:
        c.select_models(["gpt-4"])
    assert str(info.value) == ("`models` must name a model present (got 'gpt-4'; did you mean ' gpt-4 '?); "
                               "models present: ' gpt-4 ', 'llama, 8B', B")
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'b'; did you mean 'B'\?\); models present: "):
        c.select("b")
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'z'\); models present: ' gpt-4 ', 'llama, 8B', B$"):
        c.select("z")


def test_unknown_model_hint_ignores_punctuation_and_case():
    # 'pythia-1b' for the shared data's 'Pythia 1B' had no hint (only case and end spaces were ignored); the hint
    # compares names without case, spaces or punctuation, and only when exactly one name matches
    c = Counts.from_arrays(n=[2, 2, 2], c=[1, 1, 0], problem=["p", "p", "p"], model=["Pythia 1B", "Pythia 12B", "x_y"])
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'pythia-1b'; did you mean 'Pythia 1B'\?\); "):
        c.select("pythia-1b")
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got 'X Y'; did you mean 'x_y'\?\); "):
        c.select("X Y")
    with pytest.raises(PasscurveError, match=r"^`model` must name a model present \(got '-'\); models present: "):  # nothing left to compare
        c.select("-")


@pytest.mark.parametrize("call", [
    lambda c: pc.curve(c, k=[1]),
    lambda c: pc.fit_power_law(c),
    lambda c: pc.check_deviations(c, emit=False),
    lambda c: pc.forecast(c, k=[100]),
    lambda c: pc.BetaBinomial().fit(c),
    lambda c: pc.rl.dead_groups(c),
])
def test_a_counts_without_rows_is_refused(call):
    # a Counts built by the dataclass itself may hold no rows (from_arrays, take and the readers refuse that): curve
    # raised numpy's 'zero-size array to reduction operation minimum', BetaBinomial().fit a ZeroDivisionError,
    # forecast 'need at least one array to concatenate', and fit_power_law, check_deviations and rl.dead_groups
    # returned a result of nothing. The shared first check (check_counts_object) now refuses it.
    empty = Counts(np.array([], dtype=object), np.array([], dtype=object), np.array([], dtype=np.int64),
                   np.array([], dtype=np.int64))
    with pytest.raises(PasscurveError, match=r"^`counts` holds no problems \(0 rows\); a Counts needs at least one$"):
        call(empty)


def test_what_counts_are_made_of_says_how_to_get_them(tmp_path):
    # curve(df), curve("file.csv"), forecast(simulate(...)) were each told to "build one with Counts.from_arrays(n,
    # c)"; a data frame, a path, a simulation and answer tallies now say how to get the counts from them
    pd = pytest.importorskip("pandas")
    counts = Counts.from_arrays([10, 10], [1, 2])
    cases = [
        (counts.to_frame(), "DataFrame", r"read a frame with passcurve.counts_from_frame\(df\)"),
        (str(tmp_path / "c.csv"), "str", r"to read a file, passcurve.read_counts\(path\)"),
        (tmp_path / "c.csv", "PosixPath", r"to read a file, passcurve.read_counts\(path\)"),
        (pc.simulate(5, 10, rng=0), "SimulatedBenchmark", r"a simulation's counts are its `.counts`"),
        (pc.AnswerTallies.from_answers([["a", "b"]], ["a"]), "AnswerTallies", r"answer tallies give theirs with "
                                                                             r"`.to_counts\(\)`"),
        (pd.Series([10, 10]), "Series", r"build one with Counts.from_arrays\(n, c\)"),  # a column is not a frame
        ([10, 10], "list", r"build one with Counts.from_arrays\(n, c\)"),
    ]
    for given, kind, how in cases:
        with pytest.raises(PasscurveError, match=rf"^`counts` must be a passcurve.Counts \(got {kind}\); {how}$"):
            pc.curve(given)


def test_from_arrays_refuses_a_repeated_problem_and_a_2d_c():
    # each (model, problem) appears once: the first repeated pair (in sorted order of the keys) is named, whether it
    # is repeated twice or more; the same problem id under two models is two rows, not a repeat
    with pytest.raises(PasscurveError, match=r"^duplicate problem 'x' for model 'm': each \(model, problem\) must "
                                             r"appear once$"):
        Counts.from_arrays([5, 5, 5], [1, 2, 3], problem=["x", "y", "x"], model="m")
    with pytest.raises(PasscurveError, match=r"^duplicate problem 'b' for model 'm'"):  # 'a' is not repeated
        Counts.from_arrays([5] * 5, [1, 2, 3, 4, 5], problem=["c", "a", "b", "c", "b"], model="m")
    assert len(Counts.from_arrays([5, 5], [1, 2], problem=["x", "x"], model=["m", "k"])) == 2
    # c as a 2-d array is refused as n is (it had been flattened row by row)
    with pytest.raises(PasscurveError, match=r"^`c` must be one number or a 1-d sequence \(got shape \(1, 2\)\)"):
        Counts.from_arrays([5, 5], [[1, 2]])


def test_weights_need_a_positive_total_per_model_not_a_total_of_one():
    # weights 1/4 + 1/4 (total 1/2) are positive and accepted; a model whose weights are all 0 is refused by name
    assert Counts.from_arrays([5, 5], [1, 2], weight=[0.25, 0.25]).weight.tolist() == [0.25, 0.25]
    with pytest.raises(PasscurveError, match=r"^`weight` must have a positive sum for each model \(model 'b': all "
                                             r"zeros\)$"):
        Counts.from_arrays([5, 5, 5], [1, 2, 3], model=["a", "b", "b"], weight=[1, 0, 0])


def test_take_accepts_every_row_number_in_range_and_refuses_those_beyond():
    # rows of a 3-row Counts are 0..2, or -3..-1 counted from the end (as numpy indexes); any index out of that range,
    # first or last of the ones given, is a one-line error naming the range asked, not numpy's IndexError
    C = Counts.from_arrays([4, 5, 6], [1, 2, 3])
    assert C.take([-3, 2]).n.tolist() == [4, 6] and C.take(-1).n.tolist() == [6]
    for bad, got in (([0, 3], "0..3"), ([3], "3..3"), ([-4, 0], "-4..0"), ([1, -4], "-4..1")):
        with pytest.raises(PasscurveError, match=rf"^`index` must be row numbers in \[0, 3\) \(got {got}\)$"):
            C.take(bad)


def test_groups_give_each_model_its_own_rows_and_the_summary_its_range():
    # counted by hand from _three(): model a has rows 0 and 3 (c = 0, 3), b rows 1 and 4, c rows 2 and 5
    got = {m: g.c.tolist() for m, g in _three().groups()}
    assert got == {"a": [0, 3], "b": [1, 4], "c": [2, 5]}
    C = Counts.from_arrays([3, 7, 5], [1, 0, 5], source="s")
    assert C.samples_summary() == {"problems": 3, "n_min": 3, "n_median": 5.0, "n_max": 7, "samples": 15, "successes": 6}
    assert repr(C) == "Counts(1 model(s), 3 rows, n 3..7, source='s')"


def test_stopping_design_reads_the_flagged_models_evidence():
    from passcurve._counts import stopping_design

    # hand-built evidence: the batch is each flagged model's step below its largest n (else its common step), the
    # cap the largest n over the flagged models; a flagged name with no entry ("ghost") and an unflagged model ("c",
    # whose cap 999 would win) do not count
    ev = {"flagged_models": ["a", "b", "ghost"],
          "models": {"a": {"n_common_step": 5, "n_step_below_max": 10, "n_max": 100},
                     "b": {"n_common_step": 10, "n_max": 60}, "c": {"n_common_step": 3, "n_max": 999}}}
    assert stopping_design(ev) == (10, 100)
    assert stopping_design(ev, keep=["b"]) == (10, 60)
    assert stopping_design(ev, keep=["c"]) is None  # kept, but not flagged
    # steps that differ between the flagged models: no common batch, the cap still the largest n
    ev["models"]["b"]["n_common_step"] = 4
    assert stopping_design(ev) == (None, 100)
    for nothing in (None, {"flagged_models": []}, {"flagged_models": ["a"], "models": None}):
        assert stopping_design(nothing) is None
