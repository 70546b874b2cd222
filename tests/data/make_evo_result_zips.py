"""Run evo's ``evo_ape``/``evo_rpe --save_results`` on the shipped example and keep the zips.

Produces ``tests/data/evo_results/*.zip`` and ``tests/data/evo_results/commands.json``
(each zip's command line, run in a folder holding copies of the two example files, and
evo's version), which ``tests/cli/test_res.py`` and
``tests/io/test_evo_results.py`` read: ``robot-msgs res`` must print evo's numbers for
these zips and ours, equal to 1e-9, for the same evaluation saved by ``robot-msgs ape``.

Usage, from the repository root, in an environment with evo 1.38.1 (the ``test`` extra)::

    python tests/data/make_evo_result_zips.py

evo writes its settings under ``$HOME/.evo``; the script points ``HOME`` at a temporary
folder so a user's evo configuration cannot change the numbers. robot_msgs never imports
evo (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[1] / "src" / "robot_msgs" / "examples" / "fr1_xyz"
OUT = HERE / "evo_results"

#: zip name -> evo command (run in a folder with groundtruth.tum and rgbdslam.tum).
CASES = {
    "fr1_xyz_ape_se3.zip": ["evo_ape", "tum", "groundtruth.tum", "rgbdslam.tum", "-a"],
    "fr1_xyz_ape_sim3_angle_deg.zip": [
        "evo_ape", "tum", "groundtruth.tum", "rgbdslam.tum", "-a", "-s", "-r", "angle_deg",
    ],
    "fr1_xyz_rpe_se3_1m.zip": [
        "evo_rpe", "tum", "groundtruth.tum", "rgbdslam.tum", "-a", "--delta", "1",
        "--delta_unit", "m",
    ],
}  # fmt: skip


def main() -> int:
    """Run every case; write the zips and commands.json."""
    OUT.mkdir(exist_ok=True)
    bin_dir = Path(sys.executable).parent
    commands = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in ("groundtruth.tum", "rgbdslam.tum"):
            shutil.copy(EXAMPLES / name, work / name)
        (work / "home").mkdir()
        env = {**os.environ, "HOME": str(work / "home")}
        for zip_name, command in CASES.items():
            full = [*command, "--save_results", zip_name, "--no_warnings"]
            exe = str(bin_dir / full[0])
            subprocess.run([exe, *full[1:]], cwd=work, env=env, check=True)  # noqa: S603
            shutil.copy(work / zip_name, OUT / zip_name)
            commands[zip_name] = " ".join(full)
    record = {
        "evo_version": version("evo"),
        "inputs": "src/robot_msgs/examples/fr1_xyz",
        "commands": commands,
    }
    (OUT / "commands.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
