"""Evaluation results as messages: ``ErrorStats``, ``Comparison``, ``Aggregate``, run reports."""

from robot_msgs.compare.aggregate import Aggregate, aggregate, check_same_settings
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

__all__ = [
    "REPEATABILITY_STATEMENT",
    "Aggregate",
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
    "TrackingLoss",
    "aggregate",
    "check_same_settings",
    "error_stats",
]
