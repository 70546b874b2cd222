"""Accuracy of one run through :mod:`robot_msgs.evaluation`, and the series the plots draw.

Nothing here computes an error itself: the comparisons are
:func:`robot_msgs.evaluation.ape` and :func:`robot_msgs.evaluation.rpe`, and the series
for the plots come from the same building blocks (:func:`~robot_msgs.evaluation.associate`,
:func:`~robot_msgs.evaluation.align`, :func:`~robot_msgs.evaluation.ape_errors`,
:func:`~robot_msgs.evaluation.select_pairs`, :func:`~robot_msgs.evaluation.rpe_errors`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robot_msgs.evaluation import (
    align,
    ape,
    ape_errors,
    associate,
    rpe,
    rpe_errors,
    select_pairs,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.msg import Scalar
    from robot_msgs.report.settings import ReportSettings
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["AccuracyResult", "evaluate_accuracy", "pairwise_ape"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AccuracyResult:
    """APE and RPE comparisons of one run, and the series behind its plots.

    Attributes
    ----------
    ape : Comparison
        Translation APE (metres) with the report's alignment.
    rpe : tuple of Comparison
        Translation RPE, one per delta of the settings.
    stamps_s : ndarray, shape (K,), float64, seconds
        Stamps of the matched estimate poses.
    errors_m : ndarray, shape (K,), float64, metres
        APE translation error of each matched pose.
    aligned_xyz, reference_xyz : ndarray, shape (K, 3), float64, metres
        The aligned estimate and the matched reference positions.
    rpe_errors_m : tuple of ndarray, shape (P_d,), float64, metres
        Per-pair RPE translation errors, one array per delta.
    """

    ape: Comparison
    rpe: tuple[Comparison, ...]
    stamps_s: Float64Array
    errors_m: Float64Array
    aligned_xyz: Float64Array
    reference_xyz: Float64Array
    rpe_errors_m: tuple[Float64Array, ...]

    def with_note(self, note: str) -> AccuracyResult:
        """A copy whose APE and RPE comparisons carry ``note`` too."""
        return dataclasses.replace(
            self,
            ape=self.ape.replace(notes=(*self.ape.notes, note)),
            rpe=tuple(c.replace(notes=(*c.notes, note)) for c in self.rpe),
        )


def evaluate_accuracy(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: ReportSettings,
    *,
    estimate_name: str = "",
    reference_name: str = "",
) -> AccuracyResult:
    """APE and RPE of ``estimate`` against ``reference`` with the report's settings.

    Raises
    ------
    AssociationError, AlignmentError
        As :func:`robot_msgs.evaluation.ape`.
    """
    common = {
        "align": settings.align,
        "sync": settings.sync,
        "max_diff_s": settings.max_diff_s,
        "offset_s": settings.offset_s,
    }
    ape_comparison = ape(
        reference,
        estimate,
        relation="translation",
        n_align=settings.n_align,
        reference_name=reference_name,
        estimate_name=estimate_name,
        **common,
    )
    rpe_comparisons = tuple(
        rpe(
            reference,
            estimate,
            relation="translation",
            delta=delta,
            delta_unit=settings.rpe_unit,
            all_pairs=True,
            reference_name=reference_name,
            estimate_name=estimate_name,
            **common,
        )
        for delta in settings.rpe_deltas
    )
    matched = associate(
        reference,
        estimate,
        method=settings.sync,
        max_diff_s=settings.max_diff_s,
        offset_s=settings.offset_s,
    )
    aligned = align(matched.estimate, matched.reference, method=settings.align, n=settings.n_align)
    errors = ape_errors(matched.reference, aligned, "translation")
    pair_errors = tuple(
        rpe_errors(
            matched.reference,
            aligned,
            select_pairs(aligned, delta, settings.rpe_unit, all_pairs=True),
            "translation",
        )
        for delta in settings.rpe_deltas
    )
    return AccuracyResult(
        ape=ape_comparison,
        rpe=rpe_comparisons,
        stamps_s=matched.estimate.stamps_s,
        errors_m=errors,
        aligned_xyz=aligned.positions_xyz,
        reference_xyz=matched.reference.positions_xyz,
        rpe_errors_m=pair_errors,
    )


def pairwise_ape(
    first: PoseTrajectory, second: PoseTrajectory, settings: ReportSettings
) -> tuple[float, Mapping[str, Scalar]]:
    """Translation APE RMSE of ``second`` against ``first`` as reference, and its settings."""
    comparison = ape(
        first,
        second,
        relation="translation",
        align=settings.align,
        n_align=settings.n_align,
        sync=settings.sync,
        max_diff_s=settings.max_diff_s,
    )
    return comparison.stats["translation"].rms, comparison.settings
