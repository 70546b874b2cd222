"""The evaluation API names a wrong argument instead of failing deep inside."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import (
    EvaluationSettings,
    PairSettings,
    align,
    ape,
    associate,
    evaluate,
    kitti_drift,
    relative_error,
    rpe,
    select_pairs,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

_T = np.arange(5.0)
_TRAJ = PoseTrajectory(
    stamps_s=_T,
    positions_xyz=np.stack([_T, 0 * _T, 0 * _T], axis=1),
    orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (5, 1)),
)
_ROWS = np.zeros((5, 8))


@pytest.mark.parametrize(
    ("call", "name", "expected"),
    [
        (lambda: ape(_TRAJ, [[0.0, 1.0]]), "estimate", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: ape("groundtruth.tum", _TRAJ), "reference", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: rpe(_ROWS, _TRAJ), "reference", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: kitti_drift(_TRAJ, None), "estimate", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: relative_error(_TRAJ, _ROWS), "estimate", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: evaluate(_TRAJ, _TRAJ, {"align": "se3"}), "settings", "EvaluationSettings"),  # type: ignore[call-overload]
        (lambda: ape(_TRAJ, _TRAJ, settings="se3"), "settings", "EvaluationSettings"),  # type: ignore[arg-type]
        (lambda: associate(_TRAJ, _ROWS), "estimate", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: align(_TRAJ, _ROWS, settings=EvaluationSettings()), "estimate", "PoseTrajectory"),  # type: ignore[arg-type]
        (lambda: rpe(_TRAJ, _TRAJ, pairs={"delta": 1}), "pairs", "PairSettings"),  # type: ignore[arg-type]
        (lambda: select_pairs(_TRAJ, 1.0), "pairs", "PairSettings"),  # type: ignore[arg-type]
    ],
)
def test_a_wrong_argument_type_is_named_with_what_to_pass(
    call: Callable[[], Any], name: str, expected: str
) -> None:
    with pytest.raises(ValidationError, match=rf"Expected `{name}` as an? {expected}, got") as err:
        call()
    assert err.value.field == name
    assert "build one with" in str(err.value) or "read a file" in str(err.value)


def test_right_arguments_still_evaluate() -> None:
    result = rpe(_TRAJ, _TRAJ, settings=EvaluationSettings(), pairs=PairSettings(delta=1))
    assert result.stats["translation"].rms == 0.0
