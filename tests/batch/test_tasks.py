"""Tasks: content hashes that decide what ``--resume`` recomputes, and run_task's outcomes."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import warnings

import pytest

from robot_msgs.batch.manifest import load_bench_input
from robot_msgs.batch.settings import Settings
from robot_msgs.batch.tasks import RunResult, file_sha256, function_id, make_tasks, run_task
from robot_msgs.compare import Comparison, error_stats
from robot_msgs.errors import DataWarning, ValidationError
from tests.batch.batch_helpers import make_tree, position_error


def _digests(root, fn=position_error, settings=None):
    m = load_bench_input(root)
    if settings is not None:
        m = type(m)(runs=m.runs, settings=settings, source=m.source)
    return {t.run.label: t.digest for t in make_tasks(m, fn)}


def test_file_hash_is_sha256_of_the_bytes(tmp_path):
    path = tmp_path / "f.tum"
    path.write_bytes(b"0 1 2 3 0 0 0 1\n")
    assert file_sha256(path) == hashlib.sha256(b"0 1 2 3 0 0 0 1\n").hexdigest()
    assert file_sha256(tmp_path / "absent") == "missing"
    assert file_sha256(None) == "missing"


def test_folder_hash_covers_names_and_bytes(tmp_path):
    bag = tmp_path / "bag"
    bag.mkdir()
    (bag / "a.db3").write_bytes(b"x")
    before = file_sha256(bag)
    (bag / "a.db3").write_bytes(b"y")
    changed = file_sha256(bag)
    (bag / "a.db3").rename(bag / "b.db3")
    assert len({before, changed, file_sha256(bag)}) == 3


def test_hash_changes_only_for_the_run_whose_input_changed(tmp_path):
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    (tmp_path / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")
    after = _digests(tmp_path)
    assert {k for k in before if before[k] != after[k]} == {"orb/MH_01/2"}


def test_changing_a_shared_reference_changes_every_run_of_its_sequence(tmp_path):
    make_tree(tmp_path, trials=2)
    before = _digests(tmp_path)
    with (tmp_path / "MH_02" / "reference.tum").open("a") as handle:
        handle.write("# a comment changes the bytes\n")
    after = _digests(tmp_path)
    assert {k for k in before if before[k] != after[k]} == {
        f"{a}/MH_02/{t}" for a in ("orb", "vins") for t in "12"
    }


def test_hash_depends_on_settings_and_function_but_not_on_where_the_tree_is(tmp_path):
    make_tree(tmp_path / "a", trials=1)
    base = _digests(tmp_path / "a")
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert _digests(tmp_path / "b") == base
    se3 = Settings.build({"align": "se3"})
    assert set(_digests(tmp_path / "a", settings=se3).values()).isdisjoint(base.values())
    assert set(_digests(tmp_path / "a", fn=run_task).values()).isdisjoint(base.values())
    assert len(set(base.values())) == len(base)  # run keys make identical files distinct


def test_function_id_names_module_and_qualname():
    assert function_id(position_error) == "tests.batch.batch_helpers:position_error"


def _task(tmp_path, **settings):
    make_tree(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    m = load_bench_input(tmp_path)
    if settings:
        m = type(m)(runs=m.runs, settings=Settings.build(settings), source=m.source)
    return make_tasks(m, position_error)[0]


def test_run_task_returns_comparisons_with_timing_and_worker(tmp_path):
    task = _task(tmp_path)
    result = run_task(position_error, task)
    assert result.status == "ok"
    assert (result.algorithm, result.sequence, result.trial) == ("orb", "MH_01", "1")
    # The helper's estimate is the reference shifted by 0.001 m: RMS error 0.001 m by hand.
    assert result.comparisons[0].stats["translation"].rms == pytest.approx(0.001, abs=1e-9)
    assert result.elapsed_s > 0
    assert result.cpu_s > 0
    assert ":" in result.worker


def _raises(task):
    raise ValidationError("Expected 2 poses, got 1")


def test_run_task_records_an_evaluation_error_with_its_type_and_text(tmp_path):
    result = run_task(_raises, _task(tmp_path))
    assert (result.status, result.error_type, result.error) == (
        "failed",
        "ValidationError",
        "Expected 2 poses, got 1",
    )
    assert result.comparisons == ()


def _warns(task):
    warnings.warn("3 NaN rows dropped", DataWarning, stacklevel=1)
    warnings.warn("3 NaN rows dropped", DataWarning, stacklevel=1)
    return position_error(task)


def test_run_task_keeps_warnings_as_notes_once_each(tmp_path):
    result = run_task(_warns, _task(tmp_path))
    assert result.status == "ok"
    assert result.notes == ("DataWarning: 3 NaN rows dropped",)


def _wrong_type(task):
    return ["not a comparison"]


def _too_few(task):
    return ()


def test_run_task_refuses_results_that_do_not_match_the_evaluations(tmp_path):
    task = _task(tmp_path)
    wrong = run_task(_wrong_type, task)
    assert (wrong.status, wrong.error_type) == ("failed", "TypeError")
    assert "Expected the per-run function to return Comparisons" in wrong.error
    few = run_task(_too_few, task)
    assert few.error == (
        "Expected the per-run function to return 1 Comparisons (one per evaluation of the "
        "settings), got 0"
    )


def test_a_run_that_reported_failing_is_recorded_without_evaluating(tmp_path):
    task = _task(tmp_path)
    failed = dataclasses.replace(task, run=dataclasses.replace(task.run, failure="exit code 3"))
    result = run_task(_raises, failed)
    assert (result.status, result.error_type, result.error) == (
        "failed",
        "ReportedFailure",
        "exit code 3",
    )


def _interrupt(task):
    raise KeyboardInterrupt


def test_run_task_lets_interrupts_through(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        run_task(_interrupt, _task(tmp_path))


def test_run_result_round_trips_through_its_dict(tmp_path):
    c = Comparison(metric="ape", stats={"x": error_stats([1.0, -1.0])}, units={"x": "m"})
    r = RunResult(
        digest="d", algorithm="a", sequence="s", trial="1", status="ok", comparisons=(c,),
        notes=("n",), attempts=2, elapsed_s=0.5, cpu_s=0.25, worker="h:1",
    )  # fmt: skip
    assert RunResult.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"status": "lost"}, "Expected status ok, failed or crashed, got 'lost'"),
        ({"digest": None, "drop": "digest"}, "Expected a run result record, got KeyError"),
    ],
)
def test_run_result_from_dict_rejects_bad_records(change, match):
    data = RunResult(digest="d", algorithm="a", sequence="s", trial="1", status="ok").to_dict()
    if "drop" in change:
        del data[change["drop"]]
    else:
        data.update(change)
    with pytest.raises(ValidationError, match=match):
        RunResult.from_dict(data)
