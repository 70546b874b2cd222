"""Point clouds: what ``points`` and ``xyz`` refuse, in robot_msgs' errors, and empty clouds."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.sensor import PointCloud2, PointField


def _field(name: str, offset: int, count: int = 1) -> PointField:
    return PointField(name=name, offset=offset, datatype=PointField.FLOAT32, count=count)


XYZ = (_field("x", 0), _field("y", 4), _field("z", 8))


def test_rows_shorter_than_their_points_are_refused_not_read_across_rows() -> None:
    """Two rows of two 4-byte points in 6-byte rows read as 3 points, each row's second
    point running into the next row (width says 2 per row: 8 bytes a row)."""
    cloud = PointCloud2(
        height=2, width=2, point_step=4, row_step=6, fields=(_field("x", 0),),
        data=np.zeros(12, np.uint8),
    )  # fmt: skip
    said = r"^Expected row_step >= width \* point_step = 8 bytes, got int 6 - at `PointCloud2\.row_step`$"
    with pytest.raises(ValidationError, match=said):
        cloud.points()


@pytest.mark.parametrize(
    ("fields", "point_step", "said"),
    [
        ((_field("x", 0),), 2**31, r"point_step = 2147483648 bytes"),
    ],
)
def test_fields_numpy_cannot_lay_out_are_our_error(
    fields: tuple[PointField, ...], point_step: int, said: str
) -> None:
    """NumPy's ValueError escaped: a point_step past a C int. (A field of count 0 at the
    end of the point is no longer one: it has no element, see below.)"""
    cloud = PointCloud2(height=1, width=0, point_step=point_step, fields=fields)
    with pytest.raises(ValidationError, match=rf"Expected fields NumPy can lay out .*{said}"):
        cloud.points()


def test_points_without_a_point_step_and_xyz_without_xyz_are_refused() -> None:
    steps = PointCloud2(height=1, width=3)
    with pytest.raises(ValidationError, match=r"point_step > 0 for 3 points, got int 0"):
        steps.points()
    intensity = PointCloud2(
        height=1, width=1, point_step=4, row_step=4, fields=(_field("i", 0),),
        data=np.zeros(4, np.uint8),
    )  # fmt: skip
    with pytest.raises(
        ValidationError,
        match=r"^Expected fields named x, y and z, got list \['i'\] - at `PointCloud2\.fields`$",
    ):
        intensity.xyz()


def test_a_cloud_without_points_has_empty_points_and_positions() -> None:
    """The default cloud's points() raised NumPy's "size must be a divisor" (point_step 0)."""
    assert PointCloud2().points().shape == (0,)
    empty = PointCloud2(height=0, width=3, point_step=12, fields=XYZ)
    assert empty.xyz().shape == (0, 3)
    assert empty.points().dtype.names == ("x", "y", "z")


def test_a_field_of_count_0_holds_no_element_and_xyz_needs_count_1() -> None:
    """A field of count 0 was laid out as one element: 4 bytes of the next field read as
    its value, or, at the end of the point, 'requires 16 bytes' for a cloud whose
    _validate counts it as 0 bytes. xyz() of an x of count 2 let NumPy's ValueError out
    ('all input arrays must have the same shape')."""
    data = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], "<f4").view(np.uint8).reshape(-1)
    pad = PointField(name="pad", offset=12, datatype=PointField.FLOAT32, count=0)
    cloud = PointCloud2(
        height=1, width=2, point_step=12, row_step=24, fields=(*XYZ, pad), data=data
    )
    assert cloud.points()["pad"].shape == (2, 0)
    assert cloud.xyz().tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    empty_x = cloud.replace(fields=(_field("x", 0, count=0), _field("y", 4), _field("z", 8)))
    assert empty_x.points()["x"].shape == (2, 0)
    with pytest.raises(
        ValidationError,
        match=r"^Expected one element in field 'x' \(count 1\) for positions, got int 0 - at "
        r"`PointCloud2\.fields\[0\]\.count`$",
    ):
        empty_x.xyz()
    pair = cloud.replace(
        point_step=12, fields=(_field("x", 0, count=2), _field("y", 4), _field("z", 8))
    )
    with pytest.raises(ValidationError, match=r"field 'x' \(count 1\) for positions, got int 2"):
        pair.xyz()
