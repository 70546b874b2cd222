r"""Which direction an error points: along-track, cross-track, vertical; roll, pitch, yaw.

World-frame ``x``/``y``/``z`` errors say little about a vehicle that turns: a lateral
error of a car heading north is an ``x`` error, heading east a ``y`` error. These
kernels split the errors in frames that move with the reference.

Track frame (translations)
    At each reference pose, ``k`` is the world's vertical axis ``z`` (up, as in ENU and
    REP 103); ``u`` (along-track) is the horizontal unit direction of the reference's
    motion there, from the central difference ``q_{i+1} - q_{i-1}`` of the reference
    positions (one-sided at the two ends), its vertical part dropped; ``c = k × u``
    (cross-track) points to the left of the motion. Where the reference does not move
    horizontally (less than 1 nm between the neighbours: standing, or climbing straight
    up), the last direction before is kept (the first one after, at the start). A world
    frame whose up axis is not ``z`` (KITTI's camera frame: up is ``-y``) needs a
    ``transform_left`` first.

    ``along = e · u``, ``cross = e · c``, ``vertical = e · k``, so

    .. math:: \mathrm{along}^2 + \mathrm{cross}^2 + \mathrm{vertical}^2 = \lVert e \rVert^2

    exactly (an orthonormal frame), with ``e`` the APE ``p_i - q_i`` (estimate minus
    reference) or, for RPE, the pair's translation error turned into the world frame,
    ``R(Q_j) t(E_ij) = R(Q_i) R(P_i)^T (p_j - p_i) - (q_j - q_i)`` (the estimate's
    motion started from the reference's pose ``i``, minus the reference's motion), split
    at the reference's pose ``j``; its norm is the RPE ``translation``.

Rotation components (orientations)
    The rotation vector ``r`` of the rotation error in the reference's body frame:
    ``R_ref^T R_est`` for APE (``R(E_i)^T``, the turn that takes the reference's
    orientation to the estimate's), ``R(E_ij) = R(ΔQ)^T R(ΔP)`` for RPE (the estimate's
    relative rotation after the reference's). ``roll``, ``pitch`` and ``yaw`` are its
    components about the body's ``x``, ``y`` and ``z`` axes (signed), so

    .. math:: \mathrm{roll}^2 + \mathrm{pitch}^2 + \mathrm{yaw}^2 = \theta^2

    exactly, ``θ`` the relation ``angle_rad``. For a body frame that follows REP 103 (x
    forward, y left, z up) these are roll, pitch and yaw; for an error about one axis
    they are the Euler-angle difference exactly, otherwise its first-order part. A
    camera's optical frame (z forward) shifts the names: its "yaw" is about the optical
    axis. The names are the rotation vector's, not the Euler angles'.

trajectopy's definitions (other frames, other numbers; APE only)
    trajectopy (5.1.2, ``ate()`` with orientations) uses the same words for other
    quantities, offered here under their own names (``TRAJECTOPY_RELATIONS`` in
    :mod:`robot_msgs.evaluation.relations`). ``along_track_body``, ``cross_track_body`` and
    ``vertical_body`` are ``R_refᵀ (p - q)``: the estimate minus the reference in the
    reference *body's* axes ``x``, ``y``, ``z`` (for a camera's optical frame, ``x`` points
    right, not forward; a pitched body's ``vertical`` is not the world's). Their squares
    also sum to ``translation²``. ``roll_world_*``, ``pitch_world_*`` and ``yaw_world_*``
    are the extrinsic ``xyz`` Euler angles (about the *world's* fixed axes; SciPy's
    ``as_euler("xyz")``) of ``R_ref R_estᵀ``: the reference relative to the estimate, so
    of the opposite sign to ``roll_*`` for an error about one axis, and about world axes:
    a 10° roll error of a body turned 90° in yaw is ``roll_deg`` 10 but ``pitch_world_deg``
    -10. Euler angles do not add up to the angle; near ±90° of the middle angle they are
    ill-defined (gimbal lock).

    trajectopy's names: ``ATEResult.pos_dev_along``, ``pos_dev_cross_h``,
    ``pos_dev_cross_v`` and ``rot_dev_x``, ``rot_dev_y``, ``rot_dev_z`` (radians). Checked
    against trajectopy 5.1.2's own ``ate()`` on the raw fr1_xyz example (its 785 pairs,
    nearest stamps within 10 ms, which ``ape``'s default association finds too; no
    alignment): every pose agrees within 3e-17 m and 5e-16 rad
    (``tests/data/trajectopy_component_reference.json``). Its plain ``pos_dev`` (world
    ``x``, ``y``, ``z``) is the reference minus the estimate, the opposite sign of the
    ``x``, ``y``, ``z`` relations; without orientations its along/cross/vertical follow
    the 3-D line to the next reference position instead (not offered here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.report.text import counted

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array

__all__ = ["track_axes"]

#: Horizontal motion between neighbours below this (metres) gives no direction.
STILL_M = 1e-9


def track_axes(positions_xyz: Float64Array) -> tuple[Float64Array, Float64Array]:
    """Along-track and cross-track unit vectors of a reference path, ``(N, 3)`` each.

    The rules are in the module docstring; the vertical axis is ``(0, 0, 1)``.

    Raises
    ------
    ValidationError
        The path never moves horizontally, so no direction is defined.

    Examples
    --------
    >>> along, cross = track_axes(np.array([[0.0, 0, 0], [0, 1, 0], [0, 2, 5]]))
    >>> along.tolist(), cross[0].tolist()
    ([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]], [-1.0, 0.0, 0.0])
    """
    p = np.asarray(positions_xyz, dtype=np.float64)
    n = p.shape[0]
    step = np.empty((n, 2))
    if n < 2:
        step[:] = 0.0
    else:
        step[1:-1] = p[2:, :2] - p[:-2, :2]
        step[0] = p[1, :2] - p[0, :2]
        step[-1] = p[-1, :2] - p[-2, :2]
    length = np.hypot(step[:, 0], step[:, 1])
    moving = length > STILL_M
    if not moving.any():
        msg = (
            f"Expected a reference that moves horizontally for along/cross-track errors, got "
            f"{counted(n, 'pose that does', 'poses that do')} not (the direction of motion is "
            "undefined)"
        )
        raise ValidationError(msg)
    rows = np.arange(n)
    # The last moving row at or before each row (forward fill), else the first after.
    last = np.maximum.accumulate(np.where(moving, rows, -1))
    first = int(np.flatnonzero(moving)[0])
    source = np.where(last >= 0, last, first)
    direction = step[source] / length[source, None]
    along = np.zeros((n, 3))
    along[:, :2] = direction
    cross = np.zeros((n, 3))
    cross[:, 0] = -direction[:, 1]
    cross[:, 1] = direction[:, 0]
    return along, cross
