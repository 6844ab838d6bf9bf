"""Every example in the library's docstrings runs and prints what it shows (doctest)."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
import warnings
from pathlib import Path

import pytest

import passcurve

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(passcurve.__path__, "passcurve.")
    # the CLI's docstrings are its --help texts, not examples; __main__ runs the CLI when imported
    if not m.name.startswith("passcurve.cli") and m.name != "passcurve.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # examples on tiny inputs raise the library's data warnings
        res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)
    assert res.failed == 0, f"{name}: {res.failed} of {res.attempted} docstring examples failed"


def test_the_examples_exist():
    total = 0
    for name in MODULES:
        finder = doctest.DocTestFinder()
        total += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert total >= 40  # 49 example lines at the ninth session; a drop means examples were lost


def _public_functions():
    import passcurve.data
    import passcurve.rl

    for mod in (passcurve, passcurve.rl, passcurve.data):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isfunction(obj):
                yield f"{mod.__name__}.{name}", obj


@pytest.mark.parametrize(("name", "func"), list(_public_functions()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_functions_have_numpydoc_parameters_and_returns(name, func):
    # the conventions: numpydoc docstrings; 24 public functions (naive_pass_at_k, thin_counts, k_for, the stopping-time
    # estimators, the data readers and writers, ...) had a summary only, or Parameters without Returns
    doc = inspect.getdoc(func) or ""
    params = [p for p in inspect.signature(func).parameters if not p.startswith("_")]
    missing = [sec for sec, need in (("Parameters", bool(params)), ("Returns", True))
               if need and f"\n{sec}\n{'-' * len(sec)}\n" not in doc]
    assert not missing, f"{name}: no {' or '.join(missing)} section"
    _assert_parameters_match(name, doc, params)


# the public names that compute a formula of ../shared/REFERENCE.md (estimators, pass_D@k, power laws and difficulty
# laws, Miller's error bars and power, Hughes et al.'s design, the training signals)
_FORMULAS = ("pass_at_k", "pass_pow_k", "g_pass_at_k", "mg_pass_at_k", "naive_pass_at_k", "curve", "mean_curve",
             "curve_intervals", "standard_error", "compare", "power_analysis", "hidden_difficulty", "fit_power_law",
             "local_slope", "fit_difficulty", "BetaBinomial", "ScaledBetaBinomial", "forecast",
             "hierarchical_pass_at_k", "plan", "stopping_pass_at_k", "rl.pkpo_rewards", "rl.max_at_k",
             "rl.dead_group_fraction", "rl.dead_group_fraction_beta", "rl.dead_groups", "rl.group_size_for_live",
             "rl.pass_at_k_weights", "rl.prompt_kernel", "rl.gradient_conflict")


@pytest.mark.parametrize("name", _FORMULAS)
def test_formulas_name_their_source(name):
    # the docs audit: curve, mean_curve, fit_power_law, fit_difficulty, BetaBinomial, ScaledBetaBinomial,
    # power_analysis, hierarchical_pass_at_k, stopping_pass_at_k and rl.group_size_for_live named their paper in
    # passing or not at all; numpydoc's place for it is a References section
    doc = inspect.getdoc(eval(f"passcurve.{name}", {"passcurve": passcurve})) or ""
    refs = re.search(r"^References\n-{10}\n(.+?)(?:\n\n|\Z)", doc, flags=re.S | re.M)
    assert refs and re.search(r"arXiv|REFERENCE\.md|\(\d{4}\)|\b(?:19|20)\d\d\b", refs.group(1)), (
        f"{name}: no References section naming its source")


def _documented_parameters(doc: str, sections: tuple[str, ...] = ("Parameters", "Other Parameters")) -> list[str]:
    """The names of numpydoc sections (Parameters and Other Parameters): their unindented `a, b : type` lines."""
    out = []
    for sec in sections:
        m = re.search(rf"^{sec}\n-{{{len(sec)}}}\n(.*?)(?=^\S[^\n]*\n-{{3,}}\n|\Z)", doc, flags=re.S | re.M)
        for line in m.group(1).splitlines() if m else []:
            if line.strip() and not line[0].isspace():
                out += [n.strip().lstrip("*") for n in line.split(" : ")[0].split(",") if n.strip()]
    return out


def _public_dataclasses():
    import dataclasses

    import passcurve.data
    import passcurve.rl

    for mod in (passcurve, passcurve.rl, passcurve.data):
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
                yield f"{mod.__name__}.{name}", obj


@pytest.mark.parametrize(("name", "cls"), list(_public_dataclasses()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_dataclasses_document_their_fields(name, cls):
    # a dataclass's fields are its constructor's parameters: the docs audit found results whose Attributes left some
    # out (CurveResult.interval_method, ForecastResult.scope, CompareResult.n_resamples, the warnings of backtest,
    # plan and power-law results, the meta of PowerResult, SimulatedBenchmark and AnswerTallies, ...), no section at
    # all on KForResult, BoundsKFor, DeviationReport and the two a user builds (StopAtSuccess, ModelSpec), and
    # Counts' paragraph on read-only arrays inside Attributes, where numpydoc reads each line as an attribute
    import dataclasses

    doc = inspect.getdoc(cls) or ""
    fields = [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]
    documented = _documented_parameters(doc, ("Parameters", "Attributes"))
    assert documented, f"{name}: no Parameters or Attributes section"
    undocumented = [f for f in fields if f not in documented]
    assert not undocumented, f"{name}: fields not documented: {undocumented}"
    unknown = [d for d in documented if d not in fields and not hasattr(cls, d)]
    assert not unknown, f"{name}: documented, but not a field: {unknown}"


def _assert_parameters_match(name: str, doc: str, params: list[str]) -> None:
    # the docs audit: backtest documented neither n_resamples nor rng, plan neither n nor c, rl.prompt_kernel not
    # cosine, and compare's and rank_models' paragraph on weights sat in Parameters, where numpydoc reads each of
    # its lines as a parameter (now their Notes)
    documented = _documented_parameters(doc)
    assert not {p for p in params if p not in documented}, f"{name}: not in Parameters: {set(params) - set(documented)}"
    assert not {d for d in documented if d not in params}, f"{name}: not in the signature: {set(documented) - set(params)}"


# --- the examples of README.md and docs/*.md -------------------------------------------------------------------------
# A docs audit (nineteenth session) ran every fenced example against the simulator; the ones below run in well under a
# second on the small inputs of _docs_namespace and are run here, so the docs stay true. Left out: blocks that only
# show a signature or a loop around the user's own sampler (docs/planning.md's Planner loop, 12 s), torch (not a
# dependency), and README's tour (its forecast's self-backtest takes ~4 s; each call is covered by its module's tests).

ROOT = Path(__file__).resolve().parents[1]
DOC_EXAMPLES = [  # (file, the block's first line)
    ("docs/data.md", "import passcurve"),
    ("docs/data.md", 'counts.meta["reader"]'),
    ("docs/data.md", "from passcurve.data import open_samples"),
    ("docs/estimators.md", "counts = passcurve.Counts.from_arrays(n, c, problem=ids, model=names, weight=None)"),
    ("docs/planning.md", "pc.stopping_pass_at_k(n, c, k=100, batch=60, cap=10_020)"),
    ("docs/uncertainty.md", "import passcurve as pc"),
    ("docs/voting.md", "import passcurve as pc"),
    ("docs/voting.md", "res = pc.retries(problem, attempt, correct, model=None, alpha=0.05, n_resamples=999,"),
    ("docs/voting.md", "res = pc.verifier_inflation(n, c_base, c_strict, k=[1, 10, 100], model=None, c_strict_only=None)"),
    ("docs/rl.md", "import passcurve.rl as rl"),
]


def _python_blocks(rel: str) -> list[str]:
    text = (ROOT / rel).read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def _block(rel: str, first: str) -> str:
    found = [b for b in _python_blocks(rel) if b.splitlines()[0].partition("#")[0].strip() == first]
    assert len(found) == 1, f"{rel}: no single ```python block starting {first!r} (the docs changed: update DOC_EXAMPLES)"
    return found[0]


def _docs_namespace(tmp_path: Path) -> dict:
    """Small stand-ins for the names and files the examples assume (the docs' placeholders)."""
    import numpy as np

    from passcurve.data import write_counts, write_table

    bench = passcurve.simulate(40, n=120, rng=0)
    ans = passcurve.simulate_answers(12, n=64, rng=0)  # docs/voting.md asks for k = 64
    write_table(ans, tmp_path / "answers.jsonl")
    write_counts(bench.counts, tmp_path / "runs.parquet")
    rng = np.random.default_rng(0)
    write_table({"model": np.repeat(["M1", "M2"], 60), "problem_id": np.tile(np.repeat(["a", "b", "c"], 20), 2),
                 "attempt": np.tile(np.arange(20), 6), "correct": rng.random(120) < 0.3}, tmp_path / "samples.parquet")
    gold = {p: g for p, g in zip(ans["problem_id"], ans["gold"], strict=True)}
    n = np.array([240, 180, 120, 180])  # whole batches of 60, as docs/planning.md's stop-at-success example needs
    c_strict = np.array([10, 0, 60, 90])
    return {
        "np": np, "pc": passcurve, "passcurve": passcurve, "bench": bench,
        # a per-sample log's counts: docs/data.md reads its meta (rows, duplicate_check: per-sample logs only)
        "counts": passcurve.read_counts(tmp_path / "samples.parquet"),
        "df": __import__("pandas").DataFrame({"task": np.repeat(["a", "b"], 5), "ok": rng.random(10) < 0.5,
                                              "policy": "m", "attempt": np.tile(np.arange(5), 2)}),
        "answers": [list(ans["answer"][ans["problem_id"] == p]) for p in gold],
        "gold": list(gold.values()),
        "n": n, "c": np.array([1, 2, 1, 3]),
        "ids": ["p1", "p2", "p3", "p4"], "names": ["M1"] * 4,
        "c_base": c_strict + [5, 2, 0, 4], "c_strict": c_strict,
        "problem": np.repeat(np.arange(30), 10), "attempt": np.tile(np.arange(1, 11), 30),
        "correct": rng.random(300) < 0.3,
    }


# the docs' file names, mapped to the files _docs_namespace writes
_DOC_FILES = {"runs/samples.parquet": "samples.parquet", "logs/2024-07-01_task.eval": "runs.parquet",
              "runs/math.jsonl": "answers.jsonl"}


@pytest.mark.parametrize(("rel", "first"), DOC_EXAMPLES, ids=[f"{r}:{f[:30]}" for r, f in DOC_EXAMPLES])
def test_docs_examples_run(rel, first, tmp_path, monkeypatch):
    code = _block(rel, first)
    for name, local in _DOC_FILES.items():
        code = code.replace(f'"{name}"', repr(str(tmp_path / local)))
    ns = _docs_namespace(tmp_path)
    if rel == "docs/estimators.md":  # its counts come from the caller's arrays; 150 is the largest k it asks for
        ns["c"] = ns["c_strict"]
    monkeypatch.setattr("matplotlib.pyplot.show", lambda *a, **k: None, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small inputs raise the library's data warnings
        exec(compile(code, f"{rel}:{first}", "exec"), ns)


def _shown_values() -> list[tuple[str, str, str]]:
    """Every example line whose comment shows the value it returns: `expr  # 0.9166...` or a next line `# (a, b)`."""
    out = []
    for rel in ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]:
        for block in _python_blocks(rel):
            lines = block.splitlines()
            for i, line in enumerate(lines):
                code, _, comment = line.partition("#")
                if not code.strip() and i and comment:  # a comment line under the call it shows
                    code, comment = lines[i - 1].partition("#")[0], comment
                m = re.match(r"\s*(?:array\()?([\[(]?-?[0-9][0-9., \-e]*[\])]?)\)?(?:\s|$)", comment)
                if code.strip() and m and "pc." in code:
                    out.append((rel, code.strip(), m.group(1)))
    return out


def test_docs_shown_values_are_what_the_code_returns():
    import numpy as np

    checked = {code: shown for _, code, shown in _shown_values()}
    # the four the audit found (a drop means the docs' examples lost their values or the pattern broke)
    assert {"pc.pass_at_k(10, 3, 5)", "pc.power_analysis(0.03, 1, p=0.5, correlation=0.5, n=1).problems"} <= set(checked)
    assert len(checked) >= 4, checked
    for code, shown in checked.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = np.atleast_1d(np.asarray(eval(code, {"pc": passcurve, "np": np}), dtype=float)).ravel()
        want = [float(x) for x in re.findall(r"-?[0-9][0-9.]*(?:e-?[0-9]+)?", shown)]
        assert got.size == len(want), (code, got, shown)
        for g, w in zip(got, want, strict=True):
            decimals = len(repr(w).split(".")[1]) if "." in repr(w) and "e" not in repr(w) else 0
            tol = 0.5 * 10.0 ** -decimals * (1 + 1e-9) if "." in shown else 0.5
            assert abs(g - w) <= tol, f"{code}: the docs show {shown}, the code returns {got}"


def test_every_public_name_is_in_the_docs():
    import passcurve.data
    import passcurve.rl

    text = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    missing = [f"{mod.__name__}.{name}" for mod in (passcurve, passcurve.rl, passcurve.data) for name in mod.__all__
               if not re.search(rf"\b{re.escape(name)}\b", text)]
    # the audit found 22 (result classes, the name tuples, default_k_grid, mean_curve, thin_counts, the writers)
    assert not missing, f"public names the docs never mention: {missing}"


def test_readme_names_the_metrics_curve_accepts():
    # README called `METRICS` curve's accepted names; that is its default three, and curve takes G-pass@k and
    # mG-pass@k too (CURVE_METRICS; docs audit). The tuple the README names must be exactly what curve accepts.
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    named = re.search(r"accepted names\s+`(\w+)` \(curve", text)
    assert named, "README no longer names curve's accepted metrics"
    counts = passcurve.Counts.from_arrays([10, 10], [3, 7])
    candidates = {*passcurve.METRICS, *passcurve.CURVE_METRICS, *passcurve.INTERVAL_METRICS, "max_at_k"}

    def accepted(metric: str) -> bool:
        try:
            passcurve.curve(counts, [1, 4], metrics=[metric], tau=0.5 if metric == "g_pass_at_k" else None)
        except passcurve.PasscurveError:
            return False
        return True

    assert {m for m in candidates if accepted(m)} == set(getattr(passcurve, named.group(1)))


_ONE_LINERS = ("to_dict", "to_frame")  # a sentence naming the keys or columns is their whole story


def _public_methods():
    """Public methods of the public classes (results, fitted models, Counts, the Planner, ...), each once per
    class that defines it; inherited ones are checked on the class that defines them."""
    import passcurve.data
    import passcurve.rl

    seen = set()
    for mod in (passcurve, passcurve.rl, passcurve.data):
        for cname in mod.__all__:
            cls = getattr(mod, cname)
            if not inspect.isclass(cls) or issubclass(cls, BaseException | Warning):
                continue
            for mname, attr in vars(cls).items():
                func = attr.__func__ if isinstance(attr, staticmethod | classmethod) else attr
                if mname.startswith("_") or not inspect.isfunction(func) or (cls, mname) in seen:
                    continue
                seen.add((cls, mname))
                yield f"{cls.__name__}.{mname}", cls, mname, func


@pytest.mark.parametrize(("name", "cls", "mname", "func"), list(_public_methods()),
                         ids=lambda v: v if isinstance(v, str) and "." in v else "")
def test_public_methods_have_numpydoc_parameters_and_returns(name, cls, mname, func):
    # the API review: to_dict, to_frame, plot, the Planner's and the difficulty models' methods (fit, pmf, pass_at_k,
    # posterior_pass_at_k, log_moment, density, local_exponent, ...) had a sentence or nothing. An override without
    # a docstring inherits its base's (inspect.getdoc), which is what help() shows.
    doc = inspect.getdoc(getattr(cls, mname)) or ""
    assert doc, f"{name}: no docstring"
    if mname in _ONE_LINERS:
        assert "``" in doc, f"{name}: the docstring should name the keys or columns"
        return
    params = [p for p in inspect.signature(func).parameters if p not in ("self", "cls") and not p.startswith("_")]
    missing = [sec for sec, need in (("Parameters", bool(params)), ("Returns", True))
               if need and f"\n{sec}\n{'-' * len(sec)}\n" not in doc]
    assert not missing, f"{name}: no {' or '.join(missing)} section"
    _assert_parameters_match(name, doc, params)


def test_docs_signatures_show_the_code_defaults():
    # the docs write some signatures out, `name(arg=default, ...) -> Result`; docs/uncertainty.md showed
    # `hidden_difficulty(counts, k=None, k_gt_n="nan")` after the default became "raise" (and keyword-only)
    import ast

    import passcurve.report

    shown = []
    for rel in ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]:
        text = (ROOT / rel).read_text(encoding="utf-8")
        shown += [(rel, *m) for m in re.findall(r"`([A-Za-z_][\w.]*)\(([^`]*)\) -> \w+`", text)]
    assert len(shown) >= 3, shown  # build_report, curve_intervals, hidden_difficulty
    for rel, name, params in shown:
        func = eval(name if "." in name else f"passcurve.{name}", {"passcurve": passcurve})
        sig = inspect.signature(func)
        args = ast.parse(f"def f({params.replace('...', '_rest=0').replace(chr(10), ' ')}): pass").body[0].args
        positional = args.posonlyargs + args.args
        pairs = [(a, d) for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True)]
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
        for a, d in pairs:
            if a.arg == "_rest":
                continue
            assert a.arg in sig.parameters, f"{rel}: {name} has no argument {a.arg}"
            assert sig.parameters[a.arg].default == ast.literal_eval(d), (
                f"{rel}: {name}({a.arg}={ast.unparse(d)}), the code's default is {sig.parameters[a.arg].default!r}")
        for a in args.kwonlyargs:
            assert sig.parameters[a.arg].kind is inspect.Parameter.KEYWORD_ONLY, f"{rel}: {name}: {a.arg}"
