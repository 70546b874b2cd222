"""Sweeps end to end: same table whichever executor, nothing lost, resume by content hash."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from robot_msgs.batch.results_table import read_results
from robot_msgs.batch.store import ResultStore
from robot_msgs.batch.sweep import OUTPUT_FILES, run_sweep
from robot_msgs.batch.sweep_report import read_sweep
from robot_msgs.batch.worker import evaluate_task
from robot_msgs.compare import Aggregate, Ranking, Repeatability, RunReport
from robot_msgs.errors import (
    OutputExistsError,
    OutputPathError,
    SettingsMismatchError,
    ValidationError,
)
from robot_msgs.report import build_report
from robot_msgs.runs import RunSettings, evaluate, load_runs
from robot_msgs.runs.run_settings import RUN_DEFAULTS
from robot_msgs.runs.spans import shown_by_runs_note, unmeasured_in_space_note
from tests.batch.batch_helpers import calls, make_tree, mixed_settings, scripted, write_tum
from tests.runs.tree import make_cut_trials

if TYPE_CHECKING:
    from collections.abc import Iterator

    from typing_extensions import Self

    from robot_msgs.batch.executors import ChunkFeed, Outcome
    from robot_msgs.batch.summary import SweepSummary
    from robot_msgs.batch.tasks import RunFunction
    from robot_msgs.batch.worker import Job

pytest.importorskip("pyarrow")

APE = "ape:translation"
RPE = "rpe:translation:1s:all"


def _sweep(
    root: Path,
    out: Path,
    *,
    fn: RunFunction = scripted,
    settings: RunSettings | None = None,
    **kwargs: Any,
) -> SweepSummary:
    kwargs.setdefault("executor", "serial")
    manifest = load_runs([root])
    if settings is not None:
        manifest = dataclasses.replace(manifest, settings=settings)
    return run_sweep(manifest, out, fn=fn, progress=None, **kwargs)


def _ape_rows(table: str | Path) -> list[dict[str, Any]]:
    return [row for row in read_results(table) if row["evaluation"] == APE]


def _json(path: Path) -> Any:
    return json.loads(path.read_text())


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_outputs_as_local_processes_and_serial(
    tmp_path: Path,
) -> None:
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
    tables = {k: read_results(out / "results.parquet") for k, out in outs.items()}
    assert tables["dask"] == tables["local"] == tables["serial"]
    for name in ("reports.json", "aggregates.json", "ranking.json", "repeatability.json"):
        texts = {k: (out / name).read_text() for k, out in outs.items()}
        assert texts["dask"] == texts["local"] == texts["serial"], name
    rows = [row for row in tables["dask"] if row["evaluation"] == APE]
    assert len(rows) == 200
    for row in rows:  # each run's RMS error is its offset (by construction)
        key = (row["algorithm"], row["sequence"], row["trial"])
        assert row["rms"] == pytest.approx(offsets[key], abs=1e-9)
    # Deterministic order: the runs' order as read (the same whichever executor ran them).
    assert [row["run"] for row in rows] == [run.name for run in load_runs([root]).runs]


def test_outputs_messages_and_aggregates(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    offsets = make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=3)
    summary = _sweep(root, tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "aggregates.json", "ranking.json", "repeatability.json", "reports.json",
        "results.parquet", "runs", "summary.json",
    ]  # fmt: skip
    assert set(OUTPUT_FILES) - {p.name for p in out.iterdir()} == {"results.csv"}
    reports = _json(out / "reports.json")
    assert [(e["run"], e["status"]) for e in reports] == [(f"orb/MH_01/{t}", "ok") for t in "123"]
    first = RunReport.from_dict(reports[0]["report"])
    assert (first.trial, first.success, list(first.comparisons)) == ("1", True, [APE, RPE])
    assert first.comparisons[APE].estimate == "orb/MH_01/1"
    aggs = [Aggregate.from_dict(a) for a in _json(out / "aggregates.json")]
    assert [dict(a.group) for a in aggs] == [
        {"evaluation": name, "algorithm": "orb", "sequence": "MH_01"} for name in (APE, RPE)
    ]
    # The three runs' RMS errors are 0.001, 0.002, 0.003 m: their mean is 0.002 m.
    assert sorted(offsets.values()) == pytest.approx([0.001, 0.002, 0.003])
    assert aggs[0].stats["translation"].mean == pytest.approx(0.002, abs=1e-9)
    assert (aggs[0].n_runs, aggs[0].success_rate) == (3, 1.0)
    assert _json(out / "repeatability.json") == []  # every run has a reference
    record = _json(out / "summary.json")
    assert (record["n_ok"], record["n_succeeded"], record["complete"]) == (3, 3, True)
    assert [m["name"] for m in record["settings"]["metrics"]] == [APE, RPE]
    assert record["manifest"] == str(root)
    assert summary.table == str(out / "results.parquet")
    assert summary.complete


def test_run_failures_and_evaluation_failures_are_kept_apart(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    offsets = make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=3)
    lone = root / "orb" / "MH_09" / "1" / "estimate.tum"  # a sequence with no reference
    write_tum(lone, np.arange(3.0), np.zeros((3, 3)))
    (root / "orb" / "MH_01" / "2" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")  # 1 pose
    (root / "orb" / "MH_01" / "3" / "meta.json").write_text('{"exit_code": -11}')
    summary = _sweep(root, tmp_path / "out")
    assert (summary.n_runs, summary.n_ok, summary.n_succeeded) == (4, 3, 2)
    assert (summary.n_failed, summary.n_crashed, summary.complete) == (1, 0, False)
    assert summary.run_failures == {"killed by SIGSEGV (exit code -11)": 1}
    error = "ValueError: Expected 50 poses like the reference, got 1"
    assert summary.errors == {"orb/MH_01/2": error}
    rows = {(r["sequence"], r["trial"]): r for r in _ape_rows(summary.table)}
    assert (rows["MH_01", "2"]["status"], rows["MH_01", "2"]["success"]) == ("failed", None)
    assert rows["MH_01", "2"]["error"] == "Expected 50 poses like the reference, got 1"
    # A run without a reference is evaluated and succeeds; it has no accuracy.
    no_ref = rows["MH_09", "1"]
    assert (no_ref["status"], no_ref["success"], no_ref["rms"]) == ("ok", True, None)
    # A run that reported failing is a result: its numbers are kept, its failure counted.
    crashed_run = rows["MH_01", "3"]
    assert (crashed_run["status"], crashed_run["success"]) == ("ok", False)
    assert crashed_run["failure"] == "killed by SIGSEGV (exit code -11)"
    assert crashed_run["rms"] == pytest.approx(offsets["orb", "MH_01", "3"], abs=1e-9)
    aggs = [Aggregate.from_dict(a) for a in _json(tmp_path / "out" / "aggregates.json")]
    by_group = {(a.group["evaluation"], a.group["sequence"]): a for a in aggs}
    assert set(by_group) == {(APE, "MH_01"), (RPE, "MH_01")}  # MH_09 has no APE to aggregate
    mh01 = by_group[APE, "MH_01"]
    # The run that failed to evaluate counts for no algorithm, as report leaves it out.
    left_out = "1 run that failed to evaluate or was not evaluated (ValueError 1) left out"
    assert (mh01.n_runs, dict(mh01.failures), mh01.notes) == (
        2,
        {"killed by SIGSEGV (exit code -11)": 1},
        (left_out,),
    )
    assert mh01.stats["translation"].mean == pytest.approx(0.001, abs=1e-9)  # trial 1 only
    text = summary.text()
    said = " ".join(text.split())  # wrapped at 80 columns
    assert "4 runs: 3 evaluated (2 succeeded), 1 failed to evaluate, 0 not evaluated" in said
    assert "run failures: 1 killed by SIGSEGV (exit code -11)" in text
    assert f"failed to evaluate: orb/MH_01/2: {error}" in said
    assert "--resume computes" not in text  # a run's own failure is its stored result
    assert _json(tmp_path / "out" / "summary.json")["complete"] is False


def test_repeated_runs_without_a_reference_get_their_repeatability(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    t = np.arange(50) * 0.1
    line = np.column_stack([t, 0 * t, 0 * t])
    write_tum(root / "orb" / "LAB" / "1" / "estimate.tum", t, line)
    write_tum(root / "orb" / "LAB" / "2" / "estimate.tum", t, line * 1.1)  # 10 % longer
    write_tum(root / "orb" / "LAB" / "3" / "estimate.tum", t, line * 3.0)
    (root / "orb" / "LAB" / "3" / "meta.json").write_text('{"failure": "diverged"}')
    unaligned = RunSettings(evaluation=RUN_DEFAULTS.replace(align="none"))
    summary = _sweep(root, tmp_path / "out", settings=unaligned)
    assert (summary.n_ok, summary.n_succeeded, summary.run_failures) == (3, 2, {"diverged": 1})
    [entry] = _json(tmp_path / "out" / "repeatability.json")
    repeat = Repeatability.from_dict(entry)
    # The failed trial 3 is left out. Without alignment trial 2 is off by 0.1 t at time t,
    # t = 0.0..4.9: RMS 0.1 sqrt(mean(t^2)) = 0.1 sqrt(0.01 * 49 * 99 / 6). The endpoints
    # from the start are 4.9 m and 5.39 m along x: spread 0.245 m, distance 0.49 m.
    assert repeat.runs == ("orb/LAB/1", "orb/LAB/2")
    expected = 0.1 * math.sqrt(0.01 * 49 * 99 / 6)
    assert repeat.pairwise_ape_rms_m[0, 1] == pytest.approx(expected, rel=1e-9)
    assert repeat.endpoint_spread_m == pytest.approx(0.245, abs=1e-9)
    assert repeat.endpoint_max_m == pytest.approx(0.49, abs=1e-9)
    assert repeat.settings["align"] == "none"
    assert [e["ranking"] for e in _json(tmp_path / "out" / "ranking.json")] == [None, None]


def test_a_folder_with_results_is_refused_without_resume_or_force(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    _sweep(root, tmp_path / "out")
    with pytest.raises(
        OutputExistsError,
        match=r"already holds a sweep's results \(results\.parquet\): pass `resume=True`",
    ):
        _sweep(root, tmp_path / "out")
    for name in OUTPUT_FILES:
        (tmp_path / "out" / name).unlink(missing_ok=True)
    with pytest.raises(OutputExistsError, match=r"\(runs/\)"):
        _sweep(root, tmp_path / "out")


def test_force_recomputes_everything(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _sweep(root, tmp_path / "out")
    summary = _sweep(root, tmp_path / "out", force=True)
    assert (summary.n_reused, summary.n_computed) == (0, 2)
    assert set(calls(root).values()) == {2}


def test_resume_replaces_output_files_that_are_fifos_or_links_to_devices(tmp_path: Path) -> None:
    """summary.json as a FIFO hung --resume at its write; one linked to /dev/zero was written
    into the device, and so were ranking.json and the other derived files (a review). The
    output folder's files are the sweep's own: what stands there that is not a regular file
    is replaced, as a record is."""
    root, out = tmp_path / "runs", tmp_path / "out"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=1)
    _sweep(root, out)
    written = [name for name in OUTPUT_FILES if (out / name).is_file()]
    assert {"summary.json", "ranking.json", "reports.json"} <= set(written)
    expected = {name: (out / name).read_bytes() for name in written}
    for i, name in enumerate(written):
        (out / name).unlink()
        if i % 2:
            (out / name).symlink_to("/dev/null")
        else:
            os.mkfifo(out / name)  # opening it to write waits for a reader
    _sweep(root, out, resume=True)
    for name in written:
        assert (out / name).is_file(), name
        assert not (out / name).is_symlink(), name
        if name != "summary.json":  # its timings differ from run to run
            assert (out / name).read_bytes() == expected[name], name
    assert _json(out / "summary.json")["n_runs"] == 1


@pytest.mark.parametrize("executor", ["serial", "local"])
def test_resume_after_an_interrupt_computes_only_the_missing_runs(
    tmp_path: Path, executor: str
) -> None:
    root = tmp_path / "runs"
    offsets = make_tree(root, trials=4)  # 16 runs
    runs_in_order = load_runs([root]).runs
    stop = Path(runs_in_order[9].estimate + ".stop")
    stop.touch()  # evaluating the 10th run interrupts the sweep, as Ctrl-C would
    with pytest.raises(KeyboardInterrupt, match=f"^{re.escape(str(stop))}$"):
        _sweep(root, tmp_path / "out", executor=executor, workers=2)
    done_before = calls(root)
    assert not (tmp_path / "out" / "results.parquet").exists()
    stored = ResultStore(tmp_path / "out").count()
    assert 0 < stored <= len(done_before) < 16
    stop.unlink()
    summary = _sweep(root, tmp_path / "out", resume=True)
    assert (summary.n_reused, summary.n_computed, summary.n_ok) == (stored, 16 - stored, 16)
    after = calls(root)
    # Stored runs were not evaluated again; every other run was evaluated by the resume.
    reused = {k for k, v in after.items() if v == done_before.get(k, 0)}
    assert len(reused) == stored
    assert set(after) == set(offsets)
    rows = _ape_rows(summary.table)
    assert len(rows) == 16
    for row in rows:
        key = (row["algorithm"], row["sequence"], row["trial"])
        assert row["rms"] == pytest.approx(offsets[key], abs=1e-9)


def test_resume_recomputes_only_the_run_whose_input_changed(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, trials=2)
    first = _sweep(root, tmp_path / "out")
    assert first.n_computed == 8
    again = _sweep(root, tmp_path / "out", resume=True)
    assert (again.n_reused, again.n_computed) == (8, 0)
    # Move one estimate 0.25 m along z instead of its 0.003 m along y: RMS error 0.25 m.
    target = root / "orb" / "MH_01" / "2" / "estimate.tum"
    data = np.loadtxt(target)
    data[:, 2] = 0.0
    data[:, 3] = 0.25
    write_tum(target, data[:, 0], data[:, 1:4])
    changed = _sweep(root, tmp_path / "out", resume=True)
    assert (changed.n_reused, changed.n_computed) == (7, 1)
    assert calls(root)[("orb", "MH_01", "2")] == 2
    assert sum(calls(root).values()) == 9
    [row] = [r for r in _ape_rows(changed.table) if r["run"] == "orb/MH_01/2"]
    assert row["rms"] == pytest.approx(0.25, abs=1e-9)
    assert ResultStore(tmp_path / "out").count() == 8  # one record a run, replaced


def test_resume_recomputes_a_run_whose_metadata_changed(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _sweep(root, tmp_path / "out")
    (root / "orb" / "MH_01" / "1" / "meta.json").write_text('{"version": "2.0"}')
    resumed = _sweep(root, tmp_path / "out", resume=True)
    assert (resumed.n_reused, resumed.n_computed) == (1, 1)
    assert calls(root) == {("orb", "MH_01", "1"): 2, ("orb", "MH_01", "2"): 1}


def test_resume_recomputes_records_judged_by_other_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records were keyed by the package version alone: after the judging rules changed
    under the same version (a time range leaving nothing of a sequence still said the
    losses outside it), --resume reused every report judged by the old rules."""
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _sweep(root, tmp_path / "out")
    monkeypatch.setattr(evaluate, "JUDGING_REVISION", evaluate.JUDGING_REVISION + 1)
    resumed = _sweep(root, tmp_path / "out", resume=True)
    assert (resumed.n_reused, resumed.n_computed) == (0, 2)
    assert calls(root) == {("orb", "MH_01", "1"): 2, ("orb", "MH_01", "2"): 2}
    again = _sweep(root, tmp_path / "out", resume=True)  # under the new rules: reused
    assert (again.n_reused, again.n_computed) == (2, 0)


def test_crashed_records_are_recomputed_on_resume(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    runs = load_runs([root]).runs
    poison = Path(runs[0].estimate + ".poison")
    poison.touch()
    summary = _sweep(root, tmp_path / "out", executor="local", workers=2, retries=0)
    assert (summary.n_ok, summary.n_crashed, summary.complete) == (1, 1, False)
    assert summary.errors == {}  # not the run's own failure ...
    assert list(summary.infrastructure) == ["orb/MH_01/1"]  # ... but named, with its error
    assert summary.infrastructure["orb/MH_01/1"] == (
        "WorkerCrash: the worker process exited with code 7 (1 times, the run alone on its worker)"
    )
    assert ResultStore(tmp_path / "out").count() == 1  # never stored as the run's result
    [row] = [r for r in _ape_rows(summary.table) if r["trial"] == "1"]
    assert (row["status"], row["error_type"], row["rms"]) == ("crashed", "WorkerCrash", None)
    ranking = Ranking.from_dict(_json(tmp_path / "out" / "ranking.json")[0]["ranking"])
    assert dict(ranking.left_out) == {"WorkerCrash": 1}  # not counted against orb
    assert [(r.algorithm, r.n_runs, r.n_succeeded) for r in ranking.rows] == [("orb", 1, 1)]
    [agg] = [
        Aggregate.from_dict(a)
        for a in _json(tmp_path / "out" / "aggregates.json")
        if a["group"]["evaluation"] == APE
    ]
    left_out = "1 run that failed to evaluate or was not evaluated (WorkerCrash 1) left out"
    assert (agg.n_runs, agg.notes) == (1, (left_out,))
    assert "--resume computes the 1 run not evaluated" in summary.text()
    poison.unlink()
    resumed = _sweep(root, tmp_path / "out", resume=True)
    assert (resumed.n_reused, resumed.n_computed, resumed.n_ok) == (1, 1, 2)
    assert resumed.complete
    assert ResultStore(tmp_path / "out").has_records()


def test_ranking_orders_algorithms_by_median_error_per_sequence_per_metric(
    tmp_path: Path,
) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01", "MH_02"), trials=3)
    (root / "vins" / "MH_02" / "3" / "estimate.tum").write_text("0 0 0 0 0 0 0 1\n")  # fails
    _sweep(root, tmp_path / "out")
    entries = _json(tmp_path / "out" / "ranking.json")
    assert [e["evaluation"] for e in entries] == [APE, RPE]
    ranking = Ranking.from_dict(entries[0]["ranking"])
    # Offsets by construction: MH_01 orb 1..3 mm, vins 4..6 mm; MH_02 orb 7..9, vins 10..12
    # (vins trial 3 failed to evaluate: left out): medians orb 2 and 8 mm, vins 5 and 10.5 mm;
    # orb first everywhere.
    orb, vins = ranking.rows
    assert (orb.algorithm, orb.position, orb.mean_rank) == ("orb", 1, 1.0)
    assert dict(orb.scores) == pytest.approx({"MH_01": 0.002, "MH_02": 0.008}, abs=1e-9)
    assert dict(vins.scores) == pytest.approx({"MH_01": 0.005, "MH_02": 0.0105}, abs=1e-9)
    assert (vins.n_runs, vins.n_succeeded, dict(ranking.left_out)) == (5, 5, {"ValueError": 1})
    assert (ranking.metric, ranking.signal, ranking.statistic) == ("ape", "translation", "rms")
    rpe = Ranking.from_dict(entries[1]["ranking"])
    assert (rpe.metric, [row.algorithm for row in rpe.rows]) == ("rpe", ["orb", "vins"])


def test_the_ranking_statistic_comes_from_the_settings(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb", "vins"), sequences=("MH_01",), trials=1)
    _sweep(root, tmp_path / "out", settings=RunSettings(statistic="max"))
    ranking = Ranking.from_dict(_json(tmp_path / "out" / "ranking.json")[0]["ranking"])
    # A constant offset: the largest error is the offset itself, 1 mm (orb) and 2 mm (vins).
    assert ranking.statistic == "max"
    assert [row.algorithm for row in ranking.rows] == ["orb", "vins"]
    assert [row.scores["MH_01"] for row in ranking.rows] == pytest.approx([0.001, 0.002], abs=1e-9)


def test_comparisons_with_mixed_settings_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    with pytest.raises(SettingsMismatchError, match="`align=`"):
        _sweep(root, tmp_path / "out", fn=mixed_settings)


class _NoWorkers:
    """An executor that must not be needed: entering it fails the test."""

    name = "none"
    isolates = True
    slots = 1

    def describe(self) -> str:
        return self.name

    def __enter__(self) -> Self:
        msg = "a worker was needed"
        raise AssertionError(msg)

    def __exit__(self, *args: object) -> None:
        return None

    def run(self, fn: RunFunction, job: Job, feed: ChunkFeed) -> Iterator[Outcome]:
        msg = "a worker was needed"
        raise AssertionError(msg)


def _age(root: Path, seconds: float = 3600.0) -> None:
    """Set every file's mtime an hour back: older than any racy margin."""
    old = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file():
            os.utime(path, (old, old))


def test_a_no_op_resume_trusts_unchanged_stamps_and_needs_no_worker(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, trials=2)
    _age(root)
    _sweep(root, tmp_path / "out")
    table = tmp_path / "out" / "results.parquet"
    written = table.stat().st_mtime_ns
    resumed = _sweep(root, tmp_path / "out", resume=True, executor=_NoWorkers())
    assert (resumed.n_reused, resumed.n_computed, resumed.n_ok) == (8, 0, 8)
    assert set(calls(root).values()) == {1}
    # The outputs were made from exactly these records: kept, not rewritten.
    assert table.stat().st_mtime_ns == written
    assert resumed.table == str(table)
    (tmp_path / "out" / "ranking.json").unlink()  # one is missing: all are written again
    again = _sweep(root, tmp_path / "out", resume=True, executor=_NoWorkers())
    assert (tmp_path / "out" / "ranking.json").exists()
    assert table.stat().st_mtime_ns != written
    assert again.n_reused == 8


def test_resume_trusts_size_and_mtime_and_verify_rehashes_every_input(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _age(root)
    _sweep(root, tmp_path / "out")
    target = root / "orb" / "MH_01" / "2" / "estimate.tum"
    info = target.stat()
    # Other bytes of the same size, and the old mtime put back: the stamp cannot tell.
    text = target.read_text()
    target.write_text(text.replace("0.002000000", "0.009000000"))
    assert target.stat().st_size == info.st_size
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    trusted = _sweep(root, tmp_path / "out", resume=True, executor=_NoWorkers())
    [row] = [r for r in _ape_rows(trusted.table) if r["trial"] == "2"]
    assert row["rms"] == pytest.approx(0.002, abs=1e-9)  # the documented trust
    verified = _sweep(root, tmp_path / "out", resume=True, verify=True)
    assert (verified.n_reused, verified.n_computed) == (1, 1)
    [row] = [r for r in _ape_rows(verified.table) if r["trial"] == "2"]
    assert row["rms"] == pytest.approx(0.009, abs=1e-9)  # 0.009 m along y, by construction
    assert calls(root) == {("orb", "MH_01", "1"): 1, ("orb", "MH_01", "2"): 2}


def test_a_touched_input_is_rehashed_once_kept_and_trusted_afterwards(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    make_tree(root, algorithms=("orb",), sequences=("MH_01",), trials=2)
    _age(root)
    _sweep(root, tmp_path / "out")
    target = root / "orb" / "MH_01" / "1" / "estimate.tum"
    _age(target.parent, seconds=600.0)  # a new mtime, the same bytes (a copy, a checkout)
    rehashed = _sweep(root, tmp_path / "out", resume=True)
    assert (rehashed.n_reused, rehashed.n_computed) == (2, 0)  # a worker hashed it: the same
    again = _sweep(root, tmp_path / "out", resume=True, executor=_NoWorkers())
    assert again.n_reused == 2  # its record now holds the new stamp
    assert set(calls(root).values()) == {1}


def test_verify_goes_with_resume(tmp_path: Path) -> None:
    make_tree(tmp_path / "runs", algorithms=("orb",), sequences=("MH_01",), trials=1)
    with pytest.raises(
        ValidationError, match=r"^`verify=True` re-hashes .*: it goes with `resume=True`$"
    ):
        _sweep(tmp_path / "runs", tmp_path / "out", verify=True)
    with pytest.raises(ValidationError, match=r"Expected `retries` >= 0, got -1"):
        _sweep(tmp_path / "runs", tmp_path / "out", retries=-1)


def test_bad_executor_options_and_an_out_that_is_a_file_are_refused_before_any_input_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path / "runs")
    hashed: list[object] = []
    monkeypatch.setattr("robot_msgs.batch.sweep.settings_identity", lambda *a: hashed.append(a))
    with pytest.raises(ValidationError, match=r"Expected `workers` >= 1, got 0") as refused:
        _sweep(tmp_path / "runs", tmp_path / "out", executor="local", workers=0)
    assert (refused.value.field, refused.value.reason) == (
        "workers",
        "expected a count >= 1, got 0",
    )
    with pytest.raises(ValidationError, match=r"--scheduler; .*got 'head': no port"):
        _sweep(tmp_path / "runs", tmp_path / "out", executor="dask", scheduler="head")
    (tmp_path / "file").write_text("keep")
    with pytest.raises(OutputPathError, match=r"file: is a file, not a folder"):
        _sweep(tmp_path / "runs", tmp_path / "file")
    assert hashed == []
    assert not (tmp_path / "out").exists()
    assert (tmp_path / "file").read_text() == "keep"


def test_a_trial_without_reference_that_stops_halfway_fails_as_in_report(tmp_path: Path) -> None:
    """Judged against its own cut timing log it succeeded at coverage 1 (a review); the
    span its sequence's runs show is known once they are all stored, after their counts."""
    root = make_cut_trials(tmp_path / "runs")
    _age(root)
    out = tmp_path / "out"
    failures = {"estimate ends early": 1}
    summary = _sweep(root, out, fn=evaluate_task)
    assert (summary.n_ok, summary.n_succeeded, summary.run_failures) == (3, 2, failures)
    assert shown_by_runs_note(1) in summary.notes
    rows = {row["run"]: (row["success"], row["failure"]) for row in _ape_rows(summary.table)}
    assert rows["orb/s/3"] == (False, "estimate ends early")
    made = build_report(load_runs([root])).report
    assert read_sweep(out).report == made
    assert {r.name: r.coverage for r in made.runs}["orb/s/3"] == pytest.approx(0.5)
    # Every record kept, and the outputs with them: the counts are still those judged again.
    written = (out / "reports.json").stat().st_mtime_ns
    again = _sweep(root, out, fn=evaluate_task, resume=True)
    assert (out / "reports.json").stat().st_mtime_ns == written
    assert (again.n_reused, again.n_succeeded, again.run_failures) == (3, 2, failures)
    (out / "ranking.json").unlink()  # written again from the records
    again = _sweep(root, out, fn=evaluate_task, resume=True)
    assert (again.n_reused, again.n_succeeded, again.run_failures) == (3, 2, failures)
    assert read_sweep(out).report == made


def test_matched_in_space_a_trial_that_stops_halfway_fails_as_in_report(tmp_path: Path) -> None:
    """Matched in space no run is judged on its reference's span: report judged each
    against the span its sequence's runs show (the trial cut at 3 s of 6 s failed 'estimate
    ends early'), bench only the runs without a reference, and the cut trial succeeded."""
    root = make_cut_trials(tmp_path / "runs")
    t = np.round(np.arange(0.0, 6.0 + 1e-9, 0.1), 1)
    write_tum(root / "reference.tum", t + 5000.0, np.column_stack([t, np.sin(t), 0.0 * t]))
    for trial in (1, 2, 3):
        meta = {"reference": "../../../reference.tum"}
        (root / "orb" / "s" / str(trial) / "meta.json").write_text(json.dumps(meta))
    _age(root)
    spatial = RunSettings(evaluation=RUN_DEFAULTS.replace(sync="spatial"))
    summary = _sweep(root, tmp_path / "out", fn=evaluate_task, settings=spatial)
    assert (summary.n_ok, summary.n_succeeded) == (3, 2)
    assert summary.run_failures == {"estimate ends early": 1}
    manifest = dataclasses.replace(load_runs([root]), settings=spatial)
    made = build_report(manifest).report
    assert read_sweep(tmp_path / "out").report == made
    assert {r.name: r.failure for r in made.runs}["orb/s/3"] == "estimate ends early"


def test_matched_in_space_a_run_judged_on_no_span_is_said_in_the_summary(tmp_path: Path) -> None:
    """Alone in its sequence, matched in space, its timing log gone: its end and coverage
    are not measured and its success not checked, which only its own note said (a review)."""
    root = make_cut_trials(tmp_path / "runs", (6.0,))
    write_tum(root / "reference.tum", np.arange(61) / 10.0, np.zeros((61, 3)))
    (root / "orb" / "s" / "1" / "timing.csv").unlink()
    (root / "orb" / "s" / "1" / "meta.json").write_text('{"reference": "../../../reference.tum"}')
    _age(root)
    spatial = RunSettings(evaluation=RUN_DEFAULTS.replace(sync="spatial"))
    summary = _sweep(root, tmp_path / "out", fn=evaluate_task, settings=spatial)
    assert (summary.n_ok, summary.n_succeeded) == (1, 1)
    assert unmeasured_in_space_note(1) in summary.notes
    assert unmeasured_in_space_note(1) in read_sweep(tmp_path / "out").report.notes
