"""CLI handling of bad input: exit code 2, exactly one line on stderr, no traceback.

Every case runs through the real entry point function in-process (fast); a representative
subset also runs in a subprocess (`python -m passcurve`), the way users call it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _bad_inputs import CASES
from conftest import run_cli

from passcurve.cli._app import run


def _cli_args(case, tmp_path):
    build, pattern = CASES[case]
    path, args, _kwargs = build(tmp_path)
    return ["curve", str(path), *args], pattern


def _check(code: int, stderr: str, pattern: str) -> None:
    assert code == 2, stderr
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("passcurve: error: ")
    assert re.search(pattern, lines[0]), lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_cli_in_process(tmp_path, capfd, case):
    argv, pattern = _cli_args(case, tmp_path)
    code = run(argv)
    captured = capfd.readouterr()
    _check(code, captured.err, pattern)
    assert captured.out == ""


@pytest.mark.parametrize("case", ["truncated_parquet"])
def test_bad_input_cli_subprocess(tmp_path, case):
    argv, pattern = _cli_args(case, tmp_path)
    res = run_cli(*argv)
    _check(res.returncode, res.stderr, pattern)


def test_k_greater_than_n_subprocess(tmp_path):
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,5,1\n")
    res = run_cli("curve", str(p), "--k", "1,8")
    _check(res.returncode, res.stderr, r"`--k` must be an integer in \[1, n\] \(got --k=8, n=5\)")


def test_k_greater_than_n_in_process(tmp_path, capfd):
    p = tmp_path / "s.jsonl"
    p.write_text(
        "".join(
            f'{{"problem_id": "p", "attempt": {a}, "correct": {str(a == 0).lower()}}}\n' for a in range(3)
        )
    )
    code = run(["curve", str(p), "--k", "4"])
    _check(code, capfd.readouterr().err, r"got --k=4, n=3")


def test_good_input_exit_zero(tmp_path, capfd):
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    assert run(["curve", str(p), "--k", "1,10", "--json"]) == 0
    assert '"model": "c"' in capfd.readouterr().out


@pytest.mark.parametrize(
    "args",
    [["curve", "--k", "1,5"], ["rank", "--k", "1"], ["fit"], ["forecast", "--k", "100"],
     ["compare", "--a", "m [strict-match]", "--b", "m [/x]", "--k", "1"]],
    ids=lambda a: a[0],
)
def test_model_names_with_brackets_print_verbatim(tmp_path, capfd, args):
    # names come from the user's data (lm-eval filters are named "model [filter]"); the console must not read
    # them as rich markup: "[strict-match]" used to vanish as a style and "[/x]" raised MarkupError (a traceback)
    p = tmp_path / "brk.csv"
    rows = [("m [strict-match]", 1, 30, 9), ("m [strict-match]", 2, 30, 0), ("m [strict-match]", 3, 30, 2),
            ("m [/x]", 1, 30, 15), ("m [/x]", 2, 30, 3), ("m [/x]", 3, 30, 1)]
    p.write_text("model,problem,n,c\n" + "".join(f'"{m}",{q},{n},{c}\n' for m, q, n, c in rows))
    code = run([args[0], str(p), *args[1:]])
    out, err = capfd.readouterr()
    assert code == 0, err
    assert "Traceback" not in err
    assert "m [strict-match]" in out and "m [/x]" in out


@pytest.mark.parametrize(
    "args",
    [["report", "{counts}", "-o", "{missing}/r.html"], ["demo", "-o", "{missing}/r.html"],
     ["explore", "-o", "{missing}/e.html"], ["demo-conflict", "-o", "{missing}/c.html"],
     ["simulate", "-o", "{missing}/s.csv"], ["simulate-answers", "-o", "{missing}/a.csv"]],
    ids=lambda a: a[0],
)
def test_output_in_a_missing_directory_is_one_line(tmp_path, capfd, args):
    # checked before any work where the command computes first (report, demo); a DuckDB IOException
    # (simulate) and a FileNotFoundError (demo-conflict) used to end in a traceback
    counts = tmp_path / "c.csv"
    counts.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    argv = [a.format(counts=counts, missing=tmp_path / "nope") for a in args]
    code = run(argv)
    err = capfd.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith("passcurve: error: cannot write") and "nope" in lines[0]


def test_a_file_system_error_anywhere_is_one_line(tmp_path, capfd, monkeypatch):
    # the safety net in run(): an OSError that no command anticipated still gives one line and exit 2

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied", str(tmp_path / "c.html"))

    monkeypatch.setattr("passcurve._rl_toy.conflict_toy", refuse)  # an OSError where the command expects none
    code = run(["demo-conflict", "-o", str(tmp_path / "c.html"), "--steps", "5"])
    err = capfd.readouterr().err
    assert code == 2 and err.strip() == f"passcurve: error: cannot access `{tmp_path / 'c.html'}`: Permission denied"


def test_errors_name_the_command_line_options(tmp_path, capfd):
    # CLI audit: errors named the library's arguments (`confidence_level`, `batch`, `rng`), not the options
    from passcurve.cli._app import as_flags

    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    assert run(["curve", str(p), "--ci", "bootstrap", "--confidence-level", "1.5"]) == 2
    assert capfd.readouterr().err == ("passcurve: error: `--confidence-level` must be in (0, 1) "
                                      "(got --confidence-level=1.5)\n")
    assert run(["curve", str(p), "--stop-batch", "0"]) == 2
    assert "`--stop-batch` must be an integer >= 1 (got --stop-batch=0)" in capfd.readouterr().err
    # only the running command's options, and never the data's column roles n and c
    msg = "column 'n' (`n`) must hold integers; `k` must be in [1, n] (got k=5, n=3); `rng` is bad"
    assert as_flags(msg, ["curve", "x.jsonl"]) == (
        "column 'n' (`n`) must hold integers; `--k` must be in [1, n] (got --k=5, n=3); `--seed` is bad")
    assert as_flags(msg, ["explore"]) == msg  # explore has none of these options
    # a command that reads no data says its own option: simulate-answers --n 0 said "`n` must be an integer >= 1"
    assert run(["simulate-answers", "--n", "0", "-o", str(tmp_path / "a.csv")]) == 2
    assert capfd.readouterr().err == "passcurve: error: `--n` must be an integer >= 1 (got --n=0)\n"
    assert as_flags("`n` must be >= 1 (got n=0)", ["power", "--pilot", "x.csv"]) == "`n` must be >= 1 (got n=0)"
    # a hint written for library users with the option beside it ("pass `threshold` (--threshold)") said the
    # option twice on the command line: "pass `--threshold` (--threshold)"
    s = tmp_path / "s.csv"
    s.write_text("problem_id,score\na,0.7\nb,1\n")
    assert run(["curve", str(s), "--correct-col", "score"]) == 2
    err = capfd.readouterr().err
    assert "pass `--threshold` to turn a score into correct/incorrect" in err and "(--threshold)" not in err
    # library names no option stands for: hidden-difficulty on one sample per problem said "`counts` needs problems
    # with n >= 2 samples", power with a pilot and one model "pilot `counts` needs the two model names"
    one = tmp_path / "one.csv"
    one.write_text("problem_id,n,c\na,1,1\nb,1,0\n")
    assert run(["hidden-difficulty", str(one)]) == 2
    err = capfd.readouterr().err
    assert "every problem has one sample: P(both right) needs two answers per problem" in err and "counts" not in err
    assert run(["power", "--delta", "0.05", "--pilot", str(p), "--a", "a"]) == 2
    err = capfd.readouterr().err
    assert "a pilot needs the two models to compare: name them as `--a` and `--b`" in err and "counts" not in err
    # a quoted row of the file keeps the file's column names: verifiers' columns `base` and `strict` (named like its
    # options --base, --strict) read "row {problem_id='p1', attempt=None, --base=True, --strict=True}"
    v = tmp_path / "v.csv"
    v.write_text("problem_id,attempt,base,strict\np1,1,true,true\np1,,true,true\n")
    assert run(["verifiers", str(v), "--base", "base", "--strict", "strict"]) == 2
    assert capfd.readouterr().err == ("passcurve: error: v.csv: attempt column 'attempt' has a missing value, e.g. row "
                                      "{problem_id='p1', attempt=None, base=True, strict=True} at line 3\n")
    assert as_flags("`k` is bad (got k=0), e.g. row {problem_id='a', k=3}", ["curve", "x.csv"]) == (
        "`--k` is bad (got --k=0), e.g. row {problem_id='a', k=3}")
    # the reader's hints name its option and keyword (data._columns.column_hint) for Python users; on the command line
    # the keyword became the option again: "(`--problem-col`, `--problem-col=` in Python)". Said once now
    from passcurve.data._columns import column_hint

    hint = f"pass {column_hint('problem', None)}; or {column_hint('correct', None, 'score')}"
    assert hint == "pass `--problem-col`, `problem_col=` in Python; or `--correct-col score`, `correct_col='score'` in Python"
    assert as_flags(hint, ["curve", "x.csv"]) == "pass `--problem-col`; or `--correct-col score`"


def test_more_bad_values_are_one_line_errors(tmp_path, capfd):
    # CLI audit: StopIteration / OverflowError tracebacks, 1.5 problems read as 1, a negative forecast K taken,
    # a NaN concentration accepted (every wrong answer became "A0"), an empty "passcurve: error:" line
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\n" + "".join(f"p{i},100,{i * 7 % 101}\n" for i in range(30)))
    cases = [
        (["fit", str(p), "--model", ","], "`--difficulty` must name at least one of beta, zi_beta, scaled_beta, "
                                           "beta_mixture, npmle, or be 'all' (got none)"),
        (["backtest", str(p), "--problems", "inf"], "`--problems` must be a fraction in (0, 1] or a whole count > 1 "
                                                    "(got inf)"),
        (["backtest", str(p), "--problems", "1.5"], "`--problems` must be a fraction in (0, 1] or a whole count > 1 "
                                                    "(got 1.5)"),
        (["report", str(p), "-o", str(tmp_path / "r.html"), "--forecast-k", "-5"],
         "`--forecast-k` must be an integer >= 2 (got --forecast-k=-5)"),
        (["simulate-answers", "-o", str(tmp_path / "a.jsonl"), "--concentration", "nan"],
         "`--concentration` must be a number (got --concentration=nan)"),
    ]
    for argv, want in cases:
        assert run(argv) == 2, argv
        err = capfd.readouterr().err
        assert err.startswith("passcurve: error: ") and want in err and err.count("\n") == 1, (argv, err)
    assert run([]) == 2  # the help, and no empty error line after it
    assert "passcurve: error" not in capfd.readouterr().err


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    # `passcurve plan ... --csv | head -1` exited 1: click turns a broken pipe inside a command into exit 1
    import os
    import subprocess
    import sys

    # each output must outgrow the pipe's 64 KiB buffer, else it is all written before the reader stops: a CSV row
    # per problem (4,000 rows, 233 kB); the budget only spreads samples over them (4,000 rather than 40,000 halves
    # the planning, and the CSV is as long)
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\n" + "".join(f"problem-with-a-long-id-{i},100,{i % 50}\n" for i in range(4000)))
    proc = subprocess.Popen([sys.executable, "-m", "passcurve", "plan", str(p), "--budget", "4000", "--k", "1000",
                             "--csv"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ})
    assert proc.stdout is not None and proc.stdout.readline().startswith(b"model,problem")
    proc.stdout.close()
    assert proc.wait(timeout=300) == 0, proc.stderr.read() if proc.stderr else ""
    # the same for a rich table (`passcurve curve FILE --all-k | head -1`): rich handled the broken pipe itself and
    # raised SystemExit(1), so every table-printing command exited 1 when its reader stopped early
    q = tmp_path / "long.csv"
    # two tables of k = 1..1000 (134 kB together, twice the pipe's buffer, so the reader stops long before the end;
    # n = 3000 printed 415 kB, three times the rendering, to the same effect)
    q.write_text("model,problem_id,n,c\n" + "".join(f"m{j},p{i},1000,{(i * 37 + j) % 1001}\n"
                                                    for j in range(2) for i in range(50)))
    proc = subprocess.Popen([sys.executable, "-m", "passcurve", "curve", str(q), "--all-k"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ})
    assert proc.stdout is not None and proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=300) == 0, proc.stderr.read() if proc.stderr else ""


@pytest.mark.parametrize("args", [["curve", "{p}", "--k", "1", "--json"], ["curve", "{p}", "--k", "10,1"],
                                  ["--help"], ["rank", "--help"]], ids=["json", "table-note", "help", "rank-help"])
def test_a_reader_gone_before_the_final_flush_is_silent(tmp_path, args):
    # `passcurve curve FILE --json | head -c 10`: the JSON sat in stdout's buffer until run()'s final flush, which
    # met the closed pipe (exit 0 there), and the interpreter's own flush at exit failed again: "Exception ignored
    # in: <_io.TextIOWrapper name='<stdout>'...> BrokenPipeError" on stderr and exit status 120; `--help | head -1`
    # exited 1 (rich's SystemExit). Run with a block-buffered stdout, as users' interpreters have it (no
    # PYTHONUNBUFFERED), into a pipe whose reader has gone before anything is written.
    import os
    import subprocess
    import sys

    from conftest import ROOT

    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT / "src") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.run([sys.executable, "-m", "passcurve", *[a.format(p=p) for a in args]], stdout=w,
                              stderr=subprocess.PIPE, env=env, timeout=300)
    finally:
        os.close(w)
    note = "passcurve: note: `--k` 10,1 is used as 1,10 (in increasing order, each value once)\n" if "10,1" in args else ""
    assert (proc.returncode, proc.stderr.decode()) == (0, note)


def test_version_option(capfd):
    # `passcurve --version` was "No such option: --version" (exit 2); the version is passcurve.__version__
    import passcurve

    assert run(["--version"]) == 0
    assert capfd.readouterr().out == f"passcurve {passcurve.__version__}\n"


def test_every_command_that_reads_a_file_takes_the_reading_options():
    # CLI audit: vote, retries and verifiers had no --models ("No such option: --models"), though the README lists
    # it among the options every command reads with; all reading options come from one place (@read_options)
    import typer

    from passcurve.cli._app import app

    group = typer.main.get_command(app)
    readers = {name: cmd for name, cmd in group.commands.items()  # type: ignore[attr-defined]
               if any(p.name == "file" for p in cmd.params)}
    assert {"vote", "retries", "verifiers", "curve", "report"} <= set(readers)
    for name, cmd in readers.items():
        opts = {o for p in cmd.params for o in p.opts}
        assert {"--models", "--problem-col", "--model-col", "--format"} <= opts, name


def _answers_log(path, models):
    import json
    import random

    rnd = random.Random(1)
    rows = []
    for m, rate in (("A", 0.3), ("B", 0.6)):
        for p in range(6):
            for a in range(8):
                ans = "g" if rnd.random() < rate else rnd.choice("xyz")
                rows.append({"model": m, "problem_id": f"p{p}", "attempt": a, "answer": ans, "gold": "g",
                             "correct": ans == "g", "plus": ans == "g" and a % 2 == 0})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows if r["model"] in models))
    return path


@pytest.mark.parametrize("args", [["vote", "--k", "1,4", "--json"], ["retries", "--n-resamples", "0", "--json"],
                                  ["verifiers", "--base", "correct", "--strict", "plus", "--k", "1,4", "--json"]],
                         ids=["vote", "retries", "verifiers"])
def test_vote_retries_and_verifiers_read_several_files(tmp_path, icli, args):
    import json

    # one answers log per model (no model column: the file is the model) reads as one log with a model column
    a = _answers_log(tmp_path / "A.jsonl", ("A",))
    b = _answers_log(tmp_path / "B.jsonl", ("B",))
    for path in (a, b):  # drop the model column: each file names its model
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "model"}) + "\n" for r in rows))
    both = _answers_log(tmp_path / "both.jsonl", ("A", "B"))
    several, one = icli(args[0], str(a), str(b), *args[1:]), icli(args[0], str(both), *args[1:])
    assert several.returncode == 0 == one.returncode, several.stderr + one.stderr
    assert several.stdout == one.stdout
    assert [m["model"] for m in json.loads(several.stdout)["models"]] == ["A", "B"]


@pytest.mark.parametrize("args", [["vote", "--k", "1,4"], ["vote", "--k", "1,4", "--correct-col", "correct"],
                                  ["retries", "--n-resamples", "0"],
                                  ["verifiers", "--base", "correct", "--strict", "plus", "--k", "1,4"]],
                         ids=["vote", "vote-verdicts", "retries", "verifiers"])
def test_models_selects_in_vote_retries_and_verifiers(tmp_path, capfd, args):
    both = _answers_log(tmp_path / "both.jsonl", ("A", "B"))
    alone = _answers_log(tmp_path / "alone.jsonl", ("B",))
    assert run([args[0], str(both), *args[1:], "--models", "B", "--json"]) == 0
    got = capfd.readouterr().out
    assert run([args[0], str(alone), *args[1:], "--json"]) == 0
    assert got == capfd.readouterr().out  # the same result as a file holding B only
    # an unknown name: the error every other command gives
    assert run([args[0], str(both), *args[1:], "--models", "B,nope"]) == 2
    assert capfd.readouterr().err == "passcurve: error: `--models` must name a model present (got 'nope'); models present: A, B\n"


class _FullDisk:
    """A stdout on a full disk: every write fails as ``> file`` does when the disk fills."""

    encoding = "utf-8"
    errors = "strict"

    def write(self, text):
        raise OSError(28, "No space left on device")

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True


@pytest.mark.parametrize("args", [["curve", "{p}", "--k", "1", "--json"], ["curve", "{p}", "--k", "1"],
                                  ["simulate", "-o", "{tmp}/s.csv"], ["--version"]],
                         ids=["json", "table", "echo", "version"])
def test_a_failed_write_of_the_output_says_so(tmp_path, capsys, monkeypatch, args):
    # CLI audit: `passcurve curve demo.csv --k 1 --json > /dev/full` said "cannot access: No space left on device"
    import sys

    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    code = run([a.format(p=p, tmp=tmp_path) for a in args])
    assert code == 2
    assert capsys.readouterr().err == "passcurve: error: cannot write the output: No space left on device\n"


def test_a_failed_write_to_dev_full_is_one_line(tmp_path):
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "passcurve", "curve", str(p), "--k", "1", "--json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, env={**os.environ}, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr == "passcurve: error: cannot write the output: No space left on device\n"


def test_an_os_error_without_a_file_name_elsewhere_is_not_the_output(tmp_path, capfd, monkeypatch):
    def refuse(*a, **k):
        raise OSError(28, "No space left on device")  # e.g. a temporary file of the library

    monkeypatch.setattr("passcurve._rl_toy.conflict_toy", refuse)
    assert run(["demo-conflict", "-o", str(tmp_path / "c.html"), "--steps", "5"]) == 2
    assert capfd.readouterr().err == "passcurve: error: cannot access: No space left on device\n"


_NOTE_K = "passcurve: note: `--k` 10,1,1 is used as 1,10 (in increasing order, each value once)\n"


def test_a_k_list_out_of_order_is_used_sorted_and_says_so(tmp_path, capfd):
    # `--k 10,1,1` was sorted and deduplicated without a word: the output's rows did not match the list given
    import json

    p = tmp_path / "c.csv"
    p.write_text("problem_id,n,c\na,10,2\nb,10,1\n")
    assert run(["curve", str(p), "--k", "10,1,1", "--json"]) == 0
    out, err = capfd.readouterr()
    assert err == _NOTE_K
    assert [pt["k"] for pt in json.loads(out)["models"][0]["curve"]] == [1, 10]
    assert run(["curve", str(p), "--k", "1,10", "--json"]) == 0  # already sorted, each once: nothing to say
    assert capfd.readouterr().err == ""
    # bad input still gets its one error line alone, without the note
    assert run(["curve", str(p), "--k", "20,1,1"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("passcurve: error: ") and "--k=20" in err, err


@pytest.mark.parametrize("args", [["hidden-difficulty", "{counts}", "--k", "4,1,1"],
                                  ["rank", "{counts}", "--k", "4,1,1", "--n-resamples", "100"],
                                  ["vote", "{answers}", "--k", "4,1,1"],
                                  ["verifiers", "{answers}", "--base", "correct", "--strict", "plus", "--k", "4,1,1"],
                                  ["power", "--delta", "0.2", "--spread", "0.4", "--n", "4,1,1"]],
                         ids=lambda a: a[0])
def test_every_int_list_option_says_how_it_was_read(tmp_path, capfd, args):
    # one parser for every such list: the same note whichever command (and option) took it (40 problems: on fewer than
    # 10, rank also warns, rightly, that its scores rest on few problems)
    counts = tmp_path / "c.csv"
    counts.write_text("model,problem_id,n,c\n" + "".join(f"{m},p{i},10,{(i * 3 + j) % 11}\n"
                                                        for j, m in enumerate("AB") for i in range(40)))
    answers = _answers_log(tmp_path / "a.jsonl", ("A",))
    argv = [a.format(counts=counts, answers=answers) for a in args]
    assert run(argv) == 0
    option = "--n" if args[0] == "power" else "--k"
    assert capfd.readouterr().err == f"passcurve: note: `{option}` 4,1,1 is used as 1,4 (in increasing order, each value once)\n"


def _one_model_logs(tmp_path):
    """gpt.jsonl and llama.jsonl (no model column: each file is its model) and both.jsonl (the same samples with
    a model column), 8 problems x 6 samples each."""
    import json
    import random

    rnd = random.Random(3)
    both = []
    for m, rate in (("gpt", 0.6), ("llama", 0.3)):
        rows = [{"problem_id": f"p{p}", "attempt": a, "correct": rnd.random() < rate, "cl": f"c{p % 3}"}
                for p in range(8) for a in range(6)]
        (tmp_path / f"{m}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        both += [{"model": m, **r} for r in rows]
    (tmp_path / "both.jsonl").write_text("".join(json.dumps(r) + "\n" for r in both))
    return str(tmp_path / "gpt.jsonl"), str(tmp_path / "llama.jsonl"), str(tmp_path / "both.jsonl")


SEVERAL_FILES_COMMANDS = [
    ["curve", "--k", "1,4", "--json"],
    ["compare", "--a", "gpt", "--b", "llama", "--k", "1,4", "--json"],
    ["compare", "--a", "gpt", "--b", "llama", "--k", "1,4", "--json", "--cluster-col", "cl"],
    ["rank", "--k", "1,4", "--json"],
    ["fit", "--difficulty", "beta", "--json"],
    ["hidden-difficulty", "--json"],
    ["rl-signal", "--group-size", "4", "--json"],
    ["plan", "--budget", "80", "--k", "20", "--json"],
    ["retries", "--n-resamples", "0", "--json"],
]


def _command_id(args: list[str]) -> str:
    return "-".join(args[:1] + (["cluster"] if "--cluster-col" in args else []))


@pytest.mark.parametrize("args", SEVERAL_FILES_COMMANDS, ids=_command_id)
def test_several_files_read_as_one_file_with_a_model_column(tmp_path, icli, args):
    # one log per model is how harnesses write them; every command that reads counts takes several files and gives
    # what the same samples in one file with a model column give
    gpt, llama, both = _one_model_logs(tmp_path)
    several = icli(args[0], gpt, llama, *args[1:])
    one = icli(args[0], both, *args[1:])
    assert several.returncode == 0 == one.returncode, several.stderr + one.stderr
    assert several.stdout == one.stdout


@pytest.mark.parametrize("args", SEVERAL_FILES_COMMANDS, ids=_command_id)
def test_name_file_names_the_models_of_files_of_one_name(tmp_path, icli, args):
    # a harness that writes a fixed file name puts each model's log in its own directory under that name: NAME=FILE
    # names each file's model, and the files read as the one file with a model column
    gpt, llama, both = _one_model_logs(tmp_path)
    named = []
    for m, log in (("gpt", gpt), ("llama", llama)):
        (tmp_path / m).mkdir()
        Path(log).rename(tmp_path / m / "log.jsonl")
        named.append(f"{m}={tmp_path / m / 'log.jsonl'}")
    got, one = icli(args[0], *named, *args[1:]), icli(args[0], both, *args[1:])
    assert got.returncode == 0 == one.returncode, got.stderr + one.stderr
    assert got.stdout == one.stdout


def test_name_file_rules(tmp_path, icli):
    import json

    gpt, llama, _both = _one_model_logs(tmp_path)
    for m, log in (("gpt", gpt), ("llama", llama)):
        (tmp_path / m).mkdir()
        Path(log).rename(tmp_path / m / "log.jsonl")
    a, b = str(tmp_path / "gpt" / "log.jsonl"), str(tmp_path / "llama" / "log.jsonl")

    def models(*args: str) -> list[str]:
        res = icli("curve", *args, "--k", "1", "--json")
        assert res.returncode == 0, res.stderr
        return [m["model"] for m in json.loads(res.stdout)["models"]]

    # unnamed, both files are the model 'log': the error names the way to tell two models apart, and says that
    # --pool is for runs of one model (it invited pooling two different models before)
    res = icli("curve", a, b)
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1
    assert "model 'log' is in both" in res.stderr and "NAME=FILE on the command line" in res.stderr
    assert "`--pool` is only for runs of one model over the same problems" in res.stderr
    assert models(f"gpt={a}", f"llama={b}") == ["gpt", "llama"]
    assert models(f"gpt={a}", f"llama={b}", "--models", "llama") == ["llama"]
    assert models(f"gpt={a}") == ["gpt"]  # one file too
    assert models(f"gpt={a}", b) == ["gpt", "log"]  # named and unnamed files together
    # one name for two files: one model from two files (an error), or its runs pooled with --pool
    res = icli("curve", f"m={a}", f"m={b}")
    assert res.returncode == 2 and "model 'm' is in both" in res.stderr
    assert models(f"m={a}", f"m={b}", "--pool") == ["m"]
    # the text output's header names the model as given
    assert icli("curve", f"gpt={a}", "--k", "1").stdout.startswith("gpt: 8 problems")
    # an argument that is a file is that file, even with an '=' in its name
    odd = tmp_path / "x=y.jsonl"
    Path(a).rename(odd)
    assert models(str(odd)) == ["x=y"]
    for args, message in (
        ([f"gpt={tmp_path / 'none.jsonl'}"], f"no such file: 'gpt={tmp_path / 'none.jsonl'}' (nor "
                                             f"'{tmp_path / 'none.jsonl'}', as NAME=FILE)"),
        ([f"={b}"], "NAME=FILE needs a model name before the '='"),
        ([f" llama={b}"], "has spaces at its ends"),
        ([f"llama={b}", f"other={b}"], "is given twice"),
    ):
        res = icli("curve", *args)
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and message in res.stderr, (
            args, res.stderr)


@pytest.mark.parametrize("args", [["vote", "--k", "1,4", "--json"], ["retries", "--n-resamples", "0", "--json"],
                                  ["verifiers", "--base", "correct", "--strict", "plus", "--k", "1,4", "--json"]],
                         ids=["vote", "retries", "verifiers"])
def test_vote_retries_and_verifiers_take_name_file(tmp_path, icli, args):
    import json

    # each model's answers log under one file name in its own directory, without a model column
    for m in ("A", "B"):
        (tmp_path / m).mkdir()
        path = _answers_log(tmp_path / m / "answers.jsonl", (m,))
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        path.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "model"}) + "\n" for r in rows))
    both = _answers_log(tmp_path / "both.jsonl", ("A", "B"))
    named = icli(args[0], f"A={tmp_path / 'A' / 'answers.jsonl'}", f"B={tmp_path / 'B' / 'answers.jsonl'}", *args[1:])
    one = icli(args[0], str(both), *args[1:])
    assert named.returncode == 0 == one.returncode, named.stderr + one.stderr
    assert named.stdout == one.stdout


def test_evalplus_results_of_one_name_are_their_directories_models(tmp_path, icli):
    import json
    import shutil

    # evalplus writes <samples dir>/eval_results.json, its codegen naming the directory after the model
    # (tests/test_data_harness.py::test_evalplus_model_names): two models' results read side by side unnamed
    fixture = Path(__file__).parent / "data" / "harness" / "eval_results.json"
    files = []
    for model in ("codellama_vllm_temp_0.8", "gpt-4_openai_temp_0.8"):
        (tmp_path / model).mkdir()
        files.append(str(shutil.copy(fixture, tmp_path / model / "eval_results.json")))
    res = icli("curve", *files, "--k", "1", "--json")
    assert res.returncode == 0, res.stderr
    assert [m["model"] for m in json.loads(res.stdout)["models"]] == ["codellama_vllm_temp_0.8",
                                                                      "gpt-4_openai_temp_0.8"]


def test_several_files_errors_are_one_line(tmp_path, icli):
    gpt, llama, _both = _one_model_logs(tmp_path)
    for args, message in (
        (["curve", gpt, gpt], "is given twice; give each file once"),
        (["curve", gpt, str(tmp_path / "none.jsonl")], "no such file"),
        (["vote", gpt, gpt], "is given twice; give each file once"),
    ):
        res = icli(*args)
        assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1 and message in res.stderr, (args, res.stderr)


def test_pool_reads_runs_of_one_model_as_one(tmp_path, icli):
    # two runs of the same model (a model column names it in both files): refused without --pool, pooled with it
    # into what one file with both runs' rows gives; --pool on one file, and for vote, is an error
    import json

    rows = [{"model": "m", "problem_id": f"p{p}", "correct": (p * 7 + r) % 3 == 0} for r in range(4) for p in range(6)]
    for i in (0, 1):
        (tmp_path / f"run{i}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows[i * 12:(i + 1) * 12]))
    (tmp_path / "all.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    runs = [str(tmp_path / "run0.jsonl"), str(tmp_path / "run1.jsonl")]
    refused = icli("curve", *runs, "--k", "1,2")
    assert refused.returncode == 2 and "`--pool` is only for runs of one model" in refused.stderr
    pooled = icli("curve", *runs, "--k", "1,2", "--json", "--pool")
    one = icli("curve", str(tmp_path / "all.jsonl"), "--k", "1,2", "--json")
    assert pooled.returncode == 0 and pooled.stdout == one.stdout
    assert "applies only to several files" in icli("curve", runs[0], "--pool").stderr
    unmatched = icli("curve", str(tmp_path / "*" / "run*.jsonl"), "--pool")  # the shell passes it as written
    assert unmatched.returncode == 2 and unmatched.stderr.startswith("passcurve: error: no such file: "), unmatched.stderr
    assert "No such option: --pool" in icli("retries", *runs, "--pool").stderr  # attempt orders are per run
    assert "leave out `--pool` or `--retries`" in icli("report", *runs, "--pool", "--retries", "-o",
                                                      str(tmp_path / "r.html")).stderr


@pytest.mark.parametrize("args", [["vote", "--k", "1,4", "--json"],
                                  ["verifiers", "--base", "correct", "--strict", "plus", "--k", "1,4", "--json"]],
                         ids=["vote", "verifiers"])
def test_vote_and_verifiers_pool_runs(tmp_path, icli, args):
    # the answers log of two models, split into two runs (attempts 0-3 and 4-7): pooled, they read as the whole log
    import json

    both = _answers_log(tmp_path / "both.jsonl", ("A", "B"))
    rows = [json.loads(line) for line in both.read_text().splitlines()]
    for i, keep in enumerate((lambda a: a < 4, lambda a: a >= 4)):
        (tmp_path / f"run{i}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows if keep(r["attempt"])))
    runs = [str(tmp_path / "run0.jsonl"), str(tmp_path / "run1.jsonl")]
    assert icli(args[0], *runs, *args[1:]).returncode == 2
    pooled, one = icli(args[0], *runs, *args[1:], "--pool"), icli(args[0], str(both), *args[1:])
    assert pooled.returncode == 0 == one.returncode, pooled.stderr + one.stderr
    assert pooled.stdout == one.stdout


def _lm_eval_two_metrics(tmp_path):
    # an lm-eval hellaswag samples log (--log_samples): per-sample acc and acc_norm, 0/1 each
    import json

    d = tmp_path / "org__m"
    d.mkdir()
    p = d / "samples_hellaswag_2024-06-01T00-00-00.jsonl"
    vals = [(0.0, 1.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0)]
    p.write_text("".join(json.dumps({"doc_id": i, "doc": {}, "target": 1, "arguments": {}, "resps": [[["-1", "False"]]],
                                     "filtered_resps": [["-1", "False"]], "filter": "none",
                                     "metrics": ["acc", "acc_norm"], "acc": a, "acc_norm": n}) + "\n"
                         for i, (a, n) in enumerate(vals)))
    return p


def test_correct_col_names_a_harness_metric(tmp_path, icli):
    # `--correct-col acc_norm` on an lm-eval log: "no column 'acc_norm'; columns found: model, problem_id, correct,
    # answer"; it now picks the metric, and an unknown one lists the log's metrics by their field names
    import json

    p = _lm_eval_two_metrics(tmp_path)
    res = icli("curve", str(p), "--correct-col", "acc_norm", "--k", "1", "--json")
    assert res.returncode == 0, res.stderr
    # acc_norm 1, 1, 1, 0 (the rows above): pass@1 = 3/4
    assert json.loads(res.stdout)["models"][0]["curve"][0]["pass_at_k"] == pytest.approx(0.75)
    res = icli("curve", str(p), "--correct-col", "acc_nrom")
    _check(res.returncode, res.stderr, r"no lm_eval metric 'acc_nrom' \(given as `--correct-col`\); lm_eval metrics in this "
                              r"log: acc, acc_norm$")


def test_an_errored_inspect_sample_is_one_line_naming_it(tmp_path, icli):
    import json

    log = {"version": 2, "status": "error", "eval": {"model": "m"}, "samples": [
        {"id": "q-1", "epoch": 1, "error": {"message": "RuntimeError: API timeout", "traceback": "..."}},
        {"id": "q-1", "epoch": 2, "scores": {"match": {"value": "C", "answer": "y"}}}]}
    p = tmp_path / "err.json"
    p.write_text(json.dumps(log))
    res = icli("curve", str(p))
    _check(res.returncode, res.stderr, r"err\.json: 1 of 2 samples errored in inspect and have no score, e\.g\. sample 'q-1' "
                              r"epoch 1 at samples\[0\]: RuntimeError: API timeout; .*`inspect eval-retry err\.json`")


def test_an_inspect_multi_score_scorer_needs_a_key(tmp_path, icli):
    # a scorer whose value is a dict of scores: the message names its keys and the option; the key reads
    import json

    samples = [{"id": p, "epoch": e, "scores": {"aq": {"value": {"correct": int(p == "a" or e == 1), "concise": 1}}}}
               for p in ("a", "b") for e in (1, 2)]
    f = tmp_path / "multi.json"
    f.write_text(json.dumps({"version": 2, "status": "success", "eval": {"model": "m"}, "samples": samples}))
    res = icli("curve", str(f))
    _check(res.returncode, res.stderr, r"multi\.json: scorer 'aq' gives several scores per sample \(correct, concise\), "
                              r"not one verdict: choose one with `--correct-col`, e\.g\. 'correct'; .*aq/concise")
    res = icli("curve", str(f), "--correct-col", "correct", "--k", "1", "--json")
    assert res.returncode == 0, res.stderr
    # correct: a in both epochs, b in epoch 1 only: pass@1 = (2/2 + 1/2) / 2 = 3/4
    assert json.loads(res.stdout)["models"][0]["curve"][0]["pass_at_k"] == pytest.approx(0.75)


def test_answer_readers_name_python_keywords_and_the_cli_its_options(tmp_path, capfd):
    # the vote/verifier/retries readers named CLI options in Python ("pass `--gold-col`", "`--base` and `--strict`
    # name the same column", "force one with `--format`"); the library names its own keywords and the CLI's
    # as_flags turns them into the running command's options (verifiers' base_col is --base)
    from passcurve import PasscurveError
    from passcurve.data import read_answers, read_counts, read_verdicts

    nog = tmp_path / "nog.csv"
    nog.write_text("problem_id,attempt,answer\np1,0,4\n")
    ver = tmp_path / "ver.csv"
    ver.write_text("problem_id,attempt,b,s\np1,0,1,1\n")
    cases = [
        (lambda: read_answers(nog), ["vote", str(nog)], ("gold_col", "correct_col"), ("--gold-col", "--correct-col")),
        (lambda: read_verdicts(ver, base_col="b", strict_col="b"), ["verifiers", str(ver), "--base", "b", "--strict", "b"],
         ("`base_col` and `strict_col`",), ("`--base` and `--strict`",)),
        (lambda: read_counts(nog, attempt_col="zz"), ["retries", str(nog), "--attempt-col", "zz"],
         ("`attempt_col`", "force one with `format`"), ("`--attempt-col`", "force one with `--format`")),
    ]
    for call, argv, py_words, cli_words in cases:
        with pytest.raises(PasscurveError) as err:
            call()
        assert all(w in str(err.value) for w in py_words) and "--" not in str(err.value), str(err.value)
        assert run(argv) == 2
        said = capfd.readouterr().err
        assert all(w in said for w in cli_words), said


def test_unknown_model_shows_a_name_with_spaces_at_its_ends(tmp_path, icli):
    # the name as written in the file (' gpt-4 '), quoted, where the listing had read "models present: gpt-4 , llama"
    p = tmp_path / "m.csv"
    p.write_text("model,problem_id,correct\n gpt-4 ,p1,1\n gpt-4 ,p2,0\nllama,p1,1\nllama,p2,1\n")
    out = icli("compare", str(p), "--a", "gpt-4", "--b", "llama")
    assert out.returncode == 2
    assert out.stderr == ("passcurve: error: `--a` must name a model present (got 'gpt-4'; did you mean ' gpt-4 '?); "
                          "models present: ' gpt-4 ', llama\n")


def test_model_selection_matches_as_written_then_stripped(tmp_path, icli):
    # --models stripped every name, so a model written ' gpt-4 ' in the file could not be selected
    # ("unknown model 'gpt-4' (did you mean ' gpt-4 '?)") while --a ' gpt-4 ' could. Every selection now matches a
    # name as written, else without the spaces at its ends. Hand count: ' gpt-4 ' solves 1 of 2 problems, b both.
    import json

    p = tmp_path / "sp.csv"
    p.write_text("model,problem,correct\n gpt-4 ,1,1\n gpt-4 ,2,0\nb,1,1\nb,2,1\n")
    got = icli("curve", str(p), "--models", " gpt-4 ", "--k", "1", "--json")
    assert got.returncode == 0, got.stderr
    assert [(m["model"], m["curve"][0]["pass_at_k"]) for m in json.loads(got.stdout)["models"]] == [(" gpt-4 ", 0.5)]
    # 'b , gpt-4 ' names b (stripped: no model is 'b ') and ' gpt-4 ' (as written), in that order
    got = icli("curve", str(p), "--models", "b , gpt-4 ", "--k", "1", "--json")
    assert got.returncode == 0, got.stderr
    assert [m["model"] for m in json.loads(got.stdout)["models"]] == ["b", " gpt-4 "]
    # --a and --b match the same way, and the result names the models selected
    got = icli("compare", str(p), "--a", " gpt-4 ", "--b", "b ", "--k", "1", "--json")
    assert got.returncode == 0, got.stderr
    res = json.loads(got.stdout)
    assert (res["model_a"], res["model_b"], res["points"][0]["difference"]) == (" gpt-4 ", "b", -0.5)
    # the bare name stays unknown: the file's model has the spaces
    got = icli("curve", str(p), "--models", "gpt-4")
    assert got.returncode == 2 and "`--models` must name a model present (got 'gpt-4'; did you mean ' gpt-4 '?)" in got.stderr


def test_fit_of_counts_at_the_largest_n_the_readers_accept_ends(tmp_path, icli):
    # n = 2^53 - 1 (the readers' largest): goodness_of_fit's trapezoid asked for 16·sqrt(n/2) ≈ 1.07e9 nodes, an
    # 8 GiB array (numpy's _ArrayMemoryError in a traceback, or the process killed for lack of memory); it was then
    # left out above n = 2^34 (a DegenerateDataWarning, GOF p '-'). The Beta laws' bins are now integrals over p whose
    # cost does not grow with n (_BetaBins): the goodness of fit is computed, without a warning
    p = tmp_path / "c.csv"
    # (twelve problems: with four the pooled bins leave no degree of freedom, and GOF p is '-' for that reason)
    p.write_text("problem_id,n,c\n" + "".join(f"p{i},10,{i % 11}\n" for i in range(11)) + f"big,{2**53 - 1},7\n")
    res = icli("fit", str(p), "--difficulty", "beta")
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and "DegenerateDataWarning" not in res.stderr
    row = next(ln for ln in res.stdout.splitlines() if ln.strip().startswith("beta "))
    assert 0.0 <= float(row.split()[-2]) <= 1.0  # the GOF p column (it was '-')
    # the report's histogram of c/n draws the best fitted law with the same pmf_bins (a MemoryError, then a warning
    # that it left the law out): now drawn
    p.write_text("model,problem_id,n,c\n" + "".join(f"{m},p{i},{2**53 - 1 if i == 1 else 10},{2 * i + j}\n"
                                                    for j, m in enumerate(("m1", "m2")) for i in range(5)))
    out = tmp_path / "r.html"
    res = icli("report", str(p), "-o", str(out), "--forecast-resamples", "2")
    assert res.returncode == 0, res.stderr
    assert "leaves out the fitted law" not in res.stderr
    assert out.stat().st_size > 0
