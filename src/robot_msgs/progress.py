r"""A dependency-free progress line on stderr: runs done, failed, rate and ETA.

On a terminal the line is redrawn in place (``\r``) at most every ``refresh_s``; in a
log file (not a TTY) a full line is written every ``log_every_s`` so logs stay short.
"""

from __future__ import annotations

import math
import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Progress", "format_duration"]


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
    """Count runs as they finish and show ``done/total``, failures, rate and ETA.

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

    Examples
    --------
    >>> import io
    >>> t = iter([0.0, 2.0, 2.0])
    >>> p = Progress(4, stream=io.StringIO(), clock=lambda: next(t))
    >>> p.advance(failed=True)
    >>> p.line()
    'bench 1/4 runs  1 failed  0.50 runs/s  ETA 0:00:06'
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
    ) -> None:
        self.total = total
        self.done = 0
        self.failed = 0
        self.stream = stream
        self.label = label
        self.clock = clock
        self.start = clock()
        self.tty = bool(stream is not None and stream.isatty())
        self.interval = refresh_s if self.tty else log_every_s
        self.last_shown = -float("inf")

    def advance(self, *, failed: bool = False) -> None:
        """Count one finished run (``failed``: it could not be evaluated, or failed)."""
        self.done += 1
        self.failed += failed
        now = self.clock()
        if now - self.last_shown >= self.interval or self.done == self.total:
            self.last_shown = now
            self._show(now)

    @property
    def elapsed_s(self) -> float:
        """Seconds since the progress started."""
        return self.clock() - self.start

    def line(self, now: float | None = None) -> str:
        """Return the current progress text."""
        now = self.clock() if now is None else now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else float("nan")
        eta = (self.total - self.done) / rate if rate > 0 else float("nan")
        return (
            f"{self.label} {self.done}/{self.total} runs  {self.failed} failed  "
            f"{rate:.2f} runs/s  ETA {format_duration(eta)}"
        )

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
        if self.stream is not None and self.tty and self.done:
            self.stream.write("\n")
            self.stream.flush()
