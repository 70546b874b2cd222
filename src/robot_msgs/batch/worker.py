"""What runs inside a worker: the per-run function, and a chunk of runs end to end.

:func:`evaluate_task` reads a run's files itself (:func:`robot_msgs.runs.load_run`) and
evaluates it with :func:`robot_msgs.runs.evaluate_run`, the same per-run evaluation
``robot-msgs report`` uses, so a sweep and a report of the same runs agree.

:func:`run_chunk` is the task every executor ships: for each run of a :class:`Chunk`
it stamps and hashes the inputs (:mod:`robot_msgs.batch.inputs`), keeps the stored
result if one has the same content digest, or evaluates the run and writes its record
(:mod:`robot_msgs.batch.store`); it returns one small :class:`RunSummary` per run, so
the client never handles a report. WHY chunks: one Dask future per run cost the client
0.95 ms to submit and 4.2 ms of CPU to collect; a chunk of about a second of work
(:mod:`robot_msgs.batch.plan`) makes both negligible. Both functions are top-level, so
process pools and Dask ship them by name.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeAlias, overload

from robot_msgs.batch.blocks import BlockResult, OutputBlock, write_block
from robot_msgs.batch.inputs import (
    NOT_HASHED,
    HashCache,
    content_digest,
    input_files,
    run_key,
    stamp,
    strict_stamp,
    unhashed,
)
from robot_msgs.batch.store import RecordHead, ResultStore, RunRecord
from robot_msgs.batch.tasks import RunFunction, RunResult, Status, Task, run_task
from robot_msgs.errors import ValidationError
from robot_msgs.runs.evaluate import evaluate_run
from robot_msgs.runs.load import load_run

if TYPE_CHECKING:
    from robot_msgs.compare.run_report import RunReport
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "NOT_RUN",
    "NOT_STORED",
    "Chunk",
    "ChunkResult",
    "Job",
    "RunSummary",
    "Work",
    "evaluate_task",
    "run_chunk",
]

#: The error type of a run evaluated whose record could not be written (a full disk):
#: the sweep stops at the first (:class:`~robot_msgs.batch.plan.ChunkPlan`).
NOT_STORED = "RecordNotStored"
#: The error type of a run the sweep did not evaluate because it stopped first.
NOT_RUN = "NotRun"


def evaluate_task(task: Task) -> RunReport:
    """Read the run's files and evaluate it with the sweep's settings.

    Parameters
    ----------
    task : Task
        The run's paths and metadata, and the sweep's settings.

    Returns
    -------
    RunReport
        Success apart from accuracy, one comparison per metric of the settings (none
        without a reference), losses, coverage, latency and resources.

    Raises
    ------
    FormatError, FileNotFoundError
        An input cannot be read; the sweep records it as the run's failure.

    Examples
    --------
    >>> from robot_msgs.batch.tasks import Task, run_task
    >>> from robot_msgs.runs import RunSettings, RunSpec
    >>> run = RunSpec(
    ...     name="rgbdslam/fr1_xyz/1", algorithm="rgbdslam", sequence="fr1_xyz", trial="1",
    ...     estimate="example:fr1_xyz/rgbdslam.tum",
    ...     reference="example:fr1_xyz/groundtruth.tum",
    ... )
    >>> result = run_task(evaluate_task, Task(run=run, settings=RunSettings(), digest=""))
    >>> report = result.report
    >>> report.success, list(report.comparisons), report.accuracy.counts["matched"]
    (True, ['ape:translation', 'rpe:translation:1s:all'], 785)
    """
    return evaluate_run(load_run(task.run, reading=task.settings.reading), task.settings).report


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """What every chunk of one sweep shares.

    ``shared`` is :func:`~robot_msgs.batch.inputs.settings_identity` of the settings and
    the per-run function; ``out`` the output folder (the workers must see it);
    ``session`` names this sweep. ``reuse``: ``"any"`` keeps any stored result whose
    content digest matches (``--resume``), ``"session"`` only those this session wrote
    (a chunk re-run after its worker died; ``--force``). ``retries``: re-runs of a run
    whose input changed while it was evaluated.
    """

    settings: RunSettings
    shared: str
    out: str
    session: str
    reuse: Literal["any", "session"] = "session"
    retries: int = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    """Runs evaluated by one task: their positions in the manifest, specs and attempt numbers."""

    number: int
    indices: tuple[int, ...]
    runs: tuple[RunSpec, ...]
    attempts: tuple[int, ...]

    @property
    def name(self) -> str:
        """How a scheduler names its task (``chunk-3``)."""
        return f"chunk-{self.number}"

    def __len__(self) -> int:
        return len(self.indices)


Work: TypeAlias = "Chunk | OutputBlock"
"""What executors ship to :func:`run_chunk`: runs to evaluate, or a block of the outputs."""


class RunSummary(NamedTuple):
    """What the client learns of one run: its outcome in a hundred bytes, never its report.

    ``position`` is the run's place in the manifest; ``has_reference``: the run has
    comparisons; ``reused``: a stored result with the same content digest was kept
    (nothing evaluated).
    """

    position: int
    status: Status
    success: bool | None
    has_reference: bool
    failure: str
    error_type: str
    error: str
    reused: bool
    elapsed_s: float
    cpu_s: float

    @classmethod
    def of(cls, index: int, result: RunResult, *, reused: bool = False) -> RunSummary:
        """Summarise ``result`` (the run at ``index`` of the manifest)."""
        report = result.report
        return cls(
            position=index,
            status=result.status,
            success=None if report is None else report.success,
            has_reference=report is not None and report.has_reference,
            failure="" if report is None else report.failure,
            error_type=result.error_type,
            error=result.error,
            reused=reused,
            elapsed_s=result.elapsed_s,
            cpu_s=result.cpu_s,
        )

    @classmethod
    def unfinished(cls, index: int, status: Status, error_type: str, error: str) -> RunSummary:
        """Say why the run at ``index`` has no result (an infrastructure failure)."""
        return cls(
            position=index,
            status=status,
            success=None,
            has_reference=False,
            failure="",
            error_type=error_type,
            error=error,
            reused=False,
            elapsed_s=0.0,
            cpu_s=0.0,
        )

    @classmethod
    def kept(cls, index: int, head: RecordHead, elapsed_s: float) -> RunSummary:
        """Summarise a stored result that was kept (its record's head)."""
        result, report = head.result, head.result.report
        return cls(
            position=index,
            status="ok" if result.status == "ok" else "failed",
            success=None if report is None else report.success,
            has_reference=bool(report and report.comparisons),
            failure="" if report is None else report.failure,
            error_type=result.error_type,
            error=result.error,
            reused=True,
            elapsed_s=elapsed_s,
            cpu_s=0.0,
        )


class ChunkResult(NamedTuple):
    """A chunk's summaries, its wall and CPU seconds in the worker, and the worker (host:pid)."""

    number: int
    summaries: tuple[RunSummary, ...]
    elapsed_s: float
    cpu_s: float
    worker: str


@overload
def run_chunk(fn: RunFunction, job: Job, chunk: Chunk) -> ChunkResult: ...
@overload
def run_chunk(fn: RunFunction, job: Job, chunk: OutputBlock) -> BlockResult: ...
def run_chunk(fn: RunFunction, job: Job, chunk: Work) -> ChunkResult | BlockResult:
    """Hash, reuse or evaluate, and store every run of ``chunk``; summarise each.

    An :class:`~robot_msgs.batch.blocks.OutputBlock` instead is written by
    :func:`~robot_msgs.batch.blocks.write_block` (the sweep's outputs, at its end).

    A run's own error is its ``failed`` result (stored); a record that cannot be written
    (a full disk, a read-only file system) makes the run ``lost`` (not stored) with the
    reason, and the chunk's other runs are not evaluated (:data:`NOT_RUN`): nothing is
    computed that cannot be kept. ``BaseException`` (an interrupt) propagates: the
    records already written stay.

    Examples
    --------
    >>> import tempfile
    >>> from robot_msgs.batch.inputs import settings_identity
    >>> from robot_msgs.runs import RunSettings, RunSpec
    >>> run = RunSpec(
    ...     name="rgbdslam/fr1_xyz/1", algorithm="rgbdslam", sequence="fr1_xyz", trial="1",
    ...     estimate="example:fr1_xyz/rgbdslam.tum",
    ...     reference="example:fr1_xyz/groundtruth.tum",
    ... )
    >>> settings = RunSettings()
    >>> job = Job(settings=settings, shared=settings_identity(settings.to_dict(), evaluate_task),
    ...           out=tempfile.mkdtemp(), session="s1")
    >>> chunk = Chunk(number=0, indices=(0,), runs=(run,), attempts=(1,))
    >>> [(s.status, s.success, s.reused) for s in run_chunk(evaluate_task, job, chunk).summaries]
    [('ok', True, False)]
    >>> [(s.status, s.reused) for s in run_chunk(evaluate_task, job, chunk).summaries]
    [('ok', True)]
    """
    if isinstance(chunk, OutputBlock):
        return write_block(job.settings, job.shared, job.out, chunk)
    started = (time.perf_counter(), time.process_time())
    store = ResultStore(job.out)
    cache = HashCache()
    summaries: list[RunSummary] = []
    items = list(zip(chunk.indices, chunk.runs, chunk.attempts, strict=True))
    for k, (index, run, attempt) in enumerate(items):
        summary = _run_one(fn, job, store, cache, index, run, attempt)
        summaries.append(summary)
        if summary.error_type == NOT_STORED:  # a full disk: evaluate nothing more
            why = f"not evaluated: a record of its chunk could not be stored ({summary.error})"
            summaries += [
                RunSummary.unfinished(i, "lost", NOT_RUN, why) for i, _, _ in items[k + 1 :]
            ]
            break
    return ChunkResult(
        number=chunk.number,
        summaries=tuple(summaries),
        elapsed_s=time.perf_counter() - started[0],
        cpu_s=time.process_time() - started[1],
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )


def _run_one(
    fn: RunFunction,
    job: Job,
    store: ResultStore,
    cache: HashCache,
    index: int,
    run: RunSpec,
    attempt: int,
) -> RunSummary:
    started = time.perf_counter()
    key = run_key(job.shared, run)
    paths = input_files(run)
    for _ in range(job.retries + 1):
        hashed_at_ns = time.time_ns()
        before = {role: strict_stamp(path) for role, path in paths.items()}
        stamps = {role: stamp(path) for role, path in paths.items()}
        head = _stored(store, key)
        mine = head is not None and (job.reuse == "any" or head.session == job.session)
        # Read the bytes first only to compare them with a stored result's: a run with
        # none is evaluated first, and hashed only if it succeeds (see the inputs module).
        compared = head is not None and mine and head.hashed
        hashes = {role: cache.sha256(p, before[role], read=compared) for role, p in paths.items()}
        if head is not None and compared and head.result.digest == content_digest(key, hashes):
            if not head.current(stamps):  # the same bytes, newly stamped: trust them next time
                inputs = {role: (stamps[role], hashes[role]) for role in paths}
                _refresh(store, key, hashed_at_ns, inputs)
            return RunSummary.kept(index, head, time.perf_counter() - started)
        task = Task(run=run, settings=job.settings, digest="")
        # An input not hashed (a device, a file without read permission) is the run's
        # failure, recorded as any unreadable input is, without reading it.
        unread = [why for r, h in hashes.items() if (why := unhashed(paths[r], h))]
        result = RunResult.failure(task, "failed", *unread[0]) if unread else run_task(fn, task)
        if result.status == "ok":
            hashes = {role: cache.sha256(p, before[role]) for role, p in paths.items()}
        if {role: strict_stamp(path) for role, path in paths.items()} != before:
            continue  # an input moved while it was read: its hash may not be of those bytes
        inputs = {role: (stamps[role], hashes[role]) for role in paths}
        # WHY no digest when an input was not hashed: one of "not hashed" was the same
        # for every failure of the run, whatever its bytes, and the table showed it as
        # theirs. A run without a record has none either.
        digest = "" if NOT_HASHED in hashes.values() else content_digest(key, hashes)
        result = replace(result, digest=digest, attempts=attempt)
        record = RunRecord(
            key=key, session=job.session, hashed_at_ns=hashed_at_ns, inputs=inputs, result=result
        )
        try:
            store.save(record)
        except OSError as err:
            lost = RunResult.failure(task, "lost", NOT_STORED, str(err), attempts=attempt)
            return RunSummary.of(index, lost)
        return RunSummary.of(index, result)
    changed = RunResult.failure(
        Task(run=run, settings=job.settings, digest=""),
        "lost",
        "InputChanged",
        f"an input changed while the run was evaluated, {job.retries + 1} times; "
        "run again once the inputs are still",
        attempts=attempt,
    )
    return RunSummary.of(index, changed)


def _stored(store: ResultStore, key: str) -> RecordHead | None:
    try:
        return store.head(key)
    except ValidationError:
        return None  # not a record (edited by hand, cut short): recomputed and replaced


def _refresh(
    store: ResultStore, key: str, hashed_at_ns: int, inputs: dict[str, tuple[object, str]]
) -> None:
    record = store.load(key)
    if record is not None:
        fresh = replace(record, hashed_at_ns=hashed_at_ns, inputs=inputs)
        try:
            store.save(fresh)
        except OSError:
            return  # the old record stays; the next --resume re-hashes it again
