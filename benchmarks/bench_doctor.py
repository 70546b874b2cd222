"""``robot-msgs doctor`` on large pairs, whole process: start-up, reading, every check.

    PYTHONPATH=src python benchmarks/bench_doctor.py [--sizes 1e4 1e5] [--repeat 3] [--late 0.3]
        [--flat]

Data: a reference of N poses at 100 Hz (a body turning about three axes along a 3-D
path) and an estimate of the same N poses with 2 mm / 0.1 deg white noise, stamped
0.3 s late (``--late``), in another world frame, written as TUM files. Each run is
``python -m robot_msgs doctor REF EST`` in a fresh process (interpreter start-up, the
imports, reading both files, every check); the time is the best of ``--repeat`` runs,
with what the doctor found (it must find the 0.3 s offset). Target: under 2 s at 10^5
poses. A second column times the library call alone (:func:`diagnose` on trajectories
already read) to show where the time goes.

Measured on the shared 2-core machine while quiet (load average 0.2, 2026-12-03):
10^4 poses 0.77 s whole process (diagnose 0.43 s), 10^5 poses 0.78 s (diagnose 0.35 s),
best of 3; ``/usr/bin/time`` gives 0.72-0.89 s and 107 MB peak at 10^5. The target holds.

Earlier, on the same machine at load average 5.3 from other work (so every
figure is inflated): 10^4 poses 1.97 s whole process (diagnose 1.33 s), 10^5 poses
2.54 s (diagnose 1.23 s); before the doctor capped the offset and extrinsic estimates at
5 000 spread poses, 10^5 poses took 6.6 s (diagnose 4.4 s). Start-up and reading take
about 1.3 s of it here (``import robot_msgs.evaluation.doctor`` alone 0.6-1.1 s under
that load).

``--flat`` times a 2-D robot's file with no headings (:func:`make_flat_pair`: a 50 m
circle at 0.1 rad/s, z = 0, identity orientations), whose offset a steady circle cannot
tell, so every wider search runs. Best of 3 at 10^5 poses, load average 2.1-2.6
(2026-12-07): 2.10 s whole process (diagnose 1.84 s) before the offset grid was fitted
at once and a turn that only rotates the circle was no longer searched, 1.60 s (1.32 s)
after; ``--late 0.3`` 2.17 (1.87) and 1.66 (1.34) s. The 3-D pair, the same minutes:
1.28 s (0.91 s) and 1.28 s (0.84 s).

The stamps' median step kept on each trajectory (``PoseTrajectory.median_step_s``), where
the doctor took it 38 times on the ``--flat`` pair at 10^5 poses (22 ms each:
``numpy.partition`` is slow on a steady rate's near-equal steps; 1.04 s of 6.9 s under
cProfile): the processes' CPU time (user + sys, one BLAS thread), median of 5 runs of
each interleaved, at load average 9-11 from other work (2026-12-07), 10^5 poses, 0.3 s
late: 3-D pair 1.39 s before, 1.19 s after; ``--flat`` 1.78 s and 1.52 s (wall times at
that load, 4.8 and 4.4 s, 6.1 and 5.0 s, say little).

``--late 5`` times the doctor's wider offset search (beyond its ±1 s, over every offset
that keeps half the estimate inside the reference), at load average 3.5-4.2 on the same
machine, best of 3: 10^4 poses 1.81 s whole process (diagnose 1.29 s), 10^5 poses 1.78 s
(diagnose 1.26 s), where ``--late 0.3`` took 0.95 and 1.37 s (diagnose 0.88 and 0.55 s)
in the same minutes. Before that search the doctor found the 5 s offset as
``motion_mismatch`` in 0.44 and 0.92 s (diagnose 0.09 and 0.18 s: it stops there).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from robot_msgs.evaluation import diagnose
from robot_msgs.io import read_trajectory, write_trajectory
from robot_msgs.rotations import matrix_from_rotation_vector, quat_xyzw_from_matrix
from robot_msgs.trajectory import PoseTrajectory


def make_pair(
    n: int, seed: int = 0, *, late_s: float = 0.3
) -> tuple[PoseTrajectory, PoseTrajectory]:
    """Return a reference of ``n`` poses at 100 Hz and its noisy estimate, ``late_s`` late."""
    rng = np.random.default_rng(seed)
    t = np.asarray(1.7e9 + np.arange(n) * 0.01, dtype=np.float64)
    s = (t - t[0]) * 0.2
    turn = np.stack([0.4 * np.sin(s), 0.3 * np.cos(0.7 * s), 1.5 * np.sin(0.3 * s)], axis=1)
    xyz = np.stack([3 * np.cos(s), 2 * np.sin(2 * s), 0.5 * np.sin(0.5 * s)], axis=1)
    ref = PoseTrajectory(
        stamps_s=t,
        positions_xyz=xyz,
        orientations_quat_xyzw=quat_xyzw_from_matrix(matrix_from_rotation_vector(turn)),
    )
    world = matrix_from_rotation_vector(np.array([[0.1, -0.2, 0.9]]))[0]
    noisy = turn + rng.normal(0.0, np.radians(0.1), turn.shape)
    est = PoseTrajectory(
        stamps_s=t - late_s,
        positions_xyz=(xyz + rng.normal(0.0, 0.002, xyz.shape)) @ world.T + [5.0, -2.0, 1.0],
        orientations_quat_xyzw=quat_xyzw_from_matrix(world @ matrix_from_rotation_vector(noisy)),
    )
    return ref, est


def make_flat_pair(
    n: int, seed: int = 0, *, late_s: float = 0.3, uneven: float = 0.0
) -> tuple[PoseTrajectory, PoseTrajectory]:
    """Return a 2-D robot's file with no headings, ``n`` poses at 100 Hz, and its estimate.

    A circle of 50 m at 0.1 rad/s (``uneven`` rad varies the angle by ``sin(0.2 t)``), z = 0
    and identity orientations on both sides; the estimate has 1 cm of noise in x and y and
    is stamped ``late_s`` late. At a steady speed a shift in time is a rotation of the
    circle: the offset cannot be told.
    """
    rng = np.random.default_rng(seed)
    t = np.asarray(1.7e9 + np.arange(n) * 0.01, dtype=np.float64)
    a = 0.1 * (t - t[0]) + uneven * np.sin(0.2 * (t - t[0]))
    xyz = np.stack([50.0 * np.cos(a), 50.0 * np.sin(a), 0.0 * a], axis=1)
    still = np.tile([0.0, 0.0, 0.0, 1.0], (n, 1))
    noisy = xyz + np.concatenate([rng.normal(0.0, 0.01, (n, 2)), 0.0 * xyz[:, :1]], axis=1)
    return (
        PoseTrajectory(stamps_s=t, positions_xyz=xyz, orientations_quat_xyzw=still),
        PoseTrajectory(stamps_s=t - late_s, positions_xyz=noisy, orientations_quat_xyzw=still),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e4, 1e5])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--late", type=float, default=0.3, help="the estimate's clock offset, seconds"
    )
    parser.add_argument(
        "--flat", action="store_true", help="a flat circle with no orientations (make_flat_pair)"
    )
    args = parser.parse_args()
    print(f"{'poses':>8}  {'doctor (process) s':>18}  {'diagnose() s':>12}  found")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            n = int(size)
            ref, est = (make_flat_pair if args.flat else make_pair)(n, late_s=args.late)
            paths = [Path(tmp) / f"ref_{n}.tum", Path(tmp) / f"est_{n}.tum"]
            write_trajectory(paths[0], ref, "tum")
            write_trajectory(paths[1], est, "tum")
            command = [sys.executable, "-m", "robot_msgs", "doctor", *map(str, paths)]
            best, out = float("inf"), ""
            for _ in range(args.repeat):
                start = time.perf_counter()
                done = subprocess.run(command, capture_output=True, text=True, check=True)
                best = min(best, time.perf_counter() - start)
                out = done.stdout
            read = [read_trajectory(p) for p in paths]
            library = float("inf")
            for _ in range(args.repeat):
                start = time.perf_counter()
                diagnose(read[0], read[1])
                library = min(library, time.perf_counter() - start)
            found = [line.split(":")[0] for line in out.splitlines()[1:]]
            print(f"{n:>8}  {best:>18.2f}  {library:>12.2f}  {', '.join(found)}")


if __name__ == "__main__":
    main()
