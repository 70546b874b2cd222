"""Evaluation results as messages: statistics, comparisons, alignments, run reports, rankings."""

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
    "TrackingLoss",
    "aggregate",
    "check_same_settings",
    "error_stats",
]
