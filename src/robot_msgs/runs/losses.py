r"""Tracking losses, pose validity and coverage, as interval arithmetic on time stamps.

A loss is a half-open interval ``[start, end)`` of sensor time without a valid
estimate. From ``lost``/``recovered`` events it runs from one to the other; from a
per-pose validity flag it runs from the first invalid stamp to the next valid one. A loss
never recovered runs to the end of the sequence.

Coverage is the share of the sequence span ``[t0, t1]`` with a valid estimate:

.. math::

    \text{coverage} = \frac{\left|\left(\bigcup_{i:\, t_{i+1}-t_i \le g}
    [t_i, t_{i+1}]\right) \setminus \bigcup_k [s_k, e_k) \,\cap\, [t_0, t_1]\right|}
    {t_1 - t_0}

where ``t_i`` are the estimate stamps, ``g`` the largest gap still counted as tracked
(``coverage_gap_s``) and ``[s_k, e_k)`` the losses. It is computed on the elementary
intervals between all breakpoints, with binary searches: O((N + K) log(N + K)).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.run_report import TrackingLoss

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.runs.logs import TrackingLog
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import BoolArray, Float64Array

__all__ = ["coverage", "keep_poses", "loss_bounds", "losses_from_log", "valid_mask"]


def losses_from_log(log: TrackingLog, *, end_s: float) -> tuple[TrackingLoss, ...]:
    """List the tracking losses a log describes.

    Parameters
    ----------
    log : TrackingLog
        Events (``lost``/``recovered``) or a validity flag per stamp.
    end_s : float, seconds
        End of the sequence: where a loss never recovered ends (NaN: the log's last
        stamp).

    Returns
    -------
    tuple of TrackingLoss
        In time order; the last has ``recovered=False`` if tracking never came back.

    Examples
    --------
    >>> from pathlib import Path
    >>> from robot_msgs.runs.logs import TrackingLog
    >>> log = TrackingLog(path=Path("t.csv"), kind="events",
    ...                   stamps_s=np.array([2.0, 3.5, 6.0, 6.5]),
    ...                   lost=np.array([True, False, True, False]))
    >>> [(loss.start_s, loss.duration_s) for loss in losses_from_log(log, end_s=10.0)]
    [(2.0, 1.5), (6.0, 0.5)]
    """
    t = log.stamps_s
    if t.size == 0:
        return ()
    last = float(t[-1]) if math.isnan(end_s) else max(end_s, float(t[-1]))
    if log.kind == "events":
        starts = t[0::2]
        ends = np.append(t[1::2], last) if starts.size > t[1::2].size else t[1::2]
        recovered = np.arange(starts.size) < t[1::2].size
    else:
        flag = np.concatenate([[0], log.lost.astype(np.int8), [0]])
        edges = np.diff(flag)
        first = np.flatnonzero(edges == 1)
        after = np.flatnonzero(edges == -1)  # index of the first valid stamp after the run
        recovered = after < t.size
        starts = t[first]
        ends = np.where(recovered, t[np.minimum(after, t.size - 1)], last)
    return tuple(
        TrackingLoss(start_s=float(s), end_s=float(e), recovered=bool(r))
        for s, e, r in zip(starts, ends, recovered, strict=True)
    )


def _inside(t: Float64Array, starts: Float64Array, ends: Float64Array) -> BoolArray:
    """Whether each ``t`` lies in one of the sorted, disjoint ``[starts, ends)``."""
    i = np.searchsorted(starts, t, side="right") - 1
    ok = i >= 0
    out: BoolArray = np.zeros(t.shape, dtype=bool)
    out[ok] = t[ok] < ends[i[ok]]
    return out


def loss_bounds(losses: Sequence[TrackingLoss]) -> tuple[Float64Array, Float64Array]:
    """Return the losses' starts and ends, shape (L,) each, seconds; ``inf``: never recovered.

    Examples
    --------
    >>> loss_bounds([TrackingLoss(start_s=2.0, end_s=3.5), TrackingLoss(start_s=5.0, end_s=6.0,
    ...     recovered=False)])
    (array([2., 5.]), array([3.5, inf]))
    """
    starts = np.array([loss.start_s for loss in losses], dtype=np.float64)
    # A loss never recovered excludes everything after it, also poses past the nominal end.
    ends = np.array([loss.end_s if loss.recovered else np.inf for loss in losses], dtype=np.float64)
    return starts, ends


def valid_mask(stamps_s: Float64Array, losses: Sequence[TrackingLoss]) -> BoolArray:
    """Which estimate poses are valid: outside every loss ``[start, end)``.

    Parameters
    ----------
    stamps_s : ndarray, shape (N,), float64, seconds
        Estimate stamps.
    losses : sequence of TrackingLoss
        In time order, not overlapping.

    Returns
    -------
    ndarray, shape (N,), bool

    Examples
    --------
    >>> valid_mask(np.array([1.0, 2.0, 3.0, 3.5]), [TrackingLoss(start_s=2.0, end_s=3.5)])
    array([ True, False, False,  True])
    """
    starts, ends = loss_bounds(losses)
    return ~_inside(np.asarray(stamps_s, dtype=np.float64), starts, ends)


def coverage(
    stamps_s: Float64Array,
    losses: Sequence[TrackingLoss],
    *,
    start_s: float,
    end_s: float,
    coverage_gap_s: float,
) -> float:
    """Share of ``[start_s, end_s]`` covered by a valid estimate (see the module docs).

    Parameters
    ----------
    stamps_s : ndarray, shape (N,), float64, seconds
        Estimate stamps, strictly increasing.
    losses : sequence of TrackingLoss
        Intervals without a valid estimate.
    start_s, end_s : float, seconds
        The span the run should cover (the reference's).
    coverage_gap_s : float, seconds
        Consecutive poses further apart than this leave the time between uncovered.

    Returns
    -------
    float
        In ``[0, 1]``; NaN when the span is unknown or empty.

    Examples
    --------
    >>> t = np.arange(0, 101) / 10.0  # 0 .. 10 s at 10 Hz
    >>> lost = [TrackingLoss(start_s=2.0, end_s=3.5), TrackingLoss(start_s=6.0, end_s=6.5)]
    >>> round(coverage(t, lost, start_s=0.0, end_s=10.0, coverage_gap_s=1.0), 12)
    0.8
    """
    if not (math.isfinite(start_s) and math.isfinite(end_s)) or end_s <= start_s:
        return math.nan
    t = np.asarray(stamps_s, dtype=np.float64)
    if t.size < 2:
        return 0.0
    keep = np.diff(t) <= coverage_gap_s
    seg_starts, seg_ends = t[:-1][keep], t[1:][keep]
    loss_starts, loss_ends = loss_bounds(losses)
    cuts = np.concatenate([seg_starts, seg_ends, loss_starts, loss_ends, [start_s, end_s]])
    cuts = np.unique(np.clip(cuts[np.isfinite(cuts)], start_s, end_s))
    mids = (cuts[:-1] + cuts[1:]) / 2.0
    # Segments touch but never overlap, so "inside [start, end)" works for them too.
    tracked = _inside(mids, seg_starts, seg_ends) & ~_inside(mids, loss_starts, loss_ends)
    # The sum of the pieces may pass the span by rounding: 50 stamps 0.1 s apart, as
    # read from "%.9f" text, covered 1.0000000000000002 of 0 .. 4.9 s, which RunReport
    # refuses, so every such run failed to evaluate (a review).
    return min(1.0, float(np.sum(np.diff(cuts)[tracked]) / (end_s - start_s)))


def keep_poses(traj: PoseTrajectory, keep: BoolArray) -> PoseTrajectory:
    """Return the poses of ``traj`` where ``keep`` (``(N,)`` bool) is true: the valid ones."""
    if keep.all():
        return traj
    cov, matrices = traj.covariance_6x6, traj.rotation_matrices
    return traj.replace(
        stamps_s=traj.stamps_s[keep],
        positions_xyz=traj.positions_xyz[keep],
        orientations_quat_xyzw=traj.orientations_quat_xyzw[keep],
        covariance_6x6=None if cov is None else cov[keep],
        rotation_matrices=None if matrices is None else matrices[keep],
    )
