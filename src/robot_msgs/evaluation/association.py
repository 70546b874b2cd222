"""Association in time: which estimate pose and which reference pose describe the same instant.

Five rules, each ``O((N + M) log(N + M))`` in time and linear in memory (binary searches
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
``interpolate_estimate``
    trajectopy 5.1.2's ``MatchingMethod.INTERPOLATION`` (its default): the estimate
    resampled at the reference's stamps, the same interpolation as ``interpolate`` with the
    sides exchanged, refused across estimate gaps longer than ``max_gap_s``.

WHY a matched pair set must run forward in time on both sides: the matched poses are returned
as :class:`~robot_msgs.trajectory.PoseTrajectory` values, whose stamps strictly increase so
that every later step (RPE by seconds, drift) can binary search them. The reference tools can
return pairs that break this: evo's ``nearest`` may give one pose of the longer trajectory to
two poses of the shorter one, and TUM's greedy rule may cross two pairs in time. Both happen
only when ``max_diff_s`` exceeds the sampling interval; we then keep the subset of the tool's
pairs that runs forward, preferring the closer pair, and say so in ``notes``.

Here: :class:`Association`, :func:`associate` and the three ``interpolate`` rules. The
``nearest`` and ``one_to_one`` rules on the stamps alone are in
:mod:`~robot_msgs.evaluation.stamp_matching`; the error of an association without a pair
in :mod:`~robot_msgs.evaluation.no_match`; the checks of stamps in another unit than
seconds, which the notes and that error name, in :mod:`~robot_msgs.evaluation.stamp_units`
(importable from here too).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import AssociationError, ValidationError
from robot_msgs.evaluation.no_match import _SIDES, _no_match
from robot_msgs.evaluation.settings import EvaluationSettings, check_inputs
from robot_msgs.evaluation.stamp_matching import _nearest_pairs, _one_to_one_pairs
from robot_msgs.evaluation.stamp_units import (
    ROBOT_SPEEDS_M_S,
    CountedFrames,
    OtherUnit,
    SmallerUnit,
    counted_frames,
    counts_frames,
    other_stamp_unit,
    smaller_stamp_unit,
)
from robot_msgs.msg.repr import array_text
from robot_msgs.report.text import percent
from robot_msgs.rotations import quat_xyzw_slerp
from robot_msgs.sorted_search import search_sorted
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
#: The rules whose pairs are rows of both sides, which two pairs may share (not resampled).
_ROWS_PAIRED = ("nearest", "tum_nearest")

#: The note of a match of stamps that repeat. WHY: Signal.of integrates only over
#: increasing stamps (a bare NaN).
_REPEATS_NOTE = (
    "the matched stamps repeat (`repeated_stamps='all'`): no time axis, so iae/ise/itae are NaN"
)
#: Below this share of the shorter trajectory's poses matched, a note warns the reader.
LOW_MATCH_SHARE = 0.3

#: Default ``max_gap_s`` of ``interpolate``, in median reference intervals.
DEFAULT_GAP_INTERVALS = 10.0


def resolved_max_gap_s(side: PoseTrajectory, max_gap_s: float | None) -> float:
    """Return ``max_gap_s``, else :data:`DEFAULT_GAP_INTERVALS` median intervals of ``side``.

    The longest reference gap ``interpolate`` and the clock-offset search interpolate
    across, seconds (infinite for one pose).
    """
    if max_gap_s is not None:
        return max_gap_s
    return DEFAULT_GAP_INTERVALS * side.median_step_s


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
        stamps (plus ``offset_s`` for the reference, minus for the estimate); for
        ``interpolate_estimate`` the estimate's poses at the reference's stamps minus
        ``offset_s``; for ``spatial`` with
        ``spatial_pairs="first"`` the pairs run in reference order and the estimate's
        poses carry their reference pose's stamps (their own rows may run backwards).
    reference_index : ndarray, shape (K,), intp
        Row of each matched reference pose in the input; for ``interpolate`` (and
        ``interpolate_longer`` when the reference is the longer side) the left neighbour
        of the interpolation (the pose at or before the stamp).
    estimate_index : ndarray, shape (K,), intp
        Row of each matched estimate pose in the input (the left neighbour when
        ``interpolate_longer`` or ``interpolate_estimate`` resamples the estimate).
    method : str
        ``"nearest"``, ``"one_to_one"``, ``"interpolate"``, ``"interpolate_longer"``,
        ``"interpolate_estimate"`` or ``"spatial"``.
    max_diff_s, offset_s : float
        The tolerance and the offset added to the estimate's stamps, seconds.
    n_reference, n_estimate : int
        Pose counts of the inputs.
    notes : tuple of str
        What a reader must know: few matches, pairs dropped and why.
    max_gap_s : float or None
        ``interpolate`` (``interpolate_estimate``) only: the longest reference (estimate)
        gap interpolated across, seconds.
    refused_gap : int
        ``interpolate`` (``interpolate_estimate``) only: estimate (reference) poses refused
        because they fall in a longer gap.
    n_reference_used, n_estimate_used : int or None
        Where a side is resampled (the ``interpolate`` rules): its poses
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

    def __repr__(self) -> str:
        """Return the fields as a message shows them: a long index by its dtype, shape and ends.

        WHY: NumPy's own repr printed every row index up to 1,000 of them: an
        ``associate()`` of fr1_xyz in a notebook was 10,136 characters, 9,000 of them
        digits (``Prepared`` around it 11,084), where its trajectories were one line each.
        """
        parts = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            shown = array_text(value) if isinstance(value, np.ndarray) else repr(value)
            parts.append(f"{field.name}={shown}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def low_match_note(self) -> str | None:
        """Return the note of a match under :data:`LOW_MATCH_SHARE`, if this one is.

        Examples
        --------
        >>> from robot_msgs.trajectory import PoseTrajectory
        >>> ref = PoseTrajectory(stamps_s=np.arange(10.0), positions_xyz=np.zeros((10, 3)),
        ...                      orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (10, 1)))
        >>> few = associate(ref, ref.replace(stamps_s=np.arange(10.0) + 8))
        >>> few.low_match_note()
        "only 20% of the shorter trajectory's poses matched (2 of 10); check the clock \
offset (`offset_s=`, or `offset_auto=True` to estimate it) and `max_diff_s=`"
        """
        return next((n for n in self.notes if n.startswith(_LOW_MATCH_START)), None)

    def counts(self) -> dict[str, int]:
        """Count matched and unmatched poses on both sides, for ``Comparison.counts``.

        ``unmatched_reference`` and ``unmatched_estimate`` count poses used by no pair
        (on a resampled side: by no interpolation). ``interpolate`` and
        ``interpolate_estimate`` add ``refused_gap``.
        Where a side's rows are shared by pairs (stamps that repeat, read with
        ``repeated_stamps="all"``; TUM's protocol, several estimate stamps nearest one
        reference stamp), ``matched_<side>_rows`` counts its rows in a pair and
        ``shared_<side>_rows`` those in more than one, so that ``<side>`` is
        ``matched_<side>_rows + unmatched_<side>`` (V1_02 read as evo: 794 of 16702
        reference rows in the 798 pairs, 4 of them in two). A resampled side
        (the ``interpolate`` rules) has ``matched_<side>_rows`` where its
        rows the interpolations read are not as many as the pairs (fr1_xyz's ground
        truth at rgbdslam's stamps: 1570 rows, 2 for each of the 785).
        """
        used_reference = self.n_matched if self.n_reference_used is None else self.n_reference_used
        used_estimate = self.n_matched if self.n_estimate_used is None else self.n_estimate_used
        # WHY: V1_02 read as evo said "reference 16702, matched 798, unmatched reference
        # 15908": 4 reference rows are in two pairs each, so the counts did not add up.
        rows: dict[str, int] = {}
        for side, index, used in (
            ("reference", self.reference_index, used_reference),
            ("estimate", self.estimate_index, used_estimate),
        ):
            if self.method in _ROWS_PAIRED and used < self.n_matched:
                uses = np.unique(index, return_counts=True)[1]
                rows[f"matched_{side}_rows"] = used
                rows[f"shared_{side}_rows"] = int(np.count_nonzero(uses > 1))
            elif self.method.startswith("interpolate") and used != self.n_matched:
                # A resampled side: each interpolation reads the 2 rows around its stamp
                # (fr1_xyz: "reference 3000, matched 785, unmatched reference 1430").
                rows[f"matched_{side}_rows"] = used
        out = {
            "reference": self.n_reference,
            "estimate": self.n_estimate,
            "matched": self.n_matched,
            **rows,
            "unmatched_reference": self.n_reference - used_reference,
            "unmatched_estimate": self.n_estimate - used_estimate,
        }
        if self.method in ("interpolate", "interpolate_estimate"):
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
        interval, infinite with one reference pose; ``interpolate_estimate``: the same with
        the sides exchanged). The time range is applied before,
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
    Where a side's stamps repeat (read with ``repeated_stamps="all"``) every pair is
    kept, as evo keeps them, and the matched poses' stamps repeat too: only this rule and
    ``one_to_one`` take such trajectories, the others refuse them.

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
    with a note. Stamps that repeat (``repeated_stamps="all"``) are paired as rows, each
    row once, as rpg_trajectory_evaluation's ``associate()`` pairs the rows of its files
    (TUM's ``associate.py`` keys by stamp, one row a stamp); rows of one stamp cross no
    pair, and the pairs of a repeated reference stamp go in estimate order. EuRoC V1_02
    (V102.txt, 4 stamps written twice) within 0.02 s: rpg's 798 pairs here, 794 with the
    first row of each stamp (the default reading); posyaw APE rmse 0.0918465 m against
    0.0918692 m.

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

    ``interpolate_estimate`` is trajectopy's default matching: ``interpolate`` with the
    sides exchanged, the estimate resampled at ``t_ref - offset`` for the reference stamps
    inside its span (± ``max_diff_s``), refused where the bracketing estimate poses are more
    than ``max_gap_s`` apart (default 10 median estimate intervals). With
    ``max_diff_s=0`` and ``max_gap_s=10`` (trajectopy's ``max_gap_size``) it gives
    trajectopy 5.1.2's pairs: on fr1_xyz its 2646 poses and APE (rms 0.0199066 m, where
    ``interpolate`` gives 0.0200744 m over the estimate's 785 stamps) to 1e-12.

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
    settings = EvaluationSettings() if settings is None else settings
    check_inputs(reference, estimate, settings)
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
    # Stamps that repeat (read with repeated_stamps="all", as evo and rpg keep them): evo's
    # rule and TUM's (rpg's) pair them, each row alone, as they do; the others need
    # increasing stamps.
    repeats = any(bool((t[1:] <= t[:-1]).any()) for t in (ref_t, est_t))
    if repeats and method not in ("nearest", "one_to_one"):
        msg = (
            f"`sync={method!r}` needs increasing stamps, and a trajectory repeats one "
            "(read with `repeated_stamps='all'`): use `sync='nearest'` (evo's rule) or "
            "'one_to_one' (rpg's), or read with 'first' or 'last'"
        )
        raise ValidationError(msg, field="sync", reason=msg)
    if method in ("interpolate", "interpolate_estimate"):
        return _interpolate(reference, estimate, max_diff_s, offset_s, max_gap_s, method=method)
    if method == "interpolate_longer":
        return _interpolate_longer(reference, estimate, max_diff_s, offset_s)
    if method == "nearest":
        ref_idx, est_idx, dropped = _nearest_pairs(
            ref_t, est_t, max_diff_s, offset_s, keep_shared=repeats
        )
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
    # WHY the matched stamps, not the inputs': a stamp repeated outside the matched span
    # (or left unpaired) leaves the time axis whole, and iae/ise/itae were said NaN anyway.
    if repeats and any(bool((t[1:] <= t[:-1]).any()) for t in (ref_t[ref_idx], est_t[est_idx])):
        notes.insert(0, _REPEATS_NOTE)
    shorter = min(len(reference), len(estimate))
    _note_low_share(notes, ref_idx.size, shorter, "the shorter trajectory's", (reference, estimate))
    ref_rows = _frozen(ref_idx)
    # Equal rows on both sides (same-rate streams): one read-only array serves both.
    est_rows = ref_rows if np.array_equal(ref_idx, est_idx) else _frozen(est_idx)
    return Association(
        reference=take_rows(reference, ref_idx, repeats=repeats),
        estimate=take_rows(estimate, est_idx, repeats=repeats),
        reference_index=ref_rows,
        estimate_index=est_rows,
        method=method,
        max_diff_s=max_diff_s,
        offset_s=offset_s,
        n_reference=len(reference),
        n_estimate=len(estimate),
        # Rows shared by two pairs count once as used (repeated stamps: 794 of V1_02's).
        n_reference_used=np.unique(ref_idx).size if repeats else None,
        n_estimate_used=np.unique(est_idx).size if repeats else None,
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


# Interpolate -----------------------------------------------------------------------------


def _interpolate(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    max_diff: float,
    offset: float,
    max_gap: float | None,
    *,
    method: str = "interpolate",
) -> Association:
    """Resample the reference at the estimate's stamps (+ offset), refusing its long gaps.

    ``interpolate_estimate``: the sides exchanged, the estimate at the reference's stamps
    (- offset).
    """
    at_reference = method == "interpolate_estimate"
    kept, moving = (reference, estimate) if at_reference else (estimate, reference)
    kept_name, moving_name = ("reference", "estimate") if at_reference else _SIDES
    shift = -offset if at_reference else offset
    moving_t = moving.stamps_s
    max_gap = resolved_max_gap_s(moving, max_gap)
    with np.errstate(over="ignore"):  # past float64: inf, outside the span below
        when = kept.stamps_s + shift
    inside = (when >= moving_t[0] - max_diff) & (when <= moving_t[-1] + max_diff)
    clamped, left, right, exact = _brackets(moving_t, when)
    span = moving_t[right] - moving_t[left]
    bridged = exact | (span <= max_gap)
    ok = inside & bridged
    refused = int(np.count_nonzero(inside & ~bridged))
    kept_idx = np.flatnonzero(ok)
    notes: list[str] = []
    if refused:
        notes.append(
            f"{refused} {kept_name} pose(s) fall in {moving_name} gaps longer than "
            f"`max_gap_s={max_gap:g}` s and were not interpolated"
        )
    if kept_idx.size == 0:
        raise _no_match(reference, estimate, method, max_diff, offset, max_gap)
    _note_low_share(notes, kept_idx.size, len(kept), f"the {kept_name}'s", (reference, estimate))
    at = _moved_stamps(kept.stamps_s[kept_idx], shift, kept_name, offset)  # when[kept_idx]
    interpolated, left, used = _resampled(
        moving, at, clamped[kept_idx], left[kept_idx], right[kept_idx], exact[kept_idx]
    )
    kept_part, kept_rows = take_rows(kept, kept_idx), _frozen(kept_idx)
    return Association(
        reference=kept_part if at_reference else interpolated,
        estimate=interpolated if at_reference else kept_part,
        reference_index=kept_rows if at_reference else left,
        estimate_index=left if at_reference else kept_rows,
        method=method,
        max_diff_s=max_diff,
        offset_s=offset,
        n_reference=len(reference),
        n_estimate=len(estimate),
        notes=tuple(notes),
        max_gap_s=max_gap,
        refused_gap=refused,
        n_reference_used=None if at_reference else used,
        n_estimate_used=used if at_reference else None,
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
        orientations_from_matrices=traj.orientations_from_matrices,
    )
    return resampled, _frozen(left), int(np.count_nonzero(used))


# Helpers ---------------------------------------------------------------------------------


def take_rows(
    traj: PoseTrajectory, rows: IntpArray | slice, *, repeats: bool = False
) -> PoseTrajectory:
    """Take the poses ``rows`` (strictly increasing, or a slice) of ``traj``.

    ``repeats``: rows may repeat (evo's pairs of trajectories whose stamps repeat, read
    with ``repeated_stamps="all"``), or go back within a repeated stamp (rpg's pairs); the
    poses' stamps then repeat too, never decreasing, and say so (``stamps_repeat``).

    Rows of a valid trajectory in increasing order are a valid trajectory (finite, unit
    quaternions, stamps strictly increasing), so the new arrays (read-only views for a
    slice) skip the constructor's checks and copies; the one condition left, increasing
    rows, is checked here, and ``traj`` itself is returned when they are all its rows.
    """
    repeated = traj.stamps_repeat
    if isinstance(rows, np.ndarray):
        if repeats:
            stamps = traj.stamps_s[rows]
            forward = stamps[1:] >= stamps[:-1]
            repeated = repeated or bool((stamps[1:] == stamps[:-1]).any())
        else:
            forward = rows[1:] > rows[:-1]
        if rows.size > 1 and not forward.all():
            msg = "association rows must be strictly increasing"  # pragma: no cover - a bug
            raise AssertionError(msg)
        # Every pose, in order (rows >= 0 and strictly increasing); with ``repeats`` a
        # repeated row skips one, as a file against itself pairs (V102.txt: 4 rows).
        if (
            rows.size == len(traj)
            and (rows.size == 0 or rows[-1] == rows.size - 1)
            and (not repeats or rows.size < 2 or bool((rows[1:] > rows[:-1]).all()))
        ):
            return traj
    cov, matrices, ns = traj.covariance_6x6, traj.rotation_matrices, traj.stamps_ns
    return PoseTrajectory._unchecked(  # noqa: SLF001
        traj.stamps_s[rows],
        traj.positions_xyz[rows],
        traj.orientations_quat_xyzw[rows],
        traj.frame_id,
        traj.child_frame_id,
        None if cov is None else cov[rows],
        None if ns is None else ns[rows],  # a bag's exact stamps, written back as read
        stamps_are_frames=traj.stamps_are_frames,
        rotation_matrices=None if matrices is None else matrices[rows],
        orientations_from_matrices=traj.orientations_from_matrices,
        stamps_repeat=repeated,
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
            f"{_LOW_MATCH_START}{percent(share)} of {whose} poses matched ({matched} of {of}); "
            "check the clock offset (`offset_s=`, or `offset_auto=True` to estimate it) and "
            "`max_diff_s=`"
            + ("" if unit is None else f"; {unit.hint()}")
            + ("" if other is None else f"; {other.text()}")
        )
