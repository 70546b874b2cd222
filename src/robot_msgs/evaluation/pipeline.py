"""The steps every trajectory metric shares: time range, association, alignment, and the result.

:func:`prepare` cuts the reference to the settings' time range, applies the estimate's
extrinsic transforms (:func:`~robot_msgs.evaluation.apply_transforms`), estimates the
clock offset when asked (:func:`~robot_msgs.evaluation.estimate_offset`), runs
:func:`~robot_msgs.evaluation.associate` and :func:`~robot_msgs.evaluation.align`,
projects both trajectories onto a plane when asked
(:func:`~robot_msgs.evaluation.project_to_plane`), and keeps what every result must
carry: the settings, the pose counts and the notes a reader must see.
:meth:`Prepared.result` turns a metric's per-sample errors into the
:class:`~robot_msgs.compare.EvaluationResult` every metric returns, so all of them report
the same way.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.compare.comparison import Comparison, Estimates
from robot_msgs.compare.result import EvaluationResult, compared_estimate
from robot_msgs.compare.signal import Signal
from robot_msgs.errors import AlignmentError, AssociationError, DataWarning, caller_stacklevel
from robot_msgs.evaluation.alignment import fit_alignment_and_scale, length_units, umeyama
from robot_msgs.evaluation.association import associate, take_rows
from robot_msgs.evaluation.hand_eye import estimate_extrinsic
from robot_msgs.evaluation.offset import estimate_offset
from robot_msgs.evaluation.projection import project_to_plane
from robot_msgs.evaluation.quaternion_order import quaternion_order_check
from robot_msgs.evaluation.settings import SCALED_METHODS, EvaluationSettings, check_inputs
from robot_msgs.evaluation.spatial import associate_spatially
from robot_msgs.evaluation.stamp_units import stamp_text
from robot_msgs.evaluation.transforms import apply_transforms
from robot_msgs.trajectory import PoseTrajectory  # noqa: TC001 - the doctests use it

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from robot_msgs.compare.alignment import Alignment
    from robot_msgs.compare.extrinsic import Extrinsic
    from robot_msgs.compare.time_offset import TimeOffset
    from robot_msgs.evaluation.association import Association
    from robot_msgs.msg import Value
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = [
    "SCALE_NOTED",
    "Prepared",
    "frames_by_index",
    "match_poses",
    "prepare",
    "same_poses",
    "signal_of",
    "time_range",
]

#: An SE(3) evaluation notes the Sim(3) scale of its poses when it is further than this
#: from 1 (as the doctor's scale check: more than 10 %).
SCALE_NOTED = 0.1
#: The note of ``offset_auto`` under ``sync='spatial'``, which pairs poses by position.
_OFFSET_UNUSED = (
    "matched in space (`sync='spatial'`), no clock offset pairs the poses: the offset "
    "search (`offset_auto=`) is unused"
)
#: The note of ``n_align`` under ``align='origin'``, which moves the first matched pose.
_N_ALIGN_UNUSED = (
    "`align='origin'` moves the first matched pose onto the reference's: the first N poses "
    "to fit on (`n_align=`) are unused, as evo's --n_to_align is with --align_origin"
)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class Prepared:
    """Associated and aligned trajectories, ready for a metric, with their bookkeeping.

    Attributes
    ----------
    association : Association
        The time matching, with the unaligned matched poses (rows into the reference as
        cut to the time range; :attr:`reference_index` gives rows of the input).
    alignment : Alignment
        The transform applied to the estimate (identity for ``"none"``).
    settings : EvaluationSettings
        The settings used.
    notes : tuple of str
        The association's notes and a one-line account of the alignment; that the
        estimate has the reference's stamps and poses (:func:`same_poses`).
    first_reference_row : int
        Row of the input reference where the time range starts (0 without a range).
    outside_range : int
        Reference poses left out by the time range.
    time_offset : TimeOffset or None
        The estimated clock offset (``offset_auto``), used for the association.
    extrinsic : Extrinsic or None
        The estimated ``transform_right`` (``transform_right_auto``), applied.
    projected_reference : PoseTrajectory or None
        The matched reference projected onto the settings' plane (``project_to_plane``).
    """

    association: Association
    alignment: Alignment
    settings: EvaluationSettings
    notes: tuple[str, ...]
    first_reference_row: int = 0
    outside_range: int = 0
    time_offset: TimeOffset | None = None
    projected_reference: PoseTrajectory | None = None
    extrinsic: Extrinsic | None = None
    _made: list[PoseTrajectory] = dataclasses.field(default_factory=list, init=False, repr=False)

    @property
    def estimate(self) -> PoseTrajectory:
        """The matched estimate poses as compared: moved by ``alignment``, projected if asked.

        Made on first use and kept (:func:`~robot_msgs.compare.result.compared_estimate`):
        a metric that reads positions only moves them in chunks instead
        (:meth:`estimate_to_move`), and the 560 MB aligned copy of 10^7 poses is never made.
        """
        if not self._made:
            plane = self.settings.project_to_plane
            self._made.append(compared_estimate(self.association.estimate, self.alignment, plane))
        return self._made[0]

    def estimate_to_move(self) -> tuple[PoseTrajectory, Alignment | None]:
        """Return the matched estimate and the alignment still to apply to it.

        ``(estimate, None)`` when the compared estimate is made already, or must be
        (a plane projection); else the poses as matched and ``alignment``, for a kernel
        that moves them a chunk at a time (:func:`~robot_msgs.evaluation.relations.ape_errors`).
        """
        if self._made or self.settings.project_to_plane is not None:
            return self.estimate, None
        return self.association.estimate, self.alignment

    @property
    def reference(self) -> PoseTrajectory:
        """The matched reference poses as compared (the association's, projected if asked)."""
        if self.projected_reference is not None:
            return self.projected_reference
        return self.association.reference

    @property
    def reference_index(self) -> IntpArray:
        """Rows of the matched reference poses in the input reference, ``(K,)``."""
        if self.first_reference_row == 0:
            return self.association.reference_index
        rows = self.association.reference_index + self.first_reference_row
        rows.setflags(write=False)
        return rows

    @property
    def counts(self) -> dict[str, int]:
        """Pose counts on both sides, matched and unmatched, and those outside the range."""
        counts = self.association.counts()
        if self.settings.t_start_s is not None or self.settings.t_end_s is not None:
            counts["reference"] += self.outside_range
            counts["reference_outside_range"] = self.outside_range
        return counts

    def result(
        self,
        metric: str,
        signals: Sequence[Signal],
        *,
        parameters: Mapping[str, Value],
        names: tuple[str, str] = ("", ""),
        estimated: Mapping[str, Any] | None = None,
        counts: Mapping[str, int] | None = None,
        notes: Sequence[str] = (),
        estimate: PoseTrajectory | None = None,
    ) -> EvaluationResult:
        """Return the :class:`EvaluationResult` of a metric computed on these trajectories.

        Every metric reports the same way: its ``signals``, its own ``parameters``
        (relation, delta...) beside the settings, what it ``estimated`` (NEES bounds)
        beside this preparation's clock offset; ``counts`` and ``notes`` add to this
        preparation's; ``names`` are the reference's and the estimate's labels.
        ``estimate`` replaces the aligned estimate as the result's compared estimate
        (rpg's relative error compares a scaled, unaligned one); without it the result
        keeps the matched estimate and derives the compared one on use, as :attr:`estimate`.

        Examples
        --------
        >>> from robot_msgs.compare import Signal
        >>> t = np.arange(5.0)
        >>> ref = PoseTrajectory(
        ...     stamps_s=t, positions_xyz=np.stack([t, 0 * t, 0 * t], 1),
        ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)),
        ... )
        >>> prep = prepare(ref, ref.replace(stamps_s=t[:3], positions_xyz=ref.positions_xyz[:3],
        ...                                 orientations_quat_xyzw=ref.orientations_quat_xyzw[:3]))
        >>> signal = Signal.of("n", "", np.ones(3), stamps_s=t[:3])
        >>> result = prep.result("demo", [signal], parameters={"k": 1}, counts={"x": 2})
        >>> result.comparison.parameters["k"], result.counts["matched"], result.counts["x"]
        (1, 3, 2)
        """
        extra = dict(estimated or {})
        if self.time_offset is not None:
            extra["time_offset"] = self.time_offset
        if self.extrinsic is not None:
            extra["extrinsic"] = self.extrinsic
        comparison = Comparison(
            metric=metric,
            signals=tuple(signals),
            settings=self.settings,
            parameters=parameters,
            estimated=Estimates(**extra) if extra else None,
            estimate=names[1],
            reference=names[0],
            counts={**self.counts, **(counts or {})},
            notes=(*self.notes, *notes),
        )
        result = EvaluationResult(
            comparison=comparison,
            reference=self.reference,
            # One of the two is kept: rpg's scaled estimate is not the matched one aligned.
            matched_estimate=self.association.estimate if estimate is None else None,
            compared_estimate=estimate,
            alignment=self.alignment,
            reference_index=self.reference_index,
            estimate_index=self.association.estimate_index,
        )
        if estimate is None and self._made:  # made already: the result need not make it again
            result._keep_estimate(self._made[0])  # noqa: SLF001 - the same derivation, made
        return result


def signal_of(
    quantity: str,
    unit: str,
    errors: Float64Array,
    stamps_s: Float64Array,
    pairs: IntpArray | None = None,
    **parameters: Any,
) -> Signal:
    """:meth:`Signal.of <robot_msgs.compare.Signal.of>` of a metric's own new arrays, not copied.

    The arrays are made read-only and shared with the signal's series (a copy of each
    per-pose array costs as much as the kernel at 10^6 poses).
    """
    for array in (errors, stamps_s, pairs):
        if array is not None and array.base is None:
            array.setflags(write=False)
    return Signal.of(quantity, unit, errors, stamps_s=stamps_s, pairs=pairs, **parameters)


#: Why a time range is read as frame indices, said wherever it is (note and error alike).
_FRAMES = (
    "the stamps are frame indices (a KITTI file read without its times file; give the "
    "times files for seconds)"
)


def time_range(
    trajectory: PoseTrajectory,
    t_start_s: float | None,
    t_end_s: float | None,
    *,
    whose: str = "the reference",
) -> tuple[PoseTrajectory, int]:
    """Return the poses stamped within ``[t_start_s, t_end_s]`` and the row of the first.

    Either end may be ``None`` (open). The poses are read-only views of the input's rows,
    no copy. ``whose`` names the trajectory in the error.

    Raises
    ------
    AssociationError
        No pose lies in the range; the message gives the range and the trajectory's span.

    Examples
    --------
    >>> t = np.arange(5.0)
    >>> traj = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((5, 3)),
    ...                       orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (5, 1)))
    >>> cut, first = time_range(traj, 1.0, 3.0)
    >>> cut.stamps_s.tolist(), first
    ([1.0, 2.0, 3.0], 1)
    """
    start, end = t_start_s, t_end_s
    if start is None and end is None:
        return trajectory, 0
    stamps = trajectory.stamps_s
    first = 0 if start is None else int(np.searchsorted(stamps, start, side="left"))
    stop = len(trajectory) if end is None else int(np.searchsorted(stamps, end, side="right"))
    if stop <= first:
        # On frame indices in frames, as _far_range says them: it said "spans 0.000000 ..
        # 4540.000000 s" of KITTI 00 read without its times.
        frames = trajectory.stamps_are_frames
        text, unit = (lambda t: f"{t:g}", "") if frames else (stamp_text, " s")
        span = f"{text(-np.inf if start is None else start)} .. "
        span += f"{text(np.inf if end is None else end)}{unit}"
        clock = f"read as frame indices, not seconds: {_FRAMES}" if frames else "on its clock"
        msg = (
            f"No pose of {whose} in the time range {span} (`t_start_s=`/`t_end_s=`): it "
            f"spans {text(stamps[0])} .. {text(stamps[-1])}{unit} "
            f"({len(trajectory)} poses), and the range is {clock}"
        )
        raise AssociationError(msg)
    if first == 0 and stop == len(trajectory):
        return trajectory, 0
    return take_rows(trajectory, slice(first, stop)), first


def _far_range(reference: PoseTrajectory, settings: EvaluationSettings) -> str | None:
    """Say a bound of the time range farther from the reference than its own span.

    WHY: ``t_start_s=10`` (evo's ``--t_start 10``, typed as seconds from the start) on
    stamps at 1.3e9 s kept every pose without a word. The range is on the stamps' clock;
    a bound more than the reference's span before its first stamp (after its last) cuts
    nothing and was most likely meant from the start. ``None`` otherwise. On frame
    indices (KITTI read without its times) it is said in frames: beside
    :func:`_range_in_frames`'s "read as a frame index, not seconds", it said "9.55e+04 s
    after the reference's last stamp (0.000000 .. 4540.000000 s)" on KITTI 00.
    """
    stamps = reference.stamps_s
    if not len(stamps):
        return None
    first, last = float(stamps[0]), float(stamps[-1])
    span = last - first
    start, end = settings.t_start_s, settings.t_end_s
    frames = reference.stamps_are_frames

    def away(gap: float) -> str:
        return f"{gap:g} frames" if frames else f"{gap:.3g} s"

    stamp = "frame" if frames else "stamp"
    far = []
    if start is not None and start < first - span:
        far.append(
            f"`t_start_s={start:g}` is {away(first - start)} before the reference's first {stamp}"
        )
    if end is not None and end > last + span:
        far.append(f"`t_end_s={end:g}` is {away(end - last)} after the reference's last {stamp}")
    if not far:
        return None
    if frames:
        return f"{' and '.join(far)} ({first:g} .. {last:g}), and cuts no pose"
    return (
        f"{' and '.join(far)} ({stamp_text(first)} .. {stamp_text(last)} s), and cuts no "
        "pose: the time range is on the stamps' own clock, not in seconds from their start"
    )


def _range_in_frames(reference: PoseTrajectory, settings: EvaluationSettings) -> str | None:
    """Say that the time range is read as frame indices, where the stamps are frame indices.

    WHY: on KITTI files read without their times, ``t_start_s=100`` cut at frame 100
    (not at 100 s) without a word, in ape, rpe and drift alike; ``align_window_s`` fitted
    on frames as silently. ``None`` otherwise.
    """
    bounds = [
        f"`{name}={value:g}`"
        for name, value in (("t_start_s", settings.t_start_s), ("t_end_s", settings.t_end_s))
        if value is not None
    ]
    if settings.align_window_s is not None:
        bounds.append(
            f"`align_window_s=({settings.align_window_s[0]:g}, {settings.align_window_s[1]:g})`"
        )
    if not (bounds and reference.stamps_are_frames):
        return None
    several = len(bounds) > 1 or settings.align_window_s is not None
    return (
        f"{' and '.join(bounds)} "
        f"{'are read as frame indices' if several else 'is read as a frame index'}, "
        f"not seconds: {_FRAMES}"
    )


def _dropped_blocks(
    reference: PoseTrajectory, estimate: PoseTrajectory, association: Association
) -> list[str]:
    """Say which side's rotation blocks kept as given the association made anew (interpolated)."""
    return [
        f"the {whose}'s rotation blocks kept as given were interpolated: its poses use "
        "their nearest rotations (evo's rows as given apply to poses read, not resampled)"
        for whose, given, matched in (
            ("reference", reference, association.reference),
            ("estimate", estimate, association.estimate),
        )
        if given.rotation_matrices is not None and matched.rotation_matrices is None
    ]


def frames_by_index(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> str | None:
    """Say that frame indices of two lengths are matched by index, from the same first frame.

    Both sides stamped by frame index (KITTI read without its times, ``stamps_are_frames``)
    and as many poses on each: each row is its frame, as evo and KITTI's devkit pair them.
    Of different lengths, nothing says where the shorter starts: an estimate that started
    tracking 541 frames late was paired with the reference's first 4000 frames (203.7 m
    with se3 where 1.3 m is its error; a review), and evo refuses the pair ("data matrices
    must have the same shape"). An estimate that stopped early is paired right, so this
    is said, not refused. ``None`` when it does not apply: matched in space, an offset
    given (the frames it starts late), or both sides ending at the same frame (poses
    left out before it, NaN rows or tracking losses, keep their frames).

    Examples
    --------
    >>> t = np.arange(20.0)
    >>> ref = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((20, 3)),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (20, 1)), stamps_are_frames=True)
    >>> late = ref.replace(stamps_s=t[:15], positions_xyz=np.zeros((15, 3)),
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (15, 1)))
    >>> frames_by_index(ref, late, EvaluationSettings()).split(":")[0]
    "the reference's 20 and the estimate's 15 stamps are frame indices (KITTI read without times)"
    >>> frames_by_index(ref, late, EvaluationSettings(offset_s=5.0)) is None
    True
    """
    if (
        settings.sync == "spatial"
        or not (reference.stamps_are_frames and estimate.stamps_are_frames)
        or settings.offset_s != 0.0
        or settings.offset_auto
    ):
        return None
    # Frames up to the last, not poses: a run's valid poses (frames 10 .. 14 of 0 .. 40
    # lost) are fewer than its file's rows, and 36 of 41 frames were said to lack the first
    # 5 (`offset_s=5`, shifting every pose; a hunt). Counted from frame 0, not from the first
    # pose: one whose frames 0 .. 4 are left out is paired right, and was advised the same
    # (a review). A file's row k is frame k: only fewer rows (a late start) change the last.
    n_ref, n_est = (_frames_to_last(t) for t in (reference, estimate))
    if n_ref == n_est:
        return None
    # The offset in frames, with its value: "`offset_s=`" was "--offset SECONDS" on the
    # command line, where the stamps, and so the offset, count frames (a user walk).
    late = n_ref - n_est
    lacks = (
        f"the estimate lacks the reference's first {late}"
        if late > 0
        else f"the reference lacks the estimate's first {-late}"
    )
    return (
        f"the reference's {n_ref} and the estimate's {n_est} stamps are "
        "frame indices (KITTI read without times): poses are matched by index, which "
        "assumes both start at the same frame; give both times files (`reference_times=`, "
        "`estimate_times=`), or the offset in frames (the stamps count frames): "
        f"`offset_s={late}` where {lacks} frames"
    )


def _frames_to_last(trajectory: PoseTrajectory) -> int:
    """Return the frames from frame 0 to a frame-indexed trajectory's last stamp."""
    t = trajectory.stamps_s
    return int(t[-1]) + 1 if t.size else 0


def same_poses(reference: PoseTrajectory, estimate: PoseTrajectory) -> bool:
    """Say whether ``estimate`` has the very stamps and poses of ``reference``.

    The same object, or as many poses with equal stamps, positions and orientations
    (compared only then: one pass over each array). WHY: ``ape E E``, or one file under
    two names, gave an rmse of 1e-16 m without a word, and the doctor "nothing found"
    (a review).

    Examples
    --------
    >>> t = np.arange(3.0)
    >>> a = PoseTrajectory(stamps_s=t, positions_xyz=np.zeros((3, 3)),
    ...                    orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (3, 1)))
    >>> same_poses(a, a.replace(stamps_s=t.copy())), same_poses(a, a.replace(stamps_s=t + 1))
    (True, False)
    """
    if reference is estimate:
        return True
    return (
        len(reference) == len(estimate)
        and reference.stamps_are_frames == estimate.stamps_are_frames
        and np.array_equal(reference.stamps_s, estimate.stamps_s)
        and np.array_equal(reference.positions_xyz, estimate.positions_xyz)
        and np.array_equal(reference.orientations_quat_xyzw, estimate.orientations_quat_xyzw)
    )


def _zero_errors(trajectory: PoseTrajectory) -> str:
    """Say that an estimate with the reference's stamps and poses has no error but rounding.

    WHY: `ape georeferenced.tum georeferenced.tum --align se3` (UTM-like coordinates,
    4.6e5 m) noted "every error is zero" above a table of 5.82077e-11 m: the fit's
    arithmetic rounds at the coordinates' magnitude, one unit in the last place there
    (2**-34 m); unaligned, the rotation angles were 4e-16 deg. The note says the scale.

    Examples
    --------
    >>> t = np.arange(2.0)
    >>> far = PoseTrajectory(stamps_s=t, positions_xyz=[[4.6e5, 0, 0], [4.6e5, 1, 0]],
    ...                      orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (2, 1)))
    >>> _zero_errors(far)
    "the estimate's stamps and poses are the reference's: every error is zero to float64 \
rounding (a unit in the last place of its largest coordinate, 4.6e+05 m, is 5.8e-11 m)"
    """
    largest = float(np.max(np.abs(trajectory.positions_xyz)))
    return (
        "the estimate's stamps and poses are the reference's: every error is zero to float64 "
        f"rounding (a unit in the last place of its largest coordinate, {largest:.2g} m, is "
        f"{float(np.spacing(largest)):.2g} m)"
    )


def match_poses(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> Association:
    """Match the poses by the settings' ``sync``: in space (``spatial``) or in time.

    :func:`~robot_msgs.evaluation.associate_spatially` with ``max_distance_m`` and
    ``spatial_pairs`` for ``spatial``, else :func:`~robot_msgs.evaluation.associate`.
    """
    if settings.sync == "spatial":
        return associate_spatially(
            reference,
            estimate,
            max_distance_m=settings.max_distance_m,
            spatial_pairs=settings.spatial_pairs,
        )[0]
    return associate(reference, estimate, settings)


def _estimated_offset(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> TimeOffset:
    """:func:`estimate_offset`, whose refusal says so when a scale fitted times the clock.

    The offset is searched with the evaluation's fit, as documented; when an unscaled one
    is refused and the same search with a scale fitted (Sim(3)) tells a firm offset with
    no note, at which the poses matched fit with a scale off by more than
    :data:`SCALE_NOTED`, the refusal says so and what fixes it. WHY: fr2_desk_ORB at
    half scale, 2 s late, ``ape --offset auto --offset-search 3`` was refused as "it barely
    moves, or it moves so that turning it looks like a shift in time ... give --offset
    SECONDS" where ``--align sim3`` times it to -2.0049 s ± 0.0015 s (APE 0.0061 m, evo's
    at that offset; a review). Not timed with a scale silently: that is ``align``'s to say.
    """
    try:
        return estimate_offset(reference, estimate, settings)
    except AssociationError as err:
        advice = _scaled_timing(reference, estimate, settings)
        if not advice:
            raise
        # WHY: fr2_desk_ORB_kf_mono with se3 was told "it barely moves, or it moves so that
        # turning it looks like a shift in time" (and fr2_desk_ORB at half scale "the range
        # is too narrow") before the scale that times it (a review): that is the cause.
        text = str(err)
        if err.cause:  # a flat cost curve: its figures, then the cause a scale replaces
            text = text.removesuffix(err.cause) + "without a scale the motion cannot time it"
        msg = f"{text}; {advice}"
        raise AssociationError(msg) from err


def _scaled_timing(
    reference: PoseTrajectory, estimate: PoseTrajectory, settings: EvaluationSettings
) -> str:
    """Say at which offset a scale fitted times the estimate, and what fixes it; ``""``: not."""
    if settings.align in SCALED_METHODS:
        return ""
    scaled = settings.replace(align="sim3")
    try:
        found = estimate_offset(reference, estimate, scaled)
        matching = scaled.replace(offset_auto=False, offset_search_s=None, offset_s=found.offset_s)
        pairs = match_poses(reference, estimate, matching)
        s = umeyama(pairs.estimate.positions_xyz, pairs.reference.positions_xyz, with_scale=True)[2]
    except (AssociationError, AlignmentError):
        return ""
    if found.notes or not abs(s - 1.0) > SCALE_NOTED:
        return ""
    units = length_units(pairs.reference, pairs.estimate, s)
    fix = (
        f"({units}, not metres? convert them)"
        if units
        else "(a monocular estimate?): evaluate with `align='sim3'`"
    )
    return (
        f"with a scale fitted the motion times it at {found.offset_s:+.4f} s "
        f"± {found.std_s:.1g} s, where the estimate's lengths are {1.0 / s:.3g} times the "
        f"reference's {fix}, or give `offset_s={found.offset_s:.6f}`"
    )


#: A squared norm this far from 1 is rounding (a unit quaternion computed in float64 is
#: within a few 1e-16): past it the quaternions are divided by their norms.
_ROUNDING = 1e-14


def _off_unit(q: Float64Array) -> bool:
    """Say whether a squared norm of the rows of ``q`` is off 1 by more than rounding.

    WHY in chunks: taken whole (an ``(N,)`` einsum, then its distance to 1), the check
    took 13 ms a side at 10^6 unit poses, prepare 16 -> 46 ms; in chunks that stay in
    cache, with one product for the sums, 5 ms, and it stops at the first off.
    """
    ones = np.ones(4)
    for start in range(0, q.shape[0], _UNIT_CHUNK):
        off = np.square(q[start : start + _UNIT_CHUNK]) @ ones
        off -= 1.0
        if off.min() < -_ROUNDING or off.max() > _ROUNDING:
            return True
    return False


#: Rows checked at a time by :func:`_off_unit` (2 MB of quaternions).
_UNIT_CHUNK = 1 << 16


def _unit_rotations(trajectory: PoseTrajectory) -> PoseTrajectory:
    """Return ``trajectory`` with its quaternions at unit norm, as the kernels take them.

    A :class:`~robot_msgs.trajectory.PoseTrajectory` accepts norms within ``1e-6`` of 1
    (float32 quaternions are off by about ``1e-7``), and the kernels rotate by a
    quaternion as given: RPE translation over 17 m steps was off by up to 45 % of its
    ~2e-4 m errors. A scaled quaternion is one rotation (evo's ``quaternion_matrix``
    normalises), so each is divided by its norm; as given when every squared norm is 1
    within rounding (the readers' output, unchanged to the bit).

    Examples
    --------
    >>> q = np.array([[0.0, 0, 0.6, 0.8]])
    >>> traj = PoseTrajectory(
    ...     stamps_s=[0.0], positions_xyz=[[0.0, 0, 0]], orientations_quat_xyzw=q * (1 + 9e-7)
    ... )
    >>> _unit_rotations(traj).orientations_quat_xyzw.round(15).tolist()
    [[0.0, 0.0, 0.6, 0.8]]
    """
    q = trajectory.orientations_quat_xyzw
    if not _off_unit(q):
        return trajectory
    squares = np.einsum("ij,ij->i", q, q)
    return trajectory.replace(
        orientations_quat_xyzw=q / np.sqrt(squares)[:, None],
        rotation_matrices=trajectory.rotation_matrices,  # KITTI's blocks, used as given
    )


def prepare(
    reference: PoseTrajectory,
    estimate: PoseTrajectory,
    settings: EvaluationSettings | None = None,
    *,
    estimate_name: str = "",
) -> Prepared:
    """Cut, associate and align ``estimate`` against ``reference``, as every metric does first.

    Parameters
    ----------
    reference, estimate : PoseTrajectory
        Ground truth and the trajectory under test (any lengths); neither is modified.
    settings : EvaluationSettings, optional
        Time range, transforms, clock offset, association, alignment and plane (evo's
        defaults: all poses, nearest within 0.01 s, no alignment). In this order: the
        time range keeps the reference poses stamped within ``[t_start_s, t_end_s]``, as
        evo does; the transforms move the estimate; with ``offset_auto`` the offset is
        estimated on these and used for the association (matched in space, no offset
        pairs a pose: not searched, noted unused); after the alignment both
        matched trajectories are projected onto ``project_to_plane``, as evo does.
    estimate_name : str
        The estimate's label (a file name), which a warning about it starts with.

    Returns
    -------
    Prepared
        The matched, aligned trajectories and what the result must record.

    Raises
    ------
    AssociationError
        No reference pose in the time range, no pose matched (the message gives both
        time spans), or the clock offset cannot be estimated (flat cost, no overlap).
    AlignmentError
        A degenerate fit (the message suggests an alternative), or a failed fit on few
        matched poses (the message says how few, and what to check).

    Warns
    -----
    DataWarning
        Both sides stamped by frame index with different pose counts: matched by index,
        from the same first frame (:func:`frames_by_index`); the note is kept in the
        result.
    DataWarning
        The orientations look like a quaternion-order mix-up (w first read as w last or
        the reverse; :func:`~robot_msgs.evaluation.quaternion_order.quaternion_order_check`),
        with the median angle in the other order; the note is kept in the result.

    Examples
    --------
    >>> t = np.arange(4.0)
    >>> ref = PoseTrajectory(
    ...     stamps_s=t, positions_xyz=[[0.0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
    ...     orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (4, 1)),
    ... )
    >>> est = ref.replace(stamps_s=t + 0.005, positions_xyz=ref.positions_xyz + 2.0)
    >>> prep = prepare(ref, est, EvaluationSettings(align="se3"))
    >>> prep.counts["matched"], prep.alignment.translation_m.round(12).tolist()
    (4, [-2.0, -2.0, -2.0])
    >>> bool(np.allclose(prep.estimate.positions_xyz, prep.reference.positions_xyz))
    True
    >>> prepare(ref, est, EvaluationSettings(t_start_s=0.5, t_end_s=2.0)).counts["matched"]
    2
    """
    settings = EvaluationSettings() if settings is None else settings
    check_inputs(reference, estimate, settings)
    if settings.sync != "spatial" and reference.stamps_are_frames != estimate.stamps_are_frames:
        frames, seconds = (
            ("reference", "estimate") if reference.stamps_are_frames else ("estimate", "reference")
        )
        msg = (
            f"The {frames}'s stamps are frame indices (a KITTI file read without its times "
            f"file) and the {seconds}'s are seconds: they cannot be matched in time. Give "
            f"the {frames}'s times file"
        )
        raise AssociationError(msg)
    reference, estimate = _unit_rotations(reference), _unit_rotations(estimate)
    by_index = frames_by_index(reference, estimate, settings)
    if by_index and estimate_name:
        by_index = f"{estimate_name}: {by_index}"
    if by_index:
        warnings.warn(
            DataWarning(by_index, kind="stamp_units", fixed=False),
            stacklevel=caller_stacklevel(),
        )
    # Noted, not warned: one trajectory given as both is also a deliberate check of a
    # zero error (tests, a topic copied); the same file given twice is warned as it is read
    # (robot_msgs.io.read_inputs). Said of the estimate as compared: moved by its
    # transforms, or its stamps by --offset, it is another (`ape E E --transform-left T`
    # printed 5 m under "every error is zero").
    cut, first = time_range(reference, settings.t_start_s, settings.t_end_s)
    estimate = apply_transforms(estimate, settings)
    # Stamps that repeat (repeated_stamps="all") pair a row with another of its stamp, as
    # evo does: the errors are not zero (V102.txt against itself: evo's 0.005540 m).
    stamps = reference.stamps_s
    unmoved = (
        settings.offset_s == 0.0
        and same_poses(reference, estimate)
        and bool((stamps[1:] > stamps[:-1]).all())
    )
    itself = _zero_errors(reference) if unmoved else None
    time_offset = None
    matching = settings
    # Matched in space, no offset pairs a pose: the search is skipped and said unused.
    # WHY: `ape --sync spatial --offset auto` with rgbdslam 5000 s late was refused
    # ("Cannot estimate a time offset"), the same APE without --offset auto.
    unused = _OFFSET_UNUSED if settings.offset_auto and not settings.searches_offset else None
    # WHY: `--align origin --n-align 100` was taken and recorded without a word, and
    # changed nothing (origin_scale's scale and a window's first pose do use theirs).
    unfitted = _N_ALIGN_UNUSED if settings.align == "origin" and settings.n_align else None
    if settings.searches_offset:
        time_offset = _estimated_offset(cut, estimate, settings)
        matching = settings.replace(
            offset_auto=False, offset_search_s=None, offset_s=time_offset.offset_s
        )
    association = match_poses(cut, estimate, matching)
    extrinsic = None  # X moves no stamp: the same pairs are matched again, with X applied
    if settings.transform_right_auto:  # X from the matched motions, then applied as given
        extrinsic = estimate_extrinsic(
            association.reference,
            association.estimate,
            with_scale=settings.align in SCALED_METHODS,
        )
        mount = EvaluationSettings(transform_right=extrinsic.transform_right())
        estimate = apply_transforms(estimate, mount)
        association = match_poses(cut, estimate, matching)
    few = association.low_match_note()
    try:
        alignment, sim3_scale = fit_alignment_and_scale(
            association.reference, association.estimate, settings=settings
        )
    except AlignmentError as err:
        if few is None:
            raise
        # The fit failed on the few poses matched: 1 of 788 (stamps in ms by mistake) was
        # refused as "all the same point, static: use --align origin", which blamed the
        # motion and advised a setting that hides the fault (a review).
        label = f"{estimate_name}: " if estimate_name else ""
        msg = (
            f"{label}the {settings.align} alignment cannot be fitted on the "
            f"{association.n_matched} matched pose(s): {few}"
        )
        raise AlignmentError(msg) from err
    notes = [
        note
        for note in (
            itself,
            by_index,
            unused,
            unfitted,
            _range_in_frames(reference, settings),
            _far_range(reference, settings),
        )
        if note
    ]
    if time_offset is not None:
        notes += [time_offset.describe(), *time_offset.notes]
    if extrinsic is not None:
        notes += [extrinsic.describe(), *extrinsic.notes]
    notes += association.notes
    notes += _dropped_blocks(reference, estimate, association)
    if settings.align != "none":
        notes.append(alignment.describe())
    if settings.align == "se3" and sim3_scale > 0 and abs(sim3_scale - 1.0) > SCALE_NOTED:
        # A monocular estimate (Sim(3) scale 2.23) gave 0.939 m against 0.0077 m with
        # sim3, and no word said why (a review). Scale error may be what is measured: a
        # note, not a warning; lengths in another unit are said as such.
        units = length_units(association.reference, association.estimate, sim3_scale)
        notes.append(
            f"a Sim(3) fit scales the estimate by {sim3_scale:.3g}: the se3 errors include "
            + (
                f"that factor ({units}, not metres? convert them to metres)"
                if units
                else "that scale error (`align='sim3'` leaves it out; a monocular estimate?)"
            )
        )
    # A number from 1 of 788 poses (stamps in ms by mistake) came back with this note in
    # `result.notes` only, unseen in a notebook, where a quaternion mix-up warns (a review).
    # (A time range leaves the estimate's poses outside it unmatched: noted, not warned.)
    if few and settings.t_start_s is None and settings.t_end_s is None:
        warnings.warn(
            f"{estimate_name}: {few}" if estimate_name else few,
            DataWarning,
            stacklevel=caller_stacklevel(),
        )
    mix_up = quaternion_order_check(association.reference, association.estimate)
    if mix_up and estimate_name:  # which of several estimates
        mix_up = f"{estimate_name}: {mix_up}"
    if mix_up:
        warnings.warn(mix_up, DataWarning, stacklevel=caller_stacklevel())
        notes.append(mix_up)
    projected = None
    if settings.project_to_plane is not None:
        projected = project_to_plane(association.reference, settings.project_to_plane)
        notes.append(f"both trajectories projected to the {settings.project_to_plane} plane")
    return Prepared(
        association=association,
        alignment=alignment,
        settings=settings,
        notes=tuple(notes),
        first_reference_row=first,
        outside_range=len(reference) - len(cut),
        time_offset=time_offset,
        projected_reference=projected,
        extrinsic=extrinsic,
    )
