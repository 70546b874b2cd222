"""Stamps, headers, bare values and multi-arrays (family ``std``, ROS 2's ``std_msgs``).

Time, duration and header are what every other message carries; the bare values
(``Float64``, ``Bool``...) and multi-arrays (``Float64MultiArray``...) are what topics
carrying a plain number, flag or vector use.
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import field
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import msgspec
import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.msg import primitives as p
from robot_msgs.typing import (
    Float32Array,
    Float64Array,
    Int8Array,
    Int16Array,
    Int32Array,
    Int64Array,
    UInt8Array,
    UInt16Array,
    UInt32Array,
    UInt64Array,
)

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "Bool",
    "Byte",
    "ByteMultiArray",
    "Char",
    "ColorRGBA",
    "Duration",
    "Empty",
    "Float32",
    "Float32MultiArray",
    "Float64",
    "Float64MultiArray",
    "Header",
    "Int8",
    "Int8MultiArray",
    "Int16",
    "Int16MultiArray",
    "Int32",
    "Int32MultiArray",
    "Int64",
    "Int64MultiArray",
    "MultiArrayDimension",
    "MultiArrayLayout",
    "String",
    "Time",
    "UInt8",
    "UInt8MultiArray",
    "UInt16",
    "UInt16MultiArray",
    "UInt32",
    "UInt32MultiArray",
    "UInt64",
    "UInt64MultiArray",
]

_NS_PER_S = 1_000_000_000
#: ROS's ``uint32 nanosec``, kept below a second (one instant, one representation).
Nanoseconds = Annotated[int, p.Ros("uint32"), msgspec.Meta(ge=0, lt=_NS_PER_S)]
_SEQ_NOTE = (
    "A ROS 1 header's ``seq`` has no field here nor in ROS 2: "
    ":func:`robot_msgs.ros.from_ros` drops it, :func:`robot_msgs.io.read_records` keeps it."
)
_NANOSEC_NOTE = (
    "``nanosec`` must lie in ``[0, 1e9)``, stricter than ROS's ``uint32``; "
    ":func:`robot_msgs.ros.from_ros` carries a larger one into ``sec`` (the same instant)."
)


def _nearest_ns(seconds: float, where: str) -> int:
    """Return the integer nanoseconds nearest ``seconds``' exact value (ties to even).

    WHY not ``round(seconds * 1e9)``: the product is rounded to a float64 first, up to
    128 ns off past 1e9 s, so a stamp did not read back as itself.
    """
    given: object = seconds  # NumPy's float32 too: Fraction takes floats and rationals only
    decimal = sys.modules.get("decimal")  # a Decimal given has imported it: no import here
    if decimal is not None and isinstance(given, decimal.Decimal):
        # Not a numbers.Real, but read exactly, as it was before from_s took those alone
        if not given.is_finite():
            msg = f"Expected a finite number of seconds, got {given!r} - at `{where}`"
            raise ValidationError(msg)
        return round(Fraction(given) * _NS_PER_S)
    if isinstance(given, bool) or not isinstance(given, numbers.Real):  # True is no 1 s
        msg = (
            f"Expected a number of seconds, got {type(given).__name__} {given!r:.40} - at `{where}`"
        )
        raise ValidationError(msg)
    # A rational is finite: math.isfinite of 10**400 let OverflowError out (a review)
    if not isinstance(given, numbers.Rational) and not math.isfinite(given):
        msg = f"Expected a finite number of seconds, got {seconds!r} - at `{where}`"
        raise ValidationError(msg)
    exact = (
        Fraction(given) if isinstance(given, (float, numbers.Rational)) else Fraction(float(given))
    )
    return round(exact * _NS_PER_S)


@message("std/Time", ros2="builtin_interfaces/msg/Time")
class Time(Msg):
    """A point in time as whole seconds plus nanoseconds, as ROS stamps it.

    ``sec`` + ``nanosec`` round-trips a ROS stamp exactly. ``sec`` (s) is an ``int32`` as
    in ROS; ``nanosec`` (ns) must lie in ``[0, 1e9)``, stricter than ROS's ``uint32``;
    :func:`robot_msgs.ros.from_ros` carries a larger ``nanosec`` into ``sec``, so legal ROS
    data loads all the same.

    WHY two integers and not one float: a float64 of seconds since 1970 keeps only
    about 0.2 µs, while sensor stamps are nanoseconds. WHY ``nanosec`` below 1e9: so that
    one instant has one representation and ``to_ns`` orders stamps.

    Attributes
    ----------
    sec : int32, seconds since the epoch (1970-01-01 UTC, or the clock's own)
    nanosec : uint32, nanoseconds in ``[0, 1e9)``
    """

    ROS2_NOTES: ClassVar[tuple[str, ...]] = (_NANOSEC_NOTE,)

    sec: p.Int32 = 0
    nanosec: Nanoseconds = 0

    @classmethod
    def from_ns(cls, ns: int) -> Time:
        """Return the time ``ns`` nanoseconds after the epoch.

        Raises
        ------
        ValidationError
            ``ns`` is no whole number (NaN, inf, 1.5, a bool), or past ``int32`` seconds.
        """
        given: object = ns  # a float reaches here too: int() cut 1.5 and let NaN's error out
        # int() read the str "5" as 5 ns; True, an int, was 1 ns
        if isinstance(given, bool) or not isinstance(given, numbers.Real):
            msg = (
                f"Expected a whole number of nanoseconds, got {type(given).__name__} "
                f"{given!r:.40} - at `Time.from_ns`"
            )
            raise ValidationError(msg)
        whole = (  # Fraction(3, 2) is not; math.isfinite let Fraction(10**400)'s OverflowError out
            given.denominator == 1
            if isinstance(given, numbers.Rational)
            else math.isfinite(given) and math.floor(given) == given  # float32 1.5 is not
        )
        if not whole:
            msg = f"Expected a whole number of nanoseconds, got {ns!r} - at `Time.from_ns`"
            raise ValidationError(msg)
        sec, nanosec = divmod(int(ns), _NS_PER_S)
        return cls(sec=sec, nanosec=nanosec)

    @classmethod
    def from_s(cls, seconds: float) -> Time:
        """Return the time ``seconds`` after the epoch, rounded to the nearest nanosecond.

        Exactly the nearest to the float's value, so :meth:`to_s` gives ``seconds`` back
        (``round(seconds * 1e9)`` was up to 128 ns off for a stamp of today).

        Raises
        ------
        ValidationError
            ``seconds`` is NaN or infinite, a bool, or past ``int32`` seconds.

        Examples
        --------
        >>> Time.from_s(1305031102.19433)
        Time(sec=1305031102, nanosec=194329977)
        """
        return cls.from_ns(_nearest_ns(seconds, "Time.from_s"))

    def to_ns(self) -> int:
        """Nanoseconds since the epoch, exact."""
        return self.sec * _NS_PER_S + self.nanosec

    def to_s(self) -> float:
        """Seconds since the epoch: the float nearest ``to_ns() / 1e9`` (~0.2 µs apart today).

        Correctly rounded (Python divides integers so), so :meth:`from_s` of it gives this
        time back where floats are finer than a nanosecond, and it gives back the
        ``seconds`` of :meth:`from_s` where they are coarser. ``sec + nanosec * 1e-9`` was
        a float off for about one stamp in six below 5 s (``Time(nanosec=507069464)``
        gave 0.5070694640000001); the bag readers keep that sum, evo's arithmetic.

        Examples
        --------
        >>> Time(nanosec=507069464).to_s(), Time(sec=-1, nanosec=500_000_000).to_s()
        (0.507069464, -0.5)
        """
        return self.to_ns() / _NS_PER_S


@message("std/Duration", ros2="builtin_interfaces/msg/Duration")
class Duration(Msg):
    """A signed span of time as seconds plus nanoseconds in ``[0, 1e9)``, as ROS keeps it.

    A negative duration has negative ``sec`` and non-negative ``nanosec``. ``sec`` (s) is
    an ``int32``; ``nanosec`` (ns) lies in ``[0, 1e9)`` as for :class:`Time` (the same
    reason, and the same carry in :func:`robot_msgs.ros.from_ros`).

    WHY the ROS layout: ``JointTrajectoryPoint.time_from_start`` converts one to one.

    Attributes
    ----------
    sec : int32, seconds (negative for a negative span)
    nanosec : uint32, nanoseconds in ``[0, 1e9)``
    """

    ROS2_NOTES: ClassVar[tuple[str, ...]] = (_NANOSEC_NOTE,)

    sec: p.Int32 = 0
    nanosec: Nanoseconds = 0

    @classmethod
    def from_s(cls, seconds: float) -> Duration:
        """Return the duration of ``seconds``, rounded to the nearest nanosecond.

        Raises
        ------
        ValidationError
            ``seconds`` is NaN or infinite, a bool, or past ``int32`` seconds.
        """
        sec, nanosec = divmod(_nearest_ns(seconds, "Duration.from_s"), _NS_PER_S)
        return cls(sec=sec, nanosec=nanosec)

    def to_s(self) -> float:
        """Seconds: the float nearest the span (correctly rounded, as :meth:`Time.to_s`).

        Examples
        --------
        >>> Duration(sec=3, nanosec=823729238).to_s(), Duration.from_s(-0.3).to_s()
        (3.823729238, -0.3)
        """
        return (self.sec * _NS_PER_S + self.nanosec) / _NS_PER_S


@message("std/Header", ros2="std_msgs/msg/Header")
class Header(Msg):
    """When a measurement was taken and in which coordinate frame it is expressed.

    ``frame_id`` is empty when unknown.

    WHY both: a pose without its frame cannot be compared with another, and one
    without its stamp cannot be associated in time.

    Attributes
    ----------
    stamp : Time
        When the data was measured.
    frame_id : str
        The coordinate frame the data is expressed in (``""``: unknown).
    """

    ROS2_NOTES: ClassVar[tuple[str, ...]] = (_SEQ_NOTE,)

    stamp: Time = Time()
    frame_id: str = ""


@message("std/ColorRGBA", ros2="std_msgs/msg/ColorRGBA")
class ColorRGBA(Msg):
    """A colour for markers and displays: red, green, blue and opacity, each in ``[0, 1]``.

    Attributes
    ----------
    r, g, b : float32, 1 (fraction of full intensity)
    a : float32, 1 (0 transparent, 1 opaque)
    """

    r: p.Float32 = 0.0
    g: p.Float32 = 0.0
    b: p.Float32 = 0.0
    a: p.Float32 = 0.0


# The std_msgs primitives: one value named ``data``, for topics that carry a bare number,
# flag or text (a battery level, an enable switch, a mode name). The unit is the topic's.


@message("std/Bool", ros2="std_msgs/msg/Bool")
class Bool(Msg):
    """A bare flag, such as an enable switch.

    Attributes
    ----------
    data : bool
        The flag; what ``True`` means is the topic's (an enable switch: on).
    """

    data: bool = False


@message("std/Byte", ros2="std_msgs/msg/Byte")
class Byte(Msg):
    """A bare octet (ROS 2 ``byte``).

    Attributes
    ----------
    data : int in ``[0, 255]``
        The octet, as an unsigned number.
    """

    data: p.Byte = 0


@message("std/Char", ros2="std_msgs/msg/Char")
class Char(Msg):
    """A bare character code (ROS 2 ``char``, an octet).

    Attributes
    ----------
    data : int in ``[0, 255]``
        The character's code, an octet (ROS 2's ``char`` names no encoding).
    """

    data: p.Char = 0


@message("std/Empty", ros2="std_msgs/msg/Empty")
class Empty(Msg):
    """A message with no content: a trigger or heartbeat.

    WHY a field: an empty struct is not allowed in IDL, and the CDR bytes carry it.

    Attributes
    ----------
    structure_needs_at_least_one_member : uint8
        ROS 2's one field of an empty message; ROS writes 0, and whatever a bag holds is
        kept.
    """

    structure_needs_at_least_one_member: p.UInt8 = 0


@message("std/String", ros2="std_msgs/msg/String")
class String(Msg):
    """A bare text, such as a mode or state name.

    Attributes
    ----------
    data : str (UTF-8 on the wire)
        The text, any length (ROS 2's ``string`` is unbounded).
    """

    data: str = ""


@message("std/Float32", ros2="std_msgs/msg/Float32")
class Float32(Msg):
    """A bare single-precision number.

    Attributes
    ----------
    data : float32, the topic's unit
        The value, held to float32 when set: ``0.1`` is stored as 0.10000000149011612, as
        the wire carries it.
    """

    data: p.Float32 = 0.0


@message("std/Float64", ros2="std_msgs/msg/Float64")
class Float64(Msg):
    """A bare double-precision number, such as a setpoint.

    Attributes
    ----------
    data : float64, the topic's unit
    """

    data: float = 0.0


@message("std/Int8", ros2="std_msgs/msg/Int8")
class Int8(Msg):
    """A bare 8-bit signed integer.

    Attributes
    ----------
    data : int in ``[-128, 127]``
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.Int8 = 0


@message("std/Int16", ros2="std_msgs/msg/Int16")
class Int16(Msg):
    """A bare 16-bit signed integer.

    Attributes
    ----------
    data : int in ``[-32768, 32767]``
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.Int16 = 0


@message("std/Int32", ros2="std_msgs/msg/Int32")
class Int32(Msg):
    """A bare 32-bit signed integer.

    Attributes
    ----------
    data : int32
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.Int32 = 0


@message("std/Int64", ros2="std_msgs/msg/Int64")
class Int64(Msg):
    """A bare 64-bit signed integer, such as a counter.

    Attributes
    ----------
    data : int64
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.Int64 = 0


@message("std/UInt8", ros2="std_msgs/msg/UInt8")
class UInt8(Msg):
    """A bare 8-bit unsigned integer, such as a percentage.

    Attributes
    ----------
    data : int in ``[0, 255]``
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.UInt8 = 0


@message("std/UInt16", ros2="std_msgs/msg/UInt16")
class UInt16(Msg):
    """A bare 16-bit unsigned integer.

    Attributes
    ----------
    data : int in ``[0, 65535]``
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.UInt16 = 0


@message("std/UInt32", ros2="std_msgs/msg/UInt32")
class UInt32(Msg):
    """A bare 32-bit unsigned integer.

    Attributes
    ----------
    data : uint32
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.UInt32 = 0


@message("std/UInt64", ros2="std_msgs/msg/UInt64")
class UInt64(Msg):
    """A bare 64-bit unsigned integer.

    Attributes
    ----------
    data : uint64
        The value, in the topic's unit; one outside the type's range is refused on
        construction, not wrapped.
    """

    data: p.UInt64 = 0


# The std_msgs multi-arrays: a flat ``data`` array and a layout that says how to read it
# as a multi-dimensional one. ``Float64MultiArray`` is ros2_control's command topic.


@message("std/MultiArrayDimension", ros2="std_msgs/msg/MultiArrayDimension")
class MultiArrayDimension(Msg):
    """One dimension of a multi-array's layout.

    Attributes
    ----------
    label : str
        What the dimension indexes (``"joints"``, ``"rows"``).
    size : uint32
        Its length.
    stride : uint32
        The number of ``data`` values one step along it spans, this and all inner
        dimensions included (ROS's definition: ``dim[0].stride`` is the whole array).
    """

    label: str = ""
    size: p.UInt32 = 0
    stride: p.UInt32 = 0


@message("std/MultiArrayLayout", ros2="std_msgs/msg/MultiArrayLayout")
class MultiArrayLayout(Msg):
    """How a multi-array's flat ``data`` is laid out: dimensions, outermost first.

    Attributes
    ----------
    dim : tuple of MultiArrayDimension
        Empty for a plain vector.
    data_offset : uint32
        Values of ``data`` to skip before the array starts.
    """

    dim: tuple[MultiArrayDimension, ...] = ()
    data_offset: p.UInt32 = 0


def _zeros(dtype: str, shape: int | tuple[int, ...] = 0) -> Callable[[], np.ndarray[Any, Any]]:
    return lambda: np.zeros(shape, dtype=dtype)


@message("std/ByteMultiArray", ros2="std_msgs/msg/ByteMultiArray")
class ByteMultiArray(Msg):
    """Octets (ROS ``byte``, 0..255 here) with a layout.

    No rule ties the two fields: ROS states none.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array.
    data : ndarray, shape (N,), uint8
        Read-only (a list or ``bytes`` is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[UInt8Array, Shape("N"), p.Ros("byte")] = field(default_factory=_zeros("u1"))


@message("std/Int8MultiArray", ros2="std_msgs/msg/Int8MultiArray")
class Int8MultiArray(Msg):
    """Signed 8-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), int8
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Int8Array, Shape("N")] = field(default_factory=_zeros("i1"))


@message("std/UInt8MultiArray", ros2="std_msgs/msg/UInt8MultiArray")
class UInt8MultiArray(Msg):
    """Unsigned 8-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), uint8
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[UInt8Array, Shape("N")] = field(default_factory=_zeros("u1"))


@message("std/Int16MultiArray", ros2="std_msgs/msg/Int16MultiArray")
class Int16MultiArray(Msg):
    """Signed 16-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), int16
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Int16Array, Shape("N")] = field(default_factory=_zeros("i2"))


@message("std/UInt16MultiArray", ros2="std_msgs/msg/UInt16MultiArray")
class UInt16MultiArray(Msg):
    """Unsigned 16-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), uint16
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[UInt16Array, Shape("N")] = field(default_factory=_zeros("u2"))


@message("std/Int32MultiArray", ros2="std_msgs/msg/Int32MultiArray")
class Int32MultiArray(Msg):
    """Signed 32-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), int32
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Int32Array, Shape("N")] = field(default_factory=_zeros("i4"))


@message("std/UInt32MultiArray", ros2="std_msgs/msg/UInt32MultiArray")
class UInt32MultiArray(Msg):
    """Unsigned 32-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), uint32
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[UInt32Array, Shape("N")] = field(default_factory=_zeros("u4"))


@message("std/Int64MultiArray", ros2="std_msgs/msg/Int64MultiArray")
class Int64MultiArray(Msg):
    """Signed 64-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), int64
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Int64Array, Shape("N")] = field(default_factory=_zeros("i8"))


@message("std/UInt64MultiArray", ros2="std_msgs/msg/UInt64MultiArray")
class UInt64MultiArray(Msg):
    """Unsigned 64-bit integers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), uint64
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[UInt64Array, Shape("N")] = field(default_factory=_zeros("u8"))


@message("std/Float32MultiArray", ros2="std_msgs/msg/Float32MultiArray")
class Float32MultiArray(Msg):
    """Single-precision numbers with a layout, as :class:`Float64MultiArray`.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array (no ``dim``: a plain vector).
    data : ndarray, shape (N,), float32
        The values, flat, in the topic's unit; read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Float32Array, Shape("N")] = field(default_factory=_zeros("f4"))


@message("std/Float64MultiArray", ros2="std_msgs/msg/Float64MultiArray")
class Float64MultiArray(Msg):
    """Double-precision numbers with a layout, such as ros2_control commands.

    No rule ties the two fields: ROS states none.

    Attributes
    ----------
    layout : MultiArrayLayout
        How ``data`` is read as a multi-dimensional array.
    data : ndarray, shape (N,), float64, the topic's unit
        Read-only (a list is accepted).
    """

    layout: MultiArrayLayout = MultiArrayLayout()
    data: Annotated[Float64Array, Shape("N")] = field(default_factory=_zeros("f8"))
