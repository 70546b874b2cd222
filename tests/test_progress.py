"""The progress line: counts, throughput and ETA; redrawn on a terminal, periodic lines in a log."""

from __future__ import annotations

import io

from robot_msgs.progress import Progress, format_duration
from tests.terminal import Terminal


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_log_output_writes_a_line_at_once_then_at_most_every_interval_and_at_the_end() -> None:
    clock, out = _Clock(), io.StringIO()
    p = Progress(4, stream=out, clock=clock, log_every_s=10.0)
    for step in (1.0, 2.0, 11.0, 13.0):  # shown at 0 (start), 11 (10 s later), 13 (last)
        clock.now = 100.0 + step
        p.advance(failed=int(step == 2.0))
    p.close()
    # Throughput counts the runs after the first result (at 101 s): 2 runs in the 10 s to
    # 111 s is 0.20 runs/s, 1 run left: 5 s; at 113 s, 3 runs in 12 s: 0.25 runs/s.
    assert out.getvalue().splitlines() == [
        "bench 0/4 runs  0 failed  -- runs/s  ETA --:--",
        "bench 3/4 runs  1 failed  0.20 runs/s  ETA 0:00:05",
        "bench 4/4 runs  1 failed  0.25 runs/s  done in 0:00:13",  # 100 s to 113 s
    ]
    assert (p.startup_s, p.throughput) == (1.0, 0.25)


def test_terminal_output_redraws_one_line_and_ends_it() -> None:
    clock, out = _Clock(), Terminal()
    p = Progress(2, stream=out, clock=clock)
    clock.now = 101.0
    p.advance()
    clock.now = 102.0
    p.advance()
    p.close()
    assert out.getvalue() == (
        "\rbench 0/2 runs  0 failed  -- runs/s  ETA --:--\x1b[K"
        "\rbench 1/2 runs  0 failed  -- runs/s  ETA --:--\x1b[K"  # one result: no rate yet
        "\rbench 2/2 runs  0 failed  1.00 runs/s  done in 0:00:02\x1b[K\n"
    )


def test_chunks_of_runs_count_at_once_and_the_start_up_is_not_in_the_throughput() -> None:
    clock, out = _Clock(), io.StringIO()
    p = Progress(1000, stream=out, clock=clock)
    clock.now = 130.0  # a cluster took 30 s to start: the first chunk of 100 runs
    p.advance(100)
    assert p.line().endswith("--:--")  # no ETA from one result
    clock.now = 140.0  # then 200 runs in 10 s
    p.advance(200, failed=3)
    # 20 runs/s, 700 left: 35 s (counting the start-up would say 300 runs in 40 s, 93 s).
    assert p.line() == "bench 300/1000 runs  3 failed  20.00 runs/s  ETA 0:00:35"


def test_silent_progress_still_counts() -> None:
    p = Progress(3, stream=None)
    p.advance(failed=1)
    p.close()
    assert (p.done, p.failed) == (1, 1)


def test_durations_are_h_mm_ss() -> None:
    assert format_duration(0.4) == "0:00:00"
    assert format_duration(59.5) == "0:01:00"
    assert format_duration(float("inf")) == "--:--"


def test_a_finished_line_says_how_long_and_no_unmeasured_rate() -> None:
    """All results at once (a small sweep): no ``-- runs/s`` and no ETA once done."""
    clock, out = _Clock(), io.StringIO()
    p = Progress(18, stream=out, clock=clock)
    clock.now = 100.9
    p.advance(18)
    last = out.getvalue().splitlines()[-1]
    assert last == "bench 18/18 runs  0 failed  done in 0:00:01"
