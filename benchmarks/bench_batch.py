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

Issue 25 (sweeps at 10^6 runs) adds, on TINY runs of one pose each (10^5 by default):

5. Reading the runs: a folder tree (``[[folders]]``), ``[[runs]]`` entries by their files
   (JSON and TOML) and by their folders (``path``), each read by this code and by the
   code of ``--baseline`` (a git revision, extracted here), alternated, in fresh
   processes: the time to the first batch of runs a sweep can hand out (this code
   streams them) and to the last.
6. The end phase: the derived files of TINY records, written by this code in blocks on
   2 local worker processes and in the client alone, and by the baseline's client,
   alternated; the client's CPU of the merge a run.
7. The Dask scheduler against chunk size: sweeps of MANY tiny runs on a ``dask
   scheduler`` and 2 ``dask worker`` processes of THREADS threads (no nanny) with
   ``--chunk-s`` from 1 ms to 1 s: tasks/s, runs/s, the scheduler's CPU a task (from
   its process), the client's CPU a task and a run.
8. The projection to 10^6 runs on 100 nodes x 16 cores, recomputed from 5-7 (and the
   per-run time of 1, or ``--per-run-ms``), with what then limits it.

Every figure of 5-7 is a median over ``--repeats`` alternated runs with its min and max,
and the load average is printed before and after each part: the machine is shared.

Usage (by hand, not by pytest; the machine's other jobs show in the load average, so
ratios measured in one run are the figures to read)::

    PYTHONPATH=src python benchmarks/bench_batch.py --data /tmp/sweep   # 3000 runs of 10^4 poses
    PYTHONPATH=src python benchmarks/bench_batch.py --runs 300 --small 100 --many 2000
    PYTHONPATH=src python benchmarks/bench_batch.py --parts 5,6,7,8 --tiny 100000 \
        --baseline 9745f2d --data /tmp/sweep
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
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
    hour_ago = time.time() - 3600  # not "racily clean": --resume trusts their stamps
    for path in (root / "runs").rglob("*.tum"):
        os.utime(path, (hour_ago, hour_ago))
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

    def __init__(self, workers, threads=1):
        self.workers = workers
        self.threads = threads
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
        worker = [*module, "distributed.cli.dask_worker", self.address]
        worker += ["--nthreads", str(self.threads)]
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


def parts_1_to_4(args, data):
    """The sweep of RUNS runs of POSES poses on each executor, resume, memory, simulation."""
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
    return per_run_s


# -- issue 25: reading, the end phase, the scheduler, the projection ----------------------


def load_text():
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} CPUs)"


def spread(values, fmt="{:.2f}"):
    """``median (min-max, n)`` of alternated measurements."""
    med = statistics.median(values)
    return (
        f"{fmt.format(med)} ({fmt.format(min(values))}-{fmt.format(max(values))}, n={len(values)})"
    )


def baseline_src(rev, into):
    """The ``src`` of git revision ``rev``, extracted under ``into``, with our compiled parts."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(HERE.parent), "archive", rev, "src"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    for built in (HERE.parent / "src" / "robot_msgs" / "io").glob("*.so"):
        shutil.copy(built, into / "src" / "robot_msgs" / "io" / built.name)
    return into / "src"


def write_manifests(root, n):
    """ROOT/files.json, files.toml (runs by their files), paths.toml (by their folders)."""
    if (root / "paths.toml").exists():
        return
    runs = [
        {
            "algorithm": f"algo{a}", "sequence": f"seq{s}", "trial": t,
            "estimate": f"runs/algo{a}/seq{s}/{t}/estimate.tum",
            "reference": f"runs/seq{s}/reference.tum",
        }
        for s in range(10) for a in range(10) for t in range(1, n // 100 + 1)
    ]  # fmt: skip
    (root / "files.json").write_text(json.dumps({"settings": {"align": "se3"}, "runs": runs}))
    with (root / "files.toml").open("w") as toml:
        toml.write('[settings]\nalign = "se3"\n')
        for run in runs:
            toml.write("[[runs]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in run.items()))
    with (root / "paths.toml").open("w") as toml:
        toml.write('[settings]\nalign = "se3"\n')
        for run in runs:
            toml.write(
                f'[[runs]]\npath = "runs/{run["algorithm"]}/{run["sequence"]}/{run["trial"]}"\n'
            )


def read_main(manifest):
    """Read a manifest's runs with the code on PYTHONPATH; time the first 1000 and the last."""
    start = time.perf_counter()
    from robot_msgs.runs import manifest as module

    if hasattr(module, "RunReader"):  # streamed: a sweep hands out runs as they come
        first, count = None, 0
        for count, _ in enumerate(module.RunReader([manifest]), start=1):
            if count == 1000:
                first = time.perf_counter() - start
        total = time.perf_counter() - start
    else:  # read whole before the first run goes out
        count = len(module.load_runs([manifest]).runs)
        total = first = time.perf_counter() - start
    print("CLIENT " + json.dumps({"runs": count, "first_s": first, "total_s": total}), flush=True)


class _Nothing:
    """A feed without chunks (starts an executor's workers)."""

    pending = False

    def next_chunk(self):
        return None


def end_main(root, out, mode, workers):
    """Write the derived files of ROOT's records in OUT: blocks on workers, the client, or old."""
    from bench_batch import sleep_run as fn

    from robot_msgs.batch import outputs
    from robot_msgs.batch.inputs import settings_identity
    from robot_msgs.batch.plan import SweepState
    from robot_msgs.batch.store import ResultStore
    from robot_msgs.runs import load_runs

    manifest = load_runs([root / "bench.toml"])
    n = len(manifest.runs)
    store = ResultStore(out)
    shared = settings_identity(manifest.settings.to_dict(), fn)
    state = SweepState(n)
    by_workers = 0
    if hasattr(outputs, "OutputsWriter"):
        from robot_msgs.batch.backends import make_executor
        from robot_msgs.batch.intake import StoredCheck
        from robot_msgs.batch.worker import Job

        assert not StoredCheck(store, state, shared, verify=False).check(manifest.runs, 0)
        job = Job(settings=manifest.settings, shared=shared, out=str(out), session="bench")
        runner = make_executor("local" if mode == "blocks" else "serial", workers=workers)
        with runner:
            if mode == "blocks":  # the workers of the sweep are there at its end: start them
                for _ in runner.run(fn, job, _Nothing()):
                    pass
            start = (time.perf_counter(), time.process_time())
            writer = outputs.OutputsWriter(manifest, state, store, out, shared=shared, force=True)
            with writer:
                if mode == "blocks":
                    for outcome in runner.run(fn, job, writer):
                        writer.take(outcome)
                writer.finish()
            by_workers = writer.by_workers
    else:
        from robot_msgs.batch.sweep import _check_stored

        todo, _ = _check_stored(manifest, store, state, shared, verify=False, say=print)
        assert not todo
        start = (time.perf_counter(), time.process_time())
        outputs.write_outputs(manifest, state, store, out, shared=shared, force=True)
    report = {
        "runs": n,
        "end_s": time.perf_counter() - start[0],
        "cpu_s": time.process_time() - start[1],
        "by_workers": by_workers,
        "table": hashlib.sha256((out / "results.parquet").read_bytes()).hexdigest(),
        "reports": hashlib.sha256((out / "reports.json").read_bytes()).hexdigest(),
    }
    print("CLIENT " + json.dumps(report), flush=True)


def tasks_main(root, out, address, chunk_s):
    """A sweep of ROOT's tiny runs on the scheduler at ADDRESS with --chunk-s CHUNK_S.

    ``local:N`` for ADDRESS: on N local worker processes.
    """
    from bench_batch import sleep_run as fn

    from robot_msgs.batch.sweep import run_sweep
    from robot_msgs.runs import load_runs

    os.environ["BENCH_SLEEP_S"] = "0"
    manifest = load_runs([root / "bench.toml"])
    start = (time.perf_counter(), time.process_time())
    where = (
        {"executor": "local", "workers": int(address.split(":")[1])}
        if address.startswith("local:")
        else {"scheduler": address}
    )
    summary = run_sweep(manifest, out, fn=fn, progress=None, chunk_s=chunk_s, force=True, **where)
    record = json.loads((out / "summary.json").read_text())
    report = {
        "runs": summary.n_runs,
        "ok": summary.n_ok,
        "chunks": record["chunks"],
        "compute_s": summary.compute_s,
        "wall_s": time.perf_counter() - start[0],
        "cpu_s": time.process_time() - start[1],
        "compute_cpu_s": record["client_compute_cpu_s"],  # handing out, taking back
    }
    print("CLIENT " + json.dumps(report), flush=True)


def part_reading(args, data, old_src):
    root = data / f"tiny{args.tiny}"
    generate_tiny(root, args.tiny)
    write_manifests(root, args.tiny)
    codes = {"this": str(HERE.parent / "src")} | ({"baseline": str(old_src)} if old_src else {})
    kinds = {
        "folder tree ([[folders]])": "bench.toml",
        "[[runs]] by files, JSON": "files.json",
        "[[runs]] by files, TOML": "files.toml",
        "[[runs]] by folder (path)": "paths.toml",
    }
    print()
    print(f"5. reading {args.tiny} tiny runs, warm, in fresh processes ({load_text()}):")
    found = {}
    for _ in range(args.repeats):
        for kind, name in kinds.items():
            for code, src in codes.items():
                env = {**bench_env(), "PYTHONPATH": os.pathsep.join([src, str(HERE)])}
                report = measured(["--read", str(root / name)], env=env)
                assert report["runs"] == args.tiny, report
                found.setdefault((kind, code), []).append(report)
    print(f"   {'':<28}{'code':<10}{'first 1000 runs s':>26}{'all s':>26}{'us a run':>10}")
    rates = {}
    for (kind, code), reports in found.items():
        first = spread([r["first_s"] for r in reports])
        total = [r["total_s"] for r in reports]
        per_run = statistics.median(total) / args.tiny * 1e6
        rates[(kind, code)] = per_run
        print(f"   {kind:<28}{code:<10}{first:>26}{spread(total):>26}{per_run:>10.0f}")
    print(f"   ({load_text()} after)")
    return {kind: rates[(kind, "this")] for kind in kinds}


def part_end(args, data, old_src):
    root = data / f"tiny{args.tiny}"
    generate_tiny(root, args.tiny)
    out = data / f"out-end{args.tiny}"
    if not (out / "summary.json").exists():
        started = time.perf_counter()
        # The records, once: runs that sleep 0 s, on 8 workers (each record is fsync-ed:
        # the writes, not the CPUs, bound it).
        argv = ["--tasks", str(root), str(out), "local:8", "1"]
        measured(argv, env=bench_env())
        print(
            f"   (records of {args.tiny} tiny runs written in {time.perf_counter() - started:.0f} s)"
        )
    modes = {"blocks": str(HERE.parent / "src"), "client": str(HERE.parent / "src")}
    if old_src:
        modes["old"] = str(old_src)
    print()
    print(f"6. the end phase: the derived files of {args.tiny} tiny runs' records ({load_text()}):")
    found = {}
    for _ in range(args.repeats):
        for mode, src in modes.items():
            env = {**bench_env(), "PYTHONPATH": os.pathsep.join([src, str(HERE)])}
            argv = ["--end", str(root), str(out), mode, str(args.workers)]
            found.setdefault(mode, []).append(measured(argv, env=env))
    labels = {
        "blocks": f"this code, blocks on {args.workers} local workers",
        "client": "this code, blocks in the client alone",
        "old": "baseline, the client alone",
    }
    for mode, reports in found.items():
        wall = [r["end_s"] for r in reports]
        per_run = statistics.median(wall) / args.tiny * 1e3
        cpu = statistics.median(r["cpu_s"] for r in reports) / args.tiny * 1e3
        print(
            f"   {labels[mode]:<44} {spread(wall)} s: {per_run:.3f} ms a run, "
            f"client CPU {cpu:.3f} ms a run"
        )
    tables = {r["table"] for reports in found.values() for r in reports}
    texts = {r["reports"] for reports in found.values() for r in reports}
    print(
        f"   byte-identical results.parquet and reports.json across all: {len(tables) == len(texts) == 1}"
    )
    print(f"   ({load_text()} after)")
    blocks = found["blocks"]
    client = found["client"]
    return {
        # a block's work on one worker, a run (the client alone does all of it, serially):
        # its CPU, as the wall time of a shared machine counts the other jobs too
        "block_ms_per_run": statistics.median(r["cpu_s"] for r in client) / args.tiny * 1e3,
        # what the client itself spends a run merging blocks written by workers
        "merge_ms_per_run": statistics.median(r["cpu_s"] for r in blocks) / args.tiny * 1e3,
    }


def part_tasks(args, data, _old_src=None):
    import psutil

    root = data / f"tiny{args.task_runs}"
    generate_tiny(root, args.task_runs)
    chunks = [float(c) for c in args.chunks.split(",")]
    print()
    print(
        f"7. the Dask scheduler against chunk size: {args.task_runs} tiny runs on a `dask "
        f"scheduler` and 2 `dask worker` processes of {args.task_threads} threads "
        f"({load_text()}):"
    )
    found = {}
    with ProcessCluster(2, threads=args.task_threads) as cluster:
        scheduler = psutil.Process(cluster.procs[0].pid)
        for _ in range(args.repeats):
            for chunk_s in chunks:
                out = data / f"out-tasks-{chunk_s}"
                before = sum(scheduler.cpu_times()[:2])
                report = measured(
                    ["--tasks", str(root), str(out), cluster.address, str(chunk_s)], env=bench_env()
                )
                report["scheduler_cpu_s"] = sum(scheduler.cpu_times()[:2]) - before
                found.setdefault(chunk_s, []).append(report)
    print(
        f"   {'--chunk-s':>9}{'runs/task':>11}{'tasks/s':>22}{'runs/s':>22}"
        f"{'sched. ms/task':>16}{'client ms/task':>16}{'client ms/run':>15}"
    )
    costs = {}
    for chunk_s, reports in found.items():
        per_task = [r["runs"] / r["chunks"] for r in reports]
        tasks = [r["chunks"] / r["compute_s"] for r in reports]
        runs = [r["runs"] / r["compute_s"] for r in reports]
        sched = statistics.median(r["scheduler_cpu_s"] / r["chunks"] for r in reports) * 1e3
        client = statistics.median(r["compute_cpu_s"] / r["chunks"] for r in reports) * 1e3
        client_run = statistics.median(r["compute_cpu_s"] / r["runs"] for r in reports) * 1e3
        costs[chunk_s] = (sched, client, client_run)
        print(
            f"   {chunk_s:>9g}{statistics.median(per_task):>11.0f}{spread(tasks, '{:.0f}'):>22}"
            f"{spread(runs, '{:.0f}'):>22}{sched:>16.2f}{client:>16.2f}{client_run:>15.3f}"
        )
    print(f"   ({load_text()} after)")
    smallest = min(chunks)
    sched_ms, _, _ = costs[smallest]  # one run a task: the cost of a task itself
    # The client's CPU is a cost a task (hand out, take back) plus a cost a run (its
    # summary); the sweeps differ in runs a task, so a least-squares fit over all of
    # them separates the two (non-negative: a cost below 0 is noise, fitted as 0).
    every = [r for reports in found.values() for r in reports]
    design = np.array([[r["chunks"], r["runs"]] for r in every], dtype=float)
    cpu = np.array([r["compute_cpu_s"] for r in every])
    (client_task_s, client_run_s), *_ = np.linalg.lstsq(design, cpu, rcond=None)
    if client_task_s < 0 or client_run_s < 0:
        client_task_s, client_run_s = (
            (0.0, float(cpu.sum() / design[:, 1].sum()))
            if client_task_s < 0
            else (float(cpu.sum() / design[:, 0].sum()), 0.0)
        )
    client_ms, client_run_ms = client_task_s * 1e3, client_run_s * 1e3
    print(
        f"   a task costs the scheduler {sched_ms:.2f} ms of CPU (ceiling {1e3 / sched_ms:.0f} "
        f"tasks/s on a core of its own, --chunk-s {smallest:g}); the client's CPU, fitted "
        f"over all {len(every)} sweeps: {client_ms:.2f} ms a task + {client_run_ms:.3f} ms a run"
    )
    return {"sched_ms": sched_ms, "client_task_ms": client_ms, "client_run_ms": client_run_ms}


def part_projection(per_run_s, reading, end, tasks):
    from robot_msgs.batch.blocks import BLOCK_RUNS
    from robot_msgs.batch.plan import default_chunk_s

    n, cores = 10**6, NODES * CORES
    chunk_s = default_chunk_s(cores)
    tasks_per_s = cores / chunk_s
    compute = n * per_run_s / cores
    sched_load = tasks_per_s * tasks["sched_ms"] / 1e3
    runs_per_s = cores / per_run_s
    client_load = (
        tasks_per_s * tasks["client_task_ms"] / 1e3 + runs_per_s * tasks["client_run_ms"] / 1e3
    )
    n_tasks = n / (chunk_s / per_run_s)
    # Each CPU's seconds are a floor under the wall time: the client and the scheduler
    # have a core each, the cores evaluate in parallel.
    client_bound = n * tasks["client_run_ms"] / 1e3 + n_tasks * tasks["client_task_ms"] / 1e3
    read = {kind: n * us / 1e6 for kind, us in reading.items()}
    blocks = -(-n // BLOCK_RUNS)
    end_workers = (
        blocks * BLOCK_RUNS * end["block_ms_per_run"] / 1e3 / cores
        + blocks * tasks["sched_ms"] / 1e3
    )
    end_client = n * end["merge_ms_per_run"] / 1e3
    fastest_read = min(read.values())
    phases = {
        "the cores evaluating": compute,
        "the client's CPU (tasks and runs)": client_bound,
        "the scheduler's CPU": n_tasks * tasks["sched_ms"] / 1e3,
        "reading the runs (the fastest kind, streamed)": fastest_read,
    }
    limit = max(phases, key=phases.get)
    total = phases[limit] + end_workers + end_client
    print()
    print(
        f"8. projected to {n} runs of {per_run_s * 1e3:.1f} ms on {NODES} nodes x {CORES} cores "
        f"({cores} worker threads), default --chunk-s {chunk_s:g} ({tasks_per_s:.0f} tasks/s):"
    )
    for what, seconds in phases.items():
        print(f"   {what:<48}{seconds / 60:>8.1f} min")
    print(
        f"   scheduler load {sched_load:.2f} of a core, client load {client_load:.2f} of a core "
        "while the cores evaluate"
    )
    for kind, seconds in read.items():
        print(f"   reading, {kind:<38}{seconds / 60:>8.1f} min (overlaps the computing)")
    print(
        f"   end phase: {blocks} blocks, {end_workers:.1f} s on the workers and {end_client:.1f} s "
        f"of merging in the client after the last result"
    )
    print(
        f"   total about {total / 60:.1f} min, limited by {limit}; the end phase adds "
        f"{(end_workers + end_client):.0f} s"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", default="1,2,3,4,5,6,7,8", help="which parts to run")
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--small", type=int, default=300, help="runs of the memory comparison")
    parser.add_argument("--poses", type=int, default=10_000)
    parser.add_argument("--many", type=int, default=20_000, help="runs of the simulated sweep")
    parser.add_argument("--threads", type=int, default=50, help="threads a simulated worker")
    parser.add_argument("--task-threads", type=int, default=16, help="threads a part-7 worker")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tiny", type=int, default=100_000, help="tiny runs of parts 5 and 6")
    parser.add_argument("--task-runs", type=int, default=4000, help="tiny runs a part-7 sweep")
    parser.add_argument("--chunks", default="0.001,0.01,0.1,1", help="--chunk-s of part 7")
    parser.add_argument("--repeats", type=int, default=3, help="alternated runs of parts 5-7")
    parser.add_argument("--baseline", help="git revision to compare parts 5 and 6 with")
    parser.add_argument("--per-run-ms", type=float, default=18.7, help="part 8 without part 1")
    parser.add_argument("--data", type=Path, help="keep the generated runs here")
    parser.add_argument("--client", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    parser.add_argument("--simulate", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--read", help=argparse.SUPPRESS)
    parser.add_argument("--end", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--tasks", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client is not None:
        return client_main(args.client[1:] if args.client[:1] == ["--"] else args.client)
    if args.simulate is not None:
        root, out, threads, sleep_s = args.simulate
        return simulate_main(Path(root), Path(out), int(threads), float(sleep_s))
    if args.read is not None:
        return read_main(args.read)
    if args.end is not None:
        root, out, mode, workers = args.end
        return end_main(Path(root), Path(out), mode, int(workers))
    if args.tasks is not None:
        root, out, address, chunk_s = args.tasks
        return tasks_main(Path(root), Path(out), address, float(chunk_s))

    parts = set(args.parts.split(","))
    data = args.data or Path(tempfile.mkdtemp(prefix="bench_batch_"))
    print(f"{load_text()} at the start; data under {data}")
    per_run_s = args.per_run_ms / 1e3
    if parts & {"1", "2", "3", "4"}:
        per_run_s = parts_1_to_4(args, data)
    old_src = baseline_src(args.baseline, data / "baseline") if args.baseline else None
    found = {}
    for part, measure in (("5", part_reading), ("6", part_end), ("7", part_tasks)):
        saved = data / f"part{part}.json"  # what 8 projects from, kept for a later --parts 8
        if part in parts:
            found[part] = measure(args, data, old_src)
            saved.write_text(json.dumps(found[part]))
        elif "8" in parts and saved.exists():
            found[part] = json.loads(saved.read_text())
            print(f"\n{part}. (the figures of {saved}, measured before)")
    if "8" in parts:
        if len(found) < 3:
            sys.exit("part 8 needs the figures of 5, 6 and 7 (run them, or keep them in --data)")
        part_projection(per_run_s, found["5"], found["6"], found["7"])
    if args.data is None:
        shutil.rmtree(data, ignore_errors=True)
    return None


if __name__ == "__main__":
    main()
