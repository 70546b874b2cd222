"""Report tables, and their text, Markdown, LaTeX and CSV forms.

Each table is built once from a :class:`~robot_msgs.compare.Report` and rendered by any
of the writers, so the terminal, the paper and the HTML page show the same numbers.
Missing values print as ``-``; units are in the headers (SI, or ms and MB where the
header says so).

Here: :func:`report_tables`, every table of a report in reading order. Each family of
tables is built in its module, :mod:`~robot_msgs.report.ranking_tables`,
:mod:`~robot_msgs.report.group_tables` and :mod:`~robot_msgs.report.run_tables`, as a
:class:`~robot_msgs.report.report_table.ReportTable`, and rendered by
:mod:`~robot_msgs.report.table_renderers`; their names are importable from here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.report.group_tables import (
    groups_table,
    repeatability_table,
    repeatability_table_of,
)
from robot_msgs.report.ranking_tables import metric_title, ranking_table, settings_text
from robot_msgs.report.report_table import ReportTable
from robot_msgs.report.run_tables import environment_table, rpe_metrics, runs_csv, runs_table
from robot_msgs.report.table_renderers import (
    csv_cell,
    latex_escape,
    markdown_text,
    render_latex,
    render_markdown,
    render_text,
)

if TYPE_CHECKING:
    from robot_msgs.compare.report import Report

__all__ = [
    "ReportTable",
    "csv_cell",
    "environment_table",
    "groups_table",
    "latex_escape",
    "markdown_text",
    "metric_title",
    "ranking_table",
    "render_latex",
    "render_markdown",
    "render_text",
    "repeatability_table",
    "repeatability_table_of",
    "report_tables",
    "rpe_metrics",
    "runs_csv",
    "runs_table",
    "settings_text",
]


def report_tables(
    report: Report, *, environment: bool = True, runs: bool = True
) -> list[ReportTable]:
    """Every table of a report, in reading order: ranking, groups, repeatability, runs.

    Then, with ``environment``, the versions and hardware (:func:`environment_table`).
    Without ``runs``, no table of one row per run (``report --summary``): of 120 runs' 570
    lines printed, it was 493.
    """
    tables = []
    if report.ranking is not None:
        tables.append(ranking_table(report.ranking, report.settings))
    tables.append(groups_table(report))
    repeat = repeatability_table(report)
    if repeat is not None:
        tables.append(repeat)
    if runs:
        tables.append(runs_table(report))
    if environment:
        tables.append(environment_table(report))
    return tables
