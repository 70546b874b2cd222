"""Which pose pairs ``(i, j)`` a relative error compares: evo's selection rules, vectorised.

Units of ``delta``:

``f`` (frames)
    Consecutive: ``(0, δ), (δ, 2δ), …``; all pairs: ``(i, i + δ)`` for every ``i``
    (evo ``filter_pairs_by_index``).
``m`` (metres of travelled path)
    Consecutive: from the last chosen pose, walk the path; the first pose whose distance
    summed since then is ``>= δ`` closes the pair and starts the next (evo
    ``filter_pairs_by_path``). All pairs: for each ``i``, the later ``j`` whose path
    distance from ``i`` is closest to ``δ`` (the earlier on a tie), kept when within
    ``delta_tol · δ``.
``rad`` / ``deg`` (rotation angle)
    Consecutive: sum the angles between neighbouring orientations until ``>= δ`` (evo
    ``filter_pairs_by_angle``). All pairs: every ``j > i`` whose *direct* rotation angle
    from ``i`` lies in ``δ ± delta_tol · δ`` (evo's rule, which can give many ``j``
    per ``i``). ``δ`` must be within ``[0, π]`` rad (``[0, 180]`` deg).
``s`` (seconds; evo has no such unit)
    All pairs: for each ``i``, the ``j > i`` whose stamp is nearest to ``t_i + δ`` (the
    earlier on a tie), kept when ``t_i + δ`` is not after the last stamp and
    ``|t_j - t_i - δ| <= delta_tol · δ``. Consecutive: the same nearest-stamp step
    taken from the last chosen pose (at least one pose ahead), pairs outside the tolerance
    dropped (a gap in the data). WHY nearest and not "first at or after": stamps such as
    ``0.1 k`` are not exact in binary, so "first with ``t_j - t_i >= 1``" flips between
    10 and 11 frames; nearest with a tolerance is robust to that and to clock jitter, and
    it reproduces the SLAM guide's one-second table.

Cost: ``O(N log N)`` for every unit and mode (``searchsorted`` on cumulative path length,
angle or time) except all-pairs by angle, whose output alone can be ``O(N²)`` (a robot
that keeps turning back and forth). That one runs a dual-tree search over blocks of
consecutive poses, each bounded by a ball on SO(3) (centre orientation and radius; the
geodesic angle obeys the triangle inequality), so block pairs whose angles cannot reach
the band ``δ ± tol`` are skipped whole and only the survivors are checked pose by pose:
``O(N log N + K + boundary)`` for ``K`` output pairs, exact (the same predicate as evo
on every pair not provably outside the band). Measured on this project's 2-core machine:
KITTI 00 ground truth (4541 poses), 10 ± 1 deg: 121 404 pairs in 0.08 s, evo 1.38.1
86 s for the same pairs; 90 ± 9 deg: 2.1 million pairs in 0.7 s (evo 99 s); a
10^5-pose random walk turning 0.1 deg per step, 5 ± 0.5 deg: 78 million pairs in 24 s,
where the output (1.2 GB of indices) is the cost.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.arguments import check_argument, check_points
from robot_msgs.evaluation.settings import PairSettings
from robot_msgs.rotations import angle_from_quat_xyzw, quat_xyzw_conjugate, quat_xyzw_multiply
from robot_msgs.sorted_search import path_pairs, search_sorted
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = ["check_seconds", "path_distances", "select_pairs"]

_EPS = float(np.finfo(np.float64).eps)
_LEAF = 16  # poses per leaf block of the all-pairs angle search
_CHUNK = 1 << 20  # pose pairs checked at once at the leaves (memory bound)
_ROWS = 1 << 16  # rows done at once by the blocked per-row loops: ~0.5 MB a temporary
_MARGIN = 1e-9  # rad: block bounds are widened by this against rounding
_DOT_MARGIN = 1e-12  # |q_i · q_j| this close to a band edge is decided by the angle itself


def path_distances(positions_xyz: Float64Array) -> Float64Array:
    """Travelled distance from the first position, ``(N,)`` metres (evo ``accumulated_distances``).

    ``positions_xyz``: ``(N, 3)`` finite numbers, metres; anything else raises a
    :class:`~robot_msgs.errors.ValidationError` (a NaN gave NaN distances in silence).
    A step longer than about 1e154 m (its square past float64) is ``inf``, without a warning.

    Examples
    --------
    >>> path_distances(np.array([[0.0, 0, 0], [3, 4, 0], [3, 4, 1]]))
    array([0., 5., 6.])
    """
    p = check_points("positions_xyz", positions_xyz, min_rows=0)
    n = p.shape[0]
    out = np.zeros(n)
    if n < 2:
        return out
    # ``np.linalg.norm(p[:-1] - p[1:], axis=1)``'s arithmetic (square, add along the row,
    # root), in blocks: one (N, 3) temporary would cost 24 bytes a pose at 10^7 poses.
    # WHY the columns added one by one: the same sums, bit for bit, as ``np.add.reduce``
    # along rows of three, which NumPy loops over row by row (28.5 ms at 10^6 poses
    # against 9.1 ms).
    steps = out[1:]
    with np.errstate(over="ignore"):  # a step past float64 is inf
        for start in range(0, n - 1, _ROWS):
            stop = min(start + _ROWS, n - 1)
            d = p[start + 1 : stop + 1] - p[start:stop]
            np.multiply(d, d, out=d)
            step = steps[start:stop]
            np.add(d[:, 0], d[:, 1], out=step)
            step += d[:, 2]
            np.sqrt(step, out=step)
        np.cumsum(steps, out=steps)
    return out


def _empty() -> IntpArray:
    return np.zeros((0, 2), dtype=np.intp)


def _stack(first: IntpArray, second: IntpArray) -> IntpArray:
    return np.stack([first.astype(np.intp), second.astype(np.intp)], axis=1)


def _frame_pairs(n: int, delta: float, *, all_pairs: bool) -> IntpArray:
    step = int(delta)  # a whole number (PairSettings checks it)
    if step >= n:  # no pair; a step past int64 (1e300 frames) overflowed NumPy's arithmetic
        return _empty()
    if all_pairs:
        first = np.arange(max(n - step, 0))
        return _stack(first, first + step)
    anchors = np.arange(0, n, step)
    return _stack(anchors[:-1], anchors[1:])


def _consecutive_by_sum(increments: Float64Array, delta: float) -> IntpArray:
    """Follow evo's accumulate-and-reset chain over per-step ``increments`` ``(N - 1,)``.

    From anchor ``a`` the running sum ``increments[a] + increments[a + 1] + …`` (summed
    in that order from zero, as evo does) first reaching ``delta`` at pose ``j`` closes
    the pair ``(a, j)``; ``j`` is the next anchor. The jump from every anchor is found at
    once by ``searchsorted`` on the cumulative sum; the rare jumps whose cumulative
    difference lies within rounding of ``delta`` are re-summed exactly from the anchor.
    """
    n = increments.size + 1
    total = np.concatenate(([0.0], np.cumsum(increments)))
    nxt = search_sorted(total, total + delta, "left")
    # Rounding bound of a cumulative difference against the sequential sum from an anchor.
    guard = 4.0 * _EPS * n * max(float(total[-1]), delta, 1.0)
    anchors = [0]
    a = 0
    # Python lists: one step of this walk is a few list reads and float operations,
    # ~3x cheaper than on NumPy scalars.
    nxt_list = nxt.tolist()
    sums = total.tolist()
    while True:
        j = nxt_list[a]
        clear = (
            j < n
            and sums[j] - sums[a] - delta > guard
            and (j == a + 1 or delta - (sums[j - 1] - sums[a]) > guard)
        )
        if not clear:  # within rounding of delta (or past the end): sum exactly as evo
            j = _exact_crossing(increments, a, delta, guard, total)
        if j >= n:
            break
        anchors.append(j)
        a = j
    arr = np.asarray(anchors, dtype=np.intp)
    return _stack(arr[:-1], arr[1:])


def _exact_crossing(
    increments: Float64Array, anchor: int, delta: float, guard: float, total: Float64Array
) -> int:
    """First ``j > anchor`` whose sequential sum of increments from ``anchor`` is ``>= delta``."""
    n = increments.size + 1
    stop = int(np.searchsorted(total, total[anchor] + delta + 2.0 * guard, side="right")) + 1
    stop = min(max(stop, anchor + 2), n)
    sums = np.cumsum(increments[anchor : stop - 1])
    hit = np.flatnonzero(sums >= delta)
    return anchor + 1 + int(hit[0]) if hit.size else n


def _path_all_pairs(distances: Float64Array, delta: float, tol: float) -> IntpArray:
    """For each ``i``, the ``j > i`` with the smallest ``|(D_j - D_i) - δ|``, if ``<= tol``.

    Ties go to the earliest ``j``, as ``argmin`` does in evo.
    """
    walked = path_pairs(distances, delta, tol)  # the same pairs, in one compiled pass
    return _path_all_pairs_blocked(distances, delta, tol) if walked is None else walked


def _path_all_pairs_blocked(distances: Float64Array, delta: float, tol: float) -> IntpArray:
    """:func:`_path_all_pairs` in NumPy, blocks of rows at a time (without the C module)."""
    n = distances.size
    # Each start row's partner depends on that row and ``distances`` only: rows are done
    # in blocks so the ~15 (rows,) temporaries stay bounded (146 bytes a pose at once
    # before, the command's peak at 10^7 poses), written into one (n - 1, 2) result.
    out = np.empty((n - 1, 2), dtype=np.intp)
    kept = 0
    for start in range(0, n - 1, _ROWS):
        block = _path_pairs_from(distances, start, min(start + _ROWS, n - 1), delta, tol)
        out[kept : kept + block.shape[0]] = block
        kept += block.shape[0]
    out.resize((kept, 2), refcheck=False)
    return out


def _path_pairs_from(
    distances: Float64Array, start: int, stop: int, delta: float, tol: float
) -> IntpArray:
    """:func:`_path_all_pairs` for the start rows ``start <= i < stop``."""
    n = distances.size
    first = np.arange(start, stop)
    d_i = distances[start:stop]
    # upper: the first j > i with (D_j - D_i) >= δ as evaluated in floating point.
    upper = search_sorted(distances, d_i + delta, "left")
    upper = np.clip(upper, first + 1, n)
    # Fix searchsorted's view of rounding by whole plateaus; usually no step at all. Each
    # round moves a row toward its answer and never past it (the test is monotone in j),
    # so n rounds always end it; the bound keeps a NaN inside D (which the path lengths
    # never hold) from looping for ever.
    for _ in range(n + 1):
        prev = np.maximum(upper - 1, 0)
        back = (upper > first + 1) & (distances[prev] - d_i >= delta)
        cur = np.minimum(upper, n - 1)
        fwd = ~back & (upper < n) & (distances[cur] - d_i < delta)
        if not (back.any() or fwd.any()):
            break
        upper = np.where(back, search_sorted(distances, distances[prev], "left"), upper)
        upper = np.where(fwd, search_sorted(distances, distances[cur], "right"), upper)
        upper = np.clip(upper, first + 1, n)
    has_upper = upper < n
    up = np.minimum(upper, n - 1)
    up_err = np.abs(distances[up] - d_i - delta)  # the least error at or past upper
    has_low = upper - 1 >= first + 1
    low = np.maximum(upper - 1, first + 1)
    low_err = np.abs(distances[np.minimum(low, n - 1)] - d_i - delta)
    # Before upper the error only falls with j: its ties with low's (a plateau of equal
    # distances, or differences that round to the same error) end at low, and evo's
    # argmin takes the first of them.
    low = _first_tie(distances, d_i, delta, first + 1, low, low_err)
    take_low = has_low & (~has_upper | (low_err <= up_err))
    second = np.where(take_low, low, up)
    err = np.where(take_low, low_err, up_err)
    keep = (has_low | has_upper) & (err <= tol)
    return _stack(first[keep], second[keep])


def _first_tie(
    distances: Float64Array,
    d_i: Float64Array,
    delta: float,
    lowest: IntpArray,
    low: IntpArray,
    low_err: Float64Array,
) -> IntpArray:
    """Per row, the first ``j`` in ``lowest..low`` whose error ``|D_j - D_i - δ|`` is ``low_err``.

    The errors fall (weakly) with ``j`` up to ``low``, so the ties are ``first..low``: a
    binary search, done only for the rows whose ``low - 1`` ties (most rows have none).
    """
    n = distances.size
    prev = np.maximum(low - 1, lowest)
    tied = np.flatnonzero(
        (prev < low) & (np.abs(distances[np.minimum(prev, n - 1)] - d_i - delta) <= low_err)
    )
    if not tied.size:
        return low
    lo, hi, base, bound = lowest[tied], prev[tied], d_i[tied], low_err[tied]
    while True:  # hi always ties; the first tie is in lo..hi
        open_rows = lo < hi
        if not open_rows.any():
            break
        mid = (lo + hi) // 2
        ties = np.abs(distances[mid] - base - delta) <= bound
        hi = np.where(open_rows & ties, mid, hi)
        lo = np.where(open_rows & ~ties, mid + 1, lo)
    out: IntpArray = low.copy()
    out[tied] = hi
    return out


def _chain_from_first(successor: IntpArray) -> IntpArray:
    """Follow the chain ``0, s(0), s(s(0)), …`` of a successor map that only moves forward.

    ``successor[a] > a`` is the next pose after ``a``; ``n`` (or more) ends the chain. By
    pointer doubling (Hillis & Steele, "Data parallel algorithms", CACM 29(12), 1986): with
    ``jump = s^L`` the first ``L`` links give the next ``L`` at once, and ``jump[jump]`` is
    ``s^2L``, so ``K`` links cost ``O(N log K)`` in whole-array steps, never a Python loop
    per pose.

    Examples
    --------
    >>> _chain_from_first(np.array([2, 3, 3, 5, 5])).tolist()
    [0, 2, 3]
    """
    n = successor.size
    jump = np.append(np.minimum(successor, n), n).astype(np.intp)  # n is its own successor
    chain = np.zeros(1, dtype=np.intp)
    while chain[-1] < n:
        chain = np.concatenate([chain, jump[chain]])
        jump = jump[jump]
    out: IntpArray = chain[chain < n]
    return out


def _time_pairs(stamps: Float64Array, delta: float, tol: float, *, all_pairs: bool) -> IntpArray:
    n = stamps.size
    if n < 2:
        return _empty()
    slack = 16.0 * float(np.spacing(max(abs(float(stamps[0])), abs(float(stamps[-1])))))
    target = stamps + delta
    right = np.clip(search_sorted(stamps, target, "left"), 1, n - 1)
    left = right - 1
    nearest = np.where(target - stamps[left] <= stamps[right] - target, left, right)
    nearest = np.maximum(nearest, np.arange(n) + 1)
    inside = target <= stamps[-1] + slack
    if all_pairs:
        first = np.arange(n)
        ok = inside & (nearest < n)
        first, second = first[ok], nearest[ok]
    else:
        chain = _chain_from_first(np.where(inside, nearest, n))
        first, second = chain[:-1], chain[1:]
    gap = np.abs(stamps[second] - stamps[first] - delta)
    keep = gap <= tol + slack
    return _stack(first[keep], second[keep])


def _block_balls(quats: Float64Array, size: int) -> tuple[Float64Array, Float64Array]:
    """Centre quaternions and radii (rad) of consecutive blocks of ``size`` poses."""
    n = quats.shape[0]
    starts = np.arange(0, n, size)
    centres = quats[np.minimum(starts + size // 2, n - 1)]
    owner = np.repeat(np.arange(starts.size), np.diff(np.append(starts, n)))
    dist = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(centres[owner]), quats))
    radii = np.maximum.reduceat(dist, starts)
    return centres, radii


def _angle_all_pairs(quats: Float64Array, lower: float, upper: float) -> IntpArray:
    """Every ``i < j`` whose direct rotation angle lies in ``[lower, upper]`` rad.

    Dual-tree search: blocks of ``_LEAF · 2^k`` consecutive poses are balls on SO(3)
    (a centre and the largest angle from it). Two balls at centre angle ``d`` hold
    pose pairs with angles in ``[d - r_a - r_b, d + r_a + r_b]`` (triangle inequality of
    the geodesic angle); block pairs whose interval misses the band are dropped, the
    others split into their halves, level by level, all block pairs of a level at once.
    """
    levels: list[tuple[Float64Array, Float64Array]] = []
    size = _LEAF
    while True:
        levels.append(_block_balls(quats, size))
        if levels[-1][0].shape[0] == 1:
            break
        size *= 2
    a = np.zeros(1, dtype=np.intp)
    b = np.zeros(1, dtype=np.intp)
    for depth in range(len(levels) - 1, -1, -1):
        centres, radii = levels[depth]
        d = angle_from_quat_xyzw(quat_xyzw_multiply(quat_xyzw_conjugate(centres[a]), centres[b]))
        reach = radii[a] + radii[b]
        alive = (d - reach <= upper + _MARGIN) & (d + reach >= lower - _MARGIN)
        a, b = a[alive], b[alive]
        if depth == 0:
            break
        n_child = levels[depth - 1][0].shape[0]
        ca = np.stack([2 * a, 2 * a, 2 * a + 1, 2 * a + 1], axis=1).ravel()
        cb = np.stack([2 * b, 2 * b + 1, 2 * b, 2 * b + 1], axis=1).ravel()
        ok = (ca <= cb) & (cb < n_child)
        a, b = ca[ok], cb[ok]
    return _leaf_pairs(quats, a, b, lower, upper)


def _leaf_pairs(
    quats: Float64Array, a: IntpArray, b: IntpArray, lower: float, upper: float
) -> IntpArray:
    """Check every pose pair of the surviving leaf-block pairs; return the matches, sorted.

    The angle test runs on ``|q_i · q_j| = cos(θ / 2)`` (one small matrix product per
    block pair); pairs within rounding of a band edge are decided by the accurate angle.
    """
    n = quats.shape[0]
    n_blocks = -(-n // _LEAF)
    padded = np.full((n_blocks * _LEAF, 4), np.nan)
    padded[:n] = quats
    blocks = padded.reshape(n_blocks, _LEAF, 4)
    cos_hi, cos_lo = math.cos(min(upper, math.pi) / 2.0), math.cos(max(lower, 0.0) / 2.0)
    upper_tri = np.triu(np.ones((_LEAF, _LEAF), dtype=bool), k=1)
    found: list[npt.NDArray[np.int64]] = []
    per_chunk = max(1, _CHUNK // (_LEAF * _LEAF))
    for start in range(0, a.size, per_chunk):
        ba, bb = a[start : start + per_chunk], b[start : start + per_chunk]
        with np.errstate(invalid="ignore"):
            dots = np.abs(np.matmul(blocks[ba], blocks[bb].transpose(0, 2, 1)))
            near = (dots >= cos_hi - _DOT_MARGIN) & (dots <= cos_lo + _DOT_MARGIN)
        near &= (ba != bb)[:, None, None] | upper_tri
        k, r, c = np.nonzero(near)
        i, j = ba[k] * _LEAF + r, bb[k] * _LEAF + c
        dot = dots[k, r, c]
        edge = (np.abs(dot - cos_hi) <= _DOT_MARGIN) | (np.abs(dot - cos_lo) <= _DOT_MARGIN)
        hit = ~edge
        if edge.any():
            ei, ej = i[edge], j[edge]
            rel = quat_xyzw_multiply(quat_xyzw_conjugate(quats[ei]), quats[ej])
            angle = angle_from_quat_xyzw(rel)
            hit[np.flatnonzero(edge)] = (lower <= angle) & (angle <= upper)
        found.append((i[hit].astype(np.int64) << 32) | j[hit])
    if not found:
        return _empty()
    # One int64 key per pair (i < 2³¹, j < 2³¹); the chunks come nearly sorted, which the
    # stable sort (a merge of runs) exploits.
    keys = np.sort(np.concatenate(found), kind="stable")
    return _stack(keys >> 32, keys & 0xFFFFFFFF)


def check_seconds(trajectory: PoseTrajectory, pairs: PairSettings) -> None:
    """Refuse a delta in seconds on a trajectory whose stamps are frame indices, or repeat.

    KITTI read without its times file: "1 s" counted one frame (4540 pairs where 454
    are). evo refuses seconds on a path without stamps too.

    Raises
    ------
    ValidationError
        ``delta_unit='s'`` on such stamps; the error's field is ``PairSettings.delta_unit``.
        Stamps that repeat (read with ``repeated_stamps="all"``) are refused alike.
    """
    if pairs.delta_unit == "s" and trajectory.stamps_are_frames:
        reason = (
            f"the {pairs.pairs_from}'s stamps are frame indices (a KITTI file read without "
            "its times file), so a delta in seconds would count frames: give the times "
            "files, or `delta_unit='f'` for frames"
        )
        raise ValidationError(reason, field="PairSettings.delta_unit", reason=reason)
    stamps = trajectory.stamps_s
    if pairs.delta_unit == "s" and bool((stamps[1:] <= stamps[:-1]).any()):
        # WHY: a file read with repeated_stamps="all" (evo's V102.txt) has no single pose
        # at a repeated stamp, so "delta seconds later" names no one pose.
        reason = (
            f"the {pairs.pairs_from}'s stamps repeat (read with `repeated_stamps='all'`), "
            "so a delta in seconds names no one pose: read with 'first' or 'last'"
        )
        raise ValidationError(reason, field="PairSettings.delta_unit", reason=reason)


def select_pairs(trajectory: PoseTrajectory, pairs: PairSettings) -> IntpArray:
    """Index pairs ``(i, j)``, ``i < j``, that are ``pairs.delta`` apart in ``pairs.delta_unit``.

    The rules are in this module's docstring; for ``f``, ``m``, ``rad`` and ``deg`` they
    are evo 1.38.1's (``evo.core.filters``), for ``s`` our own.

    Parameters
    ----------
    trajectory : PoseTrajectory
        The trajectory whose motion defines the pairs (evo uses the estimate unless
        ``--pairs_from_reference``).
    pairs : PairSettings
        ``delta`` in ``delta_unit``, ``all_pairs`` (every start pose instead of
        consecutive, non-overlapping pairs) and ``delta_tol`` (relative tolerance of the
        all-pairs rules and of ``s``, evo's default 0.1); ``pairs_from`` is for the caller.

    Returns
    -------
    ndarray, shape (K, 2), intp
        Pairs sorted by ``i``, then ``j``; possibly empty.

    Examples
    --------
    >>> from robot_msgs.evaluation import PairSettings
    >>> from robot_msgs.trajectory import PoseTrajectory
    >>> traj = PoseTrajectory(
    ...     stamps_s=np.arange(5) * 0.5, positions_xyz=np.arange(15.0).reshape(5, 3) / 3,
    ...     orientations_quat_xyzw=[[0, 0, 0, 1]] * 5,
    ... )
    >>> select_pairs(traj, PairSettings(delta=2, delta_unit="f")).tolist()
    [[0, 2], [2, 4]]
    >>> select_pairs(traj, PairSettings(delta=1.0, delta_unit="s", all_pairs=True)).tolist()
    [[0, 2], [1, 3], [2, 4]]
    """
    check_argument("trajectory", trajectory, PoseTrajectory)
    check_argument("pairs", pairs, PairSettings)
    check_seconds(trajectory, pairs)
    delta, delta_unit, all_pairs = pairs.delta, pairs.delta_unit, pairs.all_pairs
    n = len(trajectory)
    tol = delta * pairs.delta_tol
    if delta_unit == "f":
        return _frame_pairs(n, delta, all_pairs=all_pairs)
    if delta_unit == "s":
        return _time_pairs(trajectory.stamps_s, delta, tol, all_pairs=all_pairs)
    if n < 2:
        return _empty()
    if delta_unit == "m":
        if all_pairs:
            return _path_all_pairs(path_distances(trajectory.positions_xyz), delta, tol)
        steps = np.linalg.norm(np.diff(trajectory.positions_xyz, axis=0), axis=1)
        return _consecutive_by_sum(steps, delta)
    if delta_unit == "deg":
        delta, tol = math.radians(delta), math.radians(tol)
    quats = trajectory.orientations_quat_xyzw
    if all_pairs:
        return _angle_all_pairs(quats, delta - tol, delta + tol)
    rel = quat_xyzw_multiply(quat_xyzw_conjugate(quats[:-1]), quats[1:])
    return _consecutive_by_sum(angle_from_quat_xyzw(rel), delta)
