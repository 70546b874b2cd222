"""Success rate and SPL: hand calculations and input checks."""

from __future__ import annotations

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import SPL, SuccessRate, spl


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


def test_one_bad_episode_is_a_validation_error_not_numpys() -> None:
    """Scalars reached nonzero() on a 0-d mask: NumPy's ValueError escaped (a review)."""
    from robot_msgs.metrics import success_rate

    with pytest.raises(ValidationError, match=r"booleans or 0/1, got 2.0$"):
        success_rate(2)
    with pytest.raises(ValidationError, match=r"> 0 m, got 0.0$"):
        spl(1, 0.0, 1.0)
    with pytest.raises(ValidationError, match=r"finite values in `shortest_path_length`, got nan$"):
        spl(1, float("nan"), 1.0)
