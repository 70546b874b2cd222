r"""Extrinsic transforms applied to an estimate: a change of world frame (left), of body (right).

An estimate is often of another body than its ground truth (a camera against the IMU or
the motion-capture marker), or expressed in another world frame. With ``T_l`` and
``T_r`` from the settings (``transform_left`` / ``transform_right``, 4x4 row-major,
optionally inverted), every estimate pose ``P`` becomes

.. math::

    P' = T_l \, P \, T_r ,

evo_traj's ``--transform_left`` / ``--transform_right`` (evo 1.38.1 ``PosePath3D.transform``:
``T P`` and ``P T``). ``T_l`` may be a similarity ``[s R, t; 0, 1]`` (positions
``s R p + t``, rotations ``R R_P``); ``T_r`` is rigid (a body frame has no scale). As in
the 4x4 product, a scaled ``T_l`` scales ``T_r``'s translation too; the poses are then
stored rigid, so a scaled left transform is undone exactly by its inverse on its own. If the
estimate's body ``E`` sits at ``T_BE`` in the reference's body ``B`` (so ``P_WE = P_WB
T_BE``), ``transform_right = T_BE`` with ``invert_transform_right`` gives the reference
body's poses.

Where evo_traj applies its transform after any alignment, the evaluation commands apply
it first, before association and alignment: a transform corrects the frames the estimate
is expressed in, and the alignment should then fit what remains.

A pose covariance (ROS convention: world-frame position and fixed-axis rotation
parameters) follows to first order: the right transform adds the lever arm's rotation
error, ``δp' = δp - [R_P t_r]_× δθ``, and the left turns (and scales) both parts,
``J = diag(s R_l, R_l)``; ``Σ' = J Σ Jᵀ``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    matrix_times_rows,
    quat_xyzw_from_matrix,
    quat_xyzw_multiply,
    skew,
    transform_problem,
)
from robot_msgs.trajectory import POSITION_LIMIT_M, PoseTrajectory, rows_past_limit

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array

__all__ = ["apply_transforms", "sim3_inverse", "transform_matrix"]


def transform_matrix(values: tuple[float, ...]) -> Float64Array:
    """Return the ``(4, 4)`` float64 matrix of 16 numbers in row-major order.

    Examples
    --------
    >>> transform_matrix(tuple(float(v) for v in range(16)))[1]
    array([4., 5., 6., 7.])
    """
    return np.asarray(values, dtype=np.float64).reshape(4, 4)


def sim3_inverse(matrix: Float64Array) -> Float64Array:
    """Inverse of a similarity ``[s R, t; 0, 1]``: ``[R^T / s, -R^T t / s; 0, 1]``, ``(4, 4)``.

    Examples
    --------
    >>> m = np.diag([2.0, 2.0, 2.0, 1.0]); m[:3, 3] = [2.0, 0.0, 0.0]
    >>> sim3_inverse(m) @ m
    array([[1., 0., 0., 0.],
           [0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    # A 3x3 raised IndexError, a 5x5 was cut to its corner and a zero or non-finite
    # matrix gave NaN, all without a word; a shear was inverted as if it were s R.
    try:
        m = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError):  # text, ragged lists
        m, got = np.zeros(0), f"{type(matrix).__name__} {matrix!r:.60}"
    else:
        got = f"shape {m.shape}" if m.shape != (4, 4) else " ".join(f"{v:g}" for v in m.flat)
    problem = (
        transform_problem(tuple(m.ravel().tolist()), rigid=False)
        if m.shape == (4, 4)
        else "a Sim(3) or SE(3) transform as 16 numbers, row-major 4x4"
    )
    if problem:
        msg = f"Expected `matrix` as {problem}, got {got}"
        raise ValidationError(msg, field="matrix", reason=f"expected {problem}")
    block = m[:3, :3]
    scale2 = float(np.trace(block.T @ block)) / 3.0
    inv_block = block.T / scale2  # (s R)^-1 = R^T / s = (s R)^T / s²
    out = np.eye(4)
    out[:3, :3] = inv_block
    out[:3, 3] = -inv_block @ m[:3, 3]
    return out


def _split(matrix: Float64Array) -> tuple[float, Float64Array, Float64Array]:
    """Scale, rotation ``(3, 3)`` and translation ``(3,)`` of a similarity."""
    block = matrix[:3, :3]
    scale = float(np.sqrt(np.trace(block.T @ block) / 3.0))
    return scale, block / scale, matrix[:3, 3]


def _chosen(settings: EvaluationSettings, side: str) -> Float64Array | None:
    values = getattr(settings, f"transform_{side}")
    if values is None:
        return None
    matrix = transform_matrix(values)
    return sim3_inverse(matrix) if getattr(settings, f"invert_transform_{side}") else matrix


def apply_transforms(trajectory: PoseTrajectory, settings: EvaluationSettings) -> PoseTrajectory:
    """Return ``trajectory`` with every pose ``P`` replaced by ``T_l P T_r`` (module docstring).

    Parameters
    ----------
    trajectory : PoseTrajectory
        The estimate; not modified.
    settings : EvaluationSettings
        ``transform_left``, ``transform_right`` and their ``invert_*`` flags; without
        either transform the input is returned unchanged.

    Returns
    -------
    PoseTrajectory
        Same stamps and frames; positions in metres (times the left transform's scale).

    Examples
    --------
    >>> h = np.sqrt(0.5)
    >>> traj = PoseTrajectory(stamps_s=[0.0], positions_xyz=[[1.0, 0.0, 0.0]],
    ...                       orientations_quat_xyzw=[[0.0, 0.0, h, h]])  # facing +y
    >>> lever = (1.0, 0, 0, 0.5, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)  # 0.5 m ahead
    >>> moved = apply_transforms(traj, EvaluationSettings(transform_right=lever))
    >>> moved.positions_xyz.round(12) + 0.0
    array([[1. , 0.5, 0. ]])
    """
    check_argument("trajectory", trajectory, PoseTrajectory)
    check_argument("settings", settings, EvaluationSettings)
    left, right = _chosen(settings, "left"), _chosen(settings, "right")
    if left is None and right is None:
        return trajectory
    positions = trajectory.positions_xyz
    quats = trajectory.orientations_quat_xyzw
    cov = trajectory.covariance_6x6
    matrices = trajectory.rotation_matrices  # rows as given: R_l M R_r, and M's lever
    if right is not None:  # P T_r: p + R_P t_r, q ⊗ q_r
        rotations = matrix_from_quat_xyzw(quats) if matrices is None else matrices
        lever = np.einsum("nij,j->ni", rotations, right[:3, 3])
        if matrices is not None:
            matrices = np.matmul(matrices, _split(right)[1])
        positions = positions + lever
        q_right = quat_xyzw_from_matrix(_split(right)[1][None])
        quats = quat_xyzw_multiply(quats, q_right)
        if cov is not None:
            jac = np.tile(np.eye(6), (len(trajectory), 1, 1))
            jac[:, :3, 3:] = -skew(lever)
            cov = np.einsum("nij,njk,nlk->nil", jac, cov, jac)
    if left is not None:  # T_l P: s R_l p + t_l, q_l ⊗ q
        scale, rotation, translation = _split(left)
        positions = scale * matrix_times_rows(rotation, positions) + translation
        quats = quat_xyzw_multiply(quat_xyzw_from_matrix(rotation[None]), quats)
        if matrices is not None:
            matrices = np.matmul(rotation, matrices)
        if cov is not None:
            jac = np.zeros((6, 6))
            jac[:3, :3] = scale * rotation
            jac[3:, 3:] = rotation
            cov = np.einsum("ij,njk,lk->nil", jac, cov, jac)
    past = rows_past_limit(positions)
    if past.size:  # the trajectory's own error would name neither transform
        msg = (
            f"The transforms (`transform_left=`, `transform_right=`) move pose {int(past[0])} "
            f"to {positions[past[0]].tolist()} m, beyond +-{POSITION_LIMIT_M:g} m "
            f"({past.size} pose(s))"
        )
        raise ValidationError(msg)
    norms = np.linalg.norm(quats, axis=1, keepdims=True)
    return trajectory.replace(
        positions_xyz=positions,
        orientations_quat_xyzw=quats / norms,
        covariance_6x6=cov,
        rotation_matrices=matrices,
    )
