"""Run trees for the batch tests and per-run functions that workers import by name.

The per-run functions here are real evaluations of a simple kind (position error of
poses paired by index, no alignment) that return a :class:`RunReport` with one
Comparison per metric of the settings, so the engine can be tested on its own; the
shipped ``evaluate_task`` is tested with the real readers and metrics in
``test_worker.py``. Markers beside an estimate file script failures:
``<estimate>.crash`` kills the worker process once (the marker is consumed),
``<estimate>.poison`` kills it every time, ``<estimate>.stop`` interrupts the sweep
(KeyboardInterrupt), ``<estimate>.hang`` makes it sleep for a minute (a worker that
returns nothing), ``<estimate>.stubborn`` the same, SIGTERM ignored (a worker only
SIGKILL stops; it writes its process id into the marker once it ignores SIGTERM). Each evaluation appends a line to ``<estimate>.calls``, an
independent witness of how often a run was computed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.batch.inputs import run_key, settings_identity
from robot_msgs.batch.plan import ChunkPlan, SweepState
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.worker import Job
from robot_msgs.compare import Comparison, RunReport, error_stats
from tests.compare.comparisons import comparison

if TYPE_CHECKING:
    from collections.abc import Iterator

    from numpy.typing import ArrayLike

    from robot_msgs.batch.executors import Executor
    from robot_msgs.batch.tasks import RunFunction, RunResult, Task
    from robot_msgs.runs.manifest import Manifest

RunKey = tuple[str, str, str]


def write_tum(path: Path, t: ArrayLike, xyz: ArrayLike) -> None:
    """Write poses (stamps ``(N,)`` s, positions ``(N, 3)`` m) with identity rotations as TUM."""
    stamps = np.asarray(t, dtype=np.float64)
    quat = np.tile([0.0, 0.0, 0.0, 1.0], (stamps.size, 1))
    rows = np.column_stack([stamps, np.asarray(xyz, dtype=np.float64), quat])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, rows, fmt="%.9f")


def make_tree(
    root: Path,
    *,
    algorithms: tuple[str, ...] = ("orb", "vins"),
    sequences: tuple[str, ...] = ("MH_01", "MH_02"),
    trials: int = 3,
    n_poses: int = 50,
) -> dict[RunKey, float]:
    """Runs by the folder convention: ROOT/{sequence}/reference.tum, ROOT/{a}/{s}/{trial}/.

    Each run folder ROOT/{algorithm}/{sequence}/{trial}/ holds ``estimate.tum``: the
    reference (x = t, identity rotations) shifted by a constant offset along y, distinct
    per run (0.001 m times the run's position in sequence, algorithm, trial order), so
    each run's RMS position error is its offset (a hand calculation). Returns run keys
    -> offset in metres.
    """
    t = np.arange(n_poses, dtype=float) * 0.1
    xyz = np.column_stack([t, np.zeros_like(t), np.zeros_like(t)])
    offsets: dict[RunKey, float] = {}
    k = 0
    for sequence in sequences:
        write_tum(root / sequence / "reference.tum", t, xyz)
        for algorithm in algorithms:
            for trial in range(1, trials + 1):
                k += 1
                offset = 0.001 * k
                shifted = xyz + np.array([0.0, offset, 0.0])
                write_tum(root / algorithm / sequence / str(trial) / "estimate.tum", t, shifted)
                offsets[(algorithm, sequence, str(trial))] = offset
    return offsets


def position_error(task: Task) -> RunReport:
    """Per metric: the position error of poses paired by index (no alignment).

    A run without a reference gets a successful report without comparisons (as the
    shipped worker does); a run that reported failing (``meta.json`` ``exit_code``) gets
    ``success`` false with its reason, its comparisons still computed.

    Raises
    ------
    ValueError
        The estimate has another number of poses than the reference.
    """
    run = task.run
    est = np.loadtxt(run.estimate, ndmin=2)
    comparisons: dict[str, Comparison] = {}
    if run.reference is not None:
        ref = np.loadtxt(run.reference, ndmin=2)
        if est.shape != ref.shape:
            msg = f"Expected {ref.shape[0]} poses like the reference, got {est.shape[0]}"
            raise ValueError(msg)
        errors = np.linalg.norm(est[:, 1:4] - ref[:, 1:4], axis=1)
        comparisons = {
            m.name: comparison(
                metric=m.metric,
                stats={"translation": error_stats(errors, est[:, 0])},
                units={"translation": "m"},
                settings=task.settings.settings_of(m),
                estimate=run.label,
            )
            for m in task.settings.metrics
        }
    failure = run.meta.reported_failure
    return RunReport(
        name=run.name,
        success=not failure,
        failure=failure,
        algorithm=run.algorithm,
        sequence=run.sequence,
        trial=run.trial,
        n_estimate=len(est),
        n_valid=len(est),
        comparisons=comparisons,
    )


def mixed_settings(task: Task) -> RunReport:
    """``position_error`` claiming SE(3) alignment on odd trials and Sim(3) on even ones."""
    method = "se3" if int(task.run.trial) % 2 else "sim3"
    report = position_error(task)
    return report.replace(
        comparisons={
            name: c.replace(settings=c.settings.replace(align=method) if c.settings else None)
            for name, c in report.comparisons.items()
        }
    )


def scripted(task: Task) -> RunReport:
    """``position_error`` plus the markers described in the module docstring."""
    estimate = Path(task.run.estimate)
    stop = estimate.with_name(estimate.name + ".stop")
    if stop.exists():
        raise KeyboardInterrupt(str(stop))  # named, so a test knows which run stopped it
    if estimate.with_name(estimate.name + ".poison").exists():
        os._exit(7)
    stubborn = estimate.with_name(estimate.name + ".stubborn")
    if stubborn.exists():
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stubborn.write_text(f"{os.getpid()}\n")  # from now on
        time.sleep(60)
    if estimate.with_name(estimate.name + ".hang").exists():
        time.sleep(60)
    try:
        estimate.with_name(estimate.name + ".crash").unlink()
    except FileNotFoundError:
        pass
    else:
        os._exit(3)
    report = position_error(task)
    with estimate.with_name(estimate.name + ".calls").open("a") as log:
        log.write(f"{os.getpid()}\n")
    return report


def calls(root: Path) -> dict[RunKey, int]:
    """How many times each run under ``root`` was evaluated by ``scripted``."""
    counts: dict[RunKey, int] = {}
    for log in sorted(root.rglob("estimate.tum.calls")):
        algorithm, sequence, trial = log.parent.relative_to(root).parts
        counts[(algorithm, sequence, trial)] = len(log.read_text().splitlines())
    return counts


def drive(
    executor: Executor,
    fn: RunFunction,
    manifest: Manifest,
    out: Path,
    *,
    retries: int = 2,
    chunk_s: float = 1.0,
) -> tuple[SweepState, ChunkPlan]:
    """Run every run of ``manifest`` on ``executor`` as a sweep does; return state and plan."""
    n = len(manifest.runs)
    state = SweepState(n)
    shared = settings_identity(manifest.settings.to_dict(), fn)
    job = Job(settings=manifest.settings, shared=shared, out=str(out), session="test")
    with executor as ex:
        plan = ChunkPlan(
            manifest.runs,
            range(n),
            state,
            retries=retries,
            slots=ex.slots,
            isolated=ex.isolates,
            target_s=chunk_s,
        )
        for outcome in ex.run(fn, job, plan):
            plan.take(outcome)
    return state, plan


def stored(manifest: Manifest, out: Path, fn: RunFunction) -> dict[RunKey, RunResult]:
    """The stored result of each run of ``manifest`` under ``out``, by run keys."""
    shared = settings_identity(manifest.settings.to_dict(), fn)
    store = ResultStore(out)
    found: dict[RunKey, RunResult] = {}
    for run in manifest.runs:
        record = store.load(run_key(shared, run))
        if record is not None:
            found[(run.algorithm, run.sequence, run.trial)] = record.result
    return found


def ape_rms(result: RunResult) -> float:
    """The RMS of a result's APE translation (it must have one)."""
    assert result.report is not None, (result.error_type, result.error)
    return result.report.comparisons["ape:translation"].stats["translation"].rms


@contextlib.contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    """Mount a tmpfs of ``size`` (``mount -o size=``, as ``64k``) at ``folder``: a disk that fills.

    Skips the test where no tmpfs can be mounted (not root, no CAP_SYS_ADMIN): the tests
    with a simulated write error stand in for it there.
    """
    folder.mkdir(parents=True, exist_ok=True)
    mount = shutil.which("mount")
    if mount is None or sys.platform != "linux":
        pytest.skip("no mount command: the simulated write error stands in for a full disk")
    done = subprocess.run(  # noqa: S603 - the system's mount, our arguments
        [mount, "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        why = done.stderr.strip() or f"exit {done.returncode}"
        pytest.skip(f"cannot mount a tmpfs here ({why}): the simulated write error stands in")
    try:
        yield folder
    finally:
        subprocess.run(  # noqa: S603
            [mount.replace("mount", "umount"), "-l", str(folder)], capture_output=True, check=False
        )
