"""The shipped per-run function: real readers and metrics, through a sweep."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

from robot_msgs.batch.evaluate import evaluate_run
from robot_msgs.batch.manifest import load_manifest
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.batch.table import read_table
from tests.batch.batch_helpers import write_tum

if TYPE_CHECKING:
    from pathlib import Path

pytest.importorskip("pyarrow")

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


def _seed_runs(folder: Path) -> Path:
    """The SLAM guide's synthetic runs: x = t m, t = 0..10 s every 0.1 s, identity rotations."""
    t = np.round(np.arange(101) * 0.1, 10)
    line = np.column_stack([t, np.zeros_like(t), np.zeros_like(t)])
    write_tum(folder / "reference.tum", t, line)
    write_tum(folder / "offset.tum", t, line + np.array([0.1, 0.0, 0.0]))
    write_tum(folder / "drift.tum", t, line + np.column_stack([0.01 * t, 0 * t, 0 * t]))
    path = folder / "bench.toml"
    path.write_text(SEED_MANIFEST)
    return path


def test_sweep_reproduces_the_slam_guide_table(tmp_path):
    manifest = load_manifest(_seed_runs(tmp_path))
    summary = run_sweep(
        manifest, tmp_path / "out", fn=evaluate_run, executor="serial", progress=None
    )
    assert summary.n_ok == 2
    rms = {(r["algorithm"], r["metric"]): r["rms"] for r in read_table(summary.table)}
    # ../shared/seeds/slam-evaluation-guide-en.md: unaligned APE RMSE and 1 s all-pairs RPE RMSE.
    assert rms[("offset", "ape")] == pytest.approx(0.100000, abs=5e-7)
    assert rms[("offset", "rpe")] == pytest.approx(0.000000, abs=5e-7)
    assert rms[("drift", "ape")] == pytest.approx(0.057879, abs=5e-7)
    assert rms[("drift", "rpe")] == pytest.approx(0.010000, abs=5e-7)


def test_read_and_evaluation_errors_become_recorded_failures(tmp_path):
    path = _seed_runs(tmp_path)
    (tmp_path / "drift.tum").write_text("0.0 1 2 3 0 0 0 1\n0.1 1 2 oops 0 0 0 1\n")
    text = path.read_text().replace('[references]\nline = "reference.tum"\n', "")
    text = text.replace(
        'estimate = "offset.tum"', 'estimate = "offset.tum"\nreference = "reference.tum"'
    )
    path.write_text(
        text
        + '\n[[runs]]\nalgorithm = "lost"\nsequence = "line"\ntrial = 1\nestimate = "none.tum"\nreference = "reference.tum"\n'
    )
    summary = run_sweep(
        load_manifest(path), tmp_path / "out", fn=evaluate_run, executor="serial", progress=None
    )
    rows = {
        r["algorithm"]: r for r in read_table(summary.table) if r["evaluation"] == "ape:translation"
    }
    assert rows["offset"]["status"] == "ok"
    assert rows["drift"]["status"] == "failed"
    assert rows["drift"]["error_type"] == "ValidationError"
    assert "Expected a reference trajectory for drift/line/1, got none" in rows["drift"]["error"]
    assert rows["lost"]["error_type"] == "FileNotFoundError"
    assert summary.failures == {"ValidationError": 1, "FileNotFoundError": 1}


def test_a_malformed_estimate_is_recorded_with_file_and_line(tmp_path):
    path = _seed_runs(tmp_path)
    (tmp_path / "drift.tum").write_text("0.0 1 2 3 0 0 0 1\n0.1 1 2 oops 0 0 0 1\n")
    summary = run_sweep(
        load_manifest(path), tmp_path / "out", fn=evaluate_run, executor="serial", progress=None
    )
    [row] = [
        r
        for r in read_table(summary.table)
        if r["algorithm"] == "drift" and r["evaluation"] == "ape:translation"
    ]
    assert row["error_type"] == "FormatError"
    assert "drift.tum" in row["error"]
    assert "oops" in row["error"]


def test_shipped_examples_are_evaluated_and_hashed_by_their_bytes(tmp_path):
    path = tmp_path / "bench.toml"
    path.write_text(
        '[settings]\nalign = "se3"\n[[runs]]\nalgorithm = "rgbdslam"\nsequence = "fr1_xyz"\n'
        'trial = 1\nestimate = "example:fr1_xyz/rgbdslam.tum"\n'
        'reference = "example:fr1_xyz/groundtruth.tum"\n'
    )
    summary = run_sweep(
        load_manifest(path), tmp_path / "out", fn=evaluate_run, executor="serial", progress=None
    )
    [row] = read_table(summary.table)
    assert row["status"] == "ok"
    assert row["n"] == 785
    from robot_msgs.batch.tasks import file_sha256, make_tasks
    from robot_msgs.io import example_path

    [task] = make_tasks(load_manifest(path), evaluate_run)
    assert file_sha256("example:fr1_xyz/rgbdslam.tum") == file_sha256(
        example_path("fr1_xyz/rgbdslam.tum")
    )
    assert task.digest == row["digest"]
