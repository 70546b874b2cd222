"""Run trajectopy's rpe() per pair distance on KITTI 00 and store its per-length drift.

Produces ``tests/data/trajectopy_rpe_reference.json``, which ``tests/evaluation/test_drift.py``
compares ``Drift(step_frames=1, per_actual_length=True)`` with. trajectopy 5.1.2's
``rpe()`` (``RelativeComparisonSettings``: pairs 100 ... 800 m apart along the reference
path, one from every pose, ``use_all_pose_pairs=True``) divides each pair's KITTI error by
the pair's actual path distance; stored per length: the number of pairs, their mean
distance (m), the mean translation drift (``RPEResult.pos_dev_mean``, %) and the mean
rotation drift (``rot_dev_mean``, degrees per 100 m). Both trajectories are the evo test
data's ``KITTI_00_gt.txt`` and ``KITTI_00_ORB.txt`` with ``KITTI_00_gt_times.txt``, read
here with NumPy, each rotation block projected onto SO(3) by an SVD (robot_msgs' default
reading), matched by nearest time stamp (the same times on both sides).

Usage, from the repository root, in an environment with trajectopy 5.x::

    python tests/data/make_trajectopy_rpe_reference.py /path/to/evo-testdata

The stored file was made with trajectopy 5.1.2. robot_msgs never imports trajectopy
(GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import json
import logging
import sys
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # imported in the functions: pytest's doctest collection imports this file
    from trajectopy import Trajectory

OUT = Path(__file__).resolve().parent / "trajectopy_rpe_reference.json"


def _read_kitti(path: Path, times: np.ndarray) -> Trajectory:
    from scipy.spatial.transform import Rotation
    from trajectopy import Trajectory

    blocks = np.loadtxt(path).reshape(-1, 3, 4)
    u, _, vt = np.linalg.svd(blocks[:, :, :3])
    quat = Rotation.from_matrix(u @ vt).as_quat()
    return Trajectory.from_arrays(blocks[:, :, 3].copy(), quat=quat, timestamps=times.copy())


def main(folder: str) -> int:
    """Run trajectopy and write the JSON file."""
    import trajectopy as tpy

    logging.basicConfig(level=logging.WARNING)
    data = Path(folder)
    times = np.loadtxt(data / "KITTI_00_gt_times.txt")
    reference = _read_kitti(data / "KITTI_00_gt.txt", times)
    estimate = _read_kitti(data / "KITTI_00_ORB.txt", times)
    settings = tpy.ProcessingSettings()  # relative_comparison: 100 .. 800 m, all pairs
    settings.matching.method = tpy.MatchingMethod.NEAREST_TEMPORAL
    result = tpy.rpe(estimate, reference, settings)
    lengths = [100.0 * k for k in range(1, 9)]
    out = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "python tests/data/make_trajectopy_rpe_reference.py EVO_TESTDATA",
        "call": "rpe(estimate, reference, settings) with settings.matching.method = "
        "MatchingMethod.NEAREST_TEMPORAL, the rest ProcessingSettings()'s defaults",
        "reference": "KITTI_00_gt.txt (KITTI_00_gt_times.txt)",
        "estimate": "KITTI_00_ORB.txt (KITTI_00_gt_times.txt)",
        "lengths_m": lengths,
        "n_pairs": result.num_pairs,
        "mean_pair_distance_m": result.mean_pair_distances,
        "translation_pct": result.pos_dev_mean,
        "rotation_deg_per_100m": [float(np.rad2deg(v)) for v in result.rot_dev_mean],
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({sum(out['n_pairs'])} pairs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
