"""rotations: checked against SciPy's Rotation, an independent implementation."""

from __future__ import annotations

import math
import tracemalloc
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robot_msgs import rotations as rot
from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Callable

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


def _scipy_euler_xyz(r: Rotation) -> np.ndarray:
    """SciPy's extrinsic xyz angles, its gimbal-lock warning silenced (the lock is tested)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        out: np.ndarray = r.as_euler("xyz")
    return out


def test_euler_sxyz_matches_scipy_away_from_gimbal_lock() -> None:
    r = Rotation.from_quat(Q)
    cos_pitch = np.hypot(r.as_matrix()[:, 0, 0], r.as_matrix()[:, 1, 0])
    assert cos_pitch.min() > 1e-3  # no random rotation comes near the lock
    want = r.as_euler("xyz")
    np.testing.assert_allclose(rot.euler_sxyz_from_quat_xyzw(Q), want, atol=1e-12)
    np.testing.assert_allclose(rot.euler_sxyz_from_matrix(r.as_matrix()), want, atol=1e-12)


@pytest.mark.parametrize("pitch", [math.pi / 2, -math.pi / 2])
def test_euler_sxyz_at_gimbal_lock_puts_the_turn_in_the_roll_as_scipy_does(pitch: float) -> None:
    # Hand: Rz(g) Ry(±90°) Rx(a) = Ry(±90°) Rx(a ∓ g), so only a ∓ g is defined; the rule
    # (yaw 0, the roll carries it) gives roll = a ∓ g, and SciPy decides the same.
    roll = np.array([0.3, 0.0, 0.3, -1.2, 2.5])
    yaw = np.array([0.0, 0.4, 0.4, 0.9, 1.5])
    m = Rotation.from_euler("xyz", np.stack([roll, np.full(5, pitch), yaw], axis=1)).as_matrix()
    m[:, 0, 0] = m[:, 1, 0] = 0.0  # exactly at the lock (SciPy leaves ~1e-17 of rounding)
    m[:, 2, 1] = m[:, 2, 2] = 0.0
    got = rot.euler_sxyz_from_matrix(m)
    turn = np.angle(np.exp(1j * (roll - np.sign(pitch) * yaw)))  # wrapped into (-π, π]
    hand = np.stack([turn, np.full(5, pitch), np.zeros(5)], axis=1)
    np.testing.assert_allclose(got, hand, atol=1e-12)
    np.testing.assert_allclose(got, _scipy_euler_xyz(Rotation.from_matrix(m)), atol=1e-12)


def test_euler_sxyz_near_gimbal_lock_rebuilds_the_rotation() -> None:
    # Between our threshold (cos β <= 4ε) and SciPy's (1e-7 rad) the two pick different
    # angle sets of one rotation: compare the rotations they rebuild. Roll and yaw taken
    # separately from the tiny entries (transformations.py's formulas) rebuild these to
    # only 1e-4 at cos β = 1e-12.
    pitch = math.pi / 2 - np.array([1e-6, 1e-9, 1e-12, 1e-14, 5e-16])
    n = pitch.size
    r = Rotation.from_euler("xyz", np.stack([np.full(n, 0.3), pitch, np.full(n, 0.7)], axis=1))
    got = rot.euler_sxyz_from_matrix(r.as_matrix())
    np.testing.assert_allclose(
        Rotation.from_euler("xyz", got).as_matrix(), r.as_matrix(), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(
        Rotation.from_euler("xyz", _scipy_euler_xyz(r)).as_matrix(), r.as_matrix(), atol=1e-6
    )


def test_the_rpy_figure_and_the_projection_share_the_gimbal_lock_rule() -> None:
    # Before rotations.py held the one conversion, the rpy figure took roll and yaw from
    # entries that are rounding noise at the lock: roll 0 deg, yaw -36.9 deg here (pitch
    # 89.9999988 deg by arcsin), where the projection's rule gives roll 80 deg, yaw 0.
    from robot_msgs.report.figures import roll_pitch_yaw_deg

    q = Rotation.from_euler("xyz", [[10.0, 90.0, -70.0]], degrees=True).as_quat()
    expected = np.degrees(rot.euler_sxyz_from_quat_xyzw(q))
    np.testing.assert_allclose(roll_pitch_yaw_deg(q), expected, atol=1e-9)
    np.testing.assert_allclose(expected, [[80.0, 90.0, 0.0]], atol=1e-6)


def test_rotate_matches_scipy_apply_and_its_inverse() -> None:
    v = RNG.normal(size=(500, 3))
    r = Rotation.from_quat(Q)
    np.testing.assert_allclose(rot.quat_xyzw_rotate(Q, v), r.apply(v), atol=1e-12)
    np.testing.assert_allclose(
        rot.quat_xyzw_rotate(Q, v, inverse=True), r.apply(v, inverse=True), atol=1e-12
    )
    # q and -q rotate alike; a rotated vector keeps its length.
    np.testing.assert_allclose(rot.quat_xyzw_rotate(-Q, v), r.apply(v), atol=1e-12)


def test_rotation_vector_matches_scipy_including_tiny_and_sign_flipped() -> None:
    rotvecs = np.array([[0.0, 0.0, 0.0], [1e-14, 0.0, 0.0], [0.3, -0.2, 0.1], [0.0, 3.0, 0.0]])
    q = Rotation.from_rotvec(rotvecs).as_quat()
    assert rot.rotation_vector_from_quat_xyzw(q) == pytest.approx(rotvecs, abs=1e-15)
    assert rot.rotation_vector_from_quat_xyzw(-q) == pytest.approx(rotvecs, abs=1e-15)
    np.testing.assert_allclose(
        rot.rotation_vector_from_quat_xyzw(Q), Rotation.from_quat(Q).as_rotvec(), atol=1e-12
    )


def test_nearest_rotation_is_the_polar_factor_and_the_deviation_finds_non_rotations() -> None:
    m = Rotation.from_quat(Q[:100]).as_matrix() + RNG.uniform(-1e-3, 1e-3, size=(100, 3, 3))
    u, _, vt = np.linalg.svd(m)
    np.testing.assert_allclose(rot.nearest_rotation_matrix(m), u @ vt, atol=1e-12)
    deviation = rot.rotation_matrix_deviation(m)
    gram = m @ np.swapaxes(m, 1, 2) - np.eye(3)
    np.testing.assert_allclose(deviation, np.abs(gram).max(axis=(1, 2)), rtol=1e-12)
    assert rot.rotation_matrix_deviation(rot.nearest_rotation_matrix(m)).max() < 1e-14
    mirror = np.diag([1.0, 1.0, -1.0])[None]
    assert rot.rotation_matrix_deviation(mirror).tolist() == [math.inf]


def test_rotvec_matches_scipy_including_small_and_near_pi() -> None:
    angles = np.concatenate(
        [RNG.uniform(0, np.pi, 200), 10.0 ** -RNG.uniform(3, 15, 50), [0.0], [np.pi - 1e-6]]
    )
    axes = RNG.normal(size=(angles.size, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    want = axes * angles[:, None]
    got = rot.rotation_vector_from_matrix(Rotation.from_rotvec(want).as_matrix())
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-15)


def test_matrix_from_rotation_vector_matches_scipy_and_inverts_the_log() -> None:
    rotvecs = Rotation.from_quat(Q).as_rotvec()
    rotvecs[:20] *= 1e-10  # the small-angle branch
    want = Rotation.from_rotvec(rotvecs).as_matrix()
    np.testing.assert_allclose(rot.matrix_from_rotation_vector(rotvecs), want, atol=1e-12)
    np.testing.assert_allclose(
        rot.rotation_vector_from_matrix(want), rotvecs, rtol=1e-9, atol=1e-15
    )


def test_skew_is_the_cross_product() -> None:
    a, b = RNG.normal(size=(20, 3)), RNG.normal(size=(20, 3))
    np.testing.assert_allclose(np.einsum("nij,nj->ni", rot.skew(a), b), np.cross(a, b))


@pytest.mark.parametrize("n", [0, 1, 8191, 8192, 8193, 20000])
@pytest.mark.parametrize("width", [3, 4])
def test_matrix_times_rows_is_the_product_of_every_row_across_its_blocks(
    n: int, width: int
) -> None:
    rng = np.random.default_rng(n + width)
    matrix = rng.normal(size=(width, width))
    rows = rng.normal(scale=1e3, size=(n, width))
    got = rot.matrix_times_rows(matrix, rows)
    assert got.shape == (n, width)
    assert got.dtype == np.float64
    # Row by row, as a hand would: the i-th entry is the dot of matrix row i and the vector.
    expected = np.array([[float(np.dot(m, r)) for m in matrix] for r in rows[:: max(1, n // 50)]])
    np.testing.assert_allclose(
        got[:: max(1, n // 50)], expected.reshape(-1, width), rtol=1e-12, atol=1e-9
    )
    np.testing.assert_allclose(got, np.einsum("ij,nj->ni", matrix, rows), rtol=1e-13, atol=1e-10)


def test_matrix_times_rows_overflows_quietly_and_refuses_a_wrong_width() -> None:
    # As einsum did: inf and NaN come back for the caller's check, with no RuntimeWarning
    # (the suite turns warnings into errors).
    rows = np.array([[1.7e308, -1.7e308, 0.0], [np.inf, 0.0, 0.0]])
    got = rot.matrix_times_rows(np.full((3, 3), 2.0), rows)
    assert not np.isfinite(got).any()
    with pytest.raises(
        ValueError, match=r"expected rows \(N, 3\) for a matrix \(3, 3\), got \(3,\)"
    ):
        rot.matrix_times_rows(np.eye(3), np.ones(3))
    with pytest.raises(ValueError, match=r"got \(0, 4\)"):
        rot.matrix_times_rows(np.eye(3), np.ones((0, 4)))


@pytest.mark.parametrize("seed", range(20))
def test_rotation_from_covariance_is_scipys_best_rotation_even_where_svd_gives_a_reflection(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(3 + seed, 3))
    # every fourth case mirrored (all three axes negated): the unconstrained orthogonal fit
    # is then a reflection
    y = Rotation.random(random_state=seed).apply(x) * (-1.0 if seed % 4 == 0 else 1.0)
    y += rng.normal(scale=0.3, size=y.shape)
    rotation, singular, signs = rot.rotation_from_covariance(np.einsum("ni,nj->ij", y, x))
    scipy_rotation = Rotation.align_vectors(y, x)[0].as_matrix()  # a_k ≈ R b_k
    np.testing.assert_allclose(rotation, scipy_rotation, atol=1e-9)
    assert np.linalg.det(rotation) == pytest.approx(1.0)
    best = float(np.sum(singular * signs))
    assert best == pytest.approx(float(np.einsum("ni,ij,nj->", y, rotation, x)))


def _traced_peak(kernel: Callable[[np.ndarray], np.ndarray], matrices: np.ndarray) -> float:
    """The peak of the memory ``kernel(matrices)`` allocates, in arrays the size of ``matrices``."""
    tracemalloc.start()
    try:
        kernel(matrices)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak / matrices.nbytes


def test_row_wise_rotation_kernels_hold_little_beyond_their_result() -> None:
    """Over the whole stack at once their temporaries held 3 to 5 arrays of its size (2e6
    KITTI poses read in 1.27 GB); in blocks of rows, the result, one array of products
    for the nearest rotations (its steps need every row's), and a block's temporaries."""
    n = 80_000
    m = Rotation.random(n, random_state=3).as_matrix() + RNG.normal(scale=1e-7, size=(n, 3, 3))
    assert _traced_peak(rot.nearest_rotation_matrix, m) < 3.0  # was 5.0, now 2.3
    assert _traced_peak(rot.quat_xyzw_from_matrix, m) < 2.0  # was 4.9, now 1.0 (0.44 the result)
    assert _traced_peak(rot.rotation_matrix_deviation, m) < 1.0  # was 3.0, now 0.43


def test_nearest_rotation_takes_as_many_steps_in_every_block_bit_for_bit() -> None:
    """Rows that converge at once (first block) take the steps the far ones (last) need,
    as Higham's iteration over the whole stack does (eq. 8.20, printed below)."""
    near = np.tile(np.eye(3) + 1e-12, (9000, 1, 1))
    far = Rotation.random(9000, random_state=4).as_matrix() + RNG.uniform(-1e-2, 1e-2, (9000, 3, 3))
    m = np.concatenate([near, far])
    x = m.copy()
    for _ in range(8):
        xtx = np.swapaxes(x, -1, -2) @ x
        if np.abs(xtx - np.eye(3)).max(initial=0.0) < 2e-15:
            break
        x = 0.5 * x @ (3.0 * np.eye(3) - xtx)
    assert rot.nearest_rotation_matrix(m).tobytes() == x.tobytes()
    given = m.copy()
    assert rot.nearest_rotation_matrix(given, out=given) is given
    assert given.tobytes() == x.tobytes()
    with pytest.raises(
        ValidationError, match=r"Expected out C-contiguous float64, got float64 not"
    ):
        rot.nearest_rotation_matrix(m, out=np.empty((3, 3, len(m))).T)


def test_nearest_rotation_refuses_an_out_of_another_shape() -> None:
    """np.copyto broadcast a lone (3, 3) into every row of a larger ``out`` (and said
    "could not broadcast" for a smaller one)."""
    with pytest.raises(
        ValidationError, match=r"Expected out of the matrices' shape \(3, 3\), got \(4, 3, 3\)"
    ):
        rot.nearest_rotation_matrix(np.eye(3), out=np.zeros((4, 3, 3)))
    with pytest.raises(ValidationError, match=r"shape \(4, 3, 3\), got \(2, 3, 3\)"):
        rot.nearest_rotation_matrix(np.tile(np.eye(3), (4, 1, 1)), out=np.zeros((2, 3, 3)))
    out = np.zeros((1, 3, 3))
    assert rot.nearest_rotation_matrix(np.eye(3)[None] * 2.0, out=out) is out


def test_quat_and_deviation_of_a_stack_are_those_of_each_row_across_blocks() -> None:
    m = Rotation.random(20_000, random_state=5).as_matrix() * 1.001
    rows = slice(8190, 8194)  # across the first block's end
    assert (
        rot.quat_xyzw_from_matrix(m)[rows].tobytes() == rot.quat_xyzw_from_matrix(m[rows]).tobytes()
    )
    got = rot.rotation_matrix_deviation(m)[rows]
    assert got.tobytes() == rot.rotation_matrix_deviation(m[rows]).tobytes()
