"""Association in space: for trajectories whose clocks cannot be matched, nearest positions.

An estimate recorded on a clock that no offset repairs (a logger restarted, stamps lost,
a second drive of the same route) can still be compared where it was: each estimate pose
is matched to the nearest reference position, keeping the order both trajectories run
along the path. trajectopy offers the same (``MatchingMethod.NEAREST_SPATIAL``); evo has
none.

Rule (:func:`associate_spatially`, ``spatial_pairs="path"``, the default):

1. For every estimate pose, the nearest reference position (Euclidean, positions only;
   a k-d tree, :class:`scipy.spatial.cKDTree`, so ``O((N + M) log M)``); a pose with none
   within ``max_distance_m`` (inclusive) is not matched.
2. A reference pose that is the nearest of several estimate poses keeps the closest of
   them (the earliest on a tie).
3. The pairs must run forward along the path on both sides (both index sequences
   increasing, as every later step needs): of the remaining pairs, a longest chain that
   does is kept (patience sorting, ``O(K log K)``; Fredman 1975), the others are dropped
   with a note. They are estimate poses nearest to another pass of a place the path
   visits more than once.

trajectopy's rule (``spatial_pairs="first"``): step 1, then a reference pose that is the
nearest of several estimate poses keeps the *first* of them (the lowest estimate row),
and every such pair is kept, those that run backwards too, ordered by reference row as
trajectopy returns them. The matched reference then runs forward, the matched estimate
may not, so its poses carry their reference pose's stamps (their own rows are
``estimate_index``; stamps are not used to match anyway) and a note says how many pairs
run backwards. APE, which compares each pair on its own, takes these pairs; RPE, drift,
``transform_right_auto`` and the doctor compare the motion *between* pairs, which needs
pairs that run forward on both sides, and refuse them (:func:`check_forward_pairs`).

What it measures. The trajectories must share a world frame (a georeferenced estimate,
or one moved into the reference's frame with ``transform_left``): positions are compared
as they are. The nearest reference position of a pose that is off the path lies beside
it, so an error *along* the path is not seen: an APE over spatial pairs measures the
error across the path. With errors in every direction alike it is ``√(2/3)`` of the
time-matched APE (two of three axes; the tests measure it within 5 %). On the evo test
data, estimates moved into the reference's frame and shifted by 1000 s
(``benchmarks/bench_spatial.py``), the spatially matched APE against the part of the
time-matched APE across the path: fr1_xyz rgbdslam 7.3 against 8.8 mm, fr2_desk ORB 6.4
against 6.5 mm, V1_02 65 against 71 mm, KITTI 00 ORB 1.10 against 1.05 m; the median
stamp difference of the pairs gives the 1000 s back within 6 ms.

Against trajectopy 5.1.2's ``NEAREST_SPATIAL`` (read, not copied: GPL-3.0): step 1 is the
same (its ``max_distance`` of 0 means no limit, ours ``None``); ``spatial_pairs="first"``
is its rule for the rest. ``tests/data/trajectopy_spatial_reference.json`` holds its
pairs on ``freiburg1_xyz`` (the raw example files, not aligned): 625 pairs without a
limit, 580 within 2 cm. ``"first"`` gives exactly these pairs, in its order; the default
gives 371 and 345 (346 and 327 of them trajectopy's too), and the tests explain every
difference by the two rules of steps 2 and 3. One difference remains at the boundary:
trajectopy bounds the distance with SciPy's ``distance_upper_bound``, which leaves out a
pose exactly ``max_distance`` away (SciPy 1.17.1); we keep it (inclusive), under both
rules.
"""

from __future__ import annotations

import bisect
import math
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.compare.spatial_match import SpatialMatch
from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.evaluation.arguments import check_argument
from robot_msgs.evaluation.association import LOW_MATCH_SHARE, Association, _frozen
from robot_msgs.evaluation.settings import SPATIAL_PAIRS, EvaluationSettings, SpatialPairs
from robot_msgs.optional import require
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = ["associate_spatially", "check_forward_pairs"]


def associate_spatially(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    *,
    max_distance_m: float | None = None,
    spatial_pairs: SpatialPairs = "path",
) -> tuple[Association, SpatialMatch]:
    """Match every estimate pose with the nearest reference position, in path order.

    The rules and what they measure are in the module docstring.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test, in one world frame; stamps are not
        used. Neither is modified.
    max_distance_m : float, optional
        Largest distance of a pair, metres (inclusive); ``None``: any.
    spatial_pairs : {"path", "first"}
        Which pairs are kept: ``"path"``, the closest estimate pose of each reference
        pose and a longest chain running forward on both sides; ``"first"``,
        trajectopy's rule, the first estimate pose of each reference pose, backward
        pairs kept, in reference order.

    Returns
    -------
    association : Association
        The matched poses (``method="spatial"``, ``max_diff_s`` infinite, ``offset_s``
        0), each side with its own stamps (``"first"``: the estimate's poses with their
        reference pose's), and notes.
    match : SpatialMatch
        The evidence: distances, each estimate pose's nearest reference position, what
        was dropped and why, and the clock offset the pairs imply.

    Raises
    ------
    ValidationError
        ``max_distance_m`` not a distance > 0, ``spatial_pairs`` not a rule, or a
        trajectory whose stamps repeat (read with ``repeated_stamps="all"``).
    AssociationError
        An empty trajectory, or no estimate pose within ``max_distance_m`` of the
        reference.
    MissingDependencyError
        SciPy (the ``science`` extra) is not installed.

    Examples
    --------
    A reference at 10 Hz, and an estimate of the same drive at 5 Hz on a clock 1000 s
    off, 1 cm beside the path:

    >>> t = np.arange(0.0, 10.0, 0.1)
    >>> q = np.tile([0.0, 0.0, 0.0, 1.0], (t.size, 1))
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.stack([t, np.sin(t), 0 * t], 1),
    ...                      orientations_quat_xyzw=q)
    >>> est = PoseTrajectory(stamps_s=t[::2] + 1000.0,
    ...                      positions_xyz=ref.positions_xyz[::2] + [0.0, 0.0, 0.01],
    ...                      orientations_quat_xyzw=q[::2])
    >>> pairs, match = associate_spatially(ref, est, max_distance_m=0.05)
    >>> pairs.n_matched, round(match.offset_s, 6), float(match.distance_m.max())
    (50, -1000.0, 0.01)

    A path that comes back: two estimate poses nearest to reference pose 2, and the
    last one nearest to reference pose 0 again. The default keeps the closer of the two
    and drops the pair that runs backwards; trajectopy's rule keeps the first of the two
    and the backward pair, in reference order:

    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> ref = PoseTrajectory(stamps_s=x, positions_xyz=np.stack([x, 0 * x, 0 * x], 1),
    ...                      orientations_quat_xyzw=q[:4])
    >>> est = ref.replace(positions_xyz=[[1.0, 0.1, 0], [1.8, 0, 0], [2.05, 0, 0], [0.1, 0, 0]])
    >>> _, path = associate_spatially(ref, est)
    >>> _, first = associate_spatially(ref, est, spatial_pairs="first")
    >>> path.reference_index.tolist(), path.estimate_index.tolist()
    ([1, 2], [0, 2])
    >>> first.reference_index.tolist(), first.estimate_index.tolist()
    ([0, 1, 2], [3, 0, 1])
    """
    check_argument("reference", reference, PoseTrajectory)
    check_argument("estimate", estimate, PoseTrajectory)
    if max_distance_m is not None and not (
        isinstance(max_distance_m, int | float)
        and math.isfinite(max_distance_m)
        and max_distance_m > 0
    ):
        msg = f"Expected `max_distance_m` as a distance > 0 or None, got {max_distance_m!r}"
        raise ValidationError(msg, field="max_distance_m", reason="expected a distance > 0")
    if not isinstance(spatial_pairs, str) or spatial_pairs not in SPATIAL_PAIRS:  # an array
        msg = f"Expected `spatial_pairs` as one of {SPATIAL_PAIRS}, got {spatial_pairs!r}"
        raise ValidationError(msg, field="spatial_pairs", reason=f"expected one of {SPATIAL_PAIRS}")
    for name, traj in (("reference", reference), ("estimate", estimate)):
        if len(traj) == 0:
            msg = f"Cannot associate in space: the {name} trajectory has no poses"
            raise AssociationError(msg)
        if bool((traj.stamps_s[1:] <= traj.stamps_s[:-1]).any()):
            # WHY: the matched poses keep their stamps, one row a stamp; a trajectory read
            # with "all" ended in "Expected strictly increasing stamps" of a matched side.
            reason = (
                f"`sync='spatial'` needs one row a stamp, and the {name}'s stamps repeat "
                "(read with `repeated_stamps='all'`): use `sync='nearest'` (evo's rule) or "
                "'one_to_one' (rpg's), or read with 'first' or 'last'"
            )
            raise ValidationError(reason, field="sync", reason=reason)
    spatial = require("scipy.spatial", "science", feature="Association in space")
    distance, nearest = spatial.cKDTree(reference.positions_xyz).query(estimate.positions_xyz)
    nearest = np.asarray(nearest, dtype=np.intp)
    distance = np.asarray(distance, dtype=np.float64)
    within = distance <= (math.inf if max_distance_m is None else max_distance_m)
    est_rows = np.flatnonzero(within)
    if est_rows.size == 0:
        msg = (
            f"No estimate pose lies within {max_distance_m:g} m of a reference position "
            f"(the closest is {float(distance.min()):.3g} m away): are both in one world "
            "frame? Move the estimate (`transform_left=`), or raise `max_distance_m=`"
        )
        raise AssociationError(msg)
    ref_rows = nearest[est_rows]
    # Step 2: one estimate pose a reference pose; "path": the closest (the earliest on a
    # tie), "first": the earliest. Sorted by reference row, then the rule's preference.
    prefer = (est_rows,) if spatial_pairs == "first" else (est_rows, distance[est_rows])
    order = np.lexsort((*prefer, ref_rows))
    first = np.ones(order.size, dtype=bool)
    first[1:] = ref_rows[order][1:] != ref_rows[order][:-1]
    keep = order[first]  # by reference row: trajectopy's order
    n_shared = int(est_rows.size - keep.size)
    if spatial_pairs == "first":
        est_rows, ref_rows = est_rows[keep], ref_rows[keep]
        n_backward = 0
        n_out_of_order = int(est_rows.size - _longest_increasing(est_rows).size)
    else:  # Step 3: the longest chain running forward on both sides.
        keep = np.sort(keep)
        est_rows, ref_rows = est_rows[keep], ref_rows[keep]
        chain = _longest_increasing(ref_rows)
        n_backward = int(ref_rows.size - chain.size)
        n_out_of_order = 0
        est_rows, ref_rows = est_rows[chain], ref_rows[chain]
    gaps = reference.stamps_s[ref_rows] - estimate.stamps_s[est_rows]
    low, mid, high = np.percentile(gaps, [15.865, 50.0, 84.135])
    notes = _notes(
        len(estimate),
        int(within.sum()),
        (n_shared, n_backward, n_out_of_order),
        est_rows.size,
        max_distance_m,
        spatial_pairs,
    )
    # "first": the pairs run in reference order, and so must the matched stamps.
    own = spatial_pairs == "path"
    matched = _take(estimate, est_rows, None if own else reference.stamps_s[ref_rows])
    match = SpatialMatch(
        reference_index=ref_rows.astype(np.int64),
        estimate_index=est_rows.astype(np.int64),
        distance_m=distance[est_rows],
        nearest_index=np.where(np.isfinite(distance), nearest, -1).astype(np.int64),
        nearest_distance_m=np.where(np.isfinite(distance), distance, np.nan),
        n_reference=len(reference),
        n_estimate=len(estimate),
        n_within=int(within.sum()),
        offset_s=float(mid),
        offset_spread_s=float(high - low) / 2.0,
        max_distance_m=None if max_distance_m is None else float(max_distance_m),
        n_shared=n_shared,
        n_backward=n_backward,
        spatial_pairs=spatial_pairs,
        notes=notes,
    )
    association = Association(
        reference=_take(reference, ref_rows),
        estimate=matched,
        reference_index=_frozen(ref_rows),
        estimate_index=_frozen(est_rows),
        method="spatial",
        max_diff_s=math.inf,
        offset_s=0.0,
        n_reference=len(reference),
        n_estimate=len(estimate),
        notes=notes,
    )
    return association, match


def _longest_increasing(values: IntpArray) -> IntpArray:
    """Positions of a longest strictly increasing subsequence of ``values`` (patience sorting).

    ``tails[k]`` is the smallest last value of an increasing run of length ``k + 1`` seen
    so far; each value extends the run the binary search finds, and remembers the run's
    last position before it; the chain is read back from the last value of the longest.

    Examples
    --------
    >>> _longest_increasing(np.array([3, 1, 4, 1, 5, 9, 2, 6]))
    array([1, 2, 4, 7])
    """
    tails: list[int] = []
    tail_pos: list[int] = []
    previous = np.full(values.size, -1, dtype=np.intp)
    for pos, value in enumerate(values.tolist()):
        k = bisect.bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_pos.append(pos)
        else:
            tails[k] = value
            tail_pos[k] = pos
        previous[pos] = tail_pos[k - 1] if k else -1
    out: list[int] = []
    pos = tail_pos[-1] if tail_pos else -1
    while pos >= 0:
        out.append(pos)
        pos = int(previous[pos])
    return np.array(out[::-1], dtype=np.intp)


def _notes(
    n_estimate: int,
    n_within: int,
    dropped: tuple[int, int, int],
    n_matched: int,
    max_distance_m: float | None,
    spatial_pairs: str,
) -> tuple[str, ...]:
    """Return the association's notes; ``dropped`` is ``(shared, backward, out of order)``."""
    n_shared, n_backward, n_out_of_order = dropped
    if spatial_pairs == "first":
        rule = "first estimate pose of each reference pose, in reference order (trajectopy's)"
    else:
        rule = "in path order"
    notes = [
        (
            f"matched in space (nearest reference position, {rule}), not in time: "
            "errors along the path are not seen"
        )
    ]
    if spatial_pairs == "first":
        notes.append("the matched estimate poses carry their reference pose's stamps")
    if n_within < n_estimate:
        notes.append(
            f"{n_estimate - n_within} estimate pose(s) have no reference position within "
            f"{max_distance_m:g} m"
        )
    if n_shared:
        which = "an earlier" if spatial_pairs == "first" else "a closer"
        notes.append(
            f"{n_shared} estimate pose(s) had the same nearest reference pose as {which} "
            "one and were not matched"
        )
    if n_backward:
        notes.append(
            f"{n_backward} estimate pose(s) were nearest to a reference pose out of path "
            "order (another pass of a place visited more than once) and were not matched"
        )
    if n_out_of_order:
        notes.append(
            f"{n_out_of_order} pair(s) run backwards along the estimate (kept, as trajectopy "
            "keeps them)"
        )
    if n_matched < LOW_MATCH_SHARE * n_estimate:
        notes.append(
            f"only {100 * n_matched / n_estimate:.0f} % of the estimate's poses matched "
            f"({n_matched} of {n_estimate}); are both trajectories in one world frame?"
        )
    return tuple(notes)


def check_forward_pairs(settings: EvaluationSettings, what: str) -> None:
    """Refuse ``spatial_pairs="first"`` for ``what``, a step that compares motions between pairs.

    RPE, drift and the doctor's checks compare the motion from one matched pose to
    another on both sides; trajectopy's rule keeps pairs that run backwards along the
    estimate (another pass of a place), between which the estimate's motion is not the
    reference's.

    Raises
    ------
    ValidationError
        ``settings.spatial_pairs`` is ``"first"`` (with ``sync="spatial"``), naming the
        field.

    Examples
    --------
    >>> check_forward_pairs(EvaluationSettings(sync="spatial"), "RPE")
    >>> check_forward_pairs(EvaluationSettings(sync="spatial", spatial_pairs="first"), "RPE")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: expected `spatial_pairs='path'` for RPE (it compares \
the motion between pairs, which needs pairs that run forward on both sides; \
`spatial_pairs='first'`, trajectopy's rule, keeps pairs that run backwards: APE only), got \
'first' - at `EvaluationSettings.spatial_pairs`
    """
    if settings.sync != "spatial" or settings.spatial_pairs == "path":
        return
    reason = (
        f"expected `spatial_pairs='path'` for {what} (it compares the motion between pairs, "
        "which needs pairs that run forward on both sides; `spatial_pairs='first'`, "
        f"trajectopy's rule, keeps pairs that run backwards: APE only), got "
        f"{settings.spatial_pairs!r}"
    )
    msg = f"{reason} - at `EvaluationSettings.spatial_pairs`"
    raise ValidationError(msg, field="EvaluationSettings.spatial_pairs", reason=reason)


def _take(
    trajectory: PoseTrajectory, rows: IntpArray, stamps_s: Float64Array | None = None
) -> PoseTrajectory:
    """Return the poses at ``rows``, with their own stamps or ``stamps_s``."""
    cov, matrices = trajectory.covariance_6x6, trajectory.rotation_matrices
    return PoseTrajectory(
        stamps_s=trajectory.stamps_s[rows] if stamps_s is None else stamps_s,
        positions_xyz=trajectory.positions_xyz[rows],
        orientations_quat_xyzw=trajectory.orientations_quat_xyzw[rows],
        frame_id=trajectory.frame_id,
        child_frame_id=trajectory.child_frame_id,
        covariance_6x6=None if cov is None else cov[rows],
        rotation_matrices=None if matrices is None else matrices[rows],
        orientations_from_matrices=trajectory.orientations_from_matrices,
    )
