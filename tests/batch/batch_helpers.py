"""Run trees for the batch tests and per-run functions that workers import by name.

The per-run functions here are real evaluations of a simple kind (position error of
poses paired by index) so the engine can be tested on its own; the shipped
``evaluate_run`` is tested with the real readers and metrics elsewhere. Markers beside
an estimate file script failures: ``<estimate>.crash`` kills the worker process once
(the marker is consumed), ``<estimate>.poison`` kills it every time, ``<estimate>.stop``
interrupts the sweep (KeyboardInterrupt). Each evaluation appends a line to
``<estimate>.calls``, an independent witness of how often a run was computed.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from robot_msgs.compare import Comparison, error_stats


def write_tum(path: Path, t: np.ndarray, xyz: np.ndarray) -> None:
    quat = np.tile([0.0, 0.0, 0.0, 1.0], (len(t), 1))
    rows = np.column_stack([t, xyz, quat])
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, rows, fmt="%.9f")


def make_tree(
    root: Path,
    *,
    algorithms: tuple[str, ...] = ("orb", "vins"),
    sequences: tuple[str, ...] = ("MH_01", "MH_02"),
    trials: int = 3,
    n_poses: int = 50,
) -> dict[tuple[str, str, str], float]:
    """ROOT/{sequence}/reference.tum and ROOT/{algorithm}/{sequence}/{trial}/estimate.tum.

    The estimate is the reference (x = t, identity rotations) shifted by a constant
    offset along y, distinct per run, so each run's RMS position error is its offset
    (a hand calculation). Returns run keys -> offset in metres.
    """
    t = np.arange(n_poses, dtype=float) * 0.1
    xyz = np.column_stack([t, np.zeros_like(t), np.zeros_like(t)])
    offsets: dict[tuple[str, str, str], float] = {}
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


def position_error(task) -> tuple[Comparison, ...]:
    """Per evaluation: the position error of poses paired by index (no alignment)."""
    if task.run.reference is None:
        raise FileNotFoundError(f"no reference for {task.run.label}")
    est = np.loadtxt(task.run.estimate, ndmin=2)
    ref = np.loadtxt(task.run.reference, ndmin=2)
    if est.shape != ref.shape:
        raise ValueError(f"Expected {ref.shape[0]} poses like the reference, got {est.shape[0]}")
    errors = np.linalg.norm(est[:, 1:4] - ref[:, 1:4], axis=1)
    return tuple(
        Comparison(
            metric=ev.metric,
            stats={"translation": error_stats(errors, est[:, 0])},
            units={"translation": "m"},
            settings=ev.kwargs(),
            estimate=task.run.label,
        )
        for ev in task.settings.evaluations
    )


def mixed_settings(task) -> tuple[Comparison, ...]:
    """``position_error`` claiming SE(3) alignment on odd trials and Sim(3) on even ones."""
    method = "se3" if int(task.run.trial) % 2 else "sim3"
    return tuple(c.replace(settings={"alignment": method}) for c in position_error(task))


def scripted(task) -> tuple[Comparison, ...]:
    """``position_error`` plus the markers described in the module docstring."""
    estimate = Path(task.run.estimate)
    if estimate.with_name(estimate.name + ".stop").exists():
        raise KeyboardInterrupt
    if estimate.with_name(estimate.name + ".poison").exists():
        os._exit(7)
    try:
        estimate.with_name(estimate.name + ".crash").unlink()
    except FileNotFoundError:
        pass
    else:
        os._exit(3)
    result = position_error(task)
    with estimate.with_name(estimate.name + ".calls").open("a") as log:
        log.write(f"{os.getpid()}\n")
    return result


def calls(root: Path) -> dict[tuple[str, str, str], int]:
    """How many times each run under ``root`` was evaluated by ``scripted``."""
    counts = {}
    for log in sorted(root.rglob("estimate.tum.calls")):
        algorithm, sequence, trial = log.parent.relative_to(root).parts
        counts[(algorithm, sequence, trial)] = len(log.read_text().splitlines())
    return counts
