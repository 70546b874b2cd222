"""Where tasks run: this process, local worker processes, or a Dask cluster.

Every executor's :meth:`~Executor.run` yields exactly one :class:`RunResult` per task,
in completion order: the evaluation's comparisons, its error (``failed``), or, when the
worker process evaluating it died more often than ``retries`` allows, a ``crashed``
record with the reason. Nothing is lost and nothing is counted twice.

- :class:`SerialExecutor`: in this process, one task after another (benchmarks, debugging).
- :class:`LocalExecutor`: ``concurrent.futures.ProcessPoolExecutor``, no set-up (the default).
- :class:`DaskExecutor`: a ``distributed.LocalCluster`` on the loopback interface, or an
  existing cluster at ``tcp://HOST:PORT`` (optional extra ``dask``).

A scheduler address is validated (:func:`check_scheduler_address`) before anything
connects, so a typo is one clear error at once; connecting is bounded by a timeout and
its failure is an :class:`~robot_msgs.errors.ExecutorError` naming the address.
"""

from __future__ import annotations

import gc
import ipaddress
import logging
import multiprocessing
import os
import re
import socket
import sys
import threading
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
    "SCHEDULER_SCHEMES",
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "SerialExecutor",
    "check_scheduler_address",
    "default_workers",
    "make_executor",
]

#: The comm schemes of ``distributed`` a scheduler address may use.
SCHEDULER_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")
#: Seconds to reach an existing scheduler before giving up with an ExecutorError.
CONNECT_TIMEOUT_S = 10.0
_LOOPBACK = "127.0.0.1"
_MAX_GREETING = 1 << 20  # a scheduler's handshake is a few hundred bytes
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")


def check_scheduler_address(address: str) -> str:
    """``address`` checked and normalised as ``SCHEME://HOST:PORT``, without connecting.

    ``HOST:PORT`` alone means ``tcp://``; an IPv6 host goes in brackets
    (``tcp://[::1]:8786``); ``inproc://`` addresses are taken as they are.

    Raises
    ------
    ValidationError
        Not such an address; the message says which part is wrong.

    Examples
    --------
    >>> check_scheduler_address("10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_scheduler_address("notanaddress")
    Traceback (most recent call last):
    ...
    robot_msgs.errors.ValidationError: Expected a Dask scheduler address ... 'notanaddress': no port
    """
    text = address.strip() if isinstance(address, str) else ""
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()

    def refuse(why: str) -> ValidationError:
        msg = (
            "Expected a Dask scheduler address SCHEME://HOST:PORT such as tcp://10.0.0.5:8786 "
            f"(--scheduler; schemes {', '.join(SCHEDULER_SCHEMES)}), got {address!r}: {why}"
        )
        return ValidationError(msg)

    if not text:
        raise refuse(why="empty")
    if scheme not in SCHEDULER_SCHEMES:
        raise refuse(why=f"unknown scheme {scheme!r}")
    if scheme == "inproc":
        if not rest:
            raise refuse(why="nothing after inproc://")
        return f"{scheme}://{rest}"
    if rest.startswith("["):
        host, bracket, port = rest[1:].partition("]")
        if not bracket or not port.startswith(":"):
            raise refuse(why="an IPv6 host in brackets needs a port after it, as [::1]:8786")
        port = port[1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise refuse(why=f"{host!r} is not an IPv6 address") from None
        shown = f"[{host}]"
    else:
        host, colon, port = rest.rpartition(":")
        if not colon:
            raise refuse(why="no port")
        if not host:
            raise refuse(why="no host")
        if ":" in host:
            raise refuse(why="an IPv6 host goes in brackets, as tcp://[::1]:8786")
        labels = host.rstrip(".").split(".")
        if len(host) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
            raise refuse(why=f"{host!r} is not a host name or IP address")
        shown = host
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise refuse(why=f"port {port!r} is not a number from 1 to 65535")
    return f"{scheme}://{shown}:{int(port)}"


def default_workers() -> int:
    """Count the CPUs this process may use (``os.sched_getaffinity`` where it exists)."""
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
        ``tcp://HOST:PORT`` of a running scheduler, checked by
        :func:`check_scheduler_address` here (before anything connects); without it a
        ``LocalCluster`` is started and closed on exit. Its scheduler, workers and HTTP
        server all listen on 127.0.0.1 only.
    workers : int, optional
        Worker processes of the LocalCluster (one thread each); default: CPUs available.
    retries : int
        See above.
    dashboard : bool
        Serve the LocalCluster's diagnostics dashboard (on 127.0.0.1, a free port; its
        address is :attr:`dashboard_link` once entered). Off by default: the scheduler's
        HTTP server then answers health checks only.
    connect_timeout_s : float
        Seconds to reach an existing scheduler before an :class:`ExecutorError`.

    Raises
    ------
    ValidationError
        A malformed ``scheduler`` address, ``workers < 1``, ``retries < 0``.
    MissingDependencyError
        The ``dask`` extra is not installed.
    """

    name = "dask"

    def __init__(
        self,
        *,
        scheduler: str | None = None,
        workers: int | None = None,
        retries: int = 2,
        dashboard: bool = False,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        self.scheduler = None if scheduler is None else check_scheduler_address(scheduler)
        self.workers = _positive("workers", default_workers() if workers is None else workers)
        self.retries = _non_negative("retries", retries)
        self.dashboard = dashboard
        self.connect_timeout_s = connect_timeout_s
        self.distributed = require("distributed", "dask", feature="Batch evaluation on Dask")
        self.cluster: Any = None
        self.client: Any = None
        #: The dashboard's address (``http://127.0.0.1:PORT/status``) when it is served.
        self.dashboard_link: str | None = None

    def __enter__(self) -> Self:
        dask = require("dask", "dask", feature="Batch evaluation on Dask")
        if self.scheduler is not None:
            self.client = self._connect(self.scheduler)
            return self
        config = {"distributed.scheduler.allowed-failures": self.retries}
        with dask.config.set(config):
            self.cluster = self.distributed.LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                host=_LOOPBACK,
                # The HTTP server on loopback, a free port: ":0" binds it to every
                # interface (0.0.0.0, measured), None to the fixed 8787 another cluster
                # may hold. The dashboard's pages are served on it only when asked for.
                dashboard_address=f"{_LOOPBACK}:0",
                scheduler_kwargs={"dashboard": self.dashboard},
                worker_dashboard_address=None,
                silence_logs=logging.ERROR,
            )
        self.client = self.distributed.Client(self.cluster, set_as_default=False)
        if self.dashboard:
            self.dashboard_link = str(self.cluster.dashboard_link)
        return self

    def _connect(self, address: str) -> Any:
        """Connect a client to the scheduler at ``address``, or raise an ExecutorError naming it.

        Measured with distributed 2026.8, ``Client(address, timeout=...)`` alone is no
        bound: to a refused port it retries until the timeout; to a port that answers
        but is no scheduler (the dashboard's 8787 for the scheduler's 8786) it waits
        forever for a handshake, or reads a frame length from foreign bytes and raises
        ``MemoryError``. So for the TCP schemes a plain socket connects first (refused
        or unreachable: the reason at once, or at the timeout); for ``tcp://`` it also
        waits for the scheduler's greeting (a scheduler writes its handshake first: an
        8-byte little-endian length of a short message), and the client is built in a
        thread given the timeout, so nothing can hang.
        """
        scheme, _, rest = address.partition("://")
        if scheme in ("tcp", "tls", "ws", "wss"):
            host, _, port = rest.rpartition(":")
            _probe_tcp(
                address, host.strip("[]"), int(port), self.connect_timeout_s,
                greeting=scheme == "tcp",
            )  # fmt: skip
        built: dict[str, Any] = {}

        def build() -> None:
            try:
                built["client"] = self.distributed.Client(
                    address, timeout=self.connect_timeout_s, set_as_default=False
                )
            except Exception as err:  # noqa: BLE001 - every failure to connect is one error
                built["error"] = f"{type(err).__name__}: {err}"

        thread = threading.Thread(target=build, name="robot-msgs-dask-connect", daemon=True)
        thread.start()
        thread.join(self.connect_timeout_s + 5.0)
        if "client" in built:
            return built["client"]
        what = built.get("error", f"no answer within {self.connect_timeout_s:g} s")
        # A half-made Client closes itself when collected, timing out noisily on a
        # scheduler that is not there: collect it now, quietly, not at exit.
        _collect_quietly()
        msg = (
            f"cannot connect to the Dask scheduler at {address} ({what}); is a scheduler "
            "listening there (its own port, 8786 by default, not the dashboard's)?"
        )
        raise ExecutorError(msg)

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


def _probe_tcp(address: str, host: str, port: int, timeout_s: float, *, greeting: bool) -> None:
    """Raise an ExecutorError naming ``address`` unless a scheduler may be listening there.

    Nothing accepts a TCP connection; or (``greeting``) what accepts it does not greet
    as a scheduler does: 8 bytes, the little-endian length of its handshake message.
    """
    try:
        socket.getaddrinfo(host, port)
    except (OSError, UnicodeError) as err:
        msg = f"cannot reach the Dask scheduler at {address}: unknown host {host!r}"
        raise ExecutorError(msg) from err
    try:
        conn = socket.create_connection((host, port), timeout=timeout_s)
    except OSError as err:
        reason = "no answer" if isinstance(err, TimeoutError) else (err.strerror or str(err))
        msg = (
            f"cannot reach the Dask scheduler at {address}: {reason} (within {timeout_s:g} s); "
            "is it running, and is this the address it printed?"
        )
        raise ExecutorError(msg) from err
    with conn:
        if not greeting:
            return
        try:
            first = _read_exactly(conn, 8)
        except OSError:
            first = b""
    length = int.from_bytes(first, "little") if len(first) == 8 else 0
    if not 0 < length < _MAX_GREETING:
        msg = (
            f"cannot connect to the Dask scheduler at {address}: something accepts "
            f"connections there but does not greet as a Dask scheduler (within {timeout_s:g} "
            "s); is this the scheduler's port (8786 by default), not the dashboard's?"
        )
        raise ExecutorError(msg)


def _read_exactly(conn: socket.socket, size: int) -> bytes:
    """Up to ``size`` bytes from ``conn``: fewer when it closes first (timeout: TimeoutError)."""
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _collect_quietly() -> None:
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook


def _positive(name: str, value: int) -> int:
    if value < 1:
        msg = f"Expected `{name}` >= 1, got {value}"
        raise ValidationError(msg, field=name, reason=f"expected a count >= 1, got {value}")
    return value


def _non_negative(name: str, value: int) -> int:
    if value < 0:
        msg = f"Expected `{name}` >= 0, got {value}"
        raise ValidationError(msg, field=name, reason=f"expected a count >= 0, got {value}")
    return value


def make_executor(
    kind: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    retries: int = 2,
    dashboard: bool = False,
) -> SerialExecutor | LocalExecutor | DaskExecutor:
    """Build the executor named ``kind``: ``"serial"``, ``"local"`` or ``"dask"``.

    A ``scheduler`` address implies ``"dask"``; ``dashboard`` serves a LocalCluster's
    dashboard on 127.0.0.1 (:attr:`DaskExecutor.dashboard_link`).

    Raises
    ------
    ValidationError
        An unknown ``kind``, ``workers < 1``, ``retries < 0`` or a malformed ``scheduler``
        address (checked before anything connects).
    MissingDependencyError
        ``"dask"`` without the ``dask`` extra installed.

    Examples
    --------
    >>> make_executor("serial").name
    'serial'
    """
    if scheduler is not None or kind == "dask":
        return DaskExecutor(
            scheduler=scheduler, workers=workers, retries=retries, dashboard=dashboard
        )
    if kind == "local":
        return LocalExecutor(workers=workers, retries=retries)
    if kind == "serial":
        return SerialExecutor()
    msg = f"Expected an executor serial, local or dask, got {kind!r}"
    raise ValidationError(msg)
