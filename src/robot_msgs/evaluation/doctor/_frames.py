"""The doctor's checks of the estimate's frame against the reference's.

Poses inverted (``T_cw`` for ``T_wc``), positions mirrored (a flipped axis), a 2-D
estimate (planar) and a sensor-to-body extrinsic (``frame_extrinsic``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError
from robot_msgs.evaluation.alignment import align, mirrored_fit
from robot_msgs.evaluation.ape import aligned_rmse
from robot_msgs.evaluation.doctor._noise import _spread_and_noise, _spread_and_noise_of
from robot_msgs.evaluation.doctor._rules import (
    _MIRRORED_SHARE,
    _PLANAR_M,
    _PLANAR_SHARE,
    _ROUNDING,
    _SIGNIFICANT,
    _STILL,
    EXTRINSIC_DEG,
    EXTRINSIC_M,
    _round,
    _spread,
)
from robot_msgs.evaluation.hand_eye import _Estimated, _estimated
from robot_msgs.evaluation.relations import ape_errors
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.evaluation.transforms import apply_transforms
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_rotate,
    rotation_vector_from_matrix,
)
from robot_msgs.trajectory import PoseTrajectory, rows_past_limit

if TYPE_CHECKING:
    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.msg import Value
    from robot_msgs.typing import Float64Array


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
    aligned_xyz: Float64Array,
) -> Finding | None:
    """Find an estimate flat along one of its axes against a reference that is not.

    WHY: a 2-D estimate (z written as 0) against 3-D ground truth gave an APE of
    0.0856 m where the same estimate in the plane gives 0.0133 m, and the doctor said
    nothing (a review); ``project_to_plane`` compares the two in the plane.
    ``aligned_xyz``: (n, 3) the estimate's positions as the fit moves them, m.
    """
    if settings.project_to_plane is not None:
        return None
    est = matched_est.positions_xyz
    flat = [k for k in range(3) if est[0, k] == est[:, k].min() == est[:, k].max()]
    if len(flat) != 1:
        return None
    ref = matched_ref.positions_xyz
    spread = np.sqrt(np.clip(np.linalg.eigvalsh(np.cov(ref, rowvar=False)), 0.0, None))
    axis = "xyz"[flat[0]]
    if not spread[0] > max(_PLANAR_SHARE * spread[-1], _PLANAR_M):
        return _flat_along_the_motion(est, flat[0], spread)
    # WHY each plane measured, the APE as --project-to-plane computes it (fitted in 3-D,
    # then both projected): the flat axis turned by the fit named the plane, and a circle
    # with x written as 0 was said "its plane lies between the reference's axes", where
    # yz gives 0.027 m of 2.07 m (a wkdoctor walk).
    moved = aligned_xyz if settings.align != "none" else est
    squares = np.sum((moved - ref) ** 2, axis=0) / len(ref)
    whole = float(np.sqrt(squares.sum()))
    in_plane = np.sqrt(squares.sum() - squares)  # the error with each axis dropped
    along = int(np.argmin(in_plane))
    projected = float(in_plane[along])
    plane = "xyz".replace("xyz"[along], "")
    return Finding(
        kind="planar",
        severity="warning",
        summary=(
            f"the estimate's {axis} is {est[0, flat[0]]:.6g} m at every pose, where the "
            f"reference moves along all three axes (its least spread {spread[0]:.3g} m): a "
            f"2-D estimate, whose APE then counts the reference's height; compare the two "
            f"in the reference's {plane} plane (APE {projected:.3g} m there, {whole:.3g} m "
            "in 3-D)"
        ),
        evidence={"flat_axis": axis, "reference_least_spread_m": _round(float(spread[0]))},
        fix={"project_to_plane": plane},
    )


def _flat_along_the_motion(est: Float64Array, flat: int, spread: Float64Array) -> Finding | None:
    """Find a flat estimate that moves along a line where a planar reference moves in a plane.

    ``est``: (n, 3) matched estimate positions, m; ``flat``: the axis written as a
    constant; ``spread``: (3,) the reference's spreads along its principal axes, m,
    ascending. WHY: KITTI 00's ORB estimate with z written as 0 (z up assumed, where
    KITTI's camera frame has y down and moves along z) gave an APE of 128 m, where the
    file gives 1.30 m, and the doctor said nothing: the reference is itself planar, so
    the 2-D check above passed it by. The estimate's other two axes then span a line
    (1.34 m across 142 m) where the reference spans a plane (124 m across 149 m): the
    zeroed axis carried the motion, and no projection brings it back. A line is an
    estimate whose width, for its length, is under :data:`_PLANAR_SHARE` of the
    reference's width for its length (0.94 % against 83 % there).
    """
    kept = est[:, [k for k in range(3) if k != flat]]
    own = np.sqrt(np.clip(np.linalg.eigvalsh(np.cov(kept, rowvar=False)), 0.0, None))
    plane = spread[1] > max(_PLANAR_SHARE * spread[-1], _PLANAR_M)
    # WHY a line by the reference's own width, not by the share alone: a 2-D robot weaving
    # 4.7 % of its length wide against a reference weaving 5.6 % (both with z as 0, one
    # plane) was said to have written an axis of its motion as 0, and left unaligned.
    line = own[0] * spread[-1] <= _PLANAR_SHARE * spread[1] * own[-1]
    if not (line and plane):
        return None
    axis = "xyz"[flat]
    return Finding(
        kind="planar",
        severity="error",
        summary=(
            f"the estimate's {axis} is {est[0, flat]:.6g} m at every pose and its other "
            f"two axes span a line ({own[1]:.3g} m across, {own[0]:.3g} m wide), where the "
            f"reference moves in a plane ({spread[2]:.3g} m by {spread[1]:.3g} m): the axis "
            f"written as constant is one the motion runs along (a camera's frame, as "
            f"KITTI's, has y down: its ground plane is xz), which no projection or "
            f"alignment brings back; write the estimate's two horizontal axes"
        ),
        evidence={
            "flat_axis": axis,
            "estimate_spread_m": tuple(_round(float(v)) for v in own[::-1]),
            "reference_spread_m": tuple(_round(float(v)) for v in spread[::-1]),
        },
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
    lowered = None if x.unobservable else _ape_lowered(matched_ref, matched_est, x)
    if lowered is not None and not (
        (turned and lowered[1][1] <= _LOWERED * lowered[1][0])
        or (moved and lowered[0][1] <= _LOWERED * lowered[0][0])
    ):
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


#: An extrinsic is a warning only where, applied, it lowers the APE (Sim(3) fit) of what
#: makes it one, its rotation's or its translation's, to at most this share.
_LOWERED = 0.8


def _ape_lowered(
    matched_ref: PoseTrajectory, matched_est: PoseTrajectory, x: Extrinsic
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Return the APE rmse of positions (m) and rotations (deg), without and with ``x`` applied.

    Each after a Sim(3) fit on the matched poses (a scale the extrinsic's own ``S`` takes
    is left out). WHY: the estimate is judged by its relative motions (``A X = X B``),
    whose uncertainty leaves out errors that persist over a run: fr1's rgbdslam cut to
    its first 30 % was said a sensor frame (1.97 deg, 0.133 m ± 0.03), and the fix raised
    the APE from 0.0137 to 0.0149 m (SE(3)); a mount of 77 deg, 0.23 m on its estimate,
    fixed, lowers it from 0.031 m to 0.013 m, and its rotations' from 79 to 0.7 deg.
    """
    settings = EvaluationSettings(align="sim3")
    moved = apply_transforms(matched_est, settings.replace(transform_right=x.transform_right()))
    rms = np.empty((2, 2))  # (positions, rotations) x (without, with)
    for column, est in enumerate((matched_est, moved)):
        aligned = align(matched_ref, est, settings=settings)[0]
        for row, relation in enumerate(("translation", "angle_deg")):
            errors = ape_errors(matched_ref, aligned, relation)
            rms[row, column] = math.sqrt(float(np.mean(errors * errors)))
    return (float(rms[0, 0]), float(rms[0, 1])), (float(rms[1, 0]), float(rms[1, 1]))


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
