"""What hostile inputs cost the command line: time, peak memory, exit status, what is left.

    python benchmarks/bench_hostile.py [--poses 2000000] [--old-src DIR]

Each row runs ``robot-msgs`` as a user would (a subprocess, under ``/usr/bin/time -v``
for the peak resident memory, or ``resource`` where that is missing) on a file built
here:

- ``res`` on an evo result zip holding a 2 GiB zip bomb (2 GiB of zeros streamed through
  deflate, 9 MB on disk) and on a ``.npz`` result holding one;
- ``traj --format tum /dev/zero`` and ``traj /dev/urandom`` (devices);
- ``traj`` on a 64 KiB text file whose second line ends in a 60,000-digit field and an
  ``x`` (``digits.txt``, sniffed to detect its format; ``digits.tum``, refused by the
  reader): the number pattern once tried every split of such a run, quadratic;
- SIGINT and SIGTERM to ``traj BIG --save OUT`` after 1 s (a ``--poses`` TUM file):
  the exit status, the lines on standard error, and what is left beside OUT.

``--old-src DIR`` runs the same rows with another robot_msgs source tree first on
``PYTHONPATH`` (``git archive COMMIT src | tar -x -C DIR``: an older robot_msgs), for
comparison. Every row runs under a 6 GB address-space cap and a 120 s limit.
Issue 23 asks: the bombs refused in under 2 s and 200 MB, ``/dev/zero`` in under 2 s,
SIGINT exit 130 with one line and nothing left.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

CAP_BYTES = 6 << 30


def zero_bomb(path: Path, name: str, inflated: int) -> None:
    """Add ``inflated`` zero bytes as entry ``name``, deflated as they stream."""
    piece = bytes(1 << 20)
    with (
        zipfile.ZipFile(path, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open(name, "w", force_zip64=True) as entry,
    ):
        for _ in range(inflated // len(piece)):
            entry.write(piece)


def make_inputs(folder: Path, poses: int) -> dict[str, Path]:
    """Build the evo bomb, the .npz bomb and a large TUM file in ``folder``."""
    evo = folder / "evo_bomb.zip"
    with zipfile.ZipFile(evo, "w") as archive:
        archive.writestr(
            "info.json",
            json.dumps({"title": "APE w.r.t. translation part (m)\n(not aligned)",
                        "ref_name": "gt", "est_name": "est"}),
        )  # fmt: skip
        archive.writestr(
            "stats.json",
            json.dumps(dict.fromkeys(("rmse", "mean", "median", "std", "min", "max", "sse"), 1.0)),
        )
    zero_bomb(evo, "error_array.npy", 2 << 30)
    npz = folder / "result_bomb.npz"
    subprocess.run(
        [sys.executable, "-c", ("import sys; from robot_msgs.msg.catalog import example; "
         "from robot_msgs.io.result_files import save_result; "
         "save_result(sys.argv[1], example('compare/EvaluationResult'))"), str(npz)],
        check=True,
    )  # fmt: skip
    with zipfile.ZipFile(npz) as old:
        kept = {n: old.read(n) for n in old.namelist() if n != "a0.npy"}
    with zipfile.ZipFile(npz, "w", zipfile.ZIP_DEFLATED) as new:
        for name, data in kept.items():
            new.writestr(name, data)
    zero_bomb(npz, "a0.npy", 2 << 30)
    digits = "1 0 0 0 0 0 0 1\n2 0 0 0 0 0 0 " + "9" * 60_000 + "x\n"
    for name in ("digits.txt", "digits.tum"):
        (folder / name).write_text(digits)
    big = folder / "big.tum"
    with big.open("w") as handle:
        handle.write("# t x y z qx qy qz qw\n")
        block = 100_000
        for start in range(0, poses, block):
            handle.writelines(
                f"{k * 0.01:.2f} {k * 1e-3:.6f} 0.5 0.25 0 0 0 1\n"
                for k in range(start, min(start + block, poses))
            )
    return {
        "evo": evo,
        "npz": npz,
        "big": big,
        **{n: folder / n for n in ("digits.txt", "digits.tum")},
    }


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def measure(argv: list[str], env: dict[str, str], *, timeout: float = 120.0) -> dict[str, object]:
    """Run ``argv``: wall time, peak RSS (MB), exit status, the last line of stderr."""
    timed = ["/usr/bin/time", "-f", "%M", *argv] if Path("/usr/bin/time").exists() else argv
    start = time.perf_counter()
    try:
        done = subprocess.run(
            timed, capture_output=True, text=True, timeout=timeout, preexec_fn=_cap, check=False,
            env=env,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"seconds": timeout, "peak_mb": None, "status": "timeout", "line": ""}
    seconds = time.perf_counter() - start
    lines = done.stderr.strip().splitlines()
    peak = float(lines.pop()) / 1024 if timed is not argv and lines else None
    # GNU time adds its own line on a non-zero status; it is not the command's output.
    lines = [line for line in lines if not line.startswith(("Command exited", "Command term"))]
    return {
        "seconds": round(seconds, 2),
        "peak_mb": None if peak is None else round(peak, 1),
        "status": done.returncode,
        "lines": len(lines),
        "line": lines[-1][:110] if lines else "",
        "traceback": any("Traceback" in line for line in lines),
    }


def interrupted(env: dict[str, str], big: Path, signum: int, delay: float) -> dict[str, object]:
    """Send ``signum`` to ``traj BIG --save OUT`` after ``delay`` s; what ends and is left."""
    out_dir = Path(tempfile.mkdtemp())
    process = subprocess.Popen(
        [sys.executable, "-m", "robot_msgs", "traj", str(big), "--save", str(out_dir / "out.tum")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    time.sleep(delay)
    running = process.poll() is None
    process.send_signal(signum)
    start = time.perf_counter()
    _, err = process.communicate(timeout=120)
    left = sorted(p.name for p in out_dir.iterdir())
    shutil.rmtree(out_dir)
    return {
        "signal": signal.Signals(signum).name,
        "running_when_sent": running,
        "status": process.returncode,
        "seconds_to_end": round(time.perf_counter() - start, 2),
        "lines": len(err.splitlines()),
        "line": err.strip().splitlines()[-1][:110] if err.strip() else "",
        "traceback": "Traceback" in err,
        "left": left,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--poses", type=int, default=2_000_000)
    parser.add_argument("--old-src", help="another robot_msgs source tree, to compare")
    args = parser.parse_args()
    envs = {"this": dict(os.environ)}
    if args.old_src:
        envs["old"] = {**os.environ, "PYTHONPATH": str(Path(args.old_src) / "src"),
                       "PYTHONDONTWRITEBYTECODE": "1"}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = make_inputs(folder, args.poses)
        print(f"inputs: evo bomb {files['evo'].stat().st_size / 1e6:.1f} MB on disk, "
              f".npz bomb {files['npz'].stat().st_size / 1e6:.1f} MB, "
              f"big.tum {files['big'].stat().st_size / 1e6:.0f} MB ({args.poses} poses)")  # fmt: skip
        for label, env in envs.items():
            rm = [sys.executable, "-m", "robot_msgs"]
            rows = {
                "res evo 2 GiB bomb": [*rm, "res", str(files["evo"])],
                "res .npz 2 GiB bomb": [*rm, "res", str(files["npz"])],
                "traj --format tum /dev/zero": [*rm, "traj", "--format", "tum", "/dev/zero"],
                "traj /dev/urandom": [*rm, "traj", "/dev/urandom"],
                "traj digits.txt": [*rm, "traj", str(files["digits.txt"])],
                "traj digits.tum": [*rm, "traj", str(files["digits.tum"])],
            }
            for name, argv in rows.items():
                print(json.dumps({"robot_msgs": label, "case": name, **measure(argv, env)}))
            for signum in (signal.SIGINT, signal.SIGTERM):
                result = interrupted(env, files["big"], signum, 1.0)
                print(json.dumps({"robot_msgs": label, "case": "traj --save", **result}))
    os.sync()


if __name__ == "__main__":
    main()
