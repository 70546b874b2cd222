"""Stamps that look written in another unit than seconds, or as frame indices.

A trajectory's stamps are read as seconds. Three mistakes make them something else, and
each has its test here, said with its fix:

:func:`other_stamp_unit`
    one side's span a power of 1000 longer than the other's, and its speed as many times
    slower: that side in ms, us or ns (:class:`OtherUnit`).
:func:`counted_frames`
    one side stamped 0, 1, 2... (:func:`counts_frames`), frame indices written as
    seconds, beside a side in seconds (:class:`CountedFrames`).
:func:`smaller_stamp_unit`
    both sides' poses seconds apart and the reference crawling: both in ms or us
    (:class:`SmallerUnit`).

The doctor names what they find; an association that matches nothing, or few, says it
beside its clock advice (:mod:`robot_msgs.evaluation.association`).
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from robot_msgs.trajectory import PoseTrajectory

__all__ = [
    "ROBOT_SPEEDS_M_S",
    "CountedFrames",
    "OtherUnit",
    "SmallerUnit",
    "counted_frames",
    "counts_frames",
    "other_stamp_unit",
    "smaller_stamp_unit",
]


class SmallerUnit(NamedTuple):
    """Stamps that look written in a smaller unit than seconds (:func:`smaller_stamp_unit`).

    ``unit`` is ``"ms"`` or ``"us"``, ``factor`` the seconds a stamp counts as (1e3,
    1e6); ``steps_s`` the reference's and the estimate's median steps and
    ``speed_m_s`` the reference's mean speed, as read (in seconds).
    """

    unit: str
    factor: float
    steps_s: tuple[float, float]
    speed_m_s: float

    def hint(self) -> str:
        """Say it in a clause an association message ends with.

        Examples
        --------
        >>> SmallerUnit("ms", 1e3, (50.0, 33.0), 0.0003).hint()
        'or the stamps are in ms, not seconds (the poses are 50 s and 33 s apart, the \
reference moves at 0.0003 m/s; in seconds: 0.05 s and 0.033 s, 0.3 m/s)'
        """
        (ref, est), s, speed = self.steps_s, self.factor, self.speed_m_s
        return (
            f"or the stamps are in {self.unit}, not seconds (the poses are {ref:.3g} s and "
            f"{est:.3g} s apart, the reference moves at {speed:.3g} m/s; in seconds: "
            f"{ref / s:.3g} s and {est / s:.3g} s, {speed * s:.3g} m/s)"
        )


class OtherUnit(NamedTuple):
    """One side's stamps in another unit than the other's (:func:`other_stamp_unit`).

    ``side`` is ``"reference"`` or ``"estimate"``, the one in the smaller unit
    (``unit``: ``"ms"``, ``"us"``, ``"ns"`` or a power of ten); ``factor`` the seconds a
    stamp of it counts (a power of 1000); ``spans_s`` the reference's and the estimate's
    spans as read; ``speeds_m_s`` their speeds (path over span) as read, which named the
    unit, or ``None`` where a side does not move (the spans named it).
    """

    side: str
    unit: str
    factor: float
    spans_s: tuple[float, float]
    speeds_m_s: tuple[float, float] | None = None

    def text(self) -> str:
        """Say it with the fix.

        Examples
        --------
        >>> print(OtherUnit("estimate", "ms", 1e3, (26.6, 26563.0)).text())
        the estimate spans 26563 s and the reference 26.6 s (a factor of 1e+03): the \
estimate's stamps look like ms, not seconds; write them in seconds (divide by 1e3)
        >>> print(OtherUnit("reference", "ms", 1e3, (4e5, 1.0), (5e-4, 0.5)).text())
        the reference spans 400000 s and the estimate 1 s, and moves 1000 times slower \
(0.0005 m/s against 0.5 m/s): the reference's stamps look like ms, not seconds; write them \
in seconds (divide by 1e3)
        """
        other = "estimate" if self.side == "reference" else "reference"
        longer, shorter = max(self.spans_s), min(self.spans_s)
        spans = f"the {self.side} spans {longer:.6g} s and the {other} {shorter:.6g} s"
        if self.speeds_m_s is None:
            said = f"{spans} (a factor of {self.factor:.0e})"
        else:
            slow, fast = sorted(self.speeds_m_s)
            times = fast / slow  # at least √1000: whole times, or a power past 1e7
            shown = f"{times:.0f}" if times < 1e7 else f"{times:.3g}"
            said = (
                f"{spans}, and moves {shown} times slower ({slow:.3g} m/s against {fast:.3g} m/s)"
            )
        return (
            f"{said}: the {self.side}'s stamps look like {self.unit}, not seconds; write them "
            f"in seconds (divide by 1e{round(math.log10(self.factor))})"
        )


def other_stamp_unit(reference: PoseTrajectory, estimate: PoseTrajectory) -> OtherUnit | None:
    """Say whether one side's stamps look like another unit: spans a power of 1000 apart.

    A span a power of 1000 (within a factor of about 3) longer than the other's raises
    the question; the speeds (paths over spans) answer it: stamps in a unit ``1000**k``
    times smaller make that side move ``1000**k`` times slower, whatever spans the two
    cover (:func:`_slower_by`). A side less than ``√1000`` times slower than the other,
    both moving, is stamped in seconds too; a side that does not move leaves the spans
    to name the unit. The doctor names it; an association that matches nothing says it
    before its clock advice, and one that matches little in its note.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(100) * 0.1
    >>> walk = PoseTrajectory(stamps_s=t, positions_xyz=np.c_[t, 0 * t, 0 * t],
    ...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (100, 1)))
    >>> other_stamp_unit(walk, walk.replace(stamps_s=t * 1e3))[:3]
    ('estimate', 'ms', 1000.0)
    >>> other_stamp_unit(walk, walk.replace(stamps_s=t * 2)) is None
    True
    >>> piece = walk.replace(stamps_s=t[:2], positions_xyz=walk.positions_xyz[:2],
    ...                      orientations_quat_xyzw=walk.orientations_quat_xyzw[:2])
    >>> other_stamp_unit(walk, piece) is None  # 0.1 s of a 9.9 s walk, as fast
    True
    """
    if len(reference) < 2 or len(estimate) < 2:
        return None
    spans = reference.duration_s, estimate.duration_s
    if not (min(spans) > 0 and math.isfinite(max(spans))):
        return None
    ratio = math.log10(spans[1]) - math.log10(spans[0])  # a quotient overflowed (1 / 5e-324)
    side = "estimate" if ratio > 0 else "reference"
    speeds = (reference.path_length_m / spans[0], estimate.path_length_m / spans[1])
    slower = _slower_by(speeds, side)
    k = round(ratio / 3.0)
    if k == 0 or abs(ratio - 3 * k) > 0.5:
        k = _piece_of(ratio, slower)
        if k == 0:
            return None
    if slower is not None:
        # WHY the speeds: a reference in ms beside a 1 s piece in seconds spans 4e5 times
        # the piece (nearest 1e6), and was said to look like us (a review); it moves
        # 1000 times slower.
        by_speed = round(slower / 3.0)
        if by_speed <= 0:
            return None
        # WHY not the speeds alone: a monocular estimate at scale 0.01 stamped in ms moves
        # 1e5 times slower over a span 1e3 times as long, and was said to look like us (a
        # review): a piece stretches the spans, a scale the speeds; the unit is the one
        # nearest both (the speeds' on a tie).
        span_k = abs(k)
        k = min(
            (by_speed, span_k),
            key=lambda j: abs(abs(ratio) - 3 * j) + abs(slower - 3 * j),
        )
    if 3 * abs(k) > sys.float_info.max_10_exp:
        # WHY: spans 1e-308 s against 4 s (a fuzzed association) asked 10**(3 * 103) as a
        # float: an OverflowError escaped; no unit past float64 is meant.
        return None
    unit = {1: "ms", 2: "us", 3: "ns"}.get(abs(k), f"1e-{3 * abs(k)} s")
    factor = float(10 ** (3 * abs(k)))
    if _meets_only_as_given(reference, estimate, side, factor):
        return None
    moving = None if slower is None else (float(speeds[0]), float(speeds[1]))
    return OtherUnit(side, unit, factor, spans, moving)


def _meets_only_as_given(
    reference: PoseTrajectory, estimate: PoseTrajectory, side: str, factor: float
) -> bool:
    """Whether ``side``'s stamps meet the other's as given and not once divided by ``factor``.

    Then the stamps are seconds on one clock, and the speeds differ by a length's unit (a
    piece in mm, a reference in km), not a time's. WHY: a 1 s piece in mm of an hour's
    reference in seconds (epoch stamps, 1.7e9 s) was said "the reference's stamps look
    like ms" (a review): divided by 1e3 they lie at 1.7e6 s, far from the piece's.
    Meeting as given takes the other's span to cover at least one of ``side``'s median
    intervals (a motion of ``side``'s own there): a reference in ms from 0 (an hour,
    10 Hz: intervals of 100 as given) beside a 1 s piece in seconds on a clock starting
    at 5 000 s, past the hour, met it within one interval and was named nothing, where
    the piece's clock at 100 s was named ms (a review). Not a count of ``side``'s poses
    within the span: 3 of them named a 1.5 s piece in mm of a 1 Hz reference ms again.
    """
    longer, other = (reference, estimate) if side == "reference" else (estimate, reference)
    first, last = float(longer.stamps_s[0]), float(longer.stamps_s[-1])
    start, end = float(other.stamps_s[0]), float(other.stamps_s[-1])
    overlap = first <= end and start <= last
    as_given = overlap and end - start >= longer.median_step_s
    return as_given and not (first / factor <= end and start <= last / factor)


def _piece_of(ratio: float, slower: float | None) -> int:
    """Return the powers of 1000 that a longer side's unit is off by, from its speed; 0: none.

    ``ratio``: the decades one side's span exceeds the other's (``log10``, signed as
    :func:`other_stamp_unit`'s), ``slower``: the decades that side moves slower
    (:func:`_slower_by`). The side moving a power of 1000 slower (within a factor of about
    3) whose span is at least that power (within as much) longer: stamps in a smaller
    unit, beside a piece of its time in seconds. WHY: a reference in ms beside a 20 s
    piece of it in seconds spans 2e4 times the piece, no power of 1000, and the doctor
    said nothing of the units (a review), where a 1 s piece (4e5, nearest 1e6) was named:
    a piece shortens one span by any factor, so the spans alone cannot give the power.
    """
    if slower is None:
        return 0
    k = round(slower / 3.0)
    if k <= 0 or abs(slower - 3 * k) > 0.5 or abs(ratio) < 3 * k - 0.5:
        return 0
    return k if ratio > 0 else -k


def _slower_by(speeds: tuple[float, float], side: str) -> float | None:
    """Return how many decades slower ``side`` moves than the other (``log10``); ``None``.

    ``speeds``: the reference's and the estimate's paths over their spans, m/s. ``None``
    where a side does not move (or its speed is not finite): the speeds say nothing.
    WHY: a 1 s piece of a 400 s reference, its very poses, was called "the reference's
    stamps look like ms, not seconds" by the doctor (an error, after which nothing is
    checked), where ``ape`` evaluates it, and by ``ape``'s own error when a ``--offset``
    made the piece miss (a review): the spans alone are a power of 1000 apart.
    """
    mine, other = speeds if side == "reference" else speeds[::-1]
    if not (math.isfinite(mine) and math.isfinite(other) and mine > 0 and other > 0):
        return None
    return math.log10(other) - math.log10(mine)


#: Fewer stamps than this are not called frame indices (three poses 1 s apart may be).
_MIN_FRAMES = 10
#: Frame indices read as seconds move this many times slower than the other side at
#: least (a camera's 10-30 Hz; a monocular scale alone is rarely a factor of 5).
_FRAMES_SLOWER = 5.0


def counts_frames(trajectory: PoseTrajectory) -> bool:
    """Whether stamps are consecutive whole numbers (0, 1, 2...): frame indices, not seconds.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(20.0)
    >>> walk = PoseTrajectory(stamps_s=t, positions_xyz=np.c_[t, 0 * t, 0 * t],
    ...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (20, 1)))
    >>> counts_frames(walk), counts_frames(walk.replace(stamps_s=t * 0.1))
    (True, False)
    """
    stamps = trajectory.stamps_s
    if len(stamps) < _MIN_FRAMES or not 0 <= stamps[0] < len(stamps):
        return False
    return bool(np.all(np.diff(stamps) == 1.0))


class CountedFrames(NamedTuple):
    """One side stamped 0, 1, 2... (frame indices written as seconds), the other not.

    ``side`` is ``"reference"`` or ``"estimate"``; ``first`` and ``last`` its first and
    last stamps; ``rate_hz`` the other side's (one over its median step).
    """

    side: str
    first: float
    last: float
    rate_hz: float

    def text(self) -> str:
        """Say it with the fix.

        Examples
        --------
        >>> print(CountedFrames("estimate", 0.0, 787.0, 100.0).text())
        the estimate's stamps are 0, 1, ... 787, one apart: frame indices, not seconds, \
where the reference's are 100 Hz; write the estimate's stamps in seconds (its camera's or \
its recording's times)
        """
        other = "estimate" if self.side == "reference" else "reference"
        return (
            f"the {self.side}'s stamps are {self.first:.0f}, {self.first + 1:.0f}, ... "
            f"{self.last:.0f}, one apart: frame indices, not seconds, where the {other}'s "
            f"are {self.rate_hz:.3g} Hz; write the {self.side}'s stamps in seconds (its "
            "camera's or its recording's times)"
        )


def counted_frames(reference: PoseTrajectory, estimate: PoseTrajectory) -> CountedFrames | None:
    """Find one side stamped 0, 1, 2... (frame indices written as seconds), the other not.

    WHY: a TUM file of frame indices reads as 1 Hz seconds; the doctor took the far
    start for another recording's clock and advised an offset that matched 30 of 788
    poses, and an evaluation matching nothing advised that offset too (reviews). One
    pose a second exactly is no camera's or robot's rate, unless the other side's is as
    slow (1 Hz or slower), as long, or as fast in metres a stamp (1 Hz GNSS in whole
    seconds): then nothing is said. Both sides counting frames: the doctor's rule.
    """
    if reference.stamps_are_frames or estimate.stamps_are_frames:
        return None  # KITTI read without its times: said as such
    ref_counts, est_counts = counts_frames(reference), counts_frames(estimate)
    if ref_counts == est_counts:
        return None
    counted, other = (reference, estimate) if ref_counts else (estimate, reference)
    step = other.median_step_s
    if not 0 < step < 0.5:  # the other at 1 Hz or slower: frame counts may be seconds
        return None
    spans = counted.duration_s, other.duration_s
    if spans[1] / 2 <= spans[0] <= 2 * spans[1]:  # as long as the other: 1 Hz seconds may be
        return None
    # Frames read as seconds slow the motion by the frame rate: a 1 Hz GNSS reference in
    # whole seconds moves as fast as its estimate, and was called frame indices (a review).
    speeds = counted.path_length_m / spans[0], other.path_length_m / spans[1]
    if not speeds[0] * _FRAMES_SLOWER < speeds[1]:
        return None
    side = "reference" if ref_counts else "estimate"
    return CountedFrames(side, float(counted.stamps_s[0]), float(counted.stamps_s[-1]), 1 / step)


#: Both sides' poses at least this far apart (median, seconds: 500 Hz in ms), and the
#: reference crawling, slower than this (m/s): stamps in a smaller unit may be why.
_SLOW_STEP_S = 2.0
_CRAWL_M_S = 5e-3
#: Speeds a moving robot is evaluated at, metres per second (1 cm/s to 360 km/h), and
#: steps between its poses, seconds (1 Hz to 10 kHz): a smaller unit is named only when
#: the stamps read in it give both (a length unit too, when the lengths read in it give
#: a robot's speed: :func:`~robot_msgs.evaluation.ape.length_units`).
ROBOT_SPEEDS_M_S = (1e-2, 100.0)
_STEPS = (1e-4, 1.0)


def smaller_stamp_unit(reference: PoseTrajectory, estimate: PoseTrajectory) -> SmallerUnit | None:
    """Say whether both trajectories look stamped in ms or us, read as seconds.

    Both sides' poses at least 2 s apart (median) and the reference slower than 5 mm/s,
    where milliseconds or microseconds would make steps of 100 us to 1 s and speeds of 1
    cm/s to 100 m/s: an embedded logger's time since boot (PX4 logs microseconds) written
    as a TUM stamp. Nanoseconds are the readers' (:mod:`robot_msgs.io.clean`). The
    doctor names it; a failed or poor association says it beside its clock advice.

    Examples
    --------
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> t = np.arange(100) * 50_000.0  # 20 Hz in microseconds
    >>> walk = PoseTrajectory(stamps_s=t, positions_xyz=np.c_[t * 1e-6, 0 * t, 0 * t],
    ...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (100, 1)))
    >>> smaller_stamp_unit(walk, walk).unit
    'us'
    >>> smaller_stamp_unit(walk.replace(stamps_s=t * 1e-6), walk) is None
    True
    """
    if len(reference) < 3 or len(estimate) < 3 or reference.stamps_are_frames:
        return None
    steps = reference.median_step_s, estimate.median_step_s
    span = reference.duration_s
    if min(steps) < _SLOW_STEP_S or not span > 0:
        return None
    speed = reference.path_length_m / span
    if not 0 < speed < _CRAWL_M_S:
        return None
    for unit, factor in (("ms", 1e3), ("us", 1e6)):
        if all(_STEPS[0] <= step / factor <= _STEPS[1] for step in steps) and (
            ROBOT_SPEEDS_M_S[0] <= speed * factor <= ROBOT_SPEEDS_M_S[1]
        ):
            return SmallerUnit(unit, factor, steps, speed)
    return None


def stamp_text(stamp: float) -> str:
    """Say a stamp to the microsecond; past 1e15 s (no clock's) as its float, not 300 digits.

    Examples
    --------
    >>> stamp_text(1305031102.175304), stamp_text(1e308), stamp_text(-math.inf)
    ('1305031102.175304', '1e+308', '-inf')

    A NumPy float (a trajectory's own stamp) is said as a float: its repr is
    ``np.float64(3e+16)`` (a review).
    """
    stamp = float(stamp)
    return f"{stamp:.6f}" if abs(stamp) < 1e15 else repr(stamp)
