"""Progress reporting for long reads (library callback; rich bar in the CLI only on a terminal)."""

from __future__ import annotations

import io
import json

from rich.console import Console

from passcurve import read_counts, simulate
from passcurve.data import write_table
from passcurve.data._progress import cli_progress


def test_progress_callback_reaches_100(tmp_path):
    bench = simulate(problems=20, n=30, rng=0)
    p = write_table(bench.samples(rng=1), tmp_path / "s.parquet")
    seen: list[float] = []
    got = read_counts(p, progress=seen.append)
    assert len(got) == len(bench.counts)
    assert seen and seen[-1] == 100.0
    assert all(0.0 <= v <= 100.0 for v in seen)


def test_cli_progress_only_on_terminal(tmp_path):
    p = tmp_path / "x.json"
    p.write_text(json.dumps([{"problem_id": "a", "correct": True}]))
    quiet = Console(file=io.StringIO(), force_terminal=False)
    with cli_progress(quiet, p) as cb:
        assert cb is None
    buf = io.StringIO()
    tty = Console(file=buf, force_terminal=True, width=80)
    with cli_progress(tty, p, delay=0.0) as cb:
        assert cb is not None
        cb(50.0)
    assert "50%" in buf.getvalue()
    # a JSON array of records is read like any table
    assert int(read_counts(p).c[0]) == 1


def test_cli_progress_names_several_files_and_sums_their_sizes(tmp_path):
    a, b, c = (tmp_path / f"{x}.csv" for x in "abc")
    for f in (a, b, c):
        f.write_text("problem_id,correct\np,1\n")
    buf = io.StringIO()
    tty = Console(file=buf, force_terminal=True, width=80)
    with cli_progress(tty, [a, b, c], delay=0.0) as cb:
        assert cb is not None
        cb(10.0)
    assert "a.csv and 2 more" in buf.getvalue()
    # min_bytes applies to the three files' total size
    size = a.stat().st_size
    with cli_progress(tty, [a, b, c], min_bytes=3 * size) as cb:
        assert cb is not None
    with cli_progress(tty, [a, b, c], min_bytes=3 * size + 1) as cb:
        assert cb is None
