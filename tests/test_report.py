"""The HTML report: assembled from result objects, one offline file, every warning shown, bad input rejected."""

from __future__ import annotations

import html
import re
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from passcurve import Counts, DroppedProblemsWarning, PasscurveError, curve, simulate
from passcurve.report import STEPS, build_report, compute_report_data, report_k_grid
from passcurve.report._sections import curve_column, fmt_num, fmt_pct, log_ticks, number_format
from passcurve.report._static import save_figure, static_figure

FETCH = re.compile(r"""(?:\b(?:src|href|action|poster|data)\s*=\s*["']?\s*(?:https?:)?//)|url\(\s*["']?\s*(?:https?:)?//|@import""",
                   re.I)


def _outside_plotly(html: str) -> str:
    """The page without plotly's inlined bundle (whose source mentions URLs it never fetches here)."""
    start = html.index('<script id="plotly-js"')
    end = html.index("</script>", start)
    return html[:start] + html[end:]


@pytest.fixture(scope="module")
def bench():
    return simulate(problems=60, n=200, rng=3)


FAST = {"n_resamples": 200, "forecast_resamples": 5}  # the report's own logic does not depend on these


@pytest.fixture(scope="module")
def rep(bench):
    return build_report(bench.counts, **FAST)


def test_one_offline_file(rep):
    page = rep.html
    assert page.count('<script id="plotly-js"') == 1
    assert page.count("Plotly.newPlot") >= 5  # every chart uses the one inlined bundle
    assert "cdn.plot.ly/plotly" not in _outside_plotly(page)
    assert not FETCH.search(_outside_plotly(page))
    assert "<link" not in _outside_plotly(page)
    # plotly.js is inline, not referenced
    assert not re.search(r"<script[^>]+src=", page)
    # and no chart offers to upload itself (plotly.js's "Share chart..." posts to its cloud)
    assert '"showSendToCloud": false' in page


def test_difficulty_fit_is_labelled_for_a_reader(rep):
    # the label was the developer's summary, "...; loglik=-742.34, AIC=..., success=True" (HTML audit)
    assert "best by AIC of" in rep.html and "log-likelihood −" in rep.html
    # outside plotly's inlined bundle, whose source has its own "success=" (plotly 5.20's plotly.js does)
    page = _outside_plotly(rep.html)
    assert "success=" not in page and "loglik=" not in page


def test_sections_and_omitted_notes(rep):
    ids = [s.id for s in rep.sections]
    for sid in ["loop", "pass-at-k", "failure", "naive", "pass-pow-k", "histogram", "models", "hidden-difficulty",
                "problems", "flags", "explorer"]:
        assert sid in ids
    # a section whose analysis is unavailable says so in one line and shows nothing invented
    for s in rep.sections:
        if s.omitted:
            assert s.note and "\n" not in s.note and s.body == ""
    for note in rep.data.notes.values():
        assert html.escape(note) in rep.html


def test_numbers_come_from_the_result_objects(bench, rep):
    cnt = bench.counts
    cur = curve(cnt, report_k_grid(int(cnt.n.min())))
    np.testing.assert_allclose(rep.data.curve.values["pass_at_k"], cur.values["pass_at_k"], rtol=1e-12)
    # first-try pass@1 of each model = mean c/n in exact rationals (Chen et al. 2021: pass@1 = c/n)
    for i, m in enumerate(cur.models):
        sel = cnt.model == m
        exact = sum(Fraction(int(c), int(n)) for n, c in zip(cnt.n[sel], cnt.c[sel], strict=True)) / int(sel.sum())
        assert rep.data.curve.values["pass_at_k"][i, 0] == pytest.approx(float(exact), rel=1e-12)
        loop = rep.html[rep.html.index('id="loop"') : rep.html.index('id="pass-at-k"')]
        assert f"<td>{curve_column(rep.data.curve, 'pass_at_k', 0, percent=True)(float(exact))}<" in loop
    # the per-problem table has one row per (model, problem)
    table = rep.html[rep.html.index('id="problems"') :]
    assert table.count("<tr>") == len(cnt) + 1


def test_k_grid():
    g = report_k_grid(10_000)
    assert g[0] == 1 and g[-1] == 10_000 and np.all(np.diff(g) > 0)
    assert set(range(1, 11)) <= set(g.tolist()) and {100, 1000} <= set(g.tolist())
    assert report_k_grid(1).tolist() == [1]


def test_every_warning_is_shown_verbatim():
    # unequal n with k up to the largest n: problems with n < k are dropped, and the report says so
    cnt = Counts.from_arrays([5, 20, 20, 20], [1, 3, 0, 20], model="m")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing leaks out of build_report: it is collected
        rep = build_report(cnt, k_gt_n="drop", input_warnings=[("StoppingTimeWarning", "n looks like a stopping time")])
    cats = [c for c, _ in rep.warnings]
    assert cats[0] == "StoppingTimeWarning" and DroppedProblemsWarning.__name__ in cats
    # under "drop" the curves run to the largest n over fewer problems, and the header and captions say so
    head = rep.html[: rep.html.index('id="loop"')]
    assert "Curves run to k = 20; at each k the problems with fewer samples are left out" in head
    assert "over only the problems sampled that far" in rep.html[rep.html.index('id="loop"'):]
    flags = rep.html[rep.html.index('id="flags"') :]
    for cat, msg in rep.warnings:
        assert cat in flags and html.escape(msg) in flags


def test_single_model_single_sample():
    cnt = Counts.from_arrays([1, 1, 1], [1, 0, 0], model="tiny")
    rep = build_report(cnt)
    assert rep.data.pow_k is None  # pass^k needs at least 2 samples per problem: not shown
    loop = rep.html[rep.html.index('id="loop"') : rep.html.index('id="pass-at-k"')]
    assert "pass^k</b> is not shown" in loop
    assert "two models" in rep.data.notes["models"]
    # the library's own reason, when it rejects this input for an optional analysis
    if "hidden-difficulty" in rep.omitted():
        assert "not shown" in rep.omitted()["hidden-difficulty"] or "omitted" in rep.omitted()["hidden-difficulty"]


def test_progress_steps(bench):
    seen = []
    build_report(bench.counts, progress=seen.append, parts=set())
    assert tuple(seen) == STEPS


def test_write_puts_the_explorer_next_to_the_report(rep, tmp_path):
    out = rep.write(tmp_path / "r.html")
    assert out.read_text(encoding="utf-8") == rep.html
    target = re.search(r'id="explorer-link" href="([^"]+)"', rep.html).group(1)
    explorer = (tmp_path / target).read_text(encoding="utf-8")
    assert 'href="r.html"' in explorer  # and back


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"confidence_level": 1.5}, "`confidence_level`"),
        ({"confidence_level": "x"}, "`confidence_level`"),
        ({"k_gt_n": "all"}, "`k_gt_n`"),
        ({"n_resamples": 0}, "`n_resamples`"),
        ({"n_resamples": 50}, r"`n_resamples` must be an integer >= 100"),  # else comparisons were silently omitted
        ({"rng": -1}, r"`rng` must be None, a non-negative integer seed or a numpy Generator \(got -1\)"),
        ({"forecast_resamples": -1}, "`forecast_resamples`"),
    ],
)
def test_bad_arguments(bench, kwargs, match):
    with pytest.raises(PasscurveError, match=match):
        build_report(bench.counts, **kwargs)


def test_bad_counts_and_parts(bench):
    with pytest.raises(PasscurveError, match="`counts` must be a passcurve.Counts"):
        build_report({"n": [1], "c": [0]})
    with pytest.raises(PasscurveError, match="`parts`"):
        compute_report_data(bench.counts, parts={"astrology"})


def test_histogram_uses_log_bins_for_rare_successes():
    cnt = Counts.from_arrays([10_000] * 4, [0, 3, 40, 500], model="m")
    rep = build_report(cnt, parts=set())
    cap = rep.html[rep.html.index('id="histogram"') : rep.html.index('id="models"')]
    assert "Log-spaced bins" in cap and "never solved" in cap


def test_linear_histogram_bins_hold_one_value_of_c_over_n_each():
    # n = 20, c = 0..20: bin [k/20, (k+1)/20) holds c = k (the last bin, closed, also c = 20). The edges were
    # linspace's, 3 * 0.05 = 0.15000000000000002 > 3/20, so c = 3 fell into the bin of c = 2 and left one empty,
    # and the fitted line, on the same edges, dropped to 0 there (report audit)
    from passcurve.report._sections import _bins

    # any n > 20 whose lattice contains k/20: n = 40, c = 0, 2, ..., 40
    p = np.arange(0, 41, 2) / 40
    edges, logx = _bins(p, 40)
    assert not logx and edges.size == 21
    assert np.histogram(p, bins=edges)[0].tolist() == [1] * 19 + [2]
    # n <= 20: one bin per value c/n (0.05-wide bins at n = 10 left every other bar empty, report review)
    for n in (4, 10, 20):
        p = np.arange(1, n + 1) / n
        edges, logx = _bins(p, n)
        assert not logx and np.histogram(p, bins=edges)[0].tolist() == [1] * n


def test_log_ticks_are_readable():
    assert log_ticks(0.1, 0.9) == [0.1, 0.2, 0.5]
    assert log_ticks(1, 1e7) == [10.0**e for e in range(8)]


def test_static_figures(bench, tmp_path):
    data = compute_report_data(bench.counts, parts=set())
    fig = static_figure(data, ["pass_at_k", "failure", "pass_pow_k", "naive"])
    assert len(fig.axes) == 4 and len(fig.axes[0].lines) == len(bench.counts.models)
    for ext, magic in [("png", b"\x89PNG"), ("svg", b"<?xml"), ("pdf", b"%PDF")]:
        out = save_figure(fig, tmp_path / f"fig.{ext}")
        assert out.read_bytes().startswith(magic)
    assert not FETCH.search((tmp_path / "fig.svg").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def banded(bench):
    """The static figures' data with bands (intervals and fits) at the default level, 95%: built once for the tests
    that only read it (the report data are read-only: test_report_data_is_read_only_like_every_result)."""
    return compute_report_data(bench.counts, parts={"intervals", "fits"}, confidence_level=0.95, forecast_resamples=5)


def test_static_figures_name_the_level_of_their_bands(bench, banded):
    # `passcurve plot` drew shaded bands with no level anywhere on the figure; each panel with bands now says it,
    # at the level asked for
    for level, label in ((0.95, "95%"), (0.9, "90%")):
        data = banded if level == 0.95 else compute_report_data(
            bench.counts, parts={"intervals", "fits"}, confidence_level=level, forecast_resamples=5)
        titles = [ax.get_title() for ax in static_figure(data, ["pass_at_k", "failure", "pass_pow_k"]).axes]
        assert titles[0] == f"bands: {label} intervals (counting problems)"
        assert titles[1].endswith(f"dotted: forecast ({label} prediction band)")
        assert titles[2] == ""  # pass^k is drawn without a band
    bare = static_figure(compute_report_data(bench.counts, parts=set()), ["pass_at_k"])
    assert bare.axes[0].get_title() == ""  # no intervals computed, no band, no level


def test_static_figure_titles_stay_inside_the_figure(banded):
    # `passcurve plot --panels pass_pow_k,failure`: the failure panel's one-line title was wider than the panel
    # and ran off the figure's right edge ("... (95% prediction b")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    data = banded  # parts={"intervals", "fits"}, forecast_resamples=5, the default level
    for panels in (["pass_pow_k", "failure"], ["failure"], ["pass_at_k", "failure", "pass_pow_k"]):
        fig = static_figure(data, panels)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        box = fig.bbox
        for ax in fig.axes:
            ext = ax.title.get_window_extent(canvas.get_renderer())
            assert box.x0 - 0.5 <= ext.x0 and ext.x1 <= box.x1 + 0.5, (panels, ax.get_title(), ext, box)


def test_static_failure_axis_follows_the_lines_not_a_band_down_to_zero():
    # `passcurve plot` on n = 10: the forecast's band reaches 1 - pass@K = 0 (the range every law the data allow),
    # and the log axis followed it down to ~3e-5, leaving the curves in the top fifth of the panel. The bottom is now
    # a fifth of the smallest value a line shows; the band is clipped there
    data = compute_report_data(simulate(problems=40, n=10, rng=0).counts, parts={"fits"}, forecast_resamples=5)
    ax = static_figure(data, ["failure"]).axes[0]
    lowest = min(float(np.min(y[y > 0])) for y in (np.asarray(line.get_ydata(), dtype=float) for line in ax.get_lines()))
    bands = [np.asarray(p.get_paths()[0].vertices[:, 1]) for p in ax.collections]
    assert bands and min(float(b.min()) for b in bands) < lowest / 5  # some band does reach below the lines
    assert ax.get_ylim()[0] == pytest.approx(lowest / 5)


def test_histogram_phone_layout_is_the_same_in_every_run():
    # the 5+-model histogram's phone layout listed its axes in plotly's layout-key order, which follows Python's string
    # hashing: the same counts gave four different sections under PYTHONHASHSEED 1..4 (so four different report files).
    # The axes are now in panel order; reference: the section built in two fresh interpreters is byte-identical
    import os
    import subprocess
    import sys

    code = ("import passcurve as pc\nfrom passcurve.report._sections import histogram_section\n"
            "c = pc.simulate(problems=30, n=20, models=[pc.ModelSpec(f'm{i}', 0.5, 2.0) for i in range(5)], rng=0).counts\n"
            "print(histogram_section(c).body)")
    bodies = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")]
    assert '"narrow"' in bodies[0] and bodies[0] == bodies[1]


def test_static_bad_input(bench, tmp_path):
    data = compute_report_data(bench.counts, parts=set())
    with pytest.raises(PasscurveError, match="`panels`"):
        static_figure(data, ["pie"])
    with pytest.raises(PasscurveError, match="`output` must end in .png, .svg or .pdf"):
        save_figure(static_figure(data), tmp_path / "fig.gif")


def test_cli_demo_writes_the_report(tmp_path: Path, capsys):
    # in-process (the subprocess entry point is exercised by test_cli_report_and_plot)
    from passcurve.cli._app import run

    code = run(["demo", "-o", str(tmp_path / "report.html"), "--problems", "40", "--n", "100",
                "--forecast-resamples", "2"])
    assert code == 0
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "passcurve demo" in html and (tmp_path / "explorer.html").exists()
    assert "wrote" in capsys.readouterr().out
    assert run(["demo", "-o", str(tmp_path / "report.txt")]) == 2  # bad input: exit 2, before any work


def test_cli_report_and_plot(icli, tmp_path: Path, bench):
    from passcurve.cli._app import run
    from passcurve.data import write_counts

    data = write_counts(simulate(problems=30, n=50, rng=1).counts, tmp_path / "counts.csv")
    out = tmp_path / "r.html"
    res = icli("report", str(data), "-o", str(out), "--forecast-resamples", "0", "--n-resamples", "100")
    assert res.returncode == 0, res.stderr
    assert out.exists() and (tmp_path / "explorer.html").exists() and "wrote" in res.stdout
    assert "counts.csv" in out.read_text(encoding="utf-8")
    # the rest in-process (same app, same exit codes, no interpreter start-up)
    assert run(["plot", str(data), "-o", str(tmp_path / "fig.svg"), "--panels", "pass_at_k,pass_pow_k"]) == 0
    assert (tmp_path / "fig.svg").read_bytes().startswith(b"<?xml")
    assert run(["plot", str(data), "-o", str(tmp_path / "fig.gif")]) == 2
    assert run(["plot", str(data), "-o", str(tmp_path / "fig.png"), "--panels", "pie"]) == 2
    assert run(["report", str(data), "-o", str(tmp_path / "r.txt")]) == 2
    assert run(["report", str(tmp_path / "missing.csv"), "-o", str(out)]) == 2
    # never solved anywhere: pass^k is 0 at every k, so its log panel has nothing to show (it
    # used to crash matplotlib's log axis); the figure is still written
    zero = tmp_path / "zero.csv"
    zero.write_text("problem_id,n,c\n" + "".join(f"p{i},10,0\n" for i in range(5)))
    assert run(["plot", str(zero), "-o", str(tmp_path / "zero.svg")]) == 0
    assert "no positive values to show" in (tmp_path / "zero.svg").read_text(encoding="utf-8")


@pytest.mark.shared_data
def test_stopping_time_data_is_flagged_at_the_top():
    from conftest import shared_file

    from passcurve import read_counts

    path = shared_file("bon_jailbreaking_counts.csv")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cnt = read_counts(path)
    read = [(w.category.__name__, str(w.message)) for w in caught if w.category.__name__ == "StoppingTimeWarning"]
    assert read, "the data layer flags BoN's n as a stopping time (data/README.md)"
    rep = build_report(cnt, parts=set(), input_warnings=read)
    top = rep.html[: rep.html.index('id="loop"')]
    assert 'id="banner"' in top and "StoppingTimeWarning" in top
    # said once: the reader's file-level warning stands for the forecasts' per-model ones (same check, same
    # evidence), the four numbers' caption names it instead of repeating it; it was 8 warnings shown 3 times
    stops = [m for c, m in rep.data.warnings if c == "StoppingTimeWarning"]
    assert stops == [read[0][1]]
    assert rep.html.count("n looks like a stopping time") == 2  # the banner and the flags section
    loop = rep.html[rep.html.index('id="loop"'): rep.html.index('id="pass-at-k"')]
    assert "at the top of the page (<strong>StoppingTimeWarning</strong>" in loop
    # without the reader's warning, the seven per-model ones are one, naming each model with its evidence
    alone = [m for c, m in build_report(cnt, parts={"fits"}, **FAST).data.warnings if c == "StoppingTimeWarning"]
    assert len(alone) == 1 and alone[0].startswith("7 models: n looks like a stopping time ('Claude 3.5 Opus': 151")


def _retry_log(seed: int = 0) -> dict[str, np.ndarray]:
    """Retries with feedback: attempt t succeeds more often than attempt 1; sampling stops at a success."""
    rng = np.random.default_rng(seed)
    model, problem, attempt, correct = [], [], [], []
    for p in range(40):
        q = rng.beta(0.5, 2.0) * 0.6
        for a in range(1, 7):
            ok = rng.random() < min(1.0, q * (1 + 0.5 * (a - 1)))
            model.append("agent")
            problem.append(f"p{p}")
            attempt.append(a)
            correct.append(ok)
            if ok:
                break
    return {"model": np.array(model, dtype=object), "problem_id": np.array(problem, dtype=object),
            "attempt": np.array(attempt), "correct": np.array(correct)}


def test_completion_under_the_retry_budget():
    from passcurve import retries

    log = _retry_log()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = retries(log["problem_id"], log["attempt"], log["correct"], model=log["model"], n_resamples=99, rng=0)
        keys = np.char.add(log["model"].astype(str), log["problem_id"].astype(str))
        _, first = np.unique(keys, return_index=True)
        n = np.bincount(np.unique(keys, return_inverse=True)[1].ravel())
        c = np.bincount(np.unique(keys, return_inverse=True)[1].ravel(), weights=log["correct"]).astype(int)
        cnt = Counts.from_arrays(n, c, problem=log["problem_id"][first], model="agent")
        rep = build_report(cnt, parts=set(), k_gt_n="drop", retry_result=res)
    assert res.stops_at_success[0]  # retry-until-solved: only completion is meaningful
    r = rep.data.retries["agent"]
    j = list(res.budget).index(r["budget"])
    assert r["completion"] == res.completion[0, j]
    # completion within b from first principles: share of problems whose first success is at attempt <= b
    fs = res.first_success
    assert r["completion"] == pytest.approx(np.mean(fs <= r["budget"]))
    loop = rep.html[rep.html.index('id="loop"') : rep.html.index('id="pass-at-k"')]
    assert f"{fmt_pct(r['completion'])} within {r['budget']}" in loop
    assert "success rate of attempt 1" in loop


@pytest.mark.filterwarnings("ignore::UserWarning")  # the library's own notes, also shown in the report
def test_forecast_and_intervals_are_the_library_results(bench, rep):
    import passcurve as pc
    from passcurve.report._adapters import forecast_grid

    cnt = bench.counts
    data = rep.data
    k_max = int(data.curve.k[-1])
    # interval bands: exactly passcurve.curve_intervals on the same k
    ci = pc.curve_intervals(cnt, data.curve.k, metric=["pass_at_k", "pass_pow_k"], method="analytic")
    for m in ("pass_at_k", "pass_pow_k"):
        np.testing.assert_array_equal(data.curve.intervals[m][0], ci.intervals[m][0])
        np.testing.assert_array_equal(data.curve.intervals[m][1], ci.intervals[m][1])
    # forecast beyond n: exactly passcurve.forecast with the report's level and refits and otherwise the library's
    # defaults (same seed), so `passcurve forecast --confidence-level 0.95 --n-resamples R` reproduces it (the
    # report used 3 self-backtest thinnings instead of 10 until the eleventh session)
    K = forecast_grid(k_max, 100 * k_max if 100 * k_max >= 10_000 else 10_000)
    fc = pc.forecast(cnt, K, confidence_level=0.95, n_resamples=FAST["forecast_resamples"], rng=0)
    for i, m in enumerate(fc.models):
        fk, fail, flo, fhi = data.fits[m]["forecast"]
        np.testing.assert_array_equal(fk, fc.k)
        np.testing.assert_allclose(fail, 1 - fc.pass_at_k[i], rtol=0, atol=0)
        assert f"{fc.pass_at_k[i, -1]:.3f} [{fc.low[i, -1]:.3f}, {fc.high[i, -1]:.3f}]" in data.fits[m]["labels"]["forecast"]
        # beside it, the range over every law the data allow: exactly passcurve.extrapolation_bounds at 2n and K, on
        # the band the forecast's interval was clipped to (ForecastResult.bounds; it had drawn a band of its own)
        b = fc.bounds([2 * k_max, int(K[-1])], [m])
        assert b.low[0, -1] <= fc.low[i, -1] <= fc.high[i, -1] <= b.high[0, -1]
        for j, kk in enumerate(b.k):
            assert f"pass@{int(kk):,} in [{b.low[0, j]:.3f}, {b.high[0, j]:.3f}]" in data.fits[m]["labels"]["forecast"]
    # power law: passcurve.fit_power_law's a and b, 4 significant digits as fit's title writes them (.4g: 2.18)
    pl = pc.fit_power_law(cnt)
    for i, m in enumerate(pl.models):
        assert f"{pl.a[i]:.4g}·k<sup>−{pl.b[i]:.4g}</sup>" in data.fits[m]["labels"]["power law"]
    failure = rep.html[rep.html.index('id="failure"') : rep.html.index('id="naive"')]
    assert "power law" in failure and "prediction interval" in failure and "Any difficulty law the data allow" in failure
    hist = rep.html[rep.html.index('id="histogram"') : rep.html.index('id="models"')]
    assert "fitted" in hist


def test_expected_difficulty_shares_match_the_histogram_of_the_pmf():
    # reference: the fitted pmf at every c, binned by np.histogram on c/n (what the report
    # computed before it used pmf_bins); exact below n = 2^14, trapezoid nodes above
    from passcurve import BetaBinomial
    from passcurve.report._adapters import _expected_shares

    rng = np.random.default_rng(0)
    for n, rtol in ((300, 1e-12), (20_000, 1e-5)):
        ns = np.full(40, n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = BetaBinomial().fit(n=ns, c=rng.binomial(ns, rng.beta(0.4, 2.0, 40)))
        cs = np.arange(n + 1, dtype=np.float64)
        pmf = fit.pmf(np.full_like(cs, n), cs)
        for edges in (np.linspace(0, 1, 21), np.logspace(-4, 0, 17)):
            pos = cs > 0 if edges[0] > 0 else np.ones(cs.size, bool)
            ref, _ = np.histogram(cs[pos] / n, bins=edges, weights=pmf[pos])
            got = _expected_shares(fit, ns)(edges, n)
            keep = ref > 1e-9
            np.testing.assert_allclose(got["shares"][keep], ref[keep], rtol=rtol)
            assert got["zero"] == pytest.approx(float(pmf[0]), rel=1e-12)


def test_report_under_a_stop_at_success_design():
    # counts from a stop-at-first-successful-batch design (batch 5, cap 40) for two models: the report's
    # pass@k numbers are the stopping-time estimates (reference: passcurve.curve with the same design,
    # itself checked against the per-problem estimator), the per-problem table holds the per-problem
    # estimates, the comparison is paired under the design, and the sections that assume n fixed in
    # advance are omitted with a note saying why
    from passcurve import StopAtSuccess, stopping_pass_at_k

    rng = np.random.default_rng(4)
    n, c, model = [], [], []
    for name, a in (("A", 0.5), ("B", 0.3)):
        for p in rng.beta(a, 6.0, 80):
            drawn = 0
            while True:
                hits = int(rng.binomial(5, p))
                drawn += 5
                if hits or drawn >= 40:
                    n.append(drawn), c.append(hits), model.append(name)
                    break
    prob = [f"p{i}" for i in range(80)] * 2
    cnt = Counts.from_arrays(n, c, problem=prob, model=model)
    design = StopAtSuccess(batch=5, cap=40)
    rep = build_report(cnt, design=design, **FAST)
    ref = curve(cnt, rep.data.curve.k, design=design)
    np.testing.assert_allclose(rep.data.curve.values["pass_at_k"], ref.values["pass_at_k"], rtol=1e-13)
    assert rep.data.curve.design == "stop at success (batch 5, cap 40)" and int(rep.data.curve.k[-1]) == 40
    col = rep.data.problem_columns["pass@10"]
    np.testing.assert_allclose(col, stopping_pass_at_k(np.array(n), np.array(c), 10, batch=5, cap=40), rtol=1e-15)
    assert not any(k.startswith("pass^") for k in rep.data.problem_columns)
    assert rep.data.comparisons and all(r.design == design.label() and r.paired for r in rep.data.comparisons)
    omitted = rep.omitted()
    assert {"naive", "pass-pow-k", "hidden-difficulty"} <= set(omitted)
    assert "stopping time" in omitted["hidden-difficulty"]
    assert "n is a stopping time" in rep.data.notes["histogram"] and not rep.data.fitted_shares
    assert "The fit itself holds" in rep.data.notes["histogram"]  # the fit's likelihood holds under stopping
    # the stopping-time warning has been acted on: it stays in the flags, not in the banner or the loop caption
    warned = build_report(cnt, design=design, input_warnings=[("StoppingTimeWarning", "n looks like a stop")], **FAST)
    loop = warned.html[warned.html.index('id="loop"'): warned.html.index('id="pass-at-k"')]
    assert "n looks like a stop" not in loop and 'id="banner"' not in warned.html
    flags = warned.html[warned.html.index('id="flags"'):]
    assert "n looks like a stop" in flags
    # ... and says it was acted on, since its advice (name the design) reads as not followed otherwise
    assert "Acted on: this report estimates under the stop at success (batch 5, cap 40) design." in flags

    # the power law and the forecast are drawn, from the stopping-time curve (reference: fit_power_law
    # with the same design)
    from passcurve import fit_power_law

    pl = fit_power_law(cnt, design=design)
    for i, m in enumerate(pl.models):
        kk, fail = rep.data.fits[m]["power_law"]
        np.testing.assert_allclose(fail, 1.0 - pl.predict(kk)[i], rtol=1e-12)
        assert "forecast" in rep.data.fits[m]
    assert "stopping-time estimator" in rep.html


def test_ranks_are_the_library_result_and_are_shown(bench, rep):
    # the model-comparison section carries rank_models at the comparisons' k, every cell from the RankResult
    from passcurve import rank_models

    rk = rep.data.ranks
    assert rk is not None and list(rk.k) == [1, 10, 100, 200]
    again = rank_models(bench.counts, rk.k, n_resamples=rk.n_resamples, rng=0)
    np.testing.assert_allclose(rk.estimate, again.estimate, rtol=1e-12)
    section = rep.html[rep.html.index('id="models"'):rep.html.index('id="hidden-difficulty"')]
    assert "Ranks with 95% simultaneous intervals" in section
    score = number_format([r["estimate"] for r in rk.table(0)])  # the column's one notation
    for r in rk.table(0):
        span = str(r["rank"]) if r["rank_low"] == r["rank_high"] else f"{r['rank_low']}–{r['rank_high']}"
        assert f"<td class=\"text\">{span} ({score(r['estimate'])})</td>" in section


def test_ranks_that_cannot_be_computed_leave_the_comparisons_with_a_reason():
    # two models on different problems: compare falls back to unpaired, ranking needs shared problems
    from passcurve import Counts

    cnt = Counts.from_arrays([20] * 6, [1, 2, 3, 4, 5, 6], problem=["a", "b", "c", "d", "e", "f"],
                             model=["x"] * 3 + ["y"] * 3)
    rep2 = build_report(cnt, **FAST)
    assert rep2.data.ranks is None and rep2.data.comparisons
    assert "Ranks not shown: the models share 0 problem(s)" in rep2.data.notes["ranks"]
    assert "Ranks not shown" in rep2.html


def test_each_model_runs_to_its_own_smallest_n():
    # one model sampled 1000 times, one 10 times: the default report runs each model's curve, coverage and
    # forecast from its own smallest n; the comparisons stay at the k every problem reaches
    cnt = Counts.from_arrays([1000] * 4 + [10] * 4, [3, 40, 900, 0, 1, 2, 5, 0], problem=["a", "b", "c", "d"] * 2,
                             model=["deep"] * 4 + ["shallow"] * 4)
    rep2 = build_report(cnt, **FAST)
    d = rep2.data
    i, j = d.curve.models.index("deep"), d.curve.models.index("shallow")
    assert int(d.curve.k[-1]) == 1000
    # the deep model's curve is the one it has alone (same estimator, its own rows), to k = 1000
    alone = curve(cnt.select_models(["deep"]), d.curve.k)
    np.testing.assert_allclose(d.curve.values["pass_at_k"][i], alone.values["pass_at_k"][0], rtol=1e-12)
    # the shallow model has values up to its n = 10 and NaN (0 problems) beyond, never a mean over a subset
    beyond = d.curve.k > 10
    assert np.isfinite(d.curve.values["pass_at_k"][j, ~beyond]).all()
    assert np.isnan(d.curve.values["pass_at_k"][j, beyond]).all() and (d.curve.problems[j, beyond] == 0).all()
    assert not any(cat == "DroppedProblemsWarning" for cat, _ in d.warnings)
    head = rep2.html[: rep2.html.index('id="loop"')]
    assert "Curves run to each model's smallest n: k = 10 for shallow, 1,000 for deep. Comparisons use k ≤ 10" in head
    loop = rep2.html[rep2.html.index('id="loop"'): rep2.html.index('id="pass-at-k"')]
    assert "coverage pass@n" in loop and "at k = 1,000" in loop and "at k = 10<" in loop
    # forecasts start where each model's data end
    assert d.fits["shallow"]["forecast"][0][0] == 10 and d.fits["deep"]["forecast"][0][0] == 1000
    assert d.fits["shallow"]["power_law"][0][0] == 1
    # a model with one sample per problem beside one with 100: the second keeps its forecast and pass^8, the first
    # says why it has no forecast (one sample identifies only the mean)
    g = np.random.default_rng(1)
    p = g.beta(0.5, 2, size=30)
    one = Counts.from_arrays(np.r_[np.full(30, 100), np.ones(30, int)], np.r_[g.binomial(100, p), g.binomial(1, p)],
                             problem=[f"q{i}" for i in range(30)] * 2, model=["many"] * 30 + ["one"] * 30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r1 = build_report(one, **FAST)
    assert "forecast" in r1.data.fits["many"] and "forecast" not in r1.data.fits["one"]
    assert r1.data.fits["one"]["labels"]["forecast"].startswith("not shown: model 'one': every problem has one sample")
    assert r1.data.pow_k == 8 and np.isnan(r1.data.curve.values["pass_pow_k"][1, list(r1.data.curve.k).index(8)])
    assert np.isnan(r1.data.problem_columns["pass^8"][30:]).all() and np.isfinite(r1.data.problem_columns["pass^8"][:30]).all()
    # "raise" keeps the file's common range, with the note naming the model sampled further
    old = build_report(cnt, k_gt_n="raise", **FAST)
    head = old.html[: old.html.index('id="loop"')]
    assert "Curves run to k = 10. Some models were sampled further: deep (n ≥ 1,000)" in head
    assert "Some models were sampled further" not in build_report(cnt.select("deep"), **FAST).html


def test_model_names_are_text_in_the_charts_and_the_explorer_link_is_escaped(tmp_path):
    # plotly renders trace names and subplot titles as markup: a model "<b>x</b>" was bold and an <a> a live link
    # (report audit); a long name squeezed the plot to ~60 px. Names go to plotly escaped and cut in the middle.
    import json

    from passcurve.report._sections import LABEL_CHARS

    markup = '<b>x</b>&amp;<a href="https://e">l</a>'  # 38 characters: not cut
    long_a, long_b = "run-" + "L" * 300 + "-temp-0.7", "run-" + "L" * 300 + "-temp-1.0"
    cnt = Counts.from_arrays([20] * 12, [1, 5, 9, 20, 0, 3, 7, 12, 2, 4, 6, 8], problem=["a", "b", "c", "d"] * 3,
                             model=[markup] * 4 + [long_a] * 4 + [long_b] * 4)
    rep = build_report(cnt, **FAST)
    names = set()
    for m in re.finditer(r'Plotly\.newPlot\(\s*"[^"]+",\s*(\[.*?\]),\s*\{', rep.html, re.S):
        names |= {t.get("name") for t in json.loads(m.group(1)) if t.get("name")}
    assert html.escape(markup, quote=False) in names and markup not in names
    cut = {x for x in names if "…" in x and "interval" not in x and " " not in x}
    assert len(cut) == 2 and all(len(x) == LABEL_CHARS for x in cut)  # still two names, told apart by their ends
    assert {x[-8:] for x in cut} == {"temp-0.7", "temp-1.0"}
    # the explorer's link back to a report whose file name is HTML: percent-encoded, no markup
    out = rep.write(tmp_path / 'a"><img src=x onerror=alert(1)> #1 50%.html')
    explorer = (tmp_path / "explorer.html").read_text(encoding="utf-8")
    assert "<img" not in explorer
    assert 'href="a%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E%20%231%2050%25.html"' in explorer
    assert out.exists()


def test_thin_means_are_warned_once_not_once_per_model():
    # 6 models x 5 problems: the curves' intervals warn once for all models; the any-law band behind the forecast
    # label warned again per model about an interval the report does not show (report audit: 21 flags for 20 models)
    rng = np.random.default_rng(0)
    c = rng.integers(0, 21, 30)
    cnt = Counts.from_arrays([20] * 30, c, problem=[f"p{i}" for i in range(5)] * 6,
                             model=[f"model{j}" for j in range(6) for _ in range(5)])
    data = compute_report_data(cnt, **FAST)
    degenerate = [m for cat, m in data.warnings if cat == "DegenerateDataWarning"]
    thin = [m for m in degenerate if "the mean rests on" in m]
    assert [m.split(":")[0] for m in thin] == ["pass@k", "pass^k"]
    assert all("for 6 models" in m for m in thin)
    # the comparisons' few-problems note (5 problems) is folded into one statement naming the pairs; its
    # parenthesis is the same for every pair, so it is said once (it was repeated per pair)
    pairs = [m for m in degenerate if "rests on few problems" in m]
    assert len(pairs) == 1 and pairs[0].startswith("pairs of models 'model2' vs 'model0', 'model2' vs 'model1', ")
    assert pairs[0].count("fewer than 10 carry it") == 1
    # the forecast's law rests on 5 problems per model: said once for the 6 models
    law = [m for m in degenerate if "the difficulty law rests on fewer than 10" in m]
    assert len(law) == 1 and law[0].startswith("models 'model0', 'model1', ") and "5 problems;" in law[0]
    assert len(degenerate) == 4


def test_a_few_short_problems_stopping_the_curves_are_pointed_out():
    # n from 1 to ~10^4: under k_gt_n="nan" the curves stop at k = 1 (pass@2 is undefined for the n = 1 problem);
    # the header said only "Curves run to k = 1" (report audit)
    n = np.array([1, 3, 5000, 6000, 7000, 8000, 9816])
    cnt = Counts.from_arrays(n, n // 3, model="m")
    rep = build_report(cnt, parts=set())
    top = rep.html[: rep.html.index('id="loop"')]
    assert "Curves run to k = 1." in top and "median n = 6,000" in top and "2 of 7 have fewer" in top
    assert "--drop-k-gt-n" in top
    # equal n: nothing to point out
    eq = build_report(Counts.from_arrays([20] * 4, [1, 2, 3, 4], model="m"), parts=set())
    assert "Most problems have far more samples" not in eq.html


def test_hidden_difficulty_caption_follows_the_estimates():
    # "alike": every problem c = 10 of n = 20, so the unbiased P(both right) = 10*9/(20*19) = 0.2368 < mu^2 = 0.25
    # and the actual pass@k is above the independent curve; the caption said "falls below" for every model
    # (report audit). "spread": c from 0 to 20, well below it.
    cnt = Counts.from_arrays([20] * 12, [10] * 6 + [0, 20, 1, 19, 2, 18], problem=[f"p{i}" for i in range(6)] * 2,
                             model=["alike"] * 6 + ["spread"] * 6)
    rep = build_report(cnt, parts={"diagnostics"}, **FAST)
    sec = rep.html[rep.html.index('id="hidden-difficulty"'): rep.html.index('id="problems"')]
    assert "for 1 of 2 models, not for alike" in sec
    one = build_report(cnt.select("spread"), parts={"diagnostics"}, **FAST)
    sec = one.html[one.html.index('id="hidden-difficulty"'): one.html.index('id="problems"')]
    assert "falls below independent coin flips at the average rate (dashed)." in sec


def test_table_number_formats():
    # report audit: "3.43e-07%" in a percentage column, "-3.68e-05" for an ICC, "3.33e-08" in a comparison
    # interval, "[-, -]" under a value whose interval is undefined
    from passcurve.report._sections import _with_interval, fmt_fixed, fmt_pct3

    assert fmt_pct3(3.43e-9) == "<0.001%" and fmt_pct3(0.000539) == "0.0539%" and fmt_pct3(0.0232) == "2.32%"
    assert fmt_fixed(-3.68e-5, 3) == "0.000" and fmt_fixed(3.33e-8) == "0.0000" and fmt_fixed(-0.01234) == "−0.0123"
    assert fmt_fixed(float("nan")) == "-"
    from passcurve import DegenerateDataWarning, curve_intervals

    with pytest.warns(DegenerateDataWarning, match="fewer than 2 problems"):  # one problem: no interval
        cur = curve_intervals(Counts.from_arrays([5], [2], model="m"), k=[1])
    assert str(_with_interval(cur, "pass_at_k", 0, 0)) == "0.4000"  # c/n = 2/5, and no "[-, -]"


def test_sections_say_what_they_draw_on_degenerate_data():
    # report audit: with n = 1 the failure chart's legend and caption named a power law and a forecast that were
    # not drawn, and the pass^k chart showed pass^1 while the four numbers said pass^k needs 2 samples; with
    # nothing solved the pass^k chart was blank on a 0.1..10^4 axis; a flat curve's label said "through 2 points"
    n1 = build_report(Counts.from_arrays([1] * 6, [1, 0, 0, 1, 0, 1], model="m"), parts={"fits"}, **FAST)
    fail = n1.html[n1.html.index('id="failure"'): n1.html.index('id="naive"')]
    assert "Dashed: least-squares power law" not in fail and "every problem has one sample" in fail
    assert "pass^k needs at least 2 samples per problem" in n1.omitted()["pass-pow-k"]
    none = build_report(Counts.from_arrays([20] * 6, [0] * 6, model="m"), parts=set(), **FAST)
    assert "below 1e-06 for every model" in none.omitted()["pass-pow-k"]
    every = build_report(Counts.from_arrays([20] * 6, [20] * 6, model="m"), parts=set(), **FAST)
    assert "the failure rate is 0 at every k" in every.html
    # flat: problem 1 never solved, problem 2 always: pass@k = 1/2 at every k, a line of slope 0 with R² undefined
    flat = build_report(Counts.from_arrays([30, 30], [0, 30], model="B"), parts={"fits"}, **FAST)
    assert "(a flat curve: R² undefined)" in flat.html and "through 2 points" not in flat.html
    # a model whose curve is 1 at every k beside one that has a law: the table says why the first has none
    two = build_report(Counts.from_arrays([20] * 8, [20, 20, 20, 20, 1, 5, 9, 0], problem=list("abcd") * 2,
                                          model=["all"] * 4 + ["some"] * 4), parts={"fits"}, **FAST)
    assert "not fitted: pass_D@k is 0 or 1 at 20 of its 20 points" in two.html
    # said there once: fit_power_law's DegenerateDataWarning (it emits its notes now) is not in the warnings too,
    # and the model's forecast warning is
    said = [m for _, m in two.data.warnings if m.startswith("model 'all': ")]
    assert said and not any("cannot be fitted" in m for m in said), said
    assert any("every problem has c = n" in m for m in said), said


def test_hidden_difficulty_caption_reads_each_model_at_its_own_range():
    # models sampled to different n: under k_gt_n="nan" the one with n = 20 has no estimate at k = 64, and the
    # caption read that NaN as "at k = 64 the estimate is at or above the independent curve" (report audit: a model
    # with ICC 0.26, well below the independent curve at its own k = 16)
    spread = [0, 20, 1, 19, 2, 18, 3, 17]
    cnt = Counts.from_arrays([20] * 8 + [80] * 8, spread + [4 * c for c in spread],
                             problem=[f"p{i}" for i in range(8)] * 2, model=["short"] * 8 + ["long"] * 8)
    rep = build_report(cnt, parts={"diagnostics"}, **FAST)
    sec = rep.html[rep.html.index('id="hidden-difficulty"'): rep.html.index('id="problems"')]
    assert "falls below independent coin flips at the average rate (dashed) for every model." in sec
    assert "not for short" not in sec
    # two alike models (c = n/2 on every problem) ending at different k: each named with its own k
    alike = Counts.from_arrays([20] * 6 + [80] * 6 + [20] * 6, [10] * 6 + [40] * 6 + [0, 20, 1, 19, 2, 18],
                               problem=[f"p{i}" for i in range(6)] * 3,
                               model=["a20"] * 6 + ["a80"] * 6 + ["spread"] * 6)
    rep = build_report(alike, parts={"diagnostics"}, **FAST)
    sec = rep.html[rep.html.index('id="hidden-difficulty"'): rep.html.index('id="problems"')]
    assert "for 1 of 3 models, not for a20 (k = 16), a80 (k = 64): at the k given, the estimate is at or above" in sec


def test_hidden_difficulty_says_why_an_icc_is_undefined():
    # every answer wrong (or every one right): ICC 0/0, a '-' in the table with no word why (API fuzz, session 32).
    # The caption says it: the warnings list keeps one DegenerateDataWarning per model, so there the library's
    # warning can give way to an earlier one about the same model
    cnt = Counts.from_arrays([20] * 9, [0, 0, 0, 20, 20, 20, 3, 9, 14], problem=list("abc") * 3,
                             model=["none"] * 3 + ["all"] * 3 + ["some"] * 3)
    rep = build_report(cnt, parts={"diagnostics"}, **FAST)
    sec = rep.html[rep.html.index('id="hidden-difficulty"'): rep.html.index('id="problems"')]
    assert ("ICC '-' for none (every answer wrong; P(2nd | 1st right) too, with no first answer right), all (every "
            "answer right): the outcomes do not vary, so σ²/(μ(1 − μ)) is 0/0 and the ICC is undefined.") in sec
    assert "nan" not in sec.lower().replace("nano", "")
    flat = build_report(Counts.from_arrays([20] * 3, [3, 9, 14], model="m"), parts={"diagnostics"}, **FAST)
    assert "and the ICC is undefined" not in flat.html


def test_comparison_caption_says_unpaired_when_the_models_ran_on_different_problems():
    # report audit: models on partly different problems are compared unpaired (the table's "paired" column says "no",
    # "problems" reads "35 / 30", Welch's t), while the caption said "paired on shared problems"
    cnt = Counts.from_arrays([30] * 10, [3, 9, 14, 20, 27, 1, 4, 8, 15, 22],
                             problem=["p0", "p1", "p2", "p3", "p4", "p2", "p3", "p4", "p5", "p6"],
                             model=["A"] * 5 + ["B"] * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = build_report(cnt, parts={"compare"}, **FAST)
    sec = rep.html[rep.html.index('id="models"'): rep.html.index('id="hidden-difficulty"')]
    assert "<td>no</td>" in sec and "paired on shared problems" not in sec
    assert "unpaired: the models ran on different problems" in sec
    # the ranks are on the 3 shared problems: their bracketed scores are not the table's pass@k above (A's pass@1
    # over its 5 problems 0.4867, over the shared 3 (14 + 20 + 27)/90 = 0.6778), and the caption says so
    assert "1 (0.6778)" in sec and "<td>0.4867</td>" in sec
    assert "In brackets: the score on those problems, not the table's above" in sec
    # the same problems: paired, as before
    same = build_report(Counts.from_arrays([30] * 6, [3, 9, 14, 1, 4, 8], problem=["p0", "p1", "p2"] * 2,
                                           model=["A"] * 3 + ["B"] * 3), parts={"compare"}, **FAST)
    sec = same.html[same.html.index('id="models"'): same.html.index('id="hidden-difficulty"')]
    assert "<td>yes</td>" in sec and "; paired on shared problems (passcurve.compare)." in sec
    assert "In brackets: the score.</p>" in sec


def test_short_runs_are_counted_as_model_problem_pairs_when_there_are_several_models():
    # report audit (BoN): the header read "159 problems" and then "422 of 1,113 have fewer than half the median",
    # counting (model, problem) rows as if they were problems
    n = np.array([1, 3, 5000, 6000, 7000, 8000, 9816])
    cnt = Counts.from_arrays(np.concatenate([n, n]), np.concatenate([n // 3, n // 4]),
                             problem=[f"p{i}" for i in range(7)] * 2, model=["a"] * 7 + ["b"] * 7)
    top = build_report(cnt, parts=set()).html
    top = top[: top.index('id="loop"')]
    assert "7 problems" in top and "Most (model, problem) pairs have far more samples" in top
    assert "4 of 14 pairs have fewer than half the median" in top


def test_median_n_is_printed_whole():
    # report audit: the comparison table's "n (median)" went through ":g", so a median of 2,000,001 samples read
    # "2e+06" and 1,234,567 "1.23457e+06"; a median of two n is a whole number or a half
    from passcurve.report._sections import comparison_section

    cnt = Counts.from_arrays([1234567, 2000001, 3000000, 7, 8], [5, 40, 900, 1, 2], model=["m"] * 3 + ["h"] * 2,
                             problem=["a", "b", "c", "a", "b"])
    tab = curve(cnt, [1], k_gt_n="nan")
    sec = comparison_section(tab, cnt).body
    assert "<td>2000001</td>" in sec and "<td>7.5</td>" in sec and "e+06" not in sec
    # the header's median, where a few short runs stop the curves: 6.5 read "6" (round half to even)
    top = build_report(Counts.from_arrays([1, 3, 10, 3000, 6000, 7000, 8000, 9000], [1] * 8, model="m"),
                       parts=set()).html
    assert "median n = 4,500.0" not in top and "median n = 4,500," in top
    half = build_report(Counts.from_arrays([1, 2, 11, 12], [1] * 4, model="m"), parts=set()).html
    assert "median n = 6.5," in half


def test_first_try_caption_names_which_models_read_attempt_1():
    # report audit (Pythia samples with --retries): 70M's attempts test independent, so its first-try cell is the
    # mean of c/n, while the caption said attempt 1's rate is shown "where the attempt order is known" (it is known
    # for 70M too)
    from passcurve.report._sections import loop_numbers_section

    cnt = Counts.from_arrays([10] * 6, [1, 2, 3, 4, 5, 6], problem=["a", "b", "c"] * 2, model=["dep"] * 3 + ["ind"] * 3)
    cur = curve(cnt, [1, 2, 10])
    r = {"budget": 10, "completion": 1.0, "sub": "attempts dependent (asymptotic p = 0.001)", "first_try": 0.0}
    both = loop_numbers_section(cur, None, {"dep": r, "ind": r}).body
    assert "read from the attempt order)" in both and "where the attempt order is known" not in both
    one = loop_numbers_section(cur, None, {"dep": r}).body
    assert "for the models whose attempts are dependent or stop at the first success, as the cell says; else the " \
           "mean of c/n)" in one
    # the budget with thousands separators, as the coverage header beside it ("87.5% within 10000" under
    # "coverage pass@10,000")
    big = {"budget": 10000, "completion": 0.875, "sub": "attempts dependent", "first_try": 0.02}
    assert "87.5% within 10,000<br>" in loop_numbers_section(cur, None, {"dep": big}).body


def test_header_counts_in_the_right_number():
    # report audit: one sample per problem read "n = 1 samples per problem", one problem "1 problems"
    top = build_report(Counts.from_arrays([1, 1], [1, 0], model="m"), parts=set()).html
    assert "2 problems · n = 1 sample per problem · 2 samples in all." in top
    one = build_report(Counts.from_arrays([5], [2], model="m"), parts=set()).html
    assert "1 problem · n = 5 samples per problem · 5 samples in all." in one


def test_power_law_label_says_where_it_was_fitted_when_the_curve_runs_further():
    # report audit (BoN with --drop-k-gt-n): the observed curve and the dashed power law run to k = 10,020 over the
    # problems sampled that far, but fit_power_law fits k <= the smallest n (60); the label did not say so
    rng = np.random.default_rng(0)
    n = np.array([20] * 10 + [200] * 10)
    c = rng.binomial(n, rng.beta(0.5, 3, n.size))
    cnt = Counts.from_arrays(n, c, model="m")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        drop = build_report(cnt, parts={"fits"}, k_gt_n="drop", **FAST)
        nan = build_report(cnt, parts={"fits"}, **FAST)
    assert "; fitted on k ≤ 20, where every problem enters the mean)" in drop.data.fits["m"]["labels"]["power law"]
    assert "fitted on" not in nan.data.fits["m"]["labels"]["power law"]  # the curve stops at 20 as the fit does


def _leaderboard(models: int, problems: int, n: int = 20, seed: int = 0) -> Counts:
    """``models`` x ``problems`` counts, rows sorted by model as a leaderboard file is."""
    g = np.random.default_rng(seed)
    p = g.beta(0.5, 2.0, size=(models, problems))
    return Counts.from_arrays(np.full(models * problems, n), g.binomial(n, p).ravel(),
                              problem=np.tile([f"q{j:05d}" for j in range(problems)], models),
                              model=np.repeat([f"model-{i:02d}" for i in range(models)], problems))


def test_capped_problem_table_shows_every_model_on_the_same_problems():
    # at scale (audit: 60 models x 5000 problems) the table held the file's first 5000 rows, i.e. model 0 alone:
    # filtering by any other model found nothing. Now whole problems, every model's row of each, as many as fit
    from passcurve.report._sections import per_problem_section

    counts = _leaderboard(30, 100)
    sec = per_problem_section(counts, {}, max_rows=500)
    body = sec.body[sec.body.index("<tbody>"):]
    rows = re.findall(r"<tr><td class=\"text\">(.*?)</td><td class=\"text\" data-sort=\"\d+\">(.*?)</td>", body)
    assert len(rows) == 480  # 16 whole problems x 30 models (a 17th would not fit)
    assert {m for m, _ in rows} == set(counts.models)
    assert {q for _, q in rows} == {f"q{j:05d}" for j in range(16)}
    assert "Showing 480 of 3,000 rows: 16 of 100 problems, the first each model lists" in sec.note
    # models run on different problems: each model's first problems in turn, not model 0's alone
    own = Counts.from_arrays(counts.n, counts.c, model=counts.model,
                             problem=np.char.add(counts.model.astype(str), np.char.add("/", counts.problem.astype(str))))
    sec = per_problem_section(own, {}, max_rows=500)
    rows = re.findall(r"<tr><td class=\"text\">(.*?)</td><td class=\"text\" data-sort=\"\d+\">(.*?)</td>", sec.body)
    got = {m: sum(r == m for r, _ in rows) for m in own.models}
    assert len(rows) == 500 and set(got.values()) == {16, 17}  # 500 = 20 models x 17 + 10 x 16
    assert all(int(q[-5:]) < 17 for _, q in rows)  # each model's first problems
    # under the cap, every row as before, no note
    small = per_problem_section(_leaderboard(3, 10), {}, max_rows=500)
    assert small.note is None and small.body.count("<tr>") == 31


def test_problem_table_with_few_samples_has_pass_at_k_columns():
    # with n <= 10 no round k (10, 100, ...) lies below n and the table had c/n and pass^4 alone: now pass@k at the
    # doubling k of the pass^k columns. Reference by hand: n = 5, c = 1: pass@2 = 1 - C(4,2)/C(5,2) = 1 - 6/10 = 0.4,
    # pass@4 = 1 - C(4,4)/C(5,4) = 1 - 1/5 = 0.8, pass^4 = C(1,4)/C(5,4) = 0
    from passcurve.report._build import _problem_ks

    cnt = Counts.from_arrays([5, 5, 5], [1, 3, 0], problem=["a", "b", "c"], model="m")
    d = compute_report_data(cnt, parts=set())
    assert list(d.problem_columns) == ["pass@2", "pass@4", "pass^4"]
    assert d.problem_columns["pass@2"][0] == pytest.approx(0.4, abs=1e-15)
    assert d.problem_columns["pass@4"][0] == pytest.approx(0.8, abs=1e-15)
    assert d.problem_columns["pass^4"][0] == 0
    # larger n keeps the round k; n = 10 has 2, 4, 8; n = 2 none (pass@2 is c > 0)
    assert _problem_ks(1000, 1000) == [10, 100] and _problem_ks(20, 20) == [10] and _problem_ks(10, 10) == [2, 4, 8]
    assert _problem_ks(2, 2) == []
    body = build_report(cnt, parts=()).html
    assert "<th>pass@2</th><th>pass@4</th><th>pass^4</th><th>flag</th>" in body
    assert "<b>pass@4</b>: the chance that at least one of 4 samples of the problem is right" in body


def test_problem_table_orders_problems_naturally():
    # read_counts and the table sorted problem ids as text: "p10" before "p2", "10" before "2". Now numbers by value,
    # then names by their runs of digits; the problem cells carry that rank for report.js's click-to-sort
    from passcurve.report._sections import natural_key, per_problem_section

    names = ["p10", "p2", "p1", "10", "2", "q1b", "q1a", "1.5", "P3", "p02"]
    assert sorted(names, key=natural_key) == ["1.5", "2", "10", "p1", "p02", "p2", "P3", "p10", "q1a", "q1b"]
    cnt = Counts.from_arrays([4] * 20, [1] * 20, problem=names * 2, model=["b"] * 10 + ["a"] * 10)
    sec = per_problem_section(cnt, {}, max_rows=100)
    rows = re.findall(r'<tr><td class="text">(.*?)</td><td class="text" data-sort="(\d+)">(.*?)</td>', sec.body)
    want = ["1.5", "2", "10", "p1", "p02", "p2", "P3", "p10", "q1a", "q1b"]
    # each model's rows together, models as the file lists them
    assert [(m, q) for m, _, q in rows] == [("b", q) for q in want] + [("a", q) for q in want]
    assert [int(r) for _, r, _ in rows] == list(range(10)) * 2
    assert '<table id="problem-table" class="sortable">' in sec.body
    # capped: the problems kept are the first in that order (p1..p10 beside 1.5, 2, 10), not the first as text
    sec = per_problem_section(cnt, {}, max_rows=10)
    rows = re.findall(r'<tr><td class="text">(.*?)</td><td class="text" data-sort="\d+">(.*?)</td>', sec.body)
    assert [q for _, q in rows] == want[:5] * 2 and "Every row: Counts.to_frame()" in sec.note


def _figure_json(body: str) -> list[dict]:
    """The plotly figures' data and layout in a section body (Plotly.newPlot(id, data, layout, config))."""
    import json

    out = []
    for m in re.finditer(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*", body):
        dec = json.JSONDecoder()
        data, end = dec.raw_decode(body, m.end())
        layout, _ = dec.raw_decode(body, body.index("{", end))
        out.append({"data": data, "layout": layout})
    return out


def test_charts_of_many_models_hover_one_line_and_key_the_styles_first():
    # with 60 models "x unified" hovered a box of 60+ lines, taller than the chart and cut off, and the style key
    # ("power law", "naive plug-in") sat below 60 legend entries (audit at scale)
    from passcurve.report import _sections as S

    for models, many in ((30, True), (4, False)):
        counts = _leaderboard(models, 40)
        cur = curve(counts, report_k_grid(20))
        for sec in (S.passk_section(cur), S.naive_section(cur), S.passpow_section(cur)):
            (fig,) = _figure_json(sec.body)
            assert fig["layout"]["hovermode"] == ("closest" if many else "x unified")
            keys = [t for t in fig["data"] if str(t.get("meta", "")).startswith("style-key:")]
            assert all(t.get("legendrank") == (1 if many else None) for t in keys)
            lines = [t for t in fig["data"] if t.get("hoverinfo") != "skip"]
            assert all(t["hovertemplate"].startswith("k = %{x:,}: ") == many for t in lines)
            assert ("Hover a line for its model" in sec.body) == many
            assert ("Colours repeat after 20 models" in sec.body) == (models > 20)
    # the fits table under the failure chart (one row of long text per model) scrolls in a box beyond a few models
    for models in (30, 4):
        cur = curve(_leaderboard(models, 40), report_k_grid(20))
        sec = S.failure_section(cur, {m: {"labels": {"power law": "fitted"}} for m in cur.models})
        assert ('<div class="wide fits scroll">' in sec.body) == (models > S.MANY_MODELS)


def test_every_chart_says_which_axes_are_logarithmic_and_what_it_shows(rep):
    # user review: the log axes' titles did not say so (the ticks 1, 10, 100 left a reader to infer it), and the
    # pass@k chart's only caption was about its band (none at all without one)
    seen = 0
    for sec in rep.sections:
        for fig in _figure_json(sec.body):
            for name, axis in fig["layout"].items():
                if re.fullmatch(r"[xy]axis\d*", name) and axis.get("type") == "log" and axis.get("title"):
                    seen += 1  # (the histogram's upper panels share the bottom one's title)
                    assert axis["title"]["text"].endswith("log scale)"), (sec.id, name, axis["title"])
                elif re.fullmatch(r"[xy]axis\d*", name):
                    assert "log scale" not in str(axis.get("title", "")), (sec.id, name)
            assert '<p class="caption">' in sec.body, sec.id  # one sentence at least says what the chart shows
    assert seen >= 6  # pass@k, failure (x and y), naive, pass^k (x and y), hidden difficulty
    (passk,) = [s for s in rep.sections if s.id == "pass-at-k"]
    assert "The share of problems solved by at least one of k samples" in passk.body


def test_plot_computes_only_the_metrics_of_its_panels(bench, tmp_path, capfd):
    # CLI audit: `plot --panels pass_at_k,naive` computed pass^k and its intervals anyway, and warned about them
    # ("pass_pow_k: the mean rests on fewer than 10 problems ..."); now only the panels' metrics are computed
    from passcurve.cli._app import run
    from passcurve.data import write_counts

    data = write_counts(bench.counts, tmp_path / "counts.csv")
    fig = str(tmp_path / "fig.png")
    assert run(["plot", str(data), "-o", fig, "--panels", "pass_at_k,pass_pow_k"]) == 0
    assert "DegenerateDataWarning: pass^k:" in capfd.readouterr().err  # drawn: its warning stays
    assert run(["plot", str(data), "-o", fig, "--panels", "pass_at_k,naive"]) == 0
    assert "pass^k" not in capfd.readouterr().err
    d = compute_report_data(bench.counts, parts={"intervals"}, metrics=["naive_pass_at_k"])
    assert set(d.curve.values) == set(d.table_curve.values) == {"pass_at_k", "naive_pass_at_k"}
    assert set(d.curve.intervals) == {"pass_at_k"} and d.pow_ks == () and d.pow_k is None
    assert not any(c.startswith("pass^") for c in d.problem_columns)
    assert not any("pass_pow_k" in m for _, m in d.warnings)
    assert set(compute_report_data(bench.counts, parts=set()).curve.values) == {"pass_at_k", "pass_pow_k",
                                                                               "naive_pass_at_k"}
    with pytest.raises(PasscurveError, match="`metrics` must be drawn from pass_at_k, pass_pow_k, naive_pass_at_k"):
        compute_report_data(bench.counts, metrics=["pie"])


def test_report_retries_read_only_the_models_asked_for(tmp_path, monkeypatch):
    # `report --retries --models agent` ran passcurve.retries on every model of the log (the attempt reader had no
    # models=); it now reads the attempts of the selected models only, as the counts are read
    import json

    import passcurve._retries as retries_module
    from passcurve.cli._app import run

    log = _retry_log()
    rows = [{"model": m, "problem_id": p, "attempt": int(a), "correct": bool(c)}
            for name in ("agent", "other")
            for m, p, a, c in zip([name] * len(log["model"]), log["problem_id"], log["attempt"], log["correct"],
                                  strict=True)]
    path = tmp_path / "retries.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    seen = []
    real = retries_module.retries

    def spy(problem, attempt, correct, *, model=None, **kw):
        seen.append(sorted(set(map(str, model))))
        return real(problem, attempt, correct, model=model, **kw)

    monkeypatch.setattr(retries_module, "retries", spy)
    assert run(["report", str(path), "-o", str(tmp_path / "r.html"), "--retries", "--models", "agent",
                "--forecast-resamples", "0", "--n-resamples", "100"]) == 0
    assert seen == [["agent"]]


def test_report_warnings_name_only_the_models_asked_for(tmp_path, capfd):
    # `passcurve report BoN --models GPT4o` warned "n looks like a stopping time for 7 model(s) (Claude 3.5 Opus,
    # Claude 3.5 Sonnet, GPT4o, ...)": the reader gathered the evidence over every model of the file, before the
    # selection; stderr and the page now name the selected model alone
    from passcurve.cli._app import run

    rng = np.random.default_rng(0)
    rows = []
    for m in ("stopA", "stopB"):  # both sample until a success (cap 30)
        for p in range(40):
            n = int(rng.integers(1, 30)) if p % 4 else 30
            rows.append(f"{m},p{p},{n},{int(n < 30)}\n")
    path = tmp_path / "stop.csv"
    path.write_text("model,problem_id,n,c\n" + "".join(rows))
    out = tmp_path / "r.html"
    assert run(["report", str(path), "-o", str(out), "--models", "stopB", "--forecast-resamples", "0",
                "--n-resamples", "100"]) == 0
    err = capfd.readouterr().err
    stops = [ln for ln in err.splitlines() if "StoppingTimeWarning" in ln]
    assert len(stops) == 1 and "for 1 model(s) (stopB)" in stops[0], err
    assert "stopA" not in err and "stopA" not in out.read_text(encoding="utf-8")


def test_many_input_files_are_named_briefly_in_the_header(tmp_path):
    # one log per model: the header named every file (the joined source); with more than five it names four and
    # says how many more, and the page title likewise; five or fewer are all named
    from passcurve import read_counts
    from passcurve.data import write_table

    for j in range(7):
        write_table({"problem_id": ["a", "b", "c"], "n": [10, 10, 10], "c": [j % 4, 2, 9]}, tmp_path / f"m{j}.csv")
    many = read_counts([tmp_path / f"m{j}.csv" for j in range(7)])
    top = build_report(many, parts=set()).html
    assert "Source: <strong>m0.csv, m1.csv, m2.csv, m3.csv and 3 more files</strong> · 7 model(s)" in top
    assert "<title>passcurve report: m0.csv, m1.csv, m2.csv, m3.csv and 3 more files</title>" in top
    few = read_counts([tmp_path / f"m{j}.csv" for j in range(5)])
    assert "Source: <strong>m0.csv, m1.csv, m2.csv, m3.csv, m4.csv</strong>" in build_report(few, parts=set()).html


def test_pass_pow_k_has_a_table_of_its_own_under_model_comparison(rep):
    # beside the pass@k columns the pass^k ones made the table 1,317 px wide, behind a horizontal scroll bar at a
    # 1,400 px window (user review): the first table holds counts and pass@k, a second one pass^k, same models
    section = rep.html[rep.html.index('id="models"'):rep.html.index('id="hidden-difficulty"')]
    tables = re.findall(r"<table.*?</table>", section, flags=re.S)
    heads = [re.findall(r"<th\b[^>]*>(.*?)</th>", t) for t in tables[:2]]
    assert heads[0][:5] == ["model", "problems", "n (median)", "never solved", "always solved"]
    assert all(h.startswith("pass@") for h in heads[0][5:]) and heads[0][5:]
    assert heads[1][0] == "model" and [h for h in heads[1][1:]] == [f"pass^{k}" for k in rep.data.pow_ks]
    assert "<h3>pass^k: all k attempts right</h3>" in section


@pytest.mark.browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="/usr/bin/chromium is absent")
def test_legend_under_a_chart_on_a_phone_leaves_the_caption_clear(tmp_path):
    """User review: at 390 px the legend moved under a chart grew the figure (to 519/554 px) but not the div plotly
    wrote with a fixed height (460/420 px), so the SVG covered the caption below by 30-134 px. Measured in the browser:
    the text after each figure starts at or below the figure's drawing, at 390 and at 1280 px."""
    from playwright.sync_api import sync_playwright

    path = build_report(simulate(problems=300, n=100, rng=1).counts, **FAST).write(tmp_path / "r.html")
    measure = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => {
        const svg = gd.querySelector('svg.main-svg').getBoundingClientRect();
        let next = gd.parentElement.nextElementSibling;
        return [gd.id, svg.bottom, next ? next.getBoundingClientRect().top : null];
    })"""
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        try:
            for width in (390, 1280):
                page = b.new_context(viewport={"width": width, "height": 844}).new_page()
                page.goto(path.resolve().as_uri())
                page.wait_for_load_state("load")
                page.wait_for_timeout(300)
                rows = page.evaluate(measure)
                assert rows
                moved = page.evaluate("document.querySelectorAll('[data-legend-moved]').length")
                assert (moved > 0) == (width == 390)
                for fid, bottom, top in rows:
                    if top is not None:
                        assert top >= bottom - 0.5, (width, fid, bottom, top)
        finally:
            b.close()


def test_failure_hover_names_what_it_plots_and_k_is_a_whole_number(rep):
    # user review: the failure chart's hover read "tiny-1b forecast : 0.2411", taken for pass@K (the table said
    # pass@100,000 = 0.818), and the hover header showed K = 18738 as "18.738k"
    by_id = {s.id: s for s in rep.sections}
    (fail,) = _figure_json(by_id["failure"].body)
    lines = [t for t in fail["data"] if t.get("hovertemplate")]
    assert lines and all(t["hovertemplate"].startswith("1 − pass@k = ") for t in lines)
    for s in rep.sections:
        for f in _figure_json(s.body):
            for ax, spec in f["layout"].items():
                if ax.startswith("xaxis") and spec.get("type") == "log":
                    assert spec.get("hoverformat") == ",.0f", (s.id, ax)


def test_histogram_caption_explains_the_diamond():
    # user review: the diamond ("fitted, never solved") was explained only in docs/report.md
    rng = np.random.default_rng(0)
    c = rng.binomial(1000, rng.beta(0.3, 30, size=60))
    rep = build_report(Counts.from_arrays([1000] * 60, c, model="m"), **FAST)
    sec = {s.id: s for s in rep.sections}["histogram"]
    (fig,) = _figure_json(sec.body)
    assert any((t.get("marker") or {}).get("symbol") == "diamond" for t in fig["data"])
    assert "Black diamond at 0: the fit's expected share never solved (c = 0)." in sec.body


def test_failure_caption_states_the_interval_level(bench):
    # user review: "Dotted with band: ... and its interval" gave no level; it follows confidence_level
    rep = build_report(bench.counts, confidence_level=0.8, **FAST)
    body = {s.id: s for s in rep.sections}["failure"].body
    # and what kind of interval, with where its method is said: the forecast column reads "(80% prediction
    # interval; auto: least_squares 0.45, ...)"
    assert ("forecast beyond the largest observed k and its 80% prediction interval (method and weights in the "
            "table's forecast column).") in body
    assert re.search(r"\(80% prediction interval; auto: [a-z_]+ [0-9.]+", body)


def test_loop_numbers_title_counts_its_columns_and_brackets_are_named_only_where_drawn(rep):
    # user review: "Four numbers" over a table of three columns; one problem: "brackets: 95% intervals" with none
    loop = {s.id: s for s in rep.sections}["loop"]
    heads = re.findall(r"<th[ >]", loop.body.split("</thead>")[0])
    assert len(heads) - 1 == 3 and loop.title == "Three numbers for a self-improving loop"
    # the level and the method (analytic, counting problems), as the pass@k chart's caption says them
    assert '<span class="ci">[' in loop.body
    assert "brackets: 95% intervals (analytic), counting problems, not samples" in loop.body
    one = build_report(Counts.from_arrays([10], [4], model="m"), **FAST)
    body = {s.id: s for s in one.sections}["loop"].body
    assert '<span class="ci">[' not in body and "brackets" not in body


def test_loop_numbers_explain_the_wilson_mark_they_show():
    # user review (BoN data): the loop table marked intervals with "*" explained only by a hover title, which a
    # printed page or a phone does not show; the models table's caption says what it means. 30 problems, 2 solved:
    # pass@1 rests on fewer than 10 problems, so its interval is the Wilson bound and carries the mark
    cnt = Counts.from_arrays(np.full(30, 10), np.r_[[5, 3], np.zeros(28, int)], model="m")
    body = {s.id: s for s in build_report(cnt, **FAST).sections}["loop"].body
    assert ">*</span>" in body
    assert "*: the mean rests on fewer than 10 problems" in body and "Wilson bound" in body.split("</table>")[1]
    # and no note where no mark is drawn
    assert ">*</span>" not in loop_without_marks() and "*: the mean" not in loop_without_marks()


def loop_without_marks() -> str:
    rng = np.random.default_rng(0)
    cnt = Counts.from_arrays(np.full(60, 2), rng.binomial(2, 0.5, 60), model="m")
    return {s.id: s for s in build_report(cnt, **FAST).sections}["loop"].body


def test_model_table_has_the_comparison_k_when_n_differs():
    # user review (n = 4/6/10 across models): the header said comparisons use k <= 4 but the model table showed
    # pass@1 and pass@6 only; ranks and comparisons were at pass@4, shown nowhere with an interval
    rng = np.random.default_rng(1)
    n = np.repeat([4, 6, 10], 20)
    cnt = Counts.from_arrays(n, rng.binomial(n, 0.4), model=np.repeat(["a", "b", "c"], 20), problem=np.tile(np.arange(20), 3))
    rep = build_report(cnt, **FAST)
    assert 4 in [int(k) for k in rep.data.table_curve.k]
    head = {s.id: s for s in rep.sections}["models"].body.split("</thead>")[0]
    assert ">pass@4<" in head


@pytest.mark.browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="/usr/bin/chromium is absent")
def test_tables_that_scroll_sideways_on_a_phone_show_a_shade(rep, tmp_path):
    # user review: at 390 px the model tables showed only pass@1 with no cue that more columns lay to the right
    from playwright.sync_api import sync_playwright

    path = rep.write(tmp_path / "r.html")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
        try:
            page = b.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.goto(path.resolve().as_uri())
            got = page.evaluate("""() => { const w = document.querySelector('#models .wide'); const st = getComputedStyle(w);
                return [w.scrollWidth > w.clientWidth, st.backgroundAttachment, st.backgroundImage]; }""")
        finally:
            b.close()
    overflows, attach, image = got
    assert overflows  # the case the cue is for
    assert attach == "local, local, scroll, scroll" and image.count("linear-gradient") == 4


def test_linear_histogram_shows_never_solved_apart():
    # user review: in linear bins c = 0 was merged into the [0, 0.05) bar (demo tiny-1b: 120 of 300 problems
    # never solved, the bar read 79.3%). Reference: 10 of these 40 problems have c = 0 (by construction)
    c = np.r_[np.zeros(10, int), np.arange(1, 21), np.full(10, 10)]
    rep = build_report(Counts.from_arrays([20] * 40, c, model="m"), **FAST)
    (fig,) = _figure_json({s.id: s for s in rep.sections}["histogram"].body)
    bars = {t["name"]: t for t in fig["data"] if t["type"] == "bar"}
    assert bars["never solved"]["y"] == [0.25]
    y = bars["m observed"]["y"]  # plotly writes numpy arrays as {"dtype", "bdata"}
    observed = list(np.frombuffer(__import__("base64").b64decode(y["bdata"]), dtype=y["dtype"])) if isinstance(y, dict) else y
    # [0, 0.05) held the 10 never-solved problems (0.25); now none of them: at n = 20 one bar per value of c, the
    # first c = 1 alone (1 of 40 problems), the tenth c = 10 (11 of 40)
    assert observed[0] == pytest.approx(1 / 40) and observed[9] == pytest.approx(11 / 40)
    assert sum(observed) + 0.25 == pytest.approx(1.0)


def test_hidden_difficulty_table_shows_the_pairs_own_mean_when_problems_have_one_sample():
    # a: n = 1, c = 0; b: n = 5, c = 1; c: n = 5, c = 5. μ = (0 + 1/5 + 1)/3 = 2/5 over all three; the pair
    # statistics rest on b and c, whose μ is 3/5 and μ² 9/25 (hand count; hidden_difficulty's own test has the rest)
    cnt = Counts.from_arrays([1, 5, 5], [0, 1, 5], problem=["a", "b", "c"], model="m")
    rep = build_report(cnt, **FAST)  # the report keeps the DroppedProblemsWarning under its flags
    assert any("n = 1" in m or "one sample" in m for _, m in rep.data.warnings)
    sec = {s.id: s for s in rep.sections}["hidden-difficulty"].body
    assert "μ, problems with n ≥ 2" in sec and "m: 1 of 3 problems left out" in sec
    table = sec[: sec.index("</table>")]
    assert "40.0%" in table and "60.0%" in table and "36.0%" in table


def test_wilson_bound_cells_are_marked_in_the_model_table():
    # a model whose means rest on fewer than 10 problems: its interval cells carry '*' and the caption says why
    # (the warning alone said so, away from the table)
    cnt = Counts.from_arrays(np.full(60, 20), np.r_[np.zeros(57, int), 5, 9, 20], model=np.repeat(["few"], 60))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = build_report(cnt, parts={"intervals"}, **FAST).html
    table = page[page.index('id="models"'):]
    assert "the mean rests on fewer than 10 problems: the Wilson bound" in table
    assert "*: the mean rests on fewer than 10 problems" in table


def test_no_wilson_mark_where_the_means_rest_on_many_problems():
    cnt = Counts.from_arrays(np.full(300, 20), np.r_[np.zeros(200, int), np.full(100, 10)])
    page = build_report(cnt, parts={"intervals"}, **FAST).html
    assert "fewer than 10 problems" not in page[page.index('id="models"'):page.index('id="models"') + 20000]


def test_model_comparison_brackets_are_captioned_under_each_table(rep):
    # the caption "Brackets: 95% intervals (analytic)." sat below the pass^k table only, so the pass@k table above
    # it showed intervals with no level or method under it
    body = {s.id: s for s in rep.sections}["models"].body
    cap = '<p class="caption">Brackets: 95% intervals (analytic).'  # then the Wilson-bound note where a cell has '*'
    first, rest = body.split("<h3>pass^k: all k attempts right</h3>", 1)
    assert first.split("</table></div>")[-1].startswith(cap) and rest.split("</table></div>", 1)[1].startswith(cap)


def test_never_solved_bar_is_as_wide_as_the_others_with_one_bar_per_value():
    # user review (3 problems, n = 4): the grey "0" bar was 0.03 wide beside bars of 0.9/4 = 0.225 (a 3 px sliver at
    # 1,400 px, lost in the axis line at 390 px). With one bar per value of c/n it now sits at c/n = 0, as wide as
    # the others. Reference (hand count): c = 0, 2, 4 of 4: a third never solved, a third each at 0.5 and 1
    rep = build_report(Counts.from_arrays([4, 4, 4], [0, 2, 4], model="A"), **FAST)
    (fig,) = _figure_json({s.id: s for s in rep.sections}["histogram"].body)
    bars = {t["name"]: t for t in fig["data"] if t["type"] == "bar"}
    zero, observed = bars["never solved"], bars["A observed"]
    assert zero["x"] == [0.0] and zero["y"] == [pytest.approx(1 / 3)]

    def arr(v):  # plotly writes numpy arrays as {"dtype", "bdata"}
        return list(np.frombuffer(__import__("base64").b64decode(v["bdata"]), dtype=v["dtype"])) if isinstance(v, dict) else v

    assert arr(zero["width"]) == pytest.approx([0.225]) and set(np.round(arr(observed["width"]), 12)) == {0.225}
    assert arr(observed["x"]) == pytest.approx([0.25, 0.5, 0.75, 1.0])
    assert arr(observed["y"]) == pytest.approx([0, 1 / 3, 0, 1 / 3])


def test_hidden_difficulty_chart_ticks_are_its_doubling_k(rep):
    # the points sit at k = 1, 2, 4, ..., 128 (n = 200) under "k (doubling)", but the ticks read 1, 2, 5, 10, ...
    # (helper-82's report): the ticks are now the points' own k
    seg = rep.html[rep.html.index('id="fig-hidden"'):]
    seg = seg[: seg.index("</script>")]
    assert '"tickvals":[1.0,2.0,4.0,8.0,16.0,32.0,64.0,128.0]' in seg
    assert '"ticktext":["1","2","4","8","16","32","64","128"]' in seg


def test_report_data_is_read_only_like_every_result(rep):
    # ReportData's dicts (timings, notes, fits, problem columns) and arrays could be edited after the build, and the
    # build itself wrote the rendering time into data.timings afterwards; both are now frozen (ReadOnlyResult)
    with pytest.raises(TypeError, match="does not support item assignment"):
        rep.data.timings["rendering"] = 0.0
    col = next(iter(rep.data.problem_columns.values()))
    with pytest.raises(ValueError, match="read-only"):
        col[0] = col[0]
    assert rep.data.timings["rendering"] > 0 and rep.to_dict()["timings"]["rendering"] > 0  # measured, then frozen


def test_report_pickles_and_round_trips(rep):
    # pickle.dumps(report) failed: the fitted difficulty shares (data.fitted_shares) were a local function of
    # _adapters._expected_shares; they are a functools.partial of a module-level function now
    import pickle

    assert rep.data.fitted_shares  # the callables that made pickling fail are there
    again = pickle.loads(pickle.dumps(rep))
    assert again.html == rep.html and again.to_dict() == rep.to_dict()
    edges = np.linspace(0, 1, 21)
    for m, shares in rep.data.fitted_shares.items():  # the same function of the bins, restored
        got, want = again.data.fitted_shares[m](edges, 200), shares(edges, 200)
        np.testing.assert_array_equal(got["shares"], want["shares"])
        assert got["zero"] == want["zero"] and got["label"] == want["label"]


def test_exponents_are_raised_not_written_with_a_caret(rep):
    # the failure table wrote "−log pass@k = 3.052·k^−0.269" under a caption with "a·k<sup>−b</sup>", and the hidden-
    # difficulty legend "1 − (1 − μ)^k": one notation now, <sup> (plotly renders it in chart labels too). The only
    # caret left is the metric's name pass^k
    from passcurve.report import explorer_html
    from passcurve.report._sections import naive_section

    page = _outside_plotly(rep.html)
    text = page[: page.index('<script id="passcurve-report-js"')]  # not report.js's regular expressions
    assert re.findall(r"(?<!pass)\^", text) == []
    failure = page[page.index('id="failure"') : page.index('id="naive"')]
    cells = re.findall(r'<td class="text">(−log pass@k = [^<]*<sup>−[0-9.]+</sup> \(R² [0-9.]+\))</td>', failure)
    assert len(cells) == len(rep.data.curve.models), failure[-3000:]
    traces = _figure_json(page[page.index('id="fig-hidden"'):])[0]["data"]
    hidden = [t for t in traces if t.get("meta") == "style-key:dash"]
    assert [t["name"] for t in hidden] == ["if independent: 1 − (1 − μ)<sup>k</sup>"]
    assert "^" not in explorer_html() and "(1 &minus; &mu;)<sup>k</sup>" in explorer_html()
    # an omitted section's note is plain text (Report.omitted(), the flags list): no formula to raise there
    from passcurve import StopAtSuccess

    stopped = curve(Counts.from_arrays([3, 5], [1, 1], model="m"), [1, 2], design=StopAtSuccess(batch=1, cap=5))
    note = naive_section(stopped).note
    assert "stopping time" in note and "^" not in note


def test_log_value_axes_are_labelled_at_both_ends_in_one_notation(rep):
    # the failure chart's axis reached 3·10⁻⁴ with its lowest label at 0.001, the pass^k chart's 2·10⁻⁶ with its lowest
    # at 10⁻⁵ (and read 0.01, 0.001, 0.0001, 10⁻⁵): a log y axis with powers of ten alone now runs from one power of
    # ten to another, labelled, LOG_PAD (0.02 decade) past each, and an axis's labels share one notation
    from passcurve.report._sections import LOG_PAD, decade_range, tick_texts

    assert decade_range(3e-4, 1.0) == (-4, 0) and decade_range(2e-6, 0.3) == (-6, 0) and decade_range(1e-3, 1) == (-3, 0)
    assert tick_texts([1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0]) == ["10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³", "10⁻²", "10⁻¹",
                                                                   "10⁰"]
    assert tick_texts([1e-4, 1e-3, 1e-2, 0.1, 1.0]) == ["0.0001", "0.001", "0.01", "0.1", "1"]
    assert tick_texts([1, 10, 100, 1000, 1e4]) == ["10⁰", "10¹", "10²", "10³", "10⁴"]
    assert tick_texts([1, 2, 5, 10, 20]) == ["1", "2", "5", "10", "20"]
    page = _outside_plotly(rep.html)
    checked = 0
    for fig in ("fig-failure", "fig-passpow"):
        layout = _figure_json(page[page.index(f'id="{fig}"'):])[0]["layout"]
        y = layout["yaxis"]
        assert y["type"] == "log", fig
        lo, hi = np.log10(y["tickvals"][0]), np.log10(y["tickvals"][-1])
        assert y["range"] == pytest.approx([lo - LOG_PAD, hi + LOG_PAD]), (fig, y["range"], y["tickvals"])
        assert lo == round(lo) and hi == round(hi) and y["ticktext"] == tick_texts(y["tickvals"])
        # the drawn lines lie inside, down to the lowest label
        for t in _figure_json(page[page.index(f'id="{fig}"'):])[0]["data"]:
            y_ = t.get("y") or []  # plotly writes numpy arrays as {"dtype", "bdata"}
            ys = (np.frombuffer(__import__("base64").b64decode(y_["bdata"]), dtype=y_["dtype"]) if isinstance(y_, dict)
                  else np.array([v for v in y_ if v is not None], dtype=float))
            if ys.size and t.get("fill") != "toself":
                assert 10**lo <= ys.min() and ys.max() <= 10 ** (hi + LOG_PAD), (fig, t["name"])
        checked += 1
        for ax in (layout["xaxis"], y):
            assert len({"10" in s and "·" not in s and s != "10" and s[2:3] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
                        for s in ax["ticktext"]}) == 1, (fig, ax["ticktext"])
    assert checked == 2


def test_a_table_column_has_one_number_notation():
    # a column mixed "6.97e-04" with "0.0069" (the demo's pass^4 table), each cell choosing for itself; number_format
    # now chooses once per column. References written out by hand from the rule: fixed point, with decimals for two
    # significant digits of the smallest nonzero value (at least 4); scientific when the nonzero values span more than
    # 4 decades, reach 10^5 or would need more than 8 decimals
    def column(values):
        return [number_format(values)(x) for x in values]

    assert column([6.97e-4, 0.0069, 0.0110, 0.0969, 0.0]) == ["0.00070", "0.00690", "0.01100", "0.09690", "0.00000"]
    assert column([0.0355, 0.6, 0.0, float("nan")]) == ["0.0355", "0.6000", "0.0000", "-"]
    # the demo's pass^8 column with its interval ends: 2.86e-08 to 0.0756, 6.4 decades
    assert column([1.93e-5, 0.0029, 0.0536, 2.86e-8, 0.0756, 0.0]) == [
        "1.93e-05", "2.90e-03", "5.36e-02", "2.86e-08", "7.56e-02", "0"]
    assert column([3.4e-5, 0.1236]) == ["0.000034", "0.123600"]  # 3.6 decades: fixed, 6 decimals
    assert column([2e-9, 5e-9]) == ["2.00e-09", "5.00e-09"]  # 10 decimals would be needed
    assert column([0.5, 2e5]) == ["5.00e-01", "2.00e+05"]
    assert fmt_num(6.97e-4) == "0.00070" and fmt_num(None) == "-" and fmt_num(0.25) == "0.2500"
    # in a report: every table's columns, values and interval ends alike, in one notation (the demo-like bench has
    # pass^8 and per-problem pass^k columns from 10^-8 to 10^-1)
    data = simulate(problems=300, n=200, rng=0).counts
    page = _outside_plotly(build_report(data, parts={"intervals"}).html)
    sci, fixed = re.compile(r"\d\.\d\de[-+]\d\d"), re.compile(r"\d+\.(\d+)")
    mixed = checked = 0
    for table in re.findall(r"<table.*?</table>", page, re.S):
        columns: dict[int, list[str]] = {}
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            for j, cell in enumerate(re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)):
                columns.setdefault(j, []).extend(re.findall(r"(?<![\w.<])\d+\.\d+(?:e[-+]\d\d)?(?![\w.])", cell))
        for j, nums in columns.items():
            if not nums:
                continue
            checked += 1
            kinds = {bool(sci.fullmatch(x)) for x in nums}
            mixed += len(kinds) > 1
            if kinds == {False}:  # fixed (percentages too): one number of decimals
                assert len({len(fixed.fullmatch(x).group(1)) for x in nums}) == 1, (j, sorted(set(nums))[:8])
    assert checked >= 10 and mixed == 0
    # percentages: the same rule, never scientific, at most 3 decimals, '<0.001%' below (the demo's pass^8 column
    # read 0.0019% beside 0.3%)
    pct = number_format([1.9e-5, 0.0029, 0.0536, 2.86e-8, 4.66e-4], 1, percent=True)
    assert [pct(x) for x in (1.9e-5, 0.0029, 0.0536, 2.86e-8, 4.66e-4, 0.0)] == [
        "0.002%", "0.290%", "5.360%", "<0.001%", "0.047%", "0.000%"]
    assert [fmt_pct(x) for x in (0.0539, 0.000539, 0.003, 3e-9, None)] == ["5.4%", "0.054%", "0.30%", "<0.001%", "-"]
    assert sci.search(page[page.index('id="problem-table"'):])  # the rule did choose scientific somewhere


def test_number_format_at_the_ends_of_its_rule():
    # helper-133's mutation run of number_format/notation: each end of the rule, written out by hand from it. Exactly
    # 4 decades is fixed and more is scientific; 10^5 is scientific; 8 decimals are fixed; a power of ten is its own
    # exponent (log10(0.001) = -3: two significant digits are 4 decimals, not 5); a column of zeros is fixed
    def column(values, *args, **kw):
        return [number_format(values, *args, **kw)(x) for x in values]

    assert column([0.0001, 1.0]) == ["0.00010", "1.00000"]  # 4 decades: fixed, 5 decimals
    assert column([0.0001, 2.0]) == ["1.00e-04", "2.00e+00"]  # 4.3 decades
    assert column([1e5]) == ["1.00e+05"] and column([99999.0]) == ["99999.0000"]
    assert column([1e-7, 1e-3]) == ["0.00000010", "0.00100000"]  # 8 decimals
    assert column([0.001, 1.0]) == ["0.0010", "1.0000"]
    assert column([0.0, 0.0]) == ["0.0000", "0.0000"]
    assert column([0.001], 1, percent=True) == ["0.10%"]  # 0.1%: two significant digits
    # a share just above 10^-5 (0.0015%) sets the decimals, not only those from 2 * 10^-5 up
    assert column([1.5e-5, 0.003], 1, percent=True) == ["0.002%", "0.300%"]


def test_a_chart_hovers_in_one_number_notation():
    # each hover label chose for itself with '%{y:.4g}' ("6.97e-05" beside "0.0123" on the pass^k chart); a chart's
    # labels now take number_format's notation of all its y values (references by hand from the rule: 6.97e-05 needs
    # 1 - (-5) = 6 decimals for two significant digits, 2.2 decades: fixed; 0.5 to 1e-8 spans 7.7 decades: scientific)
    import base64

    from passcurve._validation import SCI_DECADES
    from passcurve.report import _sections as S

    assert S.hover_format([0.0123, 6.97e-5, float("nan")]) == ".6f"
    assert S.hover_format([0.5, 1e-8, 0.0]) == ".2e"
    assert S.hover_format([0.25, 0.9]) == ".4f"
    cur = curve(simulate(problems=300, n=200, rng=0).counts, report_k_grid(200))
    pow_values = cur.values["pass_pow_k"]
    drawn = pow_values[pow_values >= S.POW_FLOOR]
    assert drawn.max() / drawn.min() > 10.0**SCI_DECADES  # the pass^k chart spans more than 4 decades
    for sec, want in ((S.passpow_section(cur), "%{y:.2e}"), (S.passk_section(cur), None), (S.failure_section(cur), None)):
        (fig,) = _figure_json(sec.body)
        lines = [t for t in fig["data"] if t.get("hoverinfo") != "skip" and t.get("hovertemplate")]
        templates = {re.search(r"%\{y:[^}]*\}", t["hovertemplate"]).group(0) for t in lines}
        assert len(templates) == 1 and ".4g" not in str(templates), templates
        ys = np.concatenate([np.frombuffer(base64.b64decode(t["y"]["bdata"]), dtype=t["y"]["dtype"])
                             if isinstance(t["y"], dict) else np.asarray(t["y"], dtype=float) for t in lines])
        assert templates == {want or "%{y:" + S.hover_format(ys) + "}"}


def test_comparison_differences_follow_the_column_s_notation():
    # the comparison table wrote A − B and its interval at 4 fixed decimals: a pass^10 difference of −1.08e-6 read
    # "0.0000" (and its interval "[−0.0000, 0.0000]") where `passcurve compare` printed -1.08e-06. One notation per
    # column now (number_format over every difference and interval end, as the CLI's column_fmt), minus typographic
    import re

    from passcurve import compare, curve
    from passcurve.report._sections import comparison_section, signed_format

    # one problem of 50 differs: c = 10 for B, 11 for A, of n = 20 (the rest c = 0). Exact differences B − A:
    # pass@1 −1/20/50 = −0.001; pass^10 −(C(11,10) − C(10,10))/C(20,10)/50 = −10/184756/50 = −1.0825e-6
    cnt = Counts.from_arrays([20] * 100, [0] * 49 + [10] + [0] * 49 + [11], problem=[f"p{i}" for i in range(50)] * 2,
                             model=["B"] * 50 + ["A"] * 50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare(cnt, "B", "A", k=[1, 10], metric="pass_pow_k", rng=0)
        body = comparison_section(curve(cnt, [1, 10]), cnt, [res]).body
    assert res.difference[1] == pytest.approx(-10 / 184756 / 50, rel=1e-12)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>",
                                                                      body[body.index("Each model against"):], re.S)]
    got = [(r[2], r[5], r[6]) for r in rows if r]
    # 3 decades from 1e-3 to 1.08e-6: fixed point, with the decimals the smallest needs for 2 significant digits
    assert got == [("1", "−0.0010000", "[−0.0030000, 0.0000000]"), ("10", "−0.0000011", "[−0.0000032, 0.0000000]")]
    # more than 4 decades: the whole column scientific; a zero rounded from -0.0 has no sign
    f = signed_format([-1.1e-6, 0.02])
    assert (f(-1.1e-6), f(0.02), f(0.0), f(float("nan"))) == ("−1.10e-06", "2.00e-02", "0", "-")
    g = signed_format([-0.0123, 0.5])
    assert (g(-0.0123), g(-0.0), g(0.5)) == ("−0.0123", "0.0000", "0.5000")


def test_report_forecast_label_weights_add_up_to_one():
    # the report's forecast label rounded each weight alone, as the CLI title did (Pythia 160M: 0.26 + 0.42 + 0.33);
    # now largest remainder (hand count in test_weights_are_rounded_to_add_up_to_one), a weight that rounds to 0
    # left out
    from types import SimpleNamespace

    from passcurve.report._adapters import _forecast_rows

    fc = SimpleNamespace(models=["m"], k=np.array([1000.0]), pass_at_k=np.array([[0.4]]), low=np.array([[0.3]]),
                         high=np.array([[0.5]]), confidence_level=0.8, method="auto",
                         weights=[{"least_squares": 0.25672990145577873, "beta_eb": 0.4179285598824257,
                                   "zi_beta": 0.32534153866179555, "beta": 1e-4}])
    failure: dict = {"m": {}}
    labels: dict = {"m": {}}
    _forecast_rows(fc, failure, labels)
    assert labels["m"]["forecast"].endswith("(80% prediction interval; auto: least_squares 0.26, beta_eb 0.42, "
                                            "zi_beta 0.32)"), labels["m"]["forecast"]


def test_chart_hover_labels_write_no_value_below_one_as_one():
    # a chart's hover labels take one notation for its y values (hover_format); an observed pass@1 of 1 - 1/300,000
    # (three problems at n = 100,000, one failure) read '1.0000' under '.4f'; now the decimals that tell it from 1
    from passcurve.report._sections import hover_format

    assert hover_format([0.1, 0.5, 1 - 1 / 300000]) == ".7f"
    assert f"{1 - 1 / 300000:.7f}" == "0.9999967"
    assert hover_format([0.1, 0.5, 1.0]) == ".4f"  # 1 itself asks for nothing more
    assert hover_format([1e-7, 0.5]) == ".2e"  # scientific as before


def test_report_forecast_label_writes_no_value_below_one_as_one():
    # the label's 3 fixed decimals wrote "pass@1,002,000 = 1.000 [0.976, 1.000]" for Llama 3 8B IT (BoN, stop at
    # success), a forecast of 0.99997783; the any-law ranges beside it the same. Each value is now fmt_below_one's
    # (3 decimals, more where a value below 1 would read 1: 0.99996 -> 0.999960, hand-written); 1 itself stays 1.000
    from types import SimpleNamespace

    from passcurve.report._adapters import _any_law, _forecast_rows

    bounds = SimpleNamespace(k=np.array([2000, 1002000]), low=np.array([[0.97, 0.976]]),
                             high=np.array([[0.99993, 1.0]]))
    fc = SimpleNamespace(models=["m"], k=np.array([1002000.0]), pass_at_k=np.array([[0.99996]]),
                         low=np.array([[0.976]]), high=np.array([[1.0]]), confidence_level=0.95, method="auto",
                         weights=[{"beta_eb": 1.0}], bounds=lambda k, models: bounds)
    failure: dict = {"m": {}}
    labels: dict = {"m": {}}
    _forecast_rows(fc, failure, labels)
    assert labels["m"]["forecast"].startswith("pass@1,002,000 = 0.999960 [0.976, 1.000] (95% prediction interval"), \
        labels["m"]["forecast"]
    _any_law(fc, 1000, 1002000, labels)
    assert labels["m"]["forecast"].endswith("Any difficulty law the data allow: pass@2,000 in [0.970, 0.999930]; "
                                            "pass@1,002,000 in [0.976, 1.000]"), labels["m"]["forecast"]


def test_power_law_label_writes_a_small_exponent_in_the_line_notation():
    # 5,000 problems always solved, 4,999 never, one once in 100: pass@k hardly moves, the least-squares exponent b
    # is about 6.7e-05 (fit_power_law), and the label's 3 fixed decimals read "k<sup>−0.000</sup>", a flat law. a and
    # b are now written as fit's title writes them: one notation, 4 significant digits ("0.6932·k^−0.00006679")
    from passcurve import fit_power_law

    cnt = Counts.from_arrays([100] * 10_000, [100] * 5000 + [0] * 4999 + [1], model="m")
    b = float(fit_power_law(cnt).b[0])
    assert 1e-5 < b < 1e-4
    rep = build_report(cnt, parts={"fits"}, **FAST)
    label = re.search(r"−log pass@k = ([0-9.]+)·k<sup>−([0-9.]+)</sup>", rep.html)
    assert label is not None and "<sup>−0.000</sup>" not in rep.html
    assert label.group(2).startswith("0.0000") and abs(float(label.group(2)) - b) <= 5e-4 * b, label.group(0)
    assert len(label.group(2).lstrip("0.")) == 4  # 4 significant digits


def test_comparison_p_values_read_as_compare_prints_them(icli, tmp_path):
    # the report's comparison table wrote a p-value below 0.001 as '< 0.001' where `passcurve compare` printed its
    # column's notation ('0.00050'); one notation now, number_format over the column as the CLI's column_fmt.
    # Reference: a sign-flip permutation test with 2,000 flips that none beats gives p = 1/2001 = 0.00049975
    from passcurve import compare, curve
    from passcurve.data import write_counts
    from passcurve.report._sections import comparison_section

    rng = np.random.default_rng(0)
    p = rng.beta(1, 3, 60)
    ca, cb = rng.binomial(20, np.minimum(p + 0.08, 1)), rng.binomial(20, p)
    cnt = Counts.from_arrays([20] * 120, np.r_[ca, cb], problem=[f"p{i}" for i in range(60)] * 2,
                             model=["A"] * 60 + ["B"] * 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = compare(cnt, "A", "B", k=[1, 10], n_resamples=2000, rng=0)
        body = comparison_section(curve(cnt, [1, 10]), cnt, [res]).body
    assert res.p_value[0] == pytest.approx(1 / 2001)
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>",
                                                                      body[body.index("Each model against"):], re.S)]
    shown = [r[7] for r in rows if r]
    path = tmp_path / "two.csv"
    write_counts(cnt, path)
    r = icli("compare", str(path), "--a", "A", "--b", "B", "--k", "1,10", "--n-resamples", "2000", "--seed", "0",
             env={"COLUMNS": "200"})
    assert r.returncode == 0, r.stderr
    cli = [ln.split("│")[6].strip() for ln in r.stdout.splitlines() if ln.startswith("│")]
    assert shown == cli == ["0.00050", "0.00050"], (shown, cli)
    # and the caption says that such a p-value is the resampling floor 1/(B + 1), not a measurement (the report's
    # default 1,000 resamples floor at 0.001, compare's 2,000 at 0.0005; helper-105's review)
    assert "Sign-flip p-values come from 2,000 resamples and cannot fall below 1/2,001 ≈ 0.0005" in body, body[-600:]


def test_a_step_passes_on_each_foreign_warning_once():
    # a report step re-emitted every warning that is not passcurve's, each copy: a fit that overflowed on each of its
    # thousands of evaluations grew a one-problem report past 5 GB (helper-103). Each distinct one is passed on once
    from passcurve.report._build import _Collector

    def noisy() -> int:
        for _ in range(1000):
            warnings.warn("overflow encountered in exp", RuntimeWarning, stacklevel=1)
        warnings.warn("another", RuntimeWarning, stacklevel=1)
        return 7

    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert _Collector(None).step("noisy", noisy) == 7
    assert [str(w.message) for w in got] == ["overflow encountered in exp", "another"]


def test_power_law_label_writes_a_b_and_r2_as_fits_title(monkeypatch):
    # the failure table's label judged a and b alone and wrote R² with .3f, fit's title a, b and R² together (4
    # significant digits): 'R² 0.998' beside 'R²=0.9983', and an R² below 10⁻⁷ (scientific for the title) left the
    # label's a and b in fixed point. Both now take PowerLawResult._law_numbers. A fit with R² set to 3e-8 by hand
    # (_param_line_fmt: more than 8 decimals -> scientific for the three)
    import dataclasses

    import passcurve as pc
    from passcurve import fit_power_law
    from passcurve.report._adapters import fits

    cnt = Counts.from_arrays([200] * 6, [1, 3, 10, 30, 90, 150], model="m")
    pl = fit_power_law(cnt)
    assert pl._law_numbers(0)[2] == np.format_float_positional(pl.r2[0], precision=4, unique=False,
                                                               fractional=False, trim="-")
    tiny = dataclasses.replace(pl, r2=np.array([3e-8]))
    monkeypatch.setattr(pc, "fit_power_law", lambda counts, design=None: tiny)
    monkeypatch.setattr(pc, "forecast", None)
    monkeypatch.setattr(pc, "fit_difficulty", None)
    failure, _ = fits(cnt, curve(cnt), None, 0.8)
    a, b, r2 = tiny._law_numbers(0)
    assert "e-08" in r2 and "e" in a and "e" in b  # one notation for the three
    label = str(failure["m"]["labels"]["power law"])
    assert label == f"−log pass@k = {a.replace('-', '−')}·k<sup>−{b.replace('-', '−')}</sup> (R² {r2.replace('-', '−')})"


def test_a_models_different_notes_are_all_in_the_warnings():
    # the report's list kept one DegenerateDataWarning per text before the first ':', i.e. per model: a model whose
    # problems are all unsolved kept 'every problem has c = 0' and lost auto's ('could not check its candidates'),
    # least squares' ('cannot forecast these data') and the hidden-difficulty ICC's ('every answer is wrong') notes.
    # A note repeated on another k grid is still said once
    cnt = Counts.from_arrays([20] * 24, [0] * 12 + [i % 3 for i in range(12)], problem=[f"p{i}" for i in range(12)] * 2,
                             model=["none"] * 12 + ["some"] * 12)
    rep = build_report(cnt, parts={"fits", "diagnostics"}, **FAST)
    said = [m for c, m in rep.data.warnings if c == "DegenerateDataWarning" and m.startswith("model 'none': ")]
    for note in ("every problem has c = 0", "least squares cannot forecast these data", "every answer is wrong"):
        assert any(note in m for m in said), (note, said)
    rests = [m for _, m in rep.data.warnings if "the mean rests on fewer than 10 problems" in m]
    metrics = [m.split(":")[0].split(", ")[-1] for m in rests]
    assert len(metrics) == len(set(metrics)), rests  # each metric's note once, though several k grids repeat it
