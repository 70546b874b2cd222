"""One run as declared: who ran what on which sequence, and where its files are.

A :class:`RunSpec` holds paths and metadata only, never trajectories: it is what a
manifest entry or a run folder says (:mod:`robot_msgs.runs.manifest`,
:mod:`robot_msgs.runs.folders`), small enough to ship to a worker process or a Dask
worker, which reads the files itself (:func:`robot_msgs.runs.load_run`).
"""

from __future__ import annotations

import math
import re
import signal
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from robot_msgs.compare.configuration import Configuration

if TYPE_CHECKING:
    from collections.abc import Mapping

    from robot_msgs.msg import Scalar

__all__ = ["RunChecker", "RunMeta", "RunSpec", "natural_key"]


#: A shell's exit status of a process killed by signal n is this + n (bash, POSIX sh).
_SHELL_SIGNAL = 128
#: GNU coreutils ``timeout``'s exit status when the command ran past its limit.
_TIMEOUT_EXIT = 124
_SIGNAL_NUMBERS = frozenset(int(s) for s in signal.Signals)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunMeta:
    """What a run was, beyond its keys (``meta.json`` and the manifest; see the package).

    ``failure`` is the reason a run reported failing and ``exit_code`` its exit status
    (non-zero is a failure); both are judged, not evaluated. ``bag`` and
    ``latency_topic`` give a latency proxy from a bag when there is no ``timing.csv``.
    """

    version: str = ""
    dataset: str = ""
    hardware: str = ""
    clock: str = ""
    failure: str = ""
    exit_code: int | None = None
    input_rate_hz: float = math.nan
    parameters: Mapping[str, Scalar] = field(default_factory=dict)
    software: Mapping[str, str] = field(default_factory=dict)
    bag: str | None = None
    latency_topic: str = ""

    @property
    def reported_failure(self) -> str:
        """The failure the run reported: its ``failure`` text, its exit code, or ``""``.

        A negative exit code is a signal's (Python's ``returncode``), named as such; so
        is 128 + a signal's number, as a shell reports a process a signal killed (137:
        SIGKILL, the out-of-memory killer's), and 124 is said to be ``timeout``'s.

        WHY: a run under ``timeout 600`` or killed for memory logs the shell's ``$?``;
        'exit code 124' and 'exit code 137' said neither (a user walk).

        Examples
        --------
        >>> RunMeta(exit_code=-11).reported_failure, RunMeta(exit_code=3).reported_failure
        ('killed by SIGSEGV (exit code -11)', 'exit code 3')
        >>> RunMeta(exit_code=137).reported_failure
        'killed by SIGKILL (exit code 137: 128 + 9, as a shell reports it)'
        >>> RunMeta(exit_code=124).reported_failure
        'exit code 124 (what `timeout` returns when its time limit is reached)'
        """
        if self.failure:
            return self.failure
        if self.exit_code is None or self.exit_code == 0:
            return ""
        if self.exit_code < 0:
            try:
                name = signal.Signals(-self.exit_code).name
            except ValueError:
                name = f"signal {-self.exit_code}"
            return f"killed by {name} (exit code {self.exit_code})"
        if self.exit_code == _TIMEOUT_EXIT:
            said = "what `timeout` returns when its time limit is reached"
            return f"exit code {_TIMEOUT_EXIT} ({said})"
        number = self.exit_code - _SHELL_SIGNAL
        if number in _SIGNAL_NUMBERS:
            name = signal.Signals(number).name
            said = f"{_SHELL_SIGNAL} + {number}, as a shell reports it"
            return f"killed by {name} (exit code {self.exit_code}: {said})"
        return f"exit code {self.exit_code}"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunSpec:
    """One run to evaluate: its name and keys, its input files (absolute paths), its metadata.

    ``name`` labels the run in tables and errors (a manifest entry's ``name``, else its
    folder relative to the manifest or the folder root, else as given). ``estimate`` is
    the estimate's path (a missing or empty file is a run that produced nothing, a
    failure, not an error); ``reference`` is ``None`` without ground truth. ``folder``
    is the run folder whose ``timing.csv``, ``tracking.csv`` and ``resources.csv`` are
    read, ``None`` for a run declared by its files. Paths may be ``example:NAME``.
    ``error`` says why the run cannot be evaluated, found when it was declared (its
    ``meta.json`` invalid or unreadable): :func:`~robot_msgs.runs.load_run` raises it,
    so the run fails to evaluate alone, as one whose estimate cannot be read.
    """

    name: str
    algorithm: str = ""
    sequence: str = ""
    trial: str = ""
    folder: str | None = None
    estimate: str = ""
    estimate_format: str | None = None
    estimate_topic: str | None = None
    estimate_times: str | None = None
    reference: str | None = None
    reference_format: str | None = None
    reference_topic: str | None = None
    reference_times: str | None = None
    meta: RunMeta = field(default_factory=RunMeta)
    source: str = ""
    error: str = ""

    @property
    def label(self) -> str:
        """``algorithm/sequence/trial`` when the run has keys, else its name."""
        if self.algorithm or self.sequence or self.trial:
            return f"{self.algorithm}/{self.sequence}/{self.trial}"
        return self.name

    @property
    def configuration(self) -> Configuration:
        """What rankings and summaries key the run on: its algorithm, version and parameters."""
        return Configuration.of(self.algorithm, self.meta.version, self.meta.parameters)

    def identity(self) -> dict[str, Any]:
        """Say what identifies the run besides its files' bytes (no paths: a moved tree resumes)."""
        return {
            "name": self.name,
            "algorithm": self.algorithm,
            "sequence": self.sequence,
            "trial": self.trial,
            "failure": self.meta.reported_failure,
            **{
                f"{side}_{key}": getattr(self, f"{side}_{key}")
                for side in ("estimate", "reference")
                for key in ("format", "topic")
            },
        }

    def input_paths(self) -> dict[str, str | None]:
        """Every input file of the run by role (``None`` where there is none).

        A run with an :attr:`error` from its ``meta.json`` has that file as an input too
        (role ``meta``): what it holds is not in the run's identity, so its bytes are
        hashed, and the run is evaluated again once the file is mended.
        """
        logs = {
            name: None if self.folder is None else f"{self.folder}/{name}.csv"
            for name in ("timing", "tracking", "resources")
        }
        broken = {"meta": f"{self.folder}/meta.json"} if self.error and self.folder else {}
        return {
            "estimate": self.estimate or None,
            "reference": self.reference,
            "estimate_times": self.estimate_times,
            "reference_times": self.reference_times,
            **logs,
            **broken,
        }


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Return a sort key that orders the numbers in ``text`` by value (``"t2"`` before ``"t10"``).

    Examples
    --------
    >>> sorted(["t10", "t2", "t1"], key=natural_key)
    ['t1', 't2', 't10']
    """
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


class RunChecker:
    """Refuse two runs with one name, or with the same keys and configuration, one at a time.

    Each run is checked against those before it as it comes (runs read as a stream).
    Runs of another version or other parameters (:attr:`RunSpec.configuration`) may share
    a trial: they are ranked and summarised apart, and each run's name, table row and
    record are its own.

    Examples
    --------
    >>> checker = RunChecker()
    >>> checker.add(RunSpec(name="a"))
    >>> checker.add(RunSpec(name="a"))
    Traceback (most recent call last):
    ...
    robot_msgs.errors.FormatError: two runs are named 'a': ... give each a distinct `name`
    """

    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        self._keys: dict[tuple[str, str, str, Configuration], str] = {}

    def add(self, run: RunSpec) -> None:
        """Take the next run.

        Raises
        ------
        FormatError
            It would be indistinguishable from an earlier one in the tables; both
            declarations are named.
        """
        from robot_msgs.errors import FormatError  # noqa: PLC0415 - keep the module light

        if run.name in self._names:
            msg = (
                f"two runs are named {run.name!r}: {self._names[run.name]} and {run.source}; "
                "give each a distinct `name`"
            )
            raise FormatError(msg)
        self._names[run.name] = run.source
        key = (run.algorithm, run.sequence, run.trial, run.configuration)
        if all(key[:3]) and key in self._keys:
            msg = (
                f"two runs are {run.label}: {self._keys[key]} and {run.source}; "
                "give each a distinct trial"
            )
            raise FormatError(msg)
        self._keys[key] = run.source
