"""Write results as release 9745f2d saved them: the fixtures of the saved-form migration.

Run in a checkout of commit 9745f2d (main on the day ``Comparison.signals`` replaced the
``stats``/``units``/``series`` maps), from the repository root, with its venv::

    git worktree add /tmp/rm-9745f2d 9745f2d
    cd /tmp/rm-9745f2d && python -m venv .venv && .venv/bin/pip install -e '.[test]'
    EVO_TESTDATA=/work/shared/data/evo-testdata .venv/bin/python \
        /path/to/tests/data/make_saved_9745f2d.py /path/to/tests/data/saved_9745f2d

It writes what that release's ``robot-msgs ape/rpe/drift --save``, ``report --json`` and
``bench --out`` wrote (JSON, ``.npz`` and Parquet), each cut to a few hundred poses, and
``commands.txt`` with every command line. ``tests/compare/test_migrate.py`` loads them
with today's code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

#: The folder to write into: the first argument (set by main; pytest imports this file).
OUT = Path()
DATA = Path(os.environ.get("EVO_TESTDATA", "/work/shared/data/evo-testdata"))
GT, EST = "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum"
CUT = ["--t-end", "1305031106"]  # the first ~4 s of fr1_xyz
COMMANDS = [
    ["ape", GT, EST, "--align", "se3", *CUT, "--save", "ape_se3.json"],
    [
        "ape",
        GT,
        EST,
        "--align",
        "sim3",
        "--offset",
        "auto",
        "--relation",
        "angle_deg",
        "--t-end",
        "1305031110",
        "--save",
        "ape_offset_auto.npz",
    ],
    [
        "rpe",
        GT,
        EST,
        "--delta",
        "0.5",
        "1",
        "--delta-unit",
        "s",
        "--all-pairs",
        *CUT,
        "--save",
        "rpe_two_deltas.parquet",
    ],
    [
        "rpe",
        GT,
        EST,
        "--delta",
        "1",
        "--delta-unit",
        "s",
        "--protocol",
        "tum",
        *CUT,
        "--save",
        "rpe_tum.json",
    ],
    [
        "drift",
        str(DATA / "KITTI_00_gt.txt"),
        str(DATA / "KITTI_00_ORB.txt"),
        "--t-end",
        "700",
        "--lengths",
        "100,200",
        "--save",
        "drift_kitti.npz",
    ],
    ["drift", GT, EST, "--protocol", "rpg", "--t-end", "1305031110", "--save", "drift_rpg.npz"],
    ["report", "example:runs/runs.toml", "--json", "report.json", "--quiet"],
    ["bench", "example:runs/runs.toml", "--serial", "--out", "bench", "--quiet"],
]


def main() -> None:
    """Run the commands into the folder named by the first argument."""
    global OUT  # noqa: PLW0603 - a script's one setting, read by the helpers below
    OUT = Path(sys.argv[1])
    OUT.mkdir(parents=True, exist_ok=True)
    lines = []
    for args in COMMANDS:
        subprocess.run([sys.executable, "-m", "robot_msgs.cli", *args], cwd=OUT, check=True)  # noqa: S603
        lines.append("robot-msgs " + " ".join(args))
    # Keep one stored run record of the sweep (the rest of the folder is derived).
    records = sorted((OUT / "bench" / "runs").rglob("*.json"))
    record = next(r for r in records if '"compare/Comparison"' in r.read_text(encoding="utf-8"))
    shutil.copy(record, OUT / "bench_record.json")
    shutil.rmtree(OUT / "bench")
    lines.append(f"cp bench/runs/.../{record.name} bench_record.json")
    # NEES needs covariances, which no shipped file has: an estimate built here.
    from robot_msgs.evaluation import EvaluationSettings, ape
    from robot_msgs.io.result_files import save_result
    from robot_msgs.trajectory import PoseTrajectory

    t = np.arange(50, dtype=np.float64) * 0.1
    ref = PoseTrajectory(
        stamps_s=t,
        positions_xyz=np.stack([t, np.sin(t), 0 * t], 1),
        orientations_quat_xyzw=np.tile([0.0, 0, 0, 1], (50, 1)),
    )
    noise = np.random.default_rng(7).normal(0.0, 0.01, (50, 3))
    cov = np.tile(np.diag([1e-4, 1e-4, 1e-4, 1e-6, 1e-6, 1e-6]), (50, 1, 1))
    est = ref.replace(positions_xyz=ref.positions_xyz + noise, covariance_6x6=cov)
    result = ape(ref, est, settings=EvaluationSettings(), relation="nees_position")
    save_result(OUT / "ape_nees.json", result)
    lines.append("python: ape(ref, est, relation='nees_position') of make_saved_9745f2d.py")
    (OUT / "commands.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
