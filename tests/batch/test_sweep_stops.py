"""When a sweep stops early: a full disk stops it at once, a silent executor at its timeout.

Each test checks what the user is told (``stopped``, every run not stored named), that
nothing is evaluated that cannot be kept (an independent count: the ``.calls`` files the
per-run function appends to), and that ``--resume`` then gives the tables of a clean
sweep, byte for byte. A full disk is a small tmpfs where one can be mounted (root), and
a simulated ``ENOSPC`` from the record writer where not (the two tests check the same).
Also here: the derived files written in blocks by the workers are the bytes of one
block written by the client.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import shutil
import subprocess
import time
from typing import TYPE_CHECKING, Any

import pytest

from robot_msgs import files
from robot_msgs.batch import outputs, store
from robot_msgs.batch.lock import LOCK_NAME
from robot_msgs.batch.outputs import DERIVED_FILES
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import calls, make_tree, scripted, small_disk

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.batch.summary import SweepSummary

pytest.importorskip("pyarrow")

TABLES = ("results.parquet", "reports.json", "aggregates.json", "ranking.json")


def _tree(root: Path) -> int:
    """40 runs, their files an hour old (a stamp seconds old is re-hashed on resume: racy)."""
    n = len(make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01", "MH_02"), trials=10))
    hour_ago = time.time() - 3600
    for path in root.rglob("*.tum"):
        os.utime(path, (hour_ago, hour_ago))
    return n


def _sweep(root: Path, out: Path, **kwargs: Any) -> SweepSummary:
    kwargs.setdefault("executor", "serial")
    kwargs.setdefault("progress", None)
    return run_sweep(load_runs([root]), out, fn=scripted, **kwargs)


@pytest.fixture
def clean(tmp_path: Path) -> tuple[Path, Path, int]:
    """40 runs and a clean serial sweep of them."""
    root = tmp_path / "runs"
    n = _tree(root)
    _sweep(root, tmp_path / "clean")
    for log in root.rglob("*.calls"):
        log.unlink()  # count the evaluations of the sweep under test only
    return root, tmp_path / "clean", n


def _assert_stopped_on_storage(summary: SweepSummary, out: Path, n: int) -> int:
    """Check a sweep stopped by a full disk; return how many records it stored."""
    stored = ResultStore(out).count()
    assert 0 < stored < n
    assert summary.storage_error
    assert summary.stopped.startswith("a run's record could not be stored: ")
    assert "no space left on the device" in summary.stopped
    assert (summary.n_ok, summary.n_not_evaluated) == (stored, n - stored)
    assert len(summary.infrastructure) == n - stored  # every run not stored, named
    kinds = {error.split(":")[0] for error in summary.infrastructure.values()}
    assert kinds <= {"RecordNotStored", "NotRun"}
    assert not any((out / name).exists() for name in DERIVED_FILES)
    assert summary.table == ""
    return stored


def _assert_resumes_to_the_clean_tables(root: Path, out: Path, clean: Path, n: int) -> None:
    summary = _sweep(root, out, resume=True)
    assert summary.complete
    assert summary.n_ok == n
    for name in TABLES:
        assert (out / name).read_bytes() == (clean / name).read_bytes(), name


def test_a_full_disk_stops_the_sweep_at_once_and_names_every_run_not_stored(
    tmp_path: Path, clean: tuple[Path, Path, int]
) -> None:
    root, reference, n = clean
    out = tmp_path / "disk"
    with small_disk(out, "64k"):  # room for about 15 of the 40 records
        progress = io.StringIO()
        summary = _sweep(root, out, executor="local", workers=2, progress=progress)
        stored = _assert_stopped_on_storage(summary, out, n)
        # Nothing evaluated that could not be kept: each of the 2 workers' chunks stops at
        # its first record not stored.
        evaluated = sum(calls(root).values())
        assert stored <= evaluated <= stored + 2
        assert f"{n - stored} not evaluated" in progress.getvalue()
        assert not (out / LOCK_NAME).exists()  # released: deleted with the lock
        done = subprocess.run(  # noqa: S603 - the system's mount
            [shutil.which("mount") or "mount", "-o", "remount,size=4m", str(out)],
            capture_output=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        _assert_resumes_to_the_clean_tables(root, out, reference, n)
        assert sum(calls(root).values()) == evaluated + n - stored


def test_a_simulated_write_error_stops_the_sweep_the_same_way(
    tmp_path: Path, clean: tuple[Path, Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, reference, n = clean
    out = tmp_path / "out"
    written: list[object] = []

    def fills_up(path: Any, data: Any, *, force: bool = False) -> Any:
        if len(written) == 12:
            msg = f"{path}: cannot write it: no space left on the device"
            raise OSError(errno.ENOSPC, msg)
        written.append(path)
        return real(path, data, force=force)

    real = files.write_atomic
    monkeypatch.setattr(store, "write_atomic", fills_up)
    summary = _sweep(root, out)
    monkeypatch.undo()
    assert _assert_stopped_on_storage(summary, out, n) == 12
    assert sum(calls(root).values()) == 13  # the 13th evaluated, not stored: nothing after
    record = json.loads((out / "summary.json").read_text())  # written: only records failed
    assert (record["storage_error"], record["n_lost"], record["complete"]) == (True, n - 12, False)
    assert len(record["infrastructure"]) == n - 12
    _assert_resumes_to_the_clean_tables(root, out, reference, n)


def test_outputs_that_cannot_be_written_stop_the_sweep_as_a_storage_error(
    tmp_path: Path, clean: tuple[Path, Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, reference, n = clean

    def full(path: Any, **_: Any) -> Any:
        raise OSError(errno.ENOSPC, f"{path}: cannot write it: no space left on the device")

    monkeypatch.setattr(outputs, "open_atomic", full)
    out = tmp_path / "out"
    summary = _sweep(root, out)
    monkeypatch.undo()
    assert summary.storage_error
    assert summary.stopped.startswith("the outputs could not be written: ")
    assert summary.n_ok == n  # every run stored: --resume writes the outputs only
    assert not any((out / name).exists() for name in DERIVED_FILES)
    assert not list(out.glob(".parts-*"))
    _assert_resumes_to_the_clean_tables(root, out, reference, n)
    assert sum(calls(root).values()) == n  # the resume evaluated nothing


def test_workers_that_return_nothing_stop_the_sweep_at_the_stall_timeout(
    tmp_path: Path, clean: tuple[Path, Path, int]
) -> None:
    root, reference, n = clean
    runs = load_runs([root]).runs
    hangs = [runs[k].estimate + ".hang" for k in (0, 1)]
    for marker in hangs:
        open(marker, "w").close()  # noqa: PTH123 - a marker file
    progress = io.StringIO()
    out = tmp_path / "out"
    summary = _sweep(root, out, executor="local", workers=2, stall_timeout_s=3.0, progress=progress)
    # Stopped at the first second's check at or after the timeout (a later one under load).
    assert re.fullmatch(
        r"no result for [3-9] s from 2 worker threads \(--stall-timeout 3\)",
        summary.stopped,
    ), summary.stopped
    assert not summary.storage_error
    assert (summary.n_ok, summary.n_lost) == (0, n)
    assert all(
        error == f"NotRun: not evaluated: the sweep stopped: {summary.stopped}"
        for error in summary.infrastructure.values()
    )
    # Said in the log when it stops (the notice comes after 30 s, later than this timeout).
    assert f"bench: {summary.stopped}\n" in progress.getvalue()
    assert (out / "results.parquet").exists()  # the outputs say what was not evaluated
    for marker in hangs:
        os.remove(marker)  # noqa: PTH107
    _assert_resumes_to_the_clean_tables(root, out, reference, n)


def test_outputs_written_in_blocks_by_the_workers_are_the_bytes_of_one_block(
    tmp_path: Path, clean: tuple[Path, Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, reference, n = clean
    monkeypatch.setattr(outputs, "BLOCK_RUNS", 3)  # 14 blocks of the 40 runs
    out = tmp_path / "out"
    summary = _sweep(root, out, executor="local", workers=2)
    assert summary.complete
    record = json.loads((out / "summary.json").read_text())
    assert record["output_blocks"]["workers"] + record["output_blocks"]["client"] == 14
    assert record["output_blocks"]["workers"] > 0
    for name in TABLES:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name
    assert not list(out.glob(".parts-*"))
    again = _sweep(root, out, resume=True)  # the blocks' key: the records' key, run by run
    assert again.n_reused == n
    assert json.loads((out / "summary.json").read_text())["outputs_s"] == 0.0  # kept


def test_a_killed_sweeps_parts_are_removed_on_resume(
    tmp_path: Path, clean: tuple[Path, Path, int]
) -> None:
    root, _, _ = clean
    out = tmp_path / "out"
    _sweep(root, out)
    left = out / ".parts-0123"
    left.mkdir()
    (left / "00000000.arrow").write_bytes(b"half")
    _sweep(root, out, resume=True)
    assert not left.exists()
    shutil.rmtree(out)
