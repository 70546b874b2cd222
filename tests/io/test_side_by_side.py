"""Readers in threads tell their warnings and notes in input order, whoever finishes first."""

from __future__ import annotations

import threading
import warnings
from typing import TYPE_CHECKING

import pytest

from robot_msgs.errors import DataWarning, FormatError
from robot_msgs.io import chunks
from robot_msgs.io.clean import held_reports, note, reading_notes, report
from robot_msgs.io.side_by_side import can_run_side_by_side, side_by_side

if TYPE_CHECKING:
    from collections.abc import Callable


def _reader(
    name: str, *, wait: threading.Event | None = None, done: threading.Event | None = None
) -> Callable[[], str]:
    """A reader that reports and notes under ``name``; it waits for ``wait``, then sets ``done``."""

    def read() -> str:
        if wait is not None:
            assert wait.wait(10), "the other reader never finished: not run side by side"
        report(f"{name}: 1 row with NaN dropped", strict=False, kind="nan_rows")
        note(f"{name}: covariances all zero", kind="unknown_covariances")
        if done is not None:
            done.set()
        return name.upper()

    return read


def test_warnings_and_notes_follow_the_inputs_not_the_threads() -> None:
    # The first reader finishes last: it waits until the second is done.
    second_done = threading.Event()
    calls = [_reader("a.tum", wait=second_done), _reader("b.tum", done=second_done)]
    with (
        pytest.MonkeyPatch.context() as patch,
        reading_notes() as notes,
        warnings.catch_warnings(record=True) as caught,
    ):
        patch.setattr(chunks, "CORES", 2)
        warnings.simplefilter("always")
        values = list(side_by_side(calls))
    assert values == ["A.TUM", "B.TUM"]
    assert [str(w.message) for w in caught] == [
        "a.tum: 1 row with NaN dropped",
        "b.tum: 1 row with NaN dropped",
    ]
    assert all(w.category is DataWarning for w in caught)
    assert [w.message.kind for w in caught] == ["nan_rows", "nan_rows"]  # type: ignore[union-attr]
    assert [str(n) for n in notes] == ["a.tum: covariances all zero", "b.tum: covariances all zero"]


def test_an_error_is_raised_at_its_turn_after_the_warnings_before_it() -> None:
    def refused() -> str:
        report("b.tum: 1 row with NaN dropped", strict=True)
        return "never"

    calls = [_reader("a.tum"), refused, _reader("c.tum")]
    seen: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(FormatError, match=r"^b\.tum: 1 row with NaN dropped \(strict reading"):
            seen.extend(side_by_side(calls))
    assert seen == ["A.TUM"]
    assert [str(w.message) for w in caught] == ["a.tum: 1 row with NaN dropped"]


def test_the_value_comes_before_the_later_inputs_are_told() -> None:
    # A consumer acting between values (read_inputs warns about a one-pose file) acts in order.
    told: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for value in side_by_side([_reader("a.tum"), _reader("b.tum")]):
            told.append(value)
            warnings.warn(f"after {value}", UserWarning, stacklevel=1)
    assert [str(w.message) for w in caught] == [
        "a.tum: 1 row with NaN dropped",
        "after A.TUM",
        "b.tum: 1 row with NaN dropped",
        "after B.TUM",
    ]


def test_held_reports_hold_until_told_and_refusals_still_raise() -> None:
    with warnings.catch_warnings(record=True) as caught, held_reports() as held:
        warnings.simplefilter("always")
        report("a.tum: 3 stamps out of order, sorted", strict=False, kind="unsorted")
        with pytest.raises(FormatError, match="strict reading, `strict=True`: refused"):
            report("a.tum: 1 row with NaN dropped", strict=True)
    assert caught == []
    assert [(str(w), w.kind) for w in held] == [
        ("a.tum: 3 stamps out of order, sorted", "unsorted")
    ]


def test_only_the_main_thread_of_a_process_with_cores_runs_side_by_side() -> None:
    answers: list[bool] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunks, "CORES", 2)
        answers.append(can_run_side_by_side())
        worker = threading.Thread(target=lambda: answers.append(can_run_side_by_side()))
        worker.start()
        worker.join()
        patch.setattr(chunks, "CORES", 1)
        answers.append(can_run_side_by_side())
    assert answers == [True, False, False]


def test_a_reader_in_a_thread_sees_the_callers_bounds_and_passes_notes_once() -> None:
    # input_limits (a context variable: robot-msgs --max-bytes) holds in the threads too.
    from robot_msgs.limits import current_limits, input_limits

    def bound() -> int:
        note("a.tum: seen", kind="k")
        return current_limits().max_bytes

    with (
        pytest.MonkeyPatch.context() as patch,
        input_limits(max_bytes=5 << 30),
        reading_notes() as notes,
    ):
        patch.setattr(chunks, "CORES", 2)
        assert list(side_by_side([bound, bound])) == [5 << 30, 5 << 30]
    assert [str(n) for n in notes] == ["a.tum: seen", "a.tum: seen"]
