"""The client's side of a sweep: which runs go in which chunk, and what became of each run.

Chunk sizes come from measurement, never from a guess. Until a chunk has come back,
each worker slot gets one chunk of one run; from then on a chunk holds ``target_s``
seconds of work at the measured seconds per run (every finished chunk's wall time in
its worker over its runs), and never more than a share of what is left, so that every
slot gets work until the end and the last chunks finish together.

Retries are counted here, the same for every executor. A chunk whose worker died is
split: its runs go back one by one as *suspects* (the records its worker wrote before
dying are found again by their digest and kept, not recomputed), and only a run whose
worker dies while it runs *alone* is charged: alone in its worker process (the local
executor gives each worker one chunk), or, on Dask, where a dying worker takes every
task it holds, as the only suspect in flight. After ``retries + 1`` such deaths a run
is ``crashed``. A chunk lost with the scheduler or the connection goes back whole, each
of its runs charged once; after ``retries + 1`` losses a run is ``lost``. When the
executor cannot go on at all, every run not finished is ``lost`` with the reason
(:meth:`ChunkPlan.abandon`).

A record that cannot be stored (a full disk, a read-only file system) stops the sweep:
no chunk is handed out after it (:attr:`ChunkPlan.stopped` says why), the chunks in
flight come back (each stops at its own first failed write), and the sweep ends every
run left as ``lost``: nothing is evaluated that cannot be kept.

How long a chunk is, by default, depends on the cluster's size (:func:`default_chunk_s`):
every chunk costs the Dask scheduler a few milliseconds of CPU, so many worker threads
with short chunks would ask it for more tasks a second than it can hand out.

Per run the client keeps a few bytes in :class:`SweepState` (NumPy arrays indexed by the
run's position in the manifest), plus the error of each run that did not finish.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, deque
from typing import TYPE_CHECKING, Any

import numpy as np

from robot_msgs.batch.executors import ChunkDone, ChunkLost, Waiting
from robot_msgs.batch.tasks import INFRASTRUCTURE, STATUSES
from robot_msgs.batch.worker import NOT_STORED, Chunk, ChunkResult, RunSummary

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from robot_msgs.batch.executors import Outcome
    from robot_msgs.batch.tasks import Status
    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "MAX_CHUNK",
    "SCHEDULER_SHARE",
    "TARGET_CHUNK_S",
    "TASK_COST_S",
    "ChunkPlan",
    "SweepState",
    "default_chunk_s",
]

#: The least seconds of measured work a chunk aims at: Dask's per-task cost (about 2 ms
#: on the client, a few on the scheduler) is then under 1 % of the work.
TARGET_CHUNK_S = 1.0
#: Seconds of the Dask scheduler's CPU one task costs (chunk submitted, run, released),
#: measured on a ``dask scheduler`` process: ``benchmarks/bench_batch.py`` part 7.
TASK_COST_S = 0.003
#: The share of the scheduler's time that the default chunk size lets the tasks take.
SCHEDULER_SHARE = 0.5


def default_chunk_s(slots: int) -> float:
    """Seconds of work a chunk aims at on ``slots`` worker threads, unless one is chosen.

    :data:`TARGET_CHUNK_S`, or longer when ``slots`` chunks of that length would ask the
    scheduler for more than :data:`SCHEDULER_SHARE` of its time
    (``slots * TASK_COST_S / chunk_s`` seconds of its CPU a second).

    Examples
    --------
    >>> default_chunk_s(16), default_chunk_s(1600)
    (1.0, 9.6)
    """
    return max(TARGET_CHUNK_S, round(slots * TASK_COST_S / SCHEDULER_SHARE, 3))


#: The most runs in one chunk, however cheap they are (bounds a chunk's summaries).
MAX_CHUNK = 5000
_PENDING = 0
_CODES: dict[str, int] = {status: k for k, status in enumerate(STATUSES, start=1)}


class SweepState:
    """What became of every run: status, success, reference, reuse, and errors by position.

    Examples
    --------
    >>> state = SweepState(3)
    >>> state.finish(RunSummary.unfinished(1, "failed", "FormatError", "bad"))
    >>> state.status_of(1), state.status_of(0), state.counts()["failed"], state.errors[1]
    ('failed', None, 1, ('failed', 'FormatError', 'bad'))
    """

    def __init__(self, n: int) -> None:
        self.n = 0
        self._status = np.zeros(0, dtype=np.int8)
        self._success = np.zeros(0, dtype=np.int8)
        self._has_reference = np.zeros(0, dtype=bool)
        self._reused = np.zeros(0, dtype=bool)
        self.grow(n)
        #: Position -> (status, error type, error) of every run that is not ``ok``.
        self.errors: dict[int, tuple[str, str, str]] = {}
        #: Why evaluated runs failed as runs (their reports' ``failure``), counted.
        self.run_failures: Counter[str] = Counter()
        self.eval_cpu_s = 0.0
        self.n_evaluated = 0

    def grow(self, n: int) -> None:
        """Make room for ``n`` runs (runs read while the sweep runs), the new ones pending.

        Capacity doubles, so growing run by run costs a copy per doubling.
        """
        if n > len(self._status):
            room = max(n, 2 * len(self._status))
            grown = [
                (self._status, 0),
                (self._success, -1),
                (self._has_reference, False),
                (self._reused, False),
            ]
            self._status, self._success, self._has_reference, self._reused = (
                np.concatenate([old, np.full(room - len(old), fill, dtype=old.dtype)])
                for old, fill in grown
            )
        self.n = max(self.n, n)

    @property
    def status(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Each run's status code (0: pending), by position: int8, shape (n,)."""
        return self._status[: self.n]

    @property
    def success(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """Each run's success: 1, 0, or -1 when unknown (not evaluated): int8, shape (n,)."""
        return self._success[: self.n]

    @property
    def has_reference(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Whether each run has comparisons: bool, shape (n,)."""
        return self._has_reference[: self.n]

    @property
    def reused(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Whether each run's stored result was kept: bool, shape (n,)."""
        return self._reused[: self.n]

    def finish(self, summary: RunSummary) -> None:
        """Record the outcome of one run (each run ends once)."""
        i = summary.position
        if not 0 <= i < self.n:
            msg = f"Expected the position of one of the {self.n} runs, got {i}"
            raise IndexError(msg)
        self._status[i] = _CODES[summary.status]
        self._success[i] = -1 if summary.success is None else int(summary.success)
        self._has_reference[i] = summary.has_reference
        self._reused[i] = summary.reused
        if summary.status == "ok":
            self.errors.pop(i, None)
        else:
            self.errors[i] = (summary.status, summary.error_type, summary.error)
        if summary.success is False:
            self.run_failures[summary.failure] += 1
        if not summary.reused and summary.status in ("ok", "failed"):
            self.eval_cpu_s += summary.cpu_s
            self.n_evaluated += 1

    def judged_again(self, i: int, before: str, after: str) -> None:
        """Record that the run at ``i`` was judged again: its failure ``before``, now ``after``.

        ``''`` is a success. WHY: a run without a reference is judged again against the
        span its sequence's runs show once they are all evaluated
        (:mod:`robot_msgs.runs.spans`), after its outcome was recorded here.
        """
        if before:
            self.run_failures[before] -= 1
            if self.run_failures[before] <= 0:
                del self.run_failures[before]
        if after:
            self.run_failures[after] += 1
        self._success[i] = int(not after)

    def status_of(self, i: int) -> Status | None:
        """Return the run's status, ``None`` while it is not finished."""
        code = int(self.status[i])
        return None if code == _PENDING else STATUSES[code - 1]

    def counts(self) -> Counter[str]:
        """Count the runs by status (``pending`` for the unfinished)."""
        codes = np.bincount(self.status, minlength=len(STATUSES) + 1)
        out: Counter[str] = Counter({"pending": int(codes[_PENDING])})
        out.update({status: int(codes[_CODES[status]]) for status in STATUSES})
        return out

    @property
    def n_infrastructure(self) -> int:
        """Runs that did not finish for a reason outside them (crashed, lost)."""
        counts = self.counts()
        return sum(counts[s] for s in INFRASTRUCTURE)


class ChunkPlan:
    """Hand out chunks of the runs to compute and take back their outcomes.

    Parameters
    ----------
    runs : sequence of RunSpec
        Every run of the manifest (chunks refer to them by position).
    todo : sequence of int
        Positions of the runs to compute, in the order to compute them.
    state : SweepState
        Where outcomes are recorded.
    retries : int
        Re-runs of a run lost to its worker dying alone, or to the infrastructure.
    slots : int
        Chunks the executor runs at once.
    isolated : bool
        Whether each chunk runs alone in its worker process (the local executor), so a
        death is its chunk's own; on Dask a dying worker takes every task it holds.
    target_s : float, optional
        Seconds of measured work a chunk aims at; default :func:`default_chunk_s` of
        the current ``slots``.
    source : callable, optional
        While runs are still being read: returns the positions of the runs read since it
        was last called that are to be computed, and whether more may come (``runs``
        and ``state`` have grown by then). The plan asks it as it hands out chunks.

    Examples
    --------
    >>> from robot_msgs.runs import RunSpec
    >>> runs = [RunSpec(name=f"r{i}") for i in range(10)]
    >>> plan = ChunkPlan(runs, range(10), SweepState(10), retries=1, slots=2)
    >>> [len(plan.next_chunk()) for _ in range(2)]  # nothing measured yet: one run each
    [1, 1]
    """

    def __init__(
        self,
        runs: Sequence[RunSpec],
        todo: Sequence[int],
        state: SweepState,
        *,
        retries: int,
        slots: int = 1,
        isolated: bool = True,
        target_s: float | None = None,
        source: Callable[[], tuple[Sequence[int], bool]] | None = None,
    ) -> None:
        self.runs = runs
        self.isolated = isolated
        self.suspects: set[int] = set()
        self.state = state
        self.retries = retries
        self.slots = max(1, slots)
        self.chosen_s = target_s
        # The runs not handed out yet: an array and a cursor (8 bytes a run, not a tuple),
        # then runs given back, which go first.
        self._todo = array("q", todo)
        self._cursor = 0
        self._source = source
        self.back: deque[tuple[int, int]] = deque()
        self.alone: deque[tuple[int, int]] = deque()
        self.inflight: dict[int, Chunk] = {}
        self.charged: Counter[int] = Counter()
        self.measured_s = 0.0
        self.measured_runs = 0
        #: The longest a chunk took in its worker, seconds (0 before the first).
        self.slowest_s = 0.0
        #: Why no chunk is handed out any more (a record could not be stored), or "".
        self.stopped = ""
        self._numbers = 0

    @property
    def target_s(self) -> float:
        """Seconds of measured work a chunk aims at now (chosen, or by the slots)."""
        return self.chosen_s if self.chosen_s is not None else default_chunk_s(self.slots)

    @property
    def pending(self) -> bool:
        """Whether runs may still come although none waits now (runs still being read).

        WHY not once stopped: :meth:`next_chunk` hands out nothing then, and an executor
        that waits while runs are pending (``--serial``) slept forever when a record could
        not be stored before the last run was read (a hang seen in CI).
        """
        return self._source is not None and not self.stopped

    def _read(self) -> None:
        """Take the runs read since last asked, if runs are still being read."""
        if self._source is None:
            return
        fresh, more = self._source()
        self._todo.extend(fresh)
        if not more:
            self._source = None

    def drain(self, rest: Sequence[int]) -> None:
        """Take ``rest``, the last runs read to compute: no more will come."""
        self._todo.extend(rest)
        self._source = None

    @property
    def seconds_per_run(self) -> float:
        """Measured wall seconds a run takes in a worker (NaN before the first chunk)."""
        return self.measured_s / self.measured_runs if self.measured_runs else math.nan

    def chunk_size(self) -> int:
        """Size the next chunk: ``target_s`` of measured work, at most a share of what is left."""
        if not self.measured_runs:
            return 1
        per_run = self.seconds_per_run
        by_cost = self.target_s / per_run if per_run > 0 else MAX_CHUNK
        if self.pending:  # runs still being read: the end is not near
            return max(1, min(round(by_cost), MAX_CHUNK))
        share = math.ceil(self.waiting / (2 * self.slots))
        return max(1, min(round(by_cost), share, MAX_CHUNK))

    @property
    def waiting(self) -> int:
        """Runs not handed out yet (suspects aside)."""
        return len(self.back) + len(self._todo) - self._cursor

    def next_chunk(self) -> Chunk | None:
        """Return the next chunk to submit, or ``None`` when nothing waits (for now).

        A suspect (a run whose chunk's worker died) goes out alone; without
        ``isolated`` workers, only one suspect is in flight at a time.
        """
        if self.stopped:
            return None
        self._read()
        suspect = bool(self.alone) and (self.isolated or not self.suspects)
        if suspect:
            picked = [self.alone.popleft()]
        elif self.waiting:
            if not self.measured_runs and len(self.inflight) >= self.slots:
                return None  # one run a slot until a chunk has been measured
            size = self.chunk_size()
            picked = [self.back.popleft() for _ in range(min(size, len(self.back)))]
            take = min(size - len(picked), len(self._todo) - self._cursor)
            fresh = self._todo[self._cursor : self._cursor + take]
            self._cursor += take
            picked += [(int(i), 1) for i in fresh]
        else:
            return None
        chunk = Chunk(
            number=self._numbers,
            indices=tuple(i for i, _ in picked),
            runs=tuple(self.runs[i] for i, _ in picked),
            attempts=tuple(a for _, a in picked),
        )
        self._numbers += 1
        self.inflight[chunk.number] = chunk
        if suspect:
            self.suspects.add(chunk.number)
        return chunk

    @property
    def chunks(self) -> int:
        """How many chunks were handed out."""
        return self._numbers

    @property
    def finished(self) -> bool:
        """Whether nothing is waiting or in flight, and no run is still to be read."""
        return not (self.pending or self.waiting or self.alone or self.inflight)

    def take(self, outcome: Outcome) -> Sequence[RunSummary]:
        """Take an executor's outcome; return the runs that ended with it."""
        if isinstance(outcome, Waiting):
            return ()
        if isinstance(outcome, ChunkDone):
            if not isinstance(outcome.result, ChunkResult):
                msg = f"Expected a chunk's result, got {type(outcome.result).__name__}"
                raise TypeError(msg)
            return self.done(outcome.result)
        if isinstance(outcome, ChunkLost):
            return self.lost(outcome.number, outcome.status, outcome.error_type, outcome.error)
        return self.abandon(outcome.error_type, outcome.error)

    def done(self, result: ChunkResult) -> tuple[RunSummary, ...]:
        """Take a finished chunk's summaries (recorded in the state) and measure its cost.

        A run whose record could not be stored stops the plan (:attr:`stopped`).
        """
        chunk = self.inflight.pop(result.number)
        self.suspects.discard(result.number)
        self.measured_s += result.elapsed_s
        self.measured_runs += len(chunk)
        self.slowest_s = max(self.slowest_s, result.elapsed_s)
        for summary in result.summaries:
            self.state.finish(summary)
            if summary.error_type == NOT_STORED and not self.stopped:
                self.stopped = f"a run's record could not be stored: {summary.error}"
        return result.summaries

    def lost(self, number: int, status: Status, error_type: str, error: str) -> list[RunSummary]:
        """Take a chunk that did not finish; return the runs that end here (out of retries).

        ``crashed`` (its worker died): the culprit is known only when the chunk ran alone
        (one run, and on an ``isolated`` worker or as the one suspect in flight): that
        run is charged. Any other chunk is split and its runs go back as suspects,
        uncharged. ``lost`` (the scheduler, the connection): its runs go back
        together, each charged.
        """
        chunk = self.inflight.pop(number)
        suspect = number in self.suspects
        self.suspects.discard(number)
        items = list(zip(chunk.indices, chunk.attempts, strict=True))
        alone = len(items) == 1 and (suspect or self.isolated)
        if status == "crashed" and not alone:
            self.alone.extend((i, a + 1) for i, a in items)
            return []
        ended = []
        back = []
        for i, attempt in items:
            self.charged[i] += 1
            if self.charged[i] > self.retries:
                ended.append(self._end(i, status, error_type, error, self.charged[i]))
            else:
                back.append((i, attempt + 1))
        if status == "crashed" or suspect:
            self.alone.extend(back)  # behind the other suspects: each gets its turn
        else:
            self.back.extendleft(reversed(back))
        return ended

    def _end(self, i: int, status: Status, error_type: str, error: str, times: int) -> RunSummary:
        if status == "crashed":
            error = f"{error} ({times} times, the run alone on its worker)"
        summary = RunSummary.unfinished(i, status, error_type, error)
        self.state.finish(summary)
        return summary

    def abandon(self, error_type: str, error: str) -> list[RunSummary]:
        """End every run not finished as ``lost``: the executor cannot go on."""
        left = [i for chunk in self.inflight.values() for i in chunk.indices]
        left += [i for i, _ in self.alone] + [i for i, _ in self.back]
        left += list(self._todo[self._cursor :])
        self.inflight.clear()
        self.suspects.clear()
        self.alone.clear()
        self.back.clear()
        self._cursor = len(self._todo)
        ended = [RunSummary.unfinished(i, "lost", error_type, error) for i in left]
        for summary in ended:
            self.state.finish(summary)
        return ended
