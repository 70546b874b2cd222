"""``robot-msgs traj``: inspect, check and convert, in-process through ``main``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import COMMANDS, main
from robot_msgs.io import (
    read_euroc,
    read_kitti,
    read_trajectory,
    read_tum,
    resolve_path,
    write_trajectory,
)
from tests.cli.evaluation_files import stats_of, write_kitti_off_so3, write_tum
from tests.cli.test_doctor import _milliseconds, _rewritten

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.trajectory import PoseTrajectory

DATA = Path(__file__).parents[1] / "data"
# Three poses along a 3-4-5 triangle then up 1 m: path length 5 + 1 = 6 m; steps 0.5 s.
CLEAN = "# t x y z qx qy qz qw\n0 0 0 0 0 0 0 1\n0.5 3 4 0 0 0 0 1\n1.0 3 4 1 0 0 0 1\n"


def write(tmp_path: Path, text: str, name: str = "run.tum") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_traj_is_a_registered_command() -> None:
    assert "traj" in COMMANDS


def test_traj_prints_count_span_rate_length_and_no_issues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, CLEAN)
    assert main(["traj", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path} (tum)" in out
    assert "poses        3" in out
    assert "time         0.0 .. 1.0 s (1.000 s)" in out
    assert "rate         2.0 Hz (median step 0.5000 s)" in out
    assert "path length  6.000 m" in out
    assert "issues       none" in out


@pytest.mark.parametrize("fmt", ["tum", "kitti", "euroc"])
def test_traj_says_a_format_without_frame_ids_recorded_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """It printed 'frames       - -> -' (a review): the format holds no frame ids."""
    path = write(tmp_path, CLEAN)
    if fmt == "kitti":
        path = write(tmp_path, "1 0 0 5 0 1 0 6 0 0 1 7\n", name="pose.txt")
    elif fmt == "euroc":
        assert main(["traj", str(path), "--save", str(tmp_path / "o.csv")]) == 0
        path = tmp_path / "o.csv"
    capsys.readouterr()
    assert main(["traj", str(path), "--fmt", fmt]) == 0
    assert f"  frames       not recorded ({fmt} has no frame ids)\n" in capsys.readouterr().out
    assert main(["traj", str(path), "--fmt", fmt, "--json"]) == 0
    (said,) = json.loads(capsys.readouterr().out)
    assert (said["format"], said["frame_id"], said["child_frame_id"]) == (fmt, "", "")


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_traj_says_a_bag_of_empty_frame_ids_recorded_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    # A TUM file converted to a bag (its headers' frame ids empty) still printed
    # 'frames       - -> -', which the formats without frame ids no longer do.
    pytest.importorskip("rosbags")
    bag = tmp_path / f"o{suffix}"
    assert main(["traj", str(write(tmp_path, CLEAN)), "--save", str(bag)]) == 0
    capsys.readouterr()
    assert main(["traj", str(bag)]) == 0
    out = capsys.readouterr().out
    assert "  frames       not recorded (the messages' frame ids are empty)\n" in out
    assert main(["traj", str(bag), "--json"]) == 0
    (said,) = json.loads(capsys.readouterr().out)
    assert (said["frame_id"], said["child_frame_id"]) == ("", "")


def test_traj_says_absurd_spans_and_rates_in_a_few_digits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stamps of 1e300 printed a span and a median step of 291 digits, and a rate of
    1e-291 Hz as 0.0 (a review): the warnings say what is wrong; the figures stay short."""
    path = tmp_path / "big.tum"
    path.write_text("".join(f"{k}e300 {k} 0 0 0 0 0 1\n" for k in (1, 2, 3)), encoding="utf-8")
    assert main(["traj", str(path)]) == 0
    out = capsys.readouterr().out
    assert "(2e+291 s)\n" in out
    assert "rate         1e-291 Hz (median step 1e+291 s)\n" in out
    # Positions of 1e150 m printed a path length of 154 digits (a helper's finding).
    path.write_text("".join(f"{k} {k}e150 0 0 0 0 0 1\n" for k in (-1, 1)), encoding="utf-8")
    assert main(["traj", str(path)]) == 0
    assert "path length  2e+150 m\n" in capsys.readouterr().out
    assert max(len(line) for line in out.splitlines() if str(path) not in line) <= 80


def test_traj_json_holds_the_summary_of_each_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, CLEAN)
    assert main(["traj", str(path), "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["poses"] == 3
    assert report["path_length_m"] == 6.0
    assert report["duration_s"] == 1.0
    assert report["rate_hz"] == 2.0
    assert report["issues"] == []
    assert report["format"] == "tum"


def test_traj_check_passes_a_clean_file_and_fails_one_with_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["traj", str(write(tmp_path, CLEAN)), "--check"]) == 0
    bad = write(tmp_path, CLEAN + "2 nan 0 0 0 0 0 1\n", name="bad.tum")
    assert main(["traj", str(bad), "--check"]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: 1 row(s) with NaN or infinite values dropped (line 5)" in _unfolded(out)


def test_traj_without_check_reports_problems_but_exits_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "1 0 0 0 0 0 0 1\n0 0 0 0 0 0 0 1\n")
    assert main(["traj", str(bad)]) == 0
    assert "stamps not in increasing order" in _unfolded(capsys.readouterr().out)


def test_traj_strict_refuses_problems_with_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "1 0 0 0 0 0 0 1\n1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 1\n")
    assert main(["traj", str(bad), "--strict"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ")
    assert "repeat an earlier stamp" in err
    assert "--strict" in err
    assert "Traceback" not in err


def test_traj_names_line_and_column_of_a_malformed_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path, "1 0 0 0 0 0 0 1\n2 0 x 0 0 0 0 1\n")
    assert main(["traj", str(bad)]) == 1
    assert f"ERROR: {bad}, line 2, column 3 (y): 'x' is not a number" in capsys.readouterr().err


def test_traj_goes_on_after_a_bad_file_and_exits_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, CLEAN, name="good.tum")
    missing = tmp_path / "missing.tum"
    assert main(["traj", str(missing), str(good)]) == 1
    captured = capsys.readouterr()
    assert "missing.tum" in captured.err
    assert "poses        3" in captured.out


@pytest.mark.parametrize(("suffix", "reader"), [(".tum", read_tum), (".csv", read_euroc)])
def test_traj_save_converts_by_the_output_extension(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    suffix: str,
    reader: Callable[[Path], PoseTrajectory],
) -> None:
    src = write(tmp_path, CLEAN)
    out = tmp_path / f"out{suffix}"
    assert main(["traj", str(src), "--save", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    back = reader(out)
    assert back.positions_xyz.tolist() == [[0, 0, 0], [3, 4, 0], [3, 4, 1]]
    np.testing.assert_allclose(back.stamps_s, [0.0, 0.5, 1.0], rtol=0, atol=1e-15)


def test_traj_save_to_kitti_writes_poses_and_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, CLEAN)
    out = tmp_path / "00.txt"
    assert main(["traj", str(src), "--save", str(out), "--to", "kitti"]) == 0
    assert f"wrote {tmp_path / '00_times.txt'}" in capsys.readouterr().out
    back = read_kitti(out, times_path=tmp_path / "00_times.txt")
    assert back.stamps_s.tolist() == [0.0, 0.5, 1.0]
    assert main(["traj", str(out), "--times", str(tmp_path / "00_times.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["rate_hz"] == 2.0


def test_traj_save_refuses_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, CLEAN)
    out = write(tmp_path, "keep\n", name="out.tum")
    assert main(["traj", str(src), "--save", str(out)]) == 1
    assert "out.tum exists; pass --force" in capsys.readouterr().err
    assert out.read_text() == "keep\n"
    assert main(["traj", str(src), "--save", str(out), "--force"]) == 0
    assert len(read_tum(out)) == 3


@pytest.mark.parametrize(
    ("extra", "error", "code"),
    [
        (["--save", "x.txt"], r"x\.txt: cannot tell the trajectory format from '\.txt'; .*--to", 1),
        # Flags that only go with another are the command line's fault: status 2 (a review).
        (["--to", "tum"], r"^ERROR: --to only goes with --save OUT$", 2),
        (["--force"], r"^ERROR: --force only goes with --save OUT or --plot FILE$", 2),
        # Both said at once: --to alone was said, --force refused on the next try.
        (
            ["--to", "tum", "--force"],
            (
                r"^ERROR: --to only goes with --save OUT; --force only goes with --save OUT or "
                r"--plot FILE$"
            ),
            2,
        ),
        (
            ["--to", "tum", "--force", "--plot", "p.pdf"],
            r"^ERROR: --to only goes with --save OUT$",
            2,
        ),
        (["--save-topic", "/a"], r"--save-topic only goes with --save OUT", 2),
        (["--save", "x.txt", "--to", "mcap"], r"a mcap bag is written as a \.mcap file", 1),
        # Standard output was told "from ''; name it .tum, ..." (a review): it has no name.
        (
            ["--save", "-"],
            (
                r"^ERROR: -: standard output has no name to tell the trajectory format from; "
                r"give the format \(--to tum or euroc\)$"
            ),
            1,
        ),
    ],
)
def test_traj_save_explains_missing_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], error: str, code: int
) -> None:
    import re

    src = write(tmp_path, CLEAN)
    extra = [str(tmp_path / e) if e.endswith(".txt") else e for e in extra]
    assert main(["traj", str(src), *extra]) == code
    assert re.search(error, capsys.readouterr().err, re.MULTILINE)


@pytest.mark.parametrize(
    ("flags", "said"),
    [(["--plot-plane", "xz"], "--plot-plane sets the trajectory view"), (["--dpi", "72"], "--dpi")],
)
def test_traj_plot_options_without_plot_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    # They were ignored in silence (a review); --label alone is refused the same way.
    src = write(tmp_path, CLEAN)
    assert main(["traj", str(src), *flags]) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: {said}")


@pytest.mark.parametrize("name", ["o.tum", "o.csv", "o.kitti"])
def test_traj_save_topic_of_a_text_output_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """--save-topic with a text OUT was ignored in silence (the file written, no topic in
    it), where --save-topic without --save, and plot options without --plot, are refused."""
    src = write(tmp_path, CLEAN)
    out = tmp_path / name
    assert main(["traj", str(src), "--save", str(out), "--save-topic", "/est"]) == 2
    assert capsys.readouterr().err.startswith(
        "ERROR: --save-topic names the topic of a .mcap or .db3 OUT, not of "
    )
    assert not out.exists()


def test_traj_save_takes_one_file_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = write(tmp_path, CLEAN)
    assert main(["traj", str(src), str(src), "--save", str(tmp_path / "o.tum")]) == 2
    assert "--save converts one FILE, got 2" in capsys.readouterr().err


def test_traj_format_flag_overrides_detection(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "1 0 0 5 0 1 0 6 0 0 1 7\n", name="pose.dat")
    assert main(["traj", str(path), "--fmt", "kitti", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["format"] == "kitti"
    assert main(["traj", str(path), "--format", "tum"]) == 1
    assert "expected 8 columns" in capsys.readouterr().err


def test_traj_reads_shipped_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traj", "example:fr1_xyz/groundtruth.tum", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["path"] == "example:fr1_xyz/groundtruth.tum"
    assert report["poses"] == 3000
    assert report["format"] == "tum"
    assert report["format_reason"] == "8 space-separated columns, header names qx first"
    # Its 4-decimal quaternions (norms off by up to 8.4e-5) are rounding, not a problem.
    assert report["issues"] == []


@pytest.mark.parametrize("name", ["fr1_xyz/groundtruth.tum", "fr1_xyz/rgbdslam.tum"])
def test_traj_check_and_strict_pass_the_shipped_examples(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert main(["traj", f"example:{name}", "--check", "--strict"]) == 0
    captured = capsys.readouterr()
    assert "issues       none" in captured.out
    assert captured.err == ""


def test_traj_lists_bag_topics_when_no_topic_is_chosen(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rosbags")
    bag = evo_data / "nav2_turtlebot.mcap"
    assert main(["traj", str(bag)]) == 0
    out = capsys.readouterr().out
    assert "* /odom" in out
    assert "nav_msgs/msg/Odometry" in out
    assert "2639" in out
    assert "choose a pose topic" in out
    assert main(["traj", str(bag), "--check"]) == 1
    assert "nothing checked" in capsys.readouterr().err


def test_traj_reads_a_bag_topic_and_a_tf_chain(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rosbags")
    bag = evo_data / "nav2_turtlebot.mcap"
    assert main(["traj", str(bag), "--topic", "/tf:map.base_link", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    # Count and first stamp: see tests/data/io_reference.json ("tf").
    assert (report["poses"], report["start_s"]) == (2611, 929.808)
    assert (report["frame_id"], report["child_frame_id"]) == ("map", "base_link")


def test_traj_prints_the_detected_format_and_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "timestamp tx ty tz qx qy qz qw\n" + CLEAN.split("\n", 1)[1])
    assert main(["traj", str(path)]) == 0
    assert "  format       tum (8 space-separated columns, header names qx first)\n" in (
        capsys.readouterr().out
    )
    assert main(["traj", str(path), "--format", "tum"]) == 0
    assert "  format       tum (--format)\n" in capsys.readouterr().out


def test_traj_reads_a_tum_file_with_nanosecond_stamps_as_tum_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ns = "".join(f"{1305031102_000000000 + i * 500_000_000} {i} 0 0 0 0 0 1\n" for i in range(3))
    path = write(tmp_path, ns)
    assert main(["traj", str(path), "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["format"] == "tum"
    assert report["format_reason"] == "8 space-separated columns, integer nanosecond stamps"
    assert (report["start_s"], report["rate_hz"]) == (1305031102.0, 2.0)
    assert report["issues"] == [
        (
            f"{path}: stamps read as nanoseconds and divided by 1e9 (integer stamps up to "
            "1.31e+18: 1e12 or more, 31,700 years as seconds); TUM stamps are seconds: write "
            "them in seconds, or choose the format (--format euroc) if the quaternion is w first"
        )
    ]


def test_traj_says_a_single_pose_is_implausible_never_issues_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "1.5 0 0 0 0 0 0 1\n")
    assert main(["traj", str(path), "--check"]) == 1
    out = capsys.readouterr().out
    assert f"{path}: 1 pose only (time span 0 s, no rate)" in _unfolded(out)
    assert "issues       none" not in out


def test_traj_save_checks_the_output_before_reading_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.tum"  # the input does not exist either
    out = tmp_path / "no" / "out.tum"
    assert main(["traj", str(missing), "--save", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"ERROR: {out}: cannot write it: the folder {tmp_path / 'no'} does not exist\n"


def test_traj_save_kitti_refuses_an_existing_times_file_before_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, CLEAN)
    (tmp_path / "00_times.txt").write_text("keep\n")
    assert main(["traj", str(src), "--save", str(tmp_path / "00.txt"), "--to", "kitti"]) == 1
    assert "00_times.txt exists; pass --force to overwrite it" in capsys.readouterr().err
    assert not (tmp_path / "00.txt").exists()


def test_traj_save_to_standard_output_keeps_the_report_off_it(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, CLEAN)
    assert main(["traj", str(src), "--save", str(tmp_path / "file.tum")]) == 0
    capfd.readouterr()
    assert main(["traj", str(src), "--save", "-", "--to", "tum"]) == 0
    captured = capfd.readouterr()
    assert captured.out == (tmp_path / "file.tum").read_text()
    assert "poses        3" in captured.err
    assert "wrote -" in captured.err


def test_traj_save_through_a_symlink_writes_its_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = write(tmp_path, CLEAN)
    real = write(tmp_path, "old\n", name="real.tum")
    link = tmp_path / "latest.tum"
    link.symlink_to(real)
    assert main(["traj", str(src), "--save", str(link), "--force"]) == 0
    assert link.is_symlink()
    assert len(read_tum(real)) == 3


def test_traj_errors_name_a_shipped_example_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traj", "example:fr1_xyz/rgbdslam.tum", "--format", "euroc"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: example:fr1_xyz/rgbdslam.tum: stamps are not EuRoC's")
    assert "choose the format (--format tum)" in err


def test_a_time_range_keeps_the_poses_within_it_and_says_how_many_it_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The shipped estimate: 788 poses from 1305031102.160407 to 1305031128.722976 s.
    name = "example:fr1_xyz/rgbdslam.tum"
    assert main(["traj", name, "--t-start", "1305031110", "--t-end", "1305031120", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["start_s"] >= 1305031110.0
    assert report["end_s"] <= 1305031120.0
    assert report["poses"] + report["outside_range"] == 788
    out = tmp_path / "cut.tum"
    argv = ["traj", name, "--t-end", "1305031110", "--save", str(out)]
    assert main(argv) == 0
    stamps = read_tum(resolve_path(name)).stamps_s
    saved = read_tum(out).stamps_s
    np.testing.assert_array_equal(saved, stamps[stamps <= 1305031110.0])


def test_a_time_range_without_poses_or_backwards_is_one_error_naming_the_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    name = "example:fr1_xyz/rgbdslam.tum"
    assert main(["traj", name, "--t-start", "1305031130"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: No pose of {name} in the time range 1305031130.000000 .. inf s")
    assert "--t-start/--t-end" in err
    assert main(["traj", name, "--t-start", "5", "--t-end", "4"]) == 2  # a usage error
    assert capsys.readouterr().err == (
        "ERROR: --t-end 4: expected an end at or after the start (5.0 s), got float 4.0\n"
    )


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--ref", "example:fr1_xyz/groundtruth.tum", "--max-diff", "-1"], "--max-diff -1: "),
        (["--ref", "example:fr1_xyz/groundtruth.tum", "--max-gap", "-1"], "--max-gap -1: "),
        (["--plot", "p.png", "--dpi", "0"], "--dpi 0: expected a resolution"),
    ],
)
def test_a_flag_value_out_of_its_bounds_is_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    said: str,
) -> None:
    # Exit 2, as argparse's for `--max-diff x` and the rest of the command line (it was 1).
    monkeypatch.chdir(tmp_path)
    assert main(["traj", "example:fr1_xyz/rgbdslam.tum", *flags]) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: {said}")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_save_and_plot_to_one_file_are_refused_naming_both_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    # The poses were written, then the figure replaced them (--force) or was refused after.
    out = tmp_path / "x.png"
    argv = ["traj", "example:fr1_xyz/rgbdslam.tum", "--save", str(out), "--to", "tum"]
    assert main([*argv, "--plot", str(tmp_path / "." / "x.png"), *force]) == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"ERROR: --save {out} and --plot {out} are the same file ({out}); give each output "
        "its own path\n"
    )
    assert captured.out == ""
    assert list(tmp_path.iterdir()) == []


def test_a_low_match_against_ref_advises_only_flags_traj_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The shared warning told traj's user to try --offset, which traj did not have; traj's
    # takes seconds only, so --offset auto is said as the command's that has it (main maps
    # the library's fields to flags).
    t = np.arange(101.0) * 0.1
    curve = np.column_stack([t, np.sin(t), 0.1 * np.cos(t)])
    ref = write_tum(tmp_path / "ref.tum", t, curve)
    est = write_tum(tmp_path / "est.tum", t + 8.0, curve)  # 2 s of 10 overlap
    assert main(["traj", str(est), "--ref", str(ref), "--align", "se3"]) == 0
    (warning,) = [w for w in capsys.readouterr().err.splitlines() if "matched" in w]
    assert warning == (
        f"WARNING: {est}: only 21% of the shorter trajectory's poses matched (21 of 101); "
        "check the clock offset (--offset SECONDS, or `robot-msgs ape --offset auto` to "
        "estimate it) and --max-diff"
    )
    assert main(["ape", str(ref), str(est), "--align", "se3"]) == 0  # ape has --offset
    assert "(--offset SECONDS, or --offset auto to estimate it)" in capsys.readouterr().err


def test_every_line_fits_80_columns_but_a_path_too_long_for_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A header, a topic row and a `wrote ... (aligned to REF)` line ran to 85-134 columns.
    from robot_msgs.report.text import display_width
    from tests.io.conftest import BagMaker

    monkeypatch.chdir(tmp_path)
    bags = BagMaker(Path())
    pose = "geometry_msgs/msg/PoseStamped"
    msgs = [bags.message("ros1", pose, (k, 0, "map", (k, 0, 0), (0, 0, 0, 1))) for k in range(3)]
    long_topic = "/robot/localization/fused_estimate_of_the_pose"  # 46 characters
    topics = {long_topic: (pose, msgs), "/short": (pose, msgs)}
    name = "two_pose_topics_of_one_robot_recorded_in_the_hall_on_the_first_day_of_it"
    bag = bags.write(name, "ros1", topics)  # 78 characters, then " (bag)"
    folder = Path("results_of_the_experiment")
    folder.mkdir()
    est = folder / "estimate_of_the_first_trial.tum"
    est.write_text(resolve_path("example:fr1_xyz/rgbdslam.tum").read_text())
    saved = folder / "estimate_of_the_first_trial_aligned.tum"
    ref = "example:fr1_xyz/groundtruth.tum"
    assert main(["traj", str(bag), "--ref", ref]) == 0
    assert main(["traj", str(est), "--ref", ref, "--align", "se3", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if display_width(line) > 80] == []
    assert f"  * {long_topic}\n{' ' * 29}{pose} " in out  # the row folded, in its columns
    assert f"{bag}\n  (bag)\n" in out
    assert f"wrote {saved}\n  (aligned to {ref})\n" in out  # the path whole with its verb


def test_traj_says_frames_for_kitti_without_times(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kitti = write(
        tmp_path,
        "1 0 0 0 0 1 0 0 0 0 1 0\n1 0 0 1 0 1 0 0 0 0 1 0\n1 0 0 2 0 1 0 0 0 0 1 0\n",
        "00.txt",
    )
    assert main(["traj", str(kitti)]) == 0
    out = capsys.readouterr().out
    assert "frame index  0 .. 2 (KITTI without a times file: stamps are frame indices)" in out
    assert " s (" not in out
    assert "Hz" not in out
    assert main(["traj", str(kitti), "--json"]) == 0
    (summary,) = json.loads(capsys.readouterr().out)
    assert (summary["first_frame"], summary["last_frame"]) == (0, 2)
    assert "rate_hz" not in summary
    assert "duration_s" not in summary
    times = write(tmp_path, "0.0\n0.1\n0.2\n", "times.txt")
    assert main(["traj", str(kitti), "--times", str(times)]) == 0
    assert "rate         10.0 Hz" in capsys.readouterr().out


def test_traj_ref_aligns_each_estimate_and_overlays_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    svg = tmp_path / "traj.svg"
    assert main(["traj", "--ref", gt, est, "--align", "se3", "--plot", str(svg)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{gt} (tum, reference)\n")
    # The fitted transform ape --align se3 reports (rotation 2.1669 deg).
    said = " ".join(out.split())  # the line is folded to 80 columns
    assert f"{est} aligned to {gt}: se3 alignment fitted on 785 poses: rotation 2.1669 deg" in said
    assert _folded(out, f"{est} aligned to {gt}:")
    assert f"wrote {svg}" in out
    text = svg.read_text(encoding="utf-8")
    for label in (
        "x [m]",
        "roll [deg]",
        "pitch [deg]",
        "yaw [deg]",
        "speed [m/s]",
        "time since the first pose [s]",
        "reference",
    ):
        assert label in text
    assert main(["traj", "--ref", gt, est, "--align", "se3", "--json"]) == 0
    reports = json.loads(capsys.readouterr().out)
    assert [r.get("role") for r in reports] == ["reference", None]
    assert reports[1]["alignment"]["method"] == "se3"


def _folded(out: str, start: str) -> bool:
    """Whether the line starting with ``start`` and its indented rest fit 80 columns."""
    lines = out.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith(start))
    block = [lines[first]]
    for line in lines[first + 1 :]:
        if not line.startswith("  "):
            break
        block.append(line)
    return len(block) > 1 and max(map(len, block)) <= 80


def test_traj_align_needs_a_reference(capsys: pytest.CaptureFixture[str]) -> None:
    """Each flag that needs --ref and was given is named: all five were named, whichever
    was given, and the list was written apart from the one the refusal of a REF also
    given as FILE drops (--max-gap and --max-distance were in that one only)."""
    for flags, named in (
        (["--align", "se3"], "--align aligns"),
        (
            ["--sync", "spatial", "--spatial-pairs", "path", "--max-distance", "0.1"],
            "--sync, --spatial-pairs and --max-distance align",
        ),
        (["--sync", "interpolate", "--max-gap", "0.5"], "--sync and --max-gap align"),
        (["--transform-right", "auto"], "--transform-right auto aligns"),  # once ignored
    ):
        assert main(["traj", "example:fr1_xyz/rgbdslam.tum", *flags]) == 2
        said = f"ERROR: {named} each FILE to --ref REF; give that too\n"
        assert capsys.readouterr().err == said


def test_traj_pairing_flags_keep_the_matched_poses_as_evo_traj_sync_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj EST --ref REF --sync nearest` (evo's `--ref REF --sync`, whose translation is
    `--sync nearest`) printed and saved EST whole, 788 poses, the flag unused without a word;
    then it was refused. `evo_traj tum rgbdslam.tum --ref groundtruth.tum --sync
    --save_as_tum` (evo 1.38.1) saves the 785 poses it pairs, and so does traj now. evo
    also writes groundtruth.tum, as read (all 3000 poses, not synced): traj writes OUT
    alone, and `traj REF --save OUT` is that copy."""
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    whole = read_tum(resolve_path(est))
    monkeypatch.chdir(tmp_path)  # evo writes REF's copy in the working folder: none here
    for flags in (["--sync", "nearest"], ["--align", "none", "--max-diff", "0.01"]):
        out = tmp_path / f"synced{len(flags)}.tum"
        assert main(["traj", est, "--ref", gt, *flags, "--save", str(out)]) == 0
        said = capsys.readouterr().out
        assert f"{est} synced to {gt}: 785 of\n  788 poses matched" in said
        synced = read_tum(out)
        assert len(synced) == 785
        kept = np.isin(whole.stamps_s, synced.stamps_s)
        assert kept.sum() == 785
        assert np.array_equal(synced.positions_xyz, whole.positions_xyz[kept])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["synced2.tum", "synced4.tum"]


#: evo_traj 1.38.1 `tum freiburg1_xyz-rgbdslam.txt --ref freiburg1_xyz-groundtruth.txt -a
#: --n_to_align 100 --save_as_tum`: its first and last saved poses, t x y z.
_EVO_TRAJ_N_TO_ALIGN_100 = (
    (1.305031102160407066e09, 1.353016331488565926, 6.222840882123860107e-01, 1.664862850612456313),
    (1.305031128722975969e09, 1.264949685207895858, 5.849785006239478502e-01, 1.452386053106101027),
)


def test_traj_n_align_fits_on_the_first_poses_as_evo_traj_n_to_align(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo_traj's `--ref REF -a --n_to_align 100` was answered `ape --n-align 100`, and traj
    refused --n-align, though it aligns to REF; it now fits on REF's first 100 matched
    poses, and the saved estimate is evo_traj's (its 785 synced poses, to 1e-9 m)."""
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    out = tmp_path / "aligned.tum"
    flags = ["--align", "se3", "--n-align", "100", "--sync", "nearest", "--save", str(out)]
    assert main(["traj", est, "--ref", gt, *flags]) == 0
    assert "se3 alignment fitted on 100 poses" in " ".join(capsys.readouterr().out.split())
    saved = read_tum(out)
    assert len(saved) == 785
    for row, (t, *xyz) in zip((0, -1), _EVO_TRAJ_N_TO_ALIGN_100, strict=True):
        assert saved.stamps_s[row] == pytest.approx(t, abs=1e-6)
        assert saved.positions_xyz[row] == pytest.approx(xyz, abs=1e-9)


#: evo_traj 1.38.1 `tum freiburg1_xyz-rgbdslam.txt --ref freiburg1_xyz-groundtruth.txt
#: --t_offset 0.2 --sync -a --save_as_tum`: 780 poses saved; its first and last, t x y z.
_EVO_TRAJ_T_OFFSET_02 = (
    (1.305031102360407114e09, 1.356115295305557300, 6.298787514180104186e-01, 1.665691116348604783),
    (1.305031128755639076e09, 1.270491683099386204, 5.797362031766588597e-01, 1.451649356594507001),
)


def test_traj_offset_moves_the_stamps_it_matches_and_saves_as_evo_traj_t_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo_traj's `--t_offset 0.2` was answered `ape --offset 0.2`: traj had no offset.
    `traj EST --ref REF --offset 0.2 --sync nearest --align se3 --save OUT` now saves
    evo_traj's 780 poses (785 without the offset), stamps moved by 0.2 s, to 1e-9 m."""
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    out = tmp_path / "shifted.tum"
    flags = ["--offset", "0.2", "--sync", "nearest", "--align", "se3", "--save", str(out)]
    assert main(["traj", est, "--ref", gt, *flags]) == 0
    capsys.readouterr()
    saved = read_tum(out)
    assert len(saved) == 780
    for row, (t, *xyz) in zip((0, -1), _EVO_TRAJ_T_OFFSET_02, strict=True):
        assert saved.stamps_s[row] == pytest.approx(t, abs=1e-6)
        assert saved.positions_xyz[row] == pytest.approx(xyz, abs=1e-9)
    # --t-start cuts the moved stamps: rgbdslam's first (1305031102.160407 s) moved by 10 s.
    kept = tmp_path / "kept.tum"
    flags = ["--offset", "10", "--t-start", "1305031112.16", "--save", str(kept)]
    assert main(["traj", est, *flags]) == 0
    whole = read_tum(resolve_path(est))
    assert np.array_equal(read_tum(kept).stamps_s, whole.stamps_s + 10.0)


def test_traj_offset_takes_seconds_only(capsys: pytest.CaptureFixture[str]) -> None:
    """ape's `--offset auto` shares the flag; traj estimates no offset, so its help must
    not offer auto (it said SECONDS|auto)."""
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["traj", "--help"])
    said = capsys.readouterr().out
    assert "--offset SECONDS " in said
    assert "SECONDS|auto" not in said
    est = "example:fr1_xyz/rgbdslam.tum"
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", est, "--offset", "auto"])
    # It said only "invalid float value: 'auto'", as for a typo: auto is a word traj
    # lacks, and the command that estimates the offset is said.
    assert capsys.readouterr().err.splitlines()[-1] == (
        "ERROR: robot-msgs traj: argument --offset: expected SECONDS, got 'auto': this "
        "command estimates none; `robot-msgs ape REF EST --offset auto` does"
    )
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["traj", est, "--offset", "x"])
    assert "argument --offset: invalid float value: 'x'" in capsys.readouterr().err


def test_traj_align_without_sync_says_evo_traj_keeps_only_the_matched_poses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """evo_traj's -a syncs as well (evo 1.38.1 `tum rgbdslam.txt --ref groundtruth.txt -a
    --save_as_tum` writes 785 poses); its answer here, `--align se3`, keeps and saves all
    788 and said nothing of it."""
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    said = "  all 788 poses kept; evo_traj -a keeps the 785 matched (here: --sync nearest)\n"
    assert main(["traj", est, "--ref", gt, "--align", "se3"]) == 0
    assert capsys.readouterr().out.endswith(said)
    assert main(["traj", est, "--ref", gt, "--align", "se3", "--sync", "nearest"]) == 0
    assert "evo_traj -a" not in capsys.readouterr().out


def test_traj_sync_says_one_pose_resampled_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A FILE of 3 poses (0, 1, 2 s) resampled at a REF whose one stamp in its span is
    1.5 s keeps one pose, which was said as "1 poses interpolated from 3"."""
    (tmp_path / "a.tum").write_text("0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n2 2 0 0 0 0 0 1\n")
    (tmp_path / "b.tum").write_text("1.5 0 0 0 0 0 0 1\n5 0 0 0 0 0 0 1\n")
    a, b = str(tmp_path / "a.tum"), str(tmp_path / "b.tum")
    assert main(["traj", a, "--ref", b, "--sync", "interpolate-longer", "--max-diff", "1"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"{a} resampled at {b}'s stamps: 1 pose interpolated from 3" in said


def test_traj_sync_says_a_file_resampled_at_the_reference_stamps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--sync interpolate-longer` resamples the longer side: groundtruth (3000 poses)
    against rgbdslam keeps 785 poses interpolated at rgbdslam's stamps, none of its own,
    which was said as "785 of 3000 poses matched"."""
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    out = tmp_path / "resampled.tum"
    flags = ["--sync", "interpolate-longer", "--save", str(out)]
    assert main(["traj", gt, "--ref", est, *flags]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"{gt} resampled at {est}'s stamps: 785 poses interpolated from 3000 " in said
    assert "poses matched" not in said
    stamps = read_tum(out).stamps_s
    assert not np.isin(stamps, read_tum(resolve_path(gt)).stamps_s).any()
    assert np.isin(stamps, read_tum(resolve_path(est)).stamps_s).all()
    # The shorter FILE keeps its own poses: said as matched.
    assert main(["traj", est, "--ref", gt, "--sync", "interpolate-longer"]) == 0
    assert f"{est} synced to {gt}: 785 of\n  788 poses matched\n" in capsys.readouterr().out


@pytest.mark.parametrize("align", [[], ["--align", "se3"]])
def test_traj_saves_the_estimate_moved_by_its_estimated_right_transform(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], align: list[str]
) -> None:
    # What ape --transform-right auto compares is what traj draws and saves: the saved
    # estimate, evaluated as it is, gives ape's number (once only the alignment moved it).
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    saved = tmp_path / "moved.tum"
    assert (
        main(["traj", est, "--ref", gt, *align, "--transform-right", "auto", "--save", str(saved)])
        == 0
    )
    out = capsys.readouterr().out
    said = " ".join(out.split())  # folded to 80 columns
    assert f"{est} mounted on {gt}: extrinsic estimated: translation (-0.0374, 0.0290, " in said
    assert _folded(out, f"{est} mounted on {gt}:")
    how = "aligned to" if align else "mounted on"
    assert f"wrote {saved} ({how} {gt})" in said
    assert main(["ape", gt, est, *align, "--transform-right", "auto", "--json"]) == 0
    expected = stats_of(json.loads(capsys.readouterr().out))["translation"]
    assert main(["ape", gt, str(saved), "--json"]) == 0
    got = stats_of(json.loads(capsys.readouterr().out))["translation"]
    for key in ("rms", "mean", "max"):
        assert got[key] == pytest.approx(expected[key], rel=1e-9)
    assert main(["traj", est, "--ref", gt, *align, "--transform-right", "auto", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)[1]
    assert len(report["transform_right"]) == 16
    assert ("alignment" in report) == bool(align)


def test_traj_ref_aligns_on_the_spatial_pairs_the_flag_chooses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    trajectopy = json.loads((DATA / "trajectopy_spatial_reference.json").read_text())
    assert trajectopy["estimate"].endswith("fr1_xyz/rgbdslam.tum")
    first = next(c for c in trajectopy["cases"] if c["max_distance_m"] in (None, 0))
    fitted = {}
    for rule in ("path", "first"):
        argv = ["traj", "--ref", gt, est, "--align", "se3", "--sync", "spatial"]
        assert main([*argv, "--spatial-pairs", rule, "--json"]) == 0
        fitted[rule] = json.loads(capsys.readouterr().out)[1]["alignment"]["n_fit"]
    assert fitted["first"] == first["n_pairs"]  # trajectopy 5.1.2's pairs, stored
    assert fitted["path"] != first["n_pairs"]  # our rule keeps another set


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_traj_save_writes_a_ros2_bag_read_back_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    pytest.importorskip("rosbags")
    from robot_msgs.io import read_bag, read_messages

    src = write(tmp_path, CLEAN)
    out = tmp_path / f"out{suffix}"
    assert main(["traj", str(src), "--save", str(out), "--save-topic", "/est"]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    back = read_bag(out, "/est")
    assert back.positions_xyz.tolist() == [[0, 0, 0], [3, 4, 0], [3, 4, 1]]
    assert back.stamps_ns is not None
    assert back.stamps_ns.tolist() == [0, 500_000_000, 1_000_000_000]
    assert len(list(read_messages(out, "/est"))) == 3
    again = tmp_path / f"again{suffix}"
    assert main(["traj", str(out), "--topic", "/est", "--save", str(again)]) == 0
    assert read_bag(again, "/est") == back  # the input topic is kept, stamps exact


def test_traj_save_of_stamps_before_1970_to_mcap_is_an_error_not_a_bug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stamps of -1 s and 0 s saved as .mcap (log times unsigned) exited 70 with "a bug in
    robot_msgs (OverflowError: can't convert negative int to unsigned)"."""
    pytest.importorskip("rosbags")
    src = write(tmp_path, "-1 0 0 0 0 0 0 1\n0 1 0 0 0 0 0 1\n")
    out = tmp_path / "out.mcap"
    assert main(["traj", str(src), "--save", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {out}: pose 0's stamp -1.0 s is before 1970, outside what a ")
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.tum"]


def _strict(text: str) -> object:
    def refuse(token: str) -> object:
        msg = f"not strict JSON: {token}"
        raise ValueError(msg)

    return json.loads(text, parse_constant=refuse)


def test_traj_json_is_strict_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = write(tmp_path, "0 0 0 0 0 0 0 1\n", name="one.tum")  # a rate that is NaN
    assert main(["traj", str(one), "--json"]) == 0
    reports = _strict(capsys.readouterr().out)
    assert isinstance(reports, list)
    assert reports[0]["poses"] == 1


@pytest.mark.evo_data
def test_save_with_ref_and_align_writes_the_aligned_estimate(
    evo_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: `traj EST --ref REF --align sim3 --save OUT` wrote the unaligned estimate.

    The law: the saved file evaluated without alignment gives the aligned APE.
    """
    ref = str(evo_data / "freiburg1_xyz-groundtruth.txt")
    est = str(evo_data / "freiburg1_xyz-ORB_kf_mono.txt")
    out = tmp_path / "aligned.tum"
    assert main(["traj", est, "--ref", ref, "--align", "sim3", "--save", str(out)]) == 0
    assert f"wrote {out} (aligned to {ref})" in " ".join(capsys.readouterr().out.split())
    assert main(["ape", ref, est, "--align", "sim3", "--json"]) == 0
    aligned = json.loads(capsys.readouterr().out)
    assert main(["ape", ref, str(out), "--json"]) == 0
    saved = json.loads(capsys.readouterr().out)
    rms = [stats_of(r)["translation"]["rms"] for r in (aligned, saved)]
    assert rms[1] == pytest.approx(rms[0], rel=1e-6)  # the file holds 6 decimals
    assert rms[0] < 0.02  # and not the unaligned 2 m of a monocular estimate


@pytest.mark.evo_data
def test_a_file_or_ref_that_is_a_topic_of_a_bag_given_says_so_and_what_to_type(
    evo_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo's `bag x.bag gt` without `bag`, and evo_traj's `--ref /gt` (a topic there).

    Both were "groundtruth: no such file", of a topic the bag lists.
    """
    pytest.importorskip("rosbags")
    monkeypatch.chdir(evo_data)
    bag = "ROS_example.bag"
    assert main(["traj", bag, "groundtruth", "--check"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    said = f"groundtruth: no such file; it is a topic of {bag}: `robot-msgs traj {bag} --check"
    assert f"{said} --topic groundtruth` reads it" in err
    assert main(["traj", bag, "--topic", "ORB-SLAM", "--ref", "/groundtruth"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    traj = f"robot-msgs traj {bag} --topic ORB-SLAM --ref-topic groundtruth"
    assert err.startswith(f"ERROR: /groundtruth: no such file; it is a topic of {bag}, ")
    assert f"`{traj}` reads them" in err


@pytest.mark.evo_data
def test_evo_traj_bag_topics_with_a_ref_topic_are_told_the_traj_command_that_runs(
    evo_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`evo_traj bag ROS_example.bag ORB-SLAM S-PTAM --ref groundtruth`, typed without `bag`.

    Each estimate topic was told `traj ROS_example.bag --ref groundtruth --topic ORB-SLAM`,
    which failed on `groundtruth` in its turn, then one ape command a topic (traj read one
    topic of a bag). Each is told the one traj command that reads them all against REF.
    """
    pytest.importorskip("rosbags")
    monkeypatch.chdir(evo_data)
    bag = "ROS_example.bag"
    assert main(["traj", bag, "ORB-SLAM", "S-PTAM", "--ref", "groundtruth"]) == 1
    err = capsys.readouterr().err
    assert err.count("ERROR:") == 1  # the topics of one error named together
    err = " ".join(err.split())
    traj = f"robot-msgs traj {bag} --topic ORB-SLAM --topic S-PTAM --ref-topic groundtruth"
    for topic in ("ERROR: groundtruth", "; ORB-SLAM, S-PTAM"):
        assert f"{topic}: no such file; it is a topic of {bag}" in err
    said = "and --ref names a file here (a topic in evo_traj's bag mode): "
    assert err.count(f"{said}`{traj}` reads them") == 2
    assert main([*traj.split()[1:], "--json"]) == 0  # the command told runs
    assert [r["topic"] for r in json.loads(capsys.readouterr().out)] == [
        "groundtruth",
        "ORB-SLAM",
        "S-PTAM",
    ]


def test_ref_without_a_common_time_names_trajs_own_offset_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj EST --ref REF --align se3` of two clocks was told '--offset 0 s' and to give
    '--offset SECONDS', which traj refused as a flag of ape and others; then it was sent
    to ape's. traj has its own now (evo_traj --t_offset), and with it the files match."""
    ref = write(tmp_path, CLEAN, "ref.tum")
    late = "".join(
        f"{100 + float(r.split()[0])} {r.split(' ', 1)[1]}\n" for r in CLEAN.splitlines()[1:]
    )
    est = write(tmp_path, late, "est.tum")
    assert main(["traj", str(est), "--ref", str(ref), "--align", "se3"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "No pose pairs found with --sync nearest, --max-diff 0.01 s: " in err
    offset = "the offset (--offset SECONDS) is -100.000000 s"
    assert f"{offset} if both recordings started together" in err
    assert err.count("--offset") == 1
    assert main(["traj", str(est), "--ref", str(ref), "--offset", "-100", "--sync", "nearest"]) == 0
    assert "synced to" in capsys.readouterr().out


def test_ref_that_is_also_a_file_is_refused_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj --ref BAG BAG --topic T --align se3 --save OUT` wrote nothing and exited 0.

    Both were read by path, so the FILE was taken for the reference: nothing was aligned,
    saved or said. REF and FILE are one trajectory then, so it is refused, naming the
    command that reads two topics of one bag.
    """
    est = tmp_path / "e.tum"
    est.write_text(CLEAN)
    out = tmp_path / "out.tum"
    argv = ["traj", "--ref", str(est), str(est), "--align", "se3", "--save", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: --ref {est} is also a FILE: ")
    assert "`robot-msgs traj BAG --topic B --ref-topic A` reads B against A" in err
    assert not out.exists()


def test_ref_that_is_also_a_file_says_the_command_without_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo's habit `evo_traj tum A B --ref A` was told of bags only, not what to type."""
    ref, est = tmp_path / "a.tum", tmp_path / "b.tum"
    ref.write_text(CLEAN)
    est.write_text(CLEAN)
    assert main(["traj", str(ref), str(est), "--ref", str(ref)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"name it once (`robot-msgs traj {est} --ref {ref}`)" in err


def test_ref_that_is_also_a_file_offers_the_command_with_every_other_flag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj A B --ref A --align se3 --plot x.pdf` was offered `traj B --ref A`, flags dropped.

    With no FILE left REF is the FILE, and the flags that need --ref go (--align would be
    refused without it); the others stay, as typed.
    """
    (tmp_path / "a.tum").write_text(CLEAN)
    (tmp_path / "b.tum").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    argv = ["traj", "a.tum", "b.tum", "--ref", "a.tum", "--align", "se3", "--plot", "x.pdf"]
    assert main([*argv, "--t-start", "0.5", "--label", "my b"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    offered = "robot-msgs traj b.tum --ref a.tum --align se3 --plot x.pdf --t-start 0.5"
    assert f"name it once (`{offered} --label 'my b'`)" in err
    argv = ["traj", "--ref", "a.tum", "./a.tum", "--al=se3", "--sync", "nearest", "--check"]
    assert main([*argv, "--transform-right", "auto", "--save", "o.tum"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "name it once (`robot-msgs traj ./a.tum --check --save o.tum`)" in err


def test_ref_that_is_also_a_file_offers_a_command_that_runs_with_its_labels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj A B --ref A --plot x.pdf --label a --label b` offered both labels for B alone.

    The offered command was refused next (`--label a b: 2 given for 1 input`). Labels name
    the FILEs by place: the dropped FILE's goes with it, all of them where the pairing
    cannot be told; each offered command runs.
    """
    (tmp_path / "a.tum").write_text(CLEAN)
    (tmp_path / "b.tum").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    cases = {
        "a.tum b.tum --ref a.tum --plot x.pdf --label a --label b": "b.tum --ref a.tum --plot x.pdf --label b",
        "b.tum a.tum --ref a.tum --label=b --plot x.pdf --lab a": "b.tum --ref a.tum --label=b --plot x.pdf",
        "a.tum b.tum a.tum --ref a.tum --plot x.pdf --label a --label b": "b.tum --ref a.tum --plot x.pdf",
        "a.tum ./a.tum --ref a.tum --plot x.pdf --label a --label b": "a.tum --plot x.pdf --label a",
    }  # fmt: skip
    for given, offered in cases.items():
        assert main(["traj", *given.split()]) == 2
        err = " ".join(capsys.readouterr().err.split())
        assert f"name it once (`robot-msgs traj {offered}`)" in err
        assert main(["traj", *offered.split()]) == 0, capsys.readouterr().err
        assert "wrote x.pdf" in capsys.readouterr().out
        (tmp_path / "x.pdf").unlink()


def test_ref_that_is_also_a_file_is_found_by_the_file_not_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj ./a.tum b.tum --ref a.tum` ran on: the paths were compared as text."""
    (tmp_path / "a.tum").write_text(CLEAN)
    (tmp_path / "b.tum").write_text(CLEAN)
    monkeypatch.chdir(tmp_path)
    assert main(["traj", "./a.tum", "b.tum", "--ref", "a.tum"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith("ERROR: --ref a.tum is also a FILE: ")
    assert "name it once (`robot-msgs traj b.tum --ref a.tum`)" in err


# Fixes on UTM zone 32's central meridian (9° E): on the equator, then at 45° N twice,
# the second 10 m higher. Rows are t lat lon alt.
LLA = "0 0.0 9.0 0.0\n1 45.0 9.0 100.0\n2 45.0 9.0 110.0\n"


def meridian_arc_m(lat_deg: float) -> float:
    """WGS-84 meridian arc from the equator, by Simpson's rule on its defining integral."""
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    phi = np.linspace(0.0, np.radians(lat_deg), 2001)
    g = a * (1 - e2) / (1 - e2 * np.sin(phi) ** 2) ** 1.5
    h = phi[1] - phi[0]
    return float(h / 3 * (g[0] + g[-1] + 4 * g[1:-1:2].sum() + 2 * g[2:-1:2].sum()))


def test_traj_converts_lat_lon_to_utm_with_crs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pyproj")
    fixes, out = write(tmp_path, LLA, "fix.lla"), tmp_path / "utm.tum"
    assert main(["traj", str(fixes), "--crs", "EPSG:32632", "--save", str(out)]) == 0
    assert "frames       EPSG:32632 -> -" in capsys.readouterr().out
    xyz = read_tum(out).positions_xyz
    # On the central meridian: easting 500 000 m (the false easting), northing k0 = 0.9996
    # times the meridian arc (4 984 944.378 m to 45°, as published for WGS-84).
    assert meridian_arc_m(45.0) == pytest.approx(4984944.378, abs=1e-3)
    np.testing.assert_allclose(xyz[:, 0], 500000.0, rtol=0, atol=1e-6)
    np.testing.assert_allclose(xyz[:, 1], [0.0, *[0.9996 * meridian_arc_m(45.0)] * 2], atol=1e-3)
    assert xyz[:, 2].tolist() == [0.0, 100.0, 110.0]


def test_traj_converts_lat_lon_to_enu_about_geo_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixes, out = write(tmp_path, LLA, "fix.lla"), tmp_path / "enu.tum"
    argv = ["traj", str(fixes), "--geo-origin", "45", "9", "100", "--save", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    xyz = read_tum(out).positions_xyz
    # The origin itself, then 10 m straight up (east, north, up).
    np.testing.assert_allclose(xyz[1:], [[0.0, 0.0, 0.0], [0.0, 0.0, 10.0]], rtol=0, atol=1e-8)
    # A frame flag while no input holds latitudes and longitudes is refused as ape and
    # traj --ref refuse it (it was this file's error, exit 1, only without --ref).
    poses = str(write(tmp_path, CLEAN))
    for argv in (["traj", poses], ["ape", poses, poses]):
        assert main([*argv, "--crs", "EPSG:32632"]) == 2
        assert capsys.readouterr().err == (
            "ERROR: --crs EPSG:32632: applies to .lla files and NavSatFix topics; the inputs "
            "hold poses\n"
        )


def test_traj_lists_the_tf_transforms_of_a_bag_without_a_chosen_topic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.io.conftest import BagMaker
    from tests.io.test_bag import tf_bag

    bag = tf_bag(BagMaker(tmp_path), "mcap")
    assert main(["traj", str(bag)]) == 0
    out = capsys.readouterr().out
    assert "  TF (/tf:parent.child): map->odom, odom->base, base->cam (static)\n" in out
    assert max(len(line) for line in out.splitlines()[1:]) <= 80  # all but the path line


def test_traj_ref_reads_ref_and_every_file_about_the_first_fix_of_ref(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.io.conftest import BagMaker

    # 10 m north of 45° N: the meridian radius of curvature there is
    # M = a (1 - e²) / (1 - e² sin² 45°)^1.5 (WGS-84), and a 10 m arc is 10 / M radians.
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    north_deg = float(np.degrees(10.0 / (a * (1 - e2) / (1 - e2 / 2) ** 1.5)))
    rows = [(0, 45.0, 9.0, 0.0), (1, 45.0, 9.0, 5.0)]  # t lat lon alt: 5 m straight up
    ref = write(tmp_path, "".join(f"{t} {la!r} {lo!r} {h!r}\n" for t, la, lo, h in rows), "r.lla")
    moved = [(t, la + north_deg, lo, h) for t, la, lo, h in rows]
    est_lla = write(
        tmp_path, "".join(f"{t} {la!r} {lo!r} {h!r}\n" for t, la, lo, h in moved), "e.lla"
    )
    bags = BagMaker(tmp_path)
    fixes = [bags.navsat("ros1", (t, 0), (la, lo, h)) for t, la, lo, h in moved]
    est_bag = bags.write("gps", "ros1", {"/fix": ("sensor_msgs/msg/NavSatFix", fixes)})
    for est in (est_lla, est_bag):
        out = tmp_path / f"{est.stem}.tum"
        assert main(["traj", str(est), "--ref", str(ref), "--save", str(out)]) == 0
        # In REF's frame (its first fix the origin): 10 m north of it, then 5 m up too.
        # The 5 m up is 5 m further from the earth's centre: the 10 m arc grows by
        # 10 * 5 / M = 8e-6 m, well inside the tolerance.
        xyz = read_tum(out).positions_xyz
        np.testing.assert_allclose(xyz, [[0, 10, 0], [0, 10, 5]], rtol=0, atol=1e-4)
    # Without --ref, each file its own first fix, as before: no 10 m.
    alone = tmp_path / "alone.tum"
    assert main(["traj", str(est_lla), "--save", str(alone)]) == 0
    np.testing.assert_allclose(read_tum(alone).positions_xyz, [[0, 0, 0], [0, 0, 5]], atol=1e-9)
    capsys.readouterr()
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["traj", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "(default with --ref: the first fix of REF, for REF and every FILE; " in said
    assert "without: each file's first fix)" in said


def test_traj_refuses_a_file_of_one_endless_line_without_reading_it_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 12 MB without a line end, more than a read piece: it was read whole into one buffer.
    path = tmp_path / "endless.tum"
    path.write_bytes(b"1 2 3 4 0 0 0 1\n" + b"7" * (12 << 20))
    assert main(["traj", str(path), "--format", "tum"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"ERROR: {path}, line 2: longer than 1 MiB (a line of poses is about 100 bytes): "
        "not a text table\n"
    )


def _unfolded(out: str) -> str:
    """The text with each issue's folded lines joined (they fold under the value column)."""
    return re.sub(r"\n {15}", " ", out)


def test_traj_takes_the_kitti_rotations_flag_its_reading_note_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two poses whose blocks carry KITTI's 7 printed digits (0.99999994: off SO(3) by 1.2e-7).
    rows = "0.99999994 0 0 1 0 1 0 2 0 0 1 3\n1 0 0 4 0 0.99999994 0 5 0 0 1 6\n"
    src = write(tmp_path, rows, name="00.txt")
    assert main(["traj", str(src)]) == 0
    assert "as given (--kitti-rotations as_given)" in _unfolded(capsys.readouterr().out)
    out = tmp_path / "back.txt"
    flags = ["--kitti-rotations", "as_given", "--save", str(out), "--to", "kitti"]
    assert main(["traj", str(src), *flags]) == 0
    written = [[float(v) for v in line.split()] for line in out.read_text().splitlines()]
    given = [[float(v) for v in line.split()] for line in rows.splitlines()]
    assert written == given  # the blocks as read, not their nearest rotations


def test_traj_check_passes_kittis_printed_rounding_and_fails_a_block_beyond_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 0.99999994 in a block is off SO(3) by 1.2e-7: the 7 digits KITTI prints (every file
    # of the benchmark has it). Said as a note, under either rule; no data problem.
    rows = "0.99999994 0 0 1 0 1 0 2 0 0 1 3\n1 0 0 4 0 0.99999994 0 5 0 0 1 6\n"
    src = write(tmp_path, rows, name="00.txt")
    for rule in ("nearest", "as_given"):
        assert main(["traj", str(src), "--check", "--kitti-rotations", rule, "--json"]) == 0
        (report,) = json.loads(capsys.readouterr().out)
        assert report["issues"] == []
        (said,) = report["notes"]
        assert "off orthonormal by rounding" in said or "used as given, as evo does" in said
    # A block off by ~1e-3 is beyond any printing: an issue, and --check fails.
    off = write_kitti_off_so3(tmp_path / "off.txt", seed=1)
    assert main(["traj", str(off), "--check", "--json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    assert "notes" not in report
    (issue,) = report["issues"]
    assert "replaced by the nearest rotation (max |R Rᵀ - I| 0.0021 at line 2)" in issue


def test_traj_check_passes_a_valid_lla_file_whose_format_has_no_orientation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A valid latitude/longitude file failed --check (exit 1): the format's lack of an
    orientation was listed as an issue of the file (a review). It is a note; a row the
    reader drops is still an issue."""
    fixes = write(tmp_path, LLA, "fix.lla")
    assert main(["traj", str(fixes), "--check", "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["issues"] == []
    (said,) = report["notes"]
    assert said.startswith(f"{fixes}: latitude/longitude/altitude has no orientation")
    broken = write(tmp_path, LLA + "3 nan 9.0 110.0\n", "nan.lla")
    assert main(["traj", str(broken), "--check", "--json"]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    (issue,) = report["issues"]
    assert "1 row(s) with NaN or infinite values dropped" in issue


def test_a_topic_named_with_escape_codes_is_shown_never_acting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bag topic named with a colour and a window-title code was printed raw on
    standard output (its ERROR line was escaped). rosbags writes the bag: ours refuses
    such a topic."""
    from tests.report.bagtools import write_pose_bag

    bag = tmp_path / "t"
    write_pose_bag(bag, [0, 10**9], [0, 10**9], topic="/a\x1b[31mRED\x1b]0;title\x07")
    assert main(["traj", str(bag)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "\x07" not in out
    assert f"{bag} /a\\x1b[31mRED\\x1b]0;title\\x07 (bag2)" in " ".join(out.split())


@pytest.mark.parametrize(
    ("origin", "got"),
    [
        (["nan", "9", "100"], "nan 9.0 100.0"),  # blamed the file: every row 'NaN or infinite'
        (["inf", "9", "100"], "inf 9.0 100.0"),  # "row 1: latitude inf" of the file
        (["45", "9", "inf"], "45.0 9.0 inf"),
        (["91", "9", "100"], "91.0 9.0 100.0"),
        (["45", "-361", "100"], "45.0 -361.0 100.0"),
    ],
)
@pytest.mark.parametrize("command", ["traj", "ape"])
def test_a_geo_origin_off_the_earth_is_refused_naming_the_flag(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    origin: list[str],
    got: str,
) -> None:
    fixes = write(tmp_path, LLA, "fix.lla")
    inputs = [str(fixes)] if command == "traj" else [str(fixes), str(fixes)]
    assert main([command, *inputs, "--geo-origin", *origin]) == 2
    assert capsys.readouterr().err == (
        f"ERROR: --geo-origin {' '.join(origin)}: expected a latitude within -90 .. 90 deg, "
        f"a longitude within -360 .. 360 deg and a finite altitude, got {got}\n"
    )


def test_traj_help_says_what_transform_right_auto_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # traj's usage showed --transform-right FILE|auto and traj --ref takes auto, but its
    # help said only what FILE is, where ape's says what auto does.
    with pytest.raises(SystemExit, match=r"^0$"):
        main(["traj", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--transform-right FILE|auto right-multiply" in out
    assert "auto: estimate --transform-right FILE from the motion (hand-eye calibration" in out


@pytest.mark.parametrize(
    ("topic", "said"),
    [
        ("", "--save-topic '': no ROS 2 topic name (it is empty)"),
        ("/", "--save-topic /: no ROS 2 topic name ('/' alone is the root namespace)"),
        ("/my est", "--save-topic '/my est': no ROS 2 topic name (it holds a space or control"),
    ],
)
def test_traj_save_topic_that_names_no_topic_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], topic: str, said: str
) -> None:
    """--save-topic / wrote a bag on '/', and --save-topic '' was taken for no flag (the
    bag written on /trajectory): both are refused as usage errors, nothing written."""
    pytest.importorskip("rosbags")
    src = write(tmp_path, CLEAN)
    out = tmp_path / "o.mcap"
    assert main(["traj", str(src), "--save", str(out), "--save-topic", topic]) == 2
    assert capsys.readouterr().err.startswith(f"ERROR: {said}")
    assert not out.exists()


def _odometry_bag(tmp_path: Path) -> Path:
    """A bag of nav_msgs/Odometry on /odom whose child frame is base_link."""
    pytest.importorskip("rosbags")
    from robot_msgs.io import write_trajectory_bag
    from robot_msgs.msg.catalog import example
    from robot_msgs.trajectory import PoseTrajectory

    traj = example("trajectory/PoseTrajectory")  # child frame "base_link"
    assert isinstance(traj, PoseTrajectory)
    return write_trajectory_bag(tmp_path / "src.mcap", traj, topic="/odom", layout="odometry")


def test_traj_save_of_odometry_tells_the_flag_that_keeps_its_child_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """traj BAG --topic /odom --save o.mcap warned that the child frame was not written,
    advising `write_trajectory_bag(..., layout='odometry')`, an argument no flag gave:
    --save-layout odometry writes nav_msgs/Odometry, which keeps it."""
    from robot_msgs.io import read_bag

    src = _odometry_bag(tmp_path)
    out = tmp_path / "o.mcap"
    assert main(["traj", str(src), "--topic", "/odom", "--save", str(out)]) == 0
    err = capsys.readouterr().err
    assert "not written (nav_msgs/Odometry, --save-layout odometry, keeps them)" in err
    assert "layout=" not in err
    assert read_bag(out, "/odom").child_frame_id == ""
    kept = tmp_path / "kept.mcap"
    flags = ["--topic", "/odom", "--save", str(kept), "--save-layout", "odometry"]
    assert main(["traj", str(src), *flags]) == 0
    assert "WARNING" not in capsys.readouterr().err
    assert read_bag(kept, "/odom").child_frame_id == "base_link"


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_traj_save_of_a_bag_topic_keeps_its_qos(tmp_path: Path, suffix: str) -> None:
    """A latched /amcl_pose (transient_local, depth 1, as nav2 records it) was written
    with the default volatile profile, which a transient_local subscriber of the
    replayed bag does not match; the topic's recorded profiles are now copied."""
    interfaces = pytest.importorskip("rosbags.interfaces")
    from robot_msgs.io import bag_qos, write_messages
    from robot_msgs.msg.catalog import example
    from robot_msgs.trajectory import PoseTrajectory

    forever = interfaces.QosTime(sec=9223372036, nsec=854775807)
    latched = interfaces.Qos(
        history=interfaces.QosHistory.KEEP_LAST,
        depth=1,
        reliability=interfaces.QosReliability.RELIABLE,
        durability=interfaces.QosDurability.TRANSIENT_LOCAL,
        deadline=forever,
        lifespan=forever,
        liveliness=interfaces.QosLiveliness.AUTOMATIC,
        liveliness_lease_duration=forever,
        avoid_ros_namespace_conventions=False,
    )
    traj = example("trajectory/PoseTrajectory")
    assert isinstance(traj, PoseTrajectory)
    src = write_messages(tmp_path / "src.mcap", "/amcl_pose", traj.to_poses(), qos=[latched])
    out = tmp_path / f"out{suffix}"
    assert main(["traj", str(src), "--topic", "/amcl_pose", "--save", str(out)]) == 0
    assert bag_qos(out) == {"/amcl_pose": [latched]}


def test_traj_save_of_a_bag_topic_with_unreadable_qos_writes_the_default_profile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A recorded depth of -1 (rosbags keeps it as its YAML gives it) was copied into the
    written bag, whose QoS ``ros2 bag play`` then cannot read; it is said and left out."""
    import sqlite3

    pytest.importorskip("rosbags")
    from robot_msgs.io import bag_qos, write_messages
    from robot_msgs.msg.catalog import example
    from robot_msgs.trajectory import PoseTrajectory

    traj = example("trajectory/PoseTrajectory")
    assert isinstance(traj, PoseTrajectory)
    src = write_messages(tmp_path / "src.db3", "/amcl_pose", traj.to_poses())
    default = bag_qos(src)
    with sqlite3.connect(src) as db:
        (text,) = db.execute("SELECT offered_qos_profiles FROM topics").fetchone()
        db.execute(
            "UPDATE topics SET offered_qos_profiles = ?", (text.replace("depth: 0", "depth: -1"),)
        )
    out = tmp_path / "out.mcap"
    assert main(["traj", str(src), "--topic", "/amcl_pose", "--save", str(out)]) == 0
    assert bag_qos(out) == default
    said = "src.db3 /amcl_pose: QoS not copied (a bag written with this bag's QoS gives the "
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--save-layout", "path"], "--save-layout only goes with --save OUT.mcap or OUT.db3"),
        (
            ["--save", "o.tum", "--save-layout", "odometry"],
            "--save-layout names the messages of a .mcap or .db3 --save OUT, not of tum text",
        ),
    ],
)
def test_traj_save_layout_without_a_bag_output_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    flags: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    src = write(tmp_path, CLEAN)
    assert main(["traj", str(src), *flags]) == 2
    assert capsys.readouterr().err == f"ERROR: {said}\n"
    assert not (tmp_path / "o.tum").exists()


@pytest.mark.parametrize("stdout", ["-", "/dev/stdout"])
def test_json_and_a_conversion_to_standard_output_are_refused(
    stdout: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``traj E --json --save - --to tum`` wrote the trajectory on standard output and the
    JSON that --json prints there on standard error, among the warnings, where ``ape
    --json --save -`` is refused: both cannot go to standard output."""
    argv = ["traj", "example:fr1_xyz/rgbdslam.tum", "--json", "--save", stdout, "--to", "tum"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"ERROR: --json and --save {stdout} both write to standard output; give --save a file\n"
    )


def test_check_of_stamps_spanning_past_float64_says_their_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI times -1e308, 0, 1e308: the median step's mean overflowed, 'a bug' (a hunt)."""
    poses = tmp_path / "00.txt"
    poses.write_text("".join(f"1 0 0 {k} 0 1 0 0 0 0 1 0\n" for k in range(3)))
    times = tmp_path / "times.txt"
    times.write_text("-1e308\n0\n1e308\n")
    assert main(["traj", str(poses), "--times", str(times), "--json"]) == 0
    (summary,) = json.loads(capsys.readouterr().out)
    assert summary["median_step_s"] == 1e308  # each step 1e308 s, by hand
    assert summary["rate_hz"] == 1e-308


@pytest.mark.parametrize("given", [None, "/pose"])
def test_traj_reads_a_topic_of_a_bag_folder_whose_index_gives_another_topic_a_wrong_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str | None
) -> None:
    """metadata.yaml naming std_msgs/msg/String for /other, whose .db3 holds poses, stopped
    `traj --topic /pose` (and `traj` of its one pose topic), which read_trajectory reads: the
    listing refused the folder. The listing to choose from still refuses it."""
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    pose = "geometry_msgs/msg/PoseStamped"
    msgs = [bags.message("sqlite3", pose, (k, 0, "map", (k, 0, 0), (0, 0, 0, 1))) for k in range(3)]
    bag = bags.write("two", "sqlite3", {"/pose": (pose, msgs), "/other": (pose, msgs)})
    meta = bag / "metadata.yaml"
    text = meta.read_text()
    at = text.index("name: /other")
    meta.write_text(text[:at] + text[at:].replace(pose, "std_msgs/msg/String", 1))
    argv = ["traj", str(bag), "--json"] + ([] if given is None else ["--topic", given])
    assert main(argv) == 0
    (said,) = json.loads(capsys.readouterr().out)
    assert (said["topic"], said["poses"]) == ("/pose", 3)
    assert main(["traj", str(bag), "--topic", "/other"]) == 1
    assert "metadata.yaml says topic /other holds std_msgs/msg/String" in capsys.readouterr().err


def test_traj_parses_a_bag_folders_bad_metadata_yaml_once(
    evo_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`traj BAGDIR` chose the pose topic, which opened the bag, and on its refusal listed
    the topics, which opened it again: rosbags' pure-Python YAML parser read a bad
    metadata.yaml twice (a 1 MiB flow mapping: 74 s where one parse takes 37). The choice
    passes over none or several pose topics only. Seen failing before: 2 parses."""
    from ruamel.yaml import YAML

    bag = tmp_path / "tf_example"
    shutil.copytree(evo_data / "tf_example", bag)
    meta = bag / "metadata.yaml"
    meta.chmod(0o644)
    meta.write_text(meta.read_text(encoding="ascii") + "x: [1, 2\n", encoding="ascii")
    load = YAML.load
    parsed: list[object] = []

    def counted(self: YAML, stream: object) -> object:
        parsed.append(stream)
        return load(self, stream)

    monkeypatch.setattr(YAML, "load", counted)
    assert main(["traj", str(bag)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {bag}: cannot open as a ROS bag (AnyReaderError: ")
    assert err.count("\n") == 1
    assert len(parsed) == 1


#: evo_traj 1.38.1 `bag ROS_example.bag groundtruth ORB-SLAM S-PTAM`: poses, path length
#: (m) and duration (s) as its `infos:` lines print them.
EVO_TRAJ_ROS_EXAMPLE = {
    "groundtruth": (12765, 304.207, 889.019),
    "ORB-SLAM": (8362, 264.793, 730.800),
    "S-PTAM": (5439, 259.680, 730.946),
}


@pytest.mark.evo_data
def test_traj_reads_each_topic_of_one_bag_as_its_own_row_as_evo_traj_does(
    evo_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--topic A --topic B` was refused ("--topic given twice"), the advice evo's `bag BAG
    A B` was given: one bag's topics could not be looked at together. Each is its own row,
    with evo_traj's numbers."""
    pytest.importorskip("rosbags")
    monkeypatch.chdir(evo_data)
    topics = [w for t in EVO_TRAJ_ROS_EXAMPLE for w in ("--topic", t)]
    assert main(["traj", "ROS_example.bag", *topics, "--check", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["topic"] for r in rows] == list(EVO_TRAJ_ROS_EXAMPLE)
    for row in rows:
        poses, length, duration = EVO_TRAJ_ROS_EXAMPLE[row["topic"]]
        assert row["poses"] == poses
        assert row["path_length_m"] == pytest.approx(length, abs=5e-4)
        assert row["duration_s"] == pytest.approx(duration, abs=5e-4)
    assert main(["traj", "ROS_example.bag", *topics]) == 0
    out = capsys.readouterr().out
    for topic, (poses, _, _) in EVO_TRAJ_ROS_EXAMPLE.items():
        assert f"ROS_example.bag {topic} (bag)\n  format" in out
        assert f"  poses        {poses}\n" in out


def test_traj_json_error_row_names_its_topic_only_when_one_was_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing text FILE's row stays {path, error}, as before topics repeated (25a4010
    gave it "topic": null); a bag's rows, one per topic, say which topic failed."""
    ref = write(tmp_path, CLEAN, "gt.tum")
    missing = str(tmp_path / "no.tum")
    assert main(["traj", str(ref), missing, "--json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert sorted(rows[1]) == ["error", "path"]
    argv = ["traj", missing, "--topic", "/a", "--topic", "/b", "--json"]
    assert main(argv) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [(r["path"], r["topic"]) for r in rows] == [(missing, "/a"), (missing, "/b")]


def test_traj_topic_is_a_bags_not_a_text_refs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`traj BAG --topic T --ref gt.tum` read gt.tum with topic T too: "a topic is only
    used with bags"; --topic is REF's only where REF is a bag."""
    pytest.importorskip("rosbags")
    from robot_msgs.io import write_trajectory

    ref = write(tmp_path, CLEAN, "gt.tum")
    (bag,) = write_trajectory(tmp_path / "x.mcap", read_tum(ref), "mcap", topic="/odom")
    assert main(["traj", str(bag), "--topic", "/odom", "--ref", str(ref), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["topic"], r["poses"]) for r in rows] == [(None, 3), ("/odom", 3)]


@pytest.fixture
def legends(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The legend names of each overlay --plot draws, in order."""
    from robot_msgs.report import figures

    drawn: list[list[str]] = []
    overlay = figures.overlay_figure

    def spy(reference: object, named: list[tuple[str, object]], **kw: object) -> object:
        drawn.append([name for name, _ in named])
        return overlay(reference, named, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(figures, "overlay_figure", spy)
    return drawn


def test_traj_plot_of_one_bag_topic_is_named_by_its_file(
    tmp_path: Path, legends: list[list[str]]
) -> None:
    """One --topic: the legend is the file's stem, as before topics were repeatable; the
    key "x.mcap /robot/odom" (a path to Path.stem) had made it "odom"."""
    pytest.importorskip("rosbags")
    pytest.importorskip("matplotlib")
    from robot_msgs.io import write_trajectory

    traj = read_tum(write(tmp_path, CLEAN, "gt.tum"))
    (bag,) = write_trajectory(tmp_path / "x.mcap", traj, "mcap", topic="/robot/odom")
    argv = ["traj", str(bag), "--topic", "/robot/odom", "--plot", str(tmp_path / "o.png")]
    assert main(argv) == 0
    assert legends == [["x"]]


@pytest.mark.evo_data
@pytest.mark.parametrize(
    ("files", "topics", "names"),
    [
        (["a/x.bag", "b/x.bag"], ["S-PTAM", "ORB-SLAM"], ["a/x S-PTAM", "a/x ORB-SLAM"]),
        (["x.bag"], ["S-PTAM", "/S-PTAM"], ["S-PTAM", "/S-PTAM"]),
    ],
)
def test_traj_plot_of_topics_whose_names_meet_names_each_apart(
    evo_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    legends: list[list[str]],
    files: list[str],
    topics: list[str],
    names: list[str],
) -> None:
    """Bags of one stem in two folders, or a topic with and without "/", were named alike
    (`x_S-PTAM` twice, `S-PTAM` twice) and --plot failed "--label: given twice"."""
    pytest.importorskip("rosbags")
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    for file in files:
        Path(file).parent.mkdir(exist_ok=True)
        Path(file).symlink_to(evo_data / "ROS_example.bag")
    given = [w for t in topics for w in ("--topic", t)]
    assert main(["traj", *files, *given, "--plot", "o.svg"]) == 0
    (said,) = legends
    assert said[:2] == names
    assert len(set(said)) == len(said)


@pytest.mark.evo_data
def test_traj_aligns_topics_of_one_bag_to_its_ref_topic_as_evo_traj_bag_ref(
    evo_data: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """evo_traj's `bag BAG ORB-SLAM S-PTAM --ref groundtruth -a --sync` is `BAG --topic
    ORB-SLAM --topic S-PTAM --ref-topic groundtruth --align se3 --sync nearest`: evo 1.38.1
    found 2550 and 1667 matches and the translations below (its -v)."""
    pytest.importorskip("rosbags")
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(evo_data)
    plot = tmp_path / "topics.png"
    argv = ["traj", "ROS_example.bag", "--topic", "ORB-SLAM", "--topic", "S-PTAM"]
    argv += ["--ref-topic", "groundtruth", "--align", "se3", "--sync", "nearest"]
    assert main([*argv, "--json", "--plot", str(plot)]) == 0
    ref, orb, sptam = json.loads(capsys.readouterr().out)
    assert (ref["topic"], ref["role"], ref["poses"]) == ("groundtruth", "reference", 12765)
    assert (orb["matched"], sptam["matched"]) == (2550, 1667)
    evo = {
        "ORB-SLAM": [7.02760235, -0.92102864, 3.04592028],
        "S-PTAM": [7.4997051, 1.78333363, 6.58975299],
    }
    for row in (orb, sptam):
        assert row["alignment"]["translation_m"]["data"] == pytest.approx(evo[row["topic"]])
    assert plot.stat().st_size > 0
    assert main([*argv[:6], "--ref", "ROS_example.bag", *argv[6:]]) == 0  # --ref BAG too
    said = " ".join(capsys.readouterr().out.split())
    assert "ROS_example.bag S-PTAM synced to ROS_example.bag groundtruth: 1667 of 5439" in said


@pytest.mark.evo_data
def test_traj_reads_pose_odometry_and_tf_topics_of_one_mcap(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """evo_traj 1.38.1 `bag2 nav2_turtlebot.mcap /amcl_pose /odom`: 135 poses, 34.450 m,
    99.198 s and 2639, 34.322 m, 96.696 s; TF (evo needs tf2_py) is odom's chain."""
    pytest.importorskip("rosbags")
    bag = str(evo_data / "nav2_turtlebot.mcap")
    topics = ["/amcl_pose", "/odom", "/tf:odom.base_link"]
    assert main(["traj", bag, *(w for t in topics for w in ("--topic", t)), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    said = [(r["topic"], r["poses"], round(r["path_length_m"], 3)) for r in rows]
    assert said == [
        ("/amcl_pose", 135, 34.450),
        ("/odom", 2639, 34.322),
        ("/tf:odom.base_link", 2639, 34.322),
    ]
    assert [round(r["duration_s"], 3) for r in rows[:2]] == [99.198, 96.696]


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (
            ["--topic", "/a", "--topic", "/b", "--save", "o.tum"],
            "--save converts one trajectory, got 2 topics; give one --topic a run",
        ),
        (
            ["--topic", "/a", "--topic", "/b", "--ref-topic", "/a"],
            "--ref-topic /a is also a --topic of x.bag: name it once",
        ),
        (  # was read twice, aligned twice, and --plot blamed a --label never given
            ["--topic", "/a", "--topic", "/b", "--topic", "/a", "--plot", "o.png"],
            "--topic /a given twice: each topic is read once, name it once",
        ),
        (
            ["y.bag", "--topic", "/a", "--ref-topic", "/gt"],
            "--ref-topic without --ref names a topic of the one FILE, got 2; give --ref REF too",
        ),
    ],
)
def test_traj_topics_that_cannot_be_read_together_are_refused_before_reading(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    said: str,
) -> None:
    """evo_traj --save_as_tum writes each topic to its own file; --save writes one OUT."""
    monkeypatch.chdir(tmp_path)  # no x.bag: refused before anything is read
    assert main(["traj", "x.bag", *flags]) == 2
    assert " ".join(capsys.readouterr().err.split()).startswith(f"ERROR: {said}")
    assert not (tmp_path / "o.tum").exists()


#: evo 1.38.1 on the bundled rgbdslam (the bytes of evo's freiburg1_xyz-rgbdslam.txt):
#: `evo_traj tum freiburg1_xyz-rgbdslam.txt --full_check` says nr. of poses 788, t_start
#: 1305031102.160407 s, t_end 1305031128.722976 s, duration 26.56256890296936 s, path
#: length 8.652316950700747 m; with `--ref freiburg1_xyz-groundtruth.txt --sync`, 785 poses.
_EVO_RGBDSLAM = (788, 1305031102.160407, 1305031128.722976, 26.56256890296936, 8.652316950700747)


@pytest.mark.parametrize(
    ("name", "row", "flags"),
    [
        ("w_first.tum", lambda f: [*f[:4], f[7], *f[4:7]], ["--w-first", "estimate"]),
        ("ms.tum", lambda f: [_milliseconds(f[0]), *f[1:]], ["--stamp-divisors", "1", "1000"]),
        (
            "both.tum",
            lambda f: [_milliseconds(f[0]), *f[1:4], f[7], *f[4:7]],
            ["--w-first", "both", "--stamp-divisors", "1", "1000"],
        ),
    ],
)
def test_traj_reads_a_file_written_w_first_or_in_ms_as_the_file_it_was_written_from(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    row: Callable[[list[str]], list[str]],
    flags: list[str],
) -> None:
    """traj had no --w-first nor --stamp-divisors (ape and doctor had): a TUM file written
    qw qx qy qz, or stamped in ms, could not be inspected as written. Each FILE is the
    estimate side, read as the evaluation commands read theirs (io.read_inputs)."""
    clean = "example:fr1_xyz/rgbdslam.tum"
    bad = _rewritten(tmp_path, name, row, source=clean)
    out, want = tmp_path / "back.tum", tmp_path / "clean.tum"
    assert main(["traj", bad, *flags, "--json", "--save", str(out)]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    poses, start, end, duration, length = _EVO_RGBDSLAM
    assert (report["poses"], report["start_s"], report["end_s"]) == (poses, start, end)
    assert report["duration_s"] == pytest.approx(duration, rel=0, abs=1e-9)
    assert report["path_length_m"] == pytest.approx(length, rel=1e-12)
    assert report["issues"] == []
    # Saved, it is the clean file's conversion byte for byte: stamps, positions, quaternions.
    assert main(["traj", clean, "--save", str(want)]) == 0
    assert out.read_bytes() == want.read_bytes()
    capsys.readouterr()
    # Against its ground truth (the reference side, read as written: divisor 1), the
    # estimate's stamps divided pair as evo_traj --sync pairs the clean file's.
    gt = "example:fr1_xyz/groundtruth.tum"
    assert main(["traj", bad, "--ref", gt, *flags, "--sync", "nearest", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[1]["matched"] == 785


def test_traj_refuses_reading_rules_of_a_ref_it_was_not_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """--w-first reference, or a REF stamp divisor, without --ref would read nothing."""
    name = "example:fr1_xyz/rgbdslam.tum"
    assert main(["traj", name, "--w-first", "reference", "--stamp-divisors", "1000", "1"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --w-first reference and --stamp-divisors 1000 1 read REF, and there is no "
        "--ref REF: each FILE is the estimate side (--w-first estimate, --stamp-divisors 1 "
        "EST)\n"
    )


def test_traj_says_every_file_it_could_not_read_in_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``traj a.tum b.tum``, both missing, printed two ``ERROR:`` lines (a newcomer's
    walk); the rule is one. Both are named in it, and the file between them is read."""
    a, b = str(tmp_path / "a.tum"), str(tmp_path / "b.tum")
    tum = "example:fr1_xyz/rgbdslam.tum"
    assert main(["traj", a, tum, b]) == 1
    out, err = capsys.readouterr()
    assert err == f"ERROR: {a}, {b}: no such file\n"
    assert f"{tum} (tum)" in out


def test_traj_names_files_with_a_colon_whole_in_its_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Missing ``a: b.tum`` and ``c: b.tum`` were said ``ERROR: a, c: b.tum: no such
    file``: the files' names were read back from the text, cut at their first ": "
    (not on disk to find their end). traj knows each error's file."""
    monkeypatch.chdir(tmp_path)
    assert main(["traj", "a: b.tum", "c: b.tum"]) == 1
    assert capsys.readouterr().err == "ERROR: a: b.tum, c: b.tum: no such file\n"


def test_traj_quotes_a_file_name_holding_a_comma_in_its_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Missing ``a, b.tum`` and ``c.tum`` were said ``ERROR: a, b.tum, c.tum: no such
    file``, the same line as three files a, b.tum and c.tum (a newcomer's walk): a name
    holding ", " is quoted as a shell reads it; the others stay bare."""
    monkeypatch.chdir(tmp_path)
    assert main(["traj", "a, b.tum", "c.tum"]) == 1
    assert capsys.readouterr().err == "ERROR: 'a, b.tum', c.tum: no such file\n"


def test_traj_says_a_file_given_twice_and_missing_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``traj m.tum m.tum``, missing: ``ERROR: m.tum: no such file; m.tum: no such
    file``, the same words twice in the one line."""
    monkeypatch.chdir(tmp_path)
    assert main(["traj", "m.tum", "m.tum"]) == 1
    assert capsys.readouterr().err == "ERROR: m.tum: no such file\n"


def test_traj_names_the_file_a_reading_rule_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI FILE has no quaternion columns to reorder: that FILE's error, the others read."""
    kitti = tmp_path / "est.kitti"
    write_trajectory(kitti, read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum")), "kitti")
    tum = "example:fr1_xyz/rgbdslam.tum"
    assert main(["traj", str(kitti), tum, "--w-first", "estimate"]) == 1
    out, err = capsys.readouterr()
    assert err == (
        f"ERROR: {kitti}: --w-first estimate: Expected a TUM file (quaternion columns qx qy qz "
        "qw) as the estimate, got its orientations read from rotation blocks: nothing to "
        "reorder\n"
    )
    assert f"{tum} (tum)" in out


@pytest.mark.parametrize(
    ("bag", "flags", "before"),
    [
        # The opens counted on the code before (rosbags' AnyReader.open).
        ("nav2_turtlebot.mcap", [], 3),  # no topic chosen: its topics and TF listed
        ("nav2_turtlebot.mcap", ["--topic", "/odom"], 2),
        ("ROS_example.bag", ["--topic", "S-PTAM", "--ref-topic", "groundtruth"], 6),
        ("tf_example", ["--topic", "/tf:odom.base_link"], 2),  # a ROS 2 folder
    ],
)
def test_traj_opens_a_bag_once(
    evo_data: Path,
    bag_opens: list[object],
    capsys: pytest.CaptureFixture[str],
    bag: str,
    flags: list[str],
    before: int,
) -> None:
    """Its topic listing, the choice of its pose topic, its first fix (for --ref) and its
    read each opened the bag again, and an open is what costs (an index read, SQLite's
    integrity check): once now, all of them from that one reader."""
    assert main(["traj", str(evo_data / bag), *flags]) == 0
    capsys.readouterr()
    assert len(bag_opens) == 1, f"opened {len(bag_opens)} times ({before} before)"


def test_traj_of_many_bags_keeps_few_open(
    evo_data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`traj` ran as one bags_opened_once block, so each FILE's bag stayed open to the
    command's end: `traj` of 40 copies of evo's ROS_example.bag (3.7 MB) held 40 readers
    (46 file descriptors, 257 MB peak RSS, where the code before held one: 7, 74 MB), and
    a folder of large bags held every index in memory at once. At most
    BAGS_KEPT_OPEN that no caller reads are kept; as many bags as that are still opened
    once."""
    pytest.importorskip("rosbags")
    from rosbags.highlevel import AnyReader

    from robot_msgs.io.bounded import BAGS_KEPT_OPEN

    live: list[object] = []
    most = [0]
    opens = [0]
    real_open, real_close = AnyReader.open, AnyReader.close

    def counted_open(reader: AnyReader) -> None:
        real_open(reader)
        opens[0] += 1
        live.append(reader)
        most[0] = max(most[0], len(live))

    def counted_close(reader: AnyReader) -> None:
        live.remove(reader)
        real_close(reader)

    monkeypatch.setattr(AnyReader, "open", counted_open)
    monkeypatch.setattr(AnyReader, "close", counted_close)
    copies = [tmp_path / f"b{k}.bag" for k in range(2 * BAGS_KEPT_OPEN)]
    for copy in copies:
        shutil.copyfile(evo_data / "ROS_example.bag", copy)
    assert main(["traj", *map(str, copies), "--topic", "S-PTAM"]) == 0
    capsys.readouterr()
    assert most[0] <= BAGS_KEPT_OPEN
    assert live == []
    opens[0] = 0
    assert main(["traj", *map(str, copies[:BAGS_KEPT_OPEN]), "--topic", "S-PTAM"]) == 0
    capsys.readouterr()
    assert opens[0] == BAGS_KEPT_OPEN  # each opened once
    assert live == []


def _nanoseconds(stamp: str) -> str:
    """``1305031102.160407`` written as ``1305031102160407000``: the digits kept, no rounding."""
    whole, fraction = stamp.split(".")
    return whole + fraction.ljust(9, "0")


@pytest.mark.parametrize(
    ("argv", "code"),
    [(["traj"], 1), (["ape", "GT"], 2), (["rpe", "GT"], 2), (["doctor", "GT"], 2)],
)
def test_a_stamp_divisor_of_stamps_the_reader_converted_already_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: int
) -> None:
    """fr1_xyz's rgbdslam written in integer nanoseconds: the TUM reader reads them as such
    (divided by 1e9, with a warning), and `--stamp-divisors 1 1e9` divided them again
    without a word: traj said 30696454512.7 Hz and a span of 2.656e-08 s, not 30.7 Hz and
    26.563 s (evo_traj --full_check on the clean file: 26.56256890296936 s). Refused, for
    each command that reads with the reading rules (io.read_inputs), naming the flag."""
    ns = _rewritten(tmp_path, "ns.tum", lambda f: [_nanoseconds(f[0]), *f[1:]],
                    source="example:fr1_xyz/rgbdslam.tum")  # fmt: skip
    files = ["example:fr1_xyz/groundtruth.tum" if a == "GT" else a for a in argv]
    assert main([*files, ns, "--stamp-divisors", "1", "1e9"]) == code
    err = " ".join(capsys.readouterr().err.split())
    assert err.startswith(
        "ERROR: --stamp-divisors 1 1e+09: Expected 1 as the estimate's divisor, got 1e+09: "
        f"its reader divided its stamps already ({ns}: stamps read as nanoseconds and "
        "divided by 1e9 ("
    ), err
    # Without the flag, the file reads as evo_traj reads the clean one.
    assert main(["traj", ns, "--json"]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    poses, start, end, duration, _ = _EVO_RGBDSLAM
    assert (report["poses"], report["start_s"], report["end_s"]) == (poses, start, end)
    assert report["duration_s"] == pytest.approx(duration, rel=0, abs=1e-9)


def test_repeated_stamps_all_is_a_usage_error_naming_the_flag_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """traj took `--repeated-stamps all` and refused it per FILE as a file's error: exit 1,
    one `ERROR: FILE: ...` a FILE; the others refuse a flag's value with exit 2, once."""
    files = []
    for name in ("a.tum", "b.tum"):
        path = tmp_path / name
        path.write_text("0 0 0 0 0 0 0 1\n1 1 0 0 0 0 0 1\n1 3 0 0 0 0 0 1\n2 4 0 0 0 0 0 1\n")
        files.append(str(path))
    assert main(["traj", *files, "--repeated-stamps", "all"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("ERROR: --repeated-stamps all: keeps repeated stamps, ")
