"""The error of an association that found no pair: both time spans, the settings, a fix.

:func:`~robot_msgs.evaluation.association.associate` raises it. It says why no stamps
met (spans apart, gaps too long, a tolerance too tight) and what to try, naming the
stamp units of :mod:`robot_msgs.evaluation.stamp_units` where they look wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from robot_msgs.errors import AssociationError
from robot_msgs.evaluation.stamp_units import (
    counted_frames,
    other_stamp_unit,
    smaller_stamp_unit,
    stamp_text,
)
from robot_msgs.report.text import counted

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory


#: ``interpolate``: the side whose stamps are kept, the side resampled there.
_SIDES = ("estimate", "reference")


def _duration(seconds: float) -> str:
    """Say a long duration in the unit a person reads it in.

    Examples
    --------
    >>> _duration(6837065.7), _duration(7200.0), _duration(90.0)
    ('79.1 days', '2 h', '90 s')
    """
    for unit, size in (("days", 86400.0), ("h", 3600.0), ("min", 60.0)):
        if seconds >= 2.0 * size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def _no_match(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    method: str,
    max_diff: float,
    offset: float,
    max_gap: float | None = None,
) -> AssociationError:
    """Build the error for an association without a single pair: spans, settings, a suggestion.

    The offset is said among the settings only when one was given: ``offset_s=0`` is no
    setting to a caller that offers none (``robot-msgs traj``, which was told "--offset 0
    s"); the suggestion names it, and the command line says where the flag is.
    """
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    e0, e1 = float(estimate.stamps_s[0]) + offset, float(estimate.stamps_s[-1]) + offset
    # KITTI read without its times file is stamped by frame index: "spans 0.000000 ..
    # 4540.000000 s" and "median intervals are 1 s" said seconds of frames.
    u = " frames" if reference.stamps_are_frames and estimate.stamps_are_frames else " s"
    said_offset = offset != 0
    text = (
        f"No pose pairs found with `sync={method!r}`, `max_diff_s={max_diff!r}`{u}"
        + (f", `offset_s={offset!r}`{u}" if said_offset else "")
        + f": reference spans {stamp_text(r0)} .. {stamp_text(r1)}{u} "
        f"({counted(len(reference), 'pose')}), estimate{' + offset' if said_offset else ''} spans "
        f"{stamp_text(e0)} .. {stamp_text(e1)}{u} ({counted(len(estimate), 'pose')}). "
    )
    if e1 < r0 - max_diff or e0 > r1 + max_diff:
        # a giant offset was advised for ms beside seconds, and for frame indices (reviews)
        other = other_stamp_unit(reference, estimate) or counted_frames(reference, estimate)
        if other is not None:
            said = other.text()
            text += f"{said[0].upper()}{said[1:]}. Otherwise: "
        apart = abs(r0 - e0)
        longer = max(r1 - r0, e1 - e0, 1.0)
        if apart > 10.0 * longer:  # two recordings, not one with a shifted clock (79 days)
            text += (
                f"The time spans do not overlap and start {_duration(apart)} apart, "
                f"{apart / longer:.3g} times the longer one's duration: check that both "
                "files hold the same run. If they do and only the clocks differ, "
            )
        else:
            text += "The time spans do not overlap: if the clocks differ, "
        text += (
            f"the offset (`offset_s=`) is {stamp_text(r0 - (e0 - offset))}{u} if both recordings "
            "started together (reference start - estimate start); the doctor "
            "(`diagnose()`) estimates it from the motion"
        )
    elif method.startswith("interpolate") and max_gap is not None:
        kept, resampled = ("reference", "estimate") if "estimate" in method else _SIDES
        text += (
            f"The {kept} stamps inside the {resampled} span all fall in {resampled} gaps "
            f"longer than `max_gap_s={max_gap:g}` s: allow longer gaps (`max_gap_s=`) or use "
            "`sync='nearest'`"
        )
    else:
        # A side of one pose has no interval: "nan s (estimate)" was said of it.
        intervals = [
            f"{traj.median_step_s:g}{u} ({whose})" if len(traj) > 1 else f"none ({whose}: 1 pose)"
            for whose, traj in (("reference", reference), ("estimate", estimate))
        ]
        text += (
            "The spans overlap but no stamps are close enough: raise `max_diff_s=`; "
            f"the median intervals are {intervals[0]} and {intervals[1]}"
        )
        unit = smaller_stamp_unit(reference, estimate)
        text += "" if unit is None else f"; {unit.hint()}"
        other = other_stamp_unit(reference, estimate)
        text += "" if other is None else f"; {other.text()}"
    if u == " frames":
        text += (
            ". The stamps are frame indices (KITTI files read without their times files): "
            "the offset and the tolerance count frames; give the times files for seconds"
        )
    return AssociationError(text)
