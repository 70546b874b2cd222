"""Figures a reviewer would send back, each checked on the drawn Matplotlib or plotly objects.

Short legend names (file stem, ``--label``), one label per quantity, the reference in
every view, 3-D ticks that do not overprint, drift drawn where its axis says, ``res``
with frames, evo's distances, named boxes and violins and a histogram legend.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from itertools import combinations, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io import read_trajectory
from robot_msgs.io.evo_results import read_evo_result
from robot_msgs.report import figures
from robot_msgs.report.figures import evaluation_figure, overlay_figure
from robot_msgs.report.plots import results_figure
from robot_msgs.report.saved_results import error_distances_m
from tests.cli.evaluation_files import line_positions, write_kitti

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.trajectory import PoseTrajectory

pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).parents[2] / "src" / "robot_msgs" / "examples" / "fr1_xyz"
EVO_ZIP = Path(__file__).parents[1] / "data" / "evo_results" / "fr1_xyz_ape_se3.zip"


@pytest.fixture(scope="module")
def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    return read_trajectory(EXAMPLES / "groundtruth.tum"), read_trajectory(EXAMPLES / "rgbdslam.tum")


@pytest.fixture(scope="module")
def result(fr1: tuple[PoseTrajectory, PoseTrajectory]) -> EvaluationResult:
    return ape(*fr1, settings=EvaluationSettings(align="se3"))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The figures the commands draw, kept instead of saved."""
    figs: list[Any] = []

    def keep(fig: Any, path: Any, **_: Any) -> Path:
        figs.append(fig)
        return Path(path)

    monkeypatch.setattr(figures, "save_figure", keep)
    return figs


def _texts(fig: Any) -> list[str]:
    from matplotlib.text import Text

    return [t.get_text() for t in fig.findobj(Text) if t.get_text()]


def _legend(ax: Any) -> list[str]:
    legend = ax.get_legend()
    assert legend is not None, f"no legend on {ax.get_title()!r}"
    return [t.get_text() for t in legend.get_texts()]


def _figure_legend(fig: Any) -> list[str]:
    """The names of the one legend above ``res``'s panels (its panels have none)."""
    assert all(ax.get_legend() is None for ax in fig.axes)
    (legend,) = fig.legends
    return [t.get_text() for t in legend.get_texts()]


def _deep_copies(tmp_path: Path) -> tuple[str, str]:
    """The fr1 example under a long absolute path, as a user types it."""
    folder = tmp_path / "a" / "long" / "folder" / "of" / "runs"
    folder.mkdir(parents=True)
    ref = shutil.copy(EXAMPLES / "groundtruth.tum", folder / "groundtruth.tum")
    est = shutil.copy(EXAMPLES / "rgbdslam.tum", folder / "rgbdslam.tum")
    return str(ref), str(est)


# --- legends: the file stem, or --label --------------------------------------------------


def test_ape_legend_names_the_estimate_by_its_stem_not_its_path(
    tmp_path: Path, drawn: list[Any]
) -> None:
    ref, est = _deep_copies(tmp_path)
    assert main(["ape", ref, est, "--align", "se3", "--plot", str(tmp_path / "f.png")]) == 0
    (fig,) = drawn
    names = _legend(fig.axes[0])
    assert names == ["rgbdslam (colour: error, as on the right)", "reference"]
    assert not any(str(tmp_path) in text for text in _texts(fig))


def test_label_sets_each_estimates_legend_name(tmp_path: Path, drawn: list[Any]) -> None:
    ref, est = _deep_copies(tmp_path)
    other = str(Path(est).with_name("other.tum"))
    shutil.copy(est, other)
    plot = str(tmp_path / "f.png")
    flags = ["--label", "RGB-D SLAM", "--label", "copy", "--plot", plot]
    assert main(["ape", ref, est, other, *flags]) == 0
    (fig,) = drawn
    assert _legend(fig.axes[0]) == ["RGB-D SLAM", "copy", "reference"]
    assert _legend(fig.axes[1]) == ["RGB-D SLAM", "copy"]


def test_a_label_count_that_does_not_match_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --label count that does not fit the inputs is the command line's mistake, exit
    status 2 as --label without --plot (the README's 'not fitting the other flags or
    inputs'); it was 1, a file's (a review)."""
    ref, est = _deep_copies(tmp_path)
    plot = str(tmp_path / "f.png")
    assert main(["ape", ref, est, "--label", "a", "--label", "b", "--plot", plot]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"ERROR: --label a b: 2 given for 1 input ({est}); give one per input, in order"]
    assert not Path(plot).exists()
    assert main(["ape", ref, est, "--label", "a"]) == 2
    assert "give --plot FILE too" in capsys.readouterr().err


def test_traj_legend_uses_stems_and_labels(tmp_path: Path, drawn: list[Any]) -> None:
    ref, est = _deep_copies(tmp_path)
    plot = str(tmp_path / "t.png")
    assert main(["traj", est, "--ref", ref, "--plot", plot]) == 0
    assert main(["traj", est, "--ref", ref, "--plot", plot, "--force", "--label", "SLAM"]) == 0
    assert [_legend(fig.axes[0]) for fig in drawn] == [
        ["reference", "rgbdslam"],
        ["reference", "SLAM"],
    ]


# --- one label per quantity; the reference in every view; 3-D ticks -------------------------


def test_the_error_quantity_is_labelled_once(result: EvaluationResult) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t")
    fig.canvas.draw()
    assert _texts(fig).count("translation error [m]") == 1
    colourbar = next(ax for ax in fig.axes if ax.get_label() == "<colorbar>")
    assert colourbar.get_ylabel() == ""
    assert fig.axes[1].get_ylabel() == "translation error [m]"


@pytest.mark.parametrize("plane", ["xy", "xyz"])
def test_the_reference_is_drawn_above_the_coloured_estimate(
    result: EvaluationResult, plane: str
) -> None:
    fig = evaluation_figure([("est", result)], result.comparison.signals, title="t", plane=plane)
    view = fig.axes[0]
    (reference,) = [line for line in view.get_lines() if line.get_label() == "reference"]
    (points,) = view.collections
    assert reference.get_zorder() > points.get_zorder()
    if plane == "xyz":  # by depth, the points hid the line: the order given is kept
        assert view.computed_zorder is False
    xy = np.asarray(reference.get_data(), dtype=float).T
    assert np.allclose(xy, result.reference.positions_xyz[:, :2])


def test_the_overlay_draws_the_reference_on_top(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    ref, est = fr1
    fig = overlay_figure(ref, [("est", est)], plane="xyz")
    view = fig.axes[0]
    lines = {line.get_label(): line for line in view.get_lines()}
    assert view.computed_zorder is False
    assert lines["reference"].get_zorder() > lines["est"].get_zorder()


@pytest.mark.parametrize("kind", ["evaluation", "overlay"])
def test_3d_tick_labels_do_not_overprint(
    result: EvaluationResult, fr1: tuple[PoseTrajectory, PoseTrajectory], kind: str
) -> None:
    if kind == "evaluation":
        fig = evaluation_figure(
            [("est", result)], result.comparison.signals, title="t", plane="xyz"
        )
    else:
        fig = overlay_figure(fr1[0], [("est", fr1[1])], plane="xyz")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    view = fig.axes[0]
    low, high = view.get_zlim()
    shown = [t.label1 for t in view.zaxis.get_major_ticks() if low <= t.get_loc() <= high]
    texts = [*shown, view.zaxis.label]
    boxes = [t.get_window_extent(renderer) for t in texts]
    assert len(shown) >= 2
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)
    # Nor over the colour bar or the next panel (before: the z label ran into both).
    for ax in fig.axes[1:]:
        other = ax.get_tightbbox(renderer)
        for text, box in zip(texts, boxes, strict=True):
            assert not box.overlaps(other), (text.get_text(), ax.get_label() or ax.get_ylabel())


# --- drift: drawn at segment starts, and said so ------------------------------------------


def test_drift_is_drawn_at_segment_starts_and_says_so(tmp_path: Path, drawn: list[Any]) -> None:
    x = np.arange(301.0)  # 1 m a frame
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x * 1.02))
    assert main(["drift", str(ref), str(est), "--plot", str(tmp_path / "d.png")]) == 0
    (fig,) = drawn
    err = fig.axes[1]
    assert "end" not in err.get_title()
    assert err.get_xlabel() == "segment start: frame"
    lines = {line.get_label(): line for line in err.get_lines()}
    # By hand: starts every 10th frame; a 100 m segment ends at the first frame past
    # start + 100 m (start + 101), which must exist (<= 300): starts 0, 10, ..., 190.
    assert np.asarray(lines["100 m"].get_xdata()).tolist() == list(range(0, 200, 10))
    assert np.asarray(lines["200 m"].get_xdata()).tolist() == list(range(0, 100, 10))


def test_res_of_a_drift_says_segment_start_as_drift_plot_does(
    tmp_path: Path, drawn: list[Any]
) -> None:
    # One wording from one place: drift --plot said "segment start: frame" and res of
    # the same saved result "frame", titled "error per frame" (a review).
    from robot_msgs.report.interactive import results_plots

    x = np.arange(301.0)  # 1 m a frame
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x * 1.02))
    saved = tmp_path / "d.json"
    argv = ["drift", str(ref), str(est), "--save", str(saved), "--plot", str(tmp_path / "d.png")]
    assert main(argv) == 0
    (plot,) = drawn
    said = plot.axes[1].get_xlabel()
    assert said == "segment start: frame"
    assert main(["res", str(saved), "--plot", str(tmp_path / "r.png")]) == 0
    res = drawn[1].axes[0]
    assert res.get_xlabel() == said
    assert res.get_title() == "error over frames (at segment start)"
    plots = {kind: spec for kind, _, spec in results_plots([(str(saved), _read(saved))])}
    layout = plots["error_over_time"]["layout"]
    assert layout["xaxis"]["title"]["text"] == said


def test_a_drift_without_pairs_is_still_drawn_at_its_segments_start(tmp_path: Path) -> None:
    # A saved drift whose series lost their pairs (optional in the file) is still one of
    # segments: drawn_at said "" there, and res drew its axis "frame", not the start.
    x = np.arange(301.0)  # 1 m a frame
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x * 1.02))
    saved = tmp_path / "d.json"
    assert main(["drift", str(ref), str(est), "--save", str(saved), "--quiet"]) == 0
    result = _read(saved)
    unpaired = [
        s.replace(series=s.series.replace(pairs=None)) if s.series is not None else s
        for s in result.comparison.signals
    ]
    loose = result.replace(comparison=result.comparison.replace(signals=tuple(unpaired)))
    assert {figures.drawn_at(loose, s) for s in loose.segment_signals()} == {"segment start"}
    fig = results_figure([("d.json", loose)])
    assert fig.axes[0].get_xlabel() == "segment start: frame"


def test_rpe_title_says_where_its_errors_are_drawn_not_per_frame(
    tmp_path: Path, drawn: list[Any]
) -> None:
    # "RPE per frame, delta 10 m, 100 m" read as normalised per frame (a review): each
    # error is of a 10 m pair, drawn at the pair's end frame, as the axis says.
    x = np.arange(301.0)  # 1 m a frame
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x * 1.02))
    argv = ["rpe", str(ref), str(est), "--delta", "10", "100", "--delta-unit", "m"]
    assert main([*argv, "--plot", str(tmp_path / "r.png")]) == 0
    err = drawn[0].axes[1]
    assert err.get_xlabel() == "pair end: frame"
    assert err.get_title() == "RPE over frames (at pair end), delta 10 m, 100 m"


def _read(path: Path) -> EvaluationResult:
    from robot_msgs.report.saved_results import load_saved_results

    ((_, loaded),) = load_saved_results([path])
    return loaded


# --- res ------------------------------------------------------------------------------------


def _evo_distances() -> Any:
    with zipfile.ZipFile(EVO_ZIP) as z:
        return np.load(io.BytesIO(z.read("distances_from_start.npy")))


def test_res_names_every_panel_and_draws_evos_distances(result: EvaluationResult) -> None:
    named = [("runs/ours/a.json", result), (str(EVO_ZIP), read_evo_result(EVO_ZIP))]
    # As res does: evo's distances are read from its zip by the saved-results road.
    firsts = [(p, r, r.comparison.signals[0].series) for p, r in named]
    distances = [error_distances_m(p, r, s) for p, r, s in firsts if s is not None]
    fig = results_figure(named, distances=distances)
    over_time, over_distance, box, violin, _ = fig.axes
    names = ["a", "fr1_xyz_ape_se3"]
    # One legend above the panels: at "best" in each, it sat on the curves that fill them.
    assert _figure_legend(fig) == names
    for ax in (box, violin):
        assert [t.get_text() for t in ax.get_xticklabels()] == names
    evo_line = over_distance.get_lines()[1]
    assert np.allclose(evo_line.get_xdata(), np.sort(_evo_distances()))
    assert over_time.get_xlabel() == "time since the result's first error [s]"


def test_res_labels_frame_indices_as_frames(result: EvaluationResult) -> None:
    frames = result.replace(estimate=result.estimate.replace(stamps_are_frames=True))
    fig = results_figure([("k.json", frames)], labels=["KITTI 00"])
    assert fig.axes[0].get_xlabel() == "frame"
    # It said "error over time", then "error per frame", which read as normalised (a review).
    assert fig.axes[0].get_title() == "error over frames"
    assert _figure_legend(fig) == ["KITTI 00"]


def test_res_html_figures_name_results_and_draw_evos_distances(result: EvaluationResult) -> None:
    from robot_msgs.report.interactive import results_plots

    frames = result.replace(estimate=result.estimate.replace(stamps_are_frames=True))
    named = [("/deep/path/k.json", frames), (str(EVO_ZIP), read_evo_result(EVO_ZIP))]
    plots = {kind: spec for kind, _, spec in results_plots(named)}
    for spec in plots.values():
        assert [trace["name"] for trace in spec["data"]] == ["k", "fr1_xyz_ape_se3"]
    over_time = plots["error_over_time"]["layout"]["xaxis"]["title"]["text"]
    assert over_time == "time since the result's first error [s], or frame (KITTI)"
    evo = plots["error_over_distance"]["data"][1]
    assert np.allclose(evo["x"], np.sort(_evo_distances()), rtol=0, atol=1e-5)
    assert all(trace["spanmode"] == "hard" for trace in plots["violin"]["data"])


def test_res_html_violins_draw_what_res_plots_violins_do(result: EvaluationResult) -> None:
    """``res --html``'s violins had plotly.js's box inside and their outliers as dots, which
    ``res --plot``'s (matplotlib's: the shape, min to max) have not: the box panel beside
    them drawn again, one figure description drawn two ways (seen side by side in a
    review's screenshots). Both draw the shape alone, from the least error to the largest."""
    from robot_msgs.report.interactive import results_plots

    named = [("a.json", result), (str(EVO_ZIP), read_evo_result(EVO_ZIP))]
    violins = {kind: spec for kind, _, spec in results_plots(named)}["violin"]["data"]
    assert [v["type"] for v in violins] == ["violin", "violin"]
    assert [(v["box"].get("visible"), v.get("points")) for v in violins] == [(False, False)] * 2
    violin = results_figure(named).axes[3]
    assert len(violin.patches) == len(violin.lines) == 0  # no box drawn there either
    assert len(violin.collections) == 2 * 4  # each: its body, extremes' and centre bars


# --- the static report's figures ------------------------------------------------------------


def test_every_static_report_text_lies_inside_its_figure() -> None:
    # The latency CDF's title was wider than its 9 in figure: both ends were cut off.
    from matplotlib.text import Text

    from robot_msgs.report import build_report, figure_spec
    from robot_msgs.report.plots import matplotlib_figure
    from robot_msgs.runs import load_runs
    from tests.report.conftest import example_manifest

    report = build_report(load_runs([example_manifest()]))
    sequences = sorted({r.sequence for r in report.report.runs})
    specs = [("comparison", figure_spec.comparison_spec(report))]
    specs.append(("latency", figure_spec.latency_cdf_spec(report)))
    per_sequence = (
        figure_spec.trajectories_spec,
        figure_spec.error_over_time_spec,
        figure_spec.rpe_box_spec,
        figure_spec.repeatability_spec,
    )
    specs += [(f"{f.__name__} {s}", f(report, s)) for s in sequences for f in per_sequence]
    drawn = [(name, matplotlib_figure(spec)) for name, spec in specs if spec is not None]
    assert len(drawn) >= 8
    for name, fig in drawn:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        ticks = {
            id(label)
            for ax in fig.axes
            for axis in (ax.xaxis, ax.yaxis)
            for label in [*axis.get_ticklabels(which="both"), axis.get_offset_text()]
        }
        for text in fig.findobj(Text):
            if id(text) in ticks or not (text.get_visible() and text.get_text()):
                continue
            box = text.get_window_extent(renderer)
            inside = box.x0 >= -0.5 and box.x1 <= fig.bbox.width + 0.5
            inside = inside and box.y0 >= -0.5 and box.y1 <= fig.bbox.height + 0.5
            assert inside, (name, text.get_text())


def _saved_ape(tmp_path: Path) -> tuple[Path, str]:
    """An ``ape --align se3`` result saved as ``ours.json``, and a plot path beside it."""
    ref, est = _deep_copies(tmp_path)
    saved = tmp_path / "ours.json"
    assert main(["ape", ref, est, "--align", "se3", "--save", str(saved)]) == 0
    return saved, str(tmp_path / "r.png")


def test_res_label_names_each_result(
    tmp_path: Path, drawn: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    saved, plot = _saved_ape(tmp_path)
    flags = ["--label", "ours", "--label", "evo", "--plot", plot]
    assert main(["res", str(saved), str(EVO_ZIP), *flags]) == 0
    (fig,) = drawn
    assert _figure_legend(fig) == ["ours", "evo"]
    assert [t.get_text() for t in fig.axes[2].get_xticklabels()] == ["ours", "evo"]
    capsys.readouterr()
    assert main(["res", str(saved), "--label", "a", "--label", "b", "--plot", plot]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --label a b: 2 given for 1 input ")


def test_every_result_keeps_its_own_legend_entry_and_box(
    tmp_path: Path, drawn: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    # `res r.json r.json --plot` (or `--label a --label a`) drew one legend entry for two
    # results and both boxes and violins over the first of two ticks of one name, the
    # second tick over nothing (matplotlib takes equal names for one category; a hunt).
    saved, plot = _saved_ape(tmp_path)
    assert main(["res", str(saved), str(saved), "--plot", plot]) == 0
    (fig,) = drawn
    assert _figure_legend(fig) == ["ours", "ours (2)"]
    for ax in fig.axes[2:4]:  # box and violin: a tick of its own under each
        assert [t.get_text() for t in ax.get_xticklabels()] == ["ours", "ours (2)"]
        assert list(ax.get_xticks()) == [0, 1]
    capsys.readouterr()
    flags = ["--label", "a", "--label", "a", "--plot", plot]
    assert main(["res", str(saved), str(EVO_ZIP), *flags]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --label a a: 'a' given twice; give each input a name of its own\n"
    )
    # A blank label drew a legend entry of no name (a review): refused the same way
    assert (
        main(["res", str(saved), str(EVO_ZIP), "--label", "a", "--label", " ", "--plot", plot]) == 2
    )
    assert capsys.readouterr().err == (
        "ERROR: --label a ' ': ' ' is blank; give each input a name that shows\n"
    )
    # The echo showed `--label a`, the blank lost: each value is shown as typed
    assert (
        main(["res", str(saved), str(EVO_ZIP), "--label", "my run", "--label", "", "--plot", plot])
        == 2
    )
    assert capsys.readouterr().err == (
        "ERROR: --label 'my run' '': '' is blank; give each input a name that shows\n"
    )


def test_the_success_labels_sit_above_the_error_bars() -> None:
    # "2/2 ok" was drawn at the bar's top, where the min-max error bar ran through it.
    from robot_msgs.report import build_report
    from robot_msgs.report.figure_spec import comparison_spec
    from robot_msgs.report.plots import matplotlib_figure
    from robot_msgs.runs import load_runs
    from tests.report.conftest import example_manifest

    report = build_report(load_runs([example_manifest()]))
    spec = comparison_spec(report)
    assert spec is not None
    ax = matplotlib_figure(spec).axes[0]
    # Each group's largest APE RMSE over its successful runs, from the report itself.
    maxima = sorted(
        g.accuracy.stats["translation"].max
        for g in report.report.groups
        if g.accuracy is not None and g.accuracy.stats["translation"].n
    )
    anchors = sorted(float(t.xy[1]) for t in ax.texts if t.get_text().endswith(" ok"))
    assert anchors == pytest.approx(maxima)


def test_the_success_labels_stay_inside_the_axes() -> None:
    # Above the whiskers, the tallest group's "2/2 ok" (vio_ekf on fr1_xyz, whisker to
    # 0.0174 m) ran over the axes' top edge of report --static's accuracy figure: a
    # label offset in points is no data, so the y axis left it no room (a hunt).
    from robot_msgs.report import build_report
    from robot_msgs.report.figure_spec import comparison_spec
    from robot_msgs.report.plots import figure_png, matplotlib_figure
    from robot_msgs.runs import load_runs
    from tests.report.conftest import example_manifest

    spec = comparison_spec(build_report(load_runs([example_manifest()])))
    assert spec is not None
    fig = matplotlib_figure(spec)
    figure_png(fig)  # drawn as the page draws it: the layout is final
    (ax,) = fig.axes
    renderer = fig.canvas.get_renderer()
    labels = [t for t in ax.texts if t.get_text().endswith(" ok")]
    assert len(labels) == 6
    tops = [t.get_window_extent(renderer).y1 for t in labels]
    assert max(tops) < ax.get_window_extent(renderer).y1


LONG_STEMS = (
    "a_very_long_estimate_name_from_orbslam3_stereo_inertial",
    "b_another_quite_long_estimate_name_vins_fusion_mono",
    "c_short",
)


def test_long_names_neither_squeeze_the_view_nor_leave_the_image(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # `traj gt.tum <three estimates with long stems> --plot`: two columns of names were
    # wider than the view; the layout squeezed it from 470 to 327 pixels and the legend
    # started 3 pixels left of the image (a hunt). One column of them fits.
    ref, est = fr1
    widths = []
    for names in (("a", "b", "c"), LONG_STEMS):
        fig = overlay_figure(ref, [(name, est) for name in names])
        fig.draw_without_rendering()
        view = fig.axes[0]
        legend = view.get_legend().get_window_extent()
        assert 0 <= legend.x0 < legend.x1 <= fig.bbox.width
        widths.append(view.bbox.width)
    assert widths[1] == pytest.approx(widths[0], rel=0.02)


def test_the_views_legend_lies_just_under_its_axis_labels(
    fr1: tuple[PoseTrajectory, PoseTrajectory], result: EvaluationResult
) -> None:
    # `traj --ref gt.tum est1 est2 --plot`: the view, four rows tall, had its legend
    # 0.14 of its height under it (about 1 in), a white band of some 100 pixels at 150
    # dpi under its x label (a review). It lies a few points under the label, in a tall
    # view as in ape's short one, never on it.
    ref, est = fr1
    signal = result.comparison.signals[0]
    for fig in (
        overlay_figure(ref, [("a", est), ("b", est)]),
        evaluation_figure([("a", result), ("b", result)], [signal], title="t"),
    ):
        fig.draw_without_rendering()
        view = fig.axes[0]
        labels = view.xaxis.get_tightbbox(fig.canvas.get_renderer())
        legend = view.get_legend().get_window_extent()
        band_in = (labels.y0 - legend.y1) / fig.dpi
        assert 0 < band_in < 0.15, band_in


def test_the_error_legend_of_several_estimates_lies_on_no_curve(result: EvaluationResult) -> None:
    # `ape gt est1 est2 est3 --plot`: the legend of the estimates' names, at "best" inside
    # the error axes, lay over the curves' peaks (the top sixth of the axes; a hunt). It
    # is under the axes, as the view's is; one estimate's (error, rms, mean, median) stays.
    signal = result.comparison.signals[0]
    fig = evaluation_figure([(name, result) for name in LONG_STEMS], [signal], title="t")
    fig.draw_without_rendering()
    err = fig.axes[1]
    legend = err.get_legend().get_window_extent()
    assert legend.y1 < err.bbox.y0
    assert [t.get_text() for t in err.get_legend().get_texts()] == list(LONG_STEMS)
    one = evaluation_figure([("rgbdslam", result)], [signal], title="t")
    one.draw_without_rendering()
    err = one.axes[1]  # after the view; the colour bar is last
    inside = err.get_legend().get_window_extent()
    assert err.bbox.contains(inside.x0, inside.y0)
    assert err.bbox.contains(inside.x1, inside.y1)


def _line(n: int, scale: float = 1.0) -> PoseTrajectory:
    """x = k m (times ``scale``) at k s, k = 0 .. n - 1."""
    from robot_msgs.trajectory import PoseTrajectory

    t = np.arange(float(n))
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t * scale, 0 * t, 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)),
    )


def test_a_drift_is_drawn_where_its_segments_start_in_every_view() -> None:
    # `drift REF EST --lengths 400 --plot` put each segment's error at its start on the
    # time axis ("segment start: frame") but coloured the view at its end, 400 m on: the
    # first 400 m had no colour, and the 8 % segment of KITTI 00 lit up where it ended
    # (a hunt). res's error-over-distance panel had the same end. Segments of 100 m of a
    # 300 m line (x = k m at k s), one every 10 frames, start at 0, 10, ..., 190 m (the
    # devkit's segment ends where the path first exceeds 100 m: from 200 m, never).
    from robot_msgs.evaluation import kitti_drift
    from robot_msgs.report.figures import reference_distances_m

    result = kitti_drift(_line(301), _line(301, 1.02), lengths_m=[100.0], step_frames=10)
    fig = result.plot(plane="xy")
    (points,) = fig.axes[0].collections
    starts = np.arange(0.0, 191.0, 10.0)
    assert np.allclose(points.get_offsets()[:, 0], 1.02 * starts)  # the estimate's x there
    (signal,) = result.segment_signals()[:1]
    assert signal.series is not None
    assert np.allclose(signal.series.stamps_s, starts)  # the time axis: the same poses
    distances = reference_distances_m(result, signal.series)
    assert distances is not None
    assert np.allclose(distances, starts)


@pytest.mark.parametrize(("protocol", "place"), [("evo", "end"), ("tum", "start")])
def test_an_rpe_is_drawn_at_the_pose_of_a_pair_its_axis_names(protocol: str, place: str) -> None:
    # `rpe --plot` drew each pair's error at its stamp with no word of which pose that
    # is (drift says "segment start"); with --protocol tum (stamped at the pair's start,
    # as evaluate_rpe.py) the view coloured the pair's end (a hunt). A 300 m line, x =
    # 1.02 k m at k s in the estimate: a point drawn at time t lies at x = 1.02 t. Pairs
    # 10 frames apart: evo's consecutive (0, 10) ... (290, 300), at their ends 10 ... 300;
    # TUM's from every pose, the first (0, 10) at its start, 0.
    from robot_msgs.evaluation import PairSettings, rpe

    pairs = PairSettings(delta=10.0, delta_unit="f", protocol=protocol)  # type: ignore[arg-type]
    result = rpe(_line(301), _line(301, 1.02), pairs=pairs)
    fig = result.plot(plane="xy")
    view, err = fig.axes[:2]
    assert err.get_xlabel() == f"pair {place}: time since the first matched pose [s]"
    (line,) = [line for line in err.get_lines() if line.get_label() == "error"]
    at = np.asarray(line.get_xdata(), dtype=float)
    if protocol == "evo":
        assert np.allclose(at, np.arange(10.0, 301.0, 10.0))
    assert at[0] == (0.0 if place == "start" else 10.0)
    (points,) = view.collections
    assert np.allclose(points.get_offsets()[:, 0], 1.02 * at)


def test_long_result_names_leave_the_res_figure_laid_out(result: EvaluationResult) -> None:
    # `res <two results with 55-character stems> evo.zip --plot`: slanted under the box
    # and violin axes, the names took more height than the row had; matplotlib warned
    # that its layout was not applied (axes sizes collapsed to zero), and titles,
    # labels and names ran into each other, the names cut at the image's
    # edge (a hunt). Under the axes a name longer than 28 characters keeps its first 13
    # and last 14 around an ellipsis; the figure's legend names it whole.
    named = [(f"{name}.json", result) for name in LONG_STEMS]
    fig = results_figure(named, labels=list(LONG_STEMS))
    figures.figure_bytes(fig, "png", 50)  # no UserWarning (an error here)
    box, violin = fig.axes[2:4]
    for ax in (box, violin):
        names = [t.get_text() for t in ax.get_xticklabels()]
        assert names == ["a_very_long_e…tereo_inertial", "b_another_qui…ns_fusion_mono", "c_short"]
        assert ax.get_window_extent().height > 100
    assert _figure_legend(fig) == list(LONG_STEMS)


def test_ten_results_names_do_not_run_into_each_other(result: EvaluationResult) -> None:
    # `res run_*.json --plot` of ten runs: names of 5 and 6 characters stood level under
    # the box and violin axes, about 31 pt apart, each some 36 pt wide, and ran into one
    # another ("run_1run_10run_2..."; a hunt): slanted where level ones do not fit.
    names = [f"run_{k}" for k in range(1, 11)]
    fig = results_figure([(f"{n}.json", result) for n in names], labels=names)
    figures.figure_bytes(fig, "png", 50)
    for ax in fig.axes[2:4]:
        assert [t.get_text() for t in ax.get_xticklabels()] == names
        assert all(t.get_rotation() > 0 for t in ax.get_xticklabels())
    # Three such names stand level, apart.
    fig = results_figure([(f"{n}.json", result) for n in names[:3]], labels=names[:3])
    figures.figure_bytes(fig, "png", 50)
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes[2:4]:
        labels = ax.get_xticklabels()
        assert all(t.get_rotation() == 0 for t in labels)
        boxes = [t.get_window_extent(renderer) for t in labels]
        assert all(a.x1 < b.x0 for a, b in pairwise(boxes))


def test_each_estimate_keeps_its_view_colour_over_several_deltas(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # `rpe gt est est2 --delta 1 2 --delta-unit s --plot`: each curve took the colour of
    # its estimate's place plus its delta's, so "est: 2 s" and "est2: 1 s" were both red,
    # the colour of est2 in the view beside them (a hunt). An estimate's curves have its
    # view colour; its deltas differ in line style.
    from robot_msgs.evaluation import PairSettings, rpe

    ref, est = fr1
    deltas = [PairSettings(delta=d, delta_unit="s") for d in (1.0, 2.0)]
    result = rpe(ref, est, settings=EvaluationSettings(align="se3"), pairs=deltas)
    fig = evaluation_figure(
        [("est", result), ("est2", result)], result.comparison.signals, title="t"
    )
    view, err = fig.axes[:2]
    colours = {line.get_label(): line.get_color() for line in view.get_lines()}
    curves = {line.get_label(): line for line in err.get_lines()}
    assert sorted(curves) == ["est2: 1 s", "est2: 2 s", "est: 1 s", "est: 2 s"]
    for name in ("est", "est2"):
        one, two = curves[f"{name}: 1 s"], curves[f"{name}: 2 s"]
        assert one.get_color() == two.get_color() == colours[name]
        assert one.get_linestyle() != two.get_linestyle()
    assert colours["est"] != colours["est2"]


def test_more_results_than_colours_are_told_apart(result: EvaluationResult) -> None:
    # `res run_*.json --plot` of ten runs: eight colours, so run_9 was drawn as run_1
    # and run_10 as run_2, in the legend too (a hunt). Past eight, a new line style.
    names = [f"run_{k}" for k in range(1, 11)]
    fig = results_figure([(f"{n}.json", result) for n in names], labels=names)
    over_time = fig.axes[0]
    styles = {(line.get_color(), line.get_linestyle()) for line in over_time.get_lines()}
    assert len(styles) == 10
    # The histograms' outlines too: drawn solid whatever their dash, run_9's was run_1's
    # beside a legend that dashed it (a hunt).
    outlines = fig.axes[4].patches
    drawn = {(tuple(p.get_edgecolor()), p.get_linestyle()) for p in outlines}
    assert len(outlines) == len(drawn) == 10


def test_nine_estimates_are_nine_curves(result: EvaluationResult) -> None:
    # Past the eight colours, the ninth estimate's error curve was the first's, colour
    # and line; the view already drew it in another style (a hunt).
    names = [f"est{k}" for k in range(1, 10)]
    fig = evaluation_figure([(n, result) for n in names], result.comparison.signals, title="t")
    for ax in fig.axes[:2]:
        lines = [line for line in ax.get_lines() if line.get_label() in names]
        assert len({(line.get_color(), line.get_linestyle()) for line in lines}) == 9


def _over_two_deltas(fr1: tuple[PoseTrajectory, PoseTrajectory], count: int) -> Any:
    """The ``rpe --plot`` figure of ``count`` estimates ``e1``... over deltas of 1 and 2 s."""
    from robot_msgs.evaluation import PairSettings, rpe

    ref, est = fr1
    deltas = [PairSettings(delta=d, delta_unit="s") for d in (1.0, 2.0)]
    result = rpe(ref, est, settings=EvaluationSettings(align="se3"), pairs=deltas)
    names = [f"e{k}" for k in range(1, count + 1)]
    return evaluation_figure([(n, result) for n in names], result.comparison.signals, title="t")


def test_ten_estimates_over_two_deltas_are_twenty_curves(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # `rpe gt e1 .. e10 --delta 1 2 --delta-unit s --plot`: a delta a line style, the
    # colours round past eight, so e9's "1 s" was e1's, blue and solid (a hunt). A
    # colour's curves take the styles in turn: e9's dotted and dash-dotted.
    fig = _over_two_deltas(fr1, 10)
    curves = {line.get_label(): line for line in fig.axes[1].get_lines()}
    looks = {
        name: (line.get_color(), line.get_linestyle(), line.get_marker())
        for name, line in curves.items()
    }
    assert len(looks) == len(set(looks.values())) == 20
    blue = figures.PALETTE[0]
    assert looks["e1: 1 s"] == (blue, "-", "None")
    assert looks["e9: 1 s"] == (blue, ":", "None")
    assert looks["e9: 2 s"] == (blue, "-.", "None")


def test_twenty_estimates_over_two_deltas_are_forty_curves(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    # Past two rounds of the colours the line styles come round too: marks tell them.
    fig = _over_two_deltas(fr1, 20)
    lines = [line for line in fig.axes[1].get_lines() if ":" in str(line.get_label())]
    looks = {(line.get_color(), line.get_linestyle(), line.get_marker()) for line in lines}
    assert len(lines) == len(looks) == 40
