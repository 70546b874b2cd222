"""Local worker processes that isolate crashes and never outlive the client.

WHY not ``concurrent.futures.ProcessPoolExecutor``: one worker dying breaks the whole
pool (every task in flight fails with ``BrokenProcessPool``, the culprit unknown), and
Python before 3.14 has no public way to stop its workers: the executor this replaces
reached into ``ProcessPoolExecutor._processes``, and after SIGTERM or ``kill -9`` of a
sweep 4 of its workers were still alive 60 s later. Here each worker is a
``multiprocessing.Process`` (public API only) with its own pipe and at most one chunk,
so a death names its chunk exactly, and:

- the client ends every worker on exit, whatever ended it (``terminate``, then ``kill``
  after :data:`STOP_S`);
- a worker ignores SIGINT (Ctrl-C reaches the whole process group; the client decides),
  and a thread in it blocks on a *lifeline* pipe whose only writer is the client: when
  the client dies, even by ``kill -9``, the pipe reads end-of-file and the worker exits
  at once, whatever it was doing.

Workers start with ``forkserver`` (``spawn`` where there is none): forking a process that
runs threads can deadlock, and the lifeline needs a child that inherits no descriptor
it was not given.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import threading
import time
from multiprocessing.connection import wait
from typing import TYPE_CHECKING, Any

from robot_msgs.batch.executors import (
    POLL_S,
    TICK_S,
    ChunkDone,
    ChunkLost,
    Waiting,
    check_count,
    stops_held,
)
from robot_msgs.batch.inputs import function_id
from robot_msgs.batch.worker import run_chunk
from robot_msgs.errors import ExecutorError
from robot_msgs.limits import usable_cpus

if TYPE_CHECKING:
    from collections.abc import Iterator
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess
    from types import TracebackType

    from typing_extensions import Self

    from robot_msgs.batch.executors import ChunkFeed, Outcome
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.batch.worker import Job, Work

__all__ = ["STOP_S", "LocalExecutor"]

#: Seconds a worker is given to stop on SIGTERM before it is killed.
STOP_S = 2.0
#: Seconds a new worker is given to start and load the per-run function.
START_S = 120.0


def _context() -> BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _watch(lifeline: Connection) -> None:
    """Exit this worker as soon as the client's end of the lifeline closes."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv()
    os._exit(70)  # the client is gone: nothing to report to


def _serve(conn: Connection, lifeline: Connection) -> None:
    """Live as a worker: load the per-run function, then run chunks until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(lifeline,), name="lifeline", daemon=True).start()
    try:
        fn, job = conn.recv()
    except EOFError:
        return
    except Exception as err:  # noqa: BLE001 - the reason goes to the client
        conn.send(("error", f"{type(err).__name__}: {err}"))
        return
    conn.send(("ready", function_id(fn)))
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        if chunk is None:
            return
        try:
            reply: tuple[str, Any] = ("done", run_chunk(fn, job, chunk))
        except BaseException as err:  # noqa: BLE001 - an interrupt raised by the run too
            reply = ("raised", err)
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and its pipe (the executor's ``busy`` map holds its chunk)."""

    def __init__(self, context: BaseContext, lifeline: Connection) -> None:
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(  # type: ignore[attr-defined]
            target=_serve, args=(child, lifeline), name="robot-msgs-bench-worker", daemon=True
        )
        self.process.start()
        child.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.process.is_alive():
            self.process.terminate()


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        hint = " (out of memory?)" if name == "SIGKILL" else ""
        return f"the worker process was killed by {name}{hint}"
    return f"the worker process exited with code {exitcode}"


class LocalExecutor:
    """Evaluate chunks in local worker processes, one chunk per worker at a time.

    A worker that dies (segfault, out-of-memory kill, ``os._exit``) loses exactly its
    chunk (:class:`~robot_msgs.batch.executors.ChunkLost`, ``crashed``) and is replaced;
    the plan re-runs the chunk's runs alone to find the culprit.

    Parameters
    ----------
    workers : int, optional
        Worker processes (default: the CPUs available).

    Examples
    --------
    >>> ex = LocalExecutor(workers=2)
    >>> ex.describe(), ex.slots
    ('2 local worker processes', 2)
    """

    name = "local"
    isolates = True

    def __init__(self, *, workers: int | None = None) -> None:
        self.workers = check_count("workers", usable_cpus() if workers is None else workers)
        self._context = _context()
        self._pool: list[_Worker] = []
        self._idle: list[_Worker] = []  # started, loaded with ``_loaded``, holding no chunk
        self._loaded = b""
        self._lifeline: Connection | None = None
        self._keep: Connection | None = None

    @property
    def slots(self) -> int:
        """One chunk per worker."""
        return self.workers

    def describe(self) -> str:
        """``N local worker processes`` (as the summary says: computed ... on them)."""
        return f"{self.workers} local worker process{'es' if self.workers != 1 else ''}"

    def __enter__(self) -> Self:
        self._lifeline, self._keep = self._context.Pipe(duplex=False)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End every worker: SIGTERM, then SIGKILL after :data:`STOP_S`; close the lifeline.

        Ctrl-C is ignored and a SIGTERM held meanwhile (:func:`stops_held`), as the Dask
        executor's close does, and the close is bounded (2 x :data:`STOP_S`, all workers
        at once). WHY: a second Ctrl-C (or a SIGTERM) cut it short while it waited for a
        worker, and a worker not stopped by SIGTERM was never killed: it could store
        records after bench counted them (two workers ignoring SIGTERM, a second Ctrl-C
        0.5 s into the close: both still running after it).
        """
        with stops_held():
            pool, self._pool, self._idle = self._pool, [], []
            for worker in pool:
                worker.stop()
            _join_all(pool, STOP_S)
            for worker in pool:
                if worker.process.is_alive():
                    worker.process.kill()
            _join_all(pool, STOP_S)
            for end in (self._keep, self._lifeline):
                if end is not None:
                    end.close()
            self._keep = self._lifeline = None

    def _ready(self, fn: RunFunction, job: Job) -> list[_Worker]:
        """Return the idle workers loaded with ``fn`` and ``job``, started as needed.

        Workers of an earlier :meth:`run` with the same function and job are kept (the
        sweep's outputs are written by the workers that evaluated its runs).
        """
        try:
            payload = pickle.dumps((fn, job))
        except (AttributeError, TypeError, pickle.PicklingError) as err:  # not by name
            raise _cannot_load(fn, err) from err
        idle, self._idle = self._idle, []
        if payload != self._loaded:
            for worker in idle:
                self._pool.remove(worker)
                worker.stop()
            idle = []
        self._loaded = payload
        return idle + self._start(fn, payload, self.workers - len(idle))

    def _start(self, fn: RunFunction, payload: bytes, count: int) -> list[_Worker]:
        """Start ``count`` workers and wait until each has loaded ``payload`` (``fn``, the job).

        Raises
        ------
        ExecutorError
            A worker died while starting, or cannot load ``fn``.
        """
        if self._lifeline is None:
            msg = "LocalExecutor.run needs the executor entered: `with LocalExecutor() as ex:`"
            raise ExecutorError(msg)
        started = [_Worker(self._context, self._lifeline) for _ in range(count)]
        self._pool.extend(started)
        for worker in started:
            worker.conn.send_bytes(payload)
        for worker in started:
            answer = worker.conn.poll(START_S) and _receive(worker.conn)
            if not answer:
                msg = (
                    "the local worker processes die before evaluating anything: run the sweep "
                    "from a script guarded by `if __name__ == '__main__':`, with a per-run "
                    f"function importable by name ({function_id(fn)})"
                )
                raise ExecutorError(msg)
            if answer[0] != "ready":
                raise _cannot_load(fn, answer[1])
        return started

    def run(self, fn: RunFunction, job: Job, feed: ChunkFeed) -> Iterator[Outcome]:
        """Yield one outcome per chunk, in completion order (see the class docstring)."""
        idle = self._ready(fn, job)
        busy: dict[_Worker, Work] = {}  # each busy worker and the chunk it holds
        try:
            while True:
                while idle and (chunk := feed.next_chunk()) is not None:
                    worker = idle.pop()
                    worker.conn.send(chunk)
                    busy[worker] = chunk
                if not busy:
                    if feed.pending:  # runs still being read
                        time.sleep(POLL_S)
                        continue
                    return
                handles = [w.conn for w in busy] + [w.process.sentinel for w in busy]
                ready = wait(handles, timeout=TICK_S)
                if not ready:
                    yield Waiting(len(busy) + len(idle))
                    continue
                for worker in [w for w in busy if w.conn in ready or w.process.sentinel in ready]:
                    chunk = busy.pop(worker)
                    answer = _receive(worker.conn)
                    if answer is None:  # died before answering
                        worker.process.join(STOP_S)
                        self._pool.remove(worker)
                        worker.stop()
                        why = _death(worker.process.exitcode)
                        yield ChunkLost(chunk.number, "crashed", "WorkerCrash", why)
                        idle.extend(self._start(fn, self._loaded, 1))
                        continue
                    kind, value = answer
                    idle.append(worker)
                    if kind == "raised":
                        if not isinstance(value, Exception):
                            raise value
                        yield ChunkLost(chunk.number, "lost", type(value).__name__, str(value))
                        continue
                    yield ChunkDone(value)
        finally:
            for worker in busy:  # the sweep stopped with chunks in flight: not reusable
                worker.stop()  # (still in the pool: close() waits for it, or kills it)
            self._idle = idle


def _join_all(pool: list[_Worker], seconds: float) -> None:
    """Wait up to ``seconds`` in all for every worker of ``pool`` to end."""
    deadline = time.monotonic() + seconds
    for worker in pool:
        worker.process.join(max(deadline - time.monotonic(), 0.0))


def _cannot_load(fn: RunFunction, why: object) -> ExecutorError:
    msg = f"the local worker processes cannot load the per-run function {function_id(fn)}: {why}"
    return ExecutorError(msg)


def _receive(conn: Connection) -> tuple[str, Any] | None:
    """Return the worker's answer, or ``None`` when its end closed (it died)."""
    try:
        if not conn.poll():
            return None
        answer: tuple[str, Any] = conn.recv()
    except (EOFError, OSError):
        return None
    return answer
