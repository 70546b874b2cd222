"""Measurements the benchmarks share, made so that they cannot flatter us.

    from harness import machine_line, measure, paired

Rules (issue 24 of the tracker, from measurements that did flatter us):

- **A and B alternate pair by pair** (A B, then B A, ...), and a table reports the median of
  the pairwise ratios with their min and max: a load change on this shared machine moves
  both sides of a pair, where timing one side in a block and then the other moved one ratio
  from 0.71x to 2.55x.
- **Peak memory in a fresh process.** Linux's ``ru_maxrss`` of a forked child starts at
  its parent's high-water mark, and ``exec`` keeps it (a child of a benchmark that had
  generated 10^6-pose files reported 357 MB where the run peaks at 263 MB). Every measured
  command therefore runs under a small launcher (``python -I -S``, about 10 MB) that was
  itself started fresh; the launcher reports its child's own ``ru_maxrss``, wall time and
  CPU time (user + system, the child and everything it waited for).
- **CPU time beside wall time**, and the load average printed with every table, so a
  reader can tell a busy machine from a slow program.
- Reference tools are measured, never extrapolated: where one is slow, a single timed run
  with its wall and CPU time is shown as such.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Measured", "Paired", "bench_env", "machine_line", "measure", "paired", "spread"]

# Runs argv[2:] as a child, waits for it with wait4 and writes its own resource use as
# JSON to argv[1]. Started with -I -S, it holds ~10 MB, the floor of the child's maxrss.
_LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
wall = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump({"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
               "peak_rss_b": usage.ru_maxrss * 1024,
               "code": os.waitstatus_to_exitcode(status)}, out)
"""


@dataclass(frozen=True)
class Measured:
    """One whole-process run: wall and CPU seconds, peak resident bytes, its stdout."""

    wall_s: float
    cpu_s: float
    peak_rss_b: int
    stdout: str


def bench_env(**extra: str) -> dict[str, str]:
    """Return the environment of a user's shell: bytecode caching on, BLAS on one thread.

    Some sandboxes set ``PYTHONDONTWRITEBYTECODE``, which makes every start compile the
    package from source (~30 ms of robot-msgs' start-up, not of a site-packages tool's).

    ``robot-msgs`` runs BLAS on one thread unless told otherwise (``cli/__init__.py``):
    OpenBLAS's idle threads spin, and ``python -c "import numpy"`` alone took 0.17-0.26 s
    of CPU against 0.08-0.11 s on one thread. Every process measured (the reference
    tools and the floors too) gets the same setting, so no ratio counts that spinning
    against the others.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
        env.setdefault(name, "1")
    env.setdefault("MPLBACKEND", "Agg")
    env.update(extra)
    return env


def measure(argv: list[str], env: dict[str, str] | None = None) -> Measured:
    """Run ``argv`` once under the fresh launcher; raise if it fails."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "usage.json"
        out = Path(tmp) / "stdout"
        with out.open("wb") as sink:
            subprocess.run(
                [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report), *argv],
                stdout=sink,
                stderr=subprocess.PIPE,
                env=env,
                check=True,
            )
        usage = json.loads(report.read_text())
        if usage["code"]:
            msg = f"{argv} exited {usage['code']}"
            raise RuntimeError(msg)
        return Measured(
            wall_s=usage["wall_s"],
            cpu_s=usage["cpu_s"],
            peak_rss_b=usage["peak_rss_b"],
            stdout=out.read_text(errors="replace"),
        )


@dataclass(frozen=True)
class Paired:
    """``pairs`` alternating runs of A and B, and the ratios B/A of each pair."""

    a: list[Measured]
    b: list[Measured]

    def ratios(self, what: str = "wall_s") -> list[float]:
        """Return B/A of each pair for ``what`` (``"wall_s"`` or ``"cpu_s"``)."""
        return [getattr(b, what) / getattr(a, what) for a, b in zip(self.a, self.b, strict=True)]


def paired(
    a: list[str], b: list[str], pairs: int, env: dict[str, str] | None = None, *, warm: bool = True
) -> Paired:
    """Run A and B alternately, ``pairs`` times each (A B, B A, A B...), after a warm-up."""
    if warm:  # page cache, .pyc files, a reference tool's settings file
        measure(a, env)
        measure(b, env)
    runs_a: list[Measured] = []
    runs_b: list[Measured] = []
    for k in range(pairs):
        if k % 2 == 0:
            runs_a.append(measure(a, env))
            runs_b.append(measure(b, env))
        else:
            runs_b.append(measure(b, env))
            runs_a.append(measure(a, env))
    return Paired(runs_a, runs_b)


def spread(values: list[float], fmt: str = "{:.3f}") -> str:
    """Return ``median (min-max)`` of ``values``."""
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{fmt.format(mid)} ({fmt.format(low)}-{fmt.format(high)})"


def machine_line() -> str:
    """Return cores, load averages and versions: print it with every table."""
    import numpy as np

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} cores, load average {load}; Python {platform.python_version()}, "
        f"NumPy {np.__version__}"
    )
