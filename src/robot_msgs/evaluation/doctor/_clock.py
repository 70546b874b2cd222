"""The doctor's check of clocks: the recording start (``clock_domain``), found from the motion.

The offset's search and the ``time_offset`` finding are :mod:`._offset_search`'s; how the
offset is searched, and what it costs, is said in :mod:`robot_msgs.evaluation.doctor`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.errors import AssociationError
from robot_msgs.evaluation.association import LOW_MATCH_SHARE
from robot_msgs.evaluation.doctor._offset_search import _estimate, _search
from robot_msgs.evaluation.doctor._rules import _SIGNIFICANT, _round, _spread
from robot_msgs.evaluation.offset import _MIN_POSES, estimate_offset
from robot_msgs.evaluation.pipeline import match_poses, time_range
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings
from robot_msgs.report.text import percent

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
        paired = _paired_in_space(reference, estimate, settings)
        # WHY not always: the estimate's second half against the reference's first (no
        # overlap) was sent to --sync spatial, which pairs 0 % of fr2_desk_ORB (refused:
        # "one world frame?") and 25 % of KITTI 00's ORB, at 42.8 m for its 1.30 m.
        instead = (
            "match in space instead"
            if paired >= LOW_MATCH_SHARE
            else f"in space {percent(paired)} of the estimate's poses pair with the "
            "reference's path: another part of the run, another run or another world frame"
        )
        finding = Finding(
            kind="clock_domain",
            severity="error",
            summary=f"{start}: {percent(share)} overlap, and the motion does not tell the offset "
            f"({err}); {instead}",
            evidence=evidence,
            fix=_spatial_fix(settings) if paired >= LOW_MATCH_SHARE else {},
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
            summary=f"{start}: {percent(share)} overlap, and the motion does not tell the "
            f"offset (its best fit, {offset:.4f} s, {why})",
            evidence=evidence,
        )
        return finding, offset, False
    cause = "a different recording start" if relative or abs(offset) > 60.0 else "a clock error"
    finding = Finding(
        kind="clock_domain",
        severity="error",
        summary=f"{start}: {percent(share)} overlap; the motion lines up at an offset of "
        f"{offset:.4f} s ± {found.std_s:.1g} s ({cause})",
        evidence=evidence,
        fix={"offset_s": round(offset, 6)},
    )
    return finding, offset, True


def _spatial_fix(settings: EvaluationSettings) -> dict[str, Value]:
    """Return the settings that match in space: ``sync='spatial'``, without ``max_gap_s``.

    WHY without: only ``sync='interpolate'`` bridges gaps, so ``--max-gap`` beside
    ``--sync spatial`` is refused; the pairing raised that ValidationError out of the
    doctor (``--sync interpolate --max-gap 1``), and the fix said would be refused too.
    """
    return {"sync": "spatial"} | ({} if settings.max_gap_s is None else {"max_gap_s": None})


def _paired_in_space(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> float:
    """Return the share of the estimate's poses ``sync='spatial'`` would pair."""
    spatial = settings.replace(**_spatial_fix(settings))
    try:
        association = match_poses(reference, estimate, spatial)
    except AssociationError:
        return 0.0
    return association.n_matched / len(estimate)


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
