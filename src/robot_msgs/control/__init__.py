"""Control loops: how well a controller tracked its reference, and step-response figures.

:func:`tracking` and :func:`joint_tracking` compare a commanded and a measured signal
(``Comparison`` messages with IAE/ISE/ITAE); :func:`step_response` measures a step
(``StepResponse``), :func:`step_response_to_command` the step a logged command holds.
``TrackingSettings`` is their options as one value (``robot-msgs track``'s flags). The
result messages live in :mod:`robot_msgs.compare`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.control.settings import TrackingSettings
    from robot_msgs.control.step import step_response, step_response_to_command
    from robot_msgs.control.tracking_error import joint_tracking, tracking

__all__ = [
    "TrackingSettings",
    "joint_tracking",
    "step_response",
    "step_response_to_command",
    "tracking",
]

__getattr__ = exports(
    __name__,
    {
        "settings": ("TrackingSettings",),
        "step": ("step_response", "step_response_to_command"),
        "tracking_error": ("joint_tracking", "tracking"),
    },
)
