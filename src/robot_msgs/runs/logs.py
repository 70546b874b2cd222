"""The per-run logs ``timing.csv``, ``tracking.csv`` and ``resources.csv``, read into arrays.

Their layouts are documented in :mod:`robot_msgs.runs.folders`; errors name the file, the
line and the column. :func:`read_signal_log` reads a control loop's logged command or
measurement (a time column, then a column per channel, or a row per joint per time) with
the same reader and rules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, cast

import numpy as np

from robot_msgs.errors import FormatError, TopicError, ValidationError, did_you_mean
from robot_msgs.io.table import shown_token
from robot_msgs.msg.arrays import immutable
from robot_msgs.report.text import counted, listed
from robot_msgs.runs.csvlog import TEXT, read_csv_table, value_said

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

    from robot_msgs.runs.csvlog import CsvTable
    from robot_msgs.sensor import JointState
    from robot_msgs.typing import AnyArray, BoolArray, Float64Array, Int64Array

__all__ = [
    "ResourceLog",
    "SignalLog",
    "TimingLog",
    "TrackingLog",
    "read_resources",
    "read_signal_log",
    "read_timing",
    "read_tracking",
]


#: The value columns of a log of one row per joint per time (``sensor_msgs/JointState``'s
#: fields), the first present read.
_JOINT_FIELDS = ("position", "velocity", "effort")
_JOINT_STATE = "sensor_msgs/msg/JointState"
#: The topics a bag without a JointState topic is said to hold, and the joints a log
#: without one asked for (then "and N more").
_NAMED = 5
#: Other spellings of a joint-state log's ``name`` and value columns (``Time,Name,Position``,
#: ``stamp,joint,pos``): a header of them is told the names it needs.
_JOINT_NAME_LIKE = frozenset({"name", "names", "joint", "joints", "joint_name", "joint_names"})
_JOINT_FIELD_LIKE = frozenset(
    {"position", "positions", "pos", "velocity", "velocities", "vel", "effort", "efforts"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class TimingLog:
    """Per-frame stamps in seconds on one clock, each array of shape ``(N,)`` float64.

    ``processing_start_s`` is all NaN when the log has no such column. The arrays are
    read-only, as a :class:`SignalLog`'s (:func:`_read_only`).
    """

    path: Path
    frame: Float64Array
    acquisition_s: Float64Array
    processing_start_s: Float64Array
    available_s: Float64Array

    def __post_init__(self) -> None:
        _read_only(self, ("frame", "acquisition_s", "processing_start_s", "available_s"))


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackingLog:
    """Tracking state over time: ``kind`` is ``"events"`` or ``"validity"``.

    For events, ``lost[k]`` is true for a ``lost`` event at ``stamps_s[k]`` and false for
    ``recovered``; events alternate, starting with ``lost``. For validity, ``lost[k]`` is
    true where the estimate at ``stamps_s[k]`` is not valid. ``empty``: read from a file
    of no bytes (no event), which the run's notes say. The arrays are read-only, as a
    :class:`SignalLog`'s (:func:`_read_only`).
    """

    path: Path
    kind: str
    stamps_s: Float64Array
    lost: BoolArray
    empty: bool = False

    def __post_init__(self) -> None:
        _read_only(self, ("stamps_s", "lost"))


@dataclass(frozen=True, slots=True, kw_only=True)
class SignalLog:
    """Logged channels over time: a command or a measurement of a control loop.

    Attributes
    ----------
    path : Path
        The file read.
    time_column : str
        The header name of the time column.
    stamps_s : ndarray, shape (N,), float64, seconds
        Strictly increasing sample times.
    channels : tuple of str
        The channels' header names, in the order of ``values``' columns.
    values : ndarray, shape (N, C), float64, each channel's unit
        One column per channel, every value finite (NaN a dropout, when read with
        ``dropouts``).
    notes : tuple of str
        What was left out of the file, for the user (a column of text, no channel).
    stamps_ns : ndarray, shape (N,), int64, nanoseconds, or None
        The stamps exactly: a bag's ``header.stamp``, a CSV log's times typed as whole
        nanoseconds (``1700000000.123456789``, ``1.7e9``), or from 2^23 s the nearest
        (``1700000000.1234567891``); None for others (``0.1234567891``). WHY:
        ``stamps_s`` since 1970 are 2.4e-7 s apart
        (:func:`~robot_msgs.control.tracking_error.seconds_after`).

    The arrays are read-only: each copied unless no one can write to it provably
    (:func:`_read_only`). WHY: ``log.values[0, 0] = 7`` changed the log.
    """

    path: Path
    time_column: str
    stamps_s: Float64Array
    channels: tuple[str, ...]
    values: Float64Array
    notes: tuple[str, ...] = ()
    stamps_ns: Int64Array | None = None

    def __post_init__(self) -> None:
        _read_only(self, ("stamps_s", "values", "stamps_ns"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ResourceLog:
    """Resource samples, each ``(N,)`` float64; absent optional columns are all NaN.

    ``empty``: read from a file of no bytes (no sample), which the run's notes say. The
    arrays are read-only, as a :class:`SignalLog`'s (:func:`_read_only`).
    """

    path: Path
    time_s: Float64Array
    cpu_percent: Float64Array
    rss_bytes: Float64Array
    threads: Float64Array
    gpu_mem_bytes: Float64Array
    gpu_percent: Float64Array
    empty: bool = False

    def __post_init__(self) -> None:
        _read_only(
            self, ("time_s", "cpu_percent", "rss_bytes", "threads", "gpu_mem_bytes", "gpu_percent")
        )


def _read_only(log: object, names: tuple[str, ...]) -> None:
    """Hold the arrays ``names`` of a frozen ``log`` read-only: copied unless provably so.

    Each array is copied and made read-only unless no one can write to its memory
    provably (:func:`~robot_msgs.msg.arrays.immutable` with ``owned=False``: over
    ``bytes``); a read-only array that owns its memory is copied too, as a view taken
    before its ``setflags(write=False)`` still writes to it. The readers' new arrays are
    copied alike: 17 to 25 ms of a 10^6-row log's 1.1 to 2.2 s read (measured). None (an
    absent ``stamps_ns``) stays.
    """
    for name in names:
        array = getattr(log, name)
        if array is not None and not immutable(array, owned=False):
            array = array.copy()
            array.setflags(write=False)
            object.__setattr__(log, name, array)


def read_timing(path: Path, *, drop_cut_line: bool = False) -> TimingLog:
    r"""Read ``timing.csv``: ``frame,acquisition_s[,processing_start_s],available_s``.

    ``processing_start_s`` may be left out, or left empty in a row (unknown for that frame:
    NaN, its processing time left out). ``drop_cut_line``: as :func:`read_csv_table`.

    Raises
    ------
    FormatError
        Bad layout or cells (file, line, column named), acquisition stamps not strictly
        increasing, or a frame whose stamps are out of order
        (``acquisition_s <= processing_start_s <= available_s`` must hold on one clock).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "timing.csv"
    >>> _ = path.write_text(
    ...     "frame,acquisition_s,processing_start_s,available_s\n"
    ...     "0,0.0,0.01,0.03\n1,0.1,0.11,0.14\n"
    ... )
    >>> log = read_timing(path)
    >>> (log.available_s - log.acquisition_s).round(3).tolist()
    [0.03, 0.04]
    """
    table = read_csv_table(
        path,
        required=("frame", "acquisition_s", "available_s"),
        optional=("processing_start_s",),
        drop_cut_line=drop_cut_line,
    )
    acq = table.floats("acquisition_s")
    avail = table.floats("available_s")
    start = table.floats("processing_start_s") if "processing_start_s" in table.columns else None
    expected = "a stamp after the previous row's {} (strictly increasing)"
    table.refuse_backward("acquisition_s", acq, expected)
    if start is None:
        start = np.full_like(acq, np.nan)
    # An empty cell (NaN) is a frame whose processing start is unknown: its processing time
    # is left out, as a log without the column; it was refused as "got nan" (a hunt).
    unknown = np.isnan(start)
    same_clock = "a time >= acquisition_s {} (same clock?)"
    table.refuse(unknown & (avail < acq), "available_s", same_clock, avail, acq)
    if not unknown.all():
        table.refuse(~unknown & ~(start >= acq), "processing_start_s", same_clock, start, acq)
        expected = "a time >= processing_start_s {}"
        table.refuse(avail < start, "available_s", expected, avail, start)
    with np.errstate(over="ignore"):
        latency = avail - acq
    # its statistics printed NumPy's overflow warning
    expected = "a latency within float64's range of acquisition_s {}"
    table.refuse(~np.isfinite(latency), "available_s", expected, avail, acq)
    return TimingLog(
        path=path,
        frame=table.floats("frame"),
        acquisition_s=acq,
        processing_start_s=start,
        available_s=avail,
    )


def read_tracking(path: Path, *, drop_cut_line: bool = False) -> TrackingLog:
    r"""Read ``tracking.csv``: ``time_s,event`` (lost/recovered) or ``time_s,valid`` (1/0).

    ``drop_cut_line``: as :func:`read_csv_table`.

    Raises
    ------
    FormatError
        Neither or both of ``event`` and ``valid``, an unknown event or flag, times out
        of order, or events that do not alternate ``lost``, ``recovered``, ``lost``...

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tracking.csv"
    >>> _ = path.write_text("time_s,event\n2.0,lost\n3.5,recovered\n")
    >>> log = read_tracking(path)
    >>> log.kind, log.lost.tolist()
    ('events', [True, False])
    """
    table = read_csv_table(
        path,
        required=("time_s",),
        optional=("event", "valid"),
        text=("event", "valid"),
        drop_cut_line=drop_cut_line,
        nothing=("time_s", "event"),  # a logger of events that had none: no loss
    )
    if ("event" in table.columns) == ("valid" in table.columns):
        msg = f"{path}:1: expected exactly one of the columns `event` or `valid`"
        raise FormatError(msg)
    stamps = table.floats("time_s")
    if "event" in table.columns:
        events = np.char.lower(table.columns["event"])
        known = (events == "lost") | (events == "recovered")
        table.refuse(~known, "event", "'lost' or 'recovered'", table.columns["event"])
        lost = events == "lost"
        order = np.arange(lost.size) % 2 == 0  # lost, recovered, lost, ...
        if (lost != order).any():
            row = int(np.flatnonzero(lost != order)[0])
            want = "'lost'" if order[row] else "'recovered'"
            raise table.fail(
                row, "event", f"{want} (events alternate, starting with lost)", str(events[row])
            )
        table.refuse_backward("time_s", stamps, "a time >= {}", strict=False)
        return TrackingLog(
            path=path,
            kind="events",
            stamps_s=stamps,
            lost=lost,
            empty=table.line_count == 0,
        )
    flags = np.char.lower(table.columns["valid"])
    is_valid = np.isin(flags, ["1", "true"])
    known = is_valid | np.isin(flags, ["0", "false"])
    table.refuse(~known, "valid", "1, 0, true or false", table.columns["valid"])
    table.refuse_backward("time_s", stamps, "a time after {}")
    return TrackingLog(path=path, kind="validity", stamps_s=stamps, lost=~is_valid)


def read_signal_log(
    path: Path,
    *,
    channels: Sequence[str] | None = None,
    dropouts: bool = False,
    field: str | None = None,
    topic: str | None = None,
) -> SignalLog:
    r"""Read a logged signal: a header, then a time column (seconds) and a column per channel.

    The **first** column is the time, strictly increasing; every other column is a channel
    (MATLAB's ``writematrix([t y])`` under a header line, pandas' ``to_csv(index=False)``
    of a frame with its time first). Every cell of the time and of a channel is a finite
    number (with ``dropouts``, a channel's may be empty or ``nan``); blank lines and
    ``#`` lines are skipped (:func:`~robot_msgs.runs.csvlog.read_csv_table`). The columns
    not among ``channels`` are not read; without ``channels``, a column whose first
    non-empty cell is not a number (a controller's ``mode``, a state's name) is text, no
    channel: left out, and a note says so. WHY: a log with a ``mode`` column was refused
    whole at its first cell, even with the channels named (a walk).

    A header with a ``name`` column beside ``position``, ``velocity`` or ``effort`` (after
    the time) is a log of one row per joint per time, a ``sensor_msgs/JointState``
    exported row by row: pivoted into a channel per joint (``channels`` are then joint
    names) in the order the file first names them; a joint without a row at a time is a
    missing sample (a dropout, with ``dropouts``), two rows of one joint at one time are
    refused. It was refused at its first name (a walk). ``field`` chooses the value
    column of such a log.

    A ROS 1 bag, a ROS 2 bag (folder or ``.db3``) or an MCAP file is read from its
    ``sensor_msgs/msg/JointState`` topic (``topic``, else the bag's one such topic): a
    channel per joint (``channels``, else the first message's joints, which every
    message must then name), matched by name in each message, at its ``header.stamp``
    (:func:`~robot_msgs.control.tracking_error.joint_samples`, ``joint_tracking``'s
    reading). WHY: ``track`` took only CSV, where the library compared the messages in
    memory.

    Parameters
    ----------
    path : Path
        The file (or a pipe).
    channels : sequence of str, optional
        The channels to read, in this order (default: every column after the time that
        holds numbers).
    dropouts : bool
        Read an empty or ``nan`` channel cell as NaN, a sample the logger missed (a
        measurement's dropout: :func:`~robot_msgs.control.tracking` leaves it out and says
        so), where it is refused by default; the time column is never gappy.
    field : {"position", "velocity", "effort"}, optional
        The field read of a JointState log or bag (default ``position``; a log without
        that column, its first of ``velocity``, ``effort``). Refused for a log of a
        column per channel.
    topic : str, optional
        A bag's JointState topic (default: its one JointState topic).

    Raises
    ------
    FormatError
        The file, line and column named: a missing channel column, a cell of the time or
        of a channel that is not a finite number (a channel named that holds text), a row
        with another number of cells, times not strictly increasing (where the header
        looks like a joint-state log's spelt otherwise, ``Time,Name,Position``, the header
        it needs is said), a channel named as
        the time column, no channel column, no data row, an empty file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "measured.csv"
    >>> _ = path.write_text("t,elbow,wrist\n0.0,0.1,0.2\n0.5,0.3,0.4\n")
    >>> log = read_signal_log(path, channels=["wrist"])
    >>> log.time_column, log.channels, log.values.tolist()
    ('t', ('wrist',), [[0.2], [0.4]])
    >>> _ = path.write_text("t,mode,elbow\n0.0,auto,0.1\n0.5,hold,0.3\n")
    >>> log = read_signal_log(path)
    >>> log.channels, log.notes[0].split(": ", 1)[1]
    (('elbow',), "column `mode` holds text ('auto'), no channel: left out")
    >>> _ = path.write_text("time,name,position\n0,elbow,0.1\n0,wrist,0.2\n1,wrist,0.4\n"
    ...                     "1,elbow,0.3\n")
    >>> log = read_signal_log(path)
    >>> log.channels, log.stamps_s.tolist(), log.values.tolist()
    (('elbow', 'wrist'), [0.0, 1.0], [[0.1, 0.2], [0.3, 0.4]])
    """
    wanted = tuple(channels or ())
    if _is_bag(path):
        return _joint_state_topic(path, topic, wanted, field or "position", dropouts=dropouts)
    if topic is not None:
        msg = f"{path}: a topic ({topic!r}) is read of a bag or MCAP file, not of a CSV log"
        raise FormatError(msg)
    table = read_csv_table(
        path,
        required=lambda header: () if _joint_fields(header[1:]) else wanted,
        optional=("name",),
        text=("name",),
        others="text",
        gaps=dropouts,
        time_ns=True,
    )
    time_column, *rest = table.columns
    header_line = table.line_of(-1)
    fields = _joint_fields(rest)
    if time_column in wanted and not fields:
        msg = (
            f"{path}:{header_line}: expected channels other than the time column "
            f"{time_column!r} (the first), got {time_column!r} among them"
        )
        raise FormatError(msg)
    if table.rows == 0:
        if not rest:
            msg = (
                f"{path}:{header_line}: expected a time column, then a column per channel, "
                f"got only {time_column!r}"
            )
            raise FormatError(msg)
        msg = f"{path}:{header_line}: expected rows of numbers after the header, got none"
        raise FormatError(msg)
    if field is not None and field not in fields:
        got = (
            f"columns {list(table.columns)}"
            if fields
            else "a log of a column per channel (a field is read of one row per joint per "
            "time, `time,name,position`)"
        )
        msg = f"{path}:{header_line}: expected a column `{field}` (the field asked for), got {got}"
        raise FormatError(msg)
    if fields:
        chosen = [field, *(f for f in fields if f != field)] if field else fields
        return _joint_rows(table, time_column, wanted, chosen, dropouts=dropouts)
    stamps = table.numbers(time_column)
    order = stamps if table.time_ns is None else table.time_ns  # exact where typed so
    lower = {name.lower() for name in rest}
    if lower & _JOINT_NAME_LIKE and lower & _JOINT_FIELD_LIKE and (order[1:] <= order[:-1]).any():
        # A JointState log spelt otherwise was refused at its second row of one time,
        # "expected a time after 0.0 (strictly increasing)", naming no header (a review).
        msg = (
            f"{path}:{header_line}: expected a log of one row per joint per time to be headed "
            f"`{time_column},name,position` (and `velocity`, `effort`; lower case), got "
            f"`{','.join(table.columns)}`"
        )
        raise FormatError(msg)
    table.refuse_backward(time_column, order, "a time after {} (strictly increasing)")
    notes: list[str] = []
    names = wanted
    if not wanted:
        for name in rest:
            text = _text_cell(table.columns[name])
            if text is None:
                names += (name,)
            else:
                row, cell = text
                notes.append(
                    f"{path}:{table.line_of(row)}: column `{name}` holds text "
                    f"({shown_token(cell)}), no channel: left out"
                )
    if not names:
        texts = f" and text ({', '.join(map(repr, rest))})" if rest else ""
        msg = (
            f"{path}:{header_line}: expected a time column, then a column per channel, got "
            f"only {time_column!r}{texts}"
        )
        raise FormatError(msg)
    values = np.column_stack([table.numbers(name, gaps=dropouts) for name in names])
    return SignalLog(
        path=path,
        time_column=time_column,
        stamps_s=stamps,
        channels=names,
        values=values,
        notes=tuple(notes),
        stamps_ns=table.time_ns,
    )


def _is_bag(path: Path) -> bool:
    """Whether ``path`` names a bag: a folder, a bag's suffix, or a bag's first bytes.

    ``.bag``, ``.db3`` or ``.mcap``, or a file that starts as a bag (as ``ape`` detects a
    bag named otherwise; track called it "undecodable bytes"). A pipe is not peeked at:
    it is read once, as a CSV log.
    """
    from robot_msgs.io.detect import is_bag_head  # noqa: PLC0415
    from robot_msgs.io.examples import resolve_path  # noqa: PLC0415
    from robot_msgs.io.formats import BAG_FORMATS, READ_SUFFIXES  # noqa: PLC0415

    resolved = resolve_path(path)
    if resolved.is_dir() or READ_SUFFIXES.get(resolved.suffix.lower()) in BAG_FORMATS:
        return True
    if not resolved.is_file():
        return False
    with resolved.open("rb") as file:
        return is_bag_head(file.read(16))


def _joint_state_topic(
    path: Path, topic: str | None, wanted: tuple[str, ...], field: str, *, dropouts: bool
) -> SignalLog:
    """Read a bag's JointState topic as channels (:func:`read_signal_log`'s rules).

    Raises
    ------
    TopicError
        No ``topic`` and not one JointState topic (the message lists them), or no such
        topic.
    FormatError
        A topic of another type, no message, a message without the field's values or
        without a joint (every message must name the first's joints, when no
        ``channels``), stamps not strictly increasing, a value not finite (with
        ``dropouts``, NaN is a dropout).
    """
    from robot_msgs.control.tracking_error import joint_samples, seconds_after  # noqa: PLC0415
    from robot_msgs.io.bag import list_topics, topics_of_types  # noqa: PLC0415 - bags only
    from robot_msgs.io.bag_messages import read_messages  # noqa: PLC0415

    if topic is None:
        found = topics_of_types(path, (_JOINT_STATE,))
        if not found:  # WHY: said "(JointState topics: none)", naming none of its topics
            held = [f"{t.topic} ({t.msgtype})" for t in list_topics(path)]
            msg = (
                f"{path}: no {_JOINT_STATE} topic with messages; the bag's "
                f"{counted(len(held), 'topic')}: {listed(held, _NAMED) or 'none'}"
            )
            raise TopicError(msg, path=str(path))
        if len(found) != 1:
            msg = (
                f"{path}: choose a topic with `topic=` (JointState topics: "
                f"{', '.join(found) or 'none'})"
            )
            raise TopicError(msg, path=str(path))
        topic = found[0]
    types = {t.topic: t.msgtype for t in list_topics(path)}
    loose = [t for t in types if t.lstrip("/") == topic.lstrip("/")]
    name = topic if topic in types or len(loose) != 1 else loose[0]
    if name not in types:
        named = ", ".join(f"{t} ({m})" for t, m in types.items()) or "none"
        hint = did_you_mean(topic, list(types))
        msg = f"{path}: no topic {topic!r}{hint or ';'} topics: {named}"
        raise TopicError(msg, path=str(path))
    source = f"{path} {name}"
    if types[name] != _JOINT_STATE:
        msg = f"{source}: expected a topic of type {_JOINT_STATE}, got {types[name]}"
        raise FormatError(msg)
    # Read as they come, into arrays (joint_samples): a list of the messages held 1.77 GB
    # for a topic of 10^6 messages of 6 joints, whose values are 48 MB.
    states = cast("Iterator[JointState]", read_messages(path, name))
    first = next(states, None)
    if first is None:
        msg = f"{source}: expected JointState messages, got none"
        raise FormatError(msg)
    joints = wanted or first.name
    if not joints:
        msg = f"{source}: expected joints named in the first message, got none"
        raise FormatError(msg)
    read = chain([first], states if wanted else _naming(states, joints, source))
    try:
        stamps_ns, values = joint_samples(read, joints, field)
    except ValidationError as err:
        msg = f"{source}: {str(err).replace('`states[', '`message[')}"
        raise FormatError(msg) from err
    ns = np.array(stamps_ns, dtype=np.int64)
    back = np.flatnonzero(ns[1:] <= ns[:-1])
    if back.size:
        k = int(back[0]) + 1
        # As a bag's pose topic says it: a driver that leaves the stamp 0 is named.
        unset = (
            ": header.stamp is not set by its publisher (the bag's receive times are not "
            "used as stamps)"
            if stamps_ns[k] == 0
            else ""
        )
        msg = (
            f"{source}: expected header.stamp strictly increasing, got message {k} at "
            f"{stamps_ns[k] / 10**9!r} s after {stamps_ns[k - 1] / 10**9!r} s{unset}"
        )
        raise FormatError(msg)
    bad = np.isinf(values) if dropouts else ~np.isfinite(values)
    if bad.any():
        k, c = divmod(int(np.flatnonzero(bad)[0]), len(joints))
        expected = "a finite number or NaN (a dropout)" if dropouts else "a finite number"
        msg = (
            f"{source}: message {k} (t = {stamps_ns[k] / 10**9!r} s): {field} of "
            f"{joints[c]!r}: expected {expected}, got {float(values[k, c])!r}"
        )
        raise FormatError(msg)
    return SignalLog(
        path=path,
        time_column="header.stamp",
        # The nearest float to each stamp's nanoseconds: a CSV log of the same decimal
        # seconds reads the same times.
        stamps_s=seconds_after(ns, 0),
        channels=tuple(joints),
        values=values,
        stamps_ns=ns,
    )


def _naming(
    states: Iterator[JointState], joints: Sequence[str], source: str
) -> Iterator[JointState]:
    """Pass on ``states``, refusing one that names other joints than the first message's."""
    named = set(joints)
    for k, state in enumerate(states, start=1):
        if set(state.name) != named:
            msg = (
                f"{source}: expected every message to name the first's joints "
                f"{list(joints)}, got {list(state.name)} in message {k} (give the joints "
                "with channels)"
            )
            raise FormatError(msg)
        yield state


def _joint_fields(columns: list[str]) -> list[str]:
    """Return the joint-state fields among ``columns`` beside a ``name``: a long log's."""
    return [f for f in _JOINT_FIELDS if f in columns] if "name" in columns else []


def _joint_rows(
    table: CsvTable,
    time_column: str,
    wanted: tuple[str, ...],
    fields: list[str],
    *,
    dropouts: bool,
) -> SignalLog:
    """Pivot a log of one row per joint per time (``time,name,position``) into channels.

    A ``sensor_msgs/JointState`` exported row by row (a bag to CSV, pandas' ``melt``): the
    rows of one message share its time, the rows are in time order, and each joint is a
    channel named by its ``name``, in the order of first appearance, its values those of
    the first of ``fields`` (``position``, ``velocity``, ``effort``); the other columns
    are not read. The times are those of the chosen joints' rows; a chosen joint without
    a row at one of them is a missing sample: a dropout with ``dropouts``, else refused,
    as an empty cell of a column per channel. Two rows
    of one joint at one time are refused (which to take is no reader's guess).
    Vectorised: one ``numpy.unique`` of the names, one scatter into the ``(times,
    channels)`` array; the file is only scanned to name a line in an error.

    Raises
    ------
    FormatError
        Times going back, an empty name, a value cell that is not a finite number, two
        rows of a joint at one time, a joint asked for without a row, a joint missing
        at a time (without ``dropouts``), or joints so rarely at the same times that
        fewer than one cell in 16 of the pivoted array would be filled.
    """
    path = table.path
    field = fields[0]
    t = table.numbers(time_column)
    # The rows' times in order and told apart by their nanoseconds where typed so: 1 ns
    # apart since 1970 is one float64.
    order = t if table.time_ns is None else table.time_ns
    expected = "a time >= {} (the rows in time order)"
    table.refuse_backward(time_column, order, expected, strict=False)
    names = table.columns["name"]
    table.refuse(names == "", "name", "a joint name", names)
    values = table.numbers(field, gaps=dropouts)
    sample = _time_index(order)
    # The joints in the order the file names them, each row's by a dict. WHY: np.unique
    # sorts the text (StringDType) column: 0.59 s for a 10^6-row log's names, this 0.28 s.
    cells = names.tolist()
    every = tuple(dict.fromkeys(cells))
    # A dict, not ``every.index``: 30000 joints took 27 s in tuple lookups (quadratic).
    index = {name: i for i, name in enumerate(every)}
    joint = np.fromiter(map(index.__getitem__, cells), dtype=np.intp, count=len(cells))
    key = sample * len(every) + joint
    by_key = np.argsort(key, kind="stable")
    twice = np.flatnonzero(key[by_key][1:] == key[by_key][:-1])
    if twice.size:
        k = int(np.argmin(by_key[twice + 1]))  # the second row met first in the file
        row, before = int(by_key[twice[k] + 1]), int(by_key[twice[k]])
        msg = (
            f"{path}:{table.line_of(row)}: expected one row per joint per time, got a "
            f"second row of {shown_token(str(names[row]))} at t = {value_said(order, row)} s (the "
            f"first at line {table.line_of(before)})"
        )
        raise FormatError(msg)
    absent = [name for name in wanted if name not in index]
    if absent:
        # 10^4 joints, each named, made an 89 kB message.
        held = listed([shown_token(name) for name in every[: _NAMED + 1]], _NAMED, len(every))
        msg = (
            f"{path}:{table.line_of(-1)}: expected joint {shown_token(absent[0])} in column "
            f"`name`, got joints {held}{did_you_mean(absent[0], every)}"
        )
        raise FormatError(msg)
    chosen = wanted or every
    # A joint asked for twice is one column of the pivot, repeated after it (as a wide
    # log's channel named twice): scattered twice, the first copy stayed empty.
    distinct = tuple(dict.fromkeys(chosen))
    column = np.full(len(every), -1)
    column[[index[name] for name in distinct]] = np.arange(len(distinct))
    # The times are those of the chosen joints' rows: an arm's joints beside a gripper
    # stamped apart (two publishers on one topic) are not missing at the gripper's times.
    rows = np.flatnonzero(column[joint] >= 0)
    sample = _time_index(order[rows])
    times = int(sample[-1]) + 1
    if times * len(distinct) > 16 * rows.size + 1024:
        # A file of a million names at a million times is a 10^12-cell array: refused
        # before it is made, as no joint state at all.
        msg = (
            f"{path}: expected the joints' rows at shared times (one JointState's), got "
            f"{len(distinct)} joints at {times} times in {rows.size} rows"
        )
        raise FormatError(msg)
    first = rows[np.r_[True, sample[1:] != sample[:-1]]]  # each time's first row
    stamps = t[first]
    pivoted = np.full((times, len(distinct)), np.nan)
    pivoted[sample, column[joint[rows]]] = values[rows]
    if not dropouts:
        hole = np.isnan(pivoted)
        if hole.any():
            at, c = divmod(int(np.flatnonzero(hole)[0]), len(distinct))
            row = int(rows[np.searchsorted(sample, at)])  # the time's first row
            msg = (
                f"{path}:{table.line_of(row)}: expected a row of each joint at each time, "
                f"got none of {shown_token(distinct[c])} at t = {value_said(order, row)} s"
            )
            raise FormatError(msg)
    if len(distinct) < len(chosen):
        place = {name: i for i, name in enumerate(distinct)}
        pivoted = pivoted[:, [place[name] for name in chosen]]
    notes = []
    if len(fields) > 1:
        notes.append(
            f"{path}: one row per joint per time: channels by `name`, values of `{field}` "
            f"({', '.join(f'`{f}`' for f in fields[1:])} not read)"
        )
    return SignalLog(
        path=path,
        time_column=time_column,
        stamps_s=stamps,
        channels=chosen,
        values=pivoted,
        notes=tuple(notes),
        stamps_ns=None if table.time_ns is None else table.time_ns[first],
    )


def _time_index(t: Float64Array | Int64Array) -> Int64Array:
    """Return, for each row of ``t`` (shape ``(R,)``, non-decreasing), its distinct time's index.

    ``t``: seconds (float64), or nanoseconds (int64).
    """
    new = np.ones(t.size, dtype=np.int64)
    new[1:] = t[1:] != t[:-1]
    return np.cumsum(new) - 1


def _text_cell(column: AnyArray) -> tuple[int, str] | None:
    """Return the row and the cell that make ``column`` text: its first non-empty one, if no number.

    ``column`` is a column of :func:`read_csv_table` with ``others="text"``, shape
    ``(rows,)``: float64 (every cell of the file a number) or text (StringDType). None: a column of
    numbers (or of empty cells), whose every cell is then checked as a channel's.
    """
    if column.dtype != TEXT:
        return None
    filled = np.flatnonzero(column != "")
    if filled.size == 0:
        return None
    row = int(filled[0])
    cell = str(column[row])
    try:
        float(cell)
    except ValueError:
        return row, cell
    return None


def read_resources(path: Path, *, drop_cut_line: bool = False) -> ResourceLog:
    r"""Read ``resources.csv``: ``time_s,cpu_percent,rss_bytes`` and optional columns.

    Optional: ``threads``, ``gpu_mem_bytes``, ``gpu_percent`` (empty cells are NaN).
    ``drop_cut_line``: as :func:`read_csv_table`.

    Raises
    ------
    FormatError
        Bad layout or cells, times not strictly increasing or spanning more than float64
        holds, negative or infinite values,
        a count of threads that is not a whole number below 2**63.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "resources.csv"
    >>> _ = path.write_text("time_s,cpu_percent,rss_bytes\n0,50,1e8\n1,150,2e8\n")
    >>> read_resources(path).rss_bytes.tolist()
    [100000000.0, 200000000.0]
    """
    optional = ("threads", "gpu_mem_bytes", "gpu_percent")
    table = read_csv_table(
        path,
        required=("time_s", "cpu_percent", "rss_bytes"),
        optional=optional,
        drop_cut_line=drop_cut_line,
        nothing=("time_s", "cpu_percent", "rss_bytes"),  # a sampler that took none
    )
    time_s = table.floats("time_s")
    table.refuse_backward("time_s", time_s, "a time after {}")
    # the run's duration is last - first (resources_from_log): -1e308 to 1e308 overflowed
    # there, NumPy's RuntimeWarning from report (a bug exit under -W error; a review)
    if time_s.size > 1 and not math.isfinite(float(time_s[-1]) - float(time_s[0])):
        expected = f"a time within float64's range of the first sample's {float(time_s[0])!r}"
        raise table.fail(time_s.size - 1, "time_s", expected, float(time_s[-1]))
    out: dict[str, Float64Array] = {}
    for name in ("cpu_percent", "rss_bytes", *optional):
        values = table.floats(name) if name in table.columns else np.full_like(time_s, np.nan)
        table.refuse(values < 0, name, "a value >= 0", values)
        # an inf GPU sample was left out of the peak, unsaid
        table.refuse(np.isposinf(values), name, "a finite value", values)
        if name == "threads":  # 1.5 threads was taken, and the peak said as int(): 1
            whole = np.isnan(values) | (np.isfinite(values) & (values == np.round(values)))
            table.refuse(~whole, name, "a whole number of threads", values)
            # 1e19 threads ended the run as "Expected int (int64...) - at
            # `Resources.peak_threads`", naming no file or line (a hunt).
            table.refuse(values >= 2.0**63, name, "a count of threads below 2**63", values)
        out[name] = values
    return ResourceLog(path=path, time_s=time_s, **out, empty=table.line_count == 0)
