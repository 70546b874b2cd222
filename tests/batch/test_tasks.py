"""Tasks: content hashes that decide what ``--resume`` recomputes, and run_task's outcomes."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
import warnings
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.batch.tasks import RunResult, file_sha256, function_id, make_tasks, run_task
from robot_msgs.compare import Comparison, RunReport, error_stats
from robot_msgs.errors import DataWarning, ValidationError
from robot_msgs.runs import RunSettings, load_runs
from robot_msgs.runs.run_settings import RUN_DEFAULTS
from tests.batch.batch_helpers import make_tree, position_error

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.batch.tasks import RunFunction, Task


def _digests(
    inputs: Path, fn: RunFunction = position_error, settings: RunSettings | None = None
) -> dict[str, str]:
    m = load_runs([inputs])
    if settings is not None:
        m = dataclasses.replace(m, settings=settings)
    return {t.run.label: t.digest for t in make_tasks(m, fn)}


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    assert set(before) == set(after)
    return {k for k in before if before[k] != after[k]}


def test_file_hash_is_sha256_of_the_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f.tum"
    path.write_bytes(b"0 1 2 3 0 0 0 1\n")
    assert file_sha256(path) == hashlib.sha256(b"0 1 2 3 0 0 0 1\n").hexdigest()
    assert file_sha256(tmp_path / "absent") == "missing"
    assert file_sha256(None) == "missing"


def test_folder_hash_covers_names_and_bytes(tmp_path: Path) -> None:
    bag = tmp_path / "bag"
    bag.mkdir()
    (bag / "a.db3").write_bytes(b"x")
    before = file_sha256(bag)
    (bag / "a.db3").write_bytes(b"y")
    changed = file_sha256(bag)
    (bag / "a.db3").rename(bag / "b.db3")
    assert len({before, changed, file_sha256(bag)}) == 3


def test_hash_changes_only_for_the_run_whose_input_changed(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_01/2"}


def test_a_run_folders_logs_are_inputs_of_its_hash(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "vins" / "MH_02" / "1" / "tracking.csv").write_text("time_s,event\n1.0,lost\n")
    assert _changed(before, _digests(tmp_path)) == {"vins/MH_02/1"}


def test_changing_a_shared_reference_changes_every_run_of_its_sequence(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    with (tmp_path / "MH_02" / "reference.tum").open("a") as handle:
        handle.write("# a comment changes the bytes\n")
    assert _changed(before, _digests(tmp_path)) == {
        f"{a}/MH_02/{t}" for a in ("orb", "vins") for t in "12"
    }


@pytest.mark.parametrize(
    ("meta", "why"),
    [
        ({"exit_code": -11}, "the run reported failing"),
        ({"version": "2.0"}, "its report shows the algorithm's version"),
        ({"parameters": {"features": 1200}}, "its report shows the parameters"),
    ],
)
def test_a_runs_metadata_is_part_of_its_hash(
    tmp_path: Path, meta: dict[str, Any], why: str
) -> None:
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "orb" / "MH_02" / "2" / "meta.json").write_text(json.dumps(meta))
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_02/2"}, why


def test_the_bag_of_a_latency_proxy_is_an_input_of_its_hash(tmp_path: Path) -> None:
    make_tree(tmp_path, trials=1)
    run = tmp_path / "orb" / "MH_01" / "1"
    (run / "meta.json").write_text('{"bag": "recording.bag", "latency_topic": "/pose"}')
    (run / "recording.bag").write_bytes(b"first recording")
    before = _digests(tmp_path)
    (run / "recording.bag").write_bytes(b"other recording")
    assert _changed(before, _digests(tmp_path)) == {"orb/MH_01/1"}


def test_hash_depends_on_settings_and_function_but_not_on_where_the_tree_is(
    tmp_path: Path,
) -> None:
    # A manifest names its runs relative to itself, so a moved tree keeps its run names.
    make_tree(tmp_path / "a" / "runs", trials=1)
    (tmp_path / "a" / "bench.toml").write_text('[[folders]]\nroot = "runs"\n')
    base = _digests(tmp_path / "a" / "bench.toml")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert _digests(tmp_path / "b" / "bench.toml") == base
    sim3 = RunSettings(evaluation=RUN_DEFAULTS.replace(align="sim3"))
    assert set(_digests(tmp_path / "a" / "bench.toml", settings=sim3).values()).isdisjoint(
        base.values()
    )
    other_fn = _digests(tmp_path / "a" / "bench.toml", fn=_warns)
    assert set(other_fn.values()).isdisjoint(base.values())
    assert len(set(base.values())) == len(base)  # run keys make identical files distinct


def test_a_runs_name_is_part_of_its_hash(tmp_path: Path) -> None:
    # The name is in the stored report, so a record of another name cannot be reused.
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = tmp_path / "bench.toml"
    manifest.write_text('[[runs]]\npath = "runs/orb/MH_01/1"\n')
    [(label, before)] = _digests(manifest).items()
    assert label == "runs/orb/MH_01/1"  # a run folder without keys is labelled by its name
    manifest.write_text('[[runs]]\npath = "runs/orb/MH_01/1"\nname = "orb-first"\n')
    [(label, after)] = _digests(manifest).items()
    assert label == "orb-first"
    assert after != before


def test_function_id_names_module_and_qualname() -> None:
    assert function_id(position_error) == "tests.batch.batch_helpers:position_error"


def _task(tmp_path: Path, **meta: Any) -> Task:
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    if meta:
        (tmp_path / "orb" / "MH_01" / "1" / "meta.json").write_text(json.dumps(meta))
    return make_tasks(load_runs([tmp_path]), position_error)[0]


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
    raise KeyboardInterrupt


def test_run_task_lets_interrupts_through(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        run_task(_interrupt, _task(tmp_path))


def test_run_result_round_trips_through_its_dict() -> None:
    c = Comparison(metric="ape", stats={"x": error_stats([1.0, -1.0])}, units={"x": "m"})
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


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"status": "lost"}, "Expected status ok, failed or crashed, got 'lost'"),
        ({"drop": "digest"}, "Expected a run result record, got KeyError"),
        ({"drop": "name"}, "Expected a run result record, got KeyError"),
    ],
)
def test_run_result_from_dict_rejects_bad_records(change: dict[str, str], match: str) -> None:
    data = RunResult(
        digest="d", name="a/s/1", algorithm="a", sequence="s", trial="1", status="ok"
    ).to_dict()
    if "drop" in change:
        del data[change["drop"]]
    else:
        data.update(change)
    with pytest.raises(ValidationError, match=match):
        RunResult.from_dict(data)
