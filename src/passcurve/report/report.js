// passcurve report: sortable tables and a row filter, in plain JS (no network, no libraries).
(function () {
  "use strict";
  // text sorts as a reader orders it, by its runs of digits (by value) and of other characters in turn: "p2" before
  // "p10", "model-9" before "model-10" (it sorted as plain text, "p10" before "p2"); passcurve's natural_key in
  // Python, whose order the problem column carries in data-sort
  function parts(v) {
    return v.toLowerCase().split(/(\d+)/).map(function (p, i) { return i % 2 ? Number(p) : p; });
  }
  function compareText(x, y) {
    for (var i = 0; i < Math.min(x.p.length, y.p.length); i++) {
      if (x.p[i] !== y.p[i]) return x.p[i] < y.p[i] ? -1 : 1;
    }
    return x.p.length - y.p.length || (x.s < y.s ? -1 : x.s > y.s ? 1 : 0);
  }
  function cellValue(td) {
    var v = td.getAttribute("data-sort");
    if (v === null) v = td.textContent.trim();
    var num = Number(v);
    return v !== "" && !isNaN(num) ? { n: num } : { s: v, p: parts(v) };
  }
  function sortTable(table, col, th) {
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    var asc = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var keyed = rows.map(function (r, i) { return { r: r, v: cellValue(r.cells[col]), i: i }; });
    keyed.sort(function (a, b) {
      var x = a.v, y = b.v, d;
      if ("n" in x && "n" in y) d = x.n - y.n;
      else if ("n" in x) d = -1;
      else if ("n" in y) d = 1;
      else d = compareText(x, y);
      if (d === 0) d = a.i - b.i;
      return asc ? d : -d;
    });
    var frag = document.createDocumentFragment();
    keyed.forEach(function (k) { frag.appendChild(k.r); });
    body.appendChild(frag);
    show(table);
  }
  // Long tables show PAGE rows at a time (of those the filter keeps, in the current order) with buttons for more:
  // the browser laid out all 5,000 rows of a 25-model table after every sort, 0.7-1.7 s. Sorting and filtering
  // still run over every row.
  var PAGE = 500;
  function show(table) {
    var q = table._query || "", limit = table._limit || PAGE, kept = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var keep = !q || r.textContent.toLowerCase().indexOf(q) >= 0;
      if (keep) kept++;
      r.style.display = keep && kept <= limit ? "" : "none";
    });
    var pager = table._pager;
    if (!pager) return;
    var shown = Math.min(kept, limit);
    pager.querySelector(".pager-text").textContent = "Showing " + shown.toLocaleString("en-US") + " of the " +
      kept.toLocaleString("en-US") + (q ? " rows that match the filter." : " rows of this table.");
    pager.querySelector(".pager-more").hidden = pager.querySelector(".pager-all").hidden = shown >= kept;
  }
  function addPager(table) {
    if (table.tBodies[0].rows.length <= PAGE) return;
    var p = document.createElement("p");
    p.className = "pager muted";
    p.innerHTML = '<span class="pager-text" aria-live="polite"></span> ' +
      '<button type="button" class="pager-more">Show ' + PAGE + ' more</button> ' +
      '<button type="button" class="pager-all">Show all</button>';
    var box = table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    box.parentNode.insertBefore(p, box.nextSibling);
    p.querySelector(".pager-more").addEventListener("click", function () {
      table._limit = (table._limit || PAGE) + PAGE;
      show(table);
    });
    p.querySelector(".pager-all").addEventListener("click", function () {
      table._limit = Infinity;
      show(table);
    });
    table._pager = p;
    show(table);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.setAttribute("title", "click to sort");
      // reachable and usable from the keyboard too (Tab to a header, Enter or Space sorts), as a button would be
      th.setAttribute("tabindex", "0");
      th.addEventListener("click", function () { sortTable(table, col, th); });
      th.addEventListener("keydown", function (ev) {
        if (ev.key !== "Enter" && ev.key !== " ") return;
        ev.preventDefault();
        sortTable(table, col, th);
      });
    });
    addPager(table);
  });
  Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), function (input) {
    var table = document.getElementById(input.getAttribute("data-filter"));
    input.addEventListener("input", function () {
      table._query = input.value.trim().toLowerCase();
      table._limit = PAGE;
      show(table);
    });
  });
  // legend entries that explain a line style ("power law", dashed) show or hide every line of that style
  function styleOf(tr) { return (tr.line && tr.line.dash) || "solid"; }
  Array.prototype.forEach.call(document.querySelectorAll(".js-plotly-plot"), function (gd) {
    if (!gd.on || !window.Plotly) return;
    gd.on("plotly_legendclick", function (ev) {
      var key = ev.data[ev.curveNumber], meta = String(key.meta || "");
      if (meta.indexOf("style-key:") !== 0) return true;
      var dash = meta.slice(10), idx = [], entries = [];
      ev.data.forEach(function (tr, i) {
        if (i !== ev.curveNumber && tr.fill !== "toself" && String(tr.meta || "").indexOf("style-key:") !== 0 &&
            styleOf(tr) === dash) (tr.showlegend === false ? idx : entries).push(i);
      });
      var hide = key.visible !== "legendonly";
      window.Plotly.restyle(gd, { visible: hide ? "legendonly" : true }, [ev.curveNumber]);
      if (idx.length) window.Plotly.restyle(gd, { visible: hide ? false : true }, idx);
      // a line that carries its model's legend entry (the solid "observed" one) is greyed out, not removed:
      // visible=false would take the model's entry out of the legend with it (every model name vanished)
      if (entries.length) window.Plotly.restyle(gd, { visible: hide ? "legendonly" : true }, entries);
      return false;
    });
  });
  // narrow screens (phones): the legend goes under the chart, so the plot keeps the width. It is anchored to the
  // bottom of the figure (not a fraction of the plot's height below it: a long legend shrank the plot, the fraction
  // with it, and 25 models' legend covered the x-axis title), and a figure whose legend took the plot's height
  // grows until the plot has MIN_PLOT px again. A figure may carry its own phone layout in layout.meta.narrow (the
  // relayout to apply) and layout.meta.wide (the one that undoes it): the histogram's panels, two to a row
  var MIN_PLOT = 260;
  function alt(gd, which) {
    var meta = gd.layout.meta;
    return meta && typeof meta === "object" && meta[which] ? meta[which] : {};
  }
  function merged(a, b, c) {
    var out = {}, k;
    for (k in a) out[k] = a[k];
    for (k in b) out[k] = b[k];
    for (k in c) out[k] = c[k];
    return out;
  }
  // axis titles one size smaller on a phone: at 320 px "k (samples per problem, log scale)" ran 12 px past the
  // figure's right edge, cut off at "log scale"
  function titleFonts(gd, size) {
    var out = {};
    Object.keys(gd._fullLayout).forEach(function (k) {
      if (/^[xy]axis[0-9]*$/.test(k)) out[k + ".title.font.size"] = size;
    });
    return out;
  }
  // plotly caps a legend under the plot at half the figure's height and scrolls the rest: 25 models' legend at
  // 390 px showed 12 of its 13 rows, the last cut in half. Give it its whole height (in px, measured at this width:
  // plotly's _height is the legend's full height, _effHeight the part shown) and the figure as much more, so the plot
  // keeps its height. Not as a fraction of the figure (maxheight 1): at 460 px a legend that tall left the plot no
  // height, and plotly threw "Something went wrong with axis scaling"
  function unscroll(gd) {
    var lg = gd._fullLayout.legend;
    if (!lg || !(lg._height > lg._effHeight + 0.5)) return 0;
    window.Plotly.relayout(gd, { "legend.maxheight": Math.ceil(lg._height) + 1,
                                 height: gd._fullLayout.height + Math.ceil(lg._height - lg._effHeight) + 1 });
    return 1;
  }
  function grow(gd, resized) {
    var unscrolled = unscroll(gd);
    // a plotly legend below the plot grows with the figure (its share of the height), so each step gains less
    // than it adds: up to 8 steps (4 left 25 models' plots at 253 px)
    for (var i = 0; i < 8 && gd._fullLayout._size.h < MIN_PLOT - 1; i++) {
      window.Plotly.relayout(gd, { height: gd._fullLayout.height + MIN_PLOT - gd._fullLayout._size.h });
    }
    // plotly's wrapper div keeps the fixed height figure_html wrote (style="height:460px"): grow it with the
    // figure, or the taller SVG spills over the caption below (by up to 134 px on the BoN data)
    gd.parentElement.style.height = gd._fullLayout.height + "px";
    // a relayout of the height pins the width at the current one (plotly fills the other dimension in), and plotly
    // never resizes a figure with both set: from 390 to 320 px the grown figures stayed 346 px wide, 70 px past the
    // page's edge, and the whole page scrolled sideways. Unpin it as plotly's own resize does (a relayout to
    // width null brings back the width the figure had when first drawn, 346 px, until the resize): the resize,
    // which skips a figure with both set, then fits the figure to its box, whose height is the grown one
    if (i || unscrolled || resized) unpin(gd);
  }
  function unpin(gd) {
    delete gd.layout.width;
    return resize(gd);
  }
  function resize(gd) {
    return window.Plotly.Plots && window.Plotly.Plots.resize ? window.Plotly.Plots.resize(gd) : null;
  }
  // wide screens: the legend beside the plot, which plotly scrolls past the figure's height (25 models at 1,400 px
  // showed 13 of their 25 entries). The figure grows by the hidden part (unscroll), the plot with it, up to twice the
  // height built (25 models: 460 -> 816 px); a longer legend still scrolls (60 models would make a 1,800 px plot)
  function wholeLegend(gd) {
    var lg = gd._fullLayout.legend;
    if (!lg || lg._height - lg._effHeight > Number(gd.getAttribute("data-height"))) return;
    if (!unscroll(gd)) return;
    gd.parentElement.style.height = gd._fullLayout.height + "px";
    unpin(gd);
  }
  function fitLegend(gd) {
    if (!window.Plotly || !gd.layout) return;
    var narrow = gd.clientWidth < 600, horizontal = gd.layout.legend && gd.layout.legend.orientation === "h";
    if (!gd.hasAttribute("data-height")) {  // the height built, before any legend fitting grew it
      gd.setAttribute("data-height", String(gd._fullLayout.height));
      gd.setAttribute("data-box-height", gd.parentElement.style.height || "");
    }
    if (narrow && !horizontal) {
      gd.setAttribute("data-legend-moved", "1");
      // a figure grown wide for its legend (wholeLegend) starts from the height built again; a relayout of the
      // height pins the width (grow unpins it), so only when it changes
      var built = Number(gd.getAttribute("data-height")), shrink = gd._fullLayout.height !== built ? { height: built } : {};
      window.Plotly.relayout(gd, merged({ "legend.orientation": "h", "legend.x": 0, "legend.xanchor": "left",
                                          "legend.yref": "container", "legend.y": 0, "legend.yanchor": "bottom",
                                          "legend.maxheight": null },
                                        titleFonts(gd, 12), merged(shrink, alt(gd, "narrow"))));
      grow(gd, "height" in shrink || "height" in alt(gd, "narrow"));
    } else if (narrow && gd.getAttribute("data-legend-moved") === "1") {
      // narrower still (390 -> 320 px): the legend wraps into more rows and took the plot's height again (the
      // naive chart's plot fell to 208 px); grow once plotly has fitted the figure to its new width
      grow(gd);
    } else if (!narrow && horizontal && gd.getAttribute("data-legend-moved") === "1") {
      gd.removeAttribute("data-legend-moved");
      window.Plotly.relayout(gd, merged({ "legend.orientation": "v", "legend.x": null, "legend.xanchor": null,
                                          "legend.yref": null, "legend.y": null, "legend.yanchor": null,
                                          "legend.maxheight": null,
                                          height: Number(gd.getAttribute("data-height")) }, titleFonts(gd, null),
                                        alt(gd, "wide")));
      // a relayout of the height pins the width at the current one: after a visit to a phone's width every chart
      // stayed 346 px wide on a 1,400 px window. Unpin it; the resize fits it to the page again
      gd.parentElement.style.height = gd.getAttribute("data-box-height") || "";
      unpin(gd);
      wholeLegend(gd);
    } else if (!narrow && !horizontal) {
      wholeLegend(gd);
    }
  }
  function plots() { return document.querySelectorAll(".js-plotly-plot"); }
  Array.prototype.forEach.call(plots(), fitLegend);
  // after a resize, once plotly has fitted each figure to its new width (a figure narrowed after loading was
  // measured at its old width)
  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      Array.prototype.forEach.call(plots(), function (gd) {
        var done = window.Plotly && resize(gd);
        if (done && typeof done.then === "function") done.then(function () { fitLegend(gd); });
        else fitLegend(gd);
      });
    }, 150);
  });
  window.passcurveReport = { sortTable: sortTable, pageSize: PAGE };
})();
