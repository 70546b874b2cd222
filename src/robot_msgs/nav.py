"""Odometry and paths (family ``nav``, ROS 2's ``nav_msgs``)."""

from __future__ import annotations

from robot_msgs.geometry import PoseStamped, PoseWithCovariance, TwistWithCovariance
from robot_msgs.msg import Msg, message
from robot_msgs.std import Header

__all__ = ["Odometry", "Path"]


@message("nav/Odometry", ros2="nav_msgs/msg/Odometry")
class Odometry(Msg):
    """An estimate of a body's pose and velocity, as odometry and SLAM nodes publish it.

    WHY two frames: the pose is given in ``header.frame_id`` (e.g. ``odom``) and the
    twist in ``child_frame_id`` (the body, e.g. ``base_link``), exactly as in ROS.
    """

    header: Header = Header()
    child_frame_id: str = ""
    pose: PoseWithCovariance = PoseWithCovariance()
    twist: TwistWithCovariance = TwistWithCovariance()


@message("nav/Path", ros2="nav_msgs/msg/Path")
class Path(Msg):
    """A sequence of stamped poses, as planners publish a plan.

    WHY a tuple of messages: it maps one to one onto ROS's ``Path``; for evaluation,
    convert to the array-backed :class:`~robot_msgs.trajectory.PoseTrajectory`.
    """

    header: Header = Header()
    poses: tuple[PoseStamped, ...] = ()
