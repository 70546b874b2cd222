"""Write small ROS 2 bags with known stamps for the latency-proxy tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def write_pose_bag(
    path: Path, stamps_ns: Sequence[int], received_ns: Sequence[int], topic: str = "/pose"
) -> None:
    """A ROS 2 bag of PoseStamped messages with the given header stamps and receive times."""
    pytest.importorskip("rosbags")
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore

    store = get_typestore(Stores.ROS2_HUMBLE)
    PoseStamped = store.types["geometry_msgs/msg/PoseStamped"]
    Header = store.types["std_msgs/msg/Header"]
    Time = store.types["builtin_interfaces/msg/Time"]
    Pose = store.types["geometry_msgs/msg/Pose"]
    Point = store.types["geometry_msgs/msg/Point"]
    Quaternion = store.types["geometry_msgs/msg/Quaternion"]
    with Writer(path, version=8) as writer:
        conn = writer.add_connection(topic, PoseStamped.__msgtype__, typestore=store)
        for stamp, rec in zip(stamps_ns, received_ns, strict=True):
            msg = PoseStamped(
                header=Header(
                    stamp=Time(sec=stamp // 10**9, nanosec=stamp % 10**9), frame_id="map"
                ),
                pose=Pose(
                    position=Point(x=0.0, y=0.0, z=0.0),
                    orientation=Quaternion(x=0.0, y=0.0, z=0.0, w=1.0),
                ),
            )
            writer.write(conn, rec, store.serialize_cdr(msg, PoseStamped.__msgtype__))
