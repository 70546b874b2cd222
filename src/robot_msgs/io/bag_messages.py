"""Bags as robot_msgs messages: stream them out of ROS 1/2 bags, stream them into ROS 2 bags.

Reading: :func:`read_records` yields every message of a bag (or of one topic) as a
:class:`BagRecord`: the topic, the bag's log time, the robot_msgs message and a ROS 1
header's ``seq`` (which no ROS 2 or robot_msgs field holds), one at a time (memory does
not grow with the bag). A topic whose type has no robot_msgs equivalent does not stop a
whole-bag read: it is named in one :class:`~robot_msgs.errors.DataWarning` (topic, type,
count; :func:`unmapped_topics` lists them) and skipped, or with ``raw=True`` yielded as
a :class:`RawRecord` holding its CDR bytes and type name. ROS 2 CDR is read straight into
the messages (:mod:`robot_msgs.ros.cdr`) when the bag defines the type as ROS 2 Humble does,
else through rosbags' objects (:func:`robot_msgs.ros.from_ros`).

Writing: :func:`write_records` and :func:`write_messages` stream messages into one
``.mcap`` or ``.db3`` file through rosbags' writer. Nothing is held but the chunk being
written (peak memory does not grow with the bag); the bag is built in a hidden folder
beside the target (``.NAME.K.tmp``, the same filesystem, so it is renamed into place,
never copied) and that folder is removed on any failure. A writer killed outright
(``kill -9``) leaves the folder, never a file at the target and nothing in ``$TMPDIR``:
the next write to the same target removes it (a lock tells a dead writer's from a live
one's). MCAP chunks are compressed with zstd (what rosbags offers); each topic carries
QoS profiles (the source bag's, from :func:`bag_qos`, or the profile ``ros2 bag record``
writes for a reliable publisher), and the file's own metadata names the file.
:func:`write_trajectory_bag` writes a :class:`~robot_msgs.trajectory.PoseTrajectory`.
Needs the ``bags`` extra.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

import numpy as np

from robot_msgs.errors import (
    DataWarning,
    FormatError,
    UnknownTypeError,
    ValidationError,
    caller_stacklevel,
)
from robot_msgs.files import _named, _names_a_file, check_outputs  # one wording
from robot_msgs.io.bag import TopicInfo, message_count, open_bag, read_failure
from robot_msgs.io.clean import check_poses_to_write
from robot_msgs.io.topic_names import check_topic_name
from robot_msgs.msg.arrays import field_error
from robot_msgs.optional import require

if sys.platform != "win32":  # Windows has no flock: there leftovers are not swept
    import fcntl

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from robot_msgs.msg import Msg
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Int64Array

__all__ = [
    "BAG_SUFFIXES",
    "BagRecord",
    "RawRecord",
    "bag_qos",
    "bag_stamps_ns",
    "read_messages",
    "read_records",
    "unmapped_topics",
    "write_messages",
    "write_records",
    "write_trajectory_bag",
]

#: sqlite3's result code for a full disk (``sqlite3.SQLITE_FULL`` from Python 3.11).
_SQLITE_FULL = 13

#: Suffixes of the single-file ROS 2 bags written, and their rosbags storage plugin.
BAG_SUFFIXES: dict[str, str] = {".mcap": "MCAP", ".db3": "SQLITE3"}

#: The log times each storage holds, nanoseconds: MCAP's are unsigned 64 bits (none before
#: 1970), sqlite's integers signed. rosbags let an OverflowError out for any other.
_LOG_TIMES_NS: dict[str, tuple[int, int]] = {".mcap": (0, 2**64 - 1), ".db3": (-(2**63), 2**63 - 1)}
#: The stamps a ROS 2 header holds (builtin_interfaces/Time: int32 seconds), nanoseconds.
_HEADER_STAMPS_NS = (-(2**31) * 1_000_000_000, 2**31 * 1_000_000_000 - 1)

TrajectoryLayout = Literal["path", "poses", "odometry"]
Compression = Literal["zstd", "none"]


class BagRecord(NamedTuple):
    """One message of a bag: its topic, the bag's log time, the message, ROS 1's ``seq``."""

    topic: str
    log_time_ns: int
    message: Msg
    seq: int | None = None


class RawRecord(NamedTuple):
    """One message of a type without robot_msgs equivalent: its CDR bytes and ROS type.

    ``data`` is little-endian CDR with its 4-byte header (a ROS 1 message converted by
    rosbags), ready for any CDR reader of ``msgtype``.
    """

    topic: str
    log_time_ns: int
    msgtype: str
    data: bytes


# --------------------------------------------------------------------------- reading


def _mapped(msgtype: str) -> bool:
    from robot_msgs.ros import ros_name, ros_types  # noqa: PLC0415 - needs rosbags

    return ros_name(msgtype) in ros_types()


def unmapped_topics(path: str | os.PathLike[str]) -> tuple[TopicInfo, ...]:
    """List the topics of a bag whose type has no robot_msgs equivalent, with counts.

    Examples
    --------
    >>> import tempfile
    >>> from robot_msgs.msg.catalog import example
    >>> out = Path(tempfile.mkdtemp()) / "odom.mcap"
    >>> unmapped_topics(write_messages(out, "/odom", [example("nav/Odometry")]))
    ()
    """
    from robot_msgs.io.bag import indexed_topics  # noqa: PLC0415 - the same reader

    return tuple(t for t in indexed_topics(path) if not _mapped(t.msgtype))


def _connections(reader: Any, path: object, topic: str | None) -> list[Any]:
    conns = [c for c in reader.connections if topic is None or c.topic == topic]
    if not conns and topic is not None:
        loose = [c for c in reader.connections if c.topic.lstrip("/") == topic.lstrip("/")]
        conns = loose if len({c.topic for c in loose}) == 1 else []
    if not conns:
        topics = ", ".join(sorted({f"{c.topic} ({c.msgtype})" for c in reader.connections}))
        msg = f"{path}: no topic {topic!r}; topics: {topics or 'none'}"
        raise FormatError(msg)
    return conns


def _warn_unmapped(path: object, conns: list[Any]) -> None:
    counts: dict[tuple[str, str], int] = {}
    for conn in conns:
        key = (conn.topic, conn.msgtype)
        counts[key] = counts.get(key, 0) + message_count(conn, path)
    listed = ", ".join(
        f"{t} ({m}, {n} message{'s' * (n != 1)})" for (t, m), n in sorted(counts.items())
    )
    warnings.warn(
        f"{path}: {len(counts)} topic{'s have' if len(counts) != 1 else ' has'} no robot_msgs "
        f"type and {'are' if len(counts) != 1 else 'is'} skipped: {listed}; "
        "read_records(..., raw=True) gives their CDR bytes",
        DataWarning,
        stacklevel=caller_stacklevel(),
    )


class _Decoder:
    """Turns one connection's raw bytes into a message: CDR straight, else via rosbags."""

    def __init__(self, reader: Any, conn: Any) -> None:
        from robot_msgs.ros.convert import _class_for, cdr_store, ros_name  # noqa: PLC0415 - rosbags

        self.reader = reader
        self.msgtype = conn.msgtype
        name = ros_name(conn.msgtype)
        cls = _class_for(name)
        store = cdr_store()
        fast = reader.is2 and cls.ROS2 is not None and store.same_definition(reader.typestore, name)
        self.decode = store.decoder(name) if fast else None

    def __call__(self, raw: bytes) -> tuple[Msg, int | None]:
        """Return the message and ROS 1's ``header.seq`` (``None`` for ROS 2)."""
        if self.decode is not None:
            return self.decode(raw), None
        from robot_msgs.ros import from_ros  # noqa: PLC0415

        obj = self.reader.deserialize(raw, self.msgtype)
        seq = getattr(getattr(obj, "header", None), "seq", None)
        return from_ros(obj), None if seq is None else int(seq)


def _raw(reader: Any, conn: Any, log_time: int, raw: bytes) -> RawRecord:
    data = raw if reader.is2 else reader.typestore.ros1_to_cdr(raw, conn.msgtype)
    return RawRecord(conn.topic, int(log_time), conn.msgtype, bytes(data))


@overload
def read_records(
    path: str | os.PathLike[str], topic: str | None = None, *, raw: Literal[False] = False
) -> Iterator[BagRecord]: ...
@overload
def read_records(
    path: str | os.PathLike[str], topic: str | None = None, *, raw: bool
) -> Iterator[BagRecord | RawRecord]: ...
def read_records(
    path: str | os.PathLike[str], topic: str | None = None, *, raw: bool = False
) -> Iterator[BagRecord | RawRecord]:
    """Yield every message of ``topic`` (``None``: of every topic) as a :class:`BagRecord`.

    In log-time order. ``seq`` is the ROS 1 header's sequence number (``None`` for ROS 2
    bags and header-less types): the one value :func:`robot_msgs.ros.from_ros` drops.

    Parameters
    ----------
    path : path-like
        A ROS 1 ``.bag``, a ROS 2 bag folder, ``.db3`` or ``.mcap``.
    topic : str, optional
        One topic; by default every topic.
    raw : bool
        Yield a :class:`RawRecord` (CDR bytes and type name) for each message of a type
        without robot_msgs equivalent, instead of skipping its topic with a
        :class:`~robot_msgs.errors.DataWarning` naming it.

    Raises
    ------
    FormatError
        Not a bag, no such topic (the message lists the bag's topics), or a message that
        cannot be read (named by topic and log time).
    UnknownTypeError
        ``topic`` was asked for, its type has no robot_msgs equivalent and ``raw`` is false.
    """
    with open_bag(path) as reader:
        conns = _connections(reader, path, topic)
        unmapped = [c for c in conns if not _mapped(c.msgtype)]
        if unmapped and not raw:
            if topic is not None:
                kind = unmapped[0].msgtype
                msg = f"Expected a ROS type with a robot_msgs equivalent, got {kind!r}"
                raise UnknownTypeError(msg)
            _warn_unmapped(path, unmapped)
            conns = [c for c in conns if c not in unmapped]
        decoders: dict[int, _Decoder | None] = {}
        where = f"{path}"
        try:
            for conn, log_time, data in reader.messages(connections=conns):
                where = f"{path} {conn.topic}, message at {log_time} ns"
                if id(conn) not in decoders:
                    decoders[id(conn)] = _Decoder(reader, conn) if _mapped(conn.msgtype) else None
                decoder = decoders[id(conn)]
                if decoder is None:
                    yield _raw(reader, conn, log_time, data)
                else:
                    yield BagRecord(conn.topic, int(log_time), *decoder(data))
                where = f"{path}, after {conn.topic}'s message at {log_time} ns"  # the next fails
        except (ValidationError, FormatError, UnknownTypeError) as err:
            msg = f"{where}: {err}"
            raise FormatError(msg) from err
        except Exception as err:
            failure = read_failure(err, where, reader=reader)
            if failure is None:
                raise
            raise failure from err


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


def bag_qos(path: str | os.PathLike[str]) -> dict[str, list[Any]]:
    """Return each topic's offered QoS profiles (rosbags ``Qos``), to copy them into a bag.

    ROS 2 bags record them; a ROS 1 topic is given the profile its ``latching`` means.
    A topic whose recorded profile ``ros2 bag`` could not read back (:func:`_qos_error`)
    is left out, with a :class:`~robot_msgs.errors.DataWarning`: a bag written with
    these profiles gives it the default profile, as it gives a topic of no bag.
    """
    out: dict[str, list[Any]] = {}
    with open_bag(path) as reader:
        for conn in reader.connections:
            if conn.topic in out:
                continue
            profiles = getattr(conn.ext, "offered_qos_profiles", None)
            if profiles is None:
                latched = bool(getattr(conn.ext, "latching", 0))
                profiles = [_recorded_qos(transient_local=latched)]
            err = _qos_error(profiles, "offered_qos_profiles")
            if err is None:
                out[conn.topic] = list(profiles)
                continue
            warnings.warn(
                DataWarning(
                    f"{os.fspath(path)} {conn.topic}: QoS not copied (a bag written with "
                    f"this bag's QoS gives the topic the default profile): {err}",
                    kind="",
                ),
                stacklevel=caller_stacklevel(),
            )
    return out


#: rosbag2 reads a profile's ``depth`` as a ``size_t`` and each duration's ``sec`` and
#: ``nsec`` as ``uint64``.
_QOS_INT_END = 2**64


def _qos_error(profiles: Sequence[Any], path: str) -> ValidationError | None:
    """Refuse a rosbags ``Qos`` of ``profiles`` that ``ros2 bag`` cannot read, or ``None``.

    WHY: rosbags keeps a recorded profile's ``depth``, durations and
    ``avoid_ros_namespace_conventions`` as its YAML gave them (a string, a list, -5,
    2**80, 1.5): copied into a written bag they are YAML that ``ros2 bag play`` refuses
    as a QoS profile (found reviewing ``traj --save``). The enumerations need no check:
    rosbags reads an unknown one as ``UNKNOWN``. ``path`` names ``profiles``.

    Examples
    --------
    >>> from rosbags.interfaces import Qos, QosTime
    >>> never = QosTime(sec=0, nsec=0)
    >>> ok = Qos(1, 10, 1, 2, never, never, 1, never, False)
    >>> _qos_error([ok], "qos") is None
    True
    >>> print(_qos_error([ok, ok._replace(depth="10")], "qos"))
    Expected an integer from 0 to 2**64-1, got str '10' - at `qos[1].depth`
    """
    for i, profile in enumerate(profiles):
        values: dict[str, object] = {"depth": profile.depth}
        for name in ("deadline", "lifespan", "liveliness_lease_duration"):
            time = getattr(profile, name)
            values[f"{name}.sec"], values[f"{name}.nsec"] = time.sec, time.nsec
        for field, value in values.items():
            if type(value) is not int or not 0 <= value < _QOS_INT_END:  # a bool is refused
                expected = "an integer from 0 to 2**64-1"
                return field_error(expected=expected, value=value, path=f"{path}[{i}].{field}")
        avoid = profile.avoid_ros_namespace_conventions
        if type(avoid) is not bool:
            field = f"{path}[{i}].avoid_ros_namespace_conventions"
            return field_error(expected="true or false", value=avoid, path=field)
    return None


# --------------------------------------------------------------------------- writing


def _recorded_qos(*, transient_local: bool = False) -> Any:
    """Return the profile ``ros2 bag record`` (Humble) writes for a reliable publisher.

    ``transient_local``: a latched topic (``/tf_static``, a map), so playback latches too.
    """
    interfaces = require("rosbags.interfaces", "bags", feature="writing ROS 2 bags")
    forever = interfaces.QosTime(sec=9223372036, nsec=854775807)
    durability = "TRANSIENT_LOCAL" if transient_local else "VOLATILE"
    return interfaces.Qos(
        history=interfaces.QosHistory.UNKNOWN,
        depth=0,
        reliability=interfaces.QosReliability.RELIABLE,
        durability=interfaces.QosDurability[durability],
        deadline=forever,
        lifespan=forever,
        liveliness=interfaces.QosLiveliness.AUTOMATIC,
        liveliness_lease_duration=forever,
        avoid_ros_namespace_conventions=False,
    )


#: Topics latched by convention, written ``transient_local`` when no QoS is given.
_LATCHED = frozenset({"/tf_static", "/map", "/robot_description"})
_MAX_WORKSPACES = 64


def _lock(path: Path) -> int | None:
    """Open and lock ``path`` (created if missing); ``None`` when a live process holds it."""
    for _ in range(2):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        if sys.platform == "win32":  # pragma: no cover - no advisory locks
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        try:
            if os.fstat(fd).st_ino == path.stat().st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)  # removed or replaced while we locked it: try the name again
    return None


@contextlib.contextmanager
def _workspace(target: Path) -> Iterator[Path]:
    """Lend a locked folder beside ``target`` (``.NAME.K.tmp``), removed when done or failed.

    A folder whose lock no process holds is a killed writer's: it is removed on the way.
    """
    claimed: tuple[int, Path, Path] | None = None
    for k in range(_MAX_WORKSPACES):
        lock = target.with_name(f".{target.name}.{k}.lock")
        folder = target.with_name(f".{target.name}.{k}.tmp")
        if claimed is not None and not lock.exists():
            break  # past ours and the leftovers
        fd = _lock(lock)
        if fd is None:
            continue  # a live writer's
        shutil.rmtree(folder, ignore_errors=True)  # a killed writer's, if any
        if claimed is None:
            folder.mkdir()
            claimed = (fd, lock, folder)
        else:
            lock.unlink(missing_ok=True)
            os.close(fd)
    if claimed is None:
        msg = f"{target}: {_MAX_WORKSPACES} writers at once"
        raise FormatError(msg)
    fd, lock, folder = claimed
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        lock.unlink(missing_ok=True)
        os.close(fd)


def _compression(target: Path, compression: Compression | None) -> bool:
    """Whether to compress: MCAP chunks with zstd by default; ``.db3`` files never."""
    if compression is None:
        return target.suffix.lower() == ".mcap"
    if compression not in ("zstd", "none"):
        msg = f"Expected compression 'zstd' or 'none', got {compression!r}"
        raise FormatError(msg)
    if compression == "zstd" and target.suffix.lower() != ".mcap":
        msg = (
            f"{target}: a .db3 file is written uncompressed (its compression would live "
            "in a metadata.yaml beside it); use .mcap for zstd"
        )
        raise FormatError(msg)
    return compression == "zstd"


def write_records(
    path: str | os.PathLike[str],
    records: Iterable[BagRecord],
    *,
    force: bool = False,
    compression: Compression | None = None,
    qos: Mapping[str, Sequence[Any]] | None = None,
) -> Path:
    """Stream records (topic, log time, message) into a ROS 2 bag file, one connection a topic.

    ``seq`` is not written (ROS 2 has none). ``compression``: ``"zstd"`` (MCAP chunks, the
    default for ``.mcap``) or ``"none"`` (the default, and only choice, for ``.db3``).
    ``qos``: offered QoS profiles by topic, such as :func:`bag_qos` of a source bag; a
    topic not in it gets the profile ``ros2 bag record`` writes for a reliable publisher
    (``transient_local`` for ``/tf_static``, ``/map``, ``/robot_description``); a profile
    ``ros2 bag`` could not read (a ``depth`` not an unsigned integer) is a
    ``ValidationError``. See :func:`write_messages` for the rest.
    """
    target = Path(path)
    suffix = target.suffix.lower()  # the storage; a link's target may be named otherwise
    plugin = BAG_SUFFIXES.get(suffix)
    if plugin is None:
        msg = f"{target}: expected a .mcap or .db3 bag, got {target.suffix or 'no suffix'!r}"
        raise FormatError(msg)
    compress = _compression(target, compression)
    check_outputs([target], force=force, create_folders=True)
    rosbag2 = require("rosbags.rosbag2", "bags", feature="writing ROS 2 bags")
    from robot_msgs.ros import humble_typestore, to_cdr  # noqa: PLC0415 - needs rosbags
    from robot_msgs.ros.definitions import generated_name  # noqa: PLC0415

    store = humble_typestore()
    real = Path(os.path.realpath(target)) if target.is_symlink() else target
    try:
        with _workspace(real) as folder:
            bag = folder / (real.name[: -len(real.suffix)] or "bag")
            writer = rosbag2.Writer(
                bag, version=9, storage_plugin=getattr(rosbag2.StoragePlugin, plugin)
            )
            if compress:
                writer.set_compression(
                    rosbag2.CompressionMode.STORAGE, rosbag2.CompressionFormat.ZSTD
                )
            connections: dict[str, tuple[Any, str]] = {}
            low, high = _LOG_TIMES_NS[suffix]
            with writer:
                for index, record in enumerate(records):
                    time_ns = _checked_record(target, index, record)
                    if not low <= time_ns <= high:
                        msg = (
                            f"{target} {record.topic}: message {index}'s log time {time_ns} ns is "
                            f"outside what a {suffix} bag holds ({low} to {high} ns)"
                            + ("; a .db3 bag holds times before 1970" if time_ns < 0 else "")
                        )
                        raise ValidationError(msg)
                    ros_type = generated_name(type(record.message))
                    if record.topic not in connections:
                        try:  # rosbags writes any text: '' and '/' made bags nothing replays
                            check_topic_name(record.topic)
                        except ValidationError as err:
                            msg = f"{target}: message {index}'s {err}"
                            raise ValidationError(msg, reason=err.reason) from err
                        profiles = (qos or {}).get(record.topic) or [
                            _recorded_qos(transient_local=record.topic in _LATCHED)
                        ]
                        refused = _qos_error(profiles, f"qos[{record.topic!r}]")
                        if refused is not None:
                            msg = f"{target}: {refused}"
                            raise ValidationError(msg, field=refused.field, reason=refused.reason)
                        conn = writer.add_connection(
                            record.topic, ros_type, typestore=store, offered_qos_profiles=profiles
                        )
                        connections[record.topic] = (conn, ros_type)
                    conn, known = connections[record.topic]
                    if known != ros_type:
                        msg = f"{target} {record.topic}: expected {known} messages, got {ros_type}"
                        raise FormatError(msg)
                    writer.write(conn, time_ns, to_cdr(record.message))
            stored = bag / f"{bag.name}{suffix}"  # rosbags names it by its storage
            with stored.open("rb+") as file:
                os.fsync(file.fileno())
            stored.replace(real)
    except OSError as err:  # the MCAP writer's file object: a full disk named no file
        if _names_a_file(err):
            raise
        raise _named(err, target) from err
    except sqlite3.OperationalError as err:  # the .db3 writer's: a full disk was "a bug"
        # Only the database's operation (full, locked, I/O): an IntegrityError or a
        # ProgrammingError is a bug here or in rosbags, not a file to name
        full = getattr(err, "sqlite_errorcode", None) == _SQLITE_FULL
        raise _named(OSError(errno.ENOSPC if full else None, str(err)), target) from err
    return target


def _checked_record(target: Path, index: int, record: BagRecord) -> int:
    """Return a record's log time in integer nanoseconds, once its topic and message are checked.

    Raises
    ------
    ValidationError
        A topic that is no text UTF-8 can encode, a message that is no robot_msgs
        message, or a log time that is no whole number of nanoseconds (NaN, inf, 1.5,
        text): each let Python's own error out of rosbags or ``int()``, or was cut.
    """
    from robot_msgs.msg import Msg  # noqa: PLC0415 - the message base
    from robot_msgs.msg.fields import encodable  # noqa: PLC0415

    # WHY object: the annotations are what a caller should pass, not what reaches here
    topic: object = record.topic
    time_ns: object = record.log_time_ns
    message: object = record.message
    where = f"{target}: message {index}"
    if not isinstance(topic, str) or not encodable(topic):
        msg = f"{where}'s topic {topic!r} is no text UTF-8 can encode"
        raise ValidationError(msg)
    if not isinstance(message, Msg):
        msg = f"{where} on {topic} is a {type(message).__name__}, not a robot_msgs message"
        raise ValidationError(msg)
    if isinstance(time_ns, float | np.floating) and float(time_ns).is_integer():
        return int(time_ns)
    if isinstance(time_ns, bool) or not isinstance(time_ns, int | np.integer):
        msg = (
            f"{target} {topic}: message {index}'s log time {time_ns!r} is no whole number "
            "of nanoseconds"
        )
        raise ValidationError(msg)
    return int(time_ns)


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


def _records(
    topic: str, messages: Iterable[Msg], log_times_ns: Iterable[int] | None
) -> Iterator[BagRecord]:
    """Pair messages with log times one at a time (nothing is listed first)."""
    if log_times_ns is None:
        for i, message in enumerate(messages):
            yield BagRecord(topic, _log_time(message, i), message)
        return
    times, items = iter(log_times_ns), iter(messages)
    count = 0
    end = object()  # WHY not None: a None in the log times is a bad time, not their end
    for message in items:
        stamp = next(times, end)
        if stamp is end:
            msg = f"Expected one log time per message, got {count} for more messages"
            raise ValidationError(msg)
        yield BagRecord(topic, stamp, message)  # type: ignore[arg-type] # checked on writing
        count += 1
    if next(times, end) is not end:
        msg = f"Expected one log time per message ({count}), got more log times"
        raise ValidationError(msg)


def write_messages(
    path: str | os.PathLike[str],
    topic: str,
    messages: Iterable[Msg],
    *,
    log_times_ns: Iterable[int] | None = None,
    force: bool = False,
    compression: Compression | None = None,
    qos: Sequence[Any] | None = None,
) -> Path:
    """Stream ``messages`` on ``topic`` into a ROS 2 bag file (``.mcap`` or ``.db3``).

    Parameters
    ----------
    path : path-like
        ``OUT.mcap`` (MCAP) or ``OUT.db3`` (sqlite3), a single file.
    topic : str
    messages : iterable of Msg
        All of one type; read one at a time (a generator keeps memory flat).
    log_times_ns : iterable of int, nanoseconds, optional
        The bag's log time per message; by default each message's ``header.stamp``.
    force : bool
        Replace an existing file.
    compression : {"zstd", "none"}, optional
        See :func:`write_records`.
    qos : sequence of rosbags ``Qos``, optional
        The topic's offered QoS profiles (default: see :func:`write_records`).

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
        A message without header and no ``log_times_ns``, or as many log times as
        messages not given, or a log time that is no whole number of nanoseconds or one
        the file cannot hold (before 1970 in a ``.mcap``, past signed 64 bits in a
        ``.db3``), or a topic UTF-8 cannot encode or that is no topic name
        (:func:`~robot_msgs.io.topic_names.check_topic_name`: ``''``, ``/``); nothing
        is written.

    Examples
    --------
    >>> import tempfile
    >>> from robot_msgs.msg.catalog import example
    >>> out = Path(tempfile.mkdtemp()) / "odom.mcap"
    >>> _ = write_messages(out, "/odom", [example("nav/Odometry")])
    >>> list(read_messages(out, "/odom")) == [example("nav/Odometry")]
    True
    """
    profiles = {topic: qos} if qos is not None else None
    records = _records(topic, messages, log_times_ns)
    return write_records(path, records, force=force, compression=compression, qos=profiles)


def bag_stamps_ns(
    path: str | os.PathLike[str], traj: PoseTrajectory, *, layout: TrajectoryLayout = "poses"
) -> Int64Array:
    """Return the header stamps :func:`write_trajectory_bag` writes, refusing what it cannot.

    A check of its own so that a caller writing several files refuses them all before
    writing any (``--save`` with ``--save-aligned``).

    Returns
    -------
    ndarray, shape (N,), int64, nanoseconds

    Raises
    ------
    ValidationError
        A stamp a ROS 2 header cannot hold (int32 seconds), two stamps on one
        nanosecond (rows read with ``repeated_stamps="all"``), or a log time before 1970
        in a ``.mcap`` (each pose's stamp; ``layout="path"``: the last), named with ``path``.
    """
    try:
        stamps_ns = traj.nanoseconds(distinct=True)  # one pose a nanosecond, or one is lost
    except ValidationError as err:  # it names the stamp; the file is said here
        named = err.within(f"{path}: ")
        raise named from err
    low, high = _HEADER_STAMPS_NS
    outside = np.flatnonzero((stamps_ns < low) | (stamps_ns > high))
    if outside.size:  # Time's own check named neither the bag nor the pose
        k = int(outside[0])
        when = (
            "before 1901-12-13T20:45:52Z (-2**31 s)"
            if stamps_ns[k] < low
            else "at or after 2038-01-19T03:14:08Z (2**31 s)"
        )
        msg = (
            f"{path}: pose {k}'s stamp {float(traj.stamps_s[k])!r} s is {when}, outside what a "
            "ROS 2 header stamp holds (int32 seconds)"
        )
        raise ValidationError(msg)
    # WHY: a .mcap's log times are unsigned: a pose before 1970 was refused only while
    # writing, after --save had written its file (a review); refused here, with the rest.
    logged = stamps_ns[-1:] if layout == "path" else stamps_ns
    low, high = _LOG_TIMES_NS.get(Path(path).suffix.lower(), _LOG_TIMES_NS[".db3"])
    outside = np.flatnonzero((logged < low) | (logged > high))
    if outside.size:
        k = int(outside[0]) + len(stamps_ns) - len(logged)
        msg = (
            f"{path}: pose {k}'s stamp {float(traj.stamps_s[k])!r} s is before 1970, outside "
            f"what a .mcap bag's log times hold (0 to {high} ns); a .db3 bag holds them"
        )
        raise ValidationError(msg)
    return stamps_ns


def write_trajectory_bag(
    path: str | os.PathLike[str],
    traj: PoseTrajectory,
    *,
    topic: str = "/trajectory",
    layout: TrajectoryLayout = "poses",
    force: bool = False,
    qos: Sequence[Any] | None = None,
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
        ``nav_msgs/Odometry`` per pose, ``child_frame_id`` and the pose covariances the
        trajectory's (ROS's order and frame, as the readers take them; all zero, ROS's
        "unknown", without), zero twist. A ``"poses"`` or ``"path"`` bag cannot carry a
        child frame or covariances: a :class:`~robot_msgs.errors.DataWarning` says they
        are not written (they were dropped without a word; a review).
    force : bool
        Replace an existing file.
    qos : sequence of rosbags ``Qos``, optional
        The topic's offered QoS profiles, such as :func:`bag_qos` of the bag the
        trajectory was read from (default: see :func:`write_records`).

    Raises
    ------
    ValidationError
        A stamp a ROS 2 header cannot hold (int32 seconds: 1901-12-13 to 2038-01-19; or
        beyond int64 nanoseconds), or one before 1970 in a ``.mcap`` (its log times are
        unsigned), or two stamps on the same nanosecond (read back, one pose would be
        lost); nothing is written.

    Examples
    --------
    >>> import tempfile
    >>> import numpy as np
    >>> from robot_msgs.msg.catalog import example
    >>> from robot_msgs.io import read_bag
    >>> traj = example("trajectory/PoseTrajectory")  # child frame "base_link"
    >>> out = Path(tempfile.mkdtemp()) / "t.db3"
    >>> back = read_bag(write_trajectory_bag(out, traj, topic="/est", layout="odometry"), "/est")
    >>> bool(np.array_equal(back.positions_xyz, traj.positions_xyz)), back.child_frame_id
    (True, 'base_link')
    """
    from robot_msgs.geometry import PoseWithCovariance  # noqa: PLC0415 - message families
    from robot_msgs.nav import Odometry  # noqa: PLC0415

    check_poses_to_write(path, traj)
    bag_stamps_ns(path, traj, layout=layout)
    poses = traj.to_poses()
    cov = traj.covariance_6x6
    if layout in ("poses", "path") and (cov is not None or traj.child_frame_id):
        lost = [
            *([f"child frame ({traj.child_frame_id})"] if traj.child_frame_id else []),
            *(["covariances"] if cov is not None else []),
        ]
        warnings.warn(
            DataWarning(
                f"{path}: geometry_msgs/PoseStamped has no field for the trajectory's "
                f"{' and '.join(lost)}: not written (nav_msgs/Odometry, "
                "`layout='odometry'`, keeps them)",
                kind="",
                fixed=False,
            ),
            stacklevel=caller_stacklevel(),
        )
    if layout == "path":
        return write_messages(path, topic, [traj.to_path()], force=force, qos=qos)
    if layout == "odometry":
        odometry = (
            Odometry(
                header=p.header,
                child_frame_id=traj.child_frame_id,
                pose=PoseWithCovariance(pose=p.pose)
                if cov is None
                else PoseWithCovariance(pose=p.pose, covariance=cov[k]),
            )
            for k, p in enumerate(poses)
        )
        return write_messages(path, topic, odometry, force=force, qos=qos)
    if layout == "poses":
        return write_messages(path, topic, poses, force=force, qos=qos)
    msg = f"Expected layout 'poses', 'path' or 'odometry', got {layout!r}"  # type: ignore[unreachable]
    raise ValidationError(msg)
