"""The doctor's checks of stamps: their units, frame indices and the time range."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AssociationError
from robot_msgs.evaluation.doctor._fit import _matched_at
from robot_msgs.evaluation.doctor._rules import _FRAME_RATES, _round
from robot_msgs.evaluation.pipeline import (
    frames_by_index,
    time_range,
)
from robot_msgs.evaluation.read_settings import MAX_STAMP_DIVISOR
from robot_msgs.evaluation.stamp_units import (
    counted_frames,
    counts_frames,
    other_stamp_unit,
    smaller_stamp_unit,
)

if TYPE_CHECKING:
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory


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
                # the times file's field, as a run's manifest and the both-sides note name
                # it: the command line says its flag (no flag was named; a review)
                f"give the {side}'s times file (`{side}_times=`)"
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
    if unit is None:  # neither side's span nor speed says another unit
        return None
    divisors = (1.0, unit.factor) if unit.side == "estimate" else (unit.factor, 1.0)
    return Finding(
        kind="stamp_units",
        severity="error",
        summary=unit.text(),
        evidence={
            "reference_span_s": _round(spans[0]),
            "estimate_span_s": _round(spans[1]),
            "factor": unit.factor if unit.side == "estimate" else 1.0 / unit.factor,
        },
        fix=_divided(divisors),
    )


def _divided(divisors: tuple[float, float]) -> dict[str, Value]:
    """Return the fix that reads each side's stamps divided by its divisor, if it can.

    WHY: "write them in seconds (divide by 1e3)" left the user to rewrite the file;
    :attr:`~robot_msgs.evaluation.ReadSettings.stamp_divisors` reads it so. None past
    nanoseconds (1e9), the setting's bound.
    """
    return {"stamp_divisors": divisors} if max(divisors) <= MAX_STAMP_DIVISOR else {}


def _in_space(finding: Finding, settings: EvaluationSettings) -> Finding:
    """Say a ``stamp_units`` error as a warning where matching in space reads no stamp of it.

    Matched in space (``sync='spatial'``) poses are paired by position: the association
    reads stamps only for its pairs' median offset, evidence
    (:func:`~robot_msgs.evaluation.spatial.associate_spatially`). WHY: rgbdslam stamped in
    ms stopped the doctor with nothing checked, where ``ape --sync spatial`` pairs it as
    in seconds (a review). Still an error where a setting reads that side's stamps (a
    factor above 1 is the estimate's, below 1 the reference's; the readers' side is not
    known): the time range cuts the reference on its clock, the alignment window picks
    the matched estimate's poses by their stamps (``ape`` finds no pose of rgbdslam in ms
    in its ``--align-window``; a review). Not ``offset_auto``: in space the offset search
    is skipped (:func:`~robot_msgs.evaluation.prepare`), so its stamps read nothing.
    """
    if settings.sync != "spatial" or finding.kind != "stamp_units" or finding.severity != "error":
        return finding
    factor = finding.evidence.get("factor")
    side = ("estimate" if factor > 1.0 else "reference") if isinstance(factor, float) else ""
    reads = {
        "reference": settings.t_start_s is not None or settings.t_end_s is not None,
        "estimate": settings.align_window_s is not None,
    }
    if reads[side] if side else any(reads.values()):
        return finding
    return finding.replace(
        severity="warning",
        summary=f"{finding.summary}; matched in space, stamps pair no poses: only what is "
        "timed on them (RPE by seconds, time windows) is off",
    )


def _slow_stamps(reference: PoseTrajectory, estimate: PoseTrajectory) -> Finding | None:
    """Find both sides stamped in ms or us (read as seconds): poses minutes apart, crawling.

    WHY: an autopilot's or embedded logger's microseconds since boot (PX4 logs them),
    written into a TUM file, read as 20 Hz poses 50 000 s apart at 1e-6 m/s; the doctor
    said "nothing found" (its unit check compares the two sides, and they agreed), and
    every time rule then worked in the wrong unit (a 0.01 s matching tolerance of 0.01
    us). Nanoseconds are the readers' (a rate below 1e-6 Hz, :mod:`robot_msgs.io.clean`).
    The rule is :func:`~robot_msgs.evaluation.stamp_units.smaller_stamp_unit`'s.
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
        fix=_divided((scale, scale)),
    )


def _counted_frames(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Finding | None:
    """Find one side stamped 0, 1, 2... (frame indices written as seconds), or both.

    One side: the association's rule
    (:func:`~robot_msgs.evaluation.stamp_units.counted_frames`); both: :func:`_frames_on_both`.
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
