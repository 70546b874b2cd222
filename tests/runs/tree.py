"""A tree of runs by the folder convention, with hand-computable errors."""

from __future__ import annotations

import json
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


#: Runs of orb 1.0 and orb 2.0 on two sequences: (folder, version, sequence, offset in m).
#: Without alignment each run's APE RMSE is its offset, so per sequence and version the
#: median is: s1 1.0 0.20 (0.10, 0.30), 2.0 0.15; s2 1.0 0.40, 2.0 0.25 (0.20, 0.30).
#: orb 2.0 ranks first on both (mean rank 1), orb 1.0 second (2). Pooled into one "orb",
#: its scores would be s1 0.15 (0.10, 0.30, 0.15) and s2 0.30 (0.40, 0.20, 0.30).
TWO_VERSIONS = (
    ("orb-1.0/s1/1", "1.0", "s1", 0.10),
    ("orb-1.0/s1/2", "1.0", "s1", 0.30),
    ("orb-2.0/s1/3", "2.0", "s1", 0.15),
    ("orb-1.0/s2/1", "1.0", "s2", 0.40),
    ("orb-2.0/s2/3", "2.0", "s2", 0.20),
    ("orb-2.0/s2/4", "2.0", "s2", 0.30),
)


def make_two_versions(root: Path, *, n_poses: int = 30) -> Path:
    """Write :data:`TWO_VERSIONS` as run folders: each ``meta.json`` names ``orb`` and its version.

    ROOT/{sequence}/reference.tum runs along x (y = sin x); each estimate is it moved
    along z by the run's offset. The trials are numbered across both versions (runs of
    another version may share a trial number; these need not).
    """
    t = np.arange(n_poses, dtype=float) * 0.1
    xyz = np.column_stack([t, np.sin(t), np.zeros_like(t)])
    for folder, version, sequence, offset in TWO_VERSIONS:
        write_tum(root / sequence / "reference.tum", t, xyz)
        run = write_tum(root / folder / "estimate.tum", t, xyz + np.array([0.0, 0.0, offset]))
        meta = {"algorithm": "orb", "version": version, "parameters": {"n_features": 1000}}
        (run.parent / "meta.json").write_text(json.dumps(meta))
    return root


def make_cut_trials(root: Path, ends_s: tuple[float, ...] = (6.0, 6.0, 3.0)) -> Path:
    """Trials of ``orb`` on sequence ``s`` without a reference, each ending at its ``ends_s``.

    ROOT/orb/s/{trial}/ holds ``estimate.tum`` (10 Hz from 0 s, a 2-D path, a distinct
    small drift per trial) and ``timing.csv`` cut to match it: a trial that stopped
    halfway shows it only beside the others. Returns ``root``.
    """
    for trial, end in enumerate(ends_s, start=1):
        t = np.round(np.arange(0.0, end + 1e-9, 0.1), 1)
        xyz = np.column_stack([t, np.sin(t), 0.001 * trial * t])
        folder = write_tum(root / "orb" / "s" / str(trial) / "estimate.tum", t, xyz).parent
        rows = "".join(f"{k},{s:.3f},{s + 0.01:.3f},{s + 0.03:.3f}\n" for k, s in enumerate(t))
        header = "frame,acquisition_s,processing_start_s,available_s\n"
        (folder / "timing.csv").write_text(header + rows, encoding="utf-8")
    return root
