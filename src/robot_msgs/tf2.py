"""Transform trees (family ``tf2``, ROS 2's ``tf2_msgs``)."""

from __future__ import annotations

from robot_msgs.geometry import TransformStamped
from robot_msgs.msg import Msg, message

__all__ = ["TFMessage"]


@message("tf2/TFMessage", ros2="tf2_msgs/msg/TFMessage")
class TFMessage(Msg):
    """A batch of transforms, as published on ``/tf`` and ``/tf_static``.

    Each entry relates ``child_frame_id`` to ``header.frame_id`` at its own stamp;
    :func:`robot_msgs.io.read_bag` chains them into a trajectory (``/tf:parent.child``).

    Attributes
    ----------
    transforms : tuple of TransformStamped, metres and unit quaternions
    """

    transforms: tuple[TransformStamped, ...] = ()
