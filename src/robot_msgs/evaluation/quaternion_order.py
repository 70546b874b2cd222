"""A quaternion-order mix-up, diagnosed: w-first read as w-last, or the other way round.

TUM files store ``qx qy qz qw``, EuRoC's CSV ``qw qx qy qz``. A TUM file written w-first
reads without complaint (every quaternion is a unit quaternion either way): the angle
APE on ``freiburg1_xyz`` is about 164 deg, and an unaligned ``rpe --delta 1
--delta-unit m`` on ``fr2_desk_ORB`` gives 1.084 m where the file says 0.0117 m (the
relative translations are turned by the wrong orientations), with exit 0.

:func:`quaternion_order_check` compares *relative* rotations, which do not depend on the
frame either trajectory is expressed in: for pose pairs ``(i, j)`` the reference's
``D = q_i⁻¹ ⊗ q_j`` and the estimate's ``D̂`` (a world frame ``a``, ``a ⊗ q``, cancels
out), and the angle of ``D⁻¹ ⊗ D̂``, the RPE rotation error. On pairs that turn by more
than :data:`_MIN_TURN_DEG` (5 deg) it takes the median of that error divided by the
turn, as read and with the estimate's quaternions rotated by one place either way
(``w x y z`` read as ``x y z w``, and the reverse). Reading the *reference* the other way
round instead gives the same figures up to a change of body frame when both sides share a
world frame, so the figures cannot say which file is in the other order; an estimate in
its own world frame, reordered, keeps a world frame that does not cancel (reordering is
no rotation), so when no order of the estimate fixes the figures, the reference's other
orders are tried. The first matched orientations often can say which side, as many
estimates start at the identity (ORB-SLAM's ``fr2_desk_ORB.txt`` in the evo test data
begins ``0 0 0 1``): a side whose first orientation is the identity once reordered is
named alone, else the message names both. It speaks when the median as read exceeds 0.3
of the turn and one of the other orders brings it below a quarter of that and below 0.15.

Measured on the evo test data (pairs 1 to 256 matched poses apart): the files as given
give 0.010 (V102) to 0.079 (``freiburg1_xyz-rgbdslam``), their w-first copies 0.78 to
1.91, and undoing the mix-up brings those back to the figures of the files as given.
Because nothing depends on the world frame, no alignment is needed: an estimate in its
own frame is judged as one aligned to the reference.

A constant body-frame offset (a camera's optical frame against a body frame) is not
taken for a mix-up: it conjugates every ``D̂`` by a fixed rotation, so the ratio as read
can be large, but a cyclic shift of four quaternion components is an odd permutation,
which no rotation is, and reading a correct file in another order scatters its errors
rather than removing them (the tests check a 90 deg offset).

At most about :data:`_MAX_ROWS` evenly spread rows are used, with lags 1, 2, 4, ...
rows, so the cost stays small at any length.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.statistics import median
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_from_matrix,
    quat_xyzw_multiply,
)

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["quaternion_order_check", "quaternion_order_mix_up"]

_MIN_TURN_DEG = 5.0
_SUSPECT_RATIO = 0.3
_FIXED_RATIO = 0.15
_FIXED_SHARE = 0.25
_MAX_ROWS = 2_000

# The shift of np.roll that undoes each mix-up of the estimate, and what its file held;
# reading the reference the other way round gives the same figures (see the docstring).
_ALTERNATIVES = (
    (-1, "w x y z (w first) where x y z w was expected", "x y z w (w last)"),
    (1, "x y z w (w last) where w x y z was expected", "w x y z (w first)"),
)


def _relative(q_xyzw: Float64Array, lags: list[int]) -> Float64Array:
    """Relative rotations ``q_i⁻¹ ⊗ q_(i+k)`` for every lag ``k``, stacked, shape (M, 4)."""
    return np.concatenate(
        [quat_xyzw_multiply(quat_xyzw_conjugate(q_xyzw[:-k]), q_xyzw[k:]) for k in lags]
    )


def quaternion_order_check(
    reference: PoseTrajectory,
    raw_estimate: PoseTrajectory,
    *,
    columns: tuple[bool, bool] = (True, True),
) -> str:
    """Say whether the orientations look like a quaternion-order mix-up; ``""`` if not.

    :func:`quaternion_order_mix_up`'s words.
    """
    return quaternion_order_mix_up(reference, raw_estimate, columns=columns)[0]


def quaternion_order_mix_up(
    reference: PoseTrajectory,
    raw_estimate: PoseTrajectory,
    *,
    columns: tuple[bool, bool] = (True, True),
    world: Float64Array | None = None,
) -> tuple[str, str]:
    """Say whether the orientations look like a quaternion-order mix-up, and its fix.

    Parameters
    ----------
    reference, raw_estimate : PoseTrajectory
        The matched reference and the matched estimate (equal lengths, row ``i`` of one
        matched with row ``i`` of the other), in any frames: the check compares relative
        rotations, so neither alignment nor a common world frame is needed.
    columns : tuple of bool
        Whether the reference's and the estimate's quaternions were read from columns
        (TUM, EuRoC), the only layout whose order can be mixed up; a side read from
        rotation blocks (KITTI), named fields (bags) or positions only is not reordered.
        WHY: turning about one axis (a car, KITTI's y), a cyclic reorder maps the
        rotations onto a sensor frame turned on the body or a flipped axis as well, so
        KITTI 00's ORB estimate with a camera mount, or with its x axis flipped, was said
        to be "w x y z where x y z w was expected" (4.1 deg against 91 and 80 as read),
        a file with no quaternions. A trajectory that says it was read from rotation
        blocks (``orientations_from_matrices``) is never reordered, whatever ``columns``
        says: so ``ape`` and ``rpe`` on KITTI files, which pass no formats, are not told
        of a mix-up.
    world : ndarray, shape (3, 3), optional
        The rotation of the fit of the estimate's positions onto the reference's (the
        doctor's alignment). Given, the orientations are also compared whole: a right
        order leaves ``X_i = (S R̂_i)ᵀ R_i`` constant (the body's offset), and the
        :func:`_held` spread about its mean decides (:func:`_absolute`). WHY: turning
        about one axis (a car), a quaternion ``(0, sin θ/2, 0, cos θ/2)`` written w first
        reads as a half-turn about an axis at ``θ/2``, whose relative rotations are the
        right ones, so KITTI 00's ORB estimate written as TUM w first was not told (its
        relative figures as read are the file's); whole, it strays a median 85.5 deg
        from a constant offset, 0.37 deg reordered. And a camera mount permuting the
        axes (x right, y down, z forward on a body x forward, z up) turns the relative
        rotations as a reorder does, so KITTI 00's ORB so mounted was said to be in the
        other order (101 deg as read, 4.12 deg reordered); whole, it holds its offset to
        0.37 deg as read, 86-88 deg reordered: a frame, not an order.

    Returns
    -------
    text : str
        A warning with the median relative-rotation error as read and with the other
        order, or ``""`` (also when no pair of poses turns by more than 5 deg).
    w_first : str
        The side read from columns whose quaternions, read w first, undo the mix-up
        (:attr:`~robot_msgs.evaluation.ReadSettings.w_first`): the side named, or, where
        the figures cannot tell which side, the estimate when its file written w first explains
        them, else the reference; ``""`` when none does (a side in columns written w last
        where its format has w first, as an EuRoC file written in TUM's order).

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(50.0)
    >>> yaw, roll = 0.3 * np.sin(t / 5), 0.2 * np.cos(t / 7)
    >>> q = np.stack([np.sin(roll / 2) * np.cos(yaw / 2), -np.sin(roll / 2) * np.sin(yaw / 2),
    ...               np.cos(roll / 2) * np.sin(yaw / 2), np.cos(roll / 2) * np.cos(yaw / 2)], 1)
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((50, 3)), orientations_quat_xyzw=q)
    >>> w_first = ref.replace(orientations_quat_xyzw=q[:, [3, 0, 1, 2]])  # w x y z
    >>> quaternion_order_mix_up(ref, ref)
    ('', '')
    >>> text, fix = quaternion_order_mix_up(ref, w_first)
    >>> fix
    'estimate'
    >>> print(text)  # doctest: +ELLIPSIS
    the orientations look like a quaternion-order mix-up: the rotations between poses \
disagree with the reference's by ... deg (median; a median ... times the turn between the \
poses compared) as read, 0 deg if \
the estimate's quaternions were w x y z (w first) where x y z w was expected (or the \
reference's were x y z w (w last)); check the files' column order ...
    """
    read = (reference, raw_estimate)
    given = [c and not t.orientations_from_matrices for c, t in zip(columns, read, strict=True)]
    sides = {s for s, c in zip(("reference", "estimate"), given, strict=True) if c}
    if not sides:
        return "", ""
    n = len(reference)
    step = max(1, n // _MAX_ROWS)  # evenly spread rows, views without copies
    q_ref = reference.orientations_quat_xyzw[::step]
    q_raw = raw_estimate.orientations_quat_xyzw[::step]
    as_read = _figures(q_ref, q_raw)
    held = None if world is None else _absolute(q_ref, q_raw, world, sides)
    if held is not None and held[0] <= held[1]:  # a constant offset as read: a frame
        return "", ""
    if as_read is None or not as_read[0] > _SUSPECT_RATIO:
        return _said_whole(held, sides, q_ref[0], q_raw[0])
    # WHY the reference too, when reordering the estimate fixes nothing: reordering is no
    # rotation, so an estimate in its own world frame, reordered, keeps a world frame
    # that does not cancel; a w-first reference against it was never said (fr2_desk: 0.96
    # and 1.68 of the turn with the estimate reordered, 0.02 with the reference; a review).
    fixed = None
    for rolled in (s for s in ("estimate", "reference") if s in sides):
        found = []
        for shift, layout, other in _ALTERNATIVES:
            figures = (
                _figures(q_ref, np.roll(q_raw, shift, axis=1))
                if rolled == "estimate"
                else _figures(np.roll(q_ref, -shift, axis=1), q_raw)
            )
            if figures is not None:
                found.append((*figures, shift, layout, other))
        best = min(found, key=lambda item: item[0]) if found else None
        if best is not None and best[0] < _FIXED_RATIO and best[0] < _FIXED_SHARE * as_read[0]:
            fixed = (best, rolled)
            break
    if fixed is None:
        return _said_whole(held, sides, q_ref[0], q_raw[0])
    (_, angle, shift, _, _), rolled = fixed
    which, files, fix = _which(shift, rolled, sides, q_ref[0], q_raw[0])
    text = (
        f"the orientations look like a quaternion-order mix-up: the rotations between "
        f"poses disagree with the reference's by {as_read[1]:.3g} deg (median; a median "
        f"{as_read[0]:.2g} times the turn between the poses compared) as read, {angle:.3g} deg "
        f"if {which}; check {files} column order (TUM: "
        "qx qy qz qw, EuRoC: qw qx qy qz)"
    )
    return text, fix


def _which(
    shift: int, rolled: str, sides: set[str], first_ref: Float64Array, first_est: Float64Array
) -> tuple[str, str, str]:
    """Return the words naming the side in the other order, its file's, and the fix's side.

    ``shift``: the roll that undid it; ``rolled``: the side it was applied to.
    """
    layout, other = next((a, o) for s, a, o in _ALTERNATIVES if s == shift)
    side = _which_side(first_ref, first_est, shift)
    cue = " (its first pose is then the identity)" if side in sides else ""
    side = side if cue else rolled if len(sides) == 1 else ""  # the one side in columns
    if side:
        order = layout if side == "estimate" else other
        which = f"the {side}'s quaternions were {order}{cue}"
    elif rolled == "reference":
        which = f"the reference's quaternions were {other} (or the estimate's were {layout})"
    else:
        which = f"the estimate's quaternions were {layout} (or the reference's were {other})"
    files = f"the {side} file's" if side else "the files'"
    # WHY: the words alone sent the user to rewrite the file; -1 undoes an estimate
    # written w first, +1 (the reference rolled back) a reference written so.
    read_w_first = "estimate" if shift == -1 else "reference"
    fix = read_w_first if side in ("", read_w_first) and read_w_first in sides else ""
    return which, files, fix


def _held(q_ref: Float64Array, q_est: Float64Array, world: Float64Array) -> float:
    """Return the median angle, deg, of ``X_i = (S R̂_i)ᵀ R_i`` from their mean rotation.

    ``q_ref``, ``q_est``: (n, 4) matched orientations, xyzw; ``world``: (3, 3) ``S``. The
    mean is the chordal one (the main eigenvector of ``Σ x xᵀ``, signs ignored).
    """
    s = quat_xyzw_from_matrix(np.asarray(world, dtype=np.float64)[None])
    turned = quat_xyzw_multiply(np.repeat(s, len(q_est), axis=0), q_est)
    x = quat_xyzw_multiply(quat_xyzw_conjugate(turned), q_ref)
    mean = np.linalg.eigh(x.T @ x)[1][:, -1]
    off = quat_xyzw_multiply(x, np.repeat(quat_xyzw_conjugate(mean[None]), len(x), axis=0))
    return math.degrees(median(angle_from_quat_xyzw(off)))


def _absolute(
    q_ref: Float64Array, q_est: Float64Array, world: Float64Array, sides: set[str]
) -> tuple[float, float, int, str]:
    """Return :func:`_held`'s spread as read, the least reordered, its roll and side rolled.

    A roll's spread is the larger of the sides' in ``sides`` rolled by it: a mix-up undone
    by ``shift`` holds a constant offset whichever side is rolled (the estimate by
    ``shift`` or the reference by ``-shift``), and the side rolled named is the one
    holding it closer. WHY: turning about one axis (a planar robot), the reference rolled
    either way holds it as well (4.46 deg each where the estimate written w first, rolled
    back, holds 4.47 deg; yaw-only, 5 deg of noise): the least of the four named a
    reference written in the other order, and its fix, in three of four noise draws.
    """
    by_shift = []
    for shift, _, _ in _ALTERNATIVES:
        spreads = [
            (
                _held(q_ref, np.roll(q_est, shift, axis=1), world)
                if rolled == "estimate"
                else _held(np.roll(q_ref, -shift, axis=1), q_est, world),
                rolled,
            )
            for rolled in ("estimate", "reference")
            if rolled in sides
        ]
        least, rolled = min(spreads, key=lambda item: item[0])
        by_shift.append((max(spread for spread, _ in spreads), least, shift, rolled))
    _, best, shift, rolled = min(by_shift, key=lambda item: item[0])
    return _held(q_ref, q_est, world), best, shift, rolled


def _said_whole(
    held: tuple[float, float, int, str] | None,
    sides: set[str],
    first_ref: Float64Array,
    first_est: Float64Array,
) -> tuple[str, str]:
    """Say a mix-up only the whole orientations show (:func:`_absolute`); ``("", "")`` if none.

    Told when a reorder brings the spread below :data:`_FIXED_SHARE` of that as read,
    which exceeds :data:`_MIN_TURN_DEG`.
    """
    if held is None:
        return "", ""
    as_read, best, shift, rolled = held
    if not (as_read > _MIN_TURN_DEG and best < _FIXED_SHARE * as_read):
        return "", ""
    which, files, fix = _which(shift, rolled, sides, first_ref, first_est)
    text = (
        f"the orientations look like a quaternion-order mix-up: after the fit of the "
        f"positions, the estimate's orientations stray a median {as_read:.3g} deg from a "
        f"constant offset to the reference's as read (their relative rotations agree: a "
        f"turn about one axis), {best:.3g} deg if {which}; check {files} column order "
        "(TUM: qx qy qz qw, EuRoC: qw qx qy qz)"
    )
    return text, fix


def _figures(q_ref: Float64Array, q_est: Float64Array) -> tuple[float, float] | None:
    """Return the median relative-rotation error over the turn, and in degrees.

    Over pairs ``1, 2, 4, ...`` rows apart on which the reference turns by more than
    :data:`_MIN_TURN_DEG`; ``None`` when none does.
    """
    m = q_ref.shape[0]
    lags = [1 << p for p in range(16) if (1 << p) < m]
    if not lags:
        return None
    d_ref = _relative(q_ref, lags)
    turn = angle_from_quat_xyzw(d_ref)
    keep = turn > math.radians(_MIN_TURN_DEG)
    if not keep.any():
        return None
    lagged = np.concatenate([np.full(m - k, k) for k in lags])
    starts = np.concatenate([np.arange(m - k) for k in lags])
    rows = starts[keep]
    ends = rows + lagged[keep]
    d_ref, turn = d_ref[keep], turn[keep]
    d_est = quat_xyzw_multiply(quat_xyzw_conjugate(q_est[rows]), q_est[ends])
    error = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(d_ref), d_est))
    return median(error / turn), math.degrees(median(error))


def _which_side(first_ref: Float64Array, first_est: Float64Array, shift: int) -> str:
    """Name the side in the other order, the one whose first pose it makes the identity, or ``""``.

    ``shift`` undoes the estimate's mix-up (``np.roll``); ``-shift`` undoes the reference's.
    """

    def identity(q: Float64Array) -> bool:
        return bool(abs(abs(q[3]) - 1.0) < 1e-6)  # ``x y z w``: w = ±1

    if identity(np.roll(first_est, shift)):
        return "estimate"
    if identity(np.roll(first_ref, -shift)):
        return "reference"
    return ""
