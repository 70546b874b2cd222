"""apply_transforms: P -> T_l P T_r, as 4x4 products say, and undone by the inverses."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import (
    EvaluationSettings,
    PairSettings,
    ape,
    apply_transforms,
    kitti_drift,
    rpe,
    sim3_inverse,
)
from robot_msgs.io import read_trajectory
from robot_msgs.rotations import matrix_from_quat_xyzw, quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import (
    quats_from_rotvecs,
    random_walk,
    transform_from_pose,
)

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.evaluation.settings import AlignMethod


def transform(rotvec: list[float], translation: list[float], scale: float = 1.0) -> np.ndarray:
    out = np.eye(4)
    out[:3, :3] = scale * matrix_from_quat_xyzw(quats_from_rotvecs(np.array([rotvec])))[0]
    out[:3, 3] = translation
    return out


def flat(matrix: np.ndarray) -> tuple[float, ...]:
    return tuple(float(v) for v in matrix.ravel())


LEFT = transform([0.3, -1.2, 2.0], [10.0, -4.0, 2.5])  # another world frame
SCALED = transform([0.3, -1.2, 2.0], [10.0, -4.0, 2.5], scale=1.7)  # and other units
RIGHT = transform([-2.1, 0.4, 0.9], [0.12, -0.05, 0.3])  # a camera-to-IMU extrinsic


def by_matrices(traj: PoseTrajectory, left: np.ndarray, right: np.ndarray) -> PoseTrajectory:
    """``T_l P T_r`` with 4x4 products: the definition, computed independently."""
    poses = left @ transform_from_pose(traj.positions_xyz, traj.orientations_quat_xyzw) @ right
    block = poses[:, :3, :3]
    scale = np.cbrt(np.linalg.det(block))[:, None, None]
    return traj.replace(
        positions_xyz=poses[:, :3, 3], orientations_quat_xyzw=quat_xyzw_from_matrix(block / scale)
    )


@pytest.mark.parametrize("left", [LEFT, SCALED])
def test_left_and_right_transforms_are_the_4x4_products(left: np.ndarray) -> None:
    traj = random_walk(50, seed=2)
    settings = EvaluationSettings(transform_left=flat(left), transform_right=flat(RIGHT))
    got = apply_transforms(traj, settings)
    want = by_matrices(traj, left, RIGHT)
    assert got.positions_xyz == pytest.approx(want.positions_xyz, abs=1e-12)
    dots = np.abs(np.einsum("ni,ni->n", got.orientations_quat_xyzw, want.orientations_quat_xyzw))
    assert dots == pytest.approx(1.0, abs=1e-14)
    assert got.stamps_s.tolist() == traj.stamps_s.tolist()


def test_the_inverse_flags_use_the_inverse_transforms() -> None:
    traj = random_walk(50, seed=3)
    settings = EvaluationSettings(
        transform_left=flat(SCALED),
        invert_transform_left=True,
        transform_right=flat(RIGHT),
        invert_transform_right=True,
    )
    got = apply_transforms(traj, settings)
    want = by_matrices(traj, np.linalg.inv(SCALED), np.linalg.inv(RIGHT))
    assert got.positions_xyz == pytest.approx(want.positions_xyz, abs=1e-12)
    assert sim3_inverse(SCALED) == pytest.approx(np.linalg.inv(SCALED), abs=1e-14)


@pytest.mark.parametrize(
    ("matrix", "match"),
    [
        # An IndexError; a 5x5 cut to its corner; NaN from zeros in silence; a shear
        # inverted as if it were s R (found by a hunt).
        (np.eye(3), r"16 numbers, row-major 4x4, got shape \(3, 3\)"),
        (np.eye(5), r"16 numbers, row-major 4x4, got shape \(5, 5\)"),
        (np.zeros((4, 4)), r"whose last row is 0 0 0 1, got 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"),
        (np.diag([1.0, 2.0, 1.0, 1.0]), r"whose 3x3 block is s R \(R a rotation, s > 0\)"),
        (np.full((4, 4), math.nan), r"16 numbers, row-major 4x4, got nan nan"),
        ("x", r"16 numbers, row-major 4x4, got str 'x'"),
    ],
)
def test_sim3_inverse_refuses_what_is_not_a_similarity(matrix: object, match: str) -> None:
    with pytest.raises(ValidationError, match=r"Expected `matrix` as a Sim\(3\) or SE\(3\) "):
        sim3_inverse(matrix)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=match):
        sim3_inverse(matrix)  # type: ignore[arg-type]


def _moved_and_undone(
    est: PoseTrajectory,
) -> tuple[PoseTrajectory, EvaluationSettings]:
    moved = by_matrices(est, LEFT, RIGHT)
    undo = EvaluationSettings(
        transform_left=flat(LEFT),
        invert_transform_left=True,
        transform_right=flat(RIGHT),
        invert_transform_right=True,
    )
    return moved, undo


RELATIONS = ("translation", "angle_deg", "full", "rot_part", "point_distance", "x")


@pytest.mark.parametrize("align", ["none", "se3", "sim3"])
def test_a_moved_estimate_gives_back_the_original_numbers_with_the_inverses(
    align: AlignMethod,
) -> None:
    ref = random_walk(400, seed=5)
    noise = random_walk(400, seed=6, step_m=0.004, step_rad=0.003)
    est = ref.replace(
        positions_xyz=ref.positions_xyz + noise.positions_xyz,
        orientations_quat_xyzw=noise.orientations_quat_xyzw,
    )
    moved, undo = _moved_and_undone(est)
    base = EvaluationSettings(align=align)
    for relation in RELATIONS:
        want = ape(ref, est, settings=base, relation=relation).stats[relation]
        got = ape(ref, moved, settings=undo.replace(align=align), relation=relation).stats[relation]
        assert got.rms == pytest.approx(want.rms, rel=1e-9, abs=1e-12), relation
        assert got.max == pytest.approx(want.max, rel=1e-9, abs=1e-12), relation
    pairs = PairSettings(delta=5)
    for relation in RELATIONS:
        want = rpe(ref, est, settings=base, pairs=pairs, relation=relation).stats[relation]
        again = rpe(ref, moved, settings=undo.replace(align=align), pairs=pairs, relation=relation)
        assert again.stats[relation].rms == pytest.approx(want.rms, rel=1e-9, abs=1e-12), relation


def test_drift_takes_the_transforms_too() -> None:
    ref = random_walk(600, seed=8, step_m=1.0)
    est = ref.replace(positions_xyz=ref.positions_xyz * 1.01)
    moved, undo = _moved_and_undone(est)
    want = kitti_drift(ref, est, lengths_m=(100.0,), step_frames=5)
    got = kitti_drift(ref, moved, settings=undo, lengths_m=(100.0,), step_frames=5)
    for name, stats in want.stats.items():
        assert got.stats[name].mean == pytest.approx(stats.mean, rel=1e-9), name


@pytest.mark.evo_data
def test_the_evo_estimate_moved_and_undone_gives_evo_numbers(evo_data: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        ref = read_trajectory(evo_data / "freiburg1_xyz-groundtruth.txt")
        est = read_trajectory(evo_data / "freiburg1_xyz-rgbdslam_drift.txt")
    moved, undo = _moved_and_undone(est)
    for align in ("none", "se3"):
        for relation in ("translation", "angle_deg"):
            want = ape(ref, est, settings=EvaluationSettings(align=align), relation=relation)
            got = ape(ref, moved, settings=undo.replace(align=align), relation=relation)
            assert got.stats[relation].rms == pytest.approx(want.stats[relation].rms, rel=1e-9)
    # Without undoing, the numbers are far off: the test would see a missing transform.
    assert ape(ref, moved).stats["translation"].rms > 1.0


@pytest.mark.parametrize(
    ("changes", "field", "match"),
    [
        ({"transform_left": (1.0,) * 15}, "transform_left", r"of length 16\.\.16"),
        (
            {"transform_left": flat(np.diag([1.0, 1.0, 1.0, 2.0]))},
            "transform_left",
            r"whose last row is 0 0 0 1",
        ),
        (
            {"transform_left": flat(np.diag([1.0, 2.0, 1.0, 1.0]))},
            "transform_left",
            r"whose 3x3 block is s R",
        ),
        (
            {"transform_left": flat(np.diag([1.0, 1.0, -1.0, 1.0]))},
            "transform_left",
            r"whose 3x3 block is s R",
        ),
        (
            {"transform_right": flat(transform([0, 0, 1], [0, 0, 0], scale=2.0))},
            "transform_right",
            r"without scale \(a body-frame change is rigid\)",
        ),
        ({"transform_right": (math.nan,) * 16}, "transform_right", r"an SE\(3\) transform"),
        ({"invert_transform_left": True}, "invert_transform_left", r"a transform_left to invert"),
    ],
)
def test_bad_transforms_are_refused_naming_the_field(
    changes: dict[str, object], field: str, match: str
) -> None:
    with pytest.raises(ValidationError, match=match) as caught:
        EvaluationSettings(**changes)  # type: ignore[arg-type]
    assert caught.value.field == f"EvaluationSettings.{field}"


def test_a_scaled_left_transform_alone_is_undone_by_its_inverse() -> None:
    ref = random_walk(300, seed=9)
    est = ref.replace(positions_xyz=ref.positions_xyz + 0.01)
    moved = apply_transforms(est, EvaluationSettings(transform_left=flat(SCALED)))
    undo = EvaluationSettings(transform_left=flat(SCALED), invert_transform_left=True)
    want = ape(ref, est, relation="full").stats["full"].rms
    assert ape(ref, moved, settings=undo, relation="full").stats["full"].rms == pytest.approx(
        want, rel=1e-9
    )


def test_a_scaled_left_transform_scales_positions_not_rotations() -> None:
    traj = random_walk(10, seed=1)
    scaled = np.diag([2.0, 2.0, 2.0, 1.0])
    got = apply_transforms(traj, EvaluationSettings(transform_left=flat(scaled)))
    assert got.positions_xyz == pytest.approx(2.0 * traj.positions_xyz, abs=1e-15)
    assert got.orientations_quat_xyzw == pytest.approx(traj.orientations_quat_xyzw, abs=1e-15)


def test_transforms_that_move_poses_past_the_limit_name_themselves() -> None:
    """Positions at 1e150 m moved 1e150 m further were refused by the trajectory, naming
    `positions_xyz[0]` and neither transform (a review found it)."""
    traj = PoseTrajectory(
        stamps_s=np.array([0.0, 1.0]),
        positions_xyz=np.array([[1e150, 0.0, 0.0], [0.0, 0.0, 0.0]]),
        orientations_quat_xyzw=np.array([[0.0, 0, 0, 1]] * 2),
    )
    shift = np.eye(4)
    shift[0, 3] = 1e150
    with pytest.raises(
        ValidationError,
        match=r"^The transforms \(`transform_left=`, `transform_right=`\) move pose 0 to "
        r"\[2e\+150, 0\.0, 0\.0\] m, beyond \+-1e\+150 m \(1 pose\(s\)\)$",
    ):
        apply_transforms(traj, EvaluationSettings(transform_left=tuple(shift.ravel())))


# EuRoC V1 rooms' mav0/vicon0/sensor.yaml T_BS, as printed (5 decimals): R^T R is off
# s^2 I by 7.44e-6 s^2 (max entry, s^2 = tr(R^T R)/3, numpy on the printed numbers).
EUROC_VICON0_T_BS = (
    0.33638, -0.01749, 0.94156, 0.06901,
    -0.02078, -0.99972, -0.01114, -0.02781,
    0.94150, -0.01582, -0.33665, -0.12395,
    0.0, 0.0, 0.0, 1.0,
)  # fmt: skip


def test_a_rotation_printed_to_few_digits_is_refused_saying_how_far_off_it_is() -> None:
    """The refusal said "whose 3x3 block is s R" of a block that looks like a rotation."""
    with pytest.raises(
        ValidationError,
        match=r"s R \(R a rotation, s > 0\): R\^T R is 7\.4e-06 s\^2 from s\^2 I, at most 1e-06",
    ):
        EvaluationSettings(transform_right=EUROC_VICON0_T_BS)
