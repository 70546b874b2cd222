"""Batch evaluation of many runs: chunks, executors (local processes or Dask), records, tables.

The runs and their settings come from :mod:`robot_msgs.runs` (the same run model as
``robot-msgs report``); each run is evaluated by :func:`evaluate_task`, which calls the
same per-run evaluation as a report, inside :func:`run_chunk` on a worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs._lazy import exports

if TYPE_CHECKING:
    from robot_msgs.batch.backends import make_executor
    from robot_msgs.batch.dask_executor import DaskExecutor, check_scheduler_address
    from robot_msgs.batch.executors import Executor, SerialExecutor
    from robot_msgs.batch.plan import ChunkPlan, SweepState
    from robot_msgs.batch.processes import LocalExecutor
    from robot_msgs.batch.results_table import TableWriter, read_results
    from robot_msgs.batch.store import ResultStore, RunRecord
    from robot_msgs.batch.summary import SweepSummary
    from robot_msgs.batch.sweep import run_sweep
    from robot_msgs.batch.tasks import RunResult, Task, run_task
    from robot_msgs.batch.worker import Chunk, Job, evaluate_task, run_chunk

__all__ = [
    "Chunk",
    "ChunkPlan",
    "DaskExecutor",
    "Executor",
    "Job",
    "LocalExecutor",
    "ResultStore",
    "RunRecord",
    "RunResult",
    "SerialExecutor",
    "SweepState",
    "SweepSummary",
    "TableWriter",
    "Task",
    "check_scheduler_address",
    "evaluate_task",
    "make_executor",
    "read_results",
    "run_chunk",
    "run_sweep",
    "run_task",
]

__getattr__ = exports(
    __name__,
    {
        "backends": ("make_executor",),
        "dask_executor": ("DaskExecutor", "check_scheduler_address"),
        "executors": ("Executor", "SerialExecutor"),
        "plan": ("ChunkPlan", "SweepState"),
        "processes": ("LocalExecutor",),
        "results_table": ("TableWriter", "read_results"),
        "store": ("ResultStore", "RunRecord"),
        "summary": ("SweepSummary",),
        "sweep": ("run_sweep",),
        "tasks": ("RunResult", "Task", "run_task"),
        "worker": ("Chunk", "Job", "evaluate_task", "run_chunk"),
    },
)
