"""Drift per distance travelled: the KITTI odometry devkit and rpg_trajectory_evaluation.

Both compare the motion over segments of the ground-truth path, like RPE by distance, but
with their own segment rules and normalisations.

KITTI (Geiger et al., CVPR 2012; devkit ``evaluate_odometry.cpp``)
    Segments of lengths 100, 200, …, 800 m start at every 10th frame; a segment ends at
    the first frame whose cumulative ground-truth distance *exceeds* start + length (none:
    skipped). With ``ΔQ = Q_first⁻¹ Q_last`` (ground truth) and ``ΔP = P_first⁻¹ P_last``
    the error is ``ΔP⁻¹ ΔQ``; ``t_err = ‖t‖ / length``, ``r_err = angle / length``. The
    published figures are the means over all segments, ``t`` in % and ``r`` in deg/m.
rpg_trajectory_evaluation (Zhang & Scaramuzza, IROS 2018; ``compute_relative_error``)
    Lengths are fractions (10 … 50 %) of the reference's total path length, truncated to
    centimetres; *every* frame starts a segment that ends at the frame whose cumulative
    distance is closest to start + length, kept when closer than 0.2 × length. The
    estimate's relative motion has its translation scaled by the alignment's scale; the
    error ``(Q_i⁻¹ Q_j)⁻¹ (P_i⁻¹ P_j)`` is reported as translation (m and % of length),
    rotation angle (deg, and deg/m), and, after turning it into the world frame with the
    estimate's rotation at ``j``, the yaw and the gravity (pitch/roll) parts: rpg's
    ``rel_yaw`` is about the z axis of the world the unaligned estimate is expressed in
    (``yaw_world_deg``; saved as ``yaw_deg``, APE's reference-body yaw, before the rename).

Differences, on purpose: angles come from quaternions (accurate near zero) where both
tools take ``arccos((tr R - 1) / 2)``, which loses digits for small rotations: rpg's in
64-bit floats (up to ~1e-8 rad), the devkit's in 32-bit floats (its ``rotationError``
rounds ``(tr R - 1) / 2`` to a float, so angles near zero resolve to ~3e-4 rad); the
devkit keeps distances, errors and their sums in 32-bit floats, we use 64-bit; KITTI's
rotation blocks (off SO(3) by up to ~4e-7 as printed) enter as their nearest rotations by
default (the devkit multiplies and inverts them as printed); with
``kitti_rotations="as_given"`` the errors are the devkit's arithmetic on the blocks as
printed (4x4 numerical inverses, the angle from the trace: on KITTI 00 ORB-SLAM with blocks
perturbed ~1e-3 off SO(3), as some VO methods write, its rotation figure was 1.45x the
nearest rotations', a measurement of that file, not a rule). On KITTI 00
(ORB-SLAM and S-PTAM estimates) the devkit's rules in 64-bit floats give our figures to
1e-12: on the blocks projected onto SO(3) by default, on the blocks as printed with
``as_given``; on the blocks as printed the default's rotation figure moves by 3e-5
relative, and a 32-bit replay of the devkit's arithmetic differs by up to 1e-5
(translation) and 1e-4 (rotation) relative: below the 3 to 4 digits its figures are quoted
with. rpg pairs a start frame with no valid end with the *next* start (its list of ends
is compacted before being zipped with the starts); each start keeps its own end here,
which only differs when a segment in the middle of the run has no end.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.compare.alignment import with_positions
from robot_msgs.errors import ValidationError
from robot_msgs.evaluation.pairs import path_distances
from robot_msgs.evaluation.pipeline import signal_of, time_range
from robot_msgs.evaluation.relations import keeps_matrices, rotation_blocks, rpe_errors
from robot_msgs.evaluation.settings import DRIFT_METRICS
from robot_msgs.rotations import (
    euler_sxyz_from_matrix,
    matrix_from_quat_xyzw,
    quat_xyzw_conjugate,
    quat_xyzw_multiply,
)
from robot_msgs.series import check_series, real_float
from robot_msgs.sorted_search import search_sorted

if TYPE_CHECKING:
    from collections.abc import Sequence

    from robot_msgs.compare.result import EvaluationResult
    from robot_msgs.compare.signal import Signal
    from robot_msgs.evaluation.pipeline import Prepared
    from robot_msgs.evaluation.settings import Drift, EvaluationSettings
    from robot_msgs.trajectory import PoseTrajectory
    from robot_msgs.typing import Float64Array, IntpArray

__all__ = ["kitti_result", "kitti_segments", "rpg_path_length_m", "rpg_result", "rpg_segments"]


def rpg_path_length_m(reference: PoseTrajectory, settings: EvaluationSettings) -> float:
    """Return the path rpg takes its fractions of, metres: the reference as read, in the range.

    rpg_trajectory_evaluation's ``load_raw_groundtruth`` cuts its ground truth to
    ``start_time_sec``/``end_time_sec`` (``t_start_s``/``t_end_s``); the whole input's
    path gave lengths up to twice too long.
    """
    return time_range(reference, settings.t_start_s, settings.t_end_s)[0].path_length_m


def _invalid(reason: str, *, field: str) -> ValidationError:
    """Build the error of argument ``field``; its ``reason`` lets a CLI name its flag instead."""
    return ValidationError(f"E{reason[1:]} - at `{field}`", field=field, reason=reason)


def _check_moves(path_m: float, protocol: str, matched: int = 2) -> None:
    """Refuse a reference that never moves (``path_m`` 0): no length can help.

    WHY: "choose shorter segment lengths" was said of a path of 0 m, which none fits;
    and "the reference never moves" of a moving one of which ``matched`` 1 pose matched.
    """
    if path_m == 0.0 and matched < 2:
        msg = (
            f"No {protocol} segment fits: only {matched} pose of the reference is matched "
            "with the estimate, and a segment needs 2; check that the files hold the same run"
        )
        raise ValidationError(msg)
    if path_m == 0.0:
        msg = (
            f"No {protocol} segment fits: the reference never moves (path 0 m), so "
            "no segment of any length does; drift needs a reference that travels"
        )
        raise ValidationError(msg)


def _check_lengths(lengths_m: Sequence[float], field: str = "lengths_m") -> list[float]:
    """Return the lengths as floats, refusing any not finite and > 0, or given twice."""
    try:
        out = [real_float(v) for v in lengths_m]
    except (TypeError, ValueError) as err:  # one number, text
        reason = f"expected a sequence of segment lengths in metres, got {lengths_m!r:.60}"
        raise _invalid(reason, field=field) from err
    if not out or not all(math.isfinite(v) and v > 0 for v in out):
        reason = f"expected finite segment lengths > 0 metres, got {list(lengths_m)!r}"
        raise _invalid(reason, field=field)
    if len(set(out)) < len(out):
        twice = next(v for v in out if out.count(v) > 1)
        reason = f"expected distinct segment lengths, got {twice:g} m twice in {out!r}"
        raise _invalid(reason, field=field)
    return out


def _check_distances(distances_m: Float64Array) -> Float64Array:
    """Return cumulative path lengths as a finite, non-decreasing ``(N,)`` float64 array.

    WHY: a list raised AttributeError, and NaN or decreasing distances gave segments
    ending before they start.
    """
    d = check_series("distances_m", distances_m, finite=True)
    falls = np.flatnonzero(d[1:] < d[:-1])
    if falls.size:
        i = int(falls[0]) + 1
        reason = (
            "expected cumulative path lengths (non-decreasing, as path_distances gives), "
            f"got {float(d[i])!r} after {float(d[i - 1])!r} at index {i}"
        )
        raise _invalid(reason, field="distances_m")
    return d


def kitti_segments(
    distances_m: Float64Array,
    lengths_m: Sequence[float],
    step_frames: int = 10,
    frames: IntpArray | None = None,
    *,
    at_or_after: bool = False,
) -> tuple[IntpArray, IntpArray, Float64Array]:
    """Find the KITTI devkit's segments: first frame, last frame and nominal length of each.

    With ``frames`` (the file's frame index of each pose, increasing, as a KITTI file read
    without times is stamped) the step is of frame indices: a segment starts at each pose
    whose frame is a multiple of ``step_frames``, as the devkit's do on the whole file
    (:func:`kitti_result` counts the frames from a ``t_start_s`` cut, so that the starts
    are the devkit's on the cut file, as with a times file). Poses a reader dropped (a row
    with NaN) leave gaps in the frames; the devkit has no rule for them, as it reads no
    NaN, so ours keeps the starts on the file's frames and leaves a segment out when it
    would start on a dropped frame (no pose), or when a dropped frame lies just before
    its end (the devkit's end could be that frame, beyond the length before the next pose
    is). With ``at_or_after`` a segment ends at the first pose *at or after* start +
    length instead, trajectopy's rule for its pair distances in seconds (``distances_m``
    are then the stamps, ``lengths_m`` seconds), and starts only where start + length
    is before the last pose (strictly): fr1_xyz's ground truth is stamped every 0.01 s,
    and "beyond" ended a 1 s segment a pose later than trajectopy's on each tie.
    Across a gap inside a segment the path is the straight line between the poses on
    either side, shorter than the devkit's path through the dropped pose by its detour
    (its end frame could come earlier by as much). WHY: starts every ``step_frames``-th
    *pose* shifted every later start by the dropped rows: on 1500 frames of KITTI 00 with
    one NaN, all 75 starts after it moved by a frame.

    Parameters
    ----------
    distances_m : ndarray, shape (N,), float64, metres
        Cumulative ground-truth path length (:func:`~robot_msgs.evaluation.path_distances`).
    lengths_m : sequence of float
        Segment lengths, metres.
    step_frames : int
        A segment starts at every ``step_frames``-th frame.
    frames : ndarray, shape (N,), intp, optional
        The frame index of each pose, whole, >= 0 and strictly increasing; default
        ``0 .. N - 1``.
    at_or_after : bool
        End at the first pose at or after start + length, not beyond it.

    Returns
    -------
    first, last : ndarray, shape (K,), intp
        Pose indices (rows of ``distances_m``), ordered by first frame, then by length as
        listed.
    length : ndarray, shape (K,), float64, metres
        The nominal length of each segment.

    Examples
    --------
    >>> first, last, length = kitti_segments(np.arange(6) * 1.0, [2.0], step_frames=2)
    >>> first.tolist(), last.tolist()
    ([0, 2], [3, 5])

    Frame 3 dropped: the segment from frame 0 would end on it (left out), the one from
    frame 2 (row 2) ends on frame 5 (row 4):

    >>> frames = np.array([0, 1, 2, 4, 5, 6])
    >>> first, last, _ = kitti_segments(frames * 1.0, [2.0], 2, frames)
    >>> first.tolist(), last.tolist()
    ([2], [4])
    """
    try:  # None raised TypeError, NaN ValueError, infinity OverflowError
        whole = not isinstance(step_frames, bool) and int(step_frames) == step_frames
    except (TypeError, ValueError, OverflowError):
        whole = False
    if not whole or step_frames < 1:
        reason = f"expected a whole number of frames >= 1, got {step_frames!r}"
        raise _invalid(reason, field="step_frames")
    lengths = np.asarray(_check_lengths(lengths_m))
    distances_m = _check_distances(distances_m)
    n = distances_m.size
    index = np.arange(n) if frames is None else _check_frames(frames, n)
    # A step past int64 (2^63 frames) overflowed NumPy's integers; past the last frame it
    # starts at frame 0 only, as the last frame + 1 does.
    step = min(int(step_frames), max(int(index[-1]) + 1 if n else 1, 1))
    starts = np.flatnonzero(index % step == 0)
    first = np.repeat(starts, lengths.size)
    length = np.tile(lengths, starts.size)
    # The first frame whose distance exceeds (strictly) start + length, or reaches it.
    side: Literal["left", "right"] = "left" if at_or_after else "right"
    target = distances_m[first] + length
    last = np.searchsorted(distances_m, target, side=side)
    if at_or_after:
        # A length under half an ulp of the stamps (1e-7 s at TUM's 1.3e9 s) rounds start
        # + length to the start: its own pose, an interval of 0 s and NaN errors. In exact
        # arithmetic the end is after the start, and no float stamp lies between them.
        last = np.maximum(last, first + 1)
    # trajectopy's start needs start + length before the last pose's (strictly): on
    # fr1_xyz a 2546th pair ended on the last pose, 1 s after its start, where it has 2545.
    keep = target < distances_m[-1] if at_or_after and n else last < n
    # A dropped frame just before the end: the devkit's segment could end on it.
    keep[keep] = index[last[keep]] - index[last[keep] - 1] == 1
    return first[keep], last[keep], length[keep]


def _check_frames(frames: IntpArray, n: int) -> IntpArray:
    """Return ``frames`` as intp, refused unless ``(n,)`` whole numbers >= 0, increasing."""
    arr = np.asarray(frames)
    if arr.shape != (n,) or not np.issubdtype(arr.dtype, np.integer):
        reason = f"expected {n} integer frame indices, one a pose, got {arr.dtype} {arr.shape}"
        raise _invalid(reason, field="frames")
    out = arr.astype(np.intp, copy=False)
    if n and out[0] < 0:
        reason = f"expected frame indices >= 0, got {int(out[0])} first"
        raise _invalid(reason, field="frames")
    if n > 1 and not np.all(np.diff(out) > 0):
        i = int(np.flatnonzero(np.diff(out) <= 0)[0]) + 1
        reason = (
            f"expected strictly increasing frame indices, got {int(out[i])} after "
            f"{int(out[i - 1])} at index {i}"
        )
        raise _invalid(reason, field="frames")
    return out


def kitti_result(prepared: Prepared, spec: Drift, names: tuple[str, str]) -> EvaluationResult:
    """KITTI odometry drift of prepared poses: translation (%) and rotation (deg/m) error.

    ``metric="kitti_drift"``. The signals ``translation_pct`` and ``rotation_deg_per_m``
    pool every segment of every length: their ``mean`` is the devkit's published
    figure. One signal of each per length (``length_m`` typed, named
    ``translation_pct@100m``...) holds that length's segments (at their first stamps; no
    ``iae``/``ise``/``itae``: a segment's drift is no quantity over time), ``n == 0`` and
    NaN for a length with no segment. ``counts["segments"]``
    counts all segments. Each series holds its segments' errors at their first stamps,
    with the segments' (first, last) rows. With ``spec.per_actual_length`` each error is
    divided by the segment's actual path distance instead of its nominal length
    (trajectopy 5.1.2's ``rpe()``; with ``step_frames=1`` its pairs too, on KITTI 00 its
    per-length means to 1e-9). With ``spec.lengths_s`` the segments are in seconds
    (:func:`kitti_segments` ``at_or_after``, on the stamps) and each error is divided by
    the segment's actual interval: ``translation_m_per_s`` (m/s) and
    ``rotation_deg_per_s`` (deg/s), one of each per length typed ``delta`` with
    ``delta_unit="s"`` (``translation_m_per_s@1s``); trajectopy's ``rpe()`` per second,
    with ``step_frames=1`` its pairs (fr1_xyz: its statistics to 1e-9). KITTI files
    without times are matched by frame index (stamps 0, 1, 2, …).

    Raises
    ------
    ValidationError
        A reference path not longer than any length.
    """
    parameters = spec.record(0.0)
    seconds = spec.lengths_s is not None
    lengths = list(spec.lengths_s or spec.resolved_lengths_m(0.0))
    step = int(parameters["step_frames"])  # type: ignore[arg-type]  # an int by Drift.record
    ref, est = prepared.reference, prepared.estimate
    if seconds and ref.stamps_are_frames:
        # WHY refused: frames are no seconds; KITTI 00 without times said 0.00902 "m/s"
        # of errors per frame over 100 frames, 0.0341 m/s over 100 s with its times.
        msg = (
            "Expected a reference stamped in seconds for segments in seconds, got frame "
            "indices: the stamps are frame indices (a KITTI file read without its times "
            "file; give the times files for seconds, or lengths in metres)"
        )
        raise ValidationError(msg, field="Drift.lengths_s", reason=msg)
    # Segments along the path, or along the stamps (trajectopy's pair distance in seconds).
    distances = ref.stamps_s if seconds else path_distances(ref.positions_xyz)
    first, last, length = kitti_segments(
        distances,
        lengths,
        step,
        _frames(ref, prepared.settings.t_start_s),
        at_or_after=seconds,
    )
    if first.size == 0 and seconds:
        # Not "shorter than": a span of exactly one length has no segment either.
        msg = (
            f"No segment in seconds fits: the matched reference spans "
            f"{distances[-1] - distances[0]:.6g} s, not longer than any segment length "
            f"({', '.join(f'{v:g}' for v in lengths)} s), and a segment starts only where "
            "its start plus its length is before the last stamp (trajectopy's rule); "
            "choose shorter lengths (`lengths_s=`)"
        )
        raise ValidationError(msg, field="Drift.lengths_s", reason=msg)
    if first.size == 0:
        _check_moves(float(distances[-1]), "KITTI", distances.size)
        # "Shorter than every length" was said of a path of exactly one length, which
        # has no segment either: the devkit ends a segment beyond its length.
        msg = (
            f"No KITTI segment fits: the matched reference path is {distances[-1]:.6g} m, "
            f"not longer than any segment length ({', '.join(f'{v:g}' for v in lengths)} m), "
            "and a segment ends at the first frame beyond its start plus its length (the "
            "devkit's rule); choose shorter segment lengths (`lengths_m=`)"
        )
        raise ValidationError(msg, field="Drift.lengths_m", reason=msg)
    pairs = np.stack([first, last], axis=1)
    # The devkit's nominal length, or trajectopy's: the pair's own path distance or interval.
    actual = spec.per_actual_length or seconds
    per = distances[last] - distances[first] if actual else length
    if keeps_matrices(ref, est):  # blocks as given: the devkit's arithmetic on them
        t_m, r_rad = _devkit_errors(ref, est, first, last)
        r_deg = np.degrees(r_rad)
    else:  # ‖t(ΔP⁻¹ ΔQ)‖ = ‖t(ΔQ⁻¹ ΔP)‖ and the angles agree: the RPE kernel gives both.
        t_m = rpe_errors(ref, est, pairs, "translation")
        r_deg = rpe_errors(ref, est, pairs, "angle_deg")
    quantities = (
        (("translation_m_per_s", "m/s", t_m / per), ("rotation_deg_per_s", "deg/s", r_deg / per))
        if seconds
        else (
            ("translation_pct", "%", t_m / per * 100.0),
            ("rotation_deg_per_m", "deg/m", r_deg / per),
        )
    )
    starts = ref.stamps_s[first]
    signals = [
        signal_of(quantity, unit, series, starts, pairs, integrate=False)
        for quantity, unit, series in quantities
    ]
    empty: list[float] = []
    for value in lengths:
        rows = np.flatnonzero(length == value)
        empty += [] if rows.size else [value]
        signals += [
            signal_of(
                quantity,
                unit,
                series[rows],
                starts[rows],
                pairs[rows],
                integrate=False,
                **({"delta": value, "delta_unit": "s"} if seconds else {"length_m": value}),
            )
            for quantity, unit, series in quantities
        ]
    # A 250 m run's figure pooled its 100 and 200 m segments in silence, beside the NaN
    # rows of the others: not comparable with a sequence's over all eight (a review).
    span = float(distances[-1] - distances[0]) if seconds else float(distances[-1])
    said = (quantities[0][0], quantities[1][0], "s" if seconds else "m")
    notes = [_lengths_left_note(empty, lengths, span, said)] if empty else []
    return prepared.result(
        DRIFT_METRICS["kitti"],
        signals,
        parameters=parameters,
        names=names,
        counts={"segments": int(first.size)},
        notes=notes,
    )


def _devkit_errors(
    ref: PoseTrajectory, est: PoseTrajectory, first: IntpArray, last: IntpArray
) -> tuple[Float64Array, Float64Array]:
    """Return the devkit's segment errors, the blocks as given: metres, radians, ``(K,)``.

    ``E = ΔP⁻¹ ΔQ`` with the 4x4 poses inverted numerically (the devkit's ``inverse``),
    ``‖t(E)‖`` and ``arccos(clip((tr R(E) - 1) / 2))``. WHY: on blocks off SO(3) (some
    VO methods write them ~1e-3 off) this angle takes in their shear, and the
    published figures are the devkit's; the quaternions' angle of the nearest rotations
    gave 0.002533 deg/m on KITTI 00 ORB-SLAM with blocks 1e-3 off, where the devkit's
    arithmetic gives 0.003679.
    """

    def motions(traj: PoseTrajectory) -> Float64Array:
        blocks = rotation_blocks(traj)
        poses = np.zeros((2, first.size, 4, 4))
        for k, rows in enumerate((first, last)):
            poses[k, :, :3, :3] = blocks[rows]
            poses[k, :, :3, 3] = traj.positions_xyz[rows]
        poses[:, :, 3, 3] = 1.0
        out: Float64Array = np.matmul(np.linalg.inv(poses[0]), poses[1])
        return out

    error = np.matmul(np.linalg.inv(motions(est)), motions(ref))
    cos = np.clip(0.5 * (np.trace(error[:, :3, :3], axis1=1, axis2=2) - 1.0), -1.0, 1.0)
    return np.linalg.norm(error[:, :3, 3], axis=1), np.arccos(cos)


def _frames(trajectory: PoseTrajectory, t_start: float | None) -> IntpArray | None:
    """Return the frame index of each pose of a trajectory stamped by frame, else None.

    A KITTI file read without times (``stamps_are_frames``) is stamped with its frame
    indices, which rows dropped by the reader leave out. Cut at frame ``t_start``, they
    count from the first frame at or after it: the devkit's frames on the cut file.
    WHY: a user cutting with ``--t-start 3`` asks for the devkit's figures on that part,
    as a times file gives them (every 10th pose of the cut), not for starts 10, 20, ...
    of the whole file; a dropped first row (NaN), no cut, keeps the whole file's frames.
    """
    stamps = trajectory.stamps_s
    if not trajectory.stamps_are_frames or not np.array_equal(stamps, np.round(stamps)):
        return None
    origin = max(math.ceil(t_start), 0) if t_start is not None else 0
    return stamps.astype(np.intp) - origin


def _lengths_left_note(
    empty: list[float],
    lengths: list[float],
    path_m: float,
    said: tuple[str, str, str] = ("translation_pct", "rotation_deg_per_m", "m"),
) -> str:
    """Say which segment lengths had no segment, and what the pooled figures hold then.

    ``said``: the pooled signals' names and the lengths' unit (``"s"``: ``path_m`` is
    the matched reference's span in seconds).

    Examples
    --------
    >>> import textwrap
    >>> note = _lengths_left_note([300.0, 400.0], [100.0, 200.0, 300.0, 400.0], 259.2)
    >>> print(textwrap.fill(note, 80))
    2 of the 4 segment lengths have no segment (300, 400 m; the matched reference
    path is 259.2 m): translation_pct and rotation_deg_per_m pool the 100, 200 m
    segments only, as the devkit does; not comparable with a figure over every
    length
    """
    kept = [v for v in lengths if v not in empty]
    translation, rotation, unit = said
    extent = "spans" if unit == "s" else "path is"
    return (
        f"{len(empty)} of the {len(lengths)} segment lengths have no segment "
        f"({', '.join(f'{v:g}' for v in empty)} {unit}; the matched reference {extent} "
        f"{path_m:.6g} {unit}): {translation} and {rotation} pool the "
        f"{', '.join(f'{v:g}' for v in kept)} {unit} segments only, as the devkit does; not "
        "comparable with a figure over every length"
    )


def rpg_segments(
    distances_m: Float64Array, length_m: float, max_diff_m: float
) -> tuple[IntpArray, IntpArray]:
    """rpg_trajectory_evaluation's segments of one length: every start, its closest end.

    For each frame ``i`` the frame ``j >= i`` minimising ``|D_j - (D_i + L)|`` (the first
    on a tie), kept when that is strictly below ``max_diff_m``.

    Examples
    --------
    >>> first, last = rpg_segments(np.array([0.0, 1.0, 2.1, 2.9, 4.0]), 2.0, 0.4)
    >>> first.tolist(), last.tolist()
    ([0, 1, 2], [2, 3, 4])
    """
    (length_m,) = _check_lengths([length_m], "length_m")
    try:
        limit = real_float(max_diff_m)
    except (TypeError, ValueError):
        limit = math.nan
    if not (math.isfinite(limit) and limit >= 0):
        reason = f"expected a finite distance >= 0 metres, got {max_diff_m!r:.60}"
        raise _invalid(reason, field="max_diff_m")
    distances_m = _check_distances(distances_m)
    n = distances_m.size
    first = np.arange(n)
    target = distances_m + length_m
    upper = search_sorted(distances_m, target, "left")  # first D_j >= target
    up = np.minimum(upper, n - 1)
    up_err = np.where(upper < n, np.abs(distances_m[up] - target), np.inf)
    low = np.maximum(upper - 1, first)
    low = np.maximum(search_sorted(distances_m, distances_m[low], "left"), first)
    low_err = np.where(upper - 1 >= first, np.abs(distances_m[low] - target), np.inf)
    take_low = low_err <= up_err
    last = np.where(take_low, low, up)
    err = np.where(take_low, low_err, up_err)
    keep = err < limit
    return first[keep], last[keep]


def _yaw_gravity_deg(matrices: Float64Array) -> tuple[Float64Array, Float64Array]:
    """``|yaw|`` and ``sqrt(pitch² + roll²)``, degrees, of ``Rz(yaw) Ry(pitch) Rx(roll)``."""
    roll, pitch, yaw = np.moveaxis(euler_sxyz_from_matrix(matrices), -1, 0)
    return np.degrees(np.abs(yaw)), np.degrees(np.hypot(pitch, roll))


def rpg_result(
    prepared: Prepared, spec: Drift, path_length_m: float, names: tuple[str, str]
) -> EvaluationResult:
    """rpg_trajectory_evaluation's relative error of prepared poses over set lengths.

    ``path_length_m`` is the reference's whole path within the time range (the
    unmatched reference, as rpg reads it, cut to ``t_start_s``/``t_end_s`` as rpg's
    ``start_time_sec``/``end_time_sec``), of which the spec's fractions are taken.
    ``metric="relative_error"``; per length ``L`` (``length_m`` typed, named ``@{L}m``):
    ``translation`` (m), ``translation_pct`` (%), ``rotation_deg``, ``yaw_world_deg``,
    ``gravity_deg`` (deg) and ``rotation_deg_per_m`` (deg/m). ``yaw_world_deg`` and
    ``gravity_deg`` are rpg's ``rel_yaw`` and ``rel_gravity``: ``|yaw|`` and
    ``sqrt(pitch² + roll²)`` of the error turned into the world with the unaligned
    estimate's rotation at the segment's end, about the axes of the world the estimate is
    expressed in (its z is gravity's for a visual-inertial estimate), not the reference
    body's as APE's ``yaw_deg``. Like rpg, a length with fewer than 2 segments is not
    computed (``n == 0``, with a note). Only the alignment's scale enters: the result's
    ``estimate`` is the one compared, unaligned, positions multiplied by the scale; its
    ``aligned_estimate`` (what ``--plot`` draws and ``--save-aligned`` writes) is that one
    rotated and shifted by the Sim(3) alignment too, as rpg's own trajectory plots draw.

    Raises
    ------
    ValidationError
        Fractions that give lengths of 0 or twice the same; ``project_to_plane`` (the
        projection follows the alignment, and rpg compares the unaligned estimate); no
        length with 2 segments.
    """
    parameters = spec.record(path_length_m)
    resolved = spec.resolved_lengths_m(path_length_m)
    if spec.lengths_m is None and 0.0 in resolved:
        # A short path's fractions truncate to 0 m: the fractions were blamed as given
        # ("expected finite segment lengths > 0 metres, got [0.0, ...]"), defaults too.
        _check_moves(path_length_m, "rpg")
        # repr, as given: :g said a subnormal's six digits (1e-320 as 9.99989e-321).
        fractions = ", ".join(map(repr, parameters["fractions"]))  # type: ignore[arg-type]
        reason = (
            f"expected fractions of at least a centimetre of the reference path "
            f"({path_length_m:.6g} m within the time range; rpg truncates its lengths to "
            f"centimetres), got {fractions}: lengths "
            f"{', '.join(f'{v:g}' for v in resolved)} m; give lengths in metres (`lengths_m=`)"
        )
        raise _invalid(reason, field="Drift.fractions")
    lengths = _check_lengths(resolved, "Drift.fractions")
    ratio = float(parameters["max_diff_ratio"])  # type: ignore[arg-type]  # a float by record
    plane = prepared.settings.project_to_plane
    if plane is not None:
        reason = (
            "no plane projection with rpg's relative error, which compares the unaligned "
            f"estimate (the projection follows the alignment), got {plane!r}"
        )
        msg = f"Expected {reason}"
        raise ValidationError(msg, field="EvaluationSettings.project_to_plane", reason=reason)
    ref = prepared.reference
    raw = prepared.association.estimate
    # rpg's T_c1_c2: the unaligned estimate's motion with its translation scaled; its
    # matched rows' stamps repeat where read with repeated_stamps="all", as rpg reads them.
    scaled = with_positions(raw, raw.positions_xyz * prepared.alignment.scale)
    distances = path_distances(ref.positions_xyz)
    signals: list[Signal] = []
    notes: list[str] = []
    n_segments = 0
    quantities = (
        ("translation", "m"),
        ("translation_pct", "%"),
        ("rotation_deg", "deg"),
        ("yaw_world_deg", "deg"),
        ("gravity_deg", "deg"),
        ("rotation_deg_per_m", "deg/m"),
    )
    for length in lengths:
        first, last = rpg_segments(distances, length, ratio * length)
        if first.size < 2:
            notes.append(f"{first.size} segment(s) of {length:g} m: too few, not computed (rpg)")
            first, last = first[:0], last[:0]
        n_segments += int(first.size)
        values = _rpg_errors(ref, scaled, raw, first, last, length)
        t = ref.stamps_s[first]
        pairs = np.stack([first, last], axis=1)
        signals += [
            signal_of(quantity, unit, series, t, pairs, integrate=False, length_m=length)
            for (quantity, unit), series in zip(quantities, values, strict=True)
        ]
    if n_segments == 0:  # as the KITTI protocol refuses it: all-NaN statistics are no answer
        _check_moves(float(distances[-1]), "rpg", distances.size)
        # Lengths given leave no fractions to make smaller ("or smaller --fractions" was
        # said beside --lengths, which the two refuse together).
        advice = (
            "shorter lengths (`lengths_m=`)"
            if spec.lengths_m is not None
            else "smaller `fractions=`, or lengths in metres (`lengths_m=`)"
        )
        msg = (
            f"No rpg segment fits: the matched reference path is {distances[-1]:.6g} m and "
            f"every segment length ({', '.join(f'{v:g}' for v in lengths)} m) gives fewer than "
            f"2 segments; choose {advice}"
        )
        field = "Drift.lengths_m" if spec.lengths_m is not None else "Drift.fractions"
        raise ValidationError(msg, field=field, reason=msg)
    return prepared.result(
        DRIFT_METRICS["rpg"],
        signals,
        parameters=parameters,
        names=names,
        counts={"segments": n_segments},
        notes=notes,
        estimate=scaled,
    )


def _rpg_errors(
    ref: PoseTrajectory,
    scaled: PoseTrajectory,
    raw: PoseTrajectory,
    first: IntpArray,
    last: IntpArray,
    length: float,
) -> tuple[Float64Array, ...]:
    """Compute the six rpg series of one length (see :func:`relative_error`)."""
    pairs = np.stack([first, last], axis=1)
    translation = rpe_errors(ref, scaled, pairs, "translation")
    rotation = rpe_errors(ref, scaled, pairs, "angle_deg")
    # The error rotation in the world frame: R(P_j) R(E) R(P_j)ᵀ with the unaligned estimate.
    q_ref, q_est = ref.orientations_quat_xyzw, scaled.orientations_quat_xyzw
    q_rel_ref = quat_xyzw_multiply(quat_xyzw_conjugate(q_ref[first]), q_ref[last])
    q_rel_est = quat_xyzw_multiply(quat_xyzw_conjugate(q_est[first]), q_est[last])
    q_err = quat_xyzw_multiply(quat_xyzw_conjugate(q_rel_ref), q_rel_est)
    q_c2 = raw.orientations_quat_xyzw[last]
    q_world = quat_xyzw_multiply(quat_xyzw_multiply(q_c2, q_err), quat_xyzw_conjugate(q_c2))
    yaw, gravity = _yaw_gravity_deg(matrix_from_quat_xyzw(q_world))
    return (
        translation,
        translation / length * 100.0,
        rotation,
        yaw,
        gravity,
        rotation / length,
    )
