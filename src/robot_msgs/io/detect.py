"""One entry point per direction for every format: read (with detection) and write.

:func:`read_trajectory` reads and :func:`write_trajectory` writes any format.

The format is taken from ``format`` when given, else from what the path shows, and
:func:`explain_format` says what that was (``tum (8 space-separated columns, header
names qx first)``):

- a folder holding ``metadata.yaml`` (or ``.db3``/``.mcap`` files) is a ROS 2 bag; any
  other folder is refused as a folder;
- ``.bag``, ``.db3`` and ``.mcap`` files by their magic bytes (whatever the extension),
  else by extension;
- text files by the evidence of their first lines (:mod:`robot_msgs.io.sniff`), in this
  order:

  1. a header that names the quaternion columns decides: ``x, y, z, w`` in columns 5-8
     is TUM (which has exactly 8 columns), ``w, x, y, z`` is EuRoC;
  2. 12 columns is KITTI, unless the first value is integer nanoseconds (beyond a
     rotation entry, |v| > 1.5): then it is EuRoC (the KITTI reader refuses a 3x3 block
     that is no rotation, naming its determinant);
  3. more than 8 columns with integer nanosecond stamps, or with unit quaternions in
     columns 5-8, is EuRoC (TUM has exactly 8; EuRoC has velocities and biases);
     without either, the count is refused (11 arbitrary numbers are no EuRoC file);
  4. 8 columns separated by blanks is TUM, whatever the stamps' unit (integer
     nanoseconds are recognised by magnitude and read as such, with a warning);
  5. 8 comma-separated columns without such a header is TUM when the stamps are
     seconds; with integer nanosecond stamps it could be either (EuRoC is w-first, TUM
     w-last, and nothing in the numbers tells), so it is refused, naming both and the
     ``--format`` flag.

  Fewer than 8 columns, or no numbers, is refused with what was seen.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.errors import (
    FormatError,
    TopicError,
    caller_stacklevel,
)
from robot_msgs.files import STDOUT
from robot_msgs.io.bounded import kept_streams
from robot_msgs.io.clean import check_repeated_stamps
from robot_msgs.io.euroc import euroc_stamps_ns, read_euroc, write_euroc
from robot_msgs.io.examples import resolve_path
from robot_msgs.io.formats import (
    BAG_FORMATS,
    FORMATS,
    READ_SUFFIXES,
    WRITE_FORMATS,
    WRITE_SUFFIXES,
)
from robot_msgs.io.kitti import check_pair_target, default_times_path, read_kitti, write_kitti
from robot_msgs.io.lla import read_lla, read_lla_rows
from robot_msgs.io.sniff import (
    SNIFF_BYTES,
    check_header,
    integer_stamp_unit,
    nanosecond_evidence,
    read_head,
)
from robot_msgs.io.table import read_bytes
from robot_msgs.io.tum import read_tum, write_tum

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    import numpy.typing as npt

    from robot_msgs.io.bag_messages import TrajectoryLayout
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.kitti import KittiRotations
    from robot_msgs.io.sniff import TextHead
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = [
    "FormatDetection",
    "check_trajectory_to_write",
    "detect_format",
    "explain_format",
    "geo_origin_of",
    "is_bag_head",
    "only_pose_topic",
    "pose_topics",
    "read_trajectory",
    "trajectory_outputs",
    "write_trajectory",
]


_MAGIC = {b"#ROSBAG V2.0": "bag", b"SQLite format 3\x00": "bag2", b"\x89MCAP": "mcap"}
_ROTATION_ENTRY = 1.5
_NS = ", integer nanosecond stamps"


def is_bag_head(head: bytes) -> bool:
    r"""Whether ``head``, a file's first bytes, are a bag's: ROS 1, SQLite or MCAP magic.

    Examples
    --------
    >>> is_bag_head(b"\x89MCAP0\r\n"), is_bag_head(b"time,x\n")
    (True, False)
    """
    return head.startswith(tuple(_MAGIC))


def _integer_units(stamps: Float64Array) -> str:
    """Say the unit a TUM reader takes integer stamps in (it said nanoseconds of all)."""
    return f", integer {integer_stamp_unit(stamps)[0][:-1]} stamps"


_UNIT = ", unit quaternions in columns 5-8"
#: How far from 1 a quaternion's norm may be to count as evidence of EuRoC's layout.
_UNIT_TOLERANCE = 0.05
_CHOOSE = "choose the format (`format=` tum, kitti or euroc)"


@dataclass(frozen=True, slots=True, kw_only=True)
class FormatDetection:
    """The format of a file and why: what was seen that decided it.

    Attributes
    ----------
    fmt : str
        One of :data:`FORMATS`.
    reason : str
        The evidence, short: ``8 space-separated columns, header names qx first``.

    Examples
    --------
    >>> str(FormatDetection(fmt="kitti", reason="12 space-separated columns"))
    'kitti (12 space-separated columns)'
    """

    fmt: str
    reason: str

    def __str__(self) -> str:
        return f"{self.fmt} ({self.reason})"


def detect_format(path: str | os.PathLike[str]) -> str:
    """Detect the format of ``path``, one of :data:`FORMATS`: :func:`explain_format`'s ``fmt``.

    Raises
    ------
    FormatError
        The content fits no format, or fits two, or a pipe is named as a bag; the message
        says what was seen.
    FileNotFoundError, IsADirectoryError
        ``path`` does not exist, or is a folder that is no ROS 2 bag.

    Examples
    --------
    >>> detect_format("example:fr1_xyz/groundtruth.tum")
    'tum'
    """
    return explain_format(path).fmt


@kept_streams()
def explain_format(path: str | os.PathLike[str]) -> FormatDetection:
    """Detect the format of ``path`` and give the evidence for it (see the module for the rules).

    Raises
    ------
    FormatError
        The content fits no format, or fits two (the candidates and ``--format`` named);
        or ``path`` is named as a bag (``.bag``, ``.db3``, ``.mcap``) and is a pipe or a
        device, refused before any read.
    FileNotFoundError, IsADirectoryError
        ``path`` does not exist, or is a folder that is no ROS 2 bag.

    Examples
    --------
    >>> print(explain_format("example:fr1_xyz/groundtruth.tum"))
    tum (8 space-separated columns, header names qx first)
    """
    source = str(path)
    file = resolve_path(path)
    if file.is_dir():
        if (file / "metadata.yaml").is_file():
            return FormatDetection(fmt="bag2", reason="a ROS 2 bag folder, metadata.yaml")
        storage = sorted(p.suffix for p in file.iterdir() if p.suffix in (".db3", ".mcap"))
        if storage:
            return FormatDetection(fmt="bag2", reason=f"a folder of {storage[0]} bag files")
        read_bytes(file, source=source)  # raises: a folder, not a trajectory file
    suffix = file.suffix.lower()
    if READ_SUFFIXES.get(suffix) in BAG_FORMATS:
        # Named as a bag, which is never read from a pipe: refused now, as with --format,
        # not after reading its magic bytes waited FIFO_WAIT_S for a writer.
        from robot_msgs.io.bag import refuse_stream  # noqa: PLC0415 - bags only when read

        refuse_stream(file, source)
    head = read_bytes(file, source=source, limit=64)
    for magic, fmt in _MAGIC.items():
        if head.startswith(magic):
            return FormatDetection(fmt=fmt, reason=f"magic bytes {magic.decode('latin-1')!r}")
    if suffix in READ_SUFFIXES:
        return FormatDetection(fmt=READ_SUFFIXES[suffix], reason=f"extension {suffix}")
    return _text_format(read_head(file, source=source))


def _unit_quaternions(quaternions: npt.NDArray[np.float64]) -> bool:
    """Return whether every row of ``quaternions`` (shape (N, 4)) has a norm near 1."""
    norms = np.linalg.norm(quaternions, axis=1)
    return bool(norms.size) and bool(np.all(np.abs(norms - 1.0) <= _UNIT_TOLERANCE))


def _text_format(head: TextHead) -> FormatDetection:
    """Detect the text format the first lines show, by the rules of the module docstring."""
    source, n, layout = head.source, head.columns, head.layout
    check_header(head)
    if n == 0 and head.cut:  # "no numeric data line found" was said of a file of them
        msg = (
            f"{source}: cannot tell the format: no data line in its first {SNIFF_BYTES} "
            f"bytes (comments, or a line longer than that); {_CHOOSE}"
        )
        raise FormatError(msg)
    if n == 0:  # no format reads rows that are not there: choosing one only led to "no data rows"
        what = "only comments and a header" if head.header is not None else "only comments"
        msg = f"{source}: no data rows (the file is empty or holds {what})"
        raise FormatError(msg)
    if head.bad:
        msg = f"{source}: cannot tell the format: {head.bad}; {_CHOOSE}"
        raise FormatError(msg)
    header = head.header
    quaternion = header.quaternion if header is not None else None
    # WHY the header's stamp column: cnspy's ``t`` may be any column (read by name), and
    # its positions were judged as stamps ("integer nanosecond stamps" said of tx).
    stamps = head.numbers[:, header.columns[0] if header and header.columns else 0]
    # A header stating seconds (``t[s]``, what write_tum writes) is taken at its word.
    ns = None if header is not None and header.stamp_unit == "s" else nanosecond_evidence(stamps)
    if quaternion == "wxyz" and header is not None:
        return FormatDetection(fmt="euroc", reason=f"{layout}, {header.evidence}")
    if quaternion == "xyzw" and header is not None:
        if n != 8 and header.columns is None:
            msg = (
                f"{source}: cannot tell the format: line {header.line}'s header names qx "
                f"first (TUM's order) but the rows have {n} columns (TUM has 8); {_CHOOSE}"
            )
            raise FormatError(msg)
        reason = f"{layout}, {header.evidence}" + (_integer_units(stamps) if ns else "")
        return FormatDetection(fmt="tum", reason=reason)
    if n == 12 and (ns is None or abs(float(head.numbers[0, 0])) <= _ROTATION_ENTRY):
        # KITTI's layout; the reader says when the 3x3 block is no rotation (det = ...).
        return FormatDetection(fmt="kitti", reason=layout)
    if n > 8 and ns is not None:
        return FormatDetection(fmt="euroc", reason=f"{layout}, more than TUM's 8{_NS}")
    euroc_shaped = head.separator == "comma" or n == _EUROC_GROUND_TRUTH_COLUMNS
    if n > 8 and euroc_shaped and _unit_quaternions(head.numbers[:, 4:8]):
        # Stamps in seconds: EuRoC's columns 5-8 (qw qx qy qz) must hold unit quaternions,
        # so 11 arbitrary numbers are refused by their count, not read as a bad EuRoC file.
        # Comma-separated, or EuRoC's 17 ground-truth columns: a TUM row with a ninth
        # column has unit quaternions in columns 5-8 too (qx qy qz qw) and was read as
        # EuRoC, its rotation scrambled (a review); it is refused below as neither.
        return FormatDetection(fmt="euroc", reason=f"{layout}, more than TUM's 8{_UNIT}")
    if n == 8 and head.separator != "comma":
        return FormatDetection(fmt="tum", reason=layout + (_integer_units(stamps) if ns else ""))
    if n == 8 and ns is None:
        return FormatDetection(fmt="tum", reason=f"{layout}, stamps in seconds")
    if n == 8:
        msg = (
            f"{source}: cannot tell the format: {layout} with integer nanosecond stamps and "
            "no header naming the columns could be EuRoC (qw first) or TUM (qw last); "
            "choose the format (`format='euroc'` or `format='tum'`)"
        )
        raise FormatError(msg)
    lla = " (or `format='lla'` for t lat lon alt)" if n == 4 else ""
    # KITTI's times file given as a pose file (`ape 00.txt 00_times.txt`): said so, by
    # this reader's own argument (the fields of a run, `reference_times=`, are no
    # argument here, and traj answered them --ref-times, a flag it lacks).
    times = (
        "; one number a line is a KITTI times file: give it with its pose file (`times_path=`)"
        if n == 1
        else ""
    )
    msg = (
        f"{source}: cannot tell the format: line {head.first_line} has {n} "
        f"number{'' if n == 1 else 's'} (TUM has 8, KITTI 12, EuRoC 8 or more with "
        f"nanosecond stamps); {_CHOOSE}{lla}{times}"
    )
    raise FormatError(msg)


#: EuRoC's ground truth: stamp, position, quaternion, velocity, gyro and accelerometer biases.
_EUROC_GROUND_TRUTH_COLUMNS = 17


def _format_given(format: str | None, fmt: str | None) -> str | None:  # noqa: A002
    """Return ``format``, or ``fmt``, its deprecated old name, with a warning.

    For the readers decorated by :func:`kept_streams`: the warning names their caller's line.

    Raises
    ------
    TypeError
        Both are given.
    """
    if fmt is None:
        return format
    if format is not None:
        msg = "give the format once, as `format=` (`fmt=` is its deprecated old name)"
        raise TypeError(msg)
    import warnings  # noqa: PLC0415 - only for this note

    # 1 this function, 2 the reader, 3 kept_streams' wrapper, 4 the reader's caller.
    note = "`fmt=` is deprecated: give the format as `format=`"
    warnings.warn(note, DeprecationWarning, stacklevel=caller_stacklevel())
    return fmt


@kept_streams()  # a pipe is read once: the detection and the reader share its bytes
def read_trajectory(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,  # noqa: A002 - the word users know
    topic: str | None = None,
    times_path: str | os.PathLike[str] | None = None,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    kitti_rotations: KittiRotations = "nearest",
    fmt: str | None = None,
) -> PoseTrajectory:
    """Read a trajectory from any supported file, bag or shipped example.

    Parameters
    ----------
    path : path-like
        A file or bag folder, or ``example:NAME`` for a shipped example.
    format : {"tum", "kitti", "euroc", "lla", "bag", "bag2", "mcap"}, optional
        The format; detected by :func:`explain_format` when omitted (``lla``, latitude,
        longitude and altitude, by its ``.lla`` extension: :mod:`robot_msgs.io.lla`).
    topic : str, optional
        For bags: the topic, or a TF id ``/tf:parent.child``. May be omitted when the
        bag holds exactly one topic of a pose type.
    times_path : path-like, optional
        For KITTI: the times file (one time a line). Without it KITTI stamps are the
        frame indices 0.0, 1.0, 2.0, ...
    strict : bool
        Refuse data problems (NaN rows, unsorted or repeated stamps, non-unit
        quaternions) instead of fixing them with a :class:`~robot_msgs.errors.DataWarning`.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).
    geo_origin : (lat, lon, alt), optional
        For ``lla`` files and ``NavSatFix`` topics: the local ENU origin (degrees,
        metres); default their first fix (:func:`geo_origin_of`).
    crs : str, optional
        For ``lla`` files and ``NavSatFix`` topics: a projected CRS (``"EPSG:32632"``)
        instead of ENU; needs the ``geo`` extra.
    kitti_rotations : {"nearest", "as_given"}
        For KITTI: use each 3x3 block's nearest rotation, or keep the blocks as given
        for the errors, as evo does (:func:`~robot_msgs.io.read_kitti`'s
        ``rotations``). Other formats hold quaternions and ignore it.
    fmt : str, optional
        Deprecated: the old name of ``format`` (a :class:`DeprecationWarning`).

    Returns
    -------
    PoseTrajectory
        Stamps in seconds, positions in metres, unit quaternions ``x, y, z, w``.

    Raises
    ------
    FormatError
        Unknown ``format``; an option the format does not use (``topic`` for a text file,
        ``times_path`` for anything but KITTI, ``geo_origin``/``crs`` for poses);
        malformed content (file, line, column, text); a data problem refused.
    FileNotFoundError
        No such file, or no such example.
    TypeError
        Both ``format`` and ``fmt``.

    Examples
    --------
    >>> traj = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    >>> len(traj), round(traj.duration_s, 3)
    (788, 26.563)
    """
    fmt = _format_given(format, fmt)
    check_repeated_stamps(repeated_stamps)  # before a large file is read
    if fmt is None:
        fmt = detect_format(path)
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}"
        raise FormatError(msg)
    with _format_contradicted(path, fmt):
        return _read_as(
            path,
            fmt,
            topic=topic,
            times_path=times_path,
            strict=strict,
            repeated_stamps=repeated_stamps,
            geo_origin=geo_origin,
            crs=crs,
            kitti_rotations=kitti_rotations,
        )


@contextmanager
def _format_contradicted(path: str | os.PathLike[str], fmt: str) -> Iterator[None]:
    """Add the format the file's content shows to a reader's error, when it is not ``fmt``.

    WHY: a KITTI file read with ``--format tum`` was told "expected 8 columns (t x y z qx
    qy qz qw), got 12" and no more; detection names what the file is. The error is kept
    as it is when the content shows ``fmt`` too (a bad line: a detected format always
    does), or no format, or when it is not of the content (a topic) or already names a
    format to choose; and for a bag format (a bag folder without metadata.yaml reads as
    bag2 to detection, which refuses it alike).
    """
    try:
        yield
    except FormatError as err:
        if type(err) is not FormatError or "`format=" in str(err) or fmt in BAG_FORMATS:
            raise
        try:
            detected: FormatDetection | None = explain_format(path)
        except (FormatError, OSError):
            detected = None
        if detected is None or detected.fmt == fmt:
            raise
        msg = (
            f"{err}; it reads as {detected}: choose `format='{detected.fmt}'` or leave the "
            "format to detection"
        )
        raise FormatError(msg) from err


def _read_as(
    path: str | os.PathLike[str],
    fmt: str,
    *,
    topic: str | None,
    times_path: str | os.PathLike[str] | None,
    strict: bool,
    repeated_stamps: RepeatedStamps,
    geo_origin: tuple[float, float, float] | None,
    crs: str | None,
    kitti_rotations: KittiRotations,
) -> PoseTrajectory:
    """Read ``path`` as ``fmt`` (one of :data:`FORMATS`): :func:`read_trajectory`'s body."""
    file = resolve_path(path)
    if times_path is not None and fmt != "kitti":
        msg = f"{path}: a times file is only used with KITTI files, not {fmt}"
        raise FormatError(msg)
    if fmt in BAG_FORMATS:  # as given: errors name example:NAME (open_bag resolves it)
        if topic is None:
            topic = only_pose_topic(path)
        from robot_msgs.io.bag import read_bag  # noqa: PLC0415 - bags only when read

        return read_bag(
            path,
            topic,
            strict=strict,
            repeated_stamps=repeated_stamps,
            geo_origin=geo_origin,
            crs=crs,
        )
    if topic is not None:
        msg = f"{path}: a topic is only used with bags, not {fmt} files"
        raise FormatError(msg)
    if not file.is_file():
        read_bytes(file, source=str(path))  # raises: a folder, or no such file
    # The text readers are given ``path`` as given, so that they name ``example:NAME``
    # in errors and warnings, not the installed file (read_table resolves it).
    if fmt == "lla":
        return read_lla(
            path, origin=geo_origin, crs=crs, strict=strict, repeated_stamps=repeated_stamps
        )
    if geo_origin is not None or crs is not None:
        msg = (
            f"{path}: an ENU origin or a CRS (`geo_origin=`, `crs=`) applies to NavSatFix "
            f"topics and lla files, not {fmt} poses"
        )
        raise FormatError(msg)
    if fmt == "kitti":
        return read_kitti(
            path,
            times_path=times_path,
            strict=strict,
            repeated_stamps=repeated_stamps,
            rotations=kitti_rotations,
        )
    if fmt == "euroc":
        return read_euroc(path, strict=strict, repeated_stamps=repeated_stamps)
    return read_tum(path, strict=strict, repeated_stamps=repeated_stamps)


@kept_streams()
def geo_origin_of(
    path: str | os.PathLike[str],
    *,
    format: str | None = None,  # noqa: A002 - the word users know
    topic: str | None = None,
    fmt: str | None = None,
) -> tuple[float, float, float] | None:
    """Return the first fix ``(lat, lon, alt)`` of a georeferenced input (poses: ``None``).

    Georeferenced inputs are ``lla`` files and ``NavSatFix`` topics of bags. The command
    line reads both trajectories with the reference's first fix as the ENU origin, so
    they share one frame.

    Parameters
    ----------
    path : path-like
        A file or bag folder, or ``example:NAME``.
    format : str, optional
        As :func:`read_trajectory`'s; detected when omitted.
    topic : str, optional
        For bags: the topic; the bag's one pose topic when omitted.
    fmt : str, optional
        Deprecated: the old name of ``format`` (a :class:`DeprecationWarning`).

    Raises
    ------
    TypeError
        Both ``format`` and ``fmt``.

    Examples
    --------
    >>> geo_origin_of("example:fr1_xyz/groundtruth.tum") is None
    True
    """
    fmt = _format_given(format, fmt)
    fmt = detect_format(path) if fmt is None else fmt  # named as given, as the readers
    if fmt == "lla":
        with _format_contradicted(path, fmt):  # read first: REF's fix is both sides' origin
            lla = read_lla_rows(path).parts[1]  # named as given (read_table resolves it)
        finite = lla[np.isfinite(lla).all(axis=1)]
        return tuple(float(v) for v in finite[0]) if finite.size else None  # type: ignore[return-value]
    if fmt in BAG_FORMATS:
        from robot_msgs.io.bag import first_fix  # noqa: PLC0415 - bags only when read

        return first_fix(path, topic if topic is not None else only_pose_topic(path))
    return None


def pose_topics(file: str | os.PathLike[str]) -> list[str]:
    """Return the topics of a bag that hold poses (of :data:`~robot_msgs.io.POSE_TYPES`).

    A bag read without a topic is read from its one pose topic; with none or several,
    the topic must be chosen. A ROS 1 pose topic whose index is damaged is refused, as
    its count (0 where its index lost its messages) cannot choose
    (:func:`~robot_msgs.io.bag.topics_of_types`).
    """
    from robot_msgs.io.bag import POSE_TYPES, topics_of_types  # noqa: PLC0415 - bags only

    return topics_of_types(file, POSE_TYPES)


def only_pose_topic(file: str | os.PathLike[str]) -> str:
    """Return a bag's one pose topic (:func:`pose_topics`), or refuse naming them all.

    Raises
    ------
    TopicError
        None or several: the message lists them (none: the TF transforms there are).
    """
    topics = pose_topics(file)
    if len(topics) == 1:
        return topics[0]
    names = ", ".join(topics) or "none"
    tf = "TF as /tf:parent.child"
    if not topics:  # a bag of TF only: say the transforms there are
        from robot_msgs.io.bag import tf_chains  # noqa: PLC0415 - bags only
        from robot_msgs.io.tf import transforms_text  # noqa: PLC0415

        topic, pairs = tf_chains(file)
        tf = f"TF as {topic}:parent.child, {transforms_text(pairs)}" if topic else tf
    msg = f"{file}: choose a topic with `topic=` (pose topics: {names}; {tf})"
    raise TopicError(msg, path=str(file))


def trajectory_outputs(
    path: str | os.PathLike[str],
    format: str | None = None,  # noqa: A002 - the word users know
) -> tuple[str, list[Path]]:
    """Return the format :func:`write_trajectory` writes ``path`` in, and every file it makes.

    The format is ``format``, else the suffix says it (:data:`WRITE_SUFFIXES`); KITTI
    writes the poses and a times file beside them. Call it to check outputs before any
    work.

    Raises
    ------
    FormatError
        A format given that is not written; no format given and none said by the
        suffix; a bag format with another suffix.
    OutputPathError
        KITTI to standard output, a device or a FIFO (two files:
        :func:`~robot_msgs.io.kitti.check_pair_target`).

    Examples
    --------
    >>> trajectory_outputs("a/est.kitti")
    ('kitti', [PosixPath('a/est.kitti'), PosixPath('a/est_times.txt')])
    """
    out = Path(path)
    if format is not None and format not in WRITE_FORMATS:  # as read_trajectory says it
        read_only = f" ({format} is read, not written)" if format in FORMATS else ""
        msg = (
            f"{path}: unknown format {format!r} to write; expected one of "
            f"{', '.join(WRITE_FORMATS)}{read_only}"
        )
        raise FormatError(msg)
    fmt = format or WRITE_SUFFIXES.get(out.suffix.lower())
    if fmt is None and os.fspath(path) == STDOUT:  # no name, no suffix (evo writes no stdout)
        text = [f for f in WRITE_FORMATS if f not in ("kitti", "mcap", "db3")]  # one file, text
        msg = (
            f"{path}: standard output has no name to tell the trajectory format from; give "
            f"the format (`format=` {' or '.join(text)})"
        )
        raise FormatError(msg)
    if fmt is None and out.suffix.lower() == ".bag":  # evo's --save_as_bag: said apart
        msg = (
            f"{path}: a ROS 1 bag (.bag) is read, not written; write a ROS 2 bag "
            "(name it .mcap or .db3) or text (.tum, .kitti, .csv)"
        )
        raise FormatError(msg)
    if fmt not in WRITE_FORMATS:
        msg = (
            f"{path}: cannot tell the trajectory format from {out.suffix!r}; name it "
            f"{', '.join(WRITE_SUFFIXES)} or give the format (`format=` "
            f"{', '.join(WRITE_FORMATS)})"
        )
        raise FormatError(msg)
    if fmt in ("mcap", "db3") and out.suffix.lower() != f".{fmt}":
        msg = f"{path}: a {fmt} bag is written as a .{fmt} file; name it *.{fmt}"
        raise FormatError(msg)
    said = WRITE_SUFFIXES.get(out.suffix.lower())
    if said in ("mcap", "db3") and fmt != said:  # TUM text in x.mcap, then unreadable
        msg = f"{path}: the name says a {said} bag, the format {fmt}; name it for {fmt}"
        raise FormatError(msg)
    if fmt != "kitti":
        return fmt, [out]
    check_pair_target(path)
    return fmt, [out, default_times_path(out)]


def check_trajectory_to_write(
    path: str | os.PathLike[str],
    trajectory: PoseTrajectory,
    format: str | None = None,  # noqa: A002
    *,
    layout: TrajectoryLayout = "poses",
) -> None:
    """Refuse the stamps :func:`write_trajectory` would refuse to write to ``path``; write nothing.

    A format of integer nanoseconds (EuRoC, ``.mcap``, ``.db3``) cannot hold two rows at
    one stamp (a trajectory read with ``repeated_stamps="all"``), a bag no stamp past
    int32 seconds; TUM and KITTI hold them all. WHY: ``ape --repeated-stamps all --save
    r.json --save-aligned b.mcap`` wrote ``r.json``, then refused ``b.mcap``: half the
    outputs asked for. A caller writing several files checks them all first.

    Raises
    ------
    ValidationError
        As the writer of the format raises it, naming ``path``.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> from robot_msgs.errors import ValidationError
    >>> traj = PoseTrajectory(stamps_s=[1.0, 1.0], positions_xyz=[[0.0, 0, 0], [1.0, 0, 0]],
    ...     orientations_quat_xyzw=[[0.0, 0, 0, 1]] * 2, stamps_repeat=True)
    >>> check_trajectory_to_write("b.tum", traj)
    >>> try:
    ...     check_trajectory_to_write("b.mcap", traj)
    ... except ValidationError as err:
    ...     print(str(err)[:68])
    b.mcap: stamps 1.0 and 1.0 s (poses 0 and 1) are the same integer na
    """
    fmt, _ = trajectory_outputs(path, format)
    if fmt == "euroc":
        euroc_stamps_ns(path, trajectory)
    elif fmt in ("mcap", "db3"):
        from robot_msgs.io.bag_messages import bag_stamps_ns  # noqa: PLC0415 - bags only

        bag_stamps_ns(path, trajectory, layout=layout)


def write_trajectory(
    path: str | os.PathLike[str],
    trajectory: PoseTrajectory,
    format: str | None = None,  # noqa: A002 - the word users know
    *,
    force: bool = False,
    topic: str = "/trajectory",
    layout: TrajectoryLayout = "poses",
    qos: Sequence[Any] | None = None,
) -> list[Path]:
    """Write ``trajectory`` in any format :func:`read_trajectory` reads back; return the files.

    The format is ``format``, else the suffix's (:func:`trajectory_outputs`): TUM, KITTI
    (with its times file), EuRoC, or a ROS 2 bag (``.mcap``/``.db3``, on ``topic``, its
    messages as ``layout`` says, with the QoS profiles ``qos``:
    :func:`~robot_msgs.io.bag_messages.write_trajectory_bag`).
    A trajectory without poses is refused (``ValidationError``), as every reader refuses
    a file without them. Every file is written atomically; none is replaced without
    ``force``; a missing folder is made, as every writer of the library makes it
    (``write_atomic``), where every output of the command line refuses one (a typo's
    folder is said).

    What a format cannot hold is lost, and said by a :class:`~robot_msgs.errors.DataWarning`
    where that changes the rows read back: stamps that are frame indices
    (``stamps_are_frames``) written as seconds, rotation blocks kept as given
    (``rotation_matrices``) written as their nearest rotations (KITTI keeps both), a child
    frame and covariances in a ``"poses"`` or ``"path"`` bag. The rest is lost without a
    word, as no file of the format could carry it:

    - TUM, EuRoC: ``frame_id``, ``child_frame_id``, ``covariance_6x6``, ``stamps_ns``,
      ``orientations_from_matrices``; EuRoC's stamps are nanoseconds
      (:func:`~robot_msgs.io.euroc.write_euroc`: one float64 step or the nanosecond).
    - KITTI: the same, and the orientations pass through their 3x3 matrices (to about
      ``1e-16``); read back, ``orientations_from_matrices`` is true.
    - bags: ``rotation_matrices``, ``stamps_are_frames`` and ``orientations_from_matrices``;
      the stamps are nanoseconds (``stamps_ns``, exact where the trajectory keeps them:
      :meth:`~robot_msgs.trajectory.PoseTrajectory.to_path`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "est.csv"
    >>> traj = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    >>> [p.name for p in write_trajectory(out, traj)], len(read_trajectory(out))
    (['est.csv'], 788)
    """
    fmt, _ = trajectory_outputs(path, format)
    if fmt in ("mcap", "db3"):
        from robot_msgs.io.bag_messages import write_trajectory_bag  # noqa: PLC0415 - bags only

        return [
            write_trajectory_bag(path, trajectory, topic=topic, layout=layout, force=force, qos=qos)
        ]
    if fmt == "kitti":
        poses, times = write_kitti(path, trajectory, force=force)
        return [poses] + ([times] if times is not None else [])
    writer = write_euroc if fmt == "euroc" else write_tum
    return [writer(path, trajectory, force=force)]
