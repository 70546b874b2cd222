"""The settings flags every evaluation command shares: each sets one settings field, errors name it."""

from __future__ import annotations

import json
import math
import re
import shutil
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.cli import main
from robot_msgs.cli._settings_flags import declared_flags
from robot_msgs.compare import FINDING_KINDS
from tests.cli.evaluation_files import stats_of, write_tum

if TYPE_CHECKING:
    from pathlib import Path


def curve_files(tmp_path: Path, late_s: float) -> tuple[Path, Path]:
    """A 100 Hz reference on a 3-D curve, and the curve seen at 30 Hz stamped ``late_s`` late."""
    t = np.arange(0.0, 30.0, 0.01)
    te = np.arange(1.0, 29.0, 1 / 30)

    def curve(s: np.ndarray) -> np.ndarray:
        return np.stack([np.cos(s), np.sin(2 * s), 0.1 * s], axis=1)

    ref = write_tum(tmp_path / "ref.tum", t, curve(t))
    est = write_tum(tmp_path / "est.tum", te + late_s, curve(te) + np.array([2.0, 0.0, 0.0]))
    return ref, est


def test_offset_auto_estimates_records_and_notes_the_offset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.2)
    argv = ["ape", str(ref), str(est), "--offset", "auto", "--align", "se3", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["settings"]["offset_auto"] is True
    offset = result["estimated"]["time_offset"]["offset_s"]
    assert offset == pytest.approx(-0.2, abs=1e-4)
    assert "NOTE: time offset estimated: -0.2000 s ±" in captured.err


def test_offset_search_sets_the_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref, est = curve_files(tmp_path, 1.5)
    argv = ["rpe", str(ref), str(est), "--offset", "auto", "--offset-search", "2", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settings"]["offset_search_s"] == 2.0
    offset = result["estimated"]["time_offset"]["offset_s"]
    assert offset == pytest.approx(-1.5, abs=1e-4)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--offset-search", "0.5"], "ERROR: --offset-search 0.5: expected --offset auto: the"),
        (
            ["--offset", "auto", "--offset-search", "0"],
            "ERROR: --offset-search 0: expected float > 0",
        ),
    ],
)
def test_bad_offset_flags_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    assert main(["ape", str(ref), str(est), *flags]) == 2  # a flag's value: a usage error
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert "Traceback" not in err


def test_an_offset_that_is_neither_seconds_nor_auto_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["ape", str(ref), str(est), "--offset", "later"])
    assert "argument --offset: expected seconds or 'auto', got 'later'" in capsys.readouterr().err


def test_a_static_reference_refuses_offset_auto_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = np.arange(0.0, 10.0, 0.01)
    rng = np.random.default_rng(0)
    ref = write_tum(tmp_path / "ref.tum", t, rng.normal(scale=1e-4, size=(t.size, 3)))
    est = write_tum(tmp_path / "est.tum", t, rng.normal(scale=1e-4, size=(t.size, 3)))
    assert main(["ape", str(ref), str(est), "--offset", "auto"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("ERROR: Cannot estimate a time offset: the reference is static")


def _write_matrix(path: Path, matrix: np.ndarray) -> Path:
    np.savetxt(path, matrix)
    return path


QUARTER_TURN = np.array(
    [[0.0, -1.0, 0.0, 1.0], [1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 1.0, 3.0], [0.0, 0.0, 0.0, 1.0]]
)


def test_transform_left_file_is_read_into_the_settings_and_undone_by_invert(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, _ = curve_files(tmp_path, 0.0)
    t = np.arange(0.0, 30.0, 0.01)
    positions = np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], axis=1)
    moved = positions @ QUARTER_TURN[:3, :3].T + QUARTER_TURN[:3, 3]  # T_l p, rotations R
    est = write_tum(tmp_path / "moved.tum", t, moved)
    matrix = _write_matrix(tmp_path / "T.txt", QUARTER_TURN)
    argv = ["ape", str(ref), str(est), "--transform-left", str(matrix), "--json"]
    assert main([*argv, "--invert-transform-left", "--relation", "translation"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert stats_of(result)["translation"]["max"] < 1e-12
    assert result["settings"]["transform_left"] == QUARTER_TURN.ravel().tolist()
    assert result["settings"]["invert_transform_left"] is True
    assert main([*argv, "--relation", "translation"]) == 0  # not inverted: far off
    assert stats_of(json.loads(capsys.readouterr().out))["translation"]["min"] > 1.0


@pytest.mark.parametrize(
    ("flags", "message", "code"),
    [
        (["--transform-right", "NOPE"], "ERROR: --transform-right NOPE: no such file", 1),
        (
            ["--invert-transform-left"],
            "ERROR: --invert-transform-left: expected a transform_left",
            2,  # flags that do not go together: a usage error
        ),
        (["--transform-right", "SCALED"], "ERROR: --transform-right ", 1),  # the file's
    ],
)
def test_bad_transform_flags_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str, code: int
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    scaled = _write_matrix(tmp_path / "scaled.txt", np.diag([2.0, 2.0, 2.0, 1.0]))
    flags = [str(scaled) if f == "SCALED" else f for f in flags]
    assert main(["rpe", str(ref), str(est), *flags]) == code
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert "Traceback" not in err


def test_project_to_plane_flag_for_ape_rpe_and_drift(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The estimate differs from the reference only in z, by a varying amount: every error
    # vanishes in the xy plane and none in 3-D.
    t = np.arange(0.0, 300.0, 0.5)
    path = np.stack([t, np.sin(0.1 * t), 0 * t], axis=1)
    ref = write_tum(tmp_path / "ref.tum", t, path)
    bumpy = path + np.stack([0 * t, 0 * t, 0.3 * np.sin(0.37 * t)], axis=1)
    est = write_tum(tmp_path / "est.tum", t, bumpy)
    for command in ("ape", "rpe", "drift"):
        extra = ["--delta", "10", "--delta-unit", "m"] if command == "rpe" else []
        argv = [command, str(ref), str(est), *extra, "--json"]
        assert main(argv) == 0
        signal = next(iter(stats_of(json.loads(capsys.readouterr().out)).values()))
        assert signal["max"] > 1e-3, command
        assert main([*argv, "--project-to-plane", "xy"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["settings"]["project_to_plane"] == "xy"
        maxima = [stats["max"] for stats in stats_of(result).values() if stats["n"]]
        assert maxima, command
        assert all(value == 0.0 for value in maxima), command


def test_traj_applies_the_transforms_before_saving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    t = np.arange(5.0)
    src = write_tum(tmp_path / "in.tum", t, np.zeros((5, 3)))
    matrix = _write_matrix(tmp_path / "T.txt", QUARTER_TURN)
    out = tmp_path / "out.tum"
    argv = ["traj", str(src), "--transform-right", str(matrix), "--save", str(out)]
    assert main(argv) == 0
    capsys.readouterr()
    rows = np.loadtxt(out)
    # P T_r with P = identity poses: the transform itself, at every stamp.
    assert rows[:, 1:4] == pytest.approx(np.tile([1.0, 2.0, 3.0], (5, 1)))
    assert rows[:, 4:8] == pytest.approx(np.tile([0.0, 0.0, np.sqrt(0.5), np.sqrt(0.5)], (5, 1)))


def test_several_deltas_and_the_tum_protocol_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    argv = ["rpe", str(ref), str(est), "--delta", "1", "2", "--delta-unit", "s", "--json"]
    assert main([*argv, "--all-pairs"]) == 0
    evo = json.loads(capsys.readouterr().out)
    assert list(stats_of(evo)) == ["translation@1s", "translation@2s"]
    assert evo["parameters"]["delta"] == [1.0, 2.0]
    assert main([*argv, "--protocol", "tum"]) == 0
    tum = json.loads(capsys.readouterr().out)
    assert tum["parameters"]["protocol"] == "tum"
    assert set(tum["counts"]) >= {"pairs@1s", "pairs@2s"}


@pytest.mark.parametrize(
    ("command", "flags", "said"),
    [
        ("ape", ["--align", "origin", "--align", "se3"], "--align given twice (origin, se3)"),
        (
            "ape",
            ["--sync", "nearest", "--sync", "spatial"],
            "--sync given twice (nearest, spatial)",
        ),
        ("ape", ["--relation", "full", "--relation", "angle_deg"], "--relation given twice"),
        ("ape", ["--offset", "auto", "--offset", "0.1"], "--offset given twice (auto, 0.1)"),
        ("rpe", ["--delta-unit", "m", "--delta-unit", "f"], "--delta-unit given twice (m, f)"),
        (
            "rpe",
            ["--delta", "1", "--delta", "2"],
            "--delta given twice (1, 2); give it once, with all its values: --delta 1 2",
        ),
        ("drift", ["--lengths", "100", "--lengths", "200"], "--lengths given twice (100, 200)"),
    ],
)
def test_a_settings_flag_given_twice_with_two_values_is_refused_naming_both(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    flags: list[str],
    said: str,
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    with pytest.raises(SystemExit, match=r"^2$"):  # a usage error, as an unknown flag
        main([command, str(ref), str(est), *flags])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"robot-msgs {command}: error: {said}")
    assert last.endswith("give it once") or "give it once, with all its values" in last


def test_a_flag_given_twice_with_one_value_is_taken_as_given_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    once = ["ape", str(ref), str(est), "--align", "se3", "--max-diff", "0.02", "--json"]
    assert main(once) == 0
    expected = json.loads(capsys.readouterr().out)
    twice = [*once, "--align", "se3", "--max-diff", "2e-2", "--json"]  # 0.02 spelt otherwise
    assert main(twice) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_max_bytes_given_twice_is_refused_before_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["--max-bytes", "1G", "--max-bytes", "2G", "ape", "a.tum", "b.tum"])
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "robot-msgs: error: --max-bytes given twice (1G, 2G); give it once"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--protocol", "tum", "--align", "se3"], "ERROR: --align se3: expected the default with"),
        (["--protocol", "tum", "--all-pairs"], "ERROR: --all-pairs: expected the default False"),
        (
            ["--delta", "1", "2.5"],
            (
                "ERROR: --delta 1 2.5: expected a whole number of frames (--delta-unit s for "
                "seconds, --delta-unit m for metres), got float 2.5"
            ),
        ),
    ],
)
def test_pair_flags_that_do_not_fit_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    ref, est = curve_files(tmp_path, 0.0)
    assert main(["rpe", str(ref), str(est), *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message), err


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
    assert err.startswith("ERROR: Expected an estimate with pose covariances for NEES, got none")
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
    line = next(line for line in out.splitlines() if line.startswith("failed to evaluate:"))
    assert line == f"failed to evaluate: odo/seq/1: ValidationError: {said}"  # the run once
    assert line.count("odo/seq/1") == 1
    # A type without covariances: the library's reason, with the run and the file named.
    manifest.write_text(text.format(bag=bag, topic="/pose"))
    assert main(["report", str(manifest), "--no-progress"]) == 1
    warned, refused = capsys.readouterr().err.splitlines()
    assert warned.startswith(f"WARNING: {bag}:/pose: the same file as the reference")
    assert refused.startswith(
        f"ERROR: {entry}: {bag} /pose: Expected an estimate with pose covariances for "
        "NEES, got none: "
    )


def test_label_stays_repeatable() -> None:
    from robot_msgs.cli import build_parser

    args = build_parser("ape").parse_args(
        ["ape", "r.tum", "a.tum", "b.tum", "--label", "a", "--label", "b"]
    )
    assert args.label == ["a", "b"]


FIRST = ["--sync", "spatial", "--spatial-pairs", "first"]
#: Why each command refuses trajectopy's pairs, after "--spatial-pairs first: expected ".
REFUSED_FIRST = [
    (["ape", *FIRST[2:]], "--sync spatial (it chooses the pairs of a spatial match; --sync"),
    (["ape", *FIRST, "--transform-right", "auto"], "--spatial-pairs path to estimate the right"),
    (["rpe", *FIRST], "--spatial-pairs path for RPE (it compares the motion between pairs"),
    (["drift", *FIRST], "--spatial-pairs path for drift (it compares the motion"),
    (["doctor", *FIRST], "--spatial-pairs path for the doctor (it compares the motion"),
    (["report", *FIRST], "--spatial-pairs path for RPE (rpe:translation:1s:all) (it compares"),
    (["bench", *FIRST], "--spatial-pairs path for RPE (rpe:translation:1s:all) (it compares"),
]


@pytest.mark.parametrize(
    ("argv", "expected"), REFUSED_FIRST, ids=[" ".join(a) for a, _ in REFUSED_FIRST]
)
def test_spatial_pairs_first_is_refused_in_flags_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    command, *flags = argv
    if command in ("report", "bench"):
        inputs = [
            "example:runs/runs.toml",
            *(["--out", str(tmp_path / "o")] * (command == "bench")),
        ]
        flags += ["--no-progress"] if command == "report" else ["--quiet"]
    else:
        inputs = list(map(str, curve_files(tmp_path, 0.0)))
    assert main([command, *inputs, *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ERROR: --spatial-pairs first: expected {expected}"), err
    assert err.count("\n") == 1
    # The flags only: no field (spatial_pairs, sync 'nearest', transform_right), no manifest.
    assert re.search(r"[a-z]_[a-z]|\[settings\]|sync '", err) is None, err
    assert "--spatial-pairs first, trajectopy's rule" in err or command == "ape"


@pytest.mark.parametrize("command", ["report", "bench"])
def test_spatial_pairs_first_in_a_manifest_is_refused_in_its_keys_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from importlib.resources import files

    runs = tmp_path / "runs"
    shutil.copytree(str(files("robot_msgs") / "examples" / "runs"), runs)
    manifest = runs / "first.toml"
    settings = '[settings]\nsync = "spatial"\nspatial_pairs = "first"\n'
    manifest.write_text(settings + (runs / "runs.toml").read_text())
    flags = ["--out", str(tmp_path / "o"), "--quiet"] if command == "bench" else ["--no-progress"]
    assert main([command, str(manifest), *flags]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"ERROR: {manifest} [settings]: `spatial_pairs`: expected `spatial_pairs = 'path'` for "
        "RPE (rpe:translation:1s:all) (it compares the motion between pairs, which needs pairs "
        "that run forward on both sides; `spatial_pairs = 'first'`, trajectopy's rule,"
    ), err
    assert "--" not in err  # no flag: the manifest's keys


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor", "report", "bench"])
def test_help_names_flags_not_fields(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ape --help` said "offset_auto: search...", "in delta_unit", "--protocol tum" (ape has none)."""
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    text = capsys.readouterr().out
    fields = {name for name in declared_flags() if "_" in name}
    named = set(re.findall(r"(?<![\w`-])([a-z]+(?:_[a-z0-9]+)+)(?![\w`=])", text))
    assert named & fields - set(FINDING_KINDS) == set()  # the doctor's kinds are names
    assert "(default estimate)" not in text
    assert "(evo's 0.1) (default" not in text


@pytest.mark.parametrize("command", ["ape", "rpe", "drift", "doctor", "bench"])
def test_help_says_what_the_word_of_a_shared_flag_does(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--offset SECONDS|auto` and `--transform-right FILE|auto` never said what auto does.

    Two fields share each flag; the help was the first field's alone, so the word's
    setting (estimate the offset, or the extrinsic, from the motion) went unsaid.
    """
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    offset = text.split("--offset SECONDS|auto ", 2)[-1].split(" --max-gap", 1)[0]
    right = text.split("--transform-right FILE|auto ", 2)[-1].split(" --invert-", 1)[0]
    assert offset.startswith("added to the estimate's stamps for matching, seconds (default")
    assert "; auto: estimate the clock offset from the motion" in offset
    assert offset.endswith("and use it instead of --offset SECONDS")
    assert "; auto: estimate --transform-right FILE from the motion (hand-eye" in right


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
