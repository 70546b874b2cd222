"""Saving and loading a whole evaluation result: JSON against .npz and Parquet, one run.

    PYTHONPATH=src python benchmarks/bench_result_files.py [--sizes 1e4 2e5 1e6] [--repeats 3]

Data per size N: a 100 Hz random-walk reference and an estimate of N poses (noise),
evaluated by ``ape`` with SE(3) alignment, so the result holds N errors, N stamps, the
matched reference and the aligned estimate (N x 8 numbers each) and two index arrays.
Timed, best of ``--repeats``: :func:`robot_msgs.io.result_files.save_result` and
:func:`~robot_msgs.io.result_files.load_result` for each format; printed with the file
size and the ratios JSON / format (how many times faster or smaller the binary forms
are). The JSON save is also set against ``msgspec.json.encode`` of the same message
(arrays as nested lists, nothing written): the floor for any JSON of it, last line per
size (issue 19 asks for at most 1.5x at 2e5 poses; it was 7-8x when the result went
through a dict and :mod:`json`). evo's ``--save_results`` zip holds only the errors and stamps (no trajectories by
default), so it is no like-for-like reference here.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import msgspec
import numpy as np

from robot_msgs.evaluation import EvaluationSettings, ape
from robot_msgs.io.result_files import load_result, save_result
from robot_msgs.trajectory import PoseTrajectory


def _trajectory(t: np.ndarray, xyz: np.ndarray) -> PoseTrajectory:
    quats = np.tile([0.0, 0.0, 0.0, 1.0], (len(t), 1))
    return PoseTrajectory(stamps_s=t, positions_xyz=xyz, orientations_quat_xyzw=quats)


def _plain(value: object) -> object:
    """msgspec's ``enc_hook`` for the floor: an array as nested lists, a mapping as a dict."""
    return value.tolist() if isinstance(value, np.ndarray) else dict(value)  # type: ignore[call-overload]


def _best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e4, 2e5, 1e6])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    out = Path(tempfile.mkdtemp())
    print(
        f"{'poses':>8} {'format':>8} {'save [s]':>9} {'load [s]':>9} {'size [MB]':>10}"
        f" {'JSON/this save':>15} {'load':>6} {'size':>6}"
    )
    for size in args.sizes:
        n = int(size)
        t = np.arange(n) * 0.01
        xyz = np.cumsum(rng.normal(0, 0.01, (n, 3)), axis=0)
        result = ape(
            _trajectory(t, xyz),
            _trajectory(t, xyz + rng.normal(0, 0.003, (n, 3))),
            settings=EvaluationSettings(align="se3"),
        )
        rows = {}
        for suffix in (".json", ".npz", ".parquet"):
            path = out / f"r{n}{suffix}"
            save = _best(lambda p=path, r=result: save_result(p, r, force=True), args.repeats)
            load = _best(lambda p=path: load_result(p), args.repeats)
            assert load_result(path) == result
            rows[suffix] = (save, load, path.stat().st_size)
        floor = _best(lambda r=result: msgspec.json.encode(r, enc_hook=_plain), args.repeats)
        js = rows[".json"]
        for suffix, (save, load, bytes_) in rows.items():
            print(
                f"{n:8d} {suffix[1:]:>8} {save:9.3f} {load:9.3f} {bytes_ / 1e6:10.2f}"
                f" {js[0] / save:15.1f} {js[1] / load:6.1f} {js[2] / bytes_:6.1f}"
            )
        print(
            f"{n:8d} JSON save / msgspec.json.encode: {js[0]:.3f} s / {floor:.3f} s"
            f" = {js[0] / floor:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
