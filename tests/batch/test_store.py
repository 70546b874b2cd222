"""Per-run records: atomic, reloadable, and what --resume keeps."""

from __future__ import annotations

import json
import math

import pytest

from robot_msgs.batch.store import ResultStore, dumps
from robot_msgs.batch.tasks import RunResult
from robot_msgs.compare import Comparison, error_stats
from robot_msgs.errors import ValidationError


def _result(digest: str, status: str = "ok") -> RunResult:
    stats = error_stats([0.1, 0.2])  # iae, ise, itae are NaN without times
    c = Comparison(metric="ape", stats={"translation": stats}, units={"translation": "m"})
    comparisons = (c,) if status == "ok" else ()
    return RunResult(
        digest=digest, algorithm="a", sequence="s", trial="1", status=status,
        comparisons=comparisons, error="boom" if status != "ok" else "",
    )  # fmt: skip


class _Task:
    def __init__(self, digest):
        self.digest = digest

        class _Run:
            label = f"run-{digest}"

        self.run = _Run()


def test_records_round_trip_with_nan_written_as_null(tmp_path):
    store = ResultStore(tmp_path)
    assert not store.has_records()
    path = store.save(_result("abc"))
    assert path == tmp_path / "runs" / "abc.json"
    assert json.loads(path.read_text())["comparisons"][0]["stats"]["translation"]["iae"] is None
    loaded = store.load("abc")
    assert loaded == _result("abc")
    assert math.isnan(loaded.comparisons[0].stats["translation"].iae)
    assert store.has_records()
    assert store.load("other") is None
    assert [p.name for p in (tmp_path / "runs").iterdir()] == ["abc.json"]  # no temporary left


def test_saving_again_replaces_the_record(tmp_path):
    store = ResultStore(tmp_path)
    store.save(_result("abc", "crashed"))
    store.save(_result("abc"))
    assert store.load("abc").status == "ok"


def test_resume_keeps_ok_and_failed_records_and_recomputes_crashed_ones(tmp_path):
    store = ResultStore(tmp_path)
    store.save(_result("ok1"))
    store.save(_result("bad", "failed"))
    store.save(_result("died", "crashed"))
    tasks = [_Task(d) for d in ("ok1", "bad", "died", "absent")]
    assert sorted(store.reusable(tasks)) == ["bad", "ok1"]


def test_a_corrupt_record_is_reported_with_its_path(tmp_path):
    store = ResultStore(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "abc.json").write_text("{truncated")
    with pytest.raises(ValidationError, match=r"abc.json: expected a run result record.*delete it"):
        store.load("abc")
    store.save(_result("xyz"))
    (tmp_path / "runs" / "xyz.json").rename(tmp_path / "runs" / "abc.json")
    with pytest.raises(ValidationError, match=r"expected the record of abc, got xyz"):
        store.load("abc")


def test_load_all_requires_every_record(tmp_path):
    store = ResultStore(tmp_path)
    store.save(_result("a1"))
    assert [r.digest for r in store.load_all([_Task("a1")])] == ["a1"]
    with pytest.raises(ValidationError, match=r"no result stored for run-b2"):
        store.load_all([_Task("a1"), _Task("b2")])


def test_dumps_is_strict_json():
    text = dumps({"x": [float("nan"), float("inf"), 1.5]})
    assert json.loads(text) == {"x": [None, None, 1.5]}
