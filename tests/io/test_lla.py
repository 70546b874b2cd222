"""lat/lon/alt files: read into ENU or a CRS, with the rows' errors named by line."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.io import geo_origin_of, read_lla, read_trajectory
from robot_msgs.io.geodetic import WGS84_A_M

if TYPE_CHECKING:
    from pathlib import Path


def write_lla(path: Path, rows: list[tuple[float, float, float, float]]) -> Path:
    path.write_text(
        "# t lat lon alt\n" + "".join(f"{t!r} {a!r} {b!r} {c!r}\n" for t, a, b, c in rows),
        encoding="utf-8",
    )
    return path


ROWS = [(0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.001, 0.0), (2.0, 0.0, 0.002, 5.0)]


def test_a_file_is_read_into_enu_at_its_first_fix_with_identity_rotations(tmp_path: Path) -> None:
    path = write_lla(tmp_path / "fix.lla", ROWS)
    with pytest.warns(DataWarning, match=r"has no orientation: identity rotations"):
        traj = read_trajectory(path)  # the .lla extension names the format
    e = WGS84_A_M * math.sin(math.radians(0.001))
    assert traj.positions_xyz[1] == pytest.approx(
        [e, 0.0, WGS84_A_M * (math.cos(math.radians(0.001)) - 1)], abs=1e-9
    )
    assert traj.orientations_quat_xyzw.tolist() == [[0.0, 0.0, 0.0, 1.0]] * 3
    assert traj.frame_id == "enu"
    assert geo_origin_of(path) == (0.0, 0.0, 0.0)


def test_a_stated_origin_moves_every_position(tmp_path: Path) -> None:
    path = write_lla(tmp_path / "fix.lla", ROWS)
    with pytest.warns(DataWarning):
        shifted = read_lla(path, origin=(0.0, -0.001, 0.0))
    assert shifted.positions_xyz[0, 0] == pytest.approx(
        WGS84_A_M * math.sin(math.radians(0.001)), abs=1e-9
    )


@pytest.mark.parametrize(
    "origin", [(math.nan, 0.0, 0.0), (0.0, math.inf, 0.0), (0.0, 0.0, -math.inf)]
)
def test_an_origin_that_is_not_finite_is_named_not_the_file(
    tmp_path: Path, origin: tuple[float, float, float]
) -> None:
    """read_lla(origin=(nan, 0, 0)) made every fix NaN, and the file was refused: "3 row(s)
    with NaN or infinite values (lines 2, 3, 4) ... the file is likely not what its format
    says" (the command line checks --geo-origin itself; the library did not)."""
    path = write_lla(tmp_path / "fix.lla", ROWS)
    shown = re.escape(repr(origin))
    with pytest.raises(FormatError, match=rf"fix\.lla \(ENU origin\): expected a finite .*{shown}"):
        read_lla(path, origin=origin)
    with pytest.raises(FormatError, match=r"\(ENU origin\): expected a finite"):
        read_trajectory(path, geo_origin=origin)


def test_a_bad_row_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.lla"
    path.write_text("# t lat lon alt\n0 47 8 400\n1 95 8 400\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.lla, line 3: latitude 95.0 deg outside -90"):
        read_lla(path)
    # The first row is the default origin: its altitude was blamed on line 2's position.
    path.write_text("0 47 8 1e300\n1 47 8.001 400\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.lla, line 1: altitude 1e\+300 m outside -1e\+150"):
        read_lla(path)
    path.write_text("0 47 8\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.lla"):
        read_lla(path)


def test_a_four_column_file_of_another_name_suggests_the_format(tmp_path: Path) -> None:
    path = write_lla(tmp_path / "fix.txt", ROWS)
    with pytest.raises(FormatError, match=r"or `format='lla'` for t lat lon alt"):
        read_trajectory(path)
    with pytest.warns(DataWarning):
        assert len(read_trajectory(path, format="lla")) == 3


def test_an_origin_is_refused_for_poses(tmp_path: Path) -> None:
    path = tmp_path / "a.tum"
    path.write_text("0 1 2 3 0 0 0 1\n1 1 2 3 0 0 0 1\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"applies to NavSatFix topics and lla files, not tum"):
        read_trajectory(path, geo_origin=(0.0, 0.0, 0.0))


def test_a_projected_crs_gives_large_exact_coordinates(tmp_path: Path) -> None:
    pytest.importorskip("pyproj")
    path = write_lla(tmp_path / "fix.lla", [(0.0, 47.0, 9.0, 400.0), (1.0, 47.0, 9.0, 401.0)])
    with pytest.warns(DataWarning):
        traj = read_lla(path, crs="EPSG:32632")
    assert traj.frame_id == "EPSG:32632"
    assert traj.positions_xyz[0, 0] == pytest.approx(500000.0, abs=1e-6)  # central meridian
    assert traj.positions_xyz[1, 2] - traj.positions_xyz[0, 2] == 1.0
    assert np.ptp(traj.positions_xyz[:, :2], axis=0).tolist() == [0.0, 0.0]
