"""Readers run side by side in threads, each one's warnings and notes told in input order.

WHY: ``robot-msgs ape REF EST`` reads two files. The compiled parser already parses one
file on both cores (:mod:`robot_msgs.io.chunks`), but reading its bytes, counting its
lines and checking its poses (:func:`~robot_msgs.io.clean.finish_trajectory`) run on
one: reading the two 10^6-pose TUM files of ``benchmarks/bench_scale.py`` one after the
other took 290-620 ms of wall here, side by side 240-295 ms (six alternated pairs of
fresh processes on the 2-core machine). NumPy and the compiled parser release the GIL.

What a reader says must not depend on which thread finished first: a reader run here
holds the warnings it reports (:func:`~robot_msgs.io.clean.held_reports`) and its notes
(:func:`~robot_msgs.io.clean.reading_notes`), and they are told in the caller's thread,
each input's just before its value is handed over, as if the inputs had been read one
after another. An error is raised at its input's turn, after the warnings of that input
and of those before it. Only :func:`~robot_msgs.io.clean.report`'s warnings are held:
the readers run here (TUM, KITTI, EuRoC) report every data problem through it.
"""

from __future__ import annotations

import contextvars
import threading
import warnings
from typing import TYPE_CHECKING, TypeVar

from robot_msgs.errors import caller_stacklevel
from robot_msgs.io import chunks
from robot_msgs.io.clean import held_reports, note, reading_notes

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from robot_msgs.errors import DataWarning

__all__ = ["can_run_side_by_side", "side_by_side"]

T = TypeVar("T")


def can_run_side_by_side() -> bool:
    """Say whether threads can help: more than one core, and called from the main thread.

    From another thread (a threaded Dask worker, a GUI's worker), inputs are read one
    after another: that caller already runs work side by side.
    """
    return chunks.CORES > 1 and threading.current_thread() is threading.main_thread()


#: What a call in a thread gave: its value, held warnings, notes, and error if any.
_Outcome = tuple[T | None, list["DataWarning"], list["DataWarning"], BaseException | None]


def _held(call: Callable[[], T]) -> _Outcome[T]:
    """Run ``call`` in this thread: its value, held warnings, notes, and error if any."""
    with held_reports() as held, reading_notes(pass_on=False) as notes:
        try:
            return call(), held, notes, None
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            return None, held, notes, error


def side_by_side(calls: Sequence[Callable[[], T]]) -> Iterator[T]:
    """Run ``calls`` in threads; yield their values in order, telling each one's warnings first.

    Parameters
    ----------
    calls : sequence of callables
        Readers taking no argument (bind them with :func:`functools.partial`). Each runs
        in a thread, in a copy of the caller's context (the bounds of
        :func:`~robot_msgs.limits.input_limits` hold there too).

    Yields
    ------
    object
        Each call's value, in order, once it is done; its held
        :class:`~robot_msgs.errors.DataWarning` are emitted and its notes kept (in the
        caller's :func:`~robot_msgs.io.clean.reading_notes` block) just before.

    Raises
    ------
    BaseException
        A call's error, at its turn. The calls after it run on in the background (a
        thread cannot be stopped) and are dropped when the process exits; their values
        and warnings are never told.

    Examples
    --------
    >>> from robot_msgs.io.clean import report
    >>> def reader(name):
    ...     report(f"{name}: 1 row with NaN dropped", strict=False)
    ...     return name.upper()
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     values = list(side_by_side([lambda: reader("a.tum"), lambda: reader("b.tum")]))
    >>> values, [str(w.message) for w in caught]
    (['A.TUM', 'B.TUM'], ['a.tum: 1 row with NaN dropped', 'b.tum: 1 row with NaN dropped'])
    """
    # Daemon threads, not a thread pool: a pool's threads are joined when the interpreter
    # exits, so an error or Ctrl-C in one input waited for the others to finish reading
    # (seconds at 10^7 poses); a reader writes nothing, so dropping it at exit loses none.
    # At most one a core reads at once (the semaphore), in input order of starting.
    done: list[_Outcome[T] | None] = [None] * len(calls)
    cores = threading.BoundedSemaphore(max(1, chunks.CORES))

    def run(k: int, call: Callable[[], T], context: contextvars.Context) -> None:
        with cores:
            done[k] = context.run(_held, call)

    # A context is entered by one thread at a time: a copy for each call, made here.
    threads = [
        threading.Thread(
            target=run,
            args=(k, call, contextvars.copy_context()),
            name=f"robot_msgs reader {k}",
            daemon=True,
        )
        for k, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for k, thread in enumerate(threads):
        thread.join()
        outcome = done[k]
        if outcome is None:  # pragma: no cover - _held returns whatever the call does
            msg = f"reader {k} ended without an outcome"
            raise RuntimeError(msg)
        value, held, notes, error = outcome
        for warning in held:
            warnings.warn(warning, stacklevel=caller_stacklevel())
        for kept in notes:
            note(str(kept), kind=kept.kind)
        if error is not None:
            raise error
        yield value  # type: ignore[misc]  # None only with an error, raised above
