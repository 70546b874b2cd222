"""PathSmoothness, PathLength, Straightness: the seed page's examples and hand calculations."""

from __future__ import annotations

import math
import pickle
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt
import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.metrics import (
    PathLength,
    PathSmoothness,
    Straightness,
    path_length,
    path_smoothness,
    speed_from_positions,
    straightness,
)
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.typing import Float64Array

STRAIGHT = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]
TURN = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 1.0]]
ZIGZAG = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [2.0, 1.0]]


# --- the seed page (robometric_frame-PathSmoothness.txt) -------------------------------------


def test_seed_straight_line_is_exactly_zero() -> None:
    metric = PathSmoothness()
    metric.update(STRAIGHT)
    assert metric.compute() == 0.0


def test_seed_turn_gives_sqrt2_over_3_with_path_length_normalisation() -> None:
    # Steps (1,0), (1,0), (0,1): changes (0,0) and (-1,1), sum √2; path length 3.
    metric = PathSmoothness()
    metric.update(TURN)
    assert metric.compute() == pytest.approx(math.sqrt(2) / 3, rel=1e-15)
    assert metric.compute() > 0


def test_seed_batched_example_gives_mean_of_the_two() -> None:
    # Zigzag steps (1,0), (0,1), (1,0): changes (-1,1), (1,-1), sum 2√2; length 3 -> 2√2/3.
    metric = PathSmoothness()
    metric.update(np.array([STRAIGHT, ZIGZAG]))
    assert metric.compute() == pytest.approx((0.0 + 2 * math.sqrt(2) / 3) / 2, rel=1e-15)
    assert metric.count == 2


def test_seed_3d_straight_line_is_zero() -> None:
    metric = PathSmoothness()
    metric.update([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]])
    assert metric.compute() == 0.0


def test_seed_distributed_example_as_merged_shards() -> None:
    # Both shards are straight lines at constant speed: mean 0 over 2 trajectories.
    gpu0, gpu1 = PathSmoothness(), PathSmoothness()
    gpu0.update([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    gpu1.update([[0.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    gpu0.merge(gpu1)
    assert (gpu0.compute(), gpu0.count) == (0.0, 2)


def test_seed_fewer_than_three_points_raises() -> None:
    with pytest.raises(ValueError, match=r"at least 3 points along axis -2.*got shape \(2, 2\)"):
        PathSmoothness().update([[0.0, 0.0], [1.0, 0.0]])


def test_seed_compute_before_update_raises_runtime_error() -> None:
    with pytest.raises(RuntimeError, match=r"PathSmoothness\.compute\(\) called before any item"):
        PathSmoothness().compute()


# --- shapes, options, definitions -------------------------------------------------------------


def test_four_dimensional_batch_b_t_l_d_counts_every_trajectory() -> None:
    batch = np.array([[TURN, STRAIGHT, ZIGZAG]] * 2)  # (B=2, T=3, L=4, D=2)
    values = path_smoothness(batch)
    assert values.shape == (2, 3)
    metric = PathSmoothness()
    metric.update(batch)
    assert metric.count == 6
    assert metric.compute() == pytest.approx((math.sqrt(2) / 3 + 0 + 2 * math.sqrt(2) / 3) / 3)


def test_points_normalisation_divides_by_l_minus_2_as_robometric_0_3_0() -> None:
    # Turn: sum √2 over L - 2 = 2 turns.
    assert float(path_smoothness(TURN, normalization="points")) == pytest.approx(math.sqrt(2) / 2)
    metric = PathSmoothness(normalization="points")
    metric.update(ZIGZAG)
    assert metric.compute() == pytest.approx(2 * math.sqrt(2) / 2)


def test_path_length_normalisation_is_scale_free_and_points_is_not() -> None:
    big = np.array(TURN) * 1000.0
    assert float(path_smoothness(big)) == pytest.approx(math.sqrt(2) / 3, rel=1e-15)
    assert float(path_smoothness(big, normalization="points")) == pytest.approx(
        1000 * math.sqrt(2) / 2
    )


def test_unknown_normalisation_raises() -> None:
    with pytest.raises(ValidationError, match=r"Expected `normalization` in .*got 'steps'"):
        PathSmoothness(normalization="steps")  # type: ignore[arg-type]


def test_zero_length_path_is_zero_by_definition() -> None:
    still = np.ones((5, 3))
    assert float(path_smoothness(still)) == 0.0
    assert float(straightness(still)) == 1.0
    assert float(path_length(still)) == 0.0


def test_constant_speed_circle_arc_hand_computed() -> None:
    # n equal chords of angle a on a circle of radius R: each change of step vector has norm
    # 2·c·sin(a/2) with chord c = 2R sin(a/2); (n-1) changes over length n·c.
    R, a, n = 2.0, 0.1, 20
    phi = a * np.arange(n + 1)
    xy = R * np.stack([np.cos(phi), np.sin(phi)], axis=1)
    c = 2 * R * math.sin(a / 2)
    expected = (n - 1) * 2 * c * math.sin(a / 2) / (n * c)
    assert float(path_smoothness(xy)) == pytest.approx(expected, rel=1e-12)


def test_float64_keeps_a_turn_of_centimetre_steps_at_1e8_metres() -> None:
    # Hand calculation: near 1e8 the float64 spacing is u = 2**-26 m. 1e8 + 0.01 rounds to
    # 1e8 + 671089u (0.01/u = 671088.64) and 1e8 + 0.02 to 1e8 + 1342177u (1342177.28), so the
    # steps are a = 671089u, b = 671088u along x, then c = 671089u along y. Changes of step:
    # (b - a, 0) of norm u, and (-b, c) of norm sqrt(b² + c²)u; path length (a + b + c)u.
    # PS = (1 + sqrt(671088² + 671089²)) / (3·671089 - 1) = 0.4714049004219414 (√2/3 within 1e-6).
    p = 1e8 + np.array([[0.0, 0.0], [0.01, 0.0], [0.02, 0.0], [0.02, 0.01]])
    expected = (1 + math.sqrt(671088**2 + 671089**2)) / (3 * 671089 - 1)
    assert float(path_smoothness(p)) == pytest.approx(expected, rel=1e-14)
    assert float(path_smoothness(p)) == pytest.approx(math.sqrt(2) / 3, rel=1e-6)
    # What a float32 cast (robometric-frame 0.3.0) leaves: every point collapses onto 1e8.
    assert float(path_smoothness(p.astype(np.float32))) == 0.0


def test_nan_raises_naming_the_index_instead_of_poisoning_the_mean() -> None:
    batch = np.array([TURN, STRAIGHT])
    batch[1, 2, 0] = np.nan
    metric = PathSmoothness()
    with pytest.raises(
        ValueError, match=r"finite values in `trajectory`, got nan at index \(1, 2, 0\)"
    ):
        metric.update(batch)
    assert metric.count == 0  # nothing half-recorded


def test_infinity_raises_naming_the_index() -> None:
    with pytest.raises(ValidationError, match=r"got inf at index \(3, 1\)"):
        path_smoothness([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, np.inf]])


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ([1.0, 2.0, 3.0], r"Expected `trajectory` of shape \(\.\.\., L, D\), got shape \(3,\)"),
        (np.zeros((4, 0)), r"with D >= 1, got shape \(4, 0\)"),
        ([["a", "b"]] * 3, r"real numeric array, got dtype <U1"),
        ([[0.0, 0.0], [1.0]], r"as a numeric array, got list"),
    ],
)
def test_bad_shapes_and_types_raise(value: npt.ArrayLike, match: str) -> None:
    with pytest.raises(ValidationError, match=match):
        path_smoothness(value)


def test_a_pose_trajectory_given_as_points_is_named_with_its_positions() -> None:
    """PathSmoothness().update(trajectory) with a PoseTrajectory, as a notebook tries
    first, was refused "got dtype object"; its points are its ``positions_xyz``."""
    t = np.arange(5.0)
    trajectory = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, t**2, 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
    )
    said = (
        r"^Expected `trajectory` as a real numeric array, got PoseTrajectory \(its positions "
        r"are its `positions_xyz`, shape \(N, 3\), metres\)$"
    )
    with pytest.raises(ValidationError, match=said):
        PathSmoothness().update(trajectory)
    with pytest.raises(ValidationError, match=r"got object$"):
        path_smoothness(object())  # type: ignore[call-overload]  # what mypy refuses too
    # Steps (1, 1), (1, 3), (1, 5), (1, 7); their changes (0, 2) three times: 6 over the length.
    length = math.sqrt(2) + math.sqrt(10) + math.sqrt(26) + math.sqrt(50)
    assert float(path_smoothness(trajectory.positions_xyz)) == pytest.approx(6 / length, rel=1e-15)


def test_path_length_and_straightness_hand_computed() -> None:
    # Zigzag: length 3, net displacement |(2, 1)| = √5.
    assert float(path_length(ZIGZAG)) == 3.0
    assert float(straightness(ZIGZAG)) == pytest.approx(math.sqrt(5) / 3, rel=1e-15)
    metric = Straightness()
    metric.update([ZIGZAG, STRAIGHT])
    assert metric.compute() == pytest.approx((math.sqrt(5) / 3 + 1.0) / 2)
    lengths = PathLength()
    lengths.update([[[0.0, 0.0], [3.0, 4.0], [3.0, 5.0]]])
    assert lengths.compute() == 6.0


def test_two_point_paths_are_enough_for_length_but_not_smoothness() -> None:
    assert float(path_length([[0.0, 0.0], [0.0, 2.0]])) == 2.0
    with pytest.raises(ValidationError, match="at least 2 points"):
        path_length([[0.0, 0.0]])


def test_metric_pickles_with_its_state_and_settings() -> None:
    metric = PathSmoothness(normalization="points")
    metric.update(TURN)
    again = pickle.loads(pickle.dumps(metric))
    assert again == metric
    assert again.compute() == metric.compute()
    assert again.normalization == "points"
    assert repr(again) == "PathSmoothness(normalization='points', count=1)"


def _direct(points: Float64Array) -> tuple[Float64Array, Float64Array]:
    # The seed formula written out with np.linalg.norm, no blocks: the independent check.
    steps = np.diff(points, axis=-2)
    change = np.linalg.norm(np.diff(steps, axis=-2), axis=-1).sum(-1)
    return change, np.linalg.norm(steps, axis=-1).sum(-1)


@pytest.mark.parametrize("block", [1, 3, 4, 5, 7, 64])
@pytest.mark.parametrize("shape", [(9, 3), (2, 11, 2), (3, 2, 6, 3)])
def test_blocked_kernel_equals_the_direct_formula(
    monkeypatch: pytest.MonkeyPatch, block: int, shape: tuple[int, ...]
) -> None:
    import robot_msgs.metrics.path as path_module

    monkeypatch.setattr(path_module, "BLOCK_POINTS", block)
    points = np.cumsum(np.random.default_rng(block).normal(size=shape), axis=-2)
    change, length = _direct(points)
    np.testing.assert_allclose(path_smoothness(points), change / length, rtol=1e-13)
    np.testing.assert_allclose(path_length(points), length, rtol=1e-13)
    np.testing.assert_allclose(
        path_smoothness(points, normalization="points"), change / (shape[-2] - 2), rtol=1e-13
    )


def test_nan_in_a_later_block_of_a_long_trajectory_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import robot_msgs.metrics.path as path_module

    monkeypatch.setattr(path_module, "BLOCK_POINTS", 4)
    points = np.zeros((20, 2))
    points[17, 1] = np.nan
    with pytest.raises(ValidationError, match=r"got nan at index \(17, 1\)"):
        path_smoothness(points)


@pytest.mark.parametrize("fn", [path_length, path_smoothness, straightness])
def test_a_coordinate_past_the_limit_is_refused_not_a_warning_or_nan(
    fn: Callable[[npt.ArrayLike], Float64Array],
) -> None:
    """Steps of 1e200 m overflowed their squares: 'overflow encountered in multiply' (an
    error where warnings are), and path smoothness and straightness NaN (inf / inf), as on
    a tensor, in silence (a review). Past 1e150 m, robot_msgs.trajectory's limit, a
    coordinate is refused naming its index; at the limit the numbers hold (hand: the turn
    of TURN scaled to 1e150 m - √2/3 and √5/3 are scale-free)."""
    with pytest.raises(
        ValidationError, match=r"^Expected `trajectory` within \+-1e\+150 m, got 1e\+200 at index"
    ):
        fn([[0.0, 0.0], [1e200, 0.0], [1e200, 1e200]])
    assert float(path_smoothness(np.array(TURN) * 5e149)) == pytest.approx(math.sqrt(2) / 3)
    assert float(straightness(np.array(TURN) * 5e149)) == pytest.approx(math.sqrt(5) / 3)


@pytest.mark.parametrize(
    "points",
    [
        [[0.0, 0.0], [0.1, 0.1], [1.0, 1.0]],
        [[0.0, 0.0], [0.1, 0.7], [0.4, 2.8]],
        [[0.0, 0.0], [0.2, 0.2], [2.0, 2.0]],
    ],
)
def test_straightness_of_a_straight_path_is_at_most_1(points: list[list[float]]) -> None:
    """Straightness is at most 1 by the triangle inequality, 1 for points in order on a
    line (hand: these lie on y = x and y = 7x); the rounding of the step norms made it
    1.0000000000000002 ('in [0, 1]', its docstring says), so 1 - S, a tortuosity, was
    -2.2e-16 and its log NaN."""
    assert float(straightness(points)) == 1.0
    metric = Straightness()
    metric.update(points)
    assert metric.compute() == 1.0


@pytest.mark.parametrize("normalization", ["path_length", "points"])
def test_a_path_still_to_its_last_bit_is_as_smooth_as_a_still_one(
    normalization: Literal["path_length", "points"],
) -> None:
    """A point at 5e5 m moving one ulp (5.8e-11 m) back and forth, x = a, b, a, a, b, a, ...:
    per three points the changes of step are 2, 1, 1 ulps over 2 ulps of path, and path
    smoothness said 2.0 (hand: 1.998) of rounding alone, where a still path gets 0 and
    speed_from_positions gives 0 throughout. Every change is within the rounding of one
    difference (4 sqrt(3) eps 5e5 m = 7.7e-10 m), so it is 0 now."""
    x = np.full(1000, 5e5)
    x[1::3] = np.nextafter(5e5, 1e6)
    positions = np.stack([x, np.zeros(1000), np.full(1000, -2.0)], axis=1)
    assert float(path_smoothness(positions, normalization=normalization)) == 0.0
    assert speed_from_positions(positions, 100.0).tolist() == [0.0] * 1000


def test_a_path_still_to_its_last_bit_is_as_straight_as_a_still_one() -> None:
    """The same one-ulp back and forth at 5e5 m, x = a, b, a, ...: straightness said 0
    (net 0 or 1 ulp over 666 ulps of path), a path that returns, where one that never
    moves gets 1 by definition. Its extent, 1 ulp, is within its rounding, so it is 1
    now, and a batch beside a moving path keeps the moving path's number (hand: 1)."""
    x = np.full(1000, 5e5)
    x[1::3] = np.nextafter(5e5, 1e6)
    positions = np.stack([x, np.zeros(1000), np.full(1000, -2.0)], axis=1)
    assert float(straightness(positions)) == 1.0
    line = positions.copy()
    line[:, 1] = np.arange(1000) * 0.01
    assert straightness(np.stack([positions, line])).tolist() == [1.0, 1.0]
    back = positions.copy()
    back[:, 1] = np.abs(np.arange(1000) - 500) * 0.01  # out 5 m and back to 0.01 m
    assert float(straightness(back)) == pytest.approx(0.01 / 9.99, rel=1e-9)


def test_a_straight_creep_far_from_the_origin_is_as_smooth_as_a_straight_line() -> None:
    """A point at ECEF coordinates creeping 5 µm/s at 1 kHz in a straight line: its steps
    of 5e-9 m are 5 or 6 ulps (9.3e-10 m) each, and path smoothness said 0.137 of their
    rounding, where its speeds are one constant (speed_from_positions). 0 now, as for a
    straight line at constant speed. A right turn of 1e-8 m steps there keeps its number:
    hand, in ulps of x (2**-30 m; y's are 2**-33 m), the steps are 11, 10 along x, then
    86 / 8 = 10.75 along y, so PS = (1 + hypot(10, 10.75)) / 31.75 (sqrt(2)/3 + 5 %)."""
    t = np.arange(2000) / 1000.0
    positions = np.stack([4.5e6 + 5e-6 * t, np.full(2000, 6e5), np.full(2000, 4.5e6)], axis=1)
    assert float(path_smoothness(positions)) == 0.0
    assert np.ptp(speed_from_positions(positions, 1000.0)) == 0.0
    turn = np.array([[0.0, 0.0, 0.0], [1e-8, 0.0, 0.0], [2e-8, 0.0, 0.0], [2e-8, 1e-8, 0.0]])
    expected = (1 + math.hypot(10, 10.75)) / 31.75
    assert float(path_smoothness(turn + positions[0])) == pytest.approx(expected, rel=1e-12)


def test_a_float32_straight_line_is_straight_and_a_float32_turn_keeps_its_number() -> None:
    """A 0.5 m/s line at 100 Hz a kilometre away stored as float32: its steps vary by
    float32's rounding (an ulp, 6.1e-5 m, of 5 mm steps), and path smoothness said
    0.0129 (robometric-frame 0.3.0's /(L - 2): 6.5e-5 m, ours the same) of rounding held
    to float64's. Held to float32's, as speed_from_positions, the line is straight: 0.
    The turn of TURN at 1 km in float32 keeps sqrt(2)/3 (its steps of 1 m are exact)."""
    t = np.arange(100) / 100.0
    line = np.stack([1000.0 + 0.3 * t, 1000.0 + 0.4 * t, np.full(100, 1000.0)], axis=1)
    assert float(path_smoothness(line.astype(np.float32))) == 0.0
    assert float(path_smoothness(line.astype(np.float32), normalization="points")) == 0.0
    turn = (np.array(TURN) + 1000.0).astype(np.float32)
    assert float(path_smoothness(turn)) == pytest.approx(math.sqrt(2) / 3, rel=1e-15)


def test_a_curve_finely_sampled_far_from_the_origin_keeps_its_number() -> None:
    """Changes of step all within the rounding u are not yet rounding: a float32 circle
    of 5 m radius 100 m from the origin, 1 m/s at 100 Hz, changes its 1 cm steps by
    2e-5 m a sample (u = 4 sqrt(3) eps32 100 m = 8e-5 m), and a car's square of 2 m steps
    at float32 ECEF coordinates (exact there) turns by 2.8 m (u = 5.3 m). Both were 0, as
    if straight; neither lies on the line between its ends. Hand: the circle's PS is its
    turn per step, 0.01 / 5 = 0.002 (0.00208 with float32's rounding); the square's is
    its 3 inner corners' changes of 2 sqrt(2) m over 200 steps of 2 m, 3 sqrt(2) / 200."""
    t = np.arange(3000) / 100.0
    circle = np.stack([5.0 * np.cos(t / 5.0), 5.0 * np.sin(t / 5.0), 0.0 * t], axis=1) + 100.0
    assert float(path_smoothness(circle.astype(np.float32))) == pytest.approx(0.002, rel=0.05)
    sides = [np.repeat([direction], 50, axis=0) for direction in np.eye(3)[[0, 1]]]
    steps = 2.0 * np.concatenate([sides[0], sides[1], -sides[0], -sides[1]])
    ecef = np.array([4.5e6, 6e5, 4.5e6])
    square = np.concatenate([np.zeros((1, 3)), np.cumsum(steps, axis=0)]) + ecef
    expected = 3 * math.sqrt(2) / 200
    assert float(path_smoothness(square.astype(np.float32))) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("metric", "still"), [(path_smoothness, 0.0), (straightness, 1.0)])
def test_a_still_row_tests_only_itself_for_rounding(
    monkeypatch: pytest.MonkeyPatch,
    metric: Callable[[npt.ArrayLike], Float64Array],
    still: float,
) -> None:
    """One still trajectory in a batch (a zero-padded row) opened the batch-wide bound,
    and every row of it went through the full rounding test: a 1000 x 1000 x 3 batch with
    one such row took 75-135 ms in path_smoothness against 11 ms without it, and 66 ms in
    straightness against 8.5 ms (reviews). Only the rows the per-trajectory bound cannot
    clear are tested, and every value stays."""
    import robot_msgs.metrics.path as path_module
    from robot_msgs.metrics.base import position_rounding as real

    tested: list[tuple[int, ...]] = []

    def recorded(points: npt.NDArray[np.float64], eps: float) -> tuple[object, object]:
        tested.append(points.shape)
        return real(points, eps)

    monkeypatch.setattr(path_module, "position_rounding", recorded)
    walks = np.random.default_rng(0).normal(size=(6, 50, 3)).cumsum(axis=1)
    batch = walks.copy()
    batch[2] = 0.0
    values = metric(batch)
    assert tested == [(1, 50, 3)]
    assert values.tolist() == [still if row == 2 else float(metric(walks[row])) for row in range(6)]
