"""Run trajectopy's default matching (interpolation) on freiburg1_xyz and store its APE.

Produces ``tests/data/trajectopy_interpolation_reference.json``, which
``tests/evaluation/test_association.py`` compares ``sync="interpolate_estimate"`` with.
trajectopy's ``MatchingMethod.INTERPOLATION`` (its default) resamples the estimate at the
reference's stamps inside both spans (linear position, SLERP rotation); ``ate(...,
align=False)`` then gives each matched pose's position and rotation deviation. Stored: the
matched reference stamps' count and ends, and the statistics of both deviations, from
trajectopy's own ``ATEResult`` properties. The data are the package's shipped example
(``src/robot_msgs/examples/fr1_xyz``: TUM RGB-D ``freiburg1_xyz`` ground truth and the RGB-D
SLAM estimate, the raw files, not aligned).

Usage, from the repository root, in an environment with trajectopy 5.x::

    python tests/data/make_trajectopy_interpolation_reference.py

The stored file was made with trajectopy 5.1.2 (``pip install 'trajectopy>=5,<6'``). The
files are read here with NumPy (TUM: ``t x y z qx qy qz qw``), not with robot_msgs.
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
OUT = HERE / "trajectopy_interpolation_reference.json"


def _read_tum(path: Path) -> Trajectory:
    from trajectopy import Trajectory

    rows = np.loadtxt(path, comments="#")
    quat = rows[:, 4:8] / np.linalg.norm(rows[:, 4:8], axis=1, keepdims=True)
    return Trajectory.from_arrays(rows[:, 1:4], quat=quat, timestamps=rows[:, 0].copy())


def _stats(values: np.ndarray) -> dict[str, float]:
    return {
        "rms": float(np.sqrt(np.mean(values**2))),
        "mean": float(np.mean(values)),
        "median": float(np.median(values)),
        "std": float(np.std(values)),
        "min": float(np.min(values)),
        "max": float(np.max(values)),
    }


def main() -> int:
    """Run the case and write the JSON file."""
    import trajectopy as tpy

    logging.basicConfig(level=logging.WARNING)
    reference = _read_tum(EXAMPLES / "groundtruth.tum")
    estimate = _read_tum(EXAMPLES / "rgbdslam.tum")
    settings = tpy.ProcessingSettings()  # matching: INTERPOLATION, max_gap_size 10 s
    result = tpy.ate(estimate, reference, settings, align=False)
    stamps = result.trajectory.timestamps
    position = np.asarray(result.pos_dev_comb)
    angle_deg = np.rad2deg(np.asarray(result.rot_dev_comb))
    assert np.isclose(_stats(position)["rms"], result.pos_dev_rms, rtol=1e-15, atol=0)
    data = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "python tests/data/make_trajectopy_interpolation_reference.py",
        "call": "ate(estimate, reference, ProcessingSettings(), align=False)",
        "reference": "src/robot_msgs/examples/fr1_xyz/groundtruth.tum",
        "estimate": "src/robot_msgs/examples/fr1_xyz/rgbdslam.tum",
        "note": (
            "trajectopy's MatchingMethod.INTERPOLATION (its default): the estimate resampled "
            "at the reference's stamps within both spans; position: ATEResult.pos_dev_comb "
            "(m), angle_deg: ATEResult.rot_dev_comb in degrees"
        ),
        "max_gap_size_s": settings.matching.max_gap_size,
        "n_matched": int(stamps.size),
        "first_stamp_s": float(stamps[0]),
        "last_stamp_s": float(stamps[-1]),
        "position_m": _stats(position),
        "angle_deg": _stats(angle_deg),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({data['n_matched']} poses)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
