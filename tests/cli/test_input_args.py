"""The input flags every evaluation command shares: bags and their topics, formats, lat/lon."""

from __future__ import annotations

import itertools
import json
import math
import re
import shutil
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from tests.cli.evaluation_files import curve_files, stats_of, write_tum

if TYPE_CHECKING:
    from pathlib import Path


def test_nees_of_a_covariance_bag_with_its_confidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    rng = np.random.default_rng(1)
    t = np.arange(200, dtype=np.float64) * 0.1
    truth = np.stack([t, np.sin(t), 0 * t], axis=1)
    ref = write_tum(tmp_path / "ref.tum", t, truth)
    sigma = np.array([0.05, 0.05, 0.05, 0.01, 0.01, 0.01])
    cov = np.diag(sigma**2).ravel()
    est = truth + rng.normal(size=truth.shape) * sigma[:3]
    msgs = [
        bags.message(
            "ros1",
            "geometry_msgs/msg/PoseWithCovarianceStamped",
            (int(s), round((s % 1) * 1e9), "map", tuple(p), (0.0, 0.0, 0.0, 1.0)),
            covariance=cov,
        )
        for s, p in zip(t, est, strict=True)
    ]
    bag = bags.write(
        "est", "ros1", {"/pose": ("geometry_msgs/msg/PoseWithCovarianceStamped", msgs)}
    )
    argv = ["ape", str(ref), str(bag), "--relation", "nees_position", "--json"]
    assert main([*argv, "--confidence", "0.99"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["confidence"] == 0.99
    assert result["estimated"]["nees_dof"] == 3
    # 200 draws of chi-square(3): the mean within 3 ± 3 sqrt(6 / 200) (3 sigma).
    assert stats_of(result)["nees_position"]["mean"] == pytest.approx(3.0, abs=0.52)
    assert main([*argv, "--confidence", "1.5"]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --confidence 1.5: expected float > 0 and < 1")


def test_lat_lon_inputs_share_the_reference_origin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    fixes = [(47.0 + 1e-5 * i, 8.0 + 2e-5 * math.sin(i / 5), 400.0 + 0.1 * i) for i in range(60)]
    ref = tmp_path / "ref.lla"
    ref.write_text("".join(f"{i} {a!r} {b!r} {c!r}\n" for i, (a, b, c) in enumerate(fixes)))
    # The estimate starts 10 fixes later: with its own first fix as the origin it would be
    # shifted by 10 fixes' worth of motion; with the reference's, it lies on it.
    msgs = [bags.navsat("ros1", (i, 0), fixes[i]) for i in range(10, 60)]
    est = bags.write("gps", "ros1", {"/fix": ("sensor_msgs/msg/NavSatFix", msgs)})
    assert main(["ape", str(ref), str(est), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["counts"]["matched"] == 50
    assert stats_of(result)["translation"]["max"] < 1e-9
    argv = ["ape", str(ref), str(est), "--json", "--geo-origin", "47.0", "8.0", "400.0"]
    assert main(argv) == 0
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["max"] < 1e-9
    pytest.importorskip("pyproj")
    assert main(["ape", str(ref), str(est), "--json", "--crs", "EPSG:32632"]) == 0
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["max"] < 1e-6


def test_a_geo_origin_for_pose_files_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    assert main(["ape", str(ref), str(est), "--geo-origin", "47", "8", "400"]) == 2
    assert capsys.readouterr().err.startswith(
        "ERROR: --geo-origin 47 8 400: applies to .lla files and NavSatFix topics"
    )


@pytest.mark.parametrize("command", ["ape", "doctor"])  # doctor said --topic, not its flag
def test_a_bag_of_several_pose_topics_is_answered_with_the_flag_that_chooses(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    pose = "geometry_msgs/msg/PoseStamped"
    msgs = [
        bags.message("ros1", pose, (s, 0, "map", (s, 0.0, 0.0), (0, 0, 0, 1))) for s in range(5)
    ]
    bag = str(bags.write("two", "ros1", {"/gt": (pose, msgs), "/est": (pose, msgs)}))
    for given, flag in (([], "--ref-topic"), (["--ref-topic", "/gt"], "--est-topic")):
        assert main([command, bag, bag, *given]) == 1
        assert capsys.readouterr().err == (
            f"ERROR: {bag}: choose a topic with {flag} (pose topics: /est, /gt; "
            "TF as /tf:parent.child)\n"
        )
    assert main([command, bag, bag, "--ref-topic", "/gt", "--est-topic", "/ets"]) == 1
    assert "no topic '/ets'; did you mean /est? pose topics: /est, /gt" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["ape", "doctor"])
def test_a_bag_given_as_an_example_is_named_as_given(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Review: a bag read through example:NAME was named by the installed file in errors
    (`/.../robot_msgs/examples/fr1_xyz/rgbdslam.tum: cannot open as a ROS bag`)."""
    from robot_msgs.io import examples
    from tests.io.conftest import BagMaker

    gt, est = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
    installed = str(examples.resolve_path(gt).parent)
    assert main([command, gt, est, "--est-format", "bag"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {est}: cannot open as a ROS bag ("), err
    assert installed not in err
    # Bags among the examples (none is shipped): one of two pose topics, one of zeros.
    root = tmp_path / "examples"
    root.mkdir()
    shutil.copy(examples.resolve_path(gt), root / "gt.tum")
    bags = BagMaker(root)
    pose = "geometry_msgs/msg/PoseStamped"
    msgs = [
        bags.message("mcap", pose, (s, 0, "map", (s, 0.0, 0.0), (0, 0, 0, 1))) for s in range(5)
    ]
    bags.write("two", "mcap", {"/a": (pose, msgs), "/b": (pose, msgs)})
    (root / "zeros.bag").write_bytes(bytes(64))
    monkeypatch.setattr(examples, "_root", lambda: root)
    assert main([command, "example:gt.tum", "example:two"]) == 1
    assert capsys.readouterr().err == (
        "ERROR: example:two: choose a topic with --est-topic (pose topics: /a, /b; "
        "TF as /tf:parent.child)\n"
    )
    assert main([command, "example:gt.tum", "example:zeros.bag"]) == 1
    assert capsys.readouterr().err.startswith("ERROR: example:zeros.bag: not a ROS 1 bag: ")


def test_topics_and_frames_of_the_evo_bags_are_answered_with_the_close_ones(
    evo_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rosbags")
    ros = str(evo_data / "ROS_example.bag")
    assert main(["ape", ros, ros, "--ref-topic", "groundtruth", "--est-topic", "SPTAM"]) == 1
    err = capsys.readouterr().err
    assert (
        "no topic 'SPTAM'; did you mean S-PTAM? pose topics: ORB-SLAM, S-PTAM, groundtruth" in err
    )
    tf = str(evo_data / "tf_example.bag")
    assert main(["traj", tf, "--topic", "/tf"]) == 1
    assert capsys.readouterr().err.endswith(
        "/tf is TF: choose a chain as /tf:parent.child; transforms: odom->base_footprint, "
        "base_footprint->base_link (static)\n"
    )
    assert main(["traj", tf, "--topic", "/tf:odom.base_lnk"]) == 1
    assert "no frame 'base_lnk' on /tf; did you mean base_link?" in capsys.readouterr().err
    nav2 = str(evo_data / "nav2_turtlebot.mcap")
    assert main(["traj", nav2, "--topic", "/tf"]) == 1
    dynamic_first = (
        "transforms: base_link->left_wheel, base_link->right_wheel, map->odom, "
        "odom->base_link, base_link->base_footprint (static)"
    )
    assert dynamic_first in capsys.readouterr().err


def zero_covariance_bag(tmp_path: Path) -> str:
    """A bag of the same six poses on ``/odom`` (covariances all zero) and ``/pose`` (none)."""
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    odom, pose = "nav_msgs/msg/Odometry", "geometry_msgs/msg/PoseStamped"
    poses = [(s, 0, "odom", (0.1 * s, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)) for s in range(6)]
    return str(
        bags.write(
            "zero",
            "ros1",
            {
                "/odom": (odom, [bags.message("ros1", odom, p) for p in poses]),  # all zero
                "/pose": (pose, [bags.message("ros1", pose, p) for p in poses]),  # none
            },
        )
    )


def test_nees_names_the_topic_whose_covariances_are_all_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bag = zero_covariance_bag(tmp_path)
    nees = ["--relation", "nees_position"]
    assert main(["ape", bag, bag, "--ref-topic", "/pose", "--est-topic", "/odom", *nees]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: {bag} /odom: covariances all zero on every message (ROS's 'unknown'): read "
        "as none; NEES (--relation nees_position) needs the estimate's pose covariances: "
        "choose a topic that sets them\n"
    )
    # The reference's all-zero topic is not blamed for an estimate type without any.
    assert main(["ape", bag, bag, "--ref-topic", "/odom", "--est-topic", "/pose", *nees]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: {bag} /pose: Expected an estimate with pose covariances for")
    # Other relations do not use covariances: nothing said about them.
    assert main(["ape", bag, bag, "--ref-topic", "/pose", "--est-topic", "/odom"]) == 0
    assert capsys.readouterr().err == ""
    # traj lists it as a note, not an issue: --check passes.
    assert main(["traj", bag, "--topic", "/odom", "--check"]) == 0
    out = re.sub(r"\n {15}", " ", capsys.readouterr().out)  # notes fold under their column
    assert re.search(rf"\n  notes +{re.escape(bag)} /odom: covariances all zero on every", out)
    assert "  issues       none" in out
    # doctor reports it as an info finding of its kind.
    assert main(["doctor", bag, bag, "--ref-topic", "/pose", "--est-topic", "/odom"]) == 0
    found = capsys.readouterr().out
    assert f"info    unknown_covariances: {bag} /odom: covariances all zero on every" in found


def test_doctor_finds_a_topic_whose_frame_id_changes_mid_bag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A user walk: ground truth switched from map to odom at its 4th message; ape warned of
    # it, but doctor said "nothing found" (the warning was not tagged as a finding).
    from tests.io.conftest import BagMaker

    bags = BagMaker(tmp_path)
    pose = "geometry_msgs/msg/PoseStamped"
    ident = (0.0, 0.0, 0.0, 1.0)
    gt = [(s, 0, "map" if s < 3 else "odom", (0.1 * s, 0.02 * s * s, 0.0), ident) for s in range(6)]
    est = [(s, 0, "map", (0.1 * s, 0.02 * s * s, 0.0), ident) for s in range(6)]
    msgs = {
        "/gt": (pose, [bags.message("mcap", pose, p) for p in gt]),
        "/est": (pose, [bags.message("mcap", pose, p) for p in est]),
    }
    bag = str(bags.write("frames", "mcap", msgs))
    assert main(["doctor", bag, bag, "--ref-topic", "/gt", "--est-topic", "/est"]) == 0
    found = capsys.readouterr().out
    assert (
        f"warning mixed_frames: {bag} /gt: messages are in 2 frames (map, odom; 'odom' from message "
        "4): frame_id set to the first, 'map'"
    ) in found


def test_nees_in_report_and_bench_names_the_run_and_the_topic_whose_covariances_are_all_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bag = zero_covariance_bag(tmp_path)
    manifest = tmp_path / "runs.toml"
    # The six poses lie on a line: no SE(3) fit, so align none (the same poses: APE 0).
    text = (
        '[settings]\nalign = "none"\n[[settings.evaluate]]\nmetric = "ape"\n'
        'relation = "nees_position"\n[references]\nseq = {{ path = "{bag}", topic = "/pose" }}\n'
        '[[runs]]\nalgorithm = "odo"\nsequence = "seq"\ntrial = 1\nestimate = "{bag}"\n'
        'estimate_topic = "{topic}"\n'
    )
    said = (
        f"{bag} /odom: covariances all zero on every message (ROS's 'unknown'): read as none; "
        "NEES (ape:nees_position) needs the estimate's pose covariances: "
        "choose a topic that sets them"
    )
    manifest.write_text(text.format(bag=bag, topic="/odom"))
    assert main(["report", str(manifest), "--no-progress"]) == 1
    entry = f"run odo/seq/1 ({manifest} [[runs]] #1)"
    assert (
        capsys.readouterr().err == f"ERROR: {entry}: {said}; --allow-partial reports the others\n"
    )
    stored = tmp_path / "bench"
    assert main(["bench", str(manifest), "--out", str(stored), "--serial", "--quiet"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("failed to evaluate:"))
    rest = itertools.takewhile(lambda line: line.startswith("  "), lines[first + 1 :])
    line = " ".join(part.strip() for part in [lines[first], *rest])  # wrapped at 80 columns
    assert line == " ".join(f"failed to evaluate: odo/seq/1: ValidationError: {said}".split())
    assert line.count("odo/seq/1") == 1
    # A type without covariances: the library's reason, with the run and the file named.
    manifest.write_text(text.format(bag=bag, topic="/pose"))
    assert main(["report", str(manifest), "--no-progress"]) == 1
    warned, refused = capsys.readouterr().err.splitlines()
    assert warned.startswith(f"WARNING: {bag} /pose: the same file as the reference")
    assert refused.startswith(
        f"ERROR: {entry}: {bag} /pose: Expected an estimate with pose covariances for "
        "NEES, got none: "
    )


@pytest.mark.parametrize("command", ["ape", "rpe", "drift"])
def test_a_file_of_no_format_is_answered_with_its_sides_format_flag(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--format`` sets both sides: a good TUM estimate beside a broken reference would be
    read as the format chosen for the reference."""
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n")
    good = "example:fr1_xyz/rgbdslam.tum"
    choose = "choose the format ({} tum, kitti or euroc)\n"
    for argv, flag in (([bad, good], "--ref-format"), ([good, bad], "--est-format")):
        assert main([command, *map(str, argv)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"ERROR: {bad}: cannot tell the format: line 1 has 3 numbers")
        assert err.endswith(choose.format(flag))
    assert main([command, str(bad), str(bad)]) == 1  # both sides: the one flag says both
    assert capsys.readouterr().err.endswith(choose.format("--format"))


@pytest.mark.parametrize("command", ["ape", "doctor"])
def test_a_format_a_reader_names_is_advised_with_its_sides_flag(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A EuRoC ground truth read as TUM said "choose the format (--format euroc)"; with
    that flag the TUM estimate said "(--format tum)": each side's advice broke the other
    (a review)."""
    euroc = tmp_path / "gt.csv"
    euroc.write_text(
        "#timestamp,p_x,p_y,p_z,q_w,q_x,q_y,q_z\n"
        + "".join(f"{k}000000000,{k}.0,0,0,1,0,0,0\n" for k in range(1, 4))
    )
    tum = "example:fr1_xyz/rgbdslam.tum"
    assert main([command, str(euroc), tum, "--ref-format", "tum"]) == 1
    assert capsys.readouterr().err.endswith("choose the format (--ref-format euroc)\n")
    assert main([command, str(euroc), tum, "--format", "euroc"]) == 1
    assert capsys.readouterr().err.endswith("choose the format (--est-format tum)\n")


def test_a_bag_topic_is_spelt_as_the_readers_spell_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ape`` named its inputs ``x.bag:/pose``, its readers ``x.bag /odom``: the command
    line takes neither, a topic comes from ``--ref-topic``/``--est-topic``; one spelling."""
    bag = zero_covariance_bag(tmp_path)
    assert main(["ape", bag, bag, "--ref-topic", "/pose", "--est-topic", "/odom"]) == 0
    out = capsys.readouterr().out
    assert f"reference: {bag} /pose\nestimate:  {bag} /odom\n" in out
    assert main(["ape", bag, bag, "--ref-topic", "/pose", "--est-topic", "/pose"]) == 0
    assert capsys.readouterr().err.startswith(
        f"WARNING: {bag} /pose: the same file as the reference"
    )


@pytest.mark.parametrize(
    ("command", "flags"),
    [("ape", "--ref-times or --est-times"), ("doctor", "--ref-times or --est-times"),
     ("traj", "--times")],
)  # fmt: skip
def test_a_times_file_read_as_poses_is_answered_with_the_commands_times_flags(
    command: str, flags: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A KITTI times file given as a pose file was answered "(--ref-times, --est-times)"
    by traj too, which has neither flag: its times file is ``--times``."""
    times = tmp_path / "00_times.txt"
    times.write_text("0.000000e+00\n1.037359e-01\n2.073381e-01\n")
    poses = [] if command == "traj" else ["example:fr1_xyz/groundtruth.tum"]
    assert main([command, *poses, str(times)]) == 1
    said = capsys.readouterr().err.splitlines()[-1]
    assert said.startswith(f"ERROR: {times}: cannot tell the format: line 1 has 1 number ")
    assert said.endswith(
        f"one number a line is a KITTI times file: give it with its pose file ({flags})"
    )
