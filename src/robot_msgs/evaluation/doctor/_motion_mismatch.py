"""The doctor's checks that the two motions belong together (``motion_mismatch``).

Another sequence or a wrong pairing (:func:`_unrelated`), a side held still between
jumps (:func:`_held_side`), a side standing still or turning in place (:func:`_still`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError
from robot_msgs.evaluation.ape import aligned_rmse
from robot_msgs.evaluation.doctor._fit import _matched_at
from robot_msgs.evaluation.doctor._noise import (
    _distance_noise,
    _noise_variance,
    _spread_and_noise,
    _steps_grow,
    _turn_noise,
    _white,
)
from robot_msgs.evaluation.doctor._rules import (
    _MIN_MOTIONS,
    _MOVES,
    _NOISE_CEILING,
    _STILL,
    _STILL_EXPLAINED,
    _UNRELATED_R,
    _VARIES,
    _round,
)
from robot_msgs.evaluation.offset import held_between_jumps
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    rotation_vector_from_quat_xyzw,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.msg import Value
    from robot_msgs.typing import IntpArray


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
