r"""The TUM RGB-D benchmark's RPE: ``evaluate_rpe.py --fixed_delta --max_pairs 0``, vectorised.

Papers on TUM RGB-D quote the benchmark's own script (Sturm et al., IROS 2012,
``rgbd_benchmark_tools/evaluate_rpe.py``). Its rules differ from evo's, so evo's numbers
(and ``robot-msgs rpe`` with ``protocol="evo"``) differ from the published ones: on
``freiburg1_xyz`` with 1 s pairs, our seconds rule gives 755 pairs where the script
finds 753. ``PairSettings(protocol="tum")`` follows the script:

Pairs (on the whole estimate, before any matching)
    An index per estimate pose, in the delta's unit: its stamp (``s``), the path length
    summed from the first pose (``m``), the rotation angle summed likewise (``rad``,
    ``deg``; each step's angle ``arccos((tr R - 1) / 2)`` of the relative rotation), or
    its row (``f``). Every pose ``i`` takes the pose ``j`` whose index is nearest to
    ``index[i] + delta`` (the script's binary search ``find_closest_index``, reproduced
    step by step, so that ties and exact hits go where they go there; ``j`` may equal
    ``i`` when no later pose is nearer); pairs whose ``j`` is the *last* pose are dropped
    (the script's ``j != len(traj_est) - 1``). ``--max_pairs 0``: every pair is kept;
    the script's default random sub-sampling to 10 000 pairs is not reproduced.
Matching (per pair end)
    Each estimate stamp plus ``offset_s`` takes the nearest reference stamp (the same
    binary search); a pair is dropped when either end is further than twice the median
    reference interval from its match. As the script, an estimate is refused when its
    stamps' matches lead back (each reference stamp's nearest estimate stamp) to fewer
    than two estimate stamps: it does not overlap the reference in time.
Error
    ``E = (P_i⁻¹ P_j) (Q_i⁻¹ Q_j)⁻¹`` (the script's ``ominus(ominus(P_j, P_i),
    ominus(Q_j, Q_i))``; evo's ``E`` multiplies the other way round), the translation
    ``‖t(E)‖`` and the rotation angle of ``R(E)``.

Differences, on purpose: angles come from quaternions, accurate near zero, where the
script takes ``arccos((tr R - 1) / 2)``, which rounds small angles to multiples of about
``2e-8`` rad; matrix inverses are rigid (``Rᵀ``) where the script inverts 4x4 matrices
numerically. Against the stored reference numbers (``tests/data/tum_rpe_reference.json``,
from running the script under Python 3 on ``freiburg1_xyz``, deltas in s, m, rad, deg
and f): the same pairs, translation statistics within 1.5e-12 relative, rotation within
2.5e-12 rad (errors of 1e-4 rad and more, where the script's rounding does not show).

Cost: ``O(N log N)``: one vectorised bisection over all poses at once.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.alignment import Alignment
from robot_msgs.compare.signal import signal_name
from robot_msgs.errors import DataWarning, ValidationError, caller_stacklevel
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.association import Association, take_rows
from robot_msgs.evaluation.offset import estimate_offset
from robot_msgs.evaluation.pairs import check_seconds
from robot_msgs.evaluation.pipeline import Prepared, signal_of, time_range
from robot_msgs.evaluation.quaternion_order import quaternion_order_check
from robot_msgs.evaluation.relations import RELATION_UNITS, keeps_matrices
from robot_msgs.evaluation.settings import EvaluationSettings, PairSettings
from robot_msgs.evaluation.stamp_units import stamp_text
from robot_msgs.evaluation.transforms import apply_transforms
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_rotate,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import Signal
    from robot_msgs.evaluation.settings import Rpe
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "check_tum_settings",
    "closest_index",
    "tum_pair_rows",
    "tum_rpe_result",
]


def closest_index(values: Float64Array, targets: Float64Array) -> IntpArray:
    """Row of the value nearest each target, as TUM's ``find_closest_index`` finds it.

    The script's binary search, run for every target at once: it keeps the best of the
    midpoints it visits (the first on a tie), and stops at an exact hit. ``values`` must
    be sorted.

    Examples
    --------
    >>> closest_index(np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.4, 1.5, 2.6, -9.0]))
    array([1, 2, 3, 0])
    """
    v = np.asarray(values, dtype=np.float64)
    t = np.asarray(targets, dtype=np.float64)
    lo = np.zeros(t.shape, dtype=np.intp)
    hi = np.full(t.shape, v.size, dtype=np.intp)
    best = np.zeros(t.shape, dtype=np.intp)
    diff = np.abs(v[0] - t)
    done = np.zeros(t.shape, dtype=bool)
    while True:
        active = ~done & (lo < hi)
        if not active.any():
            return best
        mid = np.where(active, (lo + hi) // 2, 0)
        value = v[mid]
        d = np.abs(value - t)
        better = active & (d < diff)
        best = np.where(better, mid, best)
        diff = np.where(better, d, diff)
        hit = active & (t == value)
        best = np.where(hit, mid, best)
        done |= hit
        left = active & ~hit & (value > t)
        right = active & ~hit & ~(value > t)
        hi = np.where(left, mid, hi)
        lo = np.where(right, mid + 1, lo)


def _index(estimate: PoseTrajectory, unit: str) -> Float64Array:
    """Return the script's ``index_est``: stamps, cumulative path or angle, or rows."""
    n = len(estimate)
    if unit == "s":
        return estimate.stamps_s
    if unit == "f":
        return np.arange(n, dtype=np.float64)
    if unit == "m":
        steps = np.linalg.norm(np.diff(estimate.positions_xyz, axis=0), axis=1)
    else:
        q = estimate.orientations_quat_xyzw
        rel = quat_xyzw_multiply(quat_xyzw_conjugate(q[1:]), q[:-1])
        # arccos((tr R - 1) / 2) as the script takes it: tr R = 4 w² - 1 for a unit q.
        steps = np.arccos(np.clip(2.0 * rel[:, 3] ** 2 - 1.0, -1.0, 1.0))
        if unit == "deg":
            steps = steps * (180.0 / np.pi)
    return np.concatenate(([0.0], np.cumsum(steps)))


def tum_pair_rows(estimate: PoseTrajectory, pairs: PairSettings) -> IntpArray:
    """Return the estimate rows ``(i, j)`` the script pairs with ``--fixed_delta``.

    The rules are in the module docstring.

    Examples
    --------
    >>> t = np.arange(6.0)
    >>> traj = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((6, 3)),
    ...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (6, 1)))
    >>> tum_pair_rows(traj, PairSettings(delta=2, protocol="tum")).tolist()
    [[0, 2], [1, 3], [2, 4]]
    """
    check_argument("estimate", estimate, PoseTrajectory)
    check_argument("pairs", pairs, PairSettings)
    check_seconds(estimate, pairs)
    index = _index(estimate, pairs.delta_unit)
    second = closest_index(index, index + pairs.delta)
    first = np.arange(index.size)
    keep = second != index.size - 1
    return np.stack([first[keep], second[keep]], axis=1).astype(np.intp)


def check_tum_settings(settings: EvaluationSettings) -> None:
    """Refuse settings the TUM protocol has no use for, naming the field.

    Raises
    ------
    ValidationError
        ``sync``, ``max_diff_s``, ``align``, ``max_gap_s`` or ``project_to_plane`` other
        than the default.

    Examples
    --------
    >>> check_tum_settings(EvaluationSettings(align="se3"))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: expected the default with protocol 'tum' (it aligns \
nothing (a relative error needs no alignment)), got 'se3' - at `EvaluationSettings.align`
    """
    defaults = EvaluationSettings()
    rules = {
        "sync": "it matches each estimate stamp with the nearest reference stamp",
        "max_diff_s": "it accepts a match within twice the median reference interval",
        "align": "it aligns nothing (a relative error needs no alignment)",
        "max_gap_s": "it does not interpolate",
        "project_to_plane": "it compares the poses in 3-D",
    }
    for name, why in rules.items():
        value = getattr(settings, name)
        if value != getattr(defaults, name):
            reason = f"expected the default with protocol 'tum' ({why}), got {value!r}"
            msg = f"{reason} - at `EvaluationSettings.{name}`"
            raise ValidationError(msg, field=f"EvaluationSettings.{name}", reason=reason)


def _errors(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    estimate_rows: IntpArray,
    reference_rows: IntpArray,
) -> tuple[Float64Array, Float64Array]:
    """Return ``‖t(E)‖`` (m) and the angle (rad) of ``E = (P_i⁻¹ P_j)(Q_i⁻¹ Q_j)⁻¹``.

    ``estimate_rows`` and ``reference_rows`` are ``(K, 2)``: each pair's rows in each.
    """

    def motion(traj: PoseTrajectory, rows: IntpArray) -> tuple[Float64Array, Float64Array]:
        q, p = traj.orientations_quat_xyzw, traj.positions_xyz
        first, second = rows[:, 0], rows[:, 1]
        q_i = q[first]
        rel = quat_xyzw_multiply(quat_xyzw_conjugate(q_i), q[second])
        step = quat_xyzw_rotate(q_i, p[second] - p[first], inverse=True)
        return rel, step

    q_dp, t_dp = motion(estimate, estimate_rows)
    q_dq, t_dq = motion(reference, reference_rows)
    q_e = quat_xyzw_multiply(q_dp, quat_xyzw_conjugate(q_dq))
    t_e = t_dp - quat_xyzw_rotate(q_e, t_dq)
    return np.linalg.norm(t_e, axis=1), angle_from_quat_xyzw(q_e)


def _check_overlap(
    reference: PoseTrajectory, estimate: PoseTrajectory, match: IntpArray, offset: float
) -> None:
    """Refuse an estimate that overlaps the reference in fewer than 2 stamps, as the script does.

    ``match`` is each estimate stamp's nearest reference row. evaluate_rpe.py takes, for
    every estimate stamp, its nearest reference stamp and that stamp's nearest estimate
    stamp, and raises "Number of overlap in the timestamps is too small" when fewer than
    two distinct estimate stamps come back. WHY: an estimate beside the reference in time
    (within twice its median interval of one end) had every pair matched to one reference
    pose at both ends, its motion compared with none, and a number was given.
    """
    back = closest_index(estimate.stamps_s, reference.stamps_s[match] - offset)
    overlap = int(np.unique(back).size)
    if overlap < 2:
        ref_t, est_t = reference.stamps_s, estimate.stamps_s
        msg = (
            f"Expected an estimate overlapping the reference in time (as evaluate_rpe.py "
            f"refuses): the nearest reference stamps of the {est_t.size} estimate stamps "
            f"(offset {offset:g} s) lead back to {overlap} estimate stamp; estimate "
            f"{stamp_text(est_t[0])} .. {stamp_text(est_t[-1])} s, reference "
            f"{stamp_text(ref_t[0])} .. {stamp_text(ref_t[-1])} s: check the files and the "
            "clock offset (`offset_s=`)"
        )
        raise ValidationError(msg)


def tum_rpe_result(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    spec: Rpe,
    names: tuple[str, str],
) -> EvaluationResult:
    """RPE by TUM's ``evaluate_rpe.py --fixed_delta --max_pairs 0`` (module docstring).

    ``settings``: the time range (cuts the reference), the transforms (move the
    estimate) and the offset (``offset_s``, the script's ``--offset``, or
    ``offset_auto``); the association and alignment fields keep their defaults
    (:func:`check_tum_settings`). ``spec.pairs``: ``delta`` (the script's ``--delta``)
    and ``delta_unit`` (``--delta_unit``), one signal per delta as for evo's pairs.

    Returns
    -------
    EvaluationResult
        ``metric="rpe"``; the matched trajectories are the estimate poses with a
        reference stamp within twice the median reference interval and those reference
        poses, stamped at the estimate's stamps plus the offset (the instants compared);
        each pair's error at its first stamp (the script's ``stamps``), with its rows.

    Raises
    ------
    ValidationError
        A setting the protocol does not have, an estimate that does not overlap the
        reference in time, or fewer than 2 pairs (as the script refuses).

    Examples
    --------
    >>> from robot_msgs.evaluation import Rpe
    >>> t = np.arange(0.0, 10.0, 0.1)
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
    ...                      orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (t.size, 1)))
    >>> est = ref.replace(positions_xyz=ref.positions_xyz * 1.02)
    >>> spec = Rpe(pairs=(PairSettings(delta=1.0, delta_unit="s", protocol="tum"),))
    >>> result = tum_rpe_result(ref, est, EvaluationSettings(), spec, ("", ""))
    >>> result.counts["pairs"], round(result.stats["translation"].mean, 12)
    (89, 0.02)
    """
    relation = spec.relation
    check_tum_settings(settings)
    cut, first_row = time_range(reference, settings.t_start_s, settings.t_end_s)
    moved = apply_transforms(estimate, settings)
    time_offset = estimate_offset(cut, moved, settings) if settings.offset_auto else None
    offset = settings.offset_s if time_offset is None else time_offset.offset_s
    if len(cut) < 2 or len(moved) < 2:
        msg = f"Expected at least 2 poses on each side, got {len(cut)} reference, {len(moved)}"
        raise ValidationError(msg)
    gap = 2.0 * cut.median_step_s
    match = closest_index(cut.stamps_s, moved.stamps_s + offset)
    _check_overlap(cut, moved, match, offset)
    valid = np.abs(cut.stamps_s[match] - (moved.stamps_s + offset)) <= gap
    rows = np.flatnonzero(valid)
    new_row = np.full(len(moved), -1, dtype=np.intp)
    new_row[rows] = np.arange(rows.size)
    several = len(spec.pairs) > 1
    signals: list[Signal] = []
    counts: dict[str, int] = {}
    for each in spec.pairs:
        ij = tum_pair_rows(moved, each)
        ij = ij[valid[ij[:, 0]] & valid[ij[:, 1]]]
        if ij.shape[0] < 2:
            msg = (
                f"Couldn't find 2 matching pose pairs (as evaluate_rpe.py refuses): delta = "
                f"{each.delta!r} {each.delta_unit} gave {ij.shape[0]} among the {len(moved)} "
                f"estimate poses, {rows.size} of them within {gap:.6g} s of a reference stamp"
            )
            raise ValidationError(msg, field="PairSettings.delta", reason=msg)
        trans, angle = _errors(cut, moved, ij, match[ij])
        errors = {"translation": trans, "angle_rad": angle, "angle_deg": np.degrees(angle)}[
            relation
        ]
        labelled: dict[str, Any] = (
            {"delta": each.delta, "delta_unit": each.delta_unit} if several else {}
        )
        # WHY: every pose starts a pair (--max_pairs 0), so pairs longer than a frame
        # overlap and their starts are no time axis for iae/ise/itae, as evo's all pairs;
        # pairs that chain (each from where the one before ended: 1 frame) keep theirs
        chained = bool((ij[1:, 0] >= ij[:-1, 1]).all())
        signals.append(
            signal_of(
                relation,
                RELATION_UNITS[relation],
                errors,
                moved.stamps_s[ij[:, 0]],
                new_row[ij],
                delta=each.delta,
                delta_unit=each.delta_unit,
                name=signal_name(relation, **labelled),
                integrate=chained,
            )
        )
        counts[signal_name("pairs", **labelled)] = int(ij.shape[0])
    matched_estimate = take_rows(moved, rows)  # a bag's exact stamps kept, as evo's protocol
    ref_rows = match[rows]
    matched_reference = PoseTrajectory._unchecked(  # noqa: SLF001
        moved.stamps_s[rows] + offset,
        cut.positions_xyz[ref_rows],
        cut.orientations_quat_xyzw[ref_rows],
        cut.frame_id,
        cut.child_frame_id,
        stamps_are_frames=cut.stamps_are_frames,
        orientations_from_matrices=cut.orientations_from_matrices,
    )
    association = Association(
        reference=matched_reference,
        estimate=matched_estimate,
        reference_index=ref_rows,
        estimate_index=rows,
        method="tum_nearest",
        max_diff_s=gap,
        offset_s=offset,
        n_reference=len(cut),
        n_estimate=len(moved),
        n_reference_used=int(np.unique(ref_rows).size),
    )
    notes = [] if time_offset is None else [time_offset.describe(), *time_offset.notes]
    notes.append(
        f"TUM evaluate_rpe.py protocol: each estimate stamp matched with the nearest "
        f"reference stamp within {gap:.6g} s (2 median reference intervals); "
        f"{len(moved) - rows.size} estimate poses had none"
    )
    if any((each.delta, each.delta_unit) == (1.0, "f") for each in spec.pairs):
        # evo's default pairs, which the script's users rarely mean: its figures are per second
        notes.append(
            'pairs 1 frame apart (`delta_unit="f"`, the evo default kept here); '
            'evaluate_rpe.py\'s default is 1 s: `delta_unit="s"` for its figures'
        )
    if keeps_matrices(reference, estimate):
        notes.append(
            "the rotation blocks kept as given are not used by TUM's protocol, which "
            "computes with unit quaternions (as its script does): their nearest rotations"
        )
    identity = Alignment(method="none", rotation=np.eye(3), translation_m=np.zeros(3))
    mix_up = quaternion_order_check(matched_reference, matched_estimate)
    if mix_up:
        warnings.warn(mix_up, DataWarning, stacklevel=caller_stacklevel())
        notes.append(mix_up)
    prepared = Prepared(
        association=association,
        alignment=identity,
        settings=settings,
        notes=tuple(notes),
        first_reference_row=first_row,
        outside_range=len(reference) - len(cut),
        time_offset=time_offset,
    )
    return prepared.result("rpe", signals, parameters=spec.record(), names=names, counts=counts)
