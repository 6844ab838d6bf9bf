"""Harness readers: small hand-made logs in each harness's documented format -> Counts.

Expected counts are hand counts of the fixture rows (tests/data/harness/*), noted per test.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import duckdb
import pytest

from passcurve import InputFormatError, PasscurveError, read_counts
from passcurve.data import open_samples

H = Path(__file__).parent / "data" / "harness"


def as_set(counts):
    return {
        (str(m), str(p), int(n), int(c))
        for m, p, n, c in zip(counts.model, counts.problem, counts.n, counts.c, strict=True)
    }


def test_humaneval_results_jsonl():
    got = read_counts(H / "samples.jsonl_results.jsonl")
    # HumanEval/0: passed, failed, passed -> 2 of 3; HumanEval/1: timed out, failed, passed -> 1 of 3
    assert as_set(got) == {("samples", "HumanEval/0", 3, 2), ("samples", "HumanEval/1", 3, 1)}
    assert got.meta["reader"] == "humaneval"
    assert open_samples(H / "samples.jsonl_results.jsonl").columns.roles["answer"] == "completion"


def test_evalplus_eval_results():
    got = read_counts(H / "eval_results.json")
    # evalplus's rule (evaluate.py): correct = base_status == plus_status == "pass".
    # HumanEval/0: pass/pass, pass/fail -> 1 of 2; HumanEval/1: fail/fail, pass/pass, fail/pass -> 1 of 3
    # (the last passes the extra tests but not the base ones: a failure, not a success)
    # a fixed eval_results.json is the model of its directory (evalplus's layout; test_evalplus_model_names): here
    # the fixtures' directory
    assert as_set(got) == {("harness", "HumanEval/0", 2, 1), ("harness", "HumanEval/1", 3, 1)}
    assert got.meta["reader"] == "evalplus" and got.meta["columns"]["attempt"] == "sample_idx"


def test_evalplus_base_only_run(tmp_path):
    # evalplus --base-only writes no plus_status: a sample is judged on base_status alone
    doc = {"date": "2024-06-01 10:00", "hash": "x", "eval": {"T/0": [{"base_status": "pass"}, {"base_status": "fail"}, {"base_status": "pass"}]}}
    path = tmp_path / "m_vllm_temp_0.8" / "eval_results.json"
    path.parent.mkdir()
    path.write_text(json.dumps(doc))
    assert as_set(read_counts(path)) == {("m_vllm_temp_0.8", "T/0", 3, 2)}


def test_evalplus_model_names(tmp_path, monkeypatch):
    # evalplus's codegen writes a model's samples to <root>/<dataset>/<model>_<backend>_temp_<t> (a directory, or
    # that name + .jsonl) and evaluate writes <directory>/eval_results.json, or <name>.eval_results.json (older
    # versions <name>_eval_results.json) (evalplus codegen.py run_codegen, evaluate.py): the model is the directory
    # of the fixed name, else the name before the suffix. Before, every such file was the model 'eval_results' (or
    # kept the suffix), and two models' eval_results.json side by side were an error
    doc = (H / "eval_results.json").read_text()
    root = tmp_path / "evalplus_results" / "humaneval"
    paths = {}
    for where, model in (("codellama--CodeLlama-7b_vllm_temp_0.8/eval_results.json",
                          "codellama--CodeLlama-7b_vllm_temp_0.8"),
                         ("gpt-4_openai_temp_0.8/eval_results.json", "gpt-4_openai_temp_0.8"),
                         ("starcoder_hf_temp_0.2.eval_results.json", "starcoder_hf_temp_0.2"),
                         ("old_vllm_temp_0.2_eval_results.json", "old_vllm_temp_0.2")):
        path = root / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(doc)
        paths[model] = path
        assert read_counts(path).models == [model], where
    both = read_counts([paths["codellama--CodeLlama-7b_vllm_temp_0.8"], paths["gpt-4_openai_temp_0.8"]])
    assert both.models == ["codellama--CodeLlama-7b_vllm_temp_0.8", "gpt-4_openai_temp_0.8"]
    # the fixed name given without a directory has no other name
    monkeypatch.chdir(root / "gpt-4_openai_temp_0.8")
    assert read_counts("eval_results.json").models == ["eval_results"]
    # forced format: the same name
    assert read_counts(paths["gpt-4_openai_temp_0.8"], format="evalplus").models == ["gpt-4_openai_temp_0.8"]


def test_lm_eval_samples_one_model_per_filter():
    got = read_counts(H / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl")
    # model = output directory name; two filters -> two "models"; exact_match 1, 0 per filter
    assert as_set(got) == {
        ("pythia-70m [strict-match]", "0", 1, 1),
        ("pythia-70m [strict-match]", "1", 1, 0),
        ("pythia-70m [flexible-extract]", "0", 1, 1),
        ("pythia-70m [flexible-extract]", "1", 1, 0),
    }
    assert got.meta["reader"] == "lm_eval" and got.meta["metric"] == "exact_match"


def test_lm_eval_repeated_runs_are_samples(tmp_path):
    # three runs of the same task concatenated: doc 0 solved 2 of 3, doc 1 solved 0 of 3
    rows = []
    for run, vals in enumerate([(1.0, 0.0), (0.0, 0.0), (1.0, 0.0)]):
        for doc, v in enumerate(vals):
            rows.append(
                {
                    "doc_id": doc,
                    "doc": {},
                    "target": "x",
                    "resps": [["a"]],
                    "filtered_resps": ["a"],
                    "filter": "none",
                    "metrics": ["acc"],
                    "acc": v,
                    "run": run,
                }
            )
    p = tmp_path / "samples_arc_2024.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = read_counts(p)
    assert {(pid, n, c) for _, pid, n, c in as_set(got)} == {("0", 3, 2), ("1", 3, 0)}


def _lighteval_new(path: Path) -> Path:
    # lighteval >= 0.10 details: struct columns doc, model_response, metric
    duckdb.sql(
        f"""COPY (SELECT * FROM (VALUES
            ({{'query': 'Q1', 'id': 'q1', 'gold_index': 0}}, {{'text': ['4']}}, {{'extractive_match': 1.0}}),
            ({{'query': 'Q1', 'id': 'q1', 'gold_index': 0}}, {{'text': ['5']}}, {{'extractive_match': 0.0}}),
            ({{'query': 'Q2', 'id': 'q2', 'gold_index': 1}}, {{'text': ['x']}}, {{'extractive_match': 0.0}})
        ) t(doc, model_response, metric)) TO '{path}' (FORMAT parquet)"""
    )
    return path


def _lighteval_old(path: Path) -> Path:
    # lighteval 0.7-era details: example, predictions, gold, metrics (struct name -> value)
    duckdb.sql(
        f"""COPY (SELECT * FROM (VALUES
            ('Q1', ['4'], ['4'], {{'em': 1.0, 'qem': 1.0}}),
            ('Q2', ['7'], ['8'], {{'em': 0.0, 'qem': 0.0}}),
            ('Q2', ['8'], ['8'], {{'em': 1.0, 'qem': 1.0}})
        ) t(example, predictions, gold, metrics)) TO '{path}' (FORMAT parquet)"""
    )
    return path


def test_lighteval_details_new_and_old(tmp_path):
    d = tmp_path / "details" / "org__model" / "2024-01-01T00-00-00"
    d.mkdir(parents=True)
    got = read_counts(_lighteval_new(d / "details_lighteval|gsm8k|0_2024-01-01T00-00-00.parquet"))
    # q1: 1.0, 0.0 -> 1 of 2; q2: 0.0 -> 0 of 1; model = the details/<model> directory
    assert as_set(got) == {("org__model", "q1", 2, 1), ("org__model", "q2", 1, 0)}
    assert got.meta["reader"] == "lighteval" and got.meta["metric"] == "extractive_match"
    old = read_counts(_lighteval_old(tmp_path / "details_old.parquet"))
    # problem ids are md5 of the example text: Q1 1 of 1, Q2 1 of 2
    assert sorted((n, c) for _, _, n, c in as_set(old)) == [(1, 1), (2, 1)]


def test_lighteval_model_keeps_the_org_of_a_hub_name(tmp_path):
    # lighteval writes <out>/details/<model_name>/<timestamp>/details_*.parquet with the model's name as given, so a
    # hub name org/model is two directories (lighteval's "Saving results" docs); the reader kept only the last, and
    # one model name under two orgs read as one model
    for org in ("meta-llama", "my-lab"):
        d = tmp_path / "out" / "details" / org / "Llama-3.1-8B" / "2024-01-01T00-00-00"
        d.mkdir(parents=True)
        _lighteval_new(d / "details_lighteval|gsm8k|0_2024-01-01T00-00-00.parquet")
    files = sorted(tmp_path.glob("out/details/*/*/*/details_*.parquet"))
    got = read_counts(files)
    assert list(got.models) == ["meta-llama/Llama-3.1-8B", "my-lab/Llama-3.1-8B"]
    # a details/<model>/<timestamp> layout keeps its one directory; no details directory: the timestamp's parent
    one = tmp_path / "x" / "details" / "solo" / "ts"
    one.mkdir(parents=True)
    assert list(read_counts(_lighteval_new(one / "details_t.parquet")).models) == ["solo"]
    bare = tmp_path / "runs" / "m" / "ts"
    bare.mkdir(parents=True)
    assert list(read_counts(_lighteval_new(bare / "details_t.parquet")).models) == ["m"]


def test_inspect_json_log():
    got = read_counts(H / "inspect_log.json")
    # id 1: C, I, C -> 2 of 3; id "two": C, I, N -> 1 of 3; model from eval.model; epochs are attempts
    assert as_set(got) == {("openai/gpt-4o-mini", "1", 3, 2), ("openai/gpt-4o-mini", "two", 3, 1)}
    assert got.meta["columns"]["attempt"] == "epoch"


def _eval_zip(tmp_path: Path, with_summaries: bool) -> Path:
    log = json.loads((H / "inspect_log.json").read_text())
    samples = log.pop("samples")
    p = tmp_path / ("complete.eval" if with_summaries else "partial.eval")
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("header.json", json.dumps(log))
        if with_summaries:
            summaries = [{k: s[k] for k in ("id", "epoch", "input", "target", "scores")} for s in samples]
            zf.writestr("summaries.json", json.dumps(summaries))
        for s in samples:
            zf.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
    return p


@pytest.mark.parametrize("with_summaries", [True, False])
def test_inspect_eval_zip(tmp_path, with_summaries):
    got = read_counts(_eval_zip(tmp_path, with_summaries))
    assert as_set(got) == {("openai/gpt-4o-mini", "1", 3, 2), ("openai/gpt-4o-mini", "two", 3, 1)}
    assert got.meta["reader"] == "inspect"


def test_inspect_run_that_did_not_finish_is_said(tmp_path):
    # a cancelled run (Ctrl-C) or a killed one (only the journal's start in the .eval) holds the samples done before
    # it stopped: the problems it never reached dropped out of the mean without a word. The same counts, and a
    # DroppedProblemsWarning naming the file and its status; a finished log warns nothing.
    import warnings

    from passcurve import DroppedProblemsWarning

    want = {("openai/gpt-4o-mini", "1", 3, 2), ("openai/gpt-4o-mini", "two", 3, 1)}
    log = json.loads((H / "inspect_log.json").read_text())
    cancelled = tmp_path / "cancelled.json"
    cancelled.write_text(json.dumps(log | {"status": "cancelled"}))
    samples = log.pop("samples")
    killed = tmp_path / "killed.eval"
    with zipfile.ZipFile(killed, "w") as zf:
        zf.writestr("_journal/start.json", json.dumps({"version": 2, "eval": log["eval"], "plan": log.get("plan")}))
        for s in samples:
            zf.writestr(f"samples/{s['id']}_epoch_{s['epoch']}.json", json.dumps(s))
    for path, status in ((cancelled, "cancelled"), (killed, "started")):
        with pytest.warns(DroppedProblemsWarning, match=rf"^{path.name}: the inspect run did not finish \(status "
                                                        rf"'{status}', not 'success'\): .*\(`inspect eval-retry "
                                                        rf"{path.name}`"):
            got = read_counts(path)
        assert as_set(got) == want
    with warnings.catch_warnings():
        warnings.simplefilter("error", DroppedProblemsWarning)
        assert as_set(read_counts(H / "inspect_log.json")) == want
        assert as_set(read_counts(_eval_zip(tmp_path, True))) == want


def test_inspect_partial_credit_needs_threshold(tmp_path):
    log = json.loads((H / "inspect_log.json").read_text())
    log["samples"][0]["scores"]["match"]["value"] = "P"
    p = tmp_path / "partial.json"
    p.write_text(json.dumps(log))
    with pytest.raises(PasscurveError, match="column .match. holds a value that is not boolean.*match=0.5"):
        read_counts(p)
    # with threshold 0.5 partial credit counts: id 1 -> P, I, C -> 2 of 3
    assert ("openai/gpt-4o-mini", "1", 3, 2) in as_set(read_counts(p, threshold=0.5))


def test_tau_bench_results():
    got = read_counts(H / "tau_results.json")
    # reward >= 1 - 1e-6 succeeds: task 0 -> 1, 0, 1 = 2 of 3; task 1 -> 0, 0, 0.9999999 = 1 of 3
    assert as_set(got) == {("tau_results", "0", 3, 2), ("tau_results", "1", 3, 1)}
    assert got.meta["threshold"] == pytest.approx(1 - 1e-6)


def test_rollout_log_with_task_id_reward_trial_is_not_tau_bench(tmp_path):
    # an RL rollout log (no traj/info): partial rewards must not silently become failures
    rows = [{"model": "policy-v2", "task_id": f"t{i // 3}", "trial": i % 3, "reward": r}
            for i, r in enumerate([1.0, 0.8, 0.0, 0.5, 1.0, 0.95, 1.0, 0.0, 0.7])]
    p = tmp_path / "rollouts.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(PasscurveError, match=r"not boolean.*threshold"):
        read_counts(p)
    # with the threshold given the counts are what it says
    assert as_set(read_counts(p, threshold=0.5)) == {("policy-v2", "t0", 3, 2), ("policy-v2", "t1", 3, 3),
                                                      ("policy-v2", "t2", 3, 2)}


def test_tau_bench_rows_in_jsonl_with_the_format_forced(tmp_path):
    # format="tau_bench" sent every file that starts with "{" to the tau2 reader (one JSON document with
    # "simulations"), so tau-bench's own rows as JSONL, which the unforced read takes, were refused: "is not a
    # tau_bench log (expected a JSON object with a "simulations" array, or rows with task_id, reward and trial)".
    # Hand count: task 1, trials 0 and 1, rewards 1.0 and 0.0 -> n = 2, c = 1
    p = tmp_path / "tau.jsonl"
    p.write_text('{"task_id": 1, "reward": 1.0, "trial": 0}\n{"task_id": 1, "reward": 0.0, "trial": 1}\n')
    got = read_counts(p, format="tau_bench")
    assert got.meta["reader"] == "tau_bench" and as_set(got) == {("tau", "1", 2, 1)}


def test_tau2_bench_results():
    got = read_counts(H / "tau2_results.json")
    # t1: 1, 1 -> 2 of 2; t2: 0, 1 -> 1 of 2; model from info.agent_info.llm
    assert as_set(got) == {("gpt-4.1", "t1", 2, 2), ("gpt-4.1", "t2", 2, 1)}


def test_format_override_and_wrong_format():
    # forcing the right format works the same as detection
    got = read_counts(H / "tau_results.json", format="tau-bench")
    assert len(got) == 2
    # forcing the wrong one names the format and lists the columns found
    with pytest.raises(InputFormatError, match=r"is not a lm_eval log .*columns found: task_id, completion"):
        read_counts(H / "samples.jsonl_results.jsonl", format="lm_eval")
    with pytest.raises(InputFormatError, match=r"is not a lighteval log"):
        read_counts(H / "tau_results.json", format="lighteval")


def test_unrecognised_jsonl_lists_formats_tried(tmp_path):
    p = tmp_path / "odd.jsonl"
    p.write_text('{"foo": 1, "bar": 2}\n')
    with pytest.raises(
        PasscurveError,
        match=r"columns found: foo, bar \(formats tried: jsonl, humaneval, lm_eval, lighteval, tau_bench",
    ):
        read_counts(p)


def test_not_an_eval_zip(tmp_path):
    p = tmp_path / "x.eval"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(InputFormatError, match="not an inspect .eval log"):
        read_counts(p)


def test_cli_reads_harness_log_with_format_flag(capfd):
    from passcurve.cli._app import run

    code = run(["curve", str(H / "inspect_log.json"), "--format", "inspect", "--k", "1,3", "--json"])
    captured = capfd.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    # mean over problems of pass@1 = (2/3 + 1/3) / 2 = 0.5; pass@3 = 1 for both
    curve = {p["k"]: p["pass_at_k"] for p in data["models"][0]["curve"]}
    assert curve[1] == pytest.approx(0.5) and curve[3] == pytest.approx(1.0)


def test_content_wins_over_a_wrong_extension(tmp_path):
    # a Parquet file saved as .csv is read as Parquet (the content decides when the extension fails)
    p = tmp_path / "mislabelled.csv"
    duckdb.sql(f"COPY (SELECT 'a' AS problem_id, true AS correct) TO '{p}' (FORMAT parquet)")
    got = read_counts(p)
    assert got.meta["reader"] == "parquet" and int(got.c[0]) == 1


@pytest.mark.parametrize(
    ("fmt", "expect"),
    [("inspect", r"is not an inspect_ai log \(expected a \.eval zip, or a \.json eval log"),
     ("tau_bench", r"is not a tau_bench log \(expected a JSON object with a \"simulations\" array")],
)
def test_forcing_a_json_document_format_on_other_json_names_the_format(tmp_path, fmt, expect):
    # a JSON object without the format's array used to read as zero rows ("no data rows")
    p = tmp_path / "odd.json"
    p.write_text('{"foo": 1, "bar": 2}\n')
    with pytest.raises(InputFormatError, match=expect):
        read_counts(p, format=fmt)
    q = tmp_path / "two.jsonl"  # JSON lines are not one JSON document
    q.write_text('{"a": 1}\n{"b": 2}\n')
    with pytest.raises(InputFormatError, match=expect):
        read_counts(q, format=fmt)


def _dict_scores(tmp_path, second_dict=False):
    """An inspect .json log whose scorer answer_quality gives two scores per sample (a dict value, as inspect's
    multi-score scorers write it), beside a plain scorer ``match``; with ``second_dict`` a third scorer ``judge``
    also gives a ``correct`` score. Problem a: correct in epochs 1, 2 of 3; b: epoch 3; c: none. concise: every
    sample but (c, 1). match: C on a only."""
    samples = []
    for pid in ("a", "b", "c"):
        for e in (1, 2, 3):
            scores = {
                "answer_quality": {"value": {"correct": int((pid, e) in {("a", 1), ("a", 2), ("b", 3)}),
                                             "concise": int((pid, e) != ("c", 1))}, "answer": f"{pid}{e}"},
                "match": {"value": "C" if pid == "a" else "I"},
            }
            if second_dict:
                scores["judge"] = {"value": {"correct": 1}}
            samples.append({"id": pid, "epoch": e, "scores": scores})
    p = tmp_path / "multi.json"
    p.write_text(json.dumps({"version": 2, "status": "success", "eval": {"model": "m"}, "samples": samples}))
    return p


def test_inspect_dict_score_needs_a_key_named_in_one_line(tmp_path):
    # a multi-score scorer's value is a dict: no single verdict to read, so the message lists its keys
    p = _dict_scores(tmp_path)
    with pytest.raises(InputFormatError, match=r"multi.json: scorer 'answer_quality' gives several scores per sample "
                                               r"\(correct, concise\), not one verdict: choose one with `correct_col`, "
                                               r"e.g. 'correct'; scorers in this log: answer_quality \(several scores: "
                                               r"answer_quality/correct, answer_quality/concise\), match$") as info:
        read_counts(p)
    assert "\n" not in str(info.value)
    with pytest.raises(InputFormatError, match=r"scorer 'answer_quality' \(given as `correct_col`\) gives several "
                                               r"scores per sample \(correct, concise\): name one, e\.g\. "
                                               r"'answer_quality/correct'$"):
        read_counts(p, correct_col="answer_quality")
    with pytest.raises(InputFormatError, match=r"no inspect scorer 'exact' .*: answer_quality \(several scores"):
        read_counts(p, correct_col="exact")


@pytest.mark.parametrize("given", ["correct", "answer_quality/correct", "Answer_Quality/CORRECT", "CORRECT"])
def test_inspect_dict_score_key_is_the_verdict(tmp_path, given):
    # counts by hand from _dict_scores: a 2 of 3, b 1 of 3, c 0 of 3
    p = _dict_scores(tmp_path)
    got = read_counts(p, correct_col=given)
    assert as_set(got) == {("m", "a", 3, 2), ("m", "b", 3, 1), ("m", "c", 3, 0)}
    assert got.meta["metric"] == "answer_quality/correct"
    assert as_set(read_counts(p, correct_col="concise")) == {("m", "a", 3, 3), ("m", "b", 3, 3), ("m", "c", 3, 2)}
    assert as_set(read_counts(p, correct_col="match")) == {("m", "a", 3, 3), ("m", "b", 3, 0), ("m", "c", 3, 0)}


def test_inspect_dict_score_key_of_two_scorers_must_be_qualified(tmp_path):
    p = _dict_scores(tmp_path, second_dict=True)
    with pytest.raises(InputFormatError, match=r"'correct' \(given as `correct_col`\) is a score of several scorers: "
                                               r"name one of answer_quality/correct, judge/correct$"):
        read_counts(p, correct_col="correct")
    assert as_set(read_counts(p, correct_col="judge/correct")) == {("m", x, 3, 3) for x in "abc"}


def test_inspect_dict_score_key_in_the_voting_reader(tmp_path):
    # read_answers takes the verdicts from the same key: under 'correct' problem a's answers a1 and a2 are judged
    # correct (so merged, with a warning), under 'concise' every answer but c1 is
    from passcurve import MergedAnswersWarning
    from passcurve.data import read_answers

    p = _dict_scores(tmp_path)
    with pytest.warns(MergedAnswersWarning, match=r"1 problem\(s\) have several answers judged correct \(e\.g\. "
                                                  r"problem 'a': 'a1', 'a2'\)"):
        assert read_answers(p, correct_col="correct").meta["gold_from"] == "verdicts"
    with pytest.warns(MergedAnswersWarning, match=r"3 problem\(s\) have several answers judged correct"):
        read_answers(p, correct_col="answer_quality/concise")


@pytest.mark.parametrize("value", ["NaN", "null"])
def test_inspect_unscored_sample_is_named_with_its_explanation(tmp_path, value):
    # inspect's Score.unscored() (value NaN; null from a writer without NaN): the scorer gave no verdict. It read as
    # "correctness column 'match' has a missing value (null/NaN), e.g. row {...}"
    log = json.loads((H / "inspect_log.json").read_text())
    log["samples"][1]["scores"]["match"] = {"value": "__V__", "explanation": "grader\n  gave no reading"}
    p = tmp_path / "unscored.json"
    p.write_text(json.dumps(log).replace('"__V__"', value))
    s1 = log["samples"][1]
    with pytest.raises(InputFormatError, match=(
            rf"unscored\.json: 1 of {len(log['samples'])} samples are unscored by 'match' \(value NaN or null: "
            rf"inspect's Score\.unscored\(\), no verdict\), e\.g\. sample '{s1['id']}' epoch {s1['epoch']} at "
            r"samples\[1\] \(grader gave no reading\); dropping them .* re-score them \(`inspect score "
            r"unscored\.json`\)")) as info:
        read_counts(p)
    assert "\n" not in str(info.value)


def test_inspect_text_score_must_be_spelled_as_a_number(tmp_path):
    # an inspect score value '1_0' was TRY_CAST to 10, correct under any threshold; it is no number (data._columns
    # .NUMBER), while ' 0.75 ' and '1e0' are
    log = json.loads((H / "inspect_log.json").read_text())
    log["samples"][0]["scores"]["match"]["value"] = "1_0"
    p = tmp_path / "odd.json"
    p.write_text(json.dumps(log))
    # read as no verdict (NULL), it was "correctness column 'match' has a missing value (null/NaN)", of a value the
    # log has: now named as written, with its sample and where it is (the 1st sample); so are a word and a list
    for written, shown in (("1_0", '"1_0"'), ("maybe", '"maybe"'), ([1], "[1]")):
        log["samples"][0]["scores"]["match"]["value"] = written
        p.write_text(json.dumps(log))
        with pytest.raises(PasscurveError, match=rf"^odd\.json: 1 of 6 samples have a score 'match' that is no verdict, "
                                                 rf"e\.g\. sample '1' epoch 1 at samples\[0\]: {re.escape(shown)} \(a "
                                                 r"verdict is C, I, P or N, a number, or true/false\)$"):
            read_counts(p, threshold=0.5)
    log["samples"][0]["scores"]["match"]["value"] = " 0.75 "
    p.write_text(json.dumps(log))
    # id 1's three epochs score 0.75, I, C: two of three reach 0.5 (as with "P" in the test above)
    assert ("openai/gpt-4o-mini", "1", 3, 2) in as_set(read_counts(p, threshold=0.5))


def test_tau2_text_reward_must_be_spelled_as_a_number(tmp_path):
    # a reward "1_0" was TRY_CAST to 10, a success; it is no number (data._columns.NUMBER). It was then read as a
    # missing reward ("has a missing value (null/NaN), e.g. row {..., reward=None}"), as was "high": the reward is
    # now handed on as written, as a JSONL log's is, and named as it is. A bare NaN is still missing (as null).
    # The task id is handed on as written too (JSON, so that a list is refused: nested_value), quoted as tau-bench's
    # JSON columns are
    log = json.loads((H / "tau2_results.json").read_text())
    p = tmp_path / "tau2.json"
    for written in ("1_0", "high"):
        log["simulations"][0]["reward_info"]["reward"] = written
        p.write_text(json.dumps(log))
        with pytest.raises(PasscurveError, match=r"correctness column 'reward' holds a value that is not boolean .*, "
                                                 rf"e\.g\. row \{{task_id='\"t1\"', trial=0, reward='\"{written}\"', "
                                                 r"model='gpt-4\.1'\} at simulations\[0\]$"):
            read_counts(p)
    p.write_text(json.dumps(log).replace('"high"', "NaN"))
    with pytest.raises(PasscurveError, match=r"correctness column 'reward' has a missing value \(null/NaN\), e\.g\. "
                                             r"row \{task_id='\"t1\"', trial=0, reward=None"):
        read_counts(p)


# ---------------------------------------------------------------------- choosing the verdict: --correct-col
def _lm_eval_rows(tmp_path: Path, name: str, rows: list[dict], model: str = "org__m") -> Path:
    d = tmp_path / model
    d.mkdir(exist_ok=True)
    p = d / name
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


def _hellaswag(tmp_path: Path) -> Path:
    # lm-eval hellaswag/ARC rows carry two per-sample metrics, acc and acc_norm (the headline metric), both 0/1
    vals = [(0.0, 1.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0)]
    rows = [{"doc_id": d, "doc": {}, "target": 1, "arguments": {}, "resps": [[["-1.0", "False"]]],
             "filtered_resps": [["-1.0", "False"]], "filter": "none", "metrics": ["acc", "acc_norm"],
             "acc": a, "acc_norm": n} for d, (a, n) in enumerate(vals)]
    return _lm_eval_rows(tmp_path, "samples_hellaswag_2024-06-01T00-00-00.jsonl", rows)


def test_lm_eval_correct_col_picks_the_metric(tmp_path):
    # `correct_col` named no column of the adapter's rows ("no column 'acc_norm'; columns found: model, problem_id,
    # correct, answer"): the adapter now reads the metric named, by its field name
    p = _hellaswag(tmp_path)
    # hand counts of _hellaswag: acc 0, 1, 0, 1 (the log's first metric, the default); acc_norm 1, 1, 1, 0
    assert {(pid, c) for _, pid, _, c in as_set(read_counts(p))} == {("0", 0), ("1", 1), ("2", 0), ("3", 1)}
    got = read_counts(p, correct_col="acc_norm")
    assert {(pid, c) for _, pid, _, c in as_set(got)} == {("0", 1), ("1", 1), ("2", 1), ("3", 0)}
    assert got.meta["reader"] == "lm_eval" and got.meta["metric"] == "acc_norm"
    assert got.meta["columns"]["correct"] == "acc_norm"
    assert read_counts(p, correct_col="ACC_NORM").meta["metric"] == "acc_norm"  # case-insensitive, as columns are


def test_lm_eval_correct_col_keeps_one_model_per_filter():
    log = H / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl"
    # naming the metric changes nothing else: one model per filter, as test_lm_eval_samples_one_model_per_filter
    assert as_set(read_counts(log, correct_col="exact_match")) == as_set(read_counts(log))


def test_lm_eval_unknown_metric_lists_the_metrics_of_the_log(tmp_path):
    with pytest.raises(InputFormatError, match=r"no lm_eval metric 'acc_nrom' \(given as `correct_col`\); "
                                               r"lm_eval metrics in this log: acc, acc_norm$"):
        read_counts(_hellaswag(tmp_path), correct_col="acc_nrom")


def _wikitext(tmp_path: Path, extra: dict | None = None) -> Path:
    # lm-eval's wikitext: each perplexity metric is a (loglikelihood, weight) pair aggregated over the corpus
    rows = [{"doc_id": d, "doc": {"page": "x"}, "target": "", "arguments": {}, "resps": [[-100.0]],
             "filtered_resps": [-100.0], "filter": "none",
             "metrics": ["word_perplexity", "byte_perplexity", *(extra or {})],
             "word_perplexity": [-100.0, 50], "byte_perplexity": [-100.0, 300], **(extra or {})} for d in range(3)]
    return _lm_eval_rows(tmp_path, "samples_wikitext_2024-06-01T00-00-00.jsonl", rows)


def test_lm_eval_corpus_metric_is_named_as_no_verdict(tmp_path):
    # was "correctness column 'correct' has type DOUBLE[]": an internal name, and no word of why
    with pytest.raises(InputFormatError, match=r"lm_eval metrics word_perplexity, byte_perplexity are not per-sample "
                                               r"verdicts: each value is a list \(e\.g\. \[-100\.0, 50\.0\]\)"):
        read_counts(_wikitext(tmp_path))
    p = _wikitext(tmp_path, {"acc": 1.0})
    with pytest.raises(InputFormatError, match=r"metric byte_perplexity is not a per-sample verdict.*"
                                               r"per-sample metrics in this log: acc$"):
        read_counts(p, correct_col="byte_perplexity")
    # by default the per-sample metric is read, though the log lists the perplexities first: 3 docs, acc 1.0 each
    assert {(n, c) for _, _, n, c in as_set(read_counts(p))} == {(1, 1)}


def test_lm_eval_score_metric_needs_a_threshold_named_by_its_field(tmp_path):
    rows = [{"doc_id": d, "doc": {}, "target": "x", "arguments": {}, "resps": [["a"]], "filtered_resps": ["a"],
             "filter": "none", "metrics": ["exact_match", "f1"], "exact_match": em, "f1": f1}
            for d, (em, f1) in enumerate([(1, 1.0), (0, 0.5), (0, 0.8)])]
    p = _lm_eval_rows(tmp_path, "samples_squad_2024.jsonl", rows)
    with pytest.raises(PasscurveError, match=r"correctness column 'f1' holds a value that is not boolean.*f1=0\.5.*"
                                             r"pass `threshold`"):
        read_counts(p, correct_col="f1")
    # f1 1.0, 0.5, 0.8 against 0.75: docs 0 and 2 pass (hand count)
    got = read_counts(p, correct_col="f1", threshold=0.75)
    assert {(pid, c) for _, pid, _, c in as_set(got)} == {("0", 1), ("1", 0), ("2", 1)}


@pytest.mark.parametrize("fmt", ["jsonl", "json"])
def test_lm_eval_log_forced_to_generic_rows_with_filters_is_refused(fmt):
    # `--format jsonl --correct-col exact_match` counted each document's strict-match and flexible-extract rows as two
    # samples of one problem (the reviewer's gsm8k log: 0.7000, for 0.6 strict and 0.8 flexible)
    log = H / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl"
    with pytest.raises(InputFormatError, match=r"is an lm_eval samples log with 2 filters \(flexible-extract, "
                                               r"strict-match\) read as jsonl: .*format=lm_eval .*model_col=filter"):
        read_counts(log, format=fmt, correct_col="exact_match")
    # the filter as the model: the same counts as the lm_eval reader's, whose model names add the directory
    got = read_counts(log, format=fmt, correct_col="exact_match", model_col="filter")
    want = {(m.split(" [")[1].rstrip("]"), pid, n, c) for m, pid, n, c in as_set(read_counts(log))}
    assert as_set(got) == want


def _two_scorers(tmp_path: Path, errored: dict | None = None) -> Path:
    log = json.loads((H / "inspect_log.json").read_text())
    # a second scorer, includes: C on every sample but id "two" epoch 3
    for s in log["samples"]:
        s["scores"]["includes"] = {"value": "I" if (s["id"], s["epoch"]) == ("two", 3) else "C", "answer": "x"}
    if errored is not None:  # the first and the last sample errored: inspect records the error and no scores
        for s in (log["samples"][0], log["samples"][-1]):
            s.pop("scores")
            s.update(errored)
    p = tmp_path / "two_scorers.json"
    p.write_text(json.dumps(log))
    return p


def test_inspect_correct_col_picks_the_scorer(tmp_path):
    # only the first scorer could be read ("no column 'includes'; columns found: model, problem_id, epoch, score, ...")
    p = _two_scorers(tmp_path)
    # match, the first scorer, by default: as test_inspect_json_log
    assert as_set(read_counts(p)) == {("openai/gpt-4o-mini", "1", 3, 2), ("openai/gpt-4o-mini", "two", 3, 1)}
    got = read_counts(p, correct_col="includes")
    # includes (hand-set in _two_scorers): id 1 C, C, C -> 3 of 3; id "two" C, C, I -> 2 of 3
    assert as_set(got) == {("openai/gpt-4o-mini", "1", 3, 3), ("openai/gpt-4o-mini", "two", 3, 2)}
    assert got.meta["metric"] == "includes" and got.meta["columns"]["correct"] == "includes"
    with pytest.raises(InputFormatError, match=r"no inspect scorer 'exact' \(given as `correct_col`\); "
                                               r"inspect scorers in this log: match, includes$"):
        read_counts(p, correct_col="exact")


@pytest.mark.parametrize("zipped", [False, True])
def test_inspect_errored_sample_is_named_with_its_error(tmp_path, zipped):
    # one errored sample made the log unreadable with "correctness column 'score' has a missing value (null/NaN),
    # e.g. row {... epoch=1, score=None, answer=None, scorer=None}": internal names, no word of the error
    p = _two_scorers(tmp_path, {"error": {"message": "RuntimeError: API timeout", "traceback": "..."}})
    if zipped:  # an .eval zip: a sample summary's error is the message itself (inspect's EvalSampleSummary.error)
        log = json.loads(p.read_text())
        samples = log.pop("samples")
        p = tmp_path / "err.eval"
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("header.json", json.dumps(log))
            zf.writestr("summaries.json", json.dumps(
                [{k: s[k] for k in ("id", "epoch", "scores") if k in s}
                 | ({"error": s["error"]["message"]} if "error" in s else {}) for s in samples]))
    for scorer in (None, "includes"):
        with pytest.raises(InputFormatError) as info:
            read_counts(p, correct_col=scorer)
        msg = str(info.value)
        # the log's first errored sample is named (DuckDB's lateral json_each yields an array in reverse), and where
        # it is: the first of the samples (of the .eval's summaries)
        at = "summaries.json[0]" if zipped else "samples[0]"
        assert msg.startswith(f"{p.name}: 2 of 6 samples errored in inspect and have no score, e.g. sample '1' "
                              f"epoch 1 at {at}: RuntimeError: API timeout;")
        assert f"`inspect eval-retry {p.name}`" in msg and "\n" not in msg and "score=None" not in msg


def test_inspect_unscored_sample_says_score_the_log(tmp_path):
    p = _two_scorers(tmp_path, {})  # no scores and no error: a log run with --no-score
    with pytest.raises(InputFormatError, match=r"2 of 6 samples have no scores, e.g. sample '1' epoch 1 .*"
                                               r"`inspect score two_scorers.json`"):
        read_counts(p)


def test_lighteval_correct_col_picks_the_metric(tmp_path):
    # lighteval details hold every metric of a sample in one struct; only its first field could be read
    p = tmp_path / "details_lighteval|gsm8k|0_2024.parquet"
    duckdb.sql(
        f"""COPY (SELECT * FROM (VALUES
            ({{'query': 'Q1', 'id': 'q1'}}, {{'text': ['4']}}, {{'em': 0.0, 'qem': 1.0}}),
            ({{'query': 'Q2', 'id': 'q2'}}, {{'text': ['5']}}, {{'em': 0.0, 'qem': 0.0}})
        ) t(doc, model_response, metric)) TO '{p}' (FORMAT parquet)"""
    )
    # em 0, 0 (the first field, the default); qem 1, 0 (the rows above)
    assert {(pid, c) for _, pid, _, c in as_set(read_counts(p))} == {("q1", 0), ("q2", 0)}
    got = read_counts(p, correct_col="qem")
    assert {(pid, c) for _, pid, _, c in as_set(got)} == {("q1", 1), ("q2", 0)} and got.meta["metric"] == "qem"
    with pytest.raises(InputFormatError, match=r"no lighteval metric 'acc' .*lighteval metrics in this log: em, qem$"):
        read_counts(p, correct_col="acc")


def _big_log(tmp_path: Path, kind: str, n: int = 3000) -> Path:
    """A log of ``n`` samples, about 1 KB each; sample i is correct unless i % 3 == 0."""
    pad = "x" * 1000
    ok = [i % 3 != 0 for i in range(n)]
    if kind == "inspect":
        doc: object = {"version": 2, "status": "success", "eval": {"model": "m"}, "samples": [
            {"id": f"q{i // 4}", "epoch": i % 4 + 1, "input": pad, "scores": {"match": {"value": "C" if c else "I"}}}
            for i, c in enumerate(ok)]}
    elif kind == "tau2":
        doc = {"info": {"agent_info": {"llm": "m"}}, "simulations": [
            {"task_id": str(i // 4), "trial": i % 4, "reward_info": {"reward": 1.0 if c else 0.0}, "messages": pad}
            for i, c in enumerate(ok)]}
    else:  # evalplus
        doc = {"date": "2024-06-01 10:00", "hash": "x", "eval": {
            f"T/{t}": [{"base_status": "pass" if ok[4 * t + j] else "fail", "plus_status": "pass", "solution": pad}
                       for j in range(4)] for t in range(n // 4)}}
    p = tmp_path / ("eval_results.json" if kind == "evalplus" else f"{kind}.json")
    p.write_text(json.dumps(doc))
    return p


@pytest.mark.parametrize("kind", ["inspect", "tau2", "evalplus"])
def test_a_json_log_is_read_without_copying_the_document_per_sample(tmp_path, monkeypatch, kind):
    # the readers joined json_each laterally, which copies the whole document into every row: a 17 MB inspect log of
    # 20,000 samples ran out of memory (18.8 GiB). Here a 3 MB log of 3,000 samples under a 256 MB limit (the old
    # join needed about 3 MB x 3,000)
    from passcurve.data import _source

    connect = _source.connect

    def limited():
        con = connect()
        con.execute("SET memory_limit = '256MB'")
        return con

    monkeypatch.setattr(_source, "connect", limited)
    got = read_counts(_big_log(tmp_path, kind))
    # 3,000 samples, 4 per problem; correct unless the sample's index is a multiple of 3: 2,000 (by construction)
    assert int(got.n.sum()) == 3000 and int(got.c.sum()) == 2000 and set(got.n.tolist()) == {4}


def test_lm_eval_aggregated_results_and_other_json_objects_are_named(tmp_path):
    # lm-eval writes results_<date>.json (indent=2) beside the samples logs; `out/*/*` picks it up. It read "cannot
    # read ... as jsonl: Malformed JSON ... at byte 2 in line 2: unexpected end of data. Try auto-detecting the JSON
    # format" (pretty-printed) or "no problem-id column" (one line)
    res = {"results": {"gsm8k": {"alias": "gsm8k", "exact_match,strict-match": 0.5}}, "group_subtasks": {"gsm8k": []},
           "configs": {"gsm8k": {"task": "gsm8k"}}, "versions": {"gsm8k": 3.0}, "n-shot": {"gsm8k": 5},
           "config": {"model": "hf"}, "date": 1720000000.0}
    for indent in (2, None):
        p = tmp_path / f"results_{indent}.json"
        p.write_text(json.dumps(res, indent=indent))
        with pytest.raises(InputFormatError, match=rf"^results_{indent}.json is lm-evaluation-harness's aggregated "
                                                   r"results .* --log_samples and read the samples_<task>_<date>.jsonl"):
            read_counts(p)
    other = tmp_path / "summary.json"
    other.write_text(json.dumps({"accuracy": 0.5, "model": "m"}, indent=2))
    with pytest.raises(InputFormatError, match=r"^summary.json is one JSON object \(keys accuracy, model\) that fits "
                                               r"no layout: expected an inspect log"):
        read_counts(other)
    one = tmp_path / "one.json"  # one record on one line is still read as a one-row table
    one.write_text(json.dumps({"problem_id": "a", "correct": True}))
    assert as_set(read_counts(one)) == {("one", "a", 1, 1)}


# A bare NaN id (unquoted: Python's json.dumps writes float('nan') so) is a missing id in every harness reader, as
# in the generic JSONL reader (test_data_errors.test_jsonl_bare_nan_id_is_missing): each had read it as the problem
# 'NaN', one problem of every sample without an id (hand count: 2 samples, ids 0/'a' and NaN -> 2 problems, 1 solved)
_LM_ROW = {"doc": {}, "target": "a", "arguments": [], "resps": [["a"]], "filtered_resps": ["a"], "filter": "none",
           "metrics": ["exact_match"]}


def _bare_nan_lines(p: Path, rows: list[dict], nan_key: str) -> Path:
    """``rows`` as JSONL, the last row's ``nan_key`` written as a bare NaN."""
    rows[-1][nan_key] = float("nan")
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return p


def test_lm_eval_bare_nan_doc_id_is_missing(tmp_path):
    rows = [{**_LM_ROW, "doc_id": 0, "exact_match": 1.0}, {**_LM_ROW, "doc_id": 1, "exact_match": 0.0}]
    p = _bare_nan_lines(tmp_path / "samples_t_2024.jsonl", rows, "doc_id")
    with pytest.raises(PasscurveError, match=r"^samples_t_2024.jsonl: problem-id column 'doc_id' has a missing value, "
                                             r"e.g. row \{model='.*', doc_id='NaN', exact_match=0.0, answer='a'\} at line 2$"):
        read_counts(p)
    # the same log in a .json file (newline-delimited JSON under another extension), and forced
    j = tmp_path / "log.json"
    j.write_text(p.read_text())
    with pytest.raises(PasscurveError, match=r"^log.json: problem-id column 'doc_id' has a missing value.* at line 2$"):
        read_counts(j)
    with pytest.raises(PasscurveError, match=r"^samples_t_2024.jsonl: problem-id column 'doc_id' has a missing value"):
        read_counts(p, format="lm_eval")


def test_humaneval_bare_nan_task_id_is_missing(tmp_path):
    rows = [{"task_id": "HumanEval/0", "completion": "x", "result": "passed", "passed": True},
            {"task_id": "HumanEval/1", "completion": "y", "result": "failed", "passed": False}]
    p = _bare_nan_lines(tmp_path / "s_results.jsonl", rows, "task_id")
    for fmt in (None, "humaneval"):
        with pytest.raises(PasscurveError, match=r"^s_results.jsonl: problem-id column 'task_id' has a missing value, "
                                                 r"e.g. row \{task_id='NaN', completion='y', result='failed', "
                                                 r"passed=False\} at line 2$"):
            read_counts(p, format=fmt)
    # a JSON array of the same records: its ids, strings and a NaN, are one JSON column
    a = tmp_path / "s.json"
    a.write_text("[" + ", ".join(p.read_text().splitlines()) + "]")
    with pytest.raises(PasscurveError, match=r"^s.json: problem-id column 'task_id' has a missing value, e.g. row "
                                             r"\{task_id='NaN', completion='y'"):
        read_counts(a)


def test_tau_bench_bare_nan_task_id_is_missing(tmp_path):
    rows = [{"task_id": 1, "reward": 1.0, "trial": 0, "traj": [], "info": {}},
            {"task_id": 2, "reward": 0.0, "trial": 0, "traj": [], "info": {}}]
    p = _bare_nan_lines(tmp_path / "tau.jsonl", rows, "task_id")
    with pytest.raises(PasscurveError, match=r"^tau.jsonl: problem-id column 'task_id' has a missing value, e.g. row "
                                             r"\{task_id='NaN', reward=0.0"):
        read_counts(p)
    # tau-bench's own results file is a JSON array; ids 1 and NaN are numbers (the float NaN of a DOUBLE column)
    a = tmp_path / "tau.json"
    a.write_text("[" + ", ".join(p.read_text().splitlines()) + "]")
    with pytest.raises(PasscurveError, match=r"^tau.json: problem-id column 'task_id' has a missing value"):
        read_counts(a)


def test_tau2_bare_nan_task_id_is_missing(tmp_path):
    p = tmp_path / "tau2.json"
    p.write_text('{"simulations": [{"task_id": "t1", "trial": 0, "reward_info": {"reward": 1.0}}, '
                 '{"task_id": NaN, "trial": 0, "reward_info": {"reward": 0.0}}]}')
    with pytest.raises(PasscurveError, match=r"^tau2.json: problem-id column 'task_id' has a missing value, e.g. row "
                                             r"\{task_id=None, trial=0, reward='0.0', model='tau2'\} at "
                                             r"simulations\[1\]$"):
        read_counts(p)
    # the string "NaN" is an id (hand count: problems 'NaN' and 't1', 1 solved)
    p.write_text(p.read_text().replace("NaN", '"NaN"'))
    assert as_set(read_counts(p)) == {("tau2", "t1", 1, 1), ("tau2", "NaN", 1, 0)}


@pytest.mark.parametrize("zipped", [False, True])
def test_inspect_bare_nan_sample_id_is_missing(tmp_path, zipped):
    samples = [{"id": "a", "epoch": 1, "scores": {"s": {"value": "C"}}},
               {"id": float("nan"), "epoch": 1, "scores": {"s": {"value": "I"}}}]
    if zipped:
        p = tmp_path / "log.eval"
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("header.json", json.dumps({"eval": {"model": "m"}, "status": "success"}))
            zf.writestr("summaries.json", json.dumps(samples))
    else:
        p = tmp_path / "log.json"
        p.write_text(json.dumps({"eval": {"model": "m"}, "samples": samples}))
    with pytest.raises(PasscurveError, match=rf"^{p.name}: problem-id column 'id' has a missing value, e.g. row "
                                             r"\{model='m', id=None, epoch=1"):
        read_counts(p)


def test_lighteval_jsonl_doc_ids_of_mixed_types(tmp_path):
    # lighteval names a doc by its id, or by its query when the id is empty. In a JSONL details file whose ids mix types
    # (1 and "two", or a string and a bare NaN) DuckDB reads doc.id as JSON: the string kept its JSON quotes (problem
    # '"two"') and a bare NaN was the problem 'NaN'. Now 'two', and the NaN doc is named by its query, as an empty
    # id is (hand count: 2 docs, 1 solved)
    def write(name: str, first_id: str, second_id: str) -> Path:
        p = tmp_path / name
        p.write_text(f'{{"doc": {{"id": {first_id}, "query": "q1"}}, "metric": {{"acc": 1}}, '
                     '"model_response": {"text": "x"}}\n'
                     f'{{"doc": {{"id": {second_id}, "query": "q2"}}, "metric": {{"acc": 0}}, '
                     '"model_response": {"text": "y"}}\n')
        return p

    got = read_counts(write("mixed.jsonl", "1", '"two"'))
    assert got.meta["reader"] == "lighteval" and as_set(got) == {("mixed", "1", 1, 1), ("mixed", "two", 1, 0)}
    import hashlib

    q2 = hashlib.md5(b"q2").hexdigest()  # the reader's name for a doc without an id: md5 of its query
    assert as_set(read_counts(write("nan.jsonl", '"a"', "NaN"))) == {("nan", "a", 1, 1), ("nan", q2, 1, 0)}
    # numeric ids and a NaN: a column of floats, whose NaN is missing too
    assert ("num", q2, 1, 0) in as_set(read_counts(write("num.jsonl", "1", "NaN")))


@pytest.mark.parametrize("kind", ["inspect_json", "inspect_eval", "tau2"])
def test_bare_nan_model_name_in_a_log_is_no_name(tmp_path, kind):
    # a harness log whose model field (inspect's eval.model, tau2's info.agent_info.llm) is a bare NaN named the model
    # 'NaN'; it is now missing as a null is, and the model is the file's stem
    nan = float("nan")
    samples = [{"id": "a", "epoch": 1, "scores": {"s": {"value": "C"}}}]
    if kind == "inspect_eval":
        p = tmp_path / "run.eval"
        with zipfile.ZipFile(p, "w") as zf:
            zf.writestr("header.json", json.dumps({"eval": {"model": nan}, "status": "success"}))
            zf.writestr("summaries.json", json.dumps(samples))
    elif kind == "inspect_json":
        p = tmp_path / "run.json"
        p.write_text(json.dumps({"eval": {"model": nan}, "samples": samples}))
    else:
        p = tmp_path / "run.json"
        p.write_text(json.dumps({"info": {"agent_info": {"llm": nan}},
                                 "simulations": [{"task_id": "a", "trial": 0, "reward_info": {"reward": 1.0}}]}))
    assert as_set(read_counts(p)) == {("run", "a", 1, 1)}


# A missing id in a harness log read from JSONL is named by its line, as in a generic JSONL file (data._source.located):
# the adapters of lm_eval, human-eval and tau-bench project each line to one row. Hand count of the lines written
# below: the header-less JSONL's third data line follows a blank line, so it is line 4.
_NULL_ID_LOGS = {
    "samples_t_2024-01-01T00-00-00.jsonl": ("doc_id", [{**_LM_ROW, "doc_id": i, "exact_match": 1.0} for i in range(3)]),
    "m_results.jsonl": ("task_id", [{"task_id": f"HumanEval/{i}", "completion": "x", "result": "passed",
                                     "passed": True} for i in range(3)]),
    "tau.jsonl": ("task_id", [{"task_id": i, "reward": 1.0, "trial": 0, "traj": [], "info": {}} for i in range(3)]),
}


@pytest.mark.parametrize("name", sorted(_NULL_ID_LOGS))
def test_harness_jsonl_missing_id_names_its_line(tmp_path, name):
    col, rows = _NULL_ID_LOGS[name]
    rows[2][col] = None
    lines = [json.dumps(r) for r in rows]
    p = tmp_path / name
    p.write_text(lines[0] + "\n" + lines[1] + "\n\n" + lines[2] + "\n")
    with pytest.raises(PasscurveError, match=rf"^{name}: problem-id column '{col}' has a missing value, e\.g\. row "
                                             rf"\{{.*{col}=None.*\}} at line 4$"):
        read_counts(p)


def test_tau_bench_jsonl_duplicate_trial_names_its_lines(tmp_path):
    # task 1 trial 0 on lines 1 and 3 (hand count); the message said where only for generic files
    rows = [{"task_id": t, "reward": 1.0, "trial": 0, "traj": [], "info": {}} for t in (1, 2, 1)]
    p = tmp_path / "tau.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(PasscurveError, match=r"^tau.jsonl: duplicate \(problem, attempt\) rows: problem '1' attempt 0 "
                                             r"appears 2 times at lines 1 and 3; "):
        read_counts(p)


def test_json_array_missing_id_names_its_record(tmp_path):
    # a JSON array of records (tau-bench's own results file, human-eval's records, a generic table) is read one row
    # per record in order: the missing id is the 2nd record (hand count), as a JSONL file names its line
    tau = [{"task_id": 1, "reward": 1.0, "trial": 0, "traj": [], "info": {}},
           {"task_id": None, "reward": 0.0, "trial": 0, "traj": [], "info": {}}]
    generic = [{"problem_id": "a", "correct": True}, {"problem_id": None, "correct": False}]
    for name, rows, col in (("tau.json", tau, "task_id"), ("table.json", generic, "problem_id")):
        p = tmp_path / name
        p.write_text(json.dumps(rows))
        with pytest.raises(PasscurveError, match=rf"^{name}: problem-id column '{col}' has a missing value, e\.g\. row "
                                                 rf"\{{{col}=None.*\}} at record 2$"):
            read_counts(p)


def test_evalplus_tau2_inspect_name_the_element_of_a_bad_sample(tmp_path):
    # evalplus, tau2 and inspect rows are the elements of one JSON document: a bad one is named by its JSON path
    # (indexes from 0), as a JSONL line is by its number. Before, these said nothing of where the row was.
    ep = json.loads((H / "eval_results.json").read_text())
    ep["eval"]["HumanEval/1"][1] = "pass"  # the 2nd sample of HumanEval/1 (hand count): eval["HumanEval/1"][1]
    tau2 = json.loads((H / "tau2_results.json").read_text())
    del tau2["simulations"][2]["task_id"]  # the 3rd simulation: simulations[2]
    log = json.loads((H / "inspect_log.json").read_text())
    log["samples"][3]["id"] = None  # the 4th sample: samples[3]
    cases = (("ep.json", ep, r"correctness column 'status' has a missing value \(null/NaN\), e\.g\. row "
                             r"\{task_id='HumanEval/1', sample_idx=1, .*\} at eval\[\"HumanEval/1\"\]\[1\]$"),
             ("tau2.json", tau2, r"problem-id column 'task_id' has a missing value, e\.g\. row \{task_id=None, trial=0, "
                                 r".*\} at simulations\[2\]$"),
             ("log.json", log, r"problem-id column 'id' has a missing value, e\.g\. row \{.*id=None, epoch=1, .*\} at "
                               r"samples\[3\]$"))
    for name, doc, want in cases:
        p = tmp_path / name
        p.write_text(json.dumps(doc))
        with pytest.raises(PasscurveError, match=rf"^{name}: {want}"):
            read_counts(p)
    # two simulations of one trial: both are named (the 3rd and 4th, t2's trials 0 and 1 made 1 and 1)
    tau2 = json.loads((H / "tau2_results.json").read_text())
    tau2["simulations"][2]["trial"] = 1
    p = tmp_path / "dup.json"
    p.write_text(json.dumps(tau2))
    with pytest.raises(PasscurveError, match=r"problem 't2' \(model 'gpt-4\.1'\) attempt 1 appears 2 times at "
                                             r"simulations\[2\] and simulations\[3\];"):
        read_counts(p)


@pytest.mark.filterwarnings("ignore::passcurve.DroppedProblemsWarning")  # the journal's run did not finish
@pytest.mark.parametrize("layout", ["summaries", "samples", "journal"])
def test_inspect_eval_zip_names_the_member_of_a_bad_sample(tmp_path, layout):
    # an .eval zip's sample is named in the zip: its summaries.json's element, its own samples/ file, or a journal
    # summaries file's element. Sample 'two' epoch 2 has no epoch (hand: the 5th sample of the fixture)
    log = json.loads((H / "inspect_log.json").read_text())
    samples = log.pop("samples")
    samples[4]["epoch"] = None
    p = tmp_path / "log.eval"
    with zipfile.ZipFile(p, "w") as zf:
        if layout == "journal":  # a run still going: its summaries in files of two samples each (1.json, 2.json, ...)
            zf.writestr("_journal/start.json", json.dumps({"eval": log["eval"]}))
            for j in range(0, len(samples), 2):
                zf.writestr(f"_journal/summaries/{j // 2 + 1}.json", json.dumps(samples[j:j + 2]))
        else:
            zf.writestr("header.json", json.dumps(log))
            if layout == "summaries":
                zf.writestr("summaries.json", json.dumps(samples))
            else:
                for s in samples:
                    zf.writestr(f"samples/{s['id']}_epoch_{s['epoch'] or 'x'}.json", json.dumps(s))
    at = {"summaries": r"summaries\.json\[4\]", "samples": r"samples/two_epoch_x\.json",
          "journal": r"_journal/summaries/3\.json\[0\]"}[layout]
    with pytest.raises(PasscurveError, match=rf"^log\.eval: attempt column 'epoch' has a missing value, e\.g\. row "
                                             rf"\{{.*id='two', epoch=None, .*\}} at {at}$"):
        read_counts(p)


@pytest.mark.parametrize("task", [{"0": {"base_status": "pass"}}, "pass", None])
def test_evalplus_task_that_is_no_list_is_refused(tmp_path, task):
    # a task whose samples are not a list (an object, a string, null) was no problem at all: read_counts said
    # "1 problem" for a file of 2, and the mean was over the other. Now it is refused, naming the task
    doc = json.loads((H / "eval_results.json").read_text())
    doc["eval"]["HumanEval/1"] = task
    p = tmp_path / "eval_results.json"
    p.write_text(json.dumps(doc))
    kind = {dict: "an object", str: "a string", type(None): "null"}[type(task)]
    with pytest.raises(InputFormatError, match=rf"^eval_results\.json: evalplus task 'HumanEval/1' is {kind}, not a "
                                               r"list of samples, at eval\[\"HumanEval/1\"\]"):
        read_counts(p)
    doc["eval"] = list(doc["eval"].values())
    p.write_text(json.dumps(doc))
    with pytest.raises(InputFormatError, match=r"^eval_results\.json is not an evalplus results file: its \"eval\" is "
                                               r"a list, not an object of task ids"):
        read_counts(p, format="evalplus")


def test_tau2_trial_and_inspect_epoch_that_are_no_whole_number_are_named(tmp_path):
    # read with TRY_CAST, a trial "one" was a missing attempt ("attempt column 'trial' has a missing value, e.g. row
    # {..., trial=None}", of a value the file has) and a trial 1.5 the attempt 2; now each is named as written, with
    # where it is (the 3rd simulation, the 4th sample: hand count). A whole 1.0 is the attempt 1, NaN a missing one
    tau2 = json.loads((H / "tau2_results.json").read_text())
    p = tmp_path / "tau2.json"
    for written, shown in (("one", '"one"'), (1.5, "1.5"), ([1], "[1]")):
        tau2["simulations"][2]["trial"] = written
        p.write_text(json.dumps(tau2))
        with pytest.raises(PasscurveError, match=rf"^cannot read tau2\.json as tau_bench: trial {re.escape(shown)} at "
                                                 r"simulations\[2\] is not a whole number$"):
            read_counts(p)
    tau2["simulations"][2]["trial"] = 1.0  # t2's trials 1.0 and 1: one attempt twice
    p.write_text(json.dumps(tau2))
    with pytest.raises(PasscurveError, match=r"attempt 1 appears 2 times at simulations\[2\] and simulations\[3\]"):
        read_counts(p)
    log = json.loads((H / "inspect_log.json").read_text())
    log["samples"][3]["epoch"] = "two"
    p = tmp_path / "log.json"
    p.write_text(json.dumps(log))
    with pytest.raises(PasscurveError, match=r'^cannot read log\.json as inspect: epoch "two" at samples\[3\] is not a '
                                             r"whole number$"):
        read_counts(p)


def test_tau2_trial_and_inspect_epoch_too_large_are_named_with_the_limit(tmp_path):
    # a trial of 2^64 (18446744073709551616, which DuckDB reads as a DOUBLE) or 2^63 (a UBIGINT beyond a BIGINT) was
    # "not a whole number"; now it is too large, with the limit: 2^63 - 1 for an integer (a BIGINT, exact arithmetic),
    # 2^53 - 1 for one written with a point or an exponent (float64 integers are exact up to 2^53)
    text = (H / "tau2_results.json").read_text()
    p = tmp_path / "tau2.json"
    for written, shown, limit in (
            ("18446744073709551616", "18446744073709551616", r"is too large \(the largest trial is 2\^63 - 1 = "
                                                             r"9223372036854775807\)"),
            ("9223372036854775808", "9223372036854775808", r"is too large \(the largest trial is 2\^63 - 1 = "
                                                           r"9223372036854775807\)"),
            ("-9223372036854775809", "-9223372036854775809", r"is too small \(the smallest trial is -2\^63 = "
                                                             r"-9223372036854775808\)"),
            ("1e16", "10000000000000000.0", r"is too large to be exact \(a trial written with a point or an exponent "
                                            r"is exact up to ±\(2\^53 - 1\) = ±9007199254740991; write a larger one "
                                            r"as an integer, up to 2\^63 - 1\)"),
            ("1e400", "1e400", r"is too large to be exact \(.*\)")):
        p.write_text(text.replace('"trial": 0', f'"trial": {written}', 1))  # the 1st simulation's
        with pytest.raises(PasscurveError, match=rf"^cannot read tau2\.json as tau_bench: trial {re.escape(shown)} at "
                                                 rf"simulations\[0\] {limit}$"):
            read_counts(p)
    # the largest integer is read (the fixture's 2 problems of 2 trials each), as is 2^53 - 1 with a point
    for written in ("9223372036854775807", "9007199254740991.0"):
        p.write_text(text.replace('"trial": 0', f'"trial": {written}', 1))
        assert list(read_counts(p).n) == [2, 2]
    log = json.loads((H / "inspect_log.json").read_text())
    p = tmp_path / "log.json"
    log["samples"][3]["epoch"] = "EPOCH"
    p.write_text(json.dumps(log).replace('"EPOCH"', "18446744073709551616"))  # 2^64, which Python would write as is
    with pytest.raises(PasscurveError, match=r"^cannot read log\.json as inspect: epoch 18446744073709551616 at "
                                             r"samples\[3\] is too large \(the largest epoch is 2\^63 - 1"):
        read_counts(p)


def test_tau_bench_trial_that_is_no_whole_number_is_named(tmp_path):
    # tau-bench's results (a JSON array, or its rows as JSONL) took any trial as an attempt label: "x", true, [1],
    # {"a": 1} or 1.5 was one more trial of task 0 (3 samples), where tau2's trial and inspect's epoch refuse it
    # (_whole). Now named as written, with where it is (the 2nd record, line 2: hand count)
    rows = json.loads((H / "tau_results.json").read_text())
    for written, shown in (("x", '"x"'), (True, "true"), ([1], "[1]"), ({"a": 1}, '{"a":1}'), (1.5, "1.5"),
                           ("1.5", '"1.5"')):
        rows[1]["trial"] = written
        for name, text, at in (("tau.json", json.dumps(rows), "record 2"),
                               ("tau.jsonl", "".join(json.dumps(r) + "\n" for r in rows), "line 2")):
            p = tmp_path / name
            p.write_text(text)
            with pytest.raises(PasscurveError, match=rf"^cannot read {re.escape(name)} as tau_bench: trial "
                                                     rf"{re.escape(shown)} at {at} is not a whole number$"):
                read_counts(p)
    # a number spelled as text stays a trial, as a whole float does: the fixture's counts (test_tau_bench_results)
    for written in ("1", " 1 ", 1.0):
        rows[1]["trial"] = written
        p = tmp_path / "tau.json"
        p.write_text(json.dumps(rows))
        assert as_set(read_counts(p)) == {("tau", "0", 3, 2), ("tau", "1", 3, 1)}


def test_lm_eval_filter_that_is_no_name_is_refused(tmp_path):
    # each row's filter names its model ('pythia-70m [strict-match]'). A filter ["strict-match"] on the 3rd line was
    # one more model, and beside it every model was named with JSON quotes ('m ["strict-match"]'); a null filter
    # said "model column 'model' has a missing value" of a log that has no such column
    src = H / "pythia-70m" / "samples_gsm8k_2024-05-01T12-00-00.jsonl"
    rows = [json.loads(line) for line in src.open()]
    (tmp_path / "m").mkdir()
    p = tmp_path / "m" / src.name
    for value, what in ((["strict-match"], r'holds a list, not a filter name \(a string\), e\.g\. \["strict-match"\]'),
                        ({"name": "strict-match"}, r"holds an object, not a filter name \(a string\), e\.g\. "
                                                   r'\{"name":"strict-match"\}'),
                        (None, "has a missing value")):
        bad = [dict(r) for r in rows]
        bad[2]["filter"] = value
        p.write_text("".join(json.dumps(r) + "\n" for r in bad))
        with pytest.raises(InputFormatError, match=rf"^{re.escape(src.name)}: lm_eval filter column 'filter' {what} at "
                                                   r"line 3 \(document 1\); each row's filter names its model$"):
            read_counts(p)
    # filters of mixed types (a number beside a string) name their models as written, without quotes (hand count:
    # documents 0 and 1 under each of the two filters)
    bad = [dict(r) for r in rows]
    for r in bad:
        r["filter"] = 2 if r["filter"] == "flexible-extract" else r["filter"]
    p.write_text("".join(json.dumps(r) + "\n" for r in bad))
    assert sorted(set(read_counts(p).model)) == ["m [2]", "m [strict-match]"]


def test_evalplus_status_that_is_no_string_is_refused(tmp_path):
    # evalplus writes each status as "pass", "fail" or "timeout" (plus_status null in a base-only run). Read as text,
    # a base_status true or 1 was the word 'true' or '1': a passing sample (HumanEval/1 then 2 of 3, not 1 of 3); a
    # list was "correctness column 'status' ... not boolean", of a column the file does not have. Now the sample is
    # named: the 1st of HumanEval/1 (hand count)
    doc = json.loads((H / "eval_results.json").read_text())
    p = tmp_path / "eval_results.json"
    for field, value, shown in (("base_status", True, "true (a boolean)"), ("base_status", 1, "1 (a number)"),
                                ("plus_status", True, "true (a boolean)"), ("base_status", ["pass"], '["pass"] (a list)'),
                                ("plus_status", {"a": "pass"}, '{"a":"pass"} (an object)')):
        bad = json.loads(json.dumps(doc))
        bad["eval"]["HumanEval/1"][0][field] = value
        p.write_text(json.dumps(bad))
        with pytest.raises(InputFormatError, match=rf'^cannot read eval_results\.json as evalplus: sample eval\["HumanEval/1"\]\[0\] has '
                                                   rf'{field} {re.escape(shown)}, not a status: evalplus writes "pass", '
                                                   r'"fail" or "timeout"$'):
            read_counts(p)
    # a null plus_status (a base-only run's) is judged on base_status, as before: HumanEval/1's 1st sample fails
    # either way, so the counts are the fixture's (test_evalplus_eval_results)
    doc["eval"]["HumanEval/1"][0]["plus_status"] = None
    p.write_text(json.dumps(doc))
    assert {row[1:] for row in as_set(read_counts(p))} == {("HumanEval/0", 2, 1), ("HumanEval/1", 3, 1)}


def test_inspect_sample_or_score_that_is_no_object_is_named(tmp_path):
    # a sample written as a string read "1 of 6 samples have no scores, e.g. sample None epoch None (an unscored
    # log?)", scores written as a list the same, and a score written "C" (its value alone, not {"value": "C"})
    # "correctness column 'match' has a missing value (null/NaN)". Now each says what it is, at samples[2] (the 3rd
    # sample: hand count)
    log = json.loads((H / "inspect_log.json").read_text())
    p = tmp_path / "log.json"
    for change, message in (
            (lambda d: d["samples"].__setitem__(2, "x"),
             r"1 of 6 samples are not objects, e\.g\. samples\[2\], a string: an inspect sample is an object with its "
             r"id, epoch and scores"),
            (lambda d: d["samples"][2].__setitem__("scores", [1]),
             r"1 of 6 samples have scores that are a list, not an object of scores by scorer, e\.g\. sample '1' epoch "
             r"3 at samples\[2\]: \[1\]"),
            (lambda d: d["samples"][2]["scores"].__setitem__("match", "C"),
             r"1 of 6 samples have a score 'match' that is a string, not a score \(an object with its value\), e\.g\. "
             r"sample '1' epoch 3 at samples\[2\]: \"C\"")):
        bad = json.loads(json.dumps(log))
        change(bad)
        p.write_text(json.dumps(bad))
        with pytest.raises(InputFormatError, match=rf"^log\.json: {message}$"):
            read_counts(p)


def test_tau2_simulation_or_reward_info_that_is_no_object_is_named(tmp_path):
    # a simulation written as a string read "problem-id column 'task_id' has a missing value", and a reward_info
    # written as the bare reward 1.0 (or a list) "correctness column 'reward' has a missing value (null/NaN)", of a
    # value the log has. Now each is named, at simulations[2] (the 3rd: hand count); a missing reward_info is a
    # missing reward, as before
    log = json.loads((H / "tau2_results.json").read_text())
    p = tmp_path / "tau2.json"
    for change, message in (
            (lambda d: d["simulations"].__setitem__(2, "x"),
             r"simulations\[2\] is a string, not a simulation \(an object with its task_id, trial and reward_info\)"),
            (lambda d: d["simulations"][2].__setitem__("reward_info", 1.0),
             r"reward_info 1\.0 at simulations\[2\] is a number, not an object with the reward"),
            (lambda d: d["simulations"][2].__setitem__("reward_info", [1]),
             r"reward_info \[1\] at simulations\[2\] is a list, not an object with the reward")):
        bad = json.loads(json.dumps(log))
        change(bad)
        p.write_text(json.dumps(bad))
        with pytest.raises(PasscurveError, match=rf"^cannot read tau2\.json as tau_bench: {message}$"):
            read_counts(p)
    del log["simulations"][2]["reward_info"]
    p.write_text(json.dumps(log))
    with pytest.raises(PasscurveError, match=r"^tau2\.json: correctness column 'reward' has a missing value .* at "
                                             r"simulations\[2\]$"):
        read_counts(p)


def test_a_json_file_beginning_with_a_byte_order_mark(tmp_path):
    # a UTF-8 byte order mark (written by Windows tools) before a JSON array: "a.json: not JSON (first character
    # 'ï'); tried json, jsonl", of a file DuckDB's JSON reader reads. Hand count: a true, false -> 1 of 2
    bom = b"\xef\xbb\xbf"
    p = tmp_path / "a.json"
    p.write_bytes(bom + b'[{"problem_id": "a", "correct": true}, {"problem_id": "a", "correct": false}]')
    assert as_set(read_counts(p)) == {("a", "a", 2, 1)}
    # a harness's JSON array (tau-bench) is recognised as without the mark: the counts of test_tau_bench_results
    tau = tmp_path / "tau_results.json"
    tau.write_bytes(bom + (H / "tau_results.json").read_bytes())
    got = read_counts(tau)
    assert got.meta["reader"] == "tau_bench" and as_set(got) == as_set(read_counts(H / "tau_results.json"))
    # a JSON document (an inspect log) is read by DuckDB's JSON functions, which refuse the mark: said as such
    log = tmp_path / "log.json"
    log.write_bytes(bom + (H / "inspect_log.json").read_bytes())
    with pytest.raises(InputFormatError, match=r"^cannot read log\.json as json: not valid JSON at line 1 \(byte 0\): "
                                               r"byte order mark \(BOM\) is not supported$"):
        read_counts(log)


@pytest.mark.parametrize("layout", ["array", "lines"])
def test_json_under_an_unknown_extension_after_a_byte_order_mark(tmp_path, capfd, layout):
    # the content sniffer (for an extension passcurve does not know) looked for "{" or "[" at the first byte, so a
    # JSON array or JSON lines after a UTF-8 byte order mark were "unknown format (extension '.txt'; ...)", where the
    # same bytes without the mark, or named .json/.jsonl, read. Hand count: a true, false -> 1 of 2; b true, true,
    # false -> 2 of 3
    from passcurve.cli._app import run

    recs = [("a", True), ("a", False), ("b", True), ("b", True), ("b", False)]
    rows = [{"problem_id": pid, "correct": ok} for pid, ok in recs]
    body = json.dumps(rows) if layout == "array" else "".join(json.dumps(r) + "\n" for r in rows)
    p = tmp_path / "samples.txt"
    p.write_bytes(b"\xef\xbb\xbf" + body.encode())
    # the model is the whole name, as of the same file without the mark (".txt" is no extension passcurve strips)
    assert as_set(read_counts(p)) == {("samples.txt", "a", 2, 1), ("samples.txt", "b", 3, 2)}
    code = run(["curve", str(p), "--k", "1", "--json"])
    captured = capfd.readouterr()
    assert code == 0, captured.err
    # pass@1 = mean of c/n = (1/2 + 2/3) / 2 = 7/12
    assert json.loads(captured.out)["models"][0]["curve"][0]["pass_at_k"] == pytest.approx(7 / 12)


@pytest.mark.parametrize("verdict", ["result", "passed"])
def test_humaneval_results_with_one_verdict_field_are_human_eval(tmp_path, verdict):
    # human-eval's *_results.jsonl with only one of its two verdict fields (`result` or `passed`) is still its log:
    # the model is the samples file (the name without "_results"). Hand count: passed, failed, timed out -> 1 of 3
    results = ["passed", "failed: AssertionError", "timed out"]
    rows = [{"task_id": "HumanEval/0", "completion": f"c{i}", verdict: r if verdict == "result" else r == "passed"}
            for i, r in enumerate(results)]
    p = tmp_path / "gen_results.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = read_counts(p)
    assert got.meta["reader"] == "humaneval" and as_set(got) == {("gen", "HumanEval/0", 3, 1)}


@pytest.mark.parametrize("extra", [{"doc": "a document"}, {"metric": "em"}, {"model_response": "42"},
                                   {"metrics": ["em"]}, {"example": "2 + 2"}, {"predictions": "4"},
                                   {"info": "run 1", "trial": 0}])
def test_a_log_with_a_field_a_harness_also_writes_is_read_as_its_rows(tmp_path, extra):
    # a field one harness writes (lighteval's doc, metric, model_response, or metrics, example, predictions; tau-bench's
    # info) does not make a plain per-sample log that harness's: it needs all of them. Hand count: p1 true, false ->
    # 1 of 2; p2 true -> 1 of 1
    rows = [{"problem_id": pid, **extra, "correct": ok} for pid, ok in (("p1", True), ("p1", False), ("p2", True))]
    if "trial" in extra:  # the attempt, one per sample
        rows = [dict(r, trial=i) for i, r in enumerate(rows)]
    p = tmp_path / "plain.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = read_counts(p)
    assert got.meta["reader"] == "jsonl" and as_set(got) == {("plain", "p1", 2, 1), ("plain", "p2", 1, 1)}


def test_tau_bench_rows_with_info_and_no_traj_are_tau_bench(tmp_path):
    # tau-bench's own `info` (no `traj`) is enough to apply its success threshold (reward >= 1 - 1e-6) unasked. Hand
    # count: task 0, rewards 1.0, 0.9999995 (>= 1 - 1e-6), 0.5 -> 2 of 3
    rows = [{"task_id": 0, "trial": t, "reward": r, "info": {}} for t, r in enumerate([1.0, 0.9999995, 0.5])]
    p = tmp_path / "tau.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    got = read_counts(p)
    assert got.meta["reader"] == "tau_bench" and as_set(got) == {("tau", "0", 3, 2)}


def test_tau_bench_forced_on_rows_without_a_reward_names_the_columns_it_expects(tmp_path):
    # rows with task_id and trial but no reward are no tau-bench log: format="tau_bench" says what it expected
    p = tmp_path / "r.jsonl"
    p.write_text('{"task_id": 1, "trial": 0, "correct": true}\n{"task_id": 1, "trial": 1, "correct": false}\n')
    with pytest.raises(InputFormatError, match=r'^r\.jsonl is not a tau_bench log \(expected a JSON object with a '
                                               r'"simulations" array, or rows with task_id, reward and trial\)$'):
        read_counts(p, format="tau_bench")


def test_a_generic_log_with_a_filter_column_forced_to_jsonl_is_read_as_its_rows(tmp_path):
    # only an lm_eval samples log read as generic rows is refused for its several filters; a plain log whose field
    # happens to be `filter` is read as it is. Hand count: p1 (filters a, b) true, false -> 1 of 2; p2 true -> 1 of 1
    p = tmp_path / "f.jsonl"
    p.write_text('{"problem_id": "p1", "filter": "a", "correct": true}\n'
                 '{"problem_id": "p1", "filter": "b", "correct": false}\n'
                 '{"problem_id": "p2", "filter": "a", "correct": true}\n')
    assert as_set(read_counts(p, format="jsonl")) == {("f", "p1", 2, 1), ("f", "p2", 1, 1)}


def test_lm_eval_log_of_one_filter_forced_to_generic_rows_is_read(tmp_path):
    # one filter is one row per document: read as plain rows (format="jsonl") it counts each document once, so only
    # several filters are refused (test_lm_eval_log_forced_to_generic_rows_with_filters_is_refused). Hand count:
    # document 0 exact_match 1.0 -> 1 of 1; document 1 exact_match 0.0 -> 0 of 1
    p = tmp_path / "samples_t_2024-01-01T00-00-00.jsonl"
    p.write_text("".join(json.dumps({"doc_id": d, "doc": {}, "target": "4", "resps": [["4"]], "filtered_resps": ["4"],
                                     "filter": "strict-match", "metrics": ["exact_match"], "exact_match": em}) + "\n"
                         for d, em in ((0, 1.0), (1, 0.0))))
    got = read_counts(p, format="jsonl", correct_col="exact_match")
    assert as_set(got) == {("samples_t_2024-01-01T00-00-00", "0", 1, 1), ("samples_t_2024-01-01T00-00-00", "1", 1, 0)}


def test_tau_bench_forced_on_a_json_array_names_the_record(tmp_path):
    # format="tau_bench" reads tau-bench's JSON array as the detected read does: a message names the array's record
    p = tmp_path / "tau.json"
    p.write_text(json.dumps([{"task_id": 0, "trial": 0, "reward": 1.0}, {"task_id": None, "trial": 1, "reward": 0.0}]))
    with pytest.raises(PasscurveError, match=re.escape("tau.json: problem-id column 'task_id' has a missing value, e.g. "
                                                       "row {task_id=None, trial=1, reward=0.0} at record 2")):
        read_counts(p, format="tau_bench")


def test_json_documents_are_recognised_by_either_of_their_marks(tmp_path):
    # evalplus results have "eval" and either "date" or "hash"; lm-eval's aggregated results "results" and either
    # "versions" or "configs" (test_lm_eval_aggregated_results_and_other_json_objects_are_named has all of them)
    for mark in ("date", "hash"):
        p = tmp_path / mark / "eval_results.json"
        p.parent.mkdir()
        p.write_text(json.dumps({mark: "x", "eval": {"T/0": [{"base_status": "pass"}, {"base_status": "fail"}]}}))
        got = read_counts(p)  # hand count: pass, fail -> 1 of 2; the model is the directory (test_evalplus_model_names)
        assert got.meta["reader"] == "evalplus" and as_set(got) == {(mark, "T/0", 2, 1)}
    for mark in ("versions", "configs"):
        p = tmp_path / f"results_{mark}.json"
        p.write_text(json.dumps({"results": {"gsm8k": {"exact_match,strict-match": 0.5}}, mark: {"gsm8k": 3}}))
        with pytest.raises(InputFormatError, match=rf"^results_{mark}.json is lm-evaluation-harness's aggregated "):
            read_counts(p)
        # one record with such a field and no "results" is a one-row table
        one = tmp_path / f"one_{mark}.json"
        one.write_text(json.dumps({"problem_id": "a", "correct": True, mark: "x"}))
        assert as_set(read_counts(one)) == {(f"one_{mark}", "a", 1, 1)}


def test_one_json_object_that_fits_no_layout_shows_its_first_eight_keys(tmp_path):
    # the message shows the keys sorted, eight at most, "..." for more
    for n, shown in ((8, "k0, k1, k2, k3, k4, k5, k6, k7"), (9, "k0, k1, k2, k3, k4, k5, k6, k7, ...")):
        p = tmp_path / f"o{n}.json"
        p.write_text(json.dumps({f"k{i}": i for i in range(n)}, indent=1))
        with pytest.raises(InputFormatError, match=re.escape(f"o{n}.json is one JSON object (keys {shown}) that fits")):
            read_counts(p)


def test_humaneval_results_file_named_only_results_keeps_its_name(tmp_path):
    # the model is the file's name without "_results": a file named "_results.jsonl" has no other, and keeps it
    p = tmp_path / "_results.jsonl"
    p.write_text('{"task_id": "T/0", "completion": "x", "passed": true}\n')
    got = read_counts(p)
    assert got.meta["reader"] == "humaneval" and as_set(got) == {("_results", "T/0", 1, 1)}


def test_lm_eval_parquet_without_rows_is_said_to_have_none(tmp_path):
    # lm_eval's columns and no row: the metrics list of a first row that is not there was read (an IndexError)
    p = tmp_path / "samples_t_2024-01-01T00-00-00.parquet"
    duckdb.sql("COPY (SELECT 0 AS doc_id, ['a'] AS resps, ['a'] AS filtered_resps, ['exact_match'] AS metrics, "
               f"1.0 AS exact_match LIMIT 0) TO '{p}'")
    with pytest.raises(PasscurveError, match=r"^samples_t_2024-01-01T00-00-00\.parquet has no data rows"):
        read_counts(p)


def test_lm_eval_log_not_named_samples_is_the_model_of_its_own_name(tmp_path):
    # lm-eval writes samples_<task>_<date>.jsonl into the model's directory: only such a file is named by its directory;
    # a log renamed otherwise is its own model (the stem). Hand count: document 0 exact_match 1.0 -> 1 of 1
    p = tmp_path / "out" / "gsm8k_run.jsonl"
    p.parent.mkdir()
    p.write_text(json.dumps({"doc_id": 0, "doc": {}, "target": "4", "resps": [["4"]], "filtered_resps": ["4"],
                             "filter": "none", "metrics": ["exact_match"], "exact_match": 1.0}) + "\n")
    got = read_counts(p)
    assert got.meta["reader"] == "lm_eval" and as_set(got) == {("gsm8k_run", "0", 1, 1)}


def test_evalplus_results_file_named_only_eval_results_keeps_its_name(tmp_path):
    # the model is the rest of "<name>_eval_results.json": a file named "_eval_results.json" has no rest, and keeps its
    # name (as test_humaneval_results_file_named_only_results_keeps_its_name). Hand count: pass, fail -> 1 of 2
    p = tmp_path / "_eval_results.json"
    p.write_text(json.dumps({"date": "x", "eval": {"T/0": [{"base_status": "pass"}, {"base_status": "fail"}]}}))
    got = read_counts(p)
    assert got.meta["reader"] == "evalplus" and as_set(got) == {("_eval_results", "T/0", 2, 1)}


def test_inspect_correct_col_names_a_scorer_in_any_case(tmp_path):
    # a scorer is named case-insensitively when no scorer is spelled exactly so: MATCH is match (counts by hand from
    # _dict_scores, as in test_inspect_dict_score_key_is_the_verdict: C on a only)
    p = _dict_scores(tmp_path)
    got = read_counts(p, correct_col="MATCH")
    assert got.meta["metric"] == "match" and as_set(got) == {("m", "a", 3, 3), ("m", "b", 3, 0), ("m", "c", 3, 0)}


@pytest.mark.parametrize(("text", "first"), [
    ('[{"problem_id": "a", "correct": true}, {"problem_id": "b", "correct": false}]\n', "["),
    ('{"problem_id": "a", "correct": true}\n{"problem_id": "b", "correct": false}\n', "{"),
    ('\ufeff[{"problem_id": "a", "correct": true}, {"problem_id": "b", "correct": false}]\n', "["),
])
def test_json_saved_as_csv_is_named_as_json(tmp_path, text, first):
    # DuckDB reads JSON under a .csv name as a CSV of one column (its first line the header), so the content sniffer
    # is never asked; the error listed the "columns found" (the JSON text) and said "force one with `format`". It now
    # says what the file looks like and which format reads it; that format reads it (a 1/1, b 0/1, by hand)
    p = tmp_path / "runs.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(PasscurveError, match=rf"no problem-id column .* the file begins with '\{first}', as JSON does: "
                                             r"force `format` json\)$"):
        read_counts(p)
    c = read_counts(p, format="json")
    assert sorted(zip(c.problem.tolist(), c.n.tolist(), c.c.tolist(), strict=True)) == [("a", 1, 1), ("b", 1, 0)]


def test_a_csv_whose_header_is_no_json_keeps_the_plain_advice(tmp_path):
    p = tmp_path / "xy.csv"
    p.write_text("x,y\n1,2\n")
    with pytest.raises(PasscurveError, match=r"columns found: x, y \(formats tried: .*; force one with `format`\)$"):
        read_counts(p)
