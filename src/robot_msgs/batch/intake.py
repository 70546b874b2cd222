"""Runs into a sweep as they are read: the first are computed while the rest are read.

WHY: before, a sweep read its whole manifest before it handed out a run (10^5 runs took
10-20 s warm; a walk of 3·10^4 run folders 76.5 s cold), printing only ``reading the
runs``. Here a thread reads the runs (:class:`~robot_msgs.runs.RunReader`) and hands
them over in batches of :data:`BATCH_RUNS` or every :data:`BATCH_S`; the sweep takes
them as it hands out chunks (:class:`~robot_msgs.batch.plan.ChunkPlan`'s ``source``),
checks each against its stored result on ``--resume`` (:class:`StoredCheck`), and says
every :data:`REPORT_S` how far the reading is. A reading error (an invalid entry, two
runs with one name) stops the sweep when it is reached; the records stored until then
stay, for a ``--resume`` once the manifest is mended.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import TYPE_CHECKING

from robot_msgs.batch.inputs import input_files, run_key, stamp
from robot_msgs.batch.outputs import OutputsKey
from robot_msgs.batch.worker import RunSummary
from robot_msgs.errors import ValidationError
from robot_msgs.report.text import counted
from robot_msgs.runs.manifest import Manifest

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.batch.inputs import Stamp
    from robot_msgs.batch.plan import SweepState
    from robot_msgs.batch.store import ResultStore
    from robot_msgs.runs.manifest import RunReader
    from robot_msgs.runs.spec import RunSpec

__all__ = ["BATCH_RUNS", "BATCH_S", "REPORT_S", "RunIntake", "StoredCheck"]

#: Runs handed over at once (or fewer, every :data:`BATCH_S`).
BATCH_RUNS = 1000
#: Seconds at most between two hand-overs of runs read.
BATCH_S = 0.2
#: Seconds between two lines saying how far the reading is.
REPORT_S = 10.0
_STAMPS_KEPT = 4096  # input stamps remembered while checking (shared references)


class StoredCheck:
    """Keep the stored results whose inputs still show their stamps; the others are computed.

    A record that is not one (edited by hand, of an older format) is recomputed and
    replaced; ``verify`` keeps nothing here: every run goes to a worker to be re-hashed.
    :attr:`key` is the :class:`~robot_msgs.batch.outputs.OutputsKey` of the records kept,
    which names the outputs when every record was kept. ``shared`` is the identity the run
    keys share (the settings without their ranking rules); ``named`` the one the outputs are
    named by, the settings whole.
    """

    def __init__(
        self,
        store: ResultStore,
        state: SweepState,
        shared: str,
        *,
        verify: bool,
        named: str,
    ) -> None:
        self.store = store
        self.state = state
        self.shared = shared
        self.verify = verify
        self.kept = 0
        self.broken = 0
        self._named = OutputsKey(named)
        self._stamps: dict[str | None, Stamp] = {}

    @property
    def key(self) -> str:
        """The name of the records kept so far, in order."""
        return self._named.hexdigest()

    def check(self, runs: Sequence[RunSpec], start: int) -> list[int]:
        """Check runs ``start ..`` of the sweep; return the positions of those to compute."""
        todo: list[int] = []
        for i, spec in enumerate(runs, start=start):
            try:
                head = self.store.head(run_key(self.shared, spec))
            except ValidationError:
                head, self.broken = None, self.broken + 1
            if head is None or self.verify or head.result.status not in ("ok", "failed"):
                todo.append(i)
                continue
            now = {}
            for role, path in input_files(spec).items():
                if path not in self._stamps:
                    if len(self._stamps) > _STAMPS_KEPT:
                        self._stamps.clear()
                    self._stamps[path] = stamp(path)
                now[role] = self._stamps[path]
            if head.current(now):
                self.state.finish(RunSummary.kept(i, head, 0.0))
                self._named.add(head.key, head.result.digest, head.session)
                self.kept += 1
            else:
                todo.append(i)
        return todo


class RunIntake:
    """The runs of a sweep as they are read, in order; those to compute handed to the plan.

    Parameters
    ----------
    source : Manifest or RunReader
        Runs already read, or a reader (read here, in a thread).
    state : SweepState
        Grown as runs come.
    check : StoredCheck, optional
        With ``--resume``: which runs keep their stored result.
    say : callable
        Writes a line for the user.
    """

    def __init__(
        self,
        source: Manifest | RunReader,
        state: SweepState,
        check: StoredCheck | None,
        *,
        say: Callable[[str], None],
    ) -> None:
        self.settings = source.settings
        self.source = source.source
        self.state = state
        self.check = check
        self.say = say
        #: Every run read so far, in order.
        self.runs: list[RunSpec] = []
        #: Positions handed out to compute, so far.
        self.todo: list[int] = []
        self.done = False
        self.started = time.monotonic()
        self._said = self.started
        self._stop = threading.Event()
        self._queue: queue.SimpleQueue[list[RunSpec] | BaseException | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        if isinstance(source, Manifest):
            self._queue.put(list(source.runs))
            self._queue.put(None)
            self._streamed = False
        else:
            self._thread = threading.Thread(
                target=self._read, args=(source,), name="robot-msgs-read-runs", daemon=True
            )
            self._thread.start()
            self._streamed = True

    def _read(self, reader: RunReader) -> None:
        """Read every run (in the thread); hand them over in batches, then ``None``."""
        batch: list[RunSpec] = []
        last = time.monotonic()
        try:
            for run in reader:
                batch.append(run)
                if len(batch) >= BATCH_RUNS or time.monotonic() - last >= BATCH_S:
                    self._queue.put(batch)
                    batch, last = [], time.monotonic()
                if self._stop.is_set():
                    return
            self._queue.put(batch)
        except Exception as err:  # noqa: BLE001 - raised again in the sweep's thread
            self._queue.put(err)
        self._queue.put(None)

    def _take(self, item: list[RunSpec] | BaseException | None) -> list[int]:
        if item is None:
            self.done = True
            took = time.monotonic() - self.started
            if self._streamed and took >= BATCH_S:  # said when it took time
                self.say(f"bench: read {counted(len(self.runs), 'run')} in {took:.1f} s")
            return []
        if isinstance(item, BaseException):
            self.done = True
            raise item
        start = len(self.runs)
        self.runs += item
        self.state.grow(len(self.runs))
        fresh = (
            list(range(start, len(self.runs)))
            if self.check is None
            else self.check.check(item, start)
        )
        self.todo += fresh
        return fresh

    def poll(self) -> tuple[list[int], bool]:
        """Take the runs read since the last call: those to compute, and whether more come.

        Never waits; says how far the reading is every :data:`REPORT_S`.
        """
        fresh: list[int] = []
        while not self.done:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            fresh += self._take(item)
        self._report()
        return fresh, not self.done

    def wait(self, *, until_work: bool) -> list[int]:
        """Take runs as they are read until one is to compute (``until_work``) or all are read."""
        fresh: list[int] = []
        while not self.done and not (until_work and fresh):
            try:
                item = self._queue.get(timeout=1.0)
            except queue.Empty:
                self._report()
                continue
            fresh += self._take(item)
            self._report()
        return fresh

    def _report(self) -> None:
        now = time.monotonic()
        if self.done or now - self._said < REPORT_S:
            return
        self._said = now
        kept = "" if self.check is None else f", {self.check.kept} stored results unchanged"
        self.say(
            f"bench: reading the runs: {len(self.runs)} read in {now - self.started:.0f} s"
            f"{kept}, {len(self.todo)} to compute so far"
        )

    def manifest(self) -> Manifest:
        """Every run, once all are read."""
        if not self.done:
            msg = "the runs are still being read"
            raise RuntimeError(msg)
        return Manifest(runs=tuple(self.runs), settings=self.settings, source=self.source)

    def close(self) -> None:
        """Stop the reading thread (the sweep ended early) and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30.0)
