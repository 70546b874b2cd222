"""Latitude/longitude/altitude text files: ``t lat lon alt`` a line, read into metres.

The layout (format ``lla``, extension ``.lla`` or ``--format lla``): stamp in seconds,
latitude and longitude in degrees (WGS-84), altitude in metres above the WGS-84
ellipsoid (what GNSS receivers and ``sensor_msgs/NavSatFix`` give; not above mean sea
level). Fields are separated by spaces, tabs or commas; ``#`` starts a comment; a first
line of column names without ``#`` is a header. There is no orientation: the poses get
identity rotations, with a warning, so compare them with ``translation`` or
``point_distance`` (or the along/cross-track and vertical components).

Positions are metres in a local ENU frame at ``origin`` (default the first row) or in a
projected CRS (``crs``, via PyProj): :mod:`robot_msgs.io.geodetic`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.io.clean import finish_trajectory, no_orientation
from robot_msgs.io.geodetic import metric_from_geodetic
from robot_msgs.io.table import read_table

if TYPE_CHECKING:
    import os

    from robot_msgs.io.clean import RepeatedStamps
    from robot_msgs.io.table import Table
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["LLA_COLUMNS", "read_lla", "read_lla_rows"]

#: The columns of an ``lla`` file, in file order.
LLA_COLUMNS = ("t", "lat", "lon", "alt")


def read_lla_rows(path: str | os.PathLike[str]) -> Table:
    r"""Read the stamps ``(N,)`` s and ``(lat, lon, alt)`` rows ``(N, 3)`` of a file, as parts.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "fix.lla"
    >>> _ = file.write_text("0.5, 47.1, 8.2, 410.0\n")
    >>> read_lla_rows(file).parts[1].tolist()
    [[47.1, 8.2, 410.0]]
    """
    return read_table(path, columns=LLA_COLUMNS, header=True, split=(1, 3))


def read_lla(
    path: str | os.PathLike[str],
    *,
    origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    strict: bool = False,
    repeated_stamps: RepeatedStamps = "first",
) -> PoseTrajectory:
    r"""Read an ``lla`` file (module docstring) as a trajectory in metres.

    Parameters
    ----------
    path : path-like
        The file: 4 numbers a line, ``t lat lon alt``.
    origin : (lat, lon, alt), optional
        The ENU origin, degrees and metres; default the first row's fix.
    crs : str, optional
        A projected CRS (``"EPSG:32632"``) instead of ENU; needs the ``geo`` extra.
    strict : bool
        Refuse data problems instead of fixing them with a warning.
    repeated_stamps : {"first", "last", "refuse"}
        Which of the rows with equal stamps is kept, or refuse them
        (:mod:`robot_msgs.io.clean`, rule 4).

    Returns
    -------
    PoseTrajectory
        ENU (``frame_id`` ``"enu"``) or CRS coordinates (``frame_id`` the CRS),
        identity rotations.

    Raises
    ------
    FormatError
        A line without 4 numbers (file, line, column, text), a latitude or longitude
        out of range (file and line), a bad CRS, a data problem refused.

    Examples
    --------
    >>> import tempfile, pathlib, warnings
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "fix.lla"
    >>> _ = file.write_text("# t lat lon alt\n0.0 0.0 0.0 0.0\n1.0 0.0 0.001 0.0\n")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     traj = read_lla(file)
    >>> traj.positions_xyz.round(3).tolist(), traj.frame_id
    ([[0.0, 0.0, 0.0], [111.319, 0.0, -0.001]], 'enu')
    """
    table = read_lla_rows(path)
    stamps, lla = table.parts
    where = table.where
    xyz, _ = metric_from_geodetic(lla, origin=origin, crs=crs, source=str(path), where=where)
    no_orientation(str(path), "latitude/longitude/altitude")
    quats = np.tile([0.0, 0.0, 0.0, 1.0], (stamps.shape[0], 1))
    return finish_trajectory(
        stamps,
        xyz,
        quats,
        source=str(path),
        where=where,
        strict=strict,
        repeated_stamps=repeated_stamps,
        frame_id=crs or "enu",
        owned=True,
    )
