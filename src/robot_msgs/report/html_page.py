"""One self-contained HTML page: the report's tables and figures, interactive or static.

Each figure is described once (:mod:`robot_msgs.report.figure_spec`). Interactive (the
default): drawn by plotly.js (:mod:`robot_msgs.report.interactive`), inlined in the page
(the ``html`` extra brings it: ``pip install 'robot_msgs[html]'``), with zoom, hover
(run, stamp, error), linked trajectory and error views, and legend toggling of
algorithms and trials. Static (``static=True``, ``report --static``): drawn by
matplotlib (:mod:`robot_msgs.report.plots`) as inline PNG and no script at all, for
e-mail and print. Either way the page fetches nothing: no stylesheet, font, script or
image is referenced by URL (``tests/report/test_html_page.py`` checks both in headless
Chromium), so it can be archived or opened offline.

WHY plotly.js: it draws every figure the report needs (lines, markers coloured on a
shared scale with a colour bar, filled intervals, box plots, bars with error bars,
several panels) with zoom, hover and legend toggling built in, works from one inlined
file with no server, and is what trajectopy's interactive reports use. Measured on the
shipped example report (``benchmarks/bench_report_html.py``, 2-core machine): the page
is 5.2 MB (4.8 MB of it plotly.js) against 1.0 MB for the static one; Python builds it
in 0.04 s against 2.1 s (no rasterising: the figures are data); headless Chromium draws
all nine plots 0.67 s after navigation (the static page: 0.09 s). ``robot-msgs --help``
imports neither (0.09 s). Not measured: uPlot (no Python package, no box plots or
colour bars) and Bokeh (a second document model in Python for the same figures).
"""

from __future__ import annotations

import base64
import html
import re
from typing import TYPE_CHECKING

from robot_msgs.errors import FormatError
from robot_msgs.report import figure_spec, plots
from robot_msgs.report.ranking_tables import settings_text
from robot_msgs.report.run_tables import environment_table, sequence_name
from robot_msgs.report.tables import report_tables
from robot_msgs.report.text import counted

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.report.build import ReportResult
    from robot_msgs.report.interactive import Figure
    from robot_msgs.report.report_table import ReportTable
    from robot_msgs.report.saved_results import ResultsComparison

__all__ = ["render_html", "render_results_html", "script_json"]

# Every text breaks a word that would run past its line (body: overflow-wrap), a note
# naming a long path as well as the Notes box; break-word, not anywhere, so that a table's
# columns keep their words whole and the table scrolls in its box instead. Printed, a
# figure keeps to one page (a page's end cut the trajectories in two) and a heading to
# what follows it. Paper does not scroll: a printed table fits the page's width, in a
# smaller font (the smallest for a table of many columns, the example's 22 of Runs:
# at 0.55em its peak threads column, ec0680b, made it 740 px on 707 px of paper), so the
# Runs table keeps its last columns (they were cut at the paper's edge, its scrollbar
# printed a page later). Its words stay whole (broken anywhere, its headers
# read "succ ess", "late ncy"); a cell's text may break after "/" (a <wbr>, printed
# only: a run's name at its parts, "vio_ekf/fr2_desk/" "trial_1"). Only a wide table's
# first column, at least 5em, breaks a part longer than it anywhere: whole, a run named
# "dvo_slam_dense_visual_odometry/..." made Runs 814 px wide on 707 px of paper.
_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto;
       max-width: 1200px; color: #1b1b1b; background: #ffffff; line-height: 1.4; padding: 0 1em;
       overflow-wrap: break-word; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.4em 0 0.6em; font-size: 0.85em; }
div.table { overflow-x: auto; max-width: 100%; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.25em 0.6em; }
th { background: #f4f6f8; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.fail { color: #b00020; font-weight: 600; }
p.note { font-size: 0.85em; color: #555; margin: 0.2em 0; }
div.warn, div.info { padding: 0.5em 0.8em; margin: 0.8em 0; }
div.warn { background: #fff4e5; border-left: 4px solid #ff9800; }
div.info { background: #eef6ff; border-left: 4px solid #1f77b4; }
figure { margin: 0.8em 0; break-inside: avoid; }
h2, h3 { break-after: avoid; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.85em; color: #555; }
div.plot { width: 100%; min-height: 380px; border: 1px solid #eee; overflow: hidden; }
code { background: #f4f6f8; padding: 0 0.2em; overflow-wrap: anywhere; }
span.flag { white-space: nowrap; }
th.differs, td.differs { background: #fff3c4; }
@media screen { wbr { display: none; } }
@media print {
  div.modebar-container { display: none; }
  div.table { overflow: visible; }
  table { font-size: 0.6em; }
  th, td { padding: 0.15em 0.25em; overflow-wrap: normal; }
  table.wide { font-size: 0.52em; }
  table.wide th { font-size: 0.85em; }
  table.wide th, table.wide td { padding: 0.1em 0.15em; }
  table.wide td:first-child:not(.num) { overflow-wrap: anywhere; min-width: 5em; }
}
"""


#: A command-line flag named in a note (``--max-diff``, ``--invert-transform-right``).
_FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")


def _prose(text: str) -> str:
    """Return ``text`` escaped for HTML, each ``--flag`` it names kept on one line.

    A browser may end a line after any hyphen: a note naming settings read "--max-" /
    "diff", "--invert-transform-" / "right" and "no --" / "offset auto" on ``res
    --html``'s page at 1,400 px and 800 px, flags no one can type as read. A flag is as
    wide as ``--invert-transform-right`` (24 characters), within a phone's 360 px.

    Examples
    --------
    >>> _prose("no --offset auto & --max-diff 0.01")
    'no <span class="flag">--offset</span> auto &amp; <span class="flag">--max-diff</span> 0.01'
    """
    return _FLAG.sub(lambda m: f'<span class="flag">{m[0]}</span>', html.escape(text))


_WIDE = 12  # columns: printed, a table of more is set smaller (Runs' 21 in 707 px)


def _table_html(table: ReportTable, heading: str = "h3") -> str:
    # A column of a setting that differs between results (robot-msgs res) is highlighted.
    differs = [h.endswith("(differs)") for h in table.headers]
    marked = ' class="differs"'
    head = "".join(
        f"<th{marked if d else ''}>{html.escape(h)}</th>"
        for h, d in zip(table.headers, differs, strict=True)
    )
    rows = []
    for row in table.rows:
        cells = []
        for cell, numeric, differ in zip(row, table.numeric, differs, strict=True):
            css = "num" if numeric else ("fail" if cell == "NO" else "")
            css = f"{css} differs".strip() if differ else css
            attr = f' class="{css}"' if css else ""
            shown = html.escape(cell) if numeric else html.escape(cell).replace("/", "/<wbr>")
            cells.append(f"<td{attr}>{shown}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    notes = "".join(f'<p class="note">{_prose(n)}</p>' for n in table.notes)
    wide = ' class="wide"' if len(table.headers) > _WIDE else ""
    return (
        # A wide table scrolls in its own box: the page stays as wide as the window (a
        # results table of long paths ran past it; a review).
        f'<{heading}>{html.escape(table.title)}</{heading}>\n<div class="table"><table{wide}>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>\n{notes}"
    )


def _head(title: str) -> str:
    """Return the document's start: doctype, metadata, the inline style, the heading."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
        f"<h1>{html.escape(title)}</h1>"
    )


_SCRIPT = r"""
(function () {
  const config = {displaylogo: false, scrollZoom: true};  // resized below (resize)
  const groups = {};
  // Titles fit the width drawn (layout.meta.titles, interactive._fit): wrapped there for
  // a page 1,200 px wide, they ran into each other at 800 px. A line holds as many
  // characters of 0.6 em as its room is wide (a CJK one counts two; an entity one);
  // a word longer than a line is broken.
  const WIDE = new RegExp("[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff" +
                          "\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]");
  const EM = 0.6;
  function wrap(lines, fits) {
    const out = [], width = c => (WIDE.test(c) ? 2 : 1);
    for (const line of lines) {
      let row = "", n = 0;
      for (const word of line.split(" ")) {
        const chars = word.match(/&#?\w+;|[\s\S]/gu) || [];
        const w = chars.reduce((a, c) => a + width(c), 0);
        if (n && n + 1 + w > fits) { out.push(row); row = ""; n = 0; }
        if (n) { row += " "; n += 1; }
        for (const c of chars) {
          if (n && n + width(c) > fits) { out.push(row.trimEnd()); row = ""; n = 0; }
          row += c; n += width(c);
        }
      }
      out.push(row);
    }
    return out;
  }
  // A panel's title keeps to the lines above its panel, smaller where need be; the
  // figure's takes more lines, the figure growing by them. The panels keep the height
  // planned (meta.paper) whatever the legend below them takes at the width drawn: a
  // narrow page's legend took the rows' gaps, and a panel's title ran into the x axis'
  // title above it at 800 px.
  function titleUpdate(div, L, meta, update) {
    let extra = 0;
    for (const t of meta.titles) {
      if (t.at === "title") {
        const lines = wrap(t.lines, Math.max(8, Math.floor((L.width * 0.99 - 12) / (EM * t.size))));
        extra = 20 * Math.max(0, lines.length - t.lines.length);
        update["title.text"] = lines.join("<br>");
        continue;
      }
      const room = L._size.w * t.share;
      let size = t.size, fits, lines;
      for (;;) {
        fits = Math.max(2, Math.floor(room / (EM * size)));
        lines = wrap(t.lines, fits);
        if (lines.length * 1.5 * size <= t.room + 0.5 || size <= 8) break;
        size -= 0.5;
      }
      const keep = Math.max(1, Math.floor((t.room + 0.5) / (1.5 * size)));
      if (lines.length > keep) {  // at 8 px still too long: cut, a panel's whole on hover
        lines = lines.slice(0, keep);
        lines[keep - 1] = wrap([lines[keep - 1]], fits - 1)[0] + "\u2026";
      }
      update[`${t.at}.text`] = lines.join("<br>");
      update[`${t.at}.font.size`] = size;
      if (t.at.startsWith("annotations")) update[`${t.at}.hovertext`] = t.lines.join("<br>");
    }
    return extra;
  }
  // The legend: below several panels, meta.below px under them, in the margin (placed
  // from the figure's top: a fraction of the panels' height below them covered their
  // ticks and x axis' titles at 360 px). Beside one panel where that leaves the panel
  // 40 % of the width, else below it (beside, twelve algorithms' legend squeezed the
  // panel to 64 px at 360 px), the panel as high as planned (meta.beside.paper).
  // How far the x axes' ticks and titles reach below the panels: a box plot's long
  // categories, turned, took 120 px at 360 px and the legend covered them.
  function depth(div) {
    const bottom = s => Math.max(0, ...Array.from(div.querySelectorAll(s)).map(
      e => e.getBoundingClientRect()).filter(r => r.width > 0).map(r => r.bottom));
    const panels = bottom("rect.nsewdrag");
    return Math.max(0, bottom('g.xaxislayer-above, g[class^="g-x"][class$="title"]') - panels);
  }
  // A legend below its panels, from their left: each entry's name in lines that end by
  // the figure's right edge (a latency CDF's entry of 55 characters ran 27 px past it at
  // 360 px), as written where the legend is beside its panel.
  async function fitNames(div, base) {
    const L = div._fullLayout, bg = div.querySelector("g.legend rect.bg");
    const texts = Array.from(div.querySelectorAll("g.legend g.traces text.legendtext"));
    if (!bg || !texts.length) return;
    const left = Math.min(...texts.map(t => t.getBoundingClientRect().left));
    const room = L.width - L._size.l - (left - bg.getBoundingClientRect().left) - 4;
    const fits = L.legend.orientation !== "h" ? Infinity :
      Math.max(8, Math.floor(room / (EM * L.legend.font.size)));
    const names = base.names.map(n => (n === undefined || fits === Infinity ? n :
                                       wrap(n.split("<br>"), fits).join("<br>")));
    const changed = names.map((n, i) => i).filter(i => names[i] !== div.data[i].name);
    if (changed.length) await Plotly.restyle(div, {name: changed.map(i => names[i])}, changed);
  }
  // A y axis' title that repeats its left neighbour's (meta.repeats) is left to that one
  // where the gap between their panels is narrower than the axis' ticks and title need
  // (as last drawn): the trajectories' "z [m]" ran 16 px into the panel beside at 360 px.
  function repeatUpdate(div, base, meta, update) {
    const L = div._fullLayout, left = div.getBoundingClientRect().left;
    for (const [axis, after] of meta.repeats || []) {
      const x = L[`xaxis${axis}`], before = L[`xaxis${after}`];
      const title = div.querySelector(`g.g-y${axis}title`);
      const r = title ? title.getBoundingClientRect() : null;
      if (r && r.width > 0) base.need[axis] = x._offset - (r.left - left);
      // Reflowed (reflow), the first of a row has no neighbour on its left.
      const first = x._offset <= before._offset;
      const gap = first ? Infinity : x._offset - before._offset - before._length;
      const text = div.layout[`yaxis${axis}`].title.text;
      base.titles[axis] = base.titles[axis] === undefined ? text : base.titles[axis];
      update[`yaxis${axis}.title.text`] = base.need[axis] > gap ? "" : base.titles[axis];
    }
  }
  // An x axis gets no more ticks than its labels fit side by side: plotly.js draws 5
  // whatever the panel's width, then stands them upright (the trajectories' "0.2",
  // "0.4"... ran into each other in panels 40 px wide at 360 px). Each fit starts from
  // plotly.js's own count, then takes one label off an axis while plotly.js turns its
  // labels or they touch, as drawn: a count foretold from the labels last drawn (themselves
  // drawn with the count it set) flipped at each refit, 1 and 2 labels, 1 and 4 (one "0"
  // where "-0.5 0 0.5 1" fit, the repeatability's at 360 px).
  const xAxes = L => Object.keys(L).filter(k => /^xaxis\d*$/.test(k) &&
    L[k].type !== "category" && L[k].type !== "multicategory");
  function tickUpdate(div, L, update) {
    for (const name of xAxes(L)) if (div.layout[name].nticks) update[`${name}.nticks`] = 0;
  }
  function crowdedTicks(div) {
    const L = div._fullLayout, update = {};
    for (const name of xAxes(L)) {
      const ax = L[name];
      const boxes = Array.from(div.querySelectorAll(`g.xaxislayer-above g.${ax._id}tick text`))
        .map(t => t.getBoundingClientRect()).filter(r => r.width > 0)
        .sort((a, b) => a.left - b.left);
      const turned = Object.values(ax._tickAngles || {}).some(a => a);
      const touch = boxes.some((r, k) => k > 0 && r.left < boxes[k - 1].right + 4);
      // plotly.js's nticks is a bound it may pass by one (ticks on both ends): from the
      // bound it was given, so the loop below ends.
      const nticks = Math.min(boxes.length, div.layout[name].nticks || Infinity) - 1;
      if (nticks >= 1 && (turned || touch)) update[`${name}.nticks`] = nticks;
    }
    return update;
  }
  // The figure's title keeps under the modebar where its first line reaches the modebar's
  // left end: the modebar, always shown on a screen with no hover (a phone's), covered
  // the first line's end at 360 px. Its first line's baseline is at the top margin's
  // middle (plotly.js's title.y "auto"): the margin grows by twice what it moves down.
  const ruler = document.createElement("canvas").getContext("2d");
  function barRoom(div, L, t, update) {
    const bar = div.querySelector("div.modebar"), title = div.querySelector("g.g-gtitle text");
    const text = update["title.text"];
    if (!bar || !title || text === undefined) return 0;
    const box = div.getBoundingClientRect(), b = bar.getBoundingClientRect();
    if (b.width === 0) return 0;
    ruler.font = `${L.title.font.size}px ${L.title.font.family}`;
    const first = text.split("<br>")[0].replace(/&#?\w+;/g, "x");
    if (L.width * L.title.x + ruler.measureText(first).width < b.left - box.left) return 0;
    const ascent = L._size.t / 2 - (title.getBoundingClientRect().top - box.top);
    return Math.max(0, Math.ceil(2 * (b.bottom - box.top + 2 + ascent)) - t);
  }
  // Panels side by side (meta.grid) take as many columns as keep each MIN_PANEL px wide,
  // else one, and stand in more rows: at 360 px the three trajectories' panels were 42 px
  // wide, their axes on one scale (a review). 160 px is a panel of four a row on a page
  // 1,200 px wide, as planned (interactive.py). A panel reflowed is at most as high as
  // wide: printed, the trajectories' two rows as high as planned took more than a page.
  const MIN_PANEL = 160;
  async function reflow(div, g, meta) {
    const w = div._fullLayout._size.w, n = g.titles.length;
    // Apart by their y tick labels and title (g.need px, interactive.py): a position
    // view's northings ran into the panel on their left at 800 px.
    const gapOf = c => (c > 1 ? Math.max(g.gap, (g.need || 0) / (2 * w)) : 0);
    let c = g.columns;
    while (c > 1 && w * (1 / c - 2 * gapOf(c)) < MIN_PANEL) c -= 1;
    const rows = Math.ceil(n / c), gap = gapOf(c);
    const high = c < g.columns ? Math.min(g.high, Math.round(w * (1 / c - 2 * gap))) : g.high;
    const paper = rows * high + (rows - 1) * g.between;
    if (`${c} ${high} ${gap}` === (div.grid || `${g.columns} ${g.high} ${g.gap}`)) return paper;
    div.grid = `${c} ${high} ${gap}`;
    const update = {};
    for (let k = 0; k < n; k++) {
      const s = k ? String(k + 1) : "", x = [(k % c) / c + gap, (k % c + 1) / c - gap];
      const top = 1 - Math.floor(k / c) * (high + g.between) / paper;
      update[`xaxis${s}.domain`] = x;
      update[`yaxis${s}.domain`] = [Math.max(0, top - high / paper), top];
      if (g.titles[k] >= 0) {
        update[`annotations[${g.titles[k]}].x`] = (x[0] + x[1]) / 2;
        update[`annotations[${g.titles[k]}].y`] = top;
      }
    }
    for (const t of meta.titles) if (t.at !== "title") t.share = 1 / c - 2 * gap;
    await Plotly.relayout(div, update);
    return paper;
  }
  async function fitTitles(div) {
    const L = div._fullLayout, meta = div.layout.meta;
    if (!L || !meta || !meta.titles) return;
    const base = div.fitBase || (div.fitBase = {
      t: div.layout.margin.t, b: div.layout.margin.b, h: div.layout.height,
      legend: JSON.parse(JSON.stringify(div.layout.legend || {})),
      wide: L.legend ? L.legend._width : 0,  // as first drawn: beside one panel
      names: div.data.map(t => (t.showlegend === false ? undefined : t.name)),
      need: {}, titles: {},
    });
    div.fitting = true;  // its own relayouts are no resize
    try {
      let paper = meta.grid ? await reflow(div, meta.grid, meta) : meta.paper;
      if (meta.beside) {
        const m = div.layout.margin, side = meta.beside.side + base.wide;
        const below = L.width - m.l - m.r - side < 0.4 * L.width;
        if (below !== !!div.legendBelow) {
          div.legendBelow = below;
          const h = {orientation: "h", x: 0, xanchor: "left"};
          const legend = below ? Object.assign({}, base.legend, h) : base.legend;
          await Plotly.relayout(div, {legend: legend, autosize: true, width: null});
        }
        if (below) paper = meta.beside.paper;
      }
      await fitNames(div, base);
      // Its width left to the window: a height alone fixed the width too, and a page
      // narrowed after it was drawn scrolled sideways.
      const update = {autosize: true, width: null};
      let extra = titleUpdate(div, div._fullLayout, meta, update);
      extra += barRoom(div, div._fullLayout, base.t + extra, update);
      repeatUpdate(div, base, meta, update);
      tickUpdate(div, div._fullLayout, update);
      const t = base.t + extra;
      update["margin.t"] = t;
      if (paper === undefined) {
        // The x axis' ticks and title within, as plotly.js's 50 px hold a title (49 px
        // deep): res's box plot's names, 170 px deep, were cut at the figure's bottom.
        const b = Math.max(base.b, Math.ceil(depth(div)));
        update["margin.b"] = b;
        update.height = base.h + extra + b - base.b;
      } else {
        const legend = div._fullLayout.legend ? div._fullLayout.legend._height : 0;
        const gap = Math.max(meta.below, depth(div) + 8);
        const b = Math.max(meta.paper ? base.b : 0, gap + legend + 10);
        const height = t + paper + b;
        update["margin.b"] = b;
        update.height = height;
        // From the figure's bottom: placed from its top, in its upper half, plotly.js
        // took the legend for one above the panels and made room for it there. Its
        // height is the whole legend's (plotly.js cut one below at half the figure's).
        update["legend.yref"] = "container";
        update["legend.yanchor"] = "bottom";
        update["legend.y"] = (b - gap - legend) / height;
        update["legend.maxheight"] = 1;
      }
      await Plotly.relayout(div, update);
      for (let crowded = crowdedTicks(div); Object.keys(crowded).length;
           crowded = crowdedTicks(div)) {
        await Plotly.relayout(div, crowded);  // a lower bound each time, down to 1
      }
    } finally {
      div.fitting = false;
    }
  }
  // A window's resize redraws the figures in view whose width it changed (plotly.js's
  // responsive option redrew every figure on every resize, one of the height alone
  // too: 18 relayouts for the example's nine); the others as they come into view,
  // clipped by their box till then (div.plot's overflow), the page as wide as the window.
  const shown = new Set();
  const resize = div => {
    if (div.fitBase && div.clientWidth !== div._fullLayout.width) Plotly.Plots.resize(div);
  };
  const view = new IntersectionObserver(entries => {
    for (const e of entries) {
      if (e.isIntersecting) { shown.add(e.target); resize(e.target); } else shown.delete(e.target);
    }
  });
  window.addEventListener("resize", () => shown.forEach(resize));
  // Printed, each figure is drawn as wide as an A4 or Letter page holds (PRINT px at
  // Chromium's default margins, less the body's padding): the page is laid out for the
  // paper after "beforeprint" with no resize, and a figure drawn for a 1,280 px window
  // was cut at the paper's right edge by its box (its legend lost). The relayouts (and
  // fitTitles' after them) resolve as microtasks, done before the paper's layout.
  const PRINT = 680;
  window.addEventListener("beforeprint", () => {
    for (const div of document.querySelectorAll("div.plot")) {
      if (div.fitBase && div.clientWidth > PRINT) {
        div.style.width = `${PRINT}px`;
        div.fitting = true;  // fitted once drawn at PRINT px: its turned names' depth
        Plotly.relayout(div, {autosize: true}).then(() => {
          div.fitting = false;
          return fitTitles(div);
        });
      }
    }
  });
  window.addEventListener("afterprint", () => {
    for (const div of document.querySelectorAll("div.plot")) div.style.width = "";
    shown.forEach(resize);  // the others as they come into view
  });
  for (const f of FIGURES) {
    const div = document.getElementById(f.id);
    Plotly.newPlot(div, f.data, f.layout, config).then(() => fitTitles(div));
    div.on("plotly_relayout", ev => {
      if (!div.fitting && ev && ("autosize" in ev || "width" in ev)) fitTitles(div);
    });
    view.observe(div);
    if (f.link) (groups[f.link] = groups[f.link] || []).push(div);
  }
  // Linked views: a pose hovered in one plot of a sequence is shown in the others.
  // customdata[1] of every linked point is its pose's row, meta the run's name.
  function row(trace, k) {
    const c = trace.customdata || [];
    for (let i = 0; i < c.length; i++) if (c[i] && c[i][1] === k) return i;
    return -1;
  }
  let linking = false;
  for (const divs of Object.values(groups)) {
    for (const div of divs) {
      div.on("plotly_hover", function (ev) {
        const p = ev.points[0];
        if (linking || !p || !p.customdata || p.data.meta === undefined) return;
        linking = true;
        for (const other of divs) {
          if (other === div) continue;
          const c = other.data.findIndex(t => t.meta === p.data.meta && t.visible !== "legendonly");
          const i = c < 0 ? -1 : row(other.data[c], p.customdata[1]);
          if (i < 0) continue;
          const axes = (other.data[c].xaxis || "x") + (other.data[c].yaxis || "y");  // its panel
          Plotly.Fx.hover(other, [{curveNumber: c, pointNumber: i}], axes);
        }
        linking = false;
      });
      div.on("plotly_unhover", function () {
        if (linking) return;
        linking = true;
        for (const other of divs) if (other !== div) Plotly.Fx.unhover(other);
        linking = false;
      });
    }
  }
})();
"""


class _Figures:
    """Collects the page's figures, as PNG ``<img>`` (static) or plotly ``<div>``."""

    def __init__(self, result: ReportResult, *, static: bool) -> None:
        self.result = result
        self.static = static
        self.specs: list[dict[str, object]] = []

    def add(self, kind: str, caption: str, *args: str, link: str | None = None) -> str:
        spec = getattr(figure_spec, f"{kind}_spec")(self.result, *args)
        if spec is None:
            return ""
        alt = html.escape(caption)
        if self.static:
            png = base64.b64encode(plots.figure_png(plots.matplotlib_figure(spec)))
            shown = f'<img alt="{alt}" src="data:image/png;base64,{png.decode("ascii")}">'
        else:
            from robot_msgs.report.interactive import plotly_figure  # noqa: PLC0415

            shown = _plot_div(self.specs, plotly_figure(spec), kind, alt, link)
        return f"<figure>{shown}<figcaption>{alt}</figcaption></figure>\n"

    def scripts(self) -> str:
        return "" if self.static else _plotly_scripts(self.specs)


def _plot_div(
    specs: list[dict[str, object]], figure: Figure, kind: str, alt: str, link: str | None = None
) -> str:
    """Add ``figure`` (plotly's) to ``specs`` and return the ``<div>`` it is drawn in.

    ``alt`` (escaped) names the plot to a screen reader; ``link`` ties it to the plots
    of the same sequence (:data:`_SCRIPT` follows their hover).
    """
    div = f"plot{len(specs)}"
    specs.append({"id": div, "link": link, **figure})
    linked = f' data-link="{html.escape(link)}"' if link else ""
    return (
        f'<div class="plot" id="{div}" data-kind="{kind}"{linked} role="img" '
        f'aria-label="{alt}"></div>'
    )


def script_json(text: str) -> str:
    r"""Return JSON ``text`` safe inside a ``<script>`` element, whatever its strings hold.

    ``<``, ``>`` and ``&`` become ``\u003c``, ``\u003e``, ``\u0026`` (they occur only
    inside JSON strings, where JavaScript reads the escapes as the characters): a name
    holding ``</script>`` cannot end the element, and one holding ``<!--<script>``
    cannot switch the HTML parser into the state where ``</script>`` no longer ends it
    (which left every plot of the page undrawn). U+2028 and U+2029, line ends to
    older JavaScript, are escaped too.

    Examples
    --------
    >>> script_json('{"name": "<!--<script>a&b"}')
    '{"name": "\\u003c!--\\u003cscript\\u003ea\\u0026b"}'
    """
    return text.translate(_SCRIPT_ESCAPES)


_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)


def _plotly_scripts(specs: list[dict[str, object]]) -> str:
    """Return plotly.js inlined, the figures' data, and the code that draws and links them."""
    if not specs:
        return ""
    from robot_msgs.optional import require  # noqa: PLC0415

    offline = require("plotly.offline", "html", feature="the interactive HTML report")
    from robot_msgs.strict_json import dumps  # noqa: PLC0415

    figures = script_json(dumps(specs, indent=None))
    bundle = offline.get_plotlyjs().replace("</script", "<\\/script")
    return f"<script>{bundle}</script>\n<script>const FIGURES = {figures};{_SCRIPT}</script>"


def render_html(
    result: ReportResult,
    *,
    title: str = "robot-msgs run report",
    static: bool = False,
    progress: Callable[[str], None] | None = None,
    words: Callable[[str], str] | None = None,
) -> str:
    """Render the whole report as one self-contained HTML document.

    Parameters
    ----------
    result : ReportResult
        From :func:`robot_msgs.report.build_report`.
    title : str
        The page title.
    static : bool
        PNG figures and no script (matplotlib) instead of interactive ones (plotly).
    progress : callable, optional
        Called with a short label before each figure is drawn.
    words : callable, optional
        Rewrites each note's settings as its reader would type them: the command line
        passes its flag spelling (``--min-coverage`` for `` `min_coverage=` ``).

    Raises
    ------
    MissingDependencyError
        Interactive without plotly (the ``html`` extra), static without matplotlib
        (the ``plot`` extra).
    """
    from robot_msgs.optional import require  # noqa: PLC0415

    if static:
        require("matplotlib", "plot", feature="report --html --static")
    else:
        require("plotly", "html", feature="report --html (or use --static)")
    report = result.report
    say = progress or (lambda _label: None)
    figures = _Figures(result, static=static)
    n_ok = sum(r.success for r in report.runs)
    settings = settings_text(report.settings)
    how = (
        "Static figures (PNG)."
        if static
        else "Drag to zoom, double-click to reset, hover a point for its run, stamp and "
        "error (the trajectory and error plots of a sequence follow each other), click a "
        "legend entry to hide or show a trial, an algorithm's legend title for all its trials."
    )
    parts = [
        _head(title),
        (
            f'<p class="note">robot_msgs {html.escape(report.tool_version)}; '
            f"{counted(len(report.runs), 'run')}, {n_ok} succeeded; evaluation settings: "
            f"<code>{html.escape(settings)}</code></p>"
        ),
        f'<p class="note">{html.escape(how)}</p>',
        (
            '<div class="info">Success, tracking losses and coverage are reported apart from '
            "accuracy: APE and RPE are computed on the valid poses of each run only, and the "
            "per-group accuracy uses successful runs only, so read them together with the "
            "success rate.</div>"
        ),
    ]
    said = words or str
    if report.notes:
        items = "".join(f"<li>{_prose(said(n))}</li>" for n in report.notes)
        parts.append(f'<div class="warn"><strong>Notes</strong><ul>{items}</ul></div>')
    tables = report_tables(report, environment=False)  # its own section below
    parts.append("<h2>Summary</h2>")
    parts += [_table_html(t) for t in tables[:-1]]
    say("comparison across sequences")
    parts.append(figures.add("comparison", "Per-algorithm APE across sequences"))
    say("latency CDF")
    parts.append(figures.add("latency_cdf", "Latency CDF with p50 and p95"))
    sequences = list(dict.fromkeys(r.sequence for r in report.runs))
    for sequence in sequences:
        section: list[str] = []
        named = sequence_name(sequence)  # the key stays the runs' own
        say(f"{named}: trajectories")
        caption = f"{named}: aligned trajectories in their widest plane, coloured by APE"
        section.append(figures.add("trajectories", caption, sequence, link=named))
        say(f"{named}: error over time")
        caption = f"{named}: APE over time, tracking losses and reference gaps shaded"
        section.append(figures.add("error_over_time", caption, sequence, link=named))
        say(f"{named}: RPE")
        caption = f"{named}: RPE distribution per delta"
        section.append(figures.add("rpe_box", caption, sequence))
        say(f"{named}: repeatability")
        repeat = figures.add(
            "repeatability", f"{named}: repeated runs in their start frames", sequence
        )
        if repeat:
            section.append(
                '<div class="warn">No reference for this sequence: no accuracy is reported. '
                "The figure shows how repeated runs agree with each other, which does not "
                "establish accuracy.</div>"
            )
            section.append(repeat)
        if any(section):  # a bench folder keeps no poses: no heading over nothing (a review)
            parts.append(f"<h2>Sequence {html.escape(named)}</h2>")
            parts += section
    parts.append(_table_html(tables[-1], "h2"))
    run_notes = [(r.name, n) for r in report.runs for n in r.notes]
    if run_notes:
        items = "".join(
            f"<li><code>{html.escape(a)}</code>: {_prose(said(b))}</li>" for a, b in run_notes
        )
        parts.append(f"<h3>Run notes</h3><ul>{items}</ul>")
    # The text report's table: each algorithm's versions, hardware and software apart (the
    # page pooled every run's software into one list and showed no version; a review).
    parts.append(_table_html(environment_table(report), "h2"))
    parts.append(figures.scripts())
    parts.append("</body></html>\n")
    return "\n".join(p for p in parts if p)


def render_results_html(
    comparison: ResultsComparison,
    *,
    title: str = "robot-msgs saved results",
    labels: Sequence[str] | None = None,
) -> str:
    """Render ``robot-msgs res`` as one self-contained interactive page.

    The tables of :func:`robot_msgs.report.saved_results.compare_results` (settings
    that differ highlighted) and :func:`robot_msgs.report.interactive.results_plots`
    (error over time and distance, box, violin, histogram; drift's rotation box), drawn
    by inlined plotly.js, each result named ``labels`` (``--label``; default its file
    stem); results in different units get the tables and a note instead of plots.

    Raises
    ------
    MissingDependencyError
        Without plotly (the ``html`` extra).
    """
    from robot_msgs.optional import require  # noqa: PLC0415
    from robot_msgs.report.interactive import results_plots  # noqa: PLC0415

    require("plotly", "html", feature="res --html")
    parts = [
        _head(title),
        (
            '<p class="note">Drag to zoom, double-click to reset, hover for the stamp and '
            "error, click a legend entry to hide or show a result.</p>"
        ),
    ]
    if comparison.notes:
        items = "".join(f"<li>{_prose(n)}</li>" for n in comparison.notes)
        parts.append(f'<div class="warn"><strong>Notes</strong><ul>{items}</ul></div>')
    parts += [_table_html(t) for t in comparison.tables]
    try:
        plots = results_plots(comparison.named, labels)
    except FormatError as err:  # the tables still compare them
        plots = []
        parts.append(f'<div class="warn"><strong>No plots</strong>: {html.escape(str(err))}</div>')
    specs: list[dict[str, object]] = []
    for kind, caption, spec in plots:
        # The caption is the figure's title, drawn above it: no <figcaption> saying it
        # again below (a review); a screen reader has it as the plot's name.
        parts.append(f"<figure>{_plot_div(specs, spec, kind, html.escape(caption))}</figure>")
    parts.append(_plotly_scripts(specs))
    parts.append("</body></html>\n")
    return "\n".join(parts)
