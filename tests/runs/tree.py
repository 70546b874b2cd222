"""A tree of runs by the folder convention, with hand-computable errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from pathlib import Path


def write_tum(path: Path, t: np.ndarray, xyz: np.ndarray) -> Path:
    """Write poses with identity rotations as a TUM file."""
    quat = np.tile([0.0, 0.0, 0.0, 1.0], (len(t), 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, np.column_stack([t, xyz, quat]), fmt="%.9f")
    return path


def make_tree(
    root: Path,
    *,
    algorithms: tuple[str, ...] = ("orb",),
    sequences: tuple[str, ...] = ("MH_01",),
    trials: int = 1,
    n_poses: int = 50,
) -> dict[tuple[str, str, str], float]:
    """ROOT/{sequence}/reference.tum and ROOT/{algorithm}/{sequence}/{trial}/estimate.tum.

    The reference runs along x (x = t, a 2-D path so that an SE(3) fit is determined: y
    = sin t); each estimate is it shifted by a distinct constant offset along z, so each
    run's APE without alignment is its offset. Returns run keys -> offset in metres.
    """
    t = np.arange(n_poses, dtype=float) * 0.1
    xyz = np.column_stack([t, np.sin(t), np.zeros_like(t)])
    offsets: dict[tuple[str, str, str], float] = {}
    k = 0
    for sequence in sequences:
        write_tum(root / sequence / "reference.tum", t, xyz)
        for algorithm in algorithms:
            for trial in range(1, trials + 1):
                k += 1
                offset = 0.001 * k
                shifted = xyz + np.array([0.0, 0.0, offset])
                write_tum(root / algorithm / sequence / str(trial) / "estimate.tum", t, shifted)
                offsets[(algorithm, sequence, str(trial))] = offset
    return offsets
