"""Whole-process time of the command line against evo's, paired and alternated.

    python benchmarks/bench_cli.py [--poses 50000] [--pairs 7] [--no-warm] [--only ROW]

What a user feels: the time from typing the command to its output, start-up included
(the interpreter, the imports, reading both files, the metric, printing). Each row runs
our command and the reference alternately, ``--pairs`` times each, under the harness's
fresh launcher (``harness.py`` says why); it shows the median wall and CPU time of each
side with their range, and the median of the pairwise ratios (reference / ours) with
their min and max. The inputs are the random-walk ground truth and noisy, drifting
estimate of ``bench_evaluation.py`` (TUM files, 10 Hz); evo (when installed) runs on the
same files and the rmse both print is compared, so the ratios are between equal results.

Rows: ``robot-msgs --help``, ``--version`` and every command's ``--help`` against
``python -c "import numpy"`` (the start-up floor of any NumPy program; shown as our extra
milliseconds of CPU: a help that imports no NumPy is below it); ``ape`` with and without SE(3) alignment; ``ape --plot`` (a PNG, against evo's
``--plot --save_plot``, which writes its own figures: the path coloured by the error,
and the error over time); ``rpe --delta 1 --delta-unit m --all-pairs`` (evo's quadratic
all-pairs path search).

``--pairs 1 --no-warm`` is the single timed run of each side for sizes where evo takes
minutes (all-pairs RPE at 10^6 poses): no warm-up run, the files written just before are
in the page cache for both.

``--data`` (default ``ROBOT_MSGS_EVO_TESTDATA``) adds rows on evo's test data: TUM
fr1_xyz, EuRoC V1_02, KITTI 00 and the ROS 2 MCAP bag (``real_rows``). Measured 2026-12-07
(2 cores shared with other jobs, load average 9-11; Python 3.11.7, NumPy 2.4.6, evo 1.38.1).
Each row ran before (origin/main 55cb3697), after (this speed walk's commits) and evo
alternately, 5 times each under ``harness.measure``; CPU seconds, the minimum (wall time
was 2-4x the CPU time at that load and is not compared):

==============================  ======  =====  =====  ==========
command                         before  after  evo    evo/after
==============================  ======  =====  =====  ==========
``--help`` (evo: import numpy)  0.043   0.044  0.087  2.0x
``ape --help``                  0.056   0.052  0.085  1.7x
fr1_xyz ape --align se3         0.199   0.194  0.484  2.5x
fr1_xyz rpe                     0.204   0.203  0.472  2.3x
fr1_xyz traj (2 files)          0.189   0.180  0.468  2.6x
fr1_xyz res (2 APE results)     0.185   0.178  0.734  4.1x
V1_02 ape --align se3           0.201   0.202  0.616  3.0x
V1_02 traj                      0.177   0.159  0.538  3.4x
KITTI 00 ape --align se3        0.203   0.194  0.549  2.8x
KITTI 00 rpe                    0.193   0.195  0.553  2.8x
KITTI 00 traj (2 files)         0.196   0.171  0.507  3.0x
MCAP ape /odom /amcl_pose       0.437   0.356  0.615  1.7x
MCAP traj /odom                 0.398   0.312  0.564  1.8x
ROS 2 bag traj /tf (no evo)     0.381   0.271  --     --
==============================  ======  =====  =====  ==========

The bag rows gained from the ROS 2 type store imported only for a bag without message
definitions, the traj rows from the evaluation pipeline imported only for a time range;
the others moved within the noise (a command line builds one parser instead of three:
~5 ms). What is left on a bag row is rosbags' own: importing its readers (~45 ms of
``-X importtime``), parsing the MCAP file's message definitions, and deserialising each
message (69 ms of the 90 ms that reading /odom's 2639 Odometry messages takes).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_evaluation import make_files
from harness import bench_env, machine_line, paired, spread

from robot_msgs.cli.commands import COMMANDS

BIN = Path(sys.executable).parent

DEFAULT_DATA = Path(
    os.environ.get(
        "ROBOT_MSGS_EVO_TESTDATA",
        Path(__file__).resolve().parents[1].parent / "shared" / "data" / "evo-testdata",
    )
)

#: A row: its label, our command, the reference's, and whether both print a metric whose
#: rmse is compared (``traj`` and ``res`` rows print tables of their own).
Row = tuple[str, list[str], list[str], bool]


def real_rows(data: Path, tmp: Path, env: dict[str, str]) -> list[Row]:
    """Rows on the evo test data: TUM fr1_xyz, EuRoC V1_02, KITTI 00, a ROS 2 MCAP bag.

    ``res`` compares two saved APE results, written here first by each tool (ours: JSON,
    evo: its zips). The ROS 2 bag of ``/tf`` alone (``tf_example/``) has no evo row: evo
    reads TF through ``tf2_py``, which a pip install lacks.
    """
    rm = str(BIN / "robot-msgs")
    ape, rpe, traj = (str(BIN / f"evo_{c}") for c in ("ape", "rpe", "traj"))
    gt, est = str(data / "freiburg1_xyz-groundtruth.txt"), str(data / "freiburg1_xyz-rgbdslam.txt")
    drift = str(data / "freiburg1_xyz-rgbdslam_drift.txt")
    euroc, v102 = str(data / "V102_groundtruth.csv"), str(data / "V102.txt")
    kgt, korb = str(data / "KITTI_00_gt.txt"), str(data / "KITTI_00_ORB.txt")
    mcap = str(data / "nav2_turtlebot.mcap")
    saved = {}
    for name, estimate in (("a", est), ("b", drift)):
        ours, theirs = tmp / f"{name}.json", tmp / f"{name}.zip"
        for argv in (
            [rm, "ape", gt, estimate, "--align", "se3", "--save", str(ours), "--force", "--quiet"],
            [ape, "tum", gt, estimate, "-a", "--save_results", str(theirs), "--no_warnings"],
        ):
            subprocess.run(argv, env=env, check=True, capture_output=True)
        saved[name] = (str(ours), str(theirs))
    return [
        ("fr1_xyz ape --align se3", [rm, "ape", gt, est, "--align", "se3", "--json"],
         [ape, "tum", gt, est, "-a"], True),
        ("fr1_xyz ape example: paths",
         [rm, "ape", "example:fr1_xyz/groundtruth.tum", "example:fr1_xyz/rgbdslam.tum",
          "--align", "se3", "--json"], [ape, "tum", gt, est, "-a"], True),
        ("fr1_xyz rpe", [rm, "rpe", gt, est, "--json"], [rpe, "tum", gt, est], True),
        ("fr1_xyz traj", [rm, "traj", gt, est], [traj, "tum", gt, est], False),
        ("fr1_xyz res", [rm, "res", saved["a"][0], saved["b"][0]],
         [str(BIN / "evo_res"), saved["a"][1], saved["b"][1], "--no_warnings"], False),
        ("V1_02 ape --align se3", [rm, "ape", euroc, v102, "--align", "se3", "--json"],
         [ape, "euroc", euroc, v102, "-a"], True),
        ("V1_02 traj", [rm, "traj", euroc], [traj, "euroc", euroc], False),
        ("KITTI 00 ape --align se3", [rm, "ape", kgt, korb, "--align", "se3", "--json"],
         [ape, "kitti", kgt, korb, "-a"], True),
        ("KITTI 00 rpe", [rm, "rpe", kgt, korb, "--json"], [rpe, "kitti", kgt, korb], True),
        ("KITTI 00 traj", [rm, "traj", kgt, korb], [traj, "kitti", kgt, korb], False),
        ("MCAP ape /odom /amcl_pose",
         [rm, "ape", mcap, mcap, "--ref-topic", "/odom", "--est-topic", "/amcl_pose", "--json"],
         [ape, "bag2", mcap, "/odom", "/amcl_pose"], True),
        ("MCAP traj /odom", [rm, "traj", mcap, "--topic", "/odom"],
         [traj, "bag2", mcap, "/odom"], False),
        ("ROS 2 bag traj /tf (ours)",
         [rm, "traj", str(data / "tf_example"), "--topic", "/tf:odom.base_footprint"],
         [sys.executable, "-c", "import numpy"], False),
    ]  # fmt: skip


def evo_rmse(stdout: str) -> float:
    match = re.search(r"rmse\s+([0-9.eE+-]+)", stdout)
    assert match, stdout
    return float(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--poses", type=int, default=50_000)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument(
        "--warm", action=argparse.BooleanOptionalAction, default=True,
        help="run each side once before the timed pairs (default: yes)",
    )  # fmt: skip
    parser.add_argument(
        "--data", type=Path, default=DEFAULT_DATA,
        help="the evo test data folder: its rows are added when it exists",
    )  # fmt: skip
    parser.add_argument(
        "--only", action="append", metavar="ROW",
        help="run only this row (its label, e.g. 'ape'); repeat for more",
    )  # fmt: skip
    args = parser.parse_args()
    env = bench_env(HOME=tempfile.mkdtemp(prefix="evo-home-"))
    have_evo = (BIN / "evo_ape").exists()
    numpy = [sys.executable, "-c", "import numpy"]
    with tempfile.TemporaryDirectory() as tmp:
        ref, est = make_files(args.poses, Path(tmp))
        rm = str(BIN / "robot-msgs")
        helps = [(f"{name} --help", [rm, name, "--help"], numpy, False) for name in COMMANDS]
        rows: list[Row] = [
            ("--help", [rm, "--help"], numpy, False),
            ("--version", [rm, "--version"], numpy, False),
            *helps,
            ("ape", [rm, "ape", str(ref), str(est), "--json"],
             [str(BIN / "evo_ape"), "tum", str(ref), str(est)], True),
            ("ape --align se3", [rm, "ape", str(ref), str(est), "--align", "se3", "--json"],
             [str(BIN / "evo_ape"), "tum", str(ref), str(est), "-a"], True),
            ("ape --plot",
             [rm, "ape", str(ref), str(est), "--json", "--plot", str(Path(tmp) / "ours.png"),
              "--force"],
             [str(BIN / "evo_ape"), "tum", str(ref), str(est), "--plot", "--save_plot",
              str(Path(tmp) / "evo.png"), "--no_warnings"], True),  # asks to overwrite otherwise
            ("rpe --delta 1 --delta-unit m --all-pairs",
             [rm, "rpe", str(ref), str(est), "--delta", "1", "--delta-unit", "m",
              "--all-pairs", "--json"],
             [str(BIN / "evo_rpe"), "tum", str(ref), str(est), "--delta", "1",
              "--delta_unit", "m", "--all_pairs"], True),
        ]  # fmt: skip
        if have_evo and args.data.is_dir():
            rows += real_rows(args.data, Path(tmp), env)
        else:
            print(f"(no evo, or {args.data} not found: the evo test data rows are left out)")
        print(f"{args.poses} poses per file; {args.pairs} alternating pairs a row")
        print(f"before: {machine_line()}")
        print(
            f"{'command':<40} {'ours wall':>9} {'min':>6} {'CPU':>6} {'ref. wall':>9} {'min':>6} "
            f"{'CPU':>6} {'ratio wall':>19} {'ratio CPU':>19}  agreement"
        )
        unknown = set(args.only or ()) - {label for label, *_ in rows}
        if unknown:
            parser.error(f"no row {sorted(unknown)}; rows: {[label for label, *_ in rows]}")
        for label, ours, theirs, metric in rows:
            if args.only and label not in args.only:
                continue
            floor = theirs == numpy
            if not floor and not have_evo:
                print(f"{label:<40} evo not installed")
                continue
            runs = paired(ours, theirs, args.pairs, env, warm=args.warm)
            walls_a = [r.wall_s for r in runs.a]
            cpus_a = [r.cpu_s for r in runs.a]
            walls_b = [r.wall_s for r in runs.b]
            cpus_b = [r.cpu_s for r in runs.b]
            if floor:  # our extra start-up over numpy's import, per pair
                extra_wall = [(a - b) * 1e3 for a, b in zip(walls_a, walls_b, strict=True)]
                extra_cpu = [(a - b) * 1e3 for a, b in zip(cpus_a, cpus_b, strict=True)]
                ratio_wall = spread(extra_wall, "{:+.0f}") + " ms"
                ratio_cpu = spread(extra_cpu, "{:+.0f}") + " ms"
                agreement = "reference: python -c 'import numpy'"
            else:
                ratio_wall = spread(runs.ratios("wall_s"), "{:.1f}") + "x"
                ratio_cpu = spread(runs.ratios("cpu_s"), "{:.1f}") + "x"
                agreement = ""
            if metric:
                ours_rms = json.loads(runs.a[-1].stdout)["signals"][0]["stats"]["rms"]
                agreement = f"rmse {ours_rms:.6g} vs {evo_rmse(runs.b[-1].stdout):.6g}"
            med = statistics.median
            print(
                f"{label:<40} {med(walls_a):>9.3f} {min(walls_a):>6.3f} {med(cpus_a):>6.3f} "
                f"{med(walls_b):>9.3f} {min(walls_b):>6.3f} {med(cpus_b):>6.3f} "
                f"{ratio_wall:>19} {ratio_cpu:>19}  {agreement}",
                flush=True,
            )
        print(f"after: {machine_line()}")
        print(
            "seconds: medians over the pairs; ratio: reference / ours in each pair, median"
            " (min-max); --help rows: our extra ms over `import numpy` in each pair"
        )


if __name__ == "__main__":
    main()
