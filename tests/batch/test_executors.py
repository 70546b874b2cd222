"""The executor protocol's in-process member and the shared argument checks."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

from robot_msgs.batch.executors import ChunkDone, SerialExecutor, check_count
from robot_msgs.batch.inputs import settings_identity
from robot_msgs.batch.plan import ChunkPlan, SweepState
from robot_msgs.batch.worker import ChunkResult, Job
from robot_msgs.errors import ValidationError
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import ape_rms, calls, drive, make_tree, position_error, stored

if TYPE_CHECKING:
    from pathlib import Path


def test_serial_executor_runs_the_feeds_chunks_in_this_process_in_order(tmp_path: Path) -> None:
    offsets = make_tree(tmp_path / "runs", trials=2)
    manifest = load_runs([tmp_path / "runs"])
    n = len(manifest.runs)
    state = SweepState(n)
    job = Job(
        settings=manifest.settings,
        shared=settings_identity(manifest.settings.to_dict(), position_error),
        out=str(tmp_path / "out"),
        session="s",
    )
    plan = ChunkPlan(manifest.runs, range(n), state, retries=0, slots=1, target_s=1e-9)
    outcomes = []
    with SerialExecutor() as ex:
        for outcome in ex.run(position_error, job, plan):
            plan.take(outcome)
            outcomes.append(outcome)
    assert all(isinstance(o, ChunkDone) for o in outcomes)
    # A target below any run's cost: every chunk holds one run, in the manifest's order.
    positions = [
        s.position
        for o in outcomes
        if isinstance(o, ChunkDone) and isinstance(o.result, ChunkResult)
        for s in o.result.summaries
    ]
    assert positions == list(range(n))
    assert plan.finished
    workers = {o.result.worker.rsplit(":", 1)[1] for o in outcomes if isinstance(o, ChunkDone)}
    assert workers == {str(os.getpid())}
    results = stored(manifest, tmp_path / "out", position_error)
    assert {k: pytest.approx(ape_rms(r), abs=1e-9) for k, r in results.items()} == offsets


def test_a_serial_sweep_evaluates_each_run_once_in_chunks_sized_by_measurement(
    tmp_path: Path,
) -> None:
    from tests.batch.batch_helpers import scripted

    make_tree(tmp_path / "runs", trials=10)  # 40 runs
    manifest = load_runs([tmp_path / "runs"])
    state, plan = drive(SerialExecutor(), scripted, manifest, tmp_path / "out", chunk_s=60.0)
    assert state.counts()["ok"] == 40
    assert set(calls(tmp_path / "runs").values()) == {1}
    # One run measured first, then a chunk of at most half of what is left (one slot).
    assert plan.chunks < 10


def test_counts_are_checked_naming_the_setting() -> None:
    assert check_count("workers", 3) == 3
    with pytest.raises(ValidationError, match=r"Expected `workers` >= 1, got 0"):
        check_count("workers", 0)
    with pytest.raises(ValidationError, match=r"Expected `retries` >= 0, got -1"):
        check_count("retries", -1, least=0)
    with pytest.raises(ValidationError, match=r"Expected `workers` >= 1, got True"):
        check_count("workers", True)
