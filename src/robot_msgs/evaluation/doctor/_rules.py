"""The doctor's thresholds, its lists of kinds, and the small helpers its checks share.

Each threshold is stated, with why, in :mod:`robot_msgs.evaluation.doctor`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.evaluation.pipeline import SCALE_NOTED

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from robot_msgs.compare.diagnosis import Finding
    from robot_msgs.trajectory import PoseTrajectory

#: An extrinsic rotation above this (and significant) is a warning, degrees.
EXTRINSIC_DEG = 2.0
#: An extrinsic translation above this (and significant) is a warning, metres.
EXTRINSIC_M = 0.1
_SIGNIFICANT = 3.0  # standard uncertainties
#: The kinds checked only where poses are matched in time: the clocks (``_clock``), then
#: the poses matched at the offset found (coverage, rates); matched in space, none runs.
TIMED_KINDS = ("clock_domain", "time_offset", "coverage", "rate_mismatch")
#: What the matched poses are checked for, and the names the doctor's ``_matched_checks``
#: adds to the checks as it runs them (the one list: it named them by hand a second time).
_MATCHED_KINDS = (
    "motion_mismatch",
    "inverted",
    "mirrored",
    "planar",
    "scale",
    "quaternion_order",
    "frame_extrinsic",
    "alignment",
    "worst_intervals",
)
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
    "mixed_frames": "warning",  # poses of two frames in one trajectory: likely misleading
    "same_input": "warning",  # the reference's file given again (robot_msgs.io.read_inputs)
    "coverage": "warning",  # one pose only (robot_msgs.io.read_inputs): nothing is checked
}


def not_checked(
    kinds: Iterable[str], checks: Iterable[str], findings: Iterable[Finding] = ()
) -> tuple[str, ...]:
    """Return the ``kinds`` neither in ``checks`` nor found, in their order.

    A check that was checked or found counts as done: a reader's finding (a file of one
    pose is ``coverage``) or a stop's own kind ran, listed or not. The one rule of what a
    stop names unrun and of what ``doctor`` says unrun in space (it was written twice).

    Examples
    --------
    >>> from robot_msgs.compare.diagnosis import Finding
    >>> lost = Finding(kind="coverage", severity="warning", summary="1 pose only")
    >>> not_checked(TIMED_KINDS, ["clock_domain"], [lost])
    ('time_offset', 'rate_mismatch')
    """
    done = {*checks, *(f.kind for f in findings)}
    return tuple(k for k in kinds if k not in done)


def _unrun_said(
    finding: Finding,
    checks: list[str],
    where: str = " at an offset not known",
    *,
    spatial: bool = False,
    found: Sequence[Finding] = (),
) -> Finding:
    """Return ``finding`` naming the checks of the clock and of matched poses not run.

    The one wording of the checks a stop leaves unrun: at an offset not known, timed or
    found far (:func:`._matched._untold_checks`), or, ``where`` empty, with no pose
    matched. WHY the clock's offset too: a far search refused (a second minimum, halves
    that disagree) named coverage and the rest, not ``time_offset``, which never ran
    either. ``spatial``: matched in space, the stamps' own checks (clocks, coverage,
    rates) are not named.
    Run: those in ``checks`` and the kinds ``found`` (:func:`not_checked`).
    """
    kinds = (*(() if spatial else TIMED_KINDS), *_MATCHED_KINDS)
    unrun = ", ".join(not_checked(kinds, checks, found))
    return finding.replace(summary=f"{finding.summary}; not checked{where}: {unrun}")


def _round(value: float, digits: int = 6) -> float:
    return float(f"{value:.{digits}g}")


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
#: Distances are compared only where the two sides' white noise lets one motion written
#: twice correlate at least this much (each side keeps ``1 - noise / variance`` of its
#: distances' variance): under :data:`_UNRELATED_R` by noise alone is no other sequence.
_NOISE_CEILING = 0.8
#: Less than this a second (1 cm, half a degree) is a reference standing still.
_MOVES = (0.01, math.radians(0.5))
#: A side whose positions spread no more than this many times its own noise a pose
#: stands still (noise alone spreads about once its level).
_STILL = 3.0
#: ... when the other side's motion explains less than this share of its variance
#: (Sim(3)): sparse keyframes of a real motion spread little against their steps too, but
#: follow the other side's motion.
_STILL_EXPLAINED = 0.5
#: Second differences correlating below this with the next are white noise's (-2/3),
#: not a motion's: a side's noise is the yardstick of two standing still only then.
_WHITE = -1.0 / 3.0
#: Matched poses show a side's own noise where their noise by second differences is at
#: most this many times that of the rows they span: white noise keeps its size however
#: sparsely sampled (within some 20 % over 20 poses), a motion's grows with the spacing.
_RESOLVED = 1.5
#: Steps between poses whose ranks correlate with the gaps' above this grow with the time
#: between them: a motion sampled, not white noise (:func:`._noise._steps_grow`) ...
_GROWS = 0.5
#: ... where the longest gap is at least this many times the shortest.
_GAPS_VARY = 2.0
#: Fewer pairs of matched poses than this say nothing about the motions.
_MIN_MOTIONS = 20

#: A mirrored (or inverted) fit this much better than the best rotation says an axis is flipped.
_MIRRORED_SHARE = 0.5

#: A reference whose least spread is above this share of its largest, and above
#: :data:`_PLANAR_M`, moves along all three axes (a flat estimate is then 2-D).
_PLANAR_SHARE = 0.05
_PLANAR_M = 0.01


#: Both sides stamped 0, 1, 2...: one moving this many times farther a stamp than the
#: other is frame indices at two rates (fr1_xyz's 100 and 30 Hz: 3.6), not 1 Hz seconds.
_FRAME_RATES = 2.0
