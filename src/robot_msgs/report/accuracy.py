"""Accuracy of one run through :mod:`robot_msgs.evaluation`, and the series the plots draw.

Nothing here computes an error itself: one :func:`~robot_msgs.evaluation.prepare`
(association and alignment, run once per run) feeds
:func:`~robot_msgs.evaluation.ape_from_prepared` and, per delta,
:func:`~robot_msgs.evaluation.rpe_from_prepared`; the per-pose and per-pair series for the
plots come from the same preparation (:func:`~robot_msgs.evaluation.ape_errors`, or
:func:`~robot_msgs.evaluation.select_pairs` on the aligned estimate and
:func:`~robot_msgs.evaluation.rpe_errors`), so the plotted errors are the ones summarised
(the tests check their RMSEs agree).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import (
    EvaluationSettings,
    PairSettings,
    ape,
    ape_from_prepared,
    prepare,
    rpe_from_prepared,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.compare.comparison import Comparison
    from robot_msgs.msg import Value
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
    """Translation APE and RPE of ``estimate`` against ``reference`` with the report's settings.

    RPE uses all pairs ``delta`` apart, selected on the aligned estimate (evo's default).
    A delta that yields no pair (a run shorter than the delta) is skipped with a note on
    the APE comparison rather than failing the report.

    Raises
    ------
    AssociationError, AlignmentError
        As :func:`robot_msgs.evaluation.ape`.
    """
    prep = prepare(reference, estimate, _evaluation_settings(settings))
    ape_result = ape_from_prepared(
        prep, relation="translation", reference_name=reference_name, estimate_name=estimate_name
    )
    ape_comparison = ape_result.comparison
    rpe_comparisons: list[Comparison] = []
    pair_errors: list[Float64Array] = []
    skipped: list[str] = []
    for delta in settings.rpe_deltas:
        pairs = PairSettings(delta=delta, delta_unit=settings.rpe_unit, all_pairs=True)
        try:
            result = rpe_from_prepared(
                prep, pairs=pairs, relation="translation", reference_name=reference_name,
                estimate_name=estimate_name,
            )  # fmt: skip
        except ValidationError as err:
            skipped.append(f"RPE delta {delta:g} {settings.rpe_unit} skipped: {err}")
            continue
        rpe_comparisons.append(result.comparison)
        pair_errors.append(result.series["translation"].errors)
    if skipped:
        ape_comparison = ape_comparison.replace(notes=(*ape_comparison.notes, *skipped))
    return AccuracyResult(
        ape=ape_comparison,
        rpe=tuple(rpe_comparisons),
        stamps_s=ape_result.series["translation"].stamps_s,
        errors_m=ape_result.series["translation"].errors,
        aligned_xyz=prep.estimate.positions_xyz,
        reference_xyz=prep.reference.positions_xyz,
        rpe_errors_m=tuple(pair_errors),
    )


def _evaluation_settings(settings: ReportSettings) -> EvaluationSettings:
    return EvaluationSettings(
        align=settings.align,
        n_align=settings.n_align if settings.align != "none" else None,
        sync=settings.sync,
        max_diff_s=settings.max_diff_s,
        offset_s=settings.offset_s,
    )


def pairwise_ape(
    first: PoseTrajectory, second: PoseTrajectory, settings: ReportSettings
) -> tuple[float, Mapping[str, Value]]:
    """Translation APE RMSE of ``second`` against ``first`` as reference, and its settings."""
    s = _evaluation_settings(settings).replace(offset_s=0.0)
    result = ape(first, second, settings=s, relation="translation")
    return result.stats["translation"].rms, result.comparison.settings
