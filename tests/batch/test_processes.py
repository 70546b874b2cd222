"""Local worker processes: every run ends once, a death costs its chunk only, no orphans."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import robot_msgs
from robot_msgs.batch.processes import LocalExecutor
from robot_msgs.errors import ExecutorError
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
    from robot_msgs.batch.tasks import Task
    from robot_msgs.compare import RunReport


def test_local_processes_evaluate_every_run_once(tmp_path: Path) -> None:
    offsets = make_tree(tmp_path / "runs", trials=3)
    manifest = load_runs([tmp_path / "runs"])
    state, _ = drive(LocalExecutor(workers=2), scripted, manifest, tmp_path / "out")
    assert state.counts()["ok"] == 12
    assert set(calls(tmp_path / "runs").values()) == {1}
    results = stored(manifest, tmp_path / "out", scripted)
    assert {k: pytest.approx(ape_rms(r), abs=1e-9) for k, r in results.items()} == offsets
    # Each worker process wrote its own records.
    pids = {
        line for log in (tmp_path / "runs").rglob("*.calls") for line in log.read_text().split()
    }
    assert len(pids) >= 1
    assert str(os.getpid()) not in pids


def test_a_worker_killed_mid_chunk_costs_nothing_but_a_retry(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", trials=6)  # 24 runs
    manifest = load_runs([tmp_path / "runs"])
    killers = manifest.runs[3::7]
    for run in killers:  # each kills its worker process the first time it runs
        Path(run.estimate + ".crash").touch()
    state, _ = drive(LocalExecutor(workers=2), scripted, manifest, tmp_path / "out", retries=1)
    assert state.counts()["ok"] == 24
    assert not any(Path(r.estimate + ".crash").exists() for r in killers)
    # The records the dead worker wrote before dying were found again, not recomputed.
    assert set(calls(tmp_path / "runs").values()) == {1}
    results = stored(manifest, tmp_path / "out", scripted)
    assert all(results[r.algorithm, r.sequence, r.trial].attempts >= 2 for r in killers)


def test_a_run_that_always_kills_its_worker_is_crashed_after_its_retries_alone(
    tmp_path: Path,
) -> None:
    make_tree(tmp_path / "runs", trials=2)
    manifest = load_runs([tmp_path / "runs"])
    poison = manifest.runs[2]
    Path(poison.estimate + ".poison").touch()
    state, _ = drive(LocalExecutor(workers=2), scripted, manifest, tmp_path / "out", retries=1)
    assert state.counts()["ok"] == 7
    assert list(state.errors) == [2]
    status, error_type, error = state.errors[2]
    assert (status, error_type) == ("crashed", "WorkerCrash")
    assert error == "the worker process exited with code 7 (2 times, the run alone on its worker)"
    assert stored(manifest, tmp_path / "out", scripted).keys() == {
        (r.algorithm, r.sequence, r.trial) for r in manifest.runs if r is not poison
    }  # never stored as the run's result


def test_retries_zero_ends_a_run_at_its_first_death_alone(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = load_runs([tmp_path / "runs"])
    Path(manifest.runs[0].estimate + ".poison").touch()
    state, _ = drive(LocalExecutor(workers=1), scripted, manifest, tmp_path / "out", retries=0)
    assert state.errors[0][2].endswith("(1 times, the run alone on its worker)")


def test_local_executor_says_when_workers_cannot_load_the_function(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = load_runs([tmp_path / "runs"])

    def local_fn(task: Task) -> RunReport:  # not importable by name in a worker
        return position_error(task)

    with pytest.raises(ExecutorError, match=r"cannot load the per-run function .*local_fn"):
        drive(LocalExecutor(workers=1), local_fn, manifest, tmp_path / "out")


def test_an_interrupt_raised_in_a_worker_stops_the_sweep_and_every_worker(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    make_tree(tmp_path / "runs", trials=4)
    manifest = load_runs([tmp_path / "runs"])
    stop = Path(manifest.runs[5].estimate + ".stop")
    stop.touch()
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with pytest.raises(KeyboardInterrupt, match=f"^{re.escape(str(stop))}$"):
        drive(LocalExecutor(workers=2), scripted, manifest, tmp_path / "out")
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before]
    workers = [p for p in left if "forkserver" not in " ".join(p.cmdline())]
    assert workers == []


def test_workers_exit_when_the_client_end_of_their_lifeline_closes(tmp_path: Path) -> None:
    psutil = pytest.importorskip("psutil")
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    manifest = load_runs([tmp_path / "runs"])
    ex = LocalExecutor(workers=2)
    with ex:
        from robot_msgs.batch.inputs import settings_identity
        from robot_msgs.batch.worker import Job

        job = Job(
            settings=manifest.settings,
            shared=settings_identity(manifest.settings.to_dict(), scripted),
            out=str(tmp_path / "out"),
            session="s",
        )
        started = ex._ready(scripted, job)
        pids = [w.process.pid for w in started]
        assert ex._keep is not None
        ex._keep.close()  # what the kernel does when the client dies, even by kill -9
        ex._keep = None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(psutil.pid_exists(p) for p in pids):
            for w in started:
                w.process.join(0.1)
        assert [w.process.exitcode for w in started] == [70, 70]


def workers(process: Any) -> list[Any]:
    """The local executor's running worker processes: the children of its forkserver."""
    servers = [p for p in process.children() if "forkserver" in " ".join(p.cmdline())]
    found = [w for server in servers for w in server.children()]
    return [w for w in found if w.is_running() and w.status() != "zombie"]


_INTERRUPTED_TWICE = """
import signal
import sys
import psutil
from robot_msgs.batch.processes import LocalExecutor
from robot_msgs.cli.bench import _on_sigterm
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import drive, scripted
from tests.batch.test_processes import workers
signal.signal(signal.SIGTERM, _on_sigterm)  # as bench runs a sweep
try:
    drive(LocalExecutor(workers=2), scripted, load_runs([sys.argv[1]]), sys.argv[2])
except KeyboardInterrupt as stop:
    print(type(stop).__name__, len(workers(psutil.Process())))
    sys.exit(130)
"""


@pytest.mark.parametrize(
    ("second", "stopped_by"),
    [(signal.SIGINT, "KeyboardInterrupt"), (signal.SIGTERM, "_Terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_a_second_ctrl_c_while_the_workers_stop_does_not_leave_one_running(
    tmp_path: Path, second: signal.Signals, stopped_by: str
) -> None:
    """Ctrl-C, then Ctrl-C again while ``close`` waited for the workers to stop: the second
    cut the close short, and a worker that had not stopped on SIGTERM was never killed (it
    could go on storing records after bench counted them). Ctrl-C is ignored while the
    workers stop, as the Dask executor's close does; the close is bounded (2 x STOP_S).
    A SIGTERM there (``timeout``, SLURM) cut it short the same way, both workers left
    running: it is held till the workers are reaped, then stops the command as bench's."""
    pytest.importorskip("psutil")  # the child counts its workers with it
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    markers = [Path(f"{e}.stubborn") for e in (tmp_path / "runs").rglob("estimate.tum")]
    for marker in markers:
        marker.touch()  # SIGTERM ignored: only SIGKILL stops it
    root = Path(__file__).resolve().parents[2]
    src = str(Path(robot_msgs.__file__).resolve().parents[1])
    child = subprocess.Popen(  # noqa: S603 - our own interpreter and package
        [sys.executable, "-c", _INTERRUPTED_TWICE, str(tmp_path / "runs"), str(tmp_path / "out")],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([src, str(root)])},
        stdout=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(m.read_text() for m in markers):
        time.sleep(0.05)  # until the workers hold their runs, SIGTERM ignored
    assert all(m.read_text() for m in markers)
    child.send_signal(signal.SIGINT)  # stops the sweep: close() gives them STOP_S
    time.sleep(0.5)
    child.send_signal(second)  # the second Ctrl-C or a SIGTERM, mid-close
    out, _ = child.communicate(timeout=60)
    assert (child.returncode, out) == (130, f"{stopped_by} 0\n")  # before: both left running
