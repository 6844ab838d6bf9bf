"""Every bad input to read_counts raises a one-line PasscurveError that names the problem."""

from __future__ import annotations

import re

import pytest
from _bad_inputs import CASES

from passcurve import PasscurveError, read_counts


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_python(tmp_path, case):
    build, pattern = CASES[case]
    path, _args, kwargs = build(tmp_path)
    with pytest.raises(PasscurveError) as info:
        read_counts(path, **kwargs)
    msg = str(info.value)
    assert "\n" not in msg
    assert re.search(pattern, msg), msg


def test_bad_threshold(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,score\na,0.5\n")
    with pytest.raises(PasscurveError, match="`threshold` must be a number"):
        read_counts(p, threshold="high")


def test_sample_and_count_overrides_conflict(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,n,c,correct\na,1,1,1\n")
    with pytest.raises(PasscurveError, match="not both"):
        read_counts(p, correct_col="correct", n_col="n")


def test_duplicates_detected_when_attempts_are_strings(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("problem_id,sample_id,correct\na,s1,1\na,s2,0\na,s1,1\n")
    with pytest.raises(PasscurveError, match="attempt s1 appears 2 times"):
        read_counts(p)


def test_duplicate_with_gap_detected_by_power_sums(tmp_path):
    # attempts 0,1,1,3 (a repeat and a gap, max-min+1 == n) and 0,0,2,2 (two repeats, two gaps)
    for attempts in ([0, 1, 1, 3], [0, 0, 3, 3], [5, 5, 7, 8]):
        p = tmp_path / "x.csv"
        p.write_text("problem_id,attempt,correct\n" + "".join(f"a,{a},1\n" for a in attempts))
        with pytest.raises(PasscurveError, match="duplicate"):
            read_counts(p)
