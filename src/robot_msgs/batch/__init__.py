"""Batch evaluation of many runs: tasks, executors (local processes or Dask), records, tables.

The runs and their settings come from :mod:`robot_msgs.runs` (the same run model as
``robot-msgs report``); each run is evaluated by :func:`evaluate_task`, which calls the
same per-run evaluation as a report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.batch.executors import (
        DaskExecutor,
        Executor,
        LocalExecutor,
        SerialExecutor,
        make_executor,
    )
    from robot_msgs.batch.results_table import read_results
    from robot_msgs.batch.store import ResultStore
    from robot_msgs.batch.sweep import SweepSummary, run_sweep
    from robot_msgs.batch.tasks import (
        RunResult,
        Task,
        make_tasks,
        run_task,
    )
    from robot_msgs.batch.worker import evaluate_task

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "ResultStore",
    "RunResult",
    "SerialExecutor",
    "SweepSummary",
    "Task",
    "evaluate_task",
    "make_executor",
    "make_tasks",
    "read_results",
    "run_sweep",
    "run_task",
]

__getattr__ = exports(
    __name__,
    {
        "executors": (
            "DaskExecutor",
            "Executor",
            "LocalExecutor",
            "SerialExecutor",
            "make_executor",
        ),
        "results_table": ("read_results",),
        "store": ("ResultStore",),
        "sweep": ("SweepSummary", "run_sweep"),
        "tasks": ("RunResult", "Task", "make_tasks", "run_task"),
        "worker": ("evaluate_task",),
    },
)
