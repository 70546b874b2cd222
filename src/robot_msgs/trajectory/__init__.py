"""Trajectories (family ``trajectory``): the array-backed pose trajectory and ROS's joint ones.

:class:`PoseTrajectory` (:mod:`robot_msgs.trajectory.pose`) is what evaluation works on;
the ``trajectory_msgs`` types (:mod:`robot_msgs.trajectory.joint`) are the ROS messages.
Each module is imported when one of its names is first used (:mod:`robot_msgs._lazy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.trajectory.joint import (
        JointTrajectory,
        JointTrajectoryPoint,
        MultiDOFJointTrajectory,
        MultiDOFJointTrajectoryPoint,
    )
    from robot_msgs.trajectory.pose import (
        POSITION_LIMIT_M,
        ROTATION_MATRIX_TOL,
        UNIT_QUATERNION_TOL,
        PoseTrajectory,
        ReadAs,
        rows_past_limit,
        stamps_s_from_ns,
    )

__all__ = [
    "POSITION_LIMIT_M",
    "ROTATION_MATRIX_TOL",
    "UNIT_QUATERNION_TOL",
    "JointTrajectory",
    "JointTrajectoryPoint",
    "MultiDOFJointTrajectory",
    "MultiDOFJointTrajectoryPoint",
    "PoseTrajectory",
    "ReadAs",
    "rows_past_limit",
    "stamps_s_from_ns",
]

__getattr__ = exports(
    __name__,
    {
        "joint": (
            "JointTrajectory",
            "JointTrajectoryPoint",
            "MultiDOFJointTrajectory",
            "MultiDOFJointTrajectoryPoint",
        ),
        "pose": (
            "POSITION_LIMIT_M",
            "ROTATION_MATRIX_TOL",
            "UNIT_QUATERNION_TOL",
            "PoseTrajectory",
            "ReadAs",
            "rows_past_limit",
            "stamps_s_from_ns",
        ),
    },
)
