"""Joint states (family ``sensor``, ROS 2's ``sensor_msgs``)."""

from __future__ import annotations

from robot_msgs.msg import Msg, message
from robot_msgs.std import Header

__all__ = ["JointState"]


@message("sensor/JointState", ros2="sensor_msgs/msg/JointState")
class JointState(Msg):
    """Measured state of named joints at one time: position, velocity and effort.

    Units per joint type: rad, rad/s, N·m for revolute joints; m, m/s, N for prismatic.
    WHY each list may be empty: as in ROS, a driver that does not measure velocity or
    effort sends none; a non-empty list must have one value per name.
    """

    header: Header = Header()
    name: tuple[str, ...] = ()
    position: tuple[float, ...] = ()
    velocity: tuple[float, ...] = ()
    effort: tuple[float, ...] = ()

    def _validate(self) -> None:
        for field_name in ("position", "velocity", "effort"):
            values = getattr(self, field_name)
            if values and len(values) != len(self.name):
                expected = f"0 or {len(self.name)} values (one per name)"
                raise self._fail(field=field_name, expected=expected, got=values)
