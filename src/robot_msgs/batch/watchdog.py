"""Never wait in silence: notice a cluster without workers, or workers that return nothing.

WHY: Dask workers exit when their scheduler dies. A scheduler killed and restarted 3 s
later took the client back, which then waited with no worker, printing nothing, with no
timeout (11.5 min at ``bench 162/600`` until workers were started by hand, measured).

Executors say every second that nothing came back
(:class:`~robot_msgs.batch.executors.Waiting`, with the worker threads they have); the
:class:`Watchdog` turns that into what the user sees and when the sweep gives up:

- **no worker** (none connected, or the scheduler away): said at once, and the sweep
  stops after ``timeout_s`` without one;
- **no result** with workers: said once nothing has come back for ``notice_s`` and for
  ten times the slowest chunk so far, and the sweep stops once nothing has come back for
  ``timeout_s`` (and ten times the slowest chunk: a sweep of long runs is not a stall).

A sweep that stops so is incomplete: its runs not finished are ``lost`` with the reason,
and ``--resume`` computes them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["NOTICE_S", "STALL_TIMEOUT_S", "Verdict", "Watchdog"]

#: Seconds without a result, workers present, before the progress line says so.
NOTICE_S = 30.0
#: Seconds without a worker, or without a result, before the sweep stops (default).
STALL_TIMEOUT_S = 600.0
#: A chunk may take this many times the slowest so far before nothing back is a stall.
_SLOW_FACTOR = 10.0


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the watchdog says now.

    ``note`` for the progress line ("" when all is well), ``stop`` the reason to stop the
    sweep ("" to go on), ``what`` the condition without its duration (for a log line each
    time it changes).
    """

    note: str = ""
    stop: str = ""
    what: str = ""


class Watchdog:
    """Judge the silences of an executor (the module says how).

    Parameters
    ----------
    timeout_s : float
        Seconds without a worker, or without a result, before the sweep stops; 0: never.
    notice_s : float
        Seconds without a result, with workers, before it is said.
    where : str
        What runs the chunks, for the messages (``dask (tcp://10.0.0.5:8786)``).
    clock : callable
        Monotonic seconds (injectable for tests).

    Examples
    --------
    >>> t = iter([0.0, 1.0, 6.0, 61.0])  # started, then three silences of the executor
    >>> dog = Watchdog(60.0, where="dask", clock=lambda: next(t))
    >>> _ = dog.waiting(workers=0, slowest_s=0.0)  # the first: from now on
    >>> dog.waiting(workers=0, slowest_s=0.0).note
    'no worker on dask for 5 s; stopping at 60 s (--stall-timeout)'
    >>> dog.waiting(workers=0, slowest_s=0.0).stop
    'no worker on dask for 60 s (--stall-timeout 60)'
    """

    def __init__(
        self,
        timeout_s: float = STALL_TIMEOUT_S,
        *,
        notice_s: float = NOTICE_S,
        where: str = "the executor",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.timeout_s = timeout_s
        self.notice_s = notice_s
        self.where = where
        self.clock = clock
        self._last_result = clock()
        self._no_worker_since: float | None = None

    def result(self) -> None:
        """Count a chunk that came back (done or lost): the executor is making progress."""
        self._last_result = self.clock()
        self._no_worker_since = None

    def _stop_at(self) -> str:
        if not self.timeout_s:
            return "waiting (--stall-timeout 0: no limit)"
        return f"stopping at {self.timeout_s:.0f} s (--stall-timeout)"

    def waiting(self, *, workers: int, slowest_s: float, detail: str = "") -> Verdict:
        """Judge a silence: ``workers`` threads now, the slowest chunk so far took ``slowest_s``."""
        now = self.clock()
        if workers <= 0:
            if self._no_worker_since is None:
                self._no_worker_since = now
            waited = now - self._no_worker_since
            what = detail or f"no worker on {self.where}"
            if self.timeout_s and waited >= self.timeout_s:
                return Verdict(
                    stop=f"{what} for {waited:.0f} s (--stall-timeout {self.timeout_s:g})",
                    what=what,
                )
            return Verdict(note=f"{what} for {waited:.0f} s; {self._stop_at()}", what=what)
        self._no_worker_since = None
        quiet = now - self._last_result
        patience = _SLOW_FACTOR * slowest_s
        what = f"no result from {workers} worker threads"
        text = f"no result for {int(quiet)} s from {workers} worker threads"
        limit = max(self.timeout_s, patience)
        if self.timeout_s and quiet >= limit:
            return Verdict(stop=f"{text} (--stall-timeout {self.timeout_s:g})", what=what)
        if quiet < max(self.notice_s, patience):
            return Verdict()
        stop = self._stop_at() if patience <= self.timeout_s else f"stopping at {limit:.0f} s"
        return Verdict(note=f"{text}; {stop}", what=what)
