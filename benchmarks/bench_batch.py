"""Batch evaluation throughput: one process, local worker processes, a Dask LocalCluster.

Generates a sweep of RUNS runs (10 algorithms x 10 sequences x RUNS/100 trials) of POSES
poses each as TUM files (random-walk SE(3) references, estimates with noise and drift),
then evaluates it with ``robot_msgs.batch.run_sweep`` (APE translation after SE(3)
alignment, and RPE translation over 1 frame) on each executor, checks that the three
result tables are identical, and prints wall time, throughput and the measured per-run
cost, from which it states the throughput expected on more cores.

Usage (run by hand, not by pytest)::

    PYTHONPATH=src python benchmarks/bench_batch.py              # 1000 runs of 10^4 poses
    PYTHONPATH=src python benchmarks/bench_batch.py --runs 200 --poses 1000 --data /tmp/sweep
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from robot_msgs.batch import ResultStore, load_bench_input, make_tasks, run_sweep
from robot_msgs.batch.evaluate import evaluate_run
from robot_msgs.batch.executors import DaskExecutor, default_workers
from robot_msgs.batch.table import read_table

MANIFEST = """
[settings]
align = "se3"

[[settings.evaluate]]
metric = "ape"
relation = "translation"

[[settings.evaluate]]
metric = "rpe"
relation = "translation"
delta = 1
delta_unit = "f"
align = "none"

[[folders]]
root = "runs"
"""


def quat_xyzw_from_euler(roll, pitch, yaw):
    cr, sr = np.cos(roll / 2), np.sin(roll / 2)
    cp, sp = np.cos(pitch / 2), np.sin(pitch / 2)
    cy, sy = np.cos(yaw / 2), np.sin(yaw / 2)
    return np.column_stack(
        [
            sr * cp * cy - cr * sp * sy,
            cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy,
            cr * cp * cy + sr * sp * sy,
        ]
    )


def random_walk(rng, n):
    t = np.arange(n) * 0.05  # 20 Hz
    yaw = np.cumsum(rng.normal(0.0, 0.02, n))
    speed = 1.0 + 0.2 * np.sin(t / 7.0)
    step = 0.05 * speed
    xyz = np.column_stack(
        [np.cumsum(step * np.cos(yaw)), np.cumsum(step * np.sin(yaw)), 0.3 * np.sin(t / 5.0)]
    )
    quat = quat_xyzw_from_euler(0.05 * np.sin(t), 0.05 * np.cos(t / 3.0), yaw)
    return t, xyz, quat


def write_tum(path, t, xyz, quat):
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, np.column_stack([t, xyz, quat]), fmt="%.6f")


def generate(root, n_runs, n_poses, seed=0):
    rng = np.random.default_rng(seed)
    algorithms = [f"algo{i}" for i in range(10)]
    sequences = [f"seq{i}" for i in range(10)]
    trials = max(1, n_runs // 100)
    start = time.perf_counter()
    for sequence in sequences:
        t, xyz, quat = random_walk(rng, n_poses)
        write_tum(root / "runs" / sequence / "reference.tum", t, xyz, quat)
        for algorithm in algorithms:
            for trial in range(1, trials + 1):
                drift = np.linspace(0.0, rng.uniform(0.1, 1.0), n_poses)[:, None]
                noisy = xyz + rng.normal(0.0, 0.02, xyz.shape) + drift * [1.0, 0.5, 0.0]
                q = quat + rng.normal(0.0, 0.002, quat.shape)
                q /= np.linalg.norm(q, axis=1, keepdims=True)
                write_tum(
                    root / "runs" / algorithm / sequence / str(trial) / "estimate.tum", t, noisy, q
                )
    (root / "bench.toml").write_text(MANIFEST)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--poses", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--data", type=Path, help="reuse/keep the generated sweep here")
    parser.add_argument("--skip", nargs="*", default=[], choices=["serial", "local", "dask"])
    parser.add_argument("--evo", type=int, default=10, help="runs to time with evo (0: none)")
    args = parser.parse_args()

    data = args.data or Path(tempfile.mkdtemp(prefix="bench_batch_"))
    if not (data / "bench.toml").exists():
        gen_s = generate(data, args.runs, args.poses)
        print(f"generated {args.runs} runs of {args.poses} poses in {gen_s:.1f} s under {data}")
    manifest = load_bench_input(data / "bench.toml")
    n = len(manifest.runs)
    size_mb = sum(Path(r.estimate).stat().st_size for r in manifest.runs) / 1e6
    print(
        f"{n} runs, {args.poses} poses each, estimates {size_mb:.0f} MB; {os.cpu_count()} CPUs, {args.workers} workers"
    )
    print(f"load average before the runs (other jobs on this machine): {os.getloadavg()[0]:.2f}")

    start = time.perf_counter()
    make_tasks(manifest, evaluate_run)
    hash_s = time.perf_counter() - start

    rows = []
    tables = {}
    for executor in ("serial", "local", "dask"):
        if executor in args.skip:
            continue
        out = data / f"out-{executor}"
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        summary = run_sweep(
            manifest, out, fn=evaluate_run, executor=executor,
            workers=1 if executor == "serial" else args.workers, progress=sys.stderr,
        )  # fmt: skip
        wall = time.perf_counter() - start
        records = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
        per_run = statistics.mean(r["elapsed_s"] for r in records)
        cpu_run = statistics.mean(r["cpu_s"] for r in records)
        tables[executor] = read_table(summary.table)
        rows.append(
            (
                executor,
                1 if executor == "serial" else args.workers,
                wall,
                n / wall,
                per_run,
                cpu_run,
                summary.n_ok,
            )
        )

    dask_start = None
    if "dask" not in args.skip:
        start = time.perf_counter()
        with DaskExecutor(workers=args.workers):
            dask_start = time.perf_counter() - start

    base = next((r for r in rows if r[0] == "serial"), None)
    print()
    print(
        f"{'executor':<10}{'workers':>8}{'wall s':>9}{'runs/s':>9}{'speed-up':>10}{'wall ms/run':>13}{'CPU ms/run':>12}{'ok':>6}"
    )
    for executor, workers, wall, rate, per_run, cpu_run, ok in rows:
        speedup = f"{base[2] / wall:.2f}x" if base else "-"
        print(
            f"{executor:<10}{workers:>8}{wall:>9.1f}{rate:>9.1f}{speedup:>10}{per_run * 1e3:>13.1f}{cpu_run * 1e3:>12.1f}{ok:>6}"
        )
    print(f"client-side hashing of the inputs (part of every wall time above): {hash_s:.2f} s")
    if dask_start is not None:
        print(
            f"starting and closing a {args.workers}-worker LocalCluster (part of the dask wall time): {dask_start:.2f} s"
        )
    values = list(tables.values())
    same = all(v == values[0] for v in values[1:])
    print(f"identical results tables across executors: {same} ({len(values[0])} rows)")

    if base:
        # The model: wall(P) = fixed + runs x max(CPU per run / P, client cost per result).
        per_run = base[5]  # CPU time of one run: its cost whatever else the machine runs
        serial_out = data / "out-serial"
        start = time.perf_counter()  # a --resume rerun does all but the evaluations
        run_sweep(
            manifest, serial_out, fn=evaluate_run, executor="serial", resume=True, progress=None
        )
        fixed = time.perf_counter() - start
        store = ResultStore(data / "out-client-cost")
        records = ResultStore(serial_out).load_all(make_tasks(manifest, evaluate_run))
        start = time.perf_counter()  # as run_sweep writes them: 4 threads
        with ThreadPoolExecutor(max_workers=4) as writer:
            list(writer.map(store.save, records))
        client = (time.perf_counter() - start) / n
        shutil.rmtree(data / "out-client-cost", ignore_errors=True)
        read_mb = (size_mb + sum(Path(r.reference).stat().st_size for r in manifest.runs) / 1e6) / n
        print()
        print(f"per-run evaluation cost: {per_run * 1e3:.1f} ms CPU (serial process)")
        print(
            f"fixed part of a sweep (hashing, reuse check, table, messages; a --resume rerun): {fixed:.2f} s"
        )
        print(
            f"client cost per result (atomic record write): {client * 1e3:.2f} ms, a ceiling of {1 / client:.0f} runs/s"
        )
        print(
            f"expected on P worker cores: wall = {fixed:.1f} s + {n} x max({per_run * 1e3:.1f} ms / P, "
            f"{client * 1e3:.2f} ms); each run reads {read_mb:.1f} MB"
        )
        for p in (2, 4, 8, 16, 32, 64):
            wall = fixed + n * max(per_run / p, client)
            print(
                f"  P={p:>3}: {n / wall:7.1f} runs/s  ({wall:6.1f} s for {n} runs, reading {n / wall * read_mb:6.0f} MB/s)"
            )
    if args.evo and base:
        compare_with_evo(manifest, tables["serial"], args.evo, base[4])
    if args.data is None:
        shutil.rmtree(data, ignore_errors=True)


def evo_rmse(command):
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return float(
        next(line.split()[1] for line in out.splitlines() if line.strip().startswith("rmse"))
    )


def compare_with_evo(manifest, rows, n_runs, per_run_s):
    """The shell loop this replaces: evo_ape and evo_rpe once per run, on the first runs."""
    bindir = Path(sys.executable).parent
    if not (bindir / "evo_ape").exists():
        print("\nevo not installed: no comparison with a shell loop around evo_ape/evo_rpe")
        return
    by_key = {(r["algorithm"], r["sequence"], r["trial"], r["metric"]): r["rms"] for r in rows}
    worst = 0.0
    start = time.perf_counter()
    for run in manifest.runs[:n_runs]:
        ape = evo_rmse([bindir / "evo_ape", "tum", run.reference, run.estimate, "--align"])
        rpe = evo_rmse(
            [
                bindir / "evo_rpe",
                "tum",
                run.reference,
                run.estimate,
                "--delta",
                "1",
                "--delta_unit",
                "f",
            ]
        )
        for metric, value in (("ape", ape), ("rpe", rpe)):
            ours = by_key[(run.algorithm, run.sequence, run.trial, metric)]
            worst = max(worst, abs(ours - value))
    evo_s = (time.perf_counter() - start) / n_runs
    print()
    print(
        f"a shell loop of evo_ape + evo_rpe (evo 1.38.1), first {n_runs} runs: {evo_s:.2f} s per run"
    )
    print(
        f"  robot_msgs in one process: {per_run_s * 1e3:.1f} ms per run, {evo_s / per_run_s:.0f}x faster"
    )
    print(
        f"  largest difference of the RMSEs: {worst:.1e} m (evo prints 6 decimals: <= 5e-7 is rounding)"
    )


if __name__ == "__main__":
    main()
