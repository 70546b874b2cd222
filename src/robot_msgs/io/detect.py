"""One entry point for every format: :func:`read_trajectory`, with format detection.

The format is taken from ``fmt`` when given, else from the path: a folder is a ROS 2
bag; ``.bag``, ``.db3`` and ``.mcap`` by extension (and by their magic bytes whatever the
extension); text files by their first data line: 12 numbers is KITTI, 8 or more numbers
with an integer nanosecond stamp (above 1e12) or a non-numeric header line is EuRoC,
8 numbers is TUM.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from robot_msgs.errors import FormatError
from robot_msgs.io.bag import POSE_TYPES, list_topics, read_bag
from robot_msgs.io.euroc import read_euroc
from robot_msgs.io.examples import resolve_path
from robot_msgs.io.kitti import read_kitti
from robot_msgs.io.tum import read_tum

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["BAG_FORMATS", "FORMATS", "detect_format", "read_trajectory"]

#: Format names ``fmt`` accepts.
FORMATS = ("tum", "kitti", "euroc", "bag", "bag2", "mcap")
#: The formats read with ``rosbags`` (they need ``topic``).
BAG_FORMATS = ("bag", "bag2", "mcap")

_MAGIC = {b"#ROSBAG V2.0": "bag", b"SQLite format 3\x00": "bag2", b"\x89MCAP": "mcap"}
_SUFFIX = {".bag": "bag", ".db3": "bag2", ".mcap": "mcap"}
_SNIFF_BYTES = 1 << 16
_NS_STAMP = re.compile(r"\d{13,}")


def detect_format(path: str | os.PathLike[str]) -> str:
    """The format of ``path``, one of :data:`FORMATS`, from its kind, extension or content.

    Raises
    ------
    FormatError
        The content fits no format; the message says what was seen.
    FileNotFoundError
        ``path`` does not exist.

    Examples
    --------
    >>> detect_format("example:fr1_xyz/groundtruth.tum")
    'tum'
    """
    file = resolve_path(path)
    if file.is_dir():
        return "bag2"
    with file.open("rb") as handle:
        head = handle.read(_SNIFF_BYTES)
    for magic, fmt in _MAGIC.items():
        if head.startswith(magic):
            return fmt
    if file.suffix.lower() in _SUFFIX:
        return _SUFFIX[file.suffix.lower()]
    text = head.decode("utf-8-sig", errors="replace")
    header = False
    for line in text.splitlines():
        fields = line.split("#", 1)[0].replace(",", " ").replace("\t", " ").split()
        if not fields:
            continue
        try:
            [float(f) for f in fields]
        except ValueError:
            if header:
                break
            header = True
            continue
        if len(fields) == 12:
            return "kitti"
        if len(fields) >= 8 and (header or _NS_STAMP.fullmatch(fields[0])):
            return "euroc"
        if len(fields) == 8:
            return "tum"
        msg = (
            f"{path}: cannot tell the format: the first data line has {len(fields)} numbers "
            "(TUM has 8, KITTI 12, EuRoC 8 or more with a nanosecond stamp); pass fmt="
        )
        raise FormatError(msg)
    msg = f"{path}: cannot tell the format: no numeric data line found; pass fmt="
    raise FormatError(msg)


def read_trajectory(
    path: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    topic: str | None = None,
    times_path: str | os.PathLike[str] | None = None,
    strict: bool = False,
) -> PoseTrajectory:
    """Read a trajectory from any supported file, bag or shipped example.

    Parameters
    ----------
    path : path-like
        A file or bag folder, or ``example:NAME`` for a shipped example.
    fmt : {"tum", "kitti", "euroc", "bag", "bag2", "mcap"}, optional
        The format; detected by :func:`detect_format` when omitted.
    topic : str, optional
        For bags: the topic, or a TF id ``/tf:parent.child``. May be omitted when the
        bag holds exactly one topic of a pose type.
    times_path : path-like, optional
        For KITTI: the times file (one time a line). Without it KITTI stamps are the
        frame indices 0.0, 1.0, 2.0, ...
    strict : bool
        Refuse data problems (NaN rows, unsorted or repeated stamps, non-unit
        quaternions) instead of fixing them with a :class:`~robot_msgs.errors.DataWarning`.

    Returns
    -------
    PoseTrajectory
        Stamps in seconds, positions in metres, unit quaternions ``x, y, z, w``.

    Raises
    ------
    FormatError
        Unknown ``fmt``; an option the format does not use (``topic`` for a text file,
        ``times_path`` for anything but KITTI); malformed content (file, line, column,
        text); a data problem refused.
    FileNotFoundError
        No such file, or no such example.

    Examples
    --------
    >>> traj = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    >>> len(traj), round(traj.duration_s, 3)
    (788, 26.563)
    """
    file = resolve_path(path)
    if fmt is None:
        fmt = detect_format(file)
    if fmt not in FORMATS:
        msg = f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}"
        raise FormatError(msg)
    if times_path is not None and fmt != "kitti":
        msg = f"{path}: a times file is only used with KITTI files, not {fmt}"
        raise FormatError(msg)
    if fmt in BAG_FORMATS:
        if topic is None:
            topic = _only_pose_topic(file)
        return read_bag(file, topic, strict=strict)
    if topic is not None:
        msg = f"{path}: a topic is only used with bags, not {fmt} files"
        raise FormatError(msg)
    if not file.is_file():
        msg = f"{path}: no such file"
        raise FileNotFoundError(msg)
    if fmt == "kitti":
        return read_kitti(file, times_path=times_path, strict=strict)
    if fmt == "euroc":
        return read_euroc(file, strict=strict)
    return read_tum(file, strict=strict)


def _only_pose_topic(file: Path) -> str:
    topics = [t for t in list_topics(file) if t.msgtype in POSE_TYPES and t.message_count > 0]
    if len(topics) == 1:
        return topics[0].topic
    names = ", ".join(t.topic for t in topics) or "none"
    msg = f"{file}: choose a topic (pose topics: {names}; TF as /tf:parent.child)"
    raise FormatError(msg)
