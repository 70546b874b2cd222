"""Bags as robot_msgs messages: stream them out of ROS 1/2 bags, write them to ROS 2 bags.

Reading: :func:`read_messages` yields one robot_msgs message per bag message of a topic,
converted with :func:`robot_msgs.ros.from_ros`, one at a time (memory does not grow
with the bag); :func:`read_records` adds the topic, the bag's log time and a ROS 1
header's ``seq``, which no ROS 2 or robot_msgs field holds.

Writing: :func:`write_messages` and :func:`write_records` write any message with a ROS 2
equivalent, or of the package's own types (their generated ``robot_msgs/msg/NAME``
definitions are stored in the bag, so any ROS 2 tool can read them), to a ROS 2 bag as
one ``.mcap`` or ``.db3`` file, through rosbags' writer, atomically (the bag is built in
a temporary folder, then written into place: never a partial file). :func:`write_trajectory_bag`
writes a :class:`~robot_msgs.trajectory.PoseTrajectory` as one ``nav_msgs/Path``, or one
``PoseStamped`` or ``Odometry`` per pose, stamped exactly by its ``stamps_ns`` when it
has them. Needs the ``bags`` extra.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import check_outputs, write_atomic
from robot_msgs.io.bag import open_bag
from robot_msgs.optional import require

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Iterator

    from robot_msgs.msg import Msg
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "BAG_SUFFIXES",
    "BagRecord",
    "read_messages",
    "read_records",
    "write_messages",
    "write_records",
    "write_trajectory_bag",
]

#: Suffixes of the single-file ROS 2 bags written, and their rosbags storage plugin.
BAG_SUFFIXES: dict[str, str] = {".mcap": "MCAP", ".db3": "SQLITE3"}

TrajectoryLayout = Literal["path", "poses", "odometry"]


class BagRecord(NamedTuple):
    """One message of a bag: its topic, the bag's log time, the message, ROS 1's ``seq``."""

    topic: str
    log_time_ns: int
    message: Msg
    seq: int | None = None


def read_records(path: str | os.PathLike[str], topic: str | None = None) -> Iterator[BagRecord]:
    """Yield every message of ``topic`` (``None``: of every topic) as a :class:`BagRecord`.

    In log-time order. ``seq`` is the ROS 1 header's sequence number (``None`` for ROS 2
    bags and header-less types): the one value :func:`robot_msgs.ros.from_ros` drops.

    Raises
    ------
    FormatError
        Not a bag, or no such topic (the message lists the bag's topics).
    UnknownTypeError
        The topic's type has no robot_msgs equivalent.
    """
    from robot_msgs.ros import from_ros  # noqa: PLC0415 - needs rosbags, loaded on use

    with open_bag(path) as reader:
        conns = [c for c in reader.connections if topic is None or c.topic == topic]
        if not conns and topic is not None:
            loose = [c for c in reader.connections if c.topic.lstrip("/") == topic.lstrip("/")]
            conns = loose if len({c.topic for c in loose}) == 1 else []
        if not conns:
            topics = ", ".join(sorted({f"{c.topic} ({c.msgtype})" for c in reader.connections}))
            msg = f"{path}: no topic {topic!r}; topics: {topics or 'none'}"
            raise FormatError(msg)
        for conn, log_time, raw in reader.messages(connections=conns):
            obj = reader.deserialize(raw, conn.msgtype)
            header = getattr(obj, "header", None)
            seq = getattr(header, "seq", None)
            try:
                message = from_ros(obj)
            except ValidationError as err:
                msg = f"{path} {conn.topic}, message at {log_time} ns: {err}"
                raise FormatError(msg) from err
            yield BagRecord(conn.topic, int(log_time), message, None if seq is None else int(seq))


def read_messages(path: str | os.PathLike[str], topic: str) -> Iterator[Msg]:
    """Yield the messages of ``topic`` of a ROS 1 bag, ROS 2 bag or MCAP file, one at a time.

    Every catalogued type with a ROS 2 equivalent converts (``nav_msgs/Odometry`` to
    :class:`~robot_msgs.nav.Odometry` with its twist, covariances and frames), as do the
    package's own types written by :func:`write_messages`.

    Examples
    --------
    >>> next(read_messages("no/such.mcap", "/odom"))
    Traceback (most recent call last):
    FileNotFoundError: no/such.mcap: no such file or folder
    """
    for record in read_records(path, topic):
        yield record.message


def _log_time(message: Msg, index: int) -> int:
    header = getattr(message, "header", None)
    stamp = getattr(header, "stamp", None)
    if stamp is None:
        msg = (
            f"Expected a log time for message {index} ({type(message).TYPE} has no header "
            "stamp): pass log_times_ns"
        )
        raise ValidationError(msg)
    ns: int = stamp.to_ns()
    return ns


def write_messages(
    path: str | os.PathLike[str],
    topic: str,
    messages: Iterable[Msg],
    *,
    log_times_ns: Iterable[int] | None = None,
    force: bool = False,
) -> Path:
    """Write ``messages`` on ``topic`` to a ROS 2 bag file (``.mcap`` or ``.db3``).

    Parameters
    ----------
    path : path-like
        ``OUT.mcap`` (MCAP) or ``OUT.db3`` (sqlite3), a single file.
    topic : str
    messages : iterable of Msg
        All of one type.
    log_times_ns : iterable of int, nanoseconds, optional
        The bag's log time per message; by default each message's ``header.stamp``.
    force : bool
        Replace an existing file.

    Returns
    -------
    Path
        ``path``.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false; nothing is written.
    FormatError
        A suffix other than ``.mcap`` or ``.db3``, or messages of mixed types.
    ValidationError
        A message without header and no ``log_times_ns``.

    Examples
    --------
    >>> import tempfile
    >>> from robot_msgs.catalog import example
    >>> out = Path(tempfile.mkdtemp()) / "odom.mcap"
    >>> _ = write_messages(out, "/odom", [example("nav/Odometry")])
    >>> list(read_messages(out, "/odom")) == [example("nav/Odometry")]
    True
    """
    items = list(messages)
    times = [_log_time(m, i) for i, m in enumerate(items)] if log_times_ns is None else None
    stamps = times if times is not None else [int(t) for t in log_times_ns or ()]
    if len(stamps) != len(items):
        msg = f"Expected one log time per message ({len(items)}), got {len(stamps)}"
        raise ValidationError(msg)
    records = (BagRecord(topic, t, m) for t, m in zip(stamps, items, strict=True))
    return write_records(path, records, force=force)


def write_records(
    path: str | os.PathLike[str], records: Iterable[BagRecord], *, force: bool = False
) -> Path:
    """Write records (topic, log time, message) to a ROS 2 bag file, one connection a topic.

    ``seq`` is not written (ROS 2 has none). See :func:`write_messages` for the rest.
    """
    target = Path(path)
    plugin = BAG_SUFFIXES.get(target.suffix.lower())
    if plugin is None:
        msg = f"{target}: expected a .mcap or .db3 bag, got {target.suffix or 'no suffix'!r}"
        raise FormatError(msg)
    check_outputs([target], force=force, create_folders=True)
    rosbag2 = require("rosbags.rosbag2", "bags", feature="writing ROS 2 bags")
    from robot_msgs.ros import humble_typestore, to_cdr  # noqa: PLC0415 - needs rosbags
    from robot_msgs.ros_defs import generated_name  # noqa: PLC0415

    store = humble_typestore()
    # rosbags writes a bag folder; its one storage file is then written into place.
    with tempfile.TemporaryDirectory(prefix="robot_msgs-bag-") as tmp:
        folder = Path(tmp) / "bag"
        connections: dict[str, tuple[Any, str]] = {}
        with rosbag2.Writer(
            folder, version=9, storage_plugin=getattr(rosbag2.StoragePlugin, plugin)
        ) as writer:
            for record in records:
                ros_type = generated_name(type(record.message))
                if record.topic not in connections:
                    conn = writer.add_connection(record.topic, ros_type, typestore=store)
                    connections[record.topic] = (conn, ros_type)
                conn, known = connections[record.topic]
                if known != ros_type:
                    msg = f"{target} {record.topic}: expected {known} messages, got {ros_type}"
                    raise FormatError(msg)
                writer.write(conn, record.log_time_ns, to_cdr(record.message))
        (stored,) = folder.glob(f"*{target.suffix.lower()}")
        return write_atomic(target, stored.read_bytes(), force=force)


def write_trajectory_bag(
    path: str | os.PathLike[str],
    traj: PoseTrajectory,
    *,
    topic: str = "/trajectory",
    layout: TrajectoryLayout = "poses",
    force: bool = False,
) -> Path:
    """Write a trajectory to a ROS 2 bag file as ``nav_msgs/Path`` or per-pose messages.

    Parameters
    ----------
    path : path-like
        ``OUT.mcap`` or ``OUT.db3``.
    traj : PoseTrajectory
        Stamped exactly by ``stamps_ns`` when it has them, else ``stamps_s`` rounded to
        the nanosecond; ``frame_id`` in every header.
    topic : str
    layout : {"poses", "path", "odometry"}
        ``"poses"``: one ``geometry_msgs/PoseStamped`` per pose (what
        :func:`robot_msgs.io.read_bag` reads back pose for pose); ``"path"``: one
        ``nav_msgs/Path`` of them all, logged at the last stamp; ``"odometry"``: one
        ``nav_msgs/Odometry`` per pose, ``child_frame_id`` the trajectory's, zero twist
        and covariances.
    force : bool
        Replace an existing file.

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from robot_msgs.catalog import example
    >>> from robot_msgs.io import read_bag
    >>> traj = example("trajectory/PoseTrajectory")
    >>> out = write_trajectory_bag(Path(tempfile.mkdtemp()) / "t.db3", traj, topic="/est")
    >>> bool(np.array_equal(read_bag(out, "/est").positions_xyz, traj.positions_xyz))
    True
    """
    from robot_msgs.geometry import PoseWithCovariance  # noqa: PLC0415 - message families
    from robot_msgs.nav import Odometry  # noqa: PLC0415

    poses = traj.to_poses()
    if layout == "path":
        return write_messages(path, topic, [traj.to_path()], force=force)
    if layout == "odometry":
        odometry = (
            Odometry(
                header=p.header,
                child_frame_id=traj.child_frame_id,
                pose=PoseWithCovariance(pose=p.pose),
            )
            for p in poses
        )
        return write_messages(path, topic, odometry, force=force)
    if layout == "poses":
        return write_messages(path, topic, poses, force=force)
    msg = f"Expected layout 'poses', 'path' or 'odometry', got {layout!r}"  # type: ignore[unreachable]
    raise ValidationError(msg)
