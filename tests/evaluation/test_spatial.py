"""associate_spatially: trajectopy's nearest positions, in path order or as trajectopy keeps them."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from robot_msgs.compare import SpatialMatch
from robot_msgs.errors import AssociationError, DataWarning, ValidationError
from robot_msgs.evaluation import (
    Ape,
    Drift,
    EvaluationSettings,
    Rpe,
    align,
    associate,
    associate_spatially,
    evaluate,
)
from robot_msgs.io import read_trajectory
from robot_msgs.trajectory import PoseTrajectory

REFERENCE = json.loads(
    (Path(__file__).parents[1] / "data" / "trajectopy_spatial_reference.json").read_text()
)


def path_trajectory(stamps: np.ndarray, positions: np.ndarray) -> PoseTrajectory:
    q = np.tile([0.0, 0.0, 0.0, 1.0], (stamps.size, 1))
    return PoseTrajectory(stamps_s=stamps, positions_xyz=positions, orientations_quat_xyzw=q)


def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    with warnings.catch_warnings():  # the ground truth's 4-decimal quaternions
        warnings.simplefilter("ignore", DataWarning)
        ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    return ref, read_trajectory("example:fr1_xyz/rgbdslam.tum")


def longest_forward_chain(values: list[int]) -> int:
    """Length of the longest strictly increasing subsequence: the O(K²) textbook DP."""
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i]:
                best[i] = max(best[i], best[j] + 1)
    return max(best, default=0)


# Against trajectopy ------------------------------------------------------------------------


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["name"])
def test_trajectopy_finds_the_same_nearest_positions_and_each_difference_is_a_stated_rule(
    case: dict[str, object],
) -> None:
    ref, est = fr1()
    limit = float(case["max_distance_m"])  # type: ignore[arg-type]
    pairs, match = associate_spatially(ref, est, max_distance_m=limit or None)
    theirs = {(int(r), int(e)) for r, e in case["pairs"]}  # type: ignore[attr-defined]
    ours = set(zip(match.reference_index.tolist(), match.estimate_index.tolist(), strict=True))
    nearest, distance = match.nearest_index, match.nearest_distance_m
    within = distance <= (limit or math.inf)
    # Step 1 is trajectopy's: its pair of every estimate pose is that pose's nearest.
    assert all(nearest[e] == r for r, e in theirs)
    # Where estimate poses share a reference pose, trajectopy keeps the first of them.
    first: dict[int, int] = {}
    closest: dict[int, int] = {}
    for e in np.flatnonzero(within).tolist():
        r = int(nearest[e])
        first.setdefault(r, e)
        if distance[e] < distance[closest.get(r, e)]:
            closest[r] = e
        closest.setdefault(r, e)
    assert theirs == set(first.items())
    # We keep the closest, then a longest chain that runs forward on both sides.
    candidates = sorted((e, r) for r, e in closest.items())
    assert ours <= {(r, e) for e, r in candidates}
    assert len(ours) == longest_forward_chain([r for _, r in candidates])
    assert match.n_shared == int(within.sum()) - len(closest)
    assert match.n_backward == len(closest) - len(ours)
    # The pairs the two keep alike: all but those two rules' differences.
    both = ours & theirs
    assert len(theirs - both) == sum(first[r] != closest[r] for r in first) + sum(
        (r, closest[r]) not in ours and first[r] == closest[r] for r in first
    )
    assert pairs.n_matched == len(ours)


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["name"])
def test_trajectopys_rule_gives_its_pairs_exactly_in_its_order(case: dict[str, object]) -> None:
    ref, est = fr1()
    limit = float(case["max_distance_m"])  # type: ignore[arg-type]
    pairs, match = associate_spatially(
        ref, est, max_distance_m=limit or None, spatial_pairs="first"
    )
    ours = np.stack([match.reference_index, match.estimate_index], axis=1).tolist()
    assert ours == case["pairs"]  # 625 and 580 pairs, in trajectopy's order
    assert match.n_matched == case["n_pairs"]
    assert match.spatial_pairs == "first"
    assert match.n_backward == 0
    assert match.n_matched + match.n_shared == match.n_within
    # The matched estimate poses are the estimate's, stamped as their reference poses.
    rows = match.estimate_index
    np.testing.assert_array_equal(pairs.estimate.positions_xyz, est.positions_xyz[rows])
    np.testing.assert_array_equal(pairs.estimate.stamps_s, pairs.reference.stamps_s)
    backwards = int((np.diff(rows) < 0).sum())
    assert backwards > 0  # the case needs the stamps it is given
    assert any("run backwards along the estimate" in note for note in pairs.notes)
    assert "the matched estimate poses carry their reference pose's stamps" in pairs.notes


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda c: c["name"])
def test_ape_takes_trajectopys_pairs(case: dict[str, object]) -> None:
    ref, est = fr1()
    limit = float(case["max_distance_m"]) or None  # type: ignore[arg-type]
    settings = EvaluationSettings(
        sync="spatial", spatial_pairs="first", max_distance_m=limit, align="se3"
    )
    (result,) = evaluate(ref, est, settings, metrics=[Ape()])
    theirs = np.array(case["pairs"])
    np.testing.assert_array_equal(result.reference_index, theirs[:, 0])
    np.testing.assert_array_equal(result.estimate_index, theirs[:, 1])
    assert result.stats["translation"].n == result.counts["matched"] == case["n_pairs"]
    # Each pair's error on its own: the distance of the aligned estimate pose to its pair.
    aligned = result.alignment.apply(est)
    d = np.linalg.norm(
        aligned.positions_xyz[theirs[:, 1]] - ref.positions_xyz[theirs[:, 0]], axis=1
    )
    assert result.stats["translation"].rms == pytest.approx(
        float(np.sqrt(np.mean(d**2))), rel=1e-12
    )
    assert result.comparison.settings is not None
    assert result.comparison.settings.spatial_pairs == "first"


@pytest.mark.parametrize(
    ("metric", "what"),
    [
        (Rpe(), "RPE"),
        (Drift(lengths_m=(0.1,)), "drift"),
        (Drift(protocol="rpg"), "drift"),
    ],
)
def test_what_compares_motions_between_pairs_refuses_trajectopys_rule(
    metric: Rpe | Drift, what: str
) -> None:
    ref, est = fr1()
    settings = EvaluationSettings(sync="spatial", spatial_pairs="first")
    with pytest.raises(ValidationError, match=rf"`spatial_pairs='path'` for {what} \(it compares"):
        evaluate(ref, est, settings, metrics=[Ape(), metric])
    assert evaluate(ref, est, settings.replace(spatial_pairs="path"), metrics=[metric])


# In space, not in time --------------------------------------------------------------------


def test_a_time_shifted_estimate_gets_the_same_pairs_and_its_offset_back() -> None:
    ref, est = fr1()
    late = est.replace(stamps_s=est.stamps_s + 1000.0)  # no overlap in time at all
    with pytest.raises(AssociationError, match="The time spans do not overlap"):
        associate(ref, late)
    _, match = associate_spatially(ref, est)
    _, late_match = associate_spatially(ref, late)
    assert np.array_equal(late_match.reference_index, match.reference_index)
    assert np.array_equal(late_match.estimate_index, match.estimate_index)
    # The pairs say the clocks differ by 1000 s (to a frame: the estimate runs at 30 Hz).
    assert late_match.offset_s == pytest.approx(match.offset_s - 1000.0, abs=1e-9)
    assert abs(match.offset_s) < 0.05


def cross_track_rms(reference: PoseTrajectory, estimate: PoseTrajectory) -> tuple[float, float]:
    """APE over time pairs (SE(3)-aligned), and its part across the reference's path."""
    pairs = associate(reference, estimate, EvaluationSettings(sync="interpolate"))
    aligned, _ = align(pairs.reference, pairs.estimate, settings=EvaluationSettings(align="se3"))
    error = aligned.positions_xyz - pairs.reference.positions_xyz
    velocity = np.gradient(reference.positions_xyz, reference.stamps_s, axis=0)
    at = np.clip(np.searchsorted(reference.stamps_s, pairs.reference.stamps_s), 0, len(reference))
    direction = velocity[np.minimum(at, len(reference) - 1)]
    direction /= np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-12)
    across = error - np.sum(error * direction, axis=1, keepdims=True) * direction
    ape = float(np.sqrt(np.mean(np.sum(error**2, axis=1))))
    return ape, float(np.sqrt(np.mean(np.sum(across**2, axis=1))))


def test_the_ape_of_a_time_shifted_estimate_is_its_error_across_the_path() -> None:
    ref, est = fr1()
    ape, across = cross_track_rms(ref, est)  # 13.5 mm, 8.8 mm across the path
    late = est.replace(stamps_s=est.stamps_s - 3600.0)
    pairs, _ = associate_spatially(ref, late)
    aligned, _ = align(pairs.reference, pairs.estimate, settings=EvaluationSettings(align="se3"))
    d = aligned.positions_xyz - pairs.reference.positions_xyz
    spatial = float(np.sqrt(np.mean(np.sum(d**2, axis=1))))
    assert spatial == pytest.approx(across, rel=0.15)
    assert spatial < ape


def helix(stamps: np.ndarray) -> np.ndarray:
    """A path that never comes back: 1 m/s along x, a 2 m circle across it."""
    return np.stack([stamps, 2 * np.cos(0.2 * stamps), 2 * np.sin(0.2 * stamps)], axis=1)


def test_errors_across_the_path_are_measured_whole() -> None:
    # A 200 Hz reference, an estimate at 20 Hz 3 cm beside the path (a direction across
    # it, drawn per pose), on a clock 37.5 s off: every pair is 3 cm apart, as in time.
    rng = np.random.default_rng(3)
    t = np.arange(0.0, 60.0, 0.005)
    ref = path_trajectory(t, helix(t))
    te = t[::10]
    tangent = np.gradient(helix(te), te, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    side = np.cross(tangent, rng.normal(size=(te.size, 3)))
    side /= np.linalg.norm(side, axis=1, keepdims=True)
    est = path_trajectory(te + 37.5, helix(te) + 0.03 * side)
    pairs, match = associate_spatially(ref, est, max_distance_m=0.1)
    assert pairs.n_matched == te.size
    assert match.n_shared == match.n_backward == 0
    # The nearest vertex lies within 2.5 mm along the path (half the reference's spacing).
    np.testing.assert_allclose(match.distance_m, 0.03, atol=1.1e-4)
    assert match.offset_s == pytest.approx(-37.5, abs=0.01)


def test_errors_in_every_direction_are_seen_across_the_path_only() -> None:
    # Noise alike in x, y, z: time pairs see all three axes, spatial pairs two of them,
    # so the RMS distance is sqrt(2/3) of the time-matched one (a hand calculation; the
    # sampling error of 1200 poses is about 2 %).
    rng = np.random.default_rng(5)
    t = np.arange(0.0, 60.0, 0.005)
    ref = path_trajectory(t, helix(t))
    te = t[::10]
    est = path_trajectory(te, helix(te) + rng.normal(0.0, 0.02, (te.size, 3)))
    in_time = np.linalg.norm(est.positions_xyz - helix(te), axis=1)
    _, match = associate_spatially(ref, est)
    ratio = np.sqrt(np.mean(match.distance_m**2) / np.mean(in_time**2))
    assert ratio == pytest.approx(math.sqrt(2 / 3), rel=0.05)


def test_a_second_lap_is_not_matched_to_the_first() -> None:
    # Two laps of one circle: every estimate pose lies as near to the other lap as to its
    # own. Pairs that would run backwards are dropped; the rest keep each lap to its own.
    t = np.arange(0.0, 20.0, 0.01)
    circle = np.stack([np.cos(np.pi * t / 5), np.sin(np.pi * t / 5), 0 * t], axis=1)
    ref = path_trajectory(t, circle)
    rng = np.random.default_rng(0)
    te = t[3::7]
    est = path_trajectory(te + 500.0, circle[3::7] + rng.normal(0.0, 0.005, (te.size, 3)))
    pairs, match = associate_spatially(ref, est)
    lap_ref = pairs.reference.stamps_s // 10
    lap_est = (pairs.estimate.stamps_s - 500.0) // 10
    assert match.n_backward > 0
    assert match.n_matched + match.n_backward + match.n_shared == len(est)
    assert np.mean(lap_ref == lap_est) > 0.95
    assert any("another pass" in note for note in pairs.notes)


# Tolerance and refusals --------------------------------------------------------------------


def test_poses_beyond_the_tolerance_are_not_matched() -> None:
    t = np.arange(0.0, 10.0, 0.1)
    ref = path_trajectory(t, helix(t))
    est = path_trajectory(t[::2], helix(t[::2]) + np.array([0.0, 0.0, 0.01]))
    far = est.positions_xyz.copy()
    far[10:20] += [0.0, 0.5, 0.0]
    pairs, match = associate_spatially(ref, est.replace(positions_xyz=far), max_distance_m=0.1)
    assert match.n_within == match.n_matched == 40
    assert not set(range(10, 20)) & set(match.estimate_index.tolist())
    assert (match.distance_m <= 0.1).all()
    assert "10 estimate pose(s) have no reference position within 0.1 m" in pairs.notes
    with pytest.raises(
        AssociationError, match=r"within 0\.001 m of a reference position \(the closest is 0\.01 m"
    ):
        associate_spatially(ref, est, max_distance_m=0.001)


def test_the_association_is_the_evaluations() -> None:
    ref, est = fr1()
    pairs, match = associate_spatially(ref, est, max_distance_m=0.05)
    assert pairs.method == "spatial"
    assert math.isinf(pairs.max_diff_s)
    assert len(pairs.reference) == len(pairs.estimate) == match.n_matched
    assert np.array_equal(pairs.reference.stamps_s, ref.stamps_s[match.reference_index])
    counts = pairs.counts()
    assert counts["matched"] == match.n_matched
    assert counts["unmatched_estimate"] == len(est) - match.n_matched
    assert pairs.notes[0].startswith("matched in space")


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, math.nan, "1"])
def test_a_tolerance_that_is_not_a_distance_is_refused(bad: object) -> None:
    t = np.arange(3.0)
    traj = path_trajectory(t, helix(t))
    with pytest.raises(ValidationError, match="Expected `max_distance_m` as a distance > 0"):
        associate_spatially(traj, traj, max_distance_m=bad)  # type: ignore[arg-type]


def test_an_empty_trajectory_is_refused() -> None:
    t = np.arange(3.0)
    traj = path_trajectory(t, helix(t))
    empty = path_trajectory(np.zeros(0), np.zeros((0, 3)))
    with pytest.raises(AssociationError, match="the estimate trajectory has no poses"):
        associate_spatially(traj, empty)


# Laws ------------------------------------------------------------------------------------

_POSITIONS = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 40), st.just(3)),
    elements=st.floats(-5.0, 5.0, allow_nan=False, allow_subnormal=False),
)


@settings(max_examples=60, deadline=None)
@given(ref_xyz=_POSITIONS, est_xyz=_POSITIONS, limit=st.none() | st.floats(0.01, 20.0))
def test_pairs_run_forward_lie_within_the_tolerance_and_are_nearest(
    ref_xyz: np.ndarray, est_xyz: np.ndarray, limit: float | None
) -> None:
    ref = path_trajectory(np.arange(float(len(ref_xyz))), ref_xyz)
    est = path_trajectory(np.arange(float(len(est_xyz))), est_xyz)
    try:
        pairs, match = associate_spatially(ref, est, max_distance_m=limit)
    except AssociationError:
        d = np.linalg.norm(est_xyz[:, None, :] - ref_xyz[None, :, :], axis=2).min(axis=1)
        assert limit is not None
        assert (d > limit).all()
        return
    r, e = match.reference_index, match.estimate_index
    assert (np.diff(r) > 0).all()
    assert (np.diff(e) > 0).all()
    brute = np.linalg.norm(est_xyz[e][:, None, :] - ref_xyz[None, :, :], axis=2)
    np.testing.assert_allclose(match.distance_m, brute.min(axis=1), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(match.distance_m, brute[np.arange(e.size), r], atol=1e-12)
    if limit is not None:
        assert (match.distance_m <= limit).all()
    assert match.n_matched + match.n_shared + match.n_backward == match.n_within
    assert isinstance(match, SpatialMatch)
    assert len(pairs.reference) == len(pairs.estimate)


@settings(max_examples=60, deadline=None)
@given(ref_xyz=_POSITIONS, est_xyz=_POSITIONS, limit=st.none() | st.floats(0.01, 20.0))
def test_trajectopys_rule_keeps_the_first_of_each_reference_pose_in_its_order(
    ref_xyz: np.ndarray, est_xyz: np.ndarray, limit: float | None
) -> None:
    ref = path_trajectory(np.arange(float(len(ref_xyz))), ref_xyz)
    est = path_trajectory(np.arange(float(len(est_xyz))), est_xyz)
    try:
        pairs, match = associate_spatially(ref, est, max_distance_m=limit, spatial_pairs="first")
    except AssociationError:
        assert limit is not None
        return
    _, path = associate_spatially(ref, est, max_distance_m=limit)
    # The same nearest reference pose for every estimate pose under both rules.
    np.testing.assert_array_equal(match.nearest_index, path.nearest_index)
    within = np.flatnonzero(match.nearest_distance_m <= (math.inf if limit is None else limit))
    first: dict[int, int] = {}
    for e in within.tolist():  # in estimate order: the first one of each reference pose
        first.setdefault(int(match.nearest_index[e]), e)
    expected = sorted(first.items())  # ordered by reference row
    got = list(zip(match.reference_index.tolist(), match.estimate_index.tolist(), strict=True))
    assert got == expected
    assert match.n_matched + match.n_shared == match.n_within == within.size
    assert (np.diff(pairs.reference.stamps_s) > 0).all()
    np.testing.assert_array_equal(pairs.estimate.stamps_s, pairs.reference.stamps_s)


def test_a_rule_that_is_not_one_is_refused() -> None:
    t = np.arange(3.0)
    traj = path_trajectory(t, helix(t))
    with pytest.raises(ValidationError, match=r"Expected `spatial_pairs` as one of \('path', "):
        associate_spatially(traj, traj, spatial_pairs="closest")  # type: ignore[arg-type]
    # An array raised NumPy's "truth value of an array is ambiguous".
    with pytest.raises(ValidationError, match=r"Expected `spatial_pairs` as one of \('path', "):
        associate_spatially(traj, traj, spatial_pairs=np.array(["path"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("spatial_pairs", ["path", "first"])
@pytest.mark.parametrize("side", ["reference", "estimate"])
def test_stamps_that_repeat_are_refused_naming_the_setting(side: str, spatial_pairs: str) -> None:
    """A trajectory read with ``repeated_stamps='all'`` (``stamps_repeat``), matched in
    space, ended in "Expected strictly increasing stamps ... at PoseTrajectory.stamps_s[1]"
    of a matched side: refused up front, as the interpolating sync rules refuse it."""
    x = np.arange(20.0)
    once = path_trajectory(x, np.stack([x, 0 * x, 0 * x], axis=1))
    twice = once.replace(stamps_s=np.repeat(np.arange(10.0), 2), stamps_repeat=True)
    pair = (twice, once) if side == "reference" else (once, twice)
    settings = EvaluationSettings(sync="spatial", spatial_pairs=spatial_pairs)  # type: ignore[arg-type]
    with pytest.raises(
        ValidationError,
        match=rf"^`sync='spatial'` needs one row a stamp, and the {side}'s stamps repeat "
        r"\(read with `repeated_stamps='all'`\)",
    ) as caught:
        evaluate(*pair, settings)
    assert caught.value.field == "sync"
