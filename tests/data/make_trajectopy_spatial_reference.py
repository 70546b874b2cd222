"""Run trajectopy's spatial matching on freiburg1_xyz and store the pairs it finds.

Produces ``tests/data/trajectopy_spatial_reference.json``, which
``tests/evaluation/test_spatial.py`` compares ``associate_spatially`` with. Each case
records trajectopy's version, the files, the matching settings and the pairs
``(reference row, estimate row)`` in the order trajectopy returns them (by reference
row). The data are the package's shipped example (``src/robot_msgs/examples/fr1_xyz``:
TUM RGB-D ``freiburg1_xyz`` ground truth and the RGB-D SLAM estimate, the raw files, not
aligned: the estimate lies within 6 cm and 2.2 deg of the ground truth's frame).

Usage, from the repository root, in an environment with trajectopy 5.x::

    python tests/data/make_trajectopy_spatial_reference.py

The stored file was made with trajectopy 5.1.2 (``pip install 'trajectopy>=5,<6'``).
The files are read here with NumPy (TUM: ``t x y z qx qy qz qw``), not with robot_msgs,
and the rows are recovered from the stamps trajectopy returns (each unique). robot_msgs
never imports trajectopy (GPL-3.0); this script only runs it.
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
OUT = HERE / "trajectopy_spatial_reference.json"
CASES = (("no distance limit", 0.0), ("within 2 cm", 0.02))


def _read_tum(path: Path) -> tuple[np.ndarray, Trajectory]:
    from trajectopy import Trajectory

    rows = np.loadtxt(path, comments="#")
    stamps = rows[:, 0]
    quat = rows[:, 4:8] / np.linalg.norm(rows[:, 4:8], axis=1, keepdims=True)
    return stamps, Trajectory.from_arrays(rows[:, 1:4], quat=quat, timestamps=stamps.copy())


def main() -> int:
    """Run the cases and write the JSON file."""
    from trajectopy import MatchingMethod, MatchingSettings
    from trajectopy.processing.matching import match_trajectories

    logging.basicConfig(level=logging.WARNING)
    ref_path, est_path = EXAMPLES / "groundtruth.tum", EXAMPLES / "rgbdslam.tum"
    ref_t, _ = _read_tum(ref_path)
    est_t, _ = _read_tum(est_path)
    cases = []
    for name, max_distance in CASES:
        _, reference = _read_tum(ref_path)
        _, estimate = _read_tum(est_path)
        settings = MatchingSettings(
            method=MatchingMethod.NEAREST_SPATIAL, max_distance=max_distance
        )
        matched_est, matched_ref = match_trajectories(
            estimate, reference, matching_settings=settings, inplace=False
        )
        est_rows = np.searchsorted(est_t, matched_est.timestamps)
        ref_rows = np.searchsorted(ref_t, matched_ref.timestamps)
        assert np.array_equal(est_t[est_rows], matched_est.timestamps)
        assert np.array_equal(ref_t[ref_rows], matched_ref.timestamps)
        cases.append(
            {
                "name": name,
                "call": (
                    "match_trajectories(estimate, reference, matching_settings=MatchingSettings("
                    f"method=MatchingMethod.NEAREST_SPATIAL, max_distance={max_distance!r}), "
                    "inplace=False)"
                ),
                "max_distance_m": max_distance,
                "n_pairs": int(est_rows.size),
                "pairs": [[int(r), int(e)] for r, e in zip(ref_rows, est_rows, strict=True)],
            }
        )
    data = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "python tests/data/make_trajectopy_spatial_reference.py",
        "reference": "src/robot_msgs/examples/fr1_xyz/groundtruth.tum",
        "estimate": "src/robot_msgs/examples/fr1_xyz/rgbdslam.tum",
        "note": (
            "trajectopy's NEAREST_SPATIAL: each estimate pose's nearest reference position "
            "(scipy KDTree), within max_distance (0: any); where several estimate poses share "
            "a reference pose, the first is kept; pairs ordered by reference row"
        ),
        "cases": cases,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({', '.join(str(c['n_pairs']) for c in cases)} pairs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
