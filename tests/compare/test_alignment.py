"""is_rotation_matrix: the test an Alignment's rotation passes, on values stated by hand."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.compare.alignment import is_rotation_matrix

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory

C, S = math.cos(math.radians(30)), math.sin(math.radians(30))


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([[1, 0, 0], [0, 1, 0], [0, 0, 1]], True),
        ([[C, -S, 0], [S, C, 0], [0, 0, 1]], True),  # 30 degrees about z
        ([[0, 0, 1], [1, 0, 0], [0, 1, 0]], True),  # a cyclic permutation: det +1
        ([[0, 1, 0], [1, 0, 0], [0, 0, 1]], False),  # a swap: det -1
        ([[1, 0, 0], [0, 1, 0], [0, 0, -1]], False),  # a reflection
        ([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], False),  # -I: orthonormal, det -1
        ([[1, 0.5, 0], [0, 1, 0], [0, 0, 1]], False),  # a shear: det 1, not orthonormal
        ([[1 + 4e-7, 0, 0], [0, 1, 0], [0, 0, 1]], True),  # RᵀR off by 8e-7, det by 4e-7
        ([[1 + 6e-7, 0, 0], [0, 1, 0], [0, 0, 1]], False),  # RᵀR off by 1.2e-6
        ([[math.nan, 0, 0], [0, 1, 0], [0, 0, 1]], False),
        ([[math.inf, 0, 0], [0, 1, 0], [0, 0, 1]], False),
        ([[1e200, 0, 0], [0, 1e200, 0], [0, 0, 1e200]], False),  # products overflow
        ([[1e308, 1e308, 0], [0, 1, 0], [0, 0, 1]], False),  # the sum of entries overflows
    ],
)
def test_a_rotation_is_finite_orthonormal_and_proper(
    rows: list[list[float]], expected: bool
) -> None:
    assert is_rotation_matrix(np.array(rows, dtype=np.float64)) is expected


def test_apply_keeps_the_exact_nanosecond_stamps() -> None:
    """`traj BAG --topic ORB-SLAM --ref BAG2 --align se3 --save x.mcap` (and ape
    --save-aligned) restamped the bag's poses from their float seconds: the moved
    trajectory dropped ``stamps_ns`` ("stamps and frames are kept")."""
    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.trajectory.pose import stamps_s_from_ns

    ns = np.array([1502792600103435039, 1502792600223701000], dtype=np.int64)
    traj = PoseTrajectory(
        stamps_s=stamps_s_from_ns(ns),
        positions_xyz=np.array([[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)),
        stamps_ns=ns,
    )
    moved = Alignment(
        method="se3",
        rotation=np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
        translation_m=np.array([1.0, 0.0, 0.0]),
        scale=1.0,
    ).apply(traj)
    assert moved.positions_xyz.tolist() == [[1.0, 1.0, 0.0], [1.0, 2.0, 0.0]]
    assert moved.stamps_ns is not None
    assert moved.stamps_ns.tolist() == ns.tolist()


def _two_poses() -> PoseTrajectory:
    from robot_msgs.trajectory import PoseTrajectory

    return PoseTrajectory(
        stamps_s=np.array([0.0, 1.0]),
        positions_xyz=np.array([[1e149, 0.0, 0.0], [1e149, 1.0, 0.0]]),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (2, 1)),
    )


def test_with_positions_refuses_positions_past_the_limit_as_the_constructor_does() -> None:
    """rpg's scaled estimate (Sim(3) scale 100 on positions near 1e149 m) came out at
    1e151 m, past POSITION_LIMIT_M, built unchecked: a result that ``from_dict(to_dict())``
    refused, where ``replace`` refused it before. The constructor's own refusal is the
    reference."""
    from robot_msgs.compare.alignment import with_positions
    from robot_msgs.errors import ValidationError

    traj = _two_poses()
    far = traj.positions_xyz * 100.0
    with pytest.raises(ValidationError, match=r"within \+-1e\+150 m") as constructor:
        traj.replace(positions_xyz=far)
    with pytest.raises(ValidationError, match=r"within \+-1e\+150 m") as helper:
        with_positions(traj, far)
    assert str(helper.value) == str(constructor.value)


def test_with_positions_keeps_no_array_the_caller_can_still_write() -> None:
    """The positions were kept as given and only flagged read-only: a view of them the
    caller held before still wrote into the 'immutable' trajectory, and the caller's own
    array turned read-only under it. The constructor copies; so does this."""
    from robot_msgs.compare.alignment import with_positions
    from robot_msgs.trajectory import PoseTrajectory

    traj = _two_poses()
    mine = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    view = mine.view()
    out = with_positions(traj, mine)
    view[0, 0] = 5.0
    assert out.positions_xyz.tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
    assert mine.flags.writeable
    assert not out.positions_xyz.flags.writeable
    assert PoseTrajectory.from_dict(out.to_dict()) == out
