"""Trajectories for the evaluation tests: the seed guide's line, random walks, evo's files."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from hypothesis import strategies as st

from robot_msgs.compare.alignment import Alignment
from robot_msgs.rotations import (
    matrix_from_quat_xyzw,
    matrix_from_rotation_vector,
    normalize_quat_xyzw,
    quat_xyzw_from_matrix,
    quat_xyzw_multiply,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array


def line(positions_x: Float64Array | None = None, n: int = 101) -> PoseTrajectory:
    """The seed guide's reference: x = t metres, t = 0..10 s every 0.1 s, identity rotations."""
    t = np.arange(n, dtype=np.float64) * 0.1
    x = t if positions_x is None else positions_x
    p = np.zeros((n, 3))
    p[:, 0] = x
    return PoseTrajectory(
        stamps_s=t, positions_xyz=p, orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    )


def transform_from_pose(positions_xyz: Float64Array, quats_xyzw: Float64Array) -> Float64Array:
    """Transforms (N, 4, 4) of positions (N, 3) m and quaternions (N, 4) xyzw: the 4x4 road."""
    out = np.zeros((*positions_xyz.shape[:-1], 4, 4))
    out[..., :3, :3] = matrix_from_quat_xyzw(quats_xyzw)
    out[..., :3, 3] = positions_xyz
    out[..., 3, 3] = 1.0
    return out


def transform_inverse(transforms: Float64Array) -> Float64Array:
    """Inverses of rigid transforms (N, 4, 4): ``[Rᵀ, -Rᵀ t; 0, 1]``."""
    out = np.zeros_like(transforms)
    rt = np.swapaxes(transforms[..., :3, :3], -1, -2)
    out[..., :3, :3] = rt
    out[..., :3, 3] = -np.einsum("...ij,...j->...i", rt, transforms[..., :3, 3])
    out[..., 3, 3] = 1.0
    return out


def quats_from_rotvecs(rotvecs: Float64Array) -> Float64Array:
    """Unit quaternions x, y, z, w of rotation vectors (N, 3)."""
    angle = np.linalg.norm(rotvecs, axis=1, keepdims=True)
    axis = rotvecs / np.where(angle > 0, angle, 1.0)
    return np.concatenate([np.sin(angle / 2) * axis, np.cos(angle / 2)], axis=1)


def random_walk(
    n: int, *, seed: int = 0, step_m: float = 0.05, step_rad: float = 0.02, dt: float = 0.1
) -> PoseTrajectory:
    """A random walk in SE(3): Gaussian position steps, small random rotation increments."""
    rng = np.random.default_rng(seed)
    increments = quats_from_rotvecs(rng.normal(size=(n, 3)) * step_rad)
    quats = np.empty((n, 4))
    quats[0] = [0.0, 0.0, 0.0, 1.0]
    # Compose by doubling: prefix products in O(n log n) vectorised steps.
    acc = increments.copy()
    acc[0] = [0.0, 0.0, 0.0, 1.0]
    shift = 1
    while shift < n:
        acc[shift:] = quat_xyzw_multiply(acc[:-shift], acc[shift:])
        shift *= 2
    quats = normalize_quat_xyzw(acc)
    positions = np.cumsum(rng.normal(size=(n, 3)) * step_m, axis=0)
    return PoseTrajectory(
        stamps_s=np.arange(n, dtype=np.float64) * dt,
        positions_xyz=positions,
        orientations_quat_xyzw=quats,
    )


def load_evo_file(path: Path) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Stamps, positions and unit quaternions x, y, z, w of an evo test file, as evo parses it.

    A minimal stand-in for the package's readers: TUM (``t x y z qx qy qz qw``), EuRoC CSV
    (``t[ns], x, y, z, qw, qx, qy, qz, ...``; time / 1e9 as evo) and KITTI (frame indices).
    """
    if path.suffix == ".csv":
        data = np.loadtxt(path, delimiter=",", comments="#")
        stamps, xyz, quat = data[:, 0] / 1e9, data[:, 1:4], data[:, [5, 6, 7, 4]]
    elif path.name.startswith("KITTI"):
        m = np.loadtxt(path).reshape(-1, 3, 4)
        stamps, xyz = np.arange(len(m), dtype=float), m[:, :, 3]
        quat = quat_xyzw_from_matrix(m[:, :, :3])
    else:
        data = np.loadtxt(path, comments="#")
        stamps, xyz, quat = data[:, 0], data[:, 1:4], data[:, 4:8]
    return stamps, xyz, quat / np.linalg.norm(quat, axis=1, keepdims=True)


#: A rigid motion as (rotation vector [rad], translation [m]).
RigidMotion = tuple[list[float], list[float]]

#: Rigid motions for the invariance tests.
RIGID_MOTIONS: st.SearchStrategy[RigidMotion] = st.tuples(
    st.lists(st.floats(-3.0, 3.0), min_size=3, max_size=3),
    st.lists(st.floats(-100.0, 100.0), min_size=3, max_size=3),
)


def noisy_estimate_and_moved(
    seed: int, motion: RigidMotion
) -> tuple[PoseTrajectory, PoseTrajectory, PoseTrajectory]:
    """A 200-pose reference, a noisy estimate of it, and that estimate moved by ``motion``."""
    rotvec, translation = motion
    ref = random_walk(200, seed=seed)
    noisy = random_walk(200, seed=seed + 1, step_m=0.01, step_rad=0.01)
    est = ref.replace(
        positions_xyz=ref.positions_xyz + noisy.positions_xyz,
        orientations_quat_xyzw=noisy.orientations_quat_xyzw,
    )
    moved = Alignment(
        method="se3",
        rotation=matrix_from_quat_xyzw(quats_from_rotvecs(np.array([rotvec])))[0],
        translation_m=np.array(translation),
    ).apply(est)
    return ref, est, moved


def turned_scaled_shifted(traj: PoseTrajectory) -> PoseTrajectory:
    """``traj`` moved by a known Sim(3): x' = 0.5 Rz(90°) x + (3, -2, 1)."""
    x, y, z = traj.positions_xyz.T
    turn = np.tile([0.0, 0.0, np.sqrt(0.5), np.sqrt(0.5)], (len(traj), 1))
    return traj.replace(
        positions_xyz=np.stack([-0.5 * y + 3.0, 0.5 * x - 2.0, 0.5 * z + 1.0], axis=1),
        orientations_quat_xyzw=quat_xyzw_multiply(turn, traj.orientations_quat_xyzw),
    )


def steady_circle(
    seed: int, deg: float = 0.2, mm: float = 1.0
) -> tuple[PoseTrajectory, PoseTrajectory]:
    """A circle of 3 m at 0.2 rad/s, 20 Hz for 60 s, heading along it, the same poses on
    both sides with ``deg`` of orientation and ``mm`` of position noise a pose each."""
    rng = np.random.default_rng(seed)
    t = np.arange(0.0, 60.0, 0.05)
    path = np.stack([3 * np.cos(0.2 * t), 3 * np.sin(0.2 * t), 0 * t], 1)
    turn = np.stack([0 * t, 0 * t, 0.2 * t + math.pi / 2], 1)
    return tuple(  # type: ignore[return-value]
        PoseTrajectory(
            stamps_s=t,
            positions_xyz=path + rng.normal(0.0, mm * 1e-3, path.shape),
            orientations_quat_xyzw=quat_xyzw_from_matrix(
                matrix_from_rotation_vector(turn + rng.normal(0.0, math.radians(deg), turn.shape))
            ),
        )
        for _ in range(2)
    )
