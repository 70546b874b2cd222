"""Peak memory and time of writing a big bag, and what a killed write leaves behind.

    python benchmarks/bench_bag_write.py [--mb 320] [--message-kb 1024] [--kill]

Each measurement runs in a fresh Python process: it imports robot_msgs and takes
``ru_maxrss`` as its baseline, writes two messages (the rest of the imports, the caches),
then writes
``--mb`` megabytes of ``sensor_msgs/PointCloud2`` messages (``--message-kb`` each, new
float32 points per message from a generator, as a driver's callback would hand them
over) with :func:`robot_msgs.io.write_messages`, and reports the growth of its peak
resident memory over the baseline (and over the peak after the two-message warm-up),
the time and the file's size. Rows: MCAP without and
with zstd chunks, sqlite3 ``.db3``.

``--kill``: a writer of the same stream is killed with SIGKILL halfway through; the
script reports whether anything is left at the target, in ``$TMPDIR`` (a private one)
and beside the target, and whether the next write to the target sweeps the leftover.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, resource, sys, time
import numpy as np
from robot_msgs.io import write_messages
from robot_msgs.sensor import PointCloud2, PointField
from robot_msgs.std import Header, Time

target, total_mb, message_kb, compression = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
points = message_kb * 1024 // 16
fields = tuple(PointField(name=f, offset=4 * i, datatype=7, count=1) for i, f in enumerate("xyzi"))
base = np.random.default_rng(0).normal(size=(points, 4)).astype(np.float32)

def clouds(n):
    for i in range(n):
        xyz = base + np.float32(i * 0.01)  # new points each message
        yield PointCloud2(
            header=Header(stamp=Time(sec=1 + i // 10, nanosec=(i % 10) * 100_000_000), frame_id="lidar"),
            height=1, width=points, fields=fields, point_step=16, row_step=16 * points,
            data=np.frombuffer(xyz.tobytes(), dtype=np.uint8), is_dense=True,
        )
        if i == n // 2:
            print("half", flush=True)

from pathlib import Path
imported = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
warm = Path(target).with_name("warm" + Path(target).suffix)
write_messages(warm, "/cloud", clouds(2), force=True)
warm.unlink()
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
n = total_mb * 1024 // message_kb
kwargs = {} if compression == "default" else {"compression": compression}
write_messages(target, "/cloud", clouds(n), **kwargs)
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"messages": n, "baseline_mb": imported / 1024, "peak_above_baseline_mb": (peak - imported) / 1024, "peak_above_warm_mb": (peak - baseline) / 1024, "seconds": elapsed}))
"""


def _run(target: Path, mb: int, kb: int, compression: str, env: dict[str, str]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(target), str(mb), str(kb), compression],
        env=env,
        check=False,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(done.stderr)
    out = done.stdout.splitlines()
    result: dict[str, float] = json.loads(out[-1])
    result["file_mb"] = target.stat().st_size / 1e6
    return result


def _kill(folder: Path, mb: int, kb: int, env: dict[str, str]) -> None:
    target = folder / "killed.mcap"
    with subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(target), str(mb), str(kb), "none"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        assert child.stdout is not None
        halves = 0
        while halves < 2:  # the warm-up's half, then the big write's
            halves += child.stdout.readline().strip() == "half"
        child.send_signal(signal.SIGKILL)
        child.wait()
    beside = sorted(p.name for p in folder.iterdir() if "killed" in p.name)
    scratch = sorted(p.name for p in Path(env["TMPDIR"]).iterdir())
    print(f"killed at half: target exists: {target.exists()}; in TMPDIR: {scratch}; "
          f"beside the target: {beside}")  # fmt: skip
    _run(target, 1, kb, "none", env)
    after = sorted(p.name for p in folder.iterdir() if "killed" in p.name)
    print(f"after the next write to the target: {after}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=320)
    parser.add_argument("--message-kb", type=int, default=1024)
    parser.add_argument("--kill", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder, scratch = Path(tmp) / "out", Path(tmp) / "tmpdir"
        folder.mkdir()
        scratch.mkdir()
        env = {**os.environ, "TMPDIR": str(scratch)}
        print(f"writing {args.mb} MB of {args.message_kb} kB PointCloud2 messages")
        print(f"{'file':<26} {'messages':>8} {'file MB':>8} {'peak MB above: baseline':>24} "
              f"{'warm-up':>8} {'s':>6}")  # fmt: skip
        for name, compression in (("cloud.mcap", "none"), ("cloud_zstd.mcap", "default"),
                                  ("cloud.db3", "default")):  # fmt: skip
            r = _run(folder / name, args.mb, args.message_kb, compression, env)
            print(f"{name + ' (' + compression + ')':<26} {int(r['messages']):>8} "
                  f"{r['file_mb']:>8.0f} {r['peak_above_baseline_mb']:>24.1f} "
                  f"{r['peak_above_warm_mb']:>8.1f} {r['seconds']:>6.1f}")  # fmt: skip
            (folder / name).unlink()
            print(f"  TMPDIR after: {sorted(p.name for p in scratch.iterdir())}")
        if args.kill:
            _kill(folder, args.mb, args.message_kb, env)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
