"""Curvature and CurvatureChange: hand calculations, angle wrapping, degenerate steps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import (
    Curvature,
    CurvatureChange,
    curvature,
    curvature_change,
    turning_angles,
    wrap_angle,
)


def test_heading_from_3_14_to_minus_3_14_counts_the_small_turn() -> None:
    # wrap(-3.14 - 3.14) = -6.28 + 2π = 0.0031853071795862... (hand: 2π = 6.283185307179586).
    xy = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    # κ = [0.0031853.../1, 0/1]; CC = |0 - 0.0031853...| over L - 2 = 1 step.
    value = float(curvature_change(xy, [3.14, -3.14, -3.14]))
    assert value == pytest.approx(2 * math.pi - 6.28, abs=1e-15)
    assert value < 0.0032  # robometric-frame 0.3.0 counts 6.28 here


def test_wrap_angle_range_and_values() -> None:
    assert float(wrap_angle(3 * math.pi / 2)) == pytest.approx(-math.pi / 2)
    assert float(wrap_angle(-math.pi)) == pytest.approx(-math.pi)
    values = wrap_angle(np.linspace(-20, 20, 101))
    assert (values >= -math.pi).all()
    assert (values < math.pi).all()


def test_curvature_change_hand_computed_with_uneven_steps() -> None:
    # Steps of length 1, 2, 1; heading changes 0.2, 0.2, -0.4 -> κ = 0.2, 0.1, -0.4.
    # |Δκ| = 0.1, 0.5 -> mean over L - 2 = 2: 0.3.
    xy = [[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [4.0, 0.0]]
    assert float(curvature_change(xy, [0.0, 0.2, 0.4, 0.0])) == pytest.approx(0.3)
    metric = CurvatureChange()
    metric.update(np.array([xy, xy]), np.array([[0.0, 0.2, 0.4, 0.0], [0.0] * 4]))
    assert metric.compute() == pytest.approx(0.15)


def test_curvature_change_standing_still_without_turning_is_fine_and_turning_in_place_raises() -> (
    None
):
    xy = [[0.0, 0.0], [0.0, 0.0], [1.0, 0.0]]
    assert float(curvature_change(xy, [0.5, 0.5, 0.5])) == 0.0
    with pytest.raises(ValidationError, match=r"zero-length step at `positions` index \(1, 0\)"):
        curvature_change([xy, xy], [[0.5, 0.5, 0.5], [0.5, 0.7, 0.7]])


def test_curvature_change_shapes_must_match() -> None:
    with pytest.raises(
        ValidationError, match=r"Expected `headings` of shape \(3,\).*got shape \(4,\)"
    ):
        curvature_change([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], [0.0, 0.0, 0.0, 0.0])
    with pytest.raises(
        ValidationError, match=r"finite values in `headings`, got nan at index \(1,\)"
    ):
        curvature_change([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], [0.0, np.nan, 0.0])


def test_turning_angles_skip_a_stop_and_keep_the_turn() -> None:
    # Steps (1,0), (0,0), (0,1): the 90° turn is measured across the stop.
    angles = turning_angles([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_allclose(angles, [0.0, math.pi / 2], atol=1e-15)


def test_turning_angle_of_a_reversal_is_pi_and_of_a_straight_line_is_zero() -> None:
    np.testing.assert_allclose(turning_angles([[0.0], [1.0], [0.0]]), [math.pi])
    assert (turning_angles([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]) == 0.0).all()


def test_curvature_of_a_turn_is_total_turning_over_length() -> None:
    # Right angle over a path of length 3: (π/2)/3.
    assert float(curvature([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]])) == pytest.approx(
        math.pi / 6, rel=1e-15
    )


def test_curvature_of_a_regular_polygon_arc_hand_computed() -> None:
    # n chords of angle a on radius R: (n - 1) turns of a each, length n · 2R sin(a/2).
    R, a, n = 5.0, 0.05, 40
    phi = a * np.arange(n + 1)
    xyz = np.stack([R * np.cos(phi), R * np.sin(phi), np.zeros_like(phi)], axis=1)
    expected = (n - 1) * a / (n * 2 * R * math.sin(a / 2))
    assert float(curvature(xyz)) == pytest.approx(expected, rel=1e-12)
    assert float(curvature(xyz)) == pytest.approx(1 / R, rel=0.03)  # about 1/R


def test_curvature_of_a_path_that_never_moves_is_zero() -> None:
    assert float(curvature(np.zeros((4, 2)))) == 0.0
    metric = Curvature()
    metric.update(np.zeros((3, 4, 2)))
    assert (metric.compute(), metric.count) == (0.0, 3)


def test_wrap_angle_of_an_infinite_angle_is_nan_not_a_warning() -> None:
    """remainder(inf) warned 'invalid value' (an error where warnings are; a tensor gives
    NaN in silence; a review). NaN stays NaN."""
    wrapped = wrap_angle([math.inf, -math.inf, math.nan, 0.5])
    assert np.isnan(wrapped[:3]).all()
    assert wrapped[3] == 0.5


@pytest.mark.parametrize("as_tensor", [False, True])
def test_wrap_angle_just_below_minus_pi_stays_in_its_half_open_range(as_tensor: bool) -> None:
    """-π - 1 ulp + 2π rounds to π itself (remainder's result rounds up to its divisor),
    which [-π, π) excludes: it gave +π. π's own place is -π, as wrap_angle(π) says."""
    below = np.nextafter(-math.pi, -10.0)  # -3.1415926535897936
    angles = np.array([below, math.pi, -math.pi])
    if as_tensor:
        torch = pytest.importorskip("torch")
        wrapped = wrap_angle(torch.tensor(angles, dtype=torch.float64)).numpy()
    else:
        wrapped = wrap_angle(angles)
    # Hand: each lies on the range's one end, -π (the closed one).
    assert wrapped.tolist() == [-math.pi, -math.pi, -math.pi]
