"""How a written report behaves in headless Chromium: time to load, to every chart drawn, and to sort the table.

Run by hand on any report: PYTHONPATH=src python benchmarks/bench_report_browser.py report.html [--repeat 3]
Needs Debian's /usr/bin/chromium (never `playwright install`). The page is opened offline, every request other
than the file itself aborted and counted. Prints the HTML's size, the times to the `load` event and to every chart
drawn, the DOM's nodes, the per-problem table's rows (and how many are laid out), and for each of its first six
columns the time of one sort: the sort itself (JS) and the layout it forces, each measured in the page with
performance.now(). Figures go into docs/report.md ("A user review in Chromium").
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"

SORT = """() => {
  const t = document.getElementById('problem-table'), out = [];
  if (!t) return out;
  for (let c = 0; c < Math.min(6, t.tHead.rows[0].cells.length); c++) {
    const th = t.tHead.rows[0].cells[c];
    const t0 = performance.now(); window.passcurveReport.sortTable(t, c, th); const t1 = performance.now();
    document.body.offsetHeight; const t2 = performance.now();
    out.push([t1 - t0, t2 - t1]);
  }
  return out;
}"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("report", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--width", type=int, default=1280)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    path = args.report.resolve()
    url = path.as_uri()
    load, drawn, js, layout = [], [], [], []
    others: list[str] = []

    def route(r: Any) -> None:  # offline: only the file itself loads
        if r.request.url == url:
            r.continue_()
        else:
            others.append(r.request.url)
            r.abort()

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(args.repeat):
            ctx = browser.new_context(viewport={"width": args.width, "height": 900})
            ctx.set_offline(True)
            ctx.route("**/*", route)
            page = ctx.new_page()
            t0 = time.perf_counter()
            page.goto(url, timeout=120_000)
            load.append(time.perf_counter() - t0)
            charts = page.evaluate("() => document.querySelectorAll('.plotly-graph-div').length")
            page.wait_for_function(f"() => document.querySelectorAll('.js-plotly-plot .main-svg').length >= {charts}",
                                   timeout=120_000)
            drawn.append(time.perf_counter() - t0)
            nodes = page.evaluate("() => document.getElementsByTagName('*').length")
            rows = page.evaluate("() => { const t = document.getElementById('problem-table'); return t ? "
                                 "[t.tBodies[0].rows.length, [...t.tBodies[0].rows].filter(r => r.style.display "
                                 "!== 'none').length] : [0, 0]; }")
            for a, b in page.evaluate(SORT):
                js.append(a / 1e3)
                layout.append(b / 1e3)
            assert not others, f"requests left the page: {others[:3]}"
            ctx.close()
        browser.close()
    med = statistics.median
    print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB, {charts} charts, {nodes:,} DOM nodes, "
          f"table {rows[0]:,} rows ({rows[1]:,} laid out)")
    print(f"load {med(load):.2f} s, every chart drawn {med(drawn):.2f} s (medians of {args.repeat})")
    if js:
        print(f"one sort: JS {med(js):.3f} s (max {max(js):.3f}), layout {med(layout):.3f} s (max {max(layout):.3f}); "
              f"{len(js)} sorts")


if __name__ == "__main__":
    main()
