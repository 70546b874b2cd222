"""Batch sweeps: what the client costs, executor throughput, resume, memory, and 10^6 runs.

One run prints the figures issue 15 asks for, each measured in this run:

1. A sweep of RUNS runs (10 algorithms x 10 sequences x RUNS/100 trials) of POSES poses
   each (random-walk SE(3) references, estimates with noise and drift; APE after SE(3)
   alignment and RPE over 1 s) by ``robot-msgs bench`` on each executor, each in a fresh
   process: wall time, throughput, and the *client's* CPU time and peak memory (the
   ``robot-msgs`` process itself: with ``--dask`` it holds the LocalCluster's scheduler
   too; the worker processes are not counted). The tables must be byte-identical.
2. A no-op ``--resume`` of that sweep: the whole command, start to exit.
3. The client's peak memory for SMALL runs against RUNS runs, same executor.
4. A simulated sweep: MANY runs whose per-run function sleeps for the per-run time
   measured in 1 (tiny files, so the workers' own costs stay small), on a LocalCluster of
   2 processes x THREADS threads, so the client and the scheduler, not the two cores,
   are what limits it; its client CPU per run, throughput and memory, against a sweep of
   MANY/10 runs, give the projection to 10^6 runs on 100 nodes of 16 cores.

Usage (by hand, not by pytest; the machine's other jobs show in the load average, so
ratios measured in one run are the figures to read)::

    PYTHONPATH=src python benchmarks/bench_batch.py --data /tmp/sweep   # 3000 runs of 10^4 poses
    PYTHONPATH=src python benchmarks/bench_batch.py --runs 300 --small 100 --many 2000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MANIFEST = """
[settings]
align = "se3"

[[folders]]
root = "runs"
"""
NODES, CORES = 100, 16


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
    step = 0.05 * (1.0 + 0.2 * np.sin(t / 7.0))
    xyz = np.column_stack(
        [np.cumsum(step * np.cos(yaw)), np.cumsum(step * np.sin(yaw)), 0.3 * np.sin(t / 5.0)]
    )
    return t, xyz, quat_xyzw_from_euler(0.05 * np.sin(t), 0.05 * np.cos(t / 3.0), yaw)


def write_tum(path, t, xyz, quat):
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savetxt(path, np.column_stack([t, xyz, quat]), fmt="%.6f")


def generate(root, n_runs, n_poses, seed=0):
    """ROOT/runs/SEQUENCE/reference.tum and ROOT/runs/ALGORITHM/SEQUENCE/TRIAL/estimate.tum."""
    if (root / "bench.toml").exists():
        return
    rng = np.random.default_rng(seed)
    trials = max(1, n_runs // 100)
    for s in range(10):
        t, xyz, quat = random_walk(rng, n_poses)
        write_tum(root / "runs" / f"seq{s}" / "reference.tum", t, xyz, quat)
        for a in range(10):
            for trial in range(1, trials + 1):
                drift = np.linspace(0.0, rng.uniform(0.1, 1.0), n_poses)[:, None]
                noisy = xyz + rng.normal(0.0, 0.02, xyz.shape) + drift * [1.0, 0.5, 0.0]
                q = quat + rng.normal(0.0, 0.002, quat.shape)
                q /= np.linalg.norm(q, axis=1, keepdims=True)
                path = root / "runs" / f"algo{a}" / f"seq{s}" / str(trial) / "estimate.tum"
                write_tum(path, t, noisy, q)
    (root / "bench.toml").write_text(MANIFEST)


def generate_tiny(root, n_runs):
    """Runs of one pose each (their function sleeps instead of reading them)."""
    if (root / "bench.toml").exists():
        return
    line = "0.0 0 0 0 0 0 0 1\n"
    trials = n_runs // 100
    for s in range(10):
        (root / "runs" / f"seq{s}").mkdir(parents=True, exist_ok=True)
        (root / "runs" / f"seq{s}" / "reference.tum").write_text(line)
        for a in range(10):
            for trial in range(1, trials + 1):
                folder = root / "runs" / f"algo{a}" / f"seq{s}" / str(trial)
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "estimate.tum").write_text(line)
    (root / "bench.toml").write_text(MANIFEST)


# -- run in worker processes (imported by name: this file is on their PYTHONPATH) --------

_STATS = None


def sleep_run(task):
    """A per-run function that costs BENCH_SLEEP_S of wall time and no CPU."""
    global _STATS  # noqa: PLW0603 - one ErrorStats built per worker process
    from robot_msgs.compare import Comparison, RunReport, error_stats

    if _STATS is None:
        _STATS = error_stats([0.1, 0.2])
    time.sleep(float(os.environ.get("BENCH_SLEEP_S", "0.01")))
    comparisons = {
        m.name: Comparison(
            metric=m.metric, stats={"translation": _STATS}, units={"translation": "m"}
        )
        for m in task.settings.metrics
    }
    run = task.run
    return RunReport(
        name=run.name, success=True, algorithm=run.algorithm, sequence=run.sequence,
        trial=run.trial, comparisons=comparisons,
    )  # fmt: skip


# -- the client, measured in its own process ----------------------------------------------


def client_main(argv):
    """Run ``robot-msgs bench ARGV`` in this process; print its exit code, wall, CPU, peak RSS."""
    from robot_msgs.cli import main

    start = (time.perf_counter(), time.process_time())
    code = main(argv)
    report = {
        "code": code,
        "wall_s": time.perf_counter() - start[0],
        "cpu_s": time.process_time() - start[1],
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print("CLIENT " + json.dumps(report), flush=True)


def simulate_main(root, out, threads, sleep_s):
    """A sweep of sleeping runs on a LocalCluster of 2 x THREADS threads, measured here."""
    import dask
    import distributed
    from bench_batch import sleep_run as fn  # by name: the workers import it

    from robot_msgs.batch.dask_executor import LOCAL_CLUSTER_CONFIG
    from robot_msgs.batch.sweep import run_sweep
    from robot_msgs.runs import load_runs

    os.environ["BENCH_SLEEP_S"] = str(sleep_s)
    with dask.config.set(LOCAL_CLUSTER_CONFIG), distributed.LocalCluster(
        n_workers=2, threads_per_worker=threads, host="127.0.0.1", dashboard_address=":0",
        silence_logs=40,
    ) as cluster:  # fmt: skip
        start = (time.perf_counter(), time.process_time())
        manifest = load_runs([root / "bench.toml"])
        loaded = time.perf_counter() - start[0]
        summary = run_sweep(
            manifest, out, fn=fn, scheduler=cluster.scheduler_address, progress=None
        )
        report = {
            "runs": summary.n_runs,
            "ok": summary.n_ok,
            "load_s": loaded,
            "wall_s": time.perf_counter() - start[0],
            "cpu_s": time.process_time() - start[1],
            "compute_s": summary.compute_s,
            "throughput": summary.throughput,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }
    print("CLIENT " + json.dumps(report), flush=True)


def measured(argv, env=None):
    """Run a measuring driver in a fresh process; return its CLIENT report."""
    done = subprocess.run(
        [sys.executable, str(HERE / "bench_batch.py"), *argv],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("CLIENT ")]
    if done.returncode or not lines:
        msg = f"{argv} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        raise RuntimeError(msg)
    return json.loads(lines[-1].removeprefix("CLIENT "))


def bench_env():
    path = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path}


def sweep(data, out, executor, workers, *extra):
    flags = {"serial": ["--serial"], "local": ["--workers", str(workers)], "cluster": []}.get(
        executor, ["--dask", "--workers", str(workers)]
    )
    argv = ["--client", "bench", str(data / "bench.toml"), "--out", str(out), "--quiet", *flags]
    report = measured([*argv, *extra], env=bench_env())
    report["summary"] = json.loads((out / "summary.json").read_text())
    return report


class ProcessCluster:
    """A ``dask scheduler`` and WORKERS ``dask worker`` processes on loopback, as on a cluster.

    The client then runs alone in its process: what ``--scheduler`` costs the machine
    that submits, without the LocalCluster's scheduler (which ``--dask`` runs in the
    client's process). Workers without a nanny, one thread each, no work stealing: as the
    LocalCluster of ``--dask``.
    """

    def __init__(self, workers):
        self.workers = workers
        self.procs = []
        self.folder = Path(tempfile.mkdtemp(prefix="bench_batch_cluster_"))
        self.file = self.folder / "scheduler.json"

    def __enter__(self):
        env = {**bench_env(), "DASK_DISTRIBUTED__SCHEDULER__WORK_STEALING": "False"}
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
        module = [sys.executable, "-m"]
        scheduler = [*module, "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
        scheduler += ["--port", "0", "--no-dashboard", "--scheduler-file", str(self.file)]
        self.procs.append(subprocess.Popen(scheduler, **quiet))
        self.address = self._address(time.monotonic() + 60)
        worker = [*module, "distributed.cli.dask_worker", self.address, "--nthreads", "1"]
        worker += ["--no-nanny", "--no-dashboard", "--host", "127.0.0.1"]
        self.procs += [subprocess.Popen(worker, **quiet) for _ in range(self.workers)]
        import distributed

        with distributed.Client(self.address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(self.workers, timeout=60)
        return self

    def _address(self, deadline):
        """The scheduler's address, from the file it writes once it listens."""
        while (address := self._read_address()) is None:
            if time.monotonic() > deadline:
                msg = "no dask scheduler started in 60 s"
                raise RuntimeError(msg)
            time.sleep(0.1)
        return address

    def _read_address(self):
        try:
            return json.loads(self.file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            return None  # not written yet, or not whole yet

    def __exit__(self, *exc):
        for proc in reversed(self.procs):
            proc.terminate()
        deadline = time.monotonic() + 20
        while any(proc.poll() is None for proc in self.procs) and time.monotonic() < deadline:
            time.sleep(0.1)
        for proc in self.procs:
            proc.kill()  # whatever outlived SIGTERM
            proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--small", type=int, default=300, help="runs of the memory comparison")
    parser.add_argument("--poses", type=int, default=10_000)
    parser.add_argument("--many", type=int, default=20_000, help="runs of the simulated sweep")
    parser.add_argument("--threads", type=int, default=50, help="threads a simulated worker")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, help="keep the generated runs here")
    parser.add_argument("--client", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--simulate", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        return client_main(args.client[1:] if args.client[:1] == ["--"] else args.client)
    if args.simulate is not None:
        root, out, threads, sleep_s = args.simulate
        return simulate_main(Path(root), Path(out), int(threads), float(sleep_s))

    data = args.data or Path(tempfile.mkdtemp(prefix="bench_batch_"))
    big, small = data / f"runs{args.runs}x{args.poses}", data / f"runs{args.small}x{args.poses}"
    start = time.perf_counter()
    generate(big, args.runs, args.poses)
    generate(small, args.small, args.poses, seed=1)
    print(f"runs under {data} ({time.perf_counter() - start:.0f} s to generate or find)")
    print(
        f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f} before the runs "
        "(other jobs on this machine share them)"
    )

    results = {}
    for executor in ("serial", "local", "dask"):
        out = data / f"out-{executor}"
        shutil.rmtree(out, ignore_errors=True)
        results[executor] = sweep(big, out, executor, args.workers)
    out = data / "out-cluster"
    shutil.rmtree(out, ignore_errors=True)
    with ProcessCluster(args.workers) as cluster:
        results["cluster"] = sweep(
            big, out, "cluster", args.workers, "--scheduler", cluster.address
        )
    tables = {k: (data / f"out-{k}" / "results.parquet").read_bytes() for k in results}
    same = len(set(tables.values())) == 1

    serial = results["serial"]["summary"]
    print()
    print(
        f"1. {args.runs} runs of {args.poses} poses ({serial['seconds_per_run'] * 1e3:.1f} ms a run in a worker):"
    )
    print(
        f"{'executor':<18}{'wall s':>8}{'runs/s':>8}{'vs serial':>10}{'client CPU ms/run':>19}{'client peak MiB':>17}{'chunks':>8}"
    )
    base = args.runs / results["serial"]["wall_s"]
    for executor, report in results.items():
        s = report["summary"]
        rate = args.runs / report["wall_s"]
        label = {
            "serial": "serial",
            "cluster": f"--scheduler ({args.workers} w.)",
        }.get(executor, f"{executor} ({args.workers} workers)")
        print(
            f"{label:<18}{report['wall_s']:>8.1f}{rate:>8.1f}{rate / base:>9.2f}x"
            f"{report['cpu_s'] / args.runs * 1e3:>19.3f}{report['peak_mib']:>17.0f}{s['chunks']:>8}"
        )
    print(f"   byte-identical results tables across the executors: {same}")
    print(
        "   client CPU of the serial executor includes every evaluation; of the others, "
        "the whole robot-msgs process (reading the manifest, the plan, the outputs; with "
        "--dask also the LocalCluster's scheduler; with --scheduler, a `dask scheduler` and "
        f"{args.workers} `dask worker` processes on loopback, the client alone)"
    )

    resume = [sweep(big, data / "out-dask", "dask", args.workers, "--resume") for _ in range(3)]
    walls = sorted(r["wall_s"] for r in resume)
    print()
    print(
        f"2. no-op --resume of the {args.runs}-run sweep, the whole command: {walls[1]:.2f} s "
        f"(median of 3; {', '.join(f'{w:.2f}' for w in walls)}), client peak "
        f"{resume[0]['peak_mib']:.0f} MiB"
    )

    out = data / "out-small"
    shutil.rmtree(out, ignore_errors=True)
    few = sweep(small, out, "dask", args.workers)
    many = results["dask"]
    slope = (many["peak_mib"] - few["peak_mib"]) * 2**20 / (args.runs - args.small)
    marginal = (many["cpu_s"] - few["cpu_s"]) / (args.runs - args.small)
    print()
    print(
        f"3. client peak memory, --dask: {few['peak_mib']:.0f} MiB for {args.small} runs, "
        f"{many['peak_mib']:.0f} MiB for {args.runs} runs: x{many['peak_mib'] / few['peak_mib']:.3f}"
        f" ({slope:.0f} bytes a run)"
    )
    print(
        f"   client CPU, --dask: {few['cpu_s']:.2f} s for {args.small} runs, {many['cpu_s']:.2f} s "
        f"for {args.runs}: {marginal * 1e3:.3f} ms a run more, "
        f"{many['cpu_s'] - marginal * args.runs:.2f} s whatever the size (importing Dask, "
        "starting the cluster)"
    )

    per_run_s = serial["seconds_per_run"]
    sims = {}
    for n in (args.many // 10, args.many):
        root = data / f"tiny{n}"
        generate_tiny(root, n)
        out = data / f"out-tiny{n}"
        shutil.rmtree(out, ignore_errors=True)
        sims[n] = measured(
            ["--simulate", str(root), str(out), str(args.threads), str(per_run_s)], env=bench_env()
        )
    few, many = sims[args.many // 10], sims[args.many]
    # Marginal costs: what one more run adds (the fixed start-up cancels out).
    cpu_per_run = (many["cpu_s"] - few["cpu_s"]) / (many["runs"] - few["runs"])
    cpu_fixed = many["cpu_s"] - cpu_per_run * many["runs"]
    mem_slope = (many["peak_mib"] - few["peak_mib"]) * 2**20 / (many["runs"] - few["runs"])
    slots = 2 * args.threads
    print()
    print(
        f"4. simulated sweeps, runs sleeping {per_run_s * 1e3:.1f} ms (the measured per-run "
        f"time) on 2 x {args.threads} threads ({slots} slots, {slots / per_run_s:.0f} runs/s "
        "if nothing else limited them; the workers' own hashing and records run on the 2 cores):"
    )
    for n, report in sims.items():
        print(
            f"   {n:>7} runs: {report['throughput']:7.0f} runs/s, client CPU "
            f"{report['cpu_s'] / n * 1e3:.3f} ms/run (reading the manifest "
            f"{report['load_s'] / n * 1e3:.3f}), client peak {report['peak_mib']:.0f} MiB"
        )
    n6 = 10**6
    cores = NODES * CORES
    cluster_rate = cores / per_run_s
    client_rate = 1 / cpu_per_run
    rate = min(cluster_rate, client_rate)
    memory = many["peak_mib"] + mem_slope * (n6 - many["runs"]) / 2**20
    print(
        f"   marginal client cost {cpu_per_run * 1e3:.3f} ms of CPU a run (scheduler included) "
        f"and {mem_slope:.0f} bytes; fixed {cpu_fixed:.1f} s of CPU"
    )
    print(
        f"   projected to {n6} runs on {NODES} nodes x {CORES} cores: the cores would run "
        f"{cluster_rate:.0f} runs/s, the client keeps up with {client_rate:.0f} runs/s: "
        f"{rate:.0f} runs/s, {(n6 / rate + cpu_fixed) / 60:.0f} min; client memory "
        f"{memory:.0f} MiB, the manifest's RunSpecs most of it"
    )
    print(
        f"   records: {n6 // 256} a shard in 256 folders; reports.json about "
        f"{(data / 'out-dask' / 'reports.json').stat().st_size / args.runs * n6 / 1e9:.1f} GB, "
        "written as it goes"
    )
    if args.data is None:
        shutil.rmtree(data, ignore_errors=True)
    return None


if __name__ == "__main__":
    main()
