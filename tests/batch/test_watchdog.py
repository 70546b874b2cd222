"""The watchdog: a cluster without workers is said at once and stops the sweep at its timeout."""

from __future__ import annotations

from robot_msgs.batch.watchdog import NOTICE_S, Watchdog


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_no_worker_is_said_at_the_first_silence_and_stops_the_sweep_at_the_timeout() -> None:
    clock = _Clock()
    dog = Watchdog(20.0, where="dask (tcp://h:1)", clock=clock)
    clock.now = 1.0
    first = dog.waiting(workers=0, slowest_s=0.5)
    assert first.note == "no worker on dask (tcp://h:1) for 0 s; stopping at 20 s (--stall-timeout)"
    assert (first.stop, first.what) == ("", "no worker on dask (tcp://h:1)")
    clock.now = 20.9
    assert not dog.waiting(workers=0, slowest_s=0.5).stop
    clock.now = 21.0
    assert dog.waiting(workers=0, slowest_s=0.5).stop == (
        "no worker on dask (tcp://h:1) for 20 s (--stall-timeout 20)"
    )


def test_what_the_executor_does_meanwhile_is_said_and_counts_as_no_worker() -> None:
    clock = _Clock()
    dog = Watchdog(10.0, where="dask", clock=clock)
    detail = "reconnecting to the Dask scheduler at tcp://h:1"
    assert dog.waiting(workers=0, slowest_s=0.0, detail=detail).what == detail
    clock.now = 4.0
    later = dog.waiting(workers=0, slowest_s=0.0)  # reconnected: still no worker
    assert later.note == "no worker on dask for 4 s; stopping at 10 s (--stall-timeout)"


def test_a_worker_or_a_result_ends_the_stall_and_its_count() -> None:
    clock = _Clock()
    dog = Watchdog(10.0, clock=clock)
    dog.waiting(workers=0, slowest_s=0.0)
    clock.now = 9.0
    assert dog.waiting(workers=2, slowest_s=0.0).note == ""  # a worker joined
    clock.now = 12.0
    assert dog.waiting(workers=0, slowest_s=0.0).note.endswith(
        "for 0 s; stopping at 10 s (--stall-timeout)"
    )
    dog.result()
    clock.now = 21.0
    assert dog.waiting(workers=0, slowest_s=0.0).stop == ""  # counted from its own start


def test_workers_without_a_result_are_said_after_the_notice_and_stop_at_the_timeout() -> None:
    clock = _Clock()
    dog = Watchdog(100.0, clock=clock)
    clock.now = NOTICE_S - 1
    assert dog.waiting(workers=4, slowest_s=1.0).note == ""
    clock.now = NOTICE_S
    noted = dog.waiting(workers=4, slowest_s=1.0)
    assert (
        noted.note
        == "no result for 30 s from 4 worker threads; stopping at 100 s (--stall-timeout)"
    )
    clock.now = 100.0
    assert dog.waiting(workers=4, slowest_s=1.0).stop == (
        "no result for 100 s from 4 worker threads (--stall-timeout 100)"
    )


def test_long_chunks_are_not_a_stall() -> None:
    clock = _Clock()
    dog = Watchdog(100.0, clock=clock)
    clock.now = 150.0  # chunks of 60 s: 150 s without a result is no stall yet
    assert dog.waiting(workers=4, slowest_s=60.0).note == ""
    clock.now = 600.0
    verdict = dog.waiting(workers=4, slowest_s=60.0)
    assert (verdict.note, verdict.stop) == (
        "",
        "no result for 600 s from 4 worker threads (--stall-timeout 100)",
    )


def test_a_timeout_of_zero_waits_for_ever_and_says_so() -> None:
    clock = _Clock()
    dog = Watchdog(0.0, where="dask", clock=clock)
    clock.now = 10.0**6
    verdict = dog.waiting(workers=0, slowest_s=0.0)
    assert verdict.stop == ""
    assert verdict.note.endswith("waiting (--stall-timeout 0: no limit)")
