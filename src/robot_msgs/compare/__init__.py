"""Evaluation results as messages: ``ErrorStats``, ``Comparison``, ``Aggregate``, ``Alignment``."""

from robot_msgs.compare.aggregate import Aggregate, aggregate, check_same_settings
from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.comparison import Comparison
from robot_msgs.compare.error_stats import ErrorStats, error_stats

__all__ = [
    "Aggregate",
    "Alignment",
    "Comparison",
    "ErrorStats",
    "aggregate",
    "check_same_settings",
    "error_stats",
]
