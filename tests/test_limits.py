"""The bounds on untrusted input and numeric flags: stated once, raised for one block."""

from __future__ import annotations

import argparse
import threading

import pytest

from robot_msgs.errors import ValidationError
from robot_msgs.limits import (
    MAX_DPI,
    WORKERS_PER_CPU,
    bounded_int,
    check_dpi,
    current_limits,
    input_limits,
    max_workers,
    parse_size,
    usable_cpus,
)


def test_the_stated_defaults() -> None:
    limits = current_limits()
    assert (limits.max_bytes, limits.max_document) == (1 << 30, 16 << 20)
    assert (limits.max_depth, limits.max_zip_entries) == (64, 10_000)
    assert MAX_DPI == 600
    assert max_workers() % WORKERS_PER_CPU == 0


def test_the_cpus_counted_are_those_this_process_may_use(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pinned to 3 of the machine's CPUs (taskset -c 0,2,5): 3, and 4 workers a CPU.
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 2, 5}, raising=False)
    assert (usable_cpus(), max_workers()) == (3, 12)
    # No affinity call (macOS, Windows): the CPUs the OS says; 1 where it cannot say.
    monkeypatch.delattr("os.sched_getaffinity", raising=False)
    monkeypatch.setattr("os.cpu_count", lambda: 6)
    assert (usable_cpus(), max_workers()) == (6, 24)
    monkeypatch.setattr("os.cpu_count", lambda: None)
    assert (usable_cpus(), max_workers()) == (1, 4)


def test_a_raised_bound_holds_in_its_block_and_its_thread_only() -> None:
    seen: list[int] = []
    with input_limits(max_bytes=5 << 30, max_depth=10):
        assert current_limits().max_bytes == 5 << 30
        other = threading.Thread(target=lambda: seen.append(current_limits().max_bytes))
        other.start()
        other.join()
        with input_limits(max_depth=3):
            assert (current_limits().max_bytes, current_limits().max_depth) == (5 << 30, 3)
    assert seen == [1 << 30]
    assert current_limits().max_depth == 64
    with pytest.raises(ValueError, match=r"max_bytes: expected a count > 0, got 0"):
        input_limits(max_bytes=0).__enter__()


@pytest.mark.parametrize(
    ("text", "size"),
    [("4G", 4 << 30), ("512M", 512 << 20), ("1.5GiB", 3 << 29), ("100k", 102400), ("7", 7)],
)
def test_sizes_read_in_powers_of_1024(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["0", "-1G", "G", "4X", "", "1e9"])
def test_bad_sizes_are_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=r"expected a size such as 512M or 4G"):
        parse_size(text)


def test_a_bounded_flag_refuses_values_outside_its_bounds_naming_the_flag() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, action=bounded_int(2, lambda: 5, what="a count"))
    assert parser.parse_args(["--n", "5"]).n == 5
    for value in ("1", "6", "99999999999999999999", "-3"):
        with pytest.raises(ValidationError, match=rf"^--n {value}: expected a count from 2 to 5"):
            parser.parse_args(["--n", value])


def test_check_dpi_is_the_library_bound() -> None:
    check_dpi(None)
    check_dpi(MAX_DPI)
    for bad in (0, MAX_DPI + 1, -5, 2.5, True):
        with pytest.raises(
            ValidationError, match=r"^`dpi=.*`: expected a resolution from 1 to 600"
        ):
            check_dpi(bad)  # type: ignore[arg-type]
