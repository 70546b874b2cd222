"""rotations: checked against SciPy's Rotation, an independent implementation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robot_msgs import rotations as rot

RNG = np.random.default_rng(7)
Q = Rotation.random(500, random_state=7).as_quat()  # x, y, z, w


def test_matrix_from_quat_matches_scipy() -> None:
    np.testing.assert_allclose(
        rot.matrix_from_quat_xyzw(Q), Rotation.from_quat(Q).as_matrix(), atol=1e-12
    )


def test_quat_from_matrix_round_trips_including_near_pi() -> None:
    angles = np.concatenate([RNG.uniform(0, np.pi, 200), np.pi - 10.0 ** -RNG.uniform(3, 12, 50)])
    axes = RNG.normal(size=(250, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    r = Rotation.from_rotvec(axes * angles[:, None])
    got = rot.quat_xyzw_from_matrix(r.as_matrix())
    want = rot.normalize_quat_xyzw(r.as_quat())
    np.testing.assert_allclose(np.abs(np.sum(got * want, axis=1)), 1.0, atol=1e-12)


def test_angle_matches_rotvec_norm() -> None:
    r = Rotation.from_quat(Q)
    np.testing.assert_allclose(rot.angle_from_matrix(r.as_matrix()), r.magnitude(), atol=1e-12)
    np.testing.assert_allclose(rot.angle_from_quat_xyzw(Q), r.magnitude(), atol=1e-12)


def test_small_angles_keep_relative_precision() -> None:
    r = Rotation.from_rotvec([[1e-9, 0.0, 0.0]])
    assert rot.angle_from_matrix(r.as_matrix())[0] == pytest.approx(1e-9, rel=1e-6)


def test_multiply_matches_scipy_composition() -> None:
    a, b = Q[:250], Q[250:]
    got = rot.matrix_from_quat_xyzw(rot.quat_xyzw_multiply(a, b))
    want = (Rotation.from_quat(a) * Rotation.from_quat(b)).as_matrix()
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_slerp_matches_scipy() -> None:
    from scipy.spatial.transform import Slerp

    q0, q1 = Q[:1], Q[1:2]
    fractions = np.linspace(0, 1, 11)
    want = Slerp([0.0, 1.0], Rotation.from_quat(np.vstack([q0, q1])))(fractions).as_matrix()
    got = rot.matrix_from_quat_xyzw(
        rot.quat_xyzw_slerp(np.repeat(q0, 11, 0), np.repeat(q1, 11, 0), fractions)
    )
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_transform_inverse_is_inverse() -> None:
    t = rot.transform_from_pose(RNG.normal(size=(50, 3)), Q[:50])
    np.testing.assert_allclose(
        t @ rot.transform_inverse(t), np.broadcast_to(np.eye(4), t.shape), atol=1e-12
    )


def test_yaw_of_pure_yaw_rotation() -> None:
    yaw = np.linspace(-3.0, 3.0, 13)
    m = Rotation.from_euler("z", yaw[:, None]).as_matrix()
    np.testing.assert_allclose(rot.yaw_from_matrix(m), yaw, atol=1e-12)


def test_rotvec_matches_scipy_including_small_and_near_pi() -> None:
    angles = np.concatenate(
        [RNG.uniform(0, np.pi, 200), 10.0 ** -RNG.uniform(3, 15, 50), [0.0], [np.pi - 1e-6]]
    )
    axes = RNG.normal(size=(angles.size, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    want = axes * angles[:, None]
    got = rot.rotvec_from_matrix(Rotation.from_rotvec(want).as_matrix())
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


def test_matrix_from_rotvec_matches_scipy_and_inverts_the_log() -> None:
    rotvecs = Rotation.from_quat(Q).as_rotvec()
    rotvecs[:20] *= 1e-10  # the small-angle branch
    want = Rotation.from_rotvec(rotvecs).as_matrix()
    np.testing.assert_allclose(rot.matrix_from_rotvec(rotvecs), want, atol=1e-12)
    np.testing.assert_allclose(rot.rotvec_from_matrix(want), rotvecs, rtol=1e-9, atol=1e-15)


def test_skew_is_the_cross_product() -> None:
    a, b = RNG.normal(size=(20, 3)), RNG.normal(size=(20, 3))
    np.testing.assert_allclose(np.einsum("nij,nj->ni", rot.skew(a), b), np.cross(a, b))
