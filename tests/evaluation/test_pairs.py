"""Pair selection: hand examples, and plain-loop transcriptions of the documented rules.

The loops below restate each rule one pose at a time (the way evo's ``filters.py``
describes them) and serve as the slow oracle for the vectorised selection.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import robot_msgs.evaluation.pairs as pairs_module
from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import PairSettings
from robot_msgs.evaluation.arguments import check_points
from robot_msgs.evaluation.pairs import path_distances, select_pairs
from robot_msgs.io.clean import finish_trajectory
from robot_msgs.rotations import angle_from_quat_xyzw, quat_xyzw_conjugate, quat_xyzw_multiply
from robot_msgs.sorted_search import path_pairs
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import line, random_walk
from tests.hostile import deadline

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import DeltaUnit
    from robot_msgs.typing import Float64Array, IntpArray


def _angle(q: Float64Array, i: int, j: int) -> float:
    rel = quat_xyzw_multiply(quat_xyzw_conjugate(q[i : i + 1]), q[j : j + 1])
    return float(angle_from_quat_xyzw(rel)[0])


def _loop_consecutive(increments: list[float], delta: float) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    start, acc = 0, 0.0
    for k, inc in enumerate(increments, start=1):
        acc += inc
        if acc >= delta:
            pairs.append((start, k))
            start, acc = k, 0.0
    return pairs


def _loop_path_all(d: Float64Array, delta: float, tol: float) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    for i in range(d.size - 1):
        errs = [abs((d[k] - d[i]) - delta) for k in range(i + 1, d.size)]
        best = min(range(len(errs)), key=lambda k: (errs[k], k))
        if errs[best] <= tol:
            pairs.append((i, i + 1 + best))
    return pairs


def _loop_angle_all(q: Float64Array, lower: float, upper: float) -> list[tuple[int, int]]:
    n = q.shape[0]
    pairs: list[tuple[int, int]] = []
    for i in range(n - 1):
        rel = quat_xyzw_multiply(
            quat_xyzw_conjugate(np.repeat(q[i : i + 1], n - i - 1, 0)), q[i + 1 :]
        )
        angles = angle_from_quat_xyzw(rel)
        pairs.extend(
            (i, i + 1 + int(k)) for k in np.flatnonzero((angles >= lower) & (angles <= upper))
        )
    return pairs


def _as_list(pairs: IntpArray) -> list[tuple[int, int]]:
    return [(i, j) for i, j in pairs.tolist()]


def test_frames_consecutive_and_all_pairs_by_hand() -> None:
    traj = line(n=7)
    assert _as_list(select_pairs(traj, PairSettings(delta=3, delta_unit="f"))) == [(0, 3), (3, 6)]
    assert _as_list(
        select_pairs(traj, PairSettings(all_pairs=True, delta=3.0, delta_unit="f"))
    ) == [
        (0, 3),
        (1, 4),
        (2, 5),
        (3, 6),
    ]
    assert select_pairs(traj, PairSettings(delta=10, delta_unit="f")).shape == (0, 2)


def test_path_consecutive_sums_steps_sequentially_like_evo() -> None:
    # Ten steps of 0.1 m sum to 0.9999999999999999 < 1 in binary: the pair closes at 11 steps.
    traj = line(np.full(31, 0.1).cumsum() - 0.1, n=31)
    steps = np.linalg.norm(np.diff(traj.positions_xyz, axis=0), axis=1).tolist()
    assert sum(steps[:10]) < 1.0
    expected = _loop_consecutive(steps, 1.0)
    assert _as_list(select_pairs(traj, PairSettings(delta=1.0, delta_unit="m"))) == expected
    assert expected[0] == (0, 11)


@pytest.mark.parametrize("delta", [0.2, 1.0, 3.7])
def test_path_consecutive_matches_the_loop_on_a_random_walk(delta: float) -> None:
    traj = random_walk(2000, seed=7)
    steps = np.linalg.norm(np.diff(traj.positions_xyz, axis=0), axis=1).tolist()
    assert _as_list(
        select_pairs(traj, PairSettings(delta=delta, delta_unit="m"))
    ) == _loop_consecutive(steps, delta)


@pytest.mark.parametrize("delta", [0.3, 1.0, 2.5])
def test_path_all_pairs_matches_the_loop_with_static_stretches(delta: float) -> None:
    traj = random_walk(400, seed=8)
    positions = traj.positions_xyz.copy()
    positions[100:160] = positions[100]  # the robot stands still: a plateau of distances
    positions[300:303] = positions[300]
    traj = traj.replace(positions_xyz=positions)
    d = path_distances(positions)
    expected = _loop_path_all(d, delta, 0.1 * delta)
    assert (
        _as_list(select_pairs(traj, PairSettings(all_pairs=True, delta=delta, delta_unit="m")))
        == expected
    )


@pytest.mark.parametrize("rows", [1, 7, 64])
def test_path_all_pairs_done_in_blocks_of_rows_match_the_loop(
    rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Blocks of a few rows, so that block edges fall inside the plateaus and every
    # block's temporaries and results are joined as the 10^7-pose case joins them; the
    # NumPy road, which runs without the compiled walk.
    monkeypatch.setattr(pairs_module, "_ROWS", rows)
    monkeypatch.setattr(pairs_module, "path_pairs", lambda *_args: None)
    traj = random_walk(300, seed=3)
    positions = traj.positions_xyz.copy()
    positions[40:90] = positions[40]
    traj = traj.replace(positions_xyz=positions)
    d = path_distances(positions)
    expected = _loop_path_all(d, 1.0, 0.1)
    got = select_pairs(traj, PairSettings(all_pairs=True, delta=1.0, delta_unit="m"))
    assert _as_list(got) == expected
    assert got.flags.c_contiguous
    assert got.dtype == np.intp


_STEPS = st.one_of(
    st.just(0.0),  # the robot stands still: plateaus of equal distances
    st.sampled_from([5e-324, 1e-12, 0.1, 0.25, 0.3, 0.5, 0.75, 1.0, 1e6]),  # exact ties too
    st.floats(min_value=0.0, max_value=3.0),
)


@settings(max_examples=300, deadline=None)
@example(steps=[0.5, 1.0], start=0.0, delta=1.0, tol_share=1.0)  # 0.5 m short or long: the first
@example(steps=[0.0, 5e-324], start=0.0, delta=0.1, tol_share=1.0)  # errors that round alike
@given(
    steps=st.lists(_STEPS, min_size=1, max_size=120),
    start=st.sampled_from([0.0, 1e9]),
    delta=st.sampled_from([0.1, 0.3, 1.0, 2.5]),
    tol_share=st.sampled_from([0.0, 0.1, 1.0]),
)
def test_path_all_pairs_walked_in_c_are_the_numpy_roads_and_the_loops(
    steps: list[float], start: float, delta: float, tol_share: float
) -> None:
    d = np.concatenate(([start], start + np.cumsum(steps)))
    tol = tol_share * delta
    expected = _loop_path_all(d, delta, tol)
    numpy_road = pairs_module._path_all_pairs_blocked(d, delta, tol)
    assert _as_list(numpy_road) == expected
    walked = path_pairs(d, delta, tol)
    if walked is not None:  # built with the compiled module
        assert walked.dtype == np.intp
        assert walked.flags.c_contiguous
        assert _as_list(walked) == expected


@pytest.mark.parametrize("rows", [1, 5, 1 << 16])
def test_path_distances_are_evos_formula_bit_for_bit(
    rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # evo's accumulated_distances: the cumulative sum of np.linalg.norm of the steps.
    monkeypatch.setattr(pairs_module, "_ROWS", rows)
    p = random_walk(257, seed=11).positions_xyz * 1e3
    evo = np.concatenate(([0.0], np.cumsum(np.linalg.norm(p[:-1] - p[1:], axis=1))))
    np.testing.assert_array_equal(path_distances(p), evo)
    np.testing.assert_array_equal(path_distances(p[:1]), [0.0])


@pytest.mark.parametrize(
    ("positions", "match"),
    [
        (
            [[0.0, 0, 0], [1, np.nan, 0]],
            r"Expected finite `positions_xyz`, got \[ 1. nan  0.\] at row 1",
        ),
        (np.zeros((2, 2)), r"Expected `positions_xyz` of shape \(N, 3\), got shape \(2, 2\)"),
        (np.zeros(3), r"of shape \(N, 3\), got shape \(3,\)"),
        ("abc", r"Expected `positions_xyz` as numbers of shape \(N, 3\), got str 'abc'"),
        ([[0.0, 0, 0], [1, 1]], r"as numbers of shape \(N, 3\), got list"),
    ],
)
def test_path_distances_refuse_what_is_not_finite_positions(positions: object, match: str) -> None:
    # NaN gave NaN distances in silence; the others let NumPy's IndexError or ValueError out.
    with pytest.raises(ValidationError, match=match):
        path_distances(positions)  # type: ignore[arg-type]


@pytest.mark.parametrize("all_pairs", [False, True])
@pytest.mark.parametrize("delta", [20.0, 2.0**63, 1e300])
def test_frame_deltas_past_the_last_pose_give_no_pair(delta: float, all_pairs: bool) -> None:
    # 1e300 or 2^63 frames with all pairs raised OverflowError (a "bug in robot_msgs" on
    # the command line) where the consecutive rule said "use a smaller delta".
    pairs = PairSettings(delta=delta, delta_unit="f", all_pairs=all_pairs)
    assert select_pairs(line(n=20), pairs).shape == (0, 2)


def test_path_distances_sum_the_steps() -> None:
    np.testing.assert_allclose(
        path_distances(line(n=11).positions_xyz), np.arange(11, dtype=np.float64) * 0.1
    )


@pytest.mark.parametrize(("delta", "unit"), [(0.1, "rad"), (0.45, "rad"), (10.0, "deg")])
def test_angle_consecutive_matches_the_loop(delta: float, unit: DeltaUnit) -> None:
    traj = random_walk(1500, seed=9)
    q = traj.orientations_quat_xyzw
    steps = [_angle(q, k, k + 1) for k in range(len(traj) - 1)]
    radians = math.radians(delta) if unit == "deg" else delta
    assert _as_list(
        select_pairs(traj, PairSettings(delta=delta, delta_unit=unit))
    ) == _loop_consecutive(steps, radians)


@pytest.mark.parametrize(
    ("n", "delta", "unit"),
    [(600, 0.1, "rad"), (333, 0.35, "rad"), (517, 4.0, "deg"), (20, 0.05, "rad")],
)
def test_angle_all_pairs_matches_the_quadratic_loop(n: int, delta: float, unit: DeltaUnit) -> None:
    traj = random_walk(n, seed=n, step_rad=0.03)
    radians = math.radians(delta) if unit == "deg" else delta
    tol = math.radians(0.1 * delta) if unit == "deg" else 0.1 * delta
    expected = _loop_angle_all(traj.orientations_quat_xyzw, radians - tol, radians + tol)
    got = select_pairs(traj, PairSettings(all_pairs=True, delta=delta, delta_unit=unit))
    assert len(expected) > 0
    assert _as_list(got) == expected


def test_angle_all_pairs_of_a_turning_robot_by_hand() -> None:
    # Constant yaw rate of 1.3 degrees per frame: 10 +- 1 degrees apart means j - i in {7, 8}
    # (9.1 and 10.4 degrees).
    n = 40
    yaw = np.radians(1.3 * np.arange(n))
    quats = np.stack([np.zeros(n), np.zeros(n), np.sin(yaw / 2), np.cos(yaw / 2)], axis=1)
    traj = PoseTrajectory(
        stamps_s=np.arange(n, dtype=np.float64) * 1.0,
        positions_xyz=np.zeros((n, 3)),
        orientations_quat_xyzw=quats,
    )
    got = _as_list(select_pairs(traj, PairSettings(all_pairs=True, delta=10.0, delta_unit="deg")))
    expected = [(i, i + k) for i in range(n) for k in (7, 8) if i + k < n]
    assert got == expected


def test_seconds_all_pairs_take_the_nearest_stamp_inside_the_run() -> None:
    traj = line()  # 0.1 s steps: one second is ten frames, whatever 0.1 k rounds to
    pairs = select_pairs(traj, PairSettings(all_pairs=True, delta=1.0, delta_unit="s"))
    assert _as_list(pairs) == [(i, i + 10) for i in range(91)]


def test_seconds_consecutive_chain_and_gaps() -> None:
    stamps = np.array([0.0, 0.5, 1.02, 1.5, 2.01, 6.0, 6.5, 7.0])
    traj = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=np.zeros((8, 3)),
        orientations_quat_xyzw=np.tile([0, 0, 0, 1.0], (8, 1)),
    )
    # 0 -> 1.02 -> 2.01 -> 2.01 + 1 is nearest 2.01 itself, so one pose ahead: 6.0 (a gap, dropped)
    # -> 7.0; the pair (6.0, 7.0) is kept.
    assert _as_list(select_pairs(traj, PairSettings(delta=1.0, delta_unit="s"))) == [
        (0, 2),
        (2, 4),
        (5, 7),
    ]
    # All pairs: 1.5 + 1 = 2.5 is nearest 2.01, 0.49 s off (over 10 %): dropped.
    assert _as_list(
        select_pairs(traj, PairSettings(all_pairs=True, delta=1.0, delta_unit="s"))
    ) == [
        (0, 2),
        (1, 3),
        (2, 4),
        (5, 7),
    ]


def test_seconds_ties_go_to_the_earlier_stamp() -> None:
    stamps = np.array([0.0, 0.75, 1.25])
    traj = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=np.zeros((3, 3)),
        orientations_quat_xyzw=np.tile([0, 0, 0, 1.0], (3, 1)),
    )
    assert _as_list(
        select_pairs(traj, PairSettings(all_pairs=True, delta_tol=0.5, delta=1.0, delta_unit="s"))
    ) == [(0, 1)]


# Bad deltas, units and tolerances are refused by PairSettings (tests/evaluation/test_settings.py).


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("delta", [0.05, 0.3, 1.0, 7.0])
def test_seconds_consecutive_chain_matches_the_step_by_step_walk(seed: int, delta: float) -> None:
    rng = np.random.default_rng(seed)
    steps = rng.choice([0.01, 0.02, 0.05, 0.5, 2.0], size=400, p=[0.5, 0.2, 0.2, 0.07, 0.03])
    stamps = np.cumsum(steps + rng.uniform(0.0, 0.004, size=400))
    traj = PoseTrajectory(
        stamps_s=stamps,
        positions_xyz=np.zeros((400, 3)),
        orientations_quat_xyzw=np.tile([0, 0, 0, 1.0], (400, 1)),
    )
    # The rule of the module docstring, one pose at a time: from the last chosen pose the
    # next is the one (at least one ahead) nearest to t + delta, earlier on a tie; the walk
    # stops once t + delta is past the last stamp; pairs off by more than 10 % are dropped.
    chain, a = [0], 0
    while a < stamps.size - 1 and stamps[a] + delta <= stamps[-1]:
        target = stamps[a] + delta
        a = min(range(a + 1, stamps.size), key=lambda j: (abs(stamps[j] - target), j))
        chain.append(a)
    expected = [
        (i, j)
        for i, j in itertools.pairwise(chain)
        if abs(stamps[j] - stamps[i] - delta) <= 0.1 * delta
    ]
    assert _as_list(select_pairs(traj, PairSettings(delta=delta, delta_unit="s"))) == expected


def test_the_numpy_road_ends_on_distances_with_a_nan_inside() -> None:
    # Not a path length (those are sums of finite steps), but the loop must still end.
    d = np.array([0.5, 1.5, 2.0, 3.0, np.nan, 4.0, 4.0, 4.5])  # searchsorted moved about
    with deadline(10.0):
        pairs_module._path_all_pairs_blocked(d, 1.0, 0.5)


def test_path_distances_past_float64_are_inf_without_a_warning() -> None:
    """A step of 2e308 m overflowed with a RuntimeWarning (an error where warnings are)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        distances = path_distances(np.array([[1e308, 0.0, 0.0], [-1e308, 0.0, 0.0]]))
        assert distances.tolist() == [0.0, math.inf]
        assert check_points("p", [[1e308, 1e308, 1e308], [1e308, 0.0, 0.0]]).shape == (2, 3)


def test_a_delta_in_seconds_on_repeated_stamps_is_refused_naming_the_rule() -> None:
    """A file read with ``repeated_stamps="all"`` has two poses at a stamp: "1 s later"
    names no one pose; frames still count rows, as evo counts them."""
    stamps = np.array([0.0, 1.0, 1.0, 2.0, 3.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        traj = finish_trajectory(
            stamps,
            np.zeros((5, 3)),
            np.tile([0.0, 0.0, 0.0, 1.0], (5, 1)),
            source="a.tum",
            where=lambda rows: [f"line {r + 1}" for r in rows],
            repeated_stamps="all",
        )
    with pytest.raises(ValidationError, match="read with `repeated_stamps='all'`"):
        select_pairs(traj, PairSettings(delta=1.0, delta_unit="s"))
    assert select_pairs(traj, PairSettings(delta=2, delta_unit="f")).tolist() == [[0, 2], [2, 4]]
