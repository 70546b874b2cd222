"""prepare() with ``sync='spatial'`` (with ``max_distance_m``) and ``transform_right_auto``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.compare import EvaluationResult
from robot_msgs.errors import AlignmentError, AssociationError, DataWarning, ValidationError
from robot_msgs.evaluation import (
    Ape,
    Drift,
    EvaluationSettings,
    PairSettings,
    Rpe,
    ape,
    apply_transforms,
    associate_spatially,
    evaluate,
    rpe,
)
from robot_msgs.evaluation.pipeline import frames_by_index, time_range
from robot_msgs.io import read_trajectory
from robot_msgs.io.examples import resolve_path
from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.test_spatial import cross_track_rms

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.typing import Float64Array


def fr1() -> tuple[PoseTrajectory, PoseTrajectory]:
    return (
        read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum")),
        read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum")),
    )


def test_sync_spatial_recovers_the_ape_of_a_time_shifted_estimate() -> None:
    ref, est = fr1()
    late = est.replace(stamps_s=est.stamps_s - 3600.0)  # an hour off: no time overlap
    settings = EvaluationSettings(sync="spatial", max_distance_m=0.1, align="se3")
    result = evaluate(ref, late, settings, metrics=[Ape()])[0]
    on_time = evaluate(ref, est, settings, metrics=[Ape()])[0]
    rms = result.comparison.signals[0].stats.rms
    assert rms == on_time.comparison.signals[0].stats.rms  # stamps are not used
    ape, across = cross_track_rms(ref, est)  # 13.5 mm over time, 8.8 mm across the path
    assert rms == pytest.approx(across, rel=0.15)
    assert rms < ape
    assert result.comparison.settings is not None
    assert result.comparison.settings.sync == "spatial"  # stated as such in the result
    assert any(note.startswith("matched in space") for note in result.comparison.notes)
    pairs, _ = associate_spatially(ref, late, max_distance_m=0.1)
    assert result.comparison.counts["matched"] == len(pairs.reference)


@pytest.mark.parametrize("metric", ["ape", "rpe"])
def test_sync_spatial_skips_the_offset_search_and_says_it_unused(metric: str) -> None:
    """Matched in space no offset pairs a pose: rgbdslam an hour late was refused with
    ``offset_auto`` ("Cannot estimate a time offset", the search's ±1 s misses the
    reference), where the same pairs without it give their APE."""
    ref, est = fr1()
    late = est.replace(stamps_s=est.stamps_s - 3600.0)
    run = ape if metric == "ape" else rpe
    plain = run(ref, late, settings=EvaluationSettings(sync="spatial"))
    searched = run(ref, late, settings=EvaluationSettings(sync="spatial", offset_auto=True))
    assert searched.stats == plain.stats
    assert searched.time_offset is None
    unused = [n for n in searched.comparison.notes if n not in plain.comparison.notes]
    said = "no clock offset pairs the poses: the offset search (`offset_auto=`) is unused"
    assert unused == [f"matched in space (`sync='spatial'`), {said}"]


def test_n_align_with_origin_alignment_is_said_unused_and_changes_nothing() -> None:
    """``align='origin'`` moves the first matched pose onto the reference's, whatever the
    first N poses are: ``n_align=100`` was taken and recorded without a word (evo's
    ``--align_origin --n_to_align 100`` gives the same 0.019368 m rms on fr1 as without it).
    ``origin_scale`` fits its scale on those N poses, so it uses them, and is not noted."""
    ref, est = fr1()
    plain = ape(ref, est, settings=EvaluationSettings(align="origin"))
    first = ape(ref, est, settings=EvaluationSettings(align="origin", n_align=100))
    assert first.stats == plain.stats
    rms = first.comparison.signals[0].stats.rms
    assert rms == pytest.approx(0.019368, abs=5e-7)  # evo_ape --align_origin (fr1 rgbdslam)
    added = [n for n in first.comparison.notes if n not in plain.comparison.notes]
    said = (
        "`align='origin'` moves the first matched pose onto the reference's: the first N "
        "poses to fit on (`n_align=`) are unused, as evo's --n_to_align is with --align_origin"
    )
    assert added == [said]
    scaled = ape(ref, est, settings=EvaluationSettings(align="origin_scale", n_align=100))
    assert not any("`n_align=`) are unused" in n for n in scaled.comparison.notes)


def test_max_distance_goes_with_sync_spatial_only() -> None:
    with pytest.raises(ValidationError, match=r"`sync='spatial'` \(the distance of a spatial"):
        EvaluationSettings(max_distance_m=0.1)
    with pytest.raises(ValidationError, match=r"> 0"):
        EvaluationSettings(sync="spatial", max_distance_m=0.0)


def _body(n: int = 600) -> PoseTrajectory:
    t = np.linspace(0.0, 30.0, n)
    turn = np.stack([0.4 * np.sin(t), 0.3 * np.cos(0.7 * t), 0.5 * np.sin(0.3 * t)], axis=1)
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], axis=1),
        orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(turn)),
    )


def test_transform_right_auto_estimates_the_mount_and_removes_its_error() -> None:
    body = _body()
    mount = np.eye(4)
    mount[:3, :3] = matrix_from_rotation_vector(np.array([[0.0, 0.0, np.pi / 2]]))[0]
    mount[:3, 3] = [0.2, 0.0, 0.05]
    camera = apply_transforms(body, EvaluationSettings(transform_right=tuple(mount.ravel())))
    plain = evaluate(body, camera, EvaluationSettings(align="se3"), metrics=[Ape()])[0]
    auto = evaluate(
        body,
        camera,
        EvaluationSettings(align="se3", transform_right_auto=True),
        metrics=[Ape()],
    )[0]
    assert plain.comparison.signals[0].stats.rms > 0.05  # the lever arm, seen as error
    assert auto.comparison.signals[0].stats.rms < 1e-6
    estimated = auto.comparison.estimated
    assert estimated is not None
    assert estimated.extrinsic is not None
    assert np.allclose(estimated.extrinsic.matrix(), np.linalg.inv(mount), atol=1e-6)
    assert any(note.startswith("extrinsic estimated") for note in auto.comparison.notes)


def test_transform_right_and_its_estimate_are_not_both_given() -> None:
    with pytest.raises(ValidationError, match="not both"):
        EvaluationSettings(transform_right=tuple(np.eye(4).ravel()), transform_right_auto=True)


def test_associate_in_time_refuses_sync_spatial() -> None:
    from robot_msgs.evaluation import associate

    ref, est = fr1()
    with pytest.raises(ValidationError, match="associate_spatially"):
        associate(ref, est, EvaluationSettings(sync="spatial"))


def _walk(n: int, *, frames: bool) -> PoseTrajectory:
    t = np.arange(float(n))
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, np.sin(t), 0 * t], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (n, 1)),
        stamps_are_frames=frames,
    )


def test_frame_indices_are_not_matched_in_time_with_seconds() -> None:
    """KITTI read without its times file beside seconds: 96 "matches", an APE of 221 m."""
    seconds, frames = _walk(20, frames=False), _walk(20, frames=True)
    for ref, est, which in ((seconds, frames, "estimate"), (frames, seconds, "reference")):
        with pytest.raises(AssociationError, match=f"The {which}'s stamps are frame indices"):
            evaluate(ref, est, EvaluationSettings(), metrics=[Ape()])
        # in space, the stamps are not used: allowed
        (result,) = evaluate(ref, est, EvaluationSettings(sync="spatial"), metrics=[Ape()])
        assert result.comparison.signals[0].stats.rms == pytest.approx(0.0, abs=1e-12)
    (both,) = evaluate(frames, frames, EvaluationSettings(), metrics=[Ape()])
    assert both.counts["matched"] == 20


@pytest.mark.parametrize("metric", [Ape(), Drift(lengths_m=(5.0,))], ids=["ape", "drift"])
@pytest.mark.parametrize(
    ("frames", "start", "end", "said"),
    [
        (True, 3.0, 15.0, "`t_start_s=3` and `t_end_s=15` are read as frame indices, not"),
        (True, None, 15.0, "`t_end_s=15` is read as a frame index, not seconds: the stamps"),
        (True, None, None, None),
        (False, 3.0, 15.0, None),
    ],
)
def test_a_time_range_on_frame_indices_is_said_to_be_read_as_frames(
    metric: Ape | Drift, frames: bool, start: float | None, end: float | None, said: str | None
) -> None:
    """KITTI read without its times: `--t-start 3` cut at frame 3, not at 3 s, without a
    word, in ape and drift alike (a note of the one preparation both share)."""
    walk = _walk(20, frames=frames)
    settings = EvaluationSettings(t_start_s=start, t_end_s=end)
    (result,) = evaluate(walk, walk, settings, metrics=[metric])
    assert result.counts["matched"] == 20 - (start or 0) - (19 - (end or 19))
    read = [note for note in result.notes if "frame ind" in note]
    assert len(read) == (0 if said is None else 1)
    if said is not None:
        assert read[0].startswith(said)
        assert read[0].endswith(
            "(a KITTI file read without its times file; give the times files for seconds)"
        )


def test_a_far_time_range_on_frame_indices_is_said_in_frames() -> None:
    """KITTI 00 without its times, `--t-end 100000`: beside "read as a frame index, not
    seconds", the far-range note said "9.55e+04 s after the reference's last stamp
    (0.000000 .. 4540.000000 s) ... not in seconds from their start"."""
    walk = _walk(20, frames=True)
    settings = EvaluationSettings(t_start_s=-50.0, t_end_s=100.0)
    (result,) = evaluate(walk, walk, settings, metrics=[Ape()])
    far = [note for note in result.notes if "cuts no pose" in note]
    said = (
        "`t_start_s=-50` is 50 frames before the reference's first frame and `t_end_s=100` "
        "is 81 frames after the reference's last frame (0 .. 19), and cuts no pose"
    )
    assert far == [said]


def test_an_alignment_window_on_frame_indices_is_said_in_frames() -> None:
    """KITTI 00 without its times, `--align-window 4000 6000` fitted on frames 4000..4540
    without a word, and `--align-window 5000 6000` said "5000.000000 .. 6000.000000 s ...
    (0.000000 .. 4540.000000 s)", seconds of frame indices (as `--t-start` was said)."""
    walk = _walk(20, frames=True)
    settings = EvaluationSettings(align="se3", align_window_s=(3.0, 15.0))
    (result,) = evaluate(walk, walk, settings, metrics=[Ape()])
    read = [note for note in result.notes if "frame ind" in note]
    frames = (
        "`align_window_s=(3, 15)` are read as frame indices, not seconds: the stamps are frame "
        "indices (a KITTI file read without its times file; give the times files for seconds)"
    )
    assert read == [frames]
    said = (
        "No pose to fit the alignment on: the alignment window 50 .. 60 frames "
        "(`align_window_s=`) holds none of the matched estimate's frames (0 .. 19)"
    )
    with pytest.raises(AlignmentError, match=f"^{re.escape(said)}$"):
        evaluate(walk, walk, settings.replace(align_window_s=(50.0, 60.0)), metrics=[Ape()])


def test_an_empty_time_range_on_frame_indices_is_said_in_frames() -> None:
    """KITTI 00 without its times, `--t-start 5000`: "No pose of the reference in the time
    range 5000.000000 .. inf s ...: it spans 0.000000 .. 4540.000000 s", seconds of frame
    indices, where the far-range note says frames (0 .. 4540)."""
    walk = _walk(20, frames=True)
    said = (
        "No pose of the reference in the time range 50 .. inf (`t_start_s=`/`t_end_s=`): "
        "it spans 0 .. 19 (20 poses), and the range is read as frame indices, not seconds: "
        "the stamps are frame indices (a KITTI file read without its times file; give the "
        "times files for seconds)"
    )
    with pytest.raises(AssociationError, match=f"^{re.escape(said)}$"):
        evaluate(walk, walk, EvaluationSettings(t_start_s=50.0), metrics=[Ape()])
    with pytest.raises(AssociationError, match=r"range 2\.5 \.\. 2\.7 \(.*spans 0 \.\. 19 \("):
        time_range(walk, 2.5, 2.7)


def test_frame_indices_of_two_lengths_are_matched_by_index_with_a_warning() -> None:
    """KITTI 00's ORB estimate from its 541st frame, both read without times: paired with
    the reference's first 4000 frames, 203.7 m with se3, without a word (evo refuses)."""
    ref = _walk(20, frames=True)
    late = ref.replace(  # tracking started 5 frames late, its file numbered from 0
        stamps_s=np.arange(15.0),
        positions_xyz=ref.positions_xyz[5:],
        orientations_quat_xyzw=ref.orientations_quat_xyzw[5:],
    )
    said = r"which assumes both start at the same frame; give both times files \(`reference_times="
    with pytest.warns(DataWarning, match=r"^est: the reference's 20 and the estimate's 15 stamps"):
        (result,) = evaluate(ref, late, metrics=[Ape()], estimate_name="est")
    assert any(re.search(said, note) for note in result.comparison.notes)
    assert result.stats["translation"].rms > 1.0  # each frame paired with one 5 earlier
    # The offset it names (the frames it starts late) pairs them right, and is not warned.
    (shifted,) = evaluate(ref, late, EvaluationSettings(offset_s=5.0), metrics=[Ape()])
    assert shifted.stats["translation"].rms == pytest.approx(0.0, abs=1e-12)
    assert not any("same frame" in note for note in shifted.comparison.notes)
    # As many frames on both sides: one frame a row, as evo and KITTI's devkit pair them.
    (same,) = evaluate(ref, _walk(20, frames=True).replace(positions_xyz=ref.positions_xyz + 1))
    assert not any("same frame" in note for note in same.comparison.notes)


def test_an_estimate_with_the_references_stamps_and_poses_is_noted() -> None:
    """`ape E E`, or one file under two names, gave 1e-16 m without a word (a review).
    The file given twice is warned as it is read (tests/io/test_evaluation_inputs.py)."""
    ref, _ = fr1()
    said = (
        "the estimate's stamps and poses are the reference's: every error is zero to float64 "
        "rounding (a unit in the last place of its largest coordinate, 1.8 m, is 2.2e-16 m)"
    )  # fr1_xyz's largest coordinate: 1.7616 m (a column of its file), in [1, 2): 2**-52 m
    again = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))  # a copy
    for estimate in (ref, again):
        (result,) = evaluate(ref, estimate, metrics=[Ape()], estimate_name="est")
        assert result.comparison.notes[0] == said
    # Another stamp or pose is another estimate.
    later = evaluate(ref, ref.replace(stamps_s=ref.stamps_s + 1e-3), metrics=[Ape()])[0]
    assert said not in later.comparison.notes


def test_an_estimate_moved_by_a_transform_or_an_offset_is_not_said_zero() -> None:
    """`ape E E --transform-left T` (T: 5 m along x) printed errors of 5 m under the note
    "every error is zero to float64 rounding": the note looked at the estimate before its
    transforms, and before --offset moved its stamps. It is said of what is compared."""
    ref, _ = fr1()
    shift = (1.0, 0, 0, 5.0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0)
    for settings in (
        EvaluationSettings(transform_left=shift),
        EvaluationSettings(transform_right=shift),
        EvaluationSettings(offset_s=0.5, max_diff_s=0.02),
    ):
        (result,) = evaluate(ref, ref, settings, metrics=[Ape()])
        assert result.stats["translation"].max > 0.01  # 5 m by the transforms: not zero
        assert not any("zero" in note for note in result.comparison.notes)
    (moved,) = evaluate(ref, ref, EvaluationSettings(transform_left=shift), metrics=[Ape()])
    assert moved.stats["translation"].min == pytest.approx(5.0, abs=1e-12)  # T's 5 m


def test_a_trajectory_against_itself_far_from_the_origin_is_zero_only_to_rounding(
    evo_data: Path,
) -> None:
    """`ape georeferenced.tum georeferenced.tum --align se3` noted "every error is zero"
    above a table of 5.82077e-11 m (one unit in the last place of 4.6e5 m, 2**-34 m):
    the fit rounds at the coordinates' magnitude. The note says so, with that scale: its
    largest coordinate is 5.4e6 m (a northing), whose units in the last place are 2**-30 m
    = 9.3e-10 m, which bounds the errors seen."""
    geo = read_trajectory(evo_data / "georeferenced.tum")
    (result,) = evaluate(geo, geo, EvaluationSettings(align="se3"), metrics=[Ape()])
    said = (
        "the estimate's stamps and poses are the reference's: every error is zero to float64 "
        "rounding (a unit in the last place of its largest coordinate, 5.4e+06 m, is 9.3e-10 m)"
    )
    assert result.comparison.notes[0] == said
    assert 0.0 < result.stats["translation"].max <= 2.0**-30


def test_metrics_given_as_a_generator_are_all_computed() -> None:
    """A generator was used up by the checks: ``evaluate`` returned ``[]`` without a word."""
    ref = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))
    est = read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum"))
    relations = ("translation", "angle_deg")
    listed = evaluate(ref, est, metrics=[Ape(relation=r) for r in relations])
    generated = evaluate(ref, est, metrics=(Ape(relation=r) for r in relations))
    mapped = evaluate(ref, est, metrics=iter([Ape(relation=r) for r in relations]))
    assert len(listed) == 2
    assert generated == listed
    assert mapped == listed


@pytest.mark.parametrize(
    ("metrics", "said"),
    [
        (Ape(), r"got one Ape \(`metrics=\[Ape\(\.\.\.\)\]`\)"),
        (3, r"got int 3"),
    ],
)
def test_metrics_that_are_no_sequence_are_named(metrics: object, said: str) -> None:
    ref = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))
    with pytest.raises(ValidationError, match=r"^Expected `metrics` as a sequence of .*" + said):
        evaluate(ref, ref, metrics=metrics)  # type: ignore[call-overload]


def test_a_number_from_few_matched_poses_warns() -> None:
    """Stamps in ms by mistake matched 1 of 788 poses; the note was in result.notes only,
    unseen in a notebook (a review). A time range that leaves poses out is noted only."""
    ref = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))
    est = read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum"))
    late = est.replace(stamps_s=est.stamps_s * 1e3)
    with pytest.warns(DataWarning, match=r"^only 0\.13% of the shorter trajectory's poses "):
        (result,) = evaluate(ref.replace(stamps_s=ref.stamps_s * 1e3), late, metrics=[Ape()])
    assert result.counts["matched"] == 1
    cut = EvaluationSettings(t_end_s=float(est.stamps_s[100]))
    (part,) = evaluate(ref, est, cut, metrics=[Ape()])  # warnings are errors here
    assert any(n.startswith("only ") for n in part.notes)


@pytest.mark.parametrize("align", ["se3", "sim3"])
def test_an_alignment_that_fails_on_few_matched_poses_says_how_few(align: str) -> None:
    """1 of 788 poses matched (stamps in ms by mistake) and --align se3 was refused as
    "all the same point, static: use --align origin", blaming the motion (a review)."""
    ref = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))
    est = read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum"))
    ms = EvaluationSettings(align=align)  # type: ignore[arg-type]
    with pytest.raises(
        AlignmentError,
        match=rf"^the {align} alignment cannot be fitted on the 1 matched pose\(s\): only "
        r"0\.13% of the shorter trajectory's poses matched \(1 of 788\); check the clock",
    ):
        evaluate(
            ref.replace(stamps_s=ref.stamps_s * 1e3),
            est.replace(stamps_s=est.stamps_s * 1e3),
            ms,
            metrics=[Ape()],
        )
    # With most poses matched, a degenerate fit keeps its own reason.
    still = ref.replace(positions_xyz=np.zeros_like(ref.positions_xyz))
    with pytest.raises(AlignmentError, match=r"^Cannot fit an alignment: the reference"):
        evaluate(still, est, ms, metrics=[Ape()])


def test_an_se3_evaluation_notes_a_sim3_scale_far_from_one() -> None:
    """A monocular estimate evaluated with se3 gave 0.939 m where sim3 gives 0.0077 m, and
    no word said that the scale error is in the number (a review)."""
    ref = read_trajectory(resolve_path("example:fr1_xyz/groundtruth.tum"))
    est = read_trajectory(resolve_path("example:fr1_xyz/rgbdslam.tum"))
    half = est.replace(positions_xyz=est.positions_xyz * 0.5)
    (result,) = evaluate(ref, half, EvaluationSettings(align="se3"), metrics=[Ape()])
    (said,) = [n for n in result.notes if n.startswith("a Sim(3) fit scales the estimate by ")]
    # fr1 rgbdslam's own Sim(3) scale is 1.01: halved, about 2.02
    scale = float(said.split(" by ", 1)[1].split(":", 1)[0])
    assert 1.9 < scale < 2.1
    assert "the se3 errors include that scale error (`align='sim3'` leaves it out" in said
    # Millimetres are said as such: sim3 would hide them (a review).
    mm = est.replace(positions_xyz=est.positions_xyz * 1e3)
    (in_mm,) = evaluate(ref, mm, EvaluationSettings(align="se3"), metrics=[Ape()])
    assert any(
        n.endswith(
            "include that factor (the estimate in millimetres, not metres? convert them to metres)"
        )
        for n in in_mm.notes
    )
    for settings, estimate in (
        (EvaluationSettings(align="se3"), est),  # its own scale is within 10 %
        (EvaluationSettings(align="sim3"), half),  # the scale is fitted
        (EvaluationSettings(align="origin"), half),  # no Sim(3) fit to learn it from
    ):
        (other,) = evaluate(ref, estimate, settings, metrics=[Ape()])
        assert not any(n.startswith("a Sim(3) fit") for n in other.notes)


@pytest.mark.parametrize(
    ("metric", "relation"),
    [("rpe", "translation"), ("rpe", "rot_part"), ("ape", "full"), ("ape", "angle_deg")],
)
def test_quaternions_off_unit_within_the_tolerance_are_the_rotations_they_scale(
    metric: str, relation: str
) -> None:
    """A PoseTrajectory accepts norms within 1e-6 of 1 (float32 quaternions are off by
    ~1e-7), but the kernels rotated by them as given: RPE translation of 17 m steps,
    errors ~2e-4 m, was off by 6 % median, 45 % max from the same rotations at unit norm
    (hev's finding; evo normalises, as its quaternion_matrix does). A scaled quaternion
    is one rotation: the numbers are those of the unit quaternions."""
    rng = np.random.default_rng(1)
    n = 50
    t = np.arange(n, dtype=float)
    p = np.cumsum(rng.normal(size=(n, 3)) * 10, 0)
    q = quat_xyzw_from_matrix(matrix_from_rotation_vector(rng.normal(size=(n, 3))))
    ref = PoseTrajectory(stamps_s=t, positions_xyz=p, orientations_quat_xyzw=q)
    moved = p + rng.normal(size=(n, 3)) * 1e-4
    turned = quat_xyzw_from_matrix(matrix_from_rotation_vector(rng.normal(size=(n, 3)) * 1e-3))
    q_est = np.array([_multiply(a, b) for a, b in zip(q, turned, strict=True)])
    unit = PoseTrajectory(stamps_s=t, positions_xyz=moved, orientations_quat_xyzw=q_est)
    scaled = unit.replace(orientations_quat_xyzw=q_est * (1 + 9e-7))
    run = ape if metric == "ape" else rpe
    want = run(ref, unit, relation=relation).series[relation].errors
    got = run(ref.replace(orientations_quat_xyzw=q * (1 - 9e-7)), scaled, relation=relation)
    np.testing.assert_allclose(got.series[relation].errors, want, rtol=1e-9, atol=1e-15)


def _multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The Hamilton product of two quaternions x, y, z, w, written out by hand."""
    (x1, y1, z1, w1), (x2, y2, z2, w2) = a, b
    return np.array([
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("row", "off", "divided"), [(-1, 3e-14, True), (-1, 4e-15, False), (0, -3e-14, True)]
)
def test_unit_rotations_checks_every_row_in_chunks(row: int, off: float, divided: bool) -> None:
    """The check of the squared norms runs a chunk of rows at a time (13 -> 5 ms a side at
    10^6 poses): a row off past rounding in the last, partial chunk is found, one within
    it leaves the trajectory as given (the same object)."""
    from robot_msgs.evaluation.pipeline import _UNIT_CHUNK, _unit_rotations

    n = 2 * _UNIT_CHUNK + 3
    q = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    q[row, 3] = np.sqrt(1.0 + off)  # squared norm 1 + off, within a few 1e-16
    traj = PoseTrajectory(
        stamps_s=np.arange(float(n)), positions_xyz=np.zeros((n, 3)), orientations_quat_xyzw=q
    )
    out = _unit_rotations(traj)
    assert (out is not traj) is divided
    assert abs(float(np.sum(out.orientations_quat_xyzw[row] ** 2)) - 1.0) < (
        1e-15 if divided else 1e-14
    )


@pytest.mark.parametrize(
    ("start", "end", "said"),
    [
        (10.0, None, "`t_start_s=10` is 990 s before the reference's first stamp"),
        (None, 1100.0, "`t_end_s=1100` is 70 s after the reference's last stamp"),
        (971.0, None, None),  # 29 s before a 30 s span: no more than its span
        (1005.0, 1030.0, None),
    ],
)
def test_a_time_range_bound_farther_than_the_span_is_said_as_on_the_stamps_clock(
    start: float | None, end: float | None, said: str | None
) -> None:
    """`--t-start 10` (evo's --t_start, typed as seconds from the start) on stamps at
    1.3e9 s kept every pose without a word. A bound farther from the reference than its
    span (30 s here, stamps 1000 .. 1030 s) is said; one within it is the user's cut."""
    body = _body()
    body = body.replace(stamps_s=body.stamps_s + 1000.0)
    notes = evaluate(body, body, EvaluationSettings(t_start_s=start, t_end_s=end), metrics=[Ape()])[
        0
    ].notes
    far = [note for note in notes if "stamps' own clock" in note]
    if said is None:
        assert far == []
    else:
        tail = "the time range is on the stamps' own clock, not in seconds from their start"
        assert far == [f"{said} (1000.000000 .. 1030.000000 s), and cuts no pose: {tail}"]


def test_frame_indices_with_poses_left_out_inside_are_not_said_to_start_late() -> None:
    """A KITTI run read without times that lost tracking over frames 10 .. 14 of 0 .. 40 is
    evaluated on its 36 valid poses: the warning said 'the estimate lacks the reference's
    first 5 frames', advising `offset_s=5`, which shifts every pose 5 frames (a hunt; KITTI
    00 ORB with a loss over 200 frames was told `--offset 200`). Its indices still run
    from frame 0 to 40, as the reference's: nothing to say. One that starts 5 frames
    late (frames 5 .. 40) is still said to."""
    t = np.arange(41.0)
    ref = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((41, 3)),
                         orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (41, 1)),
                         stamps_are_frames=True)  # fmt: skip
    kept = (t < 10) | (t >= 15)
    lost = ref.replace(stamps_s=t[kept], positions_xyz=np.zeros((36, 3)),
                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (36, 1)))  # fmt: skip
    assert frames_by_index(ref, lost, EvaluationSettings()) is None
    late = ref.replace(stamps_s=t[:36], positions_xyz=np.zeros((36, 3)),
                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (36, 1)))  # fmt: skip
    said = frames_by_index(ref, late, EvaluationSettings())
    assert said is not None
    assert "`offset_s=5` where the estimate lacks the reference's first 5 frames" in said


def test_frame_indices_with_the_first_poses_left_out_are_not_said_to_start_late() -> None:
    """A KITTI run read without times whose first 5 of frames 0 .. 40 are left out (NaN
    rows dropped, or a tracking loss from frame 0 a report leaves out) keeps its stamps
    5 .. 40: each pose is paired with its own frame. The check counted the frames from
    its first pose, 36, and advised `offset_s=5` (KITTI 00 ORB with its first 200 rows NaN:
    `--offset 200`, shifting every pose 200 frames; a review). The frames run to the same
    last one: nothing to say. A file that starts 5 frames late, its rows 0 .. 35, and one
    that also left out frames 10 .. 14, are said to, by 5 frames."""
    t = np.arange(41.0)
    ref = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((41, 3)),
                         orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (41, 1)),
                         stamps_are_frames=True)  # fmt: skip

    def kept(stamps: Float64Array) -> PoseTrajectory:
        n = stamps.size
        return ref.replace(stamps_s=stamps, positions_xyz=np.zeros((n, 3)),
                           orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (n, 1)))  # fmt: skip

    assert frames_by_index(ref, kept(t[5:]), EvaluationSettings()) is None
    assert frames_by_index(kept(t[5:]), ref, EvaluationSettings()) is None  # the reference's
    late, gap = t[:36], t[:36][(t[:36] < 10) | (t[:36] >= 15)]
    for stamps in (late, gap):
        said = frames_by_index(ref, kept(stamps), EvaluationSettings())
        assert said is not None
        assert "`offset_s=5` where the estimate lacks the reference's first 5 frames" in said


def test_evaluate_gives_a_refused_metric_in_its_place_when_asked() -> None:
    """``refused="return"``: a metric refused on these trajectories (an RPE delta longer
    than the run, TUM's protocol under an alignment) is its ValidationError in its place,
    the others computed on one preparation, its warning said once; by default each is
    raised, the settings before any work. ``report`` had a second public function beside
    ``evaluate`` for this (``evaluate_with_refusals``; a review): one entry point."""
    ref, late = _walk(20, frames=True), _walk(15, frames=True)
    a_minute = Rpe(pairs=(PairSettings(delta=60.0, delta_unit="f"),))
    tum = Rpe(pairs=(PairSettings(protocol="tum"),))
    with pytest.warns(DataWarning, match="frame indices") as said:
        done = evaluate(ref, late, metrics=[a_minute, Ape(), a_minute], refused="return")
    assert len(said) == 1
    refused, computed, again = done
    assert isinstance(computed, EvaluationResult)
    assert computed.counts["matched"] == 15
    assert isinstance(refused, ValidationError)
    assert isinstance(again, ValidationError)
    assert str(again) == str(refused)
    assert "gave no pose pair" in str(refused)
    with pytest.warns(DataWarning), pytest.raises(ValidationError, match="gave no pose pair"):
        evaluate(ref, late, metrics=[Ape(), a_minute])
    aligned = EvaluationSettings(align="se3")
    with pytest.warns(DataWarning):
        kept, tum_refused = evaluate(ref, late, aligned, metrics=[Ape(), tum], refused="return")
    assert isinstance(kept, EvaluationResult)
    assert isinstance(tum_refused, ValidationError)
    with pytest.raises(ValidationError, match="protocol 'tum'"):  # before any work: no warning
        evaluate(ref, late, aligned, metrics=[Ape(), tum])
    with pytest.raises(
        ValidationError, match="Expected `refused` as 'raise' or 'return', got 'no'"
    ):
        evaluate(ref, late, metrics=[Ape()], refused="no")  # type: ignore[call-overload]
