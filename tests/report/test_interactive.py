"""The interactive figures as data: every trial told apart, every shaded interval named."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robot_msgs.report.build import build_report
from robot_msgs.report.figure_spec import (
    FigureSpec,
    Panel,
    Trace,
    comparison_spec,
    error_over_time_spec,
    latency_cdf_spec,
    repeatability_spec,
    rpe_box_spec,
    trajectories_spec,
)
from robot_msgs.report.figures import auto_plane
from robot_msgs.report.interactive import _box_stats, plotly_figure
from robot_msgs.runs.manifest import load_runs
from robot_msgs.runs.run_settings import default_metrics
from tests.report.conftest import example_manifest

if TYPE_CHECKING:
    from robot_msgs.report.build import ReportResult
    from robot_msgs.typing import Float64Array


@pytest.fixture(scope="module")
def result() -> ReportResult:
    manifest = load_runs([example_manifest()], metrics=default_metrics((0.5, 1.0, 2.0), "s"))
    return build_report(manifest)


def _plot(spec: FigureSpec | None) -> dict[str, Any] | None:
    return None if spec is None else plotly_figure(spec)


def _lines(figure: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in figure["data"] if t.get("mode", "").startswith("lines") and "fill" not in t]


def test_every_trial_of_a_sequence_has_its_own_colour_and_dash(result: ReportResult) -> None:
    for sequence in ("fr1_xyz", "fr2_desk"):
        figure = _plot(error_over_time_spec(result, sequence))
        assert figure is not None
        styles = [(t["line"]["color"], t["line"]["dash"]) for t in _lines(figure)]
        assert len(styles) == 6  # 3 algorithms x 2 trials
        assert len(set(styles)) == len(styles)
    repeat = _plot(repeatability_spec(result, "lab_loop"))
    assert repeat is not None
    for algorithm in ("kfslam", "dvo"):
        styles = [
            (t["line"]["color"], t["line"]["dash"])
            for t in repeat["data"]
            if t["legendgroup"] == algorithm
        ]
        assert len(styles) == 3
        assert len(set(styles)) == 3


def test_every_shaded_interval_has_a_legend_entry(result: ReportResult) -> None:
    for sequence in ("fr1_xyz", "fr2_desk"):
        figure = _plot(error_over_time_spec(result, sequence))
        assert figure is not None
        bands = [t for t in figure["data"] if t.get("fill") == "toself"]
        named = {t["name"] for t in bands}
        # One legend entry per run with losses (and one for the reference's gaps) ...
        assert {t["name"] for t in bands if t["showlegend"]} == named
        # ... and each band toggles with its entry.
        for band in bands:
            assert band["legendgroup"]
        runs = [e for e in result.runs.values() if e.report.sequence == sequence]
        lost = {e.report.name for e in runs if e.report.losses}
        assert sum(1 for n in named if n.endswith("tracking lost")) == len(lost)


def test_reference_gaps_are_shaded_and_explained(result: ReportResult) -> None:
    figure = _plot(error_over_time_spec(result, "fr2_desk"))
    assert figure is not None
    gaps = [t for t in figure["data"] if t.get("legendgroup") == "reference"]
    ref = next(
        e.reference
        for e in result.runs.values()
        if e.report.sequence == "fr2_desk" and e.reference is not None
    )
    assert ref is not None
    steps = np.diff(ref.stamps_s)
    expected = int(np.count_nonzero(steps > 5 * np.median(steps)))
    assert expected > 0  # fr2_desk's ground truth has holes
    assert len(gaps) == expected
    assert gaps[0]["name"].startswith("no reference (gap in the ground truth")


def test_hover_data_holds_each_poses_stamp_and_error(result: ReportResult) -> None:
    run = result.runs["kfslam/fr1_xyz/trial_1"]
    assert run.primary is not None
    series = run.primary.series["translation"]
    figure = _plot(error_over_time_spec(result, "fr1_xyz"))
    assert figure is not None
    trace = next(t for t in _lines(figure) if t["meta"] == "kfslam/fr1_xyz/trial_1")
    rows = [c for c in trace["customdata"] if c[1] is not None]
    assert [r[1] for r in rows] == list(range(len(series)))
    assert np.allclose([r[0] for r in rows], series.stamps_s, atol=1e-6)
    ys = [y for y in trace["y"] if y is not None]
    assert np.allclose(ys, series.errors, atol=1e-7)
    view = _plot(trajectories_spec(result, "fr1_xyz"))
    assert view is not None
    points = next(t for t in view["data"] if t.get("meta") == "kfslam/fr1_xyz/trial_1")
    # The first point is the legend's swatch, without a place (test below).
    assert [c[1] for c in points["customdata"][1:]] == list(range(len(series)))
    # Drawn in the reference's widest plane, as ape --plot draws it.
    assert run.reference is not None
    plane = auto_plane(run.reference.positions_xyz)
    column = "xyz".index(plane[0])
    assert np.allclose(points["x"][1:], run.primary.estimate.positions_xyz[:, column], atol=1e-4)


def test_an_error_coloured_trace_shows_the_scales_middle_in_the_legend(
    result: ReportResult,
) -> None:
    """On a shared colour axis plotly.js drew every estimate's legend symbol black (a review).

    Each trace carries the scale; its first point, without a place, holds the scale's
    middle, the colour the legend shows (and the static figure's legend); one bar.
    """
    view = _plot(trajectories_spec(result, "fr1_xyz"))
    assert view is not None
    coloured = [t for t in view["data"] if isinstance(t.get("marker", {}).get("color"), list)]
    assert coloured
    assert "coloraxis" not in view["layout"]
    for trace in coloured:
        marker = trace["marker"]
        assert "coloraxis" not in marker
        assert marker["colorscale"] == "Viridis"
        assert marker["color"][0] == pytest.approx(0.5 * (marker["cmin"] + marker["cmax"]))
        assert (trace["x"][0], trace["y"][0], trace["customdata"][0]) == (None, None, [None, None])
    assert sum(bool(t["marker"]["showscale"]) for t in coloured) == 1


def test_every_rpe_delta_is_a_category(result: ReportResult) -> None:
    figure = _plot(rpe_box_spec(result, "fr1_xyz"))
    assert figure is not None
    # As the tables write the deltas.
    assert {x for t in figure["data"] for x in t["x"]} == {"0.5 s", "1 s", "2 s"}


def test_latency_legend_holds_p50_and_p95(result: ReportResult) -> None:
    figure = _plot(latency_cdf_spec(result))
    assert figure is not None
    pooled = np.concatenate(
        [
            e.latency_s
            for e in result.runs.values()
            if e.report.algorithm == "dvo" and e.latency_s.size
        ]
    )
    p50, p95 = np.percentile(pooled * 1e3, [50, 95])
    names = [t["name"] for t in figure["data"]]
    assert f"dvo: acquisition to available (p50 {p50:.0f} ms, p95 {p95:.0f} ms)" in names
    assert "annotations" not in figure["layout"]


def test_comparison_bars_are_the_group_medians(result: ReportResult) -> None:
    figure = _plot(comparison_spec(result))
    assert figure is not None
    drawn = [t for t in figure["data"] if t["type"] == "bar"]
    bars = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in drawn}
    for group in result.report.groups:
        if group.accuracy is None:
            continue
        stats = group.accuracy.stats["translation"]
        assert math.isclose(bars[group.algorithm][group.sequence], stats.median)


def test_comparison_labels_stand_above_the_whiskers(result: ReportResult) -> None:
    # The labels the title promises ("label: runs succeeded") are drawn, not hover-only;
    # as the bars' own text ("outside": at the bar's top) the min-max whisker ran through
    # "2/2 ok" on every bar whose runs differed (a hunt; the static figure had been fixed).
    # Each is a text trace at its whisker's top, in its bar's place (offsetgroup), shown
    # and hidden with its bar (legendgroup; the legend toggles a group at a click).
    figure = _plot(comparison_spec(result))
    assert figure is not None
    bars = [t for t in figure["data"] if t["type"] == "bar"]
    labels = [t for t in figure["data"] if t["type"] == "scatter"]
    assert len(bars) == len(labels) == 3
    assert figure["layout"]["scattermode"] == "group"
    assert figure["layout"]["legend"]["groupclick"] == "togglegroup"
    maxima = {
        (g.algorithm, g.sequence): g.accuracy.stats["translation"].max
        for g in result.report.groups
        if g.accuracy is not None and g.accuracy.stats["translation"].n
    }
    from robot_msgs.report.plots import _BAR_LABEL, matplotlib_figure

    spec = comparison_spec(result)
    assert spec is not None
    static = matplotlib_figure(spec)
    offsets = {t.xyann for ax in static.axes for t in ax.texts if t.get_gid() == _BAR_LABEL}
    assert len(offsets) == 1
    ((dx, static_gap_pt),) = offsets
    assert (dx, static_gap_pt) == (0, 4)
    for bar, label in zip(bars, labels, strict=True):
        assert bar["textposition"] == "none"  # the text in the hover only
        assert label["textposition"] == "top center"
        # Clear of the cap, as the static figure's: plotly.js stands "top" text a mark's
        # radius / 0.8 + 1 px above its point (textPointStyle), on it without a mark; the
        # static label's baseline stands its xytext above the top (4 pt: 5.3 CSS px).
        assert "markers" in label["mode"]
        assert label["marker"]["color"] == "rgba(0,0,0,0)"  # unseen
        gap_px = label["marker"]["size"] / 2 / 0.8 + 1
        assert gap_px == pytest.approx(static_gap_pt * 96 / 72, abs=0.05)
        assert label["offsetgroup"] == bar["offsetgroup"]
        assert label["legendgroup"] == bar["legendgroup"]
        assert not label["showlegend"]
        assert label["x"] == bar["x"]
        assert label["text"] == bar["text"]
        assert all(text.endswith(" ok") for text in label["text"])
        tops = [maxima[bar["name"], x] for x in label["x"]]
        assert label["y"] == pytest.approx(tops)


#: A name plotly.js would read as its HTML: an entity, a tag, a line break, a field.
_ODD = "a<b & c&amp;d <br> <b>é</b> 中文 %{meta} {y} {{x}} 5%"


def _shown(text: str) -> str:
    """Return ``text`` as plotly.js shows it: entities read, ``<br>`` a line end.

    The rule of plotly.js's ``svg_text_utils``: ``<br>`` starts a line, a tag it knows
    (``b``, ``i``, ``sub``, ...) is markup, ``&lt;``, ``&gt;``, ``&amp;`` and ``&#NN;`` are
    the characters; before, ``Lib.templateString`` fills each ``%{...}`` of a title or
    legend entry from the trace's or layout's ``meta``.
    """
    import html

    assert "%{" not in text, text
    text = re.sub(r"<br\s*/?>", "\n", text)
    assert not re.search(r"<\/?(b|i|em|sub|sup|span|a|s|u)\b", text), text
    return html.unescape(text)


def test_names_in_a_figure_show_as_written() -> None:
    """A name ``a&lt;b`` showed as "a<b", ``x<br>y`` on two lines, ``<b>x</b>`` bold,
    ``%{meta}`` as the trace's run: plotly.js reads a text as its HTML and as a template,
    where the tables show the names as written; and ``{y}`` in a hover as the point's
    value (the description's field)."""
    from robot_msgs.report.figure_spec import ColourScale, FigureSpec, Panel, Trace, _literal

    bars = Trace(
        kind="bar",
        x=(_ODD, "plain"),
        y=np.array([1.0, 2.0]),
        name=_ODD,
        group=_ODD,
        titled=True,
        text=(f"{_ODD} 2/2 ok", "1/2 ok"),
        hover=f"{_literal(_ODD)}, {{x}}\n{{y:.4f}} m {{text}}",
    )
    dots = Trace(
        kind="markers",
        x=np.array([0.0, 1.0]),
        y=np.array([1.0, 2.0]),
        values=np.array([0.5, 1.5]),
        name=_ODD,
        hover=f"{_literal(_ODD)}\n{{value:.1%}}",
    )
    one = Panel(traces=(bars,), x_title=_ODD, y_title=_ODD, title=_ODD, categories=(_ODD, "plain"))
    two = Panel(traces=(dots,), x_title="x", y_title="y", title=f"{_ODD} {_ODD} {_ODD}")
    scale = ColourScale(title=_ODD, low=0.0, high=2.0)
    spec = FigureSpec(
        title=f"{_ODD}\nline two", panels=(one, two), size_in=(12, 4), colour_scale=scale
    )
    figure = plotly_figure(spec)
    layout, (bar, labels, markers) = figure["layout"], figure["data"]
    assert _shown(layout["title"]["text"]) == f"{_ODD}\nline two"
    assert _shown(layout["xaxis"]["title"]["text"]) == _ODD
    assert _shown(layout["yaxis"]["title"]["text"]) == _ODD
    assert [_shown(c) for c in layout["xaxis"]["categoryarray"]] == [_ODD, "plain"]
    assert [_shown(c) for c in bar["x"]] == [_ODD, "plain"]
    assert bar["x"] == labels["x"] == layout["xaxis"]["categoryarray"]  # one category
    first, second = (_shown(a["text"]) for a in layout["annotations"])
    assert first == _ODD
    assert second.split() == f"{_ODD} {_ODD} {_ODD}".split()  # wrapped, every word kept
    assert second.count("\n") >= 1
    for trace in (bar, markers):
        assert _shown(trace["name"]) == _ODD
    assert _shown(bar["legendgrouptitle"]["text"]) == _ODD
    assert [_shown(t) for t in labels["text"]] == [f"{_ODD} 2/2 ok", "1/2 ok"]
    assert [_shown(t) for t in bar["text"]] == [f"{_ODD} 2/2 ok", "1/2 ok"]
    colour_bar = markers["marker"]["colorbar"]
    assert _shown(colour_bar["title"]["text"]) == _ODD
    # The hover: the name as written around plotly.js's own fields, which stay fields.
    hover = bar["hovertemplate"]
    assert hover.endswith("<extra></extra>")
    fields = re.findall(r"%\{[^\s%{}:]*(?::[^}]*)?\}", hover)  # plotly.js's TEMPLATE_STRING_REGEX
    assert fields == ["%{x}", "%{y:.4f}", "%{text}"]
    shown = re.sub(r"%\{[^\s%{}:]*(?::[^}]*)?\}", "F", hover.removesuffix("<extra></extra>"))
    shown = _shown(shown)
    assert shown == f"{_ODD}, F\nF m F"
    assert re.findall(r"%\{[^\s%{}:]*(?::[^}]*)?\}", markers["hovertemplate"]) == [
        "%{marker.color:.1%}"
    ]


def test_long_category_names_are_level_or_upright_never_slanted() -> None:
    """``res --html``'s box plot turned its long names 30 degrees at 360 px (plotly.js's
    choice between level and upright): the last ran 198 px past the figure's right edge.
    A category axis turns its names upright where level ones would run together; a
    numeric axis keeps plotly.js's choice."""
    names = tuple(f"orbslam3_stereo_inertial_variant_{k:02d}" for k in (1, 2))
    box = Trace(kind="box", x=names, y=np.array([1.0, 2.0]))
    boxes = Panel(traces=(box,), x_title="", y_title="e", categories=names)
    line = Panel(traces=(Trace(kind="line", x=np.zeros(2), y=np.ones(2)),), x_title="", y_title="e")
    layout = plotly_figure(FigureSpec(title="", panels=(boxes, line), size_in=(4, 2)))["layout"]
    assert layout["xaxis"]["autotickangles"] == [0, 90]
    assert "autotickangles" not in layout["xaxis2"]


def test_a_y_title_repeating_its_left_neighbours_is_named_for_the_page() -> None:
    """The trajectories' "z [m]" of the second and third panel ran 16 px into the panel
    on their left at 360 px (8 px at 768 px). The page's script leaves a title that
    repeats its left neighbour's to it where the gap is too narrow: the layout names
    each such axis and its neighbour, by their suffixes. Five panels in rows of three,
    titled z z y | y y: the second repeats the first, the fifth the fourth; the third
    differs, and the fourth starts a row."""
    traces = (Trace(kind="line", x=np.zeros(2), y=np.ones(2)),)
    panels = tuple(Panel(traces=traces, x_title="x", y_title=t) for t in "zzyyy")
    spec = FigureSpec(title="", panels=panels, size_in=(4, 2), columns=3)
    assert plotly_figure(spec)["layout"]["meta"]["repeats"] == [["2", ""], ["5", "4"]]


def _view(
    x: np.ndarray[Any, np.dtype[np.float64]], y: np.ndarray[Any, np.dtype[np.float64]]
) -> Panel:
    line = Trace(kind="line", x=x, y=y)
    return Panel(traces=(line,), x_title="x [m]", y_title="y [m]", equal_aspect=True)


def test_a_view_of_utm_sized_positions_writes_whole_coordinates_clear_of_title_and_panel() -> None:
    """The report's views of georeferenced.tum read "5.4294M" and "457.95k" (plotly.js's SI
    suffixes); written whole, "5,429,400" (61 px in headless Chromium) was cut by the
    60 px left margin, touched its "y [m]" (2 px, 17 px over it at 360 px) and ran into
    the panel on its left at 800 px (a review). A position view's axes write their
    coordinates whole, grow the margin, stand the title off the labels and keep the
    panels apart by the labels and the title (16 px) at least."""
    turn = np.linspace(0.0, 2.0 * np.pi, 200)
    view = _view(458040.0 + 90.0 * np.cos(turn), 5429330.0 + 140.0 * np.sin(turn))
    layout = plotly_figure(FigureSpec(title="s1", panels=(view, view), size_in=(13, 5)))["layout"]
    for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2"):
        assert (layout[axis]["exponentformat"], layout[axis]["automargin"]) == ("none", True)
    assert layout["yaxis"]["title"]["standoff"] == layout["yaxis2"]["title"]["standoff"] == 8
    # The page's script keeps the panels this far apart at the width it draws them.
    assert layout["meta"]["grid"]["need"] >= 61 + 8 + 16
    apart = layout["xaxis2"]["domain"][0] - layout["xaxis"]["domain"][1]
    assert apart * 1120 >= layout["meta"]["grid"]["need"]  # the plot 1,120 px wide


def test_a_view_of_small_positions_is_laid_out_as_plotly_js_lays_it_out() -> None:
    """The example's views (fr2_desk's "−2.5" is 29 px) keep plotly.js's place for the y
    title and the panels' usual gap: their page is drawn as before, pixel for pixel."""
    turn = np.linspace(0.0, 2.0 * np.pi, 200)
    view = _view(np.cos(turn), -1.5 + np.sin(turn))
    layout = plotly_figure(FigureSpec(title="s1", panels=(view, view), size_in=(13, 5)))["layout"]
    assert "standoff" not in layout["yaxis"]["title"]
    assert "need" not in layout["meta"]["grid"]
    assert layout["xaxis"]["domain"] == [0.04, 0.46]


@settings(max_examples=300, deadline=None)
@given(
    arrays(
        np.float64,
        st.integers(1, 30),
        elements=st.one_of(st.sampled_from([0.0, 1.0, 2.0]), st.floats(-100.0, 100.0)),
    )
)
def test_the_pages_box_statistics_are_matplotlibs(values: Float64Array) -> None:
    # The static figure draws the box with matplotlib: the page's must be the same box,
    # ties and one or two values included ([0, 1, 1, 1]: q1 0.75, its lower whisker at
    # q1, not at 1 inside the box).
    from matplotlib.cbook import boxplot_stats

    stats = _box_stats(Trace(kind="box", x=("a",) * values.size, y=values))
    want = boxplot_stats(values)[0]
    got = [stats[k][0] for k in ("q1", "median", "q3", "lowerfence", "upperfence")]
    expected = [want[k] for k in ("q1", "med", "q3", "whislo", "whishi")]
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert sorted(stats["y"][0]) == sorted(want["fliers"].tolist())


def test_a_box_whose_whisker_would_be_inside_it_ends_at_its_quartile() -> None:
    stats = _box_stats(Trace(kind="box", x=("a",) * 4, y=np.array([0.0, 1.0, 1.0, 1.0])))
    assert (stats["q1"], stats["lowerfence"], stats["y"]) == ([0.75], [0.75], [[0.0]])
