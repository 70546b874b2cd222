"""Absolute pose error (APE, evo's name for ATE and its rotation siblings), on prepared poses.

For each matched pose ``E_i = P_i⁻¹ Q_i`` (``P`` the aligned estimate, ``Q`` the
reference), reduced to one number by the relation
(:func:`~robot_msgs.evaluation.ape_errors`): what :func:`~robot_msgs.evaluation.ape`
and :func:`~robot_msgs.evaluation.evaluate` compute after the shared preparation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.evaluation.consistency import NEES_DOF, nees_summary
from robot_msgs.evaluation.pipeline import signal_of
from robot_msgs.evaluation.relations import RELATION_UNITS, ape_errors

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import Ape
    from robot_msgs.msg import Value

__all__ = ["ape_result"]


def ape_result(prepared: Prepared, spec: Ape, names: tuple[str, str]) -> EvaluationResult:
    """Compute the APE of trajectories already cut, associated and aligned (``"ape"``).

    One signal, the relation's error of every matched pose at its estimate stamp (so
    ``iae``/``ise``/``itae`` are set). A NEES relation adds its chi-square bounds to
    the result's ``estimated``, the count ``nees_inside_pose_bounds`` and a note that
    says whether the filter is consistent (:mod:`~robot_msgs.evaluation.consistency`).
    """
    relation = spec.relation
    errors = ape_errors(prepared.reference, prepared.estimate, relation)
    stamps = prepared.estimate.stamps_s
    signal = signal_of(relation, RELATION_UNITS[relation], errors, stamps)
    estimated: dict[str, Value] = {}
    counts: dict[str, int] = {}
    notes: list[str] = []
    if relation in NEES_DOF:  # the chi-square bounds and the verdict go with the numbers
        estimated, counts, notes = nees_summary(errors, relation, prepared.settings.confidence)
    return prepared.result(
        "ape",
        [signal],
        parameters=spec.record(),
        names=names,
        estimated=estimated,
        counts=counts,
        notes=notes,
    )
