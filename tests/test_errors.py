"""passcurve._errors: how per-model warnings are said once (fold_warnings)."""

from __future__ import annotations

from passcurve._errors import fold_warnings

AUTO = ("auto could not check its candidates on these data (its self-backtest needs at least 20 samples per "
        "problem; smallest n = {n}), so it averages them with equal weights")


def test_same_words_for_every_model_are_said_once_naming_them():
    # forecast's auto warning on two pooled two-run logs printed the whole parenthesis once per model: "2 models:
    # auto could not check ... ('modelA': its self-backtest needs ... n = 2; 'modelB': its self-backtest needs ...
    # n = 2), so ..."; with the same parenthesis for every model it is said once, after the models' names
    items = [("DegenerateDataWarning", f"model '{m}': " + AUTO.format(n=2)) for m in ("A", "B")]
    assert fold_warnings(items) == (("DegenerateDataWarning", "models 'A', 'B': " + AUTO.format(n=2)),)


def test_different_parentheses_are_kept_per_model():
    items = [("DegenerateDataWarning", "model 'A': " + AUTO.format(n=2)),
             ("DegenerateDataWarning", "model 'B': " + AUTO.format(n=3))]
    (cat, text), = fold_warnings(items)
    assert text.startswith("2 models: auto could not check its candidates on these data ('A': its self-backtest "
                           "needs at least 20 samples per problem; smallest n = 2; 'B': its self-backtest")
    assert text.count("so it averages them") == 1


def test_other_warnings_pass_through_and_one_model_is_left_alone():
    items = [("DegenerateDataWarning", "model 'A': " + AUTO.format(n=2)), ("ConvergenceWarning", "no model here")]
    assert fold_warnings(items) == tuple(items)
    # a per-model warning of a category the reader stated for the file is the same check again: left out
    stated = [("StoppingTimeWarning", "f.csv: n looks like a stopping time")]
    per_model = [("StoppingTimeWarning", "model 'A': n looks like a stopping time (3 problems)")]
    assert fold_warnings(per_model + stated, stated) == tuple(stated)


def test_a_name_with_quotes_is_quoted_once_when_folded():
    # a model named q"uote's (repr: 'q"uote\'s'): the folded warning re-quoted the already quoted name with
    # repr(), doubling its backslash ('q"uote\\\'s'), while the pair and unfolded warnings said 'q"uote\'s'
    name = "q\"uote's & <b>"
    items = [("DegenerateDataWarning", f"model {m!r}: " + AUTO.format(n=2)) for m in (name, "B")]
    (cat, text), = fold_warnings(items)
    assert text == f"models {name!r}, 'B': " + AUTO.format(n=2)
    assert "\\\\" not in text


def test_names_quoted_with_double_quotes_or_holding_colons_fold_too():
    # repr() quotes it's as "it's": the per-model pattern knew single quotes only, so its warnings stayed one per
    # model beside the others' folded one (helper-82's report); a name holding "': " was cut there
    from passcurve._errors import fold_warnings

    names = ["it's", "b", "x': y"]
    out = fold_warnings([("DegenerateDataWarning", f"model {n!r}: few problems (1 of 3)") for n in names])
    assert out == (("DegenerateDataWarning", "models \"it's\", 'b', \"x': y\": few problems (1 of 3)"),)
