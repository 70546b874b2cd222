"""The shipped per-run function: real readers and metrics, through a sweep."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.batch.results_table import read_results
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.batch.tasks import file_sha256, make_tasks, run_task
from robot_msgs.batch.worker import evaluate_task
from robot_msgs.io import example_path
from robot_msgs.runs import load_runs
from tests.batch.batch_helpers import write_tum

if TYPE_CHECKING:
    from pathlib import Path

    from robot_msgs.batch.sweep import SweepSummary

pytest.importorskip("pyarrow")

APE = "ape:translation"
RPE = "rpe:translation:1s:all"

SEED_MANIFEST = """
[settings]
align = "none"

[[settings.evaluate]]
metric = "ape"
relation = "translation"

[[settings.evaluate]]
metric = "rpe"
relation = "translation"
delta = 1
delta_unit = "s"
all_pairs = true

[references]
line = "reference.tum"

[[runs]]
algorithm = "offset"
sequence = "line"
trial = 1
estimate = "offset.tum"

[[runs]]
algorithm = "drift"
sequence = "line"
trial = 1
estimate = "drift.tum"
"""


def _seed_runs(folder: Path, extra: str = "") -> Path:
    """The SLAM guide's synthetic runs: x = t m, t = 0..10 s every 0.1 s, identity rotations."""
    t = np.round(np.arange(101) * 0.1, 10)
    line = np.column_stack([t, np.zeros_like(t), np.zeros_like(t)])
    write_tum(folder / "reference.tum", t, line)
    write_tum(folder / "offset.tum", t, line + np.array([0.1, 0.0, 0.0]))
    write_tum(folder / "drift.tum", t, line + np.column_stack([0.01 * t, 0 * t, 0 * t]))
    path = folder / "bench.toml"
    path.write_text(SEED_MANIFEST + extra)
    return path


def _run(path: Path, out: Path, **kwargs: Any) -> SweepSummary:
    kwargs.setdefault("executor", "serial")
    return run_sweep(load_runs([path]), out, fn=evaluate_task, progress=None, **kwargs)


def _rows(summary: SweepSummary) -> dict[str, dict[str, Any]]:
    """The APE row of each run, by algorithm."""
    return {r["algorithm"]: r for r in read_results(summary.table) if r["evaluation"] == APE}


def test_sweep_in_worker_processes_reproduces_the_slam_guide_table(tmp_path: Path) -> None:
    summary = _run(_seed_runs(tmp_path), tmp_path / "out", executor="local", workers=2)
    assert (summary.n_ok, summary.n_succeeded) == (2, 2)
    rms = {(r["algorithm"], r["evaluation"]): r["rms"] for r in read_results(summary.table)}
    # ../shared/seeds/slam-evaluation-guide-en.md: unaligned APE RMSE and 1 s all-pairs RPE RMSE.
    assert rms[("offset", APE)] == pytest.approx(0.100000, abs=5e-7)
    assert rms[("offset", RPE)] == pytest.approx(0.000000, abs=5e-7)
    assert rms[("drift", APE)] == pytest.approx(0.057879, abs=5e-7)
    assert rms[("drift", RPE)] == pytest.approx(0.010000, abs=5e-7)


def test_unreadable_inputs_are_recorded_evaluation_failures_naming_the_file(
    tmp_path: Path,
) -> None:
    extra = (
        '\n[[runs]]\nalgorithm = "noref"\nsequence = "line"\ntrial = 1\n'
        'estimate = "offset.tum"\nreference = "absent.tum"\n'
    )
    path = _seed_runs(tmp_path, extra)
    (tmp_path / "drift.tum").write_text("0.0 1 2 3 0 0 0 1\n0.1 1 2 oops 0 0 0 1\n")
    summary = _run(path, tmp_path / "out")
    assert (summary.n_ok, summary.n_failed, summary.complete) == (1, 2, False)
    rows = _rows(summary)
    assert rows["offset"]["status"] == "ok"
    drift = rows["drift"]
    assert (drift["status"], drift["success"], drift["error_type"]) == (
        "failed",
        None,
        "FormatError",
    )
    assert "drift.tum" in drift["error"]
    assert "oops" in drift["error"]
    noref = rows["noref"]
    assert (noref["status"], noref["error_type"]) == ("failed", "FormatError")
    assert noref["error"].endswith("absent.tum: the reference of run noref/line/1 does not exist")
    assert set(summary.errors) == {"drift/line/1", "noref/line/1"}


def test_a_missing_estimate_is_a_failed_run_not_an_evaluation_error(tmp_path: Path) -> None:
    extra = (
        '\n[[runs]]\nalgorithm = "silent"\nsequence = "line"\ntrial = 1\nestimate = "none.tum"\n'
    )
    summary = _run(_seed_runs(tmp_path, extra), tmp_path / "out")
    silent = _rows(summary)["silent"]
    assert (silent["status"], silent["success"], silent["failure"]) == ("ok", False, "no estimate")
    assert silent["rms"] is None
    assert (summary.complete, summary.run_failures) == (True, {"no estimate": 1})


def test_a_run_that_reported_failing_is_evaluated_and_keeps_its_numbers(tmp_path: Path) -> None:
    # A planar curve (SE(3) needs non-collinear positions), and the run's estimate moved
    # by a constant offset: SE(3) alignment (the runs' default) removes it, APE 0 by hand.
    t = np.round(np.arange(101) * 0.1, 10)
    curve = np.column_stack([t, np.sin(t), 0 * t])
    write_tum(tmp_path / "line" / "reference.tum", t, curve)
    run = tmp_path / "offset" / "line" / "2"
    write_tum(run / "estimate.tum", t, curve + np.array([0.1, 0.2, 0.0]))
    (run / "meta.json").write_text(json.dumps({"exit_code": 3, "version": "1.2"}))
    [task] = make_tasks(load_runs([tmp_path]), evaluate_task)
    result = run_task(evaluate_task, task)
    assert (result.status, result.error) == ("ok", "")
    report = result.run_report()
    assert (report.success, report.failure, report.version) == (False, "exit code 3", "1.2")
    ape = report.comparisons[APE]
    assert ape.stats["translation"].rms == pytest.approx(0.0, abs=1e-9)
    assert (ape.settings["align"], ape.counts["matched"]) == ("se3", 101)


def test_a_run_without_a_reference_succeeds_without_accuracy(tmp_path: Path) -> None:
    extra = '\n[[runs]]\nalgorithm = "free"\nsequence = "hall"\ntrial = 1\nestimate = "drift.tum"\n'
    summary = _run(_seed_runs(tmp_path, extra), tmp_path / "out")
    free = _rows(summary)["free"]
    assert (free["status"], free["success"], free["signal"], free["rms"]) == ("ok", True, "", None)
    [entry] = [
        e for e in json.loads((tmp_path / "out" / "reports.json").read_text())
        if e["run"] == "free/hall/1"
    ]  # fmt: skip
    assert entry["report"]["comparisons"] == {}
    assert "no reference: accuracy not evaluated (see repeatability)" in entry["report"]["notes"]


def test_shipped_examples_are_evaluated_and_hashed_by_their_bytes(tmp_path: Path) -> None:
    path = tmp_path / "bench.toml"
    path.write_text(
        '[settings]\nalign = "se3"\n[[runs]]\nalgorithm = "rgbdslam"\nsequence = "fr1_xyz"\n'
        'trial = 1\nestimate = "example:fr1_xyz/rgbdslam.tum"\n'
        'reference = "example:fr1_xyz/groundtruth.tum"\n'
    )
    summary = _run(path, tmp_path / "out")
    [row] = _rows(summary).values()
    assert (row["status"], row["success"]) == ("ok", True)
    assert row["n"] == 785  # matched poses, as in the worker's doctest
    [task] = make_tasks(load_runs([path]), evaluate_task)
    assert file_sha256("example:fr1_xyz/rgbdslam.tum") == file_sha256(
        example_path("fr1_xyz/rgbdslam.tum")
    )
    assert task.digest == row["digest"]
