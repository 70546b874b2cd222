"""``EvaluationResult``: the matched estimate it keeps, and the compared one it derives.

Laws: ``result.estimate`` is :func:`~robot_msgs.evaluation.align`'s aligned estimate (and
its projection), to the bit; a result holds the input's own arrays, not a copy, when every
pose matched; an APE never makes the aligned copy; every round trip keeps the form.
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs import from_json, to_json
from robot_msgs.compare import EvaluationResult
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation import (
    Ape,
    EvaluationSettings,
    PairSettings,
    Rpe,
    align,
    associate,
    evaluate,
    project_to_plane,
)
from robot_msgs.io import read_trajectory
from tests.evaluation.metric_trajectories import turned_scaled_shifted

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory

SE3 = EvaluationSettings(align="se3")


@pytest.fixture(scope="module")
def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    return ref, read_trajectory("example:fr1_xyz/rgbdslam.tum")


@pytest.mark.parametrize("plane", [None, "xy"])
@pytest.mark.parametrize("method", ["none", "se3", "sim3", "origin"])
def test_the_derived_estimate_is_aligns_output_to_the_bit(
    fr1: tuple[PoseTrajectory, PoseTrajectory], method: str, plane: str | None
) -> None:
    settings = EvaluationSettings.from_dict({"align": method, "project_to_plane": plane})
    (result,) = evaluate(*fr1, settings, metrics=[Ape()])
    matched = associate(*fr1, settings)
    aligned, alignment = align(matched.reference, matched.estimate, settings=settings)
    if plane is not None:
        aligned = project_to_plane(aligned, plane)
    assert result.alignment == alignment
    assert result.compared_estimate is None
    assert result.matched_estimate == matched.estimate
    for name in ("positions_xyz", "orientations_quat_xyzw", "stamps_s"):
        np.testing.assert_array_equal(getattr(result.estimate, name), getattr(aligned, name))


def test_a_result_holds_the_inputs_own_poses_and_an_ape_makes_no_aligned_copy(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    ref, _ = fr1
    est = ref.replace(positions_xyz=ref.positions_xyz + np.array([1.0, 2.0, 3.0]))  # all match
    (result,) = evaluate(ref, est, SE3, metrics=[Ape()])
    assert result.matched_estimate is not None
    assert np.shares_memory(result.matched_estimate.positions_xyz, est.positions_xyz)
    assert "estimate" not in vars(result)  # not made: derived on first use
    assert result.stats["translation"].rms < 1e-9
    np.testing.assert_allclose(result.estimate.positions_xyz, ref.positions_xyz, atol=1e-9)
    assert "estimate" in vars(result)  # then kept


def test_an_rpe_hands_its_aligned_estimate_to_the_result(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    rpe = Rpe(pairs=(PairSettings(delta=1, delta_unit="s"),))
    (result,) = evaluate(*fr1, SE3, metrics=[rpe])
    assert "estimate" in vars(result)  # the RPE made it; the result keeps it, not again


def test_every_round_trip_keeps_the_matched_form(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    (result,) = evaluate(*fr1, SE3, metrics=[Ape()])
    backs: list[EvaluationResult] = [
        from_json(to_json(result)),  # type: ignore[list-item]  # a message of this type
        EvaluationResult.from_dict(result.to_dict()),
        pickle.loads(pickle.dumps(result)),
    ]
    for back in backs:
        assert back == result
        assert not back != result  # noqa: SIM202 - the law itself
        assert hash(back) == hash(result)
        assert back.compared_estimate is None
        np.testing.assert_array_equal(back.estimate.positions_xyz, result.estimate.positions_xyz)


def test_replace_estimate_sets_the_compared_estimate(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    (result,) = evaluate(*fr1, SE3, metrics=[Ape()])
    frames = result.estimate.replace(stamps_are_frames=True)
    changed = result.replace(estimate=frames)
    assert changed.compared_estimate == frames
    assert changed.estimate == frames
    assert changed.matched_estimate is None  # the matched poses no longer say what was compared
    with pytest.raises(ValidationError, match="not both"):
        result.replace(estimate=frames, compared_estimate=frames)


def test_a_result_cut_with_replace_estimate_keeps_working(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """Code written for results that stored ``estimate`` cuts a result as it did (a review)."""
    (result,) = evaluate(*fr1, SE3, metrics=[Ape()])

    def first(poses: PoseTrajectory, k: int) -> PoseTrajectory:
        return poses.replace(
            stamps_s=poses.stamps_s[:k],
            positions_xyz=poses.positions_xyz[:k],
            orientations_quat_xyzw=poses.orientations_quat_xyzw[:k],
        )

    cut = result.replace(
        reference=first(result.reference, 100),
        estimate=first(result.estimate, 100),
        reference_index=result.reference_index[:100],
        estimate_index=result.estimate_index[:100],
    )
    assert len(cut.estimate) == 100
    np.testing.assert_array_equal(cut.estimate.positions_xyz, result.estimate.positions_xyz[:100])


def test_a_saved_result_without_its_alignment_names_the_field(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """A required field after defaulted ones read as optional: a TypeError, exit 70 (a review)."""
    (result,) = evaluate(*fr1, SE3, metrics=[Ape()])
    tree = result.to_dict()
    del tree["alignment"]
    with pytest.raises(ValidationError, match=r"required field 'alignment'"):
        EvaluationResult.from_dict(tree)


def test_a_result_without_estimate_poses_is_refused(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    (result,) = evaluate(*fr1, SE3, metrics=[Ape()])
    with pytest.raises(ValidationError, match="matched_estimate"):
        result.replace(matched_estimate=None)
    short = result.matched_estimate
    assert short is not None
    cut = short.replace(
        stamps_s=short.stamps_s[:3],
        positions_xyz=short.positions_xyz[:3],
        orientations_quat_xyzw=short.orientations_quat_xyzw[:3],
    )
    with pytest.raises(
        ValidationError, match=r"as many matched poses.*EvaluationResult.matched_estimate"
    ):
        result.replace(matched_estimate=cut)


def test_rpgs_result_keeps_only_its_scaled_estimate(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """rpg compares a scaled, unaligned estimate: kept as compared, not beside the matched one
    too (a saved rpg drift grew from 319 to 363 kB; a review)."""
    from robot_msgs.evaluation import Drift
    from robot_msgs.evaluation.settings import RPG_SETTINGS

    (result,) = evaluate(*fr1, RPG_SETTINGS, metrics=[Drift(protocol="rpg")])
    assert result.matched_estimate is None
    assert result.compared_estimate is not None
    assert result.estimate is result.compared_estimate


def test_rpgs_aligned_estimate_is_what_save_aligned_writes_not_the_scaled_one(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """rpg compares the estimate scaled only; ``--plot`` drew that (132° off the ground
    truth on fr2_desk) while ``--save-aligned`` (``move``) wrote it Sim(3)-aligned."""
    from robot_msgs.evaluation import relative_error

    ref = fr1[0]
    est = turned_scaled_shifted(ref)  # undone exactly by a Sim(3) fit
    result = relative_error(ref, est)
    assert result.alignment.scale == pytest.approx(2.0)
    # The compared estimate: scaled by 2, still turned by 90° and shifted.
    assert not np.allclose(result.estimate.positions_xyz, ref.positions_xyz, atol=0.1)
    np.testing.assert_allclose(result.aligned_estimate.positions_xyz, ref.positions_xyz, atol=1e-9)
    moved = result.move(est)
    for name in ("positions_xyz", "orientations_quat_xyzw"):
        np.testing.assert_allclose(
            getattr(result.aligned_estimate, name), getattr(moved, name), atol=1e-12
        )
    (ape_result,) = evaluate(ref, est, EvaluationSettings(align="sim3"), metrics=[Ape()])
    assert ape_result.aligned_estimate is ape_result.estimate


def test_rpgs_aligned_estimate_moves_pose_covariances_as_save_aligned_does(
    fr1: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    """Rotated and shifted only, rpg's scaled estimate kept its covariances unscaled:
    ``aligned_estimate`` was s² = 1/4 of what ``move`` (``--save-aligned``) writes."""
    from robot_msgs.evaluation import relative_error

    ref = fr1[0]
    est = turned_scaled_shifted(ref)
    n = len(est)
    est = est.replace(covariance_6x6=np.tile(np.diag([4e-4] * 3 + [1e-4] * 3), (n, 1, 1)))
    result = relative_error(ref, est)
    assert result.alignment.scale == pytest.approx(2.0)
    aligned, moved = result.aligned_estimate.covariance_6x6, result.move(est).covariance_6x6
    assert aligned is not None
    assert moved is not None
    np.testing.assert_allclose(aligned, moved, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(aligned[:, 0, 0], 4 * 4e-4, rtol=1e-9)  # (2 · 1 cm)²
