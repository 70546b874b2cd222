"""Dask: a ``LocalCluster`` on the loopback interface, or an existing scheduler.

Chunks go out in batches with ``Client.map`` (a few per worker thread in flight, more as
they finish), each ``run_chunk(fn, job, chunk)``: paths and settings, a few hundred bytes
a run; results come back as :func:`distributed.as_completed` yields them. Measured with
one future per run, submitting cost the client 0.95 ms a run and collecting 4.2 ms.

Failures, as the plan (:mod:`robot_msgs.batch.plan`) needs them: ``KilledWorker`` is a
chunk whose worker died (``crashed``); a future cancelled because the client lost the
scheduler is ``lost``, as is any error escaping ``run_chunk`` (a worker without
robot_msgs, a results folder it cannot see). After losing the scheduler the client
tries to reconnect for ``connect_timeout_s``; if it does, the lost chunks go again, else
the executor :class:`~robot_msgs.batch.executors.Stopped`.

A LocalCluster started here sets ``distributed.scheduler.allowed-failures`` to 0
(:data:`LOCAL_CLUSTER_CONFIG`), so a worker's death reaches the plan at once and
``--retries`` counts every one; an existing scheduler keeps its own setting (3 by
default: each attempt the plan counts may have been re-run on that many dying workers
first). Its workers run with the environment their nannies give them: Dask's default
``MALLOC_TRIM_THRESHOLD_=65536`` makes evaluations about 30 % slower (see
:data:`LOCAL_CLUSTER_CONFIG`); a cluster's own ``distributed.nanny.pre-spawn-environ``
can drop it.

A scheduler address is validated (:func:`check_scheduler_address`) before anything
connects, so a typo is one clear error at once; connecting is bounded by a timeout and
its failure is an :class:`~robot_msgs.errors.ExecutorError` naming the address.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import logging
import re
import socket
import sys
import threading
import time
import warnings
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING, Any

from robot_msgs.batch.executors import (
    POLL_S,
    TICK_S,
    ChunkDone,
    ChunkLost,
    Stopped,
    Waiting,
    check_count,
    sigint_ignored,
    stops_held,
)
from robot_msgs.batch.worker import run_chunk
from robot_msgs.errors import ExecutorError, ValidationError
from robot_msgs.limits import usable_cpus
from robot_msgs.optional import require, require_installed

if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import TracebackType

    from typing_extensions import Self

    from robot_msgs.batch.executors import ChunkFeed, Outcome
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.batch.worker import Job, Work

__all__ = [
    "CLOSE_TIMEOUT_S",
    "CONNECT_TIMEOUT_S",
    "LOCAL_CLUSTER_CONFIG",
    "SCHEDULER_SCHEMES",
    "DaskExecutor",
    "check_scheduler_address",
]

#: The comm schemes of ``distributed`` a scheduler address may use.
SCHEDULER_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")
#: Seconds to reach an existing scheduler (or to get it back) before giving up.
CONNECT_TIMEOUT_S = 10.0
#: Seconds the LocalCluster's close may take, Ctrl-C ignored meanwhile. Its nannies kill a
#: worker not stopped within 4 s and join it within 9 s, all workers at once.
CLOSE_TIMEOUT_S = 20.0
_LOOPBACK = "127.0.0.1"
_MAX_GREETING = 1 << 20  # a scheduler's handshake is a few hundred bytes
_HOST_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")
_IN_FLIGHT_PER_THREAD = 2

#: The settings of a LocalCluster started here. ``allowed-failures`` 0: every worker death
#: reaches the plan, which counts ``--retries`` (see the module). The intervals slow down
#: the housekeeping of the scheduler and nannies, which live in the client's process:
#: idle, they took 3.5 % of a core (0.034 s of CPU a second, measured over 15 s; 1 ms a
#: run of a 3000-run sweep), 0.9 % with these. Work stealing evens out workers' queues;
#: with chunks of a second and the scheduler's queueing it has little to do. The worker
#: environment is Dask's without ``MALLOC_TRIM_THRESHOLD_=65536``: with it, glibc gives
#: memory back after nearly every allocation and a run of 10^4 poses took 17-19 ms of CPU
#: in a Dask worker against 13.5 ms without (300 runs, measured in turn); BLAS stays at
#: one thread a worker, as Dask sets it.
LOCAL_CLUSTER_CONFIG: dict[str, object] = {
    "distributed.scheduler.allowed-failures": 0,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
    "distributed.nanny.pre-spawn-environ": {
        "OMP_NUM_THREADS": 1,
        "MKL_NUM_THREADS": 1,
        "OPENBLAS_NUM_THREADS": 1,
    },
}


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


class DaskExecutor:
    """Evaluate chunks on Dask: a new loopback ``LocalCluster`` or an existing scheduler.

    The workers read the files and write the records, so they must see the same paths
    as the client (one machine, or a shared file system) and import the same per-run
    function (robot_msgs installed in the workers' environment).

    Parameters
    ----------
    scheduler : str, optional
        ``tcp://HOST:PORT`` of a running scheduler, checked by
        :func:`check_scheduler_address` here (before anything connects); without it a
        ``LocalCluster`` is started and closed on exit. Its scheduler, workers and HTTP
        server all listen on 127.0.0.1 only.
    workers : int, optional
        Worker processes of the LocalCluster (one thread each); default: CPUs available.
    dashboard : bool
        Serve the LocalCluster's diagnostics dashboard (on 127.0.0.1, a free port; its
        address is :attr:`dashboard_link` once entered). Off by default: the scheduler's
        HTTP server then answers health checks only.
    connect_timeout_s : float
        Seconds to reach an existing scheduler, or to reach it again after losing it,
        before giving up.

    Raises
    ------
    ValidationError
        A malformed ``scheduler`` address, ``workers < 1``.
    MissingDependencyError
        The ``dask`` extra is not installed.
    """

    name = "dask"
    isolates = False  # a dying worker takes every task it holds

    def __init__(
        self,
        *,
        scheduler: str | None = None,
        workers: int | None = None,
        dashboard: bool = False,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        self.scheduler = None if scheduler is None else check_scheduler_address(scheduler)
        self.workers = check_count("workers", usable_cpus() if workers is None else workers)
        self.dashboard = dashboard
        self.connect_timeout_s = connect_timeout_s
        require_installed("distributed", "dask", feature="Batch evaluation on Dask")
        self.distributed: Any = None  # imported on entering: 0.4 s a resume may not need
        self.cluster: Any = None
        self.client: Any = None
        #: The dashboard's address (``http://127.0.0.1:PORT/status``) when it is served.
        self.dashboard_link: str | None = None
        self._slots = (self.workers, -float("inf"))
        self._quiet = contextlib.ExitStack()  # distributed's logs, quiet while connected

    def __enter__(self) -> Self:
        dask = require("dask", "dask", feature="Batch evaluation on Dask")
        self.distributed = require("distributed", "dask", feature="Batch evaluation on Dask")
        if self.scheduler is not None:
            # What goes wrong between this client and a scheduler we do not own is said
            # by the sweep (lost chunks, "reconnecting", the stall timeout), as for our
            # LocalCluster's ``silence_logs``. Left at distributed's level, a write to a
            # scheduler that died under load printed its traceback ("Error in batched
            # write") between our lines.
            self._quiet = contextlib.ExitStack()
            self._quiet.enter_context(self.distributed.utils.silence_logging_cmgr(logging.CRITICAL))
            try:
                self.client = self._connect(self.scheduler)
            except BaseException:
                self._quiet.close()
                raise
            return self
        with dask.config.set(LOCAL_CLUSTER_CONFIG), sigint_ignored():
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
                # Its workers and scheduler are ours: what goes wrong in them comes back
                # as a lost or failed chunk, said by the sweep. At ERROR, a worker whose
                # heartbeat met the scheduler closing (Ctrl-C under load) printed a
                # traceback ("Failed to communicate with scheduler during heartbeat.").
                silence_logs=logging.CRITICAL,
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
        # Closed whatever Ctrl-C says meanwhile. WHY: a second Ctrl-C (a user's, while the
        # first one's close waited for the workers) ended the close, and bench counted the
        # records stored while the workers went on writing theirs: "9 run results are
        # stored", 20 on disk (3 of 4 tries, two SIGINTs 0.3 s apart). The close is
        # bounded here: with a nanny's close hung, Ctrl-C ignored, it waited for ever
        # (three Ctrl-C in 6 s, still closing at 90 s; a review). A SIGTERM is held till
        # the close ends (stops_held).
        with stops_held():
            if self.client is not None:
                # Our queued tasks are released with the client; a LocalCluster goes with us.
                if self.client.status == "running":
                    self.client.close(timeout=self.connect_timeout_s)
                else:  # the scheduler is gone: nothing to tell it
                    with contextlib.suppress(Exception):
                        self.client.close(timeout=1)
                self.client = None
            if self.cluster is not None:
                try:
                    self.cluster.close(timeout=CLOSE_TIMEOUT_S)
                except (TimeoutError, asyncio.TimeoutError):  # the latter before Python 3.11
                    warnings.warn(
                        f"the Dask cluster did not close within {CLOSE_TIMEOUT_S:g} s: its "
                        "workers stop with this process; --resume keeps any record they "
                        "store meanwhile",
                        RuntimeWarning,
                        stacklevel=2,
                    )
                self.cluster = None
            self._quiet.close()

    @property
    def slots(self) -> int:
        """Worker threads of the cluster (at least 1 before any worker has joined).

        Asked of the scheduler at most every 2 s: workers may join or leave.
        """
        if self.client is None:
            return self.workers
        now = time.monotonic()
        if now - self._slots[1] > 2.0 and self.client.status == "running":
            self._slots = (max(1, sum(self.client.nthreads().values())), now)
        return self._slots[0]

    def describe(self) -> str:
        """``dask (ADDRESS)`` for an existing scheduler, ``dask (N workers)`` for ours."""
        if self.scheduler is not None:
            return f"{self.name} ({self.scheduler})"
        return f"{self.name} ({self.workers} workers)"

    def run(self, fn: RunFunction, job: Job, feed: ChunkFeed) -> Iterator[Outcome]:
        """Yield one outcome per chunk, in completion order (see the module)."""
        client = self.client
        if client is None:
            msg = "DaskExecutor.run needs the executor entered: `with DaskExecutor() as ex:`"
            raise ValidationError(msg)
        done = self.distributed.as_completed(loop=client.loop)
        inflight: dict[str, int] = {}

        def submit() -> None:
            room = _IN_FLIGHT_PER_THREAD * self.slots - len(inflight)
            chunks: list[Work] = []
            while len(chunks) < room and (chunk := feed.next_chunk()) is not None:
                chunks.append(chunk)
            if not chunks:
                return
            keys = [f"robot-msgs-bench-{job.session}-{chunk.name}" for chunk in chunks]
            futures = client.map(
                run_chunk, [fn] * len(chunks), [job] * len(chunks), chunks, key=keys, pure=False
            )
            inflight.update({key: chunk.number for key, chunk in zip(keys, chunks, strict=True)})
            done.update(futures)

        submit()
        quiet_since = time.monotonic()
        while True:
            # Polled, not blocking: a wait with a timeout lets the sweep hear every
            # TICK_S that nothing comes back (a cluster without workers).
            batch = done.next_batch(block=False)
            now = time.monotonic()
            if not batch:
                if not inflight and not feed.pending:
                    return
                if inflight and now - quiet_since >= TICK_S:
                    quiet_since = now
                    yield Waiting(self.worker_threads())
                time.sleep(POLL_S)
                if not inflight:
                    submit()
                continue
            quiet_since = now
            for future in batch:
                number = inflight.pop(future.key)
                try:
                    outcome: Outcome = ChunkDone(future.result())
                except Exception as err:  # noqa: BLE001 - every failure is an outcome
                    outcome = self._lost(number, err)
                future.release()
                yield outcome
            if client.status != "running":
                yield from self._reconnecting()
                if client.status != "running":
                    why = (
                        f"the connection to the Dask scheduler at {self._address()} was lost "
                        f"and not regained within {self.connect_timeout_s:g} s"
                    )
                    yield Stopped("SchedulerLost", why)
                    return
            submit()

    def _address(self) -> str:
        if self.scheduler is not None:
            return self.scheduler
        return str(self.cluster.scheduler_address) if self.cluster is not None else "?"

    def _lost(self, number: int, err: Exception) -> ChunkLost:
        name = type(err).__name__
        text = str(err) or repr(err)
        if name == "KilledWorker":
            return ChunkLost(number, "crashed", name, text)
        if isinstance(err, CancelledError) and "scheduler-connection-lost" in text:
            why = f"the connection to the Dask scheduler at {self._address()} was lost"
            return ChunkLost(number, "lost", "SchedulerLost", why)
        return ChunkLost(number, "lost", name, text)

    def _reconnecting(self) -> Iterator[Waiting]:
        """Wait while the client tries to reach the scheduler again, saying so every tick."""
        start = time.monotonic()
        deadline = start + self.connect_timeout_s + 5.0
        said = start
        while self.client.status == "connecting" and time.monotonic() < deadline:
            time.sleep(0.1)
            if time.monotonic() - said >= TICK_S:
                said = time.monotonic()
                yield Waiting(0, f"reconnecting to the Dask scheduler at {self._address()}")

    def worker_threads(self) -> int:
        """Worker threads the scheduler has now (0 without a connection to it)."""
        if self.client is None or self.client.status != "running":
            return 0
        try:
            threads = sum(self.client.nthreads().values())
        except (OSError, TimeoutError):
            return 0
        self._slots = (max(1, threads), time.monotonic())
        return int(threads)


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
