"""Time, duration and header: the stamps every other message carries (family ``std``)."""

from __future__ import annotations

from robot_msgs.msg import Msg, message
from robot_msgs.primitives import Int32, UInt32

__all__ = ["Duration", "Header", "Time"]

_NS_PER_S = 1_000_000_000


@message("std/Time", ros2="builtin_interfaces/msg/Time")
class Time(Msg):
    """A point in time as whole seconds plus nanoseconds, as ROS stamps it.

    WHY two integers and not one float: a float64 of seconds since 1970 keeps only
    about 0.2 µs, while sensor stamps are nanoseconds; ``sec`` + ``nanosec`` round-trips
    a ROS stamp exactly. ``sec`` (s) is an ``int32`` as in ROS; ``nanosec`` (ns) must lie in
    ``[0, 1e9)``, stricter than ROS's ``uint32``: WHY, so that one instant has one
    representation and ``to_ns`` orders stamps; :func:`robot_msgs.ros.from_ros` carries
    a larger ``nanosec`` into ``sec``, so legal ROS data loads all the same.
    """

    sec: Int32 = 0
    nanosec: UInt32 = 0

    def _validate(self) -> None:
        if not 0 <= self.nanosec < _NS_PER_S:
            raise self._fail(
                field="nanosec", expected="an int in [0, 1000000000)", got=self.nanosec
            )

    @classmethod
    def from_ns(cls, ns: int) -> Time:
        """Return the time ``ns`` nanoseconds after the epoch."""
        sec, nanosec = divmod(int(ns), _NS_PER_S)
        return cls(sec=sec, nanosec=nanosec)

    @classmethod
    def from_s(cls, seconds: float) -> Time:
        """Return the time ``seconds`` after the epoch, rounded to the nearest nanosecond."""
        return cls.from_ns(round(seconds * _NS_PER_S))

    def to_ns(self) -> int:
        """Nanoseconds since the epoch, exact."""
        return self.sec * _NS_PER_S + self.nanosec

    def to_s(self) -> float:
        """Seconds since the epoch as a float (loses precision below ~0.2 µs today)."""
        return self.sec + self.nanosec * 1e-9


@message("std/Duration", ros2="builtin_interfaces/msg/Duration")
class Duration(Msg):
    """A signed span of time as seconds plus nanoseconds in ``[0, 1e9)``, as ROS keeps it.

    WHY the ROS layout: ``JointTrajectoryPoint.time_from_start`` converts one to one.
    A negative duration has negative ``sec`` and non-negative ``nanosec``. ``sec`` (s) is
    an ``int32``; ``nanosec`` (ns) lies in ``[0, 1e9)`` as for :class:`Time` (the same
    reason, and the same carry in :func:`robot_msgs.ros.from_ros`).
    """

    sec: Int32 = 0
    nanosec: UInt32 = 0

    def _validate(self) -> None:
        if not 0 <= self.nanosec < _NS_PER_S:
            raise self._fail(
                field="nanosec", expected="an int in [0, 1000000000)", got=self.nanosec
            )

    @classmethod
    def from_s(cls, seconds: float) -> Duration:
        """Return the duration of ``seconds``, rounded to the nearest nanosecond."""
        sec, nanosec = divmod(round(seconds * _NS_PER_S), _NS_PER_S)
        return cls(sec=sec, nanosec=nanosec)

    def to_s(self) -> float:
        """Seconds as a float."""
        return self.sec + self.nanosec * 1e-9


@message("std/Header", ros2="std_msgs/msg/Header")
class Header(Msg):
    """When a measurement was taken and in which coordinate frame it is expressed.

    WHY both: a pose without its frame cannot be compared with another, and one
    without its stamp cannot be associated in time. ``frame_id`` is empty when unknown.
    """

    stamp: Time = Time()
    frame_id: str = ""
