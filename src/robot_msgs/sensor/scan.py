"""Range scans and point clouds, with NumPy views of the points (``sensor_msgs``)."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, ClassVar

import msgspec
import numpy as np

from robot_msgs.geometry import Point32
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg.primitives import Float32, Ros, UInt32
from robot_msgs.std import Header, _zeros
from robot_msgs.typing import Float32Array, Float64Array, UInt8Array

__all__ = [
    "ChannelFloat32",
    "LaserEcho",
    "LaserScan",
    "MultiEchoLaserScan",
    "PointCloud",
    "PointCloud2",
    "PointField",
]


@message("sensor/LaserScan", ros2="sensor_msgs/msg/LaserScan")
class LaserScan(Msg):
    """One sweep of a planar laser scanner: a range per beam angle.

    Attributes
    ----------
    header : Header
        ``stamp`` is the first beam's time; angles are about ``frame_id``'s z axis, from x.
    angle_min, angle_max, angle_increment : float32, radians
    time_increment : float32, seconds between beams
    scan_time : float32, seconds between scans
    range_min, range_max : float32, metres
    ranges : ndarray, shape (N,), float32, metres
        Values outside ``[range_min, range_max]`` (and ``inf``/NaN) are no return, as ROS says.
    intensities : ndarray, shape (N,) or (0,), float32, device units
    """

    header: Header = Header()
    angle_min: Float32 = 0.0
    angle_max: Float32 = 0.0
    angle_increment: Float32 = 0.0
    time_increment: Float32 = 0.0
    scan_time: Float32 = 0.0
    range_min: Float32 = 0.0
    range_max: Float32 = 0.0
    ranges: Annotated[Float32Array, Shape("N")] = field(default_factory=_zeros("f4"))
    intensities: Annotated[Float32Array, Shape("I")] = field(default_factory=_zeros("f4"))

    def _validate(self) -> None:
        self._check_empty_or_one_each(
            ("intensities",), self.ranges.size, "intensities (one per range)"
        )

    def angles_rad(self) -> Float64Array:
        """Return each beam's angle, ``angle_min + i * angle_increment``: ``(N,)`` float64, rad.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> example("sensor/LaserScan").angles_rad().tolist()
        [-0.5, 0.0, 0.5, 1.0]
        """
        i = np.arange(self.ranges.size, dtype=np.float64)
        out: Float64Array = self.angle_min + i * self.angle_increment
        return out


@message("sensor/PointField", ros2="sensor_msgs/msg/PointField")
class PointField(Msg):
    """One field of a point cloud's points: name, byte offset, type and count.

    Attributes
    ----------
    name : str
        ``"x"``, ``"y"``, ``"z"``, ``"intensity"``, ``"rgb"``...
    offset : uint32, bytes from the start of the point
    datatype : uint8
        :attr:`INT8` ... :attr:`FLOAT64` (ROS's constants); :data:`DTYPES` maps them.
    count : uint32
        Elements in the field (1 for a scalar).
    """

    INT8: ClassVar[int] = 1
    UINT8: ClassVar[int] = 2
    INT16: ClassVar[int] = 3
    UINT16: ClassVar[int] = 4
    INT32: ClassVar[int] = 5
    UINT32: ClassVar[int] = 6
    FLOAT32: ClassVar[int] = 7
    FLOAT64: ClassVar[int] = 8
    #: NumPy type of each ``datatype``, in ROS's order.
    DTYPES: ClassVar[dict[int, str]] = {
        1: "i1", 2: "u1", 3: "i2", 4: "u2", 5: "i4", 6: "u4", 7: "f4", 8: "f8"
    }  # fmt: skip

    name: str = ""
    offset: UInt32 = 0
    datatype: Annotated[int, Ros("uint8"), msgspec.Meta(ge=1, le=8)] = 0  # 0 is no type
    count: UInt32 = 1


#: Bytes of one element of each ``PointField.datatype``.
_ITEMSIZE = {k: np.dtype(v).itemsize for k, v in PointField.DTYPES.items()}


@message("sensor/PointCloud2", ros2="sensor_msgs/msg/PointCloud2")
class PointCloud2(Msg):
    """A point cloud in ROS's packed binary layout, as lidars and depth cameras publish it.

    Attributes
    ----------
    header : Header
        When the cloud was measured, and the frame its points are in.
    height, width : uint32
        Rows and points per row (``height == 1`` for an unordered cloud).
    fields : tuple of PointField
        Each value of a point: its name, byte offset in the point, type and count.
    is_bigendian : bool
        Whether ``data`` holds multi-byte values big-endian.
    point_step, row_step : uint32, bytes per point and per row
    data : ndarray, shape (B,), uint8
        ``B = row_step * height`` bytes; :meth:`points` is the structured NumPy view and
        :meth:`xyz` the ``(N, 3)`` positions in metres.
    is_dense : bool
        True if no point is invalid (NaN).
    """

    header: Header = Header()
    height: UInt32 = 0
    width: UInt32 = 0
    fields: tuple[PointField, ...] = ()
    is_bigendian: bool = False
    point_step: UInt32 = 0
    row_step: UInt32 = 0
    data: Annotated[UInt8Array, Shape("B")] = field(default_factory=_zeros("u1"))
    is_dense: bool = False

    def _validate(self) -> None:
        if self.data.size != self.row_step * self.height:
            expected = f"row_step * height = {self.row_step * self.height} bytes"
            raise self._fail(field="data", expected=expected, got=self.data)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            i = next(i for i, name in enumerate(names) if name in names[:i])
            expected = (
                f"field names used once ({names[i]!r} is also fields[{names.index(names[i])}])"
            )
            raise self._fail(field=f"fields[{i}].name", expected=expected, got=names[i])
        for i, f in enumerate(self.fields):
            end = f.offset + _ITEMSIZE[f.datatype] * f.count
            if end > self.point_step:
                expected = f"a field within point_step = {self.point_step} bytes"
                raise self._fail(field=f"fields[{i}]", expected=expected, got=f)

    def points(self) -> np.ndarray[Any, Any]:
        """Return the points as a structured array, ``shape (height * width,)``, one field each.

        Fields with ``count != 1`` are sub-arrays (of no element for ``count == 0``);
        padding between fields and at row ends is skipped. Read-only: a view of ``data``
        where the rows have no padding, else a copy.

        Raises
        ------
        ValidationError
            Rows shorter than ``width`` points (``row_step < width * point_step``), no
            ``point_step`` for the points, or fields NumPy cannot lay out in ``point_step``
            bytes (overlapping, or past it).

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> cloud = example("sensor/PointCloud2")
        >>> cloud.points()["intensity"].tolist()
        [10.0, 20.0, 30.0]
        """
        row_bytes = self.width * self.point_step
        if self.height and row_bytes > self.row_step:  # read so, points ran across rows
            expected = f"row_step >= width * point_step = {row_bytes} bytes"
            raise self._fail(field="row_step", expected=expected, got=self.row_step)
        if self.point_step == 0 and self.width * self.height:
            expected = f"point_step > 0 for {self.width * self.height} points"
            raise self._fail(field="point_step", expected=expected, got=self.point_step)
        order = ">" if self.is_bigendian else "<"
        try:
            dtype = np.dtype(
                {
                    "names": [f.name for f in self.fields],
                    # count 0 is a field of no elements (0 bytes, as _validate counts it),
                    # not one element: it read the next field's bytes as its value
                    "formats": [
                        (order + PointField.DTYPES[f.datatype], (f.count,))
                        if f.count != 1
                        else order + PointField.DTYPES[f.datatype]
                        for f in self.fields
                    ],
                    "offsets": [f.offset for f in self.fields],
                    "itemsize": self.point_step,
                }
            )
        except ValueError as err:  # NumPy's: fields overlapping or past point_step, a huge step
            expected = f"fields NumPy can lay out in point_step = {self.point_step} bytes ({err})"
            raise self._fail(field="fields", expected=expected, got=self.fields) from err
        if self.width * self.height == 0:  # no bytes to view (a point_step 0 cannot be)
            out: np.ndarray[Any, Any] = np.zeros(0, dtype)
        else:
            rows = self.data.reshape(self.height, self.row_step)[:, :row_bytes]
            out = np.ascontiguousarray(rows).reshape(-1).view(dtype)
        out.setflags(write=False)
        return out

    def xyz(self) -> Float64Array:
        """Return the ``x``, ``y``, ``z`` fields as ``shape (N, 3), float64, metres``.

        Examples
        --------
        >>> from robot_msgs.msg.catalog import example
        >>> example("sensor/PointCloud2").xyz()[2].tolist()
        [0.0, 0.0, 1.5]

        Raises
        ------
        ValidationError
            No field ``x``, ``y`` or ``z``, one of them with a ``count`` other than 1, or
            what :meth:`points` refuses.
        """
        names = [f.name for f in self.fields]
        if not {"x", "y", "z"} <= set(names):
            raise self._fail(field="fields", expected="fields named x, y and z", got=names)
        for i, f in enumerate(self.fields):
            if f.name in ("x", "y", "z") and f.count != 1:  # NumPy's ValueError escaped
                expected = f"one element in field {f.name!r} (count 1) for positions"
                raise self._fail(field=f"fields[{i}].count", expected=expected, got=f.count)
        points = self.points()
        out: Float64Array = np.stack(
            [points[k].astype(np.float64) for k in ("x", "y", "z")], axis=1
        )
        return out


@message("sensor/LaserEcho", ros2="sensor_msgs/msg/LaserEcho")
class LaserEcho(Msg):
    """The returns of one beam of a multi-echo scanner, nearest first.

    Attributes
    ----------
    echoes : ndarray, shape (E,), float32, metres (ranges) or device units (intensities)
    """

    echoes: Annotated[Float32Array, Shape("E")] = field(default_factory=_zeros("f4"))


@message("sensor/MultiEchoLaserScan", ros2="sensor_msgs/msg/MultiEchoLaserScan")
class MultiEchoLaserScan(Msg):
    """A planar scan whose beams may return several echoes (glass, rain, vegetation).

    Attributes
    ----------
    header : Header
        As :class:`LaserScan`'s.
    angle_min, angle_max, angle_increment : float32, radians
    time_increment : float32, seconds between beams
    scan_time : float32, seconds between scans
    range_min, range_max : float32, metres
    ranges : tuple of LaserEcho
        One per beam: its echoes' ranges, metres.
    intensities : tuple of LaserEcho
        Empty, or one per beam: its echoes' intensities, device units.
    """

    header: Header = Header()
    angle_min: Float32 = 0.0
    angle_max: Float32 = 0.0
    angle_increment: Float32 = 0.0
    time_increment: Float32 = 0.0
    scan_time: Float32 = 0.0
    range_min: Float32 = 0.0
    range_max: Float32 = 0.0
    ranges: tuple[LaserEcho, ...] = ()
    intensities: tuple[LaserEcho, ...] = ()

    def _validate(self) -> None:
        self._check_empty_or_one_each(
            ("intensities",), len(self.ranges), "intensity echoes (one per beam)"
        )


@message("sensor/ChannelFloat32", ros2="sensor_msgs/msg/ChannelFloat32")
class ChannelFloat32(Msg):
    """One named value per point of a :class:`PointCloud` (``"intensity"``, ``"rgb"``...).

    Attributes
    ----------
    name : str
        What the channel holds (``"intensity"``, ``"rgb"``...).
    values : ndarray, shape (N,), float32, the channel's unit
    """

    name: str = ""
    values: Annotated[Float32Array, Shape("N")] = field(default_factory=_zeros("f4"))


@message("sensor/PointCloud", ros2="sensor_msgs/msg/PointCloud")
class PointCloud(Msg):
    """A point cloud in ROS's first layout: points and per-point channels (deprecated in ROS).

    :class:`PointCloud2` is the packed layout that replaced it.

    WHY carried: older drivers and bags still publish it.

    Attributes
    ----------
    header : Header
        When the cloud was measured, and the frame its points are in.
    points : tuple of Point32, metres
    channels : tuple of ChannelFloat32
        Each with one value per point, as ROS requires.
    """

    header: Header = Header()
    points: tuple[Point32, ...] = ()
    channels: tuple[ChannelFloat32, ...] = ()

    def _validate(self) -> None:
        for i, channel in enumerate(self.channels):
            if channel.values.size != len(self.points):
                expected = f"{len(self.points)} values (one per point)"
                raise self._fail(
                    field=f"channels[{i}].values", expected=expected, got=channel.values
                )
