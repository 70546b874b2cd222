"""Runs computed while the rest are read: the same results as a manifest read first."""

from __future__ import annotations

import io
import json
import re
import time
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch.intake import RunIntake
from robot_msgs.batch.plan import SweepState
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.errors import FormatError
from robot_msgs.runs import folders
from robot_msgs.runs.folders import list_folder
from robot_msgs.runs.manifest import RunReader, load_runs
from tests.batch.batch_helpers import calls, make_tree, scripted

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.runs.folders import Listing

pytest.importorskip("pyarrow")

TABLES = ("results.parquet", "reports.json", "aggregates.json", "ranking.json")


class _Timed(io.StringIO):
    """A progress stream that keeps when each line was written."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[tuple[float, str]] = []

    def write(self, text: str) -> int:
        self.lines += [(time.monotonic(), line) for line in text.splitlines() if line]
        return super().write(text)


def test_the_first_runs_are_computed_while_the_rest_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01", "MH_02"), trials=6)
    run_sweep(
        load_runs([root]), tmp_path / "read-first", fn=scripted, executor="serial", progress=None
    )
    for log in root.rglob("*.calls"):
        log.unlink()

    def slow(folder: Path) -> Listing:  # a slow file system: 30 ms a folder
        time.sleep(0.03)
        return list_folder(folder)

    monkeypatch.setattr(folders, "list_folder", slow)
    progress = _Timed()
    out = tmp_path / "out"
    summary = run_sweep(RunReader([root]), out, fn=scripted, executor="serial", progress=progress)
    assert summary.complete
    assert summary.n_runs == 24
    said = [line for _, line in progress.lines]
    [start] = [line for line in said if "the first are computed while the rest are read" in line]
    assert int(start.split()[1]) < 24  # handed out before the 24 were read
    [(read_at, _)] = [
        (t, line) for t, line in progress.lines if line.startswith("bench: read 24 runs")
    ]
    first = min(log.stat().st_mtime for log in root.rglob("*.calls"))  # the first evaluation
    assert first < time.time() - (time.monotonic() - read_at)  # ... before the reading ended
    assert re.match(r"bench 0/\d+\+ runs", said[said.index(start) + 2])  # more to come
    for name in TABLES:
        assert (out / name).read_bytes() == (tmp_path / "read-first" / name).read_bytes(), name
    assert sum(calls(root).values()) == 24


def test_a_run_read_twice_stops_the_sweep_there_and_keeps_what_was_stored(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=3)
    manifest = tmp_path / "bench.json"
    entries = [{"path": str(root / "orb" / "MH_01" / str(t))} for t in (1, 2, 3)] + [
        {"path": str(root / "orb" / "MH_01" / "1")}
    ]  # the first again: the same name
    manifest.write_text(json.dumps({"runs": entries}))
    out = tmp_path / "out"
    with pytest.raises(FormatError, match=r"two runs are named .*give each a distinct `name`"):
        run_sweep(RunReader([manifest]), out, fn=scripted, executor="serial", progress=None)
    assert ResultStore(out).count() <= 3  # what was evaluated before: stored, for --resume
    assert not (out / ".bench.lock").exists()  # released: deleted with the lock


def test_an_intake_of_a_manifest_read_already_is_done_at_once(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=2)
    manifest = load_runs([tmp_path / "runs"])
    state = SweepState(0)
    intake = RunIntake(manifest, state, None, say=print)
    assert intake.wait(until_work=True) == [0, 1]
    assert intake.poll() == ([], False)
    assert (intake.done, state.n, intake.manifest()) == (True, 2, manifest)
    intake.close()
