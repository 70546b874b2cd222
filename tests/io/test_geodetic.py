"""WGS-84 latitude/longitude/altitude to ENU and to a projected CRS, against hand calculations."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.errors import FormatError
from robot_msgs.io.geodetic import WGS84_A_M, WGS84_F, enu_from_geodetic, metric_from_geodetic

E2 = WGS84_F * (2.0 - WGS84_F)


def meridian_arc_m(lat0_deg: float, lat1_deg: float) -> float:
    """∫ M(φ) dφ, M = a (1 - e²) / (1 - e² sin² φ)^(3/2): the north-south arc, by quadrature."""
    integrate = pytest.importorskip("scipy.integrate")
    value, _ = integrate.quad(
        lambda p: WGS84_A_M * (1 - E2) / (1 - E2 * math.sin(p) ** 2) ** 1.5,
        math.radians(lat0_deg),
        math.radians(lat1_deg),
        epsabs=1e-12,
    )
    return float(value)


def test_east_on_the_equator_is_a_sin_dlon_and_curves_down() -> None:
    # Origin (0, 0, 0): X = a cos λ, Y = a sin λ, Z = 0, so e = a sin λ, n = 0,
    # u = a (cos λ - 1).
    dlon = math.radians(0.001)
    enu = enu_from_geodetic(np.array([[0.0, 0.001, 0.0]]), (0.0, 0.0, 0.0))[0]
    assert enu == pytest.approx(
        [WGS84_A_M * math.sin(dlon), 0.0, WGS84_A_M * (math.cos(dlon) - 1)], abs=1e-9
    )


def test_north_at_45_degrees_is_the_meridian_arc() -> None:
    # The chord differs from the arc by arc * Δ²/24 and is tilted by Δ/2 from the origin's
    # north: 1e-9 m at 0.001 deg.
    enu = enu_from_geodetic(np.array([[45.001, 8.0, 0.0]]), (45.0, 8.0, 0.0))[0]
    assert enu[0] == pytest.approx(0.0, abs=1e-9)
    assert enu[1] == pytest.approx(meridian_arc_m(45.0, 45.001), abs=1e-8)
    assert enu[1] == pytest.approx(111.1318, abs=1e-4)  # about 111.13 km a degree at 45°


def test_height_is_up_and_a_large_altitude_stays_exact() -> None:
    enu = enu_from_geodetic(np.array([[47.3, 8.5, 612.25]]), (47.3, 8.5, 500.0))[0]
    assert enu == pytest.approx([0.0, 0.0, 112.25], abs=2e-9)


def test_utm_on_the_central_meridian_is_its_false_easting_and_scaled_arc() -> None:
    pytest.importorskip("pyproj")
    # UTM zone 32N: central meridian 9 deg E, false easting 500 km, scale 0.9996 there;
    # on the central meridian the northing is 0.9996 times the arc from the equator.
    xyz, origin = metric_from_geodetic(
        np.array([[0.0, 9.0, 10.0], [45.0, 9.0, 20.0]]), crs="EPSG:32632"
    )
    assert origin is None
    assert xyz[0] == pytest.approx([500000.0, 0.0, 10.0], abs=1e-6)
    assert xyz[1] == pytest.approx([500000.0, 0.9996 * meridian_arc_m(0.0, 45.0), 20.0], abs=1e-4)


@pytest.mark.parametrize(
    ("lla", "kwargs", "match"),
    [
        ([[91.0, 0.0, 0.0]], {}, r"row 1: latitude 91.0 deg outside -90 .. 90"),
        ([[0.0, 400.0, 0.0]], {}, r"longitude 400.0 deg outside -360 .. 360"),
        ([[0.0, 0.0, 0.0]], {"origin": (0.0, 0.0, 0.0), "crs": "EPSG:32632"}, r"not both"),
        ([[0.0, 0.0, 0.0]], {"crs": "EPSG:4326"}, r"is not a projected CRS"),
        ([[0.0, 0.0, 0.0]], {"crs": "EPSG:0"}, r"unknown coordinate reference system"),
        ([[math.nan, 0.0, 0.0]], {}, r"no finite latitude, longitude and altitude"),
    ],
)
def test_bad_coordinates_and_crs_are_refused(
    lla: list[list[float]], kwargs: dict[str, object], match: str
) -> None:
    if "crs" in kwargs and "origin" not in kwargs:
        pytest.importorskip("pyproj")
    with pytest.raises(FormatError, match=match):
        metric_from_geodetic(np.array(lla), source="fix.lla", **kwargs)  # type: ignore[arg-type]
