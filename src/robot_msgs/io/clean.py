"""Data problems in read poses: found, then fixed by a stated rule (with a warning) or refused.

Every reader ends here. The rules, applied in this order:

1. Rows with a NaN or infinite value are dropped.
2. Quaternions are divided by their norm. A norm within
   :data:`QUATERNION_ROUNDING_TOL` (1e-4) of 1 is what printing a unit quaternion to 4
   decimals gives (each component off by at most 5e-5, so the norm by at most
   ``sqrt(4) * 5e-5 = 1e-4``: the TUM RGB-D ground truth is off by up to 8.4e-5), and
   is normalised silently; a norm off by more is reported; a norm off by more than
   :data:`QUATERNION_REFUSE_TOL` (or zero) is refused: that is not rounding but a wrong
   column order or garbage.
3. Stamps out of order are sorted (stable: rows with equal stamps keep file order).
4. Of rows with equal stamps, one is kept by the rule ``repeated_stamps``: ``"first"``
   (the default: the first in the file), ``"last"`` (the last in the file, what TUM's
   ``evaluate_rpe.py`` and ``evaluate_ate.py`` keep, as they read rows into a dict keyed
   by stamp; ``PairSettings(protocol="tum")`` reads with it), ``"refuse"`` (an
   error naming the lines), or ``"all"``: every row is kept, in file order, as evo
   keeps them; the trajectory's stamps then only increase or stay equal, which only
   evo's ``nearest`` association takes (each row matched alone, as evo matches it).

Each fix emits one :class:`~robot_msgs.errors.DataWarning` that names the file, what
was found, where (the first few lines) and the rule applied. Nothing is ever fixed
silently but the rounding of rule 2.

Notes: what a reader finds that is no data problem and changes no number of most
metrics (a bag topic whose covariances are all zero, ROS's "unknown", read as none) is
not warned about. It is a note (:func:`note`), kept only inside a :func:`reading_notes`
block, for the one who asked: ``traj`` lists it, ``doctor`` reports it, and NEES names
the topic when it finds no covariance.

Limits: a rule that would discard more than half of a file's rows (rules 1 and 4), or
leave fewer than 2 poses of a file that had more, is an error naming the file and the
rule: so many bad rows mean the file is not what its format says (stamps in another
column or unit, a wrong format), and the fix would hide that.

Plausibility: a trajectory whose mean rate is above :data:`MAX_RATE_HZ` (1 MHz) or below
:data:`MIN_RATE_HZ` (1e-6 Hz, one pose in 11.6 days) is reported with the likely cause
(stamps in another unit than the format's) and the fix.

``strict=True`` (the CLI's ``--strict``) means: refuse what these rules would change.
Every problem above then raises :class:`~robot_msgs.errors.FormatError` instead of
being fixed; what the rules leave unchanged (quaternions within the rounding tolerance,
rows already in order) passes.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import warnings
from contextvars import ContextVar
from typing import TYPE_CHECKING, Literal

import numpy as np

from robot_msgs.errors import DataWarning, FormatError, ValidationError, caller_stacklevel
from robot_msgs.report.text import listed
from robot_msgs.trajectory import POSITION_LIMIT_M, PoseTrajectory, rows_past_limit

#: Largest ``max |R Rᵀ - I|`` of a rotation written in full float64 precision (a few
#: ulps): a KITTI block off by more is projected onto SO(3) *with a word*, and a writer
#: that keeps only quaternions loses nothing of a block within it (here, below the
#: KITTI reader, which imports it: the two judge a block alike).
ROTATION_EXACT_TOL = 1e-12

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator

    from robot_msgs.typing import Float64Array, Int64Array, IntpArray

__all__ = [
    "MAX_RATE_HZ",
    "MIN_RATE_HZ",
    "NO_PROBLEM_KINDS",
    "QUATERNION_REFUSE_TOL",
    "QUATERNION_ROUNDING_TOL",
    "REPEATED_STAMPS",
    "ROUNDED_ROTATIONS",
    "UNKNOWN_COVARIANCES",
    "RepeatedStamps",
    "check_poses_to_write",
    "check_repeated_stamps",
    "finish_trajectory",
    "held_reports",
    "implausible_stamps",
    "known_covariances",
    "no_orientation",
    "note",
    "reading_notes",
    "report",
    "stamps_divided_after",
]

#: Which of the rows with equal stamps a reader keeps (rule 4 of the module docstring).
RepeatedStamps = Literal["first", "last", "refuse", "all"]
#: The choices of :data:`RepeatedStamps`, in the order the docstring states them.
REPEATED_STAMPS: tuple[str, ...] = ("first", "last", "refuse", "all")

#: Largest deviation of a quaternion's norm from 1 that a reader repairs by normalising.
QUATERNION_REFUSE_TOL = 1e-2
#: Largest deviation of a quaternion's norm from 1 that is the rounding of printed data
#: (4 decimals: ``sqrt(4) * 5e-5``): normalised without a word, and passes ``strict``.
QUATERNION_ROUNDING_TOL = 1e-4
#: A norm this close to 1 is left as it is (4 ulps of 1.0).
_UNIT_ULPS = 4 * float(np.finfo(np.float64).eps)
#: The kind of :class:`~robot_msgs.errors.DataWarning` for KITTI rotation blocks off SO(3)
#: by the rounding of their printed digits (every KITTI file: 7 digits): said, since it
#: moves results by about as much, relative, against tools that use the blocks as given,
#: but no data problem.
ROUNDED_ROTATIONS = "rounded_rotations"
#: Positions of a format that has no orientation (latitude/longitude/altitude, NavSatFix,
#: PointStamped), read with identity rotations: said, since rotation errors then mean
#: nothing, but the file is as its format is.
NO_ORIENTATION = "no_orientation"
#: The kinds of DataWarning that say how a file was read, not a problem in it
#: (``robot-msgs traj`` lists them as notes; ``--check`` passes them).
NO_PROBLEM_KINDS = frozenset({ROUNDED_ROTATIONS, NO_ORIENTATION})
#: The plausible mean rates of a trajectory, Hz: a reading outside them is reported.
MIN_RATE_HZ = 1e-6
MAX_RATE_HZ = 1e6

_SHOWN = 5
_FIELDS = ("t", "x", "y", "z", "qx", "qy", "qz", "qw")


_LINE = re.compile(r"(.*?)line (\d+)")


def _line_parts(label: str) -> list[tuple[str, str]] | None:
    """Split ``"line 2 / times.txt line 3"`` into ``[("", "2"), ("times.txt ", "3")]``.

    ``None`` when a part is no line (a bag's message, a row).
    """
    found = [_LINE.fullmatch(part) for part in label.split(" / ")]
    return [(m.group(1), m.group(2)) for m in found if m] if all(found) else None


def _listed(labels: list[str], total: int) -> str:
    """``"line 5"`` or ``"lines 5, 9, 12 and 40 more"`` for messages.

    Labels of a line in two files (KITTI's poses and times, ``"line 2 / times.txt line
    2"``) are listed file by file: ``"lines 2, 8 / times.txt lines 2, 8"``. WHY: the
    numbers after the first ``line`` were joined whole, ``"lines 2 / times.txt line 2,
    8 / times.txt line 8"`` (a review).
    """
    parsed = [parts for parts in map(_line_parts, labels) if parts is not None]
    files = {tuple(prefix for prefix, _ in parts) for parts in parsed}
    if labels and len(parsed) == len(labels) and len(files) == 1:
        lines = "line" if len(labels) == 1 else "lines"
        text = " / ".join(
            f"{prefix}{lines} " + ", ".join(parts[k][1] for parts in parsed)
            for k, prefix in enumerate(files.pop())
        )
    else:
        text = ", ".join(labels)
    return listed([text], 1, 1 + total - len(labels))  # the labels said as one, the rest counted


def report(message: str, *, strict: bool, kind: str = "", fixed: bool = True) -> None:
    """Warn with a :class:`DataWarning`, or raise :class:`FormatError` when ``strict``.

    ``kind`` and ``fixed`` tag the warning (:class:`DataWarning`) for the doctor. A
    reader's reading of its stamps in another unit than its format's (``kind`` of
    ``"stamp_units"``, ``fixed``) is refused inside :func:`stamps_divided_after`.

    Raises
    ------
    FormatError
        ``strict``: the problem is refused, not fixed.
    ValidationError
        The stamps were read in another unit inside :func:`stamps_divided_after`.
    """
    divided = _DIVIDED_AFTER.get()
    if divided is not None and kind == "stamp_units" and fixed:
        setting, side, divisor = divided
        reason = (
            f"Expected 1 as the {side}'s divisor, got {divisor:g}: its reader divided its "
            f"stamps already ({message})"
        )
        msg = f"{setting}: {reason}"
        raise ValidationError(msg, field="stamp_divisors", reason=reason)
    if strict:
        raise FormatError(message + " (strict reading, `strict=True`: refused, not fixed)")
    warning = DataWarning(message, kind=kind, fixed=fixed)
    held = _HELD.get()
    if held is not None:
        held.append(warning)
        return
    warnings.warn(warning, stacklevel=caller_stacklevel())


_HELD: ContextVar[list[DataWarning] | None] = ContextVar("robot_msgs_held_reports", default=None)

#: The setting that divides the stamps read in the current :func:`stamps_divided_after`
#: block (as a call names it), the side it divides and its divisor; ``None`` outside one.
_DIVIDED_AFTER: ContextVar[tuple[str, str, float] | None] = ContextVar(
    "robot_msgs_stamps_divided_after", default=None
)


@contextlib.contextmanager
def stamps_divided_after(setting: str, *, side: str, divisor: float) -> Iterator[None]:
    """Refuse a reader's reading of its stamps in another unit inside the block.

    For a side whose stamps ``setting`` divides by ``divisor`` once read
    (:attr:`~robot_msgs.evaluation.ReadSettings.stamp_divisors`, applied by
    :func:`~robot_msgs.io.read_inputs`). WHY: a reader that reads integer stamps as
    nanoseconds or milliseconds divides them itself, with a warning (a TUM file's
    ``1305031102160407000``); the divisor then divided them again without a word:
    fr1_xyz's rgbdslam written in ns, ``--stamp-divisors 1 1e9``, read at
    30,696,454,512.7 Hz instead of 30.7 Hz, and in integer ms with ``1 1000`` (the
    README's fix for ms) at 30,700 Hz. Its :func:`report` (``kind="stamp_units"``,
    ``fixed``) raises :class:`ValidationError` here instead, naming ``setting``: the
    divisor names the unit the file's stamps are written in, and the reader read them
    in it already. A unit a format states (EuRoC's nanoseconds) is no such conversion.

    Examples
    --------
    >>> try:
    ...     with stamps_divided_after("`d=`", side="estimate", divisor=1000.0):
    ...         report("a: ms", strict=False, kind="stamp_units")
    ... except ValidationError as err:
    ...     print(err.field)
    ...     print(err.reason)
    stamp_divisors
    Expected 1 as the estimate's divisor, got 1000: its reader divided its stamps already (a: ms)
    """
    token = _DIVIDED_AFTER.set((setting, side, divisor))
    try:
        yield
    finally:
        _DIVIDED_AFTER.reset(token)


@contextlib.contextmanager
def held_reports() -> Iterator[list[DataWarning]]:
    """Hold the warnings :func:`report` makes inside the block, in order, instead of emitting them.

    For a reader run in a thread (:mod:`robot_msgs.io.side_by_side`): its caller emits
    them in the order the inputs were given. Refusals (``strict``) still raise.

    Examples
    --------
    >>> with held_reports() as held:
    ...     report("a.tum: 2 rows with NaN dropped", strict=False)
    >>> [str(w) for w in held]
    ['a.tum: 2 rows with NaN dropped']
    """
    with _kept_in(_HELD, pass_on=False) as kept:
        yield kept


_NOTES: ContextVar[list[DataWarning] | None] = ContextVar("robot_msgs_reading_notes", default=None)


@contextlib.contextmanager
def reading_notes(*, pass_on: bool = True) -> Iterator[list[DataWarning]]:
    """Collect the readers' notes made inside the block (see the module docstring).

    Each note is a :class:`DataWarning` with its ``kind``, ``fixed=False``, never
    emitted as a warning. Nested blocks each get the notes made inside them, and pass
    them on to the enclosing block, unless ``pass_on`` is false (a reader run in a
    thread: its caller passes them on, in input order).

    Examples
    --------
    >>> with reading_notes() as notes:
    ...     note("a.bag /odom: covariances all zero", kind="unknown_covariances")
    >>> [(str(n), n.kind) for n in notes]
    [('a.bag /odom: covariances all zero', 'unknown_covariances')]
    >>> note("nobody listens", kind="unknown_covariances")  # outside a block: nothing
    """
    with _kept_in(_NOTES, pass_on=pass_on) as kept:
        yield kept


@contextlib.contextmanager
def _kept_in(
    var: ContextVar[list[DataWarning] | None], *, pass_on: bool
) -> Iterator[list[DataWarning]]:
    """Point ``var`` at a new list for the block; with ``pass_on``, add it to the outer one."""
    outer = var.get()
    kept: list[DataWarning] = []
    token = var.set(kept)
    try:
        yield kept
    finally:
        var.reset(token)
        if pass_on and outer is not None:
            outer.extend(kept)


def no_orientation(source: str, what: str) -> None:
    """Warn that ``what`` of ``source`` has no orientation, read as identity rotations.

    One wording for every position-only reader (kind ``no_orientation``, a
    :data:`NO_PROBLEM_KINDS`): ``robot-msgs traj --check`` of a valid latitude/longitude
    file exited 1 on this warning, as on a data problem (a review).
    """
    warnings.warn(
        DataWarning(
            f"{source}: {what} has no orientation: identity rotations used, so rotation "
            "errors are meaningless (use translation or point_distance)",
            kind=NO_ORIENTATION,
        ),
        stacklevel=caller_stacklevel(),
    )


def note(message: str, *, kind: str) -> None:
    """Keep a reading note of ``kind`` in the enclosing :func:`reading_notes` block, if any."""
    kept = _NOTES.get()
    if kept is not None:
        kept.append(DataWarning(message, kind=kind, fixed=False))


#: The kind of the reading note "every covariance read is all zero" (:func:`known_covariances`).
UNKNOWN_COVARIANCES = "unknown_covariances"


def known_covariances(cov: Float64Array, source: str, *, each: str) -> Float64Array | None:
    """Return the ``(N, 6, 6)`` covariances read, or None where some are all zero.

    An all-zero covariance is ROS's "unknown" (as many drivers leave it, and as a
    trajectory without covariances is written): the trajectory carries none, so that
    writing and reading back give the same trajectory. When every one is, a reading note
    of kind :data:`UNKNOWN_COVARIANCES` says so (:func:`note`: no warning, as most metrics
    do not use covariances; NEES names the input); when only some are, a warning. The
    bag readers and cnspy's CSV files follow this one rule.

    Parameters
    ----------
    cov : ndarray, shape (N, 6, 6), float64
        The covariances as read, ROS order (x, y, z, rotations about x, y, z).
    source : str
        The file (and topic), as the messages name it.
    each : str
        What holds one covariance, as the messages name it: ``"message"``, ``"row"``.

    Returns
    -------
    ndarray, shape (N, 6, 6), float64, or None
        ``cov`` itself, or None if any of them is all zero.

    Examples
    --------
    >>> import numpy as np
    >>> with reading_notes() as notes:
    ...     known_covariances(np.zeros((2, 6, 6)), "a.csv", each="row") is None
    True
    >>> str(notes[0])
    "a.csv: covariances all zero on every row (ROS's 'unknown'): read as none"
    """
    unknown = ~cov.any(axis=(1, 2))
    if unknown.all():
        message = f"{source}: covariances all zero on every {each} (ROS's 'unknown'): read as none"
        note(message, kind=UNKNOWN_COVARIANCES)
        return None
    if unknown.any():
        warnings.warn(
            f"{source}: {int(unknown.sum())} of {unknown.size} {each}s have an all-zero "
            "(unknown) covariance: the trajectory carries none",
            DataWarning,
            stacklevel=caller_stacklevel(),
        )
        return None
    return cov


def _limit(source: str, rule: str, found: str, dropped: int, total: int, left: int) -> None:
    """Refuse a rule that would discard more than half of ``total`` rows or leave < 2."""
    if left >= 2 and 2 * dropped <= total:
        return
    effect = (
        f"would leave {left} pose{'s' * (left != 1)} of {total} rows (fewer than 2)"
        if left < 2
        else f"would discard {dropped} of {total} rows (more than half)"
    )
    msg = (
        f"{source}: {found}; the rule '{rule}' {effect}: refused, as the file is likely "
        "not what its format says (stamps in another column or unit?); "
        "check the file or choose the format (`format=`)"
    )
    if left == 0:
        msg += " - no poses left"
    raise FormatError(msg)


def implausible_stamps(stamps_s: Float64Array, *, source: str) -> str | None:
    """Say what is implausible about read stamps (seconds), with the fix; None when nothing.

    A single pose (time span 0 s), or a mean rate above :data:`MAX_RATE_HZ` or below
    :data:`MIN_RATE_HZ`.

    Examples
    --------
    >>> print(implausible_stamps(np.array([1.4, 1.4 + 5e-9]), source="a.csv"))  # doctest: +ELLIPSIS
    a.csv: 2 poses in 5e-09 s, 2e+08 Hz on average (above 1 MHz): stamps in a smaller unit ...
    >>> implausible_stamps(np.array([0.0, 0.1]), source="a.tum") is None
    True
    """
    n = stamps_s.shape[0]
    if n == 1:
        return (
            f"{source}: 1 pose only (time span 0 s, no rate): nothing to evaluate; "
            "check that the file holds the whole trajectory"
        )
    if n == 0:
        return None
    # Python floats: stamps of +-1e308 overflow to an inf span without NumPy's RuntimeWarning,
    # which left the reader (an error under -W error) and was printed by the command line.
    first, last = float(stamps_s[0]), float(stamps_s[-1])
    span = last - first
    rate = (n - 1) / span if span > 0 else float("inf")
    if math.isinf(span):
        head = f"{source}: {n} poses from {first:.3g} s to {last:.3g} s, a span beyond float64"
    else:
        head = f"{source}: {n} poses in {span:.3g} s, {rate:.3g} Hz on average"
    if rate > MAX_RATE_HZ:
        return (
            f"{head} (above 1 MHz): stamps in a smaller unit than the format's (seconds "
            "divided by 1e9?); write them in the format's unit or choose the format (`format=`)"
        )
    if rate < MIN_RATE_HZ:
        return (
            f"{head} (below 1e-6 Hz): stamps in a larger unit than the format's "
            "(nanoseconds read as seconds?); write them in seconds or choose the format "
            "(`format='euroc'` reads integer nanoseconds)"
        )
    return None


def _input_rows(rows: IntpArray | None, row: int) -> IntpArray:
    """Return the input row of kept row ``row``, ``(1,)``: ``row`` itself while none moved."""
    return np.array([row]) if rows is None else rows[row : row + 1]


def _taken(values: Float64Array | None, rows: IntpArray | None) -> Float64Array | None:
    """Return ``values`` as float64 at ``rows`` (all of them, in order, when None)."""
    if values is None:
        return None
    values = np.asarray(values, dtype=np.float64)
    return values if rows is None else values[rows]


def check_repeated_stamps(rule: object) -> None:
    """Refuse a ``repeated_stamps`` rule that is none of :data:`REPEATED_STAMPS`.

    WHY: any other value kept the first row without a word (``"keep"``, which an evo
    user means as evo keeps both rows, or a misspelt ``"refuse"``; a review).

    Raises
    ------
    ValidationError
        Naming the argument and the choices.
    """
    if not isinstance(rule, str) or rule not in REPEATED_STAMPS:
        msg = (
            f"Expected `repeated_stamps` as one of {', '.join(map(repr, REPEATED_STAMPS))} "
            f"(which row of equal stamps is kept, refuse them, or keep all, as evo), "
            f"got {rule!r:.60}"
        )
        raise ValidationError(msg, field="repeated_stamps")


def finish_trajectory(
    stamps_s: Float64Array,
    positions_xyz: Float64Array,
    quats_xyzw: Float64Array,
    *,
    source: str,
    where: Callable[[IntpArray], list[str]],
    strict: bool = False,
    frame_id: str = "",
    child_frame_id: str = "",
    owned: bool = False,
    covariance_6x6: Float64Array | None = None,
    stamps_ns: Int64Array | None = None,
    stamps_are_frames: bool = False,
    repeated_stamps: RepeatedStamps = "first",
    rotation_matrices: Float64Array | None = None,
    orientations_from_matrices: bool = False,
    unit_stated: bool = False,
) -> PoseTrajectory:
    """Apply the module's rules to raw read poses and build the :class:`PoseTrajectory`.

    Parameters
    ----------
    stamps_s : ndarray, shape (N,), float64
        Stamps in seconds, as read.
    positions_xyz : ndarray, shape (N, 3), float64
        Positions in metres.
    quats_xyzw : ndarray, shape (N, 4), float64
        Orientations ``x, y, z, w``, any norm.
    source : str
        The file (and topic) the rows came from, for messages.
    where : callable
        Maps row indices ``(K,)`` to labels such as ``"line 12"`` or ``"message 3"``.
    strict : bool
        Refuse any data problem instead of fixing it.
    frame_id, child_frame_id : str
        Frames of the poses.
    owned : bool
        The three arrays are the caller's to give away (new C-contiguous float64, used
        by nothing else): the trajectory keeps them without a copy and the quaternions
        are normalised in place. Readers pass their freshly parsed columns.
    covariance_6x6 : ndarray, shape (N, 6, 6), float64, optional
        Each row's pose covariance; it follows its row through the rules (a row dropped,
        sorted or deduplicated takes its covariance with it).
    stamps_ns : ndarray, shape (N,), int64, nanoseconds, optional
        The exact stamps the float ``stamps_s`` were computed from (ROS headers, as
        ``sec + nanosec * 1e-9``): they follow the rows kept and become the
        trajectory's ``stamps_ns``, so they are sorted by the same rule.
    stamps_are_frames : bool
        The stamps are frame indices (KITTI without a times file).
    repeated_stamps : {"first", "last", "refuse", "all"}
        Which of the rows with equal stamps is kept (rule 4), refuse them, or keep all.
    rotation_matrices : ndarray, shape (N, 3, 3), float64, optional
        The rotation blocks as read, kept to be used as given (KITTI); they follow
        their rows like ``covariance_6x6``.
    orientations_from_matrices : bool
        The orientations were read from rotation blocks (KITTI), not quaternion columns.
    unit_stated : bool
        The file states its stamps' unit (a TUM header ``# t[s] ...``): a mean rate
        below 1e-6 Hz or above 1 MHz is not said to be another unit (its guess,
        "nanoseconds read as seconds?", is what the file denies).

    Returns
    -------
    PoseTrajectory
        Finite rows, unit quaternions (signs kept), strictly increasing stamps (with
        ``repeated_stamps="all"``: increasing or equal).

    Raises
    ------
    FormatError
        A quaternion is zero or far from unit; no rows; a rule would discard more than
        half the rows or leave fewer than 2 poses; or any problem when ``strict``.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     traj = finish_trajectory(
    ...         np.array([1.0, 0.0]), np.zeros((2, 3)), np.array([[0, 0, 0, 1.0]] * 2),
    ...         source="a.txt", where=lambda rows: [f"line {r + 1}" for r in rows],
    ...     )
    >>> traj.stamps_s.tolist()
    [0.0, 1.0]
    >>> print(caught[0].message)
    a.txt: stamps not in increasing order (1 place, first at line 2): sorted by stamp
    """
    check_repeated_stamps(repeated_stamps)
    stamps = np.asarray(stamps_s, dtype=np.float64)
    xyz = np.asarray(positions_xyz, dtype=np.float64)
    quat = np.asarray(quats_xyzw, dtype=np.float64)
    total = stamps.shape[0]
    # The input row of each kept row, for messages; built only when a rule drops or moves
    # a row (an (N,) int64 would otherwise live through the whole read).
    rows: IntpArray | None = None

    # A finite sum proves every value finite; only otherwise is the row mask built.
    # A sum past float64 is inf, inf + -inf is NaN: the mask then decides.
    with np.errstate(over="ignore", invalid="ignore"):
        all_finite = all(np.isfinite(a.sum()) for a in (stamps, xyz, quat))
    finite = (
        np.isfinite(stamps) & np.isfinite(xyz).all(axis=1) & np.isfinite(quat).all(axis=1)
        if not all_finite
        else None
    )
    if finite is not None and not finite.all():
        bad = np.flatnonzero(~finite)
        if strict:
            row = int(bad[0])
            values = np.concatenate([stamps[row : row + 1], xyz[row], quat[row]])
            col = int(np.flatnonzero(~np.isfinite(values))[0])
            label = where(bad[:1])[0]
            msg = (
                f"{source}, {label}: {values[col]} in field {_FIELDS[col]} "
                f"({bad.size} row(s) with NaN or infinite values)"
            )
            report(msg, strict=True)
        labels = _listed(where(bad[:_SHOWN]), bad.size)
        _limit(
            source, "rows with NaN or infinite values are dropped",
            f"{bad.size} row(s) with NaN or infinite values ({labels})", bad.size, total,
            total - bad.size,
        )  # fmt: skip
        report(
            f"{source}: {bad.size} row(s) with NaN or infinite values dropped ({labels})",
            strict=False,
            kind="non_finite",
        )
        stamps, xyz, quat, rows = stamps[finite], xyz[finite], quat[finite], np.flatnonzero(finite)

    if stamps.shape[0] == 0:
        msg = f"{source}: no poses: the file holds no rows"
        raise FormatError(msg)
    past = rows_past_limit(xyz)
    if past.size:
        row = int(past[0])
        label = where(_input_rows(rows, row))[0]
        msg = (
            f"{source}, {label}: position {tuple(xyz[row].tolist())} is beyond "
            f"+-{POSITION_LIMIT_M:g} m, near where squared errors overflow float64 "
            f"({past.size} row(s) like this)"
        )
        raise FormatError(msg)

    norms = np.einsum("ij,ij->i", quat, quat)
    np.sqrt(norms, out=norms)
    # Masks against the bounds, not an (N,) float |norm - 1|: 1 byte a pose, not 8.
    far = ~((norms >= 1.0 - QUATERNION_REFUSE_TOL) & (norms <= 1.0 + QUATERNION_REFUSE_TOL))
    if far.any():
        row = int(np.flatnonzero(far)[0])
        label = where(_input_rows(rows, row))[0]
        # Scaled, not squared: components of 1e200 have norm 1.4e200, not inf (1e-200: not 0).
        norm = math.hypot(*quat[row].tolist())
        msg = (
            f"{source}, {label}: quaternion (qx, qy, qz, qw) = {tuple(quat[row].tolist())} "
            f"has norm {norm:.6g}; expected a unit quaternion (within "
            f"{QUATERNION_REFUSE_TOL:g}), check the column order "
            f"({int(far.sum())} row(s) like this)"
        )
        raise FormatError(msg)
    del far
    off = (norms < 1.0 - QUATERNION_ROUNDING_TOL) | (norms > 1.0 + QUATERNION_ROUNDING_TOL)
    if off.any():
        deviation = np.abs(norms - 1.0)
        worst = int(np.argmax(deviation))
        label = where(_input_rows(rows, worst))[0]
        report(
            f"{source}: {int(off.sum())} of {off.size} quaternion(s) not unit: normalised "
            f"(max norm deviation {deviation[worst]:.2g} at {label})",
            strict=strict,
            kind="non_unit_quaternions",
        )
    del off
    # A norm within 4 ulps of 1 is a unit quaternion as float64 holds one (a writer's own,
    # norm 1 +- 2 ulps): kept bit for bit, so what was written reads back equal.
    unit = (norms >= 1.0 - _UNIT_ULPS) & (norms <= 1.0 + _UNIT_ULPS)
    np.copyto(norms, 1.0, where=unit)
    del unit
    if owned:
        quat /= norms[:, None]
    else:
        quat = quat / norms[:, None]
    del norms

    # Comparisons of neighbours, not an (N,) float np.diff: 1 byte a pose.
    back = stamps[1:] < stamps[:-1]
    was_sorted = bool(back.any())
    if was_sorted:
        first = int(np.flatnonzero(back)[0]) + 1
        label = where(_input_rows(rows, first))[0]
        count = int(back.sum())
        report(
            f"{source}: stamps not in increasing order ({count} place{'s' * (count > 1)}, "
            f"first at {label}): sorted by stamp",
            strict=strict,
            kind="non_monotonic",
        )
        order = np.argsort(stamps, kind="stable")
        rows = order if rows is None else rows[order]
        stamps, xyz, quat = stamps[order], xyz[order], quat[order]
    del back

    same = stamps[1:] == stamps[:-1]
    repeats = False  # rows kept that share a stamp (repeated_stamps="all")
    if same.any():
        dup = np.flatnonzero(same) + 1
        labels = _listed(where(dup[:_SHOWN] if rows is None else rows[dup[:_SHOWN]]), dup.size)
        found = f"{dup.size} row(s) repeat an earlier stamp ({labels})"
        if stamps_ns is not None:  # equal seconds, but are they equal nanoseconds?
            ns = np.asarray(stamps_ns, dtype=np.int64)
            ns = ns if rows is None else ns[rows]
            apart = dup[ns[dup] != ns[dup - 1]]
            if apart.size:
                at = float(stamps[apart[0]])  # the step of the first such row, not of dup[0]
                found += (
                    f", {apart.size} of them only in float64 seconds (another header "
                    f"nanosecond, closer than float64's {np.spacing(at) * 1e9:.0f} ns step "
                    f"at {at!r} s)"
                )
        if repeated_stamps == "refuse":
            msg = f"{source}: {found}: refused (`repeated_stamps='refuse'`)"
            raise FormatError(msg)
        if repeated_stamps == "all":
            if covariance_6x6 is not None or rotation_matrices is not None:
                msg = (
                    f"{source}: {found}: `repeated_stamps='all'` "
                    "keeps no covariances or rotation blocks; use 'first' or 'last'"
                )
                raise FormatError(msg)
            if was_sorted:
                # WHY: evo pairs a file out of order by a linear search, which takes the
                # first row of a stamp, and a sorted one by a binary search, the last (ours):
                # the pairs would differ from evo's on this very file.
                msg = (
                    f"{source}: {found}, and its stamps are not in increasing order: "
                    "`repeated_stamps='all'` pairs the rows as evo pairs a sorted file, "
                    "and evo pairs this one otherwise; sort the file, "
                    "or use 'first' or 'last'"
                )
                raise FormatError(msg)
            repeats = True
            report(
                f"{source}: {found}: kept every row, as evo and rpg (`repeated_stamps='all'`)",
                strict=strict,
                kind="repeated_stamps",
            )
        else:
            which = "last" if repeated_stamps == "last" else "first"
            _limit(
                source, f"of rows with equal stamps the {which} is kept", found, dup.size,
                total, stamps.shape[0] - dup.size,
            )  # fmt: skip
            # evo keeps every row (V102.txt: 798 poses against 794), which the line says:
            # the numbers on such a file differ from evo's (README, "agree with evo"), and
            # how to get them.
            report(
                f"{source}: {found}: kept the {which} row of each stamp (evo keeps every "
                "row: `repeated_stamps='all'`)",
                strict=strict,
                kind="repeated_stamps",
            )
            keep = (
                np.concatenate([~same, [True]])
                if which == "last"
                else np.concatenate([[True], ~same])
            )
            rows = np.flatnonzero(keep) if rows is None else rows[keep]
            stamps, xyz, quat = stamps[keep], xyz[keep], quat[keep]
    del same

    if stamps.shape[0] >= 2 and not unit_stated:
        implausible = implausible_stamps(stamps, source=source)
        if implausible is not None:
            report(implausible, strict=strict, kind="stamp_units", fixed=False)

    # Finite, unit and strictly increasing by the rules above: the constructor's checks
    # would repeat them. The arrays are the trajectory's own: given (owned), new (quat,
    # or rows taken above), or copied here.
    if not owned:
        stamps, xyz = np.array(stamps, dtype=np.float64), np.array(xyz, dtype=np.float64)
    exact = None
    if stamps_ns is not None:
        ns = np.asarray(stamps_ns, dtype=np.int64)
        exact = ns.copy() if rows is None else ns[rows]  # a new array, in the rows' order
    if covariance_6x6 is not None or rotation_matrices is not None:
        return PoseTrajectory(  # validated by the constructor, which copies them
            stamps_s=stamps,
            positions_xyz=xyz,
            orientations_quat_xyzw=quat,
            frame_id=frame_id,
            child_frame_id=child_frame_id,
            covariance_6x6=_taken(covariance_6x6, rows),
            stamps_ns=exact,
            stamps_are_frames=stamps_are_frames,
            rotation_matrices=_taken(rotation_matrices, rows),
            orientations_from_matrices=orientations_from_matrices,
            stamps_repeat=repeats,
        )
    return PoseTrajectory._unchecked(  # noqa: SLF001
        stamps,
        xyz,
        quat,
        frame_id,
        child_frame_id,
        stamps_ns=exact,
        stamps_are_frames=stamps_are_frames,
        orientations_from_matrices=orientations_from_matrices,
        stamps_repeat=repeats,
    )


def check_poses_to_write(
    path: str | os.PathLike[str], traj: PoseTrajectory, *, keeps: Collection[str] = ()
) -> None:
    """Refuse to write ``traj`` to ``path`` if it has no poses; say what the file changes.

    Every reader refuses a file without poses (``no data rows``, a bag with no pose
    topic), so every writer refuses to make one: one check for all of them.

    Two fields change what the rows mean, and only KITTI's writer keeps them (``keeps``
    names those the caller's format keeps): stamps that are frame indices
    (``stamps_are_frames``) are written as seconds, frame k at k s, and rotation blocks
    kept as given (``rotation_matrices``) are written as the orientations, their nearest
    rotations. One :class:`~robot_msgs.errors.DataWarning` (``fixed=False``) names each
    that is lost, the blocks with how far they are from what is written (blocks within
    float64 rounding of those rotations, ``ROTATION_EXACT_TOL``, lose nothing: not said).
    They were lost without a word by every writer but KITTI's, and by ``to_path`` (a
    review); what no
    format of a file holds (``frame_id`` in a text file) is said by each writer's docstring.

    Raises
    ------
    ValidationError
        ``traj`` has no poses.
    """
    if not len(traj):
        msg = f"{os.fspath(path)}: expected at least one pose, got 0: no reader reads it back"
        raise ValidationError(msg)
    lost = []
    if traj.stamps_are_frames and "stamps_are_frames" not in keeps:
        lost.append(
            "the stamps are frame indices (a KITTI file read without its times file), "
            "written as seconds: frame k at k s"
        )
    blocks = traj.rotation_matrices
    off = 0.0
    if blocks is not None and "rotation_matrices" not in keeps:
        from robot_msgs.rotations import matrix_from_quat_xyzw  # noqa: PLC0415

        off = float(np.abs(blocks - matrix_from_quat_xyzw(traj.orientations_quat_xyzw)).max())
        # blocks that are rotations to float64 rounding (as read_kitti judges) lose nothing
        off = 0.0 if off <= ROTATION_EXACT_TOL else off
    if off:
        lost.append(
            "the rotation blocks kept as given (KITTI read with rotations='as_given') are "
            f"written as their nearest rotations, up to {off:.2g} off (max |M - R(q)|); a "
            "KITTI file keeps them"
        )
    if lost:
        note = DataWarning(f"{os.fspath(path)}: {'; '.join(lost)}", kind="", fixed=False)
        warnings.warn(note, stacklevel=caller_stacklevel())
