"""Run rpg_trajectory_evaluation's relative error on evo's test data and store the numbers.

Produces ``tests/data/rpg_reference.json`` for ``tests/evaluation/test_drift.py``. The
relative-error code is rpg's own (uzh-rpg/rpg_trajectory_evaluation,
``src/rpg_trajectory_evaluation/compute_trajectory_errors.py`` at commit 2d29ae91 and
``trajectory_utils.py`` at fe8e0a0e): its segment search, error poses, world-frame yaw /
gravity split and statistics. What it is fed mirrors rpg's ``Trajectory`` class: the
poses matched by TUM's one-to-one rule within 0.02 s (robot_msgs' ``one_to_one``, itself
checked against TUM's rule), the Sim(3) scale (robot_msgs' Umeyama, checked against evo),
and segment lengths of 10..50 % of the raw ground truth's length truncated to centimetres
(rpg's ``compute_boxplot_distances``).

Usage, with a checkout of rpg_trajectory_evaluation::

    PYTHONPATH=src python tests/data/make_rpg_reference.py \\
        --rpg-src RPG/src/rpg_trajectory_evaluation [--data ../shared/data/evo-testdata]

rpg's ``transformations.py`` is Gohlke's 2009 version with quaternions ``x, y, z, w``; when
it is not in ``--rpg-src`` (the stored file was made that way: only the two files above
were at hand) the script uses evo's copy of Gohlke's newer version through an adapter
that reorders the quaternion to ``w, x, y, z``; ``quaternion_matrix`` and
``euler_from_matrix`` compute the same expressions in both versions.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from robot_msgs.errors import DataWarning
from robot_msgs.evaluation import EvaluationSettings, align, associate
from robot_msgs.io import read_trajectory

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = Path(
    os.environ.get("ROBOT_MSGS_EVO_TESTDATA", HERE.parents[2] / "shared" / "data" / "evo-testdata")
)
FRACTIONS = (0.1, 0.2, 0.3, 0.4, 0.5)

CASES: dict[str, dict[str, Any]] = {
    "fr1_drift": {
        "reference": {"path": "freiburg1_xyz-groundtruth.txt", "fmt": "tum"},
        "estimate": {"path": "freiburg1_xyz-rgbdslam_drift.txt", "fmt": "tum"},
    },
    "euroc_v102": {
        "reference": {"path": "V102_groundtruth.csv", "fmt": "euroc"},
        "estimate": {"path": "V102.txt", "fmt": "tum"},
    },
}
# Not fr2_desk_ORB: tracking is lost for 12 s there, so 46 start frames before the gap have
# no segment end, and rpg's compacted list of ends then pairs every later start with the
# end of another start (see robot_msgs.evaluation.drift); robot_msgs keeps each start with
# its own end, so the numbers differ there by design.

# rpg's names -> ours (see robot_msgs.evaluation.relative_error).
QUANTITIES = {
    "rel_trans": "translation",
    "rel_trans_perc": "translation_pct",
    "rel_yaw": "yaw_world_deg",  # "yaw_deg" before the rename: APE's body-z yaw
    "rel_gravity": "gravity_deg",
    "rel_rot": "rotation_deg",
    "rel_rot_deg_per_m": "rotation_deg_per_m",
}

_ADAPTER = '''"""Gohlke's transformations with rpg's x, y, z, w quaternions, built on evo's copy."""
import numpy
from evo.core import transformations as _t

euler_from_matrix = _t.euler_from_matrix


def quaternion_matrix(quaternion):
    x, y, z, w = quaternion[:4]
    return _t.quaternion_matrix(numpy.array([w, x, y, z], dtype=numpy.float64))
'''


def _statistics(values: np.ndarray) -> dict[str, float]:
    """rpg's ``results_writer.compute_statistics`` quantities."""
    if values.size == 0:
        return {"num_samples": 0}
    return {
        "rmse": float(np.sqrt(np.dot(values, values) / values.size)),
        "mean": float(np.mean(values)),
        "median": float(np.median(values)),
        "std": float(np.std(values)),
        "min": float(np.min(values)),
        "max": float(np.max(values)),
        "num_samples": int(values.size),
    }


def _truncate(number: float, decimals: int) -> float:
    factor = 10.0**decimals
    return math.trunc(number * factor) / factor


def run_case(spec: dict[str, Any], data: Path, rpg: Any, tu: Any) -> dict[str, Any]:
    """rpg's relative errors of one case, per segment length."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        reference = read_trajectory(
            data / spec["reference"]["path"], format=spec["reference"]["fmt"]
        )
        estimate = read_trajectory(data / spec["estimate"]["path"], format=spec["estimate"]["fmt"])
    matched = associate(reference, estimate, EvaluationSettings(max_diff_s=0.02, sync="one_to_one"))
    _, alignment = align(
        matched.reference, matched.estimate, settings=EvaluationSettings(align="sim3")
    )
    p_gt, q_gt = matched.reference.positions_xyz, matched.reference.orientations_quat_xyzw
    p_es, q_es = matched.estimate.positions_xyz, matched.estimate.orientations_quat_xyzw
    traj_length = tu.get_distance_from_start(reference.positions_xyz)[-1]
    accum = tu.get_distance_from_start(p_gt)
    lengths = [_truncate(f * traj_length, 2) for f in FRACTIONS]
    out: dict[str, Any] = {"lengths_m": lengths, "scale": alignment.scale, "stats": {}}
    for length in lengths:
        with contextlib.redirect_stdout(io.StringIO()):
            _, *series = rpg.compute_relative_error(
                p_es, q_es, p_gt, q_gt, np.identity(4), length, 0.2 * length, accum,
                alignment.scale,
            )  # fmt: skip
        for name, values in zip(QUANTITIES, series, strict=True):
            out["stats"][f"{QUANTITIES[name]}@{length:g}m"] = _statistics(np.asarray(values))
    return out


def main() -> int:
    """Run every case and write the JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rpg-src", type=Path, required=True, help="rpg's module folder")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="evo test data folder")
    parser.add_argument("--out", type=Path, default=HERE / "rpg_reference.json")
    args = parser.parse_args()
    shim = None
    if not (args.rpg_src / "transformations.py").exists():
        shim = Path(tempfile.mkdtemp(prefix="rpg-shim-"))
        (shim / "transformations.py").write_text(_ADAPTER, encoding="utf-8")
        sys.path.insert(0, str(shim))
    sys.path.insert(0, str(args.rpg_src.resolve()))
    # rpg's own modules, from --rpg-src (not installed, so mypy cannot see them).
    import compute_trajectory_errors as rpg  # type: ignore[import-not-found]
    import trajectory_utils as tu  # type: ignore[import-not-found]

    records = []
    for case_id, spec in CASES.items():
        print(case_id, flush=True)
        result = run_case(spec, args.data.resolve(), rpg, tu)
        kwargs: dict[str, Any] = {}  # relative_error's defaults are rpg's
        records.append({"id": case_id, "inputs": spec, "ours": kwargs, **result})
    document = {
        "generator": "tests/data/make_rpg_reference.py",
        "rpg_source": (
            "uzh-rpg/rpg_trajectory_evaluation: compute_trajectory_errors.py @2d29ae91, "
            "trajectory_utils.py @fe8e0a0e"
        ),
        "transformations": "evo's Gohlke copy via the x,y,z,w adapter" if shim else "rpg's",
        "numpy_version": np.__version__,
        "cases": records,
    }
    args.out.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(records)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
