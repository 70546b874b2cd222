"""The simulated clock (family ``rosgraph``, ROS 2's ``rosgraph_msgs``).

``/clock`` carries :class:`Clock` when nodes run on simulation time
(``use_sim_time``), as in every Gazebo bag.
"""

from __future__ import annotations

from robot_msgs.msg import Msg, message
from robot_msgs.std import Time

__all__ = ["Clock"]


@message("rosgraph/Clock", ros2="rosgraph_msgs/msg/Clock")
class Clock(Msg):
    """The current simulation time, published on ``/clock``.

    Attributes
    ----------
    clock : Time
        Seconds and nanoseconds of simulated time.
    """

    clock: Time = Time()
