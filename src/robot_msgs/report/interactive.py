"""The report's interactive figures: plotly.js figure specifications, drawn offline in the page.

:func:`plotly_figure` turns a :class:`~robot_msgs.report.figure_spec.FigureSpec` (the one
description of each figure, drawn by matplotlib too) into plain data (``{"data": [...],
"layout": {...}}``, plotly.js's own schema); :mod:`robot_msgs.report.html_page` writes
them into one self-contained page with plotly.js inlined; :func:`results_plots` draws
the panels of ``res``'s figure each on its own. Nothing here imports plotly: the figures
are JSON-ready dicts built from the stored series, so the numbers drawn are the ones the
tables summarise.

What a reader can do: zoom and pan every plot (drag, double-click to reset), hover any
point for its run, stamp and error, hover a point of the error-over-time plot to see
the same pose on the trajectory plot (and the other way round: the two views of a
sequence are linked by run and pose), click legend entries to hide or show a trial,
click an algorithm's legend title to hide or show all its trials. Every trial has its
algorithm's colour and its own line style (with marks past six); every shaded
interval (a run's tracking losses, a gap in the reference) has its own legend entry.
"""

from __future__ import annotations

import html
import math
import re
import textwrap
import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.report.figure_spec import (
    BAR_LABEL_GAP_PT,
    HATCHES,
    MARKS_ALONG,
    PAGE_PX_PER_IN,
    bar_foot,
    bar_label_tops,
    dots_only,
    page_legend_px,
)
from robot_msgs.report.figures import lone_points

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.typing import Float64Array

__all__ = ["plotly_figure", "results_plots"]

Figure = dict[str, Any]
#: A hover text's fields (:class:`~robot_msgs.report.figure_spec.Trace`) as plotly.js names them.
_HOVER_FIELDS = {"value": "marker.color", "stamp": "customdata[0]", "pose": "customdata[1]"}
#: A field of a hover text (its format spec too), or a doubled brace (a brace).
_HOVER_FIELD = re.compile(r"\{\{|\}\}|\{(x|y|text|value|stamp|pose)(:[^{}]*)?\}")
#: A panel's title, centred over it: plotly.js anchors an annotation by its left end left
#: of a third of the width and by its right end right of two thirds ("auto"), so the
#: first of three panels had its title begin at its middle, the last's end there.
_PANEL_TITLE = {
    "xref": "paper",
    "yref": "paper",
    "y": 1.0,
    "xanchor": "center",
    "yanchor": "bottom",
    "showarrow": False,
}
#: A position view's axes: its coordinates written whole, "5,429,400" (plotly.js wrote
#: georeferenced.tum's northings "5.4294M", its eastings "457.95k"), its left margin as
#: wide as they take (the 60 px cut "5,429,400").
_COORDINATES = {"exponentformat": "none", "automargin": True}
#: plotly.js's y title stands 34 px left of its axis (10 px and 2 em), nudged 2 px clear
#: of tick labels that reach further; past them, it stands 8 px off them.
_Y_TITLE_PX, _TITLE_STANDOFF_PX = 34, 8
#: A tick label's characters at 12 px: a digit, a minus, a comma or a point.
_DIGIT_PX, _MINUS_PX, _MARK_PX = 7.6, 10.0, 3.8
_GUIDE = {"type": "line", "x0": 0, "x1": 1, "line": {"color": "#b3b3b3", "width": 1, "dash": "dot"}}


#: The width of a page's figure between its margins (the page is 1,200 px at most), less
#: a colour bar with its ticks and title; about 6.6 px a character of a panel's title.
_PAPER_PX, _COLOUR_BAR_PX, _CHAR_PX = 1120, 110, 6.6
#: The height of a line of a panel's title, and of the ticks and title of an x axis.
_TITLE_LINE_PX, _BELOW_AXIS_PX = 18, 72
#: An unseen mark under each bar label: plotly.js stands a point's "top" text its mark's
#: radius / 0.8 + 1 px above the point (``textPointStyle``), none without a mark, so the
#: labels stood on the whiskers' caps (a review). This diameter stands them
#: :data:`~robot_msgs.report.figure_spec.BAR_LABEL_GAP_PT` (CSS px: 96 a 72 pt inch)
#: above, as the static figure's.
_BAR_LABEL_MARK_PX = round(2 * 0.8 * (BAR_LABEL_GAP_PT * 96 / 72 - 1), 2)
#: A legend below the panels: its top this far below them, under their ticks and x axis' title.
_LEGEND_GAP_PX = _BELOW_AXIS_PX


def _wrap(title: str, fits: int) -> str:
    r"""Return a panel's title in lines of at most ``fits`` characters.

    plotly.js writes an annotation on one line however long: in rows of four, a
    configuration's name ran over its neighbours' titles (a review). A wide character
    (CJK) counts as two; titles that fit stay as they are.

    Examples
    --------
    >>> _wrap("orbslam3 (features=300, imu_rate_hz=200) (trial_1)", 26)
    'orbslam3 (features=300,\nimu_rate_hz=200) (trial_1)'
    """
    fits = max(12, fits)
    out = []
    for line in title.split("\n"):
        wide = sum(unicodedata.east_asian_width(c) in "WF" for c in line)
        width = max(6, fits * len(line) // (len(line) + wide)) if line else fits
        out.append(line if len(line) + wide <= fits else "\n".join(textwrap.wrap(line, width)))
    return "\n".join(out)


def _fit(title: str, at: str, size: int, room_px: int, share: float) -> dict[str, Any]:
    """Return how the page fits a title to the width it draws a figure at.

    Titles wrapped here for a page 1,200 px wide ran into each other at 800 px, four
    panels a row, and at 360 px off the figure (a hunt): the page's script
    (:mod:`robot_msgs.report.html_page`) wraps each, drawn and on every resize, to
    ``share`` of the plot's width, its ``lines`` (as written, in plotly.js's markup) at
    ``size`` px, 0.6 em a character. A panel's or an axis' title (``at``: the layout's
    key of it) keeps to ``room_px`` of lines, smaller where need be (cut at 8 px, a
    panel's whole on hover); the figure's (``at`` ``title``) takes more lines, the
    figure growing by them.
    """
    lines = [_markup(line) for line in title.split("\n")]
    return {"at": at, "lines": lines, "size": size, "room": room_px, "share": share}


def _legend_below(layout: dict[str, Any], paper: float) -> dict[str, Any]:
    """Return the legend's place :data:`_LEGEND_GAP_PX` below a figure's panels.

    In the figure's margin, placed from the figure's top (``yref`` ``container``): a
    fifth of the panels' height below them (``yref`` ``paper``) was their height before
    plotly.js made room for the legend's rows, and at 360 px the legend of three
    algorithms covered the x axes' ticks and titles by about 50 px (a hunt). The page's
    script places it again for the width drawn, by the legend's height there.
    """
    top = layout["margin"]["t"] + paper + _LEGEND_GAP_PX
    return {
        "orientation": "h",
        "x": 0.0,
        "xanchor": "left",
        "yref": "container",
        "y": 1 - top / layout["height"],
        "yanchor": "top",
    }


def _values(array: Float64Array, decimals: int | None = None) -> list[float | None]:
    """Turn NaN into a gap (null) and round a series for the page.

    By default to 5 digits below the leading one of the series' span (a trajectory of a
    few metres to 0.01 mm, errors of a few centimetres to 0.1 µm); a few values (bars,
    marks) are written whole.
    """
    values = np.asarray(array, dtype=np.float64)
    finite = values[np.isfinite(values)]
    # In Python floats: a span past float64 (-1e308 to 1e308) is inf, without numpy's
    # 'overflow encountered in subtract' (a review), and such a series is written whole.
    span = float(finite.max()) - float(finite.min()) if finite.size > 1 else 0.0
    if decimals is None and 0 < span < math.inf and values.size > 100:
        decimals = max(0, 5 - math.floor(math.log10(span)))
    rounded = values if decimals is None else np.round(values, decimals)
    return [None if math.isnan(v) else v for v in rounded.tolist()]


def _coordinates_px(panel: Panel) -> float:
    """Return about how wide plotly.js writes a position view's widest y tick label, px.

    As :data:`_COORDINATES` writes them: whole, a comma every three digits, as many
    decimals as a fifth of the range takes (georeferenced.tum: "5,429,400", 61 px;
    the example's fr2_desk: "−2.5", 29 px). 0 for any other panel.
    """
    if not panel.equal_aspect:
        return 0.0
    ys = [np.asarray(t.y, dtype=np.float64) for t in panel.traces if t.kind in {"line", "markers"}]
    finite = np.concatenate([y[np.isfinite(y)] for y in ys] or [np.zeros(0)])
    if not finite.size:
        return 0.0
    low, high = float(finite.min()), float(finite.max())
    decimals = max(0, -math.floor(math.log10((high - low) / 5 or 1.0)))
    texts = [f"{v:,.{decimals}f}" for v in (low, high)]
    px = [
        sum(_DIGIT_PX if c.isdigit() else _MINUS_PX if c == "-" else _MARK_PX for c in text)
        for text in texts
    ]
    return max(px)


def _axis(title: str, **extra: Any) -> dict[str, Any]:
    axis = {"title": {"text": title}, "gridcolor": "#e5e5e5", "zeroline": False}
    axis.update(extra)
    return axis


def _rgba(colour: str, alpha: float) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def plotly_figure(spec: FigureSpec) -> Figure:
    """Return ``spec`` as a plotly.js figure: panels side by side, one legend, one colour bar.

    Every trace has its legend entry once per ``(group, name)``, its group's title where
    the group is titled, and its hover text; hidden traces are ``legendonly``. A shaded
    interval is a filled trace (so that it has a legend entry and a hover text) up to
    5 % above the panel's highest value. A panel that shares the y axis of the one
    before it zooms with it.

    Raises
    ------
    ValidationError
        When ``spec`` has its panels in several rows: a page shows each panel of such a
        figure as a figure of its own (:func:`results_plots`).
    """
    if len(spec.rows) > 1:
        msg = f"Expected the panels in one row, got rows of {spec.rows}: draw each panel alone"
        raise ValidationError(msg)
    n = len(spec.panels)
    n_rows, n_columns = spec.grid
    lines = spec.title.count("\n")
    layout: dict[str, Any] = {
        "title": {"text": spec.title, "font": {"size": 14}, "x": 0.01, "xanchor": "left"},
        "font": {"family": "system-ui, sans-serif", "size": 12},
        "hovermode": "closest",
        "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
        "legend": {"groupclick": "toggleitem", "font": {"size": 11}},
        "plot_bgcolor": "#ffffff",
        "height": round(PAGE_PX_PER_IN * spec.size_in[1]) + 20 * lines,
    }
    wide = _PAPER_PX - (_COLOUR_BAR_PX if spec.colour_scale is not None else 0)
    # Position views of long coordinates apart by their y tick labels and title (16 px,
    # 8 px to spare): northings ran 12 px into the panel on their left at 800 px, and the
    # y title was left out at 1,280 px (html_page's script keeps them so at any width).
    labels = [_coordinates_px(p) for p in spec.panels]
    long = [px > _Y_TITLE_PX for px in labels]
    need = max(labels) + _TITLE_STANDOFF_PX + 24 if any(long) else 0
    gap = max(0.04, need / (2 * wide)) * (n_columns > 1)
    titles = [_wrap(p.title, int(wide * (1 / n_columns - 2 * gap) / _CHAR_PX)) for p in spec.panels]
    heading = _TITLE_LINE_PX * max((t.count("\n") + 1 for t in titles if t), default=0)
    layout["margin"]["t"] += 20 * lines + heading
    if n == 1:  # its legend beside the panel, which scrolled where taller than it
        # The panel's height with its legend below it (a page too narrow for it beside).
        alone = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
        side = _COLOUR_BAR_PX if spec.colour_scale is not None else 0
        need = page_legend_px(spec.panels[0].traces) + heading + 20 * lines
        layout["height"] = max(layout["height"], need)
    # Rows top to bottom, each as high, apart by the ticks and the x axis' title of one
    # and the panels' titles of the next: 80 px let the axis' title touch a title
    # below it, and a wrapped one ran into it (a review).
    between = _BELOW_AXIS_PX + heading
    layout["height"] += (n_rows - 1) * between
    if n > 1:  # a legend below the panels, which get the width
        layout["height"] += 100
    paper = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"] - 100
    gap_y = between / paper if n_rows > 1 else 0.0
    high = (1 - gap_y * (n_rows - 1)) / n_rows
    seen: set[tuple[str | None, str]] = set()
    annotations: list[dict[str, Any]] = []
    shapes, data = [], []
    fits = [_fit(spec.title, "title", 14, 0, 1.0)] if spec.title else []
    repeats: list[list[str]] = []  # [axis, its left neighbour's]: the page's script
    numbered: list[int] = []  # each panel's title's annotation (-1: none): the page's script
    for i, panel in enumerate(spec.panels):
        suffix = "" if i == 0 else str(i + 1)
        row, column, _ = spec.place(i)
        domain = [column / n_columns + gap, (column + 1) / n_columns - gap]
        upper = 1 - row * (high + gap_y)
        rows = [max(0.0, upper - high), upper]
        layout[f"xaxis{suffix}"] = _axis(panel.x_title, domain=domain, anchor=f"y{suffix}")
        if panel.equal_aspect:
            layout[f"xaxis{suffix}"] |= _COORDINATES
        # One line at 12 px, or two at 8 or less, in the room below the ticks.
        fits.append(_fit(panel.x_title, f"xaxis{suffix}.title", 12, 24, domain[1] - domain[0]))
        if panel.categories:  # each in view, an empty one too
            places: dict[str, Any] = {"categoryorder": "array"}
            places["categoryarray"] = list(panel.categories)
            places["range"] = [-0.5, len(panel.categories) - 0.5]
            # Level, else upright, each under its place: turned 30 degrees (plotly.js's
            # choice between), res's long names ran up to 198 px past the figure's right
            # edge at 360 px.
            places["autotickangles"] = [0, 90]
            layout[f"xaxis{suffix}"] |= {"type": "category"} | places
        if panel.x_from_zero:
            layout[f"xaxis{suffix}"]["rangemode"] = "tozero"
        extra = _y_extra(panel, suffix) | ({"domain": rows} if n_rows > 1 else {})
        layout[f"yaxis{suffix}"] = _axis(panel.y_title, anchor=f"x{suffix}", **extra)
        if long[i]:
            layout[f"yaxis{suffix}"]["title"]["standoff"] = _TITLE_STANDOFF_PX
        if panel.share_y and i:
            layout[f"yaxis{suffix}"]["matches"] = f"y{i if i > 1 else ''}"
        if column and panel.y_title == spec.panels[i - 1].y_title:  # its left neighbour's
            repeats.append([suffix, str(i) if i > 1 else ""])
        if panel.title:
            place = {"text": titles[i], "x": sum(domain) / 2, "y": rows[1]}
            key = f"annotations[{len(annotations)}]"
            fits.append(_fit(panel.title, key, 12, heading, domain[1] - domain[0]))
            annotations.append(_PANEL_TITLE | place)
        numbered.append(len(annotations) - 1 if panel.title else -1)
        at = {"xref": f"x{suffix} domain", "yref": f"y{suffix}"}
        shapes += [_GUIDE | at | {"y0": y, "y1": y} for y in panel.guides_y]
        drawn_y = [t.y for t in panel.traces if t.kind in {"line", "step", "markers"}]
        top = max((float(np.nanmax(y)) for y in drawn_y if np.isfinite(y).any()), default=0.0)
        tall = (layout["height"] - sum(layout["margin"][k] for k in "tb")) * (rows[1] - rows[0])
        upright = _upright(panel, (domain[1] - domain[0]) * wide, tall - 100 * (n > 1))
        for trace in panel.traces:
            drawn = _trace(trace, top * 1.05 or 1.0)
            if suffix:
                drawn |= {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
            drawn["showlegend"] = bool(trace.name) and (trace.group, trace.name) not in seen
            seen.add((trace.group, trace.name))
            data.append(drawn)
            if drawn.get("type") == "bar" and trace.text:
                data.append(_bar_labels(trace, panel, drawn, len(data), upright))
            if trace.mark and trace.kind in {"line", "step"}:
                dots = _lone_dots(trace, drawn)
                if dots is not None:
                    data.append(dots)
    scale = spec.colour_scale
    if scale is not None:
        # The title along the bar: written across it, it ran into the legend.
        bar = {"title": {"text": scale.title, "side": "right"}, "x": 1.02, "thickness": 20}
        _colour_by_value(data, bar, scale.low, scale.high)
        layout["legend"]["x"] = 1.2
    if n > 1:  # below the panels, which get the width
        layout["margin"]["b"] += 100
        layout["legend"] |= _legend_below(layout, paper)
    layout.update({k: v for k, v in {"annotations": annotations, "shapes": shapes}.items() if v})
    if fits:  # for the page to wrap them to the width it draws (html_page's script)
        # The legend below the panels (several), or beside the one where it leaves it 40 %
        # of the width, else below it, the panel ``alone`` px high (html_page's script).
        sizes: dict[str, Any] = {"paper": paper}
        if n > 1:  # several: their grid, for the page to reflow into fewer columns
            grid = {"columns": n_columns, "gap": gap, "high": high * paper, "between": between}
            grid |= {"need": need} if need else {}
            sizes["grid"] = grid | {"titles": numbered}
        else:
            sizes = {"beside": {"paper": alone, "side": side}}
        # A y axis' title that repeats its left neighbour's is left to it where the gap
        # between them is too narrow for it (``repeats``).
        layout["meta"] = {"titles": fits, "below": _LEGEND_GAP_PX, "repeats": repeats} | sizes
    if any(d.get("mode") == "markers+text" and "offsetgroup" in d for d in data):  # bar labels
        layout["scattermode"] = "group"
    if any(d.get("hoverinfo") == "skip" and "offsetgroup" in d for d in data):
        # A bar's labels hidden with it: a click on a legend entry toggles its group,
        # the bar and its labels (no group holds more).
        entries = [d["legendgroup"] for d in data if d["showlegend"] and "legendgroup" in d]
        if len(entries) == len(set(entries)):
            layout["legend"]["groupclick"] = "togglegroup"
    kinds = {t.kind for p in spec.panels for t in p.traces}
    side_by_side = "group" if any(p.grouped for p in spec.panels) else "overlay"
    for kind in {"box", "violin", "bar"} & kinds:
        layout[f"{kind}mode"] = side_by_side
    figure: Figure = _as_written({"data": data, "layout": layout})
    return figure


def _as_written(figure: Any, key: str = "") -> Any:
    r"""Return ``figure`` with each of its texts as plotly.js shows it as written.

    plotly.js reads a text as its own subset of HTML: an algorithm named ``a&lt;b``
    showed as "a<b", ``x<br>y`` on two lines, ``<b>x</b>`` bold, where the tables show
    the names as written (a review); and as a template: ``%{y}`` in a sequence's name
    was left out of the titles of its figures, whose traces have a ``meta``. So every
    text (a name, a title, a category, a label, a hover text around its fields) has
    ``&``, ``<``, ``>`` and the ``%`` of ``%{`` written as entities, and its line ends,
    this module's and the descriptions' own, as ``<br>``: the one place texts are
    turned into plotly.js's markup. A hover text's fields (``{y:.4f}``, as
    :class:`~robot_msgs.report.figure_spec.Trace` writes them; ``{{`` is a brace)
    become plotly.js's (``%{y:.4f}``).

    Examples
    --------
    >>> _as_written({"name": "a<b & c&amp;d", "title": {"text": "one\ntwo"}})
    {'name': 'a&lt;b &amp; c&amp;amp;d', 'title': {'text': 'one<br>two'}}
    >>> _as_written({"hovertemplate": "<i>5%</i> %{{y}}\n{y:.1%}<extra></extra>"})
    {'hovertemplate': '&lt;i&gt;5%&lt;/i&gt; &#37;{y}<br>%{y:.1%}<extra></extra>'}
    """
    if isinstance(figure, dict):
        return {k: _as_written(v, k) for k, v in figure.items()}
    if isinstance(figure, list):
        return [_as_written(v, key) for v in figure]
    if not isinstance(figure, str) or key not in _TEXTS:
        return figure
    if key != "hovertemplate":
        return _markup(figure)
    body, extra = figure.removesuffix(_EXTRA), _EXTRA if figure.endswith(_EXTRA) else ""
    out, text, start = [], "", 0
    for m in _HOVER_FIELD.finditer(body):  # a field, or a doubled brace: a brace
        text += body[start : m.start()] + ("" if m[1] else m[0][0])
        if m[1]:
            out += [_markup(text), "%{" + _HOVER_FIELDS.get(m[1], m[1]) + (m[2] or "") + "}"]
            text = ""
        start = m.end()
    return "".join([*out, _markup(text + body[start:]), extra])


def _markup(text: str) -> str:
    return html.escape(text, quote=False).replace("%{", "&#37;{").replace("\n", "<br>")


#: The keys of texts plotly.js shows (categories in ``x`` and their order too: the same
#: text on both sides), and a hover text's ending.
_TEXTS = {"name", "text", "x", "categoryarray", "hovertemplate"}
_EXTRA = "<extra></extra>"


def _colour_by_value(
    data: list[dict[str, Any]], bar: dict[str, Any], low: float, high: float
) -> None:
    """Colour the value-coloured markers of ``data`` by Viridis over ``[low, high]``, in place.

    Each trace gets the scale itself (one of them its colour bar) and a first point
    without a place whose value is the scale's middle: plotly.js draws a trace's legend
    symbol in its first point's colour, and in black for a trace on a shared colour axis,
    which is how the legend showed the estimates (a review). The static figure's legend
    shows the same middle colour. The point has no position, so it is not drawn; its
    ``customdata`` is empty, so the linked views never find it.
    """
    middle = 0.5 * (low + high)
    coloured = [d for d in data if isinstance(d.get("marker", {}).get("color"), list)]
    shown = [d for d in coloured if d.get("visible") != "legendonly"] or coloured
    for drawn in coloured:
        marker = drawn["marker"]
        marker |= {"colorscale": "Viridis", "cmin": low, "cmax": high}
        marker["showscale"] = drawn is shown[0]
        if drawn is shown[0]:
            marker["colorbar"] = bar
        marker["color"] = [middle, *marker["color"]]
        drawn["x"], drawn["y"] = [None, *drawn["x"]], [None, *drawn["y"]]
        if "customdata" in drawn:
            drawn["customdata"] = [[None, None], *drawn["customdata"]]
        if "text" in drawn:
            drawn["text"] = ["", *drawn["text"]]


def _y_extra(panel: Panel, suffix: str) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if panel.equal_aspect:
        extra |= {"scaleanchor": f"x{suffix}", "scaleratio": 1} | _COORDINATES
    if panel.y_log:
        extra["type"] = "log"
    elif panel.y_from_zero:
        extra["rangemode"] = "tozero"
    if panel.y_range is not None:
        extra["range"] = list(panel.y_range)
    if panel.y_percent:
        extra["tickformat"] = ".0%"
    return extra


def _trace(trace: Trace, top: float) -> dict[str, Any]:
    """Return one trace of ``plotly_figure``; a span reaches up to ``top``."""
    x = list(trace.x) if isinstance(trace.x, tuple) else _values(trace.x)
    drawn: dict[str, Any] = {"name": trace.name, "x": x, "y": _values(trace.y)}
    line = {"color": trace.colour, "dash": trace.dash, "width": round(trace.width * 1.3, 1)}
    if trace.kind in {"line", "step"}:
        # WebGL for a long line nobody hovers (and unmarked: WebGL has no maxdisplayed)
        big = trace.hover is None and len(x) > 20000 and not trace.mark
        drawn |= {"type": "scattergl" if big else "scatter", "mode": "lines", "line": line}
        if trace.kind == "step":
            line["shape"] = "hv"
        # A point alone between gaps is no segment: a dot, or it was not drawn at all.
        lone = lone_points(np.asarray(trace.x, dtype=np.float64), trace.y)
        if trace.mark:
            # A dozen marks along it, evenly as matplotlib's markevery (and again in the
            # view when zoomed). Not an array of sizes, most 0: the legend drew its
            # symbol as a speck, and trial 7 (solid, circles) as trial 1.
            marker: dict[str, Any] = {"symbol": trace.mark, "size": 7}
            marker["maxdisplayed"] = MARKS_ALONG
            drawn |= {"mode": "lines+markers", "marker": marker}
        elif dots_only(trace, lone):  # each point alone: dots, a dot in the legend too
            # Its end still marked as a line's is (a one-pose run's path: the static
            # figure's end dot was drawn, the page's lost): the legend takes their mean.
            size: Any = [5] * (len(x) - 1) + [7] if trace.mark_end else 5
            drawn |= {"mode": "markers", "marker": {"size": size, "color": trace.colour}}
        elif trace.mark_end or lone.size:
            sizes = [0] * len(x)
            for k in lone.tolist():
                sizes[k] = 5
            if trace.mark_end:
                sizes[-1] = 7
            marker = {"size": sizes, "color": trace.colour}
            drawn |= {"mode": "lines+markers", "marker": marker}
    elif trace.kind == "markers":
        colour: Any = trace.colour if trace.values is None else _values(trace.values)
        marker = {"color": colour, "size": round(trace.size * 1.6, 1)}
        if trace.mark:
            marker["symbol"] = trace.mark
        if trace.values is None:  # else coloured by the figure's scale (_colour_by_value)
            marker["line"] = {"color": "black", "width": 0.6}
        drawn |= {"type": "scatter", "mode": "markers", "marker": marker}
    elif trace.kind == "span":
        start, stop = (round(float(v), 4) for v in trace.x)
        fill = _rgba(trace.colour, trace.alpha)
        drawn |= {"type": "scatter", "mode": "lines", "fill": "toself", "fillcolor": fill}
        drawn |= {"x": [start, stop, stop, start, start], "y": [0.0, 0.0, top, top, 0.0]}
        drawn["line"] = {"width": 0, "color": trace.colour}
        if trace.hatched:
            pattern = {"shape": "/", "fgcolor": _rgba(trace.colour, 0.5), "solidity": 0.1}
            drawn["fillpattern"] = pattern | {"bgcolor": fill}
    elif trace.kind == "box":
        marker = {"color": trace.colour, "size": 3}
        drawn |= {"type": "box", "marker": marker, "boxpoints": "outliers"} | _box_stats(trace)
        drawn |= _box_hatch(trace)
    elif trace.kind == "violin":
        # The shape from the smallest error to the largest and nothing inside, as the
        # static figure's (matplotlib's violins): plotly.js's box inside and its outliers'
        # dots drew the box panel beside it again, under a title that says min to max.
        drawn |= {"type": "violin", "box": {"visible": False}, "points": False}
        drawn["spanmode"] = "hard"
        drawn |= {"line": {"color": trace.colour}, "marker": {"color": trace.colour}}
        drawn["fillcolor"] = _rgba(trace.colour, trace.alpha)
    elif trace.kind == "histogram":  # its bars' outline: a step from edge to edge, closed
        edges, counts = np.asarray(trace.x, dtype=np.float64), trace.y
        drawn |= {"type": "scatter", "mode": "lines", "line": line | {"shape": "hv"}}
        if counts.size:
            corners = np.concatenate([edges[:1], edges[:-1], edges[-1:]])
            drawn |= {"x": _values(corners), "y": _values(np.concatenate([[0.0], counts, [0.0]]))}
            drawn["text"] = ["", *(trace.text or ()), ""]  # the closing ends: no bin
    else:
        # Its labels are a trace of their own above the whiskers (_bar_labels); the
        # bar's text is for the hover.
        marker = {"color": trace.colour}
        if trace.hatch:  # dark on the fill, as the static figure's
            pattern = {"shape": trace.hatch, "fgcolor": "#333333", "solidity": 0.3}
            marker["pattern"] = pattern | {"fillmode": "overlay"}
        drawn |= {"type": "bar", "marker": marker, "textposition": "none"}
        if trace.low is not None and trace.high is not None:
            up, down = (
                np.nan_to_num(d).tolist() for d in (trace.high - trace.y, trace.y - trace.low)
            )
            drawn["error_y"] = {"type": "data", "symmetric": False, "array": up, "arrayminus": down}
    if trace.group is not None:
        drawn["legendgroup"] = trace.group
        if trace.titled:
            drawn["legendgrouptitle"] = {"text": trace.group}
    if trace.run is not None:
        drawn["meta"] = trace.run
    if trace.hidden:
        drawn["visible"] = "legendonly"
    if trace.stamps_s is not None and trace.poses is not None:
        stamps, poses = _values(trace.stamps_s, 6), _values(trace.poses, 0)
        drawn["customdata"] = [
            [s, None if k is None else int(k)] for s, k in zip(stamps, poses, strict=True)
        ]
    if trace.text is not None:
        drawn.setdefault("text", list(trace.text))
    if trace.hover is None:
        drawn["hoverinfo"] = "skip"
    else:
        drawn["hovertemplate"] = trace.hover + _EXTRA  # in plotly.js's terms: _as_written
    return drawn


#: A box's statistics, as plotly.js names them.
_BOX_STATS = ("q1", "median", "q3", "lowerfence", "upperfence")


def _box_stats(trace: Trace) -> dict[str, Any]:
    """Return a box trace's boxes as plotly.js's precomputed statistics, its outliers alone.

    Each category once (``x``), with its quartiles (linear between order statistics,
    NumPy's default and plotly.js's), its whiskers' ends (the furthest values within 1.5
    IQR of the box, else the quartile, as matplotlib's) and its outliers (``y``, one list
    a box): all the box draws. Every value with its category's name made KITTI 00's RPE
    boxes of 192 runs 2.9 MB, "1 s" written 180,694 times.

    Examples
    --------
    >>> from robot_msgs.report.figure_spec import Trace
    >>> box = Trace(kind="box", x=("a",) * 5 + ("b",), y=np.array([1.0, 2, 3, 4, 100, 7]))
    >>> stats = _box_stats(box)
    >>> stats["x"], stats["q1"], stats["median"], stats["q3"]
    (['a', 'b'], [2.0, 7.0], [3.0, 7.0], [4.0, 7.0])
    >>> stats["lowerfence"], stats["upperfence"], stats["y"]
    ([1.0, 7.0], [4.0, 7.0], [[100.0], []])
    """
    labels = np.array(trace.x)
    out: dict[str, list[Any]] = {k: [] for k in ("x", *_BOX_STATS, "y")}
    for category in dict.fromkeys(trace.x):
        values = trace.y[labels == category]
        values = values[np.isfinite(values)]
        if not values.size:
            continue
        q1, median, q3 = np.percentile(values, [25.0, 50.0, 75.0])
        within = values[(values >= q1 - 1.5 * (q3 - q1)) & (values <= q3 + 1.5 * (q3 - q1))]
        # A whisker ends at its quartile where no value lies between it and its fence
        # ([0, 1, 1, 1]: q1 0.75, the nearest value within 1.5 IQR is 1, inside the box),
        # as matplotlib's does: the static figure's box.
        low, high = float(min(within.min(), q1)), float(max(within.max(), q3))
        out["x"].append(category)
        for key, value in zip(_BOX_STATS, (q1, median, q3, low, high), strict=True):
            out[key].append(float(value))
        out["y"].append(_values(values[(values < low) | (values > high)]))
    return out


def _box_hatch(trace: Trace) -> dict[str, Any]:
    """Return how a box of a hatch is drawn: plotly.js fills a box with no pattern.

    The box is drawn hollow (its outline in its colour, thicker), notched, or both, by
    the hatch's place in :data:`~robot_msgs.report.figure_spec.HATCHES`; past three a
    dark outline too: so a colour's rounds differ, as the hatches do in the static figure.
    """
    nth = HATCHES.index(trace.hatch)
    if not nth:
        return {}
    out: dict[str, Any] = {"notched": nth in {2, 3, 5}}
    line = {"color": "#333333" if nth >= 4 else trace.colour, "width": 2.5}
    if nth in {1, 3, 5}:
        out["fillcolor"] = "rgba(255,255,255,0)"
    return out | {"line": line}


#: A bar's label: its characters' width (12 px text) and, upright, 11 px text's and the
#: gap below it; plotly.js leaves a fifth of a category's width between its bars.
_LABEL_CHAR_PX, _UPRIGHT_CHAR_PX, _UPRIGHT_GAP_PX, _BARS_SHARE = 6.6, 6.1, 6, 0.8


def _upright(panel: Panel, wide_px: float, tall_px: float) -> float | None:
    """Return the height in ``panel``'s units its bars' labels take upright, or None: level.

    A label wider than its bar on a page 1,200 px wide stands upright, as the static
    figure's (:mod:`robot_msgs.report.plots`): twelve algorithms on three sequences ran
    their "2/2 ok" together (a hunt). The panel's legend beside it (one panel) takes
    its longest name's width. The height makes room for the labels above the highest
    whisker (plotly.js's range leaves out a text). On a log axis it is in decades, the
    same share of the axis: a height in metres made room of log10(1.25) decades above
    a whisker on an axis of three, and the highest labels ran over the panel's top.
    """
    bars = [t for t in panel.traces if t.kind == "bar" and t.text]
    if not bars:
        return None
    longest = max(len(text) for t in bars for text in t.text or ())
    legend = max(len(t.name) for t in panel.traces) * _LABEL_CHAR_PX + 40
    categories = panel.categories or tuple(dict.fromkeys(c for t in bars for c in t.x))
    side_by_side = len(bars) if panel.grouped else 1
    bar_px = (wide_px - legend) / max(1, len(categories)) * _BARS_SHARE / side_by_side
    if longest * _LABEL_CHAR_PX <= bar_px:
        return None
    tops = [t.high if t.high is not None else t.y for t in bars]
    top = max((float(np.nanmax(h)) for h in tops if np.isfinite(h).any()), default=0.0)
    label_px = longest * _UPRIGHT_CHAR_PX + _UPRIGHT_GAP_PX
    if panel.y_log:  # the axis's decades, from its foot to the highest whisker
        span = math.log10(max(top, bar_foot(panel)) / bar_foot(panel)) or 1.0
        return span * label_px / max(tall_px - label_px, label_px)
    return (top or 1.0) * label_px / max(tall_px - label_px, label_px)


def _lone_dots(trace: Trace, drawn: dict[str, Any]) -> dict[str, Any] | None:
    """Return the dots of a marked line's points alone between gaps, or None if none.

    A marked line's marks are a dozen along it (``maxdisplayed``), which skip most points:
    a point alone between two gaps, no segment, was not drawn at all (a review); an array
    of sizes would draw the legend's symbol as a speck. So they are a trace of their own,
    in the line's legend group and axes, hidden with it, with no legend entry.
    """
    lone = lone_points(np.asarray(trace.x, dtype=np.float64), trace.y)
    if not lone.size:
        return None
    x, y = drawn["x"], drawn["y"]
    dots = {
        "type": "scatter",
        "mode": "markers",
        "name": trace.name,
        "x": [x[k] for k in lone.tolist()],
        "y": [y[k] for k in lone.tolist()],
        "marker": {"symbol": trace.mark, "size": 5, "color": trace.colour},
        "legendgroup": drawn.get("legendgroup", f"lone {trace.name}"),
        "showlegend": False,
        "hoverinfo": "skip",
    }
    drawn.setdefault("legendgroup", dots["legendgroup"])
    keep = ("xaxis", "yaxis", "visible")
    return dots | {k: drawn[k] for k in keep if k in drawn}


def _bar_labels(
    trace: Trace, panel: Panel, bar: dict[str, Any], number: int, upright: float | None = None
) -> dict[str, Any]:
    """Return the trace writing a bar trace's labels above its whiskers.

    As the static figure draws them (the title says "label: runs succeeded": "none"
    showed them in the hover only; a review), above the whisker's top, not the bar's,
    where the whisker ran through them (plotly.js writes a bar's own text at its top).
    In its bar's place beside the others (``offsetgroup``) and its legend group, so
    that it is hidden with it; ``number`` (the bar's place in the figure's data) names
    the place, and the group of a bar without one; a bar without a top has its label at
    ``panel``'s foot (:func:`~robot_msgs.report.figure_spec.bar_label_tops`).
    """
    standing = bar_label_tops(trace, panel)
    tops = _values(standing)
    group = bar.setdefault("legendgroup", f"bar {number}")
    bar["offsetgroup"] = place = f"bar {number}"
    labels = {
        "name": trace.name,
        "x": bar["x"],
        "text": list(trace.text or ()),
        "cliponaxis": False,
        "offsetgroup": place,
        "legendgroup": group,
        "showlegend": False,
        "hoverinfo": "skip",
    } | ({"visible": "legendonly"} if trace.hidden else {})
    if upright is None:
        unseen = {"size": _BAR_LABEL_MARK_PX, "color": "rgba(0,0,0,0)"}
        return labels | {
            "type": "scatter",
            "mode": "markers+text",
            "marker": unseen,
            "y": tops,
            "textposition": "top center",
        }
    # Upright: written from the bottom of a bar without colour standing on the whisker,
    # as high as the longest label (so the range makes room for it).
    return labels | {
        "type": "bar",
        "base": tops,
        # On a log axis ``upright`` is decades: each label's bar as many above its base.
        "y": _values(standing * (10**upright - 1)) if panel.y_log else [upright] * len(tops),
        "marker": {"color": "rgba(0,0,0,0)"},
        "textposition": "inside",
        "insidetextanchor": "start",
        "textangle": -90,
        "constraintext": "none",
        "textfont": {"size": 11, "color": "#333333"},
    }


def results_plots(
    named: Sequence[tuple[str, EvaluationResult]], labels: Sequence[str] | None = None
) -> list[tuple[str, str, Figure]]:
    """Figures of ``robot-msgs res --html``: error over time and distance, box, violin, histogram.

    The panels of :func:`~robot_msgs.report.results_spec.results_spec` (the figure
    ``res --plot`` draws), each a figure of its own, titled and captioned by its panel's
    title; each result named ``labels`` (default: its path's
    :func:`~robot_msgs.report.figure_text.legend_names`; the path is in the hover).
    Returns ``(kind, caption, figure)``, kinds as
    :data:`~robot_msgs.report.results_spec.RESULTS_PANELS` names them.

    Raises
    ------
    FormatError
        The results' first signals have different units (they cannot share an axis).
    """
    from robot_msgs.report.figure_spec import FigureSpec  # noqa: PLC0415
    from robot_msgs.report.results_spec import RESULTS_PANELS, results_spec  # noqa: PLC0415

    spec = results_spec(named, labels=labels)
    out = []
    for kind, panel in zip(RESULTS_PANELS[: len(spec.panels)], spec.panels, strict=True):
        caption = panel.title[:1].upper() + panel.title[1:]
        alone = FigureSpec(
            title=caption, panels=(replace(panel, title=""),), size_in=(13, 400 / PAGE_PX_PER_IN)
        )
        out.append((kind, caption, plotly_figure(alone)))  # 400 px high
    return out
