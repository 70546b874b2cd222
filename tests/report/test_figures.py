"""Paper-ready figures: format from the name, exact pixel size, words and statistics drawn."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.compare import Signal
from robot_msgs.errors import FormatError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.evaluation.consistency import NEES_DOF
from robot_msgs.evaluation.relations import (
    APE_RELATIONS,
    RELATION_UNITS,
    RPE_RELATIONS,
    TRAJECTOPY_RELATIONS,
)
from robot_msgs.io import read_trajectory
from robot_msgs.report.figures import (
    auto_plane,
    evaluation_figure,
    figure_bytes,
    figure_size_in,
    new_figure,
    overlay_figure,
    roll_pitch_yaw_deg,
    save_figure,
    signal_label,
    signal_words,
)
from robot_msgs.report.plots import results_figure
from robot_msgs.report.tables import metric_title
from robot_msgs.runs.run_settings import MetricSpec
from tests.evaluation.metric_trajectories import turned_scaled_shifted

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.trajectory import PoseTrajectory

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    return read_trajectory("example:fr1_xyz/groundtruth.tum"), read_trajectory(
        "example:fr1_xyz/rgbdslam.tum"
    )


@pytest.fixture(scope="module")
def result(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> EvaluationResult:
    return ape(*fr1, settings=EvaluationSettings(align="se3"))


def test_the_error_axes_show_rms_mean_and_median_of_the_errors(result: EvaluationResult) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    err = fig.axes[1]  # the view, the errors, then the colour bar
    lines = {line.get_label().split()[0]: line for line in err.get_lines()}
    errors = result.series["translation"].errors
    # Computed here with NumPy, not with the package's statistics.
    expected = {
        "rms": np.sqrt(np.mean(errors**2)),
        "mean": np.mean(errors),
        "median": np.median(errors),
    }
    for name, value in expected.items():
        assert lines[name].get_ydata()[0] == pytest.approx(value, rel=1e-12)
    assert err.get_ylabel() == "translation error [m]"
    assert err.get_xlabel() == "time since the first matched pose [s]"


def test_the_trajectory_is_coloured_by_error_with_a_colour_bar(result: EvaluationResult) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    colourbars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(colourbars) == 1
    assert colourbars[0].get_ylabel() == ""  # the error axis beside it names the quantity
    (points,) = fig.axes[0].collections
    assert np.array_equal(points.get_array(), result.series["translation"].errors)


def test_several_estimates_draw_the_widest_reference_in_any_order(
    fr1: tuple[PoseTrajectory, PoseTrajectory], result: EvaluationResult
) -> None:
    """A short first estimate drew its 40 matched reference poses under the whole other
    estimate, and the view changed with the order of the files (a review)."""
    ref, est = fr1
    short = est.replace(
        stamps_s=est.stamps_s[:40],
        positions_xyz=est.positions_xyz[:40],
        orientations_quat_xyzw=est.orientations_quat_xyzw[:40],
    )
    brief = ape(ref, short, settings=EvaluationSettings(align="se3"))
    drawn = []
    for entries in ([("short", brief), ("whole", result)], [("whole", result), ("short", brief)]):
        fig = evaluation_figure(entries, result.comparison.signals, title="t")
        view = fig.axes[0]
        (line,) = (x for x in view.get_lines() if x.get_label() == "reference")
        drawn.append((view.get_title(), np.asarray(line.get_xdata(), dtype=float)))
    assert drawn[0][0] == drawn[1][0] == f"{auto_plane(result.reference.positions_xyz)} view"
    column = "xyz".index(drawn[0][0][0])
    for _, xs in drawn:
        kept = xs[np.isfinite(xs)]
        assert kept.tolist() == result.reference.positions_xyz[:, column].tolist()


def test_gaps_in_the_errors_stay_gaps(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> None:
    ref, est = fr1
    keep = (est.stamps_s < est.stamps_s[0] + 8.0) | (est.stamps_s > est.stamps_s[0] + 12.0)
    holed = est.replace(
        stamps_s=est.stamps_s[keep],
        positions_xyz=est.positions_xyz[keep],
        orientations_quat_xyzw=est.orientations_quat_xyzw[keep],
    )
    result = ape(ref, holed, settings=EvaluationSettings(align="se3"))
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    curve = next(line for line in fig.axes[1].get_lines() if line.get_label() == "error")
    x = np.asarray(curve.get_xdata(), dtype=float)
    y = np.asarray(curve.get_ydata(), dtype=float)
    gap = np.flatnonzero(np.isnan(y))
    assert gap.size == 1
    assert x[gap[0] - 1] < 8.0
    assert x[gap[0] + 1] > 12.0


def test_relative_errors_colour_the_pair_end_poses(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    result = rpe(
        *fr1, settings=EvaluationSettings(align="se3"), pairs=PairSettings(delta=10, delta_unit="f")
    )
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane="xz")
    (points,) = fig.axes[0].collections
    pairs = result.series["translation"].pairs
    assert pairs is not None
    expected = result.estimate.positions_xyz[pairs[:, 1]][:, [0, 2]]
    assert np.allclose(points.get_offsets(), expected)
    assert fig.axes[0].get_xlabel() == "x [m]"
    assert fig.axes[0].get_ylabel() == "z [m]"


def test_an_rpg_drift_draws_the_estimate_aligned_as_save_aligned_writes_it(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # rpg compares the estimate scaled only; drawn so, an estimate turned by 90° (and
    # shifted, half the size) stayed turned in the view: 132° off on fr2_desk.
    from robot_msgs.evaluation import relative_error

    ref = fr1[0]
    result = relative_error(ref, turned_scaled_shifted(ref))
    fig = evaluation_figure([("est", result)], result.segment_signals(), title="t", plane="xy")
    (drawn,) = [line for line in fig.axes[0].get_lines() if line.get_label() == "est"]
    xy = drawn.get_xydata()
    xy = xy[np.isfinite(xy).all(axis=1)]  # the path breaks (NaN) at a gap in time
    np.testing.assert_allclose(xy, ref.positions_xyz[:, :2], atol=1e-9)


def test_png_size_is_the_figure_size_times_the_dpi(
    result: EvaluationResult, tmp_path: Path
) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    data = save_figure(fig, tmp_path / "f.png", dpi=200).read_bytes()
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (round(11.0 * 200), round(4.5 * 200))
    assert figure_size_in("evaluation") == (11.0, 4.5)


def test_vector_formats_keep_text_and_embed_truetype(
    result: EvaluationResult, tmp_path: Path
) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane="xyz")
    assert fig.axes[0].name == "3d"
    pdf = save_figure(fig, tmp_path / "f.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert b"/FontType 3" not in pdf
    assert b"/TrueType" in pdf or b"/CIDFontType2" in pdf
    eps = save_figure(fig, tmp_path / "f.eps").read_bytes()
    assert eps.startswith(b"%!PS-Adobe")
    with pytest.raises(FormatError, match=r"--plot \S*f\.gif: expected a file name ending in"):
        save_figure(fig, tmp_path / "f.gif")


@pytest.mark.parametrize("suffix", ["png", "pdf", "svg", "eps"])
def test_same_figure_same_bytes(
    result: EvaluationResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    # Saved at two other times (matplotlib dates a file by SOURCE_DATE_EPOCH, else the
    # clock): an EPS carried its %%CreationDate, so the same figure gave other bytes.
    saved = []
    for when in ("0", "1000000000"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", when)
        fig = evaluation_figure([("e", result)], result.comparison.signals, title="t")
        saved.append(save_figure(fig, tmp_path / f"{when}.{suffix}").read_bytes())
    assert saved[0] == saved[1]


def test_a_png_is_drawn_without_setting_matplotlibs_global_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # rc_context sets and restores rcParams, process-wide: the report's PNGs drawn from
    # threads restored each other's and left the vector settings on (a review).
    import matplotlib as mpl

    entered: list[str] = []
    real = mpl.rc_context

    def spy(rc: Any) -> Any:
        entered.append(", ".join(sorted(rc)))
        return real(rc)

    monkeypatch.setattr(mpl, "rc_context", spy)
    fig = new_figure(2, 1)
    fig.add_subplot().plot([0, 1], [0, 1])
    assert figure_bytes(fig, "png", 100).startswith(b"\x89PNG")
    assert entered == []
    assert figure_bytes(fig, "svg", 100).lstrip().startswith(b"<?xml")
    assert entered == ["pdf.fonttype, ps.fonttype, svg.fonttype, svg.hashsalt"]


def test_signal_labels_are_words_with_units() -> None:
    def one(quantity: str, unit: str, length_m: float | None = None) -> Signal:
        return Signal.of(quantity, unit, [1.0], stamps_s=[0.0], length_m=length_m)

    assert signal_label(one("angle_rad", "rad")) == "rotation error [rad]"
    assert signal_label(one("x", "m")) == "x error (estimate − reference) [m]"
    assert signal_label(one("point_distance_error_ratio", "%")) == "point distance error ratio [%]"
    assert (
        signal_label(one("rotation_deg_per_m", "deg/m", length_m=800.0))
        == "rotation error per 800 m segment [deg/m]"
    )


@pytest.mark.parametrize(
    "relation", dict.fromkeys([*RPE_RELATIONS, *TRAJECTOPY_RELATIONS, *APE_RELATIONS])
)
def test_every_relation_is_said_in_words_with_its_unit(relation: str) -> None:
    """roll/pitch/yaw had no words: a bench ranking was headed "APE roll deg", a figure's
    axis "roll deg [deg]" (a review); the NEES relations read "nees position"."""
    unit = RELATION_UNITS[relation]
    words = signal_words(relation)
    if relation in NEES_DOF:  # no error: a consistency statistic, with what it should be
        assert words.endswith(f"{NEES_DOF[relation]} degrees of freedom)")
        assert "NEES" in words
    else:
        assert "error" in words  # not the name's letters, "roll deg"
    assert not words.endswith((" rad", " deg"))  # the unit is said once, in brackets
    assert "_" not in words
    signal = Signal.of(relation, unit, [1.0], stamps_s=[0.0])
    assert signal_label(signal) == (f"{words} [{unit}]" if unit else words)
    if relation in APE_RELATIONS:  # a bench ranking's heading
        assert metric_title(MetricSpec.build("ape", relation=relation)) == f"APE {words}"


def test_roll_pitch_and_yaw_are_named_about_their_axes() -> None:
    def label(relation: str) -> str:
        return signal_label(Signal.of(relation, RELATION_UNITS[relation], [1.0], stamps_s=[0.0]))

    assert label("roll_deg") == "roll error (reference body x) [deg]"
    assert label("pitch_rad") == "pitch error (reference body y) [rad]"
    assert label("yaw_world_deg") == "yaw error (world z) [deg]"


def test_the_default_plane_is_the_two_widest_axes() -> None:
    rng = np.random.default_rng(0)
    points = rng.normal(size=(50, 3)) * [1.0, 0.01, 5.0]
    assert auto_plane(points) == "xz"
    assert auto_plane(points[:, [2, 0, 1]]) == "xy"


def test_roll_pitch_yaw_follow_rz_ry_rx() -> None:
    # R = Rz(30°) Ry(20°) Rx(10°) as a quaternion, composed by hand: q = qz * qy * qx.
    def q(axis: int, deg: float) -> np.ndarray:
        out = np.zeros(4)
        out[axis] = np.sin(np.radians(deg) / 2)
        out[3] = np.cos(np.radians(deg) / 2)
        return out

    def mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        (ax, ay, az, aw), (bx, by, bz, bw) = a, b
        return np.array(
            [
                aw * bx + ax * bw + ay * bz - az * by,
                aw * by - ax * bz + ay * bw + az * bx,
                aw * bz + ax * by - ay * bx + az * bw,
                aw * bw - ax * bx - ay * by - az * bz,
            ]
        )

    quat = mul(mul(q(2, 30.0), q(1, 20.0)), q(0, 10.0))
    assert roll_pitch_yaw_deg(quat[None, :])[0] == pytest.approx([10.0, 20.0, 30.0])


def test_the_overlay_has_a_view_xyz_rpy_and_speed(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    ref, est = fr1
    fig = overlay_figure(ref, [("est", est.replace(stamps_are_frames=True))])
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert labels[1:] == [
        "x [m]",
        "y [m]",
        "z [m]",
        "roll [deg]",
        "pitch [deg]",
        "yaw [deg]",
        "speed [m/frame]",
    ]
    assert fig.axes[-1].get_xlabel() == "frame"
    speed = fig.axes[-1].get_lines()[1].get_ydata()
    steps = np.linalg.norm(np.diff(est.positions_xyz, axis=0), axis=1) / np.diff(est.stamps_s)
    finite = np.asarray(speed, dtype=float)
    assert np.allclose(finite[np.isfinite(finite)], steps)


def test_results_in_different_units_are_refused(
    result: EvaluationResult, fr1: tuple[PoseTrajectory, PoseTrajectory]
) -> None:
    degrees = ape(*fr1, settings=EvaluationSettings(align="se3"), relation="angle_deg")
    with pytest.raises(
        FormatError,
        match=r"^the results are in different units \(deg, m\); plot results of one unit$",
    ):
        results_figure([("a", result), ("b", degrees)])
    fig = results_figure([("a", result), ("b", result)])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "error over time",
        "error over distance",
        "box plot (whiskers 1.5 IQR)",
        "violin plot (min to max)",
        "histogram (40 bins)",
    ]


def test_a_3d_views_legend_is_inside_the_image(result: EvaluationResult) -> None:
    """Under a 3-D view the legend was cut at the image's bottom edge (a review)."""
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane="xyz")
    fig.canvas.draw()
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
    (legend,) = (x for x in legends if "reference" in [t.get_text() for t in x.get_texts()])
    box = legend.get_window_extent()
    assert box.y0 >= 0
    assert box.x0 >= 0
    assert box.x1 <= fig.bbox.x1
    assert [t.get_text() for t in legend.get_texts()][-1] == "reference"


def test_a_3d_view_has_equal_scales(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> None:
    """A flat loop drew as a diagonal: the box went back to 4:4:3 after ``equal`` (a review).

    A 100 m by 60 m path 2 m high: every axis must span the same length in an equal box.
    """
    t = np.linspace(0.0, 2 * np.pi, 200)
    ref = fr1[0]
    flat = ref.replace(
        stamps_s=t,
        positions_xyz=np.stack([50 * np.cos(t), 30 * np.sin(t), 1 + np.sin(3 * t)], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (200, 1)),
    )
    fig = overlay_figure(flat, [("est", flat)], plane="xyz")
    view = next(ax for ax in fig.axes if ax.name == "3d")
    spans = [np.ptp(view.get_xlim3d()), np.ptp(view.get_ylim3d()), np.ptp(view.get_zlim3d())]
    assert spans == pytest.approx([spans[0]] * 3, rel=1e-9)
    assert spans[0] >= 100.0
    box = view.get_box_aspect()  # scaled by the zoom: three equal sides
    assert tuple(box) == pytest.approx((box[0],) * 3)


def test_a_nees_figure_draws_its_mean_and_the_consistent_mean_not_an_rms(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """The NEES figure drew rms, mean and median lines beside a curve named "error", and
    none at the 3 degrees of freedom the text and the ranking judge it by (a review)."""
    ref, est = fr1
    cov = np.tile(np.diag([1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4]), (len(est), 1, 1))
    result = ape(ref, est.replace(covariance_6x6=cov), relation="nees_position")
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    labels = [line.get_label() for line in fig.axes[1].get_lines()]
    mean = result.comparison.signals[0].stats.mean
    assert labels == ["NEES", f"mean {mean:.4g}", "consistent mean 3"]
    levels = [line.get_ydata()[0] for line in fig.axes[1].get_lines()[1:]]
    assert levels == [mean, 3.0]
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend[0] == "est (colour: NEES, as on the right)"


def test_twenty_estimates_share_one_legend_under_both_panels(result: EvaluationResult) -> None:
    """ape --plot of twenty estimates with long file stems: each panel's legend under it
    (21 and 20 entries, one column) took the 4.5 in figure's height, the panels 0 in
    high, and listed each name twice (a hunt). One legend under both, in two columns
    (55 characters at 8 pt are 3.4 in, three of them wider than the 11 in figure)."""
    names = [f"estimate_number_{k:02d}_with_a_rather_long_descriptive_name" for k in range(20)]
    fig = evaluation_figure([(n, result) for n in names], result.comparison.signals, title="t")
    fig.draw_without_rendering()
    view, err = fig.axes[:2]
    assert view.get_legend() is None
    assert err.get_legend() is None
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == [*names, "reference"]
    assert legend._ncols == 2
    box = legend.get_window_extent()
    assert box.y0 >= 0
    assert box.x0 >= 0
    assert box.x1 <= fig.bbox.x1
    assert box.y1 <= min(view.bbox.y0, err.bbox.y0)
    for ax in (view, err):
        assert ax.bbox.height >= 0.35 * fig.bbox.height  # 1.6 in of 4.5
    # Four keep their legends under their panels (test_label_sets_each_...).
    fig = evaluation_figure([(n, result) for n in names[:4]], result.comparison.signals, title="t")
    assert not fig.legends
    assert len(fig.axes[0].get_legend().get_texts()) == 5


def test_nine_estimates_over_three_deltas_share_one_legend_on_the_figure(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """rpe --plot of nine estimates over three deltas: the error panel's 27 entries ran
    off the figure's foot, the view's legend off its left edge, and matplotlib gave up
    the layout ('axes sizes collapsed to zero'; a hunt). One legend on the figure, and
    the view draws each estimate as its first delta's curve: the ninth's (blue, dashed)
    was the first's second delta."""
    pairs = [PairSettings(delta=d, delta_unit="s") for d in (0.5, 1.0, 2.0)]
    result = rpe(*fr1, settings=EvaluationSettings(align="se3"), pairs=pairs)
    names = [f"est{k}" for k in range(1, 10)]
    fig = evaluation_figure([(n, result) for n in names], result.comparison.signals, title="t")
    fig.draw_without_rendering()
    view, err = fig.axes[:2]
    (legend,) = fig.legends
    texts = [t.get_text() for t in legend.get_texts()]
    assert len(texts) == 28
    assert texts[-4:] == ["est9: 0.5 s", "est9: 1 s", "est9: 2 s", "reference"]
    box = legend.get_window_extent()
    assert box.y0 >= 0
    assert box.x0 >= 0
    assert box.x1 <= fig.bbox.x1
    assert min(view.bbox.height, err.bbox.height) >= 0.35 * fig.bbox.height
    drawn = {ln.get_label(): ln for ln in err.get_lines()}
    paths = {ln.get_label(): ln for ln in view.get_lines()}
    for name in ("est1", "est9"):
        first, path = drawn[f"{name}: 0.5 s"], paths[name]
        assert (path.get_color(), path.get_linestyle(), path.get_marker()) == (
            first.get_color(),
            first.get_linestyle(),
            first.get_marker(),
        )
    assert paths["est9"].get_linestyle() == "-."  # not est1's 1 s, dashed


def test_an_error_alone_between_gaps_is_drawn(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> None:
    """A line draws nothing of a point between two gaps: two of the 32 errors of
    ORB-SLAM's fr1_xyz keyframes were missing from ape --plot (a hunt). An estimate
    of poses 0-10, 40 and 80-90: pose 40 stands alone (its gaps are 30 steps, past 5
    median steps), and is drawn as a dot in the view and over time."""
    ref, est = fr1
    keep = np.r_[0:11, 40, 80:91]
    sparse = est.replace(
        stamps_s=est.stamps_s[keep],
        positions_xyz=est.positions_xyz[keep],
        orientations_quat_xyzw=est.orientations_quat_xyzw[keep],
    )
    result = ape(ref, sparse, settings=EvaluationSettings(align="se3"))
    names = [("a", result), ("b", result)]  # paths in the view, not coloured points
    fig = evaluation_figure(names, result.comparison.signals, title="t")
    view, err = fig.axes[:2]
    series = result.comparison.signals[0].series
    assert series is not None
    t0 = float(result.estimate.stamps_s[0])
    alone = (float(series.stamps_s[11]) - t0, float(series.errors[11]))
    dots = [ln for ln in err.get_lines() if ln.get_marker() == "o" and ln.get_linestyle() == "None"]
    assert [(float(ln.get_xdata()[0]), float(ln.get_ydata()[0])) for ln in dots] == [alone] * 2
    assert all(len(ln.get_xdata()) == 1 for ln in dots)
    a, b = ("xyz".index(c) for c in auto_plane(result.reference.positions_xyz))
    pose = tuple(result.estimate.positions_xyz[11, [a, b]].tolist())
    dots = [ln for ln in view.get_lines() if ln.get_marker() == "o" and len(ln.get_xdata()) == 1]
    assert (float(dots[0].get_xdata()[0]), float(dots[0].get_ydata()[0])) == pose


def test_the_reports_static_line_draws_a_point_alone_between_gaps() -> None:
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.report.plots import matplotlib_figure

    y = np.array([1.0, np.nan, 2.0, 3.0, np.nan, 4.0])
    line = Trace(kind="line", x=np.arange(6.0), y=y, name="run", colour="#d62728")
    spec = FigureSpec(
        title="", panels=(Panel(traces=(line,), x_title="", y_title=""),), size_in=(4, 3)
    )
    (ax,) = matplotlib_figure(spec).axes
    dots = [ln for ln in ax.get_lines() if ln.get_marker() == "o"]
    assert len(dots) == 1
    assert dots[0].get_xdata().tolist() == [0.0, 5.0]
    assert dots[0].get_ydata().tolist() == [1.0, 4.0]
    assert dots[0].get_color() == "#d62728"


def test_the_pages_line_draws_a_point_alone_between_gaps() -> None:
    """plotly.js draws no segment of a point between two nulls: the page's error over
    time lost it as the static figure did."""
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.report.interactive import plotly_figure

    y = np.array([1.0, np.nan, 2.0, 3.0, np.nan, 4.0])
    line = Trace(kind="line", x=np.arange(6.0), y=y, name="run", colour="#d62728")
    spec = FigureSpec(
        title="", panels=(Panel(traces=(line,), x_title="", y_title=""),), size_in=(4, 3)
    )
    (drawn,) = plotly_figure(spec)["data"]
    assert drawn["mode"] == "lines+markers"
    assert drawn["marker"] == {"size": [5, 0, 0, 0, 0, 5], "color": "#d62728"}
    whole = Trace(kind="line", x=np.arange(3.0), y=np.ones(3), name="run")
    spec = FigureSpec(
        title="", panels=(Panel(traces=(whole,), x_title="", y_title=""),), size_in=(4, 3)
    )
    assert plotly_figure(spec)["data"][0]["mode"] == "lines"  # nothing alone: no marker


def test_a_path_of_lone_points_keeps_its_end_mark_on_the_page_as_in_the_figure() -> None:
    """A run's path marks its end (mark_end). Drawn as dots (each point alone: a one-pose
    run), the static figure still drew its end dot but the page's dots lost it (size 5
    for all, where the line before 92c6f4d drew 7 at its end)."""
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.report.interactive import plotly_figure
    from robot_msgs.report.plots import matplotlib_figure

    for x, y, sizes in (
        ([1.0], [2.0], [7]),
        ([1.0, np.nan, 3.0], [2.0, np.nan, 4.0], [5, 5, 7]),
    ):
        path = Trace(
            kind="line", x=np.array(x), y=np.array(y), name="run", colour="#d62728", mark_end=True
        )
        spec = FigureSpec(
            title="", panels=(Panel(traces=(path,), x_title="", y_title=""),), size_in=(4, 3)
        )
        (drawn,) = plotly_figure(spec)["data"]
        assert (drawn["mode"], drawn["marker"]["size"]) == ("markers", sizes)
        (ax,) = matplotlib_figure(spec).axes
        ends = [ln for ln in ax.get_lines() if ln.get_markersize() == 4]  # the end dot
        assert [(ln.get_xdata()[0], ln.get_ydata()[0]) for ln in ends] == [(x[-1], y[-1])]


def test_the_pages_marked_line_draws_its_points_alone_between_gaps_too() -> None:
    """A marked line (past eight colours) shows a dozen marks along it (maxdisplayed),
    which skipped its lone points: still not drawn on the page (rvB's review). They are
    dots of their own, in its legend group, with no legend entry."""
    from robot_msgs.report.figure_spec import FigureSpec, Panel, Trace
    from robot_msgs.report.interactive import plotly_figure

    y = np.array([1.0, np.nan, 2.0, 3.0, np.nan, 4.0])
    line = Trace(
        kind="line", x=np.arange(6.0), y=y, name="run", colour="#d62728", mark="triangle-up"
    )
    spec = FigureSpec(
        title="", panels=(Panel(traces=(line,), x_title="", y_title=""),), size_in=(4, 3)
    )
    drawn, dots = plotly_figure(spec)["data"]
    assert drawn["marker"]["maxdisplayed"] > 0  # the marks along it, as before
    assert (dots["x"], dots["y"]) == ([0.0, 5.0], [1.0, 4.0])
    assert dots["legendgroup"] == drawn["legendgroup"]
    assert dots["showlegend"] is False


def test_nine_long_named_estimates_over_three_deltas_keep_readable_panels(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """rpe --plot of nine estimates over three deltas, named as file stems are: the 28
    entries of 46-character names stood in two columns, 14 rows under the panels of the
    11 x 4.5 in figure, which kept 1.2 in for the panels (a hunt). The figure grows
    with its legend: every panel keeps at least the 2.4 in a short legend leaves it."""
    pairs = [PairSettings(delta=d, delta_unit="s") for d in (0.5, 1.0, 2.0)]
    result = rpe(*fr1, settings=EvaluationSettings(align="se3"), pairs=pairs)
    names = [f"orbslam3_stereo_inertial_loop_closing_trial_{k:02d}" for k in range(1, 10)]
    fig = evaluation_figure([(n, result) for n in names], result.comparison.signals, title="t")
    fig.draw_without_rendering()
    view, err = fig.axes[:2]
    (legend,) = fig.legends
    assert len(legend.get_texts()) == 28
    box = legend.get_window_extent()
    assert box.y0 >= 0
    assert box.x0 >= 0
    assert box.x1 <= fig.bbox.x1
    assert min(view.bbox.height, err.bbox.height) / fig.dpi >= 2.4
    assert fig.get_figwidth() == 11.0
    short = evaluation_figure([("est", result)], result.comparison.signals[:1], title="t")
    assert tuple(short.get_size_inches()) == (11.0, 4.5)  # one estimate: as the help says


def test_utm_sized_positions_are_labelled_as_the_coordinates_they_are(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # georeferenced.tum's view read "y [m]" 250..500 under a "+5.429e6" offset, beside an x
    # axis of whole eastings (matplotlib offsets only an axis that saves four digits).
    shift = np.array([458000.0, 5429000.0, 160.0])
    # fr1's 0.45 m by 0.7 m grown to georeferenced.tum's 180 m by 280 m, in UTM 32N
    ref, est = (t.replace(positions_xyz=t.positions_xyz * 400 + shift) for t in fr1)
    overlay = overlay_figure(ref, [("est", est)], plane="xy")
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    evaluated = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    for fig, position_axes in ((overlay, overlay.axes[:4]), (evaluated, evaluated.axes[:1])):
        fig.canvas.draw()
        for ax in position_axes:
            for axis in (ax.xaxis, ax.yaxis):
                assert axis.get_offset_text().get_text() == ""
        view = position_axes[0]
        texts = [t.get_text() for t in view.get_yticklabels()]
        # grouped by threes, as the interactive report's plotly.js writes them ("5,429,400")
        assert all(re.fullmatch(r"5,429,\d{3}(\.\d+)?", text) for text in texts), texts
        ticks = [float(text.replace(",", "")) for text in texts]
        assert 5429000 < np.median(ticks) < 5430000
        # and the x labels stand apart: the eastings ran together ("457950457975458000")
        lo, hi = view.get_xlim()
        ticks_x = zip(view.get_xticklabels(), view.get_xticks(), strict=True)
        shown = [t for t, x in ticks_x if lo <= x <= hi]
        spans = sorted((b.x0, b.x1) for b in (t.get_window_extent() for t in shown))
        assert len(spans) >= 2
        gap = 5 * fig.dpi / 72  # half an em of the ticks' 10 pt: 3 px apart read as one
        assert all(left[1] + gap < right[0] for left, right in itertools.pairwise(spans))
    # In 3-D the offset stood on "y [m]" ("y [m]+5.429e6").
    cube = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane="xyz")
    cube.canvas.draw()
    view = cube.axes[0]
    assert all(a.get_offset_text().get_text() == "" for a in (view.xaxis, view.yaxis))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_utm_sized_tick_labels_of_a_3d_view_stand_apart_at_its_corner(
    fr1: tuple[PoseTrajectory, PoseTrajectory], sign: float
) -> None:
    """Grouped by threes, a 3-D view's last easting ran into its first northing where
    the two axes meet ("458,1005,429,250" in ape's view of georeferenced.tum): a 3-D
    tick label is centred on its place, so a longer one reaches back to the other axis."""
    shift = np.array([458000.0, 5429000.0, 160.0])
    ref, est = (t.replace(positions_xyz=sign * (t.positions_xyz * 400 + shift)) for t in fr1)
    result = ape(ref, est, settings=EvaluationSettings(align="se3"))
    cube = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane="xyz")
    cube.canvas.draw()
    renderer = cube.canvas.get_renderer()
    view = cube.axes[0]
    boxes = []
    for axis in (view.xaxis, view.yaxis):
        axis.get_tightbbox(renderer)  # places the 3-D tick labels where they are drawn
        lo, hi = sorted(axis.get_view_interval())
        shown = [t.label1 for t in axis.get_major_ticks() if lo <= t.get_loc() <= hi]
        assert all("," in label.get_text() for label in shown)
        boxes.append([label.get_window_extent(renderer) for label in shown])
    assert not any(a.overlaps(b) for a in boxes[0] for b in boxes[1])


def test_a_view_whose_x_labels_stand_apart_keeps_matplotlibs_own_ticks(
    fr1: tuple[PoseTrajectory, PoseTrajectory], result: EvaluationResult
) -> None:
    # Spacing UTM-sized labels asked every 2-D view for as many ticks as fit: fr1's traj
    # view went from 0.1 m to 0.05 m apart and its ape view to 0.2 m, though their
    # labels stood apart at matplotlib's own count.
    ref, est = fr1
    overlay = overlay_figure(ref, [("est", est)], plane="xy")
    evaluated = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    for fig in (overlay, evaluated):
        fig.canvas.draw()
        assert np.diff(fig.axes[0].get_xticks()) == pytest.approx(0.1)


def test_coloured_dots_look_as_matplotlibs_default_dots_with_their_edge(
    result: EvaluationResult,
) -> None:
    # The dots are drawn as one fill of (sqrt(6) + 1) pt without an edge, as Agg strokes
    # each edge apart (70% of drawing 10^6 dots). They must stay what scatter draws by
    # default at s=6 (a 1 pt edge in the face's colour), up to the rim's anti-aliasing.
    import matplotlib as mpl
    from matplotlib.collections import PathCollection

    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    (dots,) = (c for c in fig.axes[0].collections if isinstance(c, PathCollection))

    def drawn() -> Any:
        fig.canvas.draw()
        return np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)

    filled = drawn()
    dots.set_sizes([6.0])
    dots.set_linewidth([mpl.rcParams["patch.linewidth"]])  # scatter's default edge
    dots.set_edgecolor("face")
    assert mpl.rcParams["patch.linewidth"] == 1.0
    # Rim pixels differ by 8 of 255 at most here (18 in a 10^6-pose plot, where dots
    # overlap); a dot 0.5 pt too small or too large differs by over 130.
    assert np.abs(filled - drawn()).max() <= 16
