"""Whole-process time of the command line, against evo's, measured in one run.

    python benchmarks/bench_cli.py [--poses 50000] [--repeats 5]

What a user feels: the time from typing the command to its output, start-up included
(the interpreter, the imports, reading both files, the metric, printing). Each command
runs ``--repeats`` times as a subprocess; the table shows the median and the best wall
time and the ratio of the medians. The inputs are the random-walk ground truth and noisy,
drifting estimate of ``bench_evaluation.py`` (TUM files, 10 Hz); evo (when installed)
runs on the same files, and the rmse both print is compared, so the ratios are between
equal results.

Rows: ``robot-msgs --help`` against ``python -c "import numpy"`` (the start-up floor of
any NumPy program); ``ape`` with and without SE(3) alignment; ``rpe --delta 1
--delta-unit m --all-pairs`` (evo's quadratic all-pairs path search).
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_evaluation import make_files

BIN = Path(sys.executable).parent


def timed(argv: list[str], repeats: int, env: dict[str, str]) -> tuple[list[float], str]:
    """Wall times of ``repeats`` runs of ``argv`` and the last run's stdout."""
    times, out = [], ""
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
        times.append(time.perf_counter() - start)
        out = done.stdout
    return times, out


def evo_rmse(stdout: str) -> float:
    match = re.search(r"rmse\s+([0-9.eE+-]+)", stdout)
    assert match, stdout
    return float(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--poses", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    env = {**os.environ, "HOME": tempfile.mkdtemp(prefix="evo-home-"), "MPLBACKEND": "Agg"}
    # Bytecode caching as on a user's machine (some sandboxes set PYTHONDONTWRITEBYTECODE,
    # which makes every start compile the package from source: ~30 ms of robot-msgs'
    # start-up, not of evo's, whose site-packages install wrote its .pyc files).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    have_evo = (BIN / "evo_ape").exists()
    with tempfile.TemporaryDirectory() as tmp:
        ref, est = make_files(args.poses, Path(tmp))
        rm = str(BIN / "robot-msgs")
        rows = [
            (
                "--help (vs import numpy)",
                [rm, "--help"],
                [sys.executable, "-c", "import numpy"],
            ),
            (
                "ape",
                [rm, "ape", str(ref), str(est), "--json"],
                [str(BIN / "evo_ape"), "tum", str(ref), str(est)],
            ),
            (
                "ape --align se3",
                [rm, "ape", str(ref), str(est), "--align", "se3", "--json"],
                [str(BIN / "evo_ape"), "tum", str(ref), str(est), "-a"],
            ),
            (
                "rpe --delta 1 --delta-unit m --all-pairs",
                [rm, "rpe", str(ref), str(est), "--delta", "1", "--delta-unit", "m",
                 "--all-pairs", "--json"],
                [str(BIN / "evo_rpe"), "tum", str(ref), str(est), "--delta", "1",
                 "--delta_unit", "m", "--all_pairs"],
            ),
        ]  # fmt: skip
        # Warm-up, not timed: the .pyc files are written, evo writes its settings file.
        for _, ours, theirs in rows:
            subprocess.run(ours, capture_output=True, env=env, check=False)
            if have_evo:
                subprocess.run(theirs, capture_output=True, env=env, check=False)
        print(
            f"{args.poses} poses per file; median (best) of {args.repeats} runs; {os.cpu_count()} cores"
        )
        print(f"{'command':<42} {'robot_msgs':>16} {'reference':>16} {'ratio':>7}  agreement")
        for label, ours, theirs in rows:
            mine, out = timed(ours, args.repeats, env)
            other_name = "import numpy" if label.startswith("--help") else "evo"
            if other_name == "evo" and not have_evo:
                print(f"{label:<42} {statistics.median(mine):>9.3f} s        evo not installed")
                continue
            ref_times, ref_out = timed(theirs, args.repeats, env)
            agreement = ""
            if other_name == "evo":
                ours_rms = next(iter(json.loads(out)["stats"].values()))["rms"]
                agreement = f"rmse {ours_rms:.6g} vs {evo_rmse(ref_out):.6g}"
            m, r = statistics.median(mine), statistics.median(ref_times)
            ratio = f"{r / m:6.1f}x" if other_name == "evo" else f"{(m - r) * 1e3:+5.0f}ms"
            print(
                f"{label:<42} {m:>7.3f} ({min(mine):.3f}) {r:>7.3f} ({min(ref_times):.3f}) "
                f"{ratio:>7}  {agreement}"
            )


if __name__ == "__main__":
    main()
