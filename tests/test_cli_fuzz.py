"""Damaged input files never crash the CLI: a property test over random edits of valid files.

The contract (README, "bad input"): a clear one-line error and exit 2, or a result with exit 0; never a traceback,
another exit code or an exception out of the entry point. The hand-written cases in ``_bad_inputs.py`` name each
failure found so far; this test edits valid per-sample logs and counts files at random (bytes deleted, inserted or
replaced, a value swapped for a hostile token, lines duplicated, dropped or swapped, the file cut short) and runs the
commands that read them. A fuzzing run of this kind (thirty-fourth session, 1,980 cases) found the unterminated CSV
quote that ``unterminated_quote_in_csv`` now names.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def _samples() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for m in ("alpha", "beta"):
        for p in range(4):
            for a in range(6):
                ok = (a * (p + 1) + (m == "beta")) % 3 == 0
                rows.append({"model": m, "problem_id": f"p{p}", "attempt": a, "correct": ok,
                             "answer": "42" if ok else str((a + p) % 3)})
    return rows


_ROWS = _samples()
BASES = {
    "s.jsonl": "".join(json.dumps(r) + "\n" for r in _ROWS),
    "s.csv": "model,problem_id,attempt,correct,answer\n" + "".join(
        f"{r['model']},{r['problem_id']},{r['attempt']},{int(bool(r['correct']))},{r['answer']}\n" for r in _ROWS),
    "c.csv": "model,problem_id,n,c\n" + "".join(
        f"{m},q{i},20,{(i * 3 + j) % 21}\n" for j, m in enumerate(("alpha", "beta")) for i in range(6)),
}
TOKENS = ["NaN", "nan", "inf", "-inf", "-1", "1e400", "", "null", "true", "false", '"x"', "1.5", "2",
          "99999999999999999999999", "0x10", "  ", "\u00e9", "\ufeff", "\x00", ",", '"', "{", "}", "[", "]",
          "\r", "\n", "\t", "-0", "1e-400", "0.0", "21", "100000000000", "TRUE", "None", "'", "\\"]
COMMANDS = {
    "curve": ["curve", "{f}", "--k", "1,2,5"],
    "rank": ["rank", "{f}", "--k", "1,2"],
    "compare": ["compare", "{f}", "--k", "1,2"],
    "vote": ["vote", "{f}", "--k", "1,3"],
    "retries": ["retries", "{f}"],
}

_EDIT = st.tuples(st.sampled_from(["delete", "insert", "byte", "cut", "dup", "drop", "swap", "value"]),
                  st.floats(0, 1, exclude_max=True), st.floats(0, 1, exclude_max=True),
                  st.sampled_from(TOKENS), st.integers(0, 255))


def _edit(data: bytes, edit: tuple[str, float, float, str, int]) -> bytes:
    op, u, v, token, byte = edit
    b = bytearray(data)
    i = int(u * (len(b) + 1))
    lines = bytes(b).split(b"\n")
    j, k = int(u * len(lines)), int(v * len(lines))
    if op == "delete":
        del b[i:i + 1 + int(v * 4)]
    elif op == "insert":
        b[i:i] = token.encode()
    elif op == "byte" and b:
        b[min(i, len(b) - 1)] = byte
    elif op == "cut":
        del b[i:]
    elif op == "dup":
        lines.insert(j, lines[j])
        b = bytearray(b"\n".join(lines))
    elif op == "drop":
        del lines[j]
        b = bytearray(b"\n".join(lines))
    elif op == "swap":
        lines[j], lines[k] = lines[k], lines[j]
        b = bytearray(b"\n".join(lines))
    elif op == "value":
        fields = list(re.finditer(rb"(?<=[:,])[^,:{}\n]+", lines[j]))
        if fields:
            f = fields[int(v * len(fields))]
            lines[j] = lines[j][:f.start()] + token.encode() + lines[j][f.end():]
        b = bytearray(b"\n".join(lines))
    return bytes(b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(sorted(BASES)), edits=st.lists(_EDIT, min_size=1, max_size=3),
       command=st.sampled_from(sorted(COMMANDS)))
def test_a_damaged_file_is_read_or_refused_in_one_line(icli, base, edits, command):
    data = BASES[base].encode()
    for edit in edits:
        data = _edit(data, edit)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / base
        path.write_bytes(data)
        res = icli(*[a.format(f=path) for a in COMMANDS[command]])
    assert res.returncode in (0, 2), (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr and "Traceback" not in res.stdout
    if res.returncode == 2:
        lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("passcurve: error: "), res.stderr
