"""Write the first 50 poses of the fr1_xyz RGB-D SLAM estimate with trajectopy's own writer.

Produces ``tests/data/trajectopy_rgbdslam_head.traj``: trajectopy's ASCII trajectory file
(``#fields t,l,px,py,pz,qx,qy,qz,qw,vx,vy,vz``, comma-separated, its ``Trajectory.to_file``),
the file a trajectopy user has on disk. ``tests/io/test_tum.py`` reads it and compares the
poses with the TUM file they came from.

Usage, from the repository root, in an environment with trajectopy 5.x::

    python tests/data/make_trajectopy_traj_file.py

The stored file was made with trajectopy 5.1.2. The TUM file is read here with NumPy.
robot_msgs never imports trajectopy (GPL-3.0); this script only runs it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parents[1] / "src" / "robot_msgs" / "examples" / "fr1_xyz" / "rgbdslam.tum"
OUT = HERE / "trajectopy_rgbdslam_head.traj"
ROWS = 50


def main() -> int:
    """Write the file."""
    from trajectopy import Trajectory

    rows = np.loadtxt(SOURCE, comments="#")[:ROWS]
    traj = Trajectory.from_arrays(rows[:, 1:4], quat=rows[:, 4:8], timestamps=rows[:, 0].copy())
    traj.name = "rgbdslam_head"
    traj.to_file(str(OUT))
    print(f"wrote {OUT} ({ROWS} poses)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
