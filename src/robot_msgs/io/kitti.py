"""KITTI odometry pose files: 12 numbers a line, the top 3x4 of the 4x4 pose, row-major.

The format of the KITTI odometry benchmark (Geiger et al., CVPR 2012) and of evo's
``kitti`` mode. A pose file holds no time; the benchmark keeps one time a line in a
separate ``times.txt``. Separators may be spaces, tabs or commas; ``#`` starts a comment.
"""

from __future__ import annotations

import os
import stat
import warnings
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.errors import (
    DataWarning,
    FormatError,
    OutputPathError,
    ValidationError,
    caller_stacklevel,
)
from robot_msgs.files import STDOUT, check_outputs, open_atomic, write_atomic
from robot_msgs.io.clean import (
    ROTATION_EXACT_TOL,
    ROUNDED_ROTATIONS,
    check_poses_to_write,
    finish_trajectory,
    report,
)
from robot_msgs.io.table import format_rows, read_table
from robot_msgs.report.text import counted
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    nearest_rotation_matrix,
    quat_xyzw_from_matrix,
    rotation_matrix_deviation,
)
from robot_msgs.trajectory import UNIT_QUATERNION_TOL, PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.table import Table
    from robot_msgs.typing import BoolArray, IntpArray

__all__ = [
    "KITTI_COLUMNS",
    "KITTI_ROTATIONS",
    "KittiRotations",
    "default_times_path",
    "read_kitti",
    "write_kitti",
]

#: The KITTI columns, in file order: ``r`` rotation, ``t`` translation, row by row.
KITTI_COLUMNS = ("r11", "r12", "r13", "tx", "r21", "r22", "r23", "ty", "r31", "r32", "r33", "tz")

#: How a reader uses a file's rotation blocks: their nearest rotations, or as given.
KittiRotations = Literal["nearest", "as_given"]
KITTI_ROTATIONS: tuple[KittiRotations, ...] = ("nearest", "as_given")

#: Largest ``max |R Rᵀ - I|`` of a pose's rotation that is repaired by projection.
ROTATION_REFUSE_TOL = 1e-2


def default_times_path(path: str | os.PathLike[str]) -> Path:
    """Where :func:`write_kitti` puts the times of ``path``: ``<stem>_times.txt`` beside it.

    Examples
    --------
    >>> default_times_path("poses/00.txt").as_posix()
    'poses/00_times.txt'
    """
    target = Path(path)
    return target.with_name(f"{target.stem}_times.txt")


#: Folders of streams' names (/dev/stdout, /dev/fd/1), where no times file goes beside.
_STREAM_FOLDERS = (Path("/dev"), Path("/dev/fd"))


def check_pair_target(path: str | os.PathLike[str]) -> None:
    """Refuse a stream as the pose file of a pose file and its times file.

    The times go beside the poses, all or nothing: standard output (``-``), a character
    device or a FIFO takes the poses without a file to go beside, and a stream's name
    (``/dev/stdout``, ``/dev/fd/N``), a file where the shell redirected it, has a folder of
    streams beside it. ``--save /dev/null --to kitti`` wrote ``/dev/null_times.txt`` into
    ``/dev`` (a review; later runs said that file "exists").

    Raises
    ------
    OutputPathError
        ``path`` is ``-``, an existing character device or FIFO, or a name in ``/dev``,
        ``/dev/fd`` or ``/proc``.

    Examples
    --------
    >>> check_pair_target("poses/00.txt")
    >>> check_pair_target("/dev/null")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    robot_msgs.errors.OutputPathError: /dev/null: a device, not a file: KITTI writes two ...
    """
    folder = Path(path).absolute().parent  # the times' folder: a link not followed
    if os.fspath(path) == STDOUT:
        kind = "standard output"
    else:
        try:
            mode = Path(path).stat().st_mode
        except (OSError, ValueError):  # missing, or a name no file can have: the writer says
            mode = 0
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            kind = "a device, not a file"
        elif stat.S_ISFIFO(mode):
            kind = "a FIFO, not a file"
        elif folder in _STREAM_FOLDERS or folder.is_relative_to("/proc"):
            # /dev/stdout redirected to a file is one: its times went to /dev/stdout_times.txt
            kind = f"a stream's name in {folder}, not a file"
        else:
            return
    beside = "" if kind == "standard output" else f" ({default_times_path(path)})"
    msg = (
        f"{os.fspath(path)}: {kind}: KITTI writes two files, the poses and their times beside "
        f"them{beside}; give the path of a file"
    )
    raise OutputPathError(msg)


def read_kitti(
    path: str | os.PathLike[str],
    *,
    times_path: str | os.PathLike[str] | None = None,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
    rotations: KittiRotations = "nearest",
) -> PoseTrajectory:
    r"""Read a KITTI pose file, with stamps from a times file or frame indices.

    Parameters
    ----------
    path : path-like
        The pose file: 12 numbers a line, ``r11 r12 r13 tx r21 r22 r23 ty r31 r32 r33 tz``.
    times_path : path-like, optional
        One time in seconds a line, as many as poses. Without it the stamps are the
        frame indices ``0.0, 1.0, 2.0, ...`` as float seconds: fine for evaluations that
        match by index (KITTI's, evo's ``kitti`` mode), meaningless as real time.
    strict : bool
        Refuse data problems instead of fixing them with a warning.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).
    rotations : {"nearest", "as_given"}
        How the 3x3 blocks are used: replaced by their nearest rotations, or also kept
        as printed (``rotation_matrices``) so that the errors are computed with the rows
        as given, as evo does (it multiplies the raw blocks, transposes as inverses).

    Returns
    -------
    PoseTrajectory
        Positions ``(tx, ty, tz)`` in metres; orientations the quaternion of the
        rotation nearest each 3x3 block (files round to ~7 digits, so blocks are only
        nearly orthonormal), and with ``rotations="as_given"`` the blocks themselves in
        ``rotation_matrices``. Every block off a rotation by more than float64 rounding
        (``1e-12``) is reported with the largest deviation; up to ``1e-6`` (printed
        digits) the warning is never refused, beyond that ``strict`` refuses it.
        Without a times file the stamps are the frame indices, and ``stamps_are_frames``
        says so.

    Raises
    ------
    FormatError
        A line does not hold 12 numbers; a block is far from a rotation (``max |R Rᵀ -
        I| > 1e-2``, or ``det <= 0``); the times file does not hold one time per pose.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "00.txt").write_text("1 0 0 5 0 1 0 6 0 0 1 7\n0 -1 0 8 1 0 0 9 0 0 1 10\n")
    >>> traj = read_kitti(folder / "00.txt")
    >>> traj.stamps_s.tolist(), traj.positions_xyz[1].tolist()
    ([0.0, 1.0], [8.0, 9.0, 10.0])
    >>> traj.orientations_quat_xyzw[1].round(6).tolist()  # 90° about z
    [0.0, 0.0, 0.707107, 0.707107]
    """
    source = str(path)
    table = read_table(path, columns=KITTI_COLUMNS)
    poses = table.values.reshape(-1, 3, 4)
    n = poses.shape[0]
    times: Table | None = None
    if times_path is None:
        stamps = np.arange(n, dtype=np.float64)
    else:
        times = read_table(times_path, columns=("t",))
        stamps = times.values[:, 0]
        if stamps.shape[0] != n:
            msg = (
                f"{times_path}: expected one time per pose of {source} ({n}), got {stamps.shape[0]}"
            )
            raise FormatError(msg)
    finite: BoolArray = np.asarray(np.isfinite(poses).all(axis=(1, 2)))
    blocks = np.where(finite[:, None, None], poses[:, :, :3], np.eye(3))
    positions = poses[:, :, 3].copy()
    # The numbers are copied out: the table keeps the rows' lines for messages, and its
    # (N, 12) array (0.19 GB for 2e6 poses) is freed before the rotations' work.
    del poses
    table = replace(table, parts=())
    where: Callable[[IntpArray], list[str]] = (
        table.where if times is None else _pose_and_time_lines(table, times)
    )
    deviation = rotation_matrix_deviation(blocks)
    far = finite & ~(deviation <= ROTATION_REFUSE_TOL)
    if far.any():
        row = int(np.flatnonzero(far)[0])
        label = table.where(np.array([row]))[0]
        block = blocks[row : row + 1]
        gram = float(rotation_matrix_deviation(block, proper=False)[0])  # `deviation`: inf
        # entries past 1e102: inf, NaN; a subnormal pivot (5e-324): a division by zero
        with np.errstate(all="ignore"):
            det = float(np.linalg.det(block[0]))
        what = "a reflection, not a rotation" if det < 0 else "not a rotation"
        msg = (
            f"{source}, {label}: the 3x3 block is {what} "
            f"(max |R Rᵀ - I| = {gram:.3g}, det = {det:.6g})"
        )
        raise FormatError(msg)
    off = finite & (deviation > ROTATION_EXACT_TOL)
    if rotations not in KITTI_ROTATIONS:
        msg = f"Expected rotations in {KITTI_ROTATIONS}, got {rotations!r}"
        raise ValidationError(msg, field="rotations")
    as_given = rotations == "as_given"
    if off.any():
        worst = int(np.argmax(np.where(finite, deviation, 0.0)))
        label = table.where(np.array([worst]))[0]
        of = f"{source}: {int(off.sum())} of {counted(n, 'rotation block')}"  # 1 of 1 block
        count = f"{of} not orthonormal"
        worst_at = f"(max |R Rᵀ - I| {deviation[worst]:.2g} at {label})"
        beyond = deviation[worst] > UNIT_QUATERNION_TOL  # not the rounding of digits
        kind = "non_orthonormal_rotations" if beyond else ROUNDED_ROTATIONS
        if as_given:  # nothing replaced: said, as the rows the numbers come from
            message = f"{count}: used as given, as evo does {worst_at}"
            report(message, strict=strict and beyond, kind=kind, fixed=False)
        elif deviation[worst] > UNIT_QUATERNION_TOL:
            # WHY: a KITTI user's drift on blocks ~1e-3 off was not the devkit's (which
            # uses the rows as given) and nothing said so: on KITTI 00 ORB-SLAM with blocks
            # a median 1.4e-3 off, 0.002533 deg/m, the devkit 0.003679. How much a file's
            # figures move depends on its blocks and motion: said is only what is measured
            # here, the median of this file's off blocks, never another file's ratio.
            median = float(np.median(deviation[off]))
            message = (
                f"{count}: replaced by the nearest rotation {worst_at}; the KITTI devkit "
                "and evo use the rows as given (here `kitti_rotations='as_given'`, which "
                "gives their figures), and this far off (median |R Rᵀ - I| of the blocks "
                f"off {median:.2g}) their rotation figures can differ"
            )
            report(message, strict=strict, kind="non_orthonormal_rotations")
        else:  # the rounding of 7 printed digits (KITTI's own files): said, never refused
            # WHY short: said for every KITTI file, it was ~300 columns (five lines on an
            # 80-column terminal, beside every KITTI result; the newcomer walk).
            message = (
                f"{of} off orthonormal by rounding {worst_at}: made orthonormal; evo uses "
                "them as given (`kitti_rotations='as_given'`)"
            )
            report(message, strict=False, kind=kind)
    # The nearest rotations go in place of the blocks unless they are kept as given.
    quats = quat_xyzw_from_matrix(nearest_rotation_matrix(blocks, out=None if as_given else blocks))
    quats[~finite] = np.nan
    kept = blocks if as_given else None
    del blocks
    return finish_trajectory(
        stamps,
        positions,
        quats,
        source=source,
        where=where,
        strict=strict,
        stamps_are_frames=times_path is None,
        repeated_stamps=repeated_stamps,
        rotation_matrices=kept,
        orientations_from_matrices=True,
    )


def _pose_and_time_lines(poses: Table, times: Table) -> Callable[[IntpArray], list[str]]:
    """Label rows by their pose line and their times line: ``line 4 / times.txt line 5``.

    A row's stamp comes from the times file: a NaN or repeated time was said to be at
    the pose file's line, which holds no time (its line, shifted by comments or blanks).
    """

    def where(rows: IntpArray) -> list[str]:
        pairs = zip(poses.line_numbers(rows), times.line_numbers(rows), strict=True)
        return [f"line {p} / {times.source} line {t}" for p, t in pairs]

    return where


def write_kitti(
    path: str | os.PathLike[str],
    traj: PoseTrajectory,
    *,
    times_path: str | os.PathLike[str] | None = None,
    write_times: bool = True,
    force: bool = False,
) -> tuple[Path, Path | None]:
    r"""Write ``traj`` as a KITTI pose file plus a times file, atomically as a pair.

    Both files are written whole before either replaces its target, so a failure leaves
    both old files (or neither new one); only a rename failing between the two renames
    could part them.

    Parameters
    ----------
    path : path-like
        The pose file.
    traj : PoseTrajectory
        The poses; their ``rotation_matrices`` when kept (read as given), else the
        matrices of their quaternions.
    times_path : path-like, optional
        The times file; default :func:`default_times_path` (``<stem>_times.txt``).
    write_times : bool
        Write the times file (KITTI pose files hold no time). Stamps that are frame
        indices (``stamps_are_frames``, KITTI read without its times) have none to write:
        the pose file alone reads back as frame indices 0, 1, 2... (a times file of 0, 1,
        2... read back as seconds; a review): other indices (a cut file's) are said with
        a :class:`~robot_msgs.errors.DataWarning`.
    force : bool
        Replace existing files.

    Returns
    -------
    tuple of Path
        The pose file and the times file (None when not written).

    Raises
    ------
    OutputExistsError
        A file exists and ``force`` is false; checked for both before either is
        written, so nothing is written.
    OutputPathError
        The two paths are the same file, or cannot be written (see
        :func:`~robot_msgs.files.check_outputs`); with a times file, either is a stream
        (``-``, a device or FIFO cannot be taken back if the other fails).
    OSError
        A write failed; the message names the file. Neither file is replaced.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.5], positions_xyz=[[1.0, 2.0, 3.0]], orientations_quat_xyzw=[[0, 0, 0, 1.0]]
    ... )
    >>> poses, times = write_kitti(pathlib.Path(tempfile.mkdtemp()) / "00.txt", traj)
    >>> poses.read_text(), times.name, times.read_text()
    ('1.0 0.0 0.0 1.0 0.0 1.0 0.0 2.0 0.0 0.0 1.0 3.0\n', '00_times.txt', '0.5\n')
    """
    check_poses_to_write(path, traj, keeps=("stamps_are_frames", "rotation_matrices"))
    if traj.stamps_are_frames and times_path is not None:
        msg = (
            f"Expected stamps in seconds for the times file {times_path}, got frame indices "
            "(a KITTI file read without its times): the pose file alone keeps them"
        )
        raise ValidationError(msg, field="times_path")
    n = len(traj)
    if traj.stamps_are_frames and not np.array_equal(traj.stamps_s, np.arange(n)):
        note = (
            f"{path}: frame indices {traj.stamps_s[0]:.0f} .. {traj.stamps_s[-1]:.0f} are "
            f"written as a pose file alone, which keeps no index: they read back as 0 .. {n - 1}"
        )
        warnings.warn(note, DataWarning, stacklevel=caller_stacklevel())
    times_target = (
        (Path(times_path) if times_path is not None else default_times_path(path))
        if write_times and not traj.stamps_are_frames
        else None
    )
    if times_target is not None:
        check_pair_target(path)
    check_outputs(
        [path] + ([times_target] if times_target is not None else []),
        force=force,
        create_folders=True,
    )
    poses = np.zeros((len(traj), 3, 4))
    kept = traj.rotation_matrices  # blocks read as given are written as they were read
    poses[:, :, :3] = matrix_from_quat_xyzw(traj.orientations_quat_xyzw) if kept is None else kept
    poses[:, :, 3] = traj.positions_xyz
    rows = format_rows(poses.reshape(-1, 12))
    if times_target is None:
        return write_atomic(path, rows, force=force), None
    _write_pair(
        (times_target, format_rows(traj.stamps_s[:, None])), (Path(path), rows), force=force
    )
    return Path(path), times_target


def _write_pair(first: tuple[Path, str], second: tuple[Path, str], *, force: bool) -> None:
    """Write two files all or nothing: neither replaces its target unless both are whole.

    Each goes to its :func:`~robot_msgs.files.open_atomic` temporary, the first flushed to
    disk before the second is written; the renames come only when both are whole (the
    second's, then the first's). Writing the poses after their times file had replaced
    the old one left a new times file beside old poses when the poses failed (a full
    disk; a review). The second's error names its own file: it passes the first's writer
    (which removes its temporary) unchanged.
    """
    with open_atomic(first[0], force=force) as handle:
        handle.write(first[1].encode("utf-8"))
        handle.flush()
        os.fsync(handle.fileno())
        with open_atomic(second[0], force=force) as other:
            other.write(second[1].encode("utf-8"))
