"""Trajectories built for the evaluation tests: the seed guide's line and random walks."""

from __future__ import annotations

import numpy as np

from robot_msgs.rotations import normalize_quat_xyzw, quat_xyzw_multiply
from robot_msgs.trajectory import PoseTrajectory


def line(positions_x: np.ndarray | None = None, n: int = 101) -> PoseTrajectory:
    """The seed guide's reference: x = t metres, t = 0..10 s every 0.1 s, identity rotations."""
    t = np.arange(n) * 0.1
    x = t if positions_x is None else positions_x
    p = np.zeros((n, 3))
    p[:, 0] = x
    return PoseTrajectory(
        stamps_s=t, positions_xyz=p, orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    )


def quats_from_rotvecs(rotvecs: np.ndarray) -> np.ndarray:
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
        stamps_s=np.arange(n) * dt, positions_xyz=positions, orientations_quat_xyzw=quats
    )
