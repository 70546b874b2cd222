"""The inputs of one evaluation, read together: :func:`read_inputs`.

A reference and its estimates are read as a set, so that what concerns them all is
decided once: each file's format is detected once, a bag's pose topic is chosen once, and
inputs given as latitude, longitude and altitude (``.lla`` files, ``NavSatFix`` topics)
share one local frame: ``crs``, else ``geo_origin``, else the first fix of the first such
input, in the order given (the reference first). WHY: read one at a time, each
georeferenced trajectory took its own first fix as origin, and a reference and an
estimate that started metres apart were compared in two different frames.
"""

from __future__ import annotations

import math
import os
import stat
import warnings
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from robot_msgs.errors import DataWarning, ValidationError, caller_stacklevel
from robot_msgs.io import table
from robot_msgs.io.bounded import bags_opened_once
from robot_msgs.io.clean import (
    UNKNOWN_COVARIANCES,
    implausible_stamps,
    reading_notes,
    stamps_divided_after,
)
from robot_msgs.io.detect import (
    detect_format,
    geo_origin_of,
    only_pose_topic,
    read_trajectory,
)
from robot_msgs.io.examples import resolve_path
from robot_msgs.io.formats import BAG_FORMATS
from robot_msgs.io.geodetic import LATITUDE_BOUND_DEG, LONGITUDE_BOUND_DEG
from robot_msgs.io.side_by_side import can_run_side_by_side, side_by_side

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.kitti import KittiRotations
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "InputFile",
    "InputsCache",
    "check_geo_origin",
    "geo_frames",
    "read_inputs",
    "unknown_covariances",
]

#: The formats read side by side (:func:`_side_by_side`): text tables, every data problem
#: reported through :func:`robot_msgs.io.clean.report`.
_TABLE_FORMATS = ("tum", "kitti", "euroc")

#: The read pieces (:data:`robot_msgs.io.table.CHUNK_BYTES`) each input must exceed to be
#: read side by side: two 10^5-pose TUM files (10 MB, two pieces) took as long either way
#: (1.01x wall, 20 alternated pairs), two of 10^6 (107 MB) 0.87x (0.55-1.36).
_SIDE_BY_SIDE_PIECES = 4

InputsCache = dict[tuple[object, ...], "PoseTrajectory"]
"""Trajectories already read, by file, format, topic, times file and frame."""


@dataclass(frozen=True, slots=True, kw_only=True)
class InputFile:
    """Where one input trajectory is and how to read it (what is not given is found).

    Attributes
    ----------
    path : str
        A file or bag folder, or ``example:NAME``.
    fmt : str or None
        Its format (:data:`~robot_msgs.io.FORMATS`); detected when ``None``.
    topic : str or None
        A bag's topic or TF id; the bag's one pose topic when ``None``.
    times_path : path-like or None
        A KITTI file's times file; without one the stamps are frame indices.
    """

    path: str
    fmt: str | None = None
    topic: str | None = None
    times_path: str | os.PathLike[str] | None = None

    @property
    def label(self) -> str:
        """The input as results name it: the path, then the topic when one was given.

        ``x.bag /odom``, as the readers' errors and ``traj`` say it: the command line
        takes a topic only from ``--topic``/``--ref-topic``/``--est-topic``, and a colon
        belongs to TF ids (``/tf:odom.base_link``) and ``example:NAME``.

        Bytes of a file name that are not UTF-8 (given as lone surrogates, as Python
        decodes ``argv``) are shown as U+FFFD: a result's names are text it can write.
        """
        text = self.path if self.topic is None else f"{self.path} {self.topic}"
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@bags_opened_once()  # a bag's topic choice, first fix and read share one open
def read_inputs(
    inputs: Sequence[InputFile],
    *,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    cache: InputsCache | None = None,
    reading: ReadSettings | None = None,
    estimates_only: bool = False,
) -> list[PoseTrajectory]:
    """Read the trajectories of one evaluation, in one frame (see the module docstring).

    Parameters
    ----------
    inputs : sequence of InputFile
        The reference first, then the estimates.
    strict : bool
        Refuse data problems instead of fixing them with a warning.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).
    geo_origin : (lat, lon, alt), optional
        The local ENU origin of georeferenced inputs, degrees and metres above the
        WGS-84 ellipsoid (default: the first fix of the first of them).
    crs : str, optional
        A projected CRS (``"EPSG:32632"``) for georeferenced inputs instead of ENU.
    cache : dict, optional
        Trajectories read before (runs sharing a reference read it once); filled here.
    reading : ReadSettings, optional
        How KITTI rotation blocks are used (:func:`~robot_msgs.io.read_trajectory`), and
        each input read as its file was written
        (:meth:`~robot_msgs.evaluation.ReadSettings.as_written`): the first input is the
        reference side, the others the estimate side. Default: as the readers read them.
    estimates_only : bool
        Every input is of the estimate side (a run without ground truth).

    Returns
    -------
    list of PoseTrajectory
        One per input, in order. A file of one pose is read with a
        :class:`~robot_msgs.errors.DataWarning` saying there is no motion to evaluate,
        and an estimate that is the reference's file (resolved: a link, another spelling
        of the path), read the same way, with one saying so (``kind="same_input"``), as
        is an estimate that is an earlier estimate's file.

    Raises
    ------
    ValidationError
        ``geo_origin`` or ``crs`` while no input holds latitudes and longitudes (the
        error's ``field`` names which).
        ``reading.w_first`` names a side not read as TUM (the ``field`` is ``w_first``).
        ``reading.stamp_divisors`` divides a side (not by 1) whose reader read its
        stamps in another unit than its format's (integer TUM stamps as nanoseconds or
        milliseconds, with a warning): they would be divided twice (the ``field`` is
        ``stamp_divisors``; :func:`~robot_msgs.io.clean.stamps_divided_after`).
    FormatError, FileNotFoundError
        As :func:`~robot_msgs.io.read_trajectory`.

    Examples
    --------
    >>> ref, est = read_inputs([InputFile(path="example:fr1_xyz/groundtruth.tum"),
    ...                         InputFile(path="example:fr1_xyz/rgbdslam.tum")])
    >>> len(ref), len(est), est.stamps_are_frames
    (3000, 788, False)
    """
    kitti_rotations: KittiRotations = "nearest" if reading is None else reading.kitti_rotations
    files: list[tuple[Path, str, str | None]] = []
    for given in inputs:
        file = resolve_path(given.path)
        fmt = given.fmt or detect_format(given.path)  # errors name example:NAME as given
        topic = given.topic
        if topic is None and fmt in BAG_FORMATS:
            topic = only_pose_topic(given.path)
        files.append((file, fmt, topic))
    fixes = [
        geo_origin_of(given.path, format=fmt, topic=topic)  # named as given
        for given, (_, fmt, topic) in zip(inputs, files, strict=True)
    ]
    frames = geo_frames(fixes, geo_origin=geo_origin, crs=crs)
    keys = [
        (
            os.path.realpath(file),  # Path.resolve() raised RuntimeError on a loop of links
            fmt,
            topic,
            given.times_path,
            strict,
            repeated_stamps,
            kitti_rotations,
            *frame,
        )
        for given, (file, fmt, topic), frame in zip(inputs, files, frames, strict=True)
    ]
    # Each input is named as given (``example:NAME``, not the installed file), and the one
    # it repeats too where it was given another way (a link, another spelling of the path).
    for k in range(1, len(keys)):
        first = keys.index(keys[k])  # the reference's or an earlier estimate's, read the same way
        if first == k:
            continue
        label, earlier = inputs[k].label, inputs[first].label
        spelt = "" if earlier == label else f" ({earlier})"
        if first == 0:  # resolved: a link, or another spelling of the path
            # Not "every error is zero": a transform or an offset, unknown here, moves the
            # estimate (`ape E E --transform-left T` said so above a table of 5 m); the
            # evaluation notes zero errors where the estimate compared is the reference.
            same = (
                f"{label}: the same file as the reference{spelt}, read the same way: the "
                "estimate is the reference before any transform or time offset"
            )
        else:
            same = (
                f"{label}: estimate #{k} is the same file as estimate #{first}{spelt}, read the "
                f"same way: its results repeat #{first}'s"
            )
        warnings.warn(
            DataWarning(same, kind="same_input", fixed=False), stacklevel=caller_stacklevel()
        )
    # A side whose stamps a divisor divides once read refuses a reader's own division
    # (io.clean.stamps_divided_after): read anew, not taken from a read without it.
    sides: list[Literal["reference", "estimate"]] = [
        "estimate" if k or estimates_only else "reference" for k in range(len(inputs))
    ]
    divisors = [1.0 if reading is None else reading.stamp_divisors[s == "estimate"] for s in sides]
    cached = [(*key, divisor != 1.0) for key, divisor in zip(keys, divisors, strict=True)]
    # The inputs to read, in order: each one without a cache, each new key with one.
    todo = [
        k
        for k, key in enumerate(cached)
        if cache is None or (key not in cache and key not in cached[:k])
    ]
    setting = None if reading is None else f"`stamp_divisors={reading.stamp_divisors!r}`"
    calls = [
        partial(
            _read_divided,
            partial(
                read_trajectory,
                inputs[k].path,  # as given: errors name ``example:NAME``, not the installed file
                format=files[k][1],
                topic=files[k][2],
                times_path=inputs[k].times_path,
                strict=strict,
                repeated_stamps=repeated_stamps,
                geo_origin=frames[k][0],
                crs=frames[k][1],
                kitti_rotations=kitti_rotations,
            ),
            setting,
            sides[k],
            divisors[k],
        )
        for k in todo
    ]
    together = _side_by_side(
        [files[k] for k in todo], [frames[k] for k in todo], [inputs[k].times_path for k in todo]
    )
    read: dict[int, PoseTrajectory] = {}
    if together:
        _compile_in_this_thread()
    values = side_by_side(calls) if together else (call() for call in calls)
    for k, traj in zip(todo, values, strict=True):
        if len(traj) == 1:  # the readers report implausible rates; one pose has none
            single = str(implausible_stamps(traj.stamps_s, source=inputs[k].label))
            # Tagged, so the doctor says it as a finding: untagged, it said "nothing found".
            said = DataWarning(single, kind="coverage", fixed=False)
            warnings.warn(said, stacklevel=caller_stacklevel())
        if cache is not None:
            cache[cached[k]] = traj
        read[k] = traj
    out = [read[k] if k in read else cache[key] for k, key in enumerate(cached)]  # type: ignore[index]
    if reading is None:
        return out
    return [reading.as_written(t, sides[k], files[k][1]) for k, t in enumerate(out)]


def _read_divided(
    read: Callable[[], PoseTrajectory], setting: str | None, side: str, divisor: float
) -> PoseTrajectory:
    """Return ``read()``, the reader of ``side``'s file, whose stamps ``divisor`` divides after.

    A ``divisor`` other than 1 (of ``setting``) refuses the reader's own reading of its
    stamps in another unit (:func:`~robot_msgs.io.clean.stamps_divided_after`).
    """
    if setting is None or divisor == 1.0:
        return read()
    with stamps_divided_after(setting, side=side, divisor=divisor):
        return read()


def _compile_in_this_thread() -> None:
    """Build an empty trajectory here, before the reader threads start.

    WHY: a message type's check is generated on its first construction. When that was
    a reader thread, glibc's per-thread malloc arenas grew with it, and the peak RSS of
    ``ape --align se3`` at 10^6 poses was 267-272 MB; with the check generated here,
    254 MB. The traced allocations were the same either way, and ``MALLOC_ARENA_MAX=1``
    gives 254 MB for both.
    """
    from robot_msgs.trajectory.pose import PoseTrajectory, _empty  # noqa: PLC0415

    _empty(PoseTrajectory)


def _side_by_side(
    files: Sequence[tuple[Path, str, str | None]],
    frames: Sequence[tuple[object, object]],
    times: Sequence[str | os.PathLike[str] | None] = (),
) -> bool:
    """Say whether to read ``files`` side by side (:mod:`robot_msgs.io.side_by_side`).

    When two or more are text tables (TUM, KITTI, EuRoC) in local coordinates, each a
    regular file of more than four read pieces (32 MiB, about 300,000 TUM poses), and
    all are: below that a thread costs as much as it saves. Bags and georeferenced inputs are
    read one after another, and so are inputs with a times file that is not a regular
    file (one pipe given for two KITTI files is read once, by the first).
    """
    if len(files) < 2 or not can_run_side_by_side():
        return False
    for path in times:
        if path is not None and not Path(path).is_file():
            return False
    for (file, fmt, _), frame in zip(files, frames, strict=True):
        if fmt not in _TABLE_FORMATS or frame != (None, None):
            return False
        try:
            info = file.stat()
        except OSError:
            return False  # the reader names what is wrong, in order
        if (
            not stat.S_ISREG(info.st_mode)
            or info.st_size <= _SIDE_BY_SIDE_PIECES * table.CHUNK_BYTES
        ):
            return False
    return True


def geo_frames(
    fixes: Sequence[tuple[float, float, float] | None],
    *,
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
) -> list[tuple[tuple[float, float, float] | None, str | None]]:
    """Return the ``(geo_origin, crs)`` each input is read with, all in one frame.

    The rule of :func:`read_inputs`, for callers that read the inputs themselves
    (``robot-msgs traj --ref``): ``crs``, else ``geo_origin``, else the first of
    ``fixes`` that is not ``None``, for every georeferenced input; ``(None, None)`` for
    an input of poses.

    Parameters
    ----------
    fixes : sequence of (lat, lon, alt) or None
        Each input's first fix (:func:`~robot_msgs.io.geo_origin_of`), in order (the
        reference first); ``None`` for an input of poses.
    geo_origin : (lat, lon, alt), optional
        The local ENU origin, as :func:`read_inputs` takes it.
    crs : str, optional
        A projected CRS, as :func:`read_inputs` takes it.

    Returns
    -------
    list of (origin, crs)
        One per fix: the ``geo_origin`` and ``crs`` arguments of
        :func:`~robot_msgs.io.read_trajectory` for that input.

    Raises
    ------
    ValidationError
        ``geo_origin`` or ``crs`` while every fix is ``None`` (the error's ``field``
        names which); a ``geo_origin`` off the Earth (a latitude beyond ±90 deg, a
        longitude beyond ±360 deg, a value not finite).

    Examples
    --------
    >>> geo_frames([None, (47.0, 8.0, 400.0), (47.1, 8.0, 400.0)])
    [(None, None), ((47.0, 8.0, 400.0), None), ((47.0, 8.0, 400.0), None)]
    """
    georeferenced = [fix is not None for fix in fixes]
    if geo_origin is not None:
        check_geo_origin(geo_origin)
    if (geo_origin is not None or crs is not None) and not any(georeferenced):
        field = "geo_origin" if geo_origin is not None else "crs"
        reason = "applies to .lla files and NavSatFix topics; the inputs hold poses"
        msg = f"`{field}` {reason}"
        raise ValidationError(msg, field=field, reason=reason)
    first = next((fix for fix in fixes if fix is not None), None)
    origin = None if crs is not None else (geo_origin if geo_origin is not None else first)
    return [(origin, crs) if geo else (None, None) for geo in georeferenced]


def check_geo_origin(origin: tuple[float, float, float]) -> None:
    """Refuse an ENU origin off the Earth: a latitude or longitude out of range, or not finite.

    WHY where the origin is given, not where the fixes are read with it: a NaN made every
    fix NaN and the file was refused for rows 'with NaN or infinite values', and a
    latitude of 91 was the file's 'row 1'.

    Raises
    ------
    ValidationError
        With ``field="geo_origin"``.

    Examples
    --------
    >>> check_geo_origin((47.0, 8.0, 400.0))
    >>> check_geo_origin((91.0, 8.0, 400.0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: `geo_origin` expected a latitude within -90 .. 90 deg, ...
    """
    lat, lon, alt = (float(v) for v in origin)
    if (
        all(math.isfinite(v) for v in (lat, lon, alt))
        and abs(lat) <= LATITUDE_BOUND_DEG
        and abs(lon) <= LONGITUDE_BOUND_DEG
    ):
        return
    reason = (
        f"expected a latitude within {-LATITUDE_BOUND_DEG:g} .. {LATITUDE_BOUND_DEG:g} deg, "
        f"a longitude within {-LONGITUDE_BOUND_DEG:g} .. {LONGITUDE_BOUND_DEG:g} deg and a "
        f"finite altitude, got {lat!r} {lon!r} {alt!r}"
    )
    msg = f"`geo_origin` {reason}"
    raise ValidationError(msg, field="geo_origin", reason=reason)


def unknown_covariances(
    given: InputFile,
    needed_by: str,
    *,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
) -> str | None:
    """Say why an estimate read from ``given`` has no covariances, if its covariances were all zero.

    A bag topic (or cnspy CSV file) whose every covariance is all zero (ROS's "unknown")
    is read as none, with a reading note naming the file and topic (kind ``unknown_covariances``,
    :func:`robot_msgs.io.clean.reading_notes`), not a warning: most metrics do not use
    covariances. What needs them (NEES) names that topic with this message. The input is
    read again, alone, quietly and without a cache: call it only once covariances were
    found missing.

    Parameters
    ----------
    given : InputFile
        The estimate, as it was read.
    needed_by : str
        What needs the covariances, as the message names it (``"NEES (ape:nees)"``).
    strict, repeated_stamps
        As the estimate was read (:func:`read_inputs`).

    Returns
    -------
    str or None
        ``"<file> <topic>: covariances all zero on every message ...; <needed_by> needs
        the estimate's pose covariances: choose a topic that sets them"``, or ``None``
        when the reader said nothing of the kind (a type without covariances).

    Examples
    --------
    >>> unknown_covariances(InputFile(path="example:fr1_xyz/rgbdslam.tum"), "NEES") is None
    True
    """
    with reading_notes() as notes, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # said when it was read the first time
        read_inputs([given], strict=strict, repeated_stamps=repeated_stamps)
    said = [n for n in notes if n.kind == UNKNOWN_COVARIANCES]
    if not said:
        return None
    return (
        f"{said[0]}; {needed_by} needs the estimate's pose covariances: choose a topic that "
        "sets them"
    )
