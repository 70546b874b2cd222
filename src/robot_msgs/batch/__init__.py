"""Batch evaluation of many runs: manifests, tasks, executors (local processes or Dask), results."""

from robot_msgs.batch.executors import (
    DaskExecutor,
    Executor,
    LocalExecutor,
    SerialExecutor,
    make_executor,
)
from robot_msgs.batch.manifest import Manifest, load_bench_input, load_manifest
from robot_msgs.batch.runs import RunSpec, discover_runs
from robot_msgs.batch.settings import Evaluation, Settings
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import SweepSummary, run_sweep
from robot_msgs.batch.table import read_table
from robot_msgs.batch.tasks import RunResult, Task, make_tasks, run_task

__all__ = [
    "DaskExecutor",
    "Evaluation",
    "Executor",
    "LocalExecutor",
    "Manifest",
    "ResultStore",
    "RunResult",
    "RunSpec",
    "SerialExecutor",
    "Settings",
    "SweepSummary",
    "Task",
    "discover_runs",
    "load_bench_input",
    "load_manifest",
    "make_executor",
    "make_tasks",
    "read_table",
    "run_sweep",
    "run_task",
]
