"""kill -9 during ``robot-msgs traj FILE --save OUT --force``: nothing half-written, nothing left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import robot_msgs

SRC = str(Path(robot_msgs.__file__).resolve().parents[1])
ROWS = 300_000  # about 25 MB of TUM text: the write takes tens of milliseconds


def _command(source: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "robot_msgs.cli",
        "traj",
        str(source),
        "--save",
        str(out),
        "--force",
    ]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _temporaries(folder: Path, name: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


@pytest.mark.slow
def test_a_save_killed_mid_write_is_finished_whole_by_the_next_run(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    q = rng.normal(size=(ROWS, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    rows = np.column_stack([1.3e9 + 0.01 * np.arange(ROWS), rng.normal(size=(ROWS, 3)), q])
    source = tmp_path / "in" / "big.tum"
    source.parent.mkdir()
    np.savetxt(source, rows, fmt="%.9f", header="timestamp tx ty tz qx qy qz qw")
    folder = tmp_path / "out"
    folder.mkdir()
    reference = tmp_path / "reference.tum"
    done = subprocess.run(_command(source, reference), env=_env(), capture_output=True, check=False)  # noqa: S603  (our own interpreter and module)
    assert done.returncode == 0, done.stderr
    out = folder / "out.tum"

    killed = False
    for _ in range(20):  # until a kill lands while the temporary file is being written
        out.write_text("old\n")
        proc = subprocess.Popen(  # noqa: S603  (our own interpreter and module)
            _command(source, out), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if _temporaries(folder, "out.tum"):
                os.kill(proc.pid, signal.SIGKILL)
                killed = proc.wait() == -signal.SIGKILL
                break
        proc.wait()
        if killed:
            break
    assert killed, "no kill landed during the write in 20 tries"
    # The kill left the hidden temporary file; the target is the old file, whole.
    assert _temporaries(folder, "out.tum") == [".out.tum.0.tmp"]
    assert out.read_text() == "old\n"

    again = subprocess.run(_command(source, out), env=_env(), capture_output=True, check=False)  # noqa: S603  (our own interpreter and module)
    assert again.returncode == 0, again.stderr
    assert _temporaries(folder, "out.tum") == []
    assert sorted(p.name for p in folder.iterdir()) == ["out.tum"]
    assert out.read_bytes() == reference.read_bytes()
