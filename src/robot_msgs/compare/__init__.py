"""Evaluation results as messages, and the control-loop comparisons that produce them.

``ErrorStats``, ``Comparison``, ``Aggregate``, ``Alignment``, ``StepResponse``, the
run-report types (``RunReport`` and its parts, ``GroupSummary``, ``Ranking``, ``Report``);
:func:`tracking`, :func:`joint_tracking` and :func:`step_response` for control loops.
"""

from robot_msgs.compare.aggregate import Aggregate, aggregate, check_same_settings
from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.error_stats import ErrorStats, error_stats
from robot_msgs.compare.ranking import Ranking, RankingRow
from robot_msgs.compare.report import GroupSummary, Report
from robot_msgs.compare.run_report import (
    REPEATABILITY_STATEMENT,
    Latency,
    Repeatability,
    Resources,
    RunReport,
    TrackingLoss,
)
from robot_msgs.compare.step_response import StepResponse, step_response
from robot_msgs.compare.tracking import joint_tracking, tracking

__all__ = [
    "REPEATABILITY_STATEMENT",
    "Aggregate",
    "Alignment",
    "Comparison",
    "ErrorStats",
    "GroupSummary",
    "Latency",
    "Ranking",
    "RankingRow",
    "Repeatability",
    "Report",
    "Resources",
    "RunReport",
    "StepResponse",
    "TrackingLoss",
    "aggregate",
    "check_same_settings",
    "error_stats",
    "joint_tracking",
    "step_response",
    "tracking",
]
