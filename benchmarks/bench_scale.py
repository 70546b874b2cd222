"""How ``robot-msgs ape`` and all-pairs RPE grow with the number of poses, against the floor.

    python benchmarks/bench_scale.py [--sizes 1e5 1e6 1e7] [--pairs 3] [--folder DIR]

For each size, a random-walk ground truth and a noisy estimate of N poses each
(``bench_evaluation.make_files``, written by a separate process so this one stays small;
a 10^7-pose file is about 1.1 GB) are kept in ``--folder`` for later runs. Then, in
alternating order (``harness.paired``), each command runs ``--pairs`` times against the
**floor**: a process that imports NumPy and parses each file once with the package's
compiled table parser, and does nothing else (the least any reader of these files does).

Per command: wall and CPU time (medians), the ratio to the floor (median, min-max of the
pairs), and the peak resident memory of the command in a fresh process (``harness.py``
says why a plain child's ``ru_maxrss`` is wrong) against the pose data, 7 float64 and a
float64 stamp a pose for both files (128 B a pose). Linear growth shows as a flat time per
pose and a flat memory ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from harness import bench_env, machine_line, paired, spread

BIN = Path(sys.executable).parent

# Import NumPy and parse both files with the compiled parser, loaded by path so that the
# package's own import is not counted: "numpy's import plus one parse of each file".
FLOOR = """
import sys, importlib.util, numpy as np
import robot_msgs
from pathlib import Path
so = next((Path(robot_msgs.__file__).parent / "io").glob("_fasttable*.so"))
spec = importlib.util.spec_from_file_location("_fasttable", so)
fast = importlib.util.module_from_spec(spec); spec.loader.exec_module(fast)
for path in sys.argv[1:]:
    data = Path(path).read_bytes()
    n = fast.count_lines(data)
    parts = (np.empty(n), np.empty((n, 3)), np.empty((n, 4)))
    assert fast.parse(data, False, True, parts, np.empty(n, dtype=np.int64)) > 0
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e5, 1e6, 1e7])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "rm-scale")
    args = parser.parse_args()
    rm = str(BIN / "robot-msgs")
    env = bench_env()
    print(f"before: {machine_line()}")
    header = (
        f"{'poses':>9} {'command':<22} {'wall [s]':>8} {'CPU [s]':>7} {'us/pose':>7} "
        f"{'/ floor wall':>17} {'/ floor CPU':>17} {'peak [MB]':>9} {'/ data':>6}"
    )
    print(header)
    for size in args.sizes:
        n = int(size)
        folder = args.folder / f"n{n}"
        ref, est = folder / "reference.tum", folder / "estimate.tum"
        if not est.exists():
            folder.mkdir(parents=True, exist_ok=True)
            code = (
                "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); "
                "from bench_evaluation import make_files; make_files(int(sys.argv[2]), "
                "Path(sys.argv[3]))"
            )
            here = str(Path(__file__).parent)
            subprocess.run([sys.executable, "-c", code, here, str(n), str(folder)], check=True)
        floor = [sys.executable, "-c", FLOOR, str(ref), str(est)]
        commands = {
            "ape --align se3": [rm, "ape", str(ref), str(est), "--align", "se3"],
            "rpe 1 m --all-pairs": [
                rm, "rpe", str(ref), str(est), "--delta", "1", "--delta-unit", "m", "--all-pairs",
            ],
        }  # fmt: skip
        data = 2 * n * 8 * 8
        for label, argv in commands.items():
            runs = paired(argv, floor, args.pairs, env)
            wall = statistics.median(r.wall_s for r in runs.a)
            cpu = statistics.median(r.cpu_s for r in runs.a)
            peak = max(r.peak_rss_b for r in runs.a)
            to_floor_wall = [1 / x for x in runs.ratios("wall_s")]
            to_floor_cpu = [1 / x for x in runs.ratios("cpu_s")]
            print(
                f"{n:>9} {label:<22} {wall:>8.2f} {cpu:>7.2f} {wall / n * 1e6:>7.3f} "
                f"{spread(to_floor_wall, '{:.2f}') + 'x':>17} "
                f"{spread(to_floor_cpu, '{:.2f}') + 'x':>17} {peak / 1e6:>9.0f} "
                f"{peak / data:>6.2f}",
                flush=True,
            )
        floor_wall = statistics.median(r.wall_s for r in runs.b)
        floor_cpu = statistics.median(r.cpu_s for r in runs.b)
        floor_peak = max(r.peak_rss_b for r in runs.b)
        print(
            f"{n:>9} {'floor (numpy + parse)':<22} {floor_wall:>8.2f} {floor_cpu:>7.2f} "
            f"{floor_wall / n * 1e6:>7.3f} {'':>17} {'':>17} {floor_peak / 1e6:>9.0f} "
            f"{floor_peak / data:>6.2f}"
        )
    print(f"after: {machine_line()}")
    print(
        "times: medians of the pairs; / floor: ours / floor in each pair, median (min-max);"
        " peak: the largest of our runs; data: 2 files x 8 float64 a pose"
    )


if __name__ == "__main__":
    main()
