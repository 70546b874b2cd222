"""Run trajectopy's rpe() per second on freiburg1_xyz and store its drift per second.

Produces ``tests/data/trajectopy_rpe_seconds_reference.json``, which
``tests/evaluation/test_drift.py`` (``test_seconds_give_trajectopys_rpe_per_second``)
compares ``Drift(lengths_s=(1.0,), step_frames=1)`` with, and ``tests/cli/test_drift.py``
``drift --seconds 1 --step 1``'s printed means. trajectopy 5.1.2's ``rpe()`` with
``RelativeComparisonSettings`` of one pair distance, 1 s (``pair_distance_unit=SECOND``,
``use_all_pose_pairs=True``: a pair from every reference pose i whose stamp + 1 s is
before the last, strictly, to the first pose j at or after it), divides each pair's KITTI
translation error (m) and rotation angle (rad) by the pair's actual interval
t_j - t_i (s). Stored: the number of pairs, their mean interval (s), and the mean,
median, std, min and max of the translation drift (``RPEResult.pos_dev_*``, m/s) and of
the rotation drift (``rot_dev_*`` in degrees, deg/s). The matching is trajectopy's
default (``MatchingMethod.INTERPOLATION``: the estimate resampled at the reference's
stamps, max gap 10 s), robot_msgs' ``--sync interpolate-estimate --max-diff 0 --max-gap
10``; nothing aligned. The data are the package's shipped example
(``src/robot_msgs/examples/fr1_xyz``: TUM RGB-D ``freiburg1_xyz`` ground truth and the
RGB-D SLAM estimate, the raw files).

Usage, from the repository root, in an environment with trajectopy 5.x::

    python3 -m venv VENV && VENV/bin/pip install trajectopy==5.1.2
    VENV/bin/python tests/data/make_trajectopy_rpe_seconds_reference.py

The files are read here with NumPy (TUM: ``t x y z qx qy qz qw``), not with robot_msgs.
robot_msgs never imports trajectopy (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import json
import logging
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # imported in the functions: pytest's doctest collection imports this file
    from trajectopy import Trajectory

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "src" / "robot_msgs" / "examples" / "fr1_xyz"
OUT = HERE / "trajectopy_rpe_seconds_reference.json"


def _read_tum(path: Path) -> Trajectory:
    from trajectopy import Trajectory

    rows = np.loadtxt(path, comments="#")
    quat = rows[:, 4:8] / np.linalg.norm(rows[:, 4:8], axis=1, keepdims=True)
    return Trajectory.from_arrays(rows[:, 1:4], quat=quat, timestamps=rows[:, 0].copy())


def main() -> int:
    """Run trajectopy and write the JSON file."""
    import trajectopy as tpy

    logging.basicConfig(level=logging.WARNING)
    reference = _read_tum(EXAMPLES / "groundtruth.tum")
    estimate = _read_tum(EXAMPLES / "rgbdslam.tum")
    settings = tpy.ProcessingSettings()  # matching: INTERPOLATION, max_gap_size 10 s
    relative = settings.relative_comparison
    relative.pair_min_distance = relative.pair_max_distance = relative.pair_distance_step = 1.0
    relative.pair_distance_unit = tpy.PairDistanceUnit.SECOND
    relative.use_all_pose_pairs = True
    result = tpy.rpe(estimate, reference, settings)
    (n_pairs,) = result.num_pairs
    (interval,) = result.mean_pair_distances
    out = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "python tests/data/make_trajectopy_rpe_seconds_reference.py",
        "call": (
            "rpe(estimate, reference, settings), settings = ProcessingSettings() with "
            "relative_comparison.pair_min_distance = pair_max_distance = pair_distance_step "
            "= 1.0, pair_distance_unit = PairDistanceUnit.SECOND, use_all_pose_pairs = True"
        ),
        "reference": "src/robot_msgs/examples/fr1_xyz/groundtruth.tum",
        "estimate": "src/robot_msgs/examples/fr1_xyz/rgbdslam.tum",
        "units": [result.pos_drift_unit, result.rot_drift_unit],
        "delta_s": 1.0,
        "n_pairs": n_pairs,
        "mean_pair_interval_s": interval,
        "translation_m_per_s": {
            name: getattr(result, f"pos_dev_{name}")[0] if name != "std" else result.pos_std[0]
            for name in ("mean", "median", "std", "min", "max")
        },
        "rotation_deg_per_s": {
            name: float(
                np.rad2deg(
                    getattr(result, f"rot_dev_{name}")[0] if name != "std" else result.rot_std[0]
                )
            )
            for name in ("mean", "median", "std", "min", "max")
        },
    }
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({n_pairs} pairs, mean {out['translation_m_per_s']['mean']:.9g} m/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
