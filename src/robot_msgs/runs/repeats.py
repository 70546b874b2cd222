r"""Repeatability of repeated runs without ground truth: pairwise APE and endpoint spread.

Without a reference, accuracy cannot be reported (the guide: "Without ground truth, do
not report ATE"), but how much repeated runs of one sequence agree can be: a system whose
trials disagree by 20 cm is not accurate to 1 cm. The converse fails: runs that agree
may share one bias, hence :data:`~robot_msgs.compare.REPEATABILITY_STATEMENT` on every
result.

For runs ``k = 1..K`` with first pose :math:`T_{k,0}` and last pose :math:`T_{k,end}`,
the endpoint relative to the start is :math:`e_k = R_{k,0}^\top (p_{k,end} - p_{k,0})`,
the translation of :math:`T_{k,0}^{-1} T_{k,end}`. Expressing it in each run's own start
frame makes runs comparable whatever world frame each one initialised. Then

.. math::

    \text{spread} = \sqrt{\tfrac{1}{K} \sum_k \lVert e_k - \bar e \rVert^2}, \qquad
    \text{max} = \max_{k < l} \lVert e_k - e_l \rVert .
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.configuration import configuration_labels
from robot_msgs.compare.run_report import Repeatability, RunReport
from robot_msgs.compare.statistics import error_stats
from robot_msgs.errors import RobotMsgsError, ValidationError
from robot_msgs.evaluation.entry import ape
from robot_msgs.rotations import quat_xyzw_rotate
from robot_msgs.runs.losses import keep_poses, valid_mask

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.configuration import Configuration
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["endpoints_from_start", "group_repeatability", "repeatability"]


def endpoints_from_start(trajectories: Sequence[PoseTrajectory]) -> Float64Array:
    """Each trajectory's last position in the frame of its first pose, metres.

    Returns
    -------
    ndarray, shape (K, 3), float64
        ``R_0^T (p_end - p_0)`` per trajectory.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> half = np.sqrt(0.5)  # start yawed 90 degrees: world +y is the body's +x
    >>> traj = PoseTrajectory(stamps_s=[0.0, 1.0], positions_xyz=[[1, 1, 0], [1, 3, 0]],
    ...                       orientations_quat_xyzw=[[0, 0, half, half]] * 2)
    >>> (endpoints_from_start([traj]).round(12) + 0.0).tolist()
    [[2.0, 0.0, 0.0]]
    """
    first_q = np.stack([t.orientations_quat_xyzw[0] for t in trajectories])
    first_p = np.stack([t.positions_xyz[0] for t in trajectories])
    last_p = np.stack([t.positions_xyz[-1] for t in trajectories])
    return quat_xyzw_rotate(first_q, last_p - first_p, inverse=True)


def repeatability(
    runs: Sequence[tuple[str, PoseTrajectory]], settings: EvaluationSettings
) -> Repeatability:
    """Pairwise APE and endpoint spread of repeated runs of one sequence.

    Parameters
    ----------
    runs : sequence of (name, PoseTrajectory)
        At least two runs' estimates.
    settings : EvaluationSettings
        Time range, association and alignment of the pairwise APE (run ``i`` as
        reference of run ``j``, ``i < j``); the clock offset is 0 between trials.

    Returns
    -------
    Repeatability
        Labelled with :data:`~robot_msgs.compare.REPEATABILITY_STATEMENT`.

    Raises
    ------
    ValidationError
        Fewer than two runs.
    """
    if len(runs) < 2:
        msg = f"Expected at least 2 runs for repeatability, got {len(runs)}"
        raise ValidationError(msg)
    names = tuple(name for name, _ in runs)
    k = len(runs)
    matrix = np.zeros((k, k))
    used: Mapping[str, Value] = {}
    same_clock = settings.replace(offset_s=0.0, offset_auto=False, offset_search_s=None)
    # K is the number of trials (a handful), so the K(K-1)/2 loop is over runs, not poses.
    for i in range(k):
        for j in range(i + 1, k):
            result = ape(runs[i][1], runs[j][1], settings=same_clock)
            matrix[i, j] = matrix[j, i] = result.stats["translation"].rms
            used = result.comparison.record()
    ends = endpoints_from_start([traj for _, traj in runs])
    centred = ends - ends.mean(axis=0)
    spread = float(np.sqrt(np.mean(np.sum(centred * centred, axis=1))))
    distances = np.linalg.norm(ends[:, None, :] - ends[None, :, :], axis=2)
    upper = matrix[np.triu_indices(k, 1)]
    return Repeatability(
        runs=names,
        pairwise_ape_rms_m=matrix,
        pairwise=error_stats(upper),
        endpoint_spread_m=spread,
        endpoint_max_m=float(distances.max()),
        settings=used,
    )


def group_repeatability(
    reports: Sequence[RunReport],
    estimates: Mapping[str, PoseTrajectory | None],
    settings: EvaluationSettings,
) -> tuple[dict[str, Repeatability], list[str]]:
    """Repeatability of every (configuration, sequence) that has no reference, by run name.

    A group whose runs have no comparison (no reference) and at least two successful
    runs with an estimate gets one :class:`Repeatability` of those runs, shared by all of
    its runs (the failed ones too: they are the group's repeats that did not finish).
    A group whose trials cannot be compared with each other (no stamps in common: trials
    on different clocks) is left out with a note.

    Parameters
    ----------
    reports : sequence of RunReport
        Every run, with its ``algorithm``, ``version``, ``parameters`` and ``sequence``
        (runs of another version or parameters are another group).
    estimates : mapping
        Run name to its estimate (``None`` when it wrote none).
    settings : EvaluationSettings
        As for :func:`repeatability`.

    Returns
    -------
    tuple of (dict, list of str)
        The repeatability of each run of a group that has one, and one note per group
        left out, saying why.

    WHY the notes here: ``bench`` noted such a group and carried on, while ``report``
    stopped with the error of the first (a review); both take this function's answer.
    """
    groups: dict[tuple[Configuration, str], list[RunReport]] = {}
    for report in reports:
        groups.setdefault((report.configuration, report.sequence), []).append(report)
    out: dict[str, Repeatability] = {}
    notes: list[str] = []
    labels = configuration_labels(configuration for configuration, _ in groups)
    for (configuration, sequence), members in groups.items():
        if any(r.has_reference for r in members):
            continue
        # Each run's valid poses, as its APE takes them: the poses a run marked lost
        # moved the spread from 0.009 to 0.24 m (a review).
        usable = [
            (r.name, keep_poses(traj, valid_mask(traj.stamps_s, r.losses)))
            for r in members
            if r.success and (traj := estimates.get(r.name)) is not None
        ]
        if len(usable) < 2:
            continue
        try:
            shared = repeatability(usable, settings)
        except RobotMsgsError as err:  # trials that cannot be compared with each other
            notes.append(f"repeatability of {labels[configuration]}/{sequence} left out: {err}")
            continue
        out.update({r.name: shared for r in members})
    return out, notes
