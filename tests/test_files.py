"""Output files are written whole or not at all (passcurve._files), and the CLI checks outputs before any work."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from passcurve import PasscurveError
from passcurve._files import write_atomic, write_text_atomic


def test_a_failed_write_leaves_the_old_file_and_no_partial_file(tmp_path: Path):
    out = tmp_path / "report.html"
    out.write_text("old report", encoding="utf-8")

    def half(p: Path) -> None:
        p.write_text("half a rep", encoding="utf-8")
        raise OSError(27, "File too large")

    with pytest.raises(PasscurveError, match=r"^cannot write `.*report\.html`: File too large$"):
        write_atomic(out, half)
    assert out.read_text(encoding="utf-8") == "old report" and os.listdir(tmp_path) == ["report.html"]

    def broken(p: Path) -> None:  # a writer's own error (matplotlib's PDF backend raised zlib.error)
        p.write_bytes(b"%PDF")
        raise ValueError("stream ended")

    with pytest.raises(PasscurveError, match=r"`: ValueError: stream ended$"):
        write_atomic(out, broken)
    assert os.listdir(tmp_path) == ["report.html"]
    write_text_atomic(out, "new")
    assert out.read_text(encoding="utf-8") == "new" and os.listdir(tmp_path) == ["report.html"]
    with pytest.raises(PasscurveError, match="it is a directory"):
        write_text_atomic(tmp_path, "x")


def test_a_file_size_limit_leaves_the_old_report(tmp_path: Path):
    # the CLI audit's case: `ulimit -f 4` over an existing good report truncated it to 4,096 bytes
    out = tmp_path / "r.html"
    out.write_text("old report", encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    res = subprocess.run([sys.executable, "-m", "passcurve", "explore", "-o", str(out)], capture_output=True,
                         text=True, preexec_fn=limit, timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.startswith(f"passcurve: error: cannot write `{out}`") and res.stderr.count("\n") == 1
    assert out.read_text(encoding="utf-8") == "old report" and os.listdir(tmp_path) == ["r.html"]


def test_outputs_are_checked_before_any_work(tmp_path: Path, capsys):
    from passcurve.cli._app import run

    data = tmp_path / "c.csv"
    data.write_text("problem_id,n,c\np1,10,3\np2,10,0\n")
    # -o explorer.html: the explorer page, written next to the report, replaced it
    assert run(["report", str(data), "-o", str(tmp_path / "explorer.html")]) == 2
    assert "cannot be named 'explorer.html'" in capsys.readouterr().err
    assert run(["demo", "-o", str(tmp_path / "explorer.html")]) == 2
    assert not (tmp_path / "explorer.html").exists()
    # a directory as the output, and plot's output directory missing: refused at once
    (tmp_path / "d.html").mkdir()
    assert run(["report", str(data), "-o", str(tmp_path / "d.html")]) == 2
    assert "it is a directory" in capsys.readouterr().err
    assert run(["plot", str(data), "-o", str(tmp_path / "nodir" / "x.png")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_confidence_levels_are_labelled_as_given():
    # the CLI audit: curve labelled 0.57 "56% interval" (int truncation) and rank 0.975 "98%" (rounding)
    from passcurve._results import level_label

    assert [level_label(x) for x in (0.95, 0.975, 0.57, 0.8, 0.999)] == ["95%", "97.5%", "57%", "80%", "99.9%"]
    # and in the result objects' plot titles (forecast's truncated 0.57 to "56%", rank's rounded 0.975 to "98%")
    import warnings

    import passcurve as pc

    bench = pc.simulate(problems=40, n=100, rng=0).counts
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pc.PasscurveWarning)
        fc = pc.forecast(bench, [1000], n_resamples=5, rng=0, confidence_level=0.57)
        rk = pc.rank_models(bench, 1, rng=0, n_resamples=200, confidence_level=0.975)
    assert "57% intervals" in fc.plot().layout.title.text
    assert "97.5% simultaneous intervals" in rk.plot().layout.title.text
