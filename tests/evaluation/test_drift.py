"""KITTI devkit drift and rpg relative error: segment rules and hand-computed values."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.evaluation import RPG_SETTINGS, EvaluationSettings, kitti_drift, relative_error
from robot_msgs.evaluation.drift import kitti_segments, rpg_segments
from robot_msgs.io import read_trajectory
from robot_msgs.io.kitti import read_kitti
from robot_msgs.rotations import matrix_from_quat_xyzw
from robot_msgs.trajectory import PoseTrajectory
from tests.evaluation.metric_trajectories import quats_from_rotvecs

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare import EvaluationResult
    from robot_msgs.typing import Float64Array


def straight(n: int, *, scale: float = 1.0, rotvecs: Float64Array | None = None) -> PoseTrajectory:
    """x = k metres at stamps k seconds, k = 0 .. n - 1, optionally scaled and turned."""
    t = np.arange(float(n))
    quats = (
        np.tile([0.0, 0.0, 0.0, 1.0], (n, 1)) if rotvecs is None else quats_from_rotvecs(rotvecs)
    )
    return PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t * scale, 0 * t, 0 * t], axis=1),
        orientations_quat_xyzw=quats,
    )


def test_kitti_segment_ends_where_the_distance_first_exceeds_the_length() -> None:
    d = np.array([0.0, 1.0, 2.0, 2.0, 3.0, 3.5])
    first, last, length = kitti_segments(d, [2.0], step_frames=1)
    # Start 0 needs D > 2: frame 4 (frames 2, 3 sit exactly at 2 m); start 1 needs D > 3: frame 5.
    assert first.tolist() == [0, 1]
    assert last.tolist() == [4, 5]
    assert length.tolist() == [2.0, 2.0]


@pytest.mark.parametrize(
    ("distances", "match"),
    [
        ([0.0, math.nan, 2.0], r"Expected finite `distances_m`, got nan at index 1"),
        ([0.0, 3.0, 2.0], r"non-decreasing.*got 2\.0 after 3\.0 at index 2 - at `distances_m`"),
        ([[0.0, 1.0]], r"Expected `distances_m` of shape \(N,\), got shape \(1, 2\)"),
        ("abc", r"Expected `distances_m` as numbers, got str 'abc'"),
    ],
)
def test_segment_finders_refuse_what_is_not_a_cumulative_path(
    distances: object, match: str
) -> None:
    # NaN or falling distances gave segments ending before their start (kitti: first 2,
    # last 1); a list raised AttributeError, a 2-D array IndexError.
    with pytest.raises(ValidationError, match=match):
        kitti_segments(distances, [1.0], step_frames=1)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=match):
        rpg_segments(distances, 1.0, 0.2)  # type: ignore[arg-type]


def test_segment_finders_take_a_list_and_refuse_bad_lengths() -> None:
    # A list (from a caller without a type checker) raised AttributeError.
    path: Any = [0.0, 1.0, 2.0, 3.0]
    assert [a.tolist() for a in kitti_segments(path, [1.0], 1)] == [
        [0, 1],
        [2, 3],
        [1.0, 1.0],
    ]
    # A negative length gave segments ending one frame before they start.
    with pytest.raises(ValidationError, match=r"finite segment lengths > 0 metres, got \[-1\.0\]"):
        rpg_segments(np.arange(5.0), -1.0, 0.2)
    with pytest.raises(ValidationError, match=r"distance >= 0 metres, got 'x' - at `max_diff_m`"):
        rpg_segments(np.arange(5.0), 1.0, "x")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"sequence of segment lengths.*got 5\.0"):
        kitti_segments(np.arange(5.0), 5.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("step", [None, math.nan, math.inf, 2.5, 0])
def test_kitti_segments_refuse_a_step_that_is_no_whole_number_of_frames(step: object) -> None:
    # None raised TypeError, NaN ValueError, infinity OverflowError.
    with pytest.raises(ValidationError, match=r"whole number of frames >= 1, got .* `step_frames`"):
        kitti_segments(np.arange(6.0), [2.0], step)  # type: ignore[arg-type]


@pytest.mark.parametrize("step", [1e300, 2**63])
def test_kitti_segments_with_a_step_past_the_last_frame_start_once(step: float) -> None:
    # Whole numbers past int64 made an arange of floats, then IndexError.
    first, last, _ = kitti_segments(np.arange(6.0), [2.0], step)  # type: ignore[arg-type]
    assert (first.tolist(), last.tolist()) == ([0], [3])


def test_kitti_drift_of_a_two_percent_scale_error_by_hand() -> None:
    result = kitti_drift(straight(301), straight(301, scale=1.02))
    # 100 m segments span 101 m (20 of them: 2.02 %), 200 m ones 201 m (10: 2.01 %).
    assert result.stats["translation_pct@100m"].n == 20
    assert result.stats["translation_pct@100m"].mean == pytest.approx(2.02)
    assert result.stats["translation_pct@200m"].mean == pytest.approx(2.01)
    assert result.stats["translation_pct@300m"].n == 0
    assert math.isnan(result.stats["translation_pct@300m"].mean)
    assert result.stats["translation_pct"].mean == pytest.approx((20 * 2.02 + 10 * 2.01) / 30)
    assert result.stats["rotation_deg_per_m"].max == pytest.approx(0.0, abs=1e-12)
    assert result.counts["segments"] == 30
    assert result.units["rotation_deg_per_m@800m"] == "deg/m"
    assert result.settings["lengths_m"] == (100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0)
    assert result.settings["step_frames"] == 10
    # The pooled figure holds 100 and 200 m only: said, as a 300 m run's figure is no
    # sequence's over every length (a review).
    (note,) = result.notes
    assert note == (
        "6 of the 8 segment lengths have no segment (300, 400, 500, 600, 700, 800 m; the "
        "matched reference path is 300 m): translation_pct and rotation_deg_per_m pool "
        "the 100, 200 m segments only, as the devkit does; not comparable with a figure "
        "over every length"
    )
    assert (
        kitti_drift(straight(901), straight(901, scale=1.02), lengths_m=[100.0, 800.0]).notes == ()
    )


def test_kitti_drift_per_actual_length_is_drifts_field_by_hand() -> None:
    """kitti_drift() took lengths_m and step_frames but not per_actual_length, which
    Drift() and ``--per-actual-length`` take. By hand: a 100 m segment spans 101 m of the
    reference, the 2 % longer estimate 103.02 m; 2.02 m over the 101 m actually driven is
    2 % (200 m: 4.02 / 201), where the nominal length gave 2.02 and 2.01 %."""
    from robot_msgs.evaluation import Drift, evaluate

    ref, est = straight(301), straight(301, scale=1.02)
    result = kitti_drift(ref, est, per_actual_length=True)
    for length in (100, 200):
        assert result.stats[f"translation_pct@{length}m"].mean == pytest.approx(2.0, rel=1e-12)
    assert result.stats["translation_pct"].mean == pytest.approx(2.0, rel=1e-12)
    assert result.counts["segments"] == 30
    assert result.settings["per_actual_length"] is True
    (same,) = evaluate(ref, est, metrics=[Drift(per_actual_length=True)])
    assert result.stats == same.stats
    assert result.settings == same.settings


def test_segment_signals_have_no_integral_over_their_starts() -> None:
    # A segment's drift is no quantity over time: IAE of translation_pct@100m over its
    # starts said 9662 %·s for KITTI 00 SPTAM, whose stamps are frame indices (the pooled
    # signals had none, NaN, as Signal.of's docstring says of segments).
    kitti = kitti_drift(straight(301), straight(301, scale=1.02), lengths_m=[100.0, 200.0])
    rpg = relative_error(
        straight(101), straight(101, scale=1.01), settings=RPG_SETTINGS.replace(align="none")
    )
    for result in (kitti, rpg):
        for name, stats in result.stats.items():
            assert all(math.isnan(v) for v in (stats.iae, stats.ise, stats.itae)), name
    assert kitti.stats["translation_pct@100m"].n == 20


def test_each_protocol_names_its_result_by_the_one_map() -> None:
    """The result of ``Drift(protocol=p)`` is named ``DRIFT_METRICS[p]``, which
    ``drift_protocol`` reads back (res, the figures' titles): the map is written once."""
    from robot_msgs.evaluation import Drift, evaluate
    from robot_msgs.evaluation.settings import DRIFT_METRICS, drift_protocol

    ref, est = straight(301), straight(301, scale=1.02)
    for protocol in ("kitti", "rpg"):
        (result,) = evaluate(ref, est, metrics=[Drift(protocol=protocol)])
        assert result.metric == DRIFT_METRICS[protocol]
        assert drift_protocol(result.metric) == protocol
    assert DRIFT_METRICS == {"kitti": "kitti_drift", "rpg": "relative_error"}
    assert drift_protocol("ape") is None


def test_kitti_rotation_drift_is_degrees_per_metre_of_nominal_length() -> None:
    n = 301
    yaw = 0.001 * np.arange(n)  # the estimate turns 1 mrad per frame (per metre)
    est = straight(n, rotvecs=np.stack([0 * yaw, 0 * yaw, yaw], axis=1))
    result = kitti_drift(straight(n), est)
    assert result.stats["rotation_deg_per_m@100m"].mean == pytest.approx(math.degrees(0.101) / 100)
    assert result.stats["rotation_deg_per_m@200m"].mean == pytest.approx(math.degrees(0.201) / 200)


def test_kitti_step_frames_sets_the_segment_starts() -> None:
    result = kitti_drift(straight(301), straight(301, scale=1.02), lengths_m=[100.0], step_frames=1)
    assert result.counts["segments"] == 200  # starts 0 .. 199 reach 101 m further


def test_kitti_segments_start_every_tenth_frame_not_pose_past_a_dropped_row() -> None:
    """A KITTI file read without times is stamped by frame; its row of frame 100 dropped
    (a NaN), the starts stay on frames 0, 10, 20, ... (by hand, 1 m a frame, 100 m
    segments end 101 frames on): frame 100 starts none (no pose), and the segment from
    frame 0 would end on frame 100 (the first beyond 100 m), left out; 18 remain. Every
    10th *pose* started at frames 101, 111, ..., 191 after it: 20 segments."""

    def frames(scale: float) -> PoseTrajectory:
        whole = straight(301, scale=scale)
        kept = np.flatnonzero(whole.stamps_s != 100.0)
        return PoseTrajectory(
            stamps_s=whole.stamps_s[kept],
            positions_xyz=whole.positions_xyz[kept],
            orientations_quat_xyzw=whole.orientations_quat_xyzw[kept],
            stamps_are_frames=True,
        )

    result = kitti_drift(frames(1.0), frames(1.02), lengths_m=[100.0])
    series = result.series["translation_pct"]
    assert series.stamps_s.tolist() == [*range(10, 100, 10), *range(110, 200, 10)]
    assert series.pairs is not None
    # End frames 111 .. 191 and 211 .. 291: rows one fewer, past the dropped one.
    assert series.pairs[:, 1].tolist() == [*range(110, 200, 10), *range(210, 300, 10)]
    assert result.counts["segments"] == 18
    assert series.errors == pytest.approx(np.full(18, 2.02))  # 101 m at 2 % too long


def frame_stamped(whole: PoseTrajectory, kept: np.ndarray) -> PoseTrajectory:
    """The rows ``kept`` of ``whole``, stamped by frame as a KITTI file read without times."""
    return PoseTrajectory(
        stamps_s=whole.stamps_s[kept],
        positions_xyz=whole.positions_xyz[kept],
        orientations_quat_xyzw=whole.orientations_quat_xyzw[kept],
        stamps_are_frames=True,
    )


def test_kitti_drift_cut_by_time_is_the_devkits_on_the_cut_file() -> None:
    """A KITTI file without times cut with --t-start 3 (frames 3 .. 300): the starts are
    frames 3, 13, 23, ..., the devkit's on a file holding those rows (every 10th row from
    its first), as with a times file; the file's frames 10, 20, ... gave 19 segments
    instead of 20, none at frame 3."""
    curved = np.zeros((301, 3))
    curved[:, 2] = 0.002 * np.arange(301)  # a turn, so that each start has its own error
    ref, est = straight(301), straight(301, scale=1.02, rotvecs=curved)
    settings = EvaluationSettings(t_start_s=3.0)
    cut = kitti_drift(
        frame_stamped(ref, np.arange(301)),
        frame_stamped(est, np.arange(301)),
        settings=settings,
        lengths_m=[100.0],
    )
    rows = np.arange(3, 301)
    as_file = kitti_drift(
        frame_stamped(straight(298), np.arange(298)),
        frame_stamped(
            PoseTrajectory(
                stamps_s=np.arange(298.0),
                positions_xyz=est.positions_xyz[rows] - est.positions_xyz[3],
                orientations_quat_xyzw=est.orientations_quat_xyzw[rows],
            ),
            np.arange(298),
        ),
        lengths_m=[100.0],
    )
    series = cut.series["translation_pct"]
    assert series.stamps_s.tolist() == [*range(3, 200, 10)]
    assert cut.counts["segments"] == as_file.counts["segments"] == 20
    assert series.errors == pytest.approx(as_file.series["translation_pct"].errors, rel=1e-12)
    rotation = cut.series["rotation_deg_per_m"].errors
    assert rotation == pytest.approx(as_file.series["rotation_deg_per_m"].errors, rel=1e-9)


def test_kitti_drift_keeps_the_whole_files_frames_when_its_first_row_is_dropped() -> None:
    """Frame 0 dropped (a NaN), no cut: the starts stay on frames 10, 20, ... of the file
    (the one from frame 0 has no pose), not 1, 11, ...: only a t_start cut moves them."""
    result = kitti_drift(
        frame_stamped(straight(301), np.arange(1, 301)),
        frame_stamped(straight(301, scale=1.02), np.arange(1, 301)),
        lengths_m=[100.0],
    )
    assert result.series["translation_pct"].stamps_s.tolist() == [*range(10, 200, 10)]


@given(
    n=st.integers(0, 120),
    step=st.integers(1, 30),
    whole_steps=st.integers(0, 10**4),
    seed=st.integers(0, 2**32 - 1),
)
def test_kitti_segments_on_frames_without_a_gap_are_the_segments_by_pose(
    n: int, step: int, whole_steps: int, seed: int
) -> None:
    """No dropped row: frames k .. k + n - 1, k a multiple of the step, give exactly the
    segments of ``frames=None`` (every step-th pose from the first)."""
    d = np.cumsum(np.random.default_rng(seed).uniform(0.0, 2.0, n))
    lengths = [5.0, 20.0]
    by_pose = kitti_segments(d, lengths, step)
    k = whole_steps * step
    by_frame = kitti_segments(d, lengths, step, np.arange(k, k + n))
    for a, b in zip(by_pose, by_frame, strict=True):
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize(
    ("frames", "match"),
    [
        (np.array([0, 1, 2]), r"Expected 4 integer frame indices, one a pose, got int64 \(3,\)"),
        (np.array([0.0, 1, 2, 3]), "Expected 4 integer frame indices, one a pose, got float64"),
        (np.array([0, 2, 2, 3]), "Expected strictly increasing frame indices, got 2 after 2 at"),
        (np.array([-1, 0, 1, 2]), "Expected frame indices >= 0, got -1 first"),
    ],
)
def test_kitti_segments_refuses_frames_that_are_not_one_a_pose_increasing(
    frames: np.ndarray, match: str
) -> None:
    with pytest.raises(ValidationError, match=match):
        kitti_segments(np.arange(4.0), [1.0], 1, frames)


def with_blocks(traj: PoseTrajectory, blocks: np.ndarray) -> PoseTrajectory:
    """``traj`` keeping ``blocks`` as given, as read_kitti(rotations='as_given') does."""
    return PoseTrajectory(
        stamps_s=traj.stamps_s,
        positions_xyz=traj.positions_xyz,
        orientations_quat_xyzw=traj.orientations_quat_xyzw,
        rotation_matrices=blocks,
        stamps_are_frames=True,
    )


def test_kitti_drift_as_given_on_rotations_is_the_default_but_for_arccos_rounding() -> None:
    """Blocks that are rotations: the devkit's arithmetic (4x4 inverses, arccos of the
    trace) gives the quaternion kernel's translation to 1e-12 and its angle to within
    arccos's rounding near zero (sqrt(2 eps) ~ 2e-8 rad a segment, the devkit's too)."""
    n = 401
    turn = np.zeros((n, 3))
    turn[:, 2] = 0.003 * np.arange(n)
    ref = straight(n, rotvecs=turn)
    est = straight(n, scale=1.01, rotvecs=turn * 1.02)
    plain = kitti_drift(ref, est, lengths_m=[100.0, 200.0])
    given = kitti_drift(
        with_blocks(ref, matrix_from_quat_xyzw(ref.orientations_quat_xyzw)),
        with_blocks(est, matrix_from_quat_xyzw(est.orientations_quat_xyzw)),
        lengths_m=[100.0, 200.0],
    )
    assert given.counts["segments"] == plain.counts["segments"] == 50
    t, t0 = (r.series["translation_pct"].errors for r in (given, plain))
    assert t == pytest.approx(t0, rel=1e-12)
    r, r0 = (np.radians(x.series["rotation_deg_per_m"].errors) for x in (given, plain))
    lengths = np.tile([100.0, 200.0], 25)
    assert np.max(np.abs(r - r0) * lengths) < 3e-8  # radians a segment


def test_kitti_drift_as_given_clips_the_trace_past_three_and_below_minus_one() -> None:
    """arccos((tr R - 1) / 2) of an unprojected error: a block scaled by 1 + 1e-7 (trace
    3.0000003) is 0 rad, and a half turn scaled by 1 + 1e-7 (trace -1.0000001) is pi,
    not NaN: the devkit clips the cosine to [-1, 1] too (acos(max(min(d, 1), -1)))."""
    n = 301
    ref = straight(n)
    for block, angle in ((np.eye(3), 0.0), (np.diag([1.0, -1.0, -1.0]), math.pi)):
        blocks = np.tile(np.eye(3), (n, 1, 1))
        blocks[1::2] = block * (1 + 1e-7)  # odd frames; segments run 0 -> 101, 10 -> 111
        quats = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
        quats[1::2] = [0.0, 0.0, 0.0, 1.0] if angle == 0.0 else [1.0, 0.0, 0.0, 0.0]
        turned = PoseTrajectory(
            stamps_s=ref.stamps_s, positions_xyz=ref.positions_xyz, orientations_quat_xyzw=quats
        )
        result = kitti_drift(
            with_blocks(turned, blocks),
            with_blocks(ref, np.tile(np.eye(3), (n, 1, 1))),
            lengths_m=[100.0],
        )
        rotation = np.radians(result.series["rotation_deg_per_m"].errors) * 100.0
        assert result.counts["segments"] == 20
        assert rotation.tolist() == pytest.approx(np.full(20, angle), abs=1e-12)


class Drift(Protocol):
    """What kitti_drift and relative_error have in common."""

    def __call__(
        self,
        reference: PoseTrajectory,
        estimate: PoseTrajectory,
        *,
        settings: EvaluationSettings,
        lengths_m: Sequence[float],
    ) -> EvaluationResult: ...


def _base(drift: object) -> EvaluationSettings:
    """The default settings of ``drift``: rpg's for relative_error, evo's for KITTI."""
    return RPG_SETTINGS if drift is relative_error else EvaluationSettings()


@pytest.mark.parametrize("drift", [kitti_drift, relative_error])
def test_drift_fits_the_alignment_in_the_window_and_records_it(drift: Drift) -> None:
    ref = straight(301)
    est = straight(301, scale=1.02)
    est = est.replace(positions_xyz=est.positions_xyz + np.array([5.0, 0.0, 0.0]))
    settings = _base(drift).replace(align="origin", align_window_s=(10.0, 20.0))
    result = drift(ref, est, settings=settings, lengths_m=[100.0])
    assert result.settings["align_window_s"] == (10.0, 20.0)
    # origin fits on the first pose in the window: stamp 10 s, where x = 10.2 + 5 m.
    assert any(
        "origin alignment fitted on 1 pose" in n and "[-5.2, 0, 0]" in n for n in result.notes
    )


@pytest.mark.parametrize("drift", [kitti_drift, relative_error])
def test_drift_interpolation_records_its_gap_limit(drift: Drift) -> None:
    settings = _base(drift).replace(align="none", sync="interpolate", max_gap_s=3.0)
    result = drift(straight(301), straight(301), settings=settings, lengths_m=[100.0])
    assert result.settings["sync"] == "interpolate"
    assert result.settings["max_gap_s"] == 3.0


def test_kitti_drift_refuses_a_path_shorter_than_every_segment() -> None:
    with pytest.raises(
        ValidationError,
        match=r"matched reference path is 50 m, not longer than any segment length \(100, 200",
    ):
        kitti_drift(straight(51), straight(51))


def test_kitti_drift_refusing_a_path_exactly_one_segment_long_does_not_call_it_shorter() -> None:
    # 0 .. 100 m: a 100 m segment ends at the first frame beyond 100 m (the devkit's
    # lastFrameFromSegmentLength, dist[i] > dist[first] + len), and there is none. The
    # message said the 100 m path was "shorter than every segment length (100, ...)".
    with pytest.raises(ValidationError, match=r"path is 100 m, not longer than any") as caught:
        kitti_drift(straight(101), straight(101))
    message = str(caught.value)
    assert "shorter than" not in message
    assert "segment length (100, 200" in message
    assert "beyond" in message


@pytest.mark.parametrize("lengths", [[], [0.0], [float("nan")], [-100.0]])
def test_kitti_drift_refuses_bad_lengths(lengths: list[float]) -> None:
    with pytest.raises(
        ValidationError,
        match=r"Expected (float >= 0\.001|tuple\[float >= 0\.001, \.\.\.\] of length 1\.\.any), "
        r"got .*`Drift\.lengths_m",
    ):
        kitti_drift(straight(301), straight(301), lengths_m=lengths)


@pytest.mark.parametrize("drift", [kitti_drift, relative_error])
def test_drift_refuses_a_length_under_a_millimetre_naming_it(drift: Drift) -> None:
    # 1e-320 m: NumPy's "overflow encountered in divide" (1 / 1e-320 is infinite) and
    # n = 0 in every signal; any length under a millimetre measures no drift.
    for length, shown in ((1e-320, "1e-320"), (9.99e-4, "0.000999")):
        with pytest.raises(
            ValidationError,
            match=rf"Expected float >= 0\.001, got float {shown} - at `Drift\.lengths_m\[0\]`",
        ):
            drift(straight(301), straight(301), settings=_base(drift), lengths_m=[length])
    assert kitti_drift(straight(301), straight(301), lengths_m=[0.001]).counts["segments"] == 30


def test_kitti_drift_refuses_a_bad_step() -> None:
    with pytest.raises(
        ValidationError,
        match=r"Expected int >= 1 and <= 1000000000, got int 0 - at `Drift\.step_frames`",
    ) as refused:
        kitti_drift(straight(301), straight(301), step_frames=0)
    assert (refused.value.field, refused.value.reason) == (
        "Drift.step_frames",
        "expected int >= 1 and <= 1000000000, got int 0",
    )


def test_drift_refuses_a_segment_length_given_twice_naming_it() -> None:
    # Each length names its own statistics (translation_pct@100m): twice would mix them.
    with pytest.raises(
        ValidationError,
        match=r"Expected distinct segment lengths \(100 m twice\), .* `Drift\.lengths_m`",
    ):
        kitti_drift(straight(301), straight(301), lengths_m=[100.0, 200.0, 100.0])
    with pytest.raises(ValidationError, match=r"10 m twice") as refused:
        relative_error(straight(101), straight(101), lengths_m=[10.0, 10.0])
    assert refused.value.field == "Drift.lengths_m"


def test_rpg_segment_takes_the_closest_end_within_the_limit() -> None:
    d = np.array([0.0, 1.0, 2.1, 2.9, 4.0, 4.0, 7.0])
    first, last = rpg_segments(d, 2.0, 0.4)
    # 0 -> 2.1 (|0.1|), 1 -> 2.9 (0.1, beats 4.0 at 1.0), 2 -> 4.0 (first of the plateau),
    # 3 -> 4.0 (|0.9 - 2| too far? 4.0 is 1.1 away, 7.0 is 2.1: none), 4 and 5 none, 6 none.
    assert first.tolist() == [0, 1, 2]
    assert last.tolist() == [2, 3, 4]


def test_rpg_starts_without_an_end_keep_their_own_place_after_a_gap() -> None:
    # A 7 m jump (lost tracking): starts 2 and 3 find no end within 0.4 m of +2 m. rpg
    # compacts its list of ends and would pair start 2 with start 4's end; each start keeps
    # its own end here.
    d = np.array([0.0, 1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0])
    first, last = rpg_segments(d, 2.0, 0.4)
    assert first.tolist() == [0, 1, 4, 5]
    assert last.tolist() == [2, 3, 6, 7]


def test_rpg_relative_error_of_a_one_percent_scale_error_by_hand() -> None:
    result = relative_error(
        straight(101), straight(101, scale=1.01), settings=RPG_SETTINGS.replace(align="none")
    )
    # Fractions of the 100 m path: 10, 20, 30, 40, 50 m.
    assert result.settings["lengths_m"] == (10.0, 20.0, 30.0, 40.0, 50.0)
    assert result.settings["fractions"] == (0.1, 0.2, 0.3, 0.4, 0.5)
    stats = result.stats["translation_pct@10m"]
    # Starts 0..90 get 10 m (1 %), start 91 the 9 m stretch to the end (0.09 m, 0.9 %).
    assert stats.n == 92
    assert stats.max == pytest.approx(1.0)
    assert stats.min == pytest.approx(0.9)
    assert result.stats["translation@50m"].max == pytest.approx(0.5)
    assert result.units["rotation_deg_per_m@50m"] == "deg/m"
    assert result.settings["sync"] == "one_to_one"
    assert result.settings["max_diff_s"] == 0.02


def test_rpg_relative_error_uses_the_sim3_scale_by_default() -> None:
    ref = straight(101)
    ref = ref.replace(
        positions_xyz=ref.positions_xyz
        + np.stack([0 * ref.stamps_s, np.sin(ref.stamps_s / 3), 0 * ref.stamps_s], axis=1)
    )
    est = ref.replace(positions_xyz=0.5 * ref.positions_xyz + [0.0, 1.0, 0.0])  # half size, moved
    result = relative_error(ref, est, lengths_m=[10.0])
    assert result.stats["translation@10m"].max < 1e-9
    assert result.settings["align"] == "sim3"


def test_rpg_yaw_and_gravity_split_the_rotation_error() -> None:
    n = 101
    k = np.arange(n) * 0.01
    zeros = 0 * k
    turning = relative_error(
        straight(n),
        straight(n, rotvecs=np.stack([zeros, zeros, k], axis=1)),
        settings=RPG_SETTINGS.replace(align="none"),
        lengths_m=[10.0],
    )
    assert turning.stats["yaw_world_deg@10m"].median == pytest.approx(math.degrees(0.1))
    assert turning.stats["gravity_deg@10m"].max == pytest.approx(0.0, abs=1e-9)
    assert turning.stats["rotation_deg@10m"].median == pytest.approx(math.degrees(0.1))
    assert turning.stats["rotation_deg_per_m@10m"].median == pytest.approx(math.degrees(0.1) / 10)
    pitching = relative_error(
        straight(n),
        straight(n, rotvecs=np.stack([zeros, k, zeros], axis=1)),
        settings=RPG_SETTINGS.replace(align="none"),
        lengths_m=[10.0],
    )
    assert pitching.stats["gravity_deg@10m"].median == pytest.approx(math.degrees(0.1))
    assert pitching.stats["yaw_world_deg@10m"].max == pytest.approx(0.0, abs=1e-9)


def test_rpg_yaw_is_about_the_estimate_worlds_z_not_the_reference_body_z() -> None:
    # rpg's rel_yaw (compute_relative_error): the error E = (Q_i^-1 Q_j)^-1 (P_i^-1 P_j)
    # turned into the world with the unaligned estimate's R(P_j), then 'rzyx' Euler.
    # The estimate drifts 0.1 rad about its body z over 10 m; its world is pitched 90 deg
    # about y, so R(P_j) = Ry(90) Rz(k) and R(P_j) Rz(0.1) R(P_j)^T = Ry(90) Rz(0.1) Ry(-90)
    # turns 0.1 rad about Ry(90) z = world x: no yaw, 0.1 rad of gravity (roll). About the
    # reference body's z (APE's yaw_deg) the same error is 0.1 rad of yaw.
    n = 101
    k = np.arange(n) * 0.01
    drifting = straight(n, rotvecs=np.stack([0 * k, 0 * k, k], axis=1))
    half = math.sqrt(0.5)
    q = drifting.orientations_quat_xyzw
    pitched = drifting.replace(
        positions_xyz=np.stack([0 * k, 0 * k, -drifting.positions_xyz[:, 0]], axis=1),
        orientations_quat_xyzw=np.stack(  # Ry(90 deg) ⊗ q, the Hamilton product written out
            [
                half * (q[:, 0] + q[:, 2]),
                half * (q[:, 1] + q[:, 3]),
                half * (q[:, 2] - q[:, 0]),
                half * (q[:, 3] - q[:, 1]),
            ],
            axis=1,
        ),
    )
    result = relative_error(
        straight(n), pitched, settings=RPG_SETTINGS.replace(align="none"), lengths_m=[10.0]
    )
    assert "yaw_deg@10m" not in result.stats  # the reference body's yaw, which this is not
    assert result.stats["yaw_world_deg@10m"].max == pytest.approx(0.0, abs=1e-9)
    assert result.stats["gravity_deg@10m"].median == pytest.approx(math.degrees(0.1))
    (signal,) = (s for s in result.comparison.signals if s.name == "yaw_world_deg@10m")
    assert (signal.quantity, signal.unit, signal.length_m) == ("yaw_world_deg", "deg", 10.0)


def test_rpg_fractions_are_of_the_reference_path_within_the_time_range() -> None:
    # rpg_trajectory_evaluation reads its ground truth cut to start_time_sec..end_time_sec
    # (load_raw_groundtruth) and takes the fractions of that path: 50 m here, not the
    # whole 100 m, so the lengths are 5 .. 25 m (it gave 10 .. 50 m, two of them noted
    # as having too few segments).
    result = relative_error(
        straight(101),
        straight(101, scale=1.01),
        settings=RPG_SETTINGS.replace(align="none", t_start_s=20.0, t_end_s=70.0),
    )
    assert result.settings["lengths_m"] == (5.0, 10.0, 15.0, 20.0, 25.0)
    assert result.notes == ()
    # Starts 20 .. 65 m get a 5 m segment (1 % too long); from 66 m on the path ends 1 m
    # or more short, not within 0.2 x 5 m.
    assert result.stats["translation_pct@5m"].n == 46
    assert result.stats["translation_pct@5m"].max == pytest.approx(1.0)


def test_rpg_lengths_with_too_few_segments_are_noted_not_computed() -> None:
    result = relative_error(
        straight(101),
        straight(101),
        settings=RPG_SETTINGS.replace(align="none"),
        lengths_m=[10.0, 150.0],
    )
    assert result.stats["translation@150m"].n == 0
    assert result.stats["translation@10m"].n > 0
    assert "0 segment(s) of 150 m: too few, not computed (rpg)" in result.notes


def test_rpg_with_no_fitting_segment_refuses_as_kitti_does() -> None:
    # straight(101) is 100 m long (1 m a pose): no 150 m or 200 m segment fits.
    with pytest.raises(ValidationError, match=r"No rpg segment fits: .* is 100 m .*shorter"):
        relative_error(
            straight(101),
            straight(101),
            settings=RPG_SETTINGS.replace(align="none"),
            lengths_m=[150.0, 200.0],
        )
    # Fractions given, the advice is about them; lengths given, it named fractions too,
    # which cannot be given beside them.
    with pytest.raises(ValidationError, match=r"^No rpg segment fits") as by_lengths:
        relative_error(
            straight(101), straight(101), settings=RPG_SETTINGS.replace(align="none"),
            lengths_m=[150.0],
        )  # fmt: skip
    assert str(by_lengths.value).endswith("; choose shorter lengths (`lengths_m=`)")
    with pytest.raises(ValidationError, match=r"^No rpg segment fits") as by_fractions:
        # 100 m of the 100 m path within 0.1 m: start 0 alone has an end, too few.
        relative_error(
            straight(101), straight(101), settings=RPG_SETTINGS.replace(align="none"),
            fractions=[1.0], max_diff_ratio=0.001,
        )  # fmt: skip
    assert by_fractions.value.field == "Drift.fractions"
    assert str(by_fractions.value).endswith(
        "gives fewer than 2 segments; choose smaller `fractions=`, or lengths in metres "
        "(`lengths_m=`)"
    )


def test_a_reference_that_never_moves_is_refused_without_advice_no_length_can_follow() -> None:
    # "choose shorter segment lengths (`lengths_m=`)" was said of a 0 m path, which no
    # length fits; rpg's default fractions (0 m each) were blamed as if given.
    still, moving = straight(101, scale=0.0), straight(101)
    said = r"the reference never moves \(path 0 m\), so no segment of any length does"
    with pytest.raises(ValidationError, match=rf"^No KITTI segment fits: {said}"):
        kitti_drift(still, moving)
    with pytest.raises(ValidationError, match=rf"^No rpg segment fits: {said}"):
        relative_error(still, moving, settings=RPG_SETTINGS.replace(align="none"))
    with pytest.raises(ValidationError, match=rf"^No rpg segment fits: {said}"):
        relative_error(still, moving, settings=RPG_SETTINGS.replace(align="none"), lengths_m=[1.0])


def test_one_matched_pose_of_a_moving_reference_is_refused_as_such() -> None:
    # The reference travels 100 m, but only the estimate's one pose (at its 3rd) matched:
    # "the reference never moves (path 0 m)" was said of it.
    moving = straight(101)
    one = PoseTrajectory(
        stamps_s=moving.stamps_s[3:4],
        positions_xyz=moving.positions_xyz[3:4],
        orientations_quat_xyzw=moving.orientations_quat_xyzw[3:4],
    )
    said = "only 1 pose of the reference is matched with the estimate, and a segment needs 2"
    with pytest.raises(ValidationError, match=rf"^No KITTI segment fits: {said}"):
        kitti_drift(moving, one)
    settings = RPG_SETTINGS.replace(align="none")
    with pytest.raises(ValidationError, match=rf"^No rpg segment fits: {said}"):
        relative_error(moving, one, settings=settings, lengths_m=[1.0])


def test_rpg_fractions_of_a_path_under_a_centimetre_are_refused_as_such() -> None:
    # 0.1 .. 0.5 of 0.01 m truncate to 0 m (rpg truncates to centimetres): the message
    # said "expected finite segment lengths > 0 metres, got [0.0, 0.0, ...]".
    with pytest.raises(ValidationError, match=r"fractions of at least a centimetre") as caught:
        relative_error(
            straight(101, scale=1e-4), straight(101), settings=RPG_SETTINGS.replace(align="none")
        )
    assert caught.value.field == "Drift.fractions"
    assert caught.value.reason == (
        "expected fractions of at least a centimetre of the reference path (0.01 m within "
        "the time range; rpg truncates its lengths to centimetres), got 0.1, 0.2, 0.3, 0.4, "
        "0.5: lengths 0, 0, 0, 0, 0 m; give lengths in metres (`lengths_m=`)"
    )


def test_rpg_fractions_too_small_are_said_as_given_shortest_exact() -> None:
    # A subnormal fraction was said with :g's six digits, "got 0.1, 9.99989e-321"; the
    # path is 100 m, so 0.1 gives 10 m and 1e-320 truncates to 0 m.
    settings = RPG_SETTINGS.replace(align="none")
    with pytest.raises(ValidationError, match=r"got 0\.1, 1e-320: lengths 10, 0 m;"):
        relative_error(straight(101), straight(101), settings=settings, fractions=[0.1, 1e-320])


def test_one_number_for_a_sequence_of_lengths_or_fractions_is_refused_by_name() -> None:
    # kitti_drift(ref, est, lengths_m=100) raised TypeError ('int' object is not iterable).
    with pytest.raises(ValidationError, match=r"Expected `lengths_m` as a sequence of numbers"):
        kitti_drift(straight(301), straight(301), lengths_m=100)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"Expected `fractions` as a sequence of numbers"):
        relative_error(straight(101), straight(101), fractions=0.1)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"Expected `lengths_m` as a sequence of numbers"):
        relative_error(straight(101), straight(101), lengths_m=10.0)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"Expected `lengths_m` as a sequence of numbers"):
        kitti_drift(straight(301), straight(301), lengths_m=np.array(100.0))  # type: ignore[arg-type]


def test_rpg_refuses_bad_fractions_and_ratio() -> None:
    with pytest.raises(
        ValidationError, match=r"Expected float > 0, got float 0\.0 - at `Drift\.fractions\[0\]`"
    ):
        relative_error(straight(101), straight(101), fractions=[0.0])
    with pytest.raises(
        ValidationError, match=r"Expected float > 0, got float 0\.0 - at `Drift\.max_diff_ratio`"
    ):
        relative_error(straight(101), straight(101), max_diff_ratio=0.0)


# rpg_trajectory_evaluation's own relative-error code on real data (stored numbers, made by
# tests/data/make_rpg_reference.py). Angles: rpg takes arccos((tr R - 1) / 2), which loses
# digits near zero (about 2e-8 rad, 1.2e-6 deg); rotation_deg and rotation_deg_per_m are
# compared within that, everything else to 1e-9 relative.

RPG = json.loads(
    (Path(__file__).parents[1] / "data" / "rpg_reference.json").read_text(encoding="utf-8")
)
ARCCOS_DEG = 2e-6


@pytest.mark.evo_data
@pytest.mark.parametrize("case", RPG["cases"], ids=[case["id"] for case in RPG["cases"]])
def test_relative_error_agrees_with_rpg_trajectory_evaluation(
    case: dict[str, Any], evo_data: Path
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # 4-decimal quaternions renormalised
        ref, est = (
            read_trajectory(
                evo_data / case["inputs"][side]["path"], format=case["inputs"][side]["fmt"]
            )
            for side in ("reference", "estimate")
        )
    result = relative_error(ref, est, **case["ours"])
    assert result.settings["lengths_m"] == tuple(case["lengths_m"])
    assert set(result.stats) == set(case["stats"])
    for key, expected in case["stats"].items():
        got = result.stats[key]
        assert got.n == expected["num_samples"], key
        length = float(key.split("@")[1].removesuffix("m"))
        if key.startswith("rotation_deg_per_m"):
            tol = ARCCOS_DEG / length
        elif key.startswith("rotation_deg"):
            tol = ARCCOS_DEG
        else:
            tol = 1e-12 * expected["max"]
        for ours, theirs in (
            ("rms", "rmse"),
            ("mean", "mean"),
            ("median", "median"),
            ("min", "min"),
            ("max", "max"),
        ):
            assert getattr(got, ours) == pytest.approx(expected[theirs], rel=1e-9, abs=tol), (
                key,
                ours,
            )


def test_rpg_refuses_a_plane_projection_naming_the_field() -> None:
    t = np.arange(101.0)
    ref = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (101, 1)),
    )
    settings = EvaluationSettings(project_to_plane="xy")
    with pytest.raises(ValidationError, match=r"no plane projection with rpg") as caught:
        relative_error(ref, ref, lengths_m=[10.0], settings=settings)
    assert caught.value.field == "EvaluationSettings.project_to_plane"


def _devkit_means(gt: Float64Array, est: Float64Array) -> tuple[float, int, float]:
    """The devkit's calcSequenceErrors and mean, in 64-bit floats, on (N, 4, 4) poses.

    Written from evaluate_odometry.cpp's rules (segments every 10th frame of 100 .. 800 m,
    the first frame whose distance exceeds start + length, error inv(dP) dQ with numerical
    inverses, r = arccos(clamp((tr R - 1) / 2)) / length, t = |t| / length), independent
    of robot_msgs: t in %, the count, r in deg/m.
    """
    step = gt[1:, :3, 3] - gt[:-1, :3, 3]
    dist = np.concatenate(([0.0], np.cumsum(np.sqrt((step * step).sum(axis=1)))))
    t_errs, r_errs = [], []
    for first in range(0, len(gt), 10):
        for length in range(100, 900, 100):
            beyond = np.flatnonzero(dist > dist[first] + length)
            if beyond.size == 0:
                continue
            last = int(beyond[0])
            d_gt = np.linalg.inv(gt[first]) @ gt[last]
            d_est = np.linalg.inv(est[first]) @ est[last]
            error = np.linalg.inv(d_est) @ d_gt
            cos = min(max(0.5 * (np.trace(error[:3, :3]) - 1.0), -1.0), 1.0)
            r_errs.append(math.acos(cos) / length)
            t_errs.append(float(np.linalg.norm(error[:3, 3])) / length)
    return 100.0 * float(np.mean(t_errs)), len(t_errs), math.degrees(float(np.mean(r_errs)))


@pytest.mark.evo_data
@pytest.mark.parametrize("estimate", ["KITTI_00_ORB.txt", "KITTI_00_SPTAM.txt"])
def test_kitti_drift_is_the_devkits_rule_on_the_nearest_rotations(
    estimate: str, evo_data: Path
) -> None:
    """The devkit's arithmetic in 64 bits on KITTI 00, its rotation blocks projected onto
    SO(3) (by SVD), gives our figures; on the blocks as printed (off SO(3) by ~1e-7) the
    rotation figure moves by ~1e-4 relative at most, as the module docstring says."""

    def poses(name: str, *, project: bool) -> Float64Array:
        rows = np.loadtxt(evo_data / name).reshape(-1, 3, 4)
        out = np.tile(np.eye(4), (rows.shape[0], 1, 1))
        out[:, :3, :] = rows
        if project:
            u, _, vt = np.linalg.svd(rows[:, :, :3])
            out[:, :3, :3] = u @ vt
        return out

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the blocks off SO(3), reported
        ours = kitti_drift(
            read_trajectory(evo_data / "KITTI_00_gt.txt"), read_trajectory(evo_data / estimate)
        )
        as_given = kitti_drift(
            read_kitti(evo_data / "KITTI_00_gt.txt", rotations="as_given"),
            read_kitti(evo_data / estimate, rotations="as_given"),
        )
    t_pct, r_deg_per_m = ours.stats["translation_pct"], ours.stats["rotation_deg_per_m"]
    for project, tol in ((True, 1e-12), (False, 1e-4)):
        t_kit, n, r_kit = _devkit_means(
            poses("KITTI_00_gt.txt", project=project), poses(estimate, project=project)
        )
        assert t_pct.n == n
        assert t_pct.mean == pytest.approx(t_kit, rel=tol)
        assert r_deg_per_m.mean == pytest.approx(r_kit, rel=tol)
    # The blocks as printed, used as given: the devkit's arithmetic on them.
    assert as_given.stats["translation_pct"].mean == pytest.approx(t_kit, rel=1e-12)
    assert as_given.stats["rotation_deg_per_m"].mean == pytest.approx(r_kit, rel=1e-12)


@pytest.mark.evo_data
def test_kitti_drift_as_given_is_the_devkits_on_blocks_off_so3(
    evo_data: Path, tmp_path: Path
) -> None:
    """Blocks ~1e-3 off SO(3) (max |R Rᵀ - I| median 1.4e-3, as some VO methods write
    them; the figure in read_kitti's warning): with the blocks as given
    the figures are the devkit's replay on them (its angle arccos((tr R - 1) / 2) of the
    unprojected error takes in their shear: 0.003679 deg/m where the quaternions of
    the nearest rotations, the default, give 0.002533)."""
    rows = np.loadtxt(evo_data / "KITTI_00_ORB.txt").reshape(-1, 3, 4)
    s = np.random.default_rng(0).normal(size=(len(rows), 3, 3)) * 1e-3 / 2
    rows[:, :, :3] = np.matmul(rows[:, :, :3], np.eye(3) + (s + np.swapaxes(s, 1, 2)) / 2)
    noisy = tmp_path / "00.txt"
    np.savetxt(noisy, rows.reshape(-1, 12), fmt="%.9e")

    def poses(path: Path) -> Float64Array:
        out = np.tile(np.eye(4), (len(rows), 1, 1))
        out[:, :3, :] = np.loadtxt(path).reshape(-1, 3, 4)
        return out

    t_kit, n, r_kit = _devkit_means(poses(evo_data / "KITTI_00_gt.txt"), poses(noisy))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the blocks off SO(3), reported
        result = {
            rule: kitti_drift(
                read_kitti(evo_data / "KITTI_00_gt.txt", rotations=rule),
                read_kitti(noisy, rotations=rule),
            ).stats
            for rule in ("as_given", "nearest")
        }
    assert result["as_given"]["translation_pct"].n == n
    assert result["as_given"]["translation_pct"].mean == pytest.approx(t_kit, rel=1e-12)
    assert result["as_given"]["rotation_deg_per_m"].mean == pytest.approx(r_kit, rel=1e-12)
    # The nearest rotations' figure is another: a third smaller here.
    assert result["nearest"]["rotation_deg_per_m"].mean < 0.75 * r_kit


def test_complex_lengths_and_distances_are_refused_not_cut_to_their_real_parts() -> None:
    """A NumPy complex length or tolerance (np.array([100 + 5j]), np.complex128(1 + 1j))
    was taken as its real part in silence (NumPy's ComplexWarning, escaping as that class
    where warnings are errors), where a Python complex was refused."""
    d = np.arange(6, dtype=np.float64)
    with pytest.raises(ValidationError, match=r"segment lengths in metres, got .*at `lengths_m`"):
        kitti_segments(d, np.array([2.0 + 5.0j]), step_frames=2)  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match=r"segment lengths in metres, got .*at `length_m`"):
        rpg_segments(d, np.complex128(2.0 + 1.0j), 0.4)
    with pytest.raises(
        ValidationError, match=r"finite distance >= 0 metres, got .*at `max_diff_m`"
    ):
        rpg_segments(d, 2.0, np.complex128(0.4 + 1.0j))
    with pytest.raises(ValidationError, match=r"Expected `distances_m` as real numbers"):
        rpg_segments(d.astype(complex), 2.0, 0.4)


def test_complex_tensor_lengths_are_refused_not_let_out_as_torch_error() -> None:
    """float() of a torch complex scalar raises torch's RuntimeError, which escaped the
    segment rules (a NumPy complex one was refused)."""
    torch = pytest.importorskip("torch")
    d = np.arange(6, dtype=np.float64)
    with pytest.raises(ValidationError, match=r"segment lengths in metres, got .*at `lengths_m`"):
        kitti_segments(d, [torch.tensor(2.0 + 5.0j)], step_frames=2)
    with pytest.raises(
        ValidationError, match=r"finite distance >= 0 metres, got .*at `max_diff_m`"
    ):
        rpg_segments(d, 2.0, torch.tensor(0.4 + 1.0j))


@pytest.mark.evo_data
def test_per_actual_length_gives_trajectopys_rpe_per_pair_distance(evo_data: Path) -> None:
    """trajectopy 5.1.2's ``rpe()`` on KITTI 00 (``tests/data/trajectopy_rpe_reference.json``,
    made by ``tests/data/make_trajectopy_rpe_reference.py``): a pair from every pose, each
    error divided by the pair's actual path distance. The devkit's nominal length gave
    1.01441 % at 100 m against its 1.00975 % (mean pair 100.457 m), with the same 4441
    pairs. Same definition: equal to 1e-9."""
    from robot_msgs.evaluation import Drift, evaluate

    want = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "trajectopy_rpe_reference.json").read_text()
    )
    times = evo_data / "KITTI_00_gt_times.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)  # the blocks off SO(3), reported
        ref = read_kitti(evo_data / "KITTI_00_gt.txt", times_path=times)
        est = read_kitti(evo_data / "KITTI_00_ORB.txt", times_path=times)
    (result,) = evaluate(ref, est, metrics=[Drift(step_frames=1, per_actual_length=True)])
    for k, length in enumerate(want["lengths_m"]):
        t_pct = result.stats[f"translation_pct@{length:g}m"]
        r_deg_per_m = result.stats[f"rotation_deg_per_m@{length:g}m"]
        assert t_pct.n == want["n_pairs"][k]
        assert t_pct.mean == pytest.approx(want["translation_pct"][k], rel=1e-9)
        assert r_deg_per_m.mean * 100.0 == pytest.approx(want["rotation_deg_per_100m"][k], rel=1e-9)
    assert result.settings["per_actual_length"] is True


def test_seconds_give_trajectopys_rpe_per_second() -> None:
    """trajectopy 5.1.2's ``rpe()`` per second on the bundled fr1_xyz
    (``tests/data/trajectopy_rpe_seconds_reference.json``, made by
    ``tests/data/make_trajectopy_rpe_seconds_reference.py``): a pair from every reference
    pose whose stamp + 1 s is before the last, to the first pose at or after it, each
    error divided by the pair's interval. drift had no segments in seconds; the devkit's
    "beyond" rule in time ends each of fr1's 100 Hz ties a pose later. Every statistic
    to 1e-9."""
    from robot_msgs.evaluation import Drift, evaluate

    want = json.loads(
        (
            Path(__file__).resolve().parents[1] / "data" / "trajectopy_rpe_seconds_reference.json"
        ).read_text(encoding="utf-8")
    )
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    # trajectopy's matching: the estimate interpolated at the reference's stamps, gaps 10 s
    settings = EvaluationSettings(sync="interpolate_estimate", max_diff_s=0.0, max_gap_s=10.0)
    spec = Drift(lengths_s=(want["delta_s"],), step_frames=1)
    (result,) = evaluate(ref, est, settings=settings, metrics=[spec])
    for name, unit in (("translation_m_per_s", "m/s"), ("rotation_deg_per_s", "deg/s")):
        signal = result.comparison.signal(name)
        assert signal is not None
        assert signal.unit == unit
        assert signal.stats.n == want["n_pairs"]
        for statistic, value in want[name].items():
            assert getattr(signal.stats, statistic) == pytest.approx(value, rel=1e-9), statistic
    series = result.comparison.signal("translation_m_per_s@1s").series  # type: ignore[union-attr]
    assert series is not None
    assert series.pairs is not None
    stamps = result.reference.stamps_s
    interval = stamps[series.pairs[:, 1]] - stamps[series.pairs[:, 0]]
    assert interval.mean() == pytest.approx(want["mean_pair_interval_s"], rel=1e-12)
    assert result.comparison.parameters == {"lengths_s": (1.0,), "step_frames": 1}


def test_kitti_drift_takes_lengths_s_and_gives_trajectopys_rpe_per_second() -> None:
    """kitti_drift(), the one-metric wrapper, took no ``lengths_s`` (TypeError: unexpected
    keyword), though ``Drift(lengths_s=)`` with evaluate() did: the same settings now, and
    trajectopy 5.1.2's rpe() per second on fr1_xyz (the stored reference, its script
    make_trajectopy_rpe_seconds_reference.py): pairs and mean drift to 1e-9."""
    want = json.loads(
        (
            Path(__file__).resolve().parents[1] / "data" / "trajectopy_rpe_seconds_reference.json"
        ).read_text(encoding="utf-8")
    )
    ref = read_trajectory("example:fr1_xyz/groundtruth.tum")
    est = read_trajectory("example:fr1_xyz/rgbdslam.tum")
    settings = EvaluationSettings(sync="interpolate_estimate", max_diff_s=0.0, max_gap_s=10.0)
    result = kitti_drift(ref, est, settings=settings, lengths_s=[want["delta_s"]], step_frames=1)
    for name in ("translation_m_per_s", "rotation_deg_per_s"):
        assert result.stats[name].n == want["n_pairs"]
        assert result.stats[name].mean == pytest.approx(want[name]["mean"], rel=1e-9)
    assert result.comparison.parameters == {"lengths_s": (1.0,), "step_frames": 1}
    # Drift's rule, not a second one
    with pytest.raises(ValidationError, match="not both") as caught:
        kitti_drift(ref, est, lengths_s=[1.0], lengths_m=[100.0])
    assert caught.value.field == "Drift.lengths_m"
    with pytest.raises(ValidationError, match="lengths_s") as caught:
        kitti_drift(ref, est, lengths_s=1.0)  # type: ignore[arg-type]
    assert caught.value.field == "lengths_s"


def test_segments_in_seconds_end_at_or_after_by_hand() -> None:
    """Stamps 0 .. 4 s, 2 s segments: at or after ends 0 -> 2 and 1 -> 3, and starts
    none at 2 (2 + 2 is the last stamp, not before it), as trajectopy pairs; the devkit's
    beyond ends 0 -> 3 and 1 -> 4."""
    stamps = np.arange(5.0)
    first, last, _ = kitti_segments(stamps, [2.0], 1, at_or_after=True)
    assert (first.tolist(), last.tolist()) == ([0, 1], [2, 3])
    first, last, _ = kitti_segments(stamps, [2.0], 1)
    assert (first.tolist(), last.tolist()) == ([0, 1], [3, 4])


def test_segments_in_seconds_below_the_stamps_resolution_end_on_the_next_pose() -> None:
    """A length under half a unit in the last place of the stamps (TUM's 1.3e9 s: 1.2e-7 s)
    left start + length equal to the start, so "at or after" ended a segment on its own
    start: an interval of 0 s, 0/0 = NaN errors in silence (drift --seconds 1e-7 on fr1:
    783 segments, n 0). The first pose at or after start + length is after the start."""
    stamps = 1.3e9 + np.arange(5.0) * 0.01
    first, last, _ = kitti_segments(stamps, [1e-7], 1, at_or_after=True)
    assert (first.tolist(), last.tolist()) == ([0, 1, 2, 3], [1, 2, 3, 4])


def test_seconds_refusing_a_run_exactly_one_length_long_does_not_call_it_shorter() -> None:
    """0 .. 2 s and 2 s segments: none starts (start + length must be before the last
    stamp, strictly, as trajectopy's), and the message said the 2 s span was "shorter
    than every segment length (2 s)" (the metres' message was fixed so before)."""
    from robot_msgs.evaluation import Drift, evaluate

    settings = EvaluationSettings(align="none")
    spec = Drift(lengths_s=(2.0,), step_frames=1)
    with pytest.raises(ValidationError, match=r"spans 2 s, not longer than any") as caught:
        evaluate(straight(3), straight(3), settings=settings, metrics=[spec])
    assert "shorter than" not in str(caught.value)
    assert "before the last" in str(caught.value)


def test_seconds_refuse_a_reference_stamped_by_frame_index() -> None:
    """A KITTI file read without its times is stamped 0, 1, 2, ... by frame: drift
    --seconds 100 on KITTI 00 said "m/s" of errors per frame, segments of 100 frames
    (0.00902 "m/s" where the times file gives 0.0341 m/s, 358 segments of 100 s)."""
    from robot_msgs.evaluation import Drift, evaluate

    ref = PoseTrajectory(
        stamps_s=np.arange(30.0),
        positions_xyz=np.stack([np.arange(30.0), np.zeros(30), np.zeros(30)], axis=1),
        orientations_quat_xyzw=np.tile([0.0, 0.0, 0.0, 1.0], (30, 1)),
        stamps_are_frames=True,
    )
    spec = Drift(lengths_s=(5.0,), step_frames=1)
    with pytest.raises(ValidationError, match=r"stamps are frame indices") as caught:
        evaluate(ref, ref, settings=EvaluationSettings(align="none"), metrics=[spec])
    assert caught.value.field == "Drift.lengths_s"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"lengths_s": (1.0,), "lengths_m": (1.0,)}, "lengths_m"),
        ({"lengths_s": (1.0,), "per_actual_length": True}, "per_actual_length"),
        ({"lengths_s": (1.0,), "protocol": "rpg"}, "lengths_s"),
        ({"lengths_s": (1.0, 1.0)}, "lengths_s"),
    ],
)
def test_seconds_refuse_what_they_do_not_take(options: dict[str, Any], field: str) -> None:
    """Segments in seconds divide by their interval and are kitti's: the rest is refused."""
    from robot_msgs.evaluation import Drift

    with pytest.raises(ValidationError, match=rf"at `Drift.{field}`"):
        Drift(**options)
