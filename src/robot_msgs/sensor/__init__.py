"""What sensors measure (family ``sensor``, ROS 2's ``sensor_msgs``).

Joint and robot state (:mod:`~robot_msgs.sensor.state`), inertial sensing
(:mod:`~robot_msgs.sensor.inertial`), satellite fixes and time references
(:mod:`~robot_msgs.sensor.satellite`), cameras (:mod:`~robot_msgs.sensor.camera`), scans
and point clouds (:mod:`~robot_msgs.sensor.scan`), single environment readings
(:mod:`~robot_msgs.sensor.environment`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.sensor.camera import (
        ENCODINGS,
        CameraInfo,
        CompressedImage,
        DisparityImage,
        Image,
        RegionOfInterest,
    )
    from robot_msgs.sensor.environment import (
        FluidPressure,
        Illuminance,
        Range,
        RelativeHumidity,
        Temperature,
    )
    from robot_msgs.sensor.inertial import Imu, MagneticField
    from robot_msgs.sensor.satellite import NavSatFix, NavSatStatus, TimeReference
    from robot_msgs.sensor.scan import (
        ChannelFloat32,
        LaserEcho,
        LaserScan,
        MultiEchoLaserScan,
        PointCloud,
        PointCloud2,
        PointField,
    )
    from robot_msgs.sensor.state import BatteryState, JointState, Joy, MultiDOFJointState

__all__ = [
    "ENCODINGS",
    "BatteryState",
    "CameraInfo",
    "ChannelFloat32",
    "CompressedImage",
    "DisparityImage",
    "FluidPressure",
    "Illuminance",
    "Image",
    "Imu",
    "JointState",
    "Joy",
    "LaserEcho",
    "LaserScan",
    "MagneticField",
    "MultiDOFJointState",
    "MultiEchoLaserScan",
    "NavSatFix",
    "NavSatStatus",
    "PointCloud",
    "PointCloud2",
    "PointField",
    "Range",
    "RegionOfInterest",
    "RelativeHumidity",
    "Temperature",
    "TimeReference",
]

__getattr__ = exports(
    __name__,
    {
        "camera": (
            "ENCODINGS",
            "CameraInfo",
            "CompressedImage",
            "DisparityImage",
            "Image",
            "RegionOfInterest",
        ),
        "environment": (
            "FluidPressure",
            "Illuminance",
            "Range",
            "RelativeHumidity",
            "Temperature",
        ),
        "inertial": ("Imu", "MagneticField"),
        "satellite": ("NavSatFix", "NavSatStatus", "TimeReference"),
        "scan": (
            "ChannelFloat32",
            "LaserEcho",
            "LaserScan",
            "MultiEchoLaserScan",
            "PointCloud",
            "PointCloud2",
            "PointField",
        ),
        "state": ("BatteryState", "JointState", "Joy", "MultiDOFJointState"),
    },
)
