"""Relative pose error (RPE) on prepared poses: pairs ``delta`` apart, their motion compared.

For each pair ``(i, j)`` of matched poses (:func:`~robot_msgs.evaluation.select_pairs`),
``E_ij = (Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` reduced by the relation
(:func:`~robot_msgs.evaluation.rpe_errors`): what :func:`~robot_msgs.evaluation.rpe` and
:func:`~robot_msgs.evaluation.evaluate` compute after the shared preparation, with evo's
pairs (``protocol="evo"``; TUM's is :mod:`robot_msgs.evaluation.tum_rpe`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.signal import delta_words, signal_name
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.pairs import select_pairs
from robot_msgs.evaluation.pipeline import signal_of
from robot_msgs.evaluation.relations import RELATION_UNITS, rpe_errors
from robot_msgs.evaluation.stamp_units import smaller_stamp_unit
from robot_msgs.rotations import angle_from_quat_xyzw, quat_xyzw_conjugate, quat_xyzw_multiply

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import Signal
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import PairSettings, Rpe
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["rpe_result"]


def rpe_result(prepared: Prepared, spec: Rpe, names: tuple[str, str]) -> EvaluationResult:
    """Compute the RPE of trajectories already cut, associated and aligned (``"rpe"``).

    One signal per delta, its ``delta`` and ``delta_unit`` typed; with several deltas
    each is named ``relation@{delta}{unit}`` and counted in ``counts["pairs@..."]``, with
    one, ``relation`` and ``counts["pairs"]``. Each pair's error is at its end stamp,
    with the pair's rows; the statistics of consecutive pairs have those stamps as time
    axis (``iae``/``ise``/``itae``); all pairs have no integrals (NaN), as other
    overlapping segments (drift's): whether their ends happened to increase strictly
    decided it before.

    Raises
    ------
    ValidationError
        A ``delta`` that gives no pair at all (``field`` is ``PairSettings.delta``), or
        fewer than 2 matched poses, of which no delta makes a pair.
    """
    several = len(spec.pairs) > 1
    signals: list[Signal] = []
    counts: dict[str, int] = {}
    notes: list[str] = []
    for pairs in spec.pairs:
        labelled: dict[str, Any] = (
            {"delta": pairs.delta, "delta_unit": pairs.delta_unit} if several else {}
        )
        name = signal_name(spec.relation, **labelled)
        signal, n, note = _signal(prepared, pairs, spec.relation, name)
        signals.append(signal)
        counts[signal_name("pairs", **labelled)] = n
        notes += [f"{note} ({pairs.label()})" if several else note] if note else []
    return prepared.result(
        "rpe", signals, parameters=spec.record(), names=names, counts=counts, notes=notes
    )


def _signal(
    prepared: Prepared, pairs: PairSettings, relation: str, name: str
) -> tuple[Signal, int, str]:
    """One delta's errors as a signal, its pair count, and a note ("" for none)."""
    source = prepared.estimate if pairs.pairs_from == "estimate" else prepared.reference
    rows = select_pairs(source, pairs)  # refuses seconds on frame indices
    if rows.shape[0] == 0 and len(source) < 2:  # no delta helps: "a smaller delta" did not
        reason = (
            f"no pose pair: the {pairs.pairs_from} has {len(source)} matched "
            f"pose{'' if len(source) == 1 else 's'}; a relative pose error needs at least 2"
        )
        raise ValidationError(reason, reason=reason)  # not the delta's fault: no field
    if rows.shape[0] == 0:
        # Frame indices (KITTI without its times) span frames: "1 frame", never seconds.
        frames = "frame" if source.duration_s == 1 else "frames"
        found = (
            f"no pose pair among the {len(source)} matched poses of the {pairs.pairs_from} "
            f"(duration {source.duration_s:.6g} {frames if source.stamps_are_frames else 's'}, "
            f"path {source.path_length_m:.6g} m)"
        )
        reason = f"delta = {delta_words(pairs.delta, pairs.delta_unit)} gave {found}: "
        span = {"s": source.duration_s, "m": source.path_length_m, "f": len(source) - 1.0}
        whole = span.get(pairs.delta_unit)
        step = whole / (len(source) - 1) if whole is not None and len(source) > 1 else None
        still = _still(source, pairs.delta_unit)
        if still:  # "use a smaller delta" was said where no delta > 0 gives a pair
            reason += (
                f"the {pairs.pairs_from} never {still}, so no delta in {pairs.delta_unit} makes "
                "a pair: use `delta_unit='f'` (frames) or `delta_unit='s'` (seconds)"
            )
        elif step is not None and 0 < pairs.delta < step:  # "a smaller delta" was said of 1e-300
            apart = delta_words(step, pairs.delta_unit, digits=3)
            reason += f"use a larger delta (the poses are {apart} apart)"
            unit = smaller_stamp_unit(prepared.reference, prepared.estimate)
            if pairs.delta_unit == "s" and unit is not None:  # a larger delta hid it (a review)
                reason += f", {unit.hint()}"
        elif whole is not None and pairs.delta > whole:  # all pairs cannot help (a review)
            reason += "use a smaller delta"
        else:
            reason += "use a smaller delta" + ("" if pairs.all_pairs else " or all pairs")
        raise ValidationError(reason, field="PairSettings.delta", reason=reason)
    errors = rpe_errors(prepared.reference, prepared.estimate, rows, relation)
    note = ""
    if relation == "point_distance_error_ratio":
        dropped = int(np.count_nonzero(np.isnan(errors)))
        if dropped:
            note = (
                f"{dropped} pair(s) whose reference positions coincide have no distance "
                "ratio and were left out (evo drops them too)"
            )
    signal = signal_of(
        relation,
        RELATION_UNITS[relation],
        errors,
        source.stamps_s[rows[:, 1]],
        rows,
        delta=pairs.delta,
        delta_unit=pairs.delta_unit,
        name=name,
        integrate=not pairs.all_pairs,
    )
    return signal, int(rows.shape[0]), note


def _still(source: PoseTrajectory, unit: str) -> str:
    """Say what ``source`` never does that a ``unit`` delta counts ("moves", "turns"), or ``""``."""
    if unit == "m":
        return "moves" if source.path_length_m == 0.0 else ""
    if unit in ("rad", "deg") and len(source) > 1:
        q = source.orientations_quat_xyzw
        turns = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[:-1]), q[1:]))
        return "turns" if not turns.any() else ""
    return ""
