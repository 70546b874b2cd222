"""ADE/FDE, success rate and SPL: hand calculations and input checks."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import (
    SPL,
    AverageDisplacementError,
    FinalDisplacementError,
    SuccessRate,
    average_displacement_error,
    final_displacement_error,
    spl,
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


def test_spl_hand_computed_anderson_2018() -> None:
    # Episode 1 optimal (1), episode 2 twice the shortest path (0.5), episode 3 failed (0),
    # episode 4 shorter than the "shortest" path (clipped by max: 1).
    values = spl([1, 1, 0, 1], [10.0, 10.0, 10.0, 4.0], [10.0, 20.0, 5.0, 3.0])
    np.testing.assert_allclose(values, [1.0, 0.5, 0.0, 1.0])
    metric = SPL()
    metric.update([True, True], [10.0, 10.0], [10.0, 20.0])
    metric.update([False, True], [10.0, 4.0], [5.0, 3.0])
    assert metric.compute() == pytest.approx(2.5 / 4)


def test_success_rate_counts_episodes() -> None:
    metric = SuccessRate()
    metric.update(np.array([[True, False], [False, False]]))
    assert (metric.compute(), metric.count) == (0.25, 4)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (
            ([1, 2], [1.0, 1.0], [1.0, 1.0]),
            r"`success` as booleans or 0/1, got 2.0 at index \(1,\)",
        ),
        (
            ([1, 1], [1.0, 0.0], [1.0, 1.0]),
            r"`shortest_path_length` > 0 m, got 0.0 at index \(1,\)",
        ),
        (([1, 1], [1.0, 1.0], [-1.0, 1.0]), r"`path_length` >= 0 m, got -1.0 at index \(0,\)"),
        (([1, 1], [1.0, 1.0], [1.0]), r"`path_length` of the shape of `success` \(2,\)"),
        (([1, 1], [1.0, np.nan], [1.0, 1.0]), r"finite values in `shortest_path_length`"),
        (([1, np.nan], [1.0, 1.0], [1.0, 1.0]), r"`success` as booleans or 0/1, got nan"),
    ],
)
def test_spl_inputs_are_checked(
    args: tuple[list[float], list[float], list[float]], match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        spl(*args)
