r"""A dependency-free progress line on stderr: runs done, failed, throughput and ETA.

On a terminal the line is redrawn in place (``\r``) at most every ``refresh_s``; in a
log file (not a TTY) a full line is written every ``log_every_s`` so logs stay short.
The first line is written at once, before any run has finished.

**Throughput**, the one rate every line and summary shows, is measured, never guessed:
runs finished per second *since the first result arrived*, not counting that first
result's runs, once results have come for at least :data:`MIN_SPAN_S`. WHY not since
the start: the start pays once for what the rest does not (worker processes importing
NumPy, a cluster starting); counted in, it made the first ETA of a 96 s sweep read
3:00:30. WHY a least span: the first results of parallel workers arrive together (two
of them 0.1 ms apart read as 7000 runs/s). Until then there is no throughput and no
ETA; :attr:`Progress.startup_s` says how long the first result took.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from typing_extensions import Self

__all__ = ["MIN_SPAN_S", "STAGE_AFTER_S", "Progress", "Stage", "format_duration"]

#: Seconds of results, after the first, before a throughput is shown.
MIN_SPAN_S = 1.0
#: Seconds a step runs before :class:`Stage` says what it is doing.
STAGE_AFTER_S = 2.0


def format_duration(seconds: float) -> str:
    """``H:MM:SS`` for a duration, ``--:--`` when unknown.

    Examples
    --------
    >>> format_duration(3725.2), format_duration(float("nan"))
    ('1:02:05', '--:--')
    """
    if not math.isfinite(seconds):
        return "--:--"
    total = round(seconds)
    return f"{total // 3600}:{total % 3600 // 60:02d}:{total % 60:02d}"


class Progress:
    """Count runs as they finish and show ``done/total``, failures, throughput and ETA.

    Parameters
    ----------
    total : int
        Runs to compute in this session (reused results are not counted).
    stream : text stream, optional
        Where to write (default ``sys.stderr``); ``None`` keeps the counts silently.
    label : str
        Shown first on the line.
    clock : callable
        Monotonic seconds (injectable for tests).
    more : bool
        More runs may come than ``total`` (runs still being read): shown as ``total+``.

    Examples
    --------
    >>> import io
    >>> t = iter([0.0, 2.0, 6.0])
    >>> p = Progress(10, stream=io.StringIO(), clock=lambda: next(t))
    >>> p.advance(2)  # the first result, 2 s after the start: no throughput yet
    >>> p.line()
    'bench 2/10 runs  0 failed  -- runs/s  ETA --:--'
    >>> p.advance(4, failed=1)  # 4 more runs in the 4 s since the first result
    >>> p.line(), p.throughput, p.startup_s
    ('bench 6/10 runs  1 failed  1.00 runs/s  ETA 0:00:04', 1.0, 2.0)

    Runs not evaluated (lost to the infrastructure, not stored) are counted apart from
    those that failed, and a note (a stall) ends the line until it is cleared:

    >>> p = Progress(10, stream=None, clock=lambda: 0.0)
    >>> p.advance(3, lost=2)
    >>> p.note = "no worker on dask for 4 s"
    >>> p.line()
    'bench 3/10 runs  0 failed  2 not evaluated  -- runs/s  ETA --:--  no worker on dask for 4 s'
    """

    def __init__(
        self,
        total: int,
        *,
        stream: TextIO | None = sys.stderr,
        label: str = "bench",
        refresh_s: float = 0.2,
        log_every_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        more: bool = False,
    ) -> None:
        self.total = total
        self.done = 0
        self.failed = 0
        self.lost = 0
        #: Said at the end of the line until cleared (a stall: no worker, no result).
        self.note = ""
        #: More runs may come (still being read): the total is shown as ``N+``.
        self.more = more
        self.stream = stream
        self.label = label
        self.clock = clock
        self.start = clock()
        self.tty = bool(stream is not None and stream.isatty())
        self.interval = refresh_s if self.tty else log_every_s
        self.last_shown = self.start
        self._first: tuple[float, int] | None = None
        self._last_at = self.start
        self._skipped = 0  # runs ended without running (a stopped sweep): not in the rate
        self._show(self.start)

    def advance(self, done: int = 1, *, failed: int = 0, lost: int = 0) -> None:
        """Count ``done`` finished runs: ``failed`` of them failed, ``lost`` not evaluated."""
        now = self.clock()
        self.done += done
        self.failed += failed
        self.lost += lost
        self._last_at = now
        if self._first is None:
            self._first = (now, self.done)
        if now - self.last_shown >= self.interval or self.done >= self.total:
            self.last_shown = now
            self._show(now)

    @property
    def elapsed_s(self) -> float:
        """Seconds since the progress started."""
        return self.clock() - self.start

    @property
    def startup_s(self) -> float:
        """Seconds from the start to the first result (NaN before it)."""
        return math.nan if self._first is None else self._first[0] - self.start

    @property
    def throughput(self) -> float:
        """Runs finished per second since the first result, as of the last one (NaN before)."""
        return self._rate(self._last_at)

    def skip(self, count: int) -> None:
        """Count ``count`` runs ended without running (the sweep stopped): not evaluated.

        They are not in the throughput, which stays the rate of the runs that ran.
        """
        self._skipped += count
        self.done += count
        self.lost += count
        self.show()

    def _rate(self, now: float) -> float:
        done = self.done - self._skipped
        if self._first is None or now - self._first[0] < MIN_SPAN_S or done <= self._first[1]:
            return math.nan
        return (done - self._first[1]) / (now - self._first[0])

    def line(self, now: float | None = None) -> str:
        """Return the current progress text.

        Once every run is done the line says how long they took, not an ETA, and a rate
        only where one was measured:

        >>> t = iter([0.0, 2.4])
        >>> p = Progress(18, stream=None, clock=lambda: next(t))
        >>> p.advance(18)  # all at once: no rate measured
        >>> p.line()
        'bench 18/18 runs  0 failed  done in 0:00:02'
        """
        at = self._last_at if now is None else now
        rate = self._rate(at)
        lost = f"{self.lost} not evaluated  " if self.lost else ""
        note = f"  {self.note}" if self.note else ""
        head = (
            f"{self.label} {self.done}/{self.total}{'+' if self.more else ''} runs  "
            f"{self.failed} failed  {lost}"
        )
        if self.done >= self.total and not self.more:
            measured = f"{rate:.2f} runs/s  " if math.isfinite(rate) else ""
            return f"{head}{measured}done in {format_duration(at - self.start)}{note}"
        eta = (self.total - self.done) / rate if rate > 0 else math.nan
        shown = f"{rate:.2f}" if math.isfinite(rate) else "--"
        return f"{head}{shown} runs/s  ETA {format_duration(eta)}{note}"

    def show(self, *, now: bool = True) -> None:
        """Write the line now (a note changed), or if it is time to (``now=False``)."""
        at = self.clock()
        if now or at - self.last_shown >= self.interval:
            self.last_shown = at
            self._show(at)

    def _show(self, now: float) -> None:
        if self.stream is None:
            return
        text = self.line(now)
        if self.tty:
            self.stream.write(f"\r{text}\x1b[K")
        else:
            self.stream.write(f"{text}\n")
        self.stream.flush()

    def close(self) -> None:
        """End the in-place line on a terminal."""
        if self.stream is not None and self.tty:
            self.stream.write("\n")
            self.stream.flush()


class Stage:
    r"""Say on a terminal what one long step is doing, once it has run ``after_s``.

    ``after_s`` defaults to :data:`STAGE_AFTER_S` (2 s).

    The commands wrap each step that can take seconds (an evaluation searching a clock
    offset, a figure of 10^6 poses) in ``with Stage("ape: drawing fig.png"):``. A step
    that ends sooner says nothing; a longer one shows ``ape: drawing fig.png ...`` after
    ``after_s`` and, when it ends, ``ape: drawing fig.png: done in 0:00:12`` in its place.
    Nothing is written when ``stream`` is ``None`` (``--quiet``) or not a terminal (a log
    or a pipe keeps only what the command prints).

    Examples
    --------
    >>> import io
    >>> class Tty(io.StringIO):
    ...     def isatty(self) -> bool:
    ...         return True
    >>> out = Tty()
    >>> with Stage("ape: drawing fig.png", stream=out, after_s=0.0) as step:
    ...     _ = step.shown.wait(5)
    >>> out.getvalue().split("\r")[-1]
    'ape: drawing fig.png: done in 0:00:00\x1b[K\n'
    >>> with Stage("quick", stream=out) as step:
    ...     pass
    >>> step.shown.is_set()
    False
    """

    def __init__(
        self,
        text: str,
        *,
        stream: TextIO | None = sys.stderr,
        after_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.text = text
        self.stream = stream if stream is not None and stream.isatty() else None
        self.after_s = STAGE_AFTER_S if after_s is None else after_s
        self.clock = clock
        #: Set once the line is on the terminal.
        self.shown = threading.Event()
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._start = clock()

    def _show(self) -> None:
        with self._lock:
            if self.stream is None or self._timer is None:
                return  # ended meanwhile
            self.stream.write(f"\r{self.text} ...\x1b[K")
            self.stream.flush()
            self.shown.set()

    def __enter__(self) -> Self:
        self._start = self.clock()
        if self.stream is not None:
            self._timer = threading.Timer(self.after_s, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self._lock:
            timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        if self.stream is not None and self.shown.is_set():
            end = "done in " + format_duration(self.clock() - self._start)
            self.stream.write(f"\r{self.text}: {end if exc is None else 'stopped'}\x1b[K\n")
            self.stream.flush()
