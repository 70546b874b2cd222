"""Bags as messages: read_messages/read_records streaming, writing messages and trajectories."""

from __future__ import annotations

import tracemalloc
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.catalog import example, examples
from robot_msgs.errors import FormatError, OutputExistsError, ValidationError
from robot_msgs.geometry import PoseStamped
from robot_msgs.nav import Odometry
from robot_msgs.nav import Path as NavPath
from robot_msgs.std import Time
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

    from tests.io.conftest import BagMaker

pytest.importorskip("rosbags")

from robot_msgs.io import (
    BagRecord,
    read_bag,
    read_messages,
    read_records,
    write_messages,
    write_records,
    write_trajectory_bag,
)


def _exact_trajectory() -> PoseTrajectory:
    # Stamps with nanoseconds a float64 of seconds since 1970 cannot hold.
    ns = 1_700_000_000_000_000_000 + np.array([1, 333_333_337, 666_666_671, 999_999_999])
    poses = [
        PoseStamped.from_dict(
            {
                "header": {"stamp": Time.from_ns(int(t)).to_dict(), "frame_id": "odom"},
                "pose": {"position": {"x": 0.5 * i, "y": -0.25 * i, "z": 0.0}},
            }
        )
        for i, t in enumerate(ns)
    ]
    return PoseTrajectory.from_poses(poses, child_frame_id="base_link")


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_trajectory_reads_back_equal_with_exact_stamps(tmp_path: Path, suffix: str) -> None:
    traj = _exact_trajectory()
    out = write_trajectory_bag(tmp_path / f"t{suffix}", traj, topic="/est")
    back = read_bag(out, "/est")
    assert back.stamps_ns is not None
    assert traj.stamps_ns is not None
    assert back.stamps_ns.tolist() == traj.stamps_ns.tolist()
    assert back == traj.replace(child_frame_id="")  # PoseStamped carries no child frame
    poses = [m for m in read_messages(out, "/est") if isinstance(m, PoseStamped)]
    assert len(poses) == len(traj)
    assert PoseTrajectory.from_poses(poses) == back
    records = list(read_records(out, "/est"))
    assert [r.log_time_ns for r in records] == traj.stamps_ns.tolist()  # logged at the stamps
    assert {r.seq for r in records} == {None}


@pytest.mark.parametrize("suffix", [".mcap", ".db3"])
def test_path_and_odometry_layouts_read_back(tmp_path: Path, suffix: str) -> None:
    traj = _exact_trajectory()
    path_bag = write_trajectory_bag(tmp_path / f"p{suffix}", traj, layout="path")
    (message,) = read_messages(path_bag, "/trajectory")
    assert isinstance(message, NavPath)
    assert PoseTrajectory.from_path(message, child_frame_id="base_link") == traj
    assert read_bag(path_bag, "/trajectory").replace(child_frame_id="base_link") == traj
    odom_bag = write_trajectory_bag(tmp_path / f"o{suffix}", traj, layout="odometry")
    odometry = list(read_messages(odom_bag, "/trajectory"))
    assert all(isinstance(m, Odometry) and m.child_frame_id == "base_link" for m in odometry)
    assert read_bag(odom_bag, "/trajectory") == traj


def test_every_catalogued_message_writes_and_reads_back(tmp_path: Path) -> None:
    records = [
        BagRecord(f"/{name.replace('/', '_')}", 1_000 + i, msg)
        for i, (name, msg) in enumerate(sorted(examples().items()))
    ]
    out = write_records(tmp_path / "all.mcap", records)
    assert list(read_records(out)) == records


@pytest.mark.parametrize(("suffix", "sizes"), [(".db3", (500, 5000)), (".mcap", (1500, 6000))])
def test_read_messages_streams(tmp_path: Path, suffix: str, sizes: tuple[int, int]) -> None:
    """Peak memory while reading does not grow with the bag (4x or 10x the messages).

    MCAP is read a chunk at a time (rosbags writes ~1 MB chunks): both sizes span chunks.
    """
    base = example("nav/Odometry")
    assert isinstance(base, Odometry)
    warm = write_messages(tmp_path / f"warm{suffix}", "/odom", [base])
    assert len(list(read_messages(warm, "/odom"))) == 1  # imports and caches, not traced
    peaks = []
    for n in sizes:
        stamps = (Time.from_ns(10**9 + i * 10**7) for i in range(n))
        bag = write_messages(
            tmp_path / f"o{n}{suffix}",
            "/odom",
            (base.replace(header=base.header.replace(stamp=s)) for s in stamps),
        )
        tracemalloc.start()
        count = sum(1 for _ in read_messages(bag, "/odom"))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert count == n
    assert peaks[1] < 2 * peaks[0], peaks


def test_ros1_seq_is_kept_in_records(bags: BagMaker) -> None:
    pose = (5, 7, "map", (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0))
    msg = bags.message("ros1", "geometry_msgs/msg/PoseStamped", pose)
    msg.header.seq = 17
    bag = bags.write("seq", "ros1", {"/pose": ("geometry_msgs/msg/PoseStamped", [msg])})
    (record,) = read_records(bag, "/pose")
    assert record.seq == 17
    assert isinstance(record.message, PoseStamped)
    assert record.message.header.stamp == Time(sec=5, nanosec=7)


def test_writing_refuses_what_it_cannot_write(tmp_path: Path) -> None:
    odom = example("nav/Odometry")
    out = write_messages(tmp_path / "a.mcap", "/odom", [odom])
    with pytest.raises(OutputExistsError, match=r"a.mcap exists; pass --force"):
        write_messages(out, "/odom", [odom])
    assert write_messages(out, "/odom", [odom, odom], force=True) == out
    with pytest.raises(FormatError, match=r"expected a .mcap or .db3 bag, got '.bag'"):
        write_messages(tmp_path / "a.bag", "/odom", [odom])
    with pytest.raises(FormatError, match=r"expected nav_msgs/msg/Odometry messages"):
        write_messages(tmp_path / "b.mcap", "/odom", [odom, example("geometry/PoseStamped")])
    assert not (tmp_path / "b.mcap").exists()  # never a partial file
    with pytest.raises(ValidationError, match=r"no header stamp\): pass log_times_ns"):
        write_messages(tmp_path / "c.mcap", "/p", [example("geometry/Point")])
    write_messages(tmp_path / "c.mcap", "/p", [example("geometry/Point")], log_times_ns=[5])
    with pytest.raises(FormatError, match=r"no topic '/nope'; topics: /odom \(nav_msgs"):
        next(read_messages(out, "/nope"))


@pytest.mark.evo_data
def test_nav2_odometry_keeps_twist_covariance_and_frames(evo_data: Path) -> None:
    odometry = list(read_messages(evo_data / "nav2_turtlebot.mcap", "/odom"))
    assert len(odometry) == 2639
    assert all(isinstance(m, Odometry) for m in odometry)
    assert {m.header.frame_id for m in odometry if isinstance(m, Odometry)} == {"odom"}
    moving = [m for m in odometry if isinstance(m, Odometry) and m.twist.twist.linear.x != 0.0]
    assert moving  # the robot drives: the twist that read_bag drops is here
    traj = read_bag(evo_data / "nav2_turtlebot.mcap", "/odom")
    assert traj.stamps_ns is not None
    first = odometry[0]
    assert isinstance(first, Odometry)
    assert int(traj.stamps_ns[0]) == first.header.stamp.to_ns()
