"""The ROS joint trajectories: ``trajectory_msgs`` (family ``trajectory``)."""

from __future__ import annotations

from robot_msgs.geometry import Transform, Twist
from robot_msgs.msg import Msg, message
from robot_msgs.std import Duration, Header

__all__ = [
    "JointTrajectory",
    "JointTrajectoryPoint",
    "MultiDOFJointTrajectory",
    "MultiDOFJointTrajectoryPoint",
]


@message("trajectory/JointTrajectoryPoint", ros2="trajectory_msgs/msg/JointTrajectoryPoint")
class JointTrajectoryPoint(Msg):
    """One waypoint of a joint trajectory: targets per joint and when to reach them.

    WHY ``time_from_start`` and not a stamp: a commanded trajectory is relative to
    when it starts executing.

    Attributes
    ----------
    positions : tuple of float, rad or m
    velocities : tuple of float, rad/s or m/s
    accelerations : tuple of float, rad/s² or m/s²
    effort : tuple of float, N·m or N
    time_from_start : Duration
        When the point is due, after the trajectory's ``header.stamp`` (as in ROS).
    """

    positions: tuple[float, ...] = ()
    velocities: tuple[float, ...] = ()
    accelerations: tuple[float, ...] = ()
    effort: tuple[float, ...] = ()
    time_from_start: Duration = Duration()


@message("trajectory/JointTrajectory", ros2="trajectory_msgs/msg/JointTrajectory")
class JointTrajectory(Msg):
    """A commanded motion of named joints: the signal a controller is asked to track.

    Every point's non-empty lists hold one value per joint name, as the ROS definition
    says. There is no rule on the order of ``time_from_start``;
    :func:`robot_msgs.control.joint_tracking` asks for increasing times where it needs them.

    WHY no rule on the order of ``time_from_start``: ROS's message has none (a
    controller refuses a non-increasing trajectory when it executes it, not when it
    receives it), so any trajectory recorded in a bag loads.

    Attributes
    ----------
    header : Header
        ``stamp`` is when the trajectory starts (0: now).
    joint_names : tuple of str
    points : tuple of JointTrajectoryPoint
    """

    header: Header = Header()
    joint_names: tuple[str, ...] = ()
    points: tuple[JointTrajectoryPoint, ...] = ()

    def _validate(self) -> None:
        _check_one_per_joint(self, ("positions", "velocities", "accelerations", "effort"), "values")


@message(
    "trajectory/MultiDOFJointTrajectoryPoint",
    ros2="trajectory_msgs/msg/MultiDOFJointTrajectoryPoint",
)
class MultiDOFJointTrajectoryPoint(Msg):
    """One waypoint of a multi-DOF trajectory: a transform (and rates) per joint.

    Attributes
    ----------
    transforms : tuple of Transform, metres and unit quaternions
    velocities : tuple of Twist, m/s and rad/s
    accelerations : tuple of Twist, m/s² and rad/s²
    time_from_start : Duration
    """

    transforms: tuple[Transform, ...] = ()
    velocities: tuple[Twist, ...] = ()
    accelerations: tuple[Twist, ...] = ()
    time_from_start: Duration = Duration()


@message("trajectory/MultiDOFJointTrajectory", ros2="trajectory_msgs/msg/MultiDOFJointTrajectory")
class MultiDOFJointTrajectory(Msg):
    """A commanded motion of multi-DOF joints (a floating base, a drone's pose) over time.

    Every point's non-empty lists hold one entry per joint name, as the ROS definition says.

    Attributes
    ----------
    header : Header
        ``frame_id`` is the frame of the points' transforms, ``stamp`` the time their
        ``time_from_start`` counts from (0: now).
    joint_names : tuple of str
        The joints, in the order of each point's lists.
    points : tuple of MultiDOFJointTrajectoryPoint
        The waypoints.
    """

    header: Header = Header()
    joint_names: tuple[str, ...] = ()
    points: tuple[MultiDOFJointTrajectoryPoint, ...] = ()

    def _validate(self) -> None:
        _check_one_per_joint(self, ("transforms", "velocities", "accelerations"), "entries")


def _check_one_per_joint(
    trajectory: JointTrajectory | MultiDOFJointTrajectory, lists: tuple[str, ...], items: str
) -> None:
    """Refuse a point whose non-empty ``lists`` lack one of ``items`` per joint name, as ROS."""
    n = len(trajectory.joint_names)
    for i, point in enumerate(trajectory.points):
        for name in lists:
            values = getattr(point, name)
            if values and len(values) != n:
                field, expected = f"points[{i}].{name}", f"0 or {n} {items} (one per joint name)"
                raise trajectory._fail(field=field, expected=expected, got=values)  # noqa: SLF001
