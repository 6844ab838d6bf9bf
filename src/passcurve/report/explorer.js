// passcurve explorer: exact Beta products, drawn as inline SVG. No sampling, no network.
(function () {
  "use strict";

  var NU_MIN = 1e-3; // same clamp as passcurve.report._explorer.NU_MIN
  var KS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
  var SVGNS = "http://www.w3.org/2000/svg"; // an XML namespace name, never fetched

  // log Gamma (Lanczos, g = 7, n = 9), relative error ~1e-15 for x > 0
  var LG = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7];
  function lgamma(x) {
    if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
    x -= 1;
    var a = LG[0], t = x + 7.5;
    for (var i = 1; i < 9; i++) a += LG[i] / (x + i);
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  // Beta(alpha, beta) with mean mu and standard deviation sd, clamped where infeasible.
  function params(mu, sd) {
    if (sd === 0) return { mu: mu, alpha: Infinity, beta: Infinity, sdEff: 0, capped: false, coin: true };
    var nu = mu * (1 - mu) / (sd * sd) - 1, capped = nu < NU_MIN;
    if (capped) nu = NU_MIN;
    return { mu: mu, alpha: mu * nu, beta: (1 - mu) * nu, sdEff: Math.sqrt(mu * (1 - mu) / (1 + nu)),
             capped: capped, coin: false };
  }

  // pass@k averaged over questions: 1 - prod_{j<k} (beta + j) / (alpha + beta + j), exactly.
  function passActual(p, k) {
    if (p.coin) return passIndependent(p.mu, k);
    var prod = 1;
    for (var j = 0; j < k; j++) prod *= (p.beta + j) / (p.alpha + p.beta + j);
    return 1 - prod;
  }
  function passIndependent(mu, k) { return -Math.expm1(k * Math.log1p(-mu)); }

  function readouts(mu, sd) {
    var p = params(mu, sd), both = mu * mu + p.sdEff * p.sdEff;
    return {
      p_right: mu, p_right_sq: mu * mu, p_both: both, p_second_given_first: both / mu,
      pass8_independent: passIndependent(mu, 8), pass8: passActual(p, 8), pass64: passActual(p, 64),
      params: p
    };
  }

  // Percent text: round half up; never "100%" or "0%" for a value strictly between 0 and 1.
  function pct(x, digits) {
    // a value that rounds to 0 or 100 but is not: a bound at the precision shown ("<1%" at 0 decimals)
    var scale = Math.pow(10, digits), v = Math.floor(x * 100 * scale + 0.5) / scale;
    if (v >= 100 && x < 1) return ">" + (100 - Math.pow(10, -digits)).toFixed(digits) + "%";
    if (v <= 0 && x > 0) return "<" + Math.pow(10, -digits).toFixed(digits) + "%";
    return v.toFixed(digits) + "%";
  }
  var DIGITS = { p_right: 0, p_right_sq: 0, p_both: 0, p_second_given_first: 0,
                 pass8_independent: 1, pass8: 1, pass64: 1 };

  // ---------------------------------------------------------------- drawing helpers
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, anchor) {
    var t = el("text", { x: x, y: y, "text-anchor": anchor || "middle" }, parent);
    t.textContent = s;
    return t;
  }
  function clear(svg) { while (svg.firstChild) svg.removeChild(svg.firstChild); }

  // regularized incomplete beta I_x(a, b): continued fraction (modified Lentz), symmetry for x large
  function betacf(x, a, b) {
    var TINY = 1e-300, c = 1, d = 1 - (a + b) * x / (a + 1);
    if (Math.abs(d) < TINY) d = TINY;
    d = 1 / d;
    var h = d;
    for (var m = 1; m <= 1000; m++) {
      var m2 = 2 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + num * d; if (Math.abs(d) < TINY) d = TINY; d = 1 / d;
      c = 1 + num / c; if (Math.abs(c) < TINY) c = TINY;
      h *= d * c;
      num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + num * d; if (Math.abs(d) < TINY) d = TINY; d = 1 / d;
      c = 1 + num / c; if (Math.abs(c) < TINY) c = TINY;
      var del = d * c;
      h *= del;
      if (Math.abs(del - 1) < 1e-15) break;
    }
    return h;
  }
  function ibeta(x, a, b) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    var lb = lgamma(a) + lgamma(b) - lgamma(a + b);
    if (x < (a + 1) / (a + b + 2)) return Math.exp(a * Math.log(x) + b * Math.log1p(-x) - lb) * betacf(x, a, b) / a;
    return 1 - Math.exp(b * Math.log1p(-x) + a * Math.log(x) - lb) * betacf(1 - x, b, a) / b;
  }

  // share of questions whose pass rate falls in each of BINS equal bins of [0, 1]
  var BINS = 20;
  function binShares(p) {
    var out = [], i;
    if (p.coin) {
      for (i = 0; i < BINS; i++) out.push(0);
      out[Math.min(Math.floor(p.mu * BINS), BINS - 1)] = 1;
      return out;
    }
    var prev = 0;
    for (i = 1; i <= BINS; i++) {
      var cur = i === BINS ? 1 : ibeta(i / BINS, p.alpha, p.beta);
      out.push(Math.max(cur - prev, 0));
      prev = cur;
    }
    return out;
  }

  // Charts are drawn at the width they are shown (up to 800): drawn 800 wide and scaled down to a phone's 360 px, their
  // 12 px labels came out 5 px tall. Below NARROW the labels are thinned so they do not run into each other.
  var NARROW = 560;
  function fitWidth(svg, H) {
    var W = Math.round(svg.getBoundingClientRect().width) || 800;
    W = Math.max(320, Math.min(800, W));
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    return W;
  }

  function drawDensity(svg, p) {
    clear(svg);
    var H0 = 230, narrow = (Math.round(svg.getBoundingClientRect().width) || 800) < NARROW;
    var H = narrow ? H0 + 16 : H0, W = fitWidth(svg, H);
    var L = 64, R = 20, T = 12, B = narrow ? 62 : 46, w = W - L - R, h = H - T - B;
    var X = function (v) { return L + v * w; }, Y0 = T + h;
    var shares = binShares(p), top = Math.max.apply(null, shares);
    var step = top > 0.5 ? 0.25 : top > 0.2 ? 0.1 : top > 0.1 ? 0.05 : 0.02;
    top = Math.ceil(top / step - 1e-9) * step;
    for (var g = 0; g <= top + 1e-9; g += step) {
      var yy = Y0 - g / top * h;
      el("line", { x1: L, x2: L + w, y1: yy, y2: yy, "class": "grid" }, svg);
      text(svg, L - 6, yy + 4, Math.round(g * 100) + "%", "end");
    }
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) { text(svg, X(v), Y0 + 16, Math.round(v * 100) + "%"); });
    text(svg, L, Y0 + 34, "always wrong", "start");
    text(svg, L + w, Y0 + 34, "always right", "end");
    text(svg, X(0.5), Y0 + (narrow ? 50 : 34), "pass rate of a question (bins of 5%)");
    var t = text(svg, 12, T + h / 2, "share of questions");
    t.setAttribute("transform", "rotate(-90 12 " + (T + h / 2) + ")");
    var bars = el("g", { id: "density-bars" }, svg);
    bars.setAttribute("data-shares", JSON.stringify(shares));
    shares.forEach(function (s, i) {
      var bh = s / top * h;
      el("rect", { x: X(i / BINS) + 1, y: Y0 - bh, width: w / BINS - 2, height: bh, fill: "#0b6bcb",
                   "fill-opacity": 0.55 }, bars);
    });
    el("line", { x1: L, x2: L + w, y1: Y0, y2: Y0, "class": "axis" }, svg);
    el("line", { x1: X(p.mu), x2: X(p.mu), y1: T, y2: Y0, stroke: "#c2410c", "stroke-dasharray": "4 4" }, svg);
    // right of the line, or left of it past the middle: at 99% the label ran off the chart's right edge ("ave")
    var right = p.mu <= 0.5;
    text(svg, X(p.mu) + (right ? 5 : -5), T + 12, "average " + pct(p.mu, 0), right ? "start" : "end").setAttribute(
      "id", "density-average");
  }

  function drawCurve(svg, p) {
    clear(svg);
    var H = 280, W = fitWidth(svg, H), narrow = W < NARROW, L = 64, R = 20, T = 12, B = 40, w = W - L - R, h = H - T - B;
    var X = function (i) { return L + i / (KS.length - 1) * w; };
    var Y = function (v) { return T + (1 - v) * h; };
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      el("line", { x1: L, x2: L + w, y1: Y(v), y2: Y(v), "class": "grid" }, svg);
      text(svg, L - 6, Y(v) + 4, Math.round(v * 100) + "%", "end");
    });
    KS.forEach(function (k, i) { if (!narrow || i % 2 === 0) text(svg, X(i), T + h + 18, String(k)); });
    text(svg, L + w / 2, T + h + 36, "k (answers sampled; log scale, doubling)");
    var yl = text(svg, 12, T + h / 2, "pass@k");
    yl.setAttribute("transform", "rotate(-90 12 " + (T + h / 2) + ")");
    el("line", { x1: L, x2: L + w, y1: T + h, y2: T + h, "class": "axis" }, svg);
    function line(f, attrs) {
      var pts = KS.map(function (k, i) { return X(i).toFixed(2) + "," + Y(f(k)).toFixed(2); });
      attrs.points = pts.join(" ");
      attrs["data-values"] = JSON.stringify(KS.map(f)); // the exact values drawn (the browser tests read them)
      attrs.fill = "none";
      el("polyline", attrs, svg);
      KS.forEach(function (k, i) {
        el("circle", { cx: X(i), cy: Y(f(k)), r: 3, fill: attrs.stroke }, svg);
      });
    }
    // the actual curve first: where the two coincide (sigma = 0) the dashed one stays visible on top
    line(function (k) { return passActual(p, k); }, { stroke: "#0b6bcb", "stroke-width": 3, id: "curve-actual" });
    line(function (k) { return passIndependent(p.mu, k); },
         { stroke: "#c2410c", "stroke-width": 2.5, "stroke-dasharray": "7 5", id: "curve-independent" });
  }

  // the explanation as HTML (its k raised with <sup>): the percentages escaped, as "<1%" is
  function ht(x, digits) { return pct(x, digits).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function explain(r, mu, sdSlider) {
    var p = r.params, s;
    if (p.coin) {
      s = "Every question has the same pass rate, so answers are independent coin flips: the second answer is right " +
          ht(mu, 0) + " of the time whatever the first did, and pass@k follows 1 \u2212 (1 \u2212 " + ht(mu, 0) +
          ")<sup>k</sup> exactly (pass@8 = " + ht(r.pass8, 1) + ").";
    } else {
      s = "Questions differ, so a right first answer is evidence the question is easy: the second answer is then right " +
          ht(r.p_second_given_first, 0) + " of the time, not " + ht(mu, 0) + ". The answers are independent given " +
          "the question, but not overall, so sampling more helps less than the independent formula promises: " +
          "pass@8 is " + ht(r.pass8, 1) + ", not " + ht(r.pass8_independent, 1) + ". Hard questions stay hard.";
    }
    if (p.capped) {
      s += " (With an average of " + ht(mu, 0) + ", questions can differ by at most " + ht(p.sdEff, 1) +
           ": each question is then always right or always wrong; the slider's " + ht(sdSlider, 0) +
           " is capped there.)";
    }
    return s;
  }

  function update() {
    var mu = Number(document.getElementById("mean").value) / 100;
    var sd = Number(document.getElementById("sd").value) / 100;
    var r = readouts(mu, sd), p = r.params;
    document.getElementById("mean-out").textContent = pct(mu, 0);
    document.getElementById("sd-out").textContent = pct(sd, 0) + (p.capped ? " (capped at " + pct(p.sdEff, 1) + ")" : "");
    document.getElementById("sd-note").textContent = p.capped
      ? "Too much spread for this average: showing the largest possible, " + pct(p.sdEff, 1) + "." : "";
    document.getElementById("beta-params").textContent = p.coin
      ? "\u03c3 = 0: every question has pass rate " + pct(mu, 0)
      : "\u03b1 = " + p.alpha.toPrecision(4) + ", \u03b2 = " + p.beta.toPrecision(4);
    Object.keys(DIGITS).forEach(function (key) {
      var node = document.getElementById("r-" + key);
      node.textContent = pct(r[key], DIGITS[key]);
      node.setAttribute("data-value", String(r[key]));
    });
    // HTML for the raised k (the text holds nothing but these literals and percentages)
    document.getElementById("legend-indep").innerHTML = "if independent: 1 \u2212 (1 \u2212 " + ht(mu, 0) + ")<sup>k</sup>";
    document.getElementById("explain").innerHTML = explain(r, mu, sd);
    drawDensity(document.getElementById("density"), p);
    drawCurve(document.getElementById("curve"), p);
  }

  window.addEventListener("resize", function () {
    var p = params(Number(document.getElementById("mean").value) / 100, Number(document.getElementById("sd").value) / 100);
    drawDensity(document.getElementById("density"), p);
    drawCurve(document.getElementById("curve"), p);
  });
  window.passcurveExplorer = { ks: KS, binShares: binShares, ibeta: ibeta, params: params, readouts: readouts, passActual: passActual, pct: pct, update: update };
  document.getElementById("mean").addEventListener("input", update);
  document.getElementById("sd").addEventListener("input", update);
  update();
})();
