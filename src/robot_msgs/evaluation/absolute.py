"""Absolute pose error (APE, evo's name for ATE and its rotation siblings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.compare.statistics import error_stats
from robot_msgs.evaluation.consistency import NEES_DOF, nees_summary
from robot_msgs.evaluation.pipeline import Signal, prepare, stamps_if_increasing
from robot_msgs.evaluation.relations import (
    APE_RELATIONS,
    RELATION_UNITS,
    ape_errors,
    check_relation,
)

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["ape", "ape_from_prepared"]


def ape(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings | None = None,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Absolute pose error of ``estimate`` against ``reference``: associate, align, compare.

    For each matched pose ``E_i = P_i⁻¹ Q_i`` (``P`` the aligned estimate, ``Q`` the
    reference), reduced to one number by ``relation`` (see
    :func:`~robot_msgs.evaluation.ape_errors`). The same computation as ``evo_ape``
    (evo 1.38.1) for the settings both share: ``align="se3"`` is ``--align``, ``"sim3"``
    ``--align --correct_scale``, ``"scale"`` ``--correct_scale``, ``"origin"``
    ``--align_origin``, ``n_align`` ``--n_to_align``, ``max_diff_s``/``offset_s``
    ``--t_max_diff``/``--t_offset``, ``t_start_s``/``t_end_s`` ``--t_start``/``--t_end``.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test; neither is modified.
    settings : EvaluationSettings, optional
        Time range, association and alignment (default: evo's, no alignment).
    relation : str
        ``translation`` (m, evo ``trans_part``), ``angle_rad``, ``angle_deg``, ``full``,
        ``rot_part``, ``point_distance``, or a signed axis ``x``/``y``/``z`` (m); the
        direction components (``along_track``..., ``roll_deg``...); ``nees``,
        ``nees_position``, ``nees_orientation`` with an estimate that carries
        covariances: the result adds ``nees_dof``, ``nees_mean_bounds`` and
        ``nees_pose_bounds`` (for ``settings.confidence``) to its settings, the count
        ``nees_inside_pose_bounds`` and a note that says whether the filter is consistent.
    reference_name, estimate_name : str
        Labels stored in the result (file names, algorithm names).

    Returns
    -------
    EvaluationResult
        ``comparison``: ``metric="ape"``, ``stats`` and ``units`` keyed by the relation
        (the error series has the matched estimate stamps as time axis, so
        ``iae``/``ise``/``itae`` are set), ``settings`` (the relation and the settings'
        record), ``counts`` (reference, estimate, matched, unmatched) and ``notes``
        (association warnings, the fitted alignment); ``series``: the error of every
        matched pose at its stamp; the matched reference, the aligned estimate and the
        alignment.

    Raises
    ------
    ValidationError
        An unknown relation.
    AssociationError, AlignmentError
        Nothing matched in time, or a degenerate alignment.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(101) * 0.1
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    ... )
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)  # 0.01 m/s drift
    >>> result = ape(ref, est)
    >>> round(result.stats["translation"].rms, 6), result.counts["matched"]
    (0.057879, 101)
    >>> result.series["translation"].errors[-1].round(12)
    np.float64(0.1)
    """
    name = check_relation(relation, allowed=APE_RELATIONS)
    prep = prepare(reference, estimate, settings)
    return ape_from_prepared(
        prep, relation=name, reference_name=reference_name, estimate_name=estimate_name
    )


def ape_from_prepared(
    prepared: Prepared,
    *,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Compute the APE of trajectories already cut, associated and aligned by :func:`prepare`.

    What :func:`ape` computes after its :func:`prepare`; call it to reuse one preparation
    for several relations or metrics (a report does, for APE and every RPE delta).

    Parameters
    ----------
    prepared : Prepared
        The matched reference and aligned estimate, with their settings.
    relation : str
        One of :data:`~robot_msgs.evaluation.APE_RELATIONS`.
    reference_name, estimate_name : str
        Labels stored in the result.

    Returns
    -------
    EvaluationResult
        As :func:`ape` returns it.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.evaluation import prepare
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(3.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (3, 1)),
    ... )
    >>> prep = prepare(ref, ref.replace(positions_xyz=ref.positions_xyz + [0.0, 0.3, 0.4]))
    >>> [ape_from_prepared(prep, relation=r).stats[r].rms for r in ("translation", "z")]
    [0.5, 0.4]
    """
    name = check_relation(relation, allowed=APE_RELATIONS)
    errors = ape_errors(prepared.reference, prepared.estimate, name)
    stamps = prepared.estimate.stamps_s
    signal = Signal(
        stats=error_stats(errors, t=stamps_if_increasing(stamps)),
        unit=RELATION_UNITS[name],
        stamps_s=stamps,
        errors=errors,
    )
    parameters: dict[str, Value] = {"relation": name}
    counts: dict[str, int] = {}
    notes: list[str] = []
    if name in NEES_DOF:  # the chi-square bounds and the verdict go with the numbers
        extra, counts, notes = nees_summary(errors, name, prepared.settings.confidence)
        parameters.update(extra)
    return prepared.result(
        "ape",
        {name: signal},
        parameters=parameters,
        counts=counts,
        notes=notes,
        reference_name=reference_name,
        estimate_name=estimate_name,
    )
