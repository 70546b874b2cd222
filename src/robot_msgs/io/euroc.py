"""EuRoC MAV ground-truth CSV: ``t[ns], px, py, pz, qw, qx, qy, qz`` and more columns.

The ``state_groundtruth_estimate0/data.csv`` of the EuRoC MAV dataset (Burri et al.,
IJRR 2016) and evo's ``euroc`` mode: stamps in integer nanoseconds, positions in metres,
the quaternion with ``w`` FIRST, then velocities and IMU biases, which are ignored. A
header line (``#timestamp, p_RS_R_x [m], ...``) is skipped, with or without ``#``; one
that names ``qx`` before ``qw`` is refused (TUM's order, :mod:`robot_msgs.io.tum`).

Stamps that cannot be integer nanoseconds (a fraction, or integers whose mean step as
nanoseconds gives a rate above 1 MHz; see :mod:`robot_msgs.io.sniff`) are not divided by
``1e9``: with a header naming ``qw`` first, or more than 8 columns, they are read as
seconds with a warning; an 8-column file without such a header is refused, as it looks
like a TUM file. A header whose stamp column states nanoseconds (``#timestamp [ns]``,
EuRoC's own and what :func:`write_euroc` writes) overrules the rate: integer stamps
under it are nanoseconds at any rate, so a trajectory sampled at 2 MHz or more reads
back equal (the rate they then give is still checked: a wrong header shows); integer
seconds at 1 Hz under a header without a unit (``#timestamp,...``) are still seconds.

Integer nanoseconds that fall in 1970 but are a Unix date in a coarser unit follow the
rule TUM's ``# t[ns]`` follows (:func:`~robot_msgs.io.sniff.stated_ns_unit`): Unix time
plainly in that unit (1.6e15 at 100 Hz: microseconds in 2020, 100 kHz as nanoseconds) is
read in it, with a warning (refused by ``strict``); at a pose rate as nanoseconds (a
clock since boot, 1.6e15 being 18.5 days in, or Unix microseconds at 10 Hz or slower:
the rate cannot tell) they are read as nanoseconds, with a warning naming both readings
that ``strict`` does not refuse, as nothing was changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import FormatError, ValidationError
from robot_msgs.files import write_atomic
from robot_msgs.io.clean import check_poses_to_write, finish_trajectory, report
from robot_msgs.io.sniff import check_header, read_head, seconds_evidence, stated_ns_unit
from robot_msgs.io.table import format_rows, read_table

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Int64Array

__all__ = ["EUROC_COLUMNS", "EUROC_HEADER", "euroc_stamps_ns", "read_euroc", "write_euroc"]

#: The EuRoC columns read, in file order (later columns are ignored).
EUROC_COLUMNS = ("t_ns", "px", "py", "pz", "qw", "qx", "qy", "qz")

#: The header :func:`write_euroc` writes: EuRoC's own names for the columns.
EUROC_HEADER = (
    "#timestamp [ns],p_RS_R_x [m],p_RS_R_y [m],p_RS_R_z [m],q_RS_w [],q_RS_x [],q_RS_y [],q_RS_z []"
)


def read_euroc(
    path: str | os.PathLike[str],
    *,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
) -> PoseTrajectory:
    r"""Read an EuRoC ground-truth CSV.

    Parameters
    ----------
    path : path-like
        The CSV: ``t[ns], px, py, pz, qw, qx, qy, qz`` then any further columns.
    strict : bool
        Refuse data problems instead of fixing them with a warning.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).

    Returns
    -------
    PoseTrajectory
        Stamps ``t_ns / 1e9`` seconds computed as evo does (the nanoseconds as float64,
        divided by ``1e9``), so both give the same float; quaternions reordered to
        ``x, y, z, w``.

    Raises
    ------
    FormatError
        A row has fewer than 8 numbers (the message names file, line, column and
        text); the header names ``qx`` before ``qw``; stamps in seconds in a file that
        looks like TUM (see the module); a data problem is refused.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "data.csv").write_text(
    ...     "#timestamp,px,py,pz,qw,qx,qy,qz,vx\n1403715524907143168,1,2,3,1,0,0,0,9\n"
    ... )
    >>> traj = read_euroc(folder / "data.csv")
    >>> traj.stamps_s.tolist(), traj.orientations_quat_xyzw.tolist()
    ([1403715524.907143], [[0.0, 0.0, 0.0, 1.0]])
    """
    source = str(path)
    head = read_head(path, source=source, rows=1)  # the header: read_table reads the rows
    check_header(head)
    named = head.header is not None and head.header.quaternion == "wxyz"
    if head.header is not None and head.header.quaternion == "xyzw":
        msg = (
            f"{source}, line {head.header.line}: the header names qx before qw (x, y, z, w), "
            "where EuRoC has qw first; choose the format (`format='tum'`)"
        )
        raise FormatError(msg)
    table = read_table(
        path, columns=EUROC_COLUMNS, extra_columns=True, header=True, split=(1, 3, 4)
    )
    stamps_ns, xyz, wxyz = table.parts
    seconds = seconds_evidence(stamps_ns)
    stated_ns = head.header is not None and head.header.stamp_unit == "ns"
    if seconds is not None and seconds[1] is None and stated_ns:
        seconds = None  # only the rate says seconds, the header says ns: believed (module)
    if seconds is None:
        unit, divisor, said = stated_ns_unit(stamps_ns)
        if said:
            header = head.header
            stated = (
                f"the header, line {header.line}, states {header.names[0].lstrip('#').strip()}"
                if header is not None and stated_ns
                else "EuRoC's stamps are nanoseconds"
            )
            if divisor == 1e9:  # believed, as stated: said, never refused (nothing changed)
                report(
                    f"{source}: stamps read as nanoseconds ({stated}, {said}); Unix time "
                    "written as nanoseconds is read without this warning",
                    strict=False,
                    kind="stamp_units",
                    fixed=False,
                )
            else:
                report(
                    f"{source}: stamps read as {unit} and divided by "
                    f"1e{len(str(int(divisor))) - 1}, not 1e9 ({stated}, {said}); EuRoC stamps "
                    "are integer nanoseconds: write them as such",
                    strict=strict,
                    kind="stamp_units",
                )
        stamps_ns /= divisor  # now seconds (the table's own array, as each part)
    else:
        why, row = seconds
        if row is not None:
            why += f" at {table.where(np.array([row]))[0]}"
        if not named and head.columns == 8:
            msg = (
                f"{source}: stamps are not EuRoC's integer nanoseconds ({why}), and no "
                "header names the quaternion order: 8 columns of seconds look like a TUM "
                "file; choose the format (`format='tum'`)"
            )
            raise FormatError(msg)
        report(
            f"{source}: stamps read as seconds, not divided by 1e9 ({why}); EuRoC stamps "
            "are integer nanoseconds: write them as such, or choose the format "
            "(`format='tum'`) if the quaternion is x, y, z, w",
            strict=strict,
            kind="stamp_units",
        )
    return finish_trajectory(
        stamps_ns, xyz, wxyz[:, [1, 2, 3, 0]], source=table.source, where=table.where,
        strict=strict, owned=True, repeated_stamps=repeated_stamps,
    )  # fmt: skip


def euroc_stamps_ns(path: str | os.PathLike[str], traj: PoseTrajectory) -> Int64Array:
    """Return the nanoseconds :func:`write_euroc` writes to ``path``, refusing what it cannot.

    Read back as EuRoC readers (and evo) do (``float(ns) / 1e9``); one pose a nanosecond,
    or one is lost. A check of its own so that a caller writing several files refuses
    them all before writing any (``--save`` with ``--save-aligned``).

    Returns
    -------
    ndarray, shape (N,), int64, nanoseconds

    Raises
    ------
    ValidationError
        A stamp beyond int64 nanoseconds, or two stamps on one nanosecond (rows read
        with ``repeated_stamps="all"``), named with ``path``.
    """
    try:
        return traj.nanoseconds("ns", distinct=True)
    except ValidationError as err:  # it names the stamp; the file is said here
        named = err.within(f"{path}: ")
        raise named from err


def write_euroc(path: str | os.PathLike[str], traj: PoseTrajectory, *, force: bool = False) -> Path:
    """Write ``traj`` as an EuRoC CSV (8 columns, ``w`` first), atomically.

    Stamps are written in nanoseconds: a bag's exact ones when the trajectory keeps them
    (``stamps_ns``), else the roundest integer that reads back to the same seconds, the
    stamp as typed (``1305031098.6659`` s as ``1305031098665900000``, not the ``...032``
    of ``round(t * 1e9)``), so a round trip returns each stamp to within one float64 step
    (about 240 ns for stamps near 1.4e9 s) or the nanosecond, whichever is larger.

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
    ValidationError
        A stamp beyond int64 nanoseconds (+-9.2e9 s), or two stamps on the same
        nanosecond (read back, one pose would be lost), named with the file; nothing is
        written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(
    ...     stamps_s=[1.5], positions_xyz=[[1.0, 2.0, 3.0]], orientations_quat_xyzw=[[0, 0, 0, 1.0]]
    ... )
    >>> out = write_euroc(pathlib.Path(tempfile.mkdtemp()) / "data.csv", traj)
    >>> out.read_text().splitlines()[1]
    '1500000000,1.0,2.0,3.0,1.0,0.0,0.0,0.0'
    """
    check_poses_to_write(path, traj)
    stamps_ns = euroc_stamps_ns(path, traj)
    q = traj.orientations_quat_xyzw
    values = np.column_stack([traj.positions_xyz, q[:, 3], q[:, :3]])
    rows = format_rows(values, separator=",", leading_ints=stamps_ns)
    return write_atomic(path, EUROC_HEADER + "\n" + rows, force=force)
