"""What a robot reports about itself: joint states, multi-DOF joints, battery, joystick."""

from __future__ import annotations

import math
from typing import ClassVar

from robot_msgs.geometry import Transform, Twist, Wrench
from robot_msgs.msg import Msg, message
from robot_msgs.msg.primitives import Float32, Int32, UInt8
from robot_msgs.std import Header

__all__ = ["BatteryState", "JointState", "Joy", "MultiDOFJointState"]


@message("sensor/JointState", ros2="sensor_msgs/msg/JointState")
class JointState(Msg):
    """Measured state of named joints at one time: position, velocity and effort.

    Units per joint type: rad, rad/s, N·m for revolute joints; m, m/s, N for prismatic.
    Each list may be empty; a non-empty list must have one value per name. NumPy arrays
    (what rosbags gives) are accepted and stored as tuples of floats.

    WHY each list may be empty: as in ROS, a driver that does not measure velocity or
    effort sends none.

    Attributes
    ----------
    header : Header
        When the joints were measured.
    name : tuple of str
        Joint names.
    position : tuple of float, rad or m
    velocity : tuple of float, rad/s or m/s
    effort : tuple of float, N·m or N
    """

    header: Header = Header()
    name: tuple[str, ...] = ()
    position: tuple[float, ...] = ()
    velocity: tuple[float, ...] = ()
    effort: tuple[float, ...] = ()

    def _validate(self) -> None:
        names = ("position", "velocity", "effort")
        self._check_empty_or_one_each(names, len(self.name), "values (one per name)")


@message("sensor/MultiDOFJointState", ros2="sensor_msgs/msg/MultiDOFJointState")
class MultiDOFJointState(Msg):
    """Measured state of multi-DOF joints (a floating base, a planar joint) at one time.

    Each non-empty list holds one entry per joint name, as in ROS.

    Attributes
    ----------
    header : Header
        When the joints were measured.
    joint_names : tuple of str
        The joints, in the order of the other lists.
    transforms : tuple of Transform, metres and unit quaternions
    twist : tuple of Twist, m/s and rad/s
    wrench : tuple of Wrench, N and N·m
    """

    header: Header = Header()
    joint_names: tuple[str, ...] = ()
    transforms: tuple[Transform, ...] = ()
    twist: tuple[Twist, ...] = ()
    wrench: tuple[Wrench, ...] = ()

    def _validate(self) -> None:
        names = ("transforms", "twist", "wrench")
        self._check_empty_or_one_each(names, len(self.joint_names), "entries (one per joint name)")


@message("sensor/BatteryState", ros2="sensor_msgs/msg/BatteryState")
class BatteryState(Msg):
    """A battery's charge and health, as power boards publish it; NaN where not measured.

    Attributes
    ----------
    header : Header
        When the battery was read.
    voltage : float32, V
    temperature : float32, °C
    current : float32, A (negative while discharging)
    charge, capacity, design_capacity : float32, Ah
    percentage : float32, 1 (charge / capacity, in ``[0, 1]``)
    power_supply_status, power_supply_health, power_supply_technology : uint8
        ROS's ``POWER_SUPPLY_*`` constants (:attr:`POWER_SUPPLY_STATUS_CHARGING`, ...).
    present : bool
        Whether a battery is in place.
    cell_voltage : tuple of float32, V (NaN for a cell not measured)
    cell_temperature : tuple of float32, °C
    location, serial_number : str
        Where the battery sits (a slot or connector name) and its serial number; empty when
        unknown.
    """

    # ROS's constants, as sensor_msgs/msg/BatteryState.msg names them.
    POWER_SUPPLY_STATUS_UNKNOWN: ClassVar[int] = 0
    POWER_SUPPLY_STATUS_CHARGING: ClassVar[int] = 1
    POWER_SUPPLY_STATUS_DISCHARGING: ClassVar[int] = 2
    POWER_SUPPLY_STATUS_NOT_CHARGING: ClassVar[int] = 3
    POWER_SUPPLY_STATUS_FULL: ClassVar[int] = 4
    POWER_SUPPLY_HEALTH_UNKNOWN: ClassVar[int] = 0
    POWER_SUPPLY_HEALTH_GOOD: ClassVar[int] = 1
    POWER_SUPPLY_HEALTH_OVERHEAT: ClassVar[int] = 2
    POWER_SUPPLY_HEALTH_DEAD: ClassVar[int] = 3
    POWER_SUPPLY_HEALTH_OVERVOLTAGE: ClassVar[int] = 4
    POWER_SUPPLY_HEALTH_UNSPEC_FAILURE: ClassVar[int] = 5
    POWER_SUPPLY_HEALTH_COLD: ClassVar[int] = 6
    POWER_SUPPLY_HEALTH_WATCHDOG_TIMER_EXPIRE: ClassVar[int] = 7
    POWER_SUPPLY_HEALTH_SAFETY_TIMER_EXPIRE: ClassVar[int] = 8
    POWER_SUPPLY_TECHNOLOGY_UNKNOWN: ClassVar[int] = 0
    POWER_SUPPLY_TECHNOLOGY_NIMH: ClassVar[int] = 1
    POWER_SUPPLY_TECHNOLOGY_LION: ClassVar[int] = 2
    POWER_SUPPLY_TECHNOLOGY_LIPO: ClassVar[int] = 3
    POWER_SUPPLY_TECHNOLOGY_LIFE: ClassVar[int] = 4
    POWER_SUPPLY_TECHNOLOGY_NICD: ClassVar[int] = 5
    POWER_SUPPLY_TECHNOLOGY_LIMN: ClassVar[int] = 6
    # Short names of the status constants (kept: code written before the ROS names).
    STATUS_UNKNOWN: ClassVar[int] = 0
    STATUS_CHARGING: ClassVar[int] = 1
    STATUS_DISCHARGING: ClassVar[int] = 2
    STATUS_NOT_CHARGING: ClassVar[int] = 3
    STATUS_FULL: ClassVar[int] = 4

    header: Header = Header()
    voltage: Float32 = math.nan
    temperature: Float32 = math.nan
    current: Float32 = math.nan
    charge: Float32 = math.nan
    capacity: Float32 = math.nan
    design_capacity: Float32 = math.nan
    percentage: Float32 = math.nan
    power_supply_status: UInt8 = 0
    power_supply_health: UInt8 = 0
    power_supply_technology: UInt8 = 0
    present: bool = True
    cell_voltage: tuple[Float32, ...] = ()
    cell_temperature: tuple[Float32, ...] = ()
    location: str = ""
    serial_number: str = ""


@message("sensor/Joy", ros2="sensor_msgs/msg/Joy")
class Joy(Msg):
    """A joystick or gamepad's state: what teleoperation reads.

    Attributes
    ----------
    header : Header
        When the device was read.
    axes : tuple of float32, 1 (each in ``[-1, 1]``)
    buttons : tuple of int32 (1 pressed, 0 not)
    """

    header: Header = Header()
    axes: tuple[Float32, ...] = ()
    buttons: tuple[Int32, ...] = ()
