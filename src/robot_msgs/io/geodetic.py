r"""Latitude, longitude and altitude to metres: a local ENU frame on WGS-84, or a projected CRS.

GNSS receivers (``sensor_msgs/NavSatFix``) and many datasets give positions as geodetic
coordinates on the WGS-84 ellipsoid: latitude ``φ`` and longitude ``λ`` in degrees,
height ``h`` above the ellipsoid in metres. Trajectory evaluation needs metres in a
Cartesian frame. The default is a local east-north-up frame at a stated origin
``(φ₀, λ₀, h₀)``: each point goes to Earth-centred, Earth-fixed coordinates,

.. math::

    N(\varphi) = \frac{a}{\sqrt{1 - e^2 \sin^2\varphi}}, \quad
    \begin{aligned}
    X &= (N + h) \cos\varphi \cos\lambda \\
    Y &= (N + h) \cos\varphi \sin\lambda \\
    Z &= (N (1 - e^2) + h) \sin\varphi
    \end{aligned}

(``a = 6378137 m``, ``f = 1 / 298.257223563``, ``e² = f (2 - f)``; NIMA TR8350.2, the
WGS-84 definition), and the difference from the origin is turned into ENU,

.. math::

    \begin{pmatrix} e \\ n \\ u \end{pmatrix} =
    \begin{pmatrix}
    -\sin\lambda_0 & \cos\lambda_0 & 0 \\
    -\sin\varphi_0 \cos\lambda_0 & -\sin\varphi_0 \sin\lambda_0 & \cos\varphi_0 \\
    \cos\varphi_0 \cos\lambda_0 & \cos\varphi_0 \sin\lambda_0 & \sin\varphi_0
    \end{pmatrix}
    \begin{pmatrix} X - X_0 \\ Y - Y_0 \\ Z - Z_0 \end{pmatrix}.

The differences are taken in float64 ECEF coordinates of about 6.4e6 m, so local
positions keep ~1e-9 m. ENU is the frame of REP 103 (``x`` east, ``y`` north, ``z`` up),
so the along/cross-track and vertical errors of :mod:`robot_msgs.evaluation.components`
apply as they are.

A projected coordinate reference system (an EPSG code such as ``EPSG:32632``, UTM zone
32N) instead gives easting and northing in that system and the ellipsoidal height,
through PyProj (the ``geo`` extra); large coordinates stay exact in float64 (1e-9 m at
1e7 m).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import FormatError
from robot_msgs.optional import require
from robot_msgs.rotations import matrix_times_rows
from robot_msgs.trajectory import POSITION_LIMIT_M

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "LATITUDE_BOUND_DEG",
    "LONGITUDE_BOUND_DEG",
    "WGS84_A_M",
    "WGS84_F",
    "check_geodetic",
    "ecef_from_geodetic",
    "enu_from_geodetic",
    "metric_from_geodetic",
]

#: WGS-84 semi-major axis, metres.
WGS84_A_M = 6378137.0
#: WGS-84 flattening.
WGS84_F = 1.0 / 298.257223563
_E2 = WGS84_F * (2.0 - WGS84_F)
#: The largest latitude and longitude a fix may have, degrees (longitudes to 360: 0 .. 360
#: is written as well as -180 .. 180).
LATITUDE_BOUND_DEG = 90.0
LONGITUDE_BOUND_DEG = 360.0


def check_geodetic(
    lla: Float64Array, *, source: str, where: Callable[[IntpArray], list[str]] | None = None
) -> None:
    """Refuse latitudes outside ±90 deg, longitudes outside ±360 deg (finite rows only).

    Altitudes beyond ``POSITION_LIMIT_M`` are refused too: an origin's made every other
    row's position past that limit, named at the other row's line.

    Raises
    ------
    FormatError
        The first such row is named: ``where(rows)`` gives its label (``line 12``),
        default ``row k`` counted from 1.

    Examples
    --------
    >>> check_geodetic(np.array([[95.0, 10.0, 0.0]]), source="a.lla")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: a.lla, row 1: latitude 95.0 deg outside -90 .. 90 \
(columns: latitude, longitude, altitude)
    """
    bounds = (
        ("latitude", LATITUDE_BOUND_DEG, "deg"),
        ("longitude", LONGITUDE_BOUND_DEG, "deg"),
        ("altitude", POSITION_LIMIT_M, "m"),
    )
    for column, (name, bound, unit) in enumerate(bounds):
        bad = np.abs(lla[:, column]) > bound
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            label = where(np.array([row]))[0] if where is not None else f"row {row + 1}"
            msg = (
                f"{source}, {label}: {name} {float(lla[row, column])!r} {unit} outside "
                f"{-bound:g} .. {bound:g} (columns: latitude, longitude, altitude)"
            )
            raise FormatError(msg)


def ecef_from_geodetic(lla: Float64Array) -> Float64Array:
    """Earth-centred, Earth-fixed positions ``(N, 3)`` m of WGS-84 ``(lat°, lon°, h m)`` rows.

    Examples
    --------
    >>> ecef_from_geodetic(np.array([[0.0, 90.0, 0.0]])).round(6) + 0.0
    array([[      0., 6378137.,       0.]])
    """
    lat = np.radians(lla[:, 0])
    lon = np.radians(lla[:, 1])
    h = lla[:, 2]
    sin_lat = np.sin(lat)
    n = WGS84_A_M / np.sqrt(1.0 - _E2 * sin_lat * sin_lat)
    out = np.empty((lla.shape[0], 3))
    out[:, 0] = (n + h) * np.cos(lat) * np.cos(lon)
    out[:, 1] = (n + h) * np.cos(lat) * np.sin(lon)
    out[:, 2] = (n * (1.0 - _E2) + h) * sin_lat
    return out


def enu_from_geodetic(lla: Float64Array, origin: tuple[float, float, float]) -> Float64Array:
    """Local east-north-up positions ``(N, 3)`` m at ``origin`` (lat°, lon°, h m), WGS-84.

    Examples
    --------
    One thousandth of a degree east on the equator is ``a sin(0.001°)`` east, and a
    little down (the ellipsoid curves away):

    >>> enu_from_geodetic(np.array([[0.0, 0.001, 0.0]]), (0.0, 0.0, 0.0)).round(6).tolist()
    [[111.319491, 0.0, -0.000971]]
    """
    lat0, lon0 = math.radians(origin[0]), math.radians(origin[1])
    d = ecef_from_geodetic(lla) - ecef_from_geodetic(np.array([origin], dtype=np.float64))
    sl, cl = math.sin(lon0), math.cos(lon0)
    sp, cp = math.sin(lat0), math.cos(lat0)
    turn = np.array([[-sl, cl, 0.0], [-sp * cl, -sp * sl, cp], [cp * cl, cp * sl, sp]])
    return matrix_times_rows(turn, d)


def metric_from_geodetic(
    lla: Float64Array,
    *,
    origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    source: str = "",
    where: Callable[[IntpArray], list[str]] | None = None,
) -> tuple[Float64Array, tuple[float, float, float] | None]:
    """Metric positions ``(N, 3)`` of geodetic rows: ENU at ``origin``, or ``crs`` coordinates.

    Parameters
    ----------
    lla : ndarray, shape (N, 3), float64
        Latitude and longitude in degrees, height above the WGS-84 ellipsoid in metres.
    origin : (lat, lon, h), optional
        The ENU origin; default the first finite row.
    crs : str, optional
        A projected CRS PyProj knows (``"EPSG:32632"``): easting and northing in it and
        the height, instead of ENU (then ``origin`` must be ``None``).
    source : str
        The file, for messages.
    where : callable, optional
        Row labels for messages (see :func:`check_geodetic`).

    Returns
    -------
    positions : ndarray, shape (N, 3), float64, metres
    origin : (lat, lon, h) or None
        The ENU origin used (``None`` with ``crs``).

    Raises
    ------
    FormatError
        Latitudes or longitudes out of range, no finite row, an ``origin`` out of range
        or not finite, both ``origin`` and ``crs``, or a CRS that is unknown or not
        projected.
    MissingDependencyError
        ``crs`` without PyProj.

    Examples
    --------
    >>> xyz, used = metric_from_geodetic(np.array([[47.0, 8.0, 500.0], [47.0, 8.0, 510.0]]))
    >>> xyz.round(6).tolist(), used
    ([[0.0, 0.0, 0.0], [0.0, 0.0, 10.0]], (47.0, 8.0, 500.0))
    """
    check_geodetic(lla, source=source, where=where)
    finite = np.isfinite(lla).all(axis=1)
    if not finite.any():
        msg = f"{source}: no finite latitude, longitude and altitude"
        raise FormatError(msg)
    if crs is not None:
        if origin is not None:
            msg = f"{source}: give an ENU origin or a projected CRS, not both"
            raise FormatError(msg)
        return _projected(lla, crs, source), None
    if origin is None:
        first = lla[int(np.flatnonzero(finite)[0])]
        origin = (float(first[0]), float(first[1]), float(first[2]))
    if not all(math.isfinite(v) for v in origin):  # every fix NaN: the file was blamed
        msg = (
            f"{source} (ENU origin): expected a finite latitude, longitude and altitude, "
            f"got {origin!r}"
        )
        raise FormatError(msg)
    check_geodetic(np.array([origin], dtype=np.float64), source=f"{source} (ENU origin)")
    return enu_from_geodetic(lla, origin), origin


def _projected(lla: Float64Array, crs: str, source: str) -> Float64Array:
    pyproj = require("pyproj", "geo", feature="projected coordinate systems (--crs)")
    try:
        target = pyproj.CRS.from_user_input(crs)
    except pyproj.exceptions.CRSError as err:
        msg = f"{source}: unknown coordinate reference system {crs!r} ({err})"
        raise FormatError(msg) from err
    if not target.is_projected:
        msg = f"{source}: {crs!r} ({target.name}) is not a projected CRS: choose one in metres"
        raise FormatError(msg)
    transformer = pyproj.Transformer.from_crs("EPSG:4326", target, always_xy=True)
    east, north = transformer.transform(lla[:, 1], lla[:, 0])
    out = np.empty((lla.shape[0], 3))
    out[:, 0], out[:, 1], out[:, 2] = east, north, lla[:, 2]
    return out
