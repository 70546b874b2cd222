"""Units of work and their outcomes: a :class:`Task` is paths + settings + a content hash.

WHY paths and not arrays: a task is shipped to a worker process or a Dask worker on
another machine; sending file paths (bytes) instead of pickled trajectories (megabytes)
keeps the client's memory and network flat, and each worker reads its own inputs.

WHY a content hash: ``--resume`` must recompute exactly what is missing or whose inputs
changed. The hash covers the bytes of every input file (trajectories, times files, the
run folder's logs and a latency bag), the run's name, keys, input options and metadata
(``meta.json`` and the manifest's keys), the settings, the per-run function and the
package version, so a result is reused only if recomputing it could not
give anything else. Paths are left out, so a moved results tree still resumes.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from robot_msgs._version import __version__
from robot_msgs.compare.run_report import RunReport
from robot_msgs.errors import ValidationError
from robot_msgs.io.examples import EXAMPLE_PREFIX

if TYPE_CHECKING:
    from collections.abc import Iterable

    from robot_msgs.runs.manifest import Manifest
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "RunFunction",
    "RunResult",
    "Status",
    "Task",
    "file_sha256",
    "function_id",
    "make_tasks",
    "run_task",
]

Status = Literal["ok", "failed", "crashed"]
"""``ok``: evaluated (the report says whether the run itself succeeded); ``failed``: the
evaluation raised (unreadable input, refused settings); ``crashed``: its worker kept dying."""

_MISSING = "missing"
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True, kw_only=True)
class Task:
    """One run to evaluate with the sweep's settings; ``digest`` is its content hash (hex)."""

    run: RunSpec
    settings: RunSettings
    digest: str


RunFunction: TypeAlias = Callable[[Task], RunReport]
"""A per-run function: top-level (picklable by reference), reads the task's files itself."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """The one outcome of a task: the run's :class:`RunReport`, or the error that ended it.

    ``elapsed_s`` (wall time of the evaluation), ``cpu_s`` (CPU time of the thread that
    ran it: the cost of the run itself, whatever else the machine was doing), ``worker``
    (``host:pid``) and ``attempts`` describe how it ran, not what it found: they stay out
    of the results table, which is the same whichever executor ran the sweep.
    """

    digest: str
    name: str
    algorithm: str
    sequence: str
    trial: str
    status: Status
    report: RunReport | None = None
    error_type: str = ""
    error: str = ""
    notes: tuple[str, ...] = ()
    attempts: int = 1
    elapsed_s: float = 0.0
    cpu_s: float = 0.0
    worker: str = ""

    @classmethod
    def failure(
        cls, task: Task, status: Status, error_type: str, error: str, *, attempts: int = 1
    ) -> RunResult:
        """Build a result that records why ``task`` ended without comparisons."""
        return cls(
            digest=task.digest,
            name=task.run.name,
            algorithm=task.run.algorithm,
            sequence=task.run.sequence,
            trial=task.run.trial,
            status=status,
            error_type=error_type,
            error=error,
            attempts=attempts,
        )

    @property
    def label(self) -> str:
        """``algorithm/sequence/trial``, or the run's name when it has no keys."""
        if self.algorithm or self.sequence or self.trial:
            return f"{self.algorithm}/{self.sequence}/{self.trial}"
        return self.name

    def run_report(self) -> RunReport:
        """Return the run's report; a failed one saying why if the run could not be evaluated."""
        if self.report is not None:
            return self.report
        return RunReport(
            name=self.name,
            success=False,
            failure=f"{self.error_type}: {self.error}" if self.error_type else self.status,
            algorithm=self.algorithm,
            sequence=self.sequence,
            trial=self.trial,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the report as its ``to_dict``)."""
        return {
            "digest": self.digest,
            "name": self.name,
            "algorithm": self.algorithm,
            "sequence": self.sequence,
            "trial": self.trial,
            "status": self.status,
            "report": None if self.report is None else self.report.to_dict(),
            "error_type": self.error_type,
            "error": self.error,
            "notes": list(self.notes),
            "attempts": self.attempts,
            "elapsed_s": self.elapsed_s,
            "cpu_s": self.cpu_s,
            "worker": self.worker,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RunResult:
        """Rebuild from :meth:`to_dict`'s form.

        Raises
        ------
        ValidationError
            A missing key, an unknown status, or an invalid comparison.
        """
        try:
            status = data["status"]
            if status not in ("ok", "failed", "crashed"):
                msg = f"Expected status ok, failed or crashed, got {status!r}"
                raise ValidationError(msg)
            report = data["report"]
            return cls(
                digest=str(data["digest"]),
                name=str(data["name"]),
                algorithm=str(data["algorithm"]),
                sequence=str(data["sequence"]),
                trial=str(data["trial"]),
                status=status,
                report=None if report is None else RunReport.from_dict(report),
                error_type=str(data["error_type"]),
                error=str(data["error"]),
                notes=tuple(str(n) for n in data["notes"]),
                attempts=int(data["attempts"]),
                elapsed_s=float(data["elapsed_s"]),
                cpu_s=float(data["cpu_s"]),
                worker=str(data["worker"]),
            )
        except (KeyError, TypeError) as err:
            msg = f"Expected a run result record, got {err!r}"
            raise ValidationError(msg) from err


def file_sha256(path: str | os.PathLike[str] | None) -> str:
    """SHA-256 (hex) of a file's bytes, of a folder's files (names and bytes), or ``"missing"``.

    ``example:NAME`` paths are the package's shipped examples, hashed by their bytes.

    A missing input is not an error here: the run then ends as a recorded failure, and
    the hash changes once the file appears, so ``--resume`` recomputes it.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"abc")
    >>> file_sha256(p)[:16], file_sha256(p.with_name("none.txt"))
    ('ba7816bf8f01cfea', 'missing')
    """
    if path is None:
        return _MISSING
    if str(path).startswith(EXAMPLE_PREFIX):
        from robot_msgs.io import resolve_path  # noqa: PLC0415  (only shipped examples need io)

        try:
            path = resolve_path(path)
        except FileNotFoundError:
            return _MISSING
    target = Path(path)
    digest = hashlib.sha256()
    if target.is_dir():
        for item in sorted(p for p in target.rglob("*") if p.is_file()):
            digest.update(str(item.relative_to(target)).encode() + b"\0")
            digest.update(file_sha256(item).encode())
        return digest.hexdigest()
    try:
        with target.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)
    except (FileNotFoundError, NotADirectoryError):
        return _MISSING
    return digest.hexdigest()


def function_id(fn: Callable[..., object]) -> str:
    """``module:qualname`` of a per-run function: part of the content hash."""
    return f"{fn.__module__}:{fn.__qualname__}"


def make_tasks(manifest: Manifest, fn: RunFunction) -> list[Task]:
    """One :class:`Task` per run of ``manifest``, in the manifest's order, with its hash.

    Each input file is hashed once even when many runs share it (a sequence's
    reference), by a pool of threads (``hashlib`` releases the GIL on large reads), so
    hashing a sweep is bound by the disk, not by one core.
    """
    # The bag a latency proxy is read from is an input too (its path stays out of the hash).
    inputs = [run.input_paths() | {"bag": run.meta.bag} for run in manifest.runs]
    paths = sorted({p for roles in inputs for p in roles.values() if p is not None})
    with ThreadPoolExecutor() as pool:
        digests: dict[str | None, str] = dict(zip(paths, pool.map(file_sha256, paths), strict=True))
    digests[None] = _MISSING
    settings = manifest.settings.to_dict()
    tasks = []
    for run, roles in zip(manifest.runs, inputs, strict=True):
        identity = {
            "version": __version__,
            "function": function_id(fn),
            "run": run.identity(),
            "meta": _meta_identity(run),
            "settings": settings,
            "inputs": {role: digests[path] for role, path in roles.items()},
        }
        text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
        digest = hashlib.sha256(text.encode()).hexdigest()
        tasks.append(Task(run=run, settings=manifest.settings, digest=digest))
    return tasks


def _meta_identity(run: RunSpec) -> dict[str, Any]:
    """List the run's metadata (version, hardware, clock, parameters...): its report shows them."""
    values = ((f.name, getattr(run.meta, f.name)) for f in fields(run.meta))
    # ``bag`` is a path, left out; the bag's bytes are hashed as an input.
    return {k: dict(v) if isinstance(v, Mapping) else v for k, v in values if k != "bag"}


def _unique(texts: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(texts))


def run_task(fn: RunFunction, task: Task) -> RunResult:
    """Run ``fn`` on ``task`` and turn whatever happens into a :class:`RunResult`.

    ``fn`` must return the run's :class:`RunReport`. Every ``Exception`` becomes a
    ``failed`` result with its type and text (an evaluation error is deterministic:
    retrying it would fail the same way). Warnings raised while evaluating (data fixed by
    a stated rule) are kept in ``notes``. ``BaseException`` (interrupts) propagates.
    """
    start = (time.perf_counter(), time.thread_time())
    worker = f"{socket.gethostname()}:{os.getpid()}"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            report: object = fn(task)
            if not isinstance(report, RunReport):
                msg = f"Expected the per-run function to return a RunReport, got {report!r:.80}"
                raise TypeError(msg)  # noqa: TRY301 - recorded below like any other error
        except Exception as err:  # noqa: BLE001  (every error is recorded, none is lost)
            failed = RunResult.failure(task, "failed", type(err).__name__, str(err) or repr(err))
            return _finish(failed, caught, start, worker)
    ok = RunResult(
        digest=task.digest,
        name=task.run.name,
        algorithm=task.run.algorithm,
        sequence=task.run.sequence,
        trial=task.run.trial,
        status="ok",
        report=report,
    )
    return _finish(ok, caught, start, worker)


def _finish(
    result: RunResult,
    caught: Sequence[warnings.WarningMessage],
    start: tuple[float, float],
    worker: str,
) -> RunResult:
    notes = _unique(f"{w.category.__name__}: {w.message}" for w in caught)
    elapsed_s = time.perf_counter() - start[0]
    cpu_s = time.thread_time() - start[1]
    return replace(result, notes=notes, elapsed_s=elapsed_s, cpu_s=cpu_s, worker=worker)
