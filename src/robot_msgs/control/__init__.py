"""Control loops: how well a controller tracked its reference, and step-response figures.

:func:`tracking` and :func:`joint_tracking` compare a commanded and a measured signal
(``Comparison`` messages with IAE/ISE/ITAE); :func:`step_response` measures a step
(``StepResponse``). The result messages live in :mod:`robot_msgs.compare`.
"""

from robot_msgs.control.step import step_response
from robot_msgs.control.tracking import joint_tracking, tracking

__all__ = ["joint_tracking", "step_response", "tracking"]
