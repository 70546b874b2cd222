"""``EvaluationResult.plot()``: the ``--plot`` figure from Python, drawn from the result's data."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import MissingDependencyError, ValidationError
from robot_msgs.evaluation import (
    EvaluationSettings,
    PairSettings,
    ape,
    kitti_drift,
    relative_error,
    rpe,
)
from robot_msgs.io import read_trajectory
from robot_msgs.io.evo_results import read_evo_result

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.trajectory import PoseTrajectory


@pytest.fixture(scope="module")
def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    return read_trajectory("example:fr1_xyz/groundtruth.tum"), read_trajectory(
        "example:fr1_xyz/rgbdslam.tum"
    )


@pytest.fixture(scope="module")
def result(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> EvaluationResult:
    return ape(*fr1, settings=EvaluationSettings(align="se3"), estimate_name="rgbdslam")


def test_plot_returns_a_figure_of_the_results_own_data(result: EvaluationResult) -> None:
    pytest.importorskip("matplotlib")
    fig = result.plot()
    assert (type(fig).__module__, type(fig).__name__) == ("matplotlib.figure", "Figure")
    view, err = fig.axes[0], fig.axes[1]
    # The view: the matched reference as a line, in the plane its axis labels name.
    axes = ["xyz".index(view.get_xlabel()[0]), "xyz".index(view.get_ylabel()[0])]
    (reference,) = (line for line in view.get_lines() if line.get_label() == "reference")
    assert np.array_equal(reference.get_xdata(), result.reference.positions_xyz[:, axes[0]])
    assert np.array_equal(reference.get_ydata(), result.reference.positions_xyz[:, axes[1]])
    # The aligned estimate as points coloured by the error, labelled with its name.
    (points,) = view.collections
    errors = result.series["translation"].errors
    assert np.array_equal(points.get_offsets()[:, 0], result.estimate.positions_xyz[:, axes[0]])
    assert np.array_equal(points.get_array(), errors)
    # Labelled with its name; its legend dot in the colour map's middle, not the first
    # point's colour (which said nothing; a review).
    _, labels = view.get_legend_handles_labels()
    assert "rgbdslam (colour: error, as on the right)" in labels
    (entry,) = (h for h, t in zip(*view.get_legend_handles_labels(), strict=True) if "colour" in t)
    assert entry.get_color() == points.cmap(0.5)
    # The errors over time, and their rms and mean computed here with NumPy.
    lines = {line.get_label().split()[0]: line for line in err.get_lines()}
    assert np.array_equal(lines["error"].get_ydata(), errors)
    t = result.series["translation"].stamps_s
    assert np.allclose(lines["error"].get_xdata(), t - t[0], rtol=0, atol=1e-9)
    assert lines["rms"].get_ydata()[0] == pytest.approx(np.sqrt(np.mean(errors**2)), rel=1e-12)
    assert lines["mean"].get_ydata()[0] == pytest.approx(np.mean(errors), rel=1e-12)
    assert err.get_title() == "APE over time"


def test_plot_draws_the_signals_asked_for(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> None:
    pytest.importorskip("matplotlib")
    pairs = (PairSettings(delta=1.0, delta_unit="s"), PairSettings(delta=2.0, delta_unit="s"))
    result = rpe(*fr1, pairs=pairs)
    names = [s.name for s in result.comparison.signals if s.quantity == "translation"]
    assert len(names) == 2
    fig = result.plot(names, title="two deltas", label="slam")
    err = fig.axes[1]
    drawn = {line.get_label(): line for line in err.get_lines()}
    assert set(drawn) == {"1 s", "2 s"}
    for name, text in zip(names, ("1 s", "2 s"), strict=True):
        assert np.array_equal(drawn[text].get_ydata(), result.series[name].errors)
    assert err.get_title() == "two deltas"


def test_plot_refuses_a_signal_the_result_does_not_hold(result: EvaluationResult) -> None:
    with pytest.raises(ValidationError, match="angle_deg"):
        result.plot(["angle_deg"])


def test_plot_without_matplotlib_names_the_extra(
    result: EvaluationResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # an import of it fails
    with pytest.raises(MissingDependencyError, match=r"pip install 'robot_msgs\[plot\]'"):
        result.plot()


def test_one_signal_name_is_a_name_and_a_path_is_refused_with_the_way_to_save(
    result: EvaluationResult,
) -> None:
    """`result.plot("ape.png")` read the path letter by letter ("got list ['a', 'p', ...]")."""
    assert result.plot("translation") is not None
    with pytest.raises(ValidationError, match=r"result\.plot\(\)\.savefig\(path\)\), got str 'ape"):
        result.plot("ape.png")


def test_a_drift_result_is_drawn_as_drift_plot_draws_it(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """Every signal of a drift went on one axis (% beside deg/m, each length twice in
    the legend, "per frame"); drift --plot draws the translation in % per length at
    each segment's start (a review)."""
    pytest.importorskip("matplotlib")
    result = kitti_drift(*fr1, lengths_m=(0.25, 0.5), step_frames=5)
    fig = result.plot()
    err = fig.axes[1]
    assert err.get_title() == "KITTI drift: translation error per segment [%]"
    assert err.get_ylabel().endswith("[%]")
    assert err.get_xlabel().startswith("segment start")
    drawn = [line.get_label() for line in err.get_lines() if not line.get_label().startswith("_")]
    assert drawn == ["0.25 m", "0.5 m"]
    assert [s.quantity for s in result.segment_signals()] == ["translation_pct"] * 2


def test_a_drift_in_seconds_is_titled_per_second(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """kitti_drift(lengths_s=) drew its m/s per length under "KITTI_DRIFT over time (at
    pair start)", the metric's name; drift --seconds's figure said "translation error per
    segment" as the devkit's in %. Both now say per second, in m/s."""
    pytest.importorskip("matplotlib")
    result = kitti_drift(*fr1, lengths_s=(1.0, 2.0))
    err = result.plot().axes[1]
    assert err.get_title() == "KITTI drift per second: translation error [m/s]"
    assert err.get_ylabel() == "translation error per second [m/s]"
    drawn = [line.get_label() for line in err.get_lines() if not line.get_label().startswith("_")]
    assert drawn == ["1 s", "2 s"]


@pytest.mark.parametrize(
    ("lengths", "chosen", "heading"),
    [
        (
            {"lengths_s": (1.0, 2.0)},
            ["rotation_deg_per_s@1s", "rotation_deg_per_s@2s"],
            "KITTI drift per second: rotation error [deg/s]",
        ),
        (
            {"lengths_m": (0.25, 0.5), "step_frames": 5},
            ["rotation_deg_per_m@0.25m", "rotation_deg_per_m@0.5m"],
            "KITTI drift: rotation error per segment [deg/m]",
        ),
    ],
)
def test_a_drift_of_rotation_is_titled_rotation_in_its_unit(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
    lengths: dict[str, Any],
    chosen: list[str],
    heading: str,
) -> None:
    """The rotation per length (deg/s, deg/m) was drawn under "KITTI drift per second:
    translation error [m/s]" and "KITTI drift: translation error per segment": the title
    said translation whatever was drawn. It names what the axis draws, in its unit."""
    pytest.importorskip("matplotlib")
    err = kitti_drift(*fr1, **lengths).plot(chosen).axes[1]
    assert err.get_title() == heading
    assert err.get_ylabel().startswith("rotation error per ")
    assert "translation" not in err.get_title()


def test_plot_takes_a_quantity_for_every_length_as_res_signal_does(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """``res --signal yaw_world_deg`` keeps rpg's yaw at every length; ``plot(
    "yaw_world_deg")`` was refused ("expected signal names, one of ..."): the two
    selections were written apart (cli/res.py and here). fr1_xyz's 9.15 m reference gives
    rpg's lengths 0.91 .. 4.57 m (10 .. 50 %)."""
    pytest.importorskip("matplotlib")
    result = relative_error(*fr1)
    fig = result.plot("yaw_world_deg")
    err = fig.axes[1]
    drawn = [line.get_label() for line in err.get_lines() if not line.get_label().startswith("_")]
    assert drawn == ["0.91 m", "1.83 m", "2.74 m", "3.66 m", "4.57 m"]
    assert err.get_ylabel().endswith("[deg]")
    with pytest.raises(ValidationError, match=r"yaw_world_deg@0\.91m"):
        result.plot("yaw")  # refused, naming what it takes


@pytest.mark.parametrize("plane", ["XY", "ab", "x", "xyzz", "xx", "zx"])
def test_a_plane_that_is_none_of_the_planes_is_refused(
    result: EvaluationResult, plane: str
) -> None:
    pytest.importorskip("matplotlib")
    with pytest.raises(
        ValidationError, match=r"^Expected `plane` as one of 'xy', 'xz', 'yz', 'xyz'"
    ):
        result.plot(plane=plane)


def test_a_result_without_poses_says_what_draws_it() -> None:
    """An evo zip's result keeps its errors only: plot() raised NumPy's IndexError."""
    pytest.importorskip("matplotlib")
    zipped = read_evo_result(Path(__file__).parents[1] / "data/evo_results/fr1_xyz_ape_se3.zip")
    with pytest.raises(ValidationError, match=r"res --plot, draws them"):
        zipped.plot()


def test_a_drift_of_translation_and_rotation_names_each_curve_by_its_quantity(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """Translation in % and rotation in deg/m at 0.25 m, drawn on one axis, were both
    "0.25 m" in the legend and the axis said "translation error per segment [%]" only:
    the deg/m curve passed for a translation (seen as PNG, a review). Each curve now
    names its quantity and length, and the axis both units."""
    pytest.importorskip("matplotlib")
    chosen = ["translation_pct@0.25m", "rotation_deg_per_m@0.25m"]
    err = kitti_drift(*fr1, lengths_m=(0.25, 0.5), step_frames=5).plot(chosen).axes[1]
    legend = [t.get_text() for t in err.get_legend().get_texts()]
    assert legend == [
        "translation error per 0.25 m segment [%]",
        "rotation error per 0.25 m segment [deg/m]",
    ]
    assert err.get_ylabel() == "error [%, deg/m]"
    # Both labels joined ("... segment [%] and rotation error per segment [deg/m]")
    # ran past the figure's right edge, cut at "[d": the curves say them, the title not.
    assert err.get_title() == "KITTI drift per segment"
