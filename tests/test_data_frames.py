"""counts_from_frame: pandas, polars, pyarrow, DuckDB relations (DuckDB scan) and Dask/PySpark (own engine)."""

from __future__ import annotations

import shutil

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from passcurve import PasscurveError, counts_from_frame, simulate


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


def test_polars_lazy_bad_values():
    lf = pl.DataFrame({"problem_id": ["a", "a"], "correct": ["yes", "perhaps"]}).lazy()
    with pytest.raises(PasscurveError, match="non-boolean"):
        counts_from_frame(lf)
    lf = pl.DataFrame({"problem_id": ["a", "a"], "attempt": [1, 1], "correct": [True, False]}).lazy()
    with pytest.raises(PasscurveError, match="duplicate"):
        counts_from_frame(lf)


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
    spark = SparkSession.builder.master("local[1]").appName("passcurve-test").getOrCreate()
    try:
        sdf = spark.createDataFrame(_pandas(s))
        got = counts_from_frame(sdf)
        assert as_set(got) == as_set(b.counts)
        assert got.meta["reader"] == "narwhals/pyspark"  # aggregated by Spark, not collected to pandas
    finally:
        spark.stop()
