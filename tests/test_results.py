"""The helpers shared by the result objects: JSON-safe values and pandas frames of to_dict() records."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import passcurve
from passcurve._results import json_safe, long_frame, records_frame


def test_records_frame_all_null_column_is_float():
    # a column that is null in every record (an undefined number) was an object column of None, unlike a column
    # with some nulls (float, NaN); strings and booleans keep their types
    df = records_frame([{"model": "a", "k": 1, "observed": None, "x": 0.5, "ok": True},
                        {"model": "b", "k": 2, "observed": None, "x": None, "ok": False}])
    assert df["observed"].dtype == np.float64 and df["observed"].isna().all()
    assert df["x"].dtype == np.float64 and df["k"].dtype == np.int64 and df["ok"].dtype == bool
    assert list(df["model"]) == ["a", "b"]
    assert records_frame([], columns=["model", "k"]).shape == (0, 2)
    long = long_frame({"models": [{"model": "m", "curve": [{"k": 1, "low": None}, {"k": 2, "low": None}]}]})
    assert long["low"].dtype == np.float64


def test_to_frame_of_undefined_numbers_is_float():
    # forecast beyond the samples drawn: `observed` is null at every K; its to_frame() column was dtype object
    bench = passcurve.simulate(problems=40, n=50, models=passcurve.DEMO_MODELS[:1], rng=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fc = passcurve.forecast(bench.counts, [1000, 10**4], n_resamples=5, rng=0)
        bounds = passcurve.extrapolation_bounds(bench.counts, [1000, 10**4], rng=0)
    assert all(r["observed"] is None for r in fc.to_dict()["forecasts"])
    json.dumps(json_safe(fc.to_dict()), allow_nan=False)
    for frame in (fc.to_frame(), bounds.to_frame()):
        assert frame["observed"].dtype == np.float64 and frame["observed"].isna().all()


def test_json_safe_numpy_scalars_and_arrays():
    # the docstring promised numpy scalars: np.float64 worked (a float subclass), but np.float32('nan') stayed
    # NaN (json.dumps wrote the token NaN) and np.int64 / np.bool_ / arrays made json.dumps raise TypeError
    d = {"a": np.float32("nan"), "b": np.int64(3), "c": np.bool_(True), "d": np.array([1.5, np.inf]),
         "e": (np.float64(2.0), np.float32(0.5)), "f": [np.nan, {"g": np.float16("-inf")}]}
    out = json_safe(d)
    assert out == {"a": None, "b": 3, "c": True, "d": [1.5, None], "e": [2.0, 0.5], "f": [None, {"g": None}]}
    assert type(out["b"]) is int and type(out["c"]) is bool and type(out["e"][1]) is float
    json.loads(json.dumps(out, allow_nan=False))


def test_print_json_is_strict(capsys):
    from passcurve.cli._app import print_json

    print_json({"k": np.int64(10), "x": np.float32("inf"), "y": [np.float64("nan")]})
    text = capsys.readouterr().out
    assert json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c))) == {
        "k": 10, "x": None, "y": [None], "warnings": []}  # a result's JSON always says its warnings (none here)


def test_to_frame_without_pandas_is_one_clear_error(monkeypatch):
    # pandas is optional interop, not a dependency: every to_frame() says how to get it instead of a bare
    # ModuleNotFoundError (two of them did; the others raised "No module named 'pandas'" from deep inside)
    import pytest

    bench = passcurve.simulate(problems=30, n=40, models=passcurve.DEMO_MODELS[:1], rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [
            bench.counts,
            passcurve.curve(bench.counts, k=[1, 4]),
            passcurve.fit_difficulty(bench.counts, model=["beta"]),
            passcurve.forecast(bench.counts, [100], n_resamples=0, rng=0),
            passcurve.check_deviations(bench.counts),
            passcurve.plan(bench.counts, budget=100, k=100, rng=0),
        ]
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)  # import pandas now fails
    for r in results:
        with pytest.raises(passcurve.PasscurveError, match=r"`to_frame\(\)` needs pandas, an optional dependency"):
            r.to_frame()



def test_notebook_html_without_pandas_is_skipped_not_an_error(monkeypatch):
    # a notebook shows a result through _repr_html_, which was to_frame().to_html(): without pandas it raised
    # to_frame's PasscurveError, which a notebook prints as a formatter traceback above the result. None is the
    # display protocol's "no HTML form" (the plain repr is shown); with pandas the table is the to_frame() one.
    import pytest

    import passcurve.rl as rl

    bench = passcurve.simulate(problems=30, n=40, models=passcurve.DEMO_MODELS[:2], rng=1)
    c = bench.counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [
            passcurve.curve(c, k=[1, 4]),
            passcurve.compare(c, "tiny-1b", "base-7b", 1, method="analytic"),
            passcurve.rank_models(c, 1, n_resamples=200, rng=0),
            passcurve.hidden_difficulty(c.select("tiny-1b")),
            passcurve.vote([["a", "b", "a"], ["b", "b", "a"]], ["a", "b"], [1, 3]),
            passcurve.retries(["a"] * 4 + ["b"] * 4, [0, 1, 2, 3] * 2, [1, 0, 1, 1, 0, 0, 1, 0], n_resamples=99, rng=0),
            passcurve.verifier_inflation([10, 10], [5, 4], [3, 4]),
            rl.dead_groups(c.select("tiny-1b")),
            rl.gradient_conflict([0.1, 0.5, 0.9], np.eye(3), [1, 4]),
            rl.conflict_toy(pretrain_steps=5, steps=10, rng=0),
            # these had no HTML form (a notebook showed their one-line repr, the others a table)
            passcurve.power_analysis(0.05, 1, counts=c, a="tiny-1b", b="base-7b"),
            passcurve.fit_difficulty(c, model=["beta"]),
            passcurve.fit_power_law(c),
            passcurve.forecast(c, [100], n_resamples=0, rng=0),
            passcurve.k_for(c, 0.5, model="tiny-1b", n_resamples=0, rng=0),
            passcurve.backtest(c.select("tiny-1b"), m=(10,), k=(20,), seeds=1, methods=("beta",), n_resamples=0, rng=0),
            passcurve.extrapolation_bounds(c, [100], rng=0),
            passcurve.plan(c.select("tiny-1b"), budget=20, k=10, rng=0),
        ]
    for r in results:
        assert r._repr_html_().startswith("<table"), type(r).__name__
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)  # import pandas now fails
    for r in results:
        assert r._repr_html_() is None, type(r).__name__
    with pytest.raises(passcurve.PasscurveError, match=r"`to_frame\(\)` needs pandas"):
        results[0].to_frame()


def test_notebook_html_of_a_long_result_is_cut_as_pandas_cuts_its_tables():
    # the default curve of a file with n samples has a row per k in 1..n per model: at n = 10,000 (the Pythia file)
    # 70,000 rows, whose whole HTML table (11 MB) a notebook stored and drew. It is now cut at pandas'
    # display.max_rows (first and last rows, and the dimensions), as a DataFrame shows itself; to_frame() keeps
    # every row. Reference: 2 models x 300 k = 600 rows (hand count), 60 shown by default
    import pandas as pd

    bench = passcurve.simulate(problems=20, n=300, models=passcurve.DEMO_MODELS[:2], rng=1)
    res = passcurve.curve(bench.counts)
    assert len(res.to_frame()) == 600
    html = res._repr_html_()
    assert html.count("<tr>") == 60 + 1 and "600 rows × " in html  # 60 body rows and the '...' row
    with pd.option_context("display.max_rows", 10):
        assert res._repr_html_().count("<tr>") == 10 + 1
    short = passcurve.curve(bench.counts, k=[1, 2])
    assert short._repr_html_().count("<tr>") == 4 and "rows ×" not in short._repr_html_()


def test_result_reprs_are_one_short_line():
    # the dataclasses' generated repr printed every array and record: ConflictToyResult 12,573 characters on 162
    # lines, SimulatedBenchmark 4,639 on 60, PlanResult 3,905 on 45, RankResult 1,511 on 37 (measured on these
    # inputs); each is now Name(field=summary, ...) on one line, numbers to 4 digits, big arrays as their shape
    import passcurve.rl as rl

    bench = passcurve.simulate(problems=60, n=50, models=passcurve.DEMO_MODELS[:2], rng=1)
    one = bench.counts.select("tiny-1b")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [
            bench,
            passcurve.curve(bench.counts, k=[1, 5, 50]),
            passcurve.rank_models(bench.counts, [1, 5], n_resamples=200, rng=0),
            passcurve.forecast(one, [100, 1000], n_resamples=10, rng=0),
            passcurve.plan(one, budget=50, k=20, rng=0),
            passcurve.check_deviations(one, emit=False),
            rl.conflict_toy(pretrain_steps=20, steps=40, rng=0),
            passcurve.fit_difficulty(bench.counts),  # every fit's summary: 5,702 characters for 7 models
        ]
    for r in results:
        text = repr(r)
        assert "\n" not in text and len(text) <= 500, (type(r).__name__, len(text))
        assert text.startswith(type(r).__name__ + "(")
    cmp = passcurve.compare(bench.counts, "tiny-1b", "base-7b", [1, 5], n_resamples=200, rng=0)
    # small arrays keep their values (4 significant digits), large ones show their shape
    assert "k=[1, 5]" in repr(cmp) and f"value_a=[{cmp.value_a[0]:.4g}, {cmp.value_a[1]:.4g}]" in repr(cmp)
    assert "values={pass_at_k: <array 2x3 float64>" in repr(results[1])
    # the Planner is not a dataclass; its repr was the default <passcurve._planner.Planner object at 0x...>
    planner = passcurve.Planner(n=[5, 5], c=[1, 0], k=10)
    planner.update("0", [1, 0])
    assert repr(planner) == "Planner(method='hierarchical', k=10, problems=2, samples=12, successes=2)"

def test_every_result_names_the_kind_of_each_warning_it_keeps():
    # results keep their warnings as "Category: message" (the CLI's form); compare, curve_intervals and backtest
    # kept the bare message while forecast and rl-signal kept the category, so a saved to_dict() could not tell
    # a dropped problem from a degenerate interval. Each call below raises a warning of a known kind.
    from passcurve import _errors

    kinds = {name for name in _errors.__all__ if name.endswith("Warning")}
    cnt = passcurve.Counts.from_arrays([10, 10, 3, 10, 10], [2, 5, 1, 0, 4], model=["a", "a", "a", "b", "b"],
                                       problem=["p", "q", "r", "p", "s"])
    bench = passcurve.simulate(problems=30, n=40, models=passcurve.DEMO_MODELS[:2], rng=0).counts
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [
            passcurve.curve_intervals(cnt, [5], method="analytic", k_gt_n="drop"),  # k > n for one problem: dropped
            passcurve.compare(cnt, "a", "b", [1], rng=0),  # unpaired: different problem sets
            passcurve.backtest(bench, m=[10], k=[20, 100], seeds=1, methods=["least_squares"], n_resamples=0,
                               rng=0),  # k = 100 is beyond the full data's n = 40
        ]
    emitted = {f"{w.category.__name__}: {w.message}" for w in caught}
    for res in results:
        assert res.warnings, type(res).__name__
        for w in res.warnings:
            assert w.split(":", 1)[0] in kinds, w
            assert w in emitted, w  # the same text as the warning emitted


def test_plots_label_their_axes_and_interval_level():
    # curve_intervals' bands were drawn without their level (a 95% band looked like an 80% one), k_for's plot had
    # no y label, no title and, for an unreached target (k = inf), nothing on it; backtest's x axis was unlabelled
    bench = passcurve.simulate(problems=60, n=100, models=passcurve.DEMO_MODELS[:1], rng=1)
    c = bench.counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ci = passcurve.curve_intervals(c, k=[1, 10], confidence_level=0.9)
        g = passcurve.curve_intervals(c, k=[1, 10], metric="g_pass_at_k", tau=0.5)
        found = passcurve.k_for(c, 0.5, n_resamples=10, rng=0)
        bt = passcurve.backtest(c, m=(20,), k=(50,), seeds=1, methods=("beta",), n_resamples=0, rng=0)
    fig = ci.plot()
    assert fig.layout.title.text == "pass@k with 90% intervals (analytic)" and fig.data[0].name == "tiny-1b 90% interval"
    assert g.plot().layout.yaxis.title.text == "G-pass@k (τ = 0.5)"
    assert passcurve.curve(c, k=[1, 10]).plot().layout.title.text is None  # no bands, nothing to say
    f = found.plot()
    assert f.layout.yaxis.title.text == "target pass_D@K" and f.layout.xaxis.title.text == "K"
    assert f"80% interval {found.low:.4g} to {found.high:.4g}" in f.layout.title.text
    never = passcurve.KForResult(model="m", target=0.99, k=float("inf"), low=1e6, high=float("inf"), reachable=False,
                                 ceiling=0.9, method="zi_beta", confidence_level=0.8)
    assert never.plot().layout.title.text == "m: pass_D@K = 0.99 is not reached (the forecast's ceiling is 0.9000; zi_beta)"
    assert bt.plot().layout.xaxis.title.text
    bk = passcurve.extrapolation_bounds(c, [1000], confidence_level=0.9, rng=0).k_for(0.5, model="tiny-1b")
    assert bk.plot().layout.yaxis.title.text == "target pass_D@K"  # k_for's; it said pass@K
    assert bk.plot().layout.title.text.startswith(f"tiny-1b: pass_D@K = 0.5 possible from K = {bk.earliest:.4g}, ")
    assert bk.plot().layout.title.text.endswith("(every law consistent with the data, 90% band)")
    assert bk._repr_html_().startswith("<table")
    # power_analysis' problem counts depend on the level and the power, which its figure did not say
    two = passcurve.simulate(problems=60, n=20, models=passcurve.DEMO_MODELS[:2], rng=1).counts
    pw = passcurve.power_analysis(0.05, 1, counts=two, a="tiny-1b", b="base-7b", confidence_level=0.9, power=0.85)
    assert pw.plot().layout.title.text == "90% confidence, 85% power"


def test_to_dict_holds_python_numbers_only():
    # the difficulty fits' bic was a numpy float64 in to_dict() (np.log(N) * k - 2 loglik), the one numpy scalar among
    # the results' dicts: json.dumps accepts it (a float subclass), other consumers (msgpack, type checks) do not
    bench = passcurve.simulate(problems=40, n=50, models=passcurve.DEMO_MODELS[:1], rng=2)

    def leaves(x):
        if isinstance(x, dict):
            for v in x.values():
                yield from leaves(v)
        elif isinstance(x, list | tuple):
            for v in x:
                yield from leaves(v)
        else:
            yield x

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = passcurve.fit_difficulty(bench.counts)
    dicts = [fits.to_dict()] + [f.to_dict() for per in fits.fits.values() for f in per.values()]
    for d in dicts:
        bad = {type(v).__name__ for v in leaves(d) if v is not None and type(v) not in (bool, int, float, str)}
        assert not bad, bad
        json.dumps(d, allow_nan=False)


def _every_result():
    """One of each result class exported in passcurve.__all__ and passcurve.rl.__all__, each from a small input."""
    import passcurve.rl as rl

    bench = passcurve.simulate(problems=30, n=40, models=passcurve.DEMO_MODELS[:2], rng=0)
    c = bench.counts
    one = c.select("tiny-1b")
    rng = np.random.default_rng(0)
    prob = np.repeat(np.arange(12), 4)
    att = np.tile(np.arange(1, 5), 12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bounds = passcurve.extrapolation_bounds(one, [100, 1000], rng=0)
        return [
            bench, c, bench.specs[0],
            passcurve.curve(c, k=[1, 4]),
            passcurve.curve_intervals(c, k=[1, 4], n_resamples=100, rng=0),
            passcurve.compare(c, "tiny-1b", "base-7b", [1, 4], n_resamples=100, rng=0),
            passcurve.power_analysis(0.05, 1, counts=c, a="tiny-1b", b="base-7b"),
            passcurve.rank_models(c, [1, 4], n_resamples=100, rng=0),
            passcurve.hidden_difficulty(c, k=[1, 4]),
            tallies := passcurve.AnswerTallies.from_answers([["a", "b", "a", "a"], ["c", None, "d", "c"]], ["a", "d"]),
            passcurve.vote(tallies, k=[1, 2]),
            passcurve.retries(prob, att, rng.random(prob.size) < 0.3, n_resamples=0),
            passcurve.verifier_inflation([10, 10, 10], [5, 3, 8], [4, 3, 6], k=[1, 4]),
            passcurve.fit_difficulty(one, model=["beta"]),
            passcurve.fit_power_law(c, k=[1, 2, 4, 8]),
            passcurve.forecast(one, [100, 1000], n_resamples=5, rng=0),
            passcurve.k_for(one, 0.5, n_resamples=5, rng=0),
            passcurve.backtest(c, m=[10], k=[20], seeds=1, methods=["beta"], n_resamples=0, rng=0),
            bounds, bounds.k_for(0.5, model="tiny-1b"),
            passcurve.check_deviations(one, emit=False),
            passcurve.plan(one, budget=50, k=20, rng=0),
            rl.dead_groups(c, group_size=[8, 16]),
            rl.gradient_conflict([0.2, 0.5, 0.9], rng.normal(size=(3, 4)), k=[1, 4], with_kernel=True),
            rl.conflict_toy(pretrain_steps=10, steps=20, rng=0),
        ]


def _result_classes():
    import dataclasses

    import passcurve.rl as rl

    return {obj for mod in (passcurve, rl) for name in mod.__all__
            if isinstance(obj := getattr(mod, name), type) and dataclasses.is_dataclass(obj)}


def _containers(x, path):
    """(path, array or dict or list) for every array, dict and list inside a result's field."""
    import dataclasses

    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            yield from _containers(getattr(x, f.name), f"{path}.{f.name}")
    elif isinstance(x, np.ndarray | dict | list):
        yield path, x
        for key, v in (x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()):
            yield from _containers(v, f"{path}[{key!r}]")
    elif isinstance(x, tuple):
        for i, v in enumerate(x):
            yield from _containers(v, f"{path}[{i}]")


def _assert_read_only(result):
    """Write into every array, dict and list of a result (each must refuse); how many there were."""
    import pytest

    seen = 0
    for path, x in _containers(result, type(result).__name__):
        seen += 1
        if isinstance(x, np.ndarray):
            with pytest.raises(ValueError, match="read-only"):
                x[(0,) * x.ndim] = x[(0,) * x.ndim] if x.size else 0
                pytest.fail(f"{path} is writeable")
        elif isinstance(x, dict):
            edits = [("__setitem__", ("passcurve-test", 1)), ("clear", ()), ("update", ({"a": 1},)),
                     ("pop", (next(iter(x), None), None)), ("setdefault", ("a", 1))]
        else:
            edits = [("append", (1,)), ("__setitem__", (0, 1)), ("sort", ()), ("__iadd__", ([1],))]
        for method, args in edits if not isinstance(x, np.ndarray) else ():
            with pytest.raises(TypeError, match="does not support item assignment"):
                getattr(x, method)(*args)
                pytest.fail(f"{path}.{method} changed it")
    return seen


def test_every_result_is_read_only_all_the_way_down():
    # the result dataclasses were frozen but their arrays and dicts were not: `r.values["pass_at_k"][0, 0] = .99`
    # changed what to_dict(), to_frame() and plot() then reported; now every array refuses the write (numpy's
    # ValueError) and every dict or list refuses item assignment (TypeError), through pickle and deepcopy too
    import copy
    import pickle

    results = _every_result()
    built = {type(r) for r in results}
    missing = {cls.__name__ for cls in _result_classes()} - {cls.__name__ for cls in built}
    assert missing <= {"StopAtSuccess"}, missing  # a sampling design (two numbers), not a result
    for r in results:
        name = type(r).__name__
        assert _assert_read_only(r) > 0 or name in {"KForResult", "BoundsKFor", "ModelSpec"}, name
        for again in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
            assert type(again) is type(r)
            _assert_read_only(again)
            if hasattr(r, "to_dict"):
                assert json.dumps(json_safe(again.to_dict())) == json.dumps(json_safe(r.to_dict())), name
        if hasattr(r, "to_dict"):
            d = r.to_dict()
            json.dumps(json_safe(d), allow_nan=False)
        if hasattr(r, "to_frame"):
            r.to_frame()
        if hasattr(r, "_repr_html_"):
            r._repr_html_()
        repr(r)


def test_curve_values_cannot_be_changed_behind_to_dict():
    # the example of the report: writing into a curve's values changed its to_dict() and to_frame() silently
    import pytest

    c = passcurve.Counts.from_arrays([10, 10], [3, 7])
    r = passcurve.curve(c, k=[1, 2])
    before = r.to_dict()
    with pytest.raises(ValueError, match="read-only"):
        r.values["pass_at_k"][0, 0] = 0.99
    with pytest.raises(TypeError):
        r.values["pass_at_k"] = np.zeros((1, 2))
    assert r.to_dict() == before
    assert r.values["pass_at_k"][0, 0] == 0.5  # (3 + 7) / 20: the mean of c/n, exact arithmetic


def test_inputs_stay_writeable_and_read_only_copies_are_editable():
    # freezing works on views: the caller's arrays keep their flags (pass_at_k's inputs, Counts' and a curve's)
    n, c, k = np.array([10, 20]), np.array([3, 5]), np.array([1, 4])
    passcurve.pass_at_k(n, c, k)
    counts = passcurve.Counts.from_arrays(n, c)
    passcurve.curve(counts, k=k)
    p = np.array([0.2, 0.5, 0.9])
    passcurve.rl.gradient_conflict(p, np.eye(3), k=[1, 4])
    assert n.flags.writeable and c.flags.writeable and k.flags.writeable and p.flags.writeable
    r = passcurve.curve(counts, k=[1, 2])
    mine = r.values.copy()  # a plain dict again
    mine["x"] = 1
    assert type(mine) is dict and "x" not in r.values
    arr = np.array(r.values["pass_at_k"])
    arr[0, 0] = 1.0  # a copy of the array is the caller's to edit
    d = r.to_dict()  # plain dicts and lists, the caller's to edit
    d["models"][0]["curve"][0]["k"] = 99
    assert type(d["models"]) is list and r.to_dict()["models"][0]["curve"][0]["k"] == 1


def test_results_do_not_share_memory_with_the_callers_arrays():
    # Counts kept the caller's float weights and gradient_conflict the caller's p and k as they were (the read-only
    # view guarded the result's side only): refilling p in place, as a training loop does, changed r.p and what
    # to_dict() reported, and editing the weights changed the Counts' weighted means
    n, c, w = np.array([10, 10, 10]), np.array([3, 5, 7]), np.array([1.0, 2.0, 3.0])
    counts = passcurve.Counts.from_arrays(n, c, weight=w)
    p, k = np.array([0.2, 0.5, 0.9]), np.array([1.0, 4.0])
    r = passcurve.rl.gradient_conflict(p, np.eye(3), k=k)
    w[:] = 0.0
    p[:] = 0.0
    k[:] = 2.0
    assert counts.weight.tolist() == [1.0, 2.0, 3.0]
    assert r.p.tolist() == [0.2, 0.5, 0.9] and r.k.tolist() == [1.0, 4.0]
    # the weighted pass@1 is still (1*0.3 + 2*0.5 + 3*0.7) / 6 = 3.4 / 6 (exact arithmetic)
    assert abs(passcurve.curve(counts, k=[1]).values["pass_at_k"][0, 0] - 3.4 / 6) < 1e-12


def test_plot_and_to_frame_switches_are_checked():
    # plot(log_k="no") drew a log axis ("no" is true) and an array raised numpy's ambiguous-truth error, in each of the
    # five plots that take log_k; BacktestResult.to_frame gave the runs for any `which` but "summary" (a typo
    # "summry" too). Each is now the one-line error naming the argument (_validation.check_flag / check_choice).
    c = passcurve.Counts.from_arrays([10] * 6, [1, 2, 3, 4, 5, 6], problem=["a", "b", "c"] * 2,
                                     model=["m1"] * 3 + ["m2"] * 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = [passcurve.curve(c, k=[1, 5]), passcurve.compare(c, "m1", "m2", [1, 5], method="analytic"),
                   passcurve.hidden_difficulty(c, [1, 5]), passcurve.verifier_inflation([10, 10], [5, 4], [3, 4], [1, 5]),
                   passcurve.vote([["a", "a", "b"], ["b", "c", "c"]], ["a", "c"], [1, 3])]
        bt = passcurve.backtest(c.select("m1"), m=(5,), k=(10,), seeds=1, methods=("beta",), n_resamples=0, rng=0)
    for res in results:
        assert res.plot(log_k=False).layout.xaxis.type is None and res.plot().layout.xaxis.type == "log"
        for bad, shown in (("no", "'no'"), (np.array([1, 0]), r"\[1, 0\]"), (None, "None")):
            with pytest.raises(passcurve.PasscurveError, match=rf"^`log_k` must be True or False \(got {shown}\)$"):
                res.plot(log_k=bad)
    assert list(bt.to_frame("runs")["seed"]) == [r["seed"] for r in bt.rows]
    assert len(bt.to_frame()) == len(bt.summary)
    with pytest.raises(passcurve.PasscurveError, match=r'^`which` must be "summary" or "runs" \(got \'summry\'\)$'):
        bt.to_frame("summry")
