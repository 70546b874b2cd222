"""Relative pose error (RPE): pose pairs ``delta`` apart, their motion compared."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.statistics import error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.pairs import select_pairs
from robot_msgs.evaluation.pipeline import Signal, prepare, stamps_if_increasing
from robot_msgs.evaluation.relations import (
    RELATION_UNITS,
    RPE_RELATIONS,
    check_relation,
    rpe_errors,
)
from robot_msgs.evaluation.settings import PairSettings, pair_settings_list, pair_settings_record
from robot_msgs.evaluation.tum_rpe import tum_rpe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["rpe", "rpe_from_prepared"]


def rpe(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    settings: EvaluationSettings | None = None,
    pairs: PairSettings | Sequence[PairSettings] | None = None,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Relative pose error of ``estimate`` against ``reference`` over pose pairs ``delta`` apart.

    For each pair ``(i, j)`` of matched poses (:func:`~robot_msgs.evaluation.select_pairs`),
    ``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` reduced by ``relation``
    (:func:`~robot_msgs.evaluation.rpe_errors`). The same computation as ``evo_rpe``
    (evo 1.38.1) for what both share: ``delta_unit`` ``f``, ``m``, ``rad``, ``deg``,
    ``--all_pairs``, ``--pairs_from_reference``, the settings as in
    :func:`~robot_msgs.evaluation.absolute` (pairs are taken from the *aligned* estimate, as
    evo does). The unit ``s`` (seconds) is ours; its rule is in
    :mod:`robot_msgs.evaluation.pairs`.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test; neither is modified.
    settings : EvaluationSettings, optional
        Time range, association and alignment (default: evo's, no alignment).
    pairs : PairSettings or sequence of PairSettings, optional
        How the pairs are chosen (default: consecutive pairs 1 frame apart, from the
        estimate). Several, differing only in ``delta``, give one signal per delta from
        one association and alignment, keyed ``relation@{delta}{unit}``
        (``translation@1s``), with ``counts`` ``pairs@1s``... and ``delta`` recorded as
        a tuple. ``protocol="tum"`` runs TUM's ``evaluate_rpe.py`` rules instead
        (:func:`~robot_msgs.evaluation.tum_rpe`).
    relation : str
        One of :data:`~robot_msgs.evaluation.RPE_RELATIONS`.
    reference_name, estimate_name : str
        Labels stored in the result.

    Returns
    -------
    EvaluationResult
        ``metric="rpe"``, stats keyed by the relation; ``counts`` adds ``pairs``; the
        series holds each pair's error at its end stamp with the pair's rows; the
        statistics have the end stamps as time axis when those increase strictly
        (consecutive pairs, frame deltas), otherwise ``iae``/``ise``/``itae`` are NaN.

    Raises
    ------
    ValidationError
        An unknown relation, or a ``delta`` that gives no pair at all.
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
    >>> result = rpe(ref, est, pairs=PairSettings(delta=1.0, delta_unit="s", all_pairs=True))
    >>> round(result.stats["translation"].rms, 6), result.counts["pairs"]
    (0.01, 91)
    >>> result.series["translation"].pairs[0].tolist()
    [0, 10]
    """
    name = check_relation(relation, allowed=RPE_RELATIONS)
    chosen = pair_settings_list(PairSettings() if pairs is None else pairs)  # before the work
    if chosen[0].protocol == "tum":
        return tum_rpe(
            reference,
            estimate,
            settings=settings,
            pairs=chosen,
            relation=name,
            reference_name=reference_name,
            estimate_name=estimate_name,
        )
    prep = prepare(reference, estimate, settings)
    return rpe_from_prepared(
        prep,
        pairs=chosen,
        relation=name,
        reference_name=reference_name,
        estimate_name=estimate_name,
    )


def rpe_from_prepared(
    prepared: Prepared,
    *,
    pairs: PairSettings | Sequence[PairSettings] | None = None,
    relation: str = "translation",
    reference_name: str = "",
    estimate_name: str = "",
) -> EvaluationResult:
    """Compute the RPE of trajectories already cut, associated and aligned by :func:`prepare`.

    What :func:`rpe` computes after its :func:`prepare`; call it to reuse one preparation
    for several deltas or relations (a report's RPE per delta does).

    Parameters
    ----------
    prepared : Prepared
        The matched reference and aligned estimate, with their settings.
    pairs, relation, reference_name, estimate_name
        As for :func:`rpe`.

    Returns
    -------
    EvaluationResult
        As :func:`rpe` returns it.

    Raises
    ------
    ValidationError
        An unknown relation, a ``delta`` that gives no pair at all, or
        ``protocol="tum"`` (which matches the poses its own way: use :func:`rpe`).

    Examples
    --------
    >>> import numpy as np
    >>> from robot_msgs.evaluation import prepare
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(5.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
    ... )
    >>> prep = prepare(ref, ref.replace(positions_xyz=ref.positions_xyz * 1.5))
    >>> [rpe_from_prepared(prep, pairs=PairSettings(delta=d)).stats["translation"].mean
    ...  for d in (1, 2)]
    [0.5, 1.0]
    """
    name = check_relation(relation, allowed=RPE_RELATIONS)
    chosen = pair_settings_list(PairSettings() if pairs is None else pairs)
    if chosen[0].protocol == "tum":
        msg = (
            "Expected protocol 'evo' for trajectories prepared by prepare(): the TUM "
            "protocol matches the poses its own way; call rpe() or tum_rpe()"
        )
        raise ValidationError(msg, field="PairSettings.protocol", reason=msg)
    signals: dict[str, Signal] = {}
    counts: dict[str, int] = {}
    notes: list[str] = []
    for each in chosen:
        suffix = "" if len(chosen) == 1 else f"@{each.delta:g}{each.delta_unit}"
        signal, note = _signal(prepared, each, name)
        signals[name + suffix] = signal
        counts["pairs" + suffix] = len(signal.errors)
        notes += [f"{note} ({each.label()})" if suffix else note] if note else []
    return prepared.result(
        "rpe",
        signals,
        parameters={"relation": name, **pair_settings_record(chosen)},
        counts=counts,
        notes=notes,
        reference_name=reference_name,
        estimate_name=estimate_name,
    )


def _signal(prepared: Prepared, pairs: PairSettings, name: str) -> tuple[Signal, str]:
    """One delta's errors as a signal, and a note ("" for none)."""
    source = prepared.estimate if pairs.pairs_from == "estimate" else prepared.reference
    rows = select_pairs(source, pairs)
    if rows.shape[0] == 0:
        found = (
            f"no pose pair among the {len(source)} matched poses of the {pairs.pairs_from} "
            f"(duration {source.duration_s:.6g} s, path {source.path_length_m:.6g} m)"
        )
        msg = f"delta = {pairs.delta!r} {pairs.delta_unit} gave {found}: use a smaller delta" + (
            "" if pairs.all_pairs else " or all pairs"
        )
        raise ValidationError(msg, field="PairSettings.delta", reason=found)
    errors = rpe_errors(prepared.reference, prepared.estimate, rows, name)
    note = ""
    if name == "point_distance_error_ratio":
        dropped = int(np.count_nonzero(np.isnan(errors)))
        if dropped:
            note = (
                f"{dropped} pair(s) whose reference positions coincide have no distance "
                "ratio and were left out (evo drops them too)"
            )
    end_stamps = source.stamps_s[rows[:, 1]]
    signal = Signal(
        stats=error_stats(errors, t=stamps_if_increasing(end_stamps)),
        unit=RELATION_UNITS[name],
        stamps_s=end_stamps,
        errors=errors,
        pairs=rows,
    )
    return signal, note
