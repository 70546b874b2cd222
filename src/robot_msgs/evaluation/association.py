"""Association in time: which estimate pose and which reference pose describe the same instant.

Four rules, each ``O((N + M) log(N + M))`` in time and linear in memory (binary searches
over the sorted stamps; never an ``N x M`` matrix):

``nearest``
    evo 1.38.1's ``associate_trajectories`` (``core/sync.py``): each stamp of the trajectory
    with fewer poses takes the nearest stamp of the other within ``max_diff_s`` (inclusive).
``one_to_one``
    TUM RGB-D ``associate.py``: every pair closer than ``max_diff_s`` (strict), accepted
    greedily nearest first when both stamps are still unused.
``interpolate``
    the reference resampled at the estimate's stamps: linear position, SLERP rotation,
    refused across reference gaps longer than ``max_gap_s``. Not evo's
    ``--sync_method interpolation`` (see :func:`associate`).
``interpolate_longer``
    evo 1.38.1's ``--sync_method interpolation``: the stamps ``nearest`` matches, of the
    trajectory with fewer poses, with the other trajectory resampled there (clamped,
    no gap refused).

WHY a matched pair set must run forward in time on both sides: the matched poses are returned
as :class:`~robot_msgs.trajectory.PoseTrajectory` values, whose stamps strictly increase so
that every later step (RPE by seconds, drift) can binary search them. The reference tools can
return pairs that break this: evo's ``nearest`` may give one pose of the longer trajectory to
two poses of the shorter one, and TUM's greedy rule may cross two pairs in time. Both happen
only when ``max_diff_s`` exceeds the sampling interval; we then keep the subset of the tool's
pairs that runs forward, preferring the closer pair, and say so in ``notes``.
"""

from __future__ import annotations

import bisect
import dataclasses
import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from robot_msgs.compare.statistics import median
from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.settings import EvaluationSettings
from robot_msgs.rotations import quat_xyzw_slerp
from robot_msgs.sorted_search import nearest_partners, search_sorted
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.typing import BoolArray, Float64Array, IntpArray

__all__ = [
    "ROBOT_SPEEDS_M_S",
    "Association",
    "CountedFrames",
    "OtherUnit",
    "SmallerUnit",
    "associate",
    "counted_frames",
    "counts_frames",
    "other_stamp_unit",
    "smaller_stamp_unit",
    "take_rows",
]

#: How the note of a low match starts (:meth:`Association.low_match_note` finds it).
_LOW_MATCH_START = "only "
#: What the note of a low match advises, by whether the caller can shift the clock.
_LOW_MATCH_ADVICE = {
    True: "check the clock offset (`offset_s=`, or `offset_auto=True` to estimate it) and "
    "`max_diff_s=`",
    False: "check that the clocks agree, and `max_diff_s=`",
}

#: Below this share of the shorter trajectory's poses matched, a note warns the reader.
LOW_MATCH_SHARE = 0.3

#: Default ``max_gap_s`` of ``interpolate``, in median reference intervals.
DEFAULT_GAP_INTERVALS = 10.0

#: A greedy round of ``one_to_one`` that removes less than this share of the remaining
#: candidates hands the rest to the sequential pass (see :func:`_greedy_one_to_one`).
_MIN_ROUND_PROGRESS = 0.1


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Association:
    """Matched poses of a reference and an estimate, and how they were matched.

    Attributes
    ----------
    reference, estimate : PoseTrajectory
        The matched poses, row ``i`` of one with row ``i`` of the other, in time order.
        Each keeps its own stamps and frames; for ``interpolate`` the reference poses are
        interpolated at the estimate's stamps plus ``offset_s``; for
        ``interpolate_longer`` the longer side's poses at the shorter side's matched
        stamps (plus ``offset_s`` for the reference, minus for the estimate); for ``spatial`` with
        ``spatial_pairs="first"`` the pairs run in reference order and the estimate's
        poses carry their reference pose's stamps (their own rows may run backwards).
    reference_index : ndarray, shape (K,), intp
        Row of each matched reference pose in the input; for ``interpolate`` (and
        ``interpolate_longer`` when the reference is the longer side) the left neighbour
        of the interpolation (the pose at or before the stamp).
    estimate_index : ndarray, shape (K,), intp
        Row of each matched estimate pose in the input (the left neighbour when
        ``interpolate_longer`` resamples the estimate).
    method : str
        ``"nearest"``, ``"one_to_one"``, ``"interpolate"``, ``"interpolate_longer"`` or
        ``"spatial"``.
    max_diff_s, offset_s : float
        The tolerance and the offset added to the estimate's stamps, seconds.
    n_reference, n_estimate : int
        Pose counts of the inputs.
    notes : tuple of str
        What a reader must know: few matches, pairs dropped and why.
    max_gap_s : float or None
        ``interpolate`` only: the longest reference gap interpolated across, seconds.
    refused_gap : int
        ``interpolate`` only: estimate poses refused because they fall in a longer gap.
    n_reference_used, n_estimate_used : int or None
        Where a side is resampled (``interpolate``, ``interpolate_longer``): its poses
        that enter at least one interpolation (both ends of a bracket, one for a stamp on
        a pose); ``None`` means ``n_matched`` (each pair uses one pose of the side).

    Association objects compare by identity (they hold arrays).
    """

    reference: PoseTrajectory
    estimate: PoseTrajectory
    reference_index: IntpArray
    estimate_index: IntpArray
    method: str
    max_diff_s: float
    offset_s: float
    n_reference: int
    n_estimate: int
    notes: tuple[str, ...] = ()
    max_gap_s: float | None = None
    refused_gap: int = 0
    n_reference_used: int | None = None
    n_estimate_used: int | None = None

    @property
    def n_matched(self) -> int:
        """Number of matched pairs."""
        return int(self.estimate_index.shape[0])

    def low_match_note(self, *, offset: bool = True) -> str | None:
        """Return the note of a match under :data:`LOW_MATCH_SHARE`, if this one is.

        ``offset``: the advice names the clock offset settings; without, a caller that
        offers none (``robot-msgs traj``) is told to check the clocks.

        Examples
        --------
        >>> from robot_msgs.trajectory import PoseTrajectory
        >>> ref = PoseTrajectory(stamps_s=np.arange(10.0), positions_xyz=np.zeros((10, 3)),
        ...                      orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (10, 1)))
        >>> few = associate(ref, ref.replace(stamps_s=np.arange(10.0) + 8))
        >>> few.low_match_note(offset=False)
        "only 20 % of the shorter trajectory's poses matched (2 of 10); check that the \
clocks agree, and `max_diff_s=`"
        """
        note = next((n for n in self.notes if n.startswith(_LOW_MATCH_START)), None)
        if note is None or offset:
            return note
        return note.replace(_LOW_MATCH_ADVICE[True], _LOW_MATCH_ADVICE[False], 1)

    def counts(self) -> dict[str, int]:
        """Count matched and unmatched poses on both sides, for ``Comparison.counts``.

        ``unmatched_reference`` and ``unmatched_estimate`` count poses used by no pair
        (on a resampled side: by no interpolation). ``interpolate`` adds ``refused_gap``.
        """
        used_reference = self.n_matched if self.n_reference_used is None else self.n_reference_used
        used_estimate = self.n_matched if self.n_estimate_used is None else self.n_estimate_used
        out = {
            "reference": self.n_reference,
            "estimate": self.n_estimate,
            "matched": self.n_matched,
            "unmatched_reference": self.n_reference - used_reference,
            "unmatched_estimate": self.n_estimate - used_estimate,
        }
        if self.method == "interpolate":
            out["refused_gap"] = self.refused_gap
        return out


def associate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
) -> Association:
    """Match the poses of ``estimate`` with those of ``reference`` in time.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test; neither is modified.
    settings : EvaluationSettings, optional
        ``sync``, the rule (see the module docstring and the notes below; ``spatial``
        is :func:`~robot_msgs.evaluation.associate_spatially`'s, which
        :func:`~robot_msgs.evaluation.pipeline.match_poses` chooses);
        ``max_diff_s``, the largest stamp difference of a pair, seconds (evo's default
        0.01; for ``interpolate``, how far outside the reference's time span an estimate
        stamp may lie and still take the end pose; evo's ``--sync_method interpolation``
        is another rule, ``interpolate_longer``);
        ``offset_s``, added to the estimate's stamps for matching only (evo's
        ``offset_2``, TUM's ``--offset``: ``estimate + offset`` is reference time);
        ``max_gap_s``, ``interpolate`` only: refuse estimate stamps whose bracketing
        reference poses are further apart, seconds (default 10 x the median reference
        interval, infinite with one reference pose). The time range is applied before,
        by :func:`~robot_msgs.evaluation.prepare`. Default: evo's settings.

    Returns
    -------
    Association
        The matched poses, their input rows, counts and notes.

    Raises
    ------
    AssociationError
        An empty trajectory, or no pair at all; the message gives both time spans, the
        settings and what to try.

    Notes
    -----
    ``nearest`` follows evo exactly: the trajectory with fewer poses (the estimate on a tie)
    is iterated; its stamps outside the other's span ± ``max_diff_s`` are skipped; the
    nearest stamp within ``|dt| <= max_diff_s`` is taken, the earlier one on a tie. Like
    evo, the offset is added to the estimate's stamps when the reference is iterated and
    subtracted from the reference's stamps otherwise, so the rounding is evo's too. When two
    stamps take the same partner (possible only where ``max_diff_s`` is at least half the
    shorter trajectory's interval, as with jittered streams of one rate), the closer pair is
    kept (the earlier on a tie) and a note says how many were dropped; evo keeps both.

    ``one_to_one`` follows TUM's ``associate.py``: candidates with
    ``|t_ref - (t_est + offset)| < max_diff_s`` come from two binary searches per reference
    stamp (``O(N log M + C)`` for ``C`` candidates, ``C`` at most the number of stamp pairs
    within ``max_diff_s``: linear in N for any fixed sampling rate), sorted by ``|dt|``, then
    reference stamp, then estimate stamp (TUM sorts the tuples ``(|dt|, a, b)``), and
    accepted greedily. The greedy pass runs in vectorised rounds that accept every candidate
    that is the best remaining one at both of its stamps (the locally dominant edges, which
    are exactly the edges the sequential greedy accepts); if a round removes under 10 % of
    the remaining candidates, the rest is finished by a sequential loop (about a microsecond
    per candidate; only adversarial chains of steadily growing gaps get there). TUM's pairs
    can cross in time; a pair crossing a closer (earlier accepted) pair is then dropped,
    with a note.

    ``interpolate`` resamples the reference at ``t_est + offset`` for the estimate stamps
    inside the reference's span (± ``max_diff_s``, clamped to the end poses): positions
    linearly, rotations by SLERP between the bracketing poses. Stamps whose bracketing
    reference poses are more than ``max_gap_s`` apart are refused (a stamp equal to a
    reference stamp needs no bracket). It is not evo's ``--sync_method interpolation``,
    which keeps only the stamps ``nearest`` matches and resamples the trajectory with
    more poses at the other's: with every 7th ground-truth pose of fr1_xyz as the
    reference, RPE over 0.1 m pairs 80 poses here and 54 in evo (rmse 0.0136 m against
    0.0170 m).

    ``interpolate_longer`` is evo's: the stamps of the trajectory with fewer poses that
    ``nearest`` matches (all of them: two sharing a partner are both kept, as evo keeps
    them), with the other trajectory resampled there by the same interpolation as
    ``interpolate`` (clamped to its end poses, no gap refused). The resampled side's
    poses carry the matched stamps on its own clock (``± offset_s``); its rows in
    ``reference_index``/``estimate_index`` are the left neighbours.

    Examples
    --------
    >>> import numpy as np
    >>> def traj(t):
    ...     t = np.asarray(t, dtype=float)
    ...     q = np.tile([0.0, 0.0, 0.0, 1.0], (len(t), 1))
    ...     return PoseTrajectory(
    ...         stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1), orientations_quat_xyzw=q
    ...     )
    >>> a = associate(traj([0.0, 0.1, 0.2, 0.3]), traj([0.004, 0.203, 0.5]))
    >>> a.reference_index, a.estimate_index
    (array([0, 2]), array([0, 1]))
    >>> a.counts()["unmatched_estimate"]
    1
    """
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    settings = EvaluationSettings() if settings is None else settings
    check_argument("settings", settings, EvaluationSettings)
    method = settings.sync
    max_diff_s, offset_s, max_gap_s = settings.max_diff_s, settings.offset_s, settings.max_gap_s
    for name, traj in (("reference", reference), ("estimate", estimate)):
        if len(traj) == 0:
            msg = f"Cannot associate: the {name} trajectory has no poses"
            raise AssociationError(msg)

    ref_t, est_t = reference.stamps_s, estimate.stamps_s
    notes: list[str] = []
    if method == "spatial":  # not in time: spatial.py holds the rule and its evidence
        msg = (
            "sync 'spatial' matches in space: call associate_spatially(), or prepare(), "
            "which chooses by `sync=`"
        )
        raise ValidationError(msg, field="sync", reason=msg)
    if method == "interpolate":
        return _interpolate(reference, estimate, max_diff_s, offset_s, max_gap_s)
    if method == "interpolate_longer":
        return _interpolate_longer(reference, estimate, max_diff_s, offset_s)
    if method == "nearest":
        ref_idx, est_idx, dropped = _nearest_pairs(ref_t, est_t, max_diff_s, offset_s)
        if dropped:
            notes.append(
                f"{dropped} pose(s) of the shorter trajectory had the same nearest partner as "
                "another; kept the closer pair (evo keeps both)"
            )
    else:
        ref_idx, est_idx, dropped = _one_to_one_pairs(ref_t, est_t, max_diff_s, offset_s)
        if dropped:
            notes.append(
                f"{dropped} pair(s) of TUM's greedy matching crossed a closer pair in time "
                "and were dropped"
            )
    if ref_idx.size == 0:
        raise _no_match(reference, estimate, method, max_diff_s, offset_s)
    shorter = min(len(reference), len(estimate))
    _note_low_share(notes, ref_idx.size, shorter, "the shorter trajectory's", (reference, estimate))
    ref_rows = _frozen(ref_idx)
    # Equal rows on both sides (same-rate streams): one read-only array serves both.
    est_rows = ref_rows if np.array_equal(ref_idx, est_idx) else _frozen(est_idx)
    return Association(
        reference=take_rows(reference, ref_idx),
        estimate=take_rows(estimate, est_idx),
        reference_index=ref_rows,
        estimate_index=est_rows,
        method=method,
        max_diff_s=max_diff_s,
        offset_s=offset_s,
        n_reference=len(reference),
        n_estimate=len(estimate),
        notes=tuple(notes),
    )


def _moved_stamps(stamps: Float64Array, shift: float, whose: str, offset: float) -> Float64Array:
    """Return ``stamps + shift`` as the stamps of resampled poses, or refuse them.

    ``stamps`` (strictly increasing) are ``whose`` side's, on the other side's clock once
    moved by ``shift`` (``offset``, the setting, or its negative). WHY: ``offset_s=1e17``
    (an offset in ns by mistake, with a tolerance as large) made stamps 0.5 s apart
    equal, and the interpolations failed saying "Expected strictly increasing stamps ...
    at `PoseTrajectory.stamps_s[1]`", which named neither the offset nor why.
    """
    with np.errstate(over="ignore"):  # past float64: inf, refused below
        moved: Float64Array = stamps + shift
    if not np.isfinite(moved).all():
        said = "past float64's range"
    else:
        equal = np.flatnonzero(moved[1:] <= moved[:-1])
        if equal.size == 0:
            return moved
        k = int(equal[0])
        # As typed (repr): 9 digits said epoch stamps 0.03 s apart as "1.3050311e+09 and
        # 1.3050311e+09 s", the same number twice.
        said = (
            f"past float64's resolution: the {whose}'s stamps {float(stamps[k])!r} and "
            f"{float(stamps[k + 1])!r} s both become {moved[k]:.9g} s"
        )
    msg = f"`offset_s={offset!r}` s moves the stamps {said}; is the offset in seconds?"
    raise AssociationError(msg)


# Nearest (evo) ---------------------------------------------------------------------------


def _nearest_pairs(
    ref_t: Float64Array,
    est_t: Float64Array,
    max_diff: float,
    offset: float,
    *,
    keep_shared: bool = False,
) -> tuple[IntpArray, IntpArray, int]:
    """Apply evo's nearest-stamp rule; return reference rows, estimate rows, dropped.

    By one compiled merge (:func:`~robot_msgs.sorted_search.nearest_partners`), else
    vectorised with NumPy (:func:`_nearest_rows`): the same pairs. ``keep_shared``:
    keep every pose of the shorter side that has a partner, as evo does, even where
    two share one (NumPy only; the long side's rows then repeat).
    """
    estimate_longer = est_t.shape[0] > ref_t.shape[0]
    if estimate_longer:
        short, long_, shift = ref_t, est_t, offset
    else:
        short, long_, shift = est_t, ref_t, -offset
    other = long_ + shift if shift else long_
    merged = None if keep_shared else nearest_partners(short, other, max_diff)
    short_idx, long_idx, dropped = (
        _nearest_rows(short, other, max_diff, keep_shared=keep_shared) if merged is None else merged
    )
    if estimate_longer:
        return short_idx, long_idx, dropped
    return long_idx, short_idx, dropped


def _nearest_rows(
    short: Float64Array, other: Float64Array, max_diff: float, *, keep_shared: bool = False
) -> tuple[IntpArray, IntpArray, int]:
    """Apply evo's nearest-stamp rule with NumPy: rows of ``short``, of ``other``, dropped.

    Each (N,) temporary is freed as soon as its step is done: at 10^7 poses one costs
    80 MB, and the association's peak is the evaluation's peak beside the inputs.
    """
    with np.errstate(over="ignore"):  # a bound past float64 is infinite, and compares so
        inside = (short >= other[0] - max_diff) & (short <= other[-1] + max_diff)
    upper = search_sorted(other, short, "right")
    np.minimum(upper, other.shape[0] - 1, out=upper)
    diff_up = other[upper]
    diff_up -= short  # other[upper] - short; negative only past the last stamp (clamped)
    lower = upper - 1
    np.maximum(lower, 0, out=lower)  # a row with upper == 0 gets inf below, never lower
    diff_low = other[lower]
    del lower
    np.subtract(short, diff_low, out=diff_low)
    diff_low[upper == 0] = np.inf
    take_up = (diff_up <= max_diff) & (diff_up < diff_low)
    ok = ~take_up & (diff_low <= max_diff) & (diff_low <= diff_up)  # take the lower one
    ok |= take_up
    ok &= inside
    del inside
    short_idx = np.flatnonzero(ok)
    long_idx = upper[ok]
    del upper
    took_up = take_up[ok]
    del take_up, ok
    long_idx -= ~took_up  # the lower partner is the one before the upper
    # long_idx never decreases; runs of equal values share one partner: keep the closest,
    # the earliest on a tie (lexsort is stable).
    dropped = 0
    if not keep_shared and long_idx.size > 1 and (long_idx[1:] == long_idx[:-1]).any():
        matched = np.flatnonzero(took_up)  # positions among the kept rows
        gap = diff_low[short_idx]
        gap[matched] = np.abs(diff_up[short_idx[matched]])
        order = np.lexsort((gap, long_idx))
        first = np.ones(order.size, dtype=bool)
        first[1:] = np.diff(long_idx[order]) != 0
        keep = np.sort(order[first])
        dropped = int(short_idx.size - keep.size)
        short_idx, long_idx = short_idx[keep], long_idx[keep]
    return short_idx, long_idx.astype(np.intp, copy=False), dropped


# One to one (TUM) -----------------------------------------------------------------------


def _one_to_one_pairs(
    ref_t: Float64Array, est_t: Float64Array, max_diff: float, offset: float
) -> tuple[IntpArray, IntpArray, int]:
    """TUM's greedy nearest-first one-to-one rule; returns reference rows, estimate rows."""
    shifted = est_t + offset  # TUM compares a - (b + offset)
    n_est = shifted.shape[0]
    # Candidate windows, widened by one stamp each side so that the exact float test below,
    # not the binary search, decides at the boundary.
    lo = np.maximum(search_sorted(shifted, ref_t - max_diff, "left") - 1, 0)
    hi = np.minimum(search_sorted(shifted, ref_t + max_diff, "right") + 1, n_est)
    counts = np.maximum(hi - lo, 0)
    total = int(counts.sum())
    cand_ref = np.repeat(np.arange(ref_t.shape[0], dtype=np.intp), counts)
    starts = np.cumsum(counts) - counts
    cand_est = np.arange(total, dtype=np.intp) - np.repeat(starts - lo, counts)
    diff = np.abs(ref_t[cand_ref] - shifted[cand_est])
    ok = diff < max_diff
    cand_ref, cand_est, diff = cand_ref[ok], cand_est[ok], diff[ok]
    # Candidates are generated by reference row, then estimate row: a stable sort by |dt|
    # gives TUM's order of the tuples (|dt|, a, b) without sorting three keys.
    rank = np.empty(diff.size, dtype=np.intp)
    rank[np.argsort(diff, kind="stable")] = np.arange(diff.size, dtype=np.intp)
    won = _greedy_one_to_one(cand_ref, cand_est, rank)  # sorted, hence by reference row
    ref_idx, est_idx, rank = cand_ref[won], cand_est[won], rank[won]
    keep = _forward_in_time(est_idx, rank)
    return ref_idx[keep], est_idx[keep], int(keep.size - np.count_nonzero(keep))


def _group_min(values: IntpArray, keys: IntpArray) -> IntpArray:
    """For each element, the minimum of ``values`` over its run of equal (sorted) ``keys``."""
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    mins = np.minimum.reduceat(values, starts)
    return np.repeat(mins, np.diff(np.append(starts, keys.size)))


def _greedy_one_to_one(cand_ref: IntpArray, cand_est: IntpArray, rank: IntpArray) -> IntpArray:
    """Positions (sorted) of the candidates that TUM's sequential greedy pass accepts.

    ``cand_ref`` is sorted; ``rank`` orders the candidates by preference (unique). A round
    accepts every live candidate that is the best live one of both its reference stamp and
    its estimate stamp, then removes the candidates touching an accepted stamp. The
    sequential pass accepts each such candidate too (nothing preferred to it can take its
    stamps), and removing its stamps leaves the sequential pass over the rest unchanged, so
    the rounds reproduce it exactly. Each round costs linear time in the live candidates.
    """
    pos = np.arange(rank.size, dtype=np.intp)  # live candidates, by reference row
    by_est = np.argsort(cand_est, kind="stable")  # nearly sorted already: cheap
    accepted: list[IntpArray] = []
    while pos.size:
        ref, est, rnk = cand_ref[pos], cand_est[pos], rank[pos]
        best = rnk == _group_min(rnk, ref)
        best_est = np.empty(pos.size, dtype=bool)
        best_est[by_est] = rnk[by_est] == _group_min(rnk[by_est], est[by_est])
        won = best & best_est
        accepted.append(pos[won])
        ref_used = np.zeros(int(ref[-1]) + 1, dtype=bool)
        ref_used[ref[won]] = True
        est_used = np.zeros(int(est.max()) + 1, dtype=bool)
        est_used[est[won]] = True
        alive = ~(ref_used[ref] | est_used[est])
        n_alive = int(np.count_nonzero(alive))
        if n_alive and pos.size - n_alive < _MIN_ROUND_PROGRESS * pos.size:
            live = pos[alive]
            accepted.append(_greedy_sequential(live[np.argsort(rank[live])], cand_ref, cand_est))
            break
        new_index = np.cumsum(alive) - 1
        by_est = new_index[by_est[alive[by_est]]]
        pos = pos[alive]
    return np.sort(np.concatenate(accepted)) if accepted else np.zeros(0, dtype=np.intp)


def _greedy_sequential(live: IntpArray, cand_ref: IntpArray, cand_est: IntpArray) -> IntpArray:
    """Run the plain greedy pass over ``live`` candidates (in preference order, stamps unused)."""
    used_ref: set[int] = set()
    used_est: set[int] = set()
    won: list[int] = []
    for pos, a, b in zip(
        live.tolist(), cand_ref[live].tolist(), cand_est[live].tolist(), strict=True
    ):
        if a not in used_ref and b not in used_est:
            used_ref.add(a)
            used_est.add(b)
            won.append(pos)
    return np.asarray(won, dtype=np.intp)


def _forward_in_time(est_idx: IntpArray, rank: IntpArray) -> BoolArray:
    """Mask of pairs (sorted by reference row) to keep so that estimate rows increase too.

    A pair that crosses no other pair is kept. Crossing pairs are taken in acceptance order
    (``rank``) and kept when they cross no pair kept before them.
    """
    keep = np.ones(est_idx.size, dtype=bool)
    if est_idx.size < 2 or (np.diff(est_idx) > 0).all():
        return keep
    prefix_max = np.maximum.accumulate(est_idx)
    suffix_min = np.minimum.accumulate(est_idx[::-1])[::-1]
    crosses = np.zeros(est_idx.size, dtype=bool)
    crosses[1:] |= prefix_max[:-1] > est_idx[1:]
    crosses[:-1] |= suffix_min[1:] < est_idx[:-1]
    suspects = np.flatnonzero(crosses)
    kept_pos: list[int] = []  # positions (= reference order) of kept crossing pairs
    for pos in suspects[np.argsort(rank[suspects], kind="stable")].tolist():
        at = bisect.bisect_left(kept_pos, pos)
        before_ok = at == 0 or est_idx[kept_pos[at - 1]] < est_idx[pos]
        after_ok = at == len(kept_pos) or est_idx[kept_pos[at]] > est_idx[pos]
        if before_ok and after_ok:
            kept_pos.insert(at, pos)
        else:
            keep[pos] = False
    return keep


# Interpolate -----------------------------------------------------------------------------


def _interpolate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    max_diff: float,
    offset: float,
    max_gap: float | None,
) -> Association:
    """Resample the reference at the estimate's stamps (+ offset)."""
    ref_t = reference.stamps_s
    n_ref = ref_t.shape[0]
    if max_gap is None:
        max_gap = DEFAULT_GAP_INTERVALS * median(np.diff(ref_t)) if n_ref > 1 else math.inf
    with np.errstate(over="ignore"):  # past float64: inf, outside the span below
        when = estimate.stamps_s + offset
    inside = (when >= ref_t[0] - max_diff) & (when <= ref_t[-1] + max_diff)
    clamped, left, right, exact = _brackets(ref_t, when)
    span = ref_t[right] - ref_t[left]
    bridged = exact | (span <= max_gap)
    ok = inside & bridged
    refused = int(np.count_nonzero(inside & ~bridged))
    est_idx = np.flatnonzero(ok)
    notes: list[str] = []
    if refused:
        notes.append(
            f"{refused} estimate pose(s) fall in reference gaps longer than "
            f"`max_gap_s={max_gap:g}` s and were not interpolated"
        )
    if est_idx.size == 0:
        raise _no_match(reference, estimate, "interpolate", max_diff, offset, max_gap)
    _note_low_share(notes, est_idx.size, len(estimate), "the estimate's", (reference, estimate))
    at = _moved_stamps(estimate.stamps_s[est_idx], offset, "estimate", offset)  # when[est_idx]
    interpolated, left, used = _resampled(
        reference, at, clamped[est_idx], left[est_idx], right[est_idx], exact[est_idx]
    )
    return Association(
        reference=interpolated,
        estimate=take_rows(estimate, est_idx),
        reference_index=left,
        estimate_index=_frozen(est_idx),
        method="interpolate",
        max_diff_s=max_diff,
        offset_s=offset,
        n_reference=n_ref,
        n_estimate=len(estimate),
        notes=tuple(notes),
        max_gap_s=max_gap,
        refused_gap=refused,
        n_reference_used=used,
    )


def _interpolate_longer(
    reference: PoseTrajectory, estimate: PoseTrajectory, max_diff: float, offset: float
) -> Association:
    """Apply evo's ``interpolation``: ``nearest``'s stamps, the longer side resampled there.

    evo (``core/sync.py``, ``associate_trajectories``) keeps the poses of the trajectory
    with fewer poses (the estimate on a tie) that its nearest rule matches, all of them
    (two sharing a partner too), and resamples the other trajectory at their stamps moved
    to its clock (``+ offset`` for the reference, ``- offset`` for the estimate), clamped
    to its end poses (``PoseTrajectory3D.interpolate``); no gap is refused.
    """
    ref_t, est_t = reference.stamps_s, estimate.stamps_s
    ref_idx, est_idx, _ = _nearest_pairs(ref_t, est_t, max_diff, offset, keep_shared=True)
    if est_idx.size == 0:
        raise _no_match(reference, estimate, "interpolate_longer", max_diff, offset)
    notes: list[str] = []
    shorter = min(len(reference), len(estimate))
    _note_low_share(notes, est_idx.size, shorter, "the shorter trajectory's", (reference, estimate))
    used_ref: int | None = None
    used_est: int | None = None
    if est_t.shape[0] > ref_t.shape[0]:  # the estimate is the longer side (as _nearest_pairs)
        when = _moved_stamps(ref_t[ref_idx], -offset, "reference", offset)  # evo's: + (-offset_2)
        ref_part, ref_rows = take_rows(reference, ref_idx), _frozen(ref_idx)
        est_part, est_rows, used_est = _resampled(estimate, when, *_brackets(est_t, when))
    else:
        when = _moved_stamps(est_t[est_idx], offset, "estimate", offset)
        ref_part, ref_rows, used_ref = _resampled(reference, when, *_brackets(ref_t, when))
        est_part, est_rows = take_rows(estimate, est_idx), _frozen(est_idx)
    return Association(
        reference=ref_part,
        estimate=est_part,
        reference_index=ref_rows,
        estimate_index=est_rows,
        n_reference_used=used_ref,
        n_estimate_used=used_est,
        method="interpolate_longer",
        max_diff_s=max_diff,
        offset_s=offset,
        n_reference=len(reference),
        n_estimate=len(estimate),
        notes=tuple(notes),
    )


def _brackets(
    stamps: Float64Array, when: Float64Array
) -> tuple[Float64Array, IntpArray, IntpArray, BoolArray]:
    """Bracket ``when`` in ``stamps``: clamped stamps, left and right rows, exact hits.

    ``when`` outside ``stamps``' span is clamped to its end pose; a clamped stamp equal
    to a stamp of ``stamps`` is exact (its left row is that pose, no bracket needed).
    """
    n = stamps.shape[0]
    clamped = np.clip(when, stamps[0], stamps[-1])
    left = np.clip(search_sorted(stamps, clamped, "right") - 1, 0, n - 1)
    right = np.minimum(left + 1, n - 1)
    return clamped, left, right, stamps[left] == clamped


def _resampled(
    traj: PoseTrajectory,
    when: Float64Array,
    clamped: Float64Array,
    left: IntpArray,
    right: IntpArray,
    exact: BoolArray,
) -> tuple[PoseTrajectory, IntpArray, int]:
    """Interpolate ``traj`` at the bracketed stamps: linear position, SLERP rotation.

    Returns the poses stamped ``when``, the left rows (read-only) and how many poses
    of ``traj`` enter an interpolation.
    """
    t = traj.stamps_s
    span = t[right] - t[left]
    frac = np.where(exact, 0.0, (clamped - t[left]) / np.where(exact, 1.0, span))
    used = np.zeros(t.shape[0], dtype=bool)
    used[left] = True
    used[right[~exact]] = True
    p = traj.positions_xyz
    q = traj.orientations_quat_xyzw
    resampled = PoseTrajectory(
        stamps_s=when,
        positions_xyz=p[left] + frac[:, None] * (p[right] - p[left]),
        orientations_quat_xyzw=quat_xyzw_slerp(q[left], q[right], frac),
        frame_id=traj.frame_id,
        child_frame_id=traj.child_frame_id,
    )
    return resampled, _frozen(left), int(np.count_nonzero(used))


# Helpers ---------------------------------------------------------------------------------


def take_rows(traj: PoseTrajectory, rows: IntpArray | slice) -> PoseTrajectory:
    """Take the poses ``rows`` (strictly increasing, or a slice) of ``traj``.

    Rows of a valid trajectory in increasing order are a valid trajectory (finite, unit
    quaternions, stamps strictly increasing), so the new arrays (read-only views for a
    slice) skip the constructor's checks and copies; the one condition left, increasing
    rows, is checked here, and ``traj`` itself is returned when they are all its rows.
    """
    if isinstance(rows, np.ndarray):
        if rows.size > 1 and not (rows[1:] > rows[:-1]).all():
            msg = "association rows must be strictly increasing"  # pragma: no cover - a bug
            raise AssertionError(msg)
        if rows.size == len(traj) and (rows.size == 0 or rows[-1] == rows.size - 1):
            return traj  # every pose, in order (rows >= 0 and strictly increasing)
    cov, matrices = traj.covariance_6x6, traj.rotation_matrices
    return PoseTrajectory._unchecked(  # noqa: SLF001
        traj.stamps_s[rows],
        traj.positions_xyz[rows],
        traj.orientations_quat_xyzw[rows],
        traj.frame_id,
        traj.child_frame_id,
        None if cov is None else cov[rows],
        stamps_are_frames=traj.stamps_are_frames,
        rotation_matrices=None if matrices is None else matrices[rows],
    )


def _frozen(values: IntpArray) -> IntpArray:
    """Return ``values`` read-only: itself when a new intp array of its own, else a copy."""
    own = values.dtype == np.intp and values.flags.owndata and values.flags.writeable
    out = values if own else np.array(values, dtype=np.intp, copy=True)
    out.setflags(write=False)
    return out


def _note_low_share(
    notes: list[str],
    matched: int,
    of: int,
    whose: str,
    sides: tuple[PoseTrajectory, PoseTrajectory],
) -> None:
    share = matched / of
    if share < LOW_MATCH_SHARE:
        unit = smaller_stamp_unit(*sides)
        # One side in ms beside seconds, both from 0: 1 of 400 poses matched, and the note
        # advised the clock offset alone (a failed association names the unit).
        other = other_stamp_unit(*sides)
        notes.append(
            f"{_LOW_MATCH_START}{_percent(share)} of {whose} poses matched ({matched} of {of}); "
            f"{_LOW_MATCH_ADVICE[True]}"
            + ("" if unit is None else f"; {unit.hint()}")
            + ("" if other is None else f"; {other.text()}")
        )


def _percent(share: float) -> str:
    """Say a share of at most 1 as a percentage with two significant digits, never 0.

    Examples
    --------
    >>> _percent(0.15), _percent(1 / 788), _percent(2e-7)
    ('15 %', '0.13 %', 'less than 0.01 %')
    """
    if share < 1e-4:
        return "less than 0.01 %"
    return f"{100 * share:.2g} %"


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


def _median_step(stamps: Float64Array) -> float:
    return median(np.diff(stamps)) if stamps.shape[0] > 1 else math.nan


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
    (``unit``: ``"ms"``, ``"us"``, ``"ns"`` or a power of ten); ``factor`` what its
    span is over the other's (a power of 1000); ``spans_s`` the reference's and the
    estimate's spans as read.
    """

    side: str
    unit: str
    factor: float
    spans_s: tuple[float, float]

    def text(self) -> str:
        """Say it with the fix.

        Examples
        --------
        >>> print(OtherUnit("estimate", "ms", 1e3, (26.6, 26563.0)).text())
        the estimate spans 26563 s and the reference 26.6 s (a factor of 1e+03): the \
estimate's stamps look like ms, not seconds; write them in seconds
        """
        other = "estimate" if self.side == "reference" else "reference"
        return (
            f"the {self.side} spans {max(self.spans_s):.6g} s and the {other} "
            f"{min(self.spans_s):.6g} s (a factor of {self.factor:.0e}): the {self.side}'s "
            f"stamps look like {self.unit}, not seconds; write them in seconds"
        )


def other_stamp_unit(reference: PoseTrajectory, estimate: PoseTrajectory) -> OtherUnit | None:
    """Say whether one side's stamps look like another unit: spans a power of 1000 apart.

    A span a power of 1000 (within a factor of about 3) longer than the other's is
    taken for stamps in ms, us or ns beside seconds. The doctor names it; an association
    that matches nothing says it before its clock advice.

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
    """
    if len(reference) < 2 or len(estimate) < 2:
        return None
    spans = reference.duration_s, estimate.duration_s
    if not (min(spans) > 0 and math.isfinite(max(spans))):
        return None
    ratio = math.log10(spans[1]) - math.log10(spans[0])  # a quotient overflowed (1 / 5e-324)
    k = round(ratio / 3.0)
    if k == 0 or abs(ratio - 3 * k) > 0.5:
        return None
    unit = {1: "ms", 2: "us", 3: "ns"}.get(abs(k), f"1e-{3 * abs(k)} s")
    side = "estimate" if k > 0 else "reference"
    return OtherUnit(side, unit, float(10 ** (3 * abs(k))), spans)


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
    step = _median_step(other.stamps_s)
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
    steps = _median_step(reference.stamps_s), _median_step(estimate.stamps_s)
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


def _poses(n: int) -> str:
    """Say ``n`` poses, one in the singular ("1 poses" was said)."""
    return "1 pose" if n == 1 else f"{n} poses"


def _at(stamp: float) -> str:
    """Say a stamp to the microsecond; past 1e15 s (no clock's) as its float, not 300 digits."""
    return f"{stamp:.6f}" if abs(stamp) < 1e15 else repr(stamp)


def _no_match(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    method: str,
    max_diff: float,
    offset: float,
    max_gap: float | None = None,
) -> AssociationError:
    """Build the error for an association without a single pair: spans, settings, a suggestion."""
    r0, r1 = float(reference.stamps_s[0]), float(reference.stamps_s[-1])
    e0, e1 = float(estimate.stamps_s[0]) + offset, float(estimate.stamps_s[-1]) + offset
    # KITTI read without its times file is stamped by frame index: "spans 0.000000 ..
    # 4540.000000 s" and "median intervals are 1 s" said seconds of frames.
    u = " frames" if reference.stamps_are_frames and estimate.stamps_are_frames else " s"
    text = (
        f"No pose pairs found with `sync={method!r}`, `max_diff_s={max_diff!r}`{u}, "
        f"`offset_s={offset!r}`{u}: "
        f"reference spans {_at(r0)} .. {_at(r1)}{u} ({_poses(len(reference))}), estimate + "
        f"offset spans {_at(e0)} .. {_at(e1)}{u} ({_poses(len(estimate))}). "
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
            f"the offset (`offset_s=`) is {_at(r0 - (e0 - offset))}{u} if both recordings "
            "started together (reference start - estimate start); the doctor "
            "(`robot-msgs doctor`, `diagnose()`) estimates it from the motion"
        )
    elif method == "interpolate" and max_gap is not None:
        text += (
            "The estimate stamps inside the reference span all fall in reference gaps longer "
            f"than `max_gap_s={max_gap:g}` s: allow longer gaps (`max_gap_s=`) or use "
            "`sync='nearest'`"
        )
    else:
        # A side of one pose has no interval: "nan s (estimate)" was said of it.
        intervals = [
            f"{_median_step(traj.stamps_s):g}{u} ({whose})"
            if len(traj) > 1
            else f"none ({whose}: 1 pose)"
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
