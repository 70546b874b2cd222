"""Control loops: how well a controller tracked its reference, and step-response figures.

:func:`tracking` and :func:`joint_tracking` compare a commanded and a measured signal
(``Comparison`` messages with IAE/ISE/ITAE); :func:`step_response` measures a step
(``StepResponse``). The result messages live in :mod:`robot_msgs.compare`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.control.step import step_response
    from robot_msgs.control.tracking_error import joint_tracking, tracking

__all__ = [
    "joint_tracking",
    "step_response",
    "tracking",
]

__getattr__ = exports(
    __name__,
    {
        "step": ("step_response",),
        "tracking_error": ("joint_tracking", "tracking"),
    },
)
