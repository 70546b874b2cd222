"""Evaluation results as messages: what was compared, how, and what it found.

``ErrorStats``, ``Signal``, ``Comparison``, ``Aggregate``, ``Alignment``, ``TimeOffset``,
``Extrinsic``, ``SpatialMatch``, ``Diagnosis`` and its ``Finding`` s, ``StepResponse``, the
run-report types (``RunReport`` and its parts, ``GroupSummary``, ``Ranking``, ``Report``)
and the ``Configuration`` (algorithm, version, parameters) they are grouped by.
The code that computes them lives with its subject: :mod:`robot_msgs.evaluation`
(trajectories), :mod:`robot_msgs.control` (control loops), :mod:`robot_msgs.report` (runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.compare.aggregation import (
        Aggregate,
        AggregateTally,
        SettingsTally,
        aggregate,
        check_same_settings,
    )
    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.compare.comparison import Comparison, Estimates
    from robot_msgs.compare.configuration import Configuration, configuration_labels
    from robot_msgs.compare.diagnosis import FINDING_KINDS, Diagnosis, Finding
    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.compare.ranking import Ranking, RankingRow
    from robot_msgs.compare.report import GroupSummary, Report
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.run_report import (
        REPEATABILITY_STATEMENT,
        Latency,
        Repeatability,
        Resources,
        RunReport,
        TrackingLoss,
    )
    from robot_msgs.compare.signal import ErrorSeries, Signal, find_signal, signal_name
    from robot_msgs.compare.spatial_match import SpatialMatch
    from robot_msgs.compare.statistics import ErrorStats, error_stats
    from robot_msgs.compare.step_response import StepResponse
    from robot_msgs.compare.time_offset import TimeOffset

__all__ = [
    "FINDING_KINDS",
    "REPEATABILITY_STATEMENT",
    "Aggregate",
    "AggregateTally",
    "Alignment",
    "Comparison",
    "Configuration",
    "Diagnosis",
    "ErrorSeries",
    "ErrorStats",
    "Estimates",
    "EvaluationResult",
    "Extrinsic",
    "Finding",
    "GroupSummary",
    "Latency",
    "Ranking",
    "RankingRow",
    "Repeatability",
    "Report",
    "Resources",
    "RunReport",
    "SettingsTally",
    "Signal",
    "SpatialMatch",
    "StepResponse",
    "TimeOffset",
    "TrackingLoss",
    "aggregate",
    "check_same_settings",
    "configuration_labels",
    "error_stats",
    "find_signal",
    "signal_name",
]

__getattr__ = exports(
    __name__,
    {
        "aggregation": (
            "Aggregate",
            "AggregateTally",
            "SettingsTally",
            "aggregate",
            "check_same_settings",
        ),
        "alignment": ("Alignment",),
        "comparison": ("Comparison", "Estimates"),
        "configuration": ("Configuration", "configuration_labels"),
        "diagnosis": ("FINDING_KINDS", "Diagnosis", "Finding"),
        "extrinsic": ("Extrinsic",),
        "ranking": ("Ranking", "RankingRow"),
        "report": ("GroupSummary", "Report"),
        "result": ("EvaluationResult",),
        "run_report": (
            "REPEATABILITY_STATEMENT",
            "Latency",
            "Repeatability",
            "Resources",
            "RunReport",
            "TrackingLoss",
        ),
        "signal": ("ErrorSeries", "Signal", "find_signal", "signal_name"),
        "spatial_match": ("SpatialMatch",),
        "statistics": ("ErrorStats", "error_stats"),
        "step_response": ("StepResponse",),
        "time_offset": ("TimeOffset",),
    },
)
