"""The doctor's checks of the matched motion: coverage, rates, scale, frames, the fit."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError
from robot_msgs.evaluation.alignment import align, length_units, mirrored_fit, umeyama
from robot_msgs.evaluation.ape import aligned_rmse
from robot_msgs.evaluation.association import DEFAULT_GAP_INTERVALS
from robot_msgs.evaluation.doctor._rules import (
    _COLLINEAR,
    _DOMINANT_SHARE,
    _FIRST_SHARE,
    _GAP_SHARE,
    _GAPS_VARY,
    _GROWS,
    _LOW_COVERAGE,
    _LOW_MATCHED,
    _MATCHED_SHARE,
    _MIN_FIRST,
    _MIN_MOTIONS,
    _MIRRORED_SHARE,
    _MOVES,
    _NOISE_CEILING,
    _PARTIAL_COVERAGE,
    _PLANAR_AXIS,
    _PLANAR_M,
    _PLANAR_SHARE,
    _RESOLVED,
    _ROUNDING,
    _SCALE_OFF,
    _SHOWN_WINDOWS,
    _SIGNIFICANT,
    _STILL,
    _STILL_EXPLAINED,
    _UNRELATED_R,
    _VARIES,
    _WHITE,
    _WINDOW_CHANGE,
    _WINDOWS,
    EXTRINSIC_DEG,
    EXTRINSIC_M,
    _median_step,
    _percent,
    _round,
    _spread,
)
from robot_msgs.evaluation.hand_eye import _Estimated, _estimated
from robot_msgs.evaluation.offset import held_between_jumps
from robot_msgs.evaluation.relations import ape_errors, rpe_errors
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    matrix_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_rotate,
    rotation_vector_from_matrix,
    rotation_vector_from_quat_xyzw,
)
from robot_msgs.runs.losses import coverage
from robot_msgs.trajectory import PoseTrajectory, rows_past_limit

if TYPE_CHECKING:
    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.evaluation.association import Association
    from robot_msgs.msg import Value
    from robot_msgs.typing import Float64Array, IntpArray


def _coverage(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Finding | None:
    stamps = estimate.stamps_s + settings.offset_s
    step = _median_step(estimate)
    gap = DEFAULT_GAP_INTERVALS * step
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    covered = coverage(stamps, (), start_s=r0, end_s=r1, coverage_gap_s=gap)
    steps = np.diff(stamps)
    gaps = np.flatnonzero(steps > gap)
    lost = float(steps[gaps].sum())
    lost_share = lost / max(estimate.duration_s, 1e-12)
    held, held_share = (
        _reference_gaps(reference, stamps, settings) if stamps.size > 1 else ("", 0.0)
    )
    beyond, beyond_share = _beyond_reference(r0, r1, stamps, frames=estimate.stamps_are_frames)
    said = {"reference_gaps_share": _round(held_share, 4)} if held else {}
    said |= {"outside_reference_share": _round(beyond_share, 4)} if beyond else {}
    if lost_share < _GAP_SHARE and covered >= _PARTIAL_COVERAGE:
        if not said:
            return None
        return Finding(
            kind="coverage",
            severity="warning" if max(held_share, beyond_share) >= _LOW_COVERAGE else "info",
            summary=(held + beyond)[2:],
            evidence=said,
        )
    # WHY the clauses' shares too: "warning from half", as alone above (fr1_xyz's first 8 s
    # beside rgbdslam, covered 57%, 83% of the estimate's span beyond it, was an info).
    warning = (
        lost_share >= _GAP_SHARE
        or covered < _LOW_COVERAGE
        or max(held_share, beyond_share) >= _LOW_COVERAGE
    )
    # Frame indices are counted in frames, as the README promises (KITTI without times
    # said "gaps longer than 10 s"; a review).
    unit = " frames" if estimate.stamps_are_frames else " s"
    shown = [f"{stamps[i]:.2f}..{stamps[i + 1]:.2f}{unit}" for i in gaps[:_SHOWN_WINDOWS]]
    more = f" and {gaps.size - len(shown)} more" if gaps.size > len(shown) else ""
    where = f": {', '.join(shown)}{more}" if shown else ""
    late, early = float(stamps[0]) - r0, r1 - float(stamps[-1])
    ends = [f"starts {late:.3g}{unit} after"] if late > 0 else []
    ends += [f"ends {early:.3g}{unit} before"] if early > 0 else []
    inside = f" (no gap longer than {gap:.3g}{unit}: it {' and '.join(ends)} the reference)"
    if gaps.size:  # no count of zero gaps: the span it misses is then at its ends
        inside = (
            f"; {gaps.size} gap(s) longer than {gap:.3g}{unit} take {lost_share:.0%} "
            f"of its own{where}"
        )
    elif not ends:
        inside = ""
    return Finding(
        kind="coverage",
        severity="warning" if warning else "info",
        summary=f"the estimate covers {_percent(covered)} of the reference's span{inside}; "
        f"errors are of the covered part only{held}{beyond}",
        evidence=said
        | {
            "covered_share": _round(covered, 4),
            "success_rate": _round(covered, 4),
            "gaps": int(gaps.size),
            "lost_s": _round(lost, 6),
            "gap_threshold_s": _round(gap, 6),
            "gap_starts_s": tuple(float(stamps[i]) for i in gaps[:20]),
            "gap_ends_s": tuple(float(stamps[i + 1]) for i in gaps[:20]),
        },
    )


def _beyond_reference(
    r0: float, r1: float, stamps: Float64Array, *, frames: bool
) -> tuple[str, float]:
    """Say the share of the estimate's span (``stamps``) outside the reference's ``r0..r1``.

    WHY: fr1_xyz's first 6 s as the reference beside rgbdslam's 26.6 s was said "the
    estimate covers 42% of the reference's span", true of the reference's 6 s, silent on
    the 24 s of the estimate after it, whose poses match none. Returns the clause (""
    under :data:`_GAP_SHARE`) and the share, its lengths in frames where ``frames`` (KITTI
    without times was said "2.54e+03 s after its end").
    """
    e0, e1 = float(stamps[0]), float(stamps[-1])
    if not e1 > e0:
        return "", 0.0
    before, after = max(0.0, min(r0, e1) - e0), max(0.0, e1 - max(r1, e0))
    share = (before + after) / (e1 - e0)
    if not share >= _GAP_SHARE:
        return "", share
    unit = " frames" if frames else " s"
    where = " and ".join(
        [f"{before:.3g}{unit} before its start"] * (before > 0)
        + [f"{after:.3g}{unit} after its end"] * (after > 0)
    )
    said = (
        f"; {share:.0%} of the estimate's span lies outside the reference's ({where}): "
        "the estimate's poses there match none, and are in no error"
    )
    return said, share


def _reference_gaps(
    reference: PoseTrajectory, stamps: Float64Array, settings: EvaluationSettings
) -> tuple[str, float]:
    """Say the reference's gaps inside the estimate's span (``stamps``), if they matter.

    WHY: fr1_xyz's ground truth with 10 s cut out against the whole of itself, or
    rgbdslam, was "nothing found" while 990 of the 3000 estimate poses, a third, matched
    none (``ape`` counts them "unmatched estimate"): their errors are in no figure.
    Returns the clause ("" where the gaps take less than :data:`_GAP_SHARE` of the span)
    and the gaps' share of the estimate's span.
    """
    t = reference.stamps_s
    e0, e1 = float(stamps[0]), float(stamps[-1])
    # Ten steps of the slower side: fr2_desk's ground truth (300 Hz) pauses 84 times for
    # 0.03-0.05 s, over which its ORB estimate's 30 Hz poses still find a partner.
    step = max(_median_step(reference), float(np.median(np.diff(stamps))))
    # And no gap the matching bridges: fr2_desk_ORB's poses in its ground truth's 0.3-12 s
    # gaps were said to "match none" with --sync interpolate --max-gap 15, which matched
    # all 2893 (nearest matches a pose within max_diff_s of either end of a gap).
    bridged = 2.0 * settings.max_diff_s
    if settings.sync.startswith("interpolate") and settings.max_gap_s is not None:
        bridged = settings.max_gap_s
    gap = max(DEFAULT_GAP_INTERVALS * step, bridged)
    steps = np.diff(t)
    a, b = np.maximum(t[:-1], e0), np.minimum(t[1:], e1)
    lost = np.where(steps > gap, np.clip(b - a, 0.0, None), 0.0)
    # Less the estimate's own gaps (said apart, as its own): the same 10 s cut out of both
    # sides was "38% of the estimate's span ... match none", where it has no pose at all.
    # ``gone`` is the time in the estimate's gaps before each knot (piecewise linear).
    own_step = float(np.median(np.diff(stamps)))
    own = np.flatnonzero(np.diff(stamps) > DEFAULT_GAP_INTERVALS * own_step)
    if own.size:
        knots = np.stack([stamps[own], stamps[own + 1]], 1).ravel()
        gone = np.cumsum(np.diff(knots, prepend=knots[0]) * np.tile([0.0, 1.0], own.size))
        lost -= np.where(lost > 0, np.interp(b, knots, gone) - np.interp(a, knots, gone), 0.0)
        lost = np.where(lost > own_step, lost, 0.0)  # no estimate pose left there
    share = float(lost.sum()) / (e1 - e0) if e1 > e0 else 0.0
    if not share >= _GAP_SHARE:
        return "", share
    where = np.flatnonzero(lost > 0)
    unit = " frames" if reference.stamps_are_frames else " s"
    shown = [f"{t[i]:.2f}..{t[i + 1]:.2f}{unit}" for i in where[:_SHOWN_WINDOWS]]
    more = f" and {where.size - len(shown)} more" if where.size > len(shown) else ""
    said = (
        f"; the reference has {where.size} gap(s) longer than {gap:.3g}{unit} over "
        f"{share:.0%} of the estimate's span ({', '.join(shown)}{more}): the estimate's "
        "poses there match none, and are in no error"
    )
    return said, share


def _rate_mismatch(
    reference: PoseTrajectory, estimate: PoseTrajectory, association: Association
) -> Finding | None:
    """Find the poses nearest matching loses: the slower side's poses left without a partner."""
    if association.method == "interpolate":
        return None
    shifted = estimate.stamps_s + association.offset_s
    r0, r1 = reference.stamps_s[0], reference.stamps_s[-1]
    n_est = int(((shifted >= r0) & (shifted <= r1)).sum())
    n_ref = int(((reference.stamps_s >= shifted[0]) & (reference.stamps_s <= shifted[-1])).sum())
    slower = min(n_est, n_ref)
    steps = _median_step(reference), _median_step(estimate)
    if (
        slower == 0
        or association.n_matched >= _MATCHED_SHARE * slower
        or min(steps) <= 2.0 * association.max_diff_s  # a partner within reach: not the rates
    ):
        return None
    share = association.n_matched / slower
    rates = 1.0 / steps[0], 1.0 / steps[1]
    return Finding(
        kind="rate_mismatch",
        severity="warning" if share < _LOW_MATCHED else "info",
        summary=f"{association.n_matched} of the {slower} poses of the slower side match "
        f"within {association.max_diff_s:g} s (reference {rates[0]:.3g} Hz, estimate "
        f"{rates[1]:.3g} Hz): interpolate the reference, or widen the tolerance",
        evidence={
            "matched": association.n_matched,
            "matched_share": _round(share, 3),
            "reference_inside": n_ref,
            "estimate_inside": n_est,
            "reference_rate_hz": _round(rates[0], 4),
            "estimate_rate_hz": _round(rates[1], 4),
        },
        fix={"sync": "interpolate"},
    )


def _scale(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    extrinsic: Extrinsic | None,
) -> Finding | None:
    """Find a scale far from 1: the extrinsic's when one was found, else Umeyama's on positions.

    WHY the extrinsic's: a lever arm moves the sensor's positions off the body's, and a
    fit on positions then takes part of it for scale (a 0.2 m lever arm on
    ``freiburg1_xyz``'s 0.3 m motion reads as a scale of 0.9).
    """
    if extrinsic is not None:
        s = extrinsic.scale
    else:
        try:
            s = umeyama(matched_est.positions_xyz, matched_ref.positions_xyz, with_scale=True)[2]
        except AlignmentError:
            return None
    if abs(s - 1.0) <= _SCALE_OFF:
        return None
    se3 = aligned_rmse(matched_ref, matched_est, "se3")
    sim3 = aligned_rmse(matched_ref, matched_est, "sim3")
    accepted = settings.align in SCALED_METHODS
    # A factor of 100 or 1000: metres written in cm or mm (or km), not a monocular scale.
    units = length_units(matched_ref, matched_est, s)
    unit_error = units is not None
    why = (
        f"{units}, not metres? convert it: sim3 would also hide any real scale error"
        if unit_error
        else "a monocular estimate?"
    )
    return Finding(
        kind="scale",
        severity="info" if accepted else "warning",
        summary=f"the estimate's lengths are {1.0 / s:.3g} times the reference's (Sim(3) "
        f"scale {s:.3g}; {why}): APE {se3:.3g} m with se3, {sim3:.3g} m with sim3"
        f"{_matched_at(settings)}, which hides the scale error and its drift",
        evidence={
            "scale": _round(s),
            "estimate_scale": _round(1.0 / s),
            "ape_rmse_se3_m": _round(se3),
            "ape_rmse_sim3_m": _round(sim3),
        },
        fix={} if accepted or unit_error else {"align": "sim3"},
    )


def _inverted_poses(traj: PoseTrajectory) -> PoseTrajectory | None:
    """Return each pose inverted: positions ``-Rᵀ p``, rotations ``Rᵀ``; ``None``: past bounds.

    ``None`` when a coordinate of ``-Rᵀ p`` lies past :data:`~robot_msgs.limits.POSITION_LIMIT_M`
    (up to √3 times a coordinate of ``p``): the poses are then not tried inverted. WHY: an
    estimate circling (5e149, 5e149, 0) m, turned 45° about z, made the doctor raise
    "Expected coordinates within +-1e+150 m, got float -1.098e+150 - at
    `PoseTrajectory.positions_xyz[0]`", a coordinate no file held (a review).
    """
    quats = traj.orientations_quat_xyzw
    positions = -quat_xyzw_rotate(quats, traj.positions_xyz, inverse=True)
    if rows_past_limit(positions).size:
        return None
    return traj.replace(positions_xyz=positions, orientations_quat_xyzw=quat_xyzw_conjugate(quats))


def _inverted(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find poses written inverted (the world in the camera, ``T_cw``, for ``T_wc``).

    The positions of the inverted poses, ``-Rᵀ p``, fit the reference (Sim(3)) at least
    twice as well as the poses as written. WHY: such an estimate was called a monocular
    scale of 2.69 and sent to ``--align sim3`` (0.127 m for 0.0134 m; a review).
    """
    turned = _inverted_poses(matched_est)
    if turned is None:
        return None
    try:
        as_written = aligned_rmse(matched_ref, matched_est, "sim3")
        inverted = aligned_rmse(matched_ref, turned, "sim3")
    except AlignmentError:
        return None
    if not inverted < _MIRRORED_SHARE * as_written:
        return None
    return Finding(
        kind="inverted",
        severity="error",
        summary=(
            f"the estimate's poses inverted fit the reference to {inverted:.3g} m rms "
            f"(sim3), and as written to {as_written:.3g} m: they are the world's pose in "
            "the sensor's frame (T_cw), where a trajectory is the sensor's in the world "
            "(T_wc); write each pose inverted"
        ),
        evidence={"rmse_as_written_m": _round(as_written), "rmse_inverted_m": _round(inverted)},
    )


def _unrelated(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    *,
    resolved: bool = True,
    raws: tuple[tuple[PoseTrajectory, IntpArray], ...] = (),
) -> Finding | None:
    """Find motions that do not follow each other: another sequence, or a wrong pairing.

    Over pairs of matched poses about a second apart, the distance travelled and the
    angle turned on each side are correlated (Pearson); a scale, a sensor frame or a
    lever arm keeps both near 1 (0.95-1.0 on the evo test pairs), another sequence
    moved into the reference's time span gave 0.02 and 0.32. WHY: that estimate was
    called a monocular scale of 26.6 and sent to ``--align sim3``, which gave 0.180 m,
    a plausible number for two unrelated trajectories (a review).

    Distances are judged only where their variation along the reference stands above
    the noise of both sides (:data:`_NOISE_CEILING`, :func:`_distance_noise`), the
    noise counted where ``resolved``: the matched poses show each side's own noise
    (:func:`_noise_resolved`; keyframes a second apart of another sequence look like
    white noise by themselves, and are no noise).
    """
    n = len(matched_ref)
    span = matched_ref.duration_s
    if n < _MIN_MOTIONS or span <= 0:
        return None
    k = max(1, round((n - 1) / span))  # rows about a second apart
    if n - k < _MIN_MOTIONS:
        return None
    first, last = np.arange(n - k), np.arange(k, n)
    moves = []
    for traj in (matched_ref, matched_est):
        q = traj.orientations_quat_xyzw
        step = traj.positions_xyz[last] - traj.positions_xyz[first]
        turn = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[first]), q[last]))
        moves.append((np.linalg.norm(step, axis=1), turn))
    # Only what varies along the reference can correlate: a constant speed and turn rate
    # (a circle on a test rig, a simulation) or a static recording leave noise alone, and
    # were called another sequence (a review). Each quantity that varies must disagree.
    moved, turned = (
        float(np.corrcoef(ref_side, est_side)[0, 1]) if np.std(ref_side) and np.std(est_side)
        else math.nan
        for ref_side, est_side in zip(*moves, strict=True)
    )  # fmt: skip
    varies = [
        float(np.mean(ref_side)) > floor
        and float(np.std(ref_side)) > _VARIES * float(np.mean(ref_side))
        for ref_side, floor in zip(moves[0], _MOVES, strict=True)
    ]
    held = _held_side(matched_ref, matched_est)
    if held is None and raws:
        # WHY the rows matched span: interpolated (--sync interpolate), a held side's jumps
        # are ramps over the steps between matched poses, and nav2's /tf:map.odom against
        # /tf:odom.base_link was called "another sequence, or a wrong pairing of files"
        # (a review); its own rows still hold still between jumps.
        held = _held_side(*(_span(raw, i) for raw, i in raws), own=True)
    # WHY the noise: a 1 cm/s line at 100 Hz with 1 mm of noise a pose on both sides, one
    # motion, was said "does not follow ... another sequence" (correlation 0.01; a review):
    # its distances over a second (1 cm) vary by the noise alone (1.4 mm), not the motion.
    # A side held still between jumps has none: its unchanged steps show no noise, and its
    # second differences are its jumps (white-looking), which as the reference's noise
    # left no distance judged (a held map->odom reference was called a monocular scale of
    # 22.8; a review).
    if resolved:
        # WHY the angles' too: one circle on both sides with 1 deg of orientation noise a
        # pose turns a steady 11.5 deg a second, varied by the noise alone (1.4 deg), and
        # was said "does not follow ... another sequence" (a review).
        # WHY the reference's variation for the estimate's angles: a car's reference
        # against a straight line with 1 deg of orientation noise a pose, which turns
        # by its noise alone, left the angles unjudged as well as the distances, and was
        # called a monocular scale of 13.5 (a review). No scale or sensor frame changes
        # an angle turned: an estimate of the reference's motion turns as it varies, plus
        # its own noise; one that does not is no such estimate.
        for part, noise_of in enumerate((_distance_noise, _turn_noise)):
            noise_ref, noise_est = (
                0.0 if held is not None and held[0] == name else noise_of(traj)
                for name, traj in (("reference", matched_ref), ("estimate", matched_est))
            )
            var_ref, var_est = (float(np.var(side[part])) for side in moves)
            if part == 1:
                var_est = max(var_ref - noise_ref, 0.0) + noise_est
            ceiling = math.prod(
                1.0 - min(1.0, noise / var) if var else 0.0
                for noise, var in ((noise_ref, var_ref), (noise_est, var_est))
            )
            varies[part] = varies[part] and ceiling >= _NOISE_CEILING**2
    # NaN (no motion): unsure; where a side holds still between jumps, its jumps' angles
    # against an estimate that never turns (NaN) leave the distances to judge.
    said = [
        r
        for r, v in zip((moved, turned), varies, strict=True)
        if v and (held is None or not math.isnan(r))
    ]
    if not said or not all(r < _UNRELATED_R for r in said):
        return None
    evidence: dict[str, Value] = {
        "distance_correlation": _round(moved, 3),
        "angle_correlation": _round(turned, 3),
    }
    cause = "another sequence, or a wrong pairing of files"
    if held is not None:
        # WHY: nav2's /tf:map.odom (AMCL's correction) against /odom, one recording, was
        # said "another sequence, or a wrong pairing of files" (a review): map->odom
        # holds still between 129 jumps, 372 of its 501 steps unchanged, and spreads
        # 0.82 m, 26 times its noise: no standing still, and no pose of the robot.
        side, unchanged, steps, own = held
        between = "own steps over the poses matched" if own else "steps between matched poses"
        cause = (
            f"the {side} holds still between jumps: {unchanged} of its {steps} {between} "
            f"change nothing, and it moves in {steps - unchanged} jumps, as a "
            "transform only corrections move (a localisation's map->odom), not the pose of "
            "a moving body: a wrong topic or TF frame"
        )
        evidence |= {"held_side": side, "held_steps_share": _round(unchanged / steps, 3)}
    return Finding(
        kind="motion_mismatch",
        severity="error",
        summary=(
            f"the estimate's motion does not follow the reference's: over {n - k} pairs of "
            f"matched poses {k} rows apart, the distances travelled correlate {moved:.2f} "
            f"and the angles turned {turned:.2f} (a scale or a sensor frame keeps both near "
            f"1): {cause}"
        ),
        evidence=evidence,
    )


def _distance_noise(traj: PoseTrajectory) -> float:
    """Variance that white noise adds to a distance between two of the poses (m²).

    A pose's noise ``σ`` (:func:`_spread_and_noise`, over the three axes) makes the
    difference of two poses ``2 σ²``, a third of it along their direction: ``2 σ² / 3``.
    Zero where the second differences are no white noise's (:func:`_white`): sparse
    keyframes' are their motion's, which a distance does not gain.
    """
    if not _white(traj):
        return 0.0
    return 2.0 * _spread_and_noise(traj)[1] ** 2 / 3.0


def _turn_noise(traj: PoseTrajectory) -> float:
    """Variance that white orientation noise adds to the angle turned between two poses (rad²).

    The turns from pose to pose, ``log(R_iᵀ R_{i+1})``, differ from the next by
    ``n_{i+1} - 2 n_i + n_{i-1}`` of each pose's noise ``n`` (rotation vectors), as the
    positions' second differences do: their noise ``σ`` over three axes
    (:func:`_spread_and_noise_of`) adds ``2 σ² / 3`` to the angle about the turn's axis,
    as :func:`_distance_noise` to a distance. Zero where those differences are no white
    noise's (:func:`_white_of`).
    """
    q = traj.orientations_quat_xyzw
    steps = rotation_vector_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[:-1]), q[1:]))
    second = steps[1:] - steps[:-1]
    if not _white_of(second):
        return 0.0
    return 2.0 * _noise_variance(second) / 3.0


def _span(raw: PoseTrajectory, index: IntpArray) -> PoseTrajectory:
    """Return the poses of ``raw``'s rows from the first of ``index`` to its last.

    A new trajectory of the poses alone: a ``replace`` kept the covariances of all rows,
    which nav2's ``/amcl_pose`` has, and raised on their count.
    """
    rows = slice(int(index.min()), int(index.max()) + 1) if index.size else slice(0, 0)
    return PoseTrajectory(
        stamps_s=raw.stamps_s[rows],
        positions_xyz=raw.positions_xyz[rows],
        orientations_quat_xyzw=raw.orientations_quat_xyzw[rows],
    )


def _held_side(
    matched_ref: PoseTrajectory, matched_est: PoseTrajectory, *, own: bool = False
) -> tuple[str, int, int, bool] | None:
    """Find the one side whose pose is unchanged over most steps between matched poses.

    Returns the side, its unchanged steps, all its steps and ``own`` (the sides given are
    the rows the matched poses span, not the matched poses); ``None`` when neither side,
    or both, hold still over at least half their steps between jumps: its changing steps
    mostly alone, each between steps that change nothing.
    WHY the jumps: an estimate that repeats its last pose while tracking is lost, half
    the time, moves in a few long stretches, and was said "moves in 499 jumps, as a
    transform only corrections move" (rvC's review of cdd63f9); nav2's map->odom changes
    in 120 runs over its 129 changing steps.
    """
    found = []
    for side, traj in (("reference", matched_ref), ("estimate", matched_est)):
        p, q = traj.positions_xyz, traj.orientations_quat_xyzw
        held = np.all(p[1:] == p[:-1], 1) & np.all(q[1:] == q[:-1], 1)
        if held_between_jumps(held):
            found.append((side, int(np.count_nonzero(held)), len(traj) - 1, own))
    return found[0] if len(found) == 1 else None


def _spread_and_noise(traj: PoseTrajectory) -> tuple[float, float]:
    """RMS distance of the positions from their mean, and their white noise a pose (m).

    The noise from second differences, ``var(p[i+1] - 2 p[i] + p[i-1]) = 6 σ²`` for
    independent noise of ``σ`` a pose (as :mod:`robot_msgs.evaluation.offset` measures a
    reference's): a side standing still spreads about once its noise.
    """
    return _spread_and_noise_of(traj.positions_xyz)


def _spread_and_noise_of(p: Float64Array) -> tuple[float, float]:
    """:func:`_spread_and_noise` of rows ``p`` ``(N, 3)``: any vectors in a sequence."""
    centred = p - p.mean(axis=0)
    spread = math.sqrt(float(np.einsum("ni,ni->", centred, centred)) / len(p))
    return spread, math.sqrt(_noise_variance(p[2:] - 2.0 * p[1:-1] + p[:-2]))


def _noise_variance(second: Float64Array) -> float:
    """White noise's variance a vector ``σ²`` from second differences ``(M, 3)``: ``Σ/6M``.

    ``var(n[i+1] - 2 n[i] + n[i-1]) = 6 σ²`` for independent noise ``n`` of ``σ``.
    """
    return float(np.einsum("ni,ni->", second, second)) / (6.0 * len(second))


def _white(traj: PoseTrajectory) -> bool:
    """Whether the positions' second differences look like white noise's.

    The second differences of independent noise correlate ``-4σ² / 6σ² = -2/3`` with the
    next; a smooth motion's follow each other (positive). Below :data:`_WHITE`: noise.
    """
    p = traj.positions_xyz
    return _white_of(p[2:] - 2.0 * p[1:-1] + p[:-2])


def _white_of(second: Float64Array) -> bool:
    """:func:`_white` of second differences ``(M, 3)`` of any sequence of vectors."""
    if len(second) < 2:
        return False
    power = float(np.einsum("ni,ni->", second, second))
    if not power > 0:
        return False
    return float(np.einsum("ni,ni->", second[1:], second[:-1])) / power < _WHITE


def _noise_resolved(raw: PoseTrajectory, index: IntpArray, matched: PoseTrajectory) -> bool:
    """Whether ``matched`` (rows ``index`` of ``raw``) shows ``raw``'s own noise a pose.

    Its noise by second differences no more than :data:`_RESOLVED` times that of the rows
    it spans in ``raw``: white noise keeps its size however sparsely sampled; a motion's
    second differences grow with the samples' spacing (keyframes a second apart of 3 m of
    wandering look like 3 m of noise a pose).
    """
    if index.size < 3 or len(raw) < 3:
        return False
    rows = raw.positions_xyz[int(index.min()) : int(index.max()) + 1]
    second = rows[2:] - 2.0 * rows[1:-1] + rows[:-2]
    if len(second) == 0:
        return False
    own = math.sqrt(float(np.einsum("ni,ni->", second, second)) / (6.0 * len(second)))
    return _spread_and_noise(matched)[1] <= _RESOLVED * own


def _steps_grow(traj: PoseTrajectory) -> bool:
    """Whether the steps between poses grow with the time between them: a motion sampled.

    White noise's steps do not depend on the gaps; a motion's, sampled sparsely, grow
    with them. Said where the gaps vary (the longest at least :data:`_GAPS_VARY` times the
    shortest) over at least :data:`_MIN_MOTIONS` steps and the steps' ranks correlate with
    the gaps' above :data:`_GROWS` (Spearman; about 2.8 standard errors of noise at 32
    poses).
    """
    gaps = np.diff(traj.stamps_s)
    if gaps.size < _MIN_MOTIONS or not float(gaps.max()) > _GAPS_VARY * float(gaps.min()):
        return False
    steps = np.linalg.norm(np.diff(traj.positions_xyz, axis=0), axis=1)
    ranks = [np.argsort(np.argsort(v)).astype(np.float64) for v in (steps, gaps)]
    if not (np.std(ranks[0]) and np.std(ranks[1])):
        return False
    return float(np.corrcoef(ranks[0], ranks[1])[0, 1]) > _GROWS


def _still(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    *,
    resolved: bool = True,
) -> Finding | None:
    """Find one side standing still while the other moves, or both standing still.

    ``resolved``: whether the matched poses show each side's own noise
    (:func:`_noise_resolved`); both are said to stand still only then.

    A side stands still when its positions spread no more than :data:`_STILL` times its
    own noise (:func:`_spread_and_noise`), or the other side's when that one stands still
    (then both do: :func:`_both_still`); the other's spread more than that times its
    own noise and the still side's, and the estimate's motion, fitted by Sim(3), explains
    less than :data:`_STILL_EXPLAINED` of the reference's variance (sparse keyframes of a
    real motion, a few a swing, spread little against their own steps, but follow the
    reference). WHY: a reference standing still
    (0.1 mm noise) under an estimate that moves was called "scale 8.84e-06, a monocular
    estimate?" and sent to ``--align sim3``, which shrinks the estimate to a point (APE
    0.000172 m); an estimate standing still, "scale 520", sent there too for the same
    1.32 m APE as se3 (a review). No alignment makes such a pair say anything.
    """
    if len(matched_ref) < _MIN_MOTIONS:
        return None
    (ref_spread, ref_noise), (est_spread, est_noise) = (
        _spread_and_noise(matched_ref), _spread_and_noise(matched_est)
    )  # fmt: skip
    # WHY the gaps: freiburg1_xyz's ORB keyframes (0.06 to 3 s apart) spread 0.163 m with
    # 0.132 m of white-looking second differences, and against 20 s of fr2_desk's were
    # said "both stand still" (a review): their steps grow with the time between them,
    # as a motion's do and white noise's do not. Such a side neither stands still nor
    # lends its "noise" as the other's yardstick.
    ref_moves, est_moves = _steps_grow(matched_ref), _steps_grow(matched_est)
    ref_still = not ref_moves and ref_spread <= _STILL * ref_noise
    est_still = not est_moves and est_spread <= _STILL * est_noise
    if not (ref_still or est_still):
        return None
    # WHY the still side's noise: a reference standing still (V1_02's first 3.5 s, 0.67 mm
    # RMS, 10 times its 0.07 mm noise) under an estimate of that stillness with 1.6 mm
    # noise was said "the estimate stands still ... another recording" (a review): what
    # the other side moves within the still side's noise is no motion the still side
    # could have shown. Both then stand still.
    # WHY only the still side's gaps: a reference swaying 0.35 mm under an estimate of that
    # stillness with 1.5 mm noise, at keyframe stamps 0 to 0.2 s apart, was said "the
    # estimate stands still ... another recording" again (a review): the sway's steps grow
    # with the gaps, as any motion's do; it is the side lending its noise that must show
    # noise, not the side moving within it.
    ref_still = ref_still or (not est_moves and ref_spread <= _STILL * est_noise)
    est_still = est_still or (not ref_moves and est_spread <= _STILL * ref_noise)
    try:
        sim3 = aligned_rmse(matched_ref, matched_est, "sim3")
    except AlignmentError:
        sim3 = ref_spread  # a still side's positions all equal: nothing explained
    explained = 1.0 - (sim3 / ref_spread) ** 2 if ref_spread > 0 else 0.0
    if explained >= _STILL_EXPLAINED:  # they follow each other: keyframes, say
        return None
    if ref_still and est_still:
        # WHY white noise: a motion sampled coarsely (3 m of smooth wandering at 10 Hz)
        # has second differences as large as its spread, and under a transform held
        # between jumps was said "both stand still" (a check of this rule); noise's own
        # follow each other at -2/3, a smooth motion's do not.
        # WHY resolved: keyframes a second apart of another sequence than the reference
        # (3 m of wandering) look like white noise of 3 m a pose on both sides, and were
        # said "both stand still" (a warning) where "another sequence" was said (an error;
        # rvC's review of 8284d96): sampled so sparsely, no noise is measured.
        white = [n for t, n in ((matched_ref, ref_noise), (matched_est, est_noise)) if _white(t)]
        if resolved and white and max(ref_spread, est_spread) <= _STILL * max(white):
            return _both_still(matched_ref, matched_est, settings)
        return None

    def said(spread: float, noise: float) -> str:
        if not noise > 0:  # one point, or a line walked at an even step
            return f"{spread:.3g} m RMS about its mean, without noise"
        return (
            f"{spread:.3g} m RMS about its mean, {spread / noise:.2g} times its own noise "
            f"({noise:.3g} m a pose)"
        )

    still, moving = ("reference", "estimate") if ref_still else ("estimate", "reference")
    turn = _in_place(matched_ref if ref_still else matched_est)
    sides = {"reference": said(ref_spread, ref_noise), "estimate": said(est_spread, est_noise)}
    # WHY a reference standing still is a warning: a robot held still while its estimate
    # drifts is a test of its own (the APE without alignment is the drift; a review).
    stood = still == "reference"
    return Finding(
        kind="motion_mismatch",
        severity="warning" if stood else "error",
        summary=(
            f"the {still} {'turns in place' if turn else 'stands still'}: over "
            f"{len(matched_ref)} matched poses it moves {sides[still]}{turn}, where the "
            f"{moving} moves {sides[moving]}; neither follows "
            f"the other (Sim(3) explains {max(explained, 0.0):.0%} of the reference's "
            + (
                "variance), and no alignment fits them "
                if stood
                else "variance), and no alignment makes their APE mean anything "
            )
            + f"(sim3 would fit a scale of the two motions' sizes){_matched_at(settings)}: "
            + (
                "if the robot stood still, the APE with `align='none'` is the estimate's "
                "drift; else another recording, or a wrong topic or file"
                if stood
                else "another recording, or a wrong topic or file"
            )
        ),
        evidence={
            "still_side": still,
            "reference_spread_m": _round(ref_spread),
            "reference_noise_m": _round(ref_noise),
            "estimate_spread_m": _round(est_spread),
            "estimate_noise_m": _round(est_noise),
            "explained_share": _round(max(explained, 0.0), 3),
        },
    )


def _both_still(
    matched_ref: PoseTrajectory, matched_est: PoseTrajectory, settings: EvaluationSettings
) -> Finding:
    """Say both sides standing still: each within its own noise or the other's.

    WHY: V1_02's first 3.5 s (the vehicle on the ground, 0.67 mm RMS) against themselves
    with 1 mm of noise added were said "scale 5.76, a monocular estimate? fix --align
    sim3" (a review): a Sim(3) fit of two stillnesses scales noise onto noise, an SE(3)
    fit turns it; neither says anything, and the APE as given is the estimate's error at
    a standstill.
    """
    (ref_spread, ref_noise), (est_spread, est_noise) = (
        _spread_and_noise(matched_ref), _spread_and_noise(matched_est)
    )  # fmt: skip
    noisier = max(ref_noise, est_noise)
    turns = [_in_place(side) for side in (matched_ref, matched_est)]

    def said(whose: str, spread: float, noise: float, turn: str) -> str:
        own = f", {noise:.3g} m of noise a pose" if noise > 0 else ", without noise"
        return f"the {whose} spreads {spread:.3g} m RMS about its mean{own}{turn}"

    return Finding(
        kind="motion_mismatch",
        severity="warning",
        summary=(
            ("both hold their positions" if any(turns) else "both stand still")
            + f": over {len(matched_ref)} matched poses "
            f"{said('reference', ref_spread, ref_noise, turns[0])}, "
            f"{said('estimate', est_spread, est_noise, turns[1])}; each spreads no more than "
            f"{_STILL:g} times the noisier side's noise ({noisier:.3g} m a pose), so there "
            "is nothing to align or scale (se3 would turn noise onto noise, sim3 scale it)"
            f"{_matched_at(settings)}: the APE with `align='none'` is the estimate's error "
            "at a standstill"
        ),
        evidence={
            "still_side": "both",
            "reference_spread_m": _round(ref_spread),
            "reference_noise_m": _round(ref_noise),
            "estimate_spread_m": _round(est_spread),
            "estimate_noise_m": _round(est_noise),
        },
    )


def _in_place(traj: PoseTrajectory) -> str:
    """Say how far a side whose positions stand still turns (``""``: within its noise).

    The largest angle from its first orientation, said where the angles' RMS exceeds
    :data:`_STILL` times the orientations' own noise (from the turns' second
    differences, as :func:`_turn_noise`), as the positions' spread is held to theirs,
    and the largest exceeds half a degree (:data:`_MOVES`). WHY: a robot turning in
    place, 0.5 rad/s for 20 s, was said to "stand still": true of its positions only.
    WHY the RMS, not the largest: the largest of 1000 poses of a still robot with 0.3
    deg of noise on each axis reached 2.08 deg, over 3 times the noise, and 4 seeds of
    10 were said to "turn in place" (a review).
    """
    q = traj.orientations_quat_xyzw
    turned = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[[0] * len(q)]), q))
    steps = rotation_vector_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[:-1]), q[1:]))
    noise = math.sqrt(_noise_variance(steps[1:] - steps[:-1])) if len(q) > 2 else 0.0
    most = float(np.max(turned))
    if most <= _MOVES[1] or math.sqrt(float(np.mean(turned**2))) <= _STILL * noise:
        return ""
    return f", while it turns up to {math.degrees(most):.3g} deg from its first orientation"


def _mirrored(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find positions that fit far better mirrored than rotated: a flipped axis.

    WHY: an estimate with one axis flipped (y down in a y-up world, a left-handed frame)
    was called a monocular scale of 1.59 and sent to ``--align sim3`` (APE 0.146 m for
    the 0.0135 m of the same estimate unflipped), or not seen at all (a review).
    """
    proper, mirrored = mirrored_fit(matched_est.positions_xyz, matched_ref.positions_xyz)
    if not mirrored < _MIRRORED_SHARE * proper:
        return None
    return Finding(
        kind="mirrored",
        severity="error",
        summary=(
            f"the estimate's positions fit the reference mirrored to {mirrored:.3g} m rms, "
            f"where the best rotation and scale leave {proper:.3g} m: one of its axes is "
            "flipped (a left-handed frame, or two axes swapped), which no alignment undoes; "
            "write the estimate in the reference's right-handed axes"
        ),
        evidence={"rmse_rotated_m": _round(proper), "rmse_mirrored_m": _round(mirrored)},
    )


def _turned(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find poses written inverted (:func:`_inverted`) or positions mirrored (:func:`_mirrored`).

    When both fit, the one that fits at least twice as well (:data:`_MIRRORED_SHARE`), or
    both said as one ``mirrored`` finding when neither does (or both fit to rounding): the
    motion cannot tell them apart, and the positions are mirrored either way.
    WHY: inverting poses that do not turn, ``-Rᵀ p`` with ``R`` constant, mirrors their
    positions (``det(-Rᵀ) = -1``): an estimate mirrored in y of a reference that moves
    without turning was said to be "the world's pose in the sensor's frame (T_cw) ...
    write each pose inverted", both fitting to 1e-15 m (a review).
    """
    inverted, mirrored = _inverted(matched_ref, matched_est), _mirrored(matched_ref, matched_est)
    if inverted is None or mirrored is None:
        return inverted if inverted is not None else mirrored
    by_inverse = float(inverted.evidence["rmse_inverted_m"])  # type: ignore[arg-type]
    by_mirror = float(mirrored.evidence["rmse_mirrored_m"])  # type: ignore[arg-type]
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    if max(by_inverse, by_mirror) > rounding:
        if by_inverse < _MIRRORED_SHARE * by_mirror:
            return inverted
        if by_mirror < _MIRRORED_SHARE * by_inverse:
            return mirrored
    proper = float(mirrored.evidence["rmse_rotated_m"])  # type: ignore[arg-type]
    return mirrored.replace(
        summary=(
            f"the estimate's positions fit the reference mirrored to {by_mirror:.3g} m rms, "
            f"and its poses inverted to {by_inverse:.3g} m (sim3), where the best rotation "
            f"and scale leave {proper:.3g} m: its orientations turn too little to tell "
            "which (poses that do not turn, inverted, are their positions mirrored). One of "
            "its axes is flipped (a left-handed frame, or two axes swapped), or its poses "
            "are the world's pose in the sensor's frame (T_cw); write the estimate in the "
            "reference's right-handed axes, or each pose inverted, as its source says"
        ),
        evidence={**mirrored.evidence, "rmse_inverted_m": _round(by_inverse)},
    )


def _planar(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    rotation: Float64Array,
) -> Finding | None:
    """Find an estimate flat along one of its axes against a reference that is not.

    WHY: a 2-D estimate (z written as 0) against 3-D ground truth gave an APE of
    0.0856 m where the same estimate in the plane gives 0.0133 m, and the doctor said
    nothing (a review); ``project_to_plane`` compares the two in the plane.
    """
    if settings.project_to_plane is not None:
        return None
    est = matched_est.positions_xyz
    flat = [k for k in range(3) if est[0, k] == est[:, k].min() == est[:, k].max()]
    if len(flat) != 1:
        return None
    ref = matched_ref.positions_xyz
    spread = np.sqrt(np.linalg.eigvalsh(np.cov(ref, rowvar=False)))
    if not spread[0] > max(_PLANAR_SHARE * spread[-1], _PLANAR_M):
        return None
    axis = "xyz"[flat[0]]
    # The projection is made in the reference's axes, after the alignment: the estimate's
    # flat axis turned by the fitted rotation names the plane (a y-down camera's flat y
    # was sent to xz, where xy fits; a review), or none when it lies between two axes.
    normal = np.abs(rotation[:, flat[0]] if settings.align != "none" else np.eye(3)[flat[0]])
    along = int(np.argmax(normal))
    plane = "xyz".replace("xyz"[along], "") if normal[along] > _PLANAR_AXIS else None
    where = (
        f"compare the two in the reference's {plane} plane"
        if plane
        else "its plane lies between the reference's axes: no axis plane compares the two"
    )
    return Finding(
        kind="planar",
        severity="warning",
        summary=(
            f"the estimate's {axis} is {est[0, flat[0]]:.6g} m at every pose, where the "
            f"reference moves along all three axes (its least spread {spread[0]:.3g} m): a "
            f"2-D estimate, whose APE then counts the reference's height; {where}"
        ),
        evidence={"flat_axis": axis, "reference_least_spread_m": _round(float(spread[0]))},
        fix={"project_to_plane": plane} if plane else {},
    )


def _extrinsic(
    matched_ref: PoseTrajectory, matched_est: PoseTrajectory
) -> tuple[Finding | None, Extrinsic | None]:
    """Find a significant sensor-to-body extrinsic; also return it when it is a warning."""
    try:
        found = _estimated(*_spread(matched_ref, matched_est), with_scale=True, refuse=False)
    except AlignmentError:
        return None, None
    x = found.extrinsic
    line = _line_unturned(matched_ref)
    if line is not None:
        return _extrinsic_on_a_line(found, line), None
    if found.screw is not None:
        return _extrinsic_on_a_line(found, found.screw, turning=True), None
    rotvec = np.degrees(rotation_vector_from_matrix(x.rotation[None])[0])
    angle = float(np.linalg.norm(rotvec))
    dist = float(np.linalg.norm(x.translation_m))
    std_deg = float(np.nanmax(x.std_deg)) if np.isfinite(x.std_deg).any() else math.inf
    std_m = float(np.nanmax(x.std_m)) if np.isfinite(x.std_m).any() else math.inf
    turned = angle > max(EXTRINSIC_DEG, _SIGNIFICANT * std_deg)
    moved = dist > max(EXTRINSIC_M, _SIGNIFICANT * std_m)
    if not (turned or moved):
        return None, None
    evidence: dict[str, Value] = {
        "rotation_vector_deg": tuple(_round(v) for v in rotvec),
        "angle_deg": _round(angle),
        "translation_m": tuple(_round(v) for v in x.translation_m),
        "std_deg": tuple(_round(v, 3) for v in x.std_deg),
        "std_m": tuple(_round(v, 3) for v in x.std_m),
        "rms_m": _round(x.rms_m, 4),
        "rms_deg": _round(x.rms_deg, 4),
        "unobservable": x.unobservable,
    }
    if x.unobservable:
        return Finding(
            kind="frame_extrinsic",
            severity="info",
            summary=f"the estimate may be a sensor frame ({angle:.3g} deg, {dist:.3g} m from "
            f"the body) but the motion leaves {', '.join(x.unobservable)} undetermined",
            evidence=evidence,
        ), None
    t = x.translation_m
    return Finding(
        kind="frame_extrinsic",
        severity="warning",
        summary=f"the estimate is a sensor frame on the reference's body: X turns {angle:.3g} "
        f"deg ± {std_deg:.1g} and moves ({t[0]:.3f}, {t[1]:.3f}, {t[2]:.3f}) m ± {std_m:.1g} "
        "(reference = S estimate X)",
        evidence=evidence,
        fix={"transform_right": x.transform_right()},
    ), x


def _line_unturned(traj: PoseTrajectory) -> Float64Array | None:
    """Return the line ``traj`` moves along without turning, in its body's axes; ``None``.

    A line: the positions spread along their main axis more than :data:`_STILL` times
    their noise a pose (:func:`_spread_and_noise`), and across it no more than that
    (sparse keyframes, whose second differences are their motion's, spread about once
    that "noise" along and across alike); without turning: the rotation
    vectors from the first orientation, taken as positions, spread no more than that
    times their own noise (none where they do not change). The direction is a unit
    vector in the first pose's body axes (the body does not turn).
    """
    p = traj.positions_xyz
    centred = p - p.mean(axis=0)
    _, sv, vt = np.linalg.svd(centred, full_matrices=False)
    across = math.sqrt(float(sv[1] ** 2 + sv[2] ** 2) / len(p))
    noise = _spread_and_noise(traj)[1]
    along = float(sv[0]) / math.sqrt(len(p))
    if not (along > _STILL * noise and across <= _STILL * noise):
        return None
    turns = matrix_from_quat_xyzw(traj.orientations_quat_xyzw)
    first = turns[0].T
    spread, noise = _spread_and_noise_of(rotation_vector_from_matrix(first @ turns))
    if spread > _STILL * noise:
        return None
    out: Float64Array = first @ vt[0]
    return out


def _extrinsic_on_a_line(
    found: _Estimated, line: Float64Array, *, turning: bool = False
) -> Finding | None:
    """Say the extrinsic of a reference moving along one ``line`` without turning, if any.

    The rotation about the line is undetermined (its fit follows the poses' noise across
    the line) and so is the translation (the body does not turn): only the rotation that
    turns the line's direction, the reference's body axes into the estimate's, is said,
    as an info, when it exceeds :data:`EXTRINSIC_DEG` and 3 standard uncertainties (those
    across the line's image in the estimate's body). WHY: a 1 cm/s line with 1 mm of
    noise a pose on both sides, orientations constant and equal, was said "the estimate
    may be a sensor frame (122 deg ...)", 56 to 122 deg by the noise's seed, the
    estimator claiming 0.5 deg of uncertainty (a review): the Gauss-Newton information
    counts the noise across the line as motion.

    With ``turning``, ``line`` is the axis of a body turning about one line
    (:func:`_one_screw_axis`): the rotation about it, and the translation, are as
    undetermined. WHY: a steady circle with 0.2 deg and 1 mm of noise a pose on both
    sides, the same poses, was said "the estimate is a sensor frame: X turns 2.84 deg ±
    0.2 and moves (0.149, -0.116, 0.005) m ± 0.02" with a fix (a review): a sensor
    carried round the circle's centre by 2.84 deg, 0.149 m ahead, moves alike, and only
    the noise told the fit where; without orientation noise, "2.97 m from the body".
    """
    x = found.extrinsic
    image = x.rotation @ line
    cross = np.cross(line, image)
    sine = float(np.linalg.norm(cross))
    angle = math.atan2(sine, float(line @ image))
    rotvec = np.degrees(cross / sine * angle) if sine > 0 else np.zeros(3)
    across = np.eye(3) - np.outer(image, image)
    block = across @ x.covariance_6x6[3:, 3:] @ across
    std = (
        math.degrees(math.sqrt(max(float(np.linalg.eigvalsh(block)[-1]), 0.0)))
        if np.isfinite(block).all()
        else math.inf
    )
    if not math.degrees(angle) > max(EXTRINSIC_DEG, _SIGNIFICANT * std):
        return None
    sign = 1.0 if line[int(np.argmax(np.abs(line)))] > 0 else -1.0
    axis = ", ".join(f"{sign * v + 0.0:+.2f}" for v in np.round(line, 2))
    where = "turns about" if turning else "moves along"
    why = "it turns about one line" if turning else "it does not turn"
    parts = found.undetermined
    translation = () if turning else tuple(u.text for u in parts if u.part == "translation")
    unobservable = (
        f"the rotation about the line the reference {where} ({axis}) of its body: {why}",
        *(u.text for u in parts if u.part == "scale"),
        *(translation or (f"the translation in any direction: the reference {why[3:]}",)),
    )
    return Finding(
        kind="frame_extrinsic",
        severity="info",
        summary=f"the estimate may be a sensor frame ({math.degrees(angle):.3g} deg, its "
        f"axes turned off the line the reference {where}) but the motion leaves "
        f"{', '.join(unobservable)} undetermined",
        evidence={
            "rotation_vector_deg": tuple(_round(float(v)) for v in rotvec),
            "angle_deg": _round(math.degrees(angle)),
            "std_deg": _round(std, 3),
            "line": tuple(_round(float(v)) for v in line),
            "unobservable": unobservable,
        },
    )


def _matched_at(settings: EvaluationSettings) -> str:
    """Say the clock offset the poses were matched at, if any: APE figures depend on it.

    ``ape`` with the same flags gave other figures (0.00975 m against the doctor's 0.0079
    m with sim3 on fr1_xyz's ORB keyframes) until given the offset the doctor found.
    """
    if settings.offset_s == 0.0:
        return ""
    return f" (poses matched at an offset of {settings.offset_s:.6g} s: `offset_s=`)"


def _alignment(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    method: str,
    settings: EvaluationSettings,
) -> Finding | None:
    spread = matched_ref.positions_xyz - matched_ref.positions_xyz.mean(axis=0)
    sv = np.linalg.svd(spread, compute_uv=False)
    if sv[0] == 0 or sv[1] / sv[0] < _COLLINEAR:
        return Finding(
            kind="alignment",
            severity="warning",
            summary="the reference positions are (nearly) collinear: the rotation about "
            "their line is not determined by an alignment on positions",
            evidence={"singular_values_m": tuple(_round(v) for v in sv)},
            fix={"align": "origin"},
        )
    n = len(matched_ref)
    first = max(_MIN_FIRST, int(_FIRST_SHARE * n))
    if first >= n:
        return None
    fitting = EvaluationSettings(align=method)  # type: ignore[arg-type]
    try:
        all_fit = align(matched_ref, matched_est, settings=fitting)[0]
        first_fit = align(matched_ref, matched_est, settings=fitting.replace(n_align=first))[0]
    except AlignmentError as err:
        return Finding(
            kind="alignment",
            severity="warning",
            summary=f"the alignment on the first {first} poses is degenerate: {err}",
            evidence={"n_align": first},
        )
    rmse_all = float(np.sqrt(np.mean(ape_errors(matched_ref, all_fit) ** 2)))
    rmse_first = float(np.sqrt(np.mean(ape_errors(matched_ref, first_fit) ** 2)))
    # WHY the floor: a noise-free circle against itself scaled x2 was said to change with
    # its window, "APE 4.9e-16 m ... 2.42e-15 m" (a review): float64 rounding, no drift.
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    if not rmse_first > max(_WINDOW_CHANGE * rmse_all, rounding):
        return None
    return Finding(
        kind="alignment",
        severity="info",
        summary=f"the fit changes with its window: APE {rmse_all:.3g} m fitted on all "
        f"{n} poses, {rmse_first:.3g} m fitted on the first {first} (drift shows only in "
        f"the second){_matched_at(settings)}",
        evidence={
            "ape_rmse_all_m": _round(rmse_all),
            "ape_rmse_first_m": _round(rmse_first),
            "n_first": first,
        },
    )


def _worst_intervals(matched_ref: PoseTrajectory, aligned: PoseTrajectory) -> Finding | None:
    stamps = matched_ref.stamps_s
    n = stamps.size
    if n < 2 * _WINDOWS:
        return None
    edges = np.linspace(stamps[0], stamps[-1], _WINDOWS + 1)
    ape_sq = ape_errors(matched_ref, aligned) ** 2
    pairs = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    rpe_sq = rpe_errors(matched_ref, aligned, pairs) ** 2
    parts = []
    evidence: dict[str, Value] = {}
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    # Frame indices (KITTI without its times) were said as seconds, "0.0..454.0 s" (a review).
    frames = matched_ref.stamps_are_frames
    unit, digits, since = ("frames", 0, "frame") if frames else ("s", 1, "time")
    for name, sq, t in (("ape", ape_sq, stamps), ("rpe", rpe_sq, stamps[1:])):
        total = float(sq.sum())
        if total <= sq.size * rounding * rounding:  # a product: ** raises past 1e154
            continue
        window = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, _WINDOWS - 1)
        shares = np.bincount(window, weights=sq, minlength=_WINDOWS) / total
        order = np.argsort(shares)[::-1][:_SHOWN_WINDOWS]
        if shares[order[0]] < _DOMINANT_SHARE:
            continue
        shown = [
            f"{edges[i] - edges[0]:.{digits}f}..{edges[i + 1] - edges[0]:.{digits}f} {unit} "
            f"({shares[i]:.0%})"
            for i in order
        ]
        parts.append(f"{name.upper()} {', '.join(shown)}")
        evidence[f"{name}_window_starts_s"] = tuple(float(edges[i]) for i in order)
        evidence[f"{name}_window_ends_s"] = tuple(float(edges[i + 1]) for i in order)
        evidence[f"{name}_shares"] = tuple(_round(float(shares[i]), 3) for i in order)
    if not parts:
        return None
    return Finding(
        kind="worst_intervals",
        severity="info",
        summary=(
            f"share of the mean square error by {since} since {edges[0]:.{3 * (not frames)}f} "
            f"{'' if frames else 's'}".rstrip()
            + ": "
            + "; ".join(parts)
        ),
        evidence=evidence,
    )
