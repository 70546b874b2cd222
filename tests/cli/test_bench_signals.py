"""SIGTERM, SIGINT and ``kill -9`` of a local ``robot-msgs bench``: no process left behind.

``timeout`` and SLURM end a job with SIGTERM; a node's OOM killer or ``scancel -9`` with
SIGKILL. Before, 4 worker processes were still alive 60 s after either, and SIGTERM
skipped the resume hint. Each test starts the command in its own process, waits until
the sweep is under way (records stored), signals it, and checks that every process it
had started (the forkserver and the workers) is gone within 5 s, then that ``--resume``
finishes the sweep with every run evaluated.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

import robot_msgs
from robot_msgs.batch.store import ResultStore
from tests.batch.batch_helpers import write_tum

if TYPE_CHECKING:
    from typing import Any

pytestmark = [pytest.mark.slow]
psutil = pytest.importorskip("psutil")

SRC = str(Path(robot_msgs.__file__).resolve().parents[1])
RUNS = 96  # of 10^4 poses: a few seconds for two workers
GONE_WITHIN_S = 5.0


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("signals") / "runs"
    t = np.arange(10_000) * 0.05
    curve = np.column_stack([t, np.sin(t), 0 * t])
    write_tum(base / "S1" / "reference.tum", t, curve)
    for k in range(RUNS):
        algorithm, trial = f"algo{k % 4}", str(k // 4 + 1)
        moved = curve + np.array([0.0, 0.0, 0.001 * (k + 1)])
        write_tum(base / algorithm / "S1" / trial / "estimate.tum", t, moved)
    return base


def _argv(root: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "robot_msgs.cli", "bench", str(root), "--out", str(out),
        "--workers", "2", "--align", "none", *extra,
    ]  # fmt: skip


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _under_way(out: Path, proc: subprocess.Popen[bytes]) -> list[Any]:
    """Wait until the sweep has stored a few records; return every process it started."""
    store = ResultStore(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if store.root.is_dir() and store.count() >= 3:
            children: list[Any] = psutil.Process(proc.pid).children(recursive=True)
            assert len(children) >= 3  # the forkserver and two workers at least
            return children
        time.sleep(0.01)
    pytest.fail(f"the sweep did not get under way (exit {proc.poll()})")


def _running(p: Any) -> bool:
    try:
        return bool(p.is_running() and p.status() != psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return False


def _alive(procs: list[Any]) -> list[Any]:
    return [p for p in procs if _running(p)]


def _gone_within(procs: list[Any], seconds: float) -> list[Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _alive(procs):
        time.sleep(0.05)
    return _alive(procs)


def _resume_finishes(root: Path, out: Path) -> None:
    done = subprocess.run(  # noqa: S603 - our interpreter and module
        [*_argv(root, out, "--resume", "--quiet")], env=_env(), capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    assert f"{RUNS} runs: {RUNS} evaluated ({RUNS} succeeded)" in done.stdout.decode()
    assert not list((out / "runs").rglob(".*.tmp"))  # a killed writer's temporaries swept


@pytest.mark.parametrize(
    ("sig", "code", "said"),
    [
        (signal.SIGTERM, 143, "terminated (SIGTERM): every worker stopped;"),
        (signal.SIGINT, 130, "interrupted: every worker stopped;"),
    ],
)
def test_a_signalled_sweep_stops_every_worker_says_how_to_resume_and_resumes(
    tmp_path: Path, root: Path, sig: signal.Signals, code: int, said: str
) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(  # noqa: S603 - our interpreter and module
        _argv(root, out), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    started = _under_way(out, proc)
    sent = time.monotonic()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    left = _gone_within(started, GONE_WITHIN_S - (time.monotonic() - sent))
    assert left == [], [p.cmdline() for p in left]
    assert proc.returncode == code, err.decode()
    text = err.decode()
    assert said in text
    assert "run the same command with --resume to finish" in text
    assert "Traceback" not in text
    assert not (out / "results.parquet").exists()  # no partial table
    assert ResultStore(out).count() < RUNS  # the signal came mid-sweep
    _resume_finishes(root, out)


def test_a_sweep_killed_by_sigkill_leaves_no_worker_behind(tmp_path: Path, root: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(  # noqa: S603 - our interpreter and module
        _argv(root, out), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    started = _under_way(out, proc)
    proc.kill()  # no handler runs: the workers' lifeline closes with the client
    proc.wait()
    left = _gone_within(started, GONE_WITHIN_S)
    assert left == [], [p.cmdline() for p in left]
    assert ResultStore(out).count() < RUNS
    _resume_finishes(root, out)


def test_ctrl_c_on_a_dask_sweep_says_one_thing_and_leaves_no_process(
    tmp_path: Path, root: Path
) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "out"
    argv = [a for a in _argv(root, out) if a not in ("--workers", "2")]
    proc = subprocess.Popen(  # noqa: S603 - our interpreter and module
        [*argv, "--dask", "--workers", "2"],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a terminal's Ctrl-C: SIGINT to the whole process group
    )
    started = _under_way(out, proc)
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    left = _gone_within(started, GONE_WITHIN_S - (time.monotonic() - sent))
    assert left == [], [p.cmdline() for p in left]
    text = err.decode()
    assert proc.returncode == 130, text
    # Before: each worker process printed its KeyboardInterrupt (74 lines for two).
    assert "Traceback" not in text
    assert "KeyboardInterrupt" not in text
    assert "interrupted: every worker stopped;" in text
    _resume_finishes(root, out)
