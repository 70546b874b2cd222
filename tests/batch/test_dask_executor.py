"""Dask: chunks in batches on a LocalCluster, worker deaths counted by the plan, clear errors."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs.batch.backends import make_executor
from robot_msgs.batch.dask_executor import CLOSE_TIMEOUT_S, DaskExecutor
from robot_msgs.batch.inputs import settings_identity
from robot_msgs.batch.plan import ChunkPlan, SweepState
from robot_msgs.batch.worker import Job
from robot_msgs.errors import MissingDependencyError, ValidationError
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import (
    ape_rms,
    calls,
    drive,
    make_tree,
    position_error,
    scripted,
    stored,
)

if TYPE_CHECKING:
    from collections.abc import Iterator


def test_dask_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'robot_msgs\[dask\]'"):
        make_executor("dask")
    with pytest.raises(MissingDependencyError, match=r"Batch evaluation on Dask needs"):
        make_executor(scheduler="tcp://127.0.0.1:8786")


def test_dask_executor_must_be_entered(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    make_tree(tmp_path, trials=1)
    manifest = load_runs([tmp_path])
    job = Job(
        settings=manifest.settings,
        shared=settings_identity(manifest.settings.to_dict(), position_error),
        out=str(tmp_path / "out"),
        session="s",
    )
    plan = ChunkPlan(manifest.runs, [], SweepState(len(manifest.runs)), retries=0)
    with pytest.raises(ValidationError, match="needs the executor entered"):
        list(DaskExecutor(workers=1).run(position_error, job, plan))


class _SecondCtrlCError(Exception):
    """What SIGINT raises in the test below (not KeyboardInterrupt, which ends pytest)."""


def _raise_second_ctrl_c(signum: int, frame: object) -> None:
    raise _SecondCtrlCError(signum)


def test_a_second_ctrl_c_while_the_cluster_closes_does_not_cut_the_close_short() -> None:
    """Ctrl-C, then Ctrl-C again while the LocalCluster closed: the second ended the close,
    and bench counted the records stored while the workers went on writing theirs ("9 run
    results are stored", 20 on disk; 3 of 4 tries with two SIGINTs 0.3 s apart). The
    close now runs to its end (the cluster here a stand-in, so no timing is involved)."""
    pytest.importorskip("distributed")
    closed: list[str] = []

    class Client:
        status = "running"

        def close(self, timeout: float) -> None:
            closed.append("client")

    class Cluster:
        def close(self, timeout: float) -> None:
            del timeout
            signal.raise_signal(signal.SIGINT)  # the second Ctrl-C, mid-close
            closed.append("every worker stopped")

    executor = DaskExecutor(workers=1)
    executor.client, executor.cluster = Client(), Cluster()
    previous = signal.signal(signal.SIGINT, _raise_second_ctrl_c)
    try:
        executor.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)
        assert signal.getsignal(signal.SIGINT) is _raise_second_ctrl_c  # as it was
    finally:
        signal.signal(signal.SIGINT, previous)
    assert closed == ["client", "every worker stopped"]
    assert (executor.client, executor.cluster) == (None, None)


def test_a_cluster_whose_close_hangs_is_left_after_the_bound_with_a_warning() -> None:
    """Ctrl-C is ignored while the cluster closes: a close that hung (a nanny's, stuck)
    waited for ever, three Ctrl-C unheard. It is bounded: after ``CLOSE_TIMEOUT_S`` the
    executor leaves it, saying so."""
    pytest.importorskip("distributed")
    asked: list[float] = []

    class Client:
        status = "running"

        def close(self, timeout: float) -> None:
            del timeout

    class Cluster:
        def close(self, timeout: float | None = None) -> None:
            asked.append(-1.0 if timeout is None else timeout)
            raise TimeoutError  # what distributed's sync raises once the timeout is spent

    executor = DaskExecutor(workers=1)
    executor.client, executor.cluster = Client(), Cluster()
    with pytest.warns(RuntimeWarning, match=r"did not close within 20 s: its workers stop"):
        executor.__exit__(KeyboardInterrupt, KeyboardInterrupt(), None)
    assert asked == [CLOSE_TIMEOUT_S]
    assert (executor.client, executor.cluster) == (None, None)


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
def test_chunks_on_a_cluster_give_every_result_once_with_a_worker_killed(
    tmp_path: Path, cluster: Any
) -> None:
    offsets = make_tree(tmp_path / "runs", trials=5)  # 20 runs
    manifest = load_runs([tmp_path / "runs"])
    killers = manifest.runs[3::10]
    for run in killers:
        Path(run.estimate + ".crash").touch()
    executor = DaskExecutor(scheduler=cluster.scheduler_address)
    state, plan = drive(executor, scripted, manifest, tmp_path / "out", retries=2)
    assert (state.counts()["ok"], state.errors) == (20, {})
    assert plan.chunks < 20 + 2 * len(killers)  # runs went out in chunks, not one by one
    results = stored(manifest, tmp_path / "out", scripted)
    assert {k: pytest.approx(ape_rms(r), abs=1e-9) for k, r in results.items()} == offsets
    assert not any(Path(r.estimate + ".crash").exists() for r in killers)
    # Every run was evaluated; one whose chunk sat on the dying worker may have run twice.
    assert set(calls(tmp_path / "runs")) == set(offsets)


@pytest.mark.slow
def test_a_run_that_always_kills_its_worker_ends_crashed_after_retries_on_our_cluster(
    tmp_path: Path,
) -> None:
    pytest.importorskip("distributed")
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    manifest = load_runs([tmp_path / "runs"])
    Path(manifest.runs[0].estimate + ".poison").touch()
    state, _ = drive(DaskExecutor(workers=1), scripted, manifest, tmp_path / "out", retries=1)
    assert state.counts()["ok"] == 1
    status, error_type, error = state.errors[0]
    assert (status, error_type) == ("crashed", "KilledWorker")
    assert error.endswith("(2 times, the run alone on its worker)")  # allowed-failures 0 + plan
    assert len(stored(manifest, tmp_path / "out", scripted)) == 1
