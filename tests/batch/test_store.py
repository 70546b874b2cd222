"""Per-run records: sharded, atomic, reloadable, with the stamps --resume compares."""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robot_msgs.batch import store as store_module
from robot_msgs.batch.inputs import MISSING, RACY_S
from robot_msgs.batch.store import RECORD_FORMAT, RecordHead, ResultStore, RunRecord
from robot_msgs.batch.tasks import STATUSES, RunResult, Status
from robot_msgs.compare import RunReport, TrackingLoss, error_stats
from robot_msgs.errors import ValidationError
from robot_msgs.limits import input_limits
from robot_msgs.msg.json import json_form
from robot_msgs.msg.registry import to_json
from robot_msgs.strict_json import dumps
from tests.batch.strategies import JSON_VALUES, TEXT, records
from tests.compare.comparisons import comparison

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

KEY = "ab" + "0" * 62
OLD = 1_600_000_000 * 10**9  # a file's mtime long before it was hashed
HASHED = OLD + 10 * 10**9


def _result(status: Status = "ok") -> RunResult:
    stats = error_stats([0.1, 0.2])  # iae, ise, itae are NaN without times
    c = comparison(metric="ape", stats={"translation": stats}, units={"translation": "m"})
    report = RunReport(
        name="a/s/1", success=False, failure="tracking lost, not recovered",
        algorithm="a", sequence="s", trial="1", n_estimate=2, n_valid=2,
        losses=(TrackingLoss(start_s=1.0, end_s=2.0, recovered=False),),
        comparisons={"ape:translation": c},
    )  # fmt: skip
    return RunResult(
        digest="d1", name="a/s/1", algorithm="a", sequence="s", trial="1",
        status=status, report=report if status == "ok" else None,
        error_type="" if status == "ok" else "FormatError",
        error="boom" if status != "ok" else "",
    )  # fmt: skip


def _record(status: Status = "ok", key: str = KEY) -> RunRecord:
    return RunRecord(
        key=key,
        session="s1",
        hashed_at_ns=HASHED,
        inputs={"estimate": ([16, OLD], "e" * 64), "timing": (MISSING, MISSING)},
        result=_result(status),
    )


def test_records_are_sharded_by_key_and_round_trip_with_nan_as_null(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    assert not store.has_records()
    path = store.save(_record())
    assert path == tmp_path / "runs" / "ab" / f"{KEY}.json"
    data = json.loads(path.read_text())
    assert data["format"] == RECORD_FORMAT
    assert data["inputs"]["estimate"] == {"stamp": [16, OLD], "sha256": "e" * 64}
    report = data["result"]["report"]
    assert report["comparisons"]["ape:translation"]["signals"][0]["stats"]["iae"] is None
    loaded = store.load(KEY)
    assert loaded == _record()
    assert loaded is not None
    assert loaded.result.report is not None
    assert math.isnan(loaded.result.report.comparisons["ape:translation"].stats["translation"].iae)
    assert loaded.result.report.losses == (TrackingLoss(start_s=1.0, end_s=2.0, recovered=False),)
    assert (store.has_records(), store.count()) == (True, 1)
    assert store.load("cd" + "0" * 62) is None
    assert sorted(p.name for p in (tmp_path / "runs" / "ab").iterdir()) == [f"{KEY}.json"]


def test_the_head_says_what_resume_needs_without_the_report(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_record())
    head = store.head(KEY)
    assert head is not None
    result, report = head.result, head.result.report
    assert report is not None
    assert (result.digest, result.status) == ("d1", "ok")
    assert (report.success, report.failure, list(report.comparisons)) == (
        False, "tracking lost, not recovered", ["ape:translation"],
    )  # fmt: skip
    assert (head.session, head.hashed_at_ns) == ("s1", HASHED)
    assert head.current({"estimate": [16, OLD], "timing": MISSING})
    assert not head.current({"estimate": [17, OLD], "timing": MISSING})  # the size moved
    assert not head.current({"estimate": [16, OLD], "timing": [3, OLD]})  # a log appeared
    assert not head.current({"estimate": [16, OLD]})  # another set of inputs


def test_an_input_not_read_is_never_trusted_by_its_stamp(tmp_path: Path) -> None:
    """A file without read permission, made readable: same size and mtime. Its record
    was kept by ``--resume`` with the run's PermissionError."""
    store = ResultStore(tmp_path)
    for unread in ("unreadable: PermissionError: /d/a.tum: Permission denied", "special: a FIFO"):
        store.save(replace(_record("failed"), inputs={"estimate": ([16, OLD], unread)}))
        head = store.head(KEY)
        assert head is not None
        assert not head.current({"estimate": [16, OLD]})


def test_a_file_changed_just_before_it_was_hashed_is_not_trusted(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    racy = RunRecord(
        key=KEY, session="s", hashed_at_ns=OLD + int(RACY_S * 1e9) // 2,
        inputs={"estimate": ([16, OLD], "e" * 64)}, result=_result(),
    )  # fmt: skip
    store.save(racy)
    head = store.head(KEY)
    assert head is not None
    assert not head.current({"estimate": [16, OLD]})


def test_a_failed_record_round_trips_and_infrastructure_failures_are_never_stored(
    tmp_path: Path,
) -> None:
    store = ResultStore(tmp_path)
    store.save(_record("failed"))
    loaded = store.load(KEY)
    assert loaded is not None
    assert loaded.result.report is None
    assert loaded.result.run_report().failure == "FormatError: boom"
    for status in ("crashed", "lost"):
        with pytest.raises(ValidationError, match=rf"Expected a run's own result .*'{status}'"):
            store.save(_record(status))
    assert store.count() == 1


def test_saving_again_replaces_the_record(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_record("failed"))
    store.save(_record())
    loaded = store.load(KEY)
    assert loaded is not None
    assert loaded.result.status == "ok"
    assert store.count() == 1


def test_a_corrupt_record_is_reported_with_its_path(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    (tmp_path / "runs" / "ab").mkdir(parents=True)
    store.path_for(KEY).write_text("{truncated")
    with pytest.raises(ValidationError, match=rf"{KEY}\.json: expected a run record.*delete it"):
        store.head(KEY)
    other = "ab" + "1" * 62
    store.save(_record(key=other))
    store.path_for(other).rename(store.path_for(KEY))
    with pytest.raises(ValidationError, match=rf"expected the record of {KEY}, got {other}"):
        store.load(KEY)


@pytest.mark.parametrize(
    ("content", "error"),
    [  # a record edited or broken by hand: each escaped --resume as a crash
        (b"[" * 100_000 + b"]" * 100_000, r"nested deeper than"),  # RecursionError
        (b'{"key": "\xff"}', r"expected UTF-8 text"),  # UnicodeDecodeError
    ],
)
def test_a_record_that_cannot_be_parsed_is_not_a_record(
    tmp_path: Path, content: bytes, error: str
) -> None:
    store = ResultStore(tmp_path)
    store.path_for(KEY).parent.mkdir(parents=True)
    store.path_for(KEY).write_bytes(content)
    with pytest.raises(ValidationError, match=rf"{KEY}\.json: {error}.*delete it"):
        store.head(KEY)


def test_a_record_is_read_bounded_and_only_from_a_regular_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record linked to /dev/zero was read to the end of memory (bench --resume killed).

    The bound is the sweep's own (``own_file_bytes``): the user's ``max_bytes`` lowered
    below a record does not refuse it (``--max-bytes 1000 bench`` stopped at its own)."""
    store = ResultStore(tmp_path)
    path = store.save(_record())
    size = path.stat().st_size
    with input_limits(max_bytes=size - 1):
        assert store.head(KEY) is not None
    monkeypatch.setattr(store_module, "own_file_bytes", lambda: size - 1)
    with pytest.raises(
        ValidationError, match=rf"{KEY}\.json: larger than the {size - 1} bytes.*delete it"
    ):
        store.head(KEY)
    monkeypatch.undo()
    assert store.head(KEY) is not None
    path.unlink()
    path.symlink_to("/dev/zero")
    with pytest.raises(
        ValidationError, match=rf"{KEY}\.json: is a character device, not a regular file"
    ):
        store.load(KEY)
    path.unlink()
    os.mkfifo(path)  # opening it would wait for a writer
    with pytest.raises(ValidationError, match=rf"{KEY}\.json: is a pipe \(FIFO\), not a regular"):
        store.head(KEY)


@pytest.mark.parametrize("special", ["link to /dev/null", "fifo"])
def test_saving_replaces_a_record_that_is_not_a_regular_file(tmp_path: Path, special: str) -> None:
    """The record was written into what the path named: into /dev/null, so --resume computed
    the run and then refused its record; into a FIFO, so --resume waited for ever."""
    store = ResultStore(tmp_path)
    path = store.path_for(KEY)
    path.parent.mkdir(parents=True)
    if special == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/null")
    with pytest.raises(ValidationError, match=r"not a regular file; delete it to recompute"):
        store.head(KEY)  # --resume computes the run again...
    assert store.save(_record()) == path  # ...and its record replaces the special file
    assert path.is_file()
    assert not path.is_symlink()
    loaded = store.load(KEY)
    assert loaded is not None
    assert loaded.result.name == "a/s/1"


def test_a_record_of_an_older_format_is_not_found(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    data = _record().to_dict() | {"format": 1}
    store.path_for(KEY).parent.mkdir(parents=True)
    store.path_for(KEY).write_text(json.dumps(data))
    assert store.head(KEY) is None
    assert store.load(KEY) is None


@pytest.mark.parametrize(
    ("part", "value", "said"),
    [  # the head took all but the NaN, which escaped int() as a plain ValueError
        ("result.status", "gone", "expected one of 'ok', 'failed', 'crashed', 'lost', got 'gone'"),
        ("result.report.success", "yes", "expected `bool`, got `str`"),
        ("inputs.estimate.sha256", 5, "expected `str`, got `int`"),
        ("hashed_at_ns", math.nan, "expected `int`, got `float`"),
        ("result.error", None, "expected `str`, got `null`"),
        ("result.name", 5, "expected `str`, got `int`"),  # the result's: named in the record
        ("result.notes", "abc", "expected `array`, got `str`"),
        ("result.digest", ..., "expected required field 'digest', got nothing"),
    ],
)
def test_a_record_edited_by_hand_is_refused_naming_the_key(
    tmp_path: Path, part: str, value: object, said: str
) -> None:
    data = _record().to_dict()
    *parents, name = part.split(".")
    inner = data
    for parent in parents:
        inner = inner[parent]
    if value is ...:
        del inner[name]
    else:
        inner[name] = value
    store = ResultStore(tmp_path)
    store.path_for(KEY).parent.mkdir(parents=True)
    store.path_for(KEY).write_text(json.dumps(data))  # a NaN as JSON's NaN: json reads it
    at = "$." + part.replace(".estimate.", "[...].")
    where = rf"{KEY}\.json: Expected a valid \w+: {re.escape(said)} - at `{re.escape(at)}`; delete"
    if not part.startswith(("result.name", "result.notes")):  # not in the head
        with pytest.raises(ValidationError, match=where):
            store.head(KEY)
    with pytest.raises(ValidationError, match=where):
        store.load(KEY)


@pytest.mark.parametrize(
    ("status", "edit", "said", "at"),
    [  # RunResult's rule: ok has a report and no error, every other status no report
        ("ok", {"report": None}, "status 'ok' and no report", "report"),
        ("failed", {"status": "ok"}, "status 'ok' and no report", "report"),
        ("ok", {"status": "failed"}, "status 'failed' and a report", "report"),
        ("ok", {"error": "x"}, "status 'ok' and error 'x'", "error"),
    ],
)
def test_a_record_whose_status_and_report_disagree_is_refused_by_its_head_too(
    tmp_path: Path, status: Status, edit: dict[str, object], said: str, at: str
) -> None:
    """``--resume`` read such a head as a kept run (ok, success unknown) and only the
    whole record's load refused it; both now refuse it by the one rule, naming the keys."""
    data = _record(status).to_dict()
    data["result"].update(edit)
    store = ResultStore(tmp_path)
    store.path_for(KEY).parent.mkdir(parents=True)
    store.path_for(KEY).write_text(json.dumps(data))
    where = rf"`\$\.result\.status` and `\$\.result\.{at}`; delete it to recompute$"
    said = rf"{KEY}\.json: Expected a valid \w+: expected .*, got {re.escape(said)} - at {where}"
    with pytest.raises(ValidationError, match=said):
        store.head(KEY)
    with pytest.raises(ValidationError, match=said):
        store.load(KEY)


def test_a_record_is_written_as_it_was_and_again_the_same_bytes(tmp_path: Path) -> None:
    """The text the record writer wrote before msgspec built the dicts, key for key."""
    store = ResultStore(tmp_path)
    path = store.save(_record("failed"))
    inputs = {"stamp": [16, OLD], "sha256": "e" * 64}, {"stamp": MISSING, "sha256": MISSING}
    result = (
        '"digest":"d1","name":"a/s/1","algorithm":"a","sequence":"s","trial":"1",'
        '"status":"failed","report":null,"error_type":"FormatError","error":"boom",'
        '"notes":[],"attempts":1,"elapsed_s":0.0,"cpu_s":0.0,"worker":""'
    )
    assert path.read_text() == (
        f'{{"format":2,"key":"{KEY}","session":"s1","hashed_at_ns":{HASHED},"inputs":'
        f'{{"estimate":{json.dumps(inputs[0], separators=(",", ":"))},'
        f'"timing":{json.dumps(inputs[1], separators=(",", ":"))}}},"result":{{{result}}}}}\n'
    )
    for status in ("failed", "ok"):
        text = store.save(_record(status)).read_bytes()
        loaded = store.load(KEY)
        assert loaded is not None
        assert store.save(loaded).read_bytes() == text


def test_temporaries_of_killed_writers_are_swept_from_every_shard(tmp_path: Path) -> None:
    store = ResultStore(tmp_path)
    store.save(_record())
    left = [tmp_path / "runs" / "ab" / ".x.json.0.tmp", tmp_path / "runs" / ".y.json.0.tmp"]
    for path in left:
        path.write_text("half")
    assert sorted(store.sweep_temporaries()) == sorted(left)
    assert not any(path.exists() for path in left)
    assert store.count() == 1


def _refuse(token: str) -> None:
    msg = f"not strict JSON: {token}"
    raise AssertionError(msg)


def test_records_are_strict_json(tmp_path: Path) -> None:
    text = dumps({"x": [float("nan"), float("inf"), 1.5]})
    # NaN is null, the infinities the proto3 strings (robot_msgs.strict_json)
    assert json.loads(text, parse_constant=_refuse) == {"x": [None, "Infinity", 1.5]}
    path = ResultStore(tmp_path).save(_record())  # NaN statistics and times inside
    assert "NaN" not in path.read_text()
    json.loads(path.read_text(), parse_constant=_refuse)


def test_a_run_record_is_hashable_and_hashes_as_it_compares(tmp_path: Path) -> None:
    """A frozen RunRecord kept ``inputs`` as the dict of lists it was given: ``hash`` raised
    TypeError. Its file is as before (stamps as JSON arrays), so stored records still load."""
    record = _record()
    path = ResultStore(tmp_path).save(record)
    loaded = ResultStore(tmp_path).load(KEY)
    assert loaded == record
    assert hash(loaded) == hash(record)
    assert len({record, loaded, _record("failed")}) == 2
    assert json.loads(path.read_text())["inputs"] == {
        "estimate": {"stamp": [16, OLD], "sha256": "e" * 64},
        "timing": {"stamp": MISSING, "sha256": MISSING},
    }
    with pytest.raises(TypeError, match="does not support item assignment"):
        record.inputs["estimate"] = (MISSING, MISSING)  # type: ignore[index]


def test_a_nan_parameter_round_trips_through_a_record(tmp_path: Path) -> None:
    """A run's parameter ``x = nan`` came back ``None`` from its record (the report's
    to_dict() kept NaN a float, written null, read back as None where a parameter takes
    None), and bench pooled such runs under ``x=None`` (a review)."""
    result = _result()
    assert result.report is not None
    report = result.report.replace(parameters={"x": math.nan, "y": math.inf, "z": None})
    record = RunRecord(
        key=KEY, session="s1", hashed_at_ns=HASHED, inputs={}, result=replace(result, report=report)
    )
    store = ResultStore(tmp_path)
    path = store.save(record)
    assert json.loads(path.read_text())["result"]["report"]["parameters"] == {
        "x": "NaN",
        "y": "Infinity",
        "z": None,
    }
    loaded = store.load(KEY)
    assert loaded == record
    assert loaded is not None
    assert loaded.result.report is not None
    assert math.isnan(loaded.result.report.parameters["x"])  # type: ignore[arg-type]
    assert dumps([report], indent=None) == "[" + to_json(report).decode() + "]\n"


def test_a_record_with_a_key_utf8_cannot_encode_is_refused_naming_the_file(
    tmp_path: Path,
) -> None:
    """json reads ``"\\ud800"`` as a lone surrogate, which msgspec cannot look up as a key.

    18a13ba let its UnicodeEncodeError out: ``bench --resume`` ended "a bug in robot_msgs".
    """
    text = dumps(_record().to_dict(), indent=None)
    store = ResultStore(tmp_path)
    store.path_for(KEY).parent.mkdir(parents=True)
    store.path_for(KEY).write_text(text.replace('{"format"', '{"\\ud800":1,"format"', 1))
    where = rf"{KEY}\.json: Expected a valid RecordHead: expected keys UTF-8 can encode, got "
    with pytest.raises(ValidationError, match=where):
        store.head(KEY)
    with pytest.raises(ValidationError, match=where):
        store.load(KEY)


# Laws over generated records (tests.batch.strategies): every stored value loads equal.
@settings(max_examples=200, deadline=None)
@given(records(), records())
def test_a_run_record_round_trips_and_its_head_says_what_it_holds(
    record: RunRecord, other: RunRecord
) -> None:
    form = record.to_dict()
    twin = RunRecord.from_dict(form)
    assert twin == record
    assert hash(twin) == hash(record)  # frozen, so hashable, and as it compares
    assert not twin != record  # noqa: SIM202 - the law itself
    assert (record != other) is (not record == other)  # noqa: SIM201
    assert RunRecord.from_dict(json.loads(dumps(form, indent=None))) == record
    head = RecordHead.from_dict(json.loads(dumps(form, indent=None)))
    assert (head.key, head.session, head.hashed_at_ns) == (
        record.key, record.session, record.hashed_at_ns,
    )  # fmt: skip
    seen = {role: (seen.stamp, seen.sha256) for role, seen in head.inputs.items()}
    assert replace(record, inputs=seen) == record
    result, report = record.result, record.result.report
    assert (head.result.digest, head.result.status) == (result.digest, result.status)
    assert (head.result.error_type, head.result.error) == (result.error_type, result.error)
    if report is None:
        assert head.result.report is None
    else:
        assert head.result.report is not None
        assert (head.result.report.success, head.result.report.failure) == (
            report.success, report.failure,
        )  # fmt: skip
        assert list(head.result.report.comparisons) == list(report.comparisons)
    with tempfile.TemporaryDirectory() as folder:  # the store's own road: a file, read back
        store = ResultStore(folder)
        store.save(record)
        assert store.load(record.key) == record
        assert store.head(record.key) == head


@settings(max_examples=300, deadline=None)
@given(records(), st.data())
def test_a_record_edited_by_hand_is_read_whole_or_refused_as_not_a_record(
    record: RunRecord, data: st.DataObject
) -> None:
    """Any key of the record, of its result or its report's head, given any JSON value:
    the head and the load raise only ValidationError, and what loads has a head."""
    form = record.to_dict()
    parent = data.draw(
        st.sampled_from([p for p in (form, form["result"], form["result"]["report"]) if p])
    )
    key = data.draw(st.sampled_from(sorted(parent)))
    parent[key] = data.draw(JSON_VALUES)
    with tempfile.TemporaryDirectory() as folder:
        store = ResultStore(folder)
        path = store.path_for(record.key)
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(form))  # NaN as JSON's NaN, lone surrogates escaped
        try:
            head = store.head(record.key)
        except ValidationError:
            head = None
        try:
            loaded = store.load(record.key)
        except ValidationError:
            return
        assert (loaded is None) is (head is None)  # another format: neither is read
        if loaded is not None:
            assert store.load(store.save(loaded).stem) == loaded


def _reads(build: Callable[[dict[str, Any]], object], text: str) -> bool:
    try:
        build(json.loads(text))
    except ValidationError:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(records(), st.sampled_from(STATUSES), st.booleans(), st.just("") | TEXT, st.just("") | TEXT)
def test_a_record_whose_outcome_is_edited_has_a_head_exactly_where_it_loads(
    record: RunRecord, status: Status, with_report: bool, error_type: str, error: str
) -> None:
    """A head let ``"status": "ok"`` with ``"report": null`` through (``--resume`` kept
    the run) while the load refused it, and the laws above passed with that fault: they
    stop where the load refuses. Only the outcome edited (the keys the head reads of a
    result), the head reads the record exactly where the load does."""
    report = _result().report
    assert report is not None
    form = record.to_dict()
    form["result"] |= {
        "status": status,
        "report": json_form(report) if with_report else None,
        "error_type": error_type,
        "error": error,
    }
    text = dumps(form, indent=None)
    assert _reads(RecordHead.from_dict, text) is _reads(RunRecord.from_dict, text)
