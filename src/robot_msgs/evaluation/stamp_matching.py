"""Pairs of two sorted stamp arrays: evo's nearest rule and TUM's one-to-one rule.

The two rules of :func:`~robot_msgs.evaluation.association.associate` that match stamps
as they are (``nearest``, ``one_to_one``; see its notes), on the stamps alone: each takes
the reference's and the estimate's stamps, in seconds, and returns the rows of the pairs
and how many pairs it dropped to keep them running forward in time on both sides (why:
:mod:`robot_msgs.evaluation.association`). Binary searches over the sorted stamps,
never an ``N x M`` matrix.
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.sorted_search import nearest_partners, search_sorted

if TYPE_CHECKING:
    from robot_msgs.typing import BoolArray, Float64Array, IntpArray

#: A greedy round of ``one_to_one`` that removes less than this share of the remaining
#: candidates hands the rest to the sequential pass (see :func:`_greedy_one_to_one`).
_MIN_ROUND_PROGRESS = 0.1


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
    # In time, not rows: rows of one repeated stamp (rpg keeps them) cross no pair; the
    # pairs of a repeated reference stamp go in estimate order.
    ref_s = ref_t[ref_idx]
    if ref_s.size > 1 and bool((ref_s[1:] == ref_s[:-1]).any()):
        order = np.lexsort((est_idx, ref_s))
        ref_idx, est_idx, rank = ref_idx[order], est_idx[order], rank[order]
    keep = _forward_in_time(est_t[est_idx], rank)  # unshifted: distinct stamps stay apart
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


def _forward_in_time(est_s: Float64Array, rank: IntpArray) -> BoolArray:
    """Mask of pairs (in reference time) to keep so that estimate stamps never decrease.

    ``est_s``: the pairs' estimate stamps. A pair that crosses no other pair is kept.
    Crossing pairs are taken in acceptance order (``rank``) and kept when they cross no
    pair kept before them. Equal stamps (a repeated one's rows) do not cross.
    """
    keep = np.ones(est_s.size, dtype=bool)
    if est_s.size < 2 or (np.diff(est_s) >= 0).all():
        return keep
    prefix_max = np.maximum.accumulate(est_s)
    suffix_min = np.minimum.accumulate(est_s[::-1])[::-1]
    crosses = np.zeros(est_s.size, dtype=bool)
    crosses[1:] |= prefix_max[:-1] > est_s[1:]
    crosses[:-1] |= suffix_min[1:] < est_s[:-1]
    suspects = np.flatnonzero(crosses)
    kept_pos: list[int] = []  # positions (= reference time order) of kept crossing pairs
    for pos in suspects[np.argsort(rank[suspects], kind="stable")].tolist():
        at = bisect.bisect_left(kept_pos, pos)
        before_ok = at == 0 or est_s[kept_pos[at - 1]] <= est_s[pos]
        after_ok = at == len(kept_pos) or est_s[kept_pos[at]] >= est_s[pos]
        if before_ok and after_ok:
            kept_pos.insert(at, pos)
        else:
            keep[pos] = False
    return keep
