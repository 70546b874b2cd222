"""The doctor's checks of clocks: the recording start and the offset, found from the motion.

How the offset is searched, and what it costs, is said in :mod:`robot_msgs.evaluation.doctor`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AlignmentError, AssociationError
from robot_msgs.evaluation.alignment import umeyama
from robot_msgs.evaluation.association import associate
from robot_msgs.evaluation.doctor._frames import _inverted, _inverted_poses, _mirrored
from robot_msgs.evaluation.doctor._rules import (
    _EXPLAINED,
    _MIN_FIRST,
    _MIN_MOTIONS,
    _OFFSET_FLOOR_S,
    _SCALE_OFF,
    _SIGNIFICANT,
    _percent,
    _round,
    _spread,
)
from robot_msgs.evaluation.offset import (
    _MIN_POSES,
    coarse_offsets,
    estimate_offset,
    shared_costs,
)
from robot_msgs.evaluation.pipeline import time_range
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings

if TYPE_CHECKING:
    from robot_msgs.compare.time_offset import TimeOffset
    from robot_msgs.msg import Value
    from robot_msgs.trajectory import PoseTrajectory


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
) -> tuple[Finding | None, float | None, bool]:
    """Little overlap: find the far constant offset that lines the motion up, if any.

    Returns the finding, the offset to go on with (``None``: none found, stop) and whether
    the motion tells it (``False``: its best fit, which the finding says is not known).
    """
    share = _overlap(reference, estimate, settings.offset_s)
    if share >= 0.5:
        return None, settings.offset_s, True
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
    spread = _spread(estimate)[0]
    try:
        found = _estimate(reference, spread, search)
    except AssociationError as err:
        finding = Finding(
            kind="clock_domain",
            severity="error",
            summary=f"{start}: {_percent(share)} overlap, and the motion does not tell the offset "
            f"({err}); match in space instead",
            evidence=evidence,
            fix={"sync": "spatial"},
        )
        return finding, None, False
    near = _search(reference, estimate, settings)[0] if share > 0.0 else None
    low, high = settings.search_range_s
    # WHY the range as well: the far search's best inside it is the near search's own
    # minimum, its RMS then a rounding apart (fr1_xyz's ground truth 10-16 s beside
    # rgbdslam: 0.0163 s at 0.00983987568149 m against 0.00983987568150 m, said as a
    # clock error), or one the near search refused (KITTI frames, the reference cut to 2000:
    # 0.118 frames, offered as --offset, after which no pose matched).
    within = share > 0.0 and low <= found.offset_s <= high
    if within or (near is not None and near.rms_m <= found.rms_m):
        # WHY: fr1_xyz's first 6 s as the reference beside rgbdslam's 26.6 s (9% overlap)
        # lined up at -22.18 s (0.044 m), offered as the fix, where the clocks as given
        # fit at -0.02 s (0.009 m): a short side is a matter of coverage, not of clocks.
        return None, settings.offset_s, True
    offset = found.offset_s
    evidence.update(offset_s=offset, std_s=_round(found.std_s, 3))
    why = _far_told(reference, estimate, search, found)
    if why:
        # WHY no fix: the checks go on with the best offset, and say so (01fa2f6); only
        # whether the motions belong together is checked at it (_untold_checks).
        finding = Finding(
            kind="clock_domain",
            severity="error",
            summary=f"{start}: {_percent(share)} overlap, and the motion does not tell the "
            f"offset (its best fit, {offset:.4f} s, {why})",
            evidence=evidence,
        )
        return finding, offset, False
    cause = "a different recording start" if relative or abs(offset) > 60.0 else "a clock error"
    finding = Finding(
        kind="clock_domain",
        severity="error",
        summary=f"{start}: {_percent(share)} overlap; the motion lines up at an offset of "
        f"{offset:.4f} s ± {found.std_s:.1g} s ({cause})",
        evidence=evidence,
        fix={"offset_s": round(offset, 6)},
    )
    return finding, offset, True


def _far_told(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    search: EvaluationSettings,
    found: TimeOffset,
) -> str:
    """Say why the far search's ``found`` does not tell the offset, or ``""``.

    :func:`_untold`, :func:`_halves_apart`, and, where ``search`` fits no scale, the same
    search with a scale fitted must find its best fit at the same offset (within
    :data:`~robot_msgs.evaluation.doctor._rules._SIGNIFICANT` standard uncertainties of
    their difference: anywhere, where the scaled fit is no sharper than its neighbours).
    WHY: an SE(3) fit of a scaled (monocular) estimate lines its motion up where the shape
    fits at its own scale, not where the clock does:
    fr2_desk_ORB_kf_mono's 5 s from 82.5 s and from 10 s, 10 000 s late, were offered as
    ``--offset`` -10033.6569 s ± 0.1 s and -9959.0392 s ± 0.2 s (a Sim(3) fit there:
    scale 0.95 and 0.99, so the scale matched there does not show it); with a scale
    fitted they line up at -10000.0016 s and -9938.59 s (ambiguous). Last, each half must
    hold the estimator's 10 poses: a check that cannot be made does not pass. WHY: its
    12 keyframes from 7.6 s and 16 from 4 s, 10 000 s late, were offered as ``--offset``
    -9963.3303 s ± 0.09 s and -9963.1031 s ± 0.2 s, 37 s off, both fits agreeing; their
    halves (5 and 7, 6 and 10 poses) could not be timed, and that passed. Of 229 windows of
    2.5 to 20 s of the evo data's pairs, 10 000 s late, this refuses those 2 and 3 right
    offers (short pieces of freiburg1_xyz's ORB_kf_mono); 57 stay offered, none wrong.
    """
    spread = _spread(estimate)[0]
    why = _untold(found, spread.duration_s) or _halves_apart(reference, spread, search)
    if why:
        return why
    if search.align not in SCALED_METHODS:
        try:
            scaled = _estimate(reference, spread, search.replace(align="sim3"))
        except AssociationError as err:
            return f"with a scale fitted: {err}"
        # WHY not judged by _untold too: a Sim(3) fit no sharper than its neighbours
        # (infinite uncertainty) says nothing against the offset; ROS_example's S-PTAM
        # 10 000 s late was so refused at -10000.0977 s, the offset both fits find.
        apart = abs(scaled.offset_s - found.offset_s)
        if apart > _SIGNIFICANT * math.hypot(found.std_s, scaled.std_s):
            return (
                f"with a scale fitted it lines up at {scaled.offset_s:.4f} s ± {scaled.std_s:.1g} s"
            )
    counts = [len(half) for half in _halves(spread)]
    if min(counts) < _MIN_POSES:
        return (
            f"its halves, of {counts[0]} and {counts[1]} poses, are too short to time alone "
            f"({_MIN_POSES} each)"
        )
    return ""


def _halves(estimate: PoseTrajectory) -> list[PoseTrajectory]:
    """Split the estimate at the middle of its span."""
    mid = 0.5 * float(estimate.stamps_s[0] + estimate.stamps_s[-1])
    return [time_range(estimate, start, end)[0] for start, end in ((None, mid), (mid, None))]


def _halves_apart(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> str:
    """Say where the two halves of the estimate's span line up when timed apart, or ``""``.

    A clock offset is one for the whole recording: each half, searched alone over the
    same offsets, lines up at it within 3 standard uncertainties of their difference.
    ``""`` where they do, or a half alone is refused. WHY: two unrelated smooth random
    paths (a random walk's velocity), 0% overlap, were said to line up at 2021.5750 s ±
    0.7 s with no note: a 20 s stretch of one bends as some stretch of the other does;
    its halves line up 5.2 s apart, fr1_xyz's rgbdslam's (10 000 s late) 13 ms (± 8 ms).
    """
    try:
        first, second = (estimate_offset(reference, half, settings) for half in _halves(estimate))
    except AssociationError:
        return ""
    if abs(first.offset_s - second.offset_s) <= _SIGNIFICANT * math.hypot(
        first.std_s, second.std_s
    ):
        return ""
    return (
        f"its halves, each timed alone, line up at {first.offset_s:.4f} s and "
        f"{second.offset_s:.4f} s"
    )


def _search(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> tuple[TimeOffset | None, str]:
    """Estimate the offset over ``settings``' range; ``None``: static, flat or too short.

    And why, when too few reference poses time it (:class:`_FewReferencePosesError`: said
    where no wider search is made), else ``""``.
    """
    try:
        return _estimate(reference, estimate, settings.replace(offset_auto=True)), ""
    except _FewReferencePosesError as err:
        return None, str(err)
    except AssociationError:
        return None, ""


def _estimate(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> TimeOffset:
    """Estimate the offset, refused when fewer than :data:`_MIN_FIRST` reference poses time it.

    The estimator needs 3 reference poses within the estimate's span at its optimum; the
    doctor, before it states an offset, as many as its checks of matched poses need.
    WHY: five poses of freiburg1_xyz's ground truth (0.9 s) beside rgbdslam 5 s late
    were timed at +0.5512 s ± 0.004 s, offered as ``--offset`` (5.5 s off), and on time
    at +0.0732 s ± 0.009 s (its clock is off by 0.005 s): a polyline of five poses fits
    the estimate's motion at offsets the clocks do not hold.
    """
    found = estimate_offset(reference, estimate, settings)
    start, end = (float(estimate.stamps_s[i]) + found.offset_s for i in (0, -1))
    stamps = reference.stamps_s
    inside = int(np.searchsorted(stamps, end, "right") - np.searchsorted(stamps, start))
    if inside < _MIN_FIRST:
        msg = (
            f"only {inside} reference pose(s) lie within the estimate's span at the best "
            f"offset found, fewer than the {_MIN_FIRST} needed to time it"
        )
        raise _FewReferencePosesError(msg)
    return found


class _FewReferencePosesError(AssociationError):
    """:func:`_estimate`'s refusal, where the estimator itself times the estimate.

    Said by :func:`_time_offset` as a clock that cannot be timed. WHY: 5 s of nav2's
    /odom 5 s late against its /amcl_pose (1.67 Hz: 5 poses in its span) was timed at
    -5.2500 s ± 0.1 s before b76a7a5, then not at all and nothing said, ``time_offset``
    listed as checked.
    """


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
    when none is kept, why the search was refused (:func:`_offset_searched_as`; ``""``:
    it was not). WHY a scale: a monocular estimate at half scale (or in millimetres) stamped 2 s
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
        # WHY firm, not told, when the evaluation's own search is refused: a monocular
        # estimate on time (fr2_desk_ORB_kf_mono) was said to be refused with "give
        # --offset SECONDS", its scale unsaid, where a scale fitted times it at 0 s.
        firm = scaled is not None and not (scaled.flat or scaled.at_edge)
        told = _told(scaled, settings) or (settings.offset_auto and first is None and firm)
        if told and _scaled_at(reference, estimate, settings, scaled):
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

    And, when none is kept, what said the clock cannot be timed, after "the search over
    offsets LOW .. HIGH s": the wider search's refusal if its grid was too coarse for the
    motion (:func:`~robot_msgs.evaluation.offset.coarse_offsets`) or too few reference
    poses time its optimum, or, where no wider search is made, the first's by too few
    reference poses; else ``""``.

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
    first, few = _search(reference, spread, settings)
    refused = f"is refused: {few}" if few else ""
    if first is not None and not (first.at_edge or first.flat):
        return first, _timed(reference, spread, settings, first), ""
    low, high = _wide_range(reference, estimate)
    searched = settings.search_range_s
    wide = None
    if high - low > searched[1] - searched[0]:
        wider = settings.replace(
            offset_auto=True, offset_s=(low + high) / 2.0, offset_search_s=(high - low) / 2.0
        )
        said = "finds none" if first is None else "ends at its edge" if first.at_edge else "is flat"
        refused = ""
        try:
            wide = _estimate(reference, spread, wider)
        except _FewReferencePosesError as err:  # said: the estimator itself would time it
            refused = f"{said}, and the wider one is refused: {err}"
        except AssociationError as err:  # its reason said when the grid is to blame
            if coarse_offsets(reference, spread, wider):
                refused = f"{said}, and the wider one is refused: {err}"
    if wide is not None and not wide.notes and _timed(reference, spread, settings, wide):
        return first, wide, ""
    if first is not None and not first.at_edge:
        # flat: its significance decides, as before any wider search; flat and with a
        # second minimum as deep, it times nothing. WHY: a 1 cm/s line with 1 mm of noise
        # a pose, on time, was said off by -35 ms ± 10 ms and +25 ms ± 3 ms by the seed,
        # the second minimum 0.14 s and 0.30 s away as deep (a review): the uncertainty
        # of one minimum's curvature does not see the other.
        if first.ambiguity:
            return first, None, refused
        return first, _timed(reference, spread, settings, first), refused
    edge = wide if wide is not None else first
    if edge is None or not edge.at_edge or edge.flat:
        return first, None, refused
    return first, _timed(reference, spread, settings, edge), refused


#: A far offset whose uncertainty is above this share of the estimate's span does not tell
#: it (:func:`_untold`).
_LOOSE_SHARE = 0.04


def _untold(found: TimeOffset, span_s: float) -> str:
    """Say why the far search's ``found`` does not tell the offset, or ``""``.

    No sharper than its neighbours (infinite uncertainty: two unrelated sequences,
    01fa2f6), at the edge of the offsets searched, flat, or with a second minimum as
    deep: the wide search's rule (:func:`_offset_searched_as` keeps a wide optimum only
    when the estimator notes nothing of it). WHY: with no overlap the motion is all there
    is, and two unrelated random walks (1 cm steps at 20 Hz) were said to line up at
    -3957.3746 s ± 0.5 s, a second minimum as deep 27 s away; nav2's /odom 10 000 s late
    at -10001.1960 s ± 1 s, the edge of the search, 1.2 s off its /amcl_pose.
    """
    if not math.isfinite(found.std_s):
        return "is no sharper than its neighbours"
    if found.at_edge:
        return "lies at the edge of the offsets searched"
    if found.flat:
        return f"fits hardly better than the median offset: contrast {found.contrast:.2g}"
    if found.std_s > _LOOSE_SHARE * span_s:
        # WHY: a 2.5-20 s stretch of a smooth random path lined up with another path of
        # 25-500 s in 7 of 72 pairs, its halves agreeing, at ± 6-22% of the stretch (0.16
        # s of 2.5 s); the evo estimates shifted 10 000 s, whole or 2.5-60 s pieces, are
        # timed to 0.2-2% of theirs (V102's 2.5 s: 0.049 s): shapes that slide along
        # each other by a twentieth of their span are not a clock.
        return f"± {found.std_s:.2g} s, {found.std_s / span_s:.0%} of the {span_s:.3g} s timed"
    return found.ambiguity


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
        return Finding(
            kind="time_offset",
            severity="warning",
            summary=f"the estimate's clock cannot be timed: the search over offsets "
            f"{low:+.4g} .. {high:+.4g} s {refused}",
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
                "the evaluation refuses it; with a scale fitted the estimate's clock is "
                + ("off by" if significant else "on time,")
                + f" {delta:+.4f} s ± {found.std_s:.1g} s"
                + (_widened(first, found, settings, unit) if widened else "")
                + "; see the scale",
                evidence=_offset_evidence(found),
                # Widened alone the unscaled search is refused again: a scale fitted too.
                fix={"align": "sim3"}
                | ({"offset_search_s": float(math.ceil(abs(delta)) + 1)} if widened else {}),
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
