"""Evaluation results as messages, and the control-loop comparisons that produce them.

``ErrorStats``, ``Comparison``, ``Aggregate``, ``Alignment`` and ``StepResponse``;
:func:`tracking`, :func:`joint_tracking` and :func:`step_response` for control loops.
"""

from robot_msgs.compare.aggregate import Aggregate, aggregate, check_same_settings
from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.error_stats import ErrorStats, error_stats
from robot_msgs.compare.step_response import StepResponse, step_response
from robot_msgs.compare.tracking import joint_tracking, tracking

__all__ = [
    "Aggregate",
    "Alignment",
    "Comparison",
    "ErrorStats",
    "StepResponse",
    "aggregate",
    "check_same_settings",
    "error_stats",
    "joint_tracking",
    "step_response",
    "tracking",
]
