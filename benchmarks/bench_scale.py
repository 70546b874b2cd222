"""How ``robot-msgs ape`` grows with the number of poses: wall time and peak memory.

    python benchmarks/bench_scale.py [--sizes 1e5 1e6 1e7] [--folder DIR]

For each size, a random-walk ground truth and a noisy estimate of N poses each
(``bench_evaluation.make_files``; a 10^7-pose file is about 1.1 GB) are written once
(kept in ``--folder`` for later runs), then ``robot-msgs ape REF EST --align se3`` runs
as a subprocess: the table gives its wall time, the time per pose, and its peak resident
memory (``ru_maxrss`` of that process) against the arrays it has to hold: the two
trajectories as read, 8 float64 per pose each (stamps, positions, quaternions), 128 B a
matched pose pair. Linear growth shows as a flat time per pose and a flat memory ratio.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_evaluation import make_files

BIN = Path(sys.executable).parent


def run(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (bytes) of one run of ``argv``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        msg = f"{argv} exited {child.returncode}"
        raise RuntimeError(msg)
    return elapsed, usage.ru_maxrss * 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6, 1e7])
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "rm-scale")
    args = parser.parse_args()
    rm = str(BIN / "robot-msgs")
    print(
        f"{'poses':>10} {'wall [s]':>9} {'us/pose':>8} {'peak RSS [MB]':>14} {'arrays [MB]':>12} {'ratio':>6}"
    )
    for size in args.sizes:
        n = int(size)
        folder = args.folder / f"n{n}"
        ref, est = folder / "reference.tum", folder / "estimate.tum"
        if not est.exists():
            folder.mkdir(parents=True, exist_ok=True)
            make_files(n, folder)
        run([rm, "ape", str(ref), str(est), "--align", "se3"])  # warm: page cache, .pyc
        wall, peak = min(
            (run([rm, "ape", str(ref), str(est), "--align", "se3"]) for _ in range(2)),
            key=lambda r: r[0],
        )
        arrays = 2 * n * 8 * 8
        print(
            f"{n:>10} {wall:>9.2f} {wall / n * 1e6:>8.3f} {peak / 1e6:>14.0f} "
            f"{arrays / 1e6:>12.0f} {peak / arrays:>6.2f}"
        )


if __name__ == "__main__":
    main()
