"""Error kernels: hand-computed values, a matrix-based reference, small-angle accuracy."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import relations as relations_module
from robot_msgs.evaluation.relations import (
    APE_RELATIONS,
    RELATION_UNITS,
    RPE_RELATIONS,
    ape_errors,
    check_relation,
    rpe_errors,
)
from robot_msgs.rotations import angle_from_matrix
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import (
    line,
    quats_from_rotvecs,
    random_walk,
    transform_from_pose,
    transform_inverse,
)

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array


def _pose(xyz: list[float], rotvec: list[float]) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=np.array([0.0]),
        positions_xyz=np.array([xyz]),
        orientations_quat_xyzw=quats_from_rotvecs(np.array([rotvec], dtype=float)),
    )


def _matrix_values(e: Float64Array, relation: str) -> Float64Array:
    """The relation straight from (N, 4, 4) error matrices, as evo defines it."""
    norm: Float64Array
    if relation in {"translation", "point_distance"}:
        norm = np.linalg.norm(e[:, :3, 3], axis=1)
        return norm
    if relation == "angle_rad":
        return angle_from_matrix(e[:, :3, :3])
    if relation == "angle_deg":
        return np.degrees(angle_from_matrix(e[:, :3, :3]))
    if relation == "rot_part":
        norm = np.linalg.norm(e[:, :3, :3] - np.eye(3), axis=(1, 2))
        return norm
    if relation == "full":
        norm = np.linalg.norm(e - np.eye(4), axis=(1, 2))
        return norm
    raise AssertionError(relation)


MATRIX_RELATIONS = ("translation", "angle_rad", "angle_deg", "rot_part", "full", "point_distance")


def test_ape_of_a_quarter_turn_and_one_metre_matches_hand_values() -> None:
    ref = _pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    est = _pose([1.0, 0.0, 0.0], [0.0, 0.0, math.pi / 2])
    assert ape_errors(ref, est, "translation")[0] == pytest.approx(1.0)
    assert ape_errors(ref, est, "angle_rad")[0] == pytest.approx(math.pi / 2)
    assert ape_errors(ref, est, "angle_deg")[0] == pytest.approx(90.0)
    # R - I for a quarter turn about z has entries -1, -1, -1, +1 (in x, y): Frobenius 2.
    assert ape_errors(ref, est, "rot_part")[0] == pytest.approx(2.0)
    assert ape_errors(ref, est, "full")[0] == pytest.approx(math.sqrt(5.0))
    assert ape_errors(ref, est, "x")[0] == pytest.approx(1.0)


def test_ape_per_axis_is_estimate_minus_reference_in_the_common_frame() -> None:
    ref = _pose([1.0, 2.0, 3.0], [0.3, -0.2, 1.0])
    est = _pose([1.5, 1.0, 3.25], [0.0, 0.0, 0.0])
    got = [ape_errors(ref, est, axis)[0] for axis in "xyz"]
    assert got == pytest.approx([0.5, -1.0, 0.25])


@pytest.mark.parametrize("relation", MATRIX_RELATIONS)
def test_ape_matches_the_matrix_definition_on_random_poses(relation: str) -> None:
    ref, est = random_walk(300, seed=1), random_walk(300, seed=2, step_rad=0.2)
    p = transform_from_pose(est.positions_xyz, est.orientations_quat_xyzw)
    q = transform_from_pose(ref.positions_xyz, ref.orientations_quat_xyzw)
    expected = _matrix_values(transform_inverse(p) @ q, relation)
    np.testing.assert_allclose(ape_errors(ref, est, relation), expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("relation", MATRIX_RELATIONS[:-1])
def test_rpe_matches_the_matrix_definition_on_random_pairs(relation: str) -> None:
    ref, est = random_walk(300, seed=3), random_walk(300, seed=4, step_rad=0.2)
    rng = np.random.default_rng(0)
    pairs = np.sort(rng.integers(0, 300, size=(500, 2)), axis=1)
    p = transform_from_pose(est.positions_xyz, est.orientations_quat_xyzw)
    q = transform_from_pose(ref.positions_xyz, ref.orientations_quat_xyzw)
    i, j = pairs[:, 0], pairs[:, 1]
    e = transform_inverse(transform_inverse(q[i]) @ q[j]) @ (transform_inverse(p[i]) @ p[j])
    expected = _matrix_values(e, relation)
    np.testing.assert_allclose(rpe_errors(ref, est, pairs, relation), expected, atol=1e-12)


def test_rpe_per_axis_is_the_translation_of_the_error_pose() -> None:
    ref, est = random_walk(50, seed=5), random_walk(50, seed=6, step_rad=0.3)
    pairs = np.array([[0, 7], [3, 40], [10, 11]])
    p = transform_from_pose(est.positions_xyz, est.orientations_quat_xyzw)
    q = transform_from_pose(ref.positions_xyz, ref.orientations_quat_xyzw)
    i, j = pairs[:, 0], pairs[:, 1]
    e = transform_inverse(transform_inverse(q[i]) @ q[j]) @ (transform_inverse(p[i]) @ p[j])
    got = np.stack([rpe_errors(ref, est, pairs, axis) for axis in "xyz"], axis=1)
    np.testing.assert_allclose(got, e[:, :3, 3], atol=1e-12)


def test_small_rotation_errors_keep_their_digits() -> None:
    # arccos((tr R - 1) / 2) returns 0 or ~2e-8 here; the quaternion forms stay exact.
    ref = _pose([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    est = _pose([0.0, 0.0, 0.0], [1e-9, 0.0, 0.0])
    assert ape_errors(ref, est, "angle_rad")[0] == pytest.approx(1e-9, rel=1e-12)
    assert ape_errors(ref, est, "rot_part")[0] == pytest.approx(math.sqrt(2) * 1e-9, rel=1e-12)


def test_rpe_point_distance_and_ratio_by_hand() -> None:
    ref = line(np.array([0.0, 1.0, 1.0, 3.0]), n=4)
    est = line(np.array([0.0, 1.1, 1.1, 2.8]), n=4)
    pairs = np.array([[0, 1], [1, 2], [2, 3]])
    np.testing.assert_allclose(
        rpe_errors(ref, est, pairs, "point_distance"), [0.1, 0.0, 0.3], atol=1e-15
    )
    ratio = rpe_errors(ref, est, pairs, "point_distance_error_ratio")
    np.testing.assert_allclose(ratio[[0, 2]], [10.0, 15.0])
    assert np.isnan(ratio[1])  # zero reference distance: left out, as evo drops it


def test_seed_offset_cancels_in_relative_errors() -> None:
    ref = line()
    est = line(np.arange(101, dtype=np.float64) * 0.1 + 0.1)
    pairs = np.stack([np.arange(91), np.arange(91) + 10], axis=1)
    assert np.max(np.abs(rpe_errors(ref, est, pairs, "translation"))) < 1e-12
    np.testing.assert_allclose(ape_errors(ref, est, "translation"), 0.1, atol=1e-12)


def test_every_relation_has_a_unit() -> None:
    assert set(RPE_RELATIONS) | set(APE_RELATIONS) == set(RELATION_UNITS)
    # RPE adds the distance ratio; NEES (a pose against its covariance) and trajectopy's
    # component definitions (its ate()) are APE's only.
    assert set(RPE_RELATIONS) - set(APE_RELATIONS) == {"point_distance_error_ratio"}
    assert set(APE_RELATIONS) - set(RPE_RELATIONS) == {
        "nees",
        "nees_position",
        "nees_orientation",
        "nees_planar",
        "along_track_body",
        "cross_track_body",
        "vertical_body",
        "roll_world_rad",
        "pitch_world_rad",
        "yaw_world_rad",
        "roll_world_deg",
        "pitch_world_deg",
        "yaw_world_deg",
    }


def test_unknown_relation_is_refused_with_the_choices() -> None:
    with pytest.raises(ValidationError, match="Expected a relation in translation"):
        check_relation("speed")
    ref = line()
    with pytest.raises(ValidationError, match="got 'point_distance_error_ratio'"):
        ape_errors(ref, ref, "point_distance_error_ratio")
    # A list raised TypeError (unhashable type: 'list') from the alias lookup.
    with pytest.raises(ValidationError, match=r"Expected a relation in .*, got list \['x'\]"):
        ape_errors(ref, ref, ["x"])  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"Expected a relation in .*, got dict \{\}"):
        rpe_errors(ref, ref, np.array([[0, 1]]), {})  # type: ignore[arg-type]


@pytest.mark.parametrize("junk", [None, 1, math.nan])
def test_what_is_not_a_trajectory_is_refused_by_its_name(junk: object) -> None:
    # None or a number raised TypeError (object of type 'NoneType' has no len()).
    with pytest.raises(ValidationError, match=r"Expected `estimate` as a PoseTrajectory"):
        ape_errors(line(), junk)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"Expected `reference` as a PoseTrajectory"):
        rpe_errors(junk, line(), np.array([[0, 1]]))  # type: ignore[arg-type]


def test_an_alignment_that_is_not_one_is_refused_by_its_name() -> None:
    # A dict or a matrix raised AttributeError ('dict' object has no attribute 'is_identity').
    with pytest.raises(ValidationError, match=r"Expected `alignment` as an Alignment, got dict"):
        ape_errors(line(), line(), alignment={"scale": 2.0})  # type: ignore[arg-type]


def test_unassociated_trajectories_are_refused() -> None:
    with pytest.raises(ValidationError, match="equal length, got reference 101 and estimate 50"):
        ape_errors(line(), line(n=50))
    with pytest.raises(ValidationError, match="associate them first"):
        rpe_errors(line(), line(n=50), np.array([[0, 1]]))


def test_malformed_pairs_are_refused() -> None:
    ref = line(n=5)
    with pytest.raises(ValidationError, match=r"shape \(K, 2\)"):
        rpe_errors(ref, ref, np.array([0, 1]))
    with pytest.raises(ValidationError, match=r"indices in \[0, 5\)"):
        rpe_errors(ref, ref, np.array([[0, 5]]))


@pytest.mark.parametrize("relation", APE_RELATIONS)
@pytest.mark.parametrize("blocks", [False, True], ids=["quaternions", "kitti-blocks"])
def test_ape_with_an_alignment_equals_ape_of_the_aligned_estimate(
    relation: str, blocks: bool
) -> None:
    """The chunked alignment gives the whole aligned copy's errors, bit for bit.

    40000 poses span three kernel chunks (16384 rows), the last one short; the estimate
    carries a covariance (the NEES relations) and, with KITTI's blocks, its rotation
    matrices as given (``rot_part``/``full`` read them).
    """
    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.rotations import matrix_from_quat_xyzw

    n = 40_000
    ref, est = random_walk(n, seed=3), random_walk(n, seed=4, step_rad=0.2)
    cov = np.tile(np.diag([1e-2, 2e-2, 3e-2, 1e-4, 2e-4, 3e-4]), (n, 1, 1))
    est = est.replace(covariance_6x6=cov)
    if blocks:
        est = est.replace(rotation_matrices=matrix_from_quat_xyzw(est.orientations_quat_xyzw))
    turn = matrix_from_quat_xyzw(quats_from_rotvecs(np.array([[0.3, -0.2, 1.1]])))[0]
    shift = np.array([1.0, -2.0, 0.5])
    alignment = Alignment(method="sim3", rotation=turn, translation_m=shift, scale=1.7)
    moved = ape_errors(ref, est, relation, alignment=alignment)
    whole = ape_errors(ref, alignment.apply(est), relation)
    np.testing.assert_array_equal(moved, whole)


_COORDINATES = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-300, -1e-300, 5e-324, 1e6, -1e6]),
)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    coordinates=st.lists(_COORDINATES, min_size=6, max_size=6),
    pairs=st.integers(0, 70),
)
def test_the_compiled_translation_loop_gives_the_numpy_kernels_bits(
    n: int, seed: int, coordinates: list[float], pairs: int
) -> None:
    """RPE translation through ``_relations.c`` equals the NumPy kernel exactly.

    Random orientations (unit and near it), positions with drawn edge values (signed
    zeros, subnormals, 1e6) put at random poses, and random pairs in any order, a pose
    paired with itself included; the NumPy road is taken by hiding the compiled module.
    """
    compiled = relations_module._compiled
    if compiled is None:
        pytest.skip("built without a C compiler: NumPy computes")
    rng = np.random.default_rng(seed)

    def trajectory() -> PoseTrajectory:
        xyz = rng.normal(0.0, 10.0, (n, 3))
        cells = rng.integers(0, n * 3, len(coordinates))
        xyz.ravel()[cells] = coordinates
        quats = rng.normal(size=(n, 4))
        return PoseTrajectory(
            stamps_s=np.arange(float(n)),
            positions_xyz=xyz,
            orientations_quat_xyzw=quats / np.linalg.norm(quats, axis=1)[:, None],
        )

    ref, est = trajectory(), trajectory()
    ij = rng.integers(0, n, (pairs, 2))
    fast = rpe_errors(ref, est, ij)
    try:
        relations_module._compiled = None
        slow = rpe_errors(ref, est, ij)
    finally:
        relations_module._compiled = compiled
    assert fast.dtype == slow.dtype
    np.testing.assert_array_equal(fast, slow)


def test_the_compiled_translation_loop_refuses_what_it_cannot_read() -> None:
    """Wrong sizes, item types and an index out of range are a ValueError, never a misread."""
    compiled = relations_module._compiled
    if compiled is None:
        pytest.skip("built without a C compiler: NumPy computes")
    p, q = np.zeros((3, 3)), np.tile([0.0, 0.0, 0.0, 1.0], (3, 1))
    out = np.empty(1)
    with pytest.raises(ValueError, match="row 0 holds an index outside"):
        compiled.rpe_translation(p, q, p, q, np.array([[0, 3]], dtype=np.intp), out)
    with pytest.raises(ValueError, match="q_est: expected 8-byte items, 12 of them"):
        compiled.rpe_translation(p, q, p, q[:2], np.array([[0, 1]], dtype=np.intp), out)
    with pytest.raises(ValueError, match="pairs: expected 8-byte items, 2 of them"):
        compiled.rpe_translation(p, q, p, q, np.array([[0, 1, 2]], dtype=np.intp), out)
    # items of the right size but another type: read as they are, they would be garbage
    with pytest.raises(ValueError, match="p_ref: expected items of format 'd', got 'l'"):
        compiled.rpe_translation(p.astype(np.int64), q, p, q, np.array([[0, 1]]), out)
    with pytest.raises(ValueError, match="pairs: expected items of format 'lqn', got 'd'"):
        compiled.rpe_translation(p, q, p, q, np.array([[0.0, 1.0]]), out)
    with pytest.raises(ValueError, match="q_est: expected items of format 'd', got '>d'"):
        compiled.rpe_translation(p, q, p, q.astype(">f8"), np.array([[0, 1]]), out)
    compiled.rpe_translation(p, q, p, q, np.array([[0, 2]], dtype=np.intp), out)
    assert out.tolist() == [0.0]
