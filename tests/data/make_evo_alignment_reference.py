"""Write ``evo_alignment_reference.json``: evo's association and alignment on the evo test data.

Run from the repository root, with evo installed and the data folder present::

    ROBOT_MSGS_EVO_TESTDATA=../shared/data/evo-testdata \
        python tests/data/make_evo_alignment_reference.py

The JSON records evo's version and, for every case, the exact evo call, so each stored number
can be regenerated. evo is only a reference here: robot_msgs never imports it.

- ``association``: ``evo.core.sync.associate_trajectories(ref, est, max_diff=..., offset_2=...)``
  (nearest stamp). The matched rows come from ``evo.core.sync.matching_time_indices`` with the
  same roles, and are checked here against the stamps ``associate_trajectories`` returns.
  Rows count the file's data lines from 0 (comment lines skipped), as evo reads them.
- ``alignment``: on the associated pair (max_diff 0.01 s, as evo_ape's default),
  ``traj_est.align(traj_ref, correct_scale, correct_only_scale, n=n_to_align)`` as
  ``evo_ape`` calls it (``--align``, ``--align --correct_scale``, ``--correct_scale``, with
  ``--n_to_align``), or ``traj_est.align_origin(traj_ref)`` (``--align_origin``): the rotation,
  translation and scale evo applied, and the first and last aligned estimate positions.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from robot_msgs.typing import IntpArray

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "evo_alignment_reference.json"
DATA = Path(os.environ.get("ROBOT_MSGS_EVO_TESTDATA", ROOT.parent / "shared/data/evo-testdata"))

ASSOCIATION_CASES = [
    # (reference file, estimate file, max_diff, offset)
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", 0.01, 0.0),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", 0.02, 0.005),
    ("freiburg1_xyz-rgbdslam.txt", "freiburg1_xyz-groundtruth.txt", 0.01, -0.003),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam_drift.txt", 0.01, 0.0),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-ORB_kf_mono.txt", 0.01, 0.0),
    ("V102_groundtruth.csv", "V102.txt", 0.01, 0.0),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt", 0.01, 0.0),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB_kf_mono.txt", 0.01, 0.0),
]

ALIGNMENT_CASES = [
    # (reference file, estimate file, method, n_to_align)
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "se3", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "sim3", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "scale", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "origin", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "se3", 100),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam.txt", "sim3", 50),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-rgbdslam_drift.txt", "se3", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-ORB_kf_mono.txt", "sim3", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-ORB_kf_mono.txt", "scale", -1),
    ("freiburg1_xyz-groundtruth.txt", "freiburg1_xyz-ORB_kf_mono.txt", "se3", -1),
    ("V102_groundtruth.csv", "V102.txt", "se3", -1),
    ("V102_groundtruth.csv", "V102.txt", "sim3", -1),
    ("V102_groundtruth.csv", "V102.txt", "scale", -1),
    ("V102_groundtruth.csv", "V102.txt", "origin", -1),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt", "se3", -1),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt", "sim3", -1),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB.txt", "origin", -1),
    ("fr2_desk_groundtruth.txt", "fr2_desk_ORB_kf_mono.txt", "sim3", -1),
    ("KITTI_00_gt.txt", "KITTI_00_ORB.txt", "se3", -1),
    ("KITTI_00_gt.txt", "KITTI_00_ORB.txt", "sim3", -1),
    ("KITTI_00_gt.txt", "KITTI_00_SPTAM.txt", "se3", -1),
]

MAX_DIFF_FOR_ALIGNMENT = 0.01
# No KITTI origin case: KITTI rows carry 7 significant digits, so a rotation block is
# orthonormal only to ~1e-7 and evo's origin transform (the first block as is) is not a
# rotation at the 1e-9 level; the fits above use positions only.


def read(name: str) -> Any:
    """The file as evo reads it: an evo PoseTrajectory3D or, for KITTI, a PosePath3D."""
    from evo.tools import file_interface

    path = DATA / name
    if name.endswith(".csv"):
        return file_interface.read_euroc_csv_trajectory(path)
    if name.startswith("KITTI"):
        return file_interface.read_kitti_poses_file(path)
    return file_interface.read_tum_trajectory_file(path)


def evo_rows(
    traj_ref: Any, traj_est: Any, max_diff: float, offset: float
) -> tuple[IntpArray, IntpArray]:
    """Rows matched by evo: the same roles associate_trajectories gives matching_time_indices."""
    from evo.core import sync

    est_longer = traj_est.num_poses > traj_ref.num_poses
    if est_longer:
        short, long_ = sync.matching_time_indices(
            traj_ref.timestamps, traj_est.timestamps, max_diff, offset
        )
        return np.array(short), np.array(long_)
    short, long_ = sync.matching_time_indices(
        traj_est.timestamps, traj_ref.timestamps, max_diff, -offset
    )
    return np.array(long_), np.array(short)


def association_case(
    ref_name: str, est_name: str, max_diff: float, offset: float
) -> dict[str, Any]:
    from evo.core import sync

    traj_ref, traj_est = read(ref_name), read(est_name)
    ref_sync, est_sync = sync.associate_trajectories(
        traj_ref, traj_est, max_diff=max_diff, offset_2=offset
    )
    ref_rows, est_rows = evo_rows(traj_ref, traj_est, max_diff, offset)
    assert np.array_equal(traj_ref.timestamps[ref_rows], ref_sync.timestamps)
    assert np.array_equal(traj_est.timestamps[est_rows], est_sync.timestamps)
    return {
        "reference": ref_name,
        "estimate": est_name,
        "max_diff": max_diff,
        "offset": offset,
        "call": (
            "sync.associate_trajectories(traj_ref, traj_est, "
            f"max_diff={max_diff!r}, offset_2={offset!r})"
        ),
        "n_reference": traj_ref.num_poses,
        "n_estimate": traj_est.num_poses,
        "n_matched": int(ref_rows.size),
        "reference_rows": ref_rows.tolist(),
        "estimate_rows": est_rows.tolist(),
    }


def alignment_case(ref_name: str, est_name: str, method: str, n_to_align: int) -> dict[str, Any]:
    from evo.core import sync

    traj_ref, traj_est = read(ref_name), read(est_name)
    if not ref_name.startswith("KITTI"):
        traj_ref, traj_est = sync.associate_trajectories(
            traj_ref, traj_est, max_diff=MAX_DIFF_FOR_ALIGNMENT
        )
    est = copy.deepcopy(traj_est)
    if method == "origin":
        call = "traj_est.align_origin(traj_ref)"
        matrix = est.align_origin(traj_ref)
        rotation, translation, scale = matrix[:3, :3], matrix[:3, 3], 1.0
    else:
        correct_scale = method in ("sim3", "scale")
        only_scale = method == "scale"
        call = (
            f"traj_est.align(traj_ref, correct_scale={correct_scale}, "
            f"correct_only_scale={only_scale}, n={n_to_align})"
        )
        rotation, translation, scale = est.align(traj_ref, correct_scale, only_scale, n=n_to_align)
        if only_scale:  # evo applies the scale alone: x' = s x
            rotation, translation = np.eye(3), np.zeros(3)
    return {
        "reference": ref_name,
        "estimate": est_name,
        "method": method,
        "n_to_align": n_to_align,
        "associated_with_max_diff": None
        if ref_name.startswith("KITTI")
        else MAX_DIFF_FOR_ALIGNMENT,
        "call": call,
        "n_poses": est.num_poses,
        "rotation": np.asarray(rotation).tolist(),
        "translation": np.asarray(translation).tolist(),
        "scale": float(scale),
        "aligned_first_xyz": est.positions_xyz[0].tolist(),
        "aligned_last_xyz": est.positions_xyz[-1].tolist(),
        "aligned_last_quat_wxyz": est.orientations_quat_wxyz[-1].tolist(),
    }


def main() -> int:
    import evo

    if not DATA.is_dir():
        print(f"evo test data not found at {DATA}: set ROBOT_MSGS_EVO_TESTDATA", file=sys.stderr)
        return 1
    out = {
        "about": "evo's association and alignment on the evo test data; see the script",
        "script": "tests/data/make_evo_alignment_reference.py",
        "command": (
            "ROBOT_MSGS_EVO_TESTDATA=../shared/data/evo-testdata "
            "python tests/data/make_evo_alignment_reference.py"
        ),
        "evo_version": evo.__version__,
        "numpy_version": np.__version__,
        "association": [association_case(*case) for case in ASSOCIATION_CASES],
        "alignment": [alignment_case(*case) for case in ALIGNMENT_CASES],
    }
    text = json.dumps(out, indent=1)
    # One line per list of numbers: the row lists stay readable and the file small.
    text = re.sub(r"\[\s+([-+\d.,eE\s]+?)\s+\]", lambda m: "[" + " ".join(m[1].split()) + "]", text)
    OUT.write_text(text + "\n")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
