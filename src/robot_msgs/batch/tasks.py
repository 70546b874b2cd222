"""A run to evaluate and its one outcome: :class:`Task` in, :class:`RunResult` out.

A task is paths and settings, never arrays: it is shipped to a worker process or a Dask
worker on another machine, which reads its own inputs (a few hundred bytes on the wire,
not megabytes of trajectories). Its ``digest`` is the content hash the worker computed
from the bytes it evaluates (:mod:`robot_msgs.batch.inputs`).

Two kinds of failure are kept apart by :data:`Status`: a run's own (``failed``: its
input cannot be read, its settings are refused; the same bytes fail the same way, so
it is a stored result), and the infrastructure's (``crashed``: the worker process died
each time it ran alone; ``lost``: the scheduler or the connection went away, the sweep
was stopped): those are retried, never stored as the run's result, and ``--resume``
computes them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import socket
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, TextIO, TypeAlias

import msgspec

from robot_msgs.compare.run_report import RunReport
from robot_msgs.errors import ValidationError
from robot_msgs.msg.json import json_form
from robot_msgs.strict_json import from_form

if TYPE_CHECKING:
    from robot_msgs.runs.run_settings import RunSettings
    from robot_msgs.runs.spec import RunSpec

__all__ = [
    "INFRASTRUCTURE",
    "STATUSES",
    "RunFunction",
    "RunResult",
    "Status",
    "Task",
    "check_outcome",
    "run_task",
]

Status = Literal["ok", "failed", "crashed", "lost"]
"""``ok``: evaluated (the report says whether the run itself succeeded); ``failed``: the
evaluation raised (unreadable input, refused settings); ``crashed``: its worker process
died every time it ran alone; ``lost``: the scheduler, the connection or the sweep
went away before it finished."""

#: Every status, in the order summaries count them.
STATUSES: tuple[Status, ...] = ("ok", "failed", "crashed", "lost")
#: Statuses that are the infrastructure's failure, not the run's: never stored, recomputed.
INFRASTRUCTURE: frozenset[Status] = frozenset({"crashed", "lost"})


def check_outcome(status: Status, *, has_report: bool, error_type: str, error: str) -> None:
    """Refuse what is not a :class:`RunResult`: ``ok`` has a report and no error, others no report.

    WHY one function: :func:`run_task` builds ``ok`` only with the run's report, and every
    other status without one, but a record edited by hand with ``"status": "ok"`` and
    ``"report": null`` loaded as a run evaluated with no report (ranked as a run that
    failed, for the reason ``ok``); and its head, which ``--resume`` reads first
    (:class:`~robot_msgs.batch.store.RecordHead`), kept it as an evaluated run.

    Raises
    ------
    ValidationError
        Naming ``RunResult.status`` and the field that disagrees with it (``field``).

    Examples
    --------
    >>> check_outcome("failed", has_report=False, error_type="FormatError", error="bad")
    >>> try:
    ...     check_outcome("ok", has_report=False, error_type="", error="")
    ... except ValidationError as err:
    ...     err.field, err.reason
    ('RunResult.report', "expected a report with status 'ok' only, got status 'ok' and no report")
    """
    ok = status == "ok"
    if ok != has_report:
        rule, at = "a report with status 'ok' only", "report"
        got = "no report" if ok else "a report"
    elif ok and (error_type or error):
        at, value = ("error_type", error_type) if error_type else ("error", error)
        rule, got = "no error with status 'ok'", f"{at} {value!r}"
    else:
        return
    said = f"{rule}, got status {status!r} and {got}"
    msg = f"Expected {said} - at `RunResult.status` and `RunResult.{at}`"
    raise ValidationError(msg, field=f"RunResult.{at}", reason=f"expected {said}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Task:
    """One run to evaluate with the sweep's settings; ``digest`` is its content hash (hex)."""

    run: RunSpec
    settings: RunSettings
    digest: str


RunFunction: TypeAlias = Callable[[Task], RunReport]
"""A per-run function: top-level (picklable by reference), reads the task's files itself."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """The one outcome of a task: the run's :class:`RunReport`, or the error that ended it.

    ``elapsed_s`` (wall time of the evaluation), ``cpu_s`` (CPU time of the thread that
    ran it: the cost of the run itself, whatever else the machine was doing), ``worker``
    (``host:pid``) and ``attempts`` describe how it ran, not what it found: they stay out
    of the results table, which is the same whichever executor ran the sweep.
    ``is_infrastructure`` tells the infrastructure's failures (see :data:`Status`).
    ``digest`` is the content digest of the inputs it was computed from, ``""`` where
    they were not hashed: a run that failed or was not evaluated (a failed run's inputs
    are hashed only to compare them with a stored result, :mod:`robot_msgs.batch.inputs`).
    """

    digest: str
    name: str
    algorithm: str
    sequence: str
    trial: str
    status: Status
    report: RunReport | None = None
    error_type: str = ""
    error: str = ""
    notes: tuple[str, ...] = ()
    attempts: int = 1
    elapsed_s: float = 0.0
    cpu_s: float = 0.0
    worker: str = ""

    def __post_init__(self) -> None:
        """Refuse what is not an outcome (:func:`check_outcome`), or a time not measured.

        WHY the times: :func:`run_task` measures them, finite and >= 0 (0.0 when not
        measured, as :meth:`failure` leaves them); a NaN was saved (as ``null``, an
        infinity as ``"Infinity"``) and its record refused as it loaded.
        """
        check_outcome(
            self.status,
            has_report=self.report is not None,
            error_type=self.error_type,
            error=self.error,
        )
        for name in ("elapsed_s", "cpu_s"):
            seconds = getattr(self, name)
            if not 0 <= seconds < math.inf:
                said = f"a finite duration >= 0 (0.0: not measured), got {seconds!r}"
                msg = f"Expected {said} - at `RunResult.{name}`"
                raise ValidationError(msg, field=f"RunResult.{name}", reason=f"expected {said}")

    @classmethod
    def failure(
        cls, task: Task, status: Status, error_type: str, error: str, *, attempts: int = 1
    ) -> RunResult:
        """Build a result that records why ``task`` ended without comparisons."""
        return cls(
            digest=task.digest,
            name=task.run.name,
            algorithm=task.run.algorithm,
            sequence=task.run.sequence,
            trial=task.run.trial,
            status=status,
            error_type=error_type,
            error=error,
            attempts=attempts,
        )

    @property
    def is_infrastructure(self) -> bool:
        """Whether the run did not finish for a reason outside it (never stored)."""
        return self.status in INFRASTRUCTURE

    @property
    def label(self) -> str:
        """``algorithm/sequence/trial``, or the run's name when it has no keys."""
        if self.algorithm or self.sequence or self.trial:
            return f"{self.algorithm}/{self.sequence}/{self.trial}"
        return self.name

    def run_report(self) -> RunReport:
        """Return the run's report; a failed one saying why if the run could not be evaluated."""
        if self.report is not None:
            return self.report
        return RunReport(
            name=self.name,
            success=False,
            failure=f"{self.error_type}: {self.error}" if self.error_type else self.status,
            algorithm=self.algorithm,
            sequence=self.sequence,
            trial=self.trial,
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form: msgspec's, the report as its own (:func:`~robot_msgs.msg.json.json_form`)."""
        fields = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        data: dict[str, Any] = msgspec.to_builtins(fields | {"report": None})
        data["report"] = None if self.report is None else json_form(self.report)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, at: str = "$") -> RunResult:
        """Rebuild from :meth:`to_dict`'s form (:func:`~robot_msgs.strict_json.from_form`).

        ``at``: where ``data`` stands in the document read (``$.result`` in a run record).

        Raises
        ------
        ValidationError
            A missing key, a value of another type, an unknown status, an invalid report,
            a status and report (or error) that do not go together.
        """
        form = data.get("report") if isinstance(data, Mapping) else None
        report = None if form is None else RunReport.from_dict(form)
        return from_form(cls, data if report is None else {**data, "report": report}, at=at)


def run_task(fn: RunFunction, task: Task) -> RunResult:
    """Run ``fn`` on ``task`` and turn whatever happens into a :class:`RunResult`.

    ``fn`` must return the run's :class:`RunReport`. Every ``Exception`` becomes a
    ``failed`` result with its type and text (an evaluation error is deterministic:
    retrying it would fail the same way). Warnings raised while evaluating (data fixed by
    a stated rule) are kept in ``notes``. ``BaseException`` (interrupts) propagates.
    """
    start = (time.perf_counter(), time.thread_time())
    worker = f"{socket.gethostname()}:{os.getpid()}"
    with _warnings_of_this_run() as caught:
        try:
            report: object = fn(task)
            if not isinstance(report, RunReport):
                msg = f"Expected the per-run function to return a RunReport, got {report!r:.80}"
                raise TypeError(msg)  # noqa: TRY301 - recorded below like any other error
        except Exception as err:  # noqa: BLE001  (every error is recorded, none is lost)
            failed = RunResult.failure(task, "failed", type(err).__name__, str(err) or repr(err))
            return _finish(failed, caught, start, worker)
    ok = RunResult(
        digest=task.digest,
        name=task.run.name,
        algorithm=task.run.algorithm,
        sequence=task.run.sequence,
        trial=task.run.trial,
        status="ok",
        report=report,
    )
    return _finish(ok, caught, start, worker)


#: The list recording the warnings of the run evaluated in this context (:func:`run_task`).
_RECORDING: ContextVar[list[warnings.WarningMessage] | None] = ContextVar(
    "robot_msgs_run_warnings", default=None
)


@contextlib.contextmanager
def _warnings_of_this_run() -> Iterator[list[warnings.WarningMessage]]:
    """Record the warnings raised in this context in the block; other threads' are shown.

    WHY: ``catch_warnings(record=True)`` swaps the process's ``showwarning``, and
    ``bench --serial`` reads the runs in a thread while it evaluates others here: 153 to
    294 of 1,000 folders said while reading (a log but no estimate) became notes of the run
    being evaluated, and were never shown. WHY the context, not the thread: a reader the
    run starts in a thread runs in a copy of its context (:mod:`robot_msgs.io.side_by_side`)
    and its warnings are the run's; a new thread (the one reading the runs) starts in an
    empty one. The filters stay the process's (Python < 3.14 has no others).
    """
    caught: list[warnings.WarningMessage] = []
    token = _RECORDING.set(caught)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            shown = warnings.showwarning  # the caller's: a terminal's, a record's, the CLI's

            def record(
                message: Warning | str,
                category: type[Warning],
                filename: str,
                lineno: int,
                file: TextIO | None = None,
                line: str | None = None,
            ) -> None:
                if _RECORDING.get() is caught:
                    caught.append(
                        warnings.WarningMessage(message, category, filename, lineno, file, line)
                    )
                else:
                    shown(message, category, filename, lineno, file, line)

            warnings.showwarning = record
            yield caught
    finally:
        _RECORDING.reset(token)


def _finish(
    result: RunResult,
    caught: Sequence[warnings.WarningMessage],
    start: tuple[float, float],
    worker: str,
) -> RunResult:
    notes = tuple(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))
    elapsed_s = time.perf_counter() - start[0]
    cpu_s = time.thread_time() - start[1]
    return replace(result, notes=notes, elapsed_s=elapsed_s, cpu_s=cpu_s, worker=worker)
