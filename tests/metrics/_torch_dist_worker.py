"""One rank of the two-process torch.distributed check (run by test_torch.py).

    python _torch_dist_worker.py RANK WORLD_SIZE PORT OUT_DIR

Joins a gloo process group on 127.0.0.1:PORT, feeds this rank's share of :func:`data`
(an uneven split, so a mean of per-rank means would differ), and writes every metric's
synchronised ``compute()`` to OUT_DIR/rank_RANK.json.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist

from robot_msgs.metrics import torch as tm

N_ITEMS = 12
SPLIT = 5  # rank 0 gets items [0, 5), rank 1 gets [5, 12)


def data() -> dict[str, tuple[np.ndarray, ...]]:
    """Per-metric update arguments for N_ITEMS items, deterministic."""
    rng = np.random.default_rng(7)
    traj = np.cumsum(rng.normal(size=(N_ITEMS, 6, 2)), axis=1)
    other = np.cumsum(rng.normal(size=(N_ITEMS, 6, 2)), axis=1)
    short = np.cumsum(rng.normal(size=(N_ITEMS, 4, 2)), axis=1)
    t = np.linspace(-1, 1, 64)
    speed = np.exp(-5 * t**2) * (1 + 0.3 * rng.random((N_ITEMS, 1))) + 0.01 * rng.random(
        (N_ITEMS, 64)
    )
    return {
        "PathSmoothness": (traj,),
        "PathLength": (traj,),
        "Straightness": (traj,),
        "Curvature": (traj,),
        "CurvatureChange": (traj, rng.uniform(-4, 4, size=(N_ITEMS, 6))),
        "LogDimensionlessJerk": (speed,),
        "SPARC": (speed,),
        "AverageDisplacementError": (traj, other),
        "FinalDisplacementError": (traj, other),
        "DTW": (traj, short),
        "NDTW": (traj, short),
        "SDTW": (traj, short),
        "SuccessRate": (rng.random(N_ITEMS) < 0.5,),
        "SPL": (
            rng.random(N_ITEMS) < 0.7,
            rng.uniform(1, 10, N_ITEMS),
            rng.uniform(0, 20, N_ITEMS),
        ),
    }


def make(name: str) -> tm._MeanMetric:
    """The torch metric ``name`` with the settings the check uses."""
    metric: tm._MeanMetric
    if name in ("LogDimensionlessJerk", "SPARC"):
        metric = getattr(tm, name)(sample_rate_hz=32.0)
    elif name == "SDTW":
        metric = tm.SDTW(threshold=4.0)
    else:
        metric = getattr(tm, name)()
    return metric


def run(rank: int, world: int, lo: int, hi: int) -> dict[str, float]:
    """Update every metric with items [lo, hi) and return the synchronised results."""
    results = {}
    for name, args in data().items():
        metric = make(name)
        metric.update(*(torch.from_numpy(np.asarray(a[lo:hi])) for a in args))
        results[name] = float(metric.compute())
    return results


def main() -> None:
    rank, world, port, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=dt.timedelta(seconds=60),
    )
    try:
        lo, hi = (0, SPLIT) if rank == 0 else (SPLIT, N_ITEMS)
        results = run(rank, world, lo, hi)
    finally:
        dist.destroy_process_group()
    (out / f"rank_{rank}.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
