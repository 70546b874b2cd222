"""Real trajectories (evo's test data): our readers against evo's numbers, stored and live.

Stored numbers: ``tests/data/io_reference.json``, written by
``PYTHONPATH=src .venv/bin/python tests/data/make_io_reference.py`` with evo 1.38.1's
readers (TF chains with SciPy, since evo needs a ROS install for TF). The live tests
repeat the comparison on every pose when evo is installed.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import DataWarning
from robot_msgs.io import read_trajectory

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "io_reference.json").read_text())


def quiet_read(
    path: Path, *, topic: str | None = None, times_path: Path | None = None
) -> tuple[PoseTrajectory, list[str]]:
    """Read, returning the trajectory and the DataWarning messages it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        traj = read_trajectory(path, topic=topic, times_path=times_path)
    assert all(issubclass(w.category, DataWarning) for w in caught), [
        str(w.message) for w in caught
    ]
    return traj, [str(w.message) for w in caught]


def unit_wxyz_to_xyzw(wxyz: list[float]) -> Float64Array:
    q = np.array(wxyz, dtype=float)[[1, 2, 3, 0]]
    unit: Float64Array = q / np.linalg.norm(q)
    return unit


def assert_pose(
    traj: PoseTrajectory, index: int, expected: dict[str, Any], quat_atol: float = 1e-15
) -> None:
    assert traj.stamps_s[index] == expected["t"]
    assert traj.positions_xyz[index].tolist() == expected["xyz"]
    q = unit_wxyz_to_xyzw(expected["quat_wxyz"])
    ours = traj.orientations_quat_xyzw[index]
    sign = 1.0 if float(ours @ q) >= 0 else -1.0
    np.testing.assert_allclose(ours, sign * q, rtol=0, atol=quat_atol)


@pytest.mark.parametrize("name", sorted(REFERENCE["text"]))
def test_text_files_read_to_evos_count_first_and_last_pose(evo_data: Path, name: str) -> None:
    ref = REFERENCE["text"][name]
    traj, messages = quiet_read(evo_data / name)
    assert len(traj) == ref["unique_stamps"]
    repeats = ref["rows"] - ref["unique_stamps"]
    assert any(f"{repeats} row(s) repeat an earlier stamp" in m for m in messages) == (repeats > 0)
    atol = 4e-15 if ref["format"] == "kitti" else 1e-15
    if ref["format"] == "kitti":
        assert traj.stamps_s[[0, -1]].tolist() == [0.0, ref["rows"] - 1.0]
        assert traj.positions_xyz[0].tolist() == ref["first"]["xyz"]
        assert traj.positions_xyz[-1].tolist() == ref["last"]["xyz"]
    else:
        assert_pose(traj, 0, ref["first"], atol)
        assert_pose(traj, -1, ref["last"], atol)


@pytest.mark.parametrize("key", sorted(REFERENCE["topics"]))
def test_bag_topics_read_to_evos_count_first_and_last_pose(evo_data: Path, key: str) -> None:
    pytest.importorskip("rosbags")
    ref = REFERENCE["topics"][key]
    name, topic = key.split(" ")
    traj, messages = quiet_read(evo_data / name, topic=topic)
    assert messages == []
    assert len(traj) == ref["rows"]
    assert_pose(traj, 0, ref["first"])
    assert_pose(traj, -1, ref["last"])


@pytest.mark.parametrize("key", sorted(REFERENCE["tf"]))
def test_tf_chains_read_to_the_independently_computed_poses(evo_data: Path, key: str) -> None:
    pytest.importorskip("rosbags")
    ref = REFERENCE["tf"][key]
    name, topic = key.split(" ")
    traj, _ = quiet_read(evo_data / name, topic=topic)
    assert len(traj) == ref["rows"]
    for index, pose in ((0, ref["first"]), (-1, ref["last"])):
        assert traj.stamps_s[index] == pose["t"]
        # Composition order and SLERP formulas differ from SciPy's in the last bits.
        np.testing.assert_allclose(traj.positions_xyz[index], pose["xyz"], rtol=0, atol=1e-12)
        q = unit_wxyz_to_xyzw(pose["quat_wxyz"])
        ours = traj.orientations_quat_xyzw[index]
        np.testing.assert_allclose(ours * np.sign(ours @ q), q, rtol=0, atol=1e-12)


def test_kitti_times_file_gives_the_stamps(evo_data: Path) -> None:
    traj, _ = quiet_read(
        evo_data / "KITTI_00_gt.txt", times_path=evo_data / "KITTI_00_gt_times.txt"
    )
    assert traj.stamps_s[:3].tolist() == [0.0, 0.1037359, 0.2073381]
    assert len(traj) == 4541


def test_ros2_bag_folder_db3_file_and_ros1_bag_hold_the_same_tf(evo_data: Path) -> None:
    pytest.importorskip("rosbags")
    a, _ = quiet_read(evo_data / "tf_example", topic="/tf:odom.base_link")
    b, _ = quiet_read(evo_data / "tf_example" / "tf_example.db3", topic="/tf:odom.base_link")
    c, _ = quiet_read(evo_data / "tf_example.bag", topic="/tf:odom.base_link")
    assert a == b == c


# Live cross-checks: every pose, against evo's readers run now.


def _evo_arrays(traj: Any, n: int | None = None) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Stamps, positions and unit quaternions x, y, z, w of an evo trajectory object."""
    stamps = getattr(traj, "timestamps", None)
    if stamps is None:
        assert n is not None  # evo's KITTI poses carry no stamps: the caller gives the count
        stamps = np.arange(n, dtype=float)
    _, first = np.unique(stamps, return_index=True)  # evo keeps repeats; we keep the first
    q = traj.orientations_quat_wxyz[first][:, [1, 2, 3, 0]]
    return stamps[first], traj.positions_xyz[first], q / np.linalg.norm(q, axis=1, keepdims=True)


def _assert_same(
    ours: PoseTrajectory,
    stamps: Float64Array,
    xyz: Float64Array,
    quats: Float64Array,
    atol: float = 1e-15,
) -> None:
    assert np.array_equal(ours.stamps_s, stamps)
    assert np.array_equal(ours.positions_xyz, xyz)
    sign = np.sign(np.sum(ours.orientations_quat_xyzw * quats, axis=1))[:, None]
    np.testing.assert_allclose(ours.orientations_quat_xyzw, sign * quats, rtol=0, atol=atol)


@pytest.mark.parametrize("name", sorted(REFERENCE["text"]))
def test_text_files_match_evo_live_on_every_pose(evo_data: Path, name: str) -> None:
    file_interface = pytest.importorskip("evo.tools.file_interface")
    fmt = REFERENCE["text"][name]["format"]
    reader = {
        "tum": file_interface.read_tum_trajectory_file,
        "euroc": file_interface.read_euroc_csv_trajectory,
        "kitti": file_interface.read_kitti_poses_file,
    }[fmt]
    theirs = reader(str(evo_data / name))
    ours, _ = quiet_read(evo_data / name)
    _assert_same(ours, *_evo_arrays(theirs, len(ours)), atol=4e-15 if fmt == "kitti" else 1e-15)


@pytest.mark.parametrize("key", sorted(REFERENCE["topics"]))
def test_bag_topics_match_evo_live_on_every_pose(evo_data: Path, key: str) -> None:
    file_interface = pytest.importorskip("evo.tools.file_interface")
    from rosbags.rosbag1 import Reader as Reader1
    from rosbags.rosbag2 import Reader as Reader2

    name, topic = key.split(" ")
    reader = Reader1(evo_data / name) if name.endswith(".bag") else Reader2(evo_data / name)
    with reader:
        theirs = file_interface.read_bag_trajectory(reader, topic)
    ours, _ = quiet_read(evo_data / name, topic=topic)
    _assert_same(ours, *_evo_arrays(theirs))
