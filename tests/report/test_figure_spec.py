"""The report's figure descriptions, from a hand-built report, and both backends drawing them.

Two algorithms on a sequence whose reference has a gap (0.4 s to 2.0 s): ``a`` twice
(offsets of 0.1 m and 0.2 m per pose in y, so APE is 0.1 k and 0.2 k, RPE over one frame
0.1 and 0.2), ``b`` once, failed (0.3 k). The sequence starts at -0.5 s. Every expected
number below is worked out by hand from these inputs.
"""

from __future__ import annotations

import dataclasses
import math
import re
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest
from hypothesis import example as hypothesis_example
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robot_msgs.compare.report import Report
from robot_msgs.compare.run_report import Repeatability, RunReport, TrackingLoss
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.msg.catalog import example
from robot_msgs.report import figure_spec
from robot_msgs.report.build import ReportResult
from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
from robot_msgs.report.figures import PALETTE
from robot_msgs.report.groups import summarise_groups
from robot_msgs.report.interactive import plotly_figure
from robot_msgs.runs.evaluate import RunEvaluation
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.typing import Float64Array

STAMPS = np.array([0.0, 0.1, 0.2, 0.3, 0.4, 2.0, 2.1, 2.2])
K = np.arange(8.0)
T0 = -0.5  # the sequence's start


def _drawn(spec: FigureSpec) -> tuple[Any, Any]:
    """Return ``spec``'s matplotlib figure laid out, and its renderer (to measure boxes)."""
    from robot_msgs.report.plots import matplotlib_figure

    fig = matplotlib_figure(spec)
    fig.draw_without_rendering()
    return fig, fig.canvas.get_renderer()


def _trajectory(y: np.ndarray[Any, np.dtype[np.float64]]) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=STAMPS,
        positions_xyz=np.stack([STAMPS, y, 0 * y], 1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (8, 1)),
    )


def _run(
    name: str,
    estimate: PoseTrajectory,
    reference: PoseTrajectory | None = None,
    *,
    failure: str = "",
    losses: tuple[TrackingLoss, ...] = (),
    repeatability: Repeatability | None = None,
    timing_s: tuple[list[float], list[float]] = ([], []),
) -> RunEvaluation:
    algorithm, sequence, trial = name.split("/")
    results = {}
    if reference is not None:
        settings = EvaluationSettings(align="none")
        results = {
            "ape": ape(reference, estimate, settings=settings),
            "rpe": rpe(reference, estimate, settings=settings, pairs=PairSettings(delta=1.0)),
        }
    report = RunReport(
        name=name,
        success=not failure,
        failure=failure,
        algorithm=algorithm,
        sequence=sequence,
        trial=trial,
        sequence_start_s=T0,
        sequence_end_s=2.2,
        losses=losses,
        repeatability=repeatability,
        comparisons={k: r.comparison for k, r in results.items()},
    )
    latency_s, processing_s = (np.array(t, dtype=np.float64) for t in timing_s)
    return RunEvaluation(
        report=report,
        estimate=estimate,
        reference=reference,
        valid=np.ones(len(estimate), dtype=bool),
        results=results,
        latency_s=latency_s,
        processing_s=processing_s,
    )


def _result(runs: list[Any]) -> ReportResult:
    """The report of ``runs`` (from :func:`_run`), its groups summarised, with the runs."""
    reports = tuple(e.report for e in runs)
    report = Report(runs=reports, groups=summarise_groups(reports))
    return ReportResult(report=report, runs={e.report.name: e for e in runs})


def _start_turned(ahead: float) -> PoseTrajectory:
    """Start at (1, 1) turned 90° about z; ``ahead`` along world y is along x in that frame."""
    s = math.sqrt(0.5)
    return PoseTrajectory(
        stamps_s=np.array([0.0, 1.0]),
        positions_xyz=np.array([[1.0, 1.0, 0.0], [1.0, 1.0 + ahead, 0.0]]),
        orientations_quat_xyzw=np.array([[0.0, 0.0, s, s], [0.0, 0.0, s, s]]),
    )


@pytest.fixture(scope="module")
def hand() -> ReportResult:
    rep = example("compare/Repeatability")
    assert isinstance(rep, Repeatability)
    ref = _trajectory(0 * K)
    runs = [
        _run(
            "a/s1/t1",
            _trajectory(0.1 * K),
            ref,
            timing_s=([0.04, 0.01, 0.03, 0.02], [0.015, np.nan, 0.005]),
        ),
        _run(
            "a/s1/t2", _trajectory(0.2 * K), ref, losses=(TrackingLoss(start_s=0.15, end_s=0.25),)
        ),
        _run(
            "b/s1/t1",
            _trajectory(0.3 * K),
            ref,
            failure="crashed",
            losses=(TrackingLoss(start_s=2.05, end_s=2.1, recovered=False),),
        ),
        _run("a/s2/t1", _start_turned(1.0)),
        _run(
            "a/s2/t2",
            _start_turned(2.0),
            failure="lost",
            repeatability=rep.replace(endpoint_spread_m=0.25),
        ),
    ]
    return _result(runs)


def _close(a: object, b: object) -> bool:
    return bool(np.allclose(np.asarray(a, float), np.asarray(b, float), equal_nan=True))


def test_trajectories_show_each_algorithms_first_successful_trial(hand: ReportResult) -> None:
    spec = figure_spec.trajectories_spec(hand, "s1")
    assert spec is not None
    assert [p.title for p in spec.panels] == ["a (t1)", "b (t1)"]
    reference, t1, t2 = spec.panels[0].traces
    # The reference's line breaks at its gap: a NaN between 0.4 and 2.0.
    assert _close(reference.x, [0.0, 0.1, 0.2, 0.3, 0.4, np.nan, 2.0, 2.1, 2.2])
    assert (t1.hidden, t2.hidden) == (False, True)
    assert _close(t1.y, 0.1 * K)
    assert _close(t1.values, 0.1 * K)  # APE of pose k: 0.1 k
    assert _close(t2.values, 0.2 * K)
    assert _close(t1.poses, K)
    assert (t1.run, t1.name, t1.group) == ("a/s1/t1", "t1", "a")
    (_, failed) = spec.panels[1].traces
    assert failed.name == "t1 (FAILED: crashed)"  # b has no other trial to show
    # The 99th percentile of the 16 errors shown (a/t1's and b/t1's), by hand.
    assert spec.colour_scale is not None
    assert spec.colour_scale.high == pytest.approx(2.055)


def test_trajectories_are_drawn_in_the_references_widest_plane() -> None:
    """KITTI's camera frame (y down) was drawn in x/y: 600 m of loop squashed into a band
    20 m tall (a review); the plane is the reference's widest, as ape --plot picks it."""
    ref = _trajectory(0 * K)
    flat = ref.replace(positions_xyz=np.stack([STAMPS, 0.01 * K, 3.0 * STAMPS], 1))
    up = np.array([0.0, 0.0, 0.1])
    run = _run("a/s1/t1", flat.replace(positions_xyz=flat.positions_xyz + up), flat)
    report = Report(runs=(run.report,), groups=summarise_groups((run.report,)))
    spec = figure_spec.trajectories_spec(ReportResult(report=report, runs={"a/s1/t1": run}), "s1")
    assert spec is not None
    assert spec.title == "s1: aligned estimates, xz view, coloured by APE"
    (panel,) = spec.panels
    assert (panel.x_title, panel.y_title) == ("x [m]", "z [m]")
    _, estimate = panel.traces
    assert _close(estimate.y, 3.0 * STAMPS + 0.1)
    assert (estimate.hover or "").endswith("x {x:.3f} m, z {y:.3f} m")


def test_error_over_time_shades_losses_and_the_reference_gap(hand: ReportResult) -> None:
    spec = figure_spec.error_over_time_spec(hand, "s1")
    assert spec is not None
    (panel,) = spec.panels
    lines = [t for t in panel.traces if t.kind == "line"]
    spans = [t for t in panel.traces if t.kind == "span"]
    assert [t.run for t in lines] == ["a/s1/t1", "a/s1/t2", "b/s1/t1"]
    assert [(t.colour, t.dash) for t in lines] == [
        (PALETTE[0], "solid"),
        (PALETTE[0], "dash"),
        (PALETTE[1], "solid"),
    ]
    # Seconds since the sequence's start (-0.5 s), broken at the gap.
    assert _close(lines[0].x, [0.5, 0.6, 0.7, 0.8, 0.9, np.nan, 2.5, 2.6, 2.7])
    assert _close(lines[1].y, [0.0, 0.2, 0.4, 0.6, 0.8, np.nan, 1.0, 1.2, 1.4])
    assert _close(lines[0].poses, [0, 1, 2, 3, 4, np.nan, 5, 6, 7])
    assert _close(lines[0].stamps_s, np.insert(STAMPS, 5, np.nan))
    # a/t2 recovered at 0.25 s; b/t1 never did: its loss runs to the sequence's end.
    shaded = [(t.name, t.group, *np.round(np.asarray(t.x, float), 9).tolist()) for t in spans]
    assert shaded == [
        ("t2: tracking lost", "a", 0.65, 0.75),
        ("t1 (FAILED: crashed): tracking lost", "b", 2.55, 2.7),
        ("no reference (gap in the ground truth: no error can be computed)", "reference", 0.9, 2.5),
    ]
    assert [t.hatched for t in spans] == [False, False, True]


def test_error_over_time_of_ten_algorithms_draws_no_two_runs_alike() -> None:
    """Past eight algorithms the colours came round with the same dashes (a review).

    Algorithm 9's trial 1 was drawn as algorithm 1's: both blue and solid. The colours
    come round again and a colour's runs take the dashes in turn: a1's t1 and t2 solid
    and dashed, a9's dotted and dash-dotted (a1 and a9 blue, a2 and a10 red).
    """
    ref = _trajectory(0 * K)
    runs = [
        _run(f"a{k}/s1/t{trial}", _trajectory(0.1 * K), ref)
        for k in range(1, 11)
        for trial in (1, 2)
    ]
    result = _result(runs)
    spec = figure_spec.error_over_time_spec(result, "s1")
    assert spec is not None
    lines = [t for t in spec.panels[0].traces if t.kind == "line"]
    looks = {t.run: (t.colour, t.dash) for t in lines}
    assert len(set(looks.values())) == len(lines) == 20
    assert looks["a1/s1/t1"] == (PALETTE[0], "solid")
    assert looks["a1/s1/t2"] == (PALETTE[0], "dash")
    assert looks["a8/s1/t2"] == (PALETTE[7], "dash")
    assert looks["a9/s1/t1"] == (PALETTE[0], "dot")
    assert looks["a9/s1/t2"] == (PALETTE[0], "dashdot")
    assert looks["a10/s1/t1"] == (PALETTE[1], "dot")


def test_error_over_time_of_frame_stamped_runs_says_frames(hand: ReportResult) -> None:
    """KITTI estimates without times: the axis said seconds, the title "over time"."""
    seconds = figure_spec.error_over_time_spec(hand, "s1")
    assert seconds is not None
    assert seconds.title.startswith("s1: APE over time (")
    assert seconds.panels[0].x_title == "time since sequence start [s]"
    runs = {}
    for name, e in hand.runs.items():
        results = {
            metric: r.replace(estimate=r.estimate.replace(stamps_are_frames=True))
            for metric, r in e.results.items()
        }
        runs[name] = dataclasses.replace(e, results=results)
    frames = figure_spec.error_over_time_spec(ReportResult(report=hand.report, runs=runs), "s1")
    assert frames is not None
    assert frames.title.startswith("s1: APE over frames (")
    assert frames.panels[0].x_title == "frame"
    lines = [t for t in frames.panels[0].traces if t.kind == "line"]
    assert all("frame {x:.0f}" in (t.hover or "") for t in lines)


def test_rpe_boxes_pool_the_successful_trials_per_delta(hand: ReportResult) -> None:
    spec = figure_spec.rpe_box_spec(hand, "s1")
    assert spec is not None
    (box,) = spec.panels[0].traces  # b failed
    assert (box.kind, box.name) == ("box", "a")
    assert box.x == ("1 frame",) * 14  # as the axes say it: it was "1 f"
    assert _close(box.y, [0.1] * 7 + [0.2] * 7)


def test_the_figures_draw_the_ape_and_rpe_of_translation_whatever_metric_is_first(
    hand: ReportResult,
) -> None:
    """A manifest asking for an RPE of angles first drew its errors (deg, or an RPE's) as
    "APE translation error [m]" and pooled its degrees into the RPE translation boxes [m]:
    the figures drew the first metric's first signal, whatever it was (a hunt)."""
    runs = {}
    for name, e in hand.runs.items():
        if e.reference is not None and e.estimate is not None:
            angles = rpe(
                e.reference,
                e.estimate,
                settings=EvaluationSettings(align="none"),
                pairs=PairSettings(delta=1.0),
                relation="angle_deg",
            )
            results = {"rpe:angle": angles, "rpe": e.results["rpe"], "ape": e.results["ape"]}
            e = dataclasses.replace(e, results=results)  # noqa: PLW2901 - the run, changed
        runs[name] = e
    made = ReportResult(report=hand.report, runs=runs)
    trajectories = figure_spec.trajectories_spec(made, "s1")
    assert trajectories is not None
    _, t1, t2 = trajectories.panels[0].traces
    assert _close(t1.values, 0.1 * K)  # APE of pose k: 0.1 k, as with the APE first
    assert _close(t2.values, 0.2 * K)
    over_time = figure_spec.error_over_time_spec(made, "s1")
    assert over_time is not None
    lines = [t for t in over_time.panels[0].traces if t.kind == "line"]
    assert _close(lines[1].y, [0.0, 0.2, 0.4, 0.6, 0.8, np.nan, 1.0, 1.2, 1.4])
    boxes = figure_spec.rpe_box_spec(made, "s1")
    assert boxes is not None
    (box,) = boxes.panels[0].traces
    assert box.x == ("1 frame",) * 14
    assert _close(box.y, [0.1] * 7 + [0.2] * 7)
    # Of angles alone, there is no figure in metres to draw.
    angles_only = {
        name: dataclasses.replace(e, results={"rpe:angle": e.results["rpe:angle"]})
        for name, e in runs.items()
        if e.results
    }
    alone = ReportResult(report=hand.report, runs=angles_only)
    assert figure_spec.rpe_box_spec(alone, "s1") is None
    assert figure_spec.error_over_time_spec(alone, "s1") is None
    assert figure_spec.trajectories_spec(alone, "s1") is None


def test_latency_cdf_is_the_pooled_ecdf_with_p50_and_p95(hand: ReportResult) -> None:
    spec = figure_spec.latency_cdf_spec(hand)
    assert spec is not None
    latency, processing, marks = spec.panels[0].traces  # b has no timing log
    assert _close(latency.x, [10, 20, 30, 40])
    assert _close(latency.y, [0.25, 0.5, 0.75, 1.0])
    assert _close(processing.x, [5, 15])  # the NaN left out
    assert _close(processing.y, [0.5, 1.0])
    # Linear interpolation: p50 between 20 and 30, p95 at 2.85 of 3 steps: 30 + 0.85 * 10.
    assert _close(marks.x, [25.0, 38.5])
    assert _close(marks.y, [0.5, 0.95])
    assert latency.name.startswith("a: acquisition to available (p50 25 ms, p95 ")


def test_a_latency_cdf_of_many_frames_keeps_exact_points_one_per_2000th_of_the_frames() -> None:
    """A report of 192 runs pooled ~10^5 frames an algorithm: the CDF held every frame,
    14.2 of the HTML page's 57.9 MB. It keeps the order statistics where the share
    crosses each 1/2000 (and the first and last): each point is exactly on the ECDF,
    and between two the curve rises at most 1/2000."""
    n = 100_000
    latency_s = np.arange(n, dtype=np.float64) / 1000.0  # 0 .. 99.999 s, ms apart
    result = _result([_run("a/s1/t1", _trajectory(0 * K), timing_s=([*latency_s], []))])
    spec = figure_spec.latency_cdf_spec(result)
    assert spec is not None
    curve, marks = spec.panels[0].traces
    assert curve.y.size <= 2001
    # The ECDF of 0, 1, ..., n - 1 ms at x = k ms is (k + 1) / n.
    frame = np.rint(np.asarray(curve.x, dtype=np.float64))
    assert _close(curve.x, frame)
    assert np.array_equal(curve.y, (frame + 1) / n)
    assert (frame[0], frame[-1], curve.y[-1]) == (0.0, n - 1.0, 1.0)
    assert np.diff(np.rint(curve.y * n)).max() <= n / 2000  # in frames: 50
    # p50 and p95 come from every frame: NumPy's linear rule, (n - 1) q.
    assert _close(marks.x, [49999.5, 94999.05])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=700), st.integers(1, 60))
def test_a_thinned_ecdf_keeps_corners_of_the_ecdf_within_one_step_of_it(
    values: list[int], steps: int
) -> None:
    """Law of the latency CDF's thinning, ties and all: each point is a corner of the
    ECDF (the r-th smallest value at share r / N), the first and the last are kept, all
    of them up to ``steps`` values, and the curve drawn through them in steps (post) is
    below the ECDF by less than 1 / steps everywhere: counted in frames, at each value,
    the frames at or below it less the drawn share's, times ``steps``, under N."""
    n = len(values)
    x, y = figure_spec._ecdf(np.array(values, dtype=np.float64), steps=steps)
    ranks = np.rint(y * n).astype(int)
    assert np.array_equal(ranks / max(n, 1), y)
    ordered = np.sort(values)
    assert np.array_equal(x, ordered[ranks - 1])
    if n <= steps:
        assert ranks.tolist() == list(range(1, n + 1))
        return
    assert (ranks[0], ranks[-1]) == (1, n)
    assert len(ranks) <= steps + 1
    at_or_below = np.searchsorted(ordered, ordered, side="right")
    drawn = ranks[np.searchsorted(x, ordered, side="right") - 1]
    assert (at_or_below >= drawn).all()
    assert ((at_or_below - drawn) * steps < n).all()


def test_comparison_bars_are_the_median_and_range_of_the_runs_rmse(hand: ReportResult) -> None:
    spec = figure_spec.comparison_spec(hand)
    assert spec is not None
    bars = {t.name: t for t in spec.panels[0].traces}
    # RMSE of 0.1 k over k = 0..7: 0.1 sqrt(140 / 8); a/t2 twice that.
    rms = 0.1 * math.sqrt(140 / 8)
    assert bars["a"].x == ("s1",)
    assert _close(bars["a"].y, [1.5 * rms])
    assert _close(bars["a"].low, [rms])
    assert _close(bars["a"].high, [2 * rms])
    assert bars["a"].text == ("2/2 ok",)


def test_comparison_bars_of_sequences_a_hundredfold_apart_are_on_a_log_axis() -> None:
    """A sweep of 192 runs: KITTI 00's median APE RMSE (0.28..3.75 m) set the linear axis,
    and the TUM and EuRoC bars (0.017..0.093 m, 0.4-2.5 % of its height) could not be
    read. Medians more than ten-fold apart are drawn on a log axis, and the title says so;
    closer ones stay on a linear axis from zero."""
    ref = _trajectory(0 * K)
    # RMSE of c k over k = 0..7 (unaligned): c sqrt(140 / 8); 0.01 and 1.0: a hundredfold.
    far = _result([_run("a/s1/t1", _trajectory(0.01 * K), ref),
                   _run("a/s2/t1", _trajectory(1.0 * K), ref)])  # fmt: skip
    spec = figure_spec.comparison_spec(far)
    assert spec is not None
    [panel] = spec.panels
    assert _close(panel.traces[0].y, [0.01 * math.sqrt(140 / 8), math.sqrt(140 / 8)])
    assert (panel.y_log, panel.y_from_zero) == (True, False)
    assert "log scale" in spec.title
    assert plotly_figure(spec)["layout"]["yaxis"]["type"] == "log"
    fig, _ = _drawn(spec)
    assert fig.axes[0].get_yscale() == "log"
    # Twofold apart: linear from zero, as before.
    near = _result([_run("a/s1/t1", _trajectory(0.1 * K), ref),
                    _run("a/s2/t1", _trajectory(0.2 * K), ref)])  # fmt: skip
    spec = figure_spec.comparison_spec(near)
    assert spec is not None
    assert (spec.panels[0].y_log, spec.panels[0].y_from_zero) == (False, True)
    assert "log" not in spec.title
    assert "type" not in plotly_figure(spec)["layout"]["yaxis"]


def test_a_group_whose_runs_all_failed_keeps_its_label_on_a_log_axis() -> None:
    """A group whose runs all failed has no bar, but its label ("0/1 ok"), at the axis's
    foot: 0 on a linear axis. On a log axis (no 0) neither backend drew it, so the
    comparison lost the one label saying a group's runs all failed. It stands at the
    panel's least positive value there: the RMSE of s1's run, 0.01 sqrt(140 / 8)."""
    ref = _trajectory(0 * K)
    result = _result([_run("a/s1/t1", _trajectory(0.01 * K), ref),
                      _run("a/s2/t1", _trajectory(1.0 * K), ref),
                      _run("a/s3/t1", _trajectory(0.5 * K), ref, failure="crashed")])  # fmt: skip
    spec = figure_spec.comparison_spec(result)
    assert spec is not None
    assert spec.panels[0].y_log
    foot = 0.01 * math.sqrt(140 / 8)
    [bar, labels] = plotly_figure(spec)["data"]
    assert (bar["type"], labels["mode"], labels["text"][2]) == ("bar", "markers+text", "0/1 ok")
    assert _close(labels["y"], [foot, math.sqrt(140 / 8), foot])
    fig, renderer = _drawn(spec)
    ax = fig.axes[0]
    [failed] = [t for t in ax.texts if t.get_text() == "0/1 ok"]
    assert failed.xy[1] == pytest.approx(foot)
    box = failed.get_window_extent(renderer)
    assert ax.bbox.y0 < box.y0 < box.y1 < ax.bbox.y1


def test_versions_of_one_algorithm_are_drawn_apart_not_pooled(hand: ReportResult) -> None:
    """a 1.0 (t1) and a 2.0 (t2) were one box, one bar and one colour, "a": a blend."""
    versions = {"a/s1/t1": "1.0", "a/s1/t2": "2.0", "a/s2/t1": "1.0", "a/s2/t2": "1.0"}
    runs = {
        name: dataclasses.replace(e, report=e.report.replace(version=versions.get(name, "")))
        for name, e in hand.runs.items()
    }
    reports = tuple(e.report for e in runs.values())
    result = ReportResult(report=Report(runs=reports, groups=summarise_groups(reports)), runs=runs)
    boxes = figure_spec.rpe_box_spec(result, "s1")
    assert boxes is not None
    assert [(t.name, t.group) for t in boxes.panels[0].traces] == [
        ("a 1.0", "a 1.0"),
        ("a 2.0", "a 2.0"),
    ]
    assert _close(boxes.panels[0].traces[1].y, [0.2] * 7)
    spec = figure_spec.comparison_spec(result)
    assert spec is not None
    bars = {t.name: t for t in spec.panels[0].traces}
    rms = 0.1 * math.sqrt(140 / 8)
    assert sorted(bars) == ["a 1.0", "a 2.0", "b"]
    assert _close(bars["a 1.0"].y, [rms])
    assert _close(bars["a 2.0"].y, [2 * rms])
    assert bars["a 1.0"].colour != bars["a 2.0"].colour
    lines = figure_spec.error_over_time_spec(result, "s1")
    assert lines is not None
    assert [t.group for t in lines.panels[0].traces if t.kind == "line"] == ["a 1.0", "a 2.0", "b"]


def test_repeatability_draws_each_trial_in_its_start_frame(hand: ReportResult) -> None:
    spec = figure_spec.repeatability_spec(hand, "s2")
    assert spec is not None
    (panel,) = spec.panels
    assert panel.title == "a, endpoint spread 0.250 m"
    first, second = panel.traces
    assert _close(first.x, [0.0, 1.0])
    assert _close(second.x, [0.0, 2.0])
    assert _close(first.y, [0.0, 0.0])
    assert (first.name, second.name) == ("t1", "t2 (failed)")
    assert [(t.colour, t.dash) for t in panel.traces] == [
        (PALETTE[0], "solid"),
        (PALETTE[1], "dash"),
    ]
    assert all(t.mark_end for t in panel.traces)


def test_a_figure_with_nothing_to_draw_is_none(hand: ReportResult) -> None:
    assert figure_spec.trajectories_spec(hand, "s2") is None  # no reference
    assert figure_spec.repeatability_spec(hand, "s1") is None  # a reference
    assert figure_spec.error_over_time_spec(hand, "nowhere") is None


# --------------------------------------------------------------------------- both backends

BUILDERS: list[tuple[Callable[..., FigureSpec | None], tuple[str, ...]]] = [
    (figure_spec.trajectories_spec, ("s1",)),
    (figure_spec.error_over_time_spec, ("s1",)),
    (figure_spec.rpe_box_spec, ("s1",)),
    (figure_spec.latency_cdf_spec, ()),
    (figure_spec.comparison_spec, ()),
    (figure_spec.repeatability_spec, ("s2",)),
]


def _legend(spec: FigureSpec) -> set[tuple[str | None, str]]:
    """The legend entries the description asks for (plotly: each named trace's, once)."""
    return {(t.group, t.name) for p in spec.panels for t in p.traces if t.name}


def _static_legend(spec: FigureSpec) -> set[str]:
    """The same, as the static figure writes them: drawn traces, bar-explained markers out."""
    out = set()
    for panel in spec.panels:
        shown = [t for t in panel.traces if not t.hidden and t.name and t.values is None]
        prefix = len({t.group for t in shown if t.titled}) > 1
        out |= {f"{t.group}/{t.name}" if t.titled and prefix else t.name for t in shown}
    return out


def _shown(trace: Trace) -> bool:
    return not trace.hidden and trace.kind in {"line", "step"}


@pytest.mark.parametrize(("build", "args"), BUILDERS, ids=lambda b: getattr(b, "__name__", ""))
def test_both_backends_draw_the_same_panels_titles_and_traces(
    hand: ReportResult, build: Callable[..., FigureSpec | None], args: tuple[str, ...]
) -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = build(hand, *args)
    assert spec is not None
    fig = matplotlib_figure(spec)
    page = plotly_figure(spec)
    layout = page["layout"]
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    x_axes = sorted(k for k in layout if k.startswith("xaxis"))
    assert len(axes) == len(x_axes) == len(spec.panels)
    # The same words; matplotlib's wrapped to the figure's width (a long line was cut),
    # without the legend that shows the hidden trials, which a PNG lacks.
    unlisted = spec.title.replace(figure_spec.ONE_TRIAL_OTHERS, "")
    assert fig.get_suptitle().split() == unlisted.split()
    assert layout["title"]["text"] == spec.title.replace("\n", "<br>")
    panel_titles = [a["text"] for a in layout.get("annotations", [])]
    assert panel_titles == [p.title for p in spec.panels if p.title]
    for ax, key, panel in zip(axes, x_axes, spec.panels, strict=True):
        y_key = key.replace("xaxis", "yaxis")
        assert (ax.get_xlabel(), ax.get_ylabel()) == (panel.x_title, panel.y_title)
        assert layout[key]["title"]["text"] == panel.x_title
        assert layout[y_key]["title"]["text"] == panel.y_title
        assert ax.get_title() == panel.title
        # Every line the description shows is drawn with its data.
        drawn = [line.get_xydata() for line in ax.lines]
        for trace in filter(_shown, panel.traces):
            xy = np.column_stack([trace.x, trace.y])
            assert sum(d.shape == xy.shape and _close(d, xy) for d in drawn) == 1
    # One plotly trace per described trace (and one of labels per labelled bar trace,
    # written above its whiskers), each legend name once.
    traces = [t for p in spec.panels for t in p.traces]
    labels = [t for t in page["data"] if t.get("mode") == "markers+text"]
    assert len(labels) == sum(t.kind == "bar" and bool(t.text) for t in traces)
    assert len(page["data"]) == len(traces) + len(labels)
    entries = [(t.get("legendgroup"), t["name"]) for t in page["data"] if t["showlegend"]]
    assert sorted(entries, key=str) == sorted(_legend(spec), key=str)
    static = {t.get_text() for ax in axes if ax.get_legend() for t in ax.get_legend().get_texts()}
    assert static == _static_legend(spec)


# --------------------------------------------------------------------------- rows, shared axes


def test_panels_in_rows_hold_every_panel_once_and_the_page_draws_one_row() -> None:
    panel = Panel(traces=(Trace(kind="line", x=np.zeros(2), y=np.ones(2)),), x_title="", y_title="")
    with pytest.raises(ValidationError, match=r"^Expected rows of 2 panels in all, got \(1, 2\)$"):
        FigureSpec(title="", panels=(panel, panel), size_in=(4, 2), rows=(1, 2))
    with pytest.raises(ValidationError, match=r"^Expected rows of 1 panel in all, got \(2,\)$"):
        FigureSpec(title="", panels=(panel,), size_in=(4, 2), rows=(2,))
    two_rows = FigureSpec(title="", panels=(panel, panel), size_in=(4, 2), rows=(1, 1))
    with pytest.raises(ValidationError, match=r"^Expected the panels in one row, got rows of"):
        plotly_figure(two_rows)


def test_a_panel_sharing_the_y_axis_zooms_with_the_one_before_it() -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    left = Panel(traces=(Trace(kind="line", x=np.zeros(2), y=np.ones(2)),), x_title="", y_title="e")
    right = Panel(traces=left.traces, x_title="", y_title="e", share_y=True)
    spec = FigureSpec(title="t", panels=(left, right), size_in=(4, 2))
    layout = plotly_figure(spec)["layout"]
    assert "matches" not in layout["yaxis"]
    assert layout["yaxis2"]["matches"] == "y"
    first, second = matplotlib_figure(spec).axes
    assert second.get_shared_y_axes().joined(first, second)
    assert (first.get_ylabel(), second.get_ylabel()) == ("e", "")


def test_boxes_sharing_a_category_stand_side_by_side_and_others_on_it() -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    def box(name: str, at: str) -> Trace:
        return Trace(kind="box", x=(at,) * 3, y=np.array([1.0, 2.0, 3.0]), name=name)

    apart = Panel(traces=(box("a", "x"), box("b", "y")), x_title="", y_title="")
    together = Panel(traces=(box("a", "x"), box("b", "x")), x_title="", y_title="")
    assert (apart.grouped, together.grouped) == (False, True)
    # Side by side: 0.8 / 2 wide each, centred at -0.2 and 0.2 around the category.
    for panel, mode, centres in ((apart, "overlay", [0.0, 1.0]), (together, "group", [-0.2, 0.2])):
        spec = FigureSpec(title="", panels=(panel,), size_in=(4, 2))
        assert plotly_figure(spec)["layout"]["boxmode"] == mode
        (ax,) = matplotlib_figure(spec).axes
        assert _close([np.mean(line.get_xdata()) for line in ax.get_lines()[4::6]], centres)


def test_long_category_names_are_slanted_in_the_static_figure() -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    # Six names of 24-31 characters at 20 degrees touched each other in res --plot.
    long = "twenty-one characters"
    for names, rotation in ((("a", "b"), 0.0), (("a", "thirteen char"), 20.0), (("a", long), 35.0)):
        box = Trace(kind="box", x=names, y=np.array([1.0, 2.0]))
        panel = Panel(traces=(box,), x_title="", y_title="")
        (ax,) = matplotlib_figure(FigureSpec(title="", panels=(panel,), size_in=(4, 2))).axes
        assert {t.get_rotation() for t in ax.get_xticklabels()} == {rotation}


def test_a_static_title_fits_its_figure(hand: ReportResult) -> None:
    """The comparison's two-line title was cut on both sides of a 5.4 in figure."""
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.comparison_spec(hand)
    assert spec is not None
    narrow = dataclasses.replace(spec, size_in=(5.4, spec.size_in[1]))
    fig = matplotlib_figure(narrow)
    fig.canvas.draw()
    title = fig.get_suptitle()
    assert title.split() == spec.title.split()
    drawn = next(t for t in fig.texts if t.get_text() == title).get_window_extent()
    assert drawn.x0 >= 0
    assert drawn.x1 <= fig.bbox.x1


def test_repeatability_of_ten_trials_draws_no_two_alike() -> None:
    """Trial 9 was drawn as trial 1: PALETTE[8 % 8] and DASHES[8 % 4], both blue and solid.

    The colours come round past eight (curve_look) in another dash: trial 9 blue and
    dashed, trial 10 red and dotted (trial 2 red and dashed, as before).
    """
    runs = [_run(f"a/s2/t{k}", _start_turned(float(k))) for k in range(1, 11)]
    result = _result(runs)
    spec = figure_spec.repeatability_spec(result, "s2")
    assert spec is not None
    (panel,) = spec.panels
    looks = [(t.colour, t.dash) for t in panel.traces]
    assert len(set(looks)) == len(looks) == 10
    assert looks[0] == (PALETTE[0], "solid")
    assert looks[1] == (PALETTE[1], "dash")
    assert looks[8] == (PALETTE[0], "dash")
    assert looks[9] == (PALETTE[1], "dot")


# --------------------------------------------------------------------------- many looks


def _many(algorithms: int, trials: int = 1) -> ReportResult:
    """``algorithms`` algorithms ``a1..`` with ``trials`` trials each on ``s1``, timed."""
    ref = _trajectory(0 * K)
    timing = ([0.04, 0.01, 0.03, 0.02], [0.015, 0.02, 0.005])
    runs = [
        _run(f"a{k}/s1/t{trial}", _trajectory(0.01 * k * K), ref, timing_s=timing)
        for k in range(1, algorithms + 1)
        for trial in range(1, trials + 1)
    ]
    return _result(runs)


def _dashes(line: Any) -> str:
    """Return a matplotlib line's dash pattern (its style says ``--`` for any pattern)."""
    return str(line._unscaled_dash_pattern)


def test_bars_and_boxes_of_twenty_algorithms_draw_no_two_alike() -> None:
    """Past eight algorithms the bars and boxes repeated the colours, nothing else (a review).

    The colours come round hatched: a9 blue with "/", a17 blue with ".", in both
    backends (plotly.js fills no box with a pattern: its boxes are hollow or notched).
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    result = _many(20)
    for build in (figure_spec.comparison_spec, figure_spec.rpe_box_spec):
        spec = build(result, "s1") if build is figure_spec.rpe_box_spec else build(result)  # type: ignore[call-arg]
        assert spec is not None
        traces = spec.panels[0].traces
        looks = {t.name: (t.colour, t.hatch) for t in traces}
        assert len(traces) == len(set(looks.values())) == 20
        assert looks["a1"] == (PALETTE[0], "")
        assert looks["a9"] == (PALETTE[0], "/")
        assert looks["a17"] == (PALETTE[0], ".")
        drawn = plotly_figure(spec)["data"]
        kind = traces[0].kind
        shown = [d for d in drawn if d["type"] == kind]
        plotly_looks = {
            (
                d["marker"]["color"],
                str(d["marker"].get("pattern")),
                d.get("fillcolor"),
                d.get("notched"),
                str(d.get("line")),
            )
            for d in shown
        }
        assert len(shown) == len(plotly_looks) == 20
        fig = matplotlib_figure(spec)
        ax = fig.axes[0]
        if kind == "bar":
            patches = [c.patches[0] for c in ax.containers if hasattr(c, "patches")]
        else:
            patches = list(ax.get_legend().legend_handles)
        static = {(tuple(p.get_facecolor()[:3]), p.get_hatch()) for p in patches}
        assert len(patches) == len(static) == 20


def test_latency_curves_of_twenty_algorithms_draw_no_two_alike() -> None:
    """The latency CDF's curves of a9 were a1's: the dashes say latency or processing.

    Past eight the colours come round with marks along the curves.
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.latency_cdf_spec(_many(20))
    assert spec is not None
    steps = [t for t in spec.panels[0].traces if t.kind == "step"]
    looks = {t.name.split(" (")[0]: (t.colour, t.dash, t.mark) for t in steps}
    assert len(steps) == len(set(looks.values())) == 40
    assert looks["a1: processing"] == (PALETTE[0], "dash", "")
    assert looks["a9: processing"] == (PALETTE[0], "dash", "triangle-up")
    drawn = [d for d in plotly_figure(spec)["data"] if d["mode"] != "markers"]
    plotly_looks = {
        (d["line"]["color"], d["line"]["dash"], d.get("marker", {}).get("symbol")) for d in drawn
    }
    assert len(drawn) == len(plotly_looks) == 40
    lines = [ln for ln in matplotlib_figure(spec).axes[0].get_lines() if len(ln.get_xdata()) > 2]
    static = {(ln.get_color(), _dashes(ln), ln.get_marker()) for ln in lines}
    assert len(lines) == len(static) == 40


def test_latency_dots_of_twenty_algorithms_draw_no_two_alike() -> None:
    """The p50 and p95 dots took the algorithm's colour alone: a9's were a1's, blue
    circles, on a figure whose curves told them apart by marks (a review).

    The dots take their curves' mark: a1's circles, a9's triangles, a17's squares.
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.latency_cdf_spec(_many(20))
    assert spec is not None
    dots = [t for t in spec.panels[0].traces if t.kind == "markers"]
    looks = {t.group: (t.colour, t.mark) for t in dots}
    assert len(dots) == len(set(looks.values())) == 20
    assert looks["a1"] == (PALETTE[0], "circle")
    assert looks["a9"] == (PALETTE[0], "triangle-up")
    assert looks["a17"] == (PALETTE[0], "square")
    curves = {t.group: t.mark for t in spec.panels[0].traces if t.kind == "step"}
    assert curves["a9"] == "triangle-up"
    drawn = [d for d in plotly_figure(spec)["data"] if d["mode"] == "markers"]
    plotly_looks = {(d["marker"]["color"], d["marker"].get("symbol", "circle")) for d in drawn}
    assert len(drawn) == len(plotly_looks) == 20
    lines = [ln for ln in matplotlib_figure(spec).axes[0].get_lines() if len(ln.get_xdata()) == 2]
    lines = [ln for ln in lines if ln.get_linestyle() == "None"]  # not the guides
    static = {(ln.get_color(), ln.get_marker()) for ln in lines}
    assert len(lines) == len(static) == 20


def test_ten_trials_of_one_algorithm_over_time_draw_no_two_alike() -> None:
    """Trial 5 of one algorithm was drawn as trial 1, same colour and dash (a review).

    Six dashes, then the dashes again with marks: trial 7 solid with circles.
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.error_over_time_spec(_many(2, trials=10), "s1")
    assert spec is not None
    lines = [t for t in spec.panels[0].traces if t.kind == "line"]
    looks = {t.run: (t.colour, t.dash, t.mark) for t in lines}
    assert len(lines) == len(set(looks.values())) == 20
    assert looks["a1/s1/t1"] == (PALETTE[0], "solid", "")
    assert looks["a1/s1/t5"] == (PALETTE[0], "longdash", "")
    assert looks["a1/s1/t7"] == (PALETTE[0], "solid", "circle")
    assert looks["a2/s1/t10"] == (PALETTE[1], "dashdot", "circle")
    drawn = [d for d in plotly_figure(spec)["data"] if "fill" not in d]  # not the gap
    plotly_looks = {
        (d["line"]["color"], d["line"]["dash"], d.get("marker", {}).get("symbol")) for d in drawn
    }
    assert len(drawn) == len(plotly_looks) == 20
    # One size for its marks, which the legend draws: an array (0 between the marks)
    # was drawn there as a speck, trial 7 as trial 1.
    marked = [d["marker"] for d in drawn if "marker" in d]
    assert [(m["size"], m["maxdisplayed"]) for m in marked] == [(7, 12)] * 8
    # The static figure draws each algorithm's trial shown (t1), the page hides the others.
    assert [d["name"] for d in drawn if d.get("visible") != "legendonly"] == ["t1", "t1"]
    static_lines = [ln for ln in matplotlib_figure(spec).axes[0].get_lines() if ln.get_label()]
    static = {(ln.get_color(), _dashes(ln), ln.get_marker()) for ln in static_lines}
    assert len(static_lines) == len(static) == 2


def test_trajectories_of_ten_algorithms_wrap_into_rows_of_four() -> None:
    """Ten algorithms drew ten panels side by side, a figure 36.8 in (3,680 px) wide.

    Rows of four (4, 4, 2): 3.6 in a panel, 15.2 in by 10.8 in, in both backends.
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.trajectories_spec(_many(10), "s1")
    assert spec is not None
    assert spec.grid == (3, 4)
    assert spec.size_in == (3.6 * 4 + 0.8, 3.6 * 3)
    assert [spec.place(k) for k in (0, 3, 4, 9)] == [(0, 0, 1), (0, 3, 1), (1, 0, 1), (2, 1, 1)]
    fig = matplotlib_figure(spec)
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert len(panels) == 10
    lefts = sorted({round(ax.get_subplotspec().colspan.start) for ax in panels})
    tops = sorted({round(ax.get_subplotspec().rowspan.start) for ax in panels})
    assert (lefts, tops) == ([0, 1, 2, 3], [0, 1, 2])
    layout = plotly_figure(spec)["layout"]
    xs = {tuple(layout[f"xaxis{k or ''}"]["domain"]) for k in (0, *range(2, 11))}
    ys = {tuple(layout[f"yaxis{k or ''}"]["domain"]) for k in (0, *range(2, 11))}
    assert len(xs) == 4
    assert len(ys) == 3
    bands = sorted(ys)
    assert all(a[1] < b[0] for a, b in pairwise(bands))  # rows apart, none overlapping
    assert all(a[1] < b[0] for a, b in pairwise(sorted(xs)))


@pytest.mark.parametrize(
    ("algorithms", "grid"), [(5, (2, 3)), (7, (2, 4)), (8, (2, 4)), (9, (3, 3)), (13, (4, 4))]
)
def test_trajectories_in_rows_fill_them_evenly(algorithms: int, grid: tuple[int, int]) -> None:
    """Five panels were a row of four and one alone, three columns' width left blank."""
    spec = figure_spec.trajectories_spec(_many(algorithms), "s1")
    assert spec is not None
    assert spec.grid == grid
    assert spec.size_in == (3.6 * grid[1] + 0.8, 3.6 * grid[0])


def test_four_trajectories_stay_in_one_row() -> None:
    spec = figure_spec.trajectories_spec(_many(4), "s1")
    assert spec is not None
    assert (spec.grid, spec.columns, spec.size_in) == ((1, 4), 0, (3.6 * 4 + 0.8, 3.6))
    assert "domain" not in plotly_figure(spec)["layout"]["yaxis"]


def test_a_grid_of_columns_is_refused_with_rows_or_below_zero() -> None:
    panel = Panel(traces=(Trace(kind="line", x=np.zeros(2), y=np.ones(2)),), x_title="", y_title="")
    with pytest.raises(ValidationError, match=r"got rows \(1, 1\) and columns 1$"):
        FigureSpec(title="", panels=(panel, panel), size_in=(4, 2), rows=(1, 1), columns=1)
    with pytest.raises(ValidationError, match=r"got rows \(\) and columns -1$"):
        FigureSpec(title="", panels=(panel,), size_in=(4, 2), columns=-1)
    three = FigureSpec(title="", panels=(panel,) * 3, size_in=(4, 2), columns=2)
    assert three.grid == (2, 2)
    assert [three.place(k) for k in range(3)] == [(0, 0, 1), (0, 1, 1), (1, 0, 1)]


@pytest.mark.parametrize("kind", ["latency_cdf", "error_over_time"])
def test_the_legend_of_twelve_algorithms_twice_is_inside_the_static_figure(kind: str) -> None:
    """24 runs' legend ran off the error figure's foot; the latency CDF's over its title.

    The latency CDF's 24 entries filled its 3.6 in figure from the panel's foot up over
    the title, the curves squeezed to 60 px; 24 runs beside the error panel ran 0.3 in
    past the figure's foot (a review). The figure is as tall as its legend.
    """
    pytest.importorskip("matplotlib")

    result = _many(12, trials=2)
    spec = (
        figure_spec.latency_cdf_spec(result)
        if kind == "latency_cdf"
        else figure_spec.error_over_time_spec(result, "s1")
    )
    assert spec is not None
    fig, renderer = _drawn(spec)
    (ax,) = fig.axes
    legend = ax.get_legend().get_window_extent(renderer)
    title = fig._suptitle.get_window_extent(renderer)
    assert legend.y0 >= 0
    assert legend.x1 <= fig.bbox.x1
    assert legend.y1 <= title.y0  # under the title, not over it
    assert ax.bbox.height >= 0.5 * fig.bbox.height  # the curves keep their room


#: Per figure of twelve algorithms' two trials: its legend's entries, groups and titled
#: groups (their headings on the page), and its title's lines.
_TWELVE_TWICE = {
    "error_over_time": (25, 13, 12, 2),  # 24 runs and the reference's gap; 12 headings;
    # its title's second line says one trial per algorithm is shown, the others hidden
    "latency_cdf": (24, 12, 0, 2),
    "rpe_box": (12, 12, 0, 1),
    "comparison": (12, 12, 0, 2),
}


@pytest.mark.parametrize("kind", list(_TWELVE_TWICE))
def test_the_pages_legend_of_twelve_algorithms_sets_the_pages_height_alone(kind: str) -> None:
    """The page's legend beside a panel is taller than the static figure's (19 px an
    entry at 11 px where matplotlib's 7 pt take 0.155 in), and the figure's one height
    was the larger: the static error figure of twelve algorithms' 24 runs was 8.2 in
    high for the page's legend, its own 4.5 in, the lower half of it empty beside the
    curves (a review). The static figure is as tall as its own legend (0.155 in an
    entry, 0.3 in a title's line and 0.3 in of edges, at least its least height); the
    page's as tall as the page's (19 px an entry, 21 px a heading, 10 px between groups,
    140 px of frame and margins, 20 px a title's further line)."""
    entries, groups, headings, lines = _TWELVE_TWICE[kind]
    result = _many(12, trials=2)
    spec = {
        "error_over_time": lambda: figure_spec.error_over_time_spec(result, "s1"),
        "latency_cdf": lambda: figure_spec.latency_cdf_spec(result),
        "rpe_box": lambda: figure_spec.rpe_box_spec(result, "s1"),
        "comparison": lambda: figure_spec.comparison_spec(result),
    }[kind]()
    assert spec is not None
    least = {"error_over_time": 3.6, "latency_cdf": 3.6, "rpe_box": 3.4, "comparison": 3.6}
    # The static figure lists what it draws: over time, each algorithm's trial shown and
    # the reference's gap (13 entries, 2.915 in: its least), the page all 25.
    drawn = 13 if kind == "error_over_time" else entries
    static = max(least[kind], 0.155 * drawn + 0.3 * lines + 0.3)
    assert spec.size_in[1] == pytest.approx(static)
    page = 19 * entries + 21 * headings + 10 * (groups - 1) + 140 + 20 * (lines - 1)
    assert plotly_figure(spec)["layout"]["height"] == page


@pytest.mark.parametrize("kind", ["comparison", "rpe_box"])
def test_the_legend_of_twenty_boxes_or_bars_is_beside_them(kind: str) -> None:
    """Twenty algorithms' legend (20 entries, 3.1 in at 7 pt) stood in the panel of a
    3.4 in figure: it covered the last four boxes and ran past the figure's foot, and
    covered the comparison's last bar (a hunt). Beside the panel, on the figure."""
    pytest.importorskip("matplotlib")

    result = _many(20)
    spec = (
        figure_spec.comparison_spec(result)
        if kind == "comparison"
        else figure_spec.rpe_box_spec(result, "s1")
    )
    assert spec is not None
    fig, renderer = _drawn(spec)
    (ax,) = fig.axes
    legend = ax.get_legend().get_window_extent(renderer)
    assert len(ax.get_legend().texts) == 20
    assert legend.x0 >= ax.bbox.x1  # beside the panel, over nothing drawn
    assert legend.y0 >= 0
    assert legend.x1 <= fig.bbox.x1
    assert legend.y1 <= fig.bbox.y1


def test_the_legend_of_nine_boxes_stays_in_the_panel() -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    spec = figure_spec.rpe_box_spec(_many(9), "s1")
    assert spec is not None
    assert spec.size_in == (6.0, 3.4)
    (ax,) = matplotlib_figure(spec).axes
    assert ax.get_legend() is not None


def test_repeatability_of_ten_algorithms_wraps_into_rows_of_four() -> None:
    """Ten algorithms without a reference drew ten panels in a row, 38.4 in (3,840 px)."""
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    runs = [_run(f"a{k}/s2/t1", _start_turned(float(k))) for k in range(1, 11)]
    result = _result(runs)
    spec = figure_spec.repeatability_spec(result, "s2")
    assert spec is not None
    assert (spec.grid, spec.size_in) == ((3, 4), (3.8 * 4 + 0.4, 3.8 * 3))
    fig = matplotlib_figure(spec)
    starts = {
        (ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start) for ax in fig.axes
    }
    assert len(starts) == 10
    assert max(column for _, column in starts) == 3
    layout = plotly_figure(spec)["layout"]
    assert len({tuple(layout[f"yaxis{k or ''}"]["domain"]) for k in (0, *range(2, 11))}) == 3


def test_the_page_centres_each_panels_title_over_it(hand: ReportResult) -> None:
    """The first of three panels had its title begin at its middle, the last's end there.

    plotly.js anchors an annotation by its left end when it stands left of a third of
    the width, by its right end right of two thirds (``xanchor`` "auto"): the example
    report's kfslam title began over the middle of its panel (a hunt).
    """
    runs = [_run(f"a{k}/s2/t1", _start_turned(float(k))) for k in range(1, 4)]
    result = _result(runs)
    for spec in (
        figure_spec.repeatability_spec(result, "s2"),
        figure_spec.trajectories_spec(hand, "s1"),
    ):
        assert spec is not None
        layout = plotly_figure(spec)["layout"]
        titles = layout["annotations"]
        assert len(titles) == len(spec.panels) > 1
        for k, title in enumerate(titles):
            domain = layout[f"xaxis{k + 1 if k else ''}"]["domain"]
            assert (title["x"], title["xanchor"]) == (sum(domain) / 2, "center")


def test_bars_of_twelve_algorithms_on_three_sequences_fit_a_page() -> None:
    """36 bars made the comparison 31.8 in (3,180 px) wide, its text a third on a page.

    At most 16 in: the bars narrower, their labels upright where wider than a bar, and
    no two labels run together.
    """
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import _BAR_LABEL

    ref = _trajectory(0 * K)
    runs = [
        _run(f"a{k}/{s}/t1", _trajectory(0.01 * k * K), ref)
        for s in ("s1", "s2", "s3")
        for k in range(1, 13)
    ]
    result = _result(runs)
    spec = figure_spec.comparison_spec(result)
    assert spec is not None
    # The page draws it as tall as its legend of twelve (478 px and a title's line: 12
    # entries of 19 px, 11 gaps of 10 px, 30 px of frame and 110 px of margins); the
    # static figure keeps its height.
    assert spec.size_in == (16.0, 3.6)
    assert plotly_figure(spec)["layout"]["height"] == 478 + 20
    fig, renderer = _drawn(spec)
    (ax,) = fig.axes
    labels = [t for t in ax.texts if t.get_gid() == _BAR_LABEL]
    assert len(labels) == 36
    assert {t.get_rotation() for t in labels} == {90.0}
    boxes = sorted((t.get_window_extent(renderer) for t in labels), key=lambda b: b.x0)
    assert all(a.x1 <= b.x0 for a, b in pairwise(boxes))
    assert all(b.y1 <= ax.bbox.y1 for b in boxes)


def test_bar_labels_of_twelve_algorithms_on_three_sequences_stand_upright_on_the_page() -> None:
    """On the page, twelve algorithms' "2/2 ok" on three sequences ran together: 36
    bars in about 1,000 px are 22 px each (a fifth of each sequence's width between
    them), a 6-character label at 12 px 40 px wide. They stand upright, as the static
    figure's, each on its bar's whisker, with room above the highest whisker: 6
    characters at 11 px are 37 px, the panel 498 - 80 - 50 = 368 px high (the figure
    478 px, as tall as its legend of twelve, and 20 px for its title's second line).
    """
    ref = _trajectory(0 * K)
    runs = [  # 0.03 to 0.14 per pose: under ten-fold apart, a linear axis
        _run(f"a{k}/{s}/t1", _trajectory(0.01 * (k + 2) * K), ref)
        for s in ("s1", "s2", "s3")
        for k in range(1, 13)
    ]
    spec = figure_spec.comparison_spec(_result(runs))
    assert spec is not None
    assert not spec.panels[0].y_log
    figure = plotly_figure(spec)
    bars = [d for d in figure["data"] if d["type"] == "bar" and d["showlegend"]]
    labels = [d for d in figure["data"] if d["type"] == "bar" and not d["showlegend"]]
    assert len(bars) == len(labels) == 12
    assert not [d for d in figure["data"] if d.get("mode") == "markers+text"]
    highest = 0.0
    for bar, label in zip(bars, labels, strict=True):
        assert (label["textangle"], label["textposition"]) == (-90, "inside")
        assert label["insidetextanchor"] == "start"  # from the whisker up
        assert label["text"] == bar["text"] == ["1/1 ok"] * 3
        assert (label["offsetgroup"], label["legendgroup"]) == (bar["offsetgroup"], bar["name"])
        assert label["hoverinfo"] == "skip"
        tops = [y + up for y, up in zip(bar["y"], bar["error_y"]["array"], strict=True)]
        assert label["base"] == pytest.approx(tops)
        highest = max(highest, *tops)
    room = labels[0]["y"][0]
    assert figure["layout"]["height"] - 80 - 50 == 368
    assert room / (highest + room) * 368 >= 6 * 6.1
    assert figure["layout"]["legend"]["groupclick"] == "togglegroup"


def test_upright_bar_labels_on_a_log_axis_have_room_above_the_highest_whisker() -> None:
    """Upright labels make room above the highest whisker: in metres on a linear axis.
    On a log axis that height was log10(1 + f) decades above the highest of several, and
    on the page (16 bars, 0.017 to 4.5 m, seen in Chromium) the highest labels ran over
    the panel's top toward the title. There it is decades, as many above each whisker,
    and the same share of the panel as on a linear one: "1/1 ok", 6 characters at
    6.1 px and 6 px under them, 42.6 px of the panel's height (the figure's less its
    margins) from the highest whisker up to the top of an axis from the smallest bar."""
    ref = _trajectory(0 * K)
    runs = [
        _run(f"a{k}/{s}/t1", _trajectory(c * k * K), ref)
        for s, c in (("s1", 0.001), ("s2", 0.01), ("s3", 1.0))
        for k in range(1, 13)
    ]
    spec = figure_spec.comparison_spec(_result(runs))
    assert spec is not None
    assert spec.panels[0].y_log
    figure = plotly_figure(spec)
    labels = [d for d in figure["data"] if d["type"] == "bar" and not d["showlegend"]]
    assert len(labels) == 12
    base = np.array([x for d in labels for x in d["base"]])
    top = base + np.array([x for d in labels for x in d["y"]])
    decades = np.log10(top / base)
    assert _close(decades, decades[0])  # each label as far above its whisker
    # The smallest bar: a1 on s1, RMSE 0.001 sqrt(140 / 8); the highest whisker: a12 on s3.
    foot, highest = 0.001 * math.sqrt(140 / 8), 12 * math.sqrt(140 / 8)
    assert _close([base.min(), base.max()], [foot, highest])
    layout = figure["layout"]
    tall = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    share = decades[0] / (math.log10(highest) + decades[0] - math.log10(foot))
    assert share * tall == pytest.approx(6 * 6.1 + 6)


def test_bar_labels_narrower_than_their_bars_stay_level(hand: ReportResult) -> None:
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import _BAR_LABEL, matplotlib_figure

    spec = figure_spec.comparison_spec(hand)
    assert spec is not None
    labels = [t for t in matplotlib_figure(spec).axes[0].texts if t.get_gid() == _BAR_LABEL]
    assert labels
    assert {t.get_rotation() for t in labels} == {0.0}


def test_long_panel_titles_in_rows_of_four_stay_apart_and_on_the_figure() -> None:
    """In rows of four, a title as long as a labelled configuration's ran over its
    neighbours' and off the figure's left and right edges: each is wrapped to its panel."""
    pytest.importorskip("matplotlib")

    line = Trace(kind="line", x=np.array([0.0, 1.0]), y=np.array([0.0, 1.0]), name="run")
    title = "alg09 1.4.2 (features=300, imu_rate_hz=200) (trial_1)"
    panels = tuple(Panel(traces=(line,), x_title="x", y_title="y", title=title) for _ in range(8))
    spec = FigureSpec(title="eight", panels=panels, size_in=(15.2, 7.2), columns=4)
    fig, renderer = _drawn(spec)
    boxes = [ax.title.get_window_extent(renderer) for ax in fig.axes if ax.get_title()]
    assert len(boxes) == 8
    assert all(b.x0 >= 0 and b.x1 <= fig.bbox.x1 for b in boxes)
    for row in (boxes[:4], boxes[4:]):
        assert all(a.x1 <= b.x0 for a, b in pairwise(sorted(row, key=lambda b: b.x0)))


def test_long_panel_titles_in_rows_of_four_are_wrapped_on_the_page() -> None:
    """On the page the same titles ran over their neighbours' (plotly.js writes an
    annotation on one line), and each row's x axis title touched the titles below it.

    Measured in Chromium on the report's page (1,200 px wide): a title's characters are
    6 to 6.5 px, a panel of four in a row at most (1200 - 80) / 4 * 0.68 = 190 px, so at
    most 31 characters a line; below a panel, its ticks and the x axis' title take 61 px,
    a line of a title 16 to 18 px (80 px between rows left the title 2.6 px from the
    axis' title above it).
    """
    line = Trace(kind="line", x=np.array([0.0, 1.0]), y=np.array([0.0, 1.0]), name="run")
    title = "alg09 1.4.2 (features=300, imu_rate_hz=200) (trial_1)"
    panels = tuple(Panel(traces=(line,), x_title="x", y_title="y", title=title) for _ in range(8))
    spec = FigureSpec(title="eight", panels=panels, size_in=(15.2, 7.2), columns=4)
    layout = plotly_figure(spec)["layout"]
    titles = [a["text"] for a in layout["annotations"]]
    assert len(titles) == 8
    lines = [t.split("<br>") for t in titles]
    assert all(" ".join(each) == title for each in lines)  # the whole title, in lines
    assert all(len(one) <= 31 for each in lines for one in each)
    most = max(len(each) for each in lines)
    assert most >= 2
    # The paper: the figure less its margins (the lower one holds the legend below it).
    paper = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    top_row, bottom_row = sorted({tuple(layout[f"yaxis{k or ''}"]["domain"]) for k in (0, 5)})[::-1]
    assert (top_row[0] - bottom_row[1]) * paper >= 61 + 18 * most + 4
    assert layout["margin"]["t"] >= 60 + 18 * most  # the first row's titles under the title
    heights = {round(b - a, 9) for a, b in (layout[f"yaxis{k or ''}"]["domain"] for k in (0, 5))}
    assert len(heights) == 1  # the rows as high: the last was a gap higher


def test_a_title_of_wide_characters_is_wrapped_by_their_width() -> None:
    """A CJK character is as wide as two Latin ones: 日本語のアルゴリズム (10 of
    them, 20 Latin characters wide) with 12 Latin ones does not fit 26."""
    from robot_msgs.report.interactive import _wrap

    wrapped = _wrap("alg_12345678 日本語のアルゴリズム", 26)
    assert wrapped.split("\n") == ["alg_12345678", "日本語のアルゴリズム"]
    assert _wrap("日本語", 26) == "日本語"


def test_a_latency_legend_of_long_names_is_beside_the_panel() -> None:
    """Three algorithms of long names: the legend inside (104 characters an entry at
    7 pt, 5.6 in) covered two thirds of the panel and the curves under it (a hunt)."""
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    name = "ORB-SLAM3 stereo-inertial with loop closing and Atlas maps"
    result = _many(3)
    spec = figure_spec.latency_cdf_spec(result)
    assert spec is not None
    assert spec.panels[0].legend == "lower right"  # a1..a3: short names, inside
    ref = _trajectory(0 * K)
    timing = ([0.04, 0.01, 0.03, 0.02], [0.015, 0.02, 0.005])
    runs = [_run(f"{name}/s1/t1", _trajectory(0.01 * K), ref, timing_s=timing)]
    spec = figure_spec.latency_cdf_spec(_result(runs))
    assert spec is not None
    assert spec.panels[0].legend == "outside"
    fig = matplotlib_figure(spec)
    fig.draw_without_rendering()
    (ax,) = fig.axes
    legend = ax.get_legend().get_window_extent()
    assert legend.x0 >= ax.bbox.x1
    assert legend.x1 <= fig.bbox.x1


def test_a_name_with_braces_is_written_as_is_in_every_hover() -> None:
    """An algorithm named ``a{y}b`` showed in the comparison's hover as "a0.0129b" (its
    ``{y}`` the description's field), and ``a{x:.1f}b`` ate the text up to the next
    brace: each hover holds the fields the description writes, the names as written."""
    ref = _trajectory(0 * K)
    runs = [_run(f"{a}/s{{y}}/t{{x}}1", _trajectory(0.01 * K), ref) for a in ("a{y}b", "c{x:.1f}d")]
    result = _result(runs)
    specs = [
        figure_spec.comparison_spec(result),
        figure_spec.rpe_box_spec(result, "s{y}"),
        figure_spec.trajectories_spec(result, "s{y}"),
        figure_spec.error_over_time_spec(result, "s{y}"),
    ]
    fields = re.compile(r"%\{[^\s%{}:]*(?::[^}]*)?\}")  # plotly.js's TEMPLATE_STRING_REGEX
    hovers = [
        d["hovertemplate"]
        for s in specs
        if s
        for d in plotly_figure(s)["data"]
        if "hovertemplate" in d
    ]
    named = [h for h in hovers if "a{y}b" in fields.sub("F", h) or "c{x:.1f}d" in h]
    assert len(named) >= 8
    for hover in named:
        assert fields.findall(hover)
        for field in fields.findall(hover):
            assert field.startswith(("%{x", "%{y", "%{text", "%{marker.color", "%{customdata"))
        assert len(re.findall(r"[ac]\{[xy]", hover)) == 1  # the name's own


def test_an_unnamed_algorithm_is_not_stated_in_the_figures_as_in_the_tables() -> None:
    # Runs without meta.json name no algorithm: the tables say "not stated"; the bars'
    # legend entry was empty (rvA's review of 684bceb).
    ref = _trajectory(0 * K)
    runs = [_run("/s1/t1", _trajectory(0.1 * K), ref), _run("b/s1/t1", _trajectory(0.2 * K), ref)]
    spec = figure_spec.comparison_spec(_result(runs))
    assert spec is not None
    names = [d["name"] for d in plotly_figure(spec)["data"] if d["showlegend"]]
    assert names == ["not stated", "b"]


def test_an_unnamed_sequence_is_not_stated_in_the_figures_and_the_page_as_in_the_tables() -> None:
    # Runs that name no sequence: the bars' x label was empty, the titles began ': ',
    # the page's section read 'Sequence ' and its two plots were not linked (an unnamed
    # algorithm is 'not stated').
    from robot_msgs.report.html_page import render_html

    ref = _trajectory(0 * K)
    runs = [_run("a//t1", _trajectory(0.1 * K), ref), _run("b//t1", _trajectory(0.2 * K), ref)]
    result = _result(runs)
    spec = figure_spec.comparison_spec(result)
    assert spec is not None
    assert [d["x"] for d in plotly_figure(spec)["data"] if d["type"] == "bar"] == [
        ["not stated"],
        ["not stated"],
    ]
    for make in (
        figure_spec.trajectories_spec,
        figure_spec.error_over_time_spec,
        figure_spec.rpe_box_spec,
    ):
        drawn = make(result, "")
        assert drawn is not None
        assert drawn.title.startswith("not stated: ")
    page = render_html(result)
    assert "<h2>Sequence not stated</h2>" in page
    assert "<h2>Sequence </h2>" not in page
    # Its trajectories and error over time were not linked (an empty link is none).
    assert page.count('data-link="not stated"') == 2


def test_the_reports_view_of_utm_sized_positions_labels_them_as_coordinates_apart() -> None:
    # ape --plot's view was mended (no "+5.429e6" offset, eastings apart); the report's
    # trajectory view, drawn from its description, still read 250..500 under "+5.429e6"
    # beside eastings that ran together ("457950457975458000").
    from robot_msgs.report.plots import matplotlib_figure

    turn = np.linspace(0.0, 2.0 * np.pi, 200)
    x, y = 458040.0 + 90.0 * np.cos(turn), 5429330.0 + 140.0 * np.sin(turn)
    view = Panel(traces=(Trace(kind="line", x=x, y=y),), x_title="x [m]", y_title="y [m]")
    spec = FigureSpec(
        title="s1", panels=(dataclasses.replace(view, equal_aspect=True),), size_in=(5.0, 5.0)
    )
    fig = matplotlib_figure(spec)
    fig.canvas.draw()
    ax = fig.axes[0]
    assert [a.get_offset_text().get_text() for a in (ax.xaxis, ax.yaxis)] == ["", ""]
    # grouped by threes as the interactive report writes the same view ("5,429,400")
    assert all(t.get_text().startswith("5,429,") for t in ax.get_yticklabels())
    lo, hi = ax.get_xlim()
    shown = [
        t for t, at in zip(ax.get_xticklabels(), ax.get_xticks(), strict=True) if lo <= at <= hi
    ]
    spans = sorted((b.x0, b.x1) for b in (t.get_window_extent() for t in shown))
    assert len(spans) >= 2
    assert all(left[1] + 5 * fig.dpi / 72 < right[0] for left, right in pairwise(spans))


def test_long_runs_are_drawn_at_a_screens_points_and_the_same_poses_in_both_views() -> None:
    """Every pose of every trial made a page of 192 runs 45.6 MB (KITTI 00's trajectories
    9.2 MB, its error over time 7.1 MB), drawn by Chromium in about a minute.

    3,000 poses 0.1 s apart, trial ``t`` offset by ``t`` mm a pose, so pose k's APE is
    ``t k`` mm, rising: of each stretch of rows only its first (least) and last
    (greatest) are drawn. Shown (t1): stretches of ceil(2 * 3000 / 1200) = 5 rows, 600
    of them, 1,200 points; hidden (t2): stretches of 20, 150 of them, 300 points. The
    colour scale's top stays the 99th percentile of all 3,000 errors of t1 by hand:
    rank 0.99 * 2999 = 2969.01, so 2.96901 m.
    """
    n = 3000
    stamps = np.asarray(0.1 * np.arange(n), dtype=np.float64)
    k = np.arange(n, dtype=np.float64)

    def path(step: float) -> PoseTrajectory:
        return PoseTrajectory(
            stamps_s=stamps,
            positions_xyz=np.stack([stamps, step * k, 0 * k], 1),
            orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
        )

    ref = path(0.0)
    result = _result([_run(f"a/s1/t{t}", path(0.001 * t), ref) for t in (1, 2)])
    over_time = figure_spec.error_over_time_spec(result, "s1")
    trajectories = figure_spec.trajectories_spec(result, "s1")
    assert over_time is not None
    assert trajectories is not None
    shown, hidden = (t for t in over_time.panels[0].traces if t.kind == "line")
    assert (shown.hidden, hidden.hidden) == (False, True)
    assert shown.poses is not None
    assert hidden.poses is not None
    first_last = np.sort(np.concatenate([np.arange(0, n, 5), np.arange(4, n, 5)]))
    assert shown.poses.tolist() == first_last.tolist()
    assert hidden.poses.tolist() == np.sort(np.r_[0:n:20, 19:n:20]).tolist()
    assert _close(shown.y, 0.001 * first_last)
    _, est1, est2 = trajectories.panels[0].traces
    assert _close(est1.poses, shown.poses)  # hovering one finds the pose in the other
    assert _close(est2.poses, hidden.poses)
    assert _close(est1.values, shown.y)
    assert trajectories.colour_scale is not None
    assert trajectories.colour_scale.high == pytest.approx(2.96901)
    assert "drawn at about 1,200 points, 300 hidden" in trajectories.title
    assert "drawn at about 1,200 points, 300 hidden" in over_time.title
    page = plotly_figure(over_time)["data"]
    assert [len(d["x"]) for d in page if d["type"] == "scatter"] == [1200, 300]
    # The static figure draws no hidden trial, so its title does not speak of one.
    pytest.importorskip("matplotlib")
    from robot_msgs.report.plots import matplotlib_figure

    for spec in (over_time, trajectories):
        title = " ".join(matplotlib_figure(spec).get_suptitle().split())
        assert "drawn at about 1,200 points: each stretch's" in title
        assert "hidden" not in title
    # Nor of a legend it lacks, for the trials it does not draw: only the interactive
    # figure's legend shows them.
    assert "the page's legend shows the others" in over_time.title
    title = " ".join(matplotlib_figure(over_time).get_suptitle().split())
    assert "(each algorithm's first successful trial; long runs drawn" in title
    assert "legend" not in title


def test_the_error_over_time_shows_the_trial_the_trajectories_show(hand: ReportResult) -> None:
    """48 runs of a sequence drawn and shaded at once were unreadable: each algorithm's
    first successful trial is shown (a/t1, and b/t1, failed, its only one), the others
    hidden, their losses too (a/t2's)."""
    spec = figure_spec.error_over_time_spec(hand, "s1")
    assert spec is not None
    drawn = [(t.kind, t.run or t.name, t.hidden) for t in spec.panels[0].traces]
    assert drawn == [
        ("line", "a/s1/t1", False),
        ("line", "a/s1/t2", True),
        ("span", "t2: tracking lost", True),
        ("line", "b/s1/t1", False),
        ("span", "t1 (FAILED: crashed): tracking lost", False),
        ("span", "no reference (gap in the ground truth: no error can be computed)", False),
    ]
    shown = (  # b's only trial failed: its first, not a successful one, is shown
        "each algorithm's first successful trial, else its first; "
        "the page's legend shows the others"
    )
    assert spec.title.endswith(f"\n({shown})")


@settings(max_examples=300, deadline=None)
@given(
    arrays(
        np.float64,
        st.integers(0, 300),
        elements=st.one_of(
            st.floats(-1e6, 1e6), st.just(math.nan), st.just(math.inf), st.sampled_from([0.0, 1.0])
        ),
    ),
    st.integers(2, 50),
)
# found by CI: an odd `most` took one stretch more, 6 rows for most 3 (seen failing before)
@hypothesis_example(np.array([0.0, 1.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]), 3)
def test_a_thinned_series_keeps_its_least_and_greatest_error_and_its_breaks(
    values: Float64Array, most: int
) -> None:
    """A figure of a long run draws the run's true worst error (a peak thinned away would
    hide the very pose a reader looks for), at poses of the run in their order, broken
    where the run is (a NaN row and the rows beside it)."""
    rows = figure_spec.screen_rows(values, most)
    assert np.all(np.diff(rows) > 0)
    assert rows.size == 0 or (rows[0] == 0 and rows[-1] == values.size - 1)
    finite = np.isfinite(values)
    if finite.any():
        kept = values[rows][np.isfinite(values[rows])]
        assert (kept.max(), kept.min()) == (values[finite].max(), values[finite].min())
    breaks = np.flatnonzero(~finite)
    beside = np.concatenate([breaks - 1, breaks, breaks + 1])
    assert set(beside[(beside >= 0) & (beside < values.size)].tolist()) <= set(rows.tolist())
    if values.size > most and not breaks.size:
        assert rows.size <= most + 2


def test_one_spike_in_a_hundred_thousand_poses_is_drawn() -> None:
    values = np.full(100_000, 0.01)
    values[54_321] = 7.0
    rows = figure_spec.screen_rows(values, figure_spec.SCREEN_POINTS)
    assert 54_321 in rows.tolist()
    assert rows.size <= figure_spec.SCREEN_POINTS + 2


def test_the_error_over_time_of_an_algorithm_that_never_succeeded_says_its_first_is_shown() -> None:
    """Of two failed trials the first is drawn (no successful one to draw): the title said
    'each algorithm's first successful trial', which it is not."""
    ref = _trajectory(0 * K)
    runs = [_run(f"a/s1/t{t}", _trajectory(0.1 * K), ref, failure="crashed") for t in (1, 2)]
    spec = figure_spec.error_over_time_spec(_result(runs), "s1")
    assert spec is not None
    assert [t.hidden for t in spec.panels[0].traces if t.kind == "line"] == [False, True]
    assert "each algorithm's first successful trial, else its first;" in spec.title


def test_the_page_of_one_run_says_its_count_in_the_singular() -> None:
    # The page's head said "1 runs, 1 succeeded" (36fc218 brought the text report's
    # counts to counted(), not the page's).
    from robot_msgs.report.html_page import render_html

    ref = _trajectory(0 * K)
    page = render_html(_result([_run("a/s1/t1", _trajectory(0.1 * K), ref)]))
    assert "; 1 run, 1 succeeded; evaluation settings" in page
