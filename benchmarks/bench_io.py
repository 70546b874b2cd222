"""Time robot_msgs' trajectory readers against evo's, in one run, on 10^3..10^6 poses.

Run by hand, not by pytest:

    PYTHONPATH=src .venv/bin/python benchmarks/bench_io.py            # 1e3 .. 1e6
    PYTHONPATH=src .venv/bin/python benchmarks/bench_io.py --max 1e5  # quicker

Each size writes a random-walk trajectory as TUM (``t x y z qx qy qz qw``, 9 and 6
decimals, as SLAM systems print), KITTI (12 numbers) and EuRoC CSV (ns stamps, w first,
plus 9 ignored columns) into a temporary folder, then times
``robot_msgs.io.read_tum/read_kitti/read_euroc`` and evo's
``file_interface.read_tum_trajectory_file/read_kitti_poses_file/read_euroc_csv_trajectory``
on the same files (best of a few repeats below 10^6 poses, one run at 10^6). It also
checks that both readers return the same positions, so the timings compare equal work.
``peak MB`` is the most memory robot_msgs' reader allocated at once (``tracemalloc``, which
sees NumPy's arrays), in one more, untimed read: 2e6 KITTI poses once took 1.27 GB.
With ``--write`` it also times the writers on what was read (rows ``w-tum``...):
``robot_msgs.io.write_tum/write_kitti/write_euroc`` (shortest exact numbers) against
evo's ``write_tum_trajectory_file/write_kitti_poses_file`` (fixed precision; evo writes
no EuRoC). evo is optional: without it only robot_msgs is timed.

``--rss N`` measures instead, at N poses, each reader's whole-process peak resident memory
(``harness.py``'s fresh launcher) on the compiled road and on the Python road (the
general path of ``io/table.py``, which reads what the compiled one declines: a file with
one ``nan``, or any file where the C extension was not built), as the peak over a
process that imports the reader and reads nothing, in units of the poses' float64 size
(``N * 64`` bytes: stamp, xyz, xyzw, what a trajectory holds). ``--rss 2e6`` once peaked
at 6.8x on the Python road.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np

from robot_msgs.errors import DataWarning
from robot_msgs.io import read_euroc, read_kitti, read_tum, write_euroc, write_kitti, write_tum
from robot_msgs.rotations import matrix_from_quat_xyzw


def random_walk(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    stamps = 1.6e9 + np.cumsum(rng.uniform(0.005, 0.015, n))
    xyz = np.cumsum(rng.normal(scale=0.01, size=(n, 3)), axis=0)
    quat = rng.normal(size=(n, 4))
    quat /= np.linalg.norm(quat, axis=1, keepdims=True)
    return stamps, xyz, quat


def write_files(folder: Path, n: int) -> dict[str, Path]:
    stamps, xyz, quat = random_walk(n)
    tum = folder / f"{n}.tum"
    np.savetxt(
        tum, np.column_stack([stamps, xyz, quat]), fmt="%.9f %.6f %.6f %.6f %.9f %.9f %.9f %.9f"
    )
    kitti = folder / f"{n}.kitti"
    poses = np.zeros((n, 3, 4))
    poses[:, :, :3] = matrix_from_quat_xyzw(quat)
    poses[:, :, 3] = xyz
    np.savetxt(kitti, poses.reshape(n, 12), fmt="%.9e")
    euroc = folder / f"{n}.csv"
    ns = np.rint(stamps * 1e9).astype(np.int64)
    extra = np.zeros((n, 9))
    body = np.column_stack([xyz, quat[:, 3], quat[:, :3], extra])
    with euroc.open("w") as handle:
        handle.write(
            "#timestamp,p_x,p_y,p_z,q_w,q_x,q_y,q_z,v_x,v_y,v_z,bw_x,bw_y,bw_z,ba_x,ba_y,ba_z\n"
        )
        rows = np.char.mod("%.6f", body)
        handle.writelines(
            f"{t}," + ",".join(r) + "\n" for t, r in zip(ns.tolist(), rows.tolist(), strict=True)
        )
    return {"tum": tum, "kitti": kitti, "euroc": euroc}


def best_time(func, path: Path, repeats: int) -> tuple[float, object]:
    best, result = np.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = func(path)
        best = min(best, time.perf_counter() - start)
    return best, result


def peak_mb(func, path: Path) -> float:
    """The peak of the memory ``func(path)`` allocates, MB (an untimed run: tracing slows it)."""
    tracemalloc.start()
    try:
        func(path)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


_READ = """
import sys, warnings
import robot_msgs.io as rio
from robot_msgs.io import table
if sys.argv[2] == "python":
    table._fasttable = None
if sys.argv[1] != "-":
    warnings.simplefilter("ignore")
    traj = getattr(rio, "read_" + sys.argv[3])(sys.argv[1])
    print(len(traj), float(traj.positions_xyz.sum()).hex(), float(traj.stamps_s.sum()).hex())
"""


def rss_table(n: int, formats: list[str]) -> None:
    """Print each reader's peak RSS on both roads at ``n`` poses (``--rss``)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from harness import bench_env, machine_line, measure

    env = bench_env()
    print(f"{n} poses; the poses' float64: {n * 64 / 1e6:.0f} MB; before: {machine_line()}")
    floor = measure([sys.executable, "-c", _READ, "-", "python", "tum"], env).peak_rss_b
    print(f"floor (imports, no read): {floor / 1e6:.0f} MB")
    print(
        f"{'format':7} {'road':9} {'file MB':>8} {'peak MB':>8} {'over floor':>10} {'x poses':>8}  s"
    )
    with tempfile.TemporaryDirectory() as tmp:
        files = write_files(Path(tmp), n)
        for fmt in formats:
            sums = set()
            for road in ("compiled", "python"):
                run = measure([sys.executable, "-c", _READ, str(files[fmt]), road, fmt], env)
                sums.add(run.stdout)
                over = run.peak_rss_b - floor
                print(
                    f"{fmt:7} {road:9} {files[fmt].stat().st_size / 1e6:>8.0f} "
                    f"{run.peak_rss_b / 1e6:>8.0f} {over / 1e6:>10.0f} {over / (n * 64):>8.2f}  "
                    f"{run.wall_s:.2f}",
                    flush=True,
                )
            if len(sums) != 1:  # the two roads must read the same numbers
                msg = f"{fmt}: the roads disagree: {sums}"
                raise SystemExit(msg)
    print(f"after: {machine_line()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max", type=float, default=1e6, help="largest pose count (default 1e6)")
    parser.add_argument("--formats", default="tum,kitti,euroc")
    parser.add_argument("--write", action="store_true", help="time the writers too")
    parser.add_argument("--rss", type=float, help="peak RSS of both roads at this pose count")
    args = parser.parse_args()
    if args.rss:
        rss_table(int(args.rss), args.formats.split(","))
        return
    try:
        from evo.tools import file_interface as evo_io
    except ImportError:
        evo_io = None
        print("evo not installed: timing robot_msgs only")
    ours = {"tum": read_tum, "kitti": read_kitti, "euroc": read_euroc}
    writers = {"tum": write_tum, "kitti": write_kitti, "euroc": write_euroc}
    theirs, evo_writers = {}, {}
    if evo_io is not None:
        theirs = {
            "tum": evo_io.read_tum_trajectory_file,
            "kitti": evo_io.read_kitti_poses_file,
            "euroc": evo_io.read_euroc_csv_trajectory,
        }
        evo_writers = {
            "tum": evo_io.write_tum_trajectory_file,
            "kitti": evo_io.write_kitti_poses_file,
        }
    sizes = [n for n in (10**3, 10**4, 10**5, 10**6) if n <= args.max]
    formats = args.formats.split(",")
    header = f"{'format':7} {'poses':>9} {'robot_msgs s':>13} {'evo s':>9} {'evo/ours':>9} {'ours Mlines/s':>14} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            files = write_files(Path(tmp), n)
            repeats = 5 if n <= 10**4 else (3 if n <= 10**5 else 1)
            for fmt in formats:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DataWarning)
                    t_ours, traj = best_time(ours[fmt], files[fmt], repeats)
                    peak = peak_mb(ours[fmt], files[fmt])
                t_evo, ratio = float("nan"), float("nan")
                if fmt in theirs:
                    t_evo, evo_traj = best_time(theirs[fmt], files[fmt], repeats)
                    if not np.allclose(evo_traj.positions_xyz, traj.positions_xyz, rtol=0, atol=0):
                        msg = f"{fmt} {n}: readers disagree on positions"
                        raise SystemExit(msg)
                    ratio = t_evo / t_ours
                print(
                    f"{fmt:7} {n:>9} {t_ours:>13.4f} {t_evo:>9.4f} {ratio:>9.1f} {n / t_ours / 1e6:>14.2f} {peak:>8.1f}",
                    flush=True,
                )
                if args.write:
                    out = Path(tmp) / f"out.{fmt}"
                    t_ours, _ = best_time(
                        lambda p, w=writers[fmt], t=traj: w(p, t, force=True), out, repeats
                    )
                    t_evo, ratio = float("nan"), float("nan")
                    if fmt in evo_writers:
                        t_evo, _ = best_time(
                            lambda p, w=evo_writers[fmt], t=evo_traj: w(p, t), out, repeats
                        )
                        ratio = t_evo / t_ours
                    print(
                        f"{'w-' + fmt:7} {n:>9} {t_ours:>13.4f} {t_evo:>9.4f} {ratio:>9.1f} {n / t_ours / 1e6:>14.2f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
