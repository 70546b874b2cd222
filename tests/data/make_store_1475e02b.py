"""Write a bench store as commit 1475e02b wrote it, with ``--statistic max``: a fixture.

That commit is the last before the ranking rules (``--statistic``, ``--rank-failures``)
left each run's key (c589dc5); its records are keyed by the settings whole. Run from the
repository root with that commit's sources first on the path::

    git worktree add /tmp/rm-1475e02b 1475e02b
    PYTHONPATH=/tmp/rm-1475e02b/src python tests/data/make_store_1475e02b.py \\
        tests/data/store_1475e02b

It writes ``runs/`` (a reference and five estimates, z offsets 0.05 .. 0.10 m, one cut
to 10 poses), ``out/runs/`` (the five records of ``bench``; its other outputs are left
out: a ``--resume`` writes them anew) and ``commands.txt``. ``tests/cli/test_bench.py``
resumes it with today's code.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ARGS = ["bench", "runs", "--serial", "--quiet", "--align", "none", "--statistic", "max"]


def main(out: Path) -> None:
    """Write the runs and the store under ``out``."""
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = out / "runs"
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    for algorithm, trial, offset, n in [
        ("a", 1, 0.05, 30), ("a", 2, 0.10, 30), ("a", 3, 0.05, 10),
        ("b", 1, 0.08, 30), ("b", 2, 0.09, 30),
    ]:  # fmt: skip
        run = root / algorithm / "MH_01" / str(trial)
        run.mkdir(parents=True)
        np.savetxt(run / "estimate.tum", (rows + np.array([0, 0, 0, offset, 0, 0, 0, 0]))[:n])
    argv = [*ARGS, "--out", "out"]
    subprocess.run([sys.executable, "-m", "robot_msgs", *argv], cwd=out, check=True)  # noqa: S603
    for path in (out / "out").iterdir():
        if path.name != "runs":
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    (out / "commands.txt").write_text(f"robot-msgs {' '.join(argv)}\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
