"""The explorer and the report in a real headless Chromium (Debian's), with the network off.

Each page is opened from a file:// URL with every other request aborted and counted; the tests
assert no request left the page, no console error, and (explorer) that the readouts shown after
moving the sliders equal the closed forms computed in Python. Screenshots go to artifacts/.
Skipped only when /usr/bin/chromium is absent (`apt-get install chromium`; never `playwright install`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from passcurve import Counts
from passcurve.report import explorer_bin_shares, explorer_readouts, format_percent, write_explorer
from passcurve.report._explorer import READOUT_DIGITS

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install chromium)"),
]


@pytest.fixture(scope="module")
def browser():
    # playwright is in the [test] extras: a missing install fails; only a missing /usr/bin/chromium skips
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield b
        b.close()


class OfflinePage:
    """A page whose context aborts (and records) every request that is not the file itself."""

    def __init__(self, browser, path: Path, width: int = 1100, height: int = 900, also: tuple[Path, ...] = ()) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.context.set_offline(True)
        self.blocked: list[str] = []
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.url = path.resolve().as_uri()
        self.allowed = {self.url, *(p.resolve().as_uri() for p in also)}

        def route(r):  # the network is off: only the page's own file (and pages it links to) may load
            if r.request.url in self.allowed:
                r.continue_()
            else:
                self.blocked.append(r.request.url)
                r.abort()

        self.context.route("**/*", route)
        self.page = self.context.new_page()
        self.page.on("request", lambda req: self.requests.append(req.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(self.url)
        self.page.wait_for_load_state("load")

    def drawn(self, settle_ms: int = 0):
        """The page once its plotly charts have drawn, and ``settle_ms`` more for their layout (legends moved on a
        phone, figures grown) to settle."""
        self.page.wait_for_selector(".js-plotly-plot .main-svg")
        if settle_ms:
            self.page.wait_for_timeout(settle_ms)
        return self.page

    def others(self) -> list[str]:
        """Requests other than the page itself and the pages it links to (there must be none)."""
        return [u for u in self.requests if u not in self.allowed] + self.blocked

    def close(self) -> None:
        self.context.close()


def _set_slider(page, slider_id: str, value: int) -> None:
    page.evaluate(
        "([id, v]) => { const e = document.getElementById(id); e.value = v;"
        " e.dispatchEvent(new Event('input', {bubbles: true})); }",
        [slider_id, value],
    )


def _readouts(page) -> dict[str, tuple[str, float]]:
    out = {}
    for key in READOUT_DIGITS:
        loc = page.locator(f"#r-{key}")
        out[key] = (loc.inner_text().strip(), float(loc.get_attribute("data-value")))
    return out


def _check_readouts(page, mean: float, sd: float) -> None:
    want = explorer_readouts(mean, sd)  # scipy betaln route (ModelSpec.true_pass_at_k)
    got = _readouts(page)
    for key, digits in READOUT_DIGITS.items():
        text, value = got[key]
        assert math.isclose(value, want[key], rel_tol=1e-10, abs_tol=1e-13), (key, mean, sd, value, want[key])
        assert text == format_percent(want[key], digits), (key, mean, sd, text)
    # the top chart: share of questions per 5% bin, JS continued fraction vs scipy's beta CDF
    shares = json.loads(page.locator("#density-bars").get_attribute("data-shares"))
    assert shares == pytest.approx(explorer_bin_shares(mean, sd), abs=1e-9)


@pytest.fixture(scope="module")
def explorer_file(tmp_path_factory):
    return write_explorer(tmp_path_factory.mktemp("explorer") / "explorer.html")


def test_explorer_seed_values_offline(browser, explorer_file):
    pg = OfflinePage(browser, explorer_file)
    try:
        page = pg.page
        got = _readouts(page)
        # the seed's widget at 50% / 25% (REFERENCE.md "Hidden difficulty", seed 000)
        assert [got[k][0] for k in READOUT_DIGITS] == ["50%", "25%", "31%", "63%", "99.6%", "92.6%", "99.6%"]
        _check_readouts(page, 0.5, 0.25)
        assert "63%" in page.locator("#explain").inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "explorer-50-25.png"), full_page=True)
        assert pg.errors == []
        assert pg.others() == []
    finally:
        pg.close()


def test_explorer_sliders_match_python(browser, explorer_file):
    pg = OfflinePage(browser, explorer_file)
    try:
        page = pg.page
        # move a slider with the keyboard, as a user would: 50% -> 53%
        page.locator("#mean").focus()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert page.locator("#mean-out").inner_text() == "53%"
        _check_readouts(page, 0.53, 0.25)
        for mean, sd in [(0.3, 0.1), (0.05, 0.12), (0.9, 0.2), (0.2, 0.0), (0.99, 0.05), (0.01, 0.08)]:
            _set_slider(page, "mean", round(mean * 100))
            _set_slider(page, "sd", round(sd * 100))
            _check_readouts(page, mean, sd)
            # the page's own curve: actual pass@k never above the independent one (Jensen)
            assert page.locator("#curve-actual").count() == 1
        _set_slider(page, "mean", 20)
        _set_slider(page, "sd", 0)
        assert "independent coin flips" in page.locator("#explain").inner_text()
        page.screenshot(path=str(ARTIFACTS / "explorer-coin.png"), full_page=True)
        # an infeasible combination is capped, not NaN
        _set_slider(page, "mean", 10)
        _set_slider(page, "sd", 45)  # sigma^2 = 0.2025 > mu(1-mu) = 0.09: infeasible
        want = explorer_readouts(0.10, 0.45)
        assert want["capped"]
        _check_readouts(page, 0.10, 0.45)
        assert "capped" in page.locator("#sd-out").inner_text()
        assert "at most 30.0%" in page.locator("#explain").inner_text()
        # the cap said once, to one decimal, in the label, the note and the explanation: at 99% the label said
        # "capped at 10%" beside "showing the largest possible, 9.9%" (closed form: sqrt(0.99 * 0.01 / 1.001) = 9.945%)
        _set_slider(page, "mean", 99)
        _set_slider(page, "sd", 50)
        assert page.locator("#sd-out").inner_text() == "50% (capped at 9.9%)"
        assert "largest possible, 9.9%" in page.locator("#sd-note").inner_text()
        assert "at most 9.9%" in page.locator("#explain").inner_text()
        # the "average 99%" label of the top chart stays inside it (it ran off the right edge, cut to "ave")
        for mean in (1, 50, 99):
            _set_slider(page, "mean", mean)
            inside = page.evaluate("""() => { const t = document.getElementById('density-average').getBoundingClientRect(),
                s = document.getElementById('density-average').ownerSVGElement.getBoundingClientRect();
                return t.left >= s.left && t.right <= s.right; }""")
            assert inside, mean
        for key in READOUT_DIGITS:
            assert "NaN" not in page.locator(f"#r-{key}").inner_text()
        page.screenshot(path=str(ARTIFACTS / "explorer-capped.png"), full_page=True)
        assert pg.errors == []
        assert pg.others() == []
    finally:
        pg.close()


def test_explorer_curve_is_the_exact_beta_formula(browser, explorer_file):
    """The drawn pass@k curve at three slider settings against 1 - B(alpha, beta + k)/B(alpha, beta) (scipy's betaln,
    REFERENCE.md "Hidden difficulty"), and its labels readable on a phone: drawn 800 wide and scaled to 360 px, they
    were 5 px tall."""
    from scipy.special import betaln

    from passcurve.report import explorer_params

    pg = OfflinePage(browser, explorer_file, width=400, height=900)
    try:
        page = pg.page
        heights = page.evaluate("() => [...document.querySelectorAll('#curve text, #density text')]"
                                ".map(t => t.getBoundingClientRect().height)")
        assert heights and min(heights) >= 10, min(heights)
        ks = page.evaluate("() => window.passcurveExplorer.ks")
        assert ks == [2**e for e in range(11)]
        for mean, sd in [(0.5, 0.25), (0.07, 0.15), (0.9, 0.05)]:
            _set_slider(page, "mean", round(mean * 100))
            _set_slider(page, "sd", round(sd * 100))
            prm = explorer_params(mean, sd)
            want = [-math.expm1(betaln(prm["alpha"], prm["beta"] + k) - betaln(prm["alpha"], prm["beta"])) for k in ks]
            line = page.locator("#curve-actual")
            got = json.loads(line.get_attribute("data-values"))
            assert got == pytest.approx(want, rel=1e-10, abs=1e-13), (mean, sd)
            indep = json.loads(page.locator("#curve-independent").get_attribute("data-values"))
            assert indep == pytest.approx([-math.expm1(k * math.log1p(-mean)) for k in ks], rel=1e-12)
            # the polyline drawn is those values: y = T + (1 - v) h in the chart's own units (T = 12, h = 228)
            ys = [float(pt.split(",")[1]) for pt in line.get_attribute("points").split()]
            assert ys == pytest.approx([12 + (1 - v) * 228 for v in want], abs=0.006)
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


# ------------------------------------------------------------------------------------------- the report
@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    from passcurve import simulate
    from passcurve.report import build_report

    bench = simulate(problems=80, n=300, rng=5)
    rep = build_report(bench.counts, title="passcurve report (browser test)", forecast_resamples=5, n_resamples=200)
    return rep, rep.write(tmp_path_factory.mktemp("report") / "report.html")


def test_report_offline(browser, report_file):
    """Charts render, the table sorts and filters, the explorer link works: no request, no console error."""
    rep, path = report_file
    counts = rep.data.counts
    explorer = path.parent / rep.explorer_href
    pg = OfflinePage(browser, path, width=1280, also=(explorer,))
    try:
        page = pg.drawn()
        # one chart per Plotly.newPlot call of the page's own scripts (plotly 5.20's inlined bundle names it too)
        start = rep.html.index('<script id="plotly-js"')
        own = rep.html[:start] + rep.html[rep.html.index("</script>", start):]
        assert page.locator(".js-plotly-plot").count() == own.count("Plotly.newPlot")
        # the pass@k chart drew one line per model
        assert page.locator("#fig-passk .scatterlayer .trace").count() >= len(rep.data.curve.models)
        legend = page.eval_on_selector_all("#fig-passk .legendtext", "els => els.map(e => e.textContent)")
        assert legend == list(rep.data.curve.models)
        # at 1,280 px the k axis keeps its 1-2-5 ticks (the phone's powers of ten apply below 600 px only)
        assert page.evaluate("() => [...document.querySelectorAll('#fig-passk .xaxislayer-above text')]"
                             ".map(t => t.textContent)") == ["1", "2", "5", "10", "20", "50", "100", "200"]
        # no modebar button posts a chart anywhere (plotly.js shows "Share chart..." to its cloud by default)
        titles = page.eval_on_selector_all(".modebar-btn", "els => els.map(e => e.getAttribute('data-title'))")
        assert "Download plot" in titles and not any("Share" in (t or "") for t in titles)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)

        # sort the per-problem table by c/n (plain JS), both ways
        header = page.locator("#problem-table thead th", has_text="c/n")
        col = [t.strip() for t in page.locator("#problem-table thead th").all_inner_texts()].index("c/n") + 1
        cells = page.locator(f"#problem-table tbody tr td:nth-child({col})")
        ratios = np.sort(counts.c / counts.n)
        header.click()
        shown = [float(x) for x in cells.all_inner_texts()]
        assert len(shown) == len(counts) and shown == sorted(shown)
        assert shown[0] == pytest.approx(ratios[0], abs=1e-4) and shown[-1] == pytest.approx(ratios[-1], abs=1e-4)
        header.click()
        shown = [float(x) for x in cells.all_inner_texts()]
        assert shown == sorted(shown, reverse=True)
        # and from the keyboard: Tab reaches a header, Enter and Space sort (a header took clicks only)
        n_head = page.locator("#problem-table thead th", has_text="n").first
        page.locator("input[data-filter=problem-table]").focus()
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.textContent") == "model"
        n_head.focus()
        page.keyboard.press("Enter")
        assert n_head.get_attribute("aria-sort") == "ascending"
        page.keyboard.press(" ")
        assert n_head.get_attribute("aria-sort") == "descending"
        # filter rows
        page.locator("input[data-filter=problem-table]").fill("never solved")
        hidden = page.evaluate(
            "() => [...document.querySelectorAll('#problem-table tbody tr')].filter(r => r.style.display !== 'none').length"
        )
        assert hidden == int(np.sum(counts.c == 0))
        page.locator("#problem-table").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "report-table.png"))

        # the explorer link opens the explorer page, offline
        page.locator("#explorer-link").click()
        page.wait_for_url(explorer.resolve().as_uri())
        assert page.locator("#r-pass8").inner_text() == "92.6%"
        assert pg.errors == []
        assert pg.others() == []
    finally:
        pg.close()


def test_report_legend_entries_all_do_something(browser, report_file):
    """A style-key entry ("naive plug-in", dashed) hides every line of that style; "fitted" in the histogram hides
    the fit of every panel (the HTML audit found entries that greyed out and hid nothing, or one panel only)."""
    rep, path = report_file
    pg = OfflinePage(browser, path, width=1280)
    try:
        page = pg.drawn()

        def visible(fig: str) -> list:
            return page.evaluate(f"() => document.getElementById('{fig}').data.map(t => [t.name, t.visible ?? true])")

        def click(fig: str, entry: str) -> None:
            item = page.locator(f"#{fig} .legend .traces", has=page.locator(".legendtext", has_text=entry)).first
            item.locator(".legendtoggle").click()
            page.wait_for_timeout(700)  # plotly waits for a possible double click (300 ms) before toggling

        before = visible("fig-naive")
        click("fig-naive", "naive plug-in")
        changed = [a[0] for a, b in zip(visible("fig-naive"), before, strict=True) if a[1] != b[1]]
        assert changed and all(name.endswith("naive") or name == "naive plug-in" for name in changed)
        assert len(changed) == 1 + sum(name.endswith(" naive") for name, _ in before)
        # "observed" (solid) greys the models' own lines out but leaves their entries in the legend: visible=false took
        # every model's entry out of it, and the legend shrank under the cursor
        legend = page.eval_on_selector_all("#fig-failure .legendtext", "els => els.map(e => e.textContent)")
        before = visible("fig-failure")
        click("fig-failure", "observed")
        assert page.eval_on_selector_all("#fig-failure .legendtext", "els => els.map(e => e.textContent)") == legend
        after = dict(visible("fig-failure"))
        models = [m for m, _ in before if m in rep.data.curve.models]
        assert models and all(after[m] == "legendonly" for m in models)
        assert all(after[f"{m} power law"] is True for m in models)  # the dashed lines stay
        click("fig-failure", "observed")
        assert visible("fig-failure") == before
        hist = visible("fig-hist")
        click("fig-hist", "fitted")
        after = visible("fig-hist")
        fitted = [i for i, (name, _) in enumerate(hist) if name.startswith("fitted")]
        assert fitted and all(after[i][1] == "legendonly" for i in fitted)
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


def test_report_charts_keep_their_width_on_a_phone(browser, report_file):
    """At 390 px the legends go under the charts: the right-hand legend had left plot areas 95-160 px wide."""
    _, path = report_file
    pg = OfflinePage(browser, path, width=390, height=844)
    try:
        page = pg.drawn(settle_ms=300)
        charts = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].map(g => "
                               "[g.id, g._fullLayout.legend ? g._fullLayout.legend.orientation : 'h', "
                               "g._fullLayout._size.w, g.clientWidth])")
        assert charts and all(o == "h" for _, o, _, _ in charts)
        assert all(w >= 0.6 * cw for _, _, w, cw in charts), charts
        # the histogram's panels side by side: their axis titles do not run into each other ("c/n (share of samples
        # correct)" twice on one line overlapped by 60 px)
        boxes = page.evaluate("() => [...document.querySelectorAll('#fig-hist .infolayer > g')]"
                              ".filter(g => /^g-x[0-9]*title$/.test(g.getAttribute('class')) && g.textContent)"
                              ".map(g => { const b = g.getBoundingClientRect(); return [b.left, b.right, b.top]; })"
                              ".sort((a, b) => a[0] - b[0])")
        assert len(boxes) == 2 and boxes[0][2] == pytest.approx(boxes[1][2], abs=1)
        assert boxes[0][1] < boxes[1][0], boxes
        # every label of every chart lies inside its figure: the pass^k chart's "k (attempts that must all succeed,
        # log scale)" ran 15 px past the right edge at 390 px (cut off mid-word), and with four models or more its
        # 48-character y title ran 18 px above the figure
        assert _text_outside_figures(page) == []
        # the power-law/forecast table scrolls sideways rather than squeeze its long cells into 90 px columns
        widths = page.evaluate("() => [...document.querySelectorAll('#failure .fits tbody tr:first-child td')]"
                               ".slice(1).map(td => td.getBoundingClientRect().width)")
        assert len(widths) == 3 and min(widths) >= 200, widths
        # no label runs into another: the 1-2-5 k ticks to 300, turned 30° by plotly, overlapped ("100" and "200", the
        # "1" at the origin and the y axis's "0"); on a phone the k axes keep the powers of ten (doubling: every other)
        for fig in page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].map(g => g.id)"):
            assert _overlapping_text(page, fig) == [], fig
        assert page.evaluate("() => [...document.querySelectorAll('#fig-passk .xaxislayer-above text')]"
                             ".map(t => t.textContent)") == ["1", "10", "100"]
        # the contents in one column (two ran an entry into the other's number), and the per-problem table, which
        # scrolls sideways, shaded at the edge where more columns lie (as the model tables are)
        assert page.evaluate("() => getComputedStyle(document.querySelector('.toc ol')).columnCount") == "1"
        box = page.locator("#problem-table").locator("xpath=..")
        assert box.evaluate("b => b.scrollWidth > b.clientWidth && getComputedStyle(b).backgroundImage.includes("
                            "'linear-gradient')")
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


def _legends_outside_figures(page) -> list:
    """Legends not wholly shown inside their figure: [figure id, legend box, figure box, rows hidden by plotly's
    scrolling (full height - height shown, px)]."""
    return page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(g => {
        const leg = g.querySelector('.legend'), lg = g._fullLayout.legend;
        if (!leg || !lg) return [];
        const b = g.getBoundingClientRect(), r = leg.getBoundingClientRect(), hidden = lg._height - lg._effHeight;
        const inside = r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
        return inside && hidden < 1 ? [] : [[g.id, [r.left, r.top, r.right, r.bottom], [b.left, b.top, b.right, b.bottom],
                                             hidden]]; })""")


def _text_outside_figures(page) -> list[str]:
    """Text of any chart (axis titles, ticks, subplot titles) drawn past its figure's edges, where it is cut off. The
    legend is left out: a long one scrolls inside its own box (plotly's scroll bar), its hidden rows lie beyond."""
    return page.evaluate("""() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(g => {
        const b = g.getBoundingClientRect();
        return [...g.querySelectorAll('text')].filter(t => t.textContent.trim() && !t.closest('.legend'))
            .map(t => [t, t.getBoundingClientRect()])
            .filter(([, r]) => r.width && (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1
                                           || r.bottom > b.bottom + 1))
            .map(([t]) => g.id + ': ' + t.textContent); })""")


def test_report_long_table_shows_a_page_at_a_time(browser, tmp_path):
    """A per-problem table longer than a page shows 500 rows (of those the filter keeps, in the sorted order) with
    buttons for more: the browser laid out all 5,000 rows of a 25-model report after every sort (0.5-0.9 s each)."""
    from passcurve import simulate
    from passcurve.report import build_report

    counts = simulate(problems=130, n=20, rng=3).counts  # 4 models x 130 problems = 520 rows
    path = build_report(counts, parts=()).write(tmp_path / "report.html")
    pg = OfflinePage(browser, path, width=1280)
    try:
        page = pg.page
        def shown() -> list[list[str]]:
            return page.evaluate("() => [...document.querySelectorAll('#problem-table tbody tr')]"
                                 ".filter(r => r.style.display !== 'none').map(r => [...r.cells].map(c => c.textContent))")

        assert len(shown()) == 500 < len(counts)
        assert page.evaluate("() => window.passcurveReport.pageSize") == 500
        pager = page.locator(".pager-text")
        assert pager.inner_text() == "Showing 500 of the 520 rows of this table."
        # sorting runs over every row: the page shown is the 500 smallest c/n, in order
        page.locator("#problem-table thead th", has_text="c/n").click()
        ratios = [float(r[4]) for r in shown()]
        assert ratios == sorted(ratios) and len(ratios) == 500
        assert ratios[-1] == pytest.approx(np.sort(counts.c / counts.n)[499], abs=5e-5)
        page.locator("input[data-filter=problem-table]").fill("never solved")
        never = int(np.sum(counts.c == 0))
        assert len(shown()) == min(never, 500) and all(r[-1] == "never solved" for r in shown())
        assert pager.inner_text() == f"Showing {min(never, 500)} of the {never} rows that match the filter."
        page.locator("input[data-filter=problem-table]").fill("")
        page.locator(".pager-all").click()
        assert len(shown()) == len(counts) and page.locator(".pager-more").is_hidden()
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


@pytest.fixture(scope="module")
def many_models_report(tmp_path_factory):
    """A report of 25 simulated models (30 problems, n = 20; curves only): the longest legends, on a phone."""
    from passcurve import ModelSpec, simulate
    from passcurve.report import build_report

    specs = [ModelSpec(f"model-{i:02d}", alpha=0.3 + 0.01 * i, beta=2.0) for i in range(25)]
    counts = simulate(problems=30, n=20, models=specs, rng=1).counts
    return build_report(counts, parts=()).write(tmp_path_factory.mktemp("many") / "report.html")


def test_report_of_many_models_on_a_phone_keeps_its_plots_and_axis_titles(browser, many_models_report):
    """25 models at 390 px: the legend under each chart is anchored to the figure's bottom and the figure grows so
    the plot keeps its height. The legend had been placed a fraction of the plot's height below it: its 13 rows
    shrank the plot to 142 px, the fraction with it, and the legend covered the x-axis title by 14 px."""
    path = many_models_report
    pg = OfflinePage(browser, path, width=390, height=844)
    try:
        page = pg.drawn(settle_ms=300)
        measure = ("() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g.id !== 'fig-hist').map(g => {"
                   " const l = g.querySelector('.legend').getBoundingClientRect(),"
                   " x = g.querySelector('.g-xtitle').getBoundingClientRect();"
                   " return [g.id, g._fullLayout.legend.orientation, g._fullLayout._size.h, l.top - x.bottom,"
                   " g._fullLayout.height]; })")
        charts = page.evaluate(measure)
        assert len(charts) >= 4
        assert _text_outside_figures(page) == []
        for fig, orientation, plot_h, gap, _ in charts:
            assert orientation == "h" and plot_h >= 240 and gap >= 0, (fig, plot_h, gap)
        # the whole legend shows, inside its figure: plotly capped it at half the figure's height and scrolled the
        # rest, and the 13th row (model-24) lay below the figure's edge, the 12th cut in half
        assert _legends_outside_figures(page) == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "report-25-models-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})  # wide again: the legend goes back, at the height built
        # (once plotly has fitted each figure to the new width: a second or so per 25-model figure), then grown by
        # the legend's hidden part as on a wide load (test_report_of_many_models_wide_shows_whole_legends)
        page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')].every(g => "
                               "!g._fullLayout.legend || g._fullLayout.legend.orientation === 'v')", timeout=20_000)
        for fig, orientation, _, _, height in page.evaluate(measure):
            assert orientation == "v" and height > (420 if fig == "fig-hidden" else 460), (fig, height)
        assert _legends_outside_figures(page) == []
        # and as wide as the page again: restoring the height had pinned each figure at its phone width (plotly
        # fills in the other dimension), so every chart stayed 346 px wide in a 1,136 px column
        # (plotly's resize of 25-model figures takes a second or so: wait for it, up to 10 s)
        fits = ("() => [...document.querySelectorAll('.js-plotly-plot')].every(g => g.clientWidth > 1000 && "
                "Math.abs(g._fullLayout.width - g.clientWidth) <= 1)")
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            page.wait_for_function(fits, timeout=10_000)
        except PlaywrightTimeout:  # the assertion below says which figures stayed narrow
            pass
        widths = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].map(g => "
                               "[g.id, g._fullLayout.width, g.clientWidth])")
        assert all(abs(w - cw) <= 1 and cw > 1000 for _, w, cw in widths), widths
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


def test_report_table_sorts_names_naturally(browser, tmp_path):
    """Problem and model names sort by their numbers' values, as first shown and on a click: "p10" sorted before "p2"
    and "model-10" before "model-9" (plain text order). With n = 5 the table has pass@2 and pass@4 (it had none)."""
    from passcurve.report import build_report

    problems = [f"p{j}" for j in range(1, 13)]
    counts = Counts.from_arrays([5] * 24, [j % 6 for j in range(24)], problem=problems[::-1] * 2,
                                model=["model-10"] * 12 + ["model-9"] * 12)
    path = build_report(counts, parts=()).write(tmp_path / "report.html")
    pg = OfflinePage(browser, path, width=1280)
    try:
        page = pg.page

        def column(name: str) -> list[str]:
            heads = [t.strip() for t in page.locator("#problem-table thead th").all_inner_texts()]
            return page.locator(f"#problem-table tbody tr td:nth-child({heads.index(name) + 1})").all_inner_texts()

        assert "pass@2" in page.locator("#problem-table thead").inner_text()
        assert column("problem") == problems * 2  # as first shown: p1, p2, ..., p12 for each model in file order
        page.locator("#problem-table thead th", has_text="model").click()
        assert column("model") == ["model-9"] * 12 + ["model-10"] * 12
        page.locator("#problem-table thead th", has_text="problem").click()
        assert column("problem") == [p for p in problems for _ in range(2)]
        page.locator("#problem-table thead th", has_text="problem").click()  # descending
        assert column("problem") == [p for p in problems[::-1] for _ in range(2)]
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


_FIGURES = ("() => [...document.querySelectorAll('.js-plotly-plot')].map(g => [g.id, g._fullLayout.legend ? "
            "g._fullLayout.legend.orientation : 'h', g._fullLayout._size.h, g._fullLayout.width, g.clientWidth])")


def _fitted_to(page, width: int, timeout: int = 15_000) -> list:
    """Set the window's width and wait until every figure is as wide as its box again (plotly's resize, then the
    report's legend fitting, take a second or two with 25 models)."""
    page.set_viewport_size({"width": width, "height": 844})
    fitted = ("() => [...document.querySelectorAll('.js-plotly-plot')].every(g => "
              "Math.abs(g._fullLayout.width - g.clientWidth) <= 1 && (g.clientWidth >= 600 || "
              "!g._fullLayout.legend || g._fullLayout.legend.orientation === 'h'))")
    for _ in range(10):  # and still so a second later: the report's own relayouts and resizes come after plotly's
        page.wait_for_function(fitted, timeout=timeout)
        page.wait_for_timeout(1000)
        if page.evaluate(fitted):
            break
    return page.evaluate(_FIGURES)


def test_report_narrowed_after_loading_fits_the_phone(browser, report_file):
    """From 390 to 320 px: the figures whose height had grown at 390 kept their 346 px width (the height relayout
    pins it), 70 px past the page's edge, and the page scrolled sideways; and the legend, wrapped into more rows,
    took the naive chart's plot down to 208 px."""
    _, path = report_file
    pg = OfflinePage(browser, path, width=390, height=844)
    try:
        page = pg.drawn(settle_ms=300)
        for fig, orientation, plot_h, width, box in _fitted_to(page, 320):
            assert orientation == "h" and plot_h >= 255 and abs(width - box) <= 1 and box <= 280, (fig, plot_h, width)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
        assert _text_outside_figures(page) == []
        page.screenshot(path=str(ARTIFACTS / "report-390-to-320.png"), full_page=True)
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


@pytest.mark.parametrize("width", [1400, 1280])
def test_report_of_many_models_wide_shows_whole_legends(browser, many_models_report, width):
    """25 models at 1,400 px: the legend beside each chart scrolled (13 of its 25 entries shown; plotly's legend is
    725 px tall beside a 370 px plot). The figure grows by the hidden part, so every entry shows inside it; a
    4-model report keeps the height built (test_legend_under_a_chart_on_a_phone_leaves_the_caption_clear)."""
    pg = OfflinePage(browser, many_models_report, width=width, height=900)
    try:
        page = pg.drawn(settle_ms=300)
        charts = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')].filter(g => g.id !== 'fig-hist')"
                               ".map(g => [g.id, g._fullLayout.legend.orientation, g._fullLayout.height,"
                               " g.querySelectorAll('.legend .traces').length, g.parentElement.clientHeight])")
        assert len(charts) >= 4
        for fig, orientation, height, entries, box in charts:
            # every model and the style key, beside a plot grown from the 460 px built
            assert orientation == "v" and entries >= 25 and height > 460 and abs(box - height) <= 1, (fig, height, box)
        assert _legends_outside_figures(page) == []
        assert _text_outside_figures(page) == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"report-25-models-{width}.png"), full_page=True)
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


def test_report_of_many_models_narrowed_after_loading(browser, many_models_report):
    """25 models loaded at 1,280 px, then narrowed to 390 and 320 px: the legends go under the plots, which keep
    MIN_PLOT (260 px) within a pixel, and every figure fits the page (it stayed 346 px wide at 320 px)."""
    path = many_models_report
    pg = OfflinePage(browser, path, width=1280, height=900)
    try:
        page = pg.drawn()
        for width in (390, 320):
            figures = _fitted_to(page, width, timeout=30_000)
            for fig, orientation, plot_h, w, box in figures:
                assert orientation == "h" and abs(w - box) <= 1, (width, fig, orientation, w, box)
                assert fig == "fig-hist" or plot_h >= 258, (width, fig, plot_h)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert _text_outside_figures(page) == []
            assert _legends_outside_figures(page) == []  # wrapped into more rows at 320 px, still whole
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"report-25-models-1280-to-{width}.png"), full_page=True)
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()


def _overlapping_text(page, fig: str) -> list[str]:
    """Pairs of texts of a figure (tick labels, axis and panel titles; not the legend) whose boxes overlap by more
    than a pixel each way."""
    return page.evaluate("""(id) => {
        const ts = [...document.getElementById(id).querySelectorAll('text')]
            .filter(t => t.textContent.trim() && !t.closest('.legend'))
            .map(t => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.width && r.height);
        const out = [];
        for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
            const a = ts[i][1], b = ts[j][1];
            if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
                Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) out.push(ts[i][0] + ' | ' + ts[j][0]);
        }
        return out; }""", fig)


@pytest.mark.parametrize("n", [200, 1000])  # linear bins; log bins (most solved problems below c/n = 0.05)
def test_histogram_of_five_models_on_a_phone(browser, tmp_path, n):
    """Five models' c/n panels, three to a row: at 390 px each was 72 px wide, plotly turned the x labels on end into
    the next row's panel titles and the middle and right panels' percentages ran into their left neighbours. On a
    phone the panels go two to a row with three x ticks; at 1,400 px (and back to it) the grid and ticks are as
    built. Checked at 1,400, 390 and 320 px, the figure loaded wide and narrowed; on log bins (n = 1,000) "0.01" ran
    into "0.1" at 320 px until every other decade was kept."""
    from passcurve import ModelSpec, simulate
    from passcurve.report import build_report

    specs = [ModelSpec(f"model-{i:02d}", alpha=0.3 + 0.01 * i, beta=2.0 + i % 3) for i in range(5)]
    counts = simulate(problems=60, n=n, models=specs, rng=1).counts
    path = build_report(counts, parts=()).write(tmp_path / "report.html")
    pg = OfflinePage(browser, path, width=1400, height=900)
    log = n == 1000
    ticks = "() => document.getElementById('fig-hist').querySelectorAll('.xaxislayer-above text').length"
    panels = ("() => { const l = document.getElementById('fig-hist')._fullLayout; return [1, 2, 3].map(i => "
              "l['xaxis' + (i > 1 ? i : '')].domain.map(v => Math.round(v * 100) / 100)); }")
    try:
        page = pg.page
        page.wait_for_selector("#fig-hist .main-svg")
        wide_ticks = page.evaluate(ticks)
        assert log or wide_ticks == 5 * 5  # 0, 0.25, 0.5, 0.75, 1 under each panel
        wide = page.evaluate(panels)
        assert wide[2][0] > wide[1][1] > wide[1][0] > wide[0][1]  # three panels to a row
        assert page.evaluate("() => document.getElementById('fig-hist')._fullLayout.xaxis.type") == (
            "log" if log else "linear")
        for width in (390, 320):
            _fitted_to(page, width)
            # 0, 0.5, 1 under each panel; on log bins 0 and every other decade, fewer than the wide figure's
            assert page.evaluate(ticks) < wide_ticks if log else page.evaluate(ticks) == 3 * 5
            got = page.evaluate(panels)
            assert got[0] == got[2] and got[1][0] > got[0][1], got  # two to a row: the third starts a new one
            assert _overlapping_text(page, "fig-hist") == [], width
            assert _text_outside_figures(page) == []
            page.locator("#fig-hist").screenshot(path=str(ARTIFACTS / f"report-histogram-5-models-n{n}-{width}.png"))
        _fitted_to(page, 1400)
        assert page.evaluate(ticks) == wide_ticks and page.evaluate(panels) == wide
        assert _overlapping_text(page, "fig-hist") == []
        assert pg.errors == [] and pg.others() == []
    finally:
        pg.close()
