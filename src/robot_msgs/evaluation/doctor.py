"""Before the number: what is wrong with an evaluation's setup, found and named.

:func:`diagnose` runs the checks a careful evaluator makes on a reference and an estimate
and returns a :class:`~robot_msgs.compare.Diagnosis`: one
:class:`~robot_msgs.compare.Finding` per problem, with a stable ``kind``
(:data:`~robot_msgs.compare.diagnosis.FINDING_KINDS`), a severity, its evidence and the
settings that fix or accept it. :func:`diagnose_files` reads the files first and turns
what the readers fixed (repeated or unordered stamps, non-unit quaternions, implausible
rates) into findings too. Nothing is written: the doctor never changes files.

Each check is the package's own, run once here (one road per idea):

- reading: the readers' rules (:mod:`robot_msgs.io.clean`), each warning tagged with its
  kind;
- ``same_input``: the reference's file given again, as read
  (:func:`~robot_msgs.io.read_inputs`), else its very stamps and poses
  (:func:`~robot_msgs.evaluation.pipeline.same_poses`);
- ``stamp_units``: the spans of the two trajectories a power of 1000 apart, or both
  sides' poses minutes apart and crawling where milliseconds or microseconds would be a
  robot's rate and speed; frame indices on one side, or on both with different pose
  counts (matched by index: :func:`~robot_msgs.evaluation.pipeline.frames_by_index`);
- ``clock_domain`` and ``time_offset``: :func:`~robot_msgs.evaluation.estimate_offset`,
  over the span that puts the estimate inside the reference when they hardly overlap
  (a different recording start), else over the evaluation's range (``offset_search_s``
  with ``offset_auto``, else ±1 s: a clock error) and, when its optimum lies at the edge,
  its curve is flat or it finds none, once more over every offset that keeps half the
  estimate inside the reference (a clock error of seconds); an offset is kept only when
  the poses it shares with the evaluation's offset fit better too
  (:func:`~robot_msgs.evaluation.offset.shared_costs`: not a fit over fewer poses); when
  none is told and the evaluation fits no scale, all of it once more with a scale fitted
  in the cost (a monocular or millimetre estimate), kept when the poses matched at the
  offset it finds fit with a scale off as ``scale`` says; when none is found and the
  wider search is refused because its offsets lie too far apart for the motion
  (:func:`~robot_msgs.evaluation.offset.coarse_offsets`), a warning that the clock cannot
  be timed, with the estimator's reason, and no check of poses matched at an unknown
  offset; when none is told either way, once more with the estimate's poses inverted and
  with its positions mirrored, kept when the poses matched at the offset found are then
  found ``inverted`` or ``mirrored``;
- ``rate_mismatch``: the association's counts (:func:`~robot_msgs.evaluation.associate`);
- ``coverage``: :func:`robot_msgs.runs.losses.coverage` on the estimate's stamps, gaps
  longer than 10 median intervals counted as lost;
- ``scale``, ``alignment``: :func:`~robot_msgs.evaluation.umeyama` and
  :func:`~robot_msgs.evaluation.align`;
- ``quaternion_order``: :func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_check`;
- ``frame_extrinsic``: :func:`~robot_msgs.evaluation.estimate_extrinsic`;
- ``worst_intervals``: :func:`~robot_msgs.evaluation.ape_errors` and
  :func:`~robot_msgs.evaluation.rpe_errors` over ten equal time windows, when they are
  more than float64 rounding (an RMS above 1e-12 of the positions' magnitude).

Thresholds (chosen so that the clean pairs of the evo test data give no warning, measured
in ``tests/evaluation/test_doctor.py``): an offset is a warning when it exceeds both 3
standard uncertainties and the matching tolerance ``max_diff_s`` (one found only by the
wider search is kept when the estimator notes nothing about it; one at the edge of the
widest search is a warning without a fix: the offset is unknown); a scale when it is
more than 10 % from 1; an extrinsic when it is significant at 3 standard uncertainties
and turns by more than :data:`EXTRINSIC_DEG` or moves by more than
:data:`EXTRINSIC_M` (``freiburg1_xyz`` rgbdslam has its own 1 deg, 5 cm, against its
ground truth); coverage when gaps take 5 % of the estimate's span or it covers less than
half the reference.

Cost: the offset and the extrinsic are estimated on at most :data:`MAX_ESTIMATE_POSES`
evenly spread poses (the doctor asks whether they are significant; their uncertainty
grows as ``sqrt(N / 5 000)`` beyond). Measured by ``benchmarks/bench_doctor.py``:
with all poses, ``diagnose`` took 4.4 s at 10^5 poses (offset 3.5 s, extrinsic 2.1 s
under the profiler); with the cap, see the benchmark's table. The wider offset search
is one more estimate (at most 401 offsets on 4 000 poses, or up to 4 001 on fewer for a
motion faster than 401 resolve): 0.3-0.5 s of a 1-2 s doctor on the evo test data
stamped 3-5 s late, and none on their clean pairs; 1.1 s for a 365 s estimate of a
motion that decorrelates within 0.5 s (4 000 offsets). The inverted and mirrored searches
run where no offset is told and the first is not known within :data:`_TIMED_S`: 0.3-0.4 s
on the evo test data's ROS bag and nav2 pairs, none on the TUM, EuRoC and KITTI ORB pairs.
"""

from __future__ import annotations

import math
import warnings
from collections import abc
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import SEVERITIES, Diagnosis, Finding
from robot_msgs.errors import AlignmentError, AssociationError, DataWarning, ValidationError
from robot_msgs.evaluation.alignment import align, length_units, mirrored_fit, umeyama
from robot_msgs.evaluation.ape import aligned_rmse
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.association import (
    DEFAULT_GAP_INTERVALS,
    associate,
    counted_frames,
    counts_frames,
    other_stamp_unit,
    smaller_stamp_unit,
)
from robot_msgs.evaluation.hand_eye import estimate_extrinsic
from robot_msgs.evaluation.offset import coarse_offsets, estimate_offset, shared_costs
from robot_msgs.evaluation.pipeline import (
    SCALE_NOTED,
    frames_by_index,
    match_poses,
    same_poses,
    time_range,
)
from robot_msgs.evaluation.quaternion_order import quaternion_order_check
from robot_msgs.evaluation.relations import ape_errors, rpe_errors
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings
from robot_msgs.evaluation.spatial import check_forward_pairs
from robot_msgs.evaluation.transforms import apply_transforms
from robot_msgs.rotations import (
    angle_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
    quat_xyzw_rotate,
    rotation_vector_from_matrix,
)
from robot_msgs.runs.losses import coverage
from robot_msgs.trajectory import PoseTrajectory, rows_past_limit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.compare.time_offset import TimeOffset
    from robot_msgs.evaluation.association import Association
    from robot_msgs.evaluation.read_settings import ReadSettings
    from robot_msgs.io.evaluation_inputs import InputFile
    from robot_msgs.msg import Value
    from robot_msgs.typing import Float64Array

__all__ = ["EXTRINSIC_DEG", "EXTRINSIC_M", "MAX_ESTIMATE_POSES", "diagnose", "diagnose_files"]

#: An extrinsic rotation above this (and significant) is a warning, degrees.
EXTRINSIC_DEG = 2.0
#: An extrinsic translation above this (and significant) is a warning, metres.
EXTRINSIC_M = 0.1
_SIGNIFICANT = 3.0  # standard uncertainties
#: Most estimate poses (evenly spread) the offset and extrinsic estimates are made on.
MAX_ESTIMATE_POSES = 5_000
_SCALE_OFF = SCALE_NOTED  # the same rule as the note of an SE(3) evaluation
_GAP_SHARE = 0.05
_LOW_COVERAGE = 0.5
_PARTIAL_COVERAGE = 0.9
_LOW_MATCHED = 0.5
_MATCHED_SHARE = 0.9
_WINDOWS = 10
_SHOWN_WINDOWS = 3
_DOMINANT_SHARE = 0.3
#: Errors whose root mean square is below this fraction of the positions' magnitude are
#: float64 rounding (an estimate equal to its reference once its clock is fixed gives
#: 1e-16 m): no interval is worse than another then.
_ROUNDING = 1e-12
_FIRST_SHARE = 0.1
_MIN_FIRST = 10
_WINDOW_CHANGE = 3.0
_COLLINEAR = 1e-3  # second over first singular value of the positions' spread
_READING_SEVERITY = {
    "repeated_stamps": "info",
    "non_monotonic": "warning",
    "non_unit_quaternions": "info",  # normalised; a norm off by > 1e-2 is refused
    "non_orthonormal_rotations": "warning",  # beyond rounding: projected, or used as given
    "rounded_rotations": "info",  # the rounding of KITTI's printed digits
    "non_finite": "warning",
    "no_orientation": "info",  # as the format is: only rotation errors are meaningless
    "stamp_units": "error",
    "unknown_covariances": "info",  # read as none; only NEES needs them
    "same_input": "warning",  # the reference's file given again (robot_msgs.io.read_inputs)
}


def _round(value: float, digits: int = 6) -> float:
    return float(f"{value:.{digits}g}")


def _reading_findings(reading: Sequence[Warning]) -> list[Finding]:
    """Turn the readers' tagged warnings into findings (untagged ones are left out)."""
    out = []
    try:
        given = list(reading)
    except TypeError as err:  # None or a number raised TypeError (not iterable)
        msg = f"Expected `reading` as a sequence of warnings, got {type(reading).__name__}"
        raise ValidationError(msg, field="reading", reason=msg) from err
    for warning in given:
        kind = getattr(warning, "kind", "")
        if isinstance(warning, DataWarning) and kind in _READING_SEVERITY:
            text = str(warning)
            severity = _READING_SEVERITY[kind]
            if kind == "stamp_units" and warning.fixed:
                severity = "warning"  # the reader converted them: the file is wrong, not the run
            out.append(
                Finding(
                    kind=kind,  # type: ignore[arg-type]  # checked against the table
                    severity=severity,  # type: ignore[arg-type]
                    summary=text,
                    evidence={"reader": text},
                )
            )
    return out


def _spread(*trajs: PoseTrajectory) -> tuple[PoseTrajectory, ...]:
    """Keep every k-th row of equally long trajectories, at most ``MAX_ESTIMATE_POSES``."""
    step = -(-len(trajs[0]) // MAX_ESTIMATE_POSES)
    if step <= 1:
        return trajs
    return tuple(
        t.replace(
            stamps_s=t.stamps_s[::step],
            positions_xyz=t.positions_xyz[::step],
            orientations_quat_xyzw=t.orientations_quat_xyzw[::step],
            covariance_6x6=None,
        )
        for t in trajs
    )


#: Offsets smaller than this are not found, however certain (the summary shows 0.1 ms).
_OFFSET_FLOOR_S = 1e-4

#: An offset's better fit, kept on the poses shared with the evaluation's offset by at least
#: this share, is the clock's (else the choice of poses: :func:`_timed`).
_EXPLAINED = 0.5

#: Motions whose distances and angles both correlate below this are unrelated.
_UNRELATED_R = 0.5
#: A reference quantity whose spread is under this share of its mean does not vary.
_VARIES = 0.1
#: Less than this a second (1 cm, half a degree) is a reference standing still.
_MOVES = (0.01, math.radians(0.5))
#: Fewer pairs of matched poses than this say nothing about the motions.
_MIN_MOTIONS = 20

#: A mirrored (or inverted) fit this much better than the best rotation says an axis is flipped.
_MIRRORED_SHARE = 0.5

#: A reference whose least spread is above this share of its largest, and above
#: :data:`_PLANAR_M`, moves along all three axes (a flat estimate is then 2-D).
_PLANAR_SHARE = 0.05
_PLANAR_M = 0.01
#: The flat axis, turned into the reference's axes, within about 18 deg of one of them.
_PLANAR_AXIS = 0.95


#: Both sides stamped 0, 1, 2...: one moving this many times farther a stamp than the
#: other is frame indices at two rates (fr1_xyz's 100 and 30 Hz: 3.6), not 1 Hz seconds.
_FRAME_RATES = 2.0


def _median_step(traj: PoseTrajectory) -> float:
    return float(np.median(np.diff(traj.stamps_s))) if len(traj) > 1 else math.inf


def _stamp_units(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Finding | None:
    """Find stamps in another unit on one side: frame indices, or spans a power of 1000 apart."""
    sync = settings.sync
    if reference.stamps_are_frames != estimate.stamps_are_frames and sync != "spatial":
        # As the evaluation refuses them (prepare): a KITTI file read without its times.
        side, other = (
            ("reference", "estimate") if reference.stamps_are_frames else ("estimate", "reference")
        )
        return Finding(
            kind="stamp_units",
            severity="error",
            summary=(
                f"the {side}'s stamps are frame indices (a KITTI file read without its "
                f"times file) and the {other}'s are seconds: they cannot be matched in time; "
                f"give the {side}'s times file"
            ),
            evidence={"frame_indices": side},
        )
    if sync != "spatial":
        counted = _counted_frames(reference, estimate, settings)
        if counted is not None:
            return counted
    spans = reference.duration_s, estimate.duration_s
    if min(spans) <= 0:
        return None
    if sync != "spatial":
        slow = _slow_stamps(reference, estimate)
        if slow is not None:
            return slow
    unit = other_stamp_unit(reference, estimate)
    if unit is None:
        return None
    return Finding(
        kind="stamp_units",
        severity="error",
        summary=unit.text(),
        evidence={
            "reference_span_s": _round(spans[0]),
            "estimate_span_s": _round(spans[1]),
            "factor": unit.factor if unit.side == "estimate" else 1.0 / unit.factor,
        },
    )


def _slow_stamps(reference: PoseTrajectory, estimate: PoseTrajectory) -> Finding | None:
    """Find both sides stamped in ms or us (read as seconds): poses minutes apart, crawling.

    WHY: an autopilot's or embedded logger's microseconds since boot (PX4 logs them),
    written into a TUM file, read as 20 Hz poses 50 000 s apart at 1e-6 m/s; the doctor
    said "nothing found" (its unit check compares the two sides, and they agreed), and
    every time rule then worked in the wrong unit (a 0.01 s matching tolerance of 0.01
    us). Nanoseconds are the readers' (a rate below 1e-6 Hz, :mod:`robot_msgs.io.clean`).
    The rule is :func:`~robot_msgs.evaluation.association.smaller_stamp_unit`'s.
    """
    found = smaller_stamp_unit(reference, estimate)
    if found is None:
        return None
    steps, speed, scale = found.steps_s, found.speed_m_s, found.factor
    return Finding(
        kind="stamp_units",
        severity="error",
        summary=(
            f"both trajectories' poses are {steps[0]:.3g} s and {steps[1]:.3g} s apart "
            f"(median) and the reference moves at {speed:.3g} m/s: stamps in {found.unit} "
            f"read as seconds? In seconds they are {steps[0] / scale:.3g} s and "
            f"{steps[1] / scale:.3g} s apart, at {speed * scale:.3g} m/s; write them "
            f"in seconds (divide by 1e{round(math.log10(scale))})"
        ),
        evidence={
            "reference_step_s": _round(steps[0]),
            "estimate_step_s": _round(steps[1]),
            "reference_speed_m_s": _round(speed),
            "factor": scale,
        },
    )


def _counted_frames(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Finding | None:
    """Find one side stamped 0, 1, 2... (frame indices written as seconds), or both.

    One side: the association's rule
    (:func:`~robot_msgs.evaluation.association.counted_frames`); both: :func:`_frames_on_both`.
    """
    if counts_frames(reference) and counts_frames(estimate):
        return _frames_on_both(reference, estimate, settings)
    found = counted_frames(reference, estimate)
    if found is None:
        return None
    return Finding(
        kind="stamp_units",
        severity="error",
        summary=found.text(),
        evidence={"frame_indices": found.side, "first": found.first, "last": found.last},
    )


def _frames_on_both(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Finding | None:
    """Find both sides stamped 0, 1, 2... with different pose counts: matched by index.

    KITTI files read without their times (``stamps_are_frames``): a warning, as the
    evaluation's (:func:`~robot_msgs.evaluation.pipeline.frames_by_index`), which the
    other checks follow (an estimate that stopped early is paired right). Frame indices
    written as TUM seconds at two rates (a 100 Hz reference's 3000 rows, a 30 Hz
    estimate's 788) move :data:`_FRAME_RATES` times or more apart per stamp where 1 Hz
    seconds of one robot move alike: an error, which the doctor called a monocular scale
    of 8.4 and sent to ``--align sim3`` (a review).
    """
    if len(reference) == len(estimate):
        return None
    counts: dict[str, Value] = {
        "reference_poses": len(reference),
        "estimate_poses": len(estimate),
    }
    if reference.stamps_are_frames and estimate.stamps_are_frames:
        by_index = frames_by_index(reference, estimate, settings)
        if by_index is None:  # an offset given: the frames the estimate starts late
            return None
        return Finding(
            kind="stamp_units",
            severity="warning",
            summary=by_index,
            evidence={"frame_indices": "both", **counts},
        )
    spans = reference.duration_s, estimate.duration_s
    speeds = reference.path_length_m / spans[0], estimate.path_length_m / spans[1]
    if not max(speeds) > _FRAME_RATES * min(speeds):
        return None
    return Finding(
        kind="stamp_units",
        severity="error",
        summary=(
            f"both trajectories' stamps are 0, 1, 2..., one apart, over {len(reference)} "
            f"and {len(estimate)} poses, and they move {speeds[0]:.3g} and "
            f"{speeds[1]:.3g} m a stamp: frame indices at different rates, not seconds, so "
            "matching them pairs different moments; write both files' stamps in seconds"
        ),
        evidence={
            "frame_indices": "both",
            **counts,
            "reference_m_per_stamp": _round(speeds[0]),
            "estimate_m_per_stamp": _round(speeds[1]),
        },
    )


def _in_range(
    estimate: PoseTrajectory, settings: EvaluationSettings, offset_s: float
) -> PoseTrajectory | None:
    """Return the estimate's poses the time range keeps at ``offset_s``; ``None``: none.

    The range is on the reference's clock (:func:`~robot_msgs.evaluation.pipeline.time_range`,
    as the evaluation cuts the reference); the estimate's stamps meet it moved by the
    offset.
    """
    start, end = settings.t_start_s, settings.t_end_s
    if start is None and end is None:
        return estimate
    try:
        return time_range(
            estimate,
            None if start is None else start - offset_s,
            None if end is None else end - offset_s,
            whose="the estimate",
        )[0]
    except AssociationError:
        return None


def _range_missed(
    cut: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings, offset_s: float
) -> Finding | None:
    """Say when fewer than 2 estimate poses lie in the time range, at ``offset_s``.

    The files' clocks agree (:func:`_clock_domain`): the range misses the estimate, which
    the evaluation then refuses (no pose pairs), and no clock offset is to blame.
    """
    sliced = _in_range(estimate, settings, offset_s)
    if sliced is not None and len(sliced) >= 2:
        return None
    e0, e1 = (float(estimate.stamps_s[i]) + offset_s for i in (0, -1))
    r0, r1 = float(cut.stamps_s[0]), float(cut.stamps_s[-1])
    n = 0 if sliced is None else len(sliced)
    return Finding(
        kind="coverage",
        severity="error",
        summary=f"{n} estimate pose(s) in the time range (`t_start_s=`/`t_end_s=`): the "
        f"reference there spans {r0:.3f} .. {r1:.3f} s, the estimate {e0:.3f} .. {e1:.3f} s"
        f"{_matched_at(settings.replace(offset_s=offset_s))}; choose a range the estimate "
        "covers",
        evidence={"covered_share": 0.0, "estimate_poses_in_range": n},
    )


def _overlap(reference: PoseTrajectory, estimate: PoseTrajectory, offset_s: float) -> float:
    """Share of the estimate's span inside the reference's, with ``offset_s`` applied."""
    start = max(reference.stamps_s[0], estimate.stamps_s[0] + offset_s)
    end = min(reference.stamps_s[-1], estimate.stamps_s[-1] + offset_s)
    return max(0.0, float(end - start)) / max(estimate.duration_s, 1e-12)


def _apart(reference: PoseTrajectory, estimate: PoseTrajectory, offset_s: float) -> Finding | None:
    """Say when a side of one pose and the other do not meet at all (no share of a 0 s span)."""
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    e0, e1 = (float(estimate.stamps_s[i]) + offset_s for i in (0, -1))
    if e0 <= r1 and r0 <= e1:
        return None

    def span(name: str, traj: PoseTrajectory, start: float, end: float) -> str:
        if len(traj) == 1:
            return f"the {name}'s only pose is at {start:.3f} s"
        return f"the {name} spans {start:.3f} .. {end:.3f} s"

    return Finding(
        kind="clock_domain",
        severity="error",
        summary=f"{span('estimate', estimate, e0, e1)}, {span('reference', reference, r0, r1)}: "
        "0% overlap; one pose cannot be evaluated, and is outside the other side's span",
        evidence={"overlap_share": 0.0, "reference_start_s": r0, "estimate_start_s": e0},
    )


def _clock_domain(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[Finding | None, float | None]:
    """Little overlap: find the far constant offset that lines the motion up, if any.

    Returns the finding and the offset to go on with (``None``: none found, stop).
    """
    share = _overlap(reference, estimate, settings.offset_s)
    if share >= 0.5:
        return None, settings.offset_s
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    e0, e1 = (float(estimate.stamps_s[i]) + settings.offset_s for i in (0, -1))
    low, high = sorted((r0 - e0, r1 - e1))
    relative = e0 - settings.offset_s < max(estimate.duration_s, 1.0) and r0 > 1e6
    start = (
        "the estimate is in relative time (starts at "
        f"{e0 - settings.offset_s:.3f} s), the reference in absolute time (starts at {r0:.3f} s)"
        if relative
        else f"the estimate spans {e0:.3f} .. {e1:.3f} s, the reference {r0:.3f} .. {r1:.3f} s"
    )
    evidence: dict[str, Value] = {
        "overlap_share": _round(share, 3),
        "reference_start_s": r0,
        "estimate_start_s": e0,
        "relative_time": relative,
    }
    search = settings.replace(
        offset_auto=True,
        offset_s=settings.offset_s + (low + high) / 2.0,
        offset_search_s=(high - low) / 2.0 + 1.0,
    )
    try:
        found = estimate_offset(reference, _spread(estimate)[0], search)
    except AssociationError as err:
        finding = Finding(
            kind="clock_domain",
            severity="error",
            summary=f"{start}: {share:.0%} overlap, and the motion does not tell the offset "
            f"({err}); match in space instead",
            evidence=evidence,
            fix={"sync": "spatial"},
        )
        return finding, None
    offset = found.offset_s
    evidence.update(offset_s=offset, std_s=_round(found.std_s, 3))
    cause = "a different recording start" if relative or abs(offset) > 60.0 else "a clock error"
    finding = Finding(
        kind="clock_domain",
        severity="error",
        summary=f"{start}: {share:.0%} overlap; the motion lines up at an offset of "
        f"{offset:.4f} s ± {found.std_s:.1g} s ({cause})",
        evidence=evidence,
        fix={"offset_s": round(offset, 6)},
    )
    return finding, offset


def _search(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> TimeOffset | None:
    """Estimate the offset over ``settings``' range; ``None``: static, flat or too short."""
    try:
        return estimate_offset(reference, estimate, settings.replace(offset_auto=True))
    except AssociationError:
        return None


def _wide_range(reference: PoseTrajectory, estimate: PoseTrajectory) -> tuple[float, float]:
    """Return the offsets that keep at least half the estimate's span inside the reference's.

    Beyond them :func:`_clock_domain` takes over. WHY not a multiple of the default
    half-width: a 6-8 s piece of ``freiburg1_xyz`` 5 s late was timed at -3.04 s (a wrong
    minimum of its back-and-forth motion) within ± half its span, at -4.99 s over these.
    """
    half = 0.5 * estimate.duration_s
    if half > 0.5 * reference.duration_s:
        # An estimate longer than the reference (cut to the time range): the offsets that
        # keep half the reference under the estimate. WHY: the range 10-25 s into
        # freiburg1_xyz, its estimate 12 s late, was searched over +-7.5 s and called
        # another sequence.
        half = 0.5 * reference.duration_s
        low = float(reference.stamps_s[0] - estimate.stamps_s[-1]) + half
        high = float(reference.stamps_s[-1] - estimate.stamps_s[0]) - half
        return low, high
    low = float(reference.stamps_s[0] - estimate.stamps_s[0]) - half
    high = float(reference.stamps_s[-1] - estimate.stamps_s[-1]) + half
    return low, high


def _offset_searched(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[TimeOffset | None, TimeOffset | None, str, str]:
    """Search as :func:`_offset_searched_as`, then with a scale fitted if that tells none.

    Returns the first result, the one kept, how it was found (``""``: as written) and,
    when none is kept, why the wider search was refused by its own grid (``""``: it was
    not). WHY a scale: a monocular estimate at half scale (or in millimetres) stamped 2 s
    late was called another sequence: an SE(3) fit of a scaled estimate fits no offset
    better than another, where the Sim(3) cost times it to a millisecond (a review). With
    ``offset_auto`` only when the evaluation's own search finds none: it is the one said
    to find the offset or not, and the scale then says why it refuses. Then, when
    neither tells an offset and the first is not known within :data:`_TIMED_S`, with the
    poses inverted and then mirrored (:func:`_turned_timing`).
    """
    first, kept, refused = _offset_searched_as(reference, estimate, settings)
    if _told(kept, settings) or (settings.offset_auto and first is not None):
        return first, kept, "", refused
    if settings.align not in SCALED_METHODS:
        first_scaled, scaled, _ = _offset_searched_as(
            reference, estimate, settings.replace(align="sim3")
        )
        if _told(scaled, settings) and _scaled_at(reference, estimate, settings, scaled):
            return first_scaled, scaled, _SCALED, ""
    if settings.offset_auto:
        return first, kept, "", refused
    timed = kept is not None and not (kept.flat or kept.notes) and kept.std_s < _TIMED_S
    turned = None if timed else _turned_timing(reference, estimate, settings)
    if turned is not None:
        return (*turned, "")
    return first, kept, "", refused


_SCALED = " with a scale fitted (an SE(3) fit does not time it)"
#: An offset found as written within this (one standard uncertainty, seconds), with no
#: note, is the motion's own: the poses are not timed inverted or mirrored (the evo test
#: data's clean pairs: 3-60 ms; inverted or mirrored and late, flat, none or 1 s).
_TIMED_S = 0.1


def _inverted_poses(traj: PoseTrajectory) -> PoseTrajectory | None:
    """Return each pose inverted: positions ``-Rᵀ p``, rotations ``Rᵀ``; ``None``: past bounds.

    ``None`` when a coordinate of ``-Rᵀ p`` lies past :data:`~robot_msgs.limits.POSITION_LIMIT_M`
    (up to √3 times a coordinate of ``p``): the poses are then not tried inverted. WHY: an
    estimate circling (5e149, 5e149, 0) m, turned 45° about z, made the doctor raise
    "Expected coordinates within +-1e+150 m, got float -1.098e+150 - at
    `PoseTrajectory.positions_xyz[0]`", a coordinate no file held (a review).
    """
    quats = traj.orientations_quat_xyzw
    positions = -quat_xyzw_rotate(quats, traj.positions_xyz, inverse=True)
    if rows_past_limit(positions).size:
        return None
    return traj.replace(positions_xyz=positions, orientations_quat_xyzw=quat_xyzw_conjugate(quats))


def _turned_timing(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[TimeOffset | None, TimeOffset, str] | None:
    """Time the estimate's poses inverted, then its positions mirrored; ``None``: neither.

    Kept only when the search so tells a firm offset with no note, and the poses matched
    at it are then found inverted (:func:`_inverted`) or mirrored (:func:`_mirrored`) as
    written. WHY: ``freiburg1_xyz`` rgbdslam inverted or mirrored and 0.5 s late was called
    another sequence (motion_mismatch): the offset cost fits positions by a rotation, which
    neither undoes (flat, -0.49 s ± 0.26 s: nothing said), and 0.5 s apart its back and
    forth motion correlates 0.0 and 0.26 with itself; turned back it times them to
    -0.4948 s ± 0.004 s, the offset of the same estimate 0.5 s late as written.
    """
    mirror = np.array([1.0, -1.0, 1.0])  # with any rotation: every reflection
    for how, turned, check in (
        ("inverted", _inverted_poses(estimate), _inverted),
        ("mirrored", estimate.replace(positions_xyz=estimate.positions_xyz * mirror), _mirrored),
    ):
        if turned is None:
            continue
        first, kept, _ = _offset_searched_as(reference, turned, settings)
        if kept is None or kept.notes or not _told(kept, settings):
            continue
        matching = settings.replace(offset_s=kept.offset_s, offset_auto=False, offset_search_s=None)
        try:
            pairs = associate(reference, estimate, matching)
        except AssociationError:
            continue
        if pairs.n_matched >= _MIN_MOTIONS and check(pairs.reference, pairs.estimate) is not None:
            return first, kept, f" with the poses {how} (as written they time nothing)"
    return None


def _scaled_at(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    found: TimeOffset | None,
) -> bool:
    """Say whether the poses matched at ``found`` fit with a scale off as :func:`_scale` says.

    WHY: the Sim(3) cost, tried on every pair whose SE(3) cost tells no offset, found
    ``fr2_desk_ORB.txt``'s own -2.6 ms as -4.9 ms and said so as an offset only a scale
    fitted shows, where its scale is 1.
    """
    if found is None:
        return False
    matching = settings.replace(offset_s=found.offset_s, offset_auto=False, offset_search_s=None)
    try:
        pairs = associate(reference, estimate, matching)
        s = umeyama(pairs.estimate.positions_xyz, pairs.reference.positions_xyz, with_scale=True)[2]
    except (AssociationError, AlignmentError):
        return False
    return abs(s - 1.0) > _SCALE_OFF


def _told(found: TimeOffset | None, settings: EvaluationSettings) -> bool:
    """Say whether ``found`` is a firm offset significantly away from ``settings``' own."""
    if found is None or found.flat or found.at_edge:
        return False
    floor = max(_SIGNIFICANT * found.std_s, _OFFSET_FLOOR_S)
    return abs(found.offset_s - settings.offset_s) > floor


def _offset_searched_as(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[TimeOffset | None, TimeOffset | None, str]:
    """Search the evaluation's range, wider when in doubt: the first result, and the one kept.

    And, when none is kept, the wider search's refusal if its grid was too coarse for the
    motion (:func:`~robot_msgs.evaluation.offset.coarse_offsets`), else ``""``.

    WHY wider: stamped 2-10 s late, the evo test data's pairs were called another
    sequence (motion_mismatch, matched at the wrong offset), and 1.5-3 s late the edge of
    the ±1 s search was advised as the fix (a review). An optimum at the edge, a flat cost
    curve or none found are searched again over :func:`_wide_range` (one call, at most 401
    candidates, more for a fast motion: 0.2-0.7 s on the evo test data), whose optimum is
    kept only when :func:`~robot_msgs.evaluation.estimate_offset` notes nothing about it
    (a mirrored, inverted or unscaled estimate finds a shallow one there). The one kept
    lies at the edge of its range only when that curve is not flat: the offset is then
    unknown.
    """
    spread = _spread(estimate)[0]
    first = _search(reference, spread, settings)
    if first is not None and not (first.at_edge or first.flat):
        return first, _timed(reference, spread, settings, first), ""
    low, high = _wide_range(reference, estimate)
    searched = settings.search_range_s
    wide, refused = None, ""
    if high - low > searched[1] - searched[0]:
        wider = settings.replace(
            offset_auto=True, offset_s=(low + high) / 2.0, offset_search_s=(high - low) / 2.0
        )
        try:
            wide = estimate_offset(reference, spread, wider)
        except AssociationError as err:  # its reason said when the grid is to blame
            refused = str(err) if coarse_offsets(reference, spread, wider) else ""
    if wide is not None and not wide.notes and _timed(reference, spread, settings, wide):
        return first, wide, ""
    if first is not None and not first.at_edge:
        # flat: its significance decides, as before any wider search
        return first, _timed(reference, spread, settings, first), refused
    edge = wide if wide is not None else first
    if edge is None or not edge.at_edge or edge.flat:
        return first, None, refused
    return first, _timed(reference, spread, settings, edge), refused


def _timed(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    found: TimeOffset,
) -> TimeOffset | None:
    """Return ``found`` unless the clock does not explain its better fit: then ``None``.

    The estimator's cost compares each offset on the estimate poses that meet the
    reference there, and a fit over fewer poses can be better for that alone. On the poses
    that meet it both at ``found`` and at the evaluation's offset, the fit must improve by
    at least half as much as on each offset's own poses. WHY: a 2 % scale error on a
    straight line at constant speed (whose shift in time the fit undoes as a shift in
    space) was warned as a clock off by more than 9.97 s, where the fewest poses overlap:
    on the same poses both offsets fit alike (a review).
    """
    own, shared, n = shared_costs(
        reference, estimate, settings, [settings.offset_s, found.offset_s]
    )
    gain, kept = float(own[0] - own[1]), float(shared[0] - shared[1])
    if n < _MIN_FIRST or not (math.isfinite(gain) and math.isfinite(kept)) or gain <= 0.0:
        return found  # nothing to compare on, or no better fit to explain
    return found if kept >= _EXPLAINED * gain else None


def _time_offset(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[Finding | None, float | None]:
    """Find a clock offset (:func:`_offset_searched`), significant: warning or info.

    With ``offset_auto`` the evaluation finds an offset its own search finds: an info; one
    found only wider is a warning whose fix widens ``offset_search_s``.
    """
    first, found, how, refused = _offset_searched(reference, estimate, settings)
    if found is None and refused:
        # WHY: the wider search's own refusal (its offsets too far apart for a fast
        # motion, 4 000 s long) was dropped, and the poses matched at the wrong offset
        # were called another sequence (a review): the clock is unknown, nothing matched.
        low, high = settings.search_range_s
        said = "finds none" if first is None else "ends at its edge" if first.at_edge else "is flat"
        return Finding(
            kind="time_offset",
            severity="warning",
            summary=f"the estimate's clock cannot be timed: the search over offsets "
            f"{low:+.4g} .. {high:+.4g} s {said}, and the wider one is refused: {refused}",
        ), None
    if found is None and settings.offset_auto and first is None:
        # WHY: a static reference with `offset_auto`, which the evaluation refuses ("the
        # reference is static: ... give --offset SECONDS"), was matched at offset 0 and
        # said "no pose matched ... --offset 0 s ...: raise --max-diff" (a review): the
        # evaluation's own search is refused, and nothing is matched at an offset.
        try:
            estimate_offset(reference, _spread(estimate)[0], settings)
        except AssociationError as err:
            return Finding(
                kind="time_offset",
                severity="error",
                summary=f"the offset search (`offset_auto=`) is refused, and the evaluation "
                f"with it: {err}",
            ), None
    if found is None:
        return None, settings.offset_s  # static or too short to time: nothing to say
    # Frame indices (KITTI without times) are counted in frames: "+541.0000 s" was said.
    frames = reference.stamps_are_frames and estimate.stamps_are_frames
    unit = " frames" if frames else " s"
    fitted = how
    if found.at_edge:
        unknown = _unknown_offset(found, settings, unit)
        return unknown.replace(summary=unknown.summary + fitted), settings.offset_s
    if frames:
        # Frame indices are matched whole: KITTI's ORB 541 frames late was advised
        # 540.94863, which matched nothing (a review).
        found = found.replace(offset_s=float(round(found.offset_s)))
    delta = found.offset_s - settings.offset_s
    off_by = (
        f"frame indices are off by {delta:+.0f} frames"
        if frames
        else f"clock is off by {delta:+.4f} s ± {found.std_s:.1g} s"
    ) + fitted
    # Below a tenth of a millisecond (the digit shown) no offset is worth a word: a file
    # against itself said "off by -0.0000 s ± 1e-08 s" (a review).
    floor = max(_SIGNIFICANT * found.std_s, _OFFSET_FLOOR_S)
    significant = abs(delta) > floor
    widened = first is None or abs(first.offset_s - found.offset_s) > floor
    if settings.offset_auto and how == _SCALED:
        # WHY: fr2_desk_ORB at half scale, 2 s late, `offset_auto` over ±3 s: the
        # evaluation refuses its search (an SE(3) fit times nothing), and the doctor said
        # nothing of the clock and measured the scale at offset 0: APE 0.269 m with sim3,
        # 0.0061 m at the offset (a review).
        return (
            Finding(
                kind="time_offset",
                severity="warning",
                summary="the offset search (`offset_auto=`) fits no scale and times nothing: "
                f"the evaluation refuses it; with a scale fitted the estimate's clock is off "
                f"by {delta:+.4f} s ± {found.std_s:.1g} s"
                + (_widened(first, found, settings, unit) if widened else "")
                + "; see the scale",
                evidence=_offset_evidence(found),
                fix={"offset_search_s": float(math.ceil(abs(delta)) + 1)} if widened else {},
            ),
            found.offset_s,
        )
    if settings.offset_auto and not widened:  # the evaluation finds it itself
        if not significant:
            return None, found.offset_s
        return (
            Finding(
                kind="time_offset",
                severity="info",
                summary=f"the offset search (`offset_auto=`) finds the estimate's {off_by}",
                evidence=_offset_evidence(found),
            ),
            found.offset_s,
        )
    if not significant:
        return None, settings.offset_s
    warning = abs(delta) >= settings.max_diff_s or settings.offset_auto
    fix: dict[str, Value] = {}
    if warning:
        fix = (
            {"offset_search_s": float(math.ceil(abs(delta)) + 1)}
            if settings.offset_auto
            else {"offset_s": round(found.offset_s, 6)}
        )
    return (
        Finding(
            kind="time_offset",
            severity="warning" if warning else "info",
            summary=f"the estimate's {off_by} "
            + (
                "(matched by index)"
                if frames
                else f"(matching tolerance {settings.max_diff_s:g} s)"
            )
            + (_widened(first, found, settings, unit) if widened else ""),
            evidence=_offset_evidence(found),
            fix=fix,
        ),
        found.offset_s if warning else settings.offset_s,
    )


def _widened(
    first: TimeOffset | None, found: TimeOffset, settings: EvaluationSettings, unit: str
) -> str:
    """Say why the offset was searched wider, and where (``unit``: " s" or " frames")."""
    low, high = settings.search_range_s
    what = (
        "finds none"
        if first is None
        else f"ends at its edge ({first.offset_s:+.4f}{unit})"
        if first.at_edge
        else "is flat"
    )
    wide = found.search_s
    return (
        f"; the search over offsets {low:+.4g} .. {high:+.4g}{unit} {what}: found searching "
        f"{wide[0]:+.4g} .. {wide[1]:+.4g}{unit}"
    )


def _offset_evidence(found: TimeOffset) -> dict[str, Value]:
    return {
        "offset_s": found.offset_s,
        "std_s": _round(found.std_s, 3),
        "contrast": _round(found.contrast, 3),
        "n_poses": found.n_poses,
        "search_s": found.search_s,
    }


def _unknown_offset(edge: TimeOffset, settings: EvaluationSettings, unit: str) -> Finding:
    """Say that the motion lines up best at the edge of the widest search: no fix."""
    low, high = edge.search_s
    what = "frame indices are" if unit == " frames" else "clock is"
    return Finding(
        kind="time_offset",
        severity="warning",
        summary=f"the motion lines up best at an offset of {edge.offset_s:+.4f}{unit}, the "
        f"edge of the offsets searched ({low:+.4g} .. {high:+.4g}{unit}): the estimate's "
        f"{what} off by more than {abs(edge.offset_s - settings.offset_s):.3g}{unit}, by how "
        "much unknown, or the trajectories do not belong together",
        evidence=_offset_evidence(edge),
    )


def _coverage(
    reference: PoseTrajectory, estimate: PoseTrajectory, offset_s: float
) -> Finding | None:
    stamps = estimate.stamps_s + offset_s
    step = _median_step(estimate)
    gap = DEFAULT_GAP_INTERVALS * step
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    covered = coverage(stamps, (), start_s=r0, end_s=r1, coverage_gap_s=gap)
    steps = np.diff(stamps)
    gaps = np.flatnonzero(steps > gap)
    lost = float(steps[gaps].sum())
    lost_share = lost / max(estimate.duration_s, 1e-12)
    if lost_share < _GAP_SHARE and covered >= _PARTIAL_COVERAGE:
        return None
    warning = lost_share >= _GAP_SHARE or covered < _LOW_COVERAGE
    # Frame indices are counted in frames, as the README promises (KITTI without times
    # said "gaps longer than 10 s"; a review).
    unit = " frames" if estimate.stamps_are_frames else " s"
    shown = [f"{stamps[i]:.2f}..{stamps[i + 1]:.2f}{unit}" for i in gaps[:_SHOWN_WINDOWS]]
    more = f" and {gaps.size - len(shown)} more" if gaps.size > len(shown) else ""
    where = f": {', '.join(shown)}{more}" if shown else ""
    late, early = float(stamps[0]) - r0, r1 - float(stamps[-1])
    ends = [f"starts {late:.3g}{unit} after"] if late > 0 else []
    ends += [f"ends {early:.3g}{unit} before"] if early > 0 else []
    inside = f" (no gap longer than {gap:.3g}{unit}: it {' and '.join(ends)} the reference)"
    if gaps.size:  # no count of zero gaps: the span it misses is then at its ends
        inside = (
            f"; {gaps.size} gap(s) longer than {gap:.3g}{unit} take {lost_share:.0%} "
            f"of its own{where}"
        )
    elif not ends:
        inside = ""
    return Finding(
        kind="coverage",
        severity="warning" if warning else "info",
        summary=f"the estimate covers {covered:.0%} of the reference's span{inside}; "
        "errors are of the covered part only",
        evidence={
            "covered_share": _round(covered, 4),
            "success_rate": _round(covered, 4),
            "gaps": int(gaps.size),
            "lost_s": _round(lost, 6),
            "gap_threshold_s": _round(gap, 6),
            "gap_starts_s": tuple(float(stamps[i]) for i in gaps[:20]),
            "gap_ends_s": tuple(float(stamps[i + 1]) for i in gaps[:20]),
        },
    )


def _rate_mismatch(
    reference: PoseTrajectory, estimate: PoseTrajectory, association: Association
) -> Finding | None:
    """Find the poses nearest matching loses: the slower side's poses left without a partner."""
    if association.method == "interpolate":
        return None
    shifted = estimate.stamps_s + association.offset_s
    r0, r1 = reference.stamps_s[0], reference.stamps_s[-1]
    n_est = int(((shifted >= r0) & (shifted <= r1)).sum())
    n_ref = int(((reference.stamps_s >= shifted[0]) & (reference.stamps_s <= shifted[-1])).sum())
    slower = min(n_est, n_ref)
    steps = _median_step(reference), _median_step(estimate)
    if (
        slower == 0
        or association.n_matched >= _MATCHED_SHARE * slower
        or min(steps) <= 2.0 * association.max_diff_s  # a partner within reach: not the rates
    ):
        return None
    share = association.n_matched / slower
    rates = 1.0 / steps[0], 1.0 / steps[1]
    return Finding(
        kind="rate_mismatch",
        severity="warning" if share < _LOW_MATCHED else "info",
        summary=f"{association.n_matched} of the {slower} poses of the slower side match "
        f"within {association.max_diff_s:g} s (reference {rates[0]:.3g} Hz, estimate "
        f"{rates[1]:.3g} Hz): interpolate the reference, or widen the tolerance",
        evidence={
            "matched": association.n_matched,
            "matched_share": _round(share, 3),
            "reference_inside": n_ref,
            "estimate_inside": n_est,
            "reference_rate_hz": _round(rates[0], 4),
            "estimate_rate_hz": _round(rates[1], 4),
        },
        fix={"sync": "interpolate"},
    )


def _scale(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    extrinsic: Extrinsic | None,
) -> Finding | None:
    """Find a scale far from 1: the extrinsic's when one was found, else Umeyama's on positions.

    WHY the extrinsic's: a lever arm moves the sensor's positions off the body's, and a
    fit on positions then takes part of it for scale (a 0.2 m lever arm on
    ``freiburg1_xyz``'s 0.3 m motion reads as a scale of 0.9).
    """
    if extrinsic is not None:
        s = extrinsic.scale
    else:
        try:
            s = umeyama(matched_est.positions_xyz, matched_ref.positions_xyz, with_scale=True)[2]
        except AlignmentError:
            return None
    if abs(s - 1.0) <= _SCALE_OFF:
        return None
    se3 = aligned_rmse(matched_ref, matched_est, "se3")
    sim3 = aligned_rmse(matched_ref, matched_est, "sim3")
    accepted = settings.align in SCALED_METHODS
    # A factor of 100 or 1000: metres written in cm or mm (or km), not a monocular scale.
    units = length_units(matched_ref, matched_est, s)
    unit_error = units is not None
    why = (
        f"{units}, not metres? convert it: sim3 would also hide any real scale error"
        if unit_error
        else "a monocular estimate?"
    )
    return Finding(
        kind="scale",
        severity="info" if accepted else "warning",
        summary=f"the estimate's lengths are {1.0 / s:.3g} times the reference's (Sim(3) "
        f"scale {s:.3g}; {why}): APE {se3:.3g} m with se3, {sim3:.3g} m with sim3"
        f"{_matched_at(settings)}, which hides the scale error and its drift",
        evidence={
            "scale": _round(s),
            "estimate_scale": _round(1.0 / s),
            "ape_rmse_se3_m": _round(se3),
            "ape_rmse_sim3_m": _round(sim3),
        },
        fix={} if accepted or unit_error else {"align": "sim3"},
    )


def _inverted(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find poses written inverted (the world in the camera, ``T_cw``, for ``T_wc``).

    The positions of the inverted poses, ``-Rᵀ p``, fit the reference (Sim(3)) at least
    twice as well as the poses as written. WHY: such an estimate was called a monocular
    scale of 2.69 and sent to ``--align sim3`` (0.127 m for 0.0134 m; a review).
    """
    turned = _inverted_poses(matched_est)
    if turned is None:
        return None
    try:
        as_written = aligned_rmse(matched_ref, matched_est, "sim3")
        inverted = aligned_rmse(matched_ref, turned, "sim3")
    except AlignmentError:
        return None
    if not inverted < _MIRRORED_SHARE * as_written:
        return None
    return Finding(
        kind="inverted",
        severity="error",
        summary=(
            f"the estimate's poses inverted fit the reference to {inverted:.3g} m rms "
            f"(sim3), and as written to {as_written:.3g} m: they are the world's pose in "
            "the sensor's frame (T_cw), where a trajectory is the sensor's in the world "
            "(T_wc); write each pose inverted"
        ),
        evidence={"rmse_as_written_m": _round(as_written), "rmse_inverted_m": _round(inverted)},
    )


def _unrelated(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find motions that do not follow each other: another sequence, or a wrong pairing.

    Over pairs of matched poses about a second apart, the distance travelled and the
    angle turned on each side are correlated (Pearson); a scale, a sensor frame or a
    lever arm keeps both near 1 (0.95-1.0 on the evo test pairs), another sequence
    moved into the reference's time span gave 0.02 and 0.32. WHY: that estimate was
    called a monocular scale of 26.6 and sent to ``--align sim3``, which gave 0.180 m,
    a plausible number for two unrelated trajectories (a review).
    """
    n = len(matched_ref)
    span = matched_ref.duration_s
    if n < _MIN_MOTIONS or span <= 0:
        return None
    k = max(1, round((n - 1) / span))  # rows about a second apart
    if n - k < _MIN_MOTIONS:
        return None
    first, last = np.arange(n - k), np.arange(k, n)
    moves = []
    for traj in (matched_ref, matched_est):
        q = traj.orientations_quat_xyzw
        step = traj.positions_xyz[last] - traj.positions_xyz[first]
        turn = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(q[first]), q[last]))
        moves.append((np.linalg.norm(step, axis=1), turn))
    # Only what varies along the reference can correlate: a constant speed and turn rate
    # (a circle on a test rig, a simulation) or a static recording leave noise alone, and
    # were called another sequence (a review). Each quantity that varies must disagree.
    moved, turned = (
        float(np.corrcoef(ref_side, est_side)[0, 1]) if np.std(ref_side) and np.std(est_side)
        else math.nan
        for ref_side, est_side in zip(*moves, strict=True)
    )  # fmt: skip
    varies = [
        float(np.mean(ref_side)) > floor
        and float(np.std(ref_side)) > _VARIES * float(np.mean(ref_side))
        for ref_side, floor in zip(moves[0], _MOVES, strict=True)
    ]
    said = [r for r, v in zip((moved, turned), varies, strict=True) if v]
    if not said or not all(r < _UNRELATED_R for r in said):  # NaN (no motion): unsure
        return None
    return Finding(
        kind="motion_mismatch",
        severity="error",
        summary=(
            f"the estimate's motion does not follow the reference's: over {n - k} pairs of "
            f"matched poses {k} rows apart, the distances travelled correlate {moved:.2f} "
            f"and the angles turned {turned:.2f} (a scale or a sensor frame keeps both near "
            "1): another sequence, or a wrong pairing of files"
        ),
        evidence={"distance_correlation": _round(moved, 3), "angle_correlation": _round(turned, 3)},
    )


def _mirrored(matched_ref: PoseTrajectory, matched_est: PoseTrajectory) -> Finding | None:
    """Find positions that fit far better mirrored than rotated: a flipped axis.

    WHY: an estimate with one axis flipped (y down in a y-up world, a left-handed frame)
    was called a monocular scale of 1.59 and sent to ``--align sim3`` (APE 0.146 m for
    the 0.0135 m of the same estimate unflipped), or not seen at all (a review).
    """
    proper, mirrored = mirrored_fit(matched_est.positions_xyz, matched_ref.positions_xyz)
    if not mirrored < _MIRRORED_SHARE * proper:
        return None
    return Finding(
        kind="mirrored",
        severity="error",
        summary=(
            f"the estimate's positions fit the reference mirrored to {mirrored:.3g} m rms, "
            f"where the best rotation and scale leave {proper:.3g} m: one of its axes is "
            "flipped (a left-handed frame, or two axes swapped), which no alignment undoes; "
            "write the estimate in the reference's right-handed axes"
        ),
        evidence={"rmse_rotated_m": _round(proper), "rmse_mirrored_m": _round(mirrored)},
    )


def _planar(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    settings: EvaluationSettings,
    rotation: Float64Array,
) -> Finding | None:
    """Find an estimate flat along one of its axes against a reference that is not.

    WHY: a 2-D estimate (z written as 0) against 3-D ground truth gave an APE of
    0.0856 m where the same estimate in the plane gives 0.0133 m, and the doctor said
    nothing (a review); ``project_to_plane`` compares the two in the plane.
    """
    if settings.project_to_plane is not None:
        return None
    est = matched_est.positions_xyz
    flat = [k for k in range(3) if est[0, k] == est[:, k].min() == est[:, k].max()]
    if len(flat) != 1:
        return None
    ref = matched_ref.positions_xyz
    spread = np.sqrt(np.linalg.eigvalsh(np.cov(ref, rowvar=False)))
    if not spread[0] > max(_PLANAR_SHARE * spread[-1], _PLANAR_M):
        return None
    axis = "xyz"[flat[0]]
    # The projection is made in the reference's axes, after the alignment: the estimate's
    # flat axis turned by the fitted rotation names the plane (a y-down camera's flat y
    # was sent to xz, where xy fits; a review), or none when it lies between two axes.
    normal = np.abs(rotation[:, flat[0]] if settings.align != "none" else np.eye(3)[flat[0]])
    along = int(np.argmax(normal))
    plane = "xyz".replace("xyz"[along], "") if normal[along] > _PLANAR_AXIS else None
    where = (
        f"compare the two in the reference's {plane} plane"
        if plane
        else "its plane lies between the reference's axes: no axis plane compares the two"
    )
    return Finding(
        kind="planar",
        severity="warning",
        summary=(
            f"the estimate's {axis} is {est[0, flat[0]]:.6g} m at every pose, where the "
            f"reference moves along all three axes (its least spread {spread[0]:.3g} m): a "
            f"2-D estimate, whose APE then counts the reference's height; {where}"
        ),
        evidence={"flat_axis": axis, "reference_least_spread_m": _round(float(spread[0]))},
        fix={"project_to_plane": plane} if plane else {},
    )


def _extrinsic(
    matched_ref: PoseTrajectory, matched_est: PoseTrajectory
) -> tuple[Finding | None, Extrinsic | None]:
    """Find a significant sensor-to-body extrinsic; also return it when it is a warning."""
    try:
        x = estimate_extrinsic(*_spread(matched_ref, matched_est), with_scale=True, refuse=False)
    except AlignmentError:
        return None, None
    rotvec = np.degrees(rotation_vector_from_matrix(x.rotation[None])[0])
    angle = float(np.linalg.norm(rotvec))
    dist = float(np.linalg.norm(x.translation_m))
    std_deg = float(np.nanmax(x.std_deg)) if np.isfinite(x.std_deg).any() else math.inf
    std_m = float(np.nanmax(x.std_m)) if np.isfinite(x.std_m).any() else math.inf
    turned = angle > max(EXTRINSIC_DEG, _SIGNIFICANT * std_deg)
    moved = dist > max(EXTRINSIC_M, _SIGNIFICANT * std_m)
    if not (turned or moved):
        return None, None
    evidence: dict[str, Value] = {
        "rotation_vector_deg": tuple(_round(v) for v in rotvec),
        "angle_deg": _round(angle),
        "translation_m": tuple(_round(v) for v in x.translation_m),
        "std_deg": tuple(_round(v, 3) for v in x.std_deg),
        "std_m": tuple(_round(v, 3) for v in x.std_m),
        "rms_m": _round(x.rms_m, 4),
        "rms_deg": _round(x.rms_deg, 4),
        "unobservable": x.unobservable,
    }
    if x.unobservable:
        return Finding(
            kind="frame_extrinsic",
            severity="info",
            summary=f"the estimate may be a sensor frame ({angle:.3g} deg, {dist:.3g} m from "
            f"the body) but the motion leaves {', '.join(x.unobservable)} undetermined",
            evidence=evidence,
        ), None
    t = x.translation_m
    return Finding(
        kind="frame_extrinsic",
        severity="warning",
        summary=f"the estimate is a sensor frame on the reference's body: X turns {angle:.3g} "
        f"deg ± {std_deg:.1g} and moves ({t[0]:.3f}, {t[1]:.3f}, {t[2]:.3f}) m ± {std_m:.1g} "
        "(reference = S estimate X)",
        evidence=evidence,
        fix={"transform_right": x.transform_right()},
    ), x


def _matched_at(settings: EvaluationSettings) -> str:
    """Say the clock offset the poses were matched at, if any: APE figures depend on it.

    ``ape`` with the same flags gave other figures (0.00975 m against the doctor's 0.0079
    m with sim3 on fr1_xyz's ORB keyframes) until given the offset the doctor found.
    """
    if settings.offset_s == 0.0:
        return ""
    return f" (poses matched at an offset of {settings.offset_s:.6g} s: `offset_s=`)"


def _alignment(
    matched_ref: PoseTrajectory,
    matched_est: PoseTrajectory,
    method: str,
    settings: EvaluationSettings,
) -> Finding | None:
    spread = matched_ref.positions_xyz - matched_ref.positions_xyz.mean(axis=0)
    sv = np.linalg.svd(spread, compute_uv=False)
    if sv[0] == 0 or sv[1] / sv[0] < _COLLINEAR:
        return Finding(
            kind="alignment",
            severity="warning",
            summary="the reference positions are (nearly) collinear: the rotation about "
            "their line is not determined by an alignment on positions",
            evidence={"singular_values_m": tuple(_round(v) for v in sv)},
            fix={"align": "origin"},
        )
    n = len(matched_ref)
    first = max(_MIN_FIRST, int(_FIRST_SHARE * n))
    if first >= n:
        return None
    fitting = EvaluationSettings(align=method)  # type: ignore[arg-type]
    try:
        all_fit = align(matched_ref, matched_est, settings=fitting)[0]
        first_fit = align(matched_ref, matched_est, settings=fitting.replace(n_align=first))[0]
    except AlignmentError as err:
        return Finding(
            kind="alignment",
            severity="warning",
            summary=f"the alignment on the first {first} poses is degenerate: {err}",
            evidence={"n_align": first},
        )
    rmse_all = float(np.sqrt(np.mean(ape_errors(matched_ref, all_fit) ** 2)))
    rmse_first = float(np.sqrt(np.mean(ape_errors(matched_ref, first_fit) ** 2)))
    if not rmse_first > _WINDOW_CHANGE * rmse_all:
        return None
    return Finding(
        kind="alignment",
        severity="info",
        summary=f"the fit changes with its window: APE {rmse_all:.3g} m fitted on all "
        f"{n} poses, {rmse_first:.3g} m fitted on the first {first} (drift shows only in "
        f"the second){_matched_at(settings)}",
        evidence={
            "ape_rmse_all_m": _round(rmse_all),
            "ape_rmse_first_m": _round(rmse_first),
            "n_first": first,
        },
    )


def _worst_intervals(matched_ref: PoseTrajectory, aligned: PoseTrajectory) -> Finding | None:
    stamps = matched_ref.stamps_s
    n = stamps.size
    if n < 2 * _WINDOWS:
        return None
    edges = np.linspace(stamps[0], stamps[-1], _WINDOWS + 1)
    ape_sq = ape_errors(matched_ref, aligned) ** 2
    pairs = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    rpe_sq = rpe_errors(matched_ref, aligned, pairs) ** 2
    parts = []
    evidence: dict[str, Value] = {}
    rounding = _ROUNDING * float(np.abs(matched_ref.positions_xyz).max())
    # Frame indices (KITTI without its times) were said as seconds, "0.0..454.0 s" (a review).
    frames = matched_ref.stamps_are_frames
    unit, digits, since = ("frames", 0, "frame") if frames else ("s", 1, "time")
    for name, sq, t in (("ape", ape_sq, stamps), ("rpe", rpe_sq, stamps[1:])):
        total = float(sq.sum())
        if total <= sq.size * rounding * rounding:  # a product: ** raises past 1e154
            continue
        window = np.clip(np.searchsorted(edges, t, side="right") - 1, 0, _WINDOWS - 1)
        shares = np.bincount(window, weights=sq, minlength=_WINDOWS) / total
        order = np.argsort(shares)[::-1][:_SHOWN_WINDOWS]
        if shares[order[0]] < _DOMINANT_SHARE:
            continue
        shown = [
            f"{edges[i] - edges[0]:.{digits}f}..{edges[i + 1] - edges[0]:.{digits}f} {unit} "
            f"({shares[i]:.0%})"
            for i in order
        ]
        parts.append(f"{name.upper()} {', '.join(shown)}")
        evidence[f"{name}_window_starts_s"] = tuple(float(edges[i]) for i in order)
        evidence[f"{name}_window_ends_s"] = tuple(float(edges[i + 1]) for i in order)
        evidence[f"{name}_shares"] = tuple(_round(float(shares[i]), 3) for i in order)
    if not parts:
        return None
    return Finding(
        kind="worst_intervals",
        severity="info",
        summary=(
            f"share of the mean square error by {since} since {edges[0]:.{3 * (not frames)}f} "
            f"{'' if frames else 's'}".rstrip()
            + ": "
            + "; ".join(parts)
        ),
        evidence=evidence,
    )


def diagnose(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    reading: Sequence[Warning] = (),
    reference_name: str = "",
    estimate_name: str = "",
) -> Diagnosis:
    """Run every check on ``estimate`` against ``reference`` and report what is wrong.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test, as read; neither is modified.
    settings : EvaluationSettings, optional
        The settings the evaluation would use (its time range cuts the reference, as
        the evaluation's does, and the estimate's poses stamped outside it at the offset
        are left out of the overlap and coverage; its transforms are applied first, its
        offset, sync, tolerance and alignment are the starting point of the checks).
    reading : sequence of Warning
        The warnings reading the two files gave (:func:`diagnose_files` passes them):
        the tagged :class:`~robot_msgs.errors.DataWarning` s become findings.
    reference_name, estimate_name : str
        Labels of the inputs, kept in the diagnosis.

    Returns
    -------
    Diagnosis
        The findings, most serious first, and the kinds checked.

    Raises
    ------
    AssociationError
        No reference pose in the time range (``t_start_s``/``t_end_s``), as the evaluation
        refuses it (:func:`~robot_msgs.evaluation.prepare`).
    ValidationError
        A trajectory with no poses: there is nothing to diagnose.
        ``spatial_pairs="first"``: the extrinsic, quaternion-order and worst-interval
        checks compare the motion between matched poses, which needs pairs that run
        forward on both sides (:func:`~robot_msgs.evaluation.spatial.check_forward_pairs`).

    Examples
    --------
    >>> t = np.arange(0.0, 30.0, 0.05)
    >>> turn = np.stack([0.4 * np.sin(t), 0.3 * np.cos(0.7 * t), 0.5 * np.sin(0.3 * t)], 1)
    >>> from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
    >>> ref = PoseTrajectory(
    ...     stamps_s=t + 1e9, positions_xyz=np.stack([np.cos(t), np.sin(2 * t), 0.1 * t], 1),
    ...     orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(turn)))
    >>> diagnose(ref, ref.replace(stamps_s=t + 1e9 + 0.3)).kinds()
    ('time_offset',)
    """
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    settings = EvaluationSettings() if settings is None else settings
    check_argument("settings", settings, EvaluationSettings)
    check_forward_pairs(settings, "the doctor")
    for side, trajectory in (("reference", reference), ("estimate", estimate)):
        if len(trajectory) == 0:
            msg = f"Cannot diagnose: the {side} trajectory has no poses"
            raise ValidationError(msg, field=side, reason="has no poses")
    # The evaluation's time range, cut where the evaluation cuts it (prepare): refused as
    # ape refuses it when no reference pose is left.
    cut = time_range(reference, settings.t_start_s, settings.t_end_s)[0]
    findings = _reading_findings(reading)
    said = any(f.kind == "same_input" for f in findings)  # as the file was read
    if not said and same_poses(reference, estimate):  # every error is zero; checked on
        findings.append(
            Finding(
                kind="same_input",
                severity="warning",
                summary="the estimate's stamps and poses are the reference's (its file "
                "copied?): every error is zero",
                evidence={"poses": len(reference)},
            )
        )
    checks: list[str] = ["same_input", "stamp_units", "clock_domain"]
    found = [f for f in (_stamp_units(reference, estimate, settings),) if f is not None]
    if any(f.kind == "stamp_units" for f in findings):
        found = [f for f in findings if f.kind == "stamp_units" and f.severity == "error"]
    else:
        findings += found
    estimate = apply_transforms(estimate, settings)
    # A warning (frame indices matched by index) leaves the stamps usable: checked on.
    # The files' stamps are checked whole, the evaluation's slice of them from here on.
    if all(f.severity != "error" for f in found):
        if len(cut) >= 2 and len(estimate) >= 2:
            findings += _time_checks(reference, estimate, settings, checks, cut)
        elif settings.sync != "spatial":  # one pose: no motion, but its stamp may miss
            apart = _apart(cut, estimate, settings.offset_s)
            findings += [] if apart is None else [apart]
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: order[f.severity])
    return Diagnosis(
        reference=reference_name,
        estimate=estimate_name,
        findings=tuple(findings),
        checks=tuple(checks),
    )


def _time_checks(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    checks: list[str],
    cut: PoseTrajectory,
) -> list[Finding]:
    """Check clocks and matching, then what the matched poses show.

    The clocks are the files' (``reference`` whole); the rest is the evaluation's slice,
    the reference ``cut`` to the time range.
    """
    out: list[Finding] = []
    if settings.sync == "spatial":  # stamps unused: nothing to say about clocks and rates
        try:
            association = match_poses(cut, estimate, settings)
        except AssociationError as err:
            return [Finding(kind="clock_domain", severity="error", summary=str(err))]
        return _matched_checks(association, settings, checks)
    domain, offset = _clock_domain(reference, estimate, settings)
    if domain is not None:
        out.append(domain)
    if offset is None:
        return out
    reference = cut
    missed = _range_missed(reference, estimate, settings, offset)
    if missed is not None:
        return [*out, missed]
    if domain is None:
        checks.append("time_offset")
        shifted, offset = _time_offset(reference, estimate, settings)
        if shifted is not None:
            out.append(shifted)
        if offset is None:  # the clock cannot be timed: no pose is matched right
            return out
    settings = settings.replace(offset_s=offset, offset_auto=False, offset_search_s=None)
    checks += ["coverage", "rate_mismatch"]
    sliced = _in_range(estimate, settings, settings.offset_s)
    gaps = _coverage(reference, estimate if sliced is None else sliced, settings.offset_s)
    if gaps is not None:
        out.append(gaps)
    try:
        association = associate(reference, estimate, settings)
    except AssociationError as err:
        out.append(
            Finding(
                kind="clock_domain",
                severity="error",
                summary=f"no pose matched: {err}",
                fix={"sync": "spatial"},
            )
        )
        return out
    rate = _rate_mismatch(reference, estimate, association)
    if rate is not None:
        out.append(rate)
    if association.n_matched < _MIN_FIRST:
        return out
    out += _matched_checks(association, settings, checks)
    return out


def _matched_checks(
    association: Association, settings: EvaluationSettings, checks: list[str]
) -> list[Finding]:
    """Check the matched poses: scale, quaternion order, extrinsic, alignment, intervals."""
    out: list[Finding] = []
    ref, est = association.reference, association.estimate
    checks += ["scale", "quaternion_order", "frame_extrinsic", "alignment", "worst_intervals"]
    method = settings.align if settings.align != "none" else "se3"
    try:
        aligned, fitted = align(ref, est, settings=settings.replace(align=method))
    except AlignmentError as err:
        out.append(
            Finding(kind="alignment", severity="warning", summary=f"the alignment fails: {err}")
        )
        return out
    for kind, check in (
        ("motion_mismatch", _unrelated),
        ("inverted", _inverted),
        ("mirrored", _mirrored),
    ):
        checks.append(kind)
        wrong = check(ref, est)
        if wrong is not None:  # no scale, extrinsic or fit means anything then
            return [wrong]
    checks.append("planar")
    planar = _planar(ref, est, settings, fitted.rotation)
    if planar is not None:
        out.append(planar)
    mix_up = _quaternion_order(ref, est)
    x = None
    if mix_up is not None:
        out.append(mix_up)
    else:
        extrinsic, x = _extrinsic(ref, est)
        if extrinsic is not None and settings.transform_right_auto:
            extrinsic = extrinsic.replace(severity="info", fix={})  # asked for: estimated
        if extrinsic is not None:
            out.append(extrinsic)
    scale = _scale(ref, est, settings, x)
    if scale is not None:
        out.append(scale)
        if settings.align == "none":
            method = "sim3"
            aligned = align(ref, est, settings=settings.replace(align=method))[0]
    fit = _alignment(ref, est, method, settings)
    if fit is not None:
        out.append(fit)
    worst = _worst_intervals(ref, aligned)
    if worst is not None:
        out.append(worst)
    return out


def _quaternion_order(ref: PoseTrajectory, est: PoseTrajectory) -> Finding | None:
    text = quaternion_order_check(ref, est)
    if not text:
        return None
    return Finding(kind="quaternion_order", severity="warning", summary=text)


def diagnose_files(
    inputs: Sequence[InputFile],
    settings: EvaluationSettings | None = None,
    *,
    strict: bool = False,
    geo_origin: tuple[float, float, float] | None = None,
    crs: str | None = None,
    reading: ReadSettings | None = None,
) -> Diagnosis:
    """Read a reference and an estimate (:func:`~robot_msgs.io.read_inputs`) and diagnose them.

    What the readers fix (and would warn about) becomes findings instead of warnings,
    and so do their notes (:func:`~robot_msgs.io.clean.reading_notes`);
    ``strict``, ``geo_origin`` and ``crs`` are :func:`~robot_msgs.io.read_inputs`'s,
    ``reading`` the reading rules (repeated stamps, KITTI rotation blocks; default
    :class:`~robot_msgs.evaluation.ReadSettings`'s).

    Raises
    ------
    ValidationError
        Not exactly two inputs.
    FormatError, FileNotFoundError
        As :func:`~robot_msgs.io.read_inputs`.
    """
    from robot_msgs.evaluation.read_settings import ReadSettings  # noqa: PLC0415
    from robot_msgs.io.clean import reading_notes  # noqa: PLC0415
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs  # noqa: PLC0415

    # None raised TypeError (no len()), [None, None] AttributeError (no .path).
    given: object = inputs  # from callers without a type checker, anything
    listed = isinstance(given, abc.Sequence) and not isinstance(given, str | bytes)
    count = len(given) if isinstance(given, abc.Sequence) and listed else None
    if count != 2:
        got = type(given).__name__ if count is None else f"{count} inputs"
        msg = f"Expected a reference and an estimate, got {got}"
        raise ValidationError(msg, field="inputs", reason=msg)
    for name, item in zip(("inputs[0]", "inputs[1]"), inputs, strict=True):
        check_argument(name, item, InputFile)
    with reading_notes() as notes, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DataWarning)
        rules = ReadSettings() if reading is None else reading
        reference, estimate = read_inputs(
            inputs,
            strict=strict,
            geo_origin=geo_origin,
            crs=crs,
            repeated_stamps=rules.rule_for(""),
            kitti_rotations=rules.kitti_rotations,
        )
    said = [
        w.message
        for w in caught
        if isinstance(w.message, DataWarning) and w.message.kind in _READING_SEVERITY
    ]
    # A TF id written backwards (robot_msgs.io.tf) waits for the diagnosis: an "inverted"
    # finding says it with the fit's evidence, and the warning would say it twice.
    turned = [w for w in caught if getattr(w.message, "kind", "") == "tf_inverted"]
    for w in caught:  # anything else is passed on as it came
        if w.message not in said and w not in turned:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    diagnosis = diagnose(
        reference,
        estimate,
        settings,
        reading=[*said, *notes],
        reference_name=inputs[0].label,
        estimate_name=inputs[1].label,
    )
    for w in turned if "inverted" not in diagnosis.kinds() else ():
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return _tf_chains_turned(diagnosis, inputs)


def _tf_chains_turned(diagnosis: Diagnosis, inputs: Sequence[InputFile]) -> Diagnosis:
    """Say an inverted estimate read from a TF chain as the chain named child first.

    WHY: ``/tf:base_link.odom`` is the world's pose in the robot's frame; the doctor
    found it inverted and advised writing each pose inverted, where the fix is the id
    named parent first, ``/tf:odom.base_link`` (a review).
    """
    from robot_msgs.io.tf import is_tf_id, parse_tf_id  # noqa: PLC0415

    topic = inputs[1].topic
    if topic is None or not is_tf_id(topic) or "inverted" not in diagnosis.kinds():
        return diagnosis
    tf_topic, parent, child, static = parse_tf_id(topic)
    turned = f"{tf_topic}:{child}.{parent}" + ("" if static == "/tf_static" else f":{static}")
    findings = tuple(
        f.replace(
            summary=f.summary.replace(
                "write each pose inverted",
                f"the TF chain is {child} in {parent}'s frame: name the world first, {turned}",
            )
        )
        if f.kind == "inverted"
        else f
        for f in diagnosis.findings
    )
    return diagnosis.replace(findings=findings)
