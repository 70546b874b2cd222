"""The progress line: counts, rate and ETA; redrawn on a terminal, periodic lines in a log."""

from __future__ import annotations

import io

from robot_msgs.progress import Progress, format_duration


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_log_output_writes_a_line_at_most_every_interval_and_at_the_end() -> None:
    clock, out = _Clock(), io.StringIO()
    p = Progress(4, stream=out, clock=clock, log_every_s=10.0)
    for step in (1.0, 2.0, 12.0, 13.0):  # shown at 1 (first), 12 (10 s later), 13 (last)
        clock.now = 100.0 + step
        p.advance(failed=step == 2.0)
    p.close()
    assert out.getvalue().splitlines() == [
        "bench 1/4 runs  0 failed  1.00 runs/s  ETA 0:00:03",
        "bench 3/4 runs  1 failed  0.25 runs/s  ETA 0:00:04",
        "bench 4/4 runs  1 failed  0.31 runs/s  ETA 0:00:00",
    ]


def test_terminal_output_redraws_one_line_and_ends_it() -> None:
    clock, out = _Clock(), _Tty()
    p = Progress(2, stream=out, clock=clock)
    clock.now = 101.0
    p.advance()
    clock.now = 102.0
    p.advance()
    p.close()
    assert out.getvalue() == (
        "\rbench 1/2 runs  0 failed  1.00 runs/s  ETA 0:00:01\x1b[K"
        "\rbench 2/2 runs  0 failed  1.00 runs/s  ETA 0:00:00\x1b[K\n"
    )


def test_silent_progress_still_counts() -> None:
    p = Progress(3, stream=None)
    p.advance(failed=True)
    p.close()
    assert (p.done, p.failed) == (1, 1)


def test_durations_are_h_mm_ss() -> None:
    assert format_duration(0.4) == "0:00:00"
    assert format_duration(59.5) == "0:01:00"
    assert format_duration(float("inf")) == "--:--"
