"""maj@k: exact values against brute-force enumeration of every k-subset (fractions), and the
independent-voter prediction against enumeration of every voter sequence."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from passcurve import (
    AnswerTallies,
    Counts,
    MergedAnswersWarning,
    PasscurveError,
    VoteResult,
    maj_at_k,
    maj_at_k_tallies,
    pass_at_k,
    simulate_answers,
    vote,
)
from passcurve._voting import _independent_one


# ---------------------------------------------------------------------------------------
# brute force: every k-subset of the n samples, exact rationals
# ---------------------------------------------------------------------------------------
def brute_maj(answers, gold, k, ties="random"):
    first = {}
    for i, a in enumerate(answers):
        if a is not None and a not in first:
            first[a] = i
    total, count = Fraction(0), 0
    for sub in itertools.combinations(range(len(answers)), k):
        count += 1
        votes = {}
        for i in sub:
            if answers[i] is not None:
                votes[answers[i]] = votes.get(answers[i], 0) + 1
        if gold not in votes or votes[gold] < max(votes.values()):
            continue
        tied = [a for a, v in votes.items() if v == votes[gold] and a != gold]
        if ties == "random":
            total += Fraction(1, len(tied) + 1)
        elif ties == "strict":
            total += 0 if tied else 1
        else:
            total += 1 if all(first[a] > first[gold] for a in tied) else 0
    return total / count


def test_hand_example():
    # pairs of {a, a, b}: {a,a} wins, two {a,b} pairs tie (1/2 each): (1 + 1/2 + 1/2)/3 = 2/3
    assert maj_at_k([["a", "a", "b"]], ["a"], 2)[0] == pytest.approx(2 / 3, abs=1e-14)
    assert maj_at_k([["a", "a", "b"]], ["a"], 2, ties="strict")[0] == pytest.approx(1 / 3, abs=1e-14)
    # "first": a appears before b, so a wins the a-b ties
    assert maj_at_k([["a", "a", "b"]], ["a"], 2, ties="first")[0] == pytest.approx(1.0, abs=1e-14)
    assert maj_at_k([["b", "a", "a"]], ["a"], 2, ties="first")[0] == pytest.approx(1 / 3, abs=1e-14)


def test_k1_is_gold_share_and_k_n_is_full_vote():
    ans = ["x", "y", "x", None, "z", "x", "y", "y"]
    # k = 1: the chance one random sample is the gold answer (closed form g/n)
    assert maj_at_k([ans], ["x"], 1)[0] == pytest.approx(3 / 8, abs=1e-14)
    # k = n: the full vote is a 3-3 tie between x and y (closed form 1/2, strict 0)
    assert maj_at_k([ans], ["x"], 8)[0] == pytest.approx(0.5, abs=1e-14)
    assert maj_at_k([ans], ["x"], 8, ties="strict")[0] == pytest.approx(0.0, abs=1e-14)


def test_gold_never_sampled_scores_zero():
    assert maj_at_k_tallies([3, 2], None, [1, 3, 5]).tolist() == [0.0, 0.0, 0.0]
    assert maj_at_k([["b", "c"]], ["a"], 2)[0] == 0.0


@pytest.mark.parametrize("ties", ["random", "strict", "first"])
def test_random_small_cases_against_enumeration(ties):
    rng = np.random.default_rng(7)
    for _ in range(60):
        n = int(rng.integers(1, 11))
        m = int(rng.integers(1, 5))
        alphabet = ["g"] + [f"w{i}" for i in range(m)] + [None]
        ans = [alphabet[i] for i in rng.integers(0, len(alphabet), size=n)]
        for k in range(1, n + 1):
            got = maj_at_k([ans], ["g"], k, ties=ties)[0]
            assert got == pytest.approx(float(brute_maj(ans, "g", k, ties)), abs=1e-12)


# many ties: few answer values with near-equal counts
tie_heavy = st.lists(st.sampled_from(["g", "a", "b", "c"]), min_size=2, max_size=12)


@settings(max_examples=60, deadline=None)
@given(ans=tie_heavy, data=st.data(), ties=st.sampled_from(["random", "strict", "first"]))
def test_property_against_enumeration(ans, data, ties):
    k = data.draw(st.integers(1, len(ans)))
    assert maj_at_k([ans], ["g"], k, ties=ties)[0] == pytest.approx(float(brute_maj(ans, "g", k, ties)), abs=1e-12)


# n <= 15 samples, so that brute_maj enumerates at most C(15, 7) = 6,435 subsets: with up to 33 (tallies up to 6, four
# others, three abstentions) a random example could ask for C(33, 16) = 1.2e9, and one run of this test took 583 s
@settings(max_examples=30, deadline=None)
@given(
    g=st.integers(1, 4),
    others=st.lists(st.integers(1, 3), min_size=0, max_size=3),
    abstain=st.integers(0, 2),
    data=st.data(),
)
def test_tallies_api_matches_answers_api(g, others, abstain, data):
    tallies = [g, *others]
    n = sum(tallies) + abstain
    k = data.draw(st.integers(1, n))
    answers = ["g"] * g + [a for j, c in enumerate(others) for a in [f"w{j}"] * c] + [None] * abstain
    assert maj_at_k_tallies(tallies, 0, k, abstain=abstain) == pytest.approx(
        float(brute_maj(answers, "g", k)), abs=1e-12
    )


def test_larger_case_against_exact_rational_sum():
    # n = 40, k = 12: too many subsets to enumerate (5.6e9), so sum the multivariate
    # hypergeometric exactly over (x, y1, y2, y3) with math.comb (a different computation)
    from math import comb

    g, b = 12, [10, 10, 8]
    n, k = g + sum(b), 12
    tot = Fraction(0)
    for x in range(1, k + 1):
        for y1 in range(0, k - x + 1):
            for y2 in range(0, k - x - y1 + 1):
                y3 = k - x - y1 - y2
                ys = (y1, y2, y3)
                if max(ys) > x:
                    continue
                w = comb(g, x) * comb(b[0], y1) * comb(b[1], y2) * comb(b[2], y3)
                tot += Fraction(w, 1) / (1 + sum(y == x for y in ys))
    expected = tot / comb(n, k)
    assert maj_at_k_tallies([g, *b], 0, k) == pytest.approx(float(expected), abs=1e-13)


def exact_dp(g, wrong, abstain, k, ties="random"):
    """Exact rational maj@k by a dynamic programme over answer groups that tracks (votes, ties):
    sum_x C(g,x) sum_{y: all y_j <= x} prod C(b_j,y_j) C(b_0,y_0) / (1 + #ties) / C(n,k)."""
    from math import comb

    n = g + sum(wrong) + abstain
    total = Fraction(0)
    for x in range(1, min(g, k) + 1):
        N = k - x
        poly = {(0, 0): 1}
        for b in wrong:
            new = {}
            for (d, t), c in poly.items():
                for y in range(0, min(b, x) + 1):
                    if d + y > N or (ties == "strict" and y == x):
                        continue
                    key = (d + y, t + (y == x))
                    new[key] = new.get(key, 0) + c * comb(b, y)
            poly = new
        s = sum(
            (Fraction(c * comb(abstain, N - d), t + 1) for (d, t), c in poly.items() if 0 <= N - d <= abstain),
            Fraction(0),
        )
        total += comb(g, x) * s
    return total / comb(n, k)


@pytest.mark.parametrize("seed", range(6))
def test_many_answers_against_exact_dp(seed):
    # 5-25 wrong answers, k up to 30: exercises the FFT path for one gold vote (k - 1 > 8)
    # and the Gauss-Legendre tie integral for larger gold counts
    rng = np.random.default_rng(100 + seed)
    for _ in range(3):
        m, g = int(rng.integers(5, 26)), int(rng.integers(1, 7))
        wrong = [int(v) for v in rng.integers(1, 5, size=m)]
        ab = int(rng.integers(0, 5))
        k = int(rng.integers(10, min(g + sum(wrong) + ab, 30) + 1))
        for ties in ("random", "strict"):
            expected = float(exact_dp(g, wrong, ab, k, ties))
            assert maj_at_k_tallies([g, *wrong], 0, k, ties=ties, abstain=ab) == pytest.approx(expected, abs=1e-13)


def test_large_n_is_finite_and_monotone_for_a_clear_plurality():
    # n = 10^4 with 300 distinct answers: values must be finite probabilities and, for a clear
    # plurality (gold 40% vs at most ~3% each), maj@k increases towards 1
    rng = np.random.default_rng(0)
    wrong = rng.multinomial(6000, rng.dirichlet(np.full(300, 1.0)))
    wrong = wrong[wrong > 0]
    vals = maj_at_k_tallies([4000, *wrong], 0, [1, 3, 9, 27])
    assert np.all(np.isfinite(vals))
    assert vals[0] == pytest.approx(0.4, abs=1e-12)  # k = 1: g/n
    assert np.all(np.diff(vals) > 0) and vals[-1] > 0.99


# ---------------------------------------------------------------------------------------
# independent voters (multinomial) against enumeration of all voter sequences
# ---------------------------------------------------------------------------------------
def brute_independent(probs, k, ties="random", gold_pos=0, abstain=0.0):
    """probs[0] = gold, probs[1:] wrong answers in first-appearance order, ``abstain`` the chance of no answer;
    enumerate all k-tuples of voters (exact rationals when the probabilities are Fractions). A tie of the gold
    answer with wrong answers: "random" 1/(1 + #tied); "strict" lost; "first" won iff every tied wrong answer
    appeared after the gold one (wrong answers 0 .. gold_pos - 1 appeared before it)."""
    cats = [*probs, abstain]
    total = 0 * cats[0]
    for seq in itertools.product(range(len(cats)), repeat=k):
        pr = 1
        for i in seq:
            pr = pr * cats[i]
        votes = np.bincount(seq, minlength=len(cats))[:-1]  # abstentions are no vote
        if votes[0] == 0 or votes[0] < votes.max():
            continue
        tied = [j for j in range(1, len(probs)) if votes[j] == votes[0]]  # j - 1: wrong answer's position
        if ties == "random":
            total += pr / (1 + len(tied))
        elif ties == "strict":
            total += 0 if tied else pr
        else:
            total += pr if all(j - 1 >= gold_pos for j in tied) else 0
    return total


@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_independent_voters_against_enumeration(k):
    tallies = np.array([3, 4, 2, 1])  # gold first, then three wrong answers
    p_bar = 0.35
    wrong = tallies[1:] / tallies[1:].sum() * (1 - p_bar)
    expected = brute_independent([p_bar, *wrong], k)
    got = _independent_one(tallies, 0, 0, p_bar, np.array([k]), "random")[0]
    assert got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("ties", ["random", "strict", "first"])
@pytest.mark.parametrize("gold_pos", [0, 1, 2, 3])
def test_independent_voters_every_tie_rule_and_gold_position_against_enumeration(ties, gold_pos):
    # tallies in first-appearance order with the gold answer at gold_pos, 2 abstentions; a wrong voter picks wrong
    # answer j with the observed share b_j/(n - g) (abstains with 2/(n - g)). Exact rationals by enumeration of
    # every sequence of k voters. Under "first" the gold answer wins a tie only against wrong answers that
    # appeared after it, so the prediction depends on gold_pos
    wrong = [4, 2, 2]
    tal = np.array(wrong[:gold_pos] + [3] + wrong[gold_pos:])
    ab = 2
    p_bar = Fraction(7, 20)
    not_gold = sum(wrong) + ab
    probs = [p_bar, *[(1 - p_bar) * Fraction(b, not_gold) for b in wrong]]
    ks = np.array([1, 2, 3, 4, 6])
    got = _independent_one(tal, gold_pos, ab, float(p_bar), ks, ties)
    want = [float(brute_independent(probs, int(k), ties, gold_pos, (1 - p_bar) * Fraction(ab, not_gold))) for k in ks]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------
# vote(): pass@k beside maj@k
# ---------------------------------------------------------------------------------------
def test_vote_result_consistency():
    rows = simulate_answers(problems=30, n=16, wrong_answers=5, concentration=0.3, abstain=0.05, rng=3)
    t = _tallies_from_rows(rows)
    res = vote(t, k=[1, 4, 16])
    assert isinstance(res, VoteResult)
    maj, pk = res.values["maj_at_k"][0], res.values["pass_at_k"][0]
    assert maj[0] == pytest.approx(pk[0], abs=1e-12)  # k = 1: both are the gold share
    assert np.all(pk >= maj - 1e-12)  # a vote needs the gold answer among the k
    assert np.allclose(res.values["selection_loss"][0], pk - maj)
    # pass@k from the same tallies (Chen et al. 2021 estimator)
    assert np.allclose(pk, pass_at_k(t.n[:, None], t.c[:, None], np.array([1, 4, 16])[None, :]).mean(axis=0))
    d = res.to_dict()
    assert d["ties"] == "random" and d["models"][0]["curve"][1]["k"] == 4


def test_independent_prediction_beats_correlated_mistakes():
    # heterogeneous difficulty and concentrated mistakes: independent voters at the same
    # average accuracy do better at large k (seed 000: mistakes are correlated)
    rows = simulate_answers(problems=60, n=32, alpha=0.5, beta=0.5, concentration=0.2, rng=5)
    res = vote(_tallies_from_rows(rows), k=[1, 32])
    assert res.values["independent_maj_at_k"][0, 0] == pytest.approx(res.accuracy[0], abs=1e-12)
    assert res.values["correlation_cost"][0, 1] > 0.05


def test_accuracy_is_the_mean_of_per_problem_gold_shares_with_unequal_n():
    # p_bar is the mean over problems of g_i/n_i (vote's docs), not the pooled sum(g)/sum(n): with n = 2, 3, 7
    # and g = 2, 1, 1 the mean is (1 + 1/3 + 1/7)/3 = 31/63 (the pooled share would be 4/12 = 1/3). At k = 1
    # the independent-voter prediction is each problem's p_bar itself, so its mean is p_bar too
    answers = [["a", "a"], ["x", "b", "y"], ["c", "z", "z", "z", "w", "z", None]]
    gold = ["a", "b", "c"]
    res = vote(answers, gold, k=[1, 2])
    want = sum((Fraction(g, len(a)) for g, a in zip([2, 1, 1], answers, strict=True)), Fraction(0)) / 3
    assert want == Fraction(31, 63)
    assert res.accuracy[0] == pytest.approx(float(want), rel=1e-15)
    assert res.values["independent_maj_at_k"][0, 0] == pytest.approx(float(want), rel=1e-12)


def test_independent_voters_strict_ties_on_an_all_gold_problem():
    # Closed form (binomial sums). Mean accuracy p = (1 + 1/2)/2 = 3/4. Problem 1 has no wrong sample, so its
    # wrong votes never coincide: under "strict" one gold vote ties a lone wrong vote and loses, so it wins
    # iff X >= 2, P = 1 - q^k - k p q^(k-1). Problem 2's one wrong answer (share 1/4) must be outvoted: X > k/2.
    res = vote([["a"] * 4, ["b", "b", "c", "c"]], ["a", "b"], k=[2, 3, 4], ties="strict")
    p, q = 0.75, 0.25
    one = [1 - q**k - k * p * q ** (k - 1) for k in (2, 3, 4)]  # 0.5625, 0.84375, 0.94921875
    two = [p**2, p**3 + 3 * p**2 * q, p**4 + 4 * p**3 * q]  # 0.5625, 0.84375, 0.73828125
    # the eleventh session's code counted any lone gold vote on problem 1 as a win: 0.75, 0.914, 0.867
    assert np.allclose(res.values["independent_maj_at_k"][0], (np.array(one) + np.array(two)) / 2, atol=1e-12)


def _tallies_from_rows(rows):
    n_problems = len(np.unique(rows["problem_id"]))
    answers = np.asarray(rows["answer"], dtype=object).reshape(n_problems, -1)
    gold = np.asarray(rows["gold"], dtype=object).reshape(n_problems, -1)[:, 0]
    return AnswerTallies.from_answers([list(a) for a in answers], list(gold))


# ---------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("answers", "gold", "k", "match"),
    [
        ([["a", "b"]], [None], 1, "`gold` is missing for problem 0"),
        ([["a", "b"]], [float("nan")], 1, "`gold` is missing"),
        ([["a", 1]], ["a"], 1, "`answers` mix types"),
        ([["a", "b"]], [3], 1, "`answers` mix types"),
        # the gold answer's own fault named `gold` (API sweep): an unhashable gold was "answers must be hashable
        # scalars", and a gold of another type "`answers` mix types"
        ([["a", "b"], ["b"]], [[1, 2], [3]], 1, r"^`gold` must hold hashable scalars \(got list in problem 0\)$"),
        ([["a", "b"]], [3], 1, r"^`gold` and `answers` mix types: number \(3, in `gold`\) and str \('a', in "
                               r"`answers`\) in problem 0; normalise answers to one type first$"),
        ([["a", 1]], ["a"], 1, r"^`gold` and `answers` mix types: str \('a', in `gold`\) and number \(1, in "
                               r"`answers`\) in problem 0"),
        ([["a", ["b"]]], ["a"], 1, r"^`gold` and `answers` mix types: str \('a', in `gold`\) and list "),
        ([["a", "b"]], ["a"], 3, "`k` must be an integer in \\[1, n\\]"),
        ([["a", "b"]], ["a", "b"], 1, "`gold` has 2 entries"),
        ([[]], ["a"], 1, "`answers\\[0\\]` is empty"),
        ("abc", ["a"], 1, "`answers` must be a sequence"),
        ([["a"]], ["a"], 0, "`k` must be >= 1"),
    ],
)
def test_bad_input(answers, gold, k, match):
    with pytest.raises(PasscurveError, match=match):
        maj_at_k(answers, gold, k)



@pytest.mark.parametrize(
    ("data", "gold", "match"),
    [
        (5, ["a"], r"`data` must be an AnswerTallies or a sequence \(one per problem\) of sequences of answers \(got int\)"),
        ([["a", "b"], ["b"]], ["a"], r"`gold` has 1 entries but `data` has 2 problems"),
        ([["a"], []], ["a", "b"], r"`data\[1\]` is empty"),
    ],
)
def test_vote_names_its_own_argument(data, gold, match):
    # vote's answer lists are its argument `data`; the messages named `answers` (maj_at_k's and from_answers' name).
    # vote's data may also be an AnswerTallies, and its message says so
    with pytest.raises(PasscurveError, match=match):
        vote(data, gold)
    with pytest.raises(PasscurveError, match=match.replace("`data", "`answers").replace("an AnswerTallies or ", "")):
        maj_at_k(data, gold, 1)

def test_bad_ties_and_tallies():
    with pytest.raises(PasscurveError, match="`ties` must be one of"):
        maj_at_k([["a"]], ["a"], 1, ties="coin")
    with pytest.raises(PasscurveError, match="`gold_index` must be <"):
        maj_at_k_tallies([1, 2], 5, 1)
    with pytest.raises(PasscurveError, match="`tallies` must be >= 1"):
        maj_at_k_tallies([0, 2], 0, 1)


def test_from_long_counts_without_problems_are_refused():
    # from_long(problem=[], count=[3, 1, 2], is_gold=[...]) returned tallies of no problem: with no problem ids the
    # counts and verdicts were never looked at (helper-118's fuzzing); no rows at all is still no problem
    with pytest.raises(PasscurveError, match=r"^`problem`, `count`, `is_gold` and `model` must have the same length "
                                             r"\(got 0 problems for 3 counts\)$"):
        AnswerTallies.from_long([], [3, 1, 2], [True, False, True])
    assert AnswerTallies.from_long([], [], []).n.size == 0


def test_vote_on_counts_or_a_number_names_data():
    # vote(counts) (a Counts from read_counts), vote(None) or vote(5) answered "`gold` is required with per-problem
    # answer lists", as if answer lists had been given; the data is named, and a Counts is said to hold no answers
    counts = Counts.from_arrays([10, 10], [1, 2])
    with pytest.raises(PasscurveError, match=r"^`data` must be an AnswerTallies or a sequence \(one per problem\) of "
                                             r"sequences of answers \(got Counts\); a Counts holds how many samples "
                                             r"were correct, not the answers: read them with "
                                             r"passcurve.data.read_answers\(path\)$"):
        vote(counts)
    for bad, shown in ((None, "NoneType"), (5, "int"), ("abc", "str")):
        with pytest.raises(PasscurveError, match=rf"^`data` must be an AnswerTallies .* \(got {shown}\)$"):
            vote(bad)
    with pytest.raises(PasscurveError, match=r"^`gold` is required with per-problem answer lists$"):
        vote([["a", "b"]])


def test_vote_on_a_data_frame_says_how_to_read_it():
    # API review: vote(df) answered "`gold` is required with per-problem answer lists", as if the frame were lists
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"problem": ["a", "a", "b"], "answer": ["1", "2", "3"], "gold": ["1", "1", "3"]})
    with pytest.raises(PasscurveError, match=r"`data` is a data frame \(DataFrame\); vote takes answer tallies.*"
                                             r"read_answers\(path\).*AnswerTallies.from_long"):
        vote(df)



def test_answer_lists_from_pandas_columns():
    # a notebook's columns: gold=df["gold"] was refused ("`gold` must be a sequence ... (got Series)"), as were a
    # Series of answer lists and a pandas string array; each is read by position, as the list of its values (the
    # frame's index, 7 and 3, plays no part). Hand example: {a, b, a} with gold a and {c, c, d} with gold c, maj@3 = 1
    # for both; maj@1 is the gold share, (2/3 + 2/3) / 2. pd.NA in an answer list abstains, as None does
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"answers": [["a", "b", "a"], ["c", "c", "d"]], "gold": ["a", "c"]}, index=[7, 3])
    assert maj_at_k(df["answers"], df["gold"], 3).tolist() == [1.0, 1.0]
    res = vote(df["answers"], pd.array(["a", "c"], dtype="string"), [1, 3])
    assert res.values["maj_at_k"][0] == pytest.approx([2 / 3, 1.0], abs=1e-14)
    assert res.to_dict() == vote([["a", "b", "a"], ["c", "c", "d"]], ["a", "c"], [1, 3]).to_dict()
    assert maj_at_k([["a", pd.NA, "a"]], ["a"], 2)[0] == maj_at_k([["a", None, "a"]], ["a"], 2)[0]
    with pytest.raises(PasscurveError, match=r"`answers` must be a sequence .* \(got DataFrame\)"):
        maj_at_k(df, df["gold"], 3)  # iterating a frame gives its column names


# ---------------------------------------------------------------------------------------
# files and the CLI
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("ext", ["csv", "jsonl", "parquet"])
def test_read_answers_matches_python_tallies(tmp_path, ext):
    from passcurve.data import read_answers, write_table

    rows = simulate_answers(problems=12, n=10, wrong_answers=4, abstain=0.1, rng=2)
    path = write_table(rows, tmp_path / f"answers.{ext}")
    t = read_answers(path)
    ref = _tallies_from_rows(rows)
    assert t.n.tolist() == ref.n.tolist() and t.c.tolist() == ref.c.tolist()
    assert t.abstain.tolist() == ref.abstain.tolist()
    assert t.count.tolist() == ref.count.tolist()  # same first-appearance order (by attempt)
    assert np.allclose(vote(t, k=[1, 5, 10]).per_problem["maj_at_k"],
                       vote(ref, k=[1, 5, 10]).per_problem["maj_at_k"])


def test_cli_vote_runs_on_a_simulated_log(icli, tmp_path):
    import json

    from passcurve.data import write_table

    rows = simulate_answers(problems=20, n=16, rng=4)
    path = write_table(rows, tmp_path / "answers.csv")
    r = icli("vote", str(path), "--k", "1,4,16", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    ref = vote(_tallies_from_rows(rows), k=[1, 4, 16])
    got = [pt["maj_at_k"] for pt in d["models"][0]["curve"]]
    assert got == pytest.approx(ref.values["maj_at_k"][0].tolist(), abs=1e-12)


@pytest.mark.parametrize(
    ("lines", "match"),
    [
        (['{"problem_id": "p", "answer": "a", "gold": "a"}', '{"problem_id": "p", "answer": "b", "gold": null}'],
         "gold answer missing"),
        (['{"problem_id": "p", "answer": "a", "gold": "a"}', '{"problem_id": "p", "answer": 3, "gold": "a"}'],
         "answers of mixed types"),
        (['{"problem_id": "p", "answer": "a", "gold": "a"}', '{"problem_id": "p", "answer": "b", "gold": "b"}'],
         "more than one gold answer"),
        (['{"problem_id": "p", "answer": "a"}'], "no gold column"),
        (['{"problem_id": "p", "answer": "a", "gold": "a", "attempt": 1}',
          '{"problem_id": "p", "answer": "b", "gold": "a", "attempt": 1}'], "duplicate attempt 1"),
        # the fingerprint sees {0, 0, 2} is not the run 0..2; the exact query names the duplicate; a run of
        # ids (0, 1, 2 in another problem) passes the fingerprint
        (['{"problem_id": "p", "answer": "a", "gold": "a", "attempt": 0}',
          '{"problem_id": "p", "answer": "b", "gold": "a", "attempt": 0}',
          '{"problem_id": "p", "answer": "b", "gold": "a", "attempt": 2}',
          '{"problem_id": "q", "answer": "a", "gold": "a", "attempt": 0}',
          '{"problem_id": "q", "answer": "a", "gold": "a", "attempt": 1}',
          '{"problem_id": "q", "answer": "a", "gold": "a", "attempt": 2}'], "duplicate attempt 0 in problem 'p'"),
    ],
)
def test_read_answers_bad_files(tmp_path, lines, match):
    from passcurve.data import read_answers

    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(PasscurveError, match=match):
        read_answers(path)


def test_cli_vote_missing_gold_exit_2(tmp_path, cli):
    path = tmp_path / "bad.csv"
    path.write_text("problem_id,answer,gold\np,a,a\nq,b,\n")
    r = cli("vote", str(path), "--k", "1")
    assert r.returncode == 2
    assert "gold answer missing" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_read_answers_compares_a_csv_as_the_text_written(tmp_path, icli):
    from passcurve.data import read_answers

    # p1: gold "1", answers 1, 1, 2; p2: gold "x", answers 2.5, 4. DuckDB had read the answers as DOUBLE ('1.0')
    # and the gold as text ('1'): accuracy 0. By hand: gold shares 2/3 and 0, accuracy 1/3; maj@2 of p1 is
    # (1 + 1/2 + 1/2)/3 over its 3 pairs (two 1-1 ties, random break), so maj@2 = (2/3 + 0)/2 = 1/3
    path = tmp_path / "v8.csv"
    path.write_text("problem_id,attempt,answer,gold\np1,1,1,1\np1,2,1,1\np1,3,2,1\np2,1,2.5,x\np2,2,4,x\n")
    t = read_answers(path)
    assert t.answer.tolist() == ["1", "2", "2.5", "4"] and t.is_gold.tolist() == [True, False, False, False]
    r = icli("vote", str(path), "--k", "1,2", "--json")
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["models"][0]
    assert m["accuracy"] == pytest.approx(1 / 3, abs=1e-15)
    assert [pt["maj_at_k"] for pt in m["curve"]] == pytest.approx([1 / 3, 1 / 3], abs=1e-15)
    # the text as written, without a field's surrounding spaces: '1' and ' 1 ' are the gold '1'; '1.0' and '01' are
    # other answers (they were all the number 1 when the sniffer read the column as DOUBLE)
    path.write_text("problem_id,attempt,answer,gold\np,1,1,1\np,2,1.0,1\np,3,01,1\np,4, 1 ,1\n")
    t = read_answers(path)
    assert t.answer.tolist() == ["1", "1.0", "01"] and t.count.tolist() == [2, 1, 1]
    assert t.is_gold.tolist() == [True, False, False]
    # a typed file compares values, as Python does (1 == 1.0): JSON numbers 1.0 and 1 are the gold 1
    js = tmp_path / "n.jsonl"
    js.write_text("\n".join(json.dumps({"problem_id": "p", "attempt": i, "answer": a, "gold": 1})
                            for i, a in enumerate([1.0, 1, 2.5])) + "\n")
    assert read_answers(js).is_gold.tolist() == [True, False]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        # JSON NaN in a column of numbers (DOUBLE), beside strings (a JSON column), and in a CSV the text nan (any
        # case) and an empty field, as a count column reads them
        ("n.jsonl", '{"problem_id": "p", "answer": NaN, "gold": 1}\n{"problem_id": "p", "answer": 1, "gold": 1}\n'
                    '{"problem_id": "p", "answer": NaN, "gold": 1}\n{"problem_id": "p", "answer": 2, "gold": 1}\n'),
        ("s.jsonl", '{"problem_id": "p", "answer": NaN, "gold": "1"}\n{"problem_id": "p", "answer": "1", "gold": "1"}\n'
                    '{"problem_id": "p", "answer": null, "gold": "1"}\n{"problem_id": "p", "answer": "2", "gold": "1"}\n'),
        ("a.csv", "problem_id,answer,gold\np,nan,1\np,1,1\np,NaN,1\np,2,1\n"),
        ("b.csv", "problem_id,answer,gold\np,,1\np,1,1\np, nan ,1\np,2,1\n"),
    ],
)
def test_read_answers_nan_answers_abstain(tmp_path, icli, name, content):
    from passcurve.data import read_answers

    # a NaN had been a vote for the answer 'nan' (in JSON, with strings, "mixed types"; in a CSV read as text, the
    # votes 'nan' and 'NaN'). By hand: 4 samples, 2 abstain, the gold 1 and a wrong 2 one vote each
    path = tmp_path / name
    path.write_text(content)
    t = read_answers(path)
    assert t.count.tolist() == [1, 1] and t.is_gold.tolist() == [True, False] and t.abstain.tolist() == [2]
    assert t.n.tolist() == [4]
    # maj@2 over the C(4,2) = 6 pairs: {gold, wrong} ties (1/2), gold or wrong with an abstention (2 pairs each: 1
    # and 0), the two abstentions (0): (1/2 + 2)/6 = 5/12
    r = icli("vote", str(path), "--k", "2", "--json")
    assert r.returncode == 0, r.stderr
    m = json.loads(r.stdout)["models"][0]
    assert m["abstentions"] == 2 and m["curve"][0]["maj_at_k"] == pytest.approx(5 / 12, abs=1e-15)


def test_read_answers_nan_in_parquet_and_verdict_logs_abstains(tmp_path):
    import duckdb

    from passcurve.data import read_answers

    # a Parquet float NaN (not null: written by DuckDB itself) had been the answer nan
    pq = tmp_path / "a.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('p', 'nan'::DOUBLE, 1.0::DOUBLE), ('p', 1.0, 1.0), ('p', 2.0, 1.0)) "
               f"t(problem_id, answer, gold)) TO '{pq}'")
    t = read_answers(pq)
    assert t.answer.tolist() == [1.0, 2.0] and t.abstain.tolist() == [1]
    # gold from the verdicts (no gold column): a CSV's nan answer abstains there too
    csv = tmp_path / "v.csv"
    csv.write_text("problem_id,answer,correct\np,nan,0\np,1,1\np,,0\np,2,0\n")
    t = read_answers(csv)
    assert t.answer.tolist() == ["1", "2"] and t.is_gold.tolist() == [True, False] and t.abstain.tolist() == [2]


@pytest.mark.parametrize(
    ("name", "content", "row"),
    [
        # a NaN gold had made the NaN answers of its problem correct (is_gold True for the answer nan)
        ("g.jsonl", '{"problem_id": "q", "answer": 1, "gold": 1}\n{"problem_id": "p", "answer": NaN, "gold": NaN}\n'
                    '{"problem_id": "p", "answer": 1, "gold": NaN}\n',
         "{problem_id='p', answer=nan, gold=nan}"),
        # a CSV's text nan had been the gold answer 'nan'; an empty field was refused already
        ("g.csv", "problem_id,answer,gold\nq,1,1\np,2,nan\np,2,nan\n", "{problem_id='p', answer='2', gold='nan'}"),
        ("e.csv", "problem_id,answer,gold\nq,1,1\np,2,\n", "{problem_id='p', answer='2', gold=None}"),
    ],
)
def test_read_answers_refuses_a_missing_gold_naming_the_problem(tmp_path, icli, name, content, row):
    from passcurve.data import read_answers

    path = tmp_path / name
    path.write_text(content)
    msg = (f"{name}: gold answer missing (null/NaN) in column 'gold' for problem 'p', e.g. row {row}; every problem "
           "needs a reference answer")
    with pytest.raises(PasscurveError, match=re.escape(msg)):
        read_answers(path)
    r = icli("vote", str(path), "--k", "1")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [f"passcurve: error: {msg}"]


def test_read_answers_refuses_a_nan_gold_in_parquet(tmp_path):
    import duckdb

    from passcurve.data import read_answers

    pq = tmp_path / "g.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('q', 1.0::DOUBLE, 1.0::DOUBLE), ('p', 'nan'::DOUBLE, 'nan'::DOUBLE)) "
               f"t(problem_id, answer, gold)) TO '{pq}'")
    with pytest.raises(PasscurveError, match=r"gold answer missing \(null/NaN\) in column 'gold' for problem 'p'"):
        read_answers(pq)


@pytest.mark.parametrize(
    ("content", "args", "match"),
    [
        ('{"problem_id": "p", "answer": "a", "gold": "a"}\n{"problem_id": "p", "answer": 3, "gold": "a"}\n',
         ["--k", "1"], "answers of mixed types"),
        # a JSON list answer beside text gold: DuckDB's VARCHAR[] was the text family, and a later query failed with
        # "cannot read bad.jsonl as jsonl: Type VARCHAR with value 'a' can't be cast to the destination type VARCHAR[]
        # when casting from source column gold"
        ('{"problem_id": "p", "answer": ["a"], "gold": "a"}\n{"problem_id": "p", "answer": ["b"], "gold": "a"}\n',
         ["--k", "1"], r"bad.jsonl: answers of mixed types: 'answer' is VARCHAR\[\] but 'gold' is VARCHAR; normalise"),
        # a column of nulls only, which DuckDB types NULL: "answers of mixed types: 'answer' is "NULL" but 'gold' is
        # VARCHAR"
        ('{"problem_id": "p", "answer": null, "gold": "a"}\n{"problem_id": "p", "answer": null, "gold": "a"}\n',
         ["--k", "1"], r"bad.jsonl: column 'answer' holds no value \(it is null in every row\)$"),
        ('{"problem_id": "p", "answer": "a", "gold": "a"}\n', ["--k", "1", "--ties", "coin"], "`--ties` must be one of"),
        ('{"problem_id": "p", "answer": "a", "gold": "a"}\n', ["--k", "2"], "`--k` must be an integer in \\[1, n\\]"),
    ],
)
def test_cli_vote_bad_input_in_process(tmp_path, capfd, content, args, match):
    from passcurve.cli._app import run

    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code = run(["vote", str(path), *args])
    err = capfd.readouterr().err
    assert code == 2 and "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and re.search(match, lines[0]), err


def test_cli_vote_table_in_process(tmp_path, capfd):
    from passcurve.cli._app import run
    from passcurve.data import write_table

    rows = simulate_answers(problems=6, n=8, rng=1)
    path = write_table(rows, tmp_path / "a.parquet")
    assert run(["vote", str(path), "--k", "1,8", "--ties", "strict"]) == 0
    out = capfd.readouterr().out
    # accuracy: the mean over problems of the gold share, from the rows (every problem has n = 8 here)
    shares = {}
    for prob, ans, g in zip(rows["problem_id"], rows["answer"], rows["gold"], strict=True):
        hit, tot = shares.get(prob, (0, 0))
        shares[prob] = (hit + (ans == g), tot + 1)
    acc = sum((Fraction(h, t) for h, t in shares.values()), Fraction(0)) / len(shares)
    assert "ties: strict" in out and f"accuracy {float(acc):.4f}," in out


def test_models_numbers_and_frames():
    # two models, integer answers; per-model means of the per-problem values
    answers = [[1, 1, 2], [3, 3, 3], [1, 2, 2], [5, 4, 4]]
    t = AnswerTallies.from_answers(answers, [1, 3, 1, 4], model=["m1", "m1", "m2", "m2"])
    res = vote(t, k=[1, 2, 3])
    assert res.models == ("m1", "m2")
    per = res.per_problem["maj_at_k"]
    assert np.allclose(res.values["maj_at_k"], [per[:2].mean(axis=0), per[2:].mean(axis=0)])
    # [1, 1, 2] with gold 1 at k = 2: 1/3 + 2/3 * 1/2 = 2/3 (by hand); [1, 2, 2] at k = 3: 0
    assert per[0, 1] == pytest.approx(2 / 3) and per[2, 2] == 0.0
    # standard error over problems (Miller 2024): sd(ddof=1)/sqrt(N) of the per-problem values
    assert res.se["maj_at_k"][0, 1] == pytest.approx(np.std(per[:2, 1], ddof=1) / np.sqrt(2))
    assert res.to_dict()["models"][0]["curve"][1]["maj_at_k_se"] == pytest.approx(res.se["maj_at_k"][0, 1])
    frame = res.to_frame()
    assert list(frame["model"]) == ["m1"] * 3 + ["m2"] * 3
    with pytest.raises(PasscurveError, match="mix types"):
        maj_at_k([[True, 1]], [1], 1)


def _lm_eval_log(tmp_path, runs):
    """An lm-evaluation-harness --log_samples file of several concatenated runs (one answer per doc per run)."""
    rows = []
    for run in runs:
        for doc, (answer, ok) in enumerate(run):
            rows.append({"doc_id": doc, "doc": {}, "target": "long solution text #### 72", "resps": [[answer]],
                         "filtered_resps": [answer], "filter": "strict-match", "metrics": ["exact_match"],
                         "exact_match": ok, "run": 0})
    path = tmp_path / "samples_gsm8k_2024.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_vote_on_an_lm_eval_log_takes_the_gold_answer_from_the_verdicts(tmp_path):
    from passcurve.data import read_answers

    # doc 0: 72 (correct) x2, 71 x2 -> a tie; doc 1: 5 (wrong) x3, 6 (correct) x1
    runs = [[("72", 1.0), ("5", 0.0)], [("71", 0.0), ("5", 0.0)], [("72", 1.0), ("6", 1.0)], [("71", 0.0), ("5", 0.0)]]
    path = _lm_eval_log(tmp_path, runs)
    tallies = read_answers(path)
    assert tallies.meta["gold_from"] == "verdicts" and tallies.meta["columns"]["verdict"] == "exact_match"  # the log's own field
    ref = AnswerTallies.from_answers([["72", "71", "72", "71"], ["5", "5", "6", "5"]], ["72", "6"])
    got, want = vote(tallies, k=[1, 2, 4]), vote(ref, k=[1, 2, 4])
    assert np.allclose(got.values["maj_at_k"], want.values["maj_at_k"], atol=1e-15)
    # maj@4 by hand: doc 0 is a 2-2 tie (random break: 1/2), doc 1 loses 1-3
    assert got.values["maj_at_k"][0, 2] == pytest.approx(0.25, abs=1e-15)


def test_vote_verdicts_merge_spellings_and_refuse_mixed_judgements(tmp_path):
    from passcurve.data import read_answers

    # "72" and "72." both judged correct: one answer with 3 votes against 71's 1
    path = _lm_eval_log(tmp_path, [[("72", 1)], [("72.", 1)], [("71", 0)], [("72", 1)]])
    with pytest.warns(MergedAnswersWarning, match=r"several answers judged correct .*'72', '72\.'"):
        tallies = read_answers(path)
    assert tallies.problem_tallies(0)[0].tolist() == [3, 1] and tallies.problem_tallies(0)[1] == 0
    bad = _lm_eval_log(tmp_path, [[("72", 1)], [("72", 0)]])
    # the refusal names the log's own field (it said "(column 'correct')", a name the lm_eval adapter made up)
    with pytest.raises(PasscurveError, match=r"answer '72' of problem '0' is judged correct in some samples and "
                                             r"incorrect in others \(column 'exact_match'\)"):
        read_answers(bad)


def test_cli_vote_prints_the_several_correct_answers_warning_as_other_warnings(tmp_path, capfd, monkeypatch):
    # read_answers' warning was raised outside the CLI's warning collector: Python printed it in its own two-line
    # format ("/.../_vote.py:58: PasscurveWarning: ..." and the source line), or not at all where warnings were
    # filtered (pytest recorded it: nothing on stderr); now one "passcurve: warning: ..." line, as load_counts' are
    import warnings

    from passcurve.cli._app import run

    path = _lm_eval_log(tmp_path, [[("72", 1)], [("72.", 1)], [("71", 0)], [("72", 1)]])
    want = (f"passcurve: warning: MergedAnswersWarning: {path.name}: 1 problem(s) have several answers judged correct "
            "(e.g. problem '0': '72', '72.'); each problem's correct answers count as one answer in the vote\n")
    with warnings.catch_warnings():
        warnings.simplefilter("default")  # as a user's interpreter runs: shown once per place
        assert run(["vote", str(path), "--k", "1,2"]) == 0
    assert capfd.readouterr().err == want
    assert run(["vote", str(path), "--k", "1,2", "--json"]) == 0
    out, err = capfd.readouterr()
    assert err == want and json.loads(out)["models"][0]["problems"] == 1


def test_several_correct_answers_warning_counts_the_selected_models_only(tmp_path, capfd):
    # `vote --models B` warned about model A's problem with two spellings judged correct: the check ran over the
    # whole log, before the selection (as the stopping-time warning did for `--models` on counts)
    from passcurve.cli._app import run
    from passcurve.data import read_answers

    path = tmp_path / "v.csv"
    path.write_text("model,problem_id,attempt,answer,correct\n"
                    "A,p1,1,x72,true\nA,p1,2,x72.,true\nA,p1,3,x5,false\nA,p2,1,x3,true\n"
                    "B,p1,1,x72,true\nB,p1,2,x72,true\nB,p1,3,x5,false\nB,p2,1,x3,true\nB,p2,2,y3,true\n")
    with pytest.warns(MergedAnswersWarning, match=r"2 problem\(s\) have several answers judged correct"):
        read_answers(path)
    with pytest.warns(MergedAnswersWarning, match=r"1 problem\(s\) .* \(e\.g\. problem 'p1': 'x72', 'x72\.'\)") as rec:
        got = read_answers(path, models=["A"])
    assert len(rec) == 1 and got.meta["problems_with_several_correct_answers"] == 1
    with pytest.warns(MergedAnswersWarning, match=r"1 problem\(s\) .* \(e\.g\. problem 'p2': 'x3', 'y3'\)"):
        read_answers(path, models=["B"])
    assert run(["vote", str(path), "--models", "B", "--k", "1"]) == 0
    err = capfd.readouterr().err
    assert err.count("passcurve: warning:") == 1 and "1 problem(s)" in err and "'p2': 'x3', 'y3'" in err, err


def test_default_grid_stops_at_1024():
    # scale audit: the default ran to every power of 2 up to n (8,192 at n = 10^4), hours for 1,000 problems
    from passcurve._voting import DEFAULT_K_MAX

    tal = AnswerTallies.from_answers([["a"] * 3000 + ["b"] * 2000], ["a"])
    res = vote(tal)
    assert DEFAULT_K_MAX == 1024 and res.k.tolist() == [2**i for i in range(11)]
    assert vote(AnswerTallies.from_answers([["a", "b", "a"]], ["a"])).k.tolist() == [1, 2]  # up to the smallest n


@pytest.mark.parametrize(("tallies", "abstain", "k", "ties"), [
    ([5, 18, 68, 53], 8, 51, "random"),  # 46+ other votes over 3 answers: one has >= 16 > 5 gold votes
    ([7, 78, 60, 76], 0, 44, "strict"),
    ([13, 55, 51, 67], 8, 59, "strict"),  # strict ties: a wrong answer must stay below the gold count
    ([6, 7, 33, 72, 10], 0, 28, "strict"),
])
def test_impossible_gold_lead_is_exactly_zero(tallies, abstain, k, ties):
    # exact rational DP gives 0 (gold can never lead); the Fourier sum left its rounding: 8.3e-32, 6.3e-27,
    # 3.5e-26, 1.1e-23
    assert exact_dp(tallies[0], tallies[1:], abstain, k, ties) == 0
    assert maj_at_k_tallies(tallies, 0, k, ties=ties, abstain=abstain) == 0.0


def test_cli_vote_says_samples_per_problem_as_curve_does(tmp_path, capfd):
    # CLI audit: vote's title said "n 8..8" where curve says "samples per problem 8 / 8 / 8 (min / median / max)"
    from passcurve.cli._app import run
    from passcurve.data import write_table

    rows = simulate_answers(problems=6, n=8, rng=1)
    path = write_table(rows, tmp_path / "a.parquet")
    assert run(["vote", str(path), "--k", "1,8"]) == 0
    out = capfd.readouterr().out
    assert "6 problems, samples per problem 8 / 8 / 8 (min / median / max), accuracy" in out and "n 8..8" not in out
    assert run(["vote", str(path), "--k", "1", "--json"]) == 0
    entry = json.loads(capfd.readouterr().out)["models"][0]
    assert (entry["n_min"], entry["n_median"], entry["n_max"]) == (8, 8.0, 8)


def test_k1_is_the_accuracy_one_number():
    # `passcurve simulate-answers --problems 100` then `vote`: maj@1 printed 0.4788 beside independent maj@1
    # 0.4787, both the accuracy 0.47875 = 3064/6400 (a float path an ulp off each, rounding apart at the 4th
    # decimal). maj@1, pass@1 and the independent voter at k = 1 are each the mean of c/n by definition.
    from passcurve.cli._vote import _f

    rows = simulate_answers(100, 64, wrong_answers=20, concentration=0.5, rng=0)
    t = _tallies_from_rows(rows)
    res = vote(t, k=[1, 4])
    exact = sum(Fraction(int(c), int(n)) for n, c in zip(t.n, t.c, strict=True)) / len(t)
    assert exact == Fraction(383, 800)  # 0.47875: the case the review found
    acc = res.accuracy[0]
    assert acc == pytest.approx(float(exact), rel=1e-15)
    for name in ("maj_at_k", "pass_at_k", "independent_maj_at_k"):
        assert res.values[name][0, 0] == acc, name
    assert res.values["selection_loss"][0, 0] == 0.0 and res.values["correlation_cost"][0, 0] == 0.0
    assert len({_f(res.values[name][0, 0]) for name in ("maj_at_k", "pass_at_k", "independent_maj_at_k")}) == 1
    # per problem, one voter's vote is its sample: maj@1 = g/n exactly (Fraction), and for one independent voter p
    for i in range(len(t)):
        tal, gi, ab = t.problem_tallies(i)
        if gi >= 0:  # g/n correctly rounded (one float division of exact integers)
            assert maj_at_k_tallies(tal, gi, [1], abstain=ab)[0] == int(tal[gi]) / (int(tal.sum()) + ab)
    assert _independent_one(tal, gi, ab, 0.3, np.array([1]), "random")[0] == 0.3


def test_read_answers_of_several_files_is_one_log_with_a_model_column(tmp_path):
    # one answers log per model (the file names the model) gives the tallies of one log with a model column: the
    # same rows, each part's answer offsets shifted past the previous file's answers
    from passcurve.data import read_answers, write_table

    rows = {m: simulate_answers(12, 10, wrong_answers=4, abstain=0.1, model=m, rng=i) for i, m in enumerate("AB")}
    for m, r in rows.items():
        write_table({k: v for k, v in r.items() if k != "model"}, tmp_path / f"{m}.jsonl")
    write_table({k: np.concatenate([rows["A"][k], rows["B"][k]]) for k in rows["A"]}, tmp_path / "both.jsonl")
    several = read_answers([tmp_path / "A.jsonl", tmp_path / "B.jsonl"])
    one = read_answers(tmp_path / "both.jsonl")
    for name in ("model", "problem", "offsets", "count", "is_gold", "abstain", "answer"):
        assert np.array_equal(getattr(several, name), getattr(one, name)), name
    assert several.source == "A.jsonl, B.jsonl" and several.models == ["A", "B"]
    assert np.array_equal(vote(several, k=[1, 3]).values["maj_at_k"], vote(one, k=[1, 3]).values["maj_at_k"])
    assert read_answers([tmp_path / "A.jsonl", tmp_path / "B.jsonl"], models=["B"]).models == ["B"]


def test_read_answers_pools_runs_over_the_same_problems(tmp_path):
    # two runs of one model over the same 10 problems: pooled tallies are those of one log with both runs' rows
    # (answer counts added, first appearance over the runs in file order); different gold answers are refused
    from passcurve.data import read_answers, write_table

    r1 = simulate_answers(10, 6, wrong_answers=3, abstain=0.1, model="m", rng=1)
    r2 = simulate_answers(10, 4, wrong_answers=3, abstain=0.1, model="m", rng=2)
    r2["gold"] = r1["gold"][::6].repeat(4)  # the same problems: the same gold answer per problem
    r2["attempt"] = r2["attempt"] + 6  # attempts of the second run follow the first run's in the joint log
    for name, r in (("run1", r1), ("run2", r2)):
        write_table(r, tmp_path / f"{name}.jsonl")
    write_table({k: np.concatenate([r1[k], r2[k]]) for k in r1}, tmp_path / "both.jsonl")
    runs = [tmp_path / "run1.jsonl", tmp_path / "run2.jsonl"]
    with pytest.raises(PasscurveError, match="model 'm' is in both run1.jsonl and run2.jsonl"):
        read_answers(runs)
    pooled, one = read_answers(runs, pool=True), read_answers(tmp_path / "both.jsonl")
    for name in ("model", "problem", "offsets", "count", "is_gold", "abstain", "answer"):
        assert np.array_equal(getattr(pooled, name), getattr(one, name)), name
    assert set(pooled.n) == {10}
    r2["gold"] = np.where(r2["gold"] == r2["gold"][0], "other", r2["gold"])  # problem 0's gold differs in run 2
    r2["correct"] = r2["answer"] == r2["gold"]
    write_table(r2, tmp_path / "run2.jsonl")
    with pytest.raises(PasscurveError, match="the runs give different gold answers"):
        read_answers(runs, pool=True)


@pytest.mark.parametrize("verdicts", [False, True])
def test_read_answers_refuses_one_id_written_two_ways(tmp_path, verdicts):
    # 'p' and 'p ' were two problems of one vote each; the counts readers' spelling check applies here too
    from passcurve.data import read_answers

    key = "correct" if verdicts else "gold"
    value = (lambda a: a == "a") if verdicts else (lambda a: "a")
    rows = [{"problem_id": p, "answer": a, key: value(a)} for p, a in (("p", "a"), ("p", "b"), ("p ", "a"))]
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    kwargs = {"correct_col": "correct"} if verdicts else {}
    with pytest.raises(PasscurveError, match=r"problem-id column 'problem_id' writes one id two ways, 'p' and 'p '"):
        read_answers(path, **kwargs)


def test_vote_refuses_an_lm_eval_log_with_filters_read_as_generic_rows():
    from pathlib import Path

    from passcurve import InputFormatError
    from passcurve.data import read_answers

    # read as plain JSONL, a document's strict-match and flexible-extract rows would be two votes of one problem
    log = Path(__file__).parent / "data" / "harness" / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl"
    with pytest.raises(InputFormatError, match=r"lm_eval samples log with 2 filters .*model_col=filter"):
        read_answers(log, format="jsonl", answer_col="target", correct_col="exact_match")
    with pytest.raises(InputFormatError, match=r"lm_eval samples log with 2 filters"):
        read_answers(log, format="jsonl", answer_col="target", gold_col="doc_hash")


def test_duplicate_attempt_names_its_lines(tmp_path):
    # the answers reader's duplicate attempt gave no line ("duplicate attempt 0 in problem 'a' (column 'attempt')");
    # it now names the first two, as the samples reader does. Hand count: problem a's attempt 0 on lines 1 and 3.
    from passcurve.data import read_answers

    p = tmp_path / "d.jsonl"
    p.write_text('{"problem":"a","attempt":0,"answer":"1","gold":"1"}\n{"problem":"b","attempt":0,"answer":"1","gold":"1"}\n'
                 '{"problem":"a","attempt":0,"answer":"2","gold":"1"}\n')
    with pytest.raises(PasscurveError, match=r"^d.jsonl: duplicate attempt 0 in problem 'a' \(column 'attempt'\) "
                                             r"at lines 1 and 3$"):
        read_answers(p)


def test_simulate_answers_uses_the_checked_numbers():
    # a Fraction concentration passed the check (a number) and reached numpy's Dirichlet draw as an object array:
    # TypeError "Cannot cast array data from dtype('O') to dtype('float64')". The checked floats are used now: the
    # same answers as 0.5 with the same seed (API sweep)
    a = simulate_answers(5, 6, concentration=Fraction(1, 2), alpha=Fraction(3, 5), rng=0)
    b = simulate_answers(5, 6, concentration=0.5, alpha=0.6, rng=0)
    assert all(np.array_equal(a[key], b[key]) for key in b)


def test_vote_title_counts_abstentions(icli, tmp_path):
    # the JSON counted abstentions (samples without an answer: a seat in the subset, no vote) but the table's title
    # did not (helper-105's review). Hand count: 2 of problem p's 4 samples have no answer
    path = tmp_path / "a.csv"
    path.write_text("problem_id,answer,gold\np,1,1\np,,1\np,,1\np,2,1\nq,3,3\nq,3,3\nq,4,3\nq,3,3\n")
    r = icli("vote", str(path), "--k", "1,2", env={"COLUMNS": "300"})
    assert r.returncode == 0, r.stderr
    assert "2 abstentions (samples without an answer: a seat, no vote)" in r.stdout, r.stdout
    d = json.loads(icli("vote", str(path), "--k", "1,2", "--json").stdout)
    assert d["models"][0]["abstentions"] == 2  # the title's count is the JSON's


def test_thousands_of_equal_wrong_answers_against_exact_polynomial_power():
    # 3,000 wrong answers with 3 samples each share one row of the computation (multiplicity 3,000); gold has 10
    # of n = 9,010. Under "strict" the gold answer wins iff every wrong answer has fewer votes than its x, so
    # maj@k = sum_x C(10, x) [z^(k-x)] (sum_{y<x} C(3, y) z^y)^3000 / C(n, k): exact integers, the power by
    # repeated squaring. The chance that one of the 3,000 reaches x must be counted 3,000 times over: counted once
    # per row, the check that skips the exact sum for a gold count dropped 1.9e-11 of maj@20
    g, b, m, n = 10, 3, 3000, 10 + 3 * 3000

    def mul(p, q, top):
        out = [0] * (top + 1)
        for i, a in enumerate(p[: top + 1]):
            if a:
                for j, c in enumerate(q[: top + 1 - i]):
                    out[i + j] += a * c
        return out

    def power(p, e, top):
        out, base = [1], p
        while e:
            if e & 1:
                out = mul(out, base, top)
            base, e = mul(base, base, top), e >> 1
        return out + [0] * (top + 1 - len(out))

    for k in (8, 20):
        tot = sum(comb(g, x) * power([comb(b, y) for y in range(x)], m, k - x)[k - x] for x in range(1, min(g, k) + 1))
        want = Fraction(tot, comb(n, k))
        got = maj_at_k_tallies([g] + [b] * m, 0, k, ties="strict")
        assert got == pytest.approx(float(want), rel=1e-9, abs=0), k


def test_independent_voters_random_ties_on_an_all_gold_problem():
    # Closed forms (binomial sums, exact rationals). Accuracy p = (20/20 + 10/20)/2 = 3/4. Problem 1 has no wrong sample,
    # so its wrong votes never coincide: X >= 2 gold votes win, one gold vote ties the k - 1 lone wrong votes
    # (1/k under random ties): P1 = 1 - q^k - k p q^(k-1) + k p q^(k-1)/k. Problem 2's one wrong answer gets the
    # other k - X votes: P2 = P(X > k/2) + P(X = k/2)/2. k = 12 and 20 take the one-gold-vote Fourier path
    res = vote([["a"] * 20, ["b", "c"] * 10], ["a", "b"], k=[2, 3, 4, 12, 20], ties="random")
    p, q = Fraction(3, 4), Fraction(1, 4)

    def binom(k, x):
        return comb(k, x) * p**x * q ** (k - x)

    want = []
    for k in (2, 3, 4, 12, 20):
        one = 1 - q**k - binom(k, 1) + binom(k, 1) / k
        two = sum((binom(k, x) for x in range(k + 1) if 2 * x > k), Fraction(0)) + (binom(k, k // 2) / 2 if k % 2 == 0 else 0)
        want.append(float((one + two) / 2))
    np.testing.assert_allclose(res.values["independent_maj_at_k"][0], want, rtol=0, atol=1e-12)
    # a lone gold vote shares the tie: more than strict's (where it loses), less than a win
    strict = vote([["a"] * 20, ["b", "c"] * 10], ["a", "b"], k=[2, 3, 4, 12, 20], ties="strict")
    assert np.all(res.values["independent_maj_at_k"][0] > strict.values["independent_maj_at_k"][0])


def test_independent_prediction_near_one_stays_a_probability():
    # 183 gold samples of 364 against wrong answers of 62, 63 and 56: k independent voters at p = 183/364 beat
    # three wrong answers of share ~1/6 each almost surely at k = 344, so the prediction rounds to 1; it is a
    # probability and must not exceed 1 (its Fourier sum came out 3.4e-13 above 1 without the final clip)
    answers = ["g"] * 183 + ["w0"] * 62 + ["w1"] * 63 + ["w2"] * 56
    ks = [2, 8, 64, 200, 344, 364]
    res = vote([answers], ["g"], k=ks)
    for name in ("maj_at_k", "independent_maj_at_k", "pass_at_k"):
        v = res.values[name][0]
        assert np.all((v >= 0) & (v <= 1)), (name, v.tolist())
    assert res.values["independent_maj_at_k"][0, ks.index(344)] == pytest.approx(1.0, abs=1e-12)


def test_independent_prediction_of_a_problem_whose_gold_was_never_sampled():
    # two problems with the same tallies {3, 2}: in the first the 3 are the gold answer, in the second neither answer
    # is gold. Their independent-voter predictions differ (one wrong answer taking every wrong vote, against two wrong
    # answers sharing them 2:3), so neither may stand in for the other. Accuracy p = (3/5 + 0)/2 = 3/10; exact
    # rationals by enumeration of every sequence of k voters
    res = vote([["g"] * 3 + ["w"] * 2, ["x"] * 2 + ["y"] * 3], ["g", "z"], k=[1, 2, 3, 4, 5])
    p = Fraction(3, 10)
    want = [float((brute_independent([p, 1 - p], k) + brute_independent([p, (1 - p) * Fraction(2, 5),
                                                                          (1 - p) * Fraction(3, 5)], k)) / 2)
            for k in (1, 2, 3, 4, 5)]
    np.testing.assert_allclose(res.values["independent_maj_at_k"][0], want, rtol=0, atol=1e-12)


def test_vote_k2_column_is_maj_at_2_not_the_accuracy():
    # one problem [a, a, b, -]: accuracy 1/2. The six pairs (exact enumeration, brute_maj): aa wins, the two ab tie
    # (1/2 each), the two a- win, b- loses: maj@2 = 4/6. pass@2 = 1 - C(2, 2)/C(4, 2) = 5/6 (Chen et al. 2021).
    # Two independent voters at p = 1/2, the other votes b or abstain 1/4 each: 1/4 + 1/4 + 1/8 = 5/8 (enumeration).
    # Only the k = 1 column is the accuracy itself
    ans = ["a", "a", "b", None]
    res = vote([ans], ["a"], k=[1, 2])
    assert brute_maj(ans, "a", 2) == Fraction(2, 3)
    assert brute_independent([Fraction(1, 2), Fraction(1, 4)], 2, abstain=Fraction(1, 4)) == Fraction(5, 8)
    np.testing.assert_allclose(res.values["maj_at_k"][0], [0.5, 2 / 3], rtol=1e-14)
    np.testing.assert_allclose(res.values["pass_at_k"][0], [0.5, 5 / 6], rtol=1e-14)
    np.testing.assert_allclose(res.values["independent_maj_at_k"][0], [0.5, 5 / 8], rtol=1e-12)
    np.testing.assert_allclose(res.values["selection_loss"][0], [0.0, 1 / 6], atol=1e-14)


def test_vote_standard_errors_over_problems():
    # Miller 2024 (arXiv:2411.00640): SE of a mean of per-problem scores s_i = sqrt(sum (s_i - mean)^2/(N - 1)/N).
    # Three problems at k = 2 (random ties, exact pairs by hand): [a, a, a] 1, [a, b, b] 1/3 (two ab ties of three
    # pairs, 1/2 each), [a, b, c] 1/3 (two ties of three, 1/2 each, bc loses). pass@2 = 1 - C(n - c, 2)/C(n, 2) =
    # 1, 2/3, 2/3 (Chen et al. 2021)
    res = vote([["a", "a", "a"], ["a", "b", "b"], ["a", "b", "c"]], ["a"] * 3, k=[2])

    def se(s):
        s = [Fraction(v) for v in s]
        m = sum(s, Fraction(0)) / len(s)
        return (float(sum(((v - m) ** 2 for v in s), Fraction(0)) / (len(s) - 1) / len(s))) ** 0.5

    maj = [1, Fraction(1, 3), Fraction(1, 3)]
    pk = [1, Fraction(2, 3), Fraction(2, 3)]
    np.testing.assert_allclose(res.per_problem["maj_at_k"][:, 0], [float(v) for v in maj], rtol=1e-12)
    assert res.se["maj_at_k"][0, 0] == pytest.approx(se(maj), rel=1e-12)
    assert res.se["selection_loss"][0, 0] == pytest.approx(se([p - m for p, m in zip(pk, maj, strict=True)]), rel=1e-12)


def test_a_vote_gold_wins_in_every_subset_is_exactly_one():
    # the winning P(X = x) summed in floating point gave 1 - 6e-16 where gold wins every k-subset (helper-132's
    # mutation run): 27 gold votes and one abstention at k = 8, or gold holding 4 of any 5 votes; fmt_below_one then
    # printed it as short of 1. Reference: brute force over every k-subset in exact rationals (1 exactly)
    cases = [(["g"] * 27 + [None], 8, "random"), (["g"] * 20 + ["w"], 5, "strict"), (["g"] * 20 + ["w"], 5, "random"),
             (["g"] * 9 + ["w", "v"], 7, "first")]
    for answers, k, ties in cases:
        assert brute_maj(answers, "g", k, ties) == 1
        tallies = [answers.count("g")] + [answers.count(a) for a in ("w", "v") if a in answers]
        got = maj_at_k_tallies(tallies, 0, k, abstain=answers.count(None), ties=ties)
        assert got == 1.0, (answers, k, ties, got)
    # where gold can lose some subsets the value stays below 1 (the brute force's rational 1761/1771, to 1e-14)
    answers = ["g"] * 20 + ["w"] * 3
    want = brute_maj(answers, "g", 5)
    assert want < 1 and maj_at_k_tallies([20, 3], 0, 5) == pytest.approx(float(want), rel=1e-14, abs=0)


def test_read_answers_compares_the_numbers_of_a_json_column_by_value(tmp_path):
    import duckdb

    from passcurve.data import read_answers

    # a Parquet column of JSON numbers was compared as text: the answer 1.0 was not the answer 1 nor the gold 1, where
    # a typed file compares values (read_answers' docs: 1 and 1.0 are one answer). By hand: 1.0 and 1 are one
    # answer (2 votes, the gold), 2 one vote, null abstains
    pq = tmp_path / "j.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('p', '1.0'::JSON, 1), ('p', '2'::JSON, 1), ('p', '1'::JSON, 1), "
               f"('p', 'null'::JSON, 1)) t(problem_id, answer, gold)) TO '{pq}'")
    t = read_answers(pq)
    assert t.answer.tolist() == ["1", "2"] and t.count.tolist() == [2, 1] and t.is_gold.tolist() == [True, False]
    assert t.abstain.tolist() == [1]
    # the gold in the JSON column, the answers typed (DOUBLE): 1.0 is the gold 1; 1e20 is itself
    pq = tmp_path / "k.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('p', 1.0::DOUBLE, '1'::JSON), ('p', 2.5, '1'::JSON), ('p', 1e20, '1'::JSON)) "
               f"t(problem_id, answer, gold)) TO '{pq}'")
    t = read_answers(pq)
    assert t.count.tolist() == [1, 1, 1] and t.is_gold.tolist() == [True, False, False]


def test_read_answers_compares_the_numbers_of_a_json_column_by_value_under_verdicts(tmp_path):
    import warnings

    import duckdb

    from passcurve.data import read_answers

    # answers judged per sample (no gold column) grouped a JSON column's numbers as text: 1.0 and 1 were two wrong
    # answers of one vote each, where the gold path (the test above) and a typed column make them one. By hand:
    # 1.0 and 1 one wrong answer (2 votes), 2 the correct one (1 vote), null abstains
    pq = tmp_path / "v.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('p', '1.0'::JSON, false), ('p', '2'::JSON, true), ('p', '1'::JSON, false), "
               f"('p', 'null'::JSON, false)) t(problem_id, answer, correct)) TO '{pq}'")
    t = read_answers(pq)
    assert t.answer.tolist() == ["1", "2"] and t.count.tolist() == [2, 1] and t.is_gold.tolist() == [False, True]
    assert t.abstain.tolist() == [1]
    # JSON lines of numbers and strings (DuckDB types the column JSON): the numbers by value, the strings as written
    # ("1.5" stays a string answer of its own). By hand: 1.0 and 1 (2 votes), 'x' correct (1), '1.5' (1)
    jl = tmp_path / "v.jsonl"
    jl.write_text("".join(json.dumps({"problem_id": "p", "answer": a, "correct": ok}) + "\n"
                          for a, ok in [(1.0, False), ("x", True), (1, False), ("1.5", False)]))
    t = read_answers(jl)
    assert t.answer.tolist() == ["1", "x", "1.5"] and t.count.tolist() == [2, 1, 1]
    assert t.is_gold.tolist() == [False, True, False]
    # 1.0 and 1 both judged correct: one correct answer, not "several answers judged correct" (which warned)
    pq = tmp_path / "w.parquet"
    duckdb.sql("COPY (SELECT * FROM (VALUES ('p', '1.0'::JSON, true), ('p', '\"a\"'::JSON, false), "
               f"('p', '1'::JSON, true)) t(problem_id, answer, correct)) TO '{pq}'")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = read_answers(pq)
    assert t.answer.tolist() == ["1", "a"] and t.count.tolist() == [2, 1] and t.is_gold.tolist() == [True, False]


def test_read_answers_takes_the_strings_of_a_typed_file_as_written(tmp_path):
    from passcurve.data import read_answers

    # only a CSV's fields (text: no types) lose their surrounding spaces, and its empty field or the text nan abstains;
    # a JSON string is an answer as written, "nan" and "" too, as they are in Python (docs of read_answers). By hand:
    # 'nan' twice, ' a', the gold 'a', '' once each in order of first appearance; nobody abstains
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps({"problem_id": "p", "answer": a, "gold": "a"}) + "\n"
                            for a in ["nan", " a", "a", "nan", ""]))
    t = read_answers(path)
    assert t.answer.tolist() == ["nan", " a", "a", ""] and t.count.tolist() == [2, 1, 1, 1]
    assert t.is_gold.tolist() == [False, False, True, False] and t.abstain.tolist() == [0]


@pytest.mark.parametrize(("row", "role", "aliases"), [
    ({"problem_id": "p", "gold": "a"}, "answer", "answer, extracted_answer, pred, prediction, parsed_answer, "
                                                 "final_answer; pass `answer_col`"),
    ({"answer": "a", "gold": "a"}, "problem", "problem_id, task_id, problem, question_id, doc_id, prompt_id, "
                                              "instance_id, id; pass `problem_col`"),
])
def test_read_answers_without_an_answer_or_a_problem_column_says_what_it_looked_for(tmp_path, row, role, aliases):
    from passcurve.data import read_answers

    path = tmp_path / "x.jsonl"
    path.write_text(json.dumps(row) + "\n")
    cols = ", ".join(row)
    with pytest.raises(PasscurveError, match=re.escape(f"x.jsonl: no {role} column (looked for {aliases}); columns "
                                                       f"found: {cols}")):
        read_answers(path)


def _answer_log(path, rows):
    path.write_text("".join(json.dumps(dict(zip(("model", "problem_id", "answer", "gold"), r, strict=True))) + "\n"
                            for r in rows))
    return path


def test_read_answers_of_several_files_shifts_each_files_answers(tmp_path):
    from passcurve.data import read_answers

    # the second file's answers start after all the first file's (two problems there, three distinct answers), not
    # after its first problem's. By hand: a/p1 x, y; a/p2 z; b/p1 y
    a = _answer_log(tmp_path / "a.jsonl", [("a", "p1", "x", "x"), ("a", "p1", "x", "x"), ("a", "p1", "y", "x"),
                                           ("a", "p2", "z", "z")])
    b = _answer_log(tmp_path / "b.jsonl", [("b", "p1", "y", "x")])
    t = read_answers([a, b])
    assert t.model.tolist() == ["a", "a", "b"] and t.problem.tolist() == ["p1", "p2", "p1"]
    assert t.offsets.tolist() == [0, 2, 3, 4] and t.answer.tolist() == ["x", "y", "z", "y"]
    assert t.count.tolist() == [2, 1, 1, 1] and t.is_gold.tolist() == [True, False, True, False]
    # a third file: its answers after both others' (c/p1 x)
    c = _answer_log(tmp_path / "c.jsonl", [("c", "p1", "x", "x")])
    t = read_answers([a, b, c])
    assert t.offsets.tolist() == [0, 2, 3, 4, 5] and t.answer.tolist() == ["x", "y", "z", "y", "x"]


def test_read_answers_pool_refuses_runs_that_disagree_on_the_gold_answer(tmp_path):
    from passcurve.data import read_answers

    # by hand: run 1 votes A, run 2 votes A and C, gold A in both: pooled A 2 votes (gold), C 1
    runs = [_answer_log(tmp_path / "r1.jsonl", [("m", "p", "A", "A")]),
            _answer_log(tmp_path / "r2.jsonl", [("m", "p", "A", "A"), ("m", "p", "C", "A")])]
    t = read_answers(runs, pool=True)
    assert t.answer.tolist() == ["A", "C"] and t.count.tolist() == [2, 1] and t.is_gold.tolist() == [True, False]
    assert t.meta["pooled"] is True
    # each run's gold answer is sampled in that run only: two gold answers
    _answer_log(runs[1], [("m", "p", "B", "B")])
    with pytest.raises(PasscurveError, match=re.escape("model 'm', problem 'p': the runs give different gold answers "
                                                       "('A', 'B'); pooled runs must be over the same problems")):
        read_answers(runs, pool=True)
    # one answer gold in one run and not in the other (whose gold answer it did not sample)
    _answer_log(runs[0], [("m", "p", "B", "A")])
    with pytest.raises(PasscurveError, match=re.escape("model 'm', problem 'p': the runs give different gold answers "
                                                       "('B' in some runs, not others)")):
        read_answers(runs, pool=True)


def test_several_correct_answers_warning_shows_three_spellings(tmp_path):
    from passcurve.data import read_answers

    # four spellings judged correct: the warning shows the first three in order of appearance; one answer of 4 votes
    path = _lm_eval_log(tmp_path, [[("72", 1)], [("72.", 1)], [("72.0", 1)], [("seventy-two", 1)]])
    with pytest.warns(MergedAnswersWarning, match=r"\(e\.g\. problem '0': '72', '72\.', '72\.0'\); each problem's"):
        tallies = read_answers(path)
    assert tallies.problem_tallies(0)[0].tolist() == [4]


def test_read_answers_takes_verdicts_written_as_booleans_and_words(tmp_path):
    from passcurve.data import read_answers

    # a verdict column of booleans beside words (DuckDB types it JSON) is read as the samples reader reads it. By
    # hand: 4 judged correct (true, "yes"), 5 judged wrong (false, "no"): 4 gold with 2 votes, 5 with 2
    path = tmp_path / "v.jsonl"
    path.write_text("".join(json.dumps({"problem_id": "p", "answer": a, "correct": c}) + "\n"
                            for a, c in (("4", True), ("5", False), ("4", "yes"), ("5", "no"))))
    t = read_answers(path)
    assert t.answer.tolist() == ["4", "5"] and t.count.tolist() == [2, 2] and t.is_gold.tolist() == [True, False]
    # words alone (a text column): the same
    path.write_text("".join(json.dumps({"problem_id": "p", "answer": a, "correct": c}) + "\n"
                            for a, c in (("4", "true"), ("5", "false"), ("4", "yes"), ("5", "no"))))
    t = read_answers(path)
    assert t.answer.tolist() == ["4", "5"] and t.count.tolist() == [2, 2] and t.is_gold.tolist() == [True, False]
