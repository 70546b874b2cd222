"""The per-run function of ``robot-msgs bench``: read a run's files, compute its Comparisons.

It runs inside a worker: it receives a :class:`~robot_msgs.batch.tasks.Task` (paths and
settings) and reads the trajectories itself with :func:`robot_msgs.io.read_trajectory`,
then calls :func:`robot_msgs.evaluation.ape` / :func:`~robot_msgs.evaluation.rpe` once
per evaluation of the settings. It is pure (same files and settings, same result) and
top-level, so process pools and Dask ship it by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, ape, rpe
from robot_msgs.io import read_trajectory

if TYPE_CHECKING:
    from robot_msgs.batch.tasks import Task
    from robot_msgs.compare import Comparison

__all__ = ["evaluate_run"]


def evaluate_run(task: Task) -> tuple[Comparison, ...]:
    """Read the run's estimate and reference, and compute one Comparison per evaluation.

    Parameters
    ----------
    task : Task
        The run's paths and input options, and the sweep's settings.

    Returns
    -------
    tuple of Comparison
        In the settings' evaluation order; ``estimate`` is the run's
        ``algorithm/sequence/trial``, ``reference`` its sequence.

    Raises
    ------
    ValidationError
        The run has no reference (the message says where one may be given).
    FormatError, FileNotFoundError, AssociationError, AlignmentError
        From reading or evaluating; the sweep records them as the run's failure.

    Examples
    --------
    >>> from robot_msgs.batch.runs import RunSpec
    >>> from robot_msgs.batch.settings import Settings
    >>> from robot_msgs.batch.tasks import Task, run_task
    >>> run = RunSpec(
    ...     algorithm="rgbdslam", sequence="fr1_xyz", trial="1",
    ...     estimate="example:fr1_xyz/rgbdslam.tum",
    ...     reference="example:fr1_xyz/groundtruth.tum",
    ... )
    >>> task = Task(run=run, settings=Settings.build({"align": "se3"}), digest="")
    >>> result = run_task(evaluate_run, task)  # as a worker runs it: warnings become notes
    >>> [c] = result.comparisons
    >>> c.metric, c.estimate, c.reference, c.units["translation"], c.counts["matched"]
    ('ape', 'rgbdslam/fr1_xyz/1', 'fr1_xyz', 'm', 785)
    """
    run = task.run
    if run.reference is None:
        msg = (
            f"Expected a reference trajectory for {run.label}, got none: give the run a "
            f"`reference`, the manifest a [references] entry for {run.sequence!r}, or the "
            f"folder ROOT/{run.sequence}/reference.<ext>"
        )
        raise ValidationError(msg)
    estimate = read_trajectory(
        run.estimate,
        fmt=run.estimate_format,
        topic=run.estimate_topic,
        times_path=run.estimate_times,
    )
    reference = read_trajectory(
        run.reference,
        fmt=run.reference_format,
        topic=run.reference_topic,
        times_path=run.reference_times,
    )
    out = []
    for ev in task.settings.evaluations:
        kwargs = ev.kwargs()
        relation = kwargs.pop("relation", "translation")
        pair_keys = {"delta", "delta_unit", "all_pairs", "pairs_from", "rel_delta_tol"}
        pair = {k.removeprefix("rel_"): v for k, v in kwargs.items() if k in pair_keys}
        window = kwargs.pop("align_window_s", None)
        evaluation = {k: v for k, v in kwargs.items() if k not in pair_keys}
        if window is not None:
            evaluation["align_window_s"] = tuple(window)
        settings = EvaluationSettings(**evaluation)
        names = {"reference_name": run.sequence, "estimate_name": run.label}
        if ev.metric == "rpe":
            result = rpe(
                reference,
                estimate,
                settings=settings,
                pairs=PairSettings(**pair),
                relation=relation,
                **names,
            )
        else:
            result = ape(reference, estimate, settings=settings, relation=relation, **names)
        out.append(result.comparison)
    return tuple(out)
