"""RPE: the SLAM guide's one-second table, invariance, pair sources and bookkeeping."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import EvaluationSettings, PairSettings, Rpe, evaluate, rpe
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import (
    RIGID_MOTIONS,
    RigidMotion,
    line,
    noisy_estimate_and_moved,
    random_walk,
)

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import DeltaUnit

T = np.arange(101, dtype=np.float64) * 0.1


def test_seed_table_constant_offset_cancels_over_one_second() -> None:
    result = rpe(line(), line(T + 0.1), pairs=PairSettings(delta=1, delta_unit="s", all_pairs=True))
    assert f"{result.stats['translation'].rms:.6f}" == "0.000000"
    assert result.counts["pairs"] == 91


def test_seed_table_drift_shows_as_one_centimetre_per_second() -> None:
    result = rpe(
        line(), line(T + 0.01 * T), pairs=PairSettings(delta=1, delta_unit="s", all_pairs=True)
    )
    assert f"{result.stats['translation'].rms:.6f}" == "0.010000"


def test_result_records_the_pair_settings() -> None:
    result = rpe(line(), line(T * 1.01), pairs=PairSettings(delta=2, delta_unit="f"), relation="x")
    assert result.metric == "rpe"
    assert dict(result.units) == {"x": "m"}
    expected = {
        "relation": "x",
        "delta": 2.0,
        "delta_unit": "f",
        "all_pairs": False,
        "pairs_from": "estimate",
        "delta_tol": 0.1,
        "align": "none",
        "sync": "nearest",
    }
    assert expected.items() <= dict(result.settings).items()
    assert result.counts["pairs"] == 50
    # 0.2 m of reference motion per pair, 1 % too long: +0.002 m in x, every pair.
    assert result.stats["x"].min == pytest.approx(0.002)
    assert result.stats["x"].max == pytest.approx(0.002)
    # Consecutive pairs end at increasing stamps: a time axis for the integrals.
    assert result.stats["x"].iae == pytest.approx(0.002 * (10.0 - 0.2))
    series = result.series["x"]
    assert series.pairs is not None
    assert series.pairs[:2].tolist() == [[0, 2], [2, 4]]
    np.testing.assert_array_equal(series.stamps_s, result.estimate.stamps_s[series.pairs[:, 1]])
    assert np.sqrt(np.mean(series.errors**2)) == pytest.approx(result.stats["x"].rms, rel=1e-15)


def test_pairs_from_reference_use_the_reference_path() -> None:
    ref = line()
    est = line(T * 2.0)  # twice as fast: one metre of estimate path is half a metre of reference
    from_est = rpe(ref, est, pairs=PairSettings(delta=1.0, delta_unit="m", all_pairs=True))
    from_ref = rpe(
        ref,
        est,
        pairs=PairSettings(delta=1.0, delta_unit="m", all_pairs=True, pairs_from="reference"),
    )
    assert from_est.stats["translation"].mean == pytest.approx(0.5)
    assert from_ref.stats["translation"].median == pytest.approx(1.0)
    # evo's tolerance keeps the last start's 0.9 m pair (|0.9 - 1| <= 0.1): 91 + 1 pairs.
    assert from_ref.counts["pairs"] == 92
    assert from_ref.stats["translation"].min == pytest.approx(0.9)
    assert from_ref.settings["pairs_from"] == "reference"


def test_zero_distance_pairs_are_left_out_of_the_ratio_with_a_note() -> None:
    x = np.concatenate([np.zeros(10), np.arange(1, 91, dtype=np.float64) * 0.1])
    ref = line(x, n=100)
    est = line(x * 1.1, n=100)
    result = rpe(
        ref,
        est,
        pairs=PairSettings(delta=1, delta_unit="f", all_pairs=True),
        relation="point_distance_error_ratio",
    )
    assert result.stats["point_distance_error_ratio"].n == 99 - 9
    assert result.stats["point_distance_error_ratio"].mean == pytest.approx(10.0)
    assert any("9 pair(s) whose reference positions coincide" in note for note in result.notes)
    assert dict(result.units) == {"point_distance_error_ratio": "%"}


@settings(max_examples=20, deadline=None)
@given(RIGID_MOTIONS)
def test_rpe_without_alignment_is_invariant_to_a_rigid_transform_of_the_estimate(
    motion: RigidMotion,
) -> None:
    ref, est, moved = noisy_estimate_and_moved(31, motion)
    cases: tuple[tuple[str, float, DeltaUnit], ...] = (
        ("translation", 1, "f"),
        ("angle_deg", 0.5, "m"),
        ("full", 5.0, "deg"),
        ("y", 1.0, "s"),
    )
    for relation, delta, unit in cases:
        before = rpe(
            ref,
            est,
            pairs=PairSettings(delta=delta, delta_unit=unit, all_pairs=True),
            relation=relation,
        ).stats[relation]
        after = rpe(
            ref,
            moved,
            pairs=PairSettings(delta=delta, delta_unit=unit, all_pairs=True),
            relation=relation,
        ).stats[relation]
        assert after.n == before.n
        assert after.rms == pytest.approx(before.rms, rel=1e-9, abs=1e-12)
        assert after.max == pytest.approx(before.max, rel=1e-9, abs=1e-12)


def test_a_delta_without_pairs_is_refused_with_the_path_length() -> None:
    with pytest.raises(
        ValidationError,
        match=r"delta = 50 m gave no pose pair among the 101 matched poses of the estimate \(duration 10 s, path 10 m\)",
    ):
        rpe(line(), line(), pairs=PairSettings(delta=50.0, delta_unit="m"))


def test_one_matched_pose_is_refused_as_too_few_not_as_a_too_large_delta() -> None:
    """One pose said "delta = 1.0 f gave no pose pair ...: use a smaller delta", of the
    smallest delta there is (a review): no delta pairs one pose; frames read as frames."""
    one = PoseTrajectory(
        stamps_s=np.zeros(1),
        positions_xyz=np.zeros((1, 3)),
        orientations_quat_xyzw=np.array([[0.0, 0, 0, 1]]),
    )
    with pytest.raises(
        ValidationError,
        match=r"^no pose pair: the estimate has 1 matched pose; a relative pose error needs "
        r"at least 2$",
    ):
        rpe(one, one, pairs=PairSettings(delta=1, delta_unit="f"))
    with pytest.raises(ValidationError, match=r"^delta = 200 frames gave no pose pair among"):
        rpe(line(), line(), pairs=PairSettings(delta=200, delta_unit="f"))


def test_evaluate_of_several_rpes_equals_rpe_for_each_delta() -> None:
    ref, est = random_walk(300, seed=5), random_walk(300, seed=6)
    units: tuple[tuple[float, DeltaUnit], ...] = ((1.0, "f"), (2.0, "s"), (1.0, "m"))
    specs = [Rpe(pairs=(PairSettings(delta=d, delta_unit=u, all_pairs=True),)) for d, u in units]
    together = evaluate(ref, est, EvaluationSettings(align="se3"), metrics=specs)
    for (delta, unit), got in zip(units, together, strict=True):
        assert got == rpe(
            ref,
            est,
            settings=EvaluationSettings(align="se3"),
            pairs=PairSettings(delta=delta, delta_unit=unit, all_pairs=True),
        )


def _frames_along_x(n: int) -> PoseTrajectory:
    """``n`` poses 1 m apart along x, stamped by frame index (KITTI without its times)."""
    t = np.arange(float(n))
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0 * t, 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (n, 1)),
        stamps_are_frames=True,
    )


def test_a_delta_in_seconds_on_frame_indices_is_refused() -> None:
    """KITTI without its times file: "1 s" counted 1 frame (4540 pairs where 454 are)."""
    traj = _frames_along_x(30)
    seconds = Rpe(pairs=(PairSettings(delta=1.0, delta_unit="s"),))
    with pytest.raises(ValidationError, match="stamps are frame indices") as caught:
        evaluate(traj, traj, EvaluationSettings(), metrics=[seconds])
    assert caught.value.field == "PairSettings.delta_unit"
    frames = Rpe(pairs=(PairSettings(delta=1, delta_unit="f"),))
    (result,) = evaluate(traj, traj, EvaluationSettings(), metrics=[frames])
    assert result.counts["pairs"] == 30 - 1  # pairs 1 frame apart among 30 frames
    tum = Rpe(pairs=(PairSettings(delta=1.0, delta_unit="s", protocol="tum"),))  # its own road
    with pytest.raises(ValidationError, match="stamps are frame indices"):
        evaluate(traj, traj, EvaluationSettings(), metrics=[tum])


def test_a_delta_smaller_than_the_poses_spacing_is_told_to_grow() -> None:
    """delta = 1e-300 m gave no pair and the advice "use a smaller delta"; the poses of this
    line are 1 m apart (11 poses, 10 m of path), so a larger one is what gives pairs."""
    t = np.arange(11.0)
    line = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (11, 1)),
    )
    tiny = PairSettings(delta=1e-300, delta_unit="m", all_pairs=True)
    with pytest.raises(ValidationError, match=r": use a larger delta \(the poses are 1 m apart\)$"):
        rpe(line, line, pairs=tiny)
    # Longer than the whole path: no pair can be, and all pairs cannot help (a review).
    for all_pairs in (True, False):
        too_far = PairSettings(delta=50.0, delta_unit="m", all_pairs=all_pairs)
        with pytest.raises(
            ValidationError,
            match=r"\(duration 10 s, path 10 m\): use a smaller delta$",
        ):
            rpe(line, line, pairs=too_far)


def test_a_delta_shorter_than_poses_stamped_in_ms_says_the_unit_too() -> None:
    """Both files in ms since boot: "use a larger delta (the poses are 264 s apart)" was
    followed to `--delta 1000` and numbers recorded 1000 times their real delta (a review)."""
    t = 12_000.0 + np.arange(200, dtype=np.float64) * 100.0  # 10 Hz as ms
    walk = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.c_[(t - t[0]) * 3e-4, np.zeros((200, 2))],  # 0.3 m/s as ms
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (200, 1)),
    )
    with pytest.raises(
        ValidationError,
        match=r": use a larger delta \(the poses are 100 s apart\), or the stamps are in ms, "
        r"not seconds \(the poses are 100 s and 100 s apart, the reference moves at 0\.0003 m/s",
    ):
        rpe(walk, walk, pairs=PairSettings(delta=1.0, delta_unit="s"))


@pytest.mark.parametrize(("delta", "unit"), [(1.0, "m"), (0.5, "m"), (1, "f"), (1, "s")])
def test_all_pairs_have_no_integrals_whatever_their_end_stamps(
    delta: float, unit: DeltaUnit
) -> None:
    """All pairs at 0.5 m had an IAE (0.0475), at 1 m none: their ends happened to increase
    strictly, or not (92 pairs, two ending at one pose). Overlapping pairs are no time axis,
    as drift's segments (Signal.of); consecutive pairs keep theirs."""
    est = line(T + 0.01 * T)
    every = rpe(line(), est, pairs=PairSettings(delta=delta, delta_unit=unit, all_pairs=True))
    stats = every.stats["translation"]
    assert np.isnan([stats.iae, stats.ise, stats.itae]).all()
    chained = rpe(line(), est, pairs=PairSettings(delta=delta, delta_unit=unit))
    assert not np.isnan(chained.stats["translation"].iae)


def test_a_delta_without_pairs_on_frame_indices_gives_the_duration_in_frames() -> None:
    """KITTI 00 without its times, ``--delta 5000 --delta-unit f``: "duration 4540 s" of
    stamps that count frames; the README promises `frame`, never seconds."""
    traj = _frames_along_x(30)
    with pytest.raises(
        ValidationError, match=r"\(duration 29 frames, path 29 m\): use a smaller delta$"
    ):
        rpe(traj, traj, pairs=PairSettings(delta=50, delta_unit="f"))
    two = _frames_along_x(2)
    with pytest.raises(ValidationError, match=r"\(duration 1 frame, path 1 m\)"):
        rpe(two, two, pairs=PairSettings(delta=5, delta_unit="f"))  # it said "1 frames"
