"""A quaternion-order mix-up, diagnosed: w-first read as w-last, or the other way round.

TUM files store ``qx qy qz qw``, EuRoC's CSV ``qw qx qy qz``. A TUM file written w-first
reads without complaint (every quaternion is a unit quaternion either way) and gives an
angle APE of about 164 deg on ``freiburg1_xyz``, with exit 0. The positions are not
affected, so a translation APE looks fine.

:func:`quaternion_order_check` compares the median APE angle of the matched poses as read
with the angles the other orders would give: the estimate's quaternions rotated by one
place either way (``w x y z`` read as ``x y z w``, and the reverse), with the same
alignment (its rotation refitted for ``origin``, which fits on orientations). Reading
the *reference* the other way round instead gives the same angles (one permutation of
the components applied to both keeps every ``|q_i · q_j|``, up to the alignment's
rotation), so the message names both. It speaks when the median as read exceeds 20
deg and one of the other orders brings it below a quarter of that and below 10 deg.

A constant frame offset (a camera's optical frame against a body frame) is not taken
for a mix-up: a change of frame multiplies the quaternions by a fixed unit quaternion, a
rotation of quaternion space, and a cyclic shift of four components is an odd
permutation, which no rotation is; reading a correct file in another order scatters its
errors rather than removing them (the tests check a 90 deg offset).

At most about 10 000 evenly spread pairs are checked, on the dot products of the
quaternions (``θ = 2 arccos |q · p|`` is monotone, so the median angle is that of the
median dot product), so the cost stays small at any length.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.statistics import median
from robot_msgs.evaluation.settings import FIRST_POSE_METHODS
from robot_msgs.rotations import quat_xyzw_conjugate, quat_xyzw_from_matrix, quat_xyzw_multiply

if TYPE_CHECKING:
    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array

__all__ = ["quaternion_order_check"]

_SUSPECT_DEG = 20.0
_FIXED_DEG = 10.0
_FIXED_SHARE = 0.25
_MAX_ROWS = 10_000

# The shift of np.roll that undoes each mix-up of the estimate, and what its file held;
# reading the reference the other way round gives the same angles (see the docstring).
_ALTERNATIVES = (
    (-1, "w x y z (w first) where x y z w was expected", "x y z w (w last)"),
    (1, "x y z w (w last) where w x y z was expected", "w x y z (w first)"),
)


def _left(q_xyzw: Float64Array) -> Float64Array:
    """Return the ``(4, 4)`` matrix ``L`` with ``q ⊗ p = L p`` (quaternions ``x, y, z, w``)."""
    x, y, z, w = (float(v) for v in q_xyzw)
    return np.array([[w, -z, y, x], [z, w, -x, y], [-y, x, w, z], [-x, -y, -z, w]])


def _median_angle_deg(turned_reference: Float64Array, estimate: Float64Array) -> float:
    """Median angle between rows, deg: ``2 arccos(|q_i · p_i|)`` is monotone in ``|q · p|``."""
    dots = np.abs(np.einsum("ni,ni->n", turned_reference, estimate))
    return math.degrees(2.0 * math.acos(min(float(median(dots)), 1.0)))


def quaternion_order_check(
    reference: PoseTrajectory, raw_estimate: PoseTrajectory, alignment: Alignment
) -> str:
    """Say whether the orientations look like a quaternion-order mix-up; ``""`` if not.

    Parameters
    ----------
    reference, raw_estimate : PoseTrajectory
        The matched reference and the matched estimate *before* alignment (equal lengths).
    alignment : Alignment
        The alignment applied to the estimate.

    Returns
    -------
    str
        A warning with the median angle as read and with the other order, or ``""``.

    Examples
    --------
    >>> from robot_msgs.compare.alignment import Alignment
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(50.0)
    >>> yaw = 0.3 * np.sin(t / 5)
    >>> q = np.stack([0 * t, 0 * t, np.sin(yaw / 2), np.cos(yaw / 2)], 1)
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((50, 3)), orientations_quat_xyzw=q)
    >>> w_first = ref.replace(orientations_quat_xyzw=q[:, [3, 0, 1, 2]])  # w x y z
    >>> none = Alignment(method="none", rotation=np.eye(3), translation_m=np.zeros(3))
    >>> quaternion_order_check(ref, ref, none)
    ''
    >>> print(quaternion_order_check(ref, w_first, none))  # doctest: +ELLIPSIS
    the orientations look like a quaternion-order mix-up: the median APE angle is 169 deg \
as read, 0 deg if the estimate's quaternions were w x y z (w first) where x y z w was \
expected (or the reference's were x y z w (w last)); check the files' column order ...
    """
    n = len(reference)
    if n == 0:
        return ""
    step = max(1, n // _MAX_ROWS)  # evenly spread rows, views without copies
    q_ref = reference.orientations_quat_xyzw[::step]
    q_raw = raw_estimate.orientations_quat_xyzw[::step]
    turn = quat_xyzw_from_matrix(alignment.rotation[None])[0]

    def median_deg(raw: Float64Array) -> float:
        # The angle between q_ref and turn ⊗ raw: |q_ref · L raw| = |(Lᵀ q_ref) · raw|.
        fitted = turn
        if alignment.method in FIRST_POSE_METHODS:  # fitted on the first pose's orientations
            fitted = quat_xyzw_multiply(q_ref[:1], quat_xyzw_conjugate(raw[:1]))[0]
        return _median_angle_deg(q_ref @ _left(fitted), raw)

    as_read = median_deg(q_raw)
    if not as_read > _SUSPECT_DEG:
        return ""
    found = [
        (median_deg(np.roll(q_raw, shift, axis=1)), layout, other)
        for shift, layout, other in _ALTERNATIVES
    ]
    angle, layout, other = min(found, key=lambda item: item[0])
    if not (angle < _FIXED_DEG and angle < _FIXED_SHARE * as_read):
        return ""
    return (
        f"the orientations look like a quaternion-order mix-up: the median APE angle is "
        f"{as_read:.3g} deg as read, {angle:.3g} deg if the estimate's quaternions were "
        f"{layout} (or the reference's were {other}); check the files' column order (TUM: "
        "qx qy qz qw, EuRoC: qw qx qy qz)"
    )
