"""Per-run records: atomic, reloadable, and what --resume keeps."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.tasks import RunResult, Status, Task
from robot_msgs.compare import Comparison, RunReport, TrackingLoss, error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.runs import RunSettings, RunSpec
from robot_msgs.strict_json import dumps

if TYPE_CHECKING:
    from pathlib import Path


def _result(digest: str, status: Status = "ok") -> RunResult:
    stats = error_stats([0.1, 0.2])  # iae, ise, itae are NaN without times
    c = Comparison(metric="ape", stats={"translation": stats}, units={"translation": "m"})
    report = RunReport(
        name=f"a/s/{digest}", success=False, failure="tracking lost, not recovered",
        algorithm="a", sequence="s", trial="1", n_estimate=2, n_valid=2,
        losses=(TrackingLoss(start_s=1.0, end_s=2.0, recovered=False),),
        comparisons={"ape:translation": c},
    )  # fmt: skip
    return RunResult(
        digest=digest, name=f"a/s/{digest}", algorithm="a", sequence="s", trial="1",
        status=status, report=report if status == "ok" else None,
        error_type="" if status == "ok" else "FormatError",
        error="boom" if status != "ok" else "",
    )  # fmt: skip


def _task(digest: str) -> Task:
    run = RunSpec(name=f"run-{digest}", algorithm="a", sequence="s", trial=digest)
    return Task(run=run, settings=RunSettings(), digest=digest)


def test_records_round_trip_with_nan_written_as_null(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    assert not store.has_records()
    path = store.save(_result("abc"))
    assert path == tmp_path / "runs" / "abc.json"
    record = json.loads(path.read_text())
    assert record["report"]["comparisons"]["ape:translation"]["stats"]["translation"]["iae"] is None
    assert record["report"]["estimate_start_s"] is None  # NaN: no estimate stamps given
    loaded = store.load("abc")
    assert loaded == _result("abc")
    assert loaded is not None
    assert loaded.report is not None
    assert math.isnan(loaded.report.comparisons["ape:translation"].stats["translation"].iae)
    assert loaded.report.losses == (TrackingLoss(start_s=1.0, end_s=2.0, recovered=False),)
    assert loaded.report.failure == "tracking lost, not recovered"
    assert store.has_records()
    assert store.load("other") is None
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["abc.json"]  # no temporary left


def test_a_record_without_a_report_round_trips(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_result("bad", "failed"))
    loaded = store.load("bad")
    assert loaded == _result("bad", "failed")
    assert loaded is not None
    assert loaded.report is None
    assert loaded.run_report().failure == "FormatError: boom"


def test_saving_again_replaces_the_record(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_result("abc", "crashed"))
    store.save(_result("abc"))
    loaded = store.load("abc")
    assert loaded is not None
    assert loaded.status == "ok"


def test_resume_keeps_ok_and_failed_records_and_recomputes_crashed_ones(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_result("ok1"))
    store.save(_result("bad", "failed"))
    store.save(_result("died", "crashed"))
    tasks = [_task(d) for d in ("ok1", "bad", "died", "absent")]
    assert sorted(store.reusable(tasks)) == ["bad", "ok1"]


def test_a_corrupt_record_is_reported_with_its_path(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "abc.json").write_text("{truncated")
    with pytest.raises(ValidationError, match=r"abc.json: expected a run result record.*delete it"):
        store.load("abc")
    store.save(_result("xyz"))
    (tmp_path / "runs" / "xyz.json").rename(tmp_path / "runs" / "abc.json")
    with pytest.raises(ValidationError, match=r"expected the record of abc, got xyz"):
        store.load("abc")


def test_load_all_requires_every_record(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_result("a1"))
    assert [r.digest for r in store.load_all([_task("a1")])] == ["a1"]
    with pytest.raises(ValidationError, match=r"no result stored for a/s/b2 \("):
        store.load_all([_task("a1"), _task("b2")])


def _refuse(token: str) -> None:
    msg = f"not strict JSON: {token}"
    raise AssertionError(msg)


def test_records_are_strict_json(tmp_path: Path) -> None:
    text = dumps({"x": [float("nan"), float("inf"), 1.5]})
    assert json.loads(text, parse_constant=_refuse) == {"x": [None, None, 1.5]}
    path = ResultStore(tmp_path).save(_result("abc"))  # NaN statistics and times inside
    assert "NaN" not in path.read_text()
    json.loads(path.read_text(), parse_constant=_refuse)
