"""Run reports: evaluate runs, summarise what they did beyond accuracy, rank, render.

:func:`build_report` evaluates a :class:`~robot_msgs.runs.Manifest` (the runs and their
:class:`~robot_msgs.runs.RunSettings`, read by :func:`robot_msgs.runs.load_runs`) into a
:class:`~robot_msgs.compare.Report`; :mod:`robot_msgs.report.tables`,
:mod:`robot_msgs.report.html_page` and :mod:`robot_msgs.report.plots` render it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.report.build import ReportResult, build_report
    from robot_msgs.report.groups import summarise_groups

__all__ = [
    "ReportResult",
    "build_report",
    "summarise_groups",
]

__getattr__ = exports(
    __name__,
    {
        "build": ("ReportResult", "build_report"),
        "groups": ("summarise_groups",),
    },
)
