"""Where chunks run: this process, local worker processes, or a Dask cluster.

Every executor takes chunks from a feed (:class:`~robot_msgs.batch.plan.ChunkPlan`) as it
has room, runs :func:`~robot_msgs.batch.worker.run_chunk` on each, and yields one
outcome per chunk, in completion order: :class:`ChunkDone` (the chunk's summaries),
:class:`ChunkLost` (its worker died, or the scheduler or connection went away), or, last,
:class:`Stopped` when it cannot go on at all. While chunks are in flight and none comes
back, it yields :class:`Waiting` every :data:`TICK_S`, with the worker threads it has, so
that the sweep is never silent: a cluster without workers is noticed within seconds
(:mod:`robot_msgs.batch.watchdog`) and the sweep can stop itself by closing the
iterator. Retries and chunk sizes are the feed's business, the same for every executor;
a feed that is still being filled (runs still being read) says so with ``pending``.

- :class:`SerialExecutor`: in this process, one chunk after another (benchmarks, debugging).
- :class:`~robot_msgs.batch.processes.LocalExecutor`: local worker processes (the default).
- :class:`~robot_msgs.batch.dask_executor.DaskExecutor`: a Dask ``LocalCluster`` on the
  loopback interface, or an existing cluster at ``tcp://HOST:PORT`` (extra ``dask``).

:func:`~robot_msgs.batch.backends.make_executor` builds one by name.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, TypeAlias

from robot_msgs.batch.worker import run_chunk
from robot_msgs.errors import ValidationError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import TracebackType

    from typing_extensions import Self

    from robot_msgs.batch.blocks import BlockResult
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.batch.worker import ChunkResult, Job, Work

__all__ = [
    "POLL_S",
    "TICK_S",
    "ChunkDone",
    "ChunkFeed",
    "ChunkLost",
    "Executor",
    "Outcome",
    "SerialExecutor",
    "Stopped",
    "Waiting",
    "check_count",
    "sigint_ignored",
    "stops_held",
]

#: Seconds without a finished chunk between two :class:`Waiting` outcomes.
TICK_S = 1.0
#: Seconds an executor sleeps when its feed has nothing yet (runs still being read).
POLL_S = 0.02


@dataclass(frozen=True, slots=True)
class ChunkDone:
    """A chunk finished: its summaries."""

    result: ChunkResult | BlockResult


@dataclass(frozen=True, slots=True)
class ChunkLost:
    """A chunk did not finish: ``crashed`` (its worker died) or ``lost`` (anything else)."""

    number: int
    status: Literal["crashed", "lost"]
    error_type: str
    error: str


@dataclass(frozen=True, slots=True)
class Stopped:
    """The executor cannot go on (the scheduler is gone): nothing more will run."""

    error_type: str
    error: str


@dataclass(frozen=True, slots=True)
class Waiting:
    """Chunks are in flight and none came back for :data:`TICK_S`.

    ``workers``: the worker threads the executor has now (0: none, or the scheduler is
    away); ``detail`` says what the executor is doing about it, if anything
    (``reconnecting to the Dask scheduler at ...``).
    """

    workers: int
    detail: str = ""


Outcome: TypeAlias = "ChunkDone | ChunkLost | Stopped | Waiting"


class ChunkFeed(Protocol):
    """Where an executor takes its chunks (:class:`~robot_msgs.batch.plan.ChunkPlan`)."""

    def next_chunk(self) -> Work | None:
        """Return the next chunk, or ``None`` when nothing waits (for now)."""
        ...

    @property
    def pending(self) -> bool:
        """Whether chunks may still come although :meth:`next_chunk` has none now."""
        ...


class Executor(Protocol):
    """Runs chunks; a context manager that owns its workers.

    ``isolates``: each chunk runs alone in its worker process, so a worker's death is its
    chunk's own (:class:`~robot_msgs.batch.plan.ChunkPlan` charges it).
    """

    name: str
    isolates: bool

    @property
    def slots(self) -> int:
        """Chunks it runs at once (once entered)."""
        ...

    def describe(self) -> str:
        """Say what it is for the summary (``2 local worker processes``)."""
        ...

    def run(self, fn: RunFunction, job: Job, feed: ChunkFeed) -> Iterator[Outcome]:
        """Yield one outcome per chunk taken from ``feed``, in completion order."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class SerialExecutor:
    """Run chunks one after another in this process (no parallelism, no worker to lose).

    Examples
    --------
    >>> with SerialExecutor() as ex:
    ...     ex.describe(), ex.slots
    ('one process (--serial)', 1)
    """

    name = "serial"
    slots = 1
    isolates = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    def describe(self) -> str:
        """Return ``one process (--serial)``: "computing 5 runs on one process (--serial)"."""
        return "one process (--serial)"

    def run(self, fn: RunFunction, job: Job, feed: ChunkFeed) -> Iterator[Outcome]:
        """Yield ``run_chunk`` of each chunk, in the feed's order."""
        while True:
            chunk = feed.next_chunk()
            if chunk is not None:
                yield ChunkDone(run_chunk(fn, job, chunk))
            elif feed.pending:
                time.sleep(POLL_S)
            else:
                return


def check_count(name: str, value: int, *, least: int = 1) -> int:
    """Return ``value`` when it is an integer >= ``least``, else raise naming the setting.

    Raises
    ------
    ValidationError
        ``value`` is smaller than ``least`` (``--workers 0``, ``--retries -1``).

    Examples
    --------
    >>> check_count("retries", 0, least=0)
    0
    >>> check_count("workers", 0)
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected `workers` >= 1, got 0
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        msg = f"Expected `{name}` >= {least}, got {value!r}"
        raise ValidationError(msg, field=name, reason=f"expected a count >= {least}, got {value!r}")
    return value


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT (Ctrl-C) meanwhile, from the main thread: to start workers, to close.

    Started meanwhile, worker processes ignore it. WHY: Ctrl-C reaches the whole process
    group: each Dask worker process printed its KeyboardInterrupt tracebacks (74 lines
    for two workers, measured) while the client stopped them anyway. A process started
    while SIGINT is ignored keeps ignoring it (Python installs its KeyboardInterrupt
    handler only where the parent left SIGINT as it was), so the client alone decides.
    Closing, a second Ctrl-C does not cut the close short, which each executor bounds:
    cut short, workers went on storing records after bench had counted them.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """Ignore SIGINT and hold SIGTERM meanwhile, from the main thread: to close workers.

    :func:`sigint_ignored`, and a SIGTERM that arrives meanwhile is delivered when the
    block ends, to the handler that was there before (bench's, the command line's, or
    the default action): the command still stops, once its workers are reaped. WHY: the
    close was shielded from a second Ctrl-C only; a SIGTERM in it (a Ctrl-C, then
    ``timeout`` or SLURM 0.5 s later) raised in the middle of the close, and two workers
    ignoring SIGTERM were left running while bench counted the stored records.
    """
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or previous is None:
        with sigint_ignored():  # None: a handler set outside Python, left alone
            yield
        return
    held: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, _: held.append(signum))
    try:
        with sigint_ignored():
            yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        if held:
            signal.raise_signal(signal.SIGTERM)
