"""Association in space: the APE it gives a time-shifted estimate, and its time against trajectopy.

    PYTHONPATH=src python benchmarks/bench_spatial.py [--data ../shared/data/evo-testdata]
        [--sizes 1e3 1e4 1e5] [--repeats 3]

Table 1, on the evo test data (``freiburg1_xyz`` from the shipped example, the others
when ``--data`` holds them): the estimate moved into the reference's frame by the SE(3)
fit of the time-matched poses (as a georeferenced estimate would be), then its stamps
shifted by 1000 s, so that no time association is possible. Columns: the time-matched
APE (SE(3)-aligned) and its part across the reference's path (the error minus its
component along the reference's direction of motion); the APE over the spatial pairs
of the shifted estimate (SE(3)-aligned on those pairs), the pairs, those dropped as
running backwards, and the clock offset the pairs give back.

Table 2: ``associate_spatially`` against trajectopy 5.x's ``NEAREST_SPATIAL`` matching
(``match_trajectories``, when installed), on a helix reference at 200 Hz and an
estimate at 20 Hz beside it, N estimate poses; best of ``--repeats``; ratio trajectopy
over robot_msgs (higher is faster).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import time
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from robot_msgs.errors import DataWarning
from robot_msgs.evaluation import EvaluationSettings, align, associate, associate_spatially
from robot_msgs.io import read_trajectory
from robot_msgs.trajectory import PoseTrajectory

if TYPE_CHECKING:
    from collections.abc import Callable

DEFAULT_DATA = Path(
    os.environ.get(
        "ROBOT_MSGS_EVO_TESTDATA",
        Path(__file__).resolve().parents[1].parent / "shared" / "data" / "evo-testdata",
    )
)


def _cases(data: Path) -> list[tuple[str, PoseTrajectory, PoseTrajectory]]:
    out = [
        (
            "fr1_xyz rgbdslam",
            read_trajectory("example:fr1_xyz/groundtruth.tum"),
            read_trajectory("example:fr1_xyz/rgbdslam.tum"),
        )
    ]
    if not data.is_dir():
        print(f"({data} not found: the evo test data cases are left out)")
        return out
    kitti_times = data / "KITTI_00_gt_times.txt"
    out += [
        (
            "fr2_desk ORB",
            read_trajectory(data / "fr2_desk_groundtruth.txt"),
            read_trajectory(data / "fr2_desk_ORB.txt"),
        ),
        (
            "V1_02",
            read_trajectory(data / "V102_groundtruth.csv"),
            read_trajectory(data / "V102.txt"),
        ),
        (
            "KITTI 00 ORB",
            read_trajectory(data / "KITTI_00_gt.txt", times_path=kitti_times),
            read_trajectory(data / "KITTI_00_ORB.txt", times_path=kitti_times),
        ),
    ]
    return out


def _rms(d: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.sum(d**2, axis=1))))


def ape_table(data: Path) -> None:
    se3 = EvaluationSettings(align="se3")
    print("Table 1: APE (m) of a time-shifted estimate by spatial association")
    print(
        f"{'case':<17} {'APE':>7} {'across':>7} | {'spatial':>7} {'pairs':>6} {'back':>5} "
        f"{'offset s':>9}"
    )
    for name, ref, est in _cases(data):
        pairs = associate(ref, est, EvaluationSettings(sync="interpolate"))
        aligned, fit = align(pairs.reference, pairs.estimate, settings=se3)
        error = aligned.positions_xyz - pairs.reference.positions_xyz
        velocity = np.gradient(ref.positions_xyz, ref.stamps_s, axis=0)
        rows = np.minimum(np.searchsorted(ref.stamps_s, pairs.reference.stamps_s), len(ref) - 1)
        direction = velocity[rows]
        direction /= np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-12)
        across = error - np.sum(error * direction, axis=1, keepdims=True) * direction
        shifted = fit.apply(est).replace(stamps_s=est.stamps_s + 1000.0)
        spatial, match = associate_spatially(ref, shifted)
        moved, _ = align(spatial.reference, spatial.estimate, settings=se3)
        spatial_ape = _rms(moved.positions_xyz - spatial.reference.positions_xyz)
        print(
            f"{name:<17} {_rms(error):>7.4f} {_rms(across):>7.4f} | {spatial_ape:>7.4f} "
            f"{match.n_matched:>6} {match.n_backward:>5} {match.offset_s:>9.3f}"
        )


def _helix(stamps: np.ndarray) -> np.ndarray:
    return np.stack([stamps, 2 * np.cos(0.2 * stamps), 2 * np.sin(0.2 * stamps)], axis=1)


def time_table(sizes: list[int], repeats: int) -> None:
    have_trajectopy = importlib.util.find_spec("trajectopy") is not None
    print(f"\nTable 2: time of one spatial association, s (best of {repeats})")
    print(f"{'N est':>8} {'robot_msgs':>10} {'trajectopy':>10} {'ratio':>6}")
    rng = np.random.default_rng(0)
    for n in sizes:
        te = (np.arange(n) * 0.05).astype(np.float64)
        tr = (np.arange(10 * n) * 0.005).astype(np.float64)
        q_ref = np.tile([0.0, 0.0, 0.0, 1.0], (tr.size, 1))
        q_est = np.tile([0.0, 0.0, 0.0, 1.0], (te.size, 1))
        est_xyz = _helix(te) + rng.normal(0.0, 0.02, (n, 3))
        ref = PoseTrajectory(stamps_s=tr, positions_xyz=_helix(tr), orientations_quat_xyzw=q_ref)
        est = PoseTrajectory(stamps_s=te, positions_xyz=est_xyz, orientations_quat_xyzw=q_est)
        ours = _best(functools.partial(associate_spatially, ref, est), repeats)
        theirs = float("nan")
        if have_trajectopy:
            from trajectopy import MatchingMethod, MatchingSettings, Trajectory
            from trajectopy.processing.matching import match_trajectories

            settings = MatchingSettings(method=MatchingMethod.NEAREST_SPATIAL)
            t_ref = Trajectory.from_arrays(_helix(tr), quat=q_ref, timestamps=tr)
            t_est = Trajectory.from_arrays(est_xyz, quat=q_est, timestamps=te)
            run = functools.partial(match_trajectories, t_est, t_ref, settings, inplace=False)
            theirs = _best(run, repeats)
        print(f"{n:>8} {ours:>10.4f} {theirs:>10.4f} {theirs / ours:>6.2f}")


def _best(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    """Run the benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e3, 1e4, 1e5])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore", DataWarning)
    ape_table(args.data)
    time_table([int(s) for s in args.sizes], args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
