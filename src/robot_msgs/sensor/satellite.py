"""Satellite navigation fixes and external time references (``sensor_msgs``)."""

from __future__ import annotations

import math
from dataclasses import field
from typing import ClassVar

from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Int8, MissingFloat, UInt8, UInt16
from robot_msgs.sensor.inertial import Covariance3
from robot_msgs.std import Header, Time, _zeros

__all__ = ["NavSatFix", "NavSatStatus", "TimeReference"]


@message("sensor/NavSatStatus", ros2="sensor_msgs/msg/NavSatStatus")
class NavSatStatus(Msg):
    """Whether a GNSS receiver has a fix, of which kind, and which constellations it uses.

    Attributes
    ----------
    status : int8
        :attr:`STATUS_NO_FIX` (-1), :attr:`STATUS_FIX`, :attr:`STATUS_SBAS_FIX`,
        :attr:`STATUS_GBAS_FIX` (ROS's constants).
    service : uint16
        Bit mask of :attr:`SERVICE_GPS`, :attr:`SERVICE_GLONASS`, :attr:`SERVICE_COMPASS`,
        :attr:`SERVICE_GALILEO`.
    """

    STATUS_NO_FIX: ClassVar[int] = -1
    STATUS_FIX: ClassVar[int] = 0
    STATUS_SBAS_FIX: ClassVar[int] = 1
    STATUS_GBAS_FIX: ClassVar[int] = 2
    SERVICE_GPS: ClassVar[int] = 1
    SERVICE_GLONASS: ClassVar[int] = 2
    SERVICE_COMPASS: ClassVar[int] = 4
    SERVICE_GALILEO: ClassVar[int] = 8

    status: Int8 = 0
    service: UInt16 = 0


@message("sensor/NavSatFix", ros2="sensor_msgs/msg/NavSatFix")
class NavSatFix(Msg):
    """A GNSS position fix on the WGS 84 ellipsoid, with its uncertainty.

    Attributes
    ----------
    header : Header
        ``stamp`` is the time of the fix, ``frame_id`` the antenna's frame.
    status : NavSatStatus
        Whether the fix is valid and augmented (``status``), and which satellite systems
        gave it (``service``).
    latitude, longitude : float, degrees (north and east positive)
    altitude : float, metres above the WGS 84 ellipsoid (NaN if unknown)
    position_covariance : ndarray, shape (3, 3), float64, m², east-north-up
    position_covariance_type : uint8
        :attr:`COVARIANCE_TYPE_UNKNOWN` ... :attr:`COVARIANCE_TYPE_KNOWN`.
    """

    COVARIANCE_TYPE_UNKNOWN: ClassVar[int] = 0
    COVARIANCE_TYPE_APPROXIMATED: ClassVar[int] = 1
    COVARIANCE_TYPE_DIAGONAL_KNOWN: ClassVar[int] = 2
    COVARIANCE_TYPE_KNOWN: ClassVar[int] = 3

    header: Header = Header()
    status: NavSatStatus = NavSatStatus()
    latitude: float = 0.0
    longitude: float = 0.0
    altitude: MissingFloat = math.nan
    position_covariance: Covariance3 = field(default_factory=_zeros("f8", (3, 3)))
    position_covariance_type: UInt8 = 0


@message("sensor/TimeReference", ros2="sensor_msgs/msg/TimeReference")
class TimeReference(Msg):
    """An external clock's time at a local stamp, to measure or correct clock offset.

    Attributes
    ----------
    header : Header
        ``stamp`` is the local time of the measurement (``frame_id`` unused).
    time_ref : Time
        The external clock's reading at that moment (GPS time, a PTP master).
    source : str
        Which clock, such as ``"gps"``.
    """

    header: Header = Header()
    time_ref: Time = Time()
    source: str = ""
