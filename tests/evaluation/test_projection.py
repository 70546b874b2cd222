"""project_to_plane: evo's projection, pose by pose, and where prepare() applies it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import (
    EvaluationSettings,
    ape,
    euler_sxyz_from_quat_xyzw,
    project_to_plane,
)
from robot_msgs.evaluation.pipeline import prepare
from robot_msgs.rotations import quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import random_walk


def rot(axis: str, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return {
        "x": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]),
        "y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
        "z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]),
    }[axis]


def one_pose(rotation: np.ndarray, position: tuple[float, float, float]) -> PoseTrajectory:
    return PoseTrajectory(
        stamps_s=np.zeros(1),
        positions_xyz=np.array([position]),
        orientations_quat_xyzw=quat_xyzw_from_matrix(rotation[None]),
    )


YAW, PITCH, ROLL = 0.5, 0.3, -0.2
POSE = one_pose(rot("z", YAW) @ rot("y", PITCH) @ rot("x", ROLL), (1.0, 2.0, 3.0))


@pytest.mark.parametrize(
    ("plane", "axis", "angle", "kept"),
    [
        ("xy", "z", YAW, [1.0, 2.0, 0.0]),
        ("xz", "y", PITCH, [1.0, 0.0, 3.0]),
        ("yz", "x", ROLL, [0.0, 2.0, 3.0]),
    ],
)
def test_a_pose_keeps_its_in_plane_position_and_its_angle_about_the_normal(
    plane: str, axis: str, angle: float, kept: list[float]
) -> None:
    # R = Rz(yaw) Ry(pitch) Rx(roll): each plane keeps the one angle about its normal.
    flat = project_to_plane(POSE, plane)
    assert flat.positions_xyz[0].tolist() == kept
    expected = quat_xyzw_from_matrix(rot(axis, angle)[None])[0]
    assert flat.orientations_quat_xyzw[0] == pytest.approx(expected, abs=1e-15)


def test_euler_angles_of_a_known_rotation() -> None:
    angles = euler_sxyz_from_quat_xyzw(POSE.orientations_quat_xyzw)[0]
    assert angles == pytest.approx([ROLL, PITCH, YAW], abs=1e-15)


def test_gimbal_lock_takes_the_roll_from_the_other_entries() -> None:
    # Ry(90°) Rx(a) = [[0, sin a, cos a], [0, cos a, -sin a], [-1, 0, 0]]: yaw is 0 by
    # convention and roll = atan2(-R12, R11) = a.
    locked = one_pose(rot("y", math.pi / 2) @ rot("x", 0.3), (0.0, 0.0, 0.0))
    roll, pitch, yaw = euler_sxyz_from_quat_xyzw(locked.orientations_quat_xyzw)[0]
    assert (roll, pitch, yaw) == pytest.approx((0.3, math.pi / 2, 0.0), abs=1e-7)


def test_the_input_is_not_changed_and_a_bad_plane_is_refused() -> None:
    before = POSE.positions_xyz.copy()
    project_to_plane(POSE, "xy")
    assert POSE.positions_xyz.tolist() == before.tolist()
    with pytest.raises(ValidationError, match=r"Expected a plane in xy, xz, yz, got 'ab'"):
        project_to_plane(POSE, "ab")
    with pytest.raises(ValidationError, match=r"Expected one of 'xy', 'xz', 'yz', got str 'ab'"):
        EvaluationSettings(project_to_plane="ab")  # type: ignore[arg-type]
    # An array raised NumPy's "truth value of an array ... is ambiguous".
    with pytest.raises(ValidationError, match=r"Expected a plane in xy, xz, yz, got array"):
        project_to_plane(POSE, np.array(["xy", "xz"]))  # type: ignore[arg-type]


def test_prepare_projects_after_the_alignment() -> None:
    ref = random_walk(300, seed=4)
    tilted = ref.replace(positions_xyz=ref.positions_xyz + np.array([0.0, 0.0, 0.7]))
    settings = EvaluationSettings(align="none", project_to_plane="xy")
    prep = prepare(ref, tilted, settings)
    assert np.all(prep.reference.positions_xyz[:, 2] == 0.0)
    assert np.all(prep.estimate.positions_xyz[:, 2] == 0.0)
    assert (
        prep.association.reference.positions_xyz[:, 2].tolist() == ref.positions_xyz[:, 2].tolist()
    )
    assert ape(ref, tilted, settings=settings).stats["translation"].max == 0.0
    assert ape(ref, tilted).stats["translation"].rms == pytest.approx(0.7, abs=1e-12)
    result = ape(ref, tilted, settings=settings)
    assert result.settings["project_to_plane"] == "xy"
    assert "both trajectories projected to the xy plane" in result.notes


def test_projection_keeps_the_exact_nanosecond_stamps() -> None:
    """`ape BAG BAG --project-to-plane xy --save-aligned x.mcap` restamped the bag's poses
    from their float seconds: the projected trajectory dropped ``stamps_ns``."""
    from robot_msgs.trajectory.pose import stamps_s_from_ns

    ns = np.array([1502792600103435039, 1502792600223701000], dtype=np.int64)
    traj = PoseTrajectory(
        stamps_s=stamps_s_from_ns(ns),
        positions_xyz=np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)),
        stamps_ns=ns,
    )
    flat = project_to_plane(traj, "xy")
    assert flat.positions_xyz.tolist() == [[1.0, 2.0, 0.0], [4.0, 5.0, 0.0]]
    assert flat.stamps_ns is not None
    assert flat.stamps_ns.tolist() == ns.tolist()
