"""Sweeps end to end: same table whichever executor, nothing lost, resume by content hash."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from robot_msgs.batch.manifest import load_bench_input
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import run_sweep
from robot_msgs.batch.table import read_table
from robot_msgs.compare import Aggregate, Comparison, Ranking
from robot_msgs.errors import OutputExistsError, SettingsMismatchError
from tests.batch.batch_helpers import calls, make_tree, mixed_settings, scripted, write_tum

pytest.importorskip("pyarrow")


def _sweep(root: Path, out: Path, **kwargs):
    kwargs.setdefault("executor", "serial")
    return run_sweep(load_bench_input(root), out, fn=scripted, progress=None, **kwargs)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_table_as_local_processes_and_serial(tmp_path):
    pytest.importorskip("distributed")
    root = tmp_path / "runs"
    offsets = make_tree(
        root, algorithms=("a", "b", "c", "d"), sequences=tuple(f"S{i}" for i in range(5)),
        trials=10, n_poses=20,
    )  # fmt: skip
    assert len(offsets) == 200
    outs = {}
    for executor in ("serial", "local", "dask"):
        outs[executor] = tmp_path / executor
        summary = _sweep(root, outs[executor], executor=executor, workers=2)
        assert (summary.n_runs, summary.n_ok, summary.n_computed) == (200, 200, 200)
    tables = {k: read_table(out / "results.parquet") for k, out in outs.items()}
    assert tables["dask"] == tables["local"] == tables["serial"]
    for name in ("comparisons.json", "aggregates.json", "ranking.json"):
        texts = {k: (out / name).read_text() for k, out in outs.items()}
        assert texts["dask"] == texts["local"] == texts["serial"]
    rows = tables["dask"]
    assert len(rows) == 200
    for row in rows:  # each run's RMS error is its offset (by construction)
        key = (row["algorithm"], row["sequence"], row["trial"])
        assert row["rms"] == pytest.approx(offsets[key], abs=1e-9)
    # Deterministic order: algorithm, sequence, trial 1..10 in natural order.
    assert [r["trial"] for r in rows[:10]] == [str(i) for i in range(1, 11)]


def test_outputs_messages_and_aggregates(tmp_path):
    root = tmp_path / "runs"
    offsets = make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=3)
    summary = _sweep(root, tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "aggregates.json", "comparisons.json", "ranking.json", "results.parquet", "runs",
        "summary.json",
    ]  # fmt: skip
    comparisons = json.loads((out / "comparisons.json").read_text())
    assert [c["trial"] for c in comparisons] == ["1", "2", "3"]
    assert Comparison.from_dict(comparisons[0]["comparison"]).estimate == "orb/MH_01/1"
    [agg] = [Aggregate.from_dict(a) for a in json.loads((out / "aggregates.json").read_text())]
    assert dict(agg.group) == {
        "evaluation": "ape:translation",
        "algorithm": "orb",
        "sequence": "MH_01",
    }
    # The three runs' RMS errors are 0.001, 0.002, 0.003 m: their mean is 0.002 m.
    assert sorted(offsets.values()) == pytest.approx([0.001, 0.002, 0.003])
    assert agg.stats["translation"].mean == pytest.approx(0.002, abs=1e-9)
    assert (agg.n_runs, agg.success_rate) == (3, 1.0)
    record = json.loads((out / "summary.json").read_text())
    assert record["n_ok"] == 3
    assert record["settings"]["evaluate"][0]["name"] == "ape:translation"
    assert summary.table == str(out / "results.parquet")


def test_failures_are_recorded_with_their_error_text_and_counted(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    lone = root / "orb" / "MH_09" / "1" / "estimate.tum"  # a sequence with no reference
    write_tum(lone, np.arange(3.0), np.zeros((3, 3)))
    (root / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")  # 1 pose
    summary = _sweep(root, tmp_path / "out")
    assert (summary.n_runs, summary.n_ok, summary.n_failed) == (3, 1, 2)
    assert summary.failures == {"FileNotFoundError": 1, "ValueError": 1}
    rows = {r["trial"] + r["sequence"]: r for r in read_table(summary.table)}
    assert rows["2MH_01"]["status"] == "failed"
    assert rows["2MH_01"]["error"] == "Expected 50 poses like the reference, got 1"
    assert rows["1MH_09"]["error"] == "no reference for orb/MH_09/1"
    aggs = [
        Aggregate.from_dict(a)
        for a in json.loads((tmp_path / "out" / "aggregates.json").read_text())
    ]
    by_seq = {a.group["sequence"]: a for a in aggs}
    assert (by_seq["MH_01"].n_runs, dict(by_seq["MH_01"].failures)) == (2, {"ValueError": 1})
    assert (by_seq["MH_09"].n_runs, by_seq["MH_09"].metric) == (1, "ape")
    assert "failures: FileNotFoundError 1, ValueError 1" in summary.text()


def test_a_folder_with_results_is_refused_without_resume_or_force(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    _sweep(root, tmp_path / "out")
    with pytest.raises(
        OutputExistsError,
        match=r"already holds a sweep's results \(results\.parquet\): pass --resume",
    ):
        _sweep(root, tmp_path / "out")
    (tmp_path / "out" / "results.parquet").unlink()
    for name in ("comparisons.json", "aggregates.json", "ranking.json", "summary.json"):
        (tmp_path / "out" / name).unlink()
    with pytest.raises(OutputExistsError, match=r"\(runs/\)"):
        _sweep(root, tmp_path / "out")


def test_force_recomputes_everything(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _sweep(root, tmp_path / "out")
    summary = _sweep(root, tmp_path / "out", force=True)
    assert (summary.n_reused, summary.n_computed) == (0, 2)
    assert set(calls(root).values()) == {2}


@pytest.mark.parametrize("executor", ["serial", "local"])
def test_resume_after_an_interrupt_computes_only_the_missing_runs(tmp_path, executor):
    root = tmp_path / "runs"
    offsets = make_tree(root, trials=4)  # 16 runs
    tasks_in_order = load_bench_input(root).runs
    stop = Path(tasks_in_order[9].estimate + ".stop")
    stop.touch()  # evaluating the 10th run interrupts the sweep, as Ctrl-C would
    with pytest.raises(KeyboardInterrupt):
        _sweep(root, tmp_path / "out", executor=executor, workers=2)
    done_before = calls(root)
    assert not (tmp_path / "out" / "results.parquet").exists()
    stored = list((tmp_path / "out" / "runs").glob("*.json"))
    assert 0 < len(stored) <= len(done_before) < 16
    stop.unlink()
    summary = _sweep(root, tmp_path / "out", resume=True)
    assert (summary.n_reused, summary.n_computed, summary.n_ok) == (
        len(stored),
        16 - len(stored),
        16,
    )
    after = calls(root)
    # Stored runs were not evaluated again; every other run was evaluated by the resume.
    reused = {k for k, v in after.items() if v == done_before.get(k, 0)}
    assert len(reused) == len(stored)
    assert set(after) == set(offsets)
    rows = read_table(summary.table)
    assert len(rows) == 16


def test_resume_recomputes_only_the_run_whose_input_changed(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, trials=2)
    first = _sweep(root, tmp_path / "out")
    assert first.n_computed == 8
    again = _sweep(root, tmp_path / "out", resume=True)
    assert (again.n_reused, again.n_computed) == (8, 0)
    # Shift one estimate by 0.25 m in z instead of its 0.003 m in y: RMS sqrt(0.25² + 0.003²).
    target = root / "orb" / "MH_01" / "2" / "estimate.tum"
    data = np.loadtxt(target)
    data[:, 2] = 0.0
    data[:, 3] = 0.25
    write_tum(target, data[:, 0], data[:, 1:4])
    changed = _sweep(root, tmp_path / "out", resume=True)
    assert (changed.n_reused, changed.n_computed) == (7, 1)
    assert calls(root)[("orb", "MH_01", "2")] == 2
    assert sum(calls(root).values()) == 9
    row = next(
        r
        for r in read_table(changed.table)
        if r["trial"] == "2" and r["algorithm"] == "orb" and r["sequence"] == "MH_01"
    )
    assert row["rms"] == pytest.approx(0.25, abs=1e-9)
    assert len(list((tmp_path / "out" / "runs").glob("*.json"))) == 9  # the old record stays


def test_crashed_records_are_recomputed_on_resume(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    tasks = load_bench_input(root).runs
    poison = Path(tasks[0].estimate + ".poison")
    poison.touch()
    summary = _sweep(root, tmp_path / "out", executor="local", workers=2, retries=0)
    records = [json.loads(p.read_text()) for p in (tmp_path / "out" / "runs").glob("*.json")]
    why = [(r["trial"], r["status"], r["error_type"], r["error"], r["attempts"]) for r in records]
    assert (summary.n_ok, summary.n_crashed) == (1, 1), why
    poison.unlink()
    resumed = _sweep(root, tmp_path / "out", resume=True)
    assert (resumed.n_reused, resumed.n_computed, resumed.n_ok) == (1, 1, 2)
    assert ResultStore(tmp_path / "out").has_records()


def test_ranking_orders_algorithms_by_median_error_per_sequence(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01", "MH_02"), trials=3)
    (root / "vins" / "MH_02" / "3" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")  # fails
    _sweep(root, tmp_path / "out")
    [entry] = json.loads((tmp_path / "out" / "ranking.json").read_text())
    assert entry["evaluation"] == "ape:translation"
    ranking = Ranking.from_dict(entry["ranking"])
    # Offsets by construction: MH_01 orb 1..3 mm, vins 4..6 mm; MH_02 orb 7..9, vins 10..12
    # (vins trial 3 failed): medians orb 2 and 8 mm, vins 5 and 10.5 mm; orb first everywhere.
    orb, vins = ranking.rows
    assert (orb.algorithm, orb.position, orb.mean_rank) == ("orb", 1, 1.0)
    assert dict(orb.scores) == pytest.approx({"MH_01": 0.002, "MH_02": 0.008}, abs=1e-9)
    assert dict(vins.scores) == pytest.approx({"MH_01": 0.005, "MH_02": 0.0105}, abs=1e-9)
    assert (vins.n_runs, vins.n_succeeded) == (6, 5)
    assert (ranking.metric, ranking.signal, ranking.statistic) == ("ape", "translation", "rms")


def test_comparisons_with_mixed_settings_are_refused(tmp_path):
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    with pytest.raises(SettingsMismatchError, match="`alignment`"):
        run_sweep(
            load_bench_input(root),
            tmp_path / "out",
            fn=mixed_settings,
            executor="serial",
            progress=None,
        )
