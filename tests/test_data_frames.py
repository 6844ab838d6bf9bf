"""counts_from_frame: pandas, polars, pyarrow, DuckDB relations (DuckDB scan) and Dask/PySpark (own engine)."""

from __future__ import annotations

import re
import shutil

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from passcurve import DegenerateDataWarning, PasscurveError, counts_from_frame, simulate


def as_set(counts):
    return {
        (str(m), str(p), int(n), int(c))
        for m, p, n, c in zip(counts.model, counts.problem, counts.n, counts.c, strict=True)
    }


@pytest.fixture(scope="module")
def bench():
    b = simulate(problems=20, n=15, rng=11)
    return b, b.samples(rng=12)


def _pandas(s):
    return pd.DataFrame({k: np.asarray(v) for k, v in s.items()})


FRAMES = {
    "pandas": _pandas,
    "polars": lambda s: pl.from_pandas(_pandas(s)),
    "pyarrow": lambda s: pa.Table.from_pandas(_pandas(s)),
    "polars_lazy": lambda s: pl.from_pandas(_pandas(s)).lazy(),
}


@pytest.mark.parametrize("kind", sorted(FRAMES))
def test_frames_equal_simulated_counts(bench, kind):
    b, s = bench
    got = counts_from_frame(FRAMES[kind](s))
    assert as_set(got) == as_set(b.counts)


def test_duckdb_relation(bench):
    b, s = bench
    df = _pandas(s)
    con = duckdb.connect()
    rel = con.from_df(df)
    assert as_set(counts_from_frame(rel)) == as_set(b.counts)


def test_explicit_names_and_no_model():
    df = pd.DataFrame({"q": ["a", "a", "b"], "ok": [1, 0, 1]})
    got = counts_from_frame(df, problem="q", correct="ok", name="mine")
    assert as_set(got) == {("mine", "a", 2, 1), ("mine", "b", 1, 1)}


def test_counts_frame():
    df = pl.DataFrame({"problem_id": ["a", "b"], "n": [5, 5], "c": [1, 6]})
    with pytest.raises(PasscurveError, match="`c` must be <= n"):
        counts_from_frame(df)


def test_bad_frame_type():
    with pytest.raises(PasscurveError, match="`df` must be"):
        counts_from_frame([1, 2, 3])


@pytest.mark.parametrize("column", [pd.Series([1, 0], name="correct"), pd.Index(["a", "b"])])
def test_a_pandas_column_is_not_a_frame(column):
    # a pandas Series or Index (one column, e.g. df["correct"]) went to DuckDB's from_df, whose TypeError ("from_df():
    # incompatible function arguments. The DataFrame argument is a Series") escaped; it is refused as a list is
    kind = type(column).__name__
    with pytest.raises(PasscurveError, match=rf"^`df` must be a pandas, polars, pyarrow, DuckDB, Dask or PySpark frame "
                                             rf"\(got {kind}\)$"):
        counts_from_frame(column)


FRAME_KEYWORD_CASES = [
    # (columns, counts_from_frame keywords, the message): each names the keyword the caller passed (problem=,
    # correct=, n=), not read_counts' problem_col= or the command line's --correct-col, which it has no such name for
    ({"problem_id": ["a"], "correct": [1]}, {"problem": "nope"}, "no column 'nope' (given as `problem`)"),
    ({"problem_id": ["a"], "correct": [1]}, {"correct": 3}, "`correct` must be a column name (got 3)"),
    ({"problem_id": ["a"], "correct": [1]}, {"correct": "correct", "n": "problem_id"},
     "give either per-sample columns (`correct`, `attempt`) or count columns (`n`, `c`), not both"),
    ({"problem_id": ["a"], "correct": [1]}, {"problem": "correct", "model": "correct"},
     "`problem` and `model` name the same column 'correct'"),
    ({"x": ["a"], "correct": [1]}, {}, "pass `problem=`)"),
    ({"problem_id": ["a"], "y": [1]}, {}, "pass `correct=`)"),
    ({"problem_id": ["a"], "n": [True], "c": [True]}, {}, "(`correct='n'`)"),
]


@pytest.mark.parametrize("lazy", [False, True], ids=["duckdb", "narwhals"])
@pytest.mark.parametrize("case", range(len(FRAME_KEYWORD_CASES)))
def test_errors_name_the_frame_keywords(case, lazy):
    # the messages named read_counts' keywords and the CLI's options: counts_from_frame(df, problem="nope") said
    # "(given as `problem_col`)", correct=3 "`correct_col` must be a column name", no problem column "pass
    # `--problem-col`" (API review)
    columns, kwargs, message = FRAME_KEYWORD_CASES[case]
    frame = pl.DataFrame(columns).lazy() if lazy else pd.DataFrame(columns)
    with pytest.raises(PasscurveError) as info:
        counts_from_frame(frame, **kwargs)
    text = str(info.value)
    assert message in text and "_col" not in text and "--" not in text, text


NAN = float("nan")

# bad frames: (columns, counts_from_frame kwargs, message). A polars DataFrame is read by DuckDB and a polars
# LazyFrame on its own engine through narwhals; both must give this one-line error, and the same text.
BAD_FRAMES = {
    "null_problem": ({"problem_id": ["a", None], "correct": [True, True]}, {},
                     r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id=None, correct=True\}"),
    "nan_problem": ({"problem_id": [1.0, NAN], "correct": [True, True]}, {},
                    r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id=nan"),
    "blank_problem": ({"problem_id": ["a", " "], "correct": [True, True]}, {},
                      r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id=' '"),
    "tab_problem": ({"problem_id": ["a", "\t"], "correct": [True, True]}, {},
                    r"problem-id column 'problem_id' has a missing value, e.g. row \{problem_id='\\t'"),
    "blank_model": ({"model": ["m", ""], "problem_id": ["a", "a"], "correct": [True, True]}, {},
                    r"model column 'model' has a missing value, e.g. row \{model='', problem_id='a'"),
    "null_model": ({"model": ["m", None], "problem_id": ["a", "a"], "correct": [True, True]}, {},
                   r"model column 'model' has a missing value, e.g. row \{model=None"),
    "nan_score_threshold": ({"problem_id": ["a", "a", "a"], "score": [1.0, NAN, 0.0]}, {"threshold": 0.5},
                            r"correctness column 'score' has a missing value \(null/NaN\), e.g. row "
                            r"\{problem_id='a', score=nan\}"),
    "nan_float_correct": ({"problem_id": ["a", "a"], "correct": [1.0, NAN]}, {},
                          r"correctness column 'correct' has a missing value \(null/NaN\)"),
    "null_bool_correct": ({"problem_id": ["a", "a"], "correct": [True, None]}, {},
                          r"correctness column 'correct' has a missing value \(null/NaN\)"),
    "non_boolean_word": ({"problem_id": ["a", "a"], "correct": ["yes", "perhaps"]}, {},
                         r"holds a value that is not boolean .* e.g. row \{problem_id='a', correct='perhaps'\}; "
                         r"pass `threshold`"),
    "score_without_threshold": ({"problem_id": ["a"], "score": [0.7]}, {}, r"not boolean .*score=0.7.*threshold"),
    "repeated_header": ({"problem_id": ["a", "problem_id"], "correct": ["1", "correct"]}, {},
                        r"a data row repeats the header"),
    "null_attempt": ({"problem_id": ["a", "a"], "attempt": [0, None], "correct": [True, False]}, {},
                     r"attempt column 'attempt' has a missing value, e.g. row \{problem_id='a', attempt=None"),
    "duplicate_attempt": ({"model": ["m"] * 3, "problem_id": ["a"] * 3, "attempt": [0, 1, 1], "correct": [1, 0, 1]},
                          {}, r"duplicate \(problem, attempt\) rows: problem 'a' \(model 'm'\) attempt 1 appears 2 "
                          r"times; each attempt must appear once"),
    "threshold_not_a_number": ({"problem_id": ["a"], "score": [0.4]}, {"threshold": "high"},
                               r"`threshold` must be a number \(got 'high'\)"),
    "threshold_nan": ({"problem_id": ["a"], "score": [0.4]}, {"threshold": NAN}, r"`threshold` must be a number"),
    # an infinite threshold (every score wrong, or right) was DuckDB's BinderException 'Referenced column "inf" not
    # found' (its SQL text), and True the threshold 1
    "threshold_inf": ({"problem_id": ["a"], "score": [0.4]}, {"threshold": float("inf")},
                      r"^`threshold` must be finite \(got threshold=inf\)$"),
    "threshold_minus_inf": ({"problem_id": ["a"], "score": [0.4]}, {"threshold": -float("inf")},
                            r"^`threshold` must be finite \(got threshold=-inf\)$"),
    "threshold_bool": ({"problem_id": ["a"], "score": [0.4]}, {"threshold": True},
                       r"^`threshold` must be a number, not a boolean \(got True\)$"),
    "boolean_count": ({"problem_id": ["a", "b"], "n": [10, 10], "c": [True, False]}, {},
                      r"column 'c' \(`c`\) holds booleans"),
    # a text score '1_0' was 10 (correct) in a DataFrame (DuckDB's cast reads digit grouping) and refused in a
    # LazyFrame (the narwhals regex); both now share data._columns.NUMBER
    "underscore_score_threshold": ({"problem_id": ["a", "a"], "score": ["1_0", "0.2"]}, {"threshold": 0.5},
                                   r"not boolean \(expected true/false, 0/1, or a number\), e.g. row "
                                   r"\{problem_id='a', score='1_0'\}"),
    # 'a' and 'a ' were two problems of one sample each
    "edge_space_problem": ({"problem_id": ["a", "a "], "correct": [True, False]}, {},
                           r"problem-id column 'problem_id' writes one id two ways, 'a' and 'a '"),
    "tab_problem_counts": ({"problem_id": ["a", "\t"], "n": [10, 10], "c": [1, 2]}, {},
                           r"problem-id column 'problem_id' is empty in row 2"),
}


@pytest.mark.parametrize("case", sorted(BAD_FRAMES))
def test_bad_frames_same_error_eager_and_lazy(case):
    # the lazy path (narwhals) lacked the DuckDB readers' rules: NaN, null and blank ids were problems ('NaN', '',
    # 'None'), a NaN score with a threshold was 'non-boolean', a float 0/1 column a polars error, a null attempt
    # and a repeated header row passed, a bad threshold was a polars ComputeError
    columns, kwargs, pattern = BAD_FRAMES[case]
    messages = []
    for frame in (pl.DataFrame(columns, strict=False), pl.DataFrame(columns, strict=False).lazy()):
        with pytest.raises(PasscurveError) as info:
            counts_from_frame(frame, **kwargs)
        msg = str(info.value)
        assert "\n" not in msg and re.search(pattern, msg), msg
        messages.append(msg)
    assert messages[0] == messages[1]


def test_blank_categorical_ids_are_missing():
    # a categorical id column (DuckDB's ENUM) skipped the blank rule: a pandas category '' was read as a problem named ''
    # (and ' \t' as one named ' \t'); every frame type now gives the missing-value error
    frames = [
        pd.DataFrame({"problem_id": pd.Categorical(["a", "a", "", ""]), "correct": [True, False, True, True]}),
        pd.DataFrame({"problem_id": pd.Categorical(["a", " \t"]), "correct": [True, True]}),
        pa.table({"problem_id": pa.array(["a", "", "a"]).dictionary_encode(), "correct": [True, False, True]}),
        pl.DataFrame({"problem_id": ["a", "\t"], "correct": [True, True]}, schema_overrides={"problem_id": pl.Categorical}),
        pl.DataFrame({"problem_id": ["a", "\t"], "correct": [True, True]},
                     schema_overrides={"problem_id": pl.Categorical}).lazy(),
        pd.DataFrame({"model": pd.Categorical(["m", ""]), "problem_id": ["a", "a"], "correct": [True, True]}),
    ]
    for frame in frames:
        with pytest.raises(PasscurveError, match=r"(problem-id|model) column '(problem_id|model)' has a missing value"):
            counts_from_frame(frame)
    good = counts_from_frame(pd.DataFrame({"problem_id": pd.Categorical(["a", "a", "b"]), "correct": [1, 0, 1]}))
    assert list(good.problem) == ["a", "b"] and list(good.n) == [2, 1] and list(good.c) == [1, 1]


def test_lazy_frame_reads_values_as_duckdb_does():
    # float 0/1, quoted or padded words, numeric strings against a threshold: the same counts on both paths
    cases = [
        ({"problem_id": ["a", "a", "b"], "correct": [1.0, 0.0, 1.0]}, {}),
        ({"problem_id": ["a", "a", "b", "b"], "correct": [' "TRUE"', "failed: timeout", "no ", "Pass"]}, {}),
        ({"problem_id": ["a", "a", "b", "b"], "score": ["0.7", "0.2", "1e0", "yes"]}, {"threshold": 0.5}),
        # numbers equal to 1 or 0, as a numeric column reads them
        ({"problem_id": ["a", "a", "b", "b"], "correct": ["+1", "-0", "1e0", " 0.00 "]}, {}),
        ({"problem_id": [1, 2, 2], "attempt": [0, 0, 1], "correct": [True, False, True]}, {}),
    ]
    for columns, kwargs in cases:
        eager = counts_from_frame(pl.DataFrame(columns), **kwargs)
        lazy = counts_from_frame(pl.DataFrame(columns).lazy(), **kwargs)
        assert lazy.meta["reader"] == "narwhals/polars"
        assert as_set(lazy) == as_set(eager), columns
    assert as_set(lazy) == {("frame", "1", 1, 1), ("frame", "2", 2, 1)}


def test_lazy_frame_warns_when_ids_number_the_rows():
    lf = pl.DataFrame({"id": [1, 2, 3], "correct": [True, False, True]}).lazy()
    with pytest.warns(DegenerateDataWarning, match="every problem has one sample, with problem ids from column 'id'") as got:
        counts_from_frame(lf)
    # it names counts_from_frame's keyword, not read_counts' problem_col= or the CLI's --problem-col (API review)
    assert str(got[0].message).endswith("name the problem column (`problem=`)")


@pytest.fixture(scope="module")
def dask_client():
    # dask[dataframe,distributed] is in the [test] extras: a missing install fails here, it does not skip
    import dask.dataframe  # noqa: F401
    import distributed
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_on_local_cluster(bench, dask_client):
    import dask.dataframe as dd

    b, s = bench
    ddf = dd.from_pandas(_pandas(s), npartitions=3)
    got = counts_from_frame(ddf)
    assert as_set(got) == as_set(b.counts)
    assert got.meta["reader"] == "narwhals/dask"
    # the same on a score column with a threshold, computed by the cluster
    df = _pandas(s).assign(score=lambda d: d["correct"].astype(float) * 0.9)
    got2 = counts_from_frame(
        dd.from_pandas(df.drop(columns="correct"), npartitions=2), correct="score", threshold=0.5
    )
    assert as_set(got2) == as_set(b.counts)


def test_pyspark(bench):
    # pyspark is in the [test] extras (a missing install fails); only a missing Java runtime may skip
    from pyspark.sql import SparkSession

    if shutil.which("java") is None:
        pytest.skip("pyspark needs Java")

    b, s = bench
    # one shuffle partition (Spark's default of 200 ran the group-by as 200 tasks over 300 rows) and no web UI
    spark = (SparkSession.builder.master("local[1]").appName("passcurve-test")
             .config("spark.sql.shuffle.partitions", "1").config("spark.ui.enabled", "false").getOrCreate())
    try:
        sdf = spark.createDataFrame(_pandas(s))
        got = counts_from_frame(sdf)
        assert as_set(got) == as_set(b.counts)
        assert got.meta["reader"] == "narwhals/pyspark"  # aggregated by Spark, not collected to pandas
    finally:
        spark.stop()


def test_dask_bad_frames(dask_client):
    # the same rules on Dask, whose group_by takes only elementary aggregations (a sum of an expression failed)
    import dask.dataframe as dd

    for case in ("nan_problem", "blank_model", "nan_score_threshold", "repeated_header", "duplicate_attempt"):
        columns, kwargs, pattern = BAD_FRAMES[case]
        ddf = dd.from_pandas(pl.DataFrame(columns, strict=False).to_pandas(), npartitions=2)
        with pytest.raises(PasscurveError, match=pattern):
            counts_from_frame(ddf, **kwargs)


@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_a_repeated_column_name_in_a_frame_is_refused(kind):
    # DuckDB scans the frame with the second 'n' renamed 'n_1'; the alias took the first (n = 10, not 20) silently
    names, values = ["problem_id", "n", "c", "n"], [["a"], [10], [1], [20]]
    if kind == "pandas":
        frame = pd.DataFrame(dict(enumerate(values))).set_axis(names, axis=1)
    else:
        frame = pa.Table.from_arrays([pa.array(v) for v in values], names=names)
    with pytest.raises(PasscurveError, match=r"^frame: the column name 'n' appears 2 times \(read as 'n', 'n_1'\)"):
        counts_from_frame(frame)


@pytest.mark.parametrize(("name", "shown"), [(None, "None"), (3, "3"), (["a", "b"], r"\['a', 'b'\]")])
def test_frame_name_must_be_a_string(name, shown):
    # name=None (or a number, a list) reached str.replace in the reader: AttributeError "'NoneType' object has no
    # attribute 'replace'" (API sweep)
    df = pd.DataFrame({"problem_id": ["a", "b"], "n": [10, 10], "c": [3, 4]})
    with pytest.raises(PasscurveError, match=rf"^`name` must be a model name, a string \(got {shown}\)$"):
        counts_from_frame(df, name=name)
    assert list(counts_from_frame(df, name="m").models) == ["m"]


@pytest.mark.parametrize(("make", "kind"), [
    (lambda: pd.DataFrame(), "pandas DataFrame"), (lambda: pd.DataFrame(index=[0, 1]), "pandas DataFrame"),
    (lambda: pl.DataFrame(), "polars DataFrame"), (lambda: pl.LazyFrame(), "polars LazyFrame"),
    (lambda: pa.table({}), "pyarrow Table")])
def test_a_frame_without_columns_names_the_argument(make, kind):
    # pandas said "cannot read frame as pandas frame: Need a DataFrame with at least one column" (DuckDB's words),
    # polars and pyarrow "... Provided table/dataframe must have at least one column", a LazyFrame "no problem-id
    # column ...; columns found: (none)": none named `df`, as its wrong-type error does (test_bad_frame_type)
    with pytest.raises(PasscurveError, match=rf"^`df` has no columns \(an empty {kind}\): give one row per sample "
                                             r"\(a problem-id and a correctness column\) or one row per problem "
                                             r"\(problem_id, n, c\)$"):
        counts_from_frame(make())


@pytest.mark.parametrize("kind", ["pandas", "polars lazy"])
def test_threshold_on_a_counts_frame_is_refused(kind):
    # a counts frame (problem_id, n, c) with threshold=0.5: the narwhals path passed threshold=None on, the DuckDB
    # path ignored it
    data = {"problem_id": ["a"], "n": [3], "c": [1]}
    df = pd.DataFrame(data) if kind == "pandas" else pl.LazyFrame(data)
    with pytest.raises(PasscurveError, match=r"^frame: `threshold` \(0\.5\) has no scores to apply to: the input holds "
                                             r"counts \(columns 'n' and 'c'"):
        counts_from_frame(df, threshold=0.5)
    assert list(counts_from_frame(df).c) == [1]


def test_a_nested_id_is_refused_in_frames_too():
    # a polars LazyFrame with a list or struct id column raised polars' own InvalidOperationError ('cannot cast List
    # type'); a DuckDB-scanned frame counted '[1]' as a problem. Both now say it as the file readers do
    # (data._samples.nested_id_error)
    for frame in (pl.LazyFrame({"problem_id": [[1], [1, 2]], "correct": [1, 0]}),
                  pl.DataFrame({"problem_id": [[1], [1, 2]], "correct": [1, 0]})):
        with pytest.raises(PasscurveError, match=r"^frame: problem-id column 'problem_id' holds a list, not an id "
                                                 r"\(a string or a number\), e\.g\. row \{problem_id=\[1\], correct=1\}$"):
            counts_from_frame(frame)
    with pytest.raises(PasscurveError, match=r"^frame: model column 'model' holds a struct, not an id"):
        counts_from_frame(pl.LazyFrame({"problem_id": ["a"], "model": [{"x": 1}], "correct": [1]}))


def test_a_pandas_object_column_mixing_ids_and_sequences_is_refused():
    # DuckDB reads a pandas object column that mixes strings with lists as text: ["a", ["b"], "c"] counted 3 problems,
    # one of them "['b']" (a tuple "('x',)", a dict "{'x': 1}", a numpy array '[1 2]'); polars and pyarrow cannot
    # mix them and are refused (above). Now the shared message, naming the first such row (the 2nd: hand count)
    for value, what, shown in ((["b"], "a list", "\"['b']\""), (("x",), "a tuple", "\"('x',)\""),
                               ({"x": 1}, "a dict", "\"{'x': 1}\""), (np.array([1, 2]), "an array", "'[1 2]'"),
                               ({1, 2}, "a set", "'{1, 2}'")):
        df = pd.DataFrame({"problem_id": ["a", value, "c"], "correct": [1, 0, 1]})
        with pytest.raises(PasscurveError, match=rf"^frame: problem-id column 'problem_id' holds {what}, not an id "
                                                 rf"\(a string or a number\), e\.g\. row \{{problem_id={re.escape(shown)}, "
                                                 r"correct=0\}$"):
            counts_from_frame(df)
    df = pd.DataFrame({"problem_id": ["a", "b"], "model": ["m", ("m",)], "correct": [1, 0]})
    with pytest.raises(PasscurveError, match=r"^frame: model column 'model' holds a tuple, not an id"):
        counts_from_frame(df)
    # strings that read like sequences stay ids (3 problems, hand count)
    df = pd.DataFrame({"problem_id": ["a", "['b']", "(c)"], "correct": [1, 0, 1]})
    assert sorted(counts_from_frame(df).problem) == ["(c)", "['b']", "a"]
