"""Read what a :class:`~robot_msgs.runs.RunSpec` points to: trajectories and logs.

A run's reference and estimate are read together, in one frame
(:func:`robot_msgs.io.read_inputs`); runs sharing a reference read it once (``cache``).
A missing or empty estimate is a run
that produced nothing (``estimate`` is ``None``, judged as a failure later); a reference
that is named but missing is an error, as is any file that cannot be read and an estimate
or log that is a symbolic link to nothing. A log cut short by a run that reported stopping
(its ``meta.json`` ``failure`` or a non-zero ``exit_code``: it crashed, was killed) is read as
written, with a warning: an empty one (0 bytes) as no log, one whose last line has no
newline and does not read without that line. The same log of a run that reported no
failure is a broken input, as any malformed file.
"""

from __future__ import annotations

import errno
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from robot_msgs.errors import DataWarning, FormatError, caller_stacklevel
from robot_msgs.evaluation.read_settings import ReadSettings
from robot_msgs.io.bounded import check_input_kind, kept_streams, read_input, stream_kind
from robot_msgs.io.examples import resolve_path
from robot_msgs.runs.logs import (
    ResourceLog,
    TimingLog,
    TrackingLog,
    read_resources,
    read_timing,
    read_tracking,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from robot_msgs.io.evaluation_inputs import InputFile
    from robot_msgs.runs.spec import RunSpec
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["RunInputs", "TrajectoryCache", "load_run"]

TrajectoryCache = dict[tuple[object, ...], "PoseTrajectory"]
"""Trajectories already read (:data:`robot_msgs.io.evaluation_inputs.InputsCache`)."""

_BAG_SUFFIXES = {".bag", ".mcap", ".db3"}
#: The most characters :func:`_has_poses` holds of one line at a time.
_PIECE_CHARS = 1 << 14
_Log = TypeVar("_Log", TimingLog, TrackingLog, ResourceLog)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunInputs:
    """A run and what its files hold.

    ``estimate`` is ``None`` when the run wrote no pose (a failed run); ``reference`` is
    ``None`` without ground truth; the logs are ``None`` when absent.
    """

    spec: RunSpec
    estimate: PoseTrajectory | None
    reference: PoseTrajectory | None = None
    timing: TimingLog | None = None
    tracking: TrackingLog | None = None
    resources: ResourceLog | None = None

    @property
    def name(self) -> str:
        """The run's name."""
        return self.spec.name


def _has_poses(path: Path) -> bool:
    """Whether a text trajectory file has at least one non-comment line (bags: exists)."""
    if path.suffix in _BAG_SUFFIXES or path.is_dir():
        return True
    check_input_kind(path)  # a device is refused, not read without end
    if stream_kind(path) is not None:  # a pipe: read once, its bytes kept for the reader
        lines = read_input(path).decode("utf-8", errors="replace").splitlines()
        return any(line.strip() and not line.lstrip().startswith("#") for line in lines)
    # WHY in pieces: a line is read whole otherwise, so a 1 GiB file without a newline (a
    # sparse file, a disk image) took 2.1 GB and 5.9 s here before its reader refused it
    # at its first bytes; a piece of a line goes on the line its first piece began.
    comment = False
    with path.open(encoding="utf-8", errors="replace") as handle:
        while piece := handle.readline(_PIECE_CHARS):
            if not comment:
                text = piece.lstrip()
                if text.startswith("#"):
                    comment = True
                elif text:
                    return True
            if piece.endswith("\n"):
                comment = False
    return False


def _refuse_a_found_pipe(path: Path) -> None:
    """Refuse a pipe found as the estimate of a run folder: nobody writes to it.

    A pipe named as a run's ``estimate`` (or on the command line) is read once, as a
    stream; one that a folder walk comes across has no writer waiting, and opening it
    would wait for ever.
    """
    if stream_kind(path) == "a pipe (FIFO)":
        msg = (
            f"{path}: is a pipe (FIFO) in a run folder: not read (a pipe "
            "found in a run folder has no writer); give a file, or name the pipe as the "
            "run's `estimate` in a manifest"
        )
        raise FormatError(msg)


def _named_in_the_run(err: FormatError, inputs: dict[str, InputFile]) -> FormatError:
    """Name a run's format key in a reader's error, in place of the ``format=`` argument.

    A run sets its format as its manifest entry's or meta.json's ``estimate_format`` /
    ``reference_format`` (bench and report have no ``--format``).
    """
    text = str(err)
    side = next((k for k, given in inputs.items() if text.startswith(given.path)), None)
    if side is None:
        return err
    named = re.sub(
        r"`format=('?\w+'?)?`", lambda m: f"{side}_format =" + (f" {m[1]}" if m[1] else ""), text
    )
    return FormatError(named)


def _refuse_a_broken_link(path: Path, named: str, what: str, source: str = "") -> None:
    """Refuse a run's file that is a symbolic link to nothing: a broken input, not a failure.

    A missing estimate is a run that wrote nothing (the algorithm's failure, "no
    estimate"), a missing log no log; a link whose target is gone (moved results, a link
    made on another machine) was counted as that too (a review). The run fails to
    evaluate, naming the link (as ``named``) and where it points, as a missing named
    reference and a log that is a pipe do.
    """
    if not path.is_symlink():
        return
    try:
        path.stat()
    except OSError as err:
        target = path.readlink()
        why = {
            errno.ELOOP: "which is a loop of links",
            errno.ENOENT: "which does not exist",
        }.get(err.errno or 0, f"which cannot be reached ({err.strerror or err})")
        msg = f"{named}: the run's {what} is a symbolic link to {target}, {why}"
        raise FormatError(msg + (f" ({source})" if source else "")) from err


def _read_log(path: Path, what: str, reader: Callable[..., _Log], *, stopped: bool) -> _Log | None:
    """Read a run's log (``None`` where there is none); a ``stopped`` run's cut short too.

    WHY: a run killed while writing its logs (an empty ``timing.csv``, a ``tracking.csv``
    ending in ``2.0,reco``) was refused as a broken input: ``report`` stopped, and with
    ``--allow-partial`` left the crash out of its algorithm's success rate. A crash is
    the run's result (the README; the guide reports the overall success rate apart from
    the accuracy): the run is judged on what it wrote, and the warning says what was
    left out. Any other malformed log is still refused, naming its file and line, and so
    is a cut one of a run that reported no failure: nothing says it stopped (a copy cut
    short, a full disk), and its cut tracking log made a run whose estimate reached the
    end 'tracking lost, not recovered', the algorithm's failure (a review).
    """
    kind = "a directory" if path.is_dir() else stream_kind(path)
    if kind is not None:
        # WHY: warned and passed over, a pipe's timing log left its run's latency out of
        # `report` without a word in the page or its notes, where `bench` failed the run
        # (rgbdslam 38/48 there, 37/47 here): a log that cannot be read is refused as a
        # malformed one is, by both.
        msg = f"{path}: is {kind}, not a regular file: a run's {what} log is read from a file"
        raise FormatError(msg)
    _refuse_a_broken_link(path, str(path), f"{what} log")
    if not path.is_file():
        return None
    if not stopped:
        return reader(path)
    if path.stat().st_size == 0:
        warnings.warn(
            f"{path}: empty (0 bytes): read as no {what} log, as a run that stopped before "
            "writing it",
            DataWarning,
            stacklevel=caller_stacklevel(),
        )
        return None
    try:
        return reader(path)
    except FormatError:
        with path.open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) in (b"\n", b"\r"):
                raise
        log = reader(path, drop_cut_line=True)  # the rows before it: refused as any log
    with path.open("rb") as handle:
        line = sum(1 for _ in handle)
    warnings.warn(
        f"{path}:{line}: the last line is cut (no newline at its end) and does not read: "
        "left out, as a run that stopped while writing it",
        DataWarning,
        stacklevel=caller_stacklevel(),
    )
    return log


def _resolve(path: str, spec: RunSpec) -> Path:
    try:
        return resolve_path(path)
    except FileNotFoundError as err:
        msg = f"{path}: no such example ({spec.source})"
        raise FormatError(msg) from err


@kept_streams()  # an estimate that is a pipe: read once, for the check and the reader
def load_run(
    spec: RunSpec, *, cache: TrajectoryCache | None = None, reading: ReadSettings | None = None
) -> RunInputs:
    """Read the run's estimate, reference and logs.

    ``reading``: the reading rules (:class:`~robot_msgs.evaluation.ReadSettings`, the
    run settings' ``reading``); the defaults when ``None``. A ``cache`` holds what was
    read under one set of rules.

    Raises
    ------
    FormatError
        A named reference that does not exist, an estimate that is a symbolic link to
        nothing, a malformed file (the message names the file, line and field), or the
        run's :attr:`~RunSpec.error` (its ``meta.json``).
    """
    from robot_msgs.io.evaluation_inputs import InputFile, read_inputs  # noqa: PLC0415 - readers

    if spec.error:  # found when the run was declared: it fails here, alone
        raise FormatError(spec.error)

    inputs: dict[str, InputFile] = {}
    if spec.reference is not None:
        path = _resolve(spec.reference, spec)
        if not path.exists():
            msg = f"{spec.reference}: the run's reference does not exist ({spec.source})"
            raise FormatError(msg)
        inputs["reference"] = InputFile(
            path=str(path),
            fmt=spec.reference_format,
            topic=spec.reference_topic,
            times_path=spec.reference_times,
        )
    if spec.estimate:
        path = _resolve(spec.estimate, spec)
        if spec.folder is not None and path.parent == Path(spec.folder):
            _refuse_a_found_pipe(path)
        _refuse_a_broken_link(path, spec.estimate, "estimate", spec.source)
        if path.exists() and _has_poses(path):
            inputs["estimate"] = InputFile(
                path=str(path),
                fmt=spec.estimate_format,
                topic=spec.estimate_topic,
                times_path=spec.estimate_times,
            )
    try:
        rules = ReadSettings() if reading is None else reading
        trajectories = read_inputs(
            list(inputs.values()),
            cache=cache,
            repeated_stamps=rules.rule_for("evo"),  # one reading serves every metric
            reading=rules,
            estimates_only="reference" not in inputs,
        )
        read = dict(zip(inputs, trajectories, strict=True))
    except FormatError as err:
        raise _named_in_the_run(err, inputs) from err
    estimate, reference = read.get("estimate"), read.get("reference")
    if spec.folder is None:
        return RunInputs(spec=spec, estimate=estimate, reference=reference)
    folder = Path(spec.folder)
    stopped = bool(spec.meta.reported_failure)
    return RunInputs(
        spec=spec,
        estimate=estimate,
        reference=reference,
        timing=_read_log(folder / "timing.csv", "timing", read_timing, stopped=stopped),
        tracking=_read_log(folder / "tracking.csv", "tracking", read_tracking, stopped=stopped),
        resources=_read_log(folder / "resources.csv", "resources", read_resources, stopped=stopped),
    )
