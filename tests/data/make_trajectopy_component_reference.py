"""Run trajectopy's ATE on freiburg1_xyz and store its per-pose component deviations.

Produces ``tests/data/trajectopy_component_reference.json``, which
``tests/evaluation/test_components.py`` compares the ``TRAJECTOPY_RELATIONS``
(``along_track_body``, ``cross_track_body``, ``vertical_body``,
``roll/pitch/yaw_world_rad|deg``) with. The data are the package's shipped example
(``src/robot_msgs/examples/fr1_xyz``: TUM RGB-D ``freiburg1_xyz`` ground truth and the
RGB-D SLAM estimate, the raw files).

Choices, so that both tools compare the same pose pairs:

- matching: trajectopy's ``NEAREST_TEMPORAL`` with ``max_time_diff=0.01`` s (each
  estimate pose's nearest reference stamp within 10 ms, each reference pose used once);
  the pairs are stored as rows ``(reference row, estimate row)`` and the test builds its
  trajectories from exactly these rows;
- no alignment (``ate(..., align=False)``): trajectopy's alignment is its own adjustment,
  not Umeyama's, and would compare other poses; the raw estimate lies within 6 cm and
  2.2 deg of the ground truth's frame, so the raw deviations are small and meaningful.

Stored per pair (one line each): the two rows and trajectopy's ``ATEResult.pos_dev_along``,
``pos_dev_cross_h``, ``pos_dev_cross_v`` (with orientations: the deviation in the
reference body's ``x``, ``y``, ``z`` axes) and ``rot_dev_x``, ``rot_dev_y``,
``rot_dev_z`` (radians: ``as_euler("xyz")`` of ``other.rotations - trajectory.rotations``),
plus its own summaries (``pos_rms_along``, ``pos_bias_along``, ..., ``rot_rms_x``, ...).

Usage, from the repository root, in an environment with trajectopy 5.x (a separate one:
robot_msgs never imports trajectopy, GPL-3.0; this script only runs it)::

    python3 -m venv /tmp/tpy && /tmp/tpy/bin/pip install trajectopy==5.1.2
    /tmp/tpy/bin/python tests/data/make_trajectopy_component_reference.py

The files are read here with NumPy (TUM: ``t x y z qx qy qz qw``), not with robot_msgs,
and the rows are recovered from the stamps trajectopy returns (each unique).
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
OUT = HERE / "trajectopy_component_reference.json"
MAX_TIME_DIFF_S = 0.01
#: trajectopy's ATEResult per-pose arrays, by the robot_msgs relation they are compared with.
PER_POSE = {
    "along_track_body": "pos_dev_along",
    "cross_track_body": "pos_dev_cross_h",
    "vertical_body": "pos_dev_cross_v",
    "roll_world_rad": "rot_dev_x",
    "pitch_world_rad": "rot_dev_y",
    "yaw_world_rad": "rot_dev_z",
}
#: trajectopy's ATEResult summaries of each array (RMS, mean).
SUMMARIES = {
    "pos_dev_along": ("pos_rms_along", "pos_bias_along"),
    "pos_dev_cross_h": ("pos_rms_cross_h", "pos_bias_cross_h"),
    "pos_dev_cross_v": ("pos_rms_cross_v", "pos_bias_cross_v"),
    "rot_dev_x": ("rot_rms_x", None),
    "rot_dev_y": ("rot_rms_y", None),
    "rot_dev_z": ("rot_rms_z", None),
}


def _read_tum(path: Path) -> tuple[np.ndarray, Trajectory]:
    from trajectopy import Trajectory

    rows = np.loadtxt(path, comments="#")
    stamps = rows[:, 0]
    quat = rows[:, 4:8] / np.linalg.norm(rows[:, 4:8], axis=1, keepdims=True)
    return stamps, Trajectory.from_arrays(rows[:, 1:4], quat=quat, timestamps=stamps.copy())


def main() -> int:
    """Run trajectopy's ATE and write the JSON file."""
    from trajectopy import MatchingMethod, MatchingSettings, ProcessingSettings
    from trajectopy.processing.evaluation import ate

    logging.basicConfig(level=logging.WARNING)
    ref_path, est_path = EXAMPLES / "groundtruth.tum", EXAMPLES / "rgbdslam.tum"
    ref_t, reference = _read_tum(ref_path)
    est_t, estimate = _read_tum(est_path)
    settings = ProcessingSettings(
        matching=MatchingSettings(
            method=MatchingMethod.NEAREST_TEMPORAL, max_time_diff=MAX_TIME_DIFF_S
        )
    )
    result = ate(estimate, reference, processing_settings=settings, align=False)
    # ATEResult.trajectory is the matched estimate; the reference rows follow from the
    # matching, which ate() does on copies: redo it to get them.
    from trajectopy.processing.matching import match_trajectories

    matched_est, matched_ref = match_trajectories(
        estimate, reference, matching_settings=settings.matching, inplace=False
    )
    assert np.array_equal(matched_est.timestamps, result.trajectory.timestamps)
    est_rows = np.searchsorted(est_t, matched_est.timestamps)
    ref_rows = np.searchsorted(ref_t, matched_ref.timestamps)
    assert np.array_equal(est_t[est_rows], matched_est.timestamps)
    assert np.array_equal(ref_t[ref_rows], matched_ref.timestamps)
    assert result.abs_dev.rotations_used
    columns = np.column_stack([getattr(result, a) for a in PER_POSE.values()])
    summaries = {}
    for k, (relation, attribute) in enumerate(PER_POSE.items()):
        values = np.asarray(columns[:, k], dtype=np.float64)
        rms_name, mean_name = SUMMARIES[attribute]
        summaries[relation] = {
            "trajectopy_attributes": [attribute, rms_name, *([mean_name] if mean_name else [])],
            "rms": float(getattr(result, rms_name)),
            "mean": float(np.mean(values)),
            "min": float(np.min(values)),
            "max": float(np.max(values)),
        }
        if mean_name:
            summaries[relation]["trajectopy_bias"] = float(getattr(result, mean_name))
    data = {
        "tool": f"trajectopy {version('trajectopy')}",
        "made_by": "python tests/data/make_trajectopy_component_reference.py",
        "environment": (
            "a virtual environment of its own: python3 -m venv VENV && "
            f"VENV/bin/pip install trajectopy=={version('trajectopy')}"
        ),
        "reference": "src/robot_msgs/examples/fr1_xyz/groundtruth.tum",
        "estimate": "src/robot_msgs/examples/fr1_xyz/rgbdslam.tum",
        "call": (
            "ate(estimate, reference, processing_settings=ProcessingSettings(matching="
            "MatchingSettings(method=MatchingMethod.NEAREST_TEMPORAL, "
            f"max_time_diff={MAX_TIME_DIFF_S!r})), align=False)"
        ),
        "note": (
            "no alignment; pairs are (reference row, estimate row) of the raw files, ordered "
            "by reference row; positions in metres, angles in radians; summaries: rms is "
            "trajectopy's, mean/min/max are NumPy's of its per-pose values (trajectopy's "
            "rot_bias_* is the Euler angles of the mean rotation, not a mean of angles, and "
            "is not stored)"
        ),
        "n_pairs": int(est_rows.size),
        "first_pair_stamps_s": [float(ref_t[ref_rows[0]]), float(est_t[est_rows[0]])],
        "last_pair_stamps_s": [float(ref_t[ref_rows[-1]]), float(est_t[est_rows[-1]])],
        "summaries": summaries,
        "columns": ["reference_row", "estimate_row", *PER_POSE],
        "rows": "ROWS",
    }
    rows = ",\n  ".join(
        json.dumps([int(r), int(e), *(float(v) for v in values)])
        for r, e, values in zip(ref_rows, est_rows, columns, strict=True)
    )
    text = json.dumps(data, indent=1).replace('"ROWS"', f"[\n  {rows}\n ]")
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({data['n_pairs']} pairs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
