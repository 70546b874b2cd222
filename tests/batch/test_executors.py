"""Executors: every task ends as exactly one result, whatever dies on the way."""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.batch.executors import (
    DaskExecutor,
    LocalExecutor,
    SerialExecutor,
    make_executor,
)
from robot_msgs.batch.tasks import make_tasks
from robot_msgs.errors import ExecutorError, MissingDependencyError, ValidationError
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import calls, make_tree, position_error, scripted

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from robot_msgs.batch.tasks import RunFunction, RunResult, Task
    from robot_msgs.compare import RunReport
    from tests.batch.batch_helpers import RunKey

APE = "ape:translation"


def _tasks(
    root: Path, fn: RunFunction = scripted, **tree: int | tuple[str, ...]
) -> tuple[list[Task], dict[RunKey, float]]:
    offsets = make_tree(root, **tree)  # type: ignore[arg-type]
    return make_tasks(load_runs([root]), fn), offsets


def _check_exactly_once(results: Sequence[RunResult], tasks: Sequence[Task]) -> None:
    assert len(results) == len(tasks)
    assert Counter(r.digest for r in results) == Counter(t.digest for t in tasks)


def _ape_rms(result: RunResult) -> float:
    assert result.report is not None, (result.error_type, result.error)
    return result.report.comparisons[APE].stats["translation"].rms


def test_local_processes_evaluate_every_task_once(tmp_path: Path) -> None:
    tasks, offsets = _tasks(tmp_path, trials=3)
    with LocalExecutor(workers=2) as ex:
        results = list(ex.run(scripted, tasks))
    _check_exactly_once(results, tasks)
    for r in results:
        assert r.status == "ok"
        assert r.report is not None
        # A root's runs are named by their folder under the root (a moved tree keeps them).
        assert r.report.name == r.name == r.label
        expected = offsets[(r.algorithm, r.sequence, r.trial)]
        assert _ape_rms(r) == pytest.approx(expected, abs=1e-9)
    assert set(calls(tmp_path).values()) == {1}


def test_local_worker_killed_mid_sweep_is_retried_and_every_result_arrives_once(
    tmp_path: Path,
) -> None:
    tasks, _ = _tasks(tmp_path, trials=6)
    killers = tasks[1::5]
    for task in killers:  # each of these kills its worker process the first time it runs
        Path(task.run.estimate + ".crash").touch()
    with LocalExecutor(workers=2, retries=1) as ex:
        results = list(ex.run(scripted, tasks))
    _check_exactly_once(results, tasks)
    assert {r.status for r in results} == {"ok"}
    by_digest = {r.digest: r for r in results}
    assert all(by_digest[t.digest].attempts >= 2 for t in killers)
    assert not any(Path(t.run.estimate + ".crash").exists() for t in killers)


def test_a_task_that_always_kills_its_worker_ends_as_crashed_and_the_others_finish(
    tmp_path: Path,
) -> None:
    tasks, _ = _tasks(tmp_path, trials=2)
    poison = tasks[2]
    Path(poison.run.estimate + ".poison").touch()
    with LocalExecutor(workers=2, retries=1) as ex:
        results = list(ex.run(scripted, tasks))
    _check_exactly_once(results, tasks)
    crashed = [r for r in results if r.status != "ok"]
    assert [r.digest for r in crashed] == [poison.digest]
    assert crashed[0].status == "crashed"
    assert crashed[0].error_type == "WorkerCrash"
    assert "died while evaluating this run, 2 times running alone" in crashed[0].error
    assert crashed[0].report is None
    assert crashed[0].run_report().failure.startswith("WorkerCrash: the worker process died")


def test_local_executor_says_when_workers_cannot_load_the_function(tmp_path: Path) -> None:
    tasks, _ = _tasks(tmp_path, trials=1)

    def local_fn(task: Task) -> RunReport:  # not importable by name in a worker
        return position_error(task)

    with (
        LocalExecutor(workers=1) as ex,
        pytest.raises(ExecutorError, match=r"cannot load the per-run function .*local_fn"),
    ):
        list(ex.run(local_fn, tasks))


def test_serial_executor_runs_in_this_process_in_task_order(tmp_path: Path) -> None:
    tasks, offsets = _tasks(tmp_path, trials=1)
    with SerialExecutor() as ex:
        results = list(ex.run(position_error, tasks))
    assert [r.digest for r in results] == [t.digest for t in tasks]
    assert [_ape_rms(r) for r in results] == pytest.approx(
        [offsets[(t.run.algorithm, t.run.sequence, t.run.trial)] for t in tasks], abs=1e-9
    )
    assert {r.worker.rsplit(":", 1)[1] for r in results} == {str(os.getpid())}


def test_make_executor_checks_its_arguments() -> None:
    local = make_executor("local", workers=3)
    assert isinstance(local, LocalExecutor)
    assert local.workers == 3
    assert isinstance(make_executor("serial"), SerialExecutor)
    with pytest.raises(
        ValidationError, match="Expected an executor serial, local or dask, got 'ray'"
    ):
        make_executor("ray")
    with pytest.raises(ValidationError, match=r"Expected `workers` >= 1, got 0"):
        LocalExecutor(workers=0)
    with pytest.raises(ValidationError, match=r"Expected `retries` >= 0, got -1"):
        LocalExecutor(retries=-1)


def test_dask_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'robot_msgs\[dask\]'"):
        make_executor("dask")
    with pytest.raises(MissingDependencyError, match=r"Batch evaluation on Dask needs"):
        make_executor(scheduler="tcp://127.0.0.1:8786")


def test_dask_executor_must_be_entered() -> None:
    pytest.importorskip("distributed")
    with pytest.raises(ValidationError, match="needs the executor entered"):
        list(DaskExecutor(workers=1).run(position_error, []))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A loopback Dask cluster of 2 single-threaded worker processes."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
        silence_logs=50,
    ) as local:
        yield local


@pytest.mark.slow
def test_dask_worker_killed_mid_sweep_still_gives_every_result_once(
    tmp_path: Path, cluster: Any
) -> None:
    tasks, offsets = _tasks(tmp_path, trials=5)
    killers = tasks[3::10]
    for task in killers:
        Path(task.run.estimate + ".crash").touch()
    with DaskExecutor(scheduler=cluster.scheduler_address, retries=2) as ex:
        results = list(ex.run(scripted, tasks))
    _check_exactly_once(results, tasks)
    assert [(r.error_type, r.error) for r in results if r.status != "ok"] == []
    for r in results:
        expected = offsets[(r.algorithm, r.sequence, r.trial)]
        assert _ape_rms(r) == pytest.approx(expected, abs=1e-9)
    assert not any(Path(t.run.estimate + ".crash").exists() for t in killers)
    # Every run was evaluated; a run whose result sat on a dying worker may have run twice.
    assert set(calls(tmp_path)) == set(offsets)


@pytest.mark.slow
def test_dask_task_that_always_kills_its_worker_ends_as_crashed_after_every_attempt(
    tmp_path: Path,
) -> None:
    pytest.importorskip("distributed")
    # One run only: Dask counts a worker's death against every task it holds, so a run
    # queued beside the poison on a 1-worker cluster could end KilledWorker too.
    tasks, _ = _tasks(tmp_path, algorithms=("orb",), sequences=("MH_01",), trials=1)
    assert len(tasks) == 1
    poison = tasks[0]
    Path(poison.run.estimate + ".poison").touch()
    with DaskExecutor(workers=1, retries=1) as ex:
        results = list(ex.run(scripted, tasks))
    _check_exactly_once(results, tasks)
    crashed = [r for r in results if r.status != "ok"]
    assert [(r.digest, r.status, r.error_type, r.attempts) for r in crashed] == [
        (poison.digest, "crashed", "KilledWorker", 2)
    ]
