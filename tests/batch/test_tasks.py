"""run_task: every outcome of a per-run function becomes one RunResult, and results round-trip."""

from __future__ import annotations

import contextvars
import dataclasses
import json
import math
import re
import threading
import warnings
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.batch.tasks import INFRASTRUCTURE, RunResult, Task, run_task
from robot_msgs.compare import RunReport, error_stats
from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.metrics import path
from robot_msgs.msg.json import json_form
from robot_msgs.runs import RunSettings, load_runs
from robot_msgs.strict_json import dumps
from tests.batch.batch_helpers import make_tree, position_error
from tests.batch.strategies import JSON_VALUES, results
from tests.compare.comparisons import comparison

if TYPE_CHECKING:
    from pathlib import Path


def _task(tmp_path: Path, **meta: Any) -> Task:
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    if meta:
        (tmp_path / "orb" / "MH_01" / "1" / "meta.json").write_text(json.dumps(meta))
    [run] = load_runs([tmp_path]).runs
    return Task(run=run, settings=RunSettings(), digest="d")


def test_run_task_returns_the_report_with_timing_and_worker(tmp_path: Path) -> None:
    task = _task(tmp_path)
    result = run_task(position_error, task)
    assert result.status == "ok"
    assert (result.algorithm, result.sequence, result.trial) == ("orb", "MH_01", "1")
    assert (result.name, result.label) == ("orb/MH_01/1", "orb/MH_01/1")
    assert result.report is not None
    assert list(result.report.comparisons) == ["ape:translation", "rpe:translation:1s:all"]
    # The helper's estimate is the reference shifted by 0.001 m: RMS error 0.001 m by hand.
    ape = result.report.comparisons["ape:translation"]
    assert ape.stats["translation"].rms == pytest.approx(0.001, abs=1e-9)
    assert result.run_report() is result.report
    assert result.elapsed_s > 0
    assert result.cpu_s > 0
    assert ":" in result.worker


def _raises(task: Task) -> RunReport:
    msg = "Expected 2 poses, got 1"
    raise ValidationError(msg)


def test_run_task_records_an_evaluation_error_with_its_type_and_text(tmp_path: Path) -> None:
    result = run_task(_raises, _task(tmp_path))
    assert (result.status, result.error_type, result.error) == (
        "failed",
        "ValidationError",
        "Expected 2 poses, got 1",
    )
    assert result.report is None
    report = result.run_report()  # what rankings count against the algorithm
    assert (report.name, report.success, report.failure) == (
        result.name,
        False,
        "ValidationError: Expected 2 poses, got 1",
    )


def _warns(task: Task) -> RunReport:
    warnings.warn("3 NaN rows dropped", DataWarning, stacklevel=1)
    warnings.warn("3 NaN rows dropped", DataWarning, stacklevel=1)
    return position_error(task)


def test_run_task_keeps_warnings_as_notes_once_each(tmp_path: Path) -> None:
    result = run_task(_warns, _task(tmp_path))
    assert result.status == "ok"
    assert result.notes == ("DataWarning: 3 NaN rows dropped",)


def test_run_task_keeps_only_its_own_threads_warnings(tmp_path: Path) -> None:
    """A warning raised in another thread while a run is evaluated is not the run's note.

    WHY: ``bench --serial`` reads the runs in a thread while it evaluates others here, and
    ``catch_warnings`` swaps the process's ``showwarning``: 153 to 294 of 1,000 folders
    said while reading (a log but no estimate) became notes of the run being evaluated,
    and were not shown. The other thread warns while the run is inside ``run_task``
    (joined before it returns): the interleaving is forced, not hoped for.
    """

    def other_thread() -> None:
        warnings.warn("b/crashed: holds timing.csv", DataWarning, stacklevel=1)

    def evaluates(task: Task) -> RunReport:
        warnings.warn("a/estimate.tum: 1 row repeats a stamp", DataWarning, stacklevel=1)
        reader = threading.Thread(target=other_thread)
        reader.start()
        reader.join()
        # A reader the run starts in a copy of its context (io/side_by_side.py) is the run's.
        context = contextvars.copy_context()
        its_own = threading.Thread(target=context.run, args=(warnings.warn, "a: NaN row"))
        its_own.start()
        its_own.join()
        return position_error(task)

    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter("always")
        result = run_task(evaluates, _task(tmp_path))
    assert result.status == "ok"
    assert result.notes == (
        "DataWarning: a/estimate.tum: 1 row repeats a stamp",
        "UserWarning: a: NaN row",
    )
    assert [str(w.message) for w in outside] == ["b/crashed: holds timing.csv"]


def test_run_task_keeps_the_warnings_of_the_path_kernels_threads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warning said in a path kernel's block on the pool's threads is the run's note.

    WHY: run_task keeps the warnings of the run's context, and a pool's thread ran in an
    empty one: a block's warning was shown as another thread's, not kept in the run's
    notes as on one thread (metrics/path.py runs its blocks in a copy of the context).
    """
    monkeypatch.setattr(path, "usable_cpus", lambda: 2)  # two blocks on two threads

    def block(k: int) -> int:
        warnings.warn(f"block {k}: said", RuntimeWarning, stacklevel=1)
        return k

    def evaluates(task: Task) -> RunReport:
        assert path._run_blocks([partial(block, 0), partial(block, 1)]) == [0, 1]
        return position_error(task)

    with warnings.catch_warnings(record=True) as outside:
        warnings.simplefilter("always")
        result = run_task(evaluates, _task(tmp_path))
    # The blocks run at once: in either order.
    assert sorted(result.notes) == [
        "RuntimeWarning: block 0: said",
        "RuntimeWarning: block 1: said",
    ]
    assert outside == []


def _wrong_type(task: Task) -> RunReport:
    return ["not a report"]  # type: ignore[return-value]


def _comparisons(task: Task) -> RunReport:
    return position_error(task).comparisons  # type: ignore[return-value]  # the old contract


def test_run_task_refuses_a_result_that_is_not_a_run_report(tmp_path: Path) -> None:
    task = _task(tmp_path)
    wrong = run_task(_wrong_type, task)
    assert (wrong.status, wrong.error_type, wrong.report) == ("failed", "TypeError", None)
    assert (
        wrong.error == "Expected the per-run function to return a RunReport, got ['not a report']"
    )
    old = run_task(_comparisons, task)
    assert (old.status, old.error_type) == ("failed", "TypeError")


def test_a_run_that_reported_failing_is_evaluated_and_its_report_says_why(
    tmp_path: Path,
) -> None:
    task = _task(tmp_path, exit_code=3)
    assert task.run.meta.reported_failure == "exit code 3"
    result = run_task(position_error, task)
    assert (result.status, result.error_type) == ("ok", "")  # evaluated: a result, not an error
    assert result.report is not None
    assert (result.report.success, result.report.failure) == (False, "exit code 3")
    ape = result.report.comparisons["ape:translation"]
    assert ape.stats["translation"].rms == pytest.approx(0.001, abs=1e-9)


def _interrupt(task: Task) -> RunReport:
    msg = "Ctrl-C in the run function"
    raise KeyboardInterrupt(msg)


def test_run_task_lets_interrupts_through(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt, match=r"^Ctrl-C in the run function$"):
        run_task(_interrupt, _task(tmp_path))


def test_run_result_round_trips_through_its_dict() -> None:
    c = comparison(metric="ape", stats={"x": error_stats([1.0, -1.0])}, units={"x": "m"})
    report = RunReport(name="a/s/1", success=True, comparisons={"ape:translation": c})
    r = RunResult(
        digest="d", name="a/s/1", algorithm="a", sequence="s", trial="1", status="ok",
        report=report, notes=("n",), attempts=2, elapsed_s=0.5, cpu_s=0.25, worker="h:1",
    )  # fmt: skip
    assert RunResult.from_dict(r.to_dict()) == r
    failed = RunResult(
        digest="e", name="run-e", algorithm="", sequence="", trial="", status="failed",
        error_type="FormatError", error="bad",
    )  # fmt: skip
    assert RunResult.from_dict(failed.to_dict()) == failed
    assert failed.label == "run-e"  # a run without keys is labelled by its name


_DEEP: list[Any] = []
_inner = _DEEP
for _ in range(100_000):  # deeper than Python's recursion limit
    _inner.append([])
    _inner = _inner[0]


@pytest.mark.parametrize(
    ("change", "match"),
    [  # int() and float() raised their own ValueError; str() took 5, tuple() took "abc"
        (
            {"status": "gone"},
            r"expected one of 'ok', 'failed', 'crashed', 'lost', got 'gone' - at `\$\.status`",
        ),
        ({"drop": "digest"}, r"expected required field 'digest', got nothing - at `\$\.digest`"),
        ({"drop": "name"}, r"expected required field 'name', got nothing - at `\$\.name`"),
        # keys with a default: every release wrote them all, so one missing is damage
        ({"drop": "report"}, r"expected required field 'report', got nothing - at `\$\.report`"),
        ({"drop": "error"}, r"expected required field 'error', got nothing - at `\$\.error`"),
        ({"drop": "notes"}, r"expected required field 'notes', got nothing - at `\$\.notes`"),
        ({"drop": "worker"}, r"expected required field 'worker', got nothing - at `\$\.worker`"),
        ({"name": 5}, r"expected `str`, got `int` - at `\$\.name`"),
        ({"attempts": "2"}, r"expected `int`, got `str` - at `\$\.attempts`"),
        ({"attempts": float("nan")}, r"expected `int`, got `float` - at `\$\.attempts`"),
        ({"elapsed_s": "x"}, r"expected `float`, got `str` - at `\$\.elapsed_s`"),
        ({"elapsed_s": None}, r"expected `float`, got `null` - at `\$\.elapsed_s`"),
        ({"notes": "abc"}, r"expected `array`, got `str` - at `\$\.notes`"),
        ({"notes": _DEEP}, r"expected `str`, got `array` - at `\$\.notes\[0\]`"),
    ],
)
def test_run_result_from_dict_names_the_key_of_a_bad_record(
    change: dict[str, Any], match: str
) -> None:
    data = RunResult(
        digest="d", name="a/s/1", algorithm="a", sequence="s", trial="1", status="failed"
    ).to_dict()
    if "drop" in change:
        del data[change["drop"]]
    else:
        data.update(change)
    with pytest.raises(ValidationError, match=rf"^Expected a valid RunResult: {match}$"):
        RunResult.from_dict(data)


_REPORT = RunReport(name="a/s/1", success=True)


def _result(**fields: Any) -> RunResult:
    return RunResult(digest="d", name="a/s/1", algorithm="a", sequence="s", trial="1", **fields)


_HAS_REPORT = "a report with status 'ok' only, got status"
_NO_ERROR = "no error with status 'ok', got status 'ok' and"


@pytest.mark.parametrize(
    ("fields", "said", "at"),
    [  # run_task builds ok only with a report, and every other status without one
        ({"status": "ok"}, f"{_HAS_REPORT} 'ok' and no report", "report"),
        ({"status": "failed", "report": _REPORT}, f"{_HAS_REPORT} 'failed' and a report", "report"),
        ({"status": "lost", "report": _REPORT}, f"{_HAS_REPORT} 'lost' and a report", "report"),
        ({"status": "ok", "report": _REPORT, "error_type": "E"}, f"{_NO_ERROR} error_type 'E'", "error_type"),
        ({"status": "ok", "report": _REPORT, "error": "x"}, f"{_NO_ERROR} error 'x'", "error"),
    ],
)  # fmt: skip
def test_a_result_whose_status_and_report_disagree_is_refused_on_every_road(
    fields: dict[str, Any], said: str, at: str
) -> None:
    where = rf"`RunResult\.status` and `RunResult\.{at}`"
    with pytest.raises(ValidationError, match=rf"^Expected {re.escape(said)} - at {where}$"):
        _result(**fields)
    # as a record edited by hand: a result's form, the fields changed
    form = _result(status="failed").to_dict() | fields
    form["report"] = json_form(_REPORT) if "report" in fields else None
    where = rf"`\$\.result\.status` and `\$\.result\.{at}`"
    said = f"Expected a valid RunResult: expected {re.escape(said)}"
    with pytest.raises(ValidationError, match=rf"^{said} - at {where}$"):
        RunResult.from_dict(form, at="$.result")


def test_crashed_and_lost_are_the_infrastructures_failures_not_the_runs() -> None:
    assert frozenset({"crashed", "lost"}) == INFRASTRUCTURE
    lost = RunResult(digest="", name="r", algorithm="a", sequence="s", trial="1", status="lost")
    assert lost.is_infrastructure
    failed = RunResult(digest="", name="r", algorithm="a", sequence="s", trial="1", status="failed")
    assert not failed.is_infrastructure


# Laws over generated values (tests.batch.strategies): lone surrogates in texts, edge
# values in the report, every status with what goes with it.
_DROP = object()
_FIELDS = [field.name for field in dataclasses.fields(RunResult)]


@settings(max_examples=300, deadline=None)
@given(results(), results())
def test_a_run_result_round_trips_through_its_dict_whatever_its_values(
    result: RunResult, other: RunResult
) -> None:
    twin = RunResult.from_dict(result.to_dict())
    assert twin == result
    # and through the text a run record is saved as (strict JSON, read by json.loads)
    assert RunResult.from_dict(json.loads(dumps(result.to_dict(), indent=None))) == result
    # ==, != and hash agree
    assert not twin != result  # noqa: SIM202 - the law itself
    assert hash(twin) == hash(result)
    assert (result != other) is (not result == other)  # noqa: SIM201
    if result == other:
        assert hash(result) == hash(other)


@settings(max_examples=300, deadline=None)
@given(
    results(),
    st.sampled_from(["elapsed_s", "cpu_s"]),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, -1e-300]) | st.floats(),
)
def test_a_run_result_time_is_saved_as_it_loads_or_refused_naming_it(
    result: RunResult, name: str, seconds: float
) -> None:
    """A NaN time was saved (as null; an infinity as "Infinity") and its record refused
    as it loaded: "expected `float`, got `null`". A time run_task measures is finite and
    >= 0, and 0.0 when not measured (RunResult.failure): any other is refused as built."""
    time: dict[str, Any] = {name: seconds}
    if 0 <= seconds < math.inf:
        timed = dataclasses.replace(result, **time)
        assert RunResult.from_dict(json.loads(dumps(timed.to_dict(), indent=None))) == timed
        assert math.copysign(1, getattr(timed, name)) == math.copysign(1, seconds)  # -0.0 kept
        return
    got = re.escape(repr(seconds))
    said = rf"^Expected a finite duration >= 0 \(0\.0: not measured\), got {got} - at"
    with pytest.raises(ValidationError, match=rf"{said} `RunResult\.{name}`$") as refused:
        dataclasses.replace(result, **time)
    assert refused.value.field == f"RunResult.{name}"
    form = result.to_dict() | time  # a record edited by hand: JSON's NaN, Infinity
    with pytest.raises(ValidationError, match=rf"got {got} - at `\$\.{name}`$"):
        RunResult.from_dict(form)


@settings(max_examples=500, deadline=None)
@given(results(), st.sampled_from(_FIELDS), st.just(_DROP) | JSON_VALUES, JSON_VALUES)
def test_a_run_result_form_edited_by_hand_loads_or_raises_only_validation_error(
    result: RunResult, key: str, value: object, whole: object
) -> None:
    form = result.to_dict()
    if value is _DROP:  # every release wrote every key
        del form[key]
        with pytest.raises(ValidationError, match=rf"expected required field '{key}', got"):
            RunResult.from_dict(form)
    form[key] = value
    for edited in (form, whole):
        try:
            loaded = RunResult.from_dict(edited)  # type: ignore[arg-type]  # any JSON
        except ValidationError:
            continue
        assert RunResult.from_dict(loaded.to_dict()) == loaded
