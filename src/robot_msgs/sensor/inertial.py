"""Inertial and magnetic sensing: IMUs and magnetometers (``sensor_msgs``)."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated

from robot_msgs.geometry import Quaternion, Vector3
from robot_msgs.msg import Msg, Shape, message
from robot_msgs.std import Header, _zeros
from robot_msgs.typing import Float64Array

__all__ = ["Covariance3", "Imu", "MagneticField"]

Covariance3 = Annotated[Float64Array, Shape(3, 3)]
"""A 3x3 covariance, row-major; ROS's flat ``float64[9]`` is accepted."""


@message("sensor/Imu", ros2="sensor_msgs/msg/Imu")
class Imu(Msg):
    """An inertial measurement: orientation, angular velocity and linear acceleration.

    As ROS defines it: a covariance of all zeros means "unknown"; a covariance whose
    ``[0, 0]`` is -1 means the quantity is not estimated (an IMU without orientation).

    Attributes
    ----------
    header : Header
        ``frame_id`` is the IMU's frame.
    orientation : Quaternion
        Of the IMU's frame in a fixed frame (unit); not estimated where
        ``orientation_covariance[0, 0]`` is -1.
    orientation_covariance : ndarray, shape (3, 3), float64, rad² (about x, y, z)
    angular_velocity : Vector3, rad/s
    angular_velocity_covariance : ndarray, shape (3, 3), float64, (rad/s)²
    linear_acceleration : Vector3, m/s² (gravity included)
    linear_acceleration_covariance : ndarray, shape (3, 3), float64, (m/s²)²
    """

    header: Header = Header()
    orientation: Quaternion = Quaternion()
    orientation_covariance: Covariance3 = field(default_factory=_zeros("f8", (3, 3)))
    angular_velocity: Vector3 = Vector3()
    angular_velocity_covariance: Covariance3 = field(default_factory=_zeros("f8", (3, 3)))
    linear_acceleration: Vector3 = Vector3()
    linear_acceleration_covariance: Covariance3 = field(default_factory=_zeros("f8", (3, 3)))


@message("sensor/MagneticField", ros2="sensor_msgs/msg/MagneticField")
class MagneticField(Msg):
    """A magnetometer's measurement of the magnetic field, as compasses use it.

    Attributes
    ----------
    header : Header
        When the field was measured; ``frame_id`` is the magnetometer's frame.
    magnetic_field : Vector3, tesla (not gauss)
    magnetic_field_covariance : ndarray, shape (3, 3), float64, T² (all zeros: unknown)
    """

    header: Header = Header()
    magnetic_field: Vector3 = Vector3()
    magnetic_field_covariance: Covariance3 = field(default_factory=_zeros("f8", (3, 3)))
