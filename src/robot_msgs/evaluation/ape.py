"""Absolute pose error (APE, evo's name for ATE and its rotation siblings), on prepared poses.

For each matched pose ``E_i = P_i⁻¹ Q_i`` (``P`` the aligned estimate, ``Q`` the
reference), reduced to one number by the relation
(:func:`~robot_msgs.evaluation.ape_errors`): what :func:`~robot_msgs.evaluation.ape`
and :func:`~robot_msgs.evaluation.evaluate` compute after the shared preparation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import AlignmentError
from robot_msgs.evaluation.alignment import align, fit_rmse, length_units
from robot_msgs.evaluation.consistency import NEES_DOF, nees_summary
from robot_msgs.evaluation.pipeline import signal_of
from robot_msgs.evaluation.relations import RELATION_UNITS, ape_errors
from robot_msgs.evaluation.settings import EvaluationSettings

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import AlignMethod, Ape
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "ALIGN_HINT_FACTOR",
    "aligned_rmse",
    "alignment_hint",
    "ape_result",
]

#: An unaligned translation APE this many times the best aligned one gets a hint.
ALIGN_HINT_FACTOR = 5.0

#: Below this many times the closed-form Sim(3) residual, no hint (:func:`alignment_hint`).
_SURELY_NO_HINT = 0.9 * ALIGN_HINT_FACTOR


def _fitted(ref: PoseTrajectory, est: PoseTrajectory, method: AlignMethod) -> tuple[float, float]:
    """Return the translation APE rmse after a ``method`` fit on all poses, and its scale."""
    aligned, fit = align(ref, est, settings=EvaluationSettings(align=method))
    return float(np.sqrt(np.mean(ape_errors(ref, aligned) ** 2))), fit.scale


def aligned_rmse(ref: PoseTrajectory, est: PoseTrajectory, method: AlignMethod) -> float:
    """Return the translation APE rmse of matched poses after a ``method`` fit on all of them."""
    return _fitted(ref, est, method)[0]


def alignment_hint(ref: PoseTrajectory, est: PoseTrajectory, rmse: float) -> str | None:
    """Say the aligned rmse when the unaligned ``rmse`` is over :data:`ALIGN_HINT_FACTOR` times it.

    The rule, stated: an APE with no alignment (``ape``'s default, as given) that is
    more than 5 times the rmse after the better of an SE(3) and a Sim(3) fit on all
    matched poses measures mostly where the estimate's frame (or scale) is, not its
    shape. The closed-form residuals (:func:`~robot_msgs.evaluation.alignment.fit_rmse`,
    one pass over the positions) settle most runs; a hint's numbers come from both fits
    made and measured. A Sim(3)
    scale near 100 or 1000 (or their inverses) is said as the unit it is
    (:func:`length_units`), which sim3 would hide.

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(4.0)
    >>> xyz = np.array([[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 1]])
    >>> q = np.tile([0.0, 0, 0, 1], (4, 1))
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=xyz, orientations_quat_xyzw=q)
    >>> est = PoseTrajectory(stamps_s=t, positions_xyz=0.5 * xyz + 3, orientations_quat_xyzw=q)
    >>> hint = alignment_hint(ref, est, aligned_rmse(ref, est, "none"))
    >>> hint.split(" the rmse")[0], alignment_hint(ref, ref, aligned_rmse(ref, ref, "none"))
    ("hint: with `align='sim3'`", None)
    >>> mm = est.replace(positions_xyz=1000 * xyz)
    >>> alignment_hint(ref, mm, aligned_rmse(ref, mm, "none")).split("? ")[0]
    'hint: the Sim(3) scale is 0.001: the estimate in millimetres, not metres'
    """
    if len(ref) < 3 or not rmse > 0:
        return None
    # The closed-form Sim(3) residual (never above SE(3)'s) settles most runs: where it is
    # trusted to 1e-8, no hint at 4.5 times it means none at 5 times the fitted one. Else
    # both fits are made and measured, as the hint says them.
    sim3 = fit_rmse(est.positions_xyz, ref.positions_xyz)[1]
    if rmse <= _SURELY_NO_HINT * sim3:
        return None
    try:
        fitted = {m: _fitted(ref, est, m) for m in ("se3", "sim3")}
    except AlignmentError:  # collinear or too few distinct positions: no hint
        return None
    fits = {m: f[0] for m, f in fitted.items()}
    best = min(fits, key=fits.__getitem__)
    if not rmse > ALIGN_HINT_FACTOR * fits[best]:
        return None
    scale = fitted["sim3"][1]
    units = length_units(ref, est, scale)
    if units is not None:  # mm or cm: sim3's rmse would hide the fault (a review)
        return (
            f"hint: the Sim(3) scale is {scale:.3g}: {units}, not metres? convert it: "
            f"`align='sim3'` gives {fits['sim3']:.3g} m, not {rmse:.3g} m, but would also "
            "hide any real scale error"
        )
    other = "se3" if best == "sim3" else "sim3"
    return (
        f"hint: with `align='{best}'` the rmse is {fits[best]:.3g} m (`align='{other}'`: "
        f"{fits[other]:.3g} m), not {rmse:.3g} m: unaligned, the APE measures the "
        "estimate's frame and scale as well as its shape"
    )


def ape_result(prepared: Prepared, spec: Ape, names: tuple[str, str]) -> EvaluationResult:
    """Compute the APE of trajectories already cut, associated and aligned (``"ape"``).

    One signal, the relation's error of every matched pose at its estimate stamp (so
    ``iae``/``ise``/``itae`` are set). A NEES relation adds its chi-square bounds to
    the result's ``estimated``, the count ``nees_inside_pose_bounds`` and a note that
    says whether the filter is consistent (:mod:`~robot_msgs.evaluation.consistency`).
    """
    relation = spec.relation
    estimate, alignment = prepared.estimate_to_move()  # no aligned copy where none is needed
    errors = ape_errors(prepared.reference, estimate, relation, alignment=alignment)
    stamps = estimate.stamps_s  # an alignment keeps the stamps
    signal = signal_of(relation, RELATION_UNITS[relation], errors, stamps)
    estimated: dict[str, Value] = {}
    counts: dict[str, int] = {}
    notes: list[str] = []
    if relation in NEES_DOF:  # the chi-square bounds and the verdict go with the numbers
        estimated, counts, notes = nees_summary(errors, relation, prepared.settings.confidence)
    if relation == "translation" and prepared.settings.align == "none":
        hint = alignment_hint(prepared.reference, prepared.estimate, signal.stats.rms)
        notes = [*notes, hint] if hint else notes
    return prepared.result(
        "ape",
        [signal],
        parameters=spec.record(),
        names=names,
        estimated=estimated,
        counts=counts,
        notes=notes,
    )
