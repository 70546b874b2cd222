"""ADE/FDE: hand calculations and input checks."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import (
    AverageDisplacementError,
    FinalDisplacementError,
    average_displacement_error,
    final_displacement_error,
)


def test_ade_and_fde_hand_computed() -> None:
    # Errors per point: 0, |(0, 1)| = 1, |(3, 4)| = 5 -> ADE 2, FDE 5.
    pred = [[0.0, 0.0], [1.0, 1.0], [5.0, 4.0]]
    true = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    assert float(average_displacement_error(pred, true)) == 2.0
    assert float(final_displacement_error(pred, true)) == 5.0
    ade, fde = AverageDisplacementError(), FinalDisplacementError()
    for metric in (ade, fde):
        metric.update([pred, true], [true, true])
    assert ade.compute() == 1.0  # (2 + 0) / 2
    assert fde.compute() == 2.5


def test_displacement_shapes_must_match() -> None:
    with pytest.raises(ValidationError, match=r"`target` of the shape of `prediction` \(2, 2\)"):
        average_displacement_error(np.zeros((2, 2)), np.zeros((3, 2)))
