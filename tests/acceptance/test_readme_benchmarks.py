"""Every benchmark script starts: it imports and answers ``--help`` (the README's first).

The README quotes figures measured by ``benchmarks/*.py``; a script that no longer
imports (a name moved out of a package face) leaves those figures without a way to
measure them again. ``--help`` runs the script's imports and builds its parser, and
times nothing. ``bench_report.py``, which the README does not name, had not imported
for many stops (its names had moved to :mod:`robot_msgs.runs`).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
NAMED = sorted(
    set(re.findall(r"benchmarks/bench_\w+\.py", (ROOT / "README.md").read_text("utf-8")))
)

EVERY = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "benchmarks").glob("bench_*.py"))


def test_the_readme_names_benchmark_scripts() -> None:
    assert "benchmarks/bench_extensions.py" in NAMED
    assert len(NAMED) >= 5


@pytest.mark.parametrize("script", sorted({*NAMED, *EVERY}))
def test_every_benchmark_answers_help(script: str) -> None:
    assert (ROOT / script).is_file(), f"the README names {script}, which does not exist"
    done = subprocess.run(  # noqa: S603 - our own interpreter and a script of ours
        [sys.executable, str(ROOT / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage: ")
