"""``robot-msgs bench``: the sweep from the command line, its summary, errors and exit codes."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import socket
import sys
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
import pytest

from robot_msgs.batch import store, sweep
from robot_msgs.batch.lock import FolderLock
from robot_msgs.batch.results_table import read_results
from robot_msgs.cli import main
from robot_msgs.compare import Ranking, Repeatability, RunReport
from robot_msgs.evaluation import ape
from robot_msgs.io import read_trajectory
from robot_msgs.limits import max_workers
from robot_msgs.report import build_report
from robot_msgs.runs import load_runs
from robot_msgs.runs.run_settings import RUN_DEFAULTS
from tests.cli.evaluation_files import write_kitti_run
from tests.hostile import deadline
from tests.runs.tree import make_tree, make_two_versions

if TYPE_CHECKING:
    from pathlib import Path

pytest.importorskip("pyarrow")

APE = "ape:translation"
EXAMPLE = "example:runs/runs.toml"


def _tree(root: Path, algorithm: str = "orb") -> Path:
    """ROOT/MH_01/reference.tum and two trials whose estimates are moved 0.05 and 0.10 m.

    The path is a planar curve (x = t, y = sin t), so an SE(3) fit is determined; the
    offsets are along z: unaligned RMS errors 0.05 and 0.10 m, and 0 after SE(3).
    """
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    (root / "MH_01").mkdir(parents=True, exist_ok=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    for trial in (1, 2):
        run = root / algorithm / "MH_01" / str(trial)
        run.mkdir(parents=True)
        shifted = rows.copy()
        shifted[:, 3] += 0.05 * trial
        np.savetxt(run / "estimate.tum", shifted)
    return root


def _ape_rms(out: Path) -> list[float]:
    return [row["rms"] for row in read_results(out / "results.parquet") if row["evaluation"] == APE]


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_bench_folder_writes_the_outputs_and_prints_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--workers", "2", "--align", "none"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert " ".join(captured.out.split()).startswith(  # wrapped at 80 columns
        "2 runs: 2 evaluated (2 succeeded), 0 failed to evaluate, 0 not evaluated; 0 reused, "
        "2 computed in"
    )
    # The runs are read in a thread while the first are computed: on a loaded machine
    # the line may come when one of the two is read (CI met it once).
    said = re.escape(f"bench: reading the runs of {root}\nbench: ")
    read = rf"(2 runs into {re.escape(str(out))}\n|1 run into {re.escape(str(out))} so far; )"
    assert re.match(said + read, captured.err), captured.err
    assert "on 2 local worker processes" in " ".join(captured.out.split())
    assert f"table: {out / 'results.parquet'}" in captured.out
    # Each ranking headed by its metric in words: they were headed by their keys,
    # ape:translation and rpe:translation:1s:all (a review).
    assert "\nAPE translation error: Ranking" in captured.out
    assert "\nRPE translation error over 1 s, all pairs: Ranking" in captured.out
    assert ":translation" not in captured.out
    assert "1  orb" in captured.out
    assert "Repeatability" not in captured.out  # every run has a reference
    assert "bench 2/2 runs  0 failed" in captured.err  # the progress line
    assert "ERROR" not in captured.err
    assert _ape_rms(out) == pytest.approx([0.05, 0.10], abs=1e-9)


def test_the_progress_lines_are_folded_on_a_terminal_and_whole_in_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """'bench: 2 runs into <out>' was written straight to the stream: on a 60-column
    terminal it ran off the edge, where the line before it ('reading the runs of') was
    folded. Folded as every line said is; in a pipe one line, for grep."""
    from tests.terminal import Terminal

    root = _tree(tmp_path / "runs")
    out = tmp_path / "the_outputs_of_a_bench_with_a_long_folder_name"
    argv = ["bench", str(root), "--out", str(out), "--workers", "1", "--align", "none"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert f" into {out}" in err  # in a pipe: whole
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setenv("COLUMNS", "60")
    assert main([*argv, "--force"]) == 0
    lines = terminal.getvalue().splitlines()
    k = next(k for k, x in enumerate(lines) if re.match(r"bench: [12] runs? into", x))
    assert len(lines[k]) <= 60, lines[k]
    assert lines[k + 1].strip().startswith(str(out)), lines[k + 1]


def test_bench_on_a_folder_aligns_with_se3_unless_told_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    assert main(["bench", str(root), "--out", str(tmp_path / "se3"), "--serial", "--quiet"]) == 0
    argv = ["bench", str(root), "--out", str(tmp_path / "none"), "--serial", "--quiet"]
    assert main([*argv, "--align", "none"]) == 0
    capsys.readouterr()
    # A constant offset is what SE(3) alignment removes.
    assert _ape_rms(tmp_path / "se3") == pytest.approx([0.0, 0.0], abs=1e-9)
    assert _ape_rms(tmp_path / "none") == pytest.approx([0.05, 0.10], abs=1e-9)
    [ape_se3, _] = _json(tmp_path / "se3" / "ranking.json")
    [ape_none, _] = _json(tmp_path / "none" / "ranking.json")
    assert (ape_se3["ranking"]["settings"]["align"], ape_none["ranking"]["settings"]["align"]) == (
        "se3",
        "none",
    )


def test_bench_ranks_the_runs_of_several_inputs_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _tree(tmp_path / "a", "orb")
    second = _tree(tmp_path / "b", "vins")
    (second / "vins" / "MH_01" / "1" / "estimate.tum").write_text("")  # wrote nothing: fails
    out = tmp_path / "out"
    argv = ["bench", str(first), str(second), "--out", str(out), "--serial", "--quiet"]
    assert main([*argv, "--align", "none"]) == 0
    assert "2 runs: 2 evaluated" not in capsys.readouterr().out
    summary = _json(out / "summary.json")
    assert (summary["n_runs"], summary["n_succeeded"], summary["run_failures"]) == (
        4,
        3,
        {"no estimate": 1},
    )
    ranking = Ranking.from_dict(_json(out / "ranking.json")[0]["ranking"])
    # Medians of the successful runs: orb 0.05 and 0.10 -> 0.075 m; vins trial 2: 0.10 m.
    assert [(row.algorithm, row.n_succeeded) for row in ranking.rows] == [("orb", 2), ("vins", 1)]
    assert ranking.rows[0].scores["MH_01"] == pytest.approx(0.075, abs=1e-9)
    assert ranking.rows[1].scores["MH_01"] == pytest.approx(0.10, abs=1e-9)


def test_bench_ranks_and_aggregates_two_versions_of_one_algorithm_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """orb 1.0 and 2.0 were one ranking line and one aggregate per sequence, "orb"; a run
    of orb 2.0 that failed to evaluate (it has no report) counts for no line, and is left
    out of orb 2.0's aggregate, which says so. The numbers: tests/runs/tree.py."""
    root = make_two_versions(tmp_path / "runs")
    bad = root / "orb-2.0" / "s1" / "5"
    bad.mkdir(parents=True)
    (bad / "meta.json").write_text((root / "orb-2.0" / "s1" / "3" / "meta.json").read_text())
    (bad / "estimate.tum").write_text("0.0 1 2 oops 0 0 0 1\n")
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--quiet", "--align", "none"]
    assert main([*argv, "--allow-partial"]) == 0
    said = capsys.readouterr().out
    ranking = Ranking.from_dict(_json(out / "ranking.json")[0]["ranking"])
    lines = [(r.name, r.mean_rank, r.n_runs, r.n_succeeded) for r in ranking.rows]
    assert lines == [("orb 2.0", 1.0, 3, 3), ("orb 1.0", 2.0, 3, 3)]
    assert dict(ranking.left_out) == {"FormatError": 1}
    assert dict(ranking.rows[0].scores) == pytest.approx({"s1": 0.15, "s2": 0.25})
    assert dict(ranking.rows[1].scores) == pytest.approx({"s1": 0.20, "s2": 0.40})
    assert re.search(r"1 +orb 2\.0 +1\.00", said), said
    aggregates = [a for a in _json(out / "aggregates.json") if a["group"]["evaluation"] == APE]
    medians = [
        (a["group"]["configuration"], a["group"]["sequence"], a["n_runs"],
         a["signals"][0]["stats"]["median"], a["notes"])
        for a in aggregates
    ]  # fmt: skip
    left_out = "1 run that failed to evaluate or was not evaluated (FormatError 1) left out"
    assert medians == [
        ("orb 1.0", "s1", 2, pytest.approx(0.20), []),
        ("orb 1.0", "s2", 1, pytest.approx(0.40), []),
        ("orb 2.0", "s1", 1, pytest.approx(0.15), [left_out]),
        ("orb 2.0", "s2", 2, pytest.approx(0.25), []),
    ]
    # The per-run table can be grouped as the ranking is: each row says its run's version
    # and parameters, the run that failed to evaluate those of its meta.json (a review).
    import pyarrow.parquet as pq

    table = pq.read_table(out / "results.parquet").to_pylist()
    configurations = {(r["run"], r["version"], r["parameters"]) for r in table}
    assert ("orb-2.0/s1/5", "2.0", '{"n_features":1000}') in configurations
    assert {v for _, v, _ in configurations} == {"1.0", "2.0"}
    assert {p for _, _, p in configurations} == {'{"n_features":1000}'}


def test_two_versions_numbering_their_trials_alike_are_ranked_apart_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """orb-1.0/s1/1 and orb-2.0/s1/1, both orb on s1 trial 1 by their meta.json, were
    refused ("two runs are orb/s1/1"); each run has its own name, row and record."""
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = tmp_path / "runs"
    (root / "s1").mkdir(parents=True)
    np.savetxt(root / "s1" / "reference.tum", rows)
    offsets = {("1.0", 1): 0.10, ("1.0", 2): 0.30, ("2.0", 1): 0.05, ("2.0", 2): 0.15}
    for (version, trial), offset in offsets.items():
        run = root / f"orb-{version}" / "s1" / str(trial)
        run.mkdir(parents=True)
        np.savetxt(run / "estimate.tum", rows + np.array([0, 0, 0, offset, 0, 0, 0, 0]))
        (run / "meta.json").write_text(json.dumps({"algorithm": "orb", "version": version}))
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--quiet", "--align", "none"]
    assert main(argv) == 0
    ranking = Ranking.from_dict(_json(out / "ranking.json")[0]["ranking"])
    assert [(r.name, r.n_runs, r.n_succeeded) for r in ranking.rows] == [
        ("orb 2.0", 2, 2),
        ("orb 1.0", 2, 2),
    ]
    assert [r.scores["s1"] for r in ranking.rows] == pytest.approx([0.10, 0.20])
    table = [r for r in read_results(out / "results.parquet") if r["evaluation"] == APE]
    got = {(r["run"], r["version"], r["trial"]): r["rms"] for r in table}
    assert got == {
        (f"orb-{version}/s1/{trial}", version, str(trial)): pytest.approx(offset)
        for (version, trial), offset in offsets.items()
    }
    assert main([*argv, "--resume"]) == 0  # each run's record is its own
    assert "4 reused, 0 computed" in " ".join(capsys.readouterr().out.split())


def test_bench_and_report_leave_out_alike_the_runs_that_failed_to_evaluate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both runs of orb 1.0 unreadable: bench ranked them as failed runs (orb 1.0 0/2, orb
    2.0 2/2), ``report`` of the runs or of the folder left them out (orb 2/2, a note).
    The README: a run that failed to evaluate is its own stored failure, not a result
    ranked against its algorithm, and ``report DIR`` is the report of the runs. bench
    leaves it out too, saying so, and names the configurations of the runs it holds."""
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = tmp_path / "runs"
    (root / "s1").mkdir(parents=True)
    np.savetxt(root / "s1" / "reference.tum", rows)
    for version, sequence, trial, offset in [
        ("1.0", "s1", 1, 0.0), ("1.0", "s1", 2, 0.0), ("2.0", "s1", 1, 0.05),
        ("2.0", "s1", 2, 0.15), ("2.0", "s2", 1, 0.0), ("2.0", "s2", 2, 0.1),
    ]:  # fmt: skip
        run = root / f"orb-{version}" / sequence / str(trial)
        run.mkdir(parents=True)
        np.savetxt(run / "estimate.tum", rows + np.array([0, 0, 0, offset, 0, 0, 0, 0]))
        (run / "meta.json").write_text(json.dumps({"algorithm": "orb", "version": version}))
        if version == "1.0":
            (run / "estimate.tum").write_text("0.0 1 2 oops 0 0 0 1\n")
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--align", "none"]
    assert main([*argv, "--allow-partial"]) == 0
    said = capsys.readouterr().out
    [ape_entry, _] = _json(out / "ranking.json")
    ranking = Ranking.from_dict(ape_entry["ranking"])
    bench_lines = [(r.name, r.n_runs, r.n_succeeded) for r in ranking.rows]
    assert (bench_lines, dict(ranking.left_out)) == ([("orb", 2, 2)], {"FormatError": 2})
    assert re.search(r"\n1 +orb +1\.00 +2/2 ", said), said
    assert "Lacks 2 runs that failed to evaluate or were not evaluated (FormatError 2)" in (
        " ".join(said.split())
    )
    assert re.search(r"\norb +s2 +2 ", said), said  # the repeatability table names it alike
    aggregates = [a for a in _json(out / "aggregates.json") if a["group"]["evaluation"] == APE]
    assert [(a["group"].get("configuration"), a["n_runs"]) for a in aggregates] == [(None, 2)]
    report_json = tmp_path / "report.json"
    flags = ["--allow-partial", "--no-progress", "--quiet", "--force", "--json", str(report_json)]
    for inputs in ([str(root), "--align", "none"], [str(out)]):  # a folder keeps its settings
        assert main(["report", *inputs, *flags]) == 0, inputs
        rows_of_report = _json(report_json)["ranking"]["rows"]
        report_lines = [(r["algorithm"], r["n_runs"], r["n_succeeded"]) for r in rows_of_report]
        assert report_lines == bench_lines, inputs
    capsys.readouterr()


def test_bench_and_report_agree_on_the_shipped_example_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["bench", EXAMPLE, "--out", str(out), "--serial", "--quiet"]) == 0
    printed = capsys.readouterr().out
    report = build_report(load_runs([EXAMPLE])).report
    entries = _json(out / "reports.json")
    assert [e["run"] for e in entries] == [run.name for run in report.runs]
    assert {e["status"] for e in entries} == {"ok"}
    bench_runs = [RunReport.from_dict(e["report"]) for e in entries]
    for mine, theirs in zip(bench_runs, report.runs, strict=True):
        assert (mine.success, mine.failure) == (theirs.success, theirs.failure), mine.name
        assert list(mine.comparisons) == list(theirs.comparisons), mine.name
        for name, comparison in mine.comparisons.items():
            expected = theirs.comparisons[name].stats["translation"].rms
            assert comparison.stats["translation"].rms == pytest.approx(expected, rel=1e-12)
    # One run checked by an independent computation: the plain APE of its two files.
    spec = load_runs([EXAMPLE]).runs[0]
    assert spec.name == "kfslam/fr1_xyz/trial_1"
    assert spec.reference is not None
    plain = ape(
        read_trajectory(spec.reference), read_trajectory(spec.estimate), settings=RUN_DEFAULTS
    )
    first = bench_runs[0].comparisons[APE].stats["translation"].rms
    assert first == pytest.approx(plain.stats["translation"].rms, rel=1e-12)
    # The same ranking: algorithm order and scores.
    ranked = Ranking.from_dict(_json(out / "ranking.json")[0]["ranking"])
    assert report.ranking is not None
    assert [r.algorithm for r in ranked.rows] == [r.algorithm for r in report.ranking.rows]
    for mine_row, their_row in zip(ranked.rows, report.ranking.rows, strict=True):
        assert mine_row.position == their_row.position
        assert dict(mine_row.scores) == pytest.approx(dict(their_row.scores), rel=1e-12)
        assert (mine_row.n_runs, mine_row.n_succeeded) == (their_row.n_runs, their_row.n_succeeded)
    # lab_loop has no reference: its runs are results (not failures) with repeatability.
    lab = [r for r in bench_runs if r.sequence == "lab_loop"]
    assert [(r.success, r.failure) for r in lab] == [(True, "")] * 5 + [
        (False, "tracking lost, not recovered")
    ]
    repeats = [Repeatability.from_dict(d) for d in _json(out / "repeatability.json")]
    theirs_by_runs = {r.repeatability.runs: r.repeatability for r in report.runs if r.repeatability}
    assert {r.runs for r in repeats} == set(theirs_by_runs)
    assert {len(r.runs) for r in repeats} == {3, 2}  # dvo's lost trial is left out
    for repeat in repeats:
        expected_repeat = theirs_by_runs[repeat.runs]
        assert repeat.pairwise_ape_rms_m == pytest.approx(expected_repeat.pairwise_ape_rms_m)
        assert repeat.endpoint_spread_m == pytest.approx(expected_repeat.endpoint_spread_m)
    assert "Repeatability (no reference)" in printed
    summary = _json(out / "summary.json")
    assert (summary["n_runs"], summary["n_ok"], summary["complete"]) == (18, 18, True)
    assert summary["run_failures"] == {
        "killed by SIGSEGV (exit code -11)": 1,
        "tracking lost, not recovered": 1,
    }


def test_a_run_that_cannot_be_read_fails_the_bench_unless_partial_results_are_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    bad = "0.0 1 2 3 0 0 0 1\n0.1 1 2 oops 0 0 0 1\n"
    (root / "orb" / "MH_01" / "2" / "estimate.tum").write_text(bad)
    argv = ["bench", str(root), "--serial", "--quiet", "--align", "none"]
    assert main([*argv, "--out", str(tmp_path / "strict")]) == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.err.splitlines() if line.startswith("ERROR:")]
    bad_file = root / "orb" / "MH_01" / "2" / "estimate.tum"
    # The one error line counts, names the first run, the file and the line, and the flag.
    assert len(errors) == 1, errors
    assert errors[0].startswith(
        "ERROR: 1 of 2 runs did not finish (1 failed to evaluate, 0 not evaluated): "
        f"orb/MH_01/2: FormatError: {bad_file}, line 2"
    )
    assert errors[0].endswith("; --allow-partial accepts a partial sweep")
    printed = " ".join(captured.out.split())  # the summary wraps at 80 columns
    assert "failed to evaluate: orb/MH_01/2: FormatError: " in printed
    assert "oops" in captured.out
    assert main([*argv, "--out", str(tmp_path / "partial"), "--allow-partial"]) == 0
    captured = capsys.readouterr()
    assert "WARNING: 1 of 2 runs did not finish" in captured.err
    assert "accepted by --allow-partial" in captured.err
    assert not [line for line in captured.err.splitlines() if line.startswith("ERROR:")]
    assert "failed to evaluate: orb/MH_01/2" in captured.out
    # Both wrote every output; the good run's numbers are there.
    for out in (tmp_path / "strict", tmp_path / "partial"):
        assert _json(out / "summary.json")["complete"] is False
        assert _ape_rms(out)[0] == pytest.approx(0.05, abs=1e-9)


def test_an_invalid_meta_json_fails_its_run_alone_and_is_evaluated_again_once_mended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One broken meta.json stopped the sweep before any run, even with --allow-partial.

    Its run fails to evaluate, named with the file; the other is evaluated. Mended to the
    keys its path gives (the same run key), ``--resume`` evaluates it again: the file's
    bytes are the broken run's input, so its stored failure is not kept.
    """
    root = _tree(tmp_path / "runs")
    meta = root / "orb" / "MH_01" / "2" / "meta.json"
    meta.write_text('{"algorithm": "orb", ')
    out = tmp_path / "out"
    argv = ["bench", str(root), "--serial", "--quiet", "--align", "none", "--out", str(out)]
    assert main([*argv, "--allow-partial"]) == 0
    captured = capsys.readouterr()
    assert "WARNING: 1 of 2 runs did not finish (1 failed to evaluate, 0 not evaluated): " in (
        captured.err
    )
    assert f"failed to evaluate: orb/MH_01/2: FormatError: {meta}:1:22: expected JSON" in (
        " ".join(captured.out.split())  # the summary wraps at 80 columns
    )
    assert _ape_rms(out) == [pytest.approx(0.05, abs=1e-9), None]  # the failed run: no number
    assert main([*argv, "--resume"]) == 1  # without --allow-partial: one ERROR line
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1, errors
    assert f"orb/MH_01/2: FormatError: {meta}:1:22: expected JSON" in errors[0]
    meta.write_text('{"algorithm": "orb"}')
    assert main([*argv, "--resume"]) == 0
    assert "1 reused, 1 computed" in " ".join(capsys.readouterr().out.split())
    assert _ape_rms(out) == [pytest.approx(0.05, abs=1e-9), pytest.approx(0.10, abs=1e-9)]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
@pytest.mark.parametrize("executor", ["--serial", "--workers=2"])
def test_an_estimate_that_is_a_device_or_a_fifo_fails_its_run_at_once_without_being_read(
    special: str, executor: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 23: a /dev/zero estimate never ended (hashed with no bound); a FIFO was read
    to hash it and again to evaluate. Both are named and the run fails, read 0 times."""
    root = _tree(tmp_path / "runs")
    estimate = root / "orb" / "MH_01" / "2" / "estimate.tum"
    estimate.unlink()
    if special == "fifo":
        os.mkfifo(estimate)  # no writer: any open for reading would block
        kind = "a pipe (FIFO)"
    else:
        estimate.symlink_to(special)
        kind = "a character device"
    argv = ["bench", str(root), executor, "--quiet", "--out", str(tmp_path / "out")]
    with deadline(30):
        assert main(argv) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1, errors
    assert f"orb/MH_01/2: FormatError: {estimate}: is {kind}, not a regular file" in errors[0]
    assert _json(tmp_path / "out" / "summary.json")["complete"] is False


def test_settings_flags_reach_the_sweep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--quiet", "--align", "sim3"]
    argv += ["--rpe-delta", "2", "--rpe-unit", "f", "--statistic", "max", "--max-diff", "0.02"]
    assert main(argv) == 0
    assert "\nRPE translation error over 2 frames, all pairs: Ranking" in capsys.readouterr().out
    settings = _json(out / "summary.json")["settings"]
    assert settings["evaluation"]["align"] == "sim3"
    assert settings["evaluation"]["max_diff_s"] == 0.02
    assert [m["name"] for m in settings["metrics"]] == [APE, "rpe:translation:2f:all"]
    assert settings["statistic"] == "max"
    [ape_entry, rpe_entry] = _json(out / "ranking.json")
    assert rpe_entry["evaluation"] == "rpe:translation:2f:all"
    assert ape_entry["ranking"]["settings"]["align"] == "sim3"
    assert ape_entry["ranking"]["settings"]["max_diff_s"] == 0.02
    assert ape_entry["ranking"]["statistic"] == "max"


def test_a_bad_flag_value_fails_before_any_run_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    assert main(["bench", str(root), "--out", str(out), "--max-diff", "-1"]) == 2
    assert capsys.readouterr().err == (
        f"bench: reading the runs of {root}\n"  # at once, before anything that takes time
        "ERROR: --max-diff -1: expected float >= 0, got float -1.0\n"
    )
    assert main(["bench", str(root), "--out", str(out), "--coverage-gap", "0", "--quiet"]) == 2
    assert capsys.readouterr().err.startswith("ERROR: --coverage-gap 0: expected float > 0")
    assert not out.exists()  # nothing was evaluated
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["bench", str(root), "--out", str(out), "--rpe-unit", "km"])
    assert "argument --rpe-unit: invalid choice: 'km'" in capsys.readouterr().err
    # An RPE pair flag of `robot-msgs rpe`, not of bench.
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["bench", str(root), "--out", str(out), "--delta-tol", "0.1"])
    assert "ERROR: robot-msgs bench: --delta-tol is rpe's, not bench's" in capsys.readouterr().err
    assert not out.exists()


def test_bench_refuses_an_existing_output_then_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    assert main(["bench", str(root), "--out", str(out), "--serial", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", str(root), "--out", str(out), "--serial"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[1].startswith("ERROR: ")
    assert "pass --resume to continue it or --force to recompute everything" in err
    assert main(["bench", str(root), "--out", str(out), "--serial", "--resume", "--quiet"]) == 0
    assert "2 reused, 0 computed" in " ".join(capsys.readouterr().out.split())
    # Other settings are other results: nothing is reused.
    argv = ["bench", str(root), "--out", str(out), "--serial", "--resume", "--quiet"]
    assert main([*argv, "--align", "none"]) == 0
    assert "0 reused, 2 computed" in " ".join(capsys.readouterr().out.split())


def test_bench_with_dask_missing_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    root = _tree(tmp_path / "runs")
    assert main(["bench", str(root), "--out", str(tmp_path / "out"), "--dask"]) == 1
    assert "pip install 'robot_msgs[dask]'" in capsys.readouterr().err


def test_bench_ranks_a_signed_error_by_its_magnitude_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """APE --relation x ranked by its median put "far" (-0.2 m) first, ahead of "near"
    (0.05 m): the most negative error best, unsaid (a review)."""
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    np.savetxt(tmp_path / "reference.tum", rows)
    runs = ""
    for algorithm, dx in (("far", -0.2), ("near", 0.05)):
        moved = rows.copy()
        moved[:, 1] += dx  # x errors all dx, estimate minus reference
        np.savetxt(tmp_path / f"{algorithm}.tum", moved)
        runs += (
            f'[[runs]]\nalgorithm = "{algorithm}"\nsequence = "s"\ntrial = 1\n'
            f'reference = "reference.tum"\nestimate = "{algorithm}.tum"\n'
        )
    manifest = tmp_path / "bench.toml"
    settings = 'align = "none"\nstatistic = "median"\n'
    manifest.write_text(f'[settings]\n{settings}[[settings.evaluate]]\nrelation = "x"\n{runs}')
    assert (
        main(["bench", str(manifest), "--out", str(tmp_path / "out"), "--serial", "--quiet"]) == 0
    )
    out = " ".join(capsys.readouterr().out.split())
    assert "1 near 1.00 1/1 100% 0.0500 (1) 2 far 2.00 1/1 100% 0.2000 (2)" in out
    assert (
        "Ranked by the median over successful runs of ape x |median|, per sequence (rank in "
        "brackets; - = not run there; - (k) = run there, none succeeded: ranked last); the "
        "errors are signed: each run's median is ranked by its magnitude, closest to zero best."
    ) in out


def test_bench_with_a_bad_manifest_prints_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "bench.toml"
    manifest.write_text(
        '[settings]\nalign = 3\n[[runs]]\nalgorithm = "a"\nsequence = "s"\ntrial = 1\n'
        'estimate = "e.tum"\n'
    )
    assert main(["bench", str(manifest), "--out", str(tmp_path / "out"), "--quiet"]) == 1
    err = capsys.readouterr().err
    methods = "'none', 'se3', 'sim3', 'scale', 'posyaw', 'translation', 'origin', 'origin_scale'"
    assert err == f"ERROR: {manifest} [settings]: `align`: expected one of {methods}, got int 3\n"


def test_bench_interrupted_says_how_to_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "runs")

    def interrupted(*args: object, **kwargs: object) -> NoReturn:
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep, "run_sweep", interrupted)
    assert main(["bench", str(root), "--out", str(tmp_path / "out")]) == 130
    err = capsys.readouterr().err
    assert "interrupted: every worker stopped; " in err
    assert "run the same command with --resume to finish" in err
    # On a cluster of its own, the workers are not this client's to stop: it says so.
    argv = ["bench", str(root), "--out", str(tmp_path / "out"), "--scheduler", "10.0.0.5:8786"]
    assert main(argv) == 130
    assert (
        "interrupted: this client stopped (the workers of the cluster at tcp://10.0.0.5:8786 "
        "finish the chunks they hold and store their records, which --resume keeps); "
    ) in capsys.readouterr().err
    # The stop was printed as it was, not through the boundary: no ERROR: label, and an
    # --out named with a newline forged a second line on the terminal (a hunt).
    out = tmp_path / "o\nERROR: forged"
    assert main(["bench", str(root), "--out", str(out), "--quiet"]) == 130
    err = capsys.readouterr().err
    assert err.startswith("ERROR: interrupted: every worker stopped; 0 run results"), err
    assert err.count("\n") == 1
    assert "o\\x0aERROR: forged" in err


def test_bench_flags_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["bench", "x", "--out", "o", "--resume", "--force"])
    with pytest.raises(SystemExit, match=r"^2$"):
        main(["bench", "x", "--out", "o", "--dask", "--scheduler", "tcp://127.0.0.1:1"])
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.slow
def test_bench_on_an_existing_dask_scheduler(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    distributed = pytest.importorskip("distributed")
    root = _tree(tmp_path / "runs")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        out = tmp_path / "out"
        argv = ["bench", str(root), "--out", str(out), "--scheduler", address, "--align", "none"]
        assert main(argv) == 0
    assert f"on dask ({address})" in capsys.readouterr().out
    assert _ape_rms(out) == pytest.approx([0.05, 0.10], abs=1e-9)


def test_resume_removes_the_temporary_records_a_killed_sweep_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--quiet"]
    assert main(argv) == 0
    leftover = out / "runs" / ".0123abcd.json.0.tmp"  # as write_atomic names it mid-write
    leftover.write_text('{"half": ', encoding="utf-8")
    assert main([*argv, "--resume"]) == 0
    assert not leftover.exists()
    assert not list((out / "runs").glob(".*.tmp"))


def test_the_dashboard_needs_the_local_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    assert main(["bench", str(root), "--out", str(tmp_path / "o"), "--serial", "--dashboard"]) == 2
    assert "ERROR: --dashboard serves the dashboard of the LocalCluster --dask starts" in (
        capsys.readouterr().err
    )
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_the_dashboard_is_served_on_loopback_and_its_address_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    root = _tree(tmp_path / "runs")
    argv = ["bench", str(root), "--out", str(tmp_path / "o"), "--dask", "--workers", "1"]
    assert main([*argv, "--dashboard"]) == 0
    err = capsys.readouterr().err
    (line,) = [x for x in err.splitlines() if x.startswith("dashboard: ")]
    assert line.startswith("dashboard: http://127.0.0.1:")


def test_an_out_that_is_a_file_is_refused_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    out.write_text("keep")

    def no_run(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError  # pragma: no cover - the sweep must not start

    monkeypatch.setattr(sweep, "settings_identity", no_run)
    assert main(["bench", str(root), "--out", str(out), "--serial", "--quiet"]) == 1
    assert capsys.readouterr().err == (
        f"ERROR: --out {out}: is a file, not a folder; give a folder (it is created if missing)\n"
    )
    assert out.read_text() == "keep"


def test_worker_flags_are_named_and_refused_where_they_do_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"

    def no_run(*args: object, **kwargs: object) -> NoReturn:
        raise AssertionError  # pragma: no cover - refused before the inputs are hashed

    monkeypatch.setattr(sweep, "settings_identity", no_run)
    argv = ["bench", str(root), "--out", str(out), "--quiet"]
    assert main([*argv, "--workers", "0"]) == 2  # a value out of bounds: a usage error
    assert capsys.readouterr().err == (
        f"ERROR: --workers 0: expected a count of workers from 1 to {max_workers()}, got 0\n"
    )
    assert main([*argv, "--retries", "-1"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --retries -1: expected a count of retries from 0 to 100, got -1\n"
    )
    assert main([*argv, "--workers", "2", "--serial"]) == 2
    assert capsys.readouterr().err == (
        "ERROR: --workers 2: has no effect, as --serial evaluates in this process; drop it\n"
    )
    assert main([*argv, "--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "the cluster at --scheduler has its own workers" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("command", ["bench", "report"])
def test_repeated_stamps_all_is_refused_before_any_run_naming_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A run is read once for all its metrics: bench took `--repeated-stamps all` and failed
    every run with it (18 of 18 on the example, exit 1, a results table of failures)."""
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    argv = [command, str(root), "--repeated-stamps", "all", "--quiet"]
    assert main([*argv, "--out", str(out)] if command == "bench" else argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("ERROR: --repeated-stamps all: keeps repeated stamps, which only `ape`")
    assert not out.exists()


def test_a_sweep_in_which_every_run_fails_names_the_first_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    for trial in (1, 2):
        (root / "orb" / "MH_01" / str(trial) / "estimate.tum").write_text("1 2 3\n")
    out = tmp_path / "out"
    assert main(["bench", str(root), "--out", str(out), "--serial", "--quiet"]) == 1
    captured = capsys.readouterr()
    first = root / "orb" / "MH_01" / "1" / "estimate.tum"
    (line,) = captured.err.splitlines()
    assert line.startswith(
        "ERROR: 2 of 2 runs did not finish (2 failed to evaluate, 0 not evaluated): "
        f"orb/MH_01/1: FormatError: {first}: cannot tell the format: line 1 has 3 numbers"
    )
    assert line.endswith(" (and 1 more: see above); --allow-partial accepts a partial sweep")
    assert captured.out.startswith("2 runs: 0 evaluated (0 succeeded), 2 failed to evaluate")
    summary = _json(out / "summary.json")
    assert (summary["n_failed"], summary["complete"]) == (2, False)


def test_a_full_disk_exits_74_naming_the_runs_not_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"

    def full(path: Any, data: Any, *, force: bool = False) -> NoReturn:
        msg = f"{path}: cannot write it: no space left on the device"
        raise OSError(errno.ENOSPC, msg)

    monkeypatch.setattr(store, "write_atomic", full)  # every record: a simulated full disk
    assert main(["bench", str(root), "--out", str(out), "--serial", "--allow-partial"]) == 74
    printed = capsys.readouterr()
    said = " ".join(printed.out.split())  # the summary wraps at 80 columns
    assert "stopped: a run's record could not be stored: " in said
    assert "not evaluated: orb/MH_01/1: RecordNotStored: " in said
    assert "not evaluated: orb/MH_01/2: NotRun: not evaluated: the sweep stopped: " in said
    error = printed.err.splitlines()[-1]
    assert error.startswith("ERROR: the sweep stopped: a run's record could not be stored: ")
    assert error.endswith(
        "2 of 2 runs not evaluated or not stored (named in summary.json; the first: "
        f"orb/MH_01/1: RecordNotStored: {error.split('RecordNotStored: ')[-1]}"
    )
    assert "free some space and run the same command with --resume" in error
    assert not (out / "results.parquet").exists()
    assert _json(out / "summary.json")["storage_error"] is True
    monkeypatch.undo()
    assert main(["bench", str(root), "--out", str(out), "--serial", "--resume", "--quiet"]) == 0
    assert _ape_rms(out) == pytest.approx([0.0, 0.0], abs=1e-9)  # SE(3): the offsets go


def test_a_folder_in_use_is_refused_at_once_naming_its_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    out.mkdir()
    with FolderLock(out):  # another sweep holds it (an open file of its own: its lock)
        assert main(["bench", str(root), "--out", str(out), "--serial", "--resume"]) == 1
        err = capsys.readouterr().err
        assert err == (
            f"ERROR: {out} is in use by another sweep (pid {os.getpid()} on "
            f"{socket.gethostname()}, since {err.split('since ')[1].split(';')[0]}; lock "
            f"{out / '.bench.lock'}): one client per output folder; wait for it to end or stop "
            "it, or give another --out\n"
        )  # before reading a run: not even "reading the runs"
        assert sorted(p.name for p in out.iterdir()) == [".bench.lock"]  # the other's, kept
    assert sorted(p.name for p in out.iterdir()) == []  # the other sweep released it


def test_chunk_seconds_and_the_stall_timeout_are_checked_and_reach_the_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _tree(tmp_path / "runs")
    out = tmp_path / "out"
    # Out of their bounds, they exited 1 and said 0 as 0.0; every other flag's value out of
    # its bounds (--workers 0, --max-diff -1) is the command line's: exit 2, as typed.
    for flag, value, bound in (
        ("--chunk-s", "0", "> 0"),
        ("--chunk-s", "nan", "> 0"),
        ("--stall-timeout", "-1", ">= 0"),
        ("--stall-timeout", "inf", ">= 0"),
    ):
        assert main(["bench", str(root), "--out", str(out), flag, value, "--quiet"]) == 2
        assert capsys.readouterr().err == (
            f"ERROR: {flag} {value}: expected a number of seconds {bound}, got {value}\n"
        )
    assert not out.exists()
    argv = ["bench", str(root), "--out", str(out), "--chunk-s", "2.5", "--stall-timeout", "0"]
    assert main([*argv, "--serial", "--quiet"]) == 0
    assert _json(out / "summary.json")["chunk_s"] == 2.5


def test_the_rankings_name_the_reading_rules_chosen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """KITTI rows as given move the numbers: bench's rankings say so, as report's do."""
    _, _, manifest = write_kitti_run(tmp_path, 'kitti_rotations = "as_given"')
    flags = ["--out", str(tmp_path / "out"), "--serial", "--rpe-delta", "1", "--rpe-unit", "f"]
    assert main(["bench", str(manifest), *flags]) == 0
    out = capsys.readouterr().out
    assert "Settings: --kitti-rotations as_given." in out
    assert "Settings: --kitti-rotations as_given --rpe-unit f." in out


def test_resume_under_other_reading_rules_computes_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Records computed with KITTI rows' nearest rotations are not reused as given."""
    gt, est, manifest = write_kitti_run(tmp_path)
    out = tmp_path / "out"
    argv = ["bench", str(manifest), "--out", str(out), "--serial", "--quiet", "--resume"]
    argv += ["--rpe-delta", "1", "--rpe-unit", "f"]
    rpe = "rpe:translation:1f:all"
    rms = {}
    for rule in ("nearest", "as_given"):
        assert main([*argv, "--kitti-rotations", rule]) == 0
        assert "0 reused, 1 computed" in " ".join(capsys.readouterr().out.split())
        [row] = [r for r in read_results(out / "results.parquet") if r["evaluation"] == rpe]
        rms[rule] = row["rms"]
        single = [
            "rpe", str(gt), str(est), "--align", "se3", "--delta", "1", "--delta-unit", "f",
            "--all-pairs", "--kitti-rotations", rule, "--json",
        ]  # fmt: skip
        assert main(single) == 0
        assert rms[rule] == json.loads(capsys.readouterr().out)["signals"][0]["stats"]["rms"]
    assert rms["as_given"] != rms["nearest"]
    assert main([*argv, "--kitti-rotations", "nearest"]) == 0  # its records are still there
    assert "1 reused, 0 computed" in " ".join(capsys.readouterr().out.split())


def test_help_says_the_default_number_of_retries(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bench --help` said what --retries counts and not how many are made when it is not given.

    The default the help states is the one the parser sets.
    """
    import argparse

    from robot_msgs.cli.bench import add_parser

    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit, match="0"):
        main(["bench", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    retries = text.split("--retries N ", 1)[1].split(" --resume", 1)[0]
    parser = argparse.ArgumentParser(prog="robot-msgs")
    add_parser(parser.add_subparsers())
    default = parser.parse_args(["bench", "runs/", "--out", "out"]).retries
    assert retries.endswith(f"(every executor; default {default})")


@pytest.mark.parametrize(
    ("name", "content"),
    [  # a no-op --resume prints the rankings of the files kept: each was 'a bug in robot_msgs'
        ("ranking.json", "[" * 10_000 + "]" * 10_000),  # RecursionError
        ("ranking.json", '{"a": 1}'),  # TypeError: string indices
        ("ranking.json", '[{"evaluation": "x", "ranking": {"_type": "nope"}}]'),  # unnamed
        ("repeatability.json", '[{"runs": 1}]'),  # ValidationError, unnamed
    ],
)
def test_a_kept_ranking_that_is_not_one_is_an_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str
) -> None:
    root = _tree(tmp_path / "runs")
    for path in root.rglob("*.tum"):  # older than racy: the resume keeps the outputs
        os.utime(path, (1_600_000_000, 1_600_000_000))
    out = tmp_path / "out"
    argv = ["bench", str(root), "--out", str(out), "--serial", "--quiet"]
    assert main(argv) == 0
    (out / name).write_text(content)
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 1
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("ERROR: ")]
    assert line.startswith(f"ERROR: {out / name}: not the file bench wrote (")
    assert line.endswith(
        f"delete {out / 'summary.json'} and run the same command with --resume to write "
        "the outputs again"
    )
    (out / "summary.json").unlink()
    assert main([*argv, "--resume"]) == 0
    assert "2 reused, 0 computed" in " ".join(capsys.readouterr().out.split())
    assert (out / name).read_text() != content


def test_a_manifest_entry_whose_folder_is_missing_fails_its_run_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One [[runs]] entry naming a deleted trial stopped the sweep before any run (ERROR,
    nothing evaluated). It is one failed run, named with its entry; the others are
    evaluated (RMS 0.05 and 0.10 m by construction), the exit code says the failure, and
    --resume evaluates it once its folder is there."""
    root = _tree(tmp_path / "runs")
    entry = '[[runs]]\npath = "runs/orb/MH_01/{0}"\nalgorithm = "orb"\nsequence = "MH_01"\ntrial = {0}\n'
    manifest = tmp_path / "runs.toml"
    refs = '[references]\nMH_01 = "runs/MH_01/reference.tum"\n'
    manifest.write_text(refs + "".join(entry.format(k) for k in (1, 9, 2)))
    out = tmp_path / "out"
    argv = ["bench", str(manifest), "--serial", "--quiet", "--align", "none", "--out", str(out)]
    assert main(argv) == 1
    printed = capsys.readouterr()
    said = (
        f"{manifest} [[runs]] #2: `path` {root}/orb/MH_01/9 is not a run folder (no such directory)"
    )
    (error,) = [line for line in printed.err.splitlines() if line.startswith("ERROR:")]
    assert error == (
        "ERROR: 1 of 3 runs did not finish (1 failed to evaluate, 0 not evaluated): "
        f"runs/orb/MH_01/9: FormatError: {said}; --allow-partial accepts a partial sweep"
    )
    assert f"failed to evaluate: runs/orb/MH_01/9: FormatError: {said}" in " ".join(
        printed.out.split()
    )
    assert _ape_rms(out) == [pytest.approx(0.05, abs=1e-9), None, pytest.approx(0.10, abs=1e-9)]
    shutil.copytree(root / "orb" / "MH_01" / "1", root / "orb" / "MH_01" / "9")
    assert main([*argv, "--resume"]) == 0
    assert "2 reused, 1 computed" in " ".join(capsys.readouterr().out.split())
    assert _ape_rms(out) == pytest.approx([0.05, 0.05, 0.10], abs=1e-9)


def test_the_users_max_bytes_bounds_their_inputs_not_the_sweeps_own_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--max-bytes 1000 bench`` stopped the sweep at its own record ("larger than the 1000
    bytes a run record may hold (1459 bytes)") and its ranking.json: the flag bounds the
    user's inputs; the sweep's own files, bounded by ``own_file_bytes``, are read back,
    on --resume too. RMS 0.05 and 0.10 m by construction (offsets along z, no alignment)."""
    t = np.arange(10) * 0.3
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = tmp_path / "runs"
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows, fmt="%.4f")
    for trial in (1, 2):
        run = root / "orb" / "MH_01" / str(trial)
        run.mkdir(parents=True)
        shifted = rows.copy()
        shifted[:, 3] += 0.05 * trial
        np.savetxt(run / "estimate.tum", shifted, fmt="%.4f")
    assert max(f.stat().st_size for f in root.rglob("*.tum")) < 1000
    out = tmp_path / "out"
    argv = ["--max-bytes", "1000", "bench", str(root), "--serial", "--quiet", "--out", str(out)]
    assert main([*argv, "--align", "none"]) == 0
    assert " ".join(capsys.readouterr().out.split()).startswith("2 runs: 2 evaluated")
    assert min(f.stat().st_size for f in (out / "runs").rglob("*.json")) > 1000
    assert _ape_rms(out) == [pytest.approx(0.05, abs=1e-9), pytest.approx(0.10, abs=1e-9)]
    assert main([*argv, "--align", "none", "--resume"]) == 0
    assert "2 reused, 0 computed" in " ".join(capsys.readouterr().out.split())


def test_warnings_alike_about_many_folders_are_one_line_after_the_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """30 folders holding only a timing log: one warning line naming three, as report says.

    WHY: bench read them one warning each (30 lines, through the progress line), after
    ``report`` had grouped the same warnings (a review of 2447821e).
    """
    make_tree(tmp_path / "runs", trials=2)
    crashed = [tmp_path / "runs" / "crashy" / "MH_01" / f"{k:02d}" for k in range(30)]
    for folder in crashed:
        folder.mkdir(parents=True)
        (folder / "timing.csv").write_text("stamp,latency\n0.0,0.01\n")
    argv = ["bench", str(tmp_path / "runs"), "--out", str(tmp_path / "out"), "--serial"]
    assert main([*argv, "--quiet"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("WARNING")]
    what = (
        "holds timing.csv but no estimate.<ext> or meta.json: not a run, and not counted "
        "(a run that wrote no estimate counts as failed with a meta.json)"
    )
    assert said == [f"WARNING: {crashed[0]}, {crashed[1]}, {crashed[2]} and 27 more: {what}"]


def test_resume_with_another_rank_rule_reuses_every_run_and_ranks_anew(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rank-failures`` was part of every run's key: a resume with the other rule
    computed every run again (120 runs: 7.1 s, 0 reused, beside 1.4 s), though no run's
    evaluation depends on it. The runs are reused; the rankings are the new rule's.

    By hand (no alignment, z offsets): a's successes 0.05 and 0.10 m and one run ending
    1.9 s early (a failure), b's 0.08 and 0.09 m. Apart: a median 0.075 m before b
    0.085 m; worst: a median(0.05, 0.10, inf) = 0.10 m after b 0.085 m.
    """
    t = np.arange(30) * 0.1
    rows = np.column_stack([t, t, np.sin(t), 0 * t, 0 * t, 0 * t, 0 * t, 0 * t + 1])
    root = tmp_path / "runs"
    (root / "MH_01").mkdir(parents=True)
    np.savetxt(root / "MH_01" / "reference.tum", rows)
    for algorithm, trial, offset, n in [
        ("a", 1, 0.05, 30), ("a", 2, 0.10, 30), ("a", 3, 0.05, 10),
        ("b", 1, 0.08, 30), ("b", 2, 0.09, 30),
    ]:  # fmt: skip
        run = root / algorithm / "MH_01" / str(trial)
        run.mkdir(parents=True)
        np.savetxt(run / "estimate.tum", (rows + np.array([0, 0, 0, offset, 0, 0, 0, 0]))[:n])
    argv = ["bench", str(root), "--serial", "--quiet", "--align", "none"]

    def ranked(out: Path) -> dict[str, Any]:
        return dict(_json(out / "ranking.json")[0]["ranking"])

    out = tmp_path / "out"
    assert main([*argv, "--out", str(out)]) == 0
    capsys.readouterr()
    apart = Ranking.from_dict(ranked(out))
    assert [r.name for r in apart.rows] == ["a", "b"]
    assert [r.scores["MH_01"] for r in apart.rows] == pytest.approx([0.075, 0.085])
    worst = [*argv, "--rank-failures", "worst"]
    assert main([*worst, "--out", str(out), "--resume"]) == 0
    assert "5 reused, 0 computed" in " ".join(capsys.readouterr().out.split())
    fresh = tmp_path / "fresh"
    assert main([*worst, "--out", str(fresh)]) == 0
    assert "0 reused, 5 computed" in " ".join(capsys.readouterr().out.split())
    assert ranked(out) == ranked(fresh)
    ranked_rows = Ranking.from_dict(ranked(out)).rows
    assert [r.name for r in ranked_rows] == ["b", "a"]
    assert [r.scores["MH_01"] for r in ranked_rows] == pytest.approx([0.085, 0.10])
    # And back: the first rule's rankings again, every run still reused.
    assert main([*argv, "--out", str(out), "--resume"]) == 0
    assert "5 reused, 0 computed" in " ".join(capsys.readouterr().out.split())
    assert Ranking.from_dict(ranked(out)) == apart
