"""Run reports: read runs, compute what they did beyond accuracy, rank, export.

``load_runs`` reads run folders and manifests (:mod:`robot_msgs.report.runs` documents
the layout), ``build_report`` evaluates them into a :class:`~robot_msgs.compare.Report`,
``run_report`` does one run; tables, HTML and plots render the result.
"""

from robot_msgs.report.latency import latency_from_bag, latency_from_samples, latency_from_timing
from robot_msgs.report.ranking import rank_algorithms
from robot_msgs.report.report import (
    ReportResult,
    RunEvaluation,
    build_report,
    evaluate_run,
    run_report,
)
from robot_msgs.report.runs import RunInputs, RunMeta, load_run, load_runs, read_manifest
from robot_msgs.report.settings import ReportSettings

__all__ = [
    "ReportResult",
    "ReportSettings",
    "RunEvaluation",
    "RunInputs",
    "RunMeta",
    "build_report",
    "evaluate_run",
    "latency_from_bag",
    "latency_from_samples",
    "latency_from_timing",
    "load_run",
    "load_runs",
    "rank_algorithms",
    "read_manifest",
    "run_report",
]
