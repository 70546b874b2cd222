"""The ``res`` figure described once, from hand-built results, and both backends drawing it.

Two estimates of a reference that runs along x at 1 m/s from t = 100 s, with a gap in
its stamps (100.4 s to 102.0 s): ``a`` is 0.1 k m off in y at pose k, ``b`` 0.2 k m, so
their APE (no alignment) is 0.1 k and 0.2 k, and the reference has travelled
``STAMPS`` metres at each pose. Every expected number below is worked out by hand
from these inputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.compare import Signal
from robot_msgs.errors import FormatError
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.report.figures import PALETTE, lone_points
from robot_msgs.report.interactive import results_plots
from robot_msgs.report.results_spec import RESULTS_PANELS, results_spec
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.report.figure_spec import FigureSpec, Panel

STAMPS = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 2.0, 2.1, 2.2])
K = np.arange(8.0)
NAN = np.nan
GAPPED_T = [0.0, 0.1, 0.2, 0.3, 0.4, NAN, 2.0, 2.1, 2.2]  # break_gaps: 1.6 s > 5 x 0.1 s


def _trajectory(y: np.ndarray[Any, np.dtype[np.float64]]) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=100.0 + STAMPS,
        positions_xyz=np.stack([STAMPS, y, 0 * y], 1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (8, 1)),
    )


@pytest.fixture(scope="module")
def named() -> list[tuple[str, EvaluationResult]]:
    ref = _trajectory(0 * K)
    settings = EvaluationSettings(align="none")
    return [
        ("runs/a.json", ape(ref, _trajectory(0.1 * K), settings=settings)),
        ("runs/b.json", ape(ref, _trajectory(0.2 * K), settings=settings)),
    ]


@pytest.fixture(scope="module")
def holed(named: list[tuple[str, EvaluationResult]]) -> EvaluationResult:
    """``a`` with its error at pose 3 missing (NaN)."""
    _, result = named[0]
    errors = 0.1 * K
    errors[3] = NAN
    signal = Signal.of("translation", "m", errors, stamps_s=100.0 + STAMPS)
    return result.replace(comparison=result.comparison.replace(signals=(signal,)))


def _close(a: object, b: object) -> bool:
    return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), equal_nan=True))


def _panels(spec: FigureSpec) -> dict[str, Panel]:
    return dict(zip(RESULTS_PANELS[: len(spec.panels)], spec.panels, strict=True))


def test_errors_are_drawn_over_time_since_the_first_and_broken_at_the_gap(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    over_time = _panels(results_spec(named))["error_over_time"]
    assert over_time.x_title == "time since the result's first error [s]"
    assert over_time.y_title == "translation error [m]"
    a, b = over_time.traces
    assert (a.name, b.name) == ("a", "b")  # the file stems
    assert (a.colour, b.colour) == PALETTE[:2]
    assert _close(a.x, GAPPED_T)
    assert _close(a.y, [0.0, 0.1, 0.2, 0.3, 0.4, NAN, 0.5, 0.6, 0.7])
    assert _close(b.y, [0.0, 0.2, 0.4, 0.6, 0.8, NAN, 1.0, 1.2, 1.4])
    # The hover's stamp and pose: the stored stamp, the row it belongs to.
    assert _close(a.stamps_s, 100.0 + np.array(GAPPED_T))
    assert _close(a.poses, [0, 1, 2, 3, 4, NAN, 5, 6, 7])


def test_errors_over_distance_are_at_the_reference_path_travelled(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    over_distance = _panels(results_spec(named))["error_over_distance"]
    assert over_distance.x_title == "distance travelled along the reference [m]"
    assert over_distance.share_y
    a, b = over_distance.traces
    # x = the stamp: 1 m a second, no step back; broken at the gap in time, as over time
    # (a straight line bridged it).
    assert _close(a.x, GAPPED_T)
    assert _close(a.y, [0.0, 0.1, 0.2, 0.3, 0.4, NAN, 0.5, 0.6, 0.7])
    # Given distances are drawn in their order along the path; a result without (or
    # with one per error of another series) has only its (no distances) legend entry.
    for missing in (None, STAMPS[:3]):
        given = results_spec(named, distances=[missing, STAMPS[::-1].copy()])
        a, b = _panels(given)["error_over_distance"].traces
        assert (a.name, b.name) == ("a (no distances)", "b")
        assert len(a.x) == a.y.size == 0
        # The poses 7..0 along the path: the gap in time is between poses 5 and 4.
        assert _close(b.x, [0.0, 0.1, 0.2, NAN, 0.3, 0.4, 2.0, 2.1, 2.2])
        assert _close(b.y, [1.4, 1.2, 1.0, NAN, 0.8, 0.6, 0.4, 0.2, 0.0])


def test_boxes_violins_and_histograms_hold_each_results_errors(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    panels = _panels(results_spec(named, labels=["first", "second"]))
    for kind in ("box", "violin"):
        a, b = panels[kind].traces
        assert (a.kind, a.x, b.x) == (kind, ("first",) * 8, ("second",) * 8)
        assert _close(a.y, 0.1 * K)
        assert not panels[kind].grouped  # each at its own name
    assert panels["violin"].share_y
    a, b = panels["histogram"].traces
    assert panels["histogram"].x_title == "translation error [m]"
    assert panels["histogram"].y_title == "errors per bin"
    # The same 40 bins for both, from 0 to 1.4 m (all the errors), 0.035 m wide: 0.1 k
    # falls in bin floor(0.1 k / 0.035), 0.2 k in floor(0.2 k / 0.035); 0.7 m is bin
    # 20's lower edge. Each over its own range (a's 0.0175 m wide), a's counts stood
    # beside b's as high over bins half as wide: the same 8 errors looked half as many.
    assert _close(a.x, np.linspace(0.0, 1.4, 41))
    assert _close(b.x, np.linspace(0.0, 1.4, 41))
    assert np.flatnonzero(a.y).tolist() == [0, 2, 5, 8, 11, 14, 17, 20]
    assert np.flatnonzero(b.y).tolist() == [0, 5, 11, 17, 22, 28, 34, 39]
    assert a.y.sum() == b.y.sum() == 8
    assert a.text is not None
    assert a.text[2] == "0.07 to 0.105 m: 1 of 8"


def test_a_missing_error_is_a_gap_over_time_and_in_no_box_violin_or_bin(
    holed: EvaluationResult,
) -> None:
    panels = _panels(results_spec([("a.json", holed)]))
    (over_time,) = panels["error_over_time"].traces
    assert _close(over_time.y, [0.0, 0.1, 0.2, NAN, 0.4, NAN, 0.5, 0.6, 0.7])
    kept = [0.0, 0.1, 0.2, 0.4, 0.5, 0.6, 0.7]
    for kind in ("box", "violin"):
        (trace,) = panels[kind].traces
        assert trace.x == ("a",) * 7
        assert _close(trace.y, kept)
    (histogram,) = panels["histogram"].traces
    assert np.flatnonzero(histogram.y).tolist() == [0, 5, 11, 22, 28, 34, 39]  # 0.3: none


def test_a_summary_without_errors_keeps_its_name_and_draws_nothing(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    path, result = named[0]
    signal = result.comparison.signals[0].replace(series=None)
    summary = result.replace(comparison=result.comparison.replace(signals=(signal,)))
    panels = _panels(spec := results_spec([(path, result), ("s.json", summary)]))
    for panel in panels.values():
        assert len(panel.traces[1].x) == panel.traces[1].y.size == 0
    assert panels["error_over_distance"].traces[1].name == "s (no distances)"
    fig = matplotlib_figure(spec)
    for ax in fig.axes[2:4]:  # its place under the box and violin axes, empty
        assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "s"]
    (legend,) = fig.legends  # one above the panels, for all of them: it says what s lacks
    assert [t.get_text() for t in legend.get_texts()] == ["a", "s", "s (no distances)"]
    assert len(legend.get_lines()) == 3
    pages = {kind: page for kind, _, page in results_plots([(path, result), ("s.json", summary)])}
    for kind in ("box", "violin"):
        axis = pages[kind]["layout"]["xaxis"]
        assert (axis["categoryarray"], axis["range"]) == (["a", "s"], [-0.5, 1.5])


def test_results_in_different_units_cannot_share_an_axis(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    ref, est = _trajectory(0 * K), _trajectory(0.1 * K)
    degrees = ape(ref, est, settings=EvaluationSettings(align="none"), relation="angle_deg")
    with pytest.raises(
        FormatError,
        match=r"^the results are in different units \(deg, m\); plot results of one unit$",
    ):
        results_spec([*named, ("c.json", degrees)])
    # evo's full-transformation zip has no unit: it said "different units (, m)".
    full = ape(ref, est, settings=EvaluationSettings(align="none"), relation="full")
    with pytest.raises(FormatError, match=r"different units \(m, unit-less\); plot results"):
        results_spec([*named, ("full.json", full)])


def test_the_axis_names_only_what_every_result_shares(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """The axes said the first result's signal: "over 1 frame" beside RPEs over 1 m and APEs.

    ``res --plot rpe_f.zip rpe_m.zip ape.zip`` (evo's fr1_xyz, ``-d 1 -u f`` and ``-u m``)
    labelled every error "translation error over 1 frame [m]".
    """
    _, result = named[0]

    def of(quantity: str, unit: str, **delta: Any) -> EvaluationResult:
        signal = Signal.of(quantity, unit, 0.1 * K, stamps_s=100.0 + STAMPS, **delta)
        return result.replace(comparison=result.comparison.replace(signals=(signal,)))

    frame = of("translation", "m", delta=1.0, delta_unit="f")
    metre = of("translation", "m", delta=1.0, delta_unit="m")

    def titles(*results: EvaluationResult) -> set[str]:
        panels = _panels(results_spec([(f"r{k}.json", r) for k, r in enumerate(results)]))
        box, histogram = panels["box"], panels["histogram"]
        return {panels["error_over_time"].y_title, box.y_title, histogram.x_title}

    assert titles(frame, frame) == {"translation error over 1 frame [m]"}
    assert titles(frame, metre) == {"translation error [m]"}
    assert titles(frame, result) == {"translation error [m]"}  # an RPE and an APE
    full, rot = of("full", ""), of("rot_part", "")  # both without a unit: error, not "full"
    assert titles(full, rot) == {"error"}
    # Each hover says its result's own signal: both said the axis's "translation error [m]".
    panels = _panels(results_spec([("f.zip", frame), ("m.zip", metre)]))
    for kind in ("error_over_time", "box", "violin"):
        hovers = [t.hover or "" for t in panels[kind].traces]
        assert hovers[0].startswith("f.zip\n"), kind
        assert "\ntranslation error over 1 frame [m]: {y:.4g}" in hovers[0], kind
        assert "\ntranslation error over 1 m [m]: {y:.4g}" in hovers[1], kind


# --------------------------------------------------------------------------- both backends


def test_both_backends_draw_the_same_panels_titles_labels_and_data(
    named: list[tuple[str, EvaluationResult]], holed: EvaluationResult
) -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import results_figure

    named = [*named, ("c.json", holed)]
    spec = results_spec(named)
    fig = results_figure(named)
    pages = results_plots(named)
    assert [kind for kind, _, _ in pages] == list(RESULTS_PANELS[:5])  # no rotation: 5
    assert len(fig.axes) == len(spec.panels) == 5
    captions = ["Error over time", "Error over distance", "Box plot (whiskers 1.5 IQR)"]
    captions += ["Violin plot (min to max)", "Histogram (40 bins)"]
    assert [caption for _, caption, _ in pages] == captions
    for ax, (_, caption, page), panel in zip(fig.axes, pages, spec.panels, strict=True):
        layout = page["layout"]
        assert "annotations" not in layout  # the title is the caption's, not repeated
        assert ax.get_title() == panel.title
        assert panel.title.casefold() == caption.casefold()
        assert layout["title"]["text"] == caption
        assert ax.get_xlabel() == layout["xaxis"]["title"]["text"] == panel.x_title
        assert layout["yaxis"]["title"]["text"] == panel.y_title
        # A panel drawn beside the one whose y axis it shares leaves the title to it.
        assert ax.get_ylabel() == ("" if panel.share_y else panel.y_title)
        assert [t["name"] for t in page["data"]] == [t.name for t in panel.traces]
    over_time, over_distance, box, violin, histogram = fig.axes
    assert over_distance.get_shared_y_axes().joined(over_time, over_distance)
    assert violin.get_shared_y_axes().joined(box, violin)
    pages_by_kind = {kind: page for kind, _, page in pages}
    for ax, kind in ((over_time, "error_over_time"), (over_distance, "error_over_distance")):
        lines = [ln for ln in ax.get_lines() if ln.get_linestyle() != "None"]  # not a lone dot
        for line, trace, drawn in zip(
            lines, _panels(spec)[kind].traces, pages_by_kind[kind]["data"], strict=True
        ):
            assert _close(line.get_xdata(), trace.x)
            assert _close(line.get_ydata(), trace.y)
            assert _close(np.array(drawn["x"], float), trace.x)
        assert ax.get_legend() is None  # one legend above the panels, not on the curves
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["a", "b", "c"]
    # Boxes and violins stand at their names (not side by side), named under the axis.
    medians = [np.mean(line.get_xdata()) for line in box.get_lines()[4::6]]
    assert _close(medians, [0.0, 1.0, 2.0])
    for ax in (box, violin):
        assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
        assert ax.get_legend() is None
    bodies = violin.collections[::4]  # a body each, and its bar, min and max
    assert len(violin.collections) == 3 * 4
    outlines = [b.get_paths()[0].vertices for b in bodies]  # mirrored about their middle
    assert _close([(v[:, 0].min() + v[:, 0].max()) / 2 for v in outlines], [0.0, 1.0, 2.0])
    assert _close([v[:, 1].max() for v in outlines], [0.7, 1.4, 0.7])  # to the largest error
    assert pages_by_kind["violin"]["data"][0]["spanmode"] == "hard"
    # The page's box is its statistics, each category once: 0.2 k for k = 0..7 has its
    # quartiles at ranks 1.75, 3.5 and 5.25 (0.35, 0.7, 1.05 m), whiskers at 0 and 1.4 m
    # (within 1.5 IQR), no outlier.
    page_box = pages_by_kind["box"]["data"][1]
    assert page_box["x"] == ["b"]
    stats = [page_box[k] for k in ("q1", "median", "q3", "lowerfence", "upperfence")]
    assert _close(stats, [[0.35], [0.7], [1.05], [0.0], [1.4]])
    assert page_box["y"] == [[]]
    # The histograms as outlines of the same bins.
    for stairs, trace, drawn in zip(
        histogram.patches,
        _panels(spec)["histogram"].traces,
        pages_by_kind["histogram"]["data"],
        strict=True,
    ):
        values, edges, _ = stairs.get_data()
        assert _close(values, trace.y)
        assert _close(edges, trace.x)
        assert _close(drawn["x"], [trace.x[0], *trace.x])
        assert _close(drawn["y"], [0, *trace.y, 0])
        assert drawn["line"]["shape"] == "hv"


def test_a_result_without_signals_keeps_its_name_and_draws_nothing(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """A Comparison may hold no signals: ``res --plot`` said "a bug" (IndexError)."""
    _, result = named[0]
    bare = result.replace(comparison=result.comparison.replace(signals=()))
    panels = _panels(results_spec([("none.json", bare), named[1]]))
    over_time = panels["error_over_time"]
    assert over_time.y_title == "translation error [m]"  # the other's signal
    empty, b = over_time.traces
    assert (empty.name, b.name) == ("none", "b")
    assert len(empty.y) == 0
    assert len(b.y) == 9  # eight errors and the gap
    alone = _panels(results_spec([("none.json", bare)]))
    assert alone["histogram"].x_title == "error"
    (trace,) = alone["box"].traces
    assert trace.name == "none"
    assert len(trace.y) == 0


def _of_errors(result: EvaluationResult, errors: list[float]) -> EvaluationResult:
    signal = Signal.of("translation", "m", np.array(errors), stamps_s=100.0 + STAMPS)
    return result.replace(comparison=result.comparison.replace(signals=(signal,)))


def test_histogram_bins_span_errors_past_float64_without_overflowing(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """Bins from -1e308 to 1e308 warned 'overflow encountered in subtract' (a review).

    Their span, 2e308, is past float64: NumPy's edges computed it. The 40 bins are 5e306
    wide, 5e306 (k - 20); -1e308 is in bin 0, 0 in bin 20 (its lower edge), 1e308 in 39.
    """
    _, result = named[0]
    errors = [-1e308, 0.0, 1e308, 0.0, 0.0, 0.0, 0.0, 0.0]
    spec = results_spec([("h.json", _of_errors(result, errors))])
    (histogram,) = _panels(spec)["histogram"].traces
    assert _close(histogram.x, [5e306 * (k - 20) for k in range(41)])
    assert np.flatnonzero(histogram.y).tolist() == [0, 20, 39]
    assert histogram.y.tolist()[20] == 6


def test_an_interactive_page_writes_errors_spanning_past_float64_whole(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """Its rounding measured the span with numpy: 'overflow encountered in subtract'."""
    _, result = named[0]
    errors = [-1e308, 0.0, 1e308, 0.0, 0.0, 0.0, 0.0, 0.0]
    pages = {
        kind: page for kind, _, page in results_plots([("h.json", _of_errors(result, errors))])
    }
    (over_time,) = pages["error_over_time"]["data"]
    assert over_time["y"] == [-1e308, 0.0, 1e308, 0.0, 0.0, None, 0.0, 0.0, 0.0]


def test_errors_past_what_matplotlib_can_scale_are_refused_and_those_below_drawn(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """Errors of 2e155 ended ``res --plot`` as "a bug in robot_msgs" (overflow in the
    violin's dot product; -1e308..1e308 gave no tick step): a hunt. Refused by name."""
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import results_figure

    _, result = named[0]
    huge = _of_errors(result, [0.0, 2e155, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    with pytest.raises(
        FormatError,
        match=r"^error over time: y values up to 2e\+155 are past what a figure can scale "
        r"\(at most 1e\+152 either way\)$",
    ):
        results_figure([("h.json", huge)])
    results_figure([("h.json", _of_errors(result, [0.0, -1e152, 1e152, 0, 0, 0, 0, 0]))])


@pytest.mark.parametrize(
    "errors",
    [
        [1.0] * 7 + [1.0 + 2.0**-52],  # one float spacing apart: no 40 bins between
        [1e17] * 8,  # one value: NumPy's 1e17 -+ 0.5 was 1e17 again
        [5e-324] * 4 + [1e-323] * 4,  # the least subnormals
    ],
)
def test_histogram_bins_of_errors_too_close_for_40_bins_hold_every_error(
    named: list[tuple[str, EvaluationResult]], errors: list[float]
) -> None:
    """NumPy refused them: 'Too many bins for data range' (res --plot: 'a bug'; a hunt)."""
    _, result = named[0]
    spec = results_spec([("h.json", _of_errors(result, errors))])
    (histogram,) = _panels(spec)["histogram"].traces
    edges = np.asarray(histogram.x, float)
    assert edges.size == 41
    assert (np.diff(edges) > 0).all()
    assert edges[0] <= min(errors) <= max(errors) <= edges[-1]
    assert edges[0] >= 0.0  # errors >= 0: the least subnormals' were widened below 0
    assert histogram.y.sum() == 8


def test_errors_sharing_a_stamp_are_drawn_as_points_not_a_line(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """drift's pooled signal holds every length's segment from each start (KITTI: 8).

    ``res --plot`` of two KITTI 00 drift results drew a line up and down through each
    start's segments, a comb over both panels; ``drift --plot`` draws them as points.
    """
    _, result = named[0]
    stamps = 100.0 + np.array([0.0, 0.0, 0.1, 0.1])  # 2 lengths at each of 2 starts
    signal = Signal.of("translation", "m", [1.0, 2.0, 1.5, 2.5], stamps_s=stamps)
    pooled = result.replace(comparison=result.comparison.replace(signals=(signal,)))
    distances = [np.array([0.0, 0.0, 0.1, 0.1])]
    panels = _panels(results_spec([("d.json", pooled)], distances=distances))
    for kind in ("error_over_time", "error_over_distance"):
        (trace,) = panels[kind].traces
        drawn = np.flatnonzero(np.isfinite(trace.y))
        assert sorted(trace.y[drawn].tolist()) == [1.0, 1.5, 2.0, 2.5], kind
        assert lone_points(np.asarray(trace.x, float), trace.y).tolist() == drawn.tolist(), kind


def test_errors_drawn_as_points_are_named_by_a_dot_in_both_legends(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """``res --plot`` and ``res --html`` of two KITTI 00 drift results drew each
    result's errors over time and distance as dots but named them by a line in the
    legend (seen side by side in a review's screenshots). Both name them by a dot; a
    result of one error a stamp keeps its line."""
    from robot_msgs.report.plots import results_figure

    _, result = named[0]
    stamps = 100.0 + np.array([0.0, 0.0, 0.1, 0.1])  # 2 lengths at each of 2 starts
    signal = Signal.of("translation", "m", [1.0, 2.0, 1.5, 2.5], stamps_s=stamps)
    pooled = result.replace(comparison=result.comparison.replace(signals=(signal,)))
    both = [("d.json", pooled), ("a.json", result)]
    distances = [np.array([0.0, 0.0, 0.1, 0.1]), None]
    fig = results_figure(both, distances=distances)
    (legend,) = fig.legends
    looks = {
        text.get_text(): (handle.get_linestyle(), handle.get_marker())
        for text, handle in zip(legend.get_texts(), legend.legend_handles, strict=True)
    }
    assert (looks["d"], looks["a"]) == (("None", "o"), ("-", "None"))
    for ax in fig.axes[:2]:  # over time, over distance: the dots drawn once
        assert [len(line.get_xdata()) for line in ax.lines if line.get_color() == PALETTE[0]] == [4]
    pages = {kind: page for kind, _, page in results_plots(both)}
    for kind in ("error_over_time", "error_over_distance"):
        modes = [trace["mode"] for trace in pages[kind]["data"]]
        assert modes[0] == "markers", kind
        assert modes[1].startswith("lines"), kind


def test_a_few_repeated_or_backward_stamps_break_the_line_only_where_they_occur(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """evo's EuRoC V102 APE zip (evo_ape euroc ... --save_results) repeats 4 of 798 stamps.

    Any stamp not after the one before drew the whole series as dots; one value a stamp
    but for a few is a line, broken before each repeated or backward stamp alone.
    """
    _, result = named[0]
    stamps = 100.0 + np.arange(40) / 10
    stamps[3], stamps[7] = stamps[2], stamps[7] - 0.15  # 0.2 again; 0.55 after 0.6
    errors = np.arange(1.0, 41.0).tolist()
    signal = Signal.of("translation", "m", errors, stamps_s=stamps)
    few = result.replace(comparison=result.comparison.replace(signals=(signal,)))
    distances = [np.arange(40.0)]
    panels = _panels(results_spec([("v.json", few)], distances=distances))
    (over_time,) = panels["error_over_time"].traces
    y = np.asarray(over_time.y, float)
    assert y[np.isfinite(y)].tolist() == errors
    assert np.flatnonzero(np.isnan(y)).tolist() == [3, 8]  # before 0.2 again, before 0.55
    assert lone_points(np.asarray(over_time.x, float), over_time.y).size == 0
    (over_distance,) = panels["error_over_distance"].traces
    assert np.asarray(over_distance.y, float).tolist() == errors  # one line


def test_all_pairs_errors_under_two_a_stamp_are_still_points(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    """fr1_xyz's all-pairs RPE over 1 m (ours and evo_rpe --all_pairs) has 652 errors at
    505 stamps, 147 repeated: "two or more a stamp" drew a line through them (a comb)."""
    _, result = named[0]
    stamps = 100.0 + np.repeat(np.arange(10) / 10, [2, 1, 1, 2, 1, 1, 2, 1, 1, 1])
    errors = np.linspace(1.0, 2.0, stamps.size).tolist()
    signal = Signal.of("translation", "m", errors, stamps_s=stamps)
    pairs = result.replace(comparison=result.comparison.replace(signals=(signal,)))
    distances = [stamps - 100.0]
    panels = _panels(results_spec([("p.json", pairs)], distances=distances))
    for kind in ("error_over_time", "error_over_distance"):
        (trace,) = panels[kind].traces
        drawn = np.flatnonzero(np.isfinite(trace.y))
        assert drawn.size == stamps.size, kind
        assert lone_points(np.asarray(trace.x, float), trace.y).tolist() == drawn.tolist(), kind


def _drift(result: EvaluationResult, scale: float, unit: str = "%") -> EvaluationResult:
    """``result`` holding KITTI's signals: pooled, then per length (20 m before 10 m).

    In ``unit`` ``m``: rpg's translation, its lengths alone.
    """
    t = [100.0, 100.1, 100.2, 100.3, 100.4]

    def of(quantity: str, unit: str, errors: list[float], length_m: float | None) -> Signal:
        values = [scale * e for e in errors]
        return Signal.of(quantity, unit, values, stamps_s=t[: len(values)], length_m=length_m)

    if unit == "m":
        rpg = (of("translation", "m", [4.0], 20.0), of("translation", "m", [1.0], 10.0))
        return result.replace(comparison=result.comparison.replace(signals=rpg))
    signals = (
        of("translation_pct", "%", [1.0, 2.0, 3.0, 4.0, 5.0], None),  # the pooled first
        of("rotation_deg_per_m", "deg/m", [0.1, 0.2, 0.3], None),
        of("translation_pct", "%", [4.0, 5.0], 20.0),
        of("rotation_deg_per_m", "deg/m", [0.3], 20.0),
        of("translation_pct", "%", [1.0, 2.0, 3.0], 10.0),
        of("rotation_deg_per_m", "deg/m", [0.1, 0.2], 10.0),
    )
    return result.replace(comparison=result.comparison.replace(signals=signals))


def test_drift_results_are_boxed_at_every_segment_length_side_by_side(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    # rpg_trajectory_evaluation boxes each subtrajectory length; the boxes were the
    # first signal's alone (the pooled 1..5 %, or rpg's shortest length).
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    drifts = [(path, _drift(result, k + 1.0)) for k, (path, result) in enumerate(named)]
    spec = results_spec(drifts)
    panels = _panels(spec)
    for kind in ("box", "violin"):
        panel = panels[kind]
        assert panel.categories == ("10 m", "20 m")  # shortest first, with the unit
        assert panel.x_title == "segment length along the reference"
        assert panel.y_title == "translation error per segment [%]"  # not deg/m
        assert panel.grouped  # a and b side by side at each length
        a, b = panel.traces
        assert a.x == b.x == ("10 m",) * 3 + ("20 m",) * 2
        assert _close(a.y, [1.0, 2.0, 3.0, 4.0, 5.0])
        assert _close(b.y, [2.0, 4.0, 6.0, 8.0, 10.0])
        assert a.hover == "runs/a.json\ntranslation error per {x} segment: {y:.4g} %"
    fig = matplotlib_figure(spec)
    for ax in fig.axes[2:4]:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["10 m", "20 m"]
        assert ax.get_legend() is None  # the figure's legend names a and b
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["a", "b"]
    pages = {kind: page for kind, _, page in results_plots(drifts)}
    assert pages["box"]["layout"]["xaxis"]["categoryarray"] == ["10 m", "20 m"]
    assert pages["box"]["layout"]["boxmode"] == "group"
    # One drift beside an APE: each at its name, as before.
    rpg = _drift(named[0][1], 1.0, "m")
    assert _panels(results_spec([("r.json", rpg)]))["box"].categories == ("10 m", "20 m")
    mixed = _panels(results_spec([("r.json", rpg), named[1]]))["box"]
    assert mixed.categories == ("r", "b")


def test_kitti_drift_results_box_their_rotation_per_segment_length_too(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    # The KITTI devkit plots r_err beside t_err per segment length; res --plot boxed the
    # translation per length and no rotation at all. The sixth panel, for KITTI's only.
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    drifts = [(path, _drift(result, k + 1.0)) for k, (path, result) in enumerate(named)]
    spec = results_spec(drifts)
    rotation = _panels(spec)["rotation_box"]
    assert rotation.categories == ("10 m", "20 m")
    assert rotation.x_title == "segment length along the reference"
    assert rotation.y_title == "rotation error per segment [deg/m]"
    assert rotation.grouped
    a, b = rotation.traces
    assert a.kind == b.kind == "box"
    assert a.x == b.x == ("10 m", "10 m", "20 m")  # 0.1, 0.2 at 10 m; 0.3 at 20 m
    assert _close(a.y, [0.1, 0.2, 0.3])
    assert _close(b.y, [0.2, 0.4, 0.6])
    assert a.hover == "runs/a.json\nrotation error per {x} segment: {y:.4g} deg/m"
    fig = matplotlib_figure(spec)
    assert fig.axes[5].get_ylabel() == "rotation error per segment [deg/m]"
    assert [t.get_text() for t in fig.axes[5].get_xticklabels()] == ["10 m", "20 m"]
    pages = {kind: page for kind, _, page in results_plots(drifts)}
    assert pages["rotation_box"]["layout"]["xaxis"]["categoryarray"] == ["10 m", "20 m"]
    assert pages["rotation_box"]["layout"]["boxmode"] == "group"
    # An APE: the five panels, as before; rpg's drift without its rotation too.
    rpg = _drift(named[0][1], 1.0, "m")
    assert len(results_spec([("r.json", rpg)]).panels) == len(results_spec(named).panels) == 5


def test_rpg_drift_results_box_their_rotation_per_metre_beside_the_translation(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    # rpg_trajectory_evaluation's analyze_trajectories.py, comparing algorithms, boxes
    # rel_rot_deg_per_m per distance beside the translation; res --plot boxed rpg's
    # translation (m) and no rotation ("not settled", cff22cd).
    rpg = _drift(named[0][1], 1.0, "m")
    rotations = (
        Signal.of("rotation_deg_per_m", "deg/m", [0.5], stamps_s=[100.0], length_m=20.0),
        Signal.of("yaw_world_deg", "deg", [9.0], stamps_s=[100.0], length_m=10.0),  # not this
        Signal.of("rotation_deg_per_m", "deg/m", [2.0], stamps_s=[100.0], length_m=10.0),
    )
    signals = (*rpg.comparison.signals, *rotations)
    rpg = rpg.replace(comparison=rpg.comparison.replace(signals=signals))
    spec = results_spec([("r.json", rpg)])
    assert len(spec.panels) == 6
    rotation = _panels(spec)["rotation_box"]
    assert rotation.y_title == "rotation error per segment [deg/m]"
    (trace,) = rotation.traces
    assert trace.x == ("10 m", "20 m")
    assert _close(trace.y, [2.0, 0.5])


def test_segment_lengths_said_alike_are_one_category(
    named: list[tuple[str, EvaluationResult]],
) -> None:
    # rpg's lengths are fractions of each run's path, in hundredths: 12345.67 and
    # 12345.68 m are both "12345.7 m", and were two categories of that name, one empty.
    rpg = _drift(named[0][1], 1.0, "m")
    signals = rpg.comparison.signals
    moved = tuple(s.replace(length_m=(s.length_m or 0.0) + 1e-7) for s in signals)
    other = rpg.replace(comparison=rpg.comparison.replace(signals=moved))
    box = _panels(results_spec([("a.json", rpg), ("b.json", other)]))["box"]
    assert box.categories == ("10 m", "20 m")
    assert box.traces[0].x == box.traces[1].x


def test_the_histogram_begins_at_zero_in_both_backends() -> None:
    # Errors are >= 0: the static histogram's axis began at 0 and the page's at the
    # least error (here 1 m), which made 1.0 to 1.7 m look like errors from nothing.
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import results_figure

    ref = _trajectory(0 * K)
    off = ape(ref, _trajectory(1.0 + 0.1 * K), settings=EvaluationSettings(align="none"))
    named = [("off.json", off)]
    histogram = _panels(results_spec(named))["histogram"]
    assert histogram.x_from_zero
    assert float(np.min(histogram.traces[0].x)) == pytest.approx(1.0)  # the least error
    assert results_figure(named).axes[4].get_xlim()[0] == 0.0
    (page,) = [spec for kind, _, spec in results_plots(named) if kind == "histogram"]
    assert page["layout"]["xaxis"]["rangemode"] == "tozero"


@pytest.mark.parametrize(
    ("errors", "top", "at"),
    [
        # All 0: bins 0 to 1 (the axis's unit), 0.025 wide; 0 is bin 0's lower edge.
        ([0.0] * 8, 1.0, 0),
        # All 0.3 m: bins 0 to 0.6 m, 0.015 m wide; 0.3 = 20 x 0.015 is bin 20's lower edge.
        ([0.3] * 8, 0.6, 20),
        # One pose, one error of 0.3 m: the same bins.
        ([0.3], 0.6, 20),
    ],
)
def test_a_histogram_of_one_error_value_begins_at_zero_in_both_backends(
    named: list[tuple[str, EvaluationResult]], errors: list[float], top: float, at: int
) -> None:
    """NumPy's bins of one value x are x - 0.5 to x + 0.5: errors all 0 were binned from
    -0.5 m and all 0.3 m from -0.2 m, and neither axis began at 0 (no error is < 0)."""
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import results_figure

    _, result = named[0]
    stamps = 100.0 + STAMPS[: len(errors)]
    signal = Signal.of("translation", "m", np.array(errors), stamps_s=stamps)
    one = [("one.json", result.replace(comparison=result.comparison.replace(signals=(signal,))))]
    panels = _panels(results_spec(one))
    histogram = panels["histogram"]
    assert histogram.x_from_zero
    (trace,) = histogram.traces
    assert _close(trace.x, np.linspace(0.0, top, 41))
    assert np.flatnonzero(trace.y).tolist() == [at]
    assert trace.y[at] == len(errors)
    # The box and the violin hold the one value; both backends draw them, the histogram
    # from 0.
    assert panels["box"].traces[0].y.tolist() == panels["violin"].traces[0].y.tolist() == errors
    fig = results_figure(one)
    _, _, box, violin, drawn = fig.axes
    assert drawn.get_xlim()[0] == 0.0
    for ax in (box, violin):
        low, high = ax.get_ylim()
        assert low < errors[0] < high
    (page,) = [spec for kind, _, spec in results_plots(one) if kind == "histogram"]
    assert page["layout"]["xaxis"]["rangemode"] == "tozero"
