"""A real loopback cluster: a ``dask scheduler`` and two ``dask worker`` processes started here.

Each test kills part of the cluster under a running ``robot-msgs bench --scheduler`` (the
command line, in its own process, as a user runs it) and checks what the issues asked:
after ``--resume`` the table is the table of a clean sweep, byte for byte, and a run
interrupted by the loss exits non-zero. The clean table comes from a serial sweep of
the same runs, whose RMS errors are checked against their construction (each estimate
is the reference moved by its own offset along z, unaligned: its RMS error is that
offset). Also: a scheduler restarted without workers is said within seconds and stops
the sweep at ``--stall-timeout``; a second client on the folder is refused at once; a
full disk (a small tmpfs) stops the sweep with nothing more evaluated.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import robot_msgs
from robot_msgs.batch.dask_executor import DaskExecutor
from robot_msgs.batch.results_table import read_results
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import (
    calls,
    drive,
    make_tree,
    scripted,
    small_disk,
    stored,
    write_tum,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = [pytest.mark.slow]
pytest.importorskip("distributed")
pytest.importorskip("pyarrow")
psutil = pytest.importorskip("psutil")

SRC = str(Path(robot_msgs.__file__).resolve().parents[1])
REPO = str(Path(__file__).resolve().parents[2])
DASK = str(Path(sys.executable).with_name("dask"))
N_POSES = 10_000
ALGORITHMS = ("a", "b", "c", "d")
SEQUENCES = ("S1", "S2")
TRIALS = 20  # 160 runs of 10^4 poses: a few seconds of work for two workers
APE = "ape:translation"


def _env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join([SRC, REPO, os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, **extra}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _offset(k: int) -> float:
    return 0.001 * k


def _tree(root: Path) -> dict[tuple[str, str, str], float]:
    """ROOT/SEQUENCE/reference.tum (a planar curve) and each run's estimate moved along z."""
    t = np.arange(N_POSES) * 0.05
    curve = np.column_stack([t, np.sin(t), 0 * t])
    offsets = {}
    k = 0
    for sequence in SEQUENCES:
        write_tum(root / sequence / "reference.tum", t, curve)
        for algorithm in ALGORITHMS:
            for trial in range(1, TRIALS + 1):
                k += 1
                moved = curve + np.array([0.0, 0.0, _offset(k)])
                write_tum(root / algorithm / sequence / str(trial) / "estimate.tum", t, moved)
                offsets[(algorithm, sequence, str(trial))] = _offset(k)
    return offsets


def _bench(root: Path, out: Path, *args: str) -> list[str]:
    return [
        sys.executable, "-m", "robot_msgs.cli", "bench", str(root), "--out", str(out),
        "--align", "none", *args,
    ]  # fmt: skip


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The runs and a clean serial sweep of them (its table checked by construction)."""
    base = tmp_path_factory.mktemp("cluster")
    root = base / "runs"
    offsets = _tree(root)
    clean = base / "clean"
    done = subprocess.run(  # noqa: S603 - our interpreter and module
        [*_bench(root, clean, "--serial", "--quiet")], env=_env(), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    rows = [r for r in read_results(clean / "results.parquet") if r["evaluation"] == APE]
    assert len(rows) == len(offsets) == 160
    for row in rows:
        expected = offsets[(row["algorithm"], row["sequence"], row["trial"])]
        assert row["rms"] == pytest.approx(expected, abs=1e-9)
    return root, clean


class _Cluster:
    """A scheduler and its workers, each a process of its own; everything killed at the end."""

    def __init__(self, port: int, **env: str) -> None:
        self.port = port
        self.address = f"tcp://127.0.0.1:{port}"
        self.env = env
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []

    def start(self, workers: int = 2) -> None:
        self.scheduler = subprocess.Popen(  # noqa: S603 - the venv's dask command
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--no-dashboard"],
            env=_env(**self.env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        command = [DASK, "worker", self.address, "--nthreads", "1", "--no-dashboard"]
        self.workers += [
            subprocess.Popen(  # noqa: S603 - the venv's dask command
                [*command, "--host", "127.0.0.1"],
                env=_env(**self.env),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(workers)
        ]
        self.wait_for(workers)

    def add_workers(self, workers: int) -> None:
        command = [DASK, "worker", self.address, "--nthreads", "1", "--no-dashboard"]
        self.workers += [
            subprocess.Popen(  # noqa: S603 - the venv's dask command
                [*command, "--host", "127.0.0.1"],
                env=_env(**self.env),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(workers)
        ]
        self.wait_for(len(self.workers))

    def wait_for(self, workers: int) -> None:
        import distributed

        deadline = time.monotonic() + 60
        while not self._reached(distributed, workers):
            if time.monotonic() > deadline:
                pytest.fail(f"no scheduler with {workers} workers at {self.address} in 60 s")
            time.sleep(0.2)

    def _reached(self, distributed: Any, workers: int) -> bool:
        try:
            with distributed.Client(self.address, timeout=5, set_as_default=False) as c:
                if workers:
                    c.wait_for_workers(workers, timeout=60)
        except (OSError, TimeoutError):
            return False
        return True

    def kill_scheduler(self) -> None:
        assert self.scheduler is not None
        self.scheduler.send_signal(signal.SIGKILL)
        self.scheduler.wait()

    def kill_worker_and_nanny(self, k: int = 0) -> None:
        nanny = self.workers[k]
        children = psutil.Process(nanny.pid).children(recursive=True)
        assert children, "a `dask worker` runs its worker under a nanny"
        for proc in [psutil.Process(nanny.pid), *children]:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.kill()
        nanny.wait()

    def close(self) -> None:
        procs = [p for p in [self.scheduler, *self.workers] if p is not None]
        self.scheduler, self.workers = None, []
        for proc in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                for child in psutil.Process(proc.pid).children(recursive=True):
                    child.kill()
            proc.kill()
            proc.wait()


@pytest.fixture
def cluster() -> Iterator[_Cluster]:
    # allowed-failures 0: each worker death reaches the client, which counts --retries.
    # A cluster whose workers did not reach its scheduler in 60 s is started once more on
    # another port: in one clean-clone CI run the scheduler's free port was answered by
    # dangling streams and no worker ever registered (the product is not involved yet).
    for attempt in (1, 2):
        started = _Cluster(_free_port(), DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
        try:
            started.start()
        except pytest.fail.Exception:
            started.close()
            if attempt == 2:
                raise
            continue
        try:
            yield started
        finally:
            started.close()
        return


def _start_bench(argv: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # noqa: S603 - our interpreter and module
        argv, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _when_stored(out: Path, count: int, proc: subprocess.Popen[bytes]) -> int:
    """Wait until ``count`` records are stored (the sweep is under way); return how many."""
    store = ResultStore(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        found = store.count() if store.root.is_dir() else 0
        if found >= count:
            return found
        time.sleep(0.01)
    pytest.fail(f"the sweep stored fewer than {count} records (exit {proc.poll()})")


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out.decode(), err.decode()


def test_a_killed_scheduler_fails_the_run_and_resume_gives_the_clean_table(
    tmp_path: Path, sweep: tuple[Path, Path], cluster: _Cluster
) -> None:
    root, clean = sweep
    out = tmp_path / "out"
    proc = _start_bench(_bench(root, out, "--scheduler", cluster.address))
    before = _when_stored(out, 20, proc)
    cluster.kill_scheduler()
    code, printed, err = _finish(proc)
    assert code == 1, err
    assert "SchedulerLost: the connection to the Dask scheduler at" in printed
    assert "--resume computes the" in printed
    assert "ERROR: " in err
    assert "Traceback" not in err + printed
    store = ResultStore(out)
    after = store.count()
    assert before <= after < 160  # runs lost with the scheduler were not stored
    lost = [r for r in read_results(out / "results.parquet") if r["status"] == "lost"]
    assert lost
    assert {r["error_type"] for r in lost} == {"SchedulerLost"}
    assert {r["rms"] for r in lost} == {None}

    cluster.close()  # its workers leave with their scheduler; whatever is left goes now
    cluster.start()
    code, printed, err = _finish(
        _start_bench(_bench(root, out, "--scheduler", cluster.address, "--resume"))
    )
    assert code == 0, err
    assert f"{after} reused, {160 - after} computed" in " ".join(printed.split())
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()
    assert (out / "ranking.json").read_text() == (clean / "ranking.json").read_text()


def test_a_killed_worker_and_its_nanny_cost_nothing_and_resume_keeps_the_clean_table(
    tmp_path: Path, sweep: tuple[Path, Path], cluster: _Cluster
) -> None:
    root, clean = sweep
    out = tmp_path / "out"
    proc = _start_bench(_bench(root, out, "--scheduler", cluster.address, "--retries", "0"))
    _when_stored(out, 20, proc)
    cluster.kill_worker_and_nanny(0)
    code, printed, err = _finish(proc)
    # The chunk on the dead worker went back, its runs alone on the other worker; none
    # was charged (none died alone), so even --retries 0 loses nothing.
    assert code == 0, err
    assert "160 runs: 160 evaluated (160 succeeded)" in " ".join(printed.split())
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()
    code, printed, err = _finish(
        _start_bench(_bench(root, out, "--scheduler", cluster.address, "--resume"))
    )
    assert code == 0, err
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()


def test_an_input_replaced_during_a_sweep_and_restored_is_recomputed_on_resume(
    tmp_path: Path, sweep: tuple[Path, Path], cluster: _Cluster
) -> None:
    root, clean = sweep
    out = tmp_path / "out"
    last = load_runs([root]).runs[-1]
    original = Path(last.estimate).read_bytes()
    t = np.arange(N_POSES) * 0.05
    try:
        proc = _start_bench(_bench(root, out, "--scheduler", cluster.address))
        _when_stored(out, 1, proc)
        # Replaced while the sweep runs, before its turn: 0.5 m along z instead of its own.
        write_tum(Path(last.estimate), t, np.column_stack([t, np.sin(t), 0 * t + 0.5]))
        code, _, err = _finish(proc)
        assert code == 0, err
        [row] = [
            r for r in read_results(out / "results.parquet")
            if r["run"] == last.name and r["evaluation"] == APE
        ]  # fmt: skip
        assert row["rms"] == pytest.approx(0.5, abs=1e-9)  # the bytes it read, and their hash
    finally:
        Path(last.estimate).write_bytes(original)  # restored: another mtime, the old bytes
    code, printed, err = _finish(
        _start_bench(_bench(root, out, "--scheduler", cluster.address, "--resume"))
    )
    assert code == 0, err
    assert "159 reused, 1 computed" in " ".join(printed.split())
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()


def test_retries_count_worker_deaths_on_an_existing_scheduler(
    tmp_path: Path, cluster: _Cluster
) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=3)
    manifest = load_runs([tmp_path / "runs"])
    Path(manifest.runs[1].estimate + ".poison").touch()  # kills every worker it runs on
    executor = DaskExecutor(scheduler=cluster.address)
    state, _ = drive(executor, scripted, manifest, tmp_path / "out", retries=1)
    assert state.counts()["ok"] == 2
    status, error_type, error = state.errors[1]
    assert (status, error_type) == ("crashed", "KilledWorker")
    assert error.endswith("(2 times, the run alone on its worker)")  # --retries 1: 2 deaths
    assert len(stored(manifest, tmp_path / "out", scripted)) == 2


def test_distributed_s_own_logs_stay_off_the_terminal_while_connected_to_a_scheduler(
    cluster: _Cluster,
) -> None:
    # Under load, a write to a scheduler that had just died logged distributed's
    # "Error in batched write" with its traceback in the middle of bench's lines (seen
    # once in a full run of the test below). The sweep says that loss itself.
    script = f"""
import logging
from robot_msgs.batch.dask_executor import DaskExecutor
batched = logging.getLogger("distributed.batched")
with DaskExecutor(scheduler={cluster.address!r}):
    try:
        raise OSError("Stream is closed")
    except OSError:
        batched.exception("Error in batched write")
batched.error("after the sweep: distributed's own again")
"""
    done = subprocess.run(  # noqa: S603 - our interpreter and script
        [sys.executable, "-c", script],
        check=False, env=_env(), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()  # a time stamp, then distributed's words
    assert line.endswith(
        " - distributed.batched - ERROR - after the sweep: distributed's own again"
    )


class _Said:
    """The lines a process writes on stderr, each with the monotonic time it was read."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.lines: list[tuple[float, str]] = []
        assert proc.stderr is not None
        self._stream = proc.stderr
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for raw in self._stream:
            self.lines.append((time.monotonic(), raw.decode()))

    def first(self, text: str) -> tuple[float, str]:
        found = [(t, line) for t, line in self.lines if text in line]
        assert found, f"no line with {text!r} in {[line for _, line in self.lines]}"
        return found[0]

    def text(self) -> str:
        self._thread.join(timeout=10)
        return "".join(line for _, line in self.lines)


def test_a_scheduler_back_without_workers_is_said_at_once_and_stops_the_sweep_at_its_timeout(
    tmp_path: Path, sweep: tuple[Path, Path], cluster: _Cluster
) -> None:
    root, clean = sweep
    out = tmp_path / "out"
    with _start_bench(
        _bench(root, out, "--scheduler", cluster.address, "--stall-timeout", "15")
    ) as proc:
        said = _Said(proc)
        try:
            _when_stored(out, 20, proc)
            cluster.close()  # Dask workers exit when their scheduler dies: both go
            cluster.start(workers=0)  # back seconds later, at the same address, no worker
            back = time.monotonic()
            assert proc.stdout is not None
            printed = proc.stdout.read().decode()
            code = proc.wait(timeout=120)
            ended = time.monotonic()
        finally:
            if proc.poll() is None:
                proc.kill()
    err = said.text()
    assert code == 1, err
    # Said within 10 s of the scheduler's return (and each second while it was away).
    noticed, line = said.first(f"bench: no worker on dask ({cluster.address}) for ")
    # The client says it is reconnecting each second it is; on a quiet machine it is back
    # within the first second and the silence starts at the "no worker" line.
    try:
        quiet_since = min(said.first("bench: reconnecting to the Dask scheduler at")[0], noticed)
    except AssertionError:
        quiet_since = noticed
    assert noticed - back < 10.0, line
    assert line.rstrip().endswith("stopping at 15 s (--stall-timeout)")
    # A clean stop at the timeout: counted from the first silence without a worker.
    assert 14.0 <= ended - quiet_since <= 15.0 + 20.0
    assert re.search(
        rf"stopped: no worker on dask \({re.escape(cluster.address)}\)\s+for\s+1[5-9]\s+s\s+"
        r"\(--stall-timeout\s+15\)\n",  # the summary wraps at 80 columns
        printed,
    ), printed
    rows = read_results(out / "results.parquet")
    ok = len({r["run"] for r in rows if r["status"] == "ok"})
    lost = {r["run"] for r in rows if r["status"] == "lost"}
    assert (len(lost), 0 < ok < 160) == (160 - ok, True)  # each run not evaluated, named
    assert f"--resume computes the {160 - ok} runs not evaluated" in printed
    assert "ERROR: " in err
    assert "Traceback" not in err + printed
    # Records the workers wrote for chunks whose results the lost scheduler never passed
    # on are on disk all the same: --resume keeps them.
    stored = ResultStore(out).count()
    assert ok <= stored < 160

    cluster.add_workers(2)
    code, printed, err = _finish(
        _start_bench(_bench(root, out, "--scheduler", cluster.address, "--resume"))
    )
    assert code == 0, err
    assert f"{stored} reused, {160 - stored} computed" in " ".join(printed.split())
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()
    assert (out / "ranking.json").read_text() == (clean / "ranking.json").read_text()


def test_a_second_client_on_a_folder_in_use_is_refused_at_once_and_the_first_works_alone(
    tmp_path: Path, sweep: tuple[Path, Path], cluster: _Cluster
) -> None:
    root, clean = sweep
    out = tmp_path / "out"
    first = _start_bench(_bench(root, out, "--scheduler", cluster.address))
    _when_stored(out, 5, first)
    started = time.monotonic()
    second = subprocess.run(  # noqa: S603 - our interpreter and module
        _bench(root, out, "--scheduler", cluster.address, "--resume"),
        env=_env(),
        capture_output=True,
        check=False,
        timeout=120,
    )
    took = time.monotonic() - started
    err = second.stderr.decode()
    assert second.returncode == 1, err
    assert f"is in use by another sweep (pid {first.pid} on " in err
    assert "reading the runs" not in err  # refused before it read a run
    assert took < 10.0  # the interpreter's start and the command's imports
    code, printed, err = _finish(first)
    assert code == 0, err
    assert "160 runs: 160 evaluated (160 succeeded)" in " ".join(printed.split())
    assert "0 reused, 160 computed" in " ".join(printed.split())  # nothing done twice
    assert (out / "results.parquet").read_bytes() == (clean / "results.parquet").read_bytes()


def test_a_full_disk_stops_a_sweep_on_the_cluster_with_nothing_more_evaluated(
    tmp_path: Path, cluster: _Cluster
) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01", "MH_02"), trials=10)
    manifest = load_runs([root])
    out = tmp_path / "disk"
    with small_disk(out, "64k"):  # about 15 records
        executor = DaskExecutor(scheduler=cluster.address)
        summary = run_sweep(manifest, out, fn=scripted, executor=executor, progress=None)
        stored = ResultStore(out).count()
        assert 0 < stored < 40
        assert summary.storage_error
        assert "no space left on the device" in summary.stopped
        assert len(summary.infrastructure) == 40 - stored  # every run not stored, named
        evaluated = sum(calls(root).values())
        # The chunks in flight (two a worker thread) each stop at their first record
        # not stored; nothing is handed out after the first.
        assert stored <= evaluated <= stored + 4
