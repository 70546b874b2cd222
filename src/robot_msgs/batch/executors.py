"""Where tasks run: this process, local worker processes, or a Dask cluster.

Every executor's :meth:`~Executor.run` yields exactly one :class:`RunResult` per task,
in completion order: the evaluation's comparisons, its error (``failed``), or, when the
worker process evaluating it died more often than ``retries`` allows, a ``crashed``
record with the reason. Nothing is lost and nothing is counted twice.

- :class:`SerialExecutor`: in this process, one task after another (benchmarks, debugging).
- :class:`LocalExecutor`: ``concurrent.futures.ProcessPoolExecutor``, no set-up (the default).
- :class:`DaskExecutor`: a ``distributed.LocalCluster`` on the loopback interface, or an
  existing cluster at ``tcp://HOST:PORT`` (optional extra ``dask``).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections import deque
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from robot_msgs.batch.tasks import RunFunction, RunResult, Status, Task, function_id, run_task
from robot_msgs.errors import ExecutorError, ValidationError
from robot_msgs.optional import require

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from types import TracebackType

    from typing_extensions import Self

__all__ = [
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "SerialExecutor",
    "default_workers",
    "make_executor",
]


def default_workers() -> int:
    """The CPUs this process may use (``os.sched_getaffinity`` where it exists)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)


class Executor(Protocol):
    """Runs a per-run function over tasks; a context manager that owns its workers."""

    name: str

    def run(self, fn: RunFunction, tasks: Sequence[Task]) -> Iterator[RunResult]:
        """Yield one result per task, in completion order."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class _Context:
    """``with`` support for executors that hold nothing between runs."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


class SerialExecutor(_Context):
    """Evaluate tasks one after another in this process (no parallelism, no crash recovery).

    Examples
    --------
    >>> with SerialExecutor() as ex:
    ...     list(ex.run(len, []))
    []
    """

    name = "serial"

    def run(self, fn: RunFunction, tasks: Sequence[Task]) -> Iterator[RunResult]:
        """Yield ``run_task(fn, task)`` for each task in order."""
        for task in tasks:
            yield run_task(fn, task)


def _mp_context() -> multiprocessing.context.BaseContext:
    # WHY not fork: forking a process that runs threads (a Dask client, a progress
    # thread) can deadlock, and Python 3.12+ warns about it. forkserver forks from a
    # clean single-threaded server (cheap restarts after a crash); spawn elsewhere.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class LocalExecutor(_Context):
    """Evaluate tasks in local worker processes (``ProcessPoolExecutor``).

    A worker that dies (segfault, out-of-memory kill, ``os._exit``) breaks the whole
    pool in ``concurrent.futures``: every task in flight fails with ``BrokenProcessPool``
    and we cannot tell which one killed it. So the tasks in flight become *suspects*
    and are re-run one at a time in a fresh pool: an innocent suspect simply succeeds,
    while a task that kills its worker when running alone is the culprit and is
    charged an attempt; after ``retries + 1`` such attempts it ends as ``crashed``.

    Parameters
    ----------
    workers : int, optional
        Worker processes (default: the CPUs available).
    retries : int
        How many times a task whose worker died is re-run before it is recorded as
        crashed.

    Examples
    --------
    >>> LocalExecutor(workers=2, retries=1).name
    'local'
    """

    name = "local"

    def __init__(self, *, workers: int | None = None, retries: int = 2) -> None:
        self.workers = _positive("workers", default_workers() if workers is None else workers)
        self.retries = _non_negative("retries", retries)

    def run(self, fn: RunFunction, tasks: Sequence[Task]) -> Iterator[RunResult]:
        """Yield one result per task, in completion order (see the class docstring)."""
        pending: deque[Task] = deque(tasks)
        suspects: deque[Task] = deque()
        crashes: dict[str, int] = {}
        attempts: dict[str, int] = {}

        def submit(pool: ProcessPoolExecutor, task: Task, queue: deque[Task]) -> bool:
            """Submit ``task``; on a pool already broken, put it back and say so."""
            try:
                inflight[pool.submit(run_task, fn, task)] = task
            except BrokenProcessPool:
                queue.appendleft(task)
                return False
            attempts[task.digest] = attempts.get(task.digest, 0) + 1
            return True

        window = 2 * self.workers  # keeps every worker fed without queueing everything
        first = True
        while pending or suspects:
            inflight: dict[Future[RunResult], Task] = {}
            broken = False
            alone = False
            pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_mp_context())
            try:
                if first:
                    _probe(pool, fn)
                    first = False
                while (pending or suspects or inflight) and not broken:
                    if suspects and not inflight:
                        alone = True
                        broken = not submit(pool, suspects.popleft(), suspects)
                    elif not suspects:
                        alone = False
                        while pending and len(inflight) < window and not broken:
                            broken = not submit(pool, pending.popleft(), pending)
                    if not inflight:
                        break
                    done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                    for future in done:
                        task = inflight.pop(future)
                        try:
                            result = future.result()
                        except BrokenProcessPool:
                            broken = True
                            inflight[future] = task  # a suspect, handled below
                            continue
                        except Exception as err:  # noqa: BLE001  (e.g. an unpicklable result)
                            result = RunResult.failure(task, "failed", type(err).__name__, str(err))
                        yield _with_attempts(result, attempts[task.digest])
            finally:
                if broken:
                    _terminate_workers(pool)
                pool.shutdown(wait=True, cancel_futures=True)
            for future, task in inflight.items():
                if future.done() and not future.cancelled() and future.exception() is None:
                    yield _with_attempts(future.result(), attempts[task.digest])
                    continue  # finished before the pool broke
                if not alone:
                    suspects.append(task)
                    continue
                crashes[task.digest] = crashes.get(task.digest, 0) + 1
                if crashes[task.digest] > self.retries:
                    yield RunResult.failure(
                        task,
                        "crashed",
                        "WorkerCrash",
                        f"the worker process died while evaluating this run, "
                        f"{crashes[task.digest]} times running alone (a crash, out-of-memory "
                        "kill or os._exit in the evaluation)",
                        attempts=attempts[task.digest],
                    )
                else:
                    suspects.append(task)


def _terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate every worker of a broken pool, so that shutting it down cannot hang.

    WHY: in CPython 3.11 (``concurrent/futures/process.py``), the thread that handles a
    broken pool terminates the workers it knows and then joins them all, while a
    ``submit`` racing with it may still start a new worker that nobody terminates: the
    join, and ``shutdown``, then wait forever. Terminating what is left from here ends
    that wait; the pool is broken anyway.
    """
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.terminate()


def _import_check(fn: RunFunction) -> str:
    """Run in a fresh worker: unpickling ``fn`` proved the worker can start and import it."""
    return function_id(fn)


def _probe(pool: ProcessPoolExecutor, fn: RunFunction) -> None:
    """Fail fast, with the reason, when workers cannot start or cannot import ``fn``.

    Without this, a worker that dies while starting (a script without the ``if __name__
    == "__main__":`` guard, a per-run function defined in ``__main__`` of an interactive
    session) would look like every run crashing its worker.
    """
    try:
        pool.submit(_import_check, fn).result()
    except BrokenProcessPool as err:
        msg = (
            "the local worker processes die before evaluating anything: run the sweep from "
            "a script guarded by `if __name__ == '__main__':`, with a per-run function "
            f"importable by name ({function_id(fn)})"
        )
        raise ExecutorError(msg) from err
    except Exception as err:
        msg = (
            f"the local worker processes cannot load the per-run function {function_id(fn)}: {err}"
        )
        raise ExecutorError(msg) from err


def _with_attempts(result: RunResult, attempts: int) -> RunResult:
    return result if attempts == result.attempts else replace(result, attempts=attempts)


class DaskExecutor:
    """Evaluate tasks on Dask: a new loopback ``LocalCluster`` or an existing scheduler.

    Each task is submitted as ``run_task(fn, task)`` (file paths and settings, a few
    hundred bytes); the workers read the files, so they must see the same paths (one
    machine, or a shared file system) and import the same per-run function (robot_msgs
    installed in the workers' environment). Dask re-runs the tasks of a worker that dies on
    another worker; a task that was on ``retries + 1`` dying workers (the scheduler's
    ``allowed-failures``, set for a LocalCluster we start; an existing scheduler keeps
    its own) ends as ``crashed`` with Dask's ``KilledWorker`` text. ``retries`` is
    also passed to ``Client.submit`` for errors escaping ``run_task``.

    ``RunResult.attempts``: ``retries + 1`` for a task that ended ``KilledWorker`` on a
    LocalCluster started here; otherwise 1, as Dask does not tell the client how many
    times it re-ran a task that then succeeded (the local executor counts them).

    Unlike the local executor, Dask does not re-run suspects alone: a worker's death
    counts against every task the worker holds (running or queued beside the culprit),
    so with few workers an innocent task can end ``KilledWorker`` too; a larger
    ``retries`` makes that unlikely, and ``--resume`` recomputes crashed runs.

    Parameters
    ----------
    scheduler : str, optional
        ``tcp://HOST:PORT`` of a running scheduler; without it a ``LocalCluster`` is
        started on 127.0.0.1 (its HTTP server on a free port) and closed on exit.
    workers : int, optional
        Worker processes of the LocalCluster (one thread each); default: CPUs available.
    retries : int
        See above.
    """

    name = "dask"

    def __init__(
        self, *, scheduler: str | None = None, workers: int | None = None, retries: int = 2
    ) -> None:
        self.distributed = require("distributed", "dask", feature="Batch evaluation on Dask")
        self.scheduler = scheduler
        self.workers = _positive("workers", default_workers() if workers is None else workers)
        self.retries = _non_negative("retries", retries)
        self.cluster: Any = None
        self.client: Any = None

    def __enter__(self) -> Self:
        dask = require("dask", "dask", feature="Batch evaluation on Dask")
        if self.scheduler is not None:
            self.client = self.distributed.Client(self.scheduler, set_as_default=False)
            return self
        config = {"distributed.scheduler.allowed-failures": self.retries}
        with dask.config.set(config):
            self.cluster = self.distributed.LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                # A free port: None still binds the scheduler's HTTP server to 8787, which
                # another cluster on the machine may hold (then Dask warns and moves).
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            )
        self.client = self.distributed.Client(self.cluster, set_as_default=False)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def run(self, fn: RunFunction, tasks: Sequence[Task]) -> Iterator[RunResult]:
        """Yield one result per task, in completion order (see the class docstring)."""
        if self.client is None:
            msg = "DaskExecutor.run needs the executor entered: `with DaskExecutor() as ex:`"
            raise ValidationError(msg)
        by_key: dict[str, Task] = {}
        futures = []
        for task in tasks:
            key = f"robot-msgs-bench-{task.digest}"
            by_key[key] = task
            futures.append(
                self.client.submit(run_task, fn, task, key=key, retries=self.retries, pure=False)
            )
        for future in self.distributed.as_completed(futures, loop=self.client.loop):
            task = by_key[future.key]
            try:
                # Waits again if the result was lost with its worker and is being recomputed.
                result: RunResult = future.result()
            except Exception as err:  # noqa: BLE001  (every error is recorded, none is lost)
                name = type(err).__name__
                lost = name == "KilledWorker" or isinstance(err, CancelledError)
                status: Status = "crashed" if lost else "failed"
                # KilledWorker: the task was on allowed-failures + 1 dying workers, which
                # we know only for a LocalCluster we started with it set to retries.
                attempts = self.retries + 1 if name == "KilledWorker" and self.cluster else 1
                result = RunResult.failure(
                    task, status, name, str(err) or repr(err), attempts=attempts
                )
            future.release()
            yield result


def _positive(name: str, value: int) -> int:
    if value < 1:
        msg = f"Expected `{name}` >= 1, got {value}"
        raise ValidationError(msg)
    return value


def _non_negative(name: str, value: int) -> int:
    if value < 0:
        msg = f"Expected `{name}` >= 0, got {value}"
        raise ValidationError(msg)
    return value


def make_executor(
    kind: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    retries: int = 2,
) -> SerialExecutor | LocalExecutor | DaskExecutor:
    """Build the executor named ``kind``: ``"serial"``, ``"local"`` or ``"dask"``.

    A ``scheduler`` address implies ``"dask"``.

    Raises
    ------
    ValidationError
        An unknown ``kind``, ``workers < 1`` or ``retries < 0``.
    MissingDependencyError
        ``"dask"`` without the ``dask`` extra installed.

    Examples
    --------
    >>> make_executor("serial").name
    'serial'
    """
    if scheduler is not None or kind == "dask":
        return DaskExecutor(scheduler=scheduler, workers=workers, retries=retries)
    if kind == "local":
        return LocalExecutor(workers=workers, retries=retries)
    if kind == "serial":
        return SerialExecutor()
    msg = f"Expected an executor serial, local or dask, got {kind!r}"
    raise ValidationError(msg)
