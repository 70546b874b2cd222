"""Fixtures for the io tests: both roads of the text tables, and tiny bags written with
rosbags, with values chosen by hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

# One pose: (sec, nanosec, frame_id, (x, y, z), (qx, qy, qz, qw)).
Pose = tuple[int, int, str, tuple[float, float, float], tuple[float, float, float, float]]


class BagMaker:
    """Write ROS 1 (.bag), ROS 2 sqlite3 (folder) or ROS 2 MCAP (folder) bags."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        rosbags = pytest.importorskip("rosbags")
        del rosbags
        from rosbags.typesys import Stores, get_types_from_msg, get_typestore

        self.store1 = get_typestore(Stores.ROS1_NOETIC)
        # The noetic store has no tf2_msgs; a ROS 1 bag carries the definition itself.
        self.store1.register(
            get_types_from_msg(
                "geometry_msgs/TransformStamped[] transforms", "tf2_msgs/msg/TFMessage"
            )
        )
        self.store2 = get_typestore(Stores.LATEST)

    def _store(self, kind: str) -> Any:
        return self.store1 if kind == "ros1" else self.store2

    def header(self, kind: str, sec: int, nanosec: int, frame: str) -> Any:
        types = self._store(kind).types
        stamp = types["builtin_interfaces/msg/Time"](sec=sec, nanosec=nanosec)
        if kind == "ros1":
            return types["std_msgs/msg/Header"](seq=0, stamp=stamp, frame_id=frame)
        return types["std_msgs/msg/Header"](stamp=stamp, frame_id=frame)

    def pose(self, kind: str, xyz: tuple[float, ...], q: tuple[float, ...]) -> Any:
        types = self._store(kind).types
        return types["geometry_msgs/msg/Pose"](
            position=types["geometry_msgs/msg/Point"](x=xyz[0], y=xyz[1], z=xyz[2]),
            orientation=types["geometry_msgs/msg/Quaternion"](x=q[0], y=q[1], z=q[2], w=q[3]),
        )

    def transform(self, kind: str, xyz: tuple[float, ...], q: tuple[float, ...]) -> Any:
        types = self._store(kind).types
        return types["geometry_msgs/msg/Transform"](
            translation=types["geometry_msgs/msg/Vector3"](x=xyz[0], y=xyz[1], z=xyz[2]),
            rotation=types["geometry_msgs/msg/Quaternion"](x=q[0], y=q[1], z=q[2], w=q[3]),
        )

    def message(
        self,
        kind: str,
        msgtype: str,
        pose: Pose,
        child: str = "base_link",
        covariance: Any = None,
    ) -> Any:
        """One message of ``msgtype``; ``covariance`` (36 values) for the types with one."""
        sec, nanosec, frame, xyz, q = pose
        cov36 = np.zeros(36) if covariance is None else np.asarray(covariance, dtype=float)
        types = self._store(kind).types
        header = self.header(kind, sec, nanosec, frame)
        cls = types[msgtype]
        if msgtype == "geometry_msgs/msg/PoseStamped":
            return cls(header=header, pose=self.pose(kind, xyz, q))
        if msgtype == "geometry_msgs/msg/PoseWithCovarianceStamped":
            cov = types["geometry_msgs/msg/PoseWithCovariance"](
                pose=self.pose(kind, xyz, q), covariance=cov36
            )
            return cls(header=header, pose=cov)
        if msgtype == "nav_msgs/msg/Odometry":
            cov = types["geometry_msgs/msg/PoseWithCovariance"](
                pose=self.pose(kind, xyz, q), covariance=cov36
            )
            vec = types["geometry_msgs/msg/Vector3"](x=0.0, y=0.0, z=0.0)
            twist = types["geometry_msgs/msg/TwistWithCovariance"](
                twist=types["geometry_msgs/msg/Twist"](linear=vec, angular=vec),
                covariance=np.zeros(36),
            )
            return cls(header=header, child_frame_id=child, pose=cov, twist=twist)
        if msgtype == "geometry_msgs/msg/TransformStamped":
            return cls(header=header, child_frame_id=child, transform=self.transform(kind, xyz, q))
        if msgtype == "geometry_msgs/msg/PointStamped":
            point = types["geometry_msgs/msg/Point"](x=xyz[0], y=xyz[1], z=xyz[2])
            return cls(header=header, point=point)
        raise AssertionError(msgtype)

    def navsat(
        self, kind: str, stamp: tuple[int, int], lla: tuple[float, float, float], status: int = 0
    ) -> Any:
        """A ``sensor_msgs/NavSatFix`` at ``stamp`` (sec, nanosec) with a fix ``status``."""
        types = self._store(kind).types
        fix_status = types["sensor_msgs/msg/NavSatStatus"](status=status, service=1)
        return types["sensor_msgs/msg/NavSatFix"](
            header=self.header(kind, stamp[0], stamp[1], "gps"),
            status=fix_status,
            latitude=lla[0],
            longitude=lla[1],
            altitude=lla[2],
            position_covariance=np.zeros(9),
            position_covariance_type=0,
        )

    def path_message(self, kind: str, poses: list[Pose]) -> Any:
        types = self._store(kind).types
        stamped = [
            types["geometry_msgs/msg/PoseStamped"](
                header=self.header(kind, s, ns, f), pose=self.pose(kind, xyz, q)
            )
            for s, ns, f, xyz, q in poses
        ]
        return types["nav_msgs/msg/Path"](header=self.header(kind, 0, 0, "map"), poses=stamped)

    def tf_message(self, kind: str, transforms: list[tuple[Pose, str]]) -> Any:
        types = self._store(kind).types
        items = [
            types["geometry_msgs/msg/TransformStamped"](
                header=self.header(kind, s, ns, f),
                child_frame_id=child,
                transform=self.transform(kind, xyz, q),
            )
            for (s, ns, f, xyz, q), child in transforms
        ]
        return types["tf2_msgs/msg/TFMessage"](transforms=items)

    def write(self, name: str, kind: str, topics: dict[str, tuple[str, list[Any]]]) -> Path:
        """Write ``{topic: (msgtype, [messages])}``; return the bag (file or folder)."""
        store = self._store(kind)
        if kind == "ros1":
            from rosbags.rosbag1 import Writer as Writer1

            path = self.folder / f"{name}.bag"
            with Writer1(path) as writer:
                for topic, (msgtype, msgs) in topics.items():
                    conn = writer.add_connection(topic, msgtype, typestore=store)
                    for i, msg in enumerate(msgs):
                        writer.write(conn, 1_000_000_000 + i, store.serialize_ros1(msg, msgtype))
            return path
        from rosbags.rosbag2 import StoragePlugin
        from rosbags.rosbag2 import Writer as Writer2

        plugin = StoragePlugin.MCAP if kind == "mcap" else StoragePlugin.SQLITE3
        path = self.folder / name
        with Writer2(path, version=9, storage_plugin=plugin) as writer:
            for topic, (msgtype, msgs) in topics.items():
                conn = writer.add_connection(topic, msgtype, typestore=store)
                for i, msg in enumerate(msgs):
                    writer.write(conn, 1_000_000_000 + i, store.serialize_cdr(msg, msgtype))
        return path


@pytest.fixture(scope="module", autouse=True, params=["fast", "general"])
def table_road(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run every io test on both roads of :mod:`robot_msgs.io.table`.

    ``fast`` is the installed state (the compiled path where it is built); ``general``
    hides the compiled module, so each reader test also checks NumPy's ``loadtxt`` road.
    Module scope, so Hypothesis tests may use it.
    """
    from robot_msgs.io import table

    if request.param == "fast":
        yield "fast"
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(table, "_fasttable", None)
        yield "general"


@pytest.fixture
def bags(tmp_path: Path) -> BagMaker:
    return BagMaker(tmp_path)
