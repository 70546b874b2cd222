"""ROS 1 bags, ROS 2 bags (sqlite3 folder or ``.db3``) and MCAP files, through ``rosbags``.

``rosbags`` is pure Python (no ROS install) and an optional extra:
``pip install 'robot_msgs[bags]'``. A trajectory is read from one topic of one of
:data:`POSE_TYPES`, or from TF as ``/tf:parent.child`` (see :mod:`robot_msgs.io.tf`).
Stamps are ``header.stamp`` as ``sec + nanosec * 1e-9``, evo's arithmetic, so both give
the same floats; the bag's record time is not used.
"""

from __future__ import annotations

import contextlib
import errno
import heapq
import importlib
import itertools
import os
import re
import shlex
import time
import warnings
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from robot_msgs.documents import _short
from robot_msgs.errors import (
    DataWarning,
    FormatError,
    MissingDependencyError,
    RobotMsgsError,
    TopicError,
    caller_stacklevel,
    did_you_mean,
)
from robot_msgs.io.bounded import (
    KeptBag,
    bags_kept,
    close_unused_bags,
    stream_kind,
)
from robot_msgs.io.clean import (
    UNKNOWN_COVARIANCES,
    finish_trajectory,
    known_covariances,
    no_orientation,
    report,
)
from robot_msgs.io.examples import EXAMPLE_PREFIX, resolve_path
from robot_msgs.io.geodetic import metric_from_geodetic
from robot_msgs.io.sqlite_wal import shm_lock_holder, wal_is_in_database
from robot_msgs.io.tf import (
    DEFINITION_DIFFERS,
    TF_TYPE,
    float_rows,
    is_tf_id,
    read_tf,
    tf_transforms,
    transforms_text,
)
from robot_msgs.limits import current_limits
from robot_msgs.optional import require
from robot_msgs.report.text import listed

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Iterator, Mapping

    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import IntpArray

__all__ = [
    "POSE_TYPES",
    "UNKNOWN_COVARIANCES",
    "TopicInfo",
    "first_fix",
    "indexed_topics",
    "list_topics",
    "message_count",
    "open_bag",
    "read_bag",
    "tf_chains",
    "topics_of_types",
]

#: Message types a trajectory can be read from, and where each keeps its pose.
POSE_TYPES: dict[str, str] = {
    "geometry_msgs/msg/PoseStamped": "pose",
    "geometry_msgs/msg/PoseWithCovarianceStamped": "pose.pose",
    "geometry_msgs/msg/TransformStamped": "transform",
    "geometry_msgs/msg/PointStamped": "point (identity rotation)",
    "nav_msgs/msg/Odometry": "pose.pose",
    "nav_msgs/msg/Path": "poses[*].pose of the last message",
    "sensor_msgs/msg/NavSatFix": "latitude, longitude, altitude in local ENU (identity rotation)",
}

_NAVSAT = "sensor_msgs/msg/NavSatFix"
#: The frames a warning of messages in several frames names (then "and N more").
_FRAMES_NAMED = 5


class TopicInfo(NamedTuple):
    """One topic of a bag: name, ROS 2 style message type and message count.

    ``damaged`` says why the bag's index cannot be trusted for the topic, where a listing
    left it unchecked (:func:`indexed_topics`): its count is then the index's, not read,
    and reading the topic is refused in those words. ``None`` for a topic found sound.
    """

    topic: str
    msgtype: str
    message_count: int
    damaged: str | None = None


#: The first line of every ROS 1 bag (format 2.0, the one ``rosbag`` writes).
_ROS1_MAGIC = b"#ROSBAG V2.0\n"


def _check_ros1_magic(bag: Path, name: str) -> None:
    """Refuse a ``.bag`` file that does not start as a ROS 1 bag does.

    WHY before rosbags: its ROS 1 reader reads the first line with ``readline()``; a
    file of zeros (a download preallocated and never filled) has no line end, so a
    2 GB one was read whole: 34 s and 4.3 GB before a timeout stopped it (a review).
    """
    with bag.open("rb") as f:
        head = f.read(len(_ROS1_MAGIC))
    if head != _ROS1_MAGIC:
        shown = head[:16]
        msg = (
            f"{name}: not a ROS 1 bag: it starts with {shown!r}, not {_ROS1_MAGIC!r} "
            "(a ROS 2 bag is a folder, a .db3 or an .mcap file)"
        )
        raise FormatError(msg)


def refuse_stream(bag: Path, name: str) -> None:
    """Refuse a pipe or a device as a bag at once, named ``name``: ``rosbags`` seeks in a bag.

    Raises
    ------
    FormatError
        ``bag`` is a pipe (a FIFO, ``<(cmd)``), a device or a socket; the message says which.
    """
    kind = stream_kind(bag)
    if kind is not None:
        msg = f"{name}: is {kind}: a bag must be a regular file or folder (rosbags seeks in it)"
        raise FormatError(msg)


@contextlib.contextmanager
def open_bag(path: str | os.PathLike[str]) -> Iterator[Any]:
    """Open a bag with ``rosbags``' ``AnyReader``; its errors become :class:`FormatError`.

    A ``.bag`` file is read as ROS 1; a folder (with ``metadata.yaml``), a ``.db3`` or
    an ``.mcap`` file as ROS 2; a file named otherwise as its first bytes say (ROS 1,
    SQLite or MCAP), as the format is detected. Message types the bag does not define are taken from
    ``rosbags``' latest ROS 2 type store. A bag must be a regular file or a folder
    (``rosbags`` seeks in it): a pipe or a device is refused. ``example:NAME`` is read
    from the shipped examples, and named as given in every error. Inside
    :func:`bags_opened_once`, a bag opened before in the block is not opened again.

    Errors raised while the bag is read, after it opened (a message whose CDR bytes do
    not decode, a damaged chunk, a corrupt compressed block, a message definition in the
    bag without a field of the ROS type it names), are :class:`FormatError` too, naming
    the bag; the package's own errors pass unchanged. A type name or a connection
    the bag did not give, passed to the reader, is a ``KeyError`` (a bug of the caller).
    """
    bag = resolve_path(path)
    # Named as given: example:NAME, not the installed file (as the text readers name it).
    given = os.fspath(path)
    name = given if given.startswith(EXAMPLE_PREFIX) else str(bag)
    kept = bags_kept()
    key = os.path.realpath(bag)  # Path.resolve() raised RuntimeError on a loop of links
    entry = None if kept is None else kept.pop(key, None)
    closer = None  # closes the bag here, where no block keeps it
    if entry is not None and kept is not None:
        kept[key] = entry  # the most recently used
        entry.users += 1
        checked, opened = entry.reader, entry.opened
    else:
        if kept is not None:
            close_unused_bags(kept, room=1)
        closer = contextlib.ExitStack()
        reader, opened = closer.enter_context(_opened(bag, name))
        checked = None
    try:
        if checked is None:
            checked = _CheckedReader(reader, name)
            if kept is not None and closer is not None:
                entry = kept[key] = KeptBag(reader=checked, opened=opened, closer=closer, users=1)
                closer = None  # the block closes it
        yield checked
    except Exception as err:
        said = _said(err, (opened, bag), name)
        failure = read_failure(err, name, said, reader=checked)
        if failure is None:
            raise
        raise failure from err
    finally:
        if entry is not None and kept is not None:
            entry.users -= 1
            close_unused_bags(kept)
        if closer is not None:
            closer.close()


class _LatestTypestore:
    """rosbags' latest ROS 2 type store, imported when ``AnyReader`` first asks it for anything.

    WHY: importing it runs every ROS 2 distribution's module of type definitions, dashing
    to kilted (60 ms of a 0.3 s ``ape`` on an MCAP file), and ``AnyReader`` reads it only
    for a bag whose connections define none of their types (a ROS 2 SQLite bag recorded
    before Iron); ROS 1 bags and MCAP files define theirs.

    A store that fails to import is said as the installation's fault, not the bag's:
    imported inside ``AnyReader.open()``, its ``ImportError`` was said "cannot open as a
    ROS bag", a bag that opens with a sound rosbags.
    """

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        typesys = require("rosbags.typesys", "bags", feature="reading ROS bags")
        try:
            store = typesys.get_typestore(typesys.Stores.LATEST)
        except ImportError as err:
            msg = (
                f"{self._name}: defines none of its message types, and rosbags' ROS 2 type "
                f"store failed to import ({type(err).__name__}: {err}): "
                "pip install --force-reinstall rosbags"
            )
            raise MissingDependencyError(msg) from err
        return getattr(store, attr)


@contextlib.contextmanager
def _opened(bag: Path, name: str) -> Iterator[tuple[Any, Path]]:
    """Open ``bag`` (named ``name``) with rosbags; yield its reader and the path rosbags opened.

    That path is a link named by the content for a bag file named otherwise.
    """
    opened = bag
    if not bag.exists():
        if bag.is_symlink() and _is_link_loop(bag):  # exists() is False for a loop too
            raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), name)
        msg = f"{name}: no such file or folder"
        raise FileNotFoundError(msg)
    refuse_stream(bag, name)
    _check_not_being_written(bag, name)
    if bag.is_dir():
        _check_folder_files(bag, name)
    elif bag.suffix == ".bag":
        _check_ros1_magic(bag, name)
    else:
        _warn_split_part(bag, name)
    highlevel = require("rosbags.highlevel", "bags", feature="reading ROS bags")
    named = contextlib.ExitStack()
    try:
        if not bag.is_dir():
            opened = named.enter_context(_named_by_content(bag))
        reader = highlevel.AnyReader([opened], default_typestore=_LatestTypestore(name))
        reader.open()
    except BaseException as err:
        named.close()
        if isinstance(err, RobotMsgsError) or not isinstance(err, Exception) or _a_bug(err):
            raise
        if isinstance(err, MemoryError):  # a damaged length field: rosbags allocates it
            msg = f"{name}: cannot open as a ROS bag (a record claims more bytes than memory holds)"
            raise FormatError(msg) from err
        why = _why_unopened(bag, name)
        said = f": {why}" if why is not None else _failure(err, _said(err, (opened, bag), name))
        msg = f"{name}: cannot open as a ROS bag{said}"
        raise FormatError(msg) from err
    with named:
        try:
            for conn in reader.connections:  # a damaged index: a NULL topic name or type
                if not isinstance(conn.topic, str) or not isinstance(conn.msgtype, str):
                    msg = (
                        f"{name}: a topic without a name or type ({conn.topic!r}, "
                        f"{conn.msgtype!r}): the bag's index is damaged"
                    )
                    raise FormatError(msg)
            yield reader, opened
        finally:
            reader.close()


_MCAP_MAGIC = b"\x89MCAP0\r\n"  # an MCAP file's first and last 8 bytes
_STORAGE_MAGIC = {"sqlite3": b"SQLite format 3\x00", "mcap": _MCAP_MAGIC}
_STORAGE_SAID = {"sqlite3": "an SQLite", "mcap": "an MCAP"}


def _why_unopened(bag: Path, name: str) -> str | None:
    """Say why rosbags refused ``bag`` (named ``name``) where its files' bytes tell, else ``None``.

    Asked only after rosbags refused the bag; only the first and last 8 bytes of each
    ``.db3`` or ``.mcap`` file (the file, or those in the folder that its
    ``metadata.yaml`` lists, all where it lists none readably) are read, and the folder's
    ``metadata.yaml``. A file in the folder is named ``name/FILE``, a path the user can
    give from where they are. WHY: rosbags' words named neither cause nor way out: "File
    end magic is invalid." for an MCAP file cut off (a recorder killed, or still
    recording, or a copy stopped: it lacks its footer); "File magic is invalid." or "file
    is not a database" for a folder whose ``metadata.yaml`` names the other storage (one
    copied from another recording), or whose files are of both storages.
    """
    try:
        if bag.is_dir():
            # WHY listed only: a file the metadata does not list (one left from another
            # recording) is not read by rosbags, so it is not why rosbags refused.
            listed = {PurePath(f).name for f in _metadata_files(bag / "metadata.yaml")}
            files = [
                f
                for f in sorted(bag.glob("*.*"))
                if f.suffix in (".db3", ".mcap") and (not listed or f.name in listed)
            ]
        else:
            files = [bag]
        named = _metadata_storage(bag) if bag.is_dir() else None
        seen: dict[str, str] = {}  # the first file of each storage, as shown
        cut = None
        for file in files:
            shown = str(Path(name) / file.name) if bag.is_dir() else name
            with file.open("rb") as f:
                head = f.read(len(_STORAGE_MAGIC["sqlite3"]))
                size = f.seek(0, os.SEEK_END)
                f.seek(max(size - len(_MCAP_MAGIC), 0))
                tail = f.read(len(_MCAP_MAGIC))
            storage = next((k for k, m in _STORAGE_MAGIC.items() if head.startswith(m)), None)
            if storage is not None:
                seen.setdefault(storage, shown)
            short = tail != _MCAP_MAGIC or size < 2 * len(_MCAP_MAGIC)
            if storage == "mcap" and short and cut is None:
                cut = shown
        if len(seen) > 1:  # WHY: "correct storage_identifier" cannot mend two storages
            said = ", ".join(f"{shown} is {_STORAGE_SAID[k]} file" for k, shown in seen.items())
            return f"its files are of two storages ({said}): give each file itself"
        other = next(iter(seen.items()), None)
        if named is not None and other is not None and other[0] != named:
            return (
                f"its metadata.yaml names the storage {named!r}, but {other[1]} is "
                f"{_STORAGE_SAID[other[0]]} file: correct storage_identifier in "
                "metadata.yaml, or give the file itself"
            )
        if cut is not None:
            return (
                f"{cut} ends without MCAP's closing magic: it is cut off (its recorder "
                "was killed or is still recording, or a copy stopped); `mcap recover "
                f"{shlex.quote(cut)} -o recovered.mcap` (the mcap CLI) writes the "
                "messages it holds"
            )
    except OSError:  # said as rosbags said it
        return None
    return None


def _metadata_storage(bag: Path) -> str | None:
    """Return the ``storage_identifier`` a bag folder's ``metadata.yaml`` names, else ``None``."""
    text = _metadata_text(bag / "metadata.yaml")
    # WHY [ \t]: ``^\s*`` also crossed newlines, so a run of N blank lines cost N**2 steps
    # (a metadata.yaml of 64 Ki newlines took 25 s to refuse).
    pattern = r"^[ \t]*storage_identifier:[ \t]*['\"]?([A-Za-z0-9_]+)"
    found = re.search(pattern, text, re.MULTILINE)
    return found.group(1) if found else None


def _metadata_text(meta: Path) -> str:
    """Return the first 64 KiB of a bag's ``metadata.yaml`` as text, ``""`` if unreadable.

    Its keys are read with patterns, as rosbag2 writes them (no YAML parser needed); the
    folder's files were checked first (:func:`_check_folder_files`: no FIFO, no device).
    """
    try:
        with meta.open("rb") as f:
            return f.read(1 << 16).decode("utf-8", "replace")
    except OSError:
        return ""


def _metadata_files(meta: Path) -> list[str]:
    """Return the ``relative_file_paths`` a bag folder's ``metadata.yaml`` lists, in order.

    Read as rosbag2 writes it (a block list, one ``- FILE`` a line); ``[]`` where it is
    not there or not readable.
    """
    text = _metadata_text(meta)
    pattern = r"^[ \t]*relative_file_paths:[ \t]*\n((?:[ \t]*- .*\n?)*)"
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        return []
    return [line.split("- ", 1)[1].strip().strip("'\"") for line in found[1].splitlines()]


def _warn_split_part(bag: Path, name: str) -> None:
    """Warn that the bag file ``bag`` (named ``name``) is one of several of a split bag.

    WHY: ``ros2 bag record --max-bag-size`` (or ``--max-bag-duration``) splits a recording
    into files that one ``metadata.yaml`` beside them lists; the first file given alone (a
    shell's completion stops there) was read as the whole run, its poses only, without a
    word (evo does the same). Said once a process for a file (a command opens a bag up to
    5 times).
    """
    meta = bag.parent / "metadata.yaml"
    if not meta.is_file() or stream_kind(meta) is not None:
        return
    # WHY the name: rosbag2 of Eloquent and Foxy wrote each path with the bag folder first
    # (``run/run_0.db3``, ros2/rosbag2#229); rosbags reads the file of that name in the
    # folder, and so here.
    listed = [PurePath(file).name for file in _metadata_files(meta)]
    if len(listed) < 2 or bag.name not in listed:
        return
    key = str(bag.resolve())
    if key in _SPLIT_SAID:
        return
    _SPLIT_SAID.add(key)
    folder = str(Path(name).parent)
    warnings.warn(
        DataWarning(
            f"{name}: one of the {len(listed)} files of the split bag "
            f"{folder if folder != '.' else 'in this folder'} "
            f"(its metadata.yaml lists {', '.join(listed[:5])}"
            f"{', ...' if len(listed) > 5 else ''}): read alone, its messages only; give the "
            "folder to read them all",
            kind="",
            fixed=False,
        ),
        stacklevel=caller_stacklevel(),
    )


#: The files :func:`_warn_split_part` has warned of, so each is said once.
_SPLIT_SAID: set[str] = set()


def _said(err: BaseException, paths: tuple[Path, Path], name: str) -> str:
    """Return ``err``'s words (160 characters at most), ``paths`` (link opened, bag) as ``name``."""
    return _short(str(err).replace(str(paths[0]), name).replace(str(paths[1]), name), 160)


class _Damaged(Exception):  # noqa: N818 - said as "it is damaged" by _failure
    """A ROS 1 message that does not match the bag's index, found by :class:`_CheckedReader`."""


class _CheckedReader:
    """rosbags' ``AnyReader``: what it is asked checked as the bag's, a ROS 1 bag's index too.

    WHY the arguments: :func:`_a_bug` tells a bug from damage by who raised a
    ``KeyError``, but rosbags raises one for a type name it does not know
    (``fielddefs[typename]``), and a ``KeyError``, an ``AssertionError`` (MCAP) or its
    own error for a connection of another reader: a bug of robot_msgs passing a topic
    for a type, or another bag's connection, was said "the bag is damaged". A type
    neither of a connection nor of the type store, or a connection the bag did not
    hand out, is refused here with a ``KeyError`` of robot_msgs, let out as a bug.

    WHY the index: rosbags checks a message's record against the index with a bare ``assert``,
    which ``python -O`` drops. Of 2000 damaged copies of evo's ROS_example.bag and
    tf_example.bag (bytes flipped or overwritten, mostly in record headers, or cut),
    ``read_records`` read 16 under ``-O`` with a message at the wrong log time (an
    index entry's; the receive times of ``latency`` too; trajectories are stamped by
    their headers), and 27 reads gave wrong data without ``-O``: an index record
    renumbered files a topic's messages under no connection, a record's connection
    moves a message to another topic, and rosbags reads on. The chunk infos count
    each connection's messages and give the span of their log times, apart from the
    index: checked here, with no ``assert``, they refuse 12 of the 16 and 11 of the 27
    (and 7 bags whose chunk infos alone were damaged, which read right). A connection
    record renumbered leaves its messages to no connection, or to another's id (the
    other topic then read its messages as its own): the chunk infos count messages of
    an id no connection has, or two connections have one id. Each topic is checked when
    its messages are read, so a damaged topic leaves the others readable. A log time
    changed within the span (4 under ``-O``) is found by reading each record's header
    again, with rosbags' parser, where ``-O`` dropped rosbags' ``assert``, and said
    naming the topic either way. Left: damaged message bytes (12: ROS 1 has no checksum).
    """

    def __init__(self, reader: Any, name: str = "") -> None:
        self._reader = reader
        self._damaged: dict[str, str] = {}  # topic: why its messages cannot be trusted
        self._decoded: set[str] = set()  # the types deserialize was asked for
        self._counted = not reader.is2  # whether a full read is checked against the counts
        if reader.is2:
            self._check_sqlite(reader, name)
            return
        indexed: dict[str, int] = {}
        for conn in reader.connections:
            indexed[conn.topic] = indexed.get(conn.topic, 0) + conn.msgcount
        for topic, info in reader.topics.items():  # counted from the chunk infos
            if info.msgcount != indexed.get(topic, 0):
                self._damaged[topic] = (
                    f"{topic} has {indexed.get(topic, 0)} messages in the index, "
                    f"{info.msgcount} in the chunk infos"
                )
        for bag in reader.readers:  # one, as open_bag opens one bag
            self._check_ids(bag.connections, [info.connection_counts for info in bag.chunk_infos])

    def _check_ids(self, connections: list[Any], counts: list[dict[int, int]]) -> None:
        """Mark the topics whose connection id the chunk infos or another connection contradict."""
        owners: dict[int, str] = {}
        for conn in connections:
            if conn.id in owners:
                why = f"two connections have the id {conn.id} ({owners[conn.id]}, {conn.topic})"
                self._damaged[owners[conn.id]] = self._damaged[conn.topic] = why
            owners.setdefault(conn.id, conn.topic)
        lost = sorted({cid for count in counts for cid in count if cid not in owners})
        for conn in connections:  # renumbered: its messages are left to no connection
            if lost and not any(count.get(conn.id) for count in counts):
                self._damaged.setdefault(
                    conn.topic,
                    f"{conn.topic} has a connection without messages, and the chunk infos "
                    f"count messages of connection {lost[0]}, which the index does not define",
                )

    def _check_sqlite(self, reader: Any, name: str) -> None:
        """Check each sqlite3 file of a ROS 2 bag: SQLite's integrity check, and its counts.

        WHY: rosbags reads a topic's messages ``ORDER BY timestamp``, through the
        ``timestamp_idx`` index, joined to ``topics``, and SQLite reads a damaged page as
        it can. A flipped cell count of an index page leaves its entries out: of the 614
        one-byte flips of the header and cell pointers of the index pages of a 300-pose
        ``.db3``, 2 read 283 poses without a word (3 more read others, warned of).
        ``PRAGMA integrity_check`` (bounded: :func:`_sqlite_damage`) finds each of them.
        A row whose ``topic_id`` names no topic is valid SQLite and in no topic's count,
        so the join drops it unseen: the table then holds more rows than its topics
        count. Each topic read whole is checked against its count too (:meth:`messages`:
        ``metadata.yaml``'s in a bag folder). SQLite keeps no checksum: a flip in a
        message's bytes, or of a ``topic_id`` to another topic's in a bare ``.db3``, is
        left unseen.

        A file whose check is not finished within the budget (:data:`SQLITE_CHECK_S`: a
        338 MB file needs 4.5 s) keeps its count checks only, and one warning says so
        (it was unsaid).
        """
        from rosbags.rosbag2.storage_sqlite3 import Sqlite3Reader  # noqa: PLC0415 - rosbags'

        end = time.monotonic() + SQLITE_CHECK_S  # one budget for all files of a split bag
        unchecked: list[Path] = []
        for bag in reader.readers:
            storages = getattr(bag.storage, "storages", [bag.storage])
            if not storages or not all(isinstance(x, Sqlite3Reader) for x in storages):
                return  # MCAP: CRCs, and counts a file may leave out
            for storage in storages:
                rows = storage.metadata.message_count
                counted = sum(conn.msgcount for conn in storage.connections)
                finished, why = (
                    (False, None) if time.monotonic() > end else _sqlite_damage(storage.dbconn, end)
                )
                if not finished:
                    unchecked.append(Path(storage.path).resolve())  # a link: its file
                if why is None and rows != counted:
                    why = f"the messages table has {rows} rows, its topics {counted}"
                if why is not None:
                    for conn in reader.connections:
                        self._damaged.setdefault(conn.topic, why)
        self._counted = True
        if unchecked:
            _warn_unchecked(name, unchecked)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._reader, name)

    def damage(self, topic: str) -> str | None:
        """Say why the index of ``topic`` cannot be trusted; ``None`` when nothing says so."""
        return self._damaged.get(topic)

    def check_topics(self, topics: Collection[str]) -> None:
        """Refuse a ROS 1 bag whose index contradicts its chunk infos for one of ``topics``."""
        damaged = sorted(self._damaged.keys() & set(topics))
        if damaged:
            raise _Damaged(self._damaged[damaged[0]])

    def deserialize(self, raw: Any, typename: str) -> Any:
        """Return ``rosbags``' message of ``typename``, one the bag or its type store has."""
        reader = self._reader
        if typename not in reader.typestore.fielddefs and all(
            conn.msgtype != typename for conn in reader.connections
        ):
            msg = f"{typename!r} is the type of no connection of the bag"
            raise KeyError(msg)  # a bug of robot_msgs: _a_bug lets it out
        self._decoded.add(typename)
        return reader.deserialize(raw, typename)

    def decodes_as_ros(self) -> bool:
        """Whether the bag defines each type decoded, and each in it, as ROS 1 or ROS 2 does."""
        from rosbags.typesys import Stores, get_typestore  # noqa: PLC0415 - on a failure only

        ros = [get_typestore(store).fielddefs for store in (Stores.LATEST, Stores.ROS1_NOETIC)]
        own = self._reader.typestore.fielddefs
        todo, seen = list(self._decoded), set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            if not any(own.get(name) == defs.get(name) is not None for defs in ros):
                return False
            todo += [kind for _, desc in own[name][1] for kind in _type_names(desc)]
        return True

    def messages(
        self, connections: Collection[Any] = (), start: int | None = None, stop: int | None = None
    ) -> Iterator[tuple[Any, int, Any]]:
        """Return ``rosbags``' ``(connection, log time ns, raw bytes)`` of the bag's connections."""
        reader = self._reader
        ours = {id(conn) for conn in reader.connections}
        stray = next((conn for conn in connections if id(conn) not in ours), None)
        if stray is not None:
            msg = f"{getattr(stray, 'topic', stray)!r} is no connection of this bag"
            raise KeyError(msg)  # a bug of robot_msgs: _a_bug lets it out
        if not reader.is2:
            return self._ros1_messages(connections, start, stop)
        if not self._counted:
            return iter(reader.messages(connections=connections, start=start, stop=stop))
        asked = list(connections) or list(reader.connections)
        self.check_topics({conn.topic for conn in asked})
        read = reader.messages(connections=connections, start=start, stop=stop)
        # none read: the readers say why (metadata.yaml naming another type than the file's)
        return _counted(read, asked, whole=start is None and stop is None, none_said=True)

    def _ros1_messages(
        self, connections: Collection[Any], start: int | None, stop: int | None
    ) -> Iterator[tuple[Any, int, Any]]:
        """Yield a ROS 1 bag's messages, each checked against the index."""
        reader = self._reader
        asked = list(connections) or list(reader.connections)
        self.check_topics({conn.topic for conn in asked})
        first, end = reader.start_time, reader.end_time
        bag = reader.readers[0]  # one, as open_bag opens one bag
        entries = (  # rosbags' index entries in its order, each with its connection
            pair
            for pair in heapq.merge(
                *[zip(bag.indexes[conn.id], itertools.repeat(conn)) for conn in asked],
                key=lambda pair: pair[0],
            )
            if start is None or pair[0].time >= start
        )
        messages = iter(reader.messages(connections=asked, start=start, stop=stop))
        yield from _counted(self._ros1_checked(messages, entries, bag, first, end), asked,
                            whole=start is None and stop is None)  # fmt: skip

    def _ros1_checked(
        self, messages: Iterator[Any], entries: Iterator[Any], bag: Any, first: int, end: int
    ) -> Iterator[tuple[Any, int, Any]]:
        """Yield rosbags' ROS 1 messages, each checked against its index entry and span."""
        while True:
            try:
                conn, log_time, raw = next(messages)
            except StopIteration:
                break
            except AssertionError:  # rosbags' check of the time: said as -O says it
                _check_log_time(bag, *next(entries))
                raise
            entry = next(entries)
            if not __debug__:  # -O dropped rosbags' check of the time
                _check_log_time(bag, *entry)
            if not first <= log_time < end:
                msg = f"a log time {log_time} ns outside the chunk infos' {first} to {end - 1} ns"
                raise _Damaged(msg)
            yield conn, log_time, raw


#: Seconds SQLite's ``integrity_check`` may take on one bag (all its files together)
#: each time it is opened, before it is let go.
SQLITE_CHECK_S = 2.0


def _sqlite_damage(conn: Any, end: float) -> tuple[bool, str | None]:
    """Whether SQLite's check of an ``apsw`` connection's file finished, and its first complaint.

    ``PRAGMA integrity_check`` reads every page and checks each index against its table;
    stopped at ``end`` (``time.monotonic``; by its progress handler): ``(False, None)``,
    and the caller warns (:func:`_warn_unchecked`). 0.3 ms on evo's tf_example.db3.
    The budget, :data:`SQLITE_CHECK_S`, is the bag's: the files of a split bag share it
    (each its own, ten 1 GB files cost 20 s at each open: a command opens a bag up to 5
    times).
    """
    conn.set_progress_handler(lambda: time.monotonic() > end, 10_000)
    try:
        rows = conn.execute("PRAGMA integrity_check(1)").fetchall()
    except Exception as err:  # apsw.InterruptError: out of time; damage: said by the caller
        if type(err).__name__ == "InterruptError":
            return False, None
        raise
    finally:
        conn.set_progress_handler(None)
    said = str(rows[0][0]) if rows else "ok"
    if said == "ok":
        return True, None
    return True, "SQLite's integrity check: " + said.replace("*** in database main ***\n", "")


def _warn_unchecked(name: str, files: list[Path]) -> None:
    """Warn that SQLite's integrity check of ``files`` of the bag ``name`` was not finished.

    Once a process for a bag (path, size and time of each file): a command opens a bag
    up to 5 times (``ape``: 3), and said each time, the one fact was as many lines.
    """
    key = tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    if key in _UNCHECKED_SAID:
        return
    _UNCHECKED_SAID.add(key)
    size = sum(f.stat().st_size for f in files) / 1e6
    which = files[0].name if len(files) == 1 else f"{len(files)} of its files"
    warnings.warn(
        DataWarning(
            f"{name}: SQLite's integrity check of {which} ({size:.3g} MB) was not finished "
            f"within its {SQLITE_CHECK_S:g} s: only the message counts were checked, so "
            "messages that a damaged index page leaves out would be missed without a word",
            kind="",
            fixed=False,
        ),
        stacklevel=caller_stacklevel(),
    )


#: The bags :func:`_warn_unchecked` has warned of (its key), so each is said once.
_UNCHECKED_SAID: set[tuple[tuple[str, int, int], ...]] = set()


def _counted(
    messages: Iterable[tuple[Any, int, Any]],
    asked: list[Any],
    *,
    whole: bool,
    none_said: bool = False,
) -> Iterator[tuple[Any, int, Any]]:
    """Yield ``messages``, each of a connection ``asked``; read ``whole``, as many as counted.

    ``none_said``: a topic of which none were read is not checked (the caller says so).

    A bag's count of a topic's messages (a ROS 1 index; a ROS 2 sqlite3 bag's
    ``metadata.yaml``, or the table's own count) against the messages read: a message
    lost or gained on the way (a damaged index) is :class:`_Damaged`, naming the topic.
    """
    read = dict.fromkeys(map(id, asked), 0)
    for conn, log_time, raw in messages:
        if id(conn) not in read:
            msg = f"a message of {conn.topic} where the index has another topic"
            raise _Damaged(msg)
        read[id(conn)] += 1
        yield conn, log_time, raw
    # metadata.yaml's -5 or null counts nothing: that topic is not checked (as before;
    # message_count says so, listing it)
    counted = [
        c
        for c in asked
        if type(c.msgcount) is int and c.msgcount >= 0 and (read[id(c)] or not none_said)
    ]
    wrong = next((c for c in counted if read[id(c)] != c.msgcount), None)
    if wrong is not None and whole:  # all were read
        msg = f"{wrong.topic} has {read[id(wrong)]} messages, its index {wrong.msgcount}"
        raise _Damaged(msg)


def _check_log_time(bag: Any, entry: Any, conn: Any) -> None:
    """Refuse the message of ``conn``'s index ``entry`` whose record has another log time.

    ``bag`` is rosbags' ROS 1 reader, which has just read the record (its chunk is the
    current one); its header is read again as rosbags reads it.
    """
    from rosbags.rosbag1.reader import Header, RecordType, read_uint32  # noqa: PLC0415

    chunk = bag.current_chunk[1]
    chunk.seek(entry.offset)
    header = Header.read(chunk)
    while header.get_uint8("op") == RecordType.CONNECTION:
        chunk.seek(read_uint32(chunk), os.SEEK_CUR)
        header = Header.read(chunk)
    written = header.get_time("time")
    if written != entry.time:
        msg = (
            f"{conn.topic}: a message's log time is {entry.time} ns in the index, "
            f"{written} ns in its record"
        )
        raise _Damaged(msg)


def read_failure(
    err: Exception, where: str, said: str | None = None, *, reader: Any = None
) -> FormatError | None:
    """Say that the bag at ``where`` cannot be read, as ``err`` raised while reading it shows.

    The one wording of a bag that breaks while it is read, for :func:`open_bag` and
    :func:`robot_msgs.io.bag_messages.read_records` (which names the message in
    ``where``). ``said`` is ``err``'s text as shown (default ``str(err)``); ``reader``
    is :func:`open_bag`'s, which tells whether the bag defines its messages as ROS does.

    Returns
    -------
    FormatError or None
        ``None`` when ``err`` is no fault of the bag: one of the package's own errors,
        or a bug of robot_msgs (:func:`_a_bug`, or a ``TypeError`` raised by robot_msgs
        reading messages ``reader`` says ROS defines so); it is raised unchanged.

    Examples
    --------
    >>> print(read_failure(EOFError("Compressed file ended"), "run.bag"))
    run.bag: cannot read the bag (EOFError: Compressed file ended)
    >>> read_failure(FormatError("run.bag: no messages"), "run.bag") is None
    True
    """
    said = str(err) if said is None else said
    if isinstance(err, RobotMsgsError):
        return None
    if isinstance(err, MemoryError):
        return FormatError(
            f"{where}: cannot read the bag (a record claims more bytes than memory holds)"
        )
    if isinstance(err, (AttributeError, TypeError)):
        # A bag carries its own message definitions: one that lacks a field of the ROS
        # type it names (header.frame_id, pose.position) gives messages without it. An
        # AttributeError of robot_msgs is its bug (_a_bug). A field of another shape (one
        # message where ROS has an array: "object is not iterable") raises a TypeError in
        # robot_msgs' frames too: one there is its bug only if the bag defines as ROS does
        # every type read.
        if _a_bug(err) or (
            isinstance(err, TypeError)
            and _raised_by_robot_msgs(err)
            and (reader is not None and reader.decodes_as_ros())
        ):
            return None
        return FormatError(
            f"{where}: its messages do not have the fields of the type they name ("
            f"{type(err).__name__}: {said}); the bag's message definition differs from ROS's"
        )
    if isinstance(err, _bag_errors()):
        if _a_bug(err):
            return None
        return FormatError(f"{where}: cannot read the bag{_failure(err, said)}")
    if isinstance(err, RuntimeError) and "lz4" in said.lower():  # lz4 raises no type of its own
        return FormatError(f"{where}: cannot read the bag (a damaged lz4 chunk: {said})")
    return None


#: The first bytes of each bag file, and the extension rosbags opens it by.
_BAG_MAGIC = ((_ROS1_MAGIC, ".bag"), (b"SQLite format 3\x00", ".db3"), (b"\x89MCAP", ".mcap"))


@contextlib.contextmanager
def _named_by_content(bag: Path) -> Iterator[Path]:
    """Yield ``bag``, or a link to it named with the extension its first bytes say.

    WHY: rosbags chooses its reader by the extension alone (a ROS 1 reader for
    ``.bag``, a ROS 2 storage for ``.db3`` or ``.mcap``), while the format is detected
    by the magic bytes whatever the name: a bag saved as ``recording`` or ``x.MCAP``
    was detected, then refused ("Unrecognized storage format ''"). The link lives in a
    temporary folder for as long as the bag is open.
    """
    with bag.open("rb") as file:
        head = file.read(max(len(magic) for magic, _ in _BAG_MAGIC))
    wanted = next((suffix for magic, suffix in _BAG_MAGIC if head.startswith(magic)), None)
    if wanted is None or bag.suffix == wanted:
        yield bag
        return
    import tempfile  # noqa: PLC0415 - only for a bag named otherwise

    with tempfile.TemporaryDirectory(prefix="robot_msgs-bag-") as folder:
        link = Path(folder) / f"bag{wanted}"
        link.symlink_to(bag.resolve())
        yield link


def _is_link_loop(path: Path) -> bool:
    """Whether resolving the link ``path`` goes round in a loop (``ELOOP``)."""
    try:
        path.stat()
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


#: The first bytes of a SQLite rollback journal whose transaction is not finished (a
#: finished one is deleted, truncated, or its header zeroed).
_HOT_JOURNAL = bytes.fromhex("d9d505f920a163d7")


def _check_not_being_written(bag: Path, name: str) -> None:
    """Refuse a ROS 2 sqlite3 bag whose SQLite files beside it say it is being written.

    WHY: rosbags opens each ``.db3`` ``immutable=1`` (read-only, without locks, never
    writing, making no ``-wal`` or ``-shm`` file), so SQLite ignores the files a writer
    keeps beside it. A write-ahead log (rosbag2's ``resilient`` preset records in WAL
    mode; also what a recorder that stopped without closing leaves) may hold committed
    messages not yet in the file: a ``.db3`` of 300 poses with 300 more committed in its
    ``-wal`` read as 300, without a word. A log whose frames were all checkpointed before
    a crash holds none, and is read past when its pages are shown to be the file's
    (:func:`~robot_msgs.io.sqlite_wal.wal_is_in_database`), unless a process still holds
    the bag open with a log (:func:`~robot_msgs.io.sqlite_wal.shm_lock_holder`: a lock on
    the ``-shm``; not asked on Windows): a recorder still running that has just
    checkpointed was read short, without a word, as the 300 poses it had written so far.
    A finished bag a viewer holds open (an empty ``-wal``) is read. A recording
    whose tables are still in the log was "cannot open as a ROS bag (... database missing
    tables)". A hot rollback journal (a write transaction not finished, some of its pages
    in the file) was said as damage: "it is damaged (... SQLite's integrity check: wrong
    # of entries in index ...)", or "database disk image is malformed". Both are said as
    what they are, with the way out; nothing is written (the files beside the bag are only
    looked at).
    """
    if bag.is_dir():
        try:
            files = [f for f in bag.iterdir() if f.name.endswith(".db3")]
        except OSError:  # said by _check_folder_files
            return
        # a file linked into the folder: SQLite's files lie beside the file, not the link
        files = [_resolved(f) for f in files]
    else:
        try:
            with bag.open("rb") as file:
                sqlite = file.read(16) == b"SQLite format 3\x00"
        except OSError:  # said when rosbags opens it
            return
        files = [bag.resolve()] if sqlite else []
    for db in files:
        wal, journal = db.with_name(db.name + "-wal"), db.with_name(db.name + "-journal")
        try:
            logged = wal.is_file() and wal.stat().st_size > 0
        except FileNotFoundError:  # deleted as it was looked at: the last connection closed
            logged = False
        # a live connection with a log: a recorder may write at any moment. Without a log
        # (none, or 0 bytes: a finished bag a viewer such as `sqlite3` holds open) it is read
        holder = shm_lock_holder(db) if logged else None
        if holder is not None:
            who = f"process {holder}" if holder else "another process"
            msg = (
                f"{name}: the bag is still being recorded ({who} holds it open: a lock on "
                f"{db.name}-shm beside it): a read now would leave out what it writes next; "
                "read the bag when the recording has ended"
            )
            raise FormatError(msg)
        # a log whose commits are all in the file already (checkpointed, then a crash) holds
        # nothing a read-only reader leaves out: shown page by page, reading only
        if logged and not wal_is_in_database(db, wal):
            msg = (
                f"{name}: the bag is still being written, or its recorder stopped without "
                f"closing it: {wal.name} beside it is not empty: it may hold SQLite writes "
                f"not yet in {db.name}, which a read-only reader leaves out; read the bag "
                f"when the recording has ended (`sqlite3 {shlex.quote(str(db))} "
                "'PRAGMA wal_checkpoint(TRUNCATE)'` folds a stopped recorder's log into the "
                "bag, writing it)"
            )
            raise FormatError(msg)
        if journal.is_file():
            try:
                with journal.open("rb") as file:
                    hot = file.read(len(_HOT_JOURNAL)) == _HOT_JOURNAL
            except FileNotFoundError:  # deleted as it was looked at: its transaction ended
                hot = False
            if hot:
                msg = (
                    f"{name}: the bag is still being written, or its recorder stopped in the "
                    f"middle of a write: {journal.name} beside it holds an unfinished SQLite "
                    f"transaction, so {db.name} is not whole; read the bag when the recording "
                    f"has ended (`sqlite3 {shlex.quote(str(db))} 'PRAGMA integrity_check'` "
                    "rolls a stopped recorder's unfinished write back, writing the bag)"
                )
                raise FormatError(msg)


def _resolved(path: Path) -> Path:
    """``path`` with its links followed, or as it is where they loop (said elsewhere)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a link loop (Python 3.11, 3.12)
        return path


#: The largest ``metadata.yaml`` of a bag folder handed to rosbags, bytes (4 MiB).
#: WHY: rosbags parses it with ruamel.yaml's pure-Python loader before anything refuses
#: it, 0.4-0.9 s a MB of one long line (a 10 MB line held ``traj`` 16-30 s, parsed
#: twice), 2.6 s a MB of the block lists rosbag2 writes (a loaded 2-core machine). A real
#: one is 245 KB for 300 topics with two publishers' QoS each, 2.1 MB for 1,000 topics
#: with five and 1,440 split files; a bag file given alone is read without it.
_METADATA_MAX_BYTES = 4 << 20

#: The most lines and flow items (each ``,``, ``[`` and ``{``) of a ``metadata.yaml``
#: handed to rosbags. WHY: ruamel.yaml's pure-Python loader costs by the token, not the
#: byte: a flow sequence ``[1, 1, ...]`` of 1 MiB took 31 s, a flow mapping of 1.25 MiB
#: 30 s, where 4 MiB of what rosbag2 writes holds at most 153,000 (version 9, a line a
#: QoS field; 2.3 MB for 1,000 topics of five publishers: 83,022 lines, 24 s; a loaded
#: 2-core machine). Within it no file costs more than the largest real one.
_METADATA_MAX_ITEMS = 200_000


def _check_folder_files(bag: Path, name: str) -> None:
    """Refuse a bag folder holding a file rosbags would block on or read without end.

    A FIFO as ``metadata.yaml`` or as the ``.db3`` blocked in SQLite's open, where not
    even SIGTERM ends the process; ``/dev/zero`` linked as ``metadata.yaml`` was read
    until memory ran out. Every entry must be a regular file (or a folder), and
    ``metadata.yaml`` within its bounds (:func:`_check_metadata_structure`).
    """
    meta = bag / "metadata.yaml"
    if not meta.exists() and not meta.is_symlink():
        # rosbags said "Expected metadata file 'runs' does not exist.": the folder, as the file
        msg = (
            f"{name}: a folder without metadata.yaml: not a ROS 2 bag folder (give its .db3 "
            "or .mcap file)"
        )
        raise FormatError(msg)
    try:  # metadata.yaml first, then every entry: none may be skipped (a FIFO hangs)
        entries = itertools.chain([meta], bag.iterdir())
        for entry in entries:
            kind = stream_kind(entry)
            if kind is not None:
                msg = f"{name}: {entry.name} is {kind}: a bag's files must be regular files"
                raise FormatError(msg)
    except OSError as err:
        msg = f"{name}: cannot list the bag folder ({err.strerror or err})"
        raise FormatError(msg) from err
    if meta.is_file():
        _check_metadata_structure(meta, name)


def _check_metadata_structure(meta: Path, name: str) -> None:
    r"""Refuse a ``metadata.yaml`` (of the bag folder ``name``) that costs rosbags minutes.

    Its size (:data:`_METADATA_MAX_BYTES`), its lines and flow items
    (:data:`_METADATA_MAX_ITEMS`) and the nesting of its flow collections (``max_depth``
    of :mod:`robot_msgs.limits`; rosbag2 nests none) are bounded; brackets are counted
    wherever they are, a quoted one too, so no quote or comment hides one. WHY: a flow
    sequence nested 100,000 deep held rosbags' parser 5 s before its ``RecursionError``,
    a flow sequence of 1.4 million items within 4 MiB about two minutes.

    A CR alone and each backslash count as a line, and a YAML anchor (``&``, rosbag2
    writes none) is refused, wherever they are. WHY: rosbags parses each topic's
    ``offered_qos_profiles`` string as YAML again: a 3.9 MB file whose QoS string wrote its
    lines as ``\n`` escapes (one physical line) took 79 s, and one topic aliased 50 times
    with a 20,000-line QoS string (121 kB, 86 lines) 64.6 s, a parse per alias.
    """
    if (size := meta.stat().st_size) > _METADATA_MAX_BYTES:
        msg = (
            f"{name}: metadata.yaml is {size} bytes, more than the {_METADATA_MAX_BYTES} bytes a "
            "bag's metadata.yaml may hold (give the bag's .db3 or .mcap file itself)"
        )
        raise FormatError(msg)
    try:
        with meta.open("rb") as f:
            data = f.read(_METADATA_MAX_BYTES)
    except OSError as err:  # as rosbags' "Could not read metadata" was said
        msg = f"{name}: cannot read metadata.yaml ({err.strerror or err})"
        raise FormatError(msg) from err
    view = np.frombuffer(data, dtype=np.uint8)
    # A CR alone breaks a line for ruamel too; a backslash may escape one inside a string
    # that rosbags parses again (``offered_qos_profiles``): both count as a line.
    lone_cr = (view == ord("\r")) & (np.append(view[1:], 0) != ord("\n"))
    items = np.flatnonzero(np.isin(view, np.frombuffer(b"\n,[{\\", dtype=np.uint8)) | lone_cr)
    anchors = np.flatnonzero(view == ord("&"))
    said = None
    if items.size > _METADATA_MAX_ITEMS:
        at = int(items[_METADATA_MAX_ITEMS])
        said = (
            f"holds more than the {_METADATA_MAX_ITEMS} lines and flow items (, [ {{; a "
            "backslash or a CR alone counts as a line) a bag's metadata.yaml may hold"
        )
    elif anchors.size:  # wherever it is, a quoted one too, as the brackets
        at = int(anchors[0])
        said = "defines a YAML anchor (&), which rosbag2 never writes (rosbags parses each alias)"
    else:
        limit = current_limits().max_depth
        brackets = np.flatnonzero(np.isin(view, np.frombuffer(b"[{]}", dtype=np.uint8)))
        steps = np.where((view[brackets] == ord("[")) | (view[brackets] == ord("{")), 1, -1)
        walk = np.cumsum(steps)
        levels = walk - np.minimum(np.minimum.accumulate(walk), 0)  # a stray ] counts none
        deep = np.flatnonzero(levels > limit)
        if not deep.size:
            return
        at = int(brackets[deep[0]])
        said = (
            f"nests flow collections ([ ], {{ }}) deeper than the {limit} levels a bag's "
            "metadata.yaml may hold"
        )
    line = data.count(b"\n", 0, at) + 1
    msg = f"{name}: metadata.yaml line {line}: {said} (give the bag's .db3 or .mcap file itself)"
    raise FormatError(msg)


def _a_bug(err: BaseException) -> bool:
    """Whether ``err`` is an ``AssertionError``, ``KeyError`` or ``AttributeError`` of robot_msgs.

    WHY: :func:`_failure` says the first two are damage, as rosbags' bare asserts and dict
    look-ups on a damaged bag are, and :func:`read_failure` an ``AttributeError`` a message
    definition of the bag's own; the same try holds the caller's code too (a message's
    conversion, a TF walk), where one is a bug of robot_msgs: said "the bag is damaged",
    it blamed the user's file. The innermost frame of rosbags or robot_msgs tells who
    raised it: frames of other modules (the standard library's ``enum`` or ``os``,
    rosbags' generated decoders) and C libraries, which have none, count as their caller.
    An ``AttributeError`` for a field that ROS's type has, of a message rosbags decoded,
    is the bag's wherever it is raised: robot_msgs reads it, the bag's definition lacks it.
    """
    if isinstance(err, AttributeError) and _a_field_the_bag_lacks(err):
        return False
    if not isinstance(err, (AssertionError, KeyError, AttributeError)):
        return False
    return _raised_by_robot_msgs(err)


def _raised_by_robot_msgs(err: BaseException) -> bool:
    """Whether the innermost frame of rosbags or robot_msgs in ``err``'s traceback is ours."""
    tb, owner = err.__traceback__, "robot_msgs"
    while tb is not None:
        top = str(tb.tb_frame.f_globals.get("__name__", "")).partition(".")[0]
        owner = top if top in ("rosbags", "robot_msgs") else owner
        tb = tb.tb_next
    return owner == "robot_msgs"


def _type_names(desc: Any) -> list[str]:
    """Name the message types in one field of rosbags' ``fielddefs`` (``(nodetype, detail)``)."""
    from rosbags.interfaces import Nodetype  # noqa: PLC0415 - the bag's reader

    kind, detail = desc
    if kind == Nodetype.NAME:
        return [detail]
    if kind in (Nodetype.ARRAY, Nodetype.SEQUENCE):  # detail: ((nodetype, detail), count)
        return _type_names(detail[0])
    return []


def _a_field_the_bag_lacks(err: AttributeError) -> bool:
    """Whether ``err`` asks a message rosbags decoded for a field ROS's type defines.

    A field ROS's type does not define either (``pose.position_xyz``) is robot_msgs'
    misspelling; one of a type ROS does not define is taken as the bag's.
    """
    kind = type(err.obj)
    msgtype = getattr(kind, "__msgtype__", None)
    if kind.__module__.partition(".")[0] != "rosbags" or not isinstance(msgtype, str):
        return False
    from rosbags.typesys import Stores, get_typestore  # noqa: PLC0415 - the bag's reader

    ros = get_typestore(Stores.LATEST).fielddefs.get(msgtype)
    return ros is None or any(name == err.name for name, _ in ros[1])


def _failure(err: BaseException, said: str) -> str:
    """Say what ``err``, raised by rosbags on a damaged bag, means; ``said`` is its text.

    WHY: rosbags checks a record against its header and the bag's index with a bare
    ``assert`` (a message's time, an index's size) and looks a record's connection or
    chunk up in a dict: "cannot read the bag (AssertionError: )" and "(KeyError: 256)"
    told a user nothing (found by fuzzing the CLI with damaged bags). Other errors say
    what they are in their own words.

    Examples
    --------
    >>> _failure(AssertionError(), "")
    ": it is damaged (a record does not match its header or the bag's index)"
    >>> _failure(KeyError(256), "256")
    ': it is damaged (a record refers to an id the bag does not define: 256)'
    >>> _failure(ValueError("Header could not be read"), "Header could not be read")
    ' (ValueError: Header could not be read)'
    """
    if isinstance(err, (AssertionError, _Damaged)):
        detail = f": {said}" if said else ""
        return f": it is damaged (a record does not match its header or the bag's index{detail})"
    if isinstance(err, KeyError):
        return f": it is damaged (a record refers to an id the bag does not define: {said})"
    return f" ({type(err).__name__}: {said})" if said else f" ({type(err).__name__})"


def _bag_errors() -> tuple[type[BaseException], ...]:
    """List what reading a damaged bag raises, from rosbags and the libraries under it.

    rosbags' own errors (``AnyReaderError``, each storage's ``ReaderError``, the
    deserializer's ``SerdeError``), and what its decoders raise on garbage: ``struct``,
    ``IndexError`` and ``UnicodeDecodeError`` from CDR and ROS 1 bytes, ``sqlite3``'s
    errors (``sqlite3``'s, or ``apsw``'s under rosbags 0.11), zstd errors (``zstandard``,
    ``backports.zstd``), bz2's ``OSError``; lz4's ``RuntimeError`` is told apart by
    :func:`open_bag`.
    """
    import sqlite3  # noqa: PLC0415
    import struct  # noqa: PLC0415

    errors: list[type[BaseException]] = [
        struct.error, IndexError, KeyError, UnicodeDecodeError, ValueError, EOFError,
        OverflowError, AssertionError, sqlite3.Error, OSError, _Damaged,
    ]  # fmt: skip
    for module, name in (
        ("rosbags.highlevel", "AnyReaderError"),
        ("rosbags.rosbag1", "ReaderError"),
        ("rosbags.rosbag2", "ReaderError"),
        ("rosbags.serde", "SerdeError"),
        ("rosbags.typesys", "TypesysError"),
        ("zstandard", "ZstdError"),
        ("backports.zstd", "ZstdError"),  # rosbags 0.11's zstd
        ("compression.zstd", "ZstdError"),  # Python 3.14's
        ("apsw", "Error"),  # rosbags 0.11's SQLite
    ):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:  # zstandard: only with zstd-compressed MCAP support
            continue
        if isinstance(found, type) and issubclass(found, BaseException):
            errors.append(found)
    return tuple(errors)


def list_topics(path: str | os.PathLike[str]) -> tuple[TopicInfo, ...]:
    """List the topics of a bag, sorted by name, with message type and count.

    A bag folder whose ``metadata.yaml`` names another type for a topic than its storage
    holds is refused, as reading that topic is (:func:`_check_index_type`): it was listed
    with ``metadata.yaml``'s type without a word. So is a ROS 1 bag whose index its chunk
    infos contradict for a topic (its count would be the index's, wrong).

    Examples
    --------
    >>> list_topics("no/such.bag")
    Traceback (most recent call last):
    FileNotFoundError: no/such.bag: no such file or folder
    """
    topics = _topics(path, checked=lambda _: True)
    said: dict[str, set[str]] = {}
    for info in topics:
        said.setdefault(info.topic, set()).add(info.msgtype)
    _check_index_types(path, said)
    return topics


def indexed_topics(
    path: str | os.PathLike[str], *, checked_types: Collection[str] = ()
) -> tuple[TopicInfo, ...]:
    """List the topics of a bag as its index says them, unchecked (:func:`list_topics`).

    What choosing a topic to read needs, at no more cost than opening the bag: a topic
    whose type the index gives wrongly, or a ROS 1 topic whose index its chunk infos
    contradict, is refused when it is read; the latter is listed with its
    :attr:`TopicInfo.damaged`. A ROS 1 topic of one of ``checked_types``
    is checked here, as :func:`list_topics` checks it. WHY: a choice by count (the one
    pose topic with messages) passed over a topic whose damaged index counted 0 of its
    messages and read another topic without a word, where the bag as written has two.
    """
    return _topics(path, checked=lambda msgtype: msgtype in checked_types)


def topics_of_types(path: str | os.PathLike[str], types: Collection[str]) -> list[str]:
    """Return the topics of a bag of one of ``types`` (ROS 2 names) that hold messages.

    What a bag read without a topic is read from where it is one (the pose topics of
    :data:`POSE_TYPES`, ``robot-msgs track``'s JointState topics). A ROS 1 topic of
    ``types`` whose index is damaged is refused (:func:`indexed_topics`), as its count
    (0 where its index lost its messages) cannot choose. WHY here, not as
    ``pose_topics(types=...)``: a call for JointState topics read as one for poses.
    """
    topics = indexed_topics(path, checked_types=types)  # resolved there, named as given
    return [t.topic for t in topics if t.msgtype in types and t.message_count > 0]


def _topics(
    path: str | os.PathLike[str], *, checked: Callable[[str], bool]
) -> tuple[TopicInfo, ...]:
    """List the topics of a bag, refusing a ROS 1 topic of a ``checked`` type damaged."""
    with open_bag(path) as reader:
        reader.check_topics({conn.topic for conn in reader.connections if checked(conn.msgtype)})
        counts: dict[tuple[str, str], int] = {}
        for conn in reader.connections:
            key = (conn.topic, conn.msgtype)
            counts[key] = counts.get(key, 0) + message_count(conn, path)
        return tuple(TopicInfo(t, m, c, reader.damage(t)) for (t, m), c in sorted(counts.items()))


def message_count(conn: Any, path: object) -> int:
    """Return the message count of a ``rosbags`` connection of the bag ``path``.

    WHY: a bag folder's counts are what its ``metadata.yaml`` says, unchecked by rosbags:
    ``-5`` was listed as a count, ``null`` refused as "its messages do not have the fields
    of the type they name" (a TypeError from ``int(None)``).

    Raises
    ------
    FormatError
        The count is not a whole number of zero or more.
    """
    count = conn.msgcount
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        msg = (
            f"{path}: topic {conn.topic}'s message count is {count!r}, no count of messages: "
            "the bag's index (a bag folder's metadata.yaml) is damaged"
        )
        raise FormatError(msg)
    return count


def _check_index_type(path: str | os.PathLike[str], topic: str, msgtype: str) -> None:
    """Refuse a bag folder whose ``metadata.yaml`` gives ``topic`` a type its storage does not.

    WHY: rosbags takes a folder's topics and counts from ``metadata.yaml`` and reads the
    messages of a topic whose storage (``.db3``, ``.mcap``) holds the same type: one that
    says ``nav_msgs/msg/Odometry`` for a topic of ``PoseStamped`` messages was listed with
    its count and read as "no messages". Asked only when a topic reads no message, so a
    bag costs nothing more to read.

    Raises
    ------
    FormatError
        A storage file of the folder holds ``topic`` with other types than ``msgtype``:
        the message names ``metadata.yaml``, the topic, both types and the file.
    """
    _check_index_types(path, {topic: {msgtype}})


def _check_index_types(path: str | os.PathLike[str], said: Mapping[str, set[str]]) -> None:
    """Refuse a bag folder whose ``metadata.yaml`` gives a topic of ``said`` other types.

    ``said`` maps each topic to the types ``metadata.yaml`` names for it; each storage
    file of the folder is opened once. See :func:`_check_index_type`.
    """
    bag = resolve_path(path)
    if not bag.is_dir():
        return
    for storage in sorted([*bag.glob("*.db3"), *bag.glob("*.mcap")]):
        try:
            with open_bag(storage) as reader:
                stored: dict[str, set[str]] = {}
                for conn in reader.connections:
                    stored.setdefault(conn.topic, set()).add(conn.msgtype)
        except (FormatError, OSError):  # a file that does not open says nothing of the index
            continue
        for topic, msgtype in sorted((t, m) for t, types in said.items() for m in types):
            held = sorted(stored.get(topic, ()))
            if held and msgtype not in held:
                msg = (
                    f"{path}: metadata.yaml says topic {topic} holds {msgtype}, but its "
                    f"{storage.name} holds {' and '.join(held)}: the bag folder's index is "
                    f"damaged (give {storage.name} itself to read what it holds)"
                )
                raise FormatError(msg)


def tf_chains(path: str | os.PathLike[str]) -> tuple[str, list[str]]:
    """Return a bag's TF topic and its transforms (:func:`~robot_msgs.io.tf.tf_transforms`).

    The dynamic TF topic, else the static one; ``("", [])`` when the bag has no TF. What
    a TF id (``/tf:parent.child``) is written from, for a bag read without a topic.

    Examples
    --------
    >>> tf_chains("no/such.bag")
    Traceback (most recent call last):
    FileNotFoundError: no/such.bag: no such file or folder
    """
    with open_bag(path) as reader:
        topics = sorted({c.topic for c in reader.connections if c.msgtype == TF_TYPE})
        if not topics:
            return "", []
        topic = next((t for t in topics if t != "/tf_static"), topics[0])
        return topic, tf_transforms(reader, topic, source=str(path))


def _xyz_quat(msg: Any, msgtype: str) -> tuple[float, ...]:
    """``x, y, z, qx, qy, qz, qw`` of one message of a :data:`POSE_TYPES` type."""
    if msgtype == "geometry_msgs/msg/TransformStamped":
        p, q = msg.transform.translation, msg.transform.rotation
    elif msgtype == "geometry_msgs/msg/PointStamped":
        p = msg.point
        return (p.x, p.y, p.z, 0.0, 0.0, 0.0, 1.0)
    elif msgtype == "geometry_msgs/msg/PoseStamped":
        p, q = msg.pose.position, msg.pose.orientation
    else:  # PoseWithCovarianceStamped, Odometry
        p, q = msg.pose.pose.position, msg.pose.pose.orientation
    return (p.x, p.y, p.z, q.x, q.y, q.z, q.w)


def _row_fields(msgtype: str) -> tuple[str, ...]:
    """Name the fields of a row read from a ``msgtype`` message: the stamp, then ``_xyz_quat``'s."""
    if msgtype == _NAVSAT:
        return ("header.stamp", "latitude", "longitude", "altitude", "status.status")
    if msgtype == "geometry_msgs/msg/PointStamped":
        return ("header.stamp", "point.x", "point.y", "point.z")
    p, q = {
        "geometry_msgs/msg/TransformStamped": ("transform.translation", "transform.rotation"),
        "geometry_msgs/msg/PoseStamped": ("pose.position", "pose.orientation"),
        "nav_msgs/msg/Path": ("pose.position", "pose.orientation"),  # a row per pose
    }.get(msgtype, ("pose.pose.position", "pose.pose.orientation"))
    return ("header.stamp", *(f"{p}.{c}" for c in "xyz"), *(f"{q}.{c}" for c in "xyzw"))


#: Types whose pose carries a covariance (``pose.covariance``, 36 values row-major).
_COVARIANCE_TYPES = frozenset(
    {"geometry_msgs/msg/PoseWithCovarianceStamped", "nav_msgs/msg/Odometry"}
)


def _covariances(values: list[Any], source: str) -> Any:
    """Stack ``pose.covariance`` fields as ``(N, 6, 6)`` covariances (ROS order and frame).

    All-zero ones (ROS's "unknown") are read as none, with a note or a warning
    (:func:`~robot_msgs.io.clean.known_covariances`, kind :data:`UNKNOWN_COVARIANCES`).
    """
    cov = float_rows(values, source, "message", what="pose.covariance")
    if cov.shape[1:] != (36,):
        count = cov.shape[1] if cov.ndim == 2 else 1
        msg = f"{source}: pose.covariance holds {count} numbers, not 36 (6x6): {DEFINITION_DIFFERS}"
        raise FormatError(msg)
    return known_covariances(cov.reshape(-1, 6, 6), source, each="message")


def _find_topic(reader: Any, topic: str, source: str) -> tuple[str, str]:
    """Find the bag's spelling and type of ``topic`` (a leading ``/`` may differ).

    A topic not in the bag is refused naming the close ones and the pose topics; a TF
    topic given bare (``/tf``), naming the transforms to write a TF id from.
    """
    topics = {conn.topic: conn.msgtype for conn in reader.connections}
    if topic not in topics:
        loose = [t for t in topics if t.lstrip("/") == topic.lstrip("/")]
        if len(loose) != 1:
            readable = sorted(t for t, m in topics.items() if m in POSE_TYPES)
            hint = did_you_mean(topic, sorted(t for t, m in topics.items() if m != TF_TYPE))
            msg = (
                f"{source}: no topic {topic!r}{hint or ';'} pose topics: "
                f"{', '.join(readable) or 'none'} (TF as /tf:parent.child)"
            )
            raise TopicError(msg, path=source)
        topic = loose[0]
    msgtype = topics[topic]
    if msgtype == TF_TYPE:
        msg = (
            f"{source}: {topic} is TF: choose a chain as {topic}:parent.child; "
            f"{transforms_text(tf_transforms(reader, topic, source=source))}"
        )
        raise TopicError(msg, path=source)
    if msgtype not in POSE_TYPES:
        _check_index_type(source, topic, msgtype)  # the type may be metadata.yaml's error
        msg = (
            f"{source}: topic {topic!r} has type {msgtype}; expected one of "
            f"{', '.join(sorted(POSE_TYPES))}"
        )
        raise FormatError(msg)
    return topic, msgtype


def _check_frame_names(frames: list[Any], children: list[Any], source: str, kind: str) -> None:
    """Refuse a frame id that is not text: a bag's own definition (``int32 frame_id``).

    WHY: the trajectory is built without checking its fields again, so an ``int32``
    ``header.frame_id`` or ``child_frame_id`` gave a trajectory whose frame was the int.
    """
    odd = next((k for k, frame in enumerate(frames) if not isinstance(frame, str)), None)
    odd_child = next((k for k, c in enumerate(children) if not isinstance(c, str)), None)
    if odd is not None:
        where = "the Path's" if kind == "pose" else f"{kind} {odd + 1}'s"
        got = f"header.frame_id is {frames[odd]!r}"
    elif odd_child is not None:
        where, got = f"{kind} {odd_child + 1}'s", f"child_frame_id is {children[odd_child]!r}"
    else:
        return
    msg = f"{source}: {where} {got}, not text: {DEFINITION_DIFFERS}"
    raise FormatError(msg)


def _report_mixed_frames(
    frames: list[str], field: str, source: str, kind: str, *, strict: bool
) -> None:
    """Report a topic whose messages' ``field`` (their frame or child frame) changes.

    WHY where: a frame that changes mid-bag (a localiser restarted in odom) is found in
    the bag by the message that first differs from the first message's frame. WHY the
    child frame too: an Odometry topic whose child_frame_id went from base_link to
    base_footprint mid-bag was read without a word, as the last message's.
    """
    distinct = sorted(set(frames))
    if len(distinct) < 2:
        return
    other = next(k for k, frame in enumerate(frames) if frame != frames[0])
    # WHY '': a frame_id left empty (a publisher before its frame is known) was listed
    # as nothing, "(, map; ...)".
    named = listed([frame or "''" for frame in distinct], _FRAMES_NAMED)
    frames_word = "frames" if field == "frame_id" else "child frames"
    report(
        f"{source}: messages are in {len(distinct)} {frames_word} ({named}; "
        f"{frames[other]!r} from {kind} {other + 1}): "
        f"{field} set to the first, {frames[0]!r}",
        strict=strict,
        kind="mixed_frames",
    )


def _labels(kind: str) -> Callable[[IntpArray], list[str]]:
    return lambda rows: [f"{kind} {int(r) + 1}" for r in rows]


def first_fix(path: str | os.PathLike[str], topic: str) -> tuple[float, float, float] | None:
    """Return the first fix ``(lat, lon, alt)`` of a ``NavSatFix`` topic (else ``None``).

    Fixes flagged "no fix" (``status.status < 0``) or not finite are passed over.

    Examples
    --------
    >>> first_fix("no/such.bag", "/fix")
    Traceback (most recent call last):
    FileNotFoundError: no/such.bag: no such file or folder
    """
    with open_bag(path) as reader:
        if is_tf_id(topic):
            return None
        name, msgtype = _find_topic(reader, topic, str(path))
        if msgtype != _NAVSAT:
            return None
        conns = [c for c in reader.connections if c.topic == name]
        for conn, _, raw in reader.messages(connections=conns):
            msg = reader.deserialize(raw, conn.msgtype)
            fix = (float(msg.latitude), float(msg.longitude), float(msg.altitude))
            if msg.status.status >= 0 and all(np.isfinite(fix)):
                return fix
    return None


def _navsat_rows(
    values: np.ndarray,
    source: str,
    origin: tuple[float, float, float] | None,
    crs: str | None,
) -> np.ndarray:
    """Turn ``t, lat, lon, alt, status`` rows into ``t, x, y, z, qx, qy, qz, qw`` rows."""
    no_fix = values[:, 4] < 0
    if no_fix.any():
        warnings.warn(
            f"{source}: {int(no_fix.sum())} of {no_fix.size} NavSatFix messages have no fix "
            "(status < 0): dropped",
            DataWarning,
            stacklevel=caller_stacklevel(),
        )
        values = values[~no_fix]
        if values.shape[0] == 0:
            msg = f"{source}: no NavSatFix message has a fix"
            raise FormatError(msg)
    xyz, _ = metric_from_geodetic(
        values[:, 1:4], origin=origin, crs=crs, source=source, where=_labels("message")
    )
    no_orientation(source, "NavSatFix")
    out = np.zeros((values.shape[0], 8))
    out[:, 0], out[:, 1:4], out[:, 7] = values[:, 0], xyz, 1.0
    return out


def read_bag(
    path: str | os.PathLike[str],
    topic: str,
    *,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
) -> PoseTrajectory:
    """Read the trajectory on ``topic`` of a ROS 1 bag, ROS 2 bag or MCAP file.

    Parameters
    ----------
    path : path-like
        A ``.bag`` file (ROS 1), a ROS 2 bag folder or ``.db3`` file (sqlite3), or an
        ``.mcap`` file.
    topic : str
        A topic of one of :data:`POSE_TYPES`, or a TF id ``/tf:parent.child`` (with an
        optional ``:/static_topic``, default ``/tf_static``), as evo spells it.
    strict : bool
        Refuse data problems instead of fixing them with a warning.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).
    geo_origin : (lat, lon, alt), optional
        ``NavSatFix`` only: the ENU origin (degrees, metres); default the first fix.
    crs : str, optional
        ``NavSatFix`` only: a projected CRS (``"EPSG:32632"``) instead of ENU (the ``geo``
        extra); see :mod:`robot_msgs.io.geodetic`.

    Returns
    -------
    PoseTrajectory
        One pose a message, stamped by ``header.stamp`` (exactly in ``stamps_ns``, and
        as ``sec + nanosec * 1e-9`` in ``stamps_s``); ``frame_id`` from the
        headers, ``child_frame_id`` where the type has one; ``covariance_6x6`` from
        ``pose.covariance`` for ``PoseWithCovarianceStamped`` and ``Odometry`` (none
        when the messages leave it all zero, ROS's "unknown", noted with the kind
        :data:`UNKNOWN_COVARIANCES`). ``nav_msgs/Path``: the poses of the LAST message
        (a path is republished whole as it grows), each stamped by its own header;
        refused when those stamps are all equal (planners often leave them zero).
        ``PointStamped`` has no orientation: identity rotations, with a
        :class:`DataWarning`.

    Raises
    ------
    FormatError
        Not a bag, no such topic, a type not in :data:`POSE_TYPES`, no messages, or
        a data problem refused; ``geo_origin`` or ``crs`` for a topic that is no
        ``NavSatFix``.
    MissingDependencyError
        ``rosbags`` (or for ``crs``, PyProj) is not installed.

    Examples
    --------
    >>> read_bag("run.bag", "/tf:map.base_link")  # doctest: +SKIP
    PoseTrajectory(...)
    >>> read_bag("no/such.bag", "/odom")
    Traceback (most recent call last):
    FileNotFoundError: no/such.bag: no such file or folder
    """
    source = f"{path} {topic}"
    with open_bag(path) as reader:
        if is_tf_id(topic):
            return read_tf(
                reader, topic, source=str(path), strict=strict, repeated_stamps=repeated_stamps
            )
        name, msgtype = _find_topic(reader, topic, str(path))
        source = f"{path} {name}"
        if msgtype != _NAVSAT and (geo_origin is not None or crs is not None):
            msg = (
                f"{source}: an ENU origin or a CRS (`geo_origin=`, `crs=`) applies to "
                f"NavSatFix topics and lla files, not {msgtype}"
            )
            raise FormatError(msg)
        conns = [c for c in reader.connections if c.topic == name]
        rows: list[tuple[float, ...]] = []
        covariances: list[Any] = []
        with_covariance = msgtype in _COVARIANCE_TYPES
        stamps_ns: list[int] = []
        frames: list[str] = []
        children: list[Any] = []  # Odometry's and TransformStamped's child_frame_id
        kind = "message"
        last: Any = None
        for conn, _, raw in reader.messages(connections=conns):
            msg = reader.deserialize(raw, conn.msgtype)
            if msgtype == "nav_msgs/msg/Path":
                last = msg
                continue
            stamp = msg.header.stamp
            if msgtype == _NAVSAT:
                fix = (msg.latitude, msg.longitude, msg.altitude, msg.status.status)
                rows.append((stamp.sec + stamp.nanosec * 1e-9, *fix))
                stamps_ns.append(stamp.sec * 1_000_000_000 + stamp.nanosec)
                frames.append(msg.header.frame_id)
                continue
            rows.append((stamp.sec + stamp.nanosec * 1e-9, *_xyz_quat(msg, msgtype)))
            if with_covariance:
                covariances.append(msg.pose.covariance)
            stamps_ns.append(stamp.sec * 1_000_000_000 + stamp.nanosec)
            frames.append(msg.header.frame_id)
            if hasattr(msg, "child_frame_id"):
                children.append(msg.child_frame_id)
        if last is not None:
            kind = "pose"
            frames = [last.header.frame_id]
            for pose in last.poses:
                stamp = pose.header.stamp
                rows.append(
                    (
                        stamp.sec + stamp.nanosec * 1e-9,
                        *_xyz_quat(pose, "geometry_msgs/msg/PoseStamped"),
                    )
                )
                stamps_ns.append(stamp.sec * 1_000_000_000 + stamp.nanosec)
            source += " (last Path message)"
    if not rows:
        if last is None:
            _check_index_type(path, name, msgtype)
        msg = f"{source}: no messages" + (" (the last Path is empty)" if last is not None else "")
        raise FormatError(msg)
    values = float_rows(
        rows, source, kind, fields=_row_fields(msgtype), integers=("status.status",)
    )
    if msgtype == _NAVSAT:
        values = _navsat_rows(values, source, geo_origin, crs)
        frames = [crs or "enu"]
    if values.shape[0] > 1 and np.all(values[:, 0] == values[0, 0]):
        stamp = float(values[0, 0])
        if kind == "pose":
            msg = (
                f"{source}: all {values.shape[0]} poses have the stamp {stamp!r} s; "
                "a path without per-pose stamps is no trajectory"
            )
        else:  # WHY: the rows' rule said "stamps in another column or unit?" of a bag
            msg = (
                f"{source}: all {values.shape[0]} {kind}s have the stamp {stamp!r} s: "
                f"header.stamp is {'not set' if stamp == 0.0 else 'not updated'} by their "
                "publisher (the receive times are not used as stamps, nor by evo); no "
                "trajectory in time"
            )
        raise FormatError(msg)
    _check_frame_names(frames, children, source, kind)
    _report_mixed_frames(frames, "frame_id", source, kind, strict=strict)
    _report_mixed_frames(children, "child_frame_id", source, kind, strict=strict)
    if msgtype == "geometry_msgs/msg/PointStamped":
        no_orientation(source, "PointStamped")
    return finish_trajectory(
        values[:, 0],
        values[:, 1:4],
        values[:, 4:8],
        source=source,
        where=_labels(kind),
        strict=strict,
        repeated_stamps=repeated_stamps,
        frame_id=frames[0] if frames else "",
        child_frame_id=children[0] if children else "",
        covariance_6x6=_covariances(covariances, source) if with_covariance else None,
        # One exact stamp a row, unless a rule upstream (no-fix NavSatFix rows) dropped rows.
        stamps_ns=np.array(stamps_ns, dtype=np.int64) if len(stamps_ns) == len(values) else None,
    )
