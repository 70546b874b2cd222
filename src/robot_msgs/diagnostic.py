"""Health reports of hardware and software (family ``diagnostic``, ROS 2's ``diagnostic_msgs``)."""

from __future__ import annotations

from typing import ClassVar

from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Byte
from robot_msgs.std import Header

__all__ = ["DiagnosticArray", "DiagnosticStatus", "KeyValue"]


@message("diagnostic/KeyValue", ros2="diagnostic_msgs/msg/KeyValue")
class KeyValue(Msg):
    """One named reading of a diagnostic status, as text.

    Attributes
    ----------
    key : str
        The reading's name (``"temperature"``).
    value : str
        The reading, as text (``"41.5"``).
    """

    key: str = ""
    value: str = ""


@message("diagnostic/DiagnosticStatus", ros2="diagnostic_msgs/msg/DiagnosticStatus")
class DiagnosticStatus(Msg):
    """The state of one component: a level, a summary and readings.

    Attributes
    ----------
    level : byte
        :attr:`OK`, :attr:`WARN`, :attr:`ERROR` or :attr:`STALE` (ROS's constants).
    name, message, hardware_id : str
        The component, a human-readable summary, and the device it runs on.
    values : tuple of KeyValue
        Named readings of the component, as text (``"temperature"``: ``"41.5"``).
    """

    OK: ClassVar[int] = 0
    WARN: ClassVar[int] = 1
    ERROR: ClassVar[int] = 2
    STALE: ClassVar[int] = 3

    level: Byte = 0
    name: str = ""
    message: str = ""
    hardware_id: str = ""
    values: tuple[KeyValue, ...] = ()


@message("diagnostic/DiagnosticArray", ros2="diagnostic_msgs/msg/DiagnosticArray")
class DiagnosticArray(Msg):
    """The statuses of many components at one time, as ``/diagnostics`` carries them.

    Attributes
    ----------
    header : Header
        ``stamp`` is when the statuses were reported.
    status : tuple of DiagnosticStatus
        One per component reported on.
    """

    header: Header = Header()
    status: tuple[DiagnosticStatus, ...] = ()
