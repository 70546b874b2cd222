"""``robot-msgs bench``: the sweep from the command line, its summary, errors and exit codes."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from robot_msgs.cli import bench as bench_cli
from robot_msgs.cli import main

pytest.importorskip("pyarrow")


def _tree(root):
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, 0 * t, 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    for trial in (1, 2):
        run = root / "orb" / "MH_01" / str(trial)
        run.mkdir(parents=True)
        shifted = rows.copy()
        shifted[:, 2] += 0.05 * trial  # RMS error 0.05 m and 0.10 m by construction
        np.savetxt(run / "estimate.tum", shifted)
    return root


def test_bench_folder_writes_the_outputs_and_prints_the_summary(tmp_path, capsys):
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    assert main(["bench", str(root), "--out", str(out), "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith(
        "2 runs: 2 ok, 0 failed, 0 crashed; 0 reused, 2 computed in"
    )
    assert "on local (2 workers)" in captured.out
    assert f"table: {out / 'results.parquet'}" in captured.out
    assert "ape:translation: Ranking" in captured.out
    assert "1  orb" in captured.out
    assert "bench 2/2 runs  0 failed" in captured.err  # the progress line
    from robot_msgs.batch.table import read_table

    rms = [row["rms"] for row in read_table(out / "results.parquet")]
    assert rms == pytest.approx([0.05, 0.10], abs=1e-9)


def test_bench_refuses_an_existing_output_then_resumes(tmp_path, capsys):
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    assert main(["bench", str(root), "--out", str(out), "--serial", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", str(root), "--out", str(out), "--serial"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ERROR: ")
    assert "pass --resume to continue it or --force to recompute everything" in err
    assert main(["bench", str(root), "--out", str(out), "--serial", "--resume", "--quiet"]) == 0
    assert "2 reused, 0 computed" in capsys.readouterr().out


def test_bench_with_dask_missing_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    root = _tree(tmp_path / "runs")
    assert main(["bench", str(root), "--out", str(tmp_path / "out"), "--dask"]) == 1
    assert "pip install 'robot_msgs[dask]'" in capsys.readouterr().err


def test_bench_with_a_bad_manifest_prints_one_error_line(tmp_path, capsys):
    manifest = tmp_path / "bench.toml"
    manifest.write_text("[settings]\nalign = 3\n")
    assert main(["bench", str(manifest), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err == f"ERROR: {manifest} [settings] evaluate[0]: expected `align` as str, got 3\n"


def test_bench_interrupted_says_how_to_continue(tmp_path, capsys, monkeypatch):
    root = _tree(tmp_path / "runs")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bench_cli, "run_sweep", interrupted)
    assert main(["bench", str(root), "--out", str(tmp_path / "out")]) == 130
    assert "run the same command with --resume to finish" in capsys.readouterr().err


def test_bench_flags_are_exclusive(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["bench", "x", "--out", "o", "--resume", "--force"])
    with pytest.raises(SystemExit):
        main(["bench", "x", "--out", "o", "--dask", "--scheduler", "tcp://127.0.0.1:1"])
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_on_an_existing_dask_scheduler(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    root = _tree(tmp_path / "runs")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        out = tmp_path / "out"
        assert main(["bench", str(root), "--out", str(out), "--scheduler", address]) == 0
    assert f"on dask ({address})" in capsys.readouterr().out
    from robot_msgs.batch.table import read_table

    assert [r["rms"] for r in read_table(out / "results.parquet")] == pytest.approx([0.05, 0.10])
