"""The per-run function of ``robot-msgs bench``: read a run's files, evaluate it.

It runs inside a worker: it receives a :class:`~robot_msgs.batch.tasks.Task` (paths and
settings), reads the run's files itself (:func:`robot_msgs.runs.load_run`) and evaluates
it with :func:`robot_msgs.runs.evaluate_run`, the same per-run evaluation
``robot-msgs report`` uses, so a sweep and a report of the same runs agree. It is pure
(same files and settings, same result) and top-level, so process pools and Dask ship it
by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.runs.evaluate import evaluate_run
from robot_msgs.runs.load import load_run

if TYPE_CHECKING:
    from robot_msgs.batch.tasks import Task
    from robot_msgs.compare.run_report import RunReport

__all__ = ["evaluate_task"]


def evaluate_task(task: Task) -> RunReport:
    """Read the run's files and evaluate it with the sweep's settings.

    Parameters
    ----------
    task : Task
        The run's paths and metadata, and the sweep's settings.

    Returns
    -------
    RunReport
        Success apart from accuracy, one comparison per metric of the settings (none
        without a reference), losses, coverage, latency and resources.

    Raises
    ------
    FormatError, FileNotFoundError
        An input cannot be read; the sweep records it as the run's failure.

    Examples
    --------
    >>> from robot_msgs.batch.tasks import Task, run_task
    >>> from robot_msgs.runs import RunSettings, RunSpec
    >>> run = RunSpec(
    ...     name="rgbdslam/fr1_xyz/1", algorithm="rgbdslam", sequence="fr1_xyz", trial="1",
    ...     estimate="example:fr1_xyz/rgbdslam.tum",
    ...     reference="example:fr1_xyz/groundtruth.tum",
    ... )
    >>> result = run_task(evaluate_task, Task(run=run, settings=RunSettings(), digest=""))
    >>> report = result.report
    >>> report.success, list(report.comparisons), report.accuracy.counts["matched"]
    (True, ['ape:translation', 'rpe:translation:1s:all'], 785)
    """
    return evaluate_run(load_run(task.run), task.settings).report
