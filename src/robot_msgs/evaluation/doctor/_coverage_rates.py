"""The doctor's checks of what the estimate covers of the reference in time: gaps, rates.

:func:`_coverage` says the estimate's gaps, the reference's gaps inside its span and its
span outside the reference's; :func:`_rate_mismatch` the poses nearest matching loses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.diagnosis import Finding
from robot_msgs.evaluation.association import DEFAULT_GAP_INTERVALS
from robot_msgs.evaluation.doctor._rules import (
    _GAP_SHARE,
    _LOW_COVERAGE,
    _LOW_MATCHED,
    _MATCHED_SHARE,
    _PARTIAL_COVERAGE,
    _SHOWN_WINDOWS,
    _round,
)
from robot_msgs.report.text import listed, percent
from robot_msgs.runs.losses import coverage

if TYPE_CHECKING:
    from robot_msgs.evaluation.association import Association
    from robot_msgs.evaluation.settings import EvaluationSettings
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array


def _stops_early(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> bool:
    """Whether the estimate stops early: its last pose a gap and 5 % of the span before the end.

    A gap as :func:`_coverage` counts one (:data:`DEFAULT_GAP_INTERVALS` median intervals),
    the share :data:`_GAP_SHARE` of the reference's span: a tracking loss that never
    recovers, or a run cut short. Never on frame indices: there an estimate that starts
    late (KITTI's ORB from the 100th frame, matched by index) ends early by as many
    frames, and the offset in frames is the fix.
    """
    if estimate.stamps_are_frames:
        return False
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    missed = r1 - (float(estimate.stamps_s[-1]) + settings.offset_s)
    return missed > _gap_s(estimate) and missed >= _GAP_SHARE * (r1 - r0)


def _gap_s(estimate: PoseTrajectory) -> float:
    """Return the length of a gap in the estimate, s: :data:`DEFAULT_GAP_INTERVALS` median steps."""
    return DEFAULT_GAP_INTERVALS * estimate.median_step_s


def _coverage(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings,
    unsaid: Finding | None = None,
) -> Finding | None:
    """Say the estimate's gaps, its stop, and the reference's gaps inside its span.

    ``unsaid``: the offset the poses before an early stop give, said here, not told as a
    fix (:func:`_stops_early`).
    """
    stamps = estimate.stamps_s + settings.offset_s
    step = estimate.median_step_s
    gap = DEFAULT_GAP_INTERVALS * step
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    stops = _stops_early(reference, estimate, settings)
    covered = coverage(stamps, (), start_s=r0, end_s=r1, coverage_gap_s=gap)
    steps = np.diff(stamps)
    gaps = np.flatnonzero(steps > gap)
    lost = float(steps[gaps].sum())
    lost_share = lost / max(estimate.duration_s, 1e-12)
    held, held_share = (
        _reference_gaps(reference, stamps, settings, step) if stamps.size > 1 else ("", 0.0)
    )
    beyond, beyond_share = _beyond_reference(r0, r1, stamps, frames=estimate.stamps_are_frames)
    said = {"reference_gaps_share": _round(held_share, 4)} if held else {}
    said |= {"outside_reference_share": _round(beyond_share, 4)} if beyond else {}
    if lost_share < _GAP_SHARE and covered >= _PARTIAL_COVERAGE and not stops:
        if not said:
            return None
        return Finding(
            kind="coverage",
            severity="warning" if max(held_share, beyond_share) >= _LOW_COVERAGE else "info",
            summary=(held + beyond)[2:],
            evidence=said,
        )
    # WHY the clauses' shares too: "warning from half", as alone above (fr1_xyz's first 8 s
    # beside rgbdslam, covered 57%, 83% of the estimate's span beyond it, was an info).
    # WHY not `stops` too: evo's bag example's ORB-SLAM and S-PTAM, clean, both end 149 s
    # (17 %) before the ground truth, 82 % covered: an info before the stop was said,
    # then a warning. The stop is said; the shares say how much it matters.
    warning = (
        lost_share >= _GAP_SHARE
        or covered < _LOW_COVERAGE
        or max(held_share, beyond_share) >= _LOW_COVERAGE
    )
    # Frame indices are counted in frames, as the README promises (KITTI without times
    # said "gaps longer than 10 s"; a review).
    unit = " frames" if estimate.stamps_are_frames else " s"
    shown = [f"{stamps[i]:.2f}..{stamps[i + 1]:.2f}{unit}" for i in gaps[:_SHOWN_WINDOWS]]
    where = f": {listed(shown, _SHOWN_WINDOWS, gaps.size)}" if shown else ""
    late, early = float(stamps[0]) - r0, r1 - float(stamps[-1])
    ends = [f"starts {late:.3g}{unit} after"] if late > 0 else []
    ends += [f"ends {early:.3g}{unit} before"] if early > 0 and not stops else []
    inside = (
        f" (no gap longer than {gap:.3g}{unit}: it {' and '.join(ends)} the reference)"
        if ends
        else f" (no gap longer than {gap:.3g}{unit})"
    )
    # WHY: a tracking loss never recovered was told `--offset`, the offset of its poses
    # before the loss, and its stop only as "ends 18.7 s before the reference".
    stop = (
        f"; it stops at {stamps[-1]:.2f}{unit}, {early:.3g}{unit} before the reference ends "
        "(a tracking loss never recovered, or a run cut short?)"
        if stops
        else ""
    )
    if unsaid is not None:
        offset = unsaid.summary.replace("the estimate's ", "its ", 1)
        stop += f"; over its poses before the stop, {offset}: no offset is suggested from them"
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
        summary=f"the estimate covers {percent(covered)} of the reference's span{inside}"
        f"{stop}; errors are of the covered part only{held}{beyond}",
        evidence=said
        | ({"stop_s": float(stamps[-1])} if stops else {})
        | {
            "covered_share": _round(covered, 4),
            "success_rate": _round(covered, 4),
            "gaps": int(gaps.size),
            "lost_s": _round(lost, 6),
            "gap_threshold_s": _round(gap, 6),
            "gap_starts_s": tuple(float(stamps[i]) for i in gaps[:20]),
            "gap_ends_s": tuple(float(stamps[i + 1]) for i in gaps[:20]),
        },
    )


def _beyond_reference(
    r0: float, r1: float, stamps: Float64Array, *, frames: bool
) -> tuple[str, float]:
    """Say the share of the estimate's span (``stamps``) outside the reference's ``r0..r1``.

    WHY: fr1_xyz's first 6 s as the reference beside rgbdslam's 26.6 s was said "the
    estimate covers 42% of the reference's span", true of the reference's 6 s, silent on
    the 24 s of the estimate after it, whose poses match none. Returns the clause (""
    under :data:`_GAP_SHARE`) and the share, its lengths in frames where ``frames`` (KITTI
    without times was said "2.54e+03 s after its end").
    """
    e0, e1 = float(stamps[0]), float(stamps[-1])
    if not e1 > e0:
        return "", 0.0
    before, after = max(0.0, min(r0, e1) - e0), max(0.0, e1 - max(r1, e0))
    share = (before + after) / (e1 - e0)
    if not share >= _GAP_SHARE:
        return "", share
    unit = " frames" if frames else " s"
    where = " and ".join(
        [f"{before:.3g}{unit} before its start"] * (before > 0)
        + [f"{after:.3g}{unit} after its end"] * (after > 0)
    )
    said = (
        f"; {share:.0%} of the estimate's span lies outside the reference's ({where}): "
        "the estimate's poses there match none, and are in no error"
    )
    return said, share


def _reference_gaps(
    reference: PoseTrajectory, stamps: Float64Array, settings: EvaluationSettings, own_step: float
) -> tuple[str, float]:
    """Say the reference's gaps inside the estimate's span (``stamps``), if they matter.

    ``own_step``: the estimate's median step, s (kept on the trajectory, not recomputed).

    WHY: fr1_xyz's ground truth with 10 s cut out against the whole of itself, or
    rgbdslam, was "nothing found" while 990 of the 3000 estimate poses, a third, matched
    none (``ape`` counts them "unmatched estimate"): their errors are in no figure.
    Returns the clause ("" where the gaps take less than :data:`_GAP_SHARE` of the span)
    and the gaps' share of the estimate's span.
    """
    t = reference.stamps_s
    e0, e1 = float(stamps[0]), float(stamps[-1])
    # Ten steps of the slower side: fr2_desk's ground truth (300 Hz) pauses 84 times for
    # 0.03-0.05 s, over which its ORB estimate's 30 Hz poses still find a partner.
    step = max(reference.median_step_s, own_step)
    # And no gap the matching bridges: fr2_desk_ORB's poses in its ground truth's 0.3-12 s
    # gaps were said to "match none" with --sync interpolate --max-gap 15, which matched
    # all 2893 (nearest matches a pose within max_diff_s of either end of a gap).
    # Only `interpolate`'s max_gap_s is a reference gap: `interpolate_estimate`'s is the
    # estimate's, and its --max-gap 15 silenced a 10 s reference gap whose 990 estimate
    # poses ape left unmatched (a review).
    bridged = 2.0 * settings.max_diff_s
    if settings.sync == "interpolate" and settings.max_gap_s is not None:
        bridged = settings.max_gap_s
    gap = max(DEFAULT_GAP_INTERVALS * step, bridged)
    steps = np.diff(t)
    a, b = np.maximum(t[:-1], e0), np.minimum(t[1:], e1)
    lost = np.where(steps > gap, np.clip(b - a, 0.0, None), 0.0)
    # Less the estimate's own gaps (said apart, as its own): the same 10 s cut out of both
    # sides was "38% of the estimate's span ... match none", where it has no pose at all.
    # ``gone`` is the time in the estimate's gaps before each knot (piecewise linear).
    own = np.flatnonzero(np.diff(stamps) > DEFAULT_GAP_INTERVALS * own_step)
    if own.size:
        knots = np.stack([stamps[own], stamps[own + 1]], 1).ravel()
        gone = np.cumsum(np.diff(knots, prepend=knots[0]) * np.tile([0.0, 1.0], own.size))
        lost -= np.where(lost > 0, np.interp(b, knots, gone) - np.interp(a, knots, gone), 0.0)
        lost = np.where(lost > own_step, lost, 0.0)  # no estimate pose left there
    share = float(lost.sum()) / (e1 - e0) if e1 > e0 else 0.0
    if not share >= _GAP_SHARE:
        return "", share
    where = np.flatnonzero(lost > 0)
    unit = " frames" if reference.stamps_are_frames else " s"
    shown = [f"{t[i]:.2f}..{t[i + 1]:.2f}{unit}" for i in where[:_SHOWN_WINDOWS]]
    said = (
        f"; the reference has {where.size} gap(s) longer than {gap:.3g}{unit} over "
        f"{share:.0%} of the estimate's span ({listed(shown, _SHOWN_WINDOWS, where.size)}): "
        "the estimate's poses there match none, and are in no error"
    )
    return said, share


def _rate_mismatch(
    reference: PoseTrajectory, estimate: PoseTrajectory, association: Association
) -> Finding | None:
    """Find the poses nearest matching loses: the slower side's poses left without a partner."""
    if association.method in ("interpolate", "interpolate_estimate"):  # every stamp resampled
        return None
    shifted = estimate.stamps_s + association.offset_s
    r0, r1 = reference.stamps_s[0], reference.stamps_s[-1]
    n_est = int(((shifted >= r0) & (shifted <= r1)).sum())
    n_ref = int(((reference.stamps_s >= shifted[0]) & (reference.stamps_s <= shifted[-1])).sum())
    slower = min(n_est, n_ref)
    steps = reference.median_step_s, estimate.median_step_s
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
