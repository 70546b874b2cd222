"""TUM RGB-D trajectory files: ``t x y z qx qy qz qw`` a line.

The format of the TUM RGB-D benchmark (Sturm et al., IROS 2012) and of evo's ``tum``
mode: stamp in seconds, position in metres, orientation quaternion ``x, y, z, w``.
Lines starting with ``#`` are comments. Unlike evo, which needs exactly one space
between fields, fields may be separated by any run of spaces, tabs or commas, and a
``#`` comment may also end a line. A first line of column names without ``#``
(``timestamp tx ty tz qx qy qz qw``) is a header; a header that names ``qw`` first
is refused (that is EuRoC's order, :mod:`robot_msgs.io.euroc`).

Stamps are seconds. Integer stamps that can only be nanoseconds (1e12 or more, or a
mean step that as seconds gives a rate below 1e-6 Hz; see :mod:`robot_msgs.io.sniff`)
are divided by ``1e9`` as evo divides EuRoC's, with a warning that says so. A header
whose stamp column states seconds (``# t[s] x y z qx qy qz qw``) turns that rule off,
and the rate's guess of another unit (below 1e-6 Hz or above 1 MHz) with it:
:func:`write_tum` writes it, so that a trajectory it writes reads back equal, its stamps
whatever they are (1e6 s apart, or 1e12 s). Files without it (those of earlier releases,
whose header was ``# t x y z qx qy qz qw``) read as before. A header stating nanoseconds
(``# t[ns] ...``) over whole-number stamps is taken at its word too: they are divided by
``1e9``, with the same warning (refused by ``strict``), whatever their size or rate (the
rate they then give is still checked: a wrong header shows). Stamps that fall in 1970 as
nanoseconds but are a date in a coarser unit follow the rule EuRoC's follow
(:func:`~robot_msgs.io.sniff.stated_ns_unit`): Unix time plainly in that unit overrules
the header (1.6e15 at 100 Hz, a date in 2020 as microseconds, 100 kHz as nanoseconds)
and is read in it; at a pose rate as nanoseconds (a clock since boot, or Unix
microseconds at 10 Hz or slower: the rate cannot tell) the header is believed. Either
way the warning names the header's line and both readings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import FormatError
from robot_msgs.files import write_atomic
from robot_msgs.io.clean import (
    check_poses_to_write,
    finish_trajectory,
    known_covariances,
    report,
)
from robot_msgs.io.sniff import (
    TRAJECTOPY_FIELDS,
    check_header,
    integer_stamp_unit,
    nanosecond_evidence,
    read_head,
    stated_ns_unit,
    trajectopy_lines_after_data,
)
from robot_msgs.io.table import format_rows, read_table

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.sniff import TableHeader
    from robot_msgs.io.table import Table
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["TUM_COLUMNS", "read_tum", "write_tum"]

#: The TUM columns, in file order.
TUM_COLUMNS = ("t", "x", "y", "z", "qx", "qy", "qz", "qw")
#: The stamp unit a header states (``t[s]``) that the reader takes at its word.
STAMP_UNIT = "s"
#: The header :func:`write_tum` writes: the columns, the stamps' unit stated.
_HEADER = "# " + " ".join((f"t[{STAMP_UNIT}]", *TUM_COLUMNS[1:])) + "\n"


def read_tum(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
) -> PoseTrajectory:
    r"""Read a TUM trajectory file.

    Parameters
    ----------
    path : path-like
        The file: 8 numbers a line, ``t x y z qx qy qz qw``; or trajectopy's ASCII file,
        its ``#fields`` header naming ``t``, ``px``... ``qw`` among its columns; or cnspy's
        ``PoseWithCov`` / ``PosOrientWithCov`` CSV, the pose then its covariance columns
        (read as ``covariance_6x6``).
    strict : bool
        Refuse data problems (NaN rows, unsorted or repeated stamps, non-unit
        quaternions, nanosecond stamps) instead of fixing them with a warning; see
        :mod:`robot_msgs.io.clean`.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).

    Returns
    -------
    PoseTrajectory
        Stamps in seconds, positions in metres, unit quaternions ``x, y, z, w``.

    Raises
    ------
    FormatError
        A line does not hold 8 numbers (or as many as its header names; the message
        names file, line, column and text); the header names ``qw`` first; a
        covariance entry is not finite, or a variance negative; a data problem is
        refused.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.tum").write_text("# t x y z qx qy qz qw\n1.5\t1,2,3 0 0 0 1\n")
    >>> traj = read_tum(folder / "a.tum")
    >>> traj.stamps_s.tolist(), traj.positions_xyz.tolist()
    ([1.5], [[1.0, 2.0, 3.0]])
    """
    source = str(path)
    head = read_head(path, source=source, rows=1)  # the header: read_table reads the rows
    check_header(head)
    if head.header is not None and head.header.quaternion == "wxyz":
        msg = (
            f"{source}, line {head.header.line}: the header names qw first (w, x, y, z), "
            "where TUM has qw last; choose the format (`format='euroc'`)"
        )
        raise FormatError(msg)
    header = head.header
    # WHY trajectopy's only (its fields px, py, pz; cnspy's are tx, ty, tz): cnspy's CSV
    # with a `#time_offset 100` comment above its header and any `#` line below its rows
    # was read 100 s late (101, 102 s; without the line below, 1, 2 s), a `#delimiter ;`
    # comment below them refused the file; cnspy reads no such keys.
    trajectopy = header is not None and set(TRAJECTOPY_FIELDS) <= set(header.names)
    if header is not None and header.columns is not None and trajectopy:
        header = trajectopy_lines_after_data(path, head, header)  # its # lines below rows
        check_header(replace(head, header=header))
    if header is not None and header.columns is not None:  # trajectopy's, cnspy's: by name
        if header.note:  # trajectopy's #datetime_timezone that it reads as UTC
            report(f"{source}, {header.note}", strict=strict)
        table = read_table(
            path, columns=header.names, header=True, delimiter=header.delimiter,
            datetime_format=header.datetime_format,
        )  # fmt: skip
        c = header.columns
        values = table.parts[0]
        stamps, xyz, quat = values[:, c[0]].copy(), values[:, c[1:4]], values[:, c[4:8]]
        stamps += header.stamp_shift_s  # its #time_offset, its GPS week: as trajectopy reads
        covariance = _covariance(table, header)
    else:
        table = read_table(path, columns=TUM_COLUMNS, header=True, split=(1, 3, 4))
        stamps, xyz, quat = table.parts
        covariance = None
    stated = header is not None and header.stamp_unit == STAMP_UNIT
    ns = None if stated else nanosecond_evidence(stamps)
    if header is not None and header.stamp_unit == "ns" and _whole(stamps):
        # Taken at its word: integer stamps 1e6 apart (1 kHz) read as seconds without a
        # word, as seconds 1e-6 Hz not below the rate the guess needs (a review).
        named = header.names[0].lstrip("#").strip()
        unit, divisor, said = stated_ns_unit(stamps)  # the rate is still checked, as seconds
        ns = f"the header, line {header.line}, states {named}{', ' + said if said else ''}"
        why = ""
    elif ns is not None:
        unit, divisor, why = integer_stamp_unit(stamps)
    if ns is not None:
        report(
            f"{source}: stamps read as {unit} and divided by 1e{len(str(int(divisor))) - 1} ({ns}"
            f"{'; ' + why if why else ''}); TUM stamps are seconds: write them in seconds, or "
            "choose the format (`format='euroc'`) if the quaternion is w first",
            strict=strict,
            kind="stamp_units",
        )
        stamps /= divisor  # the table's own array, as evo converts EuRoC's nanoseconds
    return finish_trajectory(
        stamps,
        xyz,
        quat,
        source=table.source,
        where=table.where,
        strict=strict,
        owned=True,
        repeated_stamps=repeated_stamps,
        unit_stated=stated,
        covariance_6x6=covariance,
    )


def _covariance(table: Table, header: TableHeader) -> Float64Array | None:
    """Return the ``(N, 6, 6)`` covariances of cnspy's columns after the pose, or None.

    Each value goes to its cell and the one mirrored; an all-zero one is ROS's "unknown"
    (cnspy writes zeros for a message without one), read as the bag readers read it
    (:func:`~robot_msgs.io.clean.known_covariances`). A value not finite, or a negative
    variance, is refused naming its line and column.
    """
    cells, at = header.covariance, (header.columns or ())[8:]
    if cells is None:
        return None
    values = table.parts[0][:, at]
    variance = np.array([k % 7 == 0 for k in cells])  # the diagonal's cells: 0, 7, ..., 35
    bad = ~np.isfinite(values) | (variance & (values < 0))
    if bad.any():
        row, col = (int(i[0]) for i in np.nonzero(bad))
        msg = (
            f"{table.source}, {table.where(np.array([row]))[0]}, column {at[col] + 1} "
            f"({header.names[at[col]]}): {float(values[row, col])!r} is no covariance entry "
            "(expected finite, variances not negative)"
        )
        raise FormatError(msg)
    cov = np.zeros((values.shape[0], 36))
    cov[:, list(cells)] = values
    cov[:, [6 * (k % 6) + k // 6 for k in cells]] = values
    return known_covariances(cov.reshape(-1, 6, 6), table.source, each="row")


def _whole(stamps: Float64Array) -> bool:
    """Whether the finite ``stamps`` ``(N,)`` are whole numbers (nanoseconds can be)."""
    finite = stamps[np.isfinite(stamps)]
    return bool(np.all(np.floor(finite) == finite))


def write_tum(path: str | os.PathLike[str], traj: PoseTrajectory, *, force: bool = False) -> Path:
    """Write ``traj`` as a TUM file, atomically, each number in its shortest exact form.

    The header ``# t[s] x y z qx qy qz qw`` states the stamps' unit, so that
    :func:`read_tum` reads integer stamps far apart (1e6 s or more) as the seconds they
    are, not as nanoseconds: the file reads back equal.

    Parameters
    ----------
    path : path-like
        The file to write.
    traj : PoseTrajectory
        The poses.
    force : bool
        Replace an existing file.

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false; nothing is written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.1], positions_xyz=[[1.0, 2.0, 3.0]], orientations_quat_xyzw=[[0, 0, 0, 1.0]]
    ... )
    >>> out = write_tum(pathlib.Path(tempfile.mkdtemp()) / "t.tum", traj)
    >>> out.read_text().splitlines()
    ['# t[s] x y z qx qy qz qw', '0.1 1.0 2.0 3.0 0.0 0.0 0.0 1.0']
    """
    check_poses_to_write(path, traj)
    values = np.column_stack([traj.stamps_s, traj.positions_xyz, traj.orientations_quat_xyzw])
    text = _HEADER + format_rows(values)
    return write_atomic(path, text, force=force)
