"""Read what a :class:`~robot_msgs.runs.RunSpec` points to: trajectories and logs.

Runs sharing a reference read it once (``cache``). A missing or empty estimate is a run
that produced nothing (``estimate`` is ``None``, judged as a failure later); a reference
that is named but missing is an error, as is any file that cannot be read.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from robot_msgs.errors import FormatError
from robot_msgs.io.bounded import check_input_kind, kept_streams, read_input, stream_kind
from robot_msgs.io.examples import resolve_path
from robot_msgs.runs.folders import regular_file
from robot_msgs.runs.logs import (
    ResourceLog,
    TimingLog,
    TrackingLog,
    read_resources,
    read_timing,
    read_tracking,
)

if TYPE_CHECKING:
    from robot_msgs.runs.spec import RunSpec
    from robot_msgs.trajectory import PoseTrajectory

__all__ = ["RunInputs", "TrajectoryCache", "load_run"]

TrajectoryCache = dict[tuple[str, str | None, str | None, str | None], "PoseTrajectory"]
"""Trajectories already read, by ``(resolved path, format, topic, times)``."""

_BAG_SUFFIXES = {".bag", ".mcap", ".db3"}


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
    with path.open(encoding="utf-8", errors="replace") as handle:
        return any(line.strip() and not line.lstrip().startswith("#") for line in handle)


def _read(
    path: Path,
    fmt: str | None,
    topic: str | None,
    times: str | None,
    cache: TrajectoryCache,
    *,
    side: str,
) -> PoseTrajectory:
    from robot_msgs.io import read_trajectory  # noqa: PLC0415 - readers only when files are read

    key = (str(path.resolve()), fmt, topic, times)
    if key not in cache:
        try:
            cache[key] = read_trajectory(path, fmt=fmt, topic=topic, times_path=times)
        except FormatError as err:
            # The readers' hint names the ``--format`` flag of ``ape``/``rpe``/``traj``; a
            # run's format is its manifest entry's or meta.json's ``estimate_format``.
            msg = str(err).replace("--format", f"{side}_format =")
            raise FormatError(msg) from err
    return cache[key]


def _resolve(path: str, spec: RunSpec) -> Path:
    try:
        return resolve_path(path)
    except FileNotFoundError as err:
        msg = f"{path}: no such example, named by run {spec.name} ({spec.source})"
        raise FormatError(msg) from err


@kept_streams()  # an estimate that is a pipe: read once, for the check and the reader
def load_run(spec: RunSpec, *, cache: TrajectoryCache | None = None) -> RunInputs:
    """Read the run's estimate, reference and logs.

    Raises
    ------
    FormatError
        A named reference that does not exist, or a malformed file (the message names the
        file, line and field).
    """
    cache = {} if cache is None else cache
    estimate = None
    if spec.estimate:
        path = _resolve(spec.estimate, spec)
        if path.exists() and _has_poses(path):
            estimate = _read(
                path,
                spec.estimate_format,
                spec.estimate_topic,
                spec.estimate_times,
                cache,
                side="estimate",
            )
    reference = None
    if spec.reference is not None:
        path = _resolve(spec.reference, spec)
        if not path.exists():
            msg = f"{spec.reference}: the reference of run {spec.name} does not exist"
            raise FormatError(msg)
        reference = _read(
            path,
            spec.reference_format,
            spec.reference_topic,
            spec.reference_times,
            cache,
            side="reference",
        )
    logs: dict[str, object] = {}
    if spec.folder is not None:
        folder = Path(spec.folder)
        for name, reader in (
            ("timing", read_timing),
            ("tracking", read_tracking),
            ("resources", read_resources),
        ):
            log = folder / f"{name}.csv"
            logs[name] = reader(log) if regular_file(log, f"{name} log") else None
    return RunInputs(
        spec=spec,
        estimate=estimate,
        reference=reference,
        timing=logs.get("timing"),  # type: ignore[arg-type]
        tracking=logs.get("tracking"),  # type: ignore[arg-type]
        resources=logs.get("resources"),  # type: ignore[arg-type]
    )
