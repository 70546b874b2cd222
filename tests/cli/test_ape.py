"""``robot-msgs ape``: the table, --json, --save, --plot, and one-line errors."""

from __future__ import annotations

import json
import shlex
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import robot_msgs
from robot_msgs import progress
from robot_msgs.cli import main
from robot_msgs.errors import AlignmentError, DataWarning
from robot_msgs.evaluation import (
    EvaluationSettings,
    ape,
    apply_transforms,
    entry,
    estimate_extrinsic,
)
from robot_msgs.io import read_trajectory, read_tum, write_trajectory
from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory
from tests.cli.evaluation_files import (
    line_positions,
    numbered_table,
    seed_files,
    stats_of,
    write_kitti,
    write_tum,
)
from tests.terminal import Terminal

T = np.arange(101.0) * 0.1


def test_seed_offset_through_the_command_line_gives_0_100000(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.1)
    assert main(["ape", str(ref), str(est), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert f"{stats_of(result)['translation']['rms']:.6f}" == "0.100000"
    assert result["metric"] == "ape"
    assert result["counts"]["matched"] == 101


def test_table_shows_settings_counts_and_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.01 * T)
    assert main(["ape", str(ref), str(est), "--relation", "x", "--max-diff", "0.02"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("APE (absolute pose error)\n")
    assert f"reference: {ref}" in out
    assert "settings:  --relation x --max-diff 0.02 (not aligned)\n" in out  # only what differs
    assert "poses:     reference 101, estimate 101, matched 101" in out
    row = next(line for line in out.splitlines() if line.startswith("x "))
    assert row.split()[1:4] == ["m", "101", "0.0578792"]


def _readme_main_job() -> list[str]:
    """The arguments of the README's first command after ``robot-msgs``."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    first = next(line for line in readme.splitlines() if "bin/robot-msgs " in line)
    return shlex.split(first.split("bin/robot-msgs ", 1)[1])


def test_the_readme_main_job_runs_on_the_shipped_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = _readme_main_job()
    assert args[:3] == ["ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]
    with warnings.catch_warnings():
        # Shown, not raised: the CLI prints data warnings as WARNING lines.
        warnings.simplefilter("default", DataWarning)
        code = main([*args, "--json"])
    captured = capsys.readouterr()
    assert code == 0
    result = json.loads(captured.out)
    assert result["settings"]["align"] == "se3"
    assert result["counts"]["estimate"] == 788
    assert 0.0 < stats_of(result)["translation"]["rms"] < 0.05
    assert "NOTE: se3 alignment fitted on" in captured.err
    # The ground truth's 4-decimal quaternions are rounding, not a problem (io/clean.py).
    assert "WARNING: " not in captured.err


def test_the_readme_main_job_prints_every_statistic_within_80_columns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 21: the table was 91 columns; folded, each of its 7 statistics is still there."""
    assert main(_readme_main_job()) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    heads = [line.split() for line in out.splitlines() if line.startswith("signal ")]
    assert [h for head in heads for h in head[2:]] == [
        "n", "rms", "mean", "median", "std", "min", "max"
    ]  # fmt: skip


def test_save_writes_json_and_refuses_to_clobber(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.1)
    out = tmp_path / "ape.json"
    assert main(["ape", str(ref), str(est), "--save", str(out)]) == 0
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert stats_of(saved["comparison"])["translation"]["rms"] == pytest.approx(0.1)
    out.write_text("keep me", encoding="utf-8")
    capsys.readouterr()
    assert main(["ape", str(ref), str(est), "--save", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ")
    assert "pass --force" in err
    assert len(err.strip().splitlines()) == 1
    assert out.read_text(encoding="utf-8") == "keep me"
    assert main(["ape", str(ref), str(est), "--save", str(out), "--force"]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["comparison"]["metric"] == "ape"


def _strict(text: str) -> object:
    def refuse(token: str) -> object:
        msg = f"non-standard JSON token {token}"
        raise AssertionError(msg)

    return json.loads(text, parse_constant=refuse)


def test_save_keeps_the_per_pose_errors_and_loads_back_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.01 * T)
    out = tmp_path / "ape.json"
    assert main(["ape", str(ref), str(est), "--align", "origin", "--save", str(out)]) == 0
    document = _strict(out.read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    series = document["comparison"]["signals"][0]["series"]
    errors = np.asarray(series["errors"]["data"])
    stamps = np.asarray(series["stamps_s"]["data"])
    assert errors.size == stamps.size == document["comparison"]["counts"]["matched"]
    rms = stats_of(document["comparison"])["translation"]["rms"]
    assert float(np.sqrt(np.mean(errors**2))) == pytest.approx(rms, rel=1e-12)
    loaded = robot_msgs.from_dict(document)
    reference = read_tum(ref)
    estimate = read_tum(est)
    again = ape(
        reference,
        estimate,
        settings=EvaluationSettings(align="origin"),
        reference_name=str(ref),
        estimate_name=str(est),
    )
    assert loaded == again


def test_json_output_is_strict_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = seed_files(tmp_path, T + 0.1)
    assert main(["ape", str(ref), str(est), "--json"]) == 0
    _strict(capsys.readouterr().out)


def test_plot_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    ref, est = seed_files(tmp_path, T + 0.01 * T)
    png = tmp_path / "ape.png"
    assert main(["ape", str(ref), str(est), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["ape", str(ref), str(est), "--plot", str(png)]) == 1
    assert "exists; pass --force" in capsys.readouterr().err


def test_degenerate_alignment_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.1)
    assert main(["ape", str(ref), str(est), "--align", "se3"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"ERROR: {est}: Cannot fit SE(3): the positions are collinear")


def test_missing_file_and_no_overlap_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, _ = seed_files(tmp_path, T)
    assert main(["ape", str(ref), str(tmp_path / "nope.tum")]) == 1
    assert capsys.readouterr().err.startswith("ERROR: ")
    later = write_tum(tmp_path / "later.tum", T + 100.0, line_positions(T))
    assert main(["ape", str(ref), str(later)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("ERROR: ")


def test_format_override_reads_kitti_poses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    positions = line_positions(np.arange(20.0))
    ref = write_kitti(tmp_path / "gt.txt", positions)
    est = write_kitti(tmp_path / "est.txt", positions + np.array([0.0, 0.5, 0.0]))
    assert main(["ape", str(ref), str(est), "--format", "kitti", "--json"]) == 0
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["rms"] == pytest.approx(0.5)


def test_kitti_frames_of_two_lengths_name_both_times_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both read without times, the estimate 5 frames late: paired from frame 0, silently
    (evo refuses: "data matrices must have the same shape")."""
    x = np.arange(20.0)
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x[5:]))
    assert main(["ape", str(ref), str(est), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith(
        f"WARNING: {est}: the reference's 20 and the estimate's 15 stamps are frame indices"
    )
    warning = captured.err.splitlines()[0]
    assert "give both times files (--ref-times, --est-times), or the offset" in warning
    # The offset counts frames here, as the stamps do: "--offset SECONDS" said seconds (a
    # user walk); the value is the 5 frames the estimate lacks, as given below.
    assert warning.endswith(
        "or the offset in frames (the stamps count frames): --offset 5 where the estimate "
        "lacks the reference's first 5 frames"
    )
    assert any("same frame" in note for note in json.loads(captured.out)["notes"])
    assert main(["ape", str(ref), str(est), "--offset", "5", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert stats_of(json.loads(captured.out))["translation"]["rms"] == pytest.approx(0.0)


def test_a_warning_of_the_evaluation_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI files of two lengths: the frame-count warning, then again as a NOTE (--json) or
    a note of the table, the NOTE in the library's words (`offset_s=5`; a review)."""
    x = np.arange(20.0)
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(x[5:]))
    assert main(["ape", str(ref), str(est), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("frame indices") == 1
    assert "offset_s=" not in captured.err
    # The JSON keeps it: it does not say the stamps were frames otherwise.
    assert any("same frame" in note for note in json.loads(captured.out)["notes"])
    assert main(["ape", str(ref), str(est)]) == 0
    captured = capsys.readouterr()
    assert "frame indices" in captured.err
    assert "frame indices" not in captured.out


def test_the_same_file_as_both_inputs_is_warned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ape E E` (or E and a link to it) printed an rmse of 1e-16 m without a word."""
    ref, _ = seed_files(tmp_path, T)
    link = tmp_path / "link.tum"
    link.symlink_to(ref)
    for est in (ref, link):
        assert main(["ape", str(ref), str(est)]) == 0
        captured = capsys.readouterr()
        spelt = "" if est == ref else f" ({ref})"  # the reference as given
        said = (
            f"{est}: the same file as the reference{spelt}, read the same way: "
            "the estimate is the reference before any transform or time offset"
        )
        assert captured.err == f"WARNING: {said}\n"
        notes = " ".join(captured.out.split("notes:")[1].split())
        assert said not in notes  # said once, as the warning
        assert "the estimate's stamps and poses are the reference's" in notes
        assert main(["ape", str(ref), str(est), "--json"]) == 0
        assert said in json.loads(capsys.readouterr().out)["notes"]  # kept in the result
    # Its copy under another name: the same stamps and poses, noted.
    copy = tmp_path / "copy.tum"
    copy.write_bytes(ref.read_bytes())
    assert main(["ape", str(ref), str(copy)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "the estimate's stamps and poses are the reference's" in captured.out


def test_the_same_file_moved_by_a_transform_is_not_warned_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ape E E --transform-left T` (T: 5 m along x) warned "every error is zero to float64
    rounding" as E was read, above a table of 5 m: the reading cannot know the transforms."""
    ref, _ = seed_files(tmp_path, T)
    shift = tmp_path / "shift.txt"  # 5 m along x: each error is T's 5 m
    shift.write_text("1 0 0 5\n0 1 0 0\n0 0 1 0\n0 0 0 1\n", encoding="utf-8")
    saved = tmp_path / "result.json"
    argv = ["ape", str(ref), str(ref), "--transform-left", str(shift), "--save", str(saved)]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "the same file as the reference" in captured.err  # still said
    assert "zero" not in captured.err + captured.out
    result = robot_msgs.io.result_files.load_result(saved)
    assert result.stats["translation"].min == pytest.approx(5.0, abs=1e-12)
    assert result.stats["translation"].max == pytest.approx(5.0, abs=1e-12)


def test_help_says_which_way_euroc_sensor_yaml_brings_a_camera_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The help named sensor.yaml under --transform-left only, and no direction: a user
    typing `--transform-left cam0/sensor.yaml` on V102 moved into cam0's frame got SE(3)
    APE rmse 0.111558 m, where `--transform-right cam0/sensor.yaml
    --invert-transform-right` gives back V102's own 0.0917473 m (measured, CLI)."""
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["ape", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert (
        "--invert-transform-right use the inverse of --transform-right FILE: with EuRoC's "
        "sensor.yaml (T_BS, body from sensor), what brings an estimate in the sensor's "
        "frame (cam0) to the IMU body"
    ) in words


def test_an_example_given_as_both_inputs_is_named_as_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`ape example:A example:A` warned "... the same file as the reference
    (/.../robot_msgs/examples/fr1_xyz/groundtruth.tum)", the installed file, where every
    other message names example:NAME as typed (a review)."""
    gt = "example:fr1_xyz/groundtruth.tum"
    assert main(["ape", gt, gt]) == 0
    assert capsys.readouterr().err == (
        f"WARNING: {gt}: the same file as the reference, read the same way: the estimate "
        "is the reference before any transform or time offset\n"
    )


def test_an_estimate_given_twice_is_warned_once(capsys: pytest.CaptureFixture[str]) -> None:
    """`ape REF A A` tabled two equal results without a word (a review)."""
    est = "example:fr1_xyz/rgbdslam.tum"
    assert main(["ape", "example:fr1_xyz/groundtruth.tum", est, est]) == 0
    assert capsys.readouterr().err == (
        f"WARNING: {est}: estimate #2 is the same file as estimate #1, read the same way: its "
        "results repeat #1's\n"
    )


@pytest.mark.evo_data
def test_bag_topics_select_the_trajectories(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bag = str(evo_data / "ROS_example.bag")
    code = main(
        [
            "ape",
            bag,
            bag,
            "--ref-topic",
            "groundtruth",
            "--est-topic",
            "S-PTAM",
            "--align",
            "se3",
            "--json",
        ]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["reference"].endswith("ROS_example.bag groundtruth")
    assert result["counts"]["estimate"] == 5439


def test_force_without_an_output_is_refused_naming_the_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T)
    assert main(["ape", str(ref), str(est), "--force"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --force only goes with --save, --save-aligned or --plot FILE "
        "(it lets them overwrite)\n"
    )


def test_save_to_standard_output_leaves_standard_output_to_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T + 0.1)
    assert main(["ape", str(ref), str(est), "--save", "-"]) == 0
    captured = capsys.readouterr()
    saved = json.loads(captured.out)  # the saved result alone, not mixed with the table
    assert stats_of(saved["comparison"])["translation"]["rms"] == pytest.approx(0.1, abs=1e-12)
    assert captured.err.startswith("APE (absolute pose error)\n")
    assert main(["ape", str(ref), str(est), "--save", "-", "--json"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --json and --save - both write to standard output; give --save a file\n"
    )


def test_a_plot_path_of_no_figure_format_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T)
    plot = tmp_path / "figure.jpg"
    assert main(["ape", str(ref), str(est), "--plot", str(plot)]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: --plot {plot}: expected a file name ending in .png, .pdf, .svg or .eps\n"
    )
    assert not plot.exists()


def test_save_into_a_missing_folder_is_refused_as_traj_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = seed_files(tmp_path, T)
    out = tmp_path / "reslts" / "ape.json"  # a typo of an existing folder's name
    assert main(["ape", str(ref), str(est), "--save", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: {out}: cannot write it: the folder {out.parent} does not exist\n"
    )
    assert not out.parent.exists()


def test_a_one_pose_estimate_is_evaluated_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, _ = seed_files(tmp_path, T)
    one = write_tum(tmp_path / "one.tum", np.array([0.5]), line_positions(np.array([0.7])))
    assert main(["ape", str(ref), str(one), "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"WARNING: {one}: 1 pose only (time span 0 s, no rate): nothing to evaluate; "
        "check that the file holds the whole trajectory\n"
    )
    # The one pose at x = 0.7 against the reference's x = 0.5: 0.2 m.
    stats = stats_of(json.loads(captured.out))["translation"]
    assert (stats["n"], stats["rms"]) == (1, pytest.approx(0.2, abs=1e-12))


GT, EST = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"


def _drifting_copy(tmp_path: Path) -> Path:
    """The example estimate with 1 % scale drift in x: a second, different estimate."""
    est = read_tum(robot_msgs.io.resolve_path(EST))
    positions = est.positions_xyz.copy()
    positions[:, 0] *= 1.0 + 0.01 * (est.stamps_s - est.stamps_s[0]) / est.duration_s
    return robot_msgs.io.write_tum(tmp_path / "drifting.tum", est.replace(positions_xyz=positions))


def test_several_estimates_give_each_single_estimates_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = str(_drifting_copy(tmp_path))
    flags = ["--align", "sim3", "--json"]
    assert main(["ape", GT, EST, second, *flags]) == 0
    together = json.loads(capsys.readouterr().out)
    singles = []
    for est in (EST, second):
        assert main(["ape", GT, est, *flags]) == 0
        singles.append(json.loads(capsys.readouterr().out))
    assert together == singles
    assert stats_of(together[0]) != stats_of(together[1])
    assert main(["ape", GT, EST, second, "--align", "sim3"]) == 0
    table = capsys.readouterr().out
    assert table.startswith("APE (absolute pose error), 2 estimates\n")
    # A temporary path is wider than half of 80 columns: a column an estimate, numbered.
    columns = numbered_table(table)
    assert list(columns) == [EST, second]
    assert columns[EST]["rms"] == f"{stats_of(singles[0])['translation']['rms']:.6g}"
    assert all(len(line) <= 80 for line in table.splitlines() if second not in line)
    # The counts a single estimate's header says, unmatched too (they were missing; a
    # review): each estimate's own, as its --json says them.
    for name, single in zip((EST, second), singles, strict=True):
        counts = single["counts"]
        assert columns[name]["poses"] == str(counts["estimate"])
        assert columns[name]["matched"] == str(counts["matched"])
        assert columns[name]["unmatched est"] == str(counts["unmatched_estimate"])
        assert columns[name]["unmatched ref"] == str(counts["unmatched_reference"])


def test_several_estimates_save_one_file_each_through_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    second = str(_drifting_copy(tmp_path))
    # A flag's value that does not fit the inputs is a usage error, exit 2 (it exited 1,
    # where `traj A B --save o.tum` and a --label count that does not fit exit 2).
    assert main(["ape", GT, EST, second, "--save", str(tmp_path / "one.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ERROR: --save ")
    assert "{name}" in err
    (tmp_path / "res").mkdir()
    assert main(["ape", GT, EST, second, "--save", str(tmp_path / "res" / "{name}.npz")]) == 0
    out = capsys.readouterr().out
    for stem in ("rgbdslam", "drifting"):
        saved = tmp_path / "res" / f"{stem}.npz"
        assert f"wrote {saved}" in out
        assert robot_msgs.io.result_files.load_result(saved).comparison.estimate.endswith(
            f"{stem}.tum"
        )


def test_save_aligned_writes_the_estimate_as_aligned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    aligned = tmp_path / "aligned.tum"
    assert main(["ape", GT, EST, "--align", "se3", "--json", "--save-aligned", str(aligned)]) == 0
    fitted = stats_of(json.loads(capsys.readouterr().out))["translation"]["rms"]
    # The aligned file, compared without alignment, has the error the fit left.
    assert main(["ape", GT, str(aligned), "--json"]) == 0
    again = stats_of(json.loads(capsys.readouterr().out))["translation"]["rms"]
    assert again == pytest.approx(fitted, rel=1e-9)
    kitti = tmp_path / "aligned.txt"
    assert main(["ape", GT, EST, "--align", "se3", "--save-aligned", str(kitti)]) == 1
    assert "give the format (--to tum, kitti, euroc, mcap, db3)" in capsys.readouterr().err
    assert (
        main(["ape", GT, EST, "--align", "se3", "--save-aligned", str(kitti), "--to", "kitti"]) == 0
    )
    assert (tmp_path / "aligned_times.txt").exists()
    assert main(["ape", GT, EST, "--to", "tum"]) == 2
    assert "--to names the format of --save-aligned" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags",
    [
        ["--align", "se3", "--transform-right", "auto"],
        ["--align", "sim3", "--project-to-plane", "xy"],
        ["--align", "se3", "--transform-left", "LEVER"],
    ],
    ids=["mount", "plane", "left"],
)
def test_save_aligned_moves_the_estimate_as_it_was_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    """The file missed the estimated mount (4 cm off), the projection (1.8 m) and the
    given transforms: only the alignment was applied to the input (a review)."""
    aligned, saved = tmp_path / "aligned.tum", tmp_path / "result.json"
    lever = tmp_path / "lever.txt"  # a 90 deg turn about z and 0.5 m along x
    lever.write_text("0 -1 0 0.5\n1 0 0 0\n0 0 1 0\n0 0 0 1\n", encoding="utf-8")
    flags = [str(lever) if f == "LEVER" else f for f in flags]
    argv = ["ape", GT, EST, *flags, "--save-aligned", str(aligned), "--save", str(saved)]
    assert main(argv) == 0
    capsys.readouterr()
    result = robot_msgs.io.result_files.load_result(saved)
    written = read_tum(aligned)
    rows = result.estimate_index
    compared = result.estimate
    np.testing.assert_allclose(written.positions_xyz[rows], compared.positions_xyz, atol=1e-12)
    np.testing.assert_allclose(
        written.orientations_quat_xyzw[rows], compared.orientations_quat_xyzw, atol=1e-12
    )


def test_frame_indices_beside_seconds_name_the_times_flag_and_the_file_beside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI file written with its times beside it was refused with "give the
    estimate's times file": no flag, and not a word of the file next to it (a review)."""
    from robot_msgs.io import read_trajectory, write_trajectory

    written = tmp_path / "est.txt"
    write_trajectory(written, read_trajectory(GT), "kitti")
    assert main(["ape", GT, str(written)]) == 1
    err = capsys.readouterr().err
    assert f"ERROR: {written} is stamped by frame index" in err
    assert f"give --est-times FILE ({tmp_path / 'est_times.txt'} lies beside it)" in err
    assert "--sync spatial" in err
    argv = ["ape", GT, str(written), "--est-times", str(tmp_path / "est_times.txt"), "--json"]
    assert main(argv) == 0
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["rms"] < 1e-6


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_plot_format_follows_the_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    pdf, svg, png = tmp_path / "x.pdf", tmp_path / "x.svg", tmp_path / "x.png"
    assert main(["ape", GT, EST, "--align", "se3", "--plot", str(pdf)]) == 0
    assert f"wrote {pdf}\n" in capsys.readouterr().out
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert main(["ape", GT, EST, "--align", "se3", "--plot", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    assert "<svg" in text[:500]
    # Axes in words with units; the error's statistics drawn as lines.
    for words in (
        "translation error [m]",
        "time since the first matched pose [s]",
        "rms 0.01347 m",
        "median",
        "mean",
    ):
        assert words in text
    assert main(["ape", GT, EST, "--plot", str(png), "--dpi", "300"]) == 0
    # --plot's help states 11 x 4.5 in: at 300 dpi that is 3300 x 1350 pixels.
    assert _png_size(png.read_bytes()) == (3300, 1350)
    assert main(["ape", GT, EST, "--plot", str(tmp_path / "x.jpg")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: --plot ")
    assert ".png, .pdf, .svg or .eps" in err


def test_kitti_without_times_says_frame_not_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    x = np.arange(60.0)
    ref = write_kitti(tmp_path / "gt.txt", line_positions(x))
    est = write_kitti(tmp_path / "est.txt", line_positions(1.01 * x))
    svg = tmp_path / "ape.svg"
    assert main(["ape", str(ref), str(est), "--plot", str(svg)]) == 0
    text = svg.read_text(encoding="utf-8")
    assert ">frame<" in text
    assert "[s]" not in text
    # Its title said "APE over time" over the frame axis, then "APE per frame", which
    # read as normalised per frame (a review).
    assert ">APE over frames (align none)<" in text
    assert "over time" not in text
    rpe_svg = tmp_path / "rpe.svg"
    assert main(["rpe", str(ref), str(est), "--plot", str(rpe_svg)]) == 0
    assert ">RPE over frames (at pair end), delta 1 frame<" in rpe_svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["x.zip", "x.txt"])
def test_save_refuses_a_name_that_says_another_format(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: `ape --save x.zip` wrote JSON into a .zip that `res` then rejected."""
    out = tmp_path / name
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main(["ape", ref, est, "--save", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {out}: a result is saved as .json, .npz or .parquet, not ")
    assert ("evo's --save_results archive" in err) == (name == "x.zip")
    assert not out.exists()


@pytest.mark.parametrize(
    ("command", "suffix", "to"),
    [
        *((command, ".tum", "") for command in ("ape", "rpe", "drift")),
        ("ape", ".txt", " --to tum"),
    ],
)
def test_save_of_a_trajectory_name_says_save_aligned_writes_it(
    command: str, suffix: str, to: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `ape --save est.tum` (evo's --save_as_tum, in our words) was told only that a result
    # is saved as .json, .npz or .parquet; the estimate it meant is --save-aligned's.
    # `.txt`: TUM's `evaluate_ate.py --save aligned.txt` writes the aligned estimate.
    out = tmp_path / f"aligned{suffix}"
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main([command, ref, est, "--save", str(out)]) == 1
    (err,) = capsys.readouterr().err.splitlines()
    assert err == (
        f"ERROR: {out}: a result is saved as .json, .npz or .parquet, not {suffix!r}; "
        f"--save-aligned {out}{to} writes the estimate as it was compared"
    )
    assert not out.exists()


@pytest.mark.parametrize("command", ["rpe", "drift"])
def test_save_txt_after_rpe_is_not_pointed_at_the_aligned_estimate(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # evaluate_rpe.py's --save errors.txt writes each pair's errors, which the result
    # holds; it was told --save-aligned errors.txt --to tum, the estimate.
    out = tmp_path / "errors.txt"
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    assert main([command, ref, est, "--save", str(out)]) == 1
    (err,) = capsys.readouterr().err.splitlines()
    assert err == f"ERROR: {out}: a result is saved as .json, .npz or .parquet, not '.txt'"
    assert not out.exists()


def test_se3_text_output_fits_in_100_columns_and_names_only_the_changed_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: ``ape REF EST --align se3`` with default settings stays within 100 columns.

    The estimate is the reference turned, moved and shaken by a few millimetres with
    irrational-looking numbers, so every column of the table and the alignment note
    prints at full width; the settings line holds the one flag given, not 18 fields.
    """
    rng = np.random.default_rng(19)
    t = np.arange(2001.0) * 0.05
    xyz = np.stack([np.cos(t / 9), np.sin(t / 7), 0.01 * t], axis=1) * 12.345
    c, s = np.cos(2.1), np.sin(2.1)
    turned = xyz @ np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]).T
    moved = turned + np.array([-0.1611, -1.4460, 1.4783]) + rng.normal(0, 0.0031, xyz.shape)
    write_tum(tmp_path / "groundtruth.tum", t, xyz)
    write_tum(tmp_path / "estimate.tum", t + 0.003, moved)
    monkeypatch.chdir(tmp_path)
    assert main(["ape", "groundtruth.tum", "estimate.tum", "--align", "se3"]) == 0
    out = capsys.readouterr().out
    assert "settings:  --align se3\n" in out
    assert "se3 alignment fitted on 2001 poses" in out
    widths = [len(line) for line in out.splitlines()]
    assert max(widths) <= 100, out


def test_a_long_path_in_a_note_stays_whole_as_res_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Review: ``ape``'s notes broke a path wider than the line at a hyphen, or at the
    76th character without one, where ``res``'s notes keep it whole; the wrap is one now.

    With two estimates each note starts with its estimate's path, here 98 characters:
    on its own line, whole, as the one word wider than 80 columns.
    """
    monkeypatch.chdir(tmp_path)
    ref = write_tum(tmp_path / "gt.tum", T, line_positions(T))
    estimates = []
    spaced = "results of the long running campaign/orb slam3 stereo inertial loop closure"
    for sep in "-_":
        path = Path(spaced.replace(" ", sep), f"estimate{sep}of{sep}run{sep}01.tum")
        path.parent.mkdir(parents=True)
        estimates.append(str(write_tum(path, T + 0.1, line_positions(T))))
    assert [len(e) for e in estimates] == [98, 98]
    assert main(["ape", str(ref), *estimates, "--align", "origin"]) == 0
    out = capsys.readouterr().out
    notes = out.split("notes:\n", 1)[1].splitlines()
    for estimate in estimates:
        assert f"  - {estimate}:" in notes
    assert all(len(line) <= 80 for line in notes if line[4:-1] not in estimates)
    said = " ".join(" ".join(notes).split())
    for estimate in estimates:
        assert f"- {estimate}: origin alignment fitted on 1 pose:" in said


def _rmse_of(args: list[str], capsys: pytest.CaptureFixture[str]) -> float:
    assert main([*args, "--json"]) == 0
    return float(stats_of(json.loads(capsys.readouterr().out))["translation"]["rms"])


@pytest.mark.evo_data
def test_a_large_unaligned_ape_hints_at_the_aligned_rmse(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's case: ape's default (no alignment) gives 2.03 m on a monocular estimate.

    The rule: unaligned rmse over 5 times the better of the se3 and sim3 fits' gets one
    hint naming both; the figures are those ``--align se3/sim3`` print themselves.
    """
    ref = str(evo_data / "freiburg1_xyz-groundtruth.txt")
    est = str(evo_data / "freiburg1_xyz-ORB_kf_mono.txt")
    se3 = _rmse_of(["ape", ref, est, "--align", "se3"], capsys)
    sim3 = _rmse_of(["ape", ref, est, "--align", "sim3"], capsys)
    assert main(["ape", ref, est]) == 0
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines())
    notes = " ".join(out.split("notes:", 1)[1].split())
    assert notes.startswith(
        f"- hint: with --align sim3 the rmse is {sim3:.3g} m (--align se3: {se3:.3g} m), "
        "not 2.03 m:"
    )
    assert f"{se3:.3g}" == "0.0243"  # the 0.024 m
    # With --json, the NOTE on standard error says the flags too, not `align='sim3'`.
    assert main(["ape", ref, est, "--json"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"NOTE: hint: with --align sim3 the rmse is {sim3:.3g} m (--align se3:" in err
    # Aligned, or an unaligned APE that is not dominated by the frame: no hint.
    assert main(["ape", ref, est, "--align", "se3"]) == 0
    assert "hint" not in capsys.readouterr().out
    assert main(["ape", ref, str(evo_data / "freiburg1_xyz-rgbdslam.txt")]) == 0
    assert "hint" not in capsys.readouterr().out


def test_a_long_step_says_what_it_does_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The offset search was 17.6 s of silence at 10^6 poses: now a line on a terminal.

    The step here is made to last 0.3 s and the threshold 0 s (the 2 s of a real run
    would make a slow test); stderr that is not a terminal, or ``--quiet``, stays silent.
    """
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    _evaluate_slowly(monkeypatch)
    argv = ["ape", ref, est, "--offset", "auto"]
    assert main(argv) == 0
    assert "evaluating" not in capsys.readouterr().err  # not a terminal
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(argv) == 0
    said = terminal.getvalue()
    step = f"ape: evaluating {est} (searching the clock offset)"
    assert f"\r{step} ...\x1b[K" in said
    assert f"\r{step}: done in 0:00:00\x1b[K\n" in said
    quiet = Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    assert main([*argv, "--quiet"]) == 0
    assert "evaluating" not in quiet.getvalue()


def _evaluate_slowly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make each evaluation last 0.3 s and a step's line show at once (threshold 0 s)."""
    slow = entry.evaluate

    def evaluate_slowly(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return slow(*args, **kwargs)

    monkeypatch.setattr(entry, "evaluate", evaluate_slowly)
    monkeypatch.setattr(progress, "STAGE_AFTER_S", 0.0)


def test_a_long_step_matched_in_space_says_no_offset_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--sync spatial --offset auto`` searches no offset (pairs are by position), yet
    the step said "(searching the clock offset)" on a terminal (a review)."""
    ref, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    _evaluate_slowly(monkeypatch)
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(["ape", ref, est, "--sync", "spatial", "--offset", "auto"]) == 0
    said = terminal.getvalue()
    assert f"\rape: evaluating {est}: done in 0:00:00\x1b[K\n" in said
    assert "searching" not in said


def test_what_reading_fixed_is_in_each_results_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """V102's 4 repeated stamps were said on stderr only: --json and --save lost them."""
    rows = [f"{t}.0 {t} {t % 3} 0 0 0 0 1" for t in range(12)]
    ref = tmp_path / "ref.tum"
    ref.write_text("\n".join([*rows, rows[-1]]) + "\n", encoding="utf-8")  # a repeated stamp
    fixed = tmp_path / "fixed.tum"
    fixed.write_text("\n".join([*rows[:5], "5.0 nan 0 0 0 0 0 1", *rows[5:]]) + "\n")
    clean = tmp_path / "clean.tum"
    clean.write_text("\n".join(rows) + "\n", encoding="utf-8")
    saved = tmp_path / "fixed.json"
    argv = ["ape", str(ref), str(fixed), str(clean), "--json"]
    assert main(argv) == 0
    first, second = json.loads(capsys.readouterr().out)
    ref_note = (
        f"{ref}: 1 row(s) repeat an earlier stamp (line 13): kept the first row of each stamp "
        "(evo keeps every row: `repeated_stamps='all'`)"  # the result's words: a field
    )
    nan_note = f"{fixed}: 1 row(s) with NaN or infinite values dropped (line 6)"
    assert first["notes"][:2] == [ref_note, nan_note]
    assert second["notes"][:1] == [ref_note]
    assert nan_note not in second["notes"]
    assert main(["ape", str(ref), str(fixed), "--save", str(saved)]) == 0
    err = capsys.readouterr().err
    assert err.count(nan_note) == 1  # said once, as a warning
    assert nan_note in json.loads(saved.read_text(encoding="utf-8"))["comparison"]["notes"]
    out, err = capsys.readouterr()
    assert "NaN" not in out  # the table does not say it again as a note, as --json does not


def test_a_kitti_files_rounding_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI_00's rounding paragraph was a WARNING per file, then again each a note."""
    c, s = np.cos(np.arange(20) * 0.1), np.sin(np.arange(20) * 0.1)
    rows = [  # printed as KITTI's are (%e): off SO(3) by the rounding of their digits
        f"{ci:e} {-si:e} 0 {i} {si:e} {ci:e} 0 {i % 3} 0 0 1 0"
        for i, (ci, si) in enumerate(zip(c, s, strict=True))
    ]
    ref, est = tmp_path / "00_gt.txt", tmp_path / "00.txt"
    ref.write_text("\n".join(rows) + "\n", encoding="utf-8")
    est.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["ape", str(ref), str(est)]) == 0
    out, err = capsys.readouterr()
    assert err.count("off orthonormal by rounding") == 2  # one WARNING a file
    assert "off orthonormal by rounding" not in out  # not again as a note


def test_a_bag_estimate_is_named_by_its_topic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two topics of one bag were both saved as `{name}` = the bag's stem: one file."""
    pytest.importorskip("rosbags")
    from robot_msgs.io import read_trajectory, write_trajectory

    traj = read_trajectory("example:fr1_xyz/groundtruth.tum")
    bag = tmp_path / "run.mcap"
    write_trajectory(bag, traj, topic="/slam/S-PTAM")
    out = tmp_path / "{name}.json"
    argv = ["ape", str(bag), str(bag), "--ref-topic", "/slam/S-PTAM"]
    assert main([*argv, "--est-topic", "/slam/S-PTAM", "--save", str(out)]) == 0
    assert (tmp_path / "slam_S-PTAM.json").exists()
    assert "wrote" in capsys.readouterr().out


def test_a_note_about_a_file_whose_name_extends_another_stays_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`e.tum` took the notes of `e.tum 2.tum` (a name followed by a space matched)."""
    rows = [f"{t}.0 {t} {t % 3} 0 0 0 0 1" for t in range(12)]
    ref, clean = tmp_path / "ref.tum", tmp_path / "e.tum"
    ref.write_text("\n".join(rows) + "\n", encoding="utf-8")
    clean.write_text("\n".join(rows) + "\n", encoding="utf-8")
    fixed = tmp_path / "e.tum 2.tum"
    fixed.write_text("\n".join([*rows, rows[-1]]) + "\n", encoding="utf-8")
    assert main(["ape", str(ref), str(clean), str(fixed), "--json"]) == 0
    first, second = json.loads(capsys.readouterr().out)
    assert not any("repeat an earlier stamp" in note for note in first["notes"])
    assert any(note.startswith(f"{fixed}: 1 row(s) repeat") for note in second["notes"])


def test_an_undetermined_mount_names_the_flag_that_gives_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The library says the field (`transform_right=`), as its other errors do; the command
    # line says the flag (it said --transform-right to a Python caller before).
    t = np.linspace(0.0, 60.0, 600)
    yaw = np.stack([0.0 * t, 0.0 * t, 0.5 * t], 1)  # turning about the vertical only
    body = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([np.cos(0.5 * t), np.sin(0.5 * t), 0.0 * t], 1),
        orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(yaw)),
    )
    mount = (0.0, -1.0, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.2, 0.0, 0.0, 0.0, 1.0)
    ref, cam = tmp_path / "body.tum", tmp_path / "camera.tum"
    write_trajectory(ref, body, "tum")
    write_trajectory(cam, apply_transforms(body, EvaluationSettings(transform_right=mount)), "tum")
    with pytest.raises(AlignmentError, match=r"give it as `transform_right=` instead$"):
        estimate_extrinsic(body, read_trajectory(cam))
    assert main(["ape", str(ref), str(cam), "--transform-right", "auto"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {cam}: Cannot estimate the extrinsic: the motion does not")
    assert err.rstrip().endswith("give it as --transform-right FILE instead")


@pytest.mark.parametrize("command", ["ape", "rpe"])
def test_the_estimate_that_cannot_be_matched_is_named_alone_or_among_several(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # `ape REF a.tum b.tum`, b's clock 1000 s off, said "No pose pairs found ..." and
    # not which of the estimates it was (a hunt): the error starts with its path.
    ref, est = seed_files(tmp_path, T)
    late = write_tum(tmp_path / "late.tum", T + 1000.0, line_positions(T))
    assert main([command, str(ref), str(est), str(late)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {late}: No pose pairs found with --sync nearest"), err
    assert err.count("\n") == 1
    # One estimate named it not either (a fuzz): the same error, the same one line.
    assert main([command, str(ref), str(late)]) == 1
    assert capsys.readouterr().err == err


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["ape", "--align", "se3"], "Cannot fit an alignment on 1 pose: a rotation or scale"),
        (["rpe"], "no pose pair: the estimate has 1 matched pose; a relative pose error"),
        (["drift"], "No KITTI segment fits: only 1 pose of the reference is matched"),
        (["traj", "--align", "se3", "--ref"], "Cannot fit an alignment on 1 pose: a rotation"),
    ],
)
def test_a_pair_level_error_of_one_estimate_names_it_within_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], error: str
) -> None:
    # `ape REF two.txt --align se3`, two.txt cut to one pose, said "ERROR: Cannot fit an
    # alignment on 1 pose ..." naming no file, where two estimates named theirs (a fuzz).
    monkeypatch.chdir(tmp_path)
    seed_files(tmp_path, T)
    write_tum(tmp_path / "one.tum", T[:1], line_positions(T[:1]))
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*argv, "reference.tum", "one.tum"]) == 1
    said = terminal.getvalue()
    folded = said[said.index("ERROR: ") :].splitlines()
    assert " ".join(line.strip() for line in folded).startswith(f"ERROR: one.tum: {error}")
    assert max(len(line) for line in folded) <= 80
    assert all(line.startswith(" " * 7) for line in folded[1:])


def test_a_clock_far_off_points_at_the_doctor_command_not_the_python_function(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `ape REF LATE` said "the doctor (`robot-msgs doctor`, `diagnose()`) estimates it":
    # a Python function to a command-line user.
    ref, _ = seed_files(tmp_path, T)
    late = write_tum(tmp_path / "late.tum", T + 1000.0, line_positions(T))
    assert main(["ape", str(ref), str(late)]) == 1
    err = capsys.readouterr().err
    assert "the doctor (`robot-msgs doctor`) estimates it from the motion" in err, err
    assert "diagnose" not in err


def test_the_files_written_are_named_with_their_controls_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "wrote ..." printed a name as it was: an estimate named "e\x1b[31m.tum" saved through
    # --save 'out/{name}.json' turned the terminal red, where every other line escapes
    # names from files (a hunt).
    ref, est = seed_files(tmp_path, T)
    red = tmp_path / "e\x1b[31m.tum"
    red.write_bytes(est.read_bytes())
    (tmp_path / "out").mkdir()
    assert (
        main(["ape", str(ref), str(est), str(red), "--save", f"{tmp_path}/out/{{name}}.json"]) == 0
    )
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert f"wrote {tmp_path}/out/e\\x1b[31m.json\n" in out
    assert (tmp_path / "out" / "e\x1b[31m.json").is_file()
    # Alone, its header line and its notes said it as it was too.
    assert main(["ape", str(ref), str(red)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert f"estimate:  {tmp_path}/e\\x1b[31m.tum\n" in out


def test_the_estimate_of_several_whose_pairs_fail_is_named_after_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A ValidationError of one of several estimates (a still one: no pair 1 m apart) was
    # not named either (a review); the flag that gave the value still leads.
    ref, est = seed_files(tmp_path, T)
    still = write_tum(tmp_path / "still.tum", T, line_positions(0 * T))
    argv = ["rpe", str(ref), str(est), str(still), "--delta", "1", "--delta-unit", "m"]
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: --delta 1: {still}: delta = 1 m gave no")


def test_label_refused_before_any_input_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A --label count that does not fit is a usage error found before reading: EST is
    # missing, and the label is what is said (exit 2), not the file (exit 1).
    plot = str(tmp_path / "p.png")
    missing = str(tmp_path / "missing.tum")
    flags = ["--plot", plot, "--label", "a", "--label", "b"]
    assert main(["ape", missing, missing, *flags]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --label a b: 2 given for 1 input ")


def test_save_aligned_layout_keeps_the_child_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # ape --save-aligned al.mcap of an odometry estimate warned its child frame was not
    # written, advising `write_trajectory_bag(..., layout='odometry')`, no flag of ape's.
    pytest.importorskip("rosbags")
    from robot_msgs.io import read_bag, write_trajectory_bag
    from robot_msgs.msg.catalog import example

    traj = example("trajectory/PoseTrajectory")  # child frame "base_link"
    assert isinstance(traj, PoseTrajectory)
    src = write_trajectory_bag(tmp_path / "src.mcap", traj, topic="/odom", layout="odometry")
    aligned = tmp_path / "al.mcap"
    sides = [str(src), str(src), "--ref-topic", "/odom", "--est-topic", "/odom"]
    assert main(["ape", *sides, "--save-aligned", str(aligned)]) == 0
    assert "(nav_msgs/Odometry, --save-layout odometry, keeps them)" in capsys.readouterr().err
    kept = tmp_path / "kept.mcap"
    assert main(["ape", *sides, "--save-aligned", str(kept), "--save-layout", "odometry"]) == 0
    assert read_bag(kept, "/trajectory").child_frame_id == "base_link"
    assert main(["ape", *sides, "--save-layout", "odometry"]) == 2
    assert capsys.readouterr().err.endswith(
        "ERROR: --save-layout only goes with --save-aligned OUT.mcap or OUT.db3\n"
    )


def test_confidence_without_a_nees_relation_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ape --confidence 0.9` bounds NEES only: with translation it was taken in silence.

    The table's "settings:" line said `--confidence 0.9` as if it had changed a number.
    """
    ref, est = seed_files(tmp_path, T * 1.01)
    assert main(["ape", str(ref), str(est), "--confidence", "0.9"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("ERROR: --confidence 0.9: sets the chi-square bounds of NEES; ")
    assert "nees_orientation or nees_planar, not translation" in err
    assert main(["ape", str(ref), str(est), "--confidence", "0.95"]) == 0  # the default


#: evo_ape's statistics on the evo files that repeat stamps, from its saved results
#: (stats.json, full precision), evo 1.38.1:
#:   evo_ape euroc V102_groundtruth.csv V102.txt --save_results v102.zip
#:   evo_ape euroc V102_groundtruth.csv V102.txt -a --save_results v102_a.zip
#:   evo_ape tum fr2_desk_groundtruth.txt fr2_desk_ORB.txt -a --save_results fr2.zip
#: evo keeps every row of a repeated stamp: V102.txt, 4 repeats, 798 pairs (794 with one
#: row a stamp); fr2_desk_groundtruth.txt, 1 repeat.
EVO_APE_REPEATED_STAMPS = [
    ("V102_groundtruth.csv", "V102.txt", "none", 798, 2.5541740462181335, 2.5072878884642713),
    ("V102_groundtruth.csv", "V102.txt", "se3", 798, 0.09172711520685733, 0.08152162194619834),
    (
        "fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt", "se3", None, 0.008118977562045396,
        0.007491776870216619,
    ),
]  # fmt: skip


@pytest.mark.evo_data
@pytest.mark.parametrize(
    ("ref", "est", "align", "matched", "rmse", "mean"), EVO_APE_REPEATED_STAMPS
)
def test_repeated_stamps_all_gives_evo_apes_numbers(
    evo_data: Path,
    capsys: pytest.CaptureFixture[str],
    ref: str,
    est: str,
    align: str,
    matched: int | None,
    rmse: float,
    mean: float,
) -> None:
    """``--repeated-stamps all`` keeps every row, as evo: its APE to 1e-9 (stored above)."""
    args = ["ape", str(evo_data / ref), str(evo_data / est), "--align", align]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main([*args, "--repeated-stamps", "all", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    stats = stats_of(result)["translation"]
    assert stats["rms"] == pytest.approx(rmse, abs=1e-9)
    assert stats["mean"] == pytest.approx(mean, abs=1e-9)
    if matched is not None:
        assert result["counts"]["matched"] == matched


@pytest.mark.evo_data
def test_repeated_stamps_all_with_one_to_one_pairs_rpg_rows(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--sync one-to-one --repeated-stamps all`` (rpg's reading) was refused ("with
    --sync nearest"); V1_02 has rpg's 798 matches (tests/data/rpg_repeated_stamps_reference.json,
    replayed from the raw files), not the 794 of the first row of each stamp."""
    want = json.loads(
        (
            Path(__file__).resolve().parents[1] / "data" / "rpg_repeated_stamps_reference.json"
        ).read_text()
    )
    args = ["ape", str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    args += ["--sync", "one-to-one", "--max-diff", "0.02", "--align", "posyaw", "--json"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main([*args, "--repeated-stamps", "all"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["matched"] == want["n_matches"] == 798


def test_repeated_stamps_all_with_rotation_blocks_is_refused_naming_the_flag_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI writes `repeated_stamps='all'` as its flag: "(--repeated-stamps all)" beside
    it read "--repeated-stamps all (--repeated-stamps all)"."""
    poses = tmp_path / "k.txt"
    poses.write_text("1 0 0 0 0 1 0 0 0 0 1 0\n" * 3)
    times = tmp_path / "t.txt"
    times.write_text("0\n1\n1\n")
    args = ["ape", str(poses), str(poses), "--ref-times", str(times), "--est-times", str(times)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        code = main([*args, "--kitti-rotations", "as_given", "--repeated-stamps", "all"])
    err = capsys.readouterr().err
    assert code != 0
    assert "keeps no covariances or rotation blocks" in err
    assert err.count("--repeated-stamps all") == 1


def test_repeated_stamps_all_of_a_file_against_itself_gives_evos_errors_not_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo pairs both rows of stamp 1 with the last: row 1 against row 2, 2 m apart.

    Errors 0, 2, 0, 0 m: rms 1 m (evo_ape on V102.txt against itself: 0.005540 m). The
    note "every error is zero" of a file given twice does not hold here.
    """
    path = tmp_path / "t.tum"
    path.write_text("".join(f"{t} {x} 0 0 0 0 0 1\n" for t, x in [(0, 0), (1, 1), (1, 3), (2, 4)]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(["ape", str(path), str(path), "--repeated-stamps", "all", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert stats_of(result)["translation"]["rms"] == pytest.approx(1.0, abs=1e-12)
    assert not [n for n in result["notes"] if "every error is zero" in n]


@pytest.mark.evo_data
def test_repeated_stamps_all_counts_add_up_naming_the_rows_two_pairs_share(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "reference 16702, matched 798, unmatched reference 15908": 798 + 15908 is
    not 16702, as 4 reference rows are in two pairs each.

    Counted with evo 1.38.1's own pairing, ``sync.matching_time_indices(est.timestamps,
    ref.timestamps, 0.01)`` on the files as evo reads them: 798 pairs, 794 distinct
    reference rows (4 in two pairs, none in more), 798 distinct estimate rows; so 16702 -
    794 = 15908 reference and 807 - 798 = 9 estimate rows unmatched. By hand: V102.txt's 4
    repeated stamps (lines 433, 684, 736, 788) each pair a second row with a reference row.
    """
    args = ["ape", str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main([*args, "--repeated-stamps", "all", "--align", "se3"]) == 0
    out = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("poses:"))
    assert out[start : start + 3] == [
        "poses:     reference 16702, estimate 807, matched 798,",
        "           matched reference rows 794 (4 in two pairs each),",
        "           unmatched reference 15908, unmatched estimate 9",
    ]
    assert max(map(len, out)) <= 80


@pytest.mark.evo_data
def test_repeated_stamps_all_counts_add_up_in_the_table_of_several_estimates(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """V102.txt as REF: its 4 repeated stamps share ground-truth rows, 794 in 798 pairs
    (the counts above, sides swapped). The table said "poses 16702, matched 798,
    unmatched est 15908"; the estimate's rows matched now stand beside its unmatched."""
    truth = str(evo_data / "V102_groundtruth.csv")
    args = ["ape", str(evo_data / "V102.txt"), truth, truth, "--repeated-stamps", "all"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("poses "))
    assert [line.split() for line in out[start : start + 5]] == [
        ["poses", "16702", "16702"],
        ["matched", "798", "798"],
        ["est", "rows", "matched", "794", "794"],
        ["unmatched", "est", "15908", "15908"],
        ["unmatched", "ref", "9", "9"],
    ]
    assert max(map(len, out)) <= 80


@pytest.mark.evo_data
def test_interpolate_counts_add_up_naming_the_reference_rows_it_reads(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "reference 3000, matched 785, unmatched reference 1430": 785 + 1430 is not
    3000, as each interpolated pose reads the 2 ground-truth rows around its stamp.

    Counted apart with NumPy on the files' stamps (np.loadtxt, np.searchsorted): 3 of
    rgbdslam's 788 stamps lie in the ground truth's 0.11 s gap (refused, longer than 10
    median intervals); the 785 others lie between 785 distinct pairs of neighbouring rows,
    none on a row's own stamp: 1570 rows read, 3000 - 1570 = 1430 read by none.
    """
    gt, est = evo_data / "freiburg1_xyz-groundtruth.txt", evo_data / "freiburg1_xyz-rgbdslam.txt"
    assert main(["ape", str(gt), str(est), "--sync", "interpolate"]) == 0
    out = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(out) if line.startswith("poses:"))
    assert out[start : start + 3] == [
        "poses:     reference 3000, estimate 788, matched 785,",
        "           matched reference rows 1570 (each interpolation reads 2),",
        "           unmatched reference 1430, unmatched estimate 3, refused gap 3",
    ]


@pytest.mark.evo_data
def test_repeated_stamps_warning_names_the_option(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["ape", str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    assert main(args) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "repeat" in line]
    assert said == [
        (
            f"WARNING: {evo_data / 'V102.txt'}: 4 row(s) repeat an earlier stamp (lines 433, "
            "684, 736, 788): kept the first row of each stamp (evo keeps every row: "
            "--repeated-stamps all)"
        )
    ]


@pytest.mark.evo_data
@pytest.mark.parametrize(
    "extra",
    [
        # TUM's evaluate_rpe.py keys the rows by stamp: the last of a stamp is its pose.
        ["rpe", "--protocol", "tum"],
        ["rpe", "--sync", "interpolate"],
        ["drift"],
        ["doctor"],
        ["ape", "--sync", "interpolate"],
        # Its hand-eye fit builds a trajectory of the matched poses, which refused the
        # repeated stamps naming `PoseTrajectory.stamps_s[432]`, not the flag.
        ["ape", "--transform-right", "auto"],
    ],
)
def test_repeated_stamps_all_is_refused_where_stamps_must_increase(
    evo_data: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    files = [str(evo_data / "V102_groundtruth.csv"), str(evo_data / "V102.txt")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        code = main([extra[0], *files, *extra[1:], "--repeated-stamps", "all"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert err.startswith("ERROR: ")
    assert "--repeated-stamps all" in err


# trajectopy 5.1.2's one ate() run on the raw fr1_xyz (NEAREST_TEMPORAL within 10 ms, no
# alignment) gives position and rotation errors together:
# tests/data/make_trajectopy_component_reference.py made its summaries, stored with it.
_TRAJECTOPY_ATE = json.loads(
    (Path(__file__).parents[1] / "data" / "trajectopy_component_reference.json").read_text()
)
_FR1 = ["example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"]


def test_several_relations_in_one_run_give_trajectopys_position_and_rotation_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--relation translation --relation angle_deg`` was refused: one relation per run."""
    relations = list(_TRAJECTOPY_ATE["summaries"])  # 3 in metres, 3 in radians
    monkeypatch.chdir(tmp_path)  # a short name: res shows a row per signal
    saved = Path("ape.json")
    assert main(["ape", *_FR1, "--relation", *relations, "--save", str(saved), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in shown["signals"]] == relations
    assert shown["parameters"]["relation"] == relations
    assert shown["counts"]["matched"] == _TRAJECTOPY_ATE["n_pairs"] == 785
    for comparison in (shown, json.loads(saved.read_text(encoding="utf-8"))["comparison"]):
        stats = stats_of(comparison)
        for relation, theirs in _TRAJECTOPY_ATE["summaries"].items():
            for name in ("rms", "mean", "min", "max"):
                assert stats[relation][name] == pytest.approx(theirs[name], rel=0, abs=1e-12)
    from robot_msgs.io.result_files import load_result

    loaded = load_result(saved)
    assert [s.name for s in loaded.comparison.signals] == relations
    assert all(s.series is not None for s in loaded.comparison.signals)
    assert {s.series.errors.size for s in loaded.comparison.signals if s.series} == {785}
    # The table: each relation a row, the settings line broken between them, 80 columns.
    assert main(["ape", *_FR1, "--relation", *relations]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert all(rows[r][1] in ("m", "rad") for r in relations)
    assert "settings:  --relation along_track_body cross_track_body vertical_body\n" in out
    # res reads the saved result back: each signal a row with trajectopy's rms.
    assert main(["res", str(saved)]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(k for k, line in enumerate(lines) if "rms" in line.split())
    rms = {row[2]: float(row[lines[at].split().index("rms")]) for row in
           (line.split() for line in lines[at + 2 : at + 2 + len(relations)])}  # fmt: skip
    assert rms == pytest.approx(
        {r: theirs["rms"] for r, theirs in _TRAJECTOPY_ATE["summaries"].items()}, rel=1e-5
    )  # 6 digits shown


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--relation", "translation", "--relation", "angle_deg"],
         "give it once, with all its values: --relation translation angle_deg"),
        (["--relation", "translation", "trans_part"], "translation given twice"),
        (["--relation", "nees", "nees_position"], "one NEES relation per run"),
        (["--relation", "x", "angle_deg", "--plot", "p.png"], "has m, deg"),
        (["--relation", "x", "angle_deg", *_FR1], "is a file: --relation takes every word"),
    ],
)  # fmt: skip
def test_several_relations_refused_name_why_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    given: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["ape", *given] if _FR1[0] in given else ["ape", *_FR1, *given]
    code: object
    try:
        code = main(args)
    except SystemExit as exit_:  # argparse's refusal
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert said in err
    assert err.splitlines()[-1].startswith("ERROR: ")
    assert not (tmp_path / "p.png").exists()
