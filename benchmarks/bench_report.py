"""A run report against evo's APE alone, timed in one run.

    python benchmarks/bench_report.py [--sizes 1e4 1e5 1e6] [--repeats 3]
    python benchmarks/bench_report.py --runs 200 [--repeats 5]

Data per size N: a run folder with a 100 Hz random-walk ground truth (``reference.tum``),
an estimate of N poses (noise and drift, ``estimate.tum``), ``timing.csv`` (N frames),
``tracking.csv`` (one loss every 1000 poses, half a second each) and ``resources.csv``
(one sample a second). Timed:

- ``load``: ``robot_msgs.runs.load_run`` (both trajectories and the three logs);
- ``report``: ``robot_msgs.runs.evaluate_run`` with SE(3) alignment and APE alone: losses,
  validity,
  coverage, success, APE on the valid poses (plus the per-pose series for plots), latency,
  rates, resources;
- ``beyond APE``: the part of ``report`` that is not APE (losses, validity, coverage,
  latency, resources), timed alone;
- evo (when installed): ``file_interface.read_tum_trajectory_file`` of both files, then
  ``sync.associate_trajectories`` (0.01 s), ``align`` (SE(3)) and ``metrics.APE``
  translation, the work evo_ape does, on the same files. evo reads no logs and knows no
  losses, so it evaluates every pose; the ratio is "a whole run report" vs "APE alone".

robot_msgs: best of --repeats; evo: one run (best of --repeats up to 1e5 poses).

``--runs N``: what a user feels reporting many small runs, whole process (``harness.py``):
``robot-msgs report FOLDER`` over N runs, copies of the bundled example runs (200-800
poses each, renamed algorithms, the two shared references), against ``evo_ape tum`` of
one of those runs (its APE alone, no report), alternating ``--repeats`` pairs. Per run,
start-up aside, reading the files dominates: the head of each file is read to detect its
format and again by the reader.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import robot_msgs
from robot_msgs.io import write_tum
from robot_msgs.runs import load_runs
from robot_msgs.runs.evaluate import evaluate_run
from robot_msgs.runs.latency import latency_from_timing
from robot_msgs.runs.load import RunInputs, load_run
from robot_msgs.runs.losses import coverage, losses_from_log, valid_mask
from robot_msgs.runs.resources import resources_from_log
from robot_msgs.runs.run_settings import MetricSpec
from robot_msgs.trajectory import PoseTrajectory

sys.path.insert(0, str(Path(__file__).parent))
from harness import bench_env, machine_line, measure, paired, spread


def _quats(yaw: np.ndarray) -> np.ndarray:
    return np.stack([np.zeros_like(yaw), np.zeros_like(yaw), np.sin(yaw / 2), np.cos(yaw / 2)], 1)


def make_run(folder: Path, n: int, rng: np.random.Generator) -> None:
    folder.mkdir(parents=True)
    t = 1_700_000_000.0 + np.arange(n) * 0.01
    xyz = np.cumsum(rng.normal(0, 0.01, (n, 3)), axis=0)
    yaw = np.cumsum(rng.normal(0, 0.005, n))
    write_tum(
        folder / "reference.tum",
        PoseTrajectory(stamps_s=t, positions_xyz=xyz, orientations_quat_xyzw=_quats(yaw)),
    )
    est = xyz + rng.normal(0, 0.003, (n, 3)) + np.cumsum(rng.normal(0, 1e-4, (n, 3)), axis=0)
    write_tum(
        folder / "estimate.tum",
        PoseTrajectory(stamps_s=t, positions_xyz=est, orientations_quat_xyzw=_quats(yaw + 0.001)),
    )
    start = t + 0.002
    avail = start + rng.lognormal(np.log(0.02), 0.3, n)
    rows = np.column_stack([np.arange(n), t, start, avail])
    np.savetxt(folder / "timing.csv", rows, fmt=["%d", "%.4f", "%.4f", "%.4f"], delimiter=",",
               header="frame,acquisition_s,processing_start_s,available_s", comments="")  # fmt: skip
    lost = t[500::1000]
    events = np.empty(2 * lost.size)
    events[0::2], events[1::2] = lost, lost + 0.5
    kinds = np.tile(["lost", "recovered"], lost.size)
    (folder / "tracking.csv").write_text(
        "time_s,event\n" + "".join(f"{a:.4f},{b}\n" for a, b in zip(events, kinds, strict=True))
    )
    seconds = np.arange(t[0], t[-1], 1.0)
    res = np.column_stack(
        [seconds, rng.uniform(50, 150, seconds.size), rng.uniform(1e8, 2e8, seconds.size)]
    )
    np.savetxt(
        folder / "resources.csv",
        res,
        fmt="%.1f",
        delimiter=",",
        header="time_s,cpu_percent,rss_bytes",
        comments="",
    )


def best(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def beyond_ape(run: RunInputs) -> None:
    stamps = run.estimate.stamps_s
    losses = losses_from_log(run.tracking, end_s=float(run.reference.stamps_s[-1]))
    valid_mask(stamps, losses)
    coverage(
        stamps,
        losses,
        start_s=float(run.reference.stamps_s[0]),
        end_s=float(run.reference.stamps_s[-1]),
        coverage_gap_s=1.0,
    )
    latency_from_timing(run.timing)
    resources_from_log(run.resources)


def evo_ape(folder: Path) -> float:
    from evo.core import metrics, sync
    from evo.tools import file_interface

    ref = file_interface.read_tum_trajectory_file(str(folder / "reference.tum"))
    est = file_interface.read_tum_trajectory_file(str(folder / "estimate.tum"))
    ref, est = sync.associate_trajectories(ref, est, max_diff=0.01)
    est = copy.deepcopy(est)
    est.align(ref, correct_scale=False)
    ape = metrics.APE(metrics.PoseRelation.translation_part)
    ape.process_data((ref, est))
    return float(ape.get_statistic(metrics.StatisticsType.rmse))


def copy_example_runs(folder: Path, runs: int) -> Path:
    """Copy the bundled example runs into ``folder`` until it holds ``runs`` runs (or more)."""
    example = Path(robot_msgs.__file__).parent / "examples" / "runs"
    for name in ("fr1_xyz", "fr2_desk"):  # the shared references
        shutil.copytree(example / name, folder / name)
    algorithms = sorted(p.name for p in example.iterdir() if (p / "fr1_xyz").is_dir())
    copies = 0
    while len(list(folder.glob("*/*/*/meta.json"))) < runs:
        algorithm = algorithms[copies % len(algorithms)]
        target = folder / f"{algorithm}{copies}"
        shutil.copytree(example / algorithm, target)
        for meta in target.glob("*/*/meta.json"):
            data = json.loads(meta.read_text())
            meta.write_text(json.dumps({**data, "algorithm": target.name}))
        copies += 1
    return folder


def many_runs(runs: int, repeats: int) -> None:
    """Time ``robot-msgs report`` of ``runs`` example runs against one ``evo_ape``."""
    bin_dir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmp:
        folder = copy_example_runs(Path(tmp) / "runs", runs)
        count = len(list(folder.glob("*/*/*/meta.json")))
        run = next(folder.glob("dvo*/fr1_xyz/trial_1"))
        ours = [str(bin_dir / "robot-msgs"), "report", str(folder)]
        theirs = [str(bin_dir / "evo_ape"), "tum", str(folder / "fr1_xyz" / "reference.tum"),
                  str(run / "estimate.tum")]  # fmt: skip
        env = bench_env(HOME=tempfile.mkdtemp(prefix="evo-home-"))
        print(f"before: {machine_line()}")
        if not (bin_dir / "evo_ape").exists():
            walls = [measure(ours, env) for _ in range(repeats)]
            print(f"report of {count} runs: {spread([r.wall_s for r in walls])} s wall")
            return
        runs_ab = paired(ours, theirs, repeats, env)
        med = statistics.median
        wall, cpu = med(r.wall_s for r in runs_ab.a), med(r.cpu_s for r in runs_ab.a)
        evo_wall, evo_cpu = med(r.wall_s for r in runs_ab.b), med(r.cpu_s for r in runs_ab.b)
        print(f"robot-msgs report, {count} runs: wall {spread([r.wall_s for r in runs_ab.a])} s, "
              f"CPU {spread([r.cpu_s for r in runs_ab.a])} s; per run {wall / count * 1e3:.1f} ms "
              f"wall, {cpu / count * 1e3:.1f} ms CPU")  # fmt: skip
        print(f"evo_ape tum, one of those runs: wall {evo_wall:.3f} s, CPU {evo_cpu:.3f} s: "
              f"{evo_wall * count / wall:.0f}x our per-run wall")  # fmt: skip
        print(f"after: {machine_line()}; medians (min-max) of {repeats} alternating pairs")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e4, 1e5])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--runs", type=int, help="time a report of this many example runs")
    args = parser.parse_args()
    if args.runs:
        many_runs(args.runs, args.repeats)
        return
    try:
        import evo  # noqa: F401

        have_evo = True
    except ImportError:
        have_evo = False
    print(
        f"{'N':>9} {'load s':>8} {'report s':>9} {'beyond APE s':>13} {'evo APE s':>10} {'report/evo':>11}  APE rmse ours / evo"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for k, size in enumerate(args.sizes):
            n = int(size)
            folder = Path(tmp) / f"run{k}"
            make_run(folder, n, np.random.default_rng(k))
            manifest = load_runs(
                [folder], evaluation={"align": "se3"}, metrics=[MetricSpec.build("ape")]
            )
            spec, settings = manifest.runs[0], manifest.settings
            reading = settings.reading
            t_load = best(lambda s=spec, g=reading: load_run(s, reading=g), args.repeats)
            run = load_run(spec, reading=reading)
            t_report = best(lambda r=run, c=settings: evaluate_run(r, c), args.repeats)
            t_beyond = best(lambda r=run: beyond_ape(r), args.repeats)
            primary = evaluate_run(run, settings).primary
            assert primary is not None
            ours = primary.comparison.signals[0].stats.rms
            if have_evo:
                t0 = time.perf_counter()
                theirs = evo_ape(folder)
                t_evo = time.perf_counter() - t0
                ratio = f"{(t_load + t_report) / t_evo:11.2f}"
                compare = f"{ours:.6g} / {theirs:.6g} (evo on all poses)"
            else:
                t_evo, ratio, compare = float("nan"), "        n/a", f"{ours:.6g}"
            print(
                f"{n:>9} {t_load:8.3f} {t_report:9.3f} {t_beyond:13.4f} {t_evo:10.3f} {ratio}  {compare}"
            )
    print("report/evo = (load + report) / evo's load + associate + align + APE; < 1 is faster.")


if __name__ == "__main__":
    main()
